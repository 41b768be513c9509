/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS congestion management; see uet_pds_cc.h and docs/congestion.md.
 *
 * NSCC (sender, per destination context, shared by its PDCs):
 *   cwnd in bytes between one MTU and cwnd_max (2 BDP of cfg.cc_rate_bps
 *   x cfg.cc_base_rtt_ns; without a rate, the PDS window of full-size
 *   packets: it starts there and only ECN, trims and loss bring it down).
 *   Every ACK gives the bytes it newly acknowledges, its m flag and, for
 *   the designated packet, an RTT sample; delay = sample - base_rtt
 *   (smallest sample seen), target = cfg.cc_target_ns.  The four cases:
 *     marked, delay > target    multiplicative decrease once per RTT
 *                               round: cwnd *= 1 - alpha / 2, alpha the
 *                               EWMA (gain 1/8) of the marked fraction of
 *                               the bytes acked per round (the decrease
 *                               is proportional to the congestion seen);
 *     marked, delay <= target   hold (the queue is draining);
 *     unmarked, delay > target  additive probe: + MTU per window acked;
 *     unmarked, delay <= target fast increase: + acked * (target - delay)
 *                               / target (doubles per RTT when empty).
 *   A TRIMMED NACK or a RACK loss takes one MTU off, a retransmission
 *   timeout halves; at most one such decrease per RTT.
 * RCCC (receiver): every ACK carries a credit: cfg.cc_rate_bps x
 *   cfg.cc_base_rtt_ns (one BDP, + 1/8) divided by the number of sources
 *   that sent requests in this or the previous activity epoch (8 base
 *   RTTs); the sender keeps inflight <= credit.
 * Pacing (cfg.cc_pace, NSCC with a configured rate): a token
 *   bucket per context filled at cwnd / srtt (the base RTT before the
 *   first sample), at most max(2 MTU, cwnd / 8) deep; a packet needs one
 *   MTU of tokens (it may take the bucket below zero by its excess), so a
 *   sender puts at most a window per RTT on the wire, in bursts of at
 *   most the depth.  With nothing in flight one packet always goes (a
 *   ping-pong is never paced).  Time is an argument (pds->now when the
 *   caller has none): the state machine stays deterministic.
 * Spraying (cfg.cc_entropies > 1): a context keeps that many entropies
 *   (over UDP: source ports of the link's entropy sockets, entropies())
 *   and sends round-robin over them (over UDP only once the PDC is
 *   established: a syn request leaves from the NIC's port); an entropy
 *   whose packet came back marked, trimmed, lost, timed out or with a
 *   delay above 4 targets is
 *   replaced by a fresh random one (the recycled-entropy scheme: good
 *   entropies are reused, bad ones forgotten; a recovered path comes
 *   back as fresh entropies land on it).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_cms_wire.h"
#include "uet_pds_internal.h"
#include "uet_rand.h"

#define UET_PDS_CC_ALPHA_ONE	1024u
#define UET_PDS_CC_EPOCH_RTTS	8u
#define UET_PDS_CC_NS		1000000000ull
/* Credit granted without a configured rate: no limit. */
#define UET_PDS_CC_UNBOUNDED	((uint64_t)1 << 40)

_Static_assert(sizeof(((struct uet_pds_ccd *)0)->key) == UET_PDS_ADDR_KEY_LEN,
	       "ccd key is an address key");

static uint64_t uet_pds_cc_rand(struct uet_pds_cc *cc)
{
	return uet_rand_next(&cc->rng);
}

static uint64_t uet_pds_cc_mss(const struct uet_pds *pds)
{
	return pds->mtu ? pds->mtu : 4096;
}

/* One BDP in bytes, 0 when the rate is not configured. */
static uint64_t uet_pds_cc_bdp(const struct uet_pds *pds)
{
	const struct uet_pds_cfg *c = &pds->cfg;

	if (!c->cc_rate_bps || !c->cc_base_rtt_ns)
		return 0;
	return c->cc_rate_bps / 8 * c->cc_base_rtt_ns / UET_PDS_CC_NS;
}

static uint64_t uet_pds_cc_cwnd_max(const struct uet_pds *pds)
{
	uint64_t bdp = uet_pds_cc_bdp(pds);

	if (!bdp)	/* no rate: the PDS window of full packets */
		return (uint64_t)pds->cfg.window * uet_pds_cc_mss(pds);
	bdp *= 2;
	return bdp > uet_pds_cc_mss(pds) ? bdp : uet_pds_cc_mss(pds);
}

static uint64_t uet_pds_cc_target(const struct uet_pds *pds)
{
	if (pds->cfg.cc_target_ns)
		return pds->cfg.cc_target_ns;
	return pds->cfg.cc_base_rtt_ns ? pds->cfg.cc_base_rtt_ns : 20000;
}

int uet_pds_cc_init(struct uet_pds *pds)
{
	memset(&pds->cc, 0, sizeof(pds->cc));
	pds->cc.rng = uet_pds_rand(pds) | 1;
	if (pds->link->ops->entropies)
		pds->cc.npool = pds->link->ops->entropies(pds->link,
							  pds->cc.pool,
							  UET_PDS_CC_ENT_MAX);
	return uet_hashmap_init(&pds->cc.map, UET_PDS_ADDR_KEY_LEN, 0);
}

void uet_pds_cc_fini(struct uet_pds *pds)
{
	struct uet_hashmap_iter it;
	struct uet_hnode *n;

	uet_hashmap_foreach(&pds->cc.map, &it, n) {
		uet_hashmap_remove(&pds->cc.map, n);
		free(uet_container_of(n, struct uet_pds_ccd, node));
	}
	uet_hashmap_fini(&pds->cc.map);
}

static bool uet_pds_cc_ent_has(const struct uet_pds_ccd *d, uint16_t e)
{
	unsigned int i;

	for (i = 0; i < d->nent; i++)
		if (d->ent[i] == e)
			return true;
	return false;
}

/* A fresh entropy: a random value, or with a link pool a random port of
 * it not in the set (when there is one). */
static uint16_t uet_pds_cc_ent_new(struct uet_pds *pds,
				   const struct uet_pds_ccd *d)
{
	struct uet_pds_cc *cc = &pds->cc;
	uint16_t e;
	unsigned int tries;

	if (!cc->npool)
		return (uint16_t)uet_pds_cc_rand(cc);
	for (tries = 0; tries < 8; tries++) {
		e = cc->pool[uet_pds_cc_rand(cc) % cc->npool];
		if (!uet_pds_cc_ent_has(d, e))
			return e;
	}
	return e;
}

static void uet_pds_cc_ent_fill(struct uet_pds *pds, struct uet_pds_ccd *d)
{
	unsigned int i, n = pds->cfg.cc_entropies;

	if (n > UET_PDS_CC_ENT_MAX)
		n = UET_PDS_CC_ENT_MAX;
	if (pds->link->ops->entropies && n > pds->cc.npool)
		n = pds->cc.npool;	/* UDP: no more than its sockets */
	d->nent = 0;
	if (n <= 1)
		return;
	for (i = 0; i < n; i++) {
		d->ent[i] = uet_pds_cc_ent_new(pds, d);
		d->nent = i + 1;
	}
}

void uet_pds_cc_attach(struct uet_pds *pds, struct uet_pdc *pdc)
{
	uint8_t key[UET_PDS_ADDR_KEY_LEN];
	struct uet_pds_ccd *d;
	struct uet_hnode *n;
	uint64_t bdp;

	pdc->ccd = NULL;
	if (!pds->cfg.cc || uet_link_addr_key(&pdc->peer, key))
		return;
	n = uet_hashmap_lookup_bytes(&pds->cc.map, key);
	if (n) {
		d = uet_container_of(n, struct uet_pds_ccd, node);
	} else {
		d = calloc(1, sizeof(*d));
		if (!d) {
			UET_WARN_ONCE(UET_LOG_EP_DATA,
				      "no memory for a congestion context\n");
			return;
		}
		memcpy(d->key, key, sizeof(d->key));
		bdp = uet_pds_cc_bdp(pds);
		d->cwnd = bdp ? bdp : uet_pds_cc_cwnd_max(pds);
		if (d->cwnd < uet_pds_cc_mss(pds))
			d->cwnd = uet_pds_cc_mss(pds);
		d->credit = UINT64_MAX;
		d->rx_epoch = pds->cc.epoch - 2;
		uet_pds_cc_ent_fill(pds, d);
		uet_hashmap_insert_bytes(&pds->cc.map, &d->node, d->key);
	}
	d->refs++;
	pdc->ccd = d;
}

void uet_pds_cc_detach(struct uet_pds *pds, struct uet_pdc *pdc)
{
	struct uet_pds_ccd *d = pdc->ccd;

	if (!d)
		return;
	pdc->ccd = NULL;
	if (--d->refs)
		return;
	uet_hashmap_remove(&pds->cc.map, &d->node);
	free(d);
}

/* ---- sender ---- */

static uint64_t uet_pds_cc_window(const struct uet_pds *pds,
				  const struct uet_pds_ccd *d)
{
	uint64_t w = UINT64_MAX;

	if (pds->cfg.cc & UET_PDS_CC_NSCC)
		w = d->cwnd;
	if ((pds->cfg.cc & UET_PDS_CC_RCCC) && d->credit < w)
		w = d->credit;
	return w;
}

bool uet_pds_cc_pacing(const struct uet_pds *pds)
{
	return (pds->cfg.cc & UET_PDS_CC_NSCC) && pds->cfg.cc_rate_bps &&
	       pds->cfg.cc_pace;
}

/* The RTT the pacing rate divides the window by. */
static uint64_t uet_pds_cc_pace_rtt(const struct uet_pds *pds,
				    const struct uet_pds_ccd *d)
{
	if (d->srtt)
		return d->srtt;
	if (pds->cfg.cc_base_rtt_ns)
		return pds->cfg.cc_base_rtt_ns;
	return uet_pds_cc_target(pds);
}

uint64_t uet_pds_cc_pace_depth(const struct uet_pds *pds,
			       const struct uet_pds_ccd *d)
{
	uint64_t mss = uet_pds_cc_mss(pds), depth = d->cwnd / 8;

	return depth > 2 * mss ? depth : 2 * mss;
}

int64_t uet_pds_cc_pace_avail(const struct uet_pds *pds,
			      const struct uet_pds_ccd *d, uint64_t now)
{
	uint64_t depth, rtt, dt, gain;
	int64_t t;

	if (!uet_pds_cc_pacing(pds))
		return INT64_MAX;
	depth = uet_pds_cc_pace_depth(pds, d);
	if (!d->pace_ns)
		return (int64_t)depth;
	rtt = uet_pds_cc_pace_rtt(pds, d);
	dt = now > d->pace_ns ? now - d->pace_ns : 0;
	/* In one RTT the bucket gains a window, more than its depth. */
	if (dt >= rtt)
		return (int64_t)depth;
	gain = dt * d->cwnd / rtt;
	t = d->pace_tokens + (int64_t)gain;
	return t > (int64_t)depth ? (int64_t)depth : t;
}

uint64_t uet_pds_cc_pace_due(const struct uet_pds *pds,
			     const struct uet_pds_ccd *d, uint64_t now)
{
	int64_t avail = uet_pds_cc_pace_avail(pds, d, now);
	uint64_t mss = uet_pds_cc_mss(pds), need, rtt;

	if (avail == INT64_MAX)
		return 0;
	if (avail >= (int64_t)mss)
		return now;
	need = (uint64_t)((int64_t)mss - avail);
	rtt = uet_pds_cc_pace_rtt(pds, d);
	return now + (need * rtt + d->cwnd - 1) / d->cwnd;
}

uint32_t uet_pds_cc_tx_room(const struct uet_pds *pds,
			    const struct uet_pdc *pdc)
{
	const struct uet_pds_ccd *d = pdc->ccd;
	uint64_t w, room, mss = uet_pds_cc_mss(pds);
	int64_t avail;

	if (!d)
		return UINT32_MAX;
	w = uet_pds_cc_window(pds, d);
	if (d->inflight == 0)
		return w == UINT64_MAX ? UINT32_MAX : 1 + (uint32_t)(w / mss);
	if (d->inflight >= w)
		return 0;
	room = (w - d->inflight + mss - 1) / mss;
	avail = uet_pds_cc_pace_avail(pds, d, pds->now);
	if (avail != INT64_MAX) {
		/* A packet needs a full MTU of tokens. */
		uint64_t paced = avail < (int64_t)mss ? 0 :
				 (uint64_t)avail / mss;

		if (paced < room)
			room = paced;
	}
	return room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
}

/* Whether pacing, not the window or the credit, holds pdc's next send. */
bool uet_pds_cc_paced_out(const struct uet_pds *pds,
			  const struct uet_pdc *pdc)
{
	const struct uet_pds_ccd *d = pdc->ccd;

	if (!d || d->inflight == 0 ||
	    d->inflight >= uet_pds_cc_window(pds, d))
		return false;
	return uet_pds_cc_pace_avail(pds, d, pds->now) <
	       (int64_t)uet_pds_cc_mss(pds);
}

void uet_pds_cc_pkt_sent(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
			 uint32_t bytes)
{
	struct uet_pdc *pdc = pkt->priv.pdc;
	struct uet_pds_ccd *d = pdc ? pdc->ccd : NULL;

	pkt->priv.cc = d;
	pkt->priv.cc_bytes = bytes;
	if (!d)
		return;
	d->inflight += bytes;
	if (uet_pds_cc_pacing(pds)) {
		d->pace_tokens = uet_pds_cc_pace_avail(pds, d, pds->now) -
				 (int64_t)bytes;
		d->pace_ns = pds->now ? pds->now : 1;
	}
}

void uet_pds_cc_pkt_release(struct uet_pds_tx_pkt *pkt)
{
	struct uet_pds_ccd *d = pkt->priv.cc;

	if (!d)
		return;
	pkt->priv.cc = NULL;
	d->inflight = d->inflight > pkt->priv.cc_bytes ?
		      d->inflight - pkt->priv.cc_bytes : 0;
}

uint16_t uet_pds_cc_entropy(struct uet_pds *pds, struct uet_pdc *pdc,
			    struct uet_pds_tx_pkt *pkt, bool *sprayed)
{
	struct uet_pds_ccd *d = pdc->ccd;
	uint16_t e;

	/* With entropies that are source ports (UDP), syn requests leave
	 * from the NIC's port: the target keys the PDC on it. */
	*sprayed = d && d->nent &&
		   (!pds->cc.npool ||
		    (pdc->rpdcid && pdc->state != UET_PDC_SYN_SENT));
	if (*sprayed)
		e = d->ent[d->ent_next++ % d->nent];
	else
		e = pdc->lpdcid;
	pkt->priv.entropy = e;
	return e;
}

/* An entropy that saw congestion: replaced by a fresh random one. */
static void uet_pds_cc_ent_bad(struct uet_pds *pds, struct uet_pds_ccd *d,
			       uint16_t e)
{
	unsigned int i;

	for (i = 0; i < d->nent; i++) {
		if (d->ent[i] != e)
			continue;
		d->ent[i] = uet_pds_cc_ent_new(pds, d);
		d->st.ent_moved++;
		pds->cc.st.ent_moved++;
		return;
	}
}

static void uet_pds_cc_clamp(const struct uet_pds *pds, struct uet_pds_ccd *d)
{
	uint64_t max = uet_pds_cc_cwnd_max(pds), min = uet_pds_cc_mss(pds);

	if (d->cwnd > max)
		d->cwnd = max;
	if (d->cwnd < min)
		d->cwnd = min;
}

/* End of an RTT round: update alpha; decrease when the round saw marks
 * and the queueing delay is above the target. */
static void uet_pds_cc_round(struct uet_pds *pds, struct uet_pds_ccd *d,
			     bool over_target, uint64_t now)
{
	uint64_t frac = 0, rtt;

	if (d->round_acked)
		frac = d->round_marked * UET_PDS_CC_ALPHA_ONE / d->round_acked;
	if (frac > UET_PDS_CC_ALPHA_ONE)
		frac = UET_PDS_CC_ALPHA_ONE;
	d->alpha = (uint32_t)((d->alpha * 7u + frac) / 8u);
	if (d->round_marked && over_target) {
		uint64_t a = d->alpha ? d->alpha : 1;

		d->cwnd -= d->cwnd * a / (2 * UET_PDS_CC_ALPHA_ONE);
		d->st.decreases++;
		pds->cc.st.decreases++;
	}
	d->round_acked = 0;
	d->round_marked = 0;
	rtt = d->srtt ? d->srtt : uet_pds_cc_target(pds);
	d->round_end_ns = now + rtt;
}

void uet_pds_cc_on_ack(struct uet_pds *pds, struct uet_pdc *pdc,
		       const struct uet_pds_cc_fb *fb, uint64_t acked,
		       uint64_t rtt, uint16_t ent, bool have_ent,
		       uint64_t now)
{
	struct uet_pds_ccd *d = pdc->ccd;
	uint64_t target = uet_pds_cc_target(pds), delay, mss, inc;

	if (!d)
		return;
	mss = uet_pds_cc_mss(pds);
	if (fb->has_credit) {
		/* Never below one packet: a credit of 0 would stall. */
		d->credit = fb->credit > mss ? fb->credit : mss;
	}
	if (fb->m) {
		d->st.acks_marked++;
		pds->cc.st.acks_marked++;
	}
	if (rtt) {
		if (!d->base_rtt || rtt < d->base_rtt)
			d->base_rtt = rtt;
		d->srtt = d->srtt ? (d->srtt * 7 + rtt) / 8 : rtt;
		d->last_delay = rtt - d->base_rtt;
	}
	delay = d->last_delay;
	if (have_ent && d->nent && (fb->m || delay > 4 * target))
		uet_pds_cc_ent_bad(pds, d, ent);
	if (!(pds->cfg.cc & UET_PDS_CC_NSCC))
		return;
	d->round_acked += acked;
	if (fb->m)
		d->round_marked += acked ? acked : mss;
	if (now >= d->round_end_ns)
		uet_pds_cc_round(pds, d, delay > target, now);
	if (!fb->m && acked) {
		if (delay <= target) {
			inc = acked * (target - delay) / target;
		} else {
			inc = acked * mss / (d->cwnd ? d->cwnd : mss);
			if (!inc)
				inc = 1;
		}
		d->cwnd += inc;
	}
	uet_pds_cc_clamp(pds, d);
}

/* Losses, trims and timeouts lower the window at most once per RTT: a
 * burst of them is one congestion event (and a timeout retransmits
 * several packets at once).  Without a configured rate they do not: the
 * path is then a host's (loopback, a LAN port nobody declared), where a
 * loss is a receiver that fell behind and PDS's retransmission is the
 * answer; shrinking the window there only cost bandwidth (measured,
 * docs/congestion.md), and ECN marks still act. */
static bool uet_pds_cc_loss_round(struct uet_pds *pds, struct uet_pds_ccd *d)
{
	uint64_t rtt = d->srtt ? d->srtt : uet_pds_cc_target(pds);

	if (!pds->cfg.cc_rate_bps)
		return false;

	if (d->loss_ns && pds->now - d->loss_ns < rtt)
		return false;
	d->loss_ns = pds->now ? pds->now : 1;
	return true;
}

/*
 * A packet of entropy ent was lost (trim, NACK, timeout): the entropy is
 * marked bad; returns the PDC's CC state when NSCC should cut its window
 * (first loss of a round), else NULL.
 */
static struct uet_pds_ccd *uet_pds_cc_loss(struct uet_pds *pds,
					   struct uet_pdc *pdc, uint16_t ent)
{
	struct uet_pds_ccd *d = pdc->ccd;

	if (!d)
		return NULL;
	if (d->nent)
		uet_pds_cc_ent_bad(pds, d, ent);
	if ((pds->cfg.cc & UET_PDS_CC_NSCC) && uet_pds_cc_loss_round(pds, d))
		return d;
	return NULL;
}

static void uet_pds_cc_on_drop(struct uet_pds *pds, struct uet_pdc *pdc,
			       uint16_t ent)
{
	struct uet_pds_ccd *d = uet_pds_cc_loss(pds, pdc, ent);

	if (d) {
		d->cwnd -= d->cwnd > uet_pds_cc_mss(pds) ?
			   uet_pds_cc_mss(pds) : 0;
		uet_pds_cc_clamp(pds, d);
	}
}

void uet_pds_cc_on_trim(struct uet_pds *pds, struct uet_pdc *pdc,
			uint16_t ent)
{
	if (!pdc->ccd)
		return;
	pdc->ccd->st.trims++;
	pds->cc.st.trims++;
	uet_pds_cc_on_drop(pds, pdc, ent);
}

void uet_pds_cc_on_loss(struct uet_pds *pds, struct uet_pdc *pdc,
			uint16_t ent)
{
	uet_pds_cc_on_drop(pds, pdc, ent);
}

void uet_pds_cc_on_timeout(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint16_t ent)
{
	struct uet_pds_ccd *d = uet_pds_cc_loss(pds, pdc, ent);

	if (d) {
		d->cwnd /= 2;
		uet_pds_cc_clamp(pds, d);
	}
}

/* ---- receiver ---- */

/* Sources active now (RCCC): seen in this or the previous epoch. */
static uint32_t uet_pds_cc_active(struct uet_pds *pds, struct uet_pds_ccd *d,
				  uint64_t now)
{
	struct uet_pds_cc *cc = &pds->cc;
	uint64_t len = uet_pds_cc_target(pds) * UET_PDS_CC_EPOCH_RTTS;
	uint32_t n;

	if (now - cc->epoch_start_ns >= len) {
		/* Two epochs or more without a new one: nobody was active. */
		cc->active_prev = now - cc->epoch_start_ns >= 2 * len ?
				  0 : cc->active_cur;
		cc->active_cur = 0;
		cc->epoch++;
		cc->epoch_start_ns = now;
	}
	if (d && d->rx_epoch != cc->epoch) {
		d->rx_epoch = cc->epoch;
		cc->active_cur++;
	}
	n = cc->active_cur > cc->active_prev ? cc->active_cur :
					       cc->active_prev;
	return n ? n : 1;
}

void uet_pds_cc_rx_req(struct uet_pds *pds, struct uet_pdc *pdc, size_t len,
		       uint8_t tos, bool in_order, uint64_t now)
{
	if (!pds->cfg.cc)
		return;
	if (!pdc->cc_rx_bytes && !pdc->cc_rx_pkts)
		pdc->cc_rx_first_ns = now;
	pdc->cc_rx_bytes += len;
	pdc->cc_rx_pkts++;
	if (!in_order && pdc->cc_rx_ooo < UINT16_MAX)
		pdc->cc_rx_ooo++;
	if ((tos & UET_LINK_ECN_MASK) == UET_LINK_ECN_CE) {
		pdc->cc_rx_ce = true;
		pds->cc.st.ce_rx++;
		if (pdc->ccd)
			pdc->ccd->st.ce_rx++;
	}
	if (pds->cfg.cc & UET_PDS_CC_RCCC)
		(void)uet_pds_cc_active(pds, pdc->ccd, now);
}

uint64_t uet_pds_cc_nscc_pack(uint64_t service_ns, uint8_t cwnd_pend,
			      uint32_t rcvd_bytes, uint16_t ooo)
{
	uint64_t st = service_ns / 64, rb = ((uint64_t)rcvd_bytes + 63) / 64;

	if (st > 0xffff)
		st = 0xffff;
	if (rb > 0xffffff)
		rb = 0xffffff;
	return st << 48 | (uint64_t)cwnd_pend << 40 | rb << 16 | ooo;
}

void uet_pds_cc_nscc_unpack(uint64_t state, uint64_t *service_ns,
			    uint8_t *cwnd_pend, uint32_t *rcvd_bytes,
			    uint16_t *ooo)
{
	*service_ns = (state >> 48) * 64;
	*cwnd_pend = (uint8_t)(state >> 40);
	*rcvd_bytes = (uint32_t)((state >> 16) & 0xffffff) * 64;
	*ooo = (uint16_t)state;
}

/* The credit this receiver grants pdc's source: its share of 1.125 BDP,
 * and no more than twice the window its latest CSIG announced (one RTT
 * old at most: a source that uses less leaves the rest unclaimed by it;
 * twice, so that it can grow). */
static uint64_t uet_pds_cc_credit(struct uet_pds *pds, struct uet_pdc *pdc,
				  uint64_t now)
{
	uint64_t bdp = uet_pds_cc_bdp(pds), mss = uet_pds_cc_mss(pds), c;
	const struct uet_pds_ccd *d = pdc->ccd;

	if (!bdp)
		return UET_PDS_CC_UNBOUNDED;
	c = (bdp + bdp / 8) / uet_pds_cc_active(pds, NULL, now);
	if (d && d->csig_ns && d->csig_type == UET_CC_NSCC &&
	    now - d->csig_ns <= 8 * uet_pds_cc_target(pds) &&
	    2 * (uint64_t)d->csig_cwnd < c)
		c = 2 * (uint64_t)d->csig_cwnd;
	return c > mss ? c : mss;
}

void uet_pds_cc_csig_fill(struct uet_pds *pds, struct uet_pdc *pdc,
			  uint8_t st[16])
{
	struct uet_cms_cc_state_compact h;
	const struct uet_pds_ccd *d = pdc->ccd;
	uint64_t w;

	memset(st, 0, 16);
	memset(&h, 0, sizeof(h));
	if (!d)
		return;
	w = uet_pds_cc_window(pds, d);
	h.cc_type = (pds->cfg.cc & UET_PDS_CC_NSCC) ? UET_CC_NSCC :
						      UET_CC_CREDIT;
	h.sent_bytes = d->inflight > UET_CMS_SENT_BYTES_MAX ?
		       UET_CMS_SENT_BYTES_MAX : (uint32_t)d->inflight;
	h.cwnd_bytes = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
	/* Every value fits by construction. */
	(void)uet_cms_cc_state_compact_encode(st, 8, &h);
	pdc->ccd->st.csig_tx++;
	pds->cc.st.csig_tx++;
}

int uet_pds_cc_csig_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		       const uint8_t st[16], uint64_t now)
{
	struct uet_cms_cc_state_compact h;
	struct uet_pds_ccd *d = pdc->ccd;

	if (uet_cms_cc_state_compact_decode(&h, st, 8) < 0) {
		pds->cc.st.csig_bad++;
		if (d)
			d->st.csig_bad++;
		return -EINVAL;
	}
	pds->cc.st.csig_rx++;
	if (!d)
		return 0;
	d->st.csig_rx++;
	d->csig_type = h.cc_type;
	d->csig_sent = h.sent_bytes;
	d->csig_cwnd = h.cwnd_bytes;
	d->csig_ns = now ? now : 1;
	return 0;
}

unsigned int uet_pds_cc_ack_fill(struct uet_pds *pds, struct uet_pdc *pdc,
				 uint8_t *cc_type, uint64_t *state,
				 uint8_t ccx[16], bool *m, uint64_t now)
{
	uint64_t nscc, service;
	unsigned int type;

	*m = pdc->cc_rx_ce;
	if (!pds->cfg.cc)
		return UET_PDS_TYPE_ACK;
	service = pdc->cc_rx_pkts && now > pdc->cc_rx_first_ns ?
		  now - pdc->cc_rx_first_ns : 0;
	nscc = uet_pds_cc_nscc_pack(service, 0,
				    pdc->cc_rx_bytes > 0xffffffffu ?
				    0xffffffffu : (uint32_t)pdc->cc_rx_bytes,
				    pdc->cc_rx_ooo);
	switch (pds->cfg.cc & (UET_PDS_CC_NSCC | UET_PDS_CC_RCCC)) {
	case UET_PDS_CC_RCCC:
		*cc_type = UET_CC_CREDIT;
		*state = uet_pds_cc_credit_pack(pds->cfg.wire,
						uet_pds_cc_credit(pds, pdc, now));
		type = UET_PDS_TYPE_ACK_CC;
		break;
	case UET_PDS_CC_NSCC | UET_PDS_CC_RCCC:
		*cc_type = UET_CC_NSCC;
		uet_put_be64(ccx, nscc);
		uet_put_be64(ccx + 8, uet_pds_cc_credit(pds, pdc, now));
		type = UET_PDS_TYPE_ACK_CCX;
		break;
	default:
		*cc_type = UET_CC_NSCC;
		*state = nscc;
		type = UET_PDS_TYPE_ACK_CC;
		break;
	}
	pdc->cc_rx_ce = false;
	pdc->cc_rx_bytes = 0;
	pdc->cc_rx_pkts = 0;
	pdc->cc_rx_ooo = 0;
	return type;
}

/*
 * The CREDIT ack_cc_state: UE+ carries the credit in bytes as all 64
 * bits; UE 1.0.1 as 24 bits at the top (then 24 reserved bits and
 * ooo_count, 0 here), saturated (docs/conformance.md).
 */
#define UE_CREDIT_SHIFT	40
#define UE_CREDIT_MAX	0xffffffu

uint64_t uet_pds_cc_credit_pack(enum uet_wire_prof wp, uint64_t credit)
{
	if (wp != UET_WIRE_UE)
		return credit;
	return (credit > UE_CREDIT_MAX ? UE_CREDIT_MAX : credit)
	       << UE_CREDIT_SHIFT;
}

void uet_pds_cc_fb_from_state(enum uet_wire_prof wp,
			      struct uet_pds_cc_fb *fb, uint8_t cc_type,
			      uint64_t state)
{
	uint8_t pend;

	if (cc_type == UET_CC_CREDIT) {
		fb->has_credit = true;
		fb->credit = wp == UET_WIRE_UE ? state >> UE_CREDIT_SHIFT :
						 state;
		return;
	}
	fb->has_nscc = true;
	uet_pds_cc_nscc_unpack(state, &fb->service_ns, &pend,
			       &fb->rcvd_bytes, &fb->ooo_count);
}

void uet_pds_cc_fb_from_ccx(enum uet_wire_prof wp, struct uet_pds_cc_fb *fb,
			    uint8_t cc_type, const uint8_t ccx[16])
{
	uet_pds_cc_fb_from_state(wp, fb, cc_type, uet_get_be64(ccx));
	if (cc_type == UET_CC_NSCC) {
		fb->has_credit = true;
		fb->credit = uet_get_be64(ccx + 8);
	}
}
