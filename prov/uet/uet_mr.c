/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory regions.  Every registration goes to the device (for the
 * software NIC: the SES RI table), which checks remote accesses.
 *
 * fi_getinfo returns mr_mode 0 (uet_info.c); the modes below apply when
 * the application sets them in the info it passes to fi_domain.
 *
 * Keys: with FI_MR_PROV_KEY in the domain's mr_mode (or the v1.0
 * FI_MR_BASIC) the device chooses the key; otherwise the application's
 * requested_key is the key (UET_HSI_MR_USER_KEY): -FI_ENOKEY when it is
 * in use, -FI_EKEYREJECTED when bit 63 is set (that half of the key space
 * is the provider keys').  Regions without FI_REMOTE_READ/WRITE always
 * get a device key: nobody addresses them remotely, and applications
 * often register them all with key 0.  Addresses: with FI_MR_VIRT_ADDR (or
 * FI_MR_BASIC) remote requests name the target memory by virtual address
 * (UET_HSI_MR_VIRT_ADDR), otherwise by offset from the start of the
 * region.
 *
 * fi_mr_bind(mr, cntr, FI_REMOTE_WRITE | FI_REMOTE_READ) counts remote
 * accesses to the region: the endpoint that receives the access sees a
 * target notification with the key (uet_ep_progress.c) and calls
 * uet_mr_remote_event(), which finds the MR in the domain's mr_map.
 * Those notifications come to endpoints opened with FI_RMA_EVENT (or that
 * have a remote counter bound).  Regions are enabled at registration
 * (uet does not ask for FI_MR_RMA_EVENT); fi_mr_enable is accepted.
 *
 * Local descriptors are accepted with data transfers and ignored.
 *
 * FI_HMEM: device memory (fi_mr_attr iface and device) is registered in
 * domains that serve its runtime (uet_mr_hmem_check, uet_hmem.h), with
 * UET_HSI_MR_DEVMEM: the device copies in and out of it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "uet_fi_no.h"
#include "uet_hmem.h"
#include "uet_prov.h"
#include "uet_xlate.h"

_Static_assert(UET_MR_IOV_LIMIT == UET_HSI_MR_SEGS_MAX,
	       "mr_iov_limit is the device's segment bound");

#define UET_MR_ACCESS	(FI_SEND | FI_RECV | FI_READ | FI_WRITE | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE)
#define UET_MR_REMOTE	(FI_REMOTE_READ | FI_REMOTE_WRITE)
/* The v1.0 mr_mode values (enum fi_mr_mode; deprecated in libfabric 2). */
#define UET_MR_V1_BASIC		1
#define UET_MR_V1_SCALABLE	2
/* User keys: bit 63 is the provider keys' half. */
#define UET_MR_PROV_KEY_BIT	(1ull << 63)

uint64_t uet_mr_mode_bits(uint64_t mr_mode)
{
	if (mr_mode == UET_MR_V1_BASIC)
		return FI_MR_PROV_KEY | FI_MR_VIRT_ADDR;
	if (mr_mode == UET_MR_V1_SCALABLE)
		return 0;
	return mr_mode & UET_MR_MODE;
}

static void uet_mr_unbind(struct uet_mr *mr)
{
	struct uet_domain *dom = mr->domain;

	if (!mr->cntr)
		return;
	uet_lock(&dom->lock, UET_LOCK_DOMAIN);
	uet_hashmap_remove(&dom->mr_map, &mr->node);
	atomic_fetch_sub(&dom->mr_cntrs, 1);
	atomic_fetch_sub(&mr->cntr->ref, 1);
	mr->cntr = NULL;
	uet_unlock(&dom->lock, UET_LOCK_DOMAIN);
}

void uet_mr_remote_event(struct uet_domain *dom, uint64_t key,
			 uint64_t access)
{
	struct uet_hnode *n;
	struct uet_mr *mr;

	if (!atomic_load_explicit(&dom->mr_cntrs, memory_order_acquire))
		return;
	uet_lock(&dom->lock, UET_LOCK_DOMAIN);
	n = uet_hashmap_lookup_u64(&dom->mr_map, key);
	if (n) {
		mr = uet_container_of(n, struct uet_mr, node);
		if (mr->cntr_flags & access)
			uet_cntr_inc(mr->cntr);
	}
	uet_unlock(&dom->lock, UET_LOCK_DOMAIN);
}

static int uet_mr_close(struct fid *fid)
{
	struct uet_mr *mr = uet_container_of(fid, struct uet_mr, fid.fid);
	int ret;

	/* The counter stays bound until the region is gone: a close the
	 * device refuses (-FI_ENOMEM while it copies replies in flight)
	 * leaves the region registered and still counted. */
	ret = mr->domain->ops->mr_dereg(mr->domain->dev, mr->fid.key);
	if (ret) {
		UET_WARN(FI_LOG_MR, "deregistering key %#llx: %s\n",
			 (unsigned long long)mr->fid.key, fi_strerror(-ret));
		return ret;
	}
	uet_mr_unbind(mr);
	atomic_fetch_sub(&mr->domain->ref, 1);
	free(mr);
	return 0;
}

static int uet_mr_control(struct fid *fid, int command, void *arg)
{
	(void)fid;
	(void)arg;
	/* Regions work from registration on (FI_ENABLE has nothing to do);
	 * FI_MR_RAW and FI_REFRESH have no meaning for uet. */
	return command == FI_REFRESH || command == FI_ENABLE ? 0 : -FI_ENOSYS;
}

/* fi_mr_bind to a counter: count FI_REMOTE_WRITE / FI_REMOTE_READ
 * accesses.  Binding again replaces the counter. */
static int uet_mr_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	struct uet_mr *mr = uet_container_of(fid, struct uet_mr, fid.fid);
	struct uet_domain *dom = mr->domain;
	struct uet_cntr *cntr;
	int ret;

	if (!bfid)
		return -FI_EINVAL;
	if (bfid->fclass != FI_CLASS_CNTR)
		return -FI_EINVAL;	/* FI_MR_ENDPOINT is not offered */
	if (!flags)
		flags = UET_MR_REMOTE;
	if (flags & ~(uint64_t)UET_MR_REMOTE)
		return -FI_EINVAL;
	cntr = uet_container_of(bfid, struct uet_cntr, fid.fid);
	if (cntr->domain != dom)
		return -FI_EINVAL;
	uet_mr_unbind(mr);
	uet_lock(&dom->lock, UET_LOCK_DOMAIN);
	ret = uet_hashmap_insert_u64(&dom->mr_map, &mr->node, mr->fid.key);
	if (!ret) {
		mr->cntr = cntr;
		mr->cntr_flags = flags;
		atomic_fetch_add(&cntr->ref, 1);
		atomic_fetch_add_explicit(&dom->mr_cntrs, 1,
					  memory_order_release);
	}
	uet_unlock(&dom->lock, UET_LOCK_DOMAIN);
	return ret ? -FI_EINVAL : 0;
}

