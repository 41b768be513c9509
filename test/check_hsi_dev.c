/* SPDX-License-Identifier: BSD-2-Clause */
/* HSI device backend selection (FI_UET_DEVICE). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "uet_hsi_dev.h"
#include "uet_snic.h"
#include "uet_test.h"

static bool pmr_is_present;

static bool fake_pmr_present(void)
{
	return pmr_is_present;
}

static const struct uet_hsi_dev_ops fake_snic = { .name = "fake-snic" };
static const struct uet_hsi_dev_ops fake_pmr = {
	.name = "fake-pmr",
	.present = fake_pmr_present,
};

static const struct uet_hsi_dev_ops *const both[] = {
	[UET_HSI_DEV_AUTO] = NULL,
	[UET_HSI_DEV_SNIC] = &fake_snic,
	[UET_HSI_DEV_PMR] = &fake_pmr,
};

static const struct uet_hsi_dev_ops *const snic_only[] = {
	[UET_HSI_DEV_AUTO] = NULL,
	[UET_HSI_DEV_SNIC] = &fake_snic,
	[UET_HSI_DEV_PMR] = NULL,
};

START_TEST(test_auto_prefers_present_pmr)
{
	const struct uet_hsi_dev_ops *ops = NULL;

	pmr_is_present = false;
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, UET_HSI_DEV_AUTO, &ops), 0);
	ck_assert_ptr_eq(ops, &fake_snic);
	pmr_is_present = true;
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, UET_HSI_DEV_AUTO, &ops), 0);
	ck_assert_ptr_eq(ops, &fake_pmr);
	/* A build without a PMR backend falls back to the software NIC. */
	ck_assert_int_eq(uet_hsi_dev_choose(snic_only, 3, UET_HSI_DEV_AUTO,
					    &ops), 0);
	ck_assert_ptr_eq(ops, &fake_snic);
}
END_TEST

START_TEST(test_explicit_kinds)
{
	const struct uet_hsi_dev_ops *ops = NULL;

	pmr_is_present = true;
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, UET_HSI_DEV_SNIC, &ops), 0);
	ck_assert_ptr_eq(ops, &fake_snic);
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, UET_HSI_DEV_PMR, &ops), 0);
	ck_assert_ptr_eq(ops, &fake_pmr);
	pmr_is_present = false;
	ops = NULL;
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, UET_HSI_DEV_PMR, &ops),
			 -ENODEV);
	ck_assert_ptr_null(ops);
	ck_assert_int_eq(uet_hsi_dev_choose(snic_only, 3, UET_HSI_DEV_PMR,
					    &ops), -ENODEV);
	ck_assert_int_eq(uet_hsi_dev_choose(snic_only, 2, UET_HSI_DEV_SNIC,
					    &ops), 0);
	ck_assert_int_eq(uet_hsi_dev_choose(snic_only, 1, UET_HSI_DEV_SNIC,
					    &ops), -ENODEV);
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, 7, &ops), -EINVAL);
	ck_assert_int_eq(uet_hsi_dev_choose(NULL, 3, 0, &ops), -EINVAL);
	ck_assert_int_eq(uet_hsi_dev_choose(both, 3, 0, NULL), -EINVAL);
}
END_TEST

START_TEST(test_env_device)
{
	setenv("FI_UET_DEVICE", "snic", 1);
	ck_assert_int_eq(uet_env_get_enum(&uet_hsi_env_device),
			 UET_HSI_DEV_SNIC);
	setenv("FI_UET_DEVICE", "PMR", 1);
	ck_assert_int_eq(uet_env_get_enum(&uet_hsi_env_device),
			 UET_HSI_DEV_PMR);
	/* An invalid value falls back to the default, auto. */
	setenv("FI_UET_DEVICE", "gpu", 1);
	ck_assert_int_eq(uet_env_get_enum(&uet_hsi_env_device),
			 UET_HSI_DEV_AUTO);
	unsetenv("FI_UET_DEVICE");
	ck_assert_int_eq(uet_env_get_enum(&uet_hsi_env_device),
			 UET_HSI_DEV_AUTO);
}
END_TEST

