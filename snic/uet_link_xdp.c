/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AF_XDP link; see uet_link_xdp.h for the contract.
 *
 * UMEM: one per socket, UET_LINK_XDP_FRAMES frames of
 * UET_LINK_XDP_FRAME_SIZE bytes.  The first half is receive frames: all
 * of them start in the fill ring, and a frame recv() returned goes back
 * to it at the next recv() (the caller may read and decrypt it in place
 * until then).  The second half is a stack of free send frames: send()
 * pops one per datagram, writes the payload after room for the headers,
 * builds the headers, and puts a descriptor on the TX ring; the
 * completion ring gives the frames back (read at every send and recv).
 *
 * TX wake-up: after a batch the ring is kicked with sendto() when the
 * kernel asks for it (need_wakeup; always in copy mode).  The kernel's
 * copy-mode path sends a bounded number of frames per call, so the kick
 * is repeated while it makes progress (bounded); what is left is kicked
 * again at the next send or recv.
 */
#include "config.h"
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_clock.h"
#include "uet_link_xdp.h"
#include "uet_link_xdp_internal.h"
#include "uet_list.h"

/* Written by every open that fails, read by the caller. */
static void uet_link_xdp_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void uet_link_xdp_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

#ifndef UET_HAVE_XDP

int uet_link_xdp_open(const struct uet_link_udp_cfg *cfg,
		      struct uet_link **link, char *why, size_t whylen)
{
	if (!cfg || !link)
		return -EINVAL;
	uet_link_xdp_why(why, whylen, "uet was built without AF_XDP support "
			 "(configure found no libxdp/libbpf or no clang "
			 "-target bpf)");
	return -EOPNOTSUPP;
}

bool uet_link_is_xdp(const struct uet_link *link)
{
	(void)link;
	return false;
}

int uet_link_xdp_get_stats(struct uet_link *link,
			   struct uet_link_xdp_stats *st)
{
	(void)link;
	(void)st;
	return -EINVAL;
}

const char *uet_link_xdp_ifname(const struct uet_link *link)
{
	(void)link;
	return "";
}

#else /* UET_HAVE_XDP */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include "snic/uet_xdp_obj.h"

/* Must agree with uet_xdp_prog.bpf.c. */
#define UET_XDP_PROG_QMAX	64u
struct uet_xdp_prog_cfg {
	uint32_t family;	/* 4 or 6 */
	uint8_t addr[16];
};

#define UET_XDP_RX_FRAMES	(UET_LINK_XDP_FRAMES / 2)
#define UET_XDP_TX_FRAMES	(UET_LINK_XDP_FRAMES - UET_XDP_RX_FRAMES)
#define UET_XDP_RING		(UET_LINK_XDP_FRAMES / 2)
/* Room in a frame: the kernel keeps XDP_PACKET_HEADROOM in front. */
#define UET_XDP_FRAME_ROOM	(UET_LINK_XDP_FRAME_SIZE - 256u)
/* sendto() kicks of one flush at most. */
#define UET_XDP_KICKS		64u
/* Neighbour cache slots (direct-mapped by address hash). */
#define UET_XDP_NEIGH_SLOTS	256u
#define UET_XDP_PPM		1000000ull

_Static_assert(UET_LINK_XDP_QMAX <= UET_XDP_PROG_QMAX, "XSKMAP size");
_Static_assert((UET_XDP_RING & (UET_XDP_RING - 1)) == 0, "ring size");

struct uet_xdp_q {
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
	uint8_t *area;
	int fd;
	uint32_t qid;
	uint64_t tx_free[UET_XDP_TX_FRAMES];
	unsigned int ntx_free;
	unsigned int tx_out;		/* on the TX ring, not completed */
	uint64_t held[UET_LINK_XDP_BATCH];	/* returned by recv() */
	unsigned int nheld;
};

enum uet_xdp_neigh_state {
	UET_XDP_N_EMPTY = 0,
	UET_XDP_N_OK,		/* mac is the next hop's */
	UET_XDP_N_UDP,		/* through the socket until recheck */
};

struct uet_xdp_neigh {
	uint8_t ip[16];
	uint8_t mac[6];
	uint8_t state;
	uint64_t recheck_ns;
};

struct uet_link_xdp {
	struct uet_link base;
	struct uet_link *udp;		/* same address and port */
	int family;
	struct uet_link_addr local;
	uint16_t port;
	uint8_t src_ip[16];
	uint8_t src_mac[6];
	int ifindex;
	char ifname[IF_NAMESIZE];
	size_t mtu;
	struct bpf_object *obj;
	int link_fd;			/* BPF link: attachment */
	int ep_fd;			/* epoll over every socket */
	bool ep_filled;			/* ... once fd() was called */
	int nl_fd;			/* rtnetlink */
	uint16_t ip_id;
	unsigned int nq, rxq_next, txq;
	struct uet_xdp_q q[UET_LINK_XDP_QMAX];
	/* the UDP socket: read every call while busy, else 1 in N */
	unsigned int udp_quiet, udp_skip;
	uint64_t loss_thresh, loss_rng;
	struct uet_link_xdp_stats stats;
	struct uet_xdp_neigh neigh[UET_XDP_NEIGH_SLOTS];
};

