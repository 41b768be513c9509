/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory regions.  Registration goes to the device, which hands out the
 * 64-bit key (FI_MR_PROV_KEY semantics; a requested key is honoured only
 * when it equals 0 or the device's).  Messaging needs no registration
 * (uet requires no mr_mode bits); descriptors passed with data transfers
 * are accepted and ignored.
 */
#include "config.h"

#include <stdlib.h>

#include "uet_fi_no.h"
#include "uet_prov.h"

#define UET_MR_ACCESS	(FI_SEND | FI_RECV | FI_READ | FI_WRITE | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE)

static int uet_mr_close(struct fid *fid)
{
	struct uet_mr *mr = uet_container_of(fid, struct uet_mr, fid.fid);
	int ret;

	ret = mr->domain->ops->mr_dereg(mr->domain->dev, mr->fid.key);
	if (ret) {
		UET_WARN(FI_LOG_MR, "deregistering key %#llx: %s\n",
			 (unsigned long long)mr->fid.key, fi_strerror(-ret));
		return ret;
	}
	atomic_fetch_sub(&mr->domain->ref, 1);
	free(mr);
	return 0;
}

static int uet_mr_control(struct fid *fid, int command, void *arg)
{
	(void)fid;
	(void)arg;
	/* FI_MR_RAW and FI_REFRESH have no meaning for uet. */
	return command == FI_REFRESH ? 0 : -FI_ENOSYS;
}

static struct fi_ops uet_mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_mr_close,
	.bind = uet_no_bind,
	.control = uet_mr_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_no_tostr,
	.ops_set = uet_no_ops_set,
};

int uet_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
		   uint64_t flags, struct fid_mr **out)
{
	struct uet_domain *dom;
	struct uet_mr *mr;
	void *addr;
	size_t len;
	int ret;

	if (!fid || fid->fclass != FI_CLASS_DOMAIN || !attr || !out)
		return -FI_EINVAL;
	*out = NULL;
	dom = uet_container_of(fid, struct uet_domain, fid.fid);
	if (flags)
		return -FI_EINVAL;
	if (attr->iov_count > 1) {
		UET_WARN(FI_LOG_MR, "mr_iov_limit is 1\n");
		return -FI_EINVAL;
	}
	if (!attr->access || (attr->access & ~(uint64_t)UET_MR_ACCESS))
		return -FI_EINVAL;
	if (attr->iface != FI_HMEM_SYSTEM)
		return -FI_ENOSYS;
	addr = attr->iov_count ? attr->mr_iov[0].iov_base : NULL;
	len = attr->iov_count ? attr->mr_iov[0].iov_len : 0;
	if (len && !addr)
		return -FI_EINVAL;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -FI_ENOMEM;
	ret = dom->ops->mr_reg(dom->dev, addr, len, attr->access, 0,
			       &mr->fid.key);
	if (ret) {
		free(mr);
		return ret;
	}
	if (!(dom->mr_mode & FI_MR_PROV_KEY) && attr->requested_key &&
	    attr->requested_key != mr->fid.key)
		UET_INFO(FI_LOG_MR, "requested key %#llx replaced by %#llx\n",
			 (unsigned long long)attr->requested_key,
			 (unsigned long long)mr->fid.key);
	mr->domain = dom;
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
