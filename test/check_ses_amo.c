/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_ses_amo: the atomic engine.
 *
 * Results are compared with a reference written independently here: one
 * function per C type that computes on native values (integers wrap
 * through __builtin_*_overflow, complex products by the textbook formula
 * on the two components).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "uet_ses_amo.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define NOPS	(UET_AMO_MSWAP + 1)	/* defined ops 0x00..0x13 */
/* Datatypes 0x00..0x11: supported 0x00..0x0b and UE 1.0.1's INT128 and
 * UINT128 (0x10, 0x11); 0x0c..0x0f are refused. */
#define NTYPES	(UET_AMO_UINT128 + 1)
#define MAXSZ	16

static bool is_cas(unsigned int op)
{
	return op >= UET_AMO_CSWAP && op <= UET_AMO_MSWAP;
}

/* --- explicit tables --- */

static const size_t sizes[NTYPES] = {
	1, 1, 2, 2, 4, 4, 8, 8,		/* INT8..UINT64 */
	4, 8, 8, 16,			/* FLOAT, DOUBLE, complex */
	0, 0,				/* 0x0c, 0x0d undefined */
	0, 0,				/* FLOAT16, BFLOAT16: not done */
	16, 16,				/* INT128, UINT128 */
};

__extension__ typedef __int128 i128_t;
__extension__ typedef unsigned __int128 u128_t;

/*
 * uet_ses_amo_check(op, dtype) for dtype 0x00..0x0f: '.' UET_RC_OK,
 * 'O' UET_RC_AMO_UNSUPPORTED_OP, 'D' UET_RC_AMO_UNSUPPORTED_DT.
 * Columns: i8 u8 i16 u16 i32 u32 i64 u64 f d fc dc 0c 0d f16 bf16 i128
 * u128.
 */
static const char *const check_table[UET_AMO_INVAL + 1] = {
	[UET_AMO_MIN]		= "..........OODDDD..",
	[UET_AMO_MAX]		= "..........OODDDD..",
	[UET_AMO_SUM]		= "............DDDD..",
	[UET_AMO_DIFF]		= "............DDDD..",
	[UET_AMO_PROD]		= "............DDDD..",
	[UET_AMO_LOR]		= "........OOOODDDD..",
	[UET_AMO_LAND]		= "........OOOODDDD..",
	[UET_AMO_BOR]		= "........OOOODDDD..",
	[UET_AMO_BAND]		= "........OOOODDDD..",
	[UET_AMO_LXOR]		= "........OOOODDDD..",
	[UET_AMO_BXOR]		= "........OOOODDDD..",
	[UET_AMO_READ]		= "............DDDD..",
	[UET_AMO_WRITE]		= "............DDDD..",
	[UET_AMO_CSWAP]		= "............DDDD..",
	[UET_AMO_CSWAP_NE]	= "............DDDD..",
	[UET_AMO_CSWAP_LE]	= "..........OODDDD..",
	[UET_AMO_CSWAP_LT]	= "..........OODDDD..",
	[UET_AMO_CSWAP_GE]	= "..........OODDDD..",
	[UET_AMO_CSWAP_GT]	= "..........OODDDD..",
	[UET_AMO_MSWAP]		= "........OOOODDDD..",
	[UET_AMO_INVAL]		= "OOOOOOOOOOOOOOOOOO",
};

static uint8_t expected_check(unsigned int op, unsigned int dt)
{
	char c;

	if (op > UET_AMO_INVAL)
		return UET_RC_AMO_UNSUPPORTED_OP;
	if (dt >= NTYPES)
		c = op == UET_AMO_INVAL ? 'O' : 'D';
	else
		c = check_table[op][dt];
	return c == '.' ? UET_RC_OK : c == 'O' ? UET_RC_AMO_UNSUPPORTED_OP :
	       UET_RC_AMO_UNSUPPORTED_DT;
}

/* --- reference, one element, per C type --- */

