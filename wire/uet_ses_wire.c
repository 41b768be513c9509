/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES header codecs.  Field layouts: docs/conformance.md (4.2).
 *
 * Every format is fixed-size: encoders and decoders check the length once
 * against UET_SES_*_LEN and then read or write with the byte-order
 * helpers.  Decoders build the result in a local struct and copy it out
 * only on success.
 */
#include <assert.h>

#include "uet_ses_wire.h"

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
/* 16-bit words with a 12-bit value in bits 11:0 (pid_on_fep, RI). */
#define ADDR_RSVD_MASK		0xf000u
/* 16-bit words with a 14-bit length in bits 13:0. */
#define LEN14_RSVD_MASK		0xc000u
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

/* ---- 12-bit addressing words and 14-bit lengths ---- */

static bool addr_valid(uint16_t pid_on_fep, uint16_t resource_index)
{
	return pid_on_fep <= UET_PID_ON_FEP_MAX &&
	       resource_index <= UET_RESOURCE_INDEX_MAX;
}

static uint8_t *addr_put(uint8_t *p, uint16_t pid_on_fep,
			 uint16_t resource_index)
{
	p = uet_put_be16(p, pid_on_fep);
	return uet_put_be16(p, resource_index);
}

static int addr_get(uint16_t *pid_on_fep, uint16_t *resource_index,
		    const uint8_t *p)
{
	uint16_t pid = uet_get_be16(p), ri = uet_get_be16(p + 2);

	if ((pid | ri) & ADDR_RSVD_MASK)
		return UET_WIRE_ERESERVED;
	*pid_on_fep = pid;
	*resource_index = ri;
	return 0;
}

static int len14_get(uint16_t *v, const uint8_t *p)
{
	uint16_t w = uet_get_be16(p);

	if (w & LEN14_RSVD_MASK)
		return UET_WIRE_ERESERVED;
	*v = w;
	return 0;
}

/* ---- bytes 0-11 shared by SOM=1, SOM=0, deferrable send and RTR ---- */

struct req_prefix {
	struct uet_ses_req_ctl ctl;
	uint16_t message_id;
	uint8_t ri_generation;
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t resource_index;
};

#define REQ_PREFIX_LEN	(REQ_PREFIX_BITS / 8)

/* Ranges of the prefix; som must equal the format's som. */
static bool prefix_valid(const struct req_prefix *x, bool som)
{
	return req_ctl_valid(&x->ctl) && x->ctl.som == som && x->message_id &&
	       x->job_id <= UET_JOB_ID_MAX &&
	       addr_valid(x->pid_on_fep, x->resource_index);
}

static uint8_t *prefix_put(uint8_t *p, const struct req_prefix *x)
{
	p = req_ctl_put(p, &x->ctl);
	p = uet_put_be16(p, x->message_id);
	p = uet_put_u8(p, x->ri_generation);
	p = uet_put_be24(p, x->job_id);
	return addr_put(p, x->pid_on_fep, x->resource_index);
}

/* Reserved bits, then ranges; som as given and message_id != 0. */
static int prefix_get(struct req_prefix *x, const uint8_t *p, bool som)
{
	int ret;

	ret = addr_get(&x->pid_on_fep, &x->resource_index, p + 8);
	if (ret)
		return ret;
	ret = req_ctl_get(&x->ctl, p);
	if (ret)
		return ret;
	x->message_id = uet_get_be16(p + 2);
	x->ri_generation = uet_get_u8(p + 4);
	x->job_id = uet_get_be24(p + 5);
	if (x->ctl.som != som || !x->message_id)
		return UET_WIRE_ERANGE;
	return 0;
}

/*
 * ---- bytes 0-11 shared by the small-message and optimized
 * non-matching formats: as struct req_prefix, with message_id holding
 * the 14-bit request_length (bytes 2-3) ----
 */

/* Both public structs start with the same six fields; a function cannot
 * take either, so these two macros copy them to and from a req_prefix. */
#define SMALL_PREFIX_OF(h) ((struct req_prefix){			\
	.ctl = (h)->ctl, .message_id = (h)->request_length,		\
	.ri_generation = (h)->ri_generation, .job_id = (h)->job_id,	\
	.pid_on_fep = (h)->pid_on_fep,					\
	.resource_index = (h)->resource_index })
