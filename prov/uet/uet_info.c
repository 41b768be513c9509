/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fi_getinfo for uet: enumerate local interface addresses, build one
 * fi_info per (address x endpoint type), and check each against the hints.
 *
 * Hints follow libfabric's conventions (fi_getinfo(3)): a field left 0 is
 * "no preference"; a size, count or limit asks for at least that much; a
 * bit mask of capabilities, orders or flags asks for those bits; mode and
 * mr_mode bits are what the application can cope with.  Where the hints
 * ask for something uet cannot do, the info is dropped: never a different
 * answer than the one asked for.  Each field is checked and set in one
 * place (uet_info_apply_*), so adding a capability is a change to
 * UET_CAPS in uet_info.h plus the attributes it brings.
 *
 * Capabilities: RDM endpoints offer messaging, RMA and atomics
 * (UET_CAPS_RDM); DGRAM endpoints (UUD, unreliable) messaging only.
 * FI_RMA_EVENT is given when asked for (or when the hints name no
 * capability): it makes the device report every RMA landing at the
 * endpoint, which costs a notification each.
 *
 * Memory registration: uet requires no mode bit, so for API 1.5 and
 * later the info's mr_mode is 0 whatever the hints offer (fi_mr(3): a
 * provider clears the bits it does not need): keys are the application's
 * requested keys, remote addresses are offsets into the region, and
 * descriptors are ignored (no FI_MR_LOCAL).  An application that wants
 * provider keys or virtual addresses sets FI_MR_PROV_KEY / FI_MR_VIRT_ADDR
 * in the info it passes to fi_domain (uet_mr.c honours them).  The v1.0
 * values (FI_MR_BASIC, FI_MR_SCALABLE) are accepted alone and returned
 * as asked, as upstream's ofi_check_mr_mode does; API versions before 1.5
 * get FI_MR_SCALABLE unless they ask for FI_MR_BASIC.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_addr.h"
#include "uet_hsi_dev.h"
#include "uet_iface.h"
#include "uet_hmem.h"
#include "uet_info.h"
#include "uet_log.h"
#include "uet_nic.h"
#include "uet_prov.h"

const struct uet_env_var uet_info_env_iface =
	UET_ENV_STR_VAR("iface", NULL,
			"Comma-separated names of the network interfaces uet "
			"offers as domains; unset offers every interface "
			"that is up");
static const struct uet_env_enum uet_info_families[] = {
	{ "any", AF_UNSPEC },
	{ "ipv4", AF_INET },
	{ "ipv6", AF_INET6 },
	{ NULL, 0 },
};
const struct uet_env_var uet_info_env_addr_family =
	UET_ENV_ENUM_VAR("addr_family", AF_UNSPEC, uet_info_families,
			 "Address family of the domains' addresses: any, "
			 "ipv4 or ipv6 (for applications that cannot say, "
			 "e.g. fi_pingpong)");
static const struct uet_env_enum uet_info_wires[] = {
	{ "ueplus", FI_UET_WIRE_UEPLUS },
	{ "ue", FI_UET_WIRE_UE },
	{ NULL, 0 },
};
const struct uet_env_var uet_info_env_wire =
	UET_ENV_ENUM_VAR("wire", FI_UET_WIRE_UEPLUS, uet_info_wires,
			 "Wire profile of the domains: ueplus (UE+, PMR's "
			 "packet formats) or ue (the published UE 1.0.1); "
			 "peers must agree (docs/conformance.md)");
const struct uet_env_var uet_info_env_job_id =
	UET_ENV_UINT_VAR("job_id", 1, 0, UET_JOB_ID_MAX,
			 "JobID (auth_key) of domains whose hints give none");

/* Capability bits that apply to transmit and to receive contexts. */
#define UET_TX_CAP_BITS	(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | \
			 FI_READ | FI_WRITE | FI_SEND | FI_HMEM | \
			 FI_TRIGGER | FI_FENCE | FI_MULTICAST | \
			 FI_RMA_PMEM | FI_NAMED_RX_CTX | FI_COLLECTIVE)
#define UET_RX_CAP_BITS	(FI_MSG | FI_RMA | FI_TAGGED | FI_ATOMIC | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE | FI_RECV | \
			 FI_DIRECTED_RECV | FI_VARIABLE_MSG | \
			 FI_MULTI_RECV | FI_SOURCE | FI_RMA_EVENT | \
			 FI_SOURCE_ERR | FI_HMEM | FI_TRIGGER | \
			 FI_RMA_PMEM | FI_COLLECTIVE)
/* Secondary capabilities (fi_getinfo(3)): offered whether asked or not
 * (FI_RMA_EVENT is secondary too, but uet gives it only when asked: it
 * costs a notification per RMA). */
#define UET_SECONDARY_CAPS (FI_MULTI_RECV | FI_SOURCE | FI_SHARED_AV | \
			    FI_TRIGGER | FI_FENCE | FI_LOCAL_COMM | \
			    FI_REMOTE_COMM | FI_SOURCE_ERR | FI_RMA_PMEM)
#define UET_MSG_DIR_CAPS (FI_SEND | FI_RECV)
#define UET_RMA_DIR_CAPS (FI_READ | FI_WRITE | FI_REMOTE_READ | \
			  FI_REMOTE_WRITE)

