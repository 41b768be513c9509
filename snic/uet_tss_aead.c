/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * AES-256-GCM for TSS through OpenSSL's EVP interface (which uses AES-NI
 * and carry-less multiplication when the CPU has them).  The key is set
 * once per context; each packet only sets its nonce.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>

#include <openssl/evp.h>

#include "uet_tss_internal.h"

int uet_tss_aead_init(struct uet_tss_aead *a,
		      const uint8_t key[UET_TSS_KEY_LEN], int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	a->ctx = NULL;
	if (!ctx)
		return -EIO;
	if (EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL,
			      enc) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN,
				UET_TSS_NONCE_LEN, NULL) != 1 ||
	    EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, enc) != 1)
		goto err_free_ctx;
	a->ctx = ctx;
	a->enc = enc;
	return 0;

err_free_ctx:
	EVP_CIPHER_CTX_free(ctx);
	return -EIO;
}

void uet_tss_aead_fini(struct uet_tss_aead *a)
{
	if (a && a->ctx) {
		EVP_CIPHER_CTX_free(a->ctx);	/* wipes the key schedule */
		a->ctx = NULL;
	}
}

int uet_tss_aead_seal(struct uet_tss_aead *a,
		      const uint8_t nonce[UET_TSS_NONCE_LEN],
		      const uint8_t *aad, size_t aad_len,
		      const struct iovec *iov, unsigned int iovcnt,
		      uint8_t *out, uint8_t tag[UET_TSS_TAG_LEN])
{
	EVP_CIPHER_CTX *ctx = a->ctx;
	unsigned int i;
	int n;

	if (!ctx || !a->enc || aad_len > INT_MAX)
		return -EIO;
	if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1 ||
	    (aad_len && EVP_EncryptUpdate(ctx, NULL, &n, aad,
					  (int)aad_len) != 1))
		return -EIO;
	for (i = 0; i < iovcnt; i++) {
		if (!iov[i].iov_len)
			continue;
		if (iov[i].iov_len > INT_MAX ||
		    EVP_EncryptUpdate(ctx, out, &n, iov[i].iov_base,
				      (int)iov[i].iov_len) != 1)
			return -EIO;
		out += n;
	}
	if (EVP_EncryptFinal_ex(ctx, out, &n) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, UET_TSS_TAG_LEN,
				tag) != 1)
		return -EIO;
	return 0;
}

int uet_tss_aead_open(struct uet_tss_aead *a,
		      const uint8_t nonce[UET_TSS_NONCE_LEN],
		      const uint8_t *aad, size_t aad_len,
		      const uint8_t *in, size_t len, uint8_t *out,
		      const uint8_t tag[UET_TSS_TAG_LEN])
{
	EVP_CIPHER_CTX *ctx = a->ctx;
	int n;

	if (!ctx || a->enc || aad_len > INT_MAX || len > INT_MAX)
		return -EIO;
	if (EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1 ||
	    (aad_len && EVP_DecryptUpdate(ctx, NULL, &n, aad,
					  (int)aad_len) != 1) ||
	    (len && EVP_DecryptUpdate(ctx, out, &n, in, (int)len) != 1) ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, UET_TSS_TAG_LEN,
				(void *)tag) != 1)
		return -EIO;
	/* GCM writes nothing at the end; a failure here is the tag. */
	if (EVP_DecryptFinal_ex(ctx, out + (len ? (size_t)n : 0), &n) != 1)
		return -EBADMSG;
	return 0;
}
