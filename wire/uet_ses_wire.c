/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES header codecs.  Field layouts: docs/conformance.md (4.2).
 *
 * Every format is fixed-size and described once, by a struct ses_fmt: its
 * head (request, small-request or response bytes 0-1, packed bit by bit
 * below) and a table of its other fields (uet_wire_fields.h).  One
 * encoder and one decoder (ses_encode, ses_decode) serve every format;
 * decoders check every byte before they write the output struct.
 */
#include <string.h>

#include "uet_ses_wire.h"
#include "uet_wire_fields.h"

/* ---- bits private to the SES formats ---- */

/* Request byte 0: rsvd[7:6] opcode[5:0]. */
#define REQ0_RSVD_MASK		0xc0u
#define SES_OPCODE_MASK		0x3fu	/* request and response opcode */
/* Request byte 1: version[7:6] dc ie rel hd eom som. */
#define SES_VERSION_SHIFT	6
#define REQ1_DC			0x20u
#define REQ1_IE			0x10u
#define REQ1_REL		0x08u
#define REQ1_HD			0x04u
#define REQ1_EOM		0x02u
#define REQ1_SOM		0x01u
/* Response byte 0: list[7:6] opcode[5:0]; byte 1: version[7:6] rc[5:0]. */
#define RSP0_LIST_SHIFT		6
#define RSP1_RC_MASK		0x3fu
#define SES_LIST_MAX		UET_LIST_UNEXPECTED
/* Ready-to-restart buffer_offset: 0 to 2^32 - 2 (ses-formats.md 3.10). */
#define RTR_OFFSET_MAX		0xfffffffeull

/* ---- fixed sizes: sum of the field widths in bits ---- */

/* rsvd 2, opcode 6, version 2, six 1-bit flags */
#define REQ_CTL_BITS		(2 + 6 + 2 + 6 * 1)
/* list 2, opcode 6, version 2, return_code 6 */
#define RSP_CTL_BITS		(2 + 6 + 2 + 6)
/* message_id 16, ri_generation 8, job_id 24, 4+12, 4+12 */
#define REQ_PREFIX_BITS		(REQ_CTL_BITS + 16 + 8 + 24 + 16 + 16)

/* + buffer_offset, initiator, match_bits, header_data, request_length */
_Static_assert(REQ_PREFIX_BITS + 64 + 32 + 64 + 64 + 32 ==
	       UET_SES_STD_SOM1_LEN * 8, "standard SOM=1 size");
/* prefix, buffer_offset, initiator, match_bits, rsvd 16,
 * rsvd 2 + payload_length 14, message_offset, request_length (C-16) */
_Static_assert(REQ_PREFIX_BITS + 64 + 32 + 64 + 16 + 2 + 14 + 32 + 32 ==
	       UET_SES_STD_SOM0_LEN * 8, "standard SOM=0 size");
/* ctl, rsvd 2 + request_length 14, ri_gen, job_id, 4+12, 4+12,
 * initiator, match_bits, header_data */
_Static_assert(REQ_CTL_BITS + 2 + 14 + 8 + 24 + 16 + 16 + 32 + 64 + 64 ==
	       UET_SES_SMALL_MSG_LEN * 8, "small message size");
/* ctl, rsvd 2 + request_length 14, ri_gen, job_id, 4+12, 4+12,
 * buffer_offset, rsvd 96 */
_Static_assert(REQ_CTL_BITS + 2 + 14 + 8 + 24 + 16 + 16 + 64 + 96 ==
	       UET_SES_OPT_NONMATCH_LEN * 8, "optimized non-matching size");
/* ctl, message_id, ri_generation, job_id, modified_length, rsvd 32 */
_Static_assert(RSP_CTL_BITS + 16 + 8 + 24 + 32 + 32 ==
	       UET_SES_RSP_LEN * 8, "response size");
/* ctl, response_message_id, rsvd 8, job_id, read_request_message_id,
 * rsvd 2 + payload_length 14, modified_length, message_offset, rsvd 32 */
_Static_assert(RSP_CTL_BITS + 16 + 8 + 24 + 16 + 2 + 14 + 32 + 32 + 32 ==
	       UET_SES_RSP_DATA_LEN * 8, "response with data size");
/* ctl, rsvd 2 + payload_length 14, rsvd 8, job_id,
 * original_request_psn, rsvd 32 */
_Static_assert(RSP_CTL_BITS + 2 + 14 + 8 + 24 + 32 + 32 ==
	       UET_SES_OPT_RSP_DATA_LEN * 8, "optimized response size");
/* atomic_opcode, atomic_datatype, semantic_control, rsvd 32 */
_Static_assert(8 + 8 + 16 + 32 == UET_SES_ATOMIC_EXT_LEN * 8,
	       "atomic extension size");
/* atomic header as above + compare_mask_value 128 + swap_value 128 */
_Static_assert(8 + 8 + 16 + 32 + 128 + 128 == UET_SES_CAS_EXT_LEN * 8,
	       "compare-and-swap extension size");
/* eager_length, memory_key, buffer_offset, remaining_length, rsvd 64 */
_Static_assert(32 + 64 + 64 + 32 + 64 == UET_SES_RDZV_EXT_LEN * 8,
	       "rendezvous extension size");
/* prefix, initiator/target restart tokens, initiator, match_bits,
 * header_data, request_length */
_Static_assert(REQ_PREFIX_BITS + 32 + 32 + 32 + 64 + 64 + 32 ==
	       UET_SES_DEFER_SEND_LEN * 8, "deferrable send size");
/* prefix, buffer_offset, restart tokens, rsvd 32, header_data,
 * request_length */
_Static_assert(REQ_PREFIX_BITS + 64 + 32 + 32 + 32 + 64 + 32 ==
	       UET_SES_RTR_LEN * 8, "ready to restart size");

/* ---- request bytes 0-1 ---- */

static bool req_ctl_valid(const struct uet_ses_req_ctl *c)
{
	return c->opcode <= UET_SES_OPCODE_MAX &&
	       c->version == UET_SES_VERSION;
}

static uint8_t *req_ctl_put(uint8_t *p, const struct uet_ses_req_ctl *c)
{
	uint8_t b1 = (uint8_t)(c->version << SES_VERSION_SHIFT);

	b1 |= c->dc ? REQ1_DC : 0;
	b1 |= c->ie ? REQ1_IE : 0;
	b1 |= c->rel ? REQ1_REL : 0;
	b1 |= c->hd ? REQ1_HD : 0;
	b1 |= c->eom ? REQ1_EOM : 0;
	b1 |= c->som ? REQ1_SOM : 0;
	p = uet_put_u8(p, c->opcode);
	return uet_put_u8(p, b1);
}