#define SMALL_PREFIX_TO(h, x) do {					\
	(h)->ctl = (x)->ctl;						\
	(h)->request_length = (x)->message_id;				\
	(h)->ri_generation = (x)->ri_generation;			\
	(h)->job_id = (x)->job_id;					\
	(h)->pid_on_fep = (x)->pid_on_fep;				\
	(h)->resource_index = (x)->resource_index;			\
} while (0)

static bool small_prefix_valid(const struct req_prefix *x)
{
	return req_ctl_valid(&x->ctl) && x->ctl.som && x->ctl.eom &&
	       x->message_id <= UET_SES_SMALL_LEN_MAX &&
	       x->job_id <= UET_JOB_ID_MAX &&
	       addr_valid(x->pid_on_fep, x->resource_index);
}

static uint8_t *small_prefix_put(uint8_t *p, const struct req_prefix *x)
{
	p = small_ctl_put(p, &x->ctl);
	p = uet_put_be16(p, x->message_id);
	p = uet_put_u8(p, x->ri_generation);
	p = uet_put_be24(p, x->job_id);
	return addr_put(p, x->pid_on_fep, x->resource_index);
}

/* Reserved bits, then ranges (som = eom = 1). */
static int small_prefix_get(struct req_prefix *x, const uint8_t *p)
{
	int ret;

	ret = len14_get(&x->message_id, p + 2);
	if (ret)
		return ret;
	ret = addr_get(&x->pid_on_fep, &x->resource_index, p + 8);
	if (ret)
		return ret;
	ret = small_ctl_get(&x->ctl, p);
	if (ret)
		return ret;
	if (!x->ctl.som || !x->ctl.eom)
		return UET_WIRE_ERANGE;
	x->ri_generation = uet_get_u8(p + 4);
	x->job_id = uet_get_be24(p + 5);
	return 0;
}

static bool is_defer_send_opcode(uint8_t opcode)
{
	return opcode == UET_DEFERRABLE_SEND || opcode == UET_DEFERRABLE_TSEND;
}

/*
 * Opcodes that have their own 44-byte format: not valid in a standard
 * SOM=1 or SOM=0 header (ETYPE).
 */
static bool has_own_std_format(uint8_t opcode)
{
	return is_defer_send_opcode(opcode) || opcode == UET_DEFERRABLE_RTR;
}

/* ------------------------------------------------------------------ */
/* Standard request, SOM=1                                             */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_std_som1_encode(uint8_t *buf, size_t len,
				const struct uet_ses_std_som1 *h)
{
	const struct req_prefix x = {
		.ctl = h->ctl, .message_id = h->message_id,
		.ri_generation = h->ri_generation, .job_id = h->job_id,
		.pid_on_fep = h->pid_on_fep,
		.resource_index = h->resource_index,
	};
	uint8_t *p;

	if (len < UET_SES_STD_SOM1_LEN)
		return UET_WIRE_ENOBUFS;
	if (!prefix_valid(&x, true))
		return UET_WIRE_ERANGE;
	if (has_own_std_format(h->ctl.opcode))
		return UET_WIRE_ETYPE;
	p = prefix_put(buf, &x);
	p = uet_put_be64(p, h->buffer_offset);
	p = uet_put_be32(p, h->initiator);
	p = uet_put_be64(p, h->match_bits);
	p = uet_put_be64(p, h->header_data);
	p = uet_put_be32(p, h->request_length);
	assert(p - buf == UET_SES_STD_SOM1_LEN);
	return UET_SES_STD_SOM1_LEN;
}

ssize_t uet_ses_std_som1_decode(struct uet_ses_std_som1 *h,
				const uint8_t *buf, size_t len)
{
	struct req_prefix x;
	int ret;

	if (len < UET_SES_STD_SOM1_LEN)
		return UET_WIRE_ETRUNC;
	ret = prefix_get(&x, buf, true);
	if (ret)
		return ret;
	if (has_own_std_format(x.ctl.opcode))
		return UET_WIRE_ETYPE;
	*h = (struct uet_ses_std_som1){
		.ctl = x.ctl, .message_id = x.message_id,
		.ri_generation = x.ri_generation, .job_id = x.job_id,
		.pid_on_fep = x.pid_on_fep,
		.resource_index = x.resource_index,
		.buffer_offset = uet_get_be64(buf + 12),
		.initiator = uet_get_be32(buf + 20),
		.match_bits = uet_get_be64(buf + 24),
		.header_data = uet_get_be64(buf + 32),
		.request_length = uet_get_be32(buf + 40),
	};
	return UET_SES_STD_SOM1_LEN;
}

