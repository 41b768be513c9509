/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * uet's own decode of a capture, named through the wire description, in
 * the form `tshark -T fields` prints: for test/tshark-dissector.sh, which
 * compares it with what the generated Lua dissector shows.
 *
 *   uet_pcap_fields --fields
 *       the filter names compared, one a line (frame.number first)
 *   uet_pcap_fields [-w ueplus|ue] [-p PORT] [-s SPAN] FILE.pcap
 *       one line per UET datagram (UDP, either port within PORT ..
 *       PORT + SPAN): the frame number, then every field's values (comma
 *       separated, in packet order), tab separated.
 *
 * Each header is decoded by the codecs (wire/uet_pds_wire.c,
 * uet_ses_wire.c, uet_tss_wire.c), chosen as uet chooses them
 * (uet_pds_peek_type, uet_ses_request_format); the values printed are
 * the host struct members the description names.  A datagram a codec
 * refuses is reported on stderr and the exit status is 2.  The capture
 * is read by test/uet_pcap.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pds_wire.h"
#include "uet_ses_wire.h"
#include "uet_tss_wire.h"
#include "uet_pcap.h"
#include "uet_wire_desc.h"
#include "wire_desc_codec.h"

#define MAX_NAMES	256
#define MAX_VALS	4096

struct name {
	char abbrev[64];
	unsigned int kind;	/* UET_WD_UINT (and SINT), BOOL, BYTES */
	char vals[MAX_VALS];	/* this datagram's values */
};

static struct name names[MAX_NAMES];
static size_t nnames;

static void abbrev_of(char *out, size_t n, const struct uet_wd_fmt *f,
		      const struct uet_wd_field *fl)
{
	snprintf(out, n, "%s.%s", uet_wd_layer_prefix(f->layer), fl->name);
}

static struct name *name_find(const char *ab)
{
	size_t i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i].abbrev, ab))
			return &names[i];
	return NULL;
}

static struct name *name_add(const char *ab, unsigned int kind)
{
	struct name *n = name_find(ab);

	if (n || nnames == MAX_NAMES)
		return n;
	n = &names[nnames++];
	snprintf(n->abbrev, sizeof(n->abbrev), "%s", ab);
	n->kind = kind;
	return n;
}

/* The same names, in the same order, as wire/uet_wire_lua.c. */
static void names_init(void)
{
	const struct uet_wd_fmt *f;
	unsigned int wp, id;
	char ab[64];
	size_t i;

	name_add("frame.number", UET_WD_UINT);
	for (wp = 0; wp < UET_WIRE_NPROF; wp++)
		for (id = 1; id < UET_WD_NFMT; id++) {
			f = uet_wd_fmt(wp, id);
			for (i = 0; i < f->n; i++) {
				if (f->f[i].kind == UET_WD_RSVD)
					continue;
				abbrev_of(ab, sizeof(ab), f, &f->f[i]);
				name_add(ab, f->f[i].kind == UET_WD_SINT ?
					 UET_WD_UINT : f->f[i].kind);
			}
		}
	name_add("uet.payload_len", UET_WD_UINT);
}

static void val_append(struct name *n, const char *s)
{
	size_t l = strlen(n->vals);

	if (l && l + 1 < sizeof(n->vals))
		n->vals[l++] = ',';
	snprintf(n->vals + l, sizeof(n->vals) - l, "%s", s);
}

static void put_uint(const char *ab, uint64_t v)
{
	char s[32];

	snprintf(s, sizeof(s), "%" PRIu64, v);
	val_append(name_find(ab), s);
}

/* Every field of format fmt: host members of hs, the wire hdr for the
 * conditions (and for the fields the codec has no member for). */
static void put_fmt(enum uet_wire_prof wp, unsigned int id, const void *hs,
		    const uint8_t *hdr)
{
	const struct uet_wd_fmt *f = uet_wd_fmt(wp, id);
	const struct uet_wd_field *fl;
	char ab[64], s[64];
	struct name *n;
	uint64_t v;
	size_t i, k;

	for (i = 0; i < f->n; i++) {
		fl = &f->f[i];
		if (fl->kind == UET_WD_RSVD || !uet_wd_present(fl, hdr))
			continue;
		abbrev_of(ab, sizeof(ab), f, fl);
		n = name_find(ab);
		if (fl->kind == UET_WD_BYTES) {
			for (k = 0; k < fl->len && 2 * k + 2 < sizeof(s); k++)
				snprintf(s + 2 * k, 3, "%02x",
					 ((const uint8_t *)hs)[fl->moff + k]);
			val_append(n, s);
			continue;
		}
		if (!uet_wd_host_value(wp, fl, hs, &v))
			v = uet_wd_wire_value(fl, hdr);	/* no member */
		if (fl->kind == UET_WD_SINT)
			snprintf(s, sizeof(s), "%" PRId64, (int64_t)v);
		else
			snprintf(s, sizeof(s), "%" PRIu64, v);
		val_append(n, s);
	}
}

