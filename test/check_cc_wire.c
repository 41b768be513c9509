/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion signals on the wire (issue 17): an ECN-marked request is
 * acknowledged with the m flag and an ACK_CC whose NSCC state reports the
 * bytes received; the initiator counts it.  A trimmed request (DSCP
 * trimmed, payload cut) is answered with the TRIMMED NACK, never
 * delivered, and the initiator sends it again at once.  RCCC credit and
 * both-algorithm ACK_CCX.  Known-value packing of ack_cc_state.
 *
 * Two PDS instances on the simulated fabric; the test takes each
 * datagram off the receiving host's link itself, so that it can mark,
 * trim and decode it before handing it to PDS with uet_pds_rx_tos().
 */
#include "config.h"

#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_cms_wire.h"
#include "uet_link_sim.h"
#include "uet_link_udp.h"
#include "uet_pds.h"
#include "uet_pds_cc.h"
#include "uet_pds_wire.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define PLEN	1000u

struct w {
	struct uet_link_sim *sim;
	struct uet_link *l[2];
	struct uet_link_addr a[2];
	struct uet_pds *pds[2];
	struct uet_pds_key key;		/* 0 -> 1 */
	struct uet_pds_tx_pkt pkt[4];
	uint8_t payload[PLEN];
	unsigned int rx, done, rooms;
	uint64_t now;
};

/* w_new's options: pacing, the rate (0: 10 Gbit/s). */
static bool w_pace, w_csig;
static uint64_t w_rate;

static int w_rx(void *ctx, const struct uet_pds_rx_info *info,
		struct uet_pds_rsp *rsp)
{
	struct w *w = ctx;

	(void)info;
	(void)rsp;
	w->rx++;
	return 0;
}

static void w_done(void *ctx, struct uet_pds_tx_pkt *pkt, int status,
		   uint8_t nh, const uint8_t *rsp, size_t len)
{
	struct w *w = ctx;

	(void)pkt;
	(void)nh;
	(void)rsp;
	(void)len;
	if (status == -ECANCELED)
		return;		/* w_free() with packets outstanding */
	ck_assert_int_eq(status, 0);
	w->done++;
}

static void w_room(void *ctx)
{
	((struct w *)ctx)->rooms++;
}

static const struct uet_pds_upcalls w_up = {
	.rx = w_rx, .tx_done = w_done, .tx_room = w_room
};

static struct w *w_new(uint8_t cc)
{
	struct uet_link_sim_port_cfg pc;
	struct uet_pds_cfg cfg;
	struct w *w = calloc(1, sizeof(*w));
	int sw, h, k;

	ck_assert_ptr_nonnull(w);
	memset(&pc, 0, sizeof(pc));
	pc.rate_bps = 10000000000ull;
	pc.delay_ns = 1000;
	ck_assert_int_eq(uet_link_sim_create(&w->sim, 1, 9000), 0);
	sw = uet_link_sim_add_switch(w->sim);
	for (k = 0; k < 2; k++) {
		h = uet_link_sim_add_host(w->sim, (uint16_t)(500 + k),
					  &w->l[k]);
		ck_assert_int_ge(h, 0);
		ck_assert_int_ge(uet_link_sim_connect(w->sim, h, sw, &pc, &pc),
				 0);
		ck_assert_int_eq(uet_link_addr_from_str(&w->a[k], "127.0.0.1",
							(uint16_t)(500 + k)),
				 0);
		uet_pds_cfg_default(&cfg);
		cfg.seed = 11 + (uint64_t)k;
		cfg.cc = cc;
		cfg.cc_rate_bps = w_rate ? w_rate : 10000000000ull;
		cfg.cc_base_rtt_ns = 10000;
		cfg.cc_pace = w_pace;
		cfg.cc_csig = w_csig;
		ck_assert_int_eq(uet_pds_create(&w->pds[k], &cfg, w->l[k],
						&w_up, w), 0);
	}
	w->key.job_id = 1;
	w->key.dst = w->a[1];
	w->key.mode = UET_PDS_MODE_RUD;
	for (k = 0; k < 4; k++) {
		w->pkt[k].next_hdr = UET_HDR_REQUEST_STD;
		w->pkt[k].hdr_len = 8;
		w->pkt[k].ar = true;
		w->pkt[k].iovcnt = 1;
		w->pkt[k].iov[0].iov_base = w->payload;
		w->pkt[k].iov[0].iov_len = PLEN;
	}
	w->now = 1000000;
	uet_link_sim_run(w->sim, w->now);
	return w;
}

