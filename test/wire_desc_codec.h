/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The codec of each format of the wire description (uet_wire_desc.h),
 * by id: for test/check_wire_desc.c and test/uet_pcap_fields.c.
 */
#ifndef WIRE_DESC_CODEC_H
#define WIRE_DESC_CODEC_H

#include <string.h>

#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_tss_wire.h"
#include "uet_wire_desc.h"

union hdr {
	struct uet_pds_rud_rod_req rud;
	struct uet_pds_rud_rod_cc_req rudcc;
	struct uet_pds_rudi rudi;
	struct uet_pds_uud_req uud;
	struct uet_pds_ack ack;
	struct uet_pds_ack_cc ackcc;
	struct uet_pds_ack_ccx ackccx;
	struct uet_pds_nack nack;
	struct uet_pds_nack_ccx nackccx;
	struct uet_pds_cp cp;
	struct uet_pds_default_ses_rsp dsr;
	struct uet_ses_std_som1 som1;
	struct uet_ses_std_som0 som0;
	struct uet_ses_small_msg sm;
	struct uet_ses_opt_nonmatch onm;
	struct uet_ses_defer_send def;
	struct uet_ses_rtr rtr;
	struct uet_ses_rsp rsp;
	struct uet_ses_rsp_data rspd;
	struct uet_ses_opt_rsp_data orsp;
	struct uet_ses_atomic_ext ax;
	struct uet_ses_cas_ext cx;
	struct uet_ses_rdzv_ext rx;
	struct uet_pds_prologue pro;
	struct uet_tss_hdr tss;
	uint32_t dci;
};

/* Decode format id with its codec: the length or a negative error. */
static inline ssize_t wd_decode(enum uet_wire_prof wp, unsigned int id,
				 union hdr *h, const uint8_t *b, size_t len)
{
	memset(h, 0, sizeof(*h));
	switch (id) {
	case UET_WD_RUD_ROD_REQ:
		return uet_pds_rud_rod_req_decode(wp, &h->rud, b, len);
	case UET_WD_RUD_ROD_CC_REQ:
		return uet_pds_rud_rod_cc_req_decode(wp, &h->rudcc, b, len);
	case UET_WD_RUDI: return uet_pds_rudi_decode(wp, &h->rudi, b, len);
	case UET_WD_UUD_REQ: return uet_pds_uud_req_decode(wp, &h->uud, b, len);
	case UET_WD_ACK: return uet_pds_ack_decode(wp, &h->ack, b, len);
	case UET_WD_ACK_CC: return uet_pds_ack_cc_decode(wp, &h->ackcc, b, len);
	case UET_WD_ACK_CCX:
		return uet_pds_ack_ccx_decode(wp, &h->ackccx, b, len);
	case UET_WD_NACK: return uet_pds_nack_decode(wp, &h->nack, b, len);
	case UET_WD_NACK_CCX:
		return uet_pds_nack_ccx_decode(wp, &h->nackccx, b, len);
	case UET_WD_CP: return uet_pds_cp_decode(wp, &h->cp, b, len);
	case UET_WD_DEFAULT_SES_RSP:
		return uet_pds_default_ses_rsp_decode(wp, &h->dsr, b, len);
	case UET_WD_STD_SOM1: return uet_ses_std_som1_decode(wp, &h->som1, b, len);
	case UET_WD_STD_SOM0: return uet_ses_std_som0_decode(wp, &h->som0, b, len);
	case UET_WD_SMALL_MSG: return uet_ses_small_msg_decode(wp, &h->sm, b, len);
	case UET_WD_OPT_NONMATCH:
		return uet_ses_opt_nonmatch_decode(wp, &h->onm, b, len);
	case UET_WD_DEFER_SEND:
		return uet_ses_defer_send_decode(wp, &h->def, b, len);
	case UET_WD_RTR: return uet_ses_rtr_decode(wp, &h->rtr, b, len);
	case UET_WD_RSP: return uet_ses_rsp_decode(wp, &h->rsp, b, len);
	case UET_WD_RSP_DATA: return uet_ses_rsp_data_decode(wp, &h->rspd, b, len);
	case UET_WD_OPT_RSP_DATA:
		return uet_ses_opt_rsp_data_decode(wp, &h->orsp, b, len);
	case UET_WD_ATOMIC_EXT:
		return uet_ses_atomic_ext_decode(wp, &h->ax, b, len);
	case UET_WD_CAS_EXT: return uet_ses_cas_ext_decode(wp, &h->cx, b, len);
	case UET_WD_RDZV_EXT: return uet_ses_rdzv_ext_decode(wp, &h->rx, b, len);
	case UET_WD_TSS_PROLOGUE:
		return uet_pds_prologue_decode(&h->pro, b, len);
	case UET_WD_TSS_HDR: return uet_tss_hdr_decode(&h->tss, b, len);
	case UET_WD_TSS_DCI: return uet_tss_dci_decode(&h->dci, b, len);
	default: return UET_WIRE_ETYPE;
	}
}

