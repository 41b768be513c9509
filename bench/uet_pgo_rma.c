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
 * Exit 0, or 1 on any failure, uet not found included (with a message).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
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

static struct fid_cq *pgo_cq;
static struct fid_ep *pgo_ep;
static fi_addr_t pgo_self;
static unsigned int pgo_inflight;

static void pgo_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void pgo_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("uet_pgo_rma: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* what returned ret, 0 or a negative fi_errno. */
static void pgo_ok(long ret, const char *what)
{
	if (ret)
		pgo_fail("%s: %ld (%s)", what, ret, fi_strerror((int)-ret));
}

/* Read completions until every posted operation has completed; fails
 * on an error completion or after PGO_WAIT_SEC. */
static void pgo_drain(void)
{
	struct fi_cq_entry e[PGO_DEPTH];
	struct fi_cq_err_entry err;
	time_t end = time(NULL) + PGO_WAIT_SEC;
	ssize_t r;

	while (pgo_inflight > 0) {
		r = fi_cq_read(pgo_cq, e, PGO_DEPTH);
		if (r > 0) {
			pgo_inflight -= (unsigned int)r;
		} else if (r == -FI_EAVAIL) {
			memset(&err, 0, sizeof(err));
			fi_cq_readerr(pgo_cq, &err, 0);
			pgo_fail("completion error %d (%s)", err.err,
				 fi_strerror(err.err));
		} else if (r != -FI_EAGAIN) {
			pgo_fail("fi_cq_read: %zd", r);
		} else if (time(NULL) > end) {
			pgo_fail("completions did not come within %d s",
				 PGO_WAIT_SEC);
		}
	}
}

/* The result of a post: on -FI_EAGAIN drain and say to post again. */
static bool pgo_posted(ssize_t ret, const char *what)
{
	if (ret == -FI_EAGAIN) {
		pgo_drain();
		return false;
	}
	pgo_ok(ret, what);
	pgo_inflight++;
	return true;
}

/* n writes (or reads) of len bytes between local and offset 0 of the
 * region, PGO_DEPTH at a time; then the two must be equal. */
static void pgo_rma(bool read, uint8_t *local, const uint8_t *region,
		    size_t len, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		while (!(read ?
			 pgo_posted(fi_read(pgo_ep, local, len, NULL,
					    pgo_self, 0, PGO_KEY, NULL),
				    "fi_read") :
			 pgo_posted(fi_write(pgo_ep, local, len, NULL,
					     pgo_self, 0, PGO_KEY, NULL),
				    "fi_write")))
			;
		if (pgo_inflight >= PGO_DEPTH)
			pgo_drain();
	}
	pgo_drain();
	if (memcmp(region, local, len))
		pgo_fail("%zu-byte %s: the region and the buffer differ", len,
			 read ? "reads" : "writes");
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 64, 4096, 65536, 1048576 };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT };
	struct fi_av_attr ava = { .type = FI_AV_MAP };
	unsigned int iters = argc > 1 ? (unsigned int)atoi(argv[1]) : 2000;
	unsigned int i, s;
	struct fi_info *hints, *info = NULL;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct fid_mr *mr;
	uint8_t *local, *region;
	uint64_t *target, *result, add = 3, cmp, swap;
	char name[64];
	size_t namelen = sizeof(name);
	int ret;

	if (!iters)
		iters = 1;
	hints = fi_allocinfo();
	if (!hints)
		pgo_fail("fi_allocinfo");
	hints->fabric_attr->prov_name = strdup("uet");
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_RMA | FI_ATOMIC;
	hints->addr_format = FI_SOCKADDR_IN;
	hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR |
				      FI_MR_PROV_KEY | FI_MR_ALLOCATED;
	ret = fi_getinfo(FI_VERSION(1, 17), "127.0.0.1", NULL, FI_SOURCE,
			 hints, &info);
	fi_freeinfo(hints);
	/* No skip: a training run without uet trains nothing. */
	pgo_ok(ret, "fi_getinfo of uet on 127.0.0.1 (FI_PROVIDER_PATH?)");
	if (info->domain_attr->mr_mode)
		pgo_fail("mr_mode %#x, expected 0", info->domain_attr->mr_mode);

	local = calloc(1, PGO_REGION);
	region = calloc(1, PGO_REGION);
	result = calloc(1, sizeof(*result));
	if (!local || !region || !result)
		pgo_fail("calloc");
	target = (uint64_t *)region;
	pgo_ok(fi_fabric(info->fabric_attr, &fab, NULL), "fi_fabric");
	pgo_ok(fi_domain(fab, info, &dom, NULL), "fi_domain");
	pgo_ok(fi_endpoint(dom, info, &pgo_ep, NULL), "fi_endpoint");
	pgo_ok(fi_cq_open(dom, &cqa, &pgo_cq, NULL), "fi_cq_open");
	pgo_ok(fi_av_open(dom, &ava, &av, NULL), "fi_av_open");
	pgo_ok(fi_ep_bind(pgo_ep, &pgo_cq->fid, FI_TRANSMIT | FI_RECV),
	       "fi_ep_bind(cq)");
	pgo_ok(fi_ep_bind(pgo_ep, &av->fid, 0), "fi_ep_bind(av)");
	pgo_ok(fi_enable(pgo_ep), "fi_enable");
	pgo_ok(fi_mr_reg(dom, region, PGO_REGION,
			 FI_REMOTE_READ | FI_REMOTE_WRITE, 0, PGO_KEY, 0, &mr,
			 NULL), "fi_mr_reg");
	pgo_ok(fi_getname(&pgo_ep->fid, name, &namelen), "fi_getname");
	if (fi_av_insert(av, name, 1, &pgo_self, 0, NULL) != 1)
		pgo_fail("fi_av_insert");

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t len = sizes[s];
		unsigned int n = len >= 65536 ? iters / 20 + 1 : iters;

		memset(local, 'a' + (int)s, len);
		pgo_rma(false, local, region, len, n);
		memset(local, 0, len);
		pgo_rma(true, local, region, len, n);
	}

	/* Each round adds 3, fetches and adds 3, swaps in one more: 7. */
	*target = 0;
	for (i = 0; i < iters; i++) {
		while (!pgo_posted(fi_atomic(pgo_ep, &add, 1, NULL, pgo_self,
					     0, PGO_KEY, FI_UINT64, FI_SUM,
					     NULL), "fi_atomic"))
			;
		pgo_drain();
		while (!pgo_posted(fi_fetch_atomic(pgo_ep, &add, 1, NULL,
						   result, NULL, pgo_self, 0,
						   PGO_KEY, FI_UINT64, FI_SUM,
						   NULL), "fi_fetch_atomic"))
			;
		pgo_drain();
		cmp = *result + add;
		swap = cmp + 1;
		while (!pgo_posted(fi_compare_atomic(pgo_ep, &swap, 1, NULL,
						     &cmp, NULL, result, NULL,
						     pgo_self, 0, PGO_KEY,
						     FI_UINT64, FI_CSWAP, NULL),
				   "fi_compare_atomic"))
			;
		pgo_drain();
	}
	if (*target != (uint64_t)iters * 7)
		pgo_fail("the atomics left %" PRIu64 ", expected %" PRIu64,
			 *target, (uint64_t)iters * 7);

	pgo_ok(fi_close(&mr->fid), "fi_close(mr)");
	pgo_ok(fi_close(&pgo_ep->fid), "fi_close(ep)");
	pgo_ok(fi_close(&av->fid), "fi_close(av)");
	pgo_ok(fi_close(&pgo_cq->fid), "fi_close(cq)");
	pgo_ok(fi_close(&dom->fid), "fi_close(domain)");
	pgo_ok(fi_close(&fab->fid), "fi_close(fabric)");
	fi_freeinfo(info);
	free(local);
	free(region);
	free(result);
	printf("uet_pgo_rma: %u of each RMA size, %u of each atomic: ok\n",
	       iters, iters);
	return 0;
}
