/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES internals shared by uet_ses*.c.  Not part of the NIC's API.
 *
 * Object model (docs/software-nic.md (SES) has the protocol):
 *
 *   uet_ses_send_op   one send at the initiator: segmentation state, the
 *                     rendezvous memory key, the packets in flight.
 *   uet_ses_recv_op   one posted receive.
 *   uet_ses_rx_msg    one message at the target that needs state beyond a
 *                     single packet: multi-packet reassembly, an
 *                     unexpected message (with its bounce buffer), or a
 *                     rendezvous pull.
 *   uet_ses_read      one UET_READ the target sent to pull rendezvous data.
 *   uet_ses_reply     the initiator's answer to one UET_READ: the
 *                     Response-with-Data packets, made as the window opens.
 *   uet_ses_notice    the target's deferred SES Response that ends a
 *                     rendezvous (sent as a request, next_hdr RESPONSE).
 *   uet_ses_txs       a sender stream: the sends of one local endpoint to
 *                     one destination endpoint, numbered by message_id in
 *                     send order.
 *   uet_ses_rxs       a target stream: the next message_id expected from
 *                     one source endpoint at one local endpoint (RUD).
 *   uet_ses_mr        a registration of the RI table (uet_ses_mr.c).
 *   uet_ses_rma_rx    at an RMA target: a multi-packet write being
 *                     placed, or the event of an access (uet_ses_rma.c).
 *
 * RMA and atomic operations at the initiator are uet_ses_send_op with
 * rma set: they share the send path (transmit queue, PDS completions,
 * cancellation), not its stream numbering.  Their READs (and the
 * fetching atomic request) are uet_ses_read with op set; the target
 * answers them with uet_ses_reply serving from a registration (zero
 * copy; copied only by its deregistration while PDS holds the packets)
 * or from the prior values it owns.
 *
 * Every object comes from a pool, is on ses->live until released, and is
 * released through uet_ses_release(): it is then only queued, and freed
 * (after its user completion upcall, if any) when the outermost SES entry
 * point returns.  So nothing is freed under a PDS upcall, a push pass or
 * a list walk, and user upcalls may call back into SES.
 *
 * Anything that emits packets embeds a uet_ses_txi and sits on ses->txq
 * while it has packets left to emit; uet_ses_push() runs the queue.
 *
 * Not thread safe: the NIC's lock covers the whole SES.
 */
#ifndef UET_SES_INTERNAL_H
#define UET_SES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_bufpool.h"
#include "uet_hashmap.h"
#include "uet_list.h"
#include "uet_log.h"
#include "uet_ranges.h"
#include "uet_pds.h"
#include "uet_ses.h"
#include "uet_ses_wire.h"

/* Causes of hostile-network drops (rate-limited warnings). */
enum uet_ses_drop {
	UET_SES_DROP_ADDR,
	UET_SES_DROP_MODE,
	UET_SES_DROP_OVERLAP,
	UET_SES_DROP_AHEAD,
	UET_SES_DROP_EXPIRED,
	UET_SES_DROP_RMA_FULL,
	UET_SES_DROP_RMA_EXPIRED,
	UET_SES_DROP_N,
};

/* PDS header in front of every SES header (RUD/ROD request, 12 B). */
#define UET_SES_PDS_HDR_LEN	UET_PDS_RUD_ROD_REQ_LEN
/* Largest UET_READ the target issues for a rendezvous pull
 * (uet_ses_pull_chunk rounds it down to whole replies). */
#define UET_SES_READ_CHUNK	(64u * 1024)
/* Largest UET_READ of an RMA read (uet_ses_rma_read_chunk). */
#define UET_SES_RMA_READ_MAX	(4u << 20)
/* iovecs kept inside an operation; more are copied to the heap. */
#define UET_SES_IOV_INLINE	4
/* Canonical fabric address: family 2, port 2, address 16, scope id 4. */
#define UET_SES_FA_KEY_LEN	UET_LINK_ADDR_KEY_LEN
/* Key of a stream: the peer's fabric address, the sending endpoint's
 * initiator field (4 bytes), the destination {job (3), pid << 12 | ri
 * (3)}. */
#define UET_SES_STREAM_KEY_LEN	(UET_SES_FA_KEY_LEN + 10)
/* Key of a message being reassembled: its stream + message_id. */
#define UET_SES_RXKEY_LEN	(UET_SES_STREAM_KEY_LEN + 2)
/* READ ids: values 1..65535. */
#define UET_SES_MSG_IDS		65535u
/*
 * message_id of a send (docs/software-nic.md, SES, "Send order"): a
 * per-stream sequence.  UET_SES_SEQ_FIRST starts a sequence, which then
 * runs 2, 3, ..., 65535, 2, ... (a cycle of UET_SES_SEQ_SPACE ids).  A
 * sender has at most UET_SES_SEQ_WINDOW ids of a stream in flight, so a
 * target tells ahead from behind by the distance to the id it expects.
 */
#define UET_SES_SEQ_FIRST	1u
#define UET_SES_SEQ_SPACE	65534u
#define UET_SES_SEQ_WINDOW	4096u
/* Sender streams without sends kept for reuse; target streams kept. */
#define UET_SES_TXS_IDLE_MAX	1024u
#define UET_SES_RXS_MAX		16384u
/* Route key: 'K' + job_id 3 + address + tc + mode, or 'P' + PDC pointer. */
#define UET_SES_ROUTE_KEY_LEN	(1 + 3 + UET_SES_FA_KEY_LEN + 2)
/* Idle routes are swept once there are more than this many. */
#define UET_SES_ROUTES_IDLE_MAX	64

enum uet_ses_obj_type {
	UET_SES_OBJ_SEND = 1,
	UET_SES_OBJ_RECV,
	UET_SES_OBJ_RXMSG,
	UET_SES_OBJ_READ,
	UET_SES_OBJ_REPLY,
	UET_SES_OBJ_NOTICE,
	UET_SES_OBJ_RMARX,
};

