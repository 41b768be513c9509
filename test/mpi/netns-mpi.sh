#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Open MPI over a provider on one host as a user runs it: no FI_UET_*
# variable, the host with lo plus other interfaces.
#
#   test/mpi/netns-mpi.sh [provider]        (default provider: uet)
#
# The host is a network namespace with lo and a veth pair whose two ends
# both stay in it (10.252.0.1/24 and 10.252.0.2/24, MTU 1500, with their
# IPv6 link-local addresses): the case that crashed Open MPI's OFI MTL
# when uet listed lo first and Open MPI spread the local ranks over the
# domains.  uet_mpi_test.c runs on 2 and 4 ranks (UET_MPI_RANKS), sizes 0
# B to UET_MPI_TEST_MAX_SIZE (default 4 MiB), point-to-point, exchanges in
# both directions and collectives; every rank must run on the provider.
#
# Environment: UET_MPI_RANKS, UET_MPI_TIMEOUT (300 s), UET_MPI_BUILDDIR,
# FI_PROVIDER_PATH and FI_LOG_LEVEL (forwarded).  The namespace is
# removed on every exit path.  Exit 0 pass, 1 fail, 77 skip.
set -u

prov="${1:-uet}"
ranks="${UET_MPI_RANKS:-2 4}"
tmo="${UET_MPI_TIMEOUT:-300}"
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

. "$srcdir/mpi_lib.sh"
. "$srcdir/../netns_lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
command -v ip >/dev/null 2>&1 || { echo "SKIP: ip not found"; exit 77; }
MPI_PINNED=0
mpi_setup uet-mpi-netns
# FI_UET_WIRE only when set: the UE 1.0.1 run (make check-mpi-ue), where
# every host must speak that profile.
mpi_forward FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_TEST_MAX_SIZE \
	UET_MPI_TEST_TIMEOUT FI_UET_WIRE

ns="uetmpi$$"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	ns_cleanup
	[ "$keep" -eq 0 ] && rm -rf "$bdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

ns_first "$ns"
ns_step ip -n "$ns" link set lo up
ns_step ip -n "$ns" link add va mtu 1500 type veth peer name vb mtu 1500
ns_step ip -n "$ns" addr add 10.252.0.1/24 dev va
ns_step ip -n "$ns" addr add 10.252.0.2/24 dev vb
ns_step ip -n "$ns" link set va up
ns_step ip -n "$ns" link set vb up

exe="$bdir/uet_mpi_test"
mpi_build "$srcdir/uet_mpi_test.c" "$exe"
echo "namespace $ns: $(ip -n "$ns" -br addr | awk '{ printf "%s %s; ", $1, $3 }')"
echo "$prov offers (fabric domain): $(ip netns exec "$ns" fi_info -p "$prov" \
	-t FI_EP_RDM 2>/dev/null | awk '/fabric:|domain:/ { printf "%s ", $2 }')"

status=0
for n in $ranks; do
	log="$bdir/mpirun-$prov-np$n.log"
	echo "== $prov, $n ranks, no FI_UET_* (log: $log)"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $fwd is a list of -x options
	timeout -k 10 "$tmo" ip netns exec "$ns" \
		mpirun --allow-run-as-root --oversubscribe -np "$n" \
		--mca pml cm --mca mtl ofi \
		--mca mtl_ofi_provider_include "$prov" \
		--mca mtl_base_verbose 100 --mca mtl_ofi_verbose 1 \
		--mca pml_base_verbose 10 --mca btl self $fwd \
		"$exe" >"$log" 2>&1
	rc=$?
	mpi_verdict "$log" "$n" uet_mpi_test "$(($(date +%s) - start))s"
done
exit "$status"
