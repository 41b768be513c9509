/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * UDP link; see uet_link_udp.h for the contract.
 *
 * send(): the datagrams are checked first (iovec count, family, length
 * against mtu); the valid prefix goes to sendmmsg() in batches of
 * UET_LINK_UDP_BATCH with each datagram's iovecs passed through.  A
 * partial sendmmsg() is resumed at the first unsent datagram, which
 * either goes out or reports its error:
 *   EAGAIN / ENOBUFS       stop, return the count so far (caller retries);
 *   network errors         (unreachable, refused, down, EPERM/EACCES from
 *                          a filter) the datagram is counted in tx_err
 *                          and treated as sent -- it is lost as on a wire,
 *                          and one bad peer cannot stall the queue;
 *   anything else          returned as -errno when nothing was sent yet.
 * A datagram that fails the checks ends the batch: it is refused with its
 * error (-EMSGSIZE, -EAFNOSUPPORT, -EINVAL) when it comes first, so the
 * caller sees the error on the call that starts with it.
 *
 * GSO: consecutive datagrams to the same destination whose lengths are
 * equal (the last of a run may be shorter) go as one msghdr with a
 * UDP_SEGMENT control message (gso_size = that length), up to
 * UET_LINK_UDP_GSO_SEGS datagrams and the largest UDP payload in all: the
 * kernel sends one large buffer through the stack and cuts it into those
 * datagrams at the device (or hands it whole to a UDP_GRO receiver on
 * loopback).  A run of just two whose first is UET_LINK_UDP_GSO_PAIR_SPLIT
 * bytes or more goes as two msghdrs instead (measured cheaper for large
 * pairs).  A kernel that refuses it (EIO, EINVAL on such a msghdr)
 * turns GSO off for the link and the datagrams go one per msghdr.
 *
 * recv(): one recvmmsg(MSG_DONTWAIT) into UET_LINK_UDP_BATCH buffers
 * owned by the link and reused by every call (room for the largest UDP
 * payload each, 64 KiB where the kernel has UDP_GRO: a peer whose MTU is
 * larger than ours, e.g. on loopback or with jumbo frames, is still
 * heard), or into one while the traffic is sparse; UDP_GRO is turned on
 * at the first burst (uet_link_udp_rx_adapt).  With UDP_GRO the kernel
 * may hand over several datagrams of
 * one flow as one buffer with their size in a control message: recv()
 * cuts it back into datagrams.  When they are more than the caller asked
 * for, the rest is returned by the next calls before any new recvmmsg()
 * (the buffers stay untouched until then).  The receive
 * msghdrs (name, iovec) are set up once at open; after a call only what
 * the kernel wrote into the entries it filled (msg_namelen, msg_flags)
 * is put back.  The loss knob (cfg.loss_ppm) drops a datagram after it
 * was read and before it is returned: a 32-bit draw of xorshift64*
 * below loss_thresh = loss_ppm * 2^32 / 10^6.
 */
#include "config.h"
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1		/* sendmmsg, recvmmsg */
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/errqueue.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_hashmap.h"
#include "uet_link_udp.h"
#include "uet_list.h"
#include "uet_wire_consts.h"
#include "uet_rand.h"

#define UET_LINK_UDP_HDR_V4		(20 + 8)	/* IPv4 + UDP */
#define UET_LINK_UDP_HDR_V6		(40 + 8)	/* IPv6 + UDP */
/* Interface MTU assumed when the owner of host cannot be found. */
#define UET_LINK_UDP_FALLBACK_IF_MTU	1500
/* Socket buffer size tried when the configuration does not ask. */
#define UET_LINK_UDP_DEFAULT_SOCKBUF	(4 << 20)
/* recv() passes over at most this many all-truncated batches. */
#define UET_LINK_UDP_TRUNC_RETRIES	4
#define UET_LINK_UDP_PPM		1000000ull
/* Datagrams per GSO send (the kernel's UDP_MAX_SEGMENTS is >= 64). */
#define UET_LINK_UDP_GSO_SEGS		64u
/* iovecs of one sendmmsg() call (a GSO run carries many datagrams' worth;
 * the kernel takes up to UIO_MAXIOV = 1024 per msghdr). */
#define UET_LINK_UDP_TX_IOV		(UET_LINK_UDP_BATCH * UET_LINK_MAX_IOV)
/* A run of exactly two datagrams whose first is at least this long goes
 * as two msghdrs, not one GSO buffer (a 16 KiB message on loopback:
 * docs/performance.md, "Medium sizes"); shorter pairs (a reply and the
 * ACK riding with it) keep GSO. */
#define UET_LINK_UDP_GSO_PAIR_SPLIT	4096u
/* Receive buffer with UDP_GRO: the largest coalesced datagram. */
#define UET_LINK_UDP_GRO_BUF		65536u
/* Datagrams one recvmmsg() brings that make a burst (UDP_GRO on). */
#define UET_LINK_UDP_GRO_BURST		8u

/* Error-queue entries read per call. */
#define UET_LINK_UDP_ERRQ_READS	32
/* Sends of one datagram retried after reading the error queue. */
#define UET_LINK_UDP_SEND_RETRIES	4

#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

