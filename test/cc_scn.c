/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion scenarios on the simulated fabric; see cc_scn.h.
 *
 * The driver jumps from event to event: the next packet arrival in the
 * fabric or the next PDS deadline, whichever is first; at each step every
 * PDS polls its link (receive, timers) and every flow refills its window
 * (uet_pds_send until -EAGAIN: the PDS window or the congestion window).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cc_scn.h"
#include "uet_byteorder.h"
#include "uet_link_sim.h"
#include "uet_pds.h"
#include "uet_wire_consts.h"

#define SCN_PLEN	4096u
#define SCN_SHDR	8u
#define SCN_MAGIC	0xcc5ca1e5u
#define SCN_POOL	512u
#define SCN_MTU		9000u
#define SCN_MAX_HOSTS	(2 * CC_SCN_MAX_FLOWS)
#define SCN_US		1000ull

struct scn_pkt {
	struct uet_pds_tx_pkt p;
	struct scn_flow *flow;
	struct scn_pkt *next_free;
};

struct scn_flow {
	unsigned int id;
	int src, dst;			/* host indices */
	struct uet_pds_key key;
	struct scn_pkt *pkts;
	struct scn_pkt *free;
	uint64_t sent, done, rx;
	uint64_t rx_mark;		/* rx at the start of the Jain window */
	uint64_t rx_sample;		/* rx at the previous sample */
	int errors;
};

struct scn_world {
	const struct cc_scn_cfg *cfg;
	struct uet_link_sim *sim;
	unsigned int nhosts;
	struct uet_link *link[SCN_MAX_HOSTS];
	struct uet_pds *pds[SCN_MAX_HOSTS];
	struct uet_link_addr addr[SCN_MAX_HOSTS];
	unsigned int nflows;
	struct scn_flow flow[CC_SCN_MAX_FLOWS];
	int bottleneck;			/* port number */
	int nic[SCN_MAX_HOSTS];		/* host h -> its switch */
	int up[CC_SCN_MAX_SPINES];	/* leaf 0 -> spine s */
	uint64_t now;
};

static uint8_t scn_payload[SCN_PLEN];

void cc_scn_defaults(struct cc_scn_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->topo = CC_SCN_STAR;
	c->nsend = 8;
	c->nrecv = 1;
	c->nspine = 4;
	c->rate_bps = 100000000000ull;
	c->delay_ns = 1000;
	c->queue_bytes = 1u << 20;
	c->ecn_bytes = 0;
	c->bytes_per_flow = 2u << 20;
	c->seed = 1;
}

double cc_scn_jain(const double *x, unsigned int n)
{
	double s = 0, s2 = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 1.0;
}

/* ---- upcalls ---- */

static int scn_rx(void *ctx, const struct uet_pds_rx_info *info,
		  struct uet_pds_rsp *rsp)
{
	struct scn_world *w = ctx;
	uint32_t id;

	(void)rsp;
	if (info->ses_len < SCN_SHDR || uet_get_be32(info->ses) != SCN_MAGIC)
		return -EINVAL;
	id = uet_get_be32(info->ses + 4);
	if (id >= w->nflows)
		return -EINVAL;
	w->flow[id].rx += info->ses_len - SCN_SHDR;
	return 0;
}

static void scn_tx_done(void *ctx, struct uet_pds_tx_pkt *pkt, int status,
			uint8_t rsp_nh, const uint8_t *rsp, size_t rsp_len)
{
	struct scn_pkt *sp = pkt->ctx;
	struct scn_flow *f = sp->flow;

	(void)ctx;
	(void)rsp_nh;
	(void)rsp;
	(void)rsp_len;
	if (status)
		f->errors++;
	else
		f->done += pkt->iov[0].iov_len;
	sp->next_free = f->free;
	f->free = sp;
}

static const struct uet_pds_upcalls scn_upcalls = {
	.rx = scn_rx,
	.tx_done = scn_tx_done,
};

/* ---- set-up ---- */

static uint64_t scn_ser_ns(const struct cc_scn_cfg *c, uint64_t bytes)
{
	return bytes * 8 * 1000000000ull / c->rate_bps;
}

