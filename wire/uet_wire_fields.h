/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Table-driven field codec for fixed-layout headers.
 *
 * A format that is a list of fields at fixed byte offsets (plus, for some
 * formats, packed control bytes that the format's own code handles) is
 * described by one table: where each field sits on the wire, how wide it
 * is there, which struct member holds it in host order, and which values
 * are refused.  The same table drives the encoder, the decoder and their
 * checks, so a format's layout is written once.
 *
 * Checks come in passes, so that a codec can keep the error order the
 * UET_WIRE_E* conventions ask for (uet_wire.h):
 *   UET_WF_TYPE      decode: a UET_WF_CONST field (the format's type
 *                    byte) that does not hold its value: UET_WIRE_ETYPE.
 *   UET_WF_RESERVED  encode: a value wider than its field (or above its
 *                    max) is UET_WIRE_ERANGE; decode: a reserved field
 *                    not zero, or a bit above max set, is
 *                    UET_WIRE_ERESERVED.
 *   UET_WF_REQUIRED  a UET_WF_NONZERO field that is 0: UET_WIRE_ERANGE.
 *   UET_WF_VALUES    a field whose ok() refuses it: UET_WIRE_ERANGE.
 * Host structs are read and written through offsetof(), never cast over
 * the wire bytes.
 */
#ifndef UET_WIRE_FIELDS_H
#define UET_WIRE_FIELDS_H

#include <stddef.h>

#include "uet_wire.h"

enum uet_wf_kind {
	UET_WF_UINT,	/* unsigned integer, 1, 2, 3 (BE only), 4 or 8 bytes */
	UET_WF_BYTES,	/* byte array member copied as it is */
	UET_WF_RSVD,	/* reserved: written as zeros, must read as zeros */
	UET_WF_BITS,	/* bits shift..shift+bits-1 of an integer word */
	UET_WF_RSVD_BITS, /* reserved bits of a word: written 0, read as 0 */
	UET_WF_CONST,	/* the format's type: .max written, else ETYPE */
};

enum uet_wf_order {
	UET_WF_BE,	/* network order (PDS, SES, CMS, TSS) */
	UET_WF_LE,	/* HSI descriptors */
};

enum uet_wf_pass {
	UET_WF_TYPE,
	UET_WF_RESERVED,
	UET_WF_REQUIRED,
	UET_WF_VALUES,
};

#define UET_WF_NONZERO	0x01u	/* 0 is refused (ERANGE) */
#define UET_WF_DECODE_ONLY 0x02u /* read by decoders; encoders neither check
				  * nor write it (e.g. an HSI marker) */

struct uet_wire_field {
	uint8_t kind;		/* enum uet_wf_kind */
	uint8_t off;		/* wire byte offset */
	uint8_t len;		/* wire bytes */
	uint8_t msize;		/* sizeof the struct member (0 for RSVD) */
	uint16_t moff;		/* offsetof the struct member */
	uint8_t flags;		/* UET_WF_NONZERO, UET_WF_DECODE_ONLY */
	uint8_t shift;		/* BITS, RSVD_BITS: lowest bit in the word */
	uint8_t bits;		/* BITS, RSVD_BITS: how many bits */
	uint64_t max;		/* UINT, BITS: largest value (0: the width) */
	bool (*ok)(uint64_t v);	/* UINT, BITS: value check, or NULL */
};

struct uet_wf_table {
	const struct uet_wire_field *f;
	size_t n;
	enum uet_wf_order order;
};

/* A UINT field: struct type, member, wire offset, wire bytes, then any
 * of .max = ..., .flags = UET_WF_NONZERO, .ok = fn. */
#define UET_WF_U(type, member, off_, len_, ...)				\
	{ .kind = UET_WF_UINT, .off = (off_), .len = (len_),		\
	  .msize = sizeof(((type *)0)->member),				\
	  .moff = offsetof(type, member), __VA_ARGS__ }
/* A byte array member, as wide on the wire as in the struct. */
#define UET_WF_B(type, member, off_)					\
	{ .kind = UET_WF_BYTES, .off = (off_),				\
	  .len = sizeof(((type *)0)->member),				\
	  .msize = sizeof(((type *)0)->member),			\
	  .moff = offsetof(type, member) }
/* len_ reserved bytes at off_. */
#define UET_WF_R(off_, len_)						\
	{ .kind = UET_WF_RSVD, .off = (off_), .len = (len_) }
/* Bits shift_ .. shift_ + bits_ - 1 of the len_-byte word at off_; every
 * bit of such a word must belong to one UET_WF_BITS or UET_WF_RB entry. */
#define UET_WF_BIT(type, member, off_, len_, shift_, bits_, ...)	\
	{ .kind = UET_WF_BITS, .off = (off_), .len = (len_),		\
	  .shift = (shift_), .bits = (bits_),				\
	  .msize = sizeof(((type *)0)->member),				\
	  .moff = offsetof(type, member), __VA_ARGS__ }
#define UET_WF_RB(off_, len_, shift_, bits_)				\
	{ .kind = UET_WF_RSVD_BITS, .off = (off_), .len = (len_),	\
	  .shift = (shift_), .bits = (bits_) }

/* A len_-byte constant (the format's type) at off_. */
#define UET_WF_K(off_, len_, value)					\
	{ .kind = UET_WF_CONST, .off = (off_), .len = (len_),		\
	  .max = (value) }

#define UET_WF_TABLE(fields, order_)					\
	{ .f = (fields), .n = sizeof(fields) / sizeof((fields)[0]),	\
	  .order = (order_) }

/* One pass of checks over host struct h (encode) or wire bytes buf
 * (decode); 0 or a UET_WIRE_E* value, as listed above. */
int uet_wf_check_host(const struct uet_wf_table *t, const void *h,
		      enum uet_wf_pass pass);
int uet_wf_check_wire(const struct uet_wf_table *t, const uint8_t *buf,
		      enum uet_wf_pass pass);

/* Write every field of h into buf (reserved fields as zeros). */
void uet_wf_put(const struct uet_wf_table *t, uint8_t *buf, const void *h);
/* Read every field of buf into h (members not in the table untouched). */
void uet_wf_get(const struct uet_wf_table *t, void *h, const uint8_t *buf);

/*
 * A whole format made of its table alone: encode checks the length
 * (UET_WIRE_ENOBUFS) and every pass, then writes need bytes; decode
 * checks the length (UET_WIRE_ETRUNC) and the passes in the order
 * above, then clears the size bytes of h and fills it.  Both return need
 * or the error; nothing is written on failure.
 */
ssize_t uet_wf_encode(const struct uet_wf_table *t, size_t need,
		      uint8_t *buf, size_t len, const void *h);
ssize_t uet_wf_decode(const struct uet_wf_table *t, size_t need,
		      size_t size, void *h, const uint8_t *buf, size_t len);

#endif /* UET_WIRE_FIELDS_H */
