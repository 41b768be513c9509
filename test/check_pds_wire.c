/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS wire codec tests.
 *
 * Generic tests run over two tables:
 *   fmts[]  one entry per format: encode/decode wrappers, equality and a
 *           generator of random valid host values;
 *   vecs[]  known byte vectors worked out by hand from
 *           ../shared/spec/pds-formats.md (section named per vector) as
 *           resolved in docs/conformance.md (4.1), each with the mask of
 *           its reserved bits.
 * Format-specific tests check invalid values in both directions.
 *
 * Prologue arithmetic used below: u16 = type << 11 | next_hdr << 7 |
 * flags, so byte 0 = type << 3 | next_hdr >> 1 and byte 1 =
 * (next_hdr & 1) << 7 | flags.
 */
#include <stdlib.h>
#include <string.h>

#include "uet_test.h"
#include "uet_pds_wire.h"

#define BUF_MAX		64
#define RT_ITERS	2000
#define FUZZ_ITERS	20000
#define FILL		0xa5

#include "wire_fmt_test.h"

/* ------------------------------------------------------------------ */
/* Format table                                                        */
/* ------------------------------------------------------------------ */

/* UE+ (the UE 1.0.1 profile has its own suite, check_ue_wire). */
#define WRAP_ANY(fmt, stype, ...)					\
static ssize_t enc_##fmt(uint8_t *buf, size_t len, const void *h)	\
{									\
	return uet_pds_##fmt##_encode(__VA_ARGS__ buf, len,		\
				      (const stype *)h);		\
}									\
static ssize_t dec_##fmt(void *h, const uint8_t *buf, size_t len)	\
{									\
	return uet_pds_##fmt##_decode(__VA_ARGS__ (stype *)h, buf, len); \
}
#define WRAP(fmt, stype)	WRAP_ANY(fmt, stype, UET_WIRE_UEPLUS,)
#define WRAP0(fmt, stype)	WRAP_ANY(fmt, stype)

WRAP(rud_rod_req, struct uet_pds_rud_rod_req)
WRAP(rud_rod_cc_req, struct uet_pds_rud_rod_cc_req)
WRAP(rudi, struct uet_pds_rudi)
WRAP(uud_req, struct uet_pds_uud_req)
WRAP(ack, struct uet_pds_ack)
WRAP(ack_cc, struct uet_pds_ack_cc)
WRAP(ack_ccx, struct uet_pds_ack_ccx)
WRAP(nack, struct uet_pds_nack)
WRAP(nack_ccx, struct uet_pds_nack_ccx)
WRAP(cp, struct uet_pds_cp)
WRAP0(entropy, struct uet_pds_entropy)
WRAP(default_ses_rsp, struct uet_pds_default_ses_rsp)

/* ---- equality, field by field ---- */

static bool eq_rud_rod_req(const void *pa, const void *pb)
{
	const struct uet_pds_rud_rod_req *a = pa, *b = pb;

	return a->type == b->type && a->next_hdr == b->next_hdr &&
	       a->retx == b->retx && a->ar == b->ar && a->syn == b->syn &&
	       a->clear_psn_offset == b->clear_psn_offset &&
	       a->psn == b->psn && a->spdcid == b->spdcid &&
	       a->dpdcid == b->dpdcid && a->pdc_info == b->pdc_info &&
	       a->psn_offset == b->psn_offset;
}

static bool eq_rud_rod_cc_req(const void *pa, const void *pb)
{
	const struct uet_pds_rud_rod_cc_req *a = pa, *b = pb;

	return eq_rud_rod_req(&a->req, &b->req) &&
	       !memcmp(a->req_cc_state, b->req_cc_state,
		       sizeof(a->req_cc_state));
}

static bool eq_rudi(const void *pa, const void *pb)
{
	const struct uet_pds_rudi *a = pa, *b = pb;

	return a->type == b->type && a->next_hdr == b->next_hdr &&
	       a->m == b->m && a->retx == b->retx && a->pkt_id == b->pkt_id;
}

static bool eq_uud_req(const void *pa, const void *pb)
{
	const struct uet_pds_uud_req *a = pa, *b = pb;

	return a->next_hdr == b->next_hdr && a->pkt_id == b->pkt_id;
}

static bool eq_ack(const void *pa, const void *pb)
{
	const struct uet_pds_ack *a = pa, *b = pb;

	return a->next_hdr == b->next_hdr && a->m == b->m &&
	       a->retx == b->retx && a->p == b->p && a->req == b->req &&
	       a->ack_psn_offset == b->ack_psn_offset &&
	       a->probe_opaque == b->probe_opaque &&
	       a->cack_psn == b->cack_psn && a->spdcid == b->spdcid &&
	       a->dpdcid == b->dpdcid;
}

static bool eq_ack_cc(const void *pa, const void *pb)
{
	const struct uet_pds_ack_cc *a = pa, *b = pb;

	return eq_ack(&a->ack, &b->ack) && a->cc_type == b->cc_type &&
	       a->mpr == b->mpr && a->sack_psn_offset == b->sack_psn_offset &&
	       a->sack_bitmap == b->sack_bitmap &&
	       a->ack_cc_state == b->ack_cc_state;
}

static bool eq_ack_ccx(const void *pa, const void *pb)
{
	const struct uet_pds_ack_ccx *a = pa, *b = pb;

	return eq_ack(&a->ack, &b->ack) && a->cc_type == b->cc_type &&
	       a->mpr == b->mpr && a->sack_psn_offset == b->sack_psn_offset &&
	       a->sack_bitmap == b->sack_bitmap &&
	       !memcmp(a->ack_ccx_state, b->ack_ccx_state,
		       sizeof(a->ack_ccx_state));
}

static bool eq_nack(const void *pa, const void *pb)
{
	const struct uet_pds_nack *a = pa, *b = pb;

	return a->next_hdr == b->next_hdr && a->m == b->m &&
	       a->retx == b->retx && a->nt == b->nt &&
	       a->nack_code == b->nack_code &&
	       a->vendor_code == b->vendor_code &&
	       a->nack_psn == b->nack_psn && a->spdcid == b->spdcid &&
	       a->dpdcid == b->dpdcid;
}

static bool eq_nack_ccx(const void *pa, const void *pb)
{
	const struct uet_pds_nack_ccx *a = pa, *b = pb;

	return eq_nack(&a->nack, &b->nack) &&
	       !memcmp(a->nack_ccx_state, b->nack_ccx_state,
		       sizeof(a->nack_ccx_state));
}

static bool eq_cp(const void *pa, const void *pb)
{
	const struct uet_pds_cp *a = pa, *b = pb;

	return a->ctl_type == b->ctl_type && a->isrod == b->isrod &&
	       a->retx == b->retx && a->ar == b->ar && a->syn == b->syn &&
	       a->probe_opaque == b->probe_opaque && a->psn == b->psn &&
	       a->spdcid == b->spdcid && a->dpdcid == b->dpdcid &&
	       a->pdc_info == b->pdc_info && a->psn_offset == b->psn_offset;
}

static bool eq_entropy(const void *pa, const void *pb)
{
	const struct uet_pds_entropy *a = pa, *b = pb;

	return a->entropy == b->entropy;
}

static bool eq_default_ses_rsp(const void *pa, const void *pb)
{
	const struct uet_pds_default_ses_rsp *a = pa, *b = pb;

	return a->list == b->list && a->opcode == b->opcode &&
	       a->version == b->version &&
	       a->return_code == b->return_code &&
	       a->message_id == b->message_id &&
	       a->ri_generation == b->ri_generation &&
	       a->job_id == b->job_id;
}

/* ---- random valid host values (unselected overlay members zero) ---- */

static bool rbool(void)
{
	return uet_test_rand_bits(1);
}

static uint16_t rnonzero16(void)
{
	return (uint16_t)(1 + uet_test_rand64() % 0xffff);
}

static int16_t rs16(void)
{
	return (int16_t)((int32_t)uet_test_rand_bits(16) - 32768);
}

static void rbytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)uet_test_rand_bits(8);
}

static uint8_t rnext_hdr(void)
{
	return (uint8_t)(uet_test_rand64() % (UET_HDR_MAX + 1));
}

static void rnd_req_fields(struct uet_pds_rud_rod_req *h)
{
	h->next_hdr = rnext_hdr();
	h->retx = rbool();
	h->ar = rbool();
	h->syn = rbool();
	/* a CLEAR_PSN after the PSN is refused (UET_CLEAR_PSN_OFFSET_MAX) */
	h->clear_psn_offset = (uint16_t)uet_test_rand_bits(15);
	h->psn = (uint32_t)uet_test_rand_bits(32);
	h->spdcid = rnonzero16();
	if (h->syn) {
		h->pdc_info = (uint8_t)uet_test_rand_bits(1);
		h->psn_offset = (uint16_t)uet_test_rand_bits(12);
	} else {
		h->dpdcid = rnonzero16();
	}
}

