/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI descriptor codecs (little-endian).  Layouts: hsi-formats.md as
 * resolved in docs/conformance.md, which lists every field (4.3).
 */
#include <string.h>

#include "uet_hsi_formats.h"
#include "uet_wire_fields.h"

/* ---- field sizes, checked against the format lengths ---- */

/* SGL entry: address, memory_key, reserved/QW2, length_flags. */
_Static_assert(8 + 8 + 8 + 8 == UET_HSI_SGL_ENTRY_LEN, "SGL entry size");
_Static_assert(UET_HSI_SGL_INLINE_MAX == 8 + 8 + 8, "SGL inline area");

/* Command extension: header_data, ignore, reserved, ext_flags, reserved. */
_Static_assert(8 + 8 + 8 + 4 + 4 == UET_HSI_CMD_EXT_LEN,
	       "command extension size");
_Static_assert(UET_HSI_CMD_EXT_LEN == UET_HSI_SGL_ENTRY_LEN,
	       "the extension takes one SGL entry position");

/* Segment: opcode, flags, payload_len, sgl_count, rsvd, tag, dest,
 * metadata, data. */
_Static_assert(1 + 1 + 2 + 1 + 3 + 8 + 8 + 8 + 32 == UET_HSI_CMD_SEG_LEN,
	       "command segment size");
_Static_assert(UET_HSI_CMD_INLINE_MAX == UET_HSI_SGL_ENTRY_LEN,
	       "segment data area holds one SGL entry");
_Static_assert(UET_HSI_CMD_SGL_PER_SLOT * UET_HSI_SGL_ENTRY_LEN ==
	       UET_HSI_CMD_SEG_LEN, "two extra SGL entries per ring slot");

/* Receive: type, flags, status, src_id, tag, total_length, buf_id_0,
 * buf_id_1, buf_off, rsvd, inline_data, marker. */
_Static_assert(1 + 1 + 2 + 4 + 8 + 4 + 2 + 2 + 2 + 2 +
	       UET_HSI_RECV_INLINE_MAX + 1 == UET_HSI_RECV_NOTIF_LEN,
	       "receive notification size");

/* Send completion: type, flags, status, rsvd0, op_context, bytes_sent,
 * rsvd1 (43), marker. */
_Static_assert(1 + 1 + 2 + 4 + 8 + 4 + 43 + 1 == UET_HSI_SEND_CMPL_LEN,
	       "send completion size");

/* Event: type, event_type, status, endpoint_id, rsvd0, event_data,
 * timestamp, rsvd1 (39), marker. */
_Static_assert(1 + 1 + 2 + 2 + 2 + 8 + 8 + 39 + 1 == UET_HSI_EVENT_NOTIF_LEN,
	       "event notification size");

/* Generic: type, flags, status, type-specific, marker. */
_Static_assert(1 + 1 + 2 + UET_HSI_NOTIF_SPECIFIC_LEN + 1 == UET_HSI_NOTIF_LEN,
	       "notification entry size");

/* QW violation: event_type, violation_type, endpoint_id, size_or_offset,
 * bar_offset, timestamp, rsvd (39), marker. */
_Static_assert(1 + 1 + 2 + 4 + 8 + 8 + 39 + 1 == UET_HSI_QW_VIOLATION_LEN,
	       "QW violation event size");

/* PCIe command: opcode qword, packet_addr, packet_length, rsvd,
 * metadata, rsvd.  Notification: status qword, packet_addr,
 * packet_length, error_code, metadata, rsvd. */
_Static_assert(8 + 8 + 4 + 4 + UET_HSI_PCIE_METADATA_LEN + 8 ==
	       UET_HSI_PCIE_CMD_LEN, "PCIe command descriptor size");
_Static_assert(8 + 8 + 4 + 4 + UET_HSI_PCIE_METADATA_LEN + 8 ==
	       UET_HSI_PCIE_NOTIF_LEN, "PCIe notification descriptor size");

_Static_assert(UET_HSI_NOTIF_MARKER_OFF == UET_HSI_NOTIF_LEN - 1,
	       "marker is the last byte");

/* ---- byte offsets private to this file ---- */

#define SGL_OFF_ADDR		0
#define SGL_OFF_KEY		8
#define SGL_OFF_QW2		16
#define SGL_OFF_LEN_FLAGS	24

#define EXT_OFF_HDR_DATA	0
#define EXT_OFF_IGNORE		8
#define EXT_OFF_RSVD0		16
#define EXT_RSVD0_LEN		8
#define EXT_OFF_FLAGS		24
#define EXT_OFF_RSVD1		28
#define EXT_RSVD1_LEN		4

#define SEG_OFF_OPCODE		0
#define SEG_OFF_FLAGS		1
#define SEG_OFF_PAYLOAD_LEN	2
#define SEG_OFF_SGL_COUNT	4
#define SEG_OFF_RSVD		5
#define SEG_RSVD_LEN		3
#define SEG_OFF_TAG		8
#define SEG_OFF_DEST		16
#define SEG_OFF_METADATA	24
#define SEG_OFF_DATA		32

#define NOTIF_OFF_TYPE		0
#define NOTIF_OFF_FLAGS		1
#define NOTIF_OFF_STATUS	2
#define NOTIF_OFF_SPECIFIC	4

#define RECV_OFF_SRC_ID		4
#define RECV_OFF_TAG		8
#define RECV_OFF_TOTAL_LEN	16
#define RECV_OFF_BUF_ID_0	20
#define RECV_OFF_BUF_ID_1	22
#define RECV_OFF_BUF_OFF	24
#define RECV_OFF_RSVD		26
#define RECV_RSVD_LEN		2
#define RECV_OFF_INLINE		28

