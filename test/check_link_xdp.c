/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_link_xdp: the frame headers (build, parse, checksums), the
 * rtnetlink next-hop lookup, and the refusals of uet_link_xdp_open that
 * make the software NIC keep its UDP link.  Nothing here needs XDP or
 * sends a packet: the AF_XDP data path is tested between two network
 * namespaces by test/xdp-netns.sh.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "uet_byteorder.h"
#include "uet_link_xdp.h"
#include "uet_link_xdp_internal.h"
#include "uet_test.h"

/* RFC 1071 section 3's example: the sum is ddf2, the checksum 220d. */
START_TEST(test_csum_rfc1071)
{
	const uint8_t b[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	const uint8_t odd[] = { 0x01, 0x02, 0x03 };

	ck_assert_uint_eq(uet_xdp_csum_fold(uet_xdp_csum_add(0, b, 8)),
			  0x220d);
	/* an odd byte is the high half of a last word: 0102 + 0300 */
	ck_assert_uint_eq(uet_xdp_csum_fold(uet_xdp_csum_add(0, odd, 3)),
			  (uint16_t)~0x0402);
	/* split sums add up when the split is even */
	ck_assert_uint_eq(uet_xdp_csum_fold(uet_xdp_csum_add(
				  uet_xdp_csum_add(0, b, 4), b + 4, 4)),
			  0x220d);
}
END_TEST

static void hdr_v4(struct uet_xdp_hdr *h)
{
	const uint8_t smac[6] = { 0x02, 0, 0, 0, 0, 1 };
	const uint8_t dmac[6] = { 0x02, 0, 0, 0, 0, 2 };
	const uint8_t sip[4] = { 192, 168, 0, 1 }, dip[4] = { 192, 168, 0, 199 };

	memset(h, 0, sizeof(*h));
	h->family = AF_INET;
	memcpy(h->src_mac, smac, 6);
	memcpy(h->dst_mac, dmac, 6);
	memcpy(h->src_ip, sip, 4);
	memcpy(h->dst_ip, dip, 4);
	h->sport = 4793;
	h->dport = 4794;
}

static void hdr_v6(struct uet_xdp_hdr *h)
{
	hdr_v4(h);
	h->family = AF_INET6;
	inet_pton(AF_INET6, "fd00:251:9::1", h->src_ip);
	inet_pton(AF_INET6, "fd00:251:9::2", h->dst_ip);
	h->tos = 0x02;
}

/* A known IPv4 header (the well-known example with checksum b861):
 * 4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7. */
START_TEST(test_ipv4_known_header)
{
	const uint8_t want[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
				   0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8,
				   0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	uint8_t f[256];
	struct uet_xdp_hdr h;

	hdr_v4(&h);
	memset(f, 0, sizeof(f));
	ck_assert_uint_eq(uet_xdp_hdr_build(f, &h, 0x73 - 28, 0),
			  14 + 0x73);
	ck_assert_mem_eq(f + 14, want, 20);
	ck_assert_uint_eq(uet_get_be16(f + 12), 0x0800);
	ck_assert_mem_eq(f, h.dst_mac, 6);
	ck_assert_mem_eq(f + 6, h.src_mac, 6);
}
END_TEST

/* Build, parse back, and every single-byte change of a covered byte
 * makes the parse fail. */
static void round_trip(const struct uet_xdp_hdr *h, size_t plen)
{
	size_t hl = uet_xdp_hdr_len(h->family), flen, off, pl, i;
	uint8_t f[2048], g[2048];
	struct uet_xdp_hdr p;

	for (i = 0; i < plen; i++)
		f[hl + i] = uet_test_pattern(7, i);
	flen = uet_xdp_hdr_build(f, h, plen, 0x1234);
	ck_assert_uint_eq(flen, hl + plen);
	ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h->family, true, &p, &off,
					   &pl), 0);
	ck_assert_uint_eq(off, hl);
	ck_assert_uint_eq(pl, plen);
	ck_assert_uint_eq(p.sport, h->sport);
	ck_assert_uint_eq(p.dport, h->dport);
	ck_assert_uint_eq(p.tos, h->tos);
	ck_assert_mem_eq(p.src_ip, h->src_ip, 16);
	ck_assert_mem_eq(p.dst_ip, h->dst_ip, 16);
	ck_assert_mem_eq(p.src_mac, h->src_mac, 6);
	/* Ethernet padding after the datagram is no error */
	memset(f + flen, 0, 16);
	ck_assert_int_eq(uet_xdp_hdr_parse(f, flen + 16, h->family, true, &p,
					   &off, &pl), 0);
	ck_assert_uint_eq(pl, plen);
	/* every truncation fails */
	for (i = 0; i < flen; i++)
		ck_assert_int_eq(uet_xdp_hdr_parse(f, i, h->family, true, &p,
						   &off, &pl), -EBADMSG);
	/* a changed byte of the IP and UDP headers or the payload fails;
	 * IPv6's traffic class, flow label and hop limit are covered by
	 * no checksum */
	for (i = 12; i < flen; i++) {
		if (h->family == AF_INET6 &&
		    ((i >= 15 && i <= 17) || i == 21))
			continue;
		memcpy(g, f, flen);
		g[i] ^= 0x5a;
		ck_assert_msg(uet_xdp_hdr_parse(g, flen, h->family, true, &p,
						&off, &pl) == -EBADMSG,
			      "byte %zu changed, frame still accepted", i);
	}
	/* the other family's parser refuses it */
	ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h->family == AF_INET ?
					   AF_INET6 : AF_INET, true, &p, &off,
					   &pl), -EBADMSG);
}

