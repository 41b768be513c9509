/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Receive path: datagram dispatch and validation, and the receive
 * direction of a PDC.
 *
 * Every datagram is decoded with the wire codecs before anything else
 * is looked at; whatever fails (short, reserved bits, bad type, PDCID 0,
 * an unknown control type, a response longer than UET_PDS_RSP_MAX, an
 * unsupported source address) is counted in stats.malformed and dropped.
 *
 * Receive state of a PDC: win is a uet_psn_window whose base is the
 * cumulative point + 1 (cack_psn = base - 1) and whose marks are the PSNs
 * received beyond it.  A request is
 *   new        base <= psn < base + window and not marked: delivered to SES
 *              (RUD at once; ROD only in order, out-of-order ones copied
 *              to a hold buffer and delivered when the gap fills);
 *   duplicate  marked, or in the window below base: never delivered
 *              again; answered with an ACK that carries the retained SES
 *              response of that PSN or the Default SES Response;
 *   out of window  NACK PSN_OOR_WINDOW.
 * ACKs: immediately when the request has ar, carries back an SES
 * response, arrived out of order or leaves holes (then ACK_CC with the
 * SACK bitmap of the 64 PSNs after cack_psn), or cfg.ack_coalesce
 * requests are unacknowledged; otherwise delayed: sent with the next
 * data to the peer once it is due (uet_pdc_ack_rides), else after
 * cfg.ack_delay_ns.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_log.h"
#include "uet_pds_internal.h"

/* ---- receive state ---- */

int uet_pdc_rx_init(struct uet_pds *pds, struct uet_pdc *pdc)
{
	int ret;

	ret = uet_psn_window_init(&pdc->win, pdc->start_psn, pds->cfg.window);
	if (ret)
		return ret;
	pdc->deliver_psn = pdc->start_psn;
	pdc->ack_due_ns = UINT64_MAX;
	pdc->rx_req_ns = UINT64_MAX;
	pdc->rx_gap_ns = UINT64_MAX;
	pdc->deliver_retry_ns = UINT64_MAX;
	uet_dlist_init(&pdc->retained);
	uet_dlist_init(&pdc->owed_entry);
	uet_dlist_init(&pdc->delay_entry);
	return 0;
}

void uet_pdc_owed_drop(struct uet_pdc *pdc)
{
	if (uet_dlist_linked(&pdc->owed_entry))
		uet_dlist_remove(&pdc->owed_entry);
	pdc->owed_retx = false;
}

/* The delayed ACK is off: sent, or the receive state is reset. */
static void uet_pdc_delay_drop(struct uet_pdc *pdc)
{
	pdc->ack_due_ns = UINT64_MAX;
	if (uet_dlist_linked(&pdc->delay_entry))
		uet_dlist_remove(&pdc->delay_entry);
}

static void uet_pdc_ret_free(struct uet_pds *pds, struct uet_pdc *pdc,
			     struct uet_pds_retained *r)
{
	uet_hashmap_remove(&pds->ret_map, &r->node);
	uet_dlist_remove(&r->entry);
	pdc->nretained--;
	uet_bufpool_put(&pds->ret_pool, r);
}

static void uet_pdc_rx_free_state(struct uet_pds *pds, struct uet_pdc *pdc)
{
	struct uet_pds_retained *r;
	uint32_t i;

	uet_pdc_owed_drop(pdc);
	uet_pdc_delay_drop(pdc);
	uet_dlist_foreach_entry_safe(&pdc->retained, r, entry)
		uet_pdc_ret_free(pds, pdc, r);
	if (pdc->hold) {
		for (i = 0; i < pds->ring_size; i++) {
			if (pdc->hold[i])
				uet_bufpool_put(&pds->hold_pool, pdc->hold[i]);
			pdc->hold[i] = NULL;
		}
	}
	uet_pds_src_unhold(pds, pdc, pdc->nheld);
	pdc->nheld = 0;
}

void uet_pdc_rx_reset(struct uet_pds *pds, struct uet_pdc *pdc)
{
	uet_pdc_rx_free_state(pds, pdc);
	uet_psn_window_reset(&pdc->win, pdc->start_psn);
	pdc->deliver_psn = pdc->start_psn;
	pdc->deliver_retry_ns = UINT64_MAX;
	pdc->ack_pending = 0;
	pdc->ack_due_ns = UINT64_MAX;
	pdc->rx_req_ns = UINT64_MAX;
	pdc->rx_gap_ns = UINT64_MAX;
}

void uet_pdc_rx_fini(struct uet_pds *pds, struct uet_pdc *pdc)
{
	uet_pdc_rx_free_state(pds, pdc);
	free(pdc->hold);
	pdc->hold = NULL;
	uet_psn_window_fini(&pdc->win);
}

bool uet_pdc_rx_idle(const struct uet_pdc *pdc)
{
	return pdc->nheld == 0 && pdc->ack_due_ns == UINT64_MAX;
}

static inline uint32_t uet_pdc_cack(const struct uet_pdc *pdc)
{
	return uet_psn_window_base(&pdc->win) - 1;
}

/* ---- retained SES responses ---- */

static uint64_t uet_pdc_ret_key(const struct uet_pdc *pdc, uint32_t psn)
{
	return (uint64_t)pdc->lpdcid << 32 | psn;
}

static struct uet_pds_retained *
uet_pdc_retained(const struct uet_pds *pds, const struct uet_pdc *pdc,
		 uint32_t psn)
{
	struct uet_hnode *n;

	n = uet_hashmap_lookup_u64(&pds->ret_map, uet_pdc_ret_key(pdc, psn));
	return n ? uet_container_of(n, struct uet_pds_retained, node) : NULL;
}

static void uet_pdc_retain(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint32_t psn, const struct uet_pds_rsp *rsp)
{
	struct uet_pds_retained *r, *pos;
	struct uet_dlist *at;

	/* Bounded even if the initiator never advances CLEAR_PSN. */
	if (pdc->nretained >= 2 * pds->cfg.window) {
		r = uet_dlist_first_entry(&pdc->retained,
					  struct uet_pds_retained, entry);
		uet_pdc_ret_free(pds, pdc, r);
	}
	r = uet_bufpool_get(&pds->ret_pool);
	if (!r)
		return;
	r->psn = psn;
	r->rsp = *rsp;
	if (uet_hashmap_insert_u64(&pds->ret_map, &r->node,
				   uet_pdc_ret_key(pdc, psn))) {
		uet_bufpool_put(&pds->ret_pool, r);
		return;
	}
	/* PSN order; deliveries are mostly in order, so scan from the tail. */
	at = pdc->retained.prev;
	while (at != &pdc->retained) {
		pos = uet_container_of(at, struct uet_pds_retained, entry);
		if (uet_seq32_lt(pos->psn, psn))
			break;
		at = at->prev;
	}
	uet_dlist_insert_after(at, &r->entry);
	pdc->nretained++;
	UET_PDS_INC(pds, pdc, rsp_retained);
}

