/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The log hook (uet_log.h) and its default: lines to stderr at the level
 * FI_LOG_LEVEL names, read once.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "uet_log.h"

static const char *const uet_log_level_names[UET_LOG_LEVEL_MAX] = {
	"warn", "trace", "info", "debug",
};

static const char *const uet_log_subsys_names[UET_LOG_SUBSYS_MAX] = {
	"core", "fabric", "domain", "ep_ctrl", "ep_data", "av", "cq", "eq",
	"mr", "cntr",
};

/* -1: nothing; else the highest level written. */
static int uet_log_default_level(void)
{
	static _Atomic int level = -2;
	const char *v;
	int l = atomic_load_explicit(&level, memory_order_relaxed);
	int i;

	if (l != -2)
		return l;
	l = -1;
	v = getenv("FI_LOG_LEVEL");
	for (i = 0; v && i < UET_LOG_LEVEL_MAX; i++)
		if (!strcasecmp(v, uet_log_level_names[i]))
			l = i;
	atomic_store_explicit(&level, l, memory_order_relaxed);
	return l;
}

static bool uet_log_default_enabled(int level, int subsys)
{
	(void)subsys;
	return level <= uet_log_default_level();
}

static __attribute__((format(printf, 5, 0))) void
uet_log_default_vlog(int level, int subsys, const char *func, int line,
		     const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "uet:%s:%s():%d<%s> %s",
		subsys >= 0 && subsys < UET_LOG_SUBSYS_MAX ?
		uet_log_subsys_names[subsys] : "?", func, line,
		level >= 0 && level < UET_LOG_LEVEL_MAX ?
		uet_log_level_names[level] : "?", buf);
}

static const struct uet_log_hook uet_log_default = {
	.enabled = uet_log_default_enabled,
	.vlog = uet_log_default_vlog,
};

static const struct uet_log_hook *_Atomic uet_log_hook = &uet_log_default;

void uet_log_set_hook(const struct uet_log_hook *hook)
{
	atomic_store(&uet_log_hook, hook ? hook : &uet_log_default);
}

bool uet_log_enabled(int level, int subsys)
{
	return atomic_load_explicit(&uet_log_hook, memory_order_acquire)
		->enabled(level, subsys);
}

void uet_log(int level, int subsys, const char *func, int line,
	     const char *fmt, ...)
{
	const struct uet_log_hook *h =
		atomic_load_explicit(&uet_log_hook, memory_order_acquire);
	va_list ap;

	va_start(ap, fmt);
	h->vlog(level, subsys, func, line, fmt, ap);
	va_end(ap);
}
