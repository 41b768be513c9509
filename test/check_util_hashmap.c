/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_hashmap: intrusive chained hash map.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hashmap.h"
#include "uet_test.h"

/*
 * Each passing ck_assert costs libcheck a write to its result channel;
 * the suite compares first and reports through libcheck only on a
 * mismatch (loops here make up to 10^5 checks each).
 */
#define FAST_EQ(a, b)							\
	do {								\
		uint64_t x_ = (uint64_t)(uintptr_t)(a);			\
		uint64_t y_ = (uint64_t)(uintptr_t)(b);			\
		if (x_ != y_)						\
			ck_abort_msg("%s == %s failed: 0x%llx != 0x%llx", \
				     #a, #b, (unsigned long long)x_,	\
				     (unsigned long long)y_);		\
	} while (0)

struct obj {
	uint64_t key;
	int visits;
	struct uet_hnode node;
};

/* A PDC-like tuple, encoded canonically into bytes. */
#define PDC_KEY_LEN	(4 + 16 + 1 + 1)

struct pdc {
	uint8_t key[PDC_KEY_LEN];
	int visits;
	struct uet_hnode node;
};

static void pdc_key(uint8_t *k, uint32_t job_id, const uint8_t fa[16],
		    uint8_t tc, uint8_t mode)
{
	k[0] = (uint8_t)(job_id >> 24);
	k[1] = (uint8_t)(job_id >> 16);
	k[2] = (uint8_t)(job_id >> 8);
	k[3] = (uint8_t)job_id;
	memcpy(k + 4, fa, 16);
	k[20] = tc;
	k[21] = mode;
}

#define OBJ(n)	uet_container_of((n), struct obj, node)
#define PDC(n)	uet_container_of((n), struct pdc, node)

/* Test-only weak hashes: force every key into a few chains. */
static uint64_t hash_const(const void *key, size_t len)
{
	(void)key;
	(void)len;
	return 7;
}

static uint64_t hash_low2(const void *key, size_t len)
{
	uint64_t k;

	(void)len;
	memcpy(&k, key, sizeof(k));
	return k & 3;
}

/* Keys 0..n-1 scrambled into distinct, spread-out 64-bit values. */
static uint64_t key_of(size_t i)
{
	return uet_hash_mix64((uint64_t)i * 2 + 1) ^ 0x5555;
}

START_TEST(test_hash_known_values)
{
	/* The finalizer maps 0 to 0 and is the splitmix64 output function:
	 * splitmix64 seeded with 0 first yields mix64(0x9e3779b97f4a7c15)
	 * = 0xe220a8397b1dcdaf, which is what uet_hash_u64(0) computes. */
	FAST_EQ(uet_hash_mix64(0), 0);
	FAST_EQ(uet_hash_u64(0), 0xe220a8397b1dcdafull);
	FAST_EQ(uet_hash_mix64(0x9e3779b97f4a7c15ull),
		0xe220a8397b1dcdafull);
	/* Second splitmix64 output (state 2 * golden ratio). */
	FAST_EQ(uet_hash_mix64(0x3c6ef372fe94f82aull),
		0x6e789e6aa1b965f4ull);
}
END_TEST

START_TEST(test_hash_avalanche)
{
	uint64_t k, h, total = 0;
	unsigned int bit, i, n = 0;

	/* Flipping any single input bit flips about half the output bits. */
	for (i = 0; i < 200; i++) {
		k = uet_test_rand64();
		h = uet_hash_u64(k);
		for (bit = 0; bit < 64; bit++) {
			total += (uint64_t)__builtin_popcountll(
				h ^ uet_hash_u64(k ^ (1ull << bit)));
			n++;
		}
	}
	ck_assert_uint_gt(total / n, 29);
	ck_assert_uint_lt(total / n, 35);
}
END_TEST

