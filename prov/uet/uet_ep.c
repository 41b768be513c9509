/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Endpoints (FI_EP_RDM over RUD/ROD, FI_EP_DGRAM over UUD): one HSI queue
 * pair of the domain's device, addressed by {device address, PIDonFEP,
 * resource index}.  The data path is in uet_msg.c, the notification
 * consumer in uet_ep_progress.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "uet_clock.h"
#include "uet_fi_no.h"
#include "uet_hmem.h"
#include "uet_info.h"
#include "uet_peer.h"
#include "uet_prov.h"

/* ---- operation table ---- */

/* One more chunk of free operations; -FI_EAGAIN at UET_OP_MAX. */
static int uet_op_grow(struct uet_ep *ep)
{
	uint32_t n = ep->nops >> UET_OP_CHUNK_SHIFT, i;
	struct uet_op **chunks, *c;

	if (ep->nops + UET_OP_CHUNK > UET_OP_MAX)
		return -FI_EAGAIN;
	chunks = realloc(ep->op_chunks, (n + 1) * sizeof(*chunks));
	if (!chunks)
		return -FI_ENOMEM;
	ep->op_chunks = chunks;
	c = calloc(UET_OP_CHUNK, sizeof(*c));
	if (!c)
		return -FI_ENOMEM;
	for (i = 0; i < UET_OP_CHUNK; i++) {
		c[i].idx = ep->nops + i;
		c[i].next_free = i + 1 < UET_OP_CHUNK ? ep->nops + i + 1 :
							 ep->free_head;
	}
	chunks[n] = c;
	ep->free_head = ep->nops;
	ep->nops += UET_OP_CHUNK;
	return 0;
}

struct uet_op *uet_op_alloc(struct uet_ep *ep, enum uet_op_kind kind)
{
	struct uet_op *op;
	uint32_t idx;

	if (ep->free_head == UINT32_MAX && uet_op_grow(ep))
		return NULL;
	op = uet_op_at(ep, ep->free_head);
	ep->free_head = op->next_free;
	idx = op->idx;
	memset(op, 0, sizeof(*op));
	op->idx = idx;
	op->kind = (uint8_t)kind;
	return op;
}

void uet_op_free(struct uet_ep *ep, struct uet_op *op)
{
	if (op->hb) {
		uet_hmem_bounce_free(op->hb);
		op->hb = NULL;
	}
	op->kind = UET_OP_FREE;
	op->next_free = ep->free_head;
	ep->free_head = uet_op_index(ep, op);
}

/* Room for the transmit and receive queue sizes from the start. */
static int uet_ep_ops_init(struct uet_ep *ep)
{
	int ret;

	ep->free_head = UINT32_MAX;
	while (ep->nops < ep->tx_max + ep->rx_max + 64) {
		ret = uet_op_grow(ep);
		if (ret)
			return ret == -FI_EAGAIN ? -FI_EINVAL : ret;
	}
	return 0;
}

static void uet_ep_ops_fini(struct uet_ep *ep)
{
	uint32_t i, j;

	for (i = 0; i < ep->nops >> UET_OP_CHUNK_SHIFT; i++) {
		/* operations still in flight: their bounce buffers */
		for (j = 0; j < UET_OP_CHUNK; j++)
			uet_hmem_bounce_free(ep->op_chunks[i][j].hb);
		free(ep->op_chunks[i]);
	}
	free(ep->op_chunks);
	ep->op_chunks = NULL;
	ep->nops = 0;
}

/* ---- PIDonFEP allocation ---- */

static bool uet_pid_test(const struct uet_domain *d, uint16_t pid)
{
	return d->pid_used[pid / 8] & (1u << (pid % 8));
}

int uet_pid_take(struct uet_domain *d, int want, uint16_t *pid)
{
	int ret = 0;
	unsigned int p;

	uet_lock(&d->lock, UET_LOCK_DOMAIN);
	if (want >= 0) {
		if (uet_pid_test(d, (uint16_t)want))
			ret = -FI_EADDRINUSE;
		else
			p = (unsigned int)want;
	} else {
		for (p = 0; p < 4096 && uet_pid_test(d, (uint16_t)p); p++)
			;
		if (p == 4096)
			ret = -FI_ENOSPC;
	}
	if (!ret) {
		d->pid_used[p / 8] |= (uint8_t)(1u << (p % 8));
		*pid = (uint16_t)p;
	}
	uet_unlock(&d->lock, UET_LOCK_DOMAIN);
	return ret;
}

