/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_link_mem: the in-memory test fabric.
 *
 * Datagrams carry their number (4 bytes, big endian) followed by a
 * pattern derived from it, so every received datagram can be checked
 * byte for byte.  Rate-based faults use fixed fabric seeds, so the
 * statistical bounds (e.g. 300..700 events out of 10000 at 5%, more than
 * nine standard deviations either side of 500) are met deterministically;
 * the randomised model test uses the run's UET_TEST_SEED.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_link.h"
#include "uet_link_mem.h"
#include "uet_test.h"

/* Mirrors UET_LINK_MEM_INFLIGHT_MAX and the 64 KiB size class. */
#define INFLIGHT_MAX	(8u << 20)
#define CLASS_64K	65536u
#define HOLD_MIN_NS	10000u

#define NSTAT		10000u
#define SEED		0x5eed1234abcdull

/* The pattern of id, with id in its first 4 bytes (big-endian). */
static void fill_id(uint8_t *buf, size_t len, uint32_t id)
{
	uet_test_fill(buf, len, id);
	if (len >= 4)
		uet_put_be32(buf, id);
}

static uint32_t id_of(const struct uet_link_rx *rx)
{
	ck_assert_uint_ge(rx->len, 4);
	return (uint32_t)rx->buf[0] << 24 | (uint32_t)rx->buf[1] << 16 |
	       (uint32_t)rx->buf[2] << 8 | rx->buf[3];
}

/* Bits in which rx differs from datagram id of length len. */
static unsigned int diff_bits(const struct uet_link_rx *rx, uint32_t id,
			      size_t len)
{
	uint8_t want[256];
	unsigned int bits = 0;
	size_t i;

	ck_assert_uint_le(len, sizeof(want));
	ck_assert_uint_eq(rx->len, len);
	fill_id(want, len, id);
	for (i = 0; i < len; i++)
		bits += (unsigned int)__builtin_popcount(rx->buf[i] ^ want[i]);
	return bits;
}

static void check_bytes(const struct uet_link_rx *rx, uint32_t id,
			size_t len)
{
	static uint8_t want[65536];

	ck_assert_uint_eq(rx->len, len);
	if (len >= 4)
		ck_assert_uint_eq(id_of(rx), id);
	fill_id(want, len, id);
	ck_assert(memcmp(rx->buf, want, len) == 0);
}

static struct uet_link_addr addr_of(struct uet_link *l)
{
	struct uet_link_addr a;

	ck_assert_int_eq(l->ops->local_addr(l, &a), 0);
	return a;
}

/* Send datagram id of len bytes from a to dst, split over niov iovecs. */
static int send_id(struct uet_link *from, const struct uet_link_addr *dst,
		   uint32_t id, size_t len, unsigned int niov)
{
	static uint8_t buf[65536];
	struct uet_link_pkt pkt;
	size_t off = 0, part;
	unsigned int i;

	ck_assert_uint_le(len, sizeof(buf));
	fill_id(buf, len, id);
	memset(&pkt, 0, sizeof(pkt));
	pkt.dst = dst;
	pkt.entropy = (uint16_t)id;
	pkt.iovcnt = niov;
	for (i = 0; i < niov; i++) {
		part = i + 1 == niov ? len - off : len / niov;
		pkt.iov[i].iov_base = buf + off;
		pkt.iov[i].iov_len = part;
		off += part;
	}
	return from->ops->send(from, &pkt, 1);
}

static void stats(struct uet_link_mem_fabric *fab,
		  struct uet_link_mem_stats *st)
{
	uet_link_mem_fabric_get_stats(fab, st);
	ck_assert_uint_eq(st->sent + st->duplicated,
			  st->delivered + st->dropped + st->queued);
}

/* Fabric with links at ports 1, 2, 3 (a, b, c). */
struct env {
	struct uet_link_mem_fabric *fab;
	struct uet_link *a, *b, *c;
	struct uet_link_addr aa, ab, ac;
};

static void env_open(struct env *e, uint64_t seed, size_t mtu)
{
	ck_assert_int_eq(uet_link_mem_fabric_create(&e->fab, seed, mtu), 0);
	ck_assert_int_eq(uet_link_mem_open(e->fab, 1, &e->a), 0);
	ck_assert_int_eq(uet_link_mem_open(e->fab, 2, &e->b), 0);
	ck_assert_int_eq(uet_link_mem_open(e->fab, 3, &e->c), 0);
	e->aa = addr_of(e->a);
	e->ab = addr_of(e->b);
	e->ac = addr_of(e->c);
}

static void env_close(struct env *e)
{
	e->a->ops->close(e->a);
	e->b->ops->close(e->b);
	e->c->ops->close(e->c);
	uet_link_mem_fabric_destroy(e->fab);
}

static void set_faults(struct uet_link_mem_fabric *fab, uint32_t drop,
		       uint32_t dup, uint32_t reorder, uint32_t corrupt,
		       uint64_t delay, uint64_t jitter)
{
	struct uet_link_mem_faults f = {
		.drop_ppm = drop, .dup_ppm = dup, .reorder_ppm = reorder,
		.corrupt_ppm = corrupt, .delay_ns = delay, .jitter_ns = jitter,
	};

	uet_link_mem_fabric_set_faults(fab, &f);
}

