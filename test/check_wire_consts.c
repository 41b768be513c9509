/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every wire constant pinned to the number printed in the spec tables
 * (the documents in ../shared/spec/).  The expected values are literal
 * numbers, never another constant of wire/, so changing a value in
 * uet_wire_consts.h fails a test here.  Where the documents contradict each other the
 * pinned number is the reading recorded in docs/conformance.md, and the
 * group names the C- or D- entry.
 */
#include "config.h"

#include <string.h>

#include "uet_test.h"
#include "uet_cms_wire.h"
#include "uet_wire.h"

/* One row of a spec table: the constant as compiled, the printed value
 * and the name the dissector prints for that value. */
struct row {
	unsigned int got;
	unsigned int want;
	const char *name;
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void check_rows(const char *table, const struct row *r, size_t n,
		       const char *(*str)(unsigned int))
{
	size_t i;

	for (i = 0; i < n; i++) {
		ck_assert_msg(r[i].got == r[i].want,
			      "%s: %s is 0x%x, the table says 0x%x", table,
			      r[i].name, r[i].got, r[i].want);
		if (str)
			ck_assert_msg(!strcmp(str(r[i].want), r[i].name),
				      "%s: name of 0x%x is %s, want %s", table,
				      r[i].want, str(r[i].want), r[i].name);
	}
}

/*
 * pds-formats.md section 2, "PDS Type Values" table (UE 1.0.1 numbering).
 * The 3.x headings ("RUD Request (Type 0x01)", "ROD ... 0x02") and the
 * Format Summary disagree with it: conformance.md C-1 keeps the section-2
 * table.  The other headings (ACK 0x07 ... ROD_CC 0x0E) agree.
 */
START_TEST(test_pds_types)
{
	const struct row r[] = {
		{ UET_PDS_TYPE_RESERVED, 0, "RESERVED" },
		{ UET_PDS_TYPE_TSS, 1, "TSS" },
		{ UET_PDS_TYPE_RUD_REQ, 2, "RUD_REQ" },
		{ UET_PDS_TYPE_ROD_REQ, 3, "ROD_REQ" },
		{ UET_PDS_TYPE_RUDI_REQ, 4, "RUDI_REQ" },
		{ UET_PDS_TYPE_RUDI_RESP, 5, "RUDI_RESP" },
		{ UET_PDS_TYPE_UUD_REQ, 6, "UUD_REQ" },
		{ UET_PDS_TYPE_ACK, 7, "ACK" },
		{ UET_PDS_TYPE_ACK_CC, 8, "ACK_CC" },
		{ UET_PDS_TYPE_ACK_CCX, 9, "ACK_CCX" },
		{ UET_PDS_TYPE_NACK, 10, "NACK" },
		{ UET_PDS_TYPE_CP, 11, "CP" },
		{ UET_PDS_TYPE_NACK_CCX, 12, "NACK_CCX" },
		{ UET_PDS_TYPE_RUD_CC_REQ, 13, "RUD_CC_REQ" },
		{ UET_PDS_TYPE_ROD_CC_REQ, 14, "ROD_CC_REQ" },
		{ UET_PDS_TYPE_MAX, 14, "ROD_CC_REQ" },
	};

	check_rows("pds-formats.md 2", r, N(r), uet_pds_type_str);
	ck_assert_str_eq(uet_pds_type_str(15), "UNKNOWN");
	ck_assert_str_eq(uet_pds_type_str(31), "UNKNOWN");
}
END_TEST

/*
 * next_hdr (4 bits).  congestion-and-packet-flow.md (the UET_WRITE
 * walk-through): "UET_HDR_REQUEST_STD = 0x3".  The rest is UE 1.0.1
 * Table 3-16, chosen over the 0x0-based list of ses-formats.md section 1
 * and tagged-send section 3 (conformance.md C-2).
 */
START_TEST(test_next_hdr)
{
	const struct row r[] = {
		{ UET_HDR_NONE, 0x0, "UET_HDR_NONE" },
		{ UET_HDR_REQUEST_SMALL, 0x1, "UET_HDR_REQUEST_SMALL" },
		{ UET_HDR_REQUEST_MEDIUM, 0x2, "UET_HDR_REQUEST_MEDIUM" },
		{ UET_HDR_REQUEST_STD, 0x3, "UET_HDR_REQUEST_STD" },
		{ UET_HDR_RESPONSE, 0x4, "UET_HDR_RESPONSE" },
		{ UET_HDR_RESPONSE_DATA, 0x5, "UET_HDR_RESPONSE_DATA" },
		{ UET_HDR_RESPONSE_DATA_SMALL, 0x6,
		  "UET_HDR_RESPONSE_DATA_SMALL" },
		{ UET_HDR_MAX, 0x6, "UET_HDR_RESPONSE_DATA_SMALL" },
	};

	check_rows("next_hdr (C-2)", r, N(r), uet_next_hdr_str);
	ck_assert_str_eq(uet_next_hdr_str(0x7), "UNKNOWN");
	ck_assert_str_eq(uet_next_hdr_str(0xf), "UNKNOWN");
}
END_TEST

/* pds-formats.md 3.14, "Control Packet Subtypes" (UE 1.0.1 Table 3-38). */
START_TEST(test_cp_types)
{
	const struct row r[] = {
		{ UET_CTL_NOOP, 0, "NOOP" },
		{ UET_CTL_ACK_REQUEST, 1, "ACK_REQUEST" },
		{ UET_CTL_CLEAR_COMMAND, 2, "CLEAR_COMMAND" },
		{ UET_CTL_CLEAR_REQUEST, 3, "CLEAR_REQUEST" },
		{ UET_CTL_CLOSE_COMMAND, 4, "CLOSE_COMMAND" },
		{ UET_CTL_CLOSE_REQUEST, 5, "CLOSE_REQUEST" },
		{ UET_CTL_PROBE, 6, "PROBE" },
		{ UET_CTL_CREDIT, 7, "CREDIT" },
		{ UET_CTL_CREDIT_REQUEST, 8, "CREDIT_REQUEST" },
		{ UET_CTL_NEGOTIATION, 9, "NEGOTIATION" },
		{ UET_CTL_MAX, 9, "NEGOTIATION" },
	};

	check_rows("pds-formats.md 3.14", r, N(r), uet_ctl_type_str);
	ck_assert_str_eq(uet_ctl_type_str(10), "UNKNOWN");
	ck_assert_str_eq(uet_ctl_type_str(15), "UNKNOWN");
}
END_TEST

/* pds-formats.md 3.9, "NACK Codes (Table 3-59)", kept as documented (D-1). */
START_TEST(test_nack_codes)
{
	const struct row r[] = {
		{ UET_NACK_NO_PKT_BUF, 0x00, "UET_NO_PKT_BUF" },
		{ UET_NACK_TRIMMED, 0x01, "UET_TRIMMED" },
		{ UET_NACK_NO_PDC_AVAIL, 0x02, "UET_NO_PDC_AVAIL" },
		{ UET_NACK_INV_DPDCID, 0x03, "UET_INV_DPDCID" },
		{ UET_NACK_PDC_HDR_MISMATCH, 0x04, "UET_PDC_HDR_MISMATCH" },
		{ UET_NACK_PSN_OOR_WINDOW, 0x05, "UET_PSN_OOR_WINDOW" },
		{ UET_NACK_PSN_GAP, 0x06, "UET_PSN_GAP" },
		{ UET_NACK_MAX, 0x06, "UET_PSN_GAP" },
	};

	check_rows("pds-formats.md 3.9 Table 3-59", r, N(r),
		   uet_nack_code_str);
	ck_assert_str_eq(uet_nack_code_str(0x07), "UNKNOWN");
	ck_assert_str_eq(uet_nack_code_str(0xff), "UNKNOWN");
}
END_TEST

/*
 * pds-formats.md 3.7, "CC Type Values" (tagged-send-and-encapsulation.md
 * 4.2 "CC State Compact Fields" agrees: 0=NSCC, 1=CREDIT); pdc_info bit 0
 * use_rsv_pdc and
 * bits 3:1 reserved, psn_offset 12 bits (pds-formats.md 3.1 field notes,
 * Table 3-33).
 */
START_TEST(test_cc_types_pdc_info)
{
	const struct row r[] = {
		{ UET_CC_NSCC, 0x0, "CC_NSCC" },
		{ UET_CC_CREDIT, 0x1, "CC_CREDIT" },
	};
	const struct row bits[] = {
		{ UET_PDC_INFO_USE_RSV_PDC, 0x1, "use_rsv_pdc" },
		{ UET_PDC_INFO_RSVD_MASK, 0xe, "pdc_info[3:1] reserved" },
		{ UET_PSN_OFFSET_MAX, 0xfff, "psn_offset 12 bits" },
	};

	check_rows("pds-formats.md 3.7", r, N(r), uet_cc_type_str);
	ck_assert_str_eq(uet_cc_type_str(0x2), "UNKNOWN");
	check_rows("pds-formats.md 3.1 Table 3-33", bits, N(bits), NULL);
}
END_TEST

/*
 * SES request opcodes (6 bits).  ses-formats.md Table 3-17 prints a list
 * that mixes header formats into opcodes (Tagged Send 0x00 ... Small
 * Atomic CAS 0x0D) and contradicts its own 3.13 (Small RMA carries
 * UET_WRITE / UET_READ); conformance.md C-3 keeps UE 1.0.1 Table 3-17.
 * The two rows both agree on: RMA Write 0x01 = UET_WRITE, RMA Read 0x02
 * = UET_READ (and the walk-through's UET_WRITE).
 */
START_TEST(test_ses_opcodes)
{
	const struct row r[] = {
		{ UET_NO_OP, 0x00, "UET_NO_OP" },
		{ UET_WRITE, 0x01, "UET_WRITE" },
		{ UET_READ, 0x02, "UET_READ" },
		{ UET_ATOMIC, 0x03, "UET_ATOMIC" },
		{ UET_FETCHING_ATOMIC, 0x04, "UET_FETCHING_ATOMIC" },
		{ UET_SEND, 0x05, "UET_SEND" },
		{ UET_RENDEZVOUS_SEND, 0x06, "UET_RENDEZVOUS_SEND" },
		{ UET_DATAGRAM_SEND, 0x07, "UET_DATAGRAM_SEND" },
		{ UET_DEFERRABLE_SEND, 0x08, "UET_DEFERRABLE_SEND" },
		{ UET_TAGGED_SEND, 0x09, "UET_TAGGED_SEND" },
		{ UET_RENDEZVOUS_TSEND, 0x0a, "UET_RENDEZVOUS_TSEND" },
		{ UET_DEFERRABLE_TSEND, 0x0b, "UET_DEFERRABLE_TSEND" },
		{ UET_DEFERRABLE_RTR, 0x0c, "UET_DEFERRABLE_RTR" },
		{ UET_TSEND_ATOMIC, 0x0d, "UET_TSEND_ATOMIC" },
		{ UET_TSEND_FETCH_ATOMIC, 0x0e, "UET_TSEND_FETCH_ATOMIC" },
		{ UET_MSG_ERROR, 0x0f, "UET_MSG_ERROR" },
		{ UET_SES_OPCODE_MAX, 0x0f, "UET_MSG_ERROR" },
	};

	check_rows("SES opcodes (C-3)", r, N(r), uet_ses_opcode_str);
	ck_assert_str_eq(uet_ses_opcode_str(0x10), "UNKNOWN");
	ck_assert_str_eq(uet_ses_opcode_str(0x3f), "UNKNOWN");
}
END_TEST

/*
 * SES response opcodes.  ses-formats.md Table 3-18 (Response 0x00 ...
 * NACK 0x03) against pds-formats.md 3.13 and the walk-through, which
 * name UET_DEFAULT_RESPONSE / UET_NO_RESPONSE: conformance.md C-4 keeps
 * UE 1.0.1 Table 3-18.  List indicator: UET_EXPECTED (walk-through).
 */
START_TEST(test_ses_rsp_opcodes)
{
	const struct row r[] = {
		{ UET_DEFAULT_RESPONSE, 0x00, "UET_DEFAULT_RESPONSE" },
		{ UET_RESPONSE, 0x01, "UET_RESPONSE" },
		{ UET_RESPONSE_W_DATA, 0x02, "UET_RESPONSE_W_DATA" },
		{ UET_NO_RESPONSE, 0x03, "UET_NO_RESPONSE" },
		{ UET_SES_RSP_OPCODE_MAX, 0x03, "UET_NO_RESPONSE" },
	};
	const struct row list[] = {
		{ UET_LIST_EXPECTED, 0, "UET_EXPECTED" },
		{ UET_LIST_UNEXPECTED, 1, "UET_UNEXPECTED" },
	};

	check_rows("SES response opcodes (C-4)", r, N(r),
		   uet_ses_rsp_opcode_str);
	ck_assert_str_eq(uet_ses_rsp_opcode_str(0x04), "UNKNOWN");
	check_rows("list", list, N(list), NULL);
}
END_TEST

/*
 * SES return codes (6 bits).  ses-formats.md Table 3-19 has RC_OK 0x00
 * and no RC_NULL, which pds-formats.md 3.13 needs ("RC_NULL or RC_OK"):
 * conformance.md C-5 keeps UE 1.0.1 Table 3-19 (37 codes) and maps the
 * documents' names onto it (second table).
 */
START_TEST(test_ses_return_codes)
{
	const struct row r[] = {
		{ UET_RC_NULL, 0x00, "RC_NULL" },
		{ UET_RC_OK, 0x01, "RC_OK" },
		{ UET_RC_BAD_GENERATION, 0x02, "RC_BAD_GENERATION" },
		{ UET_RC_DISABLED, 0x03, "RC_DISABLED" },
		{ UET_RC_DISABLED_GEN, 0x04, "RC_DISABLED_GEN" },
		{ UET_RC_NO_MATCH, 0x05, "RC_NO_MATCH" },
		{ UET_RC_UNSUPPORTED_OP, 0x06, "RC_UNSUPPORTED_OP" },
		{ UET_RC_UNSUPPORTED_SIZE, 0x07, "RC_UNSUPPORTED_SIZE" },
		{ UET_RC_AT_INVALID, 0x08, "RC_AT_INVALID" },
		{ UET_RC_AT_PERM, 0x09, "RC_AT_PERM" },
		{ UET_RC_AT_ATS_ERROR, 0x0a, "RC_AT_ATS_ERROR" },
		{ UET_RC_AT_NO_TRANS, 0x0b, "RC_AT_NO_TRANS" },
		{ UET_RC_AT_OUT_OF_RANGE, 0x0c, "RC_AT_OUT_OF_RANGE" },
		{ UET_RC_HOST_POISONED, 0x0d, "RC_HOST_POISONED" },
		{ UET_RC_HOST_UNSUCCESS_CMPL, 0x0e, "RC_HOST_UNSUCCESS_CMPL" },
		{ UET_RC_AMO_UNSUPPORTED_OP, 0x0f, "RC_AMO_UNSUPPORTED_OP" },
		{ UET_RC_AMO_UNSUPPORTED_DT, 0x10, "RC_AMO_UNSUPPORTED_DT" },
		{ UET_RC_AMO_UNSUPPORTED_SIZE, 0x11,
		  "RC_AMO_UNSUPPORTED_SIZE" },
		{ UET_RC_AMO_UNALIGNED, 0x12, "RC_AMO_UNALIGNED" },
		{ UET_RC_AMO_FP_NAN, 0x13, "RC_AMO_FP_NAN" },
		{ UET_RC_AMO_FP_UNDERFLOW, 0x14, "RC_AMO_FP_UNDERFLOW" },
		{ UET_RC_AMO_FP_OVERFLOW, 0x15, "RC_AMO_FP_OVERFLOW" },
		{ UET_RC_AMO_FP_INEXACT, 0x16, "RC_AMO_FP_INEXACT" },
		{ UET_RC_PERM_VIOLATION, 0x17, "RC_PERM_VIOLATION" },
		{ UET_RC_OP_VIOLATION, 0x18, "RC_OP_VIOLATION" },
		{ UET_RC_BAD_INDEX, 0x19, "RC_BAD_INDEX" },
		{ UET_RC_BAD_PID, 0x1a, "RC_BAD_PID" },
		{ UET_RC_BAD_JOB_ID, 0x1b, "RC_BAD_JOB_ID" },
		{ UET_RC_BAD_MKEY, 0x1c, "RC_BAD_MKEY" },
		{ UET_RC_BAD_ADDR, 0x1d, "RC_BAD_ADDR" },
		{ UET_RC_CANCELLED, 0x1e, "RC_CANCELLED" },
		{ UET_RC_UNDELIVERABLE, 0x1f, "RC_UNDELIVERABLE" },
		{ UET_RC_UNCOR, 0x20, "RC_UNCOR" },
		{ UET_RC_UNCOR_TRNSNT, 0x21, "RC_UNCOR_TRNSNT" },
		{ UET_RC_TOO_LONG, 0x22, "RC_TOO_LONG" },
		{ UET_RC_INITIATOR_ERR, 0x23, "RC_INITIATOR_ERR" },
		{ UET_RC_DROPPED, 0x24, "RC_DROPPED" },
		{ UET_RC_MAX, 0x24, "RC_DROPPED" },
	};
	/* ses-formats.md Table 3-19 names -> UE 1.0.1 codes (C-5) */
	const struct row alias[] = {
		{ UET_RC_GENERATION_MISMATCH, 0x02, "RC_BAD_GENERATION" },
		{ UET_RC_AUTHORIZATION_FAILURE, 0x1c, "RC_BAD_MKEY" },
		{ UET_RC_BUFFER_TOO_SMALL, 0x22, "RC_TOO_LONG" },
		{ UET_RC_INVALID_OPERATION, 0x06, "RC_UNSUPPORTED_OP" },
		{ UET_RC_RESOURCE_EXHAUSTION, 0x24, "RC_DROPPED" },
	};

	check_rows("SES return codes (C-5)", r, N(r), uet_ses_rc_str);
	check_rows("Table 3-19 names (C-5)", alias, N(alias), uet_ses_rc_str);
	ck_assert_str_eq(uet_ses_rc_str(0x25), "UNKNOWN");
	ck_assert_str_eq(uet_ses_rc_str(0x3f), "UNKNOWN");
}
END_TEST

/* ses-formats.md 3.7, "Atomic Opcodes (Table 3-21)" (agrees with UE 1.0.1). */
START_TEST(test_amo_opcodes)
{
	const struct row r[] = {
		{ UET_AMO_MIN, 0x00, "MIN" },
		{ UET_AMO_MAX, 0x01, "MAX" },
		{ UET_AMO_SUM, 0x02, "SUM" },
		{ UET_AMO_DIFF, 0x03, "DIFF" },
		{ UET_AMO_PROD, 0x04, "PROD" },
		{ UET_AMO_LOR, 0x05, "LOR" },
		{ UET_AMO_LAND, 0x06, "LAND" },
		{ UET_AMO_BOR, 0x07, "BOR" },
		{ UET_AMO_BAND, 0x08, "BAND" },
		{ UET_AMO_LXOR, 0x09, "LXOR" },
		{ UET_AMO_BXOR, 0x0a, "BXOR" },
		{ UET_AMO_READ, 0x0b, "READ" },
		{ UET_AMO_WRITE, 0x0c, "WRITE" },
		{ UET_AMO_CSWAP, 0x0d, "CSWAP" },
		{ UET_AMO_CSWAP_NE, 0x0e, "CSWAP_NE" },
		{ UET_AMO_CSWAP_LE, 0x0f, "CSWAP_LE" },
		{ UET_AMO_CSWAP_LT, 0x10, "CSWAP_LT" },
		{ UET_AMO_CSWAP_GE, 0x11, "CSWAP_GE" },
		{ UET_AMO_CSWAP_GT, 0x12, "CSWAP_GT" },
		{ UET_AMO_MSWAP, 0x13, "MSWAP" },
		{ UET_AMO_INVAL, 0x14, "INVAL" },
		{ UET_AMO_OP_MAX, 0x14, "INVAL" },
	};

	check_rows("ses-formats.md 3.7 Table 3-21", r, N(r), uet_amo_op_str);
	ck_assert_str_eq(uet_amo_op_str(0x15), "UNKNOWN");
	ck_assert_str_eq(uet_amo_op_str(0xff), "UNKNOWN");
}
END_TEST

/*
 * ses-formats.md 3.7, "Atomic Datatypes (Table 3-22)", code, name and
 * size, kept as documented (D-2).  0x0c, 0x0d are not in the table.
 * Semantic-control bits (Table 3-23 is cited, not printed; UE 1.0.1).
 */
START_TEST(test_amo_dtypes)
{
	static const struct {
		unsigned int got, want;
		const char *name;
		size_t size;
	} r[] = {
		{ UET_AMO_INT8, 0x00, "INT8", 1 },
		{ UET_AMO_UINT8, 0x01, "UINT8", 1 },
		{ UET_AMO_INT16, 0x02, "INT16", 2 },
		{ UET_AMO_UINT16, 0x03, "UINT16", 2 },
		{ UET_AMO_INT32, 0x04, "INT32", 4 },
		{ UET_AMO_UINT32, 0x05, "UINT32", 4 },
		{ UET_AMO_INT64, 0x06, "INT64", 8 },
		{ UET_AMO_UINT64, 0x07, "UINT64", 8 },
		{ UET_AMO_FLOAT, 0x08, "FLOAT", 4 },
		{ UET_AMO_DOUBLE, 0x09, "DOUBLE", 8 },
		{ UET_AMO_FLOAT_COMPLEX, 0x0a, "FLOAT_COMPLEX", 8 },
		{ UET_AMO_DOUBLE_COMPLEX, 0x0b, "DOUBLE_COMPLEX", 16 },
		{ UET_AMO_FLOAT16, 0x0e, "FLOAT16", 2 },
		{ UET_AMO_BFLOAT16, 0x0f, "BFLOAT16", 2 },
	};
	const struct row semctl[] = {
		{ UET_AMO_SEMCTL_CACHEABLE, 0x0001, "cacheable" },
		{ UET_AMO_SEMCTL_CPU_COHERENT, 0x0002, "cpu_coherent" },
	};
	unsigned int v;
	size_t i;

	for (i = 0; i < N(r); i++) {
		ck_assert_msg(r[i].got == r[i].want, "%s is 0x%x, want 0x%x",
			      r[i].name, r[i].got, r[i].want);
		ck_assert_str_eq(uet_amo_dtype_str(r[i].want), r[i].name);
		ck_assert_uint_eq(uet_amo_dtype_size(r[i].want), r[i].size);
	}
	ck_assert_uint_eq(UET_AMO_DTYPE_MAX, 0x0f);
	for (v = 0x0c; v <= 0x0d; v++) {
		ck_assert_uint_eq(uet_amo_dtype_size(v), 0);
		ck_assert_str_eq(uet_amo_dtype_str(v), "UNKNOWN");
	}
	/* UE 1.0.1's 128-bit integers: host values past UE+'s codes */
	ck_assert_uint_eq(UET_AMO_INT128, 0x10);
	ck_assert_uint_eq(UET_AMO_UINT128, 0x11);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_INT128), 16);
	ck_assert_uint_eq(uet_amo_dtype_size(UET_AMO_UINT128), 16);
	ck_assert_str_eq(uet_amo_dtype_str(UET_AMO_UINT128), "UINT128");
	for (v = 0x12; v <= 0xff; v++)
		ck_assert_uint_eq(uet_amo_dtype_size(v), 0);
	check_rows("Table 3-23", semctl, N(semctl), NULL);
}
END_TEST

