/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI descriptor codecs: known byte vectors worked out by hand from
 * ../shared/spec/hsi-formats.md (as resolved in docs/conformance.md (4.3)),
 * random round trips, truncation, reserved bits, invalid values, short
 * output buffers.  All multi-byte fields are little-endian.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "uet_byteorder.h"
#include "uet_hsi_formats.h"
#include "uet_wire_consts.h"
#include "uet_test.h"

#define ROUNDS 1000

/* ------------------------------------------------------------------ */
/* Known vectors                                                       */
/* ------------------------------------------------------------------ */

/*
 * hsi-formats.md 2.1 "Command Queue Segment", inline data.
 *   opcode: family TAGGED 0x2 in bits 7:4, variant INJECT 0x2 in bits
 *           3:2, bit 1 = 0, data source INLINE = 0
 *           -> 0x2 << 4 | 0x2 << 2 | 0 = 0x20 | 0x08 = 0x28
 *   flags:  FENCE (bit 7) + REMOTE_CQ (bit 4) -> 0x80 | 0x10 = 0x90
 *   payload_len 20 = 0x0014 -> 14 00; sgl_count 0; bytes 5-7 zero
 *   tag 0x0102030405060708 -> 08 07 06 05 04 03 02 01
 *   dest 0x1112131415161718 -> 18 17 ... 11
 *   metadata 0xa1a2a3a4a5a6a7a8 -> a8 a7 ... a1
 *   data 0x40, 0x41, ..., 0x5f (32 bytes)
 */
static const uint8_t seg_inline_vec[64] = {
	0x28, 0x90, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
	0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
	0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
	0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57,
	0x58, 0x59, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f,
};

static void seg_inline_host(struct uet_hsi_cmd_seg *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->family = UET_HSI_FAMILY_TAGGED;
	h->variant = UET_HSI_VARIANT_INJECT;
	h->data_src = UET_HSI_DATA_INLINE;
	h->fence = true;
	h->remote_cq = true;
	h->payload_len = 20;
	h->tag = 0x0102030405060708ull;
	h->dest = 0x1112131415161718ull;
	h->metadata = 0xa1a2a3a4a5a6a7a8ull;
	for (i = 0; i < 32; i++)
		h->inline_data[i] = (uint8_t)(0x40 + i);
}

/*
 * Command segment, SGL data source (2.1 + 4.1 in bytes 32-63).
 *   opcode: RMA 0x3, RECV 0x1, SGL 1 -> 0x30 | 0x04 | 0x01 = 0x35
 *   flags: COMPLETION (bit 6) + INJECT (bit 5) -> 0x40 | 0x20 = 0x60
 *   payload_len 0x1234 -> 34 12; sgl_count 3 -> byte 4 = 03
 *   tag 0; dest 0xdeadbeef -> ef be ad de 00 00 00 00; metadata 0x55
 *   SGL: address 0x00007f0012345678 -> 78 56 34 12 00 7f 00 00
 *        memory_key 0xcafebabe00000001 -> 01 00 00 00 be ba fe ca
 *        reserved qword 0; length 0x00010000 -> 00 00 01 00;
 *        byte 28 = 0 (indirect); 29-31 zero
 */