/* Room for UDP_GRO's segment size and the TOS / traffic class. */
union uet_link_udp_ctl {
	char buf[2 * CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

/* A destination host's path MTU (uet_link_udp_path_mtu). */
struct uet_link_udp_path {
	uint8_t key[UET_LINK_ADDR_KEY_LEN];	/* the port bytes zero */
	size_t mtu;				/* 0: a free slot */
	uint64_t until_ns;
};

struct uet_link_udp {
	struct uet_link base;
	int fd;
	int family;
	size_t mtu;
	bool mtu_fixed;			/* cfg.mtu: mtu on every path */
	struct uet_link_udp_path paths[UET_LINK_UDP_PATHS];
	size_t stride;			/* distance between rx buffers */
	uint8_t *rx_bufs;		/* UET_LINK_UDP_BATCH * stride */
	struct uet_link_addr local;
	struct uet_link_udp_stats stats;
	uint64_t loss_thresh;		/* 0: no drop; 2^32: drop all */
	uint64_t loss_rng;		/* xorshift64* state, never 0 */
	bool gso;			/* UDP_SEGMENT on send */
	bool gro_ok;			/* the kernel has UDP_GRO */
	bool gro;			/* UDP_GRO on receive (now) */
	bool rx_narrow;			/* next recvmmsg() asks for one */
	bool rx_tos;			/* IP_RECVTOS / IPV6_RECVTCLASS on */
	uint8_t pend_tos;		/* TOS of the buffer being cut */
	size_t cap;			/* largest UDP payload of the family */
	/* a recvmmsg() batch still being cut into datagrams */
	unsigned int pend_n;		/* its msghdrs, 0: none */
	unsigned int pend_i;		/* the current one */
	size_t pend_off;		/* how far it was cut */
	size_t pend_seg;		/* its datagram size (0: one) */
	struct mmsghdr tx_msgs[UET_LINK_UDP_BATCH];
	unsigned int tx_segs[UET_LINK_UDP_BATCH];	/* datagrams each */
	struct iovec tx_iov[UET_LINK_UDP_TX_IOV];
	union uet_link_udp_ctl tx_ctl[UET_LINK_UDP_BATCH];
	union uet_link_udp_ctl rx_ctl[UET_LINK_UDP_BATCH];
	struct mmsghdr rx_msgs[UET_LINK_UDP_BATCH];
	struct iovec rx_iov[UET_LINK_UDP_BATCH];
	struct sockaddr_storage rx_addr[UET_LINK_UDP_BATCH];
	struct uet_link_errq errq;	/* unreachable destinations */
	/* multipath: send-only sockets, their ports, port -> index + 1 */
	unsigned int nent;
	int ent_fd[UET_LINK_UDP_ENT_MAX];
	uint16_t ent_port[UET_LINK_UDP_ENT_MAX];
	uint8_t *ent_idx;		/* 65536 entries, NULL: no sockets */
	/* errors() calls left that look at the entropy sockets' error
	 * queues: reset by every sprayed send (an ICMP error answers one
	 * an RTT later), so an idle link makes no system call for them */
	unsigned int ent_checks;
};

/* errors() calls after a sprayed send during which the entropy sockets
 * are checked, one call in UET_LINK_UDP_ENT_CHECK_EVERY. */
#define UET_LINK_UDP_ENT_CHECKS		4096u
#define UET_LINK_UDP_ENT_CHECK_EVERY	16u

static const struct uet_link_ops uet_link_udp_ops;

static inline struct uet_link_udp *uet_link_udp_of(struct uet_link *link)
{
	return uet_container_of(link, struct uet_link_udp, base);
}

/* ---- send ---- */

static size_t uet_link_udp_path_of(struct uet_link_udp *lu,
				   const struct uet_link_addr *dst);

/* 0 when pkt may be sent on this link, else the negative errno. */
static int uet_link_udp_check(struct uet_link_udp *lu,
			      const struct uet_link_pkt *pkt)
{
	size_t len = 0;
	unsigned int i;

	if (!pkt->dst || pkt->iovcnt > UET_LINK_MAX_IOV)
		return -EINVAL;
	if (pkt->dst->ss.ss_family != lu->family)
		return -EAFNOSUPPORT;
	if (pkt->dst->len > sizeof(pkt->dst->ss))
		return -EINVAL;
	for (i = 0; i < pkt->iovcnt; i++) {
		if (pkt->iov[i].iov_len && !pkt->iov[i].iov_base)
			return -EINVAL;
		if (pkt->iov[i].iov_len > lu->cap - len)
			return -EMSGSIZE;
		len += pkt->iov[i].iov_len;
	}
	/* Above mtu only where the path is wider (a table lookup). */
	if (len > lu->mtu && len > uet_link_udp_path_of(lu, pkt->dst))
		return -EMSGSIZE;
	return 0;
}

/* Errors that lose one datagram on the network, not the link. */
static bool uet_link_udp_net_error(int err)
{
	switch (err) {
	case ENETUNREACH:
	case EHOSTUNREACH:
	case ECONNREFUSED:
	case EHOSTDOWN:
	case ENETDOWN:
	case EPERM:
	case EACCES:
		return true;
	default:
		return false;
	}
}

/* Errors that say something about one destination. */
static bool uet_link_udp_unreach_error(int err)
{
	return err == ECONNREFUSED || err == EHOSTUNREACH ||
	       err == ENETUNREACH || err == EHOSTDOWN;
}

/*
 * Read the socket's error queue (IP_RECVERR / IPV6_RECVERR): each ICMP
 * error names the destination of the datagram that drew it.  Returns
 * how many entries were read.  Port, host
 * and network unreachable become reports (errq); the rest (fragmentation
 * needed, time exceeded) are only counted.  Bounded per call; reading
 * the queue also clears the socket error that made the last send or
 * receive fail.
 */
static unsigned int uet_link_udp_read_errq_fd(struct uet_link_udp *lu,
					      int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
				    sizeof(struct sockaddr_in6))];
		struct cmsghdr align;
	} ctl;
	struct sock_extended_err ee;
	struct uet_link_addr dst;
	struct cmsghdr *cm;
	struct msghdr mh;
	struct iovec iov;
	uint8_t b[64];
	unsigned int i;

	for (i = 0; i < UET_LINK_UDP_ERRQ_READS; i++) {
		memset(&mh, 0, sizeof(mh));
		memset(&dst, 0, sizeof(dst));
		iov.iov_base = b;
		iov.iov_len = sizeof(b);
		mh.msg_name = &dst.ss;
		mh.msg_namelen = sizeof(dst.ss);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return i;
		dst.len = mh.msg_namelen;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
			if (!((cm->cmsg_level == IPPROTO_IP &&
			       cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == IPPROTO_IPV6 &&
			       cm->cmsg_type == IPV6_RECVERR)) ||
			    cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			lu->stats.icmp_err++;
			if ((ee.ee_origin == SO_EE_ORIGIN_ICMP ||
			     ee.ee_origin == SO_EE_ORIGIN_ICMP6) &&
			    uet_link_udp_unreach_error((int)ee.ee_errno) &&
			    dst.len)
				uet_link_errq_push(&lu->errq, &dst,
						   (int)ee.ee_errno, false);
		}
	}
	return i;
}

static unsigned int uet_link_udp_read_errq(struct uet_link_udp *lu)
{
	return uet_link_udp_read_errq_fd(lu, lu->fd);
}

static size_t uet_link_udp_pkt_len(const struct uet_link_pkt *p)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < p->iovcnt; i++)
		len += p->iov[i].iov_len;
	return len;
}