static const struct uet_link_ops uet_link_xdp_ops;

static inline struct uet_link_xdp *uet_link_xdp_of(struct uet_link *link)
{
	return uet_container_of(link, struct uet_link_xdp, base);
}

/* ---- the address of a destination / source ---- */

static const uint8_t *uet_xdp_ip_of(const struct uet_link_addr *a,
				    uint16_t *port)
{
	const struct sockaddr_in *sin;
	const struct sockaddr_in6 *sin6;

	if (a->ss.ss_family == AF_INET) {
		sin = (const struct sockaddr_in *)(const void *)&a->ss;
		*port = ntohs(sin->sin_port);
		return (const uint8_t *)&sin->sin_addr;
	}
	sin6 = (const struct sockaddr_in6 *)(const void *)&a->ss;
	*port = ntohs(sin6->sin6_port);
	return (const uint8_t *)&sin6->sin6_addr;
}

static void uet_xdp_addr_make(struct uet_link_xdp *lx,
			      struct uet_link_addr *a, const uint8_t *ip,
			      uint16_t port)
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	memset(a, 0, sizeof(*a));
	if (lx->family == AF_INET) {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons(port);
		memcpy(&sin.sin_addr, ip, 4);
		memcpy(&a->ss, &sin, sizeof(sin));
		a->len = sizeof(sin);
	} else {
		memset(&sin6, 0, sizeof(sin6));
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons(port);
		memcpy(&sin6.sin6_addr, ip, 16);
		if (IN6_IS_ADDR_LINKLOCAL(&sin6.sin6_addr))
			sin6.sin6_scope_id = (uint32_t)lx->ifindex;
		memcpy(&a->ss, &sin6, sizeof(sin6));
		a->len = sizeof(sin6);
	}
}

/* ---- neighbours ---- */

static unsigned int uet_xdp_neigh_slot(const uint8_t *ip, size_t alen)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < alen; i++)
		h = (h ^ ip[i]) * 16777619u;
	return h % UET_XDP_NEIGH_SLOTS;
}

/*
 * The next hop of dst, or NULL: send through the socket.  A stale entry
 * or a miss sends this datagram through the socket, which makes the
 * kernel resolve (or confirm) the neighbour.
 */
static const uint8_t *uet_xdp_next_hop(struct uet_link_xdp *lx,
				       const uint8_t *ip, uint64_t *now)
{
	size_t alen = lx->family == AF_INET6 ? 16 : 4;
	struct uet_xdp_neigh *n = &lx->neigh[uet_xdp_neigh_slot(ip, alen)];
	uint8_t mac[6];
	int ret;

	if (n->state != UET_XDP_N_EMPTY && !memcmp(n->ip, ip, alen)) {
		if (!*now)
			*now = uet_clock_now_ns();
		if (*now < n->recheck_ns)
			return n->state == UET_XDP_N_OK ? n->mac : NULL;
	} else if (!*now) {
		*now = uet_clock_now_ns();
	}
	memcpy(n->ip, ip, alen);
	lx->stats.neigh_lookups++;
	ret = uet_xdp_nl_next_hop(lx->nl_fd, lx->family, ip, lx->ifindex,
				  mac);
	if (ret == 0) {
		n->state = UET_XDP_N_OK;
		memcpy(n->mac, mac, 6);
		n->recheck_ns = *now + UET_LINK_XDP_NEIGH_TTL_NS;
		return n->mac;
	}
	lx->stats.neigh_miss++;
	if (ret == 1) {
		/* stale: this one through the kernel, which confirms it */
		n->state = UET_XDP_N_OK;
		memcpy(n->mac, mac, 6);
		n->recheck_ns = *now + UET_LINK_XDP_NEIGH_TTL_NS;
		return NULL;
	}
	n->state = UET_XDP_N_UDP;
	/* another interface or a local address does not change often */
	n->recheck_ns = *now + (ret == -EXDEV ? UET_LINK_XDP_NEIGH_TTL_NS :
				UET_LINK_XDP_NEIGH_RETRY_NS);
	return NULL;
}

/* ---- send ---- */

static void uet_xdp_complete(struct uet_xdp_q *q)
{
	uint32_t idx, n, i;

	if (!q->tx_out)
		return;
	n = xsk_ring_cons__peek(&q->cq, UET_XDP_RING, &idx);
	for (i = 0; i < n; i++)
		q->tx_free[q->ntx_free++] = *xsk_ring_cons__comp_addr(&q->cq,
								      idx + i);
	if (n) {
		xsk_ring_cons__release(&q->cq, n);
		q->tx_out -= n;
	}
}

