/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A fake CUDA driver library for check_prov_hmem_cuda: the few driver
 * entry points uet's shim (prov/uet/uet_hmem_cuda.c) calls, plus
 * cuMemAlloc/cuMemFree for the test, over host memory.
 *
 * "Device memory" is a range of addresses reserved PROT_NONE: nothing
 * but this library's copies may touch it (any direct access by the
 * provider, the software NIC or the kernel faults or fails with
 * EFAULT), and its bytes live in a shadow mapping at the same offset.
 * Allocations are a bump allocator with a table (for the address-range
 * and pointer queries).  uet_fake_cuda_counts() tells the test how many
 * copies ran each way.  UET_FAKE_CUDA_DEVICES sets the device count
 * (default 1; 0: a driver without a device).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FAKE_OK			0
#define FAKE_EINVAL		1
#define FAKE_ENOMEM		2
#define FAKE_ENOINIT		3
#define FAKE_SPACE		(64u << 20)
#define FAKE_ALLOCS		256
#define FAKE_ALIGN		256u

typedef unsigned long long fake_ptr;

static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *fake_base;		/* PROT_NONE: the device addresses */
static uint8_t *fake_shadow;		/* their bytes */
static size_t fake_used;
static struct { size_t off, len; int live; } fake_tbl[FAKE_ALLOCS];
static unsigned int fake_n;
static int fake_devices = 1;
static unsigned long long fake_htod, fake_dtoh, fake_htod_bytes,
	fake_dtoh_bytes;
static int fake_ctx_token;
static __thread int fake_ctx_depth;

/* Counters for the test (not a CUDA entry point). */
void uet_fake_cuda_counts(unsigned long long *htod, unsigned long long *dtoh,
			  unsigned long long *htod_bytes,
			  unsigned long long *dtoh_bytes);
int cuInit(unsigned int flags);
int cuDeviceGetCount(int *count);
int cuMemAlloc_v2(fake_ptr *p, size_t len);
int cuMemFree_v2(fake_ptr p);
int cuPointerGetAttribute(void *data, int attr, fake_ptr p);
int cuPointerSetAttribute(const void *value, int attr, fake_ptr p);
int cuMemGetAddressRange_v2(fake_ptr *base, size_t *size, fake_ptr p);
int cuMemcpyHtoD_v2(fake_ptr dst, const void *src, size_t n);
int cuMemcpyDtoH_v2(void *dst, fake_ptr src, size_t n);
int cuCtxGetCurrent(void **ctx);
int cuCtxPushCurrent_v2(void *ctx);
int cuCtxPopCurrent_v2(void **ctx);
int cuDevicePrimaryCtxRetain(void **ctx, int dev);
int cuCtxSetCurrent(void *ctx);

void uet_fake_cuda_counts(unsigned long long *htod, unsigned long long *dtoh,
			  unsigned long long *htod_bytes,
			  unsigned long long *dtoh_bytes)
{
	pthread_mutex_lock(&fake_lock);
	*htod = fake_htod;
	*dtoh = fake_dtoh;
	*htod_bytes = fake_htod_bytes;
	*dtoh_bytes = fake_dtoh_bytes;
	pthread_mutex_unlock(&fake_lock);
}

int cuInit(unsigned int flags)
{
	const char *d = getenv("UET_FAKE_CUDA_DEVICES");
	int ret = FAKE_OK;

	if (flags)
		return FAKE_EINVAL;
	pthread_mutex_lock(&fake_lock);
	if (d)
		fake_devices = atoi(d);
	if (!fake_base) {
		fake_base = mmap(NULL, FAKE_SPACE, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);
		fake_shadow = mmap(NULL, FAKE_SPACE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				   -1, 0);
		if (fake_base == MAP_FAILED || fake_shadow == MAP_FAILED) {
			fake_base = NULL;
			ret = FAKE_ENOMEM;
		}
	}
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

int cuDeviceGetCount(int *count)
{
	if (!fake_base)
		return FAKE_ENOINIT;
	*count = fake_devices;
	return FAKE_OK;
}

int cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
	if (dev < 0 || dev >= fake_devices)
		return FAKE_EINVAL;
	*ctx = &fake_ctx_token;
	return FAKE_OK;
}

int cuCtxSetCurrent(void *ctx)
{
	fake_ctx_depth = ctx ? 1 : 0;
	return FAKE_OK;
}

