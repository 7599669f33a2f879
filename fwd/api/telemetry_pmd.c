/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-PMD telemetry commands (/lull/pmd_perf, /lull/pmd_sleep,
 * /lull/pmd_rxq, /lull/pmds): each PMD's counters since the last stats clear,
 * read under the control lock; fwd/api/telemetry.c registers them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "control.h"
#include "parse.h"
#include "stats.h"
#include "telemetry_cmd.h"

/* The PMDs a command is about: all, or the one on the lcore in params. */
static int
pmd_filter(const char *params, int *lcore, struct rte_tel_data *d)
{
	uint32_t v;

	*lcore = -1;
	if (params == NULL || *params == '\0')
		return 0;
	if (lull_parse_u32(params, 0, LULL_MAX_LCORES - 1, &v) < 0) {
		char msg[96];

		snprintf(msg, sizeof(msg), "bad PMD core '%.40s' (a number)", params);
		lull_tel_reply_error(d, msg);
		return -EINVAL;
	}
	*lcore = (int)v;
	return 0;
}

/* What a per-PMD command writes into its PMD's dict c; v holds the PMD's counters
 * since the last pmd-stats-clear. */
typedef void pmd_fill_fn(const struct lull_fwd *fwd, unsigned int i, const struct lull_pmd_view *v,
	struct rte_tel_data *c);

/*
 * The per-PMD commands: a dict "pmd<lcore>" per PMD (or only the PMD on lcore
 * when lcore >= 0), each filled by fill, under the control lock.
 * @return how many PMDs were shown, -ENOMEM, or -ESHUTDOWN once lull is torn down.
 */
static int
for_each_pmd(struct rte_tel_data *d, int lcore, pmd_fill_fn *fill)
{
	struct lull_fwd *fwd = lull_tel_fwd;
	struct lull_pmd_view *v = malloc(sizeof(*v));
	int found = 0;

	if (v == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&fwd->lock);
	if (fwd->gone) {
		pthread_mutex_unlock(&fwd->lock);
		free(v);
		return -ESHUTDOWN;
	}

	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		struct rte_tel_data *c;
		char key[16];

		if (lcore >= 0 && pmd->lcore != (unsigned int)lcore)
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			break;
		found++;
		lull_stats_view(fwd, i, v);
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "lcore", pmd->lcore);
		/* of how many: a reply past DPDK's 16 KB loses PMDs, silently, and a
		 * client that counts fewer knows (lullctl then asks PMD by PMD) */
		rte_tel_data_add_dict_u64(c, "pmds", fwd->n_pmds);
		/* which change the reply describes, and one the PMD has not taken */
		rte_tel_data_add_dict_u64(c, "generation", lull_pmd_taken(pmd)->gen);
		if (lull_pmd_taken(pmd) != pmd->pending && pmd->pending != NULL)
			rte_tel_data_add_dict_u64(c, "pending_generation", pmd->pending->gen);
		fill(fwd, i, v, c);
		snprintf(key, sizeof(key), "pmd%u", pmd->lcore);
		rte_tel_data_add_dict_container(d, key, c, 0);
	}
	pthread_mutex_unlock(&fwd->lock);
	free(v);
	return found;
}

/* The reply to a failed for_each_pmd(). */
static int
reply_pmds_error(struct rte_tel_data *d, int ret)
{
	return lull_tel_reply_error(d, ret == -ESHUTDOWN ? LULL_STOPPING : "out of memory");
}

static void
fill_perf(const struct lull_fwd *fwd, unsigned int i, const struct lull_pmd_view *v,
	struct rte_tel_data *c)
{
	lull_nap_tel_perf(c, v->stats, v->rx, v->tx, v->duration_tsc, &v->burst_pkts, &v->sleep_ns);
	rte_tel_data_add_dict_u64(c, "rx_queues", lull_pmd_taken(fwd->pmds[i])->n_rxqs);
	rte_tel_data_add_dict_u64(c, "parked", lull_pmd_taken(fwd->pmds[i])->n_rxqs == 0);
	rte_tel_data_add_dict_u64(c, "tx_dropped", v->tx_dropped);
}

/* A per-PMD command: every PMD, or the one on the lcore params names. */
static int
pmd_cmd(const char *params, struct rte_tel_data *d, pmd_fill_fn *fill)
{
	int lcore, found;

	if (pmd_filter(params, &lcore, d) < 0)
		return 0;
	found = for_each_pmd(d, lcore, fill);
	if (found < 0)
		return reply_pmds_error(d, found);
	if (lcore >= 0 && found == 0) {
		char msg[64];

		snprintf(msg, sizeof(msg), "no PMD on core %d", lcore);
		return lull_tel_reply_error(d, msg);
	}
	return 0;
}

int
lull_tel_cmd_pmd_perf(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_perf);
}

/* The settings in force (the block the PMD acknowledged) and sleep averages. */
static void
fill_sleep(const struct lull_fwd *fwd, unsigned int i, const struct lull_pmd_view *v,
	struct rte_tel_data *c)
{
	const struct lull_pmd_params *prm = lull_pmd_taken(fwd->pmds[i]);
	struct lull_pmd_derived dv;

	lull_pmd_derive(v->stats, v->rx, &dv);

