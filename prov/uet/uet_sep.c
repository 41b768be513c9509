/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Scalable endpoints (fi_scalable_ep): one PIDonFEP with several transmit
 * and receive contexts.  UET names a target queue {fabric address,
 * PIDonFEP, resource index}; receive context i is the device queue
 * {pid, ri i}, so a peer addresses it with fi_rx_addr(fi_addr, i,
 * rx_ctx_bits) through an AV opened with those rx_ctx_bits (uet_av.c puts
 * the context number into the resource index).  Transmit context i is
 * the queue {pid, ri rx_cnt + i}: its sends carry that source address.
 *
 * Each context is a uet endpoint of its own (uet_ep.c) sharing the
 * scalable endpoint's PIDonFEP and AV: bind CQs and counters to it and
 * enable it as an endpoint.  The scalable endpoint itself takes only the
 * AV (fi_scalable_ep_bind), answers fi_getname with {pid, ri 0} and
 * carries no data operation (-FI_ENOSYS).  It cannot close while a
 * context is open (-FI_EBUSY).  At most UET_SEP_CTX_MAX contexts each
 * way; shared contexts (FI_SHARED_CONTEXT) are not offered.
 */
#include "config.h"

#include <stdlib.h>

#include "uet_fi_no.h"
#include "uet_prov.h"

static struct fi_info *uet_sep_ctx_info(struct uet_sep *sep)
{
	struct fi_info *info = fi_dupinfo(sep->info);

	if (info) {
		info->ep_attr->tx_ctx_cnt = 1;
		info->ep_attr->rx_ctx_cnt = 1;
		free(info->src_addr);	/* the context's address is set */
		info->src_addr = NULL;
		info->src_addrlen = 0;
	}
	return info;
}

/* Open context index of one direction (slots, count) as resource index
 * ri; attr_op_flags (from the tx / rx attr) when nonzero. */
static int uet_sep_ctx(struct uet_sep *sep, struct fid_ep **slots,
		       size_t count, int index, uint16_t ri, bool tx,
		       uint64_t op_flags, struct fid_ep **out, void *context)
{
	struct fi_info *info;
	struct uet_ep *ep;
	int ret;

	if (!out || index < 0 || (size_t)index >= count)
		return -FI_EINVAL;
	if (slots[index])
		return -FI_EBUSY;
	info = uet_sep_ctx_info(sep);
	if (!info)
		return -FI_ENOMEM;
	if (op_flags && tx)
		info->tx_attr->op_flags = op_flags;
	else if (op_flags)
		info->rx_attr->op_flags = op_flags;
	ret = uet_ep_open_ctx(sep, info, ri, out, context);
	fi_freeinfo(info);
	if (ret)
		return ret;
	ep = uet_container_of(*out, struct uet_ep, fid);
	slots[index] = *out;
	ep->sep_slot = &slots[index];
	atomic_fetch_add(&sep->ref, 1);
	return 0;
}

static int uet_sep_tx_ctx(struct fid_ep *fid, int index,
			  struct fi_tx_attr *attr, struct fid_ep **tx_ep,
			  void *context)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid);

	return uet_sep_ctx(sep, sep->tx, sep->tx_cnt, index,
			   (uint16_t)(sep->rx_cnt + (size_t)index), true,
			   attr ? attr->op_flags : 0, tx_ep, context);
}

static int uet_sep_rx_ctx(struct fid_ep *fid, int index,
			  struct fi_rx_attr *attr, struct fid_ep **rx_ep,
			  void *context)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid);

	return uet_sep_ctx(sep, sep->rx, sep->rx_cnt, index, (uint16_t)index,
			   false, attr ? attr->op_flags : 0, rx_ep, context);
}

static int uet_sep_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid.fid);
	struct uet_av *av;

	if (!bfid || bfid->fclass != FI_CLASS_AV || flags)
		return -FI_EINVAL;
	av = uet_container_of(bfid, struct uet_av, fid.fid);
	if (av->domain != sep->domain)
		return -FI_EINVAL;
	if (sep->av)
		return -FI_EBUSY;
	sep->av = av;
	atomic_fetch_add(&av->ref, 1);
	return 0;
}

static int uet_sep_control(struct fid *fid, int command, void *arg)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid.fid);

	(void)arg;
	if (command != FI_ENABLE)
		return -FI_ENOSYS;
	if (!sep->av)
		return -FI_ENOAV;
	sep->enabled = true;
	return 0;
}

static int uet_sep_close(struct fid *fid)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid.fid);

	if (atomic_load(&sep->ref)) {
		UET_WARN(FI_LOG_EP_CTRL, "scalable endpoint still has %d "
			 "open contexts\n", atomic_load(&sep->ref));
		return -FI_EBUSY;
	}
	if (sep->av)
		atomic_fetch_sub(&sep->av->ref, 1);
	uet_pid_put(sep->domain, sep->pid);
	atomic_fetch_sub(&sep->domain->ref, 1);
	fi_freeinfo(sep->info);
	free(sep->tx);
	free(sep->rx);
	free(sep);
	return 0;
}