static bool uet_link_udp_same_dst(const struct uet_link_pkt *a,
				  const struct uet_link_pkt *b)
{
	return a->dst == b->dst || uet_link_addr_eq(a->dst, b->dst);
}

/*
 * Fill tx_msgs from pkts[0..n): one msghdr per datagram, or per run of
 * datagrams sent with GSO.  Returns the number of msghdrs.
 */
static unsigned int uet_link_udp_build(struct uet_link_udp *lu,
				       const struct uet_link_pkt *pkts,
				       unsigned int n)
{
	unsigned int m = 0, p = 0, segs, iovs = 0, first, k;
	size_t len, total, l;
	struct msghdr *mh;
	struct cmsghdr *cm;

	while (p < n && m < UET_LINK_UDP_BATCH) {
		/* Room for this datagram's iovecs, or the call ends here. */
		if (iovs + pkts[p].iovcnt > UET_LINK_UDP_TX_IOV)
			break;
		mh = &lu->tx_msgs[m].msg_hdr;
		memset(mh, 0, sizeof(*mh));
		/* The kernel only reads name, iovecs and control. */
		mh->msg_name = (void *)(uintptr_t)&pkts[p].dst->ss;
		mh->msg_namelen = pkts[p].dst->len;
		mh->msg_iov = lu->tx_iov + iovs;
		first = iovs;
		len = total = uet_link_udp_pkt_len(&pkts[p]);
		segs = 0;
		do {
			for (k = 0; k < pkts[p + segs].iovcnt; k++)
				lu->tx_iov[iovs++] = pkts[p + segs].iov[k];
			segs++;
			if (!lu->gso || len == 0 || p + segs >= n ||
			    segs >= UET_LINK_UDP_GSO_SEGS ||
			    iovs + pkts[p + segs].iovcnt > UET_LINK_UDP_TX_IOV)
				break;
			l = uet_link_udp_pkt_len(&pkts[p + segs]);
			if (l == 0 || l > len || total + l > lu->cap ||
			    !uet_link_udp_same_dst(&pkts[p], &pkts[p + segs]))
				break;
			total += l;
			if (l < len) {		/* a shorter one ends the run */
				for (k = 0; k < pkts[p + segs].iovcnt; k++)
					lu->tx_iov[iovs++] =
						pkts[p + segs].iov[k];
				segs++;
				break;
			}
		} while (1);
		if (segs == 2 && len >= UET_LINK_UDP_GSO_PAIR_SPLIT) {
			/* the second datagram starts the next msghdr */
			iovs = first + pkts[p].iovcnt;
			segs = 1;
		}
		mh->msg_iovlen = iovs - first;
		if (segs > 1) {
			mh->msg_control = lu->tx_ctl[m].buf;
			mh->msg_controllen = CMSG_SPACE(sizeof(uint16_t));
			cm = CMSG_FIRSTHDR(mh);
			cm->cmsg_level = SOL_UDP;
			cm->cmsg_type = UDP_SEGMENT;
			cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
			*(uint16_t *)(void *)CMSG_DATA(cm) = (uint16_t)len;
		}
		lu->tx_segs[m++] = segs;
		p += segs;
	}
	return m;
}

/* The socket a datagram leaves from: the entropy socket of its port
 * when it is sprayed, else the NIC's own. */
static int uet_link_udp_fd_of(const struct uet_link_udp *lu,
			      const struct uet_link_pkt *pkt)
{
	unsigned int k;

	if (!pkt->sprayed || !lu->ent_idx)
		return lu->fd;
	k = lu->ent_idx[pkt->entropy];
	return k ? lu->ent_fd[k - 1] : lu->fd;
}

static int uet_link_udp_send(struct uet_link *link,
			     const struct uet_link_pkt *pkts, unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);
	unsigned int nok, done, cnt, i, run;
	unsigned int retries = 0;
	int ret, serr, err = 0, fd;

	if (n && !pkts)
		return -EINVAL;
	for (nok = 0; nok < n; nok++) {
		err = uet_link_udp_check(lu, &pkts[nok]);
		if (err)
			break;
	}

	done = 0;
	while (done < nok) {
		fd = uet_link_udp_fd_of(lu, &pkts[done]);
		for (run = done + 1; run < nok &&
		     uet_link_udp_fd_of(lu, &pkts[run]) == fd; run++)
			;
		cnt = uet_link_udp_build(lu, pkts + done, run - done);
		ret = sendmmsg(fd, lu->tx_msgs, cnt, MSG_DONTWAIT);
		if (ret > 0) {
			retries = 0;
			for (i = 0; i < (unsigned int)ret; i++) {
				if (fd != lu->fd) {
					lu->stats.tx_sprayed += lu->tx_segs[i];
					lu->ent_checks =
						UET_LINK_UDP_ENT_CHECKS;
				}
				lu->stats.tx_pkts += lu->tx_segs[i];
				lu->stats.tx_bytes += lu->tx_msgs[i].msg_len;
				lu->stats.tx_gso += lu->tx_segs[i] > 1;
				done += lu->tx_segs[i];
			}
			continue;
		}
		if (ret == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK ||
		    errno == ENOBUFS) {
			lu->stats.tx_again++;
			break;
		}
		if ((errno == EIO || errno == EINVAL) && lu->tx_segs[0] > 1) {
			/* No GSO here: one datagram per msghdr from now on. */
			lu->gso = false;
			lu->stats.gso_off++;
			continue;
		}
		serr = errno;
		if (uet_link_udp_net_error(serr) &&
		    retries < UET_LINK_UDP_SEND_RETRIES &&
		    uet_link_udp_read_errq_fd(lu, fd)) {
			/* The socket error an ICMP report left (for any
			 * destination: IP_RECVERR) failed this send and was
			 * cleared by it: the reports are read, try again.
			 * An entropy socket's are its own. */
			retries++;
			continue;
		}
		if (uet_link_udp_net_error(serr) || serr == EINVAL) {
			/* With no report pending, the kernel refused this
			 * destination itself (EINVAL: no route from this
			 * address, e.g. loopback to another host): lost as
			 * on a wire, and reported as a local verdict. */
			if (serr == ENETUNREACH || serr == EHOSTUNREACH ||
			    serr == EINVAL || serr == ENETDOWN)
				uet_link_errq_push(&lu->errq, pkts[done].dst,
						   serr == EHOSTUNREACH ?
						   EHOSTUNREACH : ENETUNREACH,
						   true);
			lu->stats.tx_err += lu->tx_segs[0];
			done += lu->tx_segs[0];
			retries = 0;
			continue;
		}
		errno = serr;
		if (done == 0)
			return -errno;
		break;
	}
	if (done == 0 && nok == 0 && n > 0)
		return err;
	return (int)done;
}

