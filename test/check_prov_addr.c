/* SPDX-License-Identifier: BSD-2-Clause */
/* Endpoint addresses: raw form, pid/ri encoding, text, resolution. */
#include "config.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <rdma/fi_uet_ext.h>

#include "uet_addr.h"
#include "uet_test.h"

static struct uet_addr addr4(const char *ip, uint16_t port, uint16_t pid,
			     uint16_t ri)
{
	struct uet_addr a;

	memset(&a, 0, sizeof(a));
	a.u.sin.sin_family = AF_INET;
	a.u.sin.sin_port = htons(port);
	ck_assert_int_eq(inet_pton(AF_INET, ip, &a.u.sin.sin_addr), 1);
	a.len = sizeof(a.u.sin);
	a.pid = pid;
	a.ri = ri;
	return a;
}

static struct uet_addr addr6(const char *ip, uint16_t port, uint32_t scope,
			     uint16_t pid, uint16_t ri)
{
	struct uet_addr a;

	memset(&a, 0, sizeof(a));
	a.u.sin6.sin6_family = AF_INET6;
	a.u.sin6.sin6_port = htons(port);
	a.u.sin6.sin6_scope_id = scope;
	ck_assert_int_eq(inet_pton(AF_INET6, ip, &a.u.sin6.sin6_addr), 1);
	a.len = sizeof(a.u.sin6);
	a.pid = pid;
	a.ri = ri;
	return a;
}

START_TEST(test_addr_ipv4_bytes)
{
	struct uet_addr a = addr4("10.1.2.3", 4793, 0xabc, 0x123), b;
	uint8_t raw[sizeof(struct sockaddr_in)];
	struct sockaddr_in sin;
	const uint8_t *z;

	ck_assert_uint_eq(uet_addr_to_raw(&a, NULL, 0), sizeof(raw));
	ck_assert_uint_eq(uet_addr_to_raw(&a, raw, sizeof(raw) - 1),
			  sizeof(raw));
	ck_assert_uint_eq(uet_addr_to_raw(&a, raw, sizeof(raw)), sizeof(raw));
	memcpy(&sin, raw, sizeof(sin));
	ck_assert_int_eq(sin.sin_family, AF_INET);
	ck_assert_uint_eq(ntohs(sin.sin_port), 4793);
	ck_assert_uint_eq(ntohl(sin.sin_addr.s_addr), 0x0a010203);
	z = (const uint8_t *)sin.sin_zero;
	ck_assert_uint_eq(z[0], 0x0a);
	ck_assert_uint_eq(z[1], 0xbc);
	ck_assert_uint_eq(z[2], 0x01);
	ck_assert_uint_eq(z[3], 0x23);
	ck_assert_uint_eq(z[4] | z[5] | z[6] | z[7], 0);

	ck_assert_int_eq(uet_addr_from_raw(&b, raw, sizeof(raw)), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_uint_eq(b.pid, 0xabc);
	ck_assert_uint_eq(b.ri, 0x123);
	/* the sockaddr inside is plain */
	z = (const uint8_t *)b.u.sin.sin_zero;
	ck_assert_uint_eq(z[0] | z[1] | z[2] | z[3], 0);
	ck_assert_uint_eq(uet_addr_fi_format(&b), FI_SOCKADDR_IN);
}
END_TEST

START_TEST(test_addr_ipv6_bytes)
{
	struct uet_addr a = addr6("fe80::1", 17, 3, 0xfff, 0x001), b;
	uint8_t raw[sizeof(struct sockaddr_in6)];
	struct sockaddr_in6 sin6;

	ck_assert_uint_eq(uet_addr_to_raw(&a, raw, sizeof(raw)), sizeof(raw));
	memcpy(&sin6, raw, sizeof(sin6));
	ck_assert_uint_eq(ntohl(sin6.sin6_flowinfo), 0xfff001);
	ck_assert_uint_eq(sin6.sin6_scope_id, 3);
	ck_assert_int_eq(uet_addr_from_raw(&b, raw, sizeof(raw)), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_uint_eq(b.u.sin6.sin6_flowinfo, 0);
	ck_assert_uint_eq(b.pid, 0xfff);
	ck_assert_uint_eq(b.ri, 1);
	ck_assert_uint_eq(b.u.sin6.sin6_scope_id, 3);
	ck_assert_uint_eq(uet_addr_fi_format(&b), FI_SOCKADDR_IN6);
}
END_TEST

/* A sockaddr an application builds itself addresses pid 0, ri 0. */
START_TEST(test_addr_plain_sockaddr)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	struct uet_addr a;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(99);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)), 0);
	ck_assert_uint_eq(a.pid, 0);
	ck_assert_uint_eq(a.ri, 0);
	ck_assert_uint_eq(uet_addr_port(&a), 99);
	ck_assert(uet_addr_is_loopback(&a));

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr = in6addr_loopback;
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin6, sizeof(sin6)), 0);
	ck_assert_uint_eq(a.pid, 0);
	ck_assert_uint_eq(a.ri, 0);
	ck_assert(uet_addr_is_loopback(&a));
	/* a longer buffer (sockaddr_storage) is fine */
	{
		struct sockaddr_storage ss;

		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, &sin6, sizeof(sin6));
		ck_assert_int_eq(uet_addr_from_raw(&a, &ss, sizeof(ss)), 0);
	}
}
END_TEST

