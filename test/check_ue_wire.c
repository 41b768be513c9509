/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The UE 1.0.1 wire profile (UET_WIRE_UE): byte vectors for every PDS and
 * SES format, written by hand from the published layouts as three
 * independent implementations read them:
 *   W  Wireshark's UET dissector, epan/dissectors/packet-uet.c
 *   R  the UEC reference provider, uet_pkt_hdr.h (top level)
 *   X  XDP2, src/include/uet/pds.h and ses.h
 * Each vector's comment names the offsets it encodes and which of them
 * agree; where they disagree the vector follows the two that agree (the
 * third is named).  Host values are uet's (struct members shared by both
 * profiles, docs/conformance.md): the codec translates clear_psn_offset,
 * pdc_info, NACK codes and atomic datatypes.
 *
 * Tests: decode == host struct, encode == bytes, every truncated prefix
 * fails with UET_WIRE_ETRUNC, every reserved bit set fails with
 * UET_WIRE_ERESERVED, and across profiles: where a format's size differs
 * the UE+ codec refuses the UE bytes or reads another length (and the UE
 * codec the UE+ bytes), and uet_wire_datagram_parses() tells whole
 * datagrams of one profile from the other's.
 *
 * Prologue arithmetic: u16 = type << 11 | next_hdr << 7 | flags, so
 * byte 0 = type << 3 | next_hdr >> 1, byte 1 = (next_hdr & 1) << 7 |
 * flags.  SES request bytes 0-1: byte 0 = opcode (0x3f, 0xc0 reserved),
 * byte 1 = version << 6 | dc 0x20 | ie 0x10 | rel 0x08 | hd 0x04 |
 * eom 0x02 | som 0x01 (W, R, X agree; one layout for every request).
 */
#include <stdlib.h>
#include <string.h>

#include "uet_test.h"
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_pds_cc.h"

#define BUF_MAX		64
#define FILL		0xa5

#include "wire_fmt_test.h"

/* ------------------------------------------------------------------ */
/* Formats, in both profiles                                           */
/* ------------------------------------------------------------------ */

#define WRAP(layer, fmt, stype)						\
static ssize_t enc_ue_##fmt(uint8_t *buf, size_t len, const void *h)	\
{									\
	return uet_##layer##_##fmt##_encode(UET_WIRE_UE, buf, len,	\
					    (const stype *)h);		\
}									\
static ssize_t dec_ue_##fmt(void *h, const uint8_t *buf, size_t len)	\
{									\
	return uet_##layer##_##fmt##_decode(UET_WIRE_UE, (stype *)h, buf, \
					    len);			\
}									\
static ssize_t enc_up_##fmt(uint8_t *buf, size_t len, const void *h)	\
{									\
	return uet_##layer##_##fmt##_encode(UET_WIRE_UEPLUS, buf, len,	\
					    (const stype *)h);		\
}									\
static ssize_t dec_up_##fmt(void *h, const uint8_t *buf, size_t len)	\
{									\
	return uet_##layer##_##fmt##_decode(UET_WIRE_UEPLUS, (stype *)h, \
					    buf, len);			\
}

WRAP(pds, rud_rod_req, struct uet_pds_rud_rod_req)
WRAP(pds, rud_rod_cc_req, struct uet_pds_rud_rod_cc_req)
WRAP(pds, rudi, struct uet_pds_rudi)
WRAP(pds, uud_req, struct uet_pds_uud_req)
WRAP(pds, ack, struct uet_pds_ack)
WRAP(pds, ack_cc, struct uet_pds_ack_cc)
WRAP(pds, ack_ccx, struct uet_pds_ack_ccx)
WRAP(pds, nack, struct uet_pds_nack)
WRAP(pds, nack_ccx, struct uet_pds_nack_ccx)
WRAP(pds, cp, struct uet_pds_cp)
WRAP(pds, default_ses_rsp, struct uet_pds_default_ses_rsp)
WRAP(ses, std_som1, struct uet_ses_std_som1)
WRAP(ses, std_som0, struct uet_ses_std_som0)
WRAP(ses, opt_nonmatch, struct uet_ses_opt_nonmatch)
WRAP(ses, small_msg, struct uet_ses_small_msg)
WRAP(ses, defer_send, struct uet_ses_defer_send)
WRAP(ses, rtr, struct uet_ses_rtr)
WRAP(ses, rsp, struct uet_ses_rsp)
WRAP(ses, rsp_data, struct uet_ses_rsp_data)
WRAP(ses, opt_rsp_data, struct uet_ses_opt_rsp_data)
WRAP(ses, atomic_ext, struct uet_ses_atomic_ext)
WRAP(ses, cas_ext, struct uet_ses_cas_ext)
WRAP(ses, rdzv_ext, struct uet_ses_rdzv_ext)

/* ---- equality, field by field ---- */

#define EQ(f)	(a->f == b->f)
#define EQM(f)	(!memcmp(a->f, b->f, sizeof(a->f)))

static bool eq_rud_rod_req(const void *pa, const void *pb)
{
	const struct uet_pds_rud_rod_req *a = pa, *b = pb;

	return EQ(type) && EQ(next_hdr) && EQ(retx) && EQ(ar) && EQ(syn) &&
	       EQ(clear_psn_offset) && EQ(psn) && EQ(spdcid) && EQ(dpdcid) &&
	       EQ(pdc_info) && EQ(psn_offset);
}

static bool eq_rud_rod_cc_req(const void *pa, const void *pb)
{
	const struct uet_pds_rud_rod_cc_req *a = pa, *b = pb;

	/* req_cc_state is UE+ only: decodes as zeros here */
	return eq_rud_rod_req(&a->req, &b->req) && EQM(req_cc_state) &&
	       EQ(ccc_id) && EQ(credit_target);
}

static bool eq_rudi(const void *pa, const void *pb)
{
	const struct uet_pds_rudi *a = pa, *b = pb;

	return EQ(type) && EQ(next_hdr) && EQ(m) && EQ(retx) && EQ(pkt_id);
}

static bool eq_uud_req(const void *pa, const void *pb)
{
	const struct uet_pds_uud_req *a = pa, *b = pb;

	return EQ(next_hdr) && EQ(pkt_id);
}

static bool eq_ack(const void *pa, const void *pb)
{
	const struct uet_pds_ack *a = pa, *b = pb;

	return EQ(next_hdr) && EQ(m) && EQ(retx) && EQ(p) && EQ(req) &&
	       EQ(ack_psn_offset) && EQ(probe_opaque) && EQ(cack_psn) &&
	       EQ(spdcid) && EQ(dpdcid);
}

static bool eq_ack_cc(const void *pa, const void *pb)
{
	const struct uet_pds_ack_cc *a = pa, *b = pb;

	return eq_ack(&a->ack, &b->ack) && EQ(cc_type) && EQ(mpr) &&
	       EQ(sack_psn_offset) && EQ(sack_bitmap) && EQ(ack_cc_state);
}

static bool eq_ack_ccx(const void *pa, const void *pb)
{
	const struct uet_pds_ack_ccx *a = pa, *b = pb;

	return eq_ack(&a->ack, &b->ack) && EQ(cc_type) && EQ(mpr) &&
	       EQ(sack_psn_offset) && EQ(sack_bitmap) && EQM(ack_ccx_state);
}

static bool eq_nack(const void *pa, const void *pb)
{
	const struct uet_pds_nack *a = pa, *b = pb;

	return EQ(next_hdr) && EQ(m) && EQ(retx) && EQ(nt) &&
	       EQ(nack_code) && EQ(vendor_code) && EQ(nack_psn) &&
	       EQ(spdcid) && EQ(dpdcid) && EQ(payload);
}

static bool eq_nack_ccx(const void *pa, const void *pb)
{
	const struct uet_pds_nack_ccx *a = pa, *b = pb;

	return eq_nack(&a->nack, &b->nack) && EQM(nack_ccx_state);
}

static bool eq_cp(const void *pa, const void *pb)
{
	const struct uet_pds_cp *a = pa, *b = pb;

	return EQ(ctl_type) && EQ(isrod) && EQ(retx) && EQ(ar) && EQ(syn) &&
	       EQ(probe_opaque) && EQ(psn) && EQ(spdcid) && EQ(dpdcid) &&
	       EQ(pdc_info) && EQ(psn_offset) && EQ(payload);
}

static bool eq_default_ses_rsp(const void *pa, const void *pb)
{
	const struct uet_pds_default_ses_rsp *a = pa, *b = pb;

	return EQ(list) && EQ(opcode) && EQ(version) && EQ(return_code) &&
	       EQ(message_id) && EQ(ri_generation) && EQ(job_id) &&
	       EQ(modified_length);
}

static bool eq_req_ctl(const struct uet_ses_req_ctl *a,
		       const struct uet_ses_req_ctl *b)
{
	return EQ(opcode) && EQ(version) && EQ(dc) && EQ(ie) && EQ(rel) &&
	       EQ(hd) && EQ(eom) && EQ(som);
}

static bool eq_rsp_ctl(const struct uet_ses_rsp_ctl *a,
		       const struct uet_ses_rsp_ctl *b)
{
	return EQ(list) && EQ(opcode) && EQ(version) && EQ(return_code);
}

#define EQ_ADDR	(EQ(ri_generation) && EQ(job_id) && EQ(pid_on_fep) &&	\
		 EQ(resource_index))

static bool eq_std_som1(const void *pa, const void *pb)
{
	const struct uet_ses_std_som1 *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(message_id) && EQ_ADDR &&
	       EQ(buffer_offset) && EQ(initiator) && EQ(match_bits) &&
	       EQ(header_data) && EQ(request_length);
}

