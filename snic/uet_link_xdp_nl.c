/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Route and neighbour of a destination over rtnetlink
 * (uet_link_xdp_internal.h): one RTM_GETROUTE for the output interface
 * and the gateway, then one RTM_GETNEIGH for the next hop's link-layer
 * address.  The kernel answers a request in the sender's system call,
 * so each read is non-blocking and a missing answer is an error, never
 * a wait.  Netlink messages are the kernel's own structures in host
 * order: they are copied out of the receive buffer (memcpy), never cast
 * in place.
 */
#include "config.h"

#include <errno.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_link_xdp_internal.h"

#define UET_XDP_NL_BUF	8192

/* Neighbour states whose link-layer address can be used. */
#define UET_XDP_NUD_USABLE (NUD_REACHABLE | NUD_STALE | NUD_DELAY | \
			    NUD_PROBE | NUD_PERMANENT)

int uet_xdp_nl_open(void)
{
	struct sockaddr_nl sa;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Append attribute type with len bytes of data at *off in buf. */
static void uet_xdp_nl_attr(uint8_t *buf, size_t *off, uint16_t type,
			    const void *data, size_t len)
{
	struct rtattr rta;

	rta.rta_len = (unsigned short)RTA_LENGTH(len);
	rta.rta_type = type;
	memcpy(buf + *off, &rta, sizeof(rta));
	memcpy(buf + *off + RTA_LENGTH(0), data, len);
	*off += RTA_ALIGN(rta.rta_len);
}

/*
 * Send the request in buf (len bytes, header filled but for length and
 * sequence) and read the answer into buf: its payload (after the
 * netlink header) and its length; -errno from an NLMSG_ERROR.
 */
static int uet_xdp_nl_ask(int fd, uint8_t *buf, size_t len, uint16_t type,
			  uint16_t want, size_t *plen)
{
	static _Thread_local uint32_t seq;
	struct nlmsghdr nh;
	struct nlmsgerr ne;
	ssize_t n;
	int tries;

	memset(&nh, 0, sizeof(nh));
	nh.nlmsg_len = (uint32_t)len;
	nh.nlmsg_type = type;
	nh.nlmsg_flags = NLM_F_REQUEST;
	nh.nlmsg_seq = ++seq;
	memcpy(buf, &nh, sizeof(nh));
	if (send(fd, buf, len, 0) != (ssize_t)len)
		return -errno ? -errno : -EIO;
	/* answers to earlier requests that timed out are skipped */
	for (tries = 0; tries < 4; tries++) {
		n = recv(fd, buf, UET_XDP_NL_BUF, MSG_DONTWAIT);
		if (n < 0)
			return -errno;
		if ((size_t)n < sizeof(nh))
			return -EIO;
		memcpy(&nh, buf, sizeof(nh));
		if (nh.nlmsg_len > (size_t)n || nh.nlmsg_len < sizeof(nh))
			return -EIO;
		if (nh.nlmsg_seq != seq)
			continue;
		if (nh.nlmsg_type == NLMSG_ERROR) {
			if (nh.nlmsg_len < NLMSG_LENGTH(sizeof(ne)))
				return -EIO;
			memcpy(&ne, buf + NLMSG_HDRLEN, sizeof(ne));
			return ne.error ? ne.error : -ENOENT;
		}
		if (nh.nlmsg_type != want)
			return -EIO;
		memmove(buf, buf + NLMSG_HDRLEN, nh.nlmsg_len - NLMSG_HDRLEN);
		*plen = nh.nlmsg_len - NLMSG_HDRLEN;
		return 0;
	}
	return -EIO;
}

/* The route to dst: its output interface, type and gateway (if any). */
static int uet_xdp_nl_route(int fd, uint8_t *buf, int family,
			    const uint8_t *dst, size_t alen, int *oif,
			    uint8_t *gw, bool *has_gw)
{
	struct rtmsg rt;
	struct rtattr rta;
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(rt)), plen, p;
	uint32_t v;
	int ret;

	memset(buf, 0, UET_XDP_NL_BUF);
	memset(&rt, 0, sizeof(rt));
	rt.rtm_family = (unsigned char)family;
	rt.rtm_dst_len = (unsigned char)(alen * 8);
	memcpy(buf + NLMSG_HDRLEN, &rt, sizeof(rt));
	uet_xdp_nl_attr(buf, &off, RTA_DST, dst, alen);
	ret = uet_xdp_nl_ask(fd, buf, off, RTM_GETROUTE, RTM_NEWROUTE, &plen);
	if (ret)
		return ret;
	if (plen < sizeof(rt))
		return -EIO;
	memcpy(&rt, buf, sizeof(rt));
	if (rt.rtm_type != RTN_UNICAST)
		return -EXDEV;		/* local, broadcast, unreachable... */
	*oif = 0;
	*has_gw = false;
	for (p = NLMSG_ALIGN(sizeof(rt)); p + sizeof(rta) <= plen;
	     p += RTA_ALIGN(rta.rta_len)) {
		memcpy(&rta, buf + p, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || p + rta.rta_len > plen)
			return -EIO;
		if (rta.rta_type == RTA_OIF &&
		    rta.rta_len >= RTA_LENGTH(sizeof(v))) {
			memcpy(&v, buf + p + RTA_LENGTH(0), sizeof(v));
			*oif = (int)v;
		} else if (rta.rta_type == RTA_GATEWAY &&
			   rta.rta_len >= RTA_LENGTH(alen)) {
			memcpy(gw, buf + p + RTA_LENGTH(0), alen);
			*has_gw = true;
		} else if (rta.rta_type == RTA_VIA ||
			   rta.rta_type == RTA_MULTIPATH) {
			return -EXDEV;	/* not a single next hop of ours */
		}
	}
	return 0;
}