/* The v1.0 mr_mode values (enum fi_mr_mode; deprecated in libfabric 2). */
#define UET_MR_V1_BASIC		1
#define UET_MR_V1_SCALABLE	2

#define UET_IPV4_HDR	20
#define UET_IPV6_HDR	40
#define UET_UDP_HDR	8
#define UET_IP_MTU_MAX	65535


/* What node/service/flags/hints say about the addresses. */
struct uet_info_req {
	int family;			/* AF_UNSPEC, AF_INET, AF_INET6 */
	bool has_src;
	struct uet_addr src;		/* the one source asked for */
	uint16_t src_port;		/* for interface addresses */
	bool has_dest;
	struct uet_addr dest;
	/* addresses as text (FI_ADDR_STR): FI_PEER hints of that format or
	 * none, so that the owner's info (lnx takes the core's format)
	 * has a format shm takes too */
	bool text;
};

static int uet_info_refuse(const char *what)
{
	UET_INFO(FI_LOG_CORE, "hints ask for %s, which uet does not offer\n",
		 what);
	return -FI_ENODATA;
}

/* Refused bits, named by fi_tostr (type FI_TYPE_CAPS, FI_TYPE_OP_FLAGS,
 * FI_TYPE_MSG_ORDER). */
static int uet_info_refuse_bits(const char *what, uint64_t bits, int type)
{
	char names[512];

	/* fi_tostr_r is 1.18+; fi_tostr's buffer is per thread in 2.x and
	 * shared in 1.17, so it is copied at once. */
	snprintf(names, sizeof(names), "%s", fi_tostr(&bits, type));
	UET_INFO(FI_LOG_CORE, "hints ask for %s %s(%#llx), which uet does "
		 "not offer\n", what, names, (unsigned long long)bits);
	return -FI_ENODATA;
}

/* A libfabric traffic class (FI_TC_*) or an application's DSCP value. */
static bool uet_info_tclass_valid(uint32_t tc)
{
	return tc == FI_TC_UNSPEC ||
	       (tc >= FI_TC_BEST_EFFORT && tc <= FI_TC_NETWORK_CTRL) ||
	       (tc & ~0x3fu) == FI_TC_DSCP;	/* fi_tc_dscp_set() */
}

/* ---- capabilities ---- */

/*
 * The capabilities returned for hinted caps hint out of avail (hint has
 * been checked to be a subset): the primary ones asked for, every
 * secondary one, and the directions of an operation class named without
 * any direction.  hint 0 takes everything.
 */
static uint64_t uet_info_caps(uint64_t hint, uint64_t avail)
{
	uint64_t caps;

	if (!hint)
		return avail;
	caps = (hint & avail) | (avail & UET_SECONDARY_CAPS);
	if ((caps & (FI_MSG | FI_TAGGED)) && !(caps & UET_MSG_DIR_CAPS))
		caps |= avail & UET_MSG_DIR_CAPS;
	if ((caps & (FI_RMA | FI_ATOMIC)) && !(caps & UET_RMA_DIR_CAPS))
		caps |= avail & UET_RMA_DIR_CAPS;
	return caps;
}

/* ---- interfaces ---- */

/*
 * The interface address that owns src (a link-local IPv6 source without a
 * scope id takes the owner's).  Moves it to ifs[0]; false if none.
 */
static bool uet_info_ifs_owner(struct uet_iface *ifs, size_t n,
			       struct uet_addr *src)
{
	struct uet_addr ip = *src;
	size_t i;

	for (i = 0; i < n; i++) {
		if (ip.u.sa.sa_family == AF_INET6 && !ip.u.sin6.sin6_scope_id)
			ip.u.sin6.sin6_scope_id =
				ifs[i].addr.u.sin6.sin6_scope_id;
		if (!uet_addr_cmp_ip(&ifs[i].addr, &ip)) {
			*src = ip;
			ifs[0] = ifs[i];
			return true;
		}
		ip = *src;
	}
	return false;
}

/* ---- addresses asked for ---- */

static int uet_info_family(uint32_t addr_format, int *family)
{
	switch (addr_format) {
	case FI_FORMAT_UNSPEC:
	case FI_SOCKADDR:
		*family = AF_UNSPEC;
		return 0;
	case FI_SOCKADDR_IN:
		*family = AF_INET;
		return 0;
	case FI_SOCKADDR_IN6:
		*family = AF_INET6;
		return 0;
	default:
		return uet_info_refuse("an address format other than "
				       "FI_SOCKADDR_IN/IN6");
	}
}

/* A hints address: must be a uet address of the family asked for. */
static int uet_info_hint_addr(uint32_t format, const void *raw, size_t len,
			      int family, struct uet_addr *a)
{
	if (uet_addr_from_info(a, format, raw, len) ||
	    (family != AF_UNSPEC && a->u.sa.sa_family != family))
		return uet_info_refuse("an address that is not a uet "
				       "sockaddr of the requested format");
	return 0;
}

/* Whether the hints' addresses are not uet addresses at all. */
static bool uet_info_foreign_addrs(const struct fi_info *hints)
{
	struct uet_addr a;

	if (hints->src_addr &&
	    uet_addr_from_info(&a, hints->addr_format, hints->src_addr,
			       hints->src_addrlen))
		return true;
	if (hints->dest_addr &&
	    uet_addr_from_info(&a, hints->addr_format, hints->dest_addr,
			       hints->dest_addrlen))
		return true;
	return false;
}

