/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS internals shared by snic/uet_pds*.c.  Not for other layers: SES and
 * the HSI executor use snic/uet_pds.h only.
 *
 * Files:
 *   uet_pds.c       create/destroy, configuration, statistics, poll, the
 *                   timer pass and next_deadline, link output queues
 *   uet_pds_pdc.c   PDC table: PDCID allocation, keys, lookup, creation,
 *                   teardown, failure, restart, close and clear
 *   uet_pds_tx.c    the transmit direction of a PDC: send, PSN ring,
 *                   header encoding, retransmission, RTT/RTO, ACK and
 *                   NACK processing, ACK_REQUEST and PROBE
 *   uet_pds_rx.c    datagram dispatch and validation; the receive
 *                   direction of a PDC: PSN window, duplicates, ACK
 *                   generation and coalescing, retained SES responses,
 *                   ROD hold buffers, control packets
 *   uet_pds_rudi.c  RUDI (pkt_id, no PDC) and UUD
 *
 * Every PDC has both directions: the initiator sends requests and
 * receives ACKs; the target receives requests, sends ACKs, and may send
 * requests of its own back on the same PDC (uet_pds_send_reply), which
 * the initiator receives with the same receive code.  Both directions of
 * a PDC start their PSN space at the Start_PSN the initiator chose.
 *
 * Locking: none.  One thread (or the owner's lock) drives a uet_pds.
 * Upcalls must not call uet_pds_rx/timer/poll/destroy; they may call
 * uet_pds_send, uet_pds_send_reply and uet_pds_tx_space.
 */
#ifndef UET_PDS_INTERNAL_H
#define UET_PDS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_bitmap.h"
#include "uet_bufpool.h"
#include "uet_hashmap.h"
#include "uet_link.h"
#include "uet_list.h"
#include "uet_log.h"
#include "uet_pds.h"
#include "uet_pds_cc.h"
#include "uet_pds_wire.h"

/* Largest cfg.window (unacked PSNs per PDC). */
#define UET_PDS_WINDOW_MAX		1024u
/* Datagrams per link recv() in uet_pds_poll(). */
#define UET_PDS_RECV_BATCH		64u
/* Largest PDS header we send before an SES header (RUD/ROD request with
 * CC state: CSIG, uet_pds_cc.h). */
#define UET_PDS_TX_HDR_MAX		UET_PDS_RUD_ROD_CC_REQ_LEN
/* Bytes of a per-packet header buffer: PDS header + SES header. */
#define UET_PDS_HBUF_BYTES	(UET_PDS_TX_HDR_MAX + UET_PDS_SES_HDR_MAX)
/* Largest control datagram: ACK_CCX + an SES response. */
#define UET_PDS_CTL_BYTES		(UET_PDS_ACK_CCX_LEN + UET_PDS_RSP_MAX)
/* Control datagrams queued while the link is busy; more are dropped. */
#define UET_PDS_CTLQ_MAX		1024u
/* Datagrams given to the link in one call by a flush. */
#define UET_PDS_TX_BATCH		64u
/* Retry a busy link after this long. */
#define UET_PDS_BUSY_RETRY_NS		1000ull
/* Largest RTO backoff shift kept (the RTO is capped at rto_max anyway). */
#define UET_PDS_BACKOFF_MAX		32u
/* RACK: SACKed packets above a hole that mark it lost at once while no
 * reordering has been seen (the classic duplicate threshold). */
#define UET_PDS_DUPTHRESH		3u
/* RACK: largest multiplier of the reorder window (min_rtt / 4 each). */
#define UET_PDS_REO_MULT_MAX		16u
/* RACK: genuine RACK retransmissions before the multiplier decays to 1. */
#define UET_PDS_REO_PERSIST		16u
/* Largest backoff shift of the retry after a NO_PKT_BUF-like NACK. */
#define UET_PDS_NACK_BACKOFF_MAX	6u
/* RUDI target: recently seen {source FA, pkt_id} remembered. */
#define UET_PDS_RUDI_CACHE		1024u
/* ROD: out-of-order packets held per NIC, in units of cfg.window. */
#define UET_PDS_HOLD_WINDOWS		8u
/* Largest SES header + payload a ROD hold buffer copies. */
#define UET_PDS_HOLD_MAX		65536u

/* Closed target PDCs remembered against replays, and for how long. */
#define UET_PDS_CLOSED_MAX		1024u
#define UET_PDS_CLOSED_NS		(120ull * 1000000000ull)
/* Reply packets in flight on a target PDC before the initiator proved
 * it receives (an ACK, a request naming our PDCID): no amplification
 * towards a forged source address. */
#define UET_PDS_UNVERIFIED_TX		1u
/* ROD: held packets per PDC (of the NIC's pool of window *
 * UET_PDS_HOLD_WINDOWS; a smaller share makes reordered streams retry),
 * and how long a PDC may hold packets without the gap filling. */
#define UET_PDS_HOLD_PER_PDC(window)	(window)
/* ... and per source IP, all its target PDCs together (a quarter of
 * the pool: one host cannot starve the others' reordered streams). */
#define UET_PDS_HOLD_PER_SRC(window)	(2u * (window))
#define UET_PDS_HOLD_NS			(4ull * 1000000000ull)
/* Destroy: how many times each target PDC's final answers (retained
 * SES responses, the latest request's ACK) are sent after the owed and
 * delayed ACKs; nothing answers a peer's retransmission once we are
 * gone (E-27). */
#define UET_PDS_CLOSE_ACK_COPIES	2u

enum uet_pds_drop {
	UET_PDS_DROP_MALFORMED,
	UET_PDS_DROP_UNKNOWN_PDC,
	UET_PDS_DROP_SYN_REFUSED,
	UET_PDS_DROP_SRC_LIMIT,
	UET_PDS_DROP_REPLAY,
	UET_PDS_DROP_SYN_CONFLICT,
	UET_PDS_DROP_HOLD_LIMIT,
	UET_PDS_DROP_HOLD_EXPIRED,
	UET_PDS_DROP_N,
};

/* The fabric-address key (uet_link_addr_key). */
#define UET_PDS_ADDR_KEY_LEN		UET_LINK_ADDR_KEY_LEN
/* Initiator PDC key: job_id (3), address (24), tc (1), mode (1). */
#define UET_PDS_INI_KEY_LEN		(3 + UET_PDS_ADDR_KEY_LEN + 1 + 1)
/* Target PDC key: source address (24), source PDCID (2). */
#define UET_PDS_TGT_KEY_LEN		(UET_PDS_ADDR_KEY_LEN + 2)
/* RUDI cache key: source address (24), pkt_id (4). */
#define UET_PDS_RUDI_KEY_LEN		(UET_PDS_ADDR_KEY_LEN + 4)

_Static_assert(UET_PDS_INI_KEY_LEN == 29, "initiator key layout");
_Static_assert(UET_PDS_TGT_KEY_LEN == 26, "target key layout");

/* PDC states. */
enum uet_pdc_state {
	/* initiator */
	UET_PDC_SYN_SENT = 1,		/* requests carry syn, no DPDCID yet */
	UET_PDC_ESTABLISHED,		/* DPDCID learned from an ACK */
	UET_PDC_CLOSE_ACK_WAIT,		/* CLOSE_COMMAND sent */
	UET_PDC_CLOSED,			/* being freed */
	/* target */
	UET_PDC_T_ESTABLISHED,		/* created by a syn request */
	UET_PDC_T_CLOSE_REQ_WAIT,	/* CLOSE_REQUEST sent, idle */
};

/* Where a transmit packet is (uet_pds_tx_pkt.priv.state). */
enum uet_pds_pkt_state {
	UET_PKT_IDLE = 0,		/* not owned by PDS */
	UET_PKT_SENT,			/* on pdc->sent / rudi list: unacked */
	UET_PKT_NACKED,			/* on pdc->nacked: retransmit at due */
	UET_PKT_RSPWAIT,		/* on pdc->rspwait: acked, no rsp */
	UET_PKT_UUD,			/* UUD waiting for the link */
	UET_PKT_DONE,			/* on pds->doneq */
};

/* Per-packet header buffer (from pds->hbuf_pool). */
struct uet_pds_hbuf {
	struct uet_link_addr dst;	/* RUDI / UUD destination */
	uint8_t bytes[UET_PDS_HBUF_BYTES];
};

/* A control datagram waiting for the link (from pds->ctl_pool). */
struct uet_pds_ctl {
	struct uet_dlist entry;
	struct uet_link_addr dst;
	uint16_t entropy;
	uint16_t len;
	uint8_t buf[UET_PDS_CTL_BYTES];
};

/* A retained SES response (from pds->ret_pool). */
struct uet_pds_retained {
	struct uet_hnode node;		/* pds->ret_map: lpdcid << 32 | psn */
	struct uet_dlist entry;		/* pdc->retained, PSN order */
	uint32_t psn;
	struct uet_pds_rsp rsp;
};

/* A ROD packet received out of order (from pds->hold_pool). */
struct uet_pds_hold {
	uint32_t psn;
	uint8_t next_hdr;
	size_t len;
	uint8_t data[];			/* SES header(s) + payload */
};

/* RUDI target cache entry. */
struct uet_pds_rudi_ent {
	struct uet_hnode node;
	bool used;
	uint8_t key[UET_PDS_RUDI_KEY_LEN];
	struct uet_pds_rsp rsp;
};

/* RTT estimator (RFC 6298), plus the smallest sample (RACK). */
struct uet_pds_rtt {
	uint64_t srtt;
	uint64_t rttvar;
	uint64_t rto;
	uint64_t min_rtt;
	bool valid;
};

struct uet_pdc {
	struct uet_dlist entry;		/* pds->pdcs */
	struct uet_dlist touch_entry;	/* pds->touched */
	struct uet_hnode id_node;	/* pds->id_map, key lpdcid */
	struct uet_hnode key_node;	/* pds->ini_map or pds->tgt_map */
	bool in_key_map;
	bool initiator;
	uint8_t state;			/* enum uet_pdc_state */
	uint8_t mode;			/* UET_PDS_MODE_RUD or _ROD */
	uint8_t key[UET_PDS_INI_KEY_LEN];
	struct uet_link_addr peer;
	uint16_t lpdcid;		/* ours, != 0 */
	uint16_t rpdcid;		/* the peer's, 0 until known */
	uint32_t gen;			/* handle generation (rx_info.pdc) */
	uint32_t start_psn;		/* Start_PSN of both directions */
	uint64_t last_active_ns;	/* last valid packet in or data out */
	/* Target: opened by a syn request that SES has not accepted yet
	 * (released at once when it refuses it). */
	bool fresh;
	/* Target: the initiator proved it receives at its address. */
	bool verified;
	bool src_counted;		/* in pds->src_map */

	/* ---- transmit direction ---- */
	uint32_t next_psn;		/* next PSN to assign */
	uint32_t snd_una;		/* first PSN not known acked */
	uint32_t oldest;		/* first PSN not done */
	uint32_t nout;			/* packets handed to PDS, not done */
	struct uet_pds_tx_pkt **ring;	/* [psn & ring_mask] */
	struct uet_dlist sent;		/* unacked, by last transmission */
	struct uet_dlist nacked;	/* unacked, retransmit at priv.due_ns */
	struct uet_dlist rspwait;	/* acked, waiting for the response */
	struct uet_pds_rtt rtt;
	unsigned int backoff;		/* RTO doublings since an RTT sample */
	bool rto_fired;			/* RTO expired, no progress since */
	uint64_t rto_due_ns;		/* retransmission timer, MAX: off */
	uint32_t epoch;			/* bumped on every sign of life */
	uint64_t last_heard_ns;		/* last valid ACK/NACK/CP from peer */
	uint64_t last_alive_ns;		/* last sign of life (uet_pdc_alive) */
	/* Unreachable reports (uet_pds_unreach.c): fail with doom_err at
	 * doom_ns unless the peer shows life first; MAX: none. */
	uint64_t doom_ns;
	int doom_err;
	/* RACK loss detection (RFC 8985, transmission order by tx_seq) */
	uint32_t tx_seq;		/* next transmission number */
	uint32_t rack_seq;		/* latest transmission known delivered */
	bool rack_valid;
	bool reordering_seen;		/* a packet was delivered out of order */
	uint32_t acked_once;		/* packets sent once and acked */
	uint8_t reo_mult;		/* reorder window in min_rtt / 4 */
	uint8_t reo_persist;		/* see UET_PDS_REO_PERSIST */
	uint32_t reo_inc_seq;		/* tx_seq when reo_mult last grew */
	uint32_t sacked;		/* PSNs SACKed by the last ACK */
	uint64_t rack_rtt_ns;		/* RTT of the rack_seq transmission */
	uint64_t reo_due_ns;		/* reorder timer, MAX: off */
	uint64_t tlp_due_ns;		/* tail loss probe timer, MAX: off */
	bool tlp_out;			/* a probe is out, no progress since */
	uint16_t probe_opaque;
	bool rsp_since_clear;		/* responses came since last clear */
	uint32_t close_psn;		/* CLOSE_COMMAND / CLOSE_REQUEST psn */
	unsigned int close_tries;
	uint64_t close_due_ns;

	/* ---- receive direction ---- */
	struct uet_psn_window win;	/* base = cack_psn + 1 */
	uint32_t deliver_psn;		/* ROD: next PSN to give SES */
	struct uet_pds_hold **hold;	/* ROD: [psn & ring_mask] */
	uint32_t nheld;
	uint32_t nheld_src;		/* of them, counted against the
					 * source IP (uet_pds_src_hold) */
	uint64_t hold_since_ns;		/* ROD: held packets waiting since */
	uint64_t deliver_retry_ns;	/* ROD: SES refused a held packet */
	uint32_t ack_pending;		/* received, not yet acked */
	uint32_t ack_psn;		/* for the delayed ACK */
	uint64_t ack_due_ns;		/* delayed ACK, UINT64_MAX: none */
	uint64_t rx_req_ns;		/* last new request, MAX: none yet */
	uint64_t rx_gap_ns;		/* interval before it, MAX: unknown */
	struct uet_dlist delay_entry;	/* pds->delayed while ack_due_ns set */
	/* ACK owed at the end of the receive batch (pds->owed) */
	struct uet_dlist owed_entry;
	uint32_t owed_psn;		/* the PSN it names */
	bool owed_retx;
	struct uet_dlist retained;	/* struct uet_pds_retained */
	uint32_t nretained;

	struct uet_pds_stats st;	/* this PDC's counters */

	/* RACK: highest PSN the latest ACK described (cumulative point,
	 * SACK bitmap; a plain ACK describes every PSN sent).  A packet
	 * above it may have arrived unreported: never a loss verdict. */
	uint32_t rack_psn_hi;
	/* Congestion management: the peer's context, and what the receive
	 * direction saw since its last ACK (uet_pds_cc.c). */
	struct uet_pds_ccd *ccd;
	uint64_t pace_due_ns;		/* a send paced out: retry then; 0 */
	uint64_t cc_rx_bytes;
	uint32_t cc_rx_pkts;
	uint16_t cc_rx_ooo;
	bool cc_rx_ce;
	uint64_t cc_rx_first_ns;
	/* RTO recovery: the RTO sent one packet again and a PROBE
	 * (probe_opaque); the PROBE's answer shows which of the packets
	 * sent before it (tx_seq < rto_seq) were lost. */
	bool rto_probe;
	uint32_t rto_seq;
};

/* Slots of the direct-mapped PDCID cache (a power of two). */
#define UET_PDS_ID_CACHE	64

struct uet_pds {
	struct uet_pds_cfg cfg;
	struct uet_link *link;
	struct uet_pds_upcalls up;
	void *up_ctx;
	bool have_up;
	bool destroying;
	size_t mtu;
	uint64_t rng;
	uint32_t ring_size;		/* power of two >= cfg.window */
	uint32_t ring_mask;

	struct uet_hashmap ini_map;	/* initiator key -> pdc */
	struct uet_pdc *ini_last;	/* the latest found there, or NULL */
	struct uet_hashmap tgt_map;	/* {src FA, spdcid} -> pdc */
	struct uet_hashmap id_map;	/* lpdcid -> pdc */
	/* The PDCs found there last, direct-mapped by lpdcid (a ping-pong
	 * alternates between its two PDCs: ACKs on its own, data on the
	 * peer's); teardown forgets a PDC in every slot. */
	struct uet_pdc *id_cache[UET_PDS_ID_CACHE];
	struct uet_dlist pdcs;
	uint32_t npdcs;
	/* The timer pass: every PDC's deadlines are >= due_ns except those
	 * of the PDCs on touched (an event may have moved them since the
	 * last pass looked), so a pass before due_ns visits touched only. */
	struct uet_dlist touched;	/* struct uet_pdc, touch_entry */
	uint64_t due_ns;
	uint32_t next_gen;

	struct uet_bufpool hbuf_pool;	/* struct uet_pds_hbuf */
	struct uet_bufpool ctl_pool;	/* struct uet_pds_ctl */
	struct uet_bufpool ret_pool;	/* struct uet_pds_retained */
	struct uet_bufpool hold_pool;	/* struct uet_pds_hold + data */
	size_t hold_data_max;
	struct uet_hashmap ret_map;

	struct uet_dlist ctlq;		/* control datagrams, link busy */
	uint32_t nctlq;
	struct uet_dlist dataq;		/* packets (priv.qentry), link busy */
	uint64_t busy_ns;		/* when the link last refused */
	struct uet_dlist doneq;		/* packets whose tx_done is due */
	unsigned int batch;		/* batch_begin depth: output waits */
	bool in_burst;			/* a doorbell (batch_end_tx) ran since the
					 * last full flush: the next one may defer */
	bool timer_deferred;		/* the last poll left its timer pass to
					 * the next one (uet_pds_poll) */
	struct uet_dlist owed;		/* PDCs owing an ACK at batch end */
	struct uet_dlist delayed;	/* PDCs with a delayed ACK armed */

	/* RUDI initiator */
	struct uet_pds_tx_pkt **rudi_ring;	/* [pkt_id & ring_mask] */
	struct uet_dlist rudi_out;	/* outstanding RUDI packets */
	uint32_t rudi_next_id;
	uint32_t rudi_nout;
	struct uet_pds_rtt rudi_rtt;
	/* RUDI target */
	struct uet_pds_rudi_ent *rudi_cache;
	uint32_t rudi_cache_next;
	struct uet_hashmap rudi_map;
	/* UUD */
	uint32_t uud_next_id;
	uint32_t uud_pending;

	uint64_t now;			/* latest time given to PDS */

	struct uet_pds_stats st;

	/* Hostile-network guards (uet_pds_guard.c). */
	struct uet_pds_closed *closed;	/* ring of UET_PDS_CLOSED_MAX */
	uint32_t closed_next;
	struct uet_hashmap closed_map;	/* tgt key -> closed entry */
	struct uet_hashmap src_map;	/* source FA -> target PDC count */
	struct uet_log_rl drop_rl[UET_PDS_DROP_N];

	/* Congestion management (uet_pds_cc.c). */
	struct uet_pds_cc cc;
	uint8_t rx_tos;			/* of the datagram being processed */
};

/* ---- uet_pds_guard.c ---- */
int uet_pds_guard_init(struct uet_pds *pds);
void uet_pds_guard_fini(struct uet_pds *pds);
/* Remember a target PDC that goes (after it executed requests). */
void uet_pds_closed_note(struct uet_pds *pds, const struct uet_pdc *pdc);
/* A syn request (PSN psn, Start_PSN start_psn) replaying a PDC closed
 * recently: the same Start_PSN, or a PSN that PDC received. */
bool uet_pds_closed_replay(struct uet_pds *pds,
			   const uint8_t tkey[UET_PDS_TGT_KEY_LEN],
			   uint32_t start_psn, uint32_t psn);
/* Whether psn is one that pdc received already ([Start_PSN, base)). */
bool uet_pdc_psn_seen(const struct uet_pdc *pdc, uint32_t psn);
/* ROD hold buffers per source IP: take one for pdc (false: the
 * source's share is used up), give n back. */
bool uet_pds_src_hold(struct uet_pds *pds, struct uet_pdc *pdc);
void uet_pds_src_unhold(struct uet_pds *pds, struct uet_pdc *pdc,
			uint32_t n);
/* Per-source target PDC counts (tkey: the source's address key). */
bool uet_pds_src_full(struct uet_pds *pds, const uint8_t *tkey);
int uet_pds_src_add(struct uet_pds *pds, const uint8_t *tkey);
void uet_pds_src_del(struct uet_pds *pds, const uint8_t *tkey);
/* Rate-limited warning (FI_LOG_LEVEL=warn) for a drop cause. */
void uet_pds_drop_warn(struct uet_pds *pds, enum uet_pds_drop cause);

/*
 * The time PDS works with: the given now, or the latest time it was
 * given if that is later.  Callers on several threads read the clock
 * before they take the owner's lock, so a call can bring a time older
 * than one the state machines already used (a packet sent "after" the
 * ACK that acks it): time never goes back inside PDS.
 */
static inline uint64_t uet_pds_clock(struct uet_pds *pds, uint64_t now)
{
	if (now < pds->now)
		return pds->now;
	pds->now = now;
	return now;
}

/* Increment a counter of the PDS and, when pdc is not NULL, of the PDC. */
#define UET_PDS_INC(pds, pdc, field)					\
	do {								\
		struct uet_pdc *uet_inc_pdc_ = (pdc);			\
		(pds)->st.field++;					\
		if (uet_inc_pdc_)					\
			uet_inc_pdc_->st.field++;			\
	} while (0)

#define UET_PDS_ADD(pds, pdc, field, n)					\
	do {								\
		struct uet_pdc *uet_add_pdc_ = (pdc);			\
		(pds)->st.field += (n);					\
		if (uet_add_pdc_)					\
			uet_add_pdc_->st.field += (n);			\
	} while (0)

static inline uint64_t uet_pds_min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* An event changed pdc: its deadlines may now be earlier than due_ns. */
static inline void uet_pdc_touch(struct uet_pds *pds, struct uet_pdc *pdc)
{
	if (!uet_dlist_linked(&pdc->touch_entry))
		uet_dlist_insert_tail(&pds->touched, &pdc->touch_entry);
}

/* ---- uet_pds_rx.c: ACKs owed at the end of a batch ---- */
void uet_pds_send_owed_acks(struct uet_pds *pds, uint64_t now);
/* Delayed ACKs to the peers of the data queued in this batch that are
 * due (uet_pdc_ack_rides): sent now, with the data; the others wait for
 * a later batch or their timer.  In two steps: the peers the data queue
 * goes to (at most UET_PDS_PIGGYBACK_PEERS, none when no ACK is
 * delayed), then the ACKs to them (the peers stay valid after the data
 * left: they live in the PDCs). */
void uet_pds_send_piggyback_acks(struct uet_pds *pds, uint64_t now);
#define UET_PDS_PIGGYBACK_PEERS	4
unsigned int uet_pds_piggyback_peers(struct uet_pds *pds,
				     const struct uet_link_addr **peer);
void uet_pds_piggyback_send(struct uet_pds *pds,
			    const struct uet_link_addr **peer, unsigned int n,
			    uint64_t now);
/* Every delayed and owed ACK, at once (uet_pds_destroy). */
void uet_pds_send_all_acks(struct uet_pds *pds, uint64_t now);
void uet_pdc_owed_drop(struct uet_pdc *pdc);

/* ---- uet_pds.c ---- */
uint64_t uet_pds_rand(struct uet_pds *pds);
/* Send a control datagram now or queue a copy (link busy). */
void uet_pds_out_ctl(struct uet_pds *pds, const struct uet_link_addr *dst,
		     uint16_t entropy, const uint8_t *buf, size_t len,
		     uint64_t now);
/* (Re)transmit a packet: encode its PDS header, give it to the link or
 * queue it. */
void uet_pds_out_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
		     uint64_t now);
