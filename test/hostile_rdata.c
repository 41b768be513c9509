/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hostile_rdata PORT_A PORT_B JOB_ID SECONDS [SEED [GAP_US [MODES
 *               [ADDR_A ADDR_B]]]]:
 * spray forged Response-with-Data datagrams (PDS next_hdr RESPONSE_DATA,
 * SES uet_ses_rsp_data) at two software NICs on 127.0.0.1 (or on the
 * IPv4 addresses ADDR_A and ADDR_B, test/xdp-netns.sh), each with the
 * source address and port of the other, as an off-path attacker who
 * knows both ports and the JobID would (test/hostile-rdzv.sh; issue 30,
 * finding 1).  The source is spoofed with a raw IPv4 socket (IP_HDRINCL),
 * which needs CAP_NET_RAW: without it the program exits 77.  SECONDS 0
 * only checks that.
 *
 * Datagrams alternate between the two NICs; for each NIC in turn:
 *   delivery      in turn those MODES names (default "urs"): u a UUD
 *                 request, r a RUDI request, s a RUD syn request within
 *                 8 PSNs of its Start_PSN (so that SES sees it), with a
 *                 random SPDCID;
 *   READ id       every other round of MODES the next of a cycle over
 *                 all 65535 ids (one cycle per NIC), the others random;
 *   offset        0, the last bytes of a 64 KiB pull chunk, or random
 *                 within the chunk;
 *   payload       1000 bytes or 1-64, random bytes, return code RC_OK.
 * GAP_US (default 20) microseconds between datagrams.  Runs SECONDS, or
 * until SIGTERM or SIGINT, then prints how many of each delivery mode it
 * sent.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "uet_byteorder.h"
#include "uet_pds_wire.h"
#include "uet_rand.h"
#include "uet_ses_wire.h"
#include "uet_wire_consts.h"

#define IP4_HDR_LEN	20u
#define UDP_HDR_LEN	8u
#define LOOPBACK4	0x7f000001u

/* The NICs' IPv4 addresses, A and B (127.0.0.1 unless given). */
static uint32_t nic_addr[2] = { LOOPBACK4, LOOPBACK4 };
#define PULL_CHUNK	65536u		/* UET_SES_READ_CHUNK */
#define BIG_PAYLOAD	1000u
#define DG_MAX		1400u

enum { MODE_UUD, MODE_RUDI, MODE_SYN, MODE_N };


/* The wire profile of the NICs under attack: FI_UET_WIRE, as theirs. */
static enum uet_wire_prof wire_prof(void)
{
	const char *s = getenv("FI_UET_WIRE");

	return s && uet_wire_prof_parse(s) == UET_WIRE_UE ? UET_WIRE_UE :
							    UET_WIRE_UEPLUS;
}

static const char mode_letter[MODE_N] = { 'u', 'r', 's' };
static const char *const mode_name[MODE_N] = { "UUD", "RUDI", "RUD syn" };

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The PDS header of delivery mode `mode`, next_hdr RESPONSE_DATA. */
static ssize_t pds_hdr(uint8_t *b, size_t max, int mode, uint64_t *rng)
{
	struct uet_pds_rud_rod_req h;
	struct uet_pds_uud_req uu;
	struct uet_pds_rudi ri;

	switch (mode) {
	case MODE_UUD:
		memset(&uu, 0, sizeof(uu));
		uu.next_hdr = UET_HDR_RESPONSE_DATA;
		uu.pkt_id = (uint32_t)uet_rand_next(rng);
		return uet_pds_uud_req_encode(wire_prof(), b, max, &uu);
	case MODE_RUDI:
		memset(&ri, 0, sizeof(ri));
		ri.type = UET_PDS_TYPE_RUDI_REQ;
		ri.next_hdr = UET_HDR_RESPONSE_DATA;
		ri.pkt_id = (uint32_t)uet_rand_next(rng);
		return uet_pds_rudi_encode(wire_prof(), b, max, &ri);
	default:
		memset(&h, 0, sizeof(h));
		h.type = UET_PDS_TYPE_RUD_REQ;
		h.next_hdr = UET_HDR_RESPONSE_DATA;
		h.syn = true;
		h.psn = (uint32_t)uet_rand_next(rng);
		h.spdcid = (uint16_t)(1 + uet_rand_next(rng) % 65535);
		h.psn_offset = (uint16_t)(uet_rand_next(rng) % 8);
		return uet_pds_rud_rod_req_encode(wire_prof(), b, max, &h);
	}
}

