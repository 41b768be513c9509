/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * PDS: the Packet Delivery Sublayer of the software NIC.
 *
 * One uet_pds per NIC instance.  It owns the PDCs (packet delivery
 * contexts) of that NIC, keyed at the initiator by {JobID, destination
 * fabric address, traffic class, delivery mode} and shared by everything
 * on the NIC that talks to that destination, and at the target by
 * {source fabric address, source PDCID}.
 *
 * Delivery modes: RUD (reliable, delivered to SES as packets arrive), ROD
 * (reliable, delivered strictly in PSN order), RUDI (reliable by pkt_id,
 * idempotent, no PDC), UUD (unreliable, no ACK).
 *
 * The state machines take the current time (ns, any monotonic origin) as
 * an argument and emit packets through the link ops table; there is no
 * I/O, clock read or sleep inside, so tests drive two NICs over the
 * in-memory link with a fake clock.
 *
 * SES boundary:
 *   - SES hands PDS one packet at a time (uet_pds_send): an encoded SES
 *     header in hdr[] plus payload iovecs pointing at the caller's memory
 *     (zero copy; the memory must stay valid until tx_done).
 *   - PDS delivers every new (non-duplicate) request packet to SES through
 *     the rx upcall.  SES may answer with an SES response, which PDS sends
 *     on the ACK of that packet and retains until the initiator's CLEAR_PSN
 *     passes it, so a retransmitted duplicate or an ACK_REQUEST gets the
 *     same response again; duplicates without a retained response get the
 *     Default SES Response (RC_OK).  SES returning -EAGAIN means "no
 *     buffer": the packet is not delivered, PDS NACKs it (NO_PKT_BUF) and
 *     the initiator retransmits later.
 *   - PDS reports every sent packet exactly once through tx_done: acked
 *     (with the SES response of that packet if one arrived), or failed
 *     (-ETIMEDOUT when the peer stopped answering after the bounded number
 *     of retries, -ECANCELED when the PDS is destroyed, -ECONNRESET when
 *     the peer closed the PDC in error).
 *   - A packet with want_rsp set is not reported as done until its SES
 *     response has arrived: if it was covered by a cumulative ACK without
 *     its response, PDS asks for it with an ACK_REQUEST control packet.
 *   - A packet with ar set carries the AR flag on every transmission, so
 *     the target acknowledges it at once instead of after its delayed-ACK
 *     timer.  SES sets it on the last packet of something the peer waits
 *     for that gets no SES response (the last Response with Data of a
 *     read, the rendezvous notice): the target may report a completion
 *     for it and then stop progressing (manual progress), and a delayed
 *     ACK would then never leave.
 */
#ifndef UET_PDS_H
#define UET_PDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_hsi_dev.h"
#include "uet_link.h"
#include "uet_list.h"

enum uet_pds_mode {
	UET_PDS_MODE_RUD = 0,
	UET_PDS_MODE_ROD = 1,
	UET_PDS_MODE_RUDI = 2,
	UET_PDS_MODE_UUD = 3,
};

/* PDC identity at the initiator. */
struct uet_pds_key {
	uint32_t job_id;		/* 24 bits */
	struct uet_link_addr dst;
	uint8_t tc;			/* traffic class */
	uint8_t mode;			/* enum uet_pds_mode */
};

/* Largest encoded SES header PDS carries for SES (standard 44 B + the
 * largest extension, CAS 40 B). */
#define UET_PDS_SES_HDR_MAX	88
#define UET_PDS_TX_MAX_IOV	4

/* Largest SES response SES may attach to an ACK. */
#define UET_PDS_RSP_MAX		32

/*
 * One packet handed from SES to PDS.  SES allocates it (usually embedded
 * in its own per-packet state) and fills the fields above `priv`; PDS owns
 * it from uet_pds_send() until tx_done.
 */
struct uet_pds_tx_pkt {
	uint8_t next_hdr;		/* enum uet_next_hdr of hdr[] */
	bool want_rsp;			/* done only once its SES response came */
	bool ar;			/* ask for an immediate ACK (RUD/ROD) */
	uint16_t hdr_len;
	uint8_t hdr[UET_PDS_SES_HDR_MAX];
	unsigned int iovcnt;
	struct iovec iov[UET_PDS_TX_MAX_IOV];
	void *ctx;			/* SES's; returned in tx_done */

