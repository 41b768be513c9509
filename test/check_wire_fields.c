/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Table-driven field codec tests (wire/uet_wire_fields.h): byte order,
 * widths, reserved bytes, the check passes and the one-loop check that
 * stands in for them on good headers.
 */
#include <string.h>

#include "uet_test.h"
#include "uet_wire_fields.h"

struct wf_demo {
	uint8_t a;
	uint16_t b;		/* 12 bits on the wire */
	uint32_t c;		/* 24 bits on the wire (BE only) */
	uint32_t d;		/* != 0 */
	uint64_t e;		/* even (ok) */
	uint8_t raw[3];
};

static bool even(uint64_t v)
{
	return !(v & 1);
}

/* a 0, b 1-2, c 3-5, rsvd 6-7, d 8-11, e 12-19, raw 20-22 */
static const struct uet_wire_field demo_fields[] = {
	UET_WF_U(struct wf_demo, a, 0, 1),
	UET_WF_U(struct wf_demo, b, 1, 2, .max = 0xfff),
	UET_WF_U(struct wf_demo, c, 3, 3),
	UET_WF_R(6, 2),
	UET_WF_U(struct wf_demo, d, 8, 4, .flags = UET_WF_NONZERO),
	UET_WF_U(struct wf_demo, e, 12, 8, .ok = even),
	UET_WF_B(struct wf_demo, raw, 20),
};

static const struct uet_wf_table demo_be = UET_WF_TABLE(demo_fields,
							UET_WF_BE);

static const struct wf_demo demo_ref = {
	.a = 0x11, .b = 0x0abc, .c = 0x123456, .d = 0x01020304,
	.e = 0x0102030405060708ull, .raw = { 0xaa, 0xbb, 0xcc },
};

static const uint8_t demo_vec[23] = {
	0x11, 0x0a, 0xbc, 0x12, 0x34, 0x56, 0x00, 0x00,
	0x01, 0x02, 0x03, 0x04,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0xaa, 0xbb, 0xcc,
};

START_TEST(test_be_vector)
{
	uint8_t b[sizeof(demo_vec)];
	struct wf_demo h;

	memset(b, 0xa5, sizeof(b));
	uet_wf_put(&demo_be, b, &demo_ref);
	ck_assert(!memcmp(b, demo_vec, sizeof(b)));
	memset(&h, 0, sizeof(h));
	uet_wf_get(&demo_be, &h, demo_vec);
	ck_assert(!memcmp(&h, &demo_ref, sizeof(h)));
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, demo_vec,
					   UET_WF_RESERVED), 0);
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, demo_vec,
					   UET_WF_REQUIRED), 0);
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, demo_vec,
					   UET_WF_VALUES), 0);
}
END_TEST

START_TEST(test_le_order)
{
	static const struct uet_wire_field le_fields[] = {
		UET_WF_U(struct wf_demo, b, 0, 2),
		UET_WF_U(struct wf_demo, d, 2, 4),
		UET_WF_U(struct wf_demo, e, 6, 8),
	};
	static const struct uet_wf_table le = UET_WF_TABLE(le_fields,
							   UET_WF_LE);
	static const uint8_t vec[14] = {
		0xbc, 0x0a, 0x04, 0x03, 0x02, 0x01,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
	};
	struct wf_demo h = { 0 };
	uint8_t b[sizeof(vec)];

	uet_wf_put(&le, b, &demo_ref);
	ck_assert(!memcmp(b, vec, sizeof(b)));
	uet_wf_get(&le, &h, vec);
	ck_assert_uint_eq(h.b, demo_ref.b);
	ck_assert_uint_eq(h.d, demo_ref.d);
	ck_assert(h.e == demo_ref.e);
	ck_assert_uint_eq(h.a, 0);	/* not in the table: untouched */
}
END_TEST