static void rnd_rud_rod_req(void *p)
{
	struct uet_pds_rud_rod_req *h = p;

	memset(h, 0, sizeof(*h));
	h->type = rbool() ? UET_PDS_TYPE_RUD_REQ : UET_PDS_TYPE_ROD_REQ;
	rnd_req_fields(h);
}

static void rnd_rud_rod_cc_req(void *p)
{
	struct uet_pds_rud_rod_cc_req *h = p;

	memset(h, 0, sizeof(*h));
	h->req.type = rbool() ? UET_PDS_TYPE_RUD_CC_REQ :
				UET_PDS_TYPE_ROD_CC_REQ;
	rnd_req_fields(&h->req);
	rbytes(h->req_cc_state, sizeof(h->req_cc_state));
}

static void rnd_rudi(void *p)
{
	struct uet_pds_rudi *h = p;

	memset(h, 0, sizeof(*h));
	h->type = rbool() ? UET_PDS_TYPE_RUDI_REQ : UET_PDS_TYPE_RUDI_RESP;
	h->next_hdr = rnext_hdr();
	h->m = h->type == UET_PDS_TYPE_RUDI_RESP && rbool();
	h->retx = rbool();
	h->pkt_id = (uint32_t)uet_test_rand_bits(32);
}

static void rnd_uud_req(void *p)
{
	struct uet_pds_uud_req *h = p;

	memset(h, 0, sizeof(*h));
	h->next_hdr = rnext_hdr();
	h->pkt_id = (uint32_t)uet_test_rand_bits(32);
}

static void rnd_ack_fields(struct uet_pds_ack *h)
{
	static const uint8_t nh[] = {
		UET_HDR_NONE, UET_HDR_RESPONSE, UET_HDR_RESPONSE_DATA,
		UET_HDR_RESPONSE_DATA_SMALL,
	};

	h->next_hdr = nh[uet_test_rand_bits(2)];
	h->m = rbool();
	h->retx = rbool();
	h->p = rbool();
	h->req = (uint8_t)uet_test_rand_bits(2);
	if (h->p)
		h->probe_opaque = (uint16_t)uet_test_rand_bits(16);
	else
		h->ack_psn_offset = rs16();
	h->cack_psn = (uint32_t)uet_test_rand_bits(32);
	h->spdcid = rnonzero16();
	h->dpdcid = rnonzero16();
}

static void rnd_ack(void *p)
{
	struct uet_pds_ack *h = p;

	memset(h, 0, sizeof(*h));
	rnd_ack_fields(h);
}

static void rnd_ack_cc(void *p)
{
	struct uet_pds_ack_cc *h = p;

	memset(h, 0, sizeof(*h));
	rnd_ack_fields(&h->ack);
	h->cc_type = rbool() ? UET_CC_CREDIT : UET_CC_NSCC;
	h->mpr = (uint8_t)uet_test_rand_bits(8);
	h->sack_psn_offset = rs16();
	h->sack_bitmap = uet_test_rand64();
	h->ack_cc_state = uet_test_rand64();
}

static void rnd_ack_ccx(void *p)
{
	struct uet_pds_ack_ccx *h = p;

	memset(h, 0, sizeof(*h));
	rnd_ack_fields(&h->ack);
	h->cc_type = rbool() ? UET_CC_CREDIT : UET_CC_NSCC;
	h->mpr = (uint8_t)uet_test_rand_bits(8);
	h->sack_psn_offset = rs16();
	h->sack_bitmap = uet_test_rand64();
	rbytes(h->ack_ccx_state, sizeof(h->ack_ccx_state));
}

static void rnd_nack_fields(struct uet_pds_nack *h)
{
	h->next_hdr = UET_HDR_NONE;
	h->m = rbool();
	h->retx = rbool();
	h->nt = rbool();
	h->nack_code = (uint8_t)(uet_test_rand64() % (UET_NACK_MAX + 1));
	h->vendor_code = (uint8_t)uet_test_rand_bits(8);
	h->nack_psn = (uint32_t)uet_test_rand_bits(32);
	/* pds-formats.md 3.9: both PDCIDs are 0 when nt = 1 */
	h->spdcid = h->nt ? 0 : (uint16_t)uet_test_rand_bits(16);
	h->dpdcid = h->nt ? 0 : (uint16_t)uet_test_rand_bits(16);
}

static void rnd_nack(void *p)
{
	struct uet_pds_nack *h = p;

	memset(h, 0, sizeof(*h));
	rnd_nack_fields(h);
}

static void rnd_nack_ccx(void *p)
{
	struct uet_pds_nack_ccx *h = p;

	memset(h, 0, sizeof(*h));
	rnd_nack_fields(&h->nack);
	rbytes(h->nack_ccx_state, sizeof(h->nack_ccx_state));
}

static void rnd_cp(void *p)
{
	struct uet_pds_cp *h = p;

	memset(h, 0, sizeof(*h));
	h->ctl_type = (uint8_t)(uet_test_rand64() % (UET_CTL_MAX + 1));
	h->isrod = rbool();
	h->retx = rbool();
	h->ar = rbool();
	h->syn = rbool();
	h->probe_opaque = (uint16_t)uet_test_rand_bits(16);
	h->psn = (uint32_t)uet_test_rand_bits(32);
	h->spdcid = rnonzero16();
	if (h->syn) {
		h->pdc_info = (uint8_t)uet_test_rand_bits(1);
		h->psn_offset = (uint16_t)uet_test_rand_bits(12);
	} else {
		h->dpdcid = rnonzero16();
	}
}

static void rnd_entropy(void *p)
{
	struct uet_pds_entropy *h = p;

	h->entropy = (uint16_t)uet_test_rand_bits(16);
}

static void rnd_default_ses_rsp(void *p)
{
	struct uet_pds_default_ses_rsp *h = p;

	memset(h, 0, sizeof(*h));
	h->opcode = rbool() ? UET_DEFAULT_RESPONSE : UET_NO_RESPONSE;
	h->return_code = rbool() ? UET_RC_OK : UET_RC_NULL;
	h->message_id = (uint16_t)uet_test_rand_bits(16);
	h->job_id = (uint32_t)uet_test_rand_bits(24);
}