	/* Owned by PDS. */
	struct {
		struct uet_dlist entry;
		void *pdc;
		uint32_t psn;		/* PSN, or pkt_id for RUDI */
		uint64_t first_tx_ns;
		uint64_t last_tx_ns;
		uint16_t tx_count;
		uint8_t state;
		bool acked;
		bool rsp_requested;
		/* Added for the implementation (snic/uet_pds_*.c). */
		struct uet_dlist qentry;	/* link-busy queue */
		void *hbuf;		/* PDS + SES header buffer */
		uint64_t due_ns;	/* NACK retry / next ACK_REQUEST */
		uint32_t epoch;		/* PDC sign-of-life epoch of retries */
		uint16_t retries;	/* retransmissions since a sign of life */
		uint8_t mode;		/* enum uet_pds_mode */
		uint8_t pds_len;	/* PDS header bytes in hbuf */
		bool ar;		/* request an immediate ACK */
		bool nack_retx;		/* next retransmission is NACK's */
		uint8_t rsp_next_hdr;	/* response when on the done queue */
		uint16_t rsp_len;
		int status;
		const uint8_t *rsp;
		uint32_t tx_seq;	/* PDC transmission order (RACK) */
		bool rack_retx;		/* last retransmission was RACK's */
		uint8_t nacks;		/* NO_PKT_BUF-like NACKs received */
		uint64_t alive_ns;	/* RUDI: last NACK from the target */
		/* Congestion management (snic/uet_pds_cc.c). */
		void *cc;		/* context it is counted in, or NULL */
		uint32_t cc_bytes;	/* bytes counted in flight */
		uint16_t entropy;	/* of its latest transmission */
	} priv;
};

/* What PDS tells SES about a received request packet. */
struct uet_pds_rx_info {
	const struct uet_link_addr *src;
	uint8_t mode;			/* enum uet_pds_mode */
	uint8_t next_hdr;		/* SES header type in ses[] */
	uint32_t psn;			/* PSN, or pkt_id for RUDI/UUD */
	void *pdc;			/* target-side PDC, NULL for RUDI/UUD */
	const uint8_t *ses;		/* SES header(s) + payload */
	size_t ses_len;
	uint64_t now;			/* arrival time (PDS's clock) */
};

/* An SES response to carry on the ACK of the packet being delivered. */
struct uet_pds_rsp {
	uint8_t next_hdr;		/* UET_HDR_NONE: no response */
	uint16_t len;
	uint8_t buf[UET_PDS_RSP_MAX];
	/* SES refused the request before acting on it (no endpoint, wrong
	 * delivery mode): a PDC that this packet opened is released at
	 * once instead of being kept for the source. */
	bool refused;
	/* RC_OK for a packet whose initiator did not ask for an immediate
	 * ACK (no ar): the response may be left out (the Default SES
	 * Response) and the ACK delayed (docs/software-nic.md, "Held
	 * sends"). */
	bool deferrable;
};

struct uet_pds_upcalls {
	/* A new request packet.  Return 0 (rsp->next_hdr set to a response
	 * header, or left UET_HDR_NONE), -EAGAIN (no buffer: NACK, retried
	 * by the initiator), or another negative errno (malformed SES: the
	 * packet is acked, counted and dropped). */
	int (*rx)(void *ctx, const struct uet_pds_rx_info *info,
		  struct uet_pds_rsp *rsp);
	/* A packet handed to uet_pds_send() is finished; see the header
	 * comment for status values.  rsp is NULL when no SES response came
	 * with its ACK. */
	void (*tx_done)(void *ctx, struct uet_pds_tx_pkt *pkt, int status,
			uint8_t rsp_next_hdr, const uint8_t *rsp,
			size_t rsp_len);
	/* May be NULL.  Whether SES would take a request (its endpoint
	 * exists and takes this mode), without acting on it: PDS asks before
	 * it holds an out-of-order ROD packet for a PDC that no accepted
	 * request opened yet.  true: yes. */
	bool (*check)(void *ctx, const struct uet_pds_rx_info *info);
	/* May be NULL.  A send that uet_pds_send() refused with -EAGAIN
	 * because of pacing (no packet of it was in flight to end with a
	 * tx_done) may be tried again now: the timer pass calls this when
	 * the pacing bucket of a PDC that refused one has refilled. */
	void (*tx_room)(void *ctx);
};

