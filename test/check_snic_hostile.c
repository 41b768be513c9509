/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC's receive path against a hostile network (issue 15):
 * one target (the real PDS + SES) on a capturing link, and datagrams
 * forged with the wire encoders, handed to uet_pds_rx() as if they came
 * from the UDP port.  One test per finding of the audit; each asserts an
 * observable effect (memory written or not, completions, PDCs kept,
 * bytes sent back), so it fails on the code before the fix.
 *
 * Findings: 1 RMA over UUD/RUDI, 2 replay after close, 3 SYN flood,
 * 4 unexpected budget pinned, 5 write records unbounded, 6 ROD hold
 * buffers pinned, 7 provider keys repeating, 8 READ amplification,
 * 9 duplicate offsets counted twice, 10 return-code oracle, 11 spoofed
 * SYN resets a live PDC, 12 drops counted, 13 a sprayed request
 * accepted from any port of the peer's host (E-18); plus the memory an
 * unauthenticated source can hold (measured).
 */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_hashmap.h"
#include "uet_pds.h"
#include "uet_pds_wire.h"
#include "uet_ses.h"
#include "uet_ses_wire.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define JOB		1u
#define PID		0u
#define RI		0u
#define MTU		4096u
#define SEC		1000000000ull
#define MS		1000000ull
#define REGION		64u
#define GUARD		64u

/* ---- a link that records what the target sends ---- */

#define CAP_LOG		32u

struct cap {
	struct uet_link link;
	struct uet_link_addr self;
	uint64_t pkts, bytes;
	uint8_t last[MTU];
	size_t last_len;
	/* The last CAP_LOG datagrams, oldest overwritten first. */
	uint8_t log[CAP_LOG][MTU];
	size_t log_len[CAP_LOG];
};

static int cap_send(struct uet_link *l, const struct uet_link_pkt *p,
		    unsigned int n)
{
	struct cap *c = (struct cap *)l;
	unsigned int i, k;
	size_t len;

	for (i = 0; i < n; i++) {
		len = 0;
		for (k = 0; k < p[i].iovcnt; k++) {
			if (len + p[i].iov[k].iov_len <= sizeof(c->last))
				memcpy(c->last + len, p[i].iov[k].iov_base,
				       p[i].iov[k].iov_len);
			len += p[i].iov[k].iov_len;
		}
		c->last_len = len;
		if (len <= MTU) {
			memcpy(c->log[c->pkts % CAP_LOG], c->last, len);
			c->log_len[c->pkts % CAP_LOG] = len;
		}
		c->pkts++;
		c->bytes += len;
	}
	return (int)n;
}

static int cap_recv(struct uet_link *l, struct uet_link_rx *rx, unsigned int n)
{
	(void)l;
	(void)rx;
	(void)n;
	return 0;
}

static int cap_fd(struct uet_link *l)
{
	(void)l;
	return -1;
}

static size_t cap_mtu(struct uet_link *l)
{
	(void)l;
	return MTU;
}

static int cap_local(struct uet_link *l, struct uet_link_addr *a)
{
	*a = ((struct cap *)l)->self;
	return 0;
}

static void cap_close(struct uet_link *l)
{
	(void)l;
}

static const struct uet_link_ops cap_ops = {
	.send = cap_send, .recv = cap_recv, .fd = cap_fd, .mtu = cap_mtu,
	.local_addr = cap_local, .close = cap_close,
};

/* ---- the target ---- */

struct tgt {
	struct cap cap;
	struct uet_pds *pds;
	struct uet_ses *ses;
	struct uet_ses_ep *ep;
	uint64_t now;
	unsigned int nrecv, nrma;
	struct uet_ses_recv_cmpl rc;
	uint8_t mem[GUARD + REGION + GUARD];
	uint64_t key;
};

static void t_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	(void)ctx;
	(void)c;
}

static void t_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	struct tgt *t = ctx;

	t->nrecv++;
	t->rc = *c;
}

static void t_rma_event(void *ctx, const struct uet_ses_rma_event *e)
{
	struct tgt *t = ctx;

	(void)e;
	t->nrma++;
}

static const struct uet_ses_upcalls t_up = {
	.send_done = t_send_done,
	.recv_done = t_recv_done,
	.rma_event = t_rma_event,
};

static struct tgt *tgt_open_cfg(const struct uet_pds_cfg *pc,
				const struct uet_ses_cfg *sc)
{
	struct uet_ses_mr_attr a;
	struct tgt *t;

	t = calloc(1, sizeof(*t));
	ck_assert_ptr_nonnull(t);
	t->cap.link.ops = &cap_ops;
	ck_assert_int_eq(uet_link_addr_from_str(&t->cap.self, "127.0.0.1",
						4793), 0);
	t->now = SEC;
	ck_assert_int_eq(uet_pds_create(&t->pds, pc, &t->cap.link, NULL,
					NULL), 0);
	ck_assert_int_eq(uet_ses_create(&t->ses, sc, t->pds, &t_up, t), 0);
	ck_assert_int_eq(uet_ses_ep_open(t->ses, JOB, PID, RI, &t->ep), 0);
	memset(t->mem, 0xee, sizeof(t->mem));
	memset(&a, 0, sizeof(a));
	a.addr = t->mem + GUARD;
	a.len = REGION;
	a.access = UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE;
	ck_assert_int_eq(uet_ses_mr_reg(t->ses, &a, &t->key), 0);
	return t;
}

/* As the NIC runs by default: congestion management (NSCC) on. */
static void pds_cfg(struct uet_pds_cfg *pc)
{
	uet_pds_cfg_default(pc);
	pc->seed = 42;
	pc->cc = UET_PDS_CC_NSCC;
}

static void ses_cfg(struct uet_ses_cfg *sc)
{
	uet_ses_cfg_default(sc);
	sc->mtu = MTU;
	sc->unexp_max_bytes = 64u << 20;
}

static struct tgt *tgt_open(void)
{
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;

	pds_cfg(&pc);
	ses_cfg(&sc);
	return tgt_open_cfg(&pc, &sc);
}

static void tgt_close(struct tgt *t)
{
	uet_ses_destroy(t->ses);
	uet_pds_destroy(t->pds);
	free(t);
}

/* Let time pass: timers of both layers. */
static void tgt_run(struct tgt *t, uint64_t dt, uint64_t step)
{
	uint64_t end = t->now + dt;

	while (t->now < end) {
		t->now += step;
		uet_pds_timer(t->pds, t->now);
		uet_ses_progress(t->ses, t->now);
	}
}

static struct uet_link_addr src_addr(uint16_t port)
{
	struct uet_link_addr a;

	ck_assert_int_eq(uet_link_addr_from_str(&a, "127.0.0.2", port), 0);
	return a;
}

static void inject(struct tgt *t, const struct uet_link_addr *src,
		   const uint8_t *buf, size_t len)
{
	uet_pds_rx(t->pds, buf, len, src, t->now);
	uet_ses_progress(t->ses, t->now);
}

static uint64_t pdcs_open(struct tgt *t)
{
	struct uet_pds_stats st;

	uet_pds_get_stats(t->pds, &st);
	return st.pdc_opened - st.pdc_closed - st.pdc_failed;
}

/* ---- datagram builders ---- */

struct req {
	uint8_t type;			/* UET_PDS_TYPE_RUD_REQ / _ROD_REQ */
	bool syn;
	uint16_t spdcid, dpdcid;
	uint32_t psn;
	uint16_t psn_offset;
};

/* PDS request header + SES bytes. */
static size_t mk_req(uint8_t *buf, const struct req *r, uint8_t next_hdr,
		     const uint8_t *ses, size_t ses_len)
{
	struct uet_pds_rud_rod_req h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.type = r->type ? r->type : UET_PDS_TYPE_RUD_REQ;
	h.next_hdr = next_hdr;
	h.syn = r->syn;
	h.psn = r->psn;
	h.spdcid = r->spdcid;
	h.dpdcid = r->syn ? 0 : r->dpdcid;
	h.psn_offset = r->syn ? r->psn_offset : 0;
	h.ar = true;
	n = uet_pds_rud_rod_req_encode(UET_WIRE_UEPLUS, buf, MTU, &h);
	ck_assert_int_gt(n, 0);
	memcpy(buf + n, ses, ses_len);
	return (size_t)n + ses_len;
}

/* UUD and RUDI datagrams with any next header. */
static size_t mk_uud_hdr(uint8_t *buf, uint8_t next_hdr, const uint8_t *ses,
			 size_t ses_len)
{
	struct uet_pds_uud_req h = { .next_hdr = next_hdr, .pkt_id = 7 };
	ssize_t n = uet_pds_uud_req_encode(UET_WIRE_UEPLUS, buf, MTU, &h);

	ck_assert_int_gt(n, 0);
	memcpy(buf + n, ses, ses_len);
	return (size_t)n + ses_len;
}