/* ---- tests ---- */

START_TEST(test_open_close)
{
	struct uet_link_mem_fabric *fab;
	struct uet_link *l1, *l2, *l3, *l4;
	struct uet_link_addr a, want;
	struct uet_link_mem_stats st;

	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 0), -EINVAL);
	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 65537), -EINVAL);
	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 0, 4096), 0);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(fab), UINT64_MAX);

	ck_assert_int_eq(uet_link_mem_open(fab, 100, &l1), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 100, &l2), -EADDRINUSE);
	ck_assert_int_eq(uet_link_mem_open(fab, 0, &l2), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 0, &l3), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 49154, &l4), 0);

	ck_assert_int_eq(l1->ops->fd(l1), -1);
	ck_assert_uint_eq(l1->ops->mtu(l1), 4096);
	ck_assert_int_eq(l1->ops->local_addr(l1, &a), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&want, "127.0.0.1", 100), 0);
	ck_assert(uet_link_addr_eq(&a, &want));
	ck_assert_int_eq(l2->ops->local_addr(l2, &a), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&want, "127.0.0.1", 49152), 0);
	ck_assert(uet_link_addr_eq(&a, &want));
	ck_assert_int_eq(l3->ops->local_addr(l3, &a), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&want, "127.0.0.1", 49153), 0);
	ck_assert(uet_link_addr_eq(&a, &want));

	l4->ops->close(l4);
	l2->ops->close(l2);
	/* Freed ports are reusable. */
	ck_assert_int_eq(uet_link_mem_open(fab, 0, &l2), 0);
	ck_assert_int_eq(l2->ops->local_addr(l2, &a), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&want, "127.0.0.1", 49152), 0);
	ck_assert(uet_link_addr_eq(&a, &want));

	stats(fab, &st);
	ck_assert_uint_eq(st.sent, 0);
	l1->ops->close(l1);
	l2->ops->close(l2);
	l3->ops->close(l3);
	uet_link_mem_fabric_destroy(fab);
}
END_TEST

START_TEST(test_delivery_timing)
{
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[4];
	struct env e;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 0, 0, 1000, 0);

	uet_link_mem_fabric_set_time(e.fab, 0);
	ck_assert_int_eq(send_id(e.a, &e.ab, 7, 100, 3), 1);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, 1);
	ck_assert_uint_eq(st.queued, 1);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab), 1000);

	uet_link_mem_fabric_set_time(e.fab, 999);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 0);
	uet_link_mem_fabric_set_time(e.fab, 1000);
	ck_assert_int_eq(e.a->ops->recv(e.a, rx, 4), 0);
	ck_assert_int_eq(e.c->ops->recv(e.c, rx, 4), 0);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	check_bytes(&rx[0], 7, 100);
	ck_assert(uet_link_addr_eq(&rx[0].src, &e.aa));
	stats(e.fab, &st);
	ck_assert_uint_eq(st.delivered, 1);
	ck_assert_uint_eq(st.queued, 0);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab),
			  UINT64_MAX);

	/* Sends at 1000 and 1500 are due at 2000 and 2500. */
	ck_assert_int_eq(send_id(e.c, &e.ab, 8, 10, 1), 1);
	uet_link_mem_fabric_set_time(e.fab, 1500);
	ck_assert_int_eq(send_id(e.a, &e.ab, 9, 10, 1), 1);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab), 2000);
	uet_link_mem_fabric_set_time(e.fab, 1999);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 0);
	uet_link_mem_fabric_set_time(e.fab, 2000);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	check_bytes(&rx[0], 8, 10);
	ck_assert(uet_link_addr_eq(&rx[0].src, &e.ac));
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab), 2500);
	uet_link_mem_fabric_set_time(e.fab, 2499);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 0);
	uet_link_mem_fabric_set_time(e.fab, 2500);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	check_bytes(&rx[0], 9, 10);

	/* A zero-length datagram (no iovecs) is a datagram too. */
	ck_assert_int_eq(send_id(e.a, &e.ab, 0, 0, 0), 1);
	uet_link_mem_fabric_set_time(e.fab, 3500);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	ck_assert_uint_eq(rx[0].len, 0);
	/* n == 0 receives nothing. */
	ck_assert_int_eq(send_id(e.a, &e.ab, 1, 8, 1), 1);
	uet_link_mem_fabric_set_time(e.fab, 4500);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 0), 0);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	env_close(&e);
}
END_TEST

/* Two senders interleaved, no delay: exact send order, small batches. */
START_TEST(test_order_stable)
{
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[7];
	uint32_t next = 0;
	struct env e;
	int i, got;

	env_open(&e, SEED, 4096);
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(send_id(i & 1 ? e.c : e.a, &e.ab, (uint32_t)i,
					 4 + (size_t)i * 13, 1 + i % 8), 1);
	ck_assert_int_eq(e.a->ops->recv(e.a, rx, 7), 0);
	ck_assert_int_eq(e.c->ops->recv(e.c, rx, 7), 0);
	while ((got = e.b->ops->recv(e.b, rx, 7)) > 0) {
		ck_assert_int_le(got, 7);
		for (i = 0; i < got; i++) {
			check_bytes(&rx[i], next, 4 + (size_t)next * 13);
			ck_assert(uet_link_addr_eq(&rx[i].src,
						   next & 1 ? &e.ac : &e.aa));
			next++;
		}
	}
	ck_assert_int_eq(got, 0);
	ck_assert_uint_eq(next, 100);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.delivered, 100);
	ck_assert_uint_eq(st.dropped + st.duplicated + st.reordered +
			  st.corrupted + st.queued, 0);
	env_close(&e);
}
END_TEST

