/* SPDX-License-Identifier: BSD-2-Clause */
/* Names of wire constants, for logs and the dissector. */
#include <strings.h>

#include "uet_wire.h"

#define NAME(tbl, v) \
	((v) < sizeof(tbl) / sizeof((tbl)[0]) && (tbl)[v] ? (tbl)[v] : "UNKNOWN")

const char *uet_pds_type_str(unsigned int type)
{
	static const char *const names[] = {
		[UET_PDS_TYPE_RESERVED] = "RESERVED",
		[UET_PDS_TYPE_TSS] = "TSS",
		[UET_PDS_TYPE_RUD_REQ] = "RUD_REQ",
		[UET_PDS_TYPE_ROD_REQ] = "ROD_REQ",
		[UET_PDS_TYPE_RUDI_REQ] = "RUDI_REQ",
		[UET_PDS_TYPE_RUDI_RESP] = "RUDI_RESP",
		[UET_PDS_TYPE_UUD_REQ] = "UUD_REQ",
		[UET_PDS_TYPE_ACK] = "ACK",
		[UET_PDS_TYPE_ACK_CC] = "ACK_CC",
		[UET_PDS_TYPE_ACK_CCX] = "ACK_CCX",
		[UET_PDS_TYPE_NACK] = "NACK",
		[UET_PDS_TYPE_CP] = "CP",
		[UET_PDS_TYPE_NACK_CCX] = "NACK_CCX",
		[UET_PDS_TYPE_RUD_CC_REQ] = "RUD_CC_REQ",
		[UET_PDS_TYPE_ROD_CC_REQ] = "ROD_CC_REQ",
	};
	return NAME(names, type);
}

const char *uet_next_hdr_str(unsigned int next_hdr)
{
	static const char *const names[] = {
		[UET_HDR_NONE] = "UET_HDR_NONE",
		[UET_HDR_REQUEST_SMALL] = "UET_HDR_REQUEST_SMALL",
		[UET_HDR_REQUEST_MEDIUM] = "UET_HDR_REQUEST_MEDIUM",
		[UET_HDR_REQUEST_STD] = "UET_HDR_REQUEST_STD",
		[UET_HDR_RESPONSE] = "UET_HDR_RESPONSE",
		[UET_HDR_RESPONSE_DATA] = "UET_HDR_RESPONSE_DATA",
		[UET_HDR_RESPONSE_DATA_SMALL] = "UET_HDR_RESPONSE_DATA_SMALL",
	};
	return NAME(names, next_hdr);
}

const char *uet_ctl_type_str(unsigned int ctl_type)
{
	static const char *const names[] = {
		[UET_CTL_NOOP] = "NOOP",
		[UET_CTL_ACK_REQUEST] = "ACK_REQUEST",
		[UET_CTL_CLEAR_COMMAND] = "CLEAR_COMMAND",
		[UET_CTL_CLEAR_REQUEST] = "CLEAR_REQUEST",
		[UET_CTL_CLOSE_COMMAND] = "CLOSE_COMMAND",
		[UET_CTL_CLOSE_REQUEST] = "CLOSE_REQUEST",
		[UET_CTL_PROBE] = "PROBE",
		[UET_CTL_CREDIT] = "CREDIT",
		[UET_CTL_CREDIT_REQUEST] = "CREDIT_REQUEST",
		[UET_CTL_NEGOTIATION] = "NEGOTIATION",
	};
	return NAME(names, ctl_type);
}

const char *uet_nack_code_str(unsigned int code)
{
	static const char *const names[] = {
		[UET_NACK_NO_PKT_BUF] = "UET_NO_PKT_BUF",
		[UET_NACK_TRIMMED] = "UET_TRIMMED",
		[UET_NACK_NO_PDC_AVAIL] = "UET_NO_PDC_AVAIL",
		[UET_NACK_INV_DPDCID] = "UET_INV_DPDCID",
		[UET_NACK_PDC_HDR_MISMATCH] = "UET_PDC_HDR_MISMATCH",
		[UET_NACK_PSN_OOR_WINDOW] = "UET_PSN_OOR_WINDOW",
		[UET_NACK_PSN_GAP] = "UET_PSN_GAP",
	};
	return NAME(names, code);
}

const char *uet_cc_type_str(unsigned int cc_type)
{
	static const char *const names[] = {
		[UET_CC_NSCC] = "CC_NSCC",
		[UET_CC_CREDIT] = "CC_CREDIT",
	};
	return NAME(names, cc_type);
}

