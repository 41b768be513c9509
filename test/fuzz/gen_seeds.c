/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Seed corpora for the fuzzers (run by scripts/fuzz-seeds.sh):
 *   gen_seeds DIR   writes DIR/wire/, DIR/hsi/ and DIR/rx/.
 * Valid packets of every kind, built with the wire encoders: PDS request
 * (RUD, ROD, syn and not), RUDI, UUD, ACK, NACK, control packets; SES
 * small and standard sends (SOM=1, SOM=0), WRITE (one and several
 * packets, read-only and stale keys), READ, ATOMIC, FETCHING_ATOMIC, for
 * both JobIDs of the fuzz_rx target (whose memory keys it learns by
 * building the same target: fuzz_rx_target.h, fixed key seed); and the
 * pull path: the genuine Response with Data for the target's READ (on
 * its PDC, learnt the same way; with congestion management on and off),
 * in two halves (also from the peer's entropy ports), overlapping, and
 * forged over UUD, RUDI, a syn request and from another host.  Each pull
 * seed is run once against a fresh target: the genuine ones must
 * complete the pull receive with their bytes, the overlapping one place
 * its first half only, the forged ones leave it untouched (else exit 1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_rx_target.h"
#include "uet_hsi_formats.h"
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_wire_consts.h"

static const char *outdir;
static unsigned int nfiles;

/* Writes DIR/sub/name; an rx seed starts with its configuration byte
 * (0: congestion management on). */
static void put_cfg(const char *sub, const char *name, uint8_t cfg,
		    const uint8_t *b, size_t n)
{
	bool rx = strcmp(sub, "rx") == 0;
	bool wire = strcmp(sub, "wire") == 0;
	bool ue = fz_wp == UET_WIRE_UE && (rx || wire);
	char path[512];
	FILE *fp;

	/* seeds of the UE 1.0.1 profile: "ue_" names; rx: the config bit,
	 * wire: bit 7 of the selector (fuzz_wire.c) */
	if (rx && ue)
		cfg |= FZ_CFG_WIRE_UE;
	snprintf(path, sizeof(path), "%s/%s/%s%s", outdir, sub,
		 ue ? "ue_" : "", name);
	fp = fopen(path, "wb");
	if (!fp || (rx && fputc(cfg, fp) == EOF) ||
	    (wire && n && fputc(b[0] | (ue ? 0x80 : 0), fp) == EOF) ||
	    fwrite(b + (wire && n), 1, n - (wire && n), fp) !=
	    n - (wire && n)) {
		perror(path);
		exit(1);
	}
	fclose(fp);
	nfiles++;
}

static void put(const char *sub, const char *name, const uint8_t *b,
		size_t n)
{
	put_cfg(sub, name, 0, b, n);
}

/* ---- datagrams ---- */

static size_t pds_req(uint8_t *b, uint8_t type, bool syn, uint16_t spdcid,
		      uint16_t dpdcid, uint32_t psn, uint8_t nh)
{
	struct uet_pds_rud_rod_req h;

	memset(&h, 0, sizeof(h));
	h.type = type;
	h.next_hdr = nh;
	h.syn = syn;
	h.ar = true;
	h.psn = psn;
	h.spdcid = spdcid;
	h.dpdcid = syn ? 0 : dpdcid;
	h.psn_offset = syn ? (uint16_t)(psn - 1000) : 0;
	return (size_t)uet_pds_rud_rod_req_encode(fz_wp, b, MTU, &h);
}

static size_t ses_std(uint8_t *b, uint8_t op, bool som, bool eom,
		      uint32_t job, uint64_t key, uint32_t total,
		      uint32_t moff, size_t plen)
{
	struct uet_ses_std_som1 h1;
	struct uet_ses_std_som0 h0;
	ssize_t n;

	if (som) {
		memset(&h1, 0, sizeof(h1));
		h1.ctl.opcode = op;
		h1.ctl.som = true;
		h1.ctl.eom = eom;
		h1.message_id = 1;
		h1.ri_generation = UET_SES_MKEY_GEN(key);
		h1.job_id = job;
		h1.match_bits = key;
		h1.request_length = total;
		n = uet_ses_std_som1_encode(fz_wp, b, MTU, &h1);
	} else {
		memset(&h0, 0, sizeof(h0));
		h0.ctl.opcode = op;
		h0.ctl.eom = eom;
		h0.message_id = 1;
		h0.ri_generation = UET_SES_MKEY_GEN(key);
		h0.job_id = job;
		h0.match_bits = key;
		h0.buffer_offset = moff;
		h0.payload_length = (uint16_t)plen;
		h0.message_offset = moff;
		h0.request_length = total;
		n = uet_ses_std_som0_encode(fz_wp, b, MTU, &h0);
	}
	if (n < 0)
		exit(2);
	memset(b + n, 0x42, plen);
	return (size_t)n + plen;
}

static size_t ses_amo(uint8_t *b, uint8_t op, uint32_t job, uint64_t key)
{
	struct uet_ses_atomic_ext ax;
	size_t n = ses_std(b, op, true, true, job, key, 8, 0, 0);
	ssize_t x;

	memset(&ax, 0, sizeof(ax));
	ax.atomic_opcode = UET_AMO_SUM;
	ax.atomic_datatype = UET_AMO_UINT64;
	x = uet_ses_atomic_ext_encode(fz_wp, b + n, MTU - n, &ax);
	if (x < 0)
		exit(2);
	n += (size_t)x;
	memset(b + n, 1, 8);
	return n + 8;
}

static size_t ses_small(uint8_t *b, uint32_t job, size_t plen)
{
	struct uet_ses_small_msg h;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	h.ctl.opcode = UET_SEND;
	h.ctl.som = h.ctl.eom = true;
	h.request_length = (uint16_t)plen;
	h.job_id = job;
	n = uet_ses_small_msg_encode(fz_wp, b, MTU, &h);
	if (n < 0)
		exit(2);
	memset(b + n, 0x24, plen);
	return (size_t)n + plen;
}

/* One fuzz_rx record: ctl, length, datagram. */
static size_t rec(uint8_t *out, uint8_t ctl, const uint8_t *dg, size_t n)
{
	out[0] = ctl;
	out[1] = (uint8_t)(n >> 8);
	out[2] = (uint8_t)n;
	memcpy(out + 3, dg, n);
	return n + 3;
}

/* A syn request carrying ses: a one-record rx seed and wire seeds. */
static size_t syn_with(uint8_t *dg, uint8_t type, uint8_t nh,
		       const uint8_t *ses, size_t n, uint32_t psn)
{
	size_t h = pds_req(dg, type, true, 33, 0, psn, nh);

	memcpy(dg + h, ses, n);
	return h + n;
}

static void rx_seeds(const struct fz *f)
{
	uint8_t ses[MTU], dg[MTU], s[3 * MTU], wire[MTU + 1];
	struct uet_pds_rudi ri;
	struct uet_pds_uud_req uu;
	struct uet_pds_ack ack;
	struct uet_pds_nack nk;
	struct uet_pds_cp cp;
	size_t n, d, k;
	char name[64];
	unsigned int i;
	struct {
		const char *name;
		uint8_t op;
		unsigned int reg;
		uint32_t job;
	} w[] = {
		{ "write_job1", UET_WRITE, 0, 1 },
		{ "write_job2", UET_WRITE, 1, 2 },
		{ "write_cross", UET_WRITE, 1, 1 },
		{ "write_ro", UET_WRITE, 2, 1 },
		{ "write_stale", UET_WRITE, 3, 1 },
		{ "read_job1", UET_READ, 0, 1 },
		{ "read_ro", UET_READ, 2, 1 },
	};

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		n = ses_std(ses, w[i].op, true, true, w[i].job,
			    f->key[w[i].reg], w[i].op == UET_READ ? 64 : 32,
			    0, w[i].op == UET_READ ? 0 : 32);
		d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_STD,
			     ses, n, 1000);
		put("rx", w[i].name, s, rec(s, 0, dg, d));
		wire[0] = 3;
		memcpy(wire + 1, dg, d);
		snprintf(name, sizeof(name), "pds_req_%u", i);
		put("wire", name, wire, d + 1);
		wire[0] = 15;
		memcpy(wire + 1, ses, n);
		snprintf(name, sizeof(name), "ses_som1_%u", i);
		put("wire", name, wire, n + 1);
	}
	/* atomics */
	n = ses_amo(ses, UET_ATOMIC, 1, f->key[0]);
	d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_STD, ses, n,
		     1000);
	put("rx", "atomic_job1", s, rec(s, 0, dg, d));
	n = ses_amo(ses, UET_FETCHING_ATOMIC, 2, f->key[1]);
	d = syn_with(dg, UET_PDS_TYPE_ROD_REQ, UET_HDR_REQUEST_STD, ses, n,
		     1000);
	put("rx", "fetch_job2_rod", s, rec(s, 0, dg, d));
	wire[0] = 22;
	memcpy(wire + 1, ses + UET_SES_STD_SOM1_LEN, 8);
	put("wire", "atomic_ext", wire, 9);
	/* a multi-packet write and a multi-packet send, then time */
	k = 0;
	n = ses_std(ses, UET_WRITE, true, false, 1, f->key[0], 200, 0, 100);
	d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_STD, ses, n,
		     1000);
	k += rec(s + k, 0, dg, d);
	n = ses_std(ses, UET_WRITE, false, true, 1, f->key[0], 200, 100, 100);
	d = pds_req(dg, UET_PDS_TYPE_RUD_REQ, true, 33, 0, 1001,
		    UET_HDR_REQUEST_STD);
	memcpy(dg + d, ses, n);
	k += rec(s + k, 0, dg, d + n);
	k += rec(s + k, 0x18, dg, d + n);	/* again, after time */
	put("rx", "write_two_packets", s, k);
	wire[0] = 16;
	memcpy(wire + 1, ses, n);
	put("wire", "ses_som0", wire, n + 1);
	k = 0;
	n = ses_std(ses, UET_SEND, true, false, 2, 0, 3000, 0, 1500);
	d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_STD, ses, n,
		     1000);
	k += rec(s + k, 1, dg, d);
	n = ses_std(ses, UET_SEND, false, true, 2, 0, 3000, 1500, 1500);
	d = pds_req(dg, UET_PDS_TYPE_RUD_REQ, true, 33, 0, 1001,
		    UET_HDR_REQUEST_STD);
	memcpy(dg + d, ses, n);
	k += rec(s + k, 1, dg, d + n);
	put("rx", "send_two_packets_job2", s, k);
	/* small sends: RUD syn, UUD, RUDI */
	n = ses_small(ses, 1, 40);
	d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_MEDIUM, ses, n,
		     1000);
	put("rx", "small_job1", s, rec(s, 2, dg, d));
	wire[0] = 17;
	memcpy(wire + 1, ses, n);
	put("wire", "ses_small", wire, n + 1);
	memset(&uu, 0, sizeof(uu));
	uu.next_hdr = UET_HDR_REQUEST_MEDIUM;
	uu.pkt_id = 5;
	d = (size_t)uet_pds_uud_req_encode(fz_wp, dg, MTU, &uu);
	memcpy(dg + d, ses, n);
	put("rx", "uud_small", s, rec(s, 3, dg, d + n));
	wire[0] = 6;
	memcpy(wire + 1, dg, d + n);
	put("wire", "uud", wire, d + n + 1);
	memset(&ri, 0, sizeof(ri));
	ri.type = UET_PDS_TYPE_RUDI_REQ;
	ri.next_hdr = UET_HDR_REQUEST_MEDIUM;
	ri.pkt_id = 9;
	d = (size_t)uet_pds_rudi_encode(fz_wp, dg, MTU, &ri);
	memcpy(dg + d, ses, n);
	put("rx", "rudi_small", s, rec(s, 4, dg, d + n));
	wire[0] = 5;
	memcpy(wire + 1, dg, d + n);
	put("wire", "rudi", wire, d + n + 1);
	/* control: ACK, NACK, CP (after a syn so a PDC exists) */
	n = ses_std(ses, UET_WRITE, true, true, 1, f->key[0], 8, 0, 8);
	d = syn_with(dg, UET_PDS_TYPE_RUD_REQ, UET_HDR_REQUEST_STD, ses, n,
		     1000);
	k = rec(s, 0, dg, d);
	memset(&cp, 0, sizeof(cp));
	cp.ctl_type = UET_CTL_CLOSE_COMMAND;
	cp.psn = 1001;
	cp.spdcid = 33;
	cp.dpdcid = 1;
	d = (size_t)uet_pds_cp_encode(fz_wp, dg, MTU, &cp);
	k += rec(s + k, 0, dg, d);
	k += rec(s + k, 0x28, s + 3, s[2] | (size_t)s[1] << 8);	/* replay */
	put("rx", "close_and_replay", s, k);
	wire[0] = 12;
	memcpy(wire + 1, dg, d);
	put("wire", "cp", wire, d + 1);
	memset(&ack, 0, sizeof(ack));
	ack.cack_psn = 1000;
	ack.spdcid = 33;
	ack.dpdcid = 1;
	d = (size_t)uet_pds_ack_encode(fz_wp, dg, MTU, &ack);
	put("rx", "ack", s, rec(s, 0, dg, d));
	wire[0] = 7;
	memcpy(wire + 1, dg, d);
	put("wire", "ack", wire, d + 1);
	memset(&nk, 0, sizeof(nk));
	nk.nack_code = UET_NACK_NO_PKT_BUF;
	nk.nack_psn = 1000;
	nk.spdcid = 33;
	nk.dpdcid = 1;
	d = (size_t)uet_pds_nack_encode(fz_wp, dg, MTU, &nk);
	put("rx", "nack", s, rec(s, 0, dg, d));
	wire[0] = 10;
	memcpy(wire + 1, dg, d);
	put("wire", "nack", wire, d + 1);
}

