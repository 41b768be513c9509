/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IPv6 addresses that cannot be bound yet or at all, from rtnetlink
 * (RTM_GETADDR): getifaddrs() lists an address while duplicate address
 * detection (DAD) still runs on it (IFA_F_TENTATIVE, about a second
 * after a link comes up) or after DAD failed (IFA_F_DADFAILED), and
 * bind() then answers EADDRNOTAVAIL.  An optimistic address
 * (IFA_F_OPTIMISTIC, RFC 4429) can be bound while tentative.
 */
#include "config.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_iface.h"
#include "uet_log.h"

#ifndef IFA_F_OPTIMISTIC
#define IFA_F_OPTIMISTIC	0x04
#endif
#ifndef IFA_F_DADFAILED
#define IFA_F_DADFAILED		0x08
#endif
#ifndef IFA_F_TENTATIVE
#define IFA_F_TENTATIVE		0x40
#endif

/* The whole dump may take several reads; each is bounded by this. */
#define UET_IFACE_NL_TIMEOUT_MS	1000
#define UET_IFACE_NL_BUF	16384

bool uet_iface_nl_flags_unusable(uint32_t flags)
{
	if (flags & IFA_F_DADFAILED)
		return true;
	return (flags & IFA_F_TENTATIVE) && !(flags & IFA_F_OPTIMISTIC);
}

static int uet_iface_nl_add(struct uet_iface_v6_addr **v, size_t *n,
			    size_t *cap, uint32_t ifindex, const void *addr,
			    uint32_t flags)
{
	struct uet_iface_v6_addr *nv;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;

		nv = realloc(*v, c * sizeof(**v));
		if (!nv)
			return -FI_ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[*n].ifindex = ifindex;
	memcpy(&(*v)[*n].addr, addr, sizeof((*v)[*n].addr));
	(*v)[*n].flags = flags;
	(*n)++;
	return 0;
}

/* One RTM_NEWADDR message: its address and flags (IFA_FLAGS, 32 bits,
 * when present, else ifa_flags). */
static int uet_iface_nl_addr_msg(struct nlmsghdr *nh,
				 struct uet_iface_v6_addr **v, size_t *n,
				 size_t *cap)
{
	struct ifaddrmsg *ifa;
	struct rtattr *rta;
	const void *addr = NULL, *local = NULL;
	uint32_t flags;
	int len;

	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return -FI_EINVAL;
	ifa = NLMSG_DATA(nh);
	if (ifa->ifa_family != AF_INET6)
		return 0;
	flags = ifa->ifa_flags;
	len = (int)IFA_PAYLOAD(nh);
	for (rta = IFA_RTA(ifa); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		switch (rta->rta_type) {
		case IFA_ADDRESS:
			if (RTA_PAYLOAD(rta) == 16)
				addr = RTA_DATA(rta);
			break;
		case IFA_LOCAL:
			if (RTA_PAYLOAD(rta) == 16)
				local = RTA_DATA(rta);
			break;
		case IFA_FLAGS:
			if (RTA_PAYLOAD(rta) == sizeof(uint32_t))
				memcpy(&flags, RTA_DATA(rta), sizeof(flags));
			break;
		default:
			break;
		}
	}
	if (local)
		addr = local;
	if (!addr || !uet_iface_nl_flags_unusable(flags))
		return 0;
	return uet_iface_nl_add(v, n, cap, ifa->ifa_index, addr, flags);
}

/* NLMSG_OK(nh, left), without the comparison of a signed and an unsigned
 * length that its glibc definition makes (-Wsign-compare under clang). */
static bool uet_iface_nl_ok(const struct nlmsghdr *nh, int left)
{
	return left >= (int)sizeof(*nh) && nh->nlmsg_len >= sizeof(*nh) &&
	       nh->nlmsg_len <= (unsigned int)left;
}

int uet_iface_nl_parse(void *buf, size_t len, uint32_t seq, uint32_t portid,
		       struct uet_iface_v6_addr **v, size_t *n, size_t *cap)
{
	struct nlmsghdr *nh;
	const struct nlmsgerr *e;
	int left, ret;