static const uint8_t seg_sgl_vec[64] = {
	0x35, 0x60, 0x34, 0x12, 0x03, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x00, 0x00,
	0x55, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0xbe, 0xba, 0xfe, 0xca,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void seg_sgl_host(struct uet_hsi_cmd_seg *h)
{
	memset(h, 0, sizeof(*h));
	h->family = UET_HSI_FAMILY_RMA;
	h->variant = UET_HSI_VARIANT_RECV;
	h->data_src = UET_HSI_DATA_SGL;
	h->completion = true;
	h->inject = true;
	h->payload_len = 0x1234;
	h->sgl_count = 3;
	h->dest = 0xdeadbeef;
	h->metadata = 0x55;
	h->sgl.address = 0x00007f0012345678ull;
	h->sgl.memory_key = 0xcafebabe00000001ull;
	h->sgl.length = 0x00010000;
}

/*
 * hsi-formats.md 4.1 "SGL Entry", inline mode.
 *   bytes 0-23: 'A'..'X'; length 5 -> 05 00 00 00;
 *   length_flags bit 32 (byte 28 bit 0) = 1 -> byte 28 = 0x01
 */
static const uint8_t sgl_inline_vec[32] = {
	'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H',
	'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P',
	'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X',
	0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
};

static void sgl_inline_host(struct uet_hsi_sgl_entry *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->is_inline = true;
	h->length = 5;
	for (i = 0; i < 24; i++)
		h->inline_data[i] = (uint8_t)('A' + i);
}

/*
 * Command segment with the command extension (E-3, docs/conformance.md
 * 4.3): MSG SEND, inline data, EXT.
 *   opcode: MSG 0x1 << 4 | SEND 0x0 << 2 | INLINE 0 = 0x10
 *   flags: COMPLETION (bit 6) + EXT (bit 3) -> 0x40 | 0x08 = 0x48
 *   payload_len 5 -> 05 00; sgl_count 1 (the extension) -> 01
 *   tag 0
 *   dest UET_HSI_DEST(peer 7, pid 0x123, ri 0x456):
 *        peer bits 31:0 -> 07 00 00 00
 *        pid 0x123 in bits 43:32 -> byte 4 = 0x23, byte 5 bits 3:0 = 0x1
 *        ri 0x456 in bits 55:44 -> byte 5 bits 7:4 = 0x6, byte 6 = 0x45
 *        -> 07 00 00 00 23 61 45 00 (= 0x0045612300000007)
 *   metadata 0x1122334455667788 -> 88 77 66 55 44 33 22 11
 *   data "hello" then 27 zero bytes
 */
static const uint8_t seg_ext_vec[64] = {
	0x10, 0x48, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x07, 0x00, 0x00, 0x00, 0x23, 0x61, 0x45, 0x00,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	'h', 'e', 'l', 'l', 'o',
};

static void seg_ext_host(struct uet_hsi_cmd_seg *h)
{
	memset(h, 0, sizeof(*h));
	h->family = UET_HSI_FAMILY_MSG;
	h->variant = UET_HSI_VARIANT_SEND;
	h->data_src = UET_HSI_DATA_INLINE;
	h->completion = true;
	h->ext = true;
	h->payload_len = 5;
	h->sgl_count = 1;
	h->dest = UET_HSI_DEST(7, 0x123, 0x456);
	h->metadata = 0x1122334455667788ull;
	memcpy(h->inline_data, "hello", 5);
}

/*
 * Command extension entry (E-3).
 *   header_data 0x0123456789abcdef -> ef cd ab 89 67 45 23 01
 *   ignore 0x00000000ffff0000 -> 00 00 ff ff 00 00 00 00
 *   bytes 16-23 reserved, zero
 *   ext_flags HAS_DATA 0x1 | DC 0x2 = 0x3 -> 03 00 00 00
 *   bytes 28-31 reserved, zero
 */
static const uint8_t ext_vec[32] = {
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
	0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void ext_host(struct uet_hsi_cmd_ext *h)
{
	memset(h, 0, sizeof(*h));
	h->header_data = 0x0123456789abcdefull;
	h->ignore = 0x00000000ffff0000ull;
	h->ext_flags = UET_HSI_EXT_HAS_DATA | UET_HSI_EXT_DC;
}

/* SGL entry, indirect mode: the SGL half of seg_sgl_vec, length changed
 * to 0xfedcba98 -> 98 ba dc fe (any 32-bit length is valid). */
static const uint8_t sgl_indirect_vec[32] = {
	0x78, 0x56, 0x34, 0x12, 0x00, 0x7f, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0xbe, 0xba, 0xfe, 0xca,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x98, 0xba, 0xdc, 0xfe, 0x00, 0x00, 0x00, 0x00,
};

static void sgl_indirect_host(struct uet_hsi_sgl_entry *h)
{
	memset(h, 0, sizeof(*h));
	h->address = 0x00007f0012345678ull;
	h->memory_key = 0xcafebabe00000001ull;
	h->length = 0xfedcba98u;
}

/*
 * hsi-formats.md 3.1 "Receive Notification".
 *   type 0; flags INLINE (bit 0) + CONTINUATION (bit 1) = 0x03
 *   status 0x0102 -> 02 01; src_id 0x0a0b0c0d -> 0d 0c 0b 0a
 *   tag 0xfedcba9876543210 -> 10 32 54 76 98 ba dc fe
 *   total_length 35 -> 23 00 00 00; buffer_id_0 0x2211 -> 11 22;
 *   buffer_id_1 0x4433 -> 33 44; buffer_offset 0x6655 -> 55 66;
 *   bytes 26-27 zero; inline_data 28-62 = 0xc0..0xe2; marker 7
 */
static const uint8_t recv_vec[64] = {
	0x00, 0x03, 0x02, 0x01, 0x0d, 0x0c, 0x0b, 0x0a,
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
	0x23, 0x00, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44,
	0x55, 0x66, 0x00, 0x00, 0xc0, 0xc1, 0xc2, 0xc3,
	0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xcb,
	0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3,
	0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb,
	0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0x07,
};

static void recv_host(struct uet_hsi_recv_notif *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->is_inline = true;
	h->continuation = true;
	h->status = 0x0102;
	h->src_id = 0x0a0b0c0d;
	h->tag = 0xfedcba9876543210ull;
	h->total_length = 35;
	h->buffer_id_0 = 0x2211;
	h->buffer_id_1 = 0x4433;
	h->buffer_offset = 0x6655;
	for (i = 0; i < 35; i++)
		h->inline_data[i] = (uint8_t)(0xc0 + i);
	h->marker = 7;
}

/*
 * hsi-formats.md 3.2 "Send Completion".
 *   type 1; flags 0xa5; status 0x8001 -> 01 80; bytes 4-7 zero
 *   op_context 0x0123456789abcdef -> ef cd ab 89 67 45 23 01
 *   bytes_sent 0x00100000 -> 00 00 10 00; 20-62 zero; marker 13
 */
static const uint8_t send_vec[64] = {
	0x01, 0xa5, 0x01, 0x80, 0x00, 0x00, 0x00, 0x00,
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
	0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	[63] = 0x0d,
};

static void send_host(struct uet_hsi_send_cmpl *h)
{
	memset(h, 0, sizeof(*h));
	h->flags = 0xa5;
	h->status = 0x8001;
	h->op_context = 0x0123456789abcdefull;
	h->bytes_sent = 0x00100000;
	h->marker = 13;
}

/*
 * hsi-formats.md 3.3 "Event Notification".
 *   type 2; event_type PROTECTION_VIOLATION 0x05
 *   status: severity Error (2) in bits 1:0, code 0x1234 in bits 15:2
 *           -> 0x1234 << 2 | 2 = 0x48d0 | 0x2 = 0x48d2 -> d2 48
 *   endpoint_id 0xbeef -> ef be; bytes 6-7 zero
 *   event_data 0x00007fffdeadb000 -> 00 b0 ad de ff 7f 00 00
 *   timestamp 0x0000001122334455 -> 55 44 33 22 11 00 00 00
 *   24-62 zero; marker 1
 */
static const uint8_t event_vec[64] = {
	0x02, 0x05, 0xd2, 0x48, 0xef, 0xbe, 0x00, 0x00,
	0x00, 0xb0, 0xad, 0xde, 0xff, 0x7f, 0x00, 0x00,
	0x55, 0x44, 0x33, 0x22, 0x11, 0x00, 0x00, 0x00,
	[63] = 0x01,
};

static void event_host(struct uet_hsi_event_notif *h)
{
	memset(h, 0, sizeof(*h));
	h->event_type = UET_HSI_EVENT_PROTECTION_VIOLATION;
	h->severity = UET_HSI_SEV_ERROR;
	h->status_code = 0x1234;
	h->endpoint_id = 0xbeef;
	h->event_data = 0x00007fffdeadb000ull;
	h->timestamp = 0x0000001122334455ull;
	h->marker = 1;
}

/*
 * hsi-formats.md 6.1 "Notification Entry" (generic view): the receive
 * vector read generically: type 0, flags 0x03, status 0x0102, bytes 4-62
 * as type_specific, marker 7.  See generic_host().
 */
static void generic_host(struct uet_hsi_notif_entry *h)
{
	memset(h, 0, sizeof(*h));
	h->type = UET_HSI_NOTIF_RECV;
	h->flags = 0x03;
	h->status = 0x0102;
	memcpy(h->type_specific, recv_vec + 4, 59);
	h->marker = 7;
}

/*
 * hsi-formats.md 6.2 "QW Violation Event".
 *   byte 0 0x10; violation_type UNALIGNED 0x02
 *   endpoint_id 0x0304 -> 04 03; size_or_offset 4 -> 04 00 00 00
 *   bar_offset 0x1004 -> 04 10 00 00 00 00 00 00
 *   timestamp 0x8000000000000001 -> 01 00 00 00 00 00 00 80
 *   24-62 zero; marker 12
 */
static const uint8_t qwv_vec[64] = {
	0x10, 0x02, 0x04, 0x03, 0x04, 0x00, 0x00, 0x00,
	0x04, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
	[63] = 0x0c,
};

static void qwv_host(struct uet_hsi_qw_violation *h)
{
	memset(h, 0, sizeof(*h));
	h->violation_type = UET_HSI_QWV_UNALIGNED;
	h->endpoint_id = 0x0304;
	h->size_or_offset = 4;
	h->bar_offset = 0x1004;
	h->timestamp = 0x8000000000000001ull;
	h->marker = 12;
}

/*
 * hsi-formats.md 6.3 "PCIe Descriptors", command.
 *   opcode qword: op 0x01 (bits 7:0), flags 0x80 (bits 15:8)
 *                 -> 0x8001 -> 01 80 00 00 00 00 00 00
 *   packet_addr 0x0000000100002000 -> 00 20 00 00 01 00 00 00
 *   packet_length 9216 = 0x2400 -> 00 24 00 00; 20-23 zero
 *   metadata 0x00..0x1f; 56-63 zero
 */
static const uint8_t pcie_cmd_vec[64] = {
	0x01, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x20, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void pcie_cmd_host(struct uet_hsi_pcie_cmd *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->op = 0x01;
	h->flags = 0x80;
	h->packet_addr = 0x0000000100002000ull;
	h->packet_length = 9216;
	for (i = 0; i < 32; i++)
		h->metadata[i] = (uint8_t)i;
}

/*
 * PCIe notification descriptor.
 *   status qword: type 0x02, flags 0x01 -> 0x0102 -> 02 01 00 .. 00
 *   packet_addr 0x10 -> 10 00 .. 00; packet_length 1500 = 0x05dc ->
 *   dc 05 00 00; error_code 0xdeadbeef -> ef be ad de
 *   metadata 0xe0..0xff; 56-63 zero
 */
static const uint8_t pcie_notif_vec[64] = {
	0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xdc, 0x05, 0x00, 0x00, 0xef, 0xbe, 0xad, 0xde,
	0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
	0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef,
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void pcie_notif_host(struct uet_hsi_pcie_notif *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->type = 0x02;
	h->flags = 0x01;
	h->packet_addr = 0x10;
	h->packet_length = 1500;
	h->error_code = 0xdeadbeef;
	for (i = 0; i < 32; i++)
		h->metadata[i] = (uint8_t)(0xe0 + i);
}

/* ------------------------------------------------------------------ */
/* Reserved-bit masks (1 = reserved, must be 0)                        */
/* ------------------------------------------------------------------ */

/* Segment header: opcode bit 1, flags bits 2:0 (bit 3 is EXT), bytes 5-7. */
#define SEG_HDR_RSVD [0] = 0x02, [1] = 0x07, [5] = 0xff, [6] = 0xff, [7] = 0xff

static const uint8_t seg_inline_rsvd[64] = { SEG_HDR_RSVD };

/* + embedded indirect SGL: QW2 (bytes 48-55), byte 60 bits 7:1, 61-63. */
static const uint8_t seg_sgl_rsvd[64] = {
	SEG_HDR_RSVD,
	[48] = 0xff, [49] = 0xff, [50] = 0xff, [51] = 0xff,
	[52] = 0xff, [53] = 0xff, [54] = 0xff, [55] = 0xff,
	[60] = 0xfe, [61] = 0xff, [62] = 0xff, [63] = 0xff,
};

static const uint8_t ext_rsvd[32] = {
	[16 ... 23] = 0xff, [28 ... 31] = 0xff,
};

static const uint8_t sgl_inline_rsvd[32] = {
	[28] = 0xfe, [29] = 0xff, [30] = 0xff, [31] = 0xff,
};

static const uint8_t sgl_indirect_rsvd[32] = {
	[16] = 0xff, [17] = 0xff, [18] = 0xff, [19] = 0xff,
	[20] = 0xff, [21] = 0xff, [22] = 0xff, [23] = 0xff,
	[28] = 0xfe, [29] = 0xff, [30] = 0xff, [31] = 0xff,
};

static const uint8_t recv_rsvd[64] = { [1] = 0xf8, [26] = 0xff, [27] = 0xff };

static const uint8_t send_rsvd[64] = {
	[4 ... 7] = 0xff, [20 ... 62] = 0xff,
};

static const uint8_t event_rsvd[64] = {
	[6 ... 7] = 0xff, [24 ... 62] = 0xff,
};

static const uint8_t generic_rsvd[64];	/* none */

static const uint8_t qwv_rsvd[64] = { [24 ... 62] = 0xff };

static const uint8_t pcie_cmd_rsvd[64] = {
	[2 ... 7] = 0xff, [20 ... 23] = 0xff, [56 ... 63] = 0xff,
};

static const uint8_t pcie_notif_rsvd[64] = {
	[2 ... 7] = 0xff, [56 ... 63] = 0xff,
};

/* ------------------------------------------------------------------ */
/* Random host values (respecting field widths and constraints)       */
/* ------------------------------------------------------------------ */

static void rand_bytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)uet_test_rand_bits(8);
}

static void rand_sgl(struct uet_hsi_sgl_entry *h)
{
	memset(h, 0, sizeof(*h));
	h->is_inline = uet_test_rand_bits(1);
	if (h->is_inline) {
		h->length = (uint32_t)(uet_test_rand64() % 25);
		rand_bytes(h->inline_data, sizeof(h->inline_data));
	} else {
		h->address = uet_test_rand64();
		h->memory_key = uet_test_rand64();
		h->length = (uint32_t)uet_test_rand_bits(32);
	}
}

static void rand_seg(struct uet_hsi_cmd_seg *h)
{
	memset(h, 0, sizeof(*h));
	h->family = (uint8_t)(1 + uet_test_rand64() % 4);
	h->variant = (uint8_t)(uet_test_rand64() % 3);
	h->data_src = (uint8_t)uet_test_rand_bits(1);
	h->fence = uet_test_rand_bits(1);
	h->completion = uet_test_rand_bits(1);
	h->inject = uet_test_rand_bits(1);
	h->remote_cq = uet_test_rand_bits(1);
	h->ext = uet_test_rand_bits(1);
	h->tag = uet_test_rand64();
	h->dest = uet_test_rand64();
	h->metadata = uet_test_rand64();
	if (h->data_src == UET_HSI_DATA_INLINE) {
		h->payload_len = (uint16_t)(uet_test_rand64() % 33);
		h->sgl_count = h->ext ? 1 : 0;
		rand_bytes(h->inline_data, sizeof(h->inline_data));
	} else {
		h->payload_len = (uint16_t)uet_test_rand_bits(16);
		h->sgl_count = (uint8_t)uet_test_rand_bits(8);
		if (h->ext && !h->sgl_count)
			h->sgl_count = 1;
		rand_sgl(&h->sgl);
	}
}

static void rand_ext(struct uet_hsi_cmd_ext *h)
{
	memset(h, 0, sizeof(*h));
	h->header_data = uet_test_rand64();
	h->ignore = uet_test_rand64();
	h->ext_flags = (uint32_t)uet_test_rand_bits(8);
	h->amo_op = (uint8_t)uet_test_rand_bits(8);
	h->amo_dtype = (uint8_t)uet_test_rand_bits(8);
	h->nresult = (uint8_t)uet_test_rand_bits(8);
}

static void rand_recv(struct uet_hsi_recv_notif *h)
{
	memset(h, 0, sizeof(*h));
	h->is_inline = uet_test_rand_bits(1);
	h->continuation = uet_test_rand_bits(1);
	h->rma = uet_test_rand_bits(1);
	h->status = (uint16_t)uet_test_rand_bits(16);
	h->src_id = (uint32_t)uet_test_rand_bits(32);
	h->tag = uet_test_rand64();
	h->total_length = (uint32_t)uet_test_rand_bits(32);
	h->buffer_id_0 = (uint16_t)uet_test_rand_bits(16);
	h->buffer_id_1 = (uint16_t)uet_test_rand_bits(16);
	h->buffer_offset = (uint16_t)uet_test_rand_bits(16);
	rand_bytes(h->inline_data, sizeof(h->inline_data));
}

static void rand_send(struct uet_hsi_send_cmpl *h)
{
	memset(h, 0, sizeof(*h));
	h->flags = (uint8_t)uet_test_rand_bits(8);
	h->status = (uint16_t)uet_test_rand_bits(16);
	h->op_context = uet_test_rand64();
	h->bytes_sent = (uint32_t)uet_test_rand_bits(32);
}

static void rand_event(struct uet_hsi_event_notif *h)
{
	memset(h, 0, sizeof(*h));
	h->event_type = (uint8_t)(1 + uet_test_rand64() % 6);
	h->severity = (uint8_t)uet_test_rand_bits(2);
	h->status_code = (uint16_t)uet_test_rand_bits(14);
	h->endpoint_id = (uint16_t)uet_test_rand_bits(16);
	h->event_data = uet_test_rand64();
	h->timestamp = uet_test_rand64();
}

static const uint8_t notif_types[] = {
	UET_HSI_NOTIF_RECV, UET_HSI_NOTIF_SEND, UET_HSI_NOTIF_EVENT,
	UET_HSI_NOTIF_QW_VIOLATION,
};

static void rand_generic(struct uet_hsi_notif_entry *h)
{
	memset(h, 0, sizeof(*h));
	h->type = notif_types[uet_test_rand64() % 4];
	h->flags = (uint8_t)uet_test_rand_bits(8);
	h->status = (uint16_t)uet_test_rand_bits(16);
	rand_bytes(h->type_specific, sizeof(h->type_specific));
}

static void rand_qwv(struct uet_hsi_qw_violation *h)
{
	memset(h, 0, sizeof(*h));
	h->violation_type = (uint8_t)(1 + uet_test_rand_bits(1));
	h->endpoint_id = (uint16_t)uet_test_rand_bits(16);
	h->size_or_offset = (uint32_t)uet_test_rand_bits(32);
	h->bar_offset = uet_test_rand64();
	h->timestamp = uet_test_rand64();
}

static void rand_pcie_cmd(struct uet_hsi_pcie_cmd *h)
{
	memset(h, 0, sizeof(*h));
	h->op = (uint8_t)uet_test_rand_bits(8);
	h->flags = (uint8_t)uet_test_rand_bits(8);
	h->packet_addr = uet_test_rand64();
	h->packet_length = (uint32_t)(uet_test_rand64() % 9217);
	rand_bytes(h->metadata, sizeof(h->metadata));
}

static void rand_pcie_notif(struct uet_hsi_pcie_notif *h)
{
	memset(h, 0, sizeof(*h));
	h->type = (uint8_t)uet_test_rand_bits(8);
	h->flags = (uint8_t)uet_test_rand_bits(8);
	h->packet_addr = uet_test_rand64();
	h->packet_length = (uint32_t)uet_test_rand_bits(32);
	h->error_code = (uint32_t)uet_test_rand_bits(32);
	rand_bytes(h->metadata, sizeof(h->metadata));
}

/* ------------------------------------------------------------------ */
/* Field-by-field equality                                             */
/* ------------------------------------------------------------------ */

#define EQ(f)	(a->f == b->f)
#define EQA(f)	(!memcmp(a->f, b->f, sizeof(a->f)))

static bool eq_sgl(const struct uet_hsi_sgl_entry *a,
		   const struct uet_hsi_sgl_entry *b)
{
	return EQ(is_inline) && EQ(address) && EQ(memory_key) &&
	       EQ(length) && EQA(inline_data);
}

static bool eq_seg(const struct uet_hsi_cmd_seg *a,
		   const struct uet_hsi_cmd_seg *b)
{
	return EQ(family) && EQ(variant) && EQ(data_src) && EQ(fence) &&
	       EQ(completion) && EQ(inject) && EQ(remote_cq) && EQ(ext) &&
	       EQ(payload_len) && EQ(sgl_count) && EQ(tag) && EQ(dest) &&
	       EQ(metadata) && EQA(inline_data) && eq_sgl(&a->sgl, &b->sgl);
}

static bool eq_ext(const struct uet_hsi_cmd_ext *a,
		   const struct uet_hsi_cmd_ext *b)
{
	return EQ(header_data) && EQ(ignore) && EQ(ext_flags) &&
	       EQ(amo_op) && EQ(amo_dtype) && EQ(nresult);
}

static bool eq_recv(const struct uet_hsi_recv_notif *a,
		    const struct uet_hsi_recv_notif *b)
{
	return EQ(is_inline) && EQ(continuation) && EQ(rma) && EQ(status) &&
	       EQ(src_id) && EQ(tag) && EQ(total_length) &&
	       EQ(buffer_id_0) && EQ(buffer_id_1) && EQ(buffer_offset) &&
	       EQA(inline_data) && EQ(marker);
}

static bool eq_send(const struct uet_hsi_send_cmpl *a,
		    const struct uet_hsi_send_cmpl *b)
{
	return EQ(flags) && EQ(status) && EQ(op_context) &&
	       EQ(bytes_sent) && EQ(marker);
}

static bool eq_event(const struct uet_hsi_event_notif *a,
		     const struct uet_hsi_event_notif *b)
{
	return EQ(event_type) && EQ(severity) && EQ(status_code) &&
	       EQ(endpoint_id) && EQ(event_data) && EQ(timestamp) &&
	       EQ(marker);
}

static bool eq_generic(const struct uet_hsi_notif_entry *a,
		       const struct uet_hsi_notif_entry *b)
{
	return EQ(type) && EQ(flags) && EQ(status) && EQA(type_specific) &&
	       EQ(marker);
}

static bool eq_qwv(const struct uet_hsi_qw_violation *a,
		   const struct uet_hsi_qw_violation *b)
{
	return EQ(violation_type) && EQ(endpoint_id) && EQ(size_or_offset) &&
	       EQ(bar_offset) && EQ(timestamp) && EQ(marker);
}

static bool eq_pcie_cmd(const struct uet_hsi_pcie_cmd *a,
			const struct uet_hsi_pcie_cmd *b)
{
	return EQ(op) && EQ(flags) && EQ(packet_addr) &&
	       EQ(packet_length) && EQA(metadata);
}

static bool eq_pcie_notif(const struct uet_hsi_pcie_notif *a,
			  const struct uet_hsi_pcie_notif *b)
{
	return EQ(type) && EQ(flags) && EQ(packet_addr) &&
	       EQ(packet_length) && EQ(error_code) && EQA(metadata);
}

/* ------------------------------------------------------------------ */
/* Format table                                                        */
/* ------------------------------------------------------------------ */

/* Typed functions seen through void pointers. */
#define ADAPT(name, codec)					\
static ssize_t enc_##name(uint8_t *b, size_t l, const void *h)		\
{									\
	return uet_hsi_##codec##_encode(b, l, h);			\
}									\
static ssize_t dec_##name(void *h, const uint8_t *b, size_t l)		\
{									\
	return uet_hsi_##codec##_decode(h, b, l);			\
}									\
static void rnd_##name(void *h)						\
{									\
	rand_##name(h);							\
}									\
static bool eqv_##name(const void *a, const void *b)			\
{									\
	return eq_##name(a, b);						\
}

ADAPT(sgl, sgl_entry)
ADAPT(seg, cmd_seg)
ADAPT(ext, cmd_ext)
ADAPT(recv, recv_notif)
ADAPT(send, send_cmpl)
ADAPT(event, event_notif)
ADAPT(generic, notif_entry)
ADAPT(qwv, qw_violation)
ADAPT(pcie_cmd, pcie_cmd)
ADAPT(pcie_notif, pcie_notif)

union host {
	struct uet_hsi_sgl_entry sgl;
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmd_ext ext;
	struct uet_hsi_recv_notif recv;
	struct uet_hsi_send_cmpl send;
	struct uet_hsi_event_notif event;
	struct uet_hsi_notif_entry generic;
	struct uet_hsi_qw_violation qwv;
	struct uet_hsi_pcie_cmd pcie_cmd;
	struct uet_hsi_pcie_notif pcie_notif;
};

struct fmt {
	const char *name;
	size_t len;
	bool notif;		/* byte 63 is the marker, left by encoders */
	ssize_t (*enc)(uint8_t *, size_t, const void *);
	ssize_t (*dec)(void *, const uint8_t *, size_t);
	void (*rnd)(void *);
	bool (*eq)(const void *, const void *);
	const uint8_t *vec;	/* known vector */
	void (*vec_host)(union host *);	/* its host struct */
	const uint8_t *rsvd;	/* reserved-bit mask */
	/* every non-reserved bit flip of vec decodes without ERESERVED */
	bool rsvd_exact;
	size_t marker_off;	/* offsetof(host struct, marker) if notif */
};

static void vh_seg_inline(union host *h) { seg_inline_host(&h->seg); }
static void vh_seg_sgl(union host *h) { seg_sgl_host(&h->seg); }
static void vh_seg_ext(union host *h) { seg_ext_host(&h->seg); }
static void vh_ext(union host *h) { ext_host(&h->ext); }
static void vh_sgl_inline(union host *h) { sgl_inline_host(&h->sgl); }
static void vh_sgl_indirect(union host *h) { sgl_indirect_host(&h->sgl); }
static void vh_recv(union host *h) { recv_host(&h->recv); }
static void vh_send(union host *h) { send_host(&h->send); }
static void vh_event(union host *h) { event_host(&h->event); }
static void vh_generic(union host *h) { generic_host(&h->generic); }
static void vh_qwv(union host *h) { qwv_host(&h->qwv); }
static void vh_pcie_cmd(union host *h) { pcie_cmd_host(&h->pcie_cmd); }
static void vh_pcie_notif(union host *h) { pcie_notif_host(&h->pcie_notif); }

#define FMT(nm, l, n, fn, v, vh, r, x)					\
	{ .name = nm, .len = l, .notif = n, .enc = enc_##fn,		\
	  .dec = dec_##fn, .rnd = rnd_##fn, .eq = eqv_##fn, .vec = v,	\
	  .vec_host = vh, .rsvd = r, .rsvd_exact = x,			\
	  .marker_off = n ? MARKER_OFF_##fn : 0 }

/* The host structs sit at offset 0 of union host. */
#define MARKER_OFF_seg		0
#define MARKER_OFF_sgl		0
#define MARKER_OFF_ext		0
#define MARKER_OFF_pcie_cmd	0
#define MARKER_OFF_pcie_notif	0
#define MARKER_OFF_recv		offsetof(struct uet_hsi_recv_notif, marker)
#define MARKER_OFF_send		offsetof(struct uet_hsi_send_cmpl, marker)
#define MARKER_OFF_event	offsetof(struct uet_hsi_event_notif, marker)
#define MARKER_OFF_generic	offsetof(struct uet_hsi_notif_entry, marker)
#define MARKER_OFF_qwv		offsetof(struct uet_hsi_qw_violation, marker)

static const struct fmt fmts[] = {
	FMT("cmd_seg inline", 64, false, seg, seg_inline_vec, vh_seg_inline,
	    seg_inline_rsvd, false),
	FMT("cmd_seg sgl", 64, false, seg, seg_sgl_vec, vh_seg_sgl,
	    seg_sgl_rsvd, false),
	FMT("cmd_seg ext", 64, false, seg, seg_ext_vec, vh_seg_ext,
	    seg_inline_rsvd, false),
	FMT("cmd_ext", 32, false, ext, ext_vec, vh_ext, ext_rsvd, true),
	FMT("sgl inline", 32, false, sgl, sgl_inline_vec, vh_sgl_inline,
	    sgl_inline_rsvd, false),
	FMT("sgl indirect", 32, false, sgl, sgl_indirect_vec,
	    vh_sgl_indirect, sgl_indirect_rsvd, false),
	FMT("recv", 64, true, recv, recv_vec, vh_recv, recv_rsvd, true),
	FMT("send", 64, true, send, send_vec, vh_send, send_rsvd, true),
	FMT("event", 64, true, event, event_vec, vh_event, event_rsvd, true),
	FMT("generic", 64, true, generic, recv_vec, vh_generic,
	    generic_rsvd, true),
	FMT("qwv", 64, true, qwv, qwv_vec, vh_qwv, qwv_rsvd, true),
	FMT("pcie_cmd", 64, false, pcie_cmd, pcie_cmd_vec, vh_pcie_cmd,
	    pcie_cmd_rsvd, true),
	FMT("pcie_notif", 64, false, pcie_notif, pcie_notif_vec,
	    vh_pcie_notif, pcie_notif_rsvd, true),
};

#define NFMTS ((int)(sizeof(fmts) / sizeof(fmts[0])))

/* ------------------------------------------------------------------ */
/* Generic tests, one loop iteration per format                        */
/* ------------------------------------------------------------------ */

START_TEST(test_known_encode)
{
	const struct fmt *f = &fmts[_i];
	uint8_t buf[80];
	union host h;
	size_t i;

	f->vec_host(&h);
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(f->enc(buf, f->len, &h), (ssize_t)f->len);
	if (f->notif) {
		/* Encoders leave the marker to the ring. */
		ck_assert_int_eq(buf[63], 0xee);
		ck_assert_int_eq(uet_hsi_notif_set_marker(buf, 64,
							  f->vec[63]), 0);
	}
	for (i = 0; i < f->len; i++)
		ck_assert_msg(buf[i] == f->vec[i],
			      "%s byte %zu: got 0x%02x want 0x%02x",
			      f->name, i, buf[i], f->vec[i]);
	for (; i < sizeof(buf); i++)
		ck_assert_int_eq(buf[i], 0xee);
}
END_TEST

START_TEST(test_known_decode)
{
	const struct fmt *f = &fmts[_i];
	union host want, got;

	f->vec_host(&want);
	memset(&got, 0x5a, sizeof(got));
	ck_assert_int_eq(f->dec(&got, f->vec, f->len), (ssize_t)f->len);
	ck_assert_msg(f->eq(&got, &want), "%s: fields differ", f->name);
}
END_TEST

START_TEST(test_round_trip)
{
	const struct fmt *f = &fmts[_i];
	uint8_t buf[64], buf2[64];
	union host h, got;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		f->rnd(&h);
		memset(buf, 0, sizeof(buf));
		ck_assert_int_eq(f->enc(buf, f->len, &h), (ssize_t)f->len);
		if (f->notif) {
			uint8_t m = (uint8_t)(1 + uet_test_rand64() % 13);

			ck_assert_int_eq(uet_hsi_notif_set_marker(buf, 64, m),
					 0);
			*((uint8_t *)&h + f->marker_off) = m;
		}
		memset(&got, 0xa5, sizeof(got));
		ck_assert_int_eq(f->dec(&got, buf, f->len), (ssize_t)f->len);
		ck_assert_msg(f->eq(&got, &h), "%s: round %d differs",
			      f->name, r);
		/* and back to the same bytes */
		memcpy(buf2, buf, sizeof(buf2));
		ck_assert_int_eq(f->enc(buf2, f->len, &got), (ssize_t)f->len);
		ck_assert_int_eq(memcmp(buf, buf2, f->len), 0);
	}
}
END_TEST

START_TEST(test_truncated)
{
	const struct fmt *f = &fmts[_i];
	union host h, saved;
	size_t l;

	memset(&h, 0x3c, sizeof(h));
	f->vec_host(&h);
	saved = h;
	for (l = 0; l < f->len; l++) {
		/* exactly l bytes on the heap: ASan catches any over-read */
		uint8_t *p = malloc(l ? l : 1);

		ck_assert_ptr_nonnull(p);
		memcpy(p, f->vec, l);
		ck_assert_int_eq(f->dec(&h, p, l), UET_WIRE_ETRUNC);
		free(p);
	}
	ck_assert(!memcmp(&h, &saved, sizeof(h)));
}
END_TEST

START_TEST(test_short_output)
{
	const struct fmt *f = &fmts[_i];
	uint8_t buf[64];
	union host h;
	size_t l, i;

	f->vec_host(&h);
	for (l = 0; l < f->len; l++) {
		memset(buf, 0xc3, sizeof(buf));
		ck_assert_int_eq(f->enc(buf, l, &h), UET_WIRE_ENOBUFS);
		for (i = 0; i < sizeof(buf); i++)
			ck_assert_int_eq(buf[i], 0xc3);
	}
}
END_TEST

START_TEST(test_reserved_bits)
{
	const struct fmt *f = &fmts[_i];
	uint8_t buf[64];
	union host h, saved;
	unsigned int byte, bit, nbits = 0;
	ssize_t ret;

	memset(&h, 0x3c, sizeof(h));
	f->vec_host(&h);
	saved = h;
	for (byte = 0; byte < f->len; byte++) {
		for (bit = 0; bit < 8; bit++) {
			uint8_t m = (uint8_t)(1u << bit);

			memcpy(buf, f->vec, f->len);
			buf[byte] ^= m;
			ret = f->dec(&h, buf, f->len);
			if (f->rsvd[byte] & m) {
				nbits++;
				ck_assert_msg(ret == UET_WIRE_ERESERVED,
					      "%s byte %u bit %u: %zd",
					      f->name, byte, bit, ret);
				ck_assert(!memcmp(&h, &saved, sizeof(h)));
			} else if (f->rsvd_exact) {
				ck_assert_msg(ret != UET_WIRE_ERESERVED,
					      "%s byte %u bit %u not reserved",
					      f->name, byte, bit);
				h = saved;
			} else {
				h = saved;
			}
		}
	}
	if (f->rsvd != generic_rsvd)
		ck_assert_uint_gt(nbits, 0);
}
END_TEST

/*
 * Mutation fuzz: flip 1-3 random bits of the known vector; whenever the
 * decoder accepts the result, encoding it gives back the same bytes (the
 * decoders accept only canonical encodings).
 */
START_TEST(test_canonical)
{
	const struct fmt *f = &fmts[_i];
	uint8_t buf[64], out[64];
	union host h;
	int r, flips, accepted = 0;

	for (r = 0; r < 4 * ROUNDS; r++) {
		memcpy(buf, f->vec, f->len);
		for (flips = 1 + (int)(uet_test_rand64() % 3); flips; flips--) {
			size_t bit = uet_test_rand64() % (f->len * 8);

			buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		}
		if (f->dec(&h, buf, f->len) < 0)
			continue;
		accepted++;
		memset(out, 0, sizeof(out));
		ck_assert_int_eq(f->enc(out, f->len, &h), (ssize_t)f->len);
		if (f->notif)
			out[63] = buf[63];
		ck_assert_msg(!memcmp(out, buf, f->len),
			      "%s: round %d not canonical", f->name, r);
	}
	ck_assert_int_gt(accepted, 0);
}
END_TEST

/* Notification decoders (all five of them): marker 1..13 valid,
 * everything else ERANGE. */
START_TEST(test_markers)
{
	uint8_t buf[64];
	union host h;
	unsigned int m;
	int i, nnotif = 0;

	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];

		if (!f->notif)
			continue;
		nnotif++;
		for (m = 0; m < 256; m++) {
			memcpy(buf, f->vec, 64);
			buf[63] = (uint8_t)m;
			if (m >= 1 && m <= 13)
				ck_assert_int_eq(f->dec(&h, buf, 64), 64);
			else
				ck_assert_int_eq(f->dec(&h, buf, 64),
						 UET_WIRE_ERANGE);
		}
	}
	ck_assert_int_eq(nnotif, 5);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Format-specific invalid values                                      */
/* ------------------------------------------------------------------ */

/* Encoding h must fail with err and leave the buffer untouched. */
static void enc_fails(ssize_t (*enc)(uint8_t *, size_t, const void *),
		      const void *h, size_t len, ssize_t err)
{
	uint8_t buf[64];
	size_t i;

	memset(buf, 0x77, sizeof(buf));
	ck_assert_int_eq(enc(buf, len, h), err);
	for (i = 0; i < sizeof(buf); i++)
		ck_assert_int_eq(buf[i], 0x77);
}

START_TEST(test_seg_encode_range)
{
	struct uet_hsi_cmd_seg h, base;
	unsigned int v;

	seg_inline_host(&base);
	for (v = 0; v < 256; v++) {
		h = base;
		h.family = (uint8_t)v;
		if (v >= 1 && v <= 4)
			ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
		else
			enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
		h = base;
		h.variant = (uint8_t)v;
		if (v <= 2)
			ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
		else
			enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
		h = base;
		h.data_src = (uint8_t)v;
		if (v > 1)
			enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	}
	/* inline data: no extra SGL entries, at most 32 payload bytes */
	h = base;
	h.sgl_count = 1;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h = base;
	h.payload_len = 33;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h.payload_len = 0xffff;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h.payload_len = 32;
	ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
	/* EXT: the extension is entry 0, so sgl_count >= 1; inline data
	 * allows exactly that one entry */
	h.ext = true;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h.sgl_count = 1;
	ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
	h.sgl_count = 2;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	seg_sgl_host(&h);
	h.ext = true;
	h.sgl_count = 0;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h.sgl_count = 1;
	ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
	h.sgl_count = 255;
	ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
	/* embedded inline SGL entry: at most 24 bytes */
	seg_sgl_host(&h);
	h.sgl.is_inline = true;
	h.sgl.address = h.sgl.memory_key = 0;
	h.sgl.length = 25;
	enc_fails(enc_seg, &h, 64, UET_WIRE_ERANGE);
	h.sgl.length = 24;
	ck_assert_int_eq(enc_seg((uint8_t[64]){0}, 64, &h), 64);
}
END_TEST

/* uet_bytes_are_zero (reserved-field checks, eight bytes at a time): every
 * length and alignment, a single set bit at every position. */
START_TEST(test_bytes_are_zero)
{
	uint8_t buf[48];
	size_t off, n, i;
	unsigned int bit;

	for (off = 0; off < 8; off++) {
		for (n = 0; n + off <= 40; n++) {
			memset(buf, 0xff, sizeof(buf));
			memset(buf + off, 0, n);
			ck_assert(uet_bytes_are_zero(buf + off, n));
			for (i = 0; i < n; i++) {
				for (bit = 0; bit < 8; bit += 7) {
					buf[off + i] = (uint8_t)(1u << bit);
					ck_assert_msg(!uet_bytes_are_zero(
							buf + off, n),
						      "off %zu len %zu byte %zu",
						      off, n, i);
					buf[off + i] = 0;
				}
			}
		}
	}
}
END_TEST

START_TEST(test_seg_decode_range)
{
	struct uet_hsi_cmd_seg h;
	uint8_t buf[64];
	unsigned int v;

	for (v = 0; v < 16; v++) {	/* family nibble */
		memcpy(buf, seg_inline_vec, 64);
		buf[0] = (uint8_t)(v << 4 | (buf[0] & 0x0f));
		ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64),
				 v >= 1 && v <= 4 ? 64 : UET_WIRE_ERANGE);
		if (v >= 1 && v <= 4)
			ck_assert_int_eq(h.family, v);
	}
	for (v = 0; v < 4; v++) {	/* variant */
		memcpy(buf, seg_inline_vec, 64);
		buf[0] = (uint8_t)((buf[0] & 0xf3) | v << 2);
		ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64),
				 v < 3 ? 64 : UET_WIRE_ERANGE);
		if (v < 3)
			ck_assert_int_eq(h.variant, v);
	}
	/* inline with sgl_count != 0 */
	memcpy(buf, seg_inline_vec, 64);
	buf[4] = 1;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	/* inline with payload_len 33 (21 00) and 32 (20 00) */
	memcpy(buf, seg_inline_vec, 64);
	buf[2] = 33;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	buf[2] = 0;
	buf[3] = 1;			/* 256 */
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	buf[2] = 32;
	buf[3] = 0;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), 64);
	ck_assert_int_eq(h.payload_len, 32);
	/* SGL segment: any sgl_count, any payload_len */
	memcpy(buf, seg_sgl_vec, 64);
	buf[4] = 0xff;
	buf[2] = buf[3] = 0xff;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), 64);
	ck_assert_int_eq(h.sgl_count, 255);
	ck_assert_int_eq(h.payload_len, 0xffff);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_sgl_count(buf, 64), 255);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_sgl_count(buf, 63),
			 UET_WIRE_ETRUNC);
	/* EXT (flags bit 3) needs sgl_count >= 1; inline data exactly 1 */
	memcpy(buf, seg_ext_vec, 64);
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), 64);
	ck_assert(h.ext);
	buf[4] = 0;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	buf[4] = 2;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	memcpy(buf, seg_sgl_vec, 64);
	buf[1] |= UET_HSI_CMD_FLAG_EXT;
	buf[4] = 0;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	buf[4] = 1;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), 64);
	ck_assert(h.ext);
	ck_assert_int_eq(h.sgl_count, 1);
	/* embedded inline SGL entry with length 25: ERANGE */
	memcpy(buf, seg_sgl_vec, 64);
	memset(buf + 32, 0, 32);
	buf[32 + 24] = 25;
	buf[32 + 28] = 0x01;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), UET_WIRE_ERANGE);
	buf[32 + 24] = 24;
	ck_assert_int_eq(uet_hsi_cmd_seg_decode(&h, buf, 64), 64);
	ck_assert(h.sgl.is_inline);
	ck_assert_int_eq(h.sgl.length, 24);
}
END_TEST

