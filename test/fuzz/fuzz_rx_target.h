/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The target of fuzz_rx.c, shared with gen_seeds.c (which needs the same
 * memory keys and PDC to write valid seeds): one PDS + SES on a link that
 * drops what it sends, two endpoints in two JobIDs with a receive posted
 * each, four registered regions (read-write for each JobID's endpoint,
 * read-only, deregistered), every buffer between guard bytes; congestion
 * management (NSCC) on as the NIC runs by default, or off.
 *
 * The pull path: a tagged receive on the JobID 1 endpoint has matched a
 * rendezvous send from FZ_PEER (eager bytes placed) and its one UET_READ
 * is outstanding.  The link records that READ (its PDC, id, length) as
 * it goes out.  fz_run() feeds an input and checks, after every
 * datagram, that the pull buffer holds nothing a genuine reply could not
 * have written: a byte changes only if a datagram from FZ_PEER (its own
 * port: spraying is off, as by default, so its entropy ports are
 * refused, conformance E-18) on the READ's PDC
 * (RUD/ROD request, not syn, DPDCID one the READ went out under) with
 * a Response with Data for the READ covered it, and the receive
 * completes with status 0 only once every pulled byte was so covered.
 */
#ifndef FUZZ_RX_TARGET_H
#define FUZZ_RX_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_pds.h"
#include "uet_pds_wire.h"
#include "uet_ses.h"
#include "uet_ses_wire.h"
#include "uet_wire_consts.h"

#define MTU		4096u
#define SEC		1000000000ull
#define REG		256u
#define GUARD		64u
#define GUARD_BYTE	0xa5u
#define NREG		4u		/* rw job 1, rw job 2, ro, stale */
#define RBUF		2048u
#define PBUF		2048u		/* the pull receive */
#define PULL_EAGER	32u		/* the rendezvous send: eager bytes */
#define PULL_LEN	1536u		/* and the rest, one READ */
#define PULL_TAG	0x70756c6cull
#define PULL_MKEY	0x1122334455667788ull
#define EAGER_BYTE	0x3cu
#define POISON_BYTE	0x5au
#define FZ_PEER		"127.0.0.2"	/* fuzz_rx's source 0 */
#define FZ_PEER_PORT	5000u
#define FZ_PEER_PDCID	77u		/* the peer's PDCID in seeds */
/* The input's first byte: configuration bits. */
#define FZ_CFG_CC_OFF	0x01u
#define FZ_CFG_WIRE_UE	0x02u	/* the NIC speaks UE 1.0.1 (else UE+) */

/* The wire profile of this run's NIC (fz_setup), which the oracle's own
 * packets are built in too. */
static enum uet_wire_prof fz_wp;
/* PDCIDs the READ may go out on (a restart gives its PDC a new one). */
#define FZ_RD_PDCIDS	16u

struct fz_link {
	struct uet_link link;
	struct uet_link_addr self;
	/* The first UET_READ sent: its id and length, and every PDCID
	 * (SPDCID) it went out under, in order; past FZ_RD_PDCIDS of them
	 * (rd_pdcids_full) any PDCID counts as the READ's. */
	uint16_t rd_id;
	uint32_t rd_len;
	uint16_t rd_pdcid[FZ_RD_PDCIDS];
	unsigned int rd_npdcid;
	bool rd_pdcids_full;
};

static bool fz_rd_pdcid(const struct fz_link *fl, uint16_t id)
{
	unsigned int i;

	if (fl->rd_pdcids_full)
		return true;
	for (i = 0; i < fl->rd_npdcid; i++)
		if (fl->rd_pdcid[i] == id)
			return true;
	return false;
}

/* The PDS header of a RUD/ROD request (with or without CC state):
 * its length, or -1 for anything else. */
static ssize_t fz_req_decode(struct uet_pds_rud_rod_req *h,
			     const uint8_t *b, size_t n)
{
	struct uet_pds_rud_rod_cc_req c;
	ssize_t r;

	switch (uet_pds_peek_type(b, n)) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		r = uet_pds_rud_rod_req_decode(fz_wp, h, b, n);
		return r < 0 ? -1 : r;
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		r = uet_pds_rud_rod_cc_req_decode(fz_wp, &c, b, n);
		*h = c.req;
		return r < 0 ? -1 : r;
	default:
		return -1;
	}
}