#define SEND_OFF_RSVD0		4
#define SEND_RSVD0_LEN		4
#define SEND_OFF_OP_CONTEXT	8
#define SEND_OFF_BYTES_SENT	16
#define SEND_OFF_RSVD1		20
#define SEND_RSVD1_LEN		43

#define EVT_OFF_EVENT_TYPE	1
#define EVT_OFF_STATUS		2
#define EVT_OFF_ENDPOINT	4
#define EVT_OFF_RSVD0		6
#define EVT_RSVD0_LEN		2
#define EVT_OFF_DATA		8
#define EVT_OFF_TIMESTAMP	16
#define EVT_OFF_RSVD1		24
#define EVT_RSVD1_LEN		39

#define QWV_OFF_VTYPE		1
#define QWV_OFF_ENDPOINT	2
#define QWV_OFF_SIZE		4
#define QWV_OFF_BAR		8
#define QWV_OFF_TIMESTAMP	16
#define QWV_OFF_RSVD		24
#define QWV_RSVD_LEN		39

#define PCIE_OFF_QW0		0	/* opcode / status qword */
#define PCIE_OFF_ADDR		8
#define PCIE_OFF_LEN		16
#define PCIE_OFF_WORD5		20	/* cmd: reserved; notif: error_code */
#define PCIE_OFF_METADATA	24
#define PCIE_OFF_RSVD		56
#define PCIE_RSVD_LEN		8

/* ------------------------------------------------------------------ */
/* SGL entry                                                           */
/* ------------------------------------------------------------------ */

static int sgl_check(const struct uet_hsi_sgl_entry *h)
{
	if (h->is_inline && h->length > UET_HSI_SGL_INLINE_MAX)
		return UET_WIRE_ERANGE;
	return 0;
}

/* Caller has checked the room and the values. */
static void sgl_put(uint8_t *p, const struct uet_hsi_sgl_entry *h)
{
	uint64_t lf = h->length;

	if (h->is_inline) {
		memcpy(p, h->inline_data, UET_HSI_SGL_INLINE_MAX);
		lf |= UET_HSI_SGL_LF_INLINE;
	} else {
		uet_put_le64(p + SGL_OFF_ADDR, h->address);
		uet_put_le64(p + SGL_OFF_KEY, h->memory_key);
		uet_put_le64(p + SGL_OFF_QW2, 0);
	}
	uet_put_le64(p + SGL_OFF_LEN_FLAGS, lf);
}

/* Whether the entry at p decodes (the caller has checked the length):
 * 0 or the UET_WIRE_E* code. */
static int sgl_valid(const uint8_t *p)
{
	uint64_t lf = uet_get_le64(p + SGL_OFF_LEN_FLAGS);

	if (lf & UET_HSI_SGL_LF_RSVD_MASK)
		return UET_WIRE_ERESERVED;
	if (lf & UET_HSI_SGL_LF_INLINE) {
		if ((uint32_t)lf > UET_HSI_SGL_INLINE_MAX)
			return UET_WIRE_ERANGE;
	} else if (!uet_bytes_are_zero(p + SGL_OFF_QW2, 8)) {
		return UET_WIRE_ERESERVED;
	}
	return 0;
}

/* Decode the entry at p, which sgl_valid() accepted: every field of h
 * written (the ones its kind does not use zero). */
static void sgl_fill(struct uet_hsi_sgl_entry *h, const uint8_t *p)
{
	uint64_t lf = uet_get_le64(p + SGL_OFF_LEN_FLAGS);

	h->is_inline = !!(lf & UET_HSI_SGL_LF_INLINE);
	h->length = (uint32_t)lf;
	if (h->is_inline) {
		h->address = 0;
		h->memory_key = 0;
		memcpy(h->inline_data, p, UET_HSI_SGL_INLINE_MAX);
	} else {
		h->address = uet_get_le64(p + SGL_OFF_ADDR);
		h->memory_key = uet_get_le64(p + SGL_OFF_KEY);
		memset(h->inline_data, 0, UET_HSI_SGL_INLINE_MAX);
	}
}

/* Caller has checked the length. */
static int sgl_get(struct uet_hsi_sgl_entry *h, const uint8_t *p)
{
	int ret = sgl_valid(p);

	if (ret)
		return ret;
	memset(h, 0, sizeof(*h));	/* the padding too */
	sgl_fill(h, p);
	return 0;
}

ssize_t uet_hsi_sgl_entry_encode(uint8_t *buf, size_t len,
				 const struct uet_hsi_sgl_entry *h)
{
	int ret;

	if (len < UET_HSI_SGL_ENTRY_LEN)
		return UET_WIRE_ENOBUFS;
	ret = sgl_check(h);
	if (ret)
		return ret;
	sgl_put(buf, h);
	return UET_HSI_SGL_ENTRY_LEN;
}

ssize_t uet_hsi_sgl_entry_decode(struct uet_hsi_sgl_entry *h,
				 const uint8_t *buf, size_t len)
{
	struct uet_hsi_sgl_entry t;
	int ret;

	if (len < UET_HSI_SGL_ENTRY_LEN)
		return UET_WIRE_ETRUNC;
	ret = sgl_get(&t, buf);
	if (ret)
		return ret;
	*h = t;
	return UET_HSI_SGL_ENTRY_LEN;
}

/* ------------------------------------------------------------------ */
/* Command queue segment                                               */
/* ------------------------------------------------------------------ */

static bool family_valid(unsigned int family)
{
	return family >= UET_HSI_FAMILY_MSG && family <= UET_HSI_FAMILY_ATOMIC;
}

static bool variant_valid(unsigned int variant)
{
	return variant <= UET_HSI_VARIANT_INJECT;
}