/* Wake the kernel up for what is on the TX ring: repeated while it
 * takes frames (copy mode sends a bounded number per call). */
static void uet_xdp_kick(struct uet_link_xdp *lx, struct uet_xdp_q *q)
{
	uint32_t before, after;
	unsigned int i;

	if (!xsk_ring_prod__needs_wakeup(&q->tx))
		return;
	for (i = 0; i < UET_XDP_KICKS; i++) {
		before = __atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE);
		if (before == q->tx.cached_prod)
			return;		/* all taken */
		lx->stats.tx_kicks++;
		if (sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
		    errno != EAGAIN && errno != EBUSY && errno != ENOBUFS &&
		    errno != ENETDOWN)
			return;
		after = __atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE);
		if (after == before)
			return;		/* no progress: the next call */
	}
}

static int uet_xdp_check(const struct uet_link_xdp *lx,
			 const struct uet_link_pkt *pkt, size_t *len)
{
	unsigned int i;

	*len = 0;
	if (!pkt->dst || pkt->iovcnt > UET_LINK_MAX_IOV)
		return -EINVAL;
	if (pkt->dst->ss.ss_family != lx->family)
		return -EAFNOSUPPORT;
	for (i = 0; i < pkt->iovcnt; i++) {
		if (pkt->iov[i].iov_len && !pkt->iov[i].iov_base)
			return -EINVAL;
		if (pkt->iov[i].iov_len > lx->mtu - *len)
			return -EMSGSIZE;
		*len += pkt->iov[i].iov_len;
	}
	return 0;
}

/* Put one datagram on q's TX ring; false when there is no room. */
static bool uet_xdp_put(struct uet_link_xdp *lx, struct uet_xdp_q *q,
			const struct uet_link_pkt *pkt, size_t len,
			const uint8_t *dip, uint16_t dport,
			const uint8_t *mac)
{
	size_t hl = uet_xdp_hdr_len(lx->family), flen;
	struct xdp_desc *d;
	struct uet_xdp_hdr h;
	uint64_t addr;
	uint8_t *frame, *p;
	uint32_t idx;
	unsigned int i;

	if (!q->ntx_free || xsk_ring_prod__reserve(&q->tx, 1, &idx) != 1)
		return false;
	addr = q->tx_free[--q->ntx_free];
	frame = q->area + addr;
	p = frame + hl;
	for (i = 0; i < pkt->iovcnt; i++) {
		memcpy(p, pkt->iov[i].iov_base, pkt->iov[i].iov_len);
		p += pkt->iov[i].iov_len;
	}
	memset(&h, 0, sizeof(h));
	h.family = lx->family;
	memcpy(h.src_mac, lx->src_mac, 6);
	memcpy(h.dst_mac, mac, 6);
	memcpy(h.src_ip, lx->src_ip, 16);
	memcpy(h.dst_ip, dip, lx->family == AF_INET6 ? 16 : 4);
	h.sport = pkt->sprayed ? pkt->entropy : lx->port;
	h.dport = dport;
	h.tos = UET_LINK_ECN_ECT0;
	flen = uet_xdp_hdr_build(frame, &h, len, lx->ip_id++);
	d = xsk_ring_prod__tx_desc(&q->tx, idx);
	d->addr = addr;
	d->len = (uint32_t)flen;
	d->options = 0;
	q->tx_out++;
	lx->stats.tx_pkts++;
	lx->stats.tx_bytes += len;
	return true;
}

static int uet_link_xdp_send(struct uet_link *link,
			     const struct uet_link_pkt *pkts, unsigned int n)
{
	struct uet_link_xdp *lx = uet_link_xdp_of(link);
	struct uet_xdp_q *q = &lx->q[lx->txq];
	unsigned int i = 0, j, queued = 0;
	const uint8_t *dip, *mac;
	uint64_t now = 0;
	uint16_t dport;
	size_t len;
	int ret;

	uet_xdp_complete(q);
	while (i < n) {
		ret = uet_xdp_check(lx, &pkts[i], &len);
		if (ret) {
			if (i)
				break;
			return ret;
		}
		dip = uet_xdp_ip_of(pkts[i].dst, &dport);
		mac = uet_xdp_next_hop(lx, dip, &now);
		if (mac) {
			if (!uet_xdp_put(lx, q, &pkts[i], len, dip, dport,
					 mac)) {
				lx->stats.tx_full++;
				break;
			}
			queued++;
			i++;
			continue;
		}
		/* a run for the socket: until the next one for AF_XDP */
		for (j = i + 1; j < n; j++) {
			if (uet_xdp_check(lx, &pkts[j], &len))
				break;
			dip = uet_xdp_ip_of(pkts[j].dst, &dport);
			if (uet_xdp_next_hop(lx, dip, &now))
				break;
		}
		/* what is queued leaves first: order kept */
		if (queued) {
			xsk_ring_prod__submit(&q->tx, queued);
			queued = 0;
			uet_xdp_kick(lx, q);
		}
		ret = lx->udp->ops->send(lx->udp, &pkts[i], j - i);
		if (ret < 0) {
			if (i)
				break;
			return ret;
		}
		lx->stats.tx_udp += (unsigned int)ret;
		if ((unsigned int)ret < j - i) {
			i += (unsigned int)ret;
			break;		/* the socket is full */
		}
		i = j;
	}
	if (queued) {
		xsk_ring_prod__submit(&q->tx, queued);
		uet_xdp_kick(lx, q);
	}
	return (int)i;
}