#define FMT(n, LEN, stype, pro)						\
	{ .name = #n, .len = LEN, .hsize = sizeof(stype),		\
	  .prologue = pro, .enc = enc_##n, .dec = dec_##n,		\
	  .eq = eq_##n, .rnd = rnd_##n }

enum {
	F_RUD_ROD, F_RUD_ROD_CC, F_RUDI, F_UUD, F_ACK, F_ACK_CC, F_ACK_CCX,
	F_NACK, F_NACK_CCX, F_CP, F_ENTROPY, F_DSR, NFMTS
};

static const struct fmt fmts[NFMTS] = {
	[F_RUD_ROD] = FMT(rud_rod_req, UET_PDS_RUD_ROD_REQ_LEN,
			  struct uet_pds_rud_rod_req, true),
	[F_RUD_ROD_CC] = FMT(rud_rod_cc_req, UET_PDS_RUD_ROD_CC_REQ_LEN,
			     struct uet_pds_rud_rod_cc_req, true),
	[F_RUDI] = FMT(rudi, UET_PDS_RUDI_LEN, struct uet_pds_rudi, true),
	[F_UUD] = FMT(uud_req, UET_PDS_UUD_REQ_LEN, struct uet_pds_uud_req,
		      true),
	[F_ACK] = FMT(ack, UET_PDS_ACK_LEN, struct uet_pds_ack, true),
	[F_ACK_CC] = FMT(ack_cc, UET_PDS_ACK_CC_LEN, struct uet_pds_ack_cc,
			 true),
	[F_ACK_CCX] = FMT(ack_ccx, UET_PDS_ACK_CCX_LEN,
			  struct uet_pds_ack_ccx, true),
	[F_NACK] = FMT(nack, UET_PDS_NACK_LEN, struct uet_pds_nack, true),
	[F_NACK_CCX] = FMT(nack_ccx, UET_PDS_NACK_CCX_LEN,
			   struct uet_pds_nack_ccx, true),
	[F_CP] = FMT(cp, UET_PDS_CP_LEN, struct uet_pds_cp, true),
	[F_ENTROPY] = FMT(entropy, UET_PDS_ENTROPY_LEN,
			  struct uet_pds_entropy, false),
	[F_DSR] = FMT(default_ses_rsp, UET_PDS_DEFAULT_SES_RSP_LEN,
		      struct uet_pds_default_ses_rsp, false),
};

/* ------------------------------------------------------------------ */
/* Known vectors                                                       */
/* ------------------------------------------------------------------ */

static const struct vec vecs[] = {
	/*
	 * pds-formats.md 3.1 (Table 3-33), the UET_WRITE example of
	 * congestion-and-packet-flow.md: RUD, next_hdr REQUEST_STD, ar.
	 * u16 = 2 << 11 | 3 << 7 | 0x08 (ar) = 0x1000 + 0x180 + 0x08
	 * = 0x1188.  Reserved: flags[6:5] and [1:0] = byte 1 & 0x63.
	 */
	{ "rud_req", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_RUD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.ar = true, .clear_psn_offset = 0x0001, .psn = 0x00012000,
		.spdcid = 0x4001, .dpdcid = 0x8001 },
	  { 0x11, 0x88, 0x00, 0x01, 0x00, 0x01, 0x20, 0x00,
	    0x40, 0x01, 0x80, 0x01 },
	  { [1] = 0x63 } },
	/*
	 * pds-formats.md 3.2/3.1: ROD, REQUEST_STD, ar + syn, PDC
	 * establishment.  u16 = 3 << 11 | 3 << 7 | 0x08 | 0x04 = 0x1800 +
	 * 0x180 + 0x0c = 0x198c.  dpdcid slot = pdc_info 1 << 12 |
	 * psn_offset 0x005 = 0x1005.  Reserved adds pdc_info[3:1] = bits
	 * 15:13 of the slot = byte 10 & 0xe0.
	 */
	{ "rod_req_syn", F_RUD_ROD,
	  &(const struct uet_pds_rud_rod_req){
		.type = UET_PDS_TYPE_ROD_REQ, .next_hdr = UET_HDR_REQUEST_STD,
		.ar = true, .syn = true, .clear_psn_offset = 0,
		.psn = 0x00012000, .spdcid = 0x4001,
		.pdc_info = UET_PDC_INFO_USE_RSV_PDC, .psn_offset = 0x005 },
	  { 0x19, 0x8c, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00,
	    0x40, 0x01, 0x10, 0x05 },
	  { [1] = 0x63, [10] = 0xe0 } },
	/*
	 * pds-formats.md 3.11 (Table 3-34): RUD_CC (13), REQUEST_SMALL,
	 * retx.  u16 = 13 << 11 | 1 << 7 | 0x10 = 0x6800 + 0x80 + 0x10 =
	 * 0x6890.  req_cc_state 00..0f at bytes 12-27.
	 */
	{ "rud_cc_req", F_RUD_ROD_CC,
	  &(const struct uet_pds_rud_rod_cc_req){
		.req = { .type = UET_PDS_TYPE_RUD_CC_REQ,
			 .next_hdr = UET_HDR_REQUEST_SMALL, .retx = true,
			 .clear_psn_offset = 0x1234, .psn = 0xdeadbeef,
			 .spdcid = 0x0102, .dpdcid = 0x0304 },
		.req_cc_state = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
				  0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
				  0x0e, 0x0f } },
	  { 0x68, 0x90, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef,
	    0x01, 0x02, 0x03, 0x04,
	    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f },
	  { [1] = 0x63 } },
	/*
	 * pds-formats.md 3.11: ROD_CC (14), REQUEST_STD, ar + syn, all-ones
	 * numeric fields (clear_psn_offset: its largest, 0x7fff).  u16 =
	 * 14 << 11 | 3 << 7 | 0x0c = 0x7000 + 0x180 + 0x0c = 0x718c.  Slot
	 * = 1 << 12 | 0xfff = 0x1fff.
	 */
	{ "rod_cc_req_syn", F_RUD_ROD_CC,
	  &(const struct uet_pds_rud_rod_cc_req){
		.req = { .type = UET_PDS_TYPE_ROD_CC_REQ,
			 .next_hdr = UET_HDR_REQUEST_STD, .ar = true,
			 .syn = true, .clear_psn_offset = 0x7fff,
			 .psn = 0xffffffff, .spdcid = 0xffff,
			 .pdc_info = UET_PDC_INFO_USE_RSV_PDC,
			 .psn_offset = 0xfff },
		.req_cc_state = { 0x80, [15] = 0x01 } },
	  { 0x71, 0x8c, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0x1f, 0xff,
	    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 },
	  { [1] = 0x63, [10] = 0xe0 } },
	/*
	 * pds-formats.md 3.3 (Table 3-39): RUDI request, REQUEST_MEDIUM.
	 * u16 = 4 << 11 | 2 << 7 = 0x2000 + 0x100 = 0x2100.  Reserved:
	 * flags[6], [5] (m, request), [3:0] = byte 1 & 0x6f.
	 */
	{ "rudi_req", F_RUDI,
	  &(const struct uet_pds_rudi){
		.type = UET_PDS_TYPE_RUDI_REQ,
		.next_hdr = UET_HDR_REQUEST_MEDIUM, .pkt_id = 0xcafef00d },
	  { 0x21, 0x00, 0xca, 0xfe, 0xf0, 0x0d },
	  { [1] = 0x6f } },
	/*
	 * pds-formats.md 3.4: RUDI response, RESPONSE, m + retx.
	 * u16 = 5 << 11 | 4 << 7 | 0x20 | 0x10 = 0x2800 + 0x200 + 0x30 =
	 * 0x2a30.  Reserved: flags[6], [3:0] = byte 1 & 0x4f.
	 */
	{ "rudi_resp", F_RUDI,
	  &(const struct uet_pds_rudi){
		.type = UET_PDS_TYPE_RUDI_RESP, .next_hdr = UET_HDR_RESPONSE,
		.m = true, .retx = true, .pkt_id = 0x01020304 },
	  { 0x2a, 0x30, 0x01, 0x02, 0x03, 0x04 },
	  { [1] = 0x4f } },
	/*
	 * pds-formats.md 3.5 (Table 3-42): UUD, REQUEST_SMALL.
	 * u16 = 6 << 11 | 1 << 7 = 0x3000 + 0x80 = 0x3080.  Reserved:
	 * flags[6:0] = byte 1 & 0x7f.
	 */
	{ "uud_req", F_UUD,
	  &(const struct uet_pds_uud_req){
		.next_hdr = UET_HDR_REQUEST_SMALL, .pkt_id = 0x00000001 },
	  { 0x30, 0x80, 0x00, 0x00, 0x00, 0x01 },
	  { [1] = 0x7f } },
	/*
	 * pds-formats.md 3.6 (Table 3-35), the ACK of the UET_WRITE
	 * example: next_hdr RESPONSE, ack_psn_offset 0, cack_psn 0x12000,
	 * spdcid 0x8001, dpdcid 0x4001.  u16 = 7 << 11 | 4 << 7 = 0x3800 +
	 * 0x200 = 0x3a00.  Reserved: flags[6], [0] = byte 1 & 0x41.
	 */
	{ "ack_write", F_ACK,
	  &(const struct uet_pds_ack){
		.next_hdr = UET_HDR_RESPONSE, .cack_psn = 0x00012000,
		.spdcid = 0x8001, .dpdcid = 0x4001 },
	  { 0x3a, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00,
	    0x80, 0x01, 0x40, 0x01 },
	  { [1] = 0x41 } },
	/*
	 * pds-formats.md 3.6: m + retx, req 1, ack_psn_offset -2.
	 * flags = 0x20 | 0x10 | 1 << 1 = 0x32; u16 = 0x3800 | 0x32.
	 * -2 as 16-bit two's complement = 0xfffe.
	 */
	{ "ack_neg_offset", F_ACK,
	  &(const struct uet_pds_ack){
		.next_hdr = UET_HDR_NONE, .m = true, .retx = true, .req = 1,
		.ack_psn_offset = -2, .cack_psn = 0x00000010,
		.spdcid = 0x0001, .dpdcid = 0xffff },
	  { 0x38, 0x32, 0xff, 0xfe, 0x00, 0x00, 0x00, 0x10,
	    0x00, 0x01, 0xff, 0xff },
	  { [1] = 0x41 } },
	/*
	 * pds-formats.md 3.6: probe response p = 1, req 3, next_hdr
	 * RESPONSE_DATA_SMALL; probe_opaque overlays bytes 2-3.
	 * flags = 0x08 | 3 << 1 = 0x0e; u16 = 0x3800 | 6 << 7 | 0x0e =
	 * 0x3800 + 0x300 + 0x0e = 0x3b0e.
	 */
	{ "ack_probe", F_ACK,
	  &(const struct uet_pds_ack){
		.next_hdr = UET_HDR_RESPONSE_DATA_SMALL, .p = true, .req = 3,
		.probe_opaque = 0xabcd, .cack_psn = 0x7fffffff,
		.spdcid = 0x1234, .dpdcid = 0x5678 },
	  { 0x3b, 0x0e, 0xab, 0xcd, 0x7f, 0xff, 0xff, 0xff,
	    0x12, 0x34, 0x56, 0x78 },
	  { [1] = 0x41 } },
	/*
	 * pds-formats.md 3.7 (Table 3-36): ACK_CC, next_hdr RESPONSE_DATA.
	 * u16 = 8 << 11 | 5 << 7 = 0x4000 + 0x280 = 0x4280.  Byte 12 =
	 * cc_type CREDIT (1) << 4 = 0x10; mpr 0x40; sack_psn_offset -1 =
	 * 0xffff; sack_bitmap 0x8000000000000001; ack_cc_state
	 * 0x0102030405060708.  Reserved: byte 1 & 0x41, cc_flags = byte 12
	 * & 0x0f.
	 */
	{ "ack_cc", F_ACK_CC,
	  &(const struct uet_pds_ack_cc){
		.ack = { .next_hdr = UET_HDR_RESPONSE_DATA,
			 .ack_psn_offset = 3, .cack_psn = 0x00000100,
			 .spdcid = 0x0010, .dpdcid = 0x0020 },
		.cc_type = UET_CC_CREDIT, .mpr = 0x40, .sack_psn_offset = -1,
		.sack_bitmap = 0x8000000000000001ull,
		.ack_cc_state = 0x0102030405060708ull },
	  { 0x42, 0x80, 0x00, 0x03, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x10, 0x00, 0x20, 0x10, 0x40, 0xff, 0xff,
	    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 },
	  { [1] = 0x41, [12] = 0x0f } },
	/*
	 * pds-formats.md 3.8 (Table 3-37) on the 32-byte ACK_CC: ACK_CCX,
	 * m.  u16 = 9 << 11 | 0x20 = 0x4800 + 0x20 = 0x4820.  Byte 12 =
	 * NSCC (0) << 4 = 0x00; mpr 0xff; sack_psn_offset +32767 = 0x7fff;
	 * ack_ccx_state f0..ff at bytes 24-39.
	 */
	{ "ack_ccx", F_ACK_CCX,
	  &(const struct uet_pds_ack_ccx){
		.ack = { .next_hdr = UET_HDR_NONE, .m = true,
			 .ack_psn_offset = 0, .cack_psn = 0xffffffff,
			 .spdcid = 0x0a0b, .dpdcid = 0x0c0d },
		.cc_type = UET_CC_NSCC, .mpr = 0xff,
		.sack_psn_offset = 0x7fff,
		.sack_bitmap = 0x0123456789abcdefull,
		.ack_ccx_state = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6,
				   0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd,
				   0xfe, 0xff } },
	  { 0x48, 0x20, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0x0a, 0x0b, 0x0c, 0x0d, 0x00, 0xff, 0x7f, 0xff,
	    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	    0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff },
	  { [1] = 0x41, [12] = 0x0f } },
	/*
	 * pds-formats.md 3.9 (Table 3-40): NACK UET_PSN_GAP (6), retx.
	 * u16 = 10 << 11 | 0x10 = 0x5000 + 0x10 = 0x5010.  Reserved:
	 * flags[6], [2:0] = byte 1 & 0x47.
	 */
	{ "nack_psn_gap", F_NACK,
	  &(const struct uet_pds_nack){
		.retx = true, .nack_code = UET_NACK_PSN_GAP,
		.nack_psn = 0x00012001, .spdcid = 0x8001, .dpdcid = 0x4001 },
	  { 0x50, 0x10, 0x06, 0x00, 0x00, 0x01, 0x20, 0x01,
	    0x80, 0x01, 0x40, 0x01 },
	  { [1] = 0x47 } },
	/*
	 * pds-formats.md 3.9: RUDI NACK (nt = 1), m, NO_PKT_BUF, vendor
	 * code 0x7e, nack_psn = pkt_id, PDCIDs 0.  flags = 0x20 | 0x08 =
	 * 0x28; u16 = 0x5028.
	 */
	{ "nack_rudi", F_NACK,
	  &(const struct uet_pds_nack){
		.m = true, .nt = true, .nack_code = UET_NACK_NO_PKT_BUF,
		.vendor_code = 0x7e, .nack_psn = 0xcafef00d },
	  { 0x50, 0x28, 0x00, 0x7e, 0xca, 0xfe, 0xf0, 0x0d,
	    0x00, 0x00, 0x00, 0x00 },
	  { [1] = 0x47 } },
	/*
	 * pds-formats.md 3.10 (Table 3-41): NACK_CCX, TRIMMED (1).
	 * u16 = 12 << 11 = 0x6000.  nack_ccx_state 10..1f at bytes 12-27.
	 */
	{ "nack_ccx", F_NACK_CCX,
	  &(const struct uet_pds_nack_ccx){
		.nack = { .nack_code = UET_NACK_TRIMMED,
			  .nack_psn = 0x00000005, .spdcid = 0x0001,
			  .dpdcid = 0x0002 },
		.nack_ccx_state = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
				    0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d,
				    0x1e, 0x1f } },
	  { 0x60, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05,
	    0x00, 0x01, 0x00, 0x02,
	    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	    0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f },
	  { [1] = 0x47 } },
	/*
	 * pds-formats.md 3.14 (Table 3-38): CP PROBE (6), ar.
	 * u16 = 11 << 11 | 6 << 7 | 0x08 = 0x5800 + 0x300 + 0x08 = 0x5b08.
	 * Reserved: flags[6], [1:0] = byte 1 & 0x43.
	 */
	{ "cp_probe", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_PROBE, .ar = true, .probe_opaque = 0xbeef,
		.psn = 0x00012003, .spdcid = 0x4001, .dpdcid = 0x8001 },
	  { 0x5b, 0x08, 0xbe, 0xef, 0x00, 0x01, 0x20, 0x03,
	    0x40, 0x01, 0x80, 0x01 },
	  { [1] = 0x43 } },
	/*
	 * pds-formats.md 3.14: CP NEGOTIATION (9), isrod + syn,
	 * pdc_info 0, psn_offset 0xfff.  u16 = 11 << 11 | 9 << 7 | 0x20 |
	 * 0x04 = 0x5800 + 0x480 + 0x24 = 0x5ca4.  Slot = 0 << 12 | 0xfff.
	 */
	{ "cp_negotiation_syn", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_NEGOTIATION, .isrod = true, .syn = true,
		.psn = 0x00000100, .spdcid = 0x0007, .psn_offset = 0xfff },
	  { 0x5c, 0xa4, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
	    0x00, 0x07, 0x0f, 0xff },
	  { [1] = 0x43, [10] = 0xe0 } },
	/*
	 * pds-formats.md 3.14: CP CLOSE_REQUEST (5), retx, syn = 0 so
	 * dpdcid must be != 0 (as in a RUD/ROD request): dpdcid 0x0002.
	 * u16 = 0x5800 | 5 << 7 | 0x10 = 0x5800 + 0x280 + 0x10 = 0x5a90.
	 */
	{ "cp_close_req", F_CP,
	  &(const struct uet_pds_cp){
		.ctl_type = UET_CTL_CLOSE_REQUEST, .retx = true,
		.psn = 0x12345678, .spdcid = 0x0001, .dpdcid = 0x0002 },
	  { 0x5a, 0x90, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
	    0x00, 0x01, 0x00, 0x02 },
	  { [1] = 0x43 } },
	/* pds-formats.md 3.12 (Table 3-31): entropy 0xbeef, reserved 0. */
	{ "entropy", F_ENTROPY,
	  &(const struct uet_pds_entropy){ .entropy = 0xbeef },
	  { 0xbe, 0xef, 0x00, 0x00 },
	  { [2] = 0xff, [3] = 0xff } },
	/*
	 * pds-formats.md 3.13 (Table 3-43): the UET_WRITE response fields
	 * that fit a default response: opcode UET_DEFAULT_RESPONSE (0),
	 * RC_OK (1), message_id 1, JobID 101 = 0x000065.  Byte 0 = list 0
	 * << 6 | 0 = 0x00; byte 1 = version 0 << 6 | 1 = 0x01.  Reserved:
	 * list = byte 0 & 0xc0, version = byte 1 & 0xc0, ri_generation =
	 * byte 4.
	 */
	{ "dsr_ok", F_DSR,
	  &(const struct uet_pds_default_ses_rsp){
		.opcode = UET_DEFAULT_RESPONSE, .return_code = UET_RC_OK,
		.message_id = 1, .job_id = 101 },
	  { 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x65 },
	  { [0] = 0xc0, [1] = 0xc0, [4] = 0xff } },
	/*
	 * pds-formats.md 3.13: UET_NO_RESPONSE (3), RC_NULL, message_id 0,
	 * job_id 0xabcdef.  Byte 0 = 0x03, byte 1 = 0x00.
	 */
	{ "dsr_no_response", F_DSR,
	  &(const struct uet_pds_default_ses_rsp){
		.opcode = UET_NO_RESPONSE, .return_code = UET_RC_NULL,
		.message_id = 0, .job_id = 0xabcdef },
	  { 0x03, 0x00, 0x00, 0x00, 0x00, 0xab, 0xcd, 0xef },
	  { [0] = 0xc0, [1] = 0xc0, [4] = 0xff } },
};