/* The SES Response with Data and its payload after the PDS header. */
static ssize_t ses_rdata(uint8_t *b, size_t max, uint32_t job_id,
			 uint16_t read_id, uint64_t *rng)
{
	struct uet_ses_rsp_data h;
	uint32_t plen;
	ssize_t n;
	uint64_t r = uet_rand_next(rng);

	plen = r & 1 ? BIG_PAYLOAD : (uint32_t)(1 + (r >> 1) % 64);
	memset(&h, 0, sizeof(h));
	h.ctl.list = UET_LIST_EXPECTED;
	h.ctl.opcode = UET_RESPONSE_W_DATA;
	h.ctl.version = UET_SES_VERSION;
	h.ctl.return_code = UET_RC_OK;
	h.response_message_id = (uint16_t)uet_rand_next(rng);
	h.job_id = job_id;
	h.read_request_message_id = read_id;
	h.payload_length = (uint16_t)plen;
	h.modified_length = PULL_CHUNK;
	switch ((r >> 8) % 3) {
	case 0:
		h.message_offset = 0;
		break;
	case 1:
		h.message_offset = PULL_CHUNK - plen;
		break;
	default:
		h.message_offset = (uint32_t)(uet_rand_next(rng) %
					      (PULL_CHUNK - plen + 1));
		break;
	}
	n = uet_ses_rsp_data_encode(wire_prof(), b, max, &h);
	if (n < 0 || (size_t)n + plen > max)
		return -1;
	for (uint32_t k = 0; k < plen; k++)
		b[n + k] = (uint8_t)uet_rand_next(rng);
	return n + (ssize_t)plen;
}

/* One's-complement sum of len bytes, big-endian 16-bit words. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += uet_get_be16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * IPv4 + UDP headers in front of the len bytes at b + IP4_HDR_LEN +
 * UDP_HDR_LEN, from saddr:sport to daddr:dport.  The kernel
 * fills in the IP checksum (IP_HDRINCL); the UDP checksum is ours.
 */
static size_t ip_udp_hdr(uint8_t *b, size_t len, uint32_t saddr,
			 uint16_t sport, uint32_t daddr, uint16_t dport,
			 uint64_t *rng)
{
	uint8_t *u = b + IP4_HDR_LEN, pseudo[12];
	size_t ulen = UDP_HDR_LEN + len;
	uint16_t ck;
	uint8_t *p;

	p = uet_put_u8(b, 0x45);		/* version 4, IHL 5 */
	p = uet_put_u8(p, 0);			/* DSCP, ECN */
	p = uet_put_be16(p, (uint16_t)(IP4_HDR_LEN + ulen));
	p = uet_put_be16(p, (uint16_t)uet_rand_next(rng));	/* IP id */
	p = uet_put_be16(p, 0x4000);		/* DF */
	p = uet_put_u8(p, 64);			/* TTL */
	p = uet_put_u8(p, IPPROTO_UDP);
	p = uet_put_be16(p, 0);			/* checksum: the kernel's */
	p = uet_put_be32(p, saddr);
	uet_put_be32(p, daddr);

	p = uet_put_be16(u, sport);
	p = uet_put_be16(p, dport);
	p = uet_put_be16(p, (uint16_t)ulen);
	uet_put_be16(p, 0);
	p = uet_put_be32(pseudo, saddr);
	p = uet_put_be32(p, daddr);
	p = uet_put_u8(p, 0);
	p = uet_put_u8(p, IPPROTO_UDP);
	uet_put_be16(p, (uint16_t)ulen);
	ck = csum_fold(csum_add(csum_add(0, pseudo, sizeof(pseudo)), u,
				ulen));
	uet_put_be16(u + 6, ck ? ck : 0xffff);
	return IP4_HDR_LEN + ulen;
}

static uint16_t parse_port(const char *s)
{
	unsigned long v = strtoul(s, NULL, 0);

	return v && v <= 65535 ? (uint16_t)v : 0;
}

