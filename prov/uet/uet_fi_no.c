/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "Not supported" ops-table slots; see uet_fi_no.h for the conventions.
 * The parameters exist only to match libfabric's slot signatures.
 */
#include "config.h"

#include "uet_fi_no.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"

/* One definition per entry of uet_fi_no_list.h. */
#define UET_NO(type, name, value, params)				\
	type name params						\
	{								\
		return value;						\
	}
#include "uet_fi_no_list.h"
#undef UET_NO
