/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS (snic/uet_tss.h): known-answer vectors for AES-256-GCM (the GCM
 * specification's test cases 13, 14 and 16, also in NIST's gcmEncrypt
 * vectors) and HKDF-SHA256 (RFC 5869 case 1), the packet layout against a
 * vector computed with Python's hmac and cryptography modules, tampering,
 * wrong key / JobID / context, replay inside and outside the window,
 * rekey before wrap, the modes, MTU accounting, the key file, two NICs
 * with and without the key, and GSO runs over UDP on 127.0.0.1.  Issue
 * 30, finding 2: a datagram for B refused at C and at a restarted B, mode
 * on dropping plaintext from a peer that spoke TSS, a fork()ed child
 * sealing under its own SCI, and the first-contact round trip.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "snic_harness.h"
#include "uet_byteorder.h"
#include "uet_clock.h"
#include "uet_link_mem.h"
#include "uet_link_udp.h"
#include "uet_snic.h"
#include "uet_test.h"
#include "uet_tss.h"
#include "uet_tss_internal.h"
#include "uet_tss_wire.h"

static void unhex(const char *h, uint8_t *out, size_t n)
{
	size_t i;
	unsigned int v;

	ck_assert_uint_eq(strlen(h), 2 * n);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sscanf(h + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* ---- AES-256-GCM known answers ---- */

struct gcm_kat {
	const char *key, *iv, *pt, *aad, *ct, *tag;
};

static const struct gcm_kat gcm_kats[] = {
	{	/* GCM spec test case 13 (AES-256): empty */
		"0000000000000000000000000000000000000000000000000000000000000000",
		"000000000000000000000000", "", "", "",
		"530f8afbc74536b9a963b4f1c4cb738b" },
	{	/* test case 14: one zero block */
		"0000000000000000000000000000000000000000000000000000000000000000",
		"000000000000000000000000",
		"00000000000000000000000000000000", "",
		"cea7403d4d606b6e074ec5d3baf39d18",
		"d0d1c8a799996bf0265b98b5d48ab919" },
	{	/* test case 16: 60 bytes, 20 bytes of AAD */
		"feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
		"cafebabefacedbaddecaf888",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
		"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
		"8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
		"76fc6ece0f4e1768cddf8853bb2d551b" },
};

START_TEST(test_gcm_kat)
{
	const struct gcm_kat *k = &gcm_kats[_i];
	uint8_t key[32], iv[12], pt[64], aad[32], ct[64], tag[16];
	uint8_t out[64], otag[16], back[64];
	size_t plen = strlen(k->pt) / 2, alen = strlen(k->aad) / 2;
	struct uet_tss_aead enc, dec;
	struct iovec iov[3];
	size_t a = plen / 3, b = plen / 2;

	unhex(k->key, key, 32);
	unhex(k->iv, iv, 12);
	unhex(k->pt, pt, plen);
	unhex(k->aad, aad, alen);
	unhex(k->ct, ct, plen);
	unhex(k->tag, tag, 16);
	ck_assert_int_eq(uet_tss_aead_init(&enc, key, 1), 0);
	ck_assert_int_eq(uet_tss_aead_init(&dec, key, 0), 0);
	/* The plaintext in three pieces of odd lengths (gathered). */
	iov[0] = (struct iovec){ pt, a };
	iov[1] = (struct iovec){ pt + a, b - a };
	iov[2] = (struct iovec){ pt + b, plen - b };
	ck_assert_int_eq(uet_tss_aead_seal(&enc, iv, aad, alen, iov, 3, out,
					   otag), 0);
	ck_assert_mem_eq(out, ct, plen);
	ck_assert_mem_eq(otag, tag, 16);
	ck_assert_int_eq(uet_tss_aead_open(&dec, iv, aad, alen, ct, plen, back,
					   tag), 0);
	ck_assert_mem_eq(back, pt, plen);
	/* Any flipped tag, ciphertext or AAD bit fails. */
	tag[15] ^= 1;
	ck_assert_int_eq(uet_tss_aead_open(&dec, iv, aad, alen, ct, plen, back,
					   tag), -EBADMSG);
	tag[15] ^= 1;
	if (plen) {
		ct[0] ^= 0x80;
		ck_assert_int_eq(uet_tss_aead_open(&dec, iv, aad, alen, ct,
						   plen, back, tag), -EBADMSG);
		ct[0] ^= 0x80;
	}
	if (alen) {
		aad[alen - 1] ^= 1;
		ck_assert_int_eq(uet_tss_aead_open(&dec, iv, aad, alen, ct,
						   plen, back, tag), -EBADMSG);
	}
	uet_tss_aead_fini(&enc);
	uet_tss_aead_fini(&dec);
}
END_TEST

START_TEST(test_hkdf_kat)
{
	/* RFC 5869 A.1 */
	uint8_t ikm[22], salt[13], info[10], okm[42], want[42];
	size_t i;

	memset(ikm, 0x0b, sizeof(ikm));
	for (i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)i;
	for (i = 0; i < sizeof(info); i++)
		info[i] = (uint8_t)(0xf0 + i);
	unhex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
	      "34007208d5b887185865", want, 42);
	ck_assert_int_eq(uet_tss_hkdf(ikm, sizeof(ikm), salt, sizeof(salt),
				      info, sizeof(info), okm, sizeof(okm)), 0);
	ck_assert_mem_eq(okm, want, 42);
}
END_TEST

/* ---- two links on the in-memory fabric ---- */

#define PORT_A	4793
#define PORT_B	4794
#define JOB	0x1234u
#define SCI_A	0x01020304u
#define SCI_B	0x0a0b0c0du
#define PORT_C	4795

struct pair {
	struct uet_link_mem_fabric *fab;
	struct uet_link *ia, *ib;	/* the in-memory links */
	struct uet_link *a, *b;		/* TSS on them (b may be NULL) */
	struct uet_link_addr addr_a, addr_b;
};

static void tss_cfg_init(struct uet_tss_cfg *c, uint8_t mode, uint8_t fill)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->mode = mode;
	c->job_id = JOB;
	for (i = 0; i < UET_TSS_SECRET_LEN; i++)
		c->secret[i] = (uint8_t)(i + fill);
}

static struct uet_tss_stats stats_of(struct uet_link *l);

/* Tell each of two TSS links the other's SCI (no announcement round
 * trip). */
static void introduce(struct uet_link *a, const struct uet_link_addr *addr_a,
		      struct uet_link *b, const struct uet_link_addr *addr_b)
{
	ck_assert_int_eq(uet_tss_link_learn_peer(a, addr_b,
						 stats_of(b).tx_sci), 0);
	ck_assert_int_eq(uet_tss_link_learn_peer(b, addr_a,
						 stats_of(a).tx_sci), 0);
}

/* a: TSS with ca on PORT_A; b: TSS with cb (NULL: plain) on PORT_B;
 * with introduce, two TSS links know each other's SCI. */
static void pair_open(struct pair *p, const struct uet_tss_cfg *ca,
		      const struct uet_tss_cfg *cb, bool introduce_them)
{
	memset(p, 0, sizeof(*p));
	ck_assert_int_eq(uet_link_mem_fabric_create(&p->fab, 1, 9000), 0);
	ck_assert_int_eq(uet_link_mem_open(p->fab, PORT_A, &p->ia), 0);
	ck_assert_int_eq(uet_link_mem_open(p->fab, PORT_B, &p->ib), 0);
	ck_assert_int_eq(uet_tss_link_open(ca, p->ia, false, &p->a), 0);
	if (cb)
		ck_assert_int_eq(uet_tss_link_open(cb, p->ib, false, &p->b),
				 0);
	ck_assert_int_eq(p->ia->ops->local_addr(p->ia, &p->addr_a), 0);
	ck_assert_int_eq(p->ib->ops->local_addr(p->ib, &p->addr_b), 0);
	if (p->b && introduce_them)
		introduce(p->a, &p->addr_a, p->b, &p->addr_b);
}

static void pair_up(struct pair *p, const struct uet_tss_cfg *ca,
		    const struct uet_tss_cfg *cb)
{
	pair_open(p, ca, cb, true);
}

static void pair_down(struct pair *p)
{
	if (p->b)
		p->b->ops->close(p->b);
	p->a->ops->close(p->a);
	p->ib->ops->close(p->ib);
	p->ia->ops->close(p->ia);
	uet_link_mem_fabric_destroy(p->fab);
}

static int link_send(struct uet_link *l, const struct uet_link_addr *dst,
		     const void *buf, size_t len)
{
	struct uet_link_pkt pkt = {
		.dst = dst, .iovcnt = 1,
		.iov[0] = { .iov_base = (void *)buf, .iov_len = len },
	};

	return l->ops->send(l, &pkt, 1);
}

/* Send pt through a, take what the fabric carries at ib (raw). */
static size_t capture(struct pair *p, const void *pt, size_t len,
		      uint8_t *wire, size_t cap)
{
	struct uet_link_rx rx;

	ck_assert_int_eq(link_send(p->a, &p->addr_b, pt, len), 1);
	ck_assert_int_eq(p->ib->ops->recv(p->ib, &rx, 1), 1);
	ck_assert_uint_le(rx.len, cap);
	memcpy(wire, rx.buf, rx.len);
	return rx.len;
}