static size_t mk_rudi_hdr(uint8_t *buf, uint8_t next_hdr, uint32_t id,
			  const uint8_t *ses, size_t ses_len)
{
	struct uet_pds_rudi h = { .type = UET_PDS_TYPE_RUDI_REQ,
				  .next_hdr = next_hdr, .pkt_id = id };
	ssize_t n = uet_pds_rudi_encode(UET_WIRE_UEPLUS, buf, MTU, &h);

	ck_assert_int_gt(n, 0);
	memcpy(buf + n, ses, ses_len);
	return (size_t)n + ses_len;
}

static size_t mk_uud(uint8_t *buf, const uint8_t *ses, size_t ses_len)
{
	return mk_uud_hdr(buf, UET_HDR_REQUEST_STD, ses, ses_len);
}

static size_t mk_rudi(uint8_t *buf, uint32_t id, const uint8_t *ses,
		      size_t ses_len)
{
	return mk_rudi_hdr(buf, UET_HDR_REQUEST_STD, id, ses, ses_len);
}

/* A Response with Data for READ id: len bytes of byte at off. */
static size_t mk_rdata(uint8_t *ses, uint16_t id, uint32_t job,
		       uint32_t rlen, uint32_t off, size_t len, uint8_t byte)
{
	struct uet_ses_rsp_data h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.ctl.list = UET_LIST_EXPECTED;
	h.ctl.opcode = UET_RESPONSE_W_DATA;
	h.ctl.version = UET_SES_VERSION;
	h.job_id = job;
	h.read_request_message_id = id;
	h.payload_length = (uint16_t)len;
	h.modified_length = rlen;
	h.message_offset = off;
	n = uet_ses_rsp_data_encode(UET_WIRE_UEPLUS, ses, MTU, &h);
	ck_assert_int_gt(n, 0);
	memset(ses + n, byte, len);
	return (size_t)n + len;
}

static size_t mk_cp(uint8_t *buf, uint8_t type, uint16_t spdcid,
		    uint16_t dpdcid, uint32_t psn)
{
	struct uet_pds_cp h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.ctl_type = type;
	h.psn = psn;
	h.spdcid = spdcid;
	h.dpdcid = dpdcid;
	n = uet_pds_cp_encode(UET_WIRE_UEPLUS, buf, MTU, &h);
	ck_assert_int_gt(n, 0);
	return (size_t)n;
}

struct sreq {
	uint8_t opcode;
	bool som, eom;
	uint16_t msg_id;
	uint32_t job;
	uint16_t pid, ri;
	uint64_t key;			/* match_bits */
	uint64_t off;			/* buffer_offset */
	uint32_t total;			/* request_length */
	uint32_t moff;			/* message_offset (SOM=0) */
	const void *data;
	size_t plen;
};

/* An SES standard request (SOM=1 or SOM=0) with its payload. */
static size_t mk_ses(uint8_t *buf, const struct sreq *q)
{
	struct uet_ses_std_som1 h1;
	struct uet_ses_std_som0 h0;
	ssize_t n;

	if (q->som) {
		memset(&h1, 0, sizeof(h1));
		h1.ctl.opcode = q->opcode;
		h1.ctl.som = true;
		h1.ctl.eom = q->eom;
		h1.message_id = q->msg_id;
		h1.ri_generation = UET_SES_MKEY_GEN(q->key);
		h1.job_id = q->job;
		h1.pid_on_fep = q->pid;
		h1.resource_index = q->ri;
		h1.buffer_offset = q->off;
		h1.match_bits = q->key;
		h1.request_length = q->total;
		n = uet_ses_std_som1_encode(UET_WIRE_UEPLUS, buf, MTU, &h1);
	} else {
		memset(&h0, 0, sizeof(h0));
		h0.ctl.opcode = q->opcode;
		h0.ctl.eom = q->eom;
		h0.message_id = q->msg_id;
		h0.ri_generation = UET_SES_MKEY_GEN(q->key);
		h0.job_id = q->job;
		h0.pid_on_fep = q->pid;
		h0.resource_index = q->ri;
		h0.buffer_offset = q->off + q->moff;
		h0.match_bits = q->key;
		h0.payload_length = (uint16_t)q->plen;
		h0.message_offset = q->moff;
		h0.request_length = q->total;
		n = uet_ses_std_som0_encode(UET_WIRE_UEPLUS, buf, MTU, &h0);
	}
	ck_assert_int_gt(n, 0);
	if (q->plen)
		memcpy(buf + n, q->data, q->plen);
	return (size_t)n + q->plen;
}

/* A one-packet WRITE of len bytes (pattern 0x5a) at offset 0. */
static size_t mk_write(uint8_t *ses, uint64_t key, uint32_t job, size_t len)
{
	static uint8_t pat[256];
	struct sreq q;

	memset(pat, 0x5a, sizeof(pat));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_WRITE;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.job = job;
	q.key = key;
	q.total = (uint32_t)len;
	q.data = pat;
	q.plen = len;
	return mk_ses(ses, &q);
}

/* A non-fetching ATOMIC SUM of one uint64 (value 1) at offset 0. */
static size_t mk_atomic(uint8_t *ses, uint64_t key, uint16_t msg_id)
{
	struct uet_ses_atomic_ext ax;
	uint64_t one = 1;
	struct sreq q;
	size_t n;
	ssize_t x;

	memset(&q, 0, sizeof(q));
	q.opcode = UET_ATOMIC;
	q.som = q.eom = true;
	q.msg_id = msg_id;
	q.job = JOB;
	q.key = key;
	q.total = sizeof(one);
	n = mk_ses(ses, &q);
	memset(&ax, 0, sizeof(ax));
	ax.atomic_opcode = UET_AMO_SUM;
	ax.atomic_datatype = UET_AMO_UINT64;
	x = uet_ses_atomic_ext_encode(UET_WIRE_UEPLUS, ses + n, MTU - n, &ax);
	ck_assert_int_gt(x, 0);
	n += (size_t)x;
	memcpy(ses + n, &one, sizeof(one));
	return n + sizeof(one);
}

static bool region_untouched(const struct tgt *t)
{
	size_t i;

	for (i = 0; i < sizeof(t->mem); i++)
		if (t->mem[i] != 0xee)
			return false;
	return true;
}

static bool guards_intact(const struct tgt *t)
{
	size_t i;

	for (i = 0; i < GUARD; i++)
		if (t->mem[i] != 0xee || t->mem[GUARD + REGION + i] != 0xee)
			return false;
	return true;
}

/* An ACK of any of the three kinds (with congestion management on, the
 * target sends ACK_CC). */
static ssize_t ack_decode_any(struct uet_pds_ack *ack, const uint8_t *buf,
			      size_t len)
{
	struct uet_pds_ack_ccx x;
	struct uet_pds_ack_cc c;
	ssize_t n;

	switch (uet_pds_peek_type(buf, len)) {
	case UET_PDS_TYPE_ACK:
		return uet_pds_ack_decode(UET_WIRE_UEPLUS, ack, buf, len);
	case UET_PDS_TYPE_ACK_CC:
		n = uet_pds_ack_cc_decode(UET_WIRE_UEPLUS, &c, buf, len);
		if (n > 0)
			*ack = c.ack;
		return n;
	case UET_PDS_TYPE_ACK_CCX:
		n = uet_pds_ack_ccx_decode(UET_WIRE_UEPLUS, &x, buf, len);
		if (n > 0)
			*ack = x.ack;
		return n;
	default:
		return -EPROTO;
	}
}

/* The SES return code of the response on the last ACK the target sent
 * (0 when it carried none). */
static uint8_t last_rsp_rc(const struct tgt *t)
{
	struct uet_pds_ack ack;
	struct uet_ses_rsp rsp;
	ssize_t n;

	n = ack_decode_any(&ack, t->cap.last, t->cap.last_len);
	if (n < 0 || ack.next_hdr != UET_HDR_RESPONSE)
		return 0;
	if (uet_ses_rsp_decode(UET_WIRE_UEPLUS, &rsp, t->cap.last + n,
			       t->cap.last_len - (size_t)n) < 0)
		return 0;
	return rsp.ctl.return_code;
}

/* ---- finding 1: RMA without a PDC ---- */

START_TEST(test_rma_over_uud_refused)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5000);
	uint8_t ses[MTU], dg[MTU];
	size_t n;

	/* The audit's 82-byte UUD datagram: WRITE, first provider key. */
	n = mk_write(ses, t->key, JOB, 32);
	inject(t, &s, dg, mk_uud(dg, ses, n));
	ck_assert_msg(region_untouched(t), "UUD WRITE landed in the region");
	/* The same over RUDI, and a non-fetching atomic over both. */
	inject(t, &s, dg, mk_rudi(dg, 1, ses, n));
	ck_assert_msg(region_untouched(t), "RUDI WRITE landed");
	n = mk_atomic(ses, t->key, 2);
	inject(t, &s, dg, mk_uud(dg, ses, n));
	inject(t, &s, dg, mk_rudi(dg, 2, ses, n));
	ck_assert_msg(region_untouched(t), "atomic without a PDC applied");
	ck_assert_uint_eq(t->nrma, 0);
	tgt_close(t);
}
END_TEST