/* ------------------------------------------------------------------ */
/* Standard request, SOM=0                                             */
/* ------------------------------------------------------------------ */

/* Bytes 32-35 of SOM=0 (C-16); bytes 0-31 and 40-43 are as SOM=1. */
#define SOM0_OFF_RSVD		32	/* 16 reserved bits */
#define SOM0_OFF_PAYLOAD_LEN	34	/* rsvd 2 + payload_length 14 */

ssize_t uet_ses_std_som0_encode(uint8_t *buf, size_t len,
				const struct uet_ses_std_som0 *h)
{
	const struct req_prefix x = {
		.ctl = h->ctl, .message_id = h->message_id,
		.ri_generation = h->ri_generation, .job_id = h->job_id,
		.pid_on_fep = h->pid_on_fep,
		.resource_index = h->resource_index,
	};
	uint8_t *p;

	if (len < UET_SES_STD_SOM0_LEN)
		return UET_WIRE_ENOBUFS;
	/* hd is reserved in a continuation: there is no header_data */
	if (!prefix_valid(&x, false) || h->ctl.hd ||
	    h->payload_length > UET_SES_SMALL_LEN_MAX)
		return UET_WIRE_ERANGE;
	if (has_own_std_format(h->ctl.opcode))
		return UET_WIRE_ETYPE;
	p = prefix_put(buf, &x);
	p = uet_put_be64(p, h->buffer_offset);
	p = uet_put_be32(p, h->initiator);
	p = uet_put_be64(p, h->match_bits);
	p = uet_put_be16(p, 0);
	p = uet_put_be16(p, h->payload_length);
	p = uet_put_be32(p, h->message_offset);
	p = uet_put_be32(p, h->request_length);
	assert(p - buf == UET_SES_STD_SOM0_LEN);
	return UET_SES_STD_SOM0_LEN;
}

ssize_t uet_ses_std_som0_decode(struct uet_ses_std_som0 *h,
				const uint8_t *buf, size_t len)
{
	struct req_prefix x;
	uint16_t payload_length;
	int ret;

	if (len < UET_SES_STD_SOM0_LEN)
		return UET_WIRE_ETRUNC;
	/* hd is reserved: a continuation carries no header_data */
	if ((uet_get_u8(buf + 1) & REQ1_HD) ||
	    !uet_bytes_are_zero(buf + SOM0_OFF_RSVD, 2))
		return UET_WIRE_ERESERVED;
	ret = len14_get(&payload_length, buf + SOM0_OFF_PAYLOAD_LEN);
	if (ret)
		return ret;
	ret = prefix_get(&x, buf, false);
	if (ret)
		return ret;
	if (has_own_std_format(x.ctl.opcode))
		return UET_WIRE_ETYPE;
	*h = (struct uet_ses_std_som0){
		.ctl = x.ctl, .message_id = x.message_id,
		.ri_generation = x.ri_generation, .job_id = x.job_id,
		.pid_on_fep = x.pid_on_fep,
		.resource_index = x.resource_index,
		.buffer_offset = uet_get_be64(buf + 12),
		.initiator = uet_get_be32(buf + 20),
		.match_bits = uet_get_be64(buf + 24),
		.payload_length = payload_length,
		.message_offset = uet_get_be32(buf + 36),
		.request_length = uet_get_be32(buf + 40),
	};
	return UET_SES_STD_SOM0_LEN;
}

/* ------------------------------------------------------------------ */
/* Small message / small RMA                                           */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_small_msg_encode(uint8_t *buf, size_t len,
				 const struct uet_ses_small_msg *h)
{
	struct req_prefix x = SMALL_PREFIX_OF(h);
	uint8_t *p;

	if (len < UET_SES_SMALL_MSG_LEN)
		return UET_WIRE_ENOBUFS;
	if (!small_prefix_valid(&x))
		return UET_WIRE_ERANGE;
	p = small_prefix_put(buf, &x);
	p = uet_put_be32(p, h->initiator);
	p = uet_put_be64(p, h->match_bits);
	p = uet_put_be64(p, h->header_data);
	assert(p - buf == UET_SES_SMALL_MSG_LEN);
	return UET_SES_SMALL_MSG_LEN;
}