/* ---- the pull path ---- */

#define PULL_HALF	(PULL_LEN / 2)
#define RDATA_BYTE	0x99u

/* A Response with Data for the target's READ (relative id 1) at off,
 * plen bytes, behind a PDS header of `type`: RUD (syn or not: spdcid,
 * dpdcid, psn), RUDI or UUD. */
static size_t pull_rdata(uint8_t *b, uint8_t type, bool syn, uint16_t spdcid,
			 uint16_t dpdcid, uint32_t psn, uint32_t off,
			 uint32_t plen)
{
	struct uet_ses_rsp_data r;
	struct uet_pds_uud_req uu;
	struct uet_pds_rudi ri;
	ssize_t n, m;

	if (type == UET_PDS_TYPE_UUD_REQ) {
		memset(&uu, 0, sizeof(uu));
		uu.next_hdr = UET_HDR_RESPONSE_DATA;
		uu.pkt_id = psn;
		n = uet_pds_uud_req_encode(fz_wp, b, MTU, &uu);
	} else if (type == UET_PDS_TYPE_RUDI_REQ) {
		memset(&ri, 0, sizeof(ri));
		ri.type = type;
		ri.next_hdr = UET_HDR_RESPONSE_DATA;
		ri.pkt_id = psn;
		n = uet_pds_rudi_encode(fz_wp, b, MTU, &ri);
	} else {
		n = (ssize_t)pds_req(b, type, syn, spdcid, dpdcid, psn,
				     UET_HDR_RESPONSE_DATA);
	}
	memset(&r, 0, sizeof(r));
	r.ctl.list = UET_LIST_EXPECTED;
	r.ctl.opcode = UET_RESPONSE_W_DATA;
	r.ctl.version = UET_SES_VERSION;
	r.ctl.return_code = UET_RC_OK;
	r.job_id = fz_job[0];
	r.read_request_message_id = 1;
	r.payload_length = (uint16_t)plen;
	r.modified_length = PULL_LEN;
	r.message_offset = off;
	m = n < 0 ? -1 : uet_ses_rsp_data_encode(fz_wp, b + n, MTU - (size_t)n, &r);
	if (m < 0)
		exit(2);
	memset(b + n + m, RDATA_BYTE, plen);
	return (size_t)(n + m) + plen;
}