ssize_t uet_hsi_cmd_seg_encode(uint8_t *buf, size_t len,
			       const struct uet_hsi_cmd_seg *h)
{
	uint8_t opcode, flags;
	int ret;

	if (len < UET_HSI_CMD_SEG_LEN)
		return UET_WIRE_ENOBUFS;
	if (!family_valid(h->family) || !variant_valid(h->variant) ||
	    h->data_src > UET_HSI_DATA_SGL)
		return UET_WIRE_ERANGE;
	if (h->ext && !h->sgl_count)
		return UET_WIRE_ERANGE;
	if (h->data_src == UET_HSI_DATA_INLINE) {
		if (h->sgl_count != (h->ext ? 1 : 0) ||
		    h->payload_len > UET_HSI_CMD_INLINE_MAX)
			return UET_WIRE_ERANGE;
	} else {
		ret = sgl_check(&h->sgl);
		if (ret)
			return ret;
	}

	opcode = (uint8_t)(h->family << UET_HSI_OP_FAMILY_SHIFT |
			   h->variant << UET_HSI_OP_VARIANT_SHIFT |
			   h->data_src);
	flags = (uint8_t)((h->fence ? UET_HSI_CMD_FLAG_FENCE : 0) |
			  (h->completion ? UET_HSI_CMD_FLAG_COMPLETION : 0) |
			  (h->inject ? UET_HSI_CMD_FLAG_INJECT : 0) |
			  (h->remote_cq ? UET_HSI_CMD_FLAG_REMOTE_CQ : 0) |
			  (h->ext ? UET_HSI_CMD_FLAG_EXT : 0));

	buf[SEG_OFF_OPCODE] = opcode;
	buf[SEG_OFF_FLAGS] = flags;
	uet_put_le16(buf + SEG_OFF_PAYLOAD_LEN, h->payload_len);
	buf[SEG_OFF_SGL_COUNT] = h->sgl_count;
	memset(buf + SEG_OFF_RSVD, 0, SEG_RSVD_LEN);
	uet_put_le64(buf + SEG_OFF_TAG, h->tag);
	uet_put_le64(buf + SEG_OFF_DEST, h->dest);
	uet_put_le64(buf + SEG_OFF_METADATA, h->metadata);
	if (h->data_src == UET_HSI_DATA_INLINE)
		memcpy(buf + SEG_OFF_DATA, h->inline_data,
		       UET_HSI_CMD_INLINE_MAX);
	else
		sgl_put(buf + SEG_OFF_DATA, &h->sgl);
	return UET_HSI_CMD_SEG_LEN;
}

/*
 * Every check first, then the fields straight into h (the command path
 * decodes two segments per round trip: no temporary copy).  h is left
 * untouched on error.
 */
ssize_t uet_hsi_cmd_seg_decode(struct uet_hsi_cmd_seg *h,
			       const uint8_t *buf, size_t len)
{
	uint8_t opcode, flags, family, variant, data_src, sgl_count;
	uint16_t payload_len;
	bool ext;
	int ret;

	if (len < UET_HSI_CMD_SEG_LEN)
		return UET_WIRE_ETRUNC;
	opcode = buf[SEG_OFF_OPCODE];
	flags = buf[SEG_OFF_FLAGS];
	if ((opcode & UET_HSI_OP_RSVD_MASK) ||
	    (flags & UET_HSI_CMD_FLAG_RSVD_MASK) ||
	    !uet_bytes_are_zero(buf + SEG_OFF_RSVD, SEG_RSVD_LEN))
		return UET_WIRE_ERESERVED;
	family = (opcode & UET_HSI_OP_FAMILY_MASK) >> UET_HSI_OP_FAMILY_SHIFT;
	variant = (opcode & UET_HSI_OP_VARIANT_MASK) >> UET_HSI_OP_VARIANT_SHIFT;
	data_src = opcode & UET_HSI_OP_DATA_SRC_MASK;
	if (!family_valid(family) || !variant_valid(variant))
		return UET_WIRE_ERANGE;
	ext = !!(flags & UET_HSI_CMD_FLAG_EXT);
	payload_len = uet_get_le16(buf + SEG_OFF_PAYLOAD_LEN);
	sgl_count = buf[SEG_OFF_SGL_COUNT];
	if (ext && !sgl_count)
		return UET_WIRE_ERANGE;
	if (data_src == UET_HSI_DATA_INLINE) {
		if (sgl_count != (ext ? 1 : 0) ||
		    payload_len > UET_HSI_CMD_INLINE_MAX)
			return UET_WIRE_ERANGE;
	} else {
		ret = sgl_valid(buf + SEG_OFF_DATA);
		if (ret)
			return ret;
	}

	h->family = family;
	h->variant = variant;
	h->data_src = data_src;
	h->fence = !!(flags & UET_HSI_CMD_FLAG_FENCE);
	h->completion = !!(flags & UET_HSI_CMD_FLAG_COMPLETION);
	h->inject = !!(flags & UET_HSI_CMD_FLAG_INJECT);
	h->remote_cq = !!(flags & UET_HSI_CMD_FLAG_REMOTE_CQ);
	h->ext = ext;
	h->payload_len = payload_len;
	h->sgl_count = sgl_count;
	h->tag = uet_get_le64(buf + SEG_OFF_TAG);
	h->dest = uet_get_le64(buf + SEG_OFF_DEST);
	h->metadata = uet_get_le64(buf + SEG_OFF_METADATA);
	if (data_src == UET_HSI_DATA_INLINE) {
		memcpy(h->inline_data, buf + SEG_OFF_DATA,
		       UET_HSI_CMD_INLINE_MAX);
		memset(&h->sgl, 0, sizeof(h->sgl));
	} else {
		memset(h->inline_data, 0, UET_HSI_CMD_INLINE_MAX);
		sgl_fill(&h->sgl, buf + SEG_OFF_DATA);
	}
	return UET_HSI_CMD_SEG_LEN;
}