/* enum uet_ses_fmt -> the description's id. */
static unsigned int ses_id(int fmt)
{
	switch (fmt) {
	case UET_SES_FMT_STD_SOM1: return UET_WD_STD_SOM1;
	case UET_SES_FMT_STD_SOM0: return UET_WD_STD_SOM0;
	case UET_SES_FMT_SMALL_MSG: return UET_WD_SMALL_MSG;
	case UET_SES_FMT_OPT_NONMATCH: return UET_WD_OPT_NONMATCH;
	case UET_SES_FMT_DEFER_SEND: return UET_WD_DEFER_SEND;
	case UET_SES_FMT_RTR: return UET_WD_RTR;
	case UET_SES_FMT_RSP: return UET_WD_RSP;
	case UET_SES_FMT_RSP_DATA: return UET_WD_RSP_DATA;
	case UET_SES_FMT_OPT_RSP_DATA: return UET_WD_OPT_RSP_DATA;
	case UET_SES_FMT_DEFAULT_RSP: return UET_WD_DEFAULT_SES_RSP;
	default: return UET_WD_NONE;
	}
}

static unsigned long nerr;

/* One header: decode, print; its length, or 0 after a reported error. */
static size_t one(enum uet_wire_prof wp, unsigned int id, uint64_t frame,
		  const uint8_t *b, size_t len)
{
	union hdr h;
	ssize_t n = wd_decode(wp, id, &h, b, len);

	if (n <= 0) {
		fprintf(stderr, "frame %" PRIu64 ": %s: %s\n", frame,
			uet_wd_fmt(wp, id)->name, uet_wire_strerror(n));
		nerr++;
		return 0;
	}
	put_fmt(wp, id, &h, b);
	return (size_t)n;
}

static void datagram(enum uet_wire_prof wp, uint64_t frame, const uint8_t *b,
		     size_t len)
{
	unsigned int id, xid;
	size_t off, n, i;
	int type, sf;

	for (i = 0; i < nnames; i++)
		names[i].vals[0] = '\0';
	put_uint("frame.number", frame);
	type = uet_pds_peek_type(b, len);
	if (type == UET_PDS_TYPE_TSS) {
		off = one(wp, UET_WD_TSS_PROLOGUE, frame, b, len);
		n = off ? one(wp, UET_WD_TSS_HDR, frame, b + off, len - off) : 0;
		if (n && (b[off] & UET_TSS_FLAG_DCI))
			(void)one(wp, UET_WD_TSS_DCI, frame, b + off + n,
				  len - off - n);
		goto print;
	}
	id = type < 0 ? UET_WD_NONE : uet_wd_pds_fmt(wp, (unsigned int)type);
	if (id == UET_WD_NONE) {
		fprintf(stderr, "frame %" PRIu64 ": PDS type %d\n", frame, type);
		nerr++;
		goto print;
	}
	off = one(wp, id, frame, b, len);
	if (!off)
		goto print;
	if (id != UET_WD_CP && (b[0] & 0x07) << 1 | b[1] >> 7) {
		unsigned int nh = (unsigned int)((b[0] & 0x07) << 1 | b[1] >> 7);

		sf = uet_ses_request_format(wp, nh, b + off, len - off);
		id = sf > 0 ? ses_id(sf) : UET_WD_NONE;
		if (id == UET_WD_NONE) {
			fprintf(stderr, "frame %" PRIu64 ": next_hdr %u: %s\n",
				frame, nh, uet_wire_strerror(sf));
			nerr++;
			goto print;
		}
		n = one(wp, id, frame, b + off, len - off);
		if (!n)
			goto print;
		xid = uet_wd_ext_fmt(wp, id, b + off, len - off);
		off += n;
		if (xid != UET_WD_NONE) {
			n = one(wp, xid, frame, b + off, len - off);
			if (!n)
				goto print;
			off += n;
		}
	}
	put_uint("uet.payload_len", len - off);
print:
	for (i = 0; i < nnames; i++)
		printf("%s%s", i ? "\t" : "", names[i].vals);
	printf("\n");
}

struct run {
	enum uet_wire_prof wp;
};

static void on_datagram(void *arg, uint64_t frame, const uint8_t *u,
			size_t len)
{
	const struct run *r = arg;

	datagram(r->wp, frame, u, len);
}

int main(int argc, char **argv)
{
	enum uet_wire_prof wp = UET_WIRE_UEPLUS;
	unsigned int port = UET_UDP_PORT, span = UET_WD_ENTROPY_SPAN;
	const char *path = NULL;
	struct run run;
	int i, p;

	names_init();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fields")) {
			for (size_t k = 0; k < nnames; k++)
				printf("%s\n", names[k].abbrev);
			return 0;
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			p = uet_wire_prof_parse(argv[++i]);
			if (p < 0) {
				fprintf(stderr, "unknown profile %s\n", argv[i]);
				return 1;
			}
			wp = (enum uet_wire_prof)p;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			port = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			span = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "usage: %s [-w ueplus|ue] [-p port] [-s span] "
			"FILE.pcap | --fields\n", argv[0]);
		return 1;
	}
	run.wp = wp;
	if (uet_pcap_read(path, port, span, on_datagram, &run))
		return 1;
	return nerr ? 2 : 0;
}
