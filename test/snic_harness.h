/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test harness for the software NIC as an HSI device (snic/uet_snic.h).
 *
 * Everything goes through the HSI, as the provider would use it: command
 * segments, SGL entries and the command extension are encoded into the
 * command ring (uet_hsi_cmdq_reserve + in-place encoding), the doorbell is
 * published and rung, and notifications are polled from the notification
 * ring and decoded.  Nothing here looks inside the device.
 *
 * Three levels:
 *
 *   snh_nic     one NIC and one queue pair: post commands (snh_post),
 *               ring the doorbell (snh_ring), poll and decode
 *               notifications (snh_poll; a receive and its continuation
 *               entry are handed over together as one snh_notif).
 *
 *   snh_world   two NICs on an in-memory fabric (uet_link_mem) driven by
 *               a fake clock: snh_world_step() progresses both at the
 *               same fake time, polls their rings, and advances the clock
 *               by one quantum after activity (notifications written or
 *               polled, datagrams sent or received), else straight to
 *               the next deadline of a running NIC or the next delivery
 *               of the fabric.  NIC 0 is "A", NIC 1 is "B"; each has the
 *               other inserted as its peer.  A NIC can be stopped (not
 *               progressed) or held (progressed, ring not polled).
 *
 *   snh_traffic a message plan (mixed sizes, tagged and untagged, some
 *               with header_data, both directions) and a pump per NIC
 *               that pre-posts receives and posts sends in rolling
 *               windows, verifies every notification (byte-exact data,
 *               tag, header_data from the continuation entry, source,
 *               lengths, exactly-once delivery, send status) and records
 *               the first failure as text.  The two pumps only share
 *               the number of receives each side has posted (atomic), so
 *               each NIC can be driven by its own thread.
 *
 * Functions return 0 or a negative errno value unless stated; the harness
 * never calls libcheck, so it may run in any thread.
 */
#ifndef SNIC_HARNESS_H
#define SNIC_HARNESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_hsi_dev.h"
#include "uet_hsi_formats.h"
#include "uet_link_mem.h"
#include "uet_snic.h"

#define SNH_US			1000ull
#define SNH_MS			1000000ull
#define SNH_SEC			1000000000ull

#define SNH_CMDQ_DEPTH		256
#define SNH_NOTIFQ_DEPTH	1000	/* not a multiple of 13 */
#define SNH_MAX_SEG		4	/* SGL entries for one buffer */
#define SNH_MAX_RES		4	/* result entries (fetching atomic) */
#define SNH_PORT_A		4793
#define SNH_PORT_B		4794
#define SNH_JOB			0x1234u
#define SNH_ERR_LEN		256

struct snh_nic;
struct snh_world;

/* One decoded notification; a receive carries its continuation entry. */
struct snh_notif {
	uint8_t type;			/* enum uet_hsi_notif_type */
	struct uet_hsi_recv_notif recv;
	bool has_cont;
	struct uet_hsi_recv_notif cont;	/* the entry as a receive ... */
	struct uet_hsi_recv_cont contx;	/* ... and as a continuation */
	struct uet_hsi_send_cmpl send;
	struct uet_hsi_event_notif event;
};

typedef void (*snh_notif_fn)(struct snh_nic *nic, const struct snh_notif *n,
			     void *arg);

struct snh_nic {
	struct snh_world *w;		/* NULL: real clock, ops table */
	int idx;
	struct uet_hsi_dev *dev;
	struct uet_hsi_queue *q;
	uint32_t job_id;
	uint16_t pid, ri;
	uint8_t qmode;			/* queue_attr.mode at open */
	bool rma_events;		/* queue_attr.rma_events at open */
	uint64_t peer;			/* the other NIC's handle here */
	bool stopped;			/* world: not progressed */
	bool hold;			/* progress without polling */
	snh_notif_fn fn;
	void *arg;
	/* decoder */
	bool cont_wait;
	struct snh_notif pend;
	/* counters */
	uint64_t notifs, recvs, conts, sends, events, bad;
	uint64_t progress_err;		/* progress returned < 0 */
	int last_progress_err;
	char err[SNH_ERR_LEN];		/* first decoding problem */
};

/* A messaging command.  buf/len is split into nseg SGL entries (the
 * first one embedded in the segment), unless inline_data. */