ssize_t uet_ses_small_msg_decode(struct uet_ses_small_msg *h,
				 const uint8_t *buf, size_t len)
{
	struct req_prefix x;
	int ret;

	if (len < UET_SES_SMALL_MSG_LEN)
		return UET_WIRE_ETRUNC;
	ret = small_prefix_get(&x, buf);
	if (ret)
		return ret;
	SMALL_PREFIX_TO(h, &x);
	h->initiator = uet_get_be32(buf + 12);
	h->match_bits = uet_get_be64(buf + 16);
	h->header_data = uet_get_be64(buf + 24);
	return UET_SES_SMALL_MSG_LEN;
}

/* ------------------------------------------------------------------ */
/* Optimized non-matching                                              */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_opt_nonmatch_encode(uint8_t *buf, size_t len,
				    const struct uet_ses_opt_nonmatch *h)
{
	struct req_prefix x = SMALL_PREFIX_OF(h);
	uint8_t *p;

	if (len < UET_SES_OPT_NONMATCH_LEN)
		return UET_WIRE_ENOBUFS;
	if (!small_prefix_valid(&x) || h->ctl.hd)
		return UET_WIRE_ERANGE;
	p = small_prefix_put(buf, &x);
	p = uet_put_be64(p, h->buffer_offset);
	memset(p, 0, 12);
	p += 12;
	assert(p - buf == UET_SES_OPT_NONMATCH_LEN);
	return UET_SES_OPT_NONMATCH_LEN;
}

ssize_t uet_ses_opt_nonmatch_decode(struct uet_ses_opt_nonmatch *h,
				    const uint8_t *buf, size_t len)
{
	struct req_prefix x;
	int ret;

	if (len < UET_SES_OPT_NONMATCH_LEN)
		return UET_WIRE_ETRUNC;
	/* hd is reserved in this format (ses-formats.md Table 3-10) */
	if ((uet_get_u8(buf + 1) & SMALL1_HD) ||
	    !uet_bytes_are_zero(buf + 20, 12))
		return UET_WIRE_ERESERVED;
	ret = small_prefix_get(&x, buf);
	if (ret)
		return ret;
	SMALL_PREFIX_TO(h, &x);
	h->buffer_offset = uet_get_be64(buf + 12);
	return UET_SES_OPT_NONMATCH_LEN;
}

/* ------------------------------------------------------------------ */
/* Response                                                            */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_rsp_encode(uint8_t *buf, size_t len,
			   const struct uet_ses_rsp *h)
{
	uint8_t *p;

	int ret;

	if (len < UET_SES_RSP_LEN)
		return UET_WIRE_ENOBUFS;
	ret = rsp_ctl_check(&h->ctl, UET_RESPONSE);
	if (ret)
		return ret;
	if (!h->message_id || h->job_id > UET_JOB_ID_MAX)
		return UET_WIRE_ERANGE;
	p = rsp_ctl_put(buf, &h->ctl);
	p = uet_put_be16(p, h->message_id);
	p = uet_put_u8(p, h->ri_generation);
	p = uet_put_be24(p, h->job_id);
	p = uet_put_be32(p, h->modified_length);
	p = uet_put_be32(p, 0);
	assert(p - buf == UET_SES_RSP_LEN);
	return UET_SES_RSP_LEN;
}

ssize_t uet_ses_rsp_decode(struct uet_ses_rsp *h, const uint8_t *buf,
			   size_t len)
{
	struct uet_ses_rsp v;
	int ret;

	if (len < UET_SES_RSP_LEN)
		return UET_WIRE_ETRUNC;
	ret = rsp_ctl_get(&v.ctl, buf, UET_RESPONSE);
	if (ret)
		return ret;
	if (!uet_bytes_are_zero(buf + 12, 4))
		return UET_WIRE_ERESERVED;
	v.message_id = uet_get_be16(buf + 2);
	v.ri_generation = uet_get_u8(buf + 4);
	v.job_id = uet_get_be24(buf + 5);
	v.modified_length = uet_get_be32(buf + 8);
	if (!v.message_id)
		return UET_WIRE_ERANGE;
	*h = v;
	return UET_SES_RSP_LEN;
}

