/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES atomic engine (uet_ses_amo.h).
 *
 * Every element goes through byte copies (memcpy), so target, operand,
 * compare and prior need no alignment.  Per element:
 *   READ           nothing to write;
 *   WRITE          copy the operand bytes;
 *   MIN, MAX and the CSWAP family
 *                  copy the operand bytes when a comparison holds (MIN is
 *                  CSWAP_LT with the operand as compare value, MAX is
 *                  CSWAP_GT), so a failed comparison never writes;
 *   the others     compute in the datatype and store the result.
 * Integers of every width are handled as one unsigned type as wide as
 * the widest (128 bits where the compiler has them, for UE 1.0.1's
 * INT128 and UINT128; else 64 and those two are unsupported): signed
 * values are sign-extended on load and ordered with the sign bit
 * flipped, sums, differences and products wrap in that type, and the
 * store keeps the low bytes -- two's complement wrap-around without
 * signed overflow.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "uet_ses_amo.h"
#include "uet_wire_consts.h"

/* Datatype classes. */
#define AMO_SINT	0x1u
#define AMO_UINT	0x2u
#define AMO_INT		(AMO_SINT | AMO_UINT)
#define AMO_REAL	0x4u
#define AMO_CPLX	0x8u
#define AMO_ALL		(AMO_INT | AMO_REAL | AMO_CPLX)

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 amo_uint;
#define AMO_INT128_SIZE	16
#else
typedef uint64_t amo_uint;
#define AMO_INT128_SIZE	0	/* unsupported */
#endif
#define AMO_UINT_BITS	(8 * sizeof(amo_uint))

static const struct {
	uint8_t size;
	uint8_t class;
} amo_types[] = {
	[UET_AMO_INT8] = { 1, AMO_SINT },
	[UET_AMO_UINT8] = { 1, AMO_UINT },
	[UET_AMO_INT16] = { 2, AMO_SINT },
	[UET_AMO_UINT16] = { 2, AMO_UINT },
	[UET_AMO_INT32] = { 4, AMO_SINT },
	[UET_AMO_UINT32] = { 4, AMO_UINT },
	[UET_AMO_INT64] = { 8, AMO_SINT },
	[UET_AMO_UINT64] = { 8, AMO_UINT },
	[UET_AMO_FLOAT] = { 4, AMO_REAL },
	[UET_AMO_DOUBLE] = { 8, AMO_REAL },
	[UET_AMO_FLOAT_COMPLEX] = { 8, AMO_CPLX },
	[UET_AMO_DOUBLE_COMPLEX] = { 16, AMO_CPLX },
	/* FLOAT16, BFLOAT16 and 0x0c, 0x0d: size 0, unsupported. */
	[UET_AMO_INT128] = { AMO_INT128_SIZE, AMO_SINT },
	[UET_AMO_UINT128] = { AMO_INT128_SIZE, AMO_UINT },
};

#define AMO_NTYPES	(sizeof(amo_types) / sizeof(amo_types[0]))

/* Classes each operation is defined for. */
static const uint8_t amo_ops[] = {
	[UET_AMO_MIN] = AMO_INT | AMO_REAL,
	[UET_AMO_MAX] = AMO_INT | AMO_REAL,
	[UET_AMO_SUM] = AMO_ALL,
	[UET_AMO_DIFF] = AMO_ALL,
	[UET_AMO_PROD] = AMO_ALL,
	[UET_AMO_LOR] = AMO_INT,
	[UET_AMO_LAND] = AMO_INT,
	[UET_AMO_BOR] = AMO_INT,
	[UET_AMO_BAND] = AMO_INT,
	[UET_AMO_LXOR] = AMO_INT,
	[UET_AMO_BXOR] = AMO_INT,
	[UET_AMO_READ] = AMO_ALL,
	[UET_AMO_WRITE] = AMO_ALL,
	[UET_AMO_CSWAP] = AMO_ALL,
	[UET_AMO_CSWAP_NE] = AMO_ALL,
	[UET_AMO_CSWAP_LE] = AMO_INT | AMO_REAL,
	[UET_AMO_CSWAP_LT] = AMO_INT | AMO_REAL,
	[UET_AMO_CSWAP_GE] = AMO_INT | AMO_REAL,
	[UET_AMO_CSWAP_GT] = AMO_INT | AMO_REAL,
	[UET_AMO_MSWAP] = AMO_INT,
	/* UET_AMO_INVAL and above: 0, unsupported. */
};

#define AMO_NOPS	(sizeof(amo_ops) / sizeof(amo_ops[0]))

size_t uet_ses_amo_size(uint8_t dtype)
{
	return dtype < AMO_NTYPES ? amo_types[dtype].size : 0;
}