struct snh_cmd {
	uint8_t family;			/* UET_HSI_FAMILY_MSG, _TAGGED */
	uint8_t variant;		/* UET_HSI_VARIANT_SEND / _RECV */
	bool completion;
	bool remote_cq;
	bool inline_data;		/* INLINE data source, len <= 32 */
	uint64_t tag;
	uint64_t dest;
	uint64_t metadata;
	void *buf;
	size_t len;
	unsigned int nseg;		/* 1..SNH_MAX_SEG; 0 means 1 */
	bool ext;			/* write the extension entry */
	struct uet_hsi_cmd_ext extv;
	/* E-6 */
	bool fence;			/* flag FENCE */
	bool inject;			/* flag INJECT */
	void *res;			/* fetching atomic: res/res_len split */
	size_t res_len;			/* into nres trailing SGL entries */
	unsigned int nres;		/* (extv.nresult is the caller's) */
};

/* ---- one NIC ---- */

/* The number of SGL-side entries (extension + extra SGL) of c. */
unsigned int snh_cmd_sgl_count(const struct snh_cmd *c);
/* Reserve and encode c in the command ring (not yet published).
 * 0, -EAGAIN (ring full: progress and retry), -EINVAL, or a codec error. */
int snh_post(struct snh_nic *n, const struct snh_cmd *c);
/* Publish what was posted and ring the device's doorbell (at the world's
 * fake time, or through the ops table). */
int snh_ring(struct snh_nic *n);
/* Post + ring, retrying -EAGAIN after a progress round (a world step,
 * or this NIC's progress) a bounded number of times. */
int snh_post_ring(struct snh_nic *n, const struct snh_cmd *c);
/* Poll and decode every available notification, calling n->fn for each
 * complete one; returns the number of ring entries consumed. */
unsigned int snh_poll(struct snh_nic *n);
/* Progress the NIC once (fake time or ops) and poll; returns activity. */
unsigned int snh_nic_progress(struct snh_nic *n);

/* Open a NIC with the ops table (UDP), one queue pair. */
int snh_nic_open_udp(struct snh_nic *n, const char *host, uint32_t job_id,
		     uint16_t pid, uint16_t ri);
/* Open the queue pair of an already open device. */
int snh_nic_open_queue(struct snh_nic *n, uint32_t cmdq_depth,
		       uint32_t notifq_depth);
void snh_nic_close(struct snh_nic *n);
/* Insert each NIC's address (getname) into the other (peer_insert). */
int snh_connect(struct snh_nic *a, struct snh_nic *b);
/* The dest field for a command on `from` addressed to the queue of `to`
 * (from->peer is to's handle at from, set by snh_connect). */
static inline uint64_t snh_dest(const struct snh_nic *from,
				const struct snh_nic *to)
{
	return UET_HSI_DEST(from->peer, to->pid, to->ri);
}

/* ---- two NICs on the in-memory fabric, fake clock ---- */

/* Optional: wrap NIC idx's in-memory link (e.g. in a tap that inspects
 * datagrams); the wrapper owns inner and closes it when it is closed. */
typedef struct uet_link *(*snh_link_wrap_fn)(struct uet_link *inner, int idx,
					     void *arg);

struct snh_world_cfg {
	snh_link_wrap_fn wrap;
	void *wrap_arg;
	struct uet_snic_cfg snic[2];
	uint32_t job[2];
	uint16_t pid[2], ri[2];
	uint8_t qmode[2];		/* queue_attr.mode (0: device's) */
	bool rma_events[2];		/* queue_attr.rma_events */
	size_t mtu;			/* fabric MTU */
	uint64_t seed;			/* fabric PRNG */
	struct uet_link_mem_faults faults;
	uint32_t cmdq_depth, notifq_depth;
	uint64_t quantum_ns;		/* clock step after activity */
	uint64_t start_ns;
};

struct snh_world {
	struct uet_link_mem_fabric *fab;
	struct snh_nic nic[2];
	uint64_t now;
	uint64_t quantum_ns;
	uint64_t steps;
};

void snh_world_cfg_default(struct snh_world_cfg *c);
int snh_world_open(struct snh_world *w, const struct snh_world_cfg *c);
void snh_world_close(struct snh_world *w);
/* Progress both NICs (unless stopped) at w->now, poll, advance time.
 * Returns the activity count (0: idle). */
unsigned int snh_world_step(struct snh_world *w);
/* Step until pump(arg) returns true (it is called before every step and
 * may post commands), or max_ns of fake time / max_steps steps passed.
 * Returns whether pump finished. */
typedef bool (*snh_pump_fn)(void *arg);
bool snh_world_run(struct snh_world *w, snh_pump_fn pump, void *arg,
		   uint64_t max_ns, uint64_t max_steps);
