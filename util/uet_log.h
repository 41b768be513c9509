/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Logging through libfabric's FI_WARN/FI_INFO/FI_DBG on the one provider
 * structure, uet_prov, so that FI_LOG_LEVEL / FI_LOG_PROV / FI_LOG_SUBSYS
 * control uet's output like any other provider's.
 *
 * Data-path code must not log per packet: use UET_WARN_ONCE for events
 * that can repeat at packet rate, and counters for the rest.
 */
#ifndef UET_LOG_H
#define UET_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

extern struct fi_provider uet_prov;

#define UET_WARN(subsys, ...)	FI_WARN(&uet_prov, subsys, __VA_ARGS__)
#define UET_INFO(subsys, ...)	FI_INFO(&uet_prov, subsys, __VA_ARGS__)
#define UET_DBG(subsys, ...)	FI_DBG(&uet_prov, subsys, __VA_ARGS__)

/* Warn at most once per call site for the life of the process. */
#define UET_WARN_ONCE(subsys, ...)					\
	do {								\
		static int uet_warned_;					\
		if (!__atomic_exchange_n(&uet_warned_, 1,		\
					 __ATOMIC_RELAXED))		\
			FI_WARN(&uet_prov, subsys, __VA_ARGS__);	\
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
