/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI command ring: depth checks, empty/full, no overwrite of unconsumed
 * slots, multi-slot commands wrapping at the array end, doorbell
 * semantics, 32-bit index wrap, and a two-thread run of 10^6 commands.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uet_hsi_cmdq.h"
#include "uet_test.h"

#define MAX_SGL 7

/* ------------------------------------------------------------------ */
/* Deterministic commands: everything derives from a sequence number   */
/* ------------------------------------------------------------------ */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Checksum over every field except metadata (which carries it). */
static uint64_t cmd_sum(const struct uet_hsi_cmd_seg *s,
			const struct uet_hsi_sgl_entry *sgl)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	unsigned int k;
	size_t i;

#define ADD(v) (h = mix(h ^ (uint64_t)(v)))
	ADD(s->family);
	ADD(s->variant);
	ADD(s->data_src);
	ADD(s->fence << 3 | s->completion << 2 | s->inject << 1 |
	    s->remote_cq);
	ADD(s->payload_len);
	ADD(s->sgl_count);
	ADD(s->tag);
	ADD(s->dest);
	for (i = 0; i < sizeof(s->inline_data); i++)
		ADD(s->inline_data[i]);
	ADD(s->sgl.is_inline);
	ADD(s->sgl.address);
	ADD(s->sgl.memory_key);
	ADD(s->sgl.length);
	for (k = 0; k < s->sgl_count; k++) {
		ADD(sgl[k].is_inline);
		ADD(sgl[k].address);
		ADD(sgl[k].memory_key);
		ADD(sgl[k].length);
		for (i = 0; i < sizeof(sgl[k].inline_data); i++)
			ADD(sgl[k].inline_data[i]);
	}
#undef ADD
	return h;
}

static void make_sgl(struct uet_hsi_sgl_entry *e, uint64_t seq,
		     unsigned int k)
{
	uint64_t r = mix(seq * 16 + k + 1);

	memset(e, 0, sizeof(*e));
	e->is_inline = (r & 7) == 0;
	if (e->is_inline) {
		e->length = (uint32_t)(r >> 8) % 25;
		memcpy(e->inline_data, &r, sizeof(r));
		memset(e->inline_data + 8, (int)(k + 1), 16);
	} else {
		e->address = mix(r);
		e->memory_key = r ^ seq;
		e->length = (uint32_t)(r >> 16);
	}
}

/* Command number seq, with sgl_count extra SGL entries. */
static void make_cmd(struct uet_hsi_cmd_seg *s, struct uet_hsi_sgl_entry *sgl,
		     uint64_t seq, unsigned int sgl_count)
{
	uint64_t r = mix(seq);
	unsigned int k;

	memset(s, 0, sizeof(*s));
	s->family = (uint8_t)(1 + r % 4);
	s->variant = (uint8_t)((r >> 4) % 3);
	s->fence = r >> 8 & 1;
	s->completion = r >> 9 & 1;
	s->inject = r >> 10 & 1;
	s->remote_cq = r >> 11 & 1;
	s->tag = seq;
	s->dest = mix(r);
	s->sgl_count = (uint8_t)sgl_count;
	if (!sgl_count && (r >> 12 & 1)) {
		s->data_src = UET_HSI_DATA_INLINE;
		s->payload_len = (uint16_t)(r >> 16) % 33;
		memcpy(s->inline_data, &r, 8);
		memcpy(s->inline_data + 8, &s->dest, 8);
		memset(s->inline_data + 16, (int)(seq & 0xff), 16);
	} else {
		s->data_src = UET_HSI_DATA_SGL;
		s->payload_len = (uint16_t)(r >> 16);
		make_sgl(&s->sgl, seq, 15);
	}
	for (k = 0; k < sgl_count; k++)
		make_sgl(&sgl[k], seq, k);
	s->metadata = cmd_sum(s, sgl);
}

static bool sgl_eq(const struct uet_hsi_sgl_entry *a,
		   const struct uet_hsi_sgl_entry *b)
{
	return a->is_inline == b->is_inline && a->address == b->address &&
	       a->memory_key == b->memory_key && a->length == b->length &&
	       !memcmp(a->inline_data, b->inline_data,
		       sizeof(a->inline_data));
}