static int scn_host(struct scn_world *w, int *node)
{
	unsigned int h = w->nhosts;

	if (h >= SCN_MAX_HOSTS)
		return -EINVAL;
	*node = uet_link_sim_add_host(w->sim, (uint16_t)(1000 + h),
				      &w->link[h]);
	if (*node < 0)
		return *node;
	(void)uet_link_addr_from_str(&w->addr[h], "127.0.0.1",
				     (uint16_t)(1000 + h));
	w->nhosts++;
	return 0;
}

static int scn_topology(struct scn_world *w)
{
	const struct cc_scn_cfg *c = w->cfg;
	struct uet_link_sim_port_cfg nic, sw;
	int node, sw0, leaf[2], spine, ret;
	unsigned int i;

	memset(&nic, 0, sizeof(nic));
	nic.rate_bps = c->rate_bps;
	nic.delay_ns = c->delay_ns;
	nic.queue_bytes = 256u << 10;	/* the NIC's own queue: back-pressure */
	sw = nic;
	sw.queue_bytes = c->queue_bytes;
	sw.ecn_bytes = c->ecn_bytes;
	sw.trim = c->trim;
	if (c->topo == CC_SCN_STAR) {
		sw0 = uet_link_sim_add_switch(w->sim);
		for (i = 0; i < c->nsend + c->nrecv; i++) {
			ret = scn_host(w, &node);
			if (ret)
				return ret;
			ret = uet_link_sim_connect(w->sim, node, sw0, &nic, &sw);
			if (ret < 0)
				return ret;
			w->nic[i] = ret;
			if (i == c->nsend)
				w->bottleneck = ret ^ 1;
		}
		return 0;
	}
	if (c->nspine == 0 || c->nspine > CC_SCN_MAX_SPINES)
		return -EINVAL;
	leaf[0] = uet_link_sim_add_switch(w->sim);
	leaf[1] = uet_link_sim_add_switch(w->sim);
	for (i = 0; i < c->nsend + c->nrecv; i++) {
		ret = scn_host(w, &node);
		if (ret)
			return ret;
		ret = uet_link_sim_connect(w->sim, node,
					   leaf[i < c->nsend ? 0 : 1], &nic,
					   &sw);
		if (ret < 0)
			return ret;
		w->nic[i] = ret;
	}
	for (i = 0; i < c->nspine; i++) {
		spine = uet_link_sim_add_switch(w->sim);
		w->up[i] = uet_link_sim_connect(w->sim, leaf[0], spine, &sw,
						&sw);
		if (w->up[i] < 0)
			return w->up[i];
		ret = uet_link_sim_connect(w->sim, spine, leaf[1], &sw, &sw);
		if (ret < 0)
			return ret;
	}
	w->bottleneck = w->up[0];
	return 0;
}

static int scn_pds(struct scn_world *w)
{
	const struct cc_scn_cfg *c = w->cfg;
	unsigned int h, hops = c->topo == CC_SCN_STAR ? 2 : 4;
	struct uet_pds_cfg pc;
	int ret;

	for (h = 0; h < w->nhosts; h++) {
		uet_pds_cfg_default(&pc);
		pc.seed = c->seed * 1000 + h + 1;
		pc.ack_coalesce = 2;
		pc.ack_delay_ns = 2 * SCN_US;
		pc.cc = h < c->nsend ? c->cc_send : c->cc_recv;
		pc.cc_rate_bps = c->rate_bps;
		/* Unloaded RTT: the hops both ways, a data packet's and an
		 * ACK's serialisation at each. */
		pc.cc_base_rtt_ns = 2 * hops * c->delay_ns +
				    hops * scn_ser_ns(c, SCN_PLEN + 64) +
				    hops * scn_ser_ns(c, 64);
		pc.cc_entropies = c->entropies;
		pc.cc_pace = c->pace;
		ret = uet_pds_create(&w->pds[h], &pc, w->link[h], &scn_upcalls,
				     w);
		if (ret)
			return ret;
	}
	return 0;
}

