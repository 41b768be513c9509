/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The transmit direction of a PDC: PSN assignment, request header
 * encoding, ACK / NACK processing, RTT estimation and retransmission.
 *
 * Outstanding packets (handed to uet_pds_send and not yet reported by
 * tx_done) live in a ring indexed by PSN (ring_size >= cfg.window) and on
 * exactly one list:
 *   sent     unacked, ordered by last transmission (a retransmission
 *            moves the packet to the tail);
 *   nacked   unacked, NACKed: retransmitted at priv.due_ns;
 *   rspwait  acked but want_rsp and the SES response has not come:
 *            ACK_REQUEST at priv.due_ns.
 * oldest is the first PSN not done (CLEAR_PSN = oldest - 1) and the
 * window is next_psn - oldest <= cfg.window, so clear_psn_offset always
 * fits; snd_una is the first PSN not known to be acked.
 *
 * Retransmission is selective: only packets the peer's ACKs show missing
 * are sent again, never a window (go-back-N).
 *
 * Retransmission timer (one per PDC, rto_due_ns, armed on the oldest
 * transmission in `sent`): an expiry retransmits one packet, the lowest
 * unacked PSN (or the oldest transmission when the lowest was sent
 * again less than an RTO ago), followed, when other packets are
 * outstanding, by a PROBE.  The peer answers the PROBE after everything
 * the link took before it, so the packets sent before it that the answer
 * shows missing were lost and are retransmitted then (a burst loss costs
 * one RTO, not one backed-off RTO per packet); a busy peer whose ACKs
 * were only late shows them received.  In SYN_SENT
 * (no PROBE without the peer's PDCID) the first expiry retransmits every
 * packet one RTO old.  Each expiry doubles the RTO (capped at rto_max).
 * The backoff persists until a fresh RTT sample (Karn: the ACK designates
 * a packet transmitted once); ACK progress alone only re-arms the timer.
 *
 * Failure: every packet counts its retransmissions since the peer last
 * gave a sign of life (uet_pdc_alive: any valid ACK except a PROBE answer
 * that acks nothing new, any NACK, control packet or request from it on
 * this PDC).  A packet that would be retransmitted once more after
 * max_retries such retransmissions fails the PDC (every outstanding
 * packet completes with -ETIMEDOUT) only if the peer has also been
 * silent for cfg.dead_ns since its last sign of life or since the packet
 * was first sent, whichever is later; until then it keeps being
 * retransmitted at the backed-off RTO.  A slow peer that answers, however
 * late, therefore never fails the PDC; a vanished one fails it within
 * max((max_retries + 1) * rto_max, dead_ns + rto_max) of that time.
 *
 * SACK holes (RACK, RFC 8985): packets are numbered in transmission order
 * (priv.tx_seq; `sent` is in that order).  rack_seq is the latest
 * transmission known delivered: acked or SACKed when sent once; when
 * retransmitted, only a packet retransmitted once that the ACK designates
 * with retx = 1 (any other ACK of it may be for an earlier copy; one
 * that comes sooner than min_rtt after the retransmission is for an
 * earlier copy in any case).  A packet of `sent` transmitted before
 * rack_seq is lost once it is older than rack_rtt + the reorder window,
 * provided the latest ACK described its PSN (rack_psn_hi: the end of the
 * ACK's 64-PSN SACK bitmap, or everything sent for a plain ACK, which
 * means no hole; a packet beyond the bitmap may have arrived unreported);
 * younger ones arm the reorder timer (reo_due_ns).  The reorder
 * window is max(cfg.reorder_min_ns, min(reo_mult * min_rtt / 4, srtt)),
 * or 0 (fast retransmit on plain loss) when at least UET_PDS_DUPTHRESH
 * PSNs are SACKed on a path that delivered a window of packets sent once
 * without any reordering seen.  reo_mult grows (once per round trip)
 * when a RACK retransmission turns out spurious (acked sooner than
 * min_rtt after it) and decays to 1 after UET_PDS_REO_PERSIST genuine
 * ones.  Tail loss probe: when nothing is acked for 2 SRTT + ack_delay
 * after the last new transmission or progress, and before the RTO, the
 * latest transmission is sent again (once until progress or an RTO), so
 * that RACK finds a lost tail without waiting for the RTO.  RACK and TLP
 * retransmissions count as retx_sack.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pds_internal.h"

int uet_pdc_tx_init(struct uet_pds *pds, struct uet_pdc *pdc)
{
	pdc->ring = calloc(pds->ring_size, sizeof(*pdc->ring));
	if (!pdc->ring)
		return -ENOMEM;
	uet_dlist_init(&pdc->sent);
	uet_dlist_init(&pdc->nacked);
	uet_dlist_init(&pdc->rspwait);
	pdc->rtt.rto = pds->cfg.rto_init_ns;
	pdc->next_psn = pdc->start_psn;
	pdc->snd_una = pdc->start_psn;
	pdc->oldest = pdc->start_psn;
	pdc->rto_due_ns = UINT64_MAX;
	pdc->reo_due_ns = UINT64_MAX;
	pdc->tlp_due_ns = UINT64_MAX;
	pdc->reo_mult = 1;
	return 0;
}

void uet_pdc_tx_fini(struct uet_pds *pds, struct uet_pdc *pdc)
{
	free(pdc->ring);
	pdc->ring = NULL;
}

static inline struct uet_pds_tx_pkt **
uet_pdc_slot(const struct uet_pds *pds, const struct uet_pdc *pdc,
	     uint32_t psn)
{
	return &pdc->ring[psn & pds->ring_mask];
}

/* psn is in [oldest, next_psn). */
static bool uet_pdc_in_flight(const struct uet_pdc *pdc, uint32_t psn)
{
	return psn - pdc->oldest < pdc->next_psn - pdc->oldest;
}

uint32_t uet_pdc_clear_base(const struct uet_pdc *pdc)
{
	return pdc->oldest;
}

unsigned int uet_pdc_tx_space(const struct uet_pds *pds,
			      const struct uet_pdc *pdc)
{
	uint32_t used = pdc->next_psn - pdc->oldest;
	uint32_t space, syn_room;

	if (pdc->state == UET_PDC_CLOSE_ACK_WAIT ||
	    pdc->state == UET_PDC_CLOSED)
		return 0;
	space = used < pds->cfg.window ? pds->cfg.window - used : 0;
	if (!pdc->verified)
		space = pdc->nout < UET_PDS_UNVERIFIED_TX ?
			UET_PDS_UNVERIFIED_TX - pdc->nout : 0;
	if (pdc->state == UET_PDC_SYN_SENT) {
		/* psn_offset is 12 bits: at most 4096 PSNs before an ACK. */
		used = pdc->next_psn - pdc->start_psn;
		syn_room = used <= UET_PSN_OFFSET_MAX ?
			   UET_PSN_OFFSET_MAX + 1 - used : 0;
		if (syn_room < space)
			space = syn_room;
	}
	if (pdc->ccd && space) {
		uint32_t room = uet_pds_cc_tx_room(pds, pdc);

		if (room < space)
			space = room;
	}
	return space;
}

static void uet_pdc_advance(const struct uet_pds *pds, struct uet_pdc *pdc)
{
	struct uet_pds_tx_pkt *pkt;

	while (pdc->snd_una != pdc->next_psn) {
		pkt = *uet_pdc_slot(pds, pdc, pdc->snd_una);
		if (pkt && !pkt->priv.acked)
			break;
		pdc->snd_una++;
	}
	while (pdc->oldest != pdc->next_psn &&
	       !*uet_pdc_slot(pds, pdc, pdc->oldest))
		pdc->oldest++;
}

/* Arm the retransmission timer for the oldest transmission in `sent`. */
static void uet_pdc_rearm(const struct uet_pds *pds, struct uet_pdc *pdc)
{
	struct uet_pds_tx_pkt *head;

	head = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				     priv.entry);
	pdc->rto_due_ns = head ? head->priv.last_tx_ns +
			  uet_pds_rto_backoff(pds, &pdc->rtt, pdc->backoff) :
			  UINT64_MAX;
}