#define REF_INT(T, name)						\
static T ref_##name(unsigned int op, T t, T o, T c)			\
{									\
	T r = t;							\
									\
	switch (op) {							\
	case UET_AMO_MIN: r = o < t ? o : t; break;			\
	case UET_AMO_MAX: r = o > t ? o : t; break;			\
	case UET_AMO_SUM: (void)__builtin_add_overflow(t, o, &r); break; \
	case UET_AMO_DIFF: (void)__builtin_sub_overflow(t, o, &r); break; \
	case UET_AMO_PROD: (void)__builtin_mul_overflow(t, o, &r); break; \
	case UET_AMO_LOR: r = t || o; break;				\
	case UET_AMO_LAND: r = t && o; break;				\
	case UET_AMO_LXOR: r = (t != 0) != (o != 0); break;		\
	case UET_AMO_BOR: r = (T)(t | o); break;			\
	case UET_AMO_BAND: r = (T)(t & o); break;			\
	case UET_AMO_BXOR: r = (T)(t ^ o); break;			\
	case UET_AMO_READ: break;					\
	case UET_AMO_WRITE: r = o; break;				\
	case UET_AMO_CSWAP: r = c == t ? o : t; break;			\
	case UET_AMO_CSWAP_NE: r = c != t ? o : t; break;		\
	case UET_AMO_CSWAP_LE: r = c <= t ? o : t; break;		\
	case UET_AMO_CSWAP_LT: r = c < t ? o : t; break;		\
	case UET_AMO_CSWAP_GE: r = c >= t ? o : t; break;		\
	case UET_AMO_CSWAP_GT: r = c > t ? o : t; break;		\
	case UET_AMO_MSWAP: r = (T)((o & c) | (t & ~c)); break;	\
	default: ck_abort_msg("ref: op %u", op);			\
	}								\
	return r;							\
}

REF_INT(int8_t, i8)
REF_INT(uint8_t, u8)
REF_INT(int16_t, i16)
REF_INT(uint16_t, u16)
REF_INT(int32_t, i32)
REF_INT(uint32_t, u32)
REF_INT(int64_t, i64)
REF_INT(uint64_t, u64)
REF_INT(i128_t, i128)
REF_INT(u128_t, u128)

#define REF_REAL(T, name)						\
static T ref_##name(unsigned int op, T t, T o, T c)			\
{									\
	switch (op) {							\
	case UET_AMO_MIN: return o < t ? o : t;				\
	case UET_AMO_MAX: return o > t ? o : t;				\
	case UET_AMO_SUM: return t + o;					\
	case UET_AMO_DIFF: return t - o;				\
	case UET_AMO_PROD: return t * o;				\
	case UET_AMO_READ: return t;					\
	case UET_AMO_WRITE: return o;					\
	case UET_AMO_CSWAP: return c == t ? o : t;			\
	case UET_AMO_CSWAP_NE: return c != t ? o : t;			\
	case UET_AMO_CSWAP_LE: return c <= t ? o : t;			\
	case UET_AMO_CSWAP_LT: return c < t ? o : t;			\
	case UET_AMO_CSWAP_GE: return c >= t ? o : t;			\
	case UET_AMO_CSWAP_GT: return c > t ? o : t;			\
	default: ck_abort_msg("ref: op %u", op);			\
	}								\
	return t;							\
}

REF_REAL(float, f)
REF_REAL(double, d)

/* Complex as two components, real first: t = t op o in place. */
#define REF_CPLX(T, name)						\
static void ref_##name(unsigned int op, T *t, const T *o, const T *c)	\
{									\
	T re = t[0], im = t[1];						\
	bool eq = c[0] == t[0] && c[1] == t[1];				\
									\
	switch (op) {							\
	case UET_AMO_SUM: re = t[0] + o[0]; im = t[1] + o[1]; break;	\
	case UET_AMO_DIFF: re = t[0] - o[0]; im = t[1] - o[1]; break;	\
	case UET_AMO_PROD:						\
		re = t[0] * o[0] - t[1] * o[1];				\
		im = t[0] * o[1] + t[1] * o[0];				\
		break;							\
	case UET_AMO_READ: break;					\
	case UET_AMO_WRITE: re = o[0]; im = o[1]; break;		\
	case UET_AMO_CSWAP:						\
		if (eq) { re = o[0]; im = o[1]; }			\
		break;							\
	case UET_AMO_CSWAP_NE:						\
		if (!eq) { re = o[0]; im = o[1]; }			\
		break;							\
	default: ck_abort_msg("ref: op %u", op);			\
	}								\
	t[0] = re;							\
	t[1] = im;							\
}

REF_CPLX(float, cf)
REF_CPLX(double, cd)