static int uet_info_req_init(const char *node, const char *service,
			     uint64_t flags, const struct fi_info *hints,
			     struct uet_info_req *req)
{
	bool numeric = !!(flags & FI_NUMERICHOST);
	struct uet_addr any;
	int ret;

	memset(req, 0, sizeof(*req));
	if ((flags & FI_SOURCE) && !node && !service)
		return -FI_EINVAL;
	if (hints) {
		if ((hints->caps & FI_PEER) &&
		    (hints->addr_format == FI_ADDR_STR ||
		     hints->addr_format == FI_FORMAT_UNSPEC)) {
			req->family = AF_UNSPEC;
			req->text = true;
		} else {
			ret = uet_info_family(hints->addr_format,
					      &req->family);
			if (ret)
				return ret;
		}
		/* A peer's owner (FI_PEER: lnx) passes the application's
		 * hints on, addresses of its own format included: those
		 * are not for uet, which then ignores them. */
		if ((hints->caps & FI_PEER) &&
		    uet_info_foreign_addrs(hints))
			goto skip_addrs;
		if (hints->src_addr) {
			ret = uet_info_hint_addr(hints->addr_format,
						 hints->src_addr,
						 hints->src_addrlen,
						 req->family, &req->src);
			if (ret)
				return ret;
			req->has_src = true;
		}
		if (hints->dest_addr) {
			ret = uet_info_hint_addr(hints->addr_format,
						 hints->dest_addr,
						 hints->dest_addrlen,
						 req->family, &req->dest);
			if (ret)
				return ret;
			req->has_dest = true;
		}
	}
skip_addrs:

	if (node) {
		ret = uet_addr_resolve(node, service, req->family, numeric,
				       (flags & FI_SOURCE) ? &req->src :
				       &req->dest);
		if (ret) {
			UET_INFO(FI_LOG_CORE, "cannot resolve %s:%s (%d)\n",
				 node, service ? service : "", ret);
			return ret;
		}
		if (flags & FI_SOURCE)
			req->has_src = true;
		else
			req->has_dest = true;
	} else if (service) {
		/* A source port for every interface address. */
		ret = uet_addr_resolve(NULL, service, req->family, true, &any);
		if (ret)
			return ret;
		req->src_port = uet_addr_port(&any);
		if (flags & FI_SOURCE)
			req->has_src = false;
	}

	if (req->has_dest) {
		if (req->has_src &&
		    req->src.u.sa.sa_family != req->dest.u.sa.sa_family)
			return uet_info_refuse("source and destination "
					       "addresses of different "
					       "families");
		req->family = req->dest.u.sa.sa_family;
	}
	return 0;
}

/* ---- fi_info attributes, checked against the hints and set ---- */

int uet_info_auth_key_parse(const void *key, size_t size, uint32_t *job,
			    const uint8_t **secret)
{
	struct fi_uet_auth_key k;

	*secret = NULL;
	if (size == FI_UET_AUTH_KEY_JOB_SIZE) {
		memcpy(job, key, sizeof(*job));
	} else if (size == FI_UET_AUTH_KEY_TSS_SIZE) {
		memcpy(&k, key, sizeof(k));
		if (k.flags)
			return -FI_EINVAL;
		*job = k.job_id;
		*secret = (const uint8_t *)key +
			  offsetof(struct fi_uet_auth_key, secret);
	} else {
		return -FI_EINVAL;
	}
	return *job > UET_JOB_ID_MAX ? -FI_EINVAL : 0;
}

static int uet_info_auth_key(const uint8_t *key, size_t size,
			     uint32_t *job, bool *given)
{
	const uint8_t *secret;

	*given = false;
	if (!key && !size)
		return 0;
	if (size != FI_UET_AUTH_KEY_JOB_SIZE &&
	    size != FI_UET_AUTH_KEY_TSS_SIZE)
		return uet_info_refuse("an auth_key size other than 4 or 40");
	if (!key)
		return 0;
	if (uet_info_auth_key_parse(key, size, job, &secret))
		return uet_info_refuse("a JobID of more than 24 bits or "
				       "auth_key flags");
	*given = true;
	return 0;
}

static uint8_t *uet_info_key_dup(uint32_t job)
{
	uint8_t *key = malloc(sizeof(job));

	if (key)
		memcpy(key, &job, sizeof(job));
	return key;
}

/* A copy of a given auth_key (the JobID, or the JobID and secret). */
static uint8_t *uet_info_key_copy(const uint8_t *key, size_t size)
{
	uint8_t *k = malloc(size);

	if (k)
		memcpy(k, key, size);
	return k;
}

