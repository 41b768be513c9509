/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Intrusive chained hash map; see uet_hashmap.h for the contract.
 *
 * Each bucket is a singly linked chain with back pointers (pprev points
 * at whichever pointer points at the node: the bucket slot or the
 * previous node's next), so that removal needs no search.  Every node
 * caches its full 64-bit hash: rehashing never calls the hash function
 * and lookups compare hashes before keys.
 */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hashmap.h"

/* ---- hashing ---- */

static inline uint64_t uet_rotl64(uint64_t x, unsigned int r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * Absorb 8-byte words one at a time: mix the word, fold it into the
 * state, multiply and rotate so that word order matters; the length is
 * folded into the initial state so that keys differing only in trailing
 * zero bytes differ.  Words are read in host order: the hash only has to
 * agree with itself within one process.
 */
uint64_t uet_hash_bytes(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 0x243f6a8885a308d3ull ^ ((uint64_t)len *
					      0x9e3779b97f4a7c15ull);
	uint64_t w;

	while (len >= 8) {
		memcpy(&w, b, 8);
		h = uet_rotl64((h ^ uet_hash_mix64(w)) * 0xff51afd7ed558ccdull,
			       29);
		b += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, b, len);
		h = uet_rotl64((h ^ uet_hash_mix64(w)) * 0xff51afd7ed558ccdull,
			       29);
	}
	return uet_hash_mix64(h);
}

uint64_t uet_hash_u64_key(const void *key, size_t key_len)
{
	uint64_t k;

	(void)key_len;
	memcpy(&k, key, sizeof(k));
	return uet_hash_u64(k);
}

/* ---- buckets ---- */

static size_t uet_hashmap_buckets_for(size_t capacity)
{
	size_t n = UET_HASHMAP_MIN_BUCKETS;

	/* Grow while capacity exceeds the 3/4 load limit of n buckets. */
	while (capacity > n - n / 4 && n <= SIZE_MAX / 2 / sizeof(void *))
		n *= 2;
	return n;
}

static inline struct uet_hnode **
uet_hashmap_slot(struct uet_hnode **buckets, size_t nbuckets, uint64_t hash)
{
	return &buckets[hash & (nbuckets - 1)];
}

static void uet_hnode_link(struct uet_hnode **slot, struct uet_hnode *node)
{
	node->next = *slot;
	if (node->next)
		node->next->pprev = &node->next;
	node->pprev = slot;
	*slot = node;
}

int uet_hashmap_init(struct uet_hashmap *map, size_t key_len, size_t capacity)
{
	size_t n = uet_hashmap_buckets_for(capacity);

	map->buckets = calloc(n, sizeof(*map->buckets));
	if (!map->buckets)
		return -ENOMEM;
	map->nbuckets = n;
	map->count = 0;
	map->key_len = key_len;
	map->hash = key_len ? uet_hash_bytes : uet_hash_u64_key;
	return 0;
}

void uet_hashmap_fini(struct uet_hashmap *map)
{
	free(map->buckets);
	map->buckets = NULL;
	map->nbuckets = 0;
	map->count = 0;
}

/* Double the bucket array; on allocation failure keep the old one. */
static void uet_hashmap_grow(struct uet_hashmap *map)
{
	struct uet_hnode **nb, *node, *next;
	size_t n, i;

	if (map->nbuckets > SIZE_MAX / 2 / sizeof(*nb))
		return;
	n = map->nbuckets * 2;
	nb = calloc(n, sizeof(*nb));
	if (!nb)
		return;

	for (i = 0; i < map->nbuckets; i++) {
		for (node = map->buckets[i]; node; node = next) {
			next = node->next;
			uet_hnode_link(uet_hashmap_slot(nb, n, node->hash),
				       node);
		}
	}
	free(map->buckets);
	map->buckets = nb;
	map->nbuckets = n;
}

static struct uet_hnode *uet_hashmap_find(const struct uet_hashmap *map,
					  uint64_t hash, const void *key)
{
	struct uet_hnode *node;

	node = *uet_hashmap_slot(map->buckets, map->nbuckets, hash);
	for (; node; node = node->next) {
		if (node->hash != hash)
			continue;
		if (map->key_len == 0) {
			if (node->key.u64 == *(const uint64_t *)key)
				return node;
		} else if (!memcmp(node->key.bytes, key, map->key_len)) {
			return node;
		}
	}
	return NULL;
}

static int uet_hashmap_insert(struct uet_hashmap *map, struct uet_hnode *node,
			      uint64_t hash, const void *key)
{
	if (uet_hashmap_find(map, hash, key))
		return -EEXIST;

	if (map->count + 1 > map->nbuckets - map->nbuckets / 4)
		uet_hashmap_grow(map);

	node->hash = hash;
	uet_hnode_link(uet_hashmap_slot(map->buckets, map->nbuckets, hash),
		       node);
	map->count++;
	return 0;
}

int uet_hashmap_insert_u64(struct uet_hashmap *map, struct uet_hnode *node,
			   uint64_t key)
{
	int ret;

	assert(map->key_len == 0);
	ret = uet_hashmap_insert(map, node, map->hash(&key, sizeof(key)),
				 &key);
	if (!ret)
		node->key.u64 = key;
	return ret;
}

int uet_hashmap_insert_bytes(struct uet_hashmap *map, struct uet_hnode *node,
			     const void *key)
{
	int ret;

	assert(map->key_len != 0);
	ret = uet_hashmap_insert(map, node, map->hash(key, map->key_len), key);
	if (!ret)
		node->key.bytes = key;
	return ret;
}

struct uet_hnode *uet_hashmap_lookup_u64(const struct uet_hashmap *map,
					 uint64_t key)
{
	assert(map->key_len == 0);
	return uet_hashmap_find(map, map->hash(&key, sizeof(key)), &key);
}

struct uet_hnode *uet_hashmap_lookup_bytes(const struct uet_hashmap *map,
					   const void *key)
{
	assert(map->key_len != 0);
	return uet_hashmap_find(map, map->hash(key, map->key_len), key);
}

void uet_hashmap_remove(struct uet_hashmap *map, struct uet_hnode *node)
{
	assert(map->count > 0 && node->pprev);
	*node->pprev = node->next;
	if (node->next)
		node->next->pprev = node->pprev;
	node->next = NULL;
	node->pprev = NULL;
	map->count--;
}

/* ---- iteration ---- */

void uet_hashmap_iter_init(struct uet_hashmap_iter *it,
			   const struct uet_hashmap *map)
{
	it->map = map;
	it->bucket = 0;
	it->next = NULL;
}

struct uet_hnode *uet_hashmap_iter_next(struct uet_hashmap_iter *it)
{
	struct uet_hnode *node;

	while (!it->next && it->bucket < it->map->nbuckets)
		it->next = it->map->buckets[it->bucket++];
	node = it->next;
	if (node)
		it->next = node->next;
	return node;
}
