/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Software NIC device: command execution through the rings, notification
 * content (docs/conformance.md E-3..E-5), malformed commands, the
 * notification-ring-full deferral, queue cancel/close, the peer and MR
 * tables, configuration from FI_UET_*, and the auto-progress thread.
 *
 * Two NICs run over the in-memory link with a fake clock, except for the
 * auto-progress test, which uses real UDP on 127.0.0.1 and bounded waits.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "uet_clock.h"
#include "uet_link_mem.h"
#include "uet_snic.h"
#include "uet_snic_internal.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define US		1000ull
#define MS		1000000ull
#define MAX_NOTIFS	512
#define JOB		0x42u

/* Queue ids: side 0 (A) sends, side 1 (B) receives, mostly. */
static const uint16_t side_pid[2] = { 0x11, 0x22 };
static const uint16_t side_ri[2] = { 0x2, 0x3 };
#define A_INITIATOR	((0x11u << 12) | 0x2u)

struct side {
	struct uet_hsi_dev *dev;
	struct uet_hsi_queue *q;
	uint64_t peer;			/* handle of the other side here */
	bool hold;			/* do not read the notification ring */
	uint8_t got[MAX_NOTIFS][UET_HSI_NOTIF_LEN];
	unsigned int ngot, nread;
};

struct world {
	struct uet_link_mem_fabric *fab;
	uint64_t now;
	struct side s[2];
};

struct wopts {
	uint32_t notifq_depth[2];
	uint32_t unexp_msgs[2];		/* 0: default */
	bool no_unexp[2];		/* no unexpected buffering at all */
};

static void test_cfg(struct uet_snic_cfg *cfg, int i)
{
	uet_snic_cfg_default(cfg);
	cfg->pds.seed = 0x1234 + (uint64_t)i;
}

static void world_init(struct world *w, const struct wopts *o)
{
	struct uet_hsi_queue_attr qa;
	struct uet_snic_cfg cfg;
	struct uet_link *link;
	struct sockaddr_in dummy;
	uint8_t addr[64];
	size_t len;
	uint64_t h;
	int i;

	memset(w, 0, sizeof(*w));
	w->now = UET_NSEC_PER_SEC;
	ck_assert_int_eq(uet_link_mem_fabric_create(&w->fab, 99, 1500), 0);
	uet_link_mem_fabric_set_time(w->fab, w->now);
	for (i = 0; i < 2; i++) {
		test_cfg(&cfg, i);
		if (o && o->unexp_msgs[i])
			cfg.unexp_max_msgs = o->unexp_msgs[i];
		if (o && o->no_unexp[i]) {
			cfg.unexp_max_msgs = 0;
			cfg.unexp_max_bytes = 0;
		}
		ck_assert_int_eq(uet_link_mem_open(w->fab, (uint16_t)(7000 + i),
						   &link), 0);
		ck_assert_int_eq(uet_snic_open_link(&cfg, JOB, link, true,
						    &w->s[i].dev), 0);
		memset(&qa, 0, sizeof(qa));
		qa.cmdq_depth = 64;
		qa.notifq_depth = o && o->notifq_depth[i] ?
				  o->notifq_depth[i] : 100;
		qa.pid_on_fep = side_pid[i];
		qa.resource_index = side_ri[i];
		ck_assert_int_eq(w->s[i].dev->ops->queue_open(w->s[i].dev, &qa,
							      &w->s[i].q), 0);
	}
	/* B first learns an unrelated address, so A's handle there is 1. */
	memset(&dummy, 0, sizeof(dummy));
	dummy.sin_family = AF_INET;
	dummy.sin_port = htons(9);
	dummy.sin_addr.s_addr = htonl(0x7f000063);
	ck_assert_int_eq(w->s[1].dev->ops->peer_insert(w->s[1].dev, &dummy,
						       sizeof(dummy), &h), 0);
	ck_assert_uint_eq(h, 0);
	for (i = 0; i < 2; i++) {
		len = sizeof(addr);
		ck_assert_int_eq(w->s[i].dev->ops->getname(w->s[i].dev, addr,
							   &len), 0);
		ck_assert_int_eq(w->s[!i].dev->ops->peer_insert(w->s[!i].dev,
						addr, len, &w->s[!i].peer), 0);
	}
	ck_assert_uint_eq(w->s[0].peer, 0);
	ck_assert_uint_eq(w->s[1].peer, 1);
}

static void world_fini(struct world *w)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (w->s[i].q)
			w->s[i].dev->ops->queue_close(w->s[i].q);
		w->s[i].dev->ops->close(w->s[i].dev);
	}
	uet_link_mem_fabric_destroy(w->fab);
}

static void side_collect(struct side *s)
{
	while (s->q && !s->hold && s->ngot < MAX_NOTIFS &&
	       uet_hsi_notifq_poll(s->q->notifq, s->got[s->ngot]))
		s->ngot++;
}

static void world_poll(struct world *w)
{
	int i;

	uet_link_mem_fabric_set_time(w->fab, w->now);
	for (i = 0; i < 2; i++) {
		ck_assert_int_ge(uet_snic_progress_at(w->s[i].dev, w->now), 0);
		side_collect(&w->s[i]);
	}
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Advance fake time to the next event, but not past end. */
static void world_step(struct world *w, uint64_t end)
{
	uint64_t next = uet_link_mem_fabric_next_delivery(w->fab);
	int i;

	for (i = 0; i < 2; i++)
		next = min_u64(next, uet_snic_next_deadline(w->s[i].dev));
	if (next == UINT64_MAX)
		next = w->now + 100 * US;
	next = min_u64(next, end);
	if (next <= w->now)
		next = w->now + 1;
	w->now = next;
	world_poll(w);
}

/* Step until side i has collected n notifications (false after limit
 * of fake time). */
static bool world_wait(struct world *w, int i, unsigned int n,
		       uint64_t limit)
{
	uint64_t end = w->now + limit;

	world_poll(w);
	while (w->s[i].ngot < n) {
		if (w->now >= end)
			return false;
		world_step(w, end);
	}
	return true;
}

/* Let fake time pass (everything in flight settles). */
static void world_idle(struct world *w, uint64_t t)
{
	uint64_t end = w->now + t;

	while (w->now < end)
		world_step(w, end);
}

/* ---- commands ---- */

struct cmd {
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_sgl_entry sgl[16];
	unsigned int n;			/* extra entries */
	bool have_first;
};

static void cmd_init(struct cmd *c, uint8_t family, uint8_t variant,
		     uint8_t src)
{
	memset(c, 0, sizeof(*c));
	c->seg.family = family;
	c->seg.variant = variant;
	c->seg.data_src = src;
}

/* Must come before the SGL entries: the extension is entry 0. */
static void cmd_ext(struct cmd *c, uint64_t header_data, uint64_t ignore,
		    uint32_t flags)
{
	struct uet_hsi_cmd_ext ext = {
		.header_data = header_data, .ignore = ignore,
		.ext_flags = flags,
	};

	ck_assert_uint_eq(c->n, 0);
	c->seg.ext = true;
	uet_hsi_cmd_ext_to_sgl(&c->sgl[c->n++], &ext);
}

static void cmd_sgl(struct cmd *c, const void *p, uint32_t len)
{
	struct uet_hsi_sgl_entry e;

	memset(&e, 0, sizeof(e));
	e.address = (uint64_t)(uintptr_t)p;
	e.length = len;
	if (!c->have_first) {
		c->seg.sgl = e;
		c->have_first = true;
	} else {
		ck_assert_uint_lt(c->n, 16);
		c->sgl[c->n++] = e;
	}
}

static void cmd_sgl_inline(struct cmd *c, const void *p, uint32_t len)
{
	struct uet_hsi_sgl_entry e;

	memset(&e, 0, sizeof(e));
	e.is_inline = true;
	e.length = len;
	memcpy(e.inline_data, p, len);
	if (!c->have_first) {
		c->seg.sgl = e;
		c->have_first = true;
	} else {
		ck_assert_uint_lt(c->n, 16);
		c->sgl[c->n++] = e;
	}
}

static void cmd_inline(struct cmd *c, const void *p, uint16_t len)
{
	c->seg.payload_len = len;
	memcpy(c->seg.inline_data, p, len);
}

static void cmd_post_only(struct world *w, int i, struct cmd *c)
{
	c->seg.sgl_count = (uint8_t)c->n;
	ck_assert_int_eq(uet_hsi_cmdq_post(w->s[i].q->cmdq, &c->seg, c->sgl,
					   c->n), 0);
}

static void ring(struct world *w, int i)
{
	uet_hsi_cmdq_doorbell(w->s[i].q->cmdq);
	ck_assert_int_eq(uet_snic_doorbell_at(w->s[i].q, w->now), 0);
}

static void cmd_post(struct world *w, int i, struct cmd *c)
{
	cmd_post_only(w, i, c);
	ring(w, i);
}

/* A send from A to B's queue. */
static void send_inline(struct world *w, uint8_t family, const char *data,
			uint64_t tag, uint64_t md)
{
	struct cmd c;

	cmd_init(&c, family, UET_HSI_VARIANT_SEND, UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.tag = tag;
	c.seg.metadata = md;
	c.seg.dest = UET_HSI_DEST(w->s[0].peer, side_pid[1], side_ri[1]);
	cmd_inline(&c, data, (uint16_t)strlen(data));
	cmd_post(w, 0, &c);
}

static void recv_buf(struct world *w, uint8_t family, void *buf,
		     uint32_t len, uint64_t tag, uint64_t md)
{
	struct cmd c;

	cmd_init(&c, family, UET_HSI_VARIANT_RECV, UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.tag = tag;
	c.seg.metadata = md;
	cmd_sgl(&c, buf, len);
	cmd_post(w, 1, &c);
}

/* ---- notification checks ---- */

static const uint8_t *next_notif(struct side *s)
{
	ck_assert_uint_lt(s->nread, s->ngot);
	return s->got[s->nread++];
}

static void get_send(struct side *s, struct uet_hsi_send_cmpl *sc)
{
	const uint8_t *e = next_notif(s);

	ck_assert_int_eq(uet_hsi_notif_peek_type(e, 64), UET_HSI_NOTIF_SEND);
	ck_assert_int_eq(uet_hsi_send_cmpl_decode(sc, e, 64), 64);
}

static void get_recv(struct side *s, struct uet_hsi_recv_notif *rn)
{
	const uint8_t *e = next_notif(s);

	ck_assert_int_eq(uet_hsi_notif_peek_type(e, 64), UET_HSI_NOTIF_RECV);
	ck_assert_int_eq(uet_hsi_recv_notif_decode(rn, e, 64), 64);
}

static void get_event(struct side *s, struct uet_hsi_event_notif *ev)
{
	const uint8_t *e = next_notif(s);

	ck_assert_int_eq(uet_hsi_notif_peek_type(e, 64), UET_HSI_NOTIF_EVENT);
	ck_assert_int_eq(uet_hsi_event_notif_decode(ev, e, 64), 64);
}

static void expect_send_ok(struct side *s, uint64_t md, uint32_t bytes)
{
	struct uet_hsi_send_cmpl sc;

	get_send(s, &sc);
	ck_assert_uint_eq(sc.status, 0);
	ck_assert_uint_eq(sc.flags, UET_RC_OK);
	ck_assert_uint_eq(sc.op_context, md);
	ck_assert_uint_eq(sc.bytes_sent, bytes);
}

/* What the last expect_recv() saw in the notification's inline area. */
static uint8_t last_inline[UET_HSI_RECV_INLINE_MAX];
static bool last_was_inline;

static void expect_continuation(struct side *s, bool has_data,
				uint64_t header_data, uint32_t olen);

/* cont: the message had header_data or was truncated (the caller checks
 * the continuation entry); without, the continuation entry that carries
 * the sender's non-zero initiator alone is checked here. */
static void expect_recv(struct side *s, uint16_t status, uint64_t tag,
			uint32_t len, uint64_t md, bool cont)
{
	struct uet_hsi_recv_notif rn;

	get_recv(s, &rn);
	ck_assert_uint_eq(rn.status, status);
	/* Successful messages of 1..35 bytes also come inline. */
	if (rn.is_inline) {
		ck_assert_uint_eq(status, 0);
		ck_assert_uint_gt(len, 0);
		ck_assert_uint_le(len, UET_HSI_RECV_INLINE_MAX);
		memcpy(last_inline, rn.inline_data, len);
	} else {
		ck_assert(status || !len || len > UET_HSI_RECV_INLINE_MAX);
	}
	last_was_inline = rn.is_inline;
	/* A's initiator is not 0: always a continuation entry (E-5) */
	ck_assert(rn.continuation);
	ck_assert_uint_eq(rn.src_id, s->peer);
	ck_assert_uint_eq(rn.tag, tag);
	ck_assert_uint_eq(rn.total_length, len);
	ck_assert_uint_eq(rn.buffer_id_0, (uint16_t)md);
	ck_assert_uint_eq(rn.buffer_id_1, (uint16_t)(md >> 16));
	ck_assert_uint_eq(rn.buffer_offset, 0);
	if (!cont)
		expect_continuation(s, false, 0, 0);
}

static void expect_continuation(struct side *s, bool has_data,
				uint64_t header_data, uint32_t olen)
{
	struct uet_hsi_recv_notif rn;
	const uint8_t *e = next_notif(s);

	/* type 0 with flags CONTINUATION only */
	ck_assert_uint_eq(e[0], 0);
	ck_assert_uint_eq(e[1], UET_HSI_RECV_FLAG_CONTINUATION);
	ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, e, 64), 64);
	ck_assert_uint_eq(rn.status, has_data ? 1 : 0);
	ck_assert_uint_eq(rn.tag, header_data);
	ck_assert_uint_eq(rn.total_length, olen);
	ck_assert_uint_eq(rn.src_id, A_INITIATOR);
}

static void expect_bad(struct side *s, uint32_t idx, int err)
{
	struct uet_hsi_event_notif ev;

	get_event(s, &ev);
	ck_assert_uint_eq(ev.event_type, UET_HSI_EVENT_INVALID_DESCRIPTOR);
	ck_assert_uint_eq(ev.severity, UET_HSI_SEV_ERROR);
	ck_assert_uint_eq(ev.status_code, (uint16_t)-err);
	ck_assert_uint_eq(ev.event_data, idx);
}

static void expect_empty(struct world *w, int i)
{
	side_collect(&w->s[i]);
	ck_assert_uint_eq(w->s[i].nread, w->s[i].ngot);
}

/* ================================================================== */
/* Sends and receives of every kind                                    */
/* ================================================================== */

START_TEST(test_inline_send)
{
	struct world w;
	uint8_t buf[64];
	struct uet_snic_stats st;

	world_init(&w, NULL);
	memset(buf, 0, sizeof(buf));
	recv_buf(&w, UET_HSI_FAMILY_MSG, buf, sizeof(buf), 0,
		 0xaaaabbbb12345678ull);
	send_inline(&w, UET_HSI_FAMILY_MSG, "hello, world", 0,
		    0x0123456789abcdefull);
	ck_assert(world_wait(&w, 1, 1, 100 * MS));
	ck_assert(world_wait(&w, 0, 1, 100 * MS));
	expect_recv(&w.s[1], 0, 0, 12, 0x12345678, false);
	ck_assert_int_eq(memcmp(buf, "hello, world", 12), 0);
	ck_assert(last_was_inline);
	ck_assert_int_eq(memcmp(last_inline, "hello, world", 12), 0);
	ck_assert_uint_eq(buf[12], 0);
	expect_send_ok(&w.s[0], 0x0123456789abcdefull, 12);
	world_idle(&w, 10 * MS);
	expect_empty(&w, 0);
	expect_empty(&w, 1);

	uet_snic_get_stats(w.s[0].dev, &st);
	ck_assert_uint_eq(st.cmds, 1);
	ck_assert_uint_eq(st.doorbells, 1);
	ck_assert_uint_eq(st.bad_cmds, 0);
	ck_assert_uint_eq(st.notifs, 1);
	ck_assert_uint_eq(st.ses.msgs_tx, 1);
	uet_snic_get_stats(w.s[1].dev, &st);
	ck_assert_uint_eq(st.notifs, 2);	/* + continuation (initiator) */
	ck_assert_uint_eq(st.ses.msgs_rx, 1);
	ck_assert_int_eq(uet_snic_get_pdc_stats(w.s[0].dev, w.s[0].peer,
						&st.pds), 0);
	ck_assert_uint_ge(st.pds.tx_pkts, 1);
	ck_assert_int_eq(uet_snic_get_pdc_stats(w.s[0].dev, 5, &st.pds),
			 -ENOENT);

	/* Without COMPLETION a success writes nothing, on either side. */
	{
		struct cmd c;

		memset(buf, 0, sizeof(buf));
		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
			 UET_HSI_DATA_SGL);
		cmd_sgl(&c, buf, sizeof(buf));
		cmd_post(&w, 1, &c);
		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
			 UET_HSI_DATA_INLINE);
		c.seg.fence = true;	/* accepted, nothing to wait for */
		c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1],
					  side_ri[1]);
		cmd_inline(&c, "quiet", 5);
		cmd_post(&w, 0, &c);
		world_idle(&w, 20 * MS);
		ck_assert_int_eq(memcmp(buf, "quiet", 5), 0);
		expect_empty(&w, 0);
		expect_empty(&w, 1);
		uet_snic_get_stats(w.s[1].dev, &st);
		ck_assert_uint_eq(st.ses.msgs_rx, 2);
		ck_assert_uint_eq(st.notifs, 2);	/* the first pair */
	}
	world_fini(&w);
}
END_TEST

