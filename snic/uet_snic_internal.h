/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Software NIC internals shared by uet_snic*.c (docs/software-nic.md (device)).
 * Not part of the NIC's API; the unit test includes it to reach the
 * cancel / MR-lookup helpers and the constants.
 *
 * Object model:
 *
 *   uet_snic_dev    one NIC: link + PDS + SES, the peer table, the MR key
 *                   table, the pools, the wait fd (epoll over the link fd
 *                   and a timerfd), the optional auto-progress thread.
 *   uet_snic_queue  one command/notification ring pair = one SES
 *                   endpoint {job_id of the device, pid_on_fep, ri}.
 *   uet_snic_op     one send, receive, RMA or atomic handed to SES (its
 *                   op_ctx): the command's op_context and flags, and the
 *                   NIC-owned bounce buffer of INLINE / INJECT /
 *                   inline-SGL data and atomic operands.
 *   uet_snic_notif  notification entries that did not fit the
 *                   notification ring, written in order by later
 *                   progress.
 *
 * Locking: dev->lock covers everything but the rings' producer/consumer
 * halves that belong to the provider.  Functions named *_locked expect it
 * held.  SES upcalls run under it (they come from SES entry points the
 * NIC calls with the lock held).
 */
#ifndef UET_SNIC_INTERNAL_H
#define UET_SNIC_INTERNAL_H

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_bufpool.h"
#include "uet_hashmap.h"
#include "uet_hsi_cmdq.h"
#include "uet_hsi_formats.h"
#include "uet_hsi_notifq.h"
#include "uet_list.h"
#include "uet_snic.h"

/* NIC-owned copies: INLINE payloads and small injects use the small
 * pool, injects and inline SGL entries up to 8 KiB the large one, and
 * the copies of sends up to 16 KiB the big one (a send the NIC holds
 * completes before its ACK: docs/software-nic.md, "Held sends"). */
#define UET_SNIC_BUF_SMALL	256u
#define UET_SNIC_BUF_LARGE	8192u
#define UET_SNIC_BUF_BIG	16384u
/* Largest INJECT payload (copied at doorbell time). */
#define UET_SNIC_INJECT_MAX	UET_SNIC_BUF_BIG
/* SGL entries of one command: the embedded one + 255 extra. */
#define UET_SNIC_MAX_SGL	(1u + UET_HSI_CMD_SGL_COUNT_MAX)
/* Receives a send may overtake in one doorbell (uet_snic_exec.c) */
#define UET_SNIC_SEND_FIRST_MAX	8u
/* Canonical fabric address: family 2, port 2, address 16, scope id 4. */
#define UET_SNIC_FA_KEY_LEN	UET_LINK_ADDR_KEY_LEN
/* The timerfd is never armed closer than this to "now" (no spinning). */
#define UET_SNIC_TIMER_MIN_NS	20000ull
/* Deferred notifications are retried at least this often. */
#define UET_SNIC_DEFER_RETRY_NS	1000000ull
/* Queue close waits this long for its held sends to be acknowledged. */
#define UET_SNIC_LINGER_NS	2000000000ull

struct uet_snic_dev;

struct uet_snic_peer {
	struct uet_hnode node;		/* dev->peer_map */
	uint8_t key[UET_SNIC_FA_KEY_LEN];
	struct uet_link_addr addr;
	uint32_t handle;
	uint32_t refs;			/* peer_insert calls not removed */
};

/* A registration, for local checks (uet_snic_mr_check); the SES RI
 * table holds the same key for remote access. */
struct uet_snic_mr {
	struct uet_hnode node;		/* dev->mr_map, keyed by the key */
	struct iovec segs[UET_HSI_MR_SEGS_MAX];
	size_t nsegs;
	uint64_t access;		/* UET_HSI_ACCESS_* bits */
};

enum uet_snic_op_kind {
	UET_SNIC_OP_SEND = 1,
	UET_SNIC_OP_RECV = 2,
	UET_SNIC_OP_RMA = 3,		/* RMA or atomic (initiator) */
};

struct uet_snic_op {
	struct uet_dlist entry;		/* q->ops while SES has it */
	struct uet_snic_queue *q;	/* NULL once the queue is closed */
	uint64_t metadata;		/* op_context / buffer ids */
	void *buf;			/* bounce buffer or NULL */
	uint32_t buf_size;		/* UET_SNIC_BUF_SMALL / _LARGE / _BIG */
	uint8_t kind;			/* enum uet_snic_op_kind */
	bool completion;		/* success notification wanted */
	bool held;			/* send notified done once held: its
					 * metadata is the provider's again */
	bool multi;			/* multi-receive buffer: one
					 * completion per message, freed
					 * with the released one */
	const void *rx_first;		/* receive: first buffer, for the */
	size_t rx_first_len;		/* notification's inline data */
};

