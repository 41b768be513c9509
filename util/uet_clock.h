/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time source: CLOCK_MONOTONIC in nanoseconds, deadlines, and timespec
 * conversions for timed waits.
 *
 * State machines (PDS retransmit timers, CC, PDC close) never read the
 * clock themselves: they take `now` as an argument, so tests can drive
 * them with made-up times.  uet_clock_now_ns() is what the progress
 * engine passes in.  Times are uint64_t nanoseconds since an arbitrary
 * start (boot); they do not wrap in practice (584 years).
 */
#ifndef UET_CLOCK_H
#define UET_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define UET_NSEC_PER_USEC	1000ull
#define UET_NSEC_PER_MSEC	1000000ull
#define UET_NSEC_PER_SEC	1000000000ull

/* CLOCK_MONOTONIC now, in nanoseconds. */
uint64_t uet_clock_now_ns(void);

/*
 * A point in time on the uet_clock_now_ns() scale.  at_ns ==
 * UET_DEADLINE_NEVER_NS means no deadline.
 */
struct uet_deadline {
	uint64_t at_ns;
};

#define UET_DEADLINE_NEVER_NS	UINT64_MAX

static inline struct uet_deadline uet_deadline_never(void)
{
	struct uet_deadline d = { UET_DEADLINE_NEVER_NS };

	return d;
}

/* now + ns, saturating at "never". */
static inline struct uet_deadline uet_deadline_after(uint64_t now,
						     uint64_t ns)
{
	struct uet_deadline d;

	d.at_ns = ns > UET_DEADLINE_NEVER_NS - now ? UET_DEADLINE_NEVER_NS :
						     now + ns;
	return d;
}

/* ns from the current clock. */
static inline struct uet_deadline uet_deadline_in(uint64_t ns)
{
	return uet_deadline_after(uet_clock_now_ns(), ns);
}

static inline bool uet_deadline_is_never(struct uet_deadline d)
{
	return d.at_ns == UET_DEADLINE_NEVER_NS;
}

/* True once now has reached the deadline. */
static inline bool uet_deadline_expired(struct uet_deadline d, uint64_t now)
{
	return now >= d.at_ns;
}

/* Nanoseconds left at now: 0 once expired, UINT64_MAX for never. */
static inline uint64_t uet_deadline_remaining(struct uet_deadline d,
					      uint64_t now)
{
	if (uet_deadline_is_never(d))
		return UET_DEADLINE_NEVER_NS;
	return now >= d.at_ns ? 0 : d.at_ns - now;
}

/*
 * Remaining time as a poll()/epoll_wait()/libfabric timeout in
 * milliseconds: rounded up (so a wait never ends before the deadline),
 * capped at INT32_MAX, and -1 for never.
 */
int uet_deadline_remaining_ms(struct uet_deadline d, uint64_t now);

/* The earlier of two deadlines. */
static inline struct uet_deadline uet_deadline_min(struct uet_deadline a,
						   struct uet_deadline b)
{
	return a.at_ns <= b.at_ns ? a : b;
}

/* A duration or time in ns as a struct timespec. */
static inline struct timespec uet_ns_to_timespec(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / UET_NSEC_PER_SEC);
	ts.tv_nsec = (long)(ns % UET_NSEC_PER_SEC);
	return ts;
}

/* A timespec (non-negative) in ns, saturating at UINT64_MAX. */
uint64_t uet_timespec_to_ns(const struct timespec *ts);

/*
 * Absolute time for pthread_cond_timedwait() and friends: the clock
 * `clock_id` (CLOCK_REALTIME for a default condition variable,
 * CLOCK_MONOTONIC after pthread_condattr_setclock) read now, plus
 * rel_ns.  Saturates instead of overflowing time_t.
 */
struct timespec uet_clock_abstime(clockid_t clock_id, uint64_t rel_ns);

/*
 * A deadline as an absolute CLOCK_MONOTONIC timespec (the deadline is
 * already on that clock).  "Never" maps to the largest timespec.
 */
struct timespec uet_deadline_to_timespec(struct uet_deadline d);

#endif /* UET_CLOCK_H */
