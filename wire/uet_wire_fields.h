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

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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

/*
 * The encoder, decoder and their fast check run in every packet's path:
 * they are inline here so that a codec whose table is a constant gets the
 * loop unrolled and each field's kind, width and offset folded, as if its
 * body were written by hand.  The ordered passes above (error path only)
 * stay in uet_wire_fields.c.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define UET_WF_UNROLL _Pragma("GCC unroll 64")
#else
#define UET_WF_UNROLL
#endif
#if defined(__GNUC__)
#define UET_WF_INLINE static inline __attribute__((always_inline))
#else
#define UET_WF_INLINE static inline
#endif

/* ---- host struct members ---- */

UET_WF_INLINE uint64_t uet_wf_member_get(const struct uet_wire_field *f,
					 const void *h)
{
	const uint8_t *m = (const uint8_t *)h + f->moff;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (f->msize) {
	case 1:
		memcpy(&v8, m, 1);
		return v8;
	case 2:
		memcpy(&v16, m, 2);
		return v16;
	case 4:
		memcpy(&v32, m, 4);
		return v32;
	default:
		assert(f->msize == 8);
		memcpy(&v64, m, 8);
		return v64;
	}
}

UET_WF_INLINE void uet_wf_member_set(const struct uet_wire_field *f, void *h,
				     uint64_t v)
{
	uint8_t *m = (uint8_t *)h + f->moff;
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (f->msize) {
	case 1:
		memcpy(m, &v8, 1);
		break;
	case 2:
		memcpy(m, &v16, 2);
		break;
	case 4:
		memcpy(m, &v32, 4);
		break;
	default:
		assert(f->msize == 8);
		memcpy(m, &v, 8);
		break;
	}
}

/* ---- wire integers ---- */

UET_WF_INLINE uint64_t uet_wf_wire_get(const struct uet_wire_field *f,
				       const uint8_t *p,
				       enum uet_wf_order order)
{
	switch (f->len) {
	case 1:
		return uet_get_u8(p);
	case 2:
		return order == UET_WF_BE ? uet_get_be16(p) : uet_get_le16(p);
	case 3:
		assert(order == UET_WF_BE);
		return uet_get_be24(p);
	case 4:
		return order == UET_WF_BE ? uet_get_be32(p) : uet_get_le32(p);
	default:
		assert(f->len == 8);
		return order == UET_WF_BE ? uet_get_be64(p) : uet_get_le64(p);
	}
}

UET_WF_INLINE void uet_wf_wire_put(const struct uet_wire_field *f, uint8_t *p,
				   enum uet_wf_order order, uint64_t v)
{
	switch (f->len) {
	case 1:
		uet_put_u8(p, (uint8_t)v);
		break;
	case 2:
		if (order == UET_WF_BE)
			uet_put_be16(p, (uint16_t)v);
		else
			uet_put_le16(p, (uint16_t)v);
		break;
	case 3:
		assert(order == UET_WF_BE);
		uet_put_be24(p, (uint32_t)v);
		break;
	case 4:
		if (order == UET_WF_BE)
			uet_put_be32(p, (uint32_t)v);
		else
			uet_put_le32(p, (uint32_t)v);
		break;
	default:
		assert(f->len == 8);
		if (order == UET_WF_BE)
			uet_put_be64(p, v);
		else
			uet_put_le64(p, v);
		break;
	}
}

UET_WF_INLINE uint64_t uet_wf_bits_mask(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* Largest value a UINT or BITS field takes: its max, or its width's. */
UET_WF_INLINE uint64_t uet_wf_field_max(const struct uet_wire_field *f)
{
	if (f->max)
		return f->max;
	return uet_wf_bits_mask(f->kind == UET_WF_BITS ? f->bits : 8u * f->len);
}

UET_WF_INLINE bool uet_wf_is_value(const struct uet_wire_field *f)
{
	return f->kind == UET_WF_UINT || f->kind == UET_WF_BITS;
}

/* The field's value as the wire holds it (BITS: shifted down). */
UET_WF_INLINE uint64_t uet_wf_wire_value(const struct uet_wire_field *f,
					 const uint8_t *buf,
					 enum uet_wf_order order)
{
	uint64_t w = uet_wf_wire_get(f, buf + f->off, order);

	if (f->kind == UET_WF_BITS || f->kind == UET_WF_RSVD_BITS)
		return w >> f->shift & uet_wf_bits_mask(f->bits);
	return w;
}

/* ---- checks ---- */

/* True when v passes every pass's check of value field f. */
UET_WF_INLINE bool uet_wf_value_ok(const struct uet_wire_field *f, uint64_t v)
{
	if (v > uet_wf_field_max(f))
		return false;
	if ((f->flags & UET_WF_NONZERO) && !v)
		return false;
	return !f->ok || f->ok(v);
}

/*
 * Every pass at once, in one loop: true when none of the checks above
 * refuses h (encode) or buf (decode).  Codecs run this first and the
 * ordered passes only when it is false, to pick the error to return.
 */
UET_WF_INLINE bool uet_wf_host_clean(const struct uet_wf_table *t,
				     const void *h)
{
	const struct uet_wire_field *f;
	size_t i;

	UET_WF_UNROLL
	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (!uet_wf_is_value(f) || (f->flags & UET_WF_DECODE_ONLY))
			continue;
		if (!uet_wf_value_ok(f, uet_wf_member_get(f, h)))
			return false;
	}
	return true;
}

