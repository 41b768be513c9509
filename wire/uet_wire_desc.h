/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A description of every wire format, per profile (UE+ and UE 1.0.1):
 * each field's name (the codec's host struct member), where it sits
 * (byte offset, word width, bit mask), which host member holds it
 * (offsetof/sizeof, so that a test can compare the description with the
 * codec), when it is present (a bit of the same header), and the names
 * of its values; plus the rules that chain the headers of a datagram
 * (PDS type -> PDS header; next_hdr and SES bytes 0-1 -> SES header;
 * SES opcode and atomic opcode -> extension).
 *
 * It is data only: the codecs (uet_pds_wire.c, uet_ses_wire.c,
 * uet_tss_wire.c) stay the implementation; test/check_wire_desc.c checks
 * the two agree field by field, wire/uet_wire_lua.c generates the
 * Wireshark dissector (contrib/wireshark/uet.lua) from it, and
 * test/uet_pcap_fields.c names uet's own decode of a capture through it
 * for the tshark test.  docs/wireshark.md.
 */
#ifndef UET_WIRE_DESC_H
#define UET_WIRE_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_wire.h"

/* Entropy ports: a NIC on UDP port P sprays from P + 1 .. P + this
 * (UET_LINK_ENT_SPAN of snic/uet_link.h; check_wire_desc checks). */
#define UET_WD_ENTROPY_SPAN	128u

/* The formats (one id for both profiles; their layout differs). */
enum uet_wd_fmt_id {
	UET_WD_NONE = 0,
	/* PDS (offsets include the prologue) */
	UET_WD_RUD_ROD_REQ,
	UET_WD_RUD_ROD_CC_REQ,
	UET_WD_RUDI,
	UET_WD_UUD_REQ,
	UET_WD_ACK,
	UET_WD_ACK_CC,
	UET_WD_ACK_CCX,
	UET_WD_NACK,
	UET_WD_NACK_CCX,
	UET_WD_CP,
	/* SES headers (next_hdr) */
	UET_WD_DEFAULT_SES_RSP,
	UET_WD_STD_SOM1,
	UET_WD_STD_SOM0,
	UET_WD_SMALL_MSG,	/* medium request, next_hdr 2 */
	UET_WD_OPT_NONMATCH,	/* small request, next_hdr 1 */
	UET_WD_DEFER_SEND,
	UET_WD_RTR,
	UET_WD_RSP,
	UET_WD_RSP_DATA,
	UET_WD_OPT_RSP_DATA,
	/* SES extensions */
	UET_WD_ATOMIC_EXT,
	UET_WD_CAS_EXT,
	UET_WD_RDZV_EXT,
	/* uet's TSS framing (same in both profiles) */
	UET_WD_TSS_PROLOGUE,
	UET_WD_TSS_HDR,
	UET_WD_TSS_DCI,
	UET_WD_NFMT,
};

enum uet_wd_layer {
	UET_WD_PDS,	/* filter names uet.pds.* */
	UET_WD_SES,	/* uet.ses.* */
	UET_WD_EXT,	/* uet.ext.* */
	UET_WD_TSS,	/* uet.tss.* */
};

enum uet_wd_kind {
	UET_WD_UINT,	/* unsigned integer */
	UET_WD_SINT,	/* two's-complement integer of the field's width */
	UET_WD_BOOL,	/* one bit */
	UET_WD_BYTES,	/* len bytes shown as they are (byte array member) */
	UET_WD_RSVD,	/* reserved: zero, no member */
};

/* Value-name tables. */
enum uet_wd_vals {
	UET_WD_V_NONE = 0,
	UET_WD_V_PDS_TYPE,
	UET_WD_V_NEXT_HDR,
	UET_WD_V_CTL_TYPE,
	UET_WD_V_NACK_UEPLUS,
	UET_WD_V_NACK_UE,
	UET_WD_V_CC_TYPE,
	UET_WD_V_ACK_REQ,
	UET_WD_V_SES_OPCODE,
	UET_WD_V_RSP_OPCODE,
	UET_WD_V_LIST,
	UET_WD_V_RC,
	UET_WD_V_AMO_OP,
	UET_WD_V_AMO_DTYPE_UEPLUS,
	UET_WD_V_AMO_DTYPE_UE,
	UET_WD_V_SEMCTL,
	UET_WD_V_TSS_FLAGS,
	UET_WD_NVALS,
};

/* How the host member's value maps to the wire value. */
enum uet_wd_xform {
	UET_WD_X_NONE = 0,
	UET_WD_X_NEG16,		/* wire = (uint16)-host (UE clear_psn_offset) */
	UET_WD_X_NACK_UE,	/* host UE+ NACK code -> UE 1.0.1 code */
	UET_WD_X_DTYPE,		/* host enum uet_amo_dtype -> profile's code */
	UET_WD_X_PDC_INFO_UE,	/* host pdc_info (0x1 use_rsv_pdc) -> UE bits */
};

struct uet_wd_val {
	uint32_t v;
	const char *name;
};

struct uet_wd_vtab {
	const char *name;	/* e.g. "pds_type" (Lua table name) */
	const struct uet_wd_val *v;
	size_t n;
};

