/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS header codec tests.
 *
 * Layout: ../shared/spec/tagged-send-and-encapsulation.md section 4.6
 * ("TSS Header Fields" table) and the 5.2 diagram, 12 bytes:
 *   byte 0 tss_type[7:4] tss_flags[3:0], 1-4 security_context_id,
 *   5-8 sequence_number, 9-11 reserved.
 */
#include <stdlib.h>
#include <string.h>

#include "uet_test.h"
#include "uet_tss_wire.h"

#define ROUNDTRIP_ITERS	2000
#define POISON		0xa5

/*
 * tss_type 0x5, tss_flags 0xa:  byte 0 = 0x5 << 4 | 0xa = 0x5a
 * security_context_id 0x01020304, sequence_number 0xfffffffe,
 * bytes 9-11 reserved 0
 */
static const uint8_t tss_vec[UET_TSS_HDR_LEN] = {
	0x5a, 0x01, 0x02, 0x03, 0x04, 0xff, 0xff, 0xff, 0xfe,
	0x00, 0x00, 0x00,
};

static const struct uet_tss_hdr tss_ref = {
	.tss_type = 0x5, .tss_flags = 0xa,
	.security_context_id = 0x01020304, .sequence_number = 0xfffffffe,
};

/* reserved bits: bytes 9-11 */
static const uint8_t tss_rsvd[UET_TSS_HDR_LEN] = {
	[9] = 0xff, [10] = 0xff, [11] = 0xff,
};

static void tss_eq(const struct uet_tss_hdr *a, const struct uet_tss_hdr *b)
{
	ck_assert_uint_eq(a->tss_type, b->tss_type);
	ck_assert_uint_eq(a->tss_flags, b->tss_flags);
	ck_assert_uint_eq(a->security_context_id, b->security_context_id);
	ck_assert_uint_eq(a->sequence_number, b->sequence_number);
}

/* Decode n bytes from an exact-size heap copy (ASan sees over-reads). */
static ssize_t dec_exact(struct uet_tss_hdr *h, const uint8_t *bytes,
			 size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	ssize_t ret;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, bytes, n);
	ret = uet_tss_hdr_decode(h, copy, n);
	free(copy);
	return ret;
}

START_TEST(test_known_vector)
{
	uint8_t b[UET_TSS_HDR_LEN + 4];
	struct uet_tss_hdr out;
	size_t i;

	memset(b, POISON, sizeof(b));
	ck_assert_int_eq(uet_tss_hdr_encode(b, UET_TSS_HDR_LEN, &tss_ref),
			 UET_TSS_HDR_LEN);
	for (i = 0; i < UET_TSS_HDR_LEN; i++)
		ck_assert_msg(b[i] == tss_vec[i], "byte %zu: 0x%02x != 0x%02x",
			      i, b[i], tss_vec[i]);
	ck_assert_uint_eq(b[UET_TSS_HDR_LEN], POISON);

	memset(&out, 0, sizeof(out));
	ck_assert_int_eq(dec_exact(&out, tss_vec, UET_TSS_HDR_LEN),
			 UET_TSS_HDR_LEN);
	tss_eq(&out, &tss_ref);

	/* trailing bytes are not consumed */
	memcpy(b, tss_vec, UET_TSS_HDR_LEN);
	memset(b + UET_TSS_HDR_LEN, 0xff, 4);
	ck_assert_int_eq(uet_tss_hdr_decode(&out, b, sizeof(b)),
			 UET_TSS_HDR_LEN);
	tss_eq(&out, &tss_ref);
}
END_TEST

START_TEST(test_byte0_nibbles)
{
	/* every byte-0 value is valid: type = high nibble, flags = low */
	uint8_t b[UET_TSS_HDR_LEN];
	struct uet_tss_hdr out;
	unsigned int v;

	for (v = 0; v <= 0xff; v++) {
		memcpy(b, tss_vec, sizeof(b));
		b[0] = (uint8_t)v;
		ck_assert_int_eq(uet_tss_hdr_decode(&out, b, sizeof(b)),
				 UET_TSS_HDR_LEN);
		ck_assert_uint_eq(out.tss_type, v >> 4);
		ck_assert_uint_eq(out.tss_flags, v & 0xf);
	}
}
END_TEST