/* The fabric name of info is its subnet's; "uet" stands for any. */
static int uet_info_apply_fabric(const struct fi_info *info,
				 const struct fi_fabric_attr *h)
{
	const char *p, *end;
	size_t n = strlen(uet_prov.name);

	if (h->name && strcmp(h->name, UET_FABRIC_NAME) &&
	    strcmp(h->name, info->fabric_attr->name))
		return uet_info_refuse("another fabric name");
	if (h->prov_name) {
		for (p = h->prov_name; ; p = end + 1) {
			end = strchr(p, ';');
			if (!end)
				end = p + strlen(p);
			if ((size_t)(end - p) == n &&
			    !strncasecmp(p, uet_prov.name, n))
				break;
			if (!*end)
				return uet_info_refuse("another provider");
		}
	}
	if (h->prov_version > uet_prov.version)
		return uet_info_refuse("a newer provider version");
	return 0;
}

static bool uet_info_threading_ok(enum fi_threading t)
{
	switch (t) {
	case FI_THREAD_UNSPEC:
	case FI_THREAD_SAFE:
	case FI_THREAD_FID:
	case FI_THREAD_DOMAIN:
	case FI_THREAD_COMPLETION:
	case FI_THREAD_ENDPOINT:
		return true;
	default:
		return false;
	}
}

static int uet_info_apply_progress(enum fi_progress h, enum fi_progress *p)
{
	switch (h) {
	case FI_PROGRESS_UNSPEC:
		return 0;
	case FI_PROGRESS_AUTO:
	case FI_PROGRESS_MANUAL:
		*p = h;
		return 0;
	default:
		return uet_info_refuse("an unknown progress model");
	}
}

static int uet_info_apply_mr_mode(uint32_t version,
				  const struct fi_domain_attr *h, bool hmem,
				  int *mode)
{
	int hint = h ? h->mr_mode : 0;

	if (FI_VERSION_LT(version, FI_VERSION(1, 5))) {
		if (hint != 0 && hint != UET_MR_V1_BASIC &&
		    hint != UET_MR_V1_SCALABLE)
			return uet_info_refuse("an unknown v1.0 mr_mode");
		*mode = hint == UET_MR_V1_BASIC ? UET_MR_V1_BASIC :
			UET_MR_V1_SCALABLE;
		return 0;
	}
	if (hint & (UET_MR_V1_BASIC | UET_MR_V1_SCALABLE)) {
		if (hint != UET_MR_V1_BASIC && hint != UET_MR_V1_SCALABLE)
			return uet_info_refuse("FI_MR_BASIC/FI_MR_SCALABLE "
					       "with other mr_mode bits");
		*mode = hint;
		return 0;
	}
	/* Bits the application supports but uet does not require are
	 * cleared: uet requires none, but FI_MR_HMEM where a GPU runtime
	 * is offered (uet_hmem.h): device buffers that are accessed
	 * remotely must then be registered with their iface. */
	*mode = (hint & FI_MR_HMEM) && hmem && uet_hmem_any() ? FI_MR_HMEM :
		0;
	return 0;
}

static int uet_info_apply_domain(uint32_t version, struct fi_info *info,
				 const struct fi_domain_attr *h)
{
	struct fi_domain_attr *d = info->domain_attr;
	uint8_t *key;
	uint32_t job;
	bool given;
	int ret;

	ret = uet_info_apply_mr_mode(version, h, (info->caps & FI_HMEM) != 0,
				     &d->mr_mode);
	if (ret || !h)
		return ret;
	if (h->name && strcmp(h->name, d->name))
		return uet_info_refuse("another domain (interface) name");
	if (!uet_info_threading_ok(h->threading))
		return uet_info_refuse("an unknown threading model");
	/* Every object locks for itself (FI_THREAD_SAFE), which meets any
	 * model asked for, and the info says the model asked for, as
	 * libfabric's own providers answer (util's fi_alter_domain_attr):
	 * MPICH's ch4:ofi refuses a provider whose info does not return
	 * the FI_THREAD_DOMAIN it asked for.  No lock is skipped for a
	 * weaker model (the device thread of FI_PROGRESS_AUTO and the
	 * endpoint sets of CQs and counters still run beside the
	 * application's threads). */
	if (h->threading != FI_THREAD_UNSPEC)
		d->threading = h->threading;
	ret = uet_info_apply_progress(h->control_progress,
				      &d->control_progress);
	if (!ret)
		ret = uet_info_apply_progress(h->data_progress,
					      &d->data_progress);
	if (ret)
		return ret;
	if (h->resource_mgmt != FI_RM_UNSPEC &&
	    h->resource_mgmt != FI_RM_ENABLED &&
	    h->resource_mgmt != FI_RM_DISABLED)
		return uet_info_refuse("an unknown resource_mgmt");
	if (h->av_type != FI_AV_UNSPEC && h->av_type != FI_AV_TABLE &&
	    h->av_type != FI_AV_MAP)
		return uet_info_refuse("an unknown av_type");
	if (h->av_type != FI_AV_UNSPEC)
		d->av_type = h->av_type;
	if (h->mr_key_size > d->mr_key_size ||
	    h->cq_data_size > d->cq_data_size ||
	    h->cq_cnt > d->cq_cnt || h->ep_cnt > d->ep_cnt ||
	    h->tx_ctx_cnt > d->tx_ctx_cnt || h->rx_ctx_cnt > d->rx_ctx_cnt ||
	    h->max_ep_tx_ctx > d->max_ep_tx_ctx ||
	    h->max_ep_rx_ctx > d->max_ep_rx_ctx ||
	    h->max_ep_stx_ctx > d->max_ep_stx_ctx ||
	    h->max_ep_srx_ctx > d->max_ep_srx_ctx ||
	    h->cntr_cnt > d->cntr_cnt || h->mr_iov_limit > d->mr_iov_limit ||
	    h->max_err_data > d->max_err_data || h->mr_cnt > d->mr_cnt)
		return uet_info_refuse("a domain size or count beyond uet's");
	if (h->caps & ~d->caps)
		return uet_info_refuse_bits("domain capabilities",
					    h->caps & ~d->caps, FI_TYPE_CAPS);
	d->caps = uet_info_caps(h->caps, d->caps);
	/* Traffic classes are a hint: the software NIC carries every class
	 * on its one best-effort queue (UET's TC field is written 0). */
	if (!uet_info_tclass_valid(h->tclass))
		return uet_info_refuse("an unknown traffic class");
	d->tclass = h->tclass;
	ret = uet_info_auth_key(h->auth_key, h->auth_key_size, &job, &given);
	if (ret || !given)
		return ret;
	key = uet_info_key_copy(h->auth_key, h->auth_key_size);
	if (!key)
		return -FI_ENOMEM;
	free(d->auth_key);
	d->auth_key = key;
	d->auth_key_size = h->auth_key_size;
	return 0;
}

