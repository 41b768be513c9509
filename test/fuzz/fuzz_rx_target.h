/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The target of fuzz_rx.c, shared with gen_seeds.c (which needs the same
 * memory keys to write valid seeds): one PDS + SES on a link that drops
 * what it sends, two endpoints in two JobIDs with a receive posted each,
 * four registered regions (read-write for each JobID's endpoint,
 * read-only, deregistered), every buffer between guard bytes.
 */
#ifndef FUZZ_RX_TARGET_H
#define FUZZ_RX_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pds.h"
#include "uet_ses.h"

#define MTU		4096u
#define SEC		1000000000ull
#define REG		256u
#define GUARD		64u
#define GUARD_BYTE	0xa5u
#define NREG		4u		/* rw job 1, rw job 2, ro, stale */
#define RBUF		2048u

struct fz_link {
	struct uet_link link;
	struct uet_link_addr self;
};

static int fz_send(struct uet_link *l, const struct uet_link_pkt *p,
		   unsigned int n)
{
	(void)l;
	(void)p;
	return (int)n;
}

static int fz_recv(struct uet_link *l, struct uet_link_rx *rx, unsigned int n)
{
	(void)l;
	(void)rx;
	(void)n;
	return 0;
}

static int fz_fd(struct uet_link *l)
{
	(void)l;
	return -1;
}

static size_t fz_mtu(struct uet_link *l)
{
	(void)l;
	return MTU;
}

static int fz_local(struct uet_link *l, struct uet_link_addr *a)
{
	*a = ((struct fz_link *)l)->self;
	return 0;
}

static void fz_close(struct uet_link *l)
{
	(void)l;
}

static const struct uet_link_ops fz_ops = {
	.send = fz_send, .recv = fz_recv, .fd = fz_fd, .mtu = fz_mtu,
	.local_addr = fz_local, .close = fz_close,
};

struct fz {
	struct fz_link link;
	struct uet_pds *pds;
	struct uet_ses *ses;
	struct uet_ses_ep *ep[2];
	uint8_t reg[NREG][GUARD + REG + GUARD];
	uint8_t rbuf[2][GUARD + RBUF + GUARD];
	uint64_t key[NREG];
};

static const uint32_t fz_job[2] = { 1, 2 };

static void fz_send_done(void *ctx, const struct uet_ses_send_cmpl *c)
{
	(void)ctx;
	(void)c;
}

static void fz_recv_done(void *ctx, const struct uet_ses_recv_cmpl *c)
{
	uintptr_t which = (uintptr_t)c->op_ctx;

	(void)ctx;
	if (which != 1 && which != 2)
		abort();
	if (c->status == 0 && c->len + c->olen != 0 &&
	    c->src.job_id != fz_job[which - 1])
		abort();		/* a message crossed JobIDs */
	if (c->len > RBUF)
		abort();
}

static void fz_rma_event(void *ctx, const struct uet_ses_rma_event *e)
{
	uintptr_t which = (uintptr_t)e->ep_user;

	(void)ctx;
	if ((which != 1 && which != 2) ||
	    e->src.job_id != fz_job[which - 1])
		abort();		/* an access crossed JobIDs */
}

static const struct uet_ses_upcalls fz_up = {
	.send_done = fz_send_done,
	.recv_done = fz_recv_done,
	.rma_event = fz_rma_event,
};

static bool fz_setup(struct fz *f)
{
	static const uint32_t access[NREG] = {
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
		UET_SES_ACC_REMOTE_READ,
		UET_SES_ACC_REMOTE_READ | UET_SES_ACC_REMOTE_WRITE,
	};
	struct uet_ses_recv_req rr;
	struct uet_ses_mr_attr a;
	struct uet_pds_cfg pc;
	struct uet_ses_cfg sc;
	struct iovec iov;
	unsigned int i;

	memset(f, 0, sizeof(*f));
	memset(f->reg, GUARD_BYTE, sizeof(f->reg));
	memset(f->rbuf, GUARD_BYTE, sizeof(f->rbuf));
	f->link.link.ops = &fz_ops;
	if (uet_link_addr_from_str(&f->link.self, "127.0.0.1", 4793))
		return false;
	uet_pds_cfg_default(&pc);
	pc.seed = 7;
	pc.fixed_start_psn = true;
	pc.start_psn = 1000;
	uet_ses_cfg_default(&sc);
	sc.mtu = MTU;
	sc.key_seed = 7;
	if (uet_pds_create(&f->pds, &pc, &f->link.link, NULL, NULL))
		return false;
	if (uet_ses_create(&f->ses, &sc, f->pds, &fz_up, f))
		return false;
	for (i = 0; i < 2; i++) {
		if (uet_ses_ep_open(f->ses, fz_job[i], 0, 0, &f->ep[i]))
			return false;
		uet_ses_ep_set_user(f->ep[i], (void *)(uintptr_t)(i + 1));
		memset(&rr, 0, sizeof(rr));
		iov.iov_base = f->rbuf[i] + GUARD;
		iov.iov_len = RBUF;
		rr.ep = f->ep[i];
		rr.iov = &iov;
		rr.iovcnt = 1;
		rr.op_ctx = (void *)(uintptr_t)(i + 1);
		if (uet_ses_recv(f->ses, &rr, 0))
			return false;
	}
	for (i = 0; i < NREG; i++) {
		memset(&a, 0, sizeof(a));
		a.addr = f->reg[i] + GUARD;
		a.len = REG;
		a.access = access[i];
		if (uet_ses_mr_reg(f->ses, &a, &f->key[i]))
			return false;
	}
	/* The last one goes: its key is stale from now on. */
	return uet_ses_mr_dereg(f->ses, f->key[NREG - 1]) == 0;
}

static void fz_check(const struct fz *f)
{
	unsigned int i, k;

	for (i = 0; i < NREG; i++) {
		for (k = 0; k < GUARD; k++)
			if (f->reg[i][k] != GUARD_BYTE ||
			    f->reg[i][GUARD + REG + k] != GUARD_BYTE)
				abort();	/* outside a region */
		if (i >= 2)
			for (k = 0; k < REG; k++)
				if (f->reg[i][GUARD + k] != GUARD_BYTE)
					abort();	/* ro / stale written */
	}
	for (i = 0; i < 2; i++)
		for (k = 0; k < GUARD; k++)
			if (f->rbuf[i][k] != GUARD_BYTE ||
			    f->rbuf[i][GUARD + RBUF + k] != GUARD_BYTE)
				abort();	/* outside a receive */
}

#endif /* FUZZ_RX_TARGET_H */
