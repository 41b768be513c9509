/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lock-order checker of debug builds (uet_lock.h): per thread, how
 * many locks of each level it holds.
 */
#include "config.h"

#include "uet_lock.h"

#ifdef UET_LOCK_CHECK

#include <stdio.h>
#include <stdlib.h>

static const char *const uet_lock_names[UET_LOCK_NLEVELS] = {
	[UET_LOCK_WAITSET] = "wait/poll set",
	[UET_LOCK_BIND] = "endpoint set",
	[UET_LOCK_EP] = "endpoint",
	[UET_LOCK_AV] = "AV",
	[UET_LOCK_DOMAIN] = "domain",
	[UET_LOCK_CQ] = "CQ",
	[UET_LOCK_EQ] = "EQ",
	[UET_LOCK_DEV] = "device",
};

static __thread unsigned int uet_lock_count[UET_LOCK_NLEVELS];

static const char *uet_lock_name(unsigned int level)
{
	return level < UET_LOCK_NLEVELS && uet_lock_names[level] ?
	       uet_lock_names[level] : "?";
}

static void uet_lock_violation(const char *what, unsigned int held,
			       unsigned int level)
{
	/* stderr, not the provider log: this is a bug, reported even with
	 * logging off, and the process stops here. */
	fprintf(stderr, "uet: lock order violation: %s %s (level %u) while "
		"holding %s (level %u)\n", what, uet_lock_name(level), level,
		uet_lock_name(held), held);
	abort();
}

void uet_lock_check_acquire(enum uet_lock_level level)
{
	unsigned int l;

	if (level <= 0 || level >= UET_LOCK_NLEVELS)
		uet_lock_violation("taking unknown", 0, level);
	for (l = (unsigned int)level; l < UET_LOCK_NLEVELS; l++) {
		if (uet_lock_count[l])
			uet_lock_violation("taking", l, level);
	}
	uet_lock_count[level]++;
}

void uet_lock_check_release(enum uet_lock_level level)
{
	if (level <= 0 || level >= UET_LOCK_NLEVELS ||
	    !uet_lock_count[level])
		uet_lock_violation("releasing unheld", 0, level);
	uet_lock_count[level]--;
}

unsigned int uet_lock_held(void)
{
	unsigned int l, mask = 0;

	for (l = 1; l < UET_LOCK_NLEVELS; l++)
		if (uet_lock_count[l])
			mask |= 1u << l;
	return mask;
}

#endif /* UET_LOCK_CHECK */