struct uet_wd_field {
	const char *name;	/* filter leaf: the host member's name */
	const char *title;	/* shown in the tree */
	uint16_t off;		/* byte offset of the word in the header */
	uint8_t len;		/* word width in bytes (1-4, 8), or the size of
				 * a BYTES / RSVD field */
	uint8_t kind;		/* enum uet_wd_kind */
	uint64_t mask;		/* bits of the word, contiguous; 0 = all */
	/* Present only when (header[when_off] & when_mask) == when_val;
	 * when_mask 0: always. */
	uint8_t when_off, when_mask, when_val;
	uint8_t vals;		/* enum uet_wd_vals */
	uint8_t xform;		/* enum uet_wd_xform */
	/* The host member: msize 0 when the codec has none (reserved, the
	 * format's constant type, a field the profile adds). */
	uint16_t moff;
	uint8_t msize;
	/* The member holds the whole word, this field is the bits mask of it
	 * (sub-fields of ack_cc_state). */
	bool sub;
	/* Random test values: [lo, hi] when rng (the codec's range). */
	bool rng;
	uint64_t lo, hi;
};

struct uet_wd_fmt {
	uint8_t id;		/* enum uet_wd_fmt_id */
	uint8_t layer;		/* enum uet_wd_layer */
	const char *name;	/* the codec's name, e.g. "rud_rod_req" */
	const char *title;
	uint16_t len;		/* header length in this profile */
	uint16_t hsize;		/* sizeof the codec's host struct, 0 none */
	const struct uet_wd_field *f;
	size_t n;
};

/* The format id in profile wp, or NULL (id out of range). */
const struct uet_wd_fmt *uet_wd_fmt(enum uet_wire_prof wp, unsigned int id);

/* Value table vals, or NULL; the name of v in it, or NULL. */
const struct uet_wd_vtab *uet_wd_vtab(unsigned int vals);
const char *uet_wd_val_name(unsigned int vals, uint64_t v);

/* ---- chain ---- */

/* PDS header of prologue type (5 bits): a format id, or UET_WD_NONE. */
unsigned int uet_wd_pds_fmt(enum uet_wire_prof wp, unsigned int type);

/*
 * SES header chain: a rule matches when next_hdr is nh and the opcode
 * (SES byte op_byte, shifted right op_shift, low 6 bits) is within
 * [op_lo, op_hi] and (SES byte 1 & som_mask) == som_val.  The first
 * match names the header.  Every PDS type but CONTROL (ctl_type in the
 * next_hdr bits) and TSS carries the SES header its next_hdr names.
 */
struct uet_wd_ses_rule {
	uint8_t nh;
	uint8_t op_byte, op_shift;
	uint8_t op_lo, op_hi;
	uint8_t som_mask, som_val;
	uint8_t fmt;
};

/*
 * Extension chain: after SES header parent whose opcode (as above) is
 * within [op_lo, op_hi], the extension's byte 0 (atomic_opcode) within
 * [amo_lo, amo_hi] (0, 0xff: any) names the extension.
 */
struct uet_wd_ext_rule {
	uint8_t parent;
	uint8_t op_lo, op_hi;
	uint8_t amo_lo, amo_hi;
	uint8_t fmt;
};

const struct uet_wd_ses_rule *uet_wd_ses_rules(enum uet_wire_prof wp,
					       size_t *n);
const struct uet_wd_ext_rule *uet_wd_ext_rules(enum uet_wire_prof wp,
					       size_t *n);

/* The SES header after PDS next_hdr nh at ses (len bytes): a format id,
 * or UET_WD_NONE. */
unsigned int uet_wd_ses_fmt(enum uet_wire_prof wp, unsigned int nh,
			    const uint8_t *ses, size_t len);
/* The extension after SES header fmt (at ses; ext at ses + its length),
 * or UET_WD_NONE. */
unsigned int uet_wd_ext_fmt(enum uet_wire_prof wp, unsigned int fmt,
			    const uint8_t *ses, size_t len);

/* The opcode of SES header bytes 0-1 under rule r's position. */
unsigned int uet_wd_rule_opcode(const struct uet_wd_ses_rule *r,
				const uint8_t *ses);

/* ---- values ---- */

/* Is field f present in header h (its when bits)? */
bool uet_wd_present(const struct uet_wd_field *f, const uint8_t *h);
/* Field f's value as the wire holds it (masked, shifted down; SINT
 * sign-extended into the int64 returned as uint64).  Not for BYTES. */
uint64_t uet_wd_wire_value(const struct uet_wd_field *f, const uint8_t *h);
/* The wire value the codec's host member (at struct base hs) stands for,
 * in profile wp; false when f has no member. */
bool uet_wd_host_value(enum uet_wire_prof wp, const struct uet_wd_field *f,
		       const void *hs, uint64_t *v);
/* Lowest set bit of a mask and its width in bits (contiguous masks). */
unsigned int uet_wd_mask_shift(uint64_t mask);
unsigned int uet_wd_mask_bits(uint64_t mask);
/* Width in bits of field f's value. */
unsigned int uet_wd_field_bits(const struct uet_wd_field *f);

/* The filter prefix of a layer: "uet.pds" ... */
const char *uet_wd_layer_prefix(unsigned int layer);

#endif /* UET_WIRE_DESC_H */
