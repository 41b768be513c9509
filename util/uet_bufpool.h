/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fixed-size object pool.
 *
 * Objects of one size are carved out of chunks of chunk_count objects;
 * free objects sit on a singly linked free list threaded through their
 * first pointer-sized bytes.  get and put are O(1) and allocate only
 * when the free list is empty and a new chunk is needed, so a pool that
 * has reached its working-set size never calls malloc again.  Chunks
 * are kept until the pool is destroyed.
 *
 * Every object is aligned to attr.align (rounded up to at least pointer
 * alignment).  With max_count set the pool never holds more than that
 * many objects and get returns NULL once they are all in use.
 *
 * get returns uninitialised memory (a reused object holds whatever it
 * held before, except for its first pointer-sized bytes).  Under
 * AddressSanitizer free objects and the padding after each object are
 * poisoned, so use after put, overruns into the padding and double puts
 * are reported.  With attr.debug, put checks that the object belongs to
 * this pool and is not already free, fills it with 0x5a, and aborts with
 * a message if the check fails; the check walks the chunk list, so keep
 * it out of production use.
 *
 * Not thread safe: the owner's lock covers the pool.
 */
#ifndef UET_BUFPOOL_H
#define UET_BUFPOOL_H

#include <stdbool.h>
#include <stddef.h>

struct uet_bufpool_attr {
	size_t size;		/* object size in bytes, > 0 */
	size_t align;		/* power of two; 0: alignof(max_align_t) */
	size_t chunk_count;	/* objects per chunk; 0: UET_BUFPOOL_CHUNK */
	size_t max_count;	/* cap on objects; 0: no cap */
	size_t initial_count;	/* objects to allocate at init */
	bool debug;		/* ownership / double-put checks in put */
};

#define UET_BUFPOOL_CHUNK	64

struct uet_bufpool_chunk;

struct uet_bufpool {
	void *free_list;
	struct uet_bufpool_chunk *chunks;
	size_t size;
	size_t align;
	size_t stride;		/* distance between objects */
	size_t chunk_count;
	size_t max_count;
	size_t capacity;	/* objects in all chunks */
	size_t in_use;
	size_t high_water;
	size_t nchunks;
	bool debug;
};

struct uet_bufpool_stats {
	size_t in_use;		/* objects handed out and not put back */
	size_t high_water;	/* largest in_use seen */
	size_t capacity;	/* objects allocated, free or in use */
	size_t chunks;		/* chunks allocated */
};

/*
 * Initialise a pool.  Returns 0, -EINVAL for a bad attribute (size 0,
 * align not a power of two, sizes that overflow) or -ENOMEM when the
 * initial_count objects could not be allocated (nothing is leaked).
 */
int uet_bufpool_init(struct uet_bufpool *pool,
		     const struct uet_bufpool_attr *attr);

/*
 * Free every chunk.  Objects still in use become invalid; check
 * uet_bufpool_stats().in_use first if that would be a bug.
 */
void uet_bufpool_destroy(struct uet_bufpool *pool);

/* An object, or NULL when max_count is reached or a chunk allocation fails. */
void *uet_bufpool_get(struct uet_bufpool *pool);

/* Return an object obtained from uet_bufpool_get() on this pool. */
void uet_bufpool_put(struct uet_bufpool *pool, void *obj);

/* True when obj is the start of an object of this pool (walks the chunks). */
bool uet_bufpool_owns(const struct uet_bufpool *pool, const void *obj);

void uet_bufpool_stats(const struct uet_bufpool *pool,
		       struct uet_bufpool_stats *stats);

#endif /* UET_BUFPOOL_H */