/* Put wire on the fabric from a's address; b's recv: datagrams returned,
 * the first one copied to out. */
static int inject(struct pair *p, const void *wire, size_t len, void *out,
		  size_t *olen)
{
	struct uet_link_rx rx[4];
	int n;

	ck_assert_int_eq(link_send(p->ia, &p->addr_b, wire, len), 1);
	n = p->b->ops->recv(p->b, rx, 4);
	if (n > 0 && out) {
		memcpy(out, rx[0].buf, rx[0].len);
		*olen = rx[0].len;
	}
	return n;
}

static struct uet_tss_stats stats_of(struct uet_link *l)
{
	struct uet_tss_stats st;

	ck_assert_int_eq(uet_tss_link_get_stats(l, &st), 0);
	return st;
}

static const char kat_pt[] = "UET TSS known-answer payload 0123456789";
/* An unprotected datagram (prologue of type RUD). */
static const uint8_t tss_plain[] = { 0x10, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9,
				     10, 11, 12 };

/* Computed independently (Python hmac + cryptography's AESGCM) for secret
 * 00..1f, JobID 0x1234, SCI 0x01020304, sequence 1, source 127.0.0.1:4793,
 * destination 127.0.0.1:4794 whose SCI (the DCI) is 0x0a0b0c0d: the key
 * is HKDF-SHA256(salt "UET-TSS-v1", info "uet tss packet key" || JobID ||
 * SCI || 01 12b9 7f000001 00*12), the associated data bytes 0-17 then
 * 01 12ba 7f000001 00*12 (the destination, not sent). */
static const uint8_t kat_key[32] = {
	0x80, 0x05, 0x78, 0x84, 0x1f, 0x1c, 0x62, 0x42, 0xf4, 0xc2, 0xa6,
	0x23, 0x29, 0xff, 0x9a, 0x22, 0x3e, 0x0c, 0x78, 0xe2, 0xdd, 0xea,
	0xc0, 0xe4, 0xdc, 0xae, 0x81, 0xdc, 0xfc, 0xcd, 0x5d, 0xbd,
};
static const uint8_t kat_wire[] = {
	0x08, 0x00, 0x11, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x0a, 0x0b, 0x0c, 0x0d, 0xd6, 0xdd, 0x4e, 0xa3,
	0xbd, 0xc3, 0x65, 0xbd, 0xad, 0x92, 0x8e, 0x59, 0xc5, 0x68, 0xf4,
	0xd7, 0x91, 0x5b, 0xcc, 0x7f, 0x71, 0xb5, 0x90, 0x80, 0xb4, 0x33,
	0xfd, 0x10, 0x4b, 0x72, 0xc9, 0xdc, 0x7d, 0xec, 0x30, 0x19, 0x2d,
	0x14, 0xba, 0x51, 0x12, 0x19, 0xa9, 0xed, 0x53, 0x65, 0x0d, 0x2d,
	0x28, 0x64, 0xe9, 0xbe, 0xe4, 0x27, 0x10,
};

START_TEST(test_layout_vector)
{
	uint8_t addr[UET_TSS_ADDR_LEN], key[32], wire[256], out[256];
	struct uet_tss_cfg ca, cb;
	struct uet_tss_stats st;
	struct pair p;
	size_t len, olen;

	tss_cfg_init(&ca, UET_TSS_REQUIRED, 0);
	ca.sci = SCI_A;
	cb = ca;
	cb.sci = SCI_B;
	pair_up(&p, &ca, &cb);
	ck_assert_int_eq(uet_tss_addr_bytes(&p.addr_a, addr), 0);
	ck_assert_int_eq(uet_tss_derive_key(ca.secret, JOB, SCI_A, addr, key),
			 0);
	ck_assert_mem_eq(key, kat_key, 32);

	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	ck_assert_uint_eq(len, strlen(kat_pt) + UET_TSS_OVERHEAD);
	ck_assert_uint_eq(len, sizeof(kat_wire));
	ck_assert_mem_eq(wire, kat_wire, len);
	/* The receiver opens it. */
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	ck_assert_uint_eq(olen, strlen(kat_pt));
	ck_assert_mem_eq(out, kat_pt, olen);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.rx_pkts, 1);
	ck_assert_uint_eq(st.ctx_new, 1);
	st = stats_of(p.a);
	ck_assert_uint_eq(st.tx_pkts, 1);
	ck_assert_uint_eq(st.tx_sci, SCI_A);
	ck_assert_uint_eq(st.tx_seq, 2);
	pair_down(&p);
}
END_TEST

/* Flip one bit at each offset of a protected datagram: never delivered;
 * the cause is malformed for the prologue's reserved bits and the TSS
 * type/flags/reserved bytes, authentication for everything else. */
START_TEST(test_tamper)
{
	uint8_t wire[256], bad[256], out[256];
	struct uet_tss_cfg c;
	struct uet_tss_stats st;
	uint64_t want[UET_TSS_DROP_N] = { 0 };
	struct pair p;
	size_t len, olen, i;
	unsigned int k;
	int bit, cause;

	tss_cfg_init(&c, UET_TSS_REQUIRED, 0);
	pair_up(&p, &c, &c);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit += 3) {
			memcpy(bad, wire, len);
			bad[i] ^= (uint8_t)(1u << bit);
			ck_assert_int_eq(inject(&p, bad, len, out, &olen), 0);
			if (i == 0)	/* next_hdr bit; type bits */
				cause = bit < 3 ? UET_TSS_DROP_MALFORMED :
					UET_TSS_DROP_UNPROTECTED;
			else if (i <= 2 || (i >= 11 && i < 14))
				/* prologue flags, tss_type/flags, reserved */
				cause = UET_TSS_DROP_MALFORMED;
			else if (i == 10 && bit == 0)
				cause = UET_TSS_DROP_OLD;   /* sequence 0 */
			else	/* SCI, sequence, ciphertext, tag */
				cause = UET_TSS_DROP_AUTH;
			want[cause]++;
		}
	}
	st = stats_of(p.b);
	ck_assert_uint_eq(st.rx_pkts, 0);
	for (k = 0; k < UET_TSS_DROP_N; k++)
		ck_assert_msg(st.drops[k] == want[k], "%s: %llu, want %llu",
			      uet_tss_drop_name(k),
			      (unsigned long long)st.drops[k],
			      (unsigned long long)want[k]);
	ck_assert_uint_eq(st.ctx_new, 0);
	/* Truncated: malformed or authentication, never delivered. */
	for (i = 0; i < len; i++)
		ck_assert_int_eq(inject(&p, wire, i, out, &olen), 0);
	/* The intact one still goes through (nothing was remembered). */
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	ck_assert_mem_eq(out, kat_pt, olen);
	pair_down(&p);
}
END_TEST

/* A receiver with another secret, or another JobID, or a sender's SCI
 * rewritten (wrong security context): nothing delivered, counted. */
START_TEST(test_wrong_key_context)
{
	uint8_t wire[256], out[256];
	struct uet_tss_cfg ca, cb;
	struct uet_tss_stats st;
	struct pair p;
	size_t len, olen;

	tss_cfg_init(&ca, UET_TSS_REQUIRED, 0);
	tss_cfg_init(&cb, UET_TSS_REQUIRED, 1);		/* other secret */
	pair_up(&p, &ca, &cb);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_AUTH], 1);
	ck_assert_uint_eq(st.rx_pkts, 0);
	pair_down(&p);

	tss_cfg_init(&cb, UET_TSS_REQUIRED, 0);
	cb.job_id = JOB + 1;				/* other job */
	pair_up(&p, &ca, &cb);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 0);
	ck_assert_uint_eq(stats_of(p.b).drops[UET_TSS_DROP_AUTH], 1);
	pair_down(&p);

	tss_cfg_init(&cb, UET_TSS_REQUIRED, 0);
	pair_up(&p, &ca, &cb);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	wire[6] ^= 0x01;				/* SCI */
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 0);
	ck_assert_uint_eq(stats_of(p.b).drops[UET_TSS_DROP_AUTH], 1);
	wire[6] ^= 0x01;
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	pair_down(&p);
}
END_TEST