static int req_ctl_get(struct uet_ses_req_ctl *c, const uint8_t *p)
{
	uint8_t b0 = uet_get_u8(p), b1 = uet_get_u8(p + 1);

	if (b0 & REQ0_RSVD_MASK)
		return UET_WIRE_ERESERVED;
	c->opcode = b0 & SES_OPCODE_MASK;
	c->version = b1 >> SES_VERSION_SHIFT;
	if (c->version != UET_SES_VERSION ||
	    c->opcode > UET_SES_OPCODE_MAX)
		return UET_WIRE_ERANGE;
	c->dc = b1 & REQ1_DC;
	c->ie = b1 & REQ1_IE;
	c->rel = b1 & REQ1_REL;
	c->hd = b1 & REQ1_HD;
	c->eom = b1 & REQ1_EOM;
	c->som = b1 & REQ1_SOM;
	return 0;
}

/*
 * Bytes 0-1 of the small-message and optimized non-matching headers, as
 * the documents lay them out (ses-formats.md 3.5 and 3.11,
 * tagged-send-and-encapsulation.md 4.7): opcode 0[7:2], version 0[1:0];
 * dc 1[7], ie 1[6], rel 1[5], hd 1[4], eom 1[3], som 1[2], reserved 1[1:0].
 */
#define SMALL0_OPCODE_SHIFT	2
#define SMALL0_VERSION_MASK	0x03u
#define SMALL1_DC		0x80u
#define SMALL1_IE		0x40u
#define SMALL1_REL		0x20u
#define SMALL1_HD		0x10u
#define SMALL1_EOM		0x08u
#define SMALL1_SOM		0x04u
#define SMALL1_RSVD_MASK	0x03u

static uint8_t *small_ctl_put(uint8_t *p, const struct uet_ses_req_ctl *c)
{
	uint8_t b1 = 0;

	b1 |= c->dc ? SMALL1_DC : 0;
	b1 |= c->ie ? SMALL1_IE : 0;
	b1 |= c->rel ? SMALL1_REL : 0;
	b1 |= c->hd ? SMALL1_HD : 0;
	b1 |= c->eom ? SMALL1_EOM : 0;
	b1 |= c->som ? SMALL1_SOM : 0;
	p = uet_put_u8(p, (uint8_t)(c->opcode << SMALL0_OPCODE_SHIFT |
				    c->version));
	return uet_put_u8(p, b1);
}

static int small_ctl_get(struct uet_ses_req_ctl *c, const uint8_t *p)
{
	uint8_t b0 = uet_get_u8(p), b1 = uet_get_u8(p + 1);

	if (b1 & SMALL1_RSVD_MASK)
		return UET_WIRE_ERESERVED;
	c->opcode = b0 >> SMALL0_OPCODE_SHIFT;
	c->version = b0 & SMALL0_VERSION_MASK;
	if (c->version != UET_SES_VERSION ||
	    c->opcode > UET_SES_OPCODE_MAX)
		return UET_WIRE_ERANGE;
	c->dc = b1 & SMALL1_DC;
	c->ie = b1 & SMALL1_IE;
	c->rel = b1 & SMALL1_REL;
	c->hd = b1 & SMALL1_HD;
	c->eom = b1 & SMALL1_EOM;
	c->som = b1 & SMALL1_SOM;
	return 0;
}

/* ---- response bytes 0-1 ---- */

/*
 * Encoder check of response bytes 0-1, in the decoder's order: an
 * opcode wider than 6 bits is ERANGE; a 6-bit opcode other than this
 * format's is ETYPE; then list, version and return_code (ERANGE).
 */
static int rsp_ctl_check(const struct uet_ses_rsp_ctl *c, uint8_t opcode)
{
	if (c->opcode > SES_OPCODE_MASK)
		return UET_WIRE_ERANGE;
	if (c->opcode != opcode)
		return UET_WIRE_ETYPE;
	if (c->list > SES_LIST_MAX || c->version != UET_SES_VERSION ||
	    c->return_code > UET_RC_MAX)
		return UET_WIRE_ERANGE;
	return 0;
}

static uint8_t *rsp_ctl_put(uint8_t *p, const struct uet_ses_rsp_ctl *c)
{
	p = uet_put_u8(p, (uint8_t)(c->list << RSP0_LIST_SHIFT | c->opcode));
	return uet_put_u8(p, (uint8_t)(c->version << SES_VERSION_SHIFT |
				       c->return_code));
}

static int rsp_ctl_get(struct uet_ses_rsp_ctl *c, const uint8_t *p,
		       uint8_t opcode)
{
	uint8_t b0 = uet_get_u8(p), b1 = uet_get_u8(p + 1);

	c->list = b0 >> RSP0_LIST_SHIFT;
	c->opcode = b0 & SES_OPCODE_MASK;
	c->version = b1 >> SES_VERSION_SHIFT;
	c->return_code = b1 & RSP1_RC_MASK;
	if (c->opcode != opcode)
		return UET_WIRE_ETYPE;
	if (c->list > SES_LIST_MAX || c->version != UET_SES_VERSION ||
	    c->return_code > UET_RC_MAX)
		return UET_WIRE_ERANGE;
	return 0;
}

/* ---- which request opcodes each 44-byte format carries ---- */

static bool is_defer_send_opcode(uint8_t opcode)
{
	return opcode == UET_DEFERRABLE_SEND || opcode == UET_DEFERRABLE_TSEND;
}

/*
 * Opcodes that have their own 44-byte format are not valid in a standard
 * SOM=1 or SOM=0 header (ETYPE).
 */
static bool std_opcode_ok(uint8_t opcode)
{
	return !is_defer_send_opcode(opcode) && opcode != UET_DEFERRABLE_RTR;
}

static bool rtr_opcode_ok(uint8_t opcode)
{
	return opcode == UET_DEFERRABLE_RTR;
}

/* ---- value checks of single fields ---- */

/* Ready-to-restart buffer_offset: 0 to 2^32 - 2 (ses-formats.md 3.10). */
static bool rtr_offset_ok(uint64_t v)
{
	return v <= RTR_OFFSET_MAX;
}

/* ses-formats.md 3.7 lists all of Table 3-21 for the 8-byte extension. */
static bool amo_ext_op_ok(uint64_t op)
{
	return op <= UET_AMO_OP_MAX;
}

static bool amo_cas_op_ok(uint64_t op)
{
	return (op >= UET_AMO_CSWAP && op <= UET_AMO_CSWAP_GT) ||
	       op == UET_AMO_MSWAP;
}

static bool amo_dtype_ok(uint64_t dtype)
{
	return dtype <= UET_AMO_DTYPE_MAX &&
	       uet_amo_dtype_size((unsigned int)dtype);
}

static uint8_t amo_dtype_from_wire(enum uet_wire_prof wp, uint8_t code);