/* Delay + jitter: each datagram at a time in [delay, delay + jitter],
 * delivered in time order, and jitter does reorder some. */
START_TEST(test_jitter)
{
	static uint64_t at[2000];
	struct uet_link_rx rx[64];
	unsigned int got = 0, inversions = 0, steps = 0;
	uint64_t t, last_t = 0;
	uint32_t id, prev = 0;
	struct env e;
	int i, n;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 0, 0, 1000, 500);
	for (i = 0; i < 2000; i++)
		ck_assert_int_eq(send_id(e.a, &e.ab, (uint32_t)i, 16, 2), 1);
	memset(at, 0xff, sizeof(at));
	while ((t = uet_link_mem_fabric_next_delivery(e.fab)) != UINT64_MAX) {
		ck_assert_uint_lt(steps++, 2001);
		ck_assert_uint_ge(t, last_t);
		uet_link_mem_fabric_set_time(e.fab, t);
		if (t > 0) {
			/* Nothing is receivable just before its time. */
			uet_link_mem_fabric_set_time(e.fab, t - 1);
			ck_assert_int_eq(e.b->ops->recv(e.b, rx, 64), 0);
			uet_link_mem_fabric_set_time(e.fab, t);
		}
		n = e.b->ops->recv(e.b, rx, 64);
		ck_assert_int_gt(n, 0);
		for (i = 0; i < n; i++) {
			check_bytes(&rx[i], id_of(&rx[i]), 16);
			id = id_of(&rx[i]);
			ck_assert_uint_lt(id, 2000);
			ck_assert_uint_eq(at[id], UINT64_MAX);
			at[id] = t;
			if (got && id < prev)
				inversions++;
			prev = id;
			got++;
		}
		last_t = t;
	}
	ck_assert_uint_eq(got, 2000);
	for (i = 0; i < 2000; i++) {
		ck_assert_uint_ge(at[i], 1000);
		ck_assert_uint_le(at[i], 1500);
	}
	ck_assert_uint_gt(inversions, 100);
	env_close(&e);
}
END_TEST

/* Send NSTAT datagrams of len bytes a -> b at time 0. */
static void send_many(struct env *e, size_t len)
{
	uint32_t i;

	for (i = 0; i < NSTAT; i++)
		ck_assert_int_eq(send_id(e->a, &e->ab, i, len, 1 + i % 3), 1);
}

/* Receive everything due by time t into ids[]; returns the count. */
static unsigned int drain(struct env *e, uint64_t t, uint32_t *ids,
			  unsigned int max, size_t len, bool check)
{
	struct uet_link_rx rx[64];
	unsigned int got = 0;
	int i, n;

	uet_link_mem_fabric_set_time(e->fab, t);
	while ((n = e->b->ops->recv(e->b, rx, 64)) > 0) {
		for (i = 0; i < n; i++) {
			ck_assert_uint_lt(got, max);
			if (check)
				check_bytes(&rx[i], id_of(&rx[i]), len);
			ids[got++] = check ? id_of(&rx[i]) : 0;
		}
	}
	ck_assert_int_eq(n, 0);
	return got;
}

START_TEST(test_drop_rate)
{
	static uint32_t ids[NSTAT];
	struct uet_link_mem_stats st;
	unsigned int got, i;
	struct env e;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 50000, 0, 0, 0, 0, 0);
	send_many(&e, 16);
	got = drain(&e, 0, ids, NSTAT, 16, true);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, NSTAT);
	ck_assert_uint_ge(st.dropped, 300);
	ck_assert_uint_le(st.dropped, 700);
	ck_assert_uint_eq(st.delivered, NSTAT - st.dropped);
	ck_assert_uint_eq(got, st.delivered);
	ck_assert_uint_eq(st.queued + st.duplicated + st.reordered +
			  st.corrupted, 0);
	for (i = 1; i < got; i++)
		ck_assert_uint_gt(ids[i], ids[i - 1]);
	env_close(&e);
}
END_TEST

START_TEST(test_dup_rate)
{
	static uint32_t ids[2 * NSTAT];
	static uint8_t seen[NSTAT];
	struct uet_link_mem_stats st;
	unsigned int got, i, twice = 0;
	struct env e;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 50000, 0, 0, 0, 0);
	send_many(&e, 40);
	/* Originals are due at 0, copies 1 ns later. */
	got = drain(&e, 0, ids, 2 * NSTAT, 40, true);
	ck_assert_uint_eq(got, NSTAT);
	for (i = 0; i < NSTAT; i++)
		ck_assert_uint_eq(ids[i], i);
	got = drain(&e, 1, ids, 2 * NSTAT, 40, true);
	stats(e.fab, &st);
	ck_assert_uint_ge(st.duplicated, 300);
	ck_assert_uint_le(st.duplicated, 700);
	ck_assert_uint_eq(got, st.duplicated);
	ck_assert_uint_eq(st.delivered, NSTAT + st.duplicated);
	for (i = 0; i < got; i++) {
		ck_assert_uint_lt(ids[i], NSTAT);
		ck_assert_uint_eq(seen[ids[i]], 0);
		seen[ids[i]] = 1;
		twice++;
		if (i)
			ck_assert_uint_gt(ids[i], ids[i - 1]);
	}
	ck_assert_uint_eq(twice, st.duplicated);
	ck_assert_uint_eq(st.queued + st.dropped + st.reordered +
			  st.corrupted, 0);
	env_close(&e);
}
END_TEST

