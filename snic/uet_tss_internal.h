/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS internals shared by snic/uet_tss*.c and test/check_tss.c: the
 * AES-256-GCM wrapper (uet_tss_aead.c), key derivation (uet_tss_keys.c)
 * and the replay window (uet_tss_replay.c).
 */
#ifndef UET_TSS_INTERNAL_H
#define UET_TSS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "uet_link.h"
#include "uet_tss.h"

/* ---- AES-256-GCM (OpenSSL EVP; AES-NI when the CPU has it) ---- */

struct uet_tss_aead {
	void *ctx;			/* EVP_CIPHER_CTX */
	int enc;			/* 1 seal, 0 open */
};

/* Set up for sealing (enc 1) or opening (enc 0) under key: 0 or -EIO. */
int uet_tss_aead_init(struct uet_tss_aead *a,
		      const uint8_t key[UET_TSS_KEY_LEN], int enc);
void uet_tss_aead_fini(struct uet_tss_aead *a);
/* Encrypt the iovecs into out (their total length) and write the tag.
 * 0 or -EIO. */
int uet_tss_aead_seal(struct uet_tss_aead *a,
		      const uint8_t nonce[UET_TSS_NONCE_LEN],
		      const uint8_t *aad, size_t aad_len,
		      const struct iovec *iov, unsigned int iovcnt,
		      uint8_t *out, uint8_t tag[UET_TSS_TAG_LEN]);
/* Decrypt len bytes of in into out and check the tag: 0, -EBADMSG when
 * the tag does not verify (out must then be ignored), -EIO. */
int uet_tss_aead_open(struct uet_tss_aead *a,
		      const uint8_t nonce[UET_TSS_NONCE_LEN],
		      const uint8_t *aad, size_t aad_len,
		      const uint8_t *in, size_t len, uint8_t *out,
		      const uint8_t tag[UET_TSS_TAG_LEN]);

/* ---- keys ---- */

/* Canonical bytes of an address for the derivation and the context
 * table: family (1: IPv4, 2: IPv6), UDP port (be16), IP (4 or 16 bytes),
 * zero-padded to UET_TSS_ADDR_LEN.  -EINVAL for another family. */
#define UET_TSS_ADDR_LEN	19
int uet_tss_addr_bytes(const struct uet_link_addr *a,
		       uint8_t out[UET_TSS_ADDR_LEN]);
/* HKDF-SHA256 (RFC 5869) with OpenSSL's EVP_KDF "HKDF": 0 or -EIO. */
int uet_tss_hkdf(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
		 size_t salt_len, const uint8_t *info, size_t info_len,
		 uint8_t *out, size_t out_len);
/* The packet key of a sender: HKDF-SHA256, salt "UET-TSS-v1", info
 * "uet tss packet key" || be32(job_id) || be32(sci) || address bytes. */
int uet_tss_derive_key(const uint8_t secret[UET_TSS_SECRET_LEN],
		       uint32_t job_id, uint32_t sci,
		       const uint8_t addr[UET_TSS_ADDR_LEN],
		       uint8_t key[UET_TSS_KEY_LEN]);
/* Fill buf with random bytes (RAND_bytes): 0 or -EIO. */
int uet_tss_random(void *buf, size_t len);
/* Wipe key material. */
void uet_tss_wipe(void *p, size_t len);

/* ---- peers (uet_tss.c) ---- */

/* Tell a TSS link that the instance at addr has SCI sci (tests: to start
 * two links that know each other without the announcement round trip;
 * unlike a fresh datagram, it does not say that addr spoke TSS).  0,
 * -EINVAL, -ENOMEM. */
int uet_tss_link_learn_peer(struct uet_link *link,
			    const struct uet_link_addr *addr, uint32_t sci);

/* ---- replay window (per security context) ---- */

struct uet_tss_replay {
	uint32_t top;			/* highest sequence accepted, 0 none */
	uint64_t bits[UET_TSS_REPLAY_WINDOW / 64];
};

/* 0 when seq may be new, else UET_TSS_DROP_REPLAY or UET_TSS_DROP_OLD
 * (sequence 0 is never sent: OLD).  Nothing changes. */
int uet_tss_replay_check(const struct uet_tss_replay *w, uint32_t seq);
/* Record seq (after it authenticated and passed check). */
void uet_tss_replay_accept(struct uet_tss_replay *w, uint32_t seq);

#endif /* UET_TSS_INTERNAL_H */