START_TEST(test_host_checks)
{
	struct wf_demo h = demo_ref;

	h.b = 0x1000;			/* above max */
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_RESERVED),
			 UET_WIRE_ERANGE);
	h = demo_ref;
	h.c = 0x1000000;		/* wider than 3 bytes */
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_RESERVED),
			 UET_WIRE_ERANGE);
	h = demo_ref;
	h.d = 0;
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_RESERVED), 0);
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_REQUIRED),
			 UET_WIRE_ERANGE);
	h = demo_ref;
	h.e |= 1;
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_REQUIRED), 0);
	ck_assert_int_eq(uet_wf_check_host(&demo_be, &h, UET_WF_VALUES),
			 UET_WIRE_ERANGE);
}
END_TEST

START_TEST(test_wire_checks)
{
	uint8_t b[sizeof(demo_vec)];

	memcpy(b, demo_vec, sizeof(b));
	b[7] = 0x01;			/* reserved byte */
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, b, UET_WF_RESERVED),
			 UET_WIRE_ERESERVED);
	memcpy(b, demo_vec, sizeof(b));
	b[1] = 0x1a;			/* a bit above b's 12 */
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, b, UET_WF_RESERVED),
			 UET_WIRE_ERESERVED);
	memcpy(b, demo_vec, sizeof(b));
	memset(b + 8, 0, 4);		/* d = 0 */
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, b, UET_WF_RESERVED), 0);
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, b, UET_WF_REQUIRED),
			 UET_WIRE_ERANGE);
	memcpy(b, demo_vec, sizeof(b));
	b[19] |= 1;			/* e odd */
	ck_assert_int_eq(uet_wf_check_wire(&demo_be, b, UET_WF_VALUES),
			 UET_WIRE_ERANGE);
}
END_TEST

struct wf_bits {
	bool f0;
	uint8_t lo;		/* bits 3:1 */
	uint16_t hi;		/* bits 15:8 */
	uint8_t marker;		/* decode only */
};

static bool marker_odd(uint64_t v)
{
	return v & 1;
}

/* LE16 word at 0: f0 bit 0, lo bits 3:1, reserved 7:4, hi 15:8;
 * byte 2 a decode-only marker. */
static const struct uet_wire_field bits_fields[] = {
	UET_WF_BIT(struct wf_bits, f0, 0, 2, 0, 1),
	UET_WF_BIT(struct wf_bits, lo, 0, 2, 1, 3, .max = 6),
	UET_WF_RB(0, 2, 4, 4),
	UET_WF_BIT(struct wf_bits, hi, 0, 2, 8, 8),
	UET_WF_U(struct wf_bits, marker, 2, 1, .flags = UET_WF_DECODE_ONLY,
		 .ok = marker_odd),
};

START_TEST(test_bits)
{
	static const struct uet_wf_table t = UET_WF_TABLE(bits_fields,
							  UET_WF_LE);
	struct wf_bits h = { .f0 = true, .lo = 5, .hi = 0xa5, .marker = 2 };
	uint8_t b[3] = { 0xff, 0xff, 0x77 };
	struct wf_bits g;

	ck_assert_int_eq(uet_wf_check_host(&t, &h, UET_WF_RESERVED), 0);
	/* the marker is not checked or written by encoders */
	ck_assert_int_eq(uet_wf_check_host(&t, &h, UET_WF_VALUES), 0);
	uet_wf_put(&t, b, &h);
	ck_assert_uint_eq(b[0], 0x0b);	/* 1 | 5 << 1, reserved cleared */
	ck_assert_uint_eq(b[1], 0xa5);
	ck_assert_uint_eq(b[2], 0x77);
	ck_assert_int_eq(uet_wf_check_wire(&t, b, UET_WF_RESERVED), 0);
	ck_assert_int_eq(uet_wf_check_wire(&t, b, UET_WF_VALUES), 0);
	memset(&g, 0, sizeof(g));
	uet_wf_get(&t, &g, b);
	ck_assert(g.f0);
	ck_assert_uint_eq(g.lo, 5);
	ck_assert_uint_eq(g.hi, 0xa5);
	ck_assert_uint_eq(g.marker, 0x77);

	b[0] |= 0x40;			/* a reserved bit */
	ck_assert_int_eq(uet_wf_check_wire(&t, b, UET_WF_RESERVED),
			 UET_WIRE_ERESERVED);
	b[0] = 0x0e;			/* lo = 7 > max */
	ck_assert_int_eq(uet_wf_check_wire(&t, b, UET_WF_RESERVED),
			 UET_WIRE_ERESERVED);
	h.lo = 7;
	ck_assert_int_eq(uet_wf_check_host(&t, &h, UET_WF_RESERVED),
			 UET_WIRE_ERANGE);
	b[0] = 0x0b;
	b[2] = 0x76;			/* marker refused by ok() */
	ck_assert_int_eq(uet_wf_check_wire(&t, b, UET_WF_VALUES),
			 UET_WIRE_ERANGE);
}
END_TEST