static void w_free(struct w *w)
{
	uet_pds_destroy(w->pds[0]);
	uet_pds_destroy(w->pds[1]);
	uet_link_sim_destroy(w->sim);
	free(w);
}

/* Let the fabric carry what was sent; the next datagram at host k
 * (copied into buf), its TOS and length. */
static size_t w_take(struct w *w, int k, uint8_t *buf, uint8_t *tos)
{
	struct uet_link_rx rx;

	w->now += 100000;
	uet_link_sim_run(w->sim, w->now);
	ck_assert_int_eq(w->l[k]->ops->recv(w->l[k], &rx, 1), 1);
	memcpy(buf, rx.buf, rx.len);
	*tos = rx.tos;
	return rx.len;
}

START_TEST(test_nscc_pack)
{
	uint64_t st, svc;
	uint32_t rb;
	uint16_t ooo;
	uint8_t pend;

	st = uet_pds_cc_nscc_pack(6400, 2, 8192, 3);
	ck_assert_uint_eq(st, (100ull << 48) | (2ull << 40) | (128ull << 16) |
			      3);
	uet_pds_cc_nscc_unpack(st, &svc, &pend, &rb, &ooo);
	ck_assert_uint_eq(svc, 6400);
	ck_assert_uint_eq(pend, 2);
	ck_assert_uint_eq(rb, 8192);
	ck_assert_uint_eq(ooo, 3);
	/* saturation, not wrap */
	st = uet_pds_cc_nscc_pack(1ull << 40, 0, 0xffffffffu, 0);
	ck_assert_uint_eq(st >> 48, 0xffff);
	ck_assert_uint_eq((st >> 16) & 0xffffff, 0xffffff);
}
END_TEST

/* A CE-marked request: ACK_CC with m = 1 and rcvd_bytes; an unmarked
 * one: m = 0.  The initiator counts the marked ACK. */
START_TEST(test_ecn_echo)
{
	struct w *w = w_new(UET_PDS_CC_NSCC);
	struct uet_pds_cc_info ci;
	struct uet_pds_ack_cc ack;
	uint64_t svc;
	uint8_t buf[9000], tos, pend;
	uint32_t rb;
	uint16_t ooo;
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[i],
					      w->now), 0);
		len = w_take(w, 1, buf, &tos);
		/* every datagram leaves ECN-capable */
		ck_assert_uint_eq(tos & UET_LINK_ECN_MASK, UET_LINK_ECN_ECT0);
		if (i == 0)
			tos |= UET_LINK_ECN_CE;
		uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
		ck_assert_uint_eq(w->rx, (unsigned int)i + 1);
		len = w_take(w, 0, buf, &tos);
		ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_ACK_CC);
		ck_assert_int_gt(uet_pds_ack_cc_decode(UET_WIRE_UEPLUS, &ack, buf, len), 0);
		ck_assert_uint_eq(ack.ack.m, i == 0);
		ck_assert_uint_eq(ack.cc_type, UET_CC_NSCC);
		uet_pds_cc_nscc_unpack(ack.ack_cc_state, &svc, &pend, &rb,
				       &ooo);
		ck_assert_uint_ge(rb, PLEN + 8 + UET_PDS_RUD_ROD_REQ_LEN);
		ck_assert_uint_eq(ooo, 0);
		uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);
	}
	ck_assert_uint_eq(w->done, 2);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci), 0);
	ck_assert_uint_eq(ci.acks_marked, 1);
	ck_assert_uint_eq(ci.inflight, 0);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[1], &w->a[0], &ci), 0);
	ck_assert_uint_eq(ci.ce_rx, 1);
	w_free(w);
}
END_TEST

/* With congestion management off, ACKs stay plain (12 bytes, m = 0)
 * whatever the TOS. */