START_TEST(test_replay_window_unit)
{
	struct uet_tss_replay w;
	uint32_t s;

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(uet_tss_replay_check(&w, 0), UET_TSS_DROP_OLD);
	ck_assert_int_eq(uet_tss_replay_check(&w, 5), 0);
	uet_tss_replay_accept(&w, 5);
	ck_assert_int_eq(uet_tss_replay_check(&w, 5), UET_TSS_DROP_REPLAY);
	ck_assert_int_eq(uet_tss_replay_check(&w, 4), 0);
	ck_assert_int_eq(uet_tss_replay_check(&w, 1), 0);
	uet_tss_replay_accept(&w, 3);
	ck_assert_int_eq(uet_tss_replay_check(&w, 3), UET_TSS_DROP_REPLAY);
	/* Move the window by exactly its size minus one: 5 still inside. */
	uet_tss_replay_accept(&w, 5 + UET_TSS_REPLAY_WINDOW - 1);
	ck_assert_int_eq(uet_tss_replay_check(&w, 5), UET_TSS_DROP_REPLAY);
	ck_assert_int_eq(uet_tss_replay_check(&w, 4), UET_TSS_DROP_OLD);
	ck_assert_int_eq(uet_tss_replay_check(&w, 6), 0);
	/* A bit reused for a new number is clear. */
	ck_assert_int_eq(uet_tss_replay_check(&w, 5 + UET_TSS_REPLAY_WINDOW),
			 0);
	uet_tss_replay_accept(&w, 5 + UET_TSS_REPLAY_WINDOW);
	ck_assert_int_eq(uet_tss_replay_check(&w, 5), UET_TSS_DROP_OLD);
	/* A big jump clears everything. */
	uet_tss_replay_accept(&w, 100000);
	for (s = 100000 - UET_TSS_REPLAY_WINDOW + 1; s < 100000; s++)
		ck_assert_int_eq(uet_tss_replay_check(&w, s), 0);
	ck_assert_int_eq(uet_tss_replay_check(&w, 100000 -
					      UET_TSS_REPLAY_WINDOW),
			 UET_TSS_DROP_OLD);
	ck_assert_int_eq(uet_tss_replay_check(&w, 0xffffffffu), 0);
}
END_TEST

/* Replays inside the window (a duplicate) and outside it (older than the
 * window) are dropped before anything else; reordering inside it is
 * accepted. */
START_TEST(test_replay)
{
	uint8_t w1[256], w2[256], w3[256], out[256];
	struct uet_tss_cfg c;
	struct uet_tss_stats st;
	struct pair p;
	size_t l1, l2, l3, olen;
	unsigned int i;

	tss_cfg_init(&c, UET_TSS_REQUIRED, 0);
	pair_up(&p, &c, &c);
	l1 = capture(&p, "one", 3, w1, sizeof(w1));
	l2 = capture(&p, "two", 3, w2, sizeof(w2));
	l3 = capture(&p, "three", 5, w3, sizeof(w3));
	ck_assert_int_eq(inject(&p, w3, l3, out, &olen), 1);
	ck_assert_int_eq(inject(&p, w2, l2, out, &olen), 1);	/* older: ok */
	ck_assert_mem_eq(out, "two", 3);
	ck_assert_int_eq(inject(&p, w2, l2, out, &olen), 0);	/* replay */
	ck_assert_int_eq(inject(&p, w3, l3, out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_REPLAY], 2);
	/* Move the window past w1 (never delivered) and w2. */
	for (i = 0; i < UET_TSS_REPLAY_WINDOW + 10; i++) {
		uint8_t w[256];
		size_t l = capture(&p, "more", 4, w, sizeof(w));

		ck_assert_int_eq(inject(&p, w, l, out, &olen), 1);
	}
	ck_assert_int_eq(inject(&p, w1, l1, out, &olen), 0);
	ck_assert_int_eq(inject(&p, w2, l2, out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_OLD], 2);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_REPLAY], 2);
	ck_assert_uint_eq(st.rx_pkts, 2 + UET_TSS_REPLAY_WINDOW + 10);
	pair_down(&p);
}
END_TEST

/* Before the sequence number passes rekey_seq the sender moves to SCI+1
 * and sequence 1: no (key, nonce) pair twice; the receiver follows, and
 * datagrams for the sender's SCI before the rekey are still fresh. */
START_TEST(test_rekey)
{
	uint8_t w[256], wb[256], out[256];
	struct uet_link_rx rx;
	size_t lb;
	struct uet_tss_cfg ca, cb;
	struct uet_tss_stats st;
	struct uet_tss_hdr h;
	struct pair p;
	size_t l, olen;
	uint32_t want_sci[6] = { 0xffffffffu, 0xffffffffu, 0xffffffffu,
				 1, 1, 1 };
	uint32_t want_seq[6] = { 0xfffffff0u, 0xfffffff1u, 0xfffffff2u,
				 1, 2, 3 };
	int i;

	tss_cfg_init(&ca, UET_TSS_REQUIRED, 0);
	ca.sci = 0xffffffffu;		/* the SCI wraps too (never 0) */
	ca.seq_start = 0xfffffff0u;
	ca.rekey_seq = 0xfffffff2u;
	tss_cfg_init(&cb, UET_TSS_REQUIRED, 0);
	pair_up(&p, &ca, &cb);
	/* B -> A before A's rekey: names A's SCI 0xffffffff. */
	ck_assert_int_eq(link_send(p.b, &p.addr_a, "prev", 4), 1);
	ck_assert_int_eq(p.ia->ops->recv(p.ia, &rx, 1), 1);
	ck_assert_uint_le(rx.len, sizeof(wb));
	lb = rx.len;
	memcpy(wb, rx.buf, lb);
	for (i = 0; i < 6; i++) {
		l = capture(&p, "rekey", 5, w, sizeof(w));
		ck_assert_int_eq(uet_tss_hdr_decode(&h, w + 2, l - 2), 12);
		ck_assert_uint_eq(h.security_context_id, want_sci[i]);
		ck_assert_uint_eq(h.sequence_number, want_seq[i]);
		ck_assert_int_eq(inject(&p, w, l, out, &olen), 1);
		ck_assert_mem_eq(out, "rekey", 5);
	}
	st = stats_of(p.a);
	ck_assert_uint_eq(st.rekeys, 1);
	ck_assert_uint_eq(st.tx_sci, 1);
	/* A datagram for A's SCI before the rekey is still for A. */
	ck_assert_int_eq(link_send(p.ib, &p.addr_a, wb, lb), 1);
	ck_assert_int_eq(p.a->ops->recv(p.a, &rx, 1), 1);
	ck_assert_mem_eq(rx.buf, "prev", 4);
	ck_assert_uint_eq(stats_of(p.a).drops[UET_TSS_DROP_STALE], 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.ctx_new, 2);
	ck_assert_uint_eq(st.rx_pkts, 6);
	pair_down(&p);

	/* The default threshold: a sender at 2^32 - 1 rekeys before it. */
	tss_cfg_init(&ca, UET_TSS_ON, 0);
	ca.sci = 7;
	ca.seq_start = 0xffffffffu;
	pair_up(&p, &ca, &cb);
	l = capture(&p, "x", 1, w, sizeof(w));
	ck_assert_int_eq(uet_tss_hdr_decode(&h, w + 2, l - 2), 12);
	ck_assert_uint_eq(h.security_context_id, 8);
	ck_assert_uint_eq(h.sequence_number, 1);
	pair_down(&p);
}
END_TEST

/* Mode required drops unprotected datagrams; mode on accepts them. */
START_TEST(test_modes)
{
	uint8_t out[256];
	struct uet_tss_cfg ca, cb;
	struct uet_tss_stats st;
	struct pair p;
	size_t olen;

	tss_cfg_init(&ca, UET_TSS_ON, 0);
	tss_cfg_init(&cb, UET_TSS_REQUIRED, 0);
	pair_up(&p, &ca, &cb);
	ck_assert_int_eq(inject(&p, tss_plain, sizeof(tss_plain), out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_UNPROTECTED], 1);
	ck_assert_uint_eq(st.rx_plain, 0);
	pair_down(&p);

	cb.mode = UET_TSS_ON;
	pair_up(&p, &ca, &cb);
	ck_assert_int_eq(inject(&p, tss_plain, sizeof(tss_plain), out, &olen), 1);
	ck_assert_uint_eq(olen, sizeof(tss_plain));
	ck_assert_mem_eq(out, tss_plain, olen);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.rx_plain, 1);
	pair_down(&p);

	/* Bad configurations. */
	{
		struct uet_link_mem_fabric *fab;
		struct uet_link *l, *t;

		ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 9000), 0);
		ck_assert_int_eq(uet_link_mem_open(fab, PORT_A, &l), 0);
		ca.mode = UET_TSS_OFF;
		ck_assert_int_eq(uet_tss_link_open(&ca, l, false, &t),
				 -EINVAL);
		ca.mode = 7;
		ck_assert_int_eq(uet_tss_link_open(&ca, l, false, &t),
				 -EINVAL);
		ck_assert_int_eq(uet_tss_link_open(NULL, l, false, &t),
				 -EINVAL);
		ck_assert_int_eq(uet_tss_link_get_stats(l, &st), -EINVAL);
		ck_assert(!uet_tss_link_is(l));
		l->ops->close(l);
		uet_link_mem_fabric_destroy(fab);
	}
}
END_TEST

/* ---- issue 30, finding 2: receiver and instance binding ---- */

/* A third link on p's fabric, PORT_C: its in-memory link, TSS on it with
 * cfg (NULL: none), its address. */
