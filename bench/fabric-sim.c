/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabric-sim: run one congestion scenario on the simulated fabric and
 * write its time series as CSV (docs/congestion.md).
 *
 *   fabric-sim SCENARIO [CC] [-o FILE.csv]
 *
 * SCENARIO: incast (8 -> 1), ecmp (4 flows over 4 spines), degraded (4
 * flows over 4 spines, spine 0 at 25% from 0.3 ms to 1 ms), outcast
 * (1 -> 4).  CC: off, nscc (default), rccc, both, spray (nscc + 16
 * entropies), nospray (nscc, one entropy per flow).
 * Columns: t_us, queue_kib (bottleneck port backlog), per flow its
 * congestion window (KiB) and goodput (Gbit/s) over the sample period,
 * and for leaf-spine scenarios the bytes sent so far on each leaf 0
 * uplink.  A summary goes to stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_scn.h"
#include "uet_pds.h"

static int usage(void)
{
	fprintf(stderr, "usage: fabric-sim incast|ecmp|degraded|outcast "
		"[off|nscc|rccc|both|spray|nospray] [-o file.csv]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *scn, *cc = "nscc", *out = NULL;
	struct cc_scn_cfg c;
	struct cc_scn_res r;
	unsigned int i;
	int a, ret;

	if (argc < 2)
		return usage();
	scn = argv[1];
	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "-o") && a + 1 < argc)
			out = argv[++a];
		else if (argv[a][0] != '-')
			cc = argv[a];
		else
			return usage();
	}
	cc_scn_defaults(&c);
	c.ecn_bytes = 64u << 10;
	if (!strcmp(scn, "incast")) {
		c.nsend = 8;
		c.nrecv = 1;
	} else if (!strcmp(scn, "outcast")) {
		c.nsend = 1;
		c.nrecv = 4;
		c.outcast = true;
	} else if (!strcmp(scn, "ecmp") || !strcmp(scn, "degraded")) {
		c.topo = CC_SCN_LEAF_SPINE;
		c.nsend = 4;
		c.nrecv = 4;
		c.nspine = 4;
		c.entropies = 16;
		c.bytes_per_flow = 8u << 20;
		if (!strcmp(scn, "degraded")) {
			c.degrade_at_ns = 300000;
			c.recover_at_ns = 1000000;
			c.degrade_rate_bps = c.rate_bps / 4;
			c.bytes_per_flow = 24u << 20;
		}
	} else {
		return usage();
	}
	if (!strcmp(cc, "off")) {
		c.cc_send = c.cc_recv = 0;
		c.entropies = 0;
	} else if (!strcmp(cc, "nscc") || !strcmp(cc, "spray")) {
		c.cc_send = c.cc_recv = UET_PDS_CC_NSCC;
		if (!strcmp(cc, "spray"))
			c.entropies = 16;
	} else if (!strcmp(cc, "nospray")) {
		c.cc_send = c.cc_recv = UET_PDS_CC_NSCC;
		c.entropies = 0;
	} else if (!strcmp(cc, "rccc")) {
		c.cc_send = c.cc_recv = UET_PDS_CC_RCCC;
	} else if (!strcmp(cc, "both")) {
		c.cc_send = c.cc_recv = UET_PDS_CC_NSCC | UET_PDS_CC_RCCC;
	} else {
		return usage();
	}
	if (out) {
		c.csv = fopen(out, "w");
		if (!c.csv) {
			perror(out);
			return 1;
		}
	}
	ret = cc_scn_run(&c, &r);
	if (c.csv)
		fclose(c.csv);
	if (ret) {
		fprintf(stderr, "fabric-sim: %s\n", strerror(-ret));
		return 1;
	}
	fprintf(stderr,
		"%s %s: complete %d, %.3f ms, goodput %.1f Gbit/s, "
		"Jain %.3f, queue max %llu KiB (steady %llu KiB), drops %llu, "
		"trims %llu, marks %llu, retx %llu (rack %llu, rto %llu, "
		"nack %llu)\n",
		scn, cc, r.complete, (double)r.ns / 1e6, r.goodput_gbps,
		r.jain, (unsigned long long)r.qmax >> 10,
		(unsigned long long)r.qmax_steady >> 10,
		(unsigned long long)r.drops, (unsigned long long)r.trims,
		(unsigned long long)r.marks, (unsigned long long)r.retx,
		(unsigned long long)r.retx_rack,
		(unsigned long long)r.retx_rto,
		(unsigned long long)r.retx_nack);
	if (c.topo == CC_SCN_LEAF_SPINE) {
		for (a = 0; a < 3; a++) {
			fprintf(stderr, "  spine bytes window %d:", a);
			for (i = 0; i < c.nspine; i++)
				fprintf(stderr, " %llu",
					(unsigned long long)
					r.spine_bytes[a][i]);
			fputc('\n', stderr);
		}
	}
	return r.complete ? 0 : 1;
}
