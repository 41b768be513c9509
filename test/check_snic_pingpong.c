/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ping-pong between two software NICs (test/snic_harness.h): one RUD
 * message each way at a time, NIC A sending the next ping only when the
 * pong came back and its own send completed, NIC B answering each ping as
 * soon as it arrives.  With a single packet in flight nothing may be
 * retransmitted: no SACK/RACK or tail-loss-probe retransmission, no
 * timeout, no duplicate at the receiver, even when the path becomes much
 * slower than the SRTT learnt before.
 *
 *   fake clock   the in-memory fabric, both NICs stepped at the same fake
 *                time; the link delay is changed between phases
 *                (uet_link_mem_fabric_set_faults).
 *   real UDP     two NICs on 127.0.0.1, one thread each spinning on
 *                progress with the real monotonic clock; prints the
 *                latency per round trip and the PDS counters, asserts
 *                only correctness (no timing assertion).
 *
 * Every wait is bounded (fake time and steps, or a real-time deadline).
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "snic_harness.h"
#include "uet_clock.h"
#include "uet_test.h"

#define PP_LEN			64
#define PP_LEN_MAX		5000	/* 3 packets on a 2048-byte MTU */
#define PP_ITERS		300
#define PP_STEPS_MAX		2000000ull
#define PP_UDP_TIMEOUT_NS	(40 * SNH_SEC)

struct pp_side {
	struct snh_nic *nic;
	uint64_t dest;
	size_t len;
	bool held;			/* sends as INJECT: done once held */
	uint8_t sbuf[PP_LEN_MAX];
	uint8_t rbuf[PP_LEN_MAX];
	unsigned int recv_posted, recvd, sent, send_done;
	unsigned int bad;		/* error status or wrong data */
	_Atomic bool done;
};

struct pp {
	struct pp_side side[2];		/* 0: ping (A), 1: pong (B) */
	unsigned int iters;
	int err;			/* first posting error */
};

static void pp_notif(struct snh_nic *nic, const struct snh_notif *n,
		     void *arg)
{
	struct pp_side *s = arg;

	(void)nic;
	switch (n->type) {
	case UET_HSI_NOTIF_RECV:
		if (n->recv.status || n->recv.total_length != s->len)
			s->bad++;
		s->recvd++;
		break;
	case UET_HSI_NOTIF_SEND:
		if (n->send.status)
			s->bad++;
		s->send_done++;
		break;
	default:
		s->bad++;
		break;
	}
}

static int pp_post(struct pp_side *s, bool send)
{
	struct snh_cmd c;

	memset(&c, 0, sizeof(c));
	c.family = UET_HSI_FAMILY_MSG;
	c.variant = send ? (s->held ? UET_HSI_VARIANT_INJECT :
				   UET_HSI_VARIANT_SEND) : UET_HSI_VARIANT_RECV;
	c.inject = send && s->held;
	c.completion = true;
	c.dest = send ? s->dest : 0;
	c.buf = send ? s->sbuf : s->rbuf;
	c.len = s->len;
	c.nseg = 1;
	return snh_post_ring(s->nic, &c);
}

/* Post what side i may post now; true when side i has finished. */
static bool pp_pump_side(struct pp *p, int i)
{
	struct pp_side *s = &p->side[i];
	int ret = 0;

	if (p->err || s->bad)
		return true;
	if (s->recv_posted == s->recvd && s->recv_posted < p->iters) {
		ret = pp_post(s, false);
		s->recv_posted++;
	}
	if (!ret && s->sent < p->iters && s->send_done == s->sent &&
	    (i == 0 ? s->recvd == s->sent : s->sent < s->recvd)) {
		memset(s->sbuf, (int)(s->sent & 0xff), sizeof(s->sbuf));
		ret = pp_post(s, true);
		s->sent++;
	}
	if (ret && !p->err)
		p->err = ret;
	if (s->recvd == p->iters && s->send_done == p->iters)
		atomic_store(&s->done, true);
	return atomic_load(&s->done);
}

static bool pp_world_pump(void *arg)
{
	struct pp *p = arg;
	bool a = pp_pump_side(p, 0), b = pp_pump_side(p, 1);

	return (a && b) || p->err || p->side[0].bad || p->side[1].bad;
}