/* Bits of a word that no field names go out as zeros, whatever the
 * buffer held (the word is not read back). */
START_TEST(test_bits_fresh_word)
{
	static const struct uet_wire_field part_fields[] = {
		UET_WF_BIT(struct wf_bits, f0, 0, 2, 0, 1),
		UET_WF_BIT(struct wf_bits, hi, 0, 2, 8, 8),
	};
	static const struct uet_wf_table t = UET_WF_TABLE(part_fields,
							  UET_WF_LE);
	const struct wf_bits h = { .f0 = true, .hi = 0x5a };
	uint8_t b[3] = { 0xff, 0xff, 0x77 };

	uet_wf_put(&t, b, &h);
	ck_assert_uint_eq(b[0], 0x01);
	ck_assert_uint_eq(b[1], 0x5a);
	ck_assert_uint_eq(b[2], 0x77);	/* outside the table: untouched */
}
END_TEST

struct wf_typed {
	uint16_t v;		/* != 0 */
};

/* type byte 0x42, reserved byte, v (BE16) */
static const struct uet_wire_field typed_fields[] = {
	UET_WF_K(0, 1, 0x42),
	UET_WF_R(1, 1),
	UET_WF_U(struct wf_typed, v, 2, 2, .flags = UET_WF_NONZERO),
};

START_TEST(test_whole_format)
{
	static const struct uet_wf_table t = UET_WF_TABLE(typed_fields,
							  UET_WF_BE);
	const struct wf_typed ref = { .v = 0x1234 };
	uint8_t b[4] = { 0xff, 0xff, 0xff, 0xff };
	uint8_t before[4];
	struct wf_typed h = { .v = 7 };

	ck_assert_int_eq(uet_wf_encode(&t, 4, b, 3, &ref), UET_WIRE_ENOBUFS);
	memcpy(before, b, sizeof(b));
	ck_assert_int_eq(uet_wf_encode(&t, 4, b, 4, &(struct wf_typed){ 0 }),
			 UET_WIRE_ERANGE);
	ck_assert(!memcmp(b, before, sizeof(b)));	/* nothing written */
	ck_assert_int_eq(uet_wf_encode(&t, 4, b, 4, &ref), 4);
	ck_assert_uint_eq(b[0], 0x42);
	ck_assert_uint_eq(b[1], 0);
	ck_assert_uint_eq(b[2], 0x12);
	ck_assert_uint_eq(b[3], 0x34);

	ck_assert_int_eq(uet_wf_decode(&t, 4, sizeof(h), &h, b, 3),
			 UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_wf_decode(&t, 4, sizeof(h), &h, b, 4), 4);
	ck_assert_uint_eq(h.v, 0x1234);
	/* type before reserved before required */
	b[0] = 0x43;
	b[1] = 1;
	h.v = 7;
	ck_assert_int_eq(uet_wf_decode(&t, 4, sizeof(h), &h, b, 4),
			 UET_WIRE_ETYPE);
	b[0] = 0x42;
	b[2] = b[3] = 0;
	ck_assert_int_eq(uet_wf_decode(&t, 4, sizeof(h), &h, b, 4),
			 UET_WIRE_ERESERVED);
	b[1] = 0;
	ck_assert_int_eq(uet_wf_decode(&t, 4, sizeof(h), &h, b, 4),
			 UET_WIRE_ERANGE);
	ck_assert_uint_eq(h.v, 7);			/* untouched */
}
END_TEST