/* A UUD send is not delivered into an RDM (RUD) endpoint. */
START_TEST(test_uud_send_into_rdm_refused)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5000);
	struct uet_ses_recv_req rr;
	uint8_t ses[MTU], dg[MTU], buf[64], data[16];
	struct iovec iov = { buf, sizeof(buf) };
	struct sreq q;

	memset(&rr, 0, sizeof(rr));
	rr.ep = t->ep;
	rr.iov = &iov;
	rr.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(t->ses, &rr, t->now), 0);
	memset(data, 1, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_SEND;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.job = JOB;
	q.total = sizeof(data);
	q.data = data;
	q.plen = sizeof(data);
	inject(t, &s, dg, mk_uud(dg, ses, mk_ses(ses, &q)));
	ck_assert_uint_eq(t->nrecv, 0);
	tgt_close(t);
}
END_TEST

/* ---- finding 2: replay after close ---- */

START_TEST(test_replay_after_close)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5001);
	uint8_t ses[MTU], syn[MTU], dg[MTU];
	struct req r = { .syn = true, .spdcid = 77, .psn = 1000 };
	uint64_t v;
	size_t n, sn;

	n = mk_atomic(ses, t->key, 1);
	sn = mk_req(syn, &r, UET_HDR_REQUEST_STD, ses, n);
	inject(t, &s, syn, sn);
	memcpy(&v, t->mem + GUARD, sizeof(v));
	ck_assert_uint_eq(v, 0xeeeeeeeeeeeeeeefull);
	ck_assert_uint_eq(pdcs_open(t), 1);
	/* The initiator closes: CLOSE_COMMAND at the next PSN.  Our PDCID
	 * is in the ACK the target sent. */
	{
		struct uet_pds_ack ack;

		ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
						    t->cap.last_len), 0);
		inject(t, &s, dg, mk_cp(dg, UET_CTL_CLOSE_COMMAND, 77,
					ack.spdcid, 1001));
	}
	ck_assert_uint_eq(pdcs_open(t), 0);
	/* A capture of the SYN+ATOMIC replayed: never applied again. */
	tgt_run(t, 100 * MS, 10 * MS);
	inject(t, &s, syn, sn);
	memcpy(&v, t->mem + GUARD, sizeof(v));
	ck_assert_msg(v == 0xeeeeeeeeeeeeeeefull,
		      "replayed atomic applied again");
	/* After an idle close too. */
	tgt_run(t, 30 * SEC, 100 * MS);
	inject(t, &s, syn, sn);
	memcpy(&v, t->mem + GUARD, sizeof(v));
	ck_assert_uint_eq(v, 0xeeeeeeeeeeeeeeefull);
	tgt_close(t);
}
END_TEST

/* Round 2, finding 6: a capture whose psn_offset was edited names
 * another Start_PSN, but a PSN the PDC received: still a replay, of a
 * closed PDC and of a live idle one (which it used to replace). */
START_TEST(test_replay_edited_offset)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5002);
	uint8_t ses[MTU], dg[MTU];
	struct req r = { .syn = true, .spdcid = 78, .psn = 1000 };
	struct uet_pds_stats st;
	struct uet_pds_ack ack;
	unsigned int k;
	uint64_t v;
	size_t n;

	n = mk_atomic(ses, t->key, 1);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert_uint_eq(pdcs_open(t), 1);
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last, t->cap.last_len),
			 0);
	/* Live and idle: the edited capture neither replaces the PDC nor
	 * applies the atomic again. */
	tgt_run(t, 100 * MS, 10 * MS);
	for (k = 1; k <= 3; k++) {
		r.psn_offset = (uint16_t)k;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	}
	memcpy(&v, t->mem + GUARD, sizeof(v));
	ck_assert_msg(v == 0xeeeeeeeeeeeeeeefull,
		      "edited replay applied again on a live PDC");
	ck_assert_uint_eq(pdcs_open(t), 1);
	/* Closed: the same. */
	inject(t, &s, dg, mk_cp(dg, UET_CTL_CLOSE_COMMAND, 78, ack.spdcid,
				1001));
	ck_assert_uint_eq(pdcs_open(t), 0);
	for (k = 4; k <= 6; k++) {
		r.psn_offset = (uint16_t)k;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	}
	memcpy(&v, t->mem + GUARD, sizeof(v));
	ck_assert_msg(v == 0xeeeeeeeeeeeeeeefull,
		      "edited replay applied again after close");
	uet_pds_get_stats(t->pds, &st);
	ck_assert_uint_eq(st.replay_drop, 6);
	tgt_close(t);
}
END_TEST

/* ---- finding 3: SYN flood ---- */

START_TEST(test_syn_flood_wrong_job)
{
	struct tgt *t = tgt_open();
	uint8_t ses[MTU], dg[MTU];
	struct uet_link_addr s;
	struct req r = { .syn = true, .psn = 5 };
	unsigned int i;
	size_t n;

	n = mk_write(ses, t->key, JOB + 1, 8);	/* wrong JobID */
	for (i = 0; i < 5000; i++) {
		s = src_addr((uint16_t)(1024 + i));
		r.spdcid = (uint16_t)(1 + i);
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 n));
	}
	ck_assert_msg(pdcs_open(t) == 0, "%llu PDCs kept for refused SYNs",
		      (unsigned long long)pdcs_open(t));
	/* Well-formed requests of an opcode SES does not serve: the same. */
	{
		struct sreq q;

		memset(&q, 0, sizeof(q));
		q.opcode = UET_TSEND_ATOMIC;
		q.som = q.eom = true;
		q.msg_id = 1;
		q.job = JOB + 1;
		for (i = 0; i < 100; i++) {
			s = src_addr((uint16_t)(7000 + i));
			r.spdcid = (uint16_t)(1 + i);
			inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD,
						 ses, mk_ses(ses, &q)));
		}
		ck_assert_msg(pdcs_open(t) == 0,
			      "%llu PDCs kept for unsupported requests",
			      (unsigned long long)pdcs_open(t));
	}
	/* A legitimate SYN is served at once. */
	s = src_addr(999);
	r.spdcid = 9;
	n = mk_write(ses, t->key, JOB, 8);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert_uint_eq(t->mem[GUARD], 0x5a);
	ck_assert_uint_eq(pdcs_open(t), 1);
	tgt_close(t);
}
END_TEST

/* One source (valid JobID) cannot take the table. */
START_TEST(test_syn_per_source_limit)
{
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;
	struct tgt *t;
	uint8_t ses[MTU], dg[MTU];
	struct uet_link_addr s = src_addr(6000);
	struct req r = { .syn = true, .psn = 5 };
	unsigned int i;
	size_t n;

	pds_cfg(&pc);
	pc.max_pdcs = 256;
	ses_cfg(&sc);
	t = tgt_open_cfg(&pc, &sc);
	n = mk_write(ses, t->key, JOB, 8);
	for (i = 0; i < 1000; i++) {
		r.spdcid = (uint16_t)(1 + i);
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 n));
	}
	ck_assert_uint_le(pdcs_open(t), 64);
	s = src_addr(6001);
	r.spdcid = 1;
	memset(t->mem + GUARD, 0, 8);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert_uint_eq(t->mem[GUARD], 0x5a);
	tgt_close(t);
}
END_TEST

/* ---- finding 4: one datagram pins the unexpected budget ---- */

START_TEST(test_unexp_budget_not_pinned)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5002);
	uint8_t ses[MTU], dg[MTU], data[100], buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct uet_ses_recv_req rr;
	struct uet_ses_stats st;
	struct sreq q;

	memset(data, 3, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_SEND;
	q.som = true;
	q.msg_id = 1;
	q.job = JOB;
	q.total = 64u << 20;			/* 64 MiB announced */
	q.data = data;
	q.plen = sizeof(data);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	uet_ses_get_stats(t->ses, &st);
	ck_assert_msg(st.unexp_bytes <= 1u << 20,
		      "one datagram reserved %llu bytes",
		      (unsigned long long)st.unexp_bytes);
	/* A receive bound to it completes with an error once it expires. */
	memset(&rr, 0, sizeof(rr));
	rr.ep = t->ep;
	rr.iov = &iov;
	rr.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(t->ses, &rr, t->now), 0);
	ck_assert_uint_eq(t->nrecv, 0);
	tgt_run(t, 60 * SEC, 100 * MS);
	ck_assert_msg(t->nrecv == 1, "receive bound to a dead message never completed");
	ck_assert_int_eq(t->rc.status, -ETIMEDOUT);
	uet_ses_get_stats(t->ses, &st);
	ck_assert_uint_eq(st.unexp_bytes, 0);
	tgt_close(t);
}
END_TEST