/* Many small SGL pieces on both sides (more than a packet carries):
 * 30 indirect entries of 50 bytes alternating with 30 inline entries of
 * 7 bytes, received into 60 entries of 30 bytes. */
START_TEST(test_sgl_many)
{
	static uint8_t src[30][50], dst[60][30];
	uint8_t inl[30][7], want[1710], got[1800];
	struct world w;
	struct cmd c;
	size_t off = 0;
	int i;

	world_init(&w, NULL);
	cmd_init(&c, UET_HSI_FAMILY_TAGGED, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.tag = 1;
	c.seg.metadata = 5;
	cmd_sgl(&c, dst[0], sizeof(dst[0]));
	c.seg.sgl_count = 59;
	{
		/* more than the helper's array: encode in place */
		uint32_t idx;
		int k;

		ck_assert_int_eq(uet_hsi_cmdq_reserve(w.s[1].q->cmdq, 59,
						      &idx), 0);
		ck_assert_int_eq(uet_hsi_cmd_seg_encode(
				uet_hsi_cmdq_slot(w.s[1].q->cmdq, idx), 64,
				&c.seg), 64);
		for (k = 0; k < 59; k++) {
			struct uet_hsi_sgl_entry e = { 0 };

			e.address = (uint64_t)(uintptr_t)dst[k + 1];
			e.length = 30;
			ck_assert_int_eq(uet_hsi_sgl_entry_encode(
				uet_hsi_cmdq_sgl(w.s[1].q->cmdq, idx,
						 (unsigned int)k), 32, &e), 32);
		}
		ring(&w, 1);
	}

	cmd_init(&c, UET_HSI_FAMILY_TAGGED, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.tag = 1;
	c.seg.metadata = 6;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	c.seg.sgl_count = 59;
	{
		uint32_t idx;
		int k;

		for (i = 0; i < 30; i++) {
			uet_test_fill(src[i], 50, (unsigned int)i);
			uet_test_fill(inl[i], 7, 100 + (unsigned int)i);
			memcpy(want + off, src[i], 50);
			memcpy(want + off + 50, inl[i], 7);
			off += 57;
		}
		c.seg.sgl.address = (uint64_t)(uintptr_t)src[0];
		c.seg.sgl.length = 50;
		ck_assert_int_eq(uet_hsi_cmdq_reserve(w.s[0].q->cmdq, 59,
						      &idx), 0);
		ck_assert_int_eq(uet_hsi_cmd_seg_encode(
				uet_hsi_cmdq_slot(w.s[0].q->cmdq, idx), 64,
				&c.seg), 64);
		for (k = 0; k < 59; k++) {
			struct uet_hsi_sgl_entry e = { 0 };
			int piece = k + 1;	/* 0 is the embedded one */

			if (piece % 2) {
				e.is_inline = true;
				e.length = 7;
				memcpy(e.inline_data, inl[piece / 2], 7);
			} else {
				e.address = (uint64_t)(uintptr_t)src[piece / 2];
				e.length = 50;
			}
			ck_assert_int_eq(uet_hsi_sgl_entry_encode(
				uet_hsi_cmdq_sgl(w.s[0].q->cmdq, idx,
						 (unsigned int)k), 32, &e), 32);
		}
		ring(&w, 0);
	}
	ck_assert(world_wait(&w, 1, 1, 200 * MS));
	ck_assert(world_wait(&w, 0, 1, 200 * MS));
	expect_recv(&w.s[1], 0, 1, 1710, 5, false);
	for (i = 0; i < 60; i++)
		memcpy(got + 30 * i, dst[i], 30);
	ck_assert_int_eq(memcmp(got, want, 1710), 0);
	expect_send_ok(&w.s[0], 6, 1710);
	world_fini(&w);
}
END_TEST

/* Send: indirect 3000 B + inline 20 B + indirect 5000 B; receive into
 * three indirect pieces of other sizes. */
START_TEST(test_sgl3_send)
{
	static uint8_t s1[3000], s3[5000], r1[1000], r2[4000], r3[4000];
	uint8_t s2[20], all[8020], got[9000];
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	uet_test_fill(s1, sizeof(s1), 1);
	uet_test_fill(s2, sizeof(s2), 2);
	uet_test_fill(s3, sizeof(s3), 3);
	memcpy(all, s1, 3000);
	memcpy(all + 3000, s2, 20);
	memcpy(all + 3020, s3, 5000);

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = 77;
	cmd_sgl(&c, r1, sizeof(r1));
	cmd_sgl(&c, r2, sizeof(r2));
	cmd_sgl(&c, r3, sizeof(r3));
	cmd_post(&w, 1, &c);

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = 88;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, s1, sizeof(s1));
	cmd_sgl_inline(&c, s2, sizeof(s2));
	cmd_sgl(&c, s3, sizeof(s3));
	ck_assert_uint_eq(c.n, 2);
	cmd_post(&w, 0, &c);

	ck_assert(world_wait(&w, 1, 1, 200 * MS));
	ck_assert(world_wait(&w, 0, 1, 200 * MS));
	expect_recv(&w.s[1], 0, 0, 8020, 77, false);
	memcpy(got, r1, 1000);
	memcpy(got + 1000, r2, 4000);
	memcpy(got + 5000, r3, 3020);
	ck_assert_int_eq(memcmp(got, all, 8020), 0);
	expect_send_ok(&w.s[0], 88, 8020);
	world_fini(&w);
}
END_TEST

/* INJECT copies at doorbell time and writes no success completion. */
START_TEST(test_inject)
{
	/* 4096 bytes: the provider's inject size */
	static uint8_t src[4096], want[4096], dst[5000];
	uint8_t small[64];
	struct uet_snic_stats st;
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	uet_test_fill(src, sizeof(src), 9);
	memcpy(want, src, sizeof(src));
	recv_buf(&w, UET_HSI_FAMILY_MSG, dst, sizeof(dst), 0, 1);
	recv_buf(&w, UET_HSI_FAMILY_MSG, small, sizeof(small), 0, 2);

	/* INJECT variant, indirect data, COMPLETION: a success completion
	 * after the data was copied at doorbell time */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_INJECT,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = 5;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, src, sizeof(src));
	cmd_post(&w, 0, &c);
	memset(src, 0xee, sizeof(src));	/* the caller reuses its memory */

	/* SEND variant with the INJECT flag, inline data, no COMPLETION:
	 * nothing is written on success */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.inject = true;
	c.seg.metadata = 6;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_inline(&c, "inject!", 7);
	cmd_post(&w, 0, &c);

	ck_assert(world_wait(&w, 1, 4, 100 * MS));
	expect_recv(&w.s[1], 0, 0, sizeof(want), 1, false);
	ck_assert_int_eq(memcmp(dst, want, sizeof(want)), 0);
	expect_recv(&w.s[1], 0, 0, 7, 2, false);
	ck_assert_int_eq(memcmp(small, "inject!", 7), 0);
	world_idle(&w, 20 * MS);
	expect_send_ok(&w.s[0], 5, sizeof(want));
	expect_empty(&w, 0);		/* none for the second */
	uet_snic_get_stats(w.s[0].dev, &st);
	ck_assert_uint_eq(st.ses.msgs_tx, 2);
	ck_assert_uint_eq(st.notifs, 1);
	world_fini(&w);
}
END_TEST

/* Tagged: ignore bits via EXT; an unexpected tagged message; a directed
 * receive. */