START_TEST(test_roundtrip)
{
	uint8_t b[UET_TSS_HDR_LEN];
	struct uet_tss_hdr h, out;
	int n;

	for (n = 0; n < ROUNDTRIP_ITERS; n++) {
		h = (struct uet_tss_hdr){
			.tss_type = (uint8_t)uet_test_rand_bits(4),
			.tss_flags = (uint8_t)uet_test_rand_bits(4),
			.security_context_id =
				(uint32_t)uet_test_rand_bits(32),
			.sequence_number = (uint32_t)uet_test_rand_bits(32),
		};
		ck_assert_int_eq(uet_tss_hdr_encode(b, sizeof(b), &h),
				 UET_TSS_HDR_LEN);
		ck_assert(uet_bytes_are_zero(b + 9, 3));
		memset(&out, POISON, sizeof(out));
		ck_assert_int_eq(uet_tss_hdr_decode(&out, b, sizeof(b)),
				 UET_TSS_HDR_LEN);
		tss_eq(&out, &h);
	}
}
END_TEST

START_TEST(test_truncated)
{
	struct uet_tss_hdr out, before;
	size_t n;

	for (n = 0; n < UET_TSS_HDR_LEN; n++) {
		memset(&out, POISON, sizeof(out));
		memcpy(&before, &out, sizeof(out));
		ck_assert_msg(dec_exact(&out, tss_vec, n) == UET_WIRE_ETRUNC,
			      "prefix %zu", n);
		ck_assert(!memcmp(&out, &before, sizeof(out)));
	}
}
END_TEST

START_TEST(test_reserved_bits)
{
	uint8_t b[UET_TSS_HDR_LEN];
	struct uet_tss_hdr out, before;
	unsigned int bit, nrsvd = 0;
	size_t i;

	for (i = 0; i < UET_TSS_HDR_LEN; i++) {
		for (bit = 0; bit < 8; bit++) {
			uint8_t m = (uint8_t)(1u << bit);
			ssize_t ret;

			memcpy(b, tss_vec, sizeof(b));
			b[i] ^= m;
			memset(&out, POISON, sizeof(out));
			memcpy(&before, &out, sizeof(out));
			ret = dec_exact(&out, b, sizeof(b));
			if (tss_rsvd[i] & m) {
				ck_assert_msg(ret == UET_WIRE_ERESERVED,
					      "byte %zu bit %u: %zd", i, bit,
					      ret);
				ck_assert(!memcmp(&out, &before,
						  sizeof(out)));
				nrsvd++;
			} else {
				ck_assert_msg(ret == UET_TSS_HDR_LEN,
					      "byte %zu bit %u: %zd", i, bit,
					      ret);
			}
		}
	}
	ck_assert_uint_eq(nrsvd, 24);
}
END_TEST

static void check_enc_err(const struct uet_tss_hdr *h, const char *what)
{
	uint8_t b[UET_TSS_HDR_LEN + 4], before[UET_TSS_HDR_LEN + 4];
	ssize_t ret;

	memset(b, POISON, sizeof(b));
	memcpy(before, b, sizeof(b));
	ret = uet_tss_hdr_encode(b, sizeof(b), h);
	ck_assert_msg(ret == UET_WIRE_ERANGE, "%s: got %zd", what, ret);
	ck_assert_msg(!memcmp(b, before, sizeof(b)), "%s: written", what);
}