/*
 * The first thing SES hears of since it was created is a packet (no
 * receive posted yet, no progress call: an application that posts its
 * receive lazily).  The message it starts is timed from its arrival; it
 * was timed from 0 and dropped as expired at once, so the receive posted
 * next waited for a message that no longer existed.
 */
START_TEST(test_first_packet_timed_from_arrival)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5010);
	uint8_t ses[MTU], dg[MTU], data[200], buf[2 * 200];
	struct iovec iov = { buf, sizeof(buf) };
	struct req r = { .syn = true, .spdcid = 7, .psn = 10 };
	struct uet_ses_recv_req rr;
	struct uet_ses_stats st;
	struct uet_pds_ack ack;
	struct sreq q;

	t->now = 100 * SEC;	/* long after the SES was created */
	memset(data, 0x42, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_SEND;
	q.som = true;
	q.msg_id = 1;
	q.job = JOB;
	q.total = sizeof(buf);
	q.data = data;
	q.plen = sizeof(data);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
					    t->cap.last_len), 0);
	uet_ses_get_stats(t->ses, &st);
	ck_assert_uint_eq(st.unexpected, 1);
	ck_assert_msg(st.msgs_expired == 0,
		      "a message expired on its first packet");

	memset(&rr, 0, sizeof(rr));
	rr.ep = t->ep;
	rr.iov = &iov;
	rr.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(t->ses, &rr, t->now), 0);
	r.syn = false;
	r.dpdcid = ack.spdcid;
	r.psn = 11;
	q.som = false;
	q.eom = true;
	q.moff = sizeof(data);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_uint_eq(t->nrecv, 1);
	ck_assert_int_eq(t->rc.status, 0);
	ck_assert_uint_eq(t->rc.len, sizeof(buf));
	ck_assert_uint_eq(buf[0], 0x42);
	ck_assert_uint_eq(buf[sizeof(buf) - 1], 0x42);
	tgt_close(t);
}
END_TEST

/* ---- finding 5: incomplete write records ---- */

START_TEST(test_write_records_bounded)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5003);
	uint8_t ses[MTU], dg[MTU], data[8];
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct mallinfo2 a, b;
	struct uet_pds_ack ack;
	struct sreq q;
	unsigned int i;

	memset(data, 1, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_WRITE;
	q.som = true;
	q.job = JOB;
	q.key = t->key;
	q.total = REGION;		/* EOM=0: 8 of 64 bytes */
	q.data = data;
	q.plen = sizeof(data);
	q.msg_id = 1;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
					    t->cap.last_len), 0);
	r.syn = false;
	r.dpdcid = ack.spdcid;
	a = mallinfo2();
	for (i = 1; i < 20000; i++) {
		q.msg_id = (uint16_t)(1 + i % 65535);
		r.psn = 10 + i;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 mk_ses(ses, &q)));
	}
	b = mallinfo2();
	ck_assert_msg(b.uordblks - a.uordblks < 2u << 20,
		      "incomplete writes hold %zu bytes",
		      (size_t)(b.uordblks - a.uordblks));
	/* ... and they expire. */
	tgt_run(t, 60 * SEC, 500 * MS);
	ck_assert_uint_eq(t->nrma, 0);
	tgt_close(t);
}
END_TEST

/* ---- finding 6: ROD hold buffers ---- */

START_TEST(test_rod_hold_bounded)
{
	struct tgt *t = tgt_open();
	uint8_t ses[MTU], dg[MTU];
	struct uet_link_addr s = src_addr(5004);
	struct req r = { .type = UET_PDS_TYPE_ROD_REQ, .syn = true,
			 .psn = 100 };
	struct uet_pds_ack ack;
	uint16_t dpdcid[8];
	unsigned int p, i;
	size_t n;

	n = mk_write(ses, t->key, JOB, 8);
	/* 8 PDCs opened properly, then 254 packets behind a missing PSN. */
	for (p = 0; p < 8; p++) {
		r.syn = true;
		r.spdcid = (uint16_t)(10 + p);
		r.psn = 100;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 n));
		ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
						    t->cap.last_len), 0);
		dpdcid[p] = ack.spdcid;
	}
	ck_assert_uint_eq(pdcs_open(t), 8);
	for (p = 0; p < 8; p++) {
		r.syn = false;
		r.spdcid = (uint16_t)(10 + p);
		r.dpdcid = dpdcid[p];
		for (i = 0; i < 254; i++) {
			r.psn = 102 + i;		/* 101 never comes */
			inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD,
						 ses, n));
		}
	}
	/* The held packets do not stay forever: the PDCs fail, and a new
	 * PDC gets the hold buffers again. */
	tgt_run(t, 30 * SEC, 100 * MS);
	ck_assert_msg(pdcs_open(t) == 0, "%llu PDCs still hold packets",
		      (unsigned long long)pdcs_open(t));
	{
		struct uet_pds_stats a, b;

		s = src_addr(5104);
		r.syn = true;
		r.spdcid = 99;
		r.psn = 500;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
		ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
						    t->cap.last_len), 0);
		r.syn = false;
		r.dpdcid = ack.spdcid;
		uet_pds_get_stats(t->pds, &a);
		for (i = 0; i < 200; i++) {
			r.psn = 502 + i;
			inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD,
						 ses, n));
		}
		uet_pds_get_stats(t->pds, &b);
		ck_assert_uint_eq(b.ooo_held - a.ooo_held, 200);
	}
	tgt_close(t);
}
END_TEST

/* ---- finding 7: provider keys ---- */

START_TEST(test_keys_do_not_repeat)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5005);
	struct uet_ses_mr_attr a;
	uint8_t ses[MTU], dg[MTU];
	struct req r = { .syn = true, .psn = 3 };
	uint64_t first, k;
	unsigned int i;
	size_t n;

	ck_assert_int_eq(uet_ses_mr_dereg(t->ses, t->key), 0);
	memset(&a, 0, sizeof(a));
	a.addr = t->mem + GUARD;
	a.len = REGION;
	a.access = UET_SES_ACC_REMOTE_WRITE;
	ck_assert_int_eq(uet_ses_mr_reg(t->ses, &a, &first), 0);
	for (i = 0; i < 300; i++) {
		ck_assert_int_eq(uet_ses_mr_dereg(t->ses, first), i ? -ENOENT : 0);
		if (i)
			ck_assert_int_eq(uet_ses_mr_dereg(t->ses, k), 0);
		ck_assert_int_eq(uet_ses_mr_reg(t->ses, &a, &k), 0);
		ck_assert_msg(k != first, "key repeated after %u registrations",
			      i + 1);
	}
	/* The stale first key is refused (nothing written). */
	n = mk_write(ses, first, JOB, 8);
	r.spdcid = 3;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert(region_untouched(t));
	tgt_close(t);
}
END_TEST

/* ---- finding 8: READ amplification ---- */

/* A 16 MiB remotely readable region (the audit's READ size): its memory
 * (free it) and key in *key. */
#define BIG_READ	(16u << 20)

static uint8_t *big_region(struct tgt *t, uint64_t *key)
{
	struct uet_ses_mr_attr a;
	uint8_t *big = calloc(1, BIG_READ);

	ck_assert_ptr_nonnull(big);
	memset(&a, 0, sizeof(a));
	a.addr = big;
	a.len = BIG_READ;
	a.access = UET_SES_ACC_REMOTE_READ;
	ck_assert_int_eq(uet_ses_mr_reg(t->ses, &a, key), 0);
	return big;
}

/* A READ of the whole region as SES bytes. */
static size_t mk_big_read(uint8_t *ses, uint64_t key)
{
	struct sreq q;

	memset(&q, 0, sizeof(q));
	q.opcode = UET_READ;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.job = JOB;
	q.key = key;
	q.total = BIG_READ;
	return mk_ses(ses, &q);
}

START_TEST(test_read_amplification)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5006);
	uint8_t ses[MTU], dg[MTU], *big;
	struct req r = { .syn = true, .spdcid = 8, .psn = 3 };
	uint64_t key, before;

	big = big_region(t, &key);
	before = t->cap.bytes;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_big_read(ses, key)));
	/* The source never answers. */
	tgt_run(t, 60 * SEC, 10 * MS);
	ck_assert_msg(t->cap.bytes - before < 128u * 1024,
		      "%llu bytes sent to a silent source",
		      (unsigned long long)(t->cap.bytes - before));
	tgt_close(t);
	free(big);
}
END_TEST

/* ---- finding 9: duplicate offsets ---- */

