/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time source; see uet_clock.h.
 */
#include "config.h"

#include <stdint.h>
#include <time.h>

#include "uet_clock.h"

/* Largest tv_sec we produce: time_t may be 32 or 64 bits wide. */
#define UET_TIME_T_MAX							\
	((time_t)(sizeof(time_t) >= 8 ? INT64_MAX : INT32_MAX))

uint64_t uet_clock_now_ns(void)
{
	struct timespec ts;

	/* Cannot fail for CLOCK_MONOTONIC with a valid pointer on Linux. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return uet_timespec_to_ns(&ts);
}

uint64_t uet_timespec_to_ns(const struct timespec *ts)
{
	uint64_t sec = (uint64_t)ts->tv_sec;
	uint64_t nsec = (uint64_t)ts->tv_nsec;

	if (sec > (UINT64_MAX - nsec) / UET_NSEC_PER_SEC)
		return UINT64_MAX;
	return sec * UET_NSEC_PER_SEC + nsec;
}

int uet_deadline_remaining_ms(struct uet_deadline d, uint64_t now)
{
	uint64_t ns, ms;

	if (uet_deadline_is_never(d))
		return -1;
	ns = uet_deadline_remaining(d, now);
	ms = ns / UET_NSEC_PER_MSEC + (ns % UET_NSEC_PER_MSEC != 0);
	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

/*
 * a + ns as a normalised timespec, saturating at the largest time_t.
 * a is a clock reading or zero: tv_sec >= 0, tv_nsec < 1e9.
 */
static struct timespec uet_timespec_add_ns(struct timespec a, uint64_t ns)
{
	struct timespec r;
	uint64_t add_sec = ns / UET_NSEC_PER_SEC;
	long nsec = a.tv_nsec + (long)(ns % UET_NSEC_PER_SEC);

	if (nsec >= (long)UET_NSEC_PER_SEC) {
		nsec -= (long)UET_NSEC_PER_SEC;
		add_sec++;
	}
	if (add_sec > (uint64_t)(UET_TIME_T_MAX - a.tv_sec)) {
		r.tv_sec = UET_TIME_T_MAX;
		r.tv_nsec = (long)UET_NSEC_PER_SEC - 1;
		return r;
	}
	r.tv_sec = a.tv_sec + (time_t)add_sec;
	r.tv_nsec = nsec;
	return r;
}

struct timespec uet_clock_abstime(clockid_t clock_id, uint64_t rel_ns)
{
	struct timespec now;

	clock_gettime(clock_id, &now);
	return uet_timespec_add_ns(now, rel_ns);
}

struct timespec uet_deadline_to_timespec(struct uet_deadline d)
{
	struct timespec zero = { 0, 0 };

	return uet_timespec_add_ns(zero, d.at_ns);
}