/* ------------------------------------------------------------------ */
/* Response with data                                                  */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_rsp_data_encode(uint8_t *buf, size_t len,
				const struct uet_ses_rsp_data *h)
{
	uint8_t *p;

	int ret;

	if (len < UET_SES_RSP_DATA_LEN)
		return UET_WIRE_ENOBUFS;
	ret = rsp_ctl_check(&h->ctl, UET_RESPONSE_W_DATA);
	if (ret)
		return ret;
	if (!h->read_request_message_id || h->job_id > UET_JOB_ID_MAX ||
	    h->payload_length > UET_SES_SMALL_LEN_MAX)
		return UET_WIRE_ERANGE;
	p = rsp_ctl_put(buf, &h->ctl);
	p = uet_put_be16(p, h->response_message_id);
	p = uet_put_u8(p, 0);
	p = uet_put_be24(p, h->job_id);
	p = uet_put_be16(p, h->read_request_message_id);
	p = uet_put_be16(p, h->payload_length);
	p = uet_put_be32(p, h->modified_length);
	p = uet_put_be32(p, h->message_offset);
	p = uet_put_be32(p, 0);
	assert(p - buf == UET_SES_RSP_DATA_LEN);
	return UET_SES_RSP_DATA_LEN;
}

ssize_t uet_ses_rsp_data_decode(struct uet_ses_rsp_data *h,
				const uint8_t *buf, size_t len)
{
	struct uet_ses_rsp_data v;
	int ret;

	if (len < UET_SES_RSP_DATA_LEN)
		return UET_WIRE_ETRUNC;
	ret = rsp_ctl_get(&v.ctl, buf, UET_RESPONSE_W_DATA);
	if (ret)
		return ret;
	if (uet_get_u8(buf + 4) || !uet_bytes_are_zero(buf + 20, 4))
		return UET_WIRE_ERESERVED;
	ret = len14_get(&v.payload_length, buf + 10);
	if (ret)
		return ret;
	v.response_message_id = uet_get_be16(buf + 2);
	v.job_id = uet_get_be24(buf + 5);
	v.read_request_message_id = uet_get_be16(buf + 8);
	v.modified_length = uet_get_be32(buf + 12);
	v.message_offset = uet_get_be32(buf + 16);
	if (!v.read_request_message_id)
		return UET_WIRE_ERANGE;
	*h = v;
	return UET_SES_RSP_DATA_LEN;
}

/* ------------------------------------------------------------------ */
/* Optimized response with data                                        */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_opt_rsp_data_encode(uint8_t *buf, size_t len,
				    const struct uet_ses_opt_rsp_data *h)
{
	uint8_t *p;

	int ret;

	if (len < UET_SES_OPT_RSP_DATA_LEN)
		return UET_WIRE_ENOBUFS;
	ret = rsp_ctl_check(&h->ctl, UET_RESPONSE_W_DATA);
	if (ret)
		return ret;
	if (h->payload_length > UET_SES_SMALL_LEN_MAX ||
	    h->job_id > UET_JOB_ID_MAX)
		return UET_WIRE_ERANGE;
	p = rsp_ctl_put(buf, &h->ctl);
	p = uet_put_be16(p, h->payload_length);
	p = uet_put_u8(p, 0);
	p = uet_put_be24(p, h->job_id);
	p = uet_put_be32(p, h->original_request_psn);
	p = uet_put_be32(p, 0);
	assert(p - buf == UET_SES_OPT_RSP_DATA_LEN);
	return UET_SES_OPT_RSP_DATA_LEN;
}

ssize_t uet_ses_opt_rsp_data_decode(struct uet_ses_opt_rsp_data *h,
				    const uint8_t *buf, size_t len)
{
	struct uet_ses_opt_rsp_data v;
	int ret;

	if (len < UET_SES_OPT_RSP_DATA_LEN)
		return UET_WIRE_ETRUNC;
	ret = rsp_ctl_get(&v.ctl, buf, UET_RESPONSE_W_DATA);
	if (ret)
		return ret;
	if (uet_get_u8(buf + 4) || !uet_bytes_are_zero(buf + 12, 4))
		return UET_WIRE_ERESERVED;
	ret = len14_get(&v.payload_length, buf + 2);
	if (ret)
		return ret;
	v.job_id = uet_get_be24(buf + 5);
	v.original_request_psn = uet_get_be32(buf + 8);
	*h = v;
	return UET_SES_OPT_RSP_DATA_LEN;
}

/* ------------------------------------------------------------------ */
/* Atomic and compare-and-swap extensions                              */
/* ------------------------------------------------------------------ */