START_TEST(test_duplicate_offset_not_counted)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5007);
	uint8_t ses[MTU], dg[MTU], data[500], *buf;
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct iovec iov;
	struct uet_ses_recv_req rr;
	struct uet_pds_ack ack;
	struct sreq q;

	buf = malloc(1500);
	memset(buf, 0xcc, 1500);
	iov.iov_base = buf;
	iov.iov_len = 1500;
	memset(&rr, 0, sizeof(rr));
	rr.ep = t->ep;
	rr.iov = &iov;
	rr.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(t->ses, &rr, t->now), 0);
	memset(data, 1, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_SEND;
	q.som = true;
	q.msg_id = 1;
	q.job = JOB;
	q.total = 1500;
	q.data = data;
	q.plen = 500;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
					    t->cap.last_len), 0);
	r.syn = false;
	r.dpdcid = ack.spdcid;
	q.som = false;
	q.moff = 500;
	r.psn = 11;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	r.psn = 12;		/* bytes 500-999 again, a new PSN */
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_msg(t->nrecv == 0,
		      "1500-byte receive completed after 1000 bytes");
	q.moff = 1000;
	q.eom = true;
	r.psn = 13;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_uint_eq(t->nrecv, 1);
	ck_assert_int_eq(t->rc.status, 0);
	tgt_close(t);
	free(buf);
}
END_TEST

/* The same for a multi-packet WRITE: its event waits for every byte. */
START_TEST(test_duplicate_write_offset)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5008);
	uint8_t ses[MTU], dg[MTU], data[16];
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct uet_pds_ack ack;
	struct sreq q;

	memset(data, 2, sizeof(data));
	memset(&q, 0, sizeof(q));
	q.opcode = UET_WRITE;
	q.som = true;
	q.msg_id = 1;
	q.job = JOB;
	q.key = t->key;
	q.total = 48;
	q.data = data;
	q.plen = 16;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
					    t->cap.last_len), 0);
	r.syn = false;
	r.dpdcid = ack.spdcid;
	q.som = false;
	q.moff = 16;
	r.psn = 11;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	r.psn = 12;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_msg(t->nrma == 0, "write event before its last bytes");
	tgt_close(t);
}
END_TEST

/* ---- finding 10: return codes ---- */

START_TEST(test_uniform_refusal)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5009);
	uint8_t ses[MTU], dg[MTU], rc[3];
	struct req r = { .syn = true, .psn = 3 };
	struct sreq q;
	int i;

	memset(&q, 0, sizeof(q));
	q.opcode = UET_WRITE;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.key = t->key;
	for (i = 0; i < 3; i++) {
		q.job = i == 0 ? JOB + 1 : JOB;		/* wrong JobID */
		q.pid = i == 1 ? PID + 1 : PID;		/* wrong pid */
		q.ri = i == 2 ? RI + 1 : RI;		/* wrong index */
		r.spdcid = (uint16_t)(20 + i);
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 mk_ses(ses, &q)));
		rc[i] = last_rsp_rc(t);
	}
	ck_assert_uint_ne(rc[0], 0);
	ck_assert_msg(rc[0] == rc[1] && rc[1] == rc[2],
		      "refusals tell JobID/pid/index apart: %u %u %u",
		      rc[0], rc[1], rc[2]);
	tgt_close(t);
}
END_TEST

/* ---- finding 11: spoofed SYN on a live PDC ---- */

START_TEST(test_spoofed_syn_no_reset)
{
	struct uet_ses_mr_attr a;
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5010);
	uint8_t ses[MTU], dg[MTU], big[8192];
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct uet_pds_stats st;
	uint64_t key;
	struct sreq q;

	/* A live PDC with a reply in flight (a READ being answered). */
	memset(&a, 0, sizeof(a));
	a.addr = big;
	a.len = sizeof(big);
	a.access = UET_SES_ACC_REMOTE_READ;
	ck_assert_int_eq(uet_ses_mr_reg(t->ses, &a, &key), 0);
	memset(&q, 0, sizeof(q));
	q.opcode = UET_READ;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.job = JOB;
	q.key = key;
	q.total = sizeof(big);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_ses(ses, &q)));
	ck_assert_uint_eq(pdcs_open(t), 1);
	/* Same source and SPDCID, another Start_PSN. */
	r.psn = 999999;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_write(ses, t->key, JOB, 8)));
	uet_pds_get_stats(t->pds, &st);
	ck_assert_msg(st.pdc_closed == 0, "a spoofed SYN reset a live PDC");
	ck_assert(region_untouched(t));
	tgt_close(t);
}
END_TEST

/* ---- finding 13: sprayed requests only from the peer's entropy ports ---- */

/* An established PDC's requests may come from the initiator's entropy
 * ports (its port + 1 .. + UET_LINK_ENT_SPAN), not from any port of its
 * IP address: another process of that host (another user) that learnt
 * the two PDCIDs must not write through it. */
/* The ports of a peer that may send on its PDC: with spraying off in the
 * job (cc_entropies 1, the default) its own port only (round 2, finding
 * 7: a local user binding P + k of the peer's host reached the PDC);
 * with spraying on, its entropy ports P + 1 .. P + UET_LINK_ENT_SPAN. */
static void spray_port_bound(uint32_t entropies)
{
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;
	struct tgt *t;
	struct uet_link_addr s = src_addr(5020);
	struct uet_link_addr far = src_addr(5020 + UET_LINK_ENT_SPAN + 1);
	struct uet_link_addr below = src_addr(5019);
	struct uet_link_addr ent = src_addr(5020 + UET_LINK_ENT_SPAN);
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	uint8_t ses[MTU], dg[MTU];
	struct uet_pds_stats st;
	struct uet_pds_ack ack;

	pds_cfg(&pc);
	pc.cc_entropies = entropies;
	ses_cfg(&sc);
	t = tgt_open_cfg(&pc, &sc);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				 mk_write(ses, t->key, JOB, 8)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
					    t->cap.last_len), 0);
	ck_assert(!region_untouched(t));
	memset(t->mem, 0xee, sizeof(t->mem));
	r.syn = false;
	r.dpdcid = ack.spdcid;
	r.psn = 11;
	inject(t, &far, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				   mk_write(ses, t->key, JOB, 8)));
	inject(t, &below, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				     mk_write(ses, t->key, JOB, 8)));
	uet_pds_get_stats(t->pds, &st);
	ck_assert_msg(region_untouched(t),
		      "a request from a port outside the peer's entropy "
		      "ports wrote through its PDC");
	ck_assert_uint_eq(st.unknown_pdc, 2);
	/* its last entropy port: accepted only when the job sprays */
	inject(t, &ent, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				   mk_write(ses, t->key, JOB, 8)));
	uet_pds_get_stats(t->pds, &st);
	if (entropies > 1) {
		ck_assert(!region_untouched(t));
		ck_assert_uint_eq(st.unknown_pdc, 2);
	} else {
		ck_assert_msg(region_untouched(t),
			      "an entropy port wrote with spraying off");
		ck_assert_uint_eq(st.unknown_pdc, 3);
	}
	tgt_close(t);
}

START_TEST(test_spray_port_bound)
{
	spray_port_bound(4);
}
END_TEST

START_TEST(test_spray_port_off)
{
	spray_port_bound(1);
}
END_TEST

/* ---- finding 12 and the memory bound: counters, one source ---- */

START_TEST(test_drop_counters)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5011);
	uint8_t ses[MTU], dg[MTU];
	struct req r = { .syn = true, .spdcid = 5, .psn = 10 };
	struct uet_pds_stats ps;
	struct uet_ses_stats ss;
	size_t n;

	n = mk_write(ses, t->key, JOB, 8);
	inject(t, &s, dg, mk_uud(dg, ses, n));
	n = mk_write(ses, t->key, JOB + 7, 8);
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	inject(t, &s, dg, 3);			/* truncated */
	uet_pds_get_stats(t->pds, &ps);
	uet_ses_get_stats(t->ses, &ss);
	ck_assert_uint_eq(ss.mode_refused, 1);
	ck_assert_uint_eq(ss.addr_refused, 1);
	ck_assert_uint_eq(ps.syn_refused, 1);
	ck_assert_uint_eq(ps.malformed, 1);
	tgt_close(t);
}
END_TEST

/*
 * The memory one unauthenticated source (no valid {JobID, pid, ri}) can
 * make the target hold: every kind of datagram, 20,000 of them, random
 * fields; documented bound (docs/software-nic.md): nothing but the
 * bounded, preallocated caches.  Measured with mallinfo2.
 */
/* 60,000 datagrams of an unauthenticated source (no JobID, key or PDC
 * of its own: refused requests of every kind, and Response-with-Data
 * syn requests for no READ), from one port or from rotating ports
 * (round 2, finding 4), with congestion management on: no PDC stays,
 * and the heap grows by less than 256 KiB. */