static inline ssize_t wd_encode(enum uet_wire_prof wp, unsigned int id,
				 const union hdr *h, uint8_t *b, size_t len)
{
	switch (id) {
	case UET_WD_RUD_ROD_REQ:
		return uet_pds_rud_rod_req_encode(wp, b, len, &h->rud);
	case UET_WD_RUD_ROD_CC_REQ:
		return uet_pds_rud_rod_cc_req_encode(wp, b, len, &h->rudcc);
	case UET_WD_RUDI: return uet_pds_rudi_encode(wp, b, len, &h->rudi);
	case UET_WD_UUD_REQ: return uet_pds_uud_req_encode(wp, b, len, &h->uud);
	case UET_WD_ACK: return uet_pds_ack_encode(wp, b, len, &h->ack);
	case UET_WD_ACK_CC: return uet_pds_ack_cc_encode(wp, b, len, &h->ackcc);
	case UET_WD_ACK_CCX:
		return uet_pds_ack_ccx_encode(wp, b, len, &h->ackccx);
	case UET_WD_NACK: return uet_pds_nack_encode(wp, b, len, &h->nack);
	case UET_WD_NACK_CCX:
		return uet_pds_nack_ccx_encode(wp, b, len, &h->nackccx);
	case UET_WD_CP: return uet_pds_cp_encode(wp, b, len, &h->cp);
	case UET_WD_DEFAULT_SES_RSP:
		return uet_pds_default_ses_rsp_encode(wp, b, len, &h->dsr);
	case UET_WD_STD_SOM1: return uet_ses_std_som1_encode(wp, b, len, &h->som1);
	case UET_WD_STD_SOM0: return uet_ses_std_som0_encode(wp, b, len, &h->som0);
	case UET_WD_SMALL_MSG: return uet_ses_small_msg_encode(wp, b, len, &h->sm);
	case UET_WD_OPT_NONMATCH:
		return uet_ses_opt_nonmatch_encode(wp, b, len, &h->onm);
	case UET_WD_DEFER_SEND:
		return uet_ses_defer_send_encode(wp, b, len, &h->def);
	case UET_WD_RTR: return uet_ses_rtr_encode(wp, b, len, &h->rtr);
	case UET_WD_RSP: return uet_ses_rsp_encode(wp, b, len, &h->rsp);
	case UET_WD_RSP_DATA: return uet_ses_rsp_data_encode(wp, b, len, &h->rspd);
	case UET_WD_OPT_RSP_DATA:
		return uet_ses_opt_rsp_data_encode(wp, b, len, &h->orsp);
	case UET_WD_ATOMIC_EXT:
		return uet_ses_atomic_ext_encode(wp, b, len, &h->ax);
	case UET_WD_CAS_EXT: return uet_ses_cas_ext_encode(wp, b, len, &h->cx);
	case UET_WD_RDZV_EXT: return uet_ses_rdzv_ext_encode(wp, b, len, &h->rx);
	case UET_WD_TSS_PROLOGUE:
		return uet_pds_prologue_encode(b, len, &h->pro);
	case UET_WD_TSS_HDR: return uet_tss_hdr_encode(b, len, &h->tss);
	case UET_WD_TSS_DCI: return uet_tss_dci_encode(b, len, h->dci);
	default: return UET_WIRE_ETYPE;
	}
}

#endif /* WIRE_DESC_CODEC_H */
