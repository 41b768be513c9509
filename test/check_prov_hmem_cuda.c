/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FI_HMEM_CUDA (prov/uet/uet_hmem*.c): the driver shim and the host
 * bounce path.
 *
 *   absent     FI_UET_HMEM_CUDA_LIB names no library, or the fake driver
 *              reports no device: CUDA not offered, FI_MR_HMEM cleared,
 *              registrations of FI_HMEM_CUDA -FI_EOPNOTSUPP, system
 *              memory as before
 *   fake       test/uet_fake_cuda.c (built by the makefile as a module):
 *              its "device memory" is an address range no one may touch
 *              (PROT_NONE) whose bytes only its copies reach, so a byte
 *              that moved without the bounce path faults.  CUDA offered,
 *              registrations checked (device, range, memory type), and
 *              data in both directions between a side whose buffers are
 *              device memory and a side with host memory: send/receive
 *              (inline, eager, rendezvous), RMA write and read as
 *              initiator and as target, atomics at a device target and
 *              with device operand and result; every byte compared, the
 *              fake driver's copy counters prove the copies ran
 *   real GPU   the same data test over libcuda.so.1, added only when it
 *              loads and reports a device (otherwise the reason is
 *              printed and the test is not run)
 *
 * Two RDM endpoints on 127.0.0.1, each on its own domain, manual
 * progress.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include "uet_hmem.h"
#include "uet_prov.h"
#include "uet_test.h"
#include "prov_test.h"

#ifndef UET_FAKE_CUDA_LIB
#error "UET_FAKE_CUDA_LIB: the path of the fake driver (test makefile)"
#endif

#define API		FI_VERSION(1, 18)
#define WAIT_MS		20000
#define CAPS		(FI_MSG | FI_TAGGED | FI_RMA | FI_ATOMIC | FI_HMEM)
#define NO_LIB		"libuet-no-such-cuda.so.1"
#define BIG		300000u

/* The driver entry points the test itself calls. */
struct cu {
	void *lib;
	int (*init)(unsigned int);
	int (*alloc)(unsigned long long *, size_t);
	int (*free)(unsigned long long);
	int (*htod)(unsigned long long, const void *, size_t);
	int (*dtoh)(void *, unsigned long long, size_t);
	int (*retain)(void **, int);
	int (*set_ctx)(void *);
	void (*counts)(unsigned long long *, unsigned long long *,
		       unsigned long long *, unsigned long long *);
};

static void *cu_sym(void *lib, const char *name)
{
	void *f = dlsym(lib, name);

	ck_assert_msg(f != NULL, "%s missing", name);
	return f;
}

/* Open the driver at path for the test (the provider's dlopen of the same
 * path shares it); a current context on device 0. */
static void cu_open(struct cu *c, const char *path)
{
	void *ctx = NULL;

	memset(c, 0, sizeof(*c));
	c->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(c->lib != NULL, "%s: %s", path, dlerror());
	*(void **)&c->init = cu_sym(c->lib, "cuInit");
	*(void **)&c->alloc = cu_sym(c->lib, "cuMemAlloc_v2");
	*(void **)&c->free = cu_sym(c->lib, "cuMemFree_v2");
	*(void **)&c->htod = cu_sym(c->lib, "cuMemcpyHtoD_v2");
	*(void **)&c->dtoh = cu_sym(c->lib, "cuMemcpyDtoH_v2");
	*(void **)&c->retain = cu_sym(c->lib, "cuDevicePrimaryCtxRetain");
	*(void **)&c->set_ctx = cu_sym(c->lib, "cuCtxSetCurrent");
	*(void **)&c->counts = dlsym(c->lib, "uet_fake_cuda_counts");
	ck_assert_int_eq(c->init(0), 0);
	ck_assert_int_eq(c->retain(&ctx, 0), 0);
	ck_assert_int_eq(c->set_ctx(ctx), 0);
}

static void *cu_alloc(struct cu *c, size_t len)
{
	unsigned long long p = 0;

	ck_assert_int_eq(c->alloc(&p, len), 0);
	return (void *)(uintptr_t)p;
}

