/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CUDA shim of FI_HMEM (uet_hmem.h): the driver API, libcuda.so.1
 * (or FI_UET_HMEM_CUDA_LIB), opened with dlopen the first time it is
 * needed.  No CUDA header is used: the few prototypes and constants are
 * declared here from the driver API's documented ABI.
 *
 * Offered when cuInit(0) succeeds and cuDeviceGetCount() reports at
 * least one device.  A pointer is device memory when
 * cuPointerGetAttribute(MEMORY_TYPE) says CU_MEMORYTYPE_DEVICE (host
 * memory the driver does not know fails the query: host).  Copies are
 * cuMemcpyHtoD / cuMemcpyDtoH, synchronous; a thread without a current
 * context (the device's progress thread) borrows the context of the
 * device pointer for the copy.  Registration checks the memory type,
 * the device ordinal and, where the driver has cuMemGetAddressRange,
 * that the range lies in one allocation, and sets SYNC_MEMOPS on it so
 * that copies into it are ordered with the application's kernels (as
 * libfabric's own CUDA support does).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "uet_hmem.h"
#include "uet_prov.h"

/* The driver API's ABI (cuda.h): results are an int, 0 success. */
typedef int uet_cu_result;
typedef unsigned long long uet_cu_ptr;	/* CUdeviceptr */
typedef void *uet_cu_ctx;		/* CUcontext */

#define UET_CU_SUCCESS			0
#define UET_CU_PTR_ATTR_CONTEXT		1
#define UET_CU_PTR_ATTR_MEMORY_TYPE	2
#define UET_CU_PTR_ATTR_SYNC_MEMOPS	6
#define UET_CU_PTR_ATTR_DEVICE_ORDINAL	9
#define UET_CU_MEMORYTYPE_DEVICE	2

struct uet_cu_api {
	void *lib;
	uet_cu_result (*init)(unsigned int flags);
	uet_cu_result (*device_count)(int *count);
	uet_cu_result (*ptr_attr)(void *data, int attr, uet_cu_ptr ptr);
	uet_cu_result (*ptr_set_attr)(const void *value, int attr,
				      uet_cu_ptr ptr);
	uet_cu_result (*addr_range)(uet_cu_ptr *base, size_t *size,
				    uet_cu_ptr ptr);
	uet_cu_result (*htod)(uet_cu_ptr dst, const void *src, size_t n);
	uet_cu_result (*dtoh)(void *dst, uet_cu_ptr src, size_t n);
	uet_cu_result (*ctx_current)(uet_cu_ctx *ctx);
	uet_cu_result (*ctx_push)(uet_cu_ctx ctx);
	uet_cu_result (*ctx_pop)(uet_cu_ctx *ctx);
};

static struct uet_cu_api uet_cu;

const struct uet_env_var uet_hmem_env_cuda_lib =
	UET_ENV_STR_VAR("hmem_cuda_lib", "libcuda.so.1",
			"The CUDA driver library FI_HMEM_CUDA is served with "
			"(dlopen name or path); a name that does not load "
			"turns CUDA off");

/* dlsym into *slot; false when the symbol is missing. */
static bool uet_cu_sym(const char *name, void *slot)
{
	void *f = dlsym(uet_cu.lib, name);

	memcpy(slot, &f, sizeof(f));
	return f != NULL;
}

static void uet_cu_fini(void)
{
	if (uet_cu.lib)
		dlclose(uet_cu.lib);
	memset(&uet_cu, 0, sizeof(uet_cu));
}

static int uet_cu_init(void)
{
	const char *name = uet_env_get_str(&uet_hmem_env_cuda_lib);
	uet_cu_result r;
	int count = 0;

	if (!name || !*name)
		name = uet_hmem_env_cuda_lib.def.s;
	uet_cu.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!uet_cu.lib) {
		UET_INFO(FI_LOG_CORE, "hmem cuda: %s does not load: %s\n",
			 name, dlerror());
		return -FI_ENOSYS;
	}
	if (!uet_cu_sym("cuInit", &uet_cu.init) ||
	    !uet_cu_sym("cuDeviceGetCount", &uet_cu.device_count) ||
	    !uet_cu_sym("cuPointerGetAttribute", &uet_cu.ptr_attr) ||
	    !uet_cu_sym("cuMemcpyHtoD_v2", &uet_cu.htod) ||
	    !uet_cu_sym("cuMemcpyDtoH_v2", &uet_cu.dtoh) ||
	    !uet_cu_sym("cuCtxGetCurrent", &uet_cu.ctx_current) ||
	    !uet_cu_sym("cuCtxPushCurrent_v2", &uet_cu.ctx_push) ||
	    !uet_cu_sym("cuCtxPopCurrent_v2", &uet_cu.ctx_pop)) {
		UET_WARN(FI_LOG_CORE, "hmem cuda: %s lacks a driver entry "
			 "point uet needs\n", name);
		goto err_close;
	}
	/* optional */
	(void)uet_cu_sym("cuPointerSetAttribute", &uet_cu.ptr_set_attr);
	(void)uet_cu_sym("cuMemGetAddressRange_v2", &uet_cu.addr_range);
	r = uet_cu.init(0);
	if (r != UET_CU_SUCCESS) {
		UET_INFO(FI_LOG_CORE, "hmem cuda: cuInit: error %d\n", r);
		goto err_close;
	}
	r = uet_cu.device_count(&count);
	if (r != UET_CU_SUCCESS || count < 0) {
		UET_INFO(FI_LOG_CORE, "hmem cuda: cuDeviceGetCount: error "
			 "%d\n", r);
		goto err_close;
	}
	return count;

err_close:
	uet_cu_fini();
	return -FI_ENODEV;
}