/* Arm the tail loss probe 2 SRTT + the ACK delay after now, unless a
 * probe is out or the RTO comes first, or a single packet is waiting on
 * `sent`: probing it would only be an early RTO, with no hole before it
 * for RACK to find, and on a path slower than 2 SRTT (a busy peer, a
 * ping-pong) a spurious retransmission every time. */
static void uet_pdc_tlp_arm(const struct uet_pds *pds, struct uet_pdc *pdc,
			    uint64_t now)
{
	uint64_t due;

	pdc->tlp_due_ns = UINT64_MAX;
	if (pdc->tlp_out || !pdc->rtt.valid || uet_dlist_empty(&pdc->sent) ||
	    pdc->sent.next == pdc->sent.prev)
		return;
	due = now + 2 * pdc->rtt.srtt + pds->cfg.ack_delay_ns;
	if (due < pdc->rto_due_ns)
		pdc->tlp_due_ns = due;
}

/* Whether pkt, sent with a RUD/ROD header, leaves the 16 bytes of a
 * RUD_CC/ROD_CC header's CC state below the MTU (CSIG). */
static bool uet_pdc_csig_room(struct uet_pds *pds, const struct uet_pdc *pdc,
			      const struct uet_pds_tx_pkt *pkt)
{
	size_t total = UET_PDS_RUD_ROD_CC_REQ_LEN + pkt->hdr_len;
	unsigned int i;

	for (i = 0; i < pkt->iovcnt; i++)
		total += pkt->iov[i].iov_len;
	return total <= pds->mtu || total <= uet_pds_path_mtu(pds, &pdc->peer);
}

int uet_pdc_send(struct uet_pds *pds, struct uet_pdc *pdc,
		 struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	struct uet_pds_hbuf *hb;
	bool was_idle;
	uint32_t psn;

	if (!uet_pdc_tx_space(pds, pdc)) {
		if (!pdc->verified)
			UET_PDS_INC(pds, pdc, unverified_wait);
		else if (pdc->ccd && uet_pds_cc_paced_out(pds, pdc)) {
			pdc->ccd->st.pace_waits++;
			pdc->pace_due_ns = uet_pds_cc_pace_due(pds, pdc->ccd,
							       now);
		} else if (pdc->ccd && !uet_pds_cc_tx_room(pds, pdc))
			pdc->ccd->st.cwnd_waits++;
		return pdc->state == UET_PDC_CLOSE_ACK_WAIT ? -ENOTCONN :
							      -EAGAIN;
	}
	hb = uet_bufpool_get(&pds->hbuf_pool);
	if (!hb)
		return -ENOMEM;
	pkt->priv.hbuf = hb;
	pkt->priv.pds_len = UET_PDS_RUD_ROD_REQ_LEN;
	/* CSIG: UE+ only (UE 1.0.1's CC request has no CC state) */
	if (pds->cfg.cc_csig && pdc->ccd && pds->cfg.wire == UET_WIRE_UEPLUS &&
	    uet_pdc_csig_room(pds, pdc, pkt))
		pkt->priv.pds_len = UET_PDS_RUD_ROD_CC_REQ_LEN;	/* CSIG */
	memcpy(hb->bytes + pkt->priv.pds_len, pkt->hdr, pkt->hdr_len);
	pkt->priv.pdc = pdc;
	psn = pdc->next_psn++;
	pkt->priv.psn = psn;
	*uet_pdc_slot(pds, pdc, psn) = pkt;
	pdc->nout++;
	pkt->priv.state = UET_PKT_SENT;
	pkt->priv.first_tx_ns = now;
	pkt->priv.last_tx_ns = now;
	pkt->priv.tx_count = 1;
	pkt->priv.tx_seq = pdc->tx_seq++;
	pkt->priv.epoch = pdc->epoch;
	if (pdc->ccd) {
		size_t bytes = (size_t)pkt->priv.pds_len + pkt->hdr_len;
		unsigned int i;

		for (i = 0; i < pkt->iovcnt; i++)
			bytes += pkt->iov[i].iov_len;
		uet_pds_cc_pkt_sent(pds, pkt, (uint32_t)bytes);
	}
	/* ACK at once: when SES asks, the first packet, and the one that
	 * fills the window. */
	pkt->priv.ar = pkt->ar || psn == pdc->start_psn ||
		       pdc->next_psn - pdc->oldest >= pds->cfg.window;
	was_idle = uet_dlist_empty(&pdc->sent);
	uet_dlist_insert_tail(&pdc->sent, &pkt->priv.entry);
	if (was_idle)
		uet_pdc_rearm(pds, pdc);
	uet_pdc_tlp_arm(pds, pdc, now);
	pdc->last_active_ns = now;
	if (pdc->state == UET_PDC_T_CLOSE_REQ_WAIT)
		pdc->state = UET_PDC_T_ESTABLISHED;	/* busy again */
	uet_pds_out_pkt(pds, pkt, now);
	return 0;
}

