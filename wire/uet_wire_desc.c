/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The wire description (uet_wire_desc.h): every format's fields per
 * profile, the value names and the header chain.  Layouts: UE+ as the
 * codecs implement it (docs/conformance.md 4.1, 4.2); UE 1.0.1 as
 * recorded for issue 29 (docs/conformance.md).  test/check_wire_desc.c
 * proves each table against its codec.
 */
#include <string.h>

#include "uet_wire_desc.h"
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_tss_wire.h"

/*
 * PDS host members the UE 1.0.1 profile adds (issue 29): ccc_id,
 * credit_target (RUD_CC/ROD_CC), payload (NACK, control packet),
 * modified_length (default SES response).  Until the PDS codec has them,
 * those UE fields are described without a member (wire-only, not
 * compared): set this to 1 when it does.
 */
#ifndef UET_WD_HAVE_UE_PDS_MEMBERS
#define UET_WD_HAVE_UE_PDS_MEMBERS 1
#endif

#define MSZ(T, m)	sizeof(((T *)0)->m)

/* A field of member m (leaf name n) of struct T. */
#define FM(T, m, n, off_, len_, kind_, mask_, ...)			\
	{ .name = (n), .off = (off_), .len = (len_), .kind = (kind_),	\
	  .mask = (mask_), .moff = offsetof(T, m),			\
	  .msize = MSZ(T, m), __VA_ARGS__ }
