/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC as an HSI device (uet_snic_dev_ops): consumes command
 * segments from the command ring, runs SES + PDS over a link, and writes
 * notifications with prime markers into the notification ring.
 *
 * What every command and notification field means (the HSI contract,
 * docs/conformance.md E-3..E-6) is in hsi/uet_hsi.h; this header holds
 * what is particular to the software NIC: its configuration, test hooks
 * (explicit clocks, in-memory links) and counters.  The software NIC
 * registers itself with the HSI through uet_snic_backend_register().
 * Its inject limit is UET_SNIC_INJECT_MAX (16384 bytes), its atomic
 * operand limit UET_SES_AMO_MAX (512); mr_reg puts every registration
 * in the SES RI table.
 */
#ifndef UET_SNIC_H
#define UET_SNIC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_hsi.h"
#include "uet_link.h"
#include "uet_pds.h"
#include "uet_ses.h"
#include "uet_tss.h"

extern const struct uet_hsi_dev_ops uet_snic_dev_ops;

/* Register uet_snic_dev_ops as the HSI's SNIC backend (idempotent):
 * uet_hsi_dev_register()'s return value. */
int uet_snic_backend_register(void);
/* The query_counters op (snic/uet_snic_backend.c). */
int uet_snic_query_counters(struct uet_hsi_dev *dev,
			    struct uet_hsi_counters *c);
/* query_peer_pdcs (HSI op): uet_snic_get_peer_pdcs (the PDS fills the
 * HSI's struct). */
int uet_snic_query_peer_pdcs(struct uet_hsi_dev *dev, uint64_t peer,
			     struct uet_hsi_pdc_info *v, unsigned int max);
/* The env_vars and dgram_overhead ops (snic/uet_snic_env.c). */
void uet_snic_env_list(const struct uet_env_var *const **vars, size_t *n);
size_t uet_snic_dgram_overhead(void);

/*
 * The constants and codecs of these conventions live in the HSI layer,
 * hsi/uet_hsi_formats.h, because the provider encodes the commands:
 * UET_HSI_CMD_FLAG_EXT, struct uet_hsi_cmd_ext and its codec,
 * UET_HSI_EXT_HAS_DATA / _DC / _DIRECTED / _PEEK / _CLAIM / _DISCARD /
 * _MULTI_RECV / _CANCEL, UET_HSI_DEST(peer, pid, ri) with
 * UET_HSI_DEST_PEER/_PID/_RI, UET_HSI_PEER_UNKNOWN,
 * UET_HSI_RECV_FLAG_CONTINUATION, and struct uet_hsi_recv_cont with
 * UET_HSI_CONT_* for the continuation entry.
 */

struct uet_snic_cfg {
	size_t mtu;			/* 0: the link's */
	uint64_t rdzv_threshold;
	uint64_t unexp_max_bytes;
	uint32_t unexp_max_msgs;
	uint8_t mode;			/* enum uet_pds_mode for messages */
	struct uet_pds_cfg pds;
};

/* Defaults, then FI_UET_* overrides (docs/environment.md). */
void uet_snic_cfg_default(struct uet_snic_cfg *cfg);
void uet_snic_cfg_from_env(struct uet_snic_cfg *cfg);

/* The FI_UET_* variables of the software NIC, for registration. */
extern const struct uet_env_var *const uet_snic_env_vars[];
extern const size_t uet_snic_env_nvars;

/*
 * Open a software NIC on an existing link (the in-memory link in tests).
 * With own_link the NIC closes the link when it closes.
 */
int uet_snic_open_link(const struct uet_snic_cfg *cfg, uint32_t job_id,
		       struct uet_link *link, bool own_link,
		       struct uet_hsi_dev **dev);

/* Doorbell and progress at an explicit time (fake clocks in tests); the
 * ops-table versions read the monotonic clock. */
int uet_snic_doorbell_at(struct uet_hsi_queue *q, uint64_t now);
int uet_snic_progress_at(struct uet_hsi_dev *dev, uint64_t now);
/*
 * Largest message a queue in UUD mode sends (the single-packet payload):
 * min(mtu - 12 (PDS header, RUD/ROD size) - 32 (SES small-message
 * header), 16383, UET_SNIC_BUF_LARGE 8192), 1408 bytes for the default
 * MTU of 1452.  Also ops->get_limits()->max_single_pkt.
 */
size_t uet_snic_max_single_pkt(struct uet_hsi_dev *dev);
/* Earliest time progress has timer work, UINT64_MAX if none. */
uint64_t uet_snic_next_deadline(struct uet_hsi_dev *dev);

/* Optional auto-progress thread: sleeps in epoll on the link's fd and a
 * timerfd armed for the next deadline; never spins. */