#define REF_ELEM(T, fn)							\
	do {								\
		T t_, o_, c_;						\
									\
		memcpy(&t_, t, sizeof(T));				\
		memcpy(&o_, o, sizeof(T));				\
		memcpy(&c_, c, sizeof(T));				\
		t_ = fn(op, t_, o_, c_);				\
		memcpy(t, &t_, sizeof(T));				\
	} while (0)

#define REF_CELEM(T, fn)						\
	do {								\
		T t_[2], o_[2], c_[2];					\
									\
		memcpy(t_, t, sizeof(t_));				\
		memcpy(o_, o, sizeof(o_));				\
		memcpy(c_, c, sizeof(c_));				\
		fn(op, t_, o_, c_);					\
		memcpy(t, t_, sizeof(t_));				\
	} while (0)

/* One element at t (o, c: operand and compare, always readable). */
static void ref_apply(unsigned int op, unsigned int dt, uint8_t *t,
		      const uint8_t *o, const uint8_t *c)
{
	switch (dt) {
	case UET_AMO_INT8: REF_ELEM(int8_t, ref_i8); break;
	case UET_AMO_UINT8: REF_ELEM(uint8_t, ref_u8); break;
	case UET_AMO_INT16: REF_ELEM(int16_t, ref_i16); break;
	case UET_AMO_UINT16: REF_ELEM(uint16_t, ref_u16); break;
	case UET_AMO_INT32: REF_ELEM(int32_t, ref_i32); break;
	case UET_AMO_UINT32: REF_ELEM(uint32_t, ref_u32); break;
	case UET_AMO_INT64: REF_ELEM(int64_t, ref_i64); break;
	case UET_AMO_UINT64: REF_ELEM(uint64_t, ref_u64); break;
	case UET_AMO_INT128: REF_ELEM(i128_t, ref_i128); break;
	case UET_AMO_UINT128: REF_ELEM(u128_t, ref_u128); break;
	case UET_AMO_FLOAT: REF_ELEM(float, ref_f); break;
	case UET_AMO_DOUBLE: REF_ELEM(double, ref_d); break;
	case UET_AMO_FLOAT_COMPLEX: REF_CELEM(float, ref_cf); break;
	case UET_AMO_DOUBLE_COMPLEX: REF_CELEM(double, ref_cd); break;
	default: ck_abort_msg("ref: dtype %u", dt);
	}
}

/* Store a value of dtype dt built from small integers (re in
 * [-128, 127]; im is the imaginary part of complex types). */
static void put_val(unsigned int dt, uint8_t *p, int re, int im)
{
	switch (dt) {
	case UET_AMO_INT8: { int8_t v = (int8_t)re; memcpy(p, &v, 1); break; }
	case UET_AMO_UINT8: { uint8_t v = (uint8_t)re; memcpy(p, &v, 1); break; }
	case UET_AMO_INT16: { int16_t v = (int16_t)re; memcpy(p, &v, 2); break; }
	case UET_AMO_UINT16: { uint16_t v = (uint16_t)re; memcpy(p, &v, 2); break; }
	case UET_AMO_INT32: { int32_t v = re; memcpy(p, &v, 4); break; }
	case UET_AMO_UINT32: { uint32_t v = (uint32_t)re; memcpy(p, &v, 4); break; }
	case UET_AMO_INT64: { int64_t v = re; memcpy(p, &v, 8); break; }
	case UET_AMO_UINT64: { uint64_t v = (uint64_t)(int64_t)re; memcpy(p, &v, 8); break; }
	case UET_AMO_INT128: { i128_t v = re; memcpy(p, &v, 16); break; }
	case UET_AMO_UINT128: { u128_t v = (u128_t)(i128_t)re; memcpy(p, &v, 16); break; }
	case UET_AMO_FLOAT: { float v = (float)re; memcpy(p, &v, 4); break; }
	case UET_AMO_DOUBLE: { double v = re; memcpy(p, &v, 8); break; }
	case UET_AMO_FLOAT_COMPLEX: {
		float v[2] = { (float)re, (float)im };

		memcpy(p, v, 8);
		break;
	}
	case UET_AMO_DOUBLE_COMPLEX: {
		double v[2] = { re, im };

		memcpy(p, v, 16);
		break;
	}
	default: ck_abort_msg("put_val: dtype %u", dt);
	}
}

/* --- sizes and the check table --- */

