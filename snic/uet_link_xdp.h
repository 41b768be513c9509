/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AF_XDP link: the software NIC's datagrams through AF_XDP sockets, with
 * the Ethernet, IP and UDP headers built and parsed here, beside a UDP
 * link on the same address and port (docs/software-nic.md, "AF_XDP
 * link").
 *
 * Open:
 *   - host must be a unicast address of one Ethernet interface (not a
 *     wildcard, not loopback);
 *   - a UDP link (uet_link_udp_open, the same cfg) is opened first and
 *     stays open: its socket holds the port, receives what arrives
 *     before the XDP program is attached and after it is detached, and
 *     carries what cannot go through AF_XDP (below);
 *   - the XDP program (uet_xdp_prog.bpf.c) is loaded with libbpf, told
 *     the NIC's address and ports (its own and its entropy ports), one
 *     AF_XDP socket per receive queue of the interface (at most
 *     UET_LINK_XDP_QMAX) is bound with its own UMEM and put in the
 *     program's XSKMAP at its queue index, and the program is attached
 *     in native (driver) mode through a BPF link, which the kernel
 *     detaches when the process ends.
 * Any failure undoes everything and returns a negative errno with the
 * reason in words (no privileges, no native XDP in the driver, another
 * program attached, lo, a wildcard address...): the caller keeps the
 * UDP link (snic/uet_snic.c, FI_UET_LINK).
 *
 * send(): a datagram goes through AF_XDP when its destination's route
 * leaves through the interface and the kernel's neighbour table
 * (rtnetlink, RTM_GETROUTE then RTM_GETNEIGH) has a usable link-layer
 * address for the next hop.  Otherwise -- another interface, a local
 * address, a neighbour not yet resolved -- it goes through the UDP
 * socket, which makes the kernel resolve the neighbour; the link asks
 * again after UET_LINK_XDP_NEIGH_RETRY_NS, and every
 * UET_LINK_XDP_NEIGH_TTL_NS for a resolved one.  Headers: Ethernet, IPv4
 * (DF, header checksum) or IPv6, UDP with its checksum; the traffic
 * class is ECT(0) as on the UDP link; the source port is the NIC's
 * port, or the entropy of a sprayed datagram.  The payload is copied
 * once into a UMEM frame (the application's buffers are not in the
 * UMEM); the kernel takes the frame itself when the driver has zero
 * copy, else copies it into an skb (veth).
 *
 * recv(): the frames of the previous call go back to the fill ring
 * first; then the AF_XDP receive rings are read (no system call), and
 * the UDP socket as well -- at every call while it has carried
 * datagrams lately, else at one call in UET_LINK_XDP_UDP_POLL_EVERY.
 * Frames are parsed again here (lengths, IPv4 header checksum, UDP
 * checksum when the sender set one); a frame that fails is counted in
 * rx_bad and dropped.  The loss knob (loss_ppm) drops AF_XDP datagrams
 * as the UDP link drops its own.
 *
 * fd(): an epoll fd holding the UDP socket and every AF_XDP socket (put
 * there at the first call, when someone may sleep), so
 * the standby and auto-progress threads sleep on both paths.
 *
 * Not thread safe, like the UDP link.
 */
#ifndef UET_LINK_XDP_H
#define UET_LINK_XDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_link.h"
#include "uet_link_udp.h"

/* AF_XDP sockets (receive queues) at most. */
#define UET_LINK_XDP_QMAX		8u
/* UMEM frames per socket (half for receive, half for send). */
#define UET_LINK_XDP_FRAMES		4096u
#define UET_LINK_XDP_FRAME_SIZE		4096u
/* Datagrams handled per recv() / kick. */
#define UET_LINK_XDP_BATCH		64u
/* Unresolved neighbour: ask the kernel again after this long. */
#define UET_LINK_XDP_NEIGH_RETRY_NS	(1000ull * 1000)
/* Resolved neighbour: ask again after this long. */
#define UET_LINK_XDP_NEIGH_TTL_NS	(1000ull * 1000 * 1000)
/* recv() reads the UDP socket at one call in this many when it has been
 * quiet for UET_LINK_XDP_UDP_QUIET calls. */
#define UET_LINK_XDP_UDP_POLL_EVERY	1024u
#define UET_LINK_XDP_UDP_QUIET		4096u

struct uet_link_xdp_stats {
	uint64_t tx_pkts, tx_bytes;	/* sent through AF_XDP */
	uint64_t tx_udp;		/* sent through the UDP socket */
	uint64_t tx_full;		/* sends cut short: no frame / ring */
	uint64_t tx_kicks;		/* sendto() wake-ups of the TX ring */
	uint64_t rx_pkts, rx_bytes;	/* received through AF_XDP */
	uint64_t rx_udp;		/* received through the UDP socket */
	uint64_t rx_bad;		/* malformed frames dropped */
	uint64_t rx_dropped;		/* dropped by the loss_ppm knob */
	uint64_t neigh_lookups;		/* rtnetlink route + neighbour asks */
	uint64_t neigh_miss;		/* ... that found no usable entry */
	uint64_t rx_q[UET_LINK_XDP_QMAX];	/* ... per receive queue */
	uint32_t queues;		/* AF_XDP sockets */
	bool zerocopy;			/* every socket bound in zero copy */
};

/*
 * Open an AF_XDP link for cfg (see uet_link_udp.h; host must name one
 * interface's address).  0, or a negative errno with why[] (when given)
 * saying what stopped it: -EPERM / -EACCES (no privileges),
 * -EOPNOTSUPP (built without XDP, driver without native XDP, lo, not
 * Ethernet), -EBUSY (another XDP program on the interface), -EINVAL
 * (wildcard or bad cfg), -ENODEV (no interface has host), or what the
 * UDP link, libbpf or the kernel returned.
 */
int uet_link_xdp_open(const struct uet_link_udp_cfg *cfg,
		      struct uet_link **link, char *why, size_t whylen);

/* The link is an AF_XDP link (opened by uet_link_xdp_open). */
bool uet_link_is_xdp(const struct uet_link *link);

/* Counters; -EINVAL for a link that is not an AF_XDP link. */
int uet_link_xdp_get_stats(struct uet_link *link,
			   struct uet_link_xdp_stats *st);

/* The interface name the link runs on (a static string of the link). */
const char *uet_link_xdp_ifname(const struct uet_link *link);

#endif /* UET_LINK_XDP_H */