/* The peer's ACK of the READ (its PDCID for the READ's PDC: 78). */
static size_t pull_ack(uint8_t *b, uint16_t rd_pdcid)
{
	struct uet_pds_ack ack;

	memset(&ack, 0, sizeof(ack));
	ack.cack_psn = 1000;
	ack.spdcid = FZ_PEER_PDCID + 1;
	ack.dpdcid = rd_pdcid;
	return (size_t)uet_pds_ack_encode(fz_wp, b, MTU, &ack);
}

enum pull_outcome { PULL_UNTOUCHED, PULL_PARTIAL, PULL_DONE };

static const char *const pull_outcome_name[] = {
	"untouched", "partly placed, pending", "completed"
};

/* Run seed s (without its configuration byte) against a fresh target:
 * what became of the pull receive. */
static enum pull_outcome pull_try(bool cc, const uint8_t *s, size_t n)
{
	struct fz *f = malloc(sizeof(*f));
	bool untouched = true, placed = true;
	enum pull_outcome o;
	unsigned int k;

	if (!f || !fz_setup(f, cc, fz_wp))
		exit(1);
	fz_run(f, s, n);
	for (k = PULL_EAGER; k < PULL_EAGER + PULL_LEN; k++) {
		untouched &= f->pbuf[GUARD + k] == POISON_BYTE;
		placed &= f->pbuf[GUARD + k] == RDATA_BYTE;
	}
	if (f->pull_done == 1 && f->pull_status == 0 && placed)
		o = PULL_DONE;
	else if (!f->pull_done && untouched)
		o = PULL_UNTOUCHED;
	else if (!f->pull_done)
		o = PULL_PARTIAL;
	else
		o = (enum pull_outcome)-1;
	uet_ses_destroy(f->ses);
	uet_pds_destroy(f->pds);
	free(f);
	return o;
}

