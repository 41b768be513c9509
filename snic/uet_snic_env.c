/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The software NIC's FI_UET_* variables (docs/environment.md) and its
 * configuration defaults.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_clock.h"
#include "uet_env.h"
#include "uet_log.h"
#include "uet_snic_internal.h"

/* Eager is faster than a pull up to a few MiB on loopback (measured:
 * docs/performance.md); unexp_max bounds what eager messages buffer. */
#define UET_SNIC_DEFAULT_RDZV		(2ull * 1024 * 1024)
#define UET_SNIC_DEFAULT_UNEXP_BYTES	(64ull * 1024 * 1024)
#define UET_SNIC_DEFAULT_UNEXP_MSGS	4096u
/* A rank of an oversubscribed job may not run for seconds: 30 s of
 * silence, not 2, before a peer is declared unreachable. */
#define UET_SNIC_DEFAULT_DEAD_MS	30000u
/* Above the provider's wait slice (UET_WAIT_SLICE_MS, 10 ms): an
 * application sleeping in fi_cq_sread is never taken for idle. */
#define UET_SNIC_DEFAULT_STANDBY_MS	50u
/* FI_UET_RTO_MIN_US at most the default rto_max */
#define UET_SNIC_RTO_MIN_US_MAX		500000u
/* FI_UET_TSS default (docs/tss.md: the measurement behind it). */
#define UET_SNIC_DEFAULT_TSS		UET_TSS_OFF

static const struct uet_env_enum snic_delivery_names[] = {
	{ "rud", UET_PDS_MODE_RUD },
	{ "rod", UET_PDS_MODE_ROD },
	{ NULL, 0 },
};

static const struct uet_env_enum snic_cc_names[] = {
	{ "off", 0 },
	{ "nscc", UET_PDS_CC_NSCC },
	{ "rccc", UET_PDS_CC_RCCC },
	{ "both", UET_PDS_CC_NSCC | UET_PDS_CC_RCCC },
	{ NULL, 0 },
};

/* Congestion management defaults (docs/congestion.md). */
#define UET_SNIC_DEFAULT_CC		UET_PDS_CC_NSCC
#define UET_SNIC_DEFAULT_CC_RTT_US	20u

static const struct uet_env_var snic_env_mtu =
	UET_ENV_SIZE_VAR("mtu", 0, 0, 65527,
			 "Largest UDP payload of the software NIC; 0 takes "
			 "the interface MTU minus the IP and UDP headers");
static const struct uet_env_var snic_env_port =
	UET_ENV_UINT_VAR("port", 0, 0, 65535,
			 "UDP port of the software NIC; 0 takes 4793, or an "
			 "ephemeral port when 4793 is in use");
static const struct uet_env_var snic_env_rdzv =
	UET_ENV_SIZE_VAR("rdzv_threshold", UET_SNIC_DEFAULT_RDZV, 0,
			 1ull << 32,
			 "Messages larger than this use the rendezvous "
			 "protocol (the target pulls the data)");
static const struct uet_env_var snic_env_unexp_max =
	UET_ENV_SIZE_VAR("unexp_max", UET_SNIC_DEFAULT_UNEXP_BYTES, 0,
			 1ull << 40,
			 "Bytes of unexpected messages buffered per NIC; "
			 "beyond it senders are told to retry");
static const struct uet_env_var snic_env_unexp_msgs =
	UET_ENV_UINT_VAR("unexp_msgs", UET_SNIC_DEFAULT_UNEXP_MSGS, 0,
			 1u << 24,
			 "Unexpected messages buffered per NIC; beyond it "
			 "senders are told to retry");
static const struct uet_env_var snic_env_delivery =
	UET_ENV_ENUM_VAR("delivery", UET_PDS_MODE_RUD, snic_delivery_names,
			 "Delivery mode of messages: rud (reliable, "
			 "unordered packets) or rod (reliable, ordered)");
static const struct uet_env_var snic_env_rto_min_us =
	UET_ENV_UINT_VAR("rto_min_us", 1000, 1, UET_SNIC_RTO_MIN_US_MAX,
			 "Smallest retransmission timeout of the software "
			 "NIC, in microseconds");
