/* SPDX-License-Identifier: BSD-2-Clause */
/* Provider-wide declarations. */
#ifndef UET_PROV_H
#define UET_PROV_H

#include <rdma/fabric.h>
#include <rdma/providers/fi_prov.h>

#include "uet_log.h"

/* Fill in uet_prov's entry points; returns the provider structure. */
struct fi_provider *uet_prov_init(void);

int uet_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info);
int uet_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
	       void *context);

#endif /* UET_PROV_H */