START_TEST(test_off_plain_ack)
{
	struct w *w = w_new(0);
	struct uet_pds_cc_info ci;
	uint8_t buf[9000], tos;
	size_t len;

	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], UET_LINK_ECN_CE, w->now);
	len = w_take(w, 0, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_ACK);
	ck_assert_uint_eq(len, UET_PDS_ACK_LEN);
	ck_assert_uint_eq(buf[1] & 0x20, 0);	/* m */
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci),
			 -ENOENT);
	w_free(w);
}
END_TEST

/* A trimmed request: TRIMMED NACK (m echoed), not delivered; the
 * initiator resends it at once (same virtual time, no timeout). */
START_TEST(test_trimmed_nack)
{
	struct w *w = w_new(UET_PDS_CC_NSCC);
	struct uet_pds_rud_rod_req h, h2;
	struct uet_pds_cc_info ci;
	struct uet_pds_nack nack;
	uint8_t buf[9000], tos;
	size_t len;
	uint64_t t;

	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	ck_assert_int_gt(uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, &h, buf, len), 0);
	tos = (uint8_t)(UET_LINK_DSCP_TRIMMED << 2 | UET_LINK_ECN_CE);
	uet_pds_rx_tos(w->pds[1], buf, UET_LINK_SIM_TRIM_BYTES, &w->a[0], tos,
		       w->now);
	ck_assert_uint_eq(w->rx, 0);
	len = w_take(w, 0, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_NACK);
	ck_assert_int_gt(uet_pds_nack_decode(UET_WIRE_UEPLUS, &nack, buf, len), 0);
	ck_assert_uint_eq(nack.nack_code, UET_NACK_TRIMMED);
	ck_assert_uint_eq(nack.nack_psn, h.psn);
	ck_assert(nack.m);
	ck_assert_uint_eq(nack.dpdcid, h.spdcid);
	t = w->now;
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, t);
	uet_pds_timer(w->pds[0], t);
	ck_assert_uint_eq(uet_link_sim_next_event(w->sim) - t < 10000, 1);
	len = w_take(w, 1, buf, &tos);
	ck_assert_int_gt(uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, &h2, buf, len), 0);
	ck_assert_uint_eq(h2.psn, h.psn);
	ck_assert(h2.retx);
	ck_assert_uint_eq(len, UET_PDS_RUD_ROD_REQ_LEN + 8 + PLEN);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci), 0);
	ck_assert_uint_eq(ci.trims, 1);
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	ck_assert_uint_eq(w->rx, 1);
	/* a trimmed datagram too short for a request header: malformed */
	uet_pds_rx_tos(w->pds[1], buf, 8, &w->a[0],
		       UET_LINK_DSCP_TRIMMED << 2, w->now);
	w_free(w);
}
END_TEST

/* RCCC: ACK_CC CREDIT with the receiver's grant, which the sender keeps
 * as its window; both: ACK_CCX carrying NSCC state and the credit. */
START_TEST(test_credit)
{
	struct uet_pds_ack_ccx ccx;
	struct uet_pds_ack_cc ack;
	struct uet_pds_cc_info ci;
	uint8_t buf[9000], tos;
	struct w *w;
	size_t len;

	w = w_new(UET_PDS_CC_RCCC);
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	len = w_take(w, 0, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_ACK_CC);
	ck_assert_int_gt(uet_pds_ack_cc_decode(UET_WIRE_UEPLUS, &ack, buf, len), 0);
	ck_assert_uint_eq(ack.cc_type, UET_CC_CREDIT);
	/* one source: BDP (10 Gbit/s x 10 us = 12500 B) + 1/8 */
	ck_assert_uint_eq(ack.ack_cc_state, 12500 + 12500 / 8);
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci), 0);
	ck_assert_uint_eq(ci.credit, 12500 + 12500 / 8);
	w_free(w);

	w = w_new(UET_PDS_CC_NSCC | UET_PDS_CC_RCCC);
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	len = w_take(w, 0, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_ACK_CCX);
	ck_assert_int_gt(uet_pds_ack_ccx_decode(UET_WIRE_UEPLUS, &ccx, buf, len), 0);
	ck_assert_uint_eq(ccx.cc_type, UET_CC_NSCC);
	ck_assert_uint_eq(uet_get_be64(ccx.ack_ccx_state + 8),
			  12500 + 12500 / 8);
	ck_assert_uint_ne(uet_get_be64(ccx.ack_ccx_state) & 0xffffff0000ull,
			  0);	/* rcvd_bytes */
	w_free(w);
}
END_TEST