/* Record the first UET_READ going out, and the PDCIDs it goes out
 * under; drop everything. */
static int fz_send(struct uet_link *l, const struct uet_link_pkt *p,
		   unsigned int n)
{
	struct fz_link *fl = (struct fz_link *)l;
	struct uet_pds_rud_rod_req h;
	struct uet_ses_std_som1 s;
	uint8_t b[MTU];
	unsigned int i, k;
	size_t len, c;
	ssize_t hl;

	for (i = 0; i < n; i++) {
		len = 0;
		for (k = 0; k < p[i].iovcnt; k++) {
			c = p[i].iov[k].iov_len;
			if (c > sizeof(b) - len)
				c = sizeof(b) - len;
			memcpy(b + len, p[i].iov[k].iov_base, c);
			len += c;
		}
		hl = fz_req_decode(&h, b, len);
		if (hl < 0 || h.next_hdr != UET_HDR_REQUEST_STD ||
		    uet_ses_std_som1_decode(fz_wp, &s, b + hl, len - (size_t)hl) < 0 ||
		    s.ctl.opcode != UET_READ ||
		    (fl->rd_id && s.message_id != fl->rd_id))
			continue;
		if (!fl->rd_id) {
			fl->rd_id = s.message_id;
			fl->rd_len = s.request_length;
		}
		if (fz_rd_pdcid(fl, h.spdcid))
			continue;
		if (fl->rd_npdcid == FZ_RD_PDCIDS)
			fl->rd_pdcids_full = true;
		else
			fl->rd_pdcid[fl->rd_npdcid++] = h.spdcid;
	}
	return (int)n;
}

static int fz_recv(struct uet_link *l, struct uet_link_rx *rx, unsigned int n)
{
	(void)l;
	(void)rx;
	(void)n;
	return 0;
}

static int fz_fd(struct uet_link *l)
{
	(void)l;
	return -1;
}

static size_t fz_mtu(struct uet_link *l)
{
	(void)l;
	return MTU;
}

static int fz_local(struct uet_link *l, struct uet_link_addr *a)
{
	*a = ((struct fz_link *)l)->self;
	return 0;
}

static void fz_close(struct uet_link *l)
{
	(void)l;
}

static const struct uet_link_ops fz_ops = {
	.send = fz_send, .recv = fz_recv, .fd = fz_fd, .mtu = fz_mtu,
	.local_addr = fz_local, .close = fz_close,
};

struct fz {
	struct fz_link link;
	struct uet_pds *pds;
	struct uet_ses *ses;
	struct uet_ses_ep *ep[2];
	uint8_t reg[NREG][GUARD + REG + GUARD];
	uint8_t rbuf[2][GUARD + RBUF + GUARD];
	uint64_t key[NREG];
	/* the pull receive, and which of its pulled bytes a datagram on
	 * the READ's PDC covered */
	uint8_t pbuf[GUARD + PBUF + GUARD];
	bool covered[PULL_LEN];
	struct uet_link_addr peer;
	unsigned int pull_done;
	int pull_status;
};

static const uint32_t fz_job[2] = { 1, 2 };

static void fz_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	(void)ctx;
	(void)c;
}

static void fz_pull_done(struct fz *f, const struct uet_ses_recv_cmpl *c)
{
	unsigned int k;

	if (f->pull_done++)
		abort();		/* completed twice */
	f->pull_status = c->status;
	if (c->status)
		return;
	if (c->len != PULL_EAGER + PULL_LEN)
		abort();
	for (k = 0; k < PULL_LEN; k++)
		if (!f->covered[k])
			abort();	/* completed with bytes not pulled */
}

static void fz_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	uintptr_t which = (uintptr_t)c->op_ctx;

	if (which == 3) {
		fz_pull_done(ctx, c);
		return;
	}
	if (which != 1 && which != 2)
		abort();
	if (c->status == 0 && c->len + c->olen != 0 &&
	    c->src.job_id != fz_job[which - 1])
		abort();		/* a message crossed JobIDs */
	if (c->len > RBUF)
		abort();
}