/* ---- recv ---- */

/* Point every receive msghdr at its buffer and address (once, at open). */
static void uet_link_udp_rx_prepare(struct uet_link_udp *lu)
{
	struct msghdr *mh;
	unsigned int i;

	for (i = 0; i < UET_LINK_UDP_BATCH; i++) {
		lu->rx_iov[i].iov_base = lu->rx_bufs + i * lu->stride;
		lu->rx_iov[i].iov_len = lu->gro_ok ? UET_LINK_UDP_GRO_BUF :
						     lu->cap;
		mh = &lu->rx_msgs[i].msg_hdr;
		memset(mh, 0, sizeof(*mh));
		mh->msg_name = &lu->rx_addr[i];
		mh->msg_namelen = sizeof(lu->rx_addr[i]);
		mh->msg_iov = &lu->rx_iov[i];
		mh->msg_iovlen = 1;
		if (lu->gro_ok || lu->rx_tos) {
			mh->msg_control = lu->rx_ctl[i].buf;
			mh->msg_controllen = sizeof(lu->rx_ctl[i].buf);
		}
	}
}

/* The loss knob: true when this received datagram is to be dropped. */
static bool uet_link_udp_lose(struct uet_link_udp *lu)
{
	return uet_rand_next(&lu->loss_rng) >> 32 < lu->loss_thresh;
}

/* The datagram size of a UDP_GRO buffer, 0 when it holds one. */
static size_t uet_link_udp_gro_size(struct msghdr *mh)
{
	struct cmsghdr *cm;
	int v;

	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
			memcpy(&v, CMSG_DATA(cm), sizeof(v));
			return v > 0 ? (size_t)v : 0;
		}
	}
	return 0;
}

/* The TOS / traffic class byte a datagram arrived with (GRO merges only
 * datagrams with the same one), 0 when there is no such message. */
static uint8_t uet_link_udp_tos(struct msghdr *mh)
{
	struct cmsghdr *cm;
	int v;

	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_TOS &&
		    cm->cmsg_len >= CMSG_LEN(1))
			return *(const uint8_t *)CMSG_DATA(cm);
		if (cm->cmsg_level == IPPROTO_IPV6 &&
		    cm->cmsg_type == IPV6_TCLASS &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
			memcpy(&v, CMSG_DATA(cm), sizeof(v));
			return (uint8_t)v;
		}
	}
	return 0;
}

/* Put back what the kernel wrote into msghdr i; the rest stays. */
static void uet_link_udp_rx_reset(struct uet_link_udp *lu, unsigned int i)
{
	struct msghdr *mh = &lu->rx_msgs[i].msg_hdr;

	mh->msg_namelen = sizeof(lu->rx_addr[i]);
	mh->msg_flags = 0;
	if (lu->gro_ok || lu->rx_tos)
		mh->msg_controllen = sizeof(lu->rx_ctl[i].buf);
}

/*
 * Cut the pending recvmmsg() batch into datagrams, up to n of them in
 * rx.  pend_n becomes 0 when the whole batch was returned.
 */
static unsigned int uet_link_udp_drain(struct uet_link_udp *lu,
				       struct uet_link_rx *rx, unsigned int n)
{
	unsigned int out = 0, i;
	struct msghdr *mh;
	size_t len, l;

	for (i = lu->pend_i; i < lu->pend_n; i++) {
		mh = &lu->rx_msgs[i].msg_hdr;
		len = lu->rx_msgs[i].msg_len;
		if (lu->pend_off == 0) {
			lu->pend_seg = lu->gro ? uet_link_udp_gro_size(mh) : 0;
			if (lu->pend_seg >= len)
				lu->pend_seg = 0;
			if (lu->pend_seg)
				lu->stats.rx_gro++;
			lu->pend_tos = lu->rx_tos ? uet_link_udp_tos(mh) : 0;
		}
		if (mh->msg_flags & MSG_TRUNC) {
			lu->stats.rx_trunc++;
			goto done;
		}
		/* do-while: an empty datagram is one too */
		do {
			if (out == n) {
				lu->pend_i = i;
				return out;
			}
			l = len - lu->pend_off;
			if (lu->pend_seg && l > lu->pend_seg)
				l = lu->pend_seg;
			if (l > lu->cap) {
				lu->stats.rx_trunc++;
			} else if (lu->loss_thresh && uet_link_udp_lose(lu)) {
				lu->stats.rx_dropped++;
			} else {
				rx[out].buf = (const uint8_t *)
					lu->rx_iov[i].iov_base + lu->pend_off;
				rx[out].len = l;
				rx[out].tos = lu->pend_tos;
				if ((lu->pend_tos & UET_LINK_ECN_MASK) ==
				    UET_LINK_ECN_CE)
					lu->stats.rx_ce++;
				memset(&rx[out].src, 0, sizeof(rx[out].src));
				if (mh->msg_namelen <= sizeof(rx[out].src.ss)) {
					memcpy(&rx[out].src.ss, &lu->rx_addr[i],
					       mh->msg_namelen);
					rx[out].src.len = mh->msg_namelen;
				}
				lu->stats.rx_pkts++;
				lu->stats.rx_bytes += l;
				out++;
			}
			lu->pend_off += l;
		} while (lu->pend_off < len);
done:
		lu->pend_off = 0;
		uet_link_udp_rx_reset(lu, i);
	}
	lu->pend_n = lu->pend_i = 0;
	return out;
}

/*
 * The shape of the next recvmmsg(), from what the last one brought.
 * With UDP_GRO on, and with a vector of 64 entries, a receive costs more
 * in the kernel even when it brings one datagram (docs/performance.md:
 * 0.17 and 0.07 usec per half round trip), so a link starts without
 * GRO and asks for one datagram while the traffic is sparse:
 *   - a call for one that brought it is followed by a wide call (more
 *     may be waiting);
 *   - a wide call that brought at most one is followed by calls for one;
 *   - a wide call that brought a burst (what it asked for, or
 *     UET_LINK_UDP_GRO_BURST or more) turns UDP_GRO on for good.
 * GRO is never turned off: a buffer the kernel coalesced before that
 * would arrive without its segment size.
 */
