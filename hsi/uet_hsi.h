/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HSI contract: what a backend (the software NIC in snic/, a PMR
 * hardware driver) must do with every command and notification field,
 * and what the provider may rely on.  This is the one header a backend
 * author reads; it includes the rest of the HSI:
 *
 *   uet_hsi_dev.h      the device ops table, backend registration
 *   uet_hsi_formats.h  command segment, SGL entry and notification codecs
 *                      (hsi-formats.md as resolved in docs/conformance.md)
 *   uet_hsi_cmdq.h     the command ring (producer: provider)
 *   uet_hsi_notifq.h   the notification ring with prime markers
 *                      (producer: device)
 *
 * Values that cross the HSI belong to it: notification status codes are
 * enum uet_hsi_status (below), memory access rights UET_HSI_ACCESS_*,
 * queue delivery modes UET_HSI_QUEUE_MODE_*.  The provider translates
 * them to and from libfabric's (prov/uet/uet_status.c); a backend
 * translates its own internal codes (uet_hsi_status_from_errno() for
 * errno values).
 *
 * HSI conventions for messaging commands (docs/conformance.md E-3..E-5):
 *
 * Command segment (hsi/uet_hsi_formats.h):
 *   opcode   family MSG or TAGGED; variant SEND, RECV or INJECT; data
 *            source INLINE (payload_len <= 32 bytes in bytes 32-63) or SGL
 *            (the embedded SGL entry, then sgl_count more entries)
 *   flags    COMPLETION: write a completion on success (errors are always
 *            reported); INJECT: data (up to get_limits()->inject_max,
 *            16384 bytes in the software NIC) is copied at doorbell time, the success completion
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
 * RMA and ATOMIC commands (docs/conformance.md E-6):
 *   family   RMA: SEND = write (INLINE <= 32 bytes or SGL), INJECT =
 *            write copied at doorbell (<= inject_max), RECV =
 *            read (SGL, indirect entries = the local destination).
 *            ATOMIC: SEND = atomic, INJECT = the same, RECV = fetching
 *            atomic; the operand (INLINE or SGL) is always copied at
 *            doorbell, at most get_limits()->amo_max (512) bytes.
 *   EXT      required: remote_addr (bytes 8-15) = virtual address
 *            (VIRT_ADDR registration) or offset; HAS_DATA / DC only;
 *            amo_op, amo_dtype (enum uet_amo_op / uet_amo_dtype, wire/);
 *            nresult: the trailing SGL entries of a fetching atomic that
 *            receive the prior values (exactly the operand's bytes)
 *   tag      the remote memory key; dest as for sends; metadata =
 *            op_context of the send completion
 *   operand  elements of the datatype; CAS family (CSWAP..CSWAP_GT) and
 *            MSWAP: two elements, the swap value then the compare value
 *            (MSWAP: the mask); a fetching atomic READ may have none
 *   errors   malformed: INVALID_DESCRIPTOR + send completion INVALID
 *            (always, as for messaging); op/datatype not supported:
 *            send completion NOT_SUPPORTED, flags 0; UUD queue: send
 *            completion TOO_LONG; target errors: ACCESS (key,
 *            generation, rights), INVALID (range, alignment),
 *            NOT_SUPPORTED, with the target's return code in flags
 *   target   on a queue opened with uet_hsi_queue_attr.rma_events, or
 *            for an access with header_data: a receive notification
 *            with flag RMA, status 0, src_id = the initiator's peer
 *            handle, tag = key, total_length = bytes, buffer_id_0 = SES
 *            opcode (UET_WRITE, UET_READ, UET_ATOMIC,
 *            UET_FETCHING_ATOMIC), + the continuation entry with
 *            header_data; no receive is consumed
 *   mr_reg   every registration is a remote key (provider keys, or UET_HSI_MR_USER_KEY: *key, bit 63 clear, -EEXIST
 *            when in use; UET_HSI_MR_VIRT_ADDR); UET_HSI_ACCESS_REMOTE_READ/
 *            WRITE are the remote rights
 *
 * Receive features (ext_flags of a RECV; docs/software-nic.md):
 *   PEEK          match unexpected messages only, take nothing; one
 *                 receive notification: status 0 (tag, total_length =
 *                 the whole message, src_id, continuation) or NO_MSG
 *   PEEK|CLAIM    as PEEK, and reserve the message under header_data
 *   CLAIM         receive the message reserved under header_data
 *                 (NO_MSG if none)
 *   CLAIM|DISCARD drop the reserved message: status 0, total_length 0
 *   PEEK|DISCARD  as PEEK, and drop the message found
 *   MULTI_RECV    MSG only, one SGL entry: the buffer takes successive
 *                 messages at increasing offsets until less than ignore
 *                 bytes are left; every completion has the continuation
 *                 with the offset, the last one of the buffer the
 *                 released flag
 *   CANCEL        the posted receive with the same metadata completes
 *                 with CANCELED; nothing is written if there is none
 *
 * Queues: uet_hsi_queue_attr.mode UET_HSI_QUEUE_MODE_DEFAULT = the
 * device's delivery mode (the software NIC's FI_UET_DELIVERY), else the
 * enum uet_hsi_queue_mode named (RUD, ROD, RUDI, UUD) for the queue's
 * sends, which the default does not override.  A UUD queue sends
 * only single-packet messages (get_limits()->max_single_pkt, else
 * TOO_LONG);
 * a lost one is lost, its send completes with status 0.
 *
 * Notifications:
 *   send completion  status UET_HSI_ST_OK or an enum uet_hsi_status
 *                    (e.g. TIMED_OUT when the peer stopped answering), flags = the SES
 *                    return code from the target, op_context, bytes_sent
 *   receive          status OK, TRUNCATED, CANCELED or NO_MSG;
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
 *   When the notification ring is full, notifications wait in the device
 *   (bounded by the commands in flight) and are written by later progress.
 */
