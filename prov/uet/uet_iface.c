/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Local interface addresses: enumeration (getifaddrs), fabric names per
 * subnet, and the order fi_getinfo offers them in (uet_iface.h).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_iface.h"
#include "uet_info.h"
#include "uet_log.h"

static bool uet_iface_wanted(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p, *end;

	if (!list || !*list)
		return true;
	for (p = list; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) == n && !strncmp(p, name, n))
			return true;
	}
	return false;
}

static size_t uet_iface_mtu(int fd, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, name, sizeof(ifr.ifr_name) - 1);
	if (fd < 0 || ioctl(fd, SIOCGIFMTU, &ifr) < 0 || ifr.ifr_mtu <= 0)
		return 1500;
	return (size_t)ifr.ifr_mtu;
}

static void uet_iface_sockaddr(struct uet_addr *a, const struct sockaddr *sa,
			       int family)
{
	memset(a, 0, sizeof(*a));
	if (!sa)
		return;
	if (family == AF_INET) {
		memcpy(&a->u.sin, sa, sizeof(a->u.sin));
		memset(a->u.sin.sin_zero, 0, sizeof(a->u.sin.sin_zero));
	} else {
		memcpy(&a->u.sin6, sa, sizeof(a->u.sin6));
		a->u.sin6.sin6_flowinfo = 0;
	}
	a->u.sa.sa_family = (sa_family_t)family;
	a->len = family == AF_INET ? sizeof(a->u.sin) : sizeof(a->u.sin6);
	uet_addr_set_port(a, 0);
}

/* The IP bytes of a (4 or 16 of them); NULL for another family. */
static const uint8_t *uet_iface_ip(const struct uet_addr *a, size_t *n)
{
	if (a->u.sa.sa_family == AF_INET) {
		*n = 4;
		return (const uint8_t *)&a->u.sin.sin_addr;
	}
	if (a->u.sa.sa_family == AF_INET6) {
		*n = 16;
		return (const uint8_t *)&a->u.sin6.sin6_addr;
	}
	*n = 0;
	return NULL;
}

void uet_iface_set_fabric(struct uet_iface *ifc)
{
	uint8_t net[16];
	const uint8_t *ip, *m = NULL;
	char txt[INET6_ADDRSTRLEN];
	size_t n, mn = 0, i;
	unsigned int prefix = 0;
	int b;

	ip = uet_iface_ip(&ifc->addr, &n);
	if (!ip) {
		ifc->fabric[0] = '\0';
		return;
	}
	if (ifc->mask.u.sa.sa_family == ifc->addr.u.sa.sa_family)
		m = uet_iface_ip(&ifc->mask, &mn);
	for (i = 0; i < n; i++)
		net[i] = m ? ip[i] & m[i] : ip[i];
	/* The mask's contiguous leading one bits. */
	for (i = 0; m && i < n && m[i] == 0xff; i++)
		prefix += 8;
	if (m && i < n)
		for (b = 7; b >= 0 && (m[i] >> b & 1); b--)
			prefix++;
	if (!m || !prefix)
		prefix = (unsigned int)n * 8;
	if (!inet_ntop(ifc->addr.u.sa.sa_family, net, txt, sizeof(txt)))
		txt[0] = '\0';
	snprintf(ifc->fabric, sizeof(ifc->fabric), "%s/%u", txt, prefix);
}

static const struct uet_env_enum uet_iface_scopes[] = {
	{ "subnet", UET_IFACE_SCOPE_SUBNET },
	{ "routed", UET_IFACE_SCOPE_ROUTED },
	{ NULL, 0 },
};
const struct uet_env_var uet_iface_env_fabric =
	UET_ENV_ENUM_VAR("fabric", UET_IFACE_SCOPE_SUBNET, uet_iface_scopes,
			 "What one fabric spans: subnet (one fabric per IP "
			 "subnet) or routed (every non-loopback IPv4 address "
			 "in fabric uet-ipv4, every global IPv6 address in "
			 "uet-ipv6: multi-rail hosts, one subnet per rail)");

