/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion management on the simulated fabric (test/cc_scn.c, issue
 * 17): the figures of docs/congestion.md, asserted.  Every run is
 * deterministic (virtual time, fixed seeds).  UET_TEST_VERBOSE=1 prints
 * each run's summary.
 *
 * Links 100 Gbit/s, 1 us each; 4 KiB packets; switch queues 1 MiB with
 * ECN marking at 64 KiB.  Star (incast, outcast): base RTT 4.7 us, BDP
 * 58 KB.  Leaf-spine: 4 spines.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cc_scn.h"
#include "uet_pds.h"
#include "uet_test.h"

#define KIB		1024u
#define BDP_STAR	58450u		/* 12.5 GB/s x 4676 ns */

static void run(struct cc_scn_cfg *c, struct cc_scn_res *r, const char *what)
{
	const char *v = getenv("UET_TEST_VERBOSE");
	unsigned int i;

	ck_assert_int_eq(cc_scn_run(c, r), 0);
	if (v && *v == '1') {
		fprintf(stderr, "%s: complete %d %.3f ms goodput %.1f Gbit/s "
			"Jain %.3f qmax %llu KiB steady %llu KiB nic %llu KiB "
			"burst %llu B drops %llu "
			"trims %llu marks %llu retx %llu (rack %llu rto %llu "
			"nack %llu)\n", what, r->complete,
			(double)r->ns / 1e6, r->goodput_gbps, r->jain,
			(unsigned long long)r->qmax / KIB,
			(unsigned long long)r->qmax_steady / KIB,
			(unsigned long long)r->nic_qmax / KIB,
			(unsigned long long)r->nic_burst,
			(unsigned long long)r->drops,
			(unsigned long long)r->trims,
			(unsigned long long)r->marks,
			(unsigned long long)r->retx,
			(unsigned long long)r->retx_rack,
			(unsigned long long)r->retx_rto,
			(unsigned long long)r->retx_nack);
		if (c->topo == CC_SCN_LEAF_SPINE) {
			for (i = 0; i < c->nspine; i++)
				fprintf(stderr, "  spine %u: %llu %llu %llu\n",
					i, (unsigned long long)
					r->spine_bytes[0][i],
					(unsigned long long)
					r->spine_bytes[1][i],
					(unsigned long long)
					r->spine_bytes[2][i]);
		}
	}
	ck_assert_msg(r->complete, "%s did not complete", what);
}

static void incast_cfg(struct cc_scn_cfg *c, uint8_t cc)
{
	cc_scn_defaults(c);
	c->nsend = 8;
	c->nrecv = 1;
	c->ecn_bytes = 64 * KIB;
	c->cc_send = c->cc_recv = cc;
}

/* 8 -> 1 without congestion control: the windows (256 packets each)
 * overflow the 1 MiB queue. */
START_TEST(test_incast_off)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;

	incast_cfg(&c, 0);
	run(&c, &r, "incast off");
	ck_assert_uint_gt(r.drops, 1000);
	ck_assert_uint_ge(r.qmax, 1000 * KIB);
	ck_assert_uint_gt(r.retx, 1000);
	ck_assert(r.goodput_gbps < 80.0);
}
END_TEST

/* 8 -> 1 with NSCC: no drop; the queue peaks with the first windows (8
 * senders x 1 BDP) and then stays near the marking threshold; >= 90% of
 * the port; fair. */
START_TEST(test_incast_nscc)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;

	incast_cfg(&c, UET_PDS_CC_NSCC);
	run(&c, &r, "incast nscc");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert_uint_eq(r.retx, 0);
	ck_assert_uint_gt(r.marks, 0);
	ck_assert_uint_le(r.qmax, 8 * BDP_STAR);
	ck_assert_uint_le(r.qmax_steady, 3 * BDP_STAR);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert(r.jain >= 0.95);
}
END_TEST

