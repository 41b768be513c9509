/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every numeric constant of the UE+ wire protocol, in one place.
 *
 * Source: ../shared/spec/{pds,ses}-formats.md, tagged-send-and-
 * encapsulation.md and congestion-and-packet-flow.md.  Where those
 * documents contradict themselves or each other, the value here is the
 * one that agrees with UE Specification 1.0.1; each such choice is
 * listed, with its reason, in docs/conformance.md ("Contradictions").
 * A change of reading is one edit in this file.
 */
#ifndef UET_WIRE_CONSTS_H
#define UET_WIRE_CONSTS_H

#include <stddef.h>
#include <stdint.h>

/* UDP destination port for UET (UE 1.0.1; see conformance.md C-18). */
#define UET_UDP_PORT			4793

/* ------------------------------------------------------------------ */
/* Format sizes in bytes (PDS sizes include the 2-byte prologue).      */
/* ------------------------------------------------------------------ */
#define UET_PDS_PROLOGUE_LEN		2
#define UET_PDS_RUD_ROD_REQ_LEN		12
#define UET_PDS_RUDI_LEN		6	/* request and response */
#define UET_PDS_UUD_REQ_LEN		6
#define UET_PDS_ACK_LEN			12
#define UET_PDS_ACK_CC_LEN		32
#define UET_PDS_ACK_CCX_LEN		40
#define UET_PDS_NACK_LEN		12
#define UET_PDS_NACK_CCX_LEN		28
#define UET_PDS_RUD_ROD_CC_REQ_LEN	28
#define UET_PDS_CP_LEN			12
#define UET_PDS_ENTROPY_LEN		4
#define UET_PDS_DEFAULT_SES_RSP_LEN	8

#define UET_SES_STD_SOM1_LEN		44
#define UET_SES_STD_SOM0_LEN		44	/* C-16 */
#define UET_SES_SMALL_MSG_LEN		32	/* also Small RMA */
#define UET_SES_OPT_NONMATCH_LEN	32
#define UET_SES_RSP_LEN			16
#define UET_SES_RSP_DATA_LEN		24
#define UET_SES_OPT_RSP_DATA_LEN	16
#define UET_SES_ATOMIC_EXT_LEN		8
#define UET_SES_CAS_EXT_LEN		40
#define UET_SES_RDZV_EXT_LEN		32
#define UET_SES_DEFER_SEND_LEN		44
#define UET_SES_RTR_LEN			44

#define UET_CMS_CC_STATE_COMPACT_LEN	8
#define UET_CMS_CC_STATE_WIDE_LEN	16
/*
 * Sizes that differ in the UE 1.0.1 profile (UET_WIRE_UE); the ones
 * above are UE+'s.  Outside wire/, sizes come from uet_pds_type_len(),
 * uet_ses_format_len() and uet_ses_ext_len() of the active profile;
 * the _MAX values below size buffers for either profile.
 */
#define UET_PDS_UE_RUDI_LEN		8
#define UET_PDS_UE_UUD_REQ_LEN		4
#define UET_PDS_UE_ACK_CCX_LEN		40
#define UET_PDS_UE_NACK_LEN		16
#define UET_PDS_UE_NACK_CCX_LEN		32
#define UET_PDS_UE_RUD_ROD_CC_REQ_LEN	16
#define UET_PDS_UE_CP_LEN		16
#define UET_PDS_UE_DEFAULT_SES_RSP_LEN	12
#define UET_SES_UE_SMALL_MSG_LEN	32	/* medium request */
#define UET_SES_UE_OPT_NONMATCH_LEN	20	/* small request */
#define UET_SES_UE_RSP_LEN		12
#define UET_SES_UE_RSP_DATA_LEN		20
#define UET_SES_UE_OPT_RSP_DATA_LEN	12
#define UET_SES_UE_ATOMIC_EXT_LEN	4
#define UET_SES_UE_CAS_EXT_LEN		36
#define UET_SES_UE_RDZV_EXT_LEN		24

/* Either profile: the largest of each. */
#define UET_PDS_NACK_LEN_MAX		16
#define UET_PDS_CP_LEN_MAX		16
#define UET_PDS_RUDI_LEN_MAX		8
#define UET_PDS_DEFAULT_SES_RSP_LEN_MAX	12
#define UET_PDS_REQ_LEN_MAX		28	/* RUD/ROD(_CC), RUDI, UUD */
#define UET_SES_RSP_LEN_MAX		16

