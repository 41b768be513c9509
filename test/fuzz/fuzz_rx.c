/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer harness: the whole receive path of the software NIC (PDS and
 * SES) against arbitrary datagrams.  The first byte of an input is its
 * configuration (bit 0: congestion management off; NSCC on otherwise, as
 * the NIC runs by default); the rest is a sequence of records
 *   [ctl: 1 byte][len: 2 bytes, big-endian][len bytes of datagram]
 * handed to uet_pds_rx() from one of 8 source addresses (ctl & 7; 0 is
 * the rendezvous peer); ctl bit 3 first lets 0.1-25.5 s pass (timers of
 * both layers), by the top nibble.  The target is built anew for every
 * input (fuzz_rx_target.h): one SES with two endpoints in two JobIDs, a
 * receive posted on each (buffers with guard bytes), registered regions
 * with guard bytes: read-write for each JobID's endpoint, one read-only,
 * and one deregistered (a stale key); and a tagged receive pulling a
 * rendezvous message from source 0, its UET_READ outstanding.  The READ
 * id in a Response with Data is relative: 1 names that READ.
 *
 * Oracles (abort on violation, besides ASan/UBSan):
 *   - every guard byte keeps its value;
 *   - the read-only region and the deregistered one are never written;
 *   - a receive completion or RMA event reports the JobID of the
 *     endpoint it belongs to (nothing crosses JobIDs);
 *   - a receive completes with status 0 only with all its bytes placed
 *     (len <= the buffer);
 *   - the pull path: a byte of the pulled range changes only when a
 *     Response with Data for the READ from its peer on its PDC covered
 *     it; the eager bytes and those past the message never change; the
 *     pull receive completes once, and with status 0 only when every
 *     pulled byte was covered.
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
	bool cc = !(size && (data[0] & FZ_CFG_CC_OFF));
	struct fz *f;

	f = malloc(sizeof(*f));
	if (!f)
		return 0;
	if (!fz_setup(f, cc, size && (data[0] & FZ_CFG_WIRE_UE) ?
		      UET_WIRE_UE : UET_WIRE_UEPLUS))
		abort();
	fz_run(f, size ? data + 1 : data, size ? size - 1 : 0);
	uet_ses_destroy(f->ses);
	uet_pds_destroy(f->pds);
	fz_check(f);
	free(f);
	return 0;
}
