/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Provider-wide declarations: the fid classes (fabric, domain, endpoint,
 * AV, CQ, counter, EQ, MR) and the internal calls between them.
 *
 * Layering: the provider talks to a device only through the HSI ops table
 * (hsi/uet_hsi_dev.h), command segments written into the command ring and
 * notifications read from the notification ring.  It never touches a
 * socket.
 *
 * Locking (FI_THREAD_SAFE, the only model uet offers): each object has
 * its own mutex, taken with uet_lock() at its level; the order of every
 * pair is in util/uet_lock.h and is checked in debug builds.
 */
#ifndef UET_PROV_H
#define UET_PROV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_uet_ext.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

#include "uet_addr.h"
#include "uet_hashmap.h"
#include "uet_hsi_dev.h"
#include "uet_info.h"
#include "uet_list.h"
#include "uet_lock.h"
#include "uet_log.h"

/* Ring sizes of one endpoint's queue pair. */
#define UET_EP_CMDQ_DEPTH	4096u	/* 64-byte slots */
#define UET_EP_NOTIFQ_DEPTH	4096u	/* not a multiple of 13 */
#define UET_EP_POLL_BATCH	32u

/* Bound on waiting for sends still in flight when an endpoint closes. */
#define UET_EP_DRAIN_NS		(3ull * 1000000000ull)

/* Default CQ and EQ depths when the application gives none. */
#define UET_CQ_DEF_SIZE		4096u
#define UET_EQ_DEF_SIZE		256u

/* Longest wait between two progress calls inside a blocking call: bounds
 * the latency of a wake-up the wait fd cannot see. */
#define UET_WAIT_SLICE_MS	10

struct uet_ep;
struct uet_eq;
struct uet_sep;
struct uet_hmem_ops;
struct uet_hmem_bounce;

/* The provider structure (uet_hooks.c): every FI_WARN etc. of the tree
 * goes through it, by the log hook uet_prov_hooks_install() sets. */
extern struct fi_provider uet_prov;
/* Route util's logging and FI_UET_* reads through libfabric. */
void uet_prov_hooks_install(void);
struct fi_provider *uet_prov_init(void);
/* Register the HSI backends built into the provider (once; uet_prov.c). */
void uet_prov_backends_init(void);

int uet_getinfo(uint32_t version, const char *node, const char *service,
		uint64_t flags, const struct fi_info *hints,
		struct fi_info **info);
int uet_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
	       void *context);

/* ------------------------------------------------------------------ */
/* fabric                                                              */
/* ------------------------------------------------------------------ */
struct uet_fabric {
	struct fid_fabric fid;
	atomic_int ref;
};

int uet_fabric_trywait(struct fid_fabric *fabric, struct fid **fids,
		       int count);

/* ------------------------------------------------------------------ */
/* domain                                                              */
/* ------------------------------------------------------------------ */
struct uet_domain {
	struct fid_domain fid;
	struct uet_fabric *fabric;
	atomic_int ref;
	const struct uet_hsi_dev_ops *ops;
	struct uet_hsi_dev *dev;
	struct uet_addr addr;		/* the device's address, pid 0 */
	uint32_t job_id;
	/* The job's TSS secret from a 40-byte auth_key (fi_uet_ext.h);
	 * wiped once the device has its keys. */
	bool has_secret;
	uint8_t secret[FI_UET_TSS_SECRET_LEN];
	enum fi_progress data_progress;
	uint64_t mr_mode;
	/* fi_mr_attr's iface/device are the application's: FI_HMEM asked
	 * for with API 1.9 or later (uet_mr.c) */
	bool hmem;
	/* and device memory served through host bounce buffers: the
	 * runtime's shim, NULL for system memory only (uet_hmem.h) */
	const struct uet_hmem_ops *hmem_dev;
	bool auto_progress;		/* device thread started */
	bool standby;			/* device standby thread started */
	pthread_mutex_t lock;		/* pid allocation, mr_map */
	uint8_t pid_used[4096 / 8];
	struct uet_eq *eq;		/* async errors */
	size_t amo_max;			/* largest atomic operand, bytes */
	struct uet_hashmap mr_map;	/* MRs with a counter, by key */
	atomic_int mr_cntrs;		/* entries of mr_map */
	struct uet_bind_set *eps;	/* enabled endpoints */
	atomic_int neps;
	/* Blocking calls poll this long before they sleep (FI_UET_SPIN_US;
	 * uet_domain_block); counted for the tests. */
	uint64_t spin_ns;
	atomic_uint_fast64_t wait_spins;	/* polls of a spin, no sleep */
	atomic_uint_fast64_t wait_sleeps;	/* poll() calls */
};