static void pull_put(bool cc, const char *name, const uint8_t *s, size_t n,
		     enum pull_outcome want)
{
	enum pull_outcome o = pull_try(cc, s, n);

	if (o != want) {
		fprintf(stderr,
			"gen_seeds: %s: the pull receive is %s, not %s\n",
			name, o <= PULL_DONE ? pull_outcome_name[o] : "failed",
			pull_outcome_name[want]);
		exit(1);
	}
	put_cfg("rx", name, cc ? 0 : FZ_CFG_CC_OFF, s, n);
}

/* A pull seed: the peer's ACK of the READ (from source ack_ctl, or
 * none), then the two halves of the data. */
struct pull_pkt {
	uint8_t type;		/* RUD, RUDI or UUD request */
	bool syn;
	uint8_t ctl;		/* source */
	uint32_t off;
};

struct pull_seed {
	const char *name;
	int ack_ctl;		/* -1: no ACK */
	struct pull_pkt pkt[2];
	enum pull_outcome want;
};

#define RUD	UET_PDS_TYPE_RUD_REQ

static const struct pull_seed pull_table[] = {
	/* genuine: on the READ's PDC (first, also with NSCC off) */
	{ "pull_genuine", 0,
	  { { RUD, false, 0, 0 }, { RUD, false, 0, PULL_HALF } }, PULL_DONE },
	/* the second half at offset 0 again: not placed twice */
	{ "pull_overlap", 0,
	  { { RUD, false, 0, 0 }, { RUD, false, 0, 0 } }, PULL_PARTIAL },
	/* from the peer's address, without its PDC */
	{ "pull_uud_rudi", -1,
	  { { UET_PDS_TYPE_UUD_REQ, false, 0, 0 },
	    { UET_PDS_TYPE_RUDI_REQ, false, 0, PULL_HALF } }, PULL_UNTOUCHED },
	{ "pull_syn", -1,
	  { { RUD, true, 0, 0 }, { RUD, true, 0, PULL_HALF } },
	  PULL_UNTOUCHED },
	/* from the peer's entropy ports with spraying off (E-18, issue 30
	 * finding 7): refused */
	{ "pull_entropy_ports", 0,
	  { { RUD, false, 1, 0 }, { RUD, false, 2, PULL_HALF } },
	  PULL_UNTOUCHED },
	/* the genuine sequence from another host (::1) */
	{ "pull_other_source", 4,
	  { { RUD, false, 4, 0 }, { RUD, false, 4, PULL_HALF } },
	  PULL_UNTOUCHED },
};

