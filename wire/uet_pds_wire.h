/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS (Packet Delivery Sublayer) wire codecs: the 2-byte prologue, every
 * fixed PDS header, the entropy header and the PDS Default SES Response.
 *
 * Layouts: ../shared/spec/pds-formats.md as resolved to UE 1.0.1; the
 * layout actually implemented, field by field, is docs/conformance.md (4.1).
 * Conventions (return values, error codes): uet_wire.h.
 *
 * Host structs hold one member per spec field.  Reserved fields have no
 * member: encoders write zero there, decoders reject non-zero
 * (UET_WIRE_ERESERVED).  The prologue type is a member only of the
 * formats that cover more than one type (RUD/ROD request, RUD/ROD CC
 * request, RUDI); the other formats have exactly one type, which the
 * encoder writes and the decoder checks (UET_WIRE_ETYPE).  An encoder
 * given a type member (or a Default SES Response opcode) that fits its
 * wire width but is not one of its format's returns UET_WIRE_ETYPE, as
 * the decoder does; a value wider than the field is UET_WIRE_ERANGE.
 *
 * Overlaid fields (same wire bits, meaning chosen by a flag):
 *   syn = 0 -> dpdcid;   syn = 1 -> {pdc_info, psn_offset}
 *   p   = 0 -> ack_psn_offset;   p = 1 -> probe_opaque
 * The encoder writes the member selected by the flag and ignores the
 * other; the decoder fills the selected member and zeroes the other.
 */
#ifndef UET_PDS_WIRE_H
#define UET_PDS_WIRE_H

#include "uet_wire.h"

/* Opaque CC state carried by RUD/ROD_CC requests, ACK_CCX, NACK_CCX. */
#define UET_PDS_CC_STATE_LEN		16	/* 128 bits */

/* ---- Prologue (bytes 0-1 of every PDS header) ---- */

/*
 * Big-endian u16: type[15:11], next_hdr[10:7] (ctl_type in a control
 * packet), flags[6:0].  The prologue codec checks widths only; the
 * meaning of next_hdr and flags depends on type and is checked by the
 * per-format codecs.
 */
struct uet_pds_prologue {
	uint8_t type;		/* 5 bits, enum uet_pds_type */
	uint8_t next_hdr;	/* 4 bits, uet_next_hdr or uet_pds_ctl_type */
	uint8_t flags;		/* 7 bits, format-specific */
};

ssize_t uet_pds_prologue_encode(uint8_t *buf, size_t len,
				const struct uet_pds_prologue *p);
ssize_t uet_pds_prologue_decode(struct uet_pds_prologue *p,
				const uint8_t *buf, size_t len);

/*
 * The 5-bit type of the prologue at buf (enum uet_pds_type, not
 * validated) for dispatch before a typed decode, or UET_WIRE_ETRUNC when
 * len < 2.
 */
int uet_pds_peek_type(const uint8_t *buf, size_t len);

/*
 * Fixed PDS header length (prologue included) of the packet whose
 * prologue starts buf: UET_WIRE_ETRUNC if len < 2, UET_WIRE_ETYPE for
 * the reserved type, TSS (not a PDS header) and undefined types.
 */
ssize_t uet_pds_hdr_len(enum uet_wire_prof wp, const uint8_t *buf,
			size_t len);

/* Length of the PDS header of type (enum uet_pds_type) in profile wp,
 * 0 for the reserved type, TSS and undefined types. */
size_t uet_pds_type_len(enum uet_wire_prof wp, unsigned int type);

/* ---- RUD / ROD request (12 B) ---- */

struct uet_pds_rud_rod_req {
	uint8_t type;		/* UET_PDS_TYPE_RUD_REQ or _ROD_REQ */
	uint8_t next_hdr;	/* 0..UET_HDR_MAX */
	bool retx;
	bool ar;
	bool syn;
	uint16_t clear_psn_offset;
	uint32_t psn;
	uint16_t spdcid;	/* != 0 */
	uint16_t dpdcid;	/* syn = 0 only; != 0 */
	uint8_t pdc_info;	/* syn = 1 only; 4 bits, UET_PDC_INFO_* */
	uint16_t psn_offset;	/* syn = 1 only; 12 bits */
};

ssize_t uet_pds_rud_rod_req_encode(enum uet_wire_prof wp, uint8_t *buf,
				   size_t len,
				   const struct uet_pds_rud_rod_req *h);
