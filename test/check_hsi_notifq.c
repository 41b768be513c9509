/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI notification ring: depth rules, prime-marker cycling over many laps,
 * full/empty, stale entries, batch and zero-copy consumers, and a
 * two-thread run of 10^6 entries.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uet_hsi_notifq.h"
#include "uet_test.h"

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/*
 * Body of entry number seq: bytes 0-7 seq (LE), 8-55 derived from seq,
 * 56-62 the low 7 bytes of a hash of bytes 0-55.  Byte 63 is left 0
 * (the ring writes the marker).
 */
static void make_entry(uint8_t e[64], uint64_t seq)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned int i;

	uet_put_le64(e, seq);
	for (i = 8; i < 56; i += 8)
		uet_put_le64(e + i, mix(seq * 8 + i));
	for (i = 0; i < 56; i++)
		h = (h ^ e[i]) * 0x100000001b3ull;
	for (i = 56; i < 63; i++, h >>= 8)
		e[i] = (uint8_t)h;
	e[63] = 0;
}

/* Body intact and in place: bytes 0..62 equal those of entry seq. */
static bool entry_ok(const uint8_t e[64], uint64_t seq)
{
	uint8_t want[64];

	make_entry(want, seq);
	return !memcmp(e, want, 63);
}

/* The marker of entry n, computed the long way (1, 2, ..., 13, 1, ...). */
static uint8_t marker_by_hand(uint64_t n)
{
	uint8_t m = 1;

	while (n--)
		m = m == 13 ? 1 : m + 1;
	return m;
}

START_TEST(test_depth)
{
	static const uint32_t bad[] = {
		0, 13, 26, 130, 13 * 1000, 13u * 1000000u, (1u << 24) + 1,
	};
	static const uint32_t good[] = { 1, 2, 3, 12, 14, 25, 27, 64, 100 };
	struct uet_hsi_notifq q;
	unsigned int i, j;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(uet_hsi_notifq_init(&q, bad[i]), -EINVAL);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_int_eq(uet_hsi_notifq_init(&q, good[i]), 0);
		ck_assert_uint_eq(q.depth, good[i]);
		ck_assert_uint_eq((uintptr_t)q.ring % 64, 0);
		/* all markers start at 0: nothing is valid */
		for (j = 0; j < good[i]; j++)
			ck_assert_int_eq(q.ring[j * 64 + 63], 0);
		ck_assert_int_eq(uet_hsi_notifq_expected_marker(&q), 1);
		ck_assert_ptr_null(uet_hsi_notifq_peek(&q));
		uet_hsi_notifq_fini(&q);
	}
}
END_TEST

START_TEST(test_marker_for_index)
{
	/* the first 28 entries' markers written out */
	static const uint8_t seq[28] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
		1, 2,
	};
	uint64_t n;

	for (n = 0; n < 28; n++)
		ck_assert_uint_eq(uet_hsi_notifq_marker_for_index(n), seq[n]);
	for (n = 0; n < 500; n++)
		ck_assert_uint_eq(uet_hsi_notifq_marker_for_index(n),
				  marker_by_hand(n));
	ck_assert_uint_eq(uet_hsi_notifq_marker_for_index(13ull * 1000000007),
			  1);
	ck_assert_uint_eq(uet_hsi_notifq_marker_for_index(UINT64_MAX),
			  UINT64_MAX % 13 + 1);
}
END_TEST

/*
 * Over 130 laps, one entry at a time and in whole-ring bursts: the entry
 * written at position n carries marker (n % 13) + 1 (hsi-formats.md 6.1,
 * "Marker cycles 1->2->...->13->1"), counted by hand here, so a slot's
 * marker changes from one lap to the next for every allowed depth.
 */