static bool eq_std_som0(const void *pa, const void *pb)
{
	const struct uet_ses_std_som0 *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(message_id) && EQ_ADDR &&
	       EQ(buffer_offset) && EQ(initiator) && EQ(match_bits) &&
	       EQ(payload_length) && EQ(message_offset) &&
	       EQ(request_length);
}

static bool eq_opt_nonmatch(const void *pa, const void *pb)
{
	const struct uet_ses_opt_nonmatch *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(request_length) &&
	       EQ_ADDR && EQ(buffer_offset);
}

static bool eq_small_msg(const void *pa, const void *pb)
{
	const struct uet_ses_small_msg *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(request_length) &&
	       EQ_ADDR && EQ(initiator) && EQ(match_bits) && EQ(header_data);
}

static bool eq_defer_send(const void *pa, const void *pb)
{
	const struct uet_ses_defer_send *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(message_id) && EQ_ADDR &&
	       EQ(initiator_restart_token) && EQ(target_restart_token) &&
	       EQ(initiator) && EQ(match_bits) && EQ(header_data) &&
	       EQ(request_length);
}

static bool eq_rtr(const void *pa, const void *pb)
{
	const struct uet_ses_rtr *a = pa, *b = pb;

	return eq_req_ctl(&a->ctl, &b->ctl) && EQ(message_id) && EQ_ADDR &&
	       EQ(buffer_offset) && EQ(initiator_restart_token) &&
	       EQ(target_restart_token) && EQ(initiator) && EQ(header_data) &&
	       EQ(request_length);
}

static bool eq_rsp(const void *pa, const void *pb)
{
	const struct uet_ses_rsp *a = pa, *b = pb;

	return eq_rsp_ctl(&a->ctl, &b->ctl) && EQ(message_id) &&
	       EQ(ri_generation) && EQ(job_id) && EQ(modified_length);
}

static bool eq_rsp_data(const void *pa, const void *pb)
{
	const struct uet_ses_rsp_data *a = pa, *b = pb;

	return eq_rsp_ctl(&a->ctl, &b->ctl) && EQ(response_message_id) &&
	       EQ(job_id) && EQ(read_request_message_id) &&
	       EQ(payload_length) && EQ(modified_length) &&
	       EQ(message_offset);
}

static bool eq_opt_rsp_data(const void *pa, const void *pb)
{
	const struct uet_ses_opt_rsp_data *a = pa, *b = pb;

	return eq_rsp_ctl(&a->ctl, &b->ctl) && EQ(payload_length) &&
	       EQ(job_id) && EQ(original_request_psn);
}

static bool eq_atomic_ext(const void *pa, const void *pb)
{
	const struct uet_ses_atomic_ext *a = pa, *b = pb;

	return EQ(atomic_opcode) && EQ(atomic_datatype) &&
	       EQ(semantic_control);
}

static bool eq_cas_ext(const void *pa, const void *pb)
{
	const struct uet_ses_cas_ext *a = pa, *b = pb;

	return EQ(atomic_opcode) && EQ(atomic_datatype) &&
	       EQ(semantic_control) && EQM(compare_mask_value) &&
	       EQM(swap_value);
}

static bool eq_rdzv_ext(const void *pa, const void *pb)
{
	const struct uet_ses_rdzv_ext *a = pa, *b = pb;

	return EQ(eager_length) && EQ(memory_key) && EQ(buffer_offset) &&
	       EQ(remaining_length) && EQ(read_ri_generation) &&
	       EQ(read_pid_on_fep) && EQ(read_resource_index);
}

enum {
	F_RUD_ROD, F_RUD_ROD_CC, F_RUDI, F_UUD, F_ACK, F_ACK_CC, F_ACK_CCX,
	F_NACK, F_NACK_CCX, F_CP, F_DSR,
	F_SOM1, F_SOM0, F_SMALL, F_MEDIUM, F_DEFER, F_RTR, F_RSP, F_RSPD,
	F_ORSPD, F_AMO, F_CAS, F_RDZV, NFMTS
};

