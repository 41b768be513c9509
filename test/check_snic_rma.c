/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic: RMA and ATOMIC commands end to end (docs/conformance.md E-6):
 * two NICs ("A" = 0 initiator, "B" = 1 target) on the in-memory fabric
 * with a fake clock (test/snic_harness.h), commands through the command
 * ring, results from the notification rings, target memory registered
 * through the device's mr_reg (the SES RI table).
 *
 * Covered: writes and reads of 1 B .. 1 MiB (clean and under loss and
 * reordering), the target notification (header_data, rma_events, every
 * opcode), atomics (SUM, fetching with the prior values, CAS, MSWAP,
 * inline and INJECT operands, atomic READ without operand), every error
 * completion (bad key, key after dereg, out of range, permission,
 * unsupported op or datatype, unaligned), malformed commands, FENCE,
 * user keys and VIRT_ADDR, RMA on a UUD queue, amo_max.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "snic_harness.h"
#include "uet_ses.h"
#include "uet_snic_internal.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define REC_MAX		4096
#define STEPS_MAX	4000000ull
#define TMEM_LEN	((1u << 20) + 4096)	/* target region */
#define GUARD		64

/* ------------------------------------------------------------------ */
/* World and recorder                                                  */
/* ------------------------------------------------------------------ */

struct rec {
	struct snh_notif *v;
	unsigned int n, nrecv, nsend, nevent;
};

static struct snh_world W;
static struct rec R[2];

static void rec_fn(struct snh_nic *nic, const struct snh_notif *n, void *arg)
{
	struct rec *r = arg;

	(void)nic;
	ck_assert_uint_lt(r->n, REC_MAX);
	r->v[r->n++] = *n;
	if (n->type == UET_HSI_NOTIF_RECV)
		r->nrecv++;
	else if (n->type == UET_HSI_NOTIF_SEND)
		r->nsend++;
	else
		r->nevent++;
}

static void world_cfg(struct snh_world_cfg *wc, uint32_t drop_ppm,
		      uint32_t reorder_ppm)
{
	int i;

	snh_world_cfg_default(wc);
	wc->seed = uet_test_seed() ^ drop_ppm ^ ((uint64_t)reorder_ppm << 20);
	wc->faults.drop_ppm = drop_ppm;
	wc->faults.reorder_ppm = reorder_ppm;
	if (drop_ppm || reorder_ppm)
		wc->faults.jitter_ns = 3 * SNH_US;
	for (i = 0; i < 2; i++)
		wc->snic[i].pds.max_retries = 40;
}

static void world_up(const struct snh_world_cfg *c)
{
	int i, ret;

	ret = snh_world_open(&W, c);
	ck_assert_msg(ret == 0, "snh_world_open: %d", ret);
	for (i = 0; i < 2; i++) {
		R[i].v = calloc(REC_MAX, sizeof(*R[i].v));
		ck_assert_ptr_nonnull(R[i].v);
		R[i].n = R[i].nrecv = R[i].nsend = R[i].nevent = 0;
		W.nic[i].fn = rec_fn;
		W.nic[i].arg = &R[i];
	}
}

static void world_up_default(void)
{
	struct snh_world_cfg wc;

	world_cfg(&wc, 0, 0);
	world_up(&wc);
}

static void check_decoders(void)
{
	ck_assert_msg(!W.nic[0].err[0] && !W.nic[1].err[0],
		      "notification decoding: A: %s B: %s", W.nic[0].err,
		      W.nic[1].err);
	ck_assert_msg(!W.nic[0].progress_err && !W.nic[1].progress_err,
		      "progress errors: A %d B %d",
		      W.nic[0].last_progress_err, W.nic[1].last_progress_err);
}

static void world_down(void)
{
	check_decoders();
	snh_world_close(&W);
	free(R[0].v);
	free(R[1].v);
	R[0].v = R[1].v = NULL;
}

struct want {
	int at;
	unsigned int nsend, nrecv, nevent;
};

static bool want_pump(void *arg)
{
	const struct want *w = arg;

	return R[w->at].nsend >= w->nsend && R[w->at].nrecv >= w->nrecv &&
	       R[w->at].nevent >= w->nevent;
}

static bool wait_n(int at, unsigned int nsend, unsigned int nrecv,
		   unsigned int nevent)
{
	struct want w = { at, nsend, nrecv, nevent };

	return snh_world_run(&W, want_pump, &w, 60 * SNH_SEC, STEPS_MAX);
}

/* The k-th notification of a type at NIC i. */
static const struct snh_notif *nth(int i, uint8_t type, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < R[i].n; j++)
		if (R[i].v[j].type == type && k-- == 0)
			return &R[i].v[j];
	ck_abort_msg("NIC %d: no notification %u of type %u", i, k, type);
	return NULL;
}

static void get_stats(int i, struct uet_snic_stats *st)
{
	uet_snic_get_stats(W.nic[i].dev, st);
}

static uint64_t mr_reg(int at, void *p, size_t len, uint64_t access,
		       uint64_t flags, uint64_t key)
{
	struct uet_hsi_dev *dev = W.nic[at].dev;
	uint64_t k = key;
	int ret;

	ret = dev->ops->mr_reg(dev, p, len, access, flags, &k);
	ck_assert_msg(ret == 0, "mr_reg: %d", ret);
	if (flags & UET_HSI_MR_USER_KEY)
		ck_assert_uint_eq(k, key);
	else
		ck_assert(k & UET_SES_MKEY_PROV);
	return k;
}