START_TEST(test_marker_wrap)
{
	static const uint32_t depths[] = { 1, 7, 12, 14, 27 };
	unsigned int d;

	for (d = 0; d < 5; d++) {
		const uint32_t depth = depths[d];
		struct uet_hsi_notifq q;
		uint8_t e[64], out[64];
		uint8_t mw = 1, mr = 1;	/* next marker written / read */
		uint8_t prev;
		uint64_t seq = 0, rseq = 0;
		uint32_t lap, i;

		ck_assert_int_eq(uet_hsi_notifq_init(&q, depth), 0);
		for (lap = 0; lap < 130; lap++) {
			for (i = 0; i < depth; i++) {
				prev = q.ring[i * 64 + 63];
				make_entry(e, seq);
				ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
				ck_assert_int_eq(q.ring[i * 64 + 63], mw);
				/* the previous lap's entry in this slot had
				 * another marker (0 on the first lap) */
				ck_assert_int_ne(prev, mw);
				mw = mw == 13 ? 1 : mw + 1;
				seq++;
				/* odd laps: the consumer lags a whole lap */
				if (lap % 2)
					continue;
				ck_assert_int_eq(
					uet_hsi_notifq_expected_marker(&q), mr);
				ck_assert_int_eq(uet_hsi_notifq_poll(&q, out),
						 1);
				ck_assert(entry_ok(out, rseq));
				ck_assert_int_eq(out[63], mr);
				mr = mr == 13 ? 1 : mr + 1;
				rseq++;
			}
			if (lap % 2) {
				make_entry(e, seq);
				ck_assert_int_eq(uet_hsi_notifq_post(&q, e),
						 -EAGAIN);
				for (i = 0; i < depth; i++) {
					int n = uet_hsi_notifq_poll(&q, out);

					ck_assert_int_eq(n, 1);
					ck_assert(entry_ok(out, rseq));
					ck_assert_int_eq(out[63], mr);
					mr = mr == 13 ? 1 : mr + 1;
					rseq++;
				}
			}
			ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
			ck_assert_int_eq(uet_hsi_notifq_expected_marker(&q),
					 mr);
		}
		ck_assert_uint_eq(rseq, 130ull * depth);
		uet_hsi_notifq_fini(&q);
	}
}
END_TEST

START_TEST(test_full_empty)
{
	struct uet_hsi_notifq q;
	struct uet_hsi_notifq_stats st;
	uint8_t e[64], out[64], snap[5 * 64];
	uint8_t *slot;
	uint64_t seq;

	ck_assert_int_eq(uet_hsi_notifq_init(&q, 5), 0);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
	ck_assert_uint_eq(uet_hsi_notifq_room(&q), 5);
	for (seq = 0; seq < 5; seq++) {
		make_entry(e, seq);
		ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
		ck_assert_uint_eq(uet_hsi_notifq_room(&q), 4 - seq);
	}
	memcpy(snap, q.ring, sizeof(snap));
	make_entry(e, 99);
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), -EAGAIN);
	ck_assert_int_eq(uet_hsi_notifq_reserve(&q, &slot), -EAGAIN);
	/* looking at an entry does not free it */
	ck_assert_ptr_eq(uet_hsi_notifq_peek(&q), q.ring);
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), -EAGAIN);
	ck_assert(!memcmp(snap, q.ring, sizeof(snap)));

	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	ck_assert(entry_ok(out, 0));
	ck_assert_uint_eq(uet_hsi_notifq_room(&q), 1);
	make_entry(e, 5);
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	ck_assert_int_eq(q.ring[63], 6);		/* entry 5 */
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), -EAGAIN);
	/* slots 1-4 (lap 0) untouched */
	ck_assert(!memcmp(snap + 64, q.ring + 64, 4 * 64));
	for (seq = 1; seq <= 5; seq++) {
		ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
		ck_assert(entry_ok(out, seq));
	}
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);

	uet_hsi_notifq_get_stats(&q, &st);
	ck_assert_uint_eq(st.posted, 6);
	ck_assert_uint_eq(st.polled, 6);
	ck_assert_uint_eq(st.full, 4);
	uet_hsi_notifq_fini(&q);
}
END_TEST

