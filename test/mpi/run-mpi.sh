#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Open MPI end-to-end test of a libfabric provider through the OFI MTL.
#
#   test/mpi/run-mpi.sh [provider]        (default provider: uet)
#
# Compiles uet_mpi_test.c with mpicc, runs it on 2 and 4 ranks on this
# machine with pml cm + mtl ofi restricted to the provider, everything on
# loopback, and checks from Open MPI's verbose output that every rank's OFI
# MTL really selected that provider (and pml cm, mtl ofi): a run that fell
# back to another provider or PML fails.
#
# Environment:
#   UET_MPI_RANKS     rank counts to run (default "2 4")
#   UET_MPI_TIMEOUT   seconds per mpirun (default 300)
#   UET_MPI_BUILDDIR  where to build and keep logs (default: a temp dir,
#                     removed on success)
#   FI_PROVIDER_PATH, FI_LOG_LEVEL, UET_MPI_TEST_*  forwarded to the ranks
#                     (UET_MPI_TEST_HUGE=bytes adds one message of that
#                     size from rank 0 to rank 1; make check-mpi uses
#                     1100000000, above 1 GiB)
#
# Exit status: 0 pass, 1 fail, 77 skip (no Open MPI mpirun/mpicc).
set -u

prov="${1:-uet}"
ranks="${UET_MPI_RANKS:-2 4}"
tmo="${UET_MPI_TIMEOUT:-300}"
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

. "$srcdir/mpi_lib.sh"
mpi_setup uet-mpi
mpi_forward FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_TEST_TIMEOUT \
	UET_MPI_TEST_MAX_SIZE UET_MPI_TEST_CORRUPT UET_MPI_TEST_HUGE \
	FI_UET_TSS FI_UET_TSS_KEY_FILE FI_UET_WIRE
exe="$bdir/uet_mpi_test"
mpi_build "$srcdir/uet_mpi_test.c" "$exe"

status=0
for n in $ranks; do
	log="$bdir/mpirun-$prov-np$n.log"
	echo "== $prov, $n ranks (log: $log)"
	start=$(date +%s)
	mpi_run "$n" "$exe" "$log"
	end=$(date +%s)
	mpi_verdict "$log" "$n" uet_mpi_test "$((end - start))s"
done

if [ "$keep" -eq 0 ]; then
	rm -rf "$bdir"
fi
exit "$status"
