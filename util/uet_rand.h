/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one pseudo-random generator of the tree: xorshift64* (Vigna,
 * "An experimental exploration of Marsaglia's xorshift generators,
 * scrambled", 2016: shifts 12, 25, 27 and multiplier
 * 0x2545F4914F6CDD1D).  Not for secrets (keys come from getrandom).
 * The state must never be 0 (it would stay 0); every caller seeds it
 * with a non-zero value.
 */
#ifndef UET_RAND_H
#define UET_RAND_H

#include <stdint.h>

#define UET_RAND_MULT	0x2545f4914f6cdd1dull

/* Advance *state and return the next 64-bit value. */
static inline uint64_t uet_rand_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UET_RAND_MULT;
}

#endif /* UET_RAND_H */