static void cu_put(struct cu *c, void *dev, const void *host, size_t len)
{
	ck_assert_int_eq(c->htod((uintptr_t)dev, host, len), 0);
}

static void cu_get(struct cu *c, void *host, const void *dev, size_t len)
{
	ck_assert_int_eq(c->dtoh(host, (uintptr_t)dev, len), 0);
}

/* The fake driver's copies so far (zeros with a real one). */
static void cu_counts(struct cu *c, unsigned long long *htod,
		      unsigned long long *dtoh)
{
	unsigned long long hb, db;

	*htod = *dtoh = 0;
	if (c->counts)
		c->counts(htod, dtoh, &hb, &db);
}

/* Load the shim afresh over lib. */
static void shim_use(const char *lib)
{
	setenv("FI_UET_HMEM_CUDA_LIB", lib, 1);
	uet_hmem_fini();
}

struct side {
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_cq *cq;
	struct fid_av *av;
	fi_addr_t peer;
};

struct pair {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct side s[2];
};

static struct fi_info *info_get(uint64_t caps, int mr_mode)
{
	struct fi_info *h = fi_allocinfo(), *info = NULL;

	ck_assert_ptr_nonnull(h);
	h->caps = caps;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode = mr_mode;
	h->domain_attr->data_progress = FI_PROGRESS_MANUAL;
	h->addr_format = FI_SOCKADDR_IN;
	ck_assert_int_eq(uet_getinfo(API, "127.0.0.1", NULL, FI_SOURCE, h,
				     &info), 0);
	fi_freeinfo(h);
	ck_assert_ptr_nonnull(info);
	return info;
}

static void pair_open(struct pair *p, uint64_t caps, int mr_mode)
{
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_TAGGED };
	struct fi_av_attr ava = { .type = FI_AV_TABLE };
	int i;

	memset(p, 0, sizeof(*p));
	p->info = info_get(caps, mr_mode);
	ck_assert_int_eq(uet_fabric(p->info->fabric_attr, &p->fab, NULL), 0);
	for (i = 0; i < 2; i++) {
		struct side *s = &p->s[i];

		ck_assert_int_eq(fi_domain(p->fab, p->info, &s->dom, NULL), 0);
		ck_assert_int_eq(fi_cq_open(s->dom, &cqa, &s->cq, NULL), 0);
		ck_assert_int_eq(fi_av_open(s->dom, &ava, &s->av, NULL), 0);
		ck_assert_int_eq(fi_endpoint(s->dom, p->info, &s->ep, NULL),
				 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->cq->fid,
					    FI_TRANSMIT | FI_RECV), 0);
		ck_assert_int_eq(fi_ep_bind(s->ep, &s->av->fid, 0), 0);
		ck_assert_int_eq(fi_enable(s->ep), 0);
	}
	uet_test_pair_connect((struct fid_ep *[2]){ p->s[0].ep, p->s[1].ep },
			      (struct fid_av *[2]){ p->s[0].av, p->s[1].av },
			      (fi_addr_t *[2]){ &p->s[0].peer,
						&p->s[1].peer });
}

static void pair_close(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(fi_close(&p->s[i].ep->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].av->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].cq->fid), 0);
		ck_assert_int_eq(fi_close(&p->s[i].dom->fid), 0);
	}
	ck_assert_int_eq(fi_close(&p->fab->fid), 0);
	fi_freeinfo(p->info);
}

static void wait_ok(struct pair *p, int i, struct fi_cq_tagged_entry *e)
{
	struct fi_cq_err_entry err;
	int ret;

	ret = uet_test_cq_wait(p->s[i].cq, p->s[1 - i].cq, WAIT_MS, e, NULL,
			       &err);
	ck_assert_msg(ret == 1, "side %d: %d (err %d: %s)", i, ret, err.err,
		      ret == -FI_EAVAIL ? fi_strerror(err.err) : "timeout");
}

