/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_HMEM device memory (uet_hmem.c, and one shim per runtime:
 * uet_hmem_cuda.c).
 *
 * A runtime is loaded at run time (dlopen) the first time discovery or a
 * domain asks for it; no header or library of it is needed to build uet.
 * It is offered (FI_HMEM_CUDA accepted by fi_mr_regattr) when it loads,
 * initialises and reports at least one device.  Neither the software NIC
 * nor the kernel can touch device memory, so every byte of it moves
 * through host memory with the runtime's copies:
 *
 *   initiator  the post path (uet_msg.c, uet_rma.c, uet_atomic.c) asks
 *              uet_hmem_stage() for each buffer list: an entry the
 *              runtime calls device memory is replaced by a host bounce
 *              buffer of its length, filled now for data that leaves
 *              (send, RMA write, atomic operands), copied back to the
 *              device at the completion for data that arrives (receive,
 *              RMA read, atomic results); the bounce lives on the
 *              operation (uet_op.hb) until it completes.
 *   target     registrations of device memory carry UET_HSI_MR_DEVMEM:
 *              the device copies in and out of them with the ops table
 *              the domain handed it (uet_hmem_hsi_ops, set_mem_ops).
 *
 * Host memory pays one predictable test per post (dom->hmem_dev, NULL
 * unless a runtime is offered and the domain asked for FI_HMEM).
 */
#ifndef UET_HMEM_H
#define UET_HMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <rdma/fi_domain.h>

#include "uet_env.h"
#include "uet_hsi_dev.h"

/* One runtime's shim. */
struct uet_hmem_ops {
	const char *name;			/* "cuda" */
	enum fi_hmem_iface iface;
	/* Load and initialise the runtime: the number of devices (0: not
	 * offered) or a negative FI_E* (-FI_ENOSYS: no library). */
	int (*init)(void);
	void (*fini)(void);
	/* Is ptr device memory of this runtime? (host memory and unknown
	 * pointers: false) */
	bool (*is_dev)(const void *ptr);
	/* Copies between host and device memory: 0 or -FI_EIO. */
	int (*to_dev)(void *dev, const void *host, size_t len);
	int (*from_dev)(void *host, const void *dev, size_t len);
	/* At registration: device memory at [ptr, ptr+len) of device
	 * number device?  0, -FI_EINVAL (not device memory of this
	 * runtime) or -FI_ENODEV (another device). */
	int (*reg_check)(const void *ptr, size_t len, uint64_t device);
};

extern const struct uet_hmem_ops uet_hmem_cuda_ops;
/* FI_UET_HMEM_CUDA_LIB: the driver library the CUDA shim opens. */
extern const struct uet_env_var uet_hmem_env_cuda_lib;

/* The ops of iface when its runtime is offered (loaded with a device),
 * else NULL; loads it the first time (thread-safe). */
const struct uet_hmem_ops *uet_hmem_get(enum fi_hmem_iface iface);
/* The runtime that is offered, if any (CUDA is the only one shimmed). */
const struct uet_hmem_ops *uet_hmem_any(void);
/* Unload every runtime and forget what was found (provider cleanup,
 * tests): the next uet_hmem_get() loads again. */
void uet_hmem_fini(void);

/* The ops a device copies registrations of device memory with. */
void uet_hmem_hsi_ops(const struct uet_hmem_ops *h,
		      struct uet_hsi_mem_ops *out);

/* ---- bounce buffers of one operation ---- */

/* Device entries one operation may stage: its data, compare and result
 * lists. */
#define UET_HMEM_SEGS_MAX	24

struct uet_hmem_seg {
	void *dev;			/* the application's device memory */
	uint8_t *host;			/* its bounce, in bounce->mem */
	size_t len;
	size_t off;			/* its offset in its list */
	bool back;			/* copy to the device at completion */
};

struct uet_hmem_bounce {
	const struct uet_hmem_ops *ops;
	unsigned int nseg;
	struct uet_hmem_seg seg[UET_HMEM_SEGS_MAX];
	void *mem[3];			/* the host allocations, one a list */
	unsigned int nmem;
};

/* Which way a staged list's bytes go. */
enum uet_hmem_dir {
	UET_HMEM_OUT,			/* to the network: copied now */
	UET_HMEM_IN,			/* from the network: at completion */
};

/*
 * Stage the list iov[0, count) for ops h: out[] (which may be iov) gets
 * the list with every device entry replaced by a host bounce (the others
 * as they are).
 * Returns how many entries were device memory (0: out untouched, use
 * iov), -FI_ENOMEM or -FI_EIO.  *hb is created at the first device entry
 * and holds every bounce of the operation; the caller frees it with
 * uet_hmem_bounce_free() when the operation fails to post.
 */
int uet_hmem_stage(const struct uet_hmem_ops *h, struct uet_hmem_bounce **hb,
		   const struct iovec *iov, size_t count, struct iovec *out,
		   enum uet_hmem_dir dir);
/* uet_hmem_stage for a post path: *iov becomes out when the list had
 * device memory.  0, or -FI_E* with *hb freed (NULL). */
int uet_hmem_stage_list(const struct uet_hmem_ops *h,
			struct uet_hmem_bounce **hb, const struct iovec **iov,
			size_t count, struct iovec *out,
			enum uet_hmem_dir dir);
/* Copy the UET_HMEM_IN bytes [off, off + len) of the staged list back to
 * the device (len SIZE_MAX: all of them).  0 or -FI_EIO. */
int uet_hmem_back(struct uet_hmem_bounce *hb, size_t off, size_t len);
void uet_hmem_bounce_free(struct uet_hmem_bounce *hb);

#endif /* UET_HMEM_H */