void uet_pdc_encode_req(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt)
{
	struct uet_pdc *pdc = pkt->priv.pdc;
	struct uet_pds_hbuf *hb = pkt->priv.hbuf;
	struct uet_pds_rud_rod_cc_req cc;
	struct uet_pds_rud_rod_req h;

	memset(&h, 0, sizeof(h));
	h.type = pdc->mode == UET_PDS_MODE_ROD ? UET_PDS_TYPE_ROD_REQ :
						 UET_PDS_TYPE_RUD_REQ;
	h.next_hdr = pkt->next_hdr;
	h.retx = pkt->priv.tx_count > 1;
	h.ar = pkt->priv.ar;
	h.syn = pdc->state == UET_PDC_SYN_SENT;
	/* CLEAR_PSN = oldest - 1; the packet itself is not done. */
	h.clear_psn_offset = (uint16_t)(pkt->priv.psn -
					uet_pdc_clear_base(pdc) + 1);
	h.psn = pkt->priv.psn;
	h.spdcid = pdc->lpdcid;
	if (h.syn) {
		h.pdc_info = 0;		/* general pool */
		h.psn_offset = (uint16_t)(pkt->priv.psn - pdc->start_psn);
	} else {
		h.dpdcid = pdc->rpdcid;
	}
	/* Every value fits by construction (window, psn_offset bound). */
	if (pkt->priv.pds_len == UET_PDS_RUD_ROD_CC_REQ_LEN) {
		/* CSIG: the CC state as of this transmission */
		h.type = pdc->mode == UET_PDS_MODE_ROD ?
			 UET_PDS_TYPE_ROD_CC_REQ : UET_PDS_TYPE_RUD_CC_REQ;
		cc.req = h;
		uet_pds_cc_csig_fill(pds, pdc, cc.req_cc_state);
		(void)uet_pds_rud_rod_cc_req_encode(pds->cfg.wire, hb->bytes,
						    UET_PDS_RUD_ROD_CC_REQ_LEN,
						    &cc);
		return;
	}
	(void)uet_pds_rud_rod_req_encode(pds->cfg.wire, hb->bytes, UET_PDS_RUD_ROD_REQ_LEN,
					 &h);
}

/* ---- retransmission ---- */

void uet_pdc_alive(struct uet_pdc *pdc, uint64_t now)
{
	pdc->last_alive_ns = now;
	pdc->doom_ns = UINT64_MAX;	/* it answers: reports were stale */
	pdc->epoch++;
}

/* Count one more retransmission of pkt; false when the PDC must fail:
 * max_retries retransmissions since the peer's last sign of life, and
 * cfg.dead_ns of silence since then or since pkt was first sent. */
static bool uet_pdc_retry_ok(const struct uet_pds *pds,
			     const struct uet_pdc *pdc,
			     struct uet_pds_tx_pkt *pkt, uint64_t now)
{
	uint64_t since;

	if (pkt->priv.epoch != pdc->epoch) {
		pkt->priv.epoch = pdc->epoch;
		pkt->priv.retries = 0;
	}
	if (pkt->priv.retries < pds->cfg.max_retries) {
		pkt->priv.retries++;
		return true;
	}
	since = pdc->last_alive_ns > pkt->priv.first_tx_ns ?
		pdc->last_alive_ns : pkt->priv.first_tx_ns;
	return now < since || now - since < pds->cfg.dead_ns;
}

enum uet_pdc_retx_cause {
	UET_RETX_TIMEOUT,
	UET_RETX_NACK,
	UET_RETX_SACK,
};

/* Retransmit pkt; false when the PDC failed (and was freed) instead. */
static bool uet_pdc_retransmit(struct uet_pds *pds, struct uet_pdc *pdc,
			       struct uet_pds_tx_pkt *pkt,
			       enum uet_pdc_retx_cause cause, uint64_t now)
{
	if (!uet_pdc_retry_ok(pds, pdc, pkt, now)) {
		uet_pdc_fail(pds, pdc, -ETIMEDOUT);
		return false;
	}
	if (pkt->priv.tx_count < UINT16_MAX)
		pkt->priv.tx_count++;
	pkt->priv.last_tx_ns = now;
	pkt->priv.tx_seq = pdc->tx_seq++;
	pkt->priv.rack_retx = cause == UET_RETX_SACK;
	pkt->priv.ar = true;
	pkt->priv.state = UET_PKT_SENT;
	pkt->priv.nack_retx = false;
	uet_dlist_remove(&pkt->priv.entry);
	uet_dlist_insert_tail(&pdc->sent, &pkt->priv.entry);
	UET_PDS_INC(pds, pdc, retx);
	switch (cause) {
	case UET_RETX_TIMEOUT:
		UET_PDS_INC(pds, pdc, retx_timeout);
		uet_pds_cc_on_timeout(pds, pdc, pkt->priv.entropy);
		break;
	case UET_RETX_NACK:
		UET_PDS_INC(pds, pdc, retx_nack);
		break;
	case UET_RETX_SACK:
		UET_PDS_INC(pds, pdc, retx_sack);
		uet_pds_cc_on_loss(pds, pdc, pkt->priv.entropy);
		break;
	}
	uet_pds_out_pkt(pds, pkt, now);
	return true;
}