static void mr_dereg(int at, uint64_t key)
{
	struct uet_hsi_dev *dev = W.nic[at].dev;

	ck_assert_int_eq(dev->ops->mr_dereg(dev, key), 0);
}

/* ------------------------------------------------------------------ */
/* Commands (A -> B unless said)                                       */
/* ------------------------------------------------------------------ */

static void cmd_rma(struct snh_cmd *c, uint8_t family, uint8_t variant,
		    uint64_t key, uint64_t raddr, void *buf, size_t len,
		    uint64_t ctx)
{
	memset(c, 0, sizeof(*c));
	c->family = family;
	c->variant = variant;
	c->completion = true;
	c->tag = key;
	c->dest = snh_dest(&W.nic[0], &W.nic[1]);
	c->metadata = ctx;
	c->buf = buf;
	c->len = len;
	c->nseg = 1;
	c->ext = true;
	c->extv.remote_addr = raddr;
}

static void cmd_amo(struct snh_cmd *c, uint8_t op, uint8_t dtype,
		    uint64_t key, uint64_t raddr, void *opd, size_t len,
		    void *res, size_t res_len, uint64_t ctx)
{
	cmd_rma(c, UET_HSI_FAMILY_ATOMIC, res ? UET_HSI_VARIANT_RECV :
		UET_HSI_VARIANT_SEND, key, raddr, opd, len, ctx);
	c->extv.amo_op = op;
	c->extv.amo_dtype = dtype;
	if (res) {
		c->res = res;
		c->res_len = res_len;
		c->nres = 1;
		c->extv.nresult = 1;
	}
}

static void post(int at, const struct snh_cmd *c)
{
	int ret = snh_post_ring(&W.nic[at], c);

	ck_assert_msg(ret == 0, "post on NIC %d: %d", at, ret);
}

/* Post c on A and wait for its send completion (the next one). */
static struct uet_hsi_send_cmpl run(const struct snh_cmd *c)
{
	unsigned int k = R[0].nsend;
	const struct snh_notif *n;

	post(0, c);
	ck_assert_msg(wait_n(0, k + 1, 0, 0), "no completion for ctx %llu",
		      (unsigned long long)c->metadata);
	n = nth(0, UET_HSI_NOTIF_SEND, k);
	ck_assert_uint_eq(n->send.op_context, c->metadata);
	return n->send;
}

static void expect_ok(const struct uet_hsi_send_cmpl *sc, uint32_t bytes)
{
	ck_assert_msg(sc->status == 0, "ctx %llu: status %u rc 0x%x",
		      (unsigned long long)sc->op_context, sc->status,
		      sc->flags);
	ck_assert_uint_eq(sc->flags, UET_RC_OK);
	ck_assert_uint_eq(sc->bytes_sent, bytes);
}

static void expect_err(const struct uet_hsi_send_cmpl *sc, uint16_t status,
		       uint8_t rc)
{
	ck_assert_msg(sc->status == status && sc->flags == rc,
		      "ctx %llu: status %u rc 0x%x, expected %u rc 0x%x",
		      (unsigned long long)sc->op_context, sc->status,
		      sc->flags, status, rc);
}

static void write_ab(uint64_t key, uint64_t raddr, void *buf, size_t len,
		     unsigned int nseg, uint64_t ctx)
{
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;

	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, raddr, buf,
		len, ctx);
	c.nseg = nseg;
	sc = run(&c);
	expect_ok(&sc, (uint32_t)len);
}

static void read_ab(uint64_t key, uint64_t raddr, void *buf, size_t len,
		    unsigned int nseg, uint64_t ctx)
{
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;

	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, raddr, buf,
		len, ctx);
	c.nseg = nseg;
	sc = run(&c);
	expect_ok(&sc, (uint32_t)len);
}

/* ------------------------------------------------------------------ */
/* Write, then read back                                               */
/* ------------------------------------------------------------------ */

static const size_t wr_sizes[] = {
	1, 7, 32, 33, 100, 1000, 1408, 1500, 4096, 9000, 65536, 200000,
	1u << 20,
};

