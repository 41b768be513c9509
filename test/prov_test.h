/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the provider suites (check_prov, check_prov_rma).
 */
#ifndef UET_PROV_TEST_H
#define UET_PROV_TEST_H

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

#endif /* UET_PROV_TEST_H */
