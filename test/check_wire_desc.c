/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wire description (wire/uet_wire_desc.h) against the codecs, per
 * profile and format: headers generated from the description (every
 * field a random value in its range, every other bit zero) that the
 * codec decodes must decode to host members equal to the fields the
 * description reads from the bytes (decode direction), and encode back
 * to the same bytes (encode direction); a bit no field describes may not
 * change what the codec decodes (nothing left out); the header lengths
 * are the codecs'; the chain rules pick the codecs' formats.
 */
#include <stdio.h>
#include <string.h>

#include "uet_link.h"
#include "uet_test.h"
#include "uet_wire_desc.h"
#include "wire_desc_codec.h"

#define SAMPLES		300
#define TRIES		60000
#define HDR_MAX		64

/*
 * Formats of the UE 1.0.1 profile whose codec does not follow the
 * description yet: expected to fail; one that passes fails the test so
 * that the list stays true.  Empty since main's UE 1.0.1 PDS tables
 * (UET_WIRE_UE); the entry is a placeholder.
 */
static const unsigned int ue_pending[] = {
	UET_WD_NONE,
};

static bool pending(enum uet_wire_prof wp, unsigned int id)
{
	size_t i;

	if (wp != UET_WIRE_UE)
		return false;
	for (i = 0; i < sizeof(ue_pending) / sizeof(ue_pending[0]); i++)
		if (ue_pending[i] == id)
			return true;
	return false;
}

static uint64_t get_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, unsigned int n, uint64_t v)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* A random value of field f: its range, its named values, its width. */
static uint64_t rnd_value(const struct uet_wd_field *f)
{
	const struct uet_wd_vtab *t = uet_wd_vtab(f->vals);
	unsigned int bits = uet_wd_field_bits(f);

	if (f->rng)
		return f->lo + uet_test_rand64() % (f->hi - f->lo + 1);
	if (t && t->n && f->vals != UET_WD_V_SEMCTL)
		return t->v[uet_test_rand64() % t->n].v;
	return uet_test_rand_bits(bits);
}

static void gen(const struct uet_wd_fmt *f, uint8_t *b)
{
	const struct uet_wd_field *fl;
	uint64_t w, m;
	size_t i, k;

	memset(b, 0, HDR_MAX);
	for (i = 0; i < f->n; i++) {
		fl = &f->f[i];
		if (fl->kind == UET_WD_RSVD)
			continue;
		if (fl->kind == UET_WD_BYTES) {
			for (k = 0; k < fl->len; k++)
				b[fl->off + k] = (uint8_t)uet_test_rand64();
			continue;
		}
		m = fl->mask ? fl->mask :
		    fl->len >= 8 ? UINT64_MAX :
		    (UINT64_C(1) << (8 * fl->len)) - 1;
		w = get_be(b + fl->off, fl->len);
		w = (w & ~m) |
		    (rnd_value(fl) << uet_wd_mask_shift(fl->mask) & m);
		put_be(b + fl->off, fl->len, w);
	}
}

/* Bits of the header some field describes (reserved ones included). */
static void coverage(const struct uet_wd_fmt *f, uint8_t *cov)
{
	const struct uet_wd_field *fl;
	uint64_t m;
	size_t i;
	unsigned int k;

	memset(cov, 0, HDR_MAX);
	for (i = 0; i < f->n; i++) {
		fl = &f->f[i];
		if (fl->kind == UET_WD_BYTES || fl->kind == UET_WD_RSVD ||
		    !fl->mask) {
			memset(cov + fl->off, 0xff, fl->len);
			continue;
		}
		m = fl->mask;
		for (k = 0; k < fl->len; k++)
			cov[fl->off + k] |= (uint8_t)(m >> (8 * (fl->len - 1 - k)));
	}
}

/* One profile and format: the number of mismatches (messages on
 * stderr); *ok the valid samples found. */