/* ---- ACK processing ---- */

struct uet_pdc_ack_ctx {
	uint64_t now;
	bool ack_retx;			/* the ACK's retx: of which copy */
	bool progress;
	bool rack_valid;		/* RACK state before this ACK */
	uint32_t rack_seq;
	/* Congestion feedback gathered from the packets it acks. */
	uint64_t acked_bytes;
	uint64_t rtt;			/* designated packet's sample, 0 */
	uint16_t ent;			/* designated packet's entropy */
	bool have_ent;
};

/*
 * RACK bookkeeping for a newly acked (or SACKed) packet.  A retransmitted
 * packet advances rack_seq only when it is certain that its latest
 * transmission was delivered: it was retransmitted once and the ACK
 * designates it with retx = 1.  Acked cumulatively, by SACK, by an ACK
 * with retx = 0, or after several retransmissions, it may be an earlier
 * copy that arrived (a late ACK of a busy peer after an RTO); taking it
 * for its latest transmission would mark every packet sent in between
 * lost, and send again packets that arrived.
 */
static void uet_pdc_rack_update(struct uet_pdc *pdc,
				const struct uet_pds_tx_pkt *pkt,
				bool designated,
				const struct uet_pdc_ack_ctx *c)
{
	uint64_t since = c->now - pkt->priv.last_tx_ns;

	if (pkt->priv.tx_count > 1) {
		if (!pdc->rtt.valid)
			return;		/* cannot tell which copy arrived */
		if (since < pdc->rtt.min_rtt) {
			/* Faster than any round trip: an earlier copy was
			 * delivered.  If RACK had declared it lost, it was
			 * only late: reordering. */
			if (pkt->priv.rack_retx) {
				pdc->reordering_seen = true;
				/* Widen the window, once per round trip:
				 * for a retransmission sent after the
				 * last widening. */
				if (pdc->reo_mult < UET_PDS_REO_MULT_MAX &&
				    !uet_seq32_lt(pkt->priv.tx_seq,
						  pdc->reo_inc_seq)) {
					pdc->reo_mult++;
					pdc->reo_inc_seq = pdc->tx_seq;
				}
				pdc->reo_persist = UET_PDS_REO_PERSIST;
			}
			return;
		}
		if (!designated || !c->ack_retx || pkt->priv.tx_count != 2)
			return;		/* which copy arrived is unknown */
		if (pkt->priv.rack_retx && pdc->reo_persist &&
		    --pdc->reo_persist == 0)
			pdc->reo_mult = 1;
	} else {
		if (c->rack_valid && uet_seq32_lt(pkt->priv.tx_seq,
						  c->rack_seq))
			/* Sent before something an earlier ACK reported. */
			pdc->reordering_seen = true;
		if (pdc->acked_once < UINT32_MAX)
			pdc->acked_once++;
	}
	if (!pdc->rack_valid || uet_seq32_lt(pdc->rack_seq, pkt->priv.tx_seq)) {
		pdc->rack_seq = pkt->priv.tx_seq;
		pdc->rack_rtt_ns = since;
		pdc->rack_valid = true;
	}
}

/*
 * The RTT sample an ACK designating pkt gives, or false.  The target
 * copies the retx bit of the request that triggered the ACK into it, so
 * the ACK tells which copy arrived: retx = 0 the first transmission,
 * retx = 1 a retransmission, unambiguous while there was only one.
 * (Karn's rule alone would discard every sample of a packet that was
 * probed or retransmitted too early, so SRTT could never grow towards a
 * path that became slower: every packet would be probed again.)
 */
static bool uet_pdc_rtt_of(const struct uet_pds_tx_pkt *pkt,
			   const struct uet_pdc_ack_ctx *c, uint64_t *sample)
{
	uint64_t sent;

	if (pkt->priv.tx_count == 1 || !c->ack_retx)
		sent = pkt->priv.first_tx_ns;
	else if (pkt->priv.tx_count == 2)
		sent = pkt->priv.last_tx_ns;
	else
		return false;
	if (c->now < sent)
		return false;
	*sample = c->now - sent;
	return true;
}

/* Mark pkt acked; rsp (may be NULL) is the SES response for it. */
static void uet_pdc_ack_pkt(struct uet_pds *pds, struct uet_pdc *pdc,
			    struct uet_pds_tx_pkt *pkt, bool designated,
			    uint8_t rsp_nh, const uint8_t *rsp, size_t rsp_len,
			    struct uet_pdc_ack_ctx *c)
{
	uint64_t sample;

