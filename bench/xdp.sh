#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# uet over AF_XDP against uet over UDP and raw UDP sockets, between two
# network namespaces joined by a veth pair (MTU 1500), as a user
# deploys two hosts (docs/performance.md, "AF_XDP link").  Interleaved:
# every round runs each case once, in turn, so that a noisy minute of
# the machine hits all of them; the medians over ROUNDS are printed.
#
#   sh bench/xdp.sh [ROUNDS]          (default 7; root, not make check)
#
# Cases per round:
#   raw-udp   bench/uet_udp_pingpong: 64-byte datagrams, both sides
#             busy-polling a non-blocking socket (the socket floor)
#   uet-udp   fi_pingpong -e rdm -S 64, FI_UET_LINK=udp
#   uet-xdp   fi_pingpong -e rdm -S 64, FI_UET_LINK=xdp (the log must
#             name the AF_XDP link, else the script stops)
#   bw-udp, bw-xdp   fi_pingpong -S 1m (MB/s)
# ITERS (64 B round trips, default 20000) and BW_ITERS (1 MiB, default
# 100).  UET_BUILD: the build directory (default build/).  PIN=1 runs
# the server side on CPU 0 and the client side on CPU 1 (taskset), in
# every case alike.  Traffic stays in the two namespaces, removed on
# exit.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UET_BUILD:-$top/build}
rounds=${1:-7}
ITERS=${ITERS:-20000}
BW_ITERS=${BW_ITERS:-100}

[ "$(id -u)" = 0 ] || { echo "bench/xdp.sh: needs root (namespaces, XDP)" >&2; exit 2; }
for t in ip fi_pingpong cc timeout; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench/xdp.sh: $t missing" >&2; exit 2; }
done
[ -f "$build/.libs/libuet-fi.so" ] || { echo "bench/xdp.sh: build uet first ($build)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-xdp-bench.XXXXXX")
ns1=uet-xb-$$-a
ns2=uet-xb-$$-b
cleanup() {
	for ns in $ns1 $ns2; do
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
cc -O2 -Wall -o "$tmp/udp_pp" "$top/bench/uet_udp_pingpong.c"

a1=10.251.11.1
a2=10.251.11.2
ip netns add $ns1
ip netns add $ns2
ip -n $ns1 link add uetxb$$a mtu 1500 type veth peer name uetxb$$b netns $ns2 mtu 1500
for x in "$ns1 uetxb$$a $a1" "$ns2 uetxb$$b $a2"; do
	# shellcheck disable=SC2086
	set -- $x
	ip -n "$1" link set lo up
	ip -n "$1" link set "$2" addrgenmode none
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$1" link set "$2" up
done
sleep 0.5
ip netns exec $ns2 ping -c 1 -W 2 $a1 >/dev/null

export FI_PROVIDER_PATH="$build/.libs"
port=23000
pin0=""
pin1=""
if [ "${PIN:-0}" = 1 ] && command -v taskset >/dev/null 2>&1; then
	pin0="taskset -c 0"
	pin1="taskset -c 1"
fi

# uet LINK SIZE ITERS: fi_pingpong, prints "usec/xfer MB/s".
uet() {
	port=$((port + 1))
	FI_UET_LINK=$1 FI_LOG_LEVEL=info FI_LOG_PROV=uet timeout -k 5 120 \
		ip netns exec $ns1 $pin0 fi_pingpong -p uet -e rdm -B $port -S "$2" \
		-I "$3" >"$tmp/srv" 2>&1 &
	spid=$!
	sleep 0.3
	FI_UET_LINK=$1 FI_LOG_LEVEL=info FI_LOG_PROV=uet timeout -k 5 120 \
		ip netns exec $ns2 $pin1 fi_pingpong -p uet -e rdm -P $port -S "$2" \
		-I "$3" $a1 >"$tmp/cli" 2>&1 || true
	wait $spid || true
	if [ "$1" = xdp ] && ! grep -q "AF_XDP link on .*(AF_XDP on" "$tmp/cli"; then
		echo "bench/xdp.sh: uet did not run over AF_XDP:" >&2
		grep -h "AF_XDP" "$tmp/cli" "$tmp/srv" >&2 || true
		exit 1
	fi
	awk 'NF == 8 && $3 ~ /^=/ { l = $7 " " $6 } END { print l }' "$tmp/cli"
}

raw() {
	port=$((port + 1))
	timeout 60 ip netns exec $ns1 $pin0 "$tmp/udp_pp" server $a1 $port 64 "$ITERS" &
	spid=$!
	sleep 0.2
	timeout 60 ip netns exec $ns2 $pin1 "$tmp/udp_pp" client $a2 $a1 $port 64 "$ITERS" |
		awk '{ print $3 }'
	wait $spid || true
}

least() {
	sort -n | head -n 1
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-";
		else if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "bench/xdp.sh: $rounds rounds, ITERS=$ITERS BW_ITERS=$BW_ITERS," \
	"veth in two namespaces, load $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$tmp/raw"; : >"$tmp/udp"; : >"$tmp/xdp"; : >"$tmp/bwu"; : >"$tmp/bwx"
r=1
while [ $r -le "$rounds" ]; do
	v_raw=$(raw)
	v_udp=$(uet udp 64 "$ITERS")
	v_xdp=$(uet xdp 64 "$ITERS")
	v_bwu=$(uet udp 1048576 "$BW_ITERS")
	v_bwx=$(uet xdp 1048576 "$BW_ITERS")
	echo "round $r: 64 B half RTT usec: raw-udp $v_raw uet-udp" \
		"${v_udp% *} uet-xdp ${v_xdp% *}; 1 MiB MB/s: uet-udp" \
		"${v_bwu#* } uet-xdp ${v_bwx#* }"
	echo "$v_raw" >>"$tmp/raw"
	echo "${v_udp% *}" >>"$tmp/udp"
	echo "${v_xdp% *}" >>"$tmp/xdp"
	echo "${v_bwu#* }" >>"$tmp/bwu"
	echo "${v_bwx#* }" >>"$tmp/bwx"
	r=$((r + 1))
done
echo "medians: 64 B half RTT usec: raw-udp $(median <"$tmp/raw")" \
	"uet-udp $(median <"$tmp/udp") uet-xdp $(median <"$tmp/xdp");" \
	"1 MiB MB/s: uet-udp $(median <"$tmp/bwu") uet-xdp $(median <"$tmp/bwx")"
echo "best round: 64 B half RTT usec: raw-udp $(least <"$tmp/raw")" \
	"uet-udp $(least <"$tmp/udp") uet-xdp $(least <"$tmp/xdp");" \
	"1 MiB MB/s: uet-udp $(sort -n "$tmp/bwu" | tail -n 1)" \
	"uet-xdp $(sort -n "$tmp/bwx" | tail -n 1)"
grep -h "AF_XDP link on .*:" "$tmp/cli" | sed 's/.*software NIC: /last uet-xdp client: /' || true