static bool amo_is_cas(unsigned int op)
{
	return (op >= UET_AMO_CSWAP && op <= UET_AMO_CSWAP_GT) ||
	       op == UET_AMO_MSWAP;
}

/* ses-formats.md 3.7 lists all of Table 3-21 for the 8-byte extension. */
static bool amo_ext_op_valid(unsigned int op)
{
	return op <= UET_AMO_OP_MAX;
}

ssize_t uet_ses_atomic_ext_encode(uint8_t *buf, size_t len,
				  const struct uet_ses_atomic_ext *h)
{
	uint8_t *p;

	if (len < UET_SES_ATOMIC_EXT_LEN)
		return UET_WIRE_ENOBUFS;
	if (!amo_ext_op_valid(h->atomic_opcode) ||
	    !uet_amo_dtype_size(h->atomic_datatype))
		return UET_WIRE_ERANGE;
	p = uet_put_u8(buf, h->atomic_opcode);
	p = uet_put_u8(p, h->atomic_datatype);
	p = uet_put_be16(p, h->semantic_control);
	p = uet_put_be32(p, 0);
	assert(p - buf == UET_SES_ATOMIC_EXT_LEN);
	return UET_SES_ATOMIC_EXT_LEN;
}

int uet_ses_amo_ext_peek(const uint8_t *buf, size_t len, uint8_t *op,
			 uint8_t *dtype)
{
	if (!buf || len < 2)
		return UET_WIRE_ETRUNC;
	*op = uet_get_u8(buf);
	*dtype = uet_get_u8(buf + 1);
	return 0;
}

ssize_t uet_ses_atomic_ext_decode(struct uet_ses_atomic_ext *h,
				  const uint8_t *buf, size_t len)
{
	struct uet_ses_atomic_ext v;

	if (len < UET_SES_ATOMIC_EXT_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + 4, 4))
		return UET_WIRE_ERESERVED;
	v.atomic_opcode = uet_get_u8(buf);
	v.atomic_datatype = uet_get_u8(buf + 1);
	v.semantic_control = uet_get_be16(buf + 2);
	if (!amo_ext_op_valid(v.atomic_opcode) ||
	    !uet_amo_dtype_size(v.atomic_datatype))
		return UET_WIRE_ERANGE;
	*h = v;
	return UET_SES_ATOMIC_EXT_LEN;
}

ssize_t uet_ses_cas_ext_encode(uint8_t *buf, size_t len,
			       const struct uet_ses_cas_ext *h)
{
	uint8_t *p;

	if (len < UET_SES_CAS_EXT_LEN)
		return UET_WIRE_ENOBUFS;
	if (!amo_is_cas(h->atomic_opcode) ||
	    !uet_amo_dtype_size(h->atomic_datatype))
		return UET_WIRE_ERANGE;
	p = uet_put_u8(buf, h->atomic_opcode);
	p = uet_put_u8(p, h->atomic_datatype);
	p = uet_put_be16(p, h->semantic_control);
	p = uet_put_be32(p, 0);
	p = uet_put_bytes(p, h->compare_mask_value,
			  sizeof(h->compare_mask_value));
	p = uet_put_bytes(p, h->swap_value, sizeof(h->swap_value));
	assert(p - buf == UET_SES_CAS_EXT_LEN);
	return UET_SES_CAS_EXT_LEN;
}

ssize_t uet_ses_cas_ext_decode(struct uet_ses_cas_ext *h,
			       const uint8_t *buf, size_t len)
{
	struct uet_ses_cas_ext v;

	if (len < UET_SES_CAS_EXT_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + 4, 4))
		return UET_WIRE_ERESERVED;
	v.atomic_opcode = uet_get_u8(buf);
	v.atomic_datatype = uet_get_u8(buf + 1);
	v.semantic_control = uet_get_be16(buf + 2);
	if (!amo_is_cas(v.atomic_opcode) ||
	    !uet_amo_dtype_size(v.atomic_datatype))
		return UET_WIRE_ERANGE;
	memcpy(v.compare_mask_value, buf + 8, sizeof(v.compare_mask_value));
	memcpy(v.swap_value, buf + 24, sizeof(v.swap_value));
	*h = v;
	return UET_SES_CAS_EXT_LEN;
}

