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

for tool in mpirun mpicc timeout; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool not found (sh test/mpi/deps.sh installs Open MPI)"
		exit 77
	fi
done
if ! mpirun --version 2>&1 | grep -q 'Open MPI'; then
	echo "SKIP: mpirun is not Open MPI's (this test uses the OFI MTL)"
	exit 77
fi

if [ -n "${UET_MPI_BUILDDIR:-}" ]; then
	bdir="$UET_MPI_BUILDDIR"
	mkdir -p "$bdir" || exit 1
	keep=1
else
	bdir=$(mktemp -d "${TMPDIR:-/tmp}/uet-mpi-scale.XXXXXX") || exit 1
	keep=0
fi

exe="$bdir/uet_mpi_allreduce"
if ! mpicc -std=c11 -O2 -Wall -Wextra -o "$exe" \
	"$srcdir/uet_mpi_allreduce.c"; then
	echo "FAIL: mpicc could not build uet_mpi_allreduce.c"
	exit 1
fi

# Everything on loopback (see run-mpi.sh).
upper=$(printf '%s' "$prov" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9_\n' '_')
iface_var="FI_${upper}_IFACE"
export FI_UET_IFACE=lo
export "$iface_var=lo"

fwd="-x FI_UET_IFACE -x $iface_var"
for v in $(env | sed -n 's/^\(FI_UET_[A-Z0-9_]*\)=.*/\1/p') \
	FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_AR_COUNT UET_MPI_AR_ITERS \
	UET_MPI_AR_STALL UET_MPI_TEST_TIMEOUT; do
	case " $fwd " in
	*" -x $v "*) continue ;;
	esac
	if env | grep -q "^$v="; then
		fwd="$fwd -x $v"
	fi
done

# The verbose output must show, for each of the N ranks, pml cm, mtl ofi
# and the OFI MTL on provider $prov, and the program's ALL PASS line.
check_log() {
	log="$1"
	n="$2"
	bad=0

	nmatch=$(sed -n 's/.*mtl:ofi:prov: \([^[:space:]]*\).*/\1/p' "$log" |
		grep -c "^${prov}\(;.*\)\{0,1\}\$")
	if [ "$nmatch" -ne "$n" ]; then
		echo "FAIL: $nmatch of $n ranks report provider '$prov'"
		bad=1
	fi
	npml=$(grep -c 'select: component cm selected' "$log")
	nmtl=$(grep -c 'select: component ofi selected' "$log")
	if [ "$npml" -ne "$n" ] || [ "$nmtl" -ne "$n" ]; then
		echo "FAIL: pml cm selected by $npml, mtl ofi by $nmtl of $n ranks"
		bad=1
	fi
	if ! grep -q "^uet_mpi_allreduce: ALL PASS ranks=$n " "$log"; then
		echo "FAIL: uet_mpi_allreduce did not report ALL PASS for $n ranks"
		bad=1
	fi
	return "$bad"
}

status=0
for n in $ranks; do
	log="$bdir/mpirun-$prov-np$n.log"
	echo "== $prov, $n ranks on $(nproc) CPUs (log: $log)"
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # $fwd is a list of -x options
	timeout -k 10 "$tmo" mpirun --allow-run-as-root --oversubscribe \
		-np "$n" \
		--mca pml cm --mca mtl ofi \
		--mca mtl_ofi_provider_include "$prov" \
		--mca mtl_base_verbose 100 --mca mtl_ofi_verbose 1 \
		--mca pml_base_verbose 10 \
		--mca btl self \
		--mca mpi_yield_when_idle "$yield" \
		--mca oob_tcp_if_include lo --mca btl_tcp_if_include lo \
		$fwd \
		"$exe" >"$log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
	grep '^uet_mpi_allreduce:' "$log" | sed 's/^/  /'
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL: mpirun did not finish within ${tmo}s"
	elif [ "$rc" -ne 0 ]; then
		echo "FAIL: mpirun exited with status $rc"
	fi
	if ! check_log "$log" "$n" || [ "$rc" -ne 0 ]; then
		echo "  last lines of $log:"
		grep -v -e 'mca: base:' -e 'select:' -e 'mtl:ofi' "$log" |
			tail -n 25 | sed 's/^/  | /'
		status=1
		keep=1
		echo "FAIL: $prov, $n ranks (${secs}s)"
	else
		echo "PASS: $prov, $n ranks (${secs}s wall, mpirun included)"
	fi
done

if [ "$keep" -eq 0 ]; then
	rm -rf "$bdir"
fi
exit "$status"