static void pp_init(struct pp *p, struct snh_nic *a, struct snh_nic *b,
		    unsigned int iters, size_t len)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->iters = iters;
	p->side[0].nic = a;
	p->side[1].nic = b;
	p->side[0].dest = snh_dest(a, b);
	p->side[1].dest = snh_dest(b, a);
	for (i = 0; i < 2; i++) {
		p->side[i].len = len;
		p->side[i].nic->fn = pp_notif;
		p->side[i].nic->arg = &p->side[i];
	}
}

static void pp_stats(const char *what, struct snh_nic *n,
		     struct uet_snic_stats *st)
{
	memset(st, 0, sizeof(*st));
	uet_snic_get_stats(n->dev, st);
	fprintf(stderr,
		"%s: pds tx %llu rx %llu retx %llu (timeout %llu nack %llu "
		"sack %llu) dup_rx %llu ack tx/rx %llu/%llu nack tx/rx "
		"%llu/%llu cp tx/rx %llu/%llu; ses msgs tx/rx %llu/%llu\n",
		what, (unsigned long long)st->pds.tx_pkts,
		(unsigned long long)st->pds.rx_pkts,
		(unsigned long long)st->pds.retx,
		(unsigned long long)st->pds.retx_timeout,
		(unsigned long long)st->pds.retx_nack,
		(unsigned long long)st->pds.retx_sack,
		(unsigned long long)st->pds.dup_rx,
		(unsigned long long)st->pds.ack_tx,
		(unsigned long long)st->pds.ack_rx,
		(unsigned long long)st->pds.nack_tx,
		(unsigned long long)st->pds.nack_rx,
		(unsigned long long)st->pds.cp_tx,
		(unsigned long long)st->pds.cp_rx,
		(unsigned long long)st->ses.msgs_tx,
		(unsigned long long)st->ses.msgs_rx);
}

static void pp_check_done(const struct pp *p)
{
	int i;

	ck_assert_int_eq(p->err, 0);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(p->side[i].bad, 0);
		ck_assert_uint_eq(p->side[i].recvd, p->iters);
		ck_assert_uint_eq(p->side[i].send_done, p->iters);
	}
}

/* ------------------------------------------------------------------ */
/* Fake clock                                                          */
/* ------------------------------------------------------------------ */

/* Run one ping-pong of iters round trips on the world; fake ns per trip. */
static uint64_t pp_world_phase(struct snh_world *w, unsigned int iters,
			       size_t len)
{
	uint64_t t0 = w->now;
	struct pp p;

	pp_init(&p, &w->nic[0], &w->nic[1], iters, len);
	ck_assert(snh_world_run(w, pp_world_pump, &p, 10 * SNH_SEC,
				PP_STEPS_MAX));
	pp_check_done(&p);
	return (w->now - t0) / iters;
}

/*
 * Held sends (INJECT, docs/software-nic.md "Held sends") on a fake-clock
 * ping-pong: after the first, every send is done once held; the target
 * leaves its RC_OK out and delays the ACK, which leaves with a later
 * reply to the same peer (one link call for both) once it is due
 * ("Delayed ACKs": here at ack_coalesce / 2 pings, the round trip being
 * far shorter than ack_delay_ns), so several pings share one cumulative
 * ACK.  Nothing is retransmitted and no ACK waits for its delay timer in
 * steady state.
 */
START_TEST(test_pingpong_held_piggyback)
{
	struct uet_snic_stats st[2];
	struct snh_world_cfg c;
	struct snh_world w;
	unsigned int iters = 200;
	struct pp p;
	int i;

	snh_world_cfg_default(&c);
	ck_assert_int_eq(snh_world_open(&w, &c), 0);
	pp_init(&p, &w.nic[0], &w.nic[1], iters, 64);
	p.side[0].held = p.side[1].held = true;
	ck_assert(snh_world_run(&w, pp_world_pump, &p, 10 * SNH_SEC,
				PP_STEPS_MAX));
	pp_check_done(&p);
	pp_stats("held A", &w.nic[0], &st[0]);
	pp_stats("held B", &w.nic[1], &st[1]);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(st[i].pds.retx, 0);
		ck_assert_uint_ge(st[i].ses.held_tx, iters - 1);
		ck_assert_uint_eq(st[i].ses.held_failed, 0);
		ck_assert_uint_ge(st[i].pds.rsp_deferred, iters - 2);
		/* one ACK per ack_coalesce / 2 (4) requests, on a reply */
		ck_assert_uint_ge(st[i].pds.ack_piggyback, iters / 4 - 2);
		ck_assert_uint_le(st[i].pds.ack_tx, iters / 4 + 2);
		ck_assert_uint_ge(st[i].pds.ack_coalesced, iters / 2);
		ck_assert_uint_le(st[i].pds.ack_timer, 1);
		ck_assert_uint_eq(st[i].pds.dup_rx, 0);
	}
	snh_world_close(&w);
}
END_TEST