/* A UE 1.0.1 datatype code uet has a type for. */
static bool ue_amo_dtype_ok(uint64_t code)
{
	return code <= UINT8_MAX &&
	       amo_dtype_from_wire(UET_WIRE_UE, (uint8_t)code) !=
	       UET_AMO_DTYPE_UNKNOWN;
}

/* UE 1.0.1 carries MSWAP in the 4-byte extension. */
static bool ue_amo_cas_op_ok(uint64_t op)
{
	return op >= UET_AMO_CSWAP && op <= UET_AMO_CSWAP_GT;
}

bool uet_ses_amo_uses_cas(enum uet_wire_prof wp, uint8_t op)
{
	return wp == UET_WIRE_UE ? ue_amo_cas_op_ok(op) : amo_cas_op_ok(op);
}

/* ---- atomic datatypes on the wire ---- */

/*
 * enum uet_amo_dtype holds UE+'s codes (ses-formats.md Table 3-22);
 * UE 1.0.1 numbers them otherwise and adds INT128/UINT128
 * (docs/conformance.md).  0xff: no code in that profile.
 */
static uint8_t amo_dtype_to_wire(enum uet_wire_prof wp, uint8_t dtype)
{
	if (wp != UET_WIRE_UE)
		return dtype <= UET_AMO_DTYPE_MAX ? dtype : 0xff;
	switch (dtype) {
	case UET_AMO_FLOAT:		return UET_AMO_UE_FLOAT;
	case UET_AMO_DOUBLE:		return UET_AMO_UE_DOUBLE;
	case UET_AMO_FLOAT_COMPLEX:	return UET_AMO_UE_FLOAT_COMPLEX;
	case UET_AMO_DOUBLE_COMPLEX:	return UET_AMO_UE_DOUBLE_COMPLEX;
	case UET_AMO_FLOAT16:		return UET_AMO_UE_FLOAT16;
	case UET_AMO_BFLOAT16:		return UET_AMO_UE_BFLOAT16;
	case UET_AMO_INT128:		return UET_AMO_UE_INT128;
	case UET_AMO_UINT128:		return UET_AMO_UE_UINT128;
	default:
		return dtype <= UET_AMO_UINT64 ? dtype : 0xff;
	}
}

static uint8_t amo_dtype_from_wire(enum uet_wire_prof wp, uint8_t code)
{
	if (wp != UET_WIRE_UE)
		return code <= UET_AMO_DTYPE_MAX ? code : UET_AMO_DTYPE_UNKNOWN;
	switch (code) {
	case UET_AMO_UE_FLOAT:		return UET_AMO_FLOAT;
	case UET_AMO_UE_DOUBLE:		return UET_AMO_DOUBLE;
	case UET_AMO_UE_FLOAT_COMPLEX:	return UET_AMO_FLOAT_COMPLEX;
	case UET_AMO_UE_DOUBLE_COMPLEX:	return UET_AMO_DOUBLE_COMPLEX;
	case UET_AMO_UE_FLOAT16:	return UET_AMO_FLOAT16;
	case UET_AMO_UE_BFLOAT16:	return UET_AMO_BFLOAT16;
	case UET_AMO_UE_INT128:		return UET_AMO_INT128;
	case UET_AMO_UE_UINT128:	return UET_AMO_UINT128;
	default:
		return code <= UET_AMO_UINT64 ? code : UET_AMO_DTYPE_UNKNOWN;
	}
}

/* ---- one description per format ---- */

enum ses_head {
	HEAD_NONE,	/* extension headers: fields only */
	HEAD_REQ,	/* request bytes 0-1 (req_ctl_*) */
	HEAD_SMALL,	/* small/optimized request bytes 0-1 (small_ctl_*) */
	HEAD_RSP,	/* response bytes 0-1 (rsp_ctl_*) */
};

/*
 * Bytes 0-1 (the head) are the struct's first member, ctl; the table
 * lists every other field.  Check order, encode: head, widths and
 * required fields (ERANGE), opcode (ETYPE), value checks (ERANGE).
 * Decode: a response head (ETYPE, ERANGE), reserved fields and bits
 * (ERESERVED), a request head (ERESERVED, ERANGE), required fields
 * (ERANGE), opcode (ETYPE), value checks (ERANGE).
 */
struct ses_fmt {
	uint8_t head;		/* enum ses_head */
	uint8_t len;		/* UET_SES_*_LEN */
	uint16_t size;		/* sizeof the struct */
	bool som;		/* HEAD_REQ: the som it carries */
	bool solo;		/* a one-packet format: eom must be set too */
	bool hd_rsvd;		/* request hd is reserved in this format */
	uint8_t rsp_opcode;	/* HEAD_RSP: the format's opcode */
	bool (*opcode_ok)(uint8_t opcode);	/* HEAD_REQ: else ETYPE */
	struct uet_wf_table t;
};

/* Bytes 4-11 of every request format. */
#define REQ_ADDR_FIELDS(T)						\
	UET_WF_U(T, ri_generation, 4, 1),				\
	UET_WF_U(T, job_id, 5, 3),					\
	UET_WF_U(T, pid_on_fep, 8, 2, .max = UET_PID_ON_FEP_MAX),	\
	UET_WF_U(T, resource_index, 10, 2, .max = UET_RESOURCE_INDEX_MAX)
/* Bytes 2-11 of SOM=1, SOM=0, deferrable send and RTR. */
#define REQ_PREFIX_FIELDS(T)						\
	UET_WF_U(T, message_id, 2, 2, .flags = UET_WF_NONZERO),	\
	REQ_ADDR_FIELDS(T)
/* Bytes 2-11 of small message and optimized non-matching. */
#define SMALL_PREFIX_FIELDS(T)						\
	UET_WF_U(T, request_length, 2, 2, .max = UET_SES_SMALL_LEN_MAX), \
	REQ_ADDR_FIELDS(T)

#define FMT_TABLE(fields)	UET_WF_TABLE(fields, UET_WF_BE)

static const struct uet_wire_field som1_fields[] = {
	REQ_PREFIX_FIELDS(struct uet_ses_std_som1),
	UET_WF_U(struct uet_ses_std_som1, buffer_offset, 12, 8),
	UET_WF_U(struct uet_ses_std_som1, initiator, 20, 4),
	UET_WF_U(struct uet_ses_std_som1, match_bits, 24, 8),
	UET_WF_U(struct uet_ses_std_som1, header_data, 32, 8),
	UET_WF_U(struct uet_ses_std_som1, request_length, 40, 4),
};

static const struct ses_fmt fmt_som1 = {
	.head = HEAD_REQ, .len = UET_SES_STD_SOM1_LEN,
	.size = sizeof(struct uet_ses_std_som1), .som = true,
	.opcode_ok = std_opcode_ok, .t = FMT_TABLE(som1_fields),
};