/* ---- receive ---- */

static void uet_xdp_refill(struct uet_xdp_q *q)
{
	uint32_t idx;
	unsigned int i;

	if (!q->nheld)
		return;
	/* the fill ring holds every receive frame: room is certain */
	if (xsk_ring_prod__reserve(&q->fq, q->nheld, &idx) != q->nheld)
		return;
	for (i = 0; i < q->nheld; i++)
		*xsk_ring_prod__fill_addr(&q->fq, idx + i) = q->held[i];
	xsk_ring_prod__submit(&q->fq, q->nheld);
	q->nheld = 0;
}

static bool uet_xdp_lose(struct uet_link_xdp *lx)
{
	uint64_t x = lx->loss_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	lx->loss_rng = x;
	return ((x * 0x2545f4914f6cdd1dull) >> 32) < lx->loss_thresh;
}

static unsigned int uet_xdp_rx_q(struct uet_link_xdp *lx,
				 struct uet_xdp_q *q, struct uet_link_rx *rx,
				 unsigned int n)
{
	const struct xdp_desc *d;
	struct uet_xdp_hdr h;
	size_t off, plen;
	unsigned int got = 0;
	uint32_t idx, k, i;
	uint8_t *frame;

	k = xsk_ring_cons__peek(&q->rx, n, &idx);
	for (i = 0; i < k; i++) {
		d = xsk_ring_cons__rx_desc(&q->rx, idx + i);
		q->held[q->nheld++] = xsk_umem__extract_addr(d->addr);
		frame = q->area + xsk_umem__add_offset_to_addr(d->addr);
		if (d->len > UET_LINK_XDP_FRAME_SIZE ||
		    uet_xdp_hdr_parse(frame, d->len, lx->family, true, &h,
				      &off, &plen)) {
			lx->stats.rx_bad++;
			continue;
		}
		if (lx->loss_thresh && uet_xdp_lose(lx)) {
			lx->stats.rx_dropped++;
			continue;
		}
		rx[got].buf = frame + off;
		rx[got].len = plen;
		rx[got].tos = h.tos;
		uet_xdp_addr_make(lx, &rx[got].src, h.src_ip, h.sport);
		lx->stats.rx_pkts++;
		lx->stats.rx_q[q->qid]++;
		lx->stats.rx_bytes += plen;
		got++;
	}
	if (k)
		xsk_ring_cons__release(&q->rx, k);
	return got;
}

static int uet_link_xdp_recv(struct uet_link *link, struct uet_link_rx *rx,
			     unsigned int n)
{
	struct uet_link_xdp *lx = uet_link_xdp_of(link);
	unsigned int got = 0, i, qi;
	int ret;

	if (n > UET_LINK_XDP_BATCH)
		n = UET_LINK_XDP_BATCH;
	for (i = 0; i < lx->nq; i++) {
		uet_xdp_refill(&lx->q[i]);
		if (xsk_ring_prod__needs_wakeup(&lx->q[i].fq))
			(void)recvfrom(lx->q[i].fd, NULL, 0, MSG_DONTWAIT,
				       NULL, NULL);
	}
	/* frames still on the TX ring wait for a kick */
	uet_xdp_complete(&lx->q[lx->txq]);
	if (lx->q[lx->txq].tx_out)
		uet_xdp_kick(lx, &lx->q[lx->txq]);
	for (i = 0; i < lx->nq && got < n; i++) {
		qi = (lx->rxq_next + i) % lx->nq;
		got += uet_xdp_rx_q(lx, &lx->q[qi], rx + got, n - got);
	}
	lx->rxq_next = (lx->rxq_next + 1) % lx->nq;
	if (got == n)
		return (int)got;
	/* the socket: set-up, tear-down, peers not reached through XDP */
	if (lx->udp_quiet >= UET_LINK_XDP_UDP_QUIET &&
	    ++lx->udp_skip % UET_LINK_XDP_UDP_POLL_EVERY)
		return (int)got;
	ret = lx->udp->ops->recv(lx->udp, rx + got, n - got);
	if (ret < 0)
		return got ? (int)got : ret;
	if (ret > 0) {
		lx->udp_quiet = 0;
		lx->stats.rx_udp += (unsigned int)ret;
	} else if (lx->udp_quiet < UET_LINK_XDP_UDP_QUIET) {
		lx->udp_quiet++;
	}
	return (int)got + ret;
}

