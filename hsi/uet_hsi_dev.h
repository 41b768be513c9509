/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HSI device: one ops table for every backend the provider can drive.
 *
 * The provider only ever talks to a device through this table: it opens
 * the device on a local address, opens command/notification queue pairs
 * (one per endpoint), writes command segments into the command ring and
 * rings the doorbell, calls progress, and reads notifications.  The
 * software NIC is one backend; a PMR hardware backend would be another.
 * Backends register their ops table with uet_hsi_dev_register() (the
 * software NIC: uet_snic_backend_register(), snic/uet_snic_backend.c);
 * the HSI knows none of them by name.  What every command and
 * notification field means is in uet_hsi.h.
 *
 * Memory keys are 64 bits wide (hsi-formats.md section 4.1); a backend
 * built on verbs keeps the mapping from its 32-bit lkeys/rkeys to these
 * keys inside the backend.
 *
 * Backend selection happens in one place, uet_hsi_dev_select(), steered by
 * FI_UET_DEVICE=auto|snic|pmr.
 */
#ifndef UET_HSI_DEV_H
#define UET_HSI_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_env.h"
#include "uet_hsi_cmdq.h"
#include "uet_hsi_notifq.h"

struct uet_hsi_dev;
struct uet_hsi_queue;

struct uet_hsi_dev_attr {
	const char *host;		/* numeric local address of the port */
	uint16_t port;			/* 0: the backend's default */
	uint32_t job_id;		/* 24 bits */
	/* The job's TSS secret (32 bytes, fi_uet_auth_key), NULL: none. */
	const uint8_t *tss_secret;
	uint8_t wire;			/* enum uet_wire_prof (wire/) */
};

struct uet_hsi_queue_attr {
	uint32_t cmdq_depth;		/* slots, power of two */
	uint32_t notifq_depth;		/* entries, not a multiple of 13 */
	uint16_t pid_on_fep;		/* 12 bits */
	uint16_t resource_index;	/* 12 bits */
	uint8_t mode;			/* delivery mode of the queue's sends:
					 * enum uet_hsi_queue_mode */
	bool rma_events;		/* E-6: a notification for every RMA
					 * or atomic landing at this queue
					 * (else only for those with
					 * header_data) */
};

/* Segments of one registration at most (mr_regv): the provider's
 * mr_iov_limit. */
#define UET_HSI_MR_SEGS_MAX		8

/* mr_reg flags. */
#define UET_HSI_MR_USER_KEY		0x1
#define UET_HSI_MR_VIRT_ADDR		0x2
/* Device (accelerator) memory that neither the device nor the kernel can
 * address: every byte moves in and out of it through the mem ops given
 * with set_mem_ops (never zero copy). */
#define UET_HSI_MR_DEVMEM		0x4

/* How a device copies between host memory and memory registered with
 * UET_HSI_MR_DEVMEM (the provider's accelerator runtime): 0 or a
 * negative errno.  Called from the device's progress, any thread. */
struct uet_hsi_mem_ops {
	int (*to_dev)(void *ctx, void *dev, const void *host, size_t len);
	int (*from_dev)(void *ctx, void *host, const void *dev, size_t len);
	void *ctx;
};

/* mr_reg access rights (HSI values; the provider translates libfabric's
 * FI_READ ... FI_REMOTE_WRITE). */
#define UET_HSI_ACCESS_READ		0x01
#define UET_HSI_ACCESS_WRITE		0x02
#define UET_HSI_ACCESS_SEND		0x04
#define UET_HSI_ACCESS_RECV		0x08
#define UET_HSI_ACCESS_REMOTE_READ	0x10
#define UET_HSI_ACCESS_REMOTE_WRITE	0x20
#define UET_HSI_ACCESS_ALL		0x3f

/* Values of uet_hsi_queue_attr.mode: the device's default delivery mode
 * (FI_UET_DELIVERY for the software NIC), or one named explicitly, which
 * the default does not override.  HSI values, not the PDS's: a backend
 * translates them (the software NIC in snic_queue_mode()). */
enum uet_hsi_queue_mode {
	UET_HSI_QUEUE_MODE_DEFAULT = 0,
	UET_HSI_QUEUE_MODE_RUD = 1,
	UET_HSI_QUEUE_MODE_ROD = 2,
	UET_HSI_QUEUE_MODE_RUDI = 3,
	UET_HSI_QUEUE_MODE_UUD = 4,
};