static int reg(struct fid_domain *dom, void *buf, size_t len,
	       uint64_t access, enum fi_hmem_iface iface, int device,
	       uint64_t key, struct fid_mr **mr)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_mr_attr a = {
		.mr_iov = &iov, .iov_count = 1, .access = access,
		.requested_key = key, .iface = iface,
	};

	a.device.cuda = device;
	return fi_mr_regattr(dom, &a, 0, mr);
}

static void fill(uint8_t *b, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8));
}

/* ---- no runtime ---- */

static void check_not_offered(void)
{
	static uint8_t src[4096], dst[4096];
	struct fid_mr *mr = (struct fid_mr *)0x1, *msys;
	struct fi_cq_tagged_entry e;
	struct fi_info *info;
	struct pair p;

	ck_assert_ptr_null(uet_hmem_get(FI_HMEM_CUDA));
	ck_assert_ptr_null(uet_hmem_any());
	info = info_get(CAPS, FI_MR_HMEM | FI_MR_LOCAL);
	ck_assert(info->caps & FI_HMEM);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	fi_freeinfo(info);

	pair_open(&p, CAPS, 0);
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_CUDA, 0, 0, &mr), -FI_EOPNOTSUPP);
	ck_assert_ptr_null(mr);
	ck_assert_int_eq(reg(p.s[1].dom, dst, sizeof(dst), FI_RECV,
			     FI_HMEM_SYSTEM, 0, 0, &msys), 0);
	fill(src, sizeof(src), 1);
	ck_assert_int_eq(fi_recv(p.s[1].ep, dst, sizeof(dst),
				 fi_mr_desc(msys), FI_ADDR_UNSPEC, NULL), 0);
	ck_assert_int_eq(fi_send(p.s[0].ep, src, sizeof(src), NULL,
				 p.s[0].peer, NULL), 0);
	wait_ok(&p, 1, &e);
	wait_ok(&p, 0, &e);
	ck_assert_mem_eq(dst, src, sizeof(src));
	ck_assert_int_eq(fi_close(&msys->fid), 0);
	pair_close(&p);
}

/* FI_UET_HMEM_CUDA_LIB names no library. */
START_TEST(test_cuda_no_library)
{
	shim_use(NO_LIB);
	check_not_offered();
}
END_TEST

/* The driver loads but has no device. */
START_TEST(test_cuda_no_device)
{
	setenv("UET_FAKE_CUDA_DEVICES", "0", 1);
	shim_use(UET_FAKE_CUDA_LIB);
	check_not_offered();
	unsetenv("UET_FAKE_CUDA_DEVICES");
}
END_TEST

/* ---- the fake driver ---- */

/* Registration in a domain that serves CUDA: device memory of the right
 * device and range, with iface and device recorded. */