START_TEST(test_reorder_rate)
{
	static uint32_t ids[NSTAT];
	static uint8_t seen[NSTAT];
	struct uet_link_mem_stats st;
	unsigned int got, i, descents = 0;
	struct env e;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 50000, 0, 0, 0);
	send_many(&e, 24);
	/* The last datagram may wait for its hold timeout. */
	got = drain(&e, HOLD_MIN_NS, ids, NSTAT, 24, true);
	ck_assert_uint_eq(got, NSTAT);
	stats(e.fab, &st);
	ck_assert_uint_ge(st.reordered, 300);
	ck_assert_uint_le(st.reordered, 700);
	ck_assert_uint_eq(st.delivered, NSTAT);
	ck_assert_uint_eq(st.queued + st.dropped + st.duplicated +
			  st.corrupted, 0);
	for (i = 0; i < got; i++) {
		ck_assert_uint_eq(seen[ids[i]], 0);
		seen[ids[i]] = 1;
		if (i && ids[i] < ids[i - 1]) {
			/* A held datagram right behind its overtaker. */
			ck_assert_uint_eq(ids[i] + 1, ids[i - 1]);
			descents++;
		}
	}
	/* Each hold is one swap, except a hold at the very end. */
	ck_assert(descents == st.reordered || descents + 1 == st.reordered);
	env_close(&e);
}
END_TEST

/* 100%: pairwise swaps; an odd last one waits for its hold timeout. */
START_TEST(test_reorder_all)
{
	static const uint32_t order[] = { 1, 0, 3, 2 };
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[8];
	struct env e;
	int i;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 1000000, 0, 0, 0);
	uet_link_mem_fabric_set_time(e.fab, 100);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(send_id(e.a, &e.ab, (uint32_t)i, 8, 1), 1);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 8), 4);
	for (i = 0; i < 4; i++)
		check_bytes(&rx[i], order[i], 8);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.reordered, 3);
	ck_assert_uint_eq(st.queued, 1);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab),
			  100 + HOLD_MIN_NS);
	uet_link_mem_fabric_set_time(e.fab, 100 + HOLD_MIN_NS - 1);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 8), 0);
	uet_link_mem_fabric_set_time(e.fab, 100 + HOLD_MIN_NS);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 8), 1);
	check_bytes(&rx[0], 4, 8);

	/* With a delay above the minimum the hold lasts one delay. */
	set_faults(e.fab, 0, 0, 1000000, 0, 50000, 0);
	uet_link_mem_fabric_set_time(e.fab, 0);
	ck_assert_int_eq(send_id(e.a, &e.ab, 5, 8, 1), 1);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab), 100000);
	/* A held datagram is overtaken even when the overtaker is later:
	 * it then follows at the overtaker's time. */
	uet_link_mem_fabric_set_time(e.fab, 20000);
	ck_assert_int_eq(send_id(e.c, &e.ab, 6, 8, 1), 1);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab), 70000);
	uet_link_mem_fabric_set_time(e.fab, 69999);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 8), 0);
	uet_link_mem_fabric_set_time(e.fab, 70000);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 8), 2);
	check_bytes(&rx[0], 6, 8);
	check_bytes(&rx[1], 5, 8);
	ck_assert(uet_link_addr_eq(&rx[0].src, &e.ac));
	ck_assert(uet_link_addr_eq(&rx[1].src, &e.aa));
	stats(e.fab, &st);
	ck_assert_uint_eq(st.reordered, 4);
	ck_assert_uint_eq(st.queued, 0);
	env_close(&e);
}
END_TEST

START_TEST(test_corrupt_rate)
{
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[64];
	unsigned int got = 0, flipped = 0, bits;
	struct env e;
	int i, n;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 0, 50000, 0, 0);
	send_many(&e, 64);
	/* No loss, no reordering: the i-th datagram received is number i
	 * (its number itself may be the corrupted part). */
	while ((n = e.b->ops->recv(e.b, rx, 64)) > 0) {
		for (i = 0; i < n; i++) {
			bits = diff_bits(&rx[i], got++, 64);
			ck_assert_uint_le(bits, 1);
			flipped += bits;
		}
	}
	ck_assert_uint_eq(got, NSTAT);
	stats(e.fab, &st);
	ck_assert_uint_ge(st.corrupted, 300);
	ck_assert_uint_le(st.corrupted, 700);
	ck_assert_uint_eq(flipped, st.corrupted);
	ck_assert_uint_eq(st.delivered, NSTAT);
	ck_assert_uint_eq(st.queued + st.dropped + st.duplicated +
			  st.reordered, 0);
	env_close(&e);
}
END_TEST

