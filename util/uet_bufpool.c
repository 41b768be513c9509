/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fixed-size object pool; see uet_bufpool.h for the contract.
 *
 * Chunk layout (one aligned allocation):
 *
 *	[struct uet_bufpool_chunk][debug: one state byte per object]
 *	[padding to align][object 0][object 1]...[object count-1]
 *
 * Objects are stride bytes apart; stride is the object size rounded up
 * to the alignment (and to at least one pointer, for the free-list link).
 */
#include "config.h"

#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_bufpool.h"

#if defined(__SANITIZE_ADDRESS__)
#define UET_BUFPOOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UET_BUFPOOL_ASAN 1
#endif
#endif

#ifdef UET_BUFPOOL_ASAN
#include <sanitizer/asan_interface.h>
#define uet_bufpool_poison(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define uet_bufpool_unpoison(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#define uet_bufpool_is_poisoned(p)	__asan_address_is_poisoned(p)
#else
#define uet_bufpool_poison(p, n)	((void)(p), (void)(n))
#define uet_bufpool_unpoison(p, n)	((void)(p), (void)(n))
#define uet_bufpool_is_poisoned(p)	((void)(p), 0)
#endif

/* Debug: byte written over an object when it is put back. */
#define UET_BUFPOOL_FREE_FILL	0x5a

enum {
	UET_BUFPOOL_OBJ_FREE = 0,
	UET_BUFPOOL_OBJ_IN_USE = 1,
};

struct uet_bufpool_chunk {
	struct uet_bufpool_chunk *next;
	uint8_t *objs;
	size_t count;
	size_t bytes;		/* whole allocation */
	uint8_t state[];	/* debug only: count entries */
};

static inline bool uet_is_pow2(size_t x)
{
	return x && !(x & (x - 1));
}

static inline size_t uet_round_up(size_t x, size_t align)
{
	return (x + align - 1) & ~(align - 1);
}

/* Bytes of a chunk of n objects, or 0 on overflow; *off gets objs' offset. */
static size_t uet_bufpool_chunk_bytes(const struct uet_bufpool *pool,
				      size_t n, size_t *off)
{
	size_t hdr = offsetof(struct uet_bufpool_chunk, state);

	if (pool->debug)
		hdr += n;
	*off = uet_round_up(hdr, pool->align);
	if (n > (SIZE_MAX - *off) / pool->stride)
		return 0;
	return *off + n * pool->stride;
}

static inline void uet_bufpool_link(struct uet_bufpool *pool, void *obj)
{
	memcpy(obj, &pool->free_list, sizeof(pool->free_list));
	pool->free_list = obj;
}

/* Add one chunk's objects to the free list.  -ENOSPC at max_count. */
static int uet_bufpool_grow(struct uet_bufpool *pool)
{
	struct uet_bufpool_chunk *chunk;
	size_t n = pool->chunk_count, off, bytes, i;
	void *mem;

	if (pool->max_count) {
		if (pool->capacity >= pool->max_count)
			return -ENOSPC;
		if (n > pool->max_count - pool->capacity)
			n = pool->max_count - pool->capacity;
	}
	bytes = uet_bufpool_chunk_bytes(pool, n, &off);
	if (!bytes)
		return -ENOMEM;
	if (posix_memalign(&mem, pool->align, bytes))
		return -ENOMEM;

	chunk = mem;
	chunk->objs = (uint8_t *)mem + off;
	chunk->count = n;
	chunk->bytes = bytes;
	if (pool->debug)
		memset(chunk->state, UET_BUFPOOL_OBJ_FREE, n);
	chunk->next = pool->chunks;
	pool->chunks = chunk;
	pool->nchunks++;
	pool->capacity += n;

	/* Link in reverse so that the lowest address is handed out first. */
	for (i = n; i-- > 0;) {
		uint8_t *obj = chunk->objs + i * pool->stride;

		uet_bufpool_link(pool, obj);
		uet_bufpool_poison(obj, pool->stride);
	}
	return 0;
}

int uet_bufpool_init(struct uet_bufpool *pool,
		     const struct uet_bufpool_attr *attr)
{
	size_t align = attr->align ? attr->align : alignof(max_align_t);
	size_t size = attr->size, off;
	int ret;

	memset(pool, 0, sizeof(*pool));
	if (!size || !uet_is_pow2(align))
		return -EINVAL;
	if (align < alignof(void *))
		align = alignof(void *);
	if (size < sizeof(void *))
		size = sizeof(void *);
	if (size > SIZE_MAX - align)
		return -EINVAL;

	pool->size = attr->size;
	pool->align = align;
	pool->stride = uet_round_up(size, align);
	pool->chunk_count = attr->chunk_count ? attr->chunk_count :
			    UET_BUFPOOL_CHUNK;
	pool->max_count = attr->max_count;
	pool->debug = attr->debug;
	if (pool->max_count && pool->chunk_count > pool->max_count)
		pool->chunk_count = pool->max_count;
	if (!uet_bufpool_chunk_bytes(pool, pool->chunk_count, &off))
		return -EINVAL;

	while (pool->capacity < attr->initial_count) {
		ret = uet_bufpool_grow(pool);
		if (ret == -ENOSPC)
			break;	/* initial_count above max_count: stop at max */
		if (ret)
			goto err_destroy;
	}
	return 0;

err_destroy:
	uet_bufpool_destroy(pool);
	return ret;
}