int cuMemAlloc_v2(fake_ptr *p, size_t len)
{
	size_t n = (len + FAKE_ALIGN - 1) / FAKE_ALIGN * FAKE_ALIGN;
	int ret = FAKE_ENOMEM;

	pthread_mutex_lock(&fake_lock);
	if (fake_base && len && fake_n < FAKE_ALLOCS &&
	    n <= FAKE_SPACE - fake_used) {
		fake_tbl[fake_n].off = fake_used;
		fake_tbl[fake_n].len = len;
		fake_tbl[fake_n].live = 1;
		fake_n++;
		*p = (fake_ptr)(uintptr_t)(fake_base + fake_used);
		fake_used += n;
		ret = FAKE_OK;
	}
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

/* The live allocation holding [p, p + n): its index, or -1. */
static int fake_find(fake_ptr p, size_t n)
{
	uintptr_t a = (uintptr_t)p, b = (uintptr_t)fake_base;
	unsigned int i;

	if (!fake_base || a < b || a >= b + FAKE_SPACE)
		return -1;
	for (i = 0; i < fake_n; i++) {
		if (fake_tbl[i].live && a - b >= fake_tbl[i].off &&
		    a - b - fake_tbl[i].off < fake_tbl[i].len &&
		    n <= fake_tbl[i].len - (a - b - fake_tbl[i].off))
			return (int)i;
	}
	return -1;
}

int cuMemFree_v2(fake_ptr p)
{
	int i, ret = FAKE_EINVAL;

	pthread_mutex_lock(&fake_lock);
	i = fake_find(p, 1);
	if (i >= 0 && (uintptr_t)fake_base + fake_tbl[i].off == p) {
		fake_tbl[i].live = 0;
		ret = FAKE_OK;
	}
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

/* The attributes uet reads: CONTEXT 1, MEMORY_TYPE 2 (DEVICE 2),
 * DEVICE_ORDINAL 9. */
int cuPointerGetAttribute(void *data, int attr, fake_ptr p)
{
	int i;

	pthread_mutex_lock(&fake_lock);
	i = fake_find(p, 1);
	pthread_mutex_unlock(&fake_lock);
	if (i < 0)
		return FAKE_EINVAL;	/* host memory the driver never saw */
	switch (attr) {
	case 1:
		*(void **)data = &fake_ctx_token;
		return FAKE_OK;
	case 2:
		*(unsigned int *)data = 2;
		return FAKE_OK;
	case 9:
		*(int *)data = 0;
		return FAKE_OK;
	default:
		return FAKE_EINVAL;
	}
}

int cuPointerSetAttribute(const void *value, int attr, fake_ptr p)
{
	(void)value;
	if (attr != 6)
		return FAKE_EINVAL;
	return cuPointerGetAttribute(&(unsigned int){ 0 }, 2, p);
}

int cuMemGetAddressRange_v2(fake_ptr *base, size_t *size, fake_ptr p)
{
	int i;

	pthread_mutex_lock(&fake_lock);
	i = fake_find(p, 1);
	if (i >= 0) {
		*base = (fake_ptr)(uintptr_t)(fake_base + fake_tbl[i].off);
		*size = fake_tbl[i].len;
	}
	pthread_mutex_unlock(&fake_lock);
	return i < 0 ? FAKE_EINVAL : FAKE_OK;
}

int cuMemcpyHtoD_v2(fake_ptr dst, const void *src, size_t n)
{
	int i;

	pthread_mutex_lock(&fake_lock);
	i = fake_find(dst, n);
	if (i >= 0) {
		memcpy(fake_shadow + ((uintptr_t)dst - (uintptr_t)fake_base),
		       src, n);
		fake_htod++;
		fake_htod_bytes += n;
	}
	pthread_mutex_unlock(&fake_lock);
	return i < 0 ? FAKE_EINVAL : FAKE_OK;
}

int cuMemcpyDtoH_v2(void *dst, fake_ptr src, size_t n)
{
	int i;

	pthread_mutex_lock(&fake_lock);
	i = fake_find(src, n);
	if (i >= 0) {
		memcpy(dst, fake_shadow + ((uintptr_t)src -
					   (uintptr_t)fake_base), n);
		fake_dtoh++;
		fake_dtoh_bytes += n;
	}
	pthread_mutex_unlock(&fake_lock);
	return i < 0 ? FAKE_EINVAL : FAKE_OK;
}

int cuCtxGetCurrent(void **ctx)
{
	*ctx = fake_ctx_depth ? &fake_ctx_token : NULL;
	return FAKE_OK;
}

int cuCtxPushCurrent_v2(void *ctx)
{
	if (ctx != &fake_ctx_token)
		return FAKE_EINVAL;
	fake_ctx_depth++;
	return FAKE_OK;
}

int cuCtxPopCurrent_v2(void **ctx)
{
	if (!fake_ctx_depth)
		return FAKE_EINVAL;
	fake_ctx_depth--;
	*ctx = &fake_ctx_token;
	return FAKE_OK;
}
