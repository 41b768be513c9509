/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer harness: the HSI command and notification rings and every
 * HSI descriptor decoder.  The first input byte picks the target:
 *   0  command ring: the ring memory is the input, the doorbell a value
 *      derived from it (0..depth ahead of the consumer), and the consumer
 *      takes commands until the ring is empty; every slot is also decoded
 *      as a segment and as two SGL entries;
 *   1  notification ring: the ring memory (markers included) is the
 *      input; the consumer polls and peeks until it finds nothing;
 *   2  every HSI decoder on the input; command formats with the
 *      round-trip oracle of fuzz_wire.c (re-encoding, decoding again,
 *      re-encoding gives the same bytes), notification entries (whose
 *      marker byte the ring writes) decoded only.
 * A sanitizer report, a consumer that runs past the published commands
 * or a round-trip difference is a finding (abort).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "uet_hsi_cmdq.h"
#include "uet_hsi_formats.h"
#include "uet_hsi_notifq.h"

#define DEPTH		16u

#define ROUND_TRIP(name, buf, len)					\
	do {								\
		struct uet_##name a, b;					\
		uint8_t enc[128], enc2[128];				\
		ssize_t n, m;						\
									\
		n = uet_##name##_decode(&a, buf, len);			\
		if (n < 0)						\
			break;						\
		if ((size_t)n > len || (size_t)n > sizeof(enc))		\
			abort();					\
		m = uet_##name##_encode(enc, sizeof(enc), &a);		\
		if (m != n)						\
			abort();					\
		if (uet_##name##_decode(&b, enc, (size_t)m) != n ||	\
		    uet_##name##_encode(enc2, sizeof(enc2), &b) != m ||	\
		    memcmp(enc, enc2, (size_t)m))			\
			abort();					\
	} while (0)

/* Notification entries: the ring, not the encoder, writes the marker
 * byte (63), so only decoding is checked (sanitizers). */
#define DECODE_ONLY(name, buf, len)					\
	do {								\
		struct uet_##name a;					\
									\
		if (uet_##name##_decode(&a, buf, len) > (ssize_t)len)	\
			abort();					\
	} while (0)

static void fuzz_cmdq(const uint8_t *data, size_t size)
{
	struct uet_hsi_sgl_entry sgl[256];
	struct uet_hsi_cmd_seg seg;
	struct uet_hsi_cmdq q;
	uint32_t db, taken = 0;
	size_t ring = (size_t)DEPTH * UET_HSI_CMDQ_SLOT_LEN, i;
	int ret;

	if (uet_hsi_cmdq_init(&q, DEPTH))
		return;
	memset(q.ring, 0, ring);
	memcpy(q.ring, data + 1, size - 1 < ring ? size - 1 : ring);
	db = size > 1 ? data[1] % (DEPTH + 1) : 0;
	atomic_store(&q.db, db);
	for (i = 0; i < DEPTH; i++) {
		ROUND_TRIP(hsi_cmd_seg, uet_hsi_cmdq_slot(&q, (uint32_t)i),
			   UET_HSI_CMDQ_SLOT_LEN);
		ROUND_TRIP(hsi_sgl_entry, uet_hsi_cmdq_slot(&q, (uint32_t)i),
			   UET_HSI_SGL_ENTRY_LEN);
		ROUND_TRIP(hsi_cmd_ext, uet_hsi_cmdq_slot(&q, (uint32_t)i) +
			   UET_HSI_SGL_ENTRY_LEN, UET_HSI_SGL_ENTRY_LEN);
	}
	for (i = 0; i < 2 * DEPTH; i++) {
		ret = uet_hsi_cmdq_take(&q, &seg, sgl, 256);
		if (ret == -EAGAIN || ret == -ENOBUFS)
			break;
		taken++;
		/* The consumer never frees more than was published. */
		if (atomic_load(&q.ci) - 0u > db)
			abort();
	}
	if (taken > db)
		abort();
	uet_hsi_cmdq_fini(&q);
}

static void fuzz_notifq(const uint8_t *data, size_t size)
{
	uint8_t out[4][UET_HSI_NOTIF_LEN];
	struct uet_hsi_notifq q;
	const uint8_t *e;
	size_t ring = (size_t)7 * UET_HSI_NOTIF_LEN;
	unsigned int i, n = 0;

	if (uet_hsi_notifq_init(&q, 7))
		return;
	memset(q.ring, 0, ring);
	memcpy(q.ring, data + 1, size - 1 < ring ? size - 1 : ring);
	for (i = 0; i < 64; i++) {
		if (i % 3 == 0) {
			e = uet_hsi_notifq_peek(&q);
			if (!e)
				break;
			DECODE_ONLY(hsi_notif_entry, e, UET_HSI_NOTIF_LEN);
			DECODE_ONLY(hsi_recv_notif, e, UET_HSI_NOTIF_LEN);
			if (uet_hsi_notifq_ack(&q))
				abort();
			n++;
		} else {
			n += uet_hsi_notifq_poll_batch(&q, out, 1 + i % 4);
		}
	}
	/* At most one lap's worth of entries without a producer. */
	if (n > 7)
		abort();
	uet_hsi_notifq_fini(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_cmdq(data, size);
		return 0;
	case 1:
		fuzz_notifq(data, size);
		return 0;
	default:
		break;
	}
	len = size - 1;
	buf = malloc(len ? len : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, len);
	ROUND_TRIP(hsi_sgl_entry, buf, len);
	ROUND_TRIP(hsi_cmd_seg, buf, len);
	ROUND_TRIP(hsi_cmd_ext, buf, len);
	DECODE_ONLY(hsi_recv_notif, buf, len);
	DECODE_ONLY(hsi_recv_cont, buf, len);
	DECODE_ONLY(hsi_send_cmpl, buf, len);
	DECODE_ONLY(hsi_event_notif, buf, len);
	DECODE_ONLY(hsi_notif_entry, buf, len);
	DECODE_ONLY(hsi_qw_violation, buf, len);
	ROUND_TRIP(hsi_pcie_cmd, buf, len);
	DECODE_ONLY(hsi_pcie_notif, buf, len);
	free(buf);
	return 0;
}