void uet_pdc_rx_clear(struct uet_pds *pds, struct uet_pdc *pdc,
		      uint32_t clear_psn)
{
	struct uet_pds_retained *r;
	uint32_t cack = uet_pdc_cack(pdc);

	/* Nothing beyond what we received can have been acknowledged. */
	if (uet_seq32_lt(cack, clear_psn))
		clear_psn = cack;
	while ((r = uet_dlist_first_entry(&pdc->retained,
					  struct uet_pds_retained, entry)) &&
	       uet_seq32_le(r->psn, clear_psn))
		uet_pdc_ret_free(pds, pdc, r);
}

/* Any PSN received beyond the cumulative point (a hole before it): the
 * first set bit ends the scan, no count needed (issue 18). */
static bool uet_pdc_rx_holes(const struct uet_pdc *pdc)
{
	size_t i, n = ((size_t)pdc->win.mask + 1) / 64;

	for (i = 0; i < n; i++)
		if (pdc->win.words[i])
			return true;
	return false;
}

/* ---- output: ACK, NACK ---- */

static void uet_pdc_send_ack(struct uet_pds *pds, struct uet_pdc *pdc,
			     uint32_t ack_psn, const struct uet_pds_rsp *rsp,
			     bool probe, uint16_t probe_opaque, bool retx,
			     uint64_t now)
{
	uint8_t buf[UET_PDS_CTL_BYTES];
	uint8_t ccx_state[UET_PDS_CC_STATE_LEN];
	struct uet_pds_ack_cc cc;
	uint32_t cack = uet_pdc_cack(pdc);
	int32_t off = uet_seq32_diff(ack_psn, cack);
	unsigned int type;
	ssize_t n;

	pdc->ack_pending = 0;
	uet_pdc_delay_drop(pdc);
	uet_pdc_owed_drop(pdc);		/* this ACK says all it would */
	if (!pdc->rpdcid)
		return;
	if (off < INT16_MIN || off > INT16_MAX) {
		off = 0;	/* cannot name it: acknowledge cack only */
		rsp = NULL;
	}
	memset(&cc, 0, sizeof(cc));
	cc.ack.next_hdr = rsp ? rsp->next_hdr : UET_HDR_NONE;
	cc.ack.retx = retx;
	cc.ack.p = probe;
	/* req: "0 = RUD, 1 = ROD" as documented (conformance.md D-4). */
	cc.ack.req = pdc->mode == UET_PDS_MODE_ROD ? 1 : 0;
	if (probe)
		cc.ack.probe_opaque = probe_opaque;
	else
		cc.ack.ack_psn_offset = (int16_t)off;
	cc.ack.cack_psn = cack;
	cc.ack.spdcid = pdc->lpdcid;
	cc.ack.dpdcid = pdc->rpdcid;
	type = uet_pds_cc_ack_fill(pds, pdc, &cc.cc_type, &cc.ack_cc_state,
				  ccx_state, &cc.ack.m, now);
	if (uet_pdc_rx_holes(pdc)) {
		/* Holes: SACK the 64 PSNs after cack_psn. */
		if (type == UET_PDS_TYPE_ACK) {
			type = UET_PDS_TYPE_ACK_CC;
			cc.cc_type = UET_CC_NSCC;
		}
		cc.sack_psn_offset = 1;
		cc.sack_bitmap = uet_psn_window_get64(&pdc->win, cack + 1);
	}
	if (type == UET_PDS_TYPE_ACK_CCX) {
		struct uet_pds_ack_ccx x;

		memset(&x, 0, sizeof(x));
		x.ack = cc.ack;
		x.cc_type = cc.cc_type;
		x.sack_psn_offset = cc.sack_psn_offset;
		x.sack_bitmap = cc.sack_bitmap;
		memcpy(x.ack_ccx_state, ccx_state, sizeof(x.ack_ccx_state));
		n = uet_pds_ack_ccx_encode(pds->cfg.wire, buf, sizeof(buf), &x);
	} else if (type == UET_PDS_TYPE_ACK_CC) {
		n = uet_pds_ack_cc_encode(pds->cfg.wire, buf, sizeof(buf), &cc);
	} else {
		n = uet_pds_ack_encode(pds->cfg.wire, buf, sizeof(buf), &cc.ack);
	}
	if (n < 0)
		return;
	if (rsp) {
		memcpy(buf + n, rsp->buf, rsp->len);
		n += rsp->len;
	}
	UET_PDS_INC(pds, pdc, ack_tx);
	uet_pds_out_ctl(pds, &pdc->peer, pdc->lpdcid, buf, (size_t)n, now);
}

void uet_pds_send_nack(struct uet_pds *pds, const struct uet_link_addr *dst,
		       uint8_t code, bool nt, uint32_t psn, uint16_t spdcid,
		       uint16_t dpdcid, bool retx, uint64_t now)
{
	uint8_t buf[UET_PDS_NACK_LEN_MAX];
	struct uet_pds_nack n;
	ssize_t len;

	memset(&n, 0, sizeof(n));
	n.next_hdr = UET_HDR_NONE;
	/* The datagram being answered was ECN-marked. */
	n.m = (pds->rx_tos & UET_LINK_ECN_MASK) == UET_LINK_ECN_CE;
	n.retx = retx;
	n.nt = nt;
	n.nack_code = code;
	n.nack_psn = psn;
	n.spdcid = spdcid;
	n.dpdcid = dpdcid;
	len = uet_pds_nack_encode(pds->cfg.wire, buf, sizeof(buf), &n);
	if (len <= 0)
		return;
	pds->st.nack_tx++;
	uet_pds_out_ctl(pds, dst, dpdcid, buf, (size_t)len, now);
}

static void uet_pdc_send_nack(struct uet_pds *pds, struct uet_pdc *pdc,
			      uint8_t code, uint32_t psn, bool retx,
			      uint64_t now)
{
	pdc->st.nack_tx++;
	uet_pds_send_nack(pds, &pdc->peer, code, false, psn, pdc->lpdcid,
			  pdc->rpdcid, retx, now);
}

/* An ACK naming psn with what we know about its SES response. */
static void uet_pdc_answer(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint32_t psn, bool retx, uint64_t now)
{
	struct uet_pds_retained *r = uet_pdc_retained(pds, pdc, psn);
	struct uet_pds_rsp def;

	if (r) {
		uet_pdc_send_ack(pds, pdc, psn, &r->rsp, false, 0, retx, now);
		return;
	}
	if (pdc->mode == UET_PDS_MODE_ROD &&
	    uet_seq32_le(pdc->deliver_psn, psn)) {
		/* Held, not yet delivered: its response does not exist yet. */
		uet_pdc_send_ack(pds, pdc, psn, NULL, false, 0, retx, now);
		return;
	}
	uet_pds_default_rsp(pds, &def);
	UET_PDS_INC(pds, pdc, default_rsp_tx);
	uet_pdc_send_ack(pds, pdc, psn, &def, false, 0, retx, now);
}

