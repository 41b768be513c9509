/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host-software interface (HSI) descriptor codecs: command queue segment,
 * SGL entry, the notification formats, the QW-violation event and the
 * PCIe phase-1 descriptors.
 *
 * Source: ../shared/spec/hsi-formats.md, as resolved in
 * docs/conformance.md, which lists every layout choice (4.3).
 *
 * Conventions are those of wire/uet_wire.h (same error codes, same
 * encoder/decoder signatures) with two differences:
 *
 * - HSI descriptors live in host memory and cross PCIe: they are
 *   LITTLE-ENDIAN (uet_get_le* / uet_put_le*).
 * - Notification encoders (receive, send completion, event, QW violation,
 *   generic entry) write bytes 0..62 and leave byte 63, the prime marker,
 *   untouched: the notification ring (uet_hsi_notifq.h) stores the marker
 *   last, with release semantics, which is what makes the entry valid.
 *   They still need the whole 64-byte entry (UET_WIRE_ENOBUFS otherwise)
 *   and return UET_HSI_NOTIF_LEN.  The struct's `marker` member is filled
 *   by the decoders (which require 1..13) and ignored by the encoders;
 *   uet_hsi_notif_set_marker() writes it outside a ring.
 *
 * Decoders write the host struct only on success.
 *
 * These constants belong to the HSI layer; they are not wire protocol
 * values and do not use wire/uet_wire_consts.h.
 */
#ifndef UET_HSI_FORMATS_H
#define UET_HSI_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uet_wire.h"

/* ------------------------------------------------------------------ */
/* Sizes                                                               */
/* ------------------------------------------------------------------ */
#define UET_HSI_CMD_SEG_LEN		64
#define UET_HSI_SGL_ENTRY_LEN		32
#define UET_HSI_CMD_EXT_LEN		32	/* E-3, one SGL-entry position */
#define UET_HSI_NOTIF_LEN		64	/* every notification format */
#define UET_HSI_RECV_NOTIF_LEN		UET_HSI_NOTIF_LEN
#define UET_HSI_SEND_CMPL_LEN		UET_HSI_NOTIF_LEN
#define UET_HSI_EVENT_NOTIF_LEN		UET_HSI_NOTIF_LEN
#define UET_HSI_QW_VIOLATION_LEN	UET_HSI_NOTIF_LEN
#define UET_HSI_PCIE_CMD_LEN		64
#define UET_HSI_PCIE_NOTIF_LEN		64

#define UET_HSI_CMD_INLINE_MAX		32	/* bytes 32-63 of a segment */
#define UET_HSI_SGL_INLINE_MAX		24	/* bytes 0-23 of an SGL entry */
#define UET_HSI_RECV_INLINE_MAX		35	/* bytes 28-62 */
#define UET_HSI_NOTIF_SPECIFIC_LEN	59	/* generic view, bytes 4-62 */
#define UET_HSI_PCIE_METADATA_LEN	32
#define UET_HSI_PCIE_PKT_MAX		9216	/* PCIe command packet_length */

/* Byte 63 of every notification: the prime marker, valid in 1..13. */
#define UET_HSI_NOTIF_MARKER_OFF	63
#define UET_HSI_MARKER_MIN		1
#define UET_HSI_MARKER_MAX		13

/* One command = its segment slot + two extra SGL entries per 64-byte slot. */
#define UET_HSI_CMD_SGL_PER_SLOT	2	/* 64 / 32 */
#define UET_HSI_CMD_SGL_COUNT_MAX	255	/* byte 4, u8 */

static inline unsigned int uet_hsi_cmd_nslots(unsigned int sgl_count)
{
	return 1 + (sgl_count + UET_HSI_CMD_SGL_PER_SLOT - 1) /
		   UET_HSI_CMD_SGL_PER_SLOT;
}

static inline bool uet_hsi_marker_valid(unsigned int marker)
{
	return marker >= UET_HSI_MARKER_MIN && marker <= UET_HSI_MARKER_MAX;
}

/* ------------------------------------------------------------------ */
/* Command queue segment: opcode byte and flags byte                   */
/* ------------------------------------------------------------------ */
enum uet_hsi_cmd_family {			/* opcode bits 7:4 */
	UET_HSI_FAMILY_MSG	= 0x1,
	UET_HSI_FAMILY_TAGGED	= 0x2,
	UET_HSI_FAMILY_RMA	= 0x3,
	UET_HSI_FAMILY_ATOMIC	= 0x4,
};