START_TEST(test_index_faults)
{
	static const uint32_t want[] = { 0, 1, 2, 4, 5, 6, 8, 9, 13 };
	struct uet_link_mem_stats st;
	struct uet_link_addr nowhere;
	struct uet_link_rx rx[16];
	struct env e;
	uint32_t i;

	env_open(&e, SEED, 4096);
	ck_assert_int_eq(uet_link_addr_from_str(&nowhere, "127.0.0.1", 999),
			 0);
	ck_assert_int_eq(uet_link_mem_fabric_drop_index(e.fab, 3), 0);
	ck_assert_int_eq(uet_link_mem_fabric_drop_index(e.fab, 3), 0);
	ck_assert_int_eq(uet_link_mem_fabric_corrupt_index(e.fab, 6), 0);
	/* Both on one index: it is dropped. */
	ck_assert_int_eq(uet_link_mem_fabric_corrupt_index(e.fab, 7), 0);
	ck_assert_int_eq(uet_link_mem_fabric_drop_index(e.fab, 7), 0);
	/* Index 11 follows a datagram to nowhere (index 10). */
	ck_assert_int_eq(uet_link_mem_fabric_drop_index(e.fab, 11), 0);
	ck_assert_int_eq(uet_link_mem_fabric_corrupt_index(e.fab, 12), 0);

	/* Indices are fabric-wide: a sends 0..4, c sends 5..9. */
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(send_id(i < 5 ? e.a : e.c, &e.ab, i, 32, 2),
				 1);
	ck_assert_int_eq(uet_link_mem_fabric_drop_index(e.fab, 9), -EINVAL);
	ck_assert_int_eq(uet_link_mem_fabric_corrupt_index(e.fab, 0), -EINVAL);
	ck_assert_int_eq(send_id(e.a, &nowhere, 10, 32, 1), 1);	/* 10 */
	ck_assert_int_eq(send_id(e.a, &e.ab, 11, 32, 1), 1);		/* 11 */
	/* Index 12 is corrupted and goes to c; 13 arrives intact. */
	ck_assert_int_eq(send_id(e.a, &e.ac, 12, 32, 1), 1);		/* 12 */
	ck_assert_int_eq(send_id(e.a, &e.ab, 13, 32, 1), 1);		/* 13 */

	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 16), 9);
	for (i = 0; i < 9; i++) {
		if (want[i] == 6)
			ck_assert_uint_eq(diff_bits(&rx[i], 6, 32), 1);
		else
			check_bytes(&rx[i], want[i], 32);
	}
	ck_assert_int_eq(e.c->ops->recv(e.c, rx, 16), 1);
	ck_assert_uint_eq(diff_bits(&rx[0], 12, 32), 1);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, 14);
	ck_assert_uint_eq(st.dropped, 4);	/* 3, 7, 10, 11 */
	ck_assert_uint_eq(st.corrupted, 2);	/* 6, 12 */
	ck_assert_uint_eq(st.delivered, 10);
	env_close(&e);
}
END_TEST

START_TEST(test_mtu)
{
	static uint8_t buf[1100];
	struct uet_link_mem_stats st;
	struct uet_link_pkt pkts[4];
	struct uet_link_rx rx[4];
	struct env e;
	int i;

	env_open(&e, SEED, 1000);
	ck_assert_uint_eq(e.a->ops->mtu(e.a), 1000);
	ck_assert_int_eq(send_id(e.a, &e.ab, 1, 1000, 8), 1);
	ck_assert_int_eq(send_id(e.a, &e.ab, 2, 1001, 3), -EMSGSIZE);
	ck_assert_int_eq(send_id(e.a, &e.ab, 2, 1001, 1), -EMSGSIZE);

	memset(pkts, 0, sizeof(pkts));
	for (i = 0; i < 4; i++) {
		pkts[i].dst = &e.ab;
		pkts[i].iovcnt = 1;
		pkts[i].iov[0].iov_base = buf;
		pkts[i].iov[0].iov_len = i == 2 ? 1001 : 100;
	}
	/* The batch stops before the oversized one ... */
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 4), 2);
	/* ... which is refused when it comes first. */
	ck_assert_int_eq(e.a->ops->send(e.a, &pkts[2], 2), -EMSGSIZE);
	ck_assert_int_eq(e.a->ops->send(e.a, &pkts[3], 1), 1);
	/* Bad datagrams. */
	pkts[0].iovcnt = UET_LINK_MAX_IOV + 1;
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 1), -EINVAL);
	pkts[0].iovcnt = 1;
	pkts[0].dst = NULL;
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 1), -EINVAL);
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 0), 0);

	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 4);
	check_bytes(&rx[0], 1, 1000);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, 4);
	env_close(&e);

	/* The largest fabric MTU is 65536. */
	env_open(&e, SEED, 65536);
	ck_assert_int_eq(send_id(e.a, &e.ab, 3, 65536, 5), 1);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 1);
	check_bytes(&rx[0], 3, 65536);
	env_close(&e);
}
END_TEST