/* ---- the rest of the ops ---- */

/*
 * The epoll fd is filled at the first call: the NIC asks for it only
 * once someone may sleep (snic/uet_snic_progress.c), and until then no
 * datagram runs an epoll callback (docs/performance.md, issue 18).
 */
static int uet_link_xdp_fd(struct uet_link *link)
{
	struct uet_link_xdp *lx = uet_link_xdp_of(link);
	struct epoll_event ev;
	unsigned int i;
	int fd;

	if (lx->ep_filled)
		return lx->ep_fd;
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	for (i = 0; i <= lx->nq; i++) {
		fd = i < lx->nq ? lx->q[i].fd : lx->udp->ops->fd(lx->udp);
		ev.data.fd = fd;
		if (epoll_ctl(lx->ep_fd, EPOLL_CTL_ADD, fd, &ev) &&
		    errno != EEXIST)
			return -1;	/* the waits end on their timer */
	}
	lx->ep_filled = true;
	return lx->ep_fd;
}

static size_t uet_link_xdp_mtu(struct uet_link *link)
{
	return uet_link_xdp_of(link)->mtu;
}

static int uet_link_xdp_local_addr(struct uet_link *link,
				   struct uet_link_addr *addr)
{
	struct uet_link_xdp *lx = uet_link_xdp_of(link);

	if (!addr)
		return -EINVAL;
	*addr = lx->local;
	return 0;
}

static unsigned int uet_link_xdp_errors(struct uet_link *link,
					struct uet_link_err *ev,
					unsigned int n)
{
	struct uet_link *u = uet_link_xdp_of(link)->udp;

	/* ICMP errors drawn by AF_XDP datagrams reach the socket too: the
	 * kernel finds it by the datagram's addresses and ports */
	return u->ops->errors ? u->ops->errors(u, ev, n) : 0;
}

static unsigned int uet_link_xdp_entropies(struct uet_link *link,
					   uint16_t *ports, unsigned int n)
{
	struct uet_link *u = uet_link_xdp_of(link)->udp;

	return u->ops->entropies ? u->ops->entropies(u, ports, n) : 0;
}

static void uet_xdp_q_close(struct uet_xdp_q *q)
{
	if (q->xsk)
		xsk_socket__delete(q->xsk);
	if (q->umem)
		xsk_umem__delete(q->umem);
	if (q->area)
		munmap(q->area, (size_t)UET_LINK_XDP_FRAMES *
				UET_LINK_XDP_FRAME_SIZE);
	memset(q, 0, sizeof(*q));
}

static void uet_xdp_teardown(struct uet_link_xdp *lx)
{
	unsigned int i;

	/* detach first: from here on the socket receives everything */
	if (lx->link_fd >= 0)
		close(lx->link_fd);
	lx->link_fd = -1;
	for (i = 0; i < lx->nq; i++)
		uet_xdp_q_close(&lx->q[i]);
	lx->nq = 0;
	if (lx->obj)
		bpf_object__close(lx->obj);
	lx->obj = NULL;
	if (lx->ep_fd >= 0)
		close(lx->ep_fd);
	if (lx->nl_fd >= 0)
		close(lx->nl_fd);
	lx->ep_fd = lx->nl_fd = -1;
}

static void uet_link_xdp_close(struct uet_link *link)
{
	struct uet_link_xdp *lx;

	if (!link)
		return;
	lx = uet_link_xdp_of(link);
	uet_xdp_teardown(lx);
	lx->udp->ops->close(lx->udp);
	free(lx);
}

static const struct uet_link_ops uet_link_xdp_ops = {
	.send = uet_link_xdp_send,
	.recv = uet_link_xdp_recv,
	.fd = uet_link_xdp_fd,
	.mtu = uet_link_xdp_mtu,
	.local_addr = uet_link_xdp_local_addr,
	.errors = uet_link_xdp_errors,
	.entropies = uet_link_xdp_entropies,
	.close = uet_link_xdp_close,
	.rx_writable = true,
	.rx_sets_tos = true,
};

bool uet_link_is_xdp(const struct uet_link *link)
{
	return link && link->ops == &uet_link_xdp_ops;
}

int uet_link_xdp_get_stats(struct uet_link *link,
			   struct uet_link_xdp_stats *st)
{
	struct uet_link_xdp *lx;
	unsigned int i;