static void fz_rma_event(void *ctx, const struct uet_ses_rma_event *e)
{
	uintptr_t which = (uintptr_t)e->ep_user;

	(void)ctx;
	if ((which != 1 && which != 2) ||
	    e->src.job_id != fz_job[which - 1])
		abort();		/* an access crossed JobIDs */
}

static const struct uet_ses_upcalls fz_up = {
	.send_done = fz_send_done,
	.recv_done = fz_recv_done,
	.rma_event = fz_rma_event,
};

/* The rendezvous send from FZ_PEER to the pull receive, as the RUD syn
 * request that opens the peer's PDC. */
static size_t fz_rdzv_send(uint8_t *b, size_t max)
{
	struct uet_pds_rud_rod_req h;
	struct uet_ses_std_som1 s;
	struct uet_ses_rdzv_ext x;
	ssize_t n, m, e;

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_RUD_REQ;
	h.next_hdr = UET_HDR_REQUEST_STD;
	h.syn = true;
	h.ar = true;
	h.psn = 5000;
	h.spdcid = FZ_PEER_PDCID;
	memset(&s, 0, sizeof(s));
	s.ctl.opcode = UET_RENDEZVOUS_TSEND;
	s.ctl.version = UET_SES_VERSION;
	s.ctl.som = true;
	s.ctl.eom = true;
	s.message_id = 1;
	s.job_id = fz_job[0];
	s.match_bits = PULL_TAG;
	s.request_length = PULL_EAGER + PULL_LEN;
	memset(&x, 0, sizeof(x));
	x.eager_length = PULL_EAGER;
	x.memory_key = PULL_MKEY;
	x.buffer_offset = PULL_EAGER;
	x.remaining_length = PULL_LEN;
	n = uet_pds_rud_rod_req_encode(fz_wp, b, max, &h);
	if (n < 0)
		return 0;
	m = uet_ses_std_som1_encode(fz_wp, b + n, max - (size_t)n, &s);
	if (m < 0)
		return 0;
	e = uet_ses_rdzv_ext_encode(fz_wp, b + n + m, max - (size_t)(n + m), &x);
	if (e < 0 || (size_t)(n + m + e) + PULL_EAGER > max)
		return 0;
	memset(b + n + m + e, EAGER_BYTE, PULL_EAGER);
	return (size_t)(n + m + e) + PULL_EAGER;
}

/* Post a receive of len bytes at buf on ep, tagged when tag != 0;
 * op_ctx is which (1, 2: the untagged ones, 3: the pull). */
static bool fz_post(struct fz *f, struct uet_ses_ep *ep, uint8_t *buf,
		    size_t len, uint64_t tag, uintptr_t which)
{
	struct uet_ses_recv_req rr;
	struct iovec iov;

	memset(&rr, 0, sizeof(rr));
	iov.iov_base = buf;
	iov.iov_len = len;
	rr.ep = ep;
	rr.tagged = tag != 0;
	rr.tag = tag;
	rr.iov = &iov;
	rr.iovcnt = 1;
	rr.op_ctx = (void *)which;
	return uet_ses_recv(f->ses, &rr, 0) == 0;
}

/* Post the pull receive and let the rendezvous send match it: its READ
 * goes out (fz_send records it). */
static bool fz_setup_pull(struct fz *f)
{
	uint8_t dg[MTU];
	size_t n;

	memset(f->pbuf, GUARD_BYTE, sizeof(f->pbuf));
	memset(f->pbuf + GUARD, POISON_BYTE, PBUF);
	if (!fz_post(f, f->ep[0], f->pbuf + GUARD, PBUF, PULL_TAG, 3))
		return false;
	if (uet_link_addr_from_str(&f->peer, FZ_PEER, FZ_PEER_PORT))
		return false;
	n = fz_rdzv_send(dg, sizeof(dg));
	if (!n)
		return false;
	uet_pds_rx(f->pds, dg, n, &f->peer, SEC);
	uet_ses_progress(f->ses, SEC);
	return f->link.rd_id && f->link.rd_len == PULL_LEN;
}

