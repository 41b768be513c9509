/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Audit of a capture of uet's traffic against the UE 1.0.1 header sizes
 * of three independent implementations (docs/conformance.md):
 *   W  Wireshark's UET dissector (epan/dissectors/packet-uet.c)
 *   R  the UEC reference provider (uet_pkt_hdr.h)
 *   X  XDP2 (src/include/uet/pds.h, ses.h and its parse graph)
 *
 *   ue_capture_audit [-w ueplus|ue] [-p PORT] [-s SPAN] [--strict] FILE
 *
 * For every UET datagram (UDP, source or destination port within PORT ..
 * PORT + SPAN; -p 0: every UDP datagram), each header (PDS, SES,
 * extension) is decoded as uet does in profile -w (default ue: the
 * codecs, the format chosen by uet_pds_peek_type, uet_ses_request_format
 * and the wire description's extension rules); its length is compared
 * with the length each implementation would read for the same bytes,
 * from the size tables below.  Printed: per format, the datagrams
 * carrying it and how many of them uet reads at another size than W, R,
 * X and the reading two of them share; the totals per datagram; and, for
 * the points where the three disagree, how many datagrams the odd one
 * reads differently.  --strict: exit 1 when a datagram differs from the
 * two-of-three reading or uet's own decode refuses one.
 *
 * The size tables are facts read from the three (offsets and widths,
 * no code), as the brief of issue 29 records them:
 *   PDS: RUD/ROD 12, RUD_CC/ROD_CC 16, RUDI 8, UUD 4, ACK 12 (R: 16 when
 *        flag 0x40 EPSN is set), ACK_CC 32, ACK_CCX 40 (X: 32), NACK 16,
 *        NACK_CCX 32 (X: 24), control 16.
 *   SES by next_hdr: 1 small 20; 2 medium 32 (W: 33, its off-by-one);
 *        3 standard 44 (X: 32 for a rendezvous send, SOM=1, its extension
 *        at byte 32); 4 response 12; 5 response with data 20; 6 optimized
 *        response with data 12 (W: 4).
 *   Extensions: rendezvous (opcodes 0x06, 0x0a, SOM=1) 24 (X: 8);
 *        atomic after requests of opcode 0x03, 0x04 (W also 0x0e): 36 for
 *        atomic opcodes 0x0d-0x12, else 4 (R: struct sizes only, read as
 *        X's dispatch).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pcap.h"
#include "uet_wire_desc.h"
#include "wire_desc_codec.h"

enum { IW, IR, IX, NIMPL };
static const char impl_name[NIMPL] = { 'W', 'R', 'X' };

enum { SLOT_PDS, SLOT_SES, SLOT_EXT, NSLOT };

#define MAX_ROWS	64

struct row {
	char name[40];
	uint64_t n;			/* datagrams with this header */
	size_t umin, umax;		/* uet's sizes */
	uint64_t diff[NIMPL];		/* uet's size != the implementation's */
	uint64_t diff_maj;		/* != the two-of-three size */
	uint64_t no_maj;		/* all three differ */
	uint64_t odd[NIMPL];		/* this one alone differs from the two */
	size_t odd_size[NIMPL], odd_maj[NIMPL];
};

struct audit {
	enum uet_wire_prof wp;
	struct row rows[MAX_ROWS];
	size_t nrows;
	uint64_t ndg, nrefused, ntss;
	uint64_t dg_diff[NIMPL], dg_diff_maj, dg_diff_any;
	uint64_t dg_odd[NIMPL];
};

static struct row *row_of(struct audit *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nrows; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	if (a->nrows == MAX_ROWS) {
		fprintf(stderr, "too many formats\n");
		exit(1);
	}
	snprintf(a->rows[a->nrows].name, sizeof(a->rows[0].name), "%s", name);
	a->rows[a->nrows].umin = SIZE_MAX;
	return &a->rows[a->nrows++];
}

/* ---- what each implementation reads ---- */

static unsigned int nh_of(const uint8_t *b)
{
	return (unsigned int)((b[0] & 0x07) << 1 | b[1] >> 7);
}

/* PDS header size by type (ue101-layouts Part 1 and 5), 0: unknown. */
static size_t pds_size(int impl, const uint8_t *b)
{
	switch (b[0] >> 3) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		return 12;
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		return 16;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		return 8;
	case UET_PDS_TYPE_UUD_REQ:
		return 4;
	case UET_PDS_TYPE_ACK:
		return impl == IR && (b[1] & 0x40) ? 16 : 12;	/* D14 */
	case UET_PDS_TYPE_ACK_CC:
		return 32;
	case UET_PDS_TYPE_ACK_CCX:
		return impl == IX ? 32 : 40;			/* D1 */
	case UET_PDS_TYPE_NACK:
		return 16;
	case UET_PDS_TYPE_NACK_CCX:
		return impl == IX ? 24 : 32;			/* D2 */
	case UET_PDS_TYPE_CP:
		return 16;
	default:
		return 0;
	}
}

static bool rdzv_std(const uint8_t *ses)
{
	unsigned int op = ses[0] & 0x3f;

	return (op == UET_RENDEZVOUS_SEND || op == UET_RENDEZVOUS_TSEND) &&
	       (ses[1] & 0x01);
}

/* SES header size by next_hdr, 0: none. */
static size_t ses_size(int impl, unsigned int nh, const uint8_t *ses,
		       size_t len)
{
	switch (nh) {
	case UET_HDR_REQUEST_SMALL:
		return 20;
	case UET_HDR_REQUEST_MEDIUM:
		return impl == IW ? 33 : 32;			/* D11 */
	case UET_HDR_REQUEST_STD:
		if (impl == IX && len >= 2 && rdzv_std(ses))
			return 32;				/* D8 */
		return 44;
	case UET_HDR_RESPONSE:
		return 12;
	case UET_HDR_RESPONSE_DATA:
		return 20;
	case UET_HDR_RESPONSE_DATA_SMALL:
		return impl == IW ? 4 : 12;			/* D9 */
	default:
		return 0;
	}
}

/* Extension after the SES header of size sz: its size, 0 none; *name
 * its kind. */
static size_t ext_size(int impl, unsigned int nh, const uint8_t *ses,
		       size_t len, size_t sz, const char **name)
{
	unsigned int op;

	if (nh < UET_HDR_REQUEST_SMALL || nh > UET_HDR_REQUEST_STD || len < 2)
		return 0;
	op = ses[0] & 0x3f;
	if (nh == UET_HDR_REQUEST_STD && rdzv_std(ses)) {
		*name = "rdzv_ext";
		return impl == IX ? 8 : 24;			/* D6 */
	}
	if (nh == UET_HDR_REQUEST_STD && !(ses[1] & 0x01))
		return 0;
	if (op == UET_ATOMIC || op == UET_FETCHING_ATOMIC ||
	    (impl == IW && op == UET_TSEND_FETCH_ATOMIC)) {	/* D20 */
		if (len <= sz)
			return 0;
		*name = ses[sz] >= UET_AMO_CSWAP && ses[sz] <= UET_AMO_CSWAP_GT ?
			"cas_ext" : "atomic_ext";
		return ses[sz] >= UET_AMO_CSWAP && ses[sz] <= UET_AMO_CSWAP_GT ?
		       36 : 4;
	}
	return 0;
}

/* ---- one datagram ---- */

struct slot {
	const char *name;	/* NULL: absent for uet and every reading */
	size_t u;		/* uet's size, 0: absent */
	size_t s[NIMPL];	/* each implementation's, 0: absent */
};

/* The size two of the three share, or SIZE_MAX. */
static size_t majority(const size_t *s)
{
	if (s[IW] == s[IR] || s[IW] == s[IX])
		return s[IW];
	if (s[IR] == s[IX])
		return s[IR];
	return SIZE_MAX;
}

static void account(struct audit *a, const struct slot *sl)
{
	bool dimpl[NIMPL] = { false }, dmaj = false, odd[NIMPL] = { false };
	struct row *r;
	size_t maj;
	int k, i;

	for (k = 0; k < NSLOT; k++) {
		if (!sl[k].name)
			continue;
		r = row_of(a, sl[k].name);
		r->n++;
		if (sl[k].u < r->umin)
			r->umin = sl[k].u;
		if (sl[k].u > r->umax)
			r->umax = sl[k].u;
		maj = majority(sl[k].s);
		for (i = 0; i < NIMPL; i++) {
			if (sl[k].s[i] != sl[k].u) {
				r->diff[i]++;
				dimpl[i] = true;
			}
			if (maj != SIZE_MAX && sl[k].s[i] != maj) {
				r->odd[i]++;
				r->odd_size[i] = sl[k].s[i];
				r->odd_maj[i] = maj;
				odd[i] = true;
			}
		}
		if (maj == SIZE_MAX) {
			r->no_maj++;
			r->diff_maj++;
			dmaj = true;
		} else if (maj != sl[k].u) {
			r->diff_maj++;
			dmaj = true;
		}
	}
	for (i = 0; i < NIMPL; i++) {
		a->dg_diff[i] += dimpl[i];
		a->dg_odd[i] += odd[i];
	}
	a->dg_diff_maj += dmaj;
	a->dg_diff_any += dimpl[IW] || dimpl[IR] || dimpl[IX];
}

/* uet's decode of one header: its length, 0 when refused. */
static size_t uet_len(const struct audit *a, unsigned int id, uint64_t frame,
		      const uint8_t *b, size_t len)
{
	union hdr h;
	ssize_t n = wd_decode(a->wp, id, &h, b, len);

	if (n <= 0) {
		fprintf(stderr, "frame %" PRIu64 ": uet refuses %s: %s\n",
			frame, uet_wd_fmt(a->wp, id)->name,
			uet_wire_strerror(n));
		return 0;
	}
	return (size_t)n;
}

static void datagram(void *arg, uint64_t frame, const uint8_t *b, size_t len)
{
	struct audit *a = arg;
	struct slot sl[NSLOT];
	const uint8_t *ses;
	size_t off, sz, slen;
	unsigned int id, sid = UET_WD_NONE, xid, nh;
	const char *xname;
	int type, sf, i;

	memset(sl, 0, sizeof(sl));
	a->ndg++;
	type = uet_pds_peek_type(b, len);
	if (type == UET_PDS_TYPE_TSS) {
		a->ntss++;	/* uet's own framing in both profiles */
		return;
	}
	id = type < 0 ? UET_WD_NONE : uet_wd_pds_fmt(a->wp, (unsigned int)type);
	off = id == UET_WD_NONE ? 0 : uet_len(a, id, frame, b, len);
	if (!off) {
		if (id == UET_WD_NONE)
			fprintf(stderr, "frame %" PRIu64 ": PDS type %d\n",
				frame, type);
		a->nrefused++;
		return;
	}
	sl[SLOT_PDS].name = uet_pds_type_str((unsigned int)type);
	sl[SLOT_PDS].u = off;
	for (i = 0; i < NIMPL; i++)
		sl[SLOT_PDS].s[i] = pds_size(i, b);
	nh = type == UET_PDS_TYPE_CP ? UET_HDR_NONE : nh_of(b);
	ses = b + off;
	slen = len - off;
	if (nh != UET_HDR_NONE) {
		sf = uet_ses_request_format(a->wp, nh, ses, slen);
		switch (sf) {
		case UET_SES_FMT_STD_SOM1: sid = UET_WD_STD_SOM1; break;
		case UET_SES_FMT_STD_SOM0: sid = UET_WD_STD_SOM0; break;
		case UET_SES_FMT_SMALL_MSG: sid = UET_WD_SMALL_MSG; break;
		case UET_SES_FMT_OPT_NONMATCH: sid = UET_WD_OPT_NONMATCH; break;
		case UET_SES_FMT_DEFER_SEND: sid = UET_WD_DEFER_SEND; break;
		case UET_SES_FMT_RTR: sid = UET_WD_RTR; break;
		case UET_SES_FMT_RSP: sid = UET_WD_RSP; break;
		case UET_SES_FMT_RSP_DATA: sid = UET_WD_RSP_DATA; break;
		case UET_SES_FMT_OPT_RSP_DATA: sid = UET_WD_OPT_RSP_DATA; break;
		case UET_SES_FMT_DEFAULT_RSP:
			sid = UET_WD_DEFAULT_SES_RSP;
			break;
		default:
			fprintf(stderr, "frame %" PRIu64 ": next_hdr %u: %s\n",
				frame, nh, uet_wire_strerror(sf));
			a->nrefused++;
			return;
		}
		sz = uet_len(a, sid, frame, ses, slen);
		if (!sz) {
			a->nrefused++;
			return;
		}
		sl[SLOT_SES].name = uet_wd_fmt(a->wp, sid)->name;
		sl[SLOT_SES].u = sz;
		for (i = 0; i < NIMPL; i++)
			sl[SLOT_SES].s[i] = ses_size(i, nh, ses, slen);
		xid = uet_wd_ext_fmt(a->wp, sid, ses, slen);
		if (xid != UET_WD_NONE) {
			sl[SLOT_EXT].u = uet_len(a, xid, frame, ses + sz,
						 slen - sz);
			if (!sl[SLOT_EXT].u) {
				a->nrefused++;
				return;
			}
			sl[SLOT_EXT].name = uet_wd_fmt(a->wp, xid)->name;
		}
		for (i = 0; i < NIMPL; i++) {
			xname = NULL;
			sl[SLOT_EXT].s[i] = ext_size(i, nh, ses, slen,
						     sl[SLOT_SES].s[i],
						     &xname);
			if (!sl[SLOT_EXT].name && xname)
				sl[SLOT_EXT].name = xname;
		}
	}
	account(a, sl);
}

/* ---- report ---- */

static void print(const struct audit *a)
{
	const struct row *r;
	size_t i;
	int k;

	printf("profile %s: %" PRIu64 " UET datagrams, %" PRIu64
	       " refused by uet's decode, %" PRIu64 " TSS (not audited)\n",
	       uet_wire_prof_str(a->wp), a->ndg, a->nrefused, a->ntss);
	printf("%-16s %10s %9s %9s %9s %9s %9s\n", "format", "datagrams",
	       "uet size", "!=W", "!=R", "!=X", "!=2of3");
	for (i = 0; i < a->nrows; i++) {
		char sz[16];

		r = &a->rows[i];
		if (r->umin == r->umax)
			snprintf(sz, sizeof(sz), "%zu", r->umin);
		else
			snprintf(sz, sizeof(sz), "%zu-%zu", r->umin, r->umax);
		printf("%-16s %10" PRIu64 " %9s %9" PRIu64 " %9" PRIu64
		       " %9" PRIu64 " %9" PRIu64 "\n", r->name, r->n, sz,
		       r->diff[IW], r->diff[IR], r->diff[IX], r->diff_maj);
	}
	printf("%-16s %10" PRIu64 " %9s %9" PRIu64 " %9" PRIu64 " %9" PRIu64
	       " %9" PRIu64 "\n", "TOTAL datagrams",
	       a->ndg - a->nrefused - a->ntss, "", a->dg_diff[IW],
	       a->dg_diff[IR], a->dg_diff[IX], a->dg_diff_maj);
	printf("datagrams with a header of another size than at least one of "
	       "W, R, X: %" PRIu64 "\n", a->dg_diff_any);
	printf("odd implementation (the other two agree; ue101 Part 5):\n");
	for (i = 0; i < a->nrows; i++) {
		r = &a->rows[i];
		for (k = 0; k < NIMPL; k++)
			if (r->odd[k])
				printf("  %c reads %-14s as %zu B, the other two"
				       " %zu B: %" PRIu64 " datagrams\n",
				       impl_name[k], r->name, r->odd_size[k],
				       r->odd_maj[k], r->odd[k]);
	}
	for (k = 0; k < NIMPL; k++)
		printf("  datagrams where %c alone differs: %" PRIu64 "\n",
		       impl_name[k], a->dg_odd[k]);
}

int main(int argc, char **argv)
{
	static struct audit a;
	unsigned int port = UET_UDP_PORT, span = UET_WD_ENTROPY_SPAN;
	const char *path = NULL;
	bool strict = false;
	int i, p;

	a.wp = UET_WIRE_UE;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			p = uet_wire_prof_parse(argv[++i]);
			if (p < 0) {
				fprintf(stderr, "unknown profile %s\n", argv[i]);
				return 1;
			}
			a.wp = (enum uet_wire_prof)p;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			port = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			span = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--strict")) {
			strict = true;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "usage: %s [-w ueplus|ue] [-p port] [-s span] "
			"[--strict] FILE.pcap\n", argv[0]);
		return 1;
	}
	if (uet_pcap_read(path, port, span, datagram, &a))
		return 1;
	print(&a);
	if (!a.ndg) {
		fprintf(stderr, "no UET datagram in %s\n", path);
		return 1;
	}
	if (strict && (a.dg_diff_maj || a.nrefused))
		return 1;
	return 0;
}