/* Spraying: consecutive packets of one PDC leave with the entropies of
 * its set, round-robin. */
START_TEST(test_spray_entropies)
{
	struct uet_pds_cfg cfg;
	struct uet_pds_cc_info ci;
	struct w *w = w_new(UET_PDS_CC_NSCC);
	unsigned int i;

	uet_pds_destroy(w->pds[0]);
	uet_pds_cfg_default(&cfg);
	cfg.seed = 5;
	cfg.cc = UET_PDS_CC_NSCC;
	cfg.cc_entropies = 4;
	ck_assert_int_eq(uet_pds_create(&w->pds[0], &cfg, w->l[0], &w_up, w),
			 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[i],
					      w->now), 0);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci), 0);
	ck_assert_uint_eq(ci.nent, 4);
	ck_assert_uint_eq(ci.inflight,
			  4 * (UET_PDS_RUD_ROD_REQ_LEN + 8 + PLEN));
	/* the simulated fabric's entropies are not source ports: sprayed
	 * from the first packet, round-robin */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(w->pkt[i].priv.entropy, ci.ent[i]);
	w_free(w);
}
END_TEST

/* ---- multipath over UDP ---- */

/* A link that forwards to a UDP link and records the source port of
 * every datagram it returns. */
struct tap_link {
	struct uet_link base;
	struct uet_link *udp;
	unsigned int n;
	uint16_t port[256];
};

static int tap_send(struct uet_link *l, const struct uet_link_pkt *p,
		    unsigned int n)
{
	struct tap_link *t = (struct tap_link *)(void *)l;

	return t->udp->ops->send(t->udp, p, n);
}

static int tap_recv(struct uet_link *l, struct uet_link_rx *rx,
		    unsigned int n)
{
	struct tap_link *t = (struct tap_link *)(void *)l;
	const struct sockaddr_in *sin;
	int got, i;

	got = t->udp->ops->recv(t->udp, rx, n);
	for (i = 0; i < got; i++) {
		sin = (const void *)&rx[i].src.ss;
		if (t->n < 256 && rx[i].buf[0] >> 3 == UET_PDS_TYPE_RUD_REQ)
			t->port[t->n++] = ntohs(sin->sin_port);
	}
	return got;
}

static int tap_fd(struct uet_link *l)
{
	return ((struct tap_link *)(void *)l)->udp->ops->fd(
		((struct tap_link *)(void *)l)->udp);
}

static size_t tap_mtu(struct uet_link *l)
{
	struct tap_link *t = (struct tap_link *)(void *)l;

	return t->udp->ops->mtu(t->udp);
}

static int tap_local(struct uet_link *l, struct uet_link_addr *a)
{
	struct tap_link *t = (struct tap_link *)(void *)l;

	return t->udp->ops->local_addr(t->udp, a);
}

static void tap_close(struct uet_link *l)
{
	struct tap_link *t = (struct tap_link *)(void *)l;

	t->udp->ops->close(t->udp);
}

