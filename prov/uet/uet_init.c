/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one exported symbol of libuet-fi.so: libfabric dlopens providers
 * found in $(libdir)/libfabric or FI_PROVIDER_PATH and calls fi_prov_ini.
 */
#include "config.h"

#include "uet_prov.h"

/* FI_EXT_INI defines fi_prov_ini without a prototype: declared here so
 * that -Wmissing-prototypes is quiet when libfabric's headers are not in
 * a system directory (a libfabric built from source). */
struct fi_provider *fi_prov_ini(void);

FI_EXT_INI
{
	return uet_prov_init();
}