	rte_tel_data_add_dict_string(c, "policy", lull_policy_name(prm->policy.kind));
	rte_tel_data_add_dict_u64(c, "max_sleep_us", prm->policy.max_sleep_ns / 1000);
	rte_tel_data_add_dict_u64(c, "latency_budget_us", prm->policy.budget_ns / 1000);
	rte_tel_data_add_dict_string(c, "strict_budget", prm->policy.strict_budget ? "on" : "off");
	rte_tel_data_add_dict_u64(c, "step_us", prm->policy.step_ns / 1000);
	rte_tel_data_add_dict_u64(c, "busy_threshold", prm->policy.busy_threshold);
	rte_tel_data_add_dict_u64(c, "window", prm->policy.window);
	rte_tel_data_add_dict_u64(c, "linger_us", prm->policy.linger_ns / 1000);
	rte_tel_data_add_dict_string(c, "wake", lull_waiter_describe(&prm->waiter));
	rte_tel_data_add_dict_string(
		c, "wake_inject", lull_slowwake_name_of(&prm->waiter.inject.p));
	rte_tel_data_add_dict_u64(c, "timer_slack_ns", prm->timer_slack_ns);
	rte_tel_data_add_dict_u64(c, "intr_after_ms", prm->intr_after_ns / 1000000);
	rte_tel_data_add_dict_u64(c, "intr_wait_max_ms", (uint64_t)prm->waiter.intr_wait_max_ms);
	rte_tel_data_add_dict_u64(c, "drain_us", prm->drain_us);
	rte_tel_data_add_dict_u64(c, "yield_hz", prm->yield_hz);
	rte_tel_data_add_dict_u64(c, "yield_us", prm->yield_us);
	rte_tel_data_add_dict_u64(c, "rx_queues", prm->n_rxqs);
	rte_tel_data_add_dict_u64(c, "generation", prm->gen);
	{
		struct lull_burst_view bv;
		char num[32];

		lull_pmd_burst_view(prm, (double)dv.avg_oversleep_ns / 1e3, &bv);
		rte_tel_data_add_dict_u64(c, "rx_ring", bv.ring);
		rte_tel_data_add_dict_u64(c, "rx_ring_port", bv.ring_port);
		snprintf(num, sizeof(num), "%.3f", bv.line_mpps);
		rte_tel_data_add_dict_string(c, "line_mpps", num);
		rte_tel_data_add_dict_string(c, "line_rate", bv.line_assumed ? "assumed" : "link");
		snprintf(num, sizeof(num), "%.1f", bv.fill_us);
		rte_tel_data_add_dict_string(c, "ring_fill_us", num);
		rte_tel_data_add_dict_u64(c, "burst_tolerance", bv.tolerance);
		rte_tel_data_add_dict_u64(c, "burst_tolerance_asked", bv.asked);
		snprintf(num, sizeof(num), "%.1f", bv.cap_us);
		rte_tel_data_add_dict_string(c, "burst_cap_us", num);
		rte_tel_data_add_dict_u64(c, "ring_for_any_burst", bv.ring_for_any);
	}
	rte_tel_data_add_dict_u64(c, "sleeps", v->stats[LULL_PMD_SLEEPS]);
	rte_tel_data_add_dict_u64(c, "avg_sleep_ns", dv.avg_sleep_ns);
	rte_tel_data_add_dict_u64(c, "avg_oversleep_ns", dv.avg_oversleep_ns);
	rte_tel_data_add_dict_u64(c, "budget_misses", v->stats[LULL_PMD_BUDGET_MISSES]);
	rte_tel_data_add_dict_u64(
		c, "pkt_ns", (uint64_t)(dv.cycles_per_pkt * 1e9 / (double)rte_get_tsc_hz()));
	for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++) {
		uint64_t val = lull_counter_read(&fwd->pmds[i]->nap.model[k]);

		if (k == LULL_MODEL_MODE)
			rte_tel_data_add_dict_string(c, lull_pmd_model_name(k),
				val == LULL_MODE_INTR   ? "interrupt"
				: val == LULL_MODE_POLL ? "poll"
							: "sleep");
		else
			rte_tel_data_add_dict_u64(c, lull_pmd_model_name(k), val);
	}
}

int
lull_tel_cmd_pmd_sleep(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_sleep);
}

/* Each rx queue's packets (rxq_PORT_QUEUE) and its PMD's busy share: a queue's
 * share of the packets is its share of the busy cycles for a forwarder that does
 * the same work per packet. */
static void
fill_rxq(const struct lull_fwd *fwd, unsigned int i, const struct lull_pmd_view *v,
	struct rte_tel_data *c)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_params *prm = lull_pmd_taken(pmd);
	struct lull_pmd_derived dv;
	char key[40];

	lull_pmd_derive(v->stats, v->rx, &dv);
	lull_nap_tel_pct(c, "busy_pct", dv.busy_pct);
	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(c, "duration_cycles", v->duration_tsc);
	for (unsigned int q = 0; q < prm->n_rxqs && q < (RTE_TEL_MAX_DICT_ENTRIES - 8) / 2; q++) {
		const struct lull_rxq_conf *rc = &prm->rxqs[q];

		snprintf(key, sizeof(key), "rxq_%u_%u", rc->port, rc->queue);
		rte_tel_data_add_dict_u64(
			c, key, lull_stats_rxq(fwd, i, rc->port, rc->queue, false));
		snprintf(key, sizeof(key), "cyc_%u_%u", rc->port, rc->queue);
		rte_tel_data_add_dict_u64(
			c, key, lull_stats_rxq(fwd, i, rc->port, rc->queue, true));
	}
}

int
lull_tel_cmd_pmd_rxq(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	return pmd_cmd(params, d, fill_rxq);
}

/* The PMDs' lcores: a client whose reply of every PMD would pass DPDK's 16 KB
 * asks PMD by PMD (lullctl, the exporter). */
int
lull_tel_cmd_pmds(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		rte_tel_data_add_array_u64(d, fwd->pmds[i]->lcore);
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}
