/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS wire codecs.  Layouts as implemented: docs/conformance.md (4.1).
 *
 * Every header is handled in three steps: the encoder checks the output
 * length and every host field before it writes a byte; the decoder
 * checks the input length before it reads a byte, decodes into a local
 * struct and copies it out only on success.  The RUD/ROD request, ACK
 * and NACK forms share one encoder and decoder (pds_encode, pds_decode):
 * a base header plus a field table (uet_wire_fields.h) for their CC
 * bytes.
 */
#include <string.h>

#include "uet_pds_wire.h"
#include "uet_wire_fields.h"

/* ------------------------------------------------------------------ */
/* Prologue: big-endian u16 = type[15:11] next_hdr[10:7] flags[6:0].   */
/* ------------------------------------------------------------------ */
#define PRO_TYPE_BITS		5
#define PRO_NEXT_HDR_BITS	4
#define PRO_FLAGS_BITS		7
#define PRO_TYPE_SHIFT		11
#define PRO_NEXT_HDR_SHIFT	7
#define PRO_TYPE_MAX		0x1f
#define PRO_NEXT_HDR_MAX	0xf
#define PRO_FLAGS_MASK		0x7f

_Static_assert(PRO_TYPE_BITS + PRO_NEXT_HDR_BITS + PRO_FLAGS_BITS ==
	       8 * UET_PDS_PROLOGUE_LEN, "prologue is 2 bytes");
_Static_assert(PRO_TYPE_SHIFT == PRO_NEXT_HDR_BITS + PRO_FLAGS_BITS &&
	       PRO_NEXT_HDR_SHIFT == PRO_FLAGS_BITS, "prologue shifts");

/*
 * Flag bits: bits of the 7-bit flags field, which are also bits 6:0 of
 * byte 1 (bit 7 of byte 1 is the LSB of next_hdr).
 */
#define F_M		0x20	/* ACK, NACK, RUDI response */
#define F_ISROD		0x20	/* control packet */
#define F_RETX		0x10	/* all but UUD */
#define F_AR		0x08	/* RUD/ROD request, control packet */
#define F_P		0x08	/* ACK */
#define F_NT		0x08	/* NACK */
#define F_SYN		0x04	/* RUD/ROD request, control packet */
#define F_REQ_SHIFT	1	/* ACK: req in flags[2:1] */
#define F_REQ_MASK	0x06
#define ACK_REQ_MAX	0x3

/* Reserved flag bits of each format. */
#define RSVD_RUD_ROD	0x63	/* [6:5], [1:0] */
#define RSVD_RUDI	0x4f	/* [6], [3:0]; plus m in a request */
#define RSVD_UUD	0x7f	/* [6:0] */
#define RSVD_ACK	0x41	/* [6], [0] */
#define RSVD_NACK	0x47	/* [6], [2:0] */
#define RSVD_CP		0x43	/* [6], [1:0] */

_Static_assert((RSVD_RUD_ROD & (F_RETX | F_AR | F_SYN)) == 0 &&
	       (RSVD_RUD_ROD | F_RETX | F_AR | F_SYN) == PRO_FLAGS_MASK,
	       "RUD/ROD flags cover 7 bits");
_Static_assert((RSVD_RUDI & (F_M | F_RETX)) == 0 &&
	       (RSVD_RUDI | F_M | F_RETX) == PRO_FLAGS_MASK,
	       "RUDI flags cover 7 bits");
_Static_assert((RSVD_ACK & (F_M | F_RETX | F_P | F_REQ_MASK)) == 0 &&
	       (RSVD_ACK | F_M | F_RETX | F_P | F_REQ_MASK) == PRO_FLAGS_MASK,
	       "ACK flags cover 7 bits");
_Static_assert((RSVD_NACK & (F_M | F_RETX | F_NT)) == 0 &&
	       (RSVD_NACK | F_M | F_RETX | F_NT) == PRO_FLAGS_MASK,
	       "NACK flags cover 7 bits");
_Static_assert((RSVD_CP & (F_ISROD | F_RETX | F_AR | F_SYN)) == 0 &&
	       (RSVD_CP | F_ISROD | F_RETX | F_AR | F_SYN) == PRO_FLAGS_MASK,
	       "CP flags cover 7 bits");

/* dpdcid slot when syn = 1: pdc_info[15:12], psn_offset[11:0]. */
#define PDC_INFO_BITS		4
#define PSN_OFFSET_BITS		12
#define PDC_INFO_SHIFT		12
#define PDC_INFO_MAX		0xf

_Static_assert(PDC_INFO_BITS + PSN_OFFSET_BITS == 16, "dpdcid slot");
_Static_assert(UET_PSN_OFFSET_MAX == (1u << PSN_OFFSET_BITS) - 1,
	       "psn_offset width");
_Static_assert((UET_PDC_INFO_USE_RSV_PDC | UET_PDC_INFO_RSVD_MASK) ==
	       PDC_INFO_MAX && !(UET_PDC_INFO_USE_RSV_PDC &
				 UET_PDC_INFO_RSVD_MASK), "pdc_info bits");

/* cc_type[7:4] / cc_flags[3:0] byte of ACK_CC and ACK_CCX. */
#define CC_TYPE_SHIFT		4
#define CC_FLAGS_MASK		0x0f

/* Default SES Response: list[7:6] opcode[5:0]; version[7:6] rc[5:0]. */
#define DSR_HI2_SHIFT		6
#define DSR_LO6_MASK		0x3f

/* ---- Format sizes: sum of field widths in bits ---- */

/* prologue + clear_psn_offset + psn + spdcid + dpdcid */
_Static_assert(16 + 16 + 32 + 16 + 16 == 8 * UET_PDS_RUD_ROD_REQ_LEN,
	       "RUD/ROD request size");
/* RUD/ROD request + req_cc_state */
_Static_assert(8 * UET_PDS_RUD_ROD_REQ_LEN + 8 * UET_PDS_CC_STATE_LEN ==
	       8 * UET_PDS_RUD_ROD_CC_REQ_LEN, "RUD/ROD CC request size");
/* prologue + pkt_id */
_Static_assert(16 + 32 == 8 * UET_PDS_RUDI_LEN, "RUDI size");
_Static_assert(16 + 32 == 8 * UET_PDS_UUD_REQ_LEN, "UUD size");
/* prologue + ack_psn_offset|probe_opaque + cack_psn + spdcid + dpdcid */
_Static_assert(16 + 16 + 32 + 16 + 16 == 8 * UET_PDS_ACK_LEN, "ACK size");
/* ACK + cc_type + cc_flags + mpr + sack_psn_offset + sack_bitmap
 * + ack_cc_state */