	if (!uet_link_is_xdp(link) || !st)
		return -EINVAL;
	lx = uet_link_xdp_of(link);
	*st = lx->stats;
	st->queues = lx->nq;
	st->zerocopy = lx->nq > 0;
	for (i = 0; i < lx->nq; i++) {
		struct xdp_options o;
		socklen_t ol = sizeof(o);

		if (getsockopt(lx->q[i].fd, SOL_XDP, XDP_OPTIONS, &o, &ol) ||
		    !(o.flags & XDP_OPTIONS_ZEROCOPY))
			st->zerocopy = false;
	}
	return 0;
}

const char *uet_link_xdp_ifname(const struct uet_link *link)
{
	if (!uet_link_is_xdp(link))
		return "";
	return uet_container_of(link, const struct uet_link_xdp,
				base)->ifname;
}

/* ---- open ---- */

/* The interface that has the link's address: index, name, MTU, MAC. */
static int uet_xdp_find_if(struct uet_link_xdp *lx, int *ifmtu, char *why,
			   size_t whylen)
{
	struct ifaddrs *ifs, *ifa;
	const uint8_t *ip;
	struct ifreq ifr;
	size_t alen = lx->family == AF_INET6 ? 16 : 4;
	uint16_t port;
	int fd, ret = -ENODEV;

	if (getifaddrs(&ifs) < 0)
		return -errno;
	for (ifa = ifs; ifa; ifa = ifa->ifa_next) {
		struct uet_link_addr a;

		if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != lx->family)
			continue;
		memset(&a, 0, sizeof(a));
		memcpy(&a.ss, ifa->ifa_addr, lx->family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) :
		       sizeof(struct sockaddr_in));
		ip = uet_xdp_ip_of(&a, &port);
		if (memcmp(ip, lx->src_ip, alen))
			continue;
		if (strlen(ifa->ifa_name) >= sizeof(lx->ifname))
			break;
		strcpy(lx->ifname, ifa->ifa_name);
		ret = 0;
		break;
	}
	freeifaddrs(ifs);
	if (ret) {
		uet_link_xdp_why(why, whylen, "no interface has the address");
		return ret;
	}
	lx->ifindex = (int)if_nametoindex(lx->ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || !lx->ifindex) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret ? ret : -ENODEV;
	}
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, lx->ifname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 &&
	    (ifr.ifr_flags & IFF_LOOPBACK)) {
		close(fd);
		uet_link_xdp_why(why, whylen, "%s is a loopback interface",
				 lx->ifname);
		return -EOPNOTSUPP;
	}
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0 ||
	    ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		close(fd);
		uet_link_xdp_why(why, whylen, "%s is not Ethernet",
				 lx->ifname);
		return -EOPNOTSUPP;
	}
	memcpy(lx->src_mac, ifr.ifr_hwaddr.sa_data, 6);
	*ifmtu = ioctl(fd, SIOCGIFMTU, &ifr) == 0 ? ifr.ifr_mtu : 1500;
	close(fd);
	return 0;
}

/* Receive queues of the interface (ethtool channels; 1 if unknown). */
static unsigned int uet_xdp_nqueues(const struct uet_link_xdp *lx)
{
	struct ethtool_channels ch;
	struct ifreq ifr;
	unsigned int n = 1;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 1;
	memset(&ch, 0, sizeof(ch));
	ch.cmd = ETHTOOL_GCHANNELS;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, lx->ifname);
	ifr.ifr_data = (void *)&ch;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		n = ch.rx_count > ch.combined_count ? ch.rx_count :
						      ch.combined_count;
		if (!n)
			n = 1;
	}
	close(fd);
	return n > UET_LINK_XDP_QMAX ? UET_LINK_XDP_QMAX : n;
}

static int uet_xdp_silent(enum libbpf_print_level l, const char *f,
			  va_list ap)
{
	(void)l;
	(void)f;
	(void)ap;
	return 0;
}