static void third_up(struct pair *p, const struct uet_tss_cfg *cfg,
		     struct uet_link **ic, struct uet_link **c,
		     struct uet_link_addr *addr_c)
{
	ck_assert_int_eq(uet_link_mem_open(p->fab, PORT_C, ic), 0);
	*c = NULL;
	if (cfg)
		ck_assert_int_eq(uet_tss_link_open(cfg, *ic, false, c), 0);
	ck_assert_int_eq((*ic)->ops->local_addr(*ic, addr_c), 0);
}

/* recv on l, the datagrams returned; the first copied to out. */
static int recv_into(struct uet_link *l, void *out, size_t *olen)
{
	struct uet_link_rx rx[8];
	int n = l->ops->recv(l, rx, 8);

	if (n > 0 && out) {
		memcpy(out, rx[0].buf, rx[0].len);
		*olen = rx[0].len;
	}
	return n;
}

/*
 * (a) A datagram A sealed for B, delivered to C: same job, same secret,
 * C knows A.  C refuses it (the destination address is in the associated
 * data) and counts it; B takes it.
 */
START_TEST(test_other_receiver)
{
	uint8_t wire[256], out[256];
	struct uet_link *ic, *c;
	struct uet_link_addr addr_c;
	struct uet_tss_cfg cfg;
	struct uet_tss_stats st;
	struct pair p;
	size_t len, olen;

	tss_cfg_init(&cfg, UET_TSS_REQUIRED, 0);
	pair_up(&p, &cfg, &cfg);
	third_up(&p, &cfg, &ic, &c, &addr_c);
	introduce(p.a, &p.addr_a, c, &addr_c);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	/* From A's address to C. */
	ck_assert_int_eq(link_send(p.ia, &addr_c, wire, len), 1);
	ck_assert_int_eq(recv_into(c, out, &olen), 0);
	st = stats_of(c);
	ck_assert_uint_eq(st.rx_pkts, 0);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_AUTH] +
			  st.drops[UET_TSS_DROP_STALE], 1);
	ck_assert_uint_eq(st.ctx_new, 0);
	/* B, the destination, takes it. */
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	ck_assert_mem_eq(out, kat_pt, olen);
	c->ops->close(c);
	ic->ops->close(ic);
	pair_down(&p);
}
END_TEST

/*
 * (b) A datagram A sealed for B, replayed after B restarted on the same
 * address (a new TSS link over the same inner link: a new instance, new
 * SCI, no memory).  The new B refuses it as stale, counts it and tells A
 * who is there now; A's next datagrams reach the new B.
 */
START_TEST(test_restarted_receiver)
{
	uint8_t wire[256], out[256];
	struct uet_tss_cfg cfg;
	struct uet_tss_stats st;
	struct pair p;
	size_t len, olen;
	uint32_t sci_b2;

	tss_cfg_init(&cfg, UET_TSS_REQUIRED, 0);
	pair_up(&p, &cfg, &cfg);
	len = capture(&p, kat_pt, strlen(kat_pt), wire, sizeof(wire));
	p.b->ops->close(p.b);
	ck_assert_int_eq(uet_tss_link_open(&cfg, p.ib, false, &p.b), 0);
	sci_b2 = stats_of(p.b).tx_sci;

	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.rx_pkts, 0);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_STALE], 1);
	ck_assert_uint_eq(st.announce_tx, 1);
	/* Again: a replay now (the window), no second announcement. */
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_REPLAY], 1);
	ck_assert_uint_eq(st.announce_tx, 1);

	/* A takes the announcement in (nothing delivered) and learns. */
	ck_assert_int_eq(recv_into(p.a, out, &olen), 0);
	st = stats_of(p.a);
	ck_assert_uint_eq(st.announce_rx, 1);
	ck_assert_uint_eq(st.peers_learned, 1);
	len = capture(&p, "after", 5, wire, sizeof(wire));
	ck_assert_uint_eq(uet_get_be32(wire + UET_PDS_PROLOGUE_LEN +
				       UET_TSS_HDR_LEN), sci_b2);
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	ck_assert_mem_eq(out, "after", 5);
	pair_down(&p);
}
END_TEST

/*
 * (c) Mode on: once A has spoken TSS to B (a datagram that was fresh for
 * B), B drops unprotected datagrams from A's address and counts them;
 * unprotected datagrams from C, which never spoke TSS, are still taken
 * (what on is for).  After the peer's time to live without TSS from A,
 * A's plaintext is taken again.  The exchange starts without either side
 * knowing the other: A's datagram waits for the announcement round trip.
 */
START_TEST(test_on_downgrade)
{
	uint8_t out[256];
	struct uet_link *ic, *c;
	struct uet_link_addr addr_c;
	struct uet_tss_cfg cfg;
	struct uet_tss_stats st;
	struct pair p;
	size_t olen;

	tss_cfg_init(&cfg, UET_TSS_ON, 0);
	cfg.peer_ttl_ns = 2000 * 1000000ull;	/* 2 s: slack for a loaded host */
	pair_open(&p, &cfg, &cfg, false);
	third_up(&p, NULL, &ic, &c, &addr_c);

	/* Before A spoke TSS, its plaintext is taken. */
	ck_assert_int_eq(inject(&p, tss_plain, sizeof(tss_plain), out, &olen), 1);
	/* A -> B: held, announcement (DCI 0); B answers; A sends it. */
	ck_assert_int_eq(link_send(p.a, &p.addr_b, "tss", 3), 1);
	ck_assert_uint_eq(stats_of(p.a).held, 1);
	ck_assert_int_eq(recv_into(p.b, out, &olen), 0);
	ck_assert_int_eq(recv_into(p.a, out, &olen), 0);
	ck_assert_uint_eq(stats_of(p.a).held_sent, 1);
	ck_assert_int_eq(recv_into(p.b, out, &olen), 1);
	ck_assert_mem_eq(out, "tss", 3);

	/* Now plaintext from A is dropped and counted ... */
	ck_assert_int_eq(inject(&p, tss_plain, sizeof(tss_plain), out, &olen), 0);
	st = stats_of(p.b);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_DOWNGRADE], 1);
	ck_assert_uint_eq(st.rx_plain, 1);
	/* ... plaintext from C is not. */
	ck_assert_int_eq(link_send(ic, &p.addr_b, tss_plain, sizeof(tss_plain)), 1);
	ck_assert_int_eq(recv_into(p.b, out, &olen), 1);
	ck_assert_mem_eq(out, tss_plain, sizeof(tss_plain));
	st = stats_of(p.b);
	ck_assert_uint_eq(st.rx_plain, 2);
	ck_assert_uint_eq(st.drops[UET_TSS_DROP_DOWNGRADE], 1);

	/* The entry expires: A's plaintext is taken again. */
	usleep(2100 * 1000);
	ck_assert_int_eq(inject(&p, tss_plain, sizeof(tss_plain), out, &olen), 1);
	ck_assert_uint_eq(stats_of(p.b).drops[UET_TSS_DROP_DOWNGRADE], 1);
	ic->ops->close(ic);
	pair_down(&p);
}
END_TEST

/*
 * (d) fork(): the child's first sealed datagram is not under a (key,
 * nonce) the parent used or will use.  Keys are per SCI (and source
 * address, which parent and child share), nonces are SCI || 0 ||
 * sequence: the child must seal under another SCI.
 */
static void wire_sci_seq(const uint8_t *w, uint32_t *sci, uint32_t *seq)
{
	struct uet_tss_hdr h;

	ck_assert_int_eq(uet_tss_hdr_decode(&h, w + UET_PDS_PROLOGUE_LEN,
					    UET_TSS_HDR_LEN),
			 UET_TSS_HDR_LEN);
	*sci = h.security_context_id;
	*seq = h.sequence_number;
}

START_TEST(test_fork_nonce)
{
	uint8_t wire[256], out[256];
	uint32_t psci[4], pseq[4], got[3];
	struct uet_link_rx rx;
	struct uet_tss_cfg cfg;
	struct uet_tss_hdr h;
	struct pair p;
	size_t len, olen;
	int fds[2], i, status;
	pid_t pid;

	tss_cfg_init(&cfg, UET_TSS_REQUIRED, 0);
	pair_up(&p, &cfg, &cfg);
	for (i = 0; i < 3; i++) {
		len = capture(&p, "parent", 6, wire, sizeof(wire));
		wire_sci_seq(wire, &psci[i], &pseq[i]);
	}
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* The child: no ck_assert here; the parent judges. */
		uint32_t v[3] = { 0, 0, 0 };

		close(fds[0]);
		if (link_send(p.a, &p.addr_b, "child", 5) == 1 &&
		    p.ib->ops->recv(p.ib, &rx, 1) == 1 &&
		    uet_tss_hdr_decode(&h, rx.buf + UET_PDS_PROLOGUE_LEN,
				       rx.len - UET_PDS_PROLOGUE_LEN) ==
		    UET_TSS_HDR_LEN) {
			v[0] = h.security_context_id;
			v[1] = h.sequence_number;
			v[2] = (uint32_t)stats_of(p.a).forks;
		}
		if (write(fds[1], v, sizeof(v)) != (ssize_t)sizeof(v))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], got, sizeof(got)), (ssize_t)sizeof(got));
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The parent's next datagram: same SCI, next sequence number. */
	len = capture(&p, "parent", 6, wire, sizeof(wire));
	wire_sci_seq(wire, &psci[3], &pseq[3]);
	ck_assert_uint_eq(psci[3], psci[0]);
	ck_assert_uint_eq(pseq[3], pseq[2] + 1);
	ck_assert_int_eq(inject(&p, wire, len, out, &olen), 1);
	/* The child sealed under another SCI (another key). */
	ck_assert_uint_ne(got[0], 0);
	for (i = 0; i < 4; i++)
		ck_assert_msg(got[0] != psci[i],
			      "child sealed under the parent's SCI %#x, "
			      "sequence %u (parent used %u..%u)", got[0],
			      got[1], pseq[0], pseq[3]);
	ck_assert_uint_eq(got[1], 1);
	ck_assert_uint_eq(got[2], 1);
	pair_down(&p);
}
END_TEST

