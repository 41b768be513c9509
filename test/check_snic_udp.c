/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * snic/uet_snic over real UDP: two NIC instances opened with the ops
 * table on 127.0.0.1 (then ::1), port 0, each driven by its own thread
 * (posting, progress and notification polling for that NIC only; the
 * threads share nothing but the count of receives each side has posted),
 * exchange mixed traffic of up to 1 MiB per message, byte-exact
 * (test/snic_harness.h).  Then a plain UDP socket throws malformed
 * datagrams at NIC B, which must count them and keep working.  A third
 * test lets the NICs' auto-progress threads do the progress.
 *
 * Only loopback addresses are used; every wait has a real-time bound.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "snic_harness.h"
#include "uet_clock.h"
#include "uet_pds_wire.h"
#include "uet_test.h"
#include "uet_wire_consts.h"

#define PHASE_TIMEOUT_NS	(20 * SNH_SEC)
#define INJECT_TIMEOUT_NS	(5 * SNH_SEC)
#define N_MALFORMED		1000
#define INJECT_BATCH		50

/* ------------------------------------------------------------------ */
/* Driving threads                                                     */
/* ------------------------------------------------------------------ */

struct drv {
	struct snh_traffic *t;
	int s;
	bool auto_prog;
	uint64_t deadline;
	bool timed_out;
};

static bool both_done(struct snh_traffic *t)
{
	return atomic_load(&t->side[0].done) && atomic_load(&t->side[1].done);
}

static void *drive(void *arg)
{
	struct drv *d = arg;
	struct snh_traffic *t = d->t;
	struct snh_nic *nic = t->side[d->s].nic;
	unsigned int act;

	while (!atomic_load(&t->failed) && !both_done(t)) {
		if (uet_clock_now_ns() > d->deadline) {
			d->timed_out = true;
			snh_traffic_fail(t, "NIC %d: real-time bound reached",
					 d->s);
			break;
		}
		act = snh_traffic_pump(t, d->s);
		act += d->auto_prog ? snh_poll(nic) : snh_nic_progress(nic);
		if (nic->err[0]) {
			snh_traffic_fail(t, "NIC %d decoder: %s", d->s,
					 nic->err);
			break;
		}
		if (nic->progress_err) {
			snh_traffic_fail(t, "NIC %d: progress returned %d",
					 d->s, nic->last_progress_err);
			break;
		}
		if (!act)
			sched_yield();
	}
	return NULL;
}

static void dump_stats(const char *name, struct snh_nic *n)
{
	struct uet_snic_stats st;

	memset(&st, 0, sizeof(st));
	uet_snic_get_stats(n->dev, &st);
	fprintf(stderr,
		"NIC %s: pds tx %llu rx %llu retx %llu (timeout %llu nack %llu sack %llu) dup %llu ack tx/rx %llu/%llu nack tx/rx %llu/%llu cp tx/rx %llu/%llu malformed %llu unknown_pdc %llu pdc opened/closed/failed %llu/%llu/%llu link_busy %llu; ses msgs tx/rx %llu/%llu rdzv tx/rx %llu/%llu reads %llu unexp %llu refused %llu err_rsp tx/rx %llu/%llu stale %llu; notif_deferred %llu\n",
		name, (unsigned long long)st.pds.tx_pkts,
		(unsigned long long)st.pds.rx_pkts,
		(unsigned long long)st.pds.retx,
		(unsigned long long)st.pds.retx_timeout,
		(unsigned long long)st.pds.retx_nack,
		(unsigned long long)st.pds.retx_sack,
		(unsigned long long)st.pds.dup_rx,
		(unsigned long long)st.pds.ack_tx,
		(unsigned long long)st.pds.ack_rx,
		(unsigned long long)st.pds.nack_tx,
		(unsigned long long)st.pds.nack_rx,
		(unsigned long long)st.pds.cp_tx,
		(unsigned long long)st.pds.cp_rx,
		(unsigned long long)st.pds.malformed,
		(unsigned long long)st.pds.unknown_pdc,
		(unsigned long long)st.pds.pdc_opened,
		(unsigned long long)st.pds.pdc_closed,
		(unsigned long long)st.pds.pdc_failed,
		(unsigned long long)st.pds.link_busy,
		(unsigned long long)st.ses.msgs_tx,
		(unsigned long long)st.ses.msgs_rx,
		(unsigned long long)st.ses.rdzv_tx,
		(unsigned long long)st.ses.rdzv_rx,
		(unsigned long long)st.ses.rdzv_read_pkts,
		(unsigned long long)st.ses.unexpected,
		(unsigned long long)st.ses.unexp_refused,
		(unsigned long long)st.ses.err_rsp_tx,
		(unsigned long long)st.ses.err_rsp_rx,
		(unsigned long long)st.ses.stale_msgs,
		(unsigned long long)st.notif_deferred);
}