struct uet_snic_notif {
	struct uet_dlist entry;		/* q->deferred */
	unsigned int n;			/* 1, or 2 (+ continuation) */
	uint8_t e[2][UET_HSI_NOTIF_LEN];
};

struct uet_snic_queue {
	struct uet_hsi_queue pub;	/* first: what the provider sees */
	struct uet_snic_dev *dev;
	struct uet_hsi_cmdq cmdq;
	struct uet_hsi_notifq notifq;
	struct uet_ses_ep *ep;
	struct uet_dlist entry;		/* dev->queues */
	struct uet_dlist ops;		/* outstanding uet_snic_op */
	struct uet_dlist deferred;	/* uet_snic_notif, oldest first */
	unsigned int ndeferred;		/* entries waiting */
	struct uet_snic_notif *rxpool;	/* RXPOOL event waiting */
	uint16_t pid_on_fep;
	uint16_t ri;
	uint8_t mode;			/* enum uet_pds_mode of its sends */
	bool rma_events;		/* E-6: notify every RMA landing */
	bool stalled;			/* SES full, or a fence became free:
					 * run the commands again */
	bool fence_wait;		/* a FENCE command waits for ntx 0 */
	bool sent_ahead;		/* the send at sent_idx ran before
					 * the receives ahead of it */
	bool held_later;		/* a held send's completion waits for
					 * the flush (held_md, held_len) */
	bool held_due;
	uint32_t sent_idx;
	uint32_t held_len;
	uint64_t held_md;
	uint32_t ntx;			/* sends, RMA, atomics in flight */
};

struct uet_snic_dev {
	struct uet_hsi_dev pub;		/* first: the ops table */
	pthread_mutex_t lock;
	struct uet_snic_cfg cfg;
	uint32_t job_id;
	struct uet_link *link;
	bool own_link;
	/* the link under TSS (snic_open), for its close-time counters;
	 * NULL: link itself */
	struct uet_link *base_link;
	struct uet_pds *pds;
	struct uet_ses *ses;
	uint64_t now;			/* latest time seen */

	struct uet_dlist queues;

	/* Peer table: handle = index; free slots reused lowest first. */
	struct uet_snic_peer **peers;
	uint32_t npeers;		/* slots in use or freed */
	uint32_t peers_cap;
	uint32_t peer_hint;		/* no free slot below this index */
	struct uet_hashmap peer_map;	/* canonical address -> peer */
	struct uet_hashmap_memo peer_memo;

	/* Memory registrations by key (the keys come from the SES RI
	 * table, which checks remote accesses). */
	struct uet_hashmap mr_map;

	struct uet_bufpool op_pool;
	struct uet_bufpool small_pool;
	struct uet_bufpool large_pool;
	struct uet_bufpool big_pool;
	struct uet_bufpool notif_pool;

	/* Doorbell scratch (under the lock). */
	struct uet_hsi_sgl_entry sgl[UET_SNIC_MAX_SGL];
	struct iovec iov[UET_SNIC_MAX_SGL];
	struct iovec res_iov[UET_SNIC_MAX_SGL];	/* fetching atomics */

	/* wait_fd: epoll over the link fd and the timerfd. */
	int wait_fd;
	int timer_fd;
	uint64_t armed_ns;		/* 0: disarmed */
	/* The wait fd was handed out (wait_fd(), the auto-progress thread):
	 * someone may sleep on it, so the timer follows the deadlines.
	 * Until then progress comes only from calls, which run the
	 * deadlines themselves, and the timer costs no system call. */
	atomic_bool sleepers;
	/* The link's socket is in wait_fd's epoll set (uet_snic_wait_link:
	 * added when someone may sleep, not before). */
	atomic_bool link_waited;

	/* Auto-progress thread. */
	struct {
		pthread_t thread;
		bool running;
		atomic_bool stop;
		int wake_fd;		/* eventfd */
		int ep_fd;		/* epoll: wait_fd + wake_fd */
	} ap;
	/* Standby (manual progress, uet_snic_progress.c): the process's
	 * standby thread answers for this device after standby_ns without
	 * a call from the application. */
	struct {
		struct uet_dlist entry;	/* the standby list; linked: on */
		uint64_t idle_ns;
		/* Answering now: the timer follows the deadlines (as with
		 * sleepers), the wait fd is in the thread's epoll set. */
		atomic_bool acting;
	} sb;
	/* Time of the application's last progress call or doorbell. */
	_Atomic uint64_t app_ns;