START_TEST(test_unknown_dst)
{
	struct uet_link_addr nowhere, other_ip, v6;
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[4];
	struct uet_link *d;
	struct env e;

	env_open(&e, SEED, 4096);
	ck_assert_int_eq(uet_link_addr_from_str(&nowhere, "127.0.0.1", 9999),
			 0);
	ck_assert_int_eq(uet_link_addr_from_str(&other_ip, "127.0.0.2", 2), 0);
	ck_assert_int_eq(uet_link_addr_from_str(&v6, "::1", 2), 0);
	ck_assert_int_eq(send_id(e.a, &nowhere, 1, 20, 1), 1);
	ck_assert_int_eq(send_id(e.a, &other_ip, 2, 20, 1), 1);
	ck_assert_int_eq(send_id(e.a, &v6, 3, 20, 1), 1);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, 3);
	ck_assert_uint_eq(st.dropped, 3);
	ck_assert_uint_eq(st.queued, 0);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab),
			  UINT64_MAX);
	/* A link opened later does not get them. */
	ck_assert_int_eq(uet_link_mem_open(e.fab, 9999, &d), 0);
	ck_assert_int_eq(d->ops->recv(d, rx, 4), 0);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 4), 0);
	ck_assert_int_eq(send_id(e.a, &nowhere, 4, 20, 1), 1);
	ck_assert_int_eq(d->ops->recv(d, rx, 4), 1);
	check_bytes(&rx[0], 4, 20);
	d->ops->close(d);
	env_close(&e);
}
END_TEST

START_TEST(test_inflight_bound)
{
	static uint8_t buf[60000];
	struct uet_link_mem_stats st;
	struct uet_link_pkt pkts[5];
	struct uet_link_rx rx[256];
	unsigned int k = 0;
	struct env e;
	int i, ret;

	env_open(&e, SEED, 60000);
	set_faults(e.fab, 0, 1000000, 0, 0, 1000, 0);
	/* Every datagram duplicated while there is room: 64 pairs. */
	while ((ret = send_id(e.a, &e.ab, k, 60000, 2)) == 1)
		ck_assert_uint_lt(++k, 1000);
	ck_assert_int_eq(ret, 0);
	stats(e.fab, &st);
	ck_assert_uint_eq(k, INFLIGHT_MAX / CLASS_64K / 2);
	ck_assert_uint_eq(st.duplicated, k);
	ck_assert_uint_eq(st.queued, 2 * k);

	set_faults(e.fab, 0, 0, 0, 0, 1000, 0);
	/* Full: even one byte is refused, and nothing is counted. */
	ck_assert_int_eq(send_id(e.a, &e.ab, 0, 1, 1), 0);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.sent, k);

	/* Originals are due at 1000, their copies at 1001. */
	uet_link_mem_fabric_set_time(e.fab, 1001);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 256), (int)(2 * k));
	for (i = 0; i < (int)(2 * k); i++)
		check_bytes(&rx[i], (uint32_t)i % k, 60000);
	/* What recv() returned stays charged until the next recv(). */
	ck_assert_int_eq(send_id(e.a, &e.ab, 0, 1, 1), 0);
	ck_assert_int_eq(e.b->ops->recv(e.b, rx, 256), 0);

	/* Room again for exactly 128 large datagrams: a batch of 5 with
	 * room for 3 accepts 3. */
	for (i = 0; i < 125; i++)
		ck_assert_int_eq(send_id(e.a, &e.ab, (uint32_t)i, 60000, 1),
				 1);
	memset(pkts, 0, sizeof(pkts));
	for (i = 0; i < 5; i++) {
		pkts[i].dst = &e.ab;
		pkts[i].iovcnt = 1;
		pkts[i].iov[0].iov_base = buf;
		pkts[i].iov[0].iov_len = sizeof(buf);
	}
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 5), 3);
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 5), 0);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.queued, 128);
	/* Closing the receiver gives its buffers back (dropped). */
	e.b->ops->close(e.b);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.queued, 0);
	ck_assert_uint_eq(st.dropped, 128);
	ck_assert_int_eq(uet_link_mem_open(e.fab, 2, &e.b), 0);
	ck_assert_int_eq(e.a->ops->send(e.a, pkts, 5), 5);
	env_close(&e);
}
END_TEST

/* Small datagrams are charged 256 bytes each. */
START_TEST(test_inflight_bound_small)
{
	unsigned int k = 0;
	struct env e;
	int ret;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 0, 0, 1000, 0);
	while ((ret = send_id(e.a, &e.ab, k, 1, 1)) == 1)
		ck_assert_uint_lt(++k, 100000);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(k, INFLIGHT_MAX / 256);
	env_close(&e);
}
END_TEST

