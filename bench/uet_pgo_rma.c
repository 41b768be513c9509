/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RMA and atomics for the training run of a profile-guided build
 * (configure --enable-pgo, pgo.am, scripts/pgo-train.sh): fi_pingpong
 * sends only messages, so this drives the instrumented provider's RMA
 * and atomic paths.  Built against the libfabric headers and linked with
 * libfabric only; the provider is whatever FI_PROVIDER_PATH holds.
 *
 * One RDM endpoint on 127.0.0.1 targets a region it registered itself
 * (mr_mode 0: the key is the one asked for, remote addresses are
 * offsets): for each size, ITERS writes and ITERS reads, DEPTH in
 * flight, then ITERS of each of fi_atomic (FI_SUM), fi_fetch_atomic
 * (FI_SUM) and fi_compare_atomic (FI_CSWAP) on one uint64_t, one at a
 * time, with the final values checked.  Every wait is bounded.
 *
 *   uet_pgo_rma [iters]     (default 2000)
 * Exit 0, 1 on failure (with a message), 77 when uet is not found.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#define PGO_REGION	(1u << 20)
#define PGO_DEPTH	8
#define PGO_WAIT_SEC	20
#define PGO_KEY		0x5047u

#define FAIL(...)							\
	do {								\
		fprintf(stderr, "uet_pgo_rma: " __VA_ARGS__);		\
		fputc('\n', stderr);					\
		exit(1);						\
	} while (0)

/* A call that returns 0 or a negative fi_errno. */
#define CHECK(call)							\
	do {								\
		long r_ = (long)(call);					\
		if (r_)							\
			FAIL("%s: %ld (%s)", #call, r_,			\
			     fi_strerror((int)-r_));			\
	} while (0)

static struct fid_cq *pgo_cq;

/* Read completions until n have come; fails after PGO_WAIT_SEC. */
static void pgo_wait(unsigned int n)
{
	struct fi_cq_entry e[PGO_DEPTH];
	struct fi_cq_err_entry err;
	time_t end = time(NULL) + PGO_WAIT_SEC;
	ssize_t r;

	while (n > 0) {
		r = fi_cq_read(pgo_cq, e, PGO_DEPTH);
		if (r > 0) {
			n -= (unsigned int)r;
		} else if (r == -FI_EAVAIL) {
			memset(&err, 0, sizeof(err));
			fi_cq_readerr(pgo_cq, &err, 0);
			FAIL("completion error %d (%s)", err.err,
			     fi_strerror(err.err));
		} else if (r != -FI_EAGAIN) {
			FAIL("fi_cq_read: %zd", r);
		} else if (time(NULL) > end) {
			FAIL("completions did not come within %d s",
			     PGO_WAIT_SEC);
		}
	}
}