static int uet_sep_getname(fid_t fid, void *addr, size_t *addrlen)
{
	struct uet_sep *sep = uet_container_of(fid, struct uet_sep, fid.fid);

	return uet_addr_getname(&sep->domain->addr, sep->pid, 0, addr,
				addrlen);
}

static struct fi_ops uet_sep_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_sep_close,
	.bind = uet_sep_bind,
	.control = uet_sep_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

static struct fi_ops_ep uet_sep_ops = {
	.size = sizeof(struct fi_ops_ep),
	.cancel = uet_no_cancel,
	.getopt = uet_no_getopt,
	.setopt = uet_no_setopt,
	.tx_ctx = uet_sep_tx_ctx,
	.rx_ctx = uet_sep_rx_ctx,
	.rx_size_left = uet_no_rx_size_left,
	.tx_size_left = uet_no_tx_size_left,
};

static struct fi_ops_cm uet_sep_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = uet_no_setname,
	.getname = uet_sep_getname,
	.getpeer = uet_no_getpeer,
	.connect = uet_no_connect,
	.listen = uet_no_listen,
	.accept = uet_no_accept,
	.reject = uet_no_reject,
	.shutdown = uet_no_shutdown,
	.join = uet_no_join,
};

/* Data operations go to the contexts. */
static struct fi_ops_msg uet_sep_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = uet_no_msg_recv,
	.recvv = uet_no_msg_recvv,
	.recvmsg = uet_no_msg_recvmsg,
	.send = uet_no_msg_send,
	.sendv = uet_no_msg_sendv,
	.sendmsg = uet_no_msg_sendmsg,
	.inject = uet_no_msg_inject,
	.senddata = uet_no_msg_senddata,
	.injectdata = uet_no_msg_injectdata,
};

static struct fi_ops_tagged uet_sep_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = uet_no_tagged_recv,
	.recvv = uet_no_tagged_recvv,
	.recvmsg = uet_no_tagged_recvmsg,
	.send = uet_no_tagged_send,
	.sendv = uet_no_tagged_sendv,
	.sendmsg = uet_no_tagged_sendmsg,
	.inject = uet_no_tagged_inject,
	.senddata = uet_no_tagged_senddata,
	.injectdata = uet_no_tagged_injectdata,
};

int uet_scalable_ep(struct fid_domain *domain, struct fi_info *info,
		    struct fid_ep **out, void *context)
{
	struct fi_info *check;
	struct uet_domain *d;
	struct uet_sep *sep;
	size_t tx, rx;
	int ret;

	if (!domain || !info || !out || !info->ep_attr)
		return -FI_EINVAL;
	*out = NULL;
	d = uet_container_of(domain, struct uet_domain, fid);
	tx = info->ep_attr->tx_ctx_cnt ? info->ep_attr->tx_ctx_cnt : 1;
	rx = info->ep_attr->rx_ctx_cnt ? info->ep_attr->rx_ctx_cnt : 1;
	if (tx == FI_SHARED_CONTEXT || rx == FI_SHARED_CONTEXT) {
		UET_WARN(FI_LOG_EP_CTRL, "shared contexts are not offered\n");
		return -FI_ENOSYS;
	}
	if (tx > UET_SEP_CTX_MAX || rx > UET_SEP_CTX_MAX)
		return -FI_EINVAL;
	if (info->ep_attr->type != FI_EP_RDM &&
	    info->ep_attr->type != FI_EP_DGRAM)
		return -FI_EINVAL;
	/* The rest of the info is checked as a context's. */
	sep = calloc(1, sizeof(*sep));
	if (!sep)
		return -FI_ENOMEM;
	sep->info = fi_dupinfo(info);
	sep->tx = calloc(tx, sizeof(*sep->tx));
	sep->rx = calloc(rx, sizeof(*sep->rx));
	if (!sep->info || !sep->tx || !sep->rx) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	check = uet_sep_ctx_info(sep);
	if (!check) {
		ret = -FI_ENOMEM;
		goto err_free;
	}
	ret = uet_info_check(d->fabric->fid.api_version, check);
	fi_freeinfo(check);
	if (ret)
		goto err_free;
	sep->domain = d;
	sep->tx_cnt = tx;
	sep->rx_cnt = rx;
	atomic_init(&sep->ref, 0);
	ret = uet_pid_take(d, -1, &sep->pid);
	if (ret)
		goto err_free;
	sep->fid.fid.fclass = FI_CLASS_SEP;
	sep->fid.fid.context = context;
	sep->fid.fid.ops = &uet_sep_fi_ops;
	sep->fid.ops = &uet_sep_ops;
	sep->fid.cm = &uet_sep_cm_ops;
	sep->fid.msg = &uet_sep_msg_ops;
	sep->fid.tagged = &uet_sep_tagged_ops;
	sep->fid.rma = &uet_ep_no_rma_ops;
	sep->fid.atomic = &uet_ep_no_atomic_ops;
	atomic_fetch_add(&d->ref, 1);
	*out = &sep->fid;
	return 0;

err_free:
	fi_freeinfo(sep->info);
	free(sep->tx);
	free(sep->rx);
	free(sep);
	return ret;
}
