/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include "options.h"
#include "parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[LULL_FWD_N_MODES] = {
	[LULL_FWD_IO] = "io",
	[LULL_FWD_MAC] = "mac",
	[LULL_FWD_MACSWAP] = "macswap",
};

const char *
lull_fwd_mode_name(enum lull_fwd_mode mode)
{
	return mode < LULL_FWD_N_MODES ? mode_names[mode] : "?";
}

void
lull_config_defaults(struct lull_config *cfg)
{
	/* every default is its option row's (--help prints it) */
	lull_opt_fill_defaults(lull_config_opts(), cfg, sizeof(*cfg), "lull");
	/* the one row whose default is prose and not 0: like testpmd, the peer
	 * of port P is 02:00:00:00:00:P */
	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++) {
		cfg->peer_mac[p][0] = 0x02;
		cfg->peer_mac[p][5] = (uint8_t)p;
	}
}

int
lull_config_pmd_index(const struct lull_config *cfg, unsigned int lcore)
{
	for (unsigned int i = 0; i < cfg->n_pmds; i++)
		if (cfg->pmd_lcores[i] == lcore)
			return (int)i;
	return -1;
}

/*
 * A SCHED_FIFO thread that never blocks keeps every SCHED_OTHER thread off its
 * core (but for RT throttling's share). Every policy busy-polls under sustained
 * load (ovs and rate reset to polling when bursts are full), so fifo needs the
 * yield, whatever the policy. And the yield may take at most half of each second.
 */
static int
check_sharing(const struct lull_config *cfg, char *err, size_t errlen)
{
	if (cfg->yield_hz != 0 && (uint64_t)cfg->yield_hz * cfg->yield_us > LULL_YIELD_MAX_SHARE_US)
		return lull_errf(err, errlen, -EINVAL,
			"--yield-us: bad value '%u' (%u us %u times a second is more than half "
			"of the PMD's core)",
			cfg->yield_us, cfg->yield_us, cfg->yield_hz);
	if (cfg->pmd_priority.kind == LULL_PRIO_FIFO && cfg->yield_hz == 0 && cfg->n_pmds > 0)
		return lull_errf(err, errlen, -EINVAL,
			"--pmd-priority fifo:%d: the PMD on lcore %u busy-polls and would "
			"starve every other thread on its core under load, whatever its sleep "
			"policy; give --yield-hz",
			cfg->pmd_priority.value, cfg->pmd_lcores[0]);
	if (cfg->pmd_priority.kind == LULL_PRIO_FIFO && cfg->wk.wake_priority != 0)
		return lull_errf(err, errlen, -EINVAL,
			"--wake-priority %u: the PMDs run at --pmd-priority fifo:%d already; "
			"give one of them",
			cfg->wk.wake_priority, cfg->pmd_priority.value);
	return 0;
}

static int
check_critical(const struct lull_config *cfg, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		if (cfg->critical[i].port >= cfg->n_ports || cfg->critical[i].queue >= cfg->n_rxq)
			return lull_errf(err, errlen, -EINVAL,
				"--rxq-critical: queue %u:%u does not exist (%u ports, --rxq %u)",
				cfg->critical[i].port, cfg->critical[i].queue, cfg->n_ports,
				cfg->n_rxq);
	return 0;
}

int
lull_config_check(const struct lull_config *cfg, char *err, size_t errlen)
{
	int ret = check_critical(cfg, err, errlen);

	/* a threshold no burst can reach: ovs and window would never reset and sleep
	 * their maximum under full load, rate would never see a busy burst */
	if (ret == 0 && cfg->sleep.busy_threshold > cfg->burst)
		return lull_errf(err, errlen, -EINVAL,
			"--busy-threshold: bad value '%u' (larger than --burst %u: no rx burst "
			"reaches it)",
			cfg->sleep.busy_threshold, cfg->burst);

	if (ret == 0 && cfg->pack_below_pct >= cfg->unpack_above_pct)
		return lull_errf(err, errlen, -EINVAL,
			"--pack-below-pct %u and --unpack-above-pct %u: out of order (packing "
			"must stop below where unpacking starts, or lull would flap)",
			cfg->pack_below_pct, cfg->unpack_above_pct);
	return ret < 0 ? ret : check_sharing(cfg, err, errlen);
}

void
lull_config_policy(const struct lull_config *cfg, unsigned int lcore, struct lull_policy_params *p)
{
	int pmd = lull_config_pmd_index(cfg, lcore);

	lull_sleep_opts_params(&cfg->sleep, lcore, cfg->burst, cfg->n_rxd, p);
	/* A PMD that polls a latency-critical queue sleeps at most the critical maximum. */
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		if (pmd >= 0 &&
			cfg->rxq_pmd[cfg->critical[i].port][cfg->critical[i].queue] == pmd &&
			p->max_sleep_ns > (uint64_t)cfg->critical_sleep_max_us * 1000)
			p->max_sleep_ns = (uint64_t)cfg->critical_sleep_max_us * 1000;
	if (p->max_sleep_ns == 0) /* a PMD whose maximum is 0 busy-polls, as in OVS */
		p->kind = LULL_POLICY_OFF;
}

void
lull_config_port_conf(const struct lull_config *cfg, struct lull_port_conf *pc)
{
	*pc = (struct lull_port_conf){.n_rxq = cfg->n_rxq,
		.n_txq = cfg->n_txq,
		.n_rxd = cfg->n_rxd,
		.n_txd = cfg->n_txd,
		.mbuf_size = cfg->mbuf_size,
		.rx_intr = cfg->wk.intr_after_ms != 0 && cfg->sleep.policy != LULL_POLICY_OFF,
		.log_name = "lull"};
}

void
lull_prio_format(const struct lull_prio *p, char *buf, size_t len)
{
	if (p->kind == LULL_PRIO_NICE)
		snprintf(buf, len, "nice:%d", p->value);
	else if (p->kind == LULL_PRIO_FIFO)
		snprintf(buf, len, "fifo:%d", p->value);
	else
		snprintf(buf, len, "none");
}