#define FMT(pfx, n, LEN, stype, pro)					\
	{ .name = #n, .len = LEN, .hsize = sizeof(stype),		\
	  .prologue = pro, .enc = enc_##pfx##_##n,			\
	  .dec = dec_##pfx##_##n, .eq = eq_##n }

/* The UE 1.0.1 lengths (ue101-layouts Part 5: all three agree except
 * ACK_CCX and NACK_CCX, X 32 and 24, rendezvous ext X 8, optimized
 * response with data W 4: two of three). */
#define FMTS(pfx, L)							\
	[F_RUD_ROD] = FMT(pfx, rud_rod_req, 12,				\
			  struct uet_pds_rud_rod_req, true),		\
	[F_RUD_ROD_CC] = FMT(pfx, rud_rod_cc_req, L(16, 28),		\
			     struct uet_pds_rud_rod_cc_req, true),	\
	[F_RUDI] = FMT(pfx, rudi, L(8, 6), struct uet_pds_rudi, true),	\
	[F_UUD] = FMT(pfx, uud_req, L(4, 6), struct uet_pds_uud_req,	\
		      true),						\
	[F_ACK] = FMT(pfx, ack, 12, struct uet_pds_ack, true),		\
	[F_ACK_CC] = FMT(pfx, ack_cc, 32, struct uet_pds_ack_cc, true),	\
	[F_ACK_CCX] = FMT(pfx, ack_ccx, 40, struct uet_pds_ack_ccx,	\
			  true),					\
	[F_NACK] = FMT(pfx, nack, L(16, 12), struct uet_pds_nack, true),	\
	[F_NACK_CCX] = FMT(pfx, nack_ccx, L(32, 28),			\
			   struct uet_pds_nack_ccx, true),		\
	[F_CP] = FMT(pfx, cp, L(16, 12), struct uet_pds_cp, true),	\
	[F_DSR] = FMT(pfx, default_ses_rsp, L(12, 8),			\
		      struct uet_pds_default_ses_rsp, false),		\
	[F_SOM1] = FMT(pfx, std_som1, 44, struct uet_ses_std_som1,	\
		       false),						\
	[F_SOM0] = FMT(pfx, std_som0, 44, struct uet_ses_std_som0,	\
		       false),						\
	[F_SMALL] = FMT(pfx, opt_nonmatch, L(20, 32),			\
			struct uet_ses_opt_nonmatch, false),		\
	[F_MEDIUM] = FMT(pfx, small_msg, 32, struct uet_ses_small_msg,	\
			 false),					\
	[F_DEFER] = FMT(pfx, defer_send, 44, struct uet_ses_defer_send,	\
			false),						\
	[F_RTR] = FMT(pfx, rtr, 44, struct uet_ses_rtr, false),		\
	[F_RSP] = FMT(pfx, rsp, L(12, 16), struct uet_ses_rsp, false),	\
	[F_RSPD] = FMT(pfx, rsp_data, L(20, 24), struct uet_ses_rsp_data, \
		       false),						\
	[F_ORSPD] = FMT(pfx, opt_rsp_data, L(12, 16),			\
			struct uet_ses_opt_rsp_data, false),		\
	[F_AMO] = FMT(pfx, atomic_ext, L(4, 8),				\
		      struct uet_ses_atomic_ext, false),		\
	[F_CAS] = FMT(pfx, cas_ext, L(36, 40), struct uet_ses_cas_ext,	\
		      false),						\
	[F_RDZV] = FMT(pfx, rdzv_ext, L(24, 32),			\
		       struct uet_ses_rdzv_ext, false)

#define L_UE(ue, up)	(ue)
#define L_UP(ue, up)	(up)

static const struct fmt fmts[NFMTS] = { FMTS(ue, L_UE) };
static const struct fmt pfmts[NFMTS] = { FMTS(up, L_UP) };

/* ------------------------------------------------------------------ */
/* Vectors                                                             */
/* ------------------------------------------------------------------ */

static const struct vec vecs[] = {
	/*
	 * RUD/ROD request 12 B (ue101-layouts 1.3): prologue 0-1, signed
	 * clear_psn_offset 2-3 (CLEAR_PSN = PSN + offset: W packet-uet.c
	 * and R uet_pkt_hdr.h int16_t agree; X pds.h __be16 does not
	 * interpret it), psn 4-7, spdcid 8-9, dpdcid 10-11 (W, R, X agree).
	 * RUD (2), next_hdr STD (3), ar 0x08: 2 << 11 | 3 << 7 | 0x08 =
	 * 0x1188.  CLEAR_PSN = PSN - 1: host PSN - CLEAR = 1, wire
	 * CLEAR - PSN = -1 = ff ff.  Reserved flags 0x63 (W rsvd mask
	 * 0x63, R RSV 0x60 | RSV2 0x03).
	 */
	{ "rud_req", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_RUD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.ar = true, .clear_psn_offset = 1, .psn = 0x00012000,
		.spdcid = 0x4001, .dpdcid = 0x8001 },
	  { 0x11, 0x88, 0xff, 0xff, 0x00, 0x01, 0x20, 0x00,
	    0x40, 0x01, 0x80, 0x01 },
	  { [1] = 0x63 } },
	/*
	 * 1.3 as above, ROD (3), no flags: 0x1980.  CLEAR_PSN = PSN -
	 * 0x7fff (uet's furthest): wire -0x7fff = 0x8001.
	 */
	{ "rod_req_far_clear", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_ROD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.clear_psn_offset = 0x7fff, .psn = 0x80000000,
		.spdcid = 0x0001, .dpdcid = 0xffff },
	  { 0x19, 0x80, 0x80, 0x01, 0x80, 0x00, 0x00, 0x00,
	    0x00, 0x01, 0xff, 0xff },
	  { [1] = 0x63 } },
	/*
	 * 1.3 / 1.16 syn = 1: bytes 10-11 = pdc_info (u16 0xf000) +
	 * psn_offset (u16 0x0fff); use_rsv_pdc at u16@10 0x8000 (byte 10
	 * 0x80: W packet-uet.c and X pds.h agree; R uet_pkt_hdr.h has
	 * 0x1000, D4), reserved pdc_info 0x7000 (W, X).  ROD, STD, ar +
	 * syn: 0x198c.  CLEAR_PSN = PSN - 2: wire -2 = ff fe.  psn_offset
	 * 5: bytes 10-11 = 80 05 (ue101-layouts' worked example).
	 */
	{ "rod_req_syn", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_ROD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.ar = true, .syn = true, .clear_psn_offset = 2,
		.psn = 0x00012000, .spdcid = 0x4001,
		.pdc_info = UET_PDC_INFO_USE_RSV_PDC, .psn_offset = 0x005 },
	  { 0x19, 0x8c, 0xff, 0xfe, 0x00, 0x01, 0x20, 0x00,
	    0x40, 0x01, 0x80, 0x05 },
	  { [1] = 0x63, [10] = 0x70 } },
	/*
	 * 1.3 syn = 1 without use_rsv_pdc, CLEAR_PSN = PSN (offset 0):
	 * RUD, REQUEST_SMALL (1), syn: 2 << 11 | 1 << 7 | 0x04 = 0x1084.
	 */
	{ "rud_req_syn_norsv", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_RUD_REQ,
		.next_hdr = UET_HDR_REQUEST_SMALL, .syn = true,
		.psn = 0x00000100, .spdcid = 0x0002, .psn_offset = 0xfff },
	  { 0x10, 0x84, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x02, 0x0f, 0xff },
	  { [1] = 0x63, [10] = 0x70 } },
	/*
	 * RUD_CC request 16 B (1.4): 0-11 as 1.3, ccc_id byte 12,
	 * credit_target 13-15 (W FT_UINT24 and X agree; R: opaque u32
	 * req_cc_state 12-15, same size).  RUD_CC (13), REQUEST_SMALL,
	 * retx 0x10: 13 << 11 | 1 << 7 | 0x10 = 0x6890.  Host
	 * clear_psn_offset 0x1234 -> wire -0x1234 = 0xedcc.
	 */
	{ "rud_cc_req", F_RUD_ROD_CC,
	  &(const struct uet_pds_rud_rod_cc_req){
		.req = { .type = UET_PDS_TYPE_RUD_CC_REQ,
			 .next_hdr = UET_HDR_REQUEST_SMALL, .retx = true,
			 .clear_psn_offset = 0x1234, .psn = 0xdeadbeef,
			 .spdcid = 0x0102, .dpdcid = 0x0304 },
		.ccc_id = 0x5a, .credit_target = 0x123456 },
	  { 0x68, 0x90, 0xed, 0xcc, 0xde, 0xad, 0xbe, 0xef,
	    0x01, 0x02, 0x03, 0x04, 0x5a, 0x12, 0x34, 0x56 },
	  { [1] = 0x63 } },
	/*
	 * 1.4 ROD_CC (14), STD, ar + syn: 14 << 11 | 3 << 7 | 0x0c =
	 * 0x718c; use_rsv_pdc 0x8000 | psn_offset 0xfff = 8f ff (W, X);
	 * ccc_id 0xff, credit_target 0xffffff (24 bits, all ones).
	 */
	{ "rod_cc_req_syn", F_RUD_ROD_CC,
	  &(const struct uet_pds_rud_rod_cc_req){
		.req = { .type = UET_PDS_TYPE_ROD_CC_REQ,
			 .next_hdr = UET_HDR_REQUEST_STD, .ar = true,
			 .syn = true, .clear_psn_offset = 0,
			 .psn = 0xffffffff, .spdcid = 0xffff,
			 .pdc_info = UET_PDC_INFO_USE_RSV_PDC,
			 .psn_offset = 0xfff },
		.ccc_id = 0xff, .credit_target = 0xffffff },
	  { 0x71, 0x8c, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0x8f, 0xff, 0xff, 0xff, 0xff, 0xff },
	  { [1] = 0x63, [10] = 0x70 } },
	/*
	 * RUDI request 8 B (1.5): reserved 2-3, pkt_id 4-7 (W packet-uet.c
	 * current revision, R uet_pkt_hdr.h rsvd, X pds.h rsvd3 agree; the
	 * older W revision read pkt_id at 2-5).  RUDI_REQ (4),
	 * REQUEST_SMALL: 4 << 11 | 1 << 7 = 0x2080 (ue101-layouts' worked
	 * prologue).  Reserved: flags 0x6f (m only in a response; R RSV2
	 * 0x0f), bytes 2-3.
	 */
	{ "rudi_req", F_RUDI,
	  &(const struct uet_pds_rudi){
		.type = UET_PDS_TYPE_RUDI_REQ,
		.next_hdr = UET_HDR_REQUEST_SMALL, .pkt_id = 0xcafef00d },
	  { 0x20, 0x80, 0x00, 0x00, 0xca, 0xfe, 0xf0, 0x0d },
	  { [1] = 0x6f, [2] = 0xff, [3] = 0xff } },
	/*
	 * 1.5 RUDI response (5), RESPONSE (4), m 0x20 + retx 0x10 (R M,
	 * RETX): 5 << 11 | 4 << 7 | 0x30 = 0x2a30.
	 */
	{ "rudi_resp", F_RUDI,
	  &(const struct uet_pds_rudi){
		.type = UET_PDS_TYPE_RUDI_RESP, .next_hdr = UET_HDR_RESPONSE,
		.m = true, .retx = true, .pkt_id = 0x01020304 },
	  { 0x2a, 0x30, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04 },
	  { [1] = 0x4f, [2] = 0xff, [3] = 0xff } },
	/*
	 * UUD request 4 B (1.6): prologue, reserved 2-3 (W "2 bytes
	 * reserved", R rsvd, X rsvd agree), no pkt_id (host 0).  UUD (6),
	 * STD: 6 << 11 | 3 << 7 = 0x3180.  Flags all reserved (R
	 * FLAGS_NONE).
	 */
	{ "uud_req", F_UUD,
	  &(const struct uet_pds_uud_req){ .next_hdr = UET_HDR_REQUEST_STD },
	  { 0x31, 0x80, 0x00, 0x00 },
	  { [1] = 0x7f, [2] = 0xff, [3] = 0xff } },
	/*
	 * ACK 12 B (1.7): signed ack_psn_offset 2-3, cack_psn 4-7, spdcid
	 * 8-9, dpdcid 10-11 (W, R, X agree).  ACK (7), RESPONSE (4):
	 * 0x3a00.  Reserved flags 0x41 (W; X; R names 0x40 EPSN, D14).
	 */
	{ "ack_rsp", F_ACK,
	  &(const struct uet_pds_ack){
		.next_hdr = UET_HDR_RESPONSE, .ack_psn_offset = 0,
		.cack_psn = 0x00012000, .spdcid = 0x8001, .dpdcid = 0x4001 },
	  { 0x3a, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00,
	    0x80, 0x01, 0x40, 0x01 },
	  { [1] = 0x41 } },
	/*
	 * 1.7, RESPONSE_DATA (5): 0x3a80 (worked prologue); m 0x20, retx
	 * 0x10, req clear-PSN 1 (mask 0x06, R REQ_CLR 0x02): flags 0x32;
	 * ack_psn_offset -2 = ff fe.
	 */
	{ "ack_rsp_data", F_ACK,
	  &(const struct uet_pds_ack){
		.next_hdr = UET_HDR_RESPONSE_DATA, .m = true, .retx = true,
		.req = 1, .ack_psn_offset = -2, .cack_psn = 0x00000010,
		.spdcid = 0x0001, .dpdcid = 0xffff },
	  { 0x3a, 0xb2, 0xff, 0xfe, 0x00, 0x00, 0x00, 0x10,
	    0x00, 0x01, 0xff, 0xff },
	  { [1] = 0x41 } },
	/*
	 * ACK_CC 32 B (1.8), cc_type NSCC (byte 12 0xf0 = 0; W, X enum):
	 * mpr 13, sack_psn_offset 14-15, sack_bitmap 16-23, ack_cc_state
	 * 24-31 = service_time 24-25, restore_cwnd 26 0x80 +
	 * rcv_cwnd_pend 26 0x7f, rcvd_bytes 27-29, ooo_count 30-31 (W and
	 * X split it alike; R opaque u64).  As uet packs it
	 * (snic/uet_pds_cc.h): service_time 0x0102, rcv_cwnd_pend 3,
	 * rcvd_bytes 0x040506, ooo_count 0x0708.  ACK_CC (8),
	 * RESPONSE_DATA: 8 << 11 | 5 << 7 = 0x4280.  Reserved cc_flags
	 * 0x0f (R CC_FLAGS, X "Reserved").
	 */
	{ "ack_cc_nscc", F_ACK_CC,
	  &(const struct uet_pds_ack_cc){
		.ack = { .next_hdr = UET_HDR_RESPONSE_DATA,
			 .ack_psn_offset = 3, .cack_psn = 0x00000100,
			 .spdcid = 0x0010, .dpdcid = 0x0020 },
		.cc_type = UET_CC_NSCC, .mpr = 0x40, .sack_psn_offset = -1,
		.sack_bitmap = 0x8000000000000001ull,
		.ack_cc_state = 0x0102030405060708ull },
	  { 0x42, 0x80, 0x00, 0x03, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x10, 0x00, 0x20, 0x00, 0x40, 0xff, 0xff,
	    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 },
	  { [1] = 0x41, [12] = 0x0f } },
	/*
	 * 1.8, cc_type CREDIT (byte 12 = 1 << 4): credit 24 bits at 24-26,
	 * reserved 27-29, ooo_count 30-31 (W and X agree: X credit:24).
	 * uet_pds_cc_credit_pack(UET_WIRE_UE, 0x123456) = 0x123456 << 40
	 * (test_credit_pack).  ACK_CC, NONE: 0x4000.
	 */
	{ "ack_cc_credit", F_ACK_CC,
	  &(const struct uet_pds_ack_cc){
		.ack = { .cack_psn = 0x00000200, .spdcid = 0x0010,
			 .dpdcid = 0x0020 },
		.cc_type = UET_CC_CREDIT, .mpr = 0x08,
		.ack_cc_state = 0x1234560000000000ull },
	  { 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
	    0x00, 0x10, 0x00, 0x20, 0x10, 0x08, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x12, 0x34, 0x56, 0x00, 0x00, 0x00, 0x00, 0x00 },
	  { [1] = 0x41, [12] = 0x0f } },
	/*
	 * ACK_CCX 40 B (1.9): as ACK_CC to 23, ack_ccx_state 24-39 (W 16 B
	 * opaque, R cc_state 24-31 + ccx_state 32-39: 40 B; X reads 32,
	 * D1).  uet: NSCC word then the credit (u64).  ACK_CCX (9), m:
	 * 9 << 11 | 0x20 = 0x4820.
	 */
	{ "ack_ccx", F_ACK_CCX,
	  &(const struct uet_pds_ack_ccx){
		.ack = { .next_hdr = UET_HDR_NONE, .m = true,
			 .cack_psn = 0xffffffff, .spdcid = 0x0a0b,
			 .dpdcid = 0x0c0d },
		.cc_type = UET_CC_NSCC, .mpr = 0xff,
		.sack_psn_offset = 0x7fff,
		.sack_bitmap = 0x0123456789abcdefull,
		.ack_ccx_state = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6,
				   0xf7, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
				   0x00, 0x00 } },
	  { 0x48, 0x20, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0x0a, 0x0b, 0x0c, 0x0d, 0x00, 0xff, 0x7f, 0xff,
	    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00 },
	  { [1] = 0x41, [12] = 0x0f } },
	/*
	 * NACK 16 B (1.10): nack_code 2, vendor_code 3, nack_psn 4-7,
	 * spdcid 8-9, dpdcid 10-11, payload 12-15 (W "Max Recvd PSN + 1",
	 * R, X agree).  Code table 1.11 (W, R, X identical): uet's
	 * PSN_GAP (host 6) goes as RCVR_INFER_LOSS 0x1a
	 * (ue-decisions).  NACK (10), NONE, retx: 0x5010.  Reserved
	 * flags 0x47 (W).
	 */
	{ "nack_psn_gap", F_NACK,
	  &(const struct uet_pds_nack){
		.retx = true, .nack_code = UET_NACK_PSN_GAP,
		.nack_psn = 0x00012001, .spdcid = 0x8001, .dpdcid = 0x4001,
		.payload = 0x00012005 },
	  { 0x50, 0x10, 0x1a, 0x00, 0x00, 0x01, 0x20, 0x01,
	    0x80, 0x01, 0x40, 0x01, 0x00, 0x01, 0x20, 0x05 },
	  { [1] = 0x47 } },
	/*
	 * 1.10 nt = 1 (RUDI; 0x08), m: 0x5028; nack_psn = pkt_id; PDCIDs
	 * 0 (R).  uet's NO_PKT_BUF (host 0) -> NO_PKT_BUFFER 0x07.
	 */
	{ "nack_rudi", F_NACK,
	  &(const struct uet_pds_nack){
		.m = true, .nt = true, .nack_code = UET_NACK_NO_PKT_BUF,
		.vendor_code = 0x7e, .nack_psn = 0xcafef00d },
	  { 0x50, 0x28, 0x07, 0x7e, 0xca, 0xfe, 0xf0, 0x0d,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
	  { [1] = 0x47 } },
	/*
	 * NACK_CCX 32 B (1.12): NACK 0-15, nack_ccx_state 16-31 (nccx_type
	 * byte 16 high nibble; W skips 16 B, R u64 + u64: 32 B; X 24, D2).
	 * NACK_CCX (12): 0x6000.  uet's TRIMMED (1) -> 0x01.
	 */
	{ "nack_ccx", F_NACK_CCX,
	  &(const struct uet_pds_nack_ccx){
		.nack = { .nack_code = UET_NACK_TRIMMED,
			  .nack_psn = 0x00000005, .spdcid = 0x0001,
			  .dpdcid = 0x0002, .payload = 0x00000006 },
		.nack_ccx_state = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
				    0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
				    0x1e, 0x1f } },
	  { 0x60, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05,
	    0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x06,
	    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f },
	  { [1] = 0x47 } },
	/*
	 * Control packet 16 B (1.13): ctl_type in the next_hdr bits,
	 * probe_opaque 2-3, psn 4-7, spdcid 8-9, dpdcid 10-11, payload
	 * 12-15 (W, R, X agree).  CP (11), ACK_REQ (1), ar: 11 << 11 |
	 * 1 << 7 | 0x08 = 0x5888 (worked prologue); payload = message ID
	 * (W "[0x0000, Message ID]").  Reserved flags 0x43 (0x20 isrod
	 * is R's, D15).
	 */
	{ "cp_ack_req", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_ACK_REQUEST, .ar = true,
		.psn = 0x00012003, .spdcid = 0x4001, .dpdcid = 0x8001,
		.payload = 0x00000007 },
	  { 0x58, 0x88, 0x00, 0x00, 0x00, 0x01, 0x20, 0x03,
	    0x40, 0x01, 0x80, 0x01, 0x00, 0x00, 0x00, 0x07 },
	  { [1] = 0x43 } },
	/*
	 * 1.13 PROBE (6): probe_opaque 0xbeef, payload = SACK bitmap base
	 * PSN; 11 << 11 | 6 << 7 | 0x08 = 0x5b08.
	 */
	{ "cp_probe", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_PROBE, .ar = true, .probe_opaque = 0xbeef,
		.psn = 0x00012003, .spdcid = 0x4001, .dpdcid = 0x8001,
		.payload = 0x00012000 },
	  { 0x5b, 0x08, 0xbe, 0xef, 0x00, 0x01, 0x20, 0x03,
	    0x40, 0x01, 0x80, 0x01, 0x00, 0x01, 0x20, 0x00 },
	  { [1] = 0x43 } },
	/*
	 * 1.13 / 1.16 CP NEGOTIATION (9; R, X, D17), isrod 0x20 (R) +
	 * syn: pdc_info/psn_offset in 10-11 (R, X, D16), use_rsv_pdc
	 * 0x8000 (D4): 11 << 11 | 9 << 7 | 0x24 = 0x5ca4, 10-11 = 8f ff.
	 */
	{ "cp_negotiation_syn", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_NEGOTIATION, .isrod = true, .syn = true,
		.psn = 0x00000100, .spdcid = 0x0007,
		.pdc_info = UET_PDC_INFO_USE_RSV_PDC, .psn_offset = 0xfff },
	  { 0x5c, 0xa4, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x07, 0x8f, 0xff, 0x00, 0x00, 0x00, 0x00 },
	  { [1] = 0x43, [10] = 0x70 } },
	/*
	 * PDS Default SES Response 12 B (1.15): list 0 0xc0, opcode 0
	 * 0x3f, version 1 0xc0, return_code 1 0x3f, message_id 2-3,
	 * ri_generation 4 (R: must be 0), job_id 5-7, modified_length
	 * 8-11 (W, R uet_pds_def_rsp, X agree).  DEFAULT_RESPONSE, RC_OK,
	 * message_id 1, job 0x65, modified_length 0x1000.
	 */
	{ "dsr_ok", F_DSR,
	  &(const struct uet_pds_default_ses_rsp){
		.opcode = UET_DEFAULT_RESPONSE, .return_code = UET_RC_OK,
		.message_id = 1, .job_id = 0x65, .modified_length = 0x1000 },
	  { 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x00, 0x10, 0x00 },
	  { [0] = 0xc0, [1] = 0xc0, [4] = 0xff } },
	/* 1.15, NO_RESPONSE (3), RC_NULL, message_id 0. */
	{ "dsr_no_response", F_DSR,
	  &(const struct uet_pds_default_ses_rsp){
		.opcode = UET_NO_RESPONSE, .return_code = UET_RC_NULL,
		.job_id = 0xabcdef, .modified_length = 0xffffffff },
	  { 0x03, 0x00, 0x00, 0x00, 0x00, 0xab, 0xcd, 0xef,
	    0xff, 0xff, 0xff, 0xff },
	  { [0] = 0xc0, [1] = 0xc0, [4] = 0xff } },

	/*
	 * SES standard request SOM=1, 44 B (2.1, 2.2): message_id 2-3,
	 * ri_generation 4, job_id 5-7, pid_on_fep 8-9 (0x0fff), RI 10-11
	 * (0x0fff), buffer_offset 12-19, initiator 20-23, match_bits
	 * 24-31, header_data 32-39, request_length 40-43 (W, R, X agree).
	 * TAGGED_SEND (0x09), hd + eom + som: 09 07.
	 */
	{ "som1_tsend", F_SOM1,
	  &(const struct uet_ses_std_som1){
		.ctl = { .opcode = UET_TAGGED_SEND, .hd = true, .eom = true,
			 .som = true },
		.message_id = 0x0001, .ri_generation = 0x02,
		.job_id = 0x000065, .pid_on_fep = 0x123,
		.resource_index = 0x456,
		.buffer_offset = 0x1122334455667788ull,
		.initiator = 0x0a0b0c0d, .match_bits = 0xdeadbeefcafef00dull,
		.header_data = 0x0102030405060708ull,
		.request_length = 0x00001000 },
	  { 0x09, 0x07, 0x00, 0x01, 0x02, 0x00, 0x00, 0x65,
	    0x01, 0x23, 0x04, 0x56,
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0x0a, 0x0b, 0x0c, 0x0d,
	    0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe, 0xf0, 0x0d,
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	    0x00, 0x00, 0x10, 0x00 },
	  { [0] = 0xc0, [8] = 0xf0, [10] = 0xf0 } },
	/*
	 * SOM=0, 44 B (2.3): 0-31 as SOM=1, reserved 32-33 and 34 0xc0,
	 * payload_length u16@34 0x3fff, message_offset 36-39,
	 * request_length 40-43 (W, R, X agree).  WRITE (0x01), eom: 01 02.
	 * hd is reserved in a continuation (uet).
	 */
	{ "som0_write", F_SOM0,
	  &(const struct uet_ses_std_som0){
		.ctl = { .opcode = UET_WRITE, .eom = true },
		.message_id = 0x0203, .job_id = 0x000065, .pid_on_fep = 0x001,
		.resource_index = 0x002, .buffer_offset = 0x10000,
		.initiator = 0x00000001, .match_bits = 0x00000000000000aaull,
		.payload_length = 0x0fa0, .message_offset = 0x00001000,
		.request_length = 0x00010000 },
	  { 0x01, 0x02, 0x02, 0x03, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x01, 0x00, 0x02,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xaa,
	    0x00, 0x00, 0x0f, 0xa0, 0x00, 0x00, 0x10, 0x00,
	    0x00, 0x01, 0x00, 0x00 },
	  { [0] = 0xc0, [1] = 0x04, [8] = 0xf0, [10] = 0xf0, [32] = 0xff,
	    [33] = 0xff, [34] = 0xc0 } },
	/*
	 * Small request (next_hdr 1), 20 B (2.4): STANDARD bytes 0-1 (W, R
	 * uet_ses_req_onm, X: one definition), reserved 2 0xc0 +
	 * request_length u16@2 0x3fff (W, R; X reads message_id, D10),
	 * addressing 4-11, buffer_offset 12-19; W, R, X end at 20.  WRITE,
	 * eom + som: 01 03; hd reserved (W).
	 */
	{ "small_write", F_SMALL,
	  &(const struct uet_ses_opt_nonmatch){
		.ctl = { .opcode = UET_WRITE, .eom = true, .som = true },
		.request_length = 0x0040, .job_id = 0x000065,
		.pid_on_fep = 0x001, .resource_index = 0x002,
		.buffer_offset = 0x0000000000001000ull },
	  { 0x01, 0x03, 0x00, 0x40, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x01, 0x00, 0x02,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00 },
	  { [0] = 0xc0, [1] = 0x04, [2] = 0xc0, [8] = 0xf0, [10] = 0xf0 } },
	/*
	 * Medium request (next_hdr 2), 32 B (2.5): standard bytes 0-1,
	 * request_length u16@2 0x3fff, addressing 4-11, header_data (hd =
	 * 1) 12-19, initiator 20-23, match_bits 24-31 (R uet_ses_req_smsg
	 * and X agree; W reads every field from byte 4 one byte late and
	 * 33 B, D11).  TAGGED_SEND, hd + eom + som: 09 07.
	 */
	{ "medium_tsend", F_MEDIUM,
	  &(const struct uet_ses_small_msg){
		.ctl = { .opcode = UET_TAGGED_SEND, .hd = true, .eom = true,
			 .som = true },
		.request_length = 0x0100, .ri_generation = 0x01,
		.job_id = 0x000065, .pid_on_fep = 0x003,
		.resource_index = 0x004, .initiator = 0x00000002,
		.match_bits = 0x1111222233334444ull,
		.header_data = 0x5555666677778888ull },
	  { 0x09, 0x07, 0x01, 0x00, 0x01, 0x00, 0x00, 0x65,
	    0x00, 0x03, 0x00, 0x04,
	    0x55, 0x55, 0x66, 0x66, 0x77, 0x77, 0x88, 0x88,
	    0x00, 0x00, 0x00, 0x02,
	    0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44 },
	  { [0] = 0xc0, [2] = 0xc0, [8] = 0xf0, [10] = 0xf0 } },
	/*
	 * Deferrable send 44 B (2.6): initiator_restart_token 12-15,
	 * target_restart_token 16-19 (R u64 halves, X; W one 64-bit
	 * restart_token 12-19, same bytes), initiator 20-23, match_bits
	 * 24-31, header_data 32-39, request_length 40-43.
	 * DEFERRABLE_TSEND (0x0b), eom + som: 0b 03.
	 */
	{ "defer_tsend", F_DEFER,
	  &(const struct uet_ses_defer_send){
		.ctl = { .opcode = UET_DEFERRABLE_TSEND, .eom = true,
			 .som = true },
		.message_id = 0x0005, .job_id = 0x000065, .pid_on_fep = 0x001,
		.resource_index = 0x002, .initiator_restart_token = 0xa1a2a3a4,
		.target_restart_token = 0, .initiator = 0x00000003,
		.match_bits = 0x00000000000000ffull, .header_data = 0,
		.request_length = 0x00100000 },
	  { 0x0b, 0x03, 0x00, 0x05, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x01, 0x00, 0x02,
	    0xa1, 0xa2, 0xa3, 0xa4, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x03,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x10, 0x00, 0x00 },
	  { [0] = 0xc0, [8] = 0xf0, [10] = 0xf0 } },
	/*
	 * Ready to restart 44 B (2.7): buffer_offset 12-19, initiator
	 * 20-23, initiator_restart_token 24-27, target_restart_token
	 * 28-31 (W, R, X agree; W shows 24-31 as one restart_token),
	 * header_data 32-39, request_length 40-43.  DEFERRABLE_RTR
	 * (0x0c), eom + som: 0c 03.
	 */
	{ "rtr", F_RTR,
	  &(const struct uet_ses_rtr){
		.ctl = { .opcode = UET_DEFERRABLE_RTR, .eom = true,
			 .som = true },
		.message_id = 0x0006, .job_id = 0x000065, .pid_on_fep = 0x002,
		.resource_index = 0x001, .buffer_offset = 0x00002000,
		.initiator = 0x00000004, .initiator_restart_token = 0xa1a2a3a4,
		.target_restart_token = 0xb1b2b3b4, .header_data = 0,
		.request_length = 0x00100000 },
	  { 0x0c, 0x03, 0x00, 0x06, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x02, 0x00, 0x01,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
	    0x00, 0x00, 0x00, 0x04,
	    0xa1, 0xa2, 0xa3, 0xa4, 0xb1, 0xb2, 0xb3, 0xb4,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x10, 0x00, 0x00 },
	  { [0] = 0xc0, [8] = 0xf0, [10] = 0xf0 } },
	/*
	 * Response 12 B (2.8, 2.9): list 0 0xc0, opcode 0 0x3f, version 1
	 * 0xc0, return_code 1 0x3f, message_id 2-3, ri_generation 4,
	 * job_id 5-7, modified_length 8-11 (W UET_SES_RESP_HDR_LEN 12, R
	 * uet_ses_rsp, X nodata_response agree).  RESPONSE (1), RC_OK:
	 * 01 01.
	 */
	{ "rsp_ok", F_RSP,
	  &(const struct uet_ses_rsp){
		.ctl = { .opcode = UET_RESPONSE, .return_code = UET_RC_OK },
		.message_id = 0x0001, .ri_generation = 0x03,
		.job_id = 0x000065, .modified_length = 0x00001000 },
	  { 0x01, 0x01, 0x00, 0x01, 0x03, 0x00, 0x00, 0x65,
	    0x00, 0x00, 0x10, 0x00 },
	  { 0 } },
	/*
	 * Response with data 20 B (2.10): message_id 2-3, byte 4 reserved
	 * (W; R, X ri_generation, D12: 0), job_id 5-7,
	 * read_request_message_id 8-9, reserved u16@10 0xc000 +
	 * payload_length 0x3fff (W, R; X 12 bits, D3), modified_length
	 * 12-15, message_offset 16-19.  List UNEXPECTED (1) | opcode 2:
	 * 0x42; RC_OK: 0x01.  payload_length 0x2000 (needs 14 bits).
	 */
	{ "rsp_data", F_RSPD,
	  &(const struct uet_ses_rsp_data){
		.ctl = { .list = UET_LIST_UNEXPECTED,
			 .opcode = UET_RESPONSE_W_DATA,
			 .return_code = UET_RC_OK },
		.response_message_id = 0x0002, .job_id = 0x000065,
		.read_request_message_id = 0x0007, .payload_length = 0x2000,
		.modified_length = 0x00004000, .message_offset = 0x00002000 },
	  { 0x42, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x07, 0x20, 0x00, 0x00, 0x00, 0x40, 0x00,
	    0x00, 0x00, 0x20, 0x00 },
	  { [4] = 0xff, [10] = 0xc0 } },
	/*
	 * Optimized response with data 12 B (2.11): reserved u16@2 0xc000
	 * + payload_length 0x3fff, byte 4 reserved, job_id 5-7,
	 * original_request_psn 8-11 (R uet_ses_rsp_ds, X agree; W stops
	 * after byte 3, D9).  02 01.
	 */
	{ "opt_rsp_data", F_ORSPD,
	  &(const struct uet_ses_opt_rsp_data){
		.ctl = { .opcode = UET_RESPONSE_W_DATA,
			 .return_code = UET_RC_OK },
		.payload_length = 0x0040, .job_id = 0x000065,
		.original_request_psn = 0x00012000 },
	  { 0x02, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0x65,
	    0x00, 0x01, 0x20, 0x00 },
	  { [2] = 0xc0, [4] = 0xff } },
	/*
	 * Atomic extension 4 B (2.12): atomic_opcode 0, atomic_datatype 1,
	 * semantic_control u8 at 2 (0x01 cacheable, 0x02 CPU coherent: W
	 * enum and R agree; X 0x80/0x40, D5), reserved 3.  SUM (0x02),
	 * UINT64 (0x07), cacheable: 02 07 01 00 (ue101-layouts' worked
	 * example).
	 */
	{ "amo_sum_u64", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_SUM, .atomic_datatype = UET_AMO_UINT64,
		.semantic_control = UET_AMO_SEMCTL_CACHEABLE },
	  { 0x02, 0x07, 0x01, 0x00 },
	  { [3] = 0xff } },
	/*
	 * 2.0 atomic datatypes (W, R, X identical): INT128 0x08 (uet host
	 * UET_AMO_INT128), BOR (0x07), CPU coherent 0x02.
	 */
	{ "amo_bor_int128", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_BOR, .atomic_datatype = UET_AMO_INT128,
		.semantic_control = UET_AMO_SEMCTL_CPU_COHERENT },
	  { 0x07, 0x08, 0x02, 0x00 },
	  { [3] = 0xff } },
	/* UINT128 0x09, BXOR 0x0a, both semantic bits 0x03. */
	{ "amo_bxor_uint128", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_BXOR,
		.atomic_datatype = UET_AMO_UINT128,
		.semantic_control = UET_AMO_SEMCTL_CACHEABLE |
				    UET_AMO_SEMCTL_CPU_COHERENT },
	  { 0x0a, 0x09, 0x03, 0x00 },
	  { [3] = 0xff } },
	/* FLOAT 0x0a (UE+ 0x08), MIN 0x00. */
	{ "amo_min_float", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_MIN, .atomic_datatype = UET_AMO_FLOAT },
	  { 0x00, 0x0a, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* DOUBLE 0x0b (UE+ 0x09), MAX 0x01. */
	{ "amo_max_double", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_MAX,
		.atomic_datatype = UET_AMO_DOUBLE },
	  { 0x01, 0x0b, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* FLOAT_COMPLEX 0x0c (UE+ 0x0a), PROD 0x04. */
	{ "amo_prod_fcomplex", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_PROD,
		.atomic_datatype = UET_AMO_FLOAT_COMPLEX },
	  { 0x04, 0x0c, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* DOUBLE_COMPLEX 0x0d (UE+ 0x0b), SUM. */
	{ "amo_sum_dcomplex", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_SUM,
		.atomic_datatype = UET_AMO_DOUBLE_COMPLEX },
	  { 0x02, 0x0d, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* BF16 0x10 (UE+ 0x0f), SUM. */
	{ "amo_sum_bf16", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_SUM,
		.atomic_datatype = UET_AMO_BFLOAT16 },
	  { 0x02, 0x10, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* FP16 0x11 (UE+ 0x0e), READ 0x0b. */
	{ "amo_read_fp16", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_READ,
		.atomic_datatype = UET_AMO_FLOAT16 },
	  { 0x0b, 0x11, 0x00, 0x00 },
	  { [3] = 0xff } },
	/*
	 * MSWAP (0x13) in the 4-B extension (W, X, D21; UE+ uses the CAS
	 * extension), UINT32 0x05.
	 */
	{ "amo_mswap_u32", F_AMO,
	  &(const struct uet_ses_atomic_ext){
		.atomic_opcode = UET_AMO_MSWAP,
		.atomic_datatype = UET_AMO_UINT32 },
	  { 0x13, 0x05, 0x00, 0x00 },
	  { [3] = 0xff } },
	/*
	 * Compare-and-swap extension 36 B (2.13): 0-3 as the atomic
	 * extension, compare 4-19, swap 20-35 (W 16 + 16 B, R cmp_val_hi/lo
	 * 4-11/12-19 and swp_val_hi/lo 20-27/28-35, X agree).  CSWAP
	 * (0x0d), INT64 (0x06), cacheable.
	 */
	{ "cas_cswap_i64", F_CAS,
	  &(const struct uet_ses_cas_ext){
		.atomic_opcode = UET_AMO_CSWAP,
		.atomic_datatype = UET_AMO_INT64,
		.semantic_control = UET_AMO_SEMCTL_CACHEABLE,
		.compare_mask_value = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					0x00, 0x2a },
		.swap_value = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				0x2b } },
	  { 0x0d, 0x06, 0x01, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2b,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
	  { [3] = 0xff } },
	/* 2.13 CSWAP_GT (0x12), UINT128 0x09: the full 16-B values. */
	{ "cas_gt_u128", F_CAS,
	  &(const struct uet_ses_cas_ext){
		.atomic_opcode = UET_AMO_CSWAP_GT,
		.atomic_datatype = UET_AMO_UINT128,
		.compare_mask_value = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
					0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b,
					0x1c, 0x1d, 0x1e, 0x1f },
		.swap_value = { 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
				0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d,
				0x2e, 0x2f } },
	  { 0x12, 0x09, 0x00, 0x00,
	    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	    0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	    0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f },
	  { [3] = 0xff } },
	/*
	 * Rendezvous extension 24 B (2.14): eager_length 0-3; u32@4 =
	 * read ri_generation 0xff000000, read pid_on_fep 0x00fff000, read
	 * resource_index 0x00000fff (R uet_ses_rndv_ext and X agree; W
	 * reads a 14-bit pid at u16@4 without ri_generation, D7); read
	 * offset 8-15, read match bits / memory key 16-23 (W, R; X ends
	 * at 8, D6).  ri_gen 0x5a, pid 0x123, RI 0x456 -> 5a 12 34 56.
	 * Every bit is a field.
	 */
	{ "rdzv", F_RDZV,
	  &(const struct uet_ses_rdzv_ext){
		.eager_length = 0x00004000, .read_ri_generation = 0x5a,
		.read_pid_on_fep = 0x123, .read_resource_index = 0x456,
		.buffer_offset = 0x0000000000010000ull,
		.memory_key = 0x1122334455667788ull },
	  { 0x00, 0x00, 0x40, 0x00, 0x5a, 0x12, 0x34, 0x56,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 },
	  { 0 } },
};

#define NVECS ((int)(sizeof(vecs) / sizeof(vecs[0])))

/* ------------------------------------------------------------------ */
/* Per-vector tests                                                    */
/* ------------------------------------------------------------------ */

START_TEST(test_vec_encode)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t buf[BUF_MAX];
	size_t j;
	ssize_t r;

	memset(buf, FILL, sizeof(buf));
	r = f->enc(buf, f->len, v->host);
	ck_assert_msg(r == (ssize_t)f->len, "%s: encode = %zd (%s)", v->name,
		      r, uet_wire_strerror(r));
	for (j = 0; j < f->len; j++)
		ck_assert_msg(buf[j] == v->bytes[j],
			      "%s: byte %zu = 0x%02x, want 0x%02x",
			      v->name, j, buf[j], v->bytes[j]);
	for (; j < sizeof(buf); j++)
		ck_assert_uint_eq(buf[j], FILL);
	/* every shorter output: ENOBUFS, nothing written */
	for (j = 0; j < f->len; j++) {
		uint8_t b2[BUF_MAX];

		memset(b2, FILL, sizeof(b2));
		ck_assert_int_eq(f->enc(b2, j, v->host), UET_WIRE_ENOBUFS);
		ck_assert_uint_eq(b2[0], FILL);
	}
}
END_TEST

