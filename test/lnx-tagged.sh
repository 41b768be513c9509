#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# libfabric 2.x's lnx (LINKx) provider with uet as its network core
# (FI_LNX_PROV_LINKS=shm+uet) running the tagged fabtests
# (fi_rdm_tagged_peek -E, fi_rdm_tagged_bw -E -v) and fi_pingpong -m
# tagged -c, nothing pinned (no FI_UET_IFACE):
#   host      both processes in one network namespace (lnx sends over shm)
#   host-uet  the same with FI_LNX_DISABLE_SHM=1 (over uet, lo)
#   netns     two network namespaces joined by a veth pair, each with
#             its own host name (UTS namespace), so lnx sends over uet
# RUNS (default 1) repeats every case; ONLY / arguments choose cases
# ("netns:fi_rdm_tagged_peek" ...) as shell patterns; LNX_TIMEOUT bounds
# each process (300 s); KEEP_LOGS keeps the logs.
#
# Needs a libfabric with lnx (2.x) and fabtests in PATH (docs/
# libfabric-2.md); skips (77) without them, when not root or without
# network namespaces.  Traffic stays inside namespaces made here,
# removed on every exit.  Exit 0, 1 on any failure.
set -u

. "$(dirname "$0")/netns_lib.sh"

RUNS=${RUNS:-1}
T=${LNX_TIMEOUT:-300}
want="${ONLY:-}${*:+ $*}"
name=$(basename "$0")

skip() {
	echo "SKIP: $name: $*"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
for tool in ip unshare timeout fi_info fi_pingpong fi_rdm_tagged_peek \
	fi_rdm_tagged_bw; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not in PATH"
done
if [ -z "${FI_PROVIDER_PATH:-}" ]; then
	libdir=${UET_PROV_LIBDIR:-$(pwd)/.libs}
	[ -f "$libdir/libuet-fi.so" ] && FI_PROVIDER_PATH=$libdir
	export FI_PROVIDER_PATH
fi
unset FI_UET_IFACE FI_PROVIDER
export FI_LNX_PROV_LINKS=shm+uet
timeout -k 5 30 fi_info -p lnx >/dev/null 2>&1 ||
	skip "fi_info -p lnx lists nothing (libfabric without lnx, or uet not found)"

ns_a=uet-lnx-$$-a
ns_b=uet-lnx-$$-b
if_a=uetl$$a
if_b=uetl$$b
addr_a=10.254.9.1
addr_b=10.254.9.2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uet-lnx.XXXXXX") || exit 1
spid=""

# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	ns_cleanup
	if [ -n "${KEEP_LOGS:-}" ]; then
		echo "logs kept in $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

ns_first "$ns_a"
ns_add "$ns_b"
for ns in "$ns_a" "$ns_b"; do
	ns_step ip -n "$ns" link set lo up
done
ns_step ip -n "$ns_a" link add "$if_a" type veth peer name "$if_b" \
	netns "$ns_b"
ns_step ip -n "$ns_a" addr add "$addr_a/24" dev "$if_a"
ns_step ip -n "$ns_b" addr add "$addr_b/24" dev "$if_b"
ns_step ip -n "$ns_a" link set "$if_a" up
ns_step ip -n "$ns_b" link set "$if_b" up

# in NS HOST CMD...: CMD in network namespace NS under host name HOST.
in_ns() {
	ns=$1
	host=$2
	shift 2
	# shellcheck disable=SC2016 # $0 and $@ of the inner shell
	timeout -k 5 "$T" ip netns exec "$ns" unshare --uts \
		sh -c 'hostname "$0" && exec "$@"' "$host" "$@"
}

npass=0
nfail=0
# one CASE SRV_NS SRV_HOST CLI_NS CLI_HOST DST CMD ARGS...
one() {
	c=$1
	sns=$2
	shost=$3
	cns=$4
	chost=$5
	dst=$6
	shift 6
	sel=1
	set -f
	for p in ${want:-*}; do
		# shellcheck disable=SC2254 # patterns
		case $c:$1 in $p) sel=0 ;; esac
	done
	set +f
	[ "$sel" -eq 0 ] || return 0
	log=$tmp/$c-$1
	in_ns "$sns" "$shost" "$@" >"$log.srv" 2>&1 &
	spid=$!
	sleep 1
	in_ns "$cns" "$chost" "$@" "$dst" >"$log.cli" 2>&1
	crc=$?
	n=100
	while [ "$n" -gt 0 ] && kill -0 "$spid" 2>/dev/null; do
		sleep 0.1
		n=$((n - 1))
	done
	kill "$spid" 2>/dev/null
	wait "$spid"
	src=$?
	spid=""
	if [ "$crc" -eq 0 ] && [ "$src" -eq 0 ]; then
		npass=$((npass + 1))
		echo "PASS $c: $*"
	else
		nfail=$((nfail + 1))
		echo "FAIL $c: $* (client rc $crc, server rc $src)"
		tail -n 5 "$log.srv" | sed 's/^/  server| /'
		tail -n 5 "$log.cli" | sed 's/^/  client| /'
	fi
}

# cases CASE SRV_NS SRV_HOST CLI_NS CLI_HOST DST
cases() {
	one "$@" fi_rdm_tagged_peek -p lnx -E
	one "$@" fi_rdm_tagged_bw -p lnx -E -v
	one "$@" fi_pingpong -p lnx -e rdm -m tagged -I 10 -c
}

i=0
while [ "$i" -lt "$RUNS" ]; do
	unset FI_LNX_DISABLE_SHM
	cases host "$ns_a" h1 "$ns_a" h1 127.0.0.1
	export FI_LNX_DISABLE_SHM=1
	cases host-uet "$ns_a" h1 "$ns_a" h1 127.0.0.1
	unset FI_LNX_DISABLE_SHM
	cases netns "$ns_a" h1 "$ns_b" h2 "$addr_a"
	i=$((i + 1))
done
echo "lnx (shm+uet): $npass pass, $nfail fail"
[ "$nfail" -eq 0 ] || exit 1
[ "$npass" -gt 0 ] || { echo "FAIL: no case selected"; exit 1; }
exit 0
