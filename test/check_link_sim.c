/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The simulated fabric (snic/uet_link_sim.c): serialisation and
 * propagation times, FIFO backlog, ECN marking at the threshold, tail
 * drop, trimming, ECMP by entropy, the host uplink's back-pressure.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "uet_link_sim.h"
#include "uet_test.h"

#define GBPS		1000000000ull

static struct uet_link_sim_port_cfg port_cfg(uint64_t gbps, uint64_t delay,
					     uint32_t qbytes, uint32_t ecn,
					     bool trim)
{
	struct uet_link_sim_port_cfg c;

	memset(&c, 0, sizeof(c));
	c.rate_bps = gbps * GBPS;
	c.delay_ns = delay;
	c.queue_bytes = qbytes;
	c.ecn_bytes = ecn;
	c.trim = trim;
	return c;
}

static int send_one(struct uet_link *l, uint16_t dport, size_t len,
		    uint16_t entropy, uint8_t fill)
{
	static uint8_t buf[9001];	/* up to one byte above the MTU */
	struct uet_link_addr dst;
	struct uet_link_pkt p;

	memset(buf, fill, len);
	ck_assert_int_eq(uet_link_addr_from_str(&dst, "127.0.0.1", dport), 0);
	memset(&p, 0, sizeof(p));
	p.dst = &dst;
	p.entropy = entropy;
	p.iovcnt = 1;
	p.iov[0].iov_base = buf;
	p.iov[0].iov_len = len;
	return l->ops->send(l, &p, 1);
}

/* h0 - sw - h1, 10 Gbit/s, 1 us each way: 1000 B takes 800 ns per hop. */
START_TEST(test_timing)
{
	struct uet_link_sim_port_cfg c = port_cfg(10, 1000, 0, 0, false);
	struct uet_link_sim *sim;
	struct uet_link *l0, *l1;
	struct uet_link_rx rx[4];
	int sw, h0, h1;

	ck_assert_int_eq(uet_link_sim_create(&sim, 1, 9000), 0);
	sw = uet_link_sim_add_switch(sim);
	h0 = uet_link_sim_add_host(sim, 100, &l0);
	h1 = uet_link_sim_add_host(sim, 101, &l1);
	ck_assert_int_eq(uet_link_sim_add_host(sim, 100, &l1), -EADDRINUSE);
	ck_assert_int_ge(uet_link_sim_connect(sim, h0, sw, &c, &c), 0);
	ck_assert_int_ge(uet_link_sim_connect(sim, h1, sw, &c, &c), 0);
	ck_assert_int_eq(uet_link_sim_connect(sim, h1, sw, &c, &c), -EEXIST);
	uet_link_sim_run(sim, 1000000);
	ck_assert_int_eq(send_one(l0, 101, 1000, 0, 0xab), 1);
	ck_assert_int_eq(send_one(l0, 101, 1000, 0, 0xcd), 1);
	/* first: 800 + 1000 + 800 + 1000 = 3600 ns; second 800 later */
	ck_assert_uint_eq(uet_link_sim_next_event(sim), 1000000 + 1800);
	uet_link_sim_run(sim, 1000000 + 3599);
	ck_assert_int_eq(l1->ops->recv(l1, rx, 4), 0);
	uet_link_sim_run(sim, 1000000 + 3600);
	ck_assert_int_eq(l1->ops->recv(l1, rx, 4), 1);
	ck_assert_uint_eq(rx[0].len, 1000);
	ck_assert_uint_eq(rx[0].buf[0], 0xab);
	ck_assert_uint_eq(rx[0].tos & UET_LINK_ECN_MASK, UET_LINK_ECN_ECT0);
	{
		struct uet_link_addr a;

		ck_assert_int_eq(uet_link_addr_from_str(&a, "127.0.0.1", 100),
				 0);
		ck_assert(uet_link_addr_eq(&rx[0].src, &a));
	}
	uet_link_sim_run(sim, 1000000 + 4400);
	ck_assert_int_eq(l1->ops->recv(l1, rx, 4), 1);
	ck_assert_uint_eq(rx[0].buf[0], 0xcd);
	/* an address with no host: dropped */
	ck_assert_int_eq(send_one(l0, 999, 100, 0, 0), 1);
	uet_link_sim_run(sim, 2000000);
	{
		uint64_t del, drop;

		uet_link_sim_totals(sim, &del, &drop);
		ck_assert_uint_eq(del, 2);
		ck_assert_uint_eq(drop, 1);
	}
	uet_link_sim_destroy(sim);
}
END_TEST

