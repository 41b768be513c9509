/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Local interface addresses as uet offers them: which ones, in what
 * order, and the fabric each belongs to.
 *
 * One fabric per IP subnet, named "<network>/<prefix length>" (as
 * libfabric's tcp provider names them): addresses on different subnets
 * may not reach each other, and applications that spread processes over
 * the infos fi_getinfo returns (Open MPI's OFI components) keep to the
 * fabric of the first one.
 *
 * Order without a destination: IPv4 interface addresses, then global
 * IPv6, then link-local IPv6, loopback last; within a class, the
 * kernel's interface order.  With a destination: the address the
 * kernel's routing picks as source for it first, then loopback for a
 * loopback destination and addresses on the destination's subnet, then
 * the rest, each group in the order above.
 */
#ifndef UET_IFACE_H
#define UET_IFACE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "uet_addr.h"
#include "uet_env.h"

/* "ffff:...:ffff/128" */
#define UET_IFACE_FABRIC_LEN	(INET6_ADDRSTRLEN + 5)

/* The class of an address, in offer order. */
enum uet_iface_class {
	UET_IFACE_IPV4 = 0,
	UET_IFACE_IPV6_GLOBAL,
	UET_IFACE_IPV6_LINK,
	UET_IFACE_LOOPBACK,
};

/* One usable local address. */
struct uet_iface {
	char name[IF_NAMESIZE];
	char fabric[UET_IFACE_FABRIC_LEN];
	struct uet_addr addr;		/* port 0, pid 0, ri 0 */
	struct uet_addr mask;		/* same family; zero if unknown */
	bool loopback;
	size_t mtu;			/* IP MTU of the interface */
	int rank;			/* sort key; 0 best */
};

/*
 * Every address of an up interface named in list (a comma-separated
 * list of interface names; NULL or "" for all) of the family want
 * (AF_UNSPEC for both), with fabric names filled in, in getifaddrs
 * order.  *ifsp is the caller's to free.  0, -FI_ENOMEM or -FI_ENODATA.
 */
int uet_iface_get(const char *list, int want, struct uet_iface **ifsp,
		  size_t *np);

/* An IPv6 address of an interface (uet_iface_nl.c). */
struct uet_iface_v6_addr {
	uint32_t ifindex;
	struct in6_addr addr;
	uint32_t flags;			/* IFA_F_* */
};

/*
 * The IPv6 addresses of this network namespace that bind() refuses
 * (EADDRNOTAVAIL): still tentative (duplicate address detection runs,
 * about a second after a link comes up; optimistic ones excepted) or
 * DAD failed.  Asks rtnetlink (RTM_GETADDR), bounded by a second.
 * *out is the caller's to free.  0, -FI_ENOMEM, -FI_ENOSYS (no
 * netlink), -FI_EIO or -FI_ETIMEDOUT.
 */
int uet_iface_v6_unusable(struct uet_iface_v6_addr **out, size_t *np);
/*
 * The dump behind uet_iface_v6_unusable on fd, a NETLINK_ROUTE socket
 * (with a receive timeout): the RTM_GETADDR request of sequence number
 * seq, then its answer read until NLMSG_DONE, within a second; datagrams
 * not from the kernel are dropped, a truncated one is -FI_EIO.  Same
 * results.
 */
int uet_iface_nl_dump(int fd, uint32_t seq, struct uet_iface_v6_addr **out,
		      size_t *np);
/* IFA_F_* flags of an address that cannot be bound. */
bool uet_iface_nl_flags_unusable(uint32_t flags);
/*
 * One read of an RTM_GETADDR dump (buf, len bytes; answers to seq and
 * the socket's port id portid only): the unusable IPv6 addresses
 * appended to *v (*n of *cap).
 * 1 at the dump's end (NLMSG_DONE), 0 more to read, -FI_EIO the kernel
 * answered an error, -FI_EINVAL a malformed message, -FI_ENOMEM.
 */
int uet_iface_nl_parse(void *buf, size_t len, uint32_t seq, uint32_t portid,
		       struct uet_iface_v6_addr **v, size_t *n, size_t *cap);
struct sockaddr_nl;
/* A datagram's sender (from recvmsg, len bytes) is the kernel: port id
 * 0.  Other sockets (with CAP_NET_ADMIN) can send to ours too. */
bool uet_iface_nl_from_kernel(const struct sockaddr_nl *from,
			      socklen_t len);

/* Fill ifc->fabric from its address and mask (pure: for tests too). */
void uet_iface_set_fabric(struct uet_iface *ifc);

/*
 * FI_UET_FABRIC: what one fabric spans.  "subnet" (the default): one
 * fabric per IP subnet, as above.  "routed": every IPv4 address outside
 * loopback is in one fabric named "uet-ipv4", every global IPv6 address
 * in "uet-ipv6" (link-local and loopback addresses keep their subnet's
 * name): for hosts whose interfaces reach each other's subnets through
 * routing, such as multi-rail hosts with one subnet per rail, so that a
 * client that keeps the first fabric's infos only (aws-ofi-nccl) sees
 * every rail (docs/nccl.md).
 */
enum uet_iface_scope {
	UET_IFACE_SCOPE_SUBNET = 0,
	UET_IFACE_SCOPE_ROUTED,
};
extern const struct uet_env_var uet_iface_env_fabric;
#define UET_IFACE_FABRIC_IPV4	"uet-ipv4"
#define UET_IFACE_FABRIC_IPV6	"uet-ipv6"
/* Rename ifc->fabric (set by uet_iface_set_fabric) for scope (pure). */
void uet_iface_scope_fabric(struct uet_iface *ifc, enum uet_iface_scope scope);

/* The offer class of an address (pure). */
enum uet_iface_class uet_iface_class_of(const struct uet_iface *ifc);

/*
 * Keep the addresses of family (AF_UNSPEC: all) and sort them into the
 * order above (stable).  dest may be NULL; route is the source address
 * the kernel would use for dest (NULL when there is none or no dest).
 * Returns how many are kept (at the front of ifs).
 */
size_t uet_iface_order(struct uet_iface *ifs, size_t n, int family,
		       const struct uet_addr *dest,
		       const struct uet_addr *route);

/* Is the IP of d inside the subnet of ifc? */
bool uet_iface_on_subnet(const struct uet_iface *ifc,
			 const struct uet_addr *d);

/* The source address the kernel's routing picks for d (a UDP connect()
 * sends nothing).  false when there is no route. */
bool uet_iface_route_src(const struct uet_addr *d, struct uet_addr *src);

/* Is name the fabric name of some address uet offers now?  (The legacy
 * name "uet" stands for any of them.) */
bool uet_iface_fabric_known(const char *name);

#endif /* UET_IFACE_H */