uint8_t uet_ses_amo_check(uint8_t op, uint8_t dtype)
{
	if (op >= AMO_NOPS || !amo_ops[op])
		return UET_RC_AMO_UNSUPPORTED_OP;
	if (!uet_ses_amo_size(dtype))
		return UET_RC_AMO_UNSUPPORTED_DT;
	if (!(amo_ops[op] & amo_types[dtype].class))
		return UET_RC_AMO_UNSUPPORTED_OP;
	return UET_RC_OK;
}

static bool amo_is_cas(uint8_t op)
{
	return op >= UET_AMO_CSWAP && op <= UET_AMO_MSWAP;
}

/* --- integers, any width, as amo_uint --- */

static amo_uint amo_int_load(const uint8_t *p, size_t size, bool sgn)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	amo_uint v, sign;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		v = v8;
		break;
	case 2:
		memcpy(&v16, p, 2);
		v = v16;
		break;
	case 4:
		memcpy(&v32, p, 4);
		v = v32;
		break;
	case 8:
		memcpy(&v64, p, 8);
		v = v64;
		break;
	default:	/* the widest: nothing to extend */
		memcpy(&v, p, sizeof(v));
		return v;
	}
	sign = (amo_uint)1 << (size * 8 - 1);
	if (sgn && (v & sign))
		v |= ~(sign - 1);
	return v;
}

static void amo_int_store(uint8_t *p, size_t size, amo_uint v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;
	uint64_t v64 = (uint64_t)v;

	switch (size) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	case 8:
		memcpy(p, &v64, 8);
		break;
	default:
		memcpy(p, &v, sizeof(v));
		break;
	}
}

/* Sign-extended values with the sign bit flipped order like unsigned. */
static amo_uint amo_int_key(amo_uint v, bool sgn)
{
	return sgn ? v ^ ((amo_uint)1 << (AMO_UINT_BITS - 1)) : v;
}

static bool amo_int_cmp(uint8_t op, size_t size, bool sgn,
			const uint8_t *tp, const uint8_t *cp)
{
	amo_uint t = amo_int_key(amo_int_load(tp, size, sgn), sgn);
	amo_uint c = amo_int_key(amo_int_load(cp, size, sgn), sgn);

	switch (op) {
	case UET_AMO_CSWAP:
		return c == t;
	case UET_AMO_CSWAP_NE:
		return c != t;
	case UET_AMO_CSWAP_LE:
		return c <= t;
	case UET_AMO_CSWAP_LT:
		return c < t;
	case UET_AMO_CSWAP_GE:
		return c >= t;
	case UET_AMO_CSWAP_GT:
		return c > t;
	default:
		return false;
	}
}

static void amo_int_calc(uint8_t op, size_t size, bool sgn, uint8_t *tp,
			 const uint8_t *op_p, const uint8_t *cp)
{
	amo_uint t = amo_int_load(tp, size, sgn);
	amo_uint o = amo_int_load(op_p, size, sgn);
	amo_uint m;

	switch (op) {
	case UET_AMO_SUM:
		t += o;
		break;
	case UET_AMO_DIFF:
		t -= o;
		break;
	case UET_AMO_PROD:
		t *= o;
		break;
	case UET_AMO_LOR:
		t = t || o;
		break;
	case UET_AMO_LAND:
		t = t && o;
		break;
	case UET_AMO_LXOR:
		t = !t != !o;
		break;
	case UET_AMO_BOR:
		t |= o;
		break;
	case UET_AMO_BAND:
		t &= o;
		break;
	case UET_AMO_BXOR:
		t ^= o;
		break;
	default: /* UET_AMO_MSWAP */
		m = amo_int_load(cp, size, false);
		t = (o & m) | (t & ~m);
		break;
	}
	amo_int_store(tp, size, t);
}

/* --- floating point: float, double and their complex types --- */

/* Comparisons: all six for real types, equality only for complex ones
 * (C has no ordering of complex values; the check refuses them). */
#define AMO_FP_CMP(T, name, ORDERED)					\
static bool amo_##name##_cmp(uint8_t op, const uint8_t *tp,		\
			     const uint8_t *cp)				\
{									\
	T t, c;								\
									\
	memcpy(&t, tp, sizeof(t));					\
	memcpy(&c, cp, sizeof(c));					\
	switch (op) {							\
	case UET_AMO_CSWAP:						\
		return c == t;						\
	case UET_AMO_CSWAP_NE:						\
		return c != t;						\
	ORDERED								\
	default:							\
		return false;						\
	}								\
}

#define AMO_FP_ORDERED							\
	case UET_AMO_CSWAP_LE:						\
		return c <= t;						\
	case UET_AMO_CSWAP_LT:						\
		return c < t;						\
	case UET_AMO_CSWAP_GE:						\
		return c >= t;						\
	case UET_AMO_CSWAP_GT:						\
		return c > t;

