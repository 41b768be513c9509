/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_snic: the software NIC end to end, as an HSI device.
 *
 * Two NICs ("A" = 0, "B" = 1) on the in-memory fabric with a fake clock
 * (test/snic_harness.h).  Every command goes through the command ring and
 * every result is read from the notification ring, following the
 * conventions of snic/uet_snic.h.  Every wait is bounded by fake time and
 * by a step count.
 *
 * Determinism: the fabric, the NICs' PDS seeds and the message plans use
 * fixed seeds; the mixed-traffic tests also fold in uet_test_seed(), which
 * is printed (UET_TEST_SEED=...) so a failure can be replayed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "snic_harness.h"
#include "uet_byteorder.h"
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define REC_MAX		4096
#define STEPS_MAX	2000000ull
#define TAG_T		0x7a6700000000beefull

/* ------------------------------------------------------------------ */
/* Recorder and helpers                                                */
/* ------------------------------------------------------------------ */

struct rec {
	struct snh_notif *v;
	unsigned int n;			/* recorded */
	unsigned int nrecv, nsend, nevent;
	unsigned int lost;		/* beyond REC_MAX */
};

static struct snh_world W;
static struct rec R[2];

static void rec_fn(struct snh_nic *nic, const struct snh_notif *n, void *arg)
{
	struct rec *r = arg;

	if (r->n < REC_MAX)
		r->v[r->n++] = *n;
	else
		r->lost++;
	switch (n->type) {
	case UET_HSI_NOTIF_RECV:
		r->nrecv++;
		break;
	case UET_HSI_NOTIF_SEND:
		r->nsend++;
		break;
	default:
		r->nevent++;
		break;
	}
}

static void rec_reset(int i)
{
	R[i].n = R[i].nrecv = R[i].nsend = R[i].nevent = R[i].lost = 0;
}

static void world_up(const struct snh_world_cfg *c)
{
	int i, ret;

	ret = snh_world_open(&W, c);
	ck_assert_msg(ret == 0, "snh_world_open: %d", ret);
	for (i = 0; i < 2; i++) {
		R[i].v = calloc(REC_MAX, sizeof(*R[i].v));
		ck_assert_ptr_nonnull(R[i].v);
		rec_reset(i);
		W.nic[i].fn = rec_fn;
		W.nic[i].arg = &R[i];
	}
}

static void world_down(void)
{
	snh_world_close(&W);
	free(R[0].v);
	free(R[1].v);
	R[0].v = R[1].v = NULL;
}

/* A NIC's fabric handle of the other one, and destinations. */
static uint64_t dest_of(int from, int to)
{
	return snh_dest(&W.nic[from], &W.nic[to]);
}

static void post_send(int from, uint64_t dest, bool tagged, uint64_t tag,
		      void *buf, size_t len, uint64_t ctx, bool hd,
		      uint64_t hdv)
{
	struct snh_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	c.variant = UET_HSI_VARIANT_SEND;
	c.completion = true;
	c.tag = tag;
	c.dest = dest;
	c.metadata = ctx;
	c.buf = buf;
	c.len = len;
	c.nseg = 1;
	if (hd) {
		c.remote_cq = true;
		c.ext = true;
		c.extv.header_data = hdv;
		c.extv.ext_flags = UET_HSI_EXT_HAS_DATA;
	}
	ret = snh_post_ring(&W.nic[from], &c);
	ck_assert_msg(ret == 0, "post send on NIC %d: %d", from, ret);
}

static void post_recv_ext(int at, bool tagged, uint64_t tag, void *buf,
			  size_t len, uint64_t meta, bool ext,
			  const struct uet_hsi_cmd_ext *extv, uint64_t dest)
{
	struct snh_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.family = tagged ? UET_HSI_FAMILY_TAGGED : UET_HSI_FAMILY_MSG;
	c.variant = UET_HSI_VARIANT_RECV;
	c.completion = true;
	c.tag = tag;
	c.dest = dest;
	c.metadata = meta;
	c.buf = buf;
	c.len = len;
	c.nseg = 1;
	c.ext = ext;
	if (ext)
		c.extv = *extv;
	ret = snh_post_ring(&W.nic[at], &c);
	ck_assert_msg(ret == 0, "post recv on NIC %d: %d", at, ret);
}

static void post_recv(int at, bool tagged, uint64_t tag, void *buf,
		      size_t len, uint64_t meta)
{
	post_recv_ext(at, tagged, tag, buf, len, meta, false, NULL, 0);
}

struct want {
	unsigned int recv[2], send[2], event[2];
};

static bool want_pump(void *arg)
{
	const struct want *w = arg;
	int i;

	for (i = 0; i < 2; i++)
		if (R[i].nrecv < w->recv[i] || R[i].nsend < w->send[i] ||
		    R[i].nevent < w->event[i])
			return false;
	return true;
}

/* Step until the counts are reached; false on the fake-time bound. */
static bool wait_for(unsigned int ra, unsigned int sa, unsigned int rb,
		     unsigned int sb, uint64_t max_ns)
{
	struct want w;

	memset(&w, 0, sizeof(w));
	w.recv[0] = ra;
	w.send[0] = sa;
	w.recv[1] = rb;
	w.send[1] = sb;
	return snh_world_run(&W, want_pump, &w, max_ns, STEPS_MAX);
}

static const struct snh_notif *rec_find(int i, uint8_t type,
					unsigned int nth)
{
	unsigned int k;

	for (k = 0; k < R[i].n; k++)
		if (R[i].v[k].type == type && nth-- == 0)
			return &R[i].v[k];
	return NULL;
}

static uint32_t recv_slot(const struct snh_notif *n)
{
	return n->recv.buffer_id_0 | (uint32_t)n->recv.buffer_id_1 << 16;
}

static void get_stats(int i, struct uet_snic_stats *st)
{
	memset(st, 0, sizeof(*st));
	uet_snic_get_stats(W.nic[i].dev, st);
}

static void check_decoders(void)
{
	ck_assert_msg(!W.nic[0].err[0] && !W.nic[1].err[0],
		      "notification decoding: A: %s B: %s", W.nic[0].err,
		      W.nic[1].err);
	ck_assert_msg(!W.nic[0].progress_err && !W.nic[1].progress_err,
		      "progress returned errors: A %d B %d",
		      W.nic[0].last_progress_err, W.nic[1].last_progress_err);
}

/* ------------------------------------------------------------------ */
/* Mixed traffic                                                       */
/* ------------------------------------------------------------------ */

static void mixed_run(uint32_t n, uint32_t drop_ppm, uint32_t dup_ppm,
		      uint32_t reorder_ppm, uint64_t salt)
{
	struct snh_traffic_cfg tc;
	struct snh_world_cfg wc;
	struct uet_link_mem_stats fs;
	struct uet_pds_stats pa, pb;
	struct uet_snic_stats sa, sb;
	struct snh_traffic t;
	char desc[600];
	bool ok;
	int i, ret;

	snh_world_cfg_default(&wc);
	wc.seed = uet_test_seed() ^ salt;
	wc.faults.drop_ppm = drop_ppm;
	wc.faults.dup_ppm = dup_ppm;
	wc.faults.reorder_ppm = reorder_ppm;
	wc.faults.delay_ns = 2 * SNH_US;
	/* Jitter reorders too; the perfect network has none. */
	wc.faults.jitter_ns = drop_ppm || dup_ppm || reorder_ppm ?
			      3 * SNH_US : 0;
	for (i = 0; i < 2; i++) {
		/* Generous retries: a 30% loss rate must not fail a PDC. */
		wc.snic[i].pds.max_retries = 40;
		wc.snic[i].pds.seed = (uet_test_seed() ^ salt) + (uint64_t)i;
	}
	world_up(&wc);

	snh_traffic_cfg_default(&tc);
	tc.n = n;
	tc.seed = uet_test_seed() ^ salt;
	tc.max_volume = (uint64_t)n * (6ull << 10);	/* 10,000: ~59 MiB */
	if (tc.max_volume > (60ull << 20))
		tc.max_volume = 60ull << 20;
	tc.rdzv_threshold = wc.snic[0].rdzv_threshold;
	ret = snh_traffic_init(&t, &tc, &W.nic[0], &W.nic[1]);
	ck_assert_int_eq(ret, 0);
	ck_assert_msg(t.volume <= (64ull << 20), "volume %llu",
		      (unsigned long long)t.volume);
	ck_assert_uint_eq(t.max_seen, tc.max_len);
	ck_assert_uint_gt(t.n_multi, 0);
	ck_assert_uint_gt(t.n_across, 0);
	ck_assert_uint_gt(t.n_large, 0);

	ok = snh_world_run(&W, snh_traffic_world_pump, &t, 120 * SNH_SEC,
			   STEPS_MAX);
	snh_traffic_describe(&t, desc, sizeof(desc));
	ck_assert_msg(ok && !atomic_load(&t.failed),
		      "traffic (%u msgs, %llu bytes, drop %u ppm) did not finish after %llu steps / %llu ms fake time: %s",
		      n, (unsigned long long)t.volume, drop_ppm,
		      (unsigned long long)W.steps,
		      (unsigned long long)((W.now - wc.start_ns) / SNH_MS),
		      desc);
	ck_assert(snh_traffic_done(&t));
	for (i = 0; i < (int)t.n; i++) {
		ck_assert_uint_eq(t.msgs[i].nrecv, 1);
		ck_assert_uint_eq(t.msgs[i].send_state, 2);
	}
	ck_assert_uint_eq(t.side[0].bytes_out, t.side[1].bytes_in);
	ck_assert_uint_eq(t.side[1].bytes_out, t.side[0].bytes_in);
	ck_assert_uint_eq(t.side[0].bytes_out + t.side[1].bytes_out,
			  t.volume);
	/* The small messages of the mix also arrived inline. */
	ck_assert_uint_gt(atomic_load(&t.inline_rx), 0);
	check_decoders();

	get_stats(0, &sa);
	get_stats(1, &sb);
	ck_assert_uint_eq(sa.bad_cmds + sb.bad_cmds, 0);
	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	ret = uet_snic_get_pdc_stats(W.nic[0].dev, W.nic[0].peer, &pa);
	i = uet_snic_get_pdc_stats(W.nic[1].dev, W.nic[1].peer, &pb);
	ck_assert_msg(ret == 0 && i == 0,
		      "uet_snic_get_pdc_stats A %d B %d; PDCs opened/closed/failed A %llu/%llu/%llu B %llu/%llu/%llu",
		      ret, i, (unsigned long long)sa.pds.pdc_opened,
		      (unsigned long long)sa.pds.pdc_closed,
		      (unsigned long long)sa.pds.pdc_failed,
		      (unsigned long long)sb.pds.pdc_opened,
		      (unsigned long long)sb.pds.pdc_closed,
		      (unsigned long long)sb.pds.pdc_failed);
	ck_assert_uint_gt(pa.tx_pkts, 0);
	ck_assert_uint_gt(pb.tx_pkts, 0);
	/* The mix has large messages (n_large), not always both ways. */
	ck_assert_uint_gt(sa.ses.rdzv_tx + sb.ses.rdzv_tx, 0);
	ck_assert_uint_eq(sa.ses.rdzv_tx, sb.ses.rdzv_rx);
	ck_assert_uint_eq(sb.ses.rdzv_tx, sa.ses.rdzv_rx);
	if (!drop_ppm && !dup_ppm && !reorder_ppm) {
		/* A perfect network: nothing is ever retransmitted. */
		uet_link_mem_fabric_get_stats(W.fab, &fs);
		ck_assert_msg(pa.retx == 0 && pb.retx == 0,
			      "no faults, yet retransmissions A->B %llu (timeout %llu nack %llu sack %llu) B->A %llu (timeout %llu nack %llu sack %llu); fabric sent %llu delivered %llu dropped %llu; link busy A %llu B %llu; nack_tx A %llu B %llu; SES unexp_refused A %llu B %llu",
			      (unsigned long long)pa.retx,
			      (unsigned long long)pa.retx_timeout,
			      (unsigned long long)pa.retx_nack,
			      (unsigned long long)pa.retx_sack,
			      (unsigned long long)pb.retx,
			      (unsigned long long)pb.retx_timeout,
			      (unsigned long long)pb.retx_nack,
			      (unsigned long long)pb.retx_sack,
			      (unsigned long long)fs.sent,
			      (unsigned long long)fs.delivered,
			      (unsigned long long)fs.dropped,
			      (unsigned long long)sa.pds.link_busy,
			      (unsigned long long)sb.pds.link_busy,
			      (unsigned long long)sa.pds.nack_tx,
			      (unsigned long long)sb.pds.nack_tx,
			      (unsigned long long)sa.ses.unexp_refused,
			      (unsigned long long)sb.ses.unexp_refused);
	}
	if (drop_ppm) {
		ck_assert_msg(pa.retx > 0 && pb.retx > 0,
			      "retransmissions A->B %llu B->A %llu",
			      (unsigned long long)pa.retx,
			      (unsigned long long)pb.retx);
		ck_assert_uint_eq(sa.pds.pdc_failed + sb.pds.pdc_failed, 0);
	}
	fprintf(stderr,
		"mixed n=%u drop=%u dup=%u reorder=%u: %llu bytes (small %u multi %u across %u large %u, tagged %u hd %u), %llu steps, %.3f s fake; retx A %llu (timeout %llu nack %llu sack %llu) B %llu\n",
		n, drop_ppm, dup_ppm, reorder_ppm,
		(unsigned long long)t.volume, t.n_small,
		t.n_multi, t.n_across, t.n_large, t.n_tagged, t.n_hd,
		(unsigned long long)W.steps,
		(double)(W.now - wc.start_ns) / 1e9,
		(unsigned long long)pa.retx,
		(unsigned long long)pa.retx_timeout,
		(unsigned long long)pa.retx_nack,
		(unsigned long long)pa.retx_sack, (unsigned long long)pb.retx);
	snh_traffic_fini(&t);
	world_down();
}