#define UET_TSS_HDR_LEN			12

/* ------------------------------------------------------------------ */
/* PDS                                                                 */
/* ------------------------------------------------------------------ */

/* PDS prologue type, 5 bits (pds-formats.md section 2; C-1). */
enum uet_pds_type {
	UET_PDS_TYPE_RESERVED	= 0,
	UET_PDS_TYPE_TSS	= 1,
	UET_PDS_TYPE_RUD_REQ	= 2,
	UET_PDS_TYPE_ROD_REQ	= 3,
	UET_PDS_TYPE_RUDI_REQ	= 4,
	UET_PDS_TYPE_RUDI_RESP	= 5,
	UET_PDS_TYPE_UUD_REQ	= 6,
	UET_PDS_TYPE_ACK	= 7,
	UET_PDS_TYPE_ACK_CC	= 8,
	UET_PDS_TYPE_ACK_CCX	= 9,
	UET_PDS_TYPE_NACK	= 10,
	UET_PDS_TYPE_CP		= 11,
	UET_PDS_TYPE_NACK_CCX	= 12,
	UET_PDS_TYPE_RUD_CC_REQ	= 13,
	UET_PDS_TYPE_ROD_CC_REQ	= 14,
	UET_PDS_TYPE_MAX	= 14,
	UET_PDS_TYPE_FIELD_MAX	= 31,	/* 5 bits */
};

/*
 * PDS next_hdr, 4 bits: which SES header follows (UE 1.0.1 Table 3-16;
 * congestion-and-packet-flow.md uses UET_HDR_REQUEST_STD = 0x3; C-2).
 * Mapping to the formats of ses-formats.md:
 *   REQUEST_SMALL       -> Optimized Non-Matching (32 B)
 *   REQUEST_MEDIUM      -> Small Message / Small RMA (32 B)
 *   REQUEST_STD         -> Standard SOM=1 (44 B) / SOM=0 (44 B, som bit 0),
 *                          Deferrable Send (44 B), Ready-to-Restart (44 B)
 *   RESPONSE            -> Response (16 B), or the PDS Default SES
 *                          Response (8 B) when the opcode is
 *                          UET_DEFAULT_RESPONSE or UET_NO_RESPONSE
 *   RESPONSE_DATA       -> Response with Data (24 B)
 *   RESPONSE_DATA_SMALL -> Optimized Response with Data (16 B)
 */
enum uet_next_hdr {
	UET_HDR_NONE			= 0x0,
	UET_HDR_REQUEST_SMALL		= 0x1,
	UET_HDR_REQUEST_MEDIUM		= 0x2,
	UET_HDR_REQUEST_STD		= 0x3,
	UET_HDR_RESPONSE		= 0x4,
	UET_HDR_RESPONSE_DATA		= 0x5,
	UET_HDR_RESPONSE_DATA_SMALL	= 0x6,
	UET_HDR_MAX			= 0x6,
};

/* Control packet subtype, carried in the next_hdr bits (Table 3-38). */
enum uet_pds_ctl_type {
	UET_CTL_NOOP		= 0,
	UET_CTL_ACK_REQUEST	= 1,
	UET_CTL_CLEAR_COMMAND	= 2,
	UET_CTL_CLEAR_REQUEST	= 3,
	UET_CTL_CLOSE_COMMAND	= 4,
	UET_CTL_CLOSE_REQUEST	= 5,
	UET_CTL_PROBE		= 6,
	UET_CTL_CREDIT		= 7,
	UET_CTL_CREDIT_REQUEST	= 8,
	UET_CTL_NEGOTIATION	= 9,
	UET_CTL_MAX		= 9,
};

/* NACK codes (pds-formats.md 3.9, kept as documented; see D-1). */
enum uet_nack_code {
	UET_NACK_NO_PKT_BUF		= 0x00,
	UET_NACK_TRIMMED		= 0x01,
	UET_NACK_NO_PDC_AVAIL		= 0x02,
	UET_NACK_INV_DPDCID		= 0x03,
	UET_NACK_PDC_HDR_MISMATCH	= 0x04,
	UET_NACK_PSN_OOR_WINDOW		= 0x05,
	UET_NACK_PSN_GAP		= 0x06,
	UET_NACK_MAX			= 0x06,
};