/* An entry from the previous lap (or any wrong marker) is not valid. */
START_TEST(test_stale)
{
	struct uet_hsi_notifq q;
	uint8_t e[64], out[64];
	unsigned int m;
	uint64_t seq;

	ck_assert_int_eq(uet_hsi_notifq_init(&q, 4), 0);
	for (seq = 0; seq < 4; seq++) {
		make_entry(e, seq);
		ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
		ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	}
	/* every slot still holds its complete lap-0 entry, markers 1-4 */
	for (seq = 0; seq < 4; seq++) {
		ck_assert_int_eq(q.ring[seq * 64 + 63], seq + 1);
		ck_assert(entry_ok(q.ring + seq * 64, seq));
	}
	ck_assert_int_eq(uet_hsi_notifq_expected_marker(&q), 5);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
	ck_assert_ptr_null(uet_hsi_notifq_peek(&q));

	/* no marker but entry 4's own makes slot 0 valid */
	for (m = 0; m < 256; m++) {
		q.ring[63] = (uint8_t)m;
		if (m == 5)
			continue;
		ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
	}
	q.ring[63] = 1;
	make_entry(e, 4);
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	ck_assert_int_eq(q.ring[63], 5);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	ck_assert(entry_ok(out, 4));
	ck_assert_int_eq(out[63], 5);
	/* slot 1 still has its lap-0 entry (marker 2, 6 expected) */
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
	uet_hsi_notifq_fini(&q);
}
END_TEST

START_TEST(test_batch)
{
	struct uet_hsi_notifq q;
	uint8_t e[64], out[5][64];
	uint64_t seq, rseq = 0;
	unsigned int n, i;

	ck_assert_int_eq(uet_hsi_notifq_init(&q, 12), 0);
	for (seq = 0; seq < 10; seq++) {
		make_entry(e, seq);
		ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	}
	n = uet_hsi_notifq_poll_batch(&q, out, 4);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(atomic_load(&q.ci), 4);
	for (i = 0; i < n; i++, rseq++)
		ck_assert(entry_ok(out[i], rseq));
	ck_assert_uint_eq(uet_hsi_notifq_poll_batch(&q, out, 0), 0);
	n = uet_hsi_notifq_poll_batch(&q, out, 5);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(atomic_load(&q.ci), 9);
	for (i = 0; i < n; i++, rseq++)
		ck_assert(entry_ok(out[i], rseq));
	/* a batch that crosses the end of the ring */
	for (; seq < 14; seq++) {
		make_entry(e, seq);
		ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	}
	n = uet_hsi_notifq_poll_batch(&q, out, 5);
	ck_assert_uint_eq(n, 5);
	for (i = 0; i < n; i++, rseq++) {
		ck_assert(entry_ok(out[i], rseq));
		ck_assert_int_eq(out[i][63], rseq % 13 + 1);
	}
	ck_assert_uint_eq(uet_hsi_notifq_poll_batch(&q, out, 5), 0);
	ck_assert_uint_eq(atomic_load(&q.ci), 14);
	uet_hsi_notifq_fini(&q);
}
END_TEST