/* ---- delivery to SES ---- */

/* What SES is told of one request of pdc (rx and check upcalls). */
static void uet_pdc_rx_info(struct uet_pds_rx_info *info,
			    const struct uet_pds *pds, struct uet_pdc *pdc,
			    uint8_t next_hdr, uint32_t psn, const uint8_t *ses,
			    size_t ses_len)
{
	memset(info, 0, sizeof(*info));
	info->src = &pdc->peer;
	info->mode = pdc->mode;
	info->next_hdr = next_hdr;
	info->psn = psn;
	info->pdc = uet_pdc_handle(pdc);
	info->ses = ses;
	info->ses_len = ses_len;
	info->now = pds->now;
}

/* Give one request to SES; rsp->next_hdr is NONE unless it answered. */
static int uet_pdc_deliver(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint8_t next_hdr, uint32_t psn, const uint8_t *ses,
			   size_t ses_len, struct uet_pds_rsp *rsp)
{
	struct uet_pds_rx_info info;
	int ret;

	memset(rsp, 0, sizeof(*rsp));
	rsp->next_hdr = UET_HDR_NONE;
	if (!pds->have_up || !pds->up.rx)
		return -EAGAIN;
	uet_pdc_rx_info(&info, pds, pdc, next_hdr, psn, ses, ses_len);
	ret = pds->up.rx(pds->up_ctx, &info, rsp);
	if (ret == -EAGAIN)
		return ret;
	if (ret < 0) {
		/* Malformed for SES: acknowledged, counted, dropped. */
		UET_PDS_INC(pds, pdc, malformed);
		rsp->next_hdr = UET_HDR_NONE;
		rsp->refused = true;
		return 0;
	}
	if (rsp->next_hdr != UET_HDR_NONE &&
	    (rsp->next_hdr > UET_HDR_MAX || rsp->len == 0 ||
	     rsp->len > UET_PDS_RSP_MAX)) {
		UET_WARN_ONCE(UET_LOG_EP_DATA,
			      "SES response of invalid size dropped\n");
		UET_PDS_INC(pds, pdc, malformed);
		rsp->next_hdr = UET_HDR_NONE;
	}
	return 0;
}

/* Whether SES would take this request (the check upcall; true when
 * there is none). */
static bool uet_pdc_check(struct uet_pds *pds, struct uet_pdc *pdc,
			  uint8_t next_hdr, uint32_t psn, const uint8_t *ses,
			  size_t ses_len)
{
	struct uet_pds_rx_info info;

	if (!pds->have_up || !pds->up.check)
		return true;
	uet_pdc_rx_info(&info, pds, pdc, next_hdr, psn, ses, ses_len);
	return pds->up.check(pds->up_ctx, &info);
}

/* ROD: deliver the held packets that are now in order. */
static void uet_pdc_rod_deliver_held(struct uet_pds *pds, struct uet_pdc *pdc,
				     uint64_t now)
{
	uint32_t base = uet_psn_window_base(&pdc->win);
	struct uet_pds_hold *hb;
	struct uet_pds_rsp rsp;
	uint32_t psn;

	while (pdc->deliver_psn != base) {
		psn = pdc->deliver_psn;
		hb = pdc->hold ? pdc->hold[psn & pds->ring_mask] : NULL;
		if (!hb || hb->psn != psn) {
			/* Cannot happen: received and undelivered is held. */
			pdc->deliver_psn++;
			continue;
		}
		if (uet_pdc_deliver(pds, pdc, hb->next_hdr, psn, hb->data,
				    hb->len, &rsp) == -EAGAIN) {
			pdc->deliver_retry_ns = now +
				(pds->cfg.ack_delay_ns ? pds->cfg.ack_delay_ns :
							 UET_PDS_BUSY_RETRY_NS);
			return;
		}
		pdc->hold[psn & pds->ring_mask] = NULL;
		pdc->nheld--;
		if (pdc->nheld < pdc->nheld_src)
			uet_pds_src_unhold(pds, pdc, 1);
		pdc->hold_since_ns = now;	/* the gap moved on */
		uet_bufpool_put(&pds->hold_pool, hb);
		pdc->deliver_psn++;
		if (rsp.next_hdr != UET_HDR_NONE) {
			uet_pdc_retain(pds, pdc, psn, &rsp);
			uet_pdc_send_ack(pds, pdc, psn, &rsp, false, 0, false,
					 now);
		}
	}
	pdc->deliver_retry_ns = UINT64_MAX;
}

static int uet_pdc_hold(struct uet_pds *pds, struct uet_pdc *pdc,
			uint8_t next_hdr, uint32_t psn, const uint8_t *ses,
			size_t ses_len)
{
	struct uet_pds_hold *hb;

	if (ses_len > pds->hold_data_max)
		return -EMSGSIZE;
	if (!pdc->hold) {
		pdc->hold = calloc(pds->ring_size, sizeof(*pdc->hold));
		if (!pdc->hold)
			return -ENOMEM;
	}
	if (pdc->nheld >= UET_PDS_HOLD_PER_PDC(pds->cfg.window) ||
	    !uet_pds_src_hold(pds, pdc)) {
		UET_PDS_INC(pds, pdc, hold_limit);
		uet_pds_drop_warn(pds, UET_PDS_DROP_HOLD_LIMIT);
		return -ENOBUFS;
	}
	hb = uet_bufpool_get(&pds->hold_pool);
	if (!hb) {
		uet_pds_src_unhold(pds, pdc, 1);
		return -ENOMEM;
	}
	hb->psn = psn;
	hb->next_hdr = next_hdr;
	hb->len = ses_len;
	memcpy(hb->data, ses, ses_len);
	pdc->hold[psn & pds->ring_mask] = hb;
	if (!pdc->nheld++)
		pdc->hold_since_ns = pds->now;
	UET_PDS_INC(pds, pdc, ooo_held);
	return 0;
}

/*
 * ACKs without a response owed at the end of the receive batch: one per
 * PDC, however many packets of the batch asked for one (ar, a hole),
 * naming the newest; its cumulative PSN and SACK bitmap are those of the
 * moment it is sent.  The coalescing count still sends at once, and a
 * response is never merged: each one travels on its own ACK, the packet
 * it answers waits for it (want_rsp).
 */
static void uet_pdc_owe_ack(struct uet_pds *pds, struct uet_pdc *pdc,
			    uint32_t psn, bool retx)
{
	pdc->owed_psn = psn;
	pdc->owed_retx |= retx;
	if (!uet_dlist_linked(&pdc->owed_entry))
		uet_dlist_insert_tail(&pds->owed, &pdc->owed_entry);
}

/* UET_PDS_PIGGYBACK_PEERS (uet_pds_internal.h): peers compared per flush;
 * a flush that matters for latency has one. */

