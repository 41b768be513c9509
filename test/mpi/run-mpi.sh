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
#
# Exit status: 0 pass, 1 fail, 77 skip (no Open MPI mpirun/mpicc).
set -u

prov="${1:-uet}"
ranks="${UET_MPI_RANKS:-2 4}"
tmo="${UET_MPI_TIMEOUT:-300}"
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
	bdir=$(mktemp -d "${TMPDIR:-/tmp}/uet-mpi.XXXXXX") || exit 1
	keep=0
fi

exe="$bdir/uet_mpi_test"
if ! mpicc -std=c11 -O2 -Wall -Wextra -o "$exe" "$srcdir/uet_mpi_test.c"; then
	echo "FAIL: mpicc could not build uet_mpi_test.c"
	exit 1
fi

# Keep every provider and Open MPI itself on loopback: the uet provider
# lists only the interfaces in FI_UET_IFACE; libfabric's tcp/udp/sockets
# providers read FI_<PROV>_IFACE.
upper=$(printf '%s' "$prov" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9_\n' '_')
iface_var="FI_${upper}_IFACE"
export FI_UET_IFACE=lo
export "$iface_var=lo"

fwd="-x FI_UET_IFACE -x $iface_var"
for v in FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_TEST_TIMEOUT \
	UET_MPI_TEST_MAX_SIZE UET_MPI_TEST_CORRUPT; do
	if env | grep -q "^$v="; then
		fwd="$fwd -x $v"
	fi
done

# check_log LOG N: the verbose output of one run must show, for each of
# the N ranks, pml cm and mtl ofi selected and the OFI MTL on provider
# $prov (mtl_ofi prints "mtl:ofi:prov: <name>"; a utility provider layered
# on top shows as "<prov>;ofi_rxm", so the first ';' part is compared).
check_log() {
	log="$1"
	n="$2"
	bad=0

	provs=$(sed -n 's/.*mtl:ofi:prov: \([^[:space:]]*\).*/\1/p' "$log")
	nprov=$(printf '%s\n' "$provs" | grep -c .)
	nmatch=$(printf '%s\n' "$provs" | grep -c "^${prov}\(;.*\)\{0,1\}\$")
	if [ "$nprov" -ne "$n" ] || [ "$nmatch" -ne "$n" ]; then
		echo "FAIL: expected $n ranks on provider '$prov', mtl_ofi reported:" \
			"$(printf '%s\n' "$provs" | sort | uniq -c | tr -s ' \n' ' ')"
		bad=1
	fi
	npml=$(grep -c 'select: component cm selected' "$log")
	nmtl=$(grep -c 'select: component ofi selected' "$log")
	if [ "$npml" -ne "$n" ] || [ "$nmtl" -ne "$n" ]; then
		echo "FAIL: pml cm selected by $npml, mtl ofi by $nmtl of $n ranks"
		bad=1
	fi
	if ! grep -q "^uet_mpi_test: ALL PASS ranks=$n " "$log"; then
		echo "FAIL: uet_mpi_test did not report ALL PASS for $n ranks"
		bad=1
	fi
	domains=$(sed -n 's/.*mtl:ofi:provider: \([^[:space:]]*\).*/\1/p' "$log" |
		sort -u | tr '\n' ' ')
	echo "  provider: $(printf '%s\n' "$provs" | sort -u | tr '\n' ' ')domain: $domains"
	return "$bad"
}

status=0
for n in $ranks; do
	log="$bdir/mpirun-$prov-np$n.log"
	echo "== $prov, $n ranks (log: $log)"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $fwd is a list of -x options
	timeout -k 10 "$tmo" mpirun --allow-run-as-root --oversubscribe \
		-np "$n" \
		--mca pml cm --mca mtl ofi \
		--mca mtl_ofi_provider_include "$prov" \
		--mca mtl_base_verbose 100 --mca mtl_ofi_verbose 1 \
		--mca pml_base_verbose 10 \
		--mca btl self \
		--mca oob_tcp_if_include lo --mca btl_tcp_if_include lo \
		$fwd \
		"$exe" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	grep '^uet_mpi_test:' "$log" | sed 's/^/  /'
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL: mpirun did not finish within ${tmo}s"
	elif [ "$rc" -ne 0 ]; then
		echo "FAIL: mpirun exited with status $rc"
	fi
	if ! check_log "$log" "$n" || [ "$rc" -ne 0 ]; then
		echo "  last lines of $log:"
		grep -v -e 'mca: base:' -e 'select:' "$log" | tail -n 25 | sed 's/^/  | /'
		status=1
		keep=1
		echo "FAIL: $prov, $n ranks ($((end - start))s)"
	else
		echo "PASS: $prov, $n ranks ($((end - start))s)"
	fi
done

if [ "$keep" -eq 0 ]; then
	rm -rf "$bdir"
fi
exit "$status"