/* Take a packet off the link queue if it is on it. */
void uet_pds_unqueue_pkt(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt);
/* Queue pkt for tx_done with status (and rsp, valid until the flush). */
void uet_pds_complete(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
		      int status, uint8_t rsp_next_hdr, const uint8_t *rsp,
		      size_t rsp_len);
/* Run the queued tx_done upcalls. */
void uet_pds_flush_done(struct uet_pds *pds);
void uet_pds_rtt_sample(struct uet_pds *pds, struct uet_pds_rtt *rtt,
			uint64_t sample);
/* rto << shift, capped at rto_max. */
uint64_t uet_pds_rto_backoff(const struct uet_pds *pds,
			     const struct uet_pds_rtt *rtt, unsigned int shift);
/* Build the canonical key of a fabric address; -EAFNOSUPPORT. */
/* Encode the PDS Default SES Response (RC_OK) into rsp. */
void uet_pds_default_rsp(const struct uet_pds *pds, struct uet_pds_rsp *rsp);
/* The PDS request header length of mode (enum uet_pds_mode) in the wire
 * profile of pds. */
size_t uet_pds_mode_hdr_len(const struct uet_pds *pds, uint8_t mode);

/* ---- uet_pds_pdc.c ---- */
int uet_pds_ini_key(const struct uet_pds_key *key,
		    uint8_t out[UET_PDS_INI_KEY_LEN]);
