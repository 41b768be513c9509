/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fabric address helpers shared by the link implementations; see
 * uet_link.h.  Addresses are numeric only: no name service is ever
 * consulted, so parsing never blocks.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_link.h"

/* Longest host text accepted: an IPv6 literal with brackets and a scope. */
#define UET_LINK_HOST_MAX	(INET6_ADDRSTRLEN + IF_NAMESIZE + 3)

/*
 * An IPv6 scope ("%eth0" or "%2"): a decimal interface index or an
 * interface name.  Returns the index, or 0 when it names nothing.
 */
static uint32_t uet_link_scope_id(const char *scope)
{
	unsigned long v;
	char *end;

	if (!*scope)
		return 0;
	if (scope[0] >= '0' && scope[0] <= '9') {
		errno = 0;
		v = strtoul(scope, &end, 10);
		if (errno || *end || v == 0 || v > UINT32_MAX)
			return 0;
		return (uint32_t)v;
	}
	return if_nametoindex(scope);
}

int uet_link_addr_from_str(struct uet_link_addr *addr, const char *host,
			   uint16_t port)
{
	char text[UET_LINK_HOST_MAX];
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	bool bracketed = false;
	size_t len;
	char *pct;

	if (!addr || !host)
		return -EINVAL;
	len = strlen(host);
	/* Accept "[v6]" as well as "v6", as uet_link_addr_to_str writes. */
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']') {
		bracketed = true;
		host++;
		len -= 2;
	}
	if (len == 0 || len >= sizeof(text))
		return -EINVAL;
	memcpy(text, host, len);
	text[len] = '\0';

	memset(&sin, 0, sizeof(sin));
	if (inet_pton(AF_INET, text, &sin.sin_addr) == 1) {
		if (bracketed)
			return -EINVAL;		/* "[1.2.3.4]" */
		sin.sin_family = AF_INET;
		sin.sin_port = htons(port);
		memset(addr, 0, sizeof(*addr));
		memcpy(&addr->ss, &sin, sizeof(sin));
		addr->len = sizeof(sin);
		return 0;
	}

	memset(&sin6, 0, sizeof(sin6));
	pct = strchr(text, '%');
	if (pct) {
		*pct = '\0';
		sin6.sin6_scope_id = uet_link_scope_id(pct + 1);
		if (!sin6.sin6_scope_id)
			return -EINVAL;
	}
	if (inet_pton(AF_INET6, text, &sin6.sin6_addr) != 1)
		return -EINVAL;
	sin6.sin6_family = AF_INET6;
	sin6.sin6_port = htons(port);
	memset(addr, 0, sizeof(*addr));
	memcpy(&addr->ss, &sin6, sizeof(sin6));
	addr->len = sizeof(sin6);
	return 0;
}

int uet_link_addr_to_str(const struct uet_link_addr *addr, char *buf,
			 size_t len)
{
	char host[INET6_ADDRSTRLEN];
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	int n;

	if (!addr || !buf)
		return -EINVAL;
	switch (addr->ss.ss_family) {
	case AF_INET:
		if (addr->len < sizeof(sin))
			return -EINVAL;
		memcpy(&sin, &addr->ss, sizeof(sin));
		if (!inet_ntop(AF_INET, &sin.sin_addr, host, sizeof(host)))
			return -EINVAL;
		n = snprintf(buf, len, "%s:%u", host, ntohs(sin.sin_port));
		break;
	case AF_INET6:
		if (addr->len < sizeof(sin6))
			return -EINVAL;
		memcpy(&sin6, &addr->ss, sizeof(sin6));
		if (!inet_ntop(AF_INET6, &sin6.sin6_addr, host, sizeof(host)))
			return -EINVAL;
		if (sin6.sin6_scope_id)
			n = snprintf(buf, len, "[%s%%%u]:%u", host,
				     (unsigned int)sin6.sin6_scope_id,
				     ntohs(sin6.sin6_port));
		else
			n = snprintf(buf, len, "[%s]:%u", host,
				     ntohs(sin6.sin6_port));
		break;
	default:
		return -EAFNOSUPPORT;
	}
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return -ENOSPC;
	}
	return 0;
}

/* a and b name the same host (IP address, and IPv6 scope), and when
 * with_port is set the same UDP port. */