START_TEST(test_select_and_probe)
{
	const struct uet_hsi_dev_ops *ops = NULL;
	char names[64] = "x";
	int n = uet_hsi_dev_probe_pmr(names, sizeof(names));

	/* No PMR hardware exists: nothing found, buffer emptied. */
	ck_assert_int_eq(n, 0);
	ck_assert_str_eq(names, "");
	/* The HSI knows no backend until one registers itself. */
	uet_hsi_dev_unregister_all();
	ck_assert_int_eq(uet_hsi_dev_select(&ops), -ENODEV);
	ck_assert_int_eq(uet_hsi_dev_selected(&ops), -ENODEV);
	ck_assert_int_eq(uet_snic_backend_register(), 0);
	ck_assert_int_eq(uet_snic_backend_register(), 0);
	ck_assert_int_eq(uet_hsi_dev_selected(&ops), 0);
	ck_assert_ptr_eq(ops, &uet_snic_dev_ops);
	ops = NULL;
	/* Asking for PMR hardware fails cleanly. */
	setenv("FI_UET_DEVICE", "pmr", 1);
	ck_assert_int_eq(uet_hsi_dev_select(&ops), -ENODEV);
	ck_assert_ptr_null(ops);
	/* The software NIC is the default and can be asked for. */
	unsetenv("FI_UET_DEVICE");
	ck_assert_int_eq(uet_hsi_dev_select(&ops), 0);
	ck_assert_ptr_eq(ops, &uet_snic_dev_ops);
	ck_assert_str_eq(ops->name, "snic");
	ck_assert(ops->present());
	ops = NULL;
	setenv("FI_UET_DEVICE", "snic", 1);
	ck_assert_int_eq(uet_hsi_dev_select(&ops), 0);
	ck_assert_ptr_eq(ops, &uet_snic_dev_ops);
	unsetenv("FI_UET_DEVICE");
}
END_TEST

/* Backends register themselves; one per kind. */
START_TEST(test_register)
{
	const struct uet_hsi_dev_ops *ops = NULL;

	uet_hsi_dev_unregister_all();
	ck_assert_ptr_null(uet_hsi_dev_backend(UET_HSI_DEV_SNIC));
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_SNIC, NULL), -EINVAL);
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_AUTO, &fake_snic),
			 -EINVAL);
	ck_assert_int_eq(uet_hsi_dev_register(7, &fake_snic), -EINVAL);
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_SNIC, &fake_snic), 0);
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_SNIC, &fake_snic), 0);
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_SNIC, &fake_pmr),
			 -EEXIST);
	ck_assert_ptr_eq(uet_hsi_dev_backend(UET_HSI_DEV_SNIC), &fake_snic);
	ck_assert_ptr_null(uet_hsi_dev_backend(UET_HSI_DEV_PMR));
	ck_assert_ptr_null(uet_hsi_dev_backend(-1));
	/* a present PMR backend wins under auto */
	pmr_is_present = true;
	ck_assert_int_eq(uet_hsi_dev_register(UET_HSI_DEV_PMR, &fake_pmr), 0);
	unsetenv("FI_UET_DEVICE");
	ck_assert_int_eq(uet_hsi_dev_selected(&ops), 0);
	ck_assert_ptr_eq(ops, &fake_pmr);
	pmr_is_present = false;
	ck_assert_int_eq(uet_hsi_dev_selected(&ops), 0);
	ck_assert_ptr_eq(ops, &fake_snic);
	uet_hsi_dev_unregister_all();
	ck_assert_ptr_null(uet_hsi_dev_backend(UET_HSI_DEV_SNIC));
}
END_TEST

/* The software NIC fills the HSI's view of its counters and names its
 * own variables and datagram overhead through the ops table. */
START_TEST(test_snic_backend_ops)
{
	const struct uet_env_var *const *vars = NULL;
	size_t n = 0;

	ck_assert_ptr_eq(uet_snic_dev_ops.query_counters,
			 uet_snic_query_counters);
	ck_assert_ptr_nonnull(uet_snic_dev_ops.env_vars);
	uet_snic_dev_ops.env_vars(&vars, &n);
	ck_assert_ptr_eq(vars, uet_snic_env_vars);
	ck_assert_uint_eq(n, uet_snic_env_nvars);
	unsetenv("FI_UET_TSS");
	ck_assert_uint_eq(uet_snic_dev_ops.dgram_overhead(), 0);
	setenv("FI_UET_TSS", "on", 1);
	ck_assert_uint_eq(uet_snic_dev_ops.dgram_overhead(), 34);
	unsetenv("FI_UET_TSS");
	ck_assert_int_eq(uet_snic_query_counters(NULL, NULL), -EINVAL);
}
END_TEST