/* ------------------------------------------------------------------ */
/* Rendezvous extension                                                */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_rdzv_ext_encode(uint8_t *buf, size_t len,
				const struct uet_ses_rdzv_ext *h)
{
	uint8_t *p;

	if (len < UET_SES_RDZV_EXT_LEN)
		return UET_WIRE_ENOBUFS;
	p = uet_put_be32(buf, h->eager_length);
	p = uet_put_be64(p, h->memory_key);
	p = uet_put_be64(p, h->buffer_offset);
	p = uet_put_be32(p, h->remaining_length);
	p = uet_put_be64(p, 0);
	assert(p - buf == UET_SES_RDZV_EXT_LEN);
	return UET_SES_RDZV_EXT_LEN;
}

ssize_t uet_ses_rdzv_ext_decode(struct uet_ses_rdzv_ext *h,
				const uint8_t *buf, size_t len)
{
	if (len < UET_SES_RDZV_EXT_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + 24, 8))
		return UET_WIRE_ERESERVED;
	*h = (struct uet_ses_rdzv_ext){
		.eager_length = uet_get_be32(buf),
		.memory_key = uet_get_be64(buf + 4),
		.buffer_offset = uet_get_be64(buf + 12),
		.remaining_length = uet_get_be32(buf + 20),
	};
	return UET_SES_RDZV_EXT_LEN;
}

/* ------------------------------------------------------------------ */
/* Deferrable send                                                     */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_defer_send_encode(uint8_t *buf, size_t len,
				  const struct uet_ses_defer_send *h)
{
	const struct req_prefix x = {
		.ctl = h->ctl, .message_id = h->message_id,
		.ri_generation = h->ri_generation, .job_id = h->job_id,
		.pid_on_fep = h->pid_on_fep,
		.resource_index = h->resource_index,
	};
	uint8_t *p;

	if (len < UET_SES_DEFER_SEND_LEN)
		return UET_WIRE_ENOBUFS;
	if (!prefix_valid(&x, true))
		return UET_WIRE_ERANGE;
	if (!is_defer_send_opcode(h->ctl.opcode))
		return UET_WIRE_ETYPE;
	p = prefix_put(buf, &x);
	p = uet_put_be32(p, h->initiator_restart_token);
	p = uet_put_be32(p, h->target_restart_token);
	p = uet_put_be32(p, h->initiator);
	p = uet_put_be64(p, h->match_bits);
	p = uet_put_be64(p, h->header_data);
	p = uet_put_be32(p, h->request_length);
	assert(p - buf == UET_SES_DEFER_SEND_LEN);
	return UET_SES_DEFER_SEND_LEN;
}

ssize_t uet_ses_defer_send_decode(struct uet_ses_defer_send *h,
				  const uint8_t *buf, size_t len)
{
	struct req_prefix x;
	int ret;

	if (len < UET_SES_DEFER_SEND_LEN)
		return UET_WIRE_ETRUNC;
	ret = prefix_get(&x, buf, true);
	if (ret)
		return ret;
	if (!is_defer_send_opcode(x.ctl.opcode))
		return UET_WIRE_ETYPE;
	*h = (struct uet_ses_defer_send){
		.ctl = x.ctl, .message_id = x.message_id,
		.ri_generation = x.ri_generation, .job_id = x.job_id,
		.pid_on_fep = x.pid_on_fep,
		.resource_index = x.resource_index,
		.initiator_restart_token = uet_get_be32(buf + 12),
		.target_restart_token = uet_get_be32(buf + 16),
		.initiator = uet_get_be32(buf + 20),
		.match_bits = uet_get_be64(buf + 24),
		.header_data = uet_get_be64(buf + 32),
		.request_length = uet_get_be32(buf + 40),
	};
	return UET_SES_DEFER_SEND_LEN;
}

/* ------------------------------------------------------------------ */
/* Ready to restart                                                    */
/* ------------------------------------------------------------------ */