/* Every pid and ri survives both encodings. */
START_TEST(test_addr_ids_roundtrip)
{
	uint8_t raw[UET_ADDR_RAW_MAX];
	struct uet_addr a, b;
	unsigned int i;

	for (i = 0; i < 2000; i++) {
		uint16_t pid = (uint16_t)uet_test_rand_bits(12);
		uint16_t ri = (uint16_t)uet_test_rand_bits(12);

		a = (i & 1) ? addr6("2001:db8::7", 4793, 0, pid, ri) :
			      addr4("192.0.2.9", 4793, pid, ri);
		ck_assert_uint_eq(uet_addr_to_raw(&a, raw, sizeof(raw)),
				  a.len);
		ck_assert_int_eq(uet_addr_from_raw(&b, raw, a.len), 0);
		ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
		ck_assert_uint_eq(b.pid, pid);
		ck_assert_uint_eq(b.ri, ri);
	}
}
END_TEST

START_TEST(test_addr_malformed)
{
	struct uet_addr a = addr4("127.0.0.1", 1, 0, 0), keep;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	uint8_t *z;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	keep = a;

	ck_assert_int_eq(uet_addr_from_raw(&a, NULL, sizeof(sin)),
			 -FI_EINVAL);
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin) - 1),
			 -FI_EINVAL);
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin6, sizeof(sin6) - 1),
			 -FI_EINVAL);
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, 1), -FI_EINVAL);
	sin.sin_family = AF_UNIX;
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)),
			 -FI_EINVAL);
	sin.sin_family = AF_INET;
	z = (uint8_t *)sin.sin_zero;
	z[7] = 1;			/* reserved byte */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)),
			 -FI_EINVAL);
	z[7] = 0;
	z[0] = 0x10;			/* pid 0x1000: 13 bits */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)),
			 -FI_EINVAL);
	z[0] = 0;
	z[2] = 0x10;			/* ri 0x1000 */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)),
			 -FI_EINVAL);
	sin6.sin6_flowinfo = htonl(0x10000000);	/* reserved bit 28 */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin6, sizeof(sin6)),
			 -FI_EINVAL);
	sin6.sin6_flowinfo = htonl(0x03000000);	/* wire profile 3 */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin6, sizeof(sin6)),
			 -FI_EINVAL);
	z[2] = 0;
	z[4] = 3;				/* wire profile 3 */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)),
			 -FI_EINVAL);
	/* nothing was written on failure */
	ck_assert_int_eq(uet_addr_cmp(&a, &keep), 0);
	z[4] = FI_UET_WIRE_UE;			/* profiles 0-2 are taken */
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin, sizeof(sin)), 0);
	ck_assert_uint_eq(a.wire, FI_UET_WIRE_UE);
	z[4] = 0;
	sin6.sin6_flowinfo = htonl(0x00ffffff);
	ck_assert_int_eq(uet_addr_from_raw(&a, &sin6, sizeof(sin6)), 0);
}
END_TEST

