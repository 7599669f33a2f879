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
	const struct lull_nap_settings s = {
		.policy = &prm->policy,
		.wake = lull_waiter_describe(&prm->waiter),
		.wake_inject = lull_slowwake_name_of(&prm->waiter.inject.p),
		.timer_slack_ns = prm->timer_slack_ns,
		.intr_after_ns = prm->intr_after_ns,
		.intr_wait_max_ms = prm->waiter.intr_wait_max_ms,
		.drain_us = prm->drain_us,
		.yield_hz = prm->yield_hz,
		.yield_us = prm->yield_us,
		.wake_priority = prm->wake_priority,
		.rx_queues = prm->n_rxqs,
		.generation = prm->gen,
		.ring_port = prm->ring_port,
		.line_assumed = prm->line_assumed,
		.tid = atomic_load_explicit(&fwd->pmds[i]->tid, memory_order_acquire),
	};

	lull_nap_tel_sleep(c, &s, v->stats, v->rx, &fwd->pmds[i]->nap);
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