void uet_pid_put(struct uet_domain *d, uint16_t pid)
{
	uet_lock(&d->lock, UET_LOCK_DOMAIN);
	d->pid_used[pid / 8] &= (uint8_t)~(1u << (pid % 8));
	uet_unlock(&d->lock, UET_LOCK_DOMAIN);
}

/* Does a (source) address name this domain's device?  Port 0 and the
 * unspecified address match any. */
static bool uet_ep_addr_local(const struct uet_domain *d,
			      const struct uet_addr *a)
{
	const struct uet_addr *m = &d->addr;

	if (a->u.sa.sa_family != m->u.sa.sa_family)
		return false;
	if (a->u.sa.sa_family == AF_INET)
		return (!a->u.sin.sin_port ||
			a->u.sin.sin_port == m->u.sin.sin_port) &&
		       (a->u.sin.sin_addr.s_addr == INADDR_ANY ||
			a->u.sin.sin_addr.s_addr == m->u.sin.sin_addr.s_addr);
	return (!a->u.sin6.sin6_port ||
		a->u.sin6.sin6_port == m->u.sin6.sin6_port) &&
	       (IN6_IS_ADDR_UNSPECIFIED(&a->u.sin6.sin6_addr) ||
		!memcmp(&a->u.sin6.sin6_addr, &m->u.sin6.sin6_addr,
			sizeof(struct in6_addr)));
}

/* ---- enable / close ---- */

static int uet_ep_enable(struct uet_ep *ep)
{
	struct uet_domain *d = ep->domain;
	struct uet_hsi_queue_attr qa;
	struct uet_hsi_dev_limits lim;
	int ret;

	if (uet_ep_enabled(ep))
		return 0;
	/* A context of a scalable endpoint uses the endpoint's AV. */
	if (!ep->av && ep->sep && ep->sep->av) {
		ep->av = ep->sep->av;
		atomic_fetch_add(&ep->av->ref, 1);
	}
	if (!ep->av) {
		UET_WARN(FI_LOG_EP_CTRL, "enable: no AV bound\n");
		return -FI_ENOAV;
	}
	if ((ep->caps & (FI_SEND | FI_RECV)) && !ep->tx_cq && !ep->rx_cq &&
	    !ep->send_cntr && !ep->recv_cntr) {
		UET_WARN(FI_LOG_EP_CTRL, "enable: no CQ or counter bound\n");
		return -FI_ENOCQ;
	}
	memset(&qa, 0, sizeof(qa));
	qa.cmdq_depth = UET_EP_CMDQ_DEPTH;
	qa.notifq_depth = UET_EP_NOTIFQ_DEPTH;
	qa.pid_on_fep = ep->pid;
	qa.resource_index = ep->ri;
	qa.mode = uet_ep_queue_mode(ep);
	/* A notification for every RMA / atomic that lands here when
	 * something counts them (header_data ones come anyway). */
	qa.rma_events = ep->type == FI_EP_RDM &&
			((ep->caps & FI_RMA_EVENT) || ep->rwrite_cntr ||
			 ep->rread_cntr);
	ret = d->ops->queue_open(d->dev, &qa, &ep->q);
	if (ret) {
		UET_WARN(FI_LOG_EP_CTRL, "opening the queue pair: %s\n",
			 fi_strerror(-ret));
		return ret;
	}
	ep->copy_max = ep->inject_size;
	if (ep->type == FI_EP_RDM && d->ops->get_limits &&
	    !d->ops->get_limits(d->dev, &lim) && lim.inject_max > ep->copy_max)
		ep->copy_max = lim.inject_max < UET_COPY_MAX ? lim.inject_max :
			       UET_COPY_MAX;
	if (ep->type == FI_EP_DGRAM && d->ops->get_limits &&
	    !d->ops->get_limits(d->dev, &lim) &&
	    lim.max_single_pkt < ep->max_msg_size) {
		UET_INFO(FI_LOG_EP_CTRL, "DGRAM messages limited to %zu "
			 "bytes by the device\n", lim.max_single_pkt);
		ep->max_msg_size = lim.max_single_pkt;
		if (ep->msg_max_size > ep->max_msg_size)
			ep->msg_max_size = ep->max_msg_size;
	}
	ret = uet_bind_set_add(d->eps, ep, &d->neps);
	if (ret) {
		d->ops->queue_close(ep->q);
		ep->q = NULL;
		return ret;
	}
	uet_ep_lock(ep);
	ep->enabled = true;
	uet_ep_unlock(ep);
	return 0;
}

