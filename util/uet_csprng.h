/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unpredictable numbers for the values an attacker must not guess: PDC
 * identifiers, Start_PSNs, READ message ids, rendezvous memory keys.
 * They come from the kernel's CSPRNG (getrandom), read 256 bytes at a
 * time into a per-thread buffer that is never handed out twice; a
 * fork() empties every buffer of the child (pthread_atfork), so a child
 * never repeats what its parent drew.
 *
 * uet_rand.h's xorshift64* stays for what only has to look random
 * (spray choices, simulated loss): its outputs reveal its state.
 */
#ifndef UET_CSPRNG_H
#define UET_CSPRNG_H

#include <stddef.h>
#include <stdint.h>

/* Fill buf with len unpredictable bytes.  0, or -errno when the kernel
 * refused (then buf is untouched). */
int uet_csprng_fill(void *buf, size_t len);
/* One unpredictable 64-bit value (aborts nothing: on the unlikely
 * failure of getrandom it mixes the monotonic clock and a counter, and
 * counts the failure in uet_csprng_failures()). */
uint64_t uet_csprng_u64(void);
/* How often getrandom failed (0 on any sane system). */
uint64_t uet_csprng_failures(void);

#endif /* UET_CSPRNG_H */