START_TEST(test_peek_ack)
{
	struct uet_hsi_notifq q;
	const uint8_t *p;
	uint8_t e[64], out[64];
	uint64_t seq;

	ck_assert_int_eq(uet_hsi_notifq_init(&q, 3), 0);
	ck_assert_int_eq(uet_hsi_notifq_ack(&q), -EINVAL);
	ck_assert_ptr_null(uet_hsi_notifq_peek(&q));
	ck_assert_int_eq(uet_hsi_notifq_ack(&q), -EINVAL);
	for (seq = 0; seq < 3; seq++) {
		make_entry(e, seq);
		ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	}
	for (seq = 0; seq < 3; seq++) {
		p = uet_hsi_notifq_peek(&q);
		ck_assert_ptr_eq(p, q.ring + seq * 64);
		ck_assert(entry_ok(p, seq));
		ck_assert_ptr_eq(uet_hsi_notifq_peek(&q), p);
		ck_assert_uint_eq(atomic_load(&q.ci), seq);
		ck_assert_int_eq(uet_hsi_notifq_ack(&q), 0);
		ck_assert_uint_eq(atomic_load(&q.ci), seq + 1);
		ck_assert_int_eq(uet_hsi_notifq_ack(&q), -EINVAL);
	}
	/* poll after peek clears the peek */
	make_entry(e, 3);
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	ck_assert_ptr_nonnull(uet_hsi_notifq_peek(&q));
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	ck_assert(entry_ok(out, 3));
	ck_assert_int_eq(uet_hsi_notifq_ack(&q), -EINVAL);
	uet_hsi_notifq_fini(&q);
}
END_TEST

/* reserve + encode in place + commit; byte 63 is the last thing written. */
START_TEST(test_reserve_commit)
{
	struct uet_hsi_notifq q;
	struct uet_hsi_recv_notif r, got;
	uint8_t *slot, *slot2, out[64], e[64];
	unsigned int i;

	ck_assert_int_eq(uet_hsi_notifq_init(&q, 2), 0);
	ck_assert_int_eq(uet_hsi_notifq_commit(&q), -EINVAL);
	ck_assert_int_eq(uet_hsi_notifq_reserve(&q, &slot), 0);
	ck_assert_int_eq(uet_hsi_notifq_reserve(&q, &slot2), 0);
	ck_assert_ptr_eq(slot, slot2);

	memset(&r, 0, sizeof(r));
	r.is_inline = true;
	r.status = 0;
	r.src_id = 0x12345678;
	r.tag = 0xabcdef;
	r.total_length = 11;
	for (i = 0; i < sizeof(r.inline_data); i++)
		r.inline_data[i] = (uint8_t)(i * 3);
	ck_assert_int_eq(uet_hsi_recv_notif_encode(slot, 64, &r), 64);
	/* body written, marker not yet: invisible */
	ck_assert_int_eq(slot[63], 0);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 0);
	ck_assert_int_eq(uet_hsi_notifq_commit(&q), 0);
	ck_assert_int_eq(slot[63], 1);
	ck_assert_int_eq(uet_hsi_notifq_commit(&q), -EINVAL);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	ck_assert_int_eq(uet_hsi_notif_peek_type(out, 64), UET_HSI_NOTIF_RECV);
	ck_assert_int_eq(uet_hsi_recv_notif_decode(&got, out, 64), 64);
	ck_assert_uint_eq(got.src_id, 0x12345678);
	ck_assert_uint_eq(got.tag, 0xabcdef);
	ck_assert_uint_eq(got.total_length, 11);
	ck_assert(got.is_inline && !got.continuation);
	ck_assert(!memcmp(got.inline_data, r.inline_data,
			  sizeof(r.inline_data)));
	ck_assert_uint_eq(got.marker, 1);

	/* post() ignores byte 63 of its input */
	make_entry(e, 7);
	e[63] = 0xaa;
	ck_assert_int_eq(uet_hsi_notifq_post(&q, e), 0);
	ck_assert_int_eq(q.ring[64 + 63], 2);
	ck_assert_int_eq(uet_hsi_notifq_poll(&q, out), 1);
	ck_assert(entry_ok(out, 7));
	ck_assert_int_eq(out[63], 2);
	uet_hsi_notifq_fini(&q);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Two threads                                                         */
/* ------------------------------------------------------------------ */

#define MT_ENTRIES	1000000ull
#define MT_DEADLINE_S	100
#define MT_BATCH	8

static const uint32_t mt_depths[] = { 37, 12 };