const char *uet_ses_opcode_str(unsigned int opcode)
{
	static const char *const names[] = {
		[UET_NO_OP] = "UET_NO_OP",
		[UET_WRITE] = "UET_WRITE",
		[UET_READ] = "UET_READ",
		[UET_ATOMIC] = "UET_ATOMIC",
		[UET_FETCHING_ATOMIC] = "UET_FETCHING_ATOMIC",
		[UET_SEND] = "UET_SEND",
		[UET_RENDEZVOUS_SEND] = "UET_RENDEZVOUS_SEND",
		[UET_DATAGRAM_SEND] = "UET_DATAGRAM_SEND",
		[UET_DEFERRABLE_SEND] = "UET_DEFERRABLE_SEND",
		[UET_TAGGED_SEND] = "UET_TAGGED_SEND",
		[UET_RENDEZVOUS_TSEND] = "UET_RENDEZVOUS_TSEND",
		[UET_DEFERRABLE_TSEND] = "UET_DEFERRABLE_TSEND",
		[UET_DEFERRABLE_RTR] = "UET_DEFERRABLE_RTR",
		[UET_TSEND_ATOMIC] = "UET_TSEND_ATOMIC",
		[UET_TSEND_FETCH_ATOMIC] = "UET_TSEND_FETCH_ATOMIC",
		[UET_MSG_ERROR] = "UET_MSG_ERROR",
	};
	return NAME(names, opcode);
}

const char *uet_ses_rsp_opcode_str(unsigned int opcode)
{
	static const char *const names[] = {
		[UET_DEFAULT_RESPONSE] = "UET_DEFAULT_RESPONSE",
		[UET_RESPONSE] = "UET_RESPONSE",
		[UET_RESPONSE_W_DATA] = "UET_RESPONSE_W_DATA",
		[UET_NO_RESPONSE] = "UET_NO_RESPONSE",
	};
	return NAME(names, opcode);
}

const char *uet_ses_rc_str(unsigned int rc)
{
	static const char *const names[] = {
		[UET_RC_NULL] = "RC_NULL",
		[UET_RC_OK] = "RC_OK",
		[UET_RC_BAD_GENERATION] = "RC_BAD_GENERATION",
		[UET_RC_DISABLED] = "RC_DISABLED",
		[UET_RC_DISABLED_GEN] = "RC_DISABLED_GEN",
		[UET_RC_NO_MATCH] = "RC_NO_MATCH",
		[UET_RC_UNSUPPORTED_OP] = "RC_UNSUPPORTED_OP",
		[UET_RC_UNSUPPORTED_SIZE] = "RC_UNSUPPORTED_SIZE",
		[UET_RC_AT_INVALID] = "RC_AT_INVALID",
		[UET_RC_AT_PERM] = "RC_AT_PERM",
		[UET_RC_AT_ATS_ERROR] = "RC_AT_ATS_ERROR",
		[UET_RC_AT_NO_TRANS] = "RC_AT_NO_TRANS",
		[UET_RC_AT_OUT_OF_RANGE] = "RC_AT_OUT_OF_RANGE",
		[UET_RC_HOST_POISONED] = "RC_HOST_POISONED",
		[UET_RC_HOST_UNSUCCESS_CMPL] = "RC_HOST_UNSUCCESS_CMPL",
		[UET_RC_AMO_UNSUPPORTED_OP] = "RC_AMO_UNSUPPORTED_OP",
		[UET_RC_AMO_UNSUPPORTED_DT] = "RC_AMO_UNSUPPORTED_DT",
		[UET_RC_AMO_UNSUPPORTED_SIZE] = "RC_AMO_UNSUPPORTED_SIZE",
		[UET_RC_AMO_UNALIGNED] = "RC_AMO_UNALIGNED",
		[UET_RC_AMO_FP_NAN] = "RC_AMO_FP_NAN",
		[UET_RC_AMO_FP_UNDERFLOW] = "RC_AMO_FP_UNDERFLOW",
		[UET_RC_AMO_FP_OVERFLOW] = "RC_AMO_FP_OVERFLOW",
		[UET_RC_AMO_FP_INEXACT] = "RC_AMO_FP_INEXACT",
		[UET_RC_PERM_VIOLATION] = "RC_PERM_VIOLATION",
		[UET_RC_OP_VIOLATION] = "RC_OP_VIOLATION",
		[UET_RC_BAD_INDEX] = "RC_BAD_INDEX",
		[UET_RC_BAD_PID] = "RC_BAD_PID",
		[UET_RC_BAD_JOB_ID] = "RC_BAD_JOB_ID",
		[UET_RC_BAD_MKEY] = "RC_BAD_MKEY",
		[UET_RC_BAD_ADDR] = "RC_BAD_ADDR",
		[UET_RC_CANCELLED] = "RC_CANCELLED",
		[UET_RC_UNDELIVERABLE] = "RC_UNDELIVERABLE",
		[UET_RC_UNCOR] = "RC_UNCOR",
		[UET_RC_UNCOR_TRNSNT] = "RC_UNCOR_TRNSNT",
		[UET_RC_TOO_LONG] = "RC_TOO_LONG",
		[UET_RC_INITIATOR_ERR] = "RC_INITIATOR_ERR",
		[UET_RC_DROPPED] = "RC_DROPPED",
	};
	return NAME(names, rc);
}