int main(int argc, char **argv)
{
	unsigned long sent[MODE_N] = { 0 }, fails = 0, i;
	uint16_t port[2], cycle[2] = { 0, 0 }, id;
	struct sockaddr_in dst;
	struct timespec gap, t0, t;
	uint8_t b[IP4_HDR_LEN + UDP_HDR_LEN + DG_MAX];
	uint8_t *dg = b + IP4_HDR_LEN + UDP_HDR_LEN;
	unsigned long secs;
	uint64_t rng;
	int fd, v, mode, modes[MODE_N], nmodes = 0;
	const char *letters;
	uint32_t job_id;
	ssize_t n, m;
	size_t len;

	if (argc < 5) {
		fprintf(stderr,
			"usage: %s PORT_A PORT_B JOB_ID SECONDS"
			" [SEED [GAP_US [MODES [ADDR_A ADDR_B]]]]\n",
			argv[0]);
		return 2;
	}
	port[0] = parse_port(argv[1]);
	port[1] = parse_port(argv[2]);
	job_id = (uint32_t)strtoul(argv[3], NULL, 0) & UET_JOB_ID_MAX;
	secs = strtoul(argv[4], NULL, 0);
	if (!port[0] || !port[1]) {
		fprintf(stderr, "%s: bad port\n", argv[0]);
		return 2;
	}
	rng = argc > 5 ? strtoull(argv[5], NULL, 0) : 0x5eed;
	if (!rng)
		rng = 1;
	gap.tv_sec = 0;
	gap.tv_nsec = (argc > 6 ? atol(argv[6]) : 20) * 1000L;
	letters = argc > 7 ? argv[7] : "urs";
	/* the NICs' IPv4 addresses (e.g. two network namespaces' veth
	 * ends, test/xdp-netns.sh); 127.0.0.1 by default */
	for (v = 0; v < 2 && argc > 9; v++) {
		struct in_addr ia;

		if (inet_pton(AF_INET, argv[8 + v], &ia) != 1) {
			fprintf(stderr, "%s: bad address %s\n", argv[0],
				argv[8 + v]);
			return 2;
		}
		nic_addr[v] = ntohl(ia.s_addr);
	}
	for (mode = 0; mode < MODE_N; mode++)
		if (strchr(letters, mode_letter[mode]))
			modes[nmodes++] = mode;
	if (!nmodes) {
		fprintf(stderr, "%s: MODES: one or more of u, r, s\n",
			argv[0]);
		return 2;
	}

	/* IPPROTO_RAW: send only, the IP header is ours (IP_HDRINCL). */
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		if (errno == EPERM || errno == EACCES) {
			printf("hostile_rdata: no raw socket (CAP_NET_RAW)\n");
			return 77;
		}
		perror("socket");
		return 1;
	}
	v = 1;
	if (setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &v, sizeof(v))) {
		perror("IP_HDRINCL");
		close(fd);
		return 1;
	}
	if (!secs) {
		close(fd);
		return 0;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	memset(&dst, 0, sizeof(dst));
	dst.sin_family = AF_INET;
	dst.sin_addr.s_addr = htonl(LOOPBACK4);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; !stop; i++) {
		/* the victim is port[i & 1], the spoofed source the other */
		v = (int)(i & 1);
		mode = modes[(i >> 1) % (unsigned long)nmodes];
		if (((i >> 1) / (unsigned long)nmodes) & 1) {
			cycle[v] = cycle[v] == 65535 ? 1 : cycle[v] + 1;
			id = cycle[v];
		} else {
			id = (uint16_t)(1 + uet_rand_next(&rng) % 65535);
		}
		n = pds_hdr(dg, DG_MAX, mode, &rng);
		m = n < 0 ? -1 : ses_rdata(dg + n, DG_MAX - (size_t)n, job_id,
					   id, &rng);
		if (m < 0) {
			fprintf(stderr, "hostile_rdata: encoding failed\n");
			close(fd);
			return 1;
		}
		len = ip_udp_hdr(b, (size_t)(n + m), nic_addr[!v], port[!v],
				 nic_addr[v], port[v], &rng);
		dst.sin_addr.s_addr = htonl(nic_addr[v]);
		dst.sin_port = htons(port[v]);
		if (sendto(fd, b, len, 0, (struct sockaddr *)&dst,
			   sizeof(dst)) >= 0)
			sent[mode]++;
		else
			fails++;
		if (gap.tv_nsec)
			nanosleep(&gap, NULL);
		if ((i & 255) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((unsigned long)(t.tv_sec - t0.tv_sec) >= secs)
				break;
		}
	}
	close(fd);
	printf("hostile_rdata: sent");
	for (mode = 0; mode < MODE_N; mode++)
		printf("%s %lu %s", mode ? "," : "", sent[mode],
		       mode_name[mode]);
	printf(" forged Response-with-Data datagrams (%lu sends failed)\n",
	       fails);
	return 0;
}
