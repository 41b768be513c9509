#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The benchmark harness (docs/performance.md): builds uet if needed,
# builds the raw-UDP limit program (and the MPI benchmark when Open MPI
# is installed), then runs bench/run.py: uet against udp;ofi_rxd, tcp and
# shm, interleaved, RUNS times (default 5).  Not part of make check.
#
#   sh bench/run.sh [run.py options]      e.g.  -n 5 --sweep --plot --mpi
#
# FABTESTS_DIR (docs/fabtests.md) adds fi_rdm_tagged_bw and fi_rma_bw.
# --mpi adds the Open MPI cases when mpicc and mpirun are installed.
# Installs python3 and gnuplot with apt-get when missing and root.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${UET_BUILD:-$top/build}

need=""
command -v python3 >/dev/null 2>&1 || need="$need python3"
command -v fi_pingpong >/dev/null 2>&1 || need="$need libfabric-bin"
command -v cc >/dev/null 2>&1 || need="$need build-essential"
case " $* " in *" --plot "*)
	command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox" ;;
esac
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq && apt-get install -y -qq $need >/dev/null
	else
		echo "bench: missing:$need" >&2
		exit 2
	fi
fi

if [ ! -f "$build/.libs/libuet-fi.so" ]; then
	[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh)
	mkdir -p "$build"
	(cd "$build" && "$top/configure" -q CFLAGS="-O2 -g" && make -j2 -s)
fi
mkdir -p "$build/bench"
cc -O2 -Wall -o "$build/bench/uet_udp_limit" "$top/bench/uet_udp_limit.c"

mpi=""
args=""
for a in "$@"; do
	if [ "$a" = --mpi ]; then
		mpi=1
	else
		args="$args $a"
	fi
done
mpiarg=""
if [ -n "$mpi" ] && command -v mpicc >/dev/null 2>&1 &&
	command -v mpirun >/dev/null 2>&1; then
	mpicc -O2 -o "$build/bench/uet_mpi_bench" "$top/bench/uet_mpi_bench.c"
	mpiarg="--mpi-bench $build/bench/uet_mpi_bench"
elif [ -n "$mpi" ]; then
	echo "bench: Open MPI not installed (sh test/mpi/deps.sh): no MPI cases" >&2
fi

# shellcheck disable=SC2086
exec python3 "$top/bench/run.py" --prov-path "$build/.libs" \
	--udp-limit "$build/bench/uet_udp_limit" $mpiarg $args
