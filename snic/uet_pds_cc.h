/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS congestion management (docs/congestion.md): per-destination
 * congestion contexts shared by every PDC to one peer, NSCC at the
 * sender, RCCC credits at the receiver, entropy spraying, and the ACK_CC
 * state that carries the receiver's view back.  PDS-internal: only
 * snic/uet_pds*.c include it.
 *
 * ack_cc_state layouts (64 bits, most significant first; our choice, the
 * spec names the fields but not their widths, docs/conformance.md):
 *   NSCC    service_time (16, units of 64 ns: the ACK's delay at the
 *           receiver) | rcv_cwnd_pend (8, receiver's pending window in
 *           MTUs, 0: none) | rcvd_bytes (24, units of 64 B: request bytes
 *           received since the previous ACK) | ooo_count (16: requests
 *           received out of order since the previous ACK);
 *   CREDIT  credit (64): bytes this sender may have in flight to the
 *           receiver (RCCC).
 * ACK_CCX with both (FI_UET_CC=both): ack_ccx_state = NSCC state (8 B
 * big-endian) followed by the credit (8 B big-endian), cc_type NSCC.
 *
 * CSIG (cfg.cc_csig; tagged-send-and-encapsulation.md 4.2, pds-formats.md
 * 3.11): a request with 16 bytes of room below the MTU goes as RUD_CC /
 * ROD_CC whose req_cc_state is the CMS compact CC state (8 B,
 * wire/uet_cms_wire.h: cc_type NSCC, or CREDIT when only RCCC runs;
 * sent_bytes = the context's bytes in flight, saturated at 24 bits;
 * cwnd_bytes = its window, cwnd or the credit held, saturated at 32
 * bits) followed by 8 zero bytes (ignored on receipt).  The receiver
 * keeps the latest per source (struct uet_pds_cc_info peer_*) and RCCC
 * grants an NSCC source at most twice its announced window (see
 * uet_pds_cc_credit): a source its own NSCC holds back gets no credit it
 * could burst into the receiver's link at once.
 */
#ifndef UET_PDS_CC_H
#define UET_PDS_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_hashmap.h"
#include "uet_link.h"

struct uet_pds;
struct uet_pdc;
struct uet_pds_tx_pkt;

/* Entropies a sprayed context keeps (cfg.cc_entropies is capped here). */
#define UET_PDS_CC_ENT_MAX		64u

/* Feedback an ACK or NACK carried. */
struct uet_pds_cc_fb {
	bool m;				/* ECN-marked request(s) */
	bool has_nscc;
	bool has_credit;
	uint64_t credit;		/* RCCC grant, bytes */
	uint32_t rcvd_bytes;
	uint16_t ooo_count;
	uint64_t service_ns;
};

struct uet_pds_cc_stats {
	uint64_t acks_marked;		/* ACKs with m received */
	uint64_t trims;			/* TRIMMED NACKs received */
	uint64_t decreases;		/* multiplicative decreases */
	uint64_t ent_moved;		/* entropies replaced */
	uint64_t credit_waits;		/* sends held by credit */
	uint64_t cwnd_waits;		/* sends held by cwnd */
	uint64_t pace_waits;		/* sends held by pacing */
	uint64_t ce_rx;			/* CE-marked requests received */
	uint64_t trimmed_rx;		/* trimmed requests received */
	uint64_t csig_tx, csig_rx;	/* requests with CC state sent, read */
	uint64_t csig_bad;		/* ... whose CC state was malformed */
};

/* One destination (or, at a target, one source): its key is the peer's
 * fabric address key. */
struct uet_pds_ccd {
	struct uet_hnode node;
	uint8_t key[UET_LINK_ADDR_KEY_LEN];
	uint32_t refs;			/* PDCs using it */
	/* NSCC */
	uint64_t cwnd;			/* bytes */
	uint64_t inflight;		/* bytes sent, not yet acked */
	uint64_t base_rtt;		/* smallest RTT sample */
	uint64_t srtt;
	uint64_t last_delay;		/* queueing delay of the last sample */
	uint64_t round_end_ns;		/* end of the current RTT round */
	uint64_t round_acked, round_marked;
	uint32_t alpha;			/* marked fraction EWMA, / 1024 */
	uint64_t loss_ns;		/* last decrease for a loss or trim */
	/* pacing: a token bucket of bytes filled at cwnd / srtt, at most
	 * uet_pds_cc_pace_depth(); pace_ns the time of pace_tokens (0: never
	 * sent, the bucket is full) */
	int64_t pace_tokens;
	uint64_t pace_ns;
	/* RCCC */
	uint64_t credit;		/* UINT64_MAX: none received */
	/* spraying */
	uint16_t ent[UET_PDS_CC_ENT_MAX];
	unsigned int nent, ent_next;
	/* target side: the activity epoch this source was last seen in */
	uint32_t rx_epoch;
	/* target side: the source's latest CSIG (csig_ns 0: none) */
	uint8_t csig_type;
	uint32_t csig_sent, csig_cwnd;
	uint64_t csig_ns;
	struct uet_pds_cc_stats st;
};

/* The PDS-wide part (struct uet_pds.cc). */
struct uet_pds_cc {
	struct uet_hashmap map;		/* key -> struct uet_pds_ccd */
	uint64_t rng;
	/* RCCC: sources seen sending in this and the previous epoch */
	uint32_t epoch;
	uint64_t epoch_start_ns;
	uint32_t active_cur, active_prev;
	/* the link's entropies (UDP: entropy socket ports), 0: any value */
	uint16_t pool[UET_PDS_CC_ENT_MAX];
	unsigned int npool;
	struct uet_pds_cc_stats st;
};