void uet_iface_scope_fabric(struct uet_iface *ifc, enum uet_iface_scope scope)
{
	if (scope != UET_IFACE_SCOPE_ROUTED)
		return;
	switch (uet_iface_class_of(ifc)) {
	case UET_IFACE_IPV4:
		snprintf(ifc->fabric, sizeof(ifc->fabric), "%s",
			 UET_IFACE_FABRIC_IPV4);
		break;
	case UET_IFACE_IPV6_GLOBAL:
		snprintf(ifc->fabric, sizeof(ifc->fabric), "%s",
			 UET_IFACE_FABRIC_IPV6);
		break;
	default:
		break;
	}
}

/* Whether IPv6 address sa of interface name is in bad (the addresses
 * bind() refuses yet, uet_iface_v6_unusable). */
static bool uet_iface_v6_listed(const struct uet_iface_v6_addr *bad,
				size_t nbad, const char *name,
				const struct sockaddr *sa)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;
	unsigned int idx = 0;
	size_t i;

	for (i = 0; i < nbad; i++) {
		if (memcmp(&bad[i].addr, &s6->sin6_addr, sizeof(bad[i].addr)))
			continue;
		if (!idx)
			idx = if_nametoindex(name);
		if (bad[i].ifindex == idx)
			return true;
	}
	return false;
}

/* Drop from ifs the IPv6 addresses that cannot be bound yet (DAD still
 * runs: a veth right after it came up) or at all (DAD failed): a domain
 * on one would fail with -FI_EADDRNOTAVAIL.  Without netlink, none is
 * dropped. */
static size_t uet_iface_drop_unusable(struct uet_iface *ifs, size_t n,
				      const struct uet_iface_v6_addr *bad,
				      size_t nbad)
{
	char txt[INET6_ADDRSTRLEN];
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (ifs[i].addr.u.sa.sa_family == AF_INET6 &&
		    uet_iface_v6_listed(bad, nbad, ifs[i].name,
					&ifs[i].addr.u.sa)) {
			if (!inet_ntop(AF_INET6, &ifs[i].addr.u.sin6.sin6_addr,
				       txt, sizeof(txt)))
				txt[0] = '\0';
			UET_INFO(UET_LOG_FABRIC, "%s: address %s skipped: "
				 "tentative or duplicate (IPv6 duplicate "
				 "address detection)\n", ifs[i].name, txt);
			continue;
		}
		ifs[m++] = ifs[i];
	}
	return m;
}