static int scn_flows(struct scn_world *w)
{
	const struct cc_scn_cfg *c = w->cfg;
	struct scn_flow *f;
	unsigned int i, k;

	w->nflows = c->outcast ? c->nrecv : c->nsend;
	if (w->nflows > CC_SCN_MAX_FLOWS)
		return -EINVAL;
	for (i = 0; i < w->nflows; i++) {
		f = &w->flow[i];
		f->id = i;
		f->src = c->outcast ? 0 : (int)i;
		f->dst = (int)(c->nsend + i % c->nrecv);
		f->key.job_id = 1;
		f->key.dst = w->addr[f->dst];
		f->key.mode = UET_PDS_MODE_RUD;
		f->pkts = calloc(SCN_POOL, sizeof(*f->pkts));
		if (!f->pkts)
			return -ENOMEM;
		for (k = 0; k < SCN_POOL; k++) {
			struct scn_pkt *sp = &f->pkts[k];

			sp->flow = f;
			sp->p.next_hdr = UET_HDR_REQUEST_STD;
			sp->p.hdr_len = SCN_SHDR;
			uet_put_be32(sp->p.hdr, SCN_MAGIC);
			uet_put_be32(sp->p.hdr + 4, i);
			sp->p.iovcnt = 1;
			sp->p.iov[0].iov_base = scn_payload;
			sp->p.ctx = sp;
			sp->next_free = f->free;
			f->free = sp;
		}
	}
	return 0;
}

static void scn_free(struct scn_world *w)
{
	unsigned int i;

	for (i = 0; i < w->nhosts; i++)
		uet_pds_destroy(w->pds[i]);
	uet_link_sim_destroy(w->sim);
	for (i = 0; i < w->nflows; i++)
		free(w->flow[i].pkts);
}

/* ---- the run ---- */

static void scn_pump(struct scn_world *w)
{
	const struct cc_scn_cfg *c = w->cfg;
	struct scn_flow *f;
	struct scn_pkt *sp;
	unsigned int i;
	uint64_t len;
	int ret;

	for (i = 0; i < w->nflows; i++) {
		f = &w->flow[i];
		while (f->sent < c->bytes_per_flow && (sp = f->free)) {
			len = c->bytes_per_flow - f->sent;
			sp->p.iov[0].iov_len = len < SCN_PLEN ? len : SCN_PLEN;
			f->free = sp->next_free;
			ret = uet_pds_send(w->pds[f->src], &f->key, &sp->p,
					   w->now);
			if (ret) {
				sp->next_free = f->free;
				f->free = sp;
				if (ret != -EAGAIN)
					f->errors++;
				break;
			}
			f->sent += sp->p.iov[0].iov_len;
		}
	}
}

static bool scn_done(const struct scn_world *w)
{
	unsigned int i;

	for (i = 0; i < w->nflows; i++)
		if (w->flow[i].done < w->cfg->bytes_per_flow ||
		    w->flow[i].errors)
			return false;
	return true;
}

static void scn_sample(struct scn_world *w, uint64_t t0, uint64_t period)
{
	const struct cc_scn_cfg *c = w->cfg;
	struct uet_link_sim_port_stats st;
	struct uet_pds_cc_info ci;
	struct scn_flow *f;
	unsigned int i;

	(void)uet_link_sim_port_get_stats(w->sim, w->bottleneck, &st);
	fprintf(c->csv, "%.1f,%.1f", (double)(w->now - t0) / 1000.0,
		(double)st.qbytes / 1024.0);
	for (i = 0; i < w->nflows; i++) {
		f = &w->flow[i];
		if (uet_pds_get_cc_info(w->pds[f->src], &w->addr[f->dst], &ci))
			ci.cwnd = 0;
		fprintf(c->csv, ",%.1f,%.2f", (double)ci.cwnd / 1024.0,
			(double)(f->rx - f->rx_sample) * 8.0 / (double)period);
		f->rx_sample = f->rx;
	}
	if (c->topo == CC_SCN_LEAF_SPINE) {
		for (i = 0; i < c->nspine; i++) {
			(void)uet_link_sim_port_get_stats(w->sim, w->up[i],
							  &st);
			fprintf(c->csv, ",%llu",
				(unsigned long long)st.tx_bytes);
		}
	}
	fputc('\n', c->csv);
}

static void scn_csv_header(const struct scn_world *w)
{
	const struct cc_scn_cfg *c = w->cfg;
	unsigned int i;

	fprintf(c->csv, "t_us,queue_kib");
	for (i = 0; i < w->nflows; i++)
		fprintf(c->csv, ",cwnd%u_kib,gbps%u", i, i);
	if (c->topo == CC_SCN_LEAF_SPINE)
		for (i = 0; i < c->nspine; i++)
			fprintf(c->csv, ",spine%u_bytes", i);
	fputc('\n', c->csv);
}