/* Close and destroy with datagrams in flight and links still open. */
START_TEST(test_close_destroy)
{
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[8];
	struct uet_link_addr a;
	struct env e;
	int i;

	env_open(&e, SEED, 4096);
	set_faults(e.fab, 0, 0, 1000000, 0, 1000, 0);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(send_id(e.a, &e.ab, (uint32_t)i, 50, 1), 1);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(send_id(e.a, &e.ac, (uint32_t)i, 50, 1), 1);
	e.b->ops->close(e.b);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.dropped, 5);
	ck_assert_uint_eq(st.queued, 3);
	/* b's port is unknown now. */
	ck_assert_int_eq(send_id(e.a, &e.ab, 9, 50, 1), 1);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.dropped, 6);

	uet_link_mem_fabric_set_time(e.fab, 1000);
	ck_assert_int_eq(e.c->ops->recv(e.c, rx, 8), 2);
	/* Destroy with a and c open, c holding rx buffers and a held
	 * datagram: the links only close afterwards. */
	uet_link_mem_fabric_destroy(e.fab);
	ck_assert_int_eq(send_id(e.a, &e.ac, 1, 10, 1), -ENOTCONN);
	ck_assert_int_eq(e.c->ops->recv(e.c, rx, 8), -ENOTCONN);
	ck_assert_uint_eq(e.c->ops->mtu(e.c), 4096);
	ck_assert_int_eq(e.c->ops->local_addr(e.c, &a), 0);
	ck_assert(uet_link_addr_eq(&a, &e.ac));
	e.a->ops->close(e.a);
	e.c->ops->close(e.c);
	uet_link_mem_fabric_destroy(NULL);
}
END_TEST

/* Same seed and calls: same outcome; another seed: another outcome. */
static uint64_t run_hash(uint64_t seed)
{
	struct uet_link_rx rx[64];
	uint64_t h = 1469598103934665603ull;
	struct env e;
	size_t j;
	int i, n;

	env_open(&e, seed, 4096);
	set_faults(e.fab, 20000, 20000, 20000, 20000, 100, 100);
	for (i = 0; i < 3000; i++)
		ck_assert_int_eq(send_id(e.a, &e.ab, (uint32_t)i, 20, 1), 1);
	uet_link_mem_fabric_set_time(e.fab, 1000000);
	while ((n = e.b->ops->recv(e.b, rx, 64)) > 0)
		for (i = 0; i < n; i++)
			for (j = 0; j < rx[i].len; j++)
				h = (h ^ rx[i].buf[j]) * 1099511628211ull;
	env_close(&e);
	return h;
}

START_TEST(test_deterministic)
{
	ck_assert_uint_eq(run_hash(SEED), run_hash(SEED));
	ck_assert_uint_ne(run_hash(SEED), run_hash(SEED + 1));
}
END_TEST

/* Random mix of everything; the counters always add up and everything
 * sent is accounted for at the end. */
START_TEST(test_random_model)
{
	struct uet_link *l[3];
	struct uet_link_addr ad[3];
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[16];
	uint64_t now = 0, got = 0;
	struct env e;
	unsigned int step, s, d;
	int i, n;

	env_open(&e, uet_test_rand64(), 2048);
	l[0] = e.a, l[1] = e.b, l[2] = e.c;
	ad[0] = e.aa, ad[1] = e.ab, ad[2] = e.ac;
	set_faults(e.fab, 100000, 100000, 100000, 100000, 100, 50);
	for (step = 0; step < 5000; step++) {
		s = (unsigned int)uet_test_rand_bits(16) % 3;
		d = (unsigned int)uet_test_rand_bits(16) % 3;
		ck_assert_int_eq(send_id(l[s], &ad[d], step,
					 uet_test_rand_bits(11),
					 1 + uet_test_rand_bits(3)), 1);
		if (uet_test_rand_bits(2) == 0) {
			now += uet_test_rand_bits(6);
			uet_link_mem_fabric_set_time(e.fab, now);
		}
		d = (unsigned int)uet_test_rand_bits(16) % 3;
		n = l[d]->ops->recv(l[d], rx,
				    (unsigned int)uet_test_rand_bits(4));
		ck_assert_int_ge(n, 0);
		got += (uint64_t)n;
		stats(e.fab, &st);
	}
	now += 1000000;
	uet_link_mem_fabric_set_time(e.fab, now);
	for (i = 0; i < 3; i++)
		while ((n = l[i]->ops->recv(l[i], rx, 16)) > 0)
			got += (uint64_t)n;
	stats(e.fab, &st);
	ck_assert_uint_eq(st.queued, 0);
	ck_assert_uint_eq(st.sent, 5000);
	ck_assert_uint_eq(st.delivered, got);
	ck_assert_uint_gt(st.dropped, 0);
	ck_assert_uint_gt(st.duplicated, 0);
	ck_assert_uint_gt(st.reordered, 0);
	ck_assert_uint_gt(st.corrupted, 0);
	ck_assert_uint_eq(uet_link_mem_fabric_next_delivery(e.fab),
			  UINT64_MAX);
	env_close(&e);
}
END_TEST

/* Two threads, one link each, through one fabric: everything arrives,
 * in order (run under -fsanitize=thread to check the locking). */
#define NTHREAD_PKTS	20000u

static void *sender_thread(void *arg)
{
	struct env *e = arg;
	unsigned int spins = 0;
	uint32_t id = 0;
	int ret;

	while (id < NTHREAD_PKTS && spins < 100000000u) {
		ret = send_id(e->a, &e->ab, id, 16 + id % 2000, 1 + id % 8);
		if (ret == 1)
			id++;
		else
			spins++;
	}
	return (void *)(uintptr_t)id;
}