/* Give the device time to finish the sends it still reads user memory
 * for; bounded by UET_EP_DRAIN_NS (a dead peer fails them sooner). */
static void uet_ep_drain(struct uet_ep *ep)
{
	uint64_t end = uet_clock_now_ns() + UET_EP_DRAIN_NS;

	for (;;) {
		uet_ep_progress(ep);
		uet_lock(&ep->lock, UET_LOCK_EP);
		if (!ep->tx_inflight) {
			uet_unlock(&ep->lock, UET_LOCK_EP);
			return;
		}
		uet_unlock(&ep->lock, UET_LOCK_EP);
		if (uet_clock_now_ns() >= end)
			break;
		uet_domain_wait(ep->domain, -1, 1);
	}
	UET_WARN(FI_LOG_EP_CTRL, "closing with %u sends still in flight\n",
		 ep->tx_inflight);
}

static void uet_ep_unbind_cntrs(struct uet_ep *ep);

static int uet_ep_close(struct fid *fid)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);

#if UET_HAVE_PEER
	uet_peer_ep_close(ep);
#endif
	if (uet_ep_enabled(ep)) {
		uet_bind_set_del(ep->domain->eps, ep, &ep->domain->neps);
		uet_ep_drain(ep);
		ep->domain->ops->queue_close(ep->q);
		ep->q = NULL;
	}
#if UET_HAVE_PEER
	uet_peer_ep_release(ep);
#endif
	if (ep->tx_cq)
		uet_bind_set_del(&ep->tx_cq->bound, ep, &ep->tx_cq->ref);
	if (ep->rx_cq && ep->rx_cq != ep->tx_cq)
		uet_bind_set_del(&ep->rx_cq->bound, ep, &ep->rx_cq->ref);
	uet_ep_unbind_cntrs(ep);
	if (ep->av)
		atomic_fetch_sub(&ep->av->ref, 1);
	if (ep->eq)
		atomic_fetch_sub(&ep->eq->ref, 1);
	if (ep->sep) {
		if (ep->sep_slot)
			*ep->sep_slot = NULL;
		atomic_fetch_sub(&ep->sep->ref, 1);
	} else
		uet_pid_put(ep->domain, ep->pid);
	atomic_fetch_sub(&ep->domain->ref, 1);
	pthread_mutex_destroy(&ep->lock);
	uet_ep_ops_fini(ep);
	fi_freeinfo(ep->info);
	free(ep);
	return 0;
}

static int uet_ep_bind_cq(struct uet_ep *ep, struct uet_cq *cq,
			  uint64_t flags)
{
	int ret;

	if (flags & ~(uint64_t)(FI_TRANSMIT | FI_RECV |
				FI_SELECTIVE_COMPLETION))
		return -FI_EINVAL;
	if (!(flags & (FI_TRANSMIT | FI_RECV)))
		return -FI_EINVAL;
	if (((flags & FI_TRANSMIT) && ep->tx_cq) ||
	    ((flags & FI_RECV) && ep->rx_cq))
		return -FI_EBUSY;
	ret = uet_bind_set_add(&cq->bound, ep, &cq->ref);
	if (ret)
		return ret;
	if (flags & FI_TRANSMIT) {
		ep->tx_cq = cq;
		ep->tx_selective = flags & FI_SELECTIVE_COMPLETION;
	}
	if (flags & FI_RECV) {
		ep->rx_cq = cq;
		ep->rx_selective = flags & FI_SELECTIVE_COMPLETION;
	}
	return 0;
}

/* The counter slots of an endpoint, in bind-flag order. */
#define UET_EP_NCNTR	6

static struct uet_cntr **uet_ep_cntr_slot(struct uet_ep *ep, unsigned int i,
					  uint64_t *flag)
{
	static const uint64_t flags[UET_EP_NCNTR] = {
		FI_SEND, FI_RECV, FI_WRITE, FI_READ, FI_REMOTE_WRITE,
		FI_REMOTE_READ,
	};
	struct uet_cntr **slots[UET_EP_NCNTR] = {
		&ep->send_cntr, &ep->recv_cntr, &ep->write_cntr,
		&ep->read_cntr, &ep->rwrite_cntr, &ep->rread_cntr,
	};

	*flag = flags[i];
	return slots[i];
}