struct mt {
	struct uet_hsi_notifq q;
	struct timespec deadline;
	_Atomic int stop;
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
	uint8_t e[64], *slot;
	uint64_t seq;
	int ret;

	for (seq = 0; seq < MT_ENTRIES; seq++) {
		make_entry(e, seq);
		for (;;) {
			/* alternate the copying and the in-place paths */
			if (seq & 1) {
				ret = uet_hsi_notifq_post(&m->q, e);
			} else {
				ret = uet_hsi_notifq_reserve(&m->q, &slot);
				if (!ret) {
					memcpy(slot, e, 63);
					ret = uet_hsi_notifq_commit(&m->q);
				}
			}
			if (ret != -EAGAIN)
				break;
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
			snprintf(m->perr, sizeof(m->perr), "post %llu: %d",
				 (unsigned long long)seq, ret);
			atomic_store(&m->stop, 1);
			return NULL;
		}
	}
	return NULL;
}

static void *mt_consumer(void *arg)
{
	struct mt *m = arg;
	uint8_t out[MT_BATCH][64];
	uint64_t seq = 0;
	unsigned int n, i;

	while (seq < MT_ENTRIES) {
		/* alternate single polls and batches */
		if (seq % 3)
			n = (unsigned int)uet_hsi_notifq_poll(&m->q, out[0]);
		else
			n = uet_hsi_notifq_poll_batch(&m->q, out, MT_BATCH);
		if (!n) {
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
		for (i = 0; i < n; i++, seq++) {
			uint8_t want_m =
				uet_hsi_notifq_marker_for_index(seq);

			if (seq >= MT_ENTRIES || !entry_ok(out[i], seq) ||
			    out[i][63] != want_m) {
				snprintf(m->cerr, sizeof(m->cerr),
					 "entry %llu: got seq %llu marker %u",
					 (unsigned long long)seq,
					 (unsigned long long)
					 uet_get_le64(out[i]), out[i][63]);
				atomic_store(&m->stop, 1);
				m->received = seq;
				return NULL;
			}
		}
	}
	m->received = seq;
	return NULL;
}

START_TEST(test_two_threads)
{
	struct mt *m = calloc(1, sizeof(*m));
	struct uet_hsi_notifq_stats st;
	uint8_t out[64];
	pthread_t p, c;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(uet_hsi_notifq_init(&m->q, mt_depths[_i]), 0);
	clock_gettime(CLOCK_MONOTONIC, &m->deadline);
	m->deadline.tv_sec += MT_DEADLINE_S;
	ck_assert_int_eq(pthread_create(&c, NULL, mt_consumer, m), 0);
	ck_assert_int_eq(pthread_create(&p, NULL, mt_producer, m), 0);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	ck_assert_msg(!m->perr[0], "%s", m->perr);
	ck_assert_msg(!m->cerr[0], "%s", m->cerr);
	ck_assert_uint_eq(m->received, MT_ENTRIES);
	ck_assert_int_eq(uet_hsi_notifq_poll(&m->q, out), 0);
	uet_hsi_notifq_get_stats(&m->q, &st);
	ck_assert_uint_eq(st.posted, MT_ENTRIES);
	ck_assert_uint_eq(st.polled, MT_ENTRIES);
	uet_hsi_notifq_fini(&m->q);
	free(m);
}
END_TEST

static Suite *hsi_notifq_suite(void)
{
	Suite *s = suite_create("hsi_notifq");
	TCase *tc;

	tc = tcase_create("ring");
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_marker_for_index);
	tcase_add_test(tc, test_marker_wrap);
	tcase_add_test(tc, test_full_empty);
	tcase_add_test(tc, test_stale);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_peek_ack);
	tcase_add_test(tc, test_reserve_commit);
	suite_add_tcase(s, tc);

	tc = tcase_create("threads");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_two_threads, 0,
			    sizeof(mt_depths) / sizeof(mt_depths[0]));
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(hsi_notifq_suite)
