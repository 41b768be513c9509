/* SPDX-License-Identifier: BSD-2-Clause */
/* Byte coverage sets (util/uet_ranges.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "uet_ranges.h"

void uet_ranges_init(struct uet_ranges *r)
{
	memset(r, 0, sizeof(*r));
	r->iv = &r->one;
	r->cap = 1;
}

void uet_ranges_fini(struct uet_ranges *r)
{
	if (r->iv && r->iv != &r->one)
		free(r->iv);
	uet_ranges_init(r);
}

/* Room for one more interval. */
static int uet_ranges_grow(struct uet_ranges *r)
{
	struct uet_range *a;
	uint32_t cap;

	if (r->n < r->cap)
		return 0;
	if (r->n >= UET_RANGES_MAX)
		return -ENOSPC;
	cap = r->cap < 8 ? 8 : r->cap * 2;
	if (cap > UET_RANGES_MAX)
		cap = UET_RANGES_MAX;
	a = malloc((size_t)cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	memcpy(a, r->iv, (size_t)r->n * sizeof(*a));
	if (r->iv != &r->one)
		free(r->iv);
	r->iv = a;
	r->cap = cap;
	return 0;
}

int uet_ranges_add(struct uet_ranges *r, uint64_t start, uint64_t len)
{
	uint64_t end;
	uint32_t i, lo, hi;
	bool left, right;
	int ret;

	if (!len)
		return 0;
	if (start > UINT64_MAX - len)
		return -EINVAL;
	end = start + len;
	/* The common case: appended right after the last interval. */
	if (r->n && r->iv[r->n - 1].end == start) {
		r->iv[r->n - 1].end = end;
		r->covered += len;
		return 0;
	}
	/* i: the first interval that ends after start. */
	lo = 0;
	hi = r->n;
	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if (r->iv[i].end <= start)
			lo = i + 1;
		else
			hi = i;
	}
	i = lo;
	if (i < r->n && r->iv[i].start < end)
		return -EEXIST;
	left = i > 0 && r->iv[i - 1].end == start;
	right = i < r->n && r->iv[i].start == end;
	if (left && right) {
		r->iv[i - 1].end = r->iv[i].end;
		memmove(&r->iv[i], &r->iv[i + 1],
			(size_t)(r->n - i - 1) * sizeof(r->iv[0]));
		r->n--;
	} else if (left) {
		r->iv[i - 1].end = end;
	} else if (right) {
		r->iv[i].start = start;
	} else {
		ret = uet_ranges_grow(r);
		if (ret)
			return ret;
		memmove(&r->iv[i + 1], &r->iv[i],
			(size_t)(r->n - i) * sizeof(r->iv[0]));
		r->iv[i].start = start;
		r->iv[i].end = end;
		r->n++;
	}
	r->covered += len;
	return 0;
}