/* Leave the bind set of every distinct counter once. */
static void uet_ep_unbind_cntrs(struct uet_ep *ep)
{
	struct uet_cntr *seen[UET_EP_NCNTR], *c;
	unsigned int i, j, n = 0;
	uint64_t flag;

	for (i = 0; i < UET_EP_NCNTR; i++) {
		c = *uet_ep_cntr_slot(ep, i, &flag);
		if (!c)
			continue;
		for (j = 0; j < n && seen[j] != c; j++)
			;
		if (j < n)
			continue;
		seen[n++] = c;
		uet_bind_set_del(&c->bound, ep, &c->ref);
	}
}

static int uet_ep_bind_cntr(struct uet_ep *ep, struct uet_cntr *c,
			    uint64_t flags)
{
	struct uet_cntr **slot;
	uint64_t flag;
	unsigned int i;
	int ret;

	if (flags & ~(uint64_t)(FI_SEND | FI_RECV | FI_READ | FI_WRITE |
				FI_REMOTE_READ | FI_REMOTE_WRITE))
		return -FI_EINVAL;
	if (!flags)
		return -FI_EINVAL;
	if (c->domain != ep->domain)
		return -FI_EINVAL;
	/* (A DGRAM endpoint takes RMA counters too: nothing counts on them,
	 * as before uet offered RMA.) */
	for (i = 0; i < UET_EP_NCNTR; i++) {
		slot = uet_ep_cntr_slot(ep, i, &flag);
		if ((flags & flag) && *slot)
			return -FI_EBUSY;
	}
	ret = uet_bind_set_add(&c->bound, ep, &c->ref);
	if (ret)
		return ret;
	for (i = 0; i < UET_EP_NCNTR; i++) {
		slot = uet_ep_cntr_slot(ep, i, &flag);
		if (flags & flag)
			*slot = c;
	}
	return 0;
}

static int uet_ep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);
	struct uet_av *av;

	if (!bfid)
		return -FI_EINVAL;
	if (uet_ep_enabled(ep))
		return -FI_EOPBADSTATE;
	switch (bfid->fclass) {
	case FI_CLASS_AV:
		av = uet_container_of(bfid, struct uet_av, fid.fid);
		if (ep->av)
			return -FI_EBUSY;
		if (av->domain != ep->domain)
			return -FI_EINVAL;
		ep->av = av;
		atomic_fetch_add(&av->ref, 1);
		return 0;
	case FI_CLASS_CQ:
		return uet_ep_bind_cq(ep, uet_container_of(bfid, struct uet_cq,
							   fid.fid), flags);
	case FI_CLASS_CNTR:
		return uet_ep_bind_cntr(ep, uet_container_of(bfid,
							     struct uet_cntr,
							     fid.fid), flags);
#if UET_HAVE_PEER
	case FI_CLASS_SRX_CTX:
		return uet_peer_ep_bind_srx(ep, bfid);
#endif
	case FI_CLASS_EQ:
		if (ep->eq)
			return -FI_EBUSY;
		ep->eq = uet_container_of(bfid, struct uet_eq, fid.fid);
		atomic_fetch_add(&ep->eq->ref, 1);
		return 0;
	default:
		return -FI_EINVAL;
	}
}

static int uet_ep_control(struct fid *fid, int command, void *arg)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);
	uint64_t *flags = arg;

	switch (command) {
	case FI_ENABLE:
		return uet_ep_enable(ep);
	case FI_GETOPSFLAG:
		if (!flags)
			return -FI_EINVAL;
		if ((*flags & FI_TRANSMIT) && (*flags & FI_RECV))
			return -FI_EINVAL;
		if (*flags & FI_TRANSMIT)
			*flags = ep->tx_op_flags;
		else if (*flags & FI_RECV)
			*flags = ep->rx_op_flags;
		else
			return -FI_EINVAL;
		return 0;
	case FI_SETOPSFLAG:
		if (!flags)
			return -FI_EINVAL;
		if ((*flags & FI_TRANSMIT) && (*flags & FI_RECV))
			return -FI_EINVAL;
		if (*flags & FI_TRANSMIT)
			ep->tx_op_flags = *flags & ~(uint64_t)FI_TRANSMIT;
		else if (*flags & FI_RECV)
			ep->rx_op_flags = *flags & ~(uint64_t)FI_RECV;
		else
			return -FI_EINVAL;
		return 0;
	default:
		return -FI_ENOSYS;
	}
}

