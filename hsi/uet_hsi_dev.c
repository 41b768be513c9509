/* SPDX-License-Identifier: BSD-2-Clause */
/* Backend selection for the HSI device (FI_UET_DEVICE). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_INFINIBAND_VERBS_H
#include <infiniband/verbs.h>
#endif

#include "uet_hsi_dev.h"
#include "uet_log.h"
#include "uet_snic.h"

static const struct uet_env_enum device_names[] = {
	{ "auto", UET_HSI_DEV_AUTO },
	{ "snic", UET_HSI_DEV_SNIC },
	{ "pmr", UET_HSI_DEV_PMR },
	{ NULL, 0 },
};

const struct uet_env_var uet_hsi_env_device =
	UET_ENV_ENUM_VAR("device", UET_HSI_DEV_AUTO, device_names,
			 "HSI device backend: auto (PMR hardware when present, "
			 "else the software NIC), snic, or pmr");

/*
 * Backends built into this library, indexed by enum uet_hsi_dev_kind.
 * No PMR driver exists yet, so there is no PMR backend.
 */
static const struct uet_hsi_dev_ops *const backends[] = {
	[UET_HSI_DEV_AUTO] = NULL,
	[UET_HSI_DEV_SNIC] = &uet_snic_dev_ops,
	[UET_HSI_DEV_PMR] = NULL,
};

int uet_hsi_dev_choose(const struct uet_hsi_dev_ops *const *tbl, size_t n,
		       int kind, const struct uet_hsi_dev_ops **ops)
{
	const struct uet_hsi_dev_ops *pmr, *snic;

	if (!tbl || !ops)
		return -EINVAL;
	pmr = n > UET_HSI_DEV_PMR ? tbl[UET_HSI_DEV_PMR] : NULL;
	snic = n > UET_HSI_DEV_SNIC ? tbl[UET_HSI_DEV_SNIC] : NULL;

	switch (kind) {
	case UET_HSI_DEV_AUTO:
		if (pmr && pmr->present && pmr->present())
			*ops = pmr;
		else if (snic)
			*ops = snic;
		else
			return -ENODEV;
		return 0;
	case UET_HSI_DEV_SNIC:
		if (!snic)
			return -ENODEV;
		*ops = snic;
		return 0;
	case UET_HSI_DEV_PMR:
		if (!pmr || !pmr->present || !pmr->present())
			return -ENODEV;
		*ops = pmr;
		return 0;
	default:
		return -EINVAL;
	}
}

int uet_hsi_dev_probe_pmr(char *buf, size_t len)
{
	int found = 0;

	if (buf && len)
		buf[0] = '\0';
#ifdef HAVE_INFINIBAND_VERBS_H
	{
		struct ibv_device **list;
		int i, num = 0;
		size_t used = 0;

		list = ibv_get_device_list(&num);
		if (!list)
			return 0;
		for (i = 0; i < num; i++) {
			const char *name = ibv_get_device_name(list[i]);

			if (!name || strncmp(name, "pmr", 3))
				continue;
			if (buf && used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s%s", found ? "," : "",
							 name);
			found++;
		}
		ibv_free_device_list(list);
	}
#endif
	return found;
}

int uet_hsi_dev_select(const struct uet_hsi_dev_ops **ops)
{
	char pmr_names[128];
	int kind, npmr, ret;

	kind = uet_env_get_enum(&uet_hsi_env_device);
	npmr = uet_hsi_dev_probe_pmr(pmr_names, sizeof(pmr_names));
	if (npmr > 0 && !backends[UET_HSI_DEV_PMR])
		UET_INFO(FI_LOG_CORE, "PMR device(s) %s present, but this "
			 "build has no PMR backend\n", pmr_names);

	ret = uet_hsi_dev_choose(backends,
				 sizeof(backends) / sizeof(backends[0]),
				 kind, ops);
	if (ret) {
		UET_WARN(FI_LOG_CORE, "FI_UET_DEVICE=%s: no such device "
			 "backend available\n", device_names[kind].name);
		return ret;
	}
	UET_INFO(FI_LOG_CORE, "HSI device backend: %s (FI_UET_DEVICE=%s)\n",
		 (*ops)->name, device_names[kind].name);
	return 0;
}