START_TEST(test_sizes)
{
	unsigned int dt;

	for (dt = 0; dt < 256; dt++)
		ck_assert_uint_eq(uet_ses_amo_size((uint8_t)dt),
				  dt < NTYPES ? sizes[dt] : 0);
}
END_TEST

START_TEST(test_check_table)
{
	unsigned int op, dt;

	for (op = 0; op < 256; op++)
		for (dt = 0; dt < 256; dt++) {
			uint8_t got = uet_ses_amo_check((uint8_t)op,
							(uint8_t)dt);

			if (got != expected_check(op, dt))
				ck_abort_msg("check(0x%x, 0x%x) = 0x%x, want 0x%x",
					     op, dt, got,
					     expected_check(op, dt));
		}
}
END_TEST

/* --- every supported pair against the reference --- */

/* Triples of small values; the im parts of complex values are taken
 * from the next set. */
static const int vals[][3] = {
	{ 5, -3, 0 },
	{ 3, 0, -1 },
	{ -128, 127, 1 },
	{ 0, 0, 7 },
	{ -7, 100, 2 },
};
#define NVALS	(sizeof(vals) / sizeof(vals[0]))

static void put_triple(unsigned int dt, uint8_t *p, size_t n, unsigned int s)
{
	size_t sz = sizes[dt], k;

	for (k = 0; k < n; k++)
		put_val(dt, p + k * sz, vals[s][k], vals[(s + 1) % NVALS][k]);
}

/* Apply and compare target and prior with the reference.  The buffers
 * must hold n elements. */
static void apply_vs_ref(unsigned int op, unsigned int dt, size_t n,
			 const uint8_t *t0, const uint8_t *o,
			 const uint8_t *c, const char *what)
{
	uint8_t t[3 * MAXSZ], want[3 * MAXSZ], prior[3 * MAXSZ];
	size_t sz = sizes[dt], k;
	uint8_t rc;

	memcpy(t, t0, n * sz);
	memcpy(want, t0, n * sz);
	memset(prior, 0xee, sizeof(prior));
	for (k = 0; k < n; k++)
		ref_apply(op, dt, want + k * sz, o + k * sz, c);
	rc = uet_ses_amo_apply((uint8_t)op, (uint8_t)dt, t, o, c, prior, n);
	if (rc != UET_RC_OK)
		ck_abort_msg("%s: op %s dt %s: rc 0x%x", what,
			     uet_amo_op_str(op), uet_amo_dtype_str(dt), rc);
	if (memcmp(t, want, n * sz))
		ck_abort_msg("%s: op %s dt %s: target differs from reference",
			     what, uet_amo_op_str(op), uet_amo_dtype_str(dt));
	if (memcmp(prior, t0, n * sz))
		ck_abort_msg("%s: op %s dt %s: prior is not the old target",
			     what, uet_amo_op_str(op), uet_amo_dtype_str(dt));
}

START_TEST(test_all_pairs)
{
	uint8_t t[3 * MAXSZ], o[3 * MAXSZ], c[MAXSZ];
	unsigned int op, dt, ts, os, cs, k;
	unsigned int runs = 0;

	for (op = 0; op < NOPS; op++)
		for (dt = 0; dt < NTYPES; dt++) {
			if (expected_check(op, dt) != UET_RC_OK)
				continue;
			for (ts = 0; ts < NVALS; ts++)
				for (os = 0; os < NVALS; os++) {
					put_triple(dt, t, 3, ts);
					put_triple(dt, o, 3, os);
					if (!is_cas(op)) {
						memset(c, 0, sizeof(c));
						apply_vs_ref(op, dt, 3, t, o, c,
							     "all pairs");
						runs++;
						continue;
					}
					/* CAS: one element, compare values
					 * from every set position. */
					for (cs = 0; cs < NVALS; cs++)
						for (k = 0; k < 3; k++) {
							put_val(dt, c,
								vals[cs][k],
								vals[(cs + 1) %
								     NVALS][k]);
							apply_vs_ref(op, dt, 1,
								     t, o, c,
								     "cas");
							runs++;
						}
				}
		}
	ck_assert_uint_gt(runs, 1000);
}
END_TEST

