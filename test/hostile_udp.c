/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hostile_udp HOST PORT COUNT [SEED [GAP_US]]: send COUNT malformed or
 * hostile datagrams to a software NIC's UDP port (test/hostile-pingpong.sh;
 * loopback only: HOST must be 127.0.0.1 or ::1).  Kinds, in turn:
 *   truncated    0..11 bytes of a valid request;
 *   random       random bytes, random length (1..1400);
 *   valid-looking  a RUD/ROD syn request, UUD or RUDI datagram with a
 *                standard SES header whose every field is random (JobID,
 *                PID, index, opcode, key, offsets, lengths); half of the
 *                syn requests start within 8 PSNs of their Start_PSN, so
 *                that they reach SES;
 *   huge lengths a syn request announcing 4 GiB - 1 (SOM=1, EOM=0), a
 *                SOM=0 packet at a 4 GiB offset, a READ of 4 GiB.
 * GAP_US (default 500) microseconds between datagrams.  Prints how many
 * of each kind it sent.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_wire_consts.h"
#include "uet_rand.h"


/* The wire profile of the NICs under attack: FI_UET_WIRE, as theirs. */
static enum uet_wire_prof wire_prof(void)
{
	const char *s = getenv("FI_UET_WIRE");

	return s && uet_wire_prof_parse(s) == UET_WIRE_UE ? UET_WIRE_UE :
							    UET_WIRE_UEPLUS;
}

static uint64_t rng;

static uint64_t rnd(void)
{
	return uet_rand_next(&rng);
}

/* A PDS request (random type among RUD/ROD syn, UUD, RUDI) + SES. */
static size_t mk(uint8_t *b, size_t max, bool huge)
{
	struct uet_pds_rud_rod_req h;
	struct uet_pds_rudi ri;
	struct uet_pds_uud_req uu;
	struct uet_ses_std_som1 s1;
	struct uet_ses_std_som0 s0;
	ssize_t n, m;
	size_t pl;

	switch (rnd() % 4) {
	case 0:
	case 1:
		memset(&h, 0, sizeof(h));
		h.type = rnd() & 1 ? UET_PDS_TYPE_ROD_REQ : UET_PDS_TYPE_RUD_REQ;
		h.next_hdr = UET_HDR_REQUEST_STD;
		h.syn = true;
		h.psn = (uint32_t)rnd();
		h.spdcid = (uint16_t)(1 + rnd() % 65535);
		/* half inside any receive window, so that SES sees the
		 * opening request (and refuses it: syn_refused) */
		h.psn_offset = (uint16_t)(rnd() & 1 ? rnd() % 8 :
					  rnd() % 4096);
		n = uet_pds_rud_rod_req_encode(wire_prof(), b, max, &h);
		break;
	case 2:
		memset(&uu, 0, sizeof(uu));
		uu.next_hdr = UET_HDR_REQUEST_STD;
		uu.pkt_id = (uint32_t)rnd();
		n = uet_pds_uud_req_encode(wire_prof(), b, max, &uu);
		break;
	default:
		memset(&ri, 0, sizeof(ri));
		ri.type = UET_PDS_TYPE_RUDI_REQ;
		ri.next_hdr = UET_HDR_REQUEST_STD;
		ri.pkt_id = (uint32_t)rnd();
		n = uet_pds_rudi_encode(wire_prof(), b, max, &ri);
		break;
	}
	if (n < 0)
		return 0;
	if (huge && rnd() % 3 == 0) {
		memset(&s0, 0, sizeof(s0));
		s0.ctl.opcode = UET_SEND;
		s0.message_id = (uint16_t)(1 + rnd() % 65535);
		s0.job_id = (uint32_t)(rnd() & 0xffffff);
		s0.message_offset = 0xfffff000u;
		s0.request_length = 0xffffffffu;
		s0.payload_length = 512;
		m = uet_ses_std_som0_encode(wire_prof(), b + n, max - (size_t)n, &s0);
		pl = 512;
	} else {
		memset(&s1, 0, sizeof(s1));
		s1.ctl.opcode = huge ? (rnd() & 1 ? UET_SEND : UET_READ) :
			(uint8_t)(1 + rnd() % 10);
		s1.ctl.eom = !huge && (rnd() & 1);
		s1.message_id = (uint16_t)(1 + rnd() % 65535);
		s1.ri_generation = (uint8_t)rnd();
		s1.job_id = rnd() % 8 ? (uint32_t)(rnd() & 0xffffff) : 1;
		s1.pid_on_fep = (uint16_t)(rnd() & 0xfff);
		s1.resource_index = (uint16_t)(rnd() & 0xfff);
		s1.buffer_offset = rnd();
		s1.match_bits = rnd();
		pl = huge ? 256 : rnd() % 1024;
		s1.request_length = huge ? 0xffffffffu :
			(s1.ctl.eom ? (uint32_t)pl : (uint32_t)rnd());
		m = uet_ses_std_som1_encode(wire_prof(), b + n, max - (size_t)n, &s1);
	}
	if (m < 0)
		return (size_t)n;
	if ((size_t)(n + m) + pl > max)
		pl = max - (size_t)(n + m);
	memset(b + n + m, 0x77, pl);
	return (size_t)(n + m) + pl;
}

