/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Frame headers of the AF_XDP link (uet_link_xdp_internal.h): Ethernet
 * II, IPv4 (RFC 791, no options, DF) or IPv6 (RFC 8200, no extension
 * headers), UDP (RFC 768; its checksum over the pseudo-header, RFC 8200
 * 8.1 for IPv6), all through the big-endian get/put helpers.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "uet_byteorder.h"
#include "uet_link_xdp_internal.h"

/* IPv4 flags/fragment field: DF; MF and the offset (a fragment). */
#define UET_XDP_IP4_DF		0x4000u
#define UET_XDP_IP4_FRAG	0x3fffu
#define UET_XDP_IP4_MAX		65535u

uint64_t uet_xdp_csum_add(uint64_t sum, const uint8_t *p, size_t len)
{
	uint32_t w;

	/* 32-bit words into a 64-bit sum: carries wait for the fold */
	while (len >= 4) {
		memcpy(&w, p, 4);
		sum += w;
		p += 4;
		len -= 4;
	}
	/* the words were summed in host order: the tail must be too */
	if (len >= 2) {
		uint16_t h;

		memcpy(&h, p, 2);
		sum += h;
		p += 2;
		len -= 2;
	}
	if (len) {
		uint8_t b[2] = { p[0], 0 };
		uint16_t h;

		memcpy(&h, b, 2);
		sum += h;
	}
	return sum;
}

uint16_t uet_xdp_csum_fold(uint64_t sum)
{
	uint8_t b[2];
	uint16_t h;

	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	h = (uint16_t)~sum;
	/* back from host order to the order on the wire */
	memcpy(b, &h, 2);
	return uet_get_be16(b);
}

/* The pseudo-header's sum (addresses, protocol, UDP length). */
static uint64_t uet_xdp_pseudo(const struct uet_xdp_hdr *h, size_t alen,
			       uint32_t udp_len)
{
	uint8_t t[8];

	uet_put_be32(t, udp_len);
	uet_put_be32(t + 4, UET_XDP_IPPROTO_UDP);
	return uet_xdp_csum_add(uet_xdp_csum_add(uet_xdp_csum_add(0,
				h->src_ip, alen), h->dst_ip, alen), t, 8);
}

size_t uet_xdp_hdr_build(uint8_t *frame, const struct uet_xdp_hdr *h,
			 size_t payload_len, uint16_t ip_id)
{
	size_t alen = h->family == AF_INET6 ? 16 : 4;
	uint32_t udp_len = (uint32_t)(UET_XDP_UDP_LEN + payload_len);
	uint8_t *ip = frame + UET_XDP_ETH_LEN, *udp;
	uint16_t ck;

	if (payload_len > UET_XDP_IP4_MAX - UET_XDP_IP4_LEN - UET_XDP_UDP_LEN)
		return 0;
	memcpy(frame, h->dst_mac, 6);
	memcpy(frame + 6, h->src_mac, 6);
	if (h->family == AF_INET6) {
		uet_put_be16(frame + 12, UET_XDP_ETH_P_IPV6);
		/* version 6, traffic class, flow label 0 */
		uet_put_be32(ip, 6u << 28 | (uint32_t)h->tos << 20);
		uet_put_be16(ip + 4, (uint16_t)udp_len);
		ip[6] = UET_XDP_IPPROTO_UDP;
		ip[7] = UET_XDP_IP_TTL;
		memcpy(ip + 8, h->src_ip, 16);
		memcpy(ip + 24, h->dst_ip, 16);
		udp = ip + UET_XDP_IP6_LEN;
	} else {
		uet_put_be16(frame + 12, UET_XDP_ETH_P_IP);
		ip[0] = 0x45;
		ip[1] = h->tos;
		uet_put_be16(ip + 2, (uint16_t)(UET_XDP_IP4_LEN + udp_len));
		uet_put_be16(ip + 4, ip_id);
		uet_put_be16(ip + 6, UET_XDP_IP4_DF);
		ip[8] = UET_XDP_IP_TTL;
		ip[9] = UET_XDP_IPPROTO_UDP;
		uet_put_be16(ip + 10, 0);
		memcpy(ip + 12, h->src_ip, 4);
		memcpy(ip + 16, h->dst_ip, 4);
		uet_put_be16(ip + 10, uet_xdp_csum_fold(
				     uet_xdp_csum_add(0, ip, UET_XDP_IP4_LEN)));
		udp = ip + UET_XDP_IP4_LEN;
	}
	uet_put_be16(udp, h->sport);
	uet_put_be16(udp + 2, h->dport);
	uet_put_be16(udp + 4, (uint16_t)udp_len);
	uet_put_be16(udp + 6, 0);
	ck = uet_xdp_csum_fold(uet_xdp_csum_add(uet_xdp_pseudo(h, alen,
							       udp_len),
						udp, udp_len));
	/* 0 means "no checksum" (IPv4) and is refused (IPv6) */
	uet_put_be16(udp + 6, ck ? ck : 0xffff);
	return (size_t)(udp - frame) + udp_len;
}

