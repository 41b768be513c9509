/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HSI values <-> libfabric values: the one place where the provider
 * translates what crosses the HSI (hsi/uet_hsi.h).
 */
#ifndef UET_XLATE_H
#define UET_XLATE_H

#include <stdint.h>

/* A notification status (enum uet_hsi_status) as a positive FI_E* code
 * (0 for UET_HSI_ST_OK, FI_EOTHER for a status the provider does not
 * know). */
int uet_xlate_status(uint16_t status);

/* libfabric access bits (FI_READ ... FI_REMOTE_WRITE) as
 * UET_HSI_ACCESS_* bits; other bits are dropped. */
uint64_t uet_xlate_access(uint64_t fi_access);

#endif /* UET_XLATE_H */