	if (len > (size_t)UET_IFACE_NL_BUF * 64)
		return -FI_EINVAL;
	left = (int)len;
	for (nh = buf; uet_iface_nl_ok(nh, left); nh = NLMSG_NEXT(nh, left)) {
		if (nh->nlmsg_seq != seq || nh->nlmsg_pid != portid)
			continue;	/* not an answer to our request */
		switch (nh->nlmsg_type) {
		case NLMSG_DONE:
			return 1;
		case NLMSG_ERROR:
			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -FI_EINVAL;
			e = NLMSG_DATA(nh);
			return e->error ? -FI_EIO : 1;
		case RTM_NEWADDR:
			ret = uet_iface_nl_addr_msg(nh, v, n, cap);
			if (ret)
				return ret;
			break;
		default:
			break;
		}
	}
	return left ? -FI_EINVAL : 0;	/* a truncated message */
}

bool uet_iface_nl_from_kernel(const struct sockaddr_nl *from,
			      socklen_t len)
{
	return len == sizeof(*from) && from->nl_family == AF_NETLINK &&
	       from->nl_pid == 0;
}

int uet_iface_nl_dump(int fd, uint32_t seq, struct uet_iface_v6_addr **out,
		      size_t *np)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
	} req;
	struct sockaddr_nl sa, self, from;
	socklen_t salen = sizeof(self);
	struct iovec iov;
	struct msghdr msg = {
		.msg_name = &from,
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	uint64_t end = uet_clock_now_ns() +
		       (uint64_t)UET_IFACE_NL_TIMEOUT_MS * UET_NSEC_PER_MSEC;
	struct uet_iface_v6_addr *v = NULL;
	size_t n = 0, cap = 0;
	ssize_t got;
	char *buf;
	int ret = 0;

	*out = NULL;
	*np = 0;
	buf = malloc(UET_IFACE_NL_BUF);
	if (!buf)
		return -FI_ENOMEM;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa));
	req.nh.nlmsg_type = RTM_GETADDR;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = seq;
	req.ifa.ifa_family = AF_INET6;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) != (ssize_t)req.nh.nlmsg_len) {
		ret = -FI_EIO;
		goto err_free;
	}
	/* Our port id (bound by now): the kernel's answers carry it. */
	if (getsockname(fd, (struct sockaddr *)&self, &salen) ||
	    salen != sizeof(self) || self.nl_family != AF_NETLINK) {
		ret = -FI_EIO;
		goto err_free;
	}
	iov.iov_base = buf;
	iov.iov_len = UET_IFACE_NL_BUF;
	for (;;) {
		if (uet_clock_now_ns() >= end) {
			ret = -FI_ETIMEDOUT;
			goto err_free;
		}
		memset(&from, 0, sizeof(from));
		msg.msg_namelen = sizeof(from);
		msg.msg_flags = 0;
		got = recvmsg(fd, &msg, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			ret = got < 0 && (errno == EAGAIN ||
					  errno == EWOULDBLOCK) ?
			      -FI_ETIMEDOUT : -FI_EIO;
			goto err_free;
		}
		if (!uet_iface_nl_from_kernel(&from, msg.msg_namelen)) {
			UET_WARN_ONCE(UET_LOG_FABRIC, "rtnetlink: dropped a datagram from port id %u, not the kernel\n",
				      from.nl_pid);
			continue;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			ret = -FI_EIO;	/* part of the dump is lost */
			goto err_free;
		}
		ret = uet_iface_nl_parse(buf, (size_t)got, seq, self.nl_pid,
					 &v, &n, &cap);
		if (ret < 0)
			goto err_free;
		if (ret == 1)
			break;
	}
	free(buf);
	*out = v;
	*np = n;
	return 0;

err_free:
	free(buf);
	free(v);
	return ret;
}

int uet_iface_v6_unusable(struct uet_iface_v6_addr **out, size_t *np)
{
	struct timeval tv = {
		.tv_sec = UET_IFACE_NL_TIMEOUT_MS / 1000,
		.tv_usec = UET_IFACE_NL_TIMEOUT_MS % 1000 * 1000,
	};
	int fd, ret;

	*out = NULL;
	*np = 0;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -FI_ENOSYS;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		ret = -FI_EIO;
	else
		ret = uet_iface_nl_dump(fd, (uint32_t)uet_clock_now_ns() | 1,
					out, np);
	close(fd);
	return ret;
}
