/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The constant tables: the values chosen where the spec documents
 * contradict each other (docs/conformance.md), and their names.
 */
#include "config.h"

#include <string.h>

#include "uet_test.h"
#include "uet_wire.h"

START_TEST(test_pds_types_ue_1_0_1)
{
	/* pds-formats.md section 2 (agrees with UE 1.0.1), not the 3.x
	 * headings that give RUD = 0x01 and ROD = 0x02 (C-1). */
	ck_assert_int_eq(UET_PDS_TYPE_TSS, 1);
	ck_assert_int_eq(UET_PDS_TYPE_RUD_REQ, 2);
	ck_assert_int_eq(UET_PDS_TYPE_ROD_REQ, 3);
	ck_assert_int_eq(UET_PDS_TYPE_RUDI_REQ, 4);
	ck_assert_int_eq(UET_PDS_TYPE_ACK, 7);
	ck_assert_int_eq(UET_PDS_TYPE_NACK, 10);
	ck_assert_int_eq(UET_PDS_TYPE_CP, 11);
	ck_assert_int_eq(UET_PDS_TYPE_RUD_CC_REQ, 13);
	ck_assert_int_eq(UET_PDS_TYPE_ROD_CC_REQ, 14);
	ck_assert_str_eq(uet_pds_type_str(UET_PDS_TYPE_RUD_REQ), "RUD_REQ");
	ck_assert_str_eq(uet_pds_type_str(UET_PDS_TYPE_ROD_CC_REQ),
			 "ROD_CC_REQ");
	ck_assert_str_eq(uet_pds_type_str(15), "UNKNOWN");
	ck_assert_str_eq(uet_pds_type_str(31), "UNKNOWN");
}
END_TEST

START_TEST(test_next_hdr_ue_1_0_1)
{
	/* congestion-and-packet-flow.md: UET_HDR_REQUEST_STD = 0x3 (C-2). */
	ck_assert_int_eq(UET_HDR_NONE, 0);
	ck_assert_int_eq(UET_HDR_REQUEST_SMALL, 1);
	ck_assert_int_eq(UET_HDR_REQUEST_MEDIUM, 2);
	ck_assert_int_eq(UET_HDR_REQUEST_STD, 3);
	ck_assert_int_eq(UET_HDR_RESPONSE, 4);
	ck_assert_int_eq(UET_HDR_RESPONSE_DATA, 5);
	ck_assert_int_eq(UET_HDR_RESPONSE_DATA_SMALL, 6);
	ck_assert_str_eq(uet_next_hdr_str(3), "UET_HDR_REQUEST_STD");
	ck_assert_str_eq(uet_next_hdr_str(7), "UNKNOWN");
}
END_TEST

START_TEST(test_ses_codes_ue_1_0_1)
{
	ck_assert_int_eq(UET_WRITE, 0x01);
	ck_assert_int_eq(UET_READ, 0x02);
	ck_assert_int_eq(UET_SEND, 0x05);
	ck_assert_int_eq(UET_TAGGED_SEND, 0x09);
	ck_assert_int_eq(UET_DEFERRABLE_RTR, 0x0c);
	ck_assert_int_eq(UET_DEFAULT_RESPONSE, 0x00);
	ck_assert_int_eq(UET_RESPONSE, 0x01);
	ck_assert_int_eq(UET_RESPONSE_W_DATA, 0x02);
	ck_assert_int_eq(UET_NO_RESPONSE, 0x03);
	/* RC_NULL and RC_OK are distinct (pds-formats.md 3.13), C-5. */
	ck_assert_int_eq(UET_RC_NULL, 0x00);
	ck_assert_int_eq(UET_RC_OK, 0x01);
	ck_assert_int_eq(UET_RC_DROPPED, 0x24);
	ck_assert_int_eq(UET_RC_GENERATION_MISMATCH, UET_RC_BAD_GENERATION);
	ck_assert_str_eq(uet_ses_opcode_str(UET_WRITE), "UET_WRITE");
	ck_assert_str_eq(uet_ses_rsp_opcode_str(UET_DEFAULT_RESPONSE),
			 "UET_DEFAULT_RESPONSE");
	ck_assert_str_eq(uet_ses_rc_str(UET_RC_OK), "RC_OK");
	ck_assert_str_eq(uet_ses_rc_str(UET_RC_MAX + 1), "UNKNOWN");
	ck_assert_str_eq(uet_ses_opcode_str(0x3f), "UNKNOWN");
}
END_TEST