START_TEST(test_sgl_range)
{
	struct uet_hsi_sgl_entry h;
	uint8_t buf[32];

	sgl_inline_host(&h);
	h.length = 25;
	enc_fails(enc_sgl, &h, 32, UET_WIRE_ERANGE);
	h.length = 0xffffffff;
	enc_fails(enc_sgl, &h, 32, UET_WIRE_ERANGE);
	h.length = 24;
	ck_assert_int_eq(uet_hsi_sgl_entry_encode(buf, 32, &h), 32);
	ck_assert_int_eq(buf[24], 24);
	ck_assert_int_eq(buf[28], 1);

	memcpy(buf, sgl_inline_vec, 32);
	buf[24] = 25;
	ck_assert_int_eq(uet_hsi_sgl_entry_decode(&h, buf, 32),
			 UET_WIRE_ERANGE);
	buf[24] = 0;
	buf[27] = 0x80;		/* length 0x80000000 */
	ck_assert_int_eq(uet_hsi_sgl_entry_decode(&h, buf, 32),
			 UET_WIRE_ERANGE);
	/* indirect: every length is valid */
	sgl_indirect_host(&h);
	h.length = 0xffffffff;
	ck_assert_int_eq(uet_hsi_sgl_entry_encode(buf, 32, &h), 32);
	ck_assert_int_eq(uet_get_le32(buf + 24), 0xffffffffu);
	ck_assert_int_eq(uet_get_le32(buf + 28), 0);
	/* indirect: address needs no alignment (see conformance doc) */
	h.address = 0x1001;
	ck_assert_int_eq(uet_hsi_sgl_entry_encode(buf, 32, &h), 32);
	ck_assert_int_eq(uet_hsi_sgl_entry_decode(&h, buf, 32), 32);
	ck_assert_uint_eq(h.address, 0x1001);
}
END_TEST