/* ------------------------------------------------------------------ */
/* Command extension entry (E-3)                                       */
/* ------------------------------------------------------------------ */

/* ext_flags word: flags in bits 7:0, the E-6 atomic bytes above. */
static uint32_t ext_word(const struct uet_hsi_cmd_ext *h)
{
	return h->ext_flags |
	       (uint32_t)h->amo_op << UET_HSI_EXT_AMO_OP_SHIFT |
	       (uint32_t)h->amo_dtype << UET_HSI_EXT_AMO_DTYPE_SHIFT |
	       (uint32_t)h->nresult << UET_HSI_EXT_NRESULT_SHIFT;
}

static void ext_word_split(struct uet_hsi_cmd_ext *h, uint32_t w)
{
	h->ext_flags = w & UET_HSI_EXT_FLAGS_MASK;
	h->amo_op = (uint8_t)(w >> UET_HSI_EXT_AMO_OP_SHIFT);
	h->amo_dtype = (uint8_t)(w >> UET_HSI_EXT_AMO_DTYPE_SHIFT);
	h->nresult = (uint8_t)(w >> UET_HSI_EXT_NRESULT_SHIFT);
}

ssize_t uet_hsi_cmd_ext_encode(uint8_t *buf, size_t len,
			       const struct uet_hsi_cmd_ext *h)
{
	if (len < UET_HSI_CMD_EXT_LEN)
		return UET_WIRE_ENOBUFS;
	if (h->ext_flags & ~(uint32_t)UET_HSI_EXT_FLAGS_MASK)
		return UET_WIRE_ERANGE;
	uet_put_le64(buf + EXT_OFF_HDR_DATA, h->header_data);
	uet_put_le64(buf + EXT_OFF_IGNORE, h->ignore);
	memset(buf + EXT_OFF_RSVD0, 0, EXT_RSVD0_LEN);
	uet_put_le32(buf + EXT_OFF_FLAGS, ext_word(h));
	memset(buf + EXT_OFF_RSVD1, 0, EXT_RSVD1_LEN);
	return UET_HSI_CMD_EXT_LEN;
}

ssize_t uet_hsi_cmd_ext_decode(struct uet_hsi_cmd_ext *h,
			       const uint8_t *buf, size_t len)
{
	struct uet_hsi_cmd_ext t;

	if (len < UET_HSI_CMD_EXT_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + EXT_OFF_RSVD0, EXT_RSVD0_LEN) ||
	    !uet_bytes_are_zero(buf + EXT_OFF_RSVD1, EXT_RSVD1_LEN))
		return UET_WIRE_ERESERVED;
	ext_word_split(&t, uet_get_le32(buf + EXT_OFF_FLAGS));
	t.header_data = uet_get_le64(buf + EXT_OFF_HDR_DATA);
	t.ignore = uet_get_le64(buf + EXT_OFF_IGNORE);
	*h = t;
	return UET_HSI_CMD_EXT_LEN;
}

void uet_hsi_cmd_ext_to_sgl(struct uet_hsi_sgl_entry *sgl,
			    const struct uet_hsi_cmd_ext *h)
{
	memset(sgl, 0, sizeof(*sgl));
	sgl->address = h->header_data;
	sgl->memory_key = h->ignore;
	sgl->length = ext_word(h);
}

int uet_hsi_cmd_ext_from_sgl(struct uet_hsi_cmd_ext *h,
			     const struct uet_hsi_sgl_entry *sgl)
{
	if (sgl->is_inline)
		return UET_WIRE_ERANGE;
	h->header_data = sgl->address;
	h->ignore = sgl->memory_key;
	ext_word_split(h, sgl->length);
	return 0;
}

/* Byte off of an entry of size need: the byte or UET_WIRE_ETRUNC. */
static int peek_u8(const uint8_t *buf, size_t len, size_t need, size_t off)
{
	if (len < need)
		return UET_WIRE_ETRUNC;
	return buf[off];
}

int uet_hsi_cmd_seg_peek_sgl_count(const uint8_t *buf, size_t len)
{
	return peek_u8(buf, len, UET_HSI_CMD_SEG_LEN, SEG_OFF_SGL_COUNT);
}

int uet_hsi_cmd_seg_peek_opcode(const uint8_t *buf, size_t len)
{
	return peek_u8(buf, len, UET_HSI_CMD_SEG_LEN, SEG_OFF_OPCODE);
}

int uet_hsi_cmd_seg_peek_flags(const uint8_t *buf, size_t len)
{
	return peek_u8(buf, len, UET_HSI_CMD_SEG_LEN, SEG_OFF_FLAGS);
}