static struct fi_ops uet_mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_mr_close,
	.bind = uet_mr_bind,
	.control = uet_mr_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

/* The device number of attr's iface (device.cuda, .ze, ...). */
static uint64_t uet_mr_device(const struct fi_mr_attr *attr)
{
	switch (attr->iface) {
	case FI_HMEM_CUDA:
		return (uint64_t)attr->device.cuda;
	default:
		return (uint64_t)attr->device.reserved;
	}
}

/*
 * Device memory (iface other than FI_HMEM_SYSTEM) is registered where
 * the domain serves that runtime (uet_hmem.h: it loaded with a device,
 * the domain asked for FI_HMEM): every segment must be device memory of
 * device attr->device, which the device then copies through host
 * bounce buffers.  Elsewhere -FI_EOPNOTSUPP, which makes a client that
 * can stage through host memory itself (NCCL's plugin, an MPI) do so.
 */
static int uet_mr_hmem_check(const struct uet_domain *dom,
			     const struct fi_mr_attr *attr,
			     enum fi_hmem_iface iface)
{
	const struct uet_hmem_ops *h = dom->hmem_dev;
	size_t i;
	int ret;

	if (iface == FI_HMEM_SYSTEM)
		return 0;
	if (!h || h->iface != iface) {
		UET_INFO(FI_LOG_MR, "hmem iface %d: not offered in this "
			 "domain (%s): system memory only\n", (int)iface,
			 h ? "another runtime" : dom->hmem ?
			 "no runtime with a device" : "FI_HMEM not asked for");
		return -FI_EOPNOTSUPP;
	}
	for (i = 0; i < attr->iov_count; i++) {
		if (!attr->mr_iov[i].iov_len)
			continue;
		ret = h->reg_check(attr->mr_iov[i].iov_base,
				   attr->mr_iov[i].iov_len, uet_mr_device(attr));
		if (ret) {
			UET_INFO(FI_LOG_MR, "hmem %s: segment %zu is not "
				 "device memory of device %llu: %s\n", h->name,
				 i, (unsigned long long)uet_mr_device(attr),
				 fi_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int uet_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
		   uint64_t flags, struct fid_mr **out)
{
	enum fi_hmem_iface iface;
	struct uet_domain *dom;
	struct uet_mr *mr;
	uint64_t mode, dflags = 0;
	void *addr;
	size_t i, len;
	int ret;

	if (!fid || fid->fclass != FI_CLASS_DOMAIN || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	dom = uet_container_of(fid, struct uet_domain, fid.fid);
	if (flags & ~(uint64_t)FI_RMA_EVENT)
		return -FI_EINVAL;
	if (attr->iov_count > UET_MR_IOV_LIMIT) {
		UET_WARN(FI_LOG_MR, "%zu iovs: mr_iov_limit is %d\n",
			 attr->iov_count, UET_MR_IOV_LIMIT);
		return -FI_EINVAL;
	}
	if (attr->iov_count && !attr->mr_iov)
		return -FI_EINVAL;
	if (attr->access & ~(uint64_t)UET_MR_ACCESS)
		return -FI_EINVAL;
	/* iface and device are read only where the application has them
	 * (FI_HMEM, API 1.9 on), as libfabric's own providers do. */
	iface = dom->hmem ? attr->iface : FI_HMEM_SYSTEM;
	ret = uet_mr_hmem_check(dom, attr, iface);
	if (ret)
		return ret;
	if (iface != FI_HMEM_SYSTEM)
		dflags |= UET_HSI_MR_DEVMEM;
	addr = attr->iov_count ? attr->mr_iov[0].iov_base : NULL;
	len = 0;
	for (i = 0; i < attr->iov_count; i++) {
		if (attr->mr_iov[i].iov_len && !attr->mr_iov[i].iov_base)
			return -FI_EINVAL;
		if (attr->mr_iov[i].iov_len > SIZE_MAX - len)
			return -FI_EINVAL;
		len += attr->mr_iov[i].iov_len;
	}
	mode = uet_mr_mode_bits(dom->mr_mode);
	/* Regions for local access only never need a known key (and
	 * applications commonly give them all key 0): the device's. */
	if (!(mode & FI_MR_PROV_KEY) && (attr->access & UET_MR_REMOTE)) {
		if (attr->requested_key & UET_MR_PROV_KEY_BIT)
			return -FI_EKEYREJECTED;
		dflags |= UET_HSI_MR_USER_KEY;
	}
	if (mode & FI_MR_VIRT_ADDR)
		dflags |= UET_HSI_MR_VIRT_ADDR;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -FI_ENOMEM;
	mr->fid.key = attr->requested_key;
	if (attr->iov_count > 1)
		ret = dom->ops->mr_regv ?
		      dom->ops->mr_regv(dom->dev, attr->mr_iov,
					attr->iov_count,
					uet_xlate_access(attr->access),
					dflags, &mr->fid.key) : -FI_EINVAL;
	else
		ret = dom->ops->mr_reg(dom->dev, addr, len,
				       uet_xlate_access(attr->access),
				       dflags, &mr->fid.key);
	if (ret) {
		free(mr);
		if (ret == -EEXIST)
			return -FI_ENOKEY;
		return ret;
	}
	mr->domain = dom;
	mr->iface = iface;
	mr->device = iface == FI_HMEM_SYSTEM ? 0 : uet_mr_device(attr);
	mr->access = attr->access;
	mr->addr = addr;
	mr->len = len;
	mr->fid.fid.fclass = FI_CLASS_MR;
	mr->fid.fid.context = attr->context;
	mr->fid.fid.ops = &uet_mr_fi_ops;
	mr->fid.mem_desc = mr;
	atomic_fetch_add(&dom->ref, 1);
	*out = &mr->fid;
	return 0;
}

int uet_mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
		uint64_t access, uint64_t offset, uint64_t requested_key,
		uint64_t flags, struct fid_mr **mr, void *context)
{
	struct fi_mr_attr attr = {
		.mr_iov = iov,
		.iov_count = count,
		.access = access,
		.offset = offset,
		.requested_key = requested_key,
		.context = context,
		.iface = FI_HMEM_SYSTEM,
	};

	return uet_mr_regattr(fid, &attr, flags, mr);
}

int uet_mr_reg(struct fid *fid, const void *buf, size_t len,
	       uint64_t access, uint64_t offset, uint64_t requested_key,
	       uint64_t flags, struct fid_mr **mr, void *context)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return uet_mr_regv(fid, &iov, 1, access, offset, requested_key,
			   flags, mr, context);
}