/*
 * Three phases on one pair of PDCs: a fast link (2 us one way), then the
 * path slows down to 200 us one way (SRTT learnt on the fast link is far
 * too small: the first round trips outlast 2 SRTT + ack_delay), then
 * 100 us with up to 300 us of jitter.  A lone packet is never probed or
 * retransmitted: it waits for its ACK, whose RTT sample makes SRTT
 * follow the path, and the RTO (>= rto_min, above every round trip here)
 * never fires.
 */
START_TEST(test_pingpong_fake_clock)
{
	struct uet_snic_stats st[2];
	struct uet_link_mem_faults f;
	struct snh_world_cfg c;
	struct snh_world w;
	uint64_t per_rt, rto_min;
	unsigned int total = 0;
	int i;

	snh_world_cfg_default(&c);
	rto_min = c.snic[0].pds.rto_min_ns;
	ck_assert_int_eq(snh_world_open(&w, &c), 0);

	per_rt = pp_world_phase(&w, PP_ITERS, PP_LEN);
	total += PP_ITERS;
	fprintf(stderr, "fake clock, 2 us link: %llu ns per round trip\n",
		(unsigned long long)per_rt);
	/* Fake time is deterministic: a round trip that waited for an RTO
	 * (or anything near one) would show here. */
	ck_assert_uint_lt(per_rt, rto_min / 4);

	f = c.faults;
	f.delay_ns = 200 * SNH_US;
	uet_link_mem_fabric_set_faults(w.fab, &f);
	per_rt = pp_world_phase(&w, 100, PP_LEN);
	total += 100;
	fprintf(stderr, "fake clock, 200 us link: %llu ns per round trip\n",
		(unsigned long long)per_rt);

	f.delay_ns = 100 * SNH_US;
	f.jitter_ns = 300 * SNH_US;
	uet_link_mem_fabric_set_faults(w.fab, &f);
	per_rt = pp_world_phase(&w, 200, PP_LEN);
	total += 200;
	fprintf(stderr, "fake clock, 100-400 us link: %llu ns per round "
		"trip\n", (unsigned long long)per_rt);

	pp_stats("fake clock A", &w.nic[0], &st[0]);
	pp_stats("fake clock B", &w.nic[1], &st[1]);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(st[i].pds.retx, 0);
		ck_assert_uint_eq(st[i].pds.dup_rx, 0);
		ck_assert_uint_eq(st[i].pds.nack_tx, 0);
		ck_assert_uint_eq(st[i].ses.msgs_tx, total);
		ck_assert_uint_eq(st[i].ses.msgs_rx, total);
	}
	snh_world_close(&w);
}
END_TEST

/*
 * The same with 3-packet messages, where the tail loss probe stays armed
 * (more than one packet waits for its ACK): after the path slows down
 * from 2 us to 200 us one way, the first messages may be probed (SRTT is
 * still that of the fast path), but the ACKs of their first copies are
 * RTT samples, SRTT follows, and the probes stop.  (Were such ACKs not
 * sampled, SRTT would stay at its fast-path value and every message
 * would be probed, forever.)
 */