struct uet_ses_obj {
	struct uet_dlist live;		/* ses->live until freed */
	struct uet_dlist reap;		/* ses->reapq once released */
	uint8_t type;			/* enum uet_ses_obj_type */
	bool dead;			/* released */
	bool cmpl;			/* deliver its completion when freed */
};

enum uet_ses_txi_type {
	UET_SES_TXI_SEND = 1,		/* uet_ses_send_op */
	UET_SES_TXI_PULL,		/* uet_ses_rx_msg: UET_READs */
	UET_SES_TXI_REPLY,		/* uet_ses_reply: Response with Data */
	UET_SES_TXI_NOTICE,		/* uet_ses_notice */
};

struct uet_ses_pkt;

/* Something with packets to emit. */
struct uet_ses_txi {
	struct uet_dlist entry;		/* ses->txq while queued */
	struct uet_ses_pkt *stash;	/* built, refused with -EAGAIN */
	uint8_t type;			/* enum uet_ses_txi_type */
	bool woken;			/* taken off the head of its route's
					 * parked list: it goes first */
};

enum uet_ses_pkt_kind {
	UET_SES_PKT_SEND = 1,		/* owner: uet_ses_send_op */
	UET_SES_PKT_READ,		/* owner: uet_ses_read */
	UET_SES_PKT_REPLY,		/* owner: uet_ses_reply */
	UET_SES_PKT_NOTICE,		/* owner: uet_ses_notice */
};

/*
 * Where packets go: a PDC key (uet_pds_send) or a received PDC
 * (uet_pds_send_reply).  It counts our packets in flight there and
 * remembers that PDS refused one (-EAGAIN), so that nothing more is
 * tried on it until one of those packets is done.
 */
struct uet_ses_route {
	struct uet_hnode node;		/* ses->routes */
	uint8_t key[UET_SES_ROUTE_KEY_LEN];
	unsigned int inflight;
	bool blocked;
	/* uet_ses_txi waiting for one of the packets in flight here to end
	 * (window full or PDS refused): back on ses->txq when one does, so
	 * a push pass does not walk every waiting operation. */
	struct uet_dlist parked;
};

/* One packet handed to PDS; pds.ctx points back here. */
struct uet_ses_pkt {
	struct uet_pds_tx_pkt pds;
	void *owner;
	struct uet_ses_route *route;
	uint8_t *bounce;		/* ses->bounce_pool: copied payload */
	uint8_t kind;			/* enum uet_ses_pkt_kind */
	bool first;			/* SEND: the packet that numbered it */
	uint32_t len;			/* payload bytes */
	/* REPLY from a registration: its payload iovecs point into mr's
	 * memory (zero copy) until it is put, or until mr is deregistered
	 * (the payload is then copied into bounce). */
	struct uet_ses_mr *mr;
	struct uet_dlist mr_entry;	/* mr->pkts while mr is set */
};

/* An entry of this SES's READ id space (message_id of its UET_READs). */
struct uet_ses_msgid {
	struct uet_hnode node;		/* ses->msg_ids */
	uint16_t id;			/* 0: none allocated */
	uint8_t kind;			/* UET_SES_OBJ_READ */
};

/*
 * A sender stream: the sends of one local endpoint (its initiator id) to
 * one destination {fa, job, pid, ri}.  A send is numbered (gets its
 * message_id) when its first packet is built, and only when it is the
 * oldest send of the stream not yet numbered, the send numbered before
 * it has its first packet in PDS, fewer than UET_SES_SEQ_WINDOW ids are
 * in flight, and no gate is closed:
 *   - restart: a numbered send ended without any packet reaching the
 *     target (PDS failed it), so the target may wait for that id for
 *     ever; once every numbered send has ended, the next one starts a
 *     new sequence (UET_SES_SEQ_FIRST);
 *   - gate: the first send of a sequence is in flight and none of its
 *     packets has been acknowledged yet; nothing else is numbered until
 *     the target has seen it (RUD only).
 */
struct uet_ses_txs {
	struct uet_hnode node;		/* ses->tx_streams */
	struct uet_dlist idle;		/* ses->txs_idle while nops == 0 */
	uint8_t key[UET_SES_STREAM_KEY_LEN];
	struct uet_dlist wait;		/* sends not numbered, send order */
	struct uet_dlist out;		/* numbered, not ended, id order */
	unsigned int nops;		/* sends on wait and out */
	uint16_t next_id;		/* id of the next send numbered */
	bool restart;
	struct uet_ses_send_op *gate;
	struct uet_ses_send_op *unsent;	/* numbered, first packet not in PDS */
};

/*
 * A target stream (RUD): the next message_id to match from one source
 * endpoint {fa, initiator} at one local endpoint.
 */
struct uet_ses_rxs {
	struct uet_hnode node;		/* ses->rx_streams */
	struct uet_dlist lru;		/* ses->rxs_lru while held and cmplq
					 * are empty */
	struct uet_dlist hentry;	/* ses->rxs_held while something is */
	struct uet_dlist entry;		/* ep->rx_streams */
	uint8_t key[UET_SES_STREAM_KEY_LEN];
	struct uet_dlist held;		/* uet_ses_rx_msg before their turn,
					 * in send order */
	struct uet_dlist cmplq;		/* uet_ses_recv_op matched to its
					 * messages, completion not yet
					 * delivered, in match order */
	uint64_t since;			/* the stream last moved on */
	uint16_t expect;		/* message_id whose turn it is */
	bool synced;			/* expect is known */
};