START_TEST(test_invalid)
{
	struct uet_tss_hdr h;
	unsigned int v;

	for (v = 0x10; v <= 0xff; v++) {
		h = tss_ref;
		h.tss_type = (uint8_t)v;
		check_enc_err(&h, "tss_type");
		h = tss_ref;
		h.tss_flags = (uint8_t)v;
		check_enc_err(&h, "tss_flags");
	}
	/* widest valid values encode */
	h = tss_ref;
	h.tss_type = 0xf;
	h.tss_flags = 0xf;
	{
		uint8_t b[UET_TSS_HDR_LEN];

		ck_assert_int_eq(uet_tss_hdr_encode(b, sizeof(b), &h),
				 UET_TSS_HDR_LEN);
		ck_assert_uint_eq(b[0], 0xff);
	}
}
END_TEST

START_TEST(test_enobufs)
{
	uint8_t b[UET_TSS_HDR_LEN + 4], before[UET_TSS_HDR_LEN + 4];
	size_t n;

	for (n = 0; n < UET_TSS_HDR_LEN; n++) {
		uint8_t *exact = malloc(n ? n : 1);

		memset(b, POISON, sizeof(b));
		memcpy(before, b, sizeof(b));
		ck_assert_int_eq(uet_tss_hdr_encode(b, n, &tss_ref),
				 UET_WIRE_ENOBUFS);
		ck_assert(!memcmp(b, before, sizeof(b)));
		ck_assert_ptr_nonnull(exact);
		ck_assert_int_eq(uet_tss_hdr_encode(exact, n, &tss_ref),
				 UET_WIRE_ENOBUFS);
		free(exact);
	}
}
END_TEST

/*
 * The destination context id uet sends after the TSS header when
 * tss_flags has UET_TSS_FLAG_DCI: 0xa1b2c3d4 is a1 b2 c3 d4; every
 * truncated prefix fails, short buffers are not written.
 */
START_TEST(test_dci)
{
	static const uint8_t vec[UET_TSS_DCI_LEN] = { 0xa1, 0xb2, 0xc3, 0xd4 };
	uint8_t b[UET_TSS_DCI_LEN + 2], *exact;
	uint32_t dci;
	size_t n;

	memset(b, POISON, sizeof(b));
	ck_assert_int_eq(uet_tss_dci_encode(b, UET_TSS_DCI_LEN, 0xa1b2c3d4u),
			 UET_TSS_DCI_LEN);
	ck_assert_mem_eq(b, vec, sizeof(vec));
	ck_assert_uint_eq(b[UET_TSS_DCI_LEN], POISON);
	for (n = 0; n <= UET_TSS_DCI_LEN; n++) {
		exact = malloc(n ? n : 1);
		ck_assert_ptr_nonnull(exact);
		memcpy(exact, vec, n);
		dci = 7;
		ck_assert_int_eq(uet_tss_dci_decode(&dci, exact, n),
				 n < UET_TSS_DCI_LEN ? UET_WIRE_ETRUNC :
						       UET_TSS_DCI_LEN);
		ck_assert_uint_eq(dci, n < UET_TSS_DCI_LEN ? 7 : 0xa1b2c3d4u);
		memset(b, POISON, sizeof(b));
		if (n < UET_TSS_DCI_LEN) {
			ck_assert_int_eq(uet_tss_dci_encode(b, n, 1),
					 UET_WIRE_ENOBUFS);
			ck_assert_uint_eq(b[0], POISON);
		}
		free(exact);
	}
	ck_assert_uint_eq(UET_TSS_FLAG_DCI & UET_TSS_FLAG_ANNOUNCE, 0);
	ck_assert_uint_le(UET_TSS_FLAG_DCI | UET_TSS_FLAG_ANNOUNCE, 0xf);
}
END_TEST

static Suite *tss_wire_suite(void)
{
	Suite *s = suite_create("tss_wire");
	TCase *tc = tcase_create("tss");

	tcase_add_test(tc, test_known_vector);
	tcase_add_test(tc, test_byte0_nibbles);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_reserved_bits);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_enobufs);
	tcase_add_test(tc, test_dci);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(tss_wire_suite)