START_TEST(test_tagged_ignore)
{
	uint8_t b1[32], b2[32], b3[32];
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	/* tag 0x1200 with the low byte ignored */
	cmd_init(&c, UET_HSI_FAMILY_TAGGED, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.tag = 0x1200;
	c.seg.metadata = 1;
	cmd_ext(&c, 0, 0xff, 0);
	cmd_sgl(&c, b1, sizeof(b1));
	cmd_post(&w, 1, &c);
	/* directed: only from A (handle 1), exact tag 0x77 */
	cmd_init(&c, UET_HSI_FAMILY_TAGGED, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.tag = 0x77;
	c.seg.metadata = 2;
	c.seg.dest = UET_HSI_DEST(w.s[1].peer, side_pid[0], side_ri[0]);
	cmd_ext(&c, 0, 0, UET_HSI_EXT_DIRECTED);
	cmd_sgl(&c, b2, sizeof(b2));
	cmd_post(&w, 1, &c);

	send_inline(&w, UET_HSI_FAMILY_TAGGED, "unexpected", 0x5555, 10);
	send_inline(&w, UET_HSI_FAMILY_TAGGED, "ignored", 0x1234, 11);
	send_inline(&w, UET_HSI_FAMILY_TAGGED, "directed", 0x77, 12);
	ck_assert(world_wait(&w, 1, 2, 100 * MS));
	ck_assert(world_wait(&w, 0, 3, 100 * MS));
	expect_recv(&w.s[1], 0, 0x1234, 7, 1, false);
	ck_assert_int_eq(memcmp(b1, "ignored", 7), 0);
	expect_recv(&w.s[1], 0, 0x77, 8, 2, false);
	ck_assert_int_eq(memcmp(b2, "directed", 8), 0);
	expect_send_ok(&w.s[0], 10, 10);
	expect_send_ok(&w.s[0], 11, 7);
	expect_send_ok(&w.s[0], 12, 8);
	/* the unexpected one waits for its receive */
	recv_buf(&w, UET_HSI_FAMILY_TAGGED, b3, sizeof(b3), 0x5555, 3);
	ck_assert(world_wait(&w, 1, 3, 100 * MS));
	expect_recv(&w.s[1], 0, 0x5555, 10, 3, false);
	ck_assert_int_eq(memcmp(b3, "unexpected", 10), 0);
	world_fini(&w);
}
END_TEST

/* header_data via EXT (REMOTE_CQ / HAS_DATA) -> continuation entry. */
START_TEST(test_header_data)
{
	uint8_t b1[32], b2[32];
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	recv_buf(&w, UET_HSI_FAMILY_MSG, b1, sizeof(b1), 0, 1);
	recv_buf(&w, UET_HSI_FAMILY_MSG, b2, sizeof(b2), 0, 2);

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.remote_cq = true;
	c.seg.metadata = 9;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_ext(&c, 0xfeedface12345678ull, 0, UET_HSI_EXT_DC);
	cmd_inline(&c, "hd", 2);
	cmd_post(&w, 0, &c);
	/* HAS_DATA without REMOTE_CQ means the same */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.metadata = 10;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_ext(&c, 7, 0, UET_HSI_EXT_HAS_DATA);
	cmd_inline(&c, "hd2", 3);
	cmd_post(&w, 0, &c);

	ck_assert(world_wait(&w, 1, 4, 100 * MS));
	expect_recv(&w.s[1], 0, 0, 2, 1, true);
	expect_continuation(&w.s[1], true, 0xfeedface12345678ull, 0);
	expect_recv(&w.s[1], 0, 0, 3, 2, true);
	expect_continuation(&w.s[1], true, 7, 0);
	ck_assert(world_wait(&w, 0, 2, 100 * MS));
	expect_send_ok(&w.s[0], 9, 2);
	expect_send_ok(&w.s[0], 10, 3);
	world_fini(&w);
}
END_TEST

/* A receive too small: UET_HSI_ST_TRUNCATED, bytes placed, continuation with the
 * bytes that did not fit; the sender succeeds. */
START_TEST(test_truncation)
{
	static uint8_t src[100], dst[64];
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	uet_test_fill(src, sizeof(src), 4);
	memset(dst, 0, sizeof(dst));
	recv_buf(&w, UET_HSI_FAMILY_MSG, dst, 40, 0, 3);
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = 4;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, src, sizeof(src));
	cmd_post(&w, 0, &c);
	ck_assert(world_wait(&w, 1, 2, 100 * MS));
	expect_recv(&w.s[1], UET_HSI_ST_TRUNCATED, 0, 40, 3, true);
	expect_continuation(&w.s[1], false, 0, 60);
	ck_assert_int_eq(memcmp(dst, src, 40), 0);
	ck_assert_uint_eq(dst[40], 0);
	ck_assert(world_wait(&w, 0, 1, 100 * MS));
	expect_send_ok(&w.s[0], 4, 100);
	world_fini(&w);
}
END_TEST

/* The target's return code reaches the send completion's flags. */
START_TEST(test_send_rc)
{
	struct uet_hsi_send_cmpl sc;
	struct world w;
	struct cmd c;

	world_init(&w, NULL);
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.metadata = 21;		/* no COMPLETION: errors still come */
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, 0x7, side_ri[1]);
	cmd_inline(&c, "nobody", 6);
	cmd_post(&w, 0, &c);
	ck_assert(world_wait(&w, 0, 1, 100 * MS));
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_NO_ADDR);
	ck_assert_uint_eq(sc.flags, UET_RC_BAD_JOB_ID);
	ck_assert_uint_eq(sc.op_context, 21);
	world_fini(&w);
}
END_TEST

/* ================================================================== */
/* Malformed commands                                                  */
/* ================================================================== */

START_TEST(test_malformed)
{
	static uint8_t big[UET_SNIC_INJECT_MAX + 1];
	struct uet_hsi_recv_notif rn;
	struct uet_hsi_send_cmpl sc;
	struct uet_snic_stats st;
	struct world w;
	struct cmd c;
	uint32_t idx = 0;
	uint8_t *slot;
	uint8_t buf[8];

	world_init(&w, NULL);

	/* 1. reserved flag bit 0 on a MSG SEND with COMPLETION */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.metadata = 0x1001;
	cmd_post_only(&w, 0, &c);
	slot = uet_hsi_cmdq_slot(w.s[0].q->cmdq, idx);
	slot[1] |= 0x01;
	ring(&w, 0);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, UET_WIRE_ERESERVED);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(sc.op_context, 0x1001);
	idx += 1;

	/* 2. RMA without the extension (E-6 requires it): the event and
	 * an error completion */
	cmd_init(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.metadata = 0x1002;
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(sc.op_context, 0x1002);
	idx += 1;
	/* ... an ATOMIC fetch without COMPLETION: the same (errors are
	 * always reported, as a send completion) */
	cmd_init(&c, UET_HSI_FAMILY_ATOMIC, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_INLINE);
	c.seg.metadata = 0x1003;
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(sc.op_context, 0x1003);
	expect_empty(&w, 0);
	idx += 1;

	/* 3. opcode 0 (no family), flags 0: the event only */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	cmd_post_only(&w, 0, &c);
	uet_hsi_cmdq_slot(w.s[0].q->cmdq, idx)[0] = 0;
	ring(&w, 0);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, UET_WIRE_ERANGE);
	expect_empty(&w, 0);
	idx += 1;

	/* 4. receive with inline data: receive notification UET_HSI_ST_INVALID */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_INLINE);
	c.seg.metadata = 0xabcd0123;
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_recv(&w.s[0], &rn);
	ck_assert_uint_eq(rn.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(rn.src_id, UET_HSI_PEER_UNKNOWN);
	ck_assert_uint_eq(rn.buffer_id_0, 0x0123);
	ck_assert_uint_eq(rn.buffer_id_1, 0xabcd);
	idx += 1;

	/* 5. an INJECT larger than the NIC copies */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_INJECT,
		 UET_HSI_DATA_SGL);
	c.seg.metadata = 0x1005;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, big, sizeof(big));
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EMSGSIZE);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_INVALID);
	idx += 1;

	/* 6. unknown ext_flags bit in the extension */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.metadata = 0x1006;
	cmd_ext(&c, 0, 0, 0);
	cmd_post_only(&w, 0, &c);
	uet_hsi_cmdq_sgl(w.s[0].q->cmdq, idx, 0)[25] = 0x01;
	ring(&w, 0);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, UET_WIRE_ERANGE);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.op_context, 0x1006);
	idx += 2;

	/* 7. conventions: DIRECTED on a send, REMOTE_CQ without EXT, ignore
	 * bits on an untagged receive, inline SGL entry in a receive, a
	 * NULL indirect address, reserved dest bits */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_ext(&c, 0, 0, UET_HSI_EXT_DIRECTED);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_send(&w.s[0], &sc);
	idx += 2;
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.remote_cq = true;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_send(&w.s[0], &sc);
	idx += 1;
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	cmd_ext(&c, 0, 1, 0);
	cmd_sgl(&c, buf, sizeof(buf));
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_recv(&w.s[0], &rn);
	idx += 2;
	cmd_init(&c, UET_HSI_FAMILY_TAGGED, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	cmd_sgl_inline(&c, "x", 1);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_recv(&w.s[0], &rn);
	idx += 1;
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, NULL, 10);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EFAULT);
	get_send(&w.s[0], &sc);
	idx += 1;
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]) |
		     (1ull << 56);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EINVAL);
	get_send(&w.s[0], &sc);
	idx += 1;

	/* 8. sgl_count runs past the doorbell: the published slot is
	 * discarded */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.metadata = 0x1008;
	cmd_sgl(&c, buf, sizeof(buf));
	cmd_post_only(&w, 0, &c);
	uet_hsi_cmdq_slot(w.s[0].q->cmdq, idx)[4] = 3;
	ring(&w, 0);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, -EPROTO);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.op_context, 0x1008);
	idx += 1;

	/* 9. non-zero padding after an odd sgl_count */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_SGL);
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_sgl(&c, buf, sizeof(buf));
	cmd_sgl(&c, buf, sizeof(buf));
	cmd_post_only(&w, 0, &c);
	uet_hsi_cmdq_sgl(w.s[0].q->cmdq, idx, 1)[3] = 1;
	ring(&w, 0);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], idx, UET_WIRE_ERESERVED);
	get_send(&w.s[0], &sc);
	idx += 2;

	expect_empty(&w, 0);
	uet_snic_get_stats(w.s[0].dev, &st);
	ck_assert_uint_eq(st.bad_cmds, 15);
	ck_assert_uint_eq(st.events, 15);
	ck_assert_uint_eq(st.cmds, 15);
	ck_assert_uint_eq(st.ses.msgs_tx, 0);

	/* The queue still works. */
	uint8_t rb[16];

	recv_buf(&w, UET_HSI_FAMILY_MSG, rb, sizeof(rb), 0, 1);
	send_inline(&w, UET_HSI_FAMILY_MSG, "still ok", 0, 2);
	ck_assert(world_wait(&w, 1, 1, 100 * MS));
	expect_recv(&w.s[1], 0, 0, 8, 1, false);
	world_fini(&w);
}
END_TEST

/* Random undecodable commands of every size: each one is consumed and
 * reported, nothing else happens. */
START_TEST(test_malformed_random)
{
	struct uet_snic_stats st;
	struct world w;
	unsigned int r, k, j, n, total = 0, events = 0;
	uint8_t out[UET_HSI_NOTIF_LEN];
	uint32_t idx;
	uint8_t *slot;

	world_init(&w, NULL);
	for (r = 0; r < 200; r++) {
		for (k = 0; k < 8; k++) {
			n = (unsigned int)(uet_test_rand64() % 7);
			ck_assert_int_eq(uet_hsi_cmdq_reserve(w.s[0].q->cmdq,
							      n, &idx), 0);
			for (j = 0; j < uet_hsi_cmd_nslots(n); j++) {
				slot = uet_hsi_cmdq_slot(w.s[0].q->cmdq,
							 idx + j);
				for (size_t b = 0; b < 64; b++)
					slot[b] = (uint8_t)uet_test_rand64();
			}
			slot = uet_hsi_cmdq_slot(w.s[0].q->cmdq, idx);
			slot[4] = (uint8_t)n;
			slot[5] |= 1;		/* reserved: never decodes */
			total++;
		}
		ring(&w, 0);
		while (uet_hsi_notifq_poll(w.s[0].q->notifq, out)) {
			struct uet_hsi_event_notif ev;

			if (uet_hsi_notif_peek_type(out, 64) !=
			    UET_HSI_NOTIF_EVENT)
				continue;
			ck_assert_int_eq(uet_hsi_event_notif_decode(&ev, out,
								    64), 64);
			ck_assert_uint_eq(ev.event_type,
					  UET_HSI_EVENT_INVALID_DESCRIPTOR);
			ck_assert_uint_eq(ev.status_code,
					  (uint16_t)-UET_WIRE_ERESERVED);
			events++;
		}
	}
	ck_assert_uint_eq(events, total);
	uet_snic_get_stats(w.s[0].dev, &st);
	ck_assert_uint_eq(st.bad_cmds, total);
	ck_assert_uint_eq(st.cmds, total);
	ck_assert_uint_eq(st.ses.msgs_tx, 0);
	world_fini(&w);
}
END_TEST