struct uet_ses_ep {
	struct uet_ses *ses;
	struct uet_hnode node;		/* ses->eps */
	struct uet_dlist entry;		/* ses->ep_list */
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t ri;
	uint8_t mode;			/* enum uet_pds_mode of its sends */
	struct uet_dlist posted;	/* uet_ses_recv_op, post order */
	struct uet_dlist unexp;		/* uet_ses_rx_msg, arrival order */
	struct uet_dlist active;	/* matched uet_ses_rx_msg in progress */
	struct uet_dlist rx_streams;	/* uet_ses_rxs of this endpoint */
	struct uet_dlist rma_rx;	/* uet_ses_rma_rx being placed */
	void *user;			/* uet_ses_ep_set_user */
};

struct uet_ses_send_op {
	struct uet_ses_obj obj;
	struct uet_ses_txi txi;
	struct uet_dlist entry;		/* ses->sends */
	struct uet_ses_ep *ep;		/* NULL once the endpoint closed */
	struct uet_pds_key key;
	uint8_t dst_fa[UET_SES_FA_KEY_LEN];
	uint32_t job_id;		/* destination */
	uint16_t pid_on_fep;
	uint16_t ri;
	uint32_t initiator;
	struct uet_ses_txs *txs;	/* its stream */
	struct uet_dlist seq_entry;	/* txs->wait, then txs->out */
	uint16_t msg_id;		/* 0 until numbered */
	bool numbered;
	bool acked;			/* a packet reached the target */
	uint8_t opcode;
	bool tagged;
	bool has_data;
	bool dc;
	bool held;			/* done once held: no response wanted */
	bool small;			/* one packet, small-message header */
	bool rdzv;
	uint64_t tag;
	uint64_t header_data;
	struct iovec *iov;
	unsigned int iovcnt;
	struct iovec iov_inline[UET_SES_IOV_INLINE];
	uint64_t len;
	uint64_t next_off;		/* first byte not yet packetised */
	uint64_t eager_len;		/* rendezvous: bytes in packet 1 */
	/* Payload per packet on the path to the target (its path MTU,
	 * uet_ses_path_pay): standard packets, Responses with Data; the
	 * SOM=1 packet of a send or RMA write, which has no payload_length:
	 * the whole message where it fits the path (uet_ses_send_op_init). */
	uint64_t pay_std;
	uint64_t pay_rdata;
	uint64_t pay_first;
	bool built_all;			/* every packet built */
	bool stop;			/* build no more (error, cancel) */
	bool notice;			/* rendezvous: the target finished */
	unsigned int pkts_out;		/* SEND and REPLY packets in PDS */
	struct uet_dlist replies;	/* uet_ses_reply alive */
	struct uet_hnode mkey_node;	/* ses->mkeys while registered */
	uint64_t mkey;
	bool mkey_reg;
	int status;
	uint8_t rc;
	void *op_ctx;
	struct uet_ses_send_cmpl cmpl;
	/* RMA and atomics (uet_ses_rma.c): rma != 0.  iov is the source
	 * (WRITE), destination (READ) or operand (ATOMIC, FETCH). */
	uint8_t rma;			/* enum uet_ses_rma_kind, 0: a send */
	struct uet_ses_msgid mid;	/* WRITE, ATOMIC: their message_id */
	uint64_t rkey;
	uint64_t raddr;
	uint8_t amo_op;
	uint8_t amo_dtype;
	uint8_t compare[16];
	struct iovec *res_iov;		/* FETCH: prior values */
	unsigned int res_iovcnt;
	struct iovec res_inline[UET_SES_IOV_INLINE];
	struct uet_dlist reads;		/* READ, FETCH: uet_ses_read alive */
};

struct uet_ses_recv_op {
	struct uet_ses_obj obj;
	struct uet_dlist entry;		/* ep->posted while unmatched */
	struct uet_dlist centry;	/* crxs->cmplq */
	struct uet_ses_rxs *crxs;	/* completes in this stream's order */
	bool done;			/* complete, waiting for its turn */
	struct uet_ses_ep *ep;
	bool posted;
	bool tagged;
	bool directed;
	uint64_t tag;
	uint64_t ignore;
	uint8_t src_fa[UET_SES_FA_KEY_LEN];
	uint32_t src_initiator;
	struct iovec *iov;
	unsigned int iovcnt;
	struct iovec iov_inline[UET_SES_IOV_INLINE];
	uint64_t len;
	void *op_ctx;
	struct uet_ses_recv_cmpl cmpl;
	/* multi-receive buffer (posted until retired) */
	bool multi;
	bool retired;
	uint64_t min_free;
	uint64_t mr_used;		/* bytes reserved from the start */
	unsigned int mr_inflight;	/* its messages not yet completed */
	/* one message of a multi-receive buffer */
	struct uet_ses_recv_op *parent;
	uint64_t mr_off;
};

struct uet_ses_rx_msg {
	struct uet_ses_obj obj;
	struct uet_ses_txi txi;		/* rendezvous pulls */
	struct uet_hnode node;		/* ses->rx_msgs until complete */
	uint8_t key[UET_SES_RXKEY_LEN];
	bool in_map;
	struct uet_dlist inc_entry;	/* ses->rx_inc while in_map */
	uint64_t last_ns;		/* its latest packet */
	struct uet_ranges cov;		/* message bytes placed (eager) */
	struct uet_dlist entry;		/* ep->unexp, ep->active, rxs->held */
	bool on_unexp;
	bool held;			/* buffered before its turn */
	bool claimed;			/* reserved by a peek (claim_id) */
	bool discard;			/* dropped: take the rest, keep none */
	uint64_t claim_id;
	struct uet_ses_rxs *rxs;	/* its stream while held */
	struct uet_ses_ep *ep;
	struct uet_link_addr src;
	uint16_t msg_id;		/* 0 for the small-message format */
	uint32_t job_id;
	uint32_t initiator;
	uint8_t opcode;
	bool tagged;
	bool hd;
	bool som_seen;
	uint64_t tag;
	uint64_t header_data;
	uint64_t total;			/* request_length */
	uint64_t rcvd;			/* bytes arrived (eager + pulled) */
	uint64_t need;			/* bytes to arrive in all */
	uint8_t *ubuf;			/* unexpected bounce buffer */
	uint64_t ubuf_len;
	struct uet_ses_recv_op *recv;	/* matched receive */
	/* rendezvous */
	bool rdzv;
	uint64_t mkey;
	uint64_t rbuf_off;		/* initiator offset of byte eager_len */
	uint32_t read_from;		/* pid_on_fep << 12 | ri to READ */
	uint64_t eager_len;
	uint64_t pull_pos;		/* next message byte to request */
	uint64_t pull_end;		/* message bytes to pull: [eager, end) */
	struct uet_pds_key peer_key;	/* PDC towards the initiator */
	struct uet_dlist reads;		/* uet_ses_read in flight */
};