int uet_xdp_nl_next_hop(int fd, int family, const uint8_t *dst,
			int ifindex, uint8_t mac[6])
{
	uint8_t buf[UET_XDP_NL_BUF], gw[16];
	size_t alen = family == AF_INET6 ? 16 : 4, off, plen, p;
	struct rtattr rta;
	struct ndmsg nd;
	bool has_gw, have_ll = false;
	int oif, ret;

	ret = uet_xdp_nl_route(fd, buf, family, dst, alen, &oif, gw, &has_gw);
	if (ret)
		return ret;
	if (oif != ifindex)
		return -EXDEV;
	memset(buf, 0, sizeof(buf));
	memset(&nd, 0, sizeof(nd));
	nd.ndm_family = (uint8_t)family;
	nd.ndm_ifindex = ifindex;
	memcpy(buf + NLMSG_HDRLEN, &nd, sizeof(nd));
	off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nd));
	uet_xdp_nl_attr(buf, &off, NDA_DST, has_gw ? gw : dst, alen);
	ret = uet_xdp_nl_ask(fd, buf, off, RTM_GETNEIGH, RTM_NEWNEIGH, &plen);
	if (ret == -ENOENT)
		return -EAGAIN;		/* no entry yet */
	if (ret)
		return ret;
	if (plen < sizeof(nd))
		return -EIO;
	memcpy(&nd, buf, sizeof(nd));
	if (!(nd.ndm_state & UET_XDP_NUD_USABLE))
		return -EAGAIN;		/* incomplete, failed, none */
	for (p = NLMSG_ALIGN(sizeof(nd)); p + sizeof(rta) <= plen;
	     p += RTA_ALIGN(rta.rta_len)) {
		memcpy(&rta, buf + p, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || p + rta.rta_len > plen)
			return -EIO;
		if (rta.rta_type == NDA_LLADDR &&
		    rta.rta_len == RTA_LENGTH(6)) {
			memcpy(mac, buf + p + RTA_LENGTH(0), 6);
			have_ll = true;
		}
	}
	if (!have_ll)
		return -EAGAIN;
	/* STALE: usable, but the caller should let the kernel confirm it */
	return nd.ndm_state & NUD_STALE ? 1 : 0;
}