/* SUM, DIFF, PROD. */
#define AMO_FP_CALC(T, name)						\
static void amo_##name##_calc(uint8_t op, uint8_t *tp,		\
			      const uint8_t *op_p)			\
{									\
	T t, o;								\
									\
	memcpy(&t, tp, sizeof(t));					\
	memcpy(&o, op_p, sizeof(o));					\
	if (op == UET_AMO_SUM)						\
		t = t + o;						\
	else if (op == UET_AMO_DIFF)					\
		t = t - o;						\
	else /* UET_AMO_PROD */					\
		t = t * o;						\
	memcpy(tp, &t, sizeof(t));					\
}

AMO_FP_CMP(float, float, AMO_FP_ORDERED)
AMO_FP_CMP(double, double, AMO_FP_ORDERED)
AMO_FP_CMP(float _Complex, cfloat, )
AMO_FP_CMP(double _Complex, cdouble, )
AMO_FP_CALC(float, float)
AMO_FP_CALC(double, double)
AMO_FP_CALC(float _Complex, cfloat)
AMO_FP_CALC(double _Complex, cdouble)

/* Whether the comparison of op holds for the element at tp and the value
 * at cp (the check has ruled out orderings of complex values). */
static bool amo_cmp(uint8_t op, uint8_t dtype, const uint8_t *tp,
		    const uint8_t *cp)
{
	switch (dtype) {
	case UET_AMO_FLOAT:
		return amo_float_cmp(op, tp, cp);
	case UET_AMO_DOUBLE:
		return amo_double_cmp(op, tp, cp);
	case UET_AMO_FLOAT_COMPLEX:
		return amo_cfloat_cmp(op, tp, cp);
	case UET_AMO_DOUBLE_COMPLEX:
		return amo_cdouble_cmp(op, tp, cp);
	default:
		return amo_int_cmp(op, amo_types[dtype].size,
				   amo_types[dtype].class == AMO_SINT, tp, cp);
	}
}

static void amo_calc(uint8_t op, uint8_t dtype, uint8_t *tp,
		     const uint8_t *op_p, const uint8_t *cp)
{
	switch (dtype) {
	case UET_AMO_FLOAT:
		amo_float_calc(op, tp, op_p);
		break;
	case UET_AMO_DOUBLE:
		amo_double_calc(op, tp, op_p);
		break;
	case UET_AMO_FLOAT_COMPLEX:
		amo_cfloat_calc(op, tp, op_p);
		break;
	case UET_AMO_DOUBLE_COMPLEX:
		amo_cdouble_calc(op, tp, op_p);
		break;
	default:
		amo_int_calc(op, amo_types[dtype].size,
			     amo_types[dtype].class == AMO_SINT, tp, op_p, cp);
		break;
	}
}

uint8_t uet_ses_amo_apply(uint8_t op, uint8_t dtype, void *target,
			  const void *operand, const void *compare,
			  void *prior, size_t count)
{
	uint8_t rc = uet_ses_amo_check(op, dtype);
	size_t size, i;

	if (rc != UET_RC_OK)
		return rc;
	if (!count || (amo_is_cas(op) && count != 1))
		return UET_RC_AMO_UNSUPPORTED_SIZE;
	size = amo_types[dtype].size;

	for (i = 0; i < count; i++) {
		uint8_t *tp = (uint8_t *)target + i * size;
		const uint8_t *op_p = NULL;	/* READ: operand may be NULL */

		if (op != UET_AMO_READ)
			op_p = (const uint8_t *)operand + i * size;

		if (prior)
			memcpy((uint8_t *)prior + i * size, tp, size);
		switch (op) {
		case UET_AMO_READ:
			break;
		case UET_AMO_WRITE:
			memcpy(tp, op_p, size);
			break;
		case UET_AMO_MIN:	/* o < t */
			if (amo_cmp(UET_AMO_CSWAP_LT, dtype, tp, op_p))
				memcpy(tp, op_p, size);
			break;
		case UET_AMO_MAX:	/* o > t */
			if (amo_cmp(UET_AMO_CSWAP_GT, dtype, tp, op_p))
				memcpy(tp, op_p, size);
			break;
		case UET_AMO_CSWAP:
		case UET_AMO_CSWAP_NE:
		case UET_AMO_CSWAP_LE:
		case UET_AMO_CSWAP_LT:
		case UET_AMO_CSWAP_GE:
		case UET_AMO_CSWAP_GT:
			if (amo_cmp(op, dtype, tp, compare))
				memcpy(tp, op_p, size);
			break;
		default:
			amo_calc(op, dtype, tp, op_p, compare);
			break;
		}
	}
	return UET_RC_OK;
}