static void unauth_memory(bool rotate)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5012);
	uint8_t ses[MTU], dg[MTU], data[1024];
	struct req r;
	struct mallinfo2 a, b;
	struct sreq q;
	unsigned int i;
	size_t n;

	memset(data, 9, sizeof(data));
	a = mallinfo2();
	for (i = 0; i < 20000; i++) {
		if (rotate)
			s = src_addr((uint16_t)(20000 + i % 40000));
		memset(&q, 0, sizeof(q));
		q.opcode = (uint8_t[]){ UET_SEND, UET_WRITE, UET_READ,
					UET_ATOMIC }[i % 4];
		q.som = true;
		q.eom = i % 3 == 0;
		q.msg_id = (uint16_t)(1 + i);
		q.job = JOB + 1 + (uint32_t)(uet_test_rand64() % 1000);
		q.key = t->key;
		q.total = q.eom ? sizeof(data) : 64u << 20;
		q.data = data;
		q.plen = sizeof(data);
		n = mk_ses(ses, &q);
		memset(&r, 0, sizeof(r));
		r.type = i & 1 ? UET_PDS_TYPE_ROD_REQ : UET_PDS_TYPE_RUD_REQ;
		r.syn = true;
		r.spdcid = (uint16_t)(1 + i % 60000);
		r.psn = (uint32_t)uet_test_rand64();
		r.psn_offset = (uint16_t)(i % 8);
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
		inject(t, &s, dg, mk_uud(dg, ses, n));
		inject(t, &s, dg, mk_rudi(dg, i, ses, n));
		if (i % 8 == 0) {
			r.psn++;
			n = mk_rdata(ses, (uint16_t)(1 + i), JOB, 4096, 0, 1024,
				     7);
			inject(t, &s, dg, mk_req(dg, &r, UET_HDR_RESPONSE_DATA,
						 ses, n));
		}
	}
	b = mallinfo2();
	ck_assert_uint_eq(pdcs_open(t), 0);
	ck_assert_msg(b.uordblks - a.uordblks < 256u * 1024,
		      "unauthenticated source holds %zu bytes",
		      (size_t)(b.uordblks - a.uordblks));
	fprintf(stderr, "unauthenticated source%s: %zd bytes held after 60000 datagrams\n",
		rotate ? " (rotating ports)" : "",
		(ssize_t)(b.uordblks - a.uordblks));
	ck_assert(guards_intact(t));
	ck_assert(region_untouched(t));
	tgt_close(t);
}

START_TEST(test_unauthenticated_source_memory)
{
	unauth_memory(false);
}
END_TEST

START_TEST(test_unauthenticated_ports_memory)
{
	unauth_memory(true);
}
END_TEST

/* Round 2, finding 9: one source IP (8 ROD PDCs, 254 packets each
 * behind a missing PSN) takes at most its share of the hold pool; a
 * legitimate ROD PDC of another host still holds all of its 38
 * reordered packets. */
START_TEST(test_rod_hold_per_source)
{
	struct tgt *t = tgt_open();
	uint8_t ses[MTU], dg[MTU];
	struct uet_link_addr s = src_addr(5060), good;
	struct req r = { .type = UET_PDS_TYPE_ROD_REQ };
	struct uet_pds_stats a, b;
	struct uet_pds_ack ack;
	unsigned int p, i;
	size_t n;

	n = mk_write(ses, t->key, JOB, 8);
	for (p = 0; p < 8; p++) {
		r.syn = true;
		r.spdcid = (uint16_t)(10 + p);
		r.psn = 100;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
		ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
						t->cap.last_len), 0);
		r.syn = false;
		r.dpdcid = ack.spdcid;
		for (i = 0; i < 254; i++) {
			r.psn = 102 + i;
			inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD,
						 ses, n));
		}
	}
	uet_pds_get_stats(t->pds, &a);
	ck_assert_uint_le(a.ooo_held, 512);
	ck_assert_int_eq(uet_link_addr_from_str(&good, "127.0.0.3", 5061), 0);
	r.syn = true;
	r.spdcid = 99;
	r.psn = 500;
	inject(t, &good, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last, t->cap.last_len),
			 0);
	r.syn = false;
	r.dpdcid = ack.spdcid;
	for (i = 0; i < 38; i++) {
		r.psn = 502 + i;
		inject(t, &good, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					    n));
	}
	uet_pds_get_stats(t->pds, &b);
	ck_assert_uint_eq(b.ooo_held - a.ooo_held, 38);
	tgt_close(t);
}
END_TEST

/* ---- round 2 (issue 30), findings 1, 4 and 13: pull data ---- */

/* The READ the target sent last (a rendezvous pull): its PDS header and
 * SES header. */
static void find_read(const struct tgt *t, struct uet_pds_rud_rod_req *ph,
		      struct uet_ses_std_som1 *sh)
{
	uint64_t i;
	ssize_t n;

	for (i = t->cap.pkts; i-- > 0 && t->cap.pkts - i <= CAP_LOG;) {
		const uint8_t *d = t->cap.log[i % CAP_LOG];
		size_t len = t->cap.log_len[i % CAP_LOG];

		n = uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, ph, d, len);
		if (n < 0 || ph->next_hdr != UET_HDR_REQUEST_STD ||
		    uet_ses_std_som1_decode(UET_WIRE_UEPLUS, sh, d + n, len - (size_t)n) < 0 ||
		    sh->ctl.opcode != UET_READ)
			continue;
		return;
	}
	ck_abort_msg("no READ sent");
}

#define RDZV_TOTAL	8192u
#define RDZV_EAGER	1000u
#define RDZV_PULL	(RDZV_TOTAL - RDZV_EAGER)

/* A posted receive of RDZV_TOTAL bytes (0xcc) and a rendezvous send
 * from s matching it (eager bytes 0x11): the target pulls the rest with
 * one READ to s. */
static uint8_t *rdzv_start(struct tgt *t, const struct uet_link_addr *s,
			   struct uet_pds_rud_rod_req *rph,
			   struct uet_ses_std_som1 *rsh)
{
	uint8_t ses[MTU], dg[MTU], *buf;
	struct req r = { .syn = true, .spdcid = 21, .psn = 500 };
	struct uet_ses_rdzv_ext rx;
	struct uet_ses_recv_req rr;
	struct iovec iov;
	struct sreq q;
	size_t n;
	ssize_t x;

	buf = malloc(RDZV_TOTAL);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0xcc, RDZV_TOTAL);
	iov.iov_base = buf;
	iov.iov_len = RDZV_TOTAL;
	memset(&rr, 0, sizeof(rr));
	rr.ep = t->ep;
	rr.iov = &iov;
	rr.iovcnt = 1;
	ck_assert_int_eq(uet_ses_recv(t->ses, &rr, t->now), 0);
	memset(&q, 0, sizeof(q));
	q.opcode = UET_RENDEZVOUS_SEND;
	q.som = q.eom = true;
	q.msg_id = 1;
	q.job = JOB;
	q.total = RDZV_TOTAL;
	n = mk_ses(ses, &q);
	memset(&rx, 0, sizeof(rx));
	rx.eager_length = RDZV_EAGER;
	rx.memory_key = 0x1234;
	rx.buffer_offset = RDZV_EAGER;
	rx.remaining_length = RDZV_PULL;
	x = uet_ses_rdzv_ext_encode(UET_WIRE_UEPLUS, ses + n, MTU - n, &rx);
	ck_assert_int_gt(x, 0);
	n += (size_t)x;
	memset(ses + n, 0x11, RDZV_EAGER);
	n += RDZV_EAGER;
	inject(t, s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	tgt_run(t, MS, MS / 10);
	find_read(t, rph, rsh);
	ck_assert_uint_eq(rsh->request_length, RDZV_PULL);
	return buf;
}

/* Data for the READ on its own PDC, as the initiator sends it back (the
 * reverse direction: our PDCID is the READ's SPDCID). */
static void rdata_on_pdc(struct tgt *t, const struct uet_link_addr *s,
			 const struct uet_pds_rud_rod_req *rph,
			 const struct uet_ses_std_som1 *rsh, uint32_t psn,
			 uint32_t off, size_t len, uint8_t byte)
{
	uint8_t ses[MTU], dg[MTU];
	struct req r = { .spdcid = 77, .dpdcid = rph->spdcid };

	r.psn = psn;
	inject(t, s, dg,
	       mk_req(dg, &r, UET_HDR_RESPONSE_DATA, ses,
		      mk_rdata(ses, rsh->message_id, JOB, RDZV_PULL, off,
			       len, byte)));
}

static bool all_of(const uint8_t *p, size_t len, uint8_t byte)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != byte)
			return false;
	return true;
}

/* The genuine pull data on the READ's PDC, in two packets from its
 * Start_PSN on: the receive completes, every pulled byte 0x22. */
static void rdata_complete(struct tgt *t, const struct uet_link_addr *s,
			   const struct uet_pds_rud_rod_req *rph,
			   const struct uet_ses_std_som1 *rsh,
			   const uint8_t *buf)
{
	uint32_t base = rph->psn - rph->psn_offset;

	rdata_on_pdc(t, s, rph, rsh, base, 0, 3600, 0x22);
	rdata_on_pdc(t, s, rph, rsh, base + 1, 3600, RDZV_PULL - 3600, 0x22);
	tgt_run(t, MS, MS / 10);
	ck_assert_uint_eq(t->nrecv, 1);
	ck_assert_int_eq(t->rc.status, 0);
	ck_assert(all_of(buf + RDZV_EAGER, RDZV_PULL, 0x22));
}