static void pull_seeds(bool cc)
{
	uint8_t dg[MTU], s[4 * MTU];
	const struct pull_seed *ps;
	const struct pull_pkt *pp;
	unsigned int i, j, n;
	char name[64];
	uint16_t pdc;
	size_t k, d;
	struct fz *f = malloc(sizeof(*f));

	if (!f || !fz_setup(f, cc, fz_wp))
		exit(1);
	pdc = f->link.rd_pdcid[0];
	uet_ses_destroy(f->ses);
	uet_pds_destroy(f->pds);
	free(f);

	n = cc ? sizeof(pull_table) / sizeof(pull_table[0]) : 1;
	for (i = 0; i < n; i++) {
		ps = &pull_table[i];
		k = ps->ack_ctl < 0 ? 0 :
			rec(s, (uint8_t)ps->ack_ctl, dg, pull_ack(dg, pdc));
		for (j = 0; j < 2; j++) {
			pp = &ps->pkt[j];
			d = pull_rdata(dg, pp->type, pp->syn,
				       pp->syn ? 99 : FZ_PEER_PDCID + 1, pdc,
				       1000 + j, pp->off, PULL_HALF);
			k += rec(s + k, pp->ctl, dg, d);
		}
		snprintf(name, sizeof(name), "%s%s", ps->name,
			 cc ? "" : "_cc_off");
		pull_put(cc, name, s, k, ps->want);
	}
}

static void hsi_seeds(void)
{
	uint8_t b[1 + 16 * 64];

	memset(b, 0, sizeof(b));
	b[0] = 0;
	b[1] = 1;
	put("hsi", "cmdq", b, sizeof(b));
	b[0] = 1;
	put("hsi", "notifq", b, 1 + 7 * 64);
	b[0] = 2;
	put("hsi", "decoders", b, 65);
}

int main(int argc, char **argv)
{
	static const char *const sub[] = { "wire", "hsi", "rx" };
	char path[512];
	struct fz *f;
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	mkdir(outdir, 0755);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, sub[i]);
		mkdir(path, 0755);
	}
	/* the receive seeds in each wire profile (fz_setup sets fz_wp) */
	for (i = 0; i < UET_WIRE_NPROF; i++) {
		f = malloc(sizeof(*f));
		if (!f || !fz_setup(f, true, (enum uet_wire_prof)i))
			return 1;
		rx_seeds(f);
		pull_seeds(true);
		pull_seeds(false);
		uet_ses_destroy(f->ses);
		uet_pds_destroy(f->pds);
		free(f);
	}
	hsi_seeds();
	printf("gen_seeds: %u seeds in %s\n", nfiles, outdir);
	return 0;
}