START_TEST(test_vec_decode)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t h[256], in[BUF_MAX];
	uint8_t *exact;
	ssize_t r;

	exact = dup_exact(v->bytes, f->len);
	memset(h, FILL, sizeof(h));
	r = f->dec(h, exact, f->len);
	ck_assert_msg(r == (ssize_t)f->len, "%s: decode = %zd (%s)", v->name,
		      r, uet_wire_strerror(r));
	ck_assert_msg(f->eq(h, v->host), "%s: decoded fields differ",
		      v->name);
	free(exact);

	/* trailing bytes (payload) are not part of the header */
	memset(in, 0xff, sizeof(in));
	memcpy(in, v->bytes, f->len);
	memset(h, 0, sizeof(h));
	ck_assert_int_eq(f->dec(h, in, sizeof(in)), (ssize_t)f->len);
	ck_assert(f->eq(h, v->host));
	if (f->prologue)
		ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UE, v->bytes,
						 f->len), (ssize_t)f->len);
}
END_TEST

START_TEST(test_vec_truncated)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	size_t n;

	for (n = 0; n < f->len; n++)
		expect_dec(f, v->bytes, n, UET_WIRE_ETRUNC, v->name);
}
END_TEST

START_TEST(test_vec_reserved)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t b[BUF_MAX];
	unsigned int bit;
	size_t j;

	for (j = 0; j < f->len; j++) {
		for (bit = 0; bit < 8; bit++) {
			if (!(v->rsvd[j] & 1u << bit))
				continue;
			ck_assert_msg(!(v->bytes[j] & 1u << bit),
				      "%s: vector has reserved bit set",
				      v->name);
			memcpy(b, v->bytes, f->len);
			b[j] |= (uint8_t)(1u << bit);
			expect_dec(f, b, f->len, UET_WIRE_ERESERVED, v->name);
		}
	}
}
END_TEST

