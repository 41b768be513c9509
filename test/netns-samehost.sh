#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Two processes of one host whose provider picks an interface with MTU
# 1500 (a veth into a second namespace, as eth0 on a real host): their
# traffic goes through the loopback device, so the software NIC's UDP
# link sizes datagrams by the route's MTU (65536), not the interface's
# (issue 31: 1 MiB took 897 datagrams each way).  In a namespace with lo
# and the veth, nothing set but FI_LOG_LEVEL=info, fi_pingpong -c at
# 1 MiB runs server and client against the veth's address, and
#   - each side's tx_pkts (the close-time counters) is at most
#     PKTS_MAX (150) per message, and the UDP link reports path MTUs
#     wider than its MTU;
#   - with FI_UET_MTU=1472 (the interface's size, fixed on every path),
#     the same run takes at least 700 datagrams per message: the
#     counter tells the two apart.
# The traffic never leaves the namespace made here.  Exit 0, 1 on any
# failure, 77 (skip) when not root, iproute2 or fi_pingpong is missing,
# or namespaces cannot be made.
set -u

. "$(dirname "$0")/pingpong_lib.sh"
. "$(dirname "$0")/netns_lib.sh"

ns_host=uet-sh-$$-host
ns_peer=uet-sh-$$-peer
if_host=uetsh$$h
if_peer=uetsh$$p
addr=10.251.8.1
ITERS=${ITERS_SAMEHOST:-20}
PKTS_MAX=${PKTS_MAX:-150}

ns_begin fi_pingpong

ns_first "$ns_host"
ns_add "$ns_peer"
ns_step ip -n "$ns_host" link add "$if_host" mtu 1500 type veth \
	peer name "$if_peer" netns "$ns_peer" mtu 1500
ns_step ip -n "$ns_host" link set lo up
ns_step ip -n "$ns_host" link set "$if_host" addrgenmode none
ns_step ip -n "$ns_host" addr add "$addr/24" dev "$if_host"
ns_step ip -n "$ns_host" link set "$if_host" up
ns_step ip -n "$ns_peer" link set "$if_peer" up

FI_LOG_LEVEL=info
export FI_LOG_LEVEL
unset FI_UET_IFACE FI_UET_MTU

# tx_pkts LOG: the software NIC's close-time tx_pkts (empty if none).
tx_pkts() {
	sed -n 's/.*software NIC counters:.* tx_pkts \([0-9]*\) .*/\1/p' "$1" |
		tail -n 1
}

# check NAME MIN MAX: both sides of the last pair sent between MIN and
# MAX datagrams per message (ITERS + 1 messages each way: fi_pingpong's
# warm-up one too).
check() {
	msgs=$((ITERS + 1))
	for log in "$pp_clog" "$pp_slog"; do
		n=$(tx_pkts "$log")
		if [ -z "$n" ]; then
			pp_fail "$1: no software NIC counters in $(basename "$log")"
			return 1
		fi
		echo "$1: $(basename "$log"): tx_pkts $n for $msgs messages" \
			"of 1 MiB"
		if [ "$n" -lt $(($2 * msgs)) ] || [ "$n" -gt $(($3 * msgs)) ]; then
			pp_fail "$1: tx_pkts $n not within $2..$3 per message"
			return 1
		fi
	done
	return 0
}

echo "fi_pingpong -S 1m in $ns_host, both ends on $if_host ($addr, MTU 1500)"
set -- -e rdm -m tagged -S 1048576 -I "$ITERS" -c
npass=$pp_npass
pp_pair rdm:same-host "$ns_host" - "$ns_host" - "$addr" 1m "$@"
if [ "$pp_npass" -gt "$npass" ] && check "path MTU" 1 "$PKTS_MAX"; then
	if ! grep -q 'UDP link MTU 1472, path MTUs asked [1-9][0-9]* (wider than the MTU [1-9]' \
		"$pp_clog"; then
		pp_fail "no path MTU wider than 1472 reported"
	fi
fi

FI_UET_MTU=1472
export FI_UET_MTU
npass=$pp_npass
pp_pair rdm:same-host:fixed "$ns_host" - "$ns_host" - "$addr" 1m "$@"
[ "$pp_npass" -gt "$npass" ] && check "FI_UET_MTU=1472" 700 2000
pp_summary
