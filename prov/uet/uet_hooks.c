/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The provider structure and the hooks that route util's logging and
 * FI_UET_* variables through it (libfabric's FI_WARN/FI_INFO/FI_DBG and
 * fi_param_define/fi_param_get).  util/, wire/, hsi/ and snic/ know
 * nothing of libfabric; uet_prov_hooks_install() connects them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

#include "uet_env.h"
#include "uet_log.h"
#include "uet_prov.h"

#define UET_PROV_VERSION_MAJOR	0
#define UET_PROV_VERSION_MINOR	1

struct fi_provider uet_prov = {
	.name = "uet",
	.version = FI_VERSION(UET_PROV_VERSION_MAJOR, UET_PROV_VERSION_MINOR),
	.fi_version = FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION),
};

/* util's levels and subsystems are libfabric's numbers. */
_Static_assert((int)UET_LOG_WARN == (int)FI_LOG_WARN &&
	       (int)UET_LOG_TRACE == (int)FI_LOG_TRACE &&
	       (int)UET_LOG_INFO == (int)FI_LOG_INFO &&
	       (int)UET_LOG_DEBUG == (int)FI_LOG_DEBUG, "log levels");
_Static_assert((int)UET_LOG_CORE == (int)FI_LOG_CORE &&
	       (int)UET_LOG_FABRIC == (int)FI_LOG_FABRIC &&
	       (int)UET_LOG_DOMAIN == (int)FI_LOG_DOMAIN &&
	       (int)UET_LOG_EP_CTRL == (int)FI_LOG_EP_CTRL &&
	       (int)UET_LOG_EP_DATA == (int)FI_LOG_EP_DATA &&
	       (int)UET_LOG_AV == (int)FI_LOG_AV &&
	       (int)UET_LOG_CQ == (int)FI_LOG_CQ &&
	       (int)UET_LOG_EQ == (int)FI_LOG_EQ &&
	       (int)UET_LOG_MR == (int)FI_LOG_MR &&
	       (int)UET_LOG_CNTR == (int)FI_LOG_CNTR, "log subsystems");

static bool uet_hook_log_enabled(int level, int subsys)
{
	return fi_log_enabled(&uet_prov, (enum fi_log_level)level,
			      (enum fi_log_subsys)subsys);
}

static __attribute__((format(printf, 5, 0))) void
uet_hook_vlog(int level, int subsys, const char *func, int line,
	      const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fi_log(&uet_prov, (enum fi_log_level)level,
	       (enum fi_log_subsys)subsys, func, line, "%s", buf);
}

static const struct uet_log_hook uet_prov_log_hook = {
	.enabled = uet_hook_log_enabled,
	.vlog = uet_hook_vlog,
};

/*
 * Every variable is defined to libfabric as a string: util reads the
 * text and parses it with its strict grammar (libfabric's own int/size_t/
 * bool conversions accept trailing garbage such as "3x").  The help text
 * names the type and the range.
 */
static int uet_hook_env_define(const char *name, const char *help)
{
	return fi_param_define(&uet_prov, name, FI_PARAM_STRING, "%s", help);
}

static int uet_hook_env_get(const char *name, const char **value)
{
	char *v = NULL;
	int ret = fi_param_get_str(&uet_prov, name, &v);

	if (!ret) {
		*value = v;
		return 0;
	}
	if (ret == -FI_ENODATA) {
		*value = NULL;
		return 0;
	}
	/* -FI_ENOENT: libfabric re-initialised and dropped the definition
	 * (unit tests); util reads the environment, which says the same. */
	return -ENOENT;
}

static const struct uet_env_hook uet_prov_env_hook = {
	.define = uet_hook_env_define,
	.get = uet_hook_env_get,
};

void uet_prov_hooks_install(void)
{
	uet_log_set_hook(&uet_prov_log_hook);
	uet_env_set_hook(&uet_prov_env_hook);
}
