/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES: the Semantic Sublayer of the software NIC.
 *
 * One uet_ses per NIC instance, on top of its uet_pds.  Initiator side:
 * segments sends and tagged sends into SES packets (standard SOM=1 + 44-byte
 * SOM=0 continuations, or the small-message format for single-packet
 * messages), uses the rendezvous extension above the rendezvous threshold
 * (eager part + memory key/offset; the target pulls the rest with UET_READ
 * requests answered by Response-with-Data), and completes operations from
 * PDS acknowledgements and SES responses.  Target side: addresses requests
 * by {JobID, PIDonFEP, resource index}, matches them against posted receives
 * (match_bits with ignore bits; any source or a directed source) or buffers
 * them on the unexpected list up to a bound (beyond it the initiator is told
 * to retry; nothing is lost, memory stays bounded), reassembles multi-packet
 * messages placed by message_offset in any arrival order, and answers with
 * the spec's return codes.
 *
 * RMA and atomics: uet_ses_rma() writes, reads and applies atomics to the
 * memory a peer registered in its RI table (uet_ses_mr_reg); the target
 * checks key, generation, access, range and the atomic before touching
 * anything, answers refusals with their return code, and reports each
 * access through the rma_event upcall (docs/software-nic.md, SES, "RI
 * table" and "RMA and atomics").
 *
 * Send order: the messages of one sending endpoint to one target endpoint
 * are matched (or put on the unexpected list) in the order they were
 * sent, under ROD (PDS delivers in order) and RUD (the message_id of a
 * send is its place in that pair's sequence, and the target refuses, to
 * be retried, a message that arrives before its predecessors).  RUDI and
 * UUD give no order.
 *
 * Like PDS, SES takes the current time as an argument and does no I/O of
 * its own.
 */
#ifndef UET_SES_H
#define UET_SES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_link.h"
#include "uet_pds.h"

/* A remote SES endpoint. */
struct uet_ses_addr {
	struct uet_link_addr fa;	/* fabric address (IP + UDP port) */
	uint32_t job_id;		/* 24 bits */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t ri;			/* resource index, 12 bits */
};

struct uet_ses_cfg {
	uint8_t wire;			/* enum uet_wire_prof, as the PDS's */
	uint64_t rdzv_threshold;	/* messages above use rendezvous */
	uint64_t unexp_max_bytes;	/* buffered unexpected data bound */
	uint32_t unexp_max_msgs;	/* unexpected message count bound */
	uint8_t tc;
	uint8_t mode;			/* enum uet_pds_mode for messages */
	size_t mtu;			/* largest datagram the link carries */
	/* RUD: a gap in a source's send order that nothing fills for this
	 * long is skipped (the messages held behind it are matched); must
	 * exceed the time PDS takes to give up on a packet; 0 never. */
	uint64_t order_timeout_ns;
	/* An incomplete multi-packet message or write that receives no
	 * packet for this long is dropped (a receive bound to it completes
	 * with -ETIMEDOUT); 0 never. */
	uint64_t msg_timeout_ns;
	/* Most multi-packet writes being placed at once (records). */
	uint32_t rma_rx_max;
	/* Seed of the provider-key tags; 0: getrandom() (tests and fuzzers
	 * fix it to get the same keys every run). */
	uint64_t key_seed;
};

void uet_ses_cfg_default(struct uet_ses_cfg *cfg);

/* Completion of a send. */
struct uet_ses_send_cmpl {
	void *op_ctx;
	int status;			/* 0 or negative errno */
	uint8_t rc;			/* SES return code from the target */
	uint64_t len;			/* bytes sent */
};

/* Receive status of a message longer than the buffers (olen > 0). */
#define UET_SES_ETRUNC		(-EOVERFLOW)

/* Completion of a receive. */
struct uet_ses_recv_cmpl {
	void *op_ctx;
	int status;			/* 0, UET_SES_ETRUNC (see olen),
					 * -ECANCELED */
	uint64_t len;			/* bytes placed */
	uint64_t olen;			/* bytes that did not fit (truncation) */
	uint64_t tag;
	bool has_data;
	uint64_t header_data;
	struct uet_ses_addr src;	/* sender's fabric address and ids */
	uint32_t initiator;		/* SES initiator field */
	uint8_t rc;			/* SES return code behind a failed
					 * rendezvous pull, else UET_RC_OK */
	/* Multi-receive (uet_ses_recv_req.multi): every completion of the
	 * buffer has multi set; a message's completion has mr_valid and
	 * its offset in the buffer; the last completion of the buffer has
	 * mr_released (a completion of 0 bytes when no message was in
	 * flight when the buffer was retired). */
	bool multi;
	bool mr_valid;
	bool mr_released;
	uint64_t mr_offset;
};

/*
 * The SES initiator field of the requests this NIC sends: the sending
 * endpoint's {PIDonFEP, resource index}.  The target decodes it into
 * uet_ses_recv_cmpl.src.pid_on_fep / .ri, and a directed receive matches
 * {src.fa, uet_ses_initiator_id(src.pid_on_fep, src.ri)}.
 */
#define UET_SES_INITIATOR_PID_SHIFT	12
static inline uint32_t uet_ses_initiator_id(uint16_t pid_on_fep, uint16_t ri)
{
	return ((uint32_t)(pid_on_fep & 0xfffu) << UET_SES_INITIATOR_PID_SHIFT) |
	       (ri & 0xfffu);
}

/*
 * A remote memory access that succeeded at this target (RMA or atomic),
 * reported through uet_ses_upcalls.rma_event once per operation, once the
 * data is in place (a write: when all its bytes have landed; an atomic:
 * once applied; a read: when its last UET_READ was accepted, before the
 * data is sent back; addr/len are then those of that last request, a
 * read being one request per 64 KiB).
 */
struct uet_ses_rma_event {
	void *ep_user;			/* uet_ses_ep_set_user() value */
	uint8_t kind;			/* enum uet_ses_rma_kind */
	uint64_t key;			/* memory key */
	uint64_t addr;			/* host address of byte 0 */
	uint64_t len;			/* bytes accessed */
	bool has_data;
	uint64_t header_data;
	struct uet_ses_addr src;	/* initiator fa + job + pid/ri */
	uint32_t initiator;		/* SES initiator field */
};

struct uet_ses_upcalls {
	void (*send_done)(void *ctx, const struct uet_ses_send_cmpl *c);
	void (*recv_done)(void *ctx, const struct uet_ses_recv_cmpl *c);
	/* May be NULL.  Delivered like the completions (when the outermost
	 * SES entry point returns). */
	void (*rma_event)(void *ctx, const struct uet_ses_rma_event *e);
};

struct uet_ses;
struct uet_ses_ep;

int uet_ses_create(struct uet_ses **ses, const struct uet_ses_cfg *cfg,
		   struct uet_pds *pds, const struct uet_ses_upcalls *up,
		   void *up_ctx);
void uet_ses_destroy(struct uet_ses *ses);

/* uet_ses_create installs SES's receive/completion upcalls on pds with
 * uet_pds_set_upcalls(); SES and PDS are destroyed in reverse order. */

/* A local receive context: {JobID, PIDonFEP, resource index}. */
int uet_ses_ep_open(struct uet_ses *ses, uint32_t job_id, uint16_t pid_on_fep,
		    uint16_t ri, struct uet_ses_ep **ep);
/* Cancels everything pending on ep (completions with -ECANCELED). */
void uet_ses_ep_close(struct uet_ses_ep *ep);
/* An opaque value reported as uet_ses_rma_event.ep_user for accesses
 * addressed to ep. */
void uet_ses_ep_set_user(struct uet_ses_ep *ep, void *user);
/* Delivery mode of ep's sends (enum uet_pds_mode); the default is the
 * SES's cfg.mode.  UUD sends must fit one packet (uet_ses_max_single),
 * else they fail with -EMSGSIZE.  0 or -EINVAL. */
int uet_ses_ep_set_mode(struct uet_ses_ep *ep, uint8_t mode);
/* Largest message that travels in one packet (small-message format),
 * whatever the delivery mode. */
size_t uet_ses_max_single(const struct uet_ses *ses);

struct uet_ses_send_req {
	struct uet_ses_ep *ep;		/* local initiator */
	struct uet_ses_addr dst;
	bool tagged;
	uint64_t tag;
	bool has_data;
	uint64_t header_data;
	bool dc;			/* delivery complete */
	/* iov is the NIC's own copy: the caller may report the send done
	 * once it is held for retransmission (uet_ses_send returns
	 * UET_SES_SEND_HELD when it is). */
	bool held_ok;
	const struct iovec *iov;	/* caller memory, valid until done */
	unsigned int iovcnt;
	void *op_ctx;
};

/* uet_ses_send: accepted, and the send needs no answer from the target
 * to count as done (docs/software-nic.md, "Held sends"); its send_done
 * upcall still comes, with an error only if PDS gave up on the peer. */
#define UET_SES_SEND_HELD	1

struct uet_ses_recv_req {
	struct uet_ses_ep *ep;
	bool tagged;
	uint64_t tag;
	uint64_t ignore;		/* bits of tag that are ignored */
	bool directed;			/* match only src */
	struct uet_ses_addr src;
	const struct iovec *iov;
	unsigned int iovcnt;
	void *op_ctx;
	/*
	 * Multi-receive: iov (exactly one entry) stays posted and takes
	 * successive matching messages, each at the next free offset
	 * (reserved when the message matches).  When less than min_free
	 * bytes (or nothing) are left, the buffer is retired.  A message
	 * larger than the space left retires a buffer already used and goes
	 * to the next receive; in an unused buffer it is truncated.  Every
	 * message completes on its own (op_ctx, multi, mr_valid, mr_offset);
	 * the last completion of the buffer carries mr_released.
	 */
	bool multi;
	uint64_t min_free;
	/* Claim: receive the message reserved by uet_ses_peek with this
	 * claim_id (tag, ignore, directed are not used); -ENOMSG if none. */
	bool claim;
	uint64_t claim_id;
};

/* Look at the unexpected messages of an endpoint without taking one. */
struct uet_ses_peek_req {
	struct uet_ses_ep *ep;
	bool tagged;
	uint64_t tag;
	uint64_t ignore;
	bool directed;
	struct uet_ses_addr src;
	bool claim;			/* reserve the message found ... */
	uint64_t claim_id;		/* ... under this id */
	bool discard;			/* drop the message found */
};

/* Queue a send / post a receive.  0, -EAGAIN (too many pending: retry
 * after completions), -EINVAL. */
int uet_ses_send(struct uet_ses *ses, const struct uet_ses_send_req *req,
		 uint64_t now);
int uet_ses_recv(struct uet_ses *ses, const struct uet_ses_recv_req *req,
		 uint64_t now);
/* Cancel a posted receive by op_ctx: 0 (a -ECANCELED completion follows)
 * or -ENOENT.  A multi-receive buffer is retired: the messages in it
 * still complete, the last completion carries mr_released (a -ECANCELED
 * completion of its own when none is in flight). */
int uet_ses_cancel(struct uet_ses *ses, struct uet_ses_ep *ep, void *op_ctx);
/*
 * Peek: match req against the unexpected messages whose first packet
 * has arrived (claimed ones excluded).  Found: 0 and *out = the message's
 * attributes (len = its whole length, op_ctx NULL); with claim the
 * message is reserved for a later claim receive (normal receives and
 * peeks no longer see it), with discard it is dropped (a rendezvous
 * initiator completes normally, nothing more is pulled).  -ENOMSG when
 * nothing matches.
 */
int uet_ses_peek(struct uet_ses *ses, const struct uet_ses_peek_req *req,
		 struct uet_ses_recv_cmpl *out, uint64_t now);
/* Drop the message reserved under claim_id and describe it in *out as
 * a peek does (tag, length, header_data, source): 0 or -ENOMSG. */
int uet_ses_claim_discard(struct uet_ses *ses, struct uet_ses_ep *ep,
			  uint64_t claim_id, struct uet_ses_recv_cmpl *out,
			  uint64_t now);

/*
 * Remote memory: the RI table (snic/uet_ses_mr.c).
 *
 * One table per SES of the memory other NICs may access.  Keys are 64-bit:
 *   - provider keys: UET_SES_MKEY_PROV | tag << 32 | slot; slot indexes
 *     the table's slot array, tag (31 bits) is the slot's generation: it
 *     starts at a random value and moves on by a random step of 1..65536
 *     when the registration goes, so a key is not guessable from another
 *     one and a stale key is told apart (UET_RC_BAD_GENERATION) from an
 *     unknown one (UET_RC_BAD_MKEY) for at least 32768 registrations of
 *     one slot (free slots are reused oldest first);
 *   - user keys (user_key): any value with bit 63 clear, chosen by the
 *     caller, unique in the table.
 * On the wire a request carries the key in match_bits and
 * UET_SES_MKEY_GEN(key) in ri_generation.
 */
#define UET_SES_MKEY_PROV	(1ull << 63)
#define UET_SES_MKEY_GEN(key)	((uint8_t)((key) >> 32))
#define UET_SES_ACC_REMOTE_READ		0x1u
#define UET_SES_ACC_REMOTE_WRITE	0x2u

/* Segments of one registration at most (uet_ses_mr_attr.segs). */
#define UET_SES_MR_SEGS_MAX	8u

struct uet_ses_mr_attr {
	void *addr;
	size_t len;
	/* nsegs > 0: the region is these segments one after the other
	 * (addr and len unused); byte 0 is segs[0]'s first byte, and with
	 * virt_addr its address is segs[0].iov_base.  At most
	 * UET_SES_MR_SEGS_MAX. */
	const struct iovec *segs;
	size_t nsegs;
	uint32_t access;	/* UET_SES_ACC_*, none or more (with none,
				 * nothing remote ever passes the check) */
	bool virt_addr;		/* buffer_offset is a virtual address */
	bool user_key;		/* use requested_key instead of a new one */
	uint64_t requested_key;
	/* Device memory: copied in and out with the mem ops
	 * (uet_ses_set_mem_ops), never addressed directly; -EINVAL before
	 * those are set. */
	bool devmem;
};

/* How SES copies into and out of devmem registrations: 0 or -errno. */
struct uet_ses_mem_ops {
	int (*to_dev)(void *ctx, void *dev, const void *host, size_t len);
	int (*from_dev)(void *ctx, void *host, const void *dev, size_t len);
	void *ctx;
};

/* Set (copied) the copies of devmem registrations; NULL clears them. */
void uet_ses_set_mem_ops(struct uet_ses *ses,
			 const struct uet_ses_mem_ops *ops);

/* 0 and *key, -EINVAL (bad attr, user key with bit 63, more than
 * UET_SES_MR_SEGS_MAX segments, a segment of len > 0 at NULL, a total
 * above SIZE_MAX), -EEXIST (user
 * key in use), -ENOMEM, -ENOSPC (2^32 slots). */
int uet_ses_mr_reg(struct uet_ses *ses, const struct uet_ses_mr_attr *a,
		   uint64_t *key);
/* 0, -ENOENT, or -ENOMEM (still registered, nothing changed).  Never
 * waits.  After it returns nothing touches the memory: reads being
 * answered from it stop (the reader gets the key's error code), and the
 * Response-with-Data packets already sent from it, which PDS may still
 * retransmit, are copied into NIC buffers first (stats.reply_copy_bytes). */
int uet_ses_mr_dereg(struct uet_ses *ses, uint64_t key);

/*
 * RMA and atomics (snic/uet_ses_rma.c).  Completion through send_done:
 * status 0 or -errno (the target's return code mapped by
 * uet_ses_rc_errno, or a PDS status), rc = the target's code, len =
 * bytes written / read / operand bytes.  READ and FETCH data is in the
 * caller's buffers before send_done runs.
 */
enum uet_ses_rma_kind {
	UET_SES_RMA_WRITE = 1,	/* UET_WRITE */
	UET_SES_RMA_READ,	/* UET_READ, answered by Response-with-Data */
	UET_SES_RMA_ATOMIC,	/* UET_ATOMIC (atomic or CAS extension) */
	UET_SES_RMA_FETCH,	/* UET_FETCHING_ATOMIC: prior values come
				 * back in Response-with-Data */
};

/* The SES opcode of an RMA kind (UET_WRITE ...); 0 for another value. */
uint8_t uet_ses_rma_opcode(uint8_t kind);

/* Largest atomic payload (operand bytes) in one request. */
#define UET_SES_AMO_MAX	512u

struct uet_ses_rma_req {
	struct uet_ses_ep *ep;		/* local initiator */
	struct uet_ses_addr dst;	/* target endpoint */
	uint8_t kind;			/* enum uet_ses_rma_kind */
	uint64_t key;			/* remote memory key */
	uint64_t raddr;			/* remote address/offset */
	bool has_data;			/* WRITE (and atomics): header_data */
	uint64_t header_data;
	bool dc;
	/* WRITE: source; READ: destination; ATOMIC/FETCH: operand (for the
	 * CAS family the swap value, MSWAP the swap value). */
	const struct iovec *iov;	/* caller memory, valid until done */
	unsigned int iovcnt;
	uint8_t amo_op;			/* enum uet_amo_op (ATOMIC/FETCH) */
	uint8_t amo_dtype;		/* enum uet_amo_dtype */
	uint8_t compare[16];		/* CAS family: compare value (MSWAP:
					 * the mask), one element */
	/* FETCH: where the prior values go (same byte count as iov). */
	const struct iovec *res_iov;
	unsigned int res_iovcnt;
	void *op_ctx;
};

/* 0, -EAGAIN (too many pending), -EINVAL (bad request, e.g. atomic
 * above UET_SES_AMO_MAX bytes or above one packet, CAS family with more
 * than one element, unknown op/dtype), -EMSGSIZE (the endpoint's mode is
 * not RUD/ROD: RMA needs a PDC). */
int uet_ses_rma(struct uet_ses *ses, const struct uet_ses_rma_req *req,
		uint64_t now);

/* Push queued packets as PDS windows open; run rendezvous pulls. */
void uet_ses_progress(struct uet_ses *ses, uint64_t now);

struct uet_ses_stats {
	uint64_t msgs_tx, msgs_rx, pkts_tx, pkts_rx;
	uint64_t expected, unexpected, unexp_bytes, unexp_bytes_hwm;
	uint64_t unexp_refused;		/* told to retry: bound reached */
	uint64_t truncated, rdzv_tx, rdzv_rx, rdzv_read_pkts;
	uint64_t bad_job, bad_pid, bad_index, bad_hdr;
	uint64_t err_rsp_tx, err_rsp_rx;
	uint64_t held_tx;		/* sends done once held (UET_SES_SEND_HELD) */
	uint64_t held_failed;		/* ... that PDS failed later */
	uint64_t stale_msgs;		/* incomplete messages replaced by a
					 * new one with the same message_id */
	/* Send order under RUD (docs/software-nic.md, SES, "Send order"). */
	uint64_t seq_starts;		/* initiator: sequences started
					 * (message_id 1 sent) */
	uint64_t ord_held;		/* target: messages buffered before
					 * their turn (an earlier message of
					 * their stream had not arrived) */
	uint64_t held_bytes_hwm;	/* their bounce buffers, at most */
	uint64_t ord_refused;		/* target: packets refused (-EAGAIN)
					 * for the send order (held bound
					 * reached, a new sequence behind
					 * parked messages) */
	uint64_t ord_skipped;		/* target: gaps skipped (a new
					 * sequence, or order_timeout_ns) */
	uint64_t ord_restart;		/* target: sequences started by the
					 * source (message_id 1) */
	uint64_t ord_resync;		/* target: streams taken up at
					 * another id (state unknown) */
	uint64_t ord_late;		/* target: messages matched behind
					 * their stream's order */
	/* RMA and atomics (docs/software-nic.md, SES, "RMA"). */
	uint64_t rma_tx;		/* initiator: operations started */
	uint64_t rma_rx;		/* target: accesses done (events) */
	uint64_t rma_bytes_rx;		/* target: bytes written/read/atomic */
	uint64_t rma_bad_key;		/* target: refused, UET_RC_BAD_MKEY */
	uint64_t rma_bad_gen;		/* ... UET_RC_BAD_GENERATION */
	uint64_t rma_perm;		/* ... UET_RC_PERM_VIOLATION */
	uint64_t rma_range;		/* ... UET_RC_AT_OUT_OF_RANGE */
	uint64_t amo_unsupported;	/* ... UET_RC_AMO_UNSUPPORTED_*,
					 * UET_RC_AMO_UNALIGNED */
	uint64_t amo_rx;		/* target: atomics applied */
	uint64_t reply_copy_bytes;	/* target: Response-with-Data payload
					 * copied out of a registration into
					 * NIC buffers (only by a
					 * deregistration, for the reply
					 * packets still in flight: 0 on the
					 * normal path) */
	/* Hostile-network drops (docs/software-nic.md, "Hostile network"). */
	uint64_t mode_refused;		/* RMA/atomic/send not on a PDC of the
					 * endpoint's delivery mode */
	uint64_t addr_refused;		/* no such {JobID, pid, ri} (one
					 * uniform answer; bad_job/pid/index
					 * tell which, locally) */
	uint64_t overlap_refused;	/* packets with bytes already placed */
	uint64_t rdata_unmatched;	/* Response-with-Data answering no
					 * outstanding READ of ours on the
					 * PDC and from the peer it arrived
					 * on (late, or forged) */
	uint64_t ahead_refused;		/* unexpected data too far ahead of
					 * what arrived (allocation bound) */
	uint64_t msgs_expired;		/* incomplete messages timed out */
	uint64_t rma_rx_expired;	/* incomplete writes timed out */
	uint64_t rma_rx_full;		/* writes refused: record bound */
	uint64_t txi_runs;		/* transmit-queue entries run (a txi
					 * woken from its route's parked list
					 * counts once per wake) */
	uint64_t tx_direct;		/* sends run at once, not queued
					 * (nothing queued before them) */
};
void uet_ses_get_stats(const struct uet_ses *ses, struct uet_ses_stats *st);
/* stats.unexp_refused alone (checked on every progress pass). */
uint64_t uet_ses_unexp_refused(const struct uet_ses *ses);

/* Earliest time uet_ses_progress() has timer work (order_timeout_ns),
 * UINT64_MAX if none. */
uint64_t uet_ses_next_deadline(const struct uet_ses *ses);

#endif /* UET_SES_H */
