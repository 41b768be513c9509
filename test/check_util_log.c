/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util's logging without libfabric (util/uet_log.h): the hook decides what
 * is enabled and receives every line; the default writes to stderr at the
 * level FI_LOG_LEVEL names.  Linked without libfabric.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uet_log.h"
#include "uet_test.h"

static int max_level;
static unsigned int nlines, nenabled;
static int last_level, last_subsys, last_line;
static char last_func[64], last_msg[256];

static bool fake_enabled(int level, int subsys)
{
	(void)subsys;
	nenabled++;
	return level <= max_level;
}

static __attribute__((format(printf, 5, 0))) void
fake_vlog(int level, int subsys, const char *func, int line,
	  const char *fmt, va_list ap)
{
	nlines++;
	last_level = level;
	last_subsys = subsys;
	last_line = line;
	snprintf(last_func, sizeof(last_func), "%s", func);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	errno = EBADF;		/* a hook may disturb errno */
}

static const struct uet_log_hook fake = {
	.enabled = fake_enabled,
	.vlog = fake_vlog,
};

static int evaluated;

static int count_eval(void)
{
	return ++evaluated;
}

static void warn_once_site(void)
{
	UET_WARN_ONCE(UET_LOG_EP_DATA, "once %d\n", 1);
}

START_TEST(test_hook_routes_lines)
{
	int line;

	uet_log_set_hook(&fake);
	max_level = UET_LOG_INFO;
	nlines = 0;
	errno = ENOENT;
	line = __LINE__ + 1;
	UET_WARN(UET_LOG_CORE, "warn %d %s\n", 42, "x");
	ck_assert_int_eq(errno, ENOENT);	/* kept across the call */
	ck_assert_uint_eq(nlines, 1);
	ck_assert_int_eq(last_level, UET_LOG_WARN);
	ck_assert_int_eq(last_subsys, UET_LOG_CORE);
	ck_assert_int_eq(last_line, line);
	ck_assert(!strncmp(last_func, "test_hook_routes_lines", 22));
	ck_assert_str_eq(last_msg, "warn 42 x\n");
	UET_INFO(UET_LOG_MR, "info\n");
	ck_assert_uint_eq(nlines, 2);
	ck_assert_int_eq(last_level, UET_LOG_INFO);
	ck_assert_int_eq(last_subsys, UET_LOG_MR);

	/* disabled: nothing written, the arguments not evaluated */
	max_level = UET_LOG_WARN;
	evaluated = 0;
	UET_INFO(UET_LOG_CORE, "%d\n", count_eval());
	ck_assert_uint_eq(nlines, 2);
	ck_assert_int_eq(evaluated, 0);

	/* once per call site */
	warn_once_site();
	warn_once_site();
	ck_assert_uint_eq(nlines, 3);
	ck_assert_str_eq(last_msg, "once 1\n");
	ck_assert_int_eq(last_subsys, UET_LOG_EP_DATA);

	uet_log_set_hook(NULL);
	nenabled = 0;
	ck_assert(!uet_log_enabled(UET_LOG_DEBUG, UET_LOG_CORE) ||
		  getenv("FI_LOG_LEVEL"));
	ck_assert_uint_eq(nenabled, 0);
}
END_TEST

/* The default hook: stderr, at the level of FI_LOG_LEVEL (read once, so
 * each case runs in a child of its own). */
static size_t default_output(const char *level, char *out, size_t len)
{
	char path[] = "/tmp/check_util_log_XXXXXX";
	int fd, status;
	ssize_t n;
	pid_t pid;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (level)
			setenv("FI_LOG_LEVEL", level, 1);
		else
			unsetenv("FI_LOG_LEVEL");
		dup2(fd, STDERR_FILENO);
		uet_log_set_hook(NULL);
		UET_WARN(UET_LOG_CORE, "a warning\n");
		UET_INFO(UET_LOG_EP_DATA, "some info\n");
		fflush(stderr);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	n = pread(fd, out, len - 1, 0);
	close(fd);
	ck_assert_int_ge(n, 0);
	out[n] = '\0';
	return (size_t)n;
}

START_TEST(test_default_stderr)
{
	char out[1024];

	ck_assert_uint_eq(default_output(NULL, out, sizeof(out)), 0);
	default_output("warn", out, sizeof(out));
	ck_assert_msg(strstr(out, "uet:core:") && strstr(out, "<warn> a "
		      "warning\n"), "%s", out);
	ck_assert_msg(!strstr(out, "some info"), "%s", out);
	default_output("info", out, sizeof(out));
	ck_assert_msg(strstr(out, "a warning") &&
		      strstr(out, "uet:ep_data:") &&
		      strstr(out, "<info> some info\n"), "%s", out);
}
END_TEST

static Suite *util_log_suite(void)
{
	Suite *s = suite_create("util_log");
	TCase *tc = tcase_create("hook");

	tcase_add_test(tc, test_hook_routes_lines);
	tcase_add_test(tc, test_default_stderr);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(util_log_suite)
