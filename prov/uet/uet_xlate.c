/* SPDX-License-Identifier: BSD-2-Clause */
/* HSI values <-> libfabric values (uet_xlate.h). */
#include "config.h"

#include <errno.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include "uet_hsi.h"
#include "uet_xlate.h"

int uet_xlate_status(uint16_t status)
{
	switch (status) {
	case UET_HSI_ST_OK:
		return 0;
	case UET_HSI_ST_TRUNCATED:
		return FI_ETRUNC;
	case UET_HSI_ST_CANCELED:
		return FI_ECANCELED;
	case UET_HSI_ST_NO_MSG:
		return FI_ENOMSG;
	case UET_HSI_ST_TIMED_OUT:
		return FI_ETIMEDOUT;
	case UET_HSI_ST_INVALID:
		return FI_EINVAL;
	case UET_HSI_ST_NOT_SUPPORTED:
		return FI_EOPNOTSUPP;
	case UET_HSI_ST_TOO_LONG:
		return FI_EMSGSIZE;
	case UET_HSI_ST_ACCESS:
		return FI_EACCES;
	case UET_HSI_ST_NO_ADDR:
		return FI_EADDRNOTAVAIL;
	case UET_HSI_ST_NO_MEM:
		return FI_ENOMEM;
	case UET_HSI_ST_IO:
		return FI_EIO;
	case UET_HSI_ST_HOST_UNREACHABLE:
		return FI_EHOSTUNREACH;
	case UET_HSI_ST_NET_UNREACHABLE:
		return FI_ENETUNREACH;
	case UET_HSI_ST_CONN_RESET:
		return FI_ECONNRESET;
	case UET_HSI_ST_CONN_REFUSED:
		return FI_ECONNREFUSED;
	case UET_HSI_ST_AGAIN:
		return FI_EAGAIN;
	case UET_HSI_ST_FAULT:
		return FI_EFAULT;
	/* libfabric has no FI_E* name for these: its codes below 256 are
	 * the errno values. */
	case UET_HSI_ST_PROTOCOL:
		return EPROTO;
	case UET_HSI_ST_NO_PEER:
		return ENXIO;
	case UET_HSI_ST_RANGE:
		return ERANGE;
	case UET_HSI_ST_BAD_MSG:
		return EBADMSG;
	case UET_HSI_ST_NO_SPACE:
		return FI_ENOSPC;
	case UET_HSI_ST_NO_BUFS:
		return FI_ENOBUFS;
	case UET_HSI_ST_PERMISSION:
		return FI_EPERM;
	case UET_HSI_ST_BUSY:
		return FI_EBUSY;
	case UET_HSI_ST_ALREADY:
		return FI_EALREADY;
	case UET_HSI_ST_NOT_CONNECTED:
		return FI_ENOTCONN;
	case UET_HSI_ST_NOT_FOUND:
		return FI_ENOENT;
	default:
		return FI_EOTHER;
	}
}

uint64_t uet_xlate_access(uint64_t fi_access)
{
	uint64_t a = 0;

	if (fi_access & FI_READ)
		a |= UET_HSI_ACCESS_READ;
	if (fi_access & FI_WRITE)
		a |= UET_HSI_ACCESS_WRITE;
	if (fi_access & FI_SEND)
		a |= UET_HSI_ACCESS_SEND;
	if (fi_access & FI_RECV)
		a |= UET_HSI_ACCESS_RECV;
	if (fi_access & FI_REMOTE_READ)
		a |= UET_HSI_ACCESS_REMOTE_READ;
	if (fi_access & FI_REMOTE_WRITE)
		a |= UET_HSI_ACCESS_REMOTE_WRITE;
	return a;
}