static struct fi_ops uet_ep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_ep_close,
	.bind = uet_ep_bind,
	.control = uet_ep_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

/* ---- fi_ops_ep ---- */

static ssize_t uet_ep_cancel(fid_t fid, void *context)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);
	struct uet_op *op = NULL;
	uint32_t i;
	ssize_t ret;

	uet_lock(&ep->lock, UET_LOCK_EP);
	if (!ep->enabled) {
		uet_unlock(&ep->lock, UET_LOCK_EP);
		return -FI_EOPBADSTATE;
	}
	for (i = 0; i < ep->nops; i++) {
		struct uet_op *o = uet_op_at(ep, i);

		if (o->kind == UET_OP_RX && o->context == context &&
		    !o->cancelled) {
			op = o;
			break;
		}
	}
	if (!op) {
		uet_unlock(&ep->lock, UET_LOCK_EP);
		return -FI_ENOENT;
	}
	ret = uet_ep_post_cancel_locked(ep, op);
	if (!ret)
		op->cancelled = true;
	uet_unlock(&ep->lock, UET_LOCK_EP);
	return ret;
}

/*
 * Endpoint options.  Every generation: FI_OPT_MIN_MULTI_RECV;
 * FI_OPT_FI_HMEM_P2P (uet never lets a device reach device memory peer
 * to peer, device memory goes through host bounce buffers: getopt answers
 * FI_HMEM_P2P_DISABLED; setopt accepts DISABLED, ENABLED (the provider
 * decides) and PREFERRED, and refuses REQUIRED with -FI_EOPNOTSUPP);
 * FI_OPT_CUDA_API_PERMITTED (libfabric 1.18's option 10, answered with
 * older headers too, since an application built against newer ones may
 * ask): true (the default) is 0; false is -FI_EOPNOTSUPP, the answer
 * fi_endpoint(3) gives a provider whose CUDA memory support would need
 * the CUDA API, as uet's bounce buffers do (uet_hmem.h), so a client that
 * may not let it call CUDA (aws-ofi-nccl with GPUDirect) turns GPUDirect
 * off and stages through host memory.  Not -FI_EINVAL, which fi_endpoint(3)
 * gives for "no CUDA library or device" and aws-ofi-nccl takes as fatal.
 * Getting it is -FI_ENOPROTOOPT (a set-only option).  libfabric 2
 * (1.20 headers and later) adds the per-operation size limits (get: the
 * endpoint's; set: the untagged message limits, which may only shrink)
 * and the shared-memory permission (uet moves no data through shared
 * memory: either value is honoured by doing nothing different).
 */
#if FI_VERSION_GE(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), \
		  FI_VERSION(1, 20))
#define UET_EP_OPT_SIZES	1
#endif
#if FI_VERSION_GE(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), \
		  FI_VERSION(1, 18))
#define UET_OPT_CUDA_API_PERMITTED	FI_OPT_CUDA_API_PERMITTED
#else
#define UET_OPT_CUDA_API_PERMITTED	10	/* fi_endpoint.h, 1.18 */
#endif

static int uet_ep_opt_size_out(size_t v, void *optval, size_t *optlen)
{
	if (!optval || !optlen || *optlen < sizeof(size_t))
		return -FI_EINVAL;
	*(size_t *)optval = v;
	*optlen = sizeof(size_t);
	return 0;
}

#ifdef UET_EP_OPT_SIZES
/* A new limit for *cur, at most max. */
static int uet_ep_opt_size_in(const void *optval, size_t optlen, size_t max,
			      size_t *cur)
{
	size_t v;

	if (!optval || optlen != sizeof(size_t))
		return -FI_EINVAL;
	v = *(const size_t *)optval;
	if (v > max) {
		UET_WARN(FI_LOG_EP_CTRL, "size option %zu above the "
			 "endpoint's limit %zu\n", v, max);
		return -FI_EINVAL;
	}
	*cur = v;
	return 0;
}
#endif