static bool cmd_eq(const struct uet_hsi_cmd_seg *a,
		   const struct uet_hsi_sgl_entry *asgl,
		   const struct uet_hsi_cmd_seg *b,
		   const struct uet_hsi_sgl_entry *bsgl)
{
	unsigned int k;

	if (a->family != b->family || a->variant != b->variant ||
	    a->data_src != b->data_src || a->fence != b->fence ||
	    a->completion != b->completion || a->inject != b->inject ||
	    a->remote_cq != b->remote_cq ||
	    a->payload_len != b->payload_len ||
	    a->sgl_count != b->sgl_count || a->tag != b->tag ||
	    a->dest != b->dest || a->metadata != b->metadata ||
	    memcmp(a->inline_data, b->inline_data, sizeof(a->inline_data)) ||
	    !sgl_eq(&a->sgl, &b->sgl))
		return false;
	for (k = 0; k < a->sgl_count; k++)
		if (!sgl_eq(&asgl[k], &bsgl[k]))
			return false;
	return true;
}

static void post_seq(struct uet_hsi_cmdq *q, uint64_t seq, unsigned int n)
{
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];

	make_cmd(&s, sgl, seq, n);
	ck_assert_int_eq(uet_hsi_cmdq_post(q, &s, sgl, n), 0);
}

static void take_seq(struct uet_hsi_cmdq *q, uint64_t seq, unsigned int n)
{
	struct uet_hsi_cmd_seg s, want;
	struct uet_hsi_sgl_entry sgl[MAX_SGL] = { { 0 } };
	struct uet_hsi_sgl_entry wsgl[MAX_SGL] = { { 0 } };

	make_cmd(&want, wsgl, seq, n);
	ck_assert_int_eq(uet_hsi_cmdq_take(q, &s, sgl, MAX_SGL), 0);
	ck_assert_uint_eq(s.tag, seq);
	ck_assert_uint_eq(s.sgl_count, n);
	ck_assert_uint_eq(s.metadata, cmd_sum(&s, sgl));
	ck_assert(cmd_eq(&s, sgl, &want, wsgl));
}

/* ------------------------------------------------------------------ */

START_TEST(test_depth)
{
	static const uint32_t bad[] = {
		0, 3, 5, 6, 7, 12, 100, 1000, (1u << 24) + 1, 1u << 25,
		0xffffffffu,
	};
	struct uet_hsi_cmdq q;
	unsigned int i;
	uint32_t d;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(uet_hsi_cmdq_init(&q, bad[i]), -EINVAL);
	for (d = 1; d <= 4096; d <<= 1) {
		ck_assert_int_eq(uet_hsi_cmdq_init(&q, d), 0);
		ck_assert_uint_eq(q.depth, d);
		ck_assert_uint_eq(q.mask, d - 1);
		ck_assert_uint_eq((uintptr_t)q.ring % 64, 0);
		ck_assert_uint_eq(uet_hsi_cmdq_free_slots(&q), d);
		uet_hsi_cmdq_fini(&q);
	}
}
END_TEST

START_TEST(test_empty_full)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmdq_cmd cmd;
	struct uet_hsi_cmdq_stats st;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	uint8_t snap[8 * 64];
	unsigned int i;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 8), 0);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL), -EAGAIN);

	for (i = 0; i < 8; i++) {
		ck_assert_uint_eq(uet_hsi_cmdq_free_slots(&q), 8 - i);
		post_seq(&q, i, 0);
	}
	ck_assert_uint_eq(uet_hsi_cmdq_free_slots(&q), 0);
	memcpy(snap, q.ring, sizeof(snap));
	make_cmd(&s, sgl, 100, 0);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 0), -EAGAIN);
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell(&q), 8);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 0), -EAGAIN);
	ck_assert(!memcmp(snap, q.ring, sizeof(snap)));

	/* one slot freed: a 2-slot command still does not fit */
	take_seq(&q, 0, 0);
	make_cmd(&s, sgl, 101, 1);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 1), -EAGAIN);
	ck_assert(!memcmp(snap, q.ring, sizeof(snap)));
	post_seq(&q, 8, 0);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 1), -EAGAIN);
	uet_hsi_cmdq_doorbell(&q);
	for (i = 1; i <= 8; i++)
		take_seq(&q, i, 0);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL), -EAGAIN);

	uet_hsi_cmdq_get_stats(&q, &st);
	ck_assert_uint_eq(st.commands, 9);
	ck_assert_uint_eq(st.consumed, 9);
	ck_assert_uint_eq(st.doorbells, 2);
	ck_assert_uint_eq(st.full, 4);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* Published but not consumed (even when looked at) is never overwritten. */