	if (pkt->priv.acked) {
		if (rsp && pkt->priv.state == UET_PKT_RSPWAIT) {
			pdc->rsp_since_clear = true;
			*uet_pdc_slot(pds, pdc, pkt->priv.psn) = NULL;
			pdc->nout--;
			uet_pds_complete(pds, pkt, 0, rsp_nh, rsp, rsp_len);
			c->progress = true;
		}
		return;
	}
	pkt->priv.acked = true;
	c->progress = true;
	if (pkt->priv.cc) {
		c->acked_bytes += pkt->priv.cc_bytes;
		uet_pds_cc_pkt_release(pkt);
	}
	if (designated) {
		c->ent = pkt->priv.entropy;
		c->have_ent = true;
	}
	/* Only the designated packet, and only when it is known which of
	 * its copies was delivered, gives an RTT sample; a fresh sample
	 * ends the RTO backoff. */
	if (designated && uet_pdc_rtt_of(pkt, c, &sample)) {
		uet_pds_rtt_sample(pds, &pdc->rtt, sample);
		pdc->backoff = 0;
		c->rtt = sample ? sample : 1;
	}
	uet_pdc_rack_update(pdc, pkt, designated, c);
	uet_pds_unqueue_pkt(pds, pkt);
	uet_dlist_remove(&pkt->priv.entry);
	if (rsp)
		pdc->rsp_since_clear = true;
	if (rsp || !pkt->want_rsp) {
		*uet_pdc_slot(pds, pdc, pkt->priv.psn) = NULL;
		pdc->nout--;
		uet_pds_complete(pds, pkt, 0, rsp_nh, rsp, rsp_len);
		return;
	}
	/* Acked without its response: ask for it (rate-limited by RTO). */
	pkt->priv.state = UET_PKT_RSPWAIT;
	pkt->priv.due_ns = c->now;
	pkt->priv.epoch = pdc->epoch + 1;	/* fresh retry budget */
	pkt->priv.retries = 0;
	uet_dlist_insert_tail(&pdc->rspwait, &pkt->priv.entry);
}

static struct uet_pds_tx_pkt *uet_pdc_pkt(const struct uet_pds *pds,
					  const struct uet_pdc *pdc,
					  uint32_t psn)
{
	if (!uet_pdc_in_flight(pdc, psn))
		return NULL;
	return *uet_pdc_slot(pds, pdc, psn);
}

/* The RACK reorder window. */
static uint64_t uet_pdc_reo_wnd(const struct uet_pds *pds,
				const struct uet_pdc *pdc)
{
	uint64_t w = 0;

	/* A sprayed PDC reorders by design (its packets take paths with
	 * different queues): the window is the RTT's spread, srtt + 4
	 * rttvar, and the duplicate threshold never applies. */
	if (pdc->ccd && pdc->ccd->nent > 1 && pdc->rtt.valid) {
		w = pdc->rtt.srtt + 4 * pdc->rtt.rttvar;
		return w > pds->cfg.reorder_min_ns ? w :
		       pds->cfg.reorder_min_ns;
	}
	/* Duplicate threshold: only on a path seen delivering a whole
	 * window without reordering, so a jittery path does not get its
	 * first burst retransmitted. */
	if (!pdc->reordering_seen && pdc->acked_once >= pds->cfg.window &&
	    pdc->sacked >= UET_PDS_DUPTHRESH)
		return 0;
	if (pdc->rtt.valid) {
		w = pdc->reo_mult * (pdc->rtt.min_rtt / 4);
		if (w > pdc->rtt.srtt)
			w = pdc->rtt.srtt;
	}
	return w > pds->cfg.reorder_min_ns ? w : pds->cfg.reorder_min_ns;
}

/* RACK: retransmit the packets of `sent` transmitted before rack_seq,
 * older than rack_rtt + the reorder window, and within what the latest
 * ACK described (rack_psn_hi: a packet above it may have arrived without
 * the peer being able to say so); arm the reorder timer for the next
 * one.  false when the PDC failed (and was freed) instead. */
static bool uet_pdc_rack_detect(struct uet_pds *pds, struct uet_pdc *pdc,
				uint64_t now)
{
	struct uet_pds_tx_pkt *pkt, *next;
	uint64_t wait, due;

	pdc->reo_due_ns = UINT64_MAX;
	if (!pdc->rack_valid)
		return true;
	wait = pdc->rack_rtt_ns + uet_pdc_reo_wnd(pds, pdc);
	/* `sent` is in transmission order, so its due times are sorted;
	 * a retransmission goes to the tail with a tx_seq after rack_seq. */
	pkt = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				    priv.entry);
	while (pkt && uet_seq32_lt(pkt->priv.tx_seq, pdc->rack_seq)) {
		next = pkt->priv.entry.next == &pdc->sent ? NULL :
		       uet_container_of(pkt->priv.entry.next,
					struct uet_pds_tx_pkt, priv.entry);
		if (uet_seq32_lt(pdc->rack_psn_hi, pkt->priv.psn)) {
			pkt = next;	/* not described: no verdict */
			continue;
		}
		due = pkt->priv.last_tx_ns + wait;
		if (due > now) {
			pdc->reo_due_ns = due;
			break;
		}
		/* Moves pkt to the tail, after next. */
		if (!uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_SACK, now))
			return false;
		pkt = next;
	}
	return true;
}

/*
 * The peer answered the PROBE sent with the last RTO retransmission.  It
 * processed that PROBE after every datagram the link took before it (one
 * path, in order: transmissions before rto_seq), so such a packet that
 * the answer describes as missing was lost: a burst, or retransmissions
 * lost too.  Send those
 * again now rather than one per backed-off RTO; if the RTO only met a
 * slow peer, the answer shows them received and nothing is sent.  false
 * when the PDC failed.
 */
static bool uet_pdc_rto_recover(struct uet_pds *pds, struct uet_pdc *pdc,
				uint64_t now)
{
	struct uet_pds_tx_pkt *pkt, *next;

	pkt = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				    priv.entry);
	while (pkt && uet_seq32_lt(pkt->priv.tx_seq, pdc->rto_seq)) {
		next = pkt->priv.entry.next == &pdc->sent ? NULL :
		       uet_container_of(pkt->priv.entry.next,
					struct uet_pds_tx_pkt, priv.entry);
		if (!uet_seq32_lt(pdc->rack_psn_hi, pkt->priv.psn) &&
		    !uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_TIMEOUT, now))
			return false;
		pkt = next;
	}
	return true;
}