ssize_t uet_ses_rtr_encode(uint8_t *buf, size_t len,
			   const struct uet_ses_rtr *h)
{
	const struct req_prefix x = {
		.ctl = h->ctl, .message_id = h->message_id,
		.ri_generation = h->ri_generation, .job_id = h->job_id,
		.pid_on_fep = h->pid_on_fep,
		.resource_index = h->resource_index,
	};
	uint8_t *p;

	if (len < UET_SES_RTR_LEN)
		return UET_WIRE_ENOBUFS;
	if (!prefix_valid(&x, true))
		return UET_WIRE_ERANGE;
	if (h->ctl.opcode != UET_DEFERRABLE_RTR)
		return UET_WIRE_ETYPE;
	if (h->buffer_offset > RTR_OFFSET_MAX)
		return UET_WIRE_ERANGE;
	p = prefix_put(buf, &x);
	p = uet_put_be64(p, h->buffer_offset);
	p = uet_put_be32(p, h->initiator_restart_token);
	p = uet_put_be32(p, h->target_restart_token);
	p = uet_put_be32(p, 0);
	p = uet_put_be64(p, h->header_data);
	p = uet_put_be32(p, h->request_length);
	assert(p - buf == UET_SES_RTR_LEN);
	return UET_SES_RTR_LEN;
}

ssize_t uet_ses_rtr_decode(struct uet_ses_rtr *h, const uint8_t *buf,
			   size_t len)
{
	struct req_prefix x;
	uint64_t buffer_offset;
	int ret;

	if (len < UET_SES_RTR_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + 28, 4))
		return UET_WIRE_ERESERVED;
	ret = prefix_get(&x, buf, true);
	if (ret)
		return ret;
	if (x.ctl.opcode != UET_DEFERRABLE_RTR)
		return UET_WIRE_ETYPE;
	buffer_offset = uet_get_be64(buf + 12);
	if (buffer_offset > RTR_OFFSET_MAX)
		return UET_WIRE_ERANGE;
	*h = (struct uet_ses_rtr){
		.ctl = x.ctl, .message_id = x.message_id,
		.ri_generation = x.ri_generation, .job_id = x.job_id,
		.pid_on_fep = x.pid_on_fep,
		.resource_index = x.resource_index,
		.buffer_offset = buffer_offset,
		.initiator_restart_token = uet_get_be32(buf + 20),
		.target_restart_token = uet_get_be32(buf + 24),
		.header_data = uet_get_be64(buf + 32),
		.request_length = uet_get_be32(buf + 40),
	};
	return UET_SES_RTR_LEN;
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

int uet_ses_request_format(unsigned int next_hdr, const uint8_t *buf,
			   size_t len)
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
		/* these two keep the opcode in byte 0 bits 7:2 */
		if (b0 >> SMALL0_OPCODE_SHIFT > UET_SES_OPCODE_MAX)
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
	size_t len;
} ses_formats[] = {
	[UET_SES_FMT_STD_SOM1] = { "STD_SOM1", UET_SES_STD_SOM1_LEN },
	[UET_SES_FMT_STD_SOM0] = { "STD_SOM0", UET_SES_STD_SOM0_LEN },
	[UET_SES_FMT_SMALL_MSG] = { "SMALL_MSG", UET_SES_SMALL_MSG_LEN },
	[UET_SES_FMT_OPT_NONMATCH] = { "OPT_NONMATCH",
				       UET_SES_OPT_NONMATCH_LEN },
	[UET_SES_FMT_DEFER_SEND] = { "DEFER_SEND", UET_SES_DEFER_SEND_LEN },
	[UET_SES_FMT_RTR] = { "RTR", UET_SES_RTR_LEN },
	[UET_SES_FMT_RSP] = { "RSP", UET_SES_RSP_LEN },
	[UET_SES_FMT_RSP_DATA] = { "RSP_DATA", UET_SES_RSP_DATA_LEN },
	[UET_SES_FMT_OPT_RSP_DATA] = { "OPT_RSP_DATA",
				       UET_SES_OPT_RSP_DATA_LEN },
	[UET_SES_FMT_DEFAULT_RSP] = { "DEFAULT_RSP",
				      UET_PDS_DEFAULT_SES_RSP_LEN },
};

_Static_assert(sizeof(ses_formats) / sizeof(ses_formats[0]) ==
	       UET_SES_FMT_MAX + 1, "every SES format has a name");

size_t uet_ses_format_len(unsigned int fmt)
{
	if (fmt >= sizeof(ses_formats) / sizeof(ses_formats[0]))
		return 0;
	return ses_formats[fmt].len;
}

const char *uet_ses_format_str(unsigned int fmt)
{
	if (fmt >= sizeof(ses_formats) / sizeof(ses_formats[0]) ||
	    !ses_formats[fmt].name)
		return "UNKNOWN";
	return ses_formats[fmt].name;
}