struct uet_ses_read {
	struct uet_ses_obj obj;
	struct uet_ses_msgid mid;
	struct uet_dlist entry;		/* msg->reads or op->reads */
	struct uet_ses_rx_msg *msg;	/* pull; NULL once orphaned */
	struct uet_ses_send_op *op;	/* RMA READ / FETCH; NULL once
					 * orphaned */
	uint8_t peer_fa[UET_SES_FA_KEY_LEN];
	uint32_t job_id;
	uint64_t pos;			/* message (op->iov) offset of the
					 * first byte */
	uint64_t len;
	/* Bytes of [0, len) placed, each once (issue 30, finding 1). */
	struct uet_ranges got;
	/* The PDC (uet_pds_pkt_pdc) the READ went out on: its data is taken
	 * from that PDC only; NULL until sent.  While PDS holds the READ
	 * packet (pkt), the PDC is asked again: a restart renames it and
	 * sends the READ once more under the new name. */
	void *pdc;
	struct uet_ses_pkt *pkt;
	bool pkt_done;			/* PDS finished the READ packet */
};

/*
 * The answer to one UET_READ (or fetching atomic) this SES received: the
 * data comes from the rendezvous send (send, zero copy), from a
 * registration of the RI table (mr: zero copy as well, each packet on
 * mr->pkts until PDS is done with it; uet_ses_mr_dereg copies the
 * payload of those still in flight into NIC buffers, so nothing refers
 * to the memory once it is deregistered), or from a buffer the reply
 * owns (own: the prior values of an atomic).
 */
struct uet_ses_reply {
	struct uet_ses_obj obj;
	struct uet_ses_txi txi;
	struct uet_dlist entry;		/* send->replies */
	struct uet_ses_send_op *send;
	struct uet_ses_mr *mr;
	struct uet_dlist mr_entry;	/* mr->replies */
	const uint8_t *src;		/* mr: the host address of byte 0 */
	uint64_t moff;			/* mr: byte 0's offset in the region */
	uint8_t *own;
	void *rx_pdc;
	uint16_t read_msg_id;
	uint32_t job_id;
	uint64_t off;			/* offset in the send buffer */
	uint64_t len;
	uint64_t next;			/* bytes built */
	uint64_t pay;			/* payload per packet to the reader */
	unsigned int pkts_out;
	bool stop;
	/* Stopped early: one Response with Data carrying this code (and
	 * no data) tells the target its READ will not be served. */
	uint8_t err_rc;
	bool err_built;
};

/* A registration of the RI table. */
struct uet_ses_mr {
	struct uet_hnode node;		/* ses->mr_user (user keys) */
	uint64_t key;
	uint8_t *addr;			/* byte 0 (segs[0]'s first byte) */
	uint64_t len;			/* all segments */
	/* The segments, in order (one for a plain registration); segs[i]
	 * holds bytes [seg_off[i], seg_off[i] + iov_len) of the region. */
	struct iovec segs[UET_SES_MR_SEGS_MAX];
	uint64_t seg_off[UET_SES_MR_SEGS_MAX];
	size_t nsegs;
	uint32_t access;		/* UET_SES_ACC_* */
	bool virt_addr;
	bool user;
	/* Device memory: every copy through ses->mem_ops, reads answered
	 * from a host copy (rp->own), atomics applied to a host copy. */
	bool devmem;
	const struct uet_ses_mem_ops *mops;	/* &ses->mem_ops (devmem) */
	uint8_t gen;			/* ri_generation expected */
	struct uet_dlist replies;	/* uet_ses_reply served from it */
	struct uet_dlist pkts;		/* uet_ses_pkt whose payload is in
					 * its memory (reply packets built,
					 * not yet done) */
	unsigned int npkts;
};

/* A slot of the provider-key array. */
struct uet_ses_mr_slot {
	struct uet_ses_mr *mr;		/* NULL while free */
	uint64_t next_free;		/* free list, oldest first */
	uint32_t gen;			/* 31-bit tag of its keys */
};

/*
 * At an RMA target: a write of several packets being placed (in the
 * map under {stream, message_id} until all its bytes landed), or just
 * the event of an access.  Released with cmpl set, it delivers ev
 * through the rma_event upcall.
 */
struct uet_ses_rma_rx {
	struct uet_ses_obj obj;
	struct uet_hnode node;		/* ses->rma_rx while in_map */
	struct uet_dlist entry;		/* ep->rma_rx while in_map */
	uint8_t key[UET_SES_RXKEY_LEN];
	bool in_map;
	bool som_seen;
	uint64_t total;
	uint64_t rcvd;
	struct uet_ranges cov;		/* message bytes placed */
	struct uet_dlist inc_entry;	/* ses->rma_inc while in_map */
	uint64_t last_ns;
	struct uet_ses_rma_event ev;
};