static void scn_spines(const struct scn_world *w, uint64_t *out)
{
	struct uet_link_sim_port_stats st;
	unsigned int i;

	for (i = 0; i < w->cfg->nspine && i < CC_SCN_MAX_SPINES; i++) {
		(void)uet_link_sim_port_get_stats(w->sim, w->up[i], &st);
		out[i] = st.tx_bytes;
	}
}

/* Expected duration at full use of the bottleneck (for the windows). */
static uint64_t scn_expected_ns(const struct cc_scn_cfg *c)
{
	uint64_t total = c->bytes_per_flow *
			 (c->outcast ? c->nrecv : c->nsend);
	unsigned int par = 1;

	if (c->topo == CC_SCN_LEAF_SPINE)
		par = c->nsend < c->nspine ? c->nsend : c->nspine;
	else if (!c->outcast)
		par = c->nrecv < c->nsend ? c->nrecv : c->nsend;
	return scn_ser_ns(c, total) / par;
}

static void scn_port_totals(struct scn_world *w, struct cc_scn_res *r)
{
	struct uet_link_sim_port_stats st;
	int p;

	for (p = 0; uet_link_sim_port_get_stats(w->sim, p, &st) == 0; p++) {
		r->drops += st.drops;
		r->trims += st.trims;
		r->marks += st.marks;
	}
}

