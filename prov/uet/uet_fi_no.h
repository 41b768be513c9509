/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "Not supported" implementations of libfabric ops-table slots, with the
 * exact signatures of the slots, so that provider ops tables fill every
 * slot they do not implement:
 *
 *	static struct fi_ops_rma uet_rma_ops = {
 *		.size = sizeof(struct fi_ops_rma),
 *		.read = uet_rma_read,
 *		.readv = uet_no_rma_readv,
 *		...
 *	};
 *
 * Return values follow libfabric's conventions:
 *   - operations return -FI_ENOSYS;
 *   - getopt/setopt return -FI_ENOPROTOOPT, which fi_endpoint(3) names
 *     as the answer for an option the provider does not support and
 *     which applications test for;
 *   - the "is this supported?" queries (atomic writevalid /
 *     readwritevalid / compwritevalid, domain query_atomic and
 *     query_collective) return -FI_EOPNOTSUPP, the error fi_atomic(3)
 *     and fi_collective(3) document for an unsupported operation;
 *   - strerror/straddr return the string "unknown";
 *   - cntr read/readerr (which return a count) return 0.
 *
 * Written for libfabric 1.17 through 2.x.  Slots that exist only in
 * newer headers are declared only when the headers have them.
 */
#ifndef UET_FI_NO_H
#define UET_FI_NO_H

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

/* True when the libfabric headers are at least major.minor. */
#define UET_FI_VERSION_GE(major, minor)					\
	(FI_MAJOR_VERSION > (major) ||					\
	 (FI_MAJOR_VERSION == (major) && FI_MINOR_VERSION >= (minor)))

/* One declaration per entry of uet_fi_no_list.h (the slots, with their
 * exact libfabric signatures and return values). */
#define UET_NO(type, name, value, params) type name params;
#include "uet_fi_no_list.h"
#undef UET_NO

#endif /* UET_FI_NO_H */