ssize_t uet_pds_rud_rod_req_decode(enum uet_wire_prof wp,
				   struct uet_pds_rud_rod_req *h,
				   const uint8_t *buf, size_t len);

/* ---- RUD_CC / ROD_CC request (28 B) ---- */

struct uet_pds_rud_rod_cc_req {
	/* req.type is UET_PDS_TYPE_RUD_CC_REQ or _ROD_CC_REQ */
	struct uet_pds_rud_rod_req req;
	uint8_t req_cc_state[UET_PDS_CC_STATE_LEN];	/* UE+ only */
	uint8_t ccc_id;			/* UE 1.0.1 only */
	uint32_t credit_target;		/* UE 1.0.1 only, 24 bits */
};

ssize_t uet_pds_rud_rod_cc_req_encode(enum uet_wire_prof wp, uint8_t *buf,
				      size_t len,
				      const struct uet_pds_rud_rod_cc_req *h);
ssize_t uet_pds_rud_rod_cc_req_decode(enum uet_wire_prof wp,
				      struct uet_pds_rud_rod_cc_req *h,
				      const uint8_t *buf, size_t len);

/* ---- RUDI request / response (6 B) ---- */

struct uet_pds_rudi {
	uint8_t type;		/* UET_PDS_TYPE_RUDI_REQ or _RUDI_RESP */
	uint8_t next_hdr;	/* 0..UET_HDR_MAX */
	bool m;			/* response only (reserved in a request) */
	bool retx;
	uint32_t pkt_id;
};

ssize_t uet_pds_rudi_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			    const struct uet_pds_rudi *h);
ssize_t uet_pds_rudi_decode(enum uet_wire_prof wp, struct uet_pds_rudi *h,
			    const uint8_t *buf, size_t len);

/* ---- UUD request (6 B) ---- */

struct uet_pds_uud_req {
	uint8_t next_hdr;	/* 0..UET_HDR_MAX */
	uint32_t pkt_id;
};

ssize_t uet_pds_uud_req_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			       const struct uet_pds_uud_req *h);
ssize_t uet_pds_uud_req_decode(enum uet_wire_prof wp, struct uet_pds_uud_req *h,
			       const uint8_t *buf, size_t len);

/* ---- ACK (12 B) ---- */

struct uet_pds_ack {
	/* UET_HDR_NONE, _RESPONSE, _RESPONSE_DATA or _RESPONSE_DATA_SMALL */
	uint8_t next_hdr;
	bool m;
	bool retx;
	bool p;			/* probe response */
	uint8_t req;		/* 2 bits */
	int16_t ack_psn_offset;	/* p = 0 only; ACK_PSN = cack_psn + this */
	uint16_t probe_opaque;	/* p = 1 only */
	uint32_t cack_psn;
	uint16_t spdcid;	/* != 0 */
	uint16_t dpdcid;	/* != 0 */
};

ssize_t uet_pds_ack_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			   const struct uet_pds_ack *h);
ssize_t uet_pds_ack_decode(enum uet_wire_prof wp, struct uet_pds_ack *h,
			   const uint8_t *buf, size_t len);

/* ---- ACK_CC (32 B) ---- */

struct uet_pds_ack_cc {
	struct uet_pds_ack ack;	/* bytes 0-11, prologue type ACK_CC */
	uint8_t cc_type;	/* UET_CC_NSCC or UET_CC_CREDIT */
	uint8_t mpr;
	int16_t sack_psn_offset;
	uint64_t sack_bitmap;
	uint64_t ack_cc_state;
};

ssize_t uet_pds_ack_cc_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			      const struct uet_pds_ack_cc *h);
ssize_t uet_pds_ack_cc_decode(enum uet_wire_prof wp, struct uet_pds_ack_cc *h,
			      const uint8_t *buf, size_t len);

/* ---- ACK_CCX (40 B) ---- */

struct uet_pds_ack_ccx {
	struct uet_pds_ack ack;	/* bytes 0-11, prologue type ACK_CCX */
	uint8_t cc_type;	/* UET_CC_NSCC or UET_CC_CREDIT */
	uint8_t mpr;
	int16_t sack_psn_offset;
	uint64_t sack_bitmap;
	uint8_t ack_ccx_state[UET_PDS_CC_STATE_LEN];
};