START_TEST(test_hash_bytes)
{
	uint8_t a[40], b[40];
	size_t len, i;

	for (i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 7 + 1);
	memcpy(b, a, sizeof(a));

	for (len = 0; len <= sizeof(a); len++) {
		/* Equal bytes, different buffers: equal hashes. */
		FAST_EQ(uet_hash_bytes(a, len),
			uet_hash_bytes(b, len));
		/* Length matters, even for trailing zero bytes. */
		if (len)
			ck_assert_uint_ne(uet_hash_bytes(a, len),
					  uet_hash_bytes(a, len - 1));
		/* Every byte position matters. */
		for (i = 0; i < len; i++) {
			b[i] ^= 0x01;
			ck_assert_uint_ne(uet_hash_bytes(a, len),
					  uet_hash_bytes(b, len));
			b[i] ^= 0x01;
		}
	}
	memset(a, 0, sizeof(a));
	ck_assert_uint_ne(uet_hash_bytes(a, 8), uet_hash_bytes(a, 9));
	ck_assert_uint_ne(uet_hash_bytes(a, 0), uet_hash_bytes(a, 1));
	/* Word order matters. */
	a[0] = 1;
	b[0] = 0;
	memset(b + 1, 0, 15);
	b[8] = 1;
	ck_assert_uint_ne(uet_hash_bytes(a, 16), uet_hash_bytes(b, 16));
}
END_TEST

START_TEST(test_u64_basic)
{
	struct uet_hashmap map;
	struct obj a = { .key = 1 }, b = { .key = 2 }, dup = { .key = 1 };

	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);
	FAST_EQ(map.nbuckets, UET_HASHMAP_MIN_BUCKETS);
	FAST_EQ(uet_hashmap_count(&map), 0);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 1), NULL);

	FAST_EQ(uet_hashmap_insert_u64(&map, &a.node, a.key), 0);
	FAST_EQ(uet_hashmap_insert_u64(&map, &b.node, b.key), 0);
	FAST_EQ(uet_hashmap_count(&map), 2);

	/* Duplicate key: refused, node and map untouched. */
	memset(&dup.node, 0xab, sizeof(dup.node));
	FAST_EQ(uet_hashmap_insert_u64(&map, &dup.node, 1), -EEXIST);
	FAST_EQ(uet_hashmap_count(&map), 2);
	FAST_EQ(dup.node.hash, 0xababababababababull);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 1), &a.node);

	FAST_EQ(OBJ(uet_hashmap_lookup_u64(&map, 2)), &b);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 3), NULL);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 0), NULL);

	uet_hashmap_remove(&map, &a.node);
	FAST_EQ(uet_hashmap_count(&map), 1);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 1), NULL);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 2), &b.node);

	/* The key is free again. */
	FAST_EQ(uet_hashmap_insert_u64(&map, &dup.node, 1), 0);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 1), &dup.node);
	FAST_EQ(dup.node.key.u64, 1);

	/* Extreme keys. */
	a.key = 0;
	FAST_EQ(uet_hashmap_insert_u64(&map, &a.node, 0), 0);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 0), &a.node);
	uet_hashmap_remove(&map, &b.node);
	FAST_EQ(uet_hashmap_insert_u64(&map, &b.node, UINT64_MAX), 0);
	FAST_EQ(uet_hashmap_lookup_u64(&map, UINT64_MAX), &b.node);
	FAST_EQ(uet_hashmap_count(&map), 3);
	uet_hashmap_fini(&map);
}
END_TEST