_Static_assert(8 * UET_PDS_ACK_LEN + 4 + 4 + 8 + 16 + 64 + 64 ==
	       8 * UET_PDS_ACK_CC_LEN, "ACK_CC size");
/* ACK + cc_type + cc_flags + mpr + sack_psn_offset + sack_bitmap
 * + ack_ccx_state */
_Static_assert(8 * UET_PDS_ACK_LEN + 4 + 4 + 8 + 16 + 64 +
	       8 * UET_PDS_CC_STATE_LEN == 8 * UET_PDS_ACK_CCX_LEN,
	       "ACK_CCX size");
/* prologue + nack_code + vendor_code + nack_psn + spdcid + dpdcid */
_Static_assert(16 + 8 + 8 + 32 + 16 + 16 == 8 * UET_PDS_NACK_LEN,
	       "NACK size");
/* NACK + nack_ccx_state */
_Static_assert(8 * UET_PDS_NACK_LEN + 8 * UET_PDS_CC_STATE_LEN ==
	       8 * UET_PDS_NACK_CCX_LEN, "NACK_CCX size");
/* prologue + probe_opaque + psn + spdcid + dpdcid */
_Static_assert(16 + 16 + 32 + 16 + 16 == 8 * UET_PDS_CP_LEN, "CP size");
/* entropy + reserved */
_Static_assert(16 + 16 == 8 * UET_PDS_ENTROPY_LEN, "entropy size");
/* list + opcode + version + return_code + message_id + ri_generation
 * + job_id */
_Static_assert(2 + 6 + 2 + 6 + 16 + 8 + 24 ==
	       8 * UET_PDS_DEFAULT_SES_RSP_LEN, "default SES response size");

/* Byte offsets shared by the 12-byte headers. */
#define OFF_W16		2	/* clear_psn_offset / ack_psn_offset / ... */
#define OFF_W32		4	/* psn / cack_psn / nack_psn */
#define OFF_SPDCID	8
#define OFF_DPDCID	10
#define OFF_EXT		12	/* first byte after the 12-byte header */

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

static uint16_t prologue_pack(unsigned int type, unsigned int next_hdr,
			      unsigned int flags)
{
	return (uint16_t)(type << PRO_TYPE_SHIFT |
			  next_hdr << PRO_NEXT_HDR_SHIFT | flags);
}

static void prologue_unpack(const uint8_t *buf, uint8_t *type,
			    uint8_t *next_hdr, uint8_t *flags)
{
	uint16_t v = uet_get_be16(buf);

	*type = (uint8_t)(v >> PRO_TYPE_SHIFT);
	*next_hdr = (uint8_t)(v >> PRO_NEXT_HDR_SHIFT & PRO_NEXT_HDR_MAX);
	*flags = (uint8_t)(v & PRO_FLAGS_MASK);
}

/* Two's-complement reinterpretation without implementation-defined casts. */
static int16_t s16(uint16_t v)
{
	return (int16_t)(v & 0x8000 ? (int32_t)v - 0x10000 : (int32_t)v);
}

static uint8_t flag(bool set, uint8_t bit)
{
	return set ? bit : 0;
}

static bool pdc_est_valid(uint8_t pdc_info, uint16_t psn_offset)
{
	return pdc_info <= PDC_INFO_MAX &&
	       !(pdc_info & UET_PDC_INFO_RSVD_MASK) &&
	       psn_offset <= UET_PSN_OFFSET_MAX;
}

/*
 * pdc_info's one defined bit, use_rsv_pdc: UE+ has it as the low bit of
 * the 4-bit value (u16 0x1000), UE 1.0.1 as its first bit counted from
 * the MSB (u16 0x8000), as two of the three readings do
 * (docs/conformance.md).  Host values are UE+'s.
 */
#define UE_PDC_INFO_USE_RSV_PDC	0x8

static uint8_t pdc_info_to_wire(enum uet_wire_prof wp, uint8_t pdc_info)
{
	if (wp != UET_WIRE_UE)
		return pdc_info;
	return pdc_info & UET_PDC_INFO_USE_RSV_PDC ? UE_PDC_INFO_USE_RSV_PDC : 0;
}

static uint16_t pdc_est_pack(enum uet_wire_prof wp, uint8_t pdc_info,
			     uint16_t psn_offset)
{
	return (uint16_t)(pdc_info_to_wire(wp, pdc_info) << PDC_INFO_SHIFT |
			  psn_offset);
}

/* The dpdcid slot (bytes 10-11) of a RUD/ROD request or a control
 * packet: dpdcid, or pdc_info and psn_offset when syn = 1 (reserved
 * pdc_info bits: UET_WIRE_ERESERVED). */
static int pdc_slot_get(enum uet_wire_prof wp, const uint8_t *buf, bool syn,
			uint16_t *dpdcid, uint8_t *pdc_info,
			uint16_t *psn_offset)
{
	uint16_t dst = uet_get_be16(buf + OFF_DPDCID);
	uint8_t info;

	if (!syn) {
		*dpdcid = dst;
		return 0;
	}
	info = (uint8_t)(dst >> PDC_INFO_SHIFT);
	*psn_offset = dst & UET_PSN_OFFSET_MAX;
	if (wp == UET_WIRE_UE) {
		*pdc_info = info & UE_PDC_INFO_USE_RSV_PDC ?
			    UET_PDC_INFO_USE_RSV_PDC : 0;
		return info & ~UE_PDC_INFO_USE_RSV_PDC ?
		       UET_WIRE_ERESERVED : 0;
	}
	*pdc_info = info;
	return info & UET_PDC_INFO_RSVD_MASK ? UET_WIRE_ERESERVED : 0;
}

/*
 * clear_psn_offset: UE+ carries PSN - CLEAR_PSN, UE 1.0.1 the signed
 * CLEAR_PSN - PSN (docs/conformance.md); host values are UE+'s.
 */
static uint16_t clear_off_wire(enum uet_wire_prof wp, uint16_t v)
{
	return wp == UET_WIRE_UE ? (uint16_t)(0u - v) : v;
}

static bool cc_type_valid(unsigned int cc_type)
{
	return cc_type == UET_CC_NSCC || cc_type == UET_CC_CREDIT;
}

static bool ack_next_hdr_valid(unsigned int next_hdr)
{
	return next_hdr == UET_HDR_NONE || next_hdr == UET_HDR_RESPONSE ||
	       next_hdr == UET_HDR_RESPONSE_DATA ||
	       next_hdr == UET_HDR_RESPONSE_DATA_SMALL;
}

/* ------------------------------------------------------------------ */
/* Prologue and header length                                          */
/* ------------------------------------------------------------------ */

int uet_pds_peek_type(const uint8_t *buf, size_t len)
{
	uint8_t type, next_hdr, flags;

	if (!buf || len < UET_PDS_PROLOGUE_LEN)
		return UET_WIRE_ETRUNC;
	prologue_unpack(buf, &type, &next_hdr, &flags);
	return type;
}