/* fi_open_ops on a domain: FI_UET_OPS_V1, _V2 (uet_ext_ops.c). */
int uet_ext_ops_open(struct fid *fid, const char *name, uint64_t flags,
		     void **ops, void *context);
/* FI_UET_OPS_V2 get_peer_pdcs (uet_ext_peer.c). */
struct fi_uet_peer_pdcs;
int uet_ext_get_peer_pdcs(struct fid_domain *domain, struct fid_av *av,
			  fi_addr_t addr, struct fi_uet_peer_pdcs *p,
			  size_t len);
int uet_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		    struct fid_domain **domain, void *context);
/* Drive the device once (receive, timers, notifications). */
void uet_domain_progress(struct uet_domain *dom);
/* Progress every enabled endpoint of the domain (the device when there
 * is none): for CQs and counters no endpoint is bound to, such as the
 * counter of an MR (fi_mr_bind), whose events an endpoint's progress
 * delivers. */
void uet_domain_progress_eps(struct uet_domain *dom);
/* Sleep until the device may have work or timeout_ms passes (or until
 * extra_fd is readable, when >= 0).  Returns 0 or -errno. */
int uet_domain_wait(struct uet_domain *dom, int extra_fd, int timeout_ms);
/*
 * One turn of a blocking call that found nothing (fi_cq_sread, fi_cntr_wait,
 * fi_wait), at time now, with its deadline end (UINT64_MAX: none):
 * before spin_end (uet_domain_spin_end, at the call's start) it returns at
 * once for the caller to poll again (a bounded spin: the answer to a
 * message just sent often comes within microseconds); after it, it sleeps
 * in uet_domain_wait until the device may have work, extra_fd is
 * readable, end or UET_WAIT_SLICE_MS.  Returns 0 or -errno.
 */
int uet_domain_block(struct uet_domain *dom, int extra_fd, uint64_t now,
		     uint64_t spin_end, uint64_t end);
/* now + the domain's spin, not past end. */
uint64_t uet_domain_spin_end(const struct uet_domain *dom, uint64_t now,
			     uint64_t end);
/* FI_UET_SPIN_US (uet_domain.c) */
extern const struct uet_env_var uet_domain_env_spin_us;

/* ------------------------------------------------------------------ */
/* endpoint sets of CQs and counters, wait objects (uet_bind.c)        */
/* ------------------------------------------------------------------ */
/* Endpoint membership of a CQ or counter (progress on read). */
struct uet_cq_bind {
	struct uet_dlist entry;
	struct uet_ep *ep;
};

struct uet_bind_set {
	pthread_mutex_t lock;
	struct uet_dlist eps;		/* struct uet_cq_bind */
};

void uet_bind_set_init(struct uet_bind_set *set);
void uet_bind_set_fini(struct uet_bind_set *set);
/* Add ep once (ref counts the bindings); -FI_ENOMEM. */
int uet_bind_set_add(struct uet_bind_set *set, struct uet_ep *ep,
		     atomic_int *ref);
void uet_bind_set_del(struct uet_bind_set *set, struct uet_ep *ep,
		      atomic_int *ref);
/* Progress every endpoint of the set (the device when there is none). */
void uet_bind_set_progress(struct uet_bind_set *set, struct uet_domain *dom);
/* FI_GETWAIT (fd) and FI_GETWAITOBJ for a fid with wait object wait_obj. */
int uet_wait_control(enum fi_wait_obj wait_obj, int fd, int command,
		     void *arg);

/* ------------------------------------------------------------------ */
/* wait set (uet_wait.c) and poll set (uet_poll.c)                     */
/* ------------------------------------------------------------------ */
/* A wait set: an epoll fd over the device wait fds and the CQ signal fds
 * of its members, the CQs and counters opened with FI_WAIT_SET. */