static int uet_xdp_q_open(struct uet_link_xdp *lx, struct uet_xdp_q *q,
			  uint32_t qid, int map_fd)
{
	size_t size = (size_t)UET_LINK_XDP_FRAMES * UET_LINK_XDP_FRAME_SIZE;
	struct xsk_socket_config xc;
	struct xsk_umem_config uc;
	uint32_t idx, i;
	int ret, fd;

	q->qid = qid;
	q->area = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (q->area == MAP_FAILED) {
		q->area = NULL;
		return -errno;
	}
	memset(&uc, 0, sizeof(uc));
	uc.fill_size = UET_XDP_RING;
	uc.comp_size = UET_XDP_RING;
	uc.frame_size = UET_LINK_XDP_FRAME_SIZE;
	uc.frame_headroom = 0;
	ret = xsk_umem__create(&q->umem, q->area, size, &q->fq, &q->cq, &uc);
	if (ret)
		return ret;
	memset(&xc, 0, sizeof(xc));
	xc.rx_size = UET_XDP_RING;
	xc.tx_size = UET_XDP_RING;
	xc.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD;
	xc.bind_flags = XDP_USE_NEED_WAKEUP;
	ret = xsk_socket__create(&q->xsk, lx->ifname, qid, q->umem, &q->rx,
				 &q->tx, &xc);
	if (ret)
		return ret;
	q->fd = xsk_socket__fd(q->xsk);
	/* receive frames: the first half, all in the fill ring */
	if (xsk_ring_prod__reserve(&q->fq, UET_XDP_RX_FRAMES, &idx) !=
	    UET_XDP_RX_FRAMES)
		return -ENOMEM;
	for (i = 0; i < UET_XDP_RX_FRAMES; i++)
		*xsk_ring_prod__fill_addr(&q->fq, idx + i) =
			(uint64_t)i * UET_LINK_XDP_FRAME_SIZE;
	xsk_ring_prod__submit(&q->fq, UET_XDP_RX_FRAMES);
	for (i = 0; i < UET_XDP_TX_FRAMES; i++)
		q->tx_free[i] = (uint64_t)(UET_XDP_RX_FRAMES + i) *
				UET_LINK_XDP_FRAME_SIZE;
	q->ntx_free = UET_XDP_TX_FRAMES;
	fd = q->fd;
	if (bpf_map_update_elem(map_fd, &qid, &fd, BPF_ANY))
		return -errno;
	return 0;
}

/* Load the program, fill its maps, bind the sockets, attach. */
static int uet_xdp_setup(struct uet_link_xdp *lx, char *why, size_t whylen)
{
	libbpf_print_fn_t old = libbpf_set_print(uet_xdp_silent);
	struct uet_xdp_prog_cfg pc;
	struct bpf_program *prog;
	uint16_t ports[UET_LINK_UDP_ENT_MAX], be;
	unsigned int ne, i;
	uint32_t key = 0;
	uint8_t one = 1;
	int ret, map_xsks, map_cfg, map_ports;
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);

	lx->obj = bpf_object__open_mem(uet_xdp_obj, sizeof(uet_xdp_obj),
				       NULL);
	if (!lx->obj) {
		ret = -errno;
		uet_link_xdp_why(why, whylen, "the XDP object does not open: "
				 "%s", strerror(-ret));
		goto out;
	}
	ret = bpf_object__load(lx->obj);
	if (ret) {
		uet_link_xdp_why(why, whylen, "the XDP program does not load: "
				 "%s%s", strerror(-ret),
				 ret == -EPERM ? " (needs CAP_BPF and "
				 "CAP_NET_ADMIN)" : "");
		goto out;
	}
	prog = bpf_object__find_program_by_name(lx->obj, "uet_xdp_steer");
	map_xsks = bpf_object__find_map_fd_by_name(lx->obj, "uet_xsks");
	map_cfg = bpf_object__find_map_fd_by_name(lx->obj, "uet_cfg");
	map_ports = bpf_object__find_map_fd_by_name(lx->obj, "uet_ports");
	if (!prog || map_xsks < 0 || map_cfg < 0 || map_ports < 0) {
		ret = -ENOENT;
		uet_link_xdp_why(why, whylen, "the XDP object lacks its "
				 "program or maps");
		goto out;
	}
	memset(&pc, 0, sizeof(pc));
	pc.family = lx->family == AF_INET6 ? 6 : 4;
	memcpy(pc.addr, lx->src_ip, 16);
	be = htons(lx->port);
	if (bpf_map_update_elem(map_cfg, &key, &pc, BPF_ANY) ||
	    bpf_map_update_elem(map_ports, &be, &one, BPF_ANY)) {
		ret = -errno;
		uet_link_xdp_why(why, whylen, "XDP map update: %s",
				 strerror(-ret));
		goto out;
	}
	ne = lx->udp->ops->entropies ?
	     lx->udp->ops->entropies(lx->udp, ports, UET_LINK_UDP_ENT_MAX) : 0;
	for (i = 0; i < ne; i++) {
		be = htons(ports[i]);
		(void)bpf_map_update_elem(map_ports, &be, &one, BPF_ANY);
	}
	lx->nq = uet_xdp_nqueues(lx);
	for (i = 0; i < lx->nq; i++) {
		ret = uet_xdp_q_open(lx, &lx->q[i], i, map_xsks);
		if (ret) {
			uet_link_xdp_why(why, whylen, "AF_XDP socket on %s "
					 "queue %u: %s", lx->ifname, i,
					 strerror(-ret));
			goto out;
		}
	}
	lx->ep_fd = epoll_create1(EPOLL_CLOEXEC);
	if (lx->ep_fd < 0) {
		ret = -errno;
		uet_link_xdp_why(why, whylen, "epoll: %s", strerror(-ret));
		goto out;
	}
	/* attach last: every queue has its socket before the first
	 * frame is steered */
	lx->link_fd = bpf_link_create(bpf_program__fd(prog), lx->ifindex,
				      BPF_XDP, &lo);
	if (lx->link_fd < 0) {
		ret = lx->link_fd;
		lx->link_fd = -1;
		uet_link_xdp_why(why, whylen, "XDP attach to %s in native "
				 "mode: %s%s", lx->ifname, strerror(-ret),
				 ret == -EOPNOTSUPP || ret == -EINVAL ?
				 " (the driver has no native XDP)" :
				 ret == -EBUSY || ret == -EEXIST ?
				 " (another XDP program is attached)" : "");
		goto out;
	}
	ret = 0;