static bool fz_setup(struct fz *f, bool cc, enum uet_wire_prof wp)
{
	static const uint32_t access[NREG] = {
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
		UET_SES_ACC_REMOTE_READ,
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
	};
	struct uet_ses_mr_attr a;
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;
	unsigned int i;

	memset(f, 0, sizeof(*f));
	memset(f->reg, GUARD_BYTE, sizeof(f->reg));
	memset(f->rbuf, GUARD_BYTE, sizeof(f->rbuf));
	f->link.link.ops = &fz_ops;
	if (uet_link_addr_from_str(&f->link.self, "127.0.0.1", 4793))
		return false;
	fz_wp = wp;
	uet_pds_cfg_default(&pc);
	pc.wire = (uint8_t)wp;
	pc.seed = 7;
	pc.fixed_start_psn = true;
	pc.start_psn = 1000;
	if (cc) {
		/* as the NIC (uet_snic_env.c): NSCC, 20 us base RTT */
		pc.cc = UET_PDS_CC_NSCC;
		pc.cc_base_rtt_ns = 20000;
	}
	uet_ses_cfg_default(&sc);
	sc.wire = (uint8_t)wp;
	sc.mtu = MTU;
	sc.key_seed = 7;
	if (uet_pds_create(&f->pds, &pc, &f->link.link, NULL, NULL))
		return false;
	if (uet_ses_create(&f->ses, &sc, f->pds, &fz_up, f))
		return false;
	for (i = 0; i < 2; i++) {
		if (uet_ses_ep_open(f->ses, fz_job[i], 0, 0, &f->ep[i]))
			return false;
		uet_ses_ep_set_user(f->ep[i], (void *)(uintptr_t)(i + 1));
		if (!fz_post(f, f->ep[i], f->rbuf[i] + GUARD, RBUF, 0, i + 1))
			return false;
	}
	for (i = 0; i < NREG; i++) {
		memset(&a, 0, sizeof(a));
		a.addr = f->reg[i] + GUARD;
		a.len = REG;
		a.access = access[i];
		if (uet_ses_mr_reg(f->ses, &a, &f->key[i]))
			return false;
	}
	/* The last one goes: its key is stale from now on. */
	if (uet_ses_mr_dereg(f->ses, f->key[NREG - 1]))
		return false;
	return fz_setup_pull(f);
}

static void fz_check(const struct fz *f)
{
	unsigned int i, k;

	for (i = 0; i < NREG; i++) {
		for (k = 0; k < GUARD; k++)
			if (f->reg[i][k] != GUARD_BYTE ||
			    f->reg[i][GUARD + REG + k] != GUARD_BYTE)
				abort();	/* outside a region */
		if (i >= 2)
			for (k = 0; k < REG; k++)
				if (f->reg[i][GUARD + k] != GUARD_BYTE)
					abort();	/* ro / stale written */
	}
	for (i = 0; i < 2; i++)
		for (k = 0; k < GUARD; k++)
			if (f->rbuf[i][k] != GUARD_BYTE ||
			    f->rbuf[i][GUARD + RBUF + k] != GUARD_BYTE)
				abort();	/* outside a receive */
	for (k = 0; k < GUARD; k++)
		if (f->pbuf[k] != GUARD_BYTE ||
		    f->pbuf[GUARD + PBUF + k] != GUARD_BYTE)
			abort();	/* outside the pull receive */
	for (k = 0; k < PBUF; k++) {
		uint8_t v = f->pbuf[GUARD + k];

		if (k < PULL_EAGER) {
			if (v != EAGER_BYTE)
				abort();	/* eager bytes rewritten */
		} else if (k >= PULL_EAGER + PULL_LEN) {
			if (v != POISON_BYTE)
				abort();	/* past the message */
		} else if (v != POISON_BYTE && !f->covered[k - PULL_EAGER]) {
			abort();	/* written, not by the READ's PDC */
		}
	}
}

