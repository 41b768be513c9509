#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Two builds of the provider, alternated (docs/performance.md, issue 34):
# fi_pingpong -e rdm over loopback at each SIZE, build A then build B,
# ROUNDS times, and the median half round trip (usec) of each build and
# size, with B/A.  Timings: run on an idle machine and compare within one
# run.  Not part of make check.
#
#   sh bench/ab.sh LIBDIR_A LIBDIR_B "SIZE ..." [ROUNDS] [ITERS]
#
# e.g. sh bench/ab.sh build-main/.libs build/.libs "64 16384" 8 20000
set -eu
[ $# -ge 3 ] || { echo "usage: $0 LIBDIR_A LIBDIR_B \"SIZE ...\" [ROUNDS] [ITERS]" >&2; exit 2; }
liba=$1
libb=$2
sizes=$3
rounds=${4:-8}
iters=${5:-20000}
command -v fi_pingpong >/dev/null 2>&1 || { echo "ab.sh: needs fi_pingpong" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# one SIZE LIB -> usec/xfer of the client (empty on failure)
one() {
	port=$((30000 + ($$ + $(od -An -N2 -tu2 /dev/urandom)) % 20000))
	n=$2
	[ "$1" -gt 65536 ] && n=$((iters / 20 + 20))
	FI_PROVIDER_PATH=$3 FI_UET_IFACE=lo timeout 60 \
		fi_pingpong -p uet -e rdm -S "$1" -I "$n" -B "$port" \
		>/dev/null 2>&1 &
	srv=$!
	sleep 0.3
	FI_PROVIDER_PATH=$3 FI_UET_IFACE=lo timeout 60 \
		fi_pingpong -p uet -e rdm -S "$1" -I "$n" -P "$port" 127.0.0.1 \
		2>/dev/null | awk '$1 ~ /^[0-9]/ && NF >= 8 { print $(NF - 1) }'
	wait "$srv" 2>/dev/null || true
}

r=1
while [ "$r" -le "$rounds" ]; do
	for s in $sizes; do
		for b in A B; do
			[ "$b" = A ] && lib=$liba || lib=$libb
			v=$(one "$s" "$iters" "$lib")
			[ -n "$v" ] && echo "$s $b $v" >>"$tmp/all"
			echo "round $r size $s build $b ${v:-failed} usec"
		done
	done
	r=$((r + 1))
done
echo "size  A(median)  B(median)  B/A"
for s in $sizes; do
	a=$(awk -v s="$s" '$1 == s && $2 == "A" { print $3 }' "$tmp/all" | sort -g |
	    awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	b=$(awk -v s="$s" '$1 == s && $2 == "B" { print $3 }' "$tmp/all" | sort -g |
	    awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	awk -v s="$s" -v a="${a:-0}" -v b="${b:-0}" \
		'BEGIN { printf "%-6s %9.3f %9.3f  %5.3f\n", s, a, b, (a > 0 ? b / a : 0) }'
done