out:
	libbpf_set_print(old);
	return ret;
}

int uet_link_xdp_open(const struct uet_link_udp_cfg *cfg,
		      struct uet_link **link, char *why, size_t whylen)
{
	struct uet_link_addr addr;
	struct uet_link_xdp *lx;
	const uint8_t *ip;
	size_t hdr, cap;
	uint64_t seed;
	uint16_t port;
	int ret, ifmtu = 0;

	uet_link_xdp_why(why, whylen, "invalid configuration");
	if (!cfg || !link || !cfg->host)
		return -EINVAL;
	ret = uet_link_addr_from_str(&addr, cfg->host, 0);
	if (ret)
		return ret;
	lx = calloc(1, sizeof(*lx));
	if (!lx)
		return -ENOMEM;
	lx->base.ops = &uet_link_xdp_ops;
	lx->link_fd = lx->ep_fd = lx->nl_fd = -1;
	lx->family = addr.ss.ss_family;
	ip = uet_xdp_ip_of(&addr, &port);
	memcpy(lx->src_ip, ip, lx->family == AF_INET6 ? 16 : 4);
	if (lx->family == AF_INET ? (ip[0] == 0 && ip[1] == 0 && ip[2] == 0 &&
				      ip[3] == 0) || ip[0] == 127 :
	    IN6_IS_ADDR_UNSPECIFIED((const struct in6_addr *)(const void *)
				    ip) ||
	    IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)(const void *)ip)) {
		uet_link_xdp_why(why, whylen, "%s is a wildcard or loopback "
				 "address: AF_XDP needs one interface",
				 cfg->host);
		ret = -EOPNOTSUPP;
		goto err_free;
	}
	ret = uet_xdp_find_if(lx, &ifmtu, why, whylen);
	if (ret)
		goto err_free;
	ret = uet_link_udp_open(cfg, &lx->udp);
	if (ret) {
		uet_link_xdp_why(why, whylen, "UDP link: %s", strerror(-ret));
		goto err_free;
	}
	ret = lx->udp->ops->local_addr(lx->udp, &lx->local);
	if (ret)
		goto err_udp;
	(void)uet_xdp_ip_of(&lx->local, &lx->port);
	lx->nl_fd = uet_xdp_nl_open();
	if (lx->nl_fd < 0) {
		ret = lx->nl_fd;
		uet_link_xdp_why(why, whylen, "rtnetlink: %s", strerror(-ret));
		goto err_udp;
	}
	/* the same datagrams as the socket, within a frame */
	hdr = uet_xdp_hdr_len(lx->family);
	cap = UET_XDP_FRAME_ROOM - hdr;
	lx->mtu = lx->udp->ops->mtu(lx->udp);
	if ((size_t)ifmtu + UET_XDP_ETH_LEN > UET_XDP_FRAME_ROOM) {
		uet_link_xdp_why(why, whylen, "%s's MTU %d is above what one "
				 "AF_XDP frame carries (%u)", lx->ifname,
				 ifmtu, UET_XDP_FRAME_ROOM - UET_XDP_ETH_LEN);
		ret = -EMSGSIZE;
		goto err_teardown;
	}
	if (lx->mtu > cap)
		lx->mtu = cap;
	ret = uet_xdp_setup(lx, why, whylen);
	if (ret)
		goto err_teardown;
	lx->loss_thresh = ((uint64_t)cfg->loss_ppm << 32) / UET_XDP_PPM;
	seed = cfg->loss_seed;
	if (!seed && getrandom(&seed, sizeof(seed), GRND_NONBLOCK) !=
		     sizeof(seed))
		seed = (uint64_t)(uintptr_t)lx;
	lx->loss_rng = seed ? seed * 0x9e3779b97f4a7c15ull | 1 : 1;
	uet_link_xdp_why(why, whylen, "AF_XDP on %s", lx->ifname);
	*link = &lx->base;
	return 0;

err_teardown:
	uet_xdp_teardown(lx);
err_udp:
	lx->udp->ops->close(lx->udp);
err_free:
	free(lx);
	return ret;
}

#endif /* UET_HAVE_XDP */