	uint64_t refused_seen;		/* SES unexp_refused already told */
	struct {
		uint64_t cmds, bad_cmds, doorbells;
		uint64_t notifs, notif_deferred, events;
		uint64_t notif_dropped;	/* lost at close / out of memory */
		uint64_t rma_cmds, amo_cmds, fence_waits, rma_notifs;
		uint64_t quiet_passes;	/* progress passes with nothing to do */
		uint64_t send_first;	/* sends run before receives ahead */
		uint64_t held_late;	/* of them held, completion after */
	} st;
};

/* The device lock is held (by someone: a plain mutex cannot tell who);
 * checked in builds with assertions. */
static inline void uet_snic_assert_locked(struct uet_snic_dev *dev)
{
	assert(pthread_mutex_trylock(&dev->lock) == EBUSY);
	(void)dev;
}

static inline struct uet_snic_dev *uet_snic_dev_of(struct uet_hsi_dev *d)
{
	return (struct uet_snic_dev *)d;
}

static inline struct uet_snic_queue *uet_snic_queue_of(struct uet_hsi_queue *q)
{
	return (struct uet_snic_queue *)q;
}

/* ---- the ops-table entry points of the other files ---- */
int uet_snic_doorbell(struct uet_hsi_queue *q);
int uet_snic_progress(struct uet_hsi_dev *dev);
int uet_snic_wait_fd(struct uet_hsi_dev *dev);
void uet_snic_wait_link(struct uet_snic_dev *dev);
/* FI_UET_PORT (uet_snic_env.c). */
uint16_t uet_snic_env_port(void);
uint32_t uet_snic_env_standby_ms(void);
/* FI_UET_LINK: the link the NIC opens (snic/uet_link_xdp.h). */
enum {
	UET_SNIC_LINK_UDP = 0,
	UET_SNIC_LINK_XDP = 1,
	UET_SNIC_LINK_AUTO = 2,
};
int uet_snic_env_link(void);

/* FI_UET_LOSS_PPM: the UDP link's testing drop rate. */
uint32_t uet_snic_env_loss_ppm(void);
bool uet_snic_env_gso(void);

/* ---- uet_snic.c ---- */
/* The peer of a handle, or NULL. */
struct uet_snic_peer *uet_snic_peer_get_locked(struct uet_snic_dev *dev,
					       uint32_t handle);
/* The handle of a source address, or UET_HSI_PEER_UNKNOWN. */
uint32_t uet_snic_peer_find_locked(struct uet_snic_dev *dev,
				   const struct uet_link_addr *a);
/*
 * Check that [addr, addr + len) lies inside the registration of key and
 * that it allows every bit of access: 0, -ENOENT (no such key), -EFAULT
 * (outside), -EACCES (access not granted), -EINVAL (len overflows).
 */
int uet_snic_mr_check(struct uet_hsi_dev *dev, uint64_t key,
		      const void *addr, size_t len, uint64_t access);
/*
 * Cancel every operation of q: its SES endpoint is closed (receives
 * complete with FI_ECANCELED at once, sends when PDS gives their packets
 * back) and opened again, so the queue stays usable.  Returns 0, or the
 * error of reopening the endpoint (later commands then fail).  The part
 * of queue_close that a test can observe before the rings go away.
 */
int uet_snic_queue_cancel(struct uet_hsi_queue *q);

/* ---- uet_snic_exec.c ---- */
/* A command decoded: its segment and, with EXT, the extension. */
struct uet_snic_cmd {
	const struct uet_hsi_cmdq_cmd *raw;
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;	/* zero without EXT */
	unsigned int nsgl;		/* data entries in dev->sgl[] */
};

/* Execute the published commands of q until the ring is empty, SES is
 * full (q->stalled), a FENCE command waits (q->fence_wait) or too many
 * notifications wait. */
void uet_snic_queue_run_locked(struct uet_snic_queue *q, uint64_t now);
void uet_snic_op_free_locked(struct uet_snic_dev *dev,
			     struct uet_snic_op *op);
/* An op with a bounce buffer of copy bytes (0: none), or NULL. */
struct uet_snic_op *uet_snic_op_get_locked(struct uet_snic_queue *q,
					   uint8_t kind, uint64_t copy);
/* dest -> SES address: 0, -EINVAL (reserved bits), -ENXIO (no peer). */
int uet_snic_dest_locked(struct uet_snic_queue *q, uint64_t dest,
			 struct uet_ses_addr *out);
/* Decode the data entries of an SGL command into dev->sgl[], c->nsgl. */
int uet_snic_sgl_locked(struct uet_snic_queue *q, struct uet_snic_cmd *c);
/* Link op to q (counted in q->ntx unless a receive), then hand the one
 * request given to SES (its completion may come before it returns);
 * undone and op freed when SES refuses.  Returns SES's answer. */
