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

static Suite *hsi_dev_suite(void)
{
	Suite *s = suite_create("hsi_dev");
	TCase *tc = tcase_create("select");

	tcase_add_test(tc, test_auto_prefers_present_pmr);
	tcase_add_test(tc, test_explicit_kinds);
	tcase_add_test(tc, test_env_device);
	tcase_add_test(tc, test_select_and_probe);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(hsi_dev_suite)