struct uet_pds_cfg {
	uint8_t wire;			/* enum uet_wire_prof */
	uint32_t window;		/* unacked PSNs per PDC, <= 1024 */
	uint64_t rto_init_ns;		/* first retransmission timeout */
	uint64_t rto_min_ns;
	uint64_t rto_max_ns;		/* cap of exponential backoff */
	unsigned int max_retries;	/* retransmission rounds without a sign
					 * of life from the peer ... */
	uint64_t dead_ns;		/* ... and this much silence: then the
					 * PDC fails (-ETIMEDOUT); 0: rounds */
	uint64_t unreach_ns;		/* after an ICMP unreachable report:
					 * this much more silence fails the
					 * PDC (probed at once); 0: reports
					 * are ignored */
	uint64_t reorder_min_ns;	/* floor of the RACK reorder window */
	unsigned int ack_coalesce;	/* ACK at least every N packets */
	uint64_t ack_delay_ns;		/* ... or after this delay */
	uint64_t idle_close_ns;		/* close PDCs idle this long, 0 never */
	uint32_t max_pdcs;		/* per NIC, both directions */
	uint32_t max_pdcs_per_src;	/* target PDCs per source FA (IP and
					 * port), 0 any */
	uint32_t max_pdcs_per_ip;	/* target PDCs per source IP, all its
					 * ports together, 0 any */
	uint64_t seed;			/* PSN/PDCID randomness; 0 = random */
	/* Congestion management (docs/congestion.md): UET_PDS_CC_* bits,
	 * 0 off. */
	uint8_t cc;
	uint64_t cc_rate_bps;		/* the NIC's port rate; 0 unknown */
	uint64_t cc_base_rtt_ns;	/* unloaded RTT of the fabric */
	uint64_t cc_target_ns;		/* NSCC target delay; 0: base RTT */
	uint32_t cc_entropies;		/* spray over this many; <= 1 none */
	bool cc_pace;			/* NSCC with a rate: pace sends */
	bool cc_csig;			/* CC on: CSIG in requests with room */
	bool fixed_start_psn;		/* tests: use start_psn for new PDCs */
	uint32_t start_psn;
};

/* cfg.cc bits. */
#define UET_PDS_CC_NSCC		0x1u
#define UET_PDS_CC_RCCC		0x2u

/* Defaults suitable for loopback and a LAN. */
void uet_pds_cfg_default(struct uet_pds_cfg *cfg);

struct uet_pds;

int uet_pds_create(struct uet_pds **pds, const struct uet_pds_cfg *cfg,
		   struct uet_link *link, const struct uet_pds_upcalls *up,
		   void *up_ctx);
/* Install the upper layer's upcalls (SES does this in uet_ses_create;
 * up may be NULL at uet_pds_create time). */
void uet_pds_set_upcalls(struct uet_pds *pds, const struct uet_pds_upcalls *up,
			 void *up_ctx);
/* Fails every outstanding packet with -ECANCELED, closes every PDC. */
void uet_pds_destroy(struct uet_pds *pds);

/* Room for new packets on the PDC of key (its window), opening nothing. */
unsigned int uet_pds_tx_space(struct uet_pds *pds,
			      const struct uet_pds_key *key);
/* Whether the PDC of key is established (its peer has acknowledged a
 * packet) and not failing: a send to it may complete once held. */
bool uet_pds_peer_alive(struct uet_pds *pds, const struct uet_pds_key *key);
/* Transmit pkt on the PDC of key, establishing the PDC if needed.
 * Returns 0, -EAGAIN when the PDC's window is full (retry after a
 * tx_done or progress), or -EINVAL / -ENOMEM. */
int uet_pds_send(struct uet_pds *pds, const struct uet_pds_key *key,
		 struct uet_pds_tx_pkt *pkt, uint64_t now);
/* Send one SES packet back to the initiator of a received request, on
 * the reverse direction of its PDC (used for responses that do not fit an
 * ACK, e.g. Response with Data).  Same return values as uet_pds_send. */
int uet_pds_send_reply(struct uet_pds *pds, void *rx_pdc,
		       struct uet_pds_tx_pkt *pkt, uint64_t now);