/*
 * Whether the delayed ACK of pdc is due, so that it leaves with the data
 * of this batch (docs/software-nic.md, "Delayed ACKs"): half of
 * cfg.ack_coalesce requests wait for it, or the next batch to the peer is
 * not expected well before its timer.  The next batch is predicted from
 * the interval between the PDC's last two requests (a ping-pong or an
 * exchange answers each request with data): the ACK waits only when
 * twice that interval still ends before ack_due_ns, so it rides on a
 * later reply and its timer (a system call of its own) stays unused.
 * With no interval known yet, or a slow rhythm (a peer under a debugger
 * or callgrind), it rides at once as before.  An ACK is thus never later
 * than ack_delay_ns, the bound the sender's tail loss probe allows for.
 */
static bool uet_pdc_ack_rides(const struct uet_pds *pds,
			      const struct uet_pdc *pdc, uint64_t now)
{
	if (2 * pdc->ack_pending >= pds->cfg.ack_coalesce ||
	    pdc->rx_gap_ns == UINT64_MAX || now >= pdc->ack_due_ns)
		return true;
	return pdc->rx_gap_ns >= (pdc->ack_due_ns - now) / 2;
}

unsigned int uet_pds_piggyback_peers(struct uet_pds *pds,
				     const struct uet_link_addr **peer)
{
	struct uet_pds_tx_pkt *pkt;
	struct uet_pdc *pdc;
	unsigned int n = 0, i, seen = 0;

	if (uet_dlist_empty(&pds->delayed))
		return 0;
	uet_dlist_foreach_entry(&pds->dataq, pkt, priv.qentry) {
		if (++seen > UET_PDS_TX_BATCH || n == UET_PDS_PIGGYBACK_PEERS)
			break;
		pdc = pkt->priv.pdc;
		if (!pdc)
			continue;
		for (i = 0; i < n; i++)
			if (peer[i] == &pdc->peer ||
			    uet_link_addr_eq(peer[i], &pdc->peer))
				break;
		if (i == n)
			peer[n++] = &pdc->peer;
	}
	return n;
}

void uet_pds_piggyback_send(struct uet_pds *pds,
			    const struct uet_link_addr **peer, unsigned int n,
			    uint64_t now)
{
	struct uet_pdc *pdc;
	unsigned int i;

	if (!n)
		return;
	uet_dlist_foreach_entry_safe(&pds->delayed, pdc, delay_entry) {
		for (i = 0; i < n; i++) {
			if (!uet_link_addr_eq(peer[i], &pdc->peer))
				continue;
			if (!uet_pdc_ack_rides(pds, pdc, now)) {
				UET_PDS_INC(pds, pdc, ack_coalesced);
				break;
			}
			UET_PDS_INC(pds, pdc, ack_piggyback);
			uet_pdc_send_ack(pds, pdc, pdc->ack_psn, NULL, false, 0,
					 false, now);
			break;
		}
	}
}

void uet_pds_send_piggyback_acks(struct uet_pds *pds, uint64_t now)
{
	const struct uet_link_addr *peer[UET_PDS_PIGGYBACK_PEERS];

	uet_pds_piggyback_send(pds, peer, uet_pds_piggyback_peers(pds, peer),
			       now);
}

void uet_pds_send_owed_acks(struct uet_pds *pds, uint64_t now)
{
	struct uet_pdc *pdc;
	struct uet_dlist *e;

	while ((e = uet_dlist_first(&pds->owed))) {
		pdc = uet_container_of(e, struct uet_pdc, owed_entry);
		uet_pdc_send_ack(pds, pdc, pdc->owed_psn, NULL, false, 0,
				 pdc->owed_retx, now);
	}
}

/* Destroy, after the owed and delayed ACKs: the answers a target PDC's
 * latest requests would get if retransmitted (each retained SES
 * response, and the latest request's ACK), UET_PDS_CLOSE_ACK_COPIES
 * times.  Their first ACK may have been sent and lost already, and
 * nothing answers a retransmission once we are gone (E-27). */
static void uet_pdc_send_final_acks(struct uet_pds *pds, struct uet_pdc *pdc,
				    uint64_t now)
{
	struct uet_pds_retained *r;
	unsigned int i;

	for (i = 0; i < UET_PDS_CLOSE_ACK_COPIES; i++) {
		uet_dlist_foreach_entry(&pdc->retained, r, entry) {
			UET_PDS_INC(pds, pdc, ack_final);
			uet_pdc_send_ack(pds, pdc, r->psn, &r->rsp, false, 0,
					 false, now);
		}
		if (uet_pdc_retained(pds, pdc, pdc->ack_psn))
			continue;
		UET_PDS_INC(pds, pdc, ack_final);
		uet_pdc_answer(pds, pdc, pdc->ack_psn, false, now);
	}
}

/* Destroy: what the peers are owed leaves before the close packets, so
 * that their held sends complete instead of being retransmitted to a
 * port that is about to close (ICMP port unreachable); then the final
 * answers of every target PDC that received a request. */
void uet_pds_send_all_acks(struct uet_pds *pds, uint64_t now)
{
	struct uet_pdc *pdc;
	struct uet_dlist *e;

	uet_pds_send_owed_acks(pds, now);
	while ((e = uet_dlist_first(&pds->delayed))) {
		pdc = uet_container_of(e, struct uet_pdc, delay_entry);
		UET_PDS_INC(pds, pdc, ack_close);
		uet_pdc_send_ack(pds, pdc, pdc->ack_psn, NULL, false, 0,
				 false, now);
	}
	uet_dlist_foreach_entry(&pds->pdcs, pdc, entry) {
		if (pdc->initiator || !pdc->rpdcid ||
		    (uet_psn_window_base(&pdc->win) == pdc->start_psn &&
		     !uet_pdc_rx_holes(pdc)))
			continue;	/* nothing received */
		uet_pdc_send_final_acks(pds, pdc, now);
	}
}

/* ---- requests ---- */

/* A PDC opened by a request SES did not accept: gone, nothing kept. */
static void uet_pdc_release_fresh(struct uet_pds *pds, struct uet_pdc *pdc)
{
	UET_PDS_INC(pds, pdc, pdc_closed);
	uet_pdc_teardown(pds, pdc);
}

/* NACK the syn request that opened pdc without naming pdc (SPDCID 0, as
 * NO_PDC_AVAIL does: the initiator must not learn a PDCID that is about
 * to go), then release it. */
static void uet_pdc_nack_fresh(struct uet_pds *pds, struct uet_pdc *pdc,
			       uint8_t code,
			       const struct uet_pds_rud_rod_req *h,
			       uint64_t now)
{
	uet_pds_send_nack(pds, &pdc->peer, code, false, h->psn, 0, h->spdcid,
			  h->retx, now);
	uet_pdc_release_fresh(pds, pdc);
}