int main(int argc, char **argv)
{
	unsigned long count, i, sent[4] = { 0, 0, 0, 0 };
	struct sockaddr_storage ss;
	struct timespec gap;
	uint8_t b[1400];
	socklen_t sl;
	size_t len;
	int fd, kind;

	if (argc < 4) {
		fprintf(stderr, "usage: %s HOST PORT COUNT [SEED [GAP_US]]\n",
			argv[0]);
		return 2;
	}
	memset(&ss, 0, sizeof(ss));
	if (strcmp(argv[1], "127.0.0.1") == 0) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)atoi(argv[2]));
		inet_pton(AF_INET, argv[1], &a->sin_addr);
		sl = sizeof(*a);
	} else if (strcmp(argv[1], "::1") == 0) {
		struct sockaddr_in6 a6;

		memset(&a6, 0, sizeof(a6));
		a6.sin6_family = AF_INET6;
		a6.sin6_port = htons((uint16_t)atoi(argv[2]));
		inet_pton(AF_INET6, argv[1], &a6.sin6_addr);
		memcpy(&ss, &a6, sizeof(a6));
		sl = sizeof(a6);
	} else {
		fprintf(stderr, "%s: loopback only (127.0.0.1 or ::1)\n",
			argv[0]);
		return 2;
	}
	count = strtoul(argv[3], NULL, 0);
	rng = argc > 4 ? strtoull(argv[4], NULL, 0) : 0x1234567;
	if (!rng)
		rng = 1;
	gap.tv_sec = 0;
	gap.tv_nsec = (argc > 5 ? atol(argv[5]) : 500) * 1000L;
	fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		kind = (int)(i % 4);
		switch (kind) {
		case 0:		/* truncated */
			len = mk(b, sizeof(b), false);
			len = len < 12 ? len : rnd() % 12;
			break;
		case 1:		/* random */
			len = 1 + rnd() % sizeof(b);
			for (size_t k = 0; k < len; k++)
				b[k] = (uint8_t)rnd();
			break;
		case 2:		/* valid-looking, random fields */
			len = mk(b, sizeof(b), false);
			break;
		default:	/* huge lengths */
			len = mk(b, sizeof(b), true);
			break;
		}
		if (sendto(fd, b, len, 0, (struct sockaddr *)&ss, sl) >= 0)
			sent[kind]++;
		if (gap.tv_nsec)
			nanosleep(&gap, NULL);
	}
	close(fd);
	printf("hostile_udp: sent %lu truncated, %lu random, %lu valid-looking, %lu huge-length datagrams\n",
	       sent[0], sent[1], sent[2], sent[3]);
	return 0;
}