/* Two senders at 10G into one 10G port: the backlog grows by one packet
 * per two sent; CE above the threshold, tail drop or trim above the
 * bound. */
static void incast2(bool trim, uint64_t *marks, uint64_t *drops,
		    uint64_t *trims, unsigned int *ce_rx,
		    unsigned int *trim_rx, unsigned int *full_rx)
{
	struct uet_link_sim_port_cfg up = port_cfg(10, 100, 0, 0, false);
	struct uet_link_sim_port_cfg bott = port_cfg(10, 100, 20000, 5000,
						     trim);
	struct uet_link_sim_port_stats st;
	struct uet_link *l[3];
	struct uet_link_rx rx[64];
	struct uet_link_sim *sim;
	int sw, h[3], pdown, i, n, k;

	ck_assert_int_eq(uet_link_sim_create(&sim, 7, 9000), 0);
	sw = uet_link_sim_add_switch(sim);
	for (i = 0; i < 3; i++)
		h[i] = uet_link_sim_add_host(sim, (uint16_t)(200 + i), &l[i]);
	ck_assert_int_ge(uet_link_sim_connect(sim, h[0], sw, &up, &up), 0);
	ck_assert_int_ge(uet_link_sim_connect(sim, h[1], sw, &up, &up), 0);
	pdown = uet_link_sim_connect(sim, h[2], sw, &up, &bott) ^ 1;
	*ce_rx = *trim_rx = *full_rx = 0;
	for (i = 0; i < 40; i++) {
		ck_assert_int_eq(send_one(l[0], 202, 1000, 0, 1), 1);
		ck_assert_int_eq(send_one(l[1], 202, 1000, 0, 2), 1);
		uet_link_sim_run(sim, uet_link_sim_now(sim) + 800);
	}
	uet_link_sim_run(sim, uet_link_sim_now(sim) + 1000000);
	while ((n = l[2]->ops->recv(l[2], rx, 64)) > 0) {
		for (k = 0; k < n; k++) {
			if ((rx[k].tos & UET_LINK_ECN_MASK) == UET_LINK_ECN_CE)
				(*ce_rx)++;
			if (UET_LINK_TOS_DSCP(rx[k].tos) ==
			    UET_LINK_DSCP_TRIMMED) {
				(*trim_rx)++;
				ck_assert_uint_eq(rx[k].len,
						  UET_LINK_SIM_TRIM_BYTES);
			} else {
				ck_assert_uint_eq(rx[k].len, 1000);
				(*full_rx)++;
			}
		}
	}
	ck_assert_int_eq(uet_link_sim_port_get_stats(sim, pdown, &st), 0);
	ck_assert_uint_le(st.qmax, 20000);
	ck_assert_uint_eq(st.qbytes, 0);
	*marks = st.marks;
	*drops = st.drops;
	*trims = st.trims;
	uet_link_sim_destroy(sim);
}

START_TEST(test_ecn_drop_trim)
{
	uint64_t marks, drops, trims;
	unsigned int ce, tr, full;

	incast2(false, &marks, &drops, &trims, &ce, &tr, &full);
	ck_assert_uint_gt(marks, 10);
	ck_assert_uint_eq(ce, marks);
	ck_assert_uint_gt(drops, 0);
	ck_assert_uint_eq(trims, 0);
	ck_assert_uint_eq(tr, 0);
	ck_assert_uint_eq(full + drops, 80);

	incast2(true, &marks, &drops, &trims, &ce, &tr, &full);
	ck_assert_uint_eq(drops, 0);
	ck_assert_uint_gt(trims, 0);
	ck_assert_uint_eq(tr, trims);
	ck_assert_uint_eq(full + tr, 80);
}
END_TEST

/* Leaf-spine: h0 - leaf0 = 4 spines = leaf1 - h1.  One entropy: one
 * spine; many entropies: all four. */
