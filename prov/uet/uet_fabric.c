/* SPDX-License-Identifier: BSD-2-Clause */
/* The fabric object: one per fi_fabric call, named for its subnet. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "uet_fi_no.h"
#include "uet_iface.h"
#include "uet_info.h"
#include "uet_peer.h"
#include "uet_prov.h"

static int uet_fabric_close(struct fid *fid)
{
	struct uet_fabric *fab = uet_container_of(fid, struct uet_fabric,
						  fid.fid);

	if (atomic_load(&fab->ref)) {
		UET_WARN(FI_LOG_FABRIC, "fabric still has %d open objects\n",
			 atomic_load(&fab->ref));
		return -FI_EBUSY;
	}
	free(fab);
	return 0;
}

static struct fi_ops uet_fabric_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_fabric_close,
	.bind = uet_no_bind,
	.control = uet_no_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

/*
 * fi_domain2: flags 0 is fi_domain; FI_PEER (libfabric's peer API, with
 * fi_peer.h) takes a struct fi_peer_domain_context, whose owner domain
 * uet does not need (it registers memory with its own device), and
 * opens an ordinary domain.  Anything else -FI_EINVAL (fi_peer(3)).
 */
static int uet_domain2(struct fid_fabric *fabric, struct fi_info *info,
		       struct fid_domain **dom, uint64_t flags, void *context)
{
	if (!flags)
		return uet_domain_open(fabric, info, dom, context);
#if UET_HAVE_PEER
	if (flags == FI_PEER) {
		struct fi_peer_domain_context *pc = context;

		if (!pc || pc->size < sizeof(*pc) || !pc->domain)
			return -FI_EINVAL;
		return uet_domain_open(fabric, info, dom, NULL);
	}
#endif
	return -FI_EINVAL;
}

static struct fi_ops_fabric uet_fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = uet_domain_open,
	.passive_ep = uet_no_passive_ep,
	.eq_open = uet_eq_open,
	.wait_open = uet_wait_open,
	.trywait = uet_fabric_trywait,
	.domain2 = uet_domain2,
};

int uet_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
	       void *context)
{
	struct uet_fabric *fab;

	if (!attr || !fabric)
		return -FI_EINVAL;
	*fabric = NULL;
	if (attr->name && !uet_iface_fabric_known(attr->name)) {
		UET_WARN(FI_LOG_FABRIC, "unknown fabric name %s\n",
			 attr->name);
		return -FI_ENODATA;
	}
	fab = calloc(1, sizeof(*fab));
	if (!fab)
		return -FI_ENOMEM;
	fab->fid.fid.fclass = FI_CLASS_FABRIC;
	fab->fid.fid.context = context;
	fab->fid.fid.ops = &uet_fabric_fi_ops;
	fab->fid.ops = &uet_fabric_ops;
	fab->fid.api_version = attr->api_version;
	atomic_init(&fab->ref, 0);
	*fabric = &fab->fid;
	return 0;
}

/* Before the application sleeps on wait fds: make progress and refuse
 * (-FI_EAGAIN) when something is already there to read. */
int uet_fabric_trywait(struct fid_fabric *fabric, struct fid **fids,
		       int count)
{
	struct uet_cntr *cntr;
	struct uet_cq *cq;
	struct uet_eq *eq;
	int i;

	if (!fabric || (count && !fids) || count < 0)
		return -FI_EINVAL;
	for (i = 0; i < count; i++) {
		switch (fids[i]->fclass) {
		case FI_CLASS_CQ:
			cq = uet_container_of(fids[i], struct uet_cq, fid.fid);
			if (cq->wait_obj == FI_WAIT_NONE)
				return -FI_EINVAL;
			if (uet_cq_ready(cq))
				return -FI_EAGAIN;
			break;
		case FI_CLASS_CNTR:
			cntr = uet_container_of(fids[i], struct uet_cntr,
						fid.fid);
			if (cntr->wait_obj == FI_WAIT_NONE)
				return -FI_EINVAL;
			/* A counter's value cannot be "consumed": progress
			 * and let the application compare. */
			uet_domain_progress(cntr->domain);
			break;
		case FI_CLASS_EQ:
			eq = uet_container_of(fids[i], struct uet_eq, fid.fid);
			uet_lock(&eq->lock, UET_LOCK_EQ);
			if (eq->count) {
				uet_unlock(&eq->lock, UET_LOCK_EQ);
				return -FI_EAGAIN;
			}
			uet_unlock(&eq->lock, UET_LOCK_EQ);
			break;
		case FI_CLASS_WAIT:
			if (uet_wait_trywait(fids[i]))
				return -FI_EAGAIN;
			break;
		default:
			return -FI_EINVAL;
		}
	}
	return 0;
}