/* The PDC whose local PDCID is lpdcid, or NULL; id_cache is checked
 * first (counted in pdc_id_cached). */
struct uet_pdc *uet_pdc_by_id(struct uet_pds *pds, uint16_t lpdcid);
struct uet_pdc *uet_pdc_by_ini_key(const struct uet_pds *pds,
				   const uint8_t key[UET_PDS_INI_KEY_LEN]);
/* The same, remembering the PDC: the sends of a burst (and the window and
 * liveness checks before each) ask for one key in a row. */
struct uet_pdc *uet_pdc_by_ini_key_last(struct uet_pds *pds,
					const uint8_t key[UET_PDS_INI_KEY_LEN]);
struct uet_pdc *uet_pdc_by_tgt_key(const struct uet_pds *pds,
				   const uint8_t key[UET_PDS_TGT_KEY_LEN]);
/* A new initiator PDC in SYN_SENT (no packet yet). */
int uet_pdc_create_ini(struct uet_pds *pds, const struct uet_pds_key *key,
		       const uint8_t ikey[UET_PDS_INI_KEY_LEN], uint64_t now,
		       struct uet_pdc **out);
/* A new target PDC for a syn request. */
int uet_pdc_create_tgt(struct uet_pds *pds, const struct uet_link_addr *src,
		       const uint8_t tkey[UET_PDS_TGT_KEY_LEN], uint16_t spdcid,
		       uint8_t mode, uint32_t start_psn, uint64_t now,
		       struct uet_pdc **out);