START_TEST(test_unknown_peer)
{
	struct uet_hsi_send_cmpl sc;
	struct uet_hsi_recv_notif rn;
	struct world w;
	struct cmd c;
	uint8_t buf[8];

	world_init(&w, NULL);
	/* never inserted */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.metadata = 31;
	c.seg.dest = UET_HSI_DEST(77, side_pid[1], side_ri[1]);
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], 0, -ENXIO);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(sc.op_context, 31);
	/* a directed receive from an unknown peer */
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.metadata = 32;
	c.seg.dest = UET_HSI_DEST(1000, 0, 0);
	cmd_ext(&c, 0, 0, UET_HSI_EXT_DIRECTED);
	cmd_sgl(&c, buf, sizeof(buf));
	cmd_post(&w, 0, &c);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], 1, -ENXIO);
	get_recv(&w.s[0], &rn);
	ck_assert_uint_eq(rn.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(rn.buffer_id_0, 32);
	/* removed */
	ck_assert_int_eq(w.s[0].dev->ops->peer_remove(w.s[0].dev,
						      w.s[0].peer), 0);
	send_inline(&w, UET_HSI_FAMILY_MSG, "gone", 0, 33);
	side_collect(&w.s[0]);
	expect_bad(&w.s[0], 3, -ENXIO);
	get_send(&w.s[0], &sc);
	ck_assert_uint_eq(sc.op_context, 33);
	expect_empty(&w, 0);

	/* a sender B does not know: src_id UET_HSI_PEER_UNKNOWN */
	ck_assert_int_eq(w.s[1].dev->ops->peer_remove(w.s[1].dev,
						      w.s[1].peer), 0);
	{
		uint8_t addr[64];
		size_t len = sizeof(addr);

		ck_assert_int_eq(w.s[1].dev->ops->getname(w.s[1].dev, addr,
							  &len), 0);
		ck_assert_int_eq(w.s[0].dev->ops->peer_insert(w.s[0].dev,
					addr, len, &w.s[0].peer), 0);
	}
	recv_buf(&w, UET_HSI_FAMILY_MSG, buf, sizeof(buf), 0, 34);
	send_inline(&w, UET_HSI_FAMILY_MSG, "anon", 0, 35);
	ck_assert(world_wait(&w, 1, 1, 100 * MS));
	get_recv(&w.s[1], &rn);
	ck_assert_uint_eq(rn.status, 0);
	ck_assert_uint_eq(rn.src_id, UET_HSI_PEER_UNKNOWN);
	ck_assert_uint_eq(rn.total_length, 4);
	world_fini(&w);
}
END_TEST

/* ================================================================== */
/* Notification ring full                                              */
/* ================================================================== */

START_TEST(test_notifq_full)
{
	struct wopts o = { .notifq_depth = { 100, 4 } };
	uint8_t bufs[10][16], extra[16];
	struct uet_snic_stats st;
	struct world w;
	unsigned int i;
	char msg[16];

	world_init(&w, &o);
	w.s[1].hold = true;
	for (i = 0; i < 10; i++)
		recv_buf(&w, UET_HSI_FAMILY_MSG, bufs[i], sizeof(bufs[i]), 0,
			 i);
	for (i = 0; i < 10; i++) {
		snprintf(msg, sizeof(msg), "message %u", i);
		send_inline(&w, UET_HSI_FAMILY_MSG, msg, 0, 100 + i);
	}
	ck_assert(world_wait(&w, 0, 10, 200 * MS));
	for (i = 0; i < 10; i++)
		expect_send_ok(&w.s[0], 100 + i, (uint32_t)strlen("message 0"));
	uet_snic_get_stats(w.s[1].dev, &st);
	/* each receive is a pair (A's initiator is not 0) */
	ck_assert_uint_eq(st.notifs, 4);
	ck_assert_uint_eq(st.notif_deferred, 16);
	ck_assert_uint_eq(st.ses.msgs_rx, 10);

	/* Backpressure: 16 entries wait (>= depth 4), so a new command is
	 * not consumed. */
	recv_buf(&w, UET_HSI_FAMILY_MSG, extra, sizeof(extra), 0, 99);
	uet_snic_get_stats(w.s[1].dev, &st);
	ck_assert_uint_eq(st.cmds, 10);

	/* Drain: everything arrives, in order. */
	w.s[1].hold = false;
	for (i = 0; i < 40 && w.s[1].ngot < 20; i++) {
		side_collect(&w.s[1]);
		ck_assert_int_ge(uet_snic_progress_at(w.s[1].dev, w.now), 0);
	}
	side_collect(&w.s[1]);
	ck_assert_uint_eq(w.s[1].ngot, 20);
	for (i = 0; i < 10; i++) {
		snprintf(msg, sizeof(msg), "message %u", i);
		expect_recv(&w.s[1], 0, 0, (uint32_t)strlen(msg), i, false);
		ck_assert_int_eq(memcmp(bufs[i], msg, strlen(msg)), 0);
	}
	uet_snic_get_stats(w.s[1].dev, &st);
	ck_assert_uint_eq(st.notifs, 20);
	ck_assert_uint_eq(st.cmds, 11);	/* the held-back receive ran */
	/* progress returns the entries it wrote */
	send_inline(&w, UET_HSI_FAMILY_MSG, "last", 0, 200);
	ck_assert(world_wait(&w, 1, 11, 100 * MS));
	expect_recv(&w.s[1], 0, 0, 4, 99, false);
	world_fini(&w);
}
END_TEST

static uint64_t quiet_passes(struct world *w, int i)
{
	struct uet_snic_stats st;

	uet_snic_get_stats(w->s[i].dev, &st);
	return st.quiet_passes;
}

/*
 * The empty progress pass: counted quiet (nothing run but the link read)
 * only when the device has nothing to do; a command published without a
 * doorbell call and notifications waiting in the NIC keep a pass on the
 * full path, which runs the one and delivers the others.
 */
START_TEST(test_quiet_pass)
{
	struct wopts o = { .notifq_depth = { 100, 2 } };
	struct uet_snic_stats st;
	uint8_t b[4][16];
	struct world w;
	struct cmd c;
	uint64_t q;
	int i;

	world_init(&w, &o);
	world_idle(&w, 10 * MS);
	q = quiet_passes(&w, 1);
	ck_assert_int_eq(uet_snic_progress_at(w.s[1].dev, w.now), 0);
	ck_assert_uint_eq(quiet_passes(&w, 1), q + 1);

	/* Published, not rung: the pass executes it. */
	uet_snic_get_stats(w.s[1].dev, &st);
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = 0;
	cmd_sgl(&c, b[0], sizeof(b[0]));
	cmd_post_only(&w, 1, &c);
	uet_hsi_cmdq_doorbell(w.s[1].q->cmdq);
	q = quiet_passes(&w, 1);
	ck_assert_int_eq(uet_snic_progress_at(w.s[1].dev, w.now), 0);
	ck_assert_uint_eq(quiet_passes(&w, 1), q);
	{
		struct uet_snic_stats st2;

		uet_snic_get_stats(w.s[1].dev, &st2);
		ck_assert_uint_eq(st2.cmds, st.cmds + 1);
	}

	/* Notifications waiting in the NIC (ring of 2, not read): every
	 * pass flushes what fits, none is quiet until they are out. */
	w.s[1].hold = true;
	for (i = 1; i < 4; i++)
		recv_buf(&w, UET_HSI_FAMILY_MSG, b[i], sizeof(b[i]), 0,
			 (uint64_t)i);
	for (i = 0; i < 4; i++)
		send_inline(&w, UET_HSI_FAMILY_MSG, "quiet", 0, 10 + i);
	ck_assert(world_wait(&w, 0, 4, 200 * MS));
	world_idle(&w, 10 * MS);
	uet_snic_get_stats(w.s[1].dev, &st);
	ck_assert_uint_gt(st.notif_deferred, 0);
	w.s[1].hold = false;
	/* each receive is a pair (A's initiator is not 0) */
	for (i = 0; i < 8; i++) {
		side_collect(&w.s[1]);
		if (w.s[1].ngot == 8)
			break;
		q = quiet_passes(&w, 1);
		ck_assert_int_gt(uet_snic_progress_at(w.s[1].dev, w.now), 0);
		ck_assert_uint_eq(quiet_passes(&w, 1), q);
	}
	ck_assert_uint_eq(w.s[1].ngot, 8);
	for (i = 0; i < 4; i++) {
		expect_recv(&w.s[1], 0, 0, 5, (uint64_t)i, false);
		ck_assert_int_eq(memcmp(b[i], "quiet", 5), 0);
	}
	q = quiet_passes(&w, 1);
	ck_assert_int_eq(uet_snic_progress_at(w.s[1].dev, w.now), 0);
	ck_assert_uint_eq(quiet_passes(&w, 1), q + 1);
	world_fini(&w);
}
END_TEST

/* The continuation entry is never split from its receive. */
START_TEST(test_notifq_full_pair)
{
	struct wopts o = { .notifq_depth = { 100, 3 } };
	uint8_t b[3][8];
	uint8_t out[64];
	struct world w;
	struct cmd c;
	int i, n;

	world_init(&w, &o);
	w.s[1].hold = true;
	for (i = 0; i < 3; i++)
		recv_buf(&w, UET_HSI_FAMILY_MSG, b[i], sizeof(b[i]), 0,
			 (uint64_t)i);
	for (i = 0; i < 3; i++) {
		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
			 UET_HSI_DATA_INLINE);
		c.seg.remote_cq = true;
		c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1],
					  side_ri[1]);
		cmd_ext(&c, 0x100 + (uint64_t)i, 0, 0);
		cmd_inline(&c, "x", 1);
		cmd_post(&w, 0, &c);
	}
	world_idle(&w, 50 * MS);
	/* ring of 3: the first pair fits, the second does not */
	for (n = 0; uet_hsi_notifq_poll(w.s[1].q->notifq, out); n++)
		;
	ck_assert_int_eq(n, 2);
	w.s[1].hold = false;
	for (i = 0; i < 4; i++) {
		ck_assert_int_ge(uet_snic_progress_at(w.s[1].dev, w.now), 0);
		side_collect(&w.s[1]);
	}
	ck_assert_uint_eq(w.s[1].ngot, 4);
	for (i = 1; i < 3; i++) {
		expect_recv(&w.s[1], 0, 0, 1, (uint64_t)i, true);
		expect_continuation(&w.s[1], true, 0x100 + (uint64_t)i, 0);
	}
	world_fini(&w);
}
END_TEST

/* Unexpected messages refused (bound 0): RXPOOL_EXHAUSTED warning,
 * delivery once the receive is posted. */
START_TEST(test_rxpool_event)
{
	struct wopts o = { .no_unexp = { false, true } };
	struct uet_hsi_event_notif ev;
	struct world w;
	uint8_t b[16];

	world_init(&w, &o);
	send_inline(&w, UET_HSI_FAMILY_MSG, "early", 0, 1);
	ck_assert(world_wait(&w, 1, 1, 100 * MS));
	get_event(&w.s[1], &ev);
	ck_assert_uint_eq(ev.event_type, UET_HSI_EVENT_RXPOOL_EXHAUSTED);
	ck_assert_uint_eq(ev.severity, UET_HSI_SEV_WARNING);
	ck_assert_uint_ge(ev.event_data, 1);
	ck_assert_uint_eq(ev.endpoint_id, side_pid[1]);
	recv_buf(&w, UET_HSI_FAMILY_MSG, b, sizeof(b), 0, 2);
	/* retransmissions may add more warnings before delivery */
	for (;;) {
		struct uet_hsi_recv_notif rn;
		const uint8_t *e;

		ck_assert(world_wait(&w, 1, w.s[1].nread + 1, 500 * MS));
		e = next_notif(&w.s[1]);
		if (uet_hsi_notif_peek_type(e, 64) == UET_HSI_NOTIF_EVENT)
			continue;
		ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, e, 64), 64);
		ck_assert_uint_eq(rn.status, 0);
		ck_assert_uint_eq(rn.total_length, 5);
		break;
	}
	ck_assert_int_eq(memcmp(b, "early", 5), 0);
	ck_assert(world_wait(&w, 0, 1, 500 * MS));
	expect_send_ok(&w.s[0], 1, 5);
	world_fini(&w);
}
END_TEST

/* ================================================================== */
/* Cancel and close                                                    */
/* ================================================================== */