static void write_read_run(uint32_t drop_ppm, uint32_t reorder_ppm)
{
	struct snh_world_cfg wc;
	struct uet_snic_stats sa, sb;
	uint8_t *tmem, *src, *dst;
	uint64_t key, off;
	unsigned int i, nseg;
	size_t len, k;

	world_cfg(&wc, drop_ppm, reorder_ppm);
	world_up(&wc);
	tmem = malloc(TMEM_LEN + 2 * GUARD);
	src = malloc(TMEM_LEN);
	dst = malloc(TMEM_LEN + GUARD);
	ck_assert(tmem && src && dst);
	memset(tmem, 0xee, TMEM_LEN + 2 * GUARD);
	key = mr_reg(1, tmem + GUARD, TMEM_LEN,
		     UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE, 0, 0);
	for (i = 0; i < sizeof(wr_sizes) / sizeof(wr_sizes[0]); i++) {
		len = wr_sizes[i];
		off = (len * 13) % 4000;
		nseg = 1 + i % SNH_MAX_SEG;
		if (nseg > len)
			nseg = 1;
		snh_fill(src, len, 100 + i);
		write_ab(key, off, src, len, nseg, 1000 + i);
		ck_assert_msg(snh_check(tmem + GUARD + off, len, 100 + i) ==
			      len, "write of %zu: target differs", len);
		memset(dst, 0xcc, len + GUARD);
		read_ab(key, off, dst, len, nseg, 2000 + i);
		ck_assert_msg(snh_check(dst, len, 100 + i) == len,
			      "read of %zu: data differs at %zu", len,
			      snh_check(dst, len, 100 + i));
		for (k = 0; k < GUARD; k++)
			ck_assert_uint_eq(dst[len + k], 0xcc);
	}
	/* nothing outside the region was touched */
	for (k = 0; k < GUARD; k++) {
		ck_assert_uint_eq(tmem[k], 0xee);
		ck_assert_uint_eq(tmem[GUARD + TMEM_LEN + k], 0xee);
	}
	/* writes without header_data on a queue without rma_events: the
	 * target writes nothing */
	ck_assert_uint_eq(R[1].n, 0);
	get_stats(0, &sa);
	get_stats(1, &sb);
	ck_assert_uint_eq(sa.rma_cmds, 2 * i);
	ck_assert_uint_eq(sa.bad_cmds + sb.bad_cmds, 0);
	ck_assert_uint_eq(sb.rma_notifs, 0);
	mr_dereg(1, key);
	world_down();
	free(tmem);
	free(src);
	free(dst);
}

START_TEST(test_write_read)
{
	write_read_run(0, 0);
}
END_TEST

START_TEST(test_write_read_loss)
{
	write_read_run(20000, 100000);
}
END_TEST

/* Inline write data, inline SGL entries, INJECT (copied at doorbell). */
START_TEST(test_write_inline_inject)
{
	uint8_t tmem[256], src[200];
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;
	uint64_t key;

	world_up_default();
	memset(tmem, 0, sizeof(tmem));
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_WRITE, 0, 0);
	snh_fill(src, sizeof(src), 5);
	/* INLINE, 32 bytes at offset 3 */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 3, src, 32,
		1);
	c.inline_data = true;
	sc = run(&c);
	expect_ok(&sc, 32);
	ck_assert_int_eq(memcmp(tmem + 3, src, 32), 0);
	/* INJECT variant: the source is scribbled over right after the
	 * doorbell, the target still gets the original */
	snh_fill(src, sizeof(src), 6);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_INJECT, key, 50, src,
		150, 2);
	c.nseg = 3;
	post(0, &c);
	memset(src, 0x11, sizeof(src));
	ck_assert(wait_n(0, 2, 0, 0));
	expect_ok(&nth(0, UET_HSI_NOTIF_SEND, 1)->send, 150);
	ck_assert_uint_eq(snh_check(tmem + 50, 150, 6), 150);
	/* INJECT flag on a SEND variant, no COMPLETION: nothing on success */
	snh_fill(src, sizeof(src), 7);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, src, 20,
		3);
	c.inject = true;
	c.completion = false;
	post(0, &c);
	memset(src, 0x22, 20);
	snh_world_settle(&W, 10 * SNH_MS);
	ck_assert_uint_eq(R[0].nsend, 2);
	ck_assert_uint_eq(snh_check(tmem, 20, 7), 20);
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Target notifications                                                */
/* ------------------------------------------------------------------ */

static void expect_rma_notif(const struct snh_notif *n, uint64_t key,
			     uint32_t len, uint16_t opcode, bool hd,
			     uint64_t hdv)
{
	ck_assert_uint_eq(n->type, UET_HSI_NOTIF_RECV);
	ck_assert(n->recv.rma);
	ck_assert(!n->recv.is_inline);
	ck_assert_uint_eq(n->recv.status, 0);
	ck_assert_uint_eq(n->recv.src_id, W.nic[1].peer);
	ck_assert_uint_eq(n->recv.tag, key);
	ck_assert_uint_eq(n->recv.total_length, len);
	ck_assert_uint_eq(n->recv.buffer_id_0, opcode);
	ck_assert_uint_eq(n->recv.buffer_id_1, 0);
	ck_assert_uint_eq(n->has_cont, hd);
	ck_assert_uint_eq(n->recv.continuation, hd);
	if (hd) {
		ck_assert(n->contx.has_data);
		ck_assert_uint_eq(n->contx.header_data, hdv);
		ck_assert_uint_eq(n->contx.initiator,
				  uet_ses_initiator_id(W.nic[0].pid,
						       W.nic[0].ri));
		ck_assert_uint_eq(n->contx.olen, 0);
	}
}

