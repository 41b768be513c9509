/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC's link layer: moves whole UET datagrams (PDS prologue +
 * PDS header + SES header(s) + payload) between fabric addresses.
 *
 * Two implementations share this ops table:
 *   - UDP (uet_link_udp.c): one socket per NIC instance, IPv4 or IPv6,
 *     sendmmsg/recvmmsg batching, scatter-gather straight from the caller's
 *     iovecs (no staging copy of payload on send);
 *   - in-memory (uet_link_mem.c): a test fabric connecting several links,
 *     with programmable drop, duplication, reordering, delay and corruption,
 *     driven by a caller-supplied clock so tests are deterministic.
 *
 * The protocol state machines (PDS, SES) never do I/O themselves: they call
 * these ops.  All calls are non-blocking.
 */
#ifndef UET_LINK_H
#define UET_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* A fabric address of the software NIC: an IP address and UDP port. */
struct uet_link_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Most iovecs of one datagram: headers + payload fragments. */
#define UET_LINK_MAX_IOV	8

/* One datagram to send.  iov may point into the caller's memory; the link
 * has finished with it when send() returns. */
struct uet_link_pkt {
	const struct uet_link_addr *dst;
	uint16_t entropy;	/* ECMP entropy; see uet_link_ops.send */
	/* entropy is one of the link's entropies() (multipath): the UDP
	 * link sends it from the socket bound to that source port. */
	bool sprayed;
	unsigned int iovcnt;
	struct iovec iov[UET_LINK_MAX_IOV];
};

/* One received datagram.  buf belongs to the link and stays valid until
 * the next recv() call on the same link. */
struct uet_link_rx {
	const uint8_t *buf;
	size_t len;
	struct uet_link_addr src;
	/* The IP TOS / IPv6 traffic class byte it arrived with: DSCP << 2 |
	 * ECN; 0 when the link cannot tell. */
	uint8_t tos;
};

/* ECN field of the TOS byte (RFC 3168), and the DSCP a trimming switch
 * gives a trimmed packet (docs/conformance.md). */
#define UET_LINK_ECN_MASK	0x03u
#define UET_LINK_ECN_ECT0	0x02u
#define UET_LINK_ECN_CE		0x03u
#define UET_LINK_DSCP_TRIMMED	0x0bu
#define UET_LINK_TOS_DSCP(tos)	((uint8_t)((tos) >> 2))

/*
 * A destination reported unreachable.  local: the kernel refused to send
 * to it (no route from this link's address: a verdict); otherwise an ICMP
 * error came back for a datagram sent to it (port or host unreachable),
 * which anyone on the path can forge: evidence, not a verdict.
 */
struct uet_link_err {
	struct uet_link_addr dst;
	int err;		/* positive errno: ECONNREFUSED, EHOSTUNREACH,
				 * ENETUNREACH */
	bool local;
};

/* The reports a link keeps until they are read: a small ring, one entry
 * per destination; a report for a destination already queued is merged,
 * one that finds the ring full is counted in dropped and lost. */
#define UET_LINK_ERRQ_LEN	16
struct uet_link_errq {
	struct uet_link_err ev[UET_LINK_ERRQ_LEN];
	unsigned int head, n;
	uint64_t dropped;
};

void uet_link_errq_push(struct uet_link_errq *q,
			const struct uet_link_addr *dst, int err, bool local);
unsigned int uet_link_errq_pop(struct uet_link_errq *q,
			       struct uet_link_err *ev, unsigned int n);

struct uet_link;