START_TEST(test_queue_cancel_close)
{
	struct uet_hsi_recv_notif rn;
	uint8_t b[5][16];
	struct world w;
	int i;

	world_init(&w, NULL);
	for (i = 0; i < 3; i++)
		recv_buf(&w, UET_HSI_FAMILY_TAGGED, b[i], sizeof(b[i]),
			 0x99, 0x50000 + (uint64_t)i);
	ck_assert_int_eq(uet_snic_queue_cancel(w.s[1].q), 0);
	side_collect(&w.s[1]);
	ck_assert_uint_eq(w.s[1].ngot, 3);
	for (i = 0; i < 3; i++) {
		get_recv(&w.s[1], &rn);
		ck_assert_uint_eq(rn.status, UET_HSI_ST_CANCELED);
		ck_assert_uint_eq(rn.buffer_id_0, (uint16_t)i);
		ck_assert_uint_eq(rn.buffer_id_1, 5);
		ck_assert_uint_eq(rn.src_id, UET_HSI_PEER_UNKNOWN);
		ck_assert_uint_eq(rn.total_length, 0);
	}
	/* the queue still works after a cancel */
	recv_buf(&w, UET_HSI_FAMILY_TAGGED, b[3], sizeof(b[3]), 0x99, 3);
	send_inline(&w, UET_HSI_FAMILY_TAGGED, "after", 0x99, 1);
	ck_assert(world_wait(&w, 1, 4, 100 * MS));
	expect_recv(&w.s[1], 0, 0x99, 5, 3, false);

	/* close with receives outstanding and a send in flight */
	recv_buf(&w, UET_HSI_FAMILY_TAGGED, b[4], sizeof(b[4]), 0x98, 4);
	send_inline(&w, UET_HSI_FAMILY_MSG, "in flight", 0, 2);
	w.s[1].dev->ops->queue_close(w.s[1].q);
	w.s[1].q = NULL;
	/* A's send fails at the target (no endpoint) and completes */
	ck_assert(world_wait(&w, 0, 2, 500 * MS));
	expect_send_ok(&w.s[0], 1, 5);
	{
		struct uet_hsi_send_cmpl sc;

		get_send(&w.s[0], &sc);
		ck_assert_uint_eq(sc.op_context, 2);
		ck_assert_uint_eq(sc.status, UET_HSI_ST_NO_ADDR);
		ck_assert_uint_eq(sc.flags, UET_RC_BAD_JOB_ID);
	}
	/* A closes with a send in flight to a peer that stopped answering */
	w.s[1].dev->ops->close(w.s[1].dev);
	{
		struct uet_link *link;
		struct uet_snic_cfg cfg;

		/* a NIC without queues takes B's place, so the link stays */
		test_cfg(&cfg, 1);
		ck_assert_int_eq(uet_link_mem_open(w.fab, 7001, &link), 0);
		ck_assert_int_eq(uet_snic_open_link(&cfg, JOB, link, true,
						    &w.s[1].dev), 0);
	}
	send_inline(&w, UET_HSI_FAMILY_MSG, "orphan", 0, 3);
	world_fini(&w);
}
END_TEST

/* Closing the device with operations outstanding: they complete with
 * UET_HSI_ST_CANCELED into the rings (queue_close was not called first). */
START_TEST(test_dev_close_cancels)
{
	struct uet_hsi_queue *q;
	struct uet_hsi_dev *dev;
	struct uet_hsi_queue_attr qa = {
		.cmdq_depth = 8, .notifq_depth = 8,
	};
	struct uet_link_mem_fabric *fab;
	struct uet_snic_cfg cfg;
	struct uet_link *link;
	uint8_t buf[16];
	struct cmd c;
	int i;

	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 1500), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 1, &link), 0);
	test_cfg(&cfg, 0);
	ck_assert_int_eq(uet_snic_open_link(&cfg, JOB, link, true, &dev), 0);
	ck_assert_int_eq(dev->ops->queue_open(dev, &qa, &q), 0);
	/* the same ids twice: -EEXIST */
	{
		struct uet_hsi_queue *q2;

		ck_assert_int_eq(dev->ops->queue_open(dev, &qa, &q2), -EEXIST);
		qa.cmdq_depth = 6;
		qa.resource_index = 1;
		ck_assert_int_eq(dev->ops->queue_open(dev, &qa, &q2), -EINVAL);
		qa.cmdq_depth = 8;
		qa.notifq_depth = 13;
		ck_assert_int_eq(dev->ops->queue_open(dev, &qa, &q2), -EINVAL);
		qa.notifq_depth = 8;
		qa.pid_on_fep = 0x1000;
		ck_assert_int_eq(dev->ops->queue_open(dev, &qa, &q2), -EINVAL);
	}
	for (i = 0; i < 3; i++) {
		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
			 UET_HSI_DATA_SGL);
		c.seg.metadata = (uint64_t)i;
		cmd_sgl(&c, buf, sizeof(buf));
		c.seg.sgl_count = 0;
		ck_assert_int_eq(uet_hsi_cmdq_post(q->cmdq, &c.seg, NULL, 0),
				 0);
	}
	uet_hsi_cmdq_doorbell(q->cmdq);
	ck_assert_int_eq(uet_snic_doorbell_at(q, 1), 0);
	ck_assert_int_eq(uet_snic_queue_cancel(q), 0);
	{
		uint8_t out[64];
		struct uet_hsi_recv_notif rn;

		for (i = 0; i < 3; i++) {
			ck_assert_int_eq(uet_hsi_notifq_poll(q->notifq, out),
					 1);
			ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, out,
								   64), 64);
			ck_assert_uint_eq(rn.status, UET_HSI_ST_CANCELED);
			ck_assert_uint_eq(rn.buffer_id_0, i);
		}
	}
	/* outstanding again, then the device closes (ASan: no leak) */
	ck_assert_int_eq(uet_hsi_cmdq_post(q->cmdq, &c.seg, NULL, 0), 0);
	uet_hsi_cmdq_doorbell(q->cmdq);
	ck_assert_int_eq(uet_snic_doorbell_at(q, 2), 0);
	dev->ops->close(dev);
	uet_link_mem_fabric_destroy(fab);
}
END_TEST

/* ================================================================== */
/* Peers, names, memory registrations                                  */
/* ================================================================== */

START_TEST(test_peers)
{
	struct uet_link_mem_fabric *fab;
	struct uet_snic_cfg cfg;
	struct uet_link *link;
	struct uet_hsi_dev *dev;
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	uint8_t name[64];
	uint64_t h[8];
	size_t len;
	int i;

	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 1500), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 4321, &link), 0);
	test_cfg(&cfg, 0);
	ck_assert_int_eq(uet_snic_open_link(&cfg, JOB, link, true, &dev), 0);
	ck_assert(dev->ops->present());
	ck_assert_str_eq(dev->ops->name, "snic");

	/* getname: a sockaddr_in of 127.0.0.1:4321 */
	len = 4;
	ck_assert_int_eq(dev->ops->getname(dev, name, &len), -ENOBUFS);
	ck_assert_uint_eq(len, sizeof(struct sockaddr_in));
	len = sizeof(name);
	ck_assert_int_eq(dev->ops->getname(dev, name, &len), 0);
	ck_assert_uint_eq(len, sizeof(s4));
	memcpy(&s4, name, sizeof(s4));
	ck_assert_int_eq(s4.sin_family, AF_INET);
	ck_assert_uint_eq(ntohs(s4.sin_port), 4321);
	ck_assert_uint_eq(ntohl(s4.sin_addr.s_addr), 0x7f000001);

	/* the same address twice: the same handle, counted */
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[0]),
			 0);
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[1]),
			 0);
	ck_assert_uint_eq(h[0], h[1]);
	/* sin_zero is padding: ignored */
	memset(s4.sin_zero, 0x5a, sizeof(s4.sin_zero));
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[1]),
			 0);
	ck_assert_uint_eq(h[0], h[1]);
	s4.sin_port = htons(4322);
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[2]),
			 0);
	ck_assert_uint_ne(h[2], h[0]);
	memset(&s6, 0, sizeof(s6));
	s6.sin6_family = AF_INET6;
	s6.sin6_port = htons(4321);
	s6.sin6_addr.s6_addr[15] = 1;
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s6, sizeof(s6), &h[3]),
			 0);
	ck_assert_uint_eq(h[3], 2);
	/* bad addresses */
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s6, sizeof(s4), &h[4]),
			 -EINVAL);
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s6), &h[4]),
			 -EINVAL);
	ck_assert_int_eq(dev->ops->peer_insert(dev, NULL, sizeof(s4), &h[4]),
			 -EINVAL);
	s4.sin_family = AF_UNIX;
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[4]),
			 -EINVAL);
	s4.sin_family = AF_INET;

	/* remove: three references on h[0] */
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(dev->ops->peer_remove(dev, h[0]), 0);
	ck_assert_int_eq(dev->ops->peer_remove(dev, h[0]), -ENOENT);
	ck_assert_int_eq(dev->ops->peer_remove(dev, 1000), -ENOENT);
	ck_assert_int_eq(dev->ops->peer_remove(dev, 1ull << 40), -ENOENT);
	/* the freed handle is reused */
	s4.sin_port = htons(5000);
	ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4), &h[5]),
			 0);
	ck_assert_uint_eq(h[5], h[0]);
	/* many peers: the table grows */
	for (i = 0; i < 300; i++) {
		uint64_t x;

		s4.sin_port = htons((uint16_t)(10000 + i));
		ck_assert_int_eq(dev->ops->peer_insert(dev, &s4, sizeof(s4),
						       &x), 0);
		ck_assert_uint_eq(x, 3 + (uint64_t)i);
	}
	ck_assert_int_ge(dev->ops->wait_fd(dev), 0);
	dev->ops->close(dev);
	uet_link_mem_fabric_destroy(fab);
}
END_TEST

START_TEST(test_mr_table)
{
	struct uet_link_mem_fabric *fab;
	struct uet_snic_cfg cfg;
	struct uet_link *link;
	struct uet_hsi_dev *dev;
	static uint8_t mem[4096];
	uint64_t k1, k2, k3;

	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 1500), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, 1, &link), 0);
	test_cfg(&cfg, 0);
	ck_assert_int_eq(uet_snic_open_link(&cfg, JOB, link, true, &dev), 0);

	/* k1: [mem + 16, mem + 4016) */
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem + 16, 4000,
					  UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
					  0, &k1), 0);
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem + 100, 100, UET_HSI_ACCESS_SEND, 0, &k2),
			 0);
	ck_assert_int_eq(dev->ops->mr_reg(dev, NULL, 0, UET_HSI_ACCESS_RECV, 0, &k3), 0);
	ck_assert_uint_ne(k1, 0);
	ck_assert_uint_ne(k1, k2);
	ck_assert_uint_ne(k2, k3);
	ck_assert_uint_ne(k1, k3);
	/* provider keys of the SES RI table */
	ck_assert(k1 & k2 & k3 & UET_SES_MKEY_PROV);
	/* user keys: bit 63 clear, unique */
	k3 = 0x1234;
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 8, UET_HSI_ACCESS_REMOTE_READ,
					  UET_HSI_MR_USER_KEY |
					  UET_HSI_MR_VIRT_ADDR, &k3), 0);
	ck_assert_uint_eq(k3, 0x1234);
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 8, UET_HSI_ACCESS_REMOTE_READ,
					  UET_HSI_MR_USER_KEY, &k3), -EEXIST);
	k3 = UET_SES_MKEY_PROV | 0x1234;
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 8, UET_HSI_ACCESS_REMOTE_READ,
					  UET_HSI_MR_USER_KEY, &k3), -EINVAL);
	k3 = 0x1234;
	ck_assert_int_eq(uet_snic_mr_check(dev, k3, mem, 8, UET_HSI_ACCESS_REMOTE_READ),
			 0);
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 8, UET_HSI_ACCESS_REMOTE_READ, 0x4,
					  &k3), -EINVAL);
	k3 = 0x1234;
	ck_assert_int_eq(dev->ops->mr_dereg(dev, k3), 0);
	/* validation */
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 1, 0, 0, &k3), 0);
	ck_assert_int_eq(dev->ops->mr_dereg(dev, k3), 0);
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 1, 1ull << 62, 0, &k3),
			 -EINVAL);
	ck_assert_int_eq(dev->ops->mr_reg(dev, NULL, 1, UET_HSI_ACCESS_SEND, 0, &k3),
			 -EINVAL);
	ck_assert_int_eq(dev->ops->mr_reg(dev, (void *)(UINTPTR_MAX - 10),
					  100, UET_HSI_ACCESS_SEND, 0, &k3), -EINVAL);
	ck_assert_int_eq(dev->ops->mr_reg(dev, mem, 1, UET_HSI_ACCESS_SEND, 0, NULL),
			 -EINVAL);
	/* lookups */
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 16, 4000,
					   UET_HSI_ACCESS_REMOTE_READ), 0);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 4000, 16,
					   UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE),
			 0);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 4000, 17,
					   UET_HSI_ACCESS_REMOTE_READ), -EFAULT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 15, 1,
					   UET_HSI_ACCESS_REMOTE_READ), -EFAULT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 15, 0,
					   UET_HSI_ACCESS_REMOTE_READ), -EFAULT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 16, 1, UET_HSI_ACCESS_SEND),
			 -EACCES);
	ck_assert_int_eq(uet_snic_mr_check(dev, k2, mem + 150, 50, UET_HSI_ACCESS_SEND),
			 0);
	ck_assert_int_eq(uet_snic_mr_check(dev, k2, mem + 99, 2, UET_HSI_ACCESS_SEND),
			 -EFAULT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1 ^ k2 ^ 1, mem, 1, 0),
			 -ENOENT);
	/* deregistration */
	ck_assert_int_eq(dev->ops->mr_dereg(dev, k2), 0);
	ck_assert_int_eq(dev->ops->mr_dereg(dev, k2), -ENOENT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k2, mem + 150, 50, UET_HSI_ACCESS_SEND),
			 -ENOENT);
	ck_assert_int_eq(uet_snic_mr_check(dev, k1, mem + 16, 1,
					   UET_HSI_ACCESS_REMOTE_READ), 0);
	/* k1, k3 are still registered: close frees them (ASan) */
	dev->ops->close(dev);
	uet_link_mem_fabric_destroy(fab);
}
END_TEST