/* Bytes 32-35 of SOM=0 (C-16); bytes 0-31 and 40-43 are as SOM=1;
 * hd is reserved: a continuation carries no header_data. */
static const struct uet_wire_field som0_fields[] = {
	REQ_PREFIX_FIELDS(struct uet_ses_std_som0),
	UET_WF_U(struct uet_ses_std_som0, buffer_offset, 12, 8),
	UET_WF_U(struct uet_ses_std_som0, initiator, 20, 4),
	UET_WF_U(struct uet_ses_std_som0, match_bits, 24, 8),
	UET_WF_R(32, 2),
	UET_WF_U(struct uet_ses_std_som0, payload_length, 34, 2,
		 .max = UET_SES_SMALL_LEN_MAX),
	UET_WF_U(struct uet_ses_std_som0, message_offset, 36, 4),
	UET_WF_U(struct uet_ses_std_som0, request_length, 40, 4),
};

static const struct ses_fmt fmt_som0 = {
	.head = HEAD_REQ, .len = UET_SES_STD_SOM0_LEN,
	.size = sizeof(struct uet_ses_std_som0), .som = false,
	.hd_rsvd = true, .opcode_ok = std_opcode_ok,
	.t = FMT_TABLE(som0_fields),
};

static const struct uet_wire_field small_msg_fields[] = {
	SMALL_PREFIX_FIELDS(struct uet_ses_small_msg),
	UET_WF_U(struct uet_ses_small_msg, initiator, 12, 4),
	UET_WF_U(struct uet_ses_small_msg, match_bits, 16, 8),
	UET_WF_U(struct uet_ses_small_msg, header_data, 24, 8),
};

static const struct ses_fmt fmt_small_msg = {
	.head = HEAD_SMALL, .len = UET_SES_SMALL_MSG_LEN,
	.size = sizeof(struct uet_ses_small_msg), .som = true, .solo = true,
	.t = FMT_TABLE(small_msg_fields),
};

/* UE 1.0.1 medium request: the standard bytes 0-1; header_data at 12-19
 * (the buffer_offset slot when hd = 0), initiator, match_bits. */
static const struct uet_wire_field ue_small_msg_fields[] = {
	SMALL_PREFIX_FIELDS(struct uet_ses_small_msg),
	UET_WF_U(struct uet_ses_small_msg, header_data, 12, 8),
	UET_WF_U(struct uet_ses_small_msg, initiator, 20, 4),
	UET_WF_U(struct uet_ses_small_msg, match_bits, 24, 8),
};

static const struct ses_fmt ue_fmt_small_msg = {
	.head = HEAD_REQ, .len = UET_SES_UE_SMALL_MSG_LEN,
	.size = sizeof(struct uet_ses_small_msg), .som = true, .solo = true,
	.t = FMT_TABLE(ue_small_msg_fields),
};

/* hd is reserved in this format (ses-formats.md Table 3-10). */
static const struct uet_wire_field opt_nonmatch_fields[] = {
	SMALL_PREFIX_FIELDS(struct uet_ses_opt_nonmatch),
	UET_WF_U(struct uet_ses_opt_nonmatch, buffer_offset, 12, 8),
	UET_WF_R(20, 12),
};

static const struct ses_fmt fmt_opt_nonmatch = {
	.head = HEAD_SMALL, .len = UET_SES_OPT_NONMATCH_LEN,
	.size = sizeof(struct uet_ses_opt_nonmatch), .som = true, .solo = true,
	.hd_rsvd = true, .t = FMT_TABLE(opt_nonmatch_fields),
};

/* UE 1.0.1 small request: standard bytes 0-1, 20 bytes. */
static const struct uet_wire_field ue_opt_nonmatch_fields[] = {
	SMALL_PREFIX_FIELDS(struct uet_ses_opt_nonmatch),
	UET_WF_U(struct uet_ses_opt_nonmatch, buffer_offset, 12, 8),
};

static const struct ses_fmt ue_fmt_opt_nonmatch = {
	.head = HEAD_REQ, .len = UET_SES_UE_OPT_NONMATCH_LEN,
	.size = sizeof(struct uet_ses_opt_nonmatch), .som = true, .solo = true,
	.hd_rsvd = true, .t = FMT_TABLE(ue_opt_nonmatch_fields),
};

static const struct uet_wire_field rsp_fields[] = {
	UET_WF_U(struct uet_ses_rsp, message_id, 2, 2,
		 .flags = UET_WF_NONZERO),
	UET_WF_U(struct uet_ses_rsp, ri_generation, 4, 1),
	UET_WF_U(struct uet_ses_rsp, job_id, 5, 3),
	UET_WF_U(struct uet_ses_rsp, modified_length, 8, 4),
	UET_WF_R(12, 4),
};

static const struct ses_fmt fmt_rsp = {
	.head = HEAD_RSP, .len = UET_SES_RSP_LEN,
	.size = sizeof(struct uet_ses_rsp), .rsp_opcode = UET_RESPONSE,
	.t = FMT_TABLE(rsp_fields),
};

/* UE 1.0.1: the same fields, without UE+'s reserved tail (12 bytes). */
static const struct ses_fmt ue_fmt_rsp = {
	.head = HEAD_RSP, .len = UET_SES_UE_RSP_LEN,
	.size = sizeof(struct uet_ses_rsp), .rsp_opcode = UET_RESPONSE,
	.t = { rsp_fields, 4, UET_WF_BE },
};

static const struct uet_wire_field rsp_data_fields[] = {
	UET_WF_U(struct uet_ses_rsp_data, response_message_id, 2, 2),
	UET_WF_R(4, 1),
	UET_WF_U(struct uet_ses_rsp_data, job_id, 5, 3),
	UET_WF_U(struct uet_ses_rsp_data, read_request_message_id, 8, 2,
		 .flags = UET_WF_NONZERO),
	UET_WF_U(struct uet_ses_rsp_data, payload_length, 10, 2,
		 .max = UET_SES_SMALL_LEN_MAX),
	UET_WF_U(struct uet_ses_rsp_data, modified_length, 12, 4),
	UET_WF_U(struct uet_ses_rsp_data, message_offset, 16, 4),
	UET_WF_R(20, 4),
};

static const struct ses_fmt fmt_rsp_data = {
	.head = HEAD_RSP, .len = UET_SES_RSP_DATA_LEN,
	.size = sizeof(struct uet_ses_rsp_data),
	.rsp_opcode = UET_RESPONSE_W_DATA, .t = FMT_TABLE(rsp_data_fields),
};

/* UE 1.0.1: 20 bytes (payload_length 14 bits, as two of the three
 * readings have it; docs/conformance.md). */