START_TEST(test_event_range)
{
	struct uet_hsi_event_notif h, base;
	uint8_t buf[64];
	unsigned int v;

	event_host(&base);
	for (v = 0; v < 256; v++) {
		bool ok = v >= 1 && v <= 6;

		h = base;
		h.event_type = (uint8_t)v;
		if (ok)
			ck_assert_int_eq(enc_event(buf, 64, &h), 64);
		else
			enc_fails(enc_event, &h, 64, UET_WIRE_ERANGE);
		memcpy(buf, event_vec, 64);
		buf[1] = (uint8_t)v;
		ck_assert_int_eq(uet_hsi_event_notif_decode(&h, buf, 64),
				 ok ? 64 : UET_WIRE_ERANGE);
		h = base;
		h.severity = (uint8_t)v;
		if (v <= 3)
			ck_assert_int_eq(enc_event(buf, 64, &h), 64);
		else
			enc_fails(enc_event, &h, 64, UET_WIRE_ERANGE);
	}
	h = base;
	h.status_code = 0x4000;
	enc_fails(enc_event, &h, 64, UET_WIRE_ERANGE);
	h.status_code = 0xffff;
	enc_fails(enc_event, &h, 64, UET_WIRE_ERANGE);
	/* widest values: status 0xffff = code 0x3fff, Fatal */
	h.status_code = 0x3fff;
	h.severity = UET_HSI_SEV_FATAL;
	ck_assert_int_eq(enc_event(buf, 64, &h), 64);
	ck_assert_int_eq(buf[2], 0xff);
	ck_assert_int_eq(buf[3], 0xff);
	buf[63] = 1;
	ck_assert_int_eq(uet_hsi_event_notif_decode(&h, buf, 64), 64);
	ck_assert_int_eq(h.status_code, 0x3fff);
	ck_assert_int_eq(h.severity, 3);
}
END_TEST

