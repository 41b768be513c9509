/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intrusive chained hash map.
 *
 * The user embeds a struct uet_hnode in each object and inserts it under
 * a key.  A map is keyed either by a uint64_t (key_len 0 at init) or by a
 * fixed-length byte string of key_len bytes, e.g. a PDC tuple encoded as
 * {job_id, fabric address bytes, tc, mode}.  For byte keys the node keeps
 * a pointer to the key bytes, which must stay valid and unchanged while
 * the node is in the map (normally they live in the same object).  Byte
 * keys are compared with memcmp, so encode them canonically (no padding
 * holes): build the key in a uint8_t array, not in a struct.
 *
 * Inserting never allocates.  The bucket array is a power of two and
 * doubles when count exceeds 3/4 of the bucket count; if that allocation
 * fails the insert still succeeds on the old array (longer chains) and
 * growth is retried on the next insert.  Removal is O(1) given the node.
 *
 * Not thread safe: the owner's lock covers the map.  Iteration tolerates
 * removal of the node just returned, but not insertion (which may
 * rehash).
 */
#ifndef UET_HASHMAP_H
#define UET_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uet_list.h"	/* uet_container_of() to get from node to object */

struct uet_hnode {
	struct uet_hnode *next;
	struct uet_hnode **pprev;	/* the pointer that points at us */
	uint64_t hash;
	union {
		uint64_t u64;
		const void *bytes;
	} key;
};

/* Hash of a key: key points at a uint64_t (u64 maps) or at key_len bytes. */
typedef uint64_t (*uet_hash_fn)(const void *key, size_t key_len);

struct uet_hashmap {
	struct uet_hnode **buckets;
	size_t nbuckets;		/* power of two */
	size_t count;
	size_t key_len;			/* 0: uint64_t keys */
	/*
	 * Hash function; init sets the default (uet_hash_u64_key or
	 * uet_hash_bytes).  A test may replace it on an empty map.
	 */
	uet_hash_fn hash;
};

/* Smallest bucket array; also the default when the capacity hint is 0. */
#define UET_HASHMAP_MIN_BUCKETS	16

/*
 * Initialise an empty map.  key_len 0 selects uint64_t keys; otherwise
 * keys are key_len bytes.  capacity is the number of entries expected
 * (0 for the minimum); the bucket array is sized so that many fit
 * without growing.  Returns 0 or -ENOMEM.
 */
int uet_hashmap_init(struct uet_hashmap *map, size_t key_len, size_t capacity);

/* Free the bucket array.  Nodes still in the map are simply forgotten. */
void uet_hashmap_fini(struct uet_hashmap *map);

static inline size_t uet_hashmap_count(const struct uet_hashmap *map)
{
	return map->count;
}

/* Insert node under key; -EEXIST (node untouched) if the key is present. */
int uet_hashmap_insert_u64(struct uet_hashmap *map, struct uet_hnode *node,
			   uint64_t key);
int uet_hashmap_insert_bytes(struct uet_hashmap *map, struct uet_hnode *node,
			     const void *key);

/* The node stored under key, or NULL. */
struct uet_hnode *uet_hashmap_lookup_u64(const struct uet_hashmap *map,
					 uint64_t key);
struct uet_hnode *uet_hashmap_lookup_bytes(const struct uet_hashmap *map,
					   const void *key);

/* Remove a node that is in this map. */
void uet_hashmap_remove(struct uet_hashmap *map, struct uet_hnode *node);

/*
 * The entry the last lookup in a byte-keyed map found.  Consecutive
 * messages of a ping-pong or a stream look the same key up: one key
 * compare instead of hashing it.  Whoever removes an entry from the map
 * forgets it here first (uet_hashmap_memo_forget).
 */
struct uet_hashmap_memo {
	struct uet_hnode *node;
};

static inline struct uet_hnode *
uet_hashmap_memo_lookup(struct uet_hashmap_memo *m,
			const struct uet_hashmap *map, const void *key)
{
	if (m->node && !memcmp(m->node->key.bytes, key, map->key_len))
		return m->node;
	m->node = uet_hashmap_lookup_bytes(map, key);
	return m->node;
}

static inline void uet_hashmap_memo_forget(struct uet_hashmap_memo *m,
					   const struct uet_hnode *n)
{
	if (m->node == n)
		m->node = NULL;
}

/*
 * Iteration in bucket order:
 *
 *	struct uet_hashmap_iter it;
 *	struct uet_hnode *n;
 *
 *	uet_hashmap_foreach(map, &it, n) { ... }
 *
 * The body may uet_hashmap_remove() (and free) n; it must not insert.
 */
struct uet_hashmap_iter {
	const struct uet_hashmap *map;
	size_t bucket;			/* next bucket to scan */
	struct uet_hnode *next;		/* next node to return */
};

void uet_hashmap_iter_init(struct uet_hashmap_iter *it,
			   const struct uet_hashmap *map);
struct uet_hnode *uet_hashmap_iter_next(struct uet_hashmap_iter *it);

#define uet_hashmap_foreach(map, it, node)				\
	for (uet_hashmap_iter_init((it), (map));			\
	     ((node) = uet_hashmap_iter_next(it)) != NULL;)

/* ---- hash functions (also usable on their own) ---- */

/* 64-bit finalizer: a bijection with full avalanche. */
static inline uint64_t uet_hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static inline uint64_t uet_hash_u64(uint64_t key)
{
	return uet_hash_mix64(key + 0x9e3779b97f4a7c15ull);
}

/* Hash of len bytes at p. */
uint64_t uet_hash_bytes(const void *p, size_t len);

/* uet_hash_fn adapter for u64 maps: key points at a uint64_t. */
uint64_t uet_hash_u64_key(const void *key, size_t key_len);

#endif /* UET_HASHMAP_H */