/* What a device can carry (get_limits). */
struct uet_hsi_dev_limits {
	size_t mtu;			/* largest datagram on the link */
	size_t max_single_pkt;		/* largest message that travels in one
					 * packet in every delivery mode: the
					 * message size limit of UUD queues */
	size_t inject_max;		/* largest INJECT payload */
	size_t max_msg;			/* largest message (RUD / ROD) */
	size_t amo_max;			/* largest atomic operand, bytes */
};

/* Datagrams and requests from the network a device dropped, by cause
 * (uet_hsi_counters.drops[]); the order is that of fi_uet_drop in
 * include/rdma/fi_uet_ext.h. */
enum uet_hsi_drop {
	UET_HSI_DROP_MALFORMED,		/* PDS: undecodable datagrams */
	UET_HSI_DROP_UNKNOWN_PDC,	/* PDS: no such PDC */
	UET_HSI_DROP_WRONG_MODE,	/* PDS: request of another mode */
	UET_HSI_DROP_SYN_REFUSED,	/* PDS: PDC released, SES refused */
	UET_HSI_DROP_SRC_LIMIT,		/* PDS: per-source PDC limit */
	UET_HSI_DROP_REPLAY,		/* PDS: replay of a closed PDC */
	UET_HSI_DROP_SYN_CONFLICT,	/* PDS: syn would reset a busy PDC */
	UET_HSI_DROP_HOLD_LIMIT,	/* PDS: ROD hold bound per PDC */
	UET_HSI_DROP_HOLD_EXPIRED,	/* PDS: PDCs with stale held packets */
	UET_HSI_DROP_SES_MALFORMED,	/* SES: malformed headers */
	UET_HSI_DROP_ADDR,		/* SES: no such endpoint */
	UET_HSI_DROP_MODE,		/* SES: RMA/send in the wrong mode */
	UET_HSI_DROP_OVERLAP,		/* SES: bytes already received */
	UET_HSI_DROP_AHEAD,		/* SES: unexpected data too far ahead */
	UET_HSI_DROP_UNEXP_FULL,	/* SES: unexpected bound (retried) */
	UET_HSI_DROP_MSG_EXPIRED,	/* SES: incomplete messages timed out */
	UET_HSI_DROP_RMA_FULL,		/* SES: write record bound (retried) */
	UET_HSI_DROP_RMA_EXPIRED,	/* SES: incomplete writes timed out */
	UET_HSI_DROP_RMA_KEY,		/* SES: bad or stale memory key */
	UET_HSI_DROP_RMA_ACCESS,	/* SES: permission or range */
	UET_HSI_DROP_RDATA,		/* SES: read data for no READ of ours */
	UET_HSI_DROP_WIRE_MISMATCH,	/* PDS: datagrams of the other wire
					 * profile */
	UET_HSI_DROP_N,
};

/* Transport security mode in effect (uet_hsi_counters.tss_mode). */
enum uet_hsi_tss_mode {
	UET_HSI_TSS_OFF,
	UET_HSI_TSS_ON,
	UET_HSI_TSS_REQUIRED,
};

/* What a device counted since it opened (query_counters). */
struct uet_hsi_counters {
	uint64_t pkts_tx, pkts_rx;	/* datagrams */
	uint64_t bytes_tx, bytes_rx;
	uint64_t retransmissions;
	uint64_t malformed;
	uint64_t pdcs_open;		/* PDCs open now */
	uint64_t drops[UET_HSI_DROP_N];
	uint8_t tss_mode;		/* enum uet_hsi_tss_mode */
	uint64_t tss_tx, tss_rx;	/* datagrams protected / verified */
	uint64_t tss_fail_malformed;	/* short or bad TSS header */
	uint64_t tss_fail_auth;		/* tag did not verify */
	uint64_t tss_fail_unprotected;	/* required, packet had none */
	uint64_t tss_replays;		/* sequence number seen */
	uint64_t tss_too_old;		/* older than the window */
	uint64_t tss_fail_stale;	/* for another instance at this
					 * address (docs/tss.md) */
	uint64_t tss_fail_downgrade;	/* on: plaintext from a TSS peer */
	uint64_t tss_rekeys;
	uint8_t wire;			/* enum uet_wire_prof in effect */
};