/*
 * Across profiles.  Where the format's size differs, the UE+ codec
 * refuses the UE bytes or reads another length from them, and the UE
 * codec does the same to the UE+ encoding of the same host value.  Where
 * the size is the same, the other profile's decode of these bytes must
 * not give back the same host value when the bytes differ between the
 * profiles (clear_psn_offset sign, use_rsv_pdc bit, NACK codes,
 * datatypes, medium request order, RTR initiator...).
 */
START_TEST(test_vec_cross_profile)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt], *pf = &pfmts[v->fmt];
	uint8_t h[256], pb[BUF_MAX];
	uint8_t *in;
	ssize_t r, pn;

	in = dup_exact(v->bytes, f->len);
	memset(h, 0, sizeof(h));
	r = pf->dec(h, in, f->len);
	free(in);
	memset(pb, 0, sizeof(pb));
	pn = pf->enc(pb, sizeof(pb), v->host);
	if (pf->len != f->len) {
		ck_assert_msg(r < 0 || r != (ssize_t)f->len,
			      "%s: UE+ decodes the %zu UE bytes as %zd",
			      v->name, f->len, r);
		if (pn > 0) {
			ck_assert_int_eq(pn, (ssize_t)pf->len);
			in = dup_exact(pb, pf->len);
			r = f->dec(h, in, pf->len);
			free(in);
			ck_assert_msg(r < 0 || r != (ssize_t)pf->len,
				      "%s: UE decodes the %zu UE+ bytes as "
				      "%zd", v->name, pf->len, r);
		}
		return;
	}
	/* same size: where the encodings differ, neither reads the
	 * other's bytes as the same value */
	if (pn > 0 && memcmp(pb, v->bytes, f->len)) {
		ck_assert_msg(r < 0 || !f->eq(h, v->host),
			      "%s: UE+ reads the UE bytes as the same value",
			      v->name);
		in = dup_exact(pb, pf->len);
		memset(h, 0, sizeof(h));
		r = f->dec(h, in, pf->len);
		free(in);
		ck_assert_msg(r < 0 || !f->eq(h, v->host),
			      "%s: UE reads the UE+ bytes as the same value",
			      v->name);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Translations                                                        */
/* ------------------------------------------------------------------ */

/* ue-decisions: uet's NACK codes -> UE 1.0.1's table (1.11). */
START_TEST(test_nack_code_map)
{
	static const uint8_t want[UET_NACK_MAX + 1] = {
		[UET_NACK_NO_PKT_BUF] = 0x07, [UET_NACK_TRIMMED] = 0x01,
		[UET_NACK_NO_PDC_AVAIL] = 0x04, [UET_NACK_INV_DPDCID] = 0x0e,
		[UET_NACK_PDC_HDR_MISMATCH] = 0x0f,
		[UET_NACK_PSN_OOR_WINDOW] = 0x0b, [UET_NACK_PSN_GAP] = 0x1a,
	};
	struct uet_pds_nack h = { .nack_psn = 1, .spdcid = 1, .dpdcid = 2 };
	struct uet_pds_nack d;
	uint8_t b[16];
	unsigned int c;

	for (c = 0; c <= UET_NACK_MAX; c++) {
		h.nack_code = (uint8_t)c;
		ck_assert_int_eq(uet_pds_nack_encode(UET_WIRE_UE, b, sizeof(b),
						     &h), 16);
		ck_assert_msg(b[2] == want[c], "host code %u -> 0x%02x, "
			      "want 0x%02x", c, b[2], want[c]);
		ck_assert_int_eq(uet_pds_nack_decode(UET_WIRE_UE, &d, b,
						     sizeof(b)), 16);
		ck_assert_uint_eq(d.nack_code, c);
		/* UE+ keeps its own code in byte 2 */
		ck_assert_int_eq(uet_pds_nack_encode(UET_WIRE_UEPLUS, b,
						     sizeof(b), &h), 12);
		ck_assert_uint_eq(b[2], c);
	}
}
END_TEST

/* The CREDIT ack_cc_state as uet packs it under ue: 24 bits at the top,
 * saturated (snic/uet_pds_cc.c); UE+: the 64-bit byte count. */
START_TEST(test_credit_pack)
{
	ck_assert_uint_eq(uet_pds_cc_credit_pack(UET_WIRE_UE, 0x123456),
			  0x1234560000000000ull);
	ck_assert_uint_eq(uet_pds_cc_credit_pack(UET_WIRE_UE, 1ull << 40),
			  0xffffff0000000000ull);
	ck_assert_uint_eq(uet_pds_cc_credit_pack(UET_WIRE_UEPLUS, 0x123456),
			  0x123456ull);
}
END_TEST

/* Every atomic datatype uet has, UE 1.0.1 code (2.0) both ways. */
START_TEST(test_amo_dtype_map)
{
	static const struct { uint8_t host, ue; } m[] = {
		{ UET_AMO_INT8, 0x00 }, { UET_AMO_UINT8, 0x01 },
		{ UET_AMO_INT16, 0x02 }, { UET_AMO_UINT16, 0x03 },
		{ UET_AMO_INT32, 0x04 }, { UET_AMO_UINT32, 0x05 },
		{ UET_AMO_INT64, 0x06 }, { UET_AMO_UINT64, 0x07 },
		{ UET_AMO_INT128, 0x08 }, { UET_AMO_UINT128, 0x09 },
		{ UET_AMO_FLOAT, 0x0a }, { UET_AMO_DOUBLE, 0x0b },
		{ UET_AMO_FLOAT_COMPLEX, 0x0c },
		{ UET_AMO_DOUBLE_COMPLEX, 0x0d },
		{ UET_AMO_BFLOAT16, 0x10 }, { UET_AMO_FLOAT16, 0x11 },
	};
	struct uet_ses_atomic_ext h = { .atomic_opcode = UET_AMO_SUM }, d;
	uint8_t b[4], op, dt;
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		h.atomic_datatype = m[i].host;
		ck_assert_int_eq(uet_ses_atomic_ext_encode(UET_WIRE_UE, b, 4,
							   &h), 4);
		ck_assert_msg(b[1] == m[i].ue, "dtype %u -> 0x%02x, want "
			      "0x%02x", m[i].host, b[1], m[i].ue);
		ck_assert_int_eq(uet_ses_atomic_ext_decode(UET_WIRE_UE, &d, b,
							   4), 4);
		ck_assert_uint_eq(d.atomic_datatype, m[i].host);
		ck_assert_int_eq(uet_ses_amo_ext_peek(UET_WIRE_UE, b, 4, &op,
						      &dt), 0);
		ck_assert_uint_eq(dt, m[i].host);
	}
	/* 0x0e, 0x0f (LONG_DOUBLE[_COMPLEX]) and 0x12: no type in uet */
	b[1] = 0x0e;
	ck_assert_int_lt(uet_ses_atomic_ext_decode(UET_WIRE_UE, &d, b, 4), 0);
	b[1] = 0x12;
	ck_assert_int_lt(uet_ses_atomic_ext_decode(UET_WIRE_UE, &d, b, 4), 0);
	/* which extension: MSWAP in the 4-B one under ue, CAS under UE+ */
	ck_assert(!uet_ses_amo_uses_cas(UET_WIRE_UE, UET_AMO_MSWAP));
	ck_assert(uet_ses_amo_uses_cas(UET_WIRE_UEPLUS, UET_AMO_MSWAP));
	for (op = UET_AMO_CSWAP; op <= UET_AMO_CSWAP_GT; op++)
		ck_assert(uet_ses_amo_uses_cas(UET_WIRE_UE, op));
}
END_TEST