/* Without rma_events: only a write with header_data is reported. */
START_TEST(test_remote_cq_data)
{
	uint8_t tmem[4096], src[3000];
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;
	uint64_t key;
	uint64_t res;
	uint64_t opd = 5;

	world_up_default();
	memset(tmem, 0, sizeof(tmem));
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	snh_fill(src, sizeof(src), 9);
	write_ab(key, 0, src, 100, 1, 1);
	read_ab(key, 0, src, 100, 1, 2);
	snh_world_settle(&W, 10 * SNH_MS);
	ck_assert_uint_eq(R[1].n, 0);
	/* REMOTE_CQ + HAS_DATA, multi-packet */
	snh_fill(src, sizeof(src), 10);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 1000, src,
		3000, 3);
	c.remote_cq = true;
	c.extv.ext_flags = UET_HSI_EXT_HAS_DATA;
	c.extv.header_data = 0xabcdef0123456789ull;
	c.nseg = 2;
	sc = run(&c);
	expect_ok(&sc, 3000);
	ck_assert(wait_n(1, 0, 1, 0));
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 0), key, 3000, UET_WRITE,
			 true, 0xabcdef0123456789ull);
	ck_assert_uint_eq(snh_check(tmem + 1000, 3000, 10), 3000);
	/* an atomic with header_data is reported too */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 8, &opd, 8, &res, 8, 4);
	c.remote_cq = true;
	c.extv.ext_flags = UET_HSI_EXT_HAS_DATA;
	c.extv.header_data = 77;
	sc = run(&c);
	expect_ok(&sc, 8);
	ck_assert(wait_n(1, 0, 2, 0));
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 1), key, 8,
			 UET_FETCHING_ATOMIC, true, 77);
	world_down();
}
END_TEST

/* rma_events: every access lands as a notification, with its opcode. */
START_TEST(test_rma_events)
{
	uint8_t tmem[1024], buf[600];
	struct snh_world_cfg wc;
	struct uet_hsi_send_cmpl sc;
	struct uet_snic_stats sb;
	uint64_t key, opd = 3, res = 0;
	struct snh_cmd c;

	world_cfg(&wc, 0, 0);
	wc.rma_events[1] = true;
	world_up(&wc);
	memset(tmem, 0, sizeof(tmem));
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	snh_fill(buf, sizeof(buf), 1);
	write_ab(key, 0, buf, 600, 1, 1);
	read_ab(key, 100, buf, 300, 1, 2);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 640, &opd, 8, NULL, 0,
		3);
	sc = run(&c);
	expect_ok(&sc, 8);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 640, &opd, 8, &res, 8,
		4);
	sc = run(&c);
	expect_ok(&sc, 8);
	ck_assert_uint_eq(res, 3);
	/* with header_data as well */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 10,
		5);
	c.remote_cq = true;
	c.extv.header_data = 0x55;
	sc = run(&c);
	expect_ok(&sc, 10);
	ck_assert(wait_n(1, 0, 5, 0));
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 0), key, 600, UET_WRITE,
			 false, 0);
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 1), key, 300, UET_READ,
			 false, 0);
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 2), key, 8, UET_ATOMIC,
			 false, 0);
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 3), key, 8,
			 UET_FETCHING_ATOMIC, false, 0);
	expect_rma_notif(nth(1, UET_HSI_NOTIF_RECV, 4), key, 10, UET_WRITE,
			 true, 0x55);
	ck_assert_uint_eq(R[1].nrecv, 5);
	ck_assert_uint_eq(R[1].nsend + R[1].nevent, 0);
	get_stats(1, &sb);
	ck_assert_uint_eq(sb.rma_notifs, 5);
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Atomics                                                             */
/* ------------------------------------------------------------------ */

