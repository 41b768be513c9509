/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider structure.  It lives in util/ because every layer logs on
 * it; prov/uet fills in getinfo/fabric/cleanup when libfabric loads us.
 */
#include "config.h"

#include "uet_log.h"

#define UET_PROV_VERSION_MAJOR	0
#define UET_PROV_VERSION_MINOR	1

struct fi_provider uet_prov = {
	.name = "uet",
	.version = FI_VERSION(UET_PROV_VERSION_MAJOR, UET_PROV_VERSION_MINOR),
	.fi_version = FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION),
};