static const struct ses_fmt ue_fmt_rsp_data = {
	.head = HEAD_RSP, .len = UET_SES_UE_RSP_DATA_LEN,
	.size = sizeof(struct uet_ses_rsp_data),
	.rsp_opcode = UET_RESPONSE_W_DATA, .t = { rsp_data_fields, 7, UET_WF_BE },
};

static const struct uet_wire_field opt_rsp_data_fields[] = {
	UET_WF_U(struct uet_ses_opt_rsp_data, payload_length, 2, 2,
		 .max = UET_SES_SMALL_LEN_MAX),
	UET_WF_R(4, 1),
	UET_WF_U(struct uet_ses_opt_rsp_data, job_id, 5, 3),
	UET_WF_U(struct uet_ses_opt_rsp_data, original_request_psn, 8, 4),
	UET_WF_R(12, 4),
};

static const struct ses_fmt fmt_opt_rsp_data = {
	.head = HEAD_RSP, .len = UET_SES_OPT_RSP_DATA_LEN,
	.size = sizeof(struct uet_ses_opt_rsp_data),
	.rsp_opcode = UET_RESPONSE_W_DATA,
	.t = FMT_TABLE(opt_rsp_data_fields),
};

static const struct ses_fmt ue_fmt_opt_rsp_data = {
	.head = HEAD_RSP, .len = UET_SES_UE_OPT_RSP_DATA_LEN,
	.size = sizeof(struct uet_ses_opt_rsp_data),
	.rsp_opcode = UET_RESPONSE_W_DATA,
	.t = { opt_rsp_data_fields, 4, UET_WF_BE },
};

static const struct uet_wire_field atomic_ext_fields[] = {
	UET_WF_U(struct uet_ses_atomic_ext, atomic_opcode, 0, 1,
		 .ok = amo_ext_op_ok),
	UET_WF_U(struct uet_ses_atomic_ext, atomic_datatype, 1, 1,
		 .ok = amo_dtype_ok),
	UET_WF_U(struct uet_ses_atomic_ext, semantic_control, 2, 2),
	UET_WF_R(4, 4),
};

static const struct ses_fmt fmt_atomic_ext = {
	.head = HEAD_NONE, .len = UET_SES_ATOMIC_EXT_LEN,
	.size = sizeof(struct uet_ses_atomic_ext),
	.t = FMT_TABLE(atomic_ext_fields),
};

/* UE 1.0.1: semantic_control is byte 2, byte 3 reserved (4 bytes). */
#define UE_AMO_HEAD_FIELDS(T, op_ok)					\
	UET_WF_U(T, atomic_opcode, 0, 1, .ok = op_ok),			\
	UET_WF_U(T, atomic_datatype, 1, 1, .ok = ue_amo_dtype_ok),	\
	UET_WF_U(T, semantic_control, 2, 1),				\
	UET_WF_R(3, 1)

static const struct uet_wire_field ue_atomic_ext_fields[] = {
	UE_AMO_HEAD_FIELDS(struct uet_ses_atomic_ext, amo_ext_op_ok),
};

static const struct ses_fmt ue_fmt_atomic_ext = {
	.head = HEAD_NONE, .len = UET_SES_UE_ATOMIC_EXT_LEN,
	.size = sizeof(struct uet_ses_atomic_ext),
	.t = FMT_TABLE(ue_atomic_ext_fields),
};

static const struct uet_wire_field cas_ext_fields[] = {
	UET_WF_U(struct uet_ses_cas_ext, atomic_opcode, 0, 1,
		 .ok = amo_cas_op_ok),
	UET_WF_U(struct uet_ses_cas_ext, atomic_datatype, 1, 1,
		 .ok = amo_dtype_ok),
	UET_WF_U(struct uet_ses_cas_ext, semantic_control, 2, 2),
	UET_WF_R(4, 4),
	UET_WF_B(struct uet_ses_cas_ext, compare_mask_value, 8),
	UET_WF_B(struct uet_ses_cas_ext, swap_value, 24),
};

static const struct ses_fmt fmt_cas_ext = {
	.head = HEAD_NONE, .len = UET_SES_CAS_EXT_LEN,
	.size = sizeof(struct uet_ses_cas_ext),
	.t = FMT_TABLE(cas_ext_fields),
};

static const struct uet_wire_field ue_cas_ext_fields[] = {
	UE_AMO_HEAD_FIELDS(struct uet_ses_cas_ext, ue_amo_cas_op_ok),
	UET_WF_B(struct uet_ses_cas_ext, compare_mask_value, 4),
	UET_WF_B(struct uet_ses_cas_ext, swap_value, 20),
};

static const struct ses_fmt ue_fmt_cas_ext = {
	.head = HEAD_NONE, .len = UET_SES_UE_CAS_EXT_LEN,
	.size = sizeof(struct uet_ses_cas_ext),
	.t = FMT_TABLE(ue_cas_ext_fields),
};

static const struct uet_wire_field rdzv_ext_fields[] = {
	UET_WF_U(struct uet_ses_rdzv_ext, eager_length, 0, 4),
	UET_WF_U(struct uet_ses_rdzv_ext, memory_key, 4, 8),
	UET_WF_U(struct uet_ses_rdzv_ext, buffer_offset, 12, 8),
	UET_WF_U(struct uet_ses_rdzv_ext, remaining_length, 20, 4),
	UET_WF_R(24, 8),
};

static const struct ses_fmt fmt_rdzv_ext = {
	.head = HEAD_NONE, .len = UET_SES_RDZV_EXT_LEN,
	.size = sizeof(struct uet_ses_rdzv_ext),
	.t = FMT_TABLE(rdzv_ext_fields),
};

/* UE 1.0.1: where to read (ri_generation 8, pid_on_fep 12 and
 * resource_index 12 bits of the word at 4, as two of the three readings
 * have it), the read offset and the read match bits; 24 bytes. */
static const struct uet_wire_field ue_rdzv_ext_fields[] = {
	UET_WF_U(struct uet_ses_rdzv_ext, eager_length, 0, 4),
	UET_WF_BIT(struct uet_ses_rdzv_ext, read_ri_generation, 4, 4, 24, 8),
	UET_WF_BIT(struct uet_ses_rdzv_ext, read_pid_on_fep, 4, 4, 12, 12),
	UET_WF_BIT(struct uet_ses_rdzv_ext, read_resource_index, 4, 4, 0, 12),
	UET_WF_U(struct uet_ses_rdzv_ext, buffer_offset, 8, 8),
	UET_WF_U(struct uet_ses_rdzv_ext, memory_key, 16, 8),
};

static const struct ses_fmt ue_fmt_rdzv_ext = {
	.head = HEAD_NONE, .len = UET_SES_UE_RDZV_EXT_LEN,
	.size = sizeof(struct uet_ses_rdzv_ext),
	.t = FMT_TABLE(ue_rdzv_ext_fields),
};