static unsigned int check_fmt(enum uet_wire_prof wp, unsigned int id,
			      unsigned int *ok)
{
	const struct uet_wd_fmt *f = uet_wd_fmt(wp, id);
	uint8_t b[HDR_MAX], out[HDR_MAX], flip[HDR_MAX], cov[HDR_MAX];
	union hdr h, h2;
	unsigned int bad = 0, tries, bit;
	uint64_t hv, wv;
	ssize_t n;
	size_t i;

	*ok = 0;
	coverage(f, cov);
	for (tries = 0; tries < TRIES && *ok < SAMPLES && bad < 5; tries++) {
		gen(f, b);
		n = wd_decode(wp, id, &h, b, f->len);
		if (n < 0)
			continue;
		(*ok)++;
		if ((size_t)n != f->len) {
			fprintf(stderr, "%s %s: codec length %zd, described "
				"%u\n", uet_wire_prof_str(wp), f->name, n,
				f->len);
			bad++;
		}
		for (i = 0; i < f->n; i++) {
			const struct uet_wd_field *fl = &f->f[i];

			if (!uet_wd_present(fl, b))
				continue;
			if (fl->kind == UET_WD_BYTES) {
				if (memcmp((uint8_t *)&h + fl->moff,
					   b + fl->off, fl->len)) {
					fprintf(stderr, "%s %s.%s: bytes differ\n",
						uet_wire_prof_str(wp), f->name,
						fl->name);
					bad++;
				}
				continue;
			}
			if (!uet_wd_host_value(wp, fl, &h, &hv))
				continue;
			wv = uet_wd_wire_value(fl, b);
			if (hv != wv) {
				fprintf(stderr, "%s %s.%s (byte %u mask %#llx): "
					"wire %#llx, codec member %#llx\n",
					uet_wire_prof_str(wp), f->name,
					fl->name, fl->off,
					(unsigned long long)fl->mask,
					(unsigned long long)wv,
					(unsigned long long)hv);
				bad++;
			}
		}
		memset(out, 0xa5, sizeof(out));
		n = wd_encode(wp, id, &h, out, f->len);
		if (n != (ssize_t)f->len || memcmp(out, b, f->len)) {
			fprintf(stderr, "%s %s: encode of the decode gives %zd "
				"bytes, not the same\n", uet_wire_prof_str(wp),
				f->name, n);
			bad++;
		}
		/* a bit no field describes changes nothing decoded */
		for (bit = 0; bit < 8u * f->len; bit++) {
			if (cov[bit / 8] & (0x80u >> (bit % 8)))
				continue;
			memcpy(flip, b, f->len);
			flip[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
			if (wd_decode(wp, id, &h2, flip, f->len) > 0 &&
			    memcmp(&h, &h2, f->hsize)) {
				fprintf(stderr, "%s %s: byte %u bit %#x is "
					"decoded but not described\n",
					uet_wire_prof_str(wp), f->name,
					bit / 8, 0x80u >> (bit % 8));
				bad++;
			}
		}
	}
	return bad;
}

START_TEST(test_fields_vs_codec)
{
	enum uet_wire_prof wp = (enum uet_wire_prof)_i;
	unsigned int id, bad, ok, nfail = 0;

	for (id = 1; id < UET_WD_NFMT; id++) {
		bad = check_fmt(wp, id, &ok);
		if (ok < SAMPLES / 10)
			bad++;
		if (pending(wp, id)) {
			printf("%s %s: pending (expected to fail): %s\n",
			       uet_wire_prof_str(wp), uet_wd_fmt(wp, id)->name,
			       bad ? "fails" : "PASSES");
			if (!bad) {
				fprintf(stderr, "%s: passes, take it out of "
					"ue_pending\n", uet_wd_fmt(wp, id)->name);
				nfail++;
			}
			continue;
		}
		printf("%s %s: %u samples, %s\n", uet_wire_prof_str(wp),
		       uet_wd_fmt(wp, id)->name, ok, bad ? "FAIL" : "ok");
		if (bad)
			nfail++;
	}
	ck_assert_uint_eq(nfail, 0);
}
END_TEST

/* The chain: uet_ses_request_format's choice is the rules'. */
START_TEST(test_ses_chain)
{
	enum uet_wire_prof wp = (enum uet_wire_prof)_i;
	static const unsigned int ids[] = {
		[UET_SES_FMT_STD_SOM1] = UET_WD_STD_SOM1,
		[UET_SES_FMT_STD_SOM0] = UET_WD_STD_SOM0,
		[UET_SES_FMT_SMALL_MSG] = UET_WD_SMALL_MSG,
		[UET_SES_FMT_OPT_NONMATCH] = UET_WD_OPT_NONMATCH,
		[UET_SES_FMT_DEFER_SEND] = UET_WD_DEFER_SEND,
		[UET_SES_FMT_RTR] = UET_WD_RTR,
		[UET_SES_FMT_RSP] = UET_WD_RSP,
		[UET_SES_FMT_RSP_DATA] = UET_WD_RSP_DATA,
		[UET_SES_FMT_OPT_RSP_DATA] = UET_WD_OPT_RSP_DATA,
		[UET_SES_FMT_DEFAULT_RSP] = UET_WD_DEFAULT_SES_RSP,
	};
	unsigned int nh, b0, b1, d;
	uint8_t s[2];
	int c;

	for (nh = 0; nh < 16; nh++)
		for (b0 = 0; b0 < 256; b0++)
			for (b1 = 0; b1 < 256; b1 += 1) {
				s[0] = (uint8_t)b0;
				s[1] = (uint8_t)b1;
				c = uet_ses_request_format(wp, nh, s, 2);
				d = uet_wd_ses_fmt(wp, nh, s, 2);
				if (c > 0)
					ck_assert_msg(ids[c] == d,
						      "nh %u %02x %02x: codec %s",
						      nh, b0, b1,
						      uet_ses_format_str((unsigned)c));
				else
					ck_assert_msg(d == UET_WD_NONE,
						      "nh %u %02x %02x: desc %u",
						      nh, b0, b1, d);
			}
}
END_TEST

/* Extensions: CAS exactly for the codec's CAS opcodes; lengths. */
START_TEST(test_ext_chain)
{
	enum uet_wire_prof wp = (enum uet_wire_prof)_i;
	const struct uet_wd_fmt *som1 = uet_wd_fmt(wp, UET_WD_STD_SOM1);
	uint8_t b[HDR_MAX] = { 0 };
	unsigned int op, amo, x;

	ck_assert_uint_eq(uet_wd_fmt(wp, UET_WD_ATOMIC_EXT)->len,
			  uet_ses_ext_len(wp, UET_SES_EXT_ATOMIC));
	ck_assert_uint_eq(uet_wd_fmt(wp, UET_WD_CAS_EXT)->len,
			  uet_ses_ext_len(wp, UET_SES_EXT_CAS));
	ck_assert_uint_eq(uet_wd_fmt(wp, UET_WD_RDZV_EXT)->len,
			  uet_ses_ext_len(wp, UET_SES_EXT_RDZV));
	for (op = 0; op <= UET_SES_OPCODE_MAX; op++)
		for (amo = 0; amo < 256; amo++) {
			b[0] = (uint8_t)op;
			b[1] = 0x01;
			b[som1->len] = (uint8_t)amo;
			x = uet_wd_ext_fmt(wp, UET_WD_STD_SOM1, b, sizeof(b));
			if (op == UET_RENDEZVOUS_SEND ||
			    op == UET_RENDEZVOUS_TSEND)
				ck_assert_uint_eq(x, UET_WD_RDZV_EXT);
			else if (op == UET_ATOMIC || op == UET_FETCHING_ATOMIC)
				ck_assert_uint_eq(x, uet_ses_amo_uses_cas(wp,
					(uint8_t)amo) ? UET_WD_CAS_EXT :
					UET_WD_ATOMIC_EXT);
			else if (op != UET_TSEND_ATOMIC &&
				 op != UET_TSEND_FETCH_ATOMIC)
				ck_assert_uint_eq(x, UET_WD_NONE);
		}
}
END_TEST

/* PDS lengths are the codecs'; the entropy span is the NIC's. */
START_TEST(test_pds_lengths)
{
	enum uet_wire_prof wp = (enum uet_wire_prof)_i;
	unsigned int t, id;

	for (t = 0; t <= UET_PDS_TYPE_FIELD_MAX; t++) {
		id = uet_wd_pds_fmt(wp, t);
		if (!id) {
			ck_assert_uint_eq(uet_pds_type_len(wp, t), 0);
			continue;
		}
		ck_assert_uint_eq(uet_wd_fmt(wp, id)->len,
				  uet_pds_type_len(wp, t));
	}
	ck_assert_uint_eq(uet_wd_fmt(wp, UET_WD_DEFAULT_SES_RSP)->len,
			  uet_ses_format_len(wp, UET_SES_FMT_DEFAULT_RSP));
	ck_assert_uint_eq(UET_WD_ENTROPY_SPAN, UET_LINK_ENT_SPAN);
}
END_TEST

static Suite *wire_desc_suite(void)
{
	Suite *s = suite_create("wire_desc");
	TCase *tc = tcase_create("desc");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_fields_vs_codec, 0, UET_WIRE_NPROF);
	tcase_add_loop_test(tc, test_ses_chain, 0, UET_WIRE_NPROF);
	tcase_add_loop_test(tc, test_ext_chain, 0, UET_WIRE_NPROF);
	tcase_add_loop_test(tc, test_pds_lengths, 0, UET_WIRE_NPROF);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(wire_desc_suite)