int uet_iface_get(const char *list, int want, struct uet_iface **ifsp,
		  size_t *np)
{
	struct uet_iface_v6_addr *bad = NULL;
	size_t nbad = 0, nv6 = 0;
	int ret;
	struct ifaddrs *ifas, *ifa;
	struct uet_iface *ifs;
	size_t n = 0, cap = 0;
	int family, fd;

	*ifsp = NULL;
	*np = 0;
	if (getifaddrs(&ifas))
		return errno == ENOMEM ? -FI_ENOMEM : -FI_ENODATA;
	for (ifa = ifas; ifa; ifa = ifa->ifa_next)
		cap++;
	ifs = calloc(cap ? cap : 1, sizeof(*ifs));
	if (!ifs) {
		freeifaddrs(ifas);
		return -FI_ENOMEM;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (ifa = ifas; ifa; ifa = ifa->ifa_next) {
		if (!ifa->ifa_addr || !(ifa->ifa_flags & IFF_UP) ||
		    strlen(ifa->ifa_name) >= IF_NAMESIZE ||
		    !uet_iface_wanted(list, ifa->ifa_name))
			continue;
		family = ifa->ifa_addr->sa_family;
		if ((family != AF_INET && family != AF_INET6) ||
		    (want != AF_UNSPEC && family != want))
			continue;
		strcpy(ifs[n].name, ifa->ifa_name);
		uet_iface_sockaddr(&ifs[n].addr, ifa->ifa_addr, family);
		uet_iface_sockaddr(&ifs[n].mask, ifa->ifa_netmask, family);
		ifs[n].loopback = !!(ifa->ifa_flags & IFF_LOOPBACK);
		ifs[n].mtu = uet_iface_mtu(fd, ifa->ifa_name);
		uet_iface_set_fabric(&ifs[n]);
		uet_iface_scope_fabric(&ifs[n],
				       uet_env_get_enum(&uet_iface_env_fabric));
		if (family == AF_INET6)
			nv6++;
		n++;
	}
	if (fd >= 0)
		close(fd);
	freeifaddrs(ifas);
	if (nv6) {
		ret = uet_iface_v6_unusable(&bad, &nbad);
		if (ret)
			UET_DBG(UET_LOG_FABRIC, "IPv6 address states unknown "
				"(%d): no address skipped\n", ret);
		else
			n = uet_iface_drop_unusable(ifs, n, bad, nbad);
		free(bad);
	}
	*ifsp = ifs;
	*np = n;
	return 0;
}

bool uet_iface_on_subnet(const struct uet_iface *ifc,
			 const struct uet_addr *d)
{
	const uint8_t *a, *m, *x;
	size_t i, n, mn, xn;

	if (ifc->mask.u.sa.sa_family != d->u.sa.sa_family ||
	    ifc->addr.u.sa.sa_family != d->u.sa.sa_family)
		return false;
	a = uet_iface_ip(&ifc->addr, &n);
	m = uet_iface_ip(&ifc->mask, &mn);
	x = uet_iface_ip(d, &xn);
	for (i = 0; i < n; i++)
		if ((a[i] & m[i]) != (x[i] & m[i]))
			return false;
	return true;
}

bool uet_iface_route_src(const struct uet_addr *d, struct uet_addr *src)
{
	struct sockaddr_in6 ss;
	socklen_t len = sizeof(ss);
	struct uet_addr to = *d;
	bool ok = false;
	int fd;

	if (!uet_addr_port(&to))
		uet_addr_set_port(&to, 9);	/* connect() wants a port */
	fd = socket(to.u.sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	if (!connect(fd, &to.u.sa, to.len) &&
	    !getsockname(fd, (struct sockaddr *)&ss, &len))
		ok = !uet_addr_from_raw(src, &ss, len);
	close(fd);
	return ok;
}

enum uet_iface_class uet_iface_class_of(const struct uet_iface *ifc)
{
	const struct in6_addr *a6;

	if (ifc->loopback || uet_addr_is_loopback(&ifc->addr))
		return UET_IFACE_LOOPBACK;
	if (ifc->addr.u.sa.sa_family == AF_INET)
		return UET_IFACE_IPV4;
	a6 = &ifc->addr.u.sin6.sin6_addr;
	return IN6_IS_ADDR_LINKLOCAL(a6) ? UET_IFACE_IPV6_LINK :
					   UET_IFACE_IPV6_GLOBAL;
}

/* How well ifc reaches dest: 0 the kernel's source, 1 same subnet (or
 * loopback to loopback), 2 the rest. */
static int uet_iface_reach(const struct uet_iface *ifc,
			   const struct uet_addr *dest,
			   const struct uet_addr *route)
{
	if (route && !uet_addr_cmp_ip(&ifc->addr, route))
		return 0;
	if ((ifc->loopback && uet_addr_is_loopback(dest)) ||
	    uet_iface_on_subnet(ifc, dest))
		return 1;
	return 2;
}

size_t uet_iface_order(struct uet_iface *ifs, size_t n, int family,
		       const struct uet_addr *dest,
		       const struct uet_addr *route)
{
	struct uet_iface tmp;
	size_t i, j, m = 0;
	int reach;

	for (i = 0; i < n; i++) {
		if (family != AF_UNSPEC &&
		    ifs[i].addr.u.sa.sa_family != family)
			continue;
		ifs[m] = ifs[i];
		reach = dest ? uet_iface_reach(&ifs[m], dest, route) : 0;
		ifs[m].rank = reach * 4 + (int)uet_iface_class_of(&ifs[m]);
		m++;
	}
	for (i = 1; i < m; i++) {
		tmp = ifs[i];
		for (j = i; j > 0 && ifs[j - 1].rank > tmp.rank; j--)
			ifs[j] = ifs[j - 1];
		ifs[j] = tmp;
	}
	return m;
}

bool uet_iface_fabric_known(const char *name)
{
	struct uet_iface *ifs;
	bool found = false;
	size_t n, i;

	if (!strcmp(name, UET_FABRIC_NAME))
		return true;
	if (uet_iface_get(NULL, AF_UNSPEC, &ifs, &n))
		return false;
	for (i = 0; i < n && !found; i++)
		found = !strcmp(ifs[i].fabric, name);
	free(ifs);
	return found;
}
