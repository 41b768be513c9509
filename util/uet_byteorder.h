/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Explicit byte-order access to packet and descriptor bytes.
 *
 * Wire formats (PDS/SES/CMS/TSS) are big-endian: use uet_get_beNN /
 * uet_put_beNN.  HSI descriptors (command segments, SGL entries,
 * notifications) are little-endian: use uet_get_leNN / uet_put_leNN.
 * Never cast a struct over packet bytes; never use compiler bitfields.
 *
 * The put helpers return the pointer just past what they wrote so that
 * encoders can chain them; the get helpers take a const pointer and
 * return the value.  None of them checks bounds: callers check the
 * length once, up front, against the format's fixed size.
 */
#ifndef UET_BYTEORDER_H
#define UET_BYTEORDER_H

#include <stdint.h>
#include <string.h>

/* ---- big-endian (wire) ---- */

static inline uint8_t uet_get_u8(const uint8_t *p)
{
	return p[0];
}

static inline uint16_t uet_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t uet_get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t uet_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t uet_get_be64(const uint8_t *p)
{
	return (uint64_t)uet_get_be32(p) << 32 | uet_get_be32(p + 4);
}

static inline uint8_t *uet_put_u8(uint8_t *p, uint8_t v)
{
	p[0] = v;
	return p + 1;
}

static inline uint8_t *uet_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return p + 2;
}

static inline uint8_t *uet_put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
	return p + 3;
}

static inline uint8_t *uet_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return p + 4;
}

static inline uint8_t *uet_put_be64(uint8_t *p, uint64_t v)
{
	uet_put_be32(p, (uint32_t)(v >> 32));
	return uet_put_be32(p + 4, (uint32_t)v);
}

/* Copy n raw bytes (opaque fields such as 128-bit CC state). */
static inline uint8_t *uet_put_bytes(uint8_t *p, const void *src, size_t n)
{
	memcpy(p, src, n);
	return p + n;
}

/* True when all n bytes at p are zero (reserved-field checks, on every
 * command and datagram): eight bytes at a time (a byte loop cost 3
 * instructions per byte). */
static inline int uet_bytes_are_zero(const uint8_t *p, size_t n)
{
	uint64_t w, acc = 0;
	size_t i = 0;

	for (; i + sizeof(w) <= n; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		acc |= w;
	}
	for (; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/* ---- little-endian (HSI descriptors) ---- */

static inline uint16_t uet_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t uet_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t uet_get_le64(const uint8_t *p)
{
	return (uint64_t)uet_get_le32(p) | (uint64_t)uet_get_le32(p + 4) << 32;
}

static inline uint8_t *uet_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return p + 2;
}

static inline uint8_t *uet_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	return p + 4;
}

static inline uint8_t *uet_put_le64(uint8_t *p, uint64_t v)
{
	uet_put_le32(p, (uint32_t)v);
	return uet_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif /* UET_BYTEORDER_H */