#define NVECS ((int)(sizeof(vecs) / sizeof(vecs[0])))

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static void set_type(uint8_t *b, unsigned int type)
{
	b[0] = (uint8_t)((b[0] & 0x07) | type << 3);
}

static void set_next_hdr(uint8_t *b, unsigned int nh)
{
	b[0] = (uint8_t)((b[0] & 0xf8) | nh >> 1);
	b[1] = (uint8_t)((b[1] & 0x7f) | (nh & 1) << 7);
}

static const struct vec *find_vec(const char *name)
{
	int i;

	for (i = 0; i < NVECS; i++)
		if (!strcmp(vecs[i].name, name))
			return &vecs[i];
	ck_abort_msg("no vector %s", name);
	return NULL;
}

/* Every type except those in ok[] must fail with ETYPE in decode. */
static void expect_dec_types(const char *vname, const unsigned int *ok,
			     size_t nok)
{
	const struct vec *v = find_vec(vname);
	const struct fmt *f = &fmts[v->fmt];
	uint8_t b[BUF_MAX];
	unsigned int t;
	size_t i;
	bool good;

	for (t = 0; t < 32; t++) {
		good = false;
		for (i = 0; i < nok; i++)
			good |= ok[i] == t;
		memcpy(b, v->bytes, f->len);
		set_type(b, t);
		if (good)
			expect_dec(f, b, f->len, (ssize_t)f->len, vname);
		else
			expect_dec(f, b, f->len, UET_WIRE_ETYPE, vname);
	}
}