void uet_bufpool_destroy(struct uet_bufpool *pool)
{
	struct uet_bufpool_chunk *chunk, *next;

	for (chunk = pool->chunks; chunk; chunk = next) {
		next = chunk->next;
		uet_bufpool_unpoison(chunk, chunk->bytes);
		free(chunk);
	}
	pool->chunks = NULL;
	pool->free_list = NULL;
	pool->nchunks = 0;
	pool->capacity = 0;
	pool->in_use = 0;
}

/* The chunk holding obj, and obj's index in it; NULL if not ours. */
static struct uet_bufpool_chunk *
uet_bufpool_find(const struct uet_bufpool *pool, const void *obj,
		 size_t *index)
{
	struct uet_bufpool_chunk *chunk;
	uintptr_t p = (uintptr_t)obj, base, delta;

	for (chunk = pool->chunks; chunk; chunk = chunk->next) {
		base = (uintptr_t)chunk->objs;
		if (p < base)
			continue;
		delta = p - base;
		if (delta >= chunk->count * pool->stride)
			continue;
		if (delta % pool->stride)
			return NULL;
		*index = delta / pool->stride;
		return chunk;
	}
	return NULL;
}

bool uet_bufpool_owns(const struct uet_bufpool *pool, const void *obj)
{
	size_t index;

	return uet_bufpool_find(pool, obj, &index) != NULL;
}

void *uet_bufpool_get(struct uet_bufpool *pool)
{
	struct uet_bufpool_chunk *chunk;
	size_t index;
	void *obj;

	if (!pool->free_list && uet_bufpool_grow(pool))
		return NULL;

	obj = pool->free_list;
	uet_bufpool_unpoison(obj, pool->stride);
	memcpy(&pool->free_list, obj, sizeof(pool->free_list));

	if (pool->debug) {
		chunk = uet_bufpool_find(pool, obj, &index);
		if (!chunk || chunk->state[index] != UET_BUFPOOL_OBJ_FREE) {
			fprintf(stderr, "uet_bufpool_get: free list of pool "
				"%p corrupted at %p\n", (void *)pool, obj);
			abort();
		}
		chunk->state[index] = UET_BUFPOOL_OBJ_IN_USE;
	}
	/* Keep the tail padding poisoned: overruns into it are reported. */
	uet_bufpool_poison((uint8_t *)obj + pool->size,
			   pool->stride - pool->size);
	uet_bufpool_unpoison(obj, pool->size);

	pool->in_use++;
	if (pool->in_use > pool->high_water)
		pool->high_water = pool->in_use;
	return obj;
}

void uet_bufpool_put(struct uet_bufpool *pool, void *obj)
{
	struct uet_bufpool_chunk *chunk;
	size_t index;

	if (pool->debug) {
		chunk = uet_bufpool_find(pool, obj, &index);
		if (!chunk) {
			fprintf(stderr, "uet_bufpool_put: %p is not an object "
				"of pool %p\n", obj, (void *)pool);
			abort();
		}
		if (chunk->state[index] != UET_BUFPOOL_OBJ_IN_USE) {
			fprintf(stderr, "uet_bufpool_put: %p put twice in "
				"pool %p\n", obj, (void *)pool);
			abort();
		}
		chunk->state[index] = UET_BUFPOOL_OBJ_FREE;
		memset(obj, UET_BUFPOOL_FREE_FILL, pool->size);
	} else if (uet_bufpool_is_poisoned(obj)) {
		/* Free objects are poisoned: this one is already free. */
		fprintf(stderr, "uet_bufpool_put: %p put twice in pool %p\n",
			obj, (void *)pool);
		abort();
	}
	uet_bufpool_unpoison(obj, pool->stride);
	uet_bufpool_link(pool, obj);
	uet_bufpool_poison(obj, pool->stride);
	pool->in_use--;
}

void uet_bufpool_stats(const struct uet_bufpool *pool,
		       struct uet_bufpool_stats *stats)
{
	stats->in_use = pool->in_use;
	stats->high_water = pool->high_water;
	stats->capacity = pool->capacity;
	stats->chunks = pool->nchunks;
}