/* UE 1.0.1's NACK codes (all three readings agree; docs/conformance.md):
 * the codec maps UE+'s to these, and these back. */
enum uet_nack_ue_code {
	UET_NACK_UE_TRIMMED		= 0x01,
	UET_NACK_UE_TRIMMED_LASTHOP	= 0x02,
	UET_NACK_UE_TRIMMED_ACK		= 0x03,
	UET_NACK_UE_NO_PDC_AVAIL	= 0x04,
	UET_NACK_UE_NO_CCC_AVAIL	= 0x05,
	UET_NACK_UE_NO_BITMAP		= 0x06,
	UET_NACK_UE_NO_PKT_BUFFER	= 0x07,
	UET_NACK_UE_NO_GTD_DEL_AVAIL	= 0x08,
	UET_NACK_UE_NO_SES_MSG_AVAIL	= 0x09,
	UET_NACK_UE_NO_RESOURCE		= 0x0a,
	UET_NACK_UE_PSN_OOR_WINDOW	= 0x0b,
	UET_NACK_UE_ROD_OOO		= 0x0d,
	UET_NACK_UE_INV_DPDCID		= 0x0e,
	UET_NACK_UE_PDC_HDR_MISMATCH	= 0x0f,
	UET_NACK_UE_CLOSING		= 0x10,
	UET_NACK_UE_CLOSING_IN_ERR	= 0x11,
	UET_NACK_UE_PKT_NOT_RCVD	= 0x12,
	UET_NACK_UE_GTD_DEL_RESP_UNAVAIL = 0x13,
	UET_NACK_UE_ACK_WITH_DATA	= 0x14,
	UET_NACK_UE_INVALID_SYN		= 0x15,
	UET_NACK_UE_PDC_MODE_MISMATCH	= 0x16,
	UET_NACK_UE_NEW_START_PSN	= 0x17,
	UET_NACK_UE_RCVD_SES_PROCG	= 0x18,
	UET_NACK_UE_UNEXP_EVENT		= 0x19,
	UET_NACK_UE_RCVR_INFER_LOSS	= 0x1a,
};

/* pdc_info (4 bits, in dpdcid[15:12] when syn=1; Table 3-33). */
#define UET_PDC_INFO_USE_RSV_PDC	0x1
#define UET_PDC_INFO_RSVD_MASK		0xe
#define UET_PSN_OFFSET_MAX		0xfff	/* 12-bit psn_offset */

/* Congestion-control type in ACK_CC/ACK_CCX and CMS state (3.7). */
enum uet_cc_type {
	UET_CC_NSCC	= 0x0,
	UET_CC_CREDIT	= 0x1,
};

/* ------------------------------------------------------------------ */
/* SES                                                                 */
/* ------------------------------------------------------------------ */

/* SES request opcodes, 6 bits (UE 1.0.1 Table 3-17; C-3). */
enum uet_ses_opcode {
	UET_NO_OP		= 0x00,
	UET_WRITE		= 0x01,
	UET_READ		= 0x02,
	UET_ATOMIC		= 0x03,
	UET_FETCHING_ATOMIC	= 0x04,
	UET_SEND		= 0x05,
	UET_RENDEZVOUS_SEND	= 0x06,
	UET_DATAGRAM_SEND	= 0x07,
	UET_DEFERRABLE_SEND	= 0x08,
	UET_TAGGED_SEND		= 0x09,
	UET_RENDEZVOUS_TSEND	= 0x0a,
	UET_DEFERRABLE_TSEND	= 0x0b,
	UET_DEFERRABLE_RTR	= 0x0c,
	UET_TSEND_ATOMIC	= 0x0d,
	UET_TSEND_FETCH_ATOMIC	= 0x0e,
	UET_MSG_ERROR		= 0x0f,
	UET_SES_OPCODE_MAX	= 0x0f,
};

/* SES response opcodes, 6 bits (UE 1.0.1 Table 3-18; C-4). */
enum uet_ses_rsp_opcode {
	UET_DEFAULT_RESPONSE	= 0x00,
	UET_RESPONSE		= 0x01,
	UET_RESPONSE_W_DATA	= 0x02,
	UET_NO_RESPONSE		= 0x03,
	UET_SES_RSP_OPCODE_MAX	= 0x03,
};