static int uet_ep_getopt(fid_t fid, int level, int optname, void *optval,
			 size_t *optlen)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);

	if (level != FI_OPT_ENDPOINT)
		return -FI_ENOPROTOOPT;
	switch (optname) {
	case FI_OPT_MIN_MULTI_RECV:
		return uet_ep_opt_size_out(ep->min_multi_recv, optval, optlen);
	case FI_OPT_FI_HMEM_P2P:
		if (!optval || !optlen || *optlen < sizeof(int))
			return -FI_EINVAL;
		*(int *)optval = FI_HMEM_P2P_DISABLED;
		*optlen = sizeof(int);
		return 0;
#ifdef UET_EP_OPT_SIZES
	case FI_OPT_MAX_MSG_SIZE:
		return uet_ep_opt_size_out(ep->msg_max_size, optval, optlen);
	case FI_OPT_MAX_TAGGED_SIZE:
	case FI_OPT_MAX_RMA_SIZE:
		return uet_ep_opt_size_out(ep->max_msg_size, optval, optlen);
	case FI_OPT_MAX_ATOMIC_SIZE:
		return uet_ep_opt_size_out(uet_amo_max_bytes(ep->domain),
					   optval, optlen);
	case FI_OPT_INJECT_MSG_SIZE:
		return uet_ep_opt_size_out(ep->msg_inject_size, optval,
					   optlen);
	case FI_OPT_INJECT_TAGGED_SIZE:
	case FI_OPT_INJECT_RMA_SIZE:
	case FI_OPT_INJECT_ATOMIC_SIZE:
		return uet_ep_opt_size_out(ep->inject_size, optval, optlen);
#endif
	default:
		return uet_ep_ext_getopt(ep, optname, optval, optlen);
	}
}

static int uet_ep_setopt(fid_t fid, int level, int optname,
			 const void *optval, size_t optlen)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);

	if (level != FI_OPT_ENDPOINT)
		return -FI_ENOPROTOOPT;
	switch (optname) {
	case FI_OPT_MIN_MULTI_RECV:
		if (!optval || optlen != sizeof(size_t))
			return -FI_EINVAL;
		ep->min_multi_recv = *(const size_t *)optval;
		return 0;
	case FI_OPT_FI_HMEM_P2P:
		if (!optval || optlen != sizeof(int))
			return -FI_EINVAL;
		switch (*(const int *)optval) {
		case FI_HMEM_P2P_DISABLED:
		case FI_HMEM_P2P_ENABLED:
		case FI_HMEM_P2P_PREFERRED:
			return 0;
		case FI_HMEM_P2P_REQUIRED:
			return -FI_EOPNOTSUPP;
		default:
			return -FI_EINVAL;
		}
	case UET_OPT_CUDA_API_PERMITTED:
		if (!optval || optlen != sizeof(bool))
			return -FI_EINVAL;
		if (*(const bool *)optval)
			return 0;
		UET_INFO(FI_LOG_EP_CTRL, "FI_OPT_CUDA_API_PERMITTED false: "
			 "uet's CUDA memory support calls the CUDA API\n");
		return -FI_EOPNOTSUPP;
#ifdef UET_EP_OPT_SIZES
	case FI_OPT_MAX_MSG_SIZE:
		return uet_ep_opt_size_in(optval, optlen, ep->max_msg_size,
					  &ep->msg_max_size);
	case FI_OPT_INJECT_MSG_SIZE:
		return uet_ep_opt_size_in(optval, optlen, ep->inject_size,
					  &ep->msg_inject_size);
	case FI_OPT_SHARED_MEMORY_PERMITTED:
		if (!optval || optlen != sizeof(bool))
			return -FI_EINVAL;
		ep->shm_permitted = *(const bool *)optval;
		return 0;
#endif
	default:
		return uet_ep_ext_setopt(ep, optname, optval, optlen);
	}
}

static ssize_t uet_ep_rx_size_left(struct fid_ep *fid)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid);

	ssize_t left;

	uet_ep_lock(ep);
	/* Posting goes on beyond rx_attr->size (uet_msg.c). */
	left = !ep->enabled ? -FI_EOPBADSTATE :
	       ep->rx_inflight < ep->rx_max ?
	       (ssize_t)(ep->rx_max - ep->rx_inflight) : 0;
	uet_ep_unlock(ep);
	return left;
}

static ssize_t uet_ep_tx_size_left(struct fid_ep *fid)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid);

	ssize_t left;

	uet_ep_lock(ep);
	left = !ep->enabled ? -FI_EOPBADSTATE :
	       (ssize_t)(ep->tx_max - ep->tx_inflight);
	uet_ep_unlock(ep);
	return left;
}