int cc_scn_run(const struct cc_scn_cfg *c, struct cc_scn_res *r)
{
	struct scn_world *w;
	uint64_t t0, next, d, limit, period, next_sample, exp_ns;
	uint64_t t_steady, t_j0, t_j1, snap[5][CC_SCN_MAX_SPINES];
	struct uet_link_sim_port_stats st;
	struct uet_pds_stats ps;
	bool steady = false, j0 = false, j1 = false, deg = false;
	bool rec = false;
	double x[CC_SCN_MAX_FLOWS];
	unsigned int i, k, nsnap = 0;
	uint64_t snap_at[4];
	int ret;

	memset(r, 0, sizeof(*r));
	if (!c || !c->nsend || !c->nrecv || !c->rate_bps ||
	    c->nsend + c->nrecv > SCN_MAX_HOSTS)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->cfg = c;
	ret = uet_link_sim_create(&w->sim, c->seed, SCN_MTU);
	if (ret)
		goto out_free;
	ret = scn_topology(w);
	if (!ret)
		ret = scn_pds(w);
	if (!ret)
		ret = scn_flows(w);
	if (ret)
		goto out_world;
	if (c->csv)
		scn_csv_header(w);

	t0 = w->now = 1000000;
	uet_link_sim_run(w->sim, w->now);
	limit = t0 + (c->limit_ns ? c->limit_ns : 100000000ull);
	period = c->sample_ns ? c->sample_ns : 10 * SCN_US;
	next_sample = t0 + period;
	exp_ns = scn_expected_ns(c);
	t_steady = t0 + exp_ns / 5;
	t_j0 = t0 + exp_ns / 4;
	t_j1 = t0 + exp_ns * 3 / 4;
	snap_at[0] = t0 + c->degrade_at_ns;
	snap_at[1] = t0 + c->degrade_at_ns + 200 * SCN_US;
	snap_at[2] = t0 + c->recover_at_ns;
	snap_at[3] = t0 + c->recover_at_ns + 500 * SCN_US;
	memset(snap, 0, sizeof(snap));
	for (;;) {
		scn_pump(w);
		if (scn_done(w)) {
			r->complete = true;
			break;
		}
		next = uet_link_sim_next_event(w->sim);
		for (i = 0; i < w->nhosts; i++) {
			d = uet_pds_next_deadline(w->pds[i]);
			if (d < next)
				next = d;
		}
		if (next <= w->now)
			next = w->now + 1;
		if (next > next_sample && c->csv)
			next = next_sample;
		if (next >= limit)
			break;
		w->now = next;
		uet_link_sim_run(w->sim, w->now);
		for (i = 0; i < w->nhosts; i++)
			while (uet_pds_poll(w->pds[i], w->now) > 0)
				;
		if (c->csv && w->now >= next_sample) {
			scn_sample(w, t0, period);
			next_sample += period;
		}
		if (!steady && w->now >= t_steady) {
			steady = true;
			(void)uet_link_sim_port_get_stats(w->sim,
							  w->bottleneck, &st);
			r->qmax = st.qmax;
			uet_link_sim_port_reset_qmax(w->sim, w->bottleneck);
		}
		if (!j0 && w->now >= t_j0) {
			j0 = true;
			for (i = 0; i < w->nflows; i++)
				w->flow[i].rx_mark = w->flow[i].rx;
		}
		if (!j1 && w->now >= t_j1) {
			j1 = true;
			for (i = 0; i < w->nflows; i++)
				x[i] = (double)(w->flow[i].rx -
						w->flow[i].rx_mark);
			r->jain = cc_scn_jain(x, w->nflows);
		}
		if (c->topo == CC_SCN_LEAF_SPINE && c->degrade_at_ns) {
			while (nsnap < 4 && w->now >= snap_at[nsnap])
				scn_spines(w, snap[nsnap++]);
			if (!deg && w->now >= snap_at[0]) {
				struct uet_link_sim_port_cfg pc;

				memset(&pc, 0, sizeof(pc));
				pc.rate_bps = c->degrade_rate_bps ?
					      c->degrade_rate_bps : c->rate_bps;
				pc.delay_ns = c->delay_ns;
				pc.queue_bytes = c->queue_bytes;
				pc.ecn_bytes = c->ecn_bytes;
				pc.trim = c->trim;
				pc.drop_ppm = c->degrade_drop_ppm;
				(void)uet_link_sim_port_set(w->sim, w->up[0],
							    &pc);
				deg = true;
			}
			if (!rec && c->recover_at_ns &&
			    w->now >= snap_at[2]) {
				struct uet_link_sim_port_cfg pc;

				memset(&pc, 0, sizeof(pc));
				pc.rate_bps = c->rate_bps;
				pc.delay_ns = c->delay_ns;
				pc.queue_bytes = c->queue_bytes;
				pc.ecn_bytes = c->ecn_bytes;
				pc.trim = c->trim;
				(void)uet_link_sim_port_set(w->sim, w->up[0],
							    &pc);
				rec = true;
			}
		}
	}
	r->ns = w->now - t0;
	(void)uet_link_sim_port_get_stats(w->sim, w->bottleneck, &st);
	if (!steady)
		r->qmax = st.qmax;
	else if (st.qmax > r->qmax)
		r->qmax = st.qmax;
	r->qmax_steady = steady ? st.qmax : 0;
	scn_port_totals(w, r);	/* drops, trims, marks of every port */
	for (i = 0; i < c->nsend && i < w->nhosts; i++) {
		(void)uet_link_sim_port_get_stats(w->sim, w->nic[i], &st);
		if (st.qmax > r->nic_qmax)
			r->nic_qmax = st.qmax;
		if (st.burst_max > r->nic_burst)
			r->nic_burst = st.burst_max;
	}
	for (i = 0; i < w->nflows; i++) {
		r->flow_bytes[i] = w->flow[i].rx;
		r->bytes += w->flow[i].rx;
	}
	if (!j1) {
		for (i = 0; i < w->nflows; i++)
			x[i] = (double)w->flow[i].rx;
		r->jain = cc_scn_jain(x, w->nflows);
	}
	r->goodput_gbps = r->ns ? (double)r->bytes * 8.0 / (double)r->ns : 0;
	for (i = 0; i < c->nsend && i < w->nhosts; i++) {
		uet_pds_get_stats(w->pds[i], &ps);
		r->retx += ps.retx;
		r->retx_rack += ps.retx_sack;
		r->retx_rto += ps.retx_timeout;
		r->retx_nack += ps.retx_nack;
	}
	if (c->topo == CC_SCN_LEAF_SPINE) {
		scn_spines(w, r->spine_total);
		for (; nsnap < 4; nsnap++)
			memcpy(snap[nsnap], r->spine_total,
			       sizeof(r->spine_total));
		memcpy(snap[4], r->spine_total, sizeof(r->spine_total));
		for (k = 0; k < c->nspine && k < CC_SCN_MAX_SPINES; k++) {
			r->spine_bytes[0][k] = snap[0][k];
			r->spine_bytes[1][k] = snap[2][k] - snap[1][k];
			r->spine_bytes[2][k] = snap[4][k] - snap[3][k];
		}
	}
out_world:
	scn_free(w);
out_free:
	free(w);
	return ret;
}
