/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the UDP datagrams of a capture (uet_pcap.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pcap.h"

static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The UDP payload of one link-layer frame, or NULL. */
static const uint8_t *udp_of(uint32_t linktype, const uint8_t *p, size_t len,
			     size_t *plen, uint16_t *sport, uint16_t *dport)
{
	uint16_t et;
	size_t ul;
	unsigned int ihl;

	switch (linktype) {
	case 1:		/* Ethernet */
		if (len < 14)
			return NULL;
		et = be16(p + 12);
		p += 14;
		len -= 14;
		if (et == 0x8100 && len >= 4) {
			et = be16(p + 2);
			p += 4;
			len -= 4;
		}
		break;
	case 113:	/* Linux cooked v1 */
		if (len < 16)
			return NULL;
		et = be16(p + 14);
		p += 16;
		len -= 16;
		break;
	case 276:	/* Linux cooked v2 */
		if (len < 20)
			return NULL;
		et = be16(p);
		p += 20;
		len -= 20;
		break;
	case 101:	/* raw IP */
	case 12:
		if (len < 1)
			return NULL;
		et = (p[0] >> 4) == 6 ? 0x86dd : 0x0800;
		break;
	default:
		return NULL;
	}
	if (et == 0x0800) {
		if (len < 20 || p[9] != 17)
			return NULL;
		ihl = (p[0] & 0x0fu) * 4u;
		if (len < ihl + 8 || (be16(p + 6) & 0x3fff))
			return NULL;	/* no fragments */
		p += ihl;
		len -= ihl;
	} else if (et == 0x86dd) {
		if (len < 48 || p[6] != 17)
			return NULL;
		p += 40;
		len -= 40;
	} else {
		return NULL;
	}
	ul = be16(p + 4);
	if (ul < 8 || ul > len)
		return NULL;
	*sport = be16(p);
	*dport = be16(p + 2);
	*plen = ul - 8;
	return p + 8;
}

int uet_pcap_read(const char *path, unsigned int port, unsigned int span,
		  uet_pcap_cb cb, void *arg)
{
	uint8_t gh[24], rh[16], *buf = NULL;
	const uint8_t *u;
	uint32_t magic, linktype, caplen;
	uint16_t sp, dp;
	uint64_t frame = 0;
	size_t ulen;
	bool swap;
	FILE *f = fopen(path, "rb");
	int ret = 1;

	if (!f) {
		perror(path);
		return 1;
	}
	if (fread(gh, 1, sizeof(gh), f) != sizeof(gh))
		goto out;
	memcpy(&magic, gh, 4);
	swap = magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u;
	if (!swap && magic != 0xa1b2c3d4u && magic != 0xa1b23c4du) {
		fprintf(stderr, "%s: not a pcap file\n", path);
		goto out;
	}
	linktype = rd32(gh + 20, swap) & 0x0fffffffu;
	buf = malloc(262144);
	if (!buf)
		goto out;
	while (fread(rh, 1, sizeof(rh), f) == sizeof(rh)) {
		caplen = rd32(rh + 8, swap);
		if (caplen > 262144 || fread(buf, 1, caplen, f) != caplen)
			goto out;
		frame++;
		u = udp_of(linktype, buf, caplen, &ulen, &sp, &dp);
		if (!u || (port && (sp < port || sp > port + span) &&
			   (dp < port || dp > port + span)))
			continue;
		cb(arg, frame, u, ulen);
	}
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}