static const struct uet_link_ops tap_ops = {
	.send = tap_send, .recv = tap_recv, .fd = tap_fd, .mtu = tap_mtu,
	.local_addr = tap_local, .close = tap_close,
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A PDC sprayed over 4 entropies on real UDP sockets: the syn request
 * leaves from the NIC's port, the rest from the entropy sockets' ports;
 * the target keeps one PDC for them all and every packet is delivered
 * once and acknowledged. */
START_TEST(test_spray_udp)
{
	struct uet_link_udp_cfg lc = { .host = "127.0.0.1" };
	static struct uet_pds_tx_pkt pkt[64];
	static uint8_t payload[PLEN];
	struct uet_pds_stats sa, sb;
	struct uet_link_addr a0, a1;
	struct uet_pds_cfg cfg;
	struct uet_pds_key key;
	struct uet_link *la = NULL;
	struct tap_link tb;
	struct uet_pds *pa, *pb;
	struct w w;
	uint16_t ports[16];
	unsigned int i, k, nports, distinct = 0, sent = 0;
	uint64_t end;
	int ret;

	memset(&w, 0, sizeof(w));
	memset(&tb, 0, sizeof(tb));
	lc.entropy_socks = 8;
	ck_assert_int_eq(uet_link_udp_open(&lc, &la), 0);
	lc.entropy_socks = 0;
	ck_assert_int_eq(uet_link_udp_open(&lc, &tb.udp), 0);
	tb.base.ops = &tap_ops;
	ck_assert_int_eq(la->ops->local_addr(la, &a0), 0);
	ck_assert_int_eq(tb.base.ops->local_addr(&tb.base, &a1), 0);
	nports = la->ops->entropies(la, ports, 16);
	ck_assert_uint_eq(nports, 8);
	/* bound inside the NIC's entropy span (E-18) */
	for (k = 0; k < nports; k++) {
		uint16_t p0 = ntohs(((struct sockaddr_in *)(void *)
				     &a0.ss)->sin_port);

		ck_assert_uint_gt(ports[k], p0);
		ck_assert_uint_le(ports[k], p0 + UET_LINK_ENT_SPAN);
	}

	uet_pds_cfg_default(&cfg);
	cfg.cc = UET_PDS_CC_NSCC;
	cfg.cc_entropies = 4;
	ck_assert_int_eq(uet_pds_create(&pa, &cfg, la, &w_up, &w), 0);
	/* Spraying is a job-wide setting: the target takes requests from
	 * its peers' entropy ports only with it on (issue 30, finding 7). */
	ck_assert_int_eq(uet_pds_create(&pb, &cfg, &tb.base, &w_up, &w), 0);
	memset(&key, 0, sizeof(key));
	key.job_id = 1;
	key.dst = a1;
	key.mode = UET_PDS_MODE_RUD;
	for (i = 0; i < 64; i++) {
		pkt[i].next_hdr = UET_HDR_REQUEST_STD;
		pkt[i].hdr_len = 8;
		pkt[i].iovcnt = 1;
		pkt[i].iov[0].iov_base = payload;
		pkt[i].iov[0].iov_len = PLEN;
	}
	end = mono_ns() + 5000000000ull;
	while (w.done < 64 && mono_ns() < end) {
		/* one packet first: the rest once the PDC is established */
		while (sent < (w.done ? 64u : 1u)) {
			ret = uet_pds_send(pa, &key, &pkt[sent], mono_ns());
			if (ret == -EAGAIN)
				break;
			ck_assert_int_eq(ret, 0);
			sent++;
		}
		uet_pds_poll(pa, mono_ns());
		uet_pds_poll(pb, mono_ns());
	}
	ck_assert_uint_eq(w.done, 64);
	ck_assert_uint_eq(w.rx, 64);
	ck_assert_uint_ge(tb.n, 64);
	/* the first (syn) request from the NIC's port */
	ck_assert_uint_eq(tb.port[0], ntohs(((struct sockaddr_in *)(void *)
					     &a0.ss)->sin_port));
	for (k = 0; k < nports; k++) {
		for (i = 1; i < tb.n; i++)
			if (tb.port[i] == ports[k])
				break;
		distinct += i < tb.n;
	}
	ck_assert_uint_ge(distinct, 3);
	uet_pds_get_stats(pb, &sb);
	ck_assert_uint_eq(sb.pdc_opened, 1);
	ck_assert_uint_eq(sb.unknown_pdc, 0);
	uet_pds_get_stats(pa, &sa);
	ck_assert_uint_eq(sa.pdc_failed, 0);
	uet_pds_destroy(pa);
	uet_pds_destroy(pb);
	la->ops->close(la);
	tb.base.ops->close(&tb.base);
}
END_TEST

/* Sends of PLEN at one instant until PDS refuses one; returns them. */
static unsigned int w_burst(struct w *w, struct uet_pds_tx_pkt *pk,
			    unsigned int n)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		pk[i] = w->pkt[0];
		pk[i].ar = false;
		ret = uet_pds_send(w->pds[0], &w->key, &pk[i], w->now);
		if (ret)
			break;
	}
	if (i < n)
		ck_assert_int_eq(ret, -EAGAIN);
	return i;
}