static const struct uet_wire_field defer_send_fields[] = {
	REQ_PREFIX_FIELDS(struct uet_ses_defer_send),
	UET_WF_U(struct uet_ses_defer_send, initiator_restart_token, 12, 4),
	UET_WF_U(struct uet_ses_defer_send, target_restart_token, 16, 4),
	UET_WF_U(struct uet_ses_defer_send, initiator, 20, 4),
	UET_WF_U(struct uet_ses_defer_send, match_bits, 24, 8),
	UET_WF_U(struct uet_ses_defer_send, header_data, 32, 8),
	UET_WF_U(struct uet_ses_defer_send, request_length, 40, 4),
};

static const struct ses_fmt fmt_defer_send = {
	.head = HEAD_REQ, .len = UET_SES_DEFER_SEND_LEN,
	.size = sizeof(struct uet_ses_defer_send), .som = true,
	.opcode_ok = is_defer_send_opcode,
	.t = FMT_TABLE(defer_send_fields),
};

static const struct uet_wire_field rtr_fields[] = {
	REQ_PREFIX_FIELDS(struct uet_ses_rtr),
	UET_WF_U(struct uet_ses_rtr, buffer_offset, 12, 8,
		 .ok = rtr_offset_ok),
	UET_WF_U(struct uet_ses_rtr, initiator_restart_token, 20, 4),
	UET_WF_U(struct uet_ses_rtr, target_restart_token, 24, 4),
	UET_WF_R(28, 4),
	UET_WF_U(struct uet_ses_rtr, header_data, 32, 8),
	UET_WF_U(struct uet_ses_rtr, request_length, 40, 4),
};

static const struct ses_fmt fmt_rtr = {
	.head = HEAD_REQ, .len = UET_SES_RTR_LEN,
	.size = sizeof(struct uet_ses_rtr), .som = true,
	.opcode_ok = rtr_opcode_ok, .t = FMT_TABLE(rtr_fields),
};

/* UE 1.0.1: the initiator at 20-23, then the two restart tokens. */
static const struct uet_wire_field ue_rtr_fields[] = {
	REQ_PREFIX_FIELDS(struct uet_ses_rtr),
	UET_WF_U(struct uet_ses_rtr, buffer_offset, 12, 8,
		 .ok = rtr_offset_ok),
	UET_WF_U(struct uet_ses_rtr, initiator, 20, 4),
	UET_WF_U(struct uet_ses_rtr, initiator_restart_token, 24, 4),
	UET_WF_U(struct uet_ses_rtr, target_restart_token, 28, 4),
	UET_WF_U(struct uet_ses_rtr, header_data, 32, 8),
	UET_WF_U(struct uet_ses_rtr, request_length, 40, 4),
};

static const struct ses_fmt ue_fmt_rtr = {
	.head = HEAD_REQ, .len = UET_SES_RTR_LEN,
	.size = sizeof(struct uet_ses_rtr), .som = true,
	.opcode_ok = rtr_opcode_ok, .t = FMT_TABLE(ue_rtr_fields),
};

/* ---- the codec every format goes through ---- */

/* Request heads: ranges, som as the format's (small: som = eom = 1), hd
 * clear where it is reserved.  Response heads: rsp_ctl_check. */
static int head_check(const struct ses_fmt *f, const void *h)
{
	const struct uet_ses_req_ctl *c = h;

	switch (f->head) {
	case HEAD_RSP:
		return rsp_ctl_check(h, f->rsp_opcode);
	case HEAD_REQ:
	case HEAD_SMALL:
		if (!req_ctl_valid(c) || c->som != f->som ||
		    (f->solo && !c->eom) || (f->hd_rsvd && c->hd))
			return UET_WIRE_ERANGE;
		return 0;
	default:
		return 0;
	}
}

/* Inlined into each typed entry point, so that f is a constant. */
UET_WF_INLINE ssize_t ses_encode(const struct ses_fmt *f, uint8_t *buf,
				 size_t len, const void *h)
{
	bool clean;
	int ret;

	if (len < f->len)
		return UET_WIRE_ENOBUFS;
	/* A clean table skips its ordered passes (uet_wire_fields.h). */
	clean = uet_wf_host_clean(&f->t, h);
	ret = head_check(f, h);
	if (!ret && !clean)
		ret = uet_wf_check_host(&f->t, h, UET_WF_RESERVED);
	if (!ret && !clean)
		ret = uet_wf_check_host(&f->t, h, UET_WF_REQUIRED);
	if (!ret && f->opcode_ok &&
	    !f->opcode_ok(((const struct uet_ses_req_ctl *)h)->opcode))
		ret = UET_WIRE_ETYPE;
	if (!ret && !clean)
		ret = uet_wf_check_host(&f->t, h, UET_WF_VALUES);
	if (ret)
		return ret;
	if (f->head == HEAD_RSP)
		rsp_ctl_put(buf, h);
	else if (f->head == HEAD_REQ)
		req_ctl_put(buf, h);
	else if (f->head == HEAD_SMALL)
		small_ctl_put(buf, h);
	uet_wf_put(&f->t, buf, h);
	return f->len;
}

/* A request head: the hd bit where it is reserved (ERESERVED), then
 * bytes 0-1 (ERESERVED, ERANGE), then som/eom (ERANGE). */
static int req_head_get(const struct ses_fmt *f, struct uet_ses_req_ctl *c,
			const uint8_t *buf)
{
	bool small = f->head == HEAD_SMALL;
	int ret;

	if (f->hd_rsvd && (uet_get_u8(buf + 1) & (small ? SMALL1_HD : REQ1_HD)))
		return UET_WIRE_ERESERVED;
	ret = small ? small_ctl_get(c, buf) : req_ctl_get(c, buf);
	if (ret)
		return ret;
	if (c->som != f->som || (f->solo && !c->eom))
		return UET_WIRE_ERANGE;
	return 0;
}