enum uet_hsi_cmd_variant {			/* opcode bits 3:2 */
	UET_HSI_VARIANT_SEND	= 0x0,
	UET_HSI_VARIANT_RECV	= 0x1,
	UET_HSI_VARIANT_INJECT	= 0x2,
	/* 0x3 is invalid */
};

enum uet_hsi_data_src {				/* opcode bit 0 */
	UET_HSI_DATA_INLINE	= 0,
	UET_HSI_DATA_SGL	= 1,
};

#define UET_HSI_OP_FAMILY_SHIFT		4
#define UET_HSI_OP_FAMILY_MASK		0xf0
#define UET_HSI_OP_VARIANT_SHIFT	2
#define UET_HSI_OP_VARIANT_MASK		0x0c
#define UET_HSI_OP_RSVD_MASK		0x02
#define UET_HSI_OP_DATA_SRC_MASK	0x01

#define UET_HSI_CMD_FLAG_FENCE		0x80
#define UET_HSI_CMD_FLAG_COMPLETION	0x40
#define UET_HSI_CMD_FLAG_INJECT		0x20
#define UET_HSI_CMD_FLAG_REMOTE_CQ	0x10
#define UET_HSI_CMD_FLAG_EXT		0x08	/* E-3: command extension */
#define UET_HSI_CMD_FLAG_RSVD_MASK	0x07

/* SGL entry: bit 32 of the little-endian length_flags qword (byte 28). */
#define UET_HSI_SGL_LF_INLINE		(1ull << 32)
#define UET_HSI_SGL_LF_RSVD_MASK	(~0ull << 33)

/* ------------------------------------------------------------------ */
/* Messaging conventions (docs/conformance.md E-3..E-5)                */
/* ------------------------------------------------------------------ */

/*
 * Command extension entry: when a segment has UET_HSI_CMD_FLAG_EXT, the
 * first additional 32-byte entry (k = 0, counted in sgl_count) is a
 * struct uet_hsi_cmd_ext instead of an SGL entry:
 *   0-7 header_data, 8-15 ignore, 16-23 reserved, 24-27 ext_flags,
 *   28-31 reserved (little-endian).
 * Its bytes read as an indirect SGL entry {address = header_data,
 * memory_key = ignore, length = ext_flags}, so the ring helpers
 * uet_hsi_cmdq_post() / uet_hsi_cmdq_take() carry it unchanged; see
 * uet_hsi_cmd_ext_to_sgl() / uet_hsi_cmd_ext_from_sgl().
 */
#define UET_HSI_EXT_HAS_DATA		0x1	/* send: header_data valid */
#define UET_HSI_EXT_DC			0x2	/* send: delivery complete */
#define UET_HSI_EXT_DIRECTED		0x4	/* recv: match dest only */
#define UET_HSI_EXT_PEEK		0x08	/* recv: look, do not take */
#define UET_HSI_EXT_CLAIM		0x10	/* recv: reserve / take claimed */
#define UET_HSI_EXT_DISCARD		0x20	/* recv: drop the message */
#define UET_HSI_EXT_MULTI_RECV		0x40	/* recv (MSG): multi-receive */
#define UET_HSI_EXT_CANCEL		0x80	/* recv: cancel a posted one */
#define UET_HSI_EXT_FLAGS_MASK		0xff	/* others -> ERANGE */

/*
 * RMA and ATOMIC commands (E-6): the extension is required.  Bytes 8-15
 * (the `ignore` of messaging) are the remote address or offset
 * (`remote_addr`); bytes 25, 26 and 27 (bits 31:8 of the little-endian
 * ext_flags word, which stay 0 in messaging commands) are the atomic
 * opcode and datatype (enum uet_amo_op / uet_amo_dtype) and, for a
 * fetching atomic, the number of trailing SGL entries that receive the
 * prior values.  So the extension still reads as an indirect SGL entry.
 */
#define UET_HSI_EXT_AMO_OP_SHIFT	8
#define UET_HSI_EXT_AMO_DTYPE_SHIFT	16
#define UET_HSI_EXT_NRESULT_SHIFT	24

/*
 * The dest field of a messaging command: the peer handle returned by the
 * device's peer_insert (bits 31:0), the target's PIDonFEP (bits 43:32) and
 * resource index (bits 55:44); bits 63:56 are reserved (0).
 */
#define UET_HSI_DEST_PEER_MASK		0xffffffffull
#define UET_HSI_DEST_PID_SHIFT		32
#define UET_HSI_DEST_RI_SHIFT		44
#define UET_HSI_DEST_ID_MASK		0xfffull	/* 12 bits each */
#define UET_HSI_DEST_RSVD_MASK		(0xffull << 56)