/*
 * First contact without help: A's datagrams to B wait for B's SCI (one
 * round trip: an announcement each way), then go in order; B answers at
 * once (it learned A's SCI from them).  Datagrams held for a peer are
 * bounded (UET_TSS_HOLD_PKTS); the rest are dropped and counted.  The
 * asks are counted against the time the sends took (one per
 * UET_TSS_ANNOUNCE_GAP_NS at most): exactly one on an idle machine.
 */
START_TEST(test_first_contact)
{
	static uint8_t big[100];
	uint8_t out[256];
	struct uet_link *ic, *c;
	struct uet_link_addr addr_c;
	struct uet_link_rx rx[8];
	struct uet_tss_cfg cfg;
	struct uet_tss_stats sa, sb;
	struct pair p;
	uint64_t t0, asks, gaps;
	size_t olen;
	unsigned int i;
	int n;

	tss_cfg_init(&cfg, UET_TSS_REQUIRED, 0);
	pair_open(&p, &cfg, &cfg, false);

	/* At most one ask per UET_TSS_ANNOUNCE_GAP_NS: one, unless a
	 * loaded machine held this thread back across the gap. */
	t0 = uet_clock_now_ns();
	ck_assert_int_eq(link_send(p.a, &p.addr_b, "one", 3), 1);
	ck_assert_int_eq(link_send(p.a, &p.addr_b, "two", 3), 1);
	ck_assert_int_eq(link_send(p.a, &p.addr_b, "three", 5), 1);
	asks = 1 + (uet_clock_now_ns() - t0) / UET_TSS_ANNOUNCE_GAP_NS;
	sa = stats_of(p.a);
	ck_assert_uint_eq(sa.held, 3);
	ck_assert_uint_ge(sa.announce_tx, 1);		/* one ask */
	ck_assert_uint_le(sa.announce_tx, asks);
	asks = sa.announce_tx;
	ck_assert_uint_eq(sa.tx_pkts, 0);
	ck_assert_int_eq(recv_into(p.b, out, &olen), 0);	/* the ask */
	ck_assert_uint_eq(stats_of(p.b).announce_tx, 1);	/* answer */
	ck_assert_int_eq(recv_into(p.a, out, &olen), 0);	/* answer */
	sa = stats_of(p.a);
	ck_assert_uint_eq(sa.held_sent, 3);
	ck_assert_uint_eq(sa.tx_pkts, 3);
	n = p.b->ops->recv(p.b, rx, 8);
	ck_assert_int_eq(n, 3);
	ck_assert_mem_eq(rx[0].buf, "one", 3);
	ck_assert_mem_eq(rx[1].buf, "two", 3);
	ck_assert_mem_eq(rx[2].buf, "three", 5);
	/* B knows A now: its answer goes at once. */
	ck_assert_int_eq(link_send(p.b, &p.addr_a, "back", 4), 1);
	ck_assert_int_eq(recv_into(p.a, out, &olen), 1);
	ck_assert_mem_eq(out, "back", 4);
	sb = stats_of(p.b);
	ck_assert_uint_eq(sb.held, 0);
	ck_assert_uint_eq(sb.announce_tx, 1);
	ck_assert_uint_eq(sb.drops[UET_TSS_DROP_STALE], 0);

	/* C never answers: UET_TSS_HOLD_PKTS held, the rest dropped. */
	third_up(&p, NULL, &ic, &c, &addr_c);
	t0 = uet_clock_now_ns();
	for (i = 0; i < UET_TSS_HOLD_PKTS + 6; i++)
		ck_assert_int_eq(link_send(p.a, &addr_c, big, sizeof(big)),
				 1);
	gaps = (uet_clock_now_ns() - t0) / UET_TSS_ANNOUNCE_GAP_NS;
	sa = stats_of(p.a);
	ck_assert_uint_eq(sa.held, 3 + UET_TSS_HOLD_PKTS);
	ck_assert_uint_eq(sa.held_dropped, 6);
	ck_assert_uint_ge(sa.announce_tx, asks + 1);	/* one ask of C */
	ck_assert_uint_le(sa.announce_tx, asks + 1 + gaps);
	ic->ops->close(ic);
	pair_down(&p);
}
END_TEST

/* The MTU above TSS is 34 bytes less; a datagram that would not fit is
 * refused with -EMSGSIZE (after the prefix that fits). */
START_TEST(test_mtu)
{
	static uint8_t buf[9000];
	struct uet_link_pkt pk[3];
	struct uet_tss_cfg c;
	struct pair p;
	size_t m;
	int i;

	tss_cfg_init(&c, UET_TSS_REQUIRED, 0);
	pair_up(&p, &c, &c);
	m = p.b->ops->mtu(p.b);
	ck_assert_uint_eq(m + UET_TSS_OVERHEAD, p.ib->ops->mtu(p.ib));
	ck_assert_uint_eq(UET_TSS_OVERHEAD, 2 + 12 + 4 + 16);
	ck_assert_int_eq(link_send(p.a, &p.addr_b, buf, m), 1);
	ck_assert_int_eq(link_send(p.a, &p.addr_b, buf, m + 1), -EMSGSIZE);
	for (i = 0; i < 3; i++)
		pk[i] = (struct uet_link_pkt){
			.dst = &p.addr_b, .iovcnt = 1,
			.iov[0] = { buf, i == 2 ? m + 1 : m },
		};
	ck_assert_int_eq(p.a->ops->send(p.a, pk, 3), 2);
	pair_down(&p);
}
END_TEST

/* ---- key file ---- */

START_TEST(test_key_file)
{
	char dir[] = "/tmp/check_tss.XXXXXX", path[128], link[128];
	uint8_t raw[32], got[32];
	char hex[80];
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/key", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	for (i = 0; i < 32; i++) {
		raw[i] = (uint8_t)(0xa0 + i);
		snprintf(hex + 2 * i, 3, "%02X", raw[i]);
	}
	strcat(hex, "\n");

	uet_test_write_file(path, raw, 32, 0600);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), 0);
	ck_assert_mem_eq(got, raw, 32);
	uet_test_write_file(path, hex, strlen(hex), 0600);
	memset(got, 0, sizeof(got));
	ck_assert_int_eq(uet_tss_key_file_load(path, got), 0);
	ck_assert_mem_eq(got, raw, 32);
	/* Readable by the group or others, or executable: refused. */
	uet_test_write_file(path, hex, strlen(hex), 0640);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EPERM);
	uet_test_write_file(path, hex, strlen(hex), 0604);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EPERM);
	uet_test_write_file(path, hex, strlen(hex), 0700);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EPERM);
	uet_test_write_file(path, hex, strlen(hex), 0400);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EPERM);
	/* Bad content. */
	uet_test_write_file(path, hex, 63, 0600);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EINVAL);
	hex[5] = 'g';
	uet_test_write_file(path, hex, strlen(hex), 0600);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EINVAL);
	uet_test_write_file(path, raw, 31, 0600);
	ck_assert_int_eq(uet_tss_key_file_load(path, got), -EINVAL);
	/* Symbolic links are not followed; a directory is not a file. */
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(uet_tss_key_file_load(link, got), -ELOOP);
	ck_assert_int_eq(uet_tss_key_file_load(dir, got), -EPERM);
	ck_assert_int_eq(uet_tss_key_file_load("/nonexistent/key", got),
			 -ENOENT);
	ck_assert_int_eq(uet_tss_key_file_load("", got), -EINVAL);
	unlink(link);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* FI_UET_TSS and FI_UET_TSS_KEY_FILE as the NIC reads them. */
