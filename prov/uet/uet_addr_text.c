/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Endpoint addresses in text (FI_ADDR_STR): uet's own form
 * ("uet://10.0.0.1:4793/1/0", uet_addr_str) and libfabric's sockaddr
 * forms ("fi_sockaddr_in://10.0.0.1:4793",
 * "fi_sockaddr_in6://[fe80::1%2]:4793"), read back into a uet_addr.
 */
#include "config.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "uet_addr.h"

/* A decimal number of at most max in [s, end); *next past it. */
static int uet_addr_text_num(const char *s, const char *end,
			     unsigned long max, unsigned long *v,
			     const char **next)
{
	unsigned long n = 0, d;
	const char *p = s;

	while (p < end && *p >= '0' && *p <= '9') {
		d = (unsigned long)(*p - '0');
		if (d > max || n > (max - d) / 10)
			return -FI_EINVAL;	/* n * 10 + d > max */
		n = n * 10 + d;
		p++;
	}
	if (p == s)
		return -FI_EINVAL;
	*v = n;
	*next = p;
	return 0;
}

/* The scope after '%': an interface name, else a decimal index in
 * [1, UINT32_MAX] with nothing before or after its digits. */
static int uet_addr_text_scope(const char *s, uint32_t *scope)
{
	unsigned long v;
	const char *end = s + strlen(s), *next;

	*scope = if_nametoindex(s);
	if (*scope)
		return 0;
	if (uet_addr_text_num(s, end, UINT32_MAX, &v, &next) ||
	    next != end || !v)
		return -FI_EINVAL;
	*scope = (uint32_t)v;
	return 0;
}

/* "[v6%scope]" or "v4", then ":port"; *next past the port. */
static int uet_addr_text_host_port(struct uet_addr *a, const char *s,
				   const char *end, int want,
				   const char **next)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	const char *h = s, *he, *pct;
	unsigned long port;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (s < end && *s == '[') {
		h = s + 1;
		he = memchr(h, ']', (size_t)(end - h));
		if (!he || he + 1 >= end || he[1] != ':')
			return -FI_EINVAL;
		s = he + 2;
	} else {
		he = memchr(h, ':', (size_t)(end - h));
		if (!he)
			return -FI_EINVAL;
		s = he + 1;
	}
	n = (size_t)(he - h);
	if (!n || n >= sizeof(host))
		return -FI_EINVAL;
	memcpy(host, h, n);
	host[n] = '\0';
	if (uet_addr_text_num(s, end, 65535, &port, next))
		return -FI_EINVAL;
	if (want != AF_INET6 && inet_pton(AF_INET, host, &a->u.sin.sin_addr) == 1) {
		a->u.sin.sin_family = AF_INET;
		a->u.sin.sin_port = htons((uint16_t)port);
		a->len = sizeof(a->u.sin);
		return 0;
	}
	if (want == AF_INET)
		return -FI_EINVAL;
	pct = strchr(host, '%');
	if (pct) {
		host[pct - host] = '\0';
		if (uet_addr_text_scope(pct + 1, &a->u.sin6.sin6_scope_id))
			return -FI_EINVAL;
	}
	if (inet_pton(AF_INET6, host, &a->u.sin6.sin6_addr) != 1)
		return -FI_EINVAL;
	a->u.sin6.sin6_family = AF_INET6;
	a->u.sin6.sin6_port = htons((uint16_t)port);
	a->len = sizeof(a->u.sin6);
	return 0;
}

int uet_addr_from_text(struct uet_addr *a, const char *text, size_t len)
{
	static const struct {
		const char *prefix;
		int family;
		bool ids;
	} forms[] = {
		{ "uet://", AF_UNSPEC, true },
		{ "fi_sockaddr_in://", AF_INET, false },
		{ "fi_sockaddr_in6://", AF_INET6, false },
	};
	const char *end, *p = NULL;
	unsigned long pid = 0, ri = 0;
	size_t i, plen;

	if (!a || !text)
		return -FI_EINVAL;
	end = memchr(text, '\0', len);
	if (!end)
		return -FI_EINVAL;	/* no NUL within len */
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		plen = strlen(forms[i].prefix);
		if (!strncmp(text, forms[i].prefix, plen))
			break;
	}
	if (i == sizeof(forms) / sizeof(forms[0]))
		return -FI_EINVAL;
	if (uet_addr_text_host_port(a, text + plen, end, forms[i].family, &p))
		return -FI_EINVAL;
	if (forms[i].ids && p < end) {
		if (*p != '/' ||
		    uet_addr_text_num(p + 1, end, UET_ADDR_ID_MAX, &pid, &p) ||
		    p >= end || *p != '/' ||
		    uet_addr_text_num(p + 1, end, UET_ADDR_ID_MAX, &ri, &p))
			return -FI_EINVAL;
	}
	if (p != end)
		return -FI_EINVAL;
	a->pid = (uint16_t)pid;
	a->ri = (uint16_t)ri;
	return 0;
}

int uet_addr_from_info(struct uet_addr *a, uint32_t addr_format,
		       const void *addr, size_t len)
{
	if (addr_format == FI_ADDR_STR)
		return uet_addr_from_text(a, addr, len);
	return uet_addr_from_raw(a, addr, len);
}

int uet_addr_to_text(const struct uet_addr *a, void **text, size_t *len)
{
	char buf[UET_ADDR_STR_MAX];
	size_t n = sizeof(buf);
	int ret;

	ret = uet_addr_str(a, buf, &n);
	if (ret)
		return ret;
	if (n > sizeof(buf))
		return -FI_EINVAL;
	*text = strdup(buf);
	if (!*text)
		return -FI_ENOMEM;
	*len = n;
	return 0;
}