/* Host values a UE 1.0.1 header cannot carry: refused, nothing written. */
START_TEST(test_invalid_encode)
{
	const struct uet_pds_rud_rod_req after = {
		.type = UET_PDS_TYPE_RUD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.clear_psn_offset = 0x8000, .psn = 0x1000, .spdcid = 1,
		.dpdcid = 2 };
	const struct uet_ses_atomic_ext undef = {
		.atomic_opcode = UET_AMO_SUM, .atomic_datatype = 0x0c };
	const struct uet_ses_cas_ext mswap = {
		.atomic_opcode = UET_AMO_MSWAP,
		.atomic_datatype = UET_AMO_UINT64 };
	const struct uet_ses_rsp_data big = {
		.ctl = { .opcode = UET_RESPONSE_W_DATA,
			 .return_code = UET_RC_OK },
		.read_request_message_id = 1, .payload_length = 0x4000 };

	/* a CLEAR_PSN after the PSN (positive UE offset) */
	expect_enc(&fmts[F_RUD_ROD], &after, UET_WIRE_ERANGE, "clear after");
	/* 0x0c is undefined in uet's host enum */
	expect_enc(&fmts[F_AMO], &undef, UET_WIRE_ERANGE, "dtype 0x0c");
	/* MSWAP travels in the 4-B extension under ue */
	expect_enc(&fmts[F_CAS], &mswap, UET_WIRE_ERANGE, "MSWAP in CAS");
	/* payload_length is 14 bits (W, R) */
	expect_enc(&fmts[F_RSPD], &big, UET_WIRE_ERANGE, "payload 0x4000");
}
END_TEST

