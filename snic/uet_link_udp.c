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
 * recv(): one recvmmsg(MSG_DONTWAIT) into UET_LINK_UDP_BATCH buffers of
 * mtu bytes owned by the link and reused by every call.  The receive
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
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_link_udp.h"
#include "uet_list.h"
#include "uet_wire_consts.h"

#define UET_LINK_UDP_HDR_V4		(20 + 8)	/* IPv4 + UDP */
#define UET_LINK_UDP_HDR_V6		(40 + 8)	/* IPv6 + UDP */
/* Interface MTU assumed when the owner of host cannot be found. */
#define UET_LINK_UDP_FALLBACK_IF_MTU	1500
/* Socket buffer size tried when the configuration does not ask. */
#define UET_LINK_UDP_DEFAULT_SOCKBUF	(4 << 20)
/* recv() passes over at most this many all-truncated batches. */
#define UET_LINK_UDP_TRUNC_RETRIES	4
#define UET_LINK_UDP_PPM		1000000ull

struct uet_link_udp {
	struct uet_link base;
	int fd;
	int family;
	size_t mtu;
	size_t stride;			/* distance between rx buffers */
	uint8_t *rx_bufs;		/* UET_LINK_UDP_BATCH * stride */
	struct uet_link_addr local;
	struct uet_link_udp_stats stats;
	uint64_t loss_thresh;		/* 0: no drop; 2^32: drop all */
	uint64_t loss_rng;		/* xorshift64* state, never 0 */
	struct mmsghdr tx_msgs[UET_LINK_UDP_BATCH];
	struct mmsghdr rx_msgs[UET_LINK_UDP_BATCH];
	struct iovec rx_iov[UET_LINK_UDP_BATCH];
	struct sockaddr_storage rx_addr[UET_LINK_UDP_BATCH];
};

static const struct uet_link_ops uet_link_udp_ops;

static inline struct uet_link_udp *uet_link_udp_of(struct uet_link *link)
{
	return uet_container_of(link, struct uet_link_udp, base);
}

/* ---- send ---- */

/* 0 when pkt may be sent on this link, else the negative errno. */
static int uet_link_udp_check(const struct uet_link_udp *lu,
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
		if (pkt->iov[i].iov_len > lu->mtu - len)
			return -EMSGSIZE;
		len += pkt->iov[i].iov_len;
	}
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

static int uet_link_udp_send(struct uet_link *link,
			     const struct uet_link_pkt *pkts, unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);
	unsigned int nok, done, cnt, i;
	struct msghdr *mh;
	int ret, err = 0;

	if (n && !pkts)
		return -EINVAL;
	for (nok = 0; nok < n; nok++) {
		err = uet_link_udp_check(lu, &pkts[nok]);
		if (err)
			break;
	}

	done = 0;
	while (done < nok) {
		cnt = nok - done;
		if (cnt > UET_LINK_UDP_BATCH)
			cnt = UET_LINK_UDP_BATCH;
		for (i = 0; i < cnt; i++) {
			const struct uet_link_pkt *p = &pkts[done + i];

			mh = &lu->tx_msgs[i].msg_hdr;
			memset(mh, 0, sizeof(*mh));
			/* The kernel only reads name and iovecs. */
			mh->msg_name = (void *)(uintptr_t)&p->dst->ss;
			mh->msg_namelen = p->dst->len;
			mh->msg_iov = (struct iovec *)(uintptr_t)p->iov;
			mh->msg_iovlen = p->iovcnt;
		}
		ret = sendmmsg(lu->fd, lu->tx_msgs, cnt, MSG_DONTWAIT);
		if (ret > 0) {
			for (i = 0; i < (unsigned int)ret; i++) {
				lu->stats.tx_pkts++;
				lu->stats.tx_bytes += lu->tx_msgs[i].msg_len;
			}
			done += (unsigned int)ret;
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
		if (uet_link_udp_net_error(errno)) {
			lu->stats.tx_err++;
			done++;
			continue;
		}
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
		lu->rx_iov[i].iov_len = lu->mtu;
		mh = &lu->rx_msgs[i].msg_hdr;
		memset(mh, 0, sizeof(*mh));
		mh->msg_name = &lu->rx_addr[i];
		mh->msg_namelen = sizeof(lu->rx_addr[i]);
		mh->msg_iov = &lu->rx_iov[i];
		mh->msg_iovlen = 1;
	}
}