START_TEST(test_snic_tss_cfg)
{
	char dir[] = "/tmp/check_tss.XXXXXX", path[128];
	uint8_t secret[32];
	struct uet_tss_cfg tc;

	memset(secret, 0x5c, sizeof(secret));
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/key", dir);
	unsetenv("FI_UET_TSS");
	unsetenv("FI_UET_TSS_KEY_FILE");
	ck_assert_int_eq(uet_snic_tss_cfg(secret, JOB, &tc), 0);
	ck_assert_uint_eq(tc.mode, UET_TSS_OFF);

	setenv("FI_UET_TSS", "required", 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), -ENOKEY);
	ck_assert_int_eq(uet_snic_tss_cfg(secret, JOB, &tc), 0);
	ck_assert_uint_eq(tc.mode, UET_TSS_REQUIRED);
	ck_assert_mem_eq(tc.secret, secret, 32);
	ck_assert_uint_eq(tc.job_id, JOB);

	uet_test_write_file(path, secret, 32, 0644);
	setenv("FI_UET_TSS_KEY_FILE", path, 1);
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), -EPERM);
	ck_assert_int_eq(chmod(path, 0600), 0);
	setenv("FI_UET_TSS", "on", 1);
	memset(&tc, 0, sizeof(tc));
	ck_assert_int_eq(uet_snic_tss_cfg(NULL, JOB, &tc), 0);
	ck_assert_uint_eq(tc.mode, UET_TSS_ON);
	ck_assert_mem_eq(tc.secret, secret, 32);
	/* The auth_key's secret comes first. */
	secret[0] ^= 0xff;
	ck_assert_int_eq(uet_snic_tss_cfg(secret, JOB, &tc), 0);
	ck_assert_mem_eq(tc.secret, secret, 32);
	setenv("FI_UET_TSS", "off", 1);
	ck_assert_int_eq(uet_snic_tss_cfg(secret, JOB, &tc), 0);
	ck_assert_uint_eq(tc.mode, UET_TSS_OFF);
	unsetenv("FI_UET_TSS");
	unsetenv("FI_UET_TSS_KEY_FILE");
	unlink(path);
	rmdir(dir);
}
END_TEST

/* ---- two NICs ---- */

static struct snh_world W_;

struct wrap_arg {
	struct uet_tss_cfg cfg[2];
	bool plain[2];
};

static struct uet_link *tss_wrap(struct uet_link *inner, int idx, void *arg)
{
	struct wrap_arg *wa = arg;
	struct uet_link *l;

	if (wa->plain[idx])
		return inner;
	if (uet_tss_link_open(&wa->cfg[idx], inner, true, &l))
		return NULL;
	return l;
}

static void world_cfg(struct snh_world_cfg *wc, struct wrap_arg *wa)
{
	snh_world_cfg_default(wc);
	wc->seed = uet_test_seed();
	wc->wrap = tss_wrap;
	wc->wrap_arg = wa;
	wc->faults.delay_ns = 2 * SNH_US;
}

/* Mixed traffic (eager, multi-packet, rendezvous) with a little loss, so
 * requests, ACKs, NACK-driven and timed retransmissions all go through
 * TSS; everything arrives. */
START_TEST(test_nics_traffic)
{
	struct snh_traffic_cfg tc;
	struct snh_world_cfg wc;
	struct wrap_arg wa;
	struct snh_traffic t;
	struct uet_tss_stats s0, s1;
	struct uet_snic_stats st;
	char desc[600];
	uint8_t mode;
	bool ok;
	int i;

	memset(&wa, 0, sizeof(wa));
	tss_cfg_init(&wa.cfg[0], UET_TSS_REQUIRED, 0);
	tss_cfg_init(&wa.cfg[1], UET_TSS_REQUIRED, 0);
	world_cfg(&wc, &wa);
	wc.faults.drop_ppm = 20000;
	wc.faults.reorder_ppm = 20000;
	for (i = 0; i < 2; i++) {
		wc.snic[i].pds.max_retries = 40;
		wc.snic[i].rdzv_threshold = 32768;
	}
	wc.job[0] = wc.job[1] = JOB;
	ck_assert_int_eq(snh_world_open(&W_, &wc), 0);
	snh_traffic_cfg_default(&tc);
	tc.n = 300;
	tc.seed = uet_test_seed();
	tc.max_len = 256 * 1024;
	tc.max_volume = 4u << 20;
	tc.rdzv_threshold = 32768;
	ck_assert_int_eq(snh_traffic_init(&t, &tc, &W_.nic[0], &W_.nic[1]), 0);
	ok = snh_world_run(&W_, snh_traffic_world_pump, &t, 120 * SNH_SEC,
			   50000000);
	snh_traffic_describe(&t, desc, sizeof(desc));
	ck_assert_msg(ok && !atomic_load(&t.failed), "traffic: %s", desc);
	ck_assert_int_eq(uet_snic_get_tss_stats(W_.nic[0].dev, &mode, &s0), 0);
	ck_assert_uint_eq(mode, UET_TSS_REQUIRED);
	ck_assert_int_eq(uet_snic_get_tss_stats(W_.nic[1].dev, &mode, &s1), 0);
	ck_assert_uint_gt(s0.tx_pkts, 0);
	ck_assert_uint_gt(s1.rx_pkts, 0);
	ck_assert_uint_eq(s0.drops[UET_TSS_DROP_AUTH] +
			  s1.drops[UET_TSS_DROP_AUTH], 0);
	uet_snic_get_stats(W_.nic[1].dev, &st);
	ck_assert_uint_gt(st.pds.ack_tx, 0);
	ck_assert_uint_eq(st.pds.malformed, 0);
	snh_traffic_fini(&t);
	snh_world_close(&W_);
}
END_TEST

static unsigned int recv_count;

static void count_fn(struct snh_nic *nic, const struct snh_notif *n,
		     void *arg)
{
	(void)nic;
	(void)arg;
	if (n->type == UET_HSI_NOTIF_RECV)
		recv_count++;
}

/* A peer without the key (another secret, or no TSS at all) gets nothing
 * delivered: every datagram is dropped by TSS before PDS, and the
 * counters say why. */
static void no_key_run(bool plain_sender)
{
	static uint8_t sbuf[20000], rbuf[20000];
	struct snh_world_cfg wc;
	struct wrap_arg wa;
	struct uet_snic_drops dr;
	struct uet_snic_stats st;
	struct uet_tss_stats ts;
	struct snh_cmd c;
	uint8_t mode;
	int i;

	memset(&wa, 0, sizeof(wa));
	tss_cfg_init(&wa.cfg[0], UET_TSS_REQUIRED, 9);	/* other secret */
	wa.plain[0] = plain_sender;
	tss_cfg_init(&wa.cfg[1], UET_TSS_REQUIRED, 0);
	world_cfg(&wc, &wa);
	wc.snic[0].pds.max_retries = 3;
	wc.snic[0].pds.dead_ns = 50 * SNH_MS;
	ck_assert_int_eq(snh_world_open(&W_, &wc), 0);
	recv_count = 0;
	W_.nic[1].fn = count_fn;
	for (i = 0; i < 4; i++) {
		memset(&c, 0, sizeof(c));
		c.family = UET_HSI_FAMILY_MSG;
		c.variant = UET_HSI_VARIANT_RECV;
		c.completion = true;
		c.buf = rbuf;
		c.len = sizeof(rbuf);
		c.metadata = (uint64_t)i;
		ck_assert_int_eq(snh_post_ring(&W_.nic[1], &c), 0);
		memset(&c, 0, sizeof(c));
		c.family = UET_HSI_FAMILY_MSG;
		c.variant = UET_HSI_VARIANT_SEND;
		c.completion = true;
		c.dest = snh_dest(&W_.nic[0], &W_.nic[1]);
		c.buf = sbuf;
		c.len = i ? sizeof(sbuf) : 8;
		ck_assert_int_eq(snh_post_ring(&W_.nic[0], &c), 0);
	}
	snh_world_settle(&W_, 5 * SNH_SEC);
	ck_assert_uint_eq(recv_count, 0);
	uet_snic_get_stats(W_.nic[1].dev, &st);
	ck_assert_uint_eq(st.pds.rx_pkts, 0);		/* PDS saw nothing */
	ck_assert_uint_eq(st.pds.malformed, 0);
	ck_assert_uint_eq(st.pds.tx_pkts, 0);		/* nor answered */
	ck_assert_int_eq(uet_snic_get_tss_stats(W_.nic[1].dev, &mode, &ts),
			 0);
	ck_assert_uint_eq(ts.rx_pkts, 0);
	ck_assert_int_eq(uet_snic_get_drops(W_.nic[1].dev, &dr), 0);
	if (plain_sender) {
		ck_assert_uint_gt(ts.drops[UET_TSS_DROP_UNPROTECTED], 0);
		ck_assert_uint_eq(dr.v[UET_SNIC_DROP_TSS_UNPROTECTED],
				  ts.drops[UET_TSS_DROP_UNPROTECTED]);
	} else {
		ck_assert_uint_gt(ts.drops[UET_TSS_DROP_AUTH], 0);
		ck_assert_uint_eq(dr.v[UET_SNIC_DROP_TSS_AUTH],
				  ts.drops[UET_TSS_DROP_AUTH]);
	}
	ck_assert_str_eq(uet_snic_drop_name(UET_SNIC_DROP_TSS_AUTH),
			 "tss_auth");
	/* The sender's operations failed (the peer never answered). */
	ck_assert_uint_gt(W_.nic[0].sends, 0);
	snh_world_close(&W_);
}