struct uet_ses_notice {
	struct uet_ses_obj obj;
	struct uet_ses_txi txi;
	struct uet_pds_key key;
	struct uet_ses_rsp rsp;
	uint64_t mkey;			/* of the rendezvous send */
	bool built;
};

struct uet_ses {
	struct uet_ses_cfg cfg;
	struct uet_ses_mem_ops mem_ops;	/* devmem registrations' copies */
	struct uet_pds *pds;
	struct uet_pds_upcalls pds_up;
	struct uet_ses_upcalls up;
	void *up_ctx;
	uint64_t now;			/* latest time given to SES */

	struct uet_hashmap eps;		/* uet_ses_ep by {job, pid, ri} */
	struct uet_dlist ep_list;
	struct uet_hashmap msg_ids;	/* uet_ses_msgid (READs) by id */
	struct uet_hashmap rx_msgs;	/* uet_ses_rx_msg by {stream, id} */
	struct uet_hashmap tx_streams;	/* uet_ses_txs by stream key */
	struct uet_hashmap_memo txs_memo;
	struct uet_dlist txs_idle;	/* uet_ses_txs without sends */
	size_t txs_idle_n;
	struct uet_hashmap rx_streams;	/* uet_ses_rxs by stream key */
	struct uet_hashmap_memo rxs_memo;
	struct uet_dlist rxs_lru;
	struct uet_dlist rxs_held;
	uint64_t held_bytes;		/* bounce buffers of held messages */
	uint64_t held_msgs;
	struct uet_hashmap mkeys;	/* uet_ses_send_op by memory key */
	struct uet_hashmap routes;	/* uet_ses_route by route key */
	struct uet_hashmap_memo route_memo;
	struct uet_hashmap rma_rx;	/* uet_ses_rma_rx by {stream, id} */
	/* RI table */
	struct uet_ses_mr_slot *mr_slots;
	uint64_t mr_nslots;		/* slots in use or free */
	uint64_t mr_cap;
	uint64_t mr_free_head;		/* UET_SES_MR_NONE: none free */
	uint64_t mr_free_tail;
	struct uet_hashmap mr_user;	/* uet_ses_mr by user key */
	uint64_t mr_rng;		/* provider key tags */
	unsigned int rma_ops;		/* RMA operations not completed */

	struct uet_dlist txq;		/* uet_ses_txi with packets to emit */
	struct uet_dlist sends;		/* uet_ses_send_op not completed */
	struct uet_dlist live;		/* every object not yet freed */
	struct uet_dlist reapq;		/* released, to free at exit */

	struct uet_bufpool pkt_pool;
	struct uet_bufpool send_pool;
	struct uet_bufpool recv_pool;
	struct uet_bufpool rxmsg_pool;
	struct uet_bufpool read_pool;
	struct uet_bufpool reply_pool;
	struct uet_bufpool notice_pool;
	struct uet_bufpool route_pool;
	struct uet_bufpool txs_pool;
	struct uet_bufpool rxs_pool;
	struct uet_bufpool rmarx_pool;
	struct uet_bufpool bounce_pool;	/* pay_rdata bytes each */
	/* UET_SES_SMALL_LEN_MAX bytes each: the payload of a packet larger
	 * than pay_rdata (a wider path, uet_ses_path_pay) */
	struct uet_bufpool bounce_big_pool;

	size_t pkts_in_pds;		/* packets PDS owns */
	unsigned int depth;		/* nesting of SES entry points */
	bool pushing;
	bool push_again;
	bool closing;			/* uet_ses_destroy running */
	bool zombie;			/* destroyed, waiting for PDS */

	uint64_t unexp_msgs;
	/* payload bytes per packet by header (of the wire profile) */
	uint64_t pay_small;		/* small message */
	uint64_t pay_std;		/* standard SOM=1 / SOM=0 (44 B) */
	uint64_t pay_rdzv;		/* SOM=1 + rendezvous extension */
	uint64_t pay_rdata;		/* Response with Data */
	size_t notice_len;		/* Response + memory key */

	struct uet_ses_stats stats;
	struct uet_log_rl drop_rl[UET_SES_DROP_N];
	/* Incomplete multi-packet messages (in rx_msgs) and writes (in
	 * rma_rx), least recently active first (cfg.msg_timeout_ns). */
	struct uet_dlist rx_inc;
	struct uet_dlist rma_inc;
	uint32_t rma_inc_n;
};

/* ---- uet_ses.c: lifetime, ids, helpers ---- */

void uet_ses_enter(struct uet_ses *ses);
void uet_ses_leave(struct uet_ses *ses);
void uet_ses_set_now(struct uet_ses *ses, uint64_t now);
void *uet_ses_obj_alloc(struct uet_ses *ses, uint8_t type);
/* Free obj when the outermost entry point returns, after its user
 * completion when cmpl is set.  The caller has unlinked it from every
 * list and map of the protocol state. */
void uet_ses_release(struct uet_ses *ses, struct uet_ses_obj *obj,
		     bool cmpl);
void uet_ses_zombie_pkt_done(struct uet_ses *ses, struct uet_ses_pkt *pkt);

int uet_ses_msgid_alloc(struct uet_ses *ses, struct uet_ses_msgid *mid,
			uint8_t kind);
void uet_ses_msgid_free(struct uet_ses *ses, struct uet_ses_msgid *mid);
struct uet_ses_msgid *uet_ses_msgid_find(struct uet_ses *ses, uint16_t id,
					 uint8_t kind);

/* The key of the stream between the endpoint `initiator` behind (or at)
 * fa and the endpoint {job_id, pid_on_fep, ri}. */
void uet_ses_stream_key(uint8_t key[UET_SES_STREAM_KEY_LEN],
			const struct uet_link_addr *fa, uint32_t initiator,
			uint32_t job_id, uint16_t pid_on_fep, uint16_t ri);