int uet_xdp_hdr_parse(const uint8_t *frame, size_t len, int family,
		      bool check_udp_csum, struct uet_xdp_hdr *h,
		      size_t *off, size_t *plen)
{
	const uint8_t *ip = frame + UET_XDP_ETH_LEN, *udp;
	size_t alen, iplen, ihl, udp_len;

	if (len < UET_XDP_ETH_LEN)
		return -EBADMSG;
	memset(h, 0, sizeof(*h));
	h->family = family;
	memcpy(h->dst_mac, frame, 6);
	memcpy(h->src_mac, frame + 6, 6);
	if (family == AF_INET6) {
		alen = 16;
		if (uet_get_be16(frame + 12) != UET_XDP_ETH_P_IPV6 ||
		    len < UET_XDP_HDR_V6 || ip[0] >> 4 != 6 ||
		    ip[6] != UET_XDP_IPPROTO_UDP)
			return -EBADMSG;
		h->tos = (uint8_t)(uet_get_be32(ip) >> 20);
		iplen = UET_XDP_IP6_LEN + uet_get_be16(ip + 4);
		if (UET_XDP_ETH_LEN + iplen > len)
			return -EBADMSG;
		memcpy(h->src_ip, ip + 8, 16);
		memcpy(h->dst_ip, ip + 24, 16);
		udp = ip + UET_XDP_IP6_LEN;
	} else {
		alen = 4;
		if (uet_get_be16(frame + 12) != UET_XDP_ETH_P_IP ||
		    len < UET_XDP_HDR_V4 || ip[0] >> 4 != 4 ||
		    ip[9] != UET_XDP_IPPROTO_UDP)
			return -EBADMSG;
		ihl = (size_t)(ip[0] & 0x0f) * 4;
		iplen = uet_get_be16(ip + 2);
		if (ihl < UET_XDP_IP4_LEN || iplen < ihl + UET_XDP_UDP_LEN ||
		    UET_XDP_ETH_LEN + iplen > len ||
		    (uet_get_be16(ip + 6) & UET_XDP_IP4_FRAG) ||
		    uet_xdp_csum_fold(uet_xdp_csum_add(0, ip, ihl)) != 0)
			return -EBADMSG;
		h->tos = ip[1];
		memcpy(h->src_ip, ip + 12, 4);
		memcpy(h->dst_ip, ip + 16, 4);
		udp = ip + ihl;
	}
	udp_len = uet_get_be16(udp + 4);
	if (udp_len < UET_XDP_UDP_LEN ||
	    udp + udp_len > frame + UET_XDP_ETH_LEN + iplen)
		return -EBADMSG;
	if (family == AF_INET6 &&
	    udp + udp_len != frame + UET_XDP_ETH_LEN + iplen)
		return -EBADMSG;
	if (check_udp_csum && uet_get_be16(udp + 6)) {
		uint64_t ps = uet_xdp_pseudo(h, alen, (uint32_t)udp_len);
		uint16_t partial = (uint16_t)~uet_xdp_csum_fold(ps);

		/* a checksum left to the device (CHECKSUM_PARTIAL: the
		 * field holds the pseudo-header's sum, not complemented)
		 * is how the kernel hands a datagram to veth's XDP: it
		 * never left the host, and is taken unverified */
		if (uet_xdp_csum_fold(uet_xdp_csum_add(ps, udp, udp_len)) &&
		    uet_get_be16(udp + 6) != partial)
			return -EBADMSG;
	}
	h->sport = uet_get_be16(udp);
	h->dport = uet_get_be16(udp + 2);
	*off = (size_t)(udp - frame) + UET_XDP_UDP_LEN;
	*plen = udp_len - UET_XDP_UDP_LEN;
	return 0;
}