static int uet_info_apply_ep(struct fi_info *info, const struct fi_ep_attr *h)
{
	struct fi_ep_attr *e = info->ep_attr;
	uint32_t job;
	bool given;
	int ret;

	if (h->type != FI_EP_UNSPEC && h->type != e->type)
		return uet_info_refuse("another endpoint type");
	if (h->protocol != FI_PROTO_UNSPEC && h->protocol != e->protocol)
		return uet_info_refuse("a protocol");
	if (h->protocol_version > e->protocol_version)
		return uet_info_refuse("a newer protocol version");
	if (h->max_msg_size > e->max_msg_size)
		return uet_info_refuse("a larger max_msg_size");
	if ((info->caps & (FI_RMA | FI_ATOMIC)) &&
	    (h->max_order_raw_size > e->max_order_raw_size ||
	     h->max_order_war_size > e->max_order_war_size ||
	     h->max_order_waw_size > e->max_order_waw_size))
		return uet_info_refuse("RMA ordering sizes");
	/* Tags are 64 bits, all matchable: any layout fits. */
	if (h->mem_tag_format)
		e->mem_tag_format = h->mem_tag_format;
	/* msg_prefix_size is an output (uet needs no FI_MSG_PREFIX). */
	if (h->tx_ctx_cnt > info->domain_attr->max_ep_tx_ctx ||
	    h->rx_ctx_cnt > info->domain_attr->max_ep_rx_ctx)
		return uet_info_refuse("several or shared contexts");
	if (h->tx_ctx_cnt)
		e->tx_ctx_cnt = h->tx_ctx_cnt;
	if (h->rx_ctx_cnt)
		e->rx_ctx_cnt = h->rx_ctx_cnt;
	ret = uet_info_auth_key(h->auth_key, h->auth_key_size, &job, &given);
	if (ret || !given)
		return ret;
	e->auth_key = uet_info_key_copy(h->auth_key, h->auth_key_size);
	e->auth_key_size = h->auth_key_size;
	return e->auth_key ? 0 : -FI_ENOMEM;
}

/* Everything an info's endpoint type offers (before the hints). */
static uint64_t uet_info_type_caps(const struct fi_info *info)
{
	uint64_t caps = info->ep_attr->type == FI_EP_RDM ? UET_CAPS_RDM :
			UET_CAPS_DGRAM;

	return FI_VERSION_LT(info->fabric_attr->api_version, UET_HMEM_API) ?
	       caps & ~FI_HMEM : caps;
}

/* Checks common to tx and rx attributes. */
static int uet_info_apply_queue(uint64_t avail, uint64_t h_caps,
				uint64_t caps_bits,
				uint64_t h_op_flags, uint64_t op_flags,
				uint64_t h_msg_order, uint64_t h_comp_order,
				uint64_t msg_order, uint64_t comp_order)
{
	if (h_caps & caps_bits & ~avail)
		return uet_info_refuse_bits("tx/rx capabilities",
					    h_caps & caps_bits & ~avail,
					    FI_TYPE_CAPS);
	if (h_op_flags & ~op_flags)
		return uet_info_refuse_bits("tx/rx op_flags",
					    h_op_flags & ~op_flags,
					    FI_TYPE_OP_FLAGS);
	if (h_msg_order & ~msg_order)
		return uet_info_refuse_bits("message order",
					    h_msg_order & ~msg_order,
					    FI_TYPE_MSG_ORDER);
	if (h_comp_order & ~comp_order)
		return uet_info_refuse_bits("completion order",
					    h_comp_order & ~comp_order,
					    FI_TYPE_MSG_ORDER);
	return 0;
}