/* Unsigned whole word, masked bits, bool, signed, bytes. */
#define U(T, m, off_, len_, ...)					\
	FM(T, m, #m, off_, len_, UET_WD_UINT, 0, __VA_ARGS__)
#define BITS(T, m, off_, len_, mask_, ...)				\
	FM(T, m, #m, off_, len_, UET_WD_UINT, mask_, __VA_ARGS__)
#define BOOL(T, m, off_, mask_, ...)					\
	FM(T, m, #m, off_, 1, UET_WD_BOOL, mask_, __VA_ARGS__)
#define SINT(T, m, off_, len_, ...)					\
	FM(T, m, #m, off_, len_, UET_WD_SINT, 0, __VA_ARGS__)
#define BYTES(T, m, off_)						\
	FM(T, m, #m, off_, MSZ(T, m), UET_WD_BYTES, 0, .sub = false)
/* The same, for a member of a nested struct (path p, leaf n). */
#define UN(T, p, n, off_, len_, ...)					\
	FM(T, p, n, off_, len_, UET_WD_UINT, 0, __VA_ARGS__)
#define BITSN(T, p, n, off_, len_, mask_, ...)				\
	FM(T, p, n, off_, len_, UET_WD_UINT, mask_, __VA_ARGS__)
#define BOOLN(T, p, n, off_, mask_, ...)				\
	FM(T, p, n, off_, 1, UET_WD_BOOL, mask_, __VA_ARGS__)
#define SINTN(T, p, n, off_, len_, ...)					\
	FM(T, p, n, off_, len_, UET_WD_SINT, 0, __VA_ARGS__)
#define BYTESN(T, p, n, off_)						\
	FM(T, p, n, off_, MSZ(T, p), UET_WD_BYTES, 0, .sub = false)
/* Bits mask_ of the 8-byte word member m holds as a whole. */
#define SUB(T, m, n, off_, mask_, ...)					\
	FM(T, m, n, off_, 8, UET_WD_UINT, mask_, .sub = true, __VA_ARGS__)
/* A field without a host member. */
#define W(n, off_, len_, kind_, mask_, ...)				\
	{ .name = (n), .off = (off_), .len = (len_), .kind = (kind_),	\
	  .mask = (mask_), __VA_ARGS__ }
#define RSVD(off_, len_)						\
	{ .name = "reserved", .off = (off_), .len = (len_),		\
	  .kind = UET_WD_RSVD }
#define RNG(l, h)	.rng = true, .lo = (l), .hi = (h)
#define WHEN(o, m, v)	.when_off = (o), .when_mask = (m), .when_val = (v)
#define V(x)		.vals = UET_WD_V_##x

#if UET_WD_HAVE_UE_PDS_MEMBERS
#define NEWM(T, m, n, off_, len_, kind_, mask_, ...)			\
	FM(T, m, n, off_, len_, kind_, mask_, __VA_ARGS__)
#else
#define NEWM(T, m, n, off_, len_, kind_, mask_, ...)			\
	W(n, off_, len_, kind_, mask_, __VA_ARGS__)
#endif

/* ------------------------------------------------------------------ */
/* PDS                                                                 */
/* ------------------------------------------------------------------ */

#define SYN0	WHEN(1, 0x04, 0x00)
#define SYN1	WHEN(1, 0x04, 0x04)

/* Prologue of the formats whose struct has type / next_hdr members. */
#define PRO(T, tp, nh, tlo, thi)					\
	BITSN(T, tp, "type", 0, 2, 0xf800, V(PDS_TYPE), RNG(tlo, thi)), \
	BITSN(T, nh, "next_hdr", 0, 2, 0x0780, V(NEXT_HDR), RNG(0, 6))
/* Prologue with the type constant (no member). */
#define PROK(T, nh, t, nlo, nhi)					\
	W("type", 0, 2, UET_WD_UINT, 0xf800, V(PDS_TYPE), RNG(t, t)),	\
	BITSN(T, nh, "next_hdr", 0, 2, 0x0780, V(NEXT_HDR), RNG(nlo, nhi))

/* RUD/ROD request bytes 0-11 (p: member path prefix). */
#define RUD_ROD(T, p, tlo, thi, clear_kind, clear_x, pdc_x)		\
	PRO(T, p type, p next_hdr, tlo, thi),				\
	BOOLN(T, p retx, "retx", 1, 0x10),				\
	BOOLN(T, p ar, "ar", 1, 0x08),					\
	BOOLN(T, p syn, "syn", 1, 0x04),				\
	FM(T, p clear_psn_offset, "clear_psn_offset", 2, 2, clear_kind, 0, \
	   .xform = clear_x),						\
	UN(T, p psn, "psn", 4, 4),					\
	UN(T, p spdcid, "spdcid", 8, 2),				\
	UN(T, p dpdcid, "dpdcid", 10, 2, SYN0),				\
	BITSN(T, p pdc_info, "pdc_info", 10, 2, 0xf000, SYN1,		\
	      .xform = pdc_x),						\
	BITSN(T, p psn_offset, "psn_offset", 10, 2, 0x0fff, SYN1)

#define NOP
#define RR struct uet_pds_rud_rod_req
#define RRC struct uet_pds_rud_rod_cc_req

static const struct uet_wd_field rud_rod_p[] = {
	RUD_ROD(RR, NOP, 2, 3, UET_WD_UINT, UET_WD_X_NONE, UET_WD_X_NONE),
};
static const struct uet_wd_field rud_rod_u[] = {
	RUD_ROD(RR, NOP, 2, 3, UET_WD_SINT, UET_WD_X_NEG16,
		UET_WD_X_PDC_INFO_UE),
};
static const struct uet_wd_field rud_rod_cc_p[] = {
	RUD_ROD(RRC, req., 13, 14, UET_WD_UINT, UET_WD_X_NONE, UET_WD_X_NONE),
	BYTES(RRC, req_cc_state, 12),
};
static const struct uet_wd_field rud_rod_cc_u[] = {
	RUD_ROD(RRC, req., 13, 14, UET_WD_SINT, UET_WD_X_NEG16,
		UET_WD_X_PDC_INFO_UE),
	NEWM(RRC, ccc_id, "ccc_id", 12, 1, UET_WD_UINT, 0),
	NEWM(RRC, credit_target, "credit_target", 13, 3, UET_WD_UINT, 0),
};

#define RUDI_T struct uet_pds_rudi
#define RUDI_HEAD							\
	PRO(RUDI_T, type, next_hdr, 4, 5),				\
	BOOL(RUDI_T, m, 1, 0x20),					\
	BOOL(RUDI_T, retx, 1, 0x10)
static const struct uet_wd_field rudi_p[] = {
	RUDI_HEAD,
	U(RUDI_T, pkt_id, 2, 4),
};
static const struct uet_wd_field rudi_u[] = {
	RUDI_HEAD,
	RSVD(2, 2),
	U(RUDI_T, pkt_id, 4, 4),
};

#define UUD_T struct uet_pds_uud_req
static const struct uet_wd_field uud_p[] = {
	PROK(UUD_T, next_hdr, UET_PDS_TYPE_UUD_REQ, 0, 6),
	U(UUD_T, pkt_id, 2, 4),
};
static const struct uet_wd_field uud_u[] = {
	PROK(UUD_T, next_hdr, UET_PDS_TYPE_UUD_REQ, 0, 6),
	RSVD(2, 2),
};

/* ACK bytes 0-11 (p: member path prefix), type t. */
#define ACK_F(T, pre, t)							\
	PROK(T, pre next_hdr, t, 0, 6),					\
	BOOLN(T, pre m, "m", 1, 0x20),					\
	BOOLN(T, pre retx, "retx", 1, 0x10),				\
	BOOLN(T, pre p, "p", 1, 0x08),					\
	BITSN(T, pre req, "req", 1, 1, 0x06, V(ACK_REQ)),			\
	SINTN(T, pre ack_psn_offset, "ack_psn_offset", 2, 2,		\
	      WHEN(1, 0x08, 0x00)),					\
	UN(T, pre probe_opaque, "probe_opaque", 2, 2, WHEN(1, 0x08, 0x08)), \
	UN(T, pre cack_psn, "cack_psn", 4, 4),				\
	UN(T, pre spdcid, "spdcid", 8, 2),				\
	UN(T, pre dpdcid, "dpdcid", 10, 2)
/* ACK_CC / ACK_CCX bytes 12-23. */
#define SACK_F(T)							\
	BITS(T, cc_type, 12, 1, 0xf0, V(CC_TYPE), RNG(0, 1)),		\
	U(T, mpr, 13, 1),						\
	SINT(T, sack_psn_offset, 14, 2),				\
	U(T, sack_bitmap, 16, 8)

#define ACK_T struct uet_pds_ack
#define ACKCC_T struct uet_pds_ack_cc
#define ACKCCX_T struct uet_pds_ack_ccx
#define NSCC	WHEN(12, 0xf0, 0x00)
#define CREDIT	WHEN(12, 0xf0, 0x10)

static const struct uet_wd_field ack_f[] = {
	ACK_F(ACK_T, NOP, UET_PDS_TYPE_ACK),
};
/* ack_cc_state as snic/uet_pds_cc.h packs it (UE+). */
static const struct uet_wd_field ack_cc_p[] = {
	ACK_F(ACKCC_T, ack., UET_PDS_TYPE_ACK_CC),
	SACK_F(ACKCC_T),
	U(ACKCC_T, ack_cc_state, 24, 8),
	SUB(ACKCC_T, ack_cc_state, "service_time", 24,
	    UINT64_C(0xffff000000000000), NSCC),
	SUB(ACKCC_T, ack_cc_state, "rcv_cwnd_pend", 24,
	    UINT64_C(0x0000ff0000000000), NSCC),
	SUB(ACKCC_T, ack_cc_state, "rcvd_bytes", 24,
	    UINT64_C(0x000000ffffff0000), NSCC),
	SUB(ACKCC_T, ack_cc_state, "ooo_count", 24,
	    UINT64_C(0x000000000000ffff), NSCC),
	SUB(ACKCC_T, ack_cc_state, "credit", 24, 0, CREDIT),
};
/* UE 1.0.1: NSCC byte 26 = restore_cwnd 0x80 + rcv_cwnd_pend 7 bits;
 * CREDIT = credit 24 bits, reserved 24, ooo_count 16. */
static const struct uet_wd_field ack_cc_u[] = {
	ACK_F(ACKCC_T, ack., UET_PDS_TYPE_ACK_CC),
	SACK_F(ACKCC_T),
	U(ACKCC_T, ack_cc_state, 24, 8),
	SUB(ACKCC_T, ack_cc_state, "service_time", 24,
	    UINT64_C(0xffff000000000000), NSCC),
	FM(ACKCC_T, ack_cc_state, "restore_cwnd", 24, 8, UET_WD_BOOL,
	   UINT64_C(0x0000800000000000), .sub = true, NSCC),
	SUB(ACKCC_T, ack_cc_state, "rcv_cwnd_pend", 24,
	    UINT64_C(0x00007f0000000000), NSCC),
	SUB(ACKCC_T, ack_cc_state, "rcvd_bytes", 24,
	    UINT64_C(0x000000ffffff0000), NSCC),
	SUB(ACKCC_T, ack_cc_state, "ooo_count", 24,
	    UINT64_C(0x000000000000ffff), NSCC),
	SUB(ACKCC_T, ack_cc_state, "credit", 24,
	    UINT64_C(0xffffff0000000000), CREDIT),
	SUB(ACKCC_T, ack_cc_state, "ooo_count", 24,
	    UINT64_C(0x000000000000ffff), CREDIT),
};
static const struct uet_wd_field ack_ccx_f[] = {
	ACK_F(ACKCCX_T, ack., UET_PDS_TYPE_ACK_CCX),
	SACK_F(ACKCCX_T),
	BYTES(ACKCCX_T, ack_ccx_state, 24),
};

/* NACK bytes 0-11 (p: member path prefix), type t. */
#define NACK_F(T, p, t, codes, x)					\
	PROK(T, p next_hdr, t, 0, 0),					\
	BOOLN(T, p m, "m", 1, 0x20),					\
	BOOLN(T, p retx, "retx", 1, 0x10),				\
	BOOLN(T, p nt, "nt", 1, 0x08),					\
	UN(T, p nack_code, "nack_code", 2, 1, .vals = (codes),		\
	   .xform = (x)),						\
	UN(T, p vendor_code, "vendor_code", 3, 1),			\
	UN(T, p nack_psn, "nack_psn", 4, 4),				\
	UN(T, p spdcid, "spdcid", 8, 2),				\
	UN(T, p dpdcid, "dpdcid", 10, 2)
#define NACK_T struct uet_pds_nack
#define NACKCCX_T struct uet_pds_nack_ccx

static const struct uet_wd_field nack_p[] = {
	NACK_F(NACK_T, NOP, UET_PDS_TYPE_NACK, UET_WD_V_NACK_UEPLUS,
	       UET_WD_X_NONE),
};
static const struct uet_wd_field nack_u[] = {
	NACK_F(NACK_T, NOP, UET_PDS_TYPE_NACK, UET_WD_V_NACK_UE,
	       UET_WD_X_NACK_UE),
	NEWM(NACK_T, payload, "payload", 12, 4, UET_WD_UINT, 0),
};
static const struct uet_wd_field nack_ccx_p[] = {
	NACK_F(NACKCCX_T, nack., UET_PDS_TYPE_NACK_CCX, UET_WD_V_NACK_UEPLUS,
	       UET_WD_X_NONE),
	BYTES(NACKCCX_T, nack_ccx_state, 12),
};
static const struct uet_wd_field nack_ccx_u[] = {
	NACK_F(NACKCCX_T, nack., UET_PDS_TYPE_NACK_CCX, UET_WD_V_NACK_UE,
	       UET_WD_X_NACK_UE),
	NEWM(NACKCCX_T, nack.payload, "payload", 12, 4, UET_WD_UINT, 0),
	BYTES(NACKCCX_T, nack_ccx_state, 16),
};

#define CP_T struct uet_pds_cp
#define CP_F(pdc_x)							\
	W("type", 0, 2, UET_WD_UINT, 0xf800, V(PDS_TYPE),		\
	  RNG(UET_PDS_TYPE_CP, UET_PDS_TYPE_CP)),			\
	BITS(CP_T, ctl_type, 0, 2, 0x0780, V(CTL_TYPE), RNG(0, 9)),	\
	BOOL(CP_T, isrod, 1, 0x20),					\
	BOOL(CP_T, retx, 1, 0x10),					\
	BOOL(CP_T, ar, 1, 0x08),					\
	BOOL(CP_T, syn, 1, 0x04),					\
	U(CP_T, probe_opaque, 2, 2),					\
	U(CP_T, psn, 4, 4),						\
	U(CP_T, spdcid, 8, 2),						\
	U(CP_T, dpdcid, 10, 2, SYN0),					\
	BITS(CP_T, pdc_info, 10, 2, 0xf000, SYN1, .xform = pdc_x),	\
	BITS(CP_T, psn_offset, 10, 2, 0x0fff, SYN1)

static const struct uet_wd_field cp_p[] = {
	CP_F(UET_WD_X_NONE),
};
static const struct uet_wd_field cp_u[] = {
	CP_F(UET_WD_X_PDC_INFO_UE),
	NEWM(CP_T, payload, "payload", 12, 4, UET_WD_UINT, 0),
};

/* ------------------------------------------------------------------ */
/* SES                                                                 */
/* ------------------------------------------------------------------ */

#define DSR_T struct uet_pds_default_ses_rsp
#define DSR_F								\
	BITS(DSR_T, list, 0, 1, 0xc0, V(LIST), RNG(0, 0)),		\
	BITS(DSR_T, opcode, 0, 1, 0x3f, V(RSP_OPCODE), RNG(0, 3)),	\
	BITS(DSR_T, version, 1, 1, 0xc0, RNG(0, 0)),			\
	BITS(DSR_T, return_code, 1, 1, 0x3f, V(RC), RNG(0, 1)),	\
	U(DSR_T, message_id, 2, 2),					\
	U(DSR_T, ri_generation, 4, 1, RNG(0, 0)),			\
	U(DSR_T, job_id, 5, 3)
static const struct uet_wd_field dsr_p[] = {
	DSR_F,
};
static const struct uet_wd_field dsr_u[] = {
	DSR_F,
	NEWM(DSR_T, modified_length, "modified_length", 8, 4, UET_WD_UINT, 0),
};

/* Request bytes 0-1, standard layout. */
#define REQ_CTL(T)							\
	BITSN(T, ctl.opcode, "opcode", 0, 1, 0x3f, V(SES_OPCODE),	\
	      RNG(0, 0x0f)),						\
	BITSN(T, ctl.version, "version", 1, 1, 0xc0, RNG(0, 0)),	\
	BOOLN(T, ctl.dc, "dc", 1, 0x20),				\
	BOOLN(T, ctl.ie, "ie", 1, 0x10),				\
	BOOLN(T, ctl.rel, "rel", 1, 0x08),				\
	BOOLN(T, ctl.hd, "hd", 1, 0x04),				\
	BOOLN(T, ctl.eom, "eom", 1, 0x02),				\
	BOOLN(T, ctl.som, "som", 1, 0x01)
/* UE+'s small and medium requests: bytes 0-1 shifted. */
#define SMALL_CTL(T)							\
	BITSN(T, ctl.opcode, "opcode", 0, 1, 0xfc, V(SES_OPCODE),	\
	      RNG(0, 0x0f)),						\
	BITSN(T, ctl.version, "version", 0, 1, 0x03, RNG(0, 0)),	\
	BOOLN(T, ctl.dc, "dc", 1, 0x80),				\
	BOOLN(T, ctl.ie, "ie", 1, 0x40),				\
	BOOLN(T, ctl.rel, "rel", 1, 0x20),				\
	BOOLN(T, ctl.hd, "hd", 1, 0x10),				\
	BOOLN(T, ctl.eom, "eom", 1, 0x08),				\
	BOOLN(T, ctl.som, "som", 1, 0x04)
#define ADDR(T)								\
	U(T, ri_generation, 4, 1),					\
	U(T, job_id, 5, 3),						\
	BITS(T, pid_on_fep, 8, 2, 0x0fff),				\
	BITS(T, resource_index, 10, 2, 0x0fff)
#define PREFIX(T)							\
	REQ_CTL(T),							\
	U(T, message_id, 2, 2),						\
	ADDR(T)

#define SOM1_T struct uet_ses_std_som1
#define SOM0_T struct uet_ses_std_som0
#define SM_T struct uet_ses_small_msg
#define ONM_T struct uet_ses_opt_nonmatch
#define DEF_T struct uet_ses_defer_send
#define RTR_T struct uet_ses_rtr

static const struct uet_wd_field som1_f[] = {
	PREFIX(SOM1_T),
	U(SOM1_T, buffer_offset, 12, 8),
	U(SOM1_T, initiator, 20, 4),
	U(SOM1_T, match_bits, 24, 8),
	U(SOM1_T, header_data, 32, 8),
	U(SOM1_T, request_length, 40, 4),
};
static const struct uet_wd_field som0_f[] = {
	PREFIX(SOM0_T),
	U(SOM0_T, buffer_offset, 12, 8),
	U(SOM0_T, initiator, 20, 4),
	U(SOM0_T, match_bits, 24, 8),
	RSVD(32, 2),
	BITS(SOM0_T, payload_length, 34, 2, 0x3fff),
	U(SOM0_T, message_offset, 36, 4),
	U(SOM0_T, request_length, 40, 4),
};
static const struct uet_wd_field small_msg_p[] = {
	SMALL_CTL(SM_T),
	BITS(SM_T, request_length, 2, 2, 0x3fff),
	ADDR(SM_T),
	U(SM_T, initiator, 12, 4),
	U(SM_T, match_bits, 16, 8),
	U(SM_T, header_data, 24, 8),
};
/* UE 1.0.1 medium request: bytes 12-19 header_data when hd = 1, the
 * buffer offset when hd = 0 (uet's struct holds either in header_data). */
static const struct uet_wd_field small_msg_u[] = {
	REQ_CTL(SM_T),
	BITS(SM_T, request_length, 2, 2, 0x3fff),
	ADDR(SM_T),
	U(SM_T, header_data, 12, 8),
	U(SM_T, initiator, 20, 4),
	U(SM_T, match_bits, 24, 8),
};
static const struct uet_wd_field opt_nonmatch_p[] = {
	SMALL_CTL(ONM_T),
	BITS(ONM_T, request_length, 2, 2, 0x3fff),
	ADDR(ONM_T),
	U(ONM_T, buffer_offset, 12, 8),
	RSVD(20, 12),
};
static const struct uet_wd_field opt_nonmatch_u[] = {
	REQ_CTL(ONM_T),
	BITS(ONM_T, request_length, 2, 2, 0x3fff),
	ADDR(ONM_T),
	U(ONM_T, buffer_offset, 12, 8),
};
static const struct uet_wd_field defer_f[] = {
	PREFIX(DEF_T),
	U(DEF_T, initiator_restart_token, 12, 4),
	U(DEF_T, target_restart_token, 16, 4),
	U(DEF_T, initiator, 20, 4),
	U(DEF_T, match_bits, 24, 8),
	U(DEF_T, header_data, 32, 8),
	U(DEF_T, request_length, 40, 4),
};
static const struct uet_wd_field rtr_p[] = {
	PREFIX(RTR_T),
	U(RTR_T, buffer_offset, 12, 8, RNG(0, 0xfffffffe)),
	U(RTR_T, initiator_restart_token, 20, 4),
	U(RTR_T, target_restart_token, 24, 4),
	RSVD(28, 4),
	U(RTR_T, header_data, 32, 8),
	U(RTR_T, request_length, 40, 4),
};
static const struct uet_wd_field rtr_u[] = {
	PREFIX(RTR_T),
	U(RTR_T, buffer_offset, 12, 8, RNG(0, 0xfffffffe)),
	U(RTR_T, initiator, 20, 4),
	U(RTR_T, initiator_restart_token, 24, 4),
	U(RTR_T, target_restart_token, 28, 4),
	U(RTR_T, header_data, 32, 8),
	U(RTR_T, request_length, 40, 4),
};

/* Response bytes 0-1 with the format's opcode op. */
#define RSP_CTL(T, op)							\
	BITSN(T, ctl.list, "list", 0, 1, 0xc0, V(LIST), RNG(0, 1)),	\
	BITSN(T, ctl.opcode, "opcode", 0, 1, 0x3f, V(RSP_OPCODE),	\
	      RNG(op, op)),						\
	BITSN(T, ctl.version, "version", 1, 1, 0xc0, RNG(0, 0)),	\
	BITSN(T, ctl.return_code, "return_code", 1, 1, 0x3f, V(RC),	\
	      RNG(0, UET_RC_MAX))

#define RSP_T struct uet_ses_rsp
#define RSPD_T struct uet_ses_rsp_data
#define ORSP_T struct uet_ses_opt_rsp_data

#define RSP_F								\
	RSP_CTL(RSP_T, UET_RESPONSE),					\
	U(RSP_T, message_id, 2, 2),					\
	U(RSP_T, ri_generation, 4, 1),					\
	U(RSP_T, job_id, 5, 3),						\
	U(RSP_T, modified_length, 8, 4)
static const struct uet_wd_field rsp_p[] = {
	RSP_F,
	RSVD(12, 4),
};
static const struct uet_wd_field rsp_u[] = {
	RSP_F,
};
#define RSPD_F								\
	RSP_CTL(RSPD_T, UET_RESPONSE_W_DATA),				\
	U(RSPD_T, response_message_id, 2, 2),				\
	RSVD(4, 1),							\
	U(RSPD_T, job_id, 5, 3),					\
	U(RSPD_T, read_request_message_id, 8, 2),			\
	BITS(RSPD_T, payload_length, 10, 2, 0x3fff),			\
	U(RSPD_T, modified_length, 12, 4),				\
	U(RSPD_T, message_offset, 16, 4)
static const struct uet_wd_field rsp_data_p[] = {
	RSPD_F,
	RSVD(20, 4),
};
static const struct uet_wd_field rsp_data_u[] = {
	RSPD_F,
};
#define ORSP_F								\
	RSP_CTL(ORSP_T, UET_RESPONSE_W_DATA),				\
	BITS(ORSP_T, payload_length, 2, 2, 0x3fff),			\
	RSVD(4, 1),							\
	U(ORSP_T, job_id, 5, 3),					\
	U(ORSP_T, original_request_psn, 8, 4)
static const struct uet_wd_field opt_rsp_data_p[] = {
	ORSP_F,
	RSVD(12, 4),
};
static const struct uet_wd_field opt_rsp_data_u[] = {
	ORSP_F,
};

/* ---- extensions ---- */

#define AX_T struct uet_ses_atomic_ext
#define CX_T struct uet_ses_cas_ext
#define RX_T struct uet_ses_rdzv_ext

static const struct uet_wd_field atomic_p[] = {
	U(AX_T, atomic_opcode, 0, 1, V(AMO_OP), RNG(0, UET_AMO_OP_MAX)),
	U(AX_T, atomic_datatype, 1, 1, V(AMO_DTYPE_UEPLUS),
	  .xform = UET_WD_X_DTYPE),
	U(AX_T, semantic_control, 2, 2, V(SEMCTL)),
	RSVD(4, 4),
};
static const struct uet_wd_field atomic_u[] = {
	U(AX_T, atomic_opcode, 0, 1, V(AMO_OP), RNG(0, UET_AMO_OP_MAX)),
	U(AX_T, atomic_datatype, 1, 1, V(AMO_DTYPE_UE),
	  .xform = UET_WD_X_DTYPE),
	U(AX_T, semantic_control, 2, 1, V(SEMCTL)),
	RSVD(3, 1),
};
static const struct uet_wd_field cas_p[] = {
	U(CX_T, atomic_opcode, 0, 1, V(AMO_OP),
	  RNG(UET_AMO_CSWAP, UET_AMO_MSWAP)),
	U(CX_T, atomic_datatype, 1, 1, V(AMO_DTYPE_UEPLUS),
	  .xform = UET_WD_X_DTYPE),
	U(CX_T, semantic_control, 2, 2, V(SEMCTL)),
	RSVD(4, 4),
	BYTES(CX_T, compare_mask_value, 8),
	BYTES(CX_T, swap_value, 24),
};
static const struct uet_wd_field cas_u[] = {
	U(CX_T, atomic_opcode, 0, 1, V(AMO_OP),
	  RNG(UET_AMO_CSWAP, UET_AMO_CSWAP_GT)),
	U(CX_T, atomic_datatype, 1, 1, V(AMO_DTYPE_UE),
	  .xform = UET_WD_X_DTYPE),
	U(CX_T, semantic_control, 2, 1, V(SEMCTL)),
	RSVD(3, 1),
	BYTES(CX_T, compare_mask_value, 4),
	BYTES(CX_T, swap_value, 20),
};
static const struct uet_wd_field rdzv_p[] = {
	U(RX_T, eager_length, 0, 4),
	U(RX_T, memory_key, 4, 8),
	U(RX_T, buffer_offset, 12, 8),
	U(RX_T, remaining_length, 20, 4),
	RSVD(24, 8),
};
static const struct uet_wd_field rdzv_u[] = {
	U(RX_T, eager_length, 0, 4),
	BITS(RX_T, read_ri_generation, 4, 4, 0xff000000),
	BITS(RX_T, read_pid_on_fep, 4, 4, 0x00fff000),
	BITS(RX_T, read_resource_index, 4, 4, 0x00000fff),
	U(RX_T, buffer_offset, 8, 8),
	U(RX_T, memory_key, 16, 8),
};

/* ---- TSS (uet's framing, both profiles: docs/tss.md) ---- */

#define PRO_T struct uet_pds_prologue
#define TSS_T struct uet_tss_hdr
struct wd_dci {
	uint32_t dci;
};

static const struct uet_wd_field tss_pro_f[] = {
	BITS(PRO_T, type, 0, 2, 0xf800, V(PDS_TYPE),
	     RNG(UET_PDS_TYPE_TSS, UET_PDS_TYPE_TSS)),
	BITS(PRO_T, next_hdr, 0, 2, 0x0780, RNG(0, 0)),
	BITS(PRO_T, flags, 1, 1, 0x7f, RNG(0, 0)),
};
static const struct uet_wd_field tss_hdr_f[] = {
	BITS(TSS_T, tss_type, 0, 1, 0xf0),
	BITS(TSS_T, tss_flags, 0, 1, 0x0f, V(TSS_FLAGS)),
	U(TSS_T, security_context_id, 1, 4),
	U(TSS_T, sequence_number, 5, 4),
	RSVD(9, 3),
};
static const struct uet_wd_field tss_dci_f[] = {
	U(struct wd_dci, dci, 0, 4),
};

/* ------------------------------------------------------------------ */
/* Formats                                                             */
/* ------------------------------------------------------------------ */

#define FMT(id_, layer_, name_, title_, len_, T, tbl)			\
	[UET_WD_##id_] = { .id = UET_WD_##id_, .layer = UET_WD_##layer_, \
			   .name = (name_), .title = (title_),		\
			   .len = (len_), .hsize = sizeof(T), .f = (tbl), \
			   .n = sizeof(tbl) / sizeof((tbl)[0]) }

static const struct uet_wd_fmt fmts[UET_WIRE_NPROF][UET_WD_NFMT] = {
	[UET_WIRE_UEPLUS] = {
		FMT(RUD_ROD_REQ, PDS, "rud_rod_req", "RUD/ROD request",
		    UET_PDS_RUD_ROD_REQ_LEN, RR, rud_rod_p),
		FMT(RUD_ROD_CC_REQ, PDS, "rud_rod_cc_req",
		    "RUD_CC/ROD_CC request", UET_PDS_RUD_ROD_CC_REQ_LEN, RRC,
		    rud_rod_cc_p),
		FMT(RUDI, PDS, "rudi", "RUDI request/response",
		    UET_PDS_RUDI_LEN, RUDI_T, rudi_p),
		FMT(UUD_REQ, PDS, "uud_req", "UUD request",
		    UET_PDS_UUD_REQ_LEN, UUD_T, uud_p),
		FMT(ACK, PDS, "ack", "ACK", UET_PDS_ACK_LEN, ACK_T, ack_f),
		FMT(ACK_CC, PDS, "ack_cc", "ACK_CC", UET_PDS_ACK_CC_LEN,
		    ACKCC_T, ack_cc_p),
		FMT(ACK_CCX, PDS, "ack_ccx", "ACK_CCX", UET_PDS_ACK_CCX_LEN,
		    ACKCCX_T, ack_ccx_f),
		FMT(NACK, PDS, "nack", "NACK", UET_PDS_NACK_LEN, NACK_T,
		    nack_p),
		FMT(NACK_CCX, PDS, "nack_ccx", "NACK_CCX",
		    UET_PDS_NACK_CCX_LEN, NACKCCX_T, nack_ccx_p),
		FMT(CP, PDS, "cp", "Control packet", UET_PDS_CP_LEN, CP_T,
		    cp_p),
		FMT(DEFAULT_SES_RSP, SES, "default_ses_rsp",
		    "PDS default SES response", UET_PDS_DEFAULT_SES_RSP_LEN,
		    DSR_T, dsr_p),
		FMT(STD_SOM1, SES, "std_som1", "Standard request, SOM=1",
		    UET_SES_STD_SOM1_LEN, SOM1_T, som1_f),
		FMT(STD_SOM0, SES, "std_som0", "Standard request, SOM=0",
		    UET_SES_STD_SOM0_LEN, SOM0_T, som0_f),
		FMT(SMALL_MSG, SES, "small_msg",
		    "Medium request (small message)", UET_SES_SMALL_MSG_LEN,
		    SM_T, small_msg_p),
		FMT(OPT_NONMATCH, SES, "opt_nonmatch",
		    "Small request (optimized non-matching)",
		    UET_SES_OPT_NONMATCH_LEN, ONM_T, opt_nonmatch_p),
		FMT(DEFER_SEND, SES, "defer_send", "Deferrable send",
		    UET_SES_DEFER_SEND_LEN, DEF_T, defer_f),
		FMT(RTR, SES, "rtr", "Ready to restart", UET_SES_RTR_LEN,
		    RTR_T, rtr_p),
		FMT(RSP, SES, "rsp", "Response", UET_SES_RSP_LEN, RSP_T,
		    rsp_p),
		FMT(RSP_DATA, SES, "rsp_data", "Response with data",
		    UET_SES_RSP_DATA_LEN, RSPD_T, rsp_data_p),
		FMT(OPT_RSP_DATA, SES, "opt_rsp_data",
		    "Optimized response with data",
		    UET_SES_OPT_RSP_DATA_LEN, ORSP_T, opt_rsp_data_p),
		FMT(ATOMIC_EXT, EXT, "atomic_ext", "Atomic extension",
		    UET_SES_ATOMIC_EXT_LEN, AX_T, atomic_p),
		FMT(CAS_EXT, EXT, "cas_ext", "Compare-and-swap extension",
		    UET_SES_CAS_EXT_LEN, CX_T, cas_p),
		FMT(RDZV_EXT, EXT, "rdzv_ext", "Rendezvous extension",
		    UET_SES_RDZV_EXT_LEN, RX_T, rdzv_p),
		FMT(TSS_PROLOGUE, TSS, "tss_prologue", "PDS prologue (TSS)",
		    UET_PDS_PROLOGUE_LEN, PRO_T, tss_pro_f),
		FMT(TSS_HDR, TSS, "tss_hdr", "TSS header", UET_TSS_HDR_LEN,
		    TSS_T, tss_hdr_f),
		FMT(TSS_DCI, TSS, "tss_dci", "Destination context id",
		    UET_TSS_DCI_LEN, struct wd_dci, tss_dci_f),
	},
	[UET_WIRE_UE] = {
		FMT(RUD_ROD_REQ, PDS, "rud_rod_req", "RUD/ROD request",
		    UET_PDS_RUD_ROD_REQ_LEN, RR, rud_rod_u),
		FMT(RUD_ROD_CC_REQ, PDS, "rud_rod_cc_req",
		    "RUD_CC/ROD_CC request", UET_PDS_UE_RUD_ROD_CC_REQ_LEN,
		    RRC, rud_rod_cc_u),
		FMT(RUDI, PDS, "rudi", "RUDI request/response",
		    UET_PDS_UE_RUDI_LEN, RUDI_T, rudi_u),
		FMT(UUD_REQ, PDS, "uud_req", "UUD request",
		    UET_PDS_UE_UUD_REQ_LEN, UUD_T, uud_u),
		FMT(ACK, PDS, "ack", "ACK", UET_PDS_ACK_LEN, ACK_T, ack_f),
		FMT(ACK_CC, PDS, "ack_cc", "ACK_CC", UET_PDS_ACK_CC_LEN,
		    ACKCC_T, ack_cc_u),
		FMT(ACK_CCX, PDS, "ack_ccx", "ACK_CCX", UET_PDS_UE_ACK_CCX_LEN,
		    ACKCCX_T, ack_ccx_f),
		FMT(NACK, PDS, "nack", "NACK", UET_PDS_UE_NACK_LEN, NACK_T,
		    nack_u),
		FMT(NACK_CCX, PDS, "nack_ccx", "NACK_CCX",
		    UET_PDS_UE_NACK_CCX_LEN, NACKCCX_T, nack_ccx_u),
		FMT(CP, PDS, "cp", "Control packet", UET_PDS_UE_CP_LEN, CP_T,
		    cp_u),
		FMT(DEFAULT_SES_RSP, SES, "default_ses_rsp",
		    "PDS default SES response",
		    UET_PDS_UE_DEFAULT_SES_RSP_LEN, DSR_T, dsr_u),
		FMT(STD_SOM1, SES, "std_som1", "Standard request, SOM=1",
		    UET_SES_STD_SOM1_LEN, SOM1_T, som1_f),
		FMT(STD_SOM0, SES, "std_som0", "Standard request, SOM=0",
		    UET_SES_STD_SOM0_LEN, SOM0_T, som0_f),
		FMT(SMALL_MSG, SES, "small_msg", "Medium request",
		    UET_SES_UE_SMALL_MSG_LEN, SM_T, small_msg_u),
		FMT(OPT_NONMATCH, SES, "opt_nonmatch", "Small request",
		    UET_SES_UE_OPT_NONMATCH_LEN, ONM_T, opt_nonmatch_u),
		FMT(DEFER_SEND, SES, "defer_send", "Deferrable send",
		    UET_SES_DEFER_SEND_LEN, DEF_T, defer_f),
		FMT(RTR, SES, "rtr", "Ready to restart", UET_SES_RTR_LEN,
		    RTR_T, rtr_u),
		FMT(RSP, SES, "rsp", "Response", UET_SES_UE_RSP_LEN, RSP_T,
		    rsp_u),
		FMT(RSP_DATA, SES, "rsp_data", "Response with data",
		    UET_SES_UE_RSP_DATA_LEN, RSPD_T, rsp_data_u),
		FMT(OPT_RSP_DATA, SES, "opt_rsp_data",
		    "Optimized response with data",
		    UET_SES_UE_OPT_RSP_DATA_LEN, ORSP_T, opt_rsp_data_u),
		FMT(ATOMIC_EXT, EXT, "atomic_ext", "Atomic extension",
		    UET_SES_UE_ATOMIC_EXT_LEN, AX_T, atomic_u),
		FMT(CAS_EXT, EXT, "cas_ext", "Compare-and-swap extension",
		    UET_SES_UE_CAS_EXT_LEN, CX_T, cas_u),
		FMT(RDZV_EXT, EXT, "rdzv_ext", "Rendezvous extension",
		    UET_SES_UE_RDZV_EXT_LEN, RX_T, rdzv_u),
		FMT(TSS_PROLOGUE, TSS, "tss_prologue", "PDS prologue (TSS)",
		    UET_PDS_PROLOGUE_LEN, PRO_T, tss_pro_f),
		FMT(TSS_HDR, TSS, "tss_hdr", "TSS header", UET_TSS_HDR_LEN,
		    TSS_T, tss_hdr_f),
		FMT(TSS_DCI, TSS, "tss_dci", "Destination context id",
		    UET_TSS_DCI_LEN, struct wd_dci, tss_dci_f),
	},
};

const struct uet_wd_fmt *uet_wd_fmt(enum uet_wire_prof wp, unsigned int id)
{
	if ((unsigned int)wp >= UET_WIRE_NPROF || id == UET_WD_NONE ||
	    id >= UET_WD_NFMT)
		return NULL;
	return &fmts[wp][id];
}

/* ------------------------------------------------------------------ */
/* Chain                                                               */
/* ------------------------------------------------------------------ */

unsigned int uet_wd_pds_fmt(enum uet_wire_prof wp, unsigned int type)
{
	(void)wp;
	switch (type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		return UET_WD_RUD_ROD_REQ;
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		return UET_WD_RUD_ROD_CC_REQ;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		return UET_WD_RUDI;
	case UET_PDS_TYPE_UUD_REQ:
		return UET_WD_UUD_REQ;
	case UET_PDS_TYPE_ACK:
		return UET_WD_ACK;
	case UET_PDS_TYPE_ACK_CC:
		return UET_WD_ACK_CC;
	case UET_PDS_TYPE_ACK_CCX:
		return UET_WD_ACK_CCX;
	case UET_PDS_TYPE_NACK:
		return UET_WD_NACK;
	case UET_PDS_TYPE_NACK_CCX:
		return UET_WD_NACK_CCX;
	case UET_PDS_TYPE_CP:
		return UET_WD_CP;
	default:
		return UET_WD_NONE;
	}
}

#define SR(nh, b, s, lo, hi, sm, sv, f)					\
	{ nh, b, s, lo, hi, sm, sv, UET_WD_##f }
/* Requests: opcode 0..UET_SES_OPCODE_MAX (uet_ses_request_format). */
#define STD_RULES							\
	SR(UET_HDR_REQUEST_STD, 0, 0, 0, 0x0f, 0x01, 0x00, STD_SOM0),	\
	SR(UET_HDR_REQUEST_STD, 0, 0, UET_DEFERRABLE_SEND,		\
	   UET_DEFERRABLE_SEND, 0, 0, DEFER_SEND),			\
	SR(UET_HDR_REQUEST_STD, 0, 0, UET_DEFERRABLE_TSEND,		\
	   UET_DEFERRABLE_TSEND, 0, 0, DEFER_SEND),			\
	SR(UET_HDR_REQUEST_STD, 0, 0, UET_DEFERRABLE_RTR,		\
	   UET_DEFERRABLE_RTR, 0, 0, RTR),				\
	SR(UET_HDR_REQUEST_STD, 0, 0, 0, 0x0f, 0, 0, STD_SOM1),	\
	SR(UET_HDR_RESPONSE, 0, 0, UET_RESPONSE, UET_RESPONSE, 0, 0, RSP), \
	SR(UET_HDR_RESPONSE, 0, 0, UET_DEFAULT_RESPONSE,		\
	   UET_DEFAULT_RESPONSE, 0, 0, DEFAULT_SES_RSP),		\
	SR(UET_HDR_RESPONSE, 0, 0, UET_NO_RESPONSE, UET_NO_RESPONSE, 0, 0, \
	   DEFAULT_SES_RSP),						\
	SR(UET_HDR_RESPONSE_DATA, 0, 0, UET_RESPONSE_W_DATA,		\
	   UET_RESPONSE_W_DATA, 0, 0, RSP_DATA),			\
	SR(UET_HDR_RESPONSE_DATA_SMALL, 0, 0, UET_RESPONSE_W_DATA,	\
	   UET_RESPONSE_W_DATA, 0, 0, OPT_RSP_DATA)

static const struct uet_wd_ses_rule ses_rules_p[] = {
	/* UE+ small and medium requests: opcode in byte 0 bits 7:2 */
	SR(UET_HDR_REQUEST_SMALL, 0, 2, 0, 0x0f, 0, 0, OPT_NONMATCH),
	SR(UET_HDR_REQUEST_MEDIUM, 0, 2, 0, 0x0f, 0, 0, SMALL_MSG),
	STD_RULES,
};
static const struct uet_wd_ses_rule ses_rules_u[] = {
	SR(UET_HDR_REQUEST_SMALL, 0, 0, 0, 0x0f, 0, 0, OPT_NONMATCH),
	SR(UET_HDR_REQUEST_MEDIUM, 0, 0, 0, 0x0f, 0, 0, SMALL_MSG),
	STD_RULES,
};

#define XR(p, lo, hi, alo, ahi, f)	{ UET_WD_##p, lo, hi, alo, ahi, UET_WD_##f }
/* Atomics: the CAS extension for compare-and-swap (and, in UE+, masked
 * swap), the atomic extension otherwise; rendezvous sends: the
 * rendezvous extension.  After a standard SOM=1 request. */
static const struct uet_wd_ext_rule ext_rules_p[] = {
	XR(STD_SOM1, UET_ATOMIC, UET_FETCHING_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_MSWAP, CAS_EXT),
	XR(STD_SOM1, UET_ATOMIC, UET_FETCHING_ATOMIC, 0, 0xff, ATOMIC_EXT),
	XR(STD_SOM1, UET_TSEND_ATOMIC, UET_TSEND_FETCH_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_MSWAP, CAS_EXT),
	XR(STD_SOM1, UET_TSEND_ATOMIC, UET_TSEND_FETCH_ATOMIC, 0, 0xff,
	   ATOMIC_EXT),
	XR(STD_SOM1, UET_RENDEZVOUS_SEND, UET_RENDEZVOUS_SEND, 0, 0xff,
	   RDZV_EXT),
	XR(STD_SOM1, UET_RENDEZVOUS_TSEND, UET_RENDEZVOUS_TSEND, 0, 0xff,
	   RDZV_EXT),
};
static const struct uet_wd_ext_rule ext_rules_u[] = {
	XR(STD_SOM1, UET_ATOMIC, UET_FETCHING_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_CSWAP_GT, CAS_EXT),
	XR(STD_SOM1, UET_ATOMIC, UET_FETCHING_ATOMIC, 0, 0xff, ATOMIC_EXT),
	XR(STD_SOM1, UET_TSEND_ATOMIC, UET_TSEND_FETCH_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_CSWAP_GT, CAS_EXT),
	XR(STD_SOM1, UET_TSEND_ATOMIC, UET_TSEND_FETCH_ATOMIC, 0, 0xff,
	   ATOMIC_EXT),
	XR(STD_SOM1, UET_RENDEZVOUS_SEND, UET_RENDEZVOUS_SEND, 0, 0xff,
	   RDZV_EXT),
	XR(STD_SOM1, UET_RENDEZVOUS_TSEND, UET_RENDEZVOUS_TSEND, 0, 0xff,
	   RDZV_EXT),
	/* UE 1.0.1 atomics in small and medium requests (W, X) */
	XR(SMALL_MSG, UET_ATOMIC, UET_FETCHING_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_CSWAP_GT, CAS_EXT),
	XR(SMALL_MSG, UET_ATOMIC, UET_FETCHING_ATOMIC, 0, 0xff, ATOMIC_EXT),
	XR(OPT_NONMATCH, UET_ATOMIC, UET_FETCHING_ATOMIC, UET_AMO_CSWAP,
	   UET_AMO_CSWAP_GT, CAS_EXT),
	XR(OPT_NONMATCH, UET_ATOMIC, UET_FETCHING_ATOMIC, 0, 0xff,
	   ATOMIC_EXT),
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

const struct uet_wd_ses_rule *uet_wd_ses_rules(enum uet_wire_prof wp,
					       size_t *n)
{
	*n = wp == UET_WIRE_UE ? NELEM(ses_rules_u) : NELEM(ses_rules_p);
	return wp == UET_WIRE_UE ? ses_rules_u : ses_rules_p;
}

const struct uet_wd_ext_rule *uet_wd_ext_rules(enum uet_wire_prof wp,
					       size_t *n)
{
	*n = wp == UET_WIRE_UE ? NELEM(ext_rules_u) : NELEM(ext_rules_p);
	return wp == UET_WIRE_UE ? ext_rules_u : ext_rules_p;
}

unsigned int uet_wd_rule_opcode(const struct uet_wd_ses_rule *r,
				const uint8_t *ses)
{
	return (unsigned int)(ses[r->op_byte] >> r->op_shift) & 0x3fu;
}

unsigned int uet_wd_ses_fmt(enum uet_wire_prof wp, unsigned int nh,
			    const uint8_t *ses, size_t len)
{
	const struct uet_wd_ses_rule *r;
	unsigned int op;
	size_t i, n;

	if (len < 2)
		return UET_WD_NONE;
	r = uet_wd_ses_rules(wp, &n);
	for (i = 0; i < n; i++) {
		if (r[i].nh != nh)
			continue;
		op = uet_wd_rule_opcode(&r[i], ses);
		if (op < r[i].op_lo || op > r[i].op_hi)
			continue;
		if ((ses[1] & r[i].som_mask) != r[i].som_val)
			continue;
		return r[i].fmt;
	}
	return UET_WD_NONE;
}

unsigned int uet_wd_ext_fmt(enum uet_wire_prof wp, unsigned int fmt,
			    const uint8_t *ses, size_t len)
{
	const struct uet_wd_fmt *f = uet_wd_fmt(wp, fmt);
	const struct uet_wd_ext_rule *r;
	unsigned int op;
	size_t i, n;

	if (!f || len < f->len)
		return UET_WD_NONE;
	/* the parent's opcode: its first field (bytes 0-1 head) */
	op = (unsigned int)uet_wd_wire_value(&f->f[0], ses);
	r = uet_wd_ext_rules(wp, &n);
	for (i = 0; i < n; i++) {
		if (r[i].parent != fmt || op < r[i].op_lo || op > r[i].op_hi)
			continue;
		if (r[i].amo_lo != 0 || r[i].amo_hi != 0xff) {
			if (len < f->len + 1u ||
			    ses[f->len] < r[i].amo_lo ||
			    ses[f->len] > r[i].amo_hi)
				continue;
		}
		return r[i].fmt;
	}
	return UET_WD_NONE;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

unsigned int uet_wd_mask_shift(uint64_t mask)
{
	unsigned int s = 0;

	if (!mask)
		return 0;
	while (!(mask & 1)) {
		mask >>= 1;
		s++;
	}
	return s;
}

unsigned int uet_wd_mask_bits(uint64_t mask)
{
	unsigned int b = 0;

	mask >>= uet_wd_mask_shift(mask);
	while (mask & 1) {
		mask >>= 1;
		b++;
	}
	return b;
}

unsigned int uet_wd_field_bits(const struct uet_wd_field *f)
{
	return f->mask ? uet_wd_mask_bits(f->mask) : 8u * f->len;
}

bool uet_wd_present(const struct uet_wd_field *f, const uint8_t *h)
{
	return !f->when_mask || (h[f->when_off] & f->when_mask) == f->when_val;
}

static uint64_t get_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static uint64_t sext(uint64_t v, unsigned int bits)
{
	if (bits < 64 && (v >> (bits - 1) & 1))
		v |= ~((UINT64_C(1) << bits) - 1);
	return v;
}

uint64_t uet_wd_wire_value(const struct uet_wd_field *f, const uint8_t *h)
{
	unsigned int bits = uet_wd_field_bits(f);
	uint64_t v = get_be(h + f->off, f->len);

	if (f->mask)
		v = (v & f->mask) >> uet_wd_mask_shift(f->mask);
	if (f->kind == UET_WD_SINT)
		v = sext(v, bits);
	return v;
}

/* enum uet_amo_dtype -> the profile's wire code (uet_ses_wire.c). */
static uint64_t dtype_to_wire(enum uet_wire_prof wp, uint64_t d)
{
	if (wp != UET_WIRE_UE)
		return d;
	switch (d) {
	case UET_AMO_FLOAT:		return UET_AMO_UE_FLOAT;
	case UET_AMO_DOUBLE:		return UET_AMO_UE_DOUBLE;
	case UET_AMO_FLOAT_COMPLEX:	return UET_AMO_UE_FLOAT_COMPLEX;
	case UET_AMO_DOUBLE_COMPLEX:	return UET_AMO_UE_DOUBLE_COMPLEX;
	case UET_AMO_FLOAT16:		return UET_AMO_UE_FLOAT16;
	case UET_AMO_BFLOAT16:		return UET_AMO_UE_BFLOAT16;
	case UET_AMO_INT128:		return UET_AMO_UE_INT128;
	case UET_AMO_UINT128:		return UET_AMO_UE_UINT128;
	default:			return d;
	}
}

/* Host NACK code (enum uet_nack_code) -> UE 1.0.1 code. */
static uint64_t nack_to_ue(uint64_t c)
{
	static const uint8_t map[] = {
		[UET_NACK_NO_PKT_BUF] = 0x07,
		[UET_NACK_TRIMMED] = 0x01,
		[UET_NACK_NO_PDC_AVAIL] = 0x04,
		[UET_NACK_INV_DPDCID] = 0x0e,
		[UET_NACK_PDC_HDR_MISMATCH] = 0x0f,
		[UET_NACK_PSN_OOR_WINDOW] = 0x0b,
		[UET_NACK_PSN_GAP] = 0x1a,
	};

	return c < NELEM(map) ? map[c] : c;
}

bool uet_wd_host_value(enum uet_wire_prof wp, const struct uet_wd_field *f,
		       const void *hs, uint64_t *v)
{
	const uint8_t *m = (const uint8_t *)hs + f->moff;
	uint64_t x = 0;
	unsigned int bits = uet_wd_field_bits(f);

	if (!f->msize || f->kind == UET_WD_BYTES || f->kind == UET_WD_RSVD)
		return false;
	switch (f->msize) {
	case 1: { uint8_t t; memcpy(&t, m, 1); x = t; break; }
	case 2: { uint16_t t; memcpy(&t, m, 2); x = t; break; }
	case 4: { uint32_t t; memcpy(&t, m, 4); x = t; break; }
	case 8: { uint64_t t; memcpy(&t, m, 8); x = t; break; }
	default: return false;
	}
	if (f->sub && f->mask)
		x = (x & f->mask) >> uet_wd_mask_shift(f->mask);
	switch (f->xform) {
	case UET_WD_X_NEG16:
		x = (uint16_t)(0x10000u - (x & 0xffff));
		break;
	case UET_WD_X_NACK_UE:
		x = nack_to_ue(x);
		break;
	case UET_WD_X_DTYPE:
		x = dtype_to_wire(wp, x);
		break;
	case UET_WD_X_PDC_INFO_UE:
		/* use_rsv_pdc: host 0x1 -> the nibble's top bit */
		x = x & UET_PDC_INFO_USE_RSV_PDC ? 0x8 : 0;
		break;
	default:
		break;
	}
	if (bits < 64)
		x &= (UINT64_C(1) << bits) - 1;
	if (f->kind == UET_WD_SINT)
		x = sext(x, bits);
	if (f->kind == UET_WD_BOOL)
		x = x != 0;
	*v = x;
	return true;
}

/* ---- value names ---- */

static const struct uet_wd_val nack_ue[] = {
	{ 0x01, "TRIMMED" }, { 0x02, "TRIMMED_LASTHOP" },
	{ 0x03, "TRIMMED_ACK" }, { 0x04, "NO_PDC_AVAIL" },
	{ 0x05, "NO_CCC_AVAIL" }, { 0x06, "NO_BITMAP" },
	{ 0x07, "NO_PKT_BUFFER" }, { 0x08, "NO_GTD_DEL_AVAIL" },
	{ 0x09, "NO_SES_MSG_AVAIL" }, { 0x0a, "NO_RESOURCE" },
	{ 0x0b, "PSN_OOR_WINDOW" }, { 0x0d, "ROD_OOO" },
	{ 0x0e, "INV_DPDCID" }, { 0x0f, "PDC_HDR_MISMATCH" },
	{ 0x10, "CLOSING" }, { 0x11, "CLOSING_IN_ERR" },
	{ 0x12, "PKT_NOT_RCVD" }, { 0x13, "GTD_DEL_RESP_UNAVAIL" },
	{ 0x14, "ACK_WITH_DATA" }, { 0x15, "INVALID_SYN" },
	{ 0x16, "PDC_MODE_MISMATCH" }, { 0x17, "NEW_START_PSN" },
	{ 0x18, "RCVD_SES_PROCG" }, { 0x19, "UNEXP_EVENT" },
	{ 0x1a, "RCVR_INFER_LOSS" }, { 0xfd, "EXP_NACK_NORMAL" },
	{ 0xfe, "EXP_NACK_ERR" }, { 0xff, "EXP_NACK_FATAL" },
};
static const struct uet_wd_val dtype_ue[] = {
	{ 0x00, "INT8" }, { 0x01, "UINT8" }, { 0x02, "INT16" },
	{ 0x03, "UINT16" }, { 0x04, "INT32" }, { 0x05, "UINT32" },
	{ 0x06, "INT64" }, { 0x07, "UINT64" }, { 0x08, "INT128" },
	{ 0x09, "UINT128" }, { 0x0a, "FLOAT" }, { 0x0b, "DOUBLE" },
	{ 0x0c, "FLOAT_COMPLEX" }, { 0x0d, "DOUBLE_COMPLEX" },
	{ 0x10, "BFLOAT16" }, { 0x11, "FLOAT16" },
};
static const struct uet_wd_val list_v[] = {
	{ UET_LIST_EXPECTED, "EXPECTED" }, { UET_LIST_UNEXPECTED, "UNEXPECTED" },
};
static const struct uet_wd_val ack_req_v[] = {
	{ 0, "NONE" }, { 1, "CLEAR_PSN" }, { 2, "CLOSE_PDC" },
};
static const struct uet_wd_val semctl_v[] = {
	{ 0, "NONE" }, { UET_AMO_SEMCTL_CACHEABLE, "CACHEABLE" },
	{ UET_AMO_SEMCTL_CPU_COHERENT, "CPU_COHERENT" },
	{ UET_AMO_SEMCTL_CACHEABLE | UET_AMO_SEMCTL_CPU_COHERENT,
	  "CACHEABLE|CPU_COHERENT" },
};
static const struct uet_wd_val tss_flags_v[] = {
	{ 0, "NONE" }, { UET_TSS_FLAG_DCI, "DCI" },
	{ UET_TSS_FLAG_ANNOUNCE, "ANNOUNCE" },
	{ UET_TSS_FLAG_DCI | UET_TSS_FLAG_ANNOUNCE, "DCI|ANNOUNCE" },
};

/* Tables built from the name functions of uet_wire_consts.c. */
struct wd_built {
	unsigned int max;
	const char *(*str)(unsigned int);
	struct uet_wd_val v[256];
	size_t n;
};

static const char *dtype_ueplus_str(unsigned int c)
{
	return c <= UET_AMO_DTYPE_MAX ? uet_amo_dtype_str(c) : "UNKNOWN";
}

static const struct uet_wd_vtab *built(const char *name, struct wd_built *b,
				       struct uet_wd_vtab *t)
{
	unsigned int i;
	const char *s;

	if (!b->n) {
		for (i = 0; i <= b->max; i++) {
			s = b->str(i);
			if (strcmp(s, "UNKNOWN"))
				b->v[b->n++] = (struct uet_wd_val){ i, s };
		}
	}
	t->name = name;
	t->v = b->v;
	t->n = b->n;
	return t;
}

const struct uet_wd_vtab *uet_wd_vtab(unsigned int vals)
{
	static struct wd_built b_type = { 31, uet_pds_type_str, { { 0 } }, 0 };
	static struct wd_built b_nh = { 15, uet_next_hdr_str, { { 0 } }, 0 };
	static struct wd_built b_ctl = { 15, uet_ctl_type_str, { { 0 } }, 0 };
	static struct wd_built b_nack = { 255, uet_nack_code_str, { { 0 } }, 0 };
	static struct wd_built b_cc = { 15, uet_cc_type_str, { { 0 } }, 0 };
	static struct wd_built b_op = { 63, uet_ses_opcode_str, { { 0 } }, 0 };
	static struct wd_built b_rop = { 63, uet_ses_rsp_opcode_str, { { 0 } },
					 0 };
	static struct wd_built b_rc = { 63, uet_ses_rc_str, { { 0 } }, 0 };
	static struct wd_built b_amo = { 255, uet_amo_op_str, { { 0 } }, 0 };
	static struct wd_built b_dt = { 255, dtype_ueplus_str, { { 0 } }, 0 };
	static struct uet_wd_vtab t[UET_WD_NVALS];

#define FIXED(id, nm, arr)						\
	case UET_WD_V_##id:						\
		t[vals] = (struct uet_wd_vtab){ nm, arr, NELEM(arr) };	\
		return &t[vals]
	switch (vals) {
	case UET_WD_V_PDS_TYPE: return built("pds_type", &b_type, &t[vals]);
	case UET_WD_V_NEXT_HDR: return built("next_hdr", &b_nh, &t[vals]);
	case UET_WD_V_CTL_TYPE: return built("ctl_type", &b_ctl, &t[vals]);
	case UET_WD_V_NACK_UEPLUS:
		return built("nack_code_ueplus", &b_nack, &t[vals]);
	case UET_WD_V_CC_TYPE: return built("cc_type", &b_cc, &t[vals]);
	case UET_WD_V_SES_OPCODE:
		return built("ses_opcode", &b_op, &t[vals]);
	case UET_WD_V_RSP_OPCODE:
		return built("rsp_opcode", &b_rop, &t[vals]);
	case UET_WD_V_RC: return built("return_code", &b_rc, &t[vals]);
	case UET_WD_V_AMO_OP: return built("amo_op", &b_amo, &t[vals]);
	case UET_WD_V_AMO_DTYPE_UEPLUS:
		return built("amo_dtype_ueplus", &b_dt, &t[vals]);
	FIXED(NACK_UE, "nack_code_ue", nack_ue);
	FIXED(AMO_DTYPE_UE, "amo_dtype_ue", dtype_ue);
	FIXED(LIST, "list", list_v);
	FIXED(ACK_REQ, "ack_req", ack_req_v);
	FIXED(SEMCTL, "semantic_control", semctl_v);
	FIXED(TSS_FLAGS, "tss_flags", tss_flags_v);
	default:
		return NULL;
	}
#undef FIXED
}

const char *uet_wd_val_name(unsigned int vals, uint64_t v)
{
	const struct uet_wd_vtab *t = uet_wd_vtab(vals);
	size_t i;

	for (i = 0; t && i < t->n; i++)
		if (t->v[i].v == v)
			return t->v[i].name;
	return NULL;
}

const char *uet_wd_layer_prefix(unsigned int layer)
{
	static const char *const p[] = {
		[UET_WD_PDS] = "uet.pds", [UET_WD_SES] = "uet.ses",
		[UET_WD_EXT] = "uet.ext", [UET_WD_TSS] = "uet.tss",
	};

	return layer < NELEM(p) ? p[layer] : "uet";
}
