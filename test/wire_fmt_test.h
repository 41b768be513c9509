/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared pieces of the wire-codec test suites: the format table entry,
 * known-vector entry, and the decode/encode expectations that check a
 * failed call leaves its output untouched.  Define BUF_MAX and FILL before
 * including this header.
 */
#ifndef WIRE_FMT_TEST_H
#define WIRE_FMT_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_test.h"
#include "uet_wire.h"

struct fmt {
	const char *name;
	size_t len;
	size_t hsize;
	bool prologue;		/* starts with a PDS prologue */
	ssize_t (*enc)(uint8_t *buf, size_t len, const void *h);
	ssize_t (*dec)(void *h, const uint8_t *buf, size_t len);
	bool (*eq)(const void *a, const void *b);
	void (*rnd)(void *h);
};

struct vec {
	const char *name;
	int fmt;
	const void *host;
	uint8_t bytes[BUF_MAX];
	uint8_t rsvd[BUF_MAX];	/* reserved bits of this vector */
};

static uint8_t *dup_exact(const uint8_t *src, size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	if (n)
		memcpy(p, src, n);
	return p;
}

/*
 * Decode n bytes from an exact-size heap copy (so that ASan catches any
 * over-read); check the result, and that a failed decode leaves the
 * host struct untouched.
 */
static void expect_dec(const struct fmt *f, const uint8_t *bytes, size_t n,
		       ssize_t want, const char *what)
{
	uint8_t *in = dup_exact(bytes, n);
	uint8_t h[256], before[256];
	ssize_t r;

	ck_assert_uint_le(f->hsize, sizeof(h));
	memset(h, FILL, sizeof(h));
	memcpy(before, h, sizeof(h));
	r = f->dec(h, in, n);
	ck_assert_msg(r == want,
		      "%s %s: decode(%zu bytes) = %zd (%s), want %zd",
		      f->name, what, n, r, uet_wire_strerror(r), want);
	if (want < 0)
		ck_assert_msg(!memcmp(h, before, sizeof(h)),
			      "%s %s: failed decode wrote the host struct",
			      f->name, what);
	free(in);
}

/* Encode into a full buffer; on failure the buffer must be untouched. */
static void expect_enc(const struct fmt *f, const void *host, ssize_t want,
		       const char *what)
{
	uint8_t buf[BUF_MAX], before[BUF_MAX];
	ssize_t r;

	memset(buf, FILL, sizeof(buf));
	memcpy(before, buf, sizeof(buf));
	r = f->enc(buf, sizeof(buf), host);
	ck_assert_msg(r == want, "%s %s: encode = %zd (%s), want %zd",
		      f->name, what, r, uet_wire_strerror(r), want);
	if (want < 0)
		ck_assert_msg(!memcmp(buf, before, sizeof(buf)),
			      "%s %s: failed encode wrote the buffer",
			      f->name, what);
}

#endif /* WIRE_FMT_TEST_H */