START_TEST(test_no_overwrite)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmdq_cmd cmd;
	uint8_t snap[16 * 64];
	uint32_t idx;
	unsigned int n, i;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 16), 0);
	post_seq(&q, 0, 7);		/* 5 slots */
	post_seq(&q, 1, 7);		/* 5 slots */
	post_seq(&q, 2, 4);		/* 3 slots */
	post_seq(&q, 3, 3);		/* 3 slots: ring full */
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), 0);
	ck_assert_uint_eq(cmd.nslots, 5);
	memcpy(snap, q.ring, sizeof(snap));
	for (n = 0; n <= MAX_SGL; n++) {
		struct uet_hsi_cmd_seg s;
		struct uet_hsi_sgl_entry sgl[MAX_SGL];

		make_cmd(&s, sgl, 50 + n, n);
		ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, n), -EAGAIN);
		ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, n, &idx), -EAGAIN);
	}
	ck_assert(!memcmp(snap, q.ring, sizeof(snap)));
	/* consuming the first command frees exactly its 5 slots */
	uet_hsi_cmdq_consume(&q, &cmd);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 9, &idx), -EAGAIN);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 8, &idx), 0);
	ck_assert_uint_eq(idx, 16);
	/* the other three commands are intact */
	for (i = 0; i < 11 * 64; i++)
		ck_assert_int_eq(q.ring[5 * 64 + i], snap[5 * 64 + i]);
	take_seq(&q, 1, 7);
	take_seq(&q, 2, 4);
	take_seq(&q, 3, 3);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/*
 * Depth 8, producer index 6, 5 extra SGL entries (4 slots):
 *   segment at slot 6; entries 0, 1 at slot 7 (+0, +32); entries 2, 3 at
 *   slot 0 (+0, +32); entry 4 at slot 1 (+0); padding at slot 1 + 32.
 */
START_TEST(test_wrap_layout)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmd_seg s, got;
	struct uet_hsi_sgl_entry sgl[MAX_SGL], e;
	static const size_t where[5] = {
		7 * 64, 7 * 64 + 32, 0, 32, 64,
	};
	unsigned int k;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 8), 0);
	post_seq(&q, 0, 7);		/* slots 0-4 */
	post_seq(&q, 1, 0);		/* slot 5 */
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 0, 7);
	take_seq(&q, 1, 0);
	memset(q.ring + 64 + 32, 0xff, 32);	/* dirty the padding half */

	make_cmd(&s, sgl, 2, 5);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 5), 0);
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&got, q.ring + 6 * 64, 64),
			 64);
	ck_assert_uint_eq(got.tag, 2);
	ck_assert_uint_eq(got.sgl_count, 5);
	for (k = 0; k < 5; k++) {
		ck_assert_ptr_eq(uet_hsi_cmdq_sgl(&q, 6, k), q.ring + where[k]);
		ck_assert_int_eq(uet_hsi_sgl_entry_decode(&e, q.ring + where[k],
							  32), 32);
		ck_assert(sgl_eq(&e, &sgl[k]));
	}
	ck_assert(uet_bytes_are_zero(q.ring + 64 + 32, 32));
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 2, 5);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* Commands of 0..7 extra entries through small rings, wrapping at every
 * offset of the array. */