/* ================================================================== */
/* Configuration                                                       */
/* ================================================================== */

START_TEST(test_env)
{
	struct uet_snic_cfg cfg, def;
	size_t i;

	uet_snic_cfg_default(&def);
	ck_assert_uint_eq(def.mtu, 0);
	ck_assert_uint_eq(def.rdzv_threshold, 2 * 1024 * 1024);
	ck_assert_uint_eq(def.unexp_max_bytes, 64ull << 20);
	ck_assert_uint_eq(def.mode, UET_PDS_MODE_RUD);
	ck_assert_uint_eq(def.pds.dead_ns, 30000 * MS);
	ck_assert_uint_eq(def.pds.unreach_ns, 1000 * MS);
	ck_assert_uint_eq(def.pds.window, 256);

	/* nothing set: nothing changes, even a caller's own values */
	cfg = def;
	cfg.rdzv_threshold = 12345;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.rdzv_threshold, 12345);

	setenv("FI_UET_MTU", "9000", 1);
	setenv("FI_UET_RDZV_THRESHOLD", "1M", 1);
	setenv("FI_UET_UNEXP_MAX", "2G", 1);
	setenv("FI_UET_UNEXP_MSGS", "77", 1);
	setenv("FI_UET_DELIVERY", "ROD", 1);
	setenv("FI_UET_RTO_MIN_US", "10000", 1);
	setenv("FI_UET_MAX_RETRIES", "3", 1);
	setenv("FI_UET_DEAD_MS", "250", 1);
	setenv("FI_UET_UNREACH_MS", "0", 1);
	setenv("FI_UET_PORT", "5555", 1);
	ck_assert_uint_eq(uet_snic_env_loss_ppm(), 0);
	setenv("FI_UET_LOSS_PPM", "10000", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.mtu, 9000);
	ck_assert_uint_eq(cfg.rdzv_threshold, 1u << 20);
	ck_assert_uint_eq(cfg.unexp_max_bytes, 2ull << 30);
	ck_assert_uint_eq(cfg.unexp_max_msgs, 77);
	ck_assert_uint_eq(cfg.mode, UET_PDS_MODE_ROD);
	ck_assert_uint_eq(cfg.pds.rto_min_ns, 10 * MS);
	ck_assert_uint_eq(cfg.pds.rto_init_ns, 10 * MS);	/* raised */
	ck_assert_uint_eq(cfg.pds.max_retries, 3);
	ck_assert_uint_eq(cfg.pds.dead_ns, 250 * MS);
	ck_assert_uint_eq(cfg.pds.unreach_ns, 0);
	ck_assert_uint_eq(uet_snic_env_port(), 5555);
	ck_assert_uint_eq(uet_snic_env_loss_ppm(), 10000);
	/* invalid values: the variable's default */
	setenv("FI_UET_DELIVERY", "rudi", 1);
	setenv("FI_UET_PORT", "70000", 1);
	setenv("FI_UET_MTU", "64KB", 1);
	setenv("FI_UET_LOSS_PPM", "1000001", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.mode, UET_PDS_MODE_RUD);
	ck_assert_uint_eq(cfg.mtu, 0);
	ck_assert_uint_eq(uet_snic_env_port(), 0);
	ck_assert_uint_eq(uet_snic_env_loss_ppm(), 0);
	unsetenv("FI_UET_MTU");
	unsetenv("FI_UET_RDZV_THRESHOLD");
	unsetenv("FI_UET_UNEXP_MAX");
	unsetenv("FI_UET_UNEXP_MSGS");
	unsetenv("FI_UET_DELIVERY");
	unsetenv("FI_UET_RTO_MIN_US");
	unsetenv("FI_UET_MAX_RETRIES");
	unsetenv("FI_UET_DEAD_MS");
	unsetenv("FI_UET_UNREACH_MS");
	unsetenv("FI_UET_PORT");
	unsetenv("FI_UET_LOSS_PPM");

	/* congestion management (docs/congestion.md): nscc by default */
	ck_assert_uint_eq(def.pds.cc, UET_PDS_CC_NSCC);
	ck_assert_uint_eq(def.pds.cc_entropies, 1);
	setenv("FI_UET_CC", "both", 1);
	setenv("FI_UET_CC_MBPS", "25000", 1);
	setenv("FI_UET_CC_RTT_US", "8", 1);
	setenv("FI_UET_CC_ENTROPIES", "16", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.pds.cc, UET_PDS_CC_NSCC | UET_PDS_CC_RCCC);
	ck_assert_uint_eq(cfg.pds.cc_rate_bps, 25000000000ull);
	ck_assert_uint_eq(cfg.pds.cc_base_rtt_ns, 8000);
	ck_assert_uint_eq(cfg.pds.cc_entropies, 16);
	setenv("FI_UET_CC", "off", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.pds.cc, 0);
	setenv("FI_UET_CC", "reno", 1);		/* invalid: the default */
	setenv("FI_UET_CC_ENTROPIES", "65", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert_uint_eq(cfg.pds.cc, UET_PDS_CC_NSCC);
	ck_assert_uint_eq(cfg.pds.cc_entropies, 1);
	unsetenv("FI_UET_CC");
	unsetenv("FI_UET_CC_MBPS");
	unsetenv("FI_UET_CC_RTT_US");
	unsetenv("FI_UET_CC_ENTROPIES");
	/* pacing and CSIG: off unless asked */
	ck_assert(!def.pds.cc_pace);
	ck_assert(!def.pds.cc_csig);
	setenv("FI_UET_CC_PACE", "1", 1);
	setenv("FI_UET_CC_CSIG", "1", 1);
	cfg = def;
	uet_snic_cfg_from_env(&cfg);
	ck_assert(cfg.pds.cc_pace);
	ck_assert(cfg.pds.cc_csig);
	unsetenv("FI_UET_CC_PACE");
	unsetenv("FI_UET_CC_CSIG");

	/* FI_UET_LINK: udp unless asked (docs/software-nic.md) */
	ck_assert_int_eq(uet_snic_env_link(), UET_SNIC_LINK_UDP);
	setenv("FI_UET_LINK", "xdp", 1);
	ck_assert_int_eq(uet_snic_env_link(), UET_SNIC_LINK_XDP);
	setenv("FI_UET_LINK", "auto", 1);
	ck_assert_int_eq(uet_snic_env_link(), UET_SNIC_LINK_AUTO);
	unsetenv("FI_UET_LINK");

	/* the declarations register (names, defaults within range) */
	ck_assert_uint_eq(uet_snic_env_nvars, 22);
	for (i = 0; i < uet_snic_env_nvars; i++)
		ck_assert_ptr_nonnull(uet_snic_env_vars[i]->help);
	ck_assert_int_eq(uet_env_register_all(uet_snic_env_vars,
					      uet_snic_env_nvars), 0);
	ck_assert_ptr_nonnull(uet_env_lookup("rdzv_threshold"));
	ck_assert_ptr_nonnull(uet_env_lookup("delivery"));
	ck_assert_ptr_nonnull(uet_env_lookup("tss"));
	ck_assert_ptr_nonnull(uet_env_lookup("link"));
	ck_assert_ptr_nonnull(uet_env_lookup("tss_key_file"));
	uet_env_unregister_all();
}
END_TEST

/* FI_UET_TSS_KEY_FILE naming something that is not a regular file
 * (issue 30, finding 10): a FIFO made the open block until a writer came
 * (fi_domain hung); it, a symbolic link and a directory are refused at
 * once.  alarm() turns a hang into a failure. */
START_TEST(test_env_tss_key_not_file)
{
	char dir[] = "/tmp/check_snic_unit.XXXXXX", fifo[128], link[128];
	char key[128];
	struct uet_tss_cfg tc;
	uint8_t secret[32];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(key, sizeof(key), "%s/key", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	memset(secret, 0x5c, sizeof(secret));
	uet_test_write_file(key, secret, sizeof(secret), 0600);
	ck_assert_int_eq(symlink(key, link), 0);
	setenv("FI_UET_TSS", "required", 1);
	alarm(10);
	setenv("FI_UET_TSS_KEY_FILE", fifo, 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), -EPERM);
	setenv("FI_UET_TSS_KEY_FILE", link, 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), -ELOOP);
	setenv("FI_UET_TSS_KEY_FILE", dir, 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), -EPERM);
	setenv("FI_UET_TSS_KEY_FILE", key, 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), 0);
	ck_assert_mem_eq(tc.secret, secret, sizeof(secret));
	alarm(0);
	unsetenv("FI_UET_TSS");
	unsetenv("FI_UET_TSS_KEY_FILE");
	unlink(link);
	unlink(key);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

/* ================================================================== */
/* Auto-progress thread over real UDP                                  */
/* ================================================================== */

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll q's ring for up to limit_ms; true when an entry came. */
static bool wait_notif(struct uet_hsi_queue *q, uint8_t out[64],
		       unsigned int limit_ms)
{
	unsigned int t;

	for (t = 0; t <= limit_ms; t++) {
		if (uet_hsi_notifq_poll(q->notifq, out))
			return true;
		sleep_ms(1);
	}
	return false;
}

/* Whether the epoll set epfd watches fd (its /proc fdinfo "tfd:" lines). */
static bool epoll_watches(int epfd, int fd)
{
	char path[64], line[256];
	bool found = false;
	FILE *f;
	int tfd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", epfd);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "tfd: %d", &tfd) == 1 && tfd == fd)
			found = true;
	fclose(f);
	return found;
}

/*
 * The link's socket joins the wait fd's epoll set only when someone may
 * sleep: a device only ever polled keeps it out (every datagram queued
 * on a watched socket runs the epoll callback in the sender's system
 * call).  wait_fd() adds it, and a datagram that arrived before makes
 * the set ready at once; starting the auto-progress thread adds it too.
 */