static const struct uet_env_var snic_env_max_retries =
	UET_ENV_UINT_VAR("max_retries", 12, 1, 1000,
			 "Retransmission rounds without a sign of life from "
			 "the peer (and FI_UET_DEAD_MS of silence) before it "
			 "is declared unreachable");
static const struct uet_env_var snic_env_dead_ms =
	UET_ENV_UINT_VAR("dead_ms", UET_SNIC_DEFAULT_DEAD_MS, 1, 3600000,
			 "Silence of a peer, in milliseconds, before its "
			 "unacknowledged operations fail (with "
			 "FI_UET_MAX_RETRIES rounds)");
static const struct uet_env_var snic_env_unreach_ms =
	UET_ENV_UINT_VAR("unreach_ms", 1000, 0, 3600000,
			 "After an ICMP unreachable report for a peer (its "
			 "process is gone), milliseconds of further silence "
			 "before its operations fail (the peer is probed at "
			 "once); 0 ignores the reports");
static const struct uet_env_var snic_env_standby_ms =
	UET_ENV_UINT_VAR("standby_ms", UET_SNIC_DEFAULT_STANDBY_MS, 0, 60000,
			 "Under manual progress, milliseconds without a "
			 "progress call or command after which the software "
			 "NIC answers its peers itself (ACKs, "
			 "retransmissions, responses) from a thread that "
			 "sleeps in epoll, until the application calls again; "
			 "0: only the application's calls progress");
static const struct uet_env_var snic_env_loss_ppm =
	UET_ENV_UINT_VAR("loss_ppm", 0, 0, 1000000,
			 "Testing knob: parts per million of received "
			 "datagrams the software NIC's UDP link drops at "
			 "random (0: none)");

static const struct uet_env_var snic_env_cc =
	UET_ENV_ENUM_VAR("cc", UET_SNIC_DEFAULT_CC, snic_cc_names,
			 "Congestion management: nscc (sender window on ECN "
			 "marks, delay, trims and loss), rccc (receiver "
			 "credits; needs FI_UET_CC_MBPS), both, or off");
static const struct uet_env_var snic_env_cc_mbps =
	UET_ENV_UINT_VAR("cc_mbps", 0, 0, 100000000,
			 "Port rate in Mbit/s for congestion management "
			 "(NSCC window bound, RCCC credits); 0: unknown");
static const struct uet_env_var snic_env_cc_rtt_us =
	UET_ENV_UINT_VAR("cc_rtt_us", UET_SNIC_DEFAULT_CC_RTT_US, 1, 1000000,
			 "Unloaded round-trip time of the fabric in "
			 "microseconds (NSCC target delay, BDP)");
static const struct uet_env_var snic_env_cc_entropies =
	UET_ENV_UINT_VAR("cc_entropies", 1, 1, 64,
			 "Entropies a PDC sprays its packets over (1: one "
			 "path per PDC)");
static const struct uet_env_var snic_env_cc_pace =
	UET_ENV_BOOL_VAR("cc_pace", false,
			 "Pace NSCC sends at cwnd / srtt in bursts of at most "
			 "cwnd / 8 (needs FI_UET_CC_MBPS)");
static const struct uet_env_var snic_env_cc_csig =
	UET_ENV_BOOL_VAR("cc_csig", false,
			 "Carry the sender's CC state (CSIG) in requests "
			 "with 16 bytes of room (RUD_CC / ROD_CC)");

/* The link under the NIC (snic/uet_link_xdp.h, docs/software-nic.md). */
static const struct uet_env_enum snic_link_names[] = {
	{ "udp", UET_SNIC_LINK_UDP },
	{ "xdp", UET_SNIC_LINK_XDP },
	{ "auto", UET_SNIC_LINK_AUTO },
	{ NULL, 0 },
};

static const struct uet_env_var snic_env_link =
	UET_ENV_ENUM_VAR("link", UET_SNIC_LINK_UDP, snic_link_names,
			 "Link of the software NIC: udp (a UDP socket, "
			 "default); xdp (AF_XDP sockets fed by an XDP "
			 "program on the interface of the NIC's address, "
			 "UDP with a warning when it cannot attach); auto "
			 "(AF_XDP where it can attach, else UDP, said at "
			 "info level)");

static const struct uet_env_var snic_env_gso =
	UET_ENV_BOOL_VAR("gso", true,
			 "Send runs of equal datagrams with UDP GSO and "
			 "receive with UDP GRO when the kernel has them");

