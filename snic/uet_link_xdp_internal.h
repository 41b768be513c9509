/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Pieces of the AF_XDP link (uet_link_xdp.h) that need no AF_XDP socket,
 * so that they are built and tested everywhere:
 *   - uet_link_xdp_hdr.c: the Ethernet / IPv4 / IPv6 / UDP headers of a
 *     frame, built and parsed with the byte-order helpers (no struct
 *     over wire bytes), and the Internet checksum;
 *   - uet_link_xdp_nl.c: the route and neighbour of a destination, asked
 *     of the kernel over rtnetlink.
 */
#ifndef UET_LINK_XDP_INTERNAL_H
#define UET_LINK_XDP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define UET_XDP_ETH_LEN		14u
#define UET_XDP_IP4_LEN		20u
#define UET_XDP_IP6_LEN		40u
#define UET_XDP_UDP_LEN		8u
#define UET_XDP_ETH_P_IP	0x0800u
#define UET_XDP_ETH_P_IPV6	0x86ddu
#define UET_XDP_IPPROTO_UDP	17u
#define UET_XDP_IP_TTL		64u

/* Every header of a frame, Ethernet to UDP: 42 (IPv4) or 62 (IPv6). */
#define UET_XDP_HDR_V4	(UET_XDP_ETH_LEN + UET_XDP_IP4_LEN + UET_XDP_UDP_LEN)
#define UET_XDP_HDR_V6	(UET_XDP_ETH_LEN + UET_XDP_IP6_LEN + UET_XDP_UDP_LEN)
_Static_assert(UET_XDP_HDR_V4 == 42 && UET_XDP_HDR_V6 == 62,
	       "frame header sizes");

/* What the headers of a frame say, apart from the payload. */
struct uet_xdp_hdr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t src_mac[6], dst_mac[6];
	uint8_t src_ip[16], dst_ip[16];	/* IPv4: the first 4 bytes */
	uint16_t sport, dport;
	uint8_t tos;		/* IPv4 TOS / IPv6 traffic class */
};

static inline size_t uet_xdp_hdr_len(int family)
{
	return family == AF_INET6 ? UET_XDP_HDR_V6 : UET_XDP_HDR_V4;
}

/* Ones' complement sum of len bytes at p added to sum (RFC 1071), not
 * folded; an odd last byte counts as its high half. */
uint64_t uet_xdp_csum_add(uint64_t sum, const uint8_t *p, size_t len);
/* sum folded to 16 bits and complemented. */
uint16_t uet_xdp_csum_fold(uint64_t sum);

/*
 * Write the headers of h in front of the payload_len bytes already at
 * frame + uet_xdp_hdr_len(h->family), with the IP length fields, the
 * IPv4 identification ip_id and header checksum and the UDP checksum
 * (0 becomes 0xffff).  Returns the frame length, or 0 when payload_len
 * does not fit an IP datagram.
 */
size_t uet_xdp_hdr_build(uint8_t *frame, const struct uet_xdp_hdr *h,
			 size_t payload_len, uint16_t ip_id);

/*
 * Parse a received frame of family (AF_INET / AF_INET6: the link's).
 * On success fills h (src/dst, ports, tos), *off and *plen (the UDP
 * payload) and returns 0; -EBADMSG for a frame that is too short, of
 * another type or protocol, a fragment, whose length fields disagree
 * with len, or whose IPv4 header checksum or (non-zero) UDP checksum is
 * wrong (check_udp_csum).  A UDP checksum field that holds the
 * pseudo-header's sum is one left to the device (CHECKSUM_PARTIAL: a
 * datagram of this host's kernel reaching veth's XDP) and is accepted
 * unverified.  Ethernet padding after the IP datagram is allowed.
 */
int uet_xdp_hdr_parse(const uint8_t *frame, size_t len, int family,
		      bool check_udp_csum, struct uet_xdp_hdr *h,
		      size_t *off, size_t *plen);

/* rtnetlink (uet_link_xdp_nl.c). */
int uet_xdp_nl_open(void);
/*
 * Where a datagram to dst (family, address bytes) goes: 0 with the
 * next hop's link-layer address in mac when the route leaves through
 * ifindex and the neighbour entry is usable (reachable, delay, probe,
 * permanent), 1 when it is usable but stale (the kernel should confirm
 * it: send one datagram through the socket); -EAGAIN when the route
 * does but the neighbour is
 * not resolved (yet); -EXDEV when the route leaves elsewhere (another
 * interface, a local address, a broadcast/multicast); another negative
 * errno when the kernel could not be asked.
 */
int uet_xdp_nl_next_hop(int fd, int family, const uint8_t *dst,
			int ifindex, uint8_t mac[6]);

#endif /* UET_LINK_XDP_INTERNAL_H */