const char *uet_amo_op_str(unsigned int op)
{
	static const char *const names[] = {
		[UET_AMO_MIN] = "MIN", [UET_AMO_MAX] = "MAX",
		[UET_AMO_SUM] = "SUM", [UET_AMO_DIFF] = "DIFF",
		[UET_AMO_PROD] = "PROD", [UET_AMO_LOR] = "LOR",
		[UET_AMO_LAND] = "LAND", [UET_AMO_BOR] = "BOR",
		[UET_AMO_BAND] = "BAND", [UET_AMO_LXOR] = "LXOR",
		[UET_AMO_BXOR] = "BXOR", [UET_AMO_READ] = "READ",
		[UET_AMO_WRITE] = "WRITE", [UET_AMO_CSWAP] = "CSWAP",
		[UET_AMO_CSWAP_NE] = "CSWAP_NE", [UET_AMO_CSWAP_LE] = "CSWAP_LE",
		[UET_AMO_CSWAP_LT] = "CSWAP_LT", [UET_AMO_CSWAP_GE] = "CSWAP_GE",
		[UET_AMO_CSWAP_GT] = "CSWAP_GT", [UET_AMO_MSWAP] = "MSWAP",
		[UET_AMO_INVAL] = "INVAL",
	};
	return NAME(names, op);
}

static const struct {
	const char *name;
	size_t size;
} amo_dtypes[] = {
	[UET_AMO_INT8] = { "INT8", 1 },
	[UET_AMO_UINT8] = { "UINT8", 1 },
	[UET_AMO_INT16] = { "INT16", 2 },
	[UET_AMO_UINT16] = { "UINT16", 2 },
	[UET_AMO_INT32] = { "INT32", 4 },
	[UET_AMO_UINT32] = { "UINT32", 4 },
	[UET_AMO_INT64] = { "INT64", 8 },
	[UET_AMO_UINT64] = { "UINT64", 8 },
	[UET_AMO_FLOAT] = { "FLOAT", 4 },
	[UET_AMO_DOUBLE] = { "DOUBLE", 8 },
	[UET_AMO_FLOAT_COMPLEX] = { "FLOAT_COMPLEX", 8 },
	[UET_AMO_DOUBLE_COMPLEX] = { "DOUBLE_COMPLEX", 16 },
	[UET_AMO_FLOAT16] = { "FLOAT16", 2 },
	[UET_AMO_BFLOAT16] = { "BFLOAT16", 2 },
	[UET_AMO_INT128] = { "INT128", 16 },
	[UET_AMO_UINT128] = { "UINT128", 16 },
};

const char *uet_amo_dtype_str(unsigned int dtype)
{
	if (dtype >= sizeof(amo_dtypes) / sizeof(amo_dtypes[0]) ||
	    !amo_dtypes[dtype].name)
		return "UNKNOWN";
	return amo_dtypes[dtype].name;
}

size_t uet_amo_dtype_size(unsigned int dtype)
{
	if (dtype >= sizeof(amo_dtypes) / sizeof(amo_dtypes[0]))
		return 0;
	return amo_dtypes[dtype].size;
}

const char *uet_wire_strerror(ssize_t err)
{
	switch (err) {
	case UET_WIRE_ENOBUFS:
		return "output buffer too small";
	case UET_WIRE_ETRUNC:
		return "input shorter than the header";
	case UET_WIRE_ERESERVED:
		return "reserved field not zero";
	case UET_WIRE_ETYPE:
		return "type or opcode does not match the format";
	case UET_WIRE_ERANGE:
		return "field value out of range";
	default:
		return err >= 0 ? "success" : "unknown error";
	}
}

const char *uet_wire_prof_str(unsigned int wp)
{
	switch (wp) {
	case UET_WIRE_UEPLUS:
		return "ueplus";
	case UET_WIRE_UE:
		return "ue";
	default:
		return "UNKNOWN";
	}
}

int uet_wire_prof_parse(const char *s)
{
	if (!s)
		return -1;
	if (!strcasecmp(s, "ueplus") || !strcasecmp(s, "ue+"))
		return UET_WIRE_UEPLUS;
	if (!strcasecmp(s, "ue") || !strcasecmp(s, "ue1.0.1") ||
	    !strcasecmp(s, "ue-1.0.1"))
		return UET_WIRE_UE;
	return -1;
}