/* The id after id in a sequence (1, 2, ..., 65535, 2, ...). */
static inline uint16_t uet_ses_seq_next(uint16_t id)
{
	return id == UINT16_MAX ? 2 : (uint16_t)(id + 1);
}

/* How far id b is ahead of id a in the cycle 2..65535 (0..65533). */
static inline uint32_t uet_ses_seq_dist(uint16_t a, uint16_t b)
{
	return ((uint32_t)b + UET_SES_SEQ_SPACE - a) % UET_SES_SEQ_SPACE;
}

void uet_ses_rxs_free_ep(struct uet_ses *ses, struct uet_ses_ep *ep);
struct uet_ses_ep *uet_ses_ep_find(struct uet_ses *ses, uint32_t job_id,
				   uint16_t pid_on_fep, uint16_t ri,
				   uint8_t *rc);

int uet_ses_iov_dup(const struct iovec *src, unsigned int cnt,
		    struct iovec *inl, struct iovec **out, uint64_t *len);
void uet_ses_iov_free(struct iovec *iov, struct iovec *inl);
/* Copy into iov at byte offset off; returns the bytes copied (clipped). */
uint64_t uet_ses_iov_copy_in(const struct iovec *iov, unsigned int cnt,
			     uint64_t off, const void *src, uint64_t len);
/* Up to max bytes of iov from off, in at most outmax segments. */
uint64_t uet_ses_iov_gather(const struct iovec *iov, unsigned int cnt,
			    uint64_t off, uint64_t max, struct iovec *out,
			    unsigned int outmax, unsigned int *outcnt);

int uet_ses_rc_errno(uint8_t rc);

/* A return code that reports a failure (not RC_NULL or RC_OK). */
static inline bool uet_ses_rc_is_error(int rc)
{
	return rc != UET_RC_OK && rc != UET_RC_NULL;
}

/* ---- uet_ses_tx.c: packets out ---- */

void uet_ses_txi_queue(struct uet_ses *ses, struct uet_ses_txi *txi);
void uet_ses_txi_cancel(struct uet_ses *ses, struct uet_ses_txi *txi);
void uet_ses_push(struct uet_ses *ses);
void uet_ses_routes_sweep(struct uet_ses *ses);
struct uet_ses_pkt *uet_ses_pkt_get(struct uet_ses *ses, uint8_t kind,
				    void *owner);
void uet_ses_pkt_put(struct uet_ses *ses, struct uet_ses_pkt *pkt);
void uet_ses_pds_tx_room(void *ctx);
/* The addressing of a send/RMA/atomic op from ep to dst: PDS key (with
 * the SES traffic class and ep's delivery mode), target fields and the
 * initiator ID. */
void uet_ses_send_op_address(const struct uet_ses *ses,
			     struct uet_ses_send_op *op,
			     struct uet_ses_ep *ep,
			     const struct uet_ses_addr *dst);
/* The transmit entry and lists of a new send/RMA/atomic op. */
void uet_ses_send_op_init(struct uet_ses *ses, struct uet_ses_send_op *op);
/* Payload of a packet with hdr bytes of SES header (and every extension)
 * on a path carrying datagrams of mtu bytes, within the 14-bit length. */
uint64_t uet_ses_path_pay(size_t mtu, size_t hdr);
/* ... and of a single SOM=1 packet (no payload_length: the path alone
 * bounds it). */
uint64_t uet_ses_path_one(size_t mtu, size_t hdr);
/* A Response with Data's payload on a path of mtu: ses->pay_rdata unless
 * the path is wider than the link. */
uint64_t uet_ses_rdata_pay(const struct uet_ses *ses, size_t mtu);
/* The bounce pool for a packet payload of len bytes. */
static inline struct uet_bufpool *uet_ses_bounce_pool(struct uet_ses *ses,
						      uint64_t len)
{
	return len > ses->pay_rdata ? &ses->bounce_big_pool :
				      &ses->bounce_pool;
}
/* op is accepted: on ses->sends and the transmit queue, and pushed. */
void uet_ses_send_op_start(struct uet_ses *ses, struct uet_ses_send_op *op);
void uet_ses_pds_tx_done(void *ctx, struct uet_pds_tx_pkt *pdspkt,
			 int status, uint8_t rsp_next_hdr, const uint8_t *rsp,
			 size_t rsp_len);
/* SES return code of an ACK's SES response; UET_RC_OK when absent or
 * default, -errno when it does not parse. */
int uet_ses_rsp_rc(enum uet_wire_prof wp, uint8_t next_hdr, const uint8_t *rsp,
		   size_t len);
/* Fail op with status (and the target's rc).  tell: the code to send
 * the target for READs not yet served (UET_RC_NULL: nothing to send, the
 * target knows or cannot be reached). */
void uet_ses_send_error(struct uet_ses *ses, struct uet_ses_send_op *op,
			int status, uint8_t rc, uint8_t tell);
void uet_ses_send_check(struct uet_ses *ses, struct uet_ses_send_op *op);
void uet_ses_send_cancel_all(struct uet_ses *ses, struct uet_ses_ep *ep);

/* ---- uet_ses_rx.c: packets in ---- */

bool uet_ses_pds_check(void *ctx, const struct uet_pds_rx_info *info);
int uet_ses_pds_rx(void *ctx, const struct uet_pds_rx_info *info,
		   struct uet_pds_rsp *rsp);
void uet_ses_rsp_fill(const struct uet_ses *ses, struct uet_pds_rsp *rsp,
		      uint8_t list, uint8_t rc,
		      uint16_t msg_id, uint32_t job_id, uint64_t mlen);
/* Refuse a request with rc (counted: bad_job / bad_pid / bad_index,
 * err_rsp_tx): the response goes back on its ACK.  The addressing codes
 * and UET_SES_RC_MODE go out as one uniform code, rsp->refused set. */