#ifndef UET_HSI_H
#define UET_HSI_H

#include <stdint.h>

#include "uet_hsi_dev.h"
#include "uet_hsi_formats.h"

/*
 * Status of a notification (the 16-bit status field of send completions
 * and receive notifications).  HSI values, not errno or FI_E* codes;
 * the numbers are part of the contract and never change.
 */
enum uet_hsi_status {
	UET_HSI_ST_OK = 0,
	UET_HSI_ST_TRUNCATED = 1,	/* message longer than the buffers */
	UET_HSI_ST_CANCELED = 2,	/* CANCEL, queue closed */
	UET_HSI_ST_NO_MSG = 3,		/* PEEK / CLAIM found nothing */
	UET_HSI_ST_TIMED_OUT = 4,	/* the peer stopped answering */
	UET_HSI_ST_INVALID = 5,		/* malformed command; remote range
					 * or alignment */
	UET_HSI_ST_NOT_SUPPORTED = 6,	/* operation / datatype */
	UET_HSI_ST_TOO_LONG = 7,	/* message too long for the queue */
	UET_HSI_ST_ACCESS = 8,		/* remote key, generation, rights */
	UET_HSI_ST_NO_ADDR = 9,		/* dest is not an inserted peer */
	UET_HSI_ST_NO_MEM = 10,		/* device out of resources */
	UET_HSI_ST_IO = 11,		/* link or device I/O error */
	UET_HSI_ST_HOST_UNREACHABLE = 12, /* no route to the peer's host */
	UET_HSI_ST_CONN_RESET = 13,	/* the peer reset the connection */
	UET_HSI_ST_CONN_REFUSED = 14,	/* the peer refused it */
	UET_HSI_ST_AGAIN = 15,		/* transient, may be retried */
	UET_HSI_ST_FAULT = 16,		/* bad buffer address */
	UET_HSI_ST_PROTOCOL = 17,	/* protocol error from the peer */
	UET_HSI_ST_NOT_CONNECTED = 18,	/* no connection to the peer */
	UET_HSI_ST_NOT_FOUND = 19,	/* no such object at the target */
	UET_HSI_ST_NET_UNREACHABLE = 20, /* no route to the peer's network */
	UET_HSI_ST_NO_SPACE = 21,	/* a device table is full */
	UET_HSI_ST_NO_BUFS = 22,	/* out of buffers */
	UET_HSI_ST_NO_PEER = 23,	/* no such peer handle */
	UET_HSI_ST_PERMISSION = 24,	/* not permitted */
	UET_HSI_ST_RANGE = 25,		/* value out of range */
	UET_HSI_ST_BAD_MSG = 26,	/* reserved bits set */
	UET_HSI_ST_BUSY = 27,		/* resource busy */
	UET_HSI_ST_ALREADY = 28,	/* already in progress */
	UET_HSI_ST_OTHER = 255,		/* anything else */
};

/*
 * The status for a negative errno value (0 and positive values: OK),
 * UET_HSI_ST_OTHER for errno values without their own status.
 */
uint16_t uet_hsi_status_from_errno(int err);
/* The positive errno value closest to a status (0 for OK; EIO for OTHER,
 * TRUNCATED: EOVERFLOW), for backends and tests that speak errno. */
int uet_hsi_status_to_errno(uint16_t status);
/* Short name ("truncated"), "unknown" outside the enum. */
const char *uet_hsi_status_str(uint16_t status);

#endif /* UET_HSI_H */