/* Transport security (snic/uet_tss.h, docs/tss.md). */
static const struct uet_env_enum snic_tss_names[] = {
	{ "off", UET_TSS_OFF },
	{ "on", UET_TSS_ON },
	{ "required", UET_TSS_REQUIRED },
	{ NULL, 0 },
};

static const struct uet_env_var snic_env_tss =
	UET_ENV_ENUM_VAR("tss", UET_SNIC_DEFAULT_TSS, snic_tss_names,
			 "Transport security (AES-256-GCM, replay window): "
			 "off; on (send protected, accept both); required "
			 "(drop every unprotected packet).  The job secret "
			 "comes from the auth_key (fi_uet_ext.h), else "
			 "FI_UET_TSS_KEY_FILE");
static const struct uet_env_var snic_env_tss_key_file =
	UET_ENV_STR_VAR("tss_key_file", NULL,
			"File with the job's 32-byte TSS secret (raw, or 64 "
			"hex digits); refused unless owned by the user with "
			"mode 0600");

const struct uet_env_var *const uet_snic_env_vars[] = {
	&snic_env_mtu,
	&snic_env_port,
	&snic_env_rdzv,
	&snic_env_unexp_max,
	&snic_env_unexp_msgs,
	&snic_env_delivery,
	&snic_env_rto_min_us,
	&snic_env_max_retries,
	&snic_env_dead_ms,
	&snic_env_unreach_ms,
	&snic_env_standby_ms,
	&snic_env_loss_ppm,
	&snic_env_gso,
	&snic_env_link,
	&snic_env_tss,
	&snic_env_tss_key_file,
	&snic_env_cc,
	&snic_env_cc_mbps,
	&snic_env_cc_rtt_us,
	&snic_env_cc_entropies,
	&snic_env_cc_pace,
	&snic_env_cc_csig,
};

const size_t uet_snic_env_nvars =
	sizeof(uet_snic_env_vars) / sizeof(uet_snic_env_vars[0]);

void uet_snic_cfg_default(struct uet_snic_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mtu = 0;
	cfg->rdzv_threshold = UET_SNIC_DEFAULT_RDZV;
	cfg->unexp_max_bytes = UET_SNIC_DEFAULT_UNEXP_BYTES;
	cfg->unexp_max_msgs = UET_SNIC_DEFAULT_UNEXP_MSGS;
	cfg->mode = UET_PDS_MODE_RUD;
	uet_pds_cfg_default(&cfg->pds);
	cfg->pds.dead_ns = UET_SNIC_DEFAULT_DEAD_MS * UET_NSEC_PER_MSEC;
	cfg->pds.cc = UET_SNIC_DEFAULT_CC;
	cfg->pds.cc_base_rtt_ns = UET_SNIC_DEFAULT_CC_RTT_US *
				  UET_NSEC_PER_USEC;
	cfg->pds.cc_entropies = 1;
}

/* Is FI_UET_<NAME> set?  Unset variables leave cfg as the caller had it. */
static bool snic_env_set(const struct uet_env_var *var)
{
	char name[UET_ENV_NAME_MAX];

	return !uet_env_var_name(var, name, sizeof(name)) && getenv(name);
}