static void uet_link_udp_rx_adapt(struct uet_link_udp *lu, unsigned int cnt,
				  unsigned int got)
{
	int one = 1;

	if (cnt == 1) {
		lu->rx_narrow = got == 0;
		return;
	}
	lu->rx_narrow = got <= 1;
	if (lu->gro || !lu->gro_ok || got < 2 ||
	    (got < cnt && got < UET_LINK_UDP_GRO_BURST))
		return;
	if (setsockopt(lu->fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) == 0) {
		lu->gro = true;
		lu->stats.gro_on++;
	} else {
		lu->gro_ok = false;
	}
}

static int uet_link_udp_recv(struct uet_link *link, struct uet_link_rx *rx,
			     unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);
	unsigned int cnt, out, tries;
	int ret;

	if (n == 0)
		return 0;
	if (!rx)
		return -EINVAL;
	/* The rest of a batch first, with no new recvmmsg() in the same
	 * call: its buffers must stay as they are until it is returned. */
	if (lu->pend_n)
		return (int)uet_link_udp_drain(lu, rx, n);
	cnt = n < UET_LINK_UDP_BATCH ? n : UET_LINK_UDP_BATCH;
	if (lu->rx_narrow) {
		cnt = 1;
		lu->stats.rx_narrow++;
	}
	for (tries = 0; tries < UET_LINK_UDP_TRUNC_RETRIES; tries++) {
		ret = recvmmsg(lu->fd, lu->rx_msgs, cnt, MSG_DONTWAIT, NULL);
		uet_link_udp_rx_adapt(lu, cnt, ret > 0 ? (unsigned int)ret : 0);
		if (ret < 0) {
			if (uet_link_udp_net_error(errno)) {
				/* An ICMP report (IP_RECVERR) failed the
				 * call before any datagram: read it, go on. */
				uet_link_udp_read_errq(lu);
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR)
				return 0;
			return -errno;
		}
		if (ret == 0)
			return 0;
		lu->pend_n = (unsigned int)ret;
		lu->pend_i = 0;
		lu->pend_off = 0;
		out = uet_link_udp_drain(lu, rx, n);
		/* Only a full batch of discarded datagrams is worth a retry. */
		if (out || lu->pend_n || (unsigned int)ret < cnt)
			return (int)out;
	}
	return 0;
}

/* ---- the other ops ---- */

static int uet_link_udp_fd(struct uet_link *link)
{
	return uet_link_udp_of(link)->fd;
}

static size_t uet_link_udp_mtu(struct uet_link *link)
{
	return uet_link_udp_of(link)->mtu;
}

/* ---- path MTU ---- */

static void uet_link_udp_set_port(struct uet_link_addr *a, uint16_t port);
static bool uet_link_udp_is_wildcard(const struct uet_link_addr *a);

/* The MTU of the kernel's route from the link's address to dst, as a UDP
 * payload: a datagram socket bound like the link's and connected to dst
 * (no packet is sent).  0 when the kernel does not say. */
