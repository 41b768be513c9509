/* SPDX-License-Identifier: (BSD-2-Clause OR GPL-2.0-only) */
/*
 * The software NIC's XDP program (snic/uet_link_xdp.h): steers the UET
 * datagrams of one NIC into its AF_XDP sockets and passes everything
 * else to the kernel.
 *
 * A frame is redirected when it is Ethernet (no VLAN tag), IPv4 without
 * fragmentation or IPv6 whose next header is UDP, addressed to the NIC's
 * IP address (uet_cfg), and its UDP destination port is one of the
 * NIC's ports (uet_ports: its own port and its entropy ports).  It goes
 * to the AF_XDP socket of the receive queue it arrived on (uet_xsks,
 * keyed by rx_queue_index); a queue without a socket passes it on, so
 * the kernel's UDP socket bound to the same port receives it.  Every
 * other frame -- ARP, ICMP, other ports, other addresses, fragments --
 * is XDP_PASS.  The bounds checks are the verifier's and the parser's:
 * nothing here trusts a length field it has not checked against
 * data_end.
 *
 * Built with clang -target bpf at make time; the object is embedded in
 * the provider (snic/uet_xdp_obj.c, generated) and loaded with libbpf.
 * Dual licensed so that the kernel accepts the GPL-only helpers it may
 * need; the rest of uet is BSD-2-Clause.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* Must agree with snic/uet_link_xdp.c. */
#define UET_XDP_QMAX		64
#define UET_XDP_PORTS_MAX	256

struct uet_xdp_cfg {
	__u32 family;		/* 4 or 6 */
	__u8 addr[16];		/* IPv4 in the first 4 bytes */
};

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, UET_XDP_QMAX);
	__type(key, __u32);
	__type(value, __u32);
} uet_xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uet_xdp_cfg);
} uet_cfg SEC(".maps");

/* UDP destination ports (network order) -> 1. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, UET_XDP_PORTS_MAX);
	__type(key, __u16);
	__type(value, __u8);
} uet_ports SEC(".maps");

static __always_inline int uet_addr_eq(const __u8 *a, const __u8 *b, int n)
{
	int i;

#pragma unroll
	for (i = 0; i < 16; i++)
		if (i < n && a[i] != b[i])
			return 0;
	return 1;
}

SEC("xdp")
int uet_xdp_steer(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct uet_xdp_cfg *cfg;
	struct udphdr *udp;
	__u32 key = 0;
	__u16 dport;

	if ((void *)(eth + 1) > end)
		return XDP_PASS;
	cfg = bpf_map_lookup_elem(&uet_cfg, &key);
	if (!cfg)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP) && cfg->family == 4) {
		struct iphdr *ip = (void *)(eth + 1);

		if ((void *)(ip + 1) > end || ip->version != 4 ||
		    ip->ihl < 5 || ip->protocol != IPPROTO_UDP)
			return XDP_PASS;
		/* fragments (MF or an offset) go to the kernel */
		if (ip->frag_off & bpf_htons(0x3fff))
			return XDP_PASS;
		if (!uet_addr_eq((const __u8 *)&ip->daddr, cfg->addr, 4))
			return XDP_PASS;
		udp = (void *)ip + ip->ihl * 4;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6) &&
		   cfg->family == 6) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > end || ip6->version != 6 ||
		    ip6->nexthdr != IPPROTO_UDP)
			return XDP_PASS;
		if (!uet_addr_eq((const __u8 *)&ip6->daddr, cfg->addr, 16))
			return XDP_PASS;
		udp = (void *)(ip6 + 1);
	} else {
		return XDP_PASS;
	}
	if ((void *)(udp + 1) > end)
		return XDP_PASS;
	dport = udp->dest;
	if (!bpf_map_lookup_elem(&uet_ports, &dport))
		return XDP_PASS;
	/* no socket on this queue: the kernel's UDP socket takes it */
	return bpf_redirect_map(&uet_xsks, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "Dual BSD/GPL";