START_TEST(test_atomics)
{
	uint64_t tmem[16], opd[4], res[4];
	uint32_t u32[2], r32;
	uint16_t u16[2], r16;
	double d = 1.5;
	int32_t i32 = -7;
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;
	struct uet_snic_stats sa;
	uint64_t key;
	unsigned int k;

	world_up_default();
	for (k = 0; k < 16; k++)
		tmem[k] = 100 * k;
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	/* SUM of 4 uint64 at offset 8, operand in 2 SGL entries */
	for (k = 0; k < 4; k++)
		opd[k] = k + 1;
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 8, opd, 32, NULL, 0, 1);
	c.nseg = 2;
	sc = run(&c);
	expect_ok(&sc, 32);
	for (k = 0; k < 4; k++)
		ck_assert_uint_eq(tmem[1 + k], 100 * (k + 1) + k + 1);
	/* fetching SUM: prior values come back */
	for (k = 0; k < 4; k++)
		opd[k] = 1000;
	memset(res, 0xff, sizeof(res));
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 8, opd, 32, res, 32, 2);
	c.nres = 2;
	c.extv.nresult = 2;
	sc = run(&c);
	expect_ok(&sc, 32);
	for (k = 0; k < 4; k++) {
		ck_assert_uint_eq(res[k], 100 * (k + 1) + k + 1);
		ck_assert_uint_eq(tmem[1 + k], 100 * (k + 1) + k + 1 + 1000);
	}
	/* CAS uint32 at byte 80 (tmem[10] low half on little endian hosts:
	 * compared as a uint32 at that address): swap 9 if == current */
	memcpy(&r32, (uint8_t *)tmem + 80, 4);
	u32[0] = 9;		/* swap */
	u32[1] = r32;		/* compare: equal */
	r32 = 0;
	cmd_amo(&c, UET_AMO_CSWAP, UET_AMO_UINT32, key, 80, u32, 8, &r32, 4,
		3);
	sc = run(&c);
	expect_ok(&sc, 4);
	ck_assert_uint_eq(r32, u32[1]);
	memcpy(&r32, (uint8_t *)tmem + 80, 4);
	ck_assert_uint_eq(r32, 9);
	/* CAS that fails: target unchanged, prior value returned */
	u32[0] = 1234;
	u32[1] = 8;
	cmd_amo(&c, UET_AMO_CSWAP, UET_AMO_UINT32, key, 80, u32, 8, &r32, 4,
		4);
	sc = run(&c);
	expect_ok(&sc, 4);
	ck_assert_uint_eq(r32, 9);
	memcpy(&r32, (uint8_t *)tmem + 80, 4);
	ck_assert_uint_eq(r32, 9);
	/* non-fetching CSWAP_NE (swap when compare != target) */
	u32[0] = 42;
	u32[1] = 8;
	cmd_amo(&c, UET_AMO_CSWAP_NE, UET_AMO_UINT32, key, 80, u32, 8, NULL,
		0, 5);
	sc = run(&c);
	expect_ok(&sc, 4);
	memcpy(&r32, (uint8_t *)tmem + 80, 4);
	ck_assert_uint_eq(r32, 42);
	/* MSWAP uint16: swap value 0xabcd, mask 0x0ff0 */
	tmem[11] = 0;
	memcpy((uint8_t *)tmem + 88, &(uint16_t){ 0x1234 }, 2);
	u16[0] = 0xabcd;
	u16[1] = 0x0ff0;
	cmd_amo(&c, UET_AMO_MSWAP, UET_AMO_UINT16, key, 88, u16, 4, &r16, 2,
		6);
	sc = run(&c);
	expect_ok(&sc, 2);
	ck_assert_uint_eq(r16, 0x1234);
	memcpy(&r16, (uint8_t *)tmem + 88, 2);
	ck_assert_uint_eq(r16, 0x1bc4);
	/* inline operand: int32 SUM */
	memcpy((uint8_t *)tmem + 96, &(int32_t){ 10 }, 4);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_INT32, key, 96, &i32, 4, NULL, 0, 7);
	c.inline_data = true;
	sc = run(&c);
	expect_ok(&sc, 4);
	memcpy(&i32, (uint8_t *)tmem + 96, 4);
	ck_assert_int_eq(i32, 3);
	/* INJECT variant, double SUM: the operand is copied at doorbell */
	memcpy((uint8_t *)tmem + 104, &(double){ 2.25 }, 8);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_DOUBLE, key, 104, &d, 8, NULL, 0, 8);
	c.variant = UET_HSI_VARIANT_INJECT;
	post(0, &c);
	d = 100.0;
	ck_assert(wait_n(0, 8, 0, 0));
	expect_ok(&nth(0, UET_HSI_NOTIF_SEND, 7)->send, 8);
	memcpy(&d, (uint8_t *)tmem + 104, 8);
	ck_assert(d == 3.75);
	/* fetching atomic READ without an operand */
	memset(res, 0, sizeof(res));
	cmd_amo(&c, UET_AMO_READ, UET_AMO_UINT64, key, 8, NULL, 0, res, 16,
		9);
	sc = run(&c);
	expect_ok(&sc, 16);
	ck_assert_uint_eq(res[0], tmem[1]);
	ck_assert_uint_eq(res[1], tmem[2]);
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.amo_cmds, 9);
	ck_assert_uint_eq(sa.bad_cmds, 0);
	world_down();
}
END_TEST

/* Many fetching atomics in flight under loss and reordering: each is
 * applied once (no double apply on retransmission). */
START_TEST(test_atomics_loss)
{
	struct snh_world_cfg wc;
	uint64_t tmem[4] = { 0 }, one = 1, res[64];
	struct snh_cmd c;
	uint64_t key;
	unsigned int k, n = 64;

	world_cfg(&wc, 50000, 100000);
	world_up(&wc);
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	for (k = 0; k < n; k++) {
		cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, &one, 8,
			&res[k], 8, k);
		post(0, &c);
	}
	ck_assert(wait_n(0, n, 0, 0));
	for (k = 0; k < n; k++)
		expect_ok(&nth(0, UET_HSI_NOTIF_SEND, k)->send, 8);
	ck_assert_uint_eq(tmem[0], n);
	/* every prior value 0..n-1 seen exactly once */
	for (k = 0; k < n; k++) {
		unsigned int j, seen = 0;

		for (j = 0; j < n; j++)
			seen += res[j] == k;
		ck_assert_uint_eq(seen, 1);
	}
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Errors reported by the target or found locally                      */
/* ------------------------------------------------------------------ */

