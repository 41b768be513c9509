/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC as an HSI device (uet_snic_dev_ops): consumes command
 * segments from the command ring, runs SES + PDS over a link, and writes
 * notifications with prime markers into the notification ring.
 *
 * HSI conventions for messaging commands (docs/conformance.md E-3..E-5):
 *
 * Command segment (hsi/uet_hsi_formats.h):
 *   opcode   family MSG or TAGGED; variant SEND, RECV or INJECT; data
 *            source INLINE (payload_len <= 32 bytes in bytes 32-63) or SGL
 *            (the embedded SGL entry, then sgl_count more entries)
 *   flags    COMPLETION: write a completion on success (errors are always
 *            reported); INJECT: data (up to UET_SNIC_INJECT_MAX, 8192
 *            bytes) is copied at doorbell time, the success completion
 *            is written only with COMPLETION; REMOTE_CQ: header_data present
 *            (in the extension); FENCE: the command (and the queue behind
 *            it) waits until every earlier send, RMA and atomic of the
 *            queue has completed; EXT (bit 3): the first additional
 *            32-byte entry is the command extension, not an SGL entry
 *   tag      match bits (tagged send, tagged receive)
 *   dest     send: UET_HSI_DEST(peer, pid_on_fep, resource_index);
 *            receive with UET_HSI_EXT_DIRECTED: the source to match, in
 *            the same encoding; otherwise ignored
 *   metadata op_context: echoed in the send completion; for receives the
 *            low 32 bits come back as buffer_id_0 (bits 15:0) and
 *            buffer_id_1 (bits 31:16) of the receive notification
 *
 * Command extension entry (32 bytes, little-endian, when flags.EXT):
 *   0-7 header_data (receives: the claim id of CLAIM), 8-15 ignore bits
 *   (tagged receive; MULTI_RECV: the minimum free space; RMA/ATOMIC: the
 *   remote address), 16-23 reserved, 24 ext_flags (UET_HSI_EXT_*), 25
 *   amo_op, 26 amo_dtype, 27 nresult (0 in messaging), 28-31 reserved.
 *
 * RMA and ATOMIC commands (docs/conformance.md E-6; uet_snic_rma.c):
 *   family   RMA: SEND = write (INLINE <= 32 bytes or SGL), INJECT =
 *            write copied at doorbell (<= UET_SNIC_INJECT_MAX), RECV =
 *            read (SGL, indirect entries = the local destination).
 *            ATOMIC: SEND = atomic, INJECT = the same, RECV = fetching
 *            atomic; the operand (INLINE or SGL) is always copied at
 *            doorbell, at most UET_SES_AMO_MAX (512) bytes.
 *   EXT      required: remote_addr (bytes 8-15) = virtual address
 *            (VIRT_ADDR registration) or offset; HAS_DATA / DC only;
 *            amo_op, amo_dtype (enum uet_amo_op / uet_amo_dtype);
 *            nresult: the trailing SGL entries of a fetching atomic that
 *            receive the prior values (exactly the operand's bytes)
 *   tag      the remote memory key; dest as for sends; metadata =
 *            op_context of the send completion
 *   operand  elements of the datatype; CAS family (CSWAP..CSWAP_GT) and
 *            MSWAP: two elements, the swap value then the compare value
 *            (MSWAP: the mask); a fetching atomic READ may have none
 *   errors   malformed: INVALID_DESCRIPTOR + send completion FI_EINVAL
 *            (always, as for messaging); op/datatype not supported:
 *            send completion FI_EOPNOTSUPP, flags 0; UUD queue: send
 *            completion FI_EMSGSIZE; target errors: FI_EACCES (key,
 *            generation, rights), FI_EINVAL (range, alignment),
 *            FI_EOPNOTSUPP, with the target's return code in flags
 *   target   on a queue opened with uet_hsi_queue_attr.rma_events, or
 *            for an access with header_data: a receive notification
 *            with flag RMA, status 0, src_id = the initiator's peer
 *            handle, tag = key, total_length = bytes, buffer_id_0 = SES
 *            opcode (UET_WRITE, UET_READ, UET_ATOMIC,
 *            UET_FETCHING_ATOMIC), + the continuation entry with
 *            header_data; no receive is consumed
 *   mr_reg   every registration goes into the SES RI table (provider
 *            keys, or UET_HSI_MR_USER_KEY: *key, bit 63 clear, -EEXIST
 *            when in use; UET_HSI_MR_VIRT_ADDR); FI_REMOTE_READ/WRITE
 *            are the remote rights
 *
 * Receive features (ext_flags of a RECV; docs/software-nic.md):
 *   PEEK          match unexpected messages only, take nothing; one
 *                 receive notification: status 0 (tag, total_length =
 *                 the whole message, src_id, continuation) or FI_ENOMSG
 *   PEEK|CLAIM    as PEEK, and reserve the message under header_data
 *   CLAIM         receive the message reserved under header_data
 *                 (FI_ENOMSG if none)
 *   CLAIM|DISCARD drop the reserved message: status 0, total_length 0
 *   PEEK|DISCARD  as PEEK, and drop the message found
 *   MULTI_RECV    MSG only, one SGL entry: the buffer takes successive
 *                 messages at increasing offsets until less than ignore
 *                 bytes are left; every completion has the continuation
 *                 with the offset, the last one of the buffer the
 *                 released flag
 *   CANCEL        the posted receive with the same metadata completes
 *                 with FI_ECANCELED; nothing is written if there is none
 *
 * Queues: uet_hsi_queue_attr.mode UET_HSI_QUEUE_MODE_DEFAULT = the device's
 * delivery mode (uet_snic_cfg.mode, FI_UET_DELIVERY), else the enum
 * uet_hsi_queue_mode named (RUD, ROD, RUDI, UUD) for the queue's sends.  A UUD queue sends only
 * single-packet messages (uet_snic_max_single_pkt(), else EMSGSIZE);
 * a lost one is lost, its send completes with status 0.
 *
 * Notifications:
 *   send completion  status 0 or a positive FI_E* code (e.g. FI_ETIMEDOUT
 *                    when the peer stopped answering), flags = the SES
 *                    return code from the target, op_context, bytes_sent
 *   receive          status 0, FI_ETRUNC, FI_ECANCELED or FI_ENOMSG;
 *                    src_id = the sender's peer handle
 *                    (UET_HSI_PEER_UNKNOWN when the source address was
 *                    never inserted); tag; total_length = bytes placed;
 *                    buffer ids from metadata; flags.CONTINUATION when
 *                    a continuation entry follows;
 *                    flags.INLINE with a copy of the message in
 *                    inline_data when it is 1..35 bytes and lies in the
 *                    first receive buffer
 *   continuation     the next entry, type 0 with flags CONTINUATION only:
 *                    tag = header_data, total_length = bytes that did not
 *                    fit (truncation), src_id = the SES initiator field
 *                    (pid_on_fep << 12 | resource_index of the sender),
 *                    status bit 0 = header_data valid, multi-receive
 *                    offset and flags in bytes 28-36 (struct
 *                    uet_hsi_recv_cont).  Written when the message
 *                    carried header_data, was truncated, has a non-zero
 *                    initiator field, or comes from a multi-receive
 *                    buffer.
 *   event            RXPOOL_EXHAUSTED (warning) when an unexpected message
 *                    had to be refused (event_data = refusals so far);
 *                    INVALID_DESCRIPTOR (error) for a malformed command
 *                    (event_data = its command-ring index).
 *   When the notification ring is full, notifications wait in the NIC
 *   (bounded by the commands in flight) and are written by later progress.
 */
#ifndef UET_SNIC_H
#define UET_SNIC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_hsi_dev.h"
#include "uet_link.h"
#include "uet_pds.h"
#include "uet_ses.h"
#include "uet_tss.h"

extern const struct uet_hsi_dev_ops uet_snic_dev_ops;

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

struct uet_snic_stats {
	uint64_t cmds, bad_cmds, doorbells;
	uint64_t notifs, notif_deferred, events;
	uint64_t rma_cmds, amo_cmds;	/* RMA / ATOMIC commands submitted */
	uint64_t fence_waits;		/* FENCE commands that had to wait */
	uint64_t rma_notifs;		/* E-6 target notifications */
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
			   struct uet_pds_pdc_info *v, unsigned int max);
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
	UET_SNIC_DROP_MALFORMED,	/* PDS: undecodable datagrams */
	UET_SNIC_DROP_UNKNOWN_PDC,	/* PDS: no such PDC */
	UET_SNIC_DROP_WRONG_MODE,	/* PDS: request of another mode */
	UET_SNIC_DROP_SYN_REFUSED,	/* PDS: PDC released, SES refused */
	UET_SNIC_DROP_SRC_LIMIT,	/* PDS: per-source PDC limit */
	UET_SNIC_DROP_REPLAY,		/* PDS: replay of a closed PDC */
	UET_SNIC_DROP_SYN_CONFLICT,	/* PDS: syn would reset a busy PDC */
	UET_SNIC_DROP_HOLD_LIMIT,	/* PDS: ROD hold bound per PDC */
	UET_SNIC_DROP_HOLD_EXPIRED,	/* PDS: PDCs with stale held packets */
	UET_SNIC_DROP_SES_MALFORMED,	/* SES: malformed headers */
	UET_SNIC_DROP_ADDR,		/* SES: no such endpoint */
	UET_SNIC_DROP_MODE,		/* SES: RMA/send in the wrong mode */
	UET_SNIC_DROP_OVERLAP,		/* SES: bytes already received */
	UET_SNIC_DROP_AHEAD,		/* SES: unexpected data too far ahead */
	UET_SNIC_DROP_UNEXP_FULL,	/* SES: unexpected bound (retried) */
	UET_SNIC_DROP_MSG_EXPIRED,	/* SES: incomplete messages timed out */
	UET_SNIC_DROP_RMA_FULL,		/* SES: write record bound (retried) */
	UET_SNIC_DROP_RMA_EXPIRED,	/* SES: incomplete writes timed out */
	UET_SNIC_DROP_RMA_KEY,		/* SES: bad or stale memory key */
	UET_SNIC_DROP_RMA_ACCESS,	/* SES: permission or range */
	UET_SNIC_DROP_TSS_MALFORMED,	/* TSS: short or bad TSS header */
	UET_SNIC_DROP_TSS_AUTH,		/* TSS: tag did not verify */
	UET_SNIC_DROP_TSS_UNPROTECTED,	/* TSS: required, packet had none */
	UET_SNIC_DROP_TSS_REPLAY,	/* TSS: sequence number seen */
	UET_SNIC_DROP_TSS_OLD,		/* TSS: older than the window */
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