static void uet_pdc_req_rx(struct uet_pds *pds, struct uet_pdc *pdc,
			   const struct uet_pds_rud_rod_req *h,
			   const uint8_t *ses, size_t ses_len, uint64_t now)
{
	uint32_t psn = h->psn, base = uet_psn_window_base(&pdc->win);
	uint32_t width = pds->cfg.window, limit, off;
	struct uet_pds_rsp rsp;
	bool immediate;
	int ret;

	pdc->last_active_ns = now;
	pdc->last_heard_ns = now;
	uet_pdc_alive(pdc, now);
	if (pdc->state == UET_PDC_T_CLOSE_REQ_WAIT)
		pdc->state = UET_PDC_T_ESTABLISHED;
	pdc->st.rx_pkts++;	/* the PDS counted the datagram already */
	pdc->st.rx_bytes += ses_len;
	uet_pds_cc_rx_req(pds, pdc, UET_PDS_RUD_ROD_REQ_LEN + ses_len,
			  pds->rx_tos, psn == base, now);

	off = psn - base;
	limit = width;
	if (pdc->mode == UET_PDS_MODE_ROD)	/* held packets are bounded */
		limit = pdc->deliver_psn + width - base;
	if (off >= limit && base - 1 - psn >= width) {
		if (pdc->fresh) {
			uet_pdc_nack_fresh(pds, pdc, UET_NACK_PSN_OOR_WINDOW,
					   h, now);
			return;
		}
		uet_pdc_send_nack(pds, pdc, UET_NACK_PSN_OOR_WINDOW, psn,
				  h->retx, now);
		return;
	}
	uet_pdc_rx_clear(pds, pdc, psn - h->clear_psn_offset);
	if (off >= limit || uet_psn_window_test(&pdc->win, psn)) {
		UET_PDS_INC(pds, pdc, dup_rx);
		uet_pdc_answer(pds, pdc, psn, h->retx, now);
		return;
	}

	memset(&rsp, 0, sizeof(rsp));
	rsp.next_hdr = UET_HDR_NONE;
	if (pdc->mode == UET_PDS_MODE_RUD ||
	    (psn == base && pdc->deliver_psn == base)) {
		ret = uet_pdc_deliver(pds, pdc, h->next_hdr, psn, ses, ses_len,
				      &rsp);
		if (ret == -EAGAIN) {
			if (pdc->fresh) {
				uet_pdc_nack_fresh(pds, pdc,
						   UET_NACK_NO_PKT_BUF, h, now);
				return;
			}
			uet_pdc_send_nack(pds, pdc, UET_NACK_NO_PKT_BUF, psn,
					  h->retx, now);
			return;
		}
		if (pdc->mode == UET_PDS_MODE_ROD)
			pdc->deliver_psn++;
	} else if (pdc->fresh &&
		   !uet_pdc_check(pds, pdc, h->next_hdr, psn, ses, ses_len)) {
		/* Nothing is held for a PDC whose requests SES would not
		 * take: no state for a source that named no endpoint. */
		uet_pdc_nack_fresh(pds, pdc, UET_NACK_NO_PKT_BUF, h, now);
		return;
	} else if (uet_pdc_hold(pds, pdc, h->next_hdr, psn, ses, ses_len)) {
		uet_pdc_send_nack(pds, pdc, UET_NACK_NO_PKT_BUF, psn, h->retx,
				  now);
		return;
	}
	if (pdc->fresh && rsp.refused) {
		/* SES refused the request that opened this PDC (no such
		 * endpoint, wrong mode, malformed): answer it, keep no
		 * state for the source. */
		UET_PDS_INC(pds, pdc, syn_refused);
		uet_pds_drop_warn(pds, UET_PDS_DROP_SYN_REFUSED);
		if (rsp.next_hdr != UET_HDR_NONE) {
			uet_psn_window_set(&pdc->win, psn);
			uet_psn_window_advance_contiguous(&pdc->win);
			uet_pdc_send_ack(pds, pdc, psn, &rsp, false, 0,
					 h->retx, now);
		}
		uet_pdc_release_fresh(pds, pdc);
		return;
	}
	pdc->fresh = false;
	uet_psn_window_set(&pdc->win, psn);
	uet_psn_window_advance_contiguous(&pdc->win);
	/* A held send (no ar) waits for no response: RC_OK is the Default
	 * SES Response, left to the (delayed) ACK, and nothing is kept for
	 * a retransmission, which gets the default too. */
	if (rsp.next_hdr != UET_HDR_NONE && rsp.deferrable && !h->ar) {
		rsp.next_hdr = UET_HDR_NONE;
		UET_PDS_INC(pds, pdc, rsp_deferred);
	}
	if (rsp.next_hdr != UET_HDR_NONE)
		uet_pdc_retain(pds, pdc, psn, &rsp);
	if (pdc->mode == UET_PDS_MODE_ROD)
		uet_pdc_rod_deliver_held(pds, pdc, now);

	pdc->ack_pending++;
	pdc->ack_psn = psn;
	if (pdc->rx_req_ns != UINT64_MAX)
		pdc->rx_gap_ns = now >= pdc->rx_req_ns ? now - pdc->rx_req_ns
						       : 0;
	pdc->rx_req_ns = now;
	immediate = h->ar || rsp.next_hdr != UET_HDR_NONE || psn != base ||
		    uet_psn_window_base(&pdc->win) - base != 1 ||
		    uet_pdc_rx_holes(pdc) ||
		    pdc->ack_pending >= pds->cfg.ack_coalesce;
	if (immediate && pds->batch && rsp.next_hdr == UET_HDR_NONE &&
	    pdc->ack_pending < pds->cfg.ack_coalesce)
		uet_pdc_owe_ack(pds, pdc, psn, h->retx);
	else if (immediate)
		uet_pdc_send_ack(pds, pdc, psn,
				 rsp.next_hdr != UET_HDR_NONE ? &rsp : NULL,
				 false, 0, h->retx, now);
	else if (pdc->ack_due_ns == UINT64_MAX) {
		pdc->ack_due_ns = now + pds->cfg.ack_delay_ns;
		uet_dlist_insert_tail(&pds->delayed, &pdc->delay_entry);
	}
}

/*
 * Whether src may send requests on pdc: the peer's own address, or one
 * of its entropy ports P + 1 .. P + UET_LINK_ENT_SPAN when spraying is
 * on in this job (cfg.cc_entropies > 1, FI_UET_CC_ENTROPIES: a job-wide
 * setting, the announcement of the peers' entropy ports).  Without it a
 * local user of the peer's host who binds one of those ports cannot
 * reach the PDC (issue 30, finding 7).
 */
static bool uet_pds_req_src_ok(const struct uet_pds *pds,
			       const struct uet_pdc *pdc,
			       const struct uet_link_addr *src)
{
	if (pds->cfg.cc_entropies > 1)
		return uet_link_addr_entropy_of(&pdc->peer, src);
	if (uet_link_addr_eq(&pdc->peer, src))
		return true;
	if (uet_link_addr_entropy_of(&pdc->peer, src))
		UET_WARN_ONCE(UET_LOG_EP_DATA,
			      "software NIC: a request from one of a peer's entropy ports refused: spraying is off here; FI_UET_CC_ENTROPIES must be set alike on every process of a job\n");
	return false;
}

