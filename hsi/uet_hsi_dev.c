/* SPDX-License-Identifier: BSD-2-Clause */
/* Backend selection for the HSI device (FI_UET_DEVICE). */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_INFINIBAND_VERBS_H
#include <infiniband/verbs.h>
#endif

#include "uet_hsi_dev.h"
#include "uet_log.h"

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
 * Registered backends, indexed by enum uet_hsi_dev_kind (AUTO stays
 * NULL).  No PMR driver exists yet, so nothing registers PMR.
 */
#define UET_HSI_NKINDS	(UET_HSI_DEV_PMR + 1)
static const struct uet_hsi_dev_ops *_Atomic backends[UET_HSI_NKINDS];

int uet_hsi_dev_register(int kind, const struct uet_hsi_dev_ops *ops)
{
	const struct uet_hsi_dev_ops *cur = NULL;

	if (!ops || (kind != UET_HSI_DEV_SNIC && kind != UET_HSI_DEV_PMR))
		return -EINVAL;
	if (atomic_compare_exchange_strong(&backends[kind], &cur, ops) ||
	    cur == ops)
		return 0;
	return -EEXIST;
}

const struct uet_hsi_dev_ops *uet_hsi_dev_backend(int kind)
{
	if (kind < 0 || kind >= UET_HSI_NKINDS)
		return NULL;
	return atomic_load(&backends[kind]);
}

void uet_hsi_dev_unregister_all(void)
{
	int k;

	for (k = 0; k < UET_HSI_NKINDS; k++)
		atomic_store(&backends[k], NULL);
}

/* A snapshot of the registered table for uet_hsi_dev_choose(). */
static void uet_hsi_dev_table(const struct uet_hsi_dev_ops **tbl)
{
	int k;

	for (k = 0; k < UET_HSI_NKINDS; k++)
		tbl[k] = atomic_load(&backends[k]);
}

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
	const struct uet_hsi_dev_ops *tbl[UET_HSI_NKINDS];
	char pmr_names[128];
	int kind, npmr, ret;

	uet_hsi_dev_table(tbl);
	kind = uet_env_get_enum(&uet_hsi_env_device);
	npmr = uet_hsi_dev_probe_pmr(pmr_names, sizeof(pmr_names));
	if (npmr > 0 && !tbl[UET_HSI_DEV_PMR])
		UET_INFO(UET_LOG_CORE, "PMR device(s) %s present, but this "
			 "build has no PMR backend\n", pmr_names);

	ret = uet_hsi_dev_choose(tbl, UET_HSI_NKINDS, kind, ops);
	if (ret) {
		UET_WARN(UET_LOG_CORE, "FI_UET_DEVICE=%s: no such device "
			 "backend available\n", device_names[kind].name);
		return ret;
	}
	UET_INFO(UET_LOG_CORE, "HSI device backend: %s (FI_UET_DEVICE=%s)\n",
		 (*ops)->name, device_names[kind].name);
	return 0;
}

int uet_hsi_dev_selected(const struct uet_hsi_dev_ops **ops)
{
	const struct uet_hsi_dev_ops *tbl[UET_HSI_NKINDS];

	uet_hsi_dev_table(tbl);
	return uet_hsi_dev_choose(tbl, UET_HSI_NKINDS,
				  uet_env_get_enum(&uet_hsi_env_device), ops);
}