/* Every defined value of a table has a distinct, known name. */
static void check_table(const char *(*fn)(unsigned int), unsigned int max)
{
	unsigned int i, j;

	for (i = 0; i <= max; i++) {
		ck_assert_str_ne(fn(i), "UNKNOWN");
		for (j = 0; j < i; j++)
			ck_assert_str_ne(fn(i), fn(j));
	}
	ck_assert_str_eq(fn(max + 1), "UNKNOWN");
	ck_assert_str_eq(fn(~0u), "UNKNOWN");
}

START_TEST(test_name_tables_complete)
{
	check_table(uet_pds_type_str, UET_PDS_TYPE_MAX);
	check_table(uet_next_hdr_str, UET_HDR_MAX);
	check_table(uet_ctl_type_str, UET_CTL_MAX);
	check_table(uet_nack_code_str, UET_NACK_MAX);
	check_table(uet_ses_opcode_str, UET_SES_OPCODE_MAX);
	check_table(uet_ses_rsp_opcode_str, UET_SES_RSP_OPCODE_MAX);
	check_table(uet_ses_rc_str, UET_RC_MAX);
	check_table(uet_amo_op_str, UET_AMO_OP_MAX);
	check_table(uet_cc_type_str, UET_CC_CREDIT);
}
END_TEST

START_TEST(test_amo_dtypes)
{
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_INT8), 1);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_UINT16), 2);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_FLOAT), 4);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_UINT64), 8);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_FLOAT_COMPLEX), 8);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_DOUBLE_COMPLEX), 16);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_BFLOAT16), 2);
	/* 0x0c and 0x0d are not defined by Table 3-22. */
	ck_assert_uint_eq(uet_amo_dtype_size(0x0c), 0);
	ck_assert_uint_eq(uet_amo_dtype_size(0x0d), 0);
	ck_assert_uint_eq(uet_amo_dtype_size(0x10), 0);
	ck_assert_str_eq(uet_amo_dtype_str(0x0c), "UNKNOWN");
	ck_assert_str_eq(uet_amo_dtype_str(UET_AMO_DOUBLE), "DOUBLE");
}
END_TEST

START_TEST(test_sizes_and_errors)
{
	/* Header-size arithmetic of the documents (C-6, C-7, C-13). */
	ck_assert_int_eq(UET_PDS_ACK_LEN, 12);
	ck_assert_int_eq(UET_PDS_ACK_CC_LEN, UET_PDS_ACK_LEN + 20);
	ck_assert_int_eq(UET_PDS_ACK_CCX_LEN, UET_PDS_ACK_LEN + 12 + 16);
	ck_assert_int_eq(UET_PDS_RUD_ROD_CC_REQ_LEN,
			 UET_PDS_RUD_ROD_REQ_LEN + 16);
	ck_assert_int_eq(UET_SES_STD_SOM1_LEN + UET_SES_RDZV_EXT_LEN, 76);
	ck_assert_int_eq(UET_UDP_PORT, 4793);
	ck_assert_str_eq(uet_wire_strerror(UET_WIRE_ETRUNC),
			 "input shorter than the header");
	ck_assert_str_eq(uet_wire_strerror(12), "success");
	ck_assert_str_eq(uet_wire_strerror(-12345), "unknown error");
	ck_assert_int_ne(UET_WIRE_ETRUNC, UET_WIRE_ENOBUFS);
	ck_assert_int_ne(UET_WIRE_ERESERVED, UET_WIRE_ERANGE);
	ck_assert_int_ne(UET_WIRE_ETYPE, UET_WIRE_ERANGE);
}
END_TEST

static Suite *wire_consts_suite(void)
{
	Suite *s = suite_create("wire_consts");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_pds_types_ue_1_0_1);
	tcase_add_test(tc, test_next_hdr_ue_1_0_1);
	tcase_add_test(tc, test_ses_codes_ue_1_0_1);
	tcase_add_test(tc, test_name_tables_complete);
	tcase_add_test(tc, test_amo_dtypes);
	tcase_add_test(tc, test_sizes_and_errors);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(wire_consts_suite)
