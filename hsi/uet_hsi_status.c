/* SPDX-License-Identifier: BSD-2-Clause */
/* Notification status codes of the HSI (enum uet_hsi_status). */
#include "config.h"

#include <errno.h>

#include "uet_hsi.h"

/* Status, its errno value and its name, in one table. */
static const struct {
	uint16_t status;
	int err;
	const char *name;
} uet_hsi_status_tbl[] = {
	{ UET_HSI_ST_OK, 0, "ok" },
	{ UET_HSI_ST_TRUNCATED, EOVERFLOW, "truncated" },
	{ UET_HSI_ST_CANCELED, ECANCELED, "canceled" },
	{ UET_HSI_ST_NO_MSG, ENOMSG, "no message" },
	{ UET_HSI_ST_TIMED_OUT, ETIMEDOUT, "timed out" },
	{ UET_HSI_ST_INVALID, EINVAL, "invalid" },
	{ UET_HSI_ST_NOT_SUPPORTED, EOPNOTSUPP, "not supported" },
	{ UET_HSI_ST_TOO_LONG, EMSGSIZE, "too long" },
	{ UET_HSI_ST_ACCESS, EACCES, "access" },
	{ UET_HSI_ST_NO_ADDR, EADDRNOTAVAIL, "no address" },
	{ UET_HSI_ST_NO_MEM, ENOMEM, "no memory" },
	{ UET_HSI_ST_IO, EIO, "I/O error" },
	{ UET_HSI_ST_HOST_UNREACHABLE, EHOSTUNREACH, "host unreachable" },
	{ UET_HSI_ST_CONN_RESET, ECONNRESET, "connection reset" },
	{ UET_HSI_ST_CONN_REFUSED, ECONNREFUSED, "connection refused" },
	{ UET_HSI_ST_AGAIN, EAGAIN, "try again" },
	{ UET_HSI_ST_FAULT, EFAULT, "bad address" },
	{ UET_HSI_ST_PROTOCOL, EPROTO, "protocol error" },
	{ UET_HSI_ST_NOT_CONNECTED, ENOTCONN, "not connected" },
	{ UET_HSI_ST_NOT_FOUND, ENOENT, "not found" },
	{ UET_HSI_ST_NET_UNREACHABLE, ENETUNREACH, "network unreachable" },
	{ UET_HSI_ST_NO_SPACE, ENOSPC, "no space" },
	{ UET_HSI_ST_NO_BUFS, ENOBUFS, "no buffers" },
	{ UET_HSI_ST_NO_PEER, ENXIO, "no such peer" },
	{ UET_HSI_ST_PERMISSION, EPERM, "not permitted" },
	{ UET_HSI_ST_RANGE, ERANGE, "out of range" },
	{ UET_HSI_ST_BAD_MSG, EBADMSG, "bad message" },
	{ UET_HSI_ST_BUSY, EBUSY, "busy" },
	{ UET_HSI_ST_ALREADY, EALREADY, "already in progress" },
	{ UET_HSI_ST_OTHER, EIO, "other" },
};

#define UET_HSI_NSTATUS \
	(sizeof(uet_hsi_status_tbl) / sizeof(uet_hsi_status_tbl[0]))

uint16_t uet_hsi_status_from_errno(int err)
{
	size_t i;

	if (err >= 0)
		return UET_HSI_ST_OK;
	/* the last row (OTHER) repeats EIO: stop before it */
	for (i = 1; i + 1 < UET_HSI_NSTATUS; i++)
		if (uet_hsi_status_tbl[i].err == -err)
			return uet_hsi_status_tbl[i].status;
	return UET_HSI_ST_OTHER;
}

int uet_hsi_status_to_errno(uint16_t status)
{
	size_t i;

	for (i = 0; i < UET_HSI_NSTATUS; i++)
		if (uet_hsi_status_tbl[i].status == status)
			return uet_hsi_status_tbl[i].err;
	return EIO;
}

const char *uet_hsi_status_str(uint16_t status)
{
	size_t i;

	for (i = 0; i < UET_HSI_NSTATUS; i++)
		if (uet_hsi_status_tbl[i].status == status)
			return uet_hsi_status_tbl[i].name;
	return "unknown";
}
