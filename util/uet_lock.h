/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock order of the provider, every pair in one place, and its
 * checker.
 *
 * Each mutex has a level; a thread may take a lock only while every lock
 * it holds has a lower level (so two locks of one level are never held
 * together).  The order, outermost first, and the paths that nest them:
 *
 *   WAITSET  wait set / poll set members      fi_wait, fi_poll -> a CQ's
 *                                             or counter's progress
 *   BIND     endpoint set of a CQ, counter    CQ/counter progress -> each
 *            or domain                        endpoint's progress
 *   EP       endpoint (rings, op table)       posting and progress
 *   AV       address vector                   ep -> AV: uet_av_dest,
 *                                             uet_av_reverse
 *   DOMAIN   domain (PIDs, MR counters)       ep -> domain:
 *                                             uet_mr_remote_event
 *   CQ       completion queue                 ep -> CQ: uet_cq_write
 *   EQ       event queue                      AV -> EQ (FI_EVENT inserts)
 *   DEV      the device, inside its backend   ep -> device: doorbell,
 *                                             progress (the device never
 *                                             calls up)
 *
 * Every pair (A, B) with A above B in the table is allowed in that order
 * only.  With --enable-debug (UET_LOCK_CHECK) each thread keeps the
 * levels it holds and every acquisition is checked: a violation prints
 * both levels and aborts.  Release builds compile the checks out.
 */
#ifndef UET_LOCK_H
#define UET_LOCK_H

#include <pthread.h>

enum uet_lock_level {
	UET_LOCK_WAITSET = 1,
	UET_LOCK_BIND,
	UET_LOCK_EP,
	UET_LOCK_AV,
	UET_LOCK_DOMAIN,
	UET_LOCK_CQ,
	UET_LOCK_EQ,
	UET_LOCK_DEV,
	UET_LOCK_NLEVELS
};

#ifdef UET_LOCK_CHECK
/* Abort unless every level held by this thread is below level; then
 * count level as held. */
void uet_lock_check_acquire(enum uet_lock_level level);
/* Abort unless level is held; count it released. */
void uet_lock_check_release(enum uet_lock_level level);
/* Bit l set: this thread holds a lock of level l. */
unsigned int uet_lock_held(void);
#else
static inline void uet_lock_check_acquire(enum uet_lock_level level)
{
	(void)level;
}

static inline void uet_lock_check_release(enum uet_lock_level level)
{
	(void)level;
}
#endif

static inline void uet_lock(pthread_mutex_t *m, enum uet_lock_level level)
{
	uet_lock_check_acquire(level);
	pthread_mutex_lock(m);
}

static inline void uet_unlock(pthread_mutex_t *m, enum uet_lock_level level)
{
	pthread_mutex_unlock(m);
	uet_lock_check_release(level);
}

#endif /* UET_LOCK_H */
