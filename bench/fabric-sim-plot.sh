#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Runs the congestion scenarios of bench/fabric-sim and draws the plots of
# docs/congestion.md (gnuplot; installed with apt-get when missing and
# root).  Not part of make check.
#
#   sh bench/fabric-sim-plot.sh [OUTDIR]     default OUTDIR: docs/img
#
# UET_BUILD names the build directory (default build/), which must hold
# bench/fabric-sim (make bench/fabric-sim).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UET_BUILD:-$top/build}
out=${1:-$top/docs/img}
sim=$build/bench/fabric-sim
[ -x "$sim" ] || { echo "fabric-sim-plot: build $sim first" >&2; exit 2; }
if ! command -v gnuplot >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq && apt-get install -y -qq gnuplot-nox >/dev/null
	else
		echo "fabric-sim-plot: gnuplot missing" >&2
		exit 2
	fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$out"

for s in "incast off" "incast nscc" "incast rccc" "incast both" \
	"ecmp nospray" "ecmp spray" "degraded spray"; do
	# shellcheck disable=SC2086
	set -- $s
	"$sim" "$1" "$2" -o "$tmp/$1-$2.csv" 2>>"$tmp/summary.txt" || true
done
cat "$tmp/summary.txt"

# Leaf-spine: per-spine rate (Gbit/s) from the cumulative byte columns,
# and the aggregate goodput of the flows.
for f in ecmp-nospray ecmp-spray degraded-spray; do
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^spine/) s[++n] = i;
			   for (i = 1; i <= NF; i++) if ($i ~ /^gbps/) g[++m] = i; next }
		 { dt = $1 - t; t = $1; printf "%s", $1;
		   tot = 0; for (k = 1; k <= m; k++) tot += $g[k]; printf " %.2f", tot;
		   for (k = 1; k <= n; k++) { v = $s[k]; printf " %.2f", (v - p[k]) * 8 / (dt * 1000); p[k] = v }
		   printf "\n" }' "$tmp/$f.csv" >"$tmp/$f.dat"
done

gnuplot <<EOF
set datafile separator ","
set terminal pngcairo size 900,520 font ",10"
set key top right noenhanced
set grid
set termoption noenhanced

set output "$out/cc-incast-queue.png"
set title "Incast 8 -> 1, 100 Gbit/s port: bottleneck queue (1 MiB buffer, ECN at 64 KiB)"
set xlabel "time (us)"; set ylabel "queue (KiB)"
plot "$tmp/incast-off.csv" using 1:2 with lines lw 2 title "FI_UET_CC=off", \
     "$tmp/incast-nscc.csv" using 1:2 with lines lw 2 title "nscc", \
     "$tmp/incast-rccc.csv" using 1:2 with lines lw 2 title "rccc", \
     "$tmp/incast-both.csv" using 1:2 with lines lw 2 title "both"

set output "$out/cc-incast-nscc.png"
set title "Incast 8 -> 1 with NSCC: congestion window and goodput per sender"
set ylabel "cwnd (KiB)"; set y2label "goodput (Gbit/s, 10 us samples)"
set y2tics; set ytics nomirror
plot for [i=0:7] "$tmp/incast-nscc.csv" using 1:(column(3 + 2 * i)) with lines title sprintf("cwnd %d", i), \
     "$tmp/incast-nscc.csv" using 1:(\$4+\$6+\$8+\$10+\$12+\$14+\$16+\$18) axes x1y2 with lines lw 2 lc rgb "black" title "sum of goodput"
unset y2tics; unset y2label; set ytics mirror

set datafile separator " "
set output "$out/cc-ecmp.png"
set title "4 flows over 4 spines (400 Gbit/s): one entropy per flow vs sprayed over 16"
set ylabel "Gbit/s"
plot "$tmp/ecmp-nospray.dat" using 1:2 with lines lw 2 title "goodput, one entropy", \
     "$tmp/ecmp-spray.dat" using 1:2 with lines lw 2 title "goodput, sprayed"

set output "$out/cc-degraded.png"
set title "Sprayed, spine 0 at 25% from 300 us to 1000 us: bytes entering each leaf 0 uplink (10 us samples)"
set ylabel "Gbit/s"
set arrow from 300, graph 0 to 300, graph 1 nohead dt 2
set arrow from 1000, graph 0 to 1000, graph 1 nohead dt 2
plot for [k=0:3] "$tmp/degraded-spray.dat" using 1:(column(3 + k)) with lines lw 2 title sprintf("spine %d", k)
EOF
echo "fabric-sim-plot: wrote $out/cc-*.png"