/* Free a PDC that has no outstanding packets (fails none). */
void uet_pdc_teardown(struct uet_pds *pds, struct uet_pdc *pdc);
/* Complete every outstanding packet with status, then tear down. */
void uet_pdc_fail(struct uet_pds *pds, struct uet_pdc *pdc, int status);

/* ---- uet_pds_unreach.c: unreachable-destination reports ---- */
/* Read the link's reports and act on the PDCs to each destination. */
void uet_pds_link_errors(struct uet_pds *pds, uint64_t now);
/* Fail pdc when its doom deadline passed; false when it did (freed). */
bool uet_pdc_doom_timer(struct uet_pds *pds, struct uet_pdc *pdc,
			uint64_t now);
/* uet_pds_tx.c: resend the oldest unacked packet (or ask for the ACK of
 * one waiting for its response) at once; false when the PDC failed. */
bool uet_pdc_probe_now(struct uet_pds *pds, struct uet_pdc *pdc,
		       uint64_t now);
/* INV_DPDCID: start over with a new PDCID and Start_PSN. */
void uet_pdc_restart(struct uet_pds *pds, struct uet_pdc *pdc, uint64_t now);
/* Leave the key map so that new sends open a new PDC. */
void uet_pdc_unkey(struct uet_pds *pds, struct uet_pdc *pdc);
void *uet_pdc_handle(const struct uet_pdc *pdc);
struct uet_pdc *uet_pdc_from_handle(struct uet_pds *pds, void *h);
/* Send a control packet on pdc. */
void uet_pdc_send_cp(struct uet_pds *pds, struct uet_pdc *pdc,
		     uint8_t ctl_type, uint32_t psn, bool retx, bool ar,
		     uint16_t probe_opaque, uint64_t now);
