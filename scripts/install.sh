#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Install dependencies, build, install the provider where the system
# libfabric looks for external providers, show that libfabric sees it, and
# run libfabric's fi_pingpong over it on loopback (exits non-zero when
# that fails).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
./autogen.sh >/dev/null
mkdir -p build-install
cd build-install
../configure --quiet --prefix=/usr \
	--libdir="$(pkg-config --variable=libdir libfabric)"
make -j"$(nproc)" >/dev/null
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO make install >/dev/null
echo "installed: $(pkg-config --variable=libdir libfabric)/libfabric/libuet-fi.so"
fi_info -l | grep -A1 '^uet:'

# A real exchange through the installed provider: fi_pingpong (from
# libfabric-bin) over loopback, 100 round trips of 1 KiB with data checks.
# The client retries, a bounded number of times, while the server's
# control socket is not listening yet.
echo "fi_pingpong over uet on 127.0.0.1:"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
FI_UET_IFACE=lo timeout 60 fi_pingpong -p uet -e rdm -c -I 100 -S 1024 \
	>"$out/server" 2>&1 &
server=$!
tries=0
while :; do
	crc=0
	FI_UET_IFACE=lo timeout 60 fi_pingpong -p uet -e rdm -c -I 100 -S 1024 \
		127.0.0.1 >"$out/client" 2>&1 || crc=$?
	tries=$((tries + 1))
	if [ "$crc" -eq 0 ] || [ "$tries" -ge 50 ] ||
		! grep -q 'failed to connect' "$out/client" ||
		! kill -0 "$server" 2>/dev/null; then
		break
	fi
	sleep 0.1
done
if [ "$crc" -ne 0 ]; then
	kill "$server" 2>/dev/null || :
fi
src=0
wait "$server" || src=$?
cat "$out/client"
if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
	echo "install.sh: fi_pingpong failed (client $crc, server $src);" \
		"server output:"
	cat "$out/server"
	exit 1
fi
echo "fi_pingpong: passed"