START_TEST(test_mixed_clean)
{
	mixed_run(10000, 0, 10000, 20000, 0x11);
}
END_TEST

START_TEST(test_mixed_perfect)
{
	mixed_run(2000, 0, 0, 0, 0x44);
}
END_TEST

START_TEST(test_mixed_drop5)
{
	mixed_run(10000, 50000, 10000, 20000, 0x22);
}
END_TEST

START_TEST(test_mixed_drop30)
{
	mixed_run(2000, 300000, 10000, 20000, 0x33);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Establishment race, PSN wrap                                        */
/* ------------------------------------------------------------------ */

static void small_plan(struct snh_traffic_cfg *tc, uint32_t n, uint64_t seed)
{
	snh_traffic_cfg_default(tc);
	tc->n = n;
	tc->seed = seed;
	tc->max_len = 16384;
	tc->pm_small = 7000;
	tc->pm_multi = 3000;
	tc->pm_across = 0;
	tc->one_max = false;
	tc->window = 256;
}

START_TEST(test_establish_race)
{
	struct snh_traffic_cfg tc;
	struct snh_world_cfg wc;
	struct uet_snic_stats sa, sb;
	struct snh_traffic t;
	uint64_t t0;
	char desc[600];
	int round;
	bool ok;

	for (round = 0; round < 4; round++) {
		snh_world_cfg_default(&wc);
		wc.seed = 0xe57 + (uint64_t)round;
		wc.snic[0].pds.seed = 0xa0 + (uint64_t)round;
		wc.snic[1].pds.seed = 0xb0 + (uint64_t)round;
		if (round & 1) {
			wc.faults.reorder_ppm = 200000;
			wc.faults.dup_ppm = 50000;
		}
		if (round & 2)
			wc.faults.drop_ppm = 100000;
		world_up(&wc);
		small_plan(&tc, 200, 0x1ace + (uint64_t)round);
		ck_assert_int_eq(snh_traffic_init(&t, &tc, &W.nic[0],
						  &W.nic[1]), 0);
		/* Receives on both, then sends on both, all at one instant,
		 * before either NIC has received anything. */
		t0 = W.now;
		snh_traffic_pump(&t, 0);
		snh_traffic_pump(&t, 1);
		snh_traffic_pump(&t, 0);
		ck_assert_uint_eq(W.now, t0);
		ck_assert_uint_gt(t.side[0].next_out, 0);
		ck_assert_uint_gt(t.side[1].next_out, 0);
		ok = snh_world_run(&W, snh_traffic_world_pump, &t,
				   60 * SNH_SEC, STEPS_MAX);
		snh_traffic_describe(&t, desc, sizeof(desc));
		ck_assert_msg(ok && !atomic_load(&t.failed),
			      "round %d: %s", round, desc);
		check_decoders();
		get_stats(0, &sa);
		get_stats(1, &sb);
		ck_assert_uint_eq(sa.pds.pdc_failed, 0);
		ck_assert_uint_eq(sb.pds.pdc_failed, 0);
		/* each NIC: its initiator PDC and the peer's target PDC */
		ck_assert_uint_ge(sa.pds.pdc_opened, 2);
		ck_assert_uint_ge(sb.pds.pdc_opened, 2);
		snh_traffic_fini(&t);
		world_down();
	}
}
END_TEST

/* A tap on a NIC's link: records the PSNs of the requests it sends. */
struct psn_tap {
	struct uet_link base;
	struct uet_link *inner;
	uint64_t reqs;
	uint32_t first_psn;
	bool saw_high, saw_zero, saw_low;
	uint64_t rud_reqs, rod_reqs;	/* requests sent, by type */
};

static struct psn_tap *psn_tap_of(struct uet_link *l)
{
	return (struct psn_tap *)(void *)l;
}

static int psn_tap_send(struct uet_link *l, const struct uet_link_pkt *pkts,
			unsigned int n)
{
	struct psn_tap *t = psn_tap_of(l);
	struct uet_pds_rud_rod_req h;
	uint8_t hdr[UET_PDS_RUD_ROD_REQ_LEN];
	unsigned int i, k;
	size_t got, c;
	int ret;

	ret = t->inner->ops->send(t->inner, pkts, n);
	for (i = 0; ret > 0 && i < (unsigned int)ret; i++) {
		for (k = 0, got = 0; k < pkts[i].iovcnt && got < sizeof(hdr);
		     k++) {
			c = pkts[i].iov[k].iov_len;
			if (c > sizeof(hdr) - got)
				c = sizeof(hdr) - got;
			memcpy(hdr + got, pkts[i].iov[k].iov_base, c);
			got += c;
		}
		if (uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, &h, hdr, got) < 0)
			continue;
		t->rod_reqs += h.type == UET_PDS_TYPE_ROD_REQ;
		if (h.type != UET_PDS_TYPE_RUD_REQ)
			continue;
		t->rud_reqs++;
		if (!t->reqs++)
			t->first_psn = h.psn;
		t->saw_high |= h.psn >= 0xffffff00u;
		t->saw_zero |= h.psn == 0;
		t->saw_low |= h.psn > 0 && h.psn < 0x100;
	}
	return ret;
}

static int psn_tap_recv(struct uet_link *l, struct uet_link_rx *rx,
			unsigned int n)
{
	return psn_tap_of(l)->inner->ops->recv(psn_tap_of(l)->inner, rx, n);
}

static int psn_tap_fd(struct uet_link *l)
{
	return psn_tap_of(l)->inner->ops->fd(psn_tap_of(l)->inner);
}

static size_t psn_tap_mtu(struct uet_link *l)
{
	return psn_tap_of(l)->inner->ops->mtu(psn_tap_of(l)->inner);
}

static int psn_tap_local_addr(struct uet_link *l, struct uet_link_addr *a)
{
	return psn_tap_of(l)->inner->ops->local_addr(psn_tap_of(l)->inner, a);
}

static void psn_tap_close(struct uet_link *l)
{
	psn_tap_of(l)->inner->ops->close(psn_tap_of(l)->inner);
	psn_tap_of(l)->inner = NULL;
}

static const struct uet_link_ops psn_tap_ops = {
	.send = psn_tap_send,
	.recv = psn_tap_recv,
	.fd = psn_tap_fd,
	.mtu = psn_tap_mtu,
	.local_addr = psn_tap_local_addr,
	.close = psn_tap_close,
};

static struct psn_tap TAPS[2];

static struct uet_link *psn_tap_wrap(struct uet_link *inner, int idx,
				     void *arg)
{
	struct psn_tap *t = &TAPS[idx];

	memset(t, 0, sizeof(*t));
	t->base.ops = &psn_tap_ops;
	t->inner = inner;
	return &t->base;
}

START_TEST(test_psn_wrap)
{
	struct snh_traffic_cfg tc;
	struct snh_world_cfg wc;
	struct uet_pds_stats pa, pb;
	struct snh_traffic t;
	char desc[600];
	bool ok;
	int i;

	snh_world_cfg_default(&wc);
	wc.wrap = psn_tap_wrap;
	wc.faults.drop_ppm = 20000;
	wc.faults.reorder_ppm = 50000;
	for (i = 0; i < 2; i++) {
		wc.snic[i].pds.fixed_start_psn = true;
		wc.snic[i].pds.start_psn = 0xffffffffu - 20;
	}
	world_up(&wc);
	small_plan(&tc, 100, 0x3a9);
	ck_assert_int_eq(snh_traffic_init(&t, &tc, &W.nic[0], &W.nic[1]), 0);
	ok = snh_world_run(&W, snh_traffic_world_pump, &t, 60 * SNH_SEC,
			   STEPS_MAX);
	snh_traffic_describe(&t, desc, sizeof(desc));
	ck_assert_msg(ok && !atomic_load(&t.failed), "%s", desc);
	check_decoders();
	ck_assert_int_eq(uet_snic_get_pdc_stats(W.nic[0].dev, W.nic[0].peer,
						&pa), 0);
	ck_assert_int_eq(uet_snic_get_pdc_stats(W.nic[1].dev, W.nic[1].peer,
						&pb), 0);
	/* More than 21 packets each way: the PSNs went through 0. */
	ck_assert_uint_gt(pa.tx_pkts, 21);
	ck_assert_uint_gt(pb.tx_pkts, 21);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_gt(TAPS[i].reqs, 21);
		ck_assert_uint_eq(TAPS[i].first_psn, 0xffffffffu - 20);
		ck_assert(TAPS[i].saw_high && TAPS[i].saw_zero &&
			  TAPS[i].saw_low);
	}
	snh_traffic_fini(&t);
	world_down();
}
END_TEST

/*
 * A queue that names its delivery mode gets it whatever the device's
 * default (FI_UET_DELIVERY): RUD asked on a device whose default is ROD
 * sends RUD requests; the default (and ROD asked) sends ROD ones.
 */
static void queue_mode_run(uint8_t dev_mode, uint8_t qmode, bool want_rod)
{
	static uint8_t sb[3000], rb[3000];
	struct snh_world_cfg wc;

	snh_world_cfg_default(&wc);
	wc.wrap = psn_tap_wrap;
	wc.snic[0].mode = wc.snic[1].mode = dev_mode;
	wc.qmode[0] = wc.qmode[1] = qmode;
	world_up(&wc);
	snh_fill(sb, sizeof(sb), 13);
	post_recv(1, false, 0, rb, sizeof(rb), 1);
	post_send(0, dest_of(0, 1), false, 0, sb, sizeof(sb), 2, false, 0);
	ck_assert(wait_for(0, 1, 1, 0, 5 * SNH_SEC));
	ck_assert_mem_eq(rb, sb, sizeof(sb));
	ck_assert_uint_gt(TAPS[0].rud_reqs + TAPS[0].rod_reqs, 0);
	if (want_rod)
		ck_assert_uint_eq(TAPS[0].rud_reqs, 0);
	else
		ck_assert_uint_eq(TAPS[0].rod_reqs, 0);
	check_decoders();
	world_down();
}

