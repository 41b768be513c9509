#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Where a 64-byte half round trip goes, in time (docs/performance.md):
# the raw-UDP ping-pong (udp-limit), the same with the software NIC's
# system calls (udp-uet-calls) and uet's fi_pingpong, alternated ROUNDS
# times, each client under bench/uet_syscall_clock.c (an LD_PRELOAD shim
# timing its datagram system calls).  Per case and round, one line:
#
#   half-rtt   the tool's own figure, usec
#   recv       receive calls that brought data: per round trip, usec
#              each, datagrams (msghdrs) each
#   empty      receive calls that found nothing, per round trip
#   send       per round trip, usec each, datagrams (msghdrs) each; gso: the
#              calls whose first datagram is a UDP GSO run (data with
#              the ACK joined to it), per round trip
#   turn       median and mean usec from the return of a receive with
#              data to the next send: the user space on the critical path
#
# The shim adds 0.1-0.3 usec to each case.  Timings: run on an idle
# machine and compare within one run.  Not part of make check.
#
#   sh bench/split.sh [LIBDIR] [ITERS] [ROUNDS]   LIBDIR: build/.libs
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$top/build/.libs}
iters=${2:-30000}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for t in cc fi_pingpong; do
	command -v $t >/dev/null 2>&1 || { echo "split.sh: needs $t" >&2; exit 2; }
done
cc -O2 -Wall -shared -fPIC -o "$tmp/clock.so" "$top/bench/uet_syscall_clock.c" -ldl
cc -O2 -Wall -o "$tmp/udp_limit" "$top/bench/uet_udp_limit.c"
export FI_PROVIDER_PATH="$lib" FI_UET_IFACE=lo

# show NAME HALF_RTT: the shim's line for the case, laid out.
show() {
	set -- "$1" "$2" $(cat "$tmp/clk")
	# $3.. = recv-data per usec dg recv-empty per usec send per usec dg
	#        gso per usec turn N median mean
	printf '%-14s half-rtt %6s  recv %4s/rt %5s usec %4s dg  ' \
		"$1" "$2" "$4" "$5" "$6"
	printf 'empty %4s/rt  send %4s/rt %5s usec %4s dg  gso %4s/rt  ' \
		"$8" "${11}" "${12}" "${13}" "${15}"
	printf 'turn %5s / %5s usec\n' "${19}" "${20}"
}

port=$((30000 + $$ % 20000))
r=0
while [ "$r" -lt "$rounds" ]; do
	rm -f "$tmp/clk"
	v=$(UET_CLOCK_OUT="$tmp/clk" LD_PRELOAD="$tmp/clock.so" \
		"$tmp/udp_limit" pingpong 64 "$iters" | awk '{ print $3 }')
	show udp-limit "$v"
	rm -f "$tmp/clk"
	v=$(UET_CLOCK_OUT="$tmp/clk" LD_PRELOAD="$tmp/clock.so" \
		"$tmp/udp_limit" pingpong-uet 120 "$iters" | awk '{ print $3 }')
	show udp-uet-calls "$v"
	rm -f "$tmp/clk"
	port=$((port + 1))
	UET_CLOCK_OUT=/dev/null LD_PRELOAD="$tmp/clock.so" timeout 60 \
		fi_pingpong -p uet -e rdm -S 64 -I "$iters" -B "$port" \
		>/dev/null 2>&1 &
	srv=$!
	sleep 0.3
	v=$(UET_CLOCK_OUT="$tmp/clk" LD_PRELOAD="$tmp/clock.so" timeout 60 \
		fi_pingpong -p uet -e rdm -S 64 -I "$iters" -P "$port" \
		127.0.0.1 | awk '$1 == 64 { print $7 }')
	wait "$srv" || true
	show uet "$v"
	r=$((r + 1))
done
