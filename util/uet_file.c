/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small files read whole; see uet_file.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uet_file.h"

/* What the opened file must be: checked on the descriptor, so it is the
 * file that will be read, whatever the path names by now. */
static int uet_file_check(int fd, size_t max, unsigned int flags)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EPERM;		/* FIFO, directory, device, socket */
	if ((flags & UET_FILE_PRIVATE) &&
	    (st.st_uid != geteuid() || (st.st_mode & 07777) != 0600))
		return -EPERM;
	if (st.st_size < 0 || (uintmax_t)st.st_size > max)
		return -EFBIG;
	return 0;
}

/* Read up to max bytes; a file that grew past max since the check is
 * -EFBIG too. */
static int uet_file_read_fd(int fd, unsigned char *buf, size_t max,
			    size_t *len)
{
	unsigned char extra;
	ssize_t r;
	size_t n = 0;

	for (;;) {
		if (n < max)
			r = read(fd, buf + n, max - n);
		else
			r = read(fd, &extra, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		if (n == max) {
			*(volatile unsigned char *)&extra = 0;
			return -EFBIG;
		}
		n += (size_t)r;
	}
	*len = n;
	return 0;
}

int uet_file_read_small(const char *path, void *buf, size_t max,
			size_t *len, unsigned int flags)
{
	int fd, ret;

	if (!path || !*path || (!buf && max) || !len ||
	    (flags & ~UET_FILE_PRIVATE))
		return -EINVAL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY |
			O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = uet_file_check(fd, max, flags);
	if (!ret)
		ret = uet_file_read_fd(fd, buf, max, len);
	close(fd);
	return ret;
}