/* ------------------------------------------------------------------ */
/* Generic tests over vecs[] and fmts[]                                */
/* ------------------------------------------------------------------ */

START_TEST(test_vec_encode)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t buf[BUF_MAX];
	size_t j;
	ssize_t r;

	/* exact-size output */
	memset(buf, FILL, sizeof(buf));
	r = f->enc(buf, f->len, v->host);
	ck_assert_msg(r == (ssize_t)f->len, "%s: encode = %zd", v->name, r);
	for (j = 0; j < f->len; j++)
		ck_assert_msg(buf[j] == v->bytes[j],
			      "%s: byte %zu = 0x%02x, want 0x%02x",
			      v->name, j, buf[j], v->bytes[j]);
	for (; j < sizeof(buf); j++)
		ck_assert_uint_eq(buf[j], FILL);

	/* larger output: same length, same bytes */
	r = f->enc(buf, sizeof(buf), v->host);
	ck_assert_int_eq(r, (ssize_t)f->len);
	ck_assert_mem_eq(buf, v->bytes, f->len);
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
	r = f->dec(h, in, sizeof(in));
	ck_assert_int_eq(r, (ssize_t)f->len);
	ck_assert(f->eq(h, v->host));

	/* the prologue peek agrees with the format length */
	if (f->prologue) {
		ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UEPLUS, v->bytes, f->len),
				 (ssize_t)f->len);
	}
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

START_TEST(test_vec_enobufs)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t buf[BUF_MAX];
	size_t n, j;
	ssize_t r;

	for (n = 0; n < f->len; n++) {
		memset(buf, FILL, sizeof(buf));
		r = f->enc(buf, n, v->host);
		ck_assert_msg(r == UET_WIRE_ENOBUFS,
			      "%s: encode(len %zu) = %zd", v->name, n, r);
		for (j = 0; j < sizeof(buf); j++)
			ck_assert_msg(buf[j] == FILL,
				      "%s: encode(len %zu) wrote byte %zu",
				      v->name, n, j);
	}
}
END_TEST

START_TEST(test_vec_reserved)
{
	const struct vec *v = &vecs[_i];
	const struct fmt *f = &fmts[v->fmt];
	uint8_t b[BUF_MAX];
	unsigned int nbits = 0, bit;
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
			nbits++;
		}
	}
	/* every format here has at least one reserved bit */
	ck_assert_uint_gt(nbits, 0);
}
END_TEST

START_TEST(test_fmt_roundtrip)
{
	const struct fmt *f = &fmts[_i];
	uint8_t h1[256], h2[256], b1[BUF_MAX], b2[BUF_MAX];
	int it;
	ssize_t r;

	for (it = 0; it < RT_ITERS; it++) {
		memset(h1, 0, sizeof(h1));
		f->rnd(h1);
		memset(b1, FILL, sizeof(b1));
		r = f->enc(b1, sizeof(b1), h1);
		ck_assert_msg(r == (ssize_t)f->len, "%s it %d: encode = %zd",
			      f->name, it, r);
		memset(h2, FILL, sizeof(h2));
		r = f->dec(h2, b1, f->len);
		ck_assert_msg(r == (ssize_t)f->len,
			      "%s it %d: decode = %zd (%s)",
			      f->name, it, r, uet_wire_strerror(r));
		ck_assert_msg(f->eq(h1, h2), "%s it %d: fields differ",
			      f->name, it);
		r = f->enc(b2, sizeof(b2), h2);
		ck_assert_int_eq(r, (ssize_t)f->len);
		ck_assert_mem_eq(b1, b2, f->len);
		if (f->prologue)
			ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UEPLUS, b1, f->len),
					 (ssize_t)f->len);
	}
}
END_TEST

/*
 * Mutation fuzz: flip 1-3 random bits of a valid encoding.  A decoder
 * must either fail with one of the decode errors or succeed, and a
 * successful decode must re-encode to exactly the input (the decoders
 * accept only canonical encodings).
 */
START_TEST(test_fmt_mutate)
{
	const struct fmt *f = &fmts[_i];
	uint8_t h[256], b[BUF_MAX], out[BUF_MAX];
	unsigned int ok = 0, bad = 0;
	int it, k, nflip;
	uint8_t *in;
	ssize_t r;

	for (it = 0; it < FUZZ_ITERS; it++) {
		memset(h, 0, sizeof(h));
		f->rnd(h);
		ck_assert_int_eq(f->enc(b, sizeof(b), h), (ssize_t)f->len);
		nflip = 1 + (int)(uet_test_rand64() % 3);
		for (k = 0; k < nflip; k++) {
			unsigned int pos = (unsigned int)(uet_test_rand64() %
							  (f->len * 8));

			b[pos / 8] ^= (uint8_t)(1u << (pos % 8));
		}
		in = dup_exact(b, f->len);
		r = f->dec(h, in, f->len);
		if (r == (ssize_t)f->len) {
			ok++;
			ck_assert_int_eq(f->enc(out, sizeof(out), h),
					 (ssize_t)f->len);
			ck_assert_msg(!memcmp(out, in, f->len),
				      "%s it %d: non-canonical decode",
				      f->name, it);
		} else {
			bad++;
			ck_assert_msg(r == UET_WIRE_ERESERVED ||
				      r == UET_WIRE_ETYPE ||
				      r == UET_WIRE_ERANGE,
				      "%s it %d: decode = %zd", f->name, it,
				      r);
		}
		free(in);
	}
	ck_assert_uint_gt(ok, 0);
	ck_assert_uint_gt(bad, 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Prologue and hdr_len                                                */
/* ------------------------------------------------------------------ */

START_TEST(test_prologue)
{
	/* the RUD vector's prologue: 0x1188 = type 2, next_hdr 3, ar */
	const struct uet_pds_prologue known = { 2, 3, 0x08 };
	struct uet_pds_prologue p, bad;
	uint8_t buf[4] = { FILL, FILL, FILL, FILL };
	unsigned int v;

	ck_assert_int_eq(uet_pds_prologue_encode(buf, sizeof(buf), &known),
			 2);
	ck_assert_uint_eq(buf[0], 0x11);
	ck_assert_uint_eq(buf[1], 0x88);
	ck_assert_uint_eq(buf[2], FILL);
	ck_assert_int_eq(uet_pds_prologue_decode(&p, buf, 2), 2);
	ck_assert_uint_eq(p.type, 2);
	ck_assert_uint_eq(p.next_hdr, 3);
	ck_assert_uint_eq(p.flags, 0x08);

	/* every 16-bit value decodes and re-encodes to itself */
	for (v = 0; v <= 0xffff; v++) {
		uint8_t in[2] = { (uint8_t)(v >> 8), (uint8_t)v }, out[2];

		ck_assert_int_eq(uet_pds_prologue_decode(&p, in, 2), 2);
		ck_assert_uint_eq(p.type, v >> 11);
		ck_assert_uint_eq(p.next_hdr, (v >> 7) & 0xf);
		ck_assert_uint_eq(p.flags, v & 0x7f);
		ck_assert_int_eq(uet_pds_prologue_encode(out, 2, &p), 2);
		ck_assert_mem_eq(out, in, 2);
	}

	/* truncation, short output, out-of-width host values */
	ck_assert_int_eq(uet_pds_prologue_decode(&p, buf, 0), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_pds_prologue_decode(&p, buf, 1), UET_WIRE_ETRUNC);
	memset(buf, FILL, sizeof(buf));
	ck_assert_int_eq(uet_pds_prologue_encode(buf, 0, &known),
			 UET_WIRE_ENOBUFS);
	ck_assert_int_eq(uet_pds_prologue_encode(buf, 1, &known),
			 UET_WIRE_ENOBUFS);
	bad = known;
	bad.type = 32;
	ck_assert_int_eq(uet_pds_prologue_encode(buf, 4, &bad),
			 UET_WIRE_ERANGE);
	bad = known;
	bad.next_hdr = 16;
	ck_assert_int_eq(uet_pds_prologue_encode(buf, 4, &bad),
			 UET_WIRE_ERANGE);
	bad = known;
	bad.flags = 0x80;
	ck_assert_int_eq(uet_pds_prologue_encode(buf, 4, &bad),
			 UET_WIRE_ERANGE);
	ck_assert_uint_eq(buf[0], FILL);
	ck_assert_uint_eq(buf[1], FILL);
}
END_TEST

START_TEST(test_hdr_len)
{
	static const ssize_t want[32] = {
		[0] = UET_WIRE_ETYPE,			/* reserved */
		[1] = UET_WIRE_ETYPE,			/* TSS */
		[2] = 12, [3] = 12,			/* RUD, ROD */
		[4] = 6, [5] = 6, [6] = 6,		/* RUDI x2, UUD */
		[7] = 12, [8] = 32, [9] = 40,		/* ACK, _CC, _CCX */
		[10] = 12, [11] = 12, [12] = 28,	/* NACK, CP, NACK_CCX */
		[13] = 28, [14] = 28,			/* RUD_CC, ROD_CC */
	};
	uint8_t b[2];
	unsigned int t, low;

	for (t = 0; t < 32; t++) {
		ssize_t w = t <= 14 ? want[t] : UET_WIRE_ETYPE;

		/* the low 11 bits do not matter */
		for (low = 0; low < 0x800; low += 0x7f) {
			b[0] = (uint8_t)(t << 3 | low >> 8);
			b[1] = (uint8_t)low;
			ck_assert_msg(uet_pds_hdr_len(UET_WIRE_UEPLUS, b, 2) == w,
				      "type %u: %zd, want %zd", t,
				      uet_pds_hdr_len(UET_WIRE_UEPLUS, b, 2), w);
		}
	}
	b[0] = 0x11;
	ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UEPLUS, b, 0), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UEPLUS, b, 1), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_pds_hdr_len(UET_WIRE_UEPLUS, NULL, 0), UET_WIRE_ETRUNC);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Invalid values, per format                                          */