START_TEST(test_cuda_fake_reg)
{
	static uint8_t host[4096];
	struct fid_mr *mr = NULL;
	struct fi_info *info;
	struct uet_mr *umr;
	struct pair p;
	struct cu c;
	uint8_t *d;

	shim_use(UET_FAKE_CUDA_LIB);
	ck_assert_ptr_nonnull(uet_hmem_get(FI_HMEM_CUDA));
	ck_assert_ptr_null(uet_hmem_get(FI_HMEM_ZE));
	info = info_get(CAPS, FI_MR_HMEM);
	ck_assert_int_eq(info->domain_attr->mr_mode, FI_MR_HMEM);
	fi_freeinfo(info);
	/* not asked for: cleared as before */
	info = info_get(CAPS, FI_MR_LOCAL);
	ck_assert_int_eq(info->domain_attr->mr_mode, 0);
	fi_freeinfo(info);

	cu_open(&c, UET_FAKE_CUDA_LIB);
	d = cu_alloc(&c, 8192);
	pair_open(&p, CAPS, FI_MR_HMEM);
	ck_assert_int_eq(reg(p.s[0].dom, d, 8192, FI_RECV | FI_REMOTE_WRITE,
			     FI_HMEM_CUDA, 0, 5, &mr), 0);
	umr = uet_container_of(mr, struct uet_mr, fid);
	ck_assert_int_eq(umr->iface, FI_HMEM_CUDA);
	ck_assert_uint_eq(umr->device, 0);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	/* another device, host memory, past the allocation, another
	 * runtime */
	ck_assert_int_eq(reg(p.s[0].dom, d, 8192, FI_RECV, FI_HMEM_CUDA, 1,
			     0, &mr), -FI_ENODEV);
	ck_assert_int_eq(reg(p.s[0].dom, host, sizeof(host), FI_RECV,
			     FI_HMEM_CUDA, 0, 0, &mr), -FI_EINVAL);
	ck_assert_int_eq(reg(p.s[0].dom, d + 4096, 8192, FI_RECV,
			     FI_HMEM_CUDA, 0, 0, &mr), -FI_EINVAL);
	ck_assert_int_eq(reg(p.s[0].dom, d, 8192, FI_RECV, FI_HMEM_ZE, 0, 0,
			     &mr), -FI_EOPNOTSUPP);
	ck_assert_int_eq(reg(p.s[0].dom, host, sizeof(host), FI_RECV,
			     FI_HMEM_SYSTEM, 0, 0, &mr), 0);
	umr = uet_container_of(mr, struct uet_mr, fid);
	ck_assert_int_eq(umr->iface, FI_HMEM_SYSTEM);
	ck_assert_int_eq(fi_close(&mr->fid), 0);
	pair_close(&p);

	/* without FI_HMEM: iface not read, device memory not served */
	pair_open(&p, FI_MSG | FI_RMA, 0);
	ck_assert_ptr_null(uet_container_of(p.s[0].dom, struct uet_domain,
					    fid)->hmem_dev);
	pair_close(&p);
	ck_assert_int_eq(c.free((uintptr_t)d), 0);
}
END_TEST

/*
 * Side 0's buffers are device memory, side 1's host memory.  Each step
 * checks every byte and that the driver copied.
 */