/* Response list indicator (2 bits). */
enum uet_ses_list {
	UET_LIST_EXPECTED	= 0,
	UET_LIST_UNEXPECTED	= 1,
};

/* SES return codes, 6 bits (UE 1.0.1 Table 3-19; C-5). */
enum uet_ses_rc {
	UET_RC_NULL			= 0x00,
	UET_RC_OK			= 0x01,
	UET_RC_BAD_GENERATION		= 0x02,
	UET_RC_DISABLED			= 0x03,
	UET_RC_DISABLED_GEN		= 0x04,
	UET_RC_NO_MATCH			= 0x05,
	UET_RC_UNSUPPORTED_OP		= 0x06,
	UET_RC_UNSUPPORTED_SIZE		= 0x07,
	UET_RC_AT_INVALID		= 0x08,
	UET_RC_AT_PERM			= 0x09,
	UET_RC_AT_ATS_ERROR		= 0x0a,
	UET_RC_AT_NO_TRANS		= 0x0b,
	UET_RC_AT_OUT_OF_RANGE		= 0x0c,
	UET_RC_HOST_POISONED		= 0x0d,
	UET_RC_HOST_UNSUCCESS_CMPL	= 0x0e,
	UET_RC_AMO_UNSUPPORTED_OP	= 0x0f,
	UET_RC_AMO_UNSUPPORTED_DT	= 0x10,
	UET_RC_AMO_UNSUPPORTED_SIZE	= 0x11,
	UET_RC_AMO_UNALIGNED		= 0x12,
	UET_RC_AMO_FP_NAN		= 0x13,
	UET_RC_AMO_FP_UNDERFLOW		= 0x14,
	UET_RC_AMO_FP_OVERFLOW		= 0x15,
	UET_RC_AMO_FP_INEXACT		= 0x16,
	UET_RC_PERM_VIOLATION		= 0x17,
	UET_RC_OP_VIOLATION		= 0x18,
	UET_RC_BAD_INDEX		= 0x19,
	UET_RC_BAD_PID			= 0x1a,
	UET_RC_BAD_JOB_ID		= 0x1b,
	UET_RC_BAD_MKEY			= 0x1c,
	UET_RC_BAD_ADDR			= 0x1d,
	UET_RC_CANCELLED		= 0x1e,
	UET_RC_UNDELIVERABLE		= 0x1f,
	UET_RC_UNCOR			= 0x20,
	UET_RC_UNCOR_TRNSNT		= 0x21,
	UET_RC_TOO_LONG			= 0x22,
	UET_RC_INITIATOR_ERR		= 0x23,
	UET_RC_DROPPED			= 0x24,
	UET_RC_MAX			= 0x24,
};

/*
 * Names used by ses-formats.md Table 3-19 and by the issues, mapped to
 * the UE 1.0.1 code that carries the same meaning (C-5).
 */
#define UET_RC_GENERATION_MISMATCH	UET_RC_BAD_GENERATION
#define UET_RC_AUTHORIZATION_FAILURE	UET_RC_BAD_MKEY
#define UET_RC_BUFFER_TOO_SMALL		UET_RC_TOO_LONG
#define UET_RC_INVALID_OPERATION	UET_RC_UNSUPPORTED_OP
#define UET_RC_RESOURCE_EXHAUSTION	UET_RC_DROPPED

/* Atomic opcodes (Table 3-21; documents agree with UE 1.0.1). */
enum uet_amo_op {
	UET_AMO_MIN		= 0x00,
	UET_AMO_MAX		= 0x01,
	UET_AMO_SUM		= 0x02,
	UET_AMO_DIFF		= 0x03,
	UET_AMO_PROD		= 0x04,
	UET_AMO_LOR		= 0x05,
	UET_AMO_LAND		= 0x06,
	UET_AMO_BOR		= 0x07,
	UET_AMO_BAND		= 0x08,
	UET_AMO_LXOR		= 0x09,
	UET_AMO_BXOR		= 0x0a,
	UET_AMO_READ		= 0x0b,
	UET_AMO_WRITE		= 0x0c,
	UET_AMO_CSWAP		= 0x0d,
	UET_AMO_CSWAP_NE	= 0x0e,
	UET_AMO_CSWAP_LE	= 0x0f,
	UET_AMO_CSWAP_LT	= 0x10,
	UET_AMO_CSWAP_GE	= 0x11,
	UET_AMO_CSWAP_GT	= 0x12,
	UET_AMO_MSWAP		= 0x13,
	UET_AMO_INVAL		= 0x14,
	UET_AMO_OP_MAX		= 0x14,
};