void uet_pdc_ack_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		    const struct uet_pds_ack *ack, bool has_sack,
		    int16_t sack_psn_offset, uint64_t sack_bitmap,
		    const uint8_t *rsp, size_t rsp_len,
		    const struct uet_pds_cc_fb *fb, uint64_t now)
{
	struct uet_pdc_ack_ctx c = {
		.now = now,
		.ack_retx = ack->retx,
		.progress = false,
		.rack_valid = pdc->rack_valid,
		.rack_seq = pdc->rack_seq,
	};
	struct uet_pds_tx_pkt *pkt;
	uint32_t cack = ack->cack_psn, psn, base, sacked = 0;
	unsigned int i;

	pdc->last_heard_ns = now;
	pdc->last_active_ns = now;
	if (pdc->state == UET_PDC_SYN_SENT) {
		pdc->rpdcid = ack->spdcid;
		pdc->state = UET_PDC_ESTABLISHED;
	}
	if (pdc->state == UET_PDC_CLOSE_ACK_WAIT && !ack->p &&
	    (uint32_t)(cack + (uint32_t)(int32_t)ack->ack_psn_offset) ==
	    pdc->close_psn) {
		UET_PDS_INC(pds, pdc, pdc_closed);
		uet_pdc_teardown(pds, pdc);
		return;
	}
	/* A cumulative point beyond anything sent is bogus: ahead of
	 * snd_una (half the sequence space, 2^31 included) by more than is
	 * in flight.  Unsigned, so that no cack is both. */
	if (cack + 1 - pdc->snd_una > pdc->next_psn - pdc->snd_una &&
	    cack + 1 - pdc->snd_una <= 0x80000000u) {
		UET_PDS_INC(pds, pdc, malformed);
		return;
	}

	/* 1. The designated packet first: its response rides on this ACK. */
	if (!ack->p) {
		psn = cack + (uint32_t)(int32_t)ack->ack_psn_offset;
		pkt = uet_pdc_pkt(pds, pdc, psn);
		if (pkt)
			uet_pdc_ack_pkt(pds, pdc, pkt, true,
					ack->next_hdr, rsp, rsp_len, &c);
	}
	/* 2. Cumulative: snd_una .. cack when cack is among the PSNs sent;
	 * an older one acknowledges nothing new. */
	if (cack + 1 - pdc->snd_una <= pdc->next_psn - pdc->snd_una) {
		for (psn = pdc->snd_una; psn != cack + 1; psn++) {
			pkt = *uet_pdc_slot(pds, pdc, psn);
			if (pkt)
				uet_pdc_ack_pkt(pds, pdc, pkt, false,
						UET_HDR_NONE, NULL, 0, &c);
		}
	}
	/* 3. Selective. */
	if (has_sack && sack_bitmap) {
		base = cack + (uint32_t)(int32_t)sack_psn_offset;
		for (i = 0; i < 64; i++) {
			if (!(sack_bitmap >> i & 1))
				continue;
			psn = base + i;
			if (!uet_pdc_in_flight(pdc, psn))
				continue;
			sacked++;
			pkt = *uet_pdc_slot(pds, pdc, psn);
			if (pkt)
				uet_pdc_ack_pkt(pds, pdc, pkt, false,
						UET_HDR_NONE, NULL, 0, &c);
		}
	}
	pdc->sacked = sacked;
	/* What this ACK described: up to the end of its SACK bitmap, or,
	 * with no bitmap (no hole at the peer), everything sent. */
	pdc->rack_psn_hi = has_sack ?
		cack + (uint32_t)(int32_t)sack_psn_offset + 63u :
		pdc->next_psn - 1;
	uet_pdc_advance(pds, pdc);
	if (pdc->ccd)
		uet_pds_cc_on_ack(pds, pdc, fb, c.acked_bytes, c.rtt, c.ent,
				  c.have_ent, now);
	/* Alive, unless this only answers our PROBE and acks nothing: then
	 * the peer is there but what we send it does not arrive. */
	if (!ack->p || c.progress)
		uet_pdc_alive(pdc, now);
	if (c.progress) {
		pdc->rto_fired = false;
		pdc->tlp_out = false;
		uet_pdc_rearm(pds, pdc);
		uet_pdc_tlp_arm(pds, pdc, now);
	}

	/* 4. The answer to the RTO's PROBE: what it shows missing of what
	 * was sent before it was lost. */
	if (pdc->rto_probe && ack->p &&
	    ack->probe_opaque == pdc->probe_opaque) {
		pdc->rto_probe = false;
		if (!uet_pdc_rto_recover(pds, pdc, now))
			return;
	}
	/* 5. Holes: packets sent before one now known delivered (RACK). */
	(void)uet_pdc_rack_detect(pds, pdc, now);
}

/* ---- NACK processing ---- */

static void uet_pdc_nack_later(const struct uet_pds *pds, struct uet_pdc *pdc,
			       struct uet_pds_tx_pkt *pkt, uint64_t due)
{
	pkt->priv.acked = false;
	pkt->priv.state = UET_PKT_NACKED;
	pkt->priv.nack_retx = true;
	pkt->priv.due_ns = due;
	uet_pds_unqueue_pkt((struct uet_pds *)pds, pkt);
	uet_dlist_remove(&pkt->priv.entry);
	uet_dlist_insert_tail(&pdc->nacked, &pkt->priv.entry);
	if (uet_dlist_empty(&pdc->sent))
		pdc->rto_due_ns = UINT64_MAX;
}