START_TEST(test_qwv_range)
{
	struct uet_hsi_qw_violation h, base;
	uint8_t buf[64];
	unsigned int v;

	qwv_host(&base);
	for (v = 0; v < 256; v++) {
		bool ok = v == 1 || v == 2;

		h = base;
		h.violation_type = (uint8_t)v;
		if (ok)
			ck_assert_int_eq(enc_qwv(buf, 64, &h), 64);
		else
			enc_fails(enc_qwv, &h, 64, UET_WIRE_ERANGE);
		memcpy(buf, qwv_vec, 64);
		buf[1] = (uint8_t)v;
		ck_assert_int_eq(uet_hsi_qw_violation_decode(&h, buf, 64),
				 ok ? 64 : UET_WIRE_ERANGE);
	}
}
END_TEST

START_TEST(test_pcie_range)
{
	struct uet_hsi_pcie_cmd h;
	uint8_t buf[64];

	pcie_cmd_host(&h);
	h.packet_length = 9217;
	enc_fails(enc_pcie_cmd, &h, 64, UET_WIRE_ERANGE);
	h.packet_length = 0xffffffff;
	enc_fails(enc_pcie_cmd, &h, 64, UET_WIRE_ERANGE);
	memcpy(buf, pcie_cmd_vec, 64);
	buf[16] = 0x01;			/* 0x2401 = 9217 */
	ck_assert_int_eq(uet_hsi_pcie_cmd_decode(&h, buf, 64),
			 UET_WIRE_ERANGE);
	buf[16] = 0x00;
	ck_assert_int_eq(uet_hsi_pcie_cmd_decode(&h, buf, 64), 64);
	ck_assert_int_eq(h.packet_length, 9216);
}
END_TEST

