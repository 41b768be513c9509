#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Open MPI across emulated hosts, deployed as a user would: no FI_UET_*
# variable, every host with lo plus one real interface.
#
#   test/mpi/multihost.sh [provider]        (default provider: uet)
#
# Hosts are network namespaces (HOSTS of them, default 3), each with its
# own hostname (a UTS namespace per launched process), lo, and one veth
# whose other end is on a bridge in a "head" namespace (MTU 1500).
# mpirun runs in the head namespace and starts one orted per host with
# `--host h1:R,h2:R,...` and an rsh agent (this script, called as
# `multihost.sh --agent HOST CMD...`) that enters the host's namespace.
# R ranks per host (RANKS_PER_HOST, default 2).  It runs uet_mpi_test.c
# (point-to-point, ring exchanges in both directions, collectives, sizes
# 0 B to UET_MPI_TEST_MAX_SIZE, default 4 MiB) and uet_mpi_allreduce.c,
# and checks from Open MPI's verbose output that every rank ran on the
# provider.  Two runs: IPv4 (10.253.0.0/24), then IPv6 only on the hosts'
# interfaces (fd00:253::/64), unless FAMILIES says otherwise.  Each host
# also has a second interface on a second bridge (ctl0, the network Open
# MPI's daemons use), of the same family: uet must choose well between
# them by itself.
#
# Environment:
#   HOSTS, RANKS_PER_HOST   see above
#   FAMILIES               "ipv4 ipv6" (default), or one of them
#   UET_MPI_TIMEOUT        seconds per mpirun (default 300)
#   UET_MPI_BUILDDIR       where to build and keep logs
#   UET_MPI_TEST_MAX_SIZE  largest message of uet_mpi_test (4194304)
#   FI_PROVIDER_PATH, FI_LOG_LEVEL, FI_UET_LINK   forwarded to the ranks
#
# Traffic stays inside the namespaces this script makes; they are removed
# on every exit path.  Exit 0 pass, 1 fail, 77 skip (not root, no
# ip netns, no unshare, no Open MPI).
set -u

# ---- the rsh agent: multihost.sh --agent HOST CMD... ----
if [ "${1:-}" = --agent ]; then
	host=$2
	shift 2
	# orted is started through a shell command line (rsh style).
	exec ip netns exec "$MH_NS_PREFIX$host" unshare --uts \
		sh -c 'hostname "$0" && exec sh -c "$*"' "$host" "$@"
fi

prov="${1:-uet}"
tmo="${UET_MPI_TIMEOUT:-300}"
nhosts="${HOSTS:-3}"
rph="${RANKS_PER_HOST:-2}"
families="${FAMILIES:-ipv4 ipv6}"
srcdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
self="$srcdir/$(basename -- "$0")"

. "$srcdir/mpi_lib.sh"
. "$srcdir/../netns_lib.sh"
. "$srcdir/cluster_lib.sh"

cl_require "network namespaces"
MPI_PINNED=0
mpi_setup uet-mpi-mh
# FI_UET_WIRE and FI_UET_LINK only when set: the UE 1.0.1 run (make
# check-mpi-ue), where every host must speak that profile, and the
# AF_XDP link by hand.
mpi_forward FI_PROVIDER_PATH FI_LOG_LEVEL UET_MPI_TEST_MAX_SIZE \
	UET_MPI_TEST_TIMEOUT FI_UET_WIRE FI_UET_LINK

export MH_NS_PREFIX="uetmh$$-"
head="${MH_NS_PREFIX}head"

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	ns_cleanup	# a hung orted goes with its namespace
	[ "$keep" -eq 0 ] && rm -rf "$bdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

cl_make "$MH_NS_PREFIX" "$nhosts"
if ! timeout -k 2 10 ip netns exec "$head" unshare --uts true 2>/dev/null; then
	echo "SKIP: ip netns exec / unshare --uts not permitted"
	exit 77
fi
hosts=""
i=1
while [ "$i" -le "$nhosts" ]; do
	hosts="$hosts${hosts:+,}h$i:$rph"
	i=$((i + 1))
done
np=$((nhosts * rph))

ar="$bdir/uet_mpi_allreduce"
pp="$bdir/uet_mpi_test"
mpi_build "$srcdir/uet_mpi_test.c" "$pp"
mpi_build "$srcdir/uet_mpi_allreduce.c" "$ar"

status=0
for fam in $families; do
	cl_family "$fam"
	echo "== $prov over $fam, $nhosts hosts x $rph ranks, no FI_UET_*;" \
		"h1 offers (fabric domain): $(cl_show_offer "$prov")"
	for exe in "$pp" "$ar"; do
		name=$(basename "$exe")
		log="$bdir/mpirun-$prov-$fam-$name.log"
		start=$(date +%s)
		# shellcheck disable=SC2086 # $fwd is a list of -x options
		timeout -k 10 "$tmo" ip netns exec "$head" \
			mpirun --allow-run-as-root --oversubscribe \
			--host "$hosts" -np "$np" \
			--mca plm_rsh_agent "sh $self --agent" \
			--mca plm_rsh_no_tree_spawn 1 \
			--mca oob_tcp_if_include br1,ctl0 \
			--mca pml cm --mca mtl ofi \
			--mca mtl_ofi_provider_include "$prov" \
			--mca mtl_base_verbose 100 --mca mtl_ofi_verbose 1 \
			--mca pml_base_verbose 10 --mca btl self \
			-x MH_NS_PREFIX $fwd \
			"$exe" >"$log" 2>&1
		rc=$?
		mpi_verdict "$log" "$np" "$name" "$(($(date +%s) - start))s"
		cl_check_hosts "$log"
	done
done
exit "$status"