START_TEST(test_ecmp)
{
	struct uet_link_sim_port_cfg c = port_cfg(100, 500, 0, 0, false);
	struct uet_link_sim_port_stats st;
	struct uet_link_sim *sim;
	struct uet_link *l0, *l1;
	struct uet_link_rx rx[64];
	int leaf0, leaf1, sp[4], up[4], h0, h1, i, used;

	ck_assert_int_eq(uet_link_sim_create(&sim, 3, 9000), 0);
	leaf0 = uet_link_sim_add_switch(sim);
	leaf1 = uet_link_sim_add_switch(sim);
	h0 = uet_link_sim_add_host(sim, 300, &l0);
	h1 = uet_link_sim_add_host(sim, 301, &l1);
	ck_assert_int_ge(uet_link_sim_connect(sim, h0, leaf0, &c, &c), 0);
	ck_assert_int_ge(uet_link_sim_connect(sim, h1, leaf1, &c, &c), 0);
	for (i = 0; i < 4; i++) {
		sp[i] = uet_link_sim_add_switch(sim);
		up[i] = uet_link_sim_connect(sim, leaf0, sp[i], &c, &c);
		ck_assert_int_ge(uet_link_sim_connect(sim, sp[i], leaf1, &c,
						      &c), 0);
	}
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(send_one(l0, 301, 1000, 77, 0), 1);
	uet_link_sim_run(sim, 1000000);
	while (l1->ops->recv(l1, rx, 64) > 0)
		;
	used = 0;
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(uet_link_sim_port_get_stats(sim, up[i], &st),
				 0);
		if (st.tx_pkts) {
			ck_assert_uint_eq(st.tx_pkts, 64);
			used++;
		}
		uet_link_sim_port_reset_stats(sim, up[i]);
	}
	ck_assert_int_eq(used, 1);
	for (i = 0; i < 256; i++)
		ck_assert_int_eq(send_one(l0, 301, 1000, (uint16_t)i, 0), 1);
	uet_link_sim_run(sim, 2000000);
	while (l1->ops->recv(l1, rx, 64) > 0)
		;
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(uet_link_sim_port_get_stats(sim, up[i], &st),
				 0);
		ck_assert_uint_gt(st.tx_pkts, 32);	/* about 64 each */
	}
	uet_link_sim_destroy(sim);
}
END_TEST

/* The host's uplink refuses sends over its bound: back-pressure, no loss. */
START_TEST(test_uplink_backpressure)
{
	struct uet_link_sim_port_cfg nic = port_cfg(1, 100, 4000, 0, false);
	struct uet_link_sim_port_cfg c = port_cfg(1, 100, 0, 0, false);
	struct uet_link_sim_port_stats st;
	struct uet_link_sim *sim;
	struct uet_link *l0, *l1;
	int sw, h0, h1, p, i, ok = 0;

	ck_assert_int_eq(uet_link_sim_create(&sim, 5, 9000), 0);
	sw = uet_link_sim_add_switch(sim);
	h0 = uet_link_sim_add_host(sim, 400, &l0);
	h1 = uet_link_sim_add_host(sim, 401, &l1);
	p = uet_link_sim_connect(sim, h0, sw, &nic, &c);
	ck_assert_int_ge(uet_link_sim_connect(sim, h1, sw, &c, &c), 0);
	for (i = 0; i < 10; i++)
		ok += send_one(l0, 401, 1000, 0, 0);
	ck_assert_int_eq(ok, 4);	/* backlog 0, 1000, 2000, 3000 */
	ck_assert_int_eq(uet_link_sim_port_get_stats(sim, p, &st), 0);
	ck_assert_uint_eq(st.refused, 6);
	ck_assert_uint_eq(st.drops, 0);
	ck_assert_int_eq(send_one(l0, 401, 9001, 0, 0), -EMSGSIZE);
	uet_link_sim_destroy(sim);
}
END_TEST

static Suite *link_sim_suite(void)
{
	Suite *s = suite_create("link_sim");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_timing);
	tcase_add_test(tc, test_ecn_drop_trim);
	tcase_add_test(tc, test_ecmp);
	tcase_add_test(tc, test_uplink_backpressure);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(link_sim_suite)
