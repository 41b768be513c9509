#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The code a 64-byte round trip runs, by size (docs/performance.md,
# "Seventh pass"):
#
#   1. uet's hot code footprint: the client of a 64-byte fi_pingpong
#      under callgrind (--dump-instr), the distinct instructions of
#      libuet-fi.so run at least once per round trip and the distinct
#      64-byte cache lines that hold them, in all and by function (the
#      TOP largest);
#   2. what such code costs in a raw UDP ping-pong: bench/uet_code_turn.c
#      with 0 to 64 KiB of straight-line code in each turn.
#
# Instruction counts and lines are independent of the machine's load;
# the timings of part 2 are not (run it on an idle machine).  Not part of
# make check.
#
#   sh bench/footprint.sh [LIBDIR] [ITERS] [TOP]    LIBDIR: build/.libs
#   FP_KEEP=FILE keeps the callgrind output (callgrind_annotate FILE)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$top/build/.libs}
iters=${2:-3000}
ntop=${3:-15}
tmp=$(mktemp -d)
trap '[ -n "${FP_KEEP:-}" ] && cp "$tmp/cg" "$FP_KEEP"; rm -rf "$tmp"' EXIT INT TERM
for t in cc gawk valgrind fi_pingpong; do
	command -v $t >/dev/null 2>&1 || { echo "footprint.sh: needs $t" >&2; exit 2; }
done
export FI_PROVIDER_PATH="$lib" FI_UET_IFACE=lo

port=$((20000 + $$ % 20000))
fi_pingpong -e rdm -p uet -S 64 -I "$iters" -B "$port" >/dev/null 2>&1 &
srv=$!
sleep 0.5
valgrind --tool=callgrind --dump-instr=yes --compress-pos=no \
	--compress-strings=no --callgrind-out-file="$tmp/cg" \
	fi_pingpong -e rdm -p uet -S 64 -I "$iters" -P "$port" 127.0.0.1 \
	>/dev/null 2>&1 || true
wait "$srv" || true

# Cost lines are "ADDR LINE COST" under ob= (object) and fn= (function);
# the line after calls= is the call's inclusive cost at the call
# instruction, skipped (the call instruction has its own line too).
gawk -v iters="$iters" -v ntop="$ntop" '
/^ob=/ { inlib = index($0, "libuet-fi") > 0; next }
/^fn=/ { fn = substr($0, 4); next }
/^calls=/ { skip = 1; next }
/^0x/ {
	if (skip) { skip = 0; next }
	if (inlib) { cost[$1] += $3; owner[$1] = fn }
	next
}
END {
	for (a in cost) {
		if (cost[a] < iters)
			continue
		n++
		line = int(strtonum(a) / 64)
		if (!(line in seen)) { seen[line] = 1; nl++ }
		f = owner[a]
		fi[f]++
		if (!((f, line) in fseen)) { fseen[f, line] = 1; fl[f]++ }
	}
	printf "hot code of libuet-fi.so (run >= once per round trip):\n"
	printf "  %d instructions in %d cache lines of 64 B (%.1f KiB)\n",
	       n, nl, nl / 16.0
	printf "  the %d functions with the most lines:\n", ntop
	for (k = 0; k < ntop; k++) {
		best = ""
		for (f in fl)
			if (!(f in shown) && (best == "" || fl[f] > fl[best]))
				best = f
		if (best == "")
			break
		shown[best] = 1
		printf "  %5d lines %6d instructions  %s\n", fl[best],
		       fi[best], best
	}
}' "$tmp/cg"

cc -O2 -Wall -o "$tmp/code_turn" "$top/bench/uet_code_turn.c"
echo "straight-line code in each turn of a raw UDP ping-pong:"
for k in 0 8 16 32 48 64; do
	"$tmp/code_turn" "$k" 100000
done