/* One PDC between the device and a peer's NIC (query_peer_pdcs). */
struct uet_hsi_pdc_info {
	bool initiator;			/* this device opened it */
	bool established;		/* the peer's PDCID is known */
	uint8_t mode;			/* UET_HSI_QUEUE_MODE_RUD or _ROD */
	uint16_t lpdcid, rpdcid;
	uint32_t tx_next_psn;		/* next PSN to assign */
	uint32_t tx_una_psn;		/* first PSN not known acked */
	uint32_t tx_outstanding;	/* packets sent, not done */
	uint32_t rx_next_psn;		/* cumulative ACK PSN + 1 */
	uint32_t rx_window;		/* PSNs the receive window tracks */
	uint64_t tx_pkts, rx_pkts, retx;
	uint64_t srtt_ns, min_rtt_ns;	/* 0: no RTT sample yet */
};

/* A command/notification queue pair; the rings are shared memory between
 * the provider (producer of commands, consumer of notifications) and the
 * device. */
struct uet_hsi_queue {
	struct uet_hsi_dev *dev;
	struct uet_hsi_cmdq *cmdq;
	struct uet_hsi_notifq *notifq;
};

struct uet_hsi_dev_ops {
	const char *name;
	/* Is a device of this kind present on the machine? */
	bool (*present)(void);
	int (*open)(const struct uet_hsi_dev_attr *attr,
		    struct uet_hsi_dev **dev);
	void (*close)(struct uet_hsi_dev *dev);
	/* The device's fabric address, in the backend's byte format. */
	int (*getname)(struct uet_hsi_dev *dev, void *addr, size_t *len);
	int (*queue_open)(struct uet_hsi_dev *dev,
			  const struct uet_hsi_queue_attr *attr,
			  struct uet_hsi_queue **q);
	void (*queue_close)(struct uet_hsi_queue *q);
	/* Tell the device that the command ring's doorbell moved. */
	int (*doorbell)(struct uet_hsi_queue *q);
	/* Make progress (receive, timers, notifications); returns the number
	 * of events processed or a negative errno. */
	int (*progress)(struct uet_hsi_dev *dev);
	/* A file descriptor to sleep on in epoll, or -1. */
	int (*wait_fd)(struct uet_hsi_dev *dev);
	/* Start (enable) or stop a device-side progress thread that sleeps
	 * until there is work; -ENOTSUP when the backend has none (hardware
	 * progresses by itself and needs none). */
	int (*auto_progress)(struct uet_hsi_dev *dev, bool enable);
	/* Under manual progress: start (enable) or stop a device-side thread
	 * that answers peers (ACKs, retransmissions, responses) while the
	 * application makes no call for a while, the way a hardware NIC
	 * answers without the host; it sleeps while the application calls.
	 * -ENOTSUP when the backend has none or it is switched off. */
	int (*standby)(struct uet_hsi_dev *dev, bool enable);
	/* Map a peer's fabric address to the 64-bit handle commands carry in
	 * their dest field. */
	int (*peer_insert)(struct uet_hsi_dev *dev, const void *addr,
			   size_t len, uint64_t *peer);
	int (*peer_remove)(struct uet_hsi_dev *dev, uint64_t peer);
	/* Register memory for local/remote access (UET_HSI_ACCESS_*
	 * bits); returns a 64-bit key, or with UET_HSI_MR_USER_KEY uses
	 * *key as the key (-EEXIST when in use).  UET_HSI_MR_VIRT_ADDR:
	 * remote requests address the memory by virtual address, else by
	 * offset from addr. */
	int (*mr_reg)(struct uet_hsi_dev *dev, void *addr, size_t len,
		      uint64_t access, uint64_t flags, uint64_t *key);
	/* As mr_reg for a region of nsegs (1..UET_HSI_MR_SEGS_MAX)
	 * segments one after the other: remote offsets (and, with
	 * UET_HSI_MR_VIRT_ADDR, addresses from segs[0].iov_base) run
	 * through them in order.  NULL: one segment only. */
	int (*mr_regv)(struct uet_hsi_dev *dev, const struct iovec *segs,
		       size_t nsegs, uint64_t access, uint64_t flags,
		       uint64_t *key);
	int (*mr_dereg)(struct uet_hsi_dev *dev, uint64_t key);
	/* The copies for UET_HSI_MR_DEVMEM registrations (copied; set
	 * before the first such registration).  NULL: a backend that
	 * serves no device memory (mr_reg refuses the flag). */
	int (*set_mem_ops)(struct uet_hsi_dev *dev,
			   const struct uet_hsi_mem_ops *ops);
	/* The device's size limits (NULL in a backend without them). */
	int (*get_limits)(struct uet_hsi_dev *dev,
			  struct uet_hsi_dev_limits *lim);
	/* Fill c (zeroed by the caller) with the device's counters; NULL
	 * or -EOPNOTSUPP in a backend that keeps none. */
	int (*query_counters)(struct uet_hsi_dev *dev,
			      struct uet_hsi_counters *c);
	/* The PDCs open with the NIC of peer (a peer_insert handle), both
	 * directions, at most max of them into v: how many are open (may
	 * exceed max), -ENOENT for an unknown handle; NULL or -EOPNOTSUPP
	 * in a backend that keeps no such state. */
	int (*query_peer_pdcs)(struct uet_hsi_dev *dev, uint64_t peer,
			       struct uet_hsi_pdc_info *v, unsigned int max);
	/* Bytes the backend's link protection (transport security) takes
	 * from every datagram under the current configuration, before any
	 * device is open (NULL: none). */
	size_t (*dgram_overhead)(void);
	/* The backend's own FI_UET_* variables, for the provider to
	 * register with libfabric (NULL: none). */
	void (*env_vars)(const struct uet_env_var *const **vars, size_t *n);
};