/* True when no ordered pass refuses buf (decode) or h (encode). */
static bool wire_passes_ok(const struct uet_wf_table *t, const uint8_t *buf)
{
	enum uet_wf_pass pass;

	for (pass = UET_WF_TYPE; pass <= UET_WF_VALUES; pass++)
		if (uet_wf_check_wire(t, buf, pass))
			return false;
	return true;
}

static bool host_passes_ok(const struct uet_wf_table *t, const void *h)
{
	enum uet_wf_pass pass;

	for (pass = UET_WF_TYPE; pass <= UET_WF_VALUES; pass++)
		if (uet_wf_check_host(t, h, pass))
			return false;
	return true;
}

/* Every value of every byte of a good header, one byte at a time: the
 * one-loop check agrees with the ordered passes. */
static void clean_matches_wire(const struct uet_wf_table *t,
			       const uint8_t *good, size_t len)
{
	uint8_t b[32];
	size_t i;
	unsigned int v;

	ck_assert_uint_le(len, sizeof(b));
	memcpy(b, good, len);
	ck_assert(uet_wf_wire_clean(t, b));
	for (i = 0; i < len; i++) {
		for (v = 0; v < 256; v++) {
			b[i] = (uint8_t)v;
			ck_assert_msg(uet_wf_wire_clean(t, b) ==
				      wire_passes_ok(t, b),
				      "byte %zu value 0x%02x", i, v);
		}
		b[i] = good[i];
	}
}

START_TEST(test_clean_matches_passes)
{
	static const struct uet_wf_table bits = UET_WF_TABLE(bits_fields,
							     UET_WF_LE);
	static const struct uet_wf_table typed = UET_WF_TABLE(typed_fields,
							      UET_WF_BE);
	static const uint8_t bits_vec[3] = { 0x0b, 0xa5, 0x77 };
	static const uint8_t typed_vec[4] = { 0x42, 0, 0x12, 0x34 };
	static const uint8_t typed_one[4] = { 0x42, 0, 0, 1 };
	static const uint16_t bv[] = { 0, 0xfff, 0x1000, 0xffff };
	static const uint32_t dv[] = { 0, 1, 0x1000000 };
	static const uint64_t ev[] = { 2, 3 };
	struct wf_demo h = demo_ref;
	struct wf_bits hb = { .marker = 2 };
	uint8_t demo_one[sizeof(demo_vec)];
	size_t i, j, k;

	/* one nonzero byte in d, so that one change can make it 0 */
	memcpy(demo_one, demo_vec, sizeof(demo_one));
	memset(demo_one + 8, 0, 3);
	clean_matches_wire(&demo_be, demo_vec, sizeof(demo_vec));
	clean_matches_wire(&demo_be, demo_one, sizeof(demo_one));
	clean_matches_wire(&bits, bits_vec, sizeof(bits_vec));
	clean_matches_wire(&typed, typed_vec, sizeof(typed_vec));
	clean_matches_wire(&typed, typed_one, sizeof(typed_one));

	for (i = 0; i < sizeof(bv) / sizeof(bv[0]); i++)
		for (j = 0; j < sizeof(dv) / sizeof(dv[0]); j++)
			for (k = 0; k < sizeof(ev) / sizeof(ev[0]); k++) {
				h.b = bv[i];
				h.c = dv[j];
				h.d = dv[j];
				h.e = ev[k];
				ck_assert(uet_wf_host_clean(&demo_be, &h) ==
					  host_passes_ok(&demo_be, &h));
			}
	for (i = 0; i < 16; i++) {
		hb.lo = (uint8_t)i;
		hb.hi = (uint16_t)(i << 6);
		ck_assert(uet_wf_host_clean(&bits, &hb) ==
			  host_passes_ok(&bits, &hb));
	}
}
END_TEST

static Suite *wire_fields_suite(void)
{
	Suite *s = suite_create("wire_fields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, test_be_vector);
	tcase_add_test(tc, test_le_order);
	tcase_add_test(tc, test_host_checks);
	tcase_add_test(tc, test_wire_checks);
	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_bits_fresh_word);
	tcase_add_test(tc, test_whole_format);
	tcase_add_test(tc, test_clean_matches_passes);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(wire_fields_suite)