START_TEST(test_multi_slot_wrap)
{
	static const uint32_t depths[] = { 8, 16, 32 };
	unsigned int d, wraps = 0;
	uint64_t seq;

	for (d = 0; d < 3; d++) {
		struct uet_hsi_cmdq q;
		struct uet_hsi_cmdq_cmd cmd;
		uint64_t taken = 0;

		ck_assert_int_eq(uet_hsi_cmdq_init(&q, depths[d]), 0);
		for (seq = 0; seq < 2000; seq++) {
			unsigned int n = (unsigned int)(seq * 5 % 8);
			uint32_t pi = q.prod.pi;

			if (depths[d] - (q.prod.pi - atomic_load(&q.ci)) <
			    uet_hsi_cmd_nslots(n)) {
				/* drain everything published so far */
				uet_hsi_cmdq_doorbell(&q);
				for (; taken < seq; taken++)
					take_seq(&q, taken,
						 (unsigned int)(taken * 5 % 8));
			}
			post_seq(&q, seq, n);
			if ((pi & q.mask) + uet_hsi_cmd_nslots(n) > depths[d])
				wraps++;
			if (seq % 3 == 0) {
				uet_hsi_cmdq_doorbell(&q);
				take_seq(&q, taken,
					 (unsigned int)(taken * 5 % 8));
				taken++;
			}
		}
		uet_hsi_cmdq_doorbell(&q);
		for (; taken < seq; taken++)
			take_seq(&q, taken, (unsigned int)(taken * 5 % 8));
		ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
		uet_hsi_cmdq_fini(&q);
	}
	ck_assert_uint_gt(wraps, 100);
}
END_TEST

START_TEST(test_doorbell)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmdq_cmd cmd;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 16), 0);
	post_seq(&q, 0, 2);			/* 2 slots */
	post_seq(&q, 1, 0);			/* 1 slot */
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell_read(&q), 0);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell(&q), 3);
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell_read(&q), 3);
	post_seq(&q, 2, 1);			/* not yet rung */
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), 0);
	ck_assert_uint_eq(cmd.idx, 0);
	ck_assert_uint_eq(cmd.nslots, 2);
	ck_assert_uint_eq(cmd.sgl_count, 2);
	ck_assert_ptr_eq(cmd.seg, q.ring);
	/* next() does not consume */
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), 0);
	ck_assert_uint_eq(cmd.idx, 0);
	uet_hsi_cmdq_consume(&q, &cmd);
	take_seq(&q, 1, 0);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell(&q), 5);
	take_seq(&q, 2, 1);
	/* a doorbell with nothing new is harmless */
	ck_assert_uint_eq(uet_hsi_cmdq_doorbell(&q), 5);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* reserve() + encode in place: the zero-copy producer path. */
START_TEST(test_reserve)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	struct uet_hsi_cmdq_stats st;
	uint32_t idx;
	unsigned int k;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 4), 0);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 256, &idx), -EINVAL);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 7, &idx), -EINVAL);
	memset(q.ring, 0xff, 4 * 64);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 5, &idx), 0);	/* 4 slots */
	ck_assert_uint_eq(idx, 0);
	/* padding half of the last slot zeroed by reserve() */
	ck_assert(uet_bytes_are_zero(q.ring + 3 * 64 + 32, 32));
	make_cmd(&s, sgl, 9, 5);
	ck_assert_int_eq(uet_hsi_cmd_seg_encode(uet_hsi_cmdq_slot(&q, idx), 64,
						&s), 64);
	for (k = 0; k < 5; k++) {
		uint8_t *p = uet_hsi_cmdq_sgl(&q, idx, k);

		ck_assert_int_eq(uet_hsi_sgl_entry_encode(p, 32, &sgl[k]), 32);
	}
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 0, &idx), -EAGAIN);
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 9, 5);
	uet_hsi_cmdq_get_stats(&q, &st);
	ck_assert_uint_eq(st.commands, 1);
	ck_assert_uint_eq(st.full, 1);

	/* depth 1: single-slot commands only */
	uet_hsi_cmdq_fini(&q);
	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 1), 0);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 1, &idx), -EINVAL);
	post_seq(&q, 0, 0);
	make_cmd(&s, sgl, 1, 0);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 0), -EAGAIN);
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 0, 0);
	post_seq(&q, 1, 0);
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 1, 0);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* post() failures leave the producer index where it was. */
START_TEST(test_post_errors)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 8), 0);
	make_cmd(&s, sgl, 0, 3);
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 2), -EINVAL);
	s.family = 0;
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 3), UET_WIRE_ERANGE);
	ck_assert_uint_eq(q.prod.pi, 0);
	make_cmd(&s, sgl, 0, 3);
	sgl[2].is_inline = true;
	sgl[2].length = 25;
	ck_assert_int_eq(uet_hsi_cmdq_post(&q, &s, sgl, 3), UET_WIRE_ERANGE);
	ck_assert_uint_eq(q.prod.pi, 0);
	ck_assert_uint_eq(uet_hsi_cmdq_free_slots(&q), 8);
	post_seq(&q, 0, 3);
	ck_assert_uint_eq(q.prod.pi, 3);
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 0, 3);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* after(): the look ahead over published commands, nothing consumed;
 * wraps, stops at the doorbell and at a command cut by it. */
