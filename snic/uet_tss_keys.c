/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS keys: the key file (FI_UET_TSS_KEY_FILE), HKDF-SHA256 through
 * OpenSSL 3's EVP_KDF "HKDF", the per-sender packet key, random numbers.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netinet/in.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "uet_byteorder.h"
#include "uet_file.h"
#include "uet_tss_internal.h"

#define TSS_KDF_SALT		"UET-TSS-v1"
#define TSS_KDF_LABEL		"uet tss packet key"
#define TSS_KDF_LABEL_LEN	(sizeof(TSS_KDF_LABEL) - 1)
/* Largest key file read: 64 hex digits and some whitespace. */
#define TSS_KEY_FILE_MAX	256

void uet_tss_wipe(void *p, size_t len)
{
	OPENSSL_cleanse(p, len);
}

int uet_tss_random(void *buf, size_t len)
{
	return RAND_bytes(buf, (int)len) == 1 ? 0 : -EIO;
}

int uet_tss_addr_bytes(const struct uet_link_addr *a,
		       uint8_t out[UET_TSS_ADDR_LEN])
{
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;

	memset(out, 0, UET_TSS_ADDR_LEN);
	if (a->ss.ss_family == AF_INET) {
		memcpy(&sin, &a->ss, sizeof(sin));
		out[0] = 1;
		memcpy(out + 1, &sin.sin_port, 2);	/* network order */
		memcpy(out + 3, &sin.sin_addr, 4);
		return 0;
	}
	if (a->ss.ss_family == AF_INET6) {
		memcpy(&sin6, &a->ss, sizeof(sin6));
		out[0] = 2;
		memcpy(out + 1, &sin6.sin6_port, 2);
		memcpy(out + 3, &sin6.sin6_addr, 16);
		return 0;
	}
	return -EINVAL;
}

int uet_tss_hkdf(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
		 size_t salt_len, const uint8_t *info, size_t info_len,
		 uint8_t *out, size_t out_len)
{
	OSSL_PARAM params[5], *p = params;
	EVP_KDF_CTX *kctx;
	EVP_KDF *kdf;
	int ret = -EIO;

	kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	if (!kdf)
		return -EIO;
	kctx = EVP_KDF_CTX_new(kdf);
	if (!kctx)
		goto err_free_kdf;
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						(char *)"SHA256", 0);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						 (void *)ikm, ikm_len);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
						 (void *)salt, salt_len);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
						 (void *)info, info_len);
	*p = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(kctx, out, out_len, params) == 1)
		ret = 0;
	EVP_KDF_CTX_free(kctx);
err_free_kdf:
	EVP_KDF_free(kdf);
	return ret;
}

int uet_tss_derive_key(const uint8_t secret[UET_TSS_SECRET_LEN],
		       uint32_t job_id, uint32_t sci,
		       const uint8_t addr[UET_TSS_ADDR_LEN],
		       uint8_t key[UET_TSS_KEY_LEN])
{
	uint8_t info[TSS_KDF_LABEL_LEN + 4 + 4 + UET_TSS_ADDR_LEN];
	uint8_t *p = info;

	memcpy(p, TSS_KDF_LABEL, TSS_KDF_LABEL_LEN);
	p += TSS_KDF_LABEL_LEN;
	p = uet_put_be32(p, job_id);
	p = uet_put_be32(p, sci);
	memcpy(p, addr, UET_TSS_ADDR_LEN);
	return uet_tss_hkdf(secret, UET_TSS_SECRET_LEN,
			    (const uint8_t *)TSS_KDF_SALT,
			    sizeof(TSS_KDF_SALT) - 1, info, sizeof(info), key,
			    UET_TSS_KEY_LEN);
}

static int tss_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 64 hex digits with optional whitespace around them. */
static int tss_parse_hex(const uint8_t *buf, size_t len,
			 uint8_t secret[UET_TSS_SECRET_LEN])
{
	size_t b = 0, e = len, i;
	int hi, lo;

	while (b < e && isspace(buf[b]))
		b++;
	while (e > b && isspace(buf[e - 1]))
		e--;
	if (e - b != 2 * UET_TSS_SECRET_LEN)
		return -EINVAL;
	for (i = 0; i < UET_TSS_SECRET_LEN; i++) {
		hi = tss_hex_digit(buf[b + 2 * i]);
		lo = tss_hex_digit(buf[b + 2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		secret[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int uet_tss_key_file_load(const char *path,
			  uint8_t secret[UET_TSS_SECRET_LEN])
{
	uint8_t buf[TSS_KEY_FILE_MAX + 1];
	size_t len = 0;
	int ret;

	if (!path || !*path || !secret)
		return -EINVAL;
	/* Never blocks on a FIFO; this user's regular file, mode 0600. */
	ret = uet_file_read_small(path, buf, sizeof(buf), &len,
				  UET_FILE_PRIVATE);
	if (ret == -EFBIG)
		ret = -EINVAL;		/* too long for a key */
	if (ret)
		goto out_wipe;
	if (len == UET_TSS_SECRET_LEN) {
		memcpy(secret, buf, UET_TSS_SECRET_LEN);
		ret = 0;
	} else if (len <= TSS_KEY_FILE_MAX) {
		ret = tss_parse_hex(buf, len, secret);
	} else {
		ret = -EINVAL;
	}
out_wipe:
	uet_tss_wipe(buf, sizeof(buf));
	return ret;
}