static void phase(struct snh_nic *a, struct snh_nic *b, uint32_t n,
		  uint64_t seed, bool auto_prog)
{
	struct snh_traffic_cfg tc;
	struct snh_traffic t;
	struct drv d[2];
	pthread_t th[2];
	uint64_t t0 = uet_clock_now_ns();
	char desc[600];
	uint32_t i;
	int s;

	snh_traffic_cfg_default(&tc);
	tc.n = n;
	tc.seed = seed;
	tc.max_len = 1u << 20;
	tc.max_volume = 16ull << 20;
	ck_assert_int_eq(snh_traffic_init(&t, &tc, a, b), 0);
	if (n >= 1000) {
		ck_assert_uint_eq(t.max_seen, tc.max_len);
		ck_assert_uint_gt(t.n_multi, 0);
		ck_assert_uint_gt(t.n_across, 0);
	}
	for (s = 0; s < 2; s++) {
		memset(&d[s], 0, sizeof(d[s]));
		d[s].t = &t;
		d[s].s = s;
		d[s].auto_prog = auto_prog;
		d[s].deadline = t0 + PHASE_TIMEOUT_NS;
		ck_assert_int_eq(pthread_create(&th[s], NULL, drive, &d[s]),
				 0);
	}
	for (s = 0; s < 2; s++)
		ck_assert_int_eq(pthread_join(th[s], NULL), 0);
	snh_traffic_describe(&t, desc, sizeof(desc));
	if (atomic_load(&t.failed) || !snh_traffic_done(&t)) {
		dump_stats("A", a);
		dump_stats("B", b);
	}
	ck_assert_msg(!atomic_load(&t.failed) && snh_traffic_done(&t),
		      "%u messages (%llu bytes)%s: %s", n,
		      (unsigned long long)t.volume,
		      auto_prog ? " with auto-progress" : "", desc);
	for (i = 0; i < t.n; i++) {
		ck_assert_uint_eq(t.msgs[i].nrecv, 1);
		ck_assert_uint_eq(t.msgs[i].send_state, 2);
	}
	ck_assert_uint_eq(t.side[0].bytes_out, t.side[1].bytes_in);
	ck_assert_uint_eq(t.side[1].bytes_out, t.side[0].bytes_in);
	fprintf(stderr, "udp phase: %u msgs, %llu bytes, max %u, %.3f s\n", n,
		(unsigned long long)t.volume, t.max_seen,
		(double)(uet_clock_now_ns() - t0) / 1e9);
	snh_traffic_fini(&t);
}

/* ------------------------------------------------------------------ */
/* Malformed datagrams                                                 */
/* ------------------------------------------------------------------ */

static void addr_of(struct snh_nic *n, struct sockaddr_storage *ss,
		    socklen_t *sl)
{
	uint8_t a[128];
	size_t len = sizeof(a);
	sa_family_t fam;

	ck_assert_int_eq(n->dev->ops->getname(n->dev, a, &len), 0);
	ck_assert_uint_ge(len, sizeof(sa_family_t));
	memcpy(&fam, a, sizeof(fam));
	ck_assert_msg((fam == AF_INET && len >= sizeof(struct sockaddr_in)) ||
		      (fam == AF_INET6 &&
		       len >= sizeof(struct sockaddr_in6)),
		      "getname: %zu bytes, family %u: not a sockaddr", len,
		      fam);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, a, len < sizeof(*ss) ? len : sizeof(*ss));
	*sl = fam == AF_INET ? sizeof(struct sockaddr_in) :
			       sizeof(struct sockaddr_in6);
}

static int raw_socket(int family)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	int fd;

	fd = socket(family, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		ck_assert_int_eq(bind(fd, (struct sockaddr *)s4,
				      sizeof(*s4)), 0);
	} else {
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		ck_assert_int_eq(bind(fd, (struct sockaddr *)s6,
				      sizeof(*s6)), 0);
	}
	return fd;
}