static void uet_pds_req_rx(struct uet_pds *pds, const uint8_t *buf,
			   size_t len, const struct uet_link_addr *src,
			   uint64_t now)
{
	uint8_t tkey[UET_PDS_TGT_KEY_LEN];
	struct uet_pds_rud_rod_cc_req cc;
	struct uet_pds_rud_rod_req h;
	unsigned int type = (unsigned int)uet_pds_peek_type(buf, len);
	struct uet_pdc *pdc;
	uint32_t start;
	uint8_t mode;
	ssize_t hl;

	if (type == UET_PDS_TYPE_RUD_CC_REQ ||
	    type == UET_PDS_TYPE_ROD_CC_REQ) {
		hl = uet_pds_rud_rod_cc_req_decode(pds->cfg.wire, &cc, buf, len);
		h = cc.req;
	} else {
		hl = uet_pds_rud_rod_req_decode(pds->cfg.wire, &h, buf, len);
	}
	if (hl < 0 || h.next_hdr == UET_HDR_NONE ||
	    uet_link_addr_key(src, tkey)) {
		pds->st.malformed++;
		return;
	}
	mode = type == UET_PDS_TYPE_ROD_REQ || type == UET_PDS_TYPE_ROD_CC_REQ ?
	       UET_PDS_MODE_ROD : UET_PDS_MODE_RUD;

	if (h.syn) {
		/* One general pool: use_rsv_pdc is served from it too. */
		uet_put_be16(tkey + UET_PDS_ADDR_KEY_LEN, h.spdcid);
		start = h.psn - h.psn_offset;
		pdc = uet_pdc_by_tgt_key(pds, tkey);
		if (pdc && pdc->start_psn != start &&
		    uet_pdc_psn_seen(pdc, h.psn)) {
			/* A capture of this PDC with its psn_offset
			 * edited: a replay, not a new incarnation. */
			pds->st.replay_drop++;
			uet_pds_drop_warn(pds, UET_PDS_DROP_REPLAY);
			return;
		}
		if (pdc && pdc->start_psn != start) {
			/*
			 * Another Start_PSN under a live PDC's source and
			 * SPDCID: a new incarnation of the initiator's PDC, or
			 * a forgery.  Replaced only when nothing can be lost
			 * (nothing in flight, held or retained); otherwise
			 * dropped: a restarted peer shows itself by answering
			 * our retransmissions with INV_DPDCID, or the PDC
			 * closes idle, and its syn is then accepted.
			 */
			if (pdc->nout || !uet_pdc_rx_idle(pdc) ||
			    pdc->nretained) {
				UET_PDS_INC(pds, pdc, syn_conflict);
				uet_pds_drop_warn(pds,
						  UET_PDS_DROP_SYN_CONFLICT);
				return;
			}
			UET_PDS_INC(pds, pdc, pdc_closed);
			uet_pdc_teardown(pds, pdc);
			pdc = NULL;
		}
		if (!pdc && uet_pds_closed_replay(pds, tkey, start, h.psn)) {
			/* A capture of a PDC that closed: never again. */
			pds->st.replay_drop++;
			uet_pds_drop_warn(pds, UET_PDS_DROP_REPLAY);
			return;
		}
		if (!pdc && uet_pds_src_full(pds, tkey)) {
			pds->st.src_limit++;
			uet_pds_drop_warn(pds, UET_PDS_DROP_SRC_LIMIT);
			uet_pds_send_nack(pds, src, UET_NACK_NO_PDC_AVAIL,
					  false, h.psn, 0, h.spdcid, h.retx,
					  now);
			return;
		}
		if (!pdc && uet_pdc_create_tgt(pds, src, tkey, h.spdcid, mode,
					       start, now, &pdc)) {
			uet_pds_send_nack(pds, src, UET_NACK_NO_PDC_AVAIL,
					  false, h.psn, 0, h.spdcid, h.retx,
					  now);
			return;
		}
	} else {
		/* An established PDC's requests may be sprayed: their
		 * source port is one of the peer's entropy ports (E-18; the
		 * port counts for syn requests, the target's key, and for
		 * every other packet). */
		pdc = uet_pdc_by_id(pds, h.dpdcid);
		if (!pdc || !uet_pds_req_src_ok(pds, pdc, src) ||
		    (pdc->rpdcid && pdc->rpdcid != h.spdcid) ||
		    (!pdc->rpdcid && !pdc->initiator)) {
			pds->st.unknown_pdc++;
			uet_pds_send_nack(pds, src, UET_NACK_INV_DPDCID, false,
					  h.psn, 0, h.spdcid, h.retx, now);
			return;
		}
		if (!pdc->rpdcid) {
			/* A reply from the target before its first ACK. */
			pdc->rpdcid = h.spdcid;
			if (pdc->state == UET_PDC_SYN_SENT)
				pdc->state = UET_PDC_ESTABLISHED;
		}
		/* It names our PDCID: it received our ACK. */
		pdc->verified = true;
	}
	uet_pdc_touch(pds, pdc);
	if (pdc->mode != mode) {
		UET_PDS_INC(pds, pdc, wrong_mode);
		uet_pdc_send_nack(pds, pdc, UET_NACK_PDC_HDR_MISMATCH, h.psn,
				  h.retx, now);
		return;
	}
	/* CSIG is UE+'s: UE 1.0.1's CC request carries ccc_id and
	 * credit_target, which uet does not act on (docs/conformance.md) */
	if ((type == UET_PDS_TYPE_RUD_CC_REQ ||
	     type == UET_PDS_TYPE_ROD_CC_REQ) &&
	    pds->cfg.wire == UET_WIRE_UEPLUS)
		(void)uet_pds_cc_csig_rx(pds, pdc, cc.req_cc_state, now);
	uet_pdc_req_rx(pds, pdc, &h, buf + hl, len - (size_t)hl, now);
}

/* ---- ACK / NACK ---- */