/* The largest datagram (PDS and SES headers, payload) to dst where the
 * link's path to it is wider than the link's MTU (struct uet_link_ops
 * path_mtu), else 0.  A system call only when the link has not asked the
 * kernel about dst's host lately. */
size_t uet_pds_path_mtu(struct uet_pds *pds, const struct uet_link_addr *dst);
/* The same for the peer of a received request's PDC (rx_pdc of
 * uet_pds_send_reply); 0 when the PDC is gone. */
size_t uet_pds_reply_mtu(struct uet_pds *pds, void *rx_pdc);

/* The PDC a packet handed to uet_pds_send() went out on, as
 * uet_pds_rx_info.pdc names it for the packets that arrive on it; NULL
 * for RUDI and UUD. */
void *uet_pds_pkt_pdc(const struct uet_pds_tx_pkt *pkt);

/* Process one received datagram. */
void uet_pds_rx(struct uet_pds *pds, const uint8_t *buf, size_t len,
		const struct uet_link_addr *src, uint64_t now);
/* The same with the TOS / traffic class byte it arrived with (ECN and
 * the trimmed DSCP, struct uet_link_rx.tos). */
void uet_pds_rx_tos(struct uet_pds *pds, const uint8_t *buf, size_t len,
		    const struct uet_link_addr *src, uint8_t tos,
		    uint64_t now);
/* Run timers (retransmission, delayed ACKs, ACK requests, idle close). */
void uet_pds_timer(struct uet_pds *pds, uint64_t now);
/* Earliest time uet_pds_timer() has work, UINT64_MAX if none. */
uint64_t uet_pds_next_deadline(const struct uet_pds *pds);
/* Convenience: receive from the link, process, run timers.  A poll
 * that received nothing while uet_pds_quiet() holds runs no timer pass
 * and no flush (counted in quiet_polls); one that received datagrams,
 * with nothing due, leaves the timer pass to the next poll, never two
 * in a row (timer_deferred). */
int uet_pds_poll(struct uet_pds *pds, uint64_t now);
/* Nothing due or queued: a pass without datagrams has no PDS work. */
bool uet_pds_quiet(const struct uet_pds *pds, uint64_t now);
/* End a batch in which uet_pds_quiet() held throughout (nothing queued):
 * what uet_pds_batch_end() would do then, without its checks. */
void uet_pds_batch_end_quiet(struct uet_pds *pds);
/*
 * Output batching.  Between batch_begin and the matching batch_end
 * (they nest) datagrams are queued instead of sent; batch_end sends
 * them, control first, many per link call (one sendmmsg), and delivers
 * the tx_done upcalls that became due.  Outside a batch every datagram
 * goes to the link at once.
 */
void uet_pds_batch_begin(struct uet_pds *pds);
void uet_pds_batch_end(struct uet_pds *pds, uint64_t now);
/*
 * batch_end for a doorbell under manual progress: when the batch queued
 * less than a link batch of data for a PDC that already has packets in
 * flight (a burst of posts, not its first send), the data stays queued
 * for the next flush (the next doorbell that fills a link batch, the
 * next progress pass or timer), so that a burst leaves in one sendmmsg
 * (one GSO send).  The first send of a burst goes at once.
 */
void uet_pds_batch_end_tx(struct uet_pds *pds, uint64_t now);
/*
 * Inside the outermost batch (depth 1): send now what its end would send
 * (the ACKs joining the data, the queued datagrams, the tx_done upcalls)
 * and keep the batch open, so that work which need not precede the
 * datagrams runs after them.  tx: decide as uet_pds_batch_end_tx() would
 * whether the data may wait for a later flush (then nothing is sent).
 * Returns whether it flushed; false at any other depth.
 */
bool uet_pds_batch_flush(struct uet_pds *pds, uint64_t now, bool tx);

