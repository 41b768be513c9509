/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the provider suites (check_prov, check_prov_rma).
 */
#ifndef UET_PROV_TEST_H
#define UET_PROV_TEST_H

#include <stdlib.h>
#include <string.h>

#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>

#include "uet_clock.h"
#include "uet_test.h"

/*
 * One completion from cq within wait_ms, reading `other` meanwhile so
 * the peer endpoint progresses too (manual progress): 1, -FI_EAVAIL with
 * *err filled from fi_cq_readerr, or -FI_EAGAIN at the timeout.
 */
static inline int uet_test_cq_wait(struct fid_cq *cq, struct fid_cq *other,
				   unsigned int wait_ms,
				   struct fi_cq_tagged_entry *e,
				   fi_addr_t *src, struct fi_cq_err_entry *err)
{
	uint64_t end = uet_clock_now_ns() + wait_ms * UET_NSEC_PER_MSEC;
	ssize_t ret;

	while (uet_clock_now_ns() < end) {
		ret = fi_cq_readfrom(cq, e, 1, src);
		if (ret == 1)
			return 1;
		if (ret == -FI_EAVAIL) {
			memset(err, 0, sizeof(*err));
			ck_assert_int_eq(fi_cq_readerr(cq, err, 0), 1);
			return -FI_EAVAIL;
		}
		ck_assert_int_eq(ret, -FI_EAGAIN);
		fi_cq_read(other, NULL, 0);
	}
	return -FI_EAGAIN;
}

/* What a suite asks fi_getinfo for (zeros: RDM, manual progress, no
 * mr_mode bit). */
struct uet_test_hints {
	enum fi_ep_type type;		/* 0: FI_EP_RDM */
	uint64_t caps;
	enum fi_progress progress;	/* 0: FI_PROGRESS_MANUAL */
	int mr_mode;
};

/*
 * The info on 127.0.0.1 (lo only, FI_SOCKADDR_IN) for API version api;
 * the caller includes uet_prov.h.
 */
static inline struct fi_info *uet_test_info(uint32_t api,
					    const struct uet_test_hints *h)
{
	struct fi_info *hints, *info = NULL;

	uet_prov_init();
	setenv("FI_UET_IFACE", "lo", 1);
	hints = fi_allocinfo();
	ck_assert_ptr_nonnull(hints);
	hints->ep_attr->type = h->type ? h->type : FI_EP_RDM;
	hints->caps = h->caps;
	hints->domain_attr->mr_mode = h->mr_mode;
	hints->domain_attr->data_progress = h->progress ? h->progress :
					    FI_PROGRESS_MANUAL;
	hints->addr_format = FI_SOCKADDR_IN;
	ck_assert_int_eq(uet_getinfo(api, "127.0.0.1", NULL, FI_SOURCE,
				     hints, &info), 0);
	fi_freeinfo(hints);
	ck_assert_ptr_nonnull(info);
	return info;
}

/* The RDM info with caps and manual progress. */
static inline struct fi_info *uet_test_lo_info(uint32_t api, uint64_t caps)
{
	return uet_test_info(api, &(struct uet_test_hints){ .caps = caps });
}

/* Two enabled endpoints learn each other: the name of each goes into
 * the other's AV, its fi_addr_t into peer[other]. */
static inline void uet_test_pair_connect(struct fid_ep *ep[2],
					 struct fid_av *av[2],
					 fi_addr_t *peer[2])
{
	uint8_t name[2][64];
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		len = sizeof(name[i]);
		ck_assert_int_eq(fi_getname(&ep[i]->fid, name[i], &len), 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(fi_av_insert(av[i], name[1 - i], 1, peer[i],
					      0, NULL), 1);
}

#endif /* UET_PROV_TEST_H */