struct uet_wait {
	struct fid_wait fid;
	struct uet_fabric *fabric;
	atomic_int ref;			/* members */
	enum fi_wait_obj wait_obj;	/* FI_WAIT_FD */
	int epfd;
	uint64_t spin_ns;		/* FI_UET_SPIN_US, as a domain's */
	pthread_mutex_t lock;		/* members */
	struct uet_dlist members;	/* struct uet_wait_member */
};

int uet_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		  struct fid_wait **waitset);
/* The uet wait set of attr->wait_set, or NULL when it is none. */
struct uet_wait *uet_wait_of(struct fid_wait *waitset);
/* The wait object of a CQ or counter attr: 0 with *ws the wait set
 * (FI_WAIT_SET) or NULL (none, unspec, fd); -FI_EINVAL for a wait set
 * that is not uet's, -FI_ENOSYS for another wait object. */
int uet_wait_attr_check(enum fi_wait_obj wait_obj, struct fid_wait *waitset,
			struct uet_wait **ws);
/* A CQ or counter joins / leaves the set (at open / close); signal_fd is
 * the member's own wake-up fd or -1.  0 or -FI_E*. */
int uet_wait_join(struct uet_wait *ws, struct fid *member,
		  struct uet_domain *dom, int signal_fd);
void uet_wait_leave(struct uet_wait *ws, struct fid *member);
/* Progress and test one member for fi_wait, fi_poll and fi_trywait:
 * a CQ is ready while it holds a completion or error (or was signaled),
 * a counter when its value or error count changed since *seen. */
bool uet_wait_fid_ready(struct fid *member, uint64_t *seen);
/* -FI_EAGAIN when a member of the set is ready, else 0. */
int uet_wait_trywait(struct fid *waitset);

int uet_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
		  struct fid_poll **pollset);

/* ------------------------------------------------------------------ */
/* address vector                                                      */
/* ------------------------------------------------------------------ */
struct uet_av_entry {
	bool used;
	struct uet_addr addr;
	bool in_rev;			/* node is in the reverse map */
	uint64_t peer;			/* device peer handle */
	struct uet_hnode node;		/* by {peer, pid, ri} */
	bool has_user_id;		/* FI_AV_USER_ID insert */
	fi_addr_t user_id;		/* reported as the source instead */
};

/* Named AV tables in POSIX shared memory (uet_av_shm.c). */
struct uet_av_shm;
/* Create (attr->flags without FI_READ) or map read-only (FI_READ) the
 * table of attr->name.  0, -FI_EINVAL (bad name or count, a malformed
 * table), -FI_EPERM (an object of another user under the name, or for
 * FI_READ one that is not a regular file or that others may write),
 * -FI_ENOENT (FI_READ and no such table), -FI_ENOMEM or -errno. */
int uet_av_shm_open(const struct fi_av_attr *attr, struct uet_av_shm **s);
/* Unmap; the writer also removes the name. */
void uet_av_shm_close(struct uet_av_shm *s);
/* The fi_addr_t array of the table (attr->map_addr). */
void *uet_av_shm_map_addr(struct uet_av_shm *s);
bool uet_av_shm_writer(const struct uet_av_shm *s);
size_t uet_av_shm_cap(const struct uet_av_shm *s);
/* Writer: slot i (< cap) now holds a / holds nothing. */
void uet_av_shm_publish(struct uet_av_shm *s, size_t i,
			const struct uet_addr *a);
void uet_av_shm_clear(struct uet_av_shm *s, size_t i);
/* Reader: slots published so far, and the address of slot i
 * (-FI_ENOENT when it holds none). */
size_t uet_av_shm_count(const struct uet_av_shm *s);
int uet_av_shm_entry(const struct uet_av_shm *s, size_t i,
		     struct uet_addr *a);

struct uet_av {
	struct fid_av fid;
	struct uet_domain *domain;
	atomic_int ref;
	enum fi_av_type type;
	uint64_t flags;
	pthread_mutex_t lock;
	struct uet_av_entry *tbl;
	size_t cap, count, hint;
	struct uet_hashmap rev;		/* u64 key: peer << 24 | initiator */
	/* Bumped (under lock) by every change that may change what
	 * uet_av_reverse answers: an endpoint's cached answer holds while
	 * it is unchanged (uet_ep_src). */
	atomic_ulong rev_gen;
	struct uet_eq *eq;
	struct uet_av_shm *shm;		/* named AV */
	bool read_only;			/* FI_READ */
	int rx_ctx_bits;		/* fi_rx_addr: receive context */
	size_t shm_synced;		/* reader: slots imported */
};