ssize_t uet_pds_prologue_encode(uint8_t *buf, size_t len,
				const struct uet_pds_prologue *p)
{
	if (len < UET_PDS_PROLOGUE_LEN)
		return UET_WIRE_ENOBUFS;
	if (p->type > PRO_TYPE_MAX || p->next_hdr > PRO_NEXT_HDR_MAX ||
	    p->flags > PRO_FLAGS_MASK)
		return UET_WIRE_ERANGE;
	uet_put_be16(buf, prologue_pack(p->type, p->next_hdr, p->flags));
	return UET_PDS_PROLOGUE_LEN;
}

ssize_t uet_pds_prologue_decode(struct uet_pds_prologue *p,
				const uint8_t *buf, size_t len)
{
	if (len < UET_PDS_PROLOGUE_LEN)
		return UET_WIRE_ETRUNC;
	prologue_unpack(buf, &p->type, &p->next_hdr, &p->flags);
	return UET_PDS_PROLOGUE_LEN;
}

/* Header length of each PDS type, per profile (docs/conformance.md). */
static const uint8_t pds_type_len[UET_WIRE_NPROF][UET_PDS_TYPE_FIELD_MAX + 1] = {
	[UET_WIRE_UEPLUS] = {
		[UET_PDS_TYPE_RUD_REQ] = UET_PDS_RUD_ROD_REQ_LEN,
		[UET_PDS_TYPE_ROD_REQ] = UET_PDS_RUD_ROD_REQ_LEN,
		[UET_PDS_TYPE_RUDI_REQ] = UET_PDS_RUDI_LEN,
		[UET_PDS_TYPE_RUDI_RESP] = UET_PDS_RUDI_LEN,
		[UET_PDS_TYPE_UUD_REQ] = UET_PDS_UUD_REQ_LEN,
		[UET_PDS_TYPE_ACK] = UET_PDS_ACK_LEN,
		[UET_PDS_TYPE_ACK_CC] = UET_PDS_ACK_CC_LEN,
		[UET_PDS_TYPE_ACK_CCX] = UET_PDS_ACK_CCX_LEN,
		[UET_PDS_TYPE_NACK] = UET_PDS_NACK_LEN,
		[UET_PDS_TYPE_CP] = UET_PDS_CP_LEN,
		[UET_PDS_TYPE_NACK_CCX] = UET_PDS_NACK_CCX_LEN,
		[UET_PDS_TYPE_RUD_CC_REQ] = UET_PDS_RUD_ROD_CC_REQ_LEN,
		[UET_PDS_TYPE_ROD_CC_REQ] = UET_PDS_RUD_ROD_CC_REQ_LEN,
	},
	[UET_WIRE_UE] = {
		[UET_PDS_TYPE_RUD_REQ] = UET_PDS_RUD_ROD_REQ_LEN,
		[UET_PDS_TYPE_ROD_REQ] = UET_PDS_RUD_ROD_REQ_LEN,
		[UET_PDS_TYPE_RUDI_REQ] = UET_PDS_UE_RUDI_LEN,
		[UET_PDS_TYPE_RUDI_RESP] = UET_PDS_UE_RUDI_LEN,
		[UET_PDS_TYPE_UUD_REQ] = UET_PDS_UE_UUD_REQ_LEN,
		[UET_PDS_TYPE_ACK] = UET_PDS_ACK_LEN,
		[UET_PDS_TYPE_ACK_CC] = UET_PDS_ACK_CC_LEN,
		[UET_PDS_TYPE_ACK_CCX] = UET_PDS_UE_ACK_CCX_LEN,
		[UET_PDS_TYPE_NACK] = UET_PDS_UE_NACK_LEN,
		[UET_PDS_TYPE_CP] = UET_PDS_UE_CP_LEN,
		[UET_PDS_TYPE_NACK_CCX] = UET_PDS_UE_NACK_CCX_LEN,
		[UET_PDS_TYPE_RUD_CC_REQ] = UET_PDS_UE_RUD_ROD_CC_REQ_LEN,
		[UET_PDS_TYPE_ROD_CC_REQ] = UET_PDS_UE_RUD_ROD_CC_REQ_LEN,
	},
};

size_t uet_pds_type_len(enum uet_wire_prof wp, unsigned int type)
{
	if ((unsigned int)wp >= UET_WIRE_NPROF || type > UET_PDS_TYPE_FIELD_MAX)
		return 0;
	return pds_type_len[wp][type];
}

ssize_t uet_pds_hdr_len(enum uet_wire_prof wp, const uint8_t *buf,
			size_t len)
{
	size_t n;

	if (len < UET_PDS_PROLOGUE_LEN)
		return UET_WIRE_ETRUNC;
	/* RESERVED, TSS (not a PDS header), undefined: 0 */
	n = uet_pds_type_len(wp, buf[0] >> (PRO_TYPE_SHIFT - 8));
	return n ? (ssize_t)n : UET_WIRE_ETYPE;
}

/* ------------------------------------------------------------------ */
/* RUD/ROD request, with or without CC state                          */
/* ------------------------------------------------------------------ */

static bool rud_rod_type_valid(unsigned int type, bool cc)
{
	if (cc)
		return type == UET_PDS_TYPE_RUD_CC_REQ ||
		       type == UET_PDS_TYPE_ROD_CC_REQ;
	return type == UET_PDS_TYPE_RUD_REQ || type == UET_PDS_TYPE_ROD_REQ;
}

static int rud_rod_check(const struct uet_pds_rud_rod_req *h, bool cc)
{
	if (h->type > PRO_TYPE_MAX)
		return UET_WIRE_ERANGE;		/* does not fit 5 bits */
	if (!rud_rod_type_valid(h->type, cc))
		return UET_WIRE_ETYPE;
	if (h->next_hdr > UET_HDR_MAX || h->spdcid == 0)
		return UET_WIRE_ERANGE;
	if (h->syn ? !pdc_est_valid(h->pdc_info, h->psn_offset) :
		     h->dpdcid == 0)
		return UET_WIRE_ERANGE;
	return 0;
}

static void rud_rod_put(enum uet_wire_prof wp, uint8_t *buf,
			const struct uet_pds_rud_rod_req *h)
{
	uint8_t flags = flag(h->retx, F_RETX) | flag(h->ar, F_AR) |
			flag(h->syn, F_SYN);

	uet_put_be16(buf, prologue_pack(h->type, h->next_hdr, flags));
	uet_put_be16(buf + OFF_W16, clear_off_wire(wp, h->clear_psn_offset));
	uet_put_be32(buf + OFF_W32, h->psn);
	uet_put_be16(buf + OFF_SPDCID, h->spdcid);
	uet_put_be16(buf + OFF_DPDCID, h->syn ?
		     pdc_est_pack(wp, h->pdc_info, h->psn_offset) : h->dpdcid);
}