static bool link_addr_cmp(const struct uet_link_addr *a,
			  const struct uet_link_addr *b, bool with_port)
{
	struct sockaddr_in6 a6, b6;
	struct sockaddr_in a4, b4;

	if (a->ss.ss_family != b->ss.ss_family)
		return false;
	switch (a->ss.ss_family) {
	case AF_INET:
		if (a->len < sizeof(a4) || b->len < sizeof(b4))
			return false;
		memcpy(&a4, &a->ss, sizeof(a4));
		memcpy(&b4, &b->ss, sizeof(b4));
		return (!with_port || a4.sin_port == b4.sin_port) &&
		       a4.sin_addr.s_addr == b4.sin_addr.s_addr;
	case AF_INET6:
		if (a->len < sizeof(a6) || b->len < sizeof(b6))
			return false;
		memcpy(&a6, &a->ss, sizeof(a6));
		memcpy(&b6, &b->ss, sizeof(b6));
		return (!with_port || a6.sin6_port == b6.sin6_port) &&
		       a6.sin6_scope_id == b6.sin6_scope_id &&
		       !memcmp(&a6.sin6_addr, &b6.sin6_addr,
			       sizeof(a6.sin6_addr));
	default:
		return false;
	}
}

int uet_link_addr_key(const struct uet_link_addr *a,
		      uint8_t key[UET_LINK_ADDR_KEY_LEN])
{
	struct sockaddr_in6 a6;
	struct sockaddr_in a4;
	size_t n;

	memset(key, 0, UET_LINK_ADDR_KEY_LEN);
	uet_put_be16(key, a->ss.ss_family);
	switch (a->ss.ss_family) {
	case AF_INET:
		if (a->len < sizeof(a4))
			return -EAFNOSUPPORT;
		memcpy(&a4, &a->ss, sizeof(a4));
		memcpy(key + 2, &a4.sin_port, 2);
		memcpy(key + 4, &a4.sin_addr, 4);
		return 0;
	case AF_INET6:
		if (a->len < sizeof(a6))
			return -EAFNOSUPPORT;
		memcpy(&a6, &a->ss, sizeof(a6));
		memcpy(key + 2, &a6.sin6_port, 2);
		memcpy(key + 4, &a6.sin6_addr, 16);
		uet_put_be32(key + 20, a6.sin6_scope_id);
		return 0;
	default:
		n = a->len < UET_LINK_ADDR_KEY_LEN - 2 ?
		    a->len : UET_LINK_ADDR_KEY_LEN - 2;
		memcpy(key + 2, &a->ss, n);
		return -EAFNOSUPPORT;
	}
}

bool uet_link_addr_eq(const struct uet_link_addr *a,
		      const struct uet_link_addr *b)
{
	return link_addr_cmp(a, b, true);
}

bool uet_link_addr_same_host(const struct uet_link_addr *a,
			      const struct uet_link_addr *b)
{
	return link_addr_cmp(a, b, false);
}

/* The UDP port of a (host order), 0 for another family. */
static uint16_t link_addr_port(const struct uet_link_addr *a)
{
	struct sockaddr_in6 a6;
	struct sockaddr_in a4;

	if (a->ss.ss_family == AF_INET && a->len >= sizeof(a4)) {
		memcpy(&a4, &a->ss, sizeof(a4));
		return ntohs(a4.sin_port);
	}
	if (a->ss.ss_family == AF_INET6 && a->len >= sizeof(a6)) {
		memcpy(&a6, &a->ss, sizeof(a6));
		return ntohs(a6.sin6_port);
	}
	return 0;
}

bool uet_link_addr_entropy_of(const struct uet_link_addr *peer,
			      const struct uet_link_addr *src)
{
	uint32_t p = link_addr_port(peer), s = link_addr_port(src);

	if (!link_addr_cmp(peer, src, false))
		return false;
	return s == p || (s > p && s - p <= UET_LINK_ENT_SPAN);
}

/* ---- unreachable-destination reports ---- */

void uet_link_errq_push(struct uet_link_errq *q,
			const struct uet_link_addr *dst, int err, bool local)
{
	struct uet_link_err *e;
	unsigned int i;

	for (i = 0; i < q->n; i++) {
		e = &q->ev[(q->head + i) % UET_LINK_ERRQ_LEN];
		if (uet_link_addr_eq(&e->dst, dst)) {
			/* A local verdict outranks ICMP evidence. */
			if (local || !e->local) {
				e->err = err;
				e->local = local;
			}
			return;
		}
	}
	if (q->n == UET_LINK_ERRQ_LEN) {
		q->dropped++;
		return;
	}
	e = &q->ev[(q->head + q->n) % UET_LINK_ERRQ_LEN];
	e->dst = *dst;
	e->err = err;
	e->local = local;
	q->n++;
}

unsigned int uet_link_errq_pop(struct uet_link_errq *q,
			       struct uet_link_err *ev, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n && q->n; k++) {
		ev[k] = q->ev[q->head];
		q->head = (q->head + 1) % UET_LINK_ERRQ_LEN;
		q->n--;
	}
	return k;
}
