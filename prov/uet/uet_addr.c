/* SPDX-License-Identifier: BSD-2-Clause */
/* Endpoint addresses: raw sockaddr form, text form, resolution. */
#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_addr.h"
#include "uet_byteorder.h"

/* sin_zero: pid at 0, ri at 2, the wire profile at 4, zero from 5 on. */
#define UET_ADDR_SIN_PID	0
#define UET_ADDR_SIN_RI		2
#define UET_ADDR_SIN_WIRE	4
#define UET_ADDR_SIN_RSVD	5
/* sin6_flowinfo (host order): the wire profile in 27..24, pid in 23..12,
 * ri in 11..0. */
#define UET_ADDR_FLOW_WIRE_SHIFT 24
#define UET_ADDR_FLOW_WIRE	0x0f000000u
#define UET_ADDR_FLOW_RSVD	0xf0000000u

static bool uet_addr_id_ok(uint16_t id)
{
	return id <= UET_ADDR_ID_MAX;
}

static int uet_addr_from_sin(struct uet_addr *a, const void *raw)
{
	struct sockaddr_in sin;
	const uint8_t *z;
	size_t i;

	memcpy(&sin, raw, sizeof(sin));
	z = (const uint8_t *)sin.sin_zero;
	for (i = UET_ADDR_SIN_RSVD; i < sizeof(sin.sin_zero); i++)
		if (z[i])
			return -FI_EINVAL;
	a->pid = uet_get_be16(z + UET_ADDR_SIN_PID);
	a->ri = uet_get_be16(z + UET_ADDR_SIN_RI);
	a->wire = z[UET_ADDR_SIN_WIRE];
	if (!uet_addr_id_ok(a->pid) || !uet_addr_id_ok(a->ri) ||
	    a->wire > FI_UET_WIRE_UE)
		return -FI_EINVAL;
	memset(&a->u, 0, sizeof(a->u));
	a->u.sin.sin_family = AF_INET;
	a->u.sin.sin_port = sin.sin_port;
	a->u.sin.sin_addr = sin.sin_addr;
	a->len = sizeof(a->u.sin);
	return 0;
}

static int uet_addr_from_sin6(struct uet_addr *a, const void *raw)
{
	struct sockaddr_in6 sin6;
	uint32_t flow;

	memcpy(&sin6, raw, sizeof(sin6));
	flow = ntohl(sin6.sin6_flowinfo);
	if (flow & UET_ADDR_FLOW_RSVD)
		return -FI_EINVAL;
	a->pid = (uint16_t)(flow >> UET_ADDR_ID_BITS & UET_ADDR_ID_MAX);
	a->ri = (uint16_t)(flow & UET_ADDR_ID_MAX);
	a->wire = (uint8_t)((flow & UET_ADDR_FLOW_WIRE) >>
			    UET_ADDR_FLOW_WIRE_SHIFT);
	if (a->wire > FI_UET_WIRE_UE)
		return -FI_EINVAL;
	memset(&a->u, 0, sizeof(a->u));
	a->u.sin6.sin6_family = AF_INET6;
	a->u.sin6.sin6_port = sin6.sin6_port;
	a->u.sin6.sin6_addr = sin6.sin6_addr;
	a->u.sin6.sin6_scope_id = sin6.sin6_scope_id;
	a->len = sizeof(a->u.sin6);
	return 0;
}

int uet_addr_from_raw(struct uet_addr *a, const void *raw, size_t len)
{
	struct uet_addr tmp;
	sa_family_t family;
	int ret;

	if (!a || !raw || len < sizeof(family))
		return -FI_EINVAL;
	memcpy(&family, (const uint8_t *)raw +
	       offsetof(struct sockaddr, sa_family), sizeof(family));
	switch (family) {
	case AF_INET:
		if (len < sizeof(struct sockaddr_in))
			return -FI_EINVAL;
		ret = uet_addr_from_sin(&tmp, raw);
		break;
	case AF_INET6:
		if (len < sizeof(struct sockaddr_in6))
			return -FI_EINVAL;
		ret = uet_addr_from_sin6(&tmp, raw);
		break;
	default:
		return -FI_EINVAL;
	}
	if (ret)
		return ret;
	*a = tmp;
	return 0;
}