static int rud_rod_get(enum uet_wire_prof wp, struct uet_pds_rud_rod_req *out,
		       const uint8_t *buf, bool cc)
{
	struct uet_pds_rud_rod_req h = { 0 };
	uint8_t flags;
	int ret;

	prologue_unpack(buf, &h.type, &h.next_hdr, &flags);
	if (!rud_rod_type_valid(h.type, cc))
		return UET_WIRE_ETYPE;
	if (flags & RSVD_RUD_ROD)
		return UET_WIRE_ERESERVED;
	h.retx = flags & F_RETX;
	h.ar = flags & F_AR;
	h.syn = flags & F_SYN;
	h.clear_psn_offset = clear_off_wire(wp, uet_get_be16(buf + OFF_W16));
	h.psn = uet_get_be32(buf + OFF_W32);
	h.spdcid = uet_get_be16(buf + OFF_SPDCID);
	ret = pdc_slot_get(wp, buf, h.syn, &h.dpdcid, &h.pdc_info,
			   &h.psn_offset);
	if (ret)
		return ret;
	if (h.next_hdr > UET_HDR_MAX || h.spdcid == 0 ||
	    (!h.syn && h.dpdcid == 0))
		return UET_WIRE_ERANGE;
	*out = h;
	return 0;
}

/* ------------------------------------------------------------------ */
/* RUDI request/response, UUD request                                  */
/* ------------------------------------------------------------------ */

#define OFF_PKT_ID	2
#define UE_OFF_PKT_ID	4	/* UE 1.0.1: bytes 2-3 reserved */

ssize_t uet_pds_rudi_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			    const struct uet_pds_rudi *h)
{
	uint8_t flags;

	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_RUDI_REQ))
		return UET_WIRE_ENOBUFS;
	if (h->type > PRO_TYPE_MAX)
		return UET_WIRE_ERANGE;
	if (h->type != UET_PDS_TYPE_RUDI_REQ &&
	    h->type != UET_PDS_TYPE_RUDI_RESP)
		return UET_WIRE_ETYPE;
	if (h->next_hdr > UET_HDR_MAX ||
	    (h->m && h->type == UET_PDS_TYPE_RUDI_REQ))
		return UET_WIRE_ERANGE;
	flags = flag(h->m, F_M) | flag(h->retx, F_RETX);
	uet_put_be16(buf, prologue_pack(h->type, h->next_hdr, flags));
	if (wp == UET_WIRE_UE) {
		uet_put_be16(buf + OFF_W16, 0);
		uet_put_be32(buf + UE_OFF_PKT_ID, h->pkt_id);
		return UET_PDS_UE_RUDI_LEN;
	}
	uet_put_be32(buf + OFF_PKT_ID, h->pkt_id);
	return UET_PDS_RUDI_LEN;
}

ssize_t uet_pds_rudi_decode(enum uet_wire_prof wp, struct uet_pds_rudi *out,
			    const uint8_t *buf, size_t len)
{
	struct uet_pds_rudi h = { 0 };
	uint8_t flags, rsvd;

	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_RUDI_REQ))
		return UET_WIRE_ETRUNC;
	prologue_unpack(buf, &h.type, &h.next_hdr, &flags);
	if (h.type != UET_PDS_TYPE_RUDI_REQ &&
	    h.type != UET_PDS_TYPE_RUDI_RESP)
		return UET_WIRE_ETYPE;
	rsvd = RSVD_RUDI | (h.type == UET_PDS_TYPE_RUDI_REQ ? F_M : 0);
	if ((flags & rsvd) ||
	    (wp == UET_WIRE_UE && uet_get_be16(buf + OFF_W16)))
		return UET_WIRE_ERESERVED;
	if (h.next_hdr > UET_HDR_MAX)
		return UET_WIRE_ERANGE;
	h.m = flags & F_M;
	h.retx = flags & F_RETX;
	h.pkt_id = uet_get_be32(buf + (wp == UET_WIRE_UE ? UE_OFF_PKT_ID :
						     OFF_PKT_ID));
	*out = h;
	return (ssize_t)uet_pds_type_len(wp, h.type);
}

ssize_t uet_pds_uud_req_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			       const struct uet_pds_uud_req *h)
{
	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_UUD_REQ))
		return UET_WIRE_ENOBUFS;
	if (h->next_hdr > UET_HDR_MAX)
		return UET_WIRE_ERANGE;
	uet_put_be16(buf, prologue_pack(UET_PDS_TYPE_UUD_REQ, h->next_hdr, 0));
	if (wp == UET_WIRE_UE) {
		/* UE 1.0.1: bytes 2-3 reserved, no pkt_id */
		uet_put_be16(buf + OFF_W16, 0);
		return UET_PDS_UE_UUD_REQ_LEN;
	}
	uet_put_be32(buf + OFF_PKT_ID, h->pkt_id);
	return UET_PDS_UUD_REQ_LEN;
}

ssize_t uet_pds_uud_req_decode(enum uet_wire_prof wp,
			       struct uet_pds_uud_req *out, const uint8_t *buf,
			       size_t len)
{
	struct uet_pds_uud_req h = { 0 };
	uint8_t type, flags;

	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_UUD_REQ))
		return UET_WIRE_ETRUNC;
	prologue_unpack(buf, &type, &h.next_hdr, &flags);
	if (type != UET_PDS_TYPE_UUD_REQ)
		return UET_WIRE_ETYPE;
	if ((flags & RSVD_UUD) ||
	    (wp == UET_WIRE_UE && uet_get_be16(buf + OFF_W16)))
		return UET_WIRE_ERESERVED;
	if (h.next_hdr > UET_HDR_MAX)
		return UET_WIRE_ERANGE;
	if (wp != UET_WIRE_UE)
		h.pkt_id = uet_get_be32(buf + OFF_PKT_ID);
	*out = h;
	return (ssize_t)uet_pds_type_len(wp, UET_PDS_TYPE_UUD_REQ);
}

/* ------------------------------------------------------------------ */
/* ACK, ACK_CC, ACK_CCX                                                */
/* ------------------------------------------------------------------ */

/* Bytes 12-23 of ACK_CC and ACK_CCX. */
#define OFF_CC_TYPE	12
#define OFF_MPR		13
#define OFF_SACK_OFF	14
#define OFF_SACK_BITMAP	16
#define OFF_CC_STATE	24

static int ack_check(const struct uet_pds_ack *h)
{
	if (!ack_next_hdr_valid(h->next_hdr) || h->req > ACK_REQ_MAX ||
	    h->spdcid == 0 || h->dpdcid == 0)
		return UET_WIRE_ERANGE;
	return 0;
}

