/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CMS CC state codecs.  Byte 0 of both forms: cc_type[7:4] (0 or 1),
 * cc_flags[3:0] (reserved).  Layouts as implemented:
 * docs/conformance.md (4.1).
 */
#include <string.h>

#include "uet_cms_wire.h"
#include "uet_wire_fields.h"

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

static bool cc_type_ok(uint64_t cc_type)
{
	return cc_type_valid((unsigned int)cc_type);
}

/* Byte 0 of both forms: cc_type[7:4], cc_flags[3:0] reserved. */
#define CC_BYTE0_FIELDS(type)						\
	UET_WF_BIT(type, cc_type, 0, 1, CC_TYPE_SHIFT, 4, .ok = cc_type_ok), \
	UET_WF_RB(0, 1, 0, CC_TYPE_SHIFT)

_Static_assert(CC_FLAGS_MASK == (1u << CC_TYPE_SHIFT) - 1, "byte 0");

static const struct uet_wire_field compact_fields[] = {
	CC_BYTE0_FIELDS(struct uet_cms_cc_state_compact),
	UET_WF_U(struct uet_cms_cc_state_compact, sent_bytes, OFF_SENT_BYTES,
		 3, .max = UET_CMS_SENT_BYTES_MAX),
	UET_WF_U(struct uet_cms_cc_state_compact, cwnd_bytes, OFF_CWND_BYTES,
		 4),
};

static const struct uet_wire_field wide_fields[] = {
	CC_BYTE0_FIELDS(struct uet_cms_cc_state_wide),
	UET_WF_B(struct uet_cms_cc_state_wide, cc_state, OFF_WIDE_STATE),
};

static const struct uet_wf_table compact_table =
	UET_WF_TABLE(compact_fields, UET_WF_BE);
static const struct uet_wf_table wide_table =
	UET_WF_TABLE(wide_fields, UET_WF_BE);

ssize_t uet_cms_cc_state_compact_encode(uint8_t *buf, size_t len,
				const struct uet_cms_cc_state_compact *h)
{
	return uet_wf_encode(&compact_table, UET_CMS_CC_STATE_COMPACT_LEN,
			     buf, len, h);
}

ssize_t uet_cms_cc_state_compact_decode(struct uet_cms_cc_state_compact *h,
					const uint8_t *buf, size_t len)
{
	return uet_wf_decode(&compact_table, UET_CMS_CC_STATE_COMPACT_LEN,
			     sizeof(*h), h, buf, len);
}

ssize_t uet_cms_cc_state_wide_encode(uint8_t *buf, size_t len,
				     const struct uet_cms_cc_state_wide *h)
{
	return uet_wf_encode(&wide_table, UET_CMS_CC_STATE_WIDE_LEN, buf, len,
			     h);
}

ssize_t uet_cms_cc_state_wide_decode(struct uet_cms_cc_state_wide *h,
				     const uint8_t *buf, size_t len)
{
	return uet_wf_decode(&wide_table, UET_CMS_CC_STATE_WIDE_LEN,
			     sizeof(*h), h, buf, len);
}