START_TEST(test_nics_wrong_key)
{
	no_key_run(false);
}
END_TEST

START_TEST(test_nics_no_tss)
{
	no_key_run(true);
}
END_TEST


/* ---- a captured exchange replayed after its PDC closed ---- */

/* A link under NIC 0's TSS link that records every datagram NIC 0 sends
 * (protected bytes, as on the wire). */
#define TAP_MAX		64
struct tap {
	struct uet_link pub;
	struct uet_link *inner;
	unsigned int n;
	size_t len[TAP_MAX];
	uint8_t *buf[TAP_MAX];
	struct uet_link_addr dst[TAP_MAX];
};

static struct tap *tap_of(struct uet_link *l)
{
	return (struct tap *)l;
}

static int tap_send(struct uet_link *l, const struct uet_link_pkt *p,
		    unsigned int n)
{
	struct tap *t = tap_of(l);
	unsigned int i, k;
	size_t off;
	int r = t->inner->ops->send(t->inner, p, n);

	for (i = 0; r > 0 && i < (unsigned int)r && t->n < TAP_MAX; i++) {
		t->len[t->n] = 0;
		for (k = 0; k < p[i].iovcnt; k++)
			t->len[t->n] += p[i].iov[k].iov_len;
		t->buf[t->n] = malloc(t->len[t->n]);
		for (off = 0, k = 0; k < p[i].iovcnt; k++) {
			memcpy(t->buf[t->n] + off, p[i].iov[k].iov_base,
			       p[i].iov[k].iov_len);
			off += p[i].iov[k].iov_len;
		}
		t->dst[t->n] = *p[i].dst;
		t->n++;
	}
	return r;
}

static int tap_recv(struct uet_link *l, struct uet_link_rx *rx,
		    unsigned int n)
{
	return tap_of(l)->inner->ops->recv(tap_of(l)->inner, rx, n);
}

static int tap_fd(struct uet_link *l)
{
	return tap_of(l)->inner->ops->fd(tap_of(l)->inner);
}

static size_t tap_mtu(struct uet_link *l)
{
	return tap_of(l)->inner->ops->mtu(tap_of(l)->inner);
}

static int tap_local_addr(struct uet_link *l, struct uet_link_addr *a)
{
	return tap_of(l)->inner->ops->local_addr(tap_of(l)->inner, a);
}

static void tap_close(struct uet_link *l)
{
	struct tap *t = tap_of(l);
	unsigned int i;

	for (i = 0; i < t->n; i++)
		free(t->buf[i]);
	t->inner->ops->close(t->inner);
	free(t);
}

static const struct uet_link_ops tap_ops = {
	.send = tap_send, .recv = tap_recv, .fd = tap_fd, .mtu = tap_mtu,
	.local_addr = tap_local_addr, .close = tap_close,
};

static struct tap *the_tap;

static struct uet_link *tap_tss_wrap(struct uet_link *inner, int idx,
				     void *arg)
{
	struct wrap_arg *wa = arg;
	struct uet_link *l;
	struct tap *t;

	if (idx == 0) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->pub.ops = &tap_ops;
		t->inner = inner;
		the_tap = t;
		inner = &t->pub;
	}
	if (uet_tss_link_open(&wa->cfg[idx], inner, true, &l))
		return NULL;
	return l;
}

/* NIC 0 sends NIC 1 a message; the PDC closes (idle); every datagram NIC
 * 0 sent is replayed from NIC 0's address: NIC 1's PDS sees none of
 * them, no message is delivered, and the replays are counted. */
START_TEST(test_nics_replay_after_close)
{
	static uint8_t sbuf[6000], rbuf[6000];
	struct snh_world_cfg wc;
	struct wrap_arg wa;
	struct uet_snic_stats st0, st1;
	struct uet_tss_stats ts;
	struct uet_link *raw;
	struct snh_cmd c;
	uint64_t rx_before;
	uint8_t mode;
	unsigned int i;

	memset(&wa, 0, sizeof(wa));
	tss_cfg_init(&wa.cfg[0], UET_TSS_REQUIRED, 0);
	tss_cfg_init(&wa.cfg[1], UET_TSS_REQUIRED, 0);
	snh_world_cfg_default(&wc);
	wc.seed = uet_test_seed();
	wc.wrap = tap_tss_wrap;
	wc.wrap_arg = &wa;
	wc.faults.delay_ns = 2 * SNH_US;
	for (i = 0; i < 2; i++)
		wc.snic[i].pds.idle_close_ns = 50 * SNH_MS;
	the_tap = NULL;
	ck_assert_int_eq(snh_world_open(&W_, &wc), 0);
	ck_assert_ptr_nonnull(the_tap);
	recv_count = 0;
	W_.nic[1].fn = count_fn;
	memset(sbuf, 0x77, sizeof(sbuf));
	memset(&c, 0, sizeof(c));
	c.family = UET_HSI_FAMILY_MSG;
	c.variant = UET_HSI_VARIANT_RECV;
	c.completion = true;
	c.buf = rbuf;
	c.len = sizeof(rbuf);
	ck_assert_int_eq(snh_post_ring(&W_.nic[1], &c), 0);
	c.variant = UET_HSI_VARIANT_SEND;
	c.dest = snh_dest(&W_.nic[0], &W_.nic[1]);
	c.buf = sbuf;
	ck_assert_int_eq(snh_post_ring(&W_.nic[0], &c), 0);
	snh_world_settle(&W_, 2 * SNH_SEC);
	ck_assert_uint_eq(recv_count, 1);
	ck_assert_mem_eq(rbuf, sbuf, sizeof(sbuf));
	uet_snic_get_stats(W_.nic[0].dev, &st0);
	uet_snic_get_stats(W_.nic[1].dev, &st1);
	ck_assert_uint_eq(st0.pds.pdcs_open + st1.pds.pdcs_open, 0);
	ck_assert_uint_gt(st1.pds.pdc_closed, 0);
	ck_assert_uint_gt(the_tap->n, 1);

	/* Replay everything NIC 0 sent, from NIC 0's own address. */
	memset(rbuf, 0, sizeof(rbuf));
	c.variant = UET_HSI_VARIANT_RECV;
	c.buf = rbuf;
	ck_assert_int_eq(snh_post_ring(&W_.nic[1], &c), 0);
	rx_before = st1.pds.rx_pkts;
	raw = the_tap->inner;
	for (i = 0; i < the_tap->n; i++)
		ck_assert_int_eq(link_send(raw, &the_tap->dst[i],
					   the_tap->buf[i], the_tap->len[i]),
				 1);
	snh_world_settle(&W_, 2 * SNH_SEC);
	ck_assert_uint_eq(recv_count, 1);
	uet_snic_get_stats(W_.nic[1].dev, &st1);
	ck_assert_uint_eq(st1.pds.rx_pkts, rx_before);
	ck_assert_int_eq(uet_snic_get_tss_stats(W_.nic[1].dev, &mode, &ts),
			 0);
	ck_assert_uint_eq(ts.drops[UET_TSS_DROP_REPLAY] +
			  ts.drops[UET_TSS_DROP_OLD], the_tap->n);
	for (i = 0; i < sizeof(rbuf); i++)
		ck_assert_uint_eq(rbuf[i], 0);
	snh_world_close(&W_);
}
END_TEST

/* ---- chunked sends, opening in place ---- */

/* A recording link over an in-memory link: the bytes of every send call,
 * the recv calls, and the last buffer recv returned (with a copy of its
 * bytes).  rx_writable as the ops table says. */
#define REC_MAX	64
struct rec {
	struct uet_link pub;
	struct uet_link *inner;
	unsigned int nsend, nrecv;
	size_t send_bytes[REC_MAX];
	unsigned int send_pkts[REC_MAX];
	const uint8_t *last_buf;
	size_t last_len;
	uint8_t last_copy[65536];
};

static struct rec *rec_of(struct uet_link *l)
{
	return uet_container_of(l, struct rec, pub);
}

static int rec_send(struct uet_link *l, const struct uet_link_pkt *p,
		    unsigned int n)
{
	struct rec *r = rec_of(l);
	size_t bytes = 0;
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < p[i].iovcnt; j++)
			bytes += p[i].iov[j].iov_len;
	if (r->nsend < REC_MAX) {
		r->send_bytes[r->nsend] = bytes;
		r->send_pkts[r->nsend] = n;
	}
	r->nsend++;
	return r->inner->ops->send(r->inner, p, n);
}

static int rec_recv(struct uet_link *l, struct uet_link_rx *rx,
		    unsigned int n)
{
	struct rec *r = rec_of(l);
	int got = r->inner->ops->recv(r->inner, rx, n);

	r->nrecv++;
	if (got > 0) {
		r->last_buf = rx[got - 1].buf;
		r->last_len = rx[got - 1].len;
		ck_assert_uint_le(r->last_len, sizeof(r->last_copy));
		memcpy(r->last_copy, r->last_buf, r->last_len);
	}
	return got;
}

static size_t rec_mtu(struct uet_link *l)
{
	return rec_of(l)->inner->ops->mtu(rec_of(l)->inner);
}