/* 8 -> 1 with receiver credits (RCCC), and both: the receiver shares
 * one BDP among the senders, so the queue stays small. */
START_TEST(test_incast_rccc)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;

	incast_cfg(&c, UET_PDS_CC_RCCC);
	run(&c, &r, "incast rccc");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert_uint_le(r.qmax, 3 * BDP_STAR);
	ck_assert_uint_le(r.qmax_steady, BDP_STAR);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert(r.jain >= 0.95);

	incast_cfg(&c, UET_PDS_CC_NSCC | UET_PDS_CC_RCCC);
	run(&c, &r, "incast both");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert_uint_le(r.qmax, 8 * BDP_STAR);
	ck_assert_uint_le(r.qmax_steady, BDP_STAR);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert(r.jain >= 0.95);
}
END_TEST

/* Mixed: NSCC senders into a receiver that grants RCCC credits; and
 * trimming instead of drops on a small queue: every trim is answered by
 * a TRIMMED NACK and resent at once (no timeout). */
START_TEST(test_incast_mixed_trim)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;

	incast_cfg(&c, UET_PDS_CC_NSCC | UET_PDS_CC_RCCC);
	c.cc_recv = UET_PDS_CC_RCCC;
	run(&c, &r, "incast nscc->rccc");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert(r.jain >= 0.95);

	incast_cfg(&c, UET_PDS_CC_NSCC);
	c.queue_bytes = 128 * KIB;
	c.trim = true;
	run(&c, &r, "incast nscc trim");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert_uint_gt(r.trims, 0);
	ck_assert_uint_eq(r.retx_nack, r.trims);
	ck_assert_uint_eq(r.retx_rto, 0);
	ck_assert(r.goodput_gbps >= 90.0);
}
END_TEST

/* Outcast: one sender to 4 receivers; its own uplink is the bottleneck
 * (its NIC queue pushes back): full rate, fair, no switch queue. */
START_TEST(test_outcast)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;

	cc_scn_defaults(&c);
	c.nsend = 1;
	c.nrecv = 4;
	c.outcast = true;
	c.ecn_bytes = 64 * KIB;
	c.cc_send = c.cc_recv = UET_PDS_CC_NSCC;
	run(&c, &r, "outcast nscc");
	ck_assert_uint_eq(r.drops, 0);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert(r.jain >= 0.95);
	ck_assert_uint_le(r.qmax, 16 * KIB);
}
END_TEST

static void ecmp_cfg(struct cc_scn_cfg *c, uint32_t entropies)
{
	cc_scn_defaults(c);
	c->topo = CC_SCN_LEAF_SPINE;
	c->nsend = 4;
	c->nrecv = 4;
	c->nspine = 4;
	c->ecn_bytes = 64 * KIB;
	c->cc_send = c->cc_recv = UET_PDS_CC_NSCC;
	c->entropies = entropies;
	c->bytes_per_flow = 8u << 20;
}

/* Four flows across 4 spines.  One entropy per flow (this seed puts
 * them on two spines): about half the aggregate.  Sprayed over 16
 * entropies each: >= 85% of the 400 Gbit/s, and the reordering costs no
 * retransmission. */
START_TEST(test_ecmp_collision)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;
	unsigned int i, used = 0;

	ecmp_cfg(&c, 0);
	run(&c, &r, "ecmp one entropy");
	for (i = 0; i < 4; i++)
		used += r.spine_total[i] != 0;
	ck_assert_uint_le(used, 2);
	ck_assert(r.goodput_gbps <= 0.6 * 400);

	ecmp_cfg(&c, 16);
	run(&c, &r, "ecmp sprayed");
	for (i = 0; i < 4; i++)
		ck_assert_uint_gt(r.spine_total[i], 0);
	ck_assert(r.goodput_gbps >= 0.85 * 400);
	ck_assert_uint_eq(r.retx, 0);
	ck_assert_uint_eq(r.drops, 0);
}
END_TEST