static size_t uet_link_udp_route_mtu(const struct uet_link_udp *lu,
				     const struct uet_link_addr *dst)
{
	struct uet_link_addr src;
	size_t hdr = lu->family == AF_INET ? UET_LINK_UDP_HDR_V4 :
					     UET_LINK_UDP_HDR_V6;
	socklen_t olen = sizeof(int);
	int fd, m = 0;

	memset(&src, 0, sizeof(src));
	src.len = sizeof(src.ss);
	if (getsockname(lu->fd, (struct sockaddr *)&src.ss, &src.len) < 0)
		return 0;
	fd = socket(lu->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	uet_link_udp_set_port(&src, 0);
	if ((uet_link_udp_is_wildcard(&src) ||
	     bind(fd, (struct sockaddr *)&src.ss, src.len) == 0) &&
	    connect(fd, (const struct sockaddr *)&dst->ss, dst->len) == 0 &&
	    getsockopt(fd, lu->family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6,
		       lu->family == AF_INET ? IP_MTU : IPV6_MTU, &m,
		       &olen) < 0)
		m = 0;
	close(fd);
	if (m <= 0 || (size_t)m <= hdr)
		return 0;
	return (size_t)m - hdr < lu->cap ? (size_t)m - hdr : lu->cap;
}

/*
 * The largest datagram to dst: mtu, or the route's MTU where it is
 * larger and mtu was not set.  One slot per destination host, chosen by
 * hash (a colliding host takes the slot over), valid
 * UET_LINK_UDP_PATH_TTL_NS; a miss asks the kernel.  The table is
 * bounded, so destinations a peer makes us answer cannot grow it.
 */
static size_t uet_link_udp_path_of(struct uet_link_udp *lu,
				   const struct uet_link_addr *dst)
{
	uint8_t key[UET_LINK_ADDR_KEY_LEN];
	struct uet_link_udp_path *p;
	uint64_t now;
	size_t m;

	if (lu->mtu_fixed || !dst || dst->ss.ss_family != lu->family ||
	    uet_link_addr_key(dst, key))
		return lu->mtu;
	key[2] = key[3] = 0;		/* the host, any port */
	p = &lu->paths[uet_hash_bytes(key, sizeof(key)) %
		       UET_LINK_UDP_PATHS];
	now = uet_clock_now_ns();
	if (p->mtu && now < p->until_ns && !memcmp(p->key, key, sizeof(key)))
		return p->mtu;
	m = uet_link_udp_route_mtu(lu, dst);
	lu->stats.path_probes++;
	if (m > lu->mtu)
		lu->stats.path_wide++;
	else
		m = lu->mtu;
	memcpy(p->key, key, sizeof(key));
	p->mtu = m;
	p->until_ns = now + UET_LINK_UDP_PATH_TTL_NS;
	return m;
}

static size_t uet_link_udp_path_mtu(struct uet_link *link,
				    const struct uet_link_addr *dst)
{
	return uet_link_udp_path_of(uet_link_udp_of(link), dst);
}

static int uet_link_udp_local_addr(struct uet_link *link,
				   struct uet_link_addr *addr)
{
	if (!addr)
		return -EINVAL;
	*addr = uet_link_udp_of(link)->local;
	return 0;
}

static int uet_link_udp_sockbuf(int fd, int opt, int want);

static void uet_link_udp_ent_close(struct uet_link_udp *lu)
{
	unsigned int i;

	for (i = 0; i < lu->nent; i++)
		close(lu->ent_fd[i]);
	lu->nent = 0;
	free(lu->ent_idx);
	lu->ent_idx = NULL;
}

/*
 * Multipath (docs/congestion.md): n send-only sockets on the NIC's
 * address, ECN-capable like the main one, bound to its entropy ports:
 * the first n free ports of P + 1 .. P + UET_LINK_ENT_SPAN (P the NIC's
 * port), the only ports of this host from which a peer accepts a sprayed
 * request (uet_link_addr_entropy_of, E-18).  Ports taken by another
 * socket are skipped; fewer than n free ones leave fewer entropies.  Peers answer the
 * NIC's own port (a target learns it from the syn request, which never
 * leaves from an entropy socket), so nothing is read from these: their
 * receive buffer is the smallest the kernel allows.
 */
static int uet_link_udp_ent_open(struct uet_link_udp *lu, unsigned int n)
{
	struct uet_link_addr a;
	int fd, tos = UET_LINK_ECN_ECT0, small = 1, one = 1;
	uint32_t base, next;
	uint16_t port;
	int ret;

	if (!n)
		return 0;
	if (n > UET_LINK_UDP_ENT_MAX)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.len = sizeof(a.ss);
	if (getsockname(lu->fd, (struct sockaddr *)&a.ss, &a.len))
		return -errno;
	base = a.ss.ss_family == AF_INET ?
	       ntohs(((struct sockaddr_in *)(void *)&a.ss)->sin_port) :
	       ntohs(((struct sockaddr_in6 *)(void *)&a.ss)->sin6_port);
	next = base + 1;
	lu->ent_idx = calloc(65536, 1);
	if (!lu->ent_idx)
		return -ENOMEM;
	while (lu->nent < n && next <= base + UET_LINK_ENT_SPAN &&
	       next <= 65535) {
		fd = socket(lu->family, SOCK_DGRAM | SOCK_NONBLOCK |
			    SOCK_CLOEXEC, IPPROTO_UDP);
		if (fd < 0) {
			ret = -errno;
			goto err_close_all;
		}
		if (lu->family == AF_INET6)
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
					 sizeof(one));
		if (lu->family == AF_INET)
			(void)setsockopt(fd, IPPROTO_IP, IP_TOS, &tos,
					 sizeof(tos));
		else
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tos,
					 sizeof(tos));
		/* ICMP errors for what it sprays: its error queue */
		if (lu->family == AF_INET)
			(void)setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one,
					 sizeof(one));
		else
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
					 sizeof(one));
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small,
				 sizeof(small));
		(void)uet_link_udp_sockbuf(fd, SO_SNDBUF, 0);
		/* the main socket's own address (a wildcard stays one) */
		memset(&a, 0, sizeof(a));
		a.len = sizeof(a.ss);
		ret = 0;
		if (getsockname(lu->fd, (struct sockaddr *)&a.ss, &a.len))
			ret = -errno;
		if (!ret) {
			uet_link_udp_set_port(&a, (uint16_t)next++);
			if (bind(fd, (struct sockaddr *)&a.ss, a.len))
				ret = -errno;
			if (ret == -EADDRINUSE || ret == -EACCES) {
				close(fd);	/* taken: the next one */
				continue;
			}
		}
		if (!ret) {
			a.len = sizeof(a.ss);
			if (getsockname(fd, (struct sockaddr *)&a.ss, &a.len))
				ret = -errno;
		}
		if (ret) {
			close(fd);
			goto err_close_all;
		}
		port = a.ss.ss_family == AF_INET ?
		       ntohs(((struct sockaddr_in *)(void *)&a.ss)->sin_port) :
		       ntohs(((struct sockaddr_in6 *)(void *)&a.ss)->sin6_port);
		lu->ent_fd[lu->nent] = fd;
		lu->ent_port[lu->nent] = port;
		lu->ent_idx[port] = (uint8_t)(lu->nent + 1);
		lu->nent++;
	}
	return 0;

err_close_all:
	uet_link_udp_ent_close(lu);
	return ret;
}

static void uet_link_udp_close(struct uet_link *link)
{
	struct uet_link_udp *lu;

	if (!link)
		return;
	lu = uet_link_udp_of(link);
	uet_link_udp_ent_close(lu);
	close(lu->fd);
	free(lu->rx_bufs);
	free(lu);
}

static unsigned int uet_link_udp_entropies(struct uet_link *link,
					   uint16_t *ports, unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);
	unsigned int i;

	for (i = 0; i < lu->nent && i < n; i++)
		ports[i] = lu->ent_port[i];
	return i;
}

/*
 * ICMP errors for sprayed datagrams come back to the entropy socket that
 * sent them (IP_RECVERR is on there too).  A send on it reads them when
 * they fail it; in between, for a while after each sprayed send, one
 * poll() over the entropy sockets (at every 16th call) finds those with
 * a pending error and their error queues are read, as the main socket's
 * are.
 */
static void uet_link_udp_ent_errors(struct uet_link_udp *lu)
{
	struct pollfd pfd[UET_LINK_UDP_ENT_MAX];
	unsigned int i;

	if (!lu->nent || !lu->ent_checks)
		return;
	/* every 16th call: PDS calls errors() at every poll */
	if (--lu->ent_checks % UET_LINK_UDP_ENT_CHECK_EVERY)
		return;
	for (i = 0; i < lu->nent; i++) {
		pfd[i].fd = lu->ent_fd[i];
		pfd[i].events = 0;	/* POLLERR is always reported */
		pfd[i].revents = 0;
	}
	if (poll(pfd, lu->nent, 0) <= 0)
		return;
	for (i = 0; i < lu->nent; i++)
		if (pfd[i].revents & POLLERR)
			(void)uet_link_udp_read_errq_fd(lu, pfd[i].fd);
}

static unsigned int uet_link_udp_errors(struct uet_link *link,
					struct uet_link_err *ev, unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);

	uet_link_udp_ent_errors(lu);
	return uet_link_errq_pop(&lu->errq, ev, n);
}

static const struct uet_link_ops uet_link_udp_ops = {
	.send = uet_link_udp_send,
	.recv = uet_link_udp_recv,
	.fd = uet_link_udp_fd,
	.mtu = uet_link_udp_mtu,
	.path_mtu = uet_link_udp_path_mtu,
	.local_addr = uet_link_udp_local_addr,
	.errors = uet_link_udp_errors,
	.entropies = uet_link_udp_entropies,
	.close = uet_link_udp_close,
	.rx_writable = true,
	.rx_sets_tos = true,
};