int uet_pds_cc_init(struct uet_pds *pds);
void uet_pds_cc_fini(struct uet_pds *pds);
/* Give pdc the context of its peer (created at first use).  Without
 * memory the PDC runs without congestion control (ccd NULL). */
void uet_pds_cc_attach(struct uet_pds *pds, struct uet_pdc *pdc);
void uet_pds_cc_detach(struct uet_pds *pds, struct uet_pdc *pdc);

/* ---- sender ---- */
/* Packets the context lets pdc start now (UINT32_MAX: no limit). */
uint32_t uet_pds_cc_tx_room(const struct uet_pds *pds,
			    const struct uet_pdc *pdc);
/* Pacing (cfg.cc_pace, NSCC with a configured rate): the
 * bytes the bucket of pdc's context holds at now (INT64_MAX: no pacing),
 * its depth (the largest burst), and the time at which it will hold one
 * MTU (now when it does, 0 without pacing).  tx_room uses pds->now. */
bool uet_pds_cc_pacing(const struct uet_pds *pds);
int64_t uet_pds_cc_pace_avail(const struct uet_pds *pds,
			      const struct uet_pds_ccd *d, uint64_t now);
uint64_t uet_pds_cc_pace_depth(const struct uet_pds *pds,
			       const struct uet_pds_ccd *d);
uint64_t uet_pds_cc_pace_due(const struct uet_pds *pds,
			     const struct uet_pds_ccd *d, uint64_t now);
/* Whether pacing, not the window or the credit, holds pdc's next send
 * (at pds->now). */
bool uet_pds_cc_paced_out(const struct uet_pds *pds,
			  const struct uet_pdc *pdc);
/* A first transmission of bytes; released once by cc_pkt_release.  Takes
 * the bytes from the pacing bucket at pds->now. */
void uet_pds_cc_pkt_sent(struct uet_pds *pds, struct uet_pds_tx_pkt *pkt,
			 uint32_t bytes);
/* The packet is acked or finished: no longer in flight. */
void uet_pds_cc_pkt_release(struct uet_pds_tx_pkt *pkt);
/* The entropy of the next transmission of pkt on pdc; *sprayed when it
 * is one of the context's set (a syn request never is: the target learns
 * the initiator's address from it). */
uint16_t uet_pds_cc_entropy(struct uet_pds *pds, struct uet_pdc *pdc,
			    struct uet_pds_tx_pkt *pkt, bool *sprayed);
/* An ACK: acked bytes newly acknowledged, rtt a sample (0: none), pkt the
 * designated packet (NULL: none) for the entropy feedback. */
void uet_pds_cc_on_ack(struct uet_pds *pds, struct uet_pdc *pdc,
		       const struct uet_pds_cc_fb *fb, uint64_t acked,
		       uint64_t rtt, uint16_t ent, bool have_ent,
		       uint64_t now);
/* A TRIMMED NACK (pkt's last entropy) or a retransmission timeout. */
void uet_pds_cc_on_trim(struct uet_pds *pds, struct uet_pdc *pdc,
			uint16_t ent);
void uet_pds_cc_on_timeout(struct uet_pds *pds, struct uet_pdc *pdc,
			   uint16_t ent);
/* A packet found lost by RACK (SACK holes): its entropy is bad; NSCC
 * takes one MTU off, as for a trim. */
void uet_pds_cc_on_loss(struct uet_pds *pds, struct uet_pdc *pdc,
			uint16_t ent);

/* ---- receiver ---- */
/* A request of len bytes arrived on pdc with this TOS; in_order false
 * when it left a hole or filled one. */
void uet_pds_cc_rx_req(struct uet_pds *pds, struct uet_pdc *pdc, size_t len,
		       uint8_t tos, bool in_order, uint64_t now);
/* Fill an ACK's CC part and reset the per-ACK counters of pdc.  Returns
 * the PDS type to send: UET_PDS_TYPE_ACK (no CC), _ACK_CC or _ACK_CCX;
 * *m is the m flag. */
unsigned int uet_pds_cc_ack_fill(struct uet_pds *pds, struct uet_pdc *pdc,
				 uint8_t *cc_type, uint64_t *state,
				 uint8_t ccx[16], bool *m, uint64_t now);
/* Decode the CC part of a received ACK_CC / ACK_CCX. */
uint64_t uet_pds_cc_credit_pack(enum uet_wire_prof wp, uint64_t credit);
void uet_pds_cc_fb_from_state(enum uet_wire_prof wp,
			      struct uet_pds_cc_fb *fb, uint8_t cc_type,
			      uint64_t state);
void uet_pds_cc_fb_from_ccx(enum uet_wire_prof wp, struct uet_pds_cc_fb *fb,
			    uint8_t cc_type,
			    const uint8_t ccx[16]);

/* CSIG: fill the req_cc_state of a request of pdc (16 bytes); read a
 * received one (0, or -EINVAL when malformed: counted, ignored). */
void uet_pds_cc_csig_fill(struct uet_pds *pds, struct uet_pdc *pdc,
			  uint8_t st[16]);
int uet_pds_cc_csig_rx(struct uet_pds *pds, struct uet_pdc *pdc,
		       const uint8_t st[16], uint64_t now);

/* NSCC ack_cc_state packing (exposed for the wire tests). */
uint64_t uet_pds_cc_nscc_pack(uint64_t service_ns, uint8_t cwnd_pend,
			      uint32_t rcvd_bytes, uint16_t ooo);
void uet_pds_cc_nscc_unpack(uint64_t state, uint64_t *service_ns,
			    uint8_t *cwnd_pend, uint32_t *rcvd_bytes,
			    uint16_t *ooo);

#endif /* UET_PDS_CC_H */
