/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TSS header codec.
 *
 *   byte 0     tss_type[7:4] tss_flags[3:0]
 *   bytes 1-4  security_context_id
 *   bytes 5-8  sequence_number
 *   bytes 9-11 reserved, must be 0
 *
 * and, when tss_flags has UET_TSS_FLAG_DCI, the destination context id:
 *
 *   bytes 0-3  destination context id (be32)
 */
#include <assert.h>

#include "uet_tss_wire.h"

#define TSS_TYPE_SHIFT		4
#define TSS_TYPE_MAX		0xfu	/* 4 bits */
#define TSS_FLAGS_MAX		0xfu	/* 4 bits */
#define TSS_FLAGS_MASK		0x0fu
#define TSS_RSVD_OFF		9
#define TSS_RSVD_LEN		3

/* tss_type 4, tss_flags 4, security_context_id 32, sequence 32, rsvd 24 */
_Static_assert(4 + 4 + 32 + 32 + 24 == UET_TSS_HDR_LEN * 8, "TSS size");

ssize_t uet_tss_hdr_encode(uint8_t *buf, size_t len,
			   const struct uet_tss_hdr *h)
{
	uint8_t *p;

	if (len < UET_TSS_HDR_LEN)
		return UET_WIRE_ENOBUFS;
	if (h->tss_type > TSS_TYPE_MAX || h->tss_flags > TSS_FLAGS_MAX)
		return UET_WIRE_ERANGE;
	p = uet_put_u8(buf, (uint8_t)(h->tss_type << TSS_TYPE_SHIFT |
				      h->tss_flags));
	p = uet_put_be32(p, h->security_context_id);
	p = uet_put_be32(p, h->sequence_number);
	p = uet_put_be24(p, 0);
	assert(p - buf == UET_TSS_HDR_LEN);
	return UET_TSS_HDR_LEN;
}

ssize_t uet_tss_hdr_decode(struct uet_tss_hdr *h, const uint8_t *buf,
			   size_t len)
{
	uint8_t b0;

	if (len < UET_TSS_HDR_LEN)
		return UET_WIRE_ETRUNC;
	if (!uet_bytes_are_zero(buf + TSS_RSVD_OFF, TSS_RSVD_LEN))
		return UET_WIRE_ERESERVED;
	b0 = uet_get_u8(buf);
	*h = (struct uet_tss_hdr){
		.tss_type = b0 >> TSS_TYPE_SHIFT,
		.tss_flags = b0 & TSS_FLAGS_MASK,
		.security_context_id = uet_get_be32(buf + 1),
		.sequence_number = uet_get_be32(buf + 5),
	};
	return UET_TSS_HDR_LEN;
}

_Static_assert(UET_TSS_DCI_LEN == 4, "TSS destination context id size");

ssize_t uet_tss_dci_encode(uint8_t *buf, size_t len, uint32_t dci)
{
	if (len < UET_TSS_DCI_LEN)
		return UET_WIRE_ENOBUFS;
	uet_put_be32(buf, dci);
	return UET_TSS_DCI_LEN;
}

ssize_t uet_tss_dci_decode(uint32_t *dci, const uint8_t *buf, size_t len)
{
	if (len < UET_TSS_DCI_LEN)
		return UET_WIRE_ETRUNC;
	*dci = uet_get_be32(buf);
	return UET_TSS_DCI_LEN;
}
