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

#endif /* UET_LOG_H */