START_TEST(test_addr_str)
{
	struct uet_addr a = addr4("127.0.0.1", 4793, 0, 0);
	struct uet_addr b = addr6("::1", 4793, 0, 1, 0);
	struct uet_addr c = addr6("fe80::2", 7, 2, 4095, 4095);
	char buf[UET_ADDR_STR_MAX];
	size_t len;

	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&a, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://127.0.0.1:4793/0/0");
	ck_assert_uint_eq(len, strlen(buf) + 1);
	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&b, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://[::1]:4793/1/0");
	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&c, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://[fe80::2%2]:7/4095/4095");

	/* truncation: NUL-terminated prefix, needed size returned */
	len = 8;
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(uet_addr_str(&a, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://1");
	ck_assert_uint_eq(len, strlen("uet://127.0.0.1:4793/0/0") + 1);
	len = 0;
	ck_assert_int_eq(uet_addr_str(&a, NULL, &len), 0);
	ck_assert_uint_eq(len, strlen("uet://127.0.0.1:4793/0/0") + 1);
	ck_assert_int_eq(uet_addr_str(&a, buf, NULL), -FI_EINVAL);
}
END_TEST

/* FI_ADDR_STR text read back: uet's own form (ids optional) and
 * libfabric's sockaddr forms; every truncated prefix and malformed
 * text refused. */
START_TEST(test_addr_from_text)
{
	static const char *bad[] = {
		"", "uet://", "uet://127.0.0.1", "uet://127.0.0.1:",
		"uet://127.0.0.1:65536", "uet://127.0.0.1:1/4096/0",
		"uet://127.0.0.1:1/1", "uet://127.0.0.1:1/1/", "uet://[::1:1",
		"uet://[::1]", "uet://[::1]x1", "uet://1.2.3:1", "uet://::1:1",
		"fi_sockaddr_in://[::1]:1", "fi_sockaddr_in6://1.2.3.4:1",
		"fi_sockaddr_in://1.2.3.4:1/0/0", "tcp://1.2.3.4:1",
		"uet://[fe80::1%]:1", "uet://127.0.0.1:1 ",
	};
	struct uet_addr a = addr4("127.0.0.1", 4793, 5, 6), b;
	struct uet_addr c = addr6("fe80::2", 7, 2, 4095, 4095);
	char buf[UET_ADDR_STR_MAX];
	size_t len, i, n;
	void *text;

	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&a, buf, &len), 0);
	ck_assert_int_eq(uet_addr_from_text(&b, buf, len), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_uint_eq(b.pid, 5);
	ck_assert_uint_eq(b.ri, 6);
	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&c, buf, &len), 0);
	ck_assert_int_eq(uet_addr_from_text(&b, buf, len), 0);
	ck_assert_int_eq(uet_addr_cmp(&c, &b), 0);
	/* every prefix of a valid text (NUL cut short) is refused */
	for (n = 0; n + 1 < len; n++)
		ck_assert_int_eq(uet_addr_from_text(&b, buf, n), -FI_EINVAL);
	/* libfabric's forms, ids 0 */
	ck_assert_int_eq(uet_addr_from_text(&b, "fi_sockaddr_in://10.1.2.3:9",
					    28), 0);
	a = addr4("10.1.2.3", 9, 0, 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_int_eq(uet_addr_from_text(&b, "fi_sockaddr_in6://[::1]:0",
					    26), 0);
	c = addr6("::1", 0, 0, 0, 0);
	ck_assert_int_eq(uet_addr_cmp(&c, &b), 0);
	ck_assert_int_eq(uet_addr_from_text(&b, "uet://10.1.2.3:9", 17), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uet_addr_from_text(&b, bad[i],
						 strlen(bad[i]) + 1) ==
			      -FI_EINVAL, "accepted '%s'", bad[i]);
	ck_assert_int_eq(uet_addr_from_text(NULL, "uet://1.2.3.4:1", 16),
			 -FI_EINVAL);
	/* an info's address by its format */
	a = addr4("127.0.0.1", 4793, 1, 2);
	ck_assert_int_eq(uet_addr_to_text(&a, &text, &len), 0);
	ck_assert_str_eq(text, "uet://127.0.0.1:4793/1/2");
	ck_assert_uint_eq(len, strlen(text) + 1);
	ck_assert_int_eq(uet_addr_from_info(&b, FI_ADDR_STR, text, len), 0);
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	ck_assert_int_eq(uet_addr_from_info(&b, FI_SOCKADDR_IN, text, len),
			 -FI_EINVAL);
	free(text);
}
END_TEST