START_TEST(test_after)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmdq_cmd a, b, c;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	uint32_t idx;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 8), 0);
	post_seq(&q, 0, 0);			/* 1 slot */
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 0, 0);
	post_seq(&q, 1, 0);
	uet_hsi_cmdq_doorbell(&q);
	take_seq(&q, 1, 0);			/* ci 2 */
	post_seq(&q, 2, 1);			/* 2 slots */
	post_seq(&q, 3, 3);			/* 3 slots */
	post_seq(&q, 4, 0);			/* slot 7 */
	uet_hsi_cmdq_doorbell(&q);
	post_seq(&q, 5, 0);			/* slot 8 (0): not rung */
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &a), 0);
	ck_assert_uint_eq(a.idx, 2);
	ck_assert_int_eq(uet_hsi_cmdq_after(&q, &a, &b), 0);
	ck_assert_uint_eq(b.idx, 4);
	ck_assert_uint_eq(b.nslots, 3);
	ck_assert_uint_eq(b.sgl_count, 3);
	ck_assert_ptr_eq(b.seg, uet_hsi_cmdq_slot(&q, 4));
	ck_assert_int_eq(uet_hsi_cmdq_after(&q, &b, &c), 0);
	ck_assert_uint_eq(c.idx, 7);
	ck_assert_int_eq(uet_hsi_cmdq_after(&q, &c, &c), -EAGAIN);
	/* nothing consumed: next() and take() see them all in order */
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &c), 0);
	ck_assert_uint_eq(c.idx, 2);
	take_seq(&q, 2, 1);
	take_seq(&q, 3, 3);
	take_seq(&q, 4, 0);
	uet_hsi_cmdq_doorbell(&q);		/* over the wrap */
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &a), 0);
	ck_assert_uint_eq(a.idx, 8);
	ck_assert_int_eq(uet_hsi_cmdq_after(&q, &a, &b), -EAGAIN);
	take_seq(&q, 5, 0);

	/* a segment whose entries run past the doorbell */
	post_seq(&q, 6, 0);
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 0, &idx), 0);
	make_cmd(&s, sgl, 7, 4);
	ck_assert_int_eq(uet_hsi_cmd_seg_encode(uet_hsi_cmdq_slot(&q, idx), 64,
						&s), 64);
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &a), 0);
	ck_assert_int_eq(uet_hsi_cmdq_after(&q, &a, &b), -EPROTO);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* Consumer side of malformed commands. */