START_TEST(test_wait_link_lazy)
{
	struct uet_hsi_dev_attr da = { .host = "127.0.0.1", .job_id = 7 };
	const struct uet_hsi_dev_ops *ops = &uet_snic_dev_ops;
	struct uet_snic_dev *sa, *sb;
	struct uet_hsi_dev *a, *b;
	struct uet_link_addr la;
	struct pollfd pfd;
	int lfd, s;

	ck_assert_int_eq(ops->open(&da, &a), 0);
	ck_assert_int_eq(ops->open(&da, &b), 0);
	sa = uet_snic_dev_of(a);
	sb = uet_snic_dev_of(b);
	lfd = sa->link->ops->fd(sa->link);
	ck_assert_int_ge(lfd, 0);
	ck_assert(epoll_watches(sa->wait_fd, sa->timer_fd));
	ck_assert(!epoll_watches(sa->wait_fd, lfd));
	ck_assert_int_eq(ops->progress(a), 0);
	ck_assert(!epoll_watches(sa->wait_fd, lfd));

	/* a datagram queued before anyone waits */
	ck_assert_int_eq(sa->link->ops->local_addr(sa->link, &la), 0);
	s = socket(la.ss.ss_family, SOCK_DGRAM, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(sendto(s, "x", 1, 0, (struct sockaddr *)&la.ss,
				la.len), 1);
	close(s);
	ck_assert_int_eq(ops->wait_fd(a), sa->wait_fd);
	ck_assert(epoll_watches(sa->wait_fd, lfd));
	pfd.fd = sa->wait_fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	ck_assert_int_eq(poll(&pfd, 1, 2000), 1);
	/* once is enough */
	ck_assert_int_eq(ops->wait_fd(a), sa->wait_fd);
	ck_assert(epoll_watches(sa->wait_fd, lfd));

	lfd = sb->link->ops->fd(sb->link);
	ck_assert(!epoll_watches(sb->wait_fd, lfd));
	ck_assert_int_eq(uet_snic_auto_progress_start(b), 0);
	ck_assert(epoll_watches(sb->wait_fd, lfd));
	uet_snic_auto_progress_stop(b);
	ops->close(a);
	ops->close(b);
}
END_TEST

/* Poll until the epoll set epfd watches fd (want) or not, for at most
 * ms.  With dev, a progress call between looks (the application is
 * busy). */
static bool epoll_watches_within(int epfd, int fd, bool want,
				 const struct uet_hsi_dev_ops *ops,
				 struct uet_hsi_dev *dev, unsigned int ms)
{
	uint64_t end = uet_clock_now_ns() + ms * UET_NSEC_PER_MSEC;

	while (uet_clock_now_ns() < end) {
		if (epoll_watches(epfd, fd) == want)
			return true;
		if (dev)
			(void)ops->progress(dev);
		usleep(500);
	}
	return false;
}

/*
 * The standby thread answering for a silent application puts the link's
 * socket in the wait fd's epoll set, and takes it out again once the
 * application calls again (a pause at start-up must not cost every
 * datagram of the run); after wait_fd() was handed out it stays.
 */
START_TEST(test_wait_link_standby)
{
	struct uet_hsi_dev_attr da = { .host = "127.0.0.1", .job_id = 7 };
	const struct uet_hsi_dev_ops *ops = &uet_snic_dev_ops;
	struct uet_snic_dev *sa;
	struct uet_hsi_dev *a;
	int lfd;

	ck_assert_int_eq(ops->open(&da, &a), 0);
	sa = uet_snic_dev_of(a);
	lfd = sa->link->ops->fd(sa->link);
	ck_assert(!epoll_watches(sa->wait_fd, lfd));
	ck_assert_int_eq(uet_snic_standby_start(a, 20 * UET_NSEC_PER_MSEC),
			 0);
	/* silent: the thread answers */
	ck_assert(epoll_watches_within(sa->wait_fd, lfd, true, ops, NULL,
					 5000));
	/* busy again: out */
	ck_assert(epoll_watches_within(sa->wait_fd, lfd, false, ops, a, 5000));
	/* silent again, then wait_fd(): it stays after the thread lets go */
	ck_assert(epoll_watches_within(sa->wait_fd, lfd, true, ops, NULL,
					 5000));
	ck_assert_int_eq(ops->wait_fd(a), sa->wait_fd);
	/* ten of the thread's looks while the application is busy */
	ck_assert(!epoll_watches_within(sa->wait_fd, lfd, false, ops, a, 200));
	uet_snic_standby_stop(a);
	ck_assert(epoll_watches(sa->wait_fd, lfd));
	ops->close(a);
}
END_TEST

START_TEST(test_auto_progress_udp)
{
	struct uet_hsi_dev_attr da = { .host = "127.0.0.1", .job_id = 7 };
	struct uet_hsi_queue_attr qa = {
		.cmdq_depth = 16, .notifq_depth = 16, .pid_on_fep = 1,
	};
	const struct uet_hsi_dev_ops *ops = &uet_snic_dev_ops;
	struct uet_hsi_queue *qa_, *qb;
	struct uet_hsi_dev *a, *b;
	struct uet_hsi_send_cmpl sc;
	struct uet_hsi_recv_cont rc;
	struct uet_hsi_recv_notif rn;
	static uint8_t src[20000], dst[20000];
	uint8_t name[64], out[64];
	uint64_t peer, t0;
	size_t len = sizeof(name);
	struct cmd c;
	int round;

	ck_assert_int_eq(ops->open(&da, &a), 0);
	ck_assert_int_eq(ops->open(&da, &b), 0);
	ck_assert_int_eq(ops->queue_open(a, &qa, &qa_), 0);
	ck_assert_int_eq(ops->queue_open(b, &qa, &qb), 0);
	ck_assert_int_eq(ops->getname(b, name, &len), 0);
	ck_assert_int_eq(ops->peer_insert(a, name, len, &peer), 0);
	ck_assert_int_ge(ops->wait_fd(a), 0);

	ck_assert_int_eq(uet_snic_auto_progress_start(a), 0);
	ck_assert_int_eq(uet_snic_auto_progress_start(a), -EALREADY);
	ck_assert_int_eq(uet_snic_auto_progress_start(b), 0);

	for (round = 0; round < 3; round++) {
		uet_test_fill(src, sizeof(src), (unsigned int)round);
		memset(dst, 0, sizeof(dst));
		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
			 UET_HSI_DATA_SGL);
		c.seg.completion = true;
		c.seg.metadata = (uint64_t)round;
		cmd_sgl(&c, dst, sizeof(dst));
		ck_assert_int_eq(uet_hsi_cmdq_post(qb->cmdq, &c.seg, NULL, 0),
				 0);
		uet_hsi_cmdq_doorbell(qb->cmdq);
		ck_assert_int_eq(ops->doorbell(qb), 0);

		cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
			 UET_HSI_DATA_SGL);
		c.seg.completion = true;
		c.seg.metadata = 100 + (uint64_t)round;
		c.seg.dest = UET_HSI_DEST(peer, 1, 0);
		cmd_sgl(&c, src, sizeof(src));
		ck_assert_int_eq(uet_hsi_cmdq_post(qa_->cmdq, &c.seg, NULL,
						   0), 0);
		uet_hsi_cmdq_doorbell(qa_->cmdq);
		ck_assert_int_eq(ops->doorbell(qa_), 0);

		/* the test itself never calls progress */
		ck_assert(wait_notif(qb, out, 5000));
		ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, out, 64), 64);
		ck_assert_uint_eq(rn.status, 0);
		ck_assert_uint_eq(rn.total_length, sizeof(src));
		ck_assert_uint_eq(rn.buffer_id_0, round);
		ck_assert_uint_eq(rn.src_id, UET_HSI_PEER_UNKNOWN);
		ck_assert_int_eq(memcmp(src, dst, sizeof(src)), 0);
		if (rn.continuation) {
			/* the sender's initiator */
			ck_assert(wait_notif(qb, out, 5000));
			ck_assert_int_eq(uet_hsi_recv_cont_decode(&rc, out,
								  64), 64);
			ck_assert(!rc.has_data && !rc.mr_valid);
		}
		ck_assert(wait_notif(qa_, out, 5000));
		ck_assert_int_eq(uet_hsi_send_cmpl_decode(&sc, out, 64), 64);
		ck_assert_uint_eq(sc.status, 0);
		ck_assert_uint_eq(sc.op_context, 100 + (uint64_t)round);
		ck_assert_uint_eq(sc.bytes_sent, sizeof(src));
	}

	/* stop is bounded */
	t0 = uet_clock_now_ns();
	uet_snic_auto_progress_stop(a);
	uet_snic_auto_progress_stop(a);		/* idempotent */
	ck_assert_uint_lt(uet_clock_now_ns() - t0, 2 * UET_NSEC_PER_SEC);
	/* close stops b's thread itself */
	ops->queue_close(qa_);
	ops->queue_close(qb);
	ops->close(a);
	ops->close(b);
}
END_TEST

/* The idle thread sleeps: it makes (almost) no progress calls. */
START_TEST(test_auto_progress_idle)
{
	struct uet_hsi_dev_attr da = { .host = "127.0.0.1", .job_id = 1 };
	const struct uet_hsi_dev_ops *ops = &uet_snic_dev_ops;
	struct uet_hsi_dev *a;
	struct uet_snic_stats st1, st2;

	ck_assert_int_eq(ops->open(&da, &a), 0);
	ck_assert_int_eq(uet_snic_auto_progress_start(a), 0);
	uet_snic_get_stats(a, &st1);
	sleep_ms(100);
	uet_snic_get_stats(a, &st2);
	/* no datagrams, no timers: nothing ran (stats unchanged) */
	ck_assert_uint_eq(st2.pds.rx_pkts, st1.pds.rx_pkts);
	ck_assert_uint_eq(uet_snic_next_deadline(a), UINT64_MAX);
	ops->close(a);
}
END_TEST

/* ================================================================== */
/* The send before the receives ahead of it (the datagram out first)   */
/* ================================================================== */

static uint64_t send_first_count(struct world *w, int i)
{
	struct uet_snic_stats st;

	uet_snic_get_stats(w->s[i].dev, &st);
	return st.send_first;
}

static uint64_t cmds_count(struct world *w, int i)
{
	struct uet_snic_stats st;

	uet_snic_get_stats(w->s[i].dev, &st);
	return st.cmds;
}

/* Published on A, not rung: a receive into buf, or a send to B. */
static void a_recv_only(struct world *w, void *buf, uint32_t len,
			uint64_t md)
{
	struct cmd c;

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_RECV,
		 UET_HSI_DATA_SGL);
	c.seg.completion = true;
	c.seg.metadata = md;
	cmd_sgl(&c, buf, len);
	cmd_post_only(w, 0, &c);
}

static void a_send_only(struct world *w, const char *data, uint64_t md,
			bool fence)
{
	struct cmd c;

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.fence = fence;
	c.seg.metadata = md;
	c.seg.dest = UET_HSI_DEST(w->s[0].peer, side_pid[1], side_ri[1]);
	cmd_inline(&c, data, (uint16_t)strlen(data));
	cmd_post_only(w, 0, &c);
}

/* A send from B to A's queue. */
static void b_send(struct world *w, const char *data, uint64_t md)
{
	struct cmd c;

	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.completion = true;
	c.seg.metadata = md;
	c.seg.dest = UET_HSI_DEST(w->s[1].peer, side_pid[0], side_ri[0]);
	cmd_inline(&c, data, (uint16_t)strlen(data));
	cmd_post(w, 1, &c);
}

/* A's notifications so far: its send completions (metadata, in order)
 * and its receives (metadata and length, in order). */
struct a_seen {
	uint64_t sent[16], recv_md[16];
	uint32_t recv_len[16];
	unsigned int nsent, nrecv;
};

static void a_collect(struct world *w, struct a_seen *a)
{
	struct uet_hsi_send_cmpl sc;
	struct uet_hsi_recv_notif rn;
	struct side *s = &w->s[0];
	const uint8_t *e;

	side_collect(s);
	while (s->nread < s->ngot) {
		e = next_notif(s);
		if (uet_hsi_notif_peek_type(e, 64) == UET_HSI_NOTIF_SEND) {
			ck_assert_int_eq(uet_hsi_send_cmpl_decode(&sc, e, 64),
					 64);
			ck_assert_uint_eq(sc.status, 0);
			ck_assert_uint_lt(a->nsent, 16);
			a->sent[a->nsent++] = sc.op_context;
			continue;
		}
		ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, e, 64), 64);
		if (rn.status == 0 && e[1] == UET_HSI_RECV_FLAG_CONTINUATION)
			continue;	/* B's initiator */
		ck_assert_uint_eq(rn.status, 0);
		ck_assert_uint_lt(a->nrecv, 16);
		a->recv_md[a->nrecv] = rn.buffer_id_0 |
				       (uint64_t)rn.buffer_id_1 << 16;
		a->recv_len[a->nrecv++] = rn.total_length;
	}
}

/* Until A has seen nsent send completions and nrecv receives. */
static void a_wait(struct world *w, struct a_seen *a, unsigned int nsent,
		   unsigned int nrecv)
{
	uint64_t end = w->now + 200 * MS;

	for (;;) {
		world_poll(w);
		a_collect(w, a);
		if (a->nsent >= nsent && a->nrecv >= nrecv)
			break;
		ck_assert_uint_lt(w->now, end);
		world_step(w, end);
	}
	ck_assert_uint_eq(a->nsent, nsent);
	ck_assert_uint_eq(a->nrecv, nrecv);
}

/*
 * A doorbell with receives and then a send (a reply posted after its
 * receive) runs the send first, then the receives in their order: the
 * results are those of the posting order.
 */