int uet_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		struct fid_av **av, void *context);
/* The dest field of a command for fi_addr, or -FI_EINVAL. */
int uet_av_dest(struct uet_av *av, fi_addr_t fi_addr, uint64_t *dest);
/* The fi_addr of {peer, initiator}, or FI_ADDR_NOTAVAIL. */
fi_addr_t uet_av_reverse(struct uet_av *av, uint32_t peer,
			 uint32_t initiator);
/* The same with the AV's change count it is valid for (*gen). */
fi_addr_t uet_av_reverse_gen(struct uet_av *av, uint32_t peer,
			     uint32_t initiator, unsigned long *gen);

/* ------------------------------------------------------------------ */
/* completion queue                                                    */
/* ------------------------------------------------------------------ */
struct uet_cq_entry {
	struct fi_cq_tagged_entry e;
	fi_addr_t src;
};

struct uet_cq_err {
	struct uet_dlist entry;
	struct fi_cq_err_entry e;
	fi_addr_t src;
};

struct uet_cq {
	struct fid_cq fid;
	struct uet_domain *domain;
	atomic_int ref;
	enum fi_cq_format format;
	enum fi_wait_obj wait_obj;
	struct uet_wait *wait_set;	/* FI_WAIT_SET */
	size_t entry_size;
	pthread_mutex_t lock;		/* ring, overflow, errors */
	struct uet_cq_entry *ring;
	size_t size, head, count;
	struct uet_dlist overflow;	/* struct uet_cq_ovf, ring full */
	size_t noverflow;
	struct uet_dlist errors;	/* struct uet_cq_err */
	/* Entries in ring, overflow and errors: changed under lock, read
	 * without it by a poll that finds nothing (no lock round trip). */
	atomic_size_t held;
	struct uet_bind_set bound;	/* endpoints */
	int signal_fd;			/* eventfd for fi_cq_signal */
	atomic_bool signaled;
	/* FI_PEER: the owner's CQ (struct fid_peer_cq) every completion
	 * goes to; this one stays empty and reading it progresses */
	void *peer;
};

int uet_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		struct fid_cq **cq, void *context);
/* Queue a completion (never fails: overflow goes to a list). */
void uet_cq_write(struct uet_cq *cq, const struct fi_cq_tagged_entry *e,
		  fi_addr_t src);
/* Queue an error completion; err is copied. */
void uet_cq_write_err(struct uet_cq *cq, const struct fi_cq_err_entry *err,
		      fi_addr_t src);
bool uet_cq_ready(struct uet_cq *cq);
/* uet_cq_ready, or an fi_cq_signal not yet seen (consumes it). */
bool uet_cq_wait_ready(struct uet_cq *cq);
/*
 * prov_errno of error completions: the UET SES return code (1..255) the
 * target answered with, or UET_PROV_ERRNO_BASE + the FI_E* code when the
 * failure was seen locally (no answer, truncation, cancel, no match).
 */
#define UET_PROV_ERRNO_BASE	0x10000
const char *uet_prov_strerror(int prov_errno, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* counter                                                             */
/* ------------------------------------------------------------------ */
struct uet_cntr {
	struct fid_cntr fid;
	struct uet_domain *domain;
	atomic_int ref;
	enum fi_wait_obj wait_obj;
	struct uet_wait *wait_set;	/* FI_WAIT_SET */
	_Atomic uint64_t value;
	_Atomic uint64_t err;
	struct uet_bind_set bound;	/* endpoints */
};

int uet_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		  struct fid_cntr **cntr, void *context);
/* Progress; true when value + error count differ from *seen (updated). */
bool uet_cntr_changed(struct uet_cntr *c, uint64_t *seen);

static inline void uet_cntr_inc(struct uet_cntr *c)
{
	if (c)
		atomic_fetch_add_explicit(&c->value, 1, memory_order_release);
}

static inline void uet_cntr_inc_err(struct uet_cntr *c)
{
	if (c)
		atomic_fetch_add_explicit(&c->err, 1, memory_order_release);
}