void uet_ses_rx_refuse(struct uet_ses *ses, struct uet_pds_rsp *rsp,
		       uint8_t rc, uint16_t rsp_id, uint32_t job_id);
/* Internal code (never on the wire): wrong delivery mode. */
#define UET_SES_RC_MODE		0xffu
struct uet_ses_ep *uet_ses_rx_ep(struct uet_ses *ses,
				 const struct uet_pds_rx_info *info,
				 uint32_t job_id, uint16_t pid_on_fep,
				 uint16_t ri, bool rma, uint8_t *rc);
/* The endpoint an RMA-side standard SOM=1 request h is for, or NULL
 * once it was refused in rsp (uet_ses_rx_ep, uet_ses_rx_refuse). */
struct uet_ses_ep *uet_ses_rx_som1_rma_ep(struct uet_ses *ses,
					  const struct uet_pds_rx_info *info,
					  const struct uet_ses_std_som1 *h,
					  struct uet_pds_rsp *rsp);

/* Count nothing; warn (FI_LOG_LEVEL=warn) at most once a second per
 * cause, with the number of drops since the last warning. */
void uet_ses_drop_warn(struct uet_ses *ses, enum uet_ses_drop cause);
/* Expire incomplete messages and writes (cfg.msg_timeout_ns). */
void uet_ses_expire(struct uet_ses *ses);
void uet_ses_rma_rx_expire(struct uet_ses *ses);
void uet_ses_rx_msg_unmap(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
/* Off its stream's held list (failed or taken). */
void uet_ses_held_unlink(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
/* Take the held messages whose turn has come (a receive was posted,
 * unexpected room freed up). */
void uet_ses_ord_release_all(struct uet_ses *ses);
/* Skip the gaps that nothing filled for cfg.order_timeout_ns. */
void uet_ses_ord_timer(struct uet_ses *ses);
/* r was matched to a message of the stream of key (RUD): it completes
 * after the receives matched to that stream before it. */
void uet_ses_recv_matched(struct uet_ses *ses, struct uet_ses_recv_op *r,
			  const uint8_t *key);
/* r is complete: true if its completion waits for its turn (it is
 * released then), false if the caller releases it now. */
bool uet_ses_recv_ordered_done(struct uet_ses *ses, struct uet_ses_recv_op *r);

/* ---- uet_ses_match.c: receives ---- */

/* The first posted receive of ep that takes a message of total bytes
 * (multi-receive buffers it does not fit are retired on the way), or
 * NULL; it stays posted until uet_ses_recv_take. */
struct uet_ses_recv_op *uet_ses_match_posted(struct uet_ses *ses,
					     struct uet_ses_ep *ep,
					     bool tagged, uint64_t tag,
					     uint32_t initiator,
					     const uint8_t *src_fa,
					     uint64_t total);
/* The receive that takes the message r matched: r itself, off the
 * posted list, or for a multi-receive buffer a new receive for its next
 * free bytes; NULL when out of memory (r stays posted). */
struct uet_ses_recv_op *uet_ses_recv_take(struct uet_ses *ses,
					  struct uet_ses_recv_op *r,
					  uint64_t total);
/* Retire a multi-receive buffer (status: 0, or -ECANCELED). */
void uet_ses_mr_retire(struct uet_ses *ses, struct uet_ses_recv_op *r,
		       int status);
/* A message of a multi-receive buffer is finished (being freed). */
void uet_ses_mr_child_done(struct uet_ses *ses, struct uet_ses_recv_op *r);
void uet_ses_rx_bind(struct uet_ses *ses, struct uet_ses_rx_msg *msg,
		     struct uet_ses_recv_op *recv);
void uet_ses_rx_check(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
void uet_ses_rx_fail(struct uet_ses *ses, struct uet_ses_rx_msg *msg,
		     int status, uint8_t rc);
void uet_ses_rx_drop_unexp(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
void uet_ses_recv_complete(struct uet_ses *ses, struct uet_ses_recv_op *r,
			   int status);
/* Complete r with the data of message m (already placed). */
void uet_ses_recv_deliver(struct uet_ses *ses, struct uet_ses_recv_op *r,
			  const struct uet_ses_rx_msg *m);
void uet_ses_unexp_account(struct uet_ses *ses, int64_t bytes, int msgs);

/* ---- uet_ses_mr.c: the RI table ---- */

/* No slot (free list end). */
#define UET_SES_MR_NONE		UINT64_MAX
/* Provider-key slots at most (32-bit slot field). */
#define UET_SES_MR_SLOTS_MAX	(1ull << 32)

int uet_ses_mr_init(struct uet_ses *ses);
void uet_ses_mr_fini(struct uet_ses *ses);
/*
 * Checks 1-4 of a remote access (docs/software-nic.md, SES, "RI table"):
 * key, ri_generation, access (UET_SES_ACC_* all needed), range
 * [addr, addr + len) with addr the wire buffer_offset.  UET_RC_OK and
 * *mr, *moff (offset of the first byte in the region), *ptr (its host
 * address, NULL for an empty region), or the return code (counted in
 * the stats, logged at debug level).  The range may cross segments of
 * a registration of several: ptr is then valid only up to the end of
 * its segment (uet_ses_mr_contig); copy with uet_ses_mr_put/_get.
 */
uint8_t uet_ses_mr_access(struct uet_ses *ses, uint64_t key, uint8_t ri_gen,
			  uint32_t need, uint64_t addr, uint64_t len,
			  struct uet_ses_mr **mr, uint64_t *moff,
			  uint8_t **ptr);
/* Whether bytes [moff, moff + len) of mr lie in one segment. */
bool uet_ses_mr_contig(const struct uet_ses_mr *mr, uint64_t moff,
		       uint64_t len);
/* Copy len bytes into / out of the region at offset moff, across
 * segments (the range was checked by uet_ses_mr_access); a devmem
 * region through its mem ops.  0, or -EIO when those failed. */
int uet_ses_mr_put(const struct uet_ses_mr *mr, uint64_t moff,
		   const void *src, uint64_t len);
int uet_ses_mr_get(const struct uet_ses_mr *mr, uint64_t moff, void *dst,
		   uint64_t len);
/* Up to max bytes of the region from moff as at most outmax iovecs (one
 * per segment crossed): the bytes they describe (fewer than max when
 * the segments need more iovecs or the region ends). */
uint64_t uet_ses_mr_gather(const struct uet_ses_mr *mr, uint64_t moff,
			   uint64_t max, struct iovec *out,
			   unsigned int outmax, unsigned int *outcnt);
/* pkt's payload points into mr's memory (until uet_ses_mr_pkt_del). */
void uet_ses_mr_pkt_add(struct uet_ses_mr *mr, struct uet_ses_pkt *pkt);
/* pkt no longer refers to its registration's memory (it is put). */
void uet_ses_mr_pkt_del(struct uet_ses_pkt *pkt);

/* ---- uet_ses_rma.c: RMA and atomics ---- */

/* RMA operations outstanding per SES at most (uet_ses_rma -EAGAIN). */
#define UET_SES_RMA_MAX		16384u

int uet_ses_rma_build(struct uet_ses *ses, struct uet_ses_send_op *op,
		      struct uet_ses_pkt **out);
/* Bytes per UET_READ of an RMA read (the last one may have fewer). */
uint64_t uet_ses_rma_read_chunk(uint64_t pay_rdata, uint64_t op_len);
/* Bytes per UET_READ of a rendezvous pull whose replies carry pay_rdata
 * bytes each (the last one of the message may have fewer). */
uint64_t uet_ses_pull_chunk(uint64_t pay_rdata);
/* op stopped: its READs are orphaned (answers to them are ignored). */
void uet_ses_rma_stop(struct uet_ses *ses, struct uet_ses_send_op *op);
/* op is finishing: its message_id goes. */
void uet_ses_rma_finish(struct uet_ses *ses, struct uet_ses_send_op *op);
bool uet_ses_opcode_is_rma(uint8_t opcode);
int uet_ses_rx_rma_som1(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h, size_t hlen,
			struct uet_pds_rsp *rsp);
int uet_ses_rx_rma_som0(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som0 *h, size_t hlen,
			struct uet_pds_rsp *rsp);
/* A UET_READ whose key is not a rendezvous key, for endpoint ep. */
int uet_ses_rx_rma_read(struct uet_ses *ses,
			const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h,
			struct uet_ses_ep *ep, struct uet_pds_rsp *rsp);
/* Drop the writes being placed at ep (it closes). */
void uet_ses_rma_rx_free_ep(struct uet_ses *ses, struct uet_ses_ep *ep);

/* ---- uet_ses_rdzv.c: rendezvous ---- */

int uet_ses_mkey_register(struct uet_ses *ses, struct uet_ses_send_op *op);
void uet_ses_mkey_unregister(struct uet_ses *ses, struct uet_ses_send_op *op);
void uet_ses_pull_start(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
int uet_ses_pull_build(struct uet_ses *ses, struct uet_ses_rx_msg *msg,
		       struct uet_ses_pkt **out);
bool uet_ses_pull_more(const struct uet_ses_rx_msg *msg);
void uet_ses_pull_orphan(struct uet_ses *ses, struct uet_ses_rx_msg *msg);
int uet_ses_reply_build(struct uet_ses *ses, struct uet_ses_reply *rp,
			struct uet_ses_pkt **out);
bool uet_ses_reply_more(const struct uet_ses_reply *rp);
void uet_ses_reply_stop(struct uet_ses *ses, struct uet_ses_reply *rp,
			uint8_t tell);
void uet_ses_reply_check(struct uet_ses *ses, struct uet_ses_reply *rp);
/* A new reply to the READ h (on info->pdc), on the transmit queue once
 * the caller has set its source; NULL when out of memory. */
struct uet_ses_reply *uet_ses_reply_new(struct uet_ses *ses,
					const struct uet_pds_rx_info *info,
					uint16_t read_msg_id, uint32_t job_id,
					uint64_t len);
/* The notice: a Response (message_id of the send) + its memory key
 * (ses->notice_len bytes in all). */
#define UET_SES_NOTICE_KEY_LEN	8
#define UET_SES_NOTICE_LEN_MAX	(UET_SES_RSP_LEN_MAX + UET_SES_NOTICE_KEY_LEN)
void uet_ses_notice_send(struct uet_ses *ses, const struct uet_ses_rx_msg *m,
			 uint8_t rc, uint32_t mlen);
int uet_ses_notice_build(struct uet_ses *ses, struct uet_ses_notice *n,
			 struct uet_ses_pkt **out);
void uet_ses_read_tx_done(struct uet_ses *ses, struct uet_ses_pkt *pkt,
			  int status, int rc);
void uet_ses_reply_tx_done(struct uet_ses *ses, struct uet_ses_pkt *pkt,
			   int status);
void uet_ses_read_check(struct uet_ses *ses, struct uet_ses_read *rd);
int uet_ses_rx_read_req(struct uet_ses *ses, const struct uet_pds_rx_info *info,
			const struct uet_ses_std_som1 *h,
			struct uet_pds_rsp *rsp);
int uet_ses_rx_read_data(struct uet_ses *ses,
			 const struct uet_pds_rx_info *info,
			 struct uet_pds_rsp *rsp);
int uet_ses_rx_notice(struct uet_ses *ses, const struct uet_pds_rx_info *info);

#endif /* UET_SES_INTERNAL_H */