void uet_pdc_nack_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		     const struct uet_pds_nack *nack, uint64_t now)
{
	uint32_t psn = nack->nack_psn;
	struct uet_pds_tx_pkt *pkt;
	uint64_t rto;

	pdc->last_heard_ns = now;
	uet_pdc_alive(pdc, now);
	if (nack->nack_code == UET_NACK_INV_DPDCID) {
		if (pdc->state == UET_PDC_CLOSE_ACK_WAIT &&
		    psn == pdc->close_psn) {
			UET_PDS_INC(pds, pdc, pdc_closed);
			uet_pdc_teardown(pds, pdc);
		} else if (uet_pdc_pkt(pds, pdc, psn)) {
			uet_pdc_restart(pds, pdc, now);
		}
		return;
	}
	pkt = uet_pdc_pkt(pds, pdc, psn);
	if (!pkt)
		return;		/* stale: already done */
	switch (nack->nack_code) {
	case UET_NACK_NO_PKT_BUF:
	case UET_NACK_NO_PDC_AVAIL:
	case UET_NACK_PSN_OOR_WINDOW:
		/* The peer is alive but cannot take it yet: retransmit (or
		 * ask again) after an RTO that doubles with every such NACK
		 * of this packet, up to 2^UET_PDS_NACK_BACKOFF_MAX RTOs. */
		rto = uet_pds_rto_backoff(pds, &pdc->rtt, pkt->priv.nacks);
		if (pkt->priv.nacks < UET_PDS_NACK_BACKOFF_MAX)
			pkt->priv.nacks++;
		if (pkt->priv.state == UET_PKT_RSPWAIT)
			pkt->priv.due_ns = now + rto;
		else
			uet_pdc_nack_later(pds, pdc, pkt, now + rto);
		break;
	case UET_NACK_TRIMMED:
		uet_pds_cc_on_trim(pds, pdc, pkt->priv.entropy);
		/* fall through */
	case UET_NACK_PSN_GAP:
		/* Not received (even if we thought it was): send again. */
		uet_pdc_nack_later(pds, pdc, pkt, now);
		break;
	case UET_NACK_PDC_HDR_MISMATCH:
		/* The packet is refused for good; the rest start over on a
		 * fresh PDC (the target holds a hole at this PSN). */
		*uet_pdc_slot(pds, pdc, psn) = NULL;
		pdc->nout--;
		uet_pds_complete(pds, pkt, -EPROTO, UET_HDR_NONE, NULL, 0);
		uet_pdc_advance(pds, pdc);
		if (uet_dlist_empty(&pdc->sent))
			pdc->rto_due_ns = UINT64_MAX;
		if (pdc->nout)
			uet_pdc_restart(pds, pdc, now);
		break;
	default:
		break;
	}
}

/* ---- timer ---- */

/* The lowest PSN still unacked and waiting on `sent`, or NULL. */
static struct uet_pds_tx_pkt *uet_pdc_lowest_sent(const struct uet_pds *pds,
						   const struct uet_pdc *pdc)
{
	struct uet_pds_tx_pkt *pkt;
	uint32_t psn;

	for (psn = pdc->snd_una; psn != pdc->next_psn; psn++) {
		pkt = *uet_pdc_slot(pds, pdc, psn);
		if (pkt && pkt->priv.state == UET_PKT_SENT)
			return pkt;
	}
	return NULL;
}

/*
 * The first transmission (tx_seq) of pdc, at or before seq, that the link
 * has not taken yet: it waits on the NIC's data queue (an output batch,
 * or a busy link), which is flushed after the control datagrams, so it
 * leaves after a PROBE sent now.  Everything transmitted before it is on
 * the wire already.  `sent` is in transmission order.
 */
static uint32_t uet_pdc_link_boundary(const struct uet_pdc *pdc, uint32_t seq)
{
	const struct uet_pds_tx_pkt *pkt;

	uet_dlist_foreach_entry(&pdc->sent, pkt, priv.entry) {
		if (!uet_seq32_lt(pkt->priv.tx_seq, seq))
			break;
		if (uet_dlist_linked(&pkt->priv.qentry))
			return pkt->priv.tx_seq;
	}
	return seq;
}

/*
 * The retransmission timer expired.  One packet is sent again, never the
 * whole of `sent`: a late ACK from a busy peer would make that a
 * go-back-N of a window of packets that arrived.  It is the lowest
 * unacked PSN (it holds the window) when its last transmission is one
 * RTO old, else the oldest transmission (what the timer was armed for).
 * When other packets are outstanding, a PROBE follows it; the peer
 * answers it after everything the link took before it, and
 * uet_pdc_rto_recover() then sends again what that answer shows missing.
 * (A repeated expiry with nothing heard for an RTO also probes, for
 * liveness.)  Before the peer's PDCID is known (SYN_SENT: no PROBE
 * possible, nothing acked yet) the first expiry sends again every packet
 * one RTO old, later ones the lowest unacked PSN.
 */
static bool uet_pdc_rto_expired(struct uet_pds *pds, struct uet_pdc *pdc,
				uint64_t now)
{
	struct uet_pds_tx_pkt *pkt, *head;
	uint32_t seq;
	uint64_t rto;

	head = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				     priv.entry);
	if (!head) {
		pdc->rto_due_ns = UINT64_MAX;
		return true;
	}
	rto = uet_pds_rto_backoff(pds, &pdc->rtt, pdc->backoff);
	if (!pdc->rto_fired && now - head->priv.last_tx_ns < rto) {
		uet_pdc_rearm(pds, pdc);	/* nothing is an RTO old */
		return true;
	}
	if (!pdc->rpdcid && !pdc->rto_fired) {
		/* `sent` is in transmission order; each one goes to the
		 * tail with a tx_seq from seq on. */
		seq = pdc->tx_seq;
		while ((pkt = uet_dlist_first_entry(&pdc->sent,
						    struct uet_pds_tx_pkt,
						    priv.entry)) &&
		       uet_seq32_lt(pkt->priv.tx_seq, seq) &&
		       now - pkt->priv.last_tx_ns >= rto)
			if (!uet_pdc_retransmit(pds, pdc, pkt,
						UET_RETX_TIMEOUT, now))
				return false;
	} else {
		pkt = uet_pdc_lowest_sent(pds, pdc);
		if (!pkt || now - pkt->priv.last_tx_ns < rto)
			pkt = head;
		seq = pdc->tx_seq;	/* the retransmission's */
		if (!uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_TIMEOUT,
					now))
			return false;
	}
	/* The PROBE: when other packets were sent before (the answer
	 * tells which were lost), or, for liveness, on a repeated expiry
	 * with nothing heard from the peer for an RTO. */
	head = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				     priv.entry);
	if (pdc->rpdcid &&
	    ((head && uet_seq32_lt(head->priv.tx_seq, seq)) ||
	     (pdc->rto_fired && now - pdc->last_heard_ns >=
				uet_pds_rto_backoff(pds, &pdc->rtt, 0)))) {
		pdc->probe_opaque++;
		uet_pdc_send_cp(pds, pdc, UET_CTL_PROBE, pdc->snd_una, false,
				true, pdc->probe_opaque, now);
		pdc->rto_probe = true;
		pdc->rto_seq = uet_pdc_link_boundary(pdc, seq);
	}
	pdc->rto_fired = true;
	pdc->tlp_out = false;
	pdc->tlp_due_ns = UINT64_MAX;
	if (pdc->backoff < UET_PDS_BACKOFF_MAX)
		pdc->backoff++;
	pdc->rto_due_ns = now + uet_pds_rto_backoff(pds, &pdc->rtt,
						    pdc->backoff);
	return true;
}