START_TEST(test_errors)
{
	uint8_t tmem[512], ro[64], src[128];
	uint64_t key, rokey, old, opd = 1;
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;
	float f = 1;

	world_up_default();
	memset(tmem, 0x5a, sizeof(tmem));
	memset(ro, 0x5a, sizeof(ro));
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	rokey = mr_reg(1, ro, sizeof(ro), UET_HSI_ACCESS_REMOTE_READ, 0, 0);
	snh_fill(src, sizeof(src), 3);
	/* unknown key */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, 0x1234, 0, src,
		16, 1);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_BAD_MKEY);
	/* read-only region: write refused, read fine */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, rokey, 0, src,
		16, 2);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_PERM_VIOLATION);
	read_ab(rokey, 0, src, 16, 1, 3);
	/* a fetching atomic needs both rights */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, rokey, 0, &opd, 8, &old, 8,
		4);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_PERM_VIOLATION);
	/* out of range: past the end, and offset + len overflowing */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 500, src,
		13, 5);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_INVALID, UET_RC_AT_OUT_OF_RANGE);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key,
		UINT64_MAX - 3, src, 16, 6);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_INVALID, UET_RC_AT_OUT_OF_RANGE);
	/* unaligned atomic */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 4, &opd, 8, NULL, 0, 7);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_INVALID, UET_RC_AMO_UNALIGNED);
	/* locally unsupported op / op x datatype / datatype */
	cmd_amo(&c, UET_AMO_INVAL, UET_AMO_UINT64, key, 0, &opd, 8, NULL, 0,
		8);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_NOT_SUPPORTED, 0);
	cmd_amo(&c, UET_AMO_BOR, UET_AMO_FLOAT, key, 0, &f, 4, NULL, 0, 9);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_NOT_SUPPORTED, 0);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_FLOAT16, key, 0, &f, 2, NULL, 0, 10);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_NOT_SUPPORTED, 0);
	/* nothing was written by any of them */
	for (size_t k = 0; k < sizeof(tmem); k++)
		ck_assert_uint_eq(tmem[k], 0x5a);
	for (size_t k = 0; k < sizeof(ro); k++)
		ck_assert_uint_eq(ro[k], 0x5a);
	/* after dereg: the provider key's generation is stale */
	mr_dereg(1, key);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, src, 16,
		11);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_BAD_GENERATION);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, 0, src, 16,
		12);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_BAD_GENERATION);
	for (size_t k = 0; k < sizeof(tmem); k++)
		ck_assert_uint_eq(tmem[k], 0x5a);
	ck_assert_uint_eq(R[1].n, 0);
	world_down();
}
END_TEST

/* A malformed command: the INVALID_DESCRIPTOR event, with err, and the
 * UET_HSI_ST_INVALID send completion with its metadata. */
static void expect_malformed(const struct snh_cmd *c, int err)
{
	unsigned int ns = R[0].nsend, ne = R[0].nevent;
	const struct snh_notif *n;

	post(0, c);
	ck_assert(wait_n(0, ns + 1, 0, ne + 1));
	n = nth(0, UET_HSI_NOTIF_EVENT, ne);
	ck_assert_uint_eq(n->event.event_type,
			  UET_HSI_EVENT_INVALID_DESCRIPTOR);
	ck_assert_msg(n->event.status_code == (uint16_t)-err,
		      "ctx %llu: invalid descriptor code %u, expected %d",
		      (unsigned long long)c->metadata, n->event.status_code,
		      -err);
	n = nth(0, UET_HSI_NOTIF_SEND, ns);
	ck_assert_uint_eq(n->send.status, UET_HSI_ST_INVALID);
	ck_assert_uint_eq(n->send.op_context, c->metadata);
}

START_TEST(test_malformed)
{
	uint8_t tmem[1024], buf[1024];
	uint64_t key, opd[80], res[80];
	struct uet_snic_stats sa;
	struct snh_cmd c;

	world_up_default();
	memset(tmem, 0, sizeof(tmem));
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE,
		     0, 0);
	memset(opd, 0, sizeof(opd));
	/* no extension (even without COMPLETION the error is reported) */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 8,
		1);
	c.ext = false;
	c.completion = false;
	expect_malformed(&c, -EINVAL);
	cmd_rma(&c, UET_HSI_FAMILY_ATOMIC, UET_HSI_VARIANT_RECV, key, 0, buf,
		8, 2);
	c.ext = false;
	expect_malformed(&c, -EINVAL);
	/* RMA with atomic bytes */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 8,
		3);
	c.extv.amo_dtype = 1;
	expect_malformed(&c, UET_WIRE_ERANGE);
	/* receive-only ext flags */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 8,
		4);
	c.extv.ext_flags = UET_HSI_EXT_DIRECTED;
	expect_malformed(&c, -EINVAL);
	/* header_data without HAS_DATA */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 8,
		5);
	c.extv.header_data = 1;
	expect_malformed(&c, -EINVAL);
	/* read into inline data, read with header_data, INJECT read */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, 0, buf, 8,
		6);
	c.inline_data = true;
	expect_malformed(&c, -EINVAL);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, 0, buf, 8,
		7);
	c.remote_cq = true;
	expect_malformed(&c, -EINVAL);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, 0, buf, 8,
		8);
	c.inject = true;
	expect_malformed(&c, -EINVAL);
	/* INJECT above the limit */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_INJECT, key, 0, buf,
		1024, 9);
	c.len = UET_SNIC_INJECT_MAX + 1;
	c.buf = malloc(c.len);
	expect_malformed(&c, -EMSGSIZE);
	free(c.buf);
	/* unknown peer handle */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, buf, 8,
		10);
	c.dest = UET_HSI_DEST(77, 1, 1);
	expect_malformed(&c, -ENXIO);
	/* fetching atomic without result entries / nresult too large */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, opd, 8, res, 8, 11);
	c.extv.nresult = 0;
	c.nres = 0;
	expect_malformed(&c, -EINVAL);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, opd, 8, res, 8, 12);
	c.extv.nresult = 3;
	expect_malformed(&c, -EINVAL);
	/* nresult on a non-fetching atomic */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, opd, 8, NULL, 0, 13);
	c.extv.nresult = 1;
	expect_malformed(&c, -EINVAL);
	/* result size differs from the operand */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, opd, 16, res, 8, 14);
	expect_malformed(&c, -EINVAL);
	/* operand not a whole number of elements; empty operand */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT32, key, 0, opd, 6, NULL, 0, 15);
	expect_malformed(&c, -EINVAL);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT32, key, 0, opd, 0, NULL, 0, 16);
	expect_malformed(&c, -EINVAL);
	/* above UET_SES_AMO_MAX */
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, opd,
		UET_SES_AMO_MAX + 8, NULL, 0, 17);
	expect_malformed(&c, -EMSGSIZE);
	/* CAS with 2 elements (3 * size of payload) */
	cmd_amo(&c, UET_AMO_CSWAP, UET_AMO_UINT64, key, 0, opd, 24, NULL, 0,
		18);
	expect_malformed(&c, -EINVAL);
	/* fetching CAS whose result is 2 elements */
	cmd_amo(&c, UET_AMO_CSWAP, UET_AMO_UINT64, key, 0, opd, 16, res, 16,
		19);
	expect_malformed(&c, -EINVAL);
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.bad_cmds, 19);
	ck_assert_uint_eq(sa.rma_cmds + sa.amo_cmds, 0);
	/* the queue still works */
	memset(buf, 7, 8);
	write_ab(key, 0, buf, 8, 1, 100);
	ck_assert_uint_eq(tmem[7], 7);
	world_down();
}
END_TEST