/* Pacing's token bucket, time given by the test.  100 Gbit/s, base RTT
 * 10 us: cwnd starts at one BDP (125 KB), the bucket holds max(2 MTU,
 * cwnd / 8) and fills at cwnd / RTT.  Once the PDC is established,
 * unpaced the window lets 64 packets go at one instant; paced only the
 * bucket's bytes go, the next send time is a deadline of the timer (no
 * busy wait), and when the timer runs at it the tx_room upcall says the
 * refused send may go, and it does. */
START_TEST(test_pace_bucket)
{
	static struct uet_pds_tx_pkt pk[64];
	struct uet_pds_stats ps;
	uint8_t buf[9000], tos;
	uint64_t due, mtu;
	unsigned int n, pace;
	size_t len;
	struct w *w;

	w_rate = 100000000000ull;
	for (pace = 0; pace < 2; pace++) {
		w_pace = pace;
		w = w_new(UET_PDS_CC_NSCC);
		/* establish: one request, its ACK */
		ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0],
					      w->now), 0);
		len = w_take(w, 1, buf, &tos);
		uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
		len = w_take(w, 0, buf, &tos);
		uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);
		ck_assert_uint_eq(w->done, 1);
		/* one packet in flight, so the bucket, not idleness, rules */
		ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[1],
					      w->now), 0);
		n = w_burst(w, pk, 64);
		uet_pds_get_stats(w->pds[0], &ps);
		mtu = 9000;
		if (!pace) {
			ck_assert_uint_eq(n, 64);
			ck_assert_uint_eq(w->rooms, 0);
			w_free(w);
			continue;
		}
		/* depth 2 MTU (> cwnd / 8); the packet of the previous send
		 * took some: fewer than 2 MTU of packets went */
		ck_assert_uint_ge(n, 1);
		ck_assert_uint_le((n + 1) * (PLEN + 8 + UET_PDS_RUD_ROD_REQ_LEN),
				  2 * mtu);
		/* the next send time: within one MTU at cwnd / RTT (0.72
		 * us), armed as a timer deadline */
		due = uet_pds_next_deadline(w->pds[0]);
		ck_assert_uint_gt(due, w->now);
		ck_assert_uint_le(due, w->now + mtu * 10000 / 125000 + 1);
		/* still refused before it, no upcall */
		ck_assert_uint_eq(w_burst(w, pk + n, 1), 0);
		uet_pds_timer(w->pds[0], due - 1);
		ck_assert_uint_eq(w->rooms, 0);
		w->now = due;
		uet_pds_timer(w->pds[0], w->now);
		ck_assert_uint_eq(w->rooms, 1);
		ck_assert_uint_ge(w_burst(w, pk + n, 64 - n), 1);
		w_free(w);
	}
	w_pace = false;
	w_rate = 0;
}
END_TEST

/* CSIG (FI_UET_CC_CSIG): a request with 16 bytes of room goes as
 * RUD_CC whose req_cc_state is the CMS compact state (cc_type NSCC,
 * sent_bytes = bytes in flight with it, cwnd_bytes = the window) and 8
 * zero bytes (known bytes); a full-MTU one goes as plain RUD; the
 * receiver keeps the latest per source; a malformed one (cc_flags set)
 * is counted and the request still delivered; with RCCC the receiver
 * grants an NSCC source at most twice its announced window. */ 