/* Every device starts with its ops table. */
struct uet_hsi_dev {
	const struct uet_hsi_dev_ops *ops;
};

enum uet_hsi_dev_kind {
	UET_HSI_DEV_AUTO = 0,
	UET_HSI_DEV_SNIC = 1,
	UET_HSI_DEV_PMR = 2,
};

/* FI_UET_DEVICE, registered by the provider at load time. */
extern const struct uet_env_var uet_hsi_env_device;

/*
 * Register a backend for a kind (SNIC or PMR; one per kind).  0, also
 * when the same ops are registered again; -EINVAL for a bad kind or a
 * NULL table, -EEXIST when another table holds the kind.  Thread-safe.
 */
int uet_hsi_dev_register(int kind, const struct uet_hsi_dev_ops *ops);
/* The registered backend of a kind, or NULL. */
const struct uet_hsi_dev_ops *uet_hsi_dev_backend(int kind);
/* Forget every registration (tests). */
void uet_hsi_dev_unregister_all(void);

/*
 * Choose a backend from tbl (n entries, indexed by enum uet_hsi_dev_kind;
 * NULL where this build has none) for the requested kind: AUTO takes PMR
 * when its backend reports a present device, else the software NIC; an
 * explicit kind takes that backend or fails with -ENODEV.  Pure: no
 * environment, no logging (for tests).
 */
int uet_hsi_dev_choose(const struct uet_hsi_dev_ops *const *tbl, size_t n,
		       int kind, const struct uet_hsi_dev_ops **ops);

/*
 * The backend for this process: reads FI_UET_DEVICE, probes PMR hardware
 * (enumerating verbs devices when built with rdma-core headers), logs the
 * choice at FI_INFO, among the registered backends.  -ENODEV when the requested backend is unavailable.
 */
int uet_hsi_dev_select(const struct uet_hsi_dev_ops **ops);
/* The backend uet_hsi_dev_select() would choose among the registered
 * ones, without probing or logging (for attributes computed before a
 * device opens).  -ENODEV when there is none. */
int uet_hsi_dev_selected(const struct uet_hsi_dev_ops **ops);

/*
 * Names of verbs devices that look like PMR NICs (name prefix "pmr"),
 * written to buf as a comma-separated list; returns how many were found
 * (0 when the build has no verbs support or there are none).
 */
int uet_hsi_dev_probe_pmr(char *buf, size_t len);

#endif /* UET_HSI_DEV_H */