/* The scope of a link-local text address: an interface name or a
 * decimal index that fits 32 bits, nothing after it (issue 30, 11). */
START_TEST(test_addr_text_scope)
{
	static const char *bad[] = {
		"uet://[fe80::1%4294967297]:1", "uet://[fe80::1%4294967296]:1",
		"uet://[fe80::1%99999999999999999999999]:1",
		"uet://[fe80::1%7junk]:1", "uet://[fe80::1%7 ]:1",
		"uet://[fe80::1% 7]:1", "uet://[fe80::1%+7]:1",
		"uet://[fe80::1%-1]:1", "uet://[fe80::1%0x7]:1",
		"uet://[fe80::1%0]:1", "uet://[fe80::1%lo7x]:1",
		"fi_sockaddr_in6://[fe80::1%18446744073709551623]:1",
	};
	struct uet_addr b;
	unsigned int lo = if_nametoindex("lo");
	size_t i;

	ck_assert_int_eq(uet_addr_from_text(&b, "uet://[fe80::1%7]:1", 20), 0);
	ck_assert_uint_eq(b.u.sin6.sin6_scope_id, 7);
	ck_assert_int_eq(uet_addr_from_text(&b, "uet://[fe80::1%4294967295]:1",
					    29), 0);
	ck_assert_uint_eq(b.u.sin6.sin6_scope_id, 4294967295u);
	if (lo) {
		ck_assert_int_eq(uet_addr_from_text(&b, "uet://[fe80::1%lo]:1",
						    21), 0);
		ck_assert_uint_eq(b.u.sin6.sin6_scope_id, lo);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uet_addr_from_text(&b, bad[i],
						 strlen(bad[i]) + 1) ==
			      -FI_EINVAL, "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(test_addr_resolve)
{
	struct uet_addr a;

	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", "4793", AF_UNSPEC,
					  true, &a), 0);
	ck_assert_int_eq(a.u.sa.sa_family, AF_INET);
	ck_assert_uint_eq(uet_addr_port(&a), 4793);
	ck_assert_uint_eq(a.len, sizeof(struct sockaddr_in));
	ck_assert_uint_eq(a.pid | a.ri, 0);
	ck_assert(uet_addr_is_loopback(&a));

	ck_assert_int_eq(uet_addr_resolve("::1", NULL, AF_INET6, true, &a), 0);
	ck_assert_int_eq(a.u.sa.sa_family, AF_INET6);
	ck_assert_uint_eq(uet_addr_port(&a), 0);
	ck_assert_uint_eq(uet_addr_fi_format(&a), FI_SOCKADDR_IN6);

	/* service only: the wildcard address */
	ck_assert_int_eq(uet_addr_resolve(NULL, "77", AF_INET, true, &a), 0);
	ck_assert_uint_eq(uet_addr_port(&a), 77);
	ck_assert_uint_eq(a.u.sin.sin_addr.s_addr, htonl(INADDR_ANY));

	ck_assert_int_eq(uet_addr_resolve("::1", NULL, AF_INET, true, &a),
			 -FI_ENODATA);
	ck_assert_int_eq(uet_addr_resolve("not-an-ip", NULL, AF_UNSPEC, true,
					  &a), -FI_ENODATA);
	ck_assert_int_eq(uet_addr_resolve(NULL, NULL, AF_UNSPEC, true, &a),
			 -FI_EINVAL);
	ck_assert_int_eq(uet_addr_resolve("127.0.0.1", NULL, AF_UNIX, true,
					  &a), -FI_EINVAL);
}
END_TEST