/* The sizes the profile reports are the vectors' sizes. */
START_TEST(test_profile_lengths)
{
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_RUD_CC_REQ),
			  16);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_RUDI_REQ),
			  8);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_UUD_REQ),
			  4);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_ACK_CCX),
			  40);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_NACK), 16);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_NACK_CCX),
			  32);
	ck_assert_uint_eq(uet_pds_type_len(UET_WIRE_UE, UET_PDS_TYPE_CP), 16);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE,
					     UET_SES_FMT_OPT_NONMATCH), 20);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE,
					     UET_SES_FMT_SMALL_MSG), 32);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE, UET_SES_FMT_RSP), 12);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE, UET_SES_FMT_RSP_DATA),
			  20);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE,
					     UET_SES_FMT_OPT_RSP_DATA), 12);
	ck_assert_uint_eq(uet_ses_format_len(UET_WIRE_UE,
					     UET_SES_FMT_DEFAULT_RSP), 12);
	ck_assert_uint_eq(uet_ses_ext_len(UET_WIRE_UE, UET_SES_EXT_ATOMIC), 4);
	ck_assert_uint_eq(uet_ses_ext_len(UET_WIRE_UE, UET_SES_EXT_CAS), 36);
	ck_assert_uint_eq(uet_ses_ext_len(UET_WIRE_UE, UET_SES_EXT_RDZV), 24);
}
END_TEST