struct uet_pds_stats {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	uint64_t retx, retx_timeout, retx_nack, retx_sack;
	uint64_t dup_rx, ooo_held;
	uint64_t ack_tx, ack_rx, nack_tx, nack_rx, cp_tx, cp_rx;
	uint64_t rsp_retained, default_rsp_tx;
	uint64_t malformed, unknown_pdc, wrong_mode;
	/* datagrams refused that parse in the other wire profile (not in
	 * malformed): a peer of the other profile */
	uint64_t wire_mismatch;
	uint64_t pdc_opened, pdc_closed, pdc_failed;
	uint64_t link_busy;
	uint64_t unreach_icmp;	/* ICMP unreachable reports for a PDC */
	uint64_t unreach_local;	/* the kernel refused the peer's address */
	uint64_t pdc_unreach;	/* PDCs failed on such reports */
	uint64_t tx_deferred;	/* doorbells whose data waited (batch_end_tx) */
	uint64_t rsp_deferred;	/* RC_OK responses left to the delayed ACK */
	uint64_t ack_piggyback;	/* delayed ACKs sent with data to their peer */
	uint64_t ack_coalesced;	/* delayed ACKs a batch with data to their
				 * peer left for a later one (not due yet) */
	uint64_t ack_timer;	/* delayed ACKs sent by their timer */
	uint64_t data_first;	/* link calls with the data ahead of the
				 * control (uet_pds_flush_link) */
	uint64_t ack_close;	/* delayed ACKs sent by destroy */
	uint64_t ack_final;	/* repeated final ACKs sent by destroy */
	uint64_t quiet_polls;	/* polls with nothing received, due or queued
				 * (no timer pass, no flush) */
	uint64_t timer_deferred;	/* polls that received datagrams and
				 * left the timer pass to the next poll */
	uint64_t pdc_id_cached;	/* PDCID lookups answered by the PDC found
				 * last (no hash lookup) */
	/* Hostile-network drops (docs/software-nic.md, "Hostile network"). */
	uint64_t syn_refused;	/* PDCs released: SES refused their first
				 * request (no endpoint, wrong mode) */
	uint64_t src_limit;	/* syn requests over max_pdcs_per_src */
	uint64_t replay_drop;	/* syn requests of a recently closed PDC */
	uint64_t syn_conflict;	/* syn requests that would reset a busy PDC */
	uint64_t hold_limit;	/* ROD packets over the per-PDC hold bound */
	uint64_t hold_expired;	/* PDCs torn down: held packets too old */
	uint64_t unverified_wait;	/* replies held until the initiator
					 * proved its address */
	uint64_t pdcs_open;	/* uet_pds_get_stats: PDCs open now */
};

void uet_pds_get_stats(const struct uet_pds *pds, struct uet_pds_stats *st);

/* Congestion state towards (or from) one peer, or PDS-wide counters. */
struct uet_pds_cc_info {
	uint64_t cwnd, inflight, credit;	/* bytes; credit MAX: none */
	uint64_t base_rtt, srtt;
	uint32_t alpha;				/* / 1024 */
	unsigned int nent;
	uint16_t ent[64];
	uint64_t acks_marked, trims, decreases, ent_moved;
	uint64_t ce_rx, trimmed_rx;
	uint64_t pace_waits;			/* sends held by pacing */
	uint64_t csig_tx, csig_rx, csig_bad;	/* CSIG sent, read, bad */
	/* the peer's latest CSIG (a receiver's view of its source) */
	bool peer_csig;
	uint32_t peer_sent, peer_cwnd;
};

/* -ENOENT when no PDC to peer uses a context (or CC is off). */
int uet_pds_get_cc_info(const struct uet_pds *pds,
			const struct uet_link_addr *peer,
			struct uet_pds_cc_info *info);
void uet_pds_get_cc_totals(const struct uet_pds *pds,
			   struct uet_pds_cc_info *info);
/* Counters of the initiator PDC of key; -ENOENT if there is none. */
int uet_pds_get_pdc_stats(const struct uet_pds *pds,
			  const struct uet_pds_key *key,
			  struct uet_pds_stats *st);

/*
 * The state of one PDC is the HSI's struct uet_hsi_pdc_info
 * (hsi/uet_hsi_dev.h, query_peer_pdcs), which the PDS fills directly.
 */

/*
 * The PDCs open with the NIC at peer (both directions), at most max of
 * them into v (in the PDS's order); returns how many are open (which may
 * exceed max), or -EINVAL.
 */
int uet_pds_get_peer_pdcs(const struct uet_pds *pds,
			  const struct uet_link_addr *peer,
			  struct uet_hsi_pdc_info *v, unsigned int max);

#endif /* UET_PDS_H */