int uet_snic_auto_progress_start(struct uet_hsi_dev *dev);
void uet_snic_auto_progress_stop(struct uet_hsi_dev *dev);
/* Standby under manual progress (uet_hsi_dev_ops.standby): one thread per
 * process progresses a device after idle_ns without a call from its
 * application, until it calls again.  stop is idempotent; close calls it. */
int uet_snic_standby_start(struct uet_hsi_dev *dev, uint64_t idle_ns);
void uet_snic_standby_stop(struct uet_hsi_dev *dev);

struct uet_snic_stats {
	uint64_t cmds, bad_cmds, doorbells;
	uint64_t notifs, notif_deferred, events;
	uint64_t rma_cmds, amo_cmds;	/* RMA / ATOMIC commands submitted */
	uint64_t fence_waits;		/* FENCE commands that had to wait */
	uint64_t rma_notifs;		/* E-6 target notifications */
	uint64_t quiet_passes;		/* progress passes that found nothing
					 * to do (the short path) */
	uint64_t send_first;		/* doorbells whose send ran (and its
					 * datagrams left) before the
					 * receives published ahead of it */
	struct uet_pds_stats pds;
	struct uet_ses_stats ses;
};
void uet_snic_get_stats(struct uet_hsi_dev *dev, struct uet_snic_stats *st);
/*
 * The PDCs open with the NIC of peer (a peer_insert handle), both
 * directions, at most max of them into v: the number open (may exceed
 * max), -ENOENT for an unknown handle, -EINVAL.
 */
int uet_snic_get_peer_pdcs(struct uet_hsi_dev *dev, uint64_t peer,
			   struct uet_hsi_pdc_info *v, unsigned int max);
/* PDS counters of the initiator PDC towards a peer (message mode). */
int uet_snic_get_pdc_stats(struct uet_hsi_dev *dev, uint64_t peer,
			   struct uet_pds_stats *st);

/*
 * Datagrams and requests from the network that the NIC dropped or
 * refused, by cause (docs/software-nic.md, "Hostile network"): a flat
 * array of named counters, for the provider to surface through its
 * extension ops.  Each cause also logs a rate-limited warning (at most
 * one a second) at FI_LOG_LEVEL=warn.
 */
enum uet_snic_drop {
	/* 0 .. UET_HSI_DROP_N - 1: the PDS and SES causes, enum uet_hsi_drop
	 * (hsi/uet_hsi_dev.h); the software NIC adds the TSS ones. */
	UET_SNIC_DROP_TSS_MALFORMED = UET_HSI_DROP_N, /* TSS: short or bad TSS header */
	UET_SNIC_DROP_TSS_AUTH,		/* TSS: tag did not verify */
	UET_SNIC_DROP_TSS_UNPROTECTED,	/* TSS: required, packet had none */
	UET_SNIC_DROP_TSS_REPLAY,	/* TSS: sequence number seen */
	UET_SNIC_DROP_TSS_OLD,		/* TSS: older than the window */
	UET_SNIC_DROP_TSS_STALE,	/* TSS: for another instance here */
	UET_SNIC_DROP_TSS_DOWNGRADE,	/* TSS on: plaintext from a TSS peer */
	UET_SNIC_DROP_N,
};

struct uet_snic_drops {
	uint64_t v[UET_SNIC_DROP_N];
};

/* 0, or -EINVAL for a NULL argument. */
int uet_snic_get_drops(struct uet_hsi_dev *dev, struct uet_snic_drops *d);
/* Short name of a cause ("malformed", "replay", ...), NULL past the end. */
const char *uet_snic_drop_name(unsigned int cause);

/*
 * Transport security (snic/uet_tss.h): the mode in effect and, when it
 * is not UET_TSS_OFF, the TSS link's counters (zeros otherwise).  The
 * secret comes from the open attributes (the auth_key), else from the
 * file FI_UET_TSS_KEY_FILE names; FI_UET_TSS says the mode.  0, -EINVAL.
 */
int uet_snic_get_tss_stats(struct uet_hsi_dev *dev, uint8_t *mode,
			   struct uet_tss_stats *st);
/*
 * The TSS configuration of a NIC for job_id: mode from FI_UET_TSS, the
 * secret from secret (32 bytes, NULL: none) else FI_UET_TSS_KEY_FILE.
 * 0 with tc->mode UET_TSS_OFF when TSS is off; -ENOKEY when the mode asks
 * for TSS and there is no secret; the key file's errors (-EPERM for its
 * owner or mode, -EINVAL for its content, -ENOENT ...).
 */
int uet_snic_tss_cfg(const uint8_t *secret, uint32_t job_id,
		     struct uet_tss_cfg *tc);

#endif /* UET_SNIC_H */