static bool uet_cu_is_dev(const void *ptr)
{
	unsigned int type = 0;

	return uet_cu.ptr_attr(&type, UET_CU_PTR_ATTR_MEMORY_TYPE,
			       (uet_cu_ptr)(uintptr_t)ptr) == UET_CU_SUCCESS &&
	       type == UET_CU_MEMORYTYPE_DEVICE;
}

/* Make a context current for a copy at dev when the thread has none:
 * true when one was pushed (pop it after). */
static bool uet_cu_ctx_enter(const void *dev)
{
	uet_cu_ctx cur = NULL, ctx = NULL;

	if (uet_cu.ctx_current(&cur) == UET_CU_SUCCESS && cur)
		return false;
	if (uet_cu.ptr_attr(&ctx, UET_CU_PTR_ATTR_CONTEXT,
			    (uet_cu_ptr)(uintptr_t)dev) != UET_CU_SUCCESS ||
	    !ctx)
		return false;
	return uet_cu.ctx_push(ctx) == UET_CU_SUCCESS;
}

static void uet_cu_ctx_leave(bool pushed)
{
	uet_cu_ctx ctx;

	if (pushed)
		(void)uet_cu.ctx_pop(&ctx);
}

static int uet_cu_to_dev(void *dev, const void *host, size_t len)
{
	bool pushed;
	uet_cu_result r;

	if (!len)
		return 0;
	pushed = uet_cu_ctx_enter(dev);
	r = uet_cu.htod((uet_cu_ptr)(uintptr_t)dev, host, len);
	uet_cu_ctx_leave(pushed);
	return r == UET_CU_SUCCESS ? 0 : -FI_EIO;
}

static int uet_cu_from_dev(void *host, const void *dev, size_t len)
{
	bool pushed;
	uet_cu_result r;

	if (!len)
		return 0;
	pushed = uet_cu_ctx_enter(dev);
	r = uet_cu.dtoh(host, (uet_cu_ptr)(uintptr_t)dev, len);
	uet_cu_ctx_leave(pushed);
	return r == UET_CU_SUCCESS ? 0 : -FI_EIO;
}

static int uet_cu_reg_check(const void *ptr, size_t len, uint64_t device)
{
	uet_cu_ptr p = (uet_cu_ptr)(uintptr_t)ptr, base = 0;
	unsigned int one = 1;
	size_t size = 0;
	int ordinal = -1;

	if (!uet_cu_is_dev(ptr))
		return -FI_EINVAL;
	if (uet_cu.ptr_attr(&ordinal, UET_CU_PTR_ATTR_DEVICE_ORDINAL, p) ==
	    UET_CU_SUCCESS && ordinal >= 0 && (uint64_t)ordinal != device)
		return -FI_ENODEV;
	if (uet_cu.addr_range &&
	    uet_cu.addr_range(&base, &size, p) == UET_CU_SUCCESS &&
	    (len > size || p - base > size - len))
		return -FI_EINVAL;
	if (uet_cu.ptr_set_attr)
		(void)uet_cu.ptr_set_attr(&one, UET_CU_PTR_ATTR_SYNC_MEMOPS,
					  p);
	return 0;
}

const struct uet_hmem_ops uet_hmem_cuda_ops = {
	.name = "cuda",
	.iface = FI_HMEM_CUDA,
	.init = uet_cu_init,
	.fini = uet_cu_fini,
	.is_dev = uet_cu_is_dev,
	.to_dev = uet_cu_to_dev,
	.from_dev = uet_cu_from_dev,
	.reg_check = uet_cu_reg_check,
};