static void uet_pds_ack_pkt_rx(struct uet_pds *pds, const uint8_t *buf,
			       size_t len, const struct uet_link_addr *src,
			       uint64_t now)
{
	/* Zeroed: the table-driven decoders set every field on success,
	 * which the compiler cannot prove (an LTO build warns otherwise). */
	struct uet_pds_ack_ccx ccx = { 0 };
	struct uet_pds_ack_cc cc = { 0 };
	struct uet_pds_cc_fb fb;
	struct uet_pds_ack ack;
	unsigned int type = (unsigned int)uet_pds_peek_type(buf, len);
	int16_t sack_off = 0;
	uint64_t bitmap = 0;
	const uint8_t *rsp;
	struct uet_pdc *pdc;
	size_t rsp_len;
	ssize_t hl;

	memset(&fb, 0, sizeof(fb));
	switch (type) {
	case UET_PDS_TYPE_ACK:
		hl = uet_pds_ack_decode(pds->cfg.wire, &ack, buf, len);
		break;
	case UET_PDS_TYPE_ACK_CC:
		hl = uet_pds_ack_cc_decode(pds->cfg.wire, &cc, buf, len);
		if (hl < 0)
			break;
		ack = cc.ack;
		sack_off = cc.sack_psn_offset;
		bitmap = cc.sack_bitmap;
		uet_pds_cc_fb_from_state(pds->cfg.wire, &fb, cc.cc_type, cc.ack_cc_state);
		break;
	default:
		hl = uet_pds_ack_ccx_decode(pds->cfg.wire, &ccx, buf, len);
		if (hl < 0)
			break;
		ack = ccx.ack;
		sack_off = ccx.sack_psn_offset;
		bitmap = ccx.sack_bitmap;
		uet_pds_cc_fb_from_ccx(pds->cfg.wire, &fb, ccx.cc_type, ccx.ack_ccx_state);
		break;
	}
	if (hl < 0) {
		pds->st.malformed++;
		return;
	}
	fb.m = ack.m;
	rsp = buf + hl;
	rsp_len = len - (size_t)hl;
	if (ack.next_hdr == UET_HDR_NONE) {
		rsp = NULL;
		rsp_len = 0;
	} else if (ack.p || rsp_len == 0 || rsp_len > UET_PDS_RSP_MAX) {
		pds->st.malformed++;
		return;
	}
	pdc = uet_pdc_by_id(pds, ack.dpdcid);
	if (!pdc || !uet_link_addr_eq(&pdc->peer, src) ||
	    (pdc->rpdcid ? pdc->rpdcid != ack.spdcid : !pdc->initiator)) {
		pds->st.unknown_pdc++;
		return;
	}
	uet_pdc_touch(pds, pdc);
	pdc->verified = true;
	UET_PDS_INC(pds, pdc, ack_rx);
	/* An ACK_CC without holes at the peer (offset and bitmap 0) says
	 * as much as a plain ACK. */
	uet_pdc_ack_rx(pds, pdc, &ack,
		       type != UET_PDS_TYPE_ACK && (sack_off || bitmap),
		       sack_off, bitmap, rsp, rsp_len, &fb, now);
}

static void uet_pds_nack_pkt_rx(struct uet_pds *pds, const uint8_t *buf,
				size_t len, const struct uet_link_addr *src,
				uint64_t now)
{
	struct uet_pds_nack_ccx ccx;
	struct uet_pds_nack n;
	struct uet_pdc *pdc;
	ssize_t hl;

	if (uet_pds_peek_type(buf, len) == UET_PDS_TYPE_NACK) {
		hl = uet_pds_nack_decode(pds->cfg.wire, &n, buf, len);
	} else {
		hl = uet_pds_nack_ccx_decode(pds->cfg.wire, &ccx, buf, len);
		if (hl >= 0)
			n = ccx.nack;
	}
	if (hl < 0) {
		pds->st.malformed++;
		return;
	}
	if (n.nt) {
		uet_pds_rudi_nack_rx(pds, &n, src, now);
		return;
	}
	pdc = uet_pdc_by_id(pds, n.dpdcid);
	if (!pdc || !uet_link_addr_eq(&pdc->peer, src) ||
	    (pdc->rpdcid && n.spdcid && n.spdcid != pdc->rpdcid)) {
		pds->st.unknown_pdc++;
		return;
	}
	uet_pdc_touch(pds, pdc);
	pdc->verified = true;
	UET_PDS_INC(pds, pdc, nack_rx);
	uet_pdc_nack_rx(pds, pdc, &n, now);
}

/* ---- control packets ---- */

static void uet_pdc_ack_request_rx(struct uet_pds *pds, struct uet_pdc *pdc,
				   const struct uet_pds_cp *cp, uint64_t now)
{
	uint32_t base = uet_psn_window_base(&pdc->win);
	uint32_t width = pds->cfg.window, psn = cp->psn;

	if (psn - base < width) {
		if (!uet_psn_window_test(&pdc->win, psn)) {
			uet_pdc_send_nack(pds, pdc, UET_NACK_PSN_GAP, psn,
					  cp->retx, now);
			return;
		}
	} else if (base - 1 - psn >= width) {
		uet_pdc_send_nack(pds, pdc, UET_NACK_PSN_OOR_WINDOW, psn,
				  cp->retx, now);
		return;
	}
	uet_pdc_answer(pds, pdc, psn, cp->retx, now);
}

static void uet_pdc_close_command_rx(struct uet_pds *pds, struct uet_pdc *pdc,
				     const struct uet_pds_cp *cp, uint64_t now)
{
	if (pdc->initiator) {
		pds->st.malformed++;
		return;
	}
	/* Close only when everything before the CLOSE was received and
	 * delivered and our own replies are done; else the initiator
	 * retries and eventually gives up. */
	if (cp->psn != uet_psn_window_base(&pdc->win) || pdc->nheld ||
	    (pdc->mode == UET_PDS_MODE_ROD && pdc->deliver_psn != cp->psn) ||
	    pdc->nout)
		return;
	uet_pdc_send_ack(pds, pdc, cp->psn, NULL, false, 0, cp->retx, now);
	UET_PDS_INC(pds, pdc, pdc_closed);
	uet_pdc_teardown(pds, pdc);
}

static void uet_pds_cp_rx(struct uet_pds *pds, const uint8_t *buf,
			  size_t len, const struct uet_link_addr *src,
			  uint64_t now)
{
	struct uet_pdc *pdc;
	struct uet_pds_cp cp;

	if (uet_pds_cp_decode(pds->cfg.wire, &cp, buf, len) < 0 || cp.syn) {
		/* We never open a PDC with a control packet. */
		pds->st.malformed++;
		return;
	}
	pds->st.cp_rx++;
	pdc = uet_pdc_by_id(pds, cp.dpdcid);
	if (!pdc || !uet_link_addr_eq(&pdc->peer, src) || !pdc->rpdcid ||
	    pdc->rpdcid != cp.spdcid) {
		pds->st.unknown_pdc++;
		switch (cp.ctl_type) {
		case UET_CTL_ACK_REQUEST:
		case UET_CTL_PROBE:
		case UET_CTL_CLOSE_COMMAND:
		case UET_CTL_CLEAR_COMMAND:
			uet_pds_send_nack(pds, src, UET_NACK_INV_DPDCID, false,
					  cp.psn, 0, cp.spdcid, cp.retx, now);
			break;
		default:
			break;
		}
		return;
	}
	uet_pdc_touch(pds, pdc);
	pdc->verified = true;
	pdc->st.cp_rx++;
	pdc->last_heard_ns = now;
	uet_pdc_alive(pdc, now);
	switch (cp.ctl_type) {
	case UET_CTL_NOOP:
		break;
	case UET_CTL_ACK_REQUEST:
		uet_pdc_ack_request_rx(pds, pdc, &cp, now);
		break;
	case UET_CTL_PROBE:
		uet_pdc_send_ack(pds, pdc, uet_pdc_cack(pdc), NULL, true,
				 cp.probe_opaque, cp.retx, now);
		break;
	case UET_CTL_CLEAR_COMMAND:
		uet_pdc_rx_clear(pds, pdc, cp.psn - 1);
		break;
	case UET_CTL_CLEAR_REQUEST:
		if (pdc->initiator && pdc->nout == 0)
			uet_pdc_send_cp(pds, pdc, UET_CTL_CLEAR_COMMAND,
					pdc->next_psn, false, false, 0, now);
		break;
	case UET_CTL_CLOSE_COMMAND:
		uet_pdc_close_command_rx(pds, pdc, &cp, now);
		break;
	case UET_CTL_CLOSE_REQUEST:
		if (pdc->initiator && pdc->state == UET_PDC_ESTABLISHED &&
		    pdc->nout == 0 && uet_pdc_rx_idle(pdc))
			uet_pdc_start_close(pds, pdc, now);
		break;
	default:
		/* CREDIT, CREDIT_REQUEST, NEGOTIATION: not supported. */
		UET_PDS_INC(pds, pdc, malformed);
		break;
	}
}