/* Idle close, clear and close retries; false when pdc was freed. */
bool uet_pdc_lifecycle_timer(struct uet_pds *pds, struct uet_pdc *pdc,
			     uint64_t now);
uint64_t uet_pdc_lifecycle_deadline(const struct uet_pds *pds,
				    const struct uet_pdc *pdc);
void uet_pdc_start_close(struct uet_pds *pds, struct uet_pdc *pdc,
			 uint64_t now);

/* ---- uet_pds_tx.c ---- */
int uet_pdc_tx_init(struct uet_pds *pds, struct uet_pdc *pdc);
void uet_pdc_tx_fini(struct uet_pds *pds, struct uet_pdc *pdc);
int uet_pdc_send(struct uet_pds *pds, struct uet_pdc *pdc,
		 struct uet_pds_tx_pkt *pkt, uint64_t now);
unsigned int uet_pdc_tx_space(const struct uet_pds *pds,
			      const struct uet_pdc *pdc);
/* Encode the RUD/ROD request header of pkt into its header buffer. */
void uet_pdc_encode_req(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt);
/* An ACK (any of the three ACK formats) for the transmit direction. */
void uet_pdc_ack_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		    const struct uet_pds_ack *ack, bool has_sack,
		    int16_t sack_psn_offset, uint64_t sack_bitmap,
		    const uint8_t *rsp, size_t rsp_len,
		    const struct uet_pds_cc_fb *fb, uint64_t now);