/* One malformed datagram of kind k into buf; returns its length and
 * whether PDS must count it as malformed. */
static size_t make_bad(uint8_t *buf, size_t max, unsigned int k,
		       bool *certain)
{
	static const uint8_t bad_types[] = { 0, 1, 15, 16, 20, 24, 31 };
	struct uet_pds_rud_rod_req q;
	struct uet_pds_ack a;
	size_t len, i;
	ssize_t r;

	*certain = false;
	switch (k % 5) {
	case 0:
	case 1:
		/* random bytes */
		len = uet_test_rand64() % 1401;
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)uet_test_rand64();
		*certain = len < UET_PDS_PROLOGUE_LEN;
		return len;
	case 2:
		/* a valid RUD request header, truncated */
		memset(&q, 0, sizeof(q));
		q.type = UET_PDS_TYPE_RUD_REQ;
		q.next_hdr = UET_HDR_REQUEST_STD;
		q.syn = true;
		q.psn = (uint32_t)uet_test_rand64();
		q.spdcid = (uint16_t)(1 + uet_test_rand64() % 0xfffe);
		q.pdc_info = 0;
		r = uet_pds_rud_rod_req_encode(UET_WIRE_UEPLUS, buf, max, &q);
		ck_assert_int_eq(r, UET_PDS_RUD_ROD_REQ_LEN);
		*certain = true;
		return uet_test_rand64() % UET_PDS_RUD_ROD_REQ_LEN;
	case 3:
		/* a valid ACK header, truncated */
		memset(&a, 0, sizeof(a));
		a.next_hdr = UET_HDR_NONE;
		a.cack_psn = (uint32_t)uet_test_rand64();
		a.spdcid = 1;
		a.dpdcid = 1;
		r = uet_pds_ack_encode(UET_WIRE_UEPLUS, buf, max, &a);
		ck_assert_int_eq(r, UET_PDS_ACK_LEN);
		*certain = true;
		return uet_test_rand64() % UET_PDS_ACK_LEN;
	default:
		/* undefined, reserved or unsupported PDS type */
		len = 2 + uet_test_rand64() % 200;
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)uet_test_rand64();
		buf[0] = (uint8_t)(bad_types[uet_test_rand64() %
					     sizeof(bad_types)] << 3 |
				   (buf[0] & 7));
		*certain = true;
		return len;
	}
}

static void progress_pair(struct snh_nic *a, struct snh_nic *b)
{
	snh_nic_progress(a);
	snh_nic_progress(b);
}

static void b_stats(struct snh_nic *b, struct uet_snic_stats *st)
{
	memset(st, 0, sizeof(*st));
	uet_snic_get_stats(b->dev, st);
}

/* Progress both until B has received nothing for QUIET_NS (stale
 * retransmissions of the traffic phase drained), within a bound. */
#define QUIET_NS	(200 * SNH_MS)
static void quiesce(struct snh_nic *a, struct snh_nic *b)
{
	uint64_t start = uet_clock_now_ns(), last_change = start, now;
	struct uet_snic_stats st;
	uint64_t rx;

	b_stats(b, &st);
	rx = st.pds.rx_pkts;
	for (;;) {
		progress_pair(a, b);
		now = uet_clock_now_ns();
		b_stats(b, &st);
		if (st.pds.rx_pkts != rx) {
			rx = st.pds.rx_pkts;
			last_change = now;
		}
		if (now - last_change >= QUIET_NS)
			return;
		ck_assert_msg(now - start < INJECT_TIMEOUT_NS,
			      "NIC B never went quiet after the traffic phase");
	}
}