static uint64_t ses_stat_rdata(const struct tgt *t)
{
	struct uet_ses_stats st;

	uet_ses_get_stats(t->ses, &st);
	return st.rdata_unmatched;
}

/* Finding 1: pull data needs the READ's PDC.  Forged replies over UUD
 * and RUDI, from the right address with the right READ id, place
 * nothing and are counted (finding 13). */
START_TEST(test_rdata_needs_read_pdc)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5020);
	struct uet_pds_rud_rod_req rph;
	struct uet_ses_std_som1 rsh;
	uint8_t ses[MTU], dg[MTU], *buf;
	size_t n;

	buf = rdzv_start(t, &s, &rph, &rsh);
	ck_assert(all_of(buf, RDZV_EAGER, 0x11));
	n = mk_rdata(ses, rsh.message_id, JOB, RDZV_PULL, 0, 2000, 0x66);
	inject(t, &s, dg, mk_uud_hdr(dg, UET_HDR_RESPONSE_DATA, ses, n));
	inject(t, &s, dg, mk_rudi_hdr(dg, UET_HDR_RESPONSE_DATA, 3, ses, n));
	ck_assert_msg(all_of(buf + RDZV_EAGER, RDZV_PULL, 0xcc),
		      "forged pull data placed in the receive buffer");
	ck_assert_uint_eq(ses_stat_rdata(t), 2);
	ck_assert_uint_eq(t->nrecv, 0);
	/* The genuine data on the READ's PDC completes it. */
	rdata_complete(t, &s, &rph, &rsh, buf);
	ck_assert(all_of(buf, RDZV_EAGER, 0x11));
	tgt_close(t);
	free(buf);
}
END_TEST

/* Finding 1: bytes are placed by offset, each once: a duplicate offset
 * does not count towards completion, and the receive completes only
 * when every byte arrived. */
START_TEST(test_rdata_duplicate_offset)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5021);
	struct uet_pds_rud_rod_req rph;
	struct uet_ses_std_som1 rsh;
	uint8_t *buf;
	uint32_t base;

	buf = rdzv_start(t, &s, &rph, &rsh);
	base = rph.psn - rph.psn_offset;
	rdata_on_pdc(t, &s, &rph, &rsh, base, 0, 1000, 0x22);
	rdata_on_pdc(t, &s, &rph, &rsh, base + 1, 0, 1000, 0x33);
	rdata_on_pdc(t, &s, &rph, &rsh, base + 2, 2000, 3000, 0x22);
	rdata_on_pdc(t, &s, &rph, &rsh, base + 3, 5000, RDZV_PULL - 5000,
		     0x22);
	tgt_run(t, MS, MS / 10);
	ck_assert_msg(t->nrecv == 0,
		      "receive completed with bytes 1000-1999 of the pull never written");
	ck_assert(all_of(buf + RDZV_EAGER, 1000, 0x22));
	rdata_on_pdc(t, &s, &rph, &rsh, base + 4, 1000, 1000, 0x22);
	tgt_run(t, MS, MS / 10);
	ck_assert_uint_eq(t->nrecv, 1);
	ck_assert_int_eq(t->rc.status, 0);
	ck_assert(all_of(buf + RDZV_EAGER, RDZV_PULL, 0x22));
	tgt_close(t);
	free(buf);
}
END_TEST

/* An ACK from the READ's peer to the target's (initiator) PDC. */
static void ack_read_pdc(struct tgt *t, const struct uet_link_addr *s,
			 const struct uet_pds_rud_rod_req *rph, uint32_t cack)
{
	struct uet_pds_ack ack;
	uint8_t dg[MTU];
	ssize_t n;

	memset(&ack, 0, sizeof(ack));
	ack.cack_psn = cack;
	ack.spdcid = 77;
	ack.dpdcid = rph->spdcid;
	n = uet_pds_ack_encode(UET_WIRE_UEPLUS, dg, MTU, &ack);
	ck_assert_int_gt(n, 0);
	inject(t, s, dg, (size_t)n);
}

/* Found by fuzz_rx with an initiator PDC (round 2): a cumulative PSN
 * 2^31 past the last one sent passed the "beyond anything sent" check
 * (the signed difference is INT32_MIN) and the cumulative walk then
 * ran 2^31 steps for one 12-byte ACK.  It is malformed now, and the
 * PDC goes on. */
START_TEST(test_ack_half_space)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5022);
	struct uet_pds_rud_rod_req rph;
	struct uet_ses_std_som1 rsh;
	struct uet_pds_stats a, b;
	uint32_t base;
	uint8_t *buf;

	buf = rdzv_start(t, &s, &rph, &rsh);
	base = rph.psn - rph.psn_offset;
	ack_read_pdc(t, &s, &rph, base);
	uet_pds_get_stats(t->pds, &a);
	ack_read_pdc(t, &s, &rph, base + 0x80000000u);
	uet_pds_get_stats(t->pds, &b);
	ck_assert_uint_eq(b.malformed - a.malformed, 1);
	rdata_complete(t, &s, &rph, &rsh, buf);
	tgt_close(t);
	free(buf);
}
END_TEST

/* Found with the fuzz_rx pull oracle (round 2): a PDC restart (the
 * peer answered the READ with NACK INV_DPDCID) renames the PDC and
 * sends the READ again; the data on the renamed PDC is the READ's. */
START_TEST(test_rdata_after_restart)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s = src_addr(5023);
	struct uet_pds_rud_rod_req rph, rph2;
	struct uet_ses_std_som1 rsh, rsh2;
	struct uet_pds_nack nk;
	uint8_t dg[MTU], *buf;
	ssize_t n;

	buf = rdzv_start(t, &s, &rph, &rsh);
	memset(&nk, 0, sizeof(nk));
	nk.nack_code = UET_NACK_INV_DPDCID;
	nk.nack_psn = rph.psn;
	nk.dpdcid = rph.spdcid;
	n = uet_pds_nack_encode(UET_WIRE_UEPLUS, dg, MTU, &nk);
	ck_assert_int_gt(n, 0);
	inject(t, &s, dg, (size_t)n);
	tgt_run(t, 100 * MS, MS);
	find_read(t, &rph2, &rsh2);
	ck_assert_uint_ne(rph2.spdcid, rph.spdcid);
	ck_assert_uint_eq(rsh2.message_id, rsh.message_id);
	rdata_complete(t, &s, &rph2, &rsh2, buf);
	tgt_close(t);
	free(buf);
}
END_TEST

/* Finding 4: a syn carrying a Response with Data for no READ of ours
 * opens no PDC, from any number of source ports. */
START_TEST(test_rdata_syn_opens_nothing)
{
	struct tgt *t = tgt_open();
	uint8_t ses[MTU], dg[MTU];
	struct uet_link_addr s;
	unsigned int i;
	struct req r;
	size_t n;

	n = mk_rdata(ses, 4242, JOB, 100, 0, 100, 0x66);
	for (i = 0; i < 200; i++) {
		s = src_addr((uint16_t)(6000 + i));
		memset(&r, 0, sizeof(r));
		r.syn = true;
		r.spdcid = (uint16_t)(1 + i);
		r.psn = (uint32_t)uet_test_rand64();
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_RESPONSE_DATA, ses,
					 n));
	}
	ck_assert_uint_eq(pdcs_open(t), 0);
	ck_assert_uint_eq(ses_stat_rdata(t), 200);
	tgt_close(t);
}
END_TEST

/* Finding 4: rotating source ports does not multiply what one host
 * holds: max_pdcs_per_ip PDCs for every port of an IP together, and
 * another host is still served. */
START_TEST(test_src_ports_rotated)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr s;
	uint8_t ses[MTU], dg[MTU];
	struct uet_pds_stats st;
	unsigned int i;
	struct req r;
	size_t n;

	n = mk_write(ses, t->key, JOB, 8);
	for (i = 0; i < 700; i++) {
		s = src_addr((uint16_t)(7000 + i));
		memset(&r, 0, sizeof(r));
		r.syn = true;
		r.spdcid = (uint16_t)(1 + i);
		r.psn = (uint32_t)uet_test_rand64();
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	}
	ck_assert_uint_eq(pdcs_open(t), 512);
	uet_pds_get_stats(t->pds, &st);
	ck_assert_uint_eq(st.src_limit, 700 - 512);
	ck_assert_int_eq(uet_link_addr_from_str(&s, "127.0.0.3", 7000), 0);
	memset(&r, 0, sizeof(r));
	r.syn = true;
	r.spdcid = 1;
	r.psn = 77;
	inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses, n));
	ck_assert_uint_eq(pdcs_open(t), 513);
	tgt_close(t);
}
END_TEST