ssize_t uet_pds_ack_ccx_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			       const struct uet_pds_ack_ccx *h);
ssize_t uet_pds_ack_ccx_decode(enum uet_wire_prof wp, struct uet_pds_ack_ccx *h,
			       const uint8_t *buf, size_t len);

/* ---- NACK (12 B) ---- */

struct uet_pds_nack {
	uint8_t next_hdr;	/* UET_HDR_NONE */
	bool m;
	bool retx;
	bool nt;		/* 0 = RUD/ROD, 1 = RUDI */
	uint8_t nack_code;	/* 0..UET_NACK_MAX */
	uint8_t vendor_code;
	uint32_t nack_psn;	/* PSN, or pkt_id when nt = 1 */
	uint16_t spdcid;	/* 0 allowed; must be 0 when nt = 1 */
	uint16_t dpdcid;	/* 0 allowed; must be 0 when nt = 1 */
	uint32_t payload;	/* UE 1.0.1 only: bytes 12-15, per code */
};

ssize_t uet_pds_nack_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			    const struct uet_pds_nack *h);
ssize_t uet_pds_nack_decode(enum uet_wire_prof wp, struct uet_pds_nack *h,
			    const uint8_t *buf, size_t len);

/* ---- NACK_CCX (28 B) ---- */

struct uet_pds_nack_ccx {
	struct uet_pds_nack nack; /* bytes 0-11, prologue type NACK_CCX */
	uint8_t nack_ccx_state[UET_PDS_CC_STATE_LEN];
};

ssize_t uet_pds_nack_ccx_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
				const struct uet_pds_nack_ccx *h);
ssize_t uet_pds_nack_ccx_decode(enum uet_wire_prof wp,
				struct uet_pds_nack_ccx *h, const uint8_t *buf,
				size_t len);

/* ---- Control packet (12 B) ---- */

struct uet_pds_cp {
	uint8_t ctl_type;	/* 0..UET_CTL_MAX, in the next_hdr slot */
	bool isrod;
	bool retx;
	bool ar;
	bool syn;
	uint16_t probe_opaque;
	uint32_t psn;
	uint16_t spdcid;	/* != 0 */
	uint16_t dpdcid;	/* syn = 0 only; != 0 */
	uint8_t pdc_info;	/* syn = 1 only; 4 bits, UET_PDC_INFO_* */
	uint16_t psn_offset;	/* syn = 1 only; 12 bits */
	uint32_t payload;	/* UE 1.0.1 only: bytes 12-15, per ctl_type */
};

ssize_t uet_pds_cp_encode(enum uet_wire_prof wp, uint8_t *buf, size_t len,
			  const struct uet_pds_cp *h);
ssize_t uet_pds_cp_decode(enum uet_wire_prof wp, struct uet_pds_cp *h,
			  const uint8_t *buf, size_t len);

/* ---- Entropy header (4 B, no prologue) ---- */

struct uet_pds_entropy {
	uint16_t entropy;
};

ssize_t uet_pds_entropy_encode(uint8_t *buf, size_t len,
			       const struct uet_pds_entropy *h);
ssize_t uet_pds_entropy_decode(struct uet_pds_entropy *h,
			       const uint8_t *buf, size_t len);

/* ---- PDS Default SES Response (8 B, no prologue) ---- */

struct uet_pds_default_ses_rsp {
	uint8_t list;		/* 2 bits, must be 0 */
	uint8_t opcode;		/* UET_DEFAULT_RESPONSE or UET_NO_RESPONSE */
	uint8_t version;	/* 2 bits, must be 0 */
	uint8_t return_code;	/* UET_RC_NULL or UET_RC_OK */
	uint16_t message_id;	/* 0 allowed */
	uint8_t ri_generation;	/* must be 0 */
	uint32_t job_id;	/* 24 bits */
	uint32_t modified_length;	/* UE 1.0.1 only (bytes 8-11) */
};

ssize_t uet_pds_default_ses_rsp_encode(enum uet_wire_prof wp, uint8_t *buf,
				       size_t len,
				       const struct uet_pds_default_ses_rsp *h);
ssize_t uet_pds_default_ses_rsp_decode(enum uet_wire_prof wp,
				       struct uet_pds_default_ses_rsp *h,
				       const uint8_t *buf, size_t len);

#endif /* UET_PDS_WIRE_H */