#define UET_HSI_DEST(peer, pid, ri)					\
	(((uint64_t)(peer) & UET_HSI_DEST_PEER_MASK) |			\
	 ((uint64_t)(pid) & UET_HSI_DEST_ID_MASK) << UET_HSI_DEST_PID_SHIFT | \
	 ((uint64_t)(ri) & UET_HSI_DEST_ID_MASK) << UET_HSI_DEST_RI_SHIFT)
#define UET_HSI_DEST_PEER(dest)						\
	((uint32_t)((dest) & UET_HSI_DEST_PEER_MASK))
#define UET_HSI_DEST_PID(dest)						\
	((uint16_t)(((dest) >> UET_HSI_DEST_PID_SHIFT) & UET_HSI_DEST_ID_MASK))
#define UET_HSI_DEST_RI(dest)						\
	((uint16_t)(((dest) >> UET_HSI_DEST_RI_SHIFT) & UET_HSI_DEST_ID_MASK))

/* Receive notification src_id when the sender's address is not a peer. */
#define UET_HSI_PEER_UNKNOWN		0xffffffffu

/* ------------------------------------------------------------------ */
/* Notifications                                                       */
/* ------------------------------------------------------------------ */
enum uet_hsi_notif_type {			/* byte 0 */
	UET_HSI_NOTIF_RECV		= 0x00,
	UET_HSI_NOTIF_SEND		= 0x01,
	UET_HSI_NOTIF_EVENT		= 0x02,
	UET_HSI_NOTIF_QW_VIOLATION	= 0x10,
};

#define UET_HSI_RECV_FLAG_INLINE	0x01
#define UET_HSI_RECV_FLAG_CONTINUATION	0x02
/* E-6: an RMA or atomic landed at this queue (no receive consumed):
 * tag = memory key, total_length = bytes, buffer_id_0 = SES opcode. */
#define UET_HSI_RECV_FLAG_RMA		0x04
#define UET_HSI_RECV_FLAG_RSVD_MASK	0xf8

/*
 * The continuation entry of a receive (E-5): the entry after a receive
 * notification with CONTINUATION, type RECV with flags CONTINUATION only.
 * As a uet_hsi_recv_notif: status bit 0 = header_data valid (other status
 * bits reserved), src_id = the sender's SES initiator field (pid_on_fep <<
 * 12 | resource_index, 24 bits), tag = header_data, total_length = bytes
 * that did not fit (truncation), buffer ids and buffer_offset 0, and in
 * inline_data: bytes 0-7 (entry bytes 28-35) the little-endian offset of
 * the message in its multi-receive buffer, byte 8 (entry byte 36) the
 * multi-receive flags, bytes 9-34 reserved (0).  struct uet_hsi_recv_cont
 * and its codec below read and write it.
 */
#define UET_HSI_CONT_HD_VALID		0x0001	/* status bit 0 */
#define UET_HSI_CONT_STATUS_RSVD_MASK	0xfffe
#define UET_HSI_CONT_INITIATOR_MAX	0xffffffu
#define UET_HSI_CONT_MR_OFFSET_OFF	0	/* index into inline_data */
#define UET_HSI_CONT_MR_FLAGS_OFF	8	/* index into inline_data */
#define UET_HSI_CONT_MR_VALID		0x01	/* offset valid */
#define UET_HSI_CONT_MR_RELEASED	0x02	/* last entry of the buffer */
#define UET_HSI_CONT_MR_RSVD_MASK	0xfc

enum uet_hsi_event_type {			/* event notification byte 1 */
	UET_HSI_EVENT_RXPOOL_EXHAUSTED		= 0x01,
	UET_HSI_EVENT_HELD_BUFFER_THRESHOLD	= 0x02,
	UET_HSI_EVENT_CREDIT_STARVATION		= 0x03,
	UET_HSI_EVENT_INVALID_DESCRIPTOR	= 0x04,
	UET_HSI_EVENT_PROTECTION_VIOLATION	= 0x05,
	UET_HSI_EVENT_PCIE_ERROR		= 0x06,
	UET_HSI_EVENT_MAX			= 0x06,
};

enum uet_hsi_severity {				/* event status bits 1:0 */
	UET_HSI_SEV_INFO	= 0,
	UET_HSI_SEV_WARNING	= 1,
	UET_HSI_SEV_ERROR	= 2,
	UET_HSI_SEV_FATAL	= 3,
};