/* Runs in the main thread while no driving thread is active. */
static void inject_malformed(struct snh_nic *a, struct snh_nic *b)
{
	struct uet_snic_stats s0, s1;
	struct sockaddr_storage ss;
	uint8_t buf[1500];
	uint64_t deadline;
	unsigned int k, certain = 0;
	socklen_t sl;
	bool c;
	size_t len;
	int fd;

	addr_of(b, &ss, &sl);
	fd = raw_socket(ss.ss_family);
	quiesce(a, b);
	b_stats(b, &s0);
	for (k = 0; k < N_MALFORMED; k++) {
		len = make_bad(buf, sizeof(buf), k, &c);
		certain += c;
		ck_assert_int_eq(sendto(fd, buf, len, 0,
					(struct sockaddr *)&ss, sl),
				 (ssize_t)len);
		if ((k + 1) % INJECT_BATCH && k + 1 != N_MALFORMED)
			continue;
		/* Let B read and count the batch before sending more (the
		 * socket buffer never overflows). */
		deadline = uet_clock_now_ns() + INJECT_TIMEOUT_NS;
		for (;;) {
			progress_pair(a, b);
			b_stats(b, &s1);
			if ((s1.pds.rx_pkts - s0.pds.rx_pkts >= k + 1 &&
			     s1.pds.malformed - s0.pds.malformed >= certain) ||
			    uet_clock_now_ns() > deadline)
				break;
		}
		ck_assert_msg(s1.pds.rx_pkts - s0.pds.rx_pkts >= k + 1 &&
			      s1.pds.malformed - s0.pds.malformed >= certain,
			      "after %u malformed datagrams (%u certainly malformed) B received %llu and counted %llu malformed",
			      k + 1, certain,
			      (unsigned long long)(s1.pds.rx_pkts -
						   s0.pds.rx_pkts),
			      (unsigned long long)(s1.pds.malformed -
						   s0.pds.malformed));
	}
	close(fd);
	b_stats(b, &s1);
	fprintf(stderr,
		"malformed: sent %u (%u certainly malformed); B: rx +%llu malformed +%llu unknown_pdc +%llu ses bad_hdr +%llu\n",
		N_MALFORMED, certain,
		(unsigned long long)(s1.pds.rx_pkts - s0.pds.rx_pkts),
		(unsigned long long)(s1.pds.malformed - s0.pds.malformed),
		(unsigned long long)(s1.pds.unknown_pdc - s0.pds.unknown_pdc),
		(unsigned long long)(s1.ses.bad_hdr - s0.ses.bad_hdr));
	ck_assert_uint_ge(s1.pds.rx_pkts - s0.pds.rx_pkts, N_MALFORMED);
	ck_assert_msg(s1.pds.malformed - s0.pds.malformed >= certain,
		      "B counted %llu malformed datagrams, at least %u were",
		      (unsigned long long)(s1.pds.malformed - s0.pds.malformed),
		      certain);
	ck_assert(!a->err[0] && !b->err[0]);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void open_pair(struct snh_nic *a, struct snh_nic *b, const char *host)
{
	int ret;

	ret = snh_nic_open_udp(a, host, SNH_JOB, 0x10, 0x20);
	ck_assert_msg(ret == 0, "open NIC A on %s: %d", host, ret);
	ret = snh_nic_open_udp(b, host, SNH_JOB, 0x11, 0x21);
	ck_assert_msg(ret == 0, "open NIC B on %s: %d", host, ret);
	a->idx = 0;
	b->idx = 1;
	ck_assert_int_eq(snh_connect(a, b), 0);
}

static void udp_run(const char *host, uint64_t salt)
{
	struct snh_nic a, b;

	open_pair(&a, &b, host);
	phase(&a, &b, 2000, uet_test_seed() ^ salt, false);
	inject_malformed(&a, &b);
	/* B keeps working. */
	phase(&a, &b, 200, uet_test_seed() ^ salt ^ 0xabcd, false);
	snh_nic_close(&a);
	snh_nic_close(&b);
}

START_TEST(test_udp_ipv4)
{
	udp_run("127.0.0.1", 0x4);
}
END_TEST

START_TEST(test_udp_ipv6)
{
	udp_run("::1", 0x6);
}
END_TEST

START_TEST(test_udp_auto_progress)
{
	struct snh_nic a, b;

	open_pair(&a, &b, "127.0.0.1");
	ck_assert_int_eq(uet_snic_auto_progress_start(a.dev), 0);
	ck_assert_int_eq(uet_snic_auto_progress_start(b.dev), 0);
	phase(&a, &b, 300, uet_test_seed() ^ 0xa0, true);
	uet_snic_auto_progress_stop(a.dev);
	uet_snic_auto_progress_stop(b.dev);
	snh_nic_close(&a);
	snh_nic_close(&b);
}
END_TEST

static Suite *snic_udp_suite(void)
{
	Suite *s = suite_create("snic_udp");
	TCase *tc;

	tc = tcase_create("udp");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_udp_ipv4);
	tcase_add_test(tc, test_udp_ipv6);
	tcase_add_test(tc, test_udp_auto_progress);
	suite_add_tcase(s, tc);
	return s;
}

UET_TEST_MAIN(snic_udp_suite)