void uet_pdc_nack_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		     const struct uet_pds_nack *nack, uint64_t now);
/* Retransmissions, ACK requests, probes; false when pdc was freed. */
bool uet_pdc_tx_timer(struct uet_pds *pds, struct uet_pdc *pdc,
		      uint64_t now);
uint64_t uet_pdc_tx_deadline(const struct uet_pds *pds,
			     const struct uet_pdc *pdc);
/* A valid packet from the peer of pdc (ACK, NACK, CP, request): the
 * retry budget of every packet starts again. */
void uet_pdc_alive(struct uet_pdc *pdc, uint64_t now);
/* Every outstanding packet of pdc, in PSN order, completed with status. */
void uet_pdc_tx_fail_all(struct uet_pds *pds, struct uet_pdc *pdc,
			 int status);
/* First PSN not done (CLEAR_PSN + 1). */
uint32_t uet_pdc_clear_base(const struct uet_pdc *pdc);

/* ---- uet_pds_rx.c ---- */
int uet_pdc_rx_init(struct uet_pds *pds, struct uet_pdc *pdc);
void uet_pdc_rx_fini(struct uet_pds *pds, struct uet_pdc *pdc);
/* Forget all receive state and start again at start_psn. */
void uet_pdc_rx_reset(struct uet_pds *pds, struct uet_pdc *pdc);
/* Free retained responses for PSNs <= clear_psn (clamped to cack). */
void uet_pdc_rx_clear(struct uet_pds *pds, struct uet_pdc *pdc,
		      uint32_t clear_psn);