static int uet_info_apply_tx(struct fi_info *info, const struct fi_tx_attr *h)
{
	struct fi_tx_attr *t = info->tx_attr;
	uint64_t hint_caps = h ? h->caps & UET_TX_CAP_BITS : 0;
	int ret;

	if (h) {
		ret = uet_info_apply_queue(uet_info_type_caps(info),
					   h->caps, UET_TX_CAP_BITS,
					   h->op_flags, UET_TX_OP_FLAGS,
					   h->msg_order, h->comp_order,
					   t->msg_order, t->comp_order);
		if (ret)
			return ret;
		if (h->inject_size > t->inject_size || h->size > t->size ||
		    h->iov_limit > t->iov_limit ||
		    h->rma_iov_limit > t->rma_iov_limit)
			return uet_info_refuse("larger tx sizes or limits");
		if (!uet_info_tclass_valid(h->tclass))
			return uet_info_refuse("an unknown tx traffic class");
		t->tclass = h->tclass;
		t->op_flags = h->op_flags;
		if (h->inject_size)
			t->inject_size = h->inject_size;
		if (h->size)
			t->size = h->size;
		if (h->iov_limit)
			t->iov_limit = h->iov_limit;
	}
	t->caps = uet_info_caps(hint_caps & info->caps,
				info->caps & UET_TX_CAP_BITS);
	return 0;
}

static int uet_info_apply_rx(struct fi_info *info, const struct fi_rx_attr *h)
{
	struct fi_rx_attr *r = info->rx_attr;
	uint64_t hint_caps = h ? h->caps & UET_RX_CAP_BITS : 0;
	int ret;

	if (h) {
		ret = uet_info_apply_queue(uet_info_type_caps(info),
					   h->caps, UET_RX_CAP_BITS,
					   h->op_flags, UET_RX_OP_FLAGS,
					   h->msg_order, h->comp_order,
					   r->msg_order, r->comp_order);
		if (ret)
			return ret;
		if (h->total_buffered_recv > r->total_buffered_recv ||
		    h->size > r->size || h->iov_limit > r->iov_limit)
			return uet_info_refuse("larger rx sizes or limits");
		r->op_flags = h->op_flags;
		if (h->size)
			r->size = h->size;
		if (h->iov_limit)
			r->iov_limit = h->iov_limit;
	}
	r->caps = uet_info_caps(hint_caps & info->caps,
				info->caps & UET_RX_CAP_BITS);
	return 0;
}

#define UET_PEER_IOV_LIMIT	4

/*
 * A peer (FI_PEER: lnx) gets infos without an auth_key unless the hints
 * gave one: lnx passes the core's auth_key_size up into its own info and
 * then refuses any size but its own (2.6: fi_endpoint -FI_ENODATA).  The
 * domain then takes FI_UET_JOB_ID's JobID, as for a NULL key.
 */
static void uet_info_peer_no_key(struct fi_info *info,
				 const struct fi_info *hints)
{
	if (!hints->domain_attr || !hints->domain_attr->auth_key_size) {
		free(info->domain_attr->auth_key);
		info->domain_attr->auth_key = NULL;
		info->domain_attr->auth_key_size = 0;
	}
	if (!hints->ep_attr || !hints->ep_attr->auth_key_size) {
		free(info->ep_attr->auth_key);
		info->ep_attr->auth_key = NULL;
		info->ep_attr->auth_key_size = 0;
	}
	/* the same for the iovec limits: lnx 2.6 refuses any above its
	 * own 4 (LNX_IOV_LIMIT) */
	if (info->tx_attr->iov_limit > UET_PEER_IOV_LIMIT)
		info->tx_attr->iov_limit = UET_PEER_IOV_LIMIT;
	if (info->rx_attr->iov_limit > UET_PEER_IOV_LIMIT)
		info->rx_attr->iov_limit = UET_PEER_IOV_LIMIT;
}

/* Check info (uet's defaults) against hints and take what they choose. */
static int uet_info_apply(uint32_t version, struct fi_info *info,
			  const struct fi_info *hints)
{
	int ret;

	if (!hints)
		return uet_info_apply_domain(version, info, NULL);
	if (hints->caps & ~info->caps)
		return uet_info_refuse_bits("capabilities",
					    hints->caps & ~info->caps,
					    FI_TYPE_CAPS);
	info->caps = uet_info_caps(hints->caps, info->caps);
	info->handle = hints->handle;
	if (hints->fabric_attr) {
		ret = uet_info_apply_fabric(info, hints->fabric_attr);
		if (ret)
			return ret;
	}
	ret = uet_info_apply_domain(version, info, hints->domain_attr);
	if (!ret && hints->ep_attr)
		ret = uet_info_apply_ep(info, hints->ep_attr);
	if (!ret)
		ret = uet_info_apply_tx(info, hints->tx_attr);
	if (!ret)
		ret = uet_info_apply_rx(info, hints->rx_attr);
	if (!ret && (info->caps & FI_PEER))
		uet_info_peer_no_key(info, hints);
	return ret;
}

/* ---- building an fi_info ---- */