/* Command extension: unknown ext_flags bits; the SGL view; dest. */
START_TEST(test_ext_range)
{
	struct uet_hsi_cmd_ext h, got;
	struct uet_hsi_sgl_entry sgl;
	uint8_t buf[32], sbuf[32];
	unsigned int bit;

	ext_host(&h);
	for (bit = 0; bit < 32; bit++) {
		h.ext_flags = 1u << bit;
		if (bit < 8) {
			ck_assert_int_eq(enc_ext(buf, 32, &h), 32);
		} else {
			/* host ext_flags is 8 bits; bytes 25-27 of the
			 * word are the E-6 atomic bytes */
			enc_fails(enc_ext, &h, 32, UET_WIRE_ERANGE);
			memcpy(buf, ext_vec, 32);
			buf[24 + bit / 8] |= (uint8_t)(1u << (bit % 8));
			memset(&got, 0x5a, sizeof(got));
			ck_assert_int_eq(uet_hsi_cmd_ext_decode(&got, buf, 32),
					 32);
			ck_assert_int_eq(got.ext_flags, 0x3);
			ck_assert_int_eq(got.amo_op,
					 bit / 8 == 1 ? 1u << (bit % 8) : 0);
			ck_assert_int_eq(got.amo_dtype,
					 bit / 8 == 2 ? 1u << (bit % 8) : 0);
			ck_assert_int_eq(got.nresult,
					 bit / 8 == 3 ? 1u << (bit % 8) : 0);
		}
	}
	/* E-6: an atomic command's extension (CSWAP, UINT64, 1 result
	 * entry, remote address 0x7f00deadbeef00) -> bytes 8-15 the
	 * address, 24-27 = 02 0d 07 01. */
	memset(&h, 0, sizeof(h));
	h.remote_addr = 0x007f00deadbeef00ull;
	h.ext_flags = UET_HSI_EXT_DC;
	h.amo_op = UET_AMO_CSWAP;
	h.amo_dtype = UET_AMO_UINT64;
	h.nresult = 1;
	ck_assert_int_eq(enc_ext(buf, 32, &h), 32);
	{
		static const uint8_t amo_vec[32] = {
			[8] = 0x00, 0xef, 0xbe, 0xad, 0xde, 0x00, 0x7f, 0x00,
			[24] = 0x02, 0x0d, 0x07, 0x01,
		};
		ck_assert_int_eq(memcmp(buf, amo_vec, 32), 0);
	}
	uet_hsi_cmd_ext_to_sgl(&sgl, &h);
	ck_assert_int_eq(uet_hsi_sgl_entry_encode(sbuf, 32, &sgl), 32);
	ck_assert_int_eq(memcmp(sbuf, buf, 32), 0);
	memset(&got, 0, sizeof(got));
	ck_assert_int_eq(uet_hsi_cmd_ext_from_sgl(&got, &sgl), 0);
	ck_assert(eq_ext(&got, &h));
	ck_assert_uint_eq(got.remote_addr, 0x007f00deadbeef00ull);
	/* The extension's bytes are an indirect SGL entry's. */
	ext_host(&h);
	uet_hsi_cmd_ext_to_sgl(&sgl, &h);
	ck_assert(!sgl.is_inline);
	ck_assert_int_eq(uet_hsi_sgl_entry_encode(sbuf, 32, &sgl), 32);
	ck_assert_int_eq(memcmp(sbuf, ext_vec, 32), 0);
	ck_assert_int_eq(uet_hsi_sgl_entry_decode(&sgl, ext_vec, 32), 32);
	memset(&got, 0, sizeof(got));
	ck_assert_int_eq(uet_hsi_cmd_ext_from_sgl(&got, &sgl), 0);
	ck_assert(eq_ext(&got, &h));
	sgl_inline_host(&sgl);
	sgl.length = 1;
	ck_assert_int_eq(uet_hsi_cmd_ext_from_sgl(&got, &sgl),
			 UET_WIRE_ERANGE);

	/* dest: peer 31:0, pid 43:32, ri 55:44 (worked out above) */
	ck_assert_uint_eq(UET_HSI_DEST(7, 0x123, 0x456),
			  0x0045612300000007ull);
	ck_assert_uint_eq(UET_HSI_DEST(0xffffffffu, 0xfff, 0xfff),
			  0x00ffffffffffffffull);
	ck_assert_uint_eq(UET_HSI_DEST_PEER(0x0045612300000007ull), 7);
	ck_assert_uint_eq(UET_HSI_DEST_PID(0x0045612300000007ull), 0x123);
	ck_assert_uint_eq(UET_HSI_DEST_RI(0x0045612300000007ull), 0x456);
	ck_assert_uint_eq(UET_HSI_DEST_PEER(0xff00000000000000ull), 0);
	ck_assert_uint_eq(UET_HSI_DEST_RI(0xff00000000000000ull), 0);
	ck_assert_uint_eq(UET_HSI_DEST_RSVD_MASK, 0xff00000000000000ull);
	ck_assert_uint_eq(UET_HSI_PEER_UNKNOWN, 0xffffffffu);
	ck_assert_uint_eq(UET_HSI_CMD_FLAG_EXT, 0x08);
	ck_assert_uint_eq(UET_HSI_CMD_FLAG_RSVD_MASK, 0x07);
}
END_TEST