/* A post that may say -FI_EAGAIN: progress and try again, bounded. */
#define POST(call)							\
	do {								\
		time_t end_ = time(NULL) + PGO_WAIT_SEC;		\
		ssize_t r_;						\
		while ((r_ = (call)) == -FI_EAGAIN) {			\
			struct fi_cq_entry e_;				\
			if (fi_cq_read(pgo_cq, &e_, 1) == 1)		\
				inflight--;				\
			if (time(NULL) > end_)				\
				FAIL("%s: -FI_EAGAIN for %d s", #call,	\
				     PGO_WAIT_SEC);			\
		}							\
		if (r_)							\
			FAIL("%s: %zd (%s)", #call, r_,			\
			     fi_strerror((int)-r_));			\
		inflight++;						\
	} while (0)

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 64, 4096, 65536, 1048576 };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_av_attr ava = { .type = FI_AV_MAP };
	unsigned int iters = argc > 1 ? (unsigned int)atoi(argv[1]) : 2000;
	unsigned int i, s, inflight;
	struct fi_info *hints, *info = NULL;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_ep *ep;
	struct fid_av *av;
	struct fid_mr *mr;
	uint8_t *local, *region;
	uint64_t *target, *result, add = 3, cmp, swap;
	fi_addr_t self;
	char name[64];
	size_t namelen = sizeof(name);
	int ret;

	if (!iters)
		iters = 1;
	hints = fi_allocinfo();
	if (!hints)
		FAIL("fi_allocinfo");
	hints->fabric_attr->prov_name = strdup("uet");
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_RMA | FI_ATOMIC;
	hints->addr_format = FI_SOCKADDR_IN;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
				      FI_MR_PROV_KEY | FI_MR_ALLOCATED;
	ret = fi_getinfo(FI_VERSION(1, 17), "127.0.0.1", NULL, FI_SOURCE,
			 hints, &info);
	fi_freeinfo(hints);
	if (ret == -FI_ENODATA) {
		printf("SKIP: uet not found (FI_PROVIDER_PATH?)\n");
		return 77;
	}
	if (ret)
		FAIL("fi_getinfo: %d", ret);
	if (info->domain_attr->mr_mode)
		FAIL("mr_mode %#x, expected 0", info->domain_attr->mr_mode);

	local = calloc(1, PGO_REGION);
	region = calloc(1, PGO_REGION);
	result = calloc(1, sizeof(*result));
	if (!local || !region || !result)
		FAIL("calloc");
	target = (uint64_t *)region;
	CHECK(fi_fabric(info->fabric_attr, &fab, NULL));
	CHECK(fi_domain(fab, info, &dom, NULL));
	CHECK(fi_endpoint(dom, info, &ep, NULL));
	CHECK(fi_cq_open(dom, &cqa, &pgo_cq, NULL));
	CHECK(fi_av_open(dom, &ava, &av, NULL));
	CHECK(fi_ep_bind(ep, &pgo_cq->fid, FI_TRANSMIT | FI_RECV));
	CHECK(fi_ep_bind(ep, &av->fid, 0));
	CHECK(fi_enable(ep));
	CHECK(fi_mr_reg(dom, region, PGO_REGION,
			FI_REMOTE_READ | FI_REMOTE_WRITE, 0, PGO_KEY, 0, &mr,
			NULL));
	CHECK(fi_getname(&ep->fid, name, &namelen));
	if (fi_av_insert(av, name, 1, &self, 0, NULL) != 1)
		FAIL("fi_av_insert");

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t len = sizes[s];
		unsigned int n = len >= 65536 ? iters / 20 + 1 : iters;

		memset(local, 'a' + (int)s, len);
		inflight = 0;
		for (i = 0; i < n; i++) {
			POST(fi_write(ep, local, len, NULL, self, 0, PGO_KEY,
				      NULL));
			if (inflight >= PGO_DEPTH) {
				pgo_wait(inflight);
				inflight = 0;
			}
		}
		pgo_wait(inflight);
		if (memcmp(region, local, len))
			FAIL("the region differs after %zu-byte writes", len);
		memset(local, 0, len);
		inflight = 0;
		for (i = 0; i < n; i++) {
			POST(fi_read(ep, local, len, NULL, self, 0, PGO_KEY,
				     NULL));
			if (inflight >= PGO_DEPTH) {
				pgo_wait(inflight);
				inflight = 0;
			}
		}
		pgo_wait(inflight);
		if (memcmp(region, local, len))
			FAIL("%zu-byte reads differ from the region", len);
	}

	*target = 0;
	for (i = 0; i < iters; i++) {
		inflight = 0;
		POST(fi_atomic(ep, &add, 1, NULL, self, 0, PGO_KEY,
			       FI_UINT64, FI_SUM, NULL));
		pgo_wait(inflight);
		inflight = 0;
		POST(fi_fetch_atomic(ep, &add, 1, NULL, result, NULL, self, 0,
				     PGO_KEY, FI_UINT64, FI_SUM, NULL));
		pgo_wait(inflight);
		cmp = *result + add;
		swap = cmp + 1;
		inflight = 0;
		POST(fi_compare_atomic(ep, &swap, 1, NULL, &cmp, NULL, result,
				       NULL, self, 0, PGO_KEY, FI_UINT64,
				       FI_CSWAP, NULL));
		pgo_wait(inflight);
	}
	if (*target != (uint64_t)iters * 7)
		FAIL("the atomics left %" PRIu64 ", expected %" PRIu64,
		     *target, (uint64_t)iters * 7);

	CHECK(fi_close(&mr->fid));
	CHECK(fi_close(&ep->fid));
	CHECK(fi_close(&av->fid));
	CHECK(fi_close(&pgo_cq->fid));
	CHECK(fi_close(&dom->fid));
	CHECK(fi_close(&fab->fid));
	fi_freeinfo(info);
	free(local);
	free(region);
	free(result);
	printf("uet_pgo_rma: %u of each RMA size, %u of each atomic: ok\n",
	       iters, iters);
	return 0;
}