#define UET_HSI_EVENT_SEV_MASK		0x0003
#define UET_HSI_EVENT_CODE_SHIFT	2
#define UET_HSI_EVENT_CODE_MAX		0x3fff	/* status bits 15:2 */

enum uet_hsi_qw_violation_type {		/* QW violation byte 1 */
	UET_HSI_QWV_SUB_QW	= 0x01,
	UET_HSI_QWV_UNALIGNED	= 0x02,
};

/* ------------------------------------------------------------------ */
/* Host-order structs                                                  */
/* ------------------------------------------------------------------ */

/*
 * SGL entry.  Indirect mode (is_inline false): address, memory_key,
 * length; inline_data is ignored by the encoder and zeroed by the
 * decoder.  Inline mode: inline_data (all 24 bytes are carried; length
 * <= 24 says how many are meaningful); address and memory_key are ignored
 * by the encoder and zeroed by the decoder.
 */
struct uet_hsi_sgl_entry {
	bool is_inline;
	uint64_t address;
	uint64_t memory_key;
	uint32_t length;
	uint8_t inline_data[UET_HSI_SGL_INLINE_MAX];
};

/*
 * Command queue segment.  data_src selects bytes 32-63: inline_data (all
 * 32 bytes carried, payload_len <= 32) or sgl (one SGL entry).  sgl_count
 * is the number of additional 32-byte entries in the following ring
 * slots, the command extension included when ext is set (it is entry 0):
 * inline data allows no entry but the extension (sgl_count == ext), and
 * ext needs sgl_count >= 1 (ERANGE otherwise, encode and decode).
 */
struct uet_hsi_cmd_seg {
	uint8_t family;		/* enum uet_hsi_cmd_family */
	uint8_t variant;	/* enum uet_hsi_cmd_variant */
	uint8_t data_src;	/* enum uet_hsi_data_src */
	bool fence;
	bool completion;
	bool inject;
	bool remote_cq;
	bool ext;		/* flags bit 3: entry 0 is a uet_hsi_cmd_ext */
	uint16_t payload_len;
	uint8_t sgl_count;
	uint64_t tag;
	uint64_t dest;
	uint64_t metadata;
	uint8_t inline_data[UET_HSI_CMD_INLINE_MAX];
	struct uet_hsi_sgl_entry sgl;
};

/* Command extension entry (E-3, E-6). */
struct uet_hsi_cmd_ext {
	uint64_t header_data;	/* sent as SES header_data (HAS_DATA) */
	union {
		uint64_t ignore;	/* tagged receive: tag bits to ignore */
		uint64_t remote_addr;	/* RMA / ATOMIC: target address */
	};
	uint32_t ext_flags;	/* UET_HSI_EXT_* (bits 7:0) */
	uint8_t amo_op;		/* ATOMIC: enum uet_amo_op */
	uint8_t amo_dtype;	/* ATOMIC: enum uet_amo_dtype */
	uint8_t nresult;	/* fetching ATOMIC: trailing result entries */
};

struct uet_hsi_recv_notif {
	bool is_inline;		/* flags bit 0 */
	bool continuation;	/* flags bit 1 */
	bool rma;		/* flags bit 2 (E-6) */
	uint16_t status;
	uint32_t src_id;
	uint64_t tag;
	uint32_t total_length;
	uint16_t buffer_id_0;
	uint16_t buffer_id_1;
	uint16_t buffer_offset;
	uint8_t inline_data[UET_HSI_RECV_INLINE_MAX];
	uint8_t marker;		/* decode only */
};

/* A continuation entry (E-5), see UET_HSI_CONT_*. */
struct uet_hsi_recv_cont {
	bool has_data;		/* status bit 0 */
	uint64_t header_data;	/* tag field; 0 without has_data */
	uint32_t olen;		/* total_length: bytes that did not fit */
	uint32_t initiator;	/* src_id: pid_on_fep << 12 | ri, 24 bits */
	bool mr_valid;		/* multi-receive: mr_offset is valid */
	bool mr_released;	/* multi-receive: buffer released */
	uint64_t mr_offset;	/* 0 without mr_valid */
	uint8_t marker;		/* decode only */
};

struct uet_hsi_send_cmpl {
	uint8_t flags;		/* operation-specific, all 8 bits */
	uint16_t status;
	uint64_t op_context;
	uint32_t bytes_sent;
	uint8_t marker;		/* decode only */
};

