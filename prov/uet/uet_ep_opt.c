/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider-specific endpoint options of include/rdma/fi_uet_ext.h:
 * FI_OPT_UET_DELIVERY (the delivery mode of one endpoint's sends, in
 * place of the domain's FI_UET_DELIVERY) and FI_OPT_UET_TCLASS.  Both are
 * set before fi_enable: the mode is a property of the device queue the
 * endpoint opens then.
 */
#include "config.h"

#include <rdma/fi_errno.h>
#include <rdma/fi_uet_ext.h>

#include "uet_prov.h"

static int uet_ep_opt_u32_in(const void *optval, size_t optlen, uint32_t *v)
{
	if (!optval || optlen != sizeof(uint32_t))
		return -FI_EINVAL;
	*v = *(const uint32_t *)optval;
	return 0;
}

static int uet_ep_opt_u32_out(uint32_t v, void *optval, size_t *optlen)
{
	if (!optval || !optlen || *optlen < sizeof(uint32_t))
		return -FI_EINVAL;
	*(uint32_t *)optval = v;
	*optlen = sizeof(uint32_t);
	return 0;
}

static int uet_ep_set_delivery(struct uet_ep *ep, uint32_t v)
{
	if (v != FI_UET_DELIVERY_DEFAULT && v != FI_UET_DELIVERY_RUD &&
	    v != FI_UET_DELIVERY_ROD)
		return -FI_EINVAL;
	if (ep->type == FI_EP_DGRAM) {
		UET_INFO(FI_LOG_EP_CTRL, "FI_OPT_UET_DELIVERY: a datagram "
			 "endpoint always sends UUD\n");
		return -FI_EOPNOTSUPP;
	}
	ep->delivery = v;
	return 0;
}

/* The software NIC sends every packet of the device with one TOS byte
 * (DSCP 0, ECT(0)): only the best-effort class is honoured. */
static int uet_ep_set_tclass(struct uet_ep *ep, uint32_t v)
{
	if (v != FI_TC_UNSPEC && v != FI_TC_BEST_EFFORT) {
		UET_INFO(FI_LOG_EP_CTRL, "FI_OPT_UET_TCLASS 0x%x: only "
			 "FI_TC_BEST_EFFORT is offered\n", v);
		return -FI_EOPNOTSUPP;
	}
	ep->tclass = v;
	return 0;
}

int uet_ep_ext_setopt(struct uet_ep *ep, int optname, const void *optval,
		      size_t optlen)
{
	uint32_t v;
	int ret;

	if (optname != FI_OPT_UET_DELIVERY && optname != FI_OPT_UET_TCLASS)
		return -FI_ENOPROTOOPT;
	ret = uet_ep_opt_u32_in(optval, optlen, &v);
	if (ret)
		return ret;
	if (ep->enabled)
		return -FI_EOPBADSTATE;
	return optname == FI_OPT_UET_DELIVERY ? uet_ep_set_delivery(ep, v) :
	       uet_ep_set_tclass(ep, v);
}

int uet_ep_ext_getopt(struct uet_ep *ep, int optname, void *optval,
		      size_t *optlen)
{
	switch (optname) {
	case FI_OPT_UET_DELIVERY:
		return uet_ep_opt_u32_out(ep->delivery, optval, optlen);
	case FI_OPT_UET_TCLASS:
		return uet_ep_opt_u32_out(ep->tclass, optval, optlen);
	default:
		return -FI_ENOPROTOOPT;
	}
}

uint8_t uet_ep_queue_mode(const struct uet_ep *ep)
{
	if (ep->type == FI_EP_DGRAM)
		return UET_HSI_QUEUE_MODE_UUD;
	switch (ep->delivery) {
	case FI_UET_DELIVERY_RUD:
		return UET_HSI_QUEUE_MODE_RUD;
	case FI_UET_DELIVERY_ROD:
		return UET_HSI_QUEUE_MODE_ROD;
	default:
		return UET_HSI_QUEUE_MODE_DEFAULT;
	}
}
