#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# fi_pingpong -c between two network namespaces joined by a veth pair
# (MTU 1500): the server in one, the client in the other, for a provider
# (PROV, default uet) as deployed: each namespace has lo and its veth end
# and no FI_UET_IFACE is set, so the provider must pick the veth by
# itself (PIN=1 sets FI_UET_IFACE and FI_<PROV>_IFACE to the veth
# instead).  Combinations ep:mode:family:
#   endpoint   rdm | dgram
#   mode       msg | tagged
#   family     ipv4 (10.251.7.1/24 - .2) | ipv6 (fd00:251:7::1/64 - ::2)
# The veth carries only the family under test (and no link-local
# address), so the provider's data path uses that family as well.
# with fi_pingpong's default sizes (64 B to 1 MiB; rdm must reach 1 MiB,
# dgram stops at the provider's max_msg_size) and ITERS iterations.
# COMBOS / SKIP / arguments choose combinations as in test/pingpong.sh;
# other variables: see test/pingpong_lib.sh.
#
# Traffic stays inside the two namespaces, which are removed on every
# exit.  Exit 0, 1 on any failure, 77 (skip) when not root, iproute2 or
# fi_pingpong is missing, namespaces cannot be made, or fi_info does not
# list the provider.
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

pp_want="${COMBOS} $*"
[ -z "${pp_want% }" ] && pp_want=""

ns_srv=uet-pp-$$-srv
ns_cli=uet-pp-$$-cli
if_srv=uetpp$$s
if_cli=uetpp$$c
addr4_srv=10.251.7.1
addr4_cli=10.251.7.2
addr6_srv=fd00:251:7::1
addr6_cli=fd00:251:7::2

ns_begin


ns_first "$ns_srv"
ns_add "$ns_cli"

# The veth pair is made inside the namespaces, never in this one.
ns_step ip -n "$ns_srv" link add "$if_srv" mtu 1500 type veth \
	peer name "$if_cli" netns "$ns_cli" mtu 1500
# set_up NS IFACE
set_up() {
	ns_step ip -n "$1" link set lo up
	# No link-local address: nothing tentative for a provider to pick.
	ns_step ip -n "$1" link set "$2" addrgenmode none
	ns_step ip -n "$1" link set "$2" up
}
set_up "$ns_srv" "$if_srv"
set_up "$ns_cli" "$if_cli"

# ready NS IFACE: carrier and no tentative address.
ready() {
	ip -n "$1" link show dev "$2" | grep -q 'LOWER_UP' &&
		[ -z "$(ip -n "$1" addr show dev "$2" tentative)" ]
}

# set_addr NS IFACE ipv4|ipv6 ADDR4 ADDR6
set_addr() {
	ns_step ip -n "$1" addr flush dev "$2"
	if [ "$3" = ipv4 ]; then
		ns_step ip -n "$1" addr add "$4/24" dev "$2"
	else
		ns_step ip -n "$1" addr add "$5/64" dev "$2" nodad
	fi
}

# use_family ipv4|ipv6: the veth ends get addresses of that family only,
# so that the provider's data path uses it too (fi_pingpong -6 changes
# only its control socket).  Waits (bounded) for carrier and DAD.
use_family() {
	set_addr "$ns_srv" "$if_srv" "$1" "$addr4_srv" "$addr6_srv"
	set_addr "$ns_cli" "$if_cli" "$1" "$addr4_cli" "$addr6_cli"
	n=100
	while [ "$n" -gt 0 ]; do
		ready "$ns_srv" "$if_srv" && ready "$ns_cli" "$if_cli" && return
		sleep 0.05
		n=$((n - 1))
	done
	echo "FAIL: veth $if_srv - $if_cli not ready after 5s"
	ip -n "$ns_srv" addr show
	ip -n "$ns_cli" addr show
	exit 1
}

pin_srv=-
pin_cli=-
if [ "${PIN:-0}" = 1 ]; then
	pin_srv=$if_srv
	pin_cli=$if_cli
fi
echo "fi_pingpong between namespaces $ns_srv ($if_srv) and $ns_cli" \
	"($if_cli): PROV=$PROV ITERS=$ITERS PIN=${PIN:-0}"
for fam in ipv4 ipv6; do
	dst=$addr4_srv
	[ "$fam" = ipv6 ] && dst=$addr6_srv
	addresses=""
	for ep in rdm dgram; do
		want_max=""
		[ "$ep" = rdm ] && want_max=1m
		header=""
		for mode in msg tagged; do
			combo=$ep:$mode:$fam
			if ! pp_selected "$combo"; then
				pp_nunsel=$((pp_nunsel + 1))
				continue
			fi
			if [ -z "$addresses" ]; then
				use_family "$fam"
				addresses=1
			fi
			if [ -z "$header" ]; then
				epu=$(echo "$ep" | tr '[:lower:]' '[:upper:]')
				echo "$ep over $fam: first fi_info entry in $ns_srv:" \
					"$(pp_data_path "$ns_srv" "$pin_srv" "FI_EP_$epu")"
				header=1
			fi
			set -- -e "$ep" -m "$mode" -I "$ITERS" -c
			[ "$fam" = ipv6 ] && set -- "$@" -6
			pp_pair "$combo" "$ns_srv" "$pin_srv" "$ns_cli" "$pin_cli" \
				"$dst" "$want_max" "$@"
		done
	done
done
pp_summary
