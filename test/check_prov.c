/* SPDX-License-Identifier: BSD-2-Clause */
/* Provider registration: the structure libfabric receives from us. */
#include "config.h"

#include <string.h>

#include <rdma/fi_errno.h>

#include "uet_prov.h"
#include "uet_test.h"

START_TEST(test_prov_identity)
{
	struct fi_provider *prov = uet_prov_init();

	ck_assert_ptr_eq(prov, &uet_prov);
	ck_assert_str_eq(prov->name, "uet");
	ck_assert_uint_eq(prov->fi_version,
			  FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION));
	ck_assert_uint_eq(FI_MAJOR(prov->version), 0);
	ck_assert_uint_eq(FI_MINOR(prov->version), 1);
	ck_assert_ptr_eq(prov->getinfo, uet_getinfo);
	ck_assert_ptr_eq(prov->fabric, uet_fabric);
	ck_assert_ptr_nonnull(prov->cleanup);
}
END_TEST

START_TEST(test_getinfo_nodata)
{
	struct fi_provider *prov = uet_prov_init();
	struct fi_info *info = (struct fi_info *)0x1;

	ck_assert_int_eq(prov->getinfo(FI_VERSION(1, 17), NULL, NULL, 0,
				       NULL, &info), -FI_ENODATA);
	ck_assert_ptr_null(info);
	ck_assert_int_eq(prov->getinfo(FI_VERSION(1, 17), NULL, NULL, 0,
				       NULL, NULL), -FI_EINVAL);
}
END_TEST

START_TEST(test_fabric_refused)
{
	struct fi_provider *prov = uet_prov_init();
	struct fi_fabric_attr attr;
	struct fid_fabric *fabric = (struct fid_fabric *)0x1;

	memset(&attr, 0, sizeof(attr));
	attr.name = (char *)"uet";
	ck_assert_int_eq(prov->fabric(&attr, &fabric, NULL), -FI_ENODATA);
	ck_assert_ptr_null(fabric);
	ck_assert_int_eq(prov->fabric(NULL, &fabric, NULL), -FI_EINVAL);
	ck_assert_int_eq(prov->fabric(&attr, NULL, NULL), -FI_EINVAL);
	prov->cleanup();
}
END_TEST

static Suite *prov_suite(void)
{
	Suite *s = suite_create("prov");
	TCase *tc = tcase_create("registration");

	tcase_add_test(tc, test_prov_identity);
	tcase_add_test(tc, test_getinfo_nodata);
	tcase_add_test(tc, test_fabric_refused);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(prov_suite)
