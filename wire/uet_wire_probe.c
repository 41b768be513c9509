/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether a whole datagram parses in a wire profile: its PDS header by
 * type, then the SES header that next_hdr names (and a rendezvous
 * extension), and the payload after them is as long as they say.  The software NIC asks it of a datagram its own profile
 * refused, to tell a peer of the other profile from garbage
 * (docs/conformance.md, "Mismatches").
 */
#include "uet_pds_wire.h"
#include "uet_ses_wire.h"

/*
 * Whether a one-packet request of opcode op must carry exactly its
 * request_length as payload: NO_OP, sends and writes (a READ carries
 * none, atomics their operands, a rendezvous send its eager part).
 */
static bool whole_payload(uint8_t op)
{
	return op == UET_NO_OP || op == UET_SEND || op == UET_TAGGED_SEND ||
	       op == UET_DATAGRAM_SEND || op == UET_WRITE;
}

/* The SES header(s) at buf: true when they decode in wp and the
 * payload after them is as long as they say. */
static bool ses_parses(enum uet_wire_prof wp, unsigned int next_hdr,
		       const uint8_t *buf, size_t len)
{
	union {
		struct uet_ses_std_som1 s1;
		struct uet_ses_std_som0 s0;
		struct uet_ses_small_msg sm;
		struct uet_ses_opt_nonmatch on;
		struct uet_ses_defer_send ds;
		struct uet_ses_rtr rtr;
		struct uet_ses_rsp rsp;
		struct uet_ses_rsp_data rd;
		struct uet_ses_opt_rsp_data ord;
		struct uet_pds_default_ses_rsp dsr;
		struct uet_ses_rdzv_ext rx;
	} u;
	ssize_t n;

	if (next_hdr == UET_HDR_NONE)
		return true;
	switch (uet_ses_request_format(wp, next_hdr, buf, len)) {
	case UET_SES_FMT_STD_SOM1:
		n = uet_ses_std_som1_decode(wp, &u.s1, buf, len);
		if (n <= 0)
			return false;
		if (u.s1.ctl.opcode == UET_RENDEZVOUS_SEND ||
		    u.s1.ctl.opcode == UET_RENDEZVOUS_TSEND)
			return uet_ses_rdzv_ext_decode(wp, &u.rx, buf + n,
						       len - (size_t)n) > 0;
		if (!whole_payload(u.s1.ctl.opcode))
			return true;
		/* one packet: all of it; the first of several: a part */
		return u.s1.ctl.eom ? len - (size_t)n == u.s1.request_length :
				      len - (size_t)n < u.s1.request_length;
	case UET_SES_FMT_STD_SOM0:
		n = uet_ses_std_som0_decode(wp, &u.s0, buf, len);
		return n > 0 && len - (size_t)n == u.s0.payload_length;
	case UET_SES_FMT_SMALL_MSG:
		n = uet_ses_small_msg_decode(wp, &u.sm, buf, len);
		return n > 0 && (!whole_payload(u.sm.ctl.opcode) ||
				 len - (size_t)n == u.sm.request_length);
	case UET_SES_FMT_OPT_NONMATCH:
		n = uet_ses_opt_nonmatch_decode(wp, &u.on, buf, len);
		return n > 0 && (!whole_payload(u.on.ctl.opcode) ||
				 len - (size_t)n == u.on.request_length);
	case UET_SES_FMT_DEFER_SEND:
		return uet_ses_defer_send_decode(wp, &u.ds, buf, len) > 0;
	case UET_SES_FMT_RTR:
		return uet_ses_rtr_decode(wp, &u.rtr, buf, len) > 0;
	/* a response without data is all there is */
	case UET_SES_FMT_RSP:
		return uet_ses_rsp_decode(wp, &u.rsp, buf, len) == (ssize_t)len;
	case UET_SES_FMT_RSP_DATA:
		n = uet_ses_rsp_data_decode(wp, &u.rd, buf, len);
		return n > 0 && len - (size_t)n == u.rd.payload_length;
	case UET_SES_FMT_OPT_RSP_DATA:
		n = uet_ses_opt_rsp_data_decode(wp, &u.ord, buf, len);
		return n > 0 && len - (size_t)n == u.ord.payload_length;
	case UET_SES_FMT_DEFAULT_RSP:
		return uet_pds_default_ses_rsp_decode(wp, &u.dsr, buf,
						      len) == (ssize_t)len;
	default:
		return false;
	}
}

bool uet_wire_datagram_parses(enum uet_wire_prof wp, const uint8_t *buf,
			      size_t len)
{
	union {
		struct uet_pds_rud_rod_req req;
		struct uet_pds_rud_rod_cc_req cc;
		struct uet_pds_rudi rudi;
		struct uet_pds_uud_req uud;
		struct uet_pds_ack ack;
		struct uet_pds_ack_cc acc;
		struct uet_pds_ack_ccx accx;
		struct uet_pds_nack nack;
		struct uet_pds_nack_ccx nccx;
		struct uet_pds_cp cp;
	} u;
	unsigned int next_hdr;
	ssize_t n;

	switch (uet_pds_peek_type(buf, len)) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		n = uet_pds_rud_rod_req_decode(wp, &u.req, buf, len);
		next_hdr = u.req.next_hdr;
		break;
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		n = uet_pds_rud_rod_cc_req_decode(wp, &u.cc, buf, len);
		next_hdr = u.cc.req.next_hdr;
		break;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		n = uet_pds_rudi_decode(wp, &u.rudi, buf, len);
		next_hdr = u.rudi.next_hdr;
		break;
	case UET_PDS_TYPE_UUD_REQ:
		n = uet_pds_uud_req_decode(wp, &u.uud, buf, len);
		next_hdr = u.uud.next_hdr;
		break;
	case UET_PDS_TYPE_ACK:
		n = uet_pds_ack_decode(wp, &u.ack, buf, len);
		next_hdr = u.ack.next_hdr;
		break;
	case UET_PDS_TYPE_ACK_CC:
		n = uet_pds_ack_cc_decode(wp, &u.acc, buf, len);
		next_hdr = u.acc.ack.next_hdr;
		break;
	case UET_PDS_TYPE_ACK_CCX:
		n = uet_pds_ack_ccx_decode(wp, &u.accx, buf, len);
		next_hdr = u.accx.ack.next_hdr;
		break;
	case UET_PDS_TYPE_NACK:
		n = uet_pds_nack_decode(wp, &u.nack, buf, len);
		next_hdr = UET_HDR_NONE;
		break;
	case UET_PDS_TYPE_NACK_CCX:
		n = uet_pds_nack_ccx_decode(wp, &u.nccx, buf, len);
		next_hdr = UET_HDR_NONE;
		break;
	case UET_PDS_TYPE_CP:
		n = uet_pds_cp_decode(wp, &u.cp, buf, len);
		next_hdr = UET_HDR_NONE;
		break;
	default:
		return false;
	}
	if (n <= 0)
		return false;
	return ses_parses(wp, next_hdr, buf + n, len - (size_t)n);
}