/* ------------------------------------------------------------------ */

START_TEST(test_rud_rod_invalid)
{
	static const unsigned int ok[] = { 2, 3 };
	const struct fmt *f = &fmts[F_RUD_ROD];
	const struct vec *v = find_vec("rud_req");
	const struct vec *vs = find_vec("rod_req_syn");
	const struct uet_pds_rud_rod_req *pb = v->host, *ps = vs->host;
	struct uet_pds_rud_rod_req h, base = *pb, sbase = *ps;
	uint8_t b[BUF_MAX];
	unsigned int i;

	/* decode */
	expect_dec_types("rud_req", ok, 2);
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, i <= UET_HDR_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	memcpy(b, v->bytes, f->len);
	b[8] = b[9] = 0;				/* spdcid 0 */
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "spdcid 0");
	memcpy(b, v->bytes, f->len);
	b[10] = b[11] = 0;				/* dpdcid 0, syn 0 */
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "dpdcid 0");
	memcpy(b, vs->bytes, f->len);
	b[10] = b[11] = 0;			/* syn: pdc_info 0, offset 0 */
	expect_dec(f, b, f->len, (ssize_t)f->len, "syn slot 0");
	memcpy(b, vs->bytes, f->len);
	b[8] = b[9] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "syn spdcid 0");

	/* encode */
	for (i = 0; i < 256; i++) {
		h = base;
		h.type = (uint8_t)i;
		/* 5-bit type of another format: ETYPE; wider: ERANGE */
		expect_enc(f, &h, i == 2 || i == 3 ? (ssize_t)f->len :
			   i < 32 ? UET_WIRE_ETYPE : UET_WIRE_ERANGE, "type");
	}
	for (i = UET_HDR_MAX + 1; i < 256; i++) {
		h = base;
		h.next_hdr = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "next_hdr");
	}
	h = base;
	h.spdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "spdcid 0");
	h = base;
	h.dpdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "dpdcid 0");
	for (i = 1; i < 8; i++) {			/* pdc_info bits 1-7 */
		h = sbase;
		h.pdc_info = (uint8_t)(1u << i);
		expect_enc(f, &h, UET_WIRE_ERANGE, "pdc_info");
	}
	h = sbase;
	h.psn_offset = UET_PSN_OFFSET_MAX + 1;
	expect_enc(f, &h, UET_WIRE_ERANGE, "psn_offset");
	h = sbase;
	h.psn_offset = 0xffff;
	expect_enc(f, &h, UET_WIRE_ERANGE, "psn_offset");
	h = sbase;
	h.spdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "syn spdcid 0");
	/* the unselected overlay members are ignored */
	h = sbase;
	h.dpdcid = 0xffff;
	expect_enc(f, &h, (ssize_t)f->len, "syn ignores dpdcid");
	h = base;
	h.pdc_info = 0xff;
	h.psn_offset = 0xffff;
	expect_enc(f, &h, (ssize_t)f->len, "no syn ignores pdc_info");
}
END_TEST

START_TEST(test_rud_rod_cc_invalid)
{
	static const unsigned int ok[] = { 13, 14 };
	const struct fmt *f = &fmts[F_RUD_ROD_CC];
	const struct vec *v = find_vec("rud_cc_req");
	struct uet_pds_rud_rod_cc_req h, base =
		*(const struct uet_pds_rud_rod_cc_req *)v->host;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("rud_cc_req", ok, 2);
	expect_dec_types("rod_cc_req_syn", ok, 2);
	for (i = UET_HDR_MAX + 1; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, UET_WIRE_ERANGE, "next_hdr");
	}
	memcpy(b, v->bytes, f->len);
	b[8] = b[9] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "spdcid 0");
	memcpy(b, v->bytes, f->len);
	b[10] = b[11] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "dpdcid 0");

	for (i = 0; i < 256; i++) {
		h = base;
		h.req.type = (uint8_t)i;
		expect_enc(f, &h, i == 13 || i == 14 ? (ssize_t)f->len :
			   i < 32 ? UET_WIRE_ETYPE : UET_WIRE_ERANGE, "type");
	}
	h = base;
	h.req.next_hdr = UET_HDR_MAX + 1;
	expect_enc(f, &h, UET_WIRE_ERANGE, "next_hdr");
	h = base;
	h.req.spdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "spdcid 0");
	h = base;
	h.req.dpdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "dpdcid 0");
	h = base;
	h.req.syn = true;
	h.req.pdc_info = UET_PDC_INFO_RSVD_MASK;
	expect_enc(f, &h, UET_WIRE_ERANGE, "pdc_info");
	h.req.pdc_info = 0;
	h.req.psn_offset = 0x1000;
	expect_enc(f, &h, UET_WIRE_ERANGE, "psn_offset");
}
END_TEST

START_TEST(test_rudi_invalid)
{
	static const unsigned int ok[] = { 4, 5 };
	const struct fmt *f = &fmts[F_RUDI];
	const struct vec *v = find_vec("rudi_resp");
	struct uet_pds_rudi h, base = *(const struct uet_pds_rudi *)v->host;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("rudi_req", ok, 2);
	/* rudi_resp has m set: as a request (type 4) m is reserved */
	memcpy(b, v->bytes, f->len);
	set_type(b, UET_PDS_TYPE_RUDI_REQ);
	expect_dec(f, b, f->len, UET_WIRE_ERESERVED, "m in request");
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, i <= UET_HDR_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}

	for (i = 0; i < 256; i++) {
		h = base;
		h.type = (uint8_t)i;
		h.m = false;
		expect_enc(f, &h, i == 4 || i == 5 ? (ssize_t)f->len :
			   i < 32 ? UET_WIRE_ETYPE : UET_WIRE_ERANGE, "type");
	}
	h = base;
	h.type = UET_PDS_TYPE_RUDI_REQ;
	expect_enc(f, &h, UET_WIRE_ERANGE, "m in request");
	for (i = UET_HDR_MAX + 1; i < 256; i++) {
		h = base;
		h.next_hdr = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "next_hdr");
	}
}
END_TEST

START_TEST(test_uud_invalid)
{
	static const unsigned int ok[] = { 6 };
	const struct fmt *f = &fmts[F_UUD];
	const struct vec *v = find_vec("uud_req");
	struct uet_pds_uud_req h, base = *(const struct uet_pds_uud_req *)
					 v->host;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("uud_req", ok, 1);
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, i <= UET_HDR_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	for (i = UET_HDR_MAX + 1; i < 256; i++) {
		h = base;
		h.next_hdr = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "next_hdr");
	}
}
END_TEST

static bool ack_nh_ok(unsigned int nh)
{
	return nh == UET_HDR_NONE || nh == UET_HDR_RESPONSE ||
	       nh == UET_HDR_RESPONSE_DATA || nh == UET_HDR_RESPONSE_DATA_SMALL;
}

