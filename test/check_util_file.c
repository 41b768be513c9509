/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util/uet_file: small files read whole, and what is refused at once
 * instead: FIFOs (whose open would block), symbolic links, directories,
 * devices, files over the bound, and with UET_FILE_PRIVATE files of
 * another user or another mode (issue 30, finding 10).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uet_file.h"
#include "uet_test.h"

/* A hang is a failure: every test runs under this alarm. */
#define HANG_S	10

struct tmp {
	char dir[32];
	char path[64];
};

static void tmp_init(struct tmp *t, const char *name)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/check_util_file.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, name);
	alarm(HANG_S);
}

static void tmp_fini(struct tmp *t)
{
	alarm(0);
	unlink(t->path);
	ck_assert_int_eq(rmdir(t->dir), 0);
}

START_TEST(test_read_regular)
{
	struct tmp t;
	char buf[16];
	size_t len = 99;

	tmp_init(&t, "f");
	uet_test_write_file(t.path, "0123456789", 10, 0644);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf), &len,
					     0), 0);
	ck_assert_uint_eq(len, 10);
	ck_assert_mem_eq(buf, "0123456789", 10);
	/* exactly the bound, one over it */
	ck_assert_int_eq(uet_file_read_small(t.path, buf, 10, &len, 0), 0);
	ck_assert_uint_eq(len, 10);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, 9, &len, 0),
			 -EFBIG);
	/* empty */
	uet_test_write_file(t.path, "", 0, 0644);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf), &len,
					     0), 0);
	ck_assert_uint_eq(len, 0);
	/* arguments */
	ck_assert_int_eq(uet_file_read_small(NULL, buf, 1, &len, 0), -EINVAL);
	ck_assert_int_eq(uet_file_read_small("", buf, 1, &len, 0), -EINVAL);
	ck_assert_int_eq(uet_file_read_small(t.path, NULL, 1, &len, 0),
			 -EINVAL);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, 1, NULL, 0),
			 -EINVAL);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, 1, &len, 0x80),
			 -EINVAL);
	ck_assert_int_eq(uet_file_read_small("/nonexistent/f", buf, 1, &len,
					     0), -ENOENT);
	tmp_fini(&t);
}
END_TEST

/* A FIFO with no writer: open() without O_NONBLOCK waits for one. */
START_TEST(test_refuse_fifo)
{
	struct tmp t;
	char buf[16];
	size_t len;

	tmp_init(&t, "fifo");
	ck_assert_int_eq(mkfifo(t.path, 0600), 0);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf), &len,
					     0), -EPERM);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf), &len,
					     UET_FILE_PRIVATE), -EPERM);
	tmp_fini(&t);
}
END_TEST

START_TEST(test_refuse_link_dir_device)
{
	struct tmp t;
	char buf[16], link[80];
	size_t len;

	tmp_init(&t, "f");
	uet_test_write_file(t.path, "x", 1, 0600);
	snprintf(link, sizeof(link), "%s/link", t.dir);
	ck_assert_int_eq(symlink(t.path, link), 0);
	ck_assert_int_eq(uet_file_read_small(link, buf, sizeof(buf), &len, 0),
			 -ELOOP);
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(uet_file_read_small(t.dir, buf, sizeof(buf), &len,
					     0), -EPERM);
	ck_assert_int_eq(uet_file_read_small("/dev/null", buf, sizeof(buf),
					     &len, 0), -EPERM);
	tmp_fini(&t);
}
END_TEST

/* UET_FILE_PRIVATE: this user's, mode 0600 exactly. */
START_TEST(test_private)
{
	static const mode_t bad[] = { 0640, 0604, 0700, 0400, 0660, 01600 };
	struct tmp t;
	char buf[16];
	size_t len, i;

	tmp_init(&t, "f");
	uet_test_write_file(t.path, "secret", 6, 0600);
	ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf), &len,
					     UET_FILE_PRIVATE), 0);
	ck_assert_uint_eq(len, 6);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(chmod(t.path, bad[i]), 0);
		ck_assert_msg(uet_file_read_small(t.path, buf, sizeof(buf),
						  &len, UET_FILE_PRIVATE) ==
			      -EPERM, "mode %o accepted", bad[i]);
	}
	ck_assert_int_eq(chmod(t.path, 0600), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(t.path, 65534, 65534), 0);
		ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf),
						     &len, UET_FILE_PRIVATE),
				 -EPERM);
		/* without the flag, only the type and size matter */
		ck_assert_int_eq(uet_file_read_small(t.path, buf, sizeof(buf),
						     &len, 0), 0);
	}
	tmp_fini(&t);
}
END_TEST

static Suite *util_file_suite(void)
{
	Suite *s = suite_create("util_file");
	TCase *tc = tcase_create("read_small");

	tcase_add_test(tc, test_read_regular);
	tcase_add_test(tc, test_refuse_fifo);
	tcase_add_test(tc, test_refuse_link_dir_device);
	tcase_add_test(tc, test_private);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_file_suite)