int uet_link_udp_get_stats(struct uet_link *link,
			   struct uet_link_udp_stats *st)
{
	if (!link || !st || link->ops != &uet_link_udp_ops)
		return -EINVAL;
	*st = uet_link_udp_of(link)->stats;
	return 0;
}

/* ---- open ---- */

static bool uet_link_udp_is_wildcard(const struct uet_link_addr *a)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	if (a->ss.ss_family == AF_INET) {
		memcpy(&sin, &a->ss, sizeof(sin));
		return sin.sin_addr.s_addr == htonl(INADDR_ANY);
	}
	memcpy(&sin6, &a->ss, sizeof(sin6));
	return IN6_IS_ADDR_UNSPECIFIED(&sin6.sin6_addr);
}

/* The raw address bytes of an AF_INET / AF_INET6 sockaddr. */
static const uint8_t *uet_link_udp_addr_bytes(const struct sockaddr *sa,
					      size_t *len)
{
	if (sa->sa_family == AF_INET) {
		*len = 4;
		return (const uint8_t *)sa +
		       offsetof(struct sockaddr_in, sin_addr);
	}
	*len = 16;
	return (const uint8_t *)sa + offsetof(struct sockaddr_in6, sin6_addr);
}

/* True when a and b agree on every bit set in mask (mask NULL: all). */
static bool uet_link_udp_addr_match(const struct sockaddr *a,
				    const struct sockaddr *b,
				    const struct sockaddr *mask)
{
	const uint8_t *pa, *pb, *pm = NULL;
	size_t len, i;

	pa = uet_link_udp_addr_bytes(a, &len);
	pb = uet_link_udp_addr_bytes(b, &len);
	if (mask)
		pm = uet_link_udp_addr_bytes(mask, &len);
	for (i = 0; i < len; i++) {
		uint8_t m = pm ? pm[i] : 0xff;

		if ((pa[i] ^ pb[i]) & m)
			return false;
	}
	return true;
}

static int uet_link_udp_ifmtu(int fd, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	if (strlen(name) >= sizeof(ifr.ifr_name))
		return 0;
	strcpy(ifr.ifr_name, name);
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0 || ifr.ifr_mtu <= 0)
		return 0;
	return ifr.ifr_mtu;
}

/*
 * MTU of the interface that owns the bound address: the interface with
 * exactly that address, else one whose subnet holds it; for a wildcard,
 * the smallest MTU of the interfaces that are up with an address of the
 * family.  0 when none is found.
 */
static int uet_link_udp_find_ifmtu(int fd, const struct uet_link_addr *a)
{
	const struct sockaddr *want = (const struct sockaddr *)&a->ss;
	bool wildcard = uet_link_udp_is_wildcard(a);
	int exact = 0, subnet = 0, least = 0, m;
	struct ifaddrs *ifs, *ifa;

	if (getifaddrs(&ifs) < 0)
		return 0;
	for (ifa = ifs; ifa; ifa = ifa->ifa_next) {
		if (!ifa->ifa_addr ||
		    ifa->ifa_addr->sa_family != a->ss.ss_family)
			continue;
		if (wildcard) {
			if (!(ifa->ifa_flags & IFF_UP))
				continue;
			m = uet_link_udp_ifmtu(fd, ifa->ifa_name);
			if (m && (!least || m < least))
				least = m;
		} else if (uet_link_udp_addr_match(ifa->ifa_addr, want,
						   NULL)) {
			exact = uet_link_udp_ifmtu(fd, ifa->ifa_name);
			if (exact)
				break;
		} else if (!subnet && ifa->ifa_netmask &&
			   ifa->ifa_netmask->sa_family == a->ss.ss_family &&
			   uet_link_udp_addr_match(ifa->ifa_addr, want,
						   ifa->ifa_netmask)) {
			subnet = uet_link_udp_ifmtu(fd, ifa->ifa_name);
		}
	}
	freeifaddrs(ifs);
	if (wildcard)
		return least;
	return exact ? exact : subnet;
}

static size_t uet_link_udp_derive_mtu(int fd, const struct uet_link_addr *a)
{
	size_t hdr, cap, ifmtu;

	if (a->ss.ss_family == AF_INET) {
		hdr = UET_LINK_UDP_HDR_V4;
		cap = UET_LINK_UDP_MAX_PAYLOAD_V4;
	} else {
		hdr = UET_LINK_UDP_HDR_V6;
		cap = UET_LINK_UDP_MAX_PAYLOAD_V6;
	}
	ifmtu = (size_t)uet_link_udp_find_ifmtu(fd, a);
	if (ifmtu <= hdr)
		ifmtu = UET_LINK_UDP_FALLBACK_IF_MTU;
	return ifmtu - hdr < cap ? ifmtu - hdr : cap;
}

static void uet_link_udp_set_port(struct uet_link_addr *a, uint16_t port)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	if (a->ss.ss_family == AF_INET) {
		memcpy(&sin, &a->ss, sizeof(sin));
		sin.sin_port = htons(port);
		memcpy(&a->ss, &sin, sizeof(sin));
	} else {
		memcpy(&sin6, &a->ss, sizeof(sin6));
		sin6.sin6_port = htons(port);
		memcpy(&a->ss, &sin6, sizeof(sin6));
	}
}

static int uet_link_udp_bind(int fd, struct uet_link_addr *a, uint16_t port)
{
	if (port == 0) {
		/* The UET port if free, else an ephemeral one. */
		uet_link_udp_set_port(a, UET_UDP_PORT);
		if (!bind(fd, (struct sockaddr *)&a->ss, a->len))
			return 0;
		if (errno != EADDRINUSE)
			return -errno;
	}
	uet_link_udp_set_port(a, port);
	if (bind(fd, (struct sockaddr *)&a->ss, a->len))
		return -errno;
	return 0;
}

static int uet_link_udp_sockbuf(int fd, int opt, int want)
{
	int v = want > 0 ? want : UET_LINK_UDP_DEFAULT_SOCKBUF;

	if (setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v)) < 0 && want > 0)
		return -errno;
	return 0;
}