START_TEST(test_csig)
{
	static const uint8_t want[16] = {
		0x00, 0x00, 0x04, 0x0c,		/* NSCC, 1036 in flight */
		0x00, 0x00, 0x30, 0xd4,		/* cwnd 12500 */
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	static uint8_t big[9000];
	struct uet_pds_rud_rod_cc_req cc;
	struct uet_pds_ack_ccx ccx;
	struct uet_pds_cc_info ci;
	struct uet_pds_nack nack;
	uint8_t buf[9000], tos;
	size_t len, mtu;
	struct w *w;

	w_csig = true;
	w = w_new(UET_PDS_CC_NSCC);
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_RUD_CC_REQ);
	ck_assert_uint_eq(len, UET_PDS_RUD_ROD_CC_REQ_LEN + 8 + PLEN);
	ck_assert_int_eq(uet_pds_rud_rod_cc_req_decode(UET_WIRE_UEPLUS, &cc, buf, len),
			 UET_PDS_RUD_ROD_CC_REQ_LEN);
	ck_assert_mem_eq(cc.req_cc_state, want, sizeof(want));
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	ck_assert_uint_eq(w->rx, 1);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[1], &w->a[0], &ci), 0);
	ck_assert(ci.peer_csig);
	ck_assert_uint_eq(ci.peer_sent, 1036);
	ck_assert_uint_eq(ci.peer_cwnd, 12500);
	ck_assert_uint_eq(ci.csig_rx, 1);
	len = w_take(w, 0, buf, &tos);
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);
	ck_assert_uint_eq(w->done, 1);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[0], &w->a[1], &ci), 0);
	ck_assert_uint_eq(ci.csig_tx, 1);

	/* malformed CC state: counted, the request delivered */
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[1], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	buf[UET_PDS_RUD_ROD_REQ_LEN] |= 0x01;	/* cc_flags */
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	ck_assert_uint_eq(w->rx, 2);
	ck_assert_int_eq(uet_pds_get_cc_info(w->pds[1], &w->a[0], &ci), 0);
	ck_assert_uint_eq(ci.csig_bad, 1);
	ck_assert_uint_eq(ci.csig_rx, 1);
	len = w_take(w, 0, buf, &tos);
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);

	/* a trimmed RUD_CC request: the TRIMMED NACK, as for RUD */
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[3], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_RUD_CC_REQ);
	tos = (uint8_t)(UET_LINK_DSCP_TRIMMED << 2);
	uet_pds_rx_tos(w->pds[1], buf, UET_LINK_SIM_TRIM_BYTES, &w->a[0], tos,
		       w->now);
	len = w_take(w, 0, buf, &tos);
	ck_assert_int_gt(uet_pds_nack_decode(UET_WIRE_UEPLUS, &nack, buf, len), 0);
	ck_assert_uint_eq(nack.nack_code, UET_NACK_TRIMMED);
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);
	uet_pds_timer(w->pds[0], w->now);
	len = w_take(w, 1, buf, &tos);		/* resent at once */
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	ck_assert_uint_eq(w->rx, 3);
	len = w_take(w, 0, buf, &tos);
	uet_pds_rx_tos(w->pds[0], buf, len, &w->a[1], tos, w->now);

	/* no room for the 16 bytes: plain RUD */
	mtu = w->l[0]->ops->mtu(w->l[0]);
	w->pkt[2].iov[0].iov_base = big;
	w->pkt[2].iov[0].iov_len = mtu - UET_PDS_RUD_ROD_REQ_LEN - 8 - 8;
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[2], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_RUD_REQ);
	w_free(w);

	/* RCCC: the credit follows the announced window */
	w = w_new(UET_PDS_CC_NSCC | UET_PDS_CC_RCCC);
	ck_assert_int_eq(uet_pds_send(w->pds[0], &w->key, &w->pkt[0], w->now),
			 0);
	len = w_take(w, 1, buf, &tos);
	ck_assert_uint_eq(buf[0] >> 3, UET_PDS_TYPE_RUD_CC_REQ);
	uet_put_be32(buf + UET_PDS_RUD_ROD_REQ_LEN + 4, 6000);	/* cwnd */
	uet_pds_rx_tos(w->pds[1], buf, len, &w->a[0], tos, w->now);
	len = w_take(w, 0, buf, &tos);
	ck_assert_int_gt(uet_pds_ack_ccx_decode(UET_WIRE_UEPLUS, &ccx, buf, len), 0);
	/* 2 x 6000, below the share (14,062) and above one MTU */
	ck_assert_uint_eq(uet_get_be64(ccx.ack_ccx_state + 8), 12000);
	w_free(w);
	w_csig = false;
}
END_TEST

static Suite *cc_wire_suite(void)
{
	Suite *s = suite_create("cc_wire");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_nscc_pack);
	tcase_add_test(tc, test_ecn_echo);
	tcase_add_test(tc, test_off_plain_ack);
	tcase_add_test(tc, test_trimmed_nack);
	tcase_add_test(tc, test_credit);
	tcase_add_test(tc, test_spray_entropies);
	tcase_add_test(tc, test_spray_udp);
	tcase_add_test(tc, test_pace_bucket);
	tcase_add_test(tc, test_csig);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(cc_wire_suite)
