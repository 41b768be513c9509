/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Table-driven field codec (uet_wire_fields.h): the ordered check
 * passes, run only when a fast check finds something to refuse.
 */
#include "uet_wire_fields.h"

/* One pass over one value; reserved_err is the error of that pass. */
static int value_check(const struct uet_wire_field *f, uint64_t v,
		       enum uet_wf_pass pass, int reserved_err)
{
	switch (pass) {
	case UET_WF_TYPE:
		return 0;
	case UET_WF_RESERVED:
		return v > uet_wf_field_max(f) ? reserved_err : 0;
	case UET_WF_REQUIRED:
		return (f->flags & UET_WF_NONZERO) && !v ? UET_WIRE_ERANGE : 0;
	default:
		return f->ok && !f->ok(v) ? UET_WIRE_ERANGE : 0;
	}
}

int uet_wf_check_host(const struct uet_wf_table *t, const void *h,
		      enum uet_wf_pass pass)
{
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		if (!uet_wf_is_value(&t->f[i]) ||
		    (t->f[i].flags & UET_WF_DECODE_ONLY))
			continue;
		ret = value_check(&t->f[i], uet_wf_member_get(&t->f[i], h), pass,
				  UET_WIRE_ERANGE);
		if (ret)
			return ret;
	}
	return 0;
}

int uet_wf_check_wire(const struct uet_wf_table *t, const uint8_t *buf,
		      enum uet_wf_pass pass)
{
	const struct uet_wire_field *f;
	size_t i;
	int ret;

	for (i = 0; i < t->n; i++) {
		f = &t->f[i];
		if (f->kind == UET_WF_RSVD && pass == UET_WF_RESERVED &&
		    !uet_bytes_are_zero(buf + f->off, f->len))
			return UET_WIRE_ERESERVED;
		if (f->kind == UET_WF_CONST && pass == UET_WF_TYPE &&
		    uet_wf_wire_get(f, buf + f->off, t->order) != f->max)
			return UET_WIRE_ETYPE;
		if (f->kind == UET_WF_RSVD_BITS && pass == UET_WF_RESERVED &&
		    uet_wf_wire_value(f, buf, t->order))
			return UET_WIRE_ERESERVED;
		if (!uet_wf_is_value(f))
			continue;
		ret = value_check(f, uet_wf_wire_value(f, buf, t->order), pass,
				  UET_WIRE_ERESERVED);
		if (ret)
			return ret;
	}
	return 0;
}