/* ------------------------------------------------------------------ */
/* FENCE                                                               */
/* ------------------------------------------------------------------ */

static void fence_run(uint32_t drop_ppm)
{
	const size_t len = 1u << 20;
	struct snh_world_cfg wc;
	struct uet_snic_stats sa;
	uint8_t *tmem, *src, *dst, small[16];
	const struct snh_notif *n;
	struct snh_cmd c;
	uint64_t key;
	unsigned int k;

	world_cfg(&wc, drop_ppm, drop_ppm ? 100000 : 0);
	world_up(&wc);
	tmem = calloc(1, len + 4096);
	src = malloc(len);
	dst = malloc(len);
	ck_assert(tmem && src && dst);
	memset(dst, 0, len);
	key = mr_reg(1, tmem, len + 4096, UET_HSI_ACCESS_REMOTE_READ | UET_HSI_ACCESS_REMOTE_WRITE, 0,
		     0);
	snh_fill(src, len, 77);
	memset(small, 0x99, sizeof(small));
	/* 1 MiB write, a fenced read of the same bytes, a small write
	 * elsewhere (it may overtake the read: no fence) */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, src, len,
		1);
	ck_assert_int_eq(snh_post(&W.nic[0], &c), 0);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, 0, dst, len,
		2);
	c.fence = true;
	c.nseg = 3;
	ck_assert_int_eq(snh_post(&W.nic[0], &c), 0);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, len, small,
		sizeof(small), 3);
	ck_assert_int_eq(snh_post(&W.nic[0], &c), 0);
	ck_assert_int_eq(snh_ring(&W.nic[0]), 0);
	/* only the write started: the fenced read waits, and the queue
	 * behind it */
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.cmds, 1);
	ck_assert_uint_eq(sa.fence_waits, 1);
	ck_assert_uint_eq(sa.rma_cmds, 1);
	ck_assert(wait_n(0, 3, 0, 0));
	for (k = 0; k < 3; k++)
		ck_assert_uint_eq(nth(0, UET_HSI_NOTIF_SEND, k)->send.status,
				  0);
	/* the write completed first, and the read saw all of it */
	n = nth(0, UET_HSI_NOTIF_SEND, 0);
	ck_assert_uint_eq(n->send.op_context, 1);
	ck_assert_msg(snh_check(dst, len, 77) == len,
		      "fenced read differs at %zu", snh_check(dst, len, 77));
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.cmds, 3);
	ck_assert_uint_eq(sa.rma_cmds, 3);
	/* a fence with nothing in flight does not wait */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, key, len, dst,
		16, 4);
	c.fence = true;
	post(0, &c);
	get_stats(0, &sa);
	ck_assert_uint_eq(sa.cmds, 4);
	ck_assert_uint_eq(sa.fence_waits, 1);
	ck_assert(wait_n(0, 4, 0, 0));
	ck_assert_int_eq(memcmp(dst, small, sizeof(small)), 0);
	world_down();
	free(tmem);
	free(src);
	free(dst);
}

START_TEST(test_fence)
{
	fence_run(0);
}
END_TEST

