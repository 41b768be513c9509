#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The training run of a profile-guided build (configure --enable-pgo,
# pgo.am): loopback traffic through the instrumented provider, whose
# counters land in the profile directory it was compiled with.
#
#   sh scripts/pgo-train.sh LIBDIR [RMA_PROG]
#
# LIBDIR holds the instrumented libuet-fi.so (FI_PROVIDER_PATH), RMA_PROG
# is bench/uet_pgo_rma (RMA writes and reads, atomics).  fi_pingpong
# (libfabric-bin) server/client pairs on 127.0.0.1, FI_UET_IFACE=lo, RDM:
# 64 bytes untagged and tagged (most of the profile: the path the
# layout is for), then 1 KiB to 1 MiB.  Control ports and bounded waits
# are test/pingpong_lib.sh's (a base derived from the PID, probed: two
# builds at once do not collide); every process runs under timeout.
# Exits non-zero when a run fails, or (pp_init: 77) when fi_info does not
# list the provider: a profile of a failing provider is not one to build
# with.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: pgo-train.sh LIBDIR [RMA_PROG]" >&2; exit 2; }
libdir=$(cd "$1" && pwd) || exit 2
rma=${2:-}
for t in fi_pingpong fi_info timeout; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "pgo-train.sh: $t not found: --enable-pgo trains the" \
			"provider with it (fi_*: apt-get install libfabric-bin," \
			"timeout: coreutils)" >&2
		exit 1
	fi
done
[ -f "$libdir/libuet-fi.so" ] ||
	{ echo "pgo-train.sh: no $libdir/libuet-fi.so" >&2; exit 1; }

FI_PROVIDER_PATH=$libdir
FI_PROVIDER=uet
FI_UET_IFACE=lo
FI_UET_ADDR_FAMILY=ipv4
export FI_PROVIDER_PATH FI_PROVIDER FI_UET_IFACE FI_UET_ADDR_FAMILY
# shellcheck disable=SC2034 # read by test/pingpong_lib.sh
PROV=uet
PP_TIMEOUT=${PP_TIMEOUT:-120}
# shellcheck source=../test/pingpong_lib.sh
. "$here/../test/pingpong_lib.sh"
pp_init
trap pp_cleanup EXIT
trap 'exit 130' INT TERM HUP

echo "pgo-train.sh: training the provider in $libdir"
# combo name, then fi_pingpong's arguments.
train() {
	name=$1
	shift
	pp_pair "$name" "" lo "" lo 127.0.0.1 "" -e rdm "$@"
}
train msg-64 -m msg -S 64 -I 10000
train tagged-64 -m tagged -S 64 -I 10000
train msg-1k -m msg -S 1024 -I 2000
train tagged-16k -m tagged -S 16384 -I 1000
train msg-256k -m msg -S 262144 -I 100
train tagged-1m -m tagged -S 1048576 -I 50
if [ -n "$rma" ]; then
	if timeout -k 5 "$PP_TIMEOUT" "$rma" 500; then
		pp_npass=$((pp_npass + 1))
		echo "PASS rma: uet_pgo_rma"
	else
		pp_nfail=$((pp_nfail + 1))
		echo "FAIL rma: uet_pgo_rma"
	fi
fi
if [ "$pp_nfail" -ne 0 ]; then
	echo "pgo-train.sh: the training run failed" >&2
	exit 1
fi
pp_summary
