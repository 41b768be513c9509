/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_HMEM runtimes and the host bounce buffers of device memory
 * (uet_hmem.h).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hmem.h"
#include "uet_prov.h"

/* What loading a runtime found. */
enum uet_hmem_state {
	UET_HMEM_UNKNOWN,	/* not tried yet */
	UET_HMEM_OFFERED,	/* loaded, at least one device */
	UET_HMEM_ABSENT,	/* no library, init failed or no device */
};

static pthread_mutex_t uet_hmem_lock = PTHREAD_MUTEX_INITIALIZER;
static enum uet_hmem_state uet_hmem_cuda_state;

const struct uet_hmem_ops *uet_hmem_get(enum fi_hmem_iface iface)
{
	const struct uet_hmem_ops *h = &uet_hmem_cuda_ops;
	enum uet_hmem_state st;
	int n;

	if (iface != FI_HMEM_CUDA)
		return NULL;
	pthread_mutex_lock(&uet_hmem_lock);
	if (uet_hmem_cuda_state == UET_HMEM_UNKNOWN) {
		n = h->init();
		if (n > 0) {
			uet_hmem_cuda_state = UET_HMEM_OFFERED;
			UET_INFO(FI_LOG_CORE, "hmem %s: %d device(s): "
				 "FI_HMEM_CUDA offered (host bounce buffers)\n",
				 h->name, n);
		} else {
			if (!n)
				h->fini();
			uet_hmem_cuda_state = UET_HMEM_ABSENT;
			UET_INFO(FI_LOG_CORE, "hmem %s: %s: FI_HMEM_CUDA not "
				 "offered\n", h->name, n ? fi_strerror(-n) :
				 "no device");
		}
	}
	st = uet_hmem_cuda_state;
	pthread_mutex_unlock(&uet_hmem_lock);
	return st == UET_HMEM_OFFERED ? h : NULL;
}

const struct uet_hmem_ops *uet_hmem_any(void)
{
	return uet_hmem_get(FI_HMEM_CUDA);
}

void uet_hmem_fini(void)
{
	pthread_mutex_lock(&uet_hmem_lock);
	if (uet_hmem_cuda_state == UET_HMEM_OFFERED)
		uet_hmem_cuda_ops.fini();
	uet_hmem_cuda_state = UET_HMEM_UNKNOWN;
	pthread_mutex_unlock(&uet_hmem_lock);
}

/* The HSI's copies over a runtime's (ctx is its ops table). */
static int uet_hmem_hsi_to_dev(void *ctx, void *dev, const void *host,
			       size_t len)
{
	const struct uet_hmem_ops *h = ctx;

	return h->to_dev(dev, host, len) ? -EIO : 0;
}

static int uet_hmem_hsi_from_dev(void *ctx, void *host, const void *dev,
				 size_t len)
{
	const struct uet_hmem_ops *h = ctx;

	return h->from_dev(host, dev, len) ? -EIO : 0;
}

void uet_hmem_hsi_ops(const struct uet_hmem_ops *h,
		      struct uet_hsi_mem_ops *out)
{
	out->to_dev = uet_hmem_hsi_to_dev;
	out->from_dev = uet_hmem_hsi_from_dev;
	out->ctx = (void *)(uintptr_t)h;
}

/* ---- bounce buffers ---- */

int uet_hmem_stage(const struct uet_hmem_ops *h, struct uet_hmem_bounce **hb,
		   const struct iovec *iov, size_t count, struct iovec *out,
		   enum uet_hmem_dir dir)
{
	struct uet_hmem_bounce *b = *hb;
	size_t i, total = 0, off = 0;
	unsigned int ndev = 0, first;
	struct uet_hmem_seg *s;
	uint32_t is_dev = 0;
	uint8_t *mem;

	if (count > 32)
		return -FI_EINVAL;
	/* One query per entry (a driver call each). */
	for (i = 0; i < count; i++) {
		if (!iov[i].iov_len || !h->is_dev(iov[i].iov_base))
			continue;
		is_dev |= 1u << i;
		ndev++;
		total += iov[i].iov_len;
	}
	if (!ndev)
		return 0;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return -FI_ENOMEM;
		b->ops = h;
		*hb = b;
	}
	if (b->nseg + ndev > UET_HMEM_SEGS_MAX ||
	    b->nmem == sizeof(b->mem) / sizeof(b->mem[0]))
		return -FI_EINVAL;
	mem = malloc(total);
	if (!mem)
		return -FI_ENOMEM;
	b->mem[b->nmem++] = mem;
	first = b->nseg;
	for (i = 0; i < count; off += iov[i].iov_len, i++) {
		out[i] = iov[i];
		if (!(is_dev & 1u << i))
			continue;
		s = &b->seg[b->nseg++];
		s->dev = iov[i].iov_base;
		s->host = mem;
		s->len = iov[i].iov_len;
		s->off = off;
		s->back = dir == UET_HMEM_IN;
		out[i].iov_base = mem;
		mem += s->len;
	}
	if (dir == UET_HMEM_IN)
		return (int)ndev;
	for (i = first; i < b->nseg; i++) {
		s = &b->seg[i];
		if (h->from_dev(s->host, s->dev, s->len)) {
			UET_WARN(FI_LOG_EP_DATA, "hmem %s: copying %zu bytes "
				 "from device memory failed\n", h->name,
				 s->len);
			return -FI_EIO;
		}
	}
	return (int)ndev;
}

int uet_hmem_stage_list(const struct uet_hmem_ops *h,
			struct uet_hmem_bounce **hb, const struct iovec **iov,
			size_t count, struct iovec *out,
			enum uet_hmem_dir dir)
{
	int ret = uet_hmem_stage(h, hb, *iov, count, out, dir);

	if (ret > 0) {
		*iov = out;
		return 0;
	}
	if (ret < 0) {
		uet_hmem_bounce_free(*hb);
		*hb = NULL;
	}
	return ret;
}

int uet_hmem_back(struct uet_hmem_bounce *hb, size_t off, size_t len)
{
	const struct uet_hmem_seg *s;
	size_t end, a, z;
	unsigned int i;
	int ret = 0;

	end = len > SIZE_MAX - off ? SIZE_MAX : off + len;
	for (i = 0; i < hb->nseg; i++) {
		s = &hb->seg[i];
		if (!s->back)
			continue;
		a = off > s->off ? off : s->off;
		z = end < s->off + s->len ? end : s->off + s->len;
		if (a >= z)
			continue;
		if (hb->ops->to_dev((uint8_t *)s->dev + (a - s->off),
				    s->host + (a - s->off), z - a)) {
			UET_WARN(FI_LOG_EP_DATA, "hmem %s: copying %zu bytes "
				 "to device memory failed\n", hb->ops->name,
				 z - a);
			ret = -FI_EIO;
		}
	}
	return ret;
}

void uet_hmem_bounce_free(struct uet_hmem_bounce *hb)
{
	unsigned int i;

	if (!hb)
		return;
	for (i = 0; i < hb->nmem; i++)
		free(hb->mem[i]);
	free(hb);
}