int uet_snic_submit_locked(struct uet_snic_queue *q, struct uet_snic_op *op,
			   const struct uet_ses_send_req *sreq,
			   const struct uet_ses_recv_req *rreq,
			   const struct uet_ses_rma_req *mreq, uint64_t now);
/* Append [p, p + len) to iov[] (merging contiguous pieces). */
void uet_snic_iov_add(struct iovec *iov, unsigned int *n, void *p,
		      size_t len);
/* Which bytes of a transmit command's data the NIC copies into its own
 * buffer (the rest is sent from the host's memory in place). */
enum uet_snic_copy {
	UET_SNIC_COPY_INLINE,	/* inline data and inline entries */
	UET_SNIC_COPY_ALL,	/* every byte (INJECT, gathered UUD) */
};
/* The data's total bytes and the bytes copied (dev->sgl decoded for SGL
 * data); -EFAULT for an indirect entry with a length and no address. */
int uet_snic_data_len(const struct uet_snic_dev *dev,
		      const struct uet_snic_cmd *c, enum uet_snic_copy mode,
		      uint64_t *total, uint64_t *copy);
/* The data as dev->iov entries, copied bytes gathered into buf (room for
 * uet_snic_data_len's copy); returns the entry count. */
unsigned int uet_snic_data_iov(struct uet_snic_dev *dev,
			       const struct uet_snic_cmd *c,
			       enum uet_snic_copy mode, uint8_t *buf);

/* ---- uet_snic_rma.c ---- */
/* Execute an RMA or ATOMIC command (E-6): 0 (submitted, or failed with
 * a completion written), -EAGAIN (SES full: keep it), or the negative
 * reason of an invalid descriptor. */
int uet_snic_exec_rma_locked(struct uet_snic_queue *q,
			     struct uet_snic_cmd *c, uint64_t now);

/* ---- uet_snic_notify.c ---- */
/* Write a send's success completion (RC_OK, len bytes). */
void uet_snic_send_ok_locked(struct uet_snic_queue *q, uint64_t metadata,
			     uint64_t len);
void uet_snic_send_held_locked(struct uet_snic_queue *q,
			       struct uet_snic_op *op, uint64_t len);
void uet_snic_ses_send_done(void *ctx, const struct uet_ses_send_cmpl *c);
void uet_snic_ses_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c);
/* Target side of an RMA or atomic: the E-6 notification. */
void uet_snic_ses_rma_event(void *ctx, const struct uet_ses_rma_event *e);
/* Write n encoded entries (in order, together) or defer them; returns
 * the deferred record, or NULL when written (or dropped: no memory). */
struct uet_snic_notif *uet_snic_notify_locked(struct uet_snic_queue *q,
				const uint8_t (*e)[UET_HSI_NOTIF_LEN],
				unsigned int n);
/* Write what waits in the NIC while the ring has room; entries written. */
unsigned int uet_snic_flush_locked(struct uet_snic_queue *q);
/* Drop what still waits (queue or device going away). */
void uet_snic_drop_deferred_locked(struct uet_snic_queue *q);
/* INVALID_DESCRIPTOR event for the command at ring index idx (seg: its
 * raw segment bytes, or NULL), plus the error completion the conventions
 * ask for; err is the negative reason. */
void uet_snic_bad_cmd_locked(struct uet_snic_queue *q, uint32_t idx,
			     const uint8_t *seg, int err, uint64_t now);
/* A receive notification (+ continuation entry when it applies, E-5)
 * for metadata from c, with status err (0 or negative); first/first_len:
 * the message's bytes in memory for the inline copy, or NULL. */
void uet_snic_recv_notify_locked(struct uet_snic_queue *q, uint64_t metadata,
				 const struct uet_ses_recv_cmpl *c, int err,
				 const void *first, size_t first_len);
/* Error completion for a command SES refused after decoding. */
void uet_snic_cmd_error_locked(struct uet_snic_queue *q, bool recv,
			       uint64_t metadata, int err);
/* RXPOOL_EXHAUSTED events when SES refused unexpected messages. */
void uet_snic_rxpool_check_locked(struct uet_snic_dev *dev, uint64_t now);

/* ---- uet_snic_progress.c ---- */
/* Arm the timerfd for the next deadline (or the deferred retry). */
void uet_snic_rearm_locked(struct uet_snic_dev *dev, uint64_t now);
/* Create / close the wait fd and timerfd. */
int uet_snic_wait_init(struct uet_snic_dev *dev);
void uet_snic_wait_fini(struct uet_snic_dev *dev);

#endif /* UET_SNIC_INTERNAL_H */
