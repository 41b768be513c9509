/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Table-driven field codec (uet_wire_fields.h).
 */
#include <assert.h>
#include <string.h>

#include "uet_wire_fields.h"

/* ---- host struct members ---- */

static uint64_t member_get(const struct uet_wire_field *f, const void *h)
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

static void member_set(const struct uet_wire_field *f, void *h, uint64_t v)
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

static uint64_t wire_get(const struct uet_wire_field *f, const uint8_t *p,
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

static void wire_put(const struct uet_wire_field *f, uint8_t *p,
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

static uint64_t bits_mask(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* Largest value a UINT or BITS field takes: its max, or its width's. */
static uint64_t field_max(const struct uet_wire_field *f)
{
	if (f->max)
		return f->max;
	return bits_mask(f->kind == UET_WF_BITS ? f->bits : 8u * f->len);
}

static bool is_value(const struct uet_wire_field *f)
{
	return f->kind == UET_WF_UINT || f->kind == UET_WF_BITS;
}

/* The field's value as the wire holds it (BITS: shifted down). */
static uint64_t wire_value(const struct uet_wire_field *f, const uint8_t *buf,
			   enum uet_wf_order order)
{
	uint64_t w = wire_get(f, buf + f->off, order);

	if (f->kind == UET_WF_BITS || f->kind == UET_WF_RSVD_BITS)
		return w >> f->shift & bits_mask(f->bits);
	return w;
}

/* One pass over one value; reserved_err is the error of that pass. */
static int value_check(const struct uet_wire_field *f, uint64_t v,
		       enum uet_wf_pass pass, int reserved_err)
{
	switch (pass) {
	case UET_WF_TYPE:
		return 0;
	case UET_WF_RESERVED:
		return v > field_max(f) ? reserved_err : 0;
	case UET_WF_REQUIRED:
		return (f->flags & UET_WF_NONZERO) && !v ? UET_WIRE_ERANGE : 0;
	default:
		return f->ok && !f->ok(v) ? UET_WIRE_ERANGE : 0;
	}
}

int uet_wf_check_host(const struct uet_wf_table *t, const void *h,
		      enum uet_wf_pass pass)
{
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		if (!is_value(&t->f[i]) ||
		    (t->f[i].flags & UET_WF_DECODE_ONLY))
			continue;
		ret = value_check(&t->f[i], member_get(&t->f[i], h), pass,
				  UET_WIRE_ERANGE);
		if (ret)
			return ret;
	}
	return 0;
}

int uet_wf_check_wire(const struct uet_wf_table *t, const uint8_t *buf,
		      enum uet_wf_pass pass)
{
	const struct uet_wire_field *f;
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (f->kind == UET_WF_RSVD && pass == UET_WF_RESERVED &&
		    !uet_bytes_are_zero(buf + f->off, f->len))
			return UET_WIRE_ERESERVED;
		if (f->kind == UET_WF_CONST && pass == UET_WF_TYPE &&
		    wire_get(f, buf + f->off, t->order) != f->max)
			return UET_WIRE_ETYPE;
		if (f->kind == UET_WF_RSVD_BITS && pass == UET_WF_RESERVED &&
		    wire_value(f, buf, t->order))
			return UET_WIRE_ERESERVED;
		if (!is_value(f))
			continue;
		ret = value_check(f, wire_value(f, buf, t->order), pass,
				  UET_WIRE_ERESERVED);
		if (ret)
			return ret;
	}
	return 0;
}

/* Set (or, for RSVD_BITS, clear) the field's bits of its word. */
static void bits_put(const struct uet_wire_field *f, uint8_t *buf,
		     enum uet_wf_order order, uint64_t v)
{
	uint64_t mask = bits_mask(f->bits) << f->shift;
	uint64_t w = wire_get(f, buf + f->off, order);

	w = (w & ~mask) | (v << f->shift & mask);
	wire_put(f, buf + f->off, order, w);
}

void uet_wf_put(const struct uet_wf_table *t, uint8_t *buf, const void *h)
{
	const struct uet_wire_field *f;
	size_t i;

	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (f->flags & UET_WF_DECODE_ONLY)
			continue;
		if (f->kind == UET_WF_BITS)
			bits_put(f, buf, t->order, member_get(f, h));
		else if (f->kind == UET_WF_RSVD_BITS)
			bits_put(f, buf, t->order, 0);
		else if (f->kind == UET_WF_CONST)
			wire_put(f, buf + f->off, t->order, f->max);
		else if (f->kind == UET_WF_UINT)
			wire_put(f, buf + f->off, t->order, member_get(f, h));
		else if (f->kind == UET_WF_BYTES)
			memcpy(buf + f->off, (const uint8_t *)h + f->moff,
			       f->len);
		else if (f->kind == UET_WF_RSVD)
			memset(buf + f->off, 0, f->len);
	}
}

void uet_wf_get(const struct uet_wf_table *t, void *h, const uint8_t *buf)
{
	const struct uet_wire_field *f;
	size_t i;

	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (is_value(f))
			member_set(f, h, wire_value(f, buf, t->order));
		else if (f->kind == UET_WF_BYTES)
			memcpy((uint8_t *)h + f->moff, buf + f->off, f->len);
	}
}

ssize_t uet_wf_encode(const struct uet_wf_table *t, size_t need,
		      uint8_t *buf, size_t len, const void *h)
{
	int ret;

	if (len < need)
		return UET_WIRE_ENOBUFS;
	ret = uet_wf_check_host(t, h, UET_WF_RESERVED);
	if (!ret)
		ret = uet_wf_check_host(t, h, UET_WF_REQUIRED);
	if (!ret)
		ret = uet_wf_check_host(t, h, UET_WF_VALUES);
	if (ret)
		return ret;
	uet_wf_put(t, buf, h);
	return (ssize_t)need;
}

ssize_t uet_wf_decode(const struct uet_wf_table *t, size_t need,
		      size_t size, void *h, const uint8_t *buf, size_t len)
{
	enum uet_wf_pass pass;
	int ret;

	if (len < need)
		return UET_WIRE_ETRUNC;
	for (pass = UET_WF_TYPE; pass <= UET_WF_VALUES; pass++) {
		ret = uet_wf_check_wire(t, buf, pass);
		if (ret)
			return ret;
	}
	memset(h, 0, size);
	uet_wf_get(t, h, buf);
	return (ssize_t)need;
}
