/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Seed corpora for the fuzzers (run by scripts/fuzz-seeds.sh):
 *   gen_seeds DIR   writes DIR/wire/, DIR/hsi/ and DIR/rx/.
 * Valid packets of every kind, built with the wire encoders: PDS request
 * (RUD, ROD, syn and not), RUDI, UUD, ACK, NACK, control packets; SES
 * small and standard sends (SOM=1, SOM=0), WRITE (one and several
 * packets, read-only and stale keys), READ, ATOMIC, FETCHING_ATOMIC, for
 * both JobIDs of the fuzz_rx target (whose memory keys it learns by
 * building the same target: fuzz_rx_target.h, fixed key seed).
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

static void put(const char *sub, const char *name, const uint8_t *b,
		size_t n)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s/%s", outdir, sub, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(b, 1, n, fp) != n) {
		perror(path);
		exit(1);
	}
	fclose(fp);
	nfiles++;
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
	return (size_t)uet_pds_rud_rod_req_encode(b, MTU, &h);
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
		n = uet_ses_std_som1_encode(b, MTU, &h1);
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
		n = uet_ses_std_som0_encode(b, MTU, &h0);
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
	x = uet_ses_atomic_ext_encode(b + n, MTU - n, &ax);
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
	n = uet_ses_small_msg_encode(b, MTU, &h);
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
	d = (size_t)uet_pds_uud_req_encode(dg, MTU, &uu);
	memcpy(dg + d, ses, n);
	put("rx", "uud_small", s, rec(s, 3, dg, d + n));
	wire[0] = 6;
	memcpy(wire + 1, dg, d + n);
	put("wire", "uud", wire, d + n + 1);
	memset(&ri, 0, sizeof(ri));
	ri.type = UET_PDS_TYPE_RUDI_REQ;
	ri.next_hdr = UET_HDR_REQUEST_MEDIUM;
	ri.pkt_id = 9;
	d = (size_t)uet_pds_rudi_encode(dg, MTU, &ri);
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
	d = (size_t)uet_pds_cp_encode(dg, MTU, &cp);
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
	d = (size_t)uet_pds_ack_encode(dg, MTU, &ack);
	put("rx", "ack", s, rec(s, 0, dg, d));
	wire[0] = 7;
	memcpy(wire + 1, dg, d);
	put("wire", "ack", wire, d + 1);
	memset(&nk, 0, sizeof(nk));
	nk.nack_code = UET_NACK_NO_PKT_BUF;
	nk.nack_psn = 1000;
	nk.spdcid = 33;
	nk.dpdcid = 1;
	d = (size_t)uet_pds_nack_encode(dg, MTU, &nk);
	put("rx", "nack", s, rec(s, 0, dg, d));
	wire[0] = 10;
	memcpy(wire + 1, dg, d);
	put("wire", "nack", wire, d + 1);
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
	f = malloc(sizeof(*f));
	if (!f || !fz_setup(f))
		return 1;
	rx_seeds(f);
	hsi_seeds();
	uet_ses_destroy(f->ses);
	uet_pds_destroy(f->pds);
	free(f);
	printf("gen_seeds: %u seeds in %s\n", nfiles, outdir);
	return 0;
}