START_TEST(test_consumer_errors)
{
	struct uet_hsi_cmdq q;
	struct uet_hsi_cmdq_cmd cmd;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	uint32_t idx;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 8), 0);

	/* segment claims 4 extra entries but only its slot was published */
	ck_assert_int_eq(uet_hsi_cmdq_reserve(&q, 0, &idx), 0);
	make_cmd(&s, sgl, 0, 4);
	ck_assert_int_eq(uet_hsi_cmd_seg_encode(uet_hsi_cmdq_slot(&q, idx), 64,
						&s), 64);
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EPROTO);
	ck_assert_uint_eq(cmd.nslots, 1);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL), -EPROTO);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);

	/* too few SGL slots offered: left in place */
	post_seq(&q, 1, 5);
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, 4), -ENOBUFS);
	take_seq(&q, 1, 5);

	/* non-zero padding after an odd count: ERESERVED, consumed */
	post_seq(&q, 2, 1);
	q.ring[((q.prod.pi - 1) & q.mask) * 64 + 32 + 5] = 1;
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL),
			 UET_WIRE_ERESERVED);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);

	/* undecodable segment (family 0): ERANGE, consumed */
	post_seq(&q, 3, 2);
	q.ring[((q.prod.pi - 2) & q.mask) * 64] &= 0x0f;
	post_seq(&q, 4, 0);
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL),
			 UET_WIRE_ERANGE);
	take_seq(&q, 4, 0);

	/* bad extra SGL entry: reserved QW2 set in indirect mode */
	post_seq(&q, 5, 1);
	make_cmd(&s, sgl, 5, 1);
	if (sgl[0].is_inline)
		q.ring[((q.prod.pi - 1) & q.mask) * 64 + 29] = 1;
	else
		q.ring[((q.prod.pi - 1) & q.mask) * 64 + 16] = 1;
	uet_hsi_cmdq_doorbell(&q);
	ck_assert_int_eq(uet_hsi_cmdq_take(&q, &s, sgl, MAX_SGL),
			 UET_WIRE_ERESERVED);
	ck_assert_int_eq(uet_hsi_cmdq_next(&q, &cmd), -EAGAIN);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* Free-running 32-bit indices crossing 2^32. */