/* The 12 ACK bytes of ACK, ACK_CC and ACK_CCX vectors. */
static void check_ack_part(int fi, const char *vname,
			   const struct uet_pds_ack *ack_in_host,
			   void *host_copy, struct uet_pds_ack *ack_of_copy)
{
	const struct fmt *f = &fmts[fi];
	const struct vec *v = find_vec(vname);
	uint8_t b[BUF_MAX];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, ack_nh_ok(i) ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	memcpy(b, v->bytes, f->len);
	b[8] = b[9] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "spdcid 0");
	memcpy(b, v->bytes, f->len);
	b[10] = b[11] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "dpdcid 0");
	/* all four req values decode */
	for (i = 0; i < 4; i++) {
		memcpy(b, v->bytes, f->len);
		b[1] = (uint8_t)((b[1] & ~0x06) | i << 1);
		expect_dec(f, b, f->len, (ssize_t)f->len, "req");
	}

	for (i = 0; i < 256; i++) {
		*ack_of_copy = *ack_in_host;
		ack_of_copy->next_hdr = (uint8_t)i;
		expect_enc(f, host_copy, ack_nh_ok(i) ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	for (i = 0; i < 256; i++) {
		*ack_of_copy = *ack_in_host;
		ack_of_copy->req = (uint8_t)i;
		expect_enc(f, host_copy, i <= 3 ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "req");
	}
	*ack_of_copy = *ack_in_host;
	ack_of_copy->spdcid = 0;
	expect_enc(f, host_copy, UET_WIRE_ERANGE, "spdcid 0");
	*ack_of_copy = *ack_in_host;
	ack_of_copy->dpdcid = 0;
	expect_enc(f, host_copy, UET_WIRE_ERANGE, "dpdcid 0");
	*ack_of_copy = *ack_in_host;
}

START_TEST(test_ack_invalid)
{
	static const unsigned int ok[] = { 7 };
	const struct vec *v = find_vec("ack_write");
	const struct vec *vp = find_vec("ack_probe");
	struct uet_pds_ack h = *(const struct uet_pds_ack *)v->host;
	struct uet_pds_ack d;
	uint8_t buf[BUF_MAX];

	expect_dec_types("ack_write", ok, 1);
	check_ack_part(F_ACK, "ack_write", v->host, &h, &h);

	/* p = 1: probe_opaque written, ack_psn_offset ignored and zeroed */
	h = *(const struct uet_pds_ack *)vp->host;
	h.ack_psn_offset = -5;
	ck_assert_int_eq(uet_pds_ack_encode(UET_WIRE_UEPLUS, buf, sizeof(buf), &h), 12);
	ck_assert_mem_eq(buf, vp->bytes, 12);
	memset(&d, 0xff, sizeof(d));
	ck_assert_int_eq(uet_pds_ack_decode(UET_WIRE_UEPLUS, &d, buf, 12), 12);
	ck_assert_int_eq(d.ack_psn_offset, 0);
	ck_assert_uint_eq(d.probe_opaque, 0xabcd);
	/* p = 0: the reverse */
	h = *(const struct uet_pds_ack *)find_vec("ack_neg_offset")->host;
	h.probe_opaque = 0x1234;
	ck_assert_int_eq(uet_pds_ack_encode(UET_WIRE_UEPLUS, buf, sizeof(buf), &h), 12);
	ck_assert_mem_eq(buf, find_vec("ack_neg_offset")->bytes, 12);
	ck_assert_int_eq(uet_pds_ack_decode(UET_WIRE_UEPLUS, &d, buf, 12), 12);
	ck_assert_uint_eq(d.probe_opaque, 0);
	ck_assert_int_eq(d.ack_psn_offset, -2);
}
END_TEST

START_TEST(test_ack_cc_invalid)
{
	static const unsigned int ok[] = { 8 };
	const struct fmt *f = &fmts[F_ACK_CC];
	const struct vec *v = find_vec("ack_cc");
	const struct uet_pds_ack_cc *base = v->host;
	struct uet_pds_ack_cc h = *base;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("ack_cc", ok, 1);
	check_ack_part(F_ACK_CC, "ack_cc", &base->ack, &h, &h.ack);
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		b[12] = (uint8_t)(i << 4);
		expect_dec(f, b, f->len, i <= 1 ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "cc_type");
	}
	for (i = 0; i < 256; i++) {
		h = *base;
		h.cc_type = (uint8_t)i;
		expect_enc(f, &h, i <= 1 ? (ssize_t)f->len : UET_WIRE_ERANGE,
			   "cc_type");
	}
}
END_TEST

START_TEST(test_ack_ccx_invalid)
{
	static const unsigned int ok[] = { 9 };
	const struct fmt *f = &fmts[F_ACK_CCX];
	const struct vec *v = find_vec("ack_ccx");
	const struct uet_pds_ack_ccx *base = v->host;
	struct uet_pds_ack_ccx h = *base;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("ack_ccx", ok, 1);
	check_ack_part(F_ACK_CCX, "ack_ccx", &base->ack, &h, &h.ack);
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		b[12] = (uint8_t)(i << 4);
		expect_dec(f, b, f->len, i <= 1 ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "cc_type");
	}
	for (i = 0; i < 256; i++) {
		h = *base;
		h.cc_type = (uint8_t)i;
		expect_enc(f, &h, i <= 1 ? (ssize_t)f->len : UET_WIRE_ERANGE,
			   "cc_type");
	}
}
END_TEST

/* The 12 NACK bytes of NACK and NACK_CCX vectors. */
static void check_nack_part(int fi, const char *vname,
			    const struct uet_pds_nack *nack_in_host,
			    void *host_copy, struct uet_pds_nack *nack_of_copy)
{
	const struct fmt *f = &fmts[fi];
	const struct vec *v = find_vec(vname);
	uint8_t b[BUF_MAX];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, i == UET_HDR_NONE ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	for (i = 0; i < 256; i++) {
		memcpy(b, v->bytes, f->len);
		b[2] = (uint8_t)i;
		expect_dec(f, b, f->len, i <= UET_NACK_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "nack_code");
	}
	/* PDCIDs 0 are allowed */
	memcpy(b, v->bytes, f->len);
	memset(b + 8, 0, 4);
	expect_dec(f, b, f->len, (ssize_t)f->len, "pdcids 0");

	/*
	 * pds-formats.md 3.9 field table: spdcid "0 if nt=1 or PDC
	 * failure", dpdcid "0 if nt=1".  nt is byte 1 bit 3 (0x08); with
	 * it set, a non-zero bit anywhere in bytes 8-11 is refused.
	 */
	for (i = 0; i < 32; i++) {
		memcpy(b, v->bytes, f->len);
		b[1] |= 0x08;
		memset(b + 8, 0, 4);
		b[8 + i / 8] = (uint8_t)(1u << (i % 8));
		expect_dec(f, b, f->len, UET_WIRE_ERANGE, "nt=1, pdcid bit");
	}
	memcpy(b, v->bytes, f->len);
	b[1] |= 0x08;
	memset(b + 8, 0, 4);
	expect_dec(f, b, f->len, (ssize_t)f->len, "nt=1, pdcids 0");
	*nack_of_copy = *nack_in_host;
	nack_of_copy->nt = true;
	nack_of_copy->spdcid = 1;
	nack_of_copy->dpdcid = 0;
	expect_enc(f, host_copy, UET_WIRE_ERANGE, "nt=1, spdcid 1");
	nack_of_copy->spdcid = 0;
	nack_of_copy->dpdcid = 0x8000;
	expect_enc(f, host_copy, UET_WIRE_ERANGE, "nt=1, dpdcid 0x8000");
	nack_of_copy->dpdcid = 0;
	expect_enc(f, host_copy, (ssize_t)f->len, "nt=1, pdcids 0");

	for (i = 0; i < 256; i++) {
		*nack_of_copy = *nack_in_host;
		nack_of_copy->next_hdr = (uint8_t)i;
		expect_enc(f, host_copy, i == UET_HDR_NONE ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "next_hdr");
	}
	for (i = 0; i < 256; i++) {
		*nack_of_copy = *nack_in_host;
		nack_of_copy->nack_code = (uint8_t)i;
		expect_enc(f, host_copy, i <= UET_NACK_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "nack_code");
	}
	*nack_of_copy = *nack_in_host;
}

START_TEST(test_nack_invalid)
{
	static const unsigned int ok[] = { 10 };
	const struct vec *v = find_vec("nack_psn_gap");
	struct uet_pds_nack h = *(const struct uet_pds_nack *)v->host;

	expect_dec_types("nack_psn_gap", ok, 1);
	check_nack_part(F_NACK, "nack_psn_gap", v->host, &h, &h);
}
END_TEST

START_TEST(test_nack_ccx_invalid)
{
	static const unsigned int ok[] = { 12 };
	const struct vec *v = find_vec("nack_ccx");
	const struct uet_pds_nack_ccx *base = v->host;
	struct uet_pds_nack_ccx h = *base;

	expect_dec_types("nack_ccx", ok, 1);
	check_nack_part(F_NACK_CCX, "nack_ccx", &base->nack, &h, &h.nack);
}
END_TEST