const char *uet_wire_name(uint8_t wire)
{
	switch (wire) {
	case FI_UET_WIRE_UEPLUS:
		return "ueplus";
	case FI_UET_WIRE_UE:
		return "ue";
	default:
		return "unspecified";
	}
}

size_t uet_addr_to_raw(const struct uet_addr *a, void *raw, size_t len)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	uint8_t *z;

	if (!raw || len < a->len)
		return a->len;
	if (a->u.sa.sa_family == AF_INET) {
		sin = a->u.sin;
		z = (uint8_t *)sin.sin_zero;
		memset(z, 0, sizeof(sin.sin_zero));
		uet_put_be16(z + UET_ADDR_SIN_PID, a->pid);
		uet_put_be16(z + UET_ADDR_SIN_RI, a->ri);
		z[UET_ADDR_SIN_WIRE] = a->wire;
		memcpy(raw, &sin, sizeof(sin));
	} else {
		sin6 = a->u.sin6;
		sin6.sin6_flowinfo = htonl((uint32_t)a->wire <<
					   UET_ADDR_FLOW_WIRE_SHIFT |
					   (uint32_t)a->pid << UET_ADDR_ID_BITS |
					   a->ri);
		memcpy(raw, &sin6, sizeof(sin6));
	}
	return a->len;
}

int uet_addr_str(const struct uet_addr *a, char *buf, size_t *len)
{
	char ip[INET6_ADDRSTRLEN];
	char scope[16] = "";
	int n;

	if (!a || !len || (*len && !buf))
		return -FI_EINVAL;
	switch (a->u.sa.sa_family) {
	case AF_INET:
		inet_ntop(AF_INET, &a->u.sin.sin_addr, ip, sizeof(ip));
		n = snprintf(buf, *len, "uet://%s:%u/%u/%u", ip,
			     (unsigned int)uet_addr_port(a), a->pid, a->ri);
		break;
	case AF_INET6:
		inet_ntop(AF_INET6, &a->u.sin6.sin6_addr, ip, sizeof(ip));
		if (a->u.sin6.sin6_scope_id)
			snprintf(scope, sizeof(scope), "%%%u",
				 (unsigned int)a->u.sin6.sin6_scope_id);
		n = snprintf(buf, *len, "uet://[%s%s]:%u/%u/%u", ip, scope,
			     (unsigned int)uet_addr_port(a), a->pid, a->ri);
		break;
	default:
		return -FI_EINVAL;
	}
	if (n < 0)
		return -FI_EINVAL;
	*len = (size_t)n + 1;
	return 0;
}

int uet_addr_resolve(const char *node, const char *service, int family,
		     bool numeric, struct uet_addr *a)
{
	struct addrinfo hints, *res, *ai;
	int ret;

	if (!a || (!node && !service) ||
	    (family != AF_UNSPEC && family != AF_INET && family != AF_INET6))
		return -FI_EINVAL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = (numeric ? AI_NUMERICHOST : 0) |
			 (node ? 0 : AI_PASSIVE);
	ret = getaddrinfo(node, service, &hints, &res);
	if (ret)
		return ret == EAI_MEMORY ? -FI_ENOMEM : -FI_ENODATA;
	ret = -FI_ENODATA;
	for (ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		memset(a, 0, sizeof(*a));
		memcpy(&a->u, ai->ai_addr, ai->ai_addrlen);
		a->len = ai->ai_addrlen;
		/* getaddrinfo leaves flowinfo zero; keep the contract. */
		if (ai->ai_family == AF_INET6)
			a->u.sin6.sin6_flowinfo = 0;
		ret = 0;
		break;
	}
	freeaddrinfo(res);
	return ret;
}

static int uet_addr_cmp_num(uint64_t x, uint64_t y)
{
	return x < y ? -1 : x > y;
}