START_TEST(test_u64_100k_growth)
{
	enum { N = 100000 };
	struct uet_hashmap map;
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	struct obj *objs;
	size_t i, seen, chain, max_chain = 0, b, prev_buckets;

	objs = calloc(N, sizeof(*objs));
	ck_assert_ptr_nonnull(objs);
	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);

	prev_buckets = map.nbuckets;
	for (i = 0; i < N; i++) {
		objs[i].key = key_of(i);
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       objs[i].key), 0);
		/* Load factor kept at or below 3/4; growth only doubles. */
		if (uet_hashmap_count(&map) * 4 > map.nbuckets * 3)
			ck_abort_msg("load above 3/4: %zu in %zu buckets",
				     uet_hashmap_count(&map), map.nbuckets);
		if (map.nbuckets != prev_buckets) {
			FAST_EQ(map.nbuckets, prev_buckets * 2);
			prev_buckets = map.nbuckets;
		}
	}
	FAST_EQ(uet_hashmap_count(&map), N);
	/* 100000 / 0.75 = 133334 -> 262144 buckets. */
	FAST_EQ(map.nbuckets, 262144);

	/* Every key found at its own object; duplicates refused. */
	for (i = 0; i < N; i++) {
		FAST_EQ(uet_hashmap_lookup_u64(&map, objs[i].key),
			&objs[i].node);
		if (i % 1000 == 0) {
			struct obj d;

			FAST_EQ(uet_hashmap_insert_u64(&map, &d.node,
						       objs[i].key),
				-EEXIST);
		}
	}
	/* Keys never inserted are absent. */
	for (i = N; i < N + 10000; i++)
		FAST_EQ(uet_hashmap_lookup_u64(&map, key_of(i)), NULL);

	/* Chains stay short with a good hash. */
	for (b = 0; b < map.nbuckets; b++) {
		chain = 0;
		for (n = map.buckets[b]; n; n = n->next)
			chain++;
		if (chain > max_chain)
			max_chain = chain;
	}
	ck_assert_uint_le(max_chain, 12);

	/* Iteration visits every node exactly once. */
	seen = 0;
	uet_hashmap_foreach(&map, &it, n) {
		OBJ(n)->visits++;
		seen++;
	}
	FAST_EQ(seen, N);
	for (i = 0; i < N; i++)
		FAST_EQ(objs[i].visits, 1);

	/* Remove the even ones; odd ones remain. */
	for (i = 0; i < N; i += 2)
		uet_hashmap_remove(&map, &objs[i].node);
	FAST_EQ(uet_hashmap_count(&map), N / 2);
	for (i = 0; i < N; i++) {
		n = uet_hashmap_lookup_u64(&map, objs[i].key);
		if (i % 2)
			FAST_EQ(n, &objs[i].node);
		else
			FAST_EQ(n, NULL);
	}
	uet_hashmap_fini(&map);
	free(objs);
}
END_TEST

START_TEST(test_capacity_hint)
{
	struct uet_hashmap map;
	struct obj objs[1000];
	size_t i;

	/* 1000 entries need 1334 buckets at 3/4 load: 2048. */
	FAST_EQ(uet_hashmap_init(&map, 0, 1000), 0);
	FAST_EQ(map.nbuckets, 2048);
	for (i = 0; i < 1000; i++)
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       i), 0);
	FAST_EQ(map.nbuckets, 2048);
	uet_hashmap_fini(&map);

	/* Exactly at the limit of the minimum array: 12 fit in 16. */
	FAST_EQ(uet_hashmap_init(&map, 0, 12), 0);
	FAST_EQ(map.nbuckets, 16);
	for (i = 0; i < 12; i++)
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       i), 0);
	FAST_EQ(map.nbuckets, 16);
	FAST_EQ(uet_hashmap_insert_u64(&map, &objs[12].node, 12), 0);
	FAST_EQ(map.nbuckets, 32);
	uet_hashmap_fini(&map);
}
END_TEST

START_TEST(test_remove_during_iteration)
{
	enum { N = 5000 };
	struct uet_hashmap map;
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	struct obj *objs;
	size_t i, seen = 0;

	objs = calloc(N, sizeof(*objs));
	ck_assert_ptr_nonnull(objs);
	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);
	for (i = 0; i < N; i++) {
		objs[i].key = i;
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       i), 0);
	}

	/* Remove every third node as it is visited. */
	uet_hashmap_foreach(&map, &it, n) {
		OBJ(n)->visits++;
		seen++;
		if (OBJ(n)->key % 3 == 0)
			uet_hashmap_remove(&map, n);
	}
	FAST_EQ(seen, N);
	for (i = 0; i < N; i++) {
		FAST_EQ(objs[i].visits, 1);
		if (i % 3 == 0)
			FAST_EQ(uet_hashmap_lookup_u64(&map, i), NULL);
		else
			FAST_EQ(uet_hashmap_lookup_u64(&map, i),
				&objs[i].node);
	}
	FAST_EQ(uet_hashmap_count(&map), N - (N + 2) / 3);

	/* Remove (and scribble over) everything while iterating. */
	seen = 0;
	uet_hashmap_foreach(&map, &it, n) {
		uet_hashmap_remove(&map, n);
		memset(n, 0xcd, sizeof(*n));
		seen++;
	}
	FAST_EQ(seen, N - (N + 2) / 3);
	FAST_EQ(uet_hashmap_count(&map), 0);
	uet_hashmap_foreach(&map, &it, n)
		ck_abort_msg("iterated an empty map");
	uet_hashmap_fini(&map);
	free(objs);
}
END_TEST

