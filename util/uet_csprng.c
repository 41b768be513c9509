/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unpredictable numbers from getrandom; see uet_csprng.h.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>

#include "uet_clock.h"
#include "uet_csprng.h"
#include "uet_hashmap.h"

#define UET_CSPRNG_BUF	256u

struct uet_csprng_buf {
	uint8_t b[UET_CSPRNG_BUF];
	unsigned int left;		/* unused bytes at the end of b */
	uint64_t fork_gen;		/* uet_csprng_forks when filled */
};

static _Thread_local struct uet_csprng_buf uet_csprng_tl;
static atomic_uint_fast64_t uet_csprng_forks;
static atomic_uint_fast64_t uet_csprng_fail;
static pthread_once_t uet_csprng_once = PTHREAD_ONCE_INIT;

/* In the child: every thread's buffer (only the forking thread lives
 * on) is stale from now on. */
static void uet_csprng_atfork_child(void)
{
	atomic_fetch_add(&uet_csprng_forks, 1);
}

static void uet_csprng_init(void)
{
	(void)pthread_atfork(NULL, NULL, uet_csprng_atfork_child);
}

/* Read len bytes from the kernel (no buffer). */
static int uet_csprng_read(uint8_t *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = getrandom(p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int uet_csprng_fill(void *buf, size_t len)
{
	struct uet_csprng_buf *t = &uet_csprng_tl;
	uint64_t gen;
	int ret;

	pthread_once(&uet_csprng_once, uet_csprng_init);
	if (len > UET_CSPRNG_BUF / 4)
		return uet_csprng_read(buf, len);
	gen = atomic_load(&uet_csprng_forks);
	if (t->fork_gen != gen || t->left < len) {
		ret = uet_csprng_read(t->b, sizeof(t->b));
		if (ret) {
			t->left = 0;
			return ret;
		}
		t->left = sizeof(t->b);
		t->fork_gen = gen;
	}
	/* Taken from the end; the bytes handed out are wiped. */
	t->left -= (unsigned int)len;
	memcpy(buf, t->b + t->left, len);
	memset(t->b + t->left, 0, len);
	return 0;
}

uint64_t uet_csprng_u64(void)
{
	static atomic_uint_fast64_t ctr;
	uint64_t v;

	if (!uet_csprng_fill(&v, sizeof(v)))
		return v;
	atomic_fetch_add(&uet_csprng_fail, 1);
	return uet_hash_mix64(uet_clock_now_ns() ^
			      (atomic_fetch_add(&ctr, 1) << 40));
}

uint64_t uet_csprng_failures(void)
{
	return atomic_load(&uet_csprng_fail);
}