/* Step until the fabric and both NICs are idle or max_ns passed. */
void snh_world_settle(struct snh_world *w, uint64_t max_ns);

/* ---- message traffic ---- */

/* Payload pattern: bytes 0-3 the message id (LE), 4-7 id ^ SNH_ID_XOR,
 * then a function of (id, offset); shorter messages only the latter. */
#define SNH_ID_XOR		0x5a5a5a5au
uint8_t snh_pat(uint32_t id, size_t i);
void snh_fill(uint8_t *buf, size_t len, uint32_t id);
/* Offset of the first wrong byte, or len when all match. */
size_t snh_check(const uint8_t *buf, size_t len, uint32_t id);
/* The same for the first n bytes of a len-byte message. */
size_t snh_check_part(const uint8_t *buf, size_t n, size_t len, uint32_t id);

struct snh_msg {
	uint32_t id;
	uint8_t from;			/* sending NIC */
	bool tagged;
	bool has_hd;
	bool inline_src;
	uint8_t nseg;			/* send SGL entries */
	uint8_t rseg;			/* receive SGL entries */
	uint32_t len;
	uint32_t rlen;			/* receive buffer (tagged) */
	uint64_t tag;
	uint64_t rtag, ignore;		/* the receive's tag, ignore */
	uint64_t hd;
	/* state: send side by the sender's thread, receive side by the
	 * receiver's */
	uint8_t send_state;		/* 0 new, 1 posted, 2 completed */
	uint8_t nrecv;
	uint8_t *sbuf;
};

struct snh_rslot {
	bool busy;
	uint32_t msg;			/* tagged: the message; else ~0u */
	uint8_t *buf;
	size_t len;
};

struct snh_traffic;

struct snh_tside {
	struct snh_traffic *t;
	struct snh_nic *nic;
	int idx;
	uint32_t *out, nout, next_out, out_done;
	uint32_t *in, nin, next_in, in_done;
	_Atomic uint32_t in_posted;	/* read by the other side */
	_Atomic bool done;
	struct snh_rslot *slots;
	uint32_t nslots;
	uint64_t bytes_out, bytes_in;
	uint64_t events;
	uint64_t eagain;
};

struct snh_traffic_cfg {
	uint32_t n;			/* messages, both directions */
	uint64_t seed;
	uint32_t max_len;		/* largest message */
	uint64_t rdzv_threshold;	/* for the "across" size class */
	uint64_t max_volume;		/* total payload bytes */
	uint32_t window;		/* outstanding per side and kind */
	uint32_t untag_max;		/* untagged messages <= this */
	/* size classes, per 10000: small (0..1024), multi (1K..16K),
	 * across the threshold (thr/2..2*thr), large (256K..max_len) */
	uint32_t pm_small, pm_multi, pm_across;
	uint32_t pm_tagged;		/* per 10000 (when allowed) */
	uint32_t pm_hd;
	bool one_max;			/* one message of max_len */
};

struct snh_traffic {
	struct snh_traffic_cfg cfg;
	struct snh_msg *msgs;
	uint32_t n;
	uint64_t volume;
	struct snh_tside side[2];
	_Atomic bool failed;
	char err[SNH_ERR_LEN];
	/* classes generated (for reports) */
	uint32_t n_small, n_multi, n_across, n_large, n_tagged, n_hd;
	uint32_t max_seen;
	_Atomic uint32_t inline_rx;	/* receives that came inline too */
};

void snh_traffic_cfg_default(struct snh_traffic_cfg *c);
int snh_traffic_init(struct snh_traffic *t, const struct snh_traffic_cfg *c,
		     struct snh_nic *a, struct snh_nic *b);
void snh_traffic_fini(struct snh_traffic *t);
/* Post what the windows allow on side s (receives first, then sends),
 * ring once; returns the number of commands posted. */
unsigned int snh_traffic_pump(struct snh_traffic *t, int s);
/* The notification callback installed on both NICs by init. */
void snh_traffic_notif(struct snh_nic *nic, const struct snh_notif *n,
		       void *arg);
bool snh_traffic_side_done(const struct snh_traffic *t, int s);
bool snh_traffic_done(const struct snh_traffic *t);
/* Pump for snh_world_run: both sides, done when both are or on failure. */
bool snh_traffic_world_pump(void *arg);
/* Record a failure (first one wins); thread safe. */
void snh_traffic_fail(struct snh_traffic *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text summary of progress (for failure messages). */
void snh_traffic_describe(const struct snh_traffic *t, char *buf, size_t len);

#endif /* SNIC_HARNESS_H */
