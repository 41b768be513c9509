/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Provider entry points: discovery (uet_info.c), the fabric
 * (uet_fabric.c) and the FI_UET_* variables.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rdma/fi_errno.h>

#include "uet_env.h"
#include "uet_hmem.h"
#include "uet_hsi_dev.h"
#include "uet_iface.h"
#include "uet_info.h"
#include "uet_prov.h"

int uet_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info)
{
	if (!info)
		return -FI_EINVAL;
	return uet_info_getinfo(version, node, service, flags, hints, info);
}

/*
 * The HSI backends built into the provider register themselves with the
 * HSI here, once: the software NIC (snic/uet_snic_backend.c).  This is
 * the one place the provider names a backend.
 */
int uet_snic_backend_register(void);

static void uet_prov_backends_once(void)
{
	int ret = uet_snic_backend_register();

	if (ret)
		UET_WARN(FI_LOG_CORE, "registering the software NIC with the "
			 "HSI: %d\n", ret);
}

void uet_prov_backends_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, uet_prov_backends_once);
}

static void uet_cleanup(void)
{
	uet_hmem_fini();
	uet_env_unregister_all();
}

/* Every FI_UET_* variable, registered with libfabric at load time so that
 * fi_info -g FI_UET_ lists them (docs/environment.md). */
static const struct uet_env_var *const uet_env_vars[] = {
	&uet_hsi_env_device,
	&uet_info_env_iface,
	&uet_info_env_job_id,
	&uet_info_env_addr_family,
	&uet_info_env_wire,
	&uet_iface_env_fabric,
	&uet_domain_env_spin_us,
	&uet_hmem_env_cuda_lib,
};

/*
 * libfabric's core keeps its per-provider flags in fi_provider.context
 * (include/ofi.h, struct ofi_prov_context: the provider type, then
 * disable_logging, then disable_layering).  uet offers FI_EP_RDM itself,
 * so the core must not stack ofi_rxd on uet's FI_EP_DGRAM endpoints (it
 * would list "uet;ofi_rxd" first for `-p uet -e rdm`); the core does this
 * for efa, shm and psm3 by name.  The type is set by the core after
 * fi_prov_ini returns; only the flags are preset here.
 */
struct uet_core_prov_ctx {
	int type;
	bool disable_logging;
	bool disable_layering;
};
_Static_assert(sizeof(struct uet_core_prov_ctx) <= sizeof(struct fi_context),
	       "core provider context");

struct fi_provider *uet_prov_init(void)
{
	struct uet_core_prov_ctx ctx;
	int kind, ret;

	uet_prov_hooks_install();
	memset(&ctx, 0, sizeof(ctx));
	ctx.disable_layering = true;
	memcpy(&uet_prov.context, &ctx, sizeof(ctx));

	ret = uet_env_register_all(uet_env_vars,
				   sizeof(uet_env_vars) / sizeof(uet_env_vars[0]));
	if (ret && ret != -EEXIST)
		UET_WARN(FI_LOG_CORE, "registering FI_UET_* variables: %d\n",
			 ret);
	uet_prov_backends_init();
	/* Each backend's own (the software NIC's: snic/uet_snic_env.c). */
	for (kind = UET_HSI_DEV_SNIC; kind <= UET_HSI_DEV_PMR; kind++) {
		const struct uet_hsi_dev_ops *ops = uet_hsi_dev_backend(kind);
		const struct uet_env_var *const *vars;
		size_t n;

		if (!ops || !ops->env_vars)
			continue;
		ops->env_vars(&vars, &n);
		ret = uet_env_register_all(vars, n);
		if (ret && ret != -EEXIST)
			UET_WARN(FI_LOG_CORE, "registering FI_UET_* variables "
				 "of the %s backend: %d\n", ops->name, ret);
	}
	uet_prov.getinfo = uet_getinfo;
	uet_prov.fabric = uet_fabric;
	uet_prov.cleanup = uet_cleanup;
	return &uet_prov;
}
