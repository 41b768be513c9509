/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small files read whole (key files and the like) from a path a user
 * names, without trusting what is at that path: a FIFO does not block
 * the open (O_NONBLOCK), a symbolic link as the last component is not
 * followed, and only a regular file is read, up to a bound.
 */
#ifndef UET_FILE_H
#define UET_FILE_H

#include <stddef.h>

/* Also require: owned by the effective user, mode exactly 0600. */
#define UET_FILE_PRIVATE	0x1u

/*
 * Read the file at path into buf (max bytes at most); *len the bytes
 * read.  0; -EINVAL (bad arguments or flags), -ELOOP (a symbolic link),
 * -EPERM (not a regular file; with UET_FILE_PRIVATE, not this user's or
 * not mode 0600), -EFBIG (longer than max), -errno of open or read.
 * On an error buf may hold part of the file: a caller reading a secret
 * wipes it either way.
 */
int uet_file_read_small(const char *path, void *buf, size_t max,
			size_t *len, unsigned int flags);

#endif /* UET_FILE_H */