START_TEST(test_addr_cmp)
{
	struct uet_addr a = addr4("10.0.0.1", 5, 1, 2), b;

	b = a;
	ck_assert_int_eq(uet_addr_cmp(&a, &b), 0);
	b.pid = 3;
	ck_assert_int_ne(uet_addr_cmp(&a, &b), 0);
	ck_assert_int_eq(uet_addr_cmp_ip(&a, &b), 0);
	b = a;
	b.ri = 1;
	ck_assert_int_gt(uet_addr_cmp(&a, &b), 0);
	ck_assert_int_lt(uet_addr_cmp(&b, &a), 0);
	b = a;
	uet_addr_set_port(&b, 6);
	ck_assert_int_ne(uet_addr_cmp(&a, &b), 0);
	b = addr4("10.0.0.2", 5, 1, 2);
	ck_assert_int_ne(uet_addr_cmp_ip(&a, &b), 0);
	b = addr6("::ffff:10.0.0.1", 5, 0, 1, 2);
	ck_assert_int_ne(uet_addr_cmp(&a, &b), 0);
	a = addr6("fe80::1", 5, 1, 0, 0);
	b = addr6("fe80::1", 5, 2, 0, 0);
	ck_assert_int_ne(uet_addr_cmp(&a, &b), 0);
}
END_TEST

/* fi_av_insertsym: consecutive IPs and ports, overflow refused. */
START_TEST(test_addr_insertsym)
{
	struct uet_addr a = addr4("10.0.0.254", 4793, 7, 8), keep;
	struct uet_addr b = addr6("2001:db8::ffff:ffff", 1, 0, 0, 0);
	char buf[UET_ADDR_STR_MAX];
	size_t len = sizeof(buf);

	ck_assert_int_eq(uet_addr_add(&a, 3, 2), 0);
	ck_assert_int_eq(uet_addr_str(&a, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://10.0.1.1:4795/7/8");
	ck_assert_int_eq(uet_addr_add(&a, 0, 0), 0);

	ck_assert_int_eq(uet_addr_add(&b, 1, 0), 0);
	len = sizeof(buf);
	ck_assert_int_eq(uet_addr_str(&b, buf, &len), 0);
	ck_assert_str_eq(buf, "uet://[2001:db8::1:0:0]:1/0/0");

	a = addr4("255.255.255.255", 65535, 0, 0);
	keep = a;
	ck_assert_int_eq(uet_addr_add(&a, 1, 0), -FI_EINVAL);
	ck_assert_int_eq(uet_addr_add(&a, 0, 1), -FI_EINVAL);
	ck_assert_int_eq(uet_addr_cmp(&a, &keep), 0);
	a = addr4("0.0.0.1", 0, 0, 0);
	ck_assert_int_eq(uet_addr_add(&a, 0xfffffffe, 65535), 0);
	ck_assert_uint_eq(ntohl(a.u.sin.sin_addr.s_addr), 0xffffffff);
	ck_assert_uint_eq(uet_addr_port(&a), 65535);
}
END_TEST

static Suite *addr_suite(void)
{
	Suite *s = suite_create("prov_addr");
	TCase *tc = tcase_create("addr");

	tcase_add_test(tc, test_addr_ipv4_bytes);
	tcase_add_test(tc, test_addr_ipv6_bytes);
	tcase_add_test(tc, test_addr_plain_sockaddr);
	tcase_add_test(tc, test_addr_ids_roundtrip);
	tcase_add_test(tc, test_addr_malformed);
	tcase_add_test(tc, test_addr_str);
	tcase_add_test(tc, test_addr_from_text);
	tcase_add_test(tc, test_addr_text_scope);
	tcase_add_test(tc, test_addr_resolve);
	tcase_add_test(tc, test_addr_cmp);
	tcase_add_test(tc, test_addr_insertsym);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(addr_suite)