int uet_hsi_cmd_seg_peek_metadata(const uint8_t *buf, size_t len,
				  uint64_t *metadata)
{
	if (len < UET_HSI_CMD_SEG_LEN)
		return UET_WIRE_ETRUNC;
	*metadata = uet_get_le64(buf + SEG_OFF_METADATA);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Notifications: common helpers                                       */
/* ------------------------------------------------------------------ */

/* Type byte and marker of a whole entry; len already checked. */
static int notif_check_head(const uint8_t *buf, uint8_t type)
{
	if (buf[NOTIF_OFF_TYPE] != type)
		return UET_WIRE_ETYPE;
	return 0;
}

static int notif_check_marker(const uint8_t *buf)
{
	if (!uet_hsi_marker_valid(buf[UET_HSI_NOTIF_MARKER_OFF]))
		return UET_WIRE_ERANGE;
	return 0;
}

int uet_hsi_notif_peek_type(const uint8_t *buf, size_t len)
{
	return peek_u8(buf, len, UET_HSI_NOTIF_LEN, NOTIF_OFF_TYPE);
}

int uet_hsi_notif_peek_flags(const uint8_t *buf, size_t len)
{
	return peek_u8(buf, len, UET_HSI_NOTIF_LEN, NOTIF_OFF_FLAGS);
}

bool uet_hsi_notif_has_continuation(const uint8_t *buf, size_t len)
{
	return uet_hsi_notif_peek_type(buf, len) == UET_HSI_NOTIF_RECV &&
	       (uet_hsi_notif_peek_flags(buf, len) &
		UET_HSI_RECV_FLAG_CONTINUATION);
}

int uet_hsi_notif_get_marker(const uint8_t *buf, size_t len)
{
	if (len < UET_HSI_NOTIF_LEN)
		return UET_WIRE_ETRUNC;
	return buf[UET_HSI_NOTIF_MARKER_OFF];
}

int uet_hsi_notif_set_marker(uint8_t *buf, size_t len, unsigned int marker)
{
	if (len < UET_HSI_NOTIF_LEN)
		return UET_WIRE_ENOBUFS;
	if (!uet_hsi_marker_valid(marker))
		return UET_WIRE_ERANGE;
	buf[UET_HSI_NOTIF_MARKER_OFF] = (uint8_t)marker;
	return 0;
}

/*
 * Formats that are a list of fields (uet_wire_fields.h), the type byte
 * (UET_WF_K) included; uet_wf_encode/uet_wf_decode run them.  Decode
 * order: type (ETYPE), reserved bits (ERESERVED), values and then the
 * marker (ERANGE).  The marker is the ring's to write: encoders skip it.
 */
static bool marker_ok(uint64_t marker)
{
	return uet_hsi_marker_valid((unsigned int)marker);
}

/* The marker of a notification: read and checked by decoders only. */
#define HSI_MARKER(type)						\
	UET_WF_U(type, marker, UET_HSI_NOTIF_MARKER_OFF, 1,		\
		 .flags = UET_WF_DECODE_ONLY, .ok = marker_ok)
/* The type byte of a notification. */
#define HSI_TYPE(value)		UET_WF_K(NOTIF_OFF_TYPE, 1, value)

/* Typed entry points of the format whose table is fields and whose
 * length is need (uet_hsi_formats.h). */
#define HSI_CODEC(name, type, fields, need)				\
	static const struct uet_wf_table name##_table =			\
		UET_WF_TABLE(fields, UET_WF_LE);			\
	ssize_t uet_hsi_##name##_encode(uint8_t *buf, size_t len,	\
					const type *h)			\
	{								\
		return uet_wf_encode(&name##_table, need, buf, len, h);	\
	}								\
	ssize_t uet_hsi_##name##_decode(type *h, const uint8_t *buf,	\
					size_t len)			\
	{								\
		return uet_wf_decode(&name##_table, need, sizeof(type),	\
				     h, buf, len);			\
	}

/* ------------------------------------------------------------------ */
/* Receive notification                                                */
/* ------------------------------------------------------------------ */

static const struct uet_wire_field recv_notif_fields[] = {
	HSI_TYPE(UET_HSI_NOTIF_RECV),
	UET_WF_BIT(struct uet_hsi_recv_notif, is_inline, NOTIF_OFF_FLAGS, 1,
		   0, 1),
	UET_WF_BIT(struct uet_hsi_recv_notif, continuation, NOTIF_OFF_FLAGS,
		   1, 1, 1),
	UET_WF_BIT(struct uet_hsi_recv_notif, rma, NOTIF_OFF_FLAGS, 1, 2, 1),
	UET_WF_RB(NOTIF_OFF_FLAGS, 1, 3, 5),	/* RECV_FLAG_RSVD_MASK */
	UET_WF_U(struct uet_hsi_recv_notif, status, NOTIF_OFF_STATUS, 2),
	UET_WF_U(struct uet_hsi_recv_notif, src_id, RECV_OFF_SRC_ID, 4),
	UET_WF_U(struct uet_hsi_recv_notif, tag, RECV_OFF_TAG, 8),
	UET_WF_U(struct uet_hsi_recv_notif, total_length, RECV_OFF_TOTAL_LEN,
		 4),
	UET_WF_U(struct uet_hsi_recv_notif, buffer_id_0, RECV_OFF_BUF_ID_0, 2),
	UET_WF_U(struct uet_hsi_recv_notif, buffer_id_1, RECV_OFF_BUF_ID_1, 2),
	UET_WF_U(struct uet_hsi_recv_notif, buffer_offset, RECV_OFF_BUF_OFF, 2),
	UET_WF_R(RECV_OFF_RSVD, RECV_RSVD_LEN),
	UET_WF_B(struct uet_hsi_recv_notif, inline_data, RECV_OFF_INLINE),
	HSI_MARKER(struct uet_hsi_recv_notif),
};

_Static_assert(UET_HSI_RECV_FLAG_INLINE == 1 << 0 &&
	       UET_HSI_RECV_FLAG_CONTINUATION == 1 << 1 &&
	       UET_HSI_RECV_FLAG_RMA == 1 << 2 &&
	       UET_HSI_RECV_FLAG_RSVD_MASK == 0xf8, "receive flag bits");

HSI_CODEC(recv_notif, struct uet_hsi_recv_notif, recv_notif_fields,
	  UET_HSI_RECV_NOTIF_LEN)

/* ------------------------------------------------------------------ */
/* Receive continuation entry (E-5)                                    */
/* ------------------------------------------------------------------ */

#define CONT_OFF_MR_OFFSET	(RECV_OFF_INLINE + UET_HSI_CONT_MR_OFFSET_OFF)
#define CONT_OFF_MR_FLAGS	(RECV_OFF_INLINE + UET_HSI_CONT_MR_FLAGS_OFF)
#define CONT_OFF_RSVD		(CONT_OFF_MR_FLAGS + 1)
#define CONT_RSVD_LEN		(UET_HSI_NOTIF_MARKER_OFF - CONT_OFF_RSVD)

