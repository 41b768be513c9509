/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SES atomic engine: applies a UET atomic operation (enum uet_amo_op,
 * wire/uet_wire_consts.h) to host memory.  Pure computation, no locking:
 * the caller serialises (the SES target calls it under the NIC lock).
 *
 * Datatypes: INT8..UINT64, FLOAT, DOUBLE, FLOAT_COMPLEX and
 * DOUBLE_COMPLEX (two components, real first), in host byte order, at
 * any alignment.  FLOAT16, BFLOAT16 and undefined codes are refused.
 *
 * Operations (libfabric's fi_atomic(3) semantics, t = target, o =
 * operand, c = compare):
 *   MIN, MAX      t = o if o < t (o > t); not complex
 *   SUM, PROD     t = t + o, t * o; all types
 *   DIFF          t = t - o; all types
 *   LOR, LAND, LXOR   t = (t || o), (t && o), (!t != !o): 0 or 1;
 *                 integer types only
 *   BOR, BAND, BXOR   bitwise; integer types only
 *   READ          t unchanged (never written), prior = t
 *   WRITE         t = o (bit copy)
 *   CSWAP, CSWAP_NE, CSWAP_LE, CSWAP_LT, CSWAP_GE, CSWAP_GT
 *                 t = o if c == t, c != t, c <= t, c < t, c >= t, c > t
 *                 (LE..GT not complex); t is not written when the
 *                 comparison fails
 *   MSWAP         t = (o & c) | (t & ~c), c is the mask; integer only
 * Integer arithmetic wraps (two's complement) for signed types too.
 * The CAS family (CSWAP..CSWAP_GT and MSWAP) takes exactly one element.
 */
#ifndef UET_SES_AMO_H
#define UET_SES_AMO_H

#include <stddef.h>
#include <stdint.h>

/* Element size of dtype in bytes (complex: both parts); 0 if undefined
 * or not supported (FLOAT16, BFLOAT16), so a non-zero size means the
 * datatype is usable. */
size_t uet_ses_amo_size(uint8_t dtype);

/* UET_RC_OK when op x dtype is supported, else UET_RC_AMO_UNSUPPORTED_OP
 * (op undefined, checked first, or not defined for this type) or
 * UET_RC_AMO_UNSUPPORTED_DT (type undefined: 0x0c, 0x0d, > 0x0f, and
 * FLOAT16/BFLOAT16 which uet does not do). */
uint8_t uet_ses_amo_check(uint8_t op, uint8_t dtype);

/* Apply op elementwise to count elements at target with operand[i]
 * (READ ignores operand, which may then be NULL).  CAS family: operand is
 * the swap value and compare the compare value (MSWAP: the mask), one
 * element; other ops ignore compare (may be NULL).  prior (may be NULL)
 * receives the count values from before the op.  No alignment needed;
 * prior must not overlap target.  Returns UET_RC_OK, the check's code,
 * or UET_RC_AMO_UNSUPPORTED_SIZE (count 0, or CAS family with count != 1);
 * on error neither target nor prior is touched. */
uint8_t uet_ses_amo_apply(uint8_t op, uint8_t dtype, void *target,
			  const void *operand, const void *compare,
			  void *prior, size_t count);

#endif /* UET_SES_AMO_H */