START_TEST(test_cp_invalid)
{
	static const unsigned int ok[] = { 11 };
	const struct fmt *f = &fmts[F_CP];
	const struct vec *v = find_vec("cp_probe");
	const struct vec *vs = find_vec("cp_negotiation_syn");
	struct uet_pds_cp h, base = *(const struct uet_pds_cp *)v->host;
	struct uet_pds_cp sbase = *(const struct uet_pds_cp *)vs->host;
	uint8_t b[BUF_MAX];
	unsigned int i;

	expect_dec_types("cp_probe", ok, 1);
	for (i = 0; i < 16; i++) {
		memcpy(b, v->bytes, f->len);
		set_next_hdr(b, i);
		expect_dec(f, b, f->len, i <= UET_CTL_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "ctl_type");
	}
	memcpy(b, v->bytes, f->len);
	b[8] = b[9] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "spdcid 0");
	memcpy(b, vs->bytes, f->len);
	b[8] = b[9] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "syn spdcid 0");
	/* syn = 0: dpdcid != 0, as in a RUD/ROD request */
	memcpy(b, v->bytes, f->len);
	b[10] = b[11] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "dpdcid 0");
	memcpy(b, find_vec("cp_close_req")->bytes, f->len);
	b[11] = 0;
	expect_dec(f, b, f->len, UET_WIRE_ERANGE, "close_req dpdcid 0");
	memcpy(b, v->bytes, f->len);
	b[10] = 0;
	b[11] = 0x01;
	expect_dec(f, b, f->len, (ssize_t)f->len, "dpdcid 1");
	/* syn = 1: the slot is {pdc_info, psn_offset}; all zeros is valid */
	memcpy(b, vs->bytes, f->len);
	b[10] = b[11] = 0;
	expect_dec(f, b, f->len, (ssize_t)f->len, "syn slot 0");

	for (i = 0; i < 256; i++) {
		h = base;
		h.ctl_type = (uint8_t)i;
		expect_enc(f, &h, i <= UET_CTL_MAX ? (ssize_t)f->len :
			   UET_WIRE_ERANGE, "ctl_type");
	}
	h = base;
	h.spdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "spdcid 0");
	h = base;
	h.dpdcid = 0;
	expect_enc(f, &h, UET_WIRE_ERANGE, "dpdcid 0");
	h = base;
	h.dpdcid = 1;
	expect_enc(f, &h, (ssize_t)f->len, "dpdcid 1");
	/* syn = 1: dpdcid is not on the wire and is ignored, even if 0 */
	h = sbase;
	h.dpdcid = 0;
	expect_enc(f, &h, (ssize_t)f->len, "syn ignores dpdcid 0");
	for (i = 1; i < 8; i++) {
		h = sbase;
		h.pdc_info = (uint8_t)(1u << i);
		expect_enc(f, &h, UET_WIRE_ERANGE, "pdc_info");
	}
	h = sbase;
	h.psn_offset = UET_PSN_OFFSET_MAX + 1;
	expect_enc(f, &h, UET_WIRE_ERANGE, "psn_offset");
	h = sbase;
	h.pdc_info = UET_PDC_INFO_USE_RSV_PDC;
	expect_enc(f, &h, (ssize_t)f->len, "use_rsv_pdc");
}
END_TEST

START_TEST(test_dsr_invalid)
{
	const struct fmt *f = &fmts[F_DSR];
	const struct vec *v = find_vec("dsr_ok");
	struct uet_pds_default_ses_rsp h, base =
		*(const struct uet_pds_default_ses_rsp *)v->host;
	uint8_t b[BUF_MAX];
	unsigned int i;

	for (i = 0; i < 64; i++) {
		memcpy(b, v->bytes, f->len);
		b[0] = (uint8_t)i;
		expect_dec(f, b, f->len,
			   i == UET_DEFAULT_RESPONSE || i == UET_NO_RESPONSE ?
			   (ssize_t)f->len : UET_WIRE_ETYPE, "opcode");
		memcpy(b, v->bytes, f->len);
		b[1] = (uint8_t)i;
		expect_dec(f, b, f->len, i == UET_RC_NULL || i == UET_RC_OK ?
			   (ssize_t)f->len : UET_WIRE_ERANGE, "return_code");
	}
	/* message_id 0 and job_id 0 are allowed */
	memcpy(b, v->bytes, f->len);
	b[2] = b[3] = b[5] = b[6] = b[7] = 0;
	expect_dec(f, b, f->len, (ssize_t)f->len, "zero ids");

	for (i = 0; i < 256; i++) {
		h = base;
		h.opcode = (uint8_t)i;
		/* 6-bit opcode of another format: ETYPE; wider: ERANGE */
		expect_enc(f, &h,
			   i == UET_DEFAULT_RESPONSE || i == UET_NO_RESPONSE ?
			   (ssize_t)f->len : i < 64 ? UET_WIRE_ETYPE :
			   UET_WIRE_ERANGE, "opcode");
		h = base;
		h.return_code = (uint8_t)i;
		expect_enc(f, &h, i == UET_RC_NULL || i == UET_RC_OK ?
			   (ssize_t)f->len : UET_WIRE_ERANGE, "return_code");
		if (!i)
			continue;
		h = base;
		h.list = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "list");
		h = base;
		h.version = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "version");
		h = base;
		h.ri_generation = (uint8_t)i;
		expect_enc(f, &h, UET_WIRE_ERANGE, "ri_generation");
	}
	h = base;
	h.job_id = UET_JOB_ID_MAX;
	expect_enc(f, &h, (ssize_t)f->len, "job_id max");
	h.job_id = UET_JOB_ID_MAX + 1;
	expect_enc(f, &h, UET_WIRE_ERANGE, "job_id");
	h.job_id = 0xffffffff;
	expect_enc(f, &h, UET_WIRE_ERANGE, "job_id");
}
END_TEST

/* The prologue's type for dispatch (bits 7:3 of byte 0). */
START_TEST(test_peek_type)
{
	struct uet_pds_prologue p;
	uint8_t buf[2];
	unsigned int t;

	for (t = 0; t < 32; t++) {
		memset(&p, 0, sizeof(p));
		p.type = (uint8_t)t;
		p.next_hdr = 0xf;
		p.flags = 0x7;
		buf[0] = buf[1] = 0;
		if (uet_pds_prologue_encode(buf, sizeof(buf), &p) < 0) {
			buf[0] = (uint8_t)(t << 3 | 0x7);
			buf[1] = 0xff;
		}
		ck_assert_int_eq(uet_pds_peek_type(buf, sizeof(buf)), (int)t);
	}
	ck_assert_int_eq(uet_pds_peek_type(buf, 1), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_pds_peek_type(NULL, 2), UET_WIRE_ETRUNC);
}
END_TEST

/* The entropy header has no invalid value besides its reserved bytes. */
START_TEST(test_entropy_all)
{
	const struct fmt *f = &fmts[F_ENTROPY];
	struct uet_pds_entropy h;
	uint8_t b[4];
	unsigned int e;

	for (e = 0; e <= 0xffff; e++) {
		h.entropy = (uint16_t)e;
		ck_assert_int_eq(f->enc(b, sizeof(b), &h), 4);
		ck_assert_uint_eq(b[0], e >> 8);
		ck_assert_uint_eq(b[1], e & 0xff);
		ck_assert_uint_eq(b[2], 0);
		ck_assert_uint_eq(b[3], 0);
	}
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *pds_wire_suite(void)
{
	Suite *s = suite_create("pds_wire");
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_loop_test(tc, test_vec_encode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_decode, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_truncated, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_enobufs, 0, NVECS);
	tcase_add_loop_test(tc, test_vec_reserved, 0, NVECS);
	suite_add_tcase(s, tc);

	tc = tcase_create("random");
	tcase_add_loop_test(tc, test_fmt_roundtrip, 0, NFMTS);
	tcase_add_loop_test(tc, test_fmt_mutate, 0, NFMTS);
	suite_add_tcase(s, tc);

	tc = tcase_create("prologue");
	tcase_add_test(tc, test_prologue);
	tcase_add_test(tc, test_hdr_len);
	suite_add_tcase(s, tc);

	tc = tcase_create("invalid");
	tcase_add_test(tc, test_rud_rod_invalid);
	tcase_add_test(tc, test_rud_rod_cc_invalid);
	tcase_add_test(tc, test_rudi_invalid);
	tcase_add_test(tc, test_uud_invalid);
	tcase_add_test(tc, test_ack_invalid);
	tcase_add_test(tc, test_ack_cc_invalid);
	tcase_add_test(tc, test_ack_ccx_invalid);
	tcase_add_test(tc, test_nack_invalid);
	tcase_add_test(tc, test_nack_ccx_invalid);
	tcase_add_test(tc, test_cp_invalid);
	tcase_add_test(tc, test_dsr_invalid);
	tcase_add_test(tc, test_entropy_all);
	tcase_add_test(tc, test_peek_type);
	suite_add_tcase(s, tc);

	return s;
}

UET_TEST_MAIN(pds_wire_suite)