/* The address peers use: the bound one, loopback for a wildcard bind. */
static int uet_link_udp_get_local(struct uet_link_udp *lu)
{
	struct uet_link_addr *a = &lu->local;
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	memset(a, 0, sizeof(*a));
	a->len = sizeof(a->ss);
	if (getsockname(lu->fd, (struct sockaddr *)&a->ss, &a->len) < 0)
		return -errno;
	if (!uet_link_udp_is_wildcard(a))
		return 0;
	if (a->ss.ss_family == AF_INET) {
		memcpy(&sin, &a->ss, sizeof(sin));
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		memcpy(&a->ss, &sin, sizeof(sin));
	} else {
		memcpy(&sin6, &a->ss, sizeof(sin6));
		sin6.sin6_addr = in6addr_loopback;
		memcpy(&a->ss, &sin6, sizeof(sin6));
	}
	return 0;
}

/*
 * ECN (docs/congestion.md): every datagram leaves ECT(0), so that a
 * congested router marks it CE instead of dropping it, and the TOS /
 * traffic class of every datagram received is read so that PDS can echo
 * CE to the sender (the m flag) and see trimmed packets.  Both optional:
 * a kernel that refuses them gets plain UDP.
 */
static void uet_link_udp_ecn_init(struct uet_link_udp *lu)
{
	int tos = UET_LINK_ECN_ECT0, one = 1;

	if (lu->family == AF_INET) {
		(void)setsockopt(lu->fd, IPPROTO_IP, IP_TOS, &tos,
				 sizeof(tos));
		lu->rx_tos = setsockopt(lu->fd, IPPROTO_IP, IP_RECVTOS, &one,
					sizeof(one)) == 0;
	} else {
		(void)setsockopt(lu->fd, IPPROTO_IPV6, IPV6_TCLASS, &tos,
				 sizeof(tos));
		lu->rx_tos = setsockopt(lu->fd, IPPROTO_IPV6, IPV6_RECVTCLASS,
					&one, sizeof(one)) == 0;
	}
}

/* The loss knob's threshold and generator. */
static void uet_link_udp_loss_init(struct uet_link_udp *lu,
				   const struct uet_link_udp_cfg *cfg)
{
	uint64_t seed = cfg->loss_seed;

	lu->loss_thresh = ((uint64_t)cfg->loss_ppm << 32) / UET_LINK_UDP_PPM;
	if (!cfg->loss_ppm)
		return;
	if (!seed &&
	    getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint64_t)(uintptr_t)lu ^ (uint64_t)getpid() << 32;
	/* splitmix64 finaliser: distinct seeds, distinct streams. */
	seed += 0x9e3779b97f4a7c15ull;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
	seed ^= seed >> 31;
	lu->loss_rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

int uet_link_udp_open(const struct uet_link_udp_cfg *cfg,
		      struct uet_link **link)
{
	struct uet_link_addr addr;
	struct uet_link_udp *lu;
	int one = 1, zero = 0;
	size_t cap;
	int ret;

	if (!cfg || !link || !cfg->host)
		return -EINVAL;
	ret = uet_link_addr_from_str(&addr, cfg->host, 0);
	if (ret)
		return ret;
	cap = addr.ss.ss_family == AF_INET ? UET_LINK_UDP_MAX_PAYLOAD_V4 :
					     UET_LINK_UDP_MAX_PAYLOAD_V6;
	if (cfg->mtu > cap || cfg->loss_ppm > UET_LINK_UDP_LOSS_PPM_MAX)
		return -EINVAL;

	lu = calloc(1, sizeof(*lu));
	if (!lu)
		return -ENOMEM;
	lu->base.ops = &uet_link_udp_ops;
	lu->family = addr.ss.ss_family;
	lu->fd = socket(lu->family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			IPPROTO_UDP);
	if (lu->fd < 0) {
		ret = -errno;
		goto err_free_link;
	}
	if (lu->family == AF_INET6 &&
	    setsockopt(lu->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
		       sizeof(one)) < 0) {
		ret = -errno;
		goto err_close_fd;
	}
	/* ICMP errors for datagrams sent (port, host unreachable) reach an
	 * unconnected socket only with IP_RECVERR; optional. */
	if (lu->family == AF_INET)
		(void)setsockopt(lu->fd, IPPROTO_IP, IP_RECVERR, &one,
				 sizeof(one));
	else
		(void)setsockopt(lu->fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
				 sizeof(one));
	uet_link_udp_ecn_init(lu);
	ret = uet_link_udp_sockbuf(lu->fd, SO_SNDBUF, cfg->sndbuf);
	if (ret)
		goto err_close_fd;
	ret = uet_link_udp_sockbuf(lu->fd, SO_RCVBUF, cfg->rcvbuf);
	if (ret)
		goto err_close_fd;
	ret = uet_link_udp_bind(lu->fd, &addr, cfg->port);
	if (ret)
		goto err_close_fd;
	ret = uet_link_udp_get_local(lu);
	if (ret)
		goto err_close_fd;

	ret = uet_link_udp_ent_open(lu, cfg->entropy_socks);
	if (ret)
		goto err_close_fd;
	lu->mtu = cfg->mtu ? cfg->mtu : uet_link_udp_derive_mtu(lu->fd, &addr);
	lu->mtu_fixed = cfg->mtu != 0;
	lu->cap = cap;
	if (!cfg->no_gso) {
		/* Both are optional: a kernel without them gets plain UDP. */
		lu->gso = setsockopt(lu->fd, SOL_UDP, UDP_SEGMENT, &zero,
				     sizeof(zero)) == 0;
		/* UDP_GRO is probed here and turned on at the first
		 * burst (uet_link_udp_rx_adapt). */
		lu->gro_ok = setsockopt(lu->fd, SOL_UDP, UDP_GRO, &one,
					sizeof(one)) == 0 &&
			     setsockopt(lu->fd, SOL_UDP, UDP_GRO, &zero,
					sizeof(zero)) == 0;
	}
	/* Room for the largest datagram, not our MTU: a peer's interface
	 * may carry larger ones (jumbo frames, loopback). */
	lu->stride = lu->gro_ok ? UET_LINK_UDP_GRO_BUF :
			       (lu->cap + 63) & ~(size_t)63;
	lu->rx_bufs = malloc(UET_LINK_UDP_BATCH * lu->stride);
	if (!lu->rx_bufs) {
		ret = -ENOMEM;
		goto err_close_ent;
	}
	uet_link_udp_rx_prepare(lu);
	uet_link_udp_loss_init(lu, cfg);
	*link = &lu->base;
	return 0;

err_close_ent:
	uet_link_udp_ent_close(lu);
err_close_fd:
	close(lu->fd);
err_free_link:
	free(lu);
	return ret;
}
