/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CMS CC state codecs.  Byte 0 of both forms: cc_type[7:4] (0 or 1),
 * cc_flags[3:0] (reserved).  Layouts as implemented:
 * docs/conformance.md (4.1).
 */
#include "uet_cms_wire.h"

#define CC_TYPE_SHIFT		4
#define CC_FLAGS_MASK		0x0f

#define OFF_SENT_BYTES		1
#define OFF_CWND_BYTES		4
#define OFF_WIDE_STATE		1

/* cc_type + cc_flags + sent_bytes + cwnd_bytes */
_Static_assert(4 + 4 + 24 + 32 == 8 * UET_CMS_CC_STATE_COMPACT_LEN,
	       "CC state compact size");
/* cc_type + cc_flags + cc_state */
_Static_assert(4 + 4 + 8 * UET_CMS_WIDE_STATE_LEN ==
	       8 * UET_CMS_CC_STATE_WIDE_LEN, "CC state wide size");
_Static_assert(UET_CMS_WIDE_STATE_LEN * 8 == 120, "cc_state is 120 bits");

static bool cc_type_valid(unsigned int cc_type)
{
	return cc_type == UET_CC_NSCC || cc_type == UET_CC_CREDIT;
}

/* Byte 0: 0 on success, else UET_WIRE_ERESERVED / UET_WIRE_ERANGE. */
static int cc_byte0_get(const uint8_t *buf, uint8_t *cc_type)
{
	uint8_t b = uet_get_u8(buf);

	if (b & CC_FLAGS_MASK)
		return UET_WIRE_ERESERVED;
	if (!cc_type_valid(b >> CC_TYPE_SHIFT))
		return UET_WIRE_ERANGE;
	*cc_type = b >> CC_TYPE_SHIFT;
	return 0;
}

/*
 * Length check and byte 0 of either form on encode: 0 with *p past
 * byte 0, else UET_WIRE_ENOBUFS / UET_WIRE_ERANGE.
 */
static int cc_head_put(uint8_t **p, size_t len, size_t need,
		       unsigned int cc_type)
{
	if (len < need)
		return UET_WIRE_ENOBUFS;
	if (!cc_type_valid(cc_type))
		return UET_WIRE_ERANGE;
	*p = uet_put_u8(*p, (uint8_t)(cc_type << CC_TYPE_SHIFT));
	return 0;
}

/* Length check and byte 0 of either form on decode. */
static int cc_head_get(const uint8_t *buf, size_t len, size_t need,
		       uint8_t *cc_type)
{
	if (len < need)
		return UET_WIRE_ETRUNC;
	return cc_byte0_get(buf, cc_type);
}

ssize_t uet_cms_cc_state_compact_encode(uint8_t *buf, size_t len,
				const struct uet_cms_cc_state_compact *h)
{
	int ret;

	if (len >= UET_CMS_CC_STATE_COMPACT_LEN &&
	    h->sent_bytes > UET_CMS_SENT_BYTES_MAX)
		return UET_WIRE_ERANGE;
	ret = cc_head_put(&buf, len, UET_CMS_CC_STATE_COMPACT_LEN, h->cc_type);
	if (ret)
		return ret;
	buf = uet_put_be24(buf, h->sent_bytes);
	uet_put_be32(buf, h->cwnd_bytes);
	return UET_CMS_CC_STATE_COMPACT_LEN;
}

ssize_t uet_cms_cc_state_compact_decode(struct uet_cms_cc_state_compact *h,
					const uint8_t *buf, size_t len)
{
	uint8_t cc_type;
	int ret;

	ret = cc_head_get(buf, len, UET_CMS_CC_STATE_COMPACT_LEN, &cc_type);
	if (ret)
		return ret;
	h->cc_type = cc_type;
	h->sent_bytes = uet_get_be24(buf + OFF_SENT_BYTES);
	h->cwnd_bytes = uet_get_be32(buf + OFF_CWND_BYTES);
	return UET_CMS_CC_STATE_COMPACT_LEN;
}

ssize_t uet_cms_cc_state_wide_encode(uint8_t *buf, size_t len,
				     const struct uet_cms_cc_state_wide *h)
{
	int ret;

	ret = cc_head_put(&buf, len, UET_CMS_CC_STATE_WIDE_LEN, h->cc_type);
	if (ret)
		return ret;
	uet_put_bytes(buf, h->cc_state, sizeof(h->cc_state));
	return UET_CMS_CC_STATE_WIDE_LEN;
}

ssize_t uet_cms_cc_state_wide_decode(struct uet_cms_cc_state_wide *h,
				     const uint8_t *buf, size_t len)
{
	uint8_t cc_type;
	int ret;

	ret = cc_head_get(buf, len, UET_CMS_CC_STATE_WIDE_LEN, &cc_type);
	if (ret)
		return ret;
	h->cc_type = cc_type;
	memcpy(h->cc_state, buf + OFF_WIDE_STATE, sizeof(h->cc_state));
	return UET_CMS_CC_STATE_WIDE_LEN;
}