/* The loss knob: true when this received datagram is to be dropped. */
static bool uet_link_udp_lose(struct uet_link_udp *lu)
{
	uint64_t x = lu->loss_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	lu->loss_rng = x;
	return (x * 0x2545f4914f6cdd1dull) >> 32 < lu->loss_thresh;
}

static int uet_link_udp_recv(struct uet_link *link, struct uet_link_rx *rx,
			     unsigned int n)
{
	struct uet_link_udp *lu = uet_link_udp_of(link);
	unsigned int cnt, i, out, tries;
	struct msghdr *mh;
	int ret;

	if (n == 0)
		return 0;
	if (!rx)
		return -EINVAL;
	cnt = n < UET_LINK_UDP_BATCH ? n : UET_LINK_UDP_BATCH;
	for (tries = 0; tries < UET_LINK_UDP_TRUNC_RETRIES; tries++) {
		ret = recvmmsg(lu->fd, lu->rx_msgs, cnt, MSG_DONTWAIT, NULL);
		if (ret < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR || uet_link_udp_net_error(errno))
				return 0;
			return -errno;
		}
		out = 0;
		for (i = 0; i < (unsigned int)ret; i++) {
			mh = &lu->rx_msgs[i].msg_hdr;
			if (mh->msg_flags & MSG_TRUNC) {
				lu->stats.rx_trunc++;
				goto next;
			}
			if (lu->loss_thresh && uet_link_udp_lose(lu)) {
				lu->stats.rx_dropped++;
				goto next;
			}
			rx[out].buf = lu->rx_iov[i].iov_base;
			rx[out].len = lu->rx_msgs[i].msg_len;
			memset(&rx[out].src, 0, sizeof(rx[out].src));
			if (mh->msg_namelen <= sizeof(rx[out].src.ss)) {
				memcpy(&rx[out].src.ss, &lu->rx_addr[i],
				       mh->msg_namelen);
				rx[out].src.len = mh->msg_namelen;
			}
			lu->stats.rx_pkts++;
			lu->stats.rx_bytes += rx[out].len;
			out++;
next:
			/* What the kernel wrote; the rest stays as set up. */
			mh->msg_namelen = sizeof(lu->rx_addr[i]);
			mh->msg_flags = 0;
		}
		/* Only a full batch of discarded datagrams is worth a retry. */
		if (out || (unsigned int)ret < cnt)
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

static int uet_link_udp_local_addr(struct uet_link *link,
				   struct uet_link_addr *addr)
{
	if (!addr)
		return -EINVAL;
	*addr = uet_link_udp_of(link)->local;
	return 0;
}

static void uet_link_udp_close(struct uet_link *link)
{
	struct uet_link_udp *lu;

	if (!link)
		return;
	lu = uet_link_udp_of(link);
	close(lu->fd);
	free(lu->rx_bufs);
	free(lu);
}

static const struct uet_link_ops uet_link_udp_ops = {
	.send = uet_link_udp_send,
	.recv = uet_link_udp_recv,
	.fd = uet_link_udp_fd,
	.mtu = uet_link_udp_mtu,
	.local_addr = uet_link_udp_local_addr,
	.close = uet_link_udp_close,
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
	size_t cap;
	int one = 1;
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

	lu->mtu = cfg->mtu ? cfg->mtu : uet_link_udp_derive_mtu(lu->fd, &addr);
	lu->stride = (lu->mtu + 63) & ~(size_t)63;
	lu->rx_bufs = malloc(UET_LINK_UDP_BATCH * lu->stride);
	if (!lu->rx_bufs) {
		ret = -ENOMEM;
		goto err_close_fd;
	}
	uet_link_udp_rx_prepare(lu);
	uet_link_udp_loss_init(lu, cfg);
	*link = &lu->base;
	return 0;

err_close_fd:
	close(lu->fd);
err_free_link:
	free(lu);
	return ret;
}