START_TEST(test_threads)
{
	struct uet_link_mem_stats st;
	struct uet_link_rx rx[64];
	unsigned int spins = 0;
	uint32_t next = 0;
	pthread_t t;
	void *sent;
	struct env e;
	int i, n;

	env_open(&e, SEED, 4096);
	ck_assert_int_eq(pthread_create(&t, NULL, sender_thread, &e), 0);
	while (next < NTHREAD_PKTS && spins < 100000000u) {
		n = e.b->ops->recv(e.b, rx, 64);
		ck_assert_int_ge(n, 0);
		if (!n)
			spins++;
		for (i = 0; i < n; i++, next++)
			check_bytes(&rx[i], next, 16 + next % 2000);
	}
	ck_assert_int_eq(pthread_join(t, &sent), 0);
	ck_assert_uint_eq((uintptr_t)sent, NTHREAD_PKTS);
	ck_assert_uint_eq(next, NTHREAD_PKTS);
	stats(e.fab, &st);
	ck_assert_uint_eq(st.delivered, NTHREAD_PKTS);
	env_close(&e);
}
END_TEST
/* Fabric-address keys (uet_link_addr_key, the one layout of every map in
 * the software NIC): every field counts, IPv4 and IPv6, padding does not;
 * anything but a whole IPv4/IPv6 address is refused. */
START_TEST(test_addr_key)
{
	uint8_t k1[UET_LINK_ADDR_KEY_LEN], k2[UET_LINK_ADDR_KEY_LEN];
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	struct uet_link_addr a, b;

	memset(&s6, 0, sizeof(s6));
	s6.sin6_family = AF_INET6;
	s6.sin6_port = htons(4793);
	s6.sin6_addr.s6_addr[15] = 1;
	memset(&a, 0, sizeof(a));
	memcpy(&a.ss, &s6, sizeof(s6));
	a.len = sizeof(s6);
	b = a;
	ck_assert_int_eq(uet_link_addr_key(&a, k1), 0);
	ck_assert_int_eq(uet_link_addr_key(&b, k2), 0);
	ck_assert(!memcmp(k1, k2, sizeof(k1)));
	ck_assert_uint_eq(uet_get_be16(k1), AF_INET6);
	ck_assert_uint_eq(uet_get_be16(k1 + 2), 4793);
	ck_assert_uint_eq(k1[19], 1);
	s6.sin6_scope_id = 2;
	memcpy(&b.ss, &s6, sizeof(s6));
	uet_link_addr_key(&b, k2);
	ck_assert(memcmp(k1, k2, sizeof(k1)));
	ck_assert_uint_eq(uet_get_be32(k2 + 20), 2);
	s6.sin6_scope_id = 0;
	s6.sin6_port = htons(4794);
	memcpy(&b.ss, &s6, sizeof(s6));
	uet_link_addr_key(&b, k2);
	ck_assert(memcmp(k1, k2, sizeof(k1)));
	/* Padding does not count, a short length does. */
	((uint8_t *)&b.ss)[sizeof(s6)] = 0xff;
	b.len = sizeof(s6) - 1;
	ck_assert_int_eq(uet_link_addr_key(&b, k2), -EAFNOSUPPORT);
	ck_assert_uint_eq(uet_get_be16(k2), AF_INET6);
	ck_assert(uet_bytes_are_zero(k2 + 2, sizeof(k2) - 2));

	memset(&s4, 0, sizeof(s4));
	s4.sin_family = AF_INET;
	s4.sin_port = htons(4793);
	s4.sin_addr.s_addr = htonl(0x7f000001);
	memset(&a, 0xee, sizeof(a));	/* padding */
	memcpy(&a.ss, &s4, sizeof(s4));
	a.len = sizeof(s4);
	ck_assert_int_eq(uet_link_addr_key(&a, k1), 0);
	ck_assert_uint_eq(uet_get_be16(k1), AF_INET);
	ck_assert_uint_eq(uet_get_be16(k1 + 2), 4793);
	ck_assert_uint_eq(uet_get_be32(k1 + 4), 0x7f000001);
	ck_assert(uet_bytes_are_zero(k1 + 8, sizeof(k1) - 8));

	memset(&b, 0, sizeof(b));
	b.ss.ss_family = AF_UNIX;
	b.len = 2;
	ck_assert_int_eq(uet_link_addr_key(&b, k2), -EAFNOSUPPORT);
	ck_assert_uint_eq(uet_get_be16(k2), AF_UNIX);
}
END_TEST


static Suite *make_suite(void)
{
	Suite *s = suite_create("link_mem");
	TCase *tc = tcase_create("link_mem");

	tcase_add_test(tc, test_open_close);
	tcase_add_test(tc, test_delivery_timing);
	tcase_add_test(tc, test_order_stable);
	tcase_add_test(tc, test_jitter);
	tcase_add_test(tc, test_drop_rate);
	tcase_add_test(tc, test_dup_rate);
	tcase_add_test(tc, test_reorder_rate);
	tcase_add_test(tc, test_reorder_all);
	tcase_add_test(tc, test_corrupt_rate);
	tcase_add_test(tc, test_index_faults);
	tcase_add_test(tc, test_mtu);
	tcase_add_test(tc, test_unknown_dst);
	tcase_add_test(tc, test_inflight_bound);
	tcase_add_test(tc, test_inflight_bound_small);
	tcase_add_test(tc, test_close_destroy);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_random_model);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_addr_key);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(make_suite)