static void hmem_data(struct cu *c)
{
	static const size_t sizes[] = { 16, 4000, BIG };
	static uint8_t hsrc[BIG], hdst[BIG], htgt[BIG], chk[BIG];
	struct fid_mr *mdsrc, *mddst, *mdtgt, *mhtgt;
	unsigned long long h0, d0, h1, d1;
	uint64_t ops[4], res[4], old[4];
	struct fi_cq_tagged_entry e;
	uint8_t *dsrc, *ddst, *dtgt;
	struct pair p;
	size_t k, i, n;

	dsrc = cu_alloc(c, BIG);
	ddst = cu_alloc(c, BIG);
	dtgt = cu_alloc(c, BIG);
	pair_open(&p, CAPS, FI_MR_HMEM);
	ck_assert(p.info->caps & FI_HMEM);
	ck_assert_uint_eq(p.info->domain_attr->mr_mode & FI_MR_HMEM,
			  FI_MR_HMEM);
	ck_assert_int_eq(reg(p.s[0].dom, dsrc, BIG, FI_SEND | FI_WRITE,
			     FI_HMEM_CUDA, 0, 0, &mdsrc), 0);
	ck_assert_int_eq(reg(p.s[0].dom, ddst, BIG, FI_RECV | FI_READ,
			     FI_HMEM_CUDA, 0, 0, &mddst), 0);
	ck_assert_int_eq(reg(p.s[0].dom, dtgt, BIG,
			     FI_REMOTE_WRITE | FI_REMOTE_READ, FI_HMEM_CUDA,
			     0, 88, &mdtgt), 0);
	ck_assert_int_eq(reg(p.s[1].dom, htgt, BIG,
			     FI_REMOTE_WRITE | FI_REMOTE_READ, FI_HMEM_SYSTEM,
			     0, 77, &mhtgt), 0);

	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		n = sizes[k];
		/* device -> host */
		fill(chk, n, (unsigned int)k + 1);
		cu_put(c, dsrc, chk, n);
		memset(hdst, 0, n);
		cu_counts(c, &h0, &d0);
		ck_assert_int_eq(fi_trecv(p.s[1].ep, hdst, n, NULL,
					  FI_ADDR_UNSPEC, 3, 0, (void *)1), 0);
		ck_assert_int_eq(fi_tsend(p.s[0].ep, dsrc, n,
					  fi_mr_desc(mdsrc), p.s[0].peer, 3,
					  (void *)2), 0);
		wait_ok(&p, 1, &e);
		ck_assert_uint_eq(e.len, n);
		wait_ok(&p, 0, &e);
		ck_assert_mem_eq(hdst, chk, n);
		cu_counts(c, &h1, &d1);
		ck_assert(!c->counts || d1 > d0);

		/* host -> device (the receive posted first and after) */
		fill(hsrc, n, (unsigned int)k + 11);
		memset(chk, 0, n);
		cu_put(c, ddst, chk, n);
		ck_assert_int_eq(fi_recv(p.s[0].ep, ddst, n, fi_mr_desc(mddst),
					 FI_ADDR_UNSPEC, (void *)3), 0);
		ck_assert_int_eq(fi_send(p.s[1].ep, hsrc, n, NULL, p.s[1].peer,
					 (void *)4), 0);
		wait_ok(&p, 0, &e);
		ck_assert_uint_eq(e.len, n);
		ck_assert_ptr_eq(e.buf, ddst);
		wait_ok(&p, 1, &e);
		cu_get(c, chk, ddst, n);
		ck_assert_mem_eq(chk, hsrc, n);
		cu_counts(c, &h0, &d0);
		ck_assert(!c->counts || h0 > h1);
	}

	/* RMA, device initiator: write from and read into device memory */
	fill(chk, BIG, 21);
	cu_put(c, dsrc, chk, BIG);
	memset(htgt, 0, BIG);
	ck_assert_int_eq(fi_write(p.s[0].ep, dsrc, BIG, fi_mr_desc(mdsrc),
				  p.s[0].peer, 0, 77, (void *)5), 0);
	wait_ok(&p, 0, &e);
	ck_assert_mem_eq(htgt, chk, BIG);
	fill(htgt, BIG, 22);
	ck_assert_int_eq(fi_read(p.s[0].ep, ddst, BIG, fi_mr_desc(mddst),
				 p.s[0].peer, 0, 77, (void *)6), 0);
	wait_ok(&p, 0, &e);
	cu_get(c, chk, ddst, BIG);
	ck_assert_mem_eq(chk, htgt, BIG);

	/* RMA, device target: a host initiator writes into and reads from
	 * registered device memory (the target's device copies) */
	fill(hsrc, BIG, 23);
	cu_counts(c, &h0, &d0);
	ck_assert_int_eq(fi_write(p.s[1].ep, hsrc, BIG, NULL, p.s[1].peer, 0,
				  88, (void *)7), 0);
	wait_ok(&p, 1, &e);
	cu_get(c, chk, dtgt, BIG);
	ck_assert_mem_eq(chk, hsrc, BIG);
	cu_counts(c, &h1, &d1);
	ck_assert(!c->counts || h1 > h0);
	fill(chk, BIG, 24);
	cu_put(c, dtgt, chk, BIG);
	memset(hdst, 0, BIG);
	ck_assert_int_eq(fi_read(p.s[1].ep, hdst, BIG, NULL, p.s[1].peer, 0,
				 88, (void *)8), 0);
	wait_ok(&p, 1, &e);
	ck_assert_mem_eq(hdst, chk, BIG);

	/* atomics at a device target: FI_SUM of 4 uint64 */
	for (i = 0; i < 4; i++) {
		old[i] = 1000 + i;
		ops[i] = 5 * i + 1;
	}
	cu_put(c, dtgt, old, sizeof(old));
	ck_assert_int_eq(fi_atomic(p.s[1].ep, ops, 4, NULL, p.s[1].peer, 0,
				   88, FI_UINT64, FI_SUM, (void *)9), 0);
	wait_ok(&p, 1, &e);
	cu_get(c, res, dtgt, sizeof(res));
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(res[i], old[i] + ops[i]);

	/* fetching atomic with device operand and result, host target */
	memcpy(htgt, old, sizeof(old));
	cu_put(c, dsrc, ops, sizeof(ops));
	memset(res, 0, sizeof(res));
	cu_put(c, ddst, res, sizeof(res));
	ck_assert_int_eq(fi_fetch_atomic(p.s[0].ep, dsrc, 4, fi_mr_desc(mdsrc),
					 ddst, fi_mr_desc(mddst), p.s[0].peer,
					 0, 77, FI_UINT64, FI_SUM,
					 (void *)10), 0);
	wait_ok(&p, 0, &e);
	cu_get(c, res, ddst, sizeof(res));
	ck_assert_mem_eq(res, old, sizeof(old));
	memcpy(res, htgt, sizeof(res));
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(res[i], old[i] + ops[i]);

	ck_assert_int_eq(fi_close(&mdsrc->fid), 0);
	ck_assert_int_eq(fi_close(&mddst->fid), 0);
	ck_assert_int_eq(fi_close(&mdtgt->fid), 0);
	ck_assert_int_eq(fi_close(&mhtgt->fid), 0);
	pair_close(&p);
	ck_assert_int_eq(c->free((uintptr_t)dsrc), 0);
	ck_assert_int_eq(c->free((uintptr_t)ddst), 0);
	ck_assert_int_eq(c->free((uintptr_t)dtgt), 0);
}

