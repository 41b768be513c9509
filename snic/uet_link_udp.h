/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * UDP link: the software NIC's datagrams over one non-blocking UDP socket
 * (IPv4 or IPv6), batched with sendmmsg()/recvmmsg().
 *
 *   host    a local IPv4 or IPv6 literal ("127.0.0.1", "::1", "0.0.0.0",
 *           "::", "fe80::1%eth0"); no name lookup.  A wildcard bind
 *           reports the loopback address of its family as local_addr().
 *   port    0: UET_UDP_PORT (4793) if free, else an ephemeral port, so
 *           several NIC instances can share a host.  Non-zero: exactly
 *           that port, -EADDRINUSE when taken.
 *   mtu     largest UDP payload.  0: the MTU of the interface that owns
 *           host (for a wildcard: the smallest MTU of the interfaces that
 *           are up and carry an address of that family) minus the IP and
 *           UDP headers (28 bytes for IPv4, 48 for IPv6), capped at 65507
 *           (IPv4) / 65527 (IPv6); 1500 when the interface is not found.
 *           A non-zero value above the cap is -EINVAL.  With mtu 0 a
 *           destination the kernel routes over a path with a larger MTU
 *           gets larger datagrams (path_mtu op): a destination on this
 *           host goes through the loopback device, whatever interface
 *           holds its address, so two NICs of one host on eth0 (1500)
 *           exchange datagrams of up to 65507 bytes.  The kernel is asked
 *           once per destination host (a UDP socket connected to it,
 *           IP_MTU / IPV6_MTU), the answer kept UET_LINK_UDP_PATH_TTL_NS
 *           in a table of UET_LINK_UDP_PATHS hosts.  A non-zero mtu is
 *           the size for every destination.
 *   sndbuf, rcvbuf
 *           SO_SNDBUF / SO_RCVBUF in bytes when > 0 (failure is an
 *           error); otherwise 4 MiB is tried and a failure ignored (the
 *           kernel clamps to net.core.[rw]mem_max).
 *   loss_ppm, loss_seed
 *           testing knob (FI_UET_LOSS_PPM): drop this many parts per
 *           million of the received datagrams, at random, before the
 *           caller sees them (counted in rx_dropped).  0 (default): no
 *           drop, and the receive path costs one predictable branch.
 *           Above 1000000 is -EINVAL.  The decisions come from a
 *           xorshift64* generator seeded with loss_seed, or from
 *           getrandom() when loss_seed is 0.
 *
 * send() passes each datagram's iovecs to the kernel as they are (no
 * staging copy).  recv() fills up to 64 datagrams per call into
 * link-owned buffers, valid until the next recv(), each with room for the
 * largest UDP payload: mtu bounds what this link sends, not what it
 * hears (a peer's MTU may be larger).  A datagram that does not fit is
 * discarded and counted (rx_trunc).
 *
 * With IP_RECVERR / IPV6_RECVERR the ICMP errors drawn by datagrams sent
 * (port, host, network unreachable) are read from the socket's error
 * queue and reported through the errors op; a send the kernel refuses
 * for want of a route is reported as a local verdict.
 *
 * One socket per NIC instance: every datagram's UDP source port is the
 * bound port, so the entropy of a NIC instance is constant (the entropy
 * field of uet_link_pkt is not put on the wire by this link).
 *
 * Not thread safe: one link belongs to one thread (or the caller's lock).
 */
#ifndef UET_LINK_UDP_H
#define UET_LINK_UDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_link.h"

/* Datagrams per sendmmsg()/recvmmsg() call. */
#define UET_LINK_UDP_BATCH	64

/* Largest UDP payload: 65535 minus the IPv4 / UDP headers, and 65535
 * minus the UDP header for IPv6 (the IPv6 header is not in the length). */
#define UET_LINK_UDP_MAX_PAYLOAD_V4	65507
#define UET_LINK_UDP_MAX_PAYLOAD_V6	65527

struct uet_link_udp_cfg {
	const char *host;
	uint16_t port;
	size_t mtu;
	int sndbuf;
	int rcvbuf;
	uint32_t loss_ppm;		/* testing: received datagrams dropped */
	bool no_gso;			/* no UDP GSO / GRO even if available */
	uint64_t loss_seed;		/* 0: from getrandom() */
	/* Multipath: send-only sockets bound to ephemeral ports of the same
	 * address, one per entropy (their ports are the entropies a sprayed
	 * datagram leaves from); 0 none, at most UET_LINK_UDP_ENT_MAX. */
	unsigned int entropy_socks;
};

#define UET_LINK_UDP_ENT_MAX		64u

/* Largest loss_ppm: every datagram. */
#define UET_LINK_UDP_LOSS_PPM_MAX	1000000u

struct uet_link_udp_stats {
	uint64_t tx_pkts, tx_bytes;	/* handed to the kernel */
	uint64_t tx_again;		/* sends cut short: EAGAIN / ENOBUFS */
	uint64_t tx_err;		/* datagrams lost to a network error
					 * (unreachable, refused): accepted */
	uint64_t rx_pkts, rx_bytes;	/* returned by recv() */
	uint64_t rx_trunc;		/* longer than a buffer: discarded */
	uint64_t rx_dropped;		/* dropped by the loss_ppm knob */
	uint64_t gso_off;		/* the kernel refused a GSO send */
	uint64_t tx_gso;		/* msghdrs that carried a GSO run */
	uint64_t rx_gro;		/* buffers that held several datagrams */
	uint64_t gro_on;		/* UDP_GRO turned on (0 or 1) */
	uint64_t rx_narrow;		/* receive calls that asked for one */
	uint64_t icmp_err;		/* ICMP errors read (IP_RECVERR) */
	uint64_t rx_ce;			/* datagrams that arrived ECN CE */
	uint64_t tx_sprayed;		/* left from an entropy socket */
	uint64_t path_probes;		/* path MTUs asked of the kernel */
	uint64_t path_wide;		/* of them, larger than mtu */
};

/* Destination hosts whose path MTU is kept, and for how long. */
#define UET_LINK_UDP_PATHS		32u
#define UET_LINK_UDP_PATH_TTL_NS	5000000000ull

/*
 * Open a UDP link.  Returns 0, or -EINVAL (bad cfg or host), -EADDRINUSE,
 * -EADDRNOTAVAIL (host is not local), -ENOMEM, or another negative errno
 * from socket() / bind().
 */
int uet_link_udp_open(const struct uet_link_udp_cfg *cfg,
		      struct uet_link **link);

/* Counters of a link opened by uet_link_udp_open(); -EINVAL for any
 * other link. */
int uet_link_udp_get_stats(struct uet_link *link,
			   struct uet_link_udp_stats *st);

#endif /* UET_LINK_UDP_H */
