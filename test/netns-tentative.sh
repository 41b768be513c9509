#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A freshly made network namespace as a user gets it, nothing pinned: lo
# and a veth pair whose IPv6 link-local addresses are still tentative
# (duplicate address detection runs; here it is held at 60 probes so that
# it stays so for the test), and a second pair where DAD failed on one
# end (the address is the other end's).  bind() refuses both kinds
# (EADDRNOTAVAIL); uet must not offer them:
#   1. fi_info -p uet -v lists no address that `ip addr` shows tentative
#      or dadfailed, and still lists lo;
#   2. fi_pingpong -p uet with no address for the server (it opens its
#      domain on the first info) and the client at 127.0.0.1 pass.
# Before uet skipped them, the server's fi_domain failed with
# -FI_EADDRNOTAVAIL (-99).
#
# Traffic stays inside the namespace, which is removed on every exit.
# Exit 0, 1 on failure, 77 (skip) when not root, iproute2 or fi_pingpong
# is missing, or namespaces cannot be made.
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

# shellcheck disable=SC2034 # read by pingpong_lib.sh
pp_want=""
ns=uet-tent-$$
if_a=uett$$a
if_b=uett$$b
if_c=uett$$c
if_d=uett$$d
dup=fd00:253:7::1

ns_begin


ns_first "$ns"
ns_step ip -n "$ns" link set lo up
ns_step ip -n "$ns" link add "$if_a" type veth peer name "$if_b"
ns_step ip -n "$ns" link add "$if_c" type veth peer name "$if_d"
# a and b: link-local addresses that stay tentative for a minute
ns_step ip netns exec "$ns" sysctl -qw \
	"net.ipv6.conf.$if_a.dad_transmits=60" \
	"net.ipv6.conf.$if_b.dad_transmits=60"
# c and d: no link-local; d owns $dup, c's copy fails DAD
ns_step ip -n "$ns" link set "$if_c" addrgenmode none
ns_step ip -n "$ns" link set "$if_d" addrgenmode none
for i in "$if_a" "$if_b" "$if_c" "$if_d"; do
	ns_step ip -n "$ns" link set "$i" up
done
ns_step ip -n "$ns" addr add "$dup/64" dev "$if_d" nodad
ns_step ip -n "$ns" addr add "$dup/64" dev "$if_c"

# Bounded waits: a and b have their (tentative) link-local addresses,
# c's DAD failed.
n=100
while [ "$n" -gt 0 ]; do
	[ "$(ip -n "$ns" -6 addr show dev "$if_a" tentative | grep -c inet6)" -ge 1 ] &&
		[ "$(ip -n "$ns" -6 addr show dev "$if_b" tentative | grep -c inet6)" -ge 1 ] &&
		ip -n "$ns" -6 addr show dev "$if_c" dadfailed | grep -q inet6 &&
		break
	sleep 0.1
	n=$((n - 1))
done
if [ "$n" -eq 0 ]; then
	echo "FAIL: set-up: addresses not tentative / dadfailed after 10s"
	ip -n "$ns" addr show
	exit 1
fi
# Only the unusable copy of $dup stays.
ns_step ip -n "$ns" addr del "$dup/64" dev "$if_d"

bad=$(ip -n "$ns" -6 addr show tentative; ip -n "$ns" -6 addr show dadfailed)
bad=$(echo "$bad" | awk '$1 == "inet6" { sub(/\/.*/, "", $2); print $2 }' |
	sort -u)
echo "unusable in $ns: $(echo "$bad" | tr '\n' ' ')"

fails=0
listed=$(ip netns exec "$ns" env ${pp_preload:+"LD_PRELOAD=$pp_preload"} \
	timeout -k 5 30 fi_info -p "$PROV" -v 2>&1)
addrs=$(echo "$listed" | awk '/src_addr:/ { print $2 }' | sort -u)
echo "fi_info -p $PROV source addresses: $(echo "$addrs" | tr '\n' ' ')"
for a in $bad; do
	if echo "$addrs" | grep -qi -- "\[$a\]"; then
		echo "FAIL: fi_info lists $a, which bind() refuses"
		fails=$((fails + 1))
	fi
done
if ! echo "$addrs" | grep -q '127\.0\.0\.1'; then
	echo "FAIL: fi_info does not list lo (127.0.0.1)"
	fails=$((fails + 1))
fi

# The server opens its domain on the first info.
pp_pair "rdm:tagged:first-info" "$ns" - "$ns" - 127.0.0.1 "" \
	-e rdm -m tagged -I "$ITERS" -c
fails=$((fails + pp_nfail))

if [ "$fails" -ne 0 ]; then
	echo "FAIL: $fails check(s) failed"
	exit 1
fi
echo "PASS: no tentative or DAD-failed address offered; fi_pingpong passes"
exit 0