/* Random integer values (the seed is printed) against the reference. */
START_TEST(test_random_int)
{
	uint8_t t[3 * MAXSZ], o[3 * MAXSZ], c[MAXSZ];
	unsigned int op, dt, iter;
	size_t k;

	for (iter = 0; iter < 200; iter++)
		for (op = 0; op < NOPS; op++)
			for (dt = UET_AMO_INT8; dt < NTYPES; dt++) {
				if (dt > UET_AMO_UINT64 && dt < UET_AMO_INT128)
					continue;
				for (k = 0; k < sizeof(t); k++)
					t[k] = (uint8_t)uet_test_rand64();
				for (k = 0; k < sizeof(o); k++)
					o[k] = (uint8_t)uet_test_rand64();
				for (k = 0; k < sizeof(c); k++)
					c[k] = (uint8_t)uet_test_rand64();
				/* CAS: make equality likely half the time */
				if (is_cas(op) && (iter & 1))
					memcpy(c, t, sizes[dt]);
				apply_vs_ref(op, dt, is_cas(op) ? 1 : 3, t, o,
					     c, "random");
			}
}
END_TEST

/* --- explicit values --- */

START_TEST(test_signed_wrap)
{
	int8_t i8[3] = { 127, -128, 64 }, o8[3] = { 1, 1, 4 };
	int16_t i16[3] = { 0x4000, -32768, 300 }, o16[3] = { 4, -1, 300 };
	int32_t i32[3] = { INT32_MIN, INT32_MAX, -5 }, o32[3] = { 1, -1, 5 };
	int64_t i64[3] = { INT64_MAX, INT64_MIN, INT64_MIN };
	int64_t o64[3] = { 1, -1, -1 };
	uint8_t u8[3] = { 0, 255, 16 }, ou8[3] = { 1, 1, 16 };

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_SUM, UET_AMO_INT8, i8, o8,
					    NULL, NULL, 3), UET_RC_OK);
	ck_assert_int_eq(i8[0], -128);
	ck_assert_int_eq(i8[1], -127);
	ck_assert_int_eq(i8[2], 68);

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_PROD, UET_AMO_INT16, i16,
					    o16, NULL, NULL, 3), UET_RC_OK);
	ck_assert_int_eq(i16[0], 0);		/* 0x10000 */
	ck_assert_int_eq(i16[1], -32768);	/* 32768 wraps */
	ck_assert_int_eq(i16[2], 24464);	/* 90000 - 65536 */

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_DIFF, UET_AMO_INT32, i32,
					    o32, NULL, NULL, 3), UET_RC_OK);
	ck_assert_int_eq(i32[0], INT32_MAX);
	ck_assert_int_eq(i32[1], INT32_MIN);
	ck_assert_int_eq(i32[2], -10);

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_SUM, UET_AMO_INT64, i64,
					    o64, NULL, NULL, 2), UET_RC_OK);
	ck_assert(i64[0] == INT64_MIN);
	ck_assert(i64[1] == INT64_MAX);
	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_PROD, UET_AMO_INT64,
					    i64 + 2, o64 + 2, NULL, NULL, 1),
			  UET_RC_OK);
	ck_assert(i64[2] == INT64_MIN);		/* -(INT64_MIN) wraps */

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_DIFF, UET_AMO_UINT8, u8,
					    ou8, NULL, NULL, 3), UET_RC_OK);
	ck_assert_uint_eq(u8[0], 255);
	ck_assert_uint_eq(u8[1], 254);
	ck_assert_uint_eq(u8[2], 0);
}
END_TEST

START_TEST(test_logical_and_minmax)
{
	int32_t t[3], o[3] = { 3, 0, -9 };

	t[0] = 5; t[1] = 0; t[2] = 0;
	uet_ses_amo_apply(UET_AMO_LOR, UET_AMO_INT32, t, o, NULL, NULL, 3);
	ck_assert_int_eq(t[0], 1);
	ck_assert_int_eq(t[1], 0);
	ck_assert_int_eq(t[2], 1);

	t[0] = 5; t[1] = 7; t[2] = -2;
	uet_ses_amo_apply(UET_AMO_LAND, UET_AMO_INT32, t, o, NULL, NULL, 3);
	ck_assert_int_eq(t[0], 1);
	ck_assert_int_eq(t[1], 0);
	ck_assert_int_eq(t[2], 1);

	t[0] = 5; t[1] = 7; t[2] = 0;
	uet_ses_amo_apply(UET_AMO_LXOR, UET_AMO_INT32, t, o, NULL, NULL, 3);
	ck_assert_int_eq(t[0], 0);
	ck_assert_int_eq(t[1], 1);
	ck_assert_int_eq(t[2], 1);

	/* Signed and unsigned order differ. */
	{
		int16_t s[2] = { -1, 1 }, so[2] = { 1, -1 };
		uint16_t u[2] = { 0xffff, 1 }, uo[2] = { 1, 0xffff };

		uet_ses_amo_apply(UET_AMO_MIN, UET_AMO_INT16, s, so, NULL,
				  NULL, 2);
		ck_assert_int_eq(s[0], -1);
		ck_assert_int_eq(s[1], -1);
		uet_ses_amo_apply(UET_AMO_MIN, UET_AMO_UINT16, u, uo, NULL,
				  NULL, 2);
		ck_assert_uint_eq(u[0], 1);
		ck_assert_uint_eq(u[1], 1);
	}
	{
		double d[2] = { 1.5, -2.0 }, dop[2] = { 2.5, -3.0 };

		uet_ses_amo_apply(UET_AMO_MAX, UET_AMO_DOUBLE, d, dop, NULL,
				  NULL, 2);
		ck_assert(d[0] == 2.5 && d[1] == -2.0);
	}
}
END_TEST