START_TEST(test_round_trip)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 63, 64, 1000, 1472 };
	struct uet_xdp_hdr h;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		hdr_v4(&h);
		h.tos = 0x03;
		round_trip(&h, sizes[i]);
		hdr_v6(&h);
		round_trip(&h, sizes[i]);
	}
}
END_TEST

/* A checksum left to the device (the pseudo-header's sum) is taken,
 * any other wrong one is not; a zero IPv4 checksum means none. */
START_TEST(test_partial_checksum)
{
	uint8_t f[256], t[8];
	struct uet_xdp_hdr h, p;
	size_t flen, off, pl;
	uint64_t ps;
	int fam;

	for (fam = 0; fam < 2; fam++) {
		size_t alen = fam ? 16 : 4, hl;
		uint8_t *udp;

		if (fam)
			hdr_v6(&h);
		else
			hdr_v4(&h);
		hl = uet_xdp_hdr_len(h.family);
		memset(f, 0xab, sizeof(f));
		flen = uet_xdp_hdr_build(f, &h, 100, 1);
		udp = f + hl - 8;
		uet_put_be32(t, 108);
		uet_put_be32(t + 4, 17);
		ps = uet_xdp_csum_add(uet_xdp_csum_add(uet_xdp_csum_add(0,
				h.src_ip, alen), h.dst_ip, alen), t, 8);
		uet_put_be16(udp + 6, (uint16_t)~uet_xdp_csum_fold(ps));
		ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h.family, true,
						   &p, &off, &pl), 0);
		uet_put_be16(udp + 6, (uint16_t)~uet_xdp_csum_fold(ps) ^ 1);
		ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h.family, true,
						   &p, &off, &pl), -EBADMSG);
		/* not asked to check: taken */
		ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h.family, false,
						   &p, &off, &pl), 0);
		uet_put_be16(udp + 6, 0);
		ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, h.family, true,
						   &p, &off, &pl), 0);
	}
}
END_TEST