static bool cont_values_ok(bool has_data, uint64_t header_data,
			   bool mr_valid, uint64_t mr_offset,
			   uint32_t initiator)
{
	return (has_data || !header_data) && (mr_valid || !mr_offset) &&
	       initiator <= UET_HSI_CONT_INITIATOR_MAX;
}

ssize_t uet_hsi_recv_cont_encode(uint8_t *buf, size_t len,
				 const struct uet_hsi_recv_cont *h)
{
	if (len < UET_HSI_RECV_NOTIF_LEN)
		return UET_WIRE_ENOBUFS;
	if (!cont_values_ok(h->has_data, h->header_data, h->mr_valid,
			    h->mr_offset, h->initiator))
		return UET_WIRE_ERANGE;
	memset(buf, 0, UET_HSI_NOTIF_MARKER_OFF);
	buf[NOTIF_OFF_TYPE] = UET_HSI_NOTIF_RECV;
	buf[NOTIF_OFF_FLAGS] = UET_HSI_RECV_FLAG_CONTINUATION;
	uet_put_le16(buf + NOTIF_OFF_STATUS,
		     h->has_data ? UET_HSI_CONT_HD_VALID : 0);
	uet_put_le32(buf + RECV_OFF_SRC_ID, h->initiator);
	uet_put_le64(buf + RECV_OFF_TAG, h->header_data);
	uet_put_le32(buf + RECV_OFF_TOTAL_LEN, h->olen);
	uet_put_le64(buf + CONT_OFF_MR_OFFSET, h->mr_offset);
	buf[CONT_OFF_MR_FLAGS] =
		(uint8_t)((h->mr_valid ? UET_HSI_CONT_MR_VALID : 0) |
			  (h->mr_released ? UET_HSI_CONT_MR_RELEASED : 0));
	return UET_HSI_RECV_NOTIF_LEN;
}

ssize_t uet_hsi_recv_cont_decode(struct uet_hsi_recv_cont *h,
				 const uint8_t *buf, size_t len)
{
	struct uet_hsi_recv_cont t;
	uint16_t status;
	uint8_t mrf;
	int ret;

	if (len < UET_HSI_RECV_NOTIF_LEN)
		return UET_WIRE_ETRUNC;
	ret = notif_check_head(buf, UET_HSI_NOTIF_RECV);
	if (ret)
		return ret;
	if (buf[NOTIF_OFF_FLAGS] != UET_HSI_RECV_FLAG_CONTINUATION)
		return (buf[NOTIF_OFF_FLAGS] & UET_HSI_RECV_FLAG_RSVD_MASK) ?
		       UET_WIRE_ERESERVED : UET_WIRE_ETYPE;
	status = uet_get_le16(buf + NOTIF_OFF_STATUS);
	mrf = buf[CONT_OFF_MR_FLAGS];
	if ((status & UET_HSI_CONT_STATUS_RSVD_MASK) ||
	    (mrf & UET_HSI_CONT_MR_RSVD_MASK) ||
	    !uet_bytes_are_zero(buf + RECV_OFF_BUF_ID_0,
				RECV_OFF_INLINE - RECV_OFF_BUF_ID_0) ||
	    !uet_bytes_are_zero(buf + CONT_OFF_RSVD, CONT_RSVD_LEN))
		return UET_WIRE_ERESERVED;
	t.has_data = !!(status & UET_HSI_CONT_HD_VALID);
	t.header_data = uet_get_le64(buf + RECV_OFF_TAG);
	t.olen = uet_get_le32(buf + RECV_OFF_TOTAL_LEN);
	t.initiator = uet_get_le32(buf + RECV_OFF_SRC_ID);
	t.mr_valid = !!(mrf & UET_HSI_CONT_MR_VALID);
	t.mr_released = !!(mrf & UET_HSI_CONT_MR_RELEASED);
	t.mr_offset = uet_get_le64(buf + CONT_OFF_MR_OFFSET);
	if (!cont_values_ok(t.has_data, t.header_data, t.mr_valid,
			    t.mr_offset, t.initiator))
		return UET_WIRE_ERANGE;
	ret = notif_check_marker(buf);
	if (ret)
		return ret;
	t.marker = buf[UET_HSI_NOTIF_MARKER_OFF];
	*h = t;
	return UET_HSI_RECV_NOTIF_LEN;
}

/* ------------------------------------------------------------------ */
/* Send completion                                                     */
/* ------------------------------------------------------------------ */

static const struct uet_wire_field send_cmpl_fields[] = {
	HSI_TYPE(UET_HSI_NOTIF_SEND),
	UET_WF_U(struct uet_hsi_send_cmpl, flags, NOTIF_OFF_FLAGS, 1),
	UET_WF_U(struct uet_hsi_send_cmpl, status, NOTIF_OFF_STATUS, 2),
	UET_WF_R(SEND_OFF_RSVD0, SEND_RSVD0_LEN),
	UET_WF_U(struct uet_hsi_send_cmpl, op_context, SEND_OFF_OP_CONTEXT, 8),
	UET_WF_U(struct uet_hsi_send_cmpl, bytes_sent, SEND_OFF_BYTES_SENT, 4),
	UET_WF_R(SEND_OFF_RSVD1, SEND_RSVD1_LEN),
	HSI_MARKER(struct uet_hsi_send_cmpl),
};

HSI_CODEC(send_cmpl, struct uet_hsi_send_cmpl, send_cmpl_fields,
	  UET_HSI_SEND_CMPL_LEN)

/* ------------------------------------------------------------------ */
/* Event notification                                                  */
/* ------------------------------------------------------------------ */

static bool event_type_ok(uint64_t event_type)
{
	return event_type >= UET_HSI_EVENT_RXPOOL_EXHAUSTED &&
	       event_type <= UET_HSI_EVENT_MAX;
}