/* HSI status codes: numbers fixed by the contract, errno both ways. */
START_TEST(test_status_codes)
{
	static const struct { int err; uint16_t st; } map[] = {
		{ 0, UET_HSI_ST_OK }, { -EOVERFLOW, UET_HSI_ST_TRUNCATED },
		{ -ECANCELED, UET_HSI_ST_CANCELED },
		{ -ENOMSG, UET_HSI_ST_NO_MSG },
		{ -ETIMEDOUT, UET_HSI_ST_TIMED_OUT },
		{ -EINVAL, UET_HSI_ST_INVALID },
		{ -EOPNOTSUPP, UET_HSI_ST_NOT_SUPPORTED },
		{ -EMSGSIZE, UET_HSI_ST_TOO_LONG },
		{ -EACCES, UET_HSI_ST_ACCESS },
		{ -EADDRNOTAVAIL, UET_HSI_ST_NO_ADDR },
		{ -ENOMEM, UET_HSI_ST_NO_MEM }, { -EIO, UET_HSI_ST_IO },
		{ -EHOSTUNREACH, UET_HSI_ST_HOST_UNREACHABLE },
		{ -ENETUNREACH, UET_HSI_ST_NET_UNREACHABLE },
		{ -ENOSPC, UET_HSI_ST_NO_SPACE },
		{ -ENOBUFS, UET_HSI_ST_NO_BUFS }, { -ENXIO, UET_HSI_ST_NO_PEER },
		{ -EPERM, UET_HSI_ST_PERMISSION }, { -ERANGE, UET_HSI_ST_RANGE },
		{ -EBADMSG, UET_HSI_ST_BAD_MSG }, { -EBUSY, UET_HSI_ST_BUSY },
		{ -EALREADY, UET_HSI_ST_ALREADY },
		{ -ECONNRESET, UET_HSI_ST_CONN_RESET },
		{ -ECONNREFUSED, UET_HSI_ST_CONN_REFUSED },
		{ -EAGAIN, UET_HSI_ST_AGAIN }, { -EFAULT, UET_HSI_ST_FAULT },
		{ -EPROTO, UET_HSI_ST_PROTOCOL },
		{ -ENOTCONN, UET_HSI_ST_NOT_CONNECTED },
		{ -ENOENT, UET_HSI_ST_NOT_FOUND },
	};
	size_t i;

	ck_assert_uint_eq(UET_HSI_ST_TRUNCATED, 1);
	ck_assert_uint_eq(UET_HSI_ST_NOT_FOUND, 19);
	ck_assert_uint_eq(UET_HSI_ST_OTHER, 255);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		ck_assert_uint_eq(uet_hsi_status_from_errno(map[i].err),
				  map[i].st);
		ck_assert_int_eq(uet_hsi_status_to_errno(map[i].st),
				 -map[i].err);
		ck_assert_str_ne(uet_hsi_status_str(map[i].st), "unknown");
	}
	ck_assert_uint_eq(UET_HSI_ST_ALREADY, 28);
	ck_assert_uint_eq(uet_hsi_status_from_errno(-EDOM), UET_HSI_ST_OTHER);
	ck_assert_uint_eq(uet_hsi_status_from_errno(5), UET_HSI_ST_OK);
	ck_assert_int_eq(uet_hsi_status_to_errno(UET_HSI_ST_OTHER), EIO);
	ck_assert_int_eq(uet_hsi_status_to_errno(200), EIO);
	ck_assert_str_eq(uet_hsi_status_str(200), "unknown");
	ck_assert_str_eq(uet_hsi_status_str(UET_HSI_ST_OTHER), "other");
}
END_TEST

static Suite *hsi_dev_suite(void)
{
	Suite *s = suite_create("hsi_dev");
	TCase *tc = tcase_create("select");

	tcase_add_test(tc, test_auto_prefers_present_pmr);
	tcase_add_test(tc, test_explicit_kinds);
	tcase_add_test(tc, test_env_device);
	tcase_add_test(tc, test_select_and_probe);
	tcase_add_test(tc, test_register);
	tcase_add_test(tc, test_snic_backend_ops);
	tcase_add_test(tc, test_status_codes);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(hsi_dev_suite)