/* Tail loss probe (RFC 8985): nothing acked for 2 SRTT: retransmit the
 * latest transmission, whose ACK lets RACK find the holes before it.
 * false when the PDC failed (and was freed) instead. */
static bool uet_pdc_tlp_fire(struct uet_pds *pds, struct uet_pdc *pdc,
			     uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;

	pdc->tlp_due_ns = UINT64_MAX;
	if (pdc->tlp_out || uet_dlist_empty(&pdc->sent))
		return true;
	pkt = uet_container_of(pdc->sent.prev, struct uet_pds_tx_pkt,
			       priv.entry);
	pdc->tlp_out = true;
	if (!uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_SACK, now))
		return false;
	pkt->priv.rack_retx = false;	/* a probe, not a loss verdict */
	return true;
}

bool uet_pdc_probe_now(struct uet_pds *pds, struct uet_pdc *pdc,
		       uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;

	pkt = uet_dlist_first_entry(&pdc->sent, struct uet_pds_tx_pkt,
				    priv.entry);
	if (pkt)
		return uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_TIMEOUT,
					  now);
	pkt = uet_dlist_first_entry(&pdc->rspwait, struct uet_pds_tx_pkt,
				    priv.entry);
	if (pkt)
		uet_pdc_send_cp(pds, pdc, UET_CTL_ACK_REQUEST, pkt->priv.psn,
				true, true, 0, now);
	return true;
}

bool uet_pdc_tx_timer(struct uet_pds *pds, struct uet_pdc *pdc, uint64_t now)
{
	struct uet_pds_tx_pkt *pkt;

	if (!uet_pdc_doom_timer(pds, pdc, now))
		return false;

	uet_dlist_foreach_entry_safe(&pdc->nacked, pkt, priv.entry) {
		if (pkt->priv.due_ns > now)
			continue;
		if (!uet_pdc_retransmit(pds, pdc, pkt, UET_RETX_NACK, now))
			return false;
		if (pdc->rto_due_ns == UINT64_MAX)
			uet_pdc_rearm(pds, pdc);
	}
	if (pdc->reo_due_ns <= now && !uet_pdc_rack_detect(pds, pdc, now))
		return false;
	if (pdc->tlp_due_ns <= now && !uet_pdc_tlp_fire(pds, pdc, now))
		return false;
	if (pdc->rto_due_ns <= now && !uet_pdc_rto_expired(pds, pdc, now))
		return false;
	if (pdc->pace_due_ns && pdc->pace_due_ns <= now) {
		/* The bucket holds a packet again: the refused send may go
		 * (its sender waits for no tx_done). */
		pdc->pace_due_ns = 0;
		if (pds->up.tx_room)
			pds->up.tx_room(pds->up_ctx);
	}
	uet_dlist_foreach_entry(&pdc->rspwait, pkt, priv.entry) {
		if (pkt->priv.due_ns > now)
			continue;
		if (!uet_pdc_retry_ok(pds, pdc, pkt, now)) {
			uet_pdc_fail(pds, pdc, -ETIMEDOUT);
			return false;
		}
		pkt->priv.due_ns = now + uet_pds_rto_backoff(pds, &pdc->rtt,
							     pkt->priv.retries);
		uet_pdc_send_cp(pds, pdc, UET_CTL_ACK_REQUEST, pkt->priv.psn,
				pkt->priv.retries > 1, true, 0, now);
	}
	return true;
}

uint64_t uet_pdc_tx_deadline(const struct uet_pds *pds,
			     const struct uet_pdc *pdc)
{
	const struct uet_pds_tx_pkt *pkt;
	uint64_t next = uet_pds_min64(pdc->rto_due_ns, pdc->reo_due_ns);

	next = uet_pds_min64(next, pdc->tlp_due_ns);
	next = uet_pds_min64(next, pdc->doom_ns);
	if (pdc->pace_due_ns)
		next = uet_pds_min64(next, pdc->pace_due_ns);

	uet_dlist_foreach_entry(&pdc->nacked, pkt, priv.entry)
		next = uet_pds_min64(next, pkt->priv.due_ns);
	uet_dlist_foreach_entry(&pdc->rspwait, pkt, priv.entry)
		next = uet_pds_min64(next, pkt->priv.due_ns);
	return next;
}

void uet_pdc_tx_fail_all(struct uet_pds *pds, struct uet_pdc *pdc,
			 int status)
{
	struct uet_pds_tx_pkt **slot;
	uint32_t psn;

	for (psn = pdc->oldest; psn != pdc->next_psn; psn++) {
		slot = uet_pdc_slot(pds, pdc, psn);
		if (!*slot)
			continue;
		uet_pds_complete(pds, *slot, status, UET_HDR_NONE, NULL, 0);
		*slot = NULL;
	}
	pdc->nout = 0;
	pdc->oldest = pdc->next_psn;
	pdc->snd_una = pdc->next_psn;
	pdc->rto_due_ns = UINT64_MAX;
	pdc->reo_due_ns = UINT64_MAX;
	pdc->tlp_due_ns = UINT64_MAX;
}