struct uet_hsi_event_notif {
	uint8_t event_type;	/* enum uet_hsi_event_type */
	uint8_t severity;	/* enum uet_hsi_severity, status bits 1:0 */
	uint16_t status_code;	/* status bits 15:2 */
	uint16_t endpoint_id;
	uint64_t event_data;
	uint64_t timestamp;
	uint8_t marker;		/* decode only */
};

/* Generic 64-byte view shared by every notification. */
struct uet_hsi_notif_entry {
	uint8_t type;		/* enum uet_hsi_notif_type */
	uint8_t flags;
	uint16_t status;
	uint8_t type_specific[UET_HSI_NOTIF_SPECIFIC_LEN];
	uint8_t marker;		/* decode only */
};

struct uet_hsi_qw_violation {
	uint8_t violation_type;	/* enum uet_hsi_qw_violation_type */
	uint16_t endpoint_id;
	uint32_t size_or_offset;
	uint64_t bar_offset;
	uint64_t timestamp;
	uint8_t marker;		/* decode only */
};

struct uet_hsi_pcie_cmd {
	uint8_t op;
	uint8_t flags;
	uint64_t packet_addr;
	uint32_t packet_length;	/* <= UET_HSI_PCIE_PKT_MAX */
	uint8_t metadata[UET_HSI_PCIE_METADATA_LEN];
};

struct uet_hsi_pcie_notif {
	uint8_t type;
	uint8_t flags;
	uint64_t packet_addr;
	uint32_t packet_length;
	uint32_t error_code;
	uint8_t metadata[UET_HSI_PCIE_METADATA_LEN];
};

/* ------------------------------------------------------------------ */
/* Codecs                                                              */
/* ------------------------------------------------------------------ */
ssize_t uet_hsi_sgl_entry_encode(uint8_t *buf, size_t len,
				 const struct uet_hsi_sgl_entry *h);
ssize_t uet_hsi_sgl_entry_decode(struct uet_hsi_sgl_entry *h,
				 const uint8_t *buf, size_t len);

ssize_t uet_hsi_cmd_seg_encode(uint8_t *buf, size_t len,
			       const struct uet_hsi_cmd_seg *h);
ssize_t uet_hsi_cmd_seg_decode(struct uet_hsi_cmd_seg *h,
			       const uint8_t *buf, size_t len);
/* Command extension entry: ext_flags bits outside UET_HSI_EXT_FLAGS_MASK
 * -> ERANGE (encode; the decoder splits the word into ext_flags and the
 * E-6 bytes), non-zero reserved bytes -> ERESERVED (decode). */
ssize_t uet_hsi_cmd_ext_encode(uint8_t *buf, size_t len,
			       const struct uet_hsi_cmd_ext *h);
ssize_t uet_hsi_cmd_ext_decode(struct uet_hsi_cmd_ext *h,
			       const uint8_t *buf, size_t len);
/* The extension as the indirect SGL entry with the same bytes (for
 * uet_hsi_cmdq_post()), and back from one (after uet_hsi_cmdq_take());
 * from_sgl fails with UET_WIRE_ERANGE for an inline entry and leaves *h
 * untouched. */
void uet_hsi_cmd_ext_to_sgl(struct uet_hsi_sgl_entry *sgl,
			    const struct uet_hsi_cmd_ext *h);
int uet_hsi_cmd_ext_from_sgl(struct uet_hsi_cmd_ext *h,
			     const struct uet_hsi_sgl_entry *sgl);

/* Byte 4 of an encoded segment (no other check), or UET_WIRE_ETRUNC. */
int uet_hsi_cmd_seg_peek_sgl_count(const uint8_t *buf, size_t len);
/* The raw opcode (byte 0) and flags (byte 1) of a segment that may not
 * decode, or UET_WIRE_ETRUNC. */
int uet_hsi_cmd_seg_peek_opcode(const uint8_t *buf, size_t len);
int uet_hsi_cmd_seg_peek_flags(const uint8_t *buf, size_t len);
/* The same of a segment known whole (a ring slot): the consumer's look
 * ahead over published commands, no call. */
static inline uint8_t uet_hsi_cmd_seg_opcode_of(const uint8_t *seg)
{
	return seg[0];
}
static inline uint8_t uet_hsi_cmd_seg_flags_of(const uint8_t *seg)
{
	return seg[1];
}
/* The metadata (bytes 24-31) of a segment that may not decode: 0 or
 * UET_WIRE_ETRUNC (then *metadata is untouched). */
int uet_hsi_cmd_seg_peek_metadata(const uint8_t *buf, size_t len,
				  uint64_t *metadata);