void uet_snic_cfg_from_env(struct uet_snic_cfg *cfg)
{
	uint64_t v;

	if (snic_env_set(&snic_env_mtu))
		cfg->mtu = (size_t)uet_env_get_size(&snic_env_mtu);
	if (snic_env_set(&snic_env_rdzv))
		cfg->rdzv_threshold = uet_env_get_size(&snic_env_rdzv);
	if (snic_env_set(&snic_env_unexp_max))
		cfg->unexp_max_bytes = uet_env_get_size(&snic_env_unexp_max);
	if (snic_env_set(&snic_env_unexp_msgs))
		cfg->unexp_max_msgs =
			(uint32_t)uet_env_get_uint(&snic_env_unexp_msgs);
	if (snic_env_set(&snic_env_delivery))
		cfg->mode = (uint8_t)uet_env_get_enum(&snic_env_delivery);
	if (snic_env_set(&snic_env_rto_min_us)) {
		v = uet_env_get_uint(&snic_env_rto_min_us) * UET_NSEC_PER_USEC;
		cfg->pds.rto_min_ns = v;
		/* keep rto_min <= rto_init <= rto_max */
		if (cfg->pds.rto_init_ns < v)
			cfg->pds.rto_init_ns = v;
		if (cfg->pds.rto_max_ns < v)
			cfg->pds.rto_max_ns = v;
	}
	if (snic_env_set(&snic_env_max_retries))
		cfg->pds.max_retries =
			(unsigned int)uet_env_get_uint(&snic_env_max_retries);
	if (snic_env_set(&snic_env_dead_ms))
		cfg->pds.dead_ns = uet_env_get_uint(&snic_env_dead_ms) *
				   UET_NSEC_PER_MSEC;
	if (snic_env_set(&snic_env_unreach_ms))
		cfg->pds.unreach_ns = uet_env_get_uint(&snic_env_unreach_ms) *
				      UET_NSEC_PER_MSEC;
	if (snic_env_set(&snic_env_cc))
		cfg->pds.cc = (uint8_t)uet_env_get_enum(&snic_env_cc);
	if (snic_env_set(&snic_env_cc_mbps))
		cfg->pds.cc_rate_bps = uet_env_get_uint(&snic_env_cc_mbps) *
				       1000000ull;
	if (snic_env_set(&snic_env_cc_rtt_us))
		cfg->pds.cc_base_rtt_ns =
			uet_env_get_uint(&snic_env_cc_rtt_us) *
			UET_NSEC_PER_USEC;
	if (snic_env_set(&snic_env_cc_entropies))
		cfg->pds.cc_entropies =
			(uint32_t)uet_env_get_uint(&snic_env_cc_entropies);
	if (snic_env_set(&snic_env_cc_pace))
		cfg->pds.cc_pace = uet_env_get_bool(&snic_env_cc_pace);
	if (snic_env_set(&snic_env_cc_csig))
		cfg->pds.cc_csig = uet_env_get_bool(&snic_env_cc_csig);
}

uint32_t uet_snic_env_standby_ms(void)
{
	return (uint32_t)uet_env_get_uint(&snic_env_standby_ms);
}

uint16_t uet_snic_env_port(void)
{
	return (uint16_t)uet_env_get_uint(&snic_env_port);
}

uint32_t uet_snic_env_loss_ppm(void)
{
	return (uint32_t)uet_env_get_uint(&snic_env_loss_ppm);
}

int uet_snic_env_link(void)
{
	return uet_env_get_enum(&snic_env_link);
}

bool uet_snic_env_gso(void)
{
	return uet_env_get_bool(&snic_env_gso);
}

int uet_snic_tss_cfg(const uint8_t *secret, uint32_t job_id,
		     struct uet_tss_cfg *tc)
{
	const char *path;
	int ret;

	memset(tc, 0, sizeof(*tc));
	tc->mode = (uint8_t)uet_env_get_enum(&snic_env_tss);
	if (tc->mode == UET_TSS_OFF) {
		if (secret)
			UET_WARN_ONCE(UET_LOG_CORE, "the auth_key carries a TSS "
				      "secret but FI_UET_TSS is off: packets "
				      "are not protected\n");
		return 0;
	}
	tc->job_id = job_id;
	if (secret) {
		memcpy(tc->secret, secret, UET_TSS_SECRET_LEN);
		return 0;
	}
	path = uet_env_get_str(&snic_env_tss_key_file);
	if (!path || !*path) {
		tc->mode = UET_TSS_OFF;
		return -ENOKEY;
	}
	ret = uet_tss_key_file_load(path, tc->secret);
	if (ret) {
		UET_WARN(UET_LOG_CORE, "FI_UET_TSS_KEY_FILE %s refused: %s%s\n",
			 path, strerror(-ret), ret == -EPERM ?
			 " (it must be a regular file of this user with mode "
			 "0600)" : "");
		tc->mode = UET_TSS_OFF;
	}
	return ret;
}

void uet_snic_env_list(const struct uet_env_var *const **vars, size_t *n)
{
	*vars = uet_snic_env_vars;
	*n = uet_snic_env_nvars;
}

size_t uet_snic_dgram_overhead(void)
{
	return uet_env_get_enum(&snic_env_tss) != UET_TSS_OFF ?
	       UET_TSS_OVERHEAD : 0;
}