/* ---- round 2, findings 5, 7 and 8: what an attacker must guess ---- */

/* Finding 5: the READ amplification fix bypassed blind.  The attacker
 * learns a PDCID with a probe of its own (a refused syn is answered
 * with an ACK naming the PDC it opened), spoofs a 16 MiB READ from the
 * victim, and spoofs the victim's ACKs for the PDCIDs that a counter
 * would give next, acknowledging the PSNs from its own Start_PSN on.
 * With unpredictable PDCIDs the reply never leaves its unverified
 * allowance. */
START_TEST(test_read_amplification_blind)
{
	struct tgt *t = tgt_open();
	struct uet_link_addr atk = src_addr(5050), vic = src_addr(5051);
	uint8_t ses[MTU], dg[MTU], *big;
	struct req r = { .syn = true, .spdcid = 8, .psn = 3 };
	struct uet_pds_ack ack;
	uint64_t key, before;
	uint16_t probe_id, g;
	unsigned int round;
	ssize_t n;

	big = big_region(t, &key);
	/* The probe: a WRITE of another job, refused. */
	inject(t, &atk, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				   mk_write(ses, t->key, JOB + 1, 8)));
	ck_assert_int_gt(ack_decode_any(&ack, t->cap.last, t->cap.last_len),
			 0);
	probe_id = ack.spdcid;
	r.spdcid = 9;
	r.psn = 1000;
	before = t->cap.bytes;
	inject(t, &vic, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
				   mk_big_read(ses, key)));
	for (round = 0; round < 300; round++) {
		for (g = 1; g <= 16; g++) {
			memset(&ack, 0, sizeof(ack));
			ack.cack_psn = 1000 + round;
			ack.spdcid = 9;
			ack.dpdcid = (uint16_t)(probe_id + g);
			if (!ack.dpdcid)
				continue;
			n = uet_pds_ack_encode(UET_WIRE_UEPLUS, dg, MTU, &ack);
			ck_assert_int_gt(n, 0);
			inject(t, &vic, dg, (size_t)n);
		}
		tgt_run(t, MS, MS);
	}
	ck_assert_msg(t->cap.bytes - before < 128u * 1024,
		      "%llu bytes sent to the victim",
		      (unsigned long long)(t->cap.bytes - before));
	tgt_close(t);
	free(big);
}
END_TEST

/* The inverse of uet_hash_mix64 (the splitmix64 finalizer), with which
 * the old rendezvous keys could be run back to their counter. */
static uint64_t unmix64(uint64_t x)
{
	x ^= x >> 31 ^ x >> 62;
	x *= 0x319642b2d24d8ec3ull;
	x ^= x >> 27 ^ x >> 54;
	x *= 0x96de1b173f119089ull;
	x ^= x >> 30 ^ x >> 60;
	return x;
}

START_TEST(test_unmix64_inverts)
{
	uint64_t x = 0x0123456789abcdefull;

	ck_assert_uint_eq(unmix64(uet_hash_mix64(x)), x);
	ck_assert_uint_eq(unmix64(uet_hash_mix64(1)), 1);
}
END_TEST

/* PDCIDs (named in the ACK of each syn) are not a counter: of 16 PDCs
 * opened in a row, at most a couple are consecutive, so one seen gives
 * no other.  The CSPRNG path: no fixed seed. */
START_TEST(test_pdcids_unpredictable)
{
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;
	struct tgt *t;
	struct uet_link_addr s = src_addr(5030);
	uint8_t ses[MTU], dg[MTU];
	struct uet_pds_ack ack;
	uint16_t id[16];
	unsigned int i, runs = 0;
	struct req r;

	pds_cfg(&pc);
	pc.seed = 0;
	ses_cfg(&sc);
	t = tgt_open_cfg(&pc, &sc);
	for (i = 0; i < 16; i++) {
		memset(&r, 0, sizeof(r));
		r.syn = true;
		r.spdcid = (uint16_t)(100 + i);
		r.psn = 1000 * i;
		inject(t, &s, dg, mk_req(dg, &r, UET_HDR_REQUEST_STD, ses,
					 mk_write(ses, t->key, JOB, 8)));
		ck_assert_int_gt(ack_decode_any(&ack, t->cap.last,
						    t->cap.last_len), 0);
		id[i] = ack.spdcid;
		if (i && (uint16_t)(id[i] - id[i - 1]) == 1)
			runs++;
	}
	ck_assert_msg(runs <= 2, "%u of 15 PDCIDs follow the one before", runs);
	tgt_close(t);
}
END_TEST

/* Rendezvous memory keys on the wire are neither a counter nor a
 * counter run through the (invertible) finalizer. */
START_TEST(test_rdzv_keys_unpredictable)
{
	struct tgt *t = tgt_open();
	struct uet_pds_rud_rod_req ph;
	struct uet_ses_std_som1 sh;
	struct uet_ses_rdzv_ext rx;
	struct uet_ses_send_req q;
	struct iovec iov;
	uint64_t key[8];
	uint8_t *big;
	unsigned int i, k;
	ssize_t n;

	big = calloc(1, 1u << 20);
	ck_assert_ptr_nonnull(big);
	iov.iov_base = big;
	iov.iov_len = 1u << 20;
	for (i = 0; i < 8; i++) {
		memset(&q, 0, sizeof(q));
		q.ep = t->ep;
		q.dst.fa = src_addr((uint16_t)(5040 + i));
		q.dst.job_id = JOB;
		q.iov = &iov;
		q.iovcnt = 1;
		ck_assert_int_ge(uet_ses_send(t->ses, &q, t->now), 0);
		tgt_run(t, MS, MS / 10);
		n = uet_pds_rud_rod_req_decode(UET_WIRE_UEPLUS, &ph, t->cap.last,
					       t->cap.last_len);
		ck_assert_int_gt(n, 0);
		ck_assert_int_gt(uet_ses_std_som1_decode(UET_WIRE_UEPLUS, &sh, t->cap.last + n,
							 t->cap.last_len -
							 (size_t)n), 0);
		ck_assert_uint_eq(sh.ctl.opcode, UET_RENDEZVOUS_SEND);
		ck_assert_int_gt(uet_ses_rdzv_ext_decode(UET_WIRE_UEPLUS, &rx,
				 t->cap.last + n + UET_SES_STD_SOM1_LEN,
				 t->cap.last_len - (size_t)n -
				 UET_SES_STD_SOM1_LEN), 0);
		key[i] = rx.memory_key;
	}
	for (i = 1; i < 8; i++)
		for (k = 0; k < i; k++) {
			ck_assert_uint_ne(key[i] - key[k], i - k);
			ck_assert_uint_ne(unmix64(key[i]) - unmix64(key[k]),
					  i - k);
		}
	tgt_close(t);
	free(big);
}
END_TEST

static Suite *snic_hostile_suite(void)
{
	Suite *s = suite_create("snic_hostile");
	TCase *tc = tcase_create("findings");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rma_over_uud_refused);
	tcase_add_test(tc, test_uud_send_into_rdm_refused);
	tcase_add_test(tc, test_replay_after_close);
	tcase_add_test(tc, test_replay_edited_offset);
	tcase_add_test(tc, test_syn_flood_wrong_job);
	tcase_add_test(tc, test_syn_per_source_limit);
	tcase_add_test(tc, test_unexp_budget_not_pinned);
	tcase_add_test(tc, test_first_packet_timed_from_arrival);
	tcase_add_test(tc, test_write_records_bounded);
	tcase_add_test(tc, test_rod_hold_bounded);
	tcase_add_test(tc, test_keys_do_not_repeat);
	tcase_add_test(tc, test_read_amplification);
	tcase_add_test(tc, test_duplicate_offset_not_counted);
	tcase_add_test(tc, test_duplicate_write_offset);
	tcase_add_test(tc, test_uniform_refusal);
	tcase_add_test(tc, test_spoofed_syn_no_reset);
	tcase_add_test(tc, test_spray_port_bound);
	tcase_add_test(tc, test_spray_port_off);
	tcase_add_test(tc, test_drop_counters);
	tcase_add_test(tc, test_unauthenticated_source_memory);
	tcase_add_test(tc, test_unauthenticated_ports_memory);
	tcase_add_test(tc, test_rod_hold_per_source);
	tcase_add_test(tc, test_rdata_needs_read_pdc);
	tcase_add_test(tc, test_rdata_duplicate_offset);
	tcase_add_test(tc, test_rdata_syn_opens_nothing);
	tcase_add_test(tc, test_ack_half_space);
	tcase_add_test(tc, test_rdata_after_restart);
	tcase_add_test(tc, test_src_ports_rotated);
	tcase_add_test(tc, test_read_amplification_blind);
	tcase_add_test(tc, test_unmix64_inverts);
	tcase_add_test(tc, test_pdcids_unpredictable);
	tcase_add_test(tc, test_rdzv_keys_unpredictable);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_hostile_suite)
