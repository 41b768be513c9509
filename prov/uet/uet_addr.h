/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Endpoint addresses of the uet provider.
 *
 * A uet endpoint is {IP address, UDP port of the NIC, PIDonFEP, resource
 * index}.  Its libfabric name is a plain sockaddr, so applications that
 * speak FI_SOCKADDR_IN / FI_SOCKADDR_IN6 work unchanged:
 *
 *   IPv4  struct sockaddr_in; sin_zero carries the endpoint:
 *         bytes 0-1 PIDonFEP big-endian, bytes 2-3 resource index
 *         big-endian, byte 4 the wire profile (enum fi_uet_wire: 0 not
 *         said, 1 UE+, 2 UE 1.0.1), bytes 5-7 zero.  An all-zero
 *         sin_zero (any sockaddr an application builds itself) means
 *         pid 0, ri 0, profile not said.
 *   IPv6  struct sockaddr_in6; sin6_flowinfo (network order) carries
 *         wire << 24 | pid << 12 | ri; bits 28-31 are zero.  The scope
 *         id is kept.
 *
 * Both identifiers are 12 bits wide.  The raw (libfabric) form is exactly
 * sizeof(struct sockaddr_in) or sizeof(struct sockaddr_in6) bytes.
 */
#ifndef UET_ADDR_H
#define UET_ADDR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define UET_ADDR_ID_BITS	12
#define UET_ADDR_ID_MAX		((1u << UET_ADDR_ID_BITS) - 1)	/* pid, ri */
/* Room for any raw uet address (fi_getname, AV entries). */
#define UET_ADDR_RAW_MAX	sizeof(struct sockaddr_in6)
/* Room for any uet_addr_str() text, terminating NUL included. */
#define UET_ADDR_STR_MAX	80

struct uet_addr {
	union {
		struct sockaddr sa;
		struct sockaddr_in sin;
		struct sockaddr_in6 sin6;
	} u;		/* plain sockaddr: sin_zero / sin6_flowinfo zero */
	socklen_t len;	/* sizeof(sin) or sizeof(sin6) */
	uint16_t pid;	/* PIDonFEP, 12 bits */
	uint16_t ri;	/* resource index, 12 bits */
	uint8_t wire;	/* enum fi_uet_wire; 0: not said */
};

/*
 * Decode a raw address of len bytes (len may exceed the sockaddr's size,
 * e.g. a sockaddr_storage; the bytes past it are ignored).  -FI_EINVAL for
 * NULL, an unknown family, a short length or non-zero reserved bits.
 */
int uet_addr_from_raw(struct uet_addr *a, const void *raw, size_t len);

/* "ueplus", "ue" or "unspecified" for an enum fi_uet_wire value. */
const char *uet_wire_name(uint8_t wire);

/* Encode a into raw when len suffices; returns the length needed. */
size_t uet_addr_to_raw(const struct uet_addr *a, void *raw, size_t len);

/*
 * fi_getname of an endpoint at base's IP and port with this pid and ri:
 * 0, -FI_ETOOSMALL (*addrlen set to the size needed) or -FI_EINVAL.
 */
int uet_addr_getname(const struct uet_addr *base, uint16_t pid, uint16_t ri,
		     void *addr, size_t *addrlen);

/*
 * Text form for fi_av_straddr: "uet://127.0.0.1:4793/<pid>/<ri>",
 * "uet://[::1]:4793/1/0", with "%<scope id>" inside the brackets when the
 * scope id is set.  Writes at most *len bytes (truncated, NUL-terminated
 * when *len > 0) and sets *len to the size needed, NUL included.
 * Returns 0, or -FI_EINVAL for NULL arguments or an unknown family.
 */
int uet_addr_str(const struct uet_addr *a, char *buf, size_t *len);

/*
 * getaddrinfo(node, service) restricted to family (AF_UNSPEC, AF_INET or
 * AF_INET6); numeric: node must be a numeric address.  node NULL gives the
 * wildcard address.  The first result, with pid 0 and ri 0.  -FI_EINVAL
 * for bad arguments, -FI_ENODATA when nothing resolves, -FI_ENOMEM.
 */
int uet_addr_resolve(const char *node, const char *service, int family,
		     bool numeric, struct uet_addr *a);

/*
 * Order on family, IP address, scope id, port, pid, ri: 0 when the two
 * name the same endpoint, else negative or positive.
 */
int uet_addr_cmp(const struct uet_addr *a, const struct uet_addr *b);

/* Only the IP address (and IPv6 scope id) compared: 0 when equal. */
int uet_addr_cmp_ip(const struct uet_addr *a, const struct uet_addr *b);

/* FI_SOCKADDR_IN or FI_SOCKADDR_IN6 (FI_FORMAT_UNSPEC if neither). */
uint32_t uet_addr_fi_format(const struct uet_addr *a);

/* UDP port, host order. */
uint16_t uet_addr_port(const struct uet_addr *a);
void uet_addr_set_port(struct uet_addr *a, uint16_t port);

/* Loopback address (127.0.0.0/8, ::1)? */
bool uet_addr_is_loopback(const struct uet_addr *a);

/*
 * fi_av_insertsym: add node_inc to the IP address (as one big-endian
 * number) and svc_inc to the port.  -FI_EINVAL, and a unchanged, when
 * either overflows.
 */
int uet_addr_add(struct uet_addr *a, uint32_t node_inc, uint32_t svc_inc);

/*
 * Text forms (FI_ADDR_STR, uet_addr_text.c): uet_addr_str's
 * "uet://<ip>:<port>[/<pid>/<ri>]" and libfabric's
 * "fi_sockaddr_in://<ip>:<port>" and "fi_sockaddr_in6://[<ip>]:<port>"
 * (a "%<scope>" inside the brackets: an interface name or index).  The
 * text must end with a NUL within len bytes.  0 or -FI_EINVAL.
 */
int uet_addr_from_text(struct uet_addr *a, const char *text, size_t len);
/* An fi_info address (src_addr, dest_addr) of format addr_format:
 * text for FI_ADDR_STR, else raw. */
int uet_addr_from_info(struct uet_addr *a, uint32_t addr_format,
		       const void *addr, size_t len);
/* uet_addr_str's text, allocated (*len with the NUL): 0, -FI_ENOMEM or
 * -FI_EINVAL. */
int uet_addr_to_text(const struct uet_addr *a, void **text, size_t *len);

#endif /* UET_ADDR_H */