UET_WF_INLINE bool uet_wf_wire_clean(const struct uet_wf_table *t,
				     const uint8_t *buf)
{
	const struct uet_wire_field *f;
	uint64_t v;
	size_t i;

	UET_WF_UNROLL
	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		switch (f->kind) {
		case UET_WF_RSVD:
			if (!uet_bytes_are_zero(buf + f->off, f->len))
				return false;
			break;
		case UET_WF_CONST:
			if (uet_wf_wire_get(f, buf + f->off, t->order) !=
			    f->max)
				return false;
			break;
		case UET_WF_RSVD_BITS:
			if (uet_wf_wire_value(f, buf, t->order))
				return false;
			break;
		case UET_WF_UINT:
			/* Without max, NONZERO or ok every wire value fits. */
			if (!f->max && !(f->flags & UET_WF_NONZERO) && !f->ok)
				break;
			/* fall through */
		case UET_WF_BITS:
			v = uet_wf_wire_value(f, buf, t->order);
			if (!uet_wf_value_ok(f, v))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* ---- put and get ---- */

/* Set (or, for RSVD_BITS, clear) the field's bits of its word. */
UET_WF_INLINE void uet_wf_bits_put(const struct uet_wire_field *f, uint8_t *buf,
				   enum uet_wf_order order, uint64_t v)
{
	uint64_t mask = uet_wf_bits_mask(f->bits) << f->shift;
	uint64_t w;

	if (f->len == 1) {
		buf[f->off] = (uint8_t)((buf[f->off] & ~mask) |
					(v << f->shift & mask));
		return;
	}
	w = uet_wf_wire_get(f, buf + f->off, order);
	w = (w & ~mask) | (v << f->shift & mask);
	uet_wf_wire_put(f, buf + f->off, order, w);
}

/* Write every field of h into buf (reserved fields as zeros). */
UET_WF_INLINE void uet_wf_put(const struct uet_wf_table *t, uint8_t *buf,
			      const void *h)
{
	const struct uet_wire_field *f;
	size_t i;

	/* Bit fields are merged into their word: start every such word
	 * from zero, so that no bit of the output comes from what buf held
	 * before (bits no field names go out as zeros). */
	UET_WF_UNROLL
	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if ((f->kind == UET_WF_BITS || f->kind == UET_WF_RSVD_BITS) &&
		    !(f->flags & UET_WF_DECODE_ONLY))
			memset(buf + f->off, 0, f->len);
	}
	UET_WF_UNROLL
	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (f->flags & UET_WF_DECODE_ONLY)
			continue;
		switch (f->kind) {
		case UET_WF_UINT:
			uet_wf_wire_put(f, buf + f->off, t->order,
					uet_wf_member_get(f, h));
			break;
		case UET_WF_BYTES:
			memcpy(buf + f->off, (const uint8_t *)h + f->moff,
			       f->len);
			break;
		case UET_WF_RSVD:
			memset(buf + f->off, 0, f->len);
			break;
		case UET_WF_BITS:
			uet_wf_bits_put(f, buf, t->order,
					uet_wf_member_get(f, h));
			break;
		case UET_WF_RSVD_BITS:
			uet_wf_bits_put(f, buf, t->order, 0);
			break;
		default: /* UET_WF_CONST */
			uet_wf_wire_put(f, buf + f->off, t->order, f->max);
			break;
		}
	}
}

/* Read every field of buf into h (members not in the table untouched). */
UET_WF_INLINE void uet_wf_get(const struct uet_wf_table *t, void *h,
			      const uint8_t *buf)
{
	const struct uet_wire_field *f;
	size_t i;

	UET_WF_UNROLL
	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		switch (f->kind) {
		case UET_WF_UINT:
			uet_wf_member_set(f, h, uet_wf_wire_get(f, buf + f->off,
								 t->order));
			break;
		case UET_WF_BITS:
			uet_wf_member_set(f, h,
					  uet_wf_wire_value(f, buf, t->order));
			break;
		case UET_WF_BYTES:
			memcpy((uint8_t *)h + f->moff, buf + f->off, f->len);
			break;
		default:
			break;
		}
	}
}

/*
 * A whole format made of its table alone: encode checks the length
 * (UET_WIRE_ENOBUFS) and every pass, then writes need bytes; decode
 * checks the length (UET_WIRE_ETRUNC) and the passes in the order
 * above, then clears the size bytes of h and fills it.  Both return need
 * or the error; nothing is written on failure.
 */
UET_WF_INLINE ssize_t uet_wf_encode(const struct uet_wf_table *t, size_t need,
				    uint8_t *buf, size_t len, const void *h)
{
	int ret;

	if (len < need)
		return UET_WIRE_ENOBUFS;
	/* The ordered passes only pick which error a bad struct gets. */
	if (!uet_wf_host_clean(t, h)) {
		ret = uet_wf_check_host(t, h, UET_WF_RESERVED);
		if (!ret)
			ret = uet_wf_check_host(t, h, UET_WF_REQUIRED);
		if (!ret)
			ret = uet_wf_check_host(t, h, UET_WF_VALUES);
		if (ret)
			return ret;
	}
	uet_wf_put(t, buf, h);
	return (ssize_t)need;
}

UET_WF_INLINE ssize_t uet_wf_decode(const struct uet_wf_table *t, size_t need,
				    size_t size, void *h, const uint8_t *buf,
				    size_t len)
{
	enum uet_wf_pass pass;
	int ret;

	if (len < need)
		return UET_WIRE_ETRUNC;
	/* The ordered passes only pick which error a bad header gets. */
	if (!uet_wf_wire_clean(t, buf)) {
		for (pass = UET_WF_TYPE; pass <= UET_WF_VALUES; pass++) {
			ret = uet_wf_check_wire(t, buf, pass);
			if (ret)
				return ret;
		}
	}
	memset(h, 0, size);
	uet_wf_get(t, h, buf);
	return (ssize_t)need;
}

#endif /* UET_WIRE_FIELDS_H */