static void ack_put(uint8_t *buf, uint8_t type, const struct uet_pds_ack *h)
{
	uint8_t flags = flag(h->m, F_M) | flag(h->retx, F_RETX) |
			flag(h->p, F_P) | (uint8_t)(h->req << F_REQ_SHIFT);

	uet_put_be16(buf, prologue_pack(type, h->next_hdr, flags));
	uet_put_be16(buf + OFF_W16, h->p ? h->probe_opaque :
		     (uint16_t)h->ack_psn_offset);
	uet_put_be32(buf + OFF_W32, h->cack_psn);
	uet_put_be16(buf + OFF_SPDCID, h->spdcid);
	uet_put_be16(buf + OFF_DPDCID, h->dpdcid);
}

static int ack_get(struct uet_pds_ack *out, const uint8_t *buf, uint8_t type)
{
	struct uet_pds_ack h = { 0 };
	uint8_t wire_type, flags;
	uint16_t w16;

	prologue_unpack(buf, &wire_type, &h.next_hdr, &flags);
	if (wire_type != type)
		return UET_WIRE_ETYPE;
	if (flags & RSVD_ACK)
		return UET_WIRE_ERESERVED;
	h.m = flags & F_M;
	h.retx = flags & F_RETX;
	h.p = flags & F_P;
	h.req = (flags & F_REQ_MASK) >> F_REQ_SHIFT;
	w16 = uet_get_be16(buf + OFF_W16);
	if (h.p)
		h.probe_opaque = w16;
	else
		h.ack_psn_offset = s16(w16);
	h.cack_psn = uet_get_be32(buf + OFF_W32);
	h.spdcid = uet_get_be16(buf + OFF_SPDCID);
	h.dpdcid = uet_get_be16(buf + OFF_DPDCID);
	if (!ack_next_hdr_valid(h.next_hdr) || h.spdcid == 0 || h.dpdcid == 0)
		return UET_WIRE_ERANGE;
	*out = h;
	return 0;
}

/* ------------------------------------------------------------------ */
/* NACK, NACK_CCX                                                      */
/* ------------------------------------------------------------------ */

#define OFF_NACK_CODE	2
#define OFF_VENDOR_CODE	3

/*
 * NACK codes: the host uses UE+'s (enum uet_nack_code); UE 1.0.1 numbers
 * them otherwise and has no PSN_GAP, whose meaning its RCVR_INFER_LOSS
 * carries (docs/conformance.md).  A UE 1.0.1 code with no UE+ meaning
 * decodes as ERANGE (the NACK is counted as malformed and dropped).
 */
static const uint8_t ue_nack_code[UET_NACK_MAX + 1] = {
	[UET_NACK_NO_PKT_BUF] = UET_NACK_UE_NO_PKT_BUFFER,
	[UET_NACK_TRIMMED] = UET_NACK_UE_TRIMMED,
	[UET_NACK_NO_PDC_AVAIL] = UET_NACK_UE_NO_PDC_AVAIL,
	[UET_NACK_INV_DPDCID] = UET_NACK_UE_INV_DPDCID,
	[UET_NACK_PDC_HDR_MISMATCH] = UET_NACK_UE_PDC_HDR_MISMATCH,
	[UET_NACK_PSN_OOR_WINDOW] = UET_NACK_UE_PSN_OOR_WINDOW,
	[UET_NACK_PSN_GAP] = UET_NACK_UE_RCVR_INFER_LOSS,
};

static uint8_t nack_code_to_wire(enum uet_wire_prof wp, uint8_t code)
{
	return wp == UET_WIRE_UE && code <= UET_NACK_MAX ? ue_nack_code[code] :
							   code;
}

/* The host code of a wire code, or 0xff. */
static uint8_t nack_code_from_wire(enum uet_wire_prof wp, uint8_t code)
{
	uint8_t c;

	if (wp != UET_WIRE_UE)
		return code <= UET_NACK_MAX ? code : 0xff;
	for (c = 0; c <= UET_NACK_MAX; c++)
		if (ue_nack_code[c] == code)
			return c;
	return 0xff;
}

/* pds-formats.md 3.9: spdcid and dpdcid are 0 when nt = 1 (C-P4). */
static int nack_check(const struct uet_pds_nack *h)
{
	if (h->next_hdr != UET_HDR_NONE || h->nack_code > UET_NACK_MAX)
		return UET_WIRE_ERANGE;
	if (h->nt && (h->spdcid || h->dpdcid))
		return UET_WIRE_ERANGE;
	return 0;
}

static void nack_put(enum uet_wire_prof wp, uint8_t *buf, uint8_t type,
		     const struct uet_pds_nack *h)
{
	uint8_t flags = flag(h->m, F_M) | flag(h->retx, F_RETX) |
			flag(h->nt, F_NT);

	uet_put_be16(buf, prologue_pack(type, h->next_hdr, flags));
	uet_put_u8(buf + OFF_NACK_CODE, nack_code_to_wire(wp, h->nack_code));
	uet_put_u8(buf + OFF_VENDOR_CODE, h->vendor_code);
	uet_put_be32(buf + OFF_W32, h->nack_psn);
	uet_put_be16(buf + OFF_SPDCID, h->spdcid);
	uet_put_be16(buf + OFF_DPDCID, h->dpdcid);
}