START_TEST(test_complex)
{
	float cf[4] = { 1, 2, 3, -1 }, of[4] = { 3, 4, 0.5f, 2 };
	double cd[2] = { 1, 2 }, od[2] = { 3, 4 };

	/* (1+2i)(3+4i) = -5+10i, (3-i)(0.5+2i) = 3.5+5.5i */
	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_PROD,
					    UET_AMO_FLOAT_COMPLEX, cf, of,
					    NULL, NULL, 2), UET_RC_OK);
	ck_assert(cf[0] == -5 && cf[1] == 10);
	ck_assert(cf[2] == 3.5f && cf[3] == 5.5f);

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_DIFF,
					    UET_AMO_DOUBLE_COMPLEX, cd, od,
					    NULL, NULL, 1), UET_RC_OK);
	ck_assert(cd[0] == -2 && cd[1] == -2);
}
END_TEST

/* Target 5, swap 9, compare 4 / 5 / 6: whether the swap happens. */
static const struct {
	uint8_t op;
	bool swap[3];
} cas_table[] = {
	{ UET_AMO_CSWAP,	{ false, true, false } },
	{ UET_AMO_CSWAP_NE,	{ true, false, true } },
	{ UET_AMO_CSWAP_LE,	{ true, true, false } },
	{ UET_AMO_CSWAP_LT,	{ true, false, false } },
	{ UET_AMO_CSWAP_GE,	{ false, true, true } },
	{ UET_AMO_CSWAP_GT,	{ false, false, true } },
};

START_TEST(test_cas)
{
	uint8_t t[MAXSZ], o[MAXSZ], c[MAXSZ], prior[MAXSZ];
	uint8_t five[MAXSZ], nine[MAXSZ];
	unsigned int i, dt, k;

	for (i = 0; i < sizeof(cas_table) / sizeof(cas_table[0]); i++)
		for (dt = 0; dt <= UET_AMO_DOUBLE; dt++)
			for (k = 0; k < 3; k++) {
				size_t sz = sizes[dt];

				put_val(dt, five, 5, 0);
				put_val(dt, nine, 9, 0);
				memcpy(t, five, sz);
				memcpy(o, nine, sz);
				put_val(dt, c, 4 + (int)k, 0);
				memset(prior, 0, sizeof(prior));
				ck_assert_uint_eq(uet_ses_amo_apply(
					cas_table[i].op, (uint8_t)dt, t, o, c,
					prior, 1), UET_RC_OK);
				ck_assert_mem_eq(prior, five, sz);
				ck_assert_mem_eq(t, cas_table[i].swap[k] ?
						 nine : five, sz);
			}

	/* Complex: equality of both parts. */
	for (dt = UET_AMO_FLOAT_COMPLEX; dt <= UET_AMO_DOUBLE_COMPLEX; dt++)
		for (k = 0; k < 3; k++) {
			size_t sz = sizes[dt];
			bool equal = k == 0;

			put_val(dt, five, 1, 2);
			put_val(dt, nine, 7, -7);
			/* compare: (1,2) equal, (1,3) and (3,2) not */
			put_val(dt, c, k == 2 ? 3 : 1, k == 1 ? 3 : 2);
			memcpy(t, five, sz);
			ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_CSWAP,
					  (uint8_t)dt, t, nine, c, prior, 1),
					  UET_RC_OK);
			ck_assert_mem_eq(prior, five, sz);
			ck_assert_mem_eq(t, equal ? nine : five, sz);
			memcpy(t, five, sz);
			ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_CSWAP_NE,
					  (uint8_t)dt, t, nine, c, prior, 1),
					  UET_RC_OK);
			ck_assert_mem_eq(t, equal ? five : nine, sz);
		}

	/* Signed order: -1 vs 1 as INT32 and as UINT32 (0xffffffff). */
	{
		int32_t st = -1, sc = 1, so = 42;
		uint32_t ut = 0xffffffffu, uc = 1, uo = 42;

		uet_ses_amo_apply(UET_AMO_CSWAP_LT, UET_AMO_INT32, &st, &so,
				  &sc, NULL, 1);
		ck_assert_int_eq(st, -1);	/* 1 < -1 false */
		uet_ses_amo_apply(UET_AMO_CSWAP_LT, UET_AMO_UINT32, &ut, &uo,
				  &uc, NULL, 1);
		ck_assert_uint_eq(ut, 42);	/* 1 < 0xffffffff */
	}
}
END_TEST