/* Largest DGRAM message: one UDP payload less the UET headers. */
static size_t uet_info_dgram_max(const struct uet_iface *ifc)
{
	const struct uet_env_var *mtu_var = uet_env_lookup("mtu");
	const struct uet_hsi_dev_ops *ops;
	size_t ip_hdr, ip_mtu, udp = 0;

	/* FI_UET_MTU (the software NIC's, when registered) is the largest
	 * UDP payload; else the interface's IP MTU sets it. */
	if (mtu_var && mtu_var->type == UET_ENV_SIZE)
		udp = (size_t)uet_env_get_size(mtu_var);
	if (!udp) {
		ip_hdr = ifc->addr.u.sa.sa_family == AF_INET ?
			 UET_IPV4_HDR : UET_IPV6_HDR;
		ip_mtu = ifc->mtu < UET_IP_MTU_MAX ? ifc->mtu :
			 UET_IP_MTU_MAX;
		udp = ip_mtu > ip_hdr + UET_UDP_HDR ?
		      ip_mtu - ip_hdr - UET_UDP_HDR : 0;
	}
	/* The backend's link protection (the software NIC's TSS, when
	 * FI_UET_TSS is on or required: 34 bytes) takes its share. */
	uet_prov_backends_init();
	if (!uet_hsi_dev_selected(&ops) && ops->dgram_overhead) {
		size_t ovh = ops->dgram_overhead();

		udp = udp > ovh ? udp - ovh : 0;
	}
	udp = udp > UET_DGRAM_HDR_MAX ? udp - UET_DGRAM_HDR_MAX : 0;
	return udp < UET_DGRAM_MAX_MSG ? udp : UET_DGRAM_MAX_MSG;
}

static int uet_info_set_addr(void **raw, size_t *rawlen,
			     const struct uet_addr *a, bool text)
{
	if (text)
		return uet_addr_to_text(a, raw, rawlen);
	*rawlen = uet_addr_to_raw(a, NULL, 0);
	*raw = malloc(*rawlen);
	if (!*raw)
		return -FI_ENOMEM;
	uet_addr_to_raw(a, *raw, *rawlen);
	return 0;
}

uint8_t uet_info_wire(void)
{
	return (uint8_t)uet_env_get_enum(&uet_info_env_wire);
}

/* uet's defaults for an endpoint of type on interface address ifc. */
static struct fi_info *uet_info_new(uint32_t version,
				    const struct uet_iface *ifc,
				    const struct uet_addr *src,
				    const struct uet_info_req *req,
				    enum fi_ep_type type, size_t max_msg)
{
	struct fi_info *info = fi_allocinfo();
	struct fi_domain_attr *d;
	uint32_t job = (uint32_t)uet_env_get_uint(&uet_info_env_job_id);
	struct uet_addr s;

	if (!info)
		return NULL;
	/* The domain's wire profile: the hints' source address's, else
	 * FI_UET_WIRE; always said in src_addr. */
	s = *src;
	s.wire = req->has_src && req->src.wire ? req->src.wire :
		 uet_info_wire();
	info->caps = type == FI_EP_RDM ? UET_CAPS_RDM : UET_CAPS_DGRAM;
	/* Before 1.9 an application's fi_mr_attr has no iface: no FI_HMEM
	 * (hints asking for it find nothing). */
	if (FI_VERSION_LT(version, UET_HMEM_API))
		info->caps &= ~FI_HMEM;
	info->addr_format = req->text ? FI_ADDR_STR : uet_addr_fi_format(src);
	if (uet_info_set_addr(&info->src_addr, &info->src_addrlen, &s,
			      req->text) ||
	    (req->has_dest &&
	     uet_info_set_addr(&info->dest_addr, &info->dest_addrlen,
			       &req->dest, req->text)))
		goto err_free_info;

	info->tx_attr->caps = info->caps & UET_TX_CAP_BITS;
	/* UUD (DGRAM) is unordered and unreliable: no order to claim. */
	info->tx_attr->msg_order = type == FI_EP_RDM ? UET_MSG_ORDER : 0;
	info->tx_attr->comp_order = UET_COMP_ORDER;
	info->tx_attr->inject_size = max_msg < UET_INJECT_SIZE ? max_msg :
				     UET_INJECT_SIZE;
	info->tx_attr->size = UET_QUEUE_SIZE;
	info->tx_attr->iov_limit = UET_IOV_LIMIT;
	info->tx_attr->rma_iov_limit = type == FI_EP_RDM ? UET_RMA_IOV_LIMIT :
				       0;

	info->rx_attr->caps = info->caps & UET_RX_CAP_BITS;
	info->rx_attr->msg_order = type == FI_EP_RDM ? UET_MSG_ORDER : 0;
	info->rx_attr->comp_order = UET_COMP_ORDER;
	info->rx_attr->size = UET_QUEUE_SIZE;
	info->rx_attr->iov_limit = UET_IOV_LIMIT;

	info->ep_attr->type = type;
	/* 64 tag bits, all usable (applications such as Open MPI's OFI MTL
	 * count the bits from the top of this format). */
	info->ep_attr->mem_tag_format = UET_MEM_TAG_FORMAT;
	info->ep_attr->protocol = FI_PROTO_UNSPEC;
	info->ep_attr->protocol_version = UET_PROTOCOL_VERSION;
	info->ep_attr->max_msg_size = max_msg;
	info->ep_attr->tx_ctx_cnt = 1;
	info->ep_attr->rx_ctx_cnt = 1;
	info->ep_attr->auth_key_size = UET_AUTH_KEY_SIZE;