/*
 * Header lengths in bytes, each as printed in its section heading or
 * format summary:
 *   pds-formats.md 3 "Format Summary" and headings 3.1-3.14;
 *   ses-formats.md 3 "Format Summary" and headings 3.1-3.13;
 *   tagged-send-and-encapsulation.md TSS table (12 B, C-22).
 * Departures: ACK_CC 32 not 28 (C-8), ACK_CCX 40 not 44 (C-9), SOM=0
 * 44 not 16 (C-16).  The CMS state sizes are ack_cc_state's 64 bits
 * (pds-formats.md 3.7) and ack_ccx_state's 16 bytes (3.8).
 */
START_TEST(test_header_lengths)
{
	const struct row r[] = {
		{ UET_PDS_PROLOGUE_LEN, 2, "PDS prologue (section 2)" },
		{ UET_PDS_RUD_ROD_REQ_LEN, 12, "RUD/ROD request (3.1, 3.2)" },
		{ UET_PDS_RUDI_LEN, 6, "RUDI request/response (3.3, 3.4)" },
		{ UET_PDS_UUD_REQ_LEN, 6, "UUD request (3.5)" },
		{ UET_PDS_ACK_LEN, 12, "ACK (3.6)" },
		{ UET_PDS_ACK_CC_LEN, 32, "ACK_CC (3.7, C-8)" },
		{ UET_PDS_ACK_CCX_LEN, 40, "ACK_CCX (3.8, C-9)" },
		{ UET_PDS_NACK_LEN, 12, "NACK (3.9)" },
		{ UET_PDS_NACK_CCX_LEN, 28, "NACK_CCX (3.10)" },
		{ UET_PDS_RUD_ROD_CC_REQ_LEN, 28, "RUD_CC/ROD_CC (3.11)" },
		{ UET_PDS_ENTROPY_LEN, 4, "entropy header (3.12)" },
		{ UET_PDS_DEFAULT_SES_RSP_LEN, 8, "default SES rsp (3.13)" },
		{ UET_PDS_CP_LEN, 12, "control packet (3.14)" },
		{ UET_SES_STD_SOM1_LEN, 44, "standard SOM=1 (3.1)" },
		{ UET_SES_STD_SOM0_LEN, 44, "standard SOM=0 (3.2, C-16)" },
		{ UET_SES_RSP_LEN, 16, "response (3.3)" },
		{ UET_SES_RSP_DATA_LEN, 24, "response with data (3.4)" },
		{ UET_SES_SMALL_MSG_LEN, 32, "small message / RMA (3.5, 3.13)" },
		{ UET_SES_RDZV_EXT_LEN, 32, "rendezvous extension (3.6)" },
		{ UET_SES_ATOMIC_EXT_LEN, 8, "atomic extension (3.7)" },
		{ UET_SES_CAS_EXT_LEN, 40, "CAS extension (3.8)" },
		{ UET_SES_DEFER_SEND_LEN, 44, "deferrable send (3.9)" },
		{ UET_SES_RTR_LEN, 44, "ready to restart (3.10)" },
		{ UET_SES_OPT_NONMATCH_LEN, 32, "opt. non-matching (3.11)" },
		{ UET_SES_OPT_RSP_DATA_LEN, 16, "opt. response w/ data (3.12)" },
		{ UET_CMS_CC_STATE_COMPACT_LEN, 8, "ack_cc_state (3.7)" },
		{ UET_CMS_CC_STATE_WIDE_LEN, 16, "ack_ccx_state (3.8)" },
		{ UET_TSS_HDR_LEN, 12, "TSS header (C-22)" },
	};

	check_rows("header lengths", r, N(r), NULL);
}
END_TEST