START_TEST(test_pingpong_fake_clock_multi)
{
	struct uet_snic_stats st[2], st0[2];
	struct uet_link_mem_faults f;
	struct snh_world_cfg c;
	struct snh_world w;
	uint64_t per_rt;
	int i;

	snh_world_cfg_default(&c);
	ck_assert_int_eq(snh_world_open(&w, &c), 0);
	per_rt = pp_world_phase(&w, 100, PP_LEN_MAX);
	fprintf(stderr, "fake clock, %u B, 2 us link: %llu ns per round "
		"trip\n", PP_LEN_MAX, (unsigned long long)per_rt);
	f = c.faults;
	f.delay_ns = 200 * SNH_US;
	uet_link_mem_fabric_set_faults(w.fab, &f);
	per_rt = pp_world_phase(&w, 20, PP_LEN_MAX);
	for (i = 0; i < 2; i++)
		pp_stats(i ? "fake clock B (adapting)" : "fake clock A "
			 "(adapting)", &w.nic[i], &st0[i]);
	per_rt = pp_world_phase(&w, 200, PP_LEN_MAX);
	fprintf(stderr, "fake clock, %u B, 200 us link: %llu ns per round "
		"trip\n", PP_LEN_MAX, (unsigned long long)per_rt);
	pp_stats("fake clock A", &w.nic[0], &st[0]);
	pp_stats("fake clock B", &w.nic[1], &st[1]);
	for (i = 0; i < 2; i++) {
		/* Once SRTT has adapted: nothing sent twice. */
		ck_assert_uint_eq(st[i].pds.retx, st0[i].pds.retx);
		ck_assert_uint_eq(st[i].pds.dup_rx, st0[i].pds.dup_rx);
		ck_assert_uint_eq(st[i].ses.msgs_rx, 320);
	}
	snh_world_close(&w);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Real UDP, real clock                                                */
/* ------------------------------------------------------------------ */

struct pp_drv {
	struct pp *p;
	int i;
	uint64_t deadline;
	bool timed_out;
};

static bool pp_all_done(const struct pp *p)
{
	return atomic_load(&p->side[0].done) && atomic_load(&p->side[1].done);
}

static void *pp_drive(void *arg)
{
	struct pp_drv *d = arg;
	struct pp_side *s = &d->p->side[d->i];
	unsigned int act;

	while (!pp_all_done(d->p)) {
		if (uet_clock_now_ns() > d->deadline) {
			d->timed_out = true;
			break;
		}
		pp_pump_side(d->p, d->i);
		if (d->p->err || s->bad || s->nic->err[0] ||
		    s->nic->progress_err)
			break;
		act = snh_nic_progress(s->nic);
		if (!act)
			sched_yield();
	}
	return NULL;
}

static void pp_udp(bool auto_prog)
{
	struct uet_snic_stats st[2];
	struct snh_nic a, b;
	struct pp_drv d[2];
	pthread_t th[2];
	uint64_t t0, el;
	struct pp p;
	int i;

	ck_assert_int_eq(snh_nic_open_udp(&a, "127.0.0.1", SNH_JOB, 0x10,
					  0x20), 0);
	ck_assert_int_eq(snh_nic_open_udp(&b, "127.0.0.1", SNH_JOB, 0x11,
					  0x21), 0);
	ck_assert_int_eq(snh_connect(&a, &b), 0);
	if (auto_prog) {
		ck_assert_int_eq(uet_snic_auto_progress_start(a.dev), 0);
		ck_assert_int_eq(uet_snic_auto_progress_start(b.dev), 0);
	}
	pp_init(&p, &a, &b, PP_ITERS, PP_LEN);
	t0 = uet_clock_now_ns();
	for (i = 0; i < 2; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].p = &p;
		d[i].i = i;
		d[i].deadline = t0 + PP_UDP_TIMEOUT_NS;
		ck_assert_int_eq(pthread_create(&th[i], NULL, pp_drive,
						&d[i]), 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	el = uet_clock_now_ns() - t0;
	if (auto_prog) {
		uet_snic_auto_progress_stop(a.dev);
		uet_snic_auto_progress_stop(b.dev);
	}
	pp_stats("udp A", &a, &st[0]);
	pp_stats("udp B", &b, &st[1]);
	fprintf(stderr, "udp%s: %u round trips, %.1f us per round trip\n",
		auto_prog ? " (and auto-progress)" : "", PP_ITERS,
		(double)el / PP_ITERS / 1e3);
	ck_assert(!d[0].timed_out && !d[1].timed_out);
	ck_assert_str_eq(a.err, "");
	ck_assert_str_eq(b.err, "");
	pp_check_done(&p);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(st[i].ses.msgs_tx, PP_ITERS);
		ck_assert_uint_eq(st[i].ses.msgs_rx, PP_ITERS);
	}
	snh_nic_close(&a);
	snh_nic_close(&b);
}

START_TEST(test_pingpong_udp)
{
	pp_udp(false);
}
END_TEST

/* The NICs' auto-progress threads run too: progress from two threads. */
START_TEST(test_pingpong_udp_auto)
{
	pp_udp(true);
}
END_TEST

static Suite *snic_pingpong_suite(void)
{
	Suite *s = suite_create("snic_pingpong");
	TCase *tc;

	tc = tcase_create("pingpong");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pingpong_fake_clock);
	tcase_add_test(tc, test_pingpong_held_piggyback);
	tcase_add_test(tc, test_pingpong_fake_clock_multi);
	tcase_add_test(tc, test_pingpong_udp);
	tcase_add_test(tc, test_pingpong_udp_auto);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_pingpong_suite)