int uet_addr_cmp_ip(const struct uet_addr *a, const struct uet_addr *b)
{
	int ret;

	ret = uet_addr_cmp_num(a->u.sa.sa_family, b->u.sa.sa_family);
	if (ret)
		return ret;
	if (a->u.sa.sa_family == AF_INET)
		return memcmp(&a->u.sin.sin_addr, &b->u.sin.sin_addr,
			      sizeof(a->u.sin.sin_addr));
	ret = memcmp(&a->u.sin6.sin6_addr, &b->u.sin6.sin6_addr,
		     sizeof(a->u.sin6.sin6_addr));
	if (ret)
		return ret;
	return uet_addr_cmp_num(a->u.sin6.sin6_scope_id,
				b->u.sin6.sin6_scope_id);
}

int uet_addr_cmp(const struct uet_addr *a, const struct uet_addr *b)
{
	int ret;

	ret = uet_addr_cmp_ip(a, b);
	if (!ret)
		ret = uet_addr_cmp_num(uet_addr_port(a), uet_addr_port(b));
	if (!ret)
		ret = uet_addr_cmp_num(a->pid, b->pid);
	if (!ret)
		ret = uet_addr_cmp_num(a->ri, b->ri);
	return ret;
}

uint32_t uet_addr_fi_format(const struct uet_addr *a)
{
	switch (a->u.sa.sa_family) {
	case AF_INET:
		return FI_SOCKADDR_IN;
	case AF_INET6:
		return FI_SOCKADDR_IN6;
	default:
		return FI_FORMAT_UNSPEC;
	}
}

uint16_t uet_addr_port(const struct uet_addr *a)
{
	return ntohs(a->u.sa.sa_family == AF_INET ? a->u.sin.sin_port :
		     a->u.sin6.sin6_port);
}

void uet_addr_set_port(struct uet_addr *a, uint16_t port)
{
	if (a->u.sa.sa_family == AF_INET)
		a->u.sin.sin_port = htons(port);
	else
		a->u.sin6.sin6_port = htons(port);
}

bool uet_addr_is_loopback(const struct uet_addr *a)
{
	if (a->u.sa.sa_family == AF_INET)
		return (ntohl(a->u.sin.sin_addr.s_addr) >> 24) == 127;
	return IN6_IS_ADDR_LOOPBACK(&a->u.sin6.sin6_addr);
}

/* Add inc to the big-endian number in bytes[0..n); -FI_EINVAL on carry
 * out of the top byte (bytes unchanged then). */
static int uet_addr_add_be(uint8_t *bytes, size_t n, uint32_t inc)
{
	uint8_t tmp[16];
	uint64_t carry = inc;
	size_t i;

	memcpy(tmp, bytes, n);
	for (i = n; i-- > 0 && carry;) {
		carry += tmp[i];
		tmp[i] = (uint8_t)carry;
		carry >>= 8;
	}
	if (carry)
		return -FI_EINVAL;
	memcpy(bytes, tmp, n);
	return 0;
}

int uet_addr_add(struct uet_addr *a, uint32_t node_inc, uint32_t svc_inc)
{
	struct uet_addr tmp = *a;
	uint32_t port = uet_addr_port(a);
	int ret;

	if (svc_inc > UINT16_MAX - port)
		return -FI_EINVAL;
	if (a->u.sa.sa_family == AF_INET)
		ret = uet_addr_add_be((uint8_t *)&tmp.u.sin.sin_addr,
				      sizeof(tmp.u.sin.sin_addr), node_inc);
	else
		ret = uet_addr_add_be((uint8_t *)&tmp.u.sin6.sin6_addr,
				      sizeof(tmp.u.sin6.sin6_addr), node_inc);
	if (ret)
		return ret;
	uet_addr_set_port(&tmp, (uint16_t)(port + svc_inc));
	*a = tmp;
	return 0;
}

int uet_addr_getname(const struct uet_addr *base, uint16_t pid, uint16_t ri,
		     void *addr, size_t *addrlen)
{
	struct uet_addr a = *base;
	size_t need;

	if (!addrlen)
		return -FI_EINVAL;
	a.pid = pid;
	a.ri = ri;
	need = uet_addr_to_raw(&a, addr, addr ? *addrlen : 0);
	if (!addr || *addrlen < need) {
		*addrlen = need;
		return -FI_ETOOSMALL;
	}
	*addrlen = need;
	return 0;
}