static int rec_local_addr(struct uet_link *l, struct uet_link_addr *a)
{
	return rec_of(l)->inner->ops->local_addr(rec_of(l)->inner, a);
}

static int rec_fd(struct uet_link *l)
{
	(void)l;
	return -1;
}

static void rec_close(struct uet_link *l)
{
	(void)l;
}

static const struct uet_link_ops rec_ops_ro = {
	.send = rec_send, .recv = rec_recv, .fd = rec_fd, .mtu = rec_mtu,
	.local_addr = rec_local_addr, .close = rec_close,
};
static const struct uet_link_ops rec_ops_rw = {
	.send = rec_send, .recv = rec_recv, .fd = rec_fd, .mtu = rec_mtu,
	.local_addr = rec_local_addr, .close = rec_close,
	.rx_writable = true,
};

/*
 * 16 datagrams of 60000 bytes in one send: sealed and handed to the
 * inner link in chunks of at most 64 KiB (one datagram each here), not
 * in one call.  The receiver opens each one in the inner link's
 * (writable) buffer, just after the TSS header, and returns that; with a
 * read-only inner link it leaves the buffer as it was and returns its own.
 */
START_TEST(test_chunks_in_place)
{
	static uint8_t pt[16][60000];
	static struct rec ra, rb;
	struct uet_link_mem_fabric *fab;
	struct uet_link *ia, *ib, *a, *b;
	struct uet_link_addr db;
	struct uet_link_pkt pk[16];
	struct uet_link_rx rx[64];
	struct uet_tss_cfg c;
	unsigned int got = 0, i, tries;
	int n, k;

	for (i = 0; i < 16; i++)
		memset(pt[i], 0x30 + (int)i, sizeof(pt[i]));
	ck_assert_int_eq(uet_link_mem_fabric_create(&fab, 1, 65536), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, PORT_A, &ia), 0);
	ck_assert_int_eq(uet_link_mem_open(fab, PORT_B, &ib), 0);
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	ra.pub.ops = &rec_ops_ro;
	ra.inner = ia;
	rb.pub.ops = &rec_ops_rw;
	rb.inner = ib;
	tss_cfg_init(&c, UET_TSS_REQUIRED, 0);
	ck_assert_int_eq(uet_tss_link_open(&c, &ra.pub, false, &a), 0);
	ck_assert_int_eq(uet_tss_link_open(&c, &rb.pub, false, &b), 0);
	ck_assert_int_eq(ib->ops->local_addr(ib, &db), 0);
	ck_assert_int_eq(uet_tss_link_learn_peer(a, &db, stats_of(b).tx_sci),
			 0);
	for (i = 0; i < 16; i++)
		pk[i] = (struct uet_link_pkt){
			.dst = &db, .iovcnt = 2,
			.iov[0] = { pt[i], 50 },
			.iov[1] = { pt[i] + 50, sizeof(pt[i]) - 50 },
		};
	ck_assert_int_eq(a->ops->send(a, pk, 16), 16);
	ck_assert_uint_eq(ra.nsend, 16);
	for (i = 0; i < ra.nsend; i++) {
		ck_assert_uint_eq(ra.send_pkts[i], 1);
		ck_assert_uint_eq(ra.send_bytes[i],
				  sizeof(pt[i]) + UET_TSS_OVERHEAD);
	}
	for (tries = 0; got < 16 && tries < 100; tries++) {
		n = b->ops->recv(b, rx, 64);
		ck_assert_int_ge(n, 0);
		for (k = 0; k < n; k++) {
			ck_assert_uint_eq(rx[k].len, sizeof(pt[0]));
			ck_assert_mem_eq(rx[k].buf, pt[got + (unsigned int)k],
					 rx[k].len);
		}
		/* The last one is in the inner link's buffer. */
		if (n > 0)
			ck_assert_ptr_eq(rx[n - 1].buf,
					 rb.last_buf + UET_TSS_AAD_LEN);
		got += (unsigned int)n;
	}
	ck_assert_uint_eq(got, 16);
	ck_assert_uint_eq(stats_of(b).rx_in_place, 16);

	/* Read-only inner link: opened elsewhere, its buffer untouched. */
	rb.pub.ops = &rec_ops_ro;
	ck_assert_int_eq(a->ops->send(a, pk, 1), 1);
	ck_assert_int_eq(b->ops->recv(b, rx, 64), 1);
	ck_assert_mem_eq(rx[0].buf, pt[0], sizeof(pt[0]));
	ck_assert_ptr_ne(rx[0].buf, rb.last_buf + UET_TSS_AAD_LEN);
	ck_assert_mem_eq(rb.last_buf, rb.last_copy, rb.last_len);
	ck_assert_uint_eq(stats_of(b).rx_in_place, 16);
	ck_assert_uint_eq(stats_of(b).rx_pkts, 17);

	a->ops->close(a);
	b->ops->close(b);
	ib->ops->close(ib);
	ia->ops->close(ia);
	uet_link_mem_fabric_destroy(fab);
}
END_TEST

/* ---- UDP: GSO runs of protected datagrams ---- */

START_TEST(test_udp_gso)
{
	static uint8_t buf[1200];
	struct uet_link_udp_cfg lc;
	struct uet_link_udp_stats us;
	struct uet_link *ua, *ub, *a, *b;
	struct uet_link_pkt pk[16];
	struct uet_link_rx rx[64];
	struct uet_link_addr db;
	struct uet_tss_cfg c;
	unsigned int got = 0, tries;
	int i, n;

	memset(&lc, 0, sizeof(lc));
	lc.host = "127.0.0.1";
	lc.mtu = 1452;
	ck_assert_int_eq(uet_link_udp_open(&lc, &ua), 0);
	ck_assert_int_eq(uet_link_udp_open(&lc, &ub), 0);
	tss_cfg_init(&c, UET_TSS_REQUIRED, 0);
	ck_assert_int_eq(uet_tss_link_open(&c, ua, true, &a), 0);
	ck_assert_int_eq(uet_tss_link_open(&c, ub, true, &b), 0);
	ck_assert_uint_eq(a->ops->mtu(a), 1452 - UET_TSS_OVERHEAD);
	ck_assert_int_eq(b->ops->local_addr(b, &db), 0);
	ck_assert_int_eq(uet_tss_link_learn_peer(a, &db, stats_of(b).tx_sci),
			 0);
	for (i = 0; i < 16; i++) {
		pk[i] = (struct uet_link_pkt){
			.dst = &db, .iovcnt = 2,
			.iov[0] = { buf, 100 },
			.iov[1] = { buf + 100, sizeof(buf) - 100 },
		};
	}
	memset(buf, 0xab, sizeof(buf));
	ck_assert_int_eq(a->ops->send(a, pk, 16), 16);
	for (tries = 0; got < 16 && tries < 2000; tries++) {
		n = b->ops->recv(b, rx, 64);
		ck_assert_int_ge(n, 0);
		for (i = 0; i < n; i++) {
			ck_assert_uint_eq(rx[i].len, sizeof(buf));
			ck_assert_mem_eq(rx[i].buf, buf, sizeof(buf));
		}
		got += (unsigned int)n;
		if (!n)
			usleep(1000);
	}
	ck_assert_uint_eq(got, 16);
	ck_assert_int_eq(uet_link_udp_get_stats(ua, &us), 0);
	if (!us.gso_off && us.tx_pkts == 16)
		ck_assert_msg(us.tx_gso > 0 || getenv("FI_UET_GSO"),
			      "a run of 16 equal datagrams went without GSO");
	ck_assert_uint_eq(stats_of(b).rx_pkts, 16);
	a->ops->close(a);
	b->ops->close(b);
}
END_TEST

static Suite *tss_suite(void)
{
	Suite *s = suite_create("tss");
	TCase *tc = tcase_create("tss");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_gcm_kat, 0,
			    (int)(sizeof(gcm_kats) / sizeof(gcm_kats[0])));
	tcase_add_test(tc, test_hkdf_kat);
	tcase_add_test(tc, test_layout_vector);
	tcase_add_test(tc, test_tamper);
	tcase_add_test(tc, test_wrong_key_context);
	tcase_add_test(tc, test_replay_window_unit);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_rekey);
	tcase_add_test(tc, test_modes);
	tcase_add_test(tc, test_other_receiver);
	tcase_add_test(tc, test_restarted_receiver);
	tcase_add_test(tc, test_on_downgrade);
	tcase_add_test(tc, test_fork_nonce);
	tcase_add_test(tc, test_first_contact);
	tcase_add_test(tc, test_mtu);
	tcase_add_test(tc, test_key_file);
	tcase_add_test(tc, test_snic_tss_cfg);
	tcase_add_test(tc, test_nics_traffic);
	tcase_add_test(tc, test_nics_wrong_key);
	tcase_add_test(tc, test_nics_no_tss);
	tcase_add_test(tc, test_nics_replay_after_close);
	tcase_add_test(tc, test_udp_gso);
	tcase_add_test(tc, test_chunks_in_place);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(tss_suite)