static int nack_get(enum uet_wire_prof wp, struct uet_pds_nack *out,
		    const uint8_t *buf, uint8_t type)
{
	struct uet_pds_nack h = { 0 };
	uint8_t wire_type, flags;

	prologue_unpack(buf, &wire_type, &h.next_hdr, &flags);
	if (wire_type != type)
		return UET_WIRE_ETYPE;
	if (flags & RSVD_NACK)
		return UET_WIRE_ERESERVED;
	h.m = flags & F_M;
	h.retx = flags & F_RETX;
	h.nt = flags & F_NT;
	h.nack_code = nack_code_from_wire(wp, uet_get_u8(buf + OFF_NACK_CODE));
	h.vendor_code = uet_get_u8(buf + OFF_VENDOR_CODE);
	h.nack_psn = uet_get_be32(buf + OFF_W32);
	h.spdcid = uet_get_be16(buf + OFF_SPDCID);
	h.dpdcid = uet_get_be16(buf + OFF_DPDCID);
	if (nack_check(&h))
		return UET_WIRE_ERANGE;
	*out = h;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Formats built on a 12-byte base header                              */
/* ------------------------------------------------------------------ */

enum pds_base {
	BASE_RUD_ROD,		/* rud_rod_*, cc = false */
	BASE_RUD_ROD_CC,	/* rud_rod_*, cc = true */
	BASE_ACK,		/* ack_* */
	BASE_NACK,		/* nack_* */
};

/*
 * A format that is a base header (RUD/ROD request, ACK or NACK: the
 * struct's first member, or the struct itself) and a field table for the
 * bytes after byte 12 (uet_wire_fields.h).  Encode: the base checks,
 * then the table's (ERANGE), then the bytes.  Decode: the base (ETYPE,
 * ERESERVED, ERANGE), then the table (ERESERVED, ERANGE); the output is
 * written only when every check passed.
 */
struct pds_fmt {
	uint8_t wp;		/* enum uet_wire_prof */
	uint8_t base;		/* enum pds_base */
	uint8_t type;		/* ACK, NACK: this format's prologue type */
	uint8_t len;		/* UET_PDS_*_LEN */
	uint16_t size;		/* sizeof the struct */
	struct uet_wf_table ext;
};

union pds_base_hdr {
	struct uet_pds_rud_rod_req req;
	struct uet_pds_ack ack;
	struct uet_pds_nack nack;
};

static int base_check(const struct pds_fmt *f, const void *h)
{
	switch (f->base) {
	case BASE_ACK:
		return ack_check(h);
	case BASE_NACK:
		return nack_check(h);
	default:
		return rud_rod_check(h, f->base == BASE_RUD_ROD_CC);
	}
}

static void base_put(const struct pds_fmt *f, uint8_t *buf, const void *h)
{
	switch (f->base) {
	case BASE_ACK:
		ack_put(buf, f->type, h);
		break;
	case BASE_NACK:
		nack_put(f->wp, buf, f->type, h);
		break;
	default:
		rud_rod_put(f->wp, buf, h);
		break;
	}
}

/* The base header into b; *n is the size of the member it filled. */
static int base_get(const struct pds_fmt *f, union pds_base_hdr *b,
		    size_t *n, const uint8_t *buf)
{
	switch (f->base) {
	case BASE_ACK:
		*n = sizeof(b->ack);
		return ack_get(&b->ack, buf, f->type);
	case BASE_NACK:
		*n = sizeof(b->nack);
		return nack_get(f->wp, &b->nack, buf, f->type);
	default:
		*n = sizeof(b->req);
		return rud_rod_get(f->wp, &b->req, buf,
				   f->base == BASE_RUD_ROD_CC);
	}
}

/* Inlined into each typed entry point, so that f is a constant. */
UET_WF_INLINE ssize_t pds_encode(const struct pds_fmt *f, uint8_t *buf,
				 size_t len, const void *h)
{
	bool clean;
	int ret;

	if (len < f->len)
		return UET_WIRE_ENOBUFS;
	/* A clean table skips its ordered passes (uet_wire_fields.h). */
	clean = uet_wf_host_clean(&f->ext, h);
	ret = base_check(f, h);
	if (!ret && !clean)
		ret = uet_wf_check_host(&f->ext, h, UET_WF_RESERVED);
	if (!ret && !clean)
		ret = uet_wf_check_host(&f->ext, h, UET_WF_VALUES);
	if (ret)
		return ret;
	base_put(f, buf, h);
	uet_wf_put(&f->ext, buf, h);
	return f->len;
}

UET_WF_INLINE ssize_t pds_decode(const struct pds_fmt *f, void *h,
				 const uint8_t *buf, size_t len)
{
	union pds_base_hdr b;
	size_t n;
	bool clean;
	int ret;

	if (len < f->len)
		return UET_WIRE_ETRUNC;
	/* A clean table skips its ordered passes (uet_wire_fields.h). */
	clean = uet_wf_wire_clean(&f->ext, buf);
	ret = base_get(f, &b, &n, buf);
	if (!ret && !clean)
		ret = uet_wf_check_wire(&f->ext, buf, UET_WF_RESERVED);
	if (!ret && !clean)
		ret = uet_wf_check_wire(&f->ext, buf, UET_WF_VALUES);
	if (ret)
		return ret;
	memset(h, 0, f->size);
	memcpy(h, &b, n);
	uet_wf_get(&f->ext, h, buf);
	return f->len;
}

static bool cc_type_ok(uint64_t cc_type)
{
	return cc_type_valid((unsigned int)cc_type);
}

/* Bytes 12-23 of ACK_CC and ACK_CCX: cc_type[7:4] cc_flags[3:0]
 * (reserved), mpr, sack_psn_offset, sack_bitmap. */
#define SACK_FIELDS(type)						\
	UET_WF_BIT(type, cc_type, OFF_CC_TYPE, 1, CC_TYPE_SHIFT, 4,	\
		   .ok = cc_type_ok),					\
	UET_WF_RB(OFF_CC_TYPE, 1, 0, CC_TYPE_SHIFT),			\
	UET_WF_U(type, mpr, OFF_MPR, 1),				\
	UET_WF_U(type, sack_psn_offset, OFF_SACK_OFF, 2),		\
	UET_WF_U(type, sack_bitmap, OFF_SACK_BITMAP, 8)

_Static_assert(CC_FLAGS_MASK == (1u << CC_TYPE_SHIFT) - 1, "cc byte");

static const struct uet_wire_field rud_rod_cc_fields[] = {
	UET_WF_B(struct uet_pds_rud_rod_cc_req, req_cc_state, OFF_EXT),
};

static const struct uet_wire_field ack_cc_fields[] = {
	SACK_FIELDS(struct uet_pds_ack_cc),
	UET_WF_U(struct uet_pds_ack_cc, ack_cc_state, OFF_CC_STATE, 8),
};

static const struct uet_wire_field ack_ccx_fields[] = {
	SACK_FIELDS(struct uet_pds_ack_ccx),
	UET_WF_B(struct uet_pds_ack_ccx, ack_ccx_state, OFF_CC_STATE),
};

static const struct uet_wire_field nack_ccx_fields[] = {
	UET_WF_B(struct uet_pds_nack_ccx, nack_ccx_state, OFF_EXT),
};

#define PDS_EXT(fields)		UET_WF_TABLE(fields, UET_WF_BE)

static const struct pds_fmt fmt_rud_rod = {
	UET_WIRE_UEPLUS, BASE_RUD_ROD, 0, UET_PDS_RUD_ROD_REQ_LEN,
	sizeof(struct uet_pds_rud_rod_req), { 0 },
};
static const struct pds_fmt fmt_rud_rod_cc = {
	UET_WIRE_UEPLUS, BASE_RUD_ROD_CC, 0, UET_PDS_RUD_ROD_CC_REQ_LEN,
	sizeof(struct uet_pds_rud_rod_cc_req), PDS_EXT(rud_rod_cc_fields),
};
static const struct pds_fmt fmt_ack = {
	UET_WIRE_UEPLUS, BASE_ACK, UET_PDS_TYPE_ACK, UET_PDS_ACK_LEN,
	sizeof(struct uet_pds_ack), { 0 },
};
static const struct pds_fmt fmt_ack_cc = {
	UET_WIRE_UEPLUS, BASE_ACK, UET_PDS_TYPE_ACK_CC, UET_PDS_ACK_CC_LEN,
	sizeof(struct uet_pds_ack_cc), PDS_EXT(ack_cc_fields),
};
static const struct pds_fmt fmt_ack_ccx = {
	UET_WIRE_UEPLUS, BASE_ACK, UET_PDS_TYPE_ACK_CCX, UET_PDS_ACK_CCX_LEN,
	sizeof(struct uet_pds_ack_ccx), PDS_EXT(ack_ccx_fields),
};
static const struct pds_fmt fmt_nack = {
	UET_WIRE_UEPLUS, BASE_NACK, UET_PDS_TYPE_NACK, UET_PDS_NACK_LEN,
	sizeof(struct uet_pds_nack), { 0 },
};
static const struct pds_fmt fmt_nack_ccx = {
	UET_WIRE_UEPLUS, BASE_NACK, UET_PDS_TYPE_NACK_CCX, UET_PDS_NACK_CCX_LEN,
	sizeof(struct uet_pds_nack_ccx), PDS_EXT(nack_ccx_fields),
};

/* UE 1.0.1 (docs/conformance.md): RUD/ROD_CC carry ccc_id and
 * credit_target (16 bytes); NACK and NACK_CCX a 4-byte payload after
 * byte 12 (16, 32 bytes). */
static const struct uet_wire_field ue_rud_rod_cc_fields[] = {
	UET_WF_U(struct uet_pds_rud_rod_cc_req, ccc_id, OFF_EXT, 1),
	UET_WF_U(struct uet_pds_rud_rod_cc_req, credit_target, OFF_EXT + 1, 3),
};

static const struct uet_wire_field ue_nack_fields[] = {
	UET_WF_U(struct uet_pds_nack, payload, OFF_EXT, 4),
};

static const struct uet_wire_field ue_nack_ccx_fields[] = {
	UET_WF_U(struct uet_pds_nack_ccx, nack.payload, OFF_EXT, 4),
	UET_WF_B(struct uet_pds_nack_ccx, nack_ccx_state, OFF_EXT + 4),
};

static const struct pds_fmt ue_fmt_rud_rod = {
	UET_WIRE_UE, BASE_RUD_ROD, 0, UET_PDS_RUD_ROD_REQ_LEN,
	sizeof(struct uet_pds_rud_rod_req), { 0 },
};
static const struct pds_fmt ue_fmt_rud_rod_cc = {
	UET_WIRE_UE, BASE_RUD_ROD_CC, 0, UET_PDS_UE_RUD_ROD_CC_REQ_LEN,
	sizeof(struct uet_pds_rud_rod_cc_req), PDS_EXT(ue_rud_rod_cc_fields),
};
static const struct pds_fmt ue_fmt_nack = {
	UET_WIRE_UE, BASE_NACK, UET_PDS_TYPE_NACK, UET_PDS_UE_NACK_LEN,
	sizeof(struct uet_pds_nack), PDS_EXT(ue_nack_fields),
};
static const struct pds_fmt ue_fmt_nack_ccx = {
	UET_WIRE_UE, BASE_NACK, UET_PDS_TYPE_NACK_CCX, UET_PDS_UE_NACK_CCX_LEN,
	sizeof(struct uet_pds_nack_ccx), PDS_EXT(ue_nack_ccx_fields),
};

_Static_assert(offsetof(struct uet_pds_rud_rod_cc_req, req) == 0 &&
	       offsetof(struct uet_pds_ack_cc, ack) == 0 &&
	       offsetof(struct uet_pds_ack_ccx, ack) == 0 &&
	       offsetof(struct uet_pds_nack_ccx, nack) == 0,
	       "the base header is the first member");

/* Typed entry points of one format (uet_pds_wire.h). */
#define PDS_CODEC(name, type, fmt_ueplus, fmt_ue)			\
	ssize_t uet_pds_##name##_encode(enum uet_wire_prof wp,		\
					uint8_t *buf, size_t len,	\
					const type *h)			\
	{								\
		/* two calls, so that each inlines a constant table */	\
		if (wp == UET_WIRE_UE)					\
			return pds_encode(&(fmt_ue), buf, len, h);	\
		return pds_encode(&(fmt_ueplus), buf, len, h);		\
	}								\
	ssize_t uet_pds_##name##_decode(enum uet_wire_prof wp, type *h,	\
					const uint8_t *buf, size_t len)	\
	{								\
		if (wp == UET_WIRE_UE)					\
			return pds_decode(&(fmt_ue), h, buf, len);	\
		return pds_decode(&(fmt_ueplus), h, buf, len);		\
	}