	d = info->domain_attr;
	d->name = strdup(ifc->name);
	d->auth_key = uet_info_key_dup(job);
	if (!d->name || !d->auth_key)
		goto err_free_info;
	d->auth_key_size = UET_AUTH_KEY_SIZE;
	d->threading = FI_THREAD_SAFE;
	d->control_progress = FI_PROGRESS_MANUAL;
	d->data_progress = FI_PROGRESS_MANUAL;
	d->resource_mgmt = FI_RM_ENABLED;
	d->av_type = FI_AV_UNSPEC;
	d->mr_key_size = UET_MR_KEY_SIZE;
	d->cq_data_size = UET_CQ_DATA_SIZE;
	d->cq_cnt = UET_CQ_CNT;
	d->ep_cnt = UET_EP_CNT;
	d->tx_ctx_cnt = UET_CTX_CNT;
	d->rx_ctx_cnt = UET_CTX_CNT;
	d->max_ep_tx_ctx = UET_EP_CTX_MAX;
	d->max_ep_rx_ctx = UET_EP_CTX_MAX;
	d->cntr_cnt = UET_CNTR_CNT;
	d->mr_iov_limit = UET_MR_IOV_LIMIT;
	d->mr_cnt = UET_MR_CNT;
	d->caps = UET_CAPS_DOMAIN;

	/* prov_name stays NULL: libfabric's core names a core provider's
	 * infos itself (and treats a name already set as a layered one). */
	info->fabric_attr->name = strdup(ifc->fabric);
	if (!info->fabric_attr->name)
		goto err_free_info;
	info->nic = uet_nic_new(UET_NIC_SYSFS_NET, UET_NIC_SYSFS_PCI,
				 ifc->name);
	if (!info->nic)
		goto err_free_info;
	info->fabric_attr->prov_version = uet_prov.version;
	info->fabric_attr->api_version = version;
	return info;

err_free_info:
	fi_freeinfo(info);
	return NULL;
}

/* ---- entry points ---- */

static bool uet_info_type_wanted(const struct fi_info *hints,
				 enum fi_ep_type type)
{
	return !hints || !hints->ep_attr ||
	       hints->ep_attr->type == FI_EP_UNSPEC ||
	       hints->ep_attr->type == type;
}

static int uet_info_build(uint32_t version, const struct fi_info *hints,
			  const struct uet_iface *ifs, size_t n,
			  const struct uet_info_req *req,
			  struct fi_info **head)
{
	static const enum fi_ep_type types[] = { FI_EP_RDM, FI_EP_DGRAM };
	struct fi_info *cur, **tail = head;
	struct uet_addr src;
	size_t t, i, max_msg;
	int ret;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		if (!uet_info_type_wanted(hints, types[t]))
			continue;
		for (i = 0; i < n; i++) {
			if (req->has_src) {
				src = req->src;
			} else {
				src = ifs[i].addr;
				uet_addr_set_port(&src, req->src_port);
			}
			max_msg = types[t] == FI_EP_RDM ?
				  UET_RDM_MAX_MSG_SIZE :
				  uet_info_dgram_max(&ifs[i]);
			if (!max_msg)
				continue;
			cur = uet_info_new(version, &ifs[i], &src, req,
					   types[t], max_msg);
			if (!cur)
				return -FI_ENOMEM;
			ret = uet_info_apply(version, cur, hints);
			if (ret) {
				fi_freeinfo(cur);
				if (ret != -FI_ENODATA)
					return ret;
				continue;
			}
			*tail = cur;
			tail = &cur->next;
		}
	}
	return 0;
}

int uet_info_getinfo(uint32_t version, const char *node, const char *service,
		     uint64_t flags, const struct fi_info *hints,
		     struct fi_info **info)
{
	struct uet_iface *ifs;
	struct uet_info_req req;
	struct uet_addr route;
	size_t n;
	int ret;

	if (!info)
		return -FI_EINVAL;
	*info = NULL;
	ret = uet_info_req_init(node, service, flags, hints, &req);
	if (ret)
		return ret;
	ret = uet_iface_get(uet_env_get_str(&uet_info_env_iface),
			    uet_env_get_enum(&uet_info_env_addr_family),
			    &ifs, &n);
	if (ret)
		return ret;
	if (req.has_src) {
		if (!uet_info_ifs_owner(ifs, n, &req.src)) {
			UET_INFO(FI_LOG_CORE, "the source address is not one "
				 "of an interface uet offers\n");
			ret = -FI_ENODATA;
			goto out_free_ifs;
		}
		n = 1;
	} else {
		n = uet_iface_order(ifs, n, req.family,
				    req.has_dest ? &req.dest : NULL,
				    req.has_dest &&
				    uet_iface_route_src(&req.dest, &route) ?
				    &route : NULL);
	}
	ret = uet_info_build(version, hints, ifs, n, &req, info);
	if (ret) {
		fi_freeinfo(*info);
		*info = NULL;
	} else if (!*info) {
		ret = -FI_ENODATA;
	}
out_free_ifs:
	free(ifs);
	return ret;
}

int uet_info_check(uint32_t version, const struct fi_info *info)
{
	struct fi_info *list = NULL;
	int ret;

	if (!info)
		return -FI_EINVAL;
	/* What getinfo answers for info as hints is what uet can do. */
	ret = uet_info_getinfo(version, NULL, NULL, 0, info, &list);
	fi_freeinfo(list);
	if (ret == -FI_ENOMEM)
		return ret;
	return ret ? -FI_ENODATA : 0;
}
