#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# MPI_Allreduce on many oversubscribed ranks of this machine over a
# libfabric provider through Open MPI's OFI MTL (docs/scale.md).
#
#   test/mpi/scale-allreduce.sh [provider]     (default provider: uet)
#
# Builds uet_mpi_allreduce.c with mpicc and runs it with
# `mpirun --oversubscribe -np N` (pml cm, mtl ofi restricted to the
# provider, everything on loopback), checks from Open MPI's verbose output
# that every rank really ran on that provider, and prints the time.
#
# Environment:
#   UET_MPI_SCALE_RANKS  rank counts to run (default "64")
#   UET_MPI_TIMEOUT      seconds per mpirun (default 600)
#   UET_MPI_BUILDDIR     where to build and keep logs (default: a temp dir,
#                        removed on success)
#   UET_MPI_YIELD        mpi_yield_when_idle (default 1: an idle rank
#                        yields the CPU; 0: busy polling)
#   FI_PROVIDER_PATH, FI_LOG_LEVEL, FI_UET_*, UET_MPI_AR_COUNT,
#   UET_MPI_AR_ITERS, UET_MPI_AR_STALL, UET_MPI_TEST_TIMEOUT   forwarded
#                        to the ranks (uet_mpi_allreduce.c)
#
# Exit status: 0 pass, 1 fail, 77 skip (no Open MPI mpirun/mpicc).
set -u

prov="${1:-uet}"
ranks="${UET_MPI_SCALE_RANKS:-64}"
tmo="${UET_MPI_TIMEOUT:-600}"
yield="${UET_MPI_YIELD:-1}"
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

. "$srcdir/mpi_lib.sh"
mpi_setup uet-mpi-scale
# shellcheck disable=SC2046 # one word per variable name
mpi_forward $(env | sed -n 's/^\(FI_UET_[A-Z0-9_]*\)=.*/\1/p') \
	FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_AR_COUNT UET_MPI_AR_ITERS \
	UET_MPI_AR_STALL UET_MPI_TEST_TIMEOUT
exe="$bdir/uet_mpi_allreduce"
mpi_build "$srcdir/uet_mpi_allreduce.c" "$exe"

status=0
for n in $ranks; do
	log="$bdir/mpirun-$prov-np$n.log"
	echo "== $prov, $n ranks on $(nproc) CPUs (log: $log)"
	start=$(date +%s.%N)
	mpi_run "$n" "$exe" "$log" --mca mpi_yield_when_idle "$yield"
	end=$(date +%s.%N)
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	mpi_verdict "$log" "$n" uet_mpi_allreduce "${secs}s wall, mpirun included"
done

if [ "$keep" -eq 0 ]; then
	rm -rf "$bdir"
fi
exit "$status"