/* Delayed ACKs and ROD redelivery. */
/* false when it tore pdc down (held packets expired). */
bool uet_pdc_rx_timer(struct uet_pds *pds, struct uet_pdc *pdc, uint64_t now);
uint64_t uet_pdc_rx_deadline(const struct uet_pds *pds,
			     const struct uet_pdc *pdc);
/* Nothing received is waiting (no held packet, no pending ACK). */
bool uet_pdc_rx_idle(const struct uet_pdc *pdc);
void uet_pds_send_nack(struct uet_pds *pds, const struct uet_link_addr *dst,
		       uint8_t code, bool nt, uint32_t psn, uint16_t spdcid,
		       uint16_t dpdcid, bool retx, uint64_t now);

/* ---- uet_pds_rudi.c ---- */
int uet_pds_rudi_init(struct uet_pds *pds);
void uet_pds_rudi_fini(struct uet_pds *pds);
int uet_pds_rudi_send(struct uet_pds *pds, const struct uet_pds_key *key,
		      struct uet_pds_tx_pkt *pkt, uint64_t now);
int uet_pds_uud_send(struct uet_pds *pds, const struct uet_pds_key *key,
		     struct uet_pds_tx_pkt *pkt, uint64_t now);
unsigned int uet_pds_rudi_space(const struct uet_pds *pds);
unsigned int uet_pds_uud_space(const struct uet_pds *pds);
/* Encode the RUDI / UUD header of pkt into its header buffer. */
void uet_pds_nopdc_encode_hdr(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt);
void uet_pds_rudi_req_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
			 const struct uet_link_addr *src, uint64_t now);
void uet_pds_rudi_resp_rx(struct uet_pds *pds, const uint8_t *buf,
			  size_t len, const struct uet_link_addr *src,
			  uint64_t now);
void uet_pds_uud_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
		    const struct uet_link_addr *src, uint64_t now);
void uet_pds_rudi_nack_rx(struct uet_pds *pds, const struct uet_pds_nack *n,
			  const struct uet_link_addr *src, uint64_t now);
void uet_pds_rudi_timer(struct uet_pds *pds, uint64_t now);
uint64_t uet_pds_rudi_deadline(const struct uet_pds *pds);
/* Fail every outstanding RUDI and queued UUD packet. */
void uet_pds_rudi_fail_all(struct uet_pds *pds, int status);

#endif /* UET_PDS_INTERNAL_H */