/* Atomic datatypes (Table 3-22, kept as documented; see D-2). */
enum uet_amo_dtype {
	UET_AMO_INT8		= 0x00,
	UET_AMO_UINT8		= 0x01,
	UET_AMO_INT16		= 0x02,
	UET_AMO_UINT16		= 0x03,
	UET_AMO_INT32		= 0x04,
	UET_AMO_UINT32		= 0x05,
	UET_AMO_INT64		= 0x06,
	UET_AMO_UINT64		= 0x07,
	UET_AMO_FLOAT		= 0x08,
	UET_AMO_DOUBLE		= 0x09,
	UET_AMO_FLOAT_COMPLEX	= 0x0a,
	UET_AMO_DOUBLE_COMPLEX	= 0x0b,
	/* 0x0c, 0x0d undefined in Table 3-22 */
	UET_AMO_FLOAT16		= 0x0e,
	UET_AMO_BFLOAT16	= 0x0f,
	UET_AMO_DTYPE_MAX	= 0x0f,	/* of UE+'s codes */
	/* UE 1.0.1 only (UE+ has no code for them) */
	UET_AMO_INT128		= 0x10,
	UET_AMO_UINT128		= 0x11,
	UET_AMO_DTYPE_UNKNOWN	= 0xff,	/* a wire code no profile names */
};

/* UE 1.0.1's codes where they differ from UE+'s (docs/conformance.md);
 * the wire codecs translate, the rest of uet sees enum uet_amo_dtype. */
enum uet_amo_ue_dtype {
	UET_AMO_UE_INT128		= 0x08,
	UET_AMO_UE_UINT128		= 0x09,
	UET_AMO_UE_FLOAT		= 0x0a,
	UET_AMO_UE_DOUBLE		= 0x0b,
	UET_AMO_UE_FLOAT_COMPLEX	= 0x0c,
	UET_AMO_UE_DOUBLE_COMPLEX	= 0x0d,
	UET_AMO_UE_BFLOAT16		= 0x10,
	UET_AMO_UE_FLOAT16		= 0x11,
};

/* Atomic semantic_control bits (Table 3-23, UE 1.0.1). */
#define UET_AMO_SEMCTL_CACHEABLE	0x0001
#define UET_AMO_SEMCTL_CPU_COHERENT	0x0002

/* SES protocol version carried in every SES header. */
#define UET_SES_VERSION			0

/* Field-width limits. */
#define UET_JOB_ID_MAX			0xffffffu	/* 24 bits */
#define UET_PID_ON_FEP_MAX		0xfffu		/* 12 bits */
#define UET_RESOURCE_INDEX_MAX		0xfffu		/* 12 bits */
#define UET_SES_OPCODE_FIELD_MAX	0x3fu		/* 6 bits */
#define UET_SES_SMALL_LEN_MAX		16383u		/* 14 bits */

/* ------------------------------------------------------------------ */
/* Names for logs and the dissector.  Unknown values give "UNKNOWN".   */
/* ------------------------------------------------------------------ */
const char *uet_pds_type_str(unsigned int type);
const char *uet_next_hdr_str(unsigned int next_hdr);
const char *uet_ctl_type_str(unsigned int ctl_type);
const char *uet_nack_code_str(unsigned int code);
const char *uet_cc_type_str(unsigned int cc_type);
const char *uet_ses_opcode_str(unsigned int opcode);
const char *uet_ses_rsp_opcode_str(unsigned int opcode);
const char *uet_ses_rc_str(unsigned int rc);
const char *uet_amo_op_str(unsigned int op);
const char *uet_amo_dtype_str(unsigned int dtype);

/* Operand size in bytes of an atomic datatype, 0 if undefined. */
size_t uet_amo_dtype_size(unsigned int dtype);

#endif /* UET_WIRE_CONSTS_H */