/*
 * Field widths and fixed values of ses-formats.md 3.1 (Table 3-8:
 * opcode 6 bits, version "0 for v1.0.1", job_id 24, pid_on_fep 12,
 * resource_index 12) and 3.5 (request_length 14 bits, "Max 16383
 * bytes"); the UDP port (C-18: 4793, not tagged-send 4.1's 4791).
 */
START_TEST(test_field_widths)
{
	const struct row r[] = {
		{ UET_SES_OPCODE_FIELD_MAX, 0x3f, "opcode 6 bits" },
		{ UET_SES_VERSION, 0, "version" },
		{ UET_JOB_ID_MAX, 0xffffff, "job_id 24 bits" },
		{ UET_PID_ON_FEP_MAX, 0xfff, "pid_on_fep 12 bits" },
		{ UET_RESOURCE_INDEX_MAX, 0xfff, "resource_index 12 bits" },
		{ UET_SES_SMALL_LEN_MAX, 16383, "small request_length" },
		{ UET_CMS_SENT_BYTES_MAX, 0xffffff, "CMS sent bytes 24 bits" },
		{ UET_UDP_PORT, 4793, "UDP port (C-18)" },
	};

	check_rows("field widths", r, N(r), NULL);
}
END_TEST

START_TEST(test_wire_errors)
{
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

	tcase_add_test(tc, test_pds_types);
	tcase_add_test(tc, test_next_hdr);
	tcase_add_test(tc, test_cp_types);
	tcase_add_test(tc, test_nack_codes);
	tcase_add_test(tc, test_cc_types_pdc_info);
	tcase_add_test(tc, test_ses_opcodes);
	tcase_add_test(tc, test_ses_rsp_opcodes);
	tcase_add_test(tc, test_ses_return_codes);
	tcase_add_test(tc, test_amo_opcodes);
	tcase_add_test(tc, test_amo_dtypes);
	tcase_add_test(tc, test_header_lengths);
	tcase_add_test(tc, test_field_widths);
	tcase_add_test(tc, test_wire_errors);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(wire_consts_suite)