/* Typed notification decoders reject every other type byte. */
START_TEST(test_notif_types)
{
	static const struct {
		const uint8_t *vec;
		ssize_t (*dec)(void *, const uint8_t *, size_t);
	} t[] = {
		{ recv_vec, dec_recv }, { send_vec, dec_send },
		{ event_vec, dec_event }, { qwv_vec, dec_qwv },
	};
	union host h;
	uint8_t buf[64];
	unsigned int i, v;

	for (i = 0; i < 4; i++) {
		for (v = 0; v < 256; v++) {
			memcpy(buf, t[i].vec, 64);
			buf[0] = (uint8_t)v;
			ck_assert_int_eq(t[i].dec(&h, buf, 64),
					 v == t[i].vec[0] ? 64 :
					 UET_WIRE_ETYPE);
			/* the generic view accepts the four types only */
			ck_assert_int_eq(dec_generic(&h, buf, 64),
					 v == 0 || v == 1 || v == 2 ||
					 v == 0x10 ? 64 : UET_WIRE_ETYPE);
			ck_assert_int_eq(uet_hsi_notif_peek_type(buf, 64),
					 (int)v);
		}
	}
	/* the four vectors' type bytes, by hand: 0, 1, 2, 0x10 */
	ck_assert_int_eq(uet_hsi_notif_peek_type(recv_vec, 64), 0);
	ck_assert_int_eq(uet_hsi_notif_peek_type(send_vec, 64), 1);
	ck_assert_int_eq(uet_hsi_notif_peek_type(event_vec, 64), 2);
	ck_assert_int_eq(uet_hsi_notif_peek_type(qwv_vec, 64), 0x10);
	ck_assert_int_eq(uet_hsi_notif_peek_type(qwv_vec, 63),
			 UET_WIRE_ETRUNC);
}
END_TEST

START_TEST(test_generic_encode_range)
{
	struct uet_hsi_notif_entry h;
	unsigned int v;

	generic_host(&h);
	for (v = 0; v < 256; v++) {
		h.type = (uint8_t)v;
		if (v == 0 || v == 1 || v == 2 || v == 0x10)
			ck_assert_int_eq(enc_generic((uint8_t[64]){0}, 64, &h),
					 64);
		else
			enc_fails(enc_generic, &h, 64, UET_WIRE_ERANGE);
	}
}
END_TEST

START_TEST(test_marker_access)
{
	uint8_t buf[64];
	unsigned int m;

	ck_assert_int_eq(uet_hsi_notif_get_marker(recv_vec, 64), 7);
	ck_assert_int_eq(uet_hsi_notif_get_marker(send_vec, 64), 13);
	ck_assert_int_eq(uet_hsi_notif_get_marker(send_vec, 63),
			 UET_WIRE_ETRUNC);
	for (m = 0; m < 256; m++) {
		memset(buf, 0x11, sizeof(buf));
		if (m >= 1 && m <= 13) {
			ck_assert_int_eq(uet_hsi_notif_set_marker(buf, 64, m),
					 0);
			ck_assert_int_eq(buf[63], m);
			ck_assert_int_eq(uet_hsi_notif_get_marker(buf, 64),
					 (int)m);
		} else {
			ck_assert_int_eq(uet_hsi_notif_set_marker(buf, 64, m),
					 UET_WIRE_ERANGE);
			ck_assert_int_eq(buf[63], 0x11);
		}
		ck_assert_int_eq(buf[62], 0x11);
	}
	ck_assert_int_eq(uet_hsi_notif_set_marker(buf, 63, 1),
			 UET_WIRE_ENOBUFS);
	ck_assert(uet_hsi_marker_valid(1) && uet_hsi_marker_valid(13));
	ck_assert(!uet_hsi_marker_valid(0) && !uet_hsi_marker_valid(14));
}
END_TEST

/* Raw fields of entries that may not decode (no byte offsets outside
 * hsi/). */
START_TEST(test_peek_fields)
{
	uint8_t seg[UET_HSI_CMD_SEG_LEN], n[UET_HSI_NOTIF_LEN];
	uint64_t md = 7;

	memset(seg, 0, sizeof(seg));
	seg[0] = 0xa5;
	seg[1] = UET_HSI_CMD_FLAG_FENCE;
	uet_put_le64(seg + 24, 0x1122334455667788ull);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_opcode(seg, sizeof(seg)), 0xa5);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_flags(seg, sizeof(seg)),
			 UET_HSI_CMD_FLAG_FENCE);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_metadata(seg, sizeof(seg), &md),
			 0);
	ck_assert_uint_eq(md, 0x1122334455667788ull);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_opcode(seg, 63), UET_WIRE_ETRUNC);
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_flags(seg, 63), UET_WIRE_ETRUNC);
	md = 7;
	ck_assert_int_eq(uet_hsi_cmd_seg_peek_metadata(seg, 63, &md),
			 UET_WIRE_ETRUNC);
	ck_assert_uint_eq(md, 7);

	memset(n, 0, sizeof(n));
	n[0] = UET_HSI_NOTIF_RECV;
	n[1] = UET_HSI_RECV_FLAG_CONTINUATION;
	ck_assert_int_eq(uet_hsi_notif_peek_flags(n, sizeof(n)),
			 UET_HSI_RECV_FLAG_CONTINUATION);
	ck_assert(uet_hsi_notif_has_continuation(n, sizeof(n)));
	ck_assert(!uet_hsi_notif_has_continuation(n, 63));
	ck_assert_int_eq(uet_hsi_notif_peek_flags(n, 63), UET_WIRE_ETRUNC);
	n[1] = 0;
	ck_assert(!uet_hsi_notif_has_continuation(n, sizeof(n)));
	/* the same flag bit in another notification type means nothing */
	n[0] = UET_HSI_NOTIF_SEND;
	n[1] = UET_HSI_RECV_FLAG_CONTINUATION;
	ck_assert(!uet_hsi_notif_has_continuation(n, sizeof(n)));
}
END_TEST