/* status: severity in bits 1:0, status_code in bits 15:2. */
static const struct uet_wire_field event_notif_fields[] = {
	HSI_TYPE(UET_HSI_NOTIF_EVENT),
	UET_WF_U(struct uet_hsi_event_notif, event_type, EVT_OFF_EVENT_TYPE, 1,
		 .ok = event_type_ok),
	UET_WF_BIT(struct uet_hsi_event_notif, severity, EVT_OFF_STATUS, 2,
		   0, UET_HSI_EVENT_CODE_SHIFT, .max = UET_HSI_SEV_FATAL),
	UET_WF_BIT(struct uet_hsi_event_notif, status_code, EVT_OFF_STATUS, 2,
		   UET_HSI_EVENT_CODE_SHIFT, 16 - UET_HSI_EVENT_CODE_SHIFT,
		   .max = UET_HSI_EVENT_CODE_MAX),
	UET_WF_U(struct uet_hsi_event_notif, endpoint_id, EVT_OFF_ENDPOINT, 2),
	UET_WF_R(EVT_OFF_RSVD0, EVT_RSVD0_LEN),
	UET_WF_U(struct uet_hsi_event_notif, event_data, EVT_OFF_DATA, 8),
	UET_WF_U(struct uet_hsi_event_notif, timestamp, EVT_OFF_TIMESTAMP, 8),
	UET_WF_R(EVT_OFF_RSVD1, EVT_RSVD1_LEN),
	HSI_MARKER(struct uet_hsi_event_notif),
};

_Static_assert(UET_HSI_EVENT_SEV_MASK == (1u << UET_HSI_EVENT_CODE_SHIFT) - 1 &&
	       UET_HSI_SEV_FATAL == UET_HSI_EVENT_SEV_MASK &&
	       UET_HSI_EVENT_CODE_MAX == 0xffffu >> UET_HSI_EVENT_CODE_SHIFT,
	       "severity and status_code fill the status word");

HSI_CODEC(event_notif, struct uet_hsi_event_notif, event_notif_fields,
	  UET_HSI_EVENT_NOTIF_LEN)

/* ------------------------------------------------------------------ */
/* Generic notification entry                                          */
/* ------------------------------------------------------------------ */

static bool notif_type_valid(unsigned int type)
{
	switch (type) {
	case UET_HSI_NOTIF_RECV:
	case UET_HSI_NOTIF_SEND:
	case UET_HSI_NOTIF_EVENT:
	case UET_HSI_NOTIF_QW_VIOLATION:
		return true;
	default:
		return false;
	}
}

ssize_t uet_hsi_notif_entry_encode(uint8_t *buf, size_t len,
				   const struct uet_hsi_notif_entry *h)
{
	if (len < UET_HSI_NOTIF_LEN)
		return UET_WIRE_ENOBUFS;
	if (!notif_type_valid(h->type))
		return UET_WIRE_ERANGE;
	buf[NOTIF_OFF_TYPE] = h->type;
	buf[NOTIF_OFF_FLAGS] = h->flags;
	uet_put_le16(buf + NOTIF_OFF_STATUS, h->status);
	memcpy(buf + NOTIF_OFF_SPECIFIC, h->type_specific,
	       UET_HSI_NOTIF_SPECIFIC_LEN);
	return UET_HSI_NOTIF_LEN;
}

ssize_t uet_hsi_notif_entry_decode(struct uet_hsi_notif_entry *h,
				   const uint8_t *buf, size_t len)
{
	struct uet_hsi_notif_entry t;
	int ret;

	if (len < UET_HSI_NOTIF_LEN)
		return UET_WIRE_ETRUNC;
	if (!notif_type_valid(buf[NOTIF_OFF_TYPE]))
		return UET_WIRE_ETYPE;
	ret = notif_check_marker(buf);
	if (ret)
		return ret;
	t.type = buf[NOTIF_OFF_TYPE];
	t.flags = buf[NOTIF_OFF_FLAGS];
	t.status = uet_get_le16(buf + NOTIF_OFF_STATUS);
	memcpy(t.type_specific, buf + NOTIF_OFF_SPECIFIC,
	       UET_HSI_NOTIF_SPECIFIC_LEN);
	t.marker = buf[UET_HSI_NOTIF_MARKER_OFF];
	*h = t;
	return UET_HSI_NOTIF_LEN;
}

/* ------------------------------------------------------------------ */
/* QW violation event                                                  */
/* ------------------------------------------------------------------ */

static bool qwv_type_ok(uint64_t vtype)
{
	return vtype == UET_HSI_QWV_SUB_QW || vtype == UET_HSI_QWV_UNALIGNED;
}

static const struct uet_wire_field qw_violation_fields[] = {
	HSI_TYPE(UET_HSI_NOTIF_QW_VIOLATION),
	UET_WF_U(struct uet_hsi_qw_violation, violation_type, QWV_OFF_VTYPE, 1,
		 .ok = qwv_type_ok),
	UET_WF_U(struct uet_hsi_qw_violation, endpoint_id, QWV_OFF_ENDPOINT,
		 2),
	UET_WF_U(struct uet_hsi_qw_violation, size_or_offset, QWV_OFF_SIZE, 4),
	UET_WF_U(struct uet_hsi_qw_violation, bar_offset, QWV_OFF_BAR, 8),
	UET_WF_U(struct uet_hsi_qw_violation, timestamp, QWV_OFF_TIMESTAMP, 8),
	UET_WF_R(QWV_OFF_RSVD, QWV_RSVD_LEN),
	HSI_MARKER(struct uet_hsi_qw_violation),
};

HSI_CODEC(qw_violation, struct uet_hsi_qw_violation, qw_violation_fields,
	  UET_HSI_QW_VIOLATION_LEN)