START_TEST(test_collisions)
{
	enum { N = 1000 };
	struct uet_hashmap map;
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	struct obj *objs;
	size_t i, seen;

	objs = calloc(N, sizeof(*objs));
	ck_assert_ptr_nonnull(objs);

	/* Everything in one chain. */
	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);
	map.hash = hash_const;
	for (i = 0; i < N; i++) {
		objs[i].key = i * 1000003;
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       objs[i].key), 0);
	}
	FAST_EQ(uet_hashmap_insert_u64(&map, &objs[0].node, 5 *
				       1000003), -EEXIST);
	for (i = 0; i < N; i++)
		FAST_EQ(uet_hashmap_lookup_u64(&map, objs[i].key),
			&objs[i].node);
	FAST_EQ(uet_hashmap_lookup_u64(&map, 1), NULL);
	/* Remove chain head (last inserted), tail (first), and middles. */
	uet_hashmap_remove(&map, &objs[N - 1].node);
	uet_hashmap_remove(&map, &objs[0].node);
	for (i = 1; i < N - 1; i += 2)
		uet_hashmap_remove(&map, &objs[i].node);
	for (i = 0; i < N; i++) {
		n = uet_hashmap_lookup_u64(&map, objs[i].key);
		if (i == 0 || i == N - 1 || i % 2)
			FAST_EQ(n, NULL);
		else
			FAST_EQ(n, &objs[i].node);
	}
	seen = 0;
	uet_hashmap_foreach(&map, &it, n)
		seen++;
	FAST_EQ(seen, uet_hashmap_count(&map));
	FAST_EQ(seen, (N - 2) / 2);
	uet_hashmap_fini(&map);

	/* Four chains, through growth (rehash keeps the cached hashes). */
	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);
	map.hash = hash_low2;
	for (i = 0; i < N; i++)
		FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
					       i), 0);
	ck_assert_uint_gt(map.nbuckets, UET_HASHMAP_MIN_BUCKETS);
	for (i = 0; i < N; i++) {
		FAST_EQ(uet_hashmap_lookup_u64(&map, i),
			&objs[i].node);
		FAST_EQ(objs[i].node.hash, i & 3);
	}
	for (i = 4; i < map.nbuckets; i++)
		FAST_EQ(map.buckets[i], NULL);
	uet_hashmap_fini(&map);
	free(objs);
}
END_TEST