START_TEST(test_nslots)
{
	/* 1 segment slot + ceil(n / 2) SGL slots */
	static const unsigned int want[] = { 1, 2, 2, 3, 3, 4, 4, 5, 5 };
	unsigned int n;

	for (n = 0; n < 9; n++)
		ck_assert_uint_eq(uet_hsi_cmd_nslots(n), want[n]);
	ck_assert_uint_eq(uet_hsi_cmd_nslots(255), 129);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(uet_hsi_cmd_family_str(UET_HSI_FAMILY_MSG), "MSG");
	ck_assert_str_eq(uet_hsi_cmd_family_str(4), "ATOMIC");
	ck_assert_str_eq(uet_hsi_cmd_family_str(0), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_cmd_family_str(5), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_cmd_variant_str(2), "INJECT");
	ck_assert_str_eq(uet_hsi_cmd_variant_str(3), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_notif_type_str(0), "RECV");
	ck_assert_str_eq(uet_hsi_notif_type_str(0x10), "QW_VIOLATION");
	ck_assert_str_eq(uet_hsi_notif_type_str(3), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_notif_type_str(0x11), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_event_type_str(1), "RXPOOL_EXHAUSTED");
	ck_assert_str_eq(uet_hsi_event_type_str(6), "PCIE_ERROR");
	ck_assert_str_eq(uet_hsi_event_type_str(0), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_event_type_str(7), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_severity_str(3), "FATAL");
	ck_assert_str_eq(uet_hsi_severity_str(4), "UNKNOWN");
	ck_assert_str_eq(uet_hsi_qw_violation_type_str(1), "SUB_QW");
	ck_assert_str_eq(uet_hsi_qw_violation_type_str(2), "UNALIGNED");
	ck_assert_str_eq(uet_hsi_qw_violation_type_str(0), "UNKNOWN");
}
END_TEST

/* Receive continuation entry (E-5): layout, round trip, reserved bits. */
START_TEST(test_recv_cont)
{
	struct uet_hsi_recv_cont h, got;
	struct uet_hsi_recv_notif rn;
	uint8_t buf[64], b2[64];
	unsigned int i, bit;

	memset(&h, 0, sizeof(h));
	h.has_data = true;
	h.header_data = 0x1122334455667788ull;
	h.olen = 0x01020304;
	h.initiator = 0xabc123;
	h.mr_valid = true;
	h.mr_released = true;
	h.mr_offset = 0x0000a0b0c0d0e0f0ull;
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(uet_hsi_recv_cont_encode(buf, 63, &h),
			 UET_WIRE_ENOBUFS);
	ck_assert_int_eq(uet_hsi_recv_cont_encode(buf, 64, &h), 64);
	/* bytes: type 0, flags CONTINUATION, status 1, src_id, tag,
	 * total_length, zero ids/offset/reserved, offset at 28, flags at
	 * 36, zero to 62, marker untouched */
	ck_assert_uint_eq(buf[0], 0);
	ck_assert_uint_eq(buf[1], UET_HSI_RECV_FLAG_CONTINUATION);
	ck_assert_uint_eq(uet_get_le16(buf + 2), 1);
	ck_assert_uint_eq(uet_get_le32(buf + 4), 0xabc123);
	ck_assert_uint_eq(uet_get_le64(buf + 8), h.header_data);
	ck_assert_uint_eq(uet_get_le32(buf + 16), h.olen);
	for (i = 20; i < 28; i++)
		ck_assert_uint_eq(buf[i], 0);
	ck_assert_uint_eq(uet_get_le64(buf + 28), h.mr_offset);
	ck_assert_uint_eq(buf[36], UET_HSI_CONT_MR_VALID |
			  UET_HSI_CONT_MR_RELEASED);
	for (i = 37; i < 63; i++)
		ck_assert_uint_eq(buf[i], 0);
	ck_assert_uint_eq(buf[63], 0xee);
	/* no marker yet */
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, buf, 64),
			 UET_WIRE_ERANGE);
	buf[63] = 5;
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, buf, 63),
			 UET_WIRE_ETRUNC);
	memset(&got, 0, sizeof(got));
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, buf, 64), 64);
	ck_assert(got.has_data && got.mr_valid && got.mr_released);
	ck_assert_uint_eq(got.header_data, h.header_data);
	ck_assert_uint_eq(got.olen, h.olen);
	ck_assert_uint_eq(got.initiator, h.initiator);
	ck_assert_uint_eq(got.mr_offset, h.mr_offset);
	ck_assert_uint_eq(got.marker, 5);
	/* the same entry reads as a receive notification too */
	ck_assert_int_eq(uet_hsi_recv_notif_decode(&rn, buf, 64), 64);
	ck_assert(rn.continuation && !rn.is_inline);
	ck_assert_uint_eq(rn.tag, h.header_data);

	/* every reserved bit: status 15:1, ids, offset, reserved bytes,
	 * flags bits 7:2 and the bytes after them */
	for (i = 0; i < 63; i++) {
		for (bit = 0; bit < 8; bit++) {
			bool rsvd = (i == 2 && bit > 0) || i == 3 ||
				    (i >= 20 && i < 28) ||
				    (i == 36 && bit > 1) || i > 36;

			if (!rsvd)
				continue;
			memcpy(b2, buf, 64);
			b2[i] ^= (uint8_t)(1u << bit);
			memset(&got, 0x5a, sizeof(got));
			ck_assert_msg(uet_hsi_recv_cont_decode(&got, b2, 64) ==
				      UET_WIRE_ERESERVED, "byte %u bit %u",
				      i, bit);
			ck_assert_uint_eq(got.olen, 0x5a5a5a5a);
		}
	}
	/* not a continuation: INLINE set, CONTINUATION missing, send type */
	memcpy(b2, buf, 64);
	b2[1] |= UET_HSI_RECV_FLAG_INLINE;
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ETYPE);
	b2[1] = 0;
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ETYPE);
	memcpy(b2, buf, 64);
	b2[0] = UET_HSI_NOTIF_SEND;
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ETYPE);
	/* values the encoder refuses, both ways */
	memcpy(b2, buf, 64);
	b2[2] = 0;			/* header_data without has_data */
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ERANGE);
	memcpy(b2, buf, 64);
	b2[36] = UET_HSI_CONT_MR_RELEASED;	/* offset without valid */
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ERANGE);
	memcpy(b2, buf, 64);
	b2[7] = 1;			/* initiator above 24 bits */
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, b2, 64),
			 UET_WIRE_ERANGE);
	got = h;
	got.has_data = false;
	ck_assert_int_eq(uet_hsi_recv_cont_encode(b2, 64, &got),
			 UET_WIRE_ERANGE);
	got = h;
	got.mr_valid = false;
	ck_assert_int_eq(uet_hsi_recv_cont_encode(b2, 64, &got),
			 UET_WIRE_ERANGE);
	got = h;
	got.initiator = 0x1000000;
	ck_assert_int_eq(uet_hsi_recv_cont_encode(b2, 64, &got),
			 UET_WIRE_ERANGE);
	/* the smallest one: only the initiator */
	memset(&h, 0, sizeof(h));
	h.initiator = 0x011022;
	ck_assert_int_eq(uet_hsi_recv_cont_encode(buf, 64, &h), 64);
	buf[63] = 1;
	ck_assert_int_eq(uet_hsi_recv_cont_decode(&got, buf, 64), 64);
	ck_assert(!got.has_data && !got.mr_valid && !got.mr_released);
	ck_assert_uint_eq(got.initiator, 0x011022);
	ck_assert_uint_eq(uet_get_le16(buf + 2), 0);
	ck_assert_uint_eq(buf[36], 0);
}
END_TEST

static Suite *hsi_formats_suite(void)
{
	Suite *s = suite_create("hsi_formats");
	TCase *tc;

	tc = tcase_create("generic");
	tcase_add_loop_test(tc, test_known_encode, 0, NFMTS);
	tcase_add_loop_test(tc, test_known_decode, 0, NFMTS);
	tcase_add_loop_test(tc, test_round_trip, 0, NFMTS);
	tcase_add_loop_test(tc, test_truncated, 0, NFMTS);
	tcase_add_loop_test(tc, test_short_output, 0, NFMTS);
	tcase_add_loop_test(tc, test_reserved_bits, 0, NFMTS);
	tcase_add_test(tc, test_markers);
	tcase_add_loop_test(tc, test_canonical, 0, NFMTS);
	suite_add_tcase(s, tc);

	tc = tcase_create("values");
	tcase_add_test(tc, test_seg_encode_range);
	tcase_add_test(tc, test_seg_decode_range);
	tcase_add_test(tc, test_bytes_are_zero);
	tcase_add_test(tc, test_sgl_range);
	tcase_add_test(tc, test_ext_range);
	tcase_add_test(tc, test_recv_cont);
	tcase_add_test(tc, test_event_range);
	tcase_add_test(tc, test_qwv_range);
	tcase_add_test(tc, test_pcie_range);
	tcase_add_test(tc, test_notif_types);
	tcase_add_test(tc, test_generic_encode_range);
	tcase_add_test(tc, test_marker_access);
	tcase_add_test(tc, test_nslots);
	tcase_add_test(tc, test_peek_fields);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(hsi_formats_suite)