PDS_CODEC(rud_rod_req, struct uet_pds_rud_rod_req, fmt_rud_rod,
	  ue_fmt_rud_rod)
PDS_CODEC(rud_rod_cc_req, struct uet_pds_rud_rod_cc_req, fmt_rud_rod_cc,
	  ue_fmt_rud_rod_cc)
PDS_CODEC(ack, struct uet_pds_ack, fmt_ack,
	  fmt_ack)
PDS_CODEC(ack_cc, struct uet_pds_ack_cc, fmt_ack_cc,
	  fmt_ack_cc)
PDS_CODEC(ack_ccx, struct uet_pds_ack_ccx, fmt_ack_ccx,
	  fmt_ack_ccx)
PDS_CODEC(nack, struct uet_pds_nack, fmt_nack,
	  ue_fmt_nack)
PDS_CODEC(nack_ccx, struct uet_pds_nack_ccx, fmt_nack_ccx,
	  ue_fmt_nack_ccx)

/* ------------------------------------------------------------------ */
/* Control packet                                                      */
/* ------------------------------------------------------------------ */

ssize_t uet_pds_cp_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			  const struct uet_pds_cp *h)
{
	uint8_t flags;

	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_CP))
		return UET_WIRE_ENOBUFS;
	if (h->ctl_type > UET_CTL_MAX || h->spdcid == 0)
		return UET_WIRE_ERANGE;
	/* as in a RUD/ROD request: dpdcid != 0 once the PDC exists */
	if (h->syn ? !pdc_est_valid(h->pdc_info, h->psn_offset) :
		     h->dpdcid == 0)
		return UET_WIRE_ERANGE;
	flags = flag(h->isrod, F_ISROD) | flag(h->retx, F_RETX) |
		flag(h->ar, F_AR) | flag(h->syn, F_SYN);
	uet_put_be16(buf, prologue_pack(UET_PDS_TYPE_CP, h->ctl_type, flags));
	uet_put_be16(buf + OFF_W16, h->probe_opaque);
	uet_put_be32(buf + OFF_W32, h->psn);
	uet_put_be16(buf + OFF_SPDCID, h->spdcid);
	uet_put_be16(buf + OFF_DPDCID, h->syn ?
		     pdc_est_pack(wp, h->pdc_info, h->psn_offset) : h->dpdcid);
	if (wp == UET_WIRE_UE) {
		/* UE 1.0.1: a 4-byte payload, its meaning per ctl_type */
		uet_put_be32(buf + OFF_EXT, h->payload);
		return UET_PDS_UE_CP_LEN;
	}
	return UET_PDS_CP_LEN;
}