/* IPv4 fragments and options. */
START_TEST(test_ipv4_fragment_options)
{
	uint8_t f[256], *ip = f + 14;
	struct uet_xdp_hdr h, p;
	size_t flen, off, pl;

	hdr_v4(&h);
	flen = uet_xdp_hdr_build(f, &h, 40, 9);
	/* MF set, header checksum made right again: still refused */
	uet_put_be16(ip + 6, 0x2000);
	uet_put_be16(ip + 10, 0);
	uet_put_be16(ip + 10, uet_xdp_csum_fold(uet_xdp_csum_add(0, ip, 20)));
	ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, AF_INET, false, &p, &off,
					   &pl), -EBADMSG);
	/* IHL below 5 */
	flen = uet_xdp_hdr_build(f, &h, 40, 9);
	ip[0] = 0x44;
	uet_put_be16(ip + 10, 0);
	uet_put_be16(ip + 10, uet_xdp_csum_fold(uet_xdp_csum_add(0, ip, 16)));
	ck_assert_int_eq(uet_xdp_hdr_parse(f, flen, AF_INET, false, &p, &off,
					   &pl), -EBADMSG);
}
END_TEST

/* The route to a local address leaves through no interface of ours. */
START_TEST(test_nl_local)
{
	const uint8_t lo4[4] = { 127, 0, 0, 1 };
	uint8_t lo6[16] = { 0 }, mac[6];
	int fd, lo = (int)if_nametoindex("lo");

	lo6[15] = 1;
	fd = uet_xdp_nl_open();
	if (fd < 0)
		return;		/* no rtnetlink in this sandbox */
	ck_assert_int_eq(uet_xdp_nl_next_hop(fd, AF_INET, lo4, lo, mac),
			 -EXDEV);
	ck_assert_int_eq(uet_xdp_nl_next_hop(fd, AF_INET6, lo6, lo, mac) < 0,
			 1);
	close(fd);
}
END_TEST

/* The refusals that keep the UDP link, each with its reason. */
START_TEST(test_open_refused)
{
	struct uet_link_udp_cfg cfg;
	struct uet_link *link = NULL;
	char why[256];

	memset(&cfg, 0, sizeof(cfg));
	ck_assert_int_eq(uet_link_xdp_open(NULL, &link, why, sizeof(why)),
			 -EINVAL);
	cfg.host = "127.0.0.1";
	ck_assert_int_eq(uet_link_xdp_open(&cfg, NULL, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(uet_link_xdp_open(&cfg, &link, why, sizeof(why)),
			 -EOPNOTSUPP);
	ck_assert_ptr_null(link);
	ck_assert_msg(strlen(why) > 0, "no reason given");
#ifdef UET_HAVE_XDP
	ck_assert_ptr_nonnull(strstr(why, "loopback"));
	cfg.host = "0.0.0.0";
	ck_assert_int_eq(uet_link_xdp_open(&cfg, &link, why, sizeof(why)),
			 -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(why, "wildcard"));
	cfg.host = "::";
	ck_assert_int_eq(uet_link_xdp_open(&cfg, &link, why, sizeof(why)),
			 -EOPNOTSUPP);
	/* TEST-NET-1: on no interface here */
	cfg.host = "192.0.2.77";
	ck_assert_int_eq(uet_link_xdp_open(&cfg, &link, why, sizeof(why)),
			 -ENODEV);
	ck_assert_ptr_nonnull(strstr(why, "no interface"));
	cfg.host = "not-an-address";
	ck_assert_int_eq(uet_link_xdp_open(&cfg, &link, why, sizeof(why)) < 0,
			 1);
#else
	ck_assert_ptr_nonnull(strstr(why, "without AF_XDP"));
#endif
	ck_assert_ptr_null(link);
	ck_assert(!uet_link_is_xdp(NULL));
	ck_assert_int_eq(uet_link_xdp_get_stats(NULL, NULL), -EINVAL);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("link_xdp");
	TCase *tc = tcase_create("hdr");
	TCase *tc_open = tcase_create("open");

	tcase_add_test(tc, test_csum_rfc1071);
	tcase_add_test(tc, test_ipv4_known_header);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_partial_checksum);
	tcase_add_test(tc, test_ipv4_fragment_options);
	tcase_add_test(tc_open, test_nl_local);
	tcase_add_test(tc_open, test_open_refused);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tc_open);
	return s;
}

UET_TEST_MAIN(make_suite)