ssize_t uet_hsi_recv_notif_encode(uint8_t *buf, size_t len,
				  const struct uet_hsi_recv_notif *h);
ssize_t uet_hsi_recv_notif_decode(struct uet_hsi_recv_notif *h,
				  const uint8_t *buf, size_t len);

/*
 * Continuation entry.  Encode: UET_WIRE_ERANGE for header_data without
 * has_data, mr_offset without mr_valid, or an initiator above 24 bits.
 * Decode: UET_WIRE_ETYPE unless type RECV with flags CONTINUATION (and
 * not INLINE), UET_WIRE_ERESERVED for reserved status / flag bits, non-zero
 * buffer ids, buffer_offset or reserved bytes, UET_WIRE_ERANGE for the
 * values the encoder refuses or a marker outside 1..13.
 */
ssize_t uet_hsi_recv_cont_encode(uint8_t *buf, size_t len,
				 const struct uet_hsi_recv_cont *h);
ssize_t uet_hsi_recv_cont_decode(struct uet_hsi_recv_cont *h,
				 const uint8_t *buf, size_t len);

ssize_t uet_hsi_send_cmpl_encode(uint8_t *buf, size_t len,
				 const struct uet_hsi_send_cmpl *h);
ssize_t uet_hsi_send_cmpl_decode(struct uet_hsi_send_cmpl *h,
				 const uint8_t *buf, size_t len);

ssize_t uet_hsi_event_notif_encode(uint8_t *buf, size_t len,
				   const struct uet_hsi_event_notif *h);
ssize_t uet_hsi_event_notif_decode(struct uet_hsi_event_notif *h,
				   const uint8_t *buf, size_t len);

ssize_t uet_hsi_notif_entry_encode(uint8_t *buf, size_t len,
				   const struct uet_hsi_notif_entry *h);
ssize_t uet_hsi_notif_entry_decode(struct uet_hsi_notif_entry *h,
				   const uint8_t *buf, size_t len);
/*
 * Raw type byte (0..255, not validated) or UET_WIRE_ETRUNC when len is
 * shorter than a whole entry.  For dispatch before a typed decode.
 */
int uet_hsi_notif_peek_type(const uint8_t *buf, size_t len);
/* Raw flags byte (byte 1, not validated) or UET_WIRE_ETRUNC. */
int uet_hsi_notif_peek_flags(const uint8_t *buf, size_t len);
/* A receive notification that a continuation entry follows (type RECV
 * with flags.CONTINUATION); false for anything else or a short buffer. */
bool uet_hsi_notif_has_continuation(const uint8_t *buf, size_t len);
/* Raw byte 63 (not validated) or UET_WIRE_ETRUNC.  Plain load: ring
 * consumers use uet_hsi_notifq, which loads it with acquire semantics. */
int uet_hsi_notif_get_marker(const uint8_t *buf, size_t len);
/* Store byte 63 (plain store): 0, UET_WIRE_ENOBUFS or UET_WIRE_ERANGE. */
int uet_hsi_notif_set_marker(uint8_t *buf, size_t len, unsigned int marker);

ssize_t uet_hsi_qw_violation_encode(uint8_t *buf, size_t len,
				    const struct uet_hsi_qw_violation *h);
ssize_t uet_hsi_qw_violation_decode(struct uet_hsi_qw_violation *h,
				    const uint8_t *buf, size_t len);

ssize_t uet_hsi_pcie_cmd_encode(uint8_t *buf, size_t len,
				const struct uet_hsi_pcie_cmd *h);
ssize_t uet_hsi_pcie_cmd_decode(struct uet_hsi_pcie_cmd *h,
				const uint8_t *buf, size_t len);

ssize_t uet_hsi_pcie_notif_encode(uint8_t *buf, size_t len,
				  const struct uet_hsi_pcie_notif *h);
ssize_t uet_hsi_pcie_notif_decode(struct uet_hsi_pcie_notif *h,
				  const uint8_t *buf, size_t len);

/* Names for logs ("UNKNOWN" for values outside the enum). */
const char *uet_hsi_cmd_family_str(unsigned int family);
const char *uet_hsi_cmd_variant_str(unsigned int variant);
const char *uet_hsi_notif_type_str(unsigned int type);
const char *uet_hsi_event_type_str(unsigned int event_type);
const char *uet_hsi_severity_str(unsigned int severity);
const char *uet_hsi_qw_violation_type_str(unsigned int vtype);

#endif /* UET_HSI_FORMATS_H */
