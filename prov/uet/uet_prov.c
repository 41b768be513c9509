/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Provider entry points.  Discovery is wired end to end so that libfabric
 * loads and lists uet; the fabric/domain/endpoint objects arrive with the
 * provider-core work, until then getinfo reports that nothing matches.
 */
#include "config.h"

#include <errno.h>

#include <rdma/fi_errno.h>

#include "uet_env.h"
#include "uet_hsi_dev.h"
#include "uet_prov.h"
#include "uet_snic.h"

int uet_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info)
{
	if (!info)
		return -FI_EINVAL;
	*info = NULL;
	UET_DBG(FI_LOG_CORE, "no fabric objects are offered yet\n");
	return -FI_ENODATA;
}

int uet_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
	       void *context)
{
	if (!attr || !fabric)
		return -FI_EINVAL;
	*fabric = NULL;
	UET_WARN(FI_LOG_FABRIC, "uet offers no fabric yet\n");
	return -FI_ENODATA;
}

static void uet_cleanup(void)
{
	uet_env_unregister_all();
}

/* Every FI_UET_* variable, registered with libfabric at load time so that
 * fi_info -g FI_UET_ lists them (docs/environment.md). */
static const struct uet_env_var *const uet_env_vars[] = {
	&uet_hsi_env_device,
};

struct fi_provider *uet_prov_init(void)
{
	int ret;

	ret = uet_env_register_all(uet_env_vars,
				   sizeof(uet_env_vars) / sizeof(uet_env_vars[0]));
	if (ret && ret != -EEXIST)
		UET_WARN(FI_LOG_CORE, "registering FI_UET_* variables: %d\n",
			 ret);
	/* The software NIC's (snic/uet_snic_env.c). */
	ret = uet_env_register_all(uet_snic_env_vars, uet_snic_env_nvars);
	if (ret && ret != -EEXIST)
		UET_WARN(FI_LOG_CORE, "registering FI_UET_* variables of the "
			 "software NIC: %d\n", ret);
	uet_prov.getinfo = uet_getinfo;
	uet_prov.fabric = uet_fabric;
	uet_prov.cleanup = uet_cleanup;
	return &uet_prov;
}