START_TEST(test_byte_keys)
{
	enum { N = 20000 };
	struct uet_hashmap map;
	struct uet_hashmap_iter it;
	struct uet_hnode *n;
	struct pdc *pdcs, dup;
	uint8_t fa[16], probe[PDC_KEY_LEN];
	size_t i, j, seen;

	pdcs = calloc(N, sizeof(*pdcs));
	ck_assert_ptr_nonnull(pdcs);
	FAST_EQ(uet_hashmap_init(&map, PDC_KEY_LEN, 0), 0);

	/* Keys differ in job_id, one fabric address byte, tc or mode. */
	for (i = 0; i < N; i++) {
		memset(fa, 0, sizeof(fa));
		fa[15] = (uint8_t)(i % 251);
		fa[0] = 0xfd;
		pdc_key(pdcs[i].key, (uint32_t)(i / 251), fa,
			(uint8_t)(i % 3), 1);
		FAST_EQ(uet_hashmap_insert_bytes(&map, &pdcs[i].node,
						 pdcs[i].key), 0);
		FAST_EQ(pdcs[i].node.key.bytes, pdcs[i].key);
	}
	FAST_EQ(uet_hashmap_count(&map), N);

	for (i = 0; i < N; i++) {
		/* Look up with a copy in other memory. */
		memcpy(probe, pdcs[i].key, sizeof(probe));
		FAST_EQ(uet_hashmap_lookup_bytes(&map, probe),
			&pdcs[i].node);
		/* Any single-byte change misses (mode 1 -> 0 or 2). */
		probe[21] ^= 3;
		FAST_EQ(uet_hashmap_lookup_bytes(&map, probe), NULL);
		if (i % 500 == 0) {
			for (j = 0; j < PDC_KEY_LEN; j++) {
				memcpy(probe, pdcs[i].key, sizeof(probe));
				probe[j] ^= 0x80;
				FAST_EQ(uet_hashmap_lookup_bytes(&map, probe),
					NULL);
			}
		}
	}

	/* Duplicate tuple from a different object: refused. */
	memcpy(dup.key, pdcs[77].key, sizeof(dup.key));
	FAST_EQ(uet_hashmap_insert_bytes(&map, &dup.node, dup.key),
		-EEXIST);

	/* Remove during iteration: drop tc == 0. */
	seen = 0;
	uet_hashmap_foreach(&map, &it, n) {
		PDC(n)->visits++;
		seen++;
		if (PDC(n)->key[20] == 0)
			uet_hashmap_remove(&map, n);
	}
	FAST_EQ(seen, N);
	for (i = 0; i < N; i++) {
		FAST_EQ(pdcs[i].visits, 1);
		n = uet_hashmap_lookup_bytes(&map, pdcs[i].key);
		if (i % 3 == 0)
			FAST_EQ(n, NULL);
		else
			FAST_EQ(n, &pdcs[i].node);
	}
	uet_hashmap_fini(&map);
	free(pdcs);
}
END_TEST

START_TEST(test_byte_keys_collide)
{
	struct uet_hashmap map;
	struct pdc p[64], q[4];
	uint8_t fa[16] = { 0 };
	size_t i;

	/* Same hash for all: memcmp must tell them apart. */
	ck_assert_int_eq(uet_hashmap_init(&map, PDC_KEY_LEN, 0), 0);
	map.hash = hash_const;
	for (i = 0; i < 64; i++) {
		fa[i % 16] = (uint8_t)(i + 1);
		pdc_key(p[i].key, 9, fa, 0, 0);
		FAST_EQ(uet_hashmap_insert_bytes(&map, &p[i].node, p[i].key),
			0);
	}
	for (i = 0; i < 64; i++)
		FAST_EQ(uet_hashmap_lookup_bytes(&map, p[i].key), &p[i].node);
	for (i = 0; i < 64; i += 3)
		uet_hashmap_remove(&map, &p[i].node);
	for (i = 0; i < 64; i++)
		FAST_EQ(uet_hashmap_lookup_bytes(&map, p[i].key),
			i % 3 ? &p[i].node : NULL);

	/* Keys equal but for their first or their last byte. */
	memset(fa, 0, sizeof(fa));
	pdc_key(q[0].key, 0x01000000, fa, 0, 0);
	pdc_key(q[1].key, 0x02000000, fa, 0, 0);
	pdc_key(q[2].key, 0, fa, 0, 1);
	pdc_key(q[3].key, 0, fa, 0, 2);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(uet_hashmap_insert_bytes(&map, &q[i].node,
							  q[i].key), 0);
	for (i = 0; i < 4; i++)
		ck_assert_ptr_eq(uet_hashmap_lookup_bytes(&map, q[i].key),
				 &q[i].node);
	uet_hashmap_fini(&map);
}
END_TEST

/* Random insert/remove/lookup against a presence array. */
/*
 * The one-entry memo in front of a byte-keyed map (SES streams and routes,
 * the software NIC's peers):
 * a hit needs the same key, a miss falls back to the map, and an entry
 * forgotten before its removal is never returned again, even when its
 * memory comes back under another key.
 */