/* ------------------------------------------------------------------ */
/* event queue                                                         */
/* ------------------------------------------------------------------ */
struct uet_eq {
	struct fid_eq fid;
	struct uet_fabric *fabric;
	atomic_int ref;
	enum fi_wait_obj wait_obj;
	pthread_mutex_t lock;
	struct uet_dlist events;	/* struct uet_eq_event */
	size_t count, size;
	int fd;				/* eventfd: readable when non-empty */
};

int uet_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		struct fid_eq **eq, void *context);
/* Queue an event; err != NULL for an error event.  0 or -FI_E*. */
int uet_eq_post(struct uet_eq *eq, uint32_t event, const void *buf,
		size_t len, const struct fi_eq_err_entry *err);

/* ------------------------------------------------------------------ */
/* memory region                                                       */
/* ------------------------------------------------------------------ */
struct uet_mr {
	struct fid_mr fid;
	struct uet_domain *domain;
	uint64_t access;
	void *addr;
	size_t len;
	enum fi_hmem_iface iface;	/* fi_mr_attr's (FI_HMEM) */
	uint64_t device;		/* its device.cuda etc. */
	struct uet_cntr *cntr;		/* fi_mr_bind: remote accesses */
	uint64_t cntr_flags;		/* FI_REMOTE_READ / FI_REMOTE_WRITE */
	struct uet_hnode node;		/* in domain->mr_map while cntr */
};

int uet_mr_reg(struct fid *fid, const void *buf, size_t len,
	       uint64_t access, uint64_t offset, uint64_t requested_key,
	       uint64_t flags, struct fid_mr **mr, void *context);
int uet_mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
		uint64_t access, uint64_t offset, uint64_t requested_key,
		uint64_t flags, struct fid_mr **mr, void *context);
int uet_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
		   uint64_t flags, struct fid_mr **mr);
/* A remote access (FI_REMOTE_READ or FI_REMOTE_WRITE) to the memory
 * registered under key landed: count it on the MR's counter, if any. */
void uet_mr_remote_event(struct uet_domain *dom, uint64_t key,
			 uint64_t access);
/* mr_mode bits that change what keys and addresses mean (FI_MR_PROV_KEY,
 * FI_MR_VIRT_ADDR), the v1.0 FI_MR_BASIC / FI_MR_SCALABLE included. */
uint64_t uet_mr_mode_bits(uint64_t mr_mode);

/* ------------------------------------------------------------------ */
/* endpoint                                                            */
/* ------------------------------------------------------------------ */
enum uet_op_kind {
	UET_OP_FREE = 0,
	UET_OP_TX,
	UET_OP_RX,
	UET_OP_PEEK,
	/* peer SRX (uet_peer.c): PEEK|CLAIM of any message, CLAIM receive
	 * into the owner's buffers, CLAIM|DISCARD */
	UET_OP_PEER_PEEK,
	UET_OP_PEER_RX,
	UET_OP_PEER_DISCARD,
};

/* One operation in flight; its index is the command's metadata. */
struct uet_op {
	uint8_t kind;
	bool report;			/* success completion wanted */
	bool silent;			/* fi_inject*: posted without a context,
					 * no CQ entry ever, not even an
					 * error (counters and a warning) */
	bool cancelled;			/* a cancel command was posted */
	uint64_t flags;			/* FI_SEND/FI_RECV|FI_MSG/... */
	void *context;
	void *buf;			/* first buffer (receive) */
	size_t len;			/* total buffer length */
	uint32_t idx;			/* in the table, fixed */
	uint32_t next_free;
	/* An RMA with several remote segments is one command per segment
	 * (uet_rma.c): completions still to come after the next one, and
	 * the first failure among those already in. */
	uint16_t parts_left;
	uint16_t part_status;
	uint8_t part_flags;
	/* Host bounce buffers of device memory (uet_hmem.h), NULL for
	 * host memory: copied back at completion, freed with the op. */
	struct uet_hmem_bounce *hb;
};

/* The operation table grows by chunks of this many (pointers to an op
 * stay valid), up to UET_OP_MAX: posted receives are not limited by
 * rx_attr->size (a receive completes only when its message comes, so an
 * application such as MPI may post any number first). */