/* ---- timers ---- */

bool uet_pdc_rx_timer(struct uet_pds *pds, struct uet_pdc *pdc, uint64_t now)
{
	if (pdc->deliver_retry_ns <= now)
		uet_pdc_rod_deliver_held(pds, pdc, now);
	if (pdc->nheld && now - pdc->hold_since_ns >= UET_PDS_HOLD_NS) {
		/* A gap nothing filled for that long: the packets behind
		 * it pin hold buffers for a peer that is gone or hostile
		 * (a live one retransmits the missing PSN well before). */
		UET_PDS_INC(pds, pdc, hold_expired);
		uet_pds_drop_warn(pds, UET_PDS_DROP_HOLD_EXPIRED);
		uet_pdc_fail(pds, pdc, -ECONNRESET);
		return false;
	}
	if (pdc->ack_due_ns <= now) {
		UET_PDS_INC(pds, pdc, ack_timer);
		uet_pdc_send_ack(pds, pdc, pdc->ack_psn, NULL, false, 0, false,
				 now);
	}
	return true;
}

uint64_t uet_pdc_rx_deadline(const struct uet_pds *pds,
			     const struct uet_pdc *pdc)
{
	uint64_t next = uet_pds_min64(pdc->ack_due_ns, pdc->deliver_retry_ns);

	if (pdc->nheld)
		next = uet_pds_min64(next, pdc->hold_since_ns +
					   UET_PDS_HOLD_NS);
	return next;
}

/* ---- dispatch ---- */

/*
 * A request trimmed on the way (DSCP UET_LINK_DSCP_TRIMMED, payload cut):
 * answered with the TRIMMED NACK so that the initiator sends it again at
 * once, without waiting for a timeout.  No state is created or looked
 * up: the NACK names the sender's PDCID and goes to the datagram's
 * source, smaller than what came in (no amplification).
 */
static void uet_pds_trimmed_rx(struct uet_pds *pds, const uint8_t *buf,
			       size_t len, const struct uet_link_addr *src,
			       uint64_t now)
{
	struct uet_pds_rud_rod_cc_req cc;
	struct uet_pds_rud_rod_req h;
	unsigned int type = (unsigned int)uet_pds_peek_type(buf, len);
	size_t hlen;
	ssize_t hl;

	/* Only the PDS request header is needed (the SES part may be
	 * cut): decode the fixed header alone (with its CC state, CSIG). */
	hlen = uet_pds_type_len(pds->cfg.wire, type);
	if (type == UET_PDS_TYPE_RUD_CC_REQ ||
	    type == UET_PDS_TYPE_ROD_CC_REQ) {
		hl = len < hlen ? -1 :
		     uet_pds_rud_rod_cc_req_decode(pds->cfg.wire, &cc, buf,
						   hlen);
		h = cc.req;
	} else {
		hl = len < hlen || !hlen ? -1 :
		     uet_pds_rud_rod_req_decode(pds->cfg.wire, &h, buf, hlen);
	}
	if (hl < 0 || h.next_hdr == UET_HDR_NONE) {
		pds->st.malformed++;
		return;
	}
	pds->cc.st.trimmed_rx++;
	uet_pds_send_nack(pds, src, UET_NACK_TRIMMED, false, h.psn,
			  h.syn ? 0 : h.dpdcid, h.spdcid, h.retx, now);
}

void uet_pds_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
		const struct uet_link_addr *src, uint64_t now)
{
	uet_pds_rx_tos(pds, buf, len, src, 0, now);
}

void uet_pds_rx_tos(struct uet_pds *pds, const uint8_t *buf, size_t len,
		    const struct uet_link_addr *src, uint8_t tos,
		    uint64_t now)
{
	uint64_t malformed, unknown;
	unsigned int type;

	if (!pds)
		return;
	now = uet_pds_clock(pds, now);
	pds->st.rx_pkts++;
	pds->st.rx_bytes += len;
	if (!buf || !src || len < UET_PDS_PROLOGUE_LEN) {
		pds->st.malformed++;
		uet_pds_drop_warn(pds, UET_PDS_DROP_MALFORMED);
		return;
	}
	malformed = pds->st.malformed;
	unknown = pds->st.unknown_pdc;
	pds->rx_tos = tos;
	type = (unsigned int)uet_pds_peek_type(buf, len);
	switch (type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		if (UET_LINK_TOS_DSCP(tos) == UET_LINK_DSCP_TRIMMED)
			uet_pds_trimmed_rx(pds, buf, len, src, now);
		else
			uet_pds_req_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_RUDI_REQ:
		uet_pds_rudi_req_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_RUDI_RESP:
		uet_pds_rudi_resp_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_UUD_REQ:
		uet_pds_uud_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
	case UET_PDS_TYPE_ACK_CCX:
		uet_pds_ack_pkt_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_NACK:
	case UET_PDS_TYPE_NACK_CCX:
		uet_pds_nack_pkt_rx(pds, buf, len, src, now);
		break;
	case UET_PDS_TYPE_CP:
		uet_pds_cp_rx(pds, buf, len, src, now);
		break;
	default:
		/* Reserved, TSS (not supported) and undefined types. */
		pds->st.malformed++;
		break;
	}
	pds->rx_tos = 0;
	if (pds->st.malformed != malformed)
		uet_pds_drop_warn(pds, UET_PDS_DROP_MALFORMED);
	if (pds->st.unknown_pdc != unknown)
		uet_pds_drop_warn(pds, UET_PDS_DROP_UNKNOWN_PDC);
	uet_pds_flush_done(pds);
}