/* Spine 0's uplink drops to 25% from 0.3 ms to 1 ms: from 0.2 ms after
 * the change its share of the traffic falls well below a quarter (the
 * entropies on it are marked and replaced); 0.5 ms after it recovers,
 * fresh entropies bring its share back near a quarter. */
START_TEST(test_degraded_path)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;
	uint64_t tot[3] = { 0, 0, 0 };
	unsigned int w, i;
	double share[3];

	ecmp_cfg(&c, 16);
	c.degrade_at_ns = 300000;
	c.recover_at_ns = 1000000;
	c.degrade_rate_bps = c.rate_bps / 4;
	c.bytes_per_flow = 24u << 20;
	run(&c, &r, "degraded");
	for (w = 0; w < 3; w++) {
		for (i = 0; i < 4; i++)
			tot[w] += r.spine_bytes[w][i];
		ck_assert_uint_gt(tot[w], 0);
		share[w] = (double)r.spine_bytes[w][0] / (double)tot[w];
	}
	ck_assert(share[0] >= 0.15);
	ck_assert(share[1] <= 0.15);
	ck_assert(share[2] >= 0.20);
	ck_assert(r.goodput_gbps >= 0.7 * 400);
}
END_TEST

/* Pacing (cfg.cc_pace): one flow 1 -> 1 and the 8 -> 1 incast, NSCC,
 * paced and not.  A burst is the bytes a sender hands its NIC at one
 * instant (uet_link_sim_port_stats.burst_max): without pacing the first
 * window after the PDC's first ACK (cwnd starts at one BDP, 58 KB) goes
 * at once; paced, at most the bucket depth, max(2 MTU, cwnd / 8) <= 15
 * KB with cwnd <= 2 BDP, and one packet that takes the bucket below
 * zero.  (The NIC queue is no measure of it: paced at cwnd / srtt, up
 * to twice the NIC's rate, a window of 2 BDP still keeps one BDP
 * there.) */
START_TEST(test_pacing_burst)
{
	struct cc_scn_cfg c;
	struct cc_scn_res r;
	uint64_t unpaced, paced;

	cc_scn_defaults(&c);
	c.nsend = 1;
	c.nrecv = 1;
	c.ecn_bytes = 64 * KIB;
	c.cc_send = c.cc_recv = UET_PDS_CC_NSCC;
	run(&c, &r, "1 -> 1 nscc");
	unpaced = r.nic_burst;
	ck_assert_uint_ge(unpaced, BDP_STAR * 3 / 4);
	c.pace = true;
	run(&c, &r, "1 -> 1 nscc paced");
	paced = r.nic_burst;
	ck_assert_uint_le(paced, 2 * BDP_STAR / 8 + 2 * 4200);
	ck_assert_uint_le(paced * 2, unpaced);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert_uint_eq(r.drops, 0);

	incast_cfg(&c, UET_PDS_CC_NSCC);
	run(&c, &r, "incast nscc");
	unpaced = r.nic_burst;
	c.pace = true;
	run(&c, &r, "incast nscc paced");
	ck_assert_uint_le(r.nic_burst, 2 * BDP_STAR / 8 + 2 * 4200);
	ck_assert_uint_lt(r.nic_burst, unpaced);
	ck_assert(r.goodput_gbps >= 90.0);
	ck_assert_uint_eq(r.drops, 0);
}
END_TEST

static Suite *cc_sim_suite(void)
{
	Suite *s = suite_create("cc_sim");
	TCase *tc = tcase_create("scenarios");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_incast_off);
	tcase_add_test(tc, test_incast_nscc);
	tcase_add_test(tc, test_incast_rccc);
	tcase_add_test(tc, test_incast_mixed_trim);
	tcase_add_test(tc, test_outcast);
	tcase_add_test(tc, test_ecmp_collision);
	tcase_add_test(tc, test_degraded_path);
	tcase_add_test(tc, test_pacing_burst);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(cc_sim_suite)