static struct fi_ops_ep uet_ep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = uet_ep_cancel,
	.getopt = uet_ep_getopt,
	.setopt = uet_ep_setopt,
	.tx_ctx = uet_no_tx_ctx,
	.rx_ctx = uet_no_rx_ctx,
	.rx_size_left = uet_ep_rx_size_left,
	.tx_size_left = uet_ep_tx_size_left,
};

/* ---- fi_ops_cm ---- */

static int uet_ep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);

	return uet_addr_getname(&ep->domain->addr, ep->pid, ep->ri, addr,
				addrlen);
}

static int uet_ep_setname(fid_t fid, void *addr, size_t addrlen)
{
	struct uet_ep *ep = uet_container_of(fid, struct uet_ep, fid.fid);
	struct uet_addr a;
	uint16_t pid;
	int ret;

	if (uet_ep_enabled(ep))
		return -FI_EOPBADSTATE;
	ret = uet_addr_from_raw(&a, addr, addrlen);
	if (ret)
		return ret;
	if (!uet_ep_addr_local(ep->domain, &a))
		return -FI_EINVAL;
	if (a.pid != ep->pid) {
		ret = uet_pid_take(ep->domain, a.pid, &pid);
		if (ret)
			return ret;
		uet_pid_put(ep->domain, ep->pid);
		ep->pid = pid;
	}
	ep->ri = a.ri;
	return 0;
}

static struct fi_ops_cm uet_ep_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = uet_ep_setname,
	.getname = uet_ep_getname,
	.getpeer = uet_no_getpeer,
	.connect = uet_no_connect,
	.listen = uet_no_listen,
	.accept = uet_no_accept,
	.reject = uet_no_reject,
	.shutdown = uet_no_shutdown,
	.join = uet_no_join,
};

/* ---- RMA and atomics: RDM only (DGRAM endpoints are UUD) ---- */

struct fi_ops_rma uet_ep_no_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = uet_no_rma_read,
	.readv = uet_no_rma_readv,
	.readmsg = uet_no_rma_readmsg,
	.write = uet_no_rma_write,
	.writev = uet_no_rma_writev,
	.writemsg = uet_no_rma_writemsg,
	.inject = uet_no_rma_inject,
	.writedata = uet_no_rma_writedata,
	.injectdata = uet_no_rma_injectdata,
};

struct fi_ops_atomic uet_ep_no_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = uet_no_atomic_write,
	.writev = uet_no_atomic_writev,
	.writemsg = uet_no_atomic_writemsg,
	.inject = uet_no_atomic_inject,
	.readwrite = uet_no_atomic_readwrite,
	.readwritev = uet_no_atomic_readwritev,
	.readwritemsg = uet_no_atomic_readwritemsg,
	.compwrite = uet_no_atomic_compwrite,
	.compwritev = uet_no_atomic_compwritev,
	.compwritemsg = uet_no_atomic_compwritemsg,
	.writevalid = uet_no_atomic_writevalid,
	.readwritevalid = uet_no_atomic_readwritevalid,
	.compwritevalid = uet_no_atomic_compwritevalid,
};

/* ---- open ---- */

/* One JobID and secret per domain (its device): an endpoint's auth_key
 * may repeat them, not choose others. */
static int uet_ep_check_auth_key(const struct uet_domain *d,
				 const struct fi_ep_attr *ea)
{
	const uint8_t *secret;
	uint32_t job;
	int ret;

	ret = uet_info_auth_key_parse(ea->auth_key, ea->auth_key_size, &job,
				      &secret);
	if (ret)
		return ret;
	if (job != d->job_id) {
		UET_WARN(FI_LOG_EP_CTRL, "endpoint JobID %u differs from its "
			 "domain's %u\n", job, d->job_id);
		return -FI_EINVAL;
	}
	if (secret && (!d->has_secret ||
		       CRYPTO_memcmp(secret, d->secret, sizeof(d->secret)))) {
		UET_WARN(FI_LOG_EP_CTRL, "endpoint TSS secret differs from "
			 "its domain's\n");
		return -FI_EINVAL;
	}
	return 0;
}

/* An endpoint, or (sep != NULL) a context of a scalable endpoint: its
 * PIDonFEP is the scalable endpoint's, its resource index ri. */
static int uet_ep_open_in(struct fid_domain *domain, struct fi_info *info,
			  struct uet_sep *sep, uint16_t ri,
			  struct fid_ep **out, void *context)
{
	struct uet_domain *d;
	struct uet_addr src;
	struct uet_ep *ep;
	int want = -1, ret;