START_TEST(test_send_first)
{
	uint8_t bb[16], ab[3][16];
	struct a_seen a = { .nsent = 0 };
	struct world w;
	uint64_t c0;
	int i;

	world_init(&w, NULL);
	recv_buf(&w, UET_HSI_FAMILY_MSG, bb, sizeof(bb), 0, 100);
	c0 = cmds_count(&w, 0);
	for (i = 0; i < 3; i++)
		a_recv_only(&w, ab[i], sizeof(ab[i]), 1 + (uint64_t)i);
	a_send_only(&w, "ping", 9, false);
	ring(&w, 0);
	ck_assert_uint_eq(send_first_count(&w, 0), 1);
	ck_assert_uint_eq(cmds_count(&w, 0), c0 + 4);
	ck_assert_uint_eq(w.s[0].q->cmdq->cons.ci,
			  w.s[0].q->cmdq->cons.db_cache);

	ck_assert(world_wait(&w, 1, 2, 100 * MS));
	expect_recv(&w.s[1], 0, 0, 4, 100, false);
	ck_assert_int_eq(memcmp(bb, "ping", 4), 0);
	b_send(&w, "pong0", 20);
	b_send(&w, "pong-1", 21);
	b_send(&w, "pong--2", 22);
	a_wait(&w, &a, 1, 3);
	ck_assert_uint_eq(a.sent[0], 9);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(a.recv_md[i], 1 + (uint64_t)i);
		ck_assert_uint_eq(a.recv_len[i], 5 + (uint32_t)i);
	}
	ck_assert_int_eq(memcmp(ab[0], "pong0", 5), 0);
	ck_assert_int_eq(memcmp(ab[1], "pong-1", 6), 0);
	ck_assert_int_eq(memcmp(ab[2], "pong--2", 7), 0);
	ck_assert_uint_eq(send_first_count(&w, 1), 0);	/* B: sends alone */
	world_fini(&w);
}
END_TEST

/* The usual order when the pattern does not hold: a send alone, a
 * FENCE send, more receives ahead than UET_SNIC_SEND_FIRST_MAX (the
 * first runs, the send overtakes the rest), and commands run by a
 * progress pass instead of a doorbell. */
START_TEST(test_send_first_fallback)
{
	uint8_t bb[16][16], ab[16][16];
	struct a_seen a = { .nsent = 0 };
	struct world w;
	unsigned int k, nrecv = 0, nsent = 0;
	uint64_t md = 1;
	int i;

	world_init(&w, NULL);
	for (i = 0; i < 16; i++)
		recv_buf(&w, UET_HSI_FAMILY_MSG, bb[i], sizeof(bb[i]), 0,
			 100 + (uint64_t)i);

	a_send_only(&w, "alone", md++, false);
	ring(&w, 0);
	nsent++;
	ck_assert_uint_eq(send_first_count(&w, 0), 0);
	world_idle(&w, 20 * MS);	/* acknowledged: the FENCE won't wait */

	a_recv_only(&w, ab[nrecv++], sizeof(ab[0]), md++);
	a_send_only(&w, "fenced", md++, true);
	ring(&w, 0);
	nsent++;
	ck_assert_uint_eq(send_first_count(&w, 0), 0);

	for (k = 0; k < UET_SNIC_SEND_FIRST_MAX + 1; k++)
		a_recv_only(&w, ab[nrecv++], sizeof(ab[0]), md++);
	a_send_only(&w, "many", md++, false);
	ring(&w, 0);
	nsent++;
	/* the first receive runs first, the send overtakes the next 8 */
	ck_assert_uint_eq(send_first_count(&w, 0), 1);

	a_recv_only(&w, ab[nrecv++], sizeof(ab[0]), md++);
	a_send_only(&w, "pass", md++, false);
	uet_hsi_cmdq_doorbell(w.s[0].q->cmdq);
	ck_assert_int_ge(uet_snic_progress_at(w.s[0].dev, w.now), 0);
	nsent++;
	ck_assert_uint_eq(send_first_count(&w, 0), 1);
	ck_assert_uint_eq(w.s[0].q->cmdq->cons.ci,
			  w.s[0].q->cmdq->cons.db_cache);

	/* Every receive of A matches in posting order. */
	ck_assert(world_wait(&w, 1, 2 * nsent, 100 * MS));
	for (k = 0; k < nrecv; k++) {
		char m[16];

		snprintf(m, sizeof(m), "r%u", k);
		b_send(&w, m, 200 + k);
	}
	a_wait(&w, &a, nsent, nrecv);
	for (k = 0; k < nrecv; k++) {
		char m[16];

		snprintf(m, sizeof(m), "r%u", k);
		ck_assert_uint_eq(a.recv_len[k], strlen(m));
		ck_assert_int_eq(memcmp(ab[k], m, strlen(m)), 0);
		ck_assert_uint_lt(a.recv_md[k], md);
		if (k)
			ck_assert_uint_gt(a.recv_md[k], a.recv_md[k - 1]);
	}
	world_fini(&w);
}
END_TEST

/*
 * A receive that must wait (no NIC operation left) after its send ran
 * first: the receives before it stay run, it runs at the next pass, and
 * the send is not run twice.
 */
START_TEST(test_send_first_recv_waits)
{
	struct uet_snic_dev *dev;
	struct uet_bufpool_stats ps;
	struct a_seen a = { .nsent = 0 };
	uint8_t bb[2][16], ab[2][16];
	void *taken[256];
	unsigned int nt = 0;
	size_t cap;
	struct world w;
	uint64_t c0;

	world_init(&w, NULL);
	recv_buf(&w, UET_HSI_FAMILY_MSG, bb[0], sizeof(bb[0]), 0, 100);
	recv_buf(&w, UET_HSI_FAMILY_MSG, bb[1], sizeof(bb[1]), 0, 101);
	dev = uet_snic_dev_of(w.s[0].dev);
	/* Two NIC operations left: the first receive's, the send's. */
	uet_bufpool_stats(&dev->op_pool, &ps);
	if (ps.capacity - ps.in_use < 2) {	/* grow by a chunk */
		taken[0] = uet_bufpool_get(&dev->op_pool);
		taken[1] = uet_bufpool_get(&dev->op_pool);
		uet_bufpool_put(&dev->op_pool, taken[0]);
		uet_bufpool_put(&dev->op_pool, taken[1]);
		uet_bufpool_stats(&dev->op_pool, &ps);
	}
	ck_assert_uint_ge(ps.capacity - ps.in_use, 2);
	while (ps.capacity - ps.in_use > 2) {
		ck_assert_uint_lt(nt, 256);
		taken[nt++] = uet_bufpool_get(&dev->op_pool);
		uet_bufpool_stats(&dev->op_pool, &ps);
	}
	cap = dev->op_pool.max_count;
	dev->op_pool.max_count = ps.capacity;

	c0 = cmds_count(&w, 0);
	a_recv_only(&w, ab[0], sizeof(ab[0]), 1);
	a_recv_only(&w, ab[1], sizeof(ab[1]), 2);
	a_send_only(&w, "once", 3, false);
	ring(&w, 0);
	ck_assert_uint_eq(send_first_count(&w, 0), 1);
	ck_assert_uint_eq(cmds_count(&w, 0), c0 + 2);	/* send, receive 1 */
	/* the second receive and the send wait in the ring */
	ck_assert_uint_ne(w.s[0].q->cmdq->cons.ci,
			  w.s[0].q->cmdq->cons.db_cache);

	while (nt)
		uet_bufpool_put(&dev->op_pool, taken[--nt]);
	dev->op_pool.max_count = cap;
	ck_assert(world_wait(&w, 1, 2, 100 * MS));
	ck_assert_uint_eq(cmds_count(&w, 0), c0 + 3);
	ck_assert_uint_eq(send_first_count(&w, 0), 1);
	expect_recv(&w.s[1], 0, 0, 4, 100, false);
	ck_assert_int_eq(memcmp(bb[0], "once", 4), 0);
	b_send(&w, "r0", 20);
	b_send(&w, "r1", 21);
	a_wait(&w, &a, 1, 2);
	ck_assert_uint_eq(a.recv_md[0], 1);
	ck_assert_uint_eq(a.recv_md[1], 2);
	ck_assert_int_eq(memcmp(ab[0], "r0", 2), 0);
	ck_assert_int_eq(memcmp(ab[1], "r1", 2), 0);
	world_idle(&w, 20 * MS);
	{
		struct uet_snic_stats st;

		uet_snic_get_stats(w.s[0].dev, &st);
		ck_assert_uint_eq(st.ses.msgs_tx, 1);	/* sent once */
		uet_snic_get_stats(w.s[1].dev, &st);
		ck_assert_uint_eq(st.ses.msgs_rx, 1);
	}
	world_fini(&w);
}
END_TEST

/*
 * A held send that runs first (SEND with the INJECT flag and COMPLETION,
 * to an established PDC): its success completion is in the ring when the
 * doorbell returns, written after its datagram left and before the
 * receives ran; the receives match as posted.
 */
START_TEST(test_send_first_held)
{
	struct a_seen a = { .nsent = 0 };
	uint8_t bb[2][16], ab[2][16];
	struct uet_snic_stats st;
	struct world w;
	struct cmd c;
	uint64_t held;

	world_init(&w, NULL);
	recv_buf(&w, UET_HSI_FAMILY_MSG, bb[0], sizeof(bb[0]), 0, 100);
	recv_buf(&w, UET_HSI_FAMILY_MSG, bb[1], sizeof(bb[1]), 0, 101);
	/* first exchange: the PDC is established after it */
	a_recv_only(&w, ab[0], sizeof(ab[0]), 1);
	a_send_only(&w, "one", 2, false);
	ring(&w, 0);
	ck_assert(world_wait(&w, 1, 2, 100 * MS));
	b_send(&w, "r0", 20);
	a_wait(&w, &a, 1, 1);
	world_idle(&w, 20 * MS);
	a_collect(&w, &a);
	ck_assert_uint_eq(uet_snic_dev_of(w.s[0].dev)->st.held_late, 0);
	uet_snic_get_stats(w.s[0].dev, &st);
	held = st.ses.held_tx;

	a_recv_only(&w, ab[1], sizeof(ab[1]), 3);
	cmd_init(&c, UET_HSI_FAMILY_MSG, UET_HSI_VARIANT_SEND,
		 UET_HSI_DATA_INLINE);
	c.seg.inject = true;
	c.seg.completion = true;
	c.seg.metadata = 4;
	c.seg.dest = UET_HSI_DEST(w.s[0].peer, side_pid[1], side_ri[1]);
	cmd_inline(&c, "two!", 4);
	cmd_post_only(&w, 0, &c);
	ring(&w, 0);
	uet_snic_get_stats(w.s[0].dev, &st);
	ck_assert_uint_eq(st.send_first, 2);
	ck_assert_uint_eq(st.ses.held_tx, held + 1);
	ck_assert_uint_eq(uet_snic_dev_of(w.s[0].dev)->st.held_late, 1);
	/* written by the doorbell: no progress call in between */
	a_collect(&w, &a);
	ck_assert_uint_eq(a.nsent, 2);
	ck_assert_uint_eq(a.sent[1], 4);

	/* B: the first message, r0's completion, this one */
	ck_assert(world_wait(&w, 1, 5, 100 * MS));
	ck_assert_int_eq(memcmp(bb[1], "two!", 4), 0);
	b_send(&w, "r1", 21);
	a_wait(&w, &a, 2, 2);
	ck_assert_uint_eq(a.recv_md[1], 3);
	ck_assert_int_eq(memcmp(ab[1], "r1", 2), 0);
	world_idle(&w, 20 * MS);
	a_collect(&w, &a);
	ck_assert_uint_eq(a.nsent, 2);		/* none at the ACK */
	world_fini(&w);
}
END_TEST

static Suite *snic_unit_suite(void)
{
	Suite *s = suite_create("snic_unit");
	TCase *tc;

	tc = tcase_create("messaging");
	tcase_add_test(tc, test_inline_send);
	tcase_add_test(tc, test_sgl3_send);
	tcase_add_test(tc, test_sgl_many);
	tcase_add_test(tc, test_inject);
	tcase_add_test(tc, test_tagged_ignore);
	tcase_add_test(tc, test_header_data);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_send_rc);
	suite_add_tcase(s, tc);

	tc = tcase_create("malformed");
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_malformed_random);
	tcase_add_test(tc, test_unknown_peer);
	suite_add_tcase(s, tc);

	tc = tcase_create("notifications");
	tcase_add_test(tc, test_notifq_full);
	tcase_add_test(tc, test_quiet_pass);
	tcase_add_test(tc, test_send_first);
	tcase_add_test(tc, test_send_first_fallback);
	tcase_add_test(tc, test_send_first_recv_waits);
	tcase_add_test(tc, test_send_first_held);
	tcase_add_test(tc, test_notifq_full_pair);
	tcase_add_test(tc, test_rxpool_event);
	suite_add_tcase(s, tc);

	tc = tcase_create("lifetime");
	tcase_add_test(tc, test_queue_cancel_close);
	tcase_add_test(tc, test_dev_close_cancels);
	tcase_add_test(tc, test_peers);
	tcase_add_test(tc, test_mr_table);
	tcase_add_test(tc, test_env);
	tcase_add_test(tc, test_env_tss_key_not_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("auto_progress");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_auto_progress_udp);
	tcase_add_test(tc, test_wait_link_lazy);
	tcase_add_test(tc, test_wait_link_standby);
	tcase_add_test(tc, test_auto_progress_idle);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_unit_suite)