START_TEST(test_mswap)
{
	uint32_t t32 = 0xaaaa5555u, s32 = 0x12345678u, m32 = 0xff00ff00u;
	uint32_t p32 = 0;
	int8_t t8 = -128, s8 = 0x0f, m8 = 0x03;		/* 0x80 */
	uint64_t t64 = 0x0123456789abcdefull, s64 = ~0ull;
	uint64_t m64 = 0xf0f0f0f0f0f0f0f0ull;
	int16_t t16 = 0x1234, s16 = -1, m16 = 0;

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_MSWAP, UET_AMO_UINT32,
					    &t32, &s32, &m32, &p32, 1),
			  UET_RC_OK);
	ck_assert_uint_eq(t32, 0x12aa5655u);
	ck_assert_uint_eq(p32, 0xaaaa5555u);

	uet_ses_amo_apply(UET_AMO_MSWAP, UET_AMO_INT8, &t8, &s8, &m8, NULL,
			  1);
	ck_assert_int_eq(t8, (int8_t)0x83 /* -125 */);

	uet_ses_amo_apply(UET_AMO_MSWAP, UET_AMO_UINT64, &t64, &s64, &m64,
			  NULL, 1);
	ck_assert(t64 == 0xf1f3f5f7f9fbfdffull);

	/* mask 0: target kept */
	uet_ses_amo_apply(UET_AMO_MSWAP, UET_AMO_INT16, &t16, &s16, &m16,
			  NULL, 1);
	ck_assert_int_eq(t16, 0x1234);
}
END_TEST

START_TEST(test_read_write)
{
	uint16_t t[3] = { 1, 2, 3 }, p[3] = { 0, 0, 0 };
	uint16_t o[3] = { 7, 8, 9 };
	/* a signalling-NaN bit pattern is copied as is */
	uint32_t fn = 0x7f800001u, fo = 0x7fa00002u, fp = 0;

	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_READ, UET_AMO_UINT16, t,
					    NULL, NULL, p, 3), UET_RC_OK);
	ck_assert(t[0] == 1 && t[1] == 2 && t[2] == 3);
	ck_assert(p[0] == 1 && p[1] == 2 && p[2] == 3);
	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_WRITE, UET_AMO_UINT16, t,
					    o, NULL, p, 3), UET_RC_OK);
	ck_assert(t[0] == 7 && t[1] == 8 && t[2] == 9);
	ck_assert(p[0] == 1 && p[1] == 2 && p[2] == 3);
	ck_assert_uint_eq(uet_ses_amo_apply(UET_AMO_WRITE, UET_AMO_FLOAT, &fn,
					    &fo, NULL, &fp, 1), UET_RC_OK);
	ck_assert_uint_eq(fn, 0x7fa00002u);
	ck_assert_uint_eq(fp, 0x7f800001u);
}
END_TEST

/* --- errors leave the buffers alone --- */