START_TEST(test_index_wrap)
{
	struct uet_hsi_cmdq q;
	const uint32_t start = 0xffffffffu - 40;
	uint64_t seq;

	ck_assert_int_eq(uet_hsi_cmdq_init(&q, 16), 0);
	q.prod.pi = q.prod.ci_cache = q.cons.ci = q.cons.db_cache = start;
	atomic_store(&q.db, start);
	atomic_store(&q.ci, start);
	for (seq = 0; seq < 200; seq++) {
		unsigned int n = (unsigned int)(seq % 8);

		post_seq(&q, seq, n);
		ck_assert_uint_eq(16 - (q.prod.pi - atomic_load(&q.ci)),
				  16 - uet_hsi_cmd_nslots(n));
		uet_hsi_cmdq_doorbell(&q);
		take_seq(&q, seq, n);
	}
	ck_assert_uint_lt(q.prod.pi, start);	/* wrapped */
	ck_assert_uint_eq(q.prod.pi, q.cons.ci);
	uet_hsi_cmdq_fini(&q);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Two threads                                                         */
/* ------------------------------------------------------------------ */

#define MT_COMMANDS	1000000ull
#define MT_DEADLINE_S	100

struct mt {
	struct uet_hsi_cmdq q;
	struct timespec deadline;
	_Atomic int stop;		/* set by whichever side fails */
	char perr[160];
	char cerr[160];
	uint64_t received;
};

static bool past(const struct timespec *d)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > d->tv_sec ||
	       (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static void *mt_producer(void *arg)
{
	struct mt *m = arg;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	uint64_t seq;
	int ret;

	for (seq = 0; seq < MT_COMMANDS; seq++) {
		unsigned int n = (unsigned int)(mix(seq) % (MAX_SGL + 1));

		make_cmd(&s, sgl, seq, n);
		for (;;) {
			ret = uet_hsi_cmdq_post(&m->q, &s, sgl, n);
			if (ret != -EAGAIN)
				break;
			uet_hsi_cmdq_doorbell(&m->q);
			if (atomic_load(&m->stop) || past(&m->deadline)) {
				snprintf(m->perr, sizeof(m->perr),
					 "producer gave up at %llu",
					 (unsigned long long)seq);
				atomic_store(&m->stop, 1);
				return NULL;
			}
			sched_yield();
		}
		if (ret) {
			snprintf(m->perr, sizeof(m->perr),
				 "post %llu: %d", (unsigned long long)seq, ret);
			atomic_store(&m->stop, 1);
			return NULL;
		}
		if (seq % 4 == 3)
			uet_hsi_cmdq_doorbell(&m->q);
	}
	uet_hsi_cmdq_doorbell(&m->q);
	return NULL;
}

static void *mt_consumer(void *arg)
{
	struct mt *m = arg;
	struct uet_hsi_cmd_seg s, want;
	struct uet_hsi_sgl_entry sgl[MAX_SGL] = { { 0 } };
	struct uet_hsi_sgl_entry wsgl[MAX_SGL] = { { 0 } };
	uint64_t seq = 0;
	int ret;

	while (seq < MT_COMMANDS) {
		ret = uet_hsi_cmdq_take(&m->q, &s, sgl, MAX_SGL);
		if (ret == -EAGAIN) {
			if (atomic_load(&m->stop) || past(&m->deadline)) {
				snprintf(m->cerr, sizeof(m->cerr),
					 "consumer gave up at %llu",
					 (unsigned long long)seq);
				atomic_store(&m->stop, 1);
				break;
			}
			sched_yield();
			continue;
		}
		make_cmd(&want, wsgl, seq,
			 (unsigned int)(mix(seq) % (MAX_SGL + 1)));
		if (ret || s.tag != seq || s.metadata != cmd_sum(&s, sgl) ||
		    !cmd_eq(&s, sgl, &want, wsgl)) {
			snprintf(m->cerr, sizeof(m->cerr),
				 "command %llu: ret %d tag %llu",
				 (unsigned long long)seq, ret,
				 (unsigned long long)s.tag);
			atomic_store(&m->stop, 1);
			break;
		}
		seq++;
	}
	m->received = seq;
	return NULL;
}

START_TEST(test_two_threads)
{
	struct mt *m = calloc(1, sizeof(*m));
	struct uet_hsi_cmdq_stats st;
	struct uet_hsi_cmd_seg s;
	struct uet_hsi_sgl_entry sgl[MAX_SGL];
	pthread_t p, c;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(uet_hsi_cmdq_init(&m->q, 64), 0);
	clock_gettime(CLOCK_MONOTONIC, &m->deadline);
	m->deadline.tv_sec += MT_DEADLINE_S;
	ck_assert_int_eq(pthread_create(&c, NULL, mt_consumer, m), 0);
	ck_assert_int_eq(pthread_create(&p, NULL, mt_producer, m), 0);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	ck_assert_msg(!m->perr[0], "%s", m->perr);
	ck_assert_msg(!m->cerr[0], "%s", m->cerr);
	ck_assert_uint_eq(m->received, MT_COMMANDS);
	/* nothing extra arrived */
	ck_assert_int_eq(uet_hsi_cmdq_take(&m->q, &s, sgl, MAX_SGL), -EAGAIN);
	uet_hsi_cmdq_get_stats(&m->q, &st);
	ck_assert_uint_eq(st.commands, MT_COMMANDS);
	ck_assert_uint_eq(st.consumed, MT_COMMANDS);
	ck_assert_uint_ge(st.doorbells, MT_COMMANDS / 4);
	uet_hsi_cmdq_fini(&m->q);
	free(m);
}
END_TEST

static Suite *hsi_cmdq_suite(void)
{
	Suite *s = suite_create("hsi_cmdq");
	TCase *tc;

	tc = tcase_create("ring");
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_empty_full);
	tcase_add_test(tc, test_no_overwrite);
	tcase_add_test(tc, test_wrap_layout);
	tcase_add_test(tc, test_multi_slot_wrap);
	tcase_add_test(tc, test_doorbell);
	tcase_add_test(tc, test_reserve);
	tcase_add_test(tc, test_post_errors);
	tcase_add_test(tc, test_consumer_errors);
	tcase_add_test(tc, test_after);
	tcase_add_test(tc, test_index_wrap);
	suite_add_tcase(s, tc);

	tc = tcase_create("threads");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_two_threads);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(hsi_cmdq_suite)