UET_WF_INLINE ssize_t ses_decode(const struct ses_fmt *f, void *h,
				 const uint8_t *buf, size_t len)
{
	struct uet_ses_req_ctl req = { 0 };
	struct uet_ses_rsp_ctl rsp = { 0 };
	bool clean;
	int ret = 0;

	if (len < f->len)
		return UET_WIRE_ETRUNC;
	/* A clean table skips its ordered passes (uet_wire_fields.h). */
	clean = uet_wf_wire_clean(&f->t, buf);
	if (f->head == HEAD_RSP)
		ret = rsp_ctl_get(&rsp, buf, f->rsp_opcode);
	if (!ret && !clean)
		ret = uet_wf_check_wire(&f->t, buf, UET_WF_RESERVED);
	if (!ret && (f->head == HEAD_REQ || f->head == HEAD_SMALL))
		ret = req_head_get(f, &req, buf);
	if (!ret && !clean)
		ret = uet_wf_check_wire(&f->t, buf, UET_WF_REQUIRED);
	if (!ret && f->opcode_ok && !f->opcode_ok(req.opcode))
		ret = UET_WIRE_ETYPE;
	if (!ret && !clean)
		ret = uet_wf_check_wire(&f->t, buf, UET_WF_VALUES);
	if (ret)
		return ret;
	memset(h, 0, f->size);
	if (f->head == HEAD_RSP)
		memcpy(h, &rsp, sizeof(rsp));
	else if (f->head != HEAD_NONE)
		memcpy(h, &req, sizeof(req));
	uet_wf_get(&f->t, h, buf);
	return f->len;
}

/*
 * The public encoder and decoder of one format (uet_ses_wire.h): typed
 * entry points into ses_encode/ses_decode.  ctl, where the format has
 * one, is the struct's first member (the head).
 */
#define SES_CODEC(name, type, fmt_ueplus, fmt_ue)			\
	ssize_t uet_ses_##name##_encode(enum uet_wire_prof wp,		\
					uint8_t *buf, size_t len,	\
					const type *h)			\
	{								\
		/* two calls, so that each inlines a constant table */	\
		if (wp == UET_WIRE_UE)					\
			return ses_encode(&(fmt_ue), buf, len, h);	\
		return ses_encode(&(fmt_ueplus), buf, len, h);		\
	}								\
	ssize_t uet_ses_##name##_decode(enum uet_wire_prof wp, type *h,	\
					const uint8_t *buf, size_t len)	\
	{								\
		if (wp == UET_WIRE_UE)					\
			return ses_decode(&(fmt_ue), h, buf, len);	\
		return ses_decode(&(fmt_ueplus), h, buf, len);		\
	}

SES_CODEC(std_som1, struct uet_ses_std_som1, fmt_som1,
	  fmt_som1)
SES_CODEC(std_som0, struct uet_ses_std_som0, fmt_som0,
	  fmt_som0)
SES_CODEC(small_msg, struct uet_ses_small_msg, fmt_small_msg,
	  ue_fmt_small_msg)
SES_CODEC(opt_nonmatch, struct uet_ses_opt_nonmatch, fmt_opt_nonmatch,
	  ue_fmt_opt_nonmatch)
SES_CODEC(rsp, struct uet_ses_rsp, fmt_rsp,
	  ue_fmt_rsp)
SES_CODEC(rsp_data, struct uet_ses_rsp_data, fmt_rsp_data,
	  ue_fmt_rsp_data)
SES_CODEC(opt_rsp_data, struct uet_ses_opt_rsp_data, fmt_opt_rsp_data,
	  ue_fmt_opt_rsp_data)

/*
 * The atomic and CAS extensions carry the datatype as the profile codes
 * it (amo_dtype_to_wire): the tables see wire codes, callers see enum
 * uet_amo_dtype.  A datatype the profile has no code for is ERANGE.
 */
#define AMO_CODEC(name, type, ext, fmt_ueplus, fmt_ue)			\
	ssize_t uet_ses_##name##_encode(enum uet_wire_prof wp,		\
					uint8_t *buf, size_t len,	\
					const type *h)			\
	{								\
		type w = *h;						\
									\
		if (len < uet_ses_ext_len(wp, ext))	\
			return UET_WIRE_ENOBUFS;			\
		w.atomic_datatype = amo_dtype_to_wire(wp,		\
						      h->atomic_datatype); \
		if (w.atomic_datatype == 0xff)				\
			return UET_WIRE_ERANGE;				\
		if (wp == UET_WIRE_UE)					\
			return ses_encode(&(fmt_ue), buf, len, &w);	\
		return ses_encode(&(fmt_ueplus), buf, len, &w);		\
	}								\
	ssize_t uet_ses_##name##_decode(enum uet_wire_prof wp, type *h,	\
					const uint8_t *buf, size_t len)	\
	{								\
		ssize_t n = wp == UET_WIRE_UE ?				\
			    ses_decode(&(fmt_ue), h, buf, len) :	\
			    ses_decode(&(fmt_ueplus), h, buf, len);	\
									\
		if (n > 0)						\
			h->atomic_datatype =				\
				amo_dtype_from_wire(wp, h->atomic_datatype); \
		return n;						\
	}

AMO_CODEC(atomic_ext, struct uet_ses_atomic_ext, UET_SES_EXT_ATOMIC,
	  fmt_atomic_ext, ue_fmt_atomic_ext)
AMO_CODEC(cas_ext, struct uet_ses_cas_ext, UET_SES_EXT_CAS, fmt_cas_ext,
	  ue_fmt_cas_ext)
SES_CODEC(rdzv_ext, struct uet_ses_rdzv_ext, fmt_rdzv_ext,
	  ue_fmt_rdzv_ext)
SES_CODEC(defer_send, struct uet_ses_defer_send, fmt_defer_send,
	  fmt_defer_send)
SES_CODEC(rtr, struct uet_ses_rtr, fmt_rtr,
	  ue_fmt_rtr)

_Static_assert(offsetof(struct uet_ses_std_som1, ctl) == 0 &&
	       offsetof(struct uet_ses_std_som0, ctl) == 0 &&
	       offsetof(struct uet_ses_small_msg, ctl) == 0 &&
	       offsetof(struct uet_ses_opt_nonmatch, ctl) == 0 &&
	       offsetof(struct uet_ses_rsp, ctl) == 0 &&
	       offsetof(struct uet_ses_rsp_data, ctl) == 0 &&
	       offsetof(struct uet_ses_opt_rsp_data, ctl) == 0 &&
	       offsetof(struct uet_ses_defer_send, ctl) == 0 &&
	       offsetof(struct uet_ses_rtr, ctl) == 0,
	       "the head is the first member");

int uet_ses_amo_ext_peek(enum uet_wire_prof wp, const uint8_t *buf,
			 size_t len, uint8_t *op, uint8_t *dtype)
{
	if (!buf || len < 2)
		return UET_WIRE_ETRUNC;
	*op = uet_get_u8(buf);
	*dtype = amo_dtype_from_wire(wp, uet_get_u8(buf + 1));
	return 0;
}

ssize_t uet_ses_cas_ext_values(enum uet_wire_prof wp,
			       struct uet_ses_cas_ext *h, const uint8_t *buf,
			       size_t len)
{
	size_t n = uet_ses_ext_len(wp, UET_SES_EXT_CAS);
	size_t v = n - sizeof(h->compare_mask_value) - sizeof(h->swap_value);

	if (!buf || len < n)
		return UET_WIRE_ETRUNC;
	memcpy(h->compare_mask_value, buf + v, sizeof(h->compare_mask_value));
	memcpy(h->swap_value, buf + v + sizeof(h->compare_mask_value),
	       sizeof(h->swap_value));
	return (ssize_t)n;
}

