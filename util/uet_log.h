/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Logging for every layer, without libfabric: levels and subsystems of
 * util's own, and one hook that decides what is enabled and where a line
 * goes.  The provider installs a hook that maps them to FI_WARN/FI_INFO/
 * FI_DBG on its fi_provider (prov/uet/uet_hooks.c), so that FI_LOG_LEVEL /
 * FI_LOG_PROV / FI_LOG_SUBSYS control uet's output like any other
 * provider's.  Without a hook (the software NIC's own tests, tools), lines
 * go to stderr at the level FI_LOG_LEVEL names (warn, trace, info,
 * debug; unset: nothing).
 *
 * The level and subsystem numbers are libfabric's (enum fi_log_level,
 * enum fi_log_subsys), checked where the provider maps them, so provider
 * code may pass FI_LOG_* subsystems too.
 *
 * Data-path code must not log per packet: use UET_WARN_ONCE for events
 * that can repeat at packet rate, and counters for the rest.
 */
#ifndef UET_LOG_H
#define UET_LOG_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

enum uet_log_level {
	UET_LOG_WARN,
	UET_LOG_TRACE,
	UET_LOG_INFO,
	UET_LOG_DEBUG,
	UET_LOG_LEVEL_MAX
};

enum uet_log_subsys {
	UET_LOG_CORE,
	UET_LOG_FABRIC,
	UET_LOG_DOMAIN,
	UET_LOG_EP_CTRL,
	UET_LOG_EP_DATA,
	UET_LOG_AV,
	UET_LOG_CQ,
	UET_LOG_EQ,
	UET_LOG_MR,
	UET_LOG_CNTR,
	UET_LOG_SUBSYS_MAX
};

struct uet_log_hook {
	/* Would a line of this level and subsystem be written? */
	bool (*enabled)(int level, int subsys);
	/* Write one line (fmt ends with its own newline). */
	void (*vlog)(int level, int subsys, const char *func, int line,
		     const char *fmt, va_list ap);
};

/* Install a hook (NULL: back to the default, stderr by FI_LOG_LEVEL).
 * The hook must outlive its installation. */
void uet_log_set_hook(const struct uet_log_hook *hook);

bool uet_log_enabled(int level, int subsys);
void uet_log(int level, int subsys, const char *func, int line,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Keeps errno as it was (a log call must not disturb error handling). */
#define UET_LOG(level, subsys, ...)					\
	do {								\
		if (uet_log_enabled(level, subsys)) {			\
			int uet_saved_errno_ = errno;			\
			uet_log(level, subsys, __func__, __LINE__,	\
				__VA_ARGS__);				\
			errno = uet_saved_errno_;			\
		}							\
	} while (0)

#define UET_WARN(subsys, ...)	UET_LOG(UET_LOG_WARN, subsys, __VA_ARGS__)
#define UET_INFO(subsys, ...)	UET_LOG(UET_LOG_INFO, subsys, __VA_ARGS__)
/* Debug lines exist only in builds with ENABLE_DEBUG (as FI_DBG). */
#if defined(ENABLE_DEBUG) && ENABLE_DEBUG
#define UET_DBG(subsys, ...)	UET_LOG(UET_LOG_DEBUG, subsys, __VA_ARGS__)
#else
#define UET_DBG(subsys, ...)	do {} while (0)
#endif

/* Warn at most once per call site for the life of the process. */
#define UET_WARN_ONCE(subsys, ...)					\
	do {								\
		static int uet_warned_;					\
		if (!__atomic_exchange_n(&uet_warned_, 1,		\
					 __ATOMIC_RELAXED))		\
			UET_WARN(subsys, __VA_ARGS__);			\
	} while (0)

/*
 * Rate limit for warnings about events an outsider can cause at packet
 * rate (datagrams dropped from the network): at most one warning per
 * UET_LOG_RL_NS per limiter.  uet_log_rl() counts the event and returns
 * true when a warning may go out now, with *n the events since the last
 * one (this one included).  now is the caller's clock (ns).
 */
#define UET_LOG_RL_NS	1000000000ull

struct uet_log_rl {
	uint64_t next_ns;
	uint64_t count;
};

static inline bool uet_log_rl(struct uet_log_rl *rl, uint64_t now,
			      uint64_t *n)
{
	rl->count++;
	if (rl->next_ns && now < rl->next_ns)
		return false;
	*n = rl->count;
	rl->count = 0;
	rl->next_ns = now + UET_LOG_RL_NS;
	if (!rl->next_ns)
		rl->next_ns = 1;
	return true;
}

#endif /* UET_LOG_H */