/* SES classification under ue: small and medium requests by next_hdr,
 * with the standard bytes 0-1. */
START_TEST(test_ses_classify)
{
	const struct vec *s = NULL, *m = NULL;
	int i;

	for (i = 0; i < NVECS; i++) {
		if (!strcmp(vecs[i].name, "small_write"))
			s = &vecs[i];
		if (!strcmp(vecs[i].name, "medium_tsend"))
			m = &vecs[i];
	}
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UE,
						UET_HDR_REQUEST_SMALL,
						s->bytes, 20),
			 UET_SES_FMT_OPT_NONMATCH);
	ck_assert_int_eq(uet_ses_request_format(UET_WIRE_UE,
						UET_HDR_REQUEST_MEDIUM,
						m->bytes, 32),
			 UET_SES_FMT_SMALL_MSG);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Whole datagrams: uet_wire_datagram_parses                           */
/* ------------------------------------------------------------------ */

struct dg {
	uint8_t b[160];
	size_t n;
};

static void dg_put(struct dg *d, const struct fmt *f, const void *host)
{
	ssize_t r = f->enc(d->b + d->n, sizeof(d->b) - d->n, host);

	ck_assert_msg(r == (ssize_t)f->len, "%s: encode = %zd (%s)", f->name,
		      r, uet_wire_strerror(r));
	d->n += (size_t)r;
}

static void dg_payload(struct dg *d, size_t n)
{
	ck_assert_uint_le(d->n + n, sizeof(d->b));
	memset(d->b + d->n, 0x5c, n);
	d->n += n;
}

/* The same datagram in each profile: parses in its own, not in the
 * other. */
static void dg_check(const char *what, const struct dg *ue,
		     const struct dg *up)
{
	ck_assert_msg(uet_wire_datagram_parses(UET_WIRE_UE, ue->b, ue->n),
		      "%s: the UE datagram does not parse in ue", what);
	ck_assert_msg(uet_wire_datagram_parses(UET_WIRE_UEPLUS, up->b, up->n),
		      "%s: the UE+ datagram does not parse in ueplus", what);
	ck_assert_msg(!uet_wire_datagram_parses(UET_WIRE_UEPLUS, ue->b, ue->n),
		      "%s: the UE datagram parses in ueplus", what);
	ck_assert_msg(!uet_wire_datagram_parses(UET_WIRE_UE, up->b, up->n),
		      "%s: the UE+ datagram parses in ue", what);
}

static const struct uet_ses_std_som1 dg_send = {
	.ctl = { .opcode = UET_SEND, .eom = true, .som = true },
	.message_id = 1, .job_id = 0x65, .pid_on_fep = 1,
	.resource_index = 2, .request_length = 64,
};

/* RUD request (CLEAR_PSN = PSN - 1) + standard SEND + 64 B: the sign of
 * clear_psn_offset tells them apart (same sizes). */
START_TEST(test_dg_rud_send)
{
	const struct uet_pds_rud_rod_req rq = {
		.type = UET_PDS_TYPE_RUD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.ar = true, .clear_psn_offset = 1, .psn = 0x1000,
		.spdcid = 1, .dpdcid = 2 };
	struct dg ue = { .n = 0 }, up = { .n = 0 };

	dg_put(&ue, &fmts[F_RUD_ROD], &rq);
	dg_put(&ue, &fmts[F_SOM1], &dg_send);
	dg_payload(&ue, 64);
	dg_put(&up, &pfmts[F_RUD_ROD], &rq);
	dg_put(&up, &pfmts[F_SOM1], &dg_send);
	dg_payload(&up, 64);
	ck_assert_uint_eq(ue.n, up.n);
	dg_check("RUD + SEND", &ue, &up);
}
END_TEST

/* UUD (4 B vs 6 B) + standard SEND + 64 B. */
START_TEST(test_dg_uud_send)
{
	const struct uet_pds_uud_req uq = {
		.next_hdr = UET_HDR_REQUEST_STD, .pkt_id = 0 };
	const struct uet_pds_uud_req uq_plus = {
		.next_hdr = UET_HDR_REQUEST_STD, .pkt_id = 1 };
	struct dg ue = { .n = 0 }, up = { .n = 0 };

	dg_put(&ue, &fmts[F_UUD], &uq);
	dg_put(&ue, &fmts[F_SOM1], &dg_send);
	dg_payload(&ue, 64);
	dg_put(&up, &pfmts[F_UUD], &uq_plus);
	dg_put(&up, &pfmts[F_SOM1], &dg_send);
	dg_payload(&up, 64);
	dg_check("UUD + SEND", &ue, &up);
}
END_TEST

/* RUDI request (8 B vs 6 B) + small request WRITE (20 B vs 32 B) + 64 B. */
START_TEST(test_dg_rudi_write)
{
	const struct uet_pds_rudi ri = {
		.type = UET_PDS_TYPE_RUDI_REQ,
		.next_hdr = UET_HDR_REQUEST_SMALL, .pkt_id = 7 };
	const struct uet_ses_opt_nonmatch w = {
		.ctl = { .opcode = UET_WRITE, .eom = true, .som = true },
		.request_length = 64, .job_id = 0x65, .pid_on_fep = 1,
		.resource_index = 2, .buffer_offset = 0x100 };
	struct dg ue = { .n = 0 }, up = { .n = 0 };

	dg_put(&ue, &fmts[F_RUDI], &ri);
	dg_put(&ue, &fmts[F_SMALL], &w);
	dg_payload(&ue, 64);
	dg_put(&up, &pfmts[F_RUDI], &ri);
	dg_put(&up, &pfmts[F_SMALL], &w);
	dg_payload(&up, 64);
	dg_check("RUDI + small WRITE", &ue, &up);
}
END_TEST

/* ACK + response (12 B vs 16 B), nothing after it. */
START_TEST(test_dg_ack_rsp)
{
	const struct uet_pds_ack a = {
		.next_hdr = UET_HDR_RESPONSE, .cack_psn = 0x1000,
		.spdcid = 2, .dpdcid = 1 };
	const struct uet_ses_rsp r = {
		.ctl = { .opcode = UET_RESPONSE, .return_code = UET_RC_OK },
		.message_id = 1, .job_id = 0x65, .modified_length = 64 };
	struct dg ue = { .n = 0 }, up = { .n = 0 };

	dg_put(&ue, &fmts[F_ACK], &a);
	dg_put(&ue, &fmts[F_RSP], &r);
	dg_put(&up, &pfmts[F_ACK], &a);
	dg_put(&up, &pfmts[F_RSP], &r);
	ck_assert_uint_eq(ue.n, 24);
	ck_assert_uint_eq(up.n, 28);
	dg_check("ACK + response", &ue, &up);
}
END_TEST

static Suite *ue_wire_suite(void)
{
	Suite *s = suite_create("ue_wire");
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_loop_test(tc, test_vec_encode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_decode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_truncated, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_reserved, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_cross_profile, 0, NVECS);
	suite_add_tcase(s, tc);

	tc = tcase_create("translations");
	tcase_add_test(tc, test_nack_code_map);
	tcase_add_test(tc, test_credit_pack);
	tcase_add_test(tc, test_amo_dtype_map);
	tcase_add_test(tc, test_profile_lengths);
	tcase_add_test(tc, test_ses_classify);
	tcase_add_test(tc, test_invalid_encode);
	suite_add_tcase(s, tc);

	/* Both failed before uet_wire_datagram_parses() checked that the
	 * payload is as long as the headers say (a UE+ UUD send read in ue
	 * as a NO_OP at pkt_id's low half; a UE+ response's 4 reserved
	 * bytes left over after ue's 12). */
	tc = tcase_create("datagrams");
	tcase_add_test(tc, test_dg_rud_send);
	tcase_add_test(tc, test_dg_rudi_write);
	tcase_add_test(tc, test_dg_uud_send);
	tcase_add_test(tc, test_dg_ack_rsp);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(ue_wire_suite)