START_TEST(test_memo)
{
	struct uet_hnode a, b, *n;
	struct uet_hashmap_memo m = { NULL };
	struct uet_hashmap map;
	uint8_t ka[34], kb[34];

	memset(ka, 0xa5, sizeof(ka));
	memset(kb, 0xa5, sizeof(kb));
	kb[sizeof(kb) - 1] = 0x5a;	/* differs in the last byte only */
	ck_assert_int_eq(uet_hashmap_init(&map, sizeof(ka), 0), 0);
	ck_assert_ptr_null(uet_hashmap_memo_lookup(&m, &map, ka));
	ck_assert_int_eq(uet_hashmap_insert_bytes(&map, &a, ka), 0);
	ck_assert_int_eq(uet_hashmap_insert_bytes(&map, &b, kb), 0);
	ck_assert_ptr_eq(uet_hashmap_memo_lookup(&m, &map, ka), &a);
	ck_assert_ptr_eq(m.node, &a);
	ck_assert_ptr_eq(uet_hashmap_memo_lookup(&m, &map, kb), &b);
	ck_assert_ptr_eq(uet_hashmap_memo_lookup(&m, &map, ka), &a);
	/* Forgetting another entry keeps the memo; its own clears it. */
	uet_hashmap_memo_forget(&m, &b);
	ck_assert_ptr_eq(m.node, &a);
	uet_hashmap_memo_forget(&m, &a);
	ck_assert_ptr_null(m.node);
	uet_hashmap_remove(&map, &a);
	ck_assert_ptr_null(uet_hashmap_memo_lookup(&m, &map, ka));
	/* a's memory reused under b's key: found by b's key only. */
	uet_hashmap_memo_forget(&m, &b);
	uet_hashmap_remove(&map, &b);
	ck_assert_int_eq(uet_hashmap_insert_bytes(&map, &a, kb), 0);
	n = uet_hashmap_memo_lookup(&m, &map, kb);
	ck_assert_ptr_eq(n, &a);
	ck_assert_ptr_null(uet_hashmap_memo_lookup(&m, &map, ka));
	ck_assert_ptr_eq(uet_hashmap_memo_lookup(&m, &map, kb), &a);
	uet_hashmap_fini(&map);
}
END_TEST

START_TEST(test_random_model)
{
	enum { N = 4096, ROUNDS = 200000 };
	struct uet_hashmap map;
	struct obj *objs;
	bool *in;
	size_t i, k, count = 0;
	struct uet_hnode *n;

	objs = calloc(N, sizeof(*objs));
	in = calloc(N, sizeof(*in));
	ck_assert_ptr_nonnull(objs);
	ck_assert_ptr_nonnull(in);
	FAST_EQ(uet_hashmap_init(&map, 0, 0), 0);
	for (k = 0; k < ROUNDS; k++) {
		i = (size_t)uet_test_rand_bits(12);
		n = uet_hashmap_lookup_u64(&map, key_of(i));
		FAST_EQ(n, in[i] ? &objs[i].node : NULL);
		if (in[i]) {
			uet_hashmap_remove(&map, &objs[i].node);
			count--;
		} else {
			FAST_EQ(uet_hashmap_insert_u64(&map, &objs[i].node,
						       key_of(i)), 0);
			count++;
		}
		in[i] = !in[i];
		FAST_EQ(uet_hashmap_count(&map), count);
	}
	uet_hashmap_fini(&map);
	free(in);
	free(objs);
}
END_TEST

static Suite *util_hashmap_suite(void)
{
	Suite *s = suite_create("util_hashmap");
	TCase *tc = tcase_create("hashmap");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hash_known_values);
	tcase_add_test(tc, test_hash_avalanche);
	tcase_add_test(tc, test_hash_bytes);
	tcase_add_test(tc, test_u64_basic);
	tcase_add_test(tc, test_u64_100k_growth);
	tcase_add_test(tc, test_capacity_hint);
	tcase_add_test(tc, test_remove_during_iteration);
	tcase_add_test(tc, test_collisions);
	tcase_add_test(tc, test_byte_keys);
	tcase_add_test(tc, test_byte_keys_collide);
	tcase_add_test(tc, test_random_model);
	tcase_add_test(tc, test_memo);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_hashmap_suite)