/* ------------------------------------------------------------------ */
/* Format dispatch                                                     */
/* ------------------------------------------------------------------ */

static int std_format(uint8_t b0, uint8_t b1)
{
	uint8_t opcode = b0 & SES_OPCODE_MASK;

	if (!(b1 & REQ1_SOM))
		return UET_SES_FMT_STD_SOM0;
	if (is_defer_send_opcode(opcode))
		return UET_SES_FMT_DEFER_SEND;
	if (opcode == UET_DEFERRABLE_RTR)
		return UET_SES_FMT_RTR;
	return UET_SES_FMT_STD_SOM1;
}

int uet_ses_request_format(enum uet_wire_prof wp, unsigned int next_hdr,
			   const uint8_t *buf, size_t len)
{
	uint8_t b0, b1, opcode;

	if (len < 2)
		return UET_WIRE_ETRUNC;
	b0 = uet_get_u8(buf);
	b1 = uet_get_u8(buf + 1);
	opcode = b0 & SES_OPCODE_MASK;

	switch (next_hdr) {
	case UET_HDR_REQUEST_SMALL:
	case UET_HDR_REQUEST_MEDIUM:
		/* UE+ keeps the opcode of these two in byte 0 bits 7:2,
		 * UE 1.0.1 where every request has it */
		if (wp != UET_WIRE_UE)
			opcode = b0 >> SMALL0_OPCODE_SHIFT;
		if (opcode > UET_SES_OPCODE_MAX)
			return UET_WIRE_ETYPE;
		if (next_hdr == UET_HDR_REQUEST_SMALL)
			return UET_SES_FMT_OPT_NONMATCH;
		return UET_SES_FMT_SMALL_MSG;
	case UET_HDR_REQUEST_STD:
		if (opcode > UET_SES_OPCODE_MAX)
			return UET_WIRE_ETYPE;
		return std_format(b0, b1);
	case UET_HDR_RESPONSE:
		if (opcode == UET_RESPONSE)
			return UET_SES_FMT_RSP;
		if (opcode == UET_DEFAULT_RESPONSE ||
		    opcode == UET_NO_RESPONSE)
			return UET_SES_FMT_DEFAULT_RSP;
		return UET_WIRE_ETYPE;
	case UET_HDR_RESPONSE_DATA:
		if (opcode == UET_RESPONSE_W_DATA)
			return UET_SES_FMT_RSP_DATA;
		return UET_WIRE_ETYPE;
	case UET_HDR_RESPONSE_DATA_SMALL:
		if (opcode == UET_RESPONSE_W_DATA)
			return UET_SES_FMT_OPT_RSP_DATA;
		return UET_WIRE_ETYPE;
	default:
		return UET_WIRE_ETYPE;
	}
}

static const struct {
	const char *name;
	uint8_t len[UET_WIRE_NPROF];	/* UE+, UE 1.0.1 */
} ses_formats[] = {
	[UET_SES_FMT_STD_SOM1] = { "STD_SOM1", { UET_SES_STD_SOM1_LEN,
						 UET_SES_STD_SOM1_LEN } },
	[UET_SES_FMT_STD_SOM0] = { "STD_SOM0", { UET_SES_STD_SOM0_LEN,
						 UET_SES_STD_SOM0_LEN } },
	[UET_SES_FMT_SMALL_MSG] = { "SMALL_MSG",
				    { UET_SES_SMALL_MSG_LEN,
				      UET_SES_UE_SMALL_MSG_LEN } },
	[UET_SES_FMT_OPT_NONMATCH] = { "OPT_NONMATCH",
				       { UET_SES_OPT_NONMATCH_LEN,
					 UET_SES_UE_OPT_NONMATCH_LEN } },
	[UET_SES_FMT_DEFER_SEND] = { "DEFER_SEND",
				     { UET_SES_DEFER_SEND_LEN,
				       UET_SES_DEFER_SEND_LEN } },
	[UET_SES_FMT_RTR] = { "RTR", { UET_SES_RTR_LEN, UET_SES_RTR_LEN } },
	[UET_SES_FMT_RSP] = { "RSP", { UET_SES_RSP_LEN, UET_SES_UE_RSP_LEN } },
	[UET_SES_FMT_RSP_DATA] = { "RSP_DATA", { UET_SES_RSP_DATA_LEN,
						 UET_SES_UE_RSP_DATA_LEN } },
	[UET_SES_FMT_OPT_RSP_DATA] = { "OPT_RSP_DATA",
				       { UET_SES_OPT_RSP_DATA_LEN,
					 UET_SES_UE_OPT_RSP_DATA_LEN } },
	[UET_SES_FMT_DEFAULT_RSP] = { "DEFAULT_RSP",
				      { UET_PDS_DEFAULT_SES_RSP_LEN,
					UET_PDS_UE_DEFAULT_SES_RSP_LEN } },
};

_Static_assert(sizeof(ses_formats) / sizeof(ses_formats[0]) ==
	       UET_SES_FMT_MAX + 1, "every SES format has a name");

size_t uet_ses_format_len(enum uet_wire_prof wp, unsigned int fmt)
{
	if (fmt >= sizeof(ses_formats) / sizeof(ses_formats[0]) ||
	    (unsigned int)wp >= UET_WIRE_NPROF)
		return 0;
	return ses_formats[fmt].len[wp];
}

size_t uet_ses_ext_len(enum uet_wire_prof wp, unsigned int ext)
{
	static const uint8_t ext_len[UET_SES_EXT_MAX + 1][UET_WIRE_NPROF] = {
		[UET_SES_EXT_ATOMIC] = { UET_SES_ATOMIC_EXT_LEN,
					 UET_SES_UE_ATOMIC_EXT_LEN },
		[UET_SES_EXT_CAS] = { UET_SES_CAS_EXT_LEN,
				      UET_SES_UE_CAS_EXT_LEN },
		[UET_SES_EXT_RDZV] = { UET_SES_RDZV_EXT_LEN,
				       UET_SES_UE_RDZV_EXT_LEN },
	};

	if (ext > UET_SES_EXT_MAX || (unsigned int)wp >= UET_WIRE_NPROF)
		return 0;
	return ext_len[ext][wp];
}

const char *uet_ses_format_str(unsigned int fmt)
{
	if (fmt >= sizeof(ses_formats) / sizeof(ses_formats[0]) ||
	    !ses_formats[fmt].name)
		return "UNKNOWN";
	return ses_formats[fmt].name;
}