static void expect_untouched(unsigned int op, unsigned int dt, size_t n,
			     uint8_t want)
{
	uint8_t t[64], o[64], c[64], p[64];
	uint8_t t0[64], p0[64];
	uint8_t rc;
	size_t k;

	for (k = 0; k < sizeof(t); k++) {
		t[k] = t0[k] = (uint8_t)(0x5a + k);
		p[k] = p0[k] = (uint8_t)(0xa5 ^ k);
		o[k] = (uint8_t)(k * 7 + 1);
		c[k] = t[k];
	}
	rc = uet_ses_amo_apply((uint8_t)op, (uint8_t)dt, t, o, c, p, n);
	if (rc != want)
		ck_abort_msg("apply(0x%x, 0x%x, count %zu) = 0x%x, want 0x%x",
			     op, dt, n, rc, want);
	if (memcmp(t, t0, sizeof(t)) || memcmp(p, p0, sizeof(p)))
		ck_abort_msg("apply(0x%x, 0x%x, count %zu): buffers touched",
			     op, dt, n);
}

START_TEST(test_unsupported_untouched)
{
	unsigned int op, dt, checked = 0;

	for (op = 0; op < 256; op++)
		for (dt = 0; dt < 256; dt++) {
			uint8_t want = expected_check(op, dt);

			if (want != UET_RC_OK) {
				expect_untouched(op, dt, 1, want);
				expect_untouched(op, dt, 3, want);
				checked++;
				continue;
			}
			expect_untouched(op, dt, 0,
					 UET_RC_AMO_UNSUPPORTED_SIZE);
			if (is_cas(op)) {
				expect_untouched(op, dt, 2,
						 UET_RC_AMO_UNSUPPORTED_SIZE);
				expect_untouched(op, dt, 3,
						 UET_RC_AMO_UNSUPPORTED_SIZE);
			}
		}
	/* 200 supported, and INT128/UINT128 with all 20 ops */
	ck_assert_uint_eq(checked, 256 * 256 - 240);
}
END_TEST

/* --- unaligned buffers give the aligned result --- */

START_TEST(test_unaligned)
{
	/* 8-byte aligned storage, used at offsets 0..15 */
	uint64_t tb[8], ob[8], cb[4], pb[8];
	uint8_t t[3 * MAXSZ], o[3 * MAXSZ], c[MAXSZ], want[3 * MAXSZ];
	uint8_t wprior[3 * MAXSZ];
	unsigned int op, dt, off;

	for (op = 0; op < NOPS; op++)
		for (dt = 0; dt < NTYPES; dt++) {
			size_t n = is_cas(op) ? 1 : 3;
			size_t len = n * sizes[dt];

			if (expected_check(op, dt) != UET_RC_OK)
				continue;
			put_triple(dt, t, 3, 4);
			put_triple(dt, o, 3, 0);
			put_val(dt, c, -7, 5);	/* = t[0] */
			memcpy(want, t, len);
			ck_assert_uint_eq(uet_ses_amo_apply((uint8_t)op,
					  (uint8_t)dt, want, o, c, wprior, n),
					  UET_RC_OK);
			for (off = 1; off < 16; off++) {
				uint8_t *tp = (uint8_t *)tb + off;
				uint8_t *op_p = (uint8_t *)ob + (off * 3) % 16;
				uint8_t *cp = (uint8_t *)cb + (off * 5) % 16;
				uint8_t *pp = (uint8_t *)pb + (off * 7) % 16;

				memcpy(tp, t, len);
				memcpy(op_p, o, len);
				memcpy(cp, c, sizes[dt]);
				ck_assert_uint_eq(uet_ses_amo_apply(
					(uint8_t)op, (uint8_t)dt, tp, op_p,
					cp, pp, n), UET_RC_OK);
				if (memcmp(tp, want, len) ||
				    memcmp(pp, wprior, len))
					ck_abort_msg("op %s dt %s offset %u",
						     uet_amo_op_str(op),
						     uet_amo_dtype_str(dt), off);
			}
		}
}
END_TEST

static Suite *ses_amo_suite(void)
{
	Suite *s = suite_create("ses_amo");
	TCase *tc = tcase_create("amo");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_check_table);
	tcase_add_test(tc, test_all_pairs);
	tcase_add_test(tc, test_random_int);
	tcase_add_test(tc, test_signed_wrap);
	tcase_add_test(tc, test_logical_and_minmax);
	tcase_add_test(tc, test_complex);
	tcase_add_test(tc, test_cas);
	tcase_add_test(tc, test_mswap);
	tcase_add_test(tc, test_read_write);
	tcase_add_test(tc, test_unsupported_untouched);
	tcase_add_test(tc, test_unaligned);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(ses_amo_suite)