ssize_t uet_pds_cp_decode(enum uet_wire_prof wp, struct uet_pds_cp *out,
			  const uint8_t *buf, size_t len)
{
	struct uet_pds_cp h = { 0 };
	uint8_t type, flags;
	int ret;

	if (len < uet_pds_type_len(wp, UET_PDS_TYPE_CP))
		return UET_WIRE_ETRUNC;
	prologue_unpack(buf, &type, &h.ctl_type, &flags);
	if (type != UET_PDS_TYPE_CP)
		return UET_WIRE_ETYPE;
	if (flags & RSVD_CP)
		return UET_WIRE_ERESERVED;
	h.isrod = flags & F_ISROD;
	h.retx = flags & F_RETX;
	h.ar = flags & F_AR;
	h.syn = flags & F_SYN;
	h.probe_opaque = uet_get_be16(buf + OFF_W16);
	h.psn = uet_get_be32(buf + OFF_W32);
	h.spdcid = uet_get_be16(buf + OFF_SPDCID);
	ret = pdc_slot_get(wp, buf, h.syn, &h.dpdcid, &h.pdc_info,
			   &h.psn_offset);
	if (ret)
		return ret;
	if (h.ctl_type > UET_CTL_MAX || h.spdcid == 0 ||
	    (!h.syn && h.dpdcid == 0))
		return UET_WIRE_ERANGE;
	if (wp == UET_WIRE_UE)
		h.payload = uet_get_be32(buf + OFF_EXT);
	*out = h;
	return (ssize_t)uet_pds_type_len(wp, UET_PDS_TYPE_CP);
}

/* ------------------------------------------------------------------ */
/* Entropy header                                                      */
/* ------------------------------------------------------------------ */

ssize_t uet_pds_entropy_encode(uint8_t *buf, size_t len,
			       const struct uet_pds_entropy *h)
{
	if (len < UET_PDS_ENTROPY_LEN)
		return UET_WIRE_ENOBUFS;
	uet_put_be16(uet_put_be16(buf, h->entropy), 0);
	return UET_PDS_ENTROPY_LEN;
}

ssize_t uet_pds_entropy_decode(struct uet_pds_entropy *h,
			       const uint8_t *buf, size_t len)
{
	if (len < UET_PDS_ENTROPY_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + 2, 2))
		return UET_WIRE_ERESERVED;
	h->entropy = uet_get_be16(buf);
	return UET_PDS_ENTROPY_LEN;
}

/* ------------------------------------------------------------------ */
/* PDS Default SES Response                                            */
/* ------------------------------------------------------------------ */

#define OFF_DSR_MSG_ID	2
#define OFF_DSR_RI_GEN	4
#define OFF_DSR_JOB_ID	5
#define OFF_DSR_MOD_LEN	8	/* UE 1.0.1: modified_length, 12 bytes */

static size_t dsr_len(enum uet_wire_prof wp)
{
	return wp == UET_WIRE_UE ? UET_PDS_UE_DEFAULT_SES_RSP_LEN :
				   UET_PDS_DEFAULT_SES_RSP_LEN;
}

static bool dsr_opcode_valid(unsigned int opcode)
{
	return opcode == UET_DEFAULT_RESPONSE || opcode == UET_NO_RESPONSE;
}

static bool dsr_rc_valid(unsigned int rc)
{
	return rc == UET_RC_NULL || rc == UET_RC_OK;
}

ssize_t uet_pds_default_ses_rsp_encode(enum uet_wire_prof wp, uint8_t *buf,
				       size_t len,
				       const struct uet_pds_default_ses_rsp *h)
{
	if (len < dsr_len(wp))
		return UET_WIRE_ENOBUFS;
	if (h->opcode > DSR_LO6_MASK)
		return UET_WIRE_ERANGE;		/* does not fit 6 bits */
	if (!dsr_opcode_valid(h->opcode))
		return UET_WIRE_ETYPE;
	if (h->list || h->version != UET_SES_VERSION || h->ri_generation ||
	    !dsr_rc_valid(h->return_code) || h->job_id > UET_JOB_ID_MAX)
		return UET_WIRE_ERANGE;
	buf = uet_put_u8(buf, (uint8_t)(h->list << DSR_HI2_SHIFT | h->opcode));
	buf = uet_put_u8(buf, (uint8_t)(h->version << DSR_HI2_SHIFT |
					h->return_code));
	buf = uet_put_be16(buf, h->message_id);
	buf = uet_put_u8(buf, h->ri_generation);
	buf = uet_put_be24(buf, h->job_id);
	if (wp == UET_WIRE_UE)
		uet_put_be32(buf, h->modified_length);
	return (ssize_t)dsr_len(wp);
}

ssize_t uet_pds_default_ses_rsp_decode(enum uet_wire_prof wp,
				       struct uet_pds_default_ses_rsp *out,
				       const uint8_t *buf, size_t len)
{
	struct uet_pds_default_ses_rsp h = { 0 };
	uint8_t b0, b1;

	if (len < dsr_len(wp))
		return UET_WIRE_ETRUNC;
	b0 = uet_get_u8(buf);
	b1 = uet_get_u8(buf + 1);
	h.list = b0 >> DSR_HI2_SHIFT;
	h.opcode = b0 & DSR_LO6_MASK;
	h.version = b1 >> DSR_HI2_SHIFT;
	h.return_code = b1 & DSR_LO6_MASK;
	h.message_id = uet_get_be16(buf + OFF_DSR_MSG_ID);
	h.ri_generation = uet_get_u8(buf + OFF_DSR_RI_GEN);
	h.job_id = uet_get_be24(buf + OFF_DSR_JOB_ID);
	if (wp == UET_WIRE_UE)
		h.modified_length = uet_get_be32(buf + OFF_DSR_MOD_LEN);
	if (!dsr_opcode_valid(h.opcode))
		return UET_WIRE_ETYPE;
	if (h.list || h.version != UET_SES_VERSION || h.ri_generation)
		return UET_WIRE_ERESERVED;
	if (!dsr_rc_valid(h.return_code))
		return UET_WIRE_ERANGE;
	*out = h;
	return (ssize_t)dsr_len(wp);
}