START_TEST(test_queue_mode_explicit)
{
	struct uet_hsi_queue_attr qa;
	struct uet_hsi_queue *q = NULL;
	struct snh_world_cfg wc;

	queue_mode_run(UET_PDS_MODE_ROD, UET_HSI_QUEUE_MODE_RUD, false);
	queue_mode_run(UET_PDS_MODE_ROD, UET_HSI_QUEUE_MODE_DEFAULT, true);
	queue_mode_run(UET_PDS_MODE_RUD, UET_HSI_QUEUE_MODE_ROD, true);
	queue_mode_run(UET_PDS_MODE_RUD, UET_HSI_QUEUE_MODE_DEFAULT, false);
	/* a mode the HSI does not define is refused */
	snh_world_cfg_default(&wc);
	world_up(&wc);
	memset(&qa, 0, sizeof(qa));
	qa.cmdq_depth = 64;
	qa.notifq_depth = 64;
	qa.pid_on_fep = 0x77;
	qa.mode = UET_HSI_QUEUE_MODE_UUD + 1;
	ck_assert_int_eq(W.nic[0].dev->ops->queue_open(W.nic[0].dev, &qa, &q),
			 -EINVAL);
	ck_assert_ptr_null(q);
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Send order: ROD, and RUD (SES's message_id sequence)              */
/* ------------------------------------------------------------------ */

#define ROD_N		300
#define ROD_BUF		6000

/*
 * A tap on B's link: the send requests that reach B, by message_id (the
 * first sequence of the one stream A -> B).  "overtaken" counts messages
 * whose first packet arrived after a packet of a message sent later, and
 * "psn_back" datagrams whose PSN is below one received before: the
 * fabric did reorder.
 */
struct order_tap {
	struct uet_link base;
	struct uet_link *inner;
	uint8_t seen[65536];
	uint16_t max_id;
	uint32_t max_psn;
	bool any_psn;
	unsigned int firsts, overtaken, psn_back;
};

static struct order_tap OTAP;

static struct order_tap *order_tap_of(struct uet_link *l)
{
	return (struct order_tap *)(void *)l;
}

static void order_tap_one(struct order_tap *t, const uint8_t *buf,
			  size_t len)
{
	struct uet_pds_rud_rod_req h;
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	ssize_t n;
	uint8_t op;
	uint16_t id;

	n = uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, &h, buf, len);
	if (n < 0 || (h.type != UET_PDS_TYPE_RUD_REQ &&
		      h.type != UET_PDS_TYPE_ROD_REQ))
		return;
	if (t->any_psn && (int32_t)(h.psn - t->max_psn) < 0)
		t->psn_back++;
	else
		t->max_psn = h.psn;
	t->any_psn = true;
	buf += n;
	len -= (size_t)n;
	switch (uet_ses_request_format(UET_WIRE_UEPLUS, h.next_hdr, buf, len)) {
	case UET_SES_FMT_STD_SOM1:
		if (uet_ses_std_som1_decode(UET_WIRE_UEPLUS, &s1, buf, len) < 0)
			return;
		op = s1.ctl.opcode;
		id = s1.message_id;
		break;
	case UET_SES_FMT_STD_SOM0:
		if (uet_ses_std_som0_decode(UET_WIRE_UEPLUS, &s0, buf, len) < 0)
			return;
		op = s0.ctl.opcode;
		id = s0.message_id;
		break;
	default:
		return;
	}
	if (op != UET_TAGGED_SEND || t->seen[id])
		return;
	t->seen[id] = 1;
	t->firsts++;
	if (id < t->max_id)
		t->overtaken++;
	else
		t->max_id = id;
}

static int order_tap_recv(struct uet_link *l, struct uet_link_rx *rx,
			  unsigned int n)
{
	struct order_tap *t = order_tap_of(l);
	int ret, i;

	ret = t->inner->ops->recv(t->inner, rx, n);
	for (i = 0; i < ret; i++)
		order_tap_one(t, rx[i].buf, rx[i].len);
	return ret;
}

static int order_tap_send(struct uet_link *l, const struct uet_link_pkt *pkts,
			  unsigned int n)
{
	return order_tap_of(l)->inner->ops->send(order_tap_of(l)->inner, pkts,
						 n);
}

static int order_tap_fd(struct uet_link *l)
{
	return order_tap_of(l)->inner->ops->fd(order_tap_of(l)->inner);
}

static size_t order_tap_mtu(struct uet_link *l)
{
	return order_tap_of(l)->inner->ops->mtu(order_tap_of(l)->inner);
}

static int order_tap_local_addr(struct uet_link *l, struct uet_link_addr *a)
{
	return order_tap_of(l)->inner->ops->local_addr(order_tap_of(l)->inner,
						       a);
}

static void order_tap_close(struct uet_link *l)
{
	order_tap_of(l)->inner->ops->close(order_tap_of(l)->inner);
	order_tap_of(l)->inner = NULL;
}

static const struct uet_link_ops order_tap_ops = {
	.send = order_tap_send,
	.recv = order_tap_recv,
	.fd = order_tap_fd,
	.mtu = order_tap_mtu,
	.local_addr = order_tap_local_addr,
	.close = order_tap_close,
};

/* Wraps B's link only. */
static struct uet_link *order_tap_wrap(struct uet_link *inner, int idx,
				       void *arg)
{
	struct order_tap *t = &OTAP;

	if (idx != 1)
		return inner;
	memset(t, 0, sizeof(*t));
	t->base.ops = &order_tap_ops;
	t->inner = inner;
	return &t->base;
}

struct rod_res {
	unsigned int wrong;		/* completion k not message k in k */
	unsigned int wrong_match;	/* buffer k does not hold message k */
	unsigned int overtaken, psn_back;
	struct uet_snic_stats sa, sb;
};

/* Send ROD_N same-tag messages A->B under reordering (and drop_ppm
 * loss); count the receives (in completion order) that were not message
 * k in buffer k, and the buffers k not holding message k. */
static void rod_run(uint8_t mode, uint32_t drop_ppm, struct rod_res *res)
{
	static uint8_t rbuf[ROD_N][ROD_BUF];
	static uint8_t sbuf[ROD_N][ROD_BUF];
	static uint32_t len[ROD_N];
	struct snh_world_cfg wc;
	const struct snh_notif *n;
	unsigned int k;
	uint32_t slot;
	int i;

	memset(res, 0, sizeof(*res));
	snh_world_cfg_default(&wc);
	wc.wrap = order_tap_wrap;
	wc.seed = 0x40d;
	wc.faults.reorder_ppm = 200000;
	wc.faults.jitter_ns = 20 * SNH_US;
	wc.faults.dup_ppm = 20000;
	wc.faults.drop_ppm = drop_ppm;
	for (i = 0; i < 2; i++) {
		wc.snic[i].mode = mode;
		wc.snic[i].pds.max_retries = 40;
	}
	world_up(&wc);
	for (k = 0; k < ROD_N; k++) {
		memset(rbuf[k], 0, ROD_BUF);
		post_recv(1, true, TAG_T, rbuf[k], ROD_BUF, k);
	}
	for (k = 0; k < ROD_N; k++) {
		len[k] = 8 + (k * 977u) % (ROD_BUF - 8);
		snh_fill(sbuf[k], len[k], k);
		post_send(0, dest_of(0, 1), true, TAG_T, sbuf[k], len[k], k,
			  false, 0);
	}
	ck_assert_msg(wait_for(0, ROD_N, ROD_N, 0, 60 * SNH_SEC),
		      "mode %u: %u receives, %u sends", mode, R[1].nrecv,
		      R[0].nsend);
	check_decoders();
	for (k = 0; k < ROD_N; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(n->recv.status, 0);
		slot = recv_slot(n);
		ck_assert_uint_lt(slot, ROD_N);
		/* Completion k is buffer k (posting order) holding
		 * message k (send order). */
		if (slot != k || n->recv.total_length != len[k] ||
		    snh_check(rbuf[k], len[k], k) != len[k])
			res->wrong++;
		if (n->recv.total_length != len[slot] ||
		    snh_check(rbuf[slot], len[slot], slot) != len[slot])
			res->wrong_match++;
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(n->send.status, 0);
	}
	res->overtaken = OTAP.overtaken;
	res->psn_back = OTAP.psn_back;
	get_stats(0, &res->sa);
	get_stats(1, &res->sb);
	/* Under RUD every message carries its id (no small-message
	 * header). */
	if (mode == UET_PDS_MODE_RUD)
		ck_assert_uint_eq(OTAP.firsts, ROD_N);
	world_down();
}

START_TEST(test_rod_order)
{
	static struct rod_res res;

	rod_run(UET_PDS_MODE_ROD, 0, &res);
	ck_assert_msg(res.wrong == 0,
		      "ROD: %u of %u messages completed out of send order",
		      res.wrong, ROD_N);
	/* The fabric reordered: PDS put it back in order. */
	ck_assert_uint_gt(res.psn_back, 0);
	ck_assert_uint_gt(res.sb.pds.ooo_held, 0);
}
END_TEST

/* RUD: PDS delivers in arrival order, SES matches (and completes) in
 * send order by the message_id sequence. */
START_TEST(test_rud_order)
{
	static const uint32_t drop[] = { 0, 50000 };
	static struct rod_res res;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		rod_run(UET_PDS_MODE_RUD, drop[i], &res);
		ck_assert_msg(res.wrong == 0 && res.wrong_match == 0,
			      "RUD drop %u ppm: %u of %u completions out of send order, %u buffers with another message",
			      drop[i], res.wrong, ROD_N, res.wrong_match);
		/* Reordering did happen on the wire, SES held messages
		 * back, and PDS did not reorder anything. */
		ck_assert_msg(res.overtaken > 0 && res.psn_back > 0,
			      "RUD drop %u ppm: the fabric did not reorder (overtaken %u, psn_back %u)",
			      drop[i], res.overtaken, res.psn_back);
		ck_assert_uint_gt(res.sb.ses.ord_held, 0);
		ck_assert_uint_eq(res.sb.pds.ooo_held, 0);
		ck_assert_uint_eq(res.sb.ses.ord_restart, 1);
		ck_assert_uint_eq(res.sb.ses.ord_skipped +
				  res.sb.ses.ord_late +
				  res.sb.ses.ord_resync, 0);
		ck_assert_uint_eq(res.sa.ses.seq_starts, 1);
		ck_assert_uint_eq(res.sa.pds.pdc_failed +
				  res.sb.pds.pdc_failed, 0);
		if (drop[i])
			ck_assert_uint_gt(res.sa.pds.retx, 0);
		fprintf(stderr,
			"RUD order, drop %u ppm: %u of %u messages overtaken on the wire, %u PSNs back, %llu held by SES (%llu bytes at most), %llu refused, %llu retransmissions\n",
			drop[i], res.overtaken, ROD_N, res.psn_back,
			(unsigned long long)res.sb.ses.ord_held,
			(unsigned long long)res.sb.ses.held_bytes_hwm,
			(unsigned long long)res.sb.ses.ord_refused,
			(unsigned long long)res.sa.pds.retx);
	}
	/* Control: RUDI (no PDC, no order in PDS or SES) under the same
	 * fabric is matched out of order, so the check above can fail. */
	rod_run(UET_PDS_MODE_RUDI, 0, &res);
	ck_assert_msg(res.wrong_match > 0, "RUDI control run stayed in order");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Addressing errors                                                   */
/* ------------------------------------------------------------------ */

static void expect_send_error(int from, uint64_t dest, uint8_t want_rc,
			      uint64_t *counter_before, int which)
{
	struct uet_snic_stats sb;
	const struct snh_notif *n;
	uint8_t buf[300];
	unsigned int ns = R[from].nsend;

	snh_fill(buf, sizeof(buf), 7);
	post_send(from, dest, true, 0x55, buf, sizeof(buf), 0xabc0 + which,
		  false, 0);
	ck_assert_msg(wait_for(0, from ? 0 : ns + 1, 0, from ? ns + 1 : 0,
			       10 * SNH_SEC),
		      "no send completion for a misaddressed send");
	n = rec_find(from, UET_HSI_NOTIF_SEND, ns);
	ck_assert_ptr_nonnull(n);
	ck_assert_uint_eq(n->send.op_context, 0xabc0 + (uint64_t)which);
	fprintf(stderr, "misaddressed send (rc %s expected): status %u flags 0x%x bytes_sent %u\n",
		uet_ses_rc_str(want_rc), n->send.status, n->send.flags,
		n->send.bytes_sent);
	ck_assert_msg(n->send.status != 0, "misaddressed send succeeded");
	ck_assert_msg(n->send.flags == want_rc,
		      "send completion flags 0x%x, expected the SES return code 0x%x (%s)",
		      n->send.flags, want_rc, uet_ses_rc_str(want_rc));
	get_stats(1 - from, &sb);
	switch (which) {
	case 0:
		ck_assert_uint_gt(sb.ses.bad_job, *counter_before);
		*counter_before = sb.ses.bad_job;
		break;
	case 1:
		ck_assert_uint_gt(sb.ses.bad_pid, *counter_before);
		*counter_before = sb.ses.bad_pid;
		break;
	default:
		ck_assert_uint_gt(sb.ses.bad_index, *counter_before);
		*counter_before = sb.ses.bad_index;
		break;
	}
	/* Nothing was delivered. */
	ck_assert_uint_eq(R[1 - from].nrecv, 0);
}

START_TEST(test_bad_job)
{
	struct snh_world_cfg wc;
	uint64_t before = 0;

	snh_world_cfg_default(&wc);
	wc.job[1] = SNH_JOB + 1;
	world_up(&wc);
	expect_send_error(0, dest_of(0, 1), UET_RC_BAD_JOB_ID, &before, 0);
	/* And in the other direction, a second time. */
	before = 0;
	expect_send_error(1, dest_of(1, 0), UET_RC_BAD_JOB_ID, &before, 0);
	check_decoders();
	world_down();
}
END_TEST

START_TEST(test_bad_pid_index)
{
	struct snh_world_cfg wc;
	uint64_t bp = 0, bi = 0;
	uint8_t sbuf[100], rbuf[100];
	const struct snh_notif *n;
	uint64_t peer;

	snh_world_cfg_default(&wc);
	world_up(&wc);
	peer = W.nic[0].peer;
	expect_send_error(0, UET_HSI_DEST(peer, W.nic[1].pid + 1, W.nic[1].ri),
			  UET_RC_BAD_JOB_ID, &bp, 1);
	expect_send_error(0, UET_HSI_DEST(peer, W.nic[1].pid, W.nic[1].ri + 1),
			  UET_RC_BAD_JOB_ID, &bi, 2);
	/* The right address still works. */
	snh_fill(sbuf, sizeof(sbuf), 3);
	post_recv(1, true, 0x55, rbuf, sizeof(rbuf), 9);
	post_send(0, dest_of(0, 1), true, 0x55, sbuf, sizeof(sbuf), 1, false,
		  0);
	ck_assert(wait_for(0, 3, 1, 0, 10 * SNH_SEC));
	n = rec_find(1, UET_HSI_NOTIF_RECV, 0);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(n->recv.total_length, sizeof(sbuf));
	ck_assert_uint_eq(snh_check(rbuf, sizeof(rbuf), 3), sizeof(rbuf));
	n = rec_find(0, UET_HSI_NOTIF_SEND, 2);
	ck_assert_uint_eq(n->send.status, 0);
	ck_assert_uint_eq(n->send.flags, UET_RC_OK);
	check_decoders();
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Truncation                                                          */
/* ------------------------------------------------------------------ */

static void trunc_case(size_t slen, size_t rlen, bool tagged, bool hd)
{
	uint8_t *sbuf = malloc(slen), *rbuf = malloc(rlen + 64);
	const struct snh_notif *n;
	unsigned int nr = R[1].nrecv, ns = R[0].nsend;
	uint32_t id = (uint32_t)(slen ^ rlen);
	size_t k;

	ck_assert_ptr_nonnull(sbuf);
	ck_assert_ptr_nonnull(rbuf);
	snh_fill(sbuf, slen, id);
	memset(rbuf, 0xcc, rlen + 64);
	post_recv(1, tagged, tagged ? 0x77 : 0, rbuf, rlen, 0x300 + nr);
	post_send(0, dest_of(0, 1), tagged, tagged ? 0x77 : 0, sbuf, slen,
		  0x400 + ns, hd, 0xfeedface00000000ull | slen);
	ck_assert_msg(wait_for(0, ns + 1, nr + 1, 0, 30 * SNH_SEC),
		      "truncation %zu into %zu: recv %u send %u", slen, rlen,
		      R[1].nrecv, R[0].nsend);
	n = rec_find(1, UET_HSI_NOTIF_RECV, nr);
	ck_assert_ptr_nonnull(n);
	ck_assert_msg(n->recv.status == UET_HSI_ST_TRUNCATED,
		      "%zu into %zu: receive status %u, expected UET_HSI_ST_TRUNCATED",
		      slen, rlen, n->recv.status);
	ck_assert_uint_eq(recv_slot(n), 0x300 + nr);
	ck_assert_uint_eq(n->recv.total_length, rlen);
	ck_assert_msg(n->has_cont, "truncated receive without continuation");
	ck_assert_uint_eq(n->cont.total_length, slen - rlen);
	ck_assert_uint_eq(n->cont.status & 1, hd ? 1 : 0);
	if (hd)
		ck_assert_uint_eq(n->cont.tag, 0xfeedface00000000ull | slen);
	ck_assert_uint_eq(n->cont.src_id,
			  uet_ses_initiator_id(W.nic[0].pid, W.nic[0].ri));
	ck_assert_uint_eq(snh_check_part(rbuf, rlen, slen, id), rlen);
	for (k = 0; k < 64; k++)
		ck_assert_uint_eq(rbuf[rlen + k], 0xcc);
	n = rec_find(0, UET_HSI_NOTIF_SEND, ns);
	ck_assert_ptr_nonnull(n);
	ck_assert_msg(n->send.status == 0,
		      "%zu into %zu: send completion status %u flags 0x%x",
		      slen, rlen, n->send.status, n->send.flags);
	ck_assert_uint_eq(n->send.op_context, 0x400 + ns);
	free(sbuf);
	free(rbuf);
}

START_TEST(test_truncation)
{
	struct snh_world_cfg wc;
	struct uet_snic_stats sb;

	snh_world_cfg_default(&wc);
	wc.faults.reorder_ppm = 100000;
	world_up(&wc);
	trunc_case(5000, 1000, true, false);	/* eager, multi-packet */
	trunc_case(100, 40, false, true);	/* single packet, hd */
	trunc_case(200000, 100000, true, true);	/* rendezvous */
	trunc_case(70000, 1, true, false);	/* rendezvous, 1 byte */
	get_stats(1, &sb);
	ck_assert_uint_ge(sb.ses.truncated, 4);
	check_decoders();
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Unexpected-list bound                                               */
/* ------------------------------------------------------------------ */

#define UX_N		24
#define UX_LEN		4096
#define UX_MAX		(32u << 10)

static bool refused_pump(void *arg)
{
	struct uet_snic_stats st;

	(void)arg;
	get_stats(1, &st);
	return st.ses.unexp_refused > 0;
}

START_TEST(test_unexp_bound)
{
	static uint8_t sbuf[UX_N][UX_LEN], rbuf[UX_N][UX_LEN + 64];
	struct snh_world_cfg wc;
	struct uet_snic_stats sb;
	const struct snh_notif *n;
	unsigned int k, seen[UX_N], nev = 0;
	uint32_t slot, id;

	snh_world_cfg_default(&wc);
	wc.snic[1].unexp_max_bytes = UX_MAX;
	world_up(&wc);
	for (k = 0; k < UX_N; k++) {
		snh_fill(sbuf[k], UX_LEN, k);
		post_send(0, dest_of(0, 1), false, 0, sbuf[k], UX_LEN, k,
			  false, 0);
	}
	ck_assert_msg(snh_world_run(&W, refused_pump, NULL, 1 * SNH_SEC,
				    STEPS_MAX),
		      "B never refused an unexpected message");
	get_stats(1, &sb);
	ck_assert_uint_gt(sb.ses.unexpected, 0);
	ck_assert_uint_eq(R[1].nrecv, 0);
	for (k = 0; k < UX_N; k++) {
		memset(rbuf[k], 0xcc, sizeof(rbuf[k]));
		post_recv(1, false, 0, rbuf[k], UX_LEN, k);
	}
	ck_assert_msg(wait_for(0, UX_N, UX_N, 0, 30 * SNH_SEC),
		      "recv %u/%u send %u/%u", R[1].nrecv, UX_N, R[0].nsend,
		      UX_N);
	check_decoders();
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < UX_N; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		ck_assert_uint_eq(n->recv.status, 0);
		ck_assert_uint_eq(n->recv.total_length, UX_LEN);
		slot = recv_slot(n);
		ck_assert_uint_lt(slot, UX_N);
		id = uet_get_le32(rbuf[slot]);
		ck_assert_uint_lt(id, UX_N);
		ck_assert_uint_eq(snh_check(rbuf[slot], UX_LEN, id), UX_LEN);
		ck_assert_uint_eq(rbuf[slot][UX_LEN], 0xcc);
		seen[id]++;
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_uint_eq(n->send.status, 0);
		ck_assert_uint_eq(n->send.bytes_sent, UX_LEN);
	}
	for (k = 0; k < UX_N; k++)
		ck_assert_msg(seen[k] == 1, "message %u delivered %u times",
			      k, seen[k]);
	get_stats(1, &sb);
	ck_assert_uint_gt(sb.ses.unexp_refused, 0);
	ck_assert_uint_gt(sb.ses.unexpected, 0);
	ck_assert_uint_gt(sb.ses.unexp_bytes_hwm, 0);
	ck_assert_msg(sb.ses.unexp_bytes_hwm <= UX_MAX,
		      "unexpected high-water %llu above the bound %u",
		      (unsigned long long)sb.ses.unexp_bytes_hwm, UX_MAX);
	for (k = 0; k < R[1].n; k++) {
		n = &R[1].v[k];
		if (n->type != UET_HSI_NOTIF_EVENT)
			continue;
		ck_assert_uint_eq(n->event.event_type,
				  UET_HSI_EVENT_RXPOOL_EXHAUSTED);
		ck_assert_uint_eq(n->event.severity, UET_HSI_SEV_WARNING);
		ck_assert_uint_ge(n->event.event_data, 1);
		ck_assert_uint_le(n->event.event_data, sb.ses.unexp_refused);
		nev++;
	}
	ck_assert_msg(nev > 0, "no RXPOOL_EXHAUSTED event notification");
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Peer disappears                                                     */
/* ------------------------------------------------------------------ */

#define PG_N		20

static void peer_gone(bool close_b, bool established)
{
	static uint8_t sbuf[PG_N][9000];
	uint8_t small[64], rsmall[64];
	struct snh_world_cfg wc;
	struct uet_snic_stats sa;
	const struct snh_notif *n;
	uint64_t bound, t0;
	unsigned int k, base;
	int i;

	snh_world_cfg_default(&wc);
	for (i = 0; i < 2; i++) {
		wc.snic[i].pds.rto_init_ns = 4 * SNH_MS;
		wc.snic[i].pds.rto_min_ns = 1 * SNH_MS;
		wc.snic[i].pds.rto_max_ns = 50 * SNH_MS;
		wc.snic[i].pds.max_retries = 5;
	}
	/* The PDS failure bound (docs/software-nic.md, PDS 3): the retry
	 * rounds, and at least dead_ns of silence, then one more round; a
	 * round more of slack for the harness. */
	bound = wc.snic[0].pds.rto_max_ns *
		(wc.snic[0].pds.max_retries + 2);
	if (bound < wc.snic[0].pds.dead_ns + 2 * wc.snic[0].pds.rto_max_ns)
		bound = wc.snic[0].pds.dead_ns +
			2 * wc.snic[0].pds.rto_max_ns;
	world_up(&wc);
	if (established) {
		snh_fill(small, sizeof(small), 1);
		post_recv(1, false, 0, rsmall, sizeof(rsmall), 1);
		post_send(0, dest_of(0, 1), false, 0, small, sizeof(small), 1,
			  false, 0);
		ck_assert(wait_for(0, 1, 1, 0, 1 * SNH_SEC));
		n = rec_find(0, UET_HSI_NOTIF_SEND, 0);
		ck_assert_uint_eq(n->send.status, 0);
	}
	base = R[0].nsend;
	if (close_b)
		snh_nic_close(&W.nic[1]);
	else
		W.nic[1].stopped = true;
	t0 = W.now;
	for (k = 0; k < PG_N; k++) {
		snh_fill(sbuf[k], sizeof(sbuf[k]), k);
		post_send(0, dest_of(0, 1), true, 0x99, sbuf[k],
			  k & 1 ? sizeof(sbuf[k]) : 100, 0x700 + k, false, 0);
	}
	ck_assert_msg(wait_for(0, base + PG_N, 0, 0, bound),
		      "only %u of %u sends completed within %llu ms",
		      R[0].nsend - base, PG_N,
		      (unsigned long long)(bound / SNH_MS));
	ck_assert_uint_le(W.now - t0, bound + 2 * W.quantum_ns);
	for (k = 0; k < PG_N; k++) {
		n = rec_find(0, UET_HSI_NOTIF_SEND, base + k);
		ck_assert_ptr_nonnull(n);
		ck_assert_msg(n->send.status == UET_HSI_ST_TIMED_OUT,
			      "send %u: status %u, expected UET_HSI_ST_TIMED_OUT", k,
			      n->send.status);
		ck_assert_uint_ge(n->send.op_context, 0x700);
		ck_assert_uint_lt(n->send.op_context, 0x700 + PG_N);
	}
	get_stats(0, &sa);
	ck_assert_uint_ge(sa.pds.pdc_failed, 1);
	check_decoders();
	if (!close_b) {
		/* B comes back: a new message gets through. */
		W.nic[1].stopped = false;
		base = R[0].nsend;
		snh_fill(small, sizeof(small), 2);
		memset(rsmall, 0, sizeof(rsmall));
		post_recv(1, false, 0, rsmall, sizeof(rsmall), 2);
		post_send(0, dest_of(0, 1), false, 0, small, sizeof(small), 2,
			  false, 0);
		ck_assert_msg(wait_for(0, base + 1, established ? 2 : 1, 0,
				       5 * SNH_SEC),
			      "after B resumed: sends %u recvs %u", R[0].nsend,
			      R[1].nrecv);
		n = rec_find(0, UET_HSI_NOTIF_SEND, base);
		ck_assert_uint_eq(n->send.status, 0);
		ck_assert_uint_eq(snh_check(rsmall, sizeof(rsmall), 2),
				  sizeof(rsmall));
	}
	world_down();
}

START_TEST(test_peer_stopped)
{
	peer_gone(false, true);
}
END_TEST

START_TEST(test_peer_stopped_before_establish)
{
	peer_gone(false, false);
}
END_TEST

START_TEST(test_peer_closed)
{
	peer_gone(true, true);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The receiver goes quiet after its completion                        */
/* ------------------------------------------------------------------ */

/*
 * Manual progress: an application that has its receive completion may
 * stop calling into the NIC (fi_pingpong's last pong: the client goes to
 * its control socket).  The sender's rendezvous send must still complete:
 * everything it waits for (the ACKs of its Response-with-Data packets,
 * the notice) has to leave the receiver before the receive completion is
 * reported, not on a delayed-ACK timer that a quiet NIC never runs.  The
 * sizes put the last Response-with-Data packet at different positions in
 * the ACK coalescing count.
 */
static void rdzv_quiet_receiver(bool unexpected)
{
	static const size_t lens[] = {
		96u << 10, 100000, 128u << 10, 200000, 1u << 20,
	};
	struct uet_snic_stats sa, sb;
	struct snh_world_cfg wc;
	const struct snh_notif *n;
	uint8_t *sbuf, *rbuf;
	unsigned int k;

	snh_world_cfg_default(&wc);
	world_up(&wc);
	sbuf = malloc(lens[4]);
	rbuf = malloc(lens[4]);
	ck_assert(sbuf && rbuf);
	for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		snh_fill(sbuf, lens[k], 100 + k);
		memset(rbuf, 0, lens[k]);
		if (!unexpected)
			post_recv(1, false, 0, rbuf, lens[k], 0x500 + k);
		post_send(0, dest_of(0, 1), false, 0, sbuf, lens[k], 0x600 + k,
			  false, 0);
		if (unexpected) {
			/* The announcement waits at B, unmatched. */
			snh_world_settle(&W, 10 * SNH_MS);
			post_recv(1, false, 0, rbuf, lens[k], 0x500 + k);
		}
		ck_assert_msg(wait_for(0, k, k + 1, 0, 1 * SNH_SEC),
			      "%zu bytes: receive %u not completed",
			      lens[k], k);
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		ck_assert_uint_eq(n->recv.status, 0);
		ck_assert_uint_eq(snh_check(rbuf, lens[k], 100 + k), lens[k]);
		/* B has its completion and stops progressing. */
		W.nic[1].stopped = true;
		ck_assert_msg(wait_for(0, k + 1, k + 1, 0, 10 * SNH_SEC),
			      "%zu bytes: the send did not complete while the "
			      "receiver was quiet", lens[k]);
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_msg(n->send.status == 0,
			      "%zu bytes: send status %u while the receiver "
			      "was quiet", lens[k], n->send.status);
		W.nic[1].stopped = false;
	}
	get_stats(0, &sa);
	get_stats(1, &sb);
	ck_assert_uint_eq(sa.ses.rdzv_tx, k);
	ck_assert_uint_eq(sb.ses.rdzv_rx, k);
	ck_assert_uint_eq(sa.pds.pdc_failed, 0);
	check_decoders();
	free(sbuf);
	free(rbuf);
	world_down();
}

START_TEST(test_rdzv_quiet_receiver)
{
	rdzv_quiet_receiver(false);
}
END_TEST

START_TEST(test_rdzv_quiet_receiver_unexpected)
{
	rdzv_quiet_receiver(true);
}
END_TEST

/* ------------------------------------------------------------------ */
/* HSI conventions: metadata, directed receives, unknown source,      */
/* invalid descriptors                                                 */
/* ------------------------------------------------------------------ */

START_TEST(test_directed_and_unknown_src)
{
	uint8_t sbuf[500], r0[500], r1[500], r2[500];
	struct uet_hsi_cmd_ext x;
	struct snh_world_cfg wc;
	const struct snh_notif *n;
	uint64_t meta = 0x1122334455667788ull;

	snh_world_cfg_default(&wc);
	world_up(&wc);
	/* B: a receive directed at a pid A does not have, then one
	 * directed at A's queue; A's message must land in the second. */
	memset(&x, 0, sizeof(x));
	x.ext_flags = UET_HSI_EXT_DIRECTED;
	post_recv_ext(1, true, 0x42, r0, sizeof(r0), 0x10, true, &x,
		      UET_HSI_DEST(W.nic[1].peer, W.nic[0].pid + 1,
				   W.nic[0].ri));
	post_recv_ext(1, true, 0x42, r1, sizeof(r1), meta, true, &x,
		      UET_HSI_DEST(W.nic[1].peer, W.nic[0].pid, W.nic[0].ri));
	snh_fill(sbuf, sizeof(sbuf), 5);
	post_send(0, dest_of(0, 1), true, 0x42, sbuf, sizeof(sbuf), 77, false,
		  0);
	ck_assert(wait_for(0, 1, 1, 0, 1 * SNH_SEC));
	n = rec_find(1, UET_HSI_NOTIF_RECV, 0);
	ck_assert_uint_eq(n->recv.status, 0);
	/* metadata bits 15:0 and 31:16 come back as the buffer ids */
	ck_assert_uint_eq(n->recv.buffer_id_0, 0x7788);
	ck_assert_uint_eq(n->recv.buffer_id_1, 0x5566);
	ck_assert_uint_eq(n->recv.src_id, (uint32_t)W.nic[1].peer);
	ck_assert_uint_eq(n->recv.tag, 0x42);
	ck_assert_uint_eq(snh_check(r1, sizeof(r1), 5), sizeof(r1));
	/* no header_data: the continuation only names the sender */
	ck_assert(n->has_cont);
	ck_assert(!n->contx.has_data);
	ck_assert_uint_eq(n->contx.initiator,
			  uet_ses_initiator_id(W.nic[0].pid, W.nic[0].ri));
	ck_assert_uint_eq(rec_find(0, UET_HSI_NOTIF_SEND, 0)->send.op_context,
			  77);

	/* B forgets A: the next receive reports an unknown source. */
	ck_assert_int_eq(W.nic[1].dev->ops->peer_remove(W.nic[1].dev,
							W.nic[1].peer), 0);
	post_recv(1, false, 0, r2, sizeof(r2), 0x20);
	post_send(0, dest_of(0, 1), false, 0, sbuf, 100, 78, false, 0);
	ck_assert(wait_for(0, 2, 2, 0, 1 * SNH_SEC));
	n = rec_find(1, UET_HSI_NOTIF_RECV, 1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(recv_slot(n), 0x20);
	ck_assert_uint_eq(n->recv.total_length, 100);
	ck_assert_uint_eq(n->recv.src_id, UET_HSI_PEER_UNKNOWN);
	/* The wrongly directed receive is still unmatched. */
	ck_assert_uint_eq(R[1].nrecv, 2);
	check_decoders();
	world_down();
}
END_TEST

START_TEST(test_invalid_descriptor)
{
	struct uet_hsi_cmdq *cq;
	struct snh_world_cfg wc;
	const struct snh_notif *n;
	struct uet_snic_stats sa;
	uint8_t sbuf[64], rbuf[64];
	uint32_t idx[2];
	uint8_t *s;

	snh_world_cfg_default(&wc);
	world_up(&wc);
	cq = W.nic[0].q->cmdq;
	/* variant 3 (invalid), then a SEND with reserved flag bits */
	ck_assert_int_eq(uet_hsi_cmdq_reserve(cq, 0, &idx[0]), 0);
	s = uet_hsi_cmdq_slot(cq, idx[0]);
	memset(s, 0, UET_HSI_CMD_SEG_LEN);
	s[0] = UET_HSI_FAMILY_MSG << 4 | 3 << 2 | UET_HSI_DATA_SGL;
	ck_assert_int_eq(uet_hsi_cmdq_reserve(cq, 0, &idx[1]), 0);
	s = uet_hsi_cmdq_slot(cq, idx[1]);
	memset(s, 0, UET_HSI_CMD_SEG_LEN);
	s[0] = UET_HSI_FAMILY_MSG << 4 | UET_HSI_DATA_INLINE;
	s[1] = UET_HSI_CMD_FLAG_COMPLETION | 0x07;
	uet_put_le64(s + 24, 0xbad0c0deull);	/* metadata */
	snh_ring(&W.nic[0]);
	ck_assert(snh_world_run(&W, want_pump, &(struct want){
				.event = { 2, 0 } }, 1 * SNH_SEC, 100000));
	n = rec_find(0, UET_HSI_NOTIF_EVENT, 0);
	ck_assert_uint_eq(n->event.event_type,
			  UET_HSI_EVENT_INVALID_DESCRIPTOR);
	ck_assert_uint_eq(n->event.severity, UET_HSI_SEV_ERROR);
	ck_assert_uint_eq(n->event.event_data, idx[0]);
	n = rec_find(0, UET_HSI_NOTIF_EVENT, 1);
	ck_assert_uint_eq(n->event.event_type,
			  UET_HSI_EVENT_INVALID_DESCRIPTOR);
	ck_assert_uint_eq(n->event.event_data, idx[1]);
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.bad_cmds, 2);
	/* "errors are always reported": the malformed SEND also gets an
	 * error completion carrying its metadata; the undecodable opcode
	 * (no messaging command, no COMPLETION flag) gets none. */
	ck_assert(snh_world_run(&W, want_pump, &(struct want){
				.send = { 1, 0 } }, 1 * SNH_MS, 1000));
	ck_assert_uint_eq(R[0].nsend, 1);
	n = rec_find(0, UET_HSI_NOTIF_SEND, 0);
	ck_assert_uint_eq(n->send.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(n->send.op_context, 0xbad0c0deull);
	/* The queue still works. */
	snh_fill(sbuf, sizeof(sbuf), 9);
	post_recv(1, false, 0, rbuf, sizeof(rbuf), 1);
	post_send(0, dest_of(0, 1), false, 0, sbuf, sizeof(sbuf), 5, false,
		  0);
	ck_assert(wait_for(0, 2, 1, 0, 1 * SNH_SEC));
	ck_assert_uint_eq(R[0].nsend, 2);
	n = rec_find(0, UET_HSI_NOTIF_SEND, 1);
	ck_assert_uint_eq(n->send.status, 0);
	ck_assert_uint_eq(n->send.op_context, 5);
	ck_assert_uint_eq(snh_check(rbuf, sizeof(rbuf), 9), sizeof(rbuf));
	check_decoders();
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */

#define RF_N		60

/* Post without ringing until the ring is full; ring only then. */
static void post_unrung(int at, const struct snh_cmd *c)
{
	unsigned int tries;
	int ret;

	for (tries = 0; tries < 10000; tries++) {
		ret = snh_post(&W.nic[at], c);
		if (ret != -EAGAIN)
			break;
		snh_ring(&W.nic[at]);
		snh_world_step(&W);
	}
	ck_assert_msg(ret == 0, "post on NIC %d: %d", at, ret);
}

START_TEST(test_rings_full)
{
	static uint8_t sbuf[RF_N][3000], rbuf[RF_N][3000];
	struct snh_world_cfg wc;
	struct uet_snic_stats sb;
	const struct snh_notif *n;
	struct uet_hsi_cmdq_stats cs;
	unsigned int k, len;
	struct snh_cmd c;

	snh_world_cfg_default(&wc);
	wc.cmdq_depth = 8;
	wc.notifq_depth = 14;
	wc.faults.reorder_ppm = 100000;
	world_up(&wc);
	for (k = 0; k < RF_N; k++) {
		memset(&c, 0, sizeof(c));
		c.family = UET_HSI_FAMILY_TAGGED;
		c.variant = UET_HSI_VARIANT_RECV;
		c.completion = true;
		c.tag = 0x500 + k;
		c.metadata = k;
		c.buf = rbuf[k];
		c.len = sizeof(rbuf[k]);
		c.nseg = 1 + k % 3;
		post_unrung(1, &c);
	}
	snh_ring(&W.nic[1]);
	/* Nobody reads B's notification ring for a while. */
	W.nic[1].hold = true;
	for (k = 0; k < RF_N; k++) {
		len = 1 + (k * 211u) % sizeof(sbuf[k]);
		snh_fill(sbuf[k], len, k);
		memset(&c, 0, sizeof(c));
		c.family = UET_HSI_FAMILY_TAGGED;
		c.variant = UET_HSI_VARIANT_SEND;
		c.completion = true;
		c.tag = 0x500 + k;
		c.dest = dest_of(0, 1);
		c.metadata = k;
		c.buf = sbuf[k];
		c.len = len;
		c.nseg = 1 + k % 4;
		if (k % 3 == 0) {
			c.remote_cq = true;
			c.ext = true;
			c.extv.header_data = 0xd000 + k;
			c.extv.ext_flags = UET_HSI_EXT_HAS_DATA;
		}
		post_unrung(0, &c);
	}
	snh_ring(&W.nic[0]);
	/* -EAGAIN from the full command rings was met and respected. */
	uet_hsi_cmdq_get_stats(W.nic[0].q->cmdq, &cs);
	ck_assert_uint_gt(cs.full, 0);
	uet_hsi_cmdq_get_stats(W.nic[1].q->cmdq, &cs);
	ck_assert_uint_gt(cs.full, 0);
	snh_world_settle(&W, 50 * SNH_MS);
	ck_assert_uint_eq(R[1].n, 0);
	get_stats(1, &sb);
	ck_assert_uint_gt(sb.notif_deferred, 0);
	W.nic[1].hold = false;
	ck_assert_msg(wait_for(0, RF_N, RF_N, 0, 1 * SNH_SEC),
		      "recv %u send %u", R[1].nrecv, R[0].nsend);
	check_decoders();
	ck_assert_uint_eq(R[1].nrecv, RF_N);
	ck_assert_uint_eq(R[0].nsend, RF_N);
	for (k = 0; k < RF_N; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		len = 1 + (recv_slot(n) * 211u) % sizeof(sbuf[0]);
		ck_assert_uint_lt(recv_slot(n), RF_N);
		ck_assert_uint_eq(n->recv.status, 0);
		ck_assert_uint_eq(n->recv.tag, 0x500 + recv_slot(n));
		ck_assert_uint_eq(n->recv.total_length, len);
		ck_assert_uint_eq(snh_check(rbuf[recv_slot(n)], len,
					    recv_slot(n)), len);
		/* A's initiator is not 0: always a continuation entry */
		ck_assert(n->has_cont);
		ck_assert_uint_eq(n->contx.has_data, recv_slot(n) % 3 == 0);
		if (n->contx.has_data)
			ck_assert_uint_eq(n->cont.tag,
					  0xd000 + recv_slot(n));
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_uint_eq(n->send.status, 0);
	}
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Receive features: peek, claim, discard, cancel, multi-receive, UUD  */
/* ------------------------------------------------------------------ */

/* A receive-side command with extension flags (no data unless buf). */
static void post_rx_flags(int at, bool tagged, uint64_t tag, void *buf,
			  size_t len, uint64_t meta, uint32_t flags,
			  uint64_t hdv, uint64_t ignore)
{
	struct uet_hsi_cmd_ext x;

	memset(&x, 0, sizeof(x));
	x.ext_flags = flags;
	x.header_data = hdv;
	x.ignore = ignore;
	post_recv_ext(at, tagged, tag, buf, len, meta, true, &x, 0);
}

/* Step until n more receive notifications were recorded on NIC i. */
static bool wait_notifs(int i, unsigned int n, uint64_t max_ns)
{
	return wait_for(R[0].nrecv + (i == 0 ? n : 0), R[0].nsend,
			R[1].nrecv + (i == 1 ? n : 0), R[1].nsend, max_ns);
}

static const struct snh_notif *last_recv(int i)
{
	ck_assert_uint_gt(R[i].nrecv, 0);
	return rec_find(i, UET_HSI_NOTIF_RECV, R[i].nrecv - 1);
}

static uint32_t a_initiator(void)
{
	return uet_ses_initiator_id(W.nic[0].pid, W.nic[0].ri);
}

#define PK_LEN		5000	/* three packets at MTU 2048 */
#define PK_TAG		0x5eed0000ull

START_TEST(test_peek)
{
	struct snh_world_cfg c;
	static uint8_t sbuf[PK_LEN], rbuf[PK_LEN];
	const struct snh_notif *n;

	snh_world_cfg_default(&c);
	world_up(&c);
	snh_fill(sbuf, sizeof(sbuf), 31);
	/* nothing there yet */
	post_rx_flags(1, true, PK_TAG, NULL, 0, 0x10, UET_HSI_EXT_PEEK, 0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, UET_HSI_ST_NO_MSG);
	ck_assert_uint_eq(recv_slot(n), 0x10);
	ck_assert(!n->has_cont);

	post_send(0, dest_of(0, 1), true, PK_TAG | 5, sbuf, sizeof(sbuf), 1,
		  true, 0xabcdef0123ull);
	ck_assert(wait_for(0, 1, 0, 0, 5 * SNH_SEC));	/* all arrived */
	/* a tag that does not match, with and without ignore bits */
	post_rx_flags(1, true, PK_TAG | 6, NULL, 0, 0x11, UET_HSI_EXT_PEEK,
		      0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	post_rx_flags(1, true, PK_TAG | 6, NULL, 0, 0x12, UET_HSI_EXT_PEEK,
		      0, 0x3);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(recv_slot(n), 0x12);
	ck_assert_uint_eq(n->recv.tag, PK_TAG | 5);
	ck_assert_uint_eq(n->recv.total_length, PK_LEN);
	ck_assert_uint_eq(n->recv.src_id, (uint32_t)W.nic[1].peer);
	ck_assert(!n->recv.is_inline);
	ck_assert(n->has_cont);
	ck_assert(n->contx.has_data);
	ck_assert_uint_eq(n->contx.header_data, 0xabcdef0123ull);
	ck_assert_uint_eq(n->contx.initiator, a_initiator());
	ck_assert(!n->contx.mr_valid && !n->contx.mr_released);
	/* a peek does not take it: peek again, then receive it */
	post_rx_flags(1, true, PK_TAG | 5, NULL, 0, 0x13, UET_HSI_EXT_PEEK,
		      0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, 0);
	post_recv(1, true, PK_TAG | 5, rbuf, sizeof(rbuf), 0x14);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(recv_slot(n), 0x14);
	ck_assert_uint_eq(snh_check(rbuf, PK_LEN, 31), PK_LEN);
	/* gone now */
	post_rx_flags(1, true, PK_TAG | 5, NULL, 0, 0x15, UET_HSI_EXT_PEEK,
		      0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	check_decoders();
	world_down();
}
END_TEST

START_TEST(test_claim)
{
	struct snh_world_cfg c;
	static uint8_t s1[PK_LEN], s2[300], r1[PK_LEN], r2[PK_LEN];
	const struct snh_notif *n;
	struct uet_snic_stats st;

	snh_world_cfg_default(&c);
	world_up(&c);
	snh_fill(s1, sizeof(s1), 41);
	snh_fill(s2, sizeof(s2), 42);
	memset(r2, 0xcc, sizeof(r2));
	post_send(0, dest_of(0, 1), true, PK_TAG, s1, sizeof(s1), 1, false,
		  0);
	post_send(0, dest_of(0, 1), true, PK_TAG, s2, sizeof(s2), 2, false,
		  0);
	ck_assert(wait_for(0, 2, 0, 0, 5 * SNH_SEC));
	/* PEEK|CLAIM reserves the first one under id 0xc1a1 */
	post_rx_flags(1, true, PK_TAG, NULL, 0, 0x20,
		      UET_HSI_EXT_PEEK | UET_HSI_EXT_CLAIM, 0xc1a1, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(n->recv.total_length, PK_LEN);
	/* a normal receive and a peek no longer see the claimed message */
	post_recv(1, true, PK_TAG, r2, sizeof(r2), 0x21);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(recv_slot(n), 0x21);
	ck_assert_uint_eq(n->recv.total_length, sizeof(s2));
	ck_assert_uint_eq(snh_check(r2, sizeof(s2), 42), sizeof(s2));
	post_rx_flags(1, true, PK_TAG, NULL, 0, 0x22, UET_HSI_EXT_PEEK, 0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	/* CLAIM with another id: nothing */
	post_rx_flags(1, true, 0, r1, sizeof(r1), 0x23, UET_HSI_EXT_CLAIM,
		      0xc1a2, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	ck_assert_uint_eq(recv_slot(last_recv(1)), 0x23);
	/* CLAIM receives it (its own tag is not used) */
	post_rx_flags(1, true, 0x999, r1, sizeof(r1), 0x24,
		      UET_HSI_EXT_CLAIM, 0xc1a1, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(recv_slot(n), 0x24);
	ck_assert_uint_eq(n->recv.tag, PK_TAG);
	ck_assert_uint_eq(n->recv.total_length, PK_LEN);
	ck_assert_uint_eq(snh_check(r1, PK_LEN, 41), PK_LEN);
	get_stats(1, &st);
	ck_assert_uint_eq(st.ses.unexp_bytes, 0);
	check_decoders();
	world_down();
}
END_TEST

START_TEST(test_discard)
{
	struct snh_world_cfg c;
	static uint8_t big[200000], s2[700], s3[600], r3[1000];
	const struct snh_notif *n;
	struct uet_snic_stats st;
	unsigned int k;

	snh_world_cfg_default(&c);
	world_up(&c);
	snh_fill(big, sizeof(big), 51);
	snh_fill(s2, sizeof(s2), 52);
	snh_fill(s3, sizeof(s3), 53);
	/* a rendezvous message (above the 64 KiB threshold) and a small one */
	post_send(0, dest_of(0, 1), true, 1, big, sizeof(big), 1, false, 0);
	post_send(0, dest_of(0, 1), true, 2, s2, sizeof(s2), 2, false, 0);
	ck_assert(wait_for(0, 1, 0, 0, 5 * SNH_SEC));	/* s2 done */
	get_stats(1, &st);
	ck_assert_uint_eq(st.ses.unexpected, 2);
	/* PEEK|CLAIM then CLAIM|DISCARD the rendezvous message */
	post_rx_flags(1, true, 1, NULL, 0, 0x30,
		      UET_HSI_EXT_PEEK | UET_HSI_EXT_CLAIM, 0xd1, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, 0);
	ck_assert_uint_eq(last_recv(1)->recv.total_length, sizeof(big));
	post_rx_flags(1, true, 0, NULL, 0, 0x31,
		      UET_HSI_EXT_CLAIM | UET_HSI_EXT_DISCARD, 0xd1, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	/* the discard describes the message it dropped, as the peek did */
	ck_assert_uint_eq(n->recv.total_length, sizeof(big));
	ck_assert_uint_eq(n->recv.tag, 1);
	ck_assert_uint_eq(recv_slot(n), 0x31);
	/* the initiator completes normally, nothing was pulled */
	ck_assert(wait_for(0, 2, 0, 0, 5 * SNH_SEC));
	for (k = 0; k < 2; k++) {
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_uint_eq(n->send.status, 0);
	}
	get_stats(1, &st);
	ck_assert_uint_eq(st.ses.rdzv_read_pkts, 0);
	/* a second CLAIM|DISCARD of the same id finds nothing */
	post_rx_flags(1, true, 0, NULL, 0, 0x32,
		      UET_HSI_EXT_CLAIM | UET_HSI_EXT_DISCARD, 0xd1, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	/* PEEK|DISCARD the small one: reported like a peek, then gone */
	post_rx_flags(1, true, 2, NULL, 0, 0x33,
		      UET_HSI_EXT_PEEK | UET_HSI_EXT_DISCARD, 0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(n->recv.tag, 2);
	ck_assert_uint_eq(n->recv.total_length, sizeof(s2));
	post_rx_flags(1, true, 2, NULL, 0, 0x34,
		      UET_HSI_EXT_PEEK | UET_HSI_EXT_DISCARD, 0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	ck_assert_uint_eq(last_recv(1)->recv.status, UET_HSI_ST_NO_MSG);
	get_stats(1, &st);
	ck_assert_uint_eq(st.ses.unexp_bytes, 0);
	/* the next message with that tag goes to the next receive */
	post_recv(1, true, 2, r3, sizeof(r3), 0x35);
	post_send(0, dest_of(0, 1), true, 2, s3, sizeof(s3), 3, false, 0);
	ck_assert(wait_notifs(1, 1, 5 * SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(recv_slot(n), 0x35);
	ck_assert_uint_eq(n->recv.total_length, sizeof(s3));
	ck_assert_uint_eq(snh_check(r3, sizeof(s3), 53), sizeof(s3));
	check_decoders();
	world_down();
}
END_TEST

START_TEST(test_cancel)
{
	struct snh_world_cfg c;
	static uint8_t rb[100], sb[50];
	const struct snh_notif *n;
	unsigned int k, before;

	snh_world_cfg_default(&c);
	world_up(&c);
	memset(rb, 0xcc, sizeof(rb));
	snh_fill(sb, sizeof(sb), 61);
	post_recv(1, false, 0, rb, sizeof(rb), 0x77);
	/* an unknown one: nothing is written */
	before = R[1].n;
	post_rx_flags(1, false, 0, NULL, 0, 0x99, UET_HSI_EXT_CANCEL, 0, 0);
	snh_world_settle(&W, 100 * SNH_MS);
	ck_assert_uint_eq(R[1].n, before);
	post_rx_flags(1, false, 0, NULL, 0, 0x77, UET_HSI_EXT_CANCEL, 0, 0);
	ck_assert(wait_notifs(1, 1, SNH_SEC));
	n = last_recv(1);
	ck_assert_uint_eq(n->recv.status, UET_HSI_ST_CANCELED);
	ck_assert_uint_eq(recv_slot(n), 0x77);
	/* a message sent now is unexpected: the buffer stays untouched */
	post_send(0, dest_of(0, 1), false, 0, sb, sizeof(sb), 1, false, 0);
	ck_assert(wait_for(0, 1, 0, 0, 5 * SNH_SEC));
	for (k = 0; k < sizeof(rb); k++)
		ck_assert_uint_eq(rb[k], 0xcc);
	/* cancelling again (already done) writes nothing */
	before = R[1].n;
	post_rx_flags(1, false, 0, NULL, 0, 0x77, UET_HSI_EXT_CANCEL, 0, 0);
	snh_world_settle(&W, 100 * SNH_MS);
	ck_assert_uint_eq(R[1].n, before);
	check_decoders();
	world_down();
}
END_TEST

/* A second queue on NIC `at`, polled by the pumps below. */
static struct snh_nic X;
static struct rec RX;

static void extra_up(int at, uint16_t pid, uint8_t mode)
{
	int ret;

	X = W.nic[at];
	X.q = NULL;
	X.pid = pid;
	X.qmode = mode;
	X.cont_wait = false;
	X.err[0] = 0;
	ret = snh_nic_open_queue(&X, 0, 0);
	ck_assert_msg(ret == 0, "extra queue: %d", ret);
	RX.v = calloc(REC_MAX, sizeof(*RX.v));
	ck_assert_ptr_nonnull(RX.v);
	RX.n = RX.nrecv = RX.nsend = RX.nevent = RX.lost = 0;
	X.fn = rec_fn;
	X.arg = &RX;
}

static void extra_down(void)
{
	X.dev->ops->queue_close(X.q);
	X.q = NULL;
	free(RX.v);
	RX.v = NULL;
}

struct xwant {
	struct want w;
	unsigned int xrecv, xsend;
};

static bool xwant_pump(void *arg)
{
	struct xwant *x = arg;

	snh_poll(&X);
	return want_pump(&x->w) && RX.nrecv >= x->xrecv &&
	       RX.nsend >= x->xsend;
}

static bool xwait(unsigned int rb, unsigned int sa, unsigned int xsend,
		  unsigned int xrecv, uint64_t max_ns)
{
	struct xwant x;

	memset(&x, 0, sizeof(x));
	x.w.recv[1] = rb;
	x.w.send[0] = sa;
	x.xsend = xsend;
	x.xrecv = xrecv;
	return snh_world_run(&W, xwant_pump, &x, max_ns, STEPS_MAX);
}

#define MR_NBUF		12
#define MR_BUFLEN	16384u
#define MR_MIN		1024u
#define MR_NMSG		24		/* per source */

static size_t mr_len(unsigned int src, unsigned int i)
{
	/* 1 .. 4500 bytes, some over two packets */
	return 1 + (src * 7919u + i * 2731u) % 4500u;
}

static void multi_recv_run(uint32_t drop_ppm)
{
	static uint8_t sb[2][MR_NMSG][4500];
	static uint8_t mb[MR_NBUF][MR_BUFLEN];
	static uint8_t seen[2][MR_NMSG];
	struct snh_world_cfg c;
	const struct snh_notif *n;
	unsigned int released[MR_NBUF];
	struct { uint64_t off, len; } used[MR_NBUF][2 * MR_NMSG + 1];
	unsigned int nused[MR_NBUF];
	unsigned int k, j, s, i, msgs = 0, b;
	uint32_t id;
	size_t len;
	struct uet_hsi_cmd_ext x;

	snh_world_cfg_default(&c);
	c.faults.drop_ppm = drop_ppm;
	world_up(&c);
	extra_up(0, 0x31, 0);
	memset(released, 0, sizeof(released));
	memset(nused, 0, sizeof(nused));
	memset(seen, 0, sizeof(seen));
	memset(&x, 0, sizeof(x));
	x.ext_flags = UET_HSI_EXT_MULTI_RECV;
	x.ignore = MR_MIN;
	for (b = 0; b < MR_NBUF; b++)
		post_recv_ext(1, false, 0, mb[b], MR_BUFLEN, b, true, &x, 0);
	/* two sources: NIC A's queue and a second queue on NIC A */
	for (i = 0; i < MR_NMSG; i++) {
		for (s = 0; s < 2; s++) {
			struct snh_cmd cmd;

			id = s << 8 | i;
			len = mr_len(s, i);
			snh_fill(sb[s][i], len, id);
			memset(&cmd, 0, sizeof(cmd));
			cmd.family = UET_HSI_FAMILY_MSG;
			cmd.variant = UET_HSI_VARIANT_SEND;
			cmd.completion = true;
			cmd.dest = dest_of(0, 1);
			cmd.metadata = id;
			cmd.buf = sb[s][i];
			cmd.len = len;
			cmd.nseg = 1;
			ck_assert_int_eq(snh_post_ring(s ? &X : &W.nic[0],
						       &cmd), 0);
		}
	}
	ck_assert_msg(xwait(MR_NMSG * 2, MR_NMSG, MR_NMSG, 0, 60 * SNH_SEC),
		      "multi-recv: %u receives, %u + %u sends", R[1].nrecv,
		      R[0].nsend, RX.nsend);
	/* retire the buffers still posted: cancel */
	for (b = 0; b < MR_NBUF; b++)
		post_rx_flags(1, false, 0, NULL, 0, b, UET_HSI_EXT_CANCEL, 0,
			      0);
	snh_world_settle(&W, 100 * SNH_MS);
	check_decoders();
	ck_assert(!X.err[0]);
	for (k = 0; k < R[0].nsend; k++)
		ck_assert_uint_eq(rec_find(0, UET_HSI_NOTIF_SEND, k)->send.status,
				  0);
	for (k = 0; k < RX.nsend; k++)
		ck_assert_uint_eq(rec_find(0, UET_HSI_NOTIF_SEND, k)->send.status,
				  0);
	for (k = 0; k < R[1].nrecv; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		b = recv_slot(n);
		ck_assert_uint_lt(b, MR_NBUF);
		ck_assert_msg(n->has_cont, "multi-recv without continuation");
		ck_assert_msg(!released[b], "buffer %u: entry after release",
			      b);
		if (n->contx.mr_released)
			released[b]++;
		if (!n->contx.mr_valid) {
			/* the release of a buffer with nothing in flight */
			ck_assert(n->contx.mr_released);
			ck_assert_uint_eq(n->recv.total_length, 0);
			ck_assert(n->recv.status == 0 ||
				  n->recv.status == UET_HSI_ST_CANCELED);
			continue;
		}
		ck_assert_uint_eq(n->recv.status, 0);
		len = n->recv.total_length;
		ck_assert_uint_le(n->contx.mr_offset + len, MR_BUFLEN);
		id = len >= 4 ? uet_get_le32(mb[b] + n->contx.mr_offset) : 0;
		if (len < 8) {
			/* too short for the id: find the message by length */
			for (s = 0; s < 2; s++)
				for (i = 0; i < MR_NMSG; i++)
					if (mr_len(s, i) == len && !seen[s][i])
						id = s << 8 | i;
		}
		s = id >> 8;
		i = id & 0xff;
		ck_assert_uint_lt(s, 2);
		ck_assert_uint_lt(i, MR_NMSG);
		ck_assert_uint_eq(len, mr_len(s, i));
		ck_assert_msg(!seen[s][i]++, "message %u twice", id);
		ck_assert_uint_eq(snh_check(mb[b] + n->contx.mr_offset, len,
					    id), len);
		ck_assert_uint_eq(n->recv.src_id, (uint32_t)W.nic[1].peer);
		ck_assert_uint_eq(n->contx.initiator,
				  uet_ses_initiator_id(s ? X.pid : W.nic[0].pid,
						       W.nic[0].ri));
		for (j = 0; j < nused[b]; j++)
			ck_assert_msg(n->contx.mr_offset + len <=
				      used[b][j].off ||
				      used[b][j].off + used[b][j].len <=
				      n->contx.mr_offset,
				      "buffer %u: overlap at %llu", b,
				      (unsigned long long)n->contx.mr_offset);
		used[b][nused[b]].off = n->contx.mr_offset;
		used[b][nused[b]++].len = len;
		msgs++;
	}
	ck_assert_uint_eq(msgs, 2 * MR_NMSG);
	for (b = 0; b < MR_NBUF; b++)
		ck_assert_msg(released[b] == 1, "buffer %u released %u times",
			      b, released[b]);
	extra_down();
	world_down();
}

START_TEST(test_multi_recv)
{
	multi_recv_run(0);
}
END_TEST

START_TEST(test_multi_recv_loss)
{
	multi_recv_run(100000);
}
END_TEST

/* UUD queues: single-packet messages, a lost packet loses the message
 * and the send still completes; a message above one packet fails. */
START_TEST(test_uud)
{
	static uint8_t sb[40][2100], rb[40][2100];
	struct snh_world_cfg c;
	const struct snh_notif *n;
	struct uet_hsi_dev_limits lim;
	struct uet_snic_stats st;
	unsigned int k, got = 0, cancelled = 0, sends = 0;
	size_t max, len;
	int round;

	snh_world_cfg_default(&c);
	c.qmode[0] = c.qmode[1] = UET_HSI_QUEUE_MODE_UUD;
	world_up(&c);
	max = uet_snic_max_single_pkt(W.nic[0].dev);
	ck_assert_uint_eq(max, 2048 - 12 - 32);
	ck_assert_int_eq(W.nic[0].dev->ops->get_limits(W.nic[0].dev, &lim),
			 0);
	ck_assert_uint_eq(lim.max_single_pkt, max);
	ck_assert_uint_eq(lim.mtu, 2048);
	ck_assert_uint_ge(lim.inject_max, 4096);
	for (round = 0; round < 2; round++) {
		uet_link_mem_fabric_set_faults(W.fab, &(struct uet_link_mem_faults){
			.drop_ppm = round ? 300000 : 0,
			.delay_ns = 2 * SNH_US });
		for (k = 0; k < 20; k++) {
			len = 1 + (k * 577u) % max;
			if (k == 19)
				len = max;
			snh_fill(sb[round * 20 + k], len, round * 20 + k);
			/* tagged by id: losses do not shift the matching */
			post_recv(1, true, round * 20 + k,
				  rb[round * 20 + k], 2100, round * 20 + k);
			post_send(0, dest_of(0, 1), true, round * 20 + k,
				  sb[round * 20 + k], len, round * 20 + k,
				  false, 0);
		}
		sends += 20;
		ck_assert(wait_for(0, sends, 0, 0, 5 * SNH_SEC));
		snh_world_settle(&W, 100 * SNH_MS);
	}
	/* too big for one packet */
	post_send(0, dest_of(0, 1), false, 0, sb[0], max + 1, 0xbad, false, 0);
	ck_assert(wait_for(0, sends + 1, 0, 0, SNH_SEC));
	n = rec_find(0, UET_HSI_NOTIF_SEND, sends);
	ck_assert_uint_eq(n->send.status, UET_HSI_ST_TOO_LONG);
	ck_assert_uint_eq(n->send.op_context, 0xbad);
	for (k = 0; k < sends; k++) {
		n = rec_find(0, UET_HSI_NOTIF_SEND, k);
		ck_assert_uint_eq(n->send.status, 0);
	}
	/* the receives of lost messages are still posted: cancel them */
	for (k = 0; k < 40; k++)
		post_rx_flags(1, true, 0, NULL, 0, k, UET_HSI_EXT_CANCEL, 0,
			      0);
	snh_world_settle(&W, 100 * SNH_MS);
	for (k = 0; k < R[1].nrecv; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		if (n->recv.status == UET_HSI_ST_CANCELED) {
			cancelled++;
			continue;
		}
		ck_assert_uint_eq(n->recv.status, 0);
		ck_assert_uint_eq(n->recv.tag, recv_slot(n));
		len = n->recv.total_length;
		ck_assert_uint_eq(snh_check(rb[recv_slot(n)], len,
					    recv_slot(n)), len);
		got++;
	}
	ck_assert_uint_eq(got + cancelled, 40);
	ck_assert_uint_ge(got, 20);	/* the clean round */
	ck_assert_uint_lt(got, 40);	/* 30 % loss lost some */
	get_stats(0, &st);
	ck_assert_uint_eq(st.pds.retx, 0);
	check_decoders();
	world_down();
}
END_TEST

/* A RUD queue and a UUD queue on one device, both ways: RUD into the
 * UUD queue is delivered; UUD into the RUD (RDM) queue is refused and
 * counted (issue 15: nothing enters an RDM endpoint without a PDC). */
START_TEST(test_rud_uud_queues)
{
	static uint8_t big[20000], rbig[20000], sm[300], rsm[300];
	static uint8_t back[100], rback[100];
	struct snh_world_cfg c;
	const struct snh_notif *n;
	struct snh_cmd cmd;
	unsigned int k;

	snh_world_cfg_default(&c);
	world_up(&c);
	extra_up(0, 0x33, UET_HSI_QUEUE_MODE_UUD);
	snh_fill(big, sizeof(big), 71);
	snh_fill(sm, sizeof(sm), 72);
	snh_fill(back, sizeof(back), 73);
	post_recv(1, true, 1, rbig, sizeof(rbig), 1);
	post_recv(1, true, 2, rsm, sizeof(rsm), 2);
	/* RUD queue: a multi-packet message */
	post_send(0, dest_of(0, 1), true, 1, big, sizeof(big), 1, false, 0);
	/* UUD queue: a small one */
	memset(&cmd, 0, sizeof(cmd));
	cmd.family = UET_HSI_FAMILY_TAGGED;
	cmd.variant = UET_HSI_VARIANT_SEND;
	cmd.completion = true;
	cmd.tag = 2;
	cmd.dest = dest_of(0, 1);
	cmd.metadata = 2;
	cmd.buf = sm;
	cmd.len = sizeof(sm);
	ck_assert_int_eq(snh_post_ring(&X, &cmd), 0);
	/* B (RUD) to the UUD queue */
	memset(&cmd, 0, sizeof(cmd));
	cmd.family = UET_HSI_FAMILY_MSG;
	cmd.variant = UET_HSI_VARIANT_RECV;
	cmd.completion = true;
	cmd.metadata = 3;
	cmd.buf = rback;
	cmd.len = sizeof(rback);
	ck_assert_int_eq(snh_post_ring(&X, &cmd), 0);
	post_send(1, UET_HSI_DEST(W.nic[1].peer, X.pid, X.ri), false, 0,
		  back, sizeof(back), 3, false, 0);
	ck_assert(xwait(1, 1, 1, 1, 10 * SNH_SEC));
	ck_assert(wait_for(0, 1, 1, 1, 10 * SNH_SEC));
	snh_world_settle(&W, 100 * SNH_MS);
	ck_assert_uint_eq(R[1].nrecv, 1);
	{
		struct uet_snic_drops d;

		ck_assert_int_eq(uet_snic_get_drops(W.nic[1].dev, &d), 0);
		ck_assert_uint_eq(d.v[UET_HSI_DROP_MODE], 1);
		ck_assert_str_eq(uet_snic_drop_name(UET_HSI_DROP_MODE),
				 "mode_refused");
	}
	for (k = 0; k < 1; k++) {
		n = rec_find(1, UET_HSI_NOTIF_RECV, k);
		ck_assert_uint_eq(n->recv.status, 0);
		if (recv_slot(n) == 1) {
			ck_assert_uint_eq(snh_check(rbig, sizeof(big), 71),
					  sizeof(big));
		} else {
			ck_assert_uint_eq(snh_check(rsm, sizeof(sm), 72),
					  sizeof(sm));
			/* a non-zero pid: the continuation names it */
			ck_assert(n->has_cont);
			ck_assert_uint_eq(n->contx.initiator,
					  uet_ses_initiator_id(X.pid, X.ri));
		}
	}
	n = rec_find(0, UET_HSI_NOTIF_SEND, 0);
	ck_assert_uint_eq(n->send.status, 0);
	ck_assert_uint_eq(rec_find(1, UET_HSI_NOTIF_SEND, 0)->send.status, 0);
	n = NULL;
	for (k = 0; k < RX.n; k++) {
		if (RX.v[k].type == UET_HSI_NOTIF_SEND)
			ck_assert_uint_eq(RX.v[k].send.status, 0);
		if (RX.v[k].type == UET_HSI_NOTIF_RECV)
			n = &RX.v[k];
	}
	ck_assert_ptr_nonnull(n);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(snh_check(rback, sizeof(back), 73), sizeof(back));
	check_decoders();
	extra_down();
	world_down();
}
END_TEST

static Suite *snic_suite(void)
{
	Suite *s = suite_create("snic");
	TCase *tc;

	tc = tcase_create("mixed");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_mixed_perfect);
	tcase_add_test(tc, test_mixed_clean);
	tcase_add_test(tc, test_mixed_drop5);
	tcase_add_test(tc, test_mixed_drop30);
	suite_add_tcase(s, tc);

	tc = tcase_create("protocol");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_establish_race);
	tcase_add_test(tc, test_queue_mode_explicit);
	tcase_add_test(tc, test_psn_wrap);
	tcase_add_test(tc, test_rod_order);
	tcase_add_test(tc, test_rud_order);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bad_job);
	tcase_add_test(tc, test_bad_pid_index);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_unexp_bound);
	tcase_add_test(tc, test_peer_stopped);
	tcase_add_test(tc, test_peer_stopped_before_establish);
	tcase_add_test(tc, test_peer_closed);
	tcase_add_test(tc, test_rdzv_quiet_receiver);
	tcase_add_test(tc, test_rdzv_quiet_receiver_unexpected);
	suite_add_tcase(s, tc);

	tc = tcase_create("conventions");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_directed_and_unknown_src);
	tcase_add_test(tc, test_invalid_descriptor);
	tcase_add_test(tc, test_rings_full);
	suite_add_tcase(s, tc);

	tc = tcase_create("receive_features");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_peek);
	tcase_add_test(tc, test_claim);
	tcase_add_test(tc, test_discard);
	tcase_add_test(tc, test_cancel);
	tcase_add_test(tc, test_multi_recv);
	tcase_add_test(tc, test_multi_recv_loss);
	tcase_add_test(tc, test_uud);
	tcase_add_test(tc, test_rud_uud_queues);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_suite)