	if (!domain || !info || !out || !info->ep_attr)
		return -FI_EINVAL;
	*out = NULL;
	d = uet_container_of(domain, struct uet_domain, fid);
	ret = uet_info_check(d->fabric->fid.api_version, info);
	if (ret)
		return ret;
	if (info->ep_attr->type != FI_EP_RDM &&
	    info->ep_attr->type != FI_EP_DGRAM)
		return -FI_EINVAL;
	/* Several contexts: fi_scalable_ep; shared ones: not offered. */
	if (info->ep_attr->tx_ctx_cnt > 1 || info->ep_attr->rx_ctx_cnt > 1)
		return -FI_EINVAL;
	if (info->ep_attr->auth_key && info->ep_attr->auth_key_size) {
		ret = uet_ep_check_auth_key(d, info->ep_attr);
		if (ret)
			return ret;
	}
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -FI_ENOMEM;
	ep->info = fi_dupinfo(info);
	if (!ep->info) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	if (info->src_addr) {
		ret = uet_addr_from_info(&src, info->addr_format,
					 info->src_addr, info->src_addrlen);
		if (ret)
			goto err_info;
		if (!uet_ep_addr_local(d, &src)) {
			UET_WARN(FI_LOG_EP_CTRL, "source address is not the "
				 "domain's device\n");
			ret = -FI_EINVAL;
			goto err_info;
		}
		if (src.pid)
			want = src.pid;
		ep->ri = src.ri;
	}
	if (sep)
		ep->ri = ri;
	if (sep) {
		ep->sep = sep;
		ep->pid = sep->pid;
	} else {
		ret = uet_pid_take(d, want, &ep->pid);
		if (ret)
			goto err_info;
	}
	ep->domain = d;
	ep->type = info->ep_attr->type;
	ep->caps = info->caps;
	ep->max_msg_size = info->ep_attr->max_msg_size;
	ep->tx_max = info->tx_attr && info->tx_attr->size ?
		     (uint32_t)info->tx_attr->size : 1024;
	ep->rx_max = info->rx_attr && info->rx_attr->size ?
		     (uint32_t)info->rx_attr->size : 1024;
	ep->inject_size = info->tx_attr ? info->tx_attr->inject_size : 0;
	ep->msg_max_size = ep->max_msg_size;
	ep->msg_inject_size = ep->inject_size;
	ep->shm_permitted = true;
	ep->tx_op_flags = info->tx_attr ? info->tx_attr->op_flags : 0;
	ep->rx_op_flags = info->rx_attr ? info->rx_attr->op_flags : 0;
	ep->min_multi_recv = UET_MIN_MULTI_RECV_DEF;
	ret = uet_ep_ops_init(ep);
	if (ret)
		goto err_ops;
	pthread_mutex_init(&ep->lock, NULL);
	ep->fid.fid.fclass = FI_CLASS_EP;
	ep->fid.fid.context = context;
	ep->fid.fid.ops = &uet_ep_fi_ops;
	ep->fid.ops = &uet_ep_ops;
	ep->fid.cm = &uet_ep_cm_ops;
	ep->fid.msg = &uet_ep_msg_ops;
	ep->fid.tagged = &uet_ep_tagged_ops;
	ep->fid.rma = ep->type == FI_EP_RDM ? &uet_ep_rma_ops :
		      &uet_ep_no_rma_ops;
	ep->fid.atomic = ep->type == FI_EP_RDM ? &uet_ep_atomic_ops :
			 &uet_ep_no_atomic_ops;
	atomic_fetch_add(&d->ref, 1);
	*out = &ep->fid;
	return 0;

err_ops:
	uet_ep_ops_fini(ep);
	if (!sep)
		uet_pid_put(d, ep->pid);
err_info:
	fi_freeinfo(ep->info);
err_free:
	free(ep);
	return ret;
}

int uet_ep_open(struct fid_domain *domain, struct fi_info *info,
		struct fid_ep **out, void *context)
{
	return uet_ep_open_in(domain, info, NULL, 0, out, context);
}

int uet_ep_open_ctx(struct uet_sep *sep, struct fi_info *info, uint16_t ri,
		    struct fid_ep **out, void *context)
{
	return uet_ep_open_in(&sep->domain->fid, info, sep, ri, out, context);
}