#define UET_OP_CHUNK_SHIFT	10
#define UET_OP_CHUNK		(1u << UET_OP_CHUNK_SHIFT)
#define UET_OP_MAX		(1u << 20)

struct uet_ep {
	struct fid_ep fid;
	struct uet_domain *domain;
	struct fi_info *info;
	enum fi_ep_type type;
	uint64_t caps;
	struct uet_hsi_queue *q;
	uint16_t pid, ri;
	bool enabled;			/* under lock (uet_ep_enabled) */

	struct uet_av *av;
	struct uet_sep *sep;		/* context of this scalable ep */
	struct fid_ep **sep_slot;	/* its entry in sep->tx / sep->rx */
	struct uet_cq *tx_cq, *rx_cq;
	bool tx_selective, rx_selective;
	struct uet_cntr *send_cntr, *recv_cntr;
	struct uet_cntr *write_cntr, *read_cntr;	/* FI_WRITE, FI_READ */
	struct uet_cntr *rwrite_cntr, *rread_cntr;	/* FI_REMOTE_* */
	struct uet_eq *eq;

	uint64_t tx_op_flags, rx_op_flags;
	size_t min_multi_recv;
	size_t max_msg_size, inject_size;
	/* Untagged messages' own limits (FI_OPT_MAX_MSG_SIZE,
	 * FI_OPT_INJECT_MSG_SIZE; at most the two above). */
	size_t msg_max_size, msg_inject_size;
	/* Sends with no completion level of at most this many bytes are
	 * copied by the NIC and complete once it holds them (inject
	 * complete): the device's inject limit, at most UET_COPY_MAX, for
	 * FI_EP_RDM; inject_size otherwise (uet_ep_enable). */
	size_t copy_max;
	bool shm_permitted;		/* FI_OPT_SHARED_MEMORY_PERMITTED */
	uint32_t delivery;		/* FI_OPT_UET_DELIVERY */
	uint32_t tclass;		/* FI_OPT_UET_TCLASS */

	pthread_mutex_t lock;		/* ring producer + consumer */
	struct uet_op **op_chunks;	/* nops / UET_OP_CHUNK of them */
	uint32_t nops, free_head;
	uint32_t tx_inflight, rx_inflight, tx_max, rx_max;
	bool doorbell_pending;		/* FI_MORE */
	uint8_t held[64];		/* a receive entry whose continuation
					 * has not been read yet */
	bool held_valid;
	/* The last source uet_av_reverse found (uet_ep_src); under lock.
	 * Valid while rev_gen equals the AV's. */
	struct {
		uint32_t peer, initiator;
		unsigned long gen;
		fi_addr_t addr;
		bool valid;
	} src_last;
	uint64_t src_cached;		/* sources answered from src_last */
	/* peer SRX (FI_PEER, uet_peer.c); under lock */
	struct uet_srx *peer_srx;
	unsigned int peer_peeks;	/* outstanding: 1 tagged, 2 untagged */
	uint64_t peer_claim_seq;
	bool peer_stop;
};

static inline struct uet_ep *uet_ep_of(struct fid_ep *fid)
{
	return uet_container_of(fid, struct uet_ep, fid);
}

static inline void uet_ep_lock(struct uet_ep *ep)
{
	uet_lock(&ep->lock, UET_LOCK_EP);
}

static inline void uet_ep_unlock(struct uet_ep *ep)
{
	uet_unlock(&ep->lock, UET_LOCK_EP);
}

/* ep->enabled is written and read under ep->lock; this reads it for a
 * caller that does not hold the lock. */
static inline bool uet_ep_enabled(struct uet_ep *ep)
{
	bool enabled;

	uet_ep_lock(ep);
	enabled = ep->enabled;
	uet_ep_unlock(ep);
	return enabled;
}

/* Default FI_OPT_MIN_MULTI_RECV. */
#define UET_MIN_MULTI_RECV_DEF	64

int uet_ep_open(struct fid_domain *domain, struct fi_info *info,
		struct fid_ep **ep, void *context);
/* PIDonFEP allocation (uet_ep.c): want < 0 takes the lowest free one;
 * -FI_EADDRINUSE, -FI_ENOSPC. */
int uet_pid_take(struct uet_domain *d, int want, uint16_t *pid);
void uet_pid_put(struct uet_domain *d, uint16_t pid);