START_TEST(test_cuda_fake_data)
{
	unsigned long long h, d, hb, db;
	struct cu c;

	/* the largest messages by rendezvous (the target pulls from the
	 * sender's bounce) */
	setenv("FI_UET_RDZV_THRESHOLD", "64K", 1);
	shim_use(UET_FAKE_CUDA_LIB);
	ck_assert_ptr_nonnull(uet_hmem_get(FI_HMEM_CUDA));
	cu_open(&c, UET_FAKE_CUDA_LIB);
	ck_assert_ptr_nonnull(c.counts);
	hmem_data(&c);
	unsetenv("FI_UET_RDZV_THRESHOLD");
	c.counts(&h, &d, &hb, &db);
	printf("fake CUDA driver: %llu copies to the device (%llu bytes), "
	       "%llu from it (%llu bytes)\n", h, hb, d, db);
}
END_TEST

/* The same with a real GPU (added by the suite only where one is). */
START_TEST(test_cuda_real_data)
{
	struct cu c;

	shim_use("libcuda.so.1");
	ck_assert_ptr_nonnull(uet_hmem_get(FI_HMEM_CUDA));
	cu_open(&c, "libcuda.so.1");
	hmem_data(&c);
}
END_TEST

/* Whether libcuda.so.1 loads and reports a device; why not in why. */
static bool real_gpu(char *why, size_t len)
{
	int (*init)(unsigned int), (*count)(int *);
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	int n = 0, r;

	if (!lib) {
		snprintf(why, len, "libcuda.so.1 does not load (%s)",
			 dlerror());
		return false;
	}
	*(void **)&init = dlsym(lib, "cuInit");
	*(void **)&count = dlsym(lib, "cuDeviceGetCount");
	if (!init || !count) {
		snprintf(why, len, "libcuda.so.1 lacks cuInit");
		dlclose(lib);
		return false;
	}
	r = init(0);
	if (!r)
		r = count(&n);
	dlclose(lib);
	if (r || n < 1) {
		snprintf(why, len, "libcuda.so.1: cuInit/cuDeviceGetCount "
			 "error %d, %d device(s)", r, n);
		return false;
	}
	return true;
}

static Suite *prov_hmem_cuda_suite(void)
{
	Suite *s = suite_create("prov_hmem_cuda");
	TCase *tc = tcase_create("cuda");
	char why[256];

	uet_prov_init();
	setenv("FI_UET_IFACE", "lo", 1);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cuda_no_library);
	tcase_add_test(tc, test_cuda_no_device);
	tcase_add_test(tc, test_cuda_fake_reg);
	tcase_add_test(tc, test_cuda_fake_data);
	if (real_gpu(why, sizeof(why)))
		tcase_add_test(tc, test_cuda_real_data);
	else
		printf("SKIP test_cuda_real_data: %s\n", why);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_hmem_cuda_suite)