static bool fz_is_req(int type)
{
	return type == UET_PDS_TYPE_RUD_REQ || type == UET_PDS_TYPE_ROD_REQ ||
	       type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ ||
	       type == UET_PDS_TYPE_RUDI_REQ || type == UET_PDS_TYPE_UUD_REQ;
}

/*
 * Before dg goes in: READ ids in Response with Data are relative to the
 * outstanding READ (whose id the CSPRNG drew): the field is XORed with
 * rd_id ^ 1, so that 1 in an input names that READ in every run.  Then,
 * if dg is a Response with Data for it from FZ_PEER on its PDC, the bytes
 * it covers are marked: those are the only ones a datagram may write.
 */
static void fz_rdata(struct fz *f, uint8_t *dg, size_t len,
		     const struct uet_link_addr *src)
{
	struct uet_pds_rud_rod_req h;
	struct uet_pds_prologue p;
	struct uet_ses_rsp_data r;
	ssize_t hl, n;
	uint8_t *id;
	size_t plen;

	hl = uet_pds_hdr_len(fz_wp, dg, len);
	if (hl < 0 || uet_pds_prologue_decode(&p, dg, len) < 0 ||
	    !fz_is_req(p.type) || p.next_hdr != UET_HDR_RESPONSE_DATA ||
	    len < (size_t)hl + UET_SES_RSP_DATA_LEN)
		return;
	id = dg + hl + 8;	/* read_request_message_id */
	uet_put_be16(id, (uint16_t)(uet_get_be16(id) ^ f->link.rd_id ^ 1u));
	if (!uet_link_addr_eq(&f->peer, src) ||
	    fz_req_decode(&h, dg, len) != hl || h.syn ||
	    !fz_rd_pdcid(&f->link, h.dpdcid))
		return;
	n = uet_ses_rsp_data_decode(fz_wp, &r, dg + hl, len - (size_t)hl);
	if (n < 0 || r.read_request_message_id != f->link.rd_id)
		return;
	plen = len - (size_t)hl - (size_t)n;
	if (plen != r.payload_length || r.message_offset > PULL_LEN ||
	    plen > PULL_LEN - r.message_offset)
		return;
	memset(f->covered + r.message_offset, 1, plen);
}

/*
 * Feed one input: records [ctl: 1 byte][len: 2 bytes, big-endian][len
 * bytes of datagram] handed to uet_pds_rx() from one of 8 source
 * addresses (ctl & 7; 0 is FZ_PEER); ctl bit 3 first lets 0.1-25.5 s
 * pass (timers of both layers), by the top nibble.  The oracle runs
 * after each; 60 s pass at the end.
 */
static void fz_run(struct fz *f, const uint8_t *data, size_t size)
{
	struct uet_link_addr src[8];
	uint64_t now = SEC;
	size_t off = 0, len;
	unsigned int i;
	uint8_t *dg;
	uint8_t ctl;

	for (i = 0; i < 8; i++)
		if (uet_link_addr_from_str(&src[i], i & 4 ? "::1" : FZ_PEER,
					   (uint16_t)(FZ_PEER_PORT + i)))
			abort();
	while (off + 3 <= size) {
		ctl = data[off];
		len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = size - off;
		if (ctl & 8) {
			now += (uint64_t)((ctl >> 4) + 1) * 100000000ull *
			       ((ctl >> 4) == 15 ? 17 : 1);
			uet_pds_timer(f->pds, now);
			uet_ses_progress(f->ses, now);
		}
		/* An exact heap copy: ASan sees any overread. */
		dg = malloc(len ? len : 1);
		if (!dg)
			break;
		memcpy(dg, data + off, len);
		fz_rdata(f, dg, len, &src[ctl & 7]);
		uet_pds_rx(f->pds, dg, len, &src[ctl & 7], now);
		uet_ses_progress(f->ses, now);
		free(dg);
		off += len;
		fz_check(f);
	}
	now += 60 * SEC;
	uet_pds_timer(f->pds, now);
	uet_ses_progress(f->ses, now);
	fz_check(f);
}

#endif /* FUZZ_RX_TARGET_H */