/* ------------------------------------------------------------------ */
/* scalable endpoint (uet_sep.c)                                       */
/* ------------------------------------------------------------------ */
/* Most transmit or receive contexts of a scalable endpoint. */
#define UET_SEP_CTX_MAX		UET_EP_CTX_MAX

/* One PIDonFEP; receive context i is the device queue {pid, ri i},
 * transmit context i the queue {pid, ri rx_cnt + i}. */
struct uet_sep {
	struct fid_ep fid;
	struct uet_domain *domain;
	struct fi_info *info;		/* for the contexts: one each */
	atomic_int ref;			/* open contexts */
	uint16_t pid;
	size_t tx_cnt, rx_cnt;
	struct fid_ep **tx, **rx;	/* opened contexts, by index */
	struct uet_av *av;
	bool enabled;
};

int uet_scalable_ep(struct fid_domain *domain, struct fi_info *info,
		    struct fid_ep **sep, void *context);
/* A context endpoint of sep with resource index ri (uet_ep.c). */
int uet_ep_open_ctx(struct uet_sep *sep, struct fi_info *info, uint16_t ri,
		    struct fid_ep **out, void *context);

/* Post a cancel command for a posted receive (uet_msg.c). */
int uet_ep_post_cancel_locked(struct uet_ep *ep, struct uet_op *op);
/* Consume the endpoint's notifications into its CQs and counters. */
void uet_ep_progress(struct uet_ep *ep);
/* Same, with ep->lock held. */
void uet_ep_progress_locked(struct uet_ep *ep);

extern struct fi_ops_msg uet_ep_msg_ops;
extern struct fi_ops_tagged uet_ep_tagged_ops;
extern struct fi_ops_rma uet_ep_rma_ops;		/* uet_rma.c */
extern struct fi_ops_atomic uet_ep_atomic_ops;	/* uet_atomic.c */

/* FI_OPT_UET_* options (uet_ep_opt.c): -FI_ENOPROTOOPT for other names. */
int uet_ep_ext_setopt(struct uet_ep *ep, int optname, const void *optval,
		      size_t optlen);
int uet_ep_ext_getopt(struct uet_ep *ep, int optname, void *optval,
		      size_t *optlen);
/* The HSI queue mode (enum uet_hsi_queue_mode) the endpoint opens. */
uint8_t uet_ep_queue_mode(const struct uet_ep *ep);

/* Every call -FI_ENOSYS (uet_ep.c): DGRAM endpoints, scalable endpoints. */
extern struct fi_ops_rma uet_ep_no_rma_ops;
extern struct fi_ops_atomic uet_ep_no_atomic_ops;

/* The posting path itself: uet_post.h. */
size_t uet_iov_len(const struct iovec *iov, size_t count);
/* Every entry has a base when it has a length, and fits 32 bits. */
bool uet_iov_valid(const struct iovec *iov, size_t count);
/* An SGL entry's length: 32 bits, so a larger buffer is described as its
 * first 4 GiB - 1 bytes (no message is longer: UET_RDM_MAX_MSG_SIZE). */
static inline uint32_t uet_sgl_len(size_t len)
{
	return len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
}
/* Atomics (uet_atomic.c): fi_query_atomic of the domain. */
int uet_query_atomic(struct fid_domain *domain, enum fi_datatype datatype,
		     enum fi_op op, struct fi_atomic_attr *attr,
		     uint64_t flags);

/* Operation table (uet_ep.c); with ep->lock held. */
struct uet_op *uet_op_alloc(struct uet_ep *ep, enum uet_op_kind kind);
/* The largest atomic operand, in bytes, of the domain's device. */
size_t uet_amo_max_bytes(const struct uet_domain *dom);
void uet_op_free(struct uet_ep *ep, struct uet_op *op);
static inline uint32_t uet_op_index(const struct uet_ep *ep,
				    const struct uet_op *op)
{
	(void)ep;
	return op->idx;
}

/* The operation at idx (< ep->nops). */
static inline struct uet_op *uet_op_at(const struct uet_ep *ep, uint32_t idx)
{
	return &ep->op_chunks[idx >> UET_OP_CHUNK_SHIFT]
			     [idx & (UET_OP_CHUNK - 1)];
}

#endif /* UET_PROV_H */