struct uet_link_ops {
	/* Send up to n datagrams; returns how many were accepted (0..n), or a
	 * negative errno for a hard error.  Accepting fewer than n (e.g. the
	 * socket buffer is full) is not an error: the caller keeps the rest
	 * and retries later.  A datagram larger than mtu() is refused with
	 * -EMSGSIZE.  UDP: the source port is the NIC's bound port, except
	 * for a sprayed datagram, which leaves from the entropy socket whose
	 * port is its entropy (see entropies); entropy is recorded for the
	 * in-memory link and hashed by the simulated fabric's switches. */
	int (*send)(struct uet_link *link, const struct uet_link_pkt *pkts,
		    unsigned int n);
	/* Receive up to n datagrams without blocking; returns the number
	 * received (0 if none) or a negative errno. */
	int (*recv)(struct uet_link *link, struct uet_link_rx *rx,
		    unsigned int n);
	/* File descriptor that becomes readable when recv() may return
	 * datagrams (for epoll), or -1 if the link has none. */
	int (*fd)(struct uet_link *link);
	/* Largest datagram (UDP payload) this link carries to any
	 * destination. */
	size_t (*mtu)(struct uet_link *link);
	/* Optional (NULL: mtu() everywhere): the largest datagram to dst,
	 * never below mtu().  UDP: larger where the kernel routes dst over
	 * a path with a larger MTU, e.g. a destination on this host, which
	 * goes through the loopback device whatever interface has its
	 * address.  send() accepts datagrams to dst up to this size. */
	size_t (*path_mtu)(struct uet_link *link,
			   const struct uet_link_addr *dst);
	/* The address peers send to in order to reach this link. */
	int (*local_addr)(struct uet_link *link, struct uet_link_addr *addr);
	/* Optional (NULL: none): move up to n unreachable-destination reports
	 * into ev, oldest first; returns how many.  No system call: the link
	 * gathers them while it sends and receives. */
	unsigned int (*errors)(struct uet_link *link, struct uet_link_err *ev,
			       unsigned int n);
	/* Optional (NULL: any 16-bit value is an entropy): the entropy
	 * values this link can put on the wire (UDP: the source ports of
	 * its send-only entropy sockets); up to n into ports, returns how
	 * many (0: none, no multipath). */
	unsigned int (*entropies)(struct uet_link *link, uint16_t *ports,
				  unsigned int n);
	void (*close)(struct uet_link *link);
	/* true: the caller may write into the buffers recv() returned, within
	 * each datagram's [buf, buf + len), until the next recv() (a
	 * wrapping link, e.g. TSS, then decrypts in place).  false: they are
	 * read-only (they may be shared). */
	bool rx_writable;
	/* true: recv() sets the tos of every entry it returns (the caller
	 * need not clear them first).  false: it may leave tos alone. */
	bool rx_sets_tos;
};

struct uet_link {
	const struct uet_link_ops *ops;
};

/* Address helpers. */
int uet_link_addr_from_str(struct uet_link_addr *addr, const char *host,
			   uint16_t port);
int uet_link_addr_to_str(const struct uet_link_addr *addr, char *buf,
			 size_t len);
/*
 * The hash-map key of a fabric address, the one layout every map of the
 * software NIC uses (peers, SES streams, PDCs, CC state, sources):
 *   bytes 0-1    family (big-endian)
 *   bytes 2-3    port (network order)
 *   bytes 4-7    IPv4 address, or 4-19 the IPv6 address
 *   bytes 20-23  IPv6 scope id (big-endian)
 * Padding never counts.  0 for a complete IPv4 or IPv6 address;
 * -EAFNOSUPPORT otherwise, the key then holds the family and, for another
 * family, its first raw bytes (a short IPv4/IPv6 address: zeros).
 */
#define UET_LINK_ADDR_KEY_LEN	24
int uet_link_addr_key(const struct uet_link_addr *a,
		      uint8_t key[UET_LINK_ADDR_KEY_LEN]);

bool uet_link_addr_eq(const struct uet_link_addr *a,
		      const struct uet_link_addr *b);
/* Same family and IP address (and IPv6 scope), any port. */
bool uet_link_addr_same_host(const struct uet_link_addr *a,
			      const struct uet_link_addr *b);

/* Entropy source ports (docs/congestion.md, docs/conformance.md E-18): a
 * NIC on UDP port P sprays from ports P + 1 .. P + UET_LINK_ENT_SPAN of
 * its address (its entropy sockets are bound there), so a peer accepts a
 * request of an established PDC from those ports and P, and from no
 * other port of that host. */
#define UET_LINK_ENT_SPAN	128u

/* src may have sent a sprayed request of the peer at peer: same host,
 * and src's port is peer's or one of its entropy ports. */
bool uet_link_addr_entropy_of(const struct uet_link_addr *peer,
			      const struct uet_link_addr *src);

#endif /* UET_LINK_H */