/* ------------------------------------------------------------------ */
/* PCIe phase-1 descriptors                                            */
/* ------------------------------------------------------------------ */

static bool pcie_len_ok(uint64_t packet_length)
{
	return packet_length <= UET_HSI_PCIE_PKT_MAX;
}

/* Quadword 0: op (command) or type (notification) in bits 7:0, flags in
 * bits 15:8, bits 63:16 reserved; word 5 is reserved in a command and
 * the error code in a notification. */
static const struct uet_wire_field pcie_cmd_fields[] = {
	UET_WF_BIT(struct uet_hsi_pcie_cmd, op, PCIE_OFF_QW0, 8, 0, 8),
	UET_WF_BIT(struct uet_hsi_pcie_cmd, flags, PCIE_OFF_QW0, 8, 8, 8),
	UET_WF_RB(PCIE_OFF_QW0, 8, 16, 48),
	UET_WF_U(struct uet_hsi_pcie_cmd, packet_addr, PCIE_OFF_ADDR, 8),
	UET_WF_U(struct uet_hsi_pcie_cmd, packet_length, PCIE_OFF_LEN, 4,
		 .ok = pcie_len_ok),
	UET_WF_R(PCIE_OFF_WORD5, 4),
	UET_WF_B(struct uet_hsi_pcie_cmd, metadata, PCIE_OFF_METADATA),
	UET_WF_R(PCIE_OFF_RSVD, PCIE_RSVD_LEN),
};

HSI_CODEC(pcie_cmd, struct uet_hsi_pcie_cmd, pcie_cmd_fields,
	  UET_HSI_PCIE_CMD_LEN)

static const struct uet_wire_field pcie_notif_fields[] = {
	UET_WF_BIT(struct uet_hsi_pcie_notif, type, PCIE_OFF_QW0, 8, 0, 8),
	UET_WF_BIT(struct uet_hsi_pcie_notif, flags, PCIE_OFF_QW0, 8, 8, 8),
	UET_WF_RB(PCIE_OFF_QW0, 8, 16, 48),
	UET_WF_U(struct uet_hsi_pcie_notif, packet_addr, PCIE_OFF_ADDR, 8),
	UET_WF_U(struct uet_hsi_pcie_notif, packet_length, PCIE_OFF_LEN, 4),
	UET_WF_U(struct uet_hsi_pcie_notif, error_code, PCIE_OFF_WORD5, 4),
	UET_WF_B(struct uet_hsi_pcie_notif, metadata, PCIE_OFF_METADATA),
	UET_WF_R(PCIE_OFF_RSVD, PCIE_RSVD_LEN),
};

HSI_CODEC(pcie_notif, struct uet_hsi_pcie_notif, pcie_notif_fields,
	  UET_HSI_PCIE_NOTIF_LEN)

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

#define NAME(tbl, v)						\
	((v) < sizeof(tbl) / sizeof((tbl)[0]) && (tbl)[v] ?		\
	 (tbl)[v] : "UNKNOWN")

const char *uet_hsi_cmd_family_str(unsigned int family)
{
	static const char *const names[] = {
		[UET_HSI_FAMILY_MSG] = "MSG",
		[UET_HSI_FAMILY_TAGGED] = "TAGGED",
		[UET_HSI_FAMILY_RMA] = "RMA",
		[UET_HSI_FAMILY_ATOMIC] = "ATOMIC",
	};
	return NAME(names, family);
}

const char *uet_hsi_cmd_variant_str(unsigned int variant)
{
	static const char *const names[] = {
		[UET_HSI_VARIANT_SEND] = "SEND",
		[UET_HSI_VARIANT_RECV] = "RECV",
		[UET_HSI_VARIANT_INJECT] = "INJECT",
	};
	return NAME(names, variant);
}

const char *uet_hsi_notif_type_str(unsigned int type)
{
	static const char *const names[] = {
		[UET_HSI_NOTIF_RECV] = "RECV",
		[UET_HSI_NOTIF_SEND] = "SEND",
		[UET_HSI_NOTIF_EVENT] = "EVENT",
		[UET_HSI_NOTIF_QW_VIOLATION] = "QW_VIOLATION",
	};
	return NAME(names, type);
}

const char *uet_hsi_event_type_str(unsigned int event_type)
{
	static const char *const names[] = {
		[UET_HSI_EVENT_RXPOOL_EXHAUSTED] = "RXPOOL_EXHAUSTED",
		[UET_HSI_EVENT_HELD_BUFFER_THRESHOLD] = "HELD_BUFFER_THRESHOLD",
		[UET_HSI_EVENT_CREDIT_STARVATION] = "CREDIT_STARVATION",
		[UET_HSI_EVENT_INVALID_DESCRIPTOR] = "INVALID_DESCRIPTOR",
		[UET_HSI_EVENT_PROTECTION_VIOLATION] = "PROTECTION_VIOLATION",
		[UET_HSI_EVENT_PCIE_ERROR] = "PCIE_ERROR",
	};
	return NAME(names, event_type);
}

const char *uet_hsi_severity_str(unsigned int severity)
{
	static const char *const names[] = {
		[UET_HSI_SEV_INFO] = "INFO",
		[UET_HSI_SEV_WARNING] = "WARNING",
		[UET_HSI_SEV_ERROR] = "ERROR",
		[UET_HSI_SEV_FATAL] = "FATAL",
	};
	return NAME(names, severity);
}

const char *uet_hsi_qw_violation_type_str(unsigned int vtype)
{
	static const char *const names[] = {
		[UET_HSI_QWV_SUB_QW] = "SUB_QW",
		[UET_HSI_QWV_UNALIGNED] = "UNALIGNED",
	};
	return NAME(names, vtype);
}