START_TEST(test_fence_loss)
{
	fence_run(20000);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Keys                                                                */
/* ------------------------------------------------------------------ */

START_TEST(test_user_keys_virt_addr)
{
	uint8_t t1[256], t2[256], src[64];
	struct uet_hsi_dev *dev;
	struct uet_hsi_send_cmpl sc;
	struct snh_cmd c;
	uint64_t k, pk;

	world_up_default();
	dev = W.nic[1].dev;
	memset(t1, 0, sizeof(t1));
	memset(t2, 0, sizeof(t2));
	/* user key, addressed by virtual address */
	mr_reg(1, t1, sizeof(t1), UET_HSI_ACCESS_REMOTE_WRITE | UET_HSI_ACCESS_REMOTE_READ,
	       UET_HSI_MR_USER_KEY | UET_HSI_MR_VIRT_ADDR, 0x77);
	/* the same key again, and a key with bit 63 */
	k = 0x77;
	ck_assert_int_eq(dev->ops->mr_reg(dev, t2, sizeof(t2), UET_HSI_ACCESS_REMOTE_WRITE,
					  UET_HSI_MR_USER_KEY, &k), -EEXIST);
	k = UET_SES_MKEY_PROV | 5;
	ck_assert_int_eq(dev->ops->mr_reg(dev, t2, sizeof(t2), UET_HSI_ACCESS_REMOTE_WRITE,
					  UET_HSI_MR_USER_KEY, &k), -EINVAL);
	/* user key 0 is a key like any other; offset addressing */
	mr_reg(1, t2, sizeof(t2), UET_HSI_ACCESS_REMOTE_WRITE | UET_HSI_ACCESS_REMOTE_READ,
	       UET_HSI_MR_USER_KEY, 0);
	snh_fill(src, sizeof(src), 1);
	write_ab(0x77, (uint64_t)(uintptr_t)(t1 + 100), src, 64, 1, 1);
	ck_assert_uint_eq(snh_check(t1 + 100, 64, 1), 64);
	snh_fill(src, sizeof(src), 2);
	write_ab(0, 100, src, 64, 1, 2);
	ck_assert_uint_eq(snh_check(t2 + 100, 64, 2), 64);
	/* VIRT_ADDR: an address below the region is out of range */
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, 0x77, 100, src,
		8, 3);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_INVALID, UET_RC_AT_OUT_OF_RANGE);
	/* a provider key with VIRT_ADDR */
	pk = mr_reg(1, t2, sizeof(t2), UET_HSI_ACCESS_REMOTE_READ, UET_HSI_MR_VIRT_ADDR,
		    0);
	memset(src, 0, sizeof(src));
	read_ab(pk, (uint64_t)(uintptr_t)(t2 + 100), src, 64, 1, 4);
	ck_assert_uint_eq(snh_check(src, 64, 2), 64);
	/* a user key after dereg is unknown; it can be registered again */
	mr_dereg(1, 0x77);
	ck_assert_int_eq(dev->ops->mr_dereg(dev, 0x77), -ENOENT);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, 0x77,
		(uint64_t)(uintptr_t)t1, src, 8, 5);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_BAD_MKEY);
	mr_reg(1, t1, sizeof(t1), UET_HSI_ACCESS_REMOTE_WRITE, UET_HSI_MR_USER_KEY, 0x77);
	write_ab(0x77, 0, src, 8, 1, 6);
	/* local-only registration: every remote access fails */
	pk = mr_reg(1, t2, sizeof(t2), UET_HSI_ACCESS_SEND | UET_HSI_ACCESS_RECV, 0, 0);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_RECV, pk, 0, src, 8,
		7);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_ACCESS, UET_RC_PERM_VIOLATION);
	world_down();
}
END_TEST

/* RMA on a UUD queue: an error completion; amo_max in the limits. */
START_TEST(test_uud_and_limits)
{
	struct snh_world_cfg wc;
	struct uet_hsi_dev_limits lim;
	struct uet_hsi_send_cmpl sc;
	uint8_t tmem[64], src[8] = { 1 };
	struct snh_cmd c;
	uint64_t key;

	world_cfg(&wc, 0, 0);
	wc.qmode[0] = UET_HSI_QUEUE_MODE_UUD;
	world_up(&wc);
	key = mr_reg(1, tmem, sizeof(tmem), UET_HSI_ACCESS_REMOTE_WRITE, 0, 0);
	cmd_rma(&c, UET_HSI_FAMILY_RMA, UET_HSI_VARIANT_SEND, key, 0, src, 8,
		1);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_TOO_LONG, 0);
	cmd_amo(&c, UET_AMO_SUM, UET_AMO_UINT64, key, 0, src, 8, NULL, 0, 2);
	sc = run(&c);
	expect_err(&sc, UET_HSI_ST_TOO_LONG, 0);
	ck_assert_int_eq(W.nic[0].dev->ops->get_limits(W.nic[0].dev, &lim),
			 0);
	ck_assert_uint_eq(lim.amo_max, UET_SES_AMO_MAX);
	world_down();
}
END_TEST

static Suite *snic_rma_suite(void)
{
	Suite *s = suite_create("snic_rma");
	TCase *tc;

	tc = tcase_create("rma");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_write_read);
	tcase_add_test(tc, test_write_read_loss);
	tcase_add_test(tc, test_write_inline_inject);
	tcase_add_test(tc, test_remote_cq_data);
	tcase_add_test(tc, test_rma_events);
	suite_add_tcase(s, tc);

	tc = tcase_create("atomic");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_atomics);
	tcase_add_test(tc, test_atomics_loss);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_uud_and_limits);
	suite_add_tcase(s, tc);

	tc = tcase_create("ordering_keys");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fence);
	tcase_add_test(tc, test_fence_loss);
	tcase_add_test(tc, test_user_keys_virt_addr);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_rma_suite)
