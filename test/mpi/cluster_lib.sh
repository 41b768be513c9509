# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
#
# Emulated hosts for the multi-host MPI tests (multihost.sh, slurm.sh):
# network namespaces made with test/netns_lib.sh (sourced before).
# Sourced, not run.
#
# cl_require WHAT: exit 77 (skip) unless root, with ip, unshare and
# hostname; WHAT says what root is needed for.
cl_require() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root ($1)"; exit 77; }
	for tool in ip unshare hostname; do
		command -v "$tool" >/dev/null 2>&1 ||
			{ echo "SKIP: $tool not found"; exit 77; }
	done
}

# cl_make PREFIX N: a head namespace PREFIXhead with two bridges, br0
# (data) and br1 (control, 10.254.0.254/24 and fd00:254::fe/64), and N
# hosts PREFIXh1..PREFIXhN, each with lo, eth0 (MTU 1500) on br0 and
# ctl0 on br1, all up, no address yet (cl_family).  Sets cl_prefix,
# cl_nhosts and cl_head.
cl_make() {
	cl_prefix=$1
	cl_nhosts=$2
	cl_head="${cl_prefix}head"
	ns_first "$cl_head"
	ns_step ip -n "$cl_head" link set lo up
	ns_step ip -n "$cl_head" link add br0 type bridge
	ns_step ip -n "$cl_head" link add br1 type bridge
	ns_step ip -n "$cl_head" addr add 10.254.0.254/24 dev br1
	ns_step ip -n "$cl_head" addr add fd00:254::fe/64 dev br1 nodad
	ns_step ip -n "$cl_head" link set br0 up
	ns_step ip -n "$cl_head" link set br1 up
	i=1
	while [ "$i" -le "$cl_nhosts" ]; do
		h=h$i
		ns="$cl_prefix$h"
		ns_add "$ns"
		ns_step ip -n "$ns" link set lo up
		# data: eth0 on br0; control: ctl0 on br1
		ns_step ip -n "$ns" link add eth0 mtu 1500 type veth \
			peer name "d$h" netns "$cl_head"
		ns_step ip -n "$ns" link add ctl0 type veth peer name "c$h" \
			netns "$cl_head"
		ns_step ip -n "$cl_head" link set "d$h" master br0 up
		ns_step ip -n "$cl_head" link set "c$h" master br1 up
		ns_step ip -n "$ns" link set eth0 addrgenmode none
		ns_step ip -n "$ns" link set eth0 up
		ns_step ip -n "$ns" link set ctl0 addrgenmode none
		ns_step ip -n "$ns" link set ctl0 up
		i=$((i + 1))
	done
}

# cl_family ipv4|ipv6: host i's interfaces carry that family only (data
# and control alike: a host of one family): eth0 10.253.0.i/24 or
# fd00:253::i/64, ctl0 10.254.0.i/24 or fd00:254::i/64.  Waits (5 s at
# most) for carrier on every data link.
cl_family() {
	i=1
	while [ "$i" -le "$cl_nhosts" ]; do
		ns="${cl_prefix}h$i"
		ns_step ip -n "$ns" addr flush dev eth0
		ns_step ip -n "$ns" addr flush dev ctl0
		if [ "$1" = ipv4 ]; then
			ns_step ip -n "$ns" addr add "10.253.0.$i/24" dev eth0
			ns_step ip -n "$ns" addr add "10.254.0.$i/24" dev ctl0
		else
			ns_step ip -n "$ns" addr add "fd00:253::$i/64" dev eth0 nodad
			ns_step ip -n "$ns" addr add "fd00:254::$i/64" dev ctl0 nodad
		fi
		i=$((i + 1))
	done
	n=100
	while [ "$n" -gt 0 ]; do
		down=0
		i=1
		while [ "$i" -le "$cl_nhosts" ]; do
			ip -n "${cl_prefix}h$i" link show dev eth0 |
				grep -q LOWER_UP || down=1
			i=$((i + 1))
		done
		[ "$down" -eq 0 ] && return
		sleep 0.05
		n=$((n - 1))
	done
	echo "FAIL: data links not up after 5s"
	exit 1
}

# cl_show_offer PROV: what the provider offers on h1 (fabric domain ...).
cl_show_offer() {
	FI_PROVIDER_PATH="${FI_PROVIDER_PATH:-}" ip netns exec \
		"${cl_prefix}h1" fi_info -p "$1" -t FI_EP_RDM 2>/dev/null |
		awk '/fabric:|domain:/ { printf "%s ", $2 } END { print "" }' |
		cut -c1-160
}

# cl_check_hosts LOG: Open MPI's verbose lines name each rank's host
# ("[h1:pid]"); all cl_nhosts hosts must appear, else status=1, keep=1.
cl_check_hosts() {
	seen=$(sed -n 's/^\[\(h[0-9]*\):[0-9]*\].*/\1/p' "$1" |
		sort -u | tr '\n' ' ')
	nseen=$(echo "$seen" | wc -w)
	echo "  ranks' hosts: $seen"
	if [ "$nseen" -ne "$cl_nhosts" ]; then
		echo "FAIL: ranks ran on $nseen host(s), not $cl_nhosts"
		status=1
		keep=1
	fi
}
