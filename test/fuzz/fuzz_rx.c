/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer harness: the whole receive path of the software NIC (PDS and
 * SES) against arbitrary datagrams.  Each input is a sequence of records
 *   [ctl: 1 byte][len: 2 bytes, big-endian][len bytes of datagram]
 * handed to uet_pds_rx() from one of 8 source addresses (ctl & 7); ctl
 * bit 3 first lets 0.1-25.5 s pass (timers of both layers), by the top
 * nibble.  The target is built anew for every input: one SES with two
 * endpoints in two JobIDs, a receive posted on each (buffers with guard
 * bytes), and registered regions with guard bytes: read-write for each
 * JobID's endpoint, one read-only, and one deregistered (a stale key).
 *
 * Oracles (abort on violation, besides ASan/UBSan):
 *   - every guard byte keeps its value;
 *   - the read-only region and the deregistered one are never written;
 *   - a receive completion or RMA event reports the JobID of the
 *     endpoint it belongs to (nothing crosses JobIDs);
 *   - a receive completes with status 0 only with all its bytes placed
 *     (len <= the buffer).
 * Seeds: scripts/fuzz-seeds.sh (test/fuzz/gen_seeds.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_rx_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uet_link_addr src[8];
	uint64_t now = SEC;
	struct fz *f;
	uint8_t *dg;
	size_t off = 0, len;
	unsigned int i;
	uint8_t ctl;

	f = malloc(sizeof(*f));
	if (!f)
		return 0;
	if (!fz_setup(f))
		abort();
	for (i = 0; i < 8; i++)
		if (uet_link_addr_from_str(&src[i], i & 4 ? "::1" :
					   "127.0.0.2", (uint16_t)(5000 + i)))
			abort();
	while (off + 3 <= size) {
		ctl = data[off];
		len = (size_t)data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (len > size - off)
			len = size - off;
		if (ctl & 8) {
			now += (uint64_t)((ctl >> 4) + 1) * 100000000ull *
			       ((ctl >> 4) == 15 ? 17 : 1);
			uet_pds_timer(f->pds, now);
			uet_ses_progress(f->ses, now);
		}
		/* An exact heap copy: ASan sees any overread. */
		dg = malloc(len ? len : 1);
		if (!dg)
			break;
		memcpy(dg, data + off, len);
		uet_pds_rx(f->pds, dg, len, &src[ctl & 7], now);
		uet_ses_progress(f->ses, now);
		free(dg);
		off += len;
		fz_check(f);
	}
	now += 60 * SEC;
	uet_pds_timer(f->pds, now);
	uet_ses_progress(f->ses, now);
	fz_check(f);
	uet_ses_destroy(f->ses);
	uet_pds_destroy(f->pds);
	fz_check(f);
	free(f);
	return 0;
}
