/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attached engine in the host's telemetry socket: /lull/nap (every
 * thread's settings, counters and cost model), and /lull/pmds and
 * /lull/pmd_perf in lull's own format, so that `lullctl -f PREFIX
 * pmd-perf-show` reads a host as it reads lull. A thread's "lcore" there is
 * its index in /lull/nap (two threads may share a CPU).
 */
#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "attach_priv.h"
#include "contract.h"
#include "nap_view.h"

static const struct lull_nap_thr *
thr(unsigned int i)
{
	return __atomic_load_n(&lull_nap_thrs[i], __ATOMIC_ACQUIRE);
}

static unsigned int
n_thrs(void)
{
	return __atomic_load_n(&lull_nap_n_thrs, __ATOMIC_ACQUIRE);
}

static void
fill_nap(struct rte_tel_data *c, const struct lull_nap_thr *t)
{
	rte_tel_data_add_dict_string(c, "policy", lull_policy_name(t->nap.policy.p.kind));
	rte_tel_data_add_dict_string(c, "wake", lull_wake_name(t->waiter.kind));
	rte_tel_data_add_dict_int(c, "cpu", t->cpu);
	rte_tel_data_add_dict_u64(c, "burst", t->burst);
	rte_tel_data_add_dict_u64(
		c, "latency_budget_us", lull_policy_budget_ns(&t->nap.policy.p) / 1000);
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		rte_tel_data_add_dict_u64(
			c, lull_pmd_stat_name(s), lull_counter_read(&t->nap.stats[s]));
	for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++)
		rte_tel_data_add_dict_u64(
			c, lull_pmd_model_name(k), lull_counter_read(&t->nap.model[k]));
}

static void
fill_perf(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i, unsigned int n)
{
	uint64_t stats[LULL_PMD_N_STATS];
	struct lull_hist bursts;

	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		stats[s] = lull_counter_read(&t->nap.stats[s]);
	lull_nap_burst_hist(&t->nap, t->burst, &bursts);
	rte_tel_data_add_dict_u64(c, "lcore", i);
	rte_tel_data_add_dict_u64(c, "pmds", n);
	rte_tel_data_add_dict_u64(c, "generation", t->gen);
	/* every packet came in an rx burst the callback saw; tx is the host's */
	lull_nap_tel_perf(
		c, stats, bursts.sum, 0, rte_rdtsc() - t->start_tsc, &bursts, &t->nap.sleep_ns);
}

typedef void fill_fn(
	struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i, unsigned int n);

static void
fill_nap_thr(struct rte_tel_data *c, const struct lull_nap_thr *t, unsigned int i, unsigned int n)
{
	(void)i;
	(void)n;
	fill_nap(c, t);
}

/* A dict KEY<i> per thread (only thread `only` when >= 0), filled by fill. */
static int
per_thread(struct rte_tel_data *d, const char *key, long only, fill_fn *fill)
{
	unsigned int n = n_thrs();

	rte_tel_data_start_dict(d);
	if (only >= (long)n)
		return rte_tel_data_string(d, "no such thread");
	for (unsigned int i = 0; i < n; i++) {
		struct rte_tel_data *c;
		char name[24];

		if (only >= 0 && i != (unsigned long)only)
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			return -1;
		rte_tel_data_start_dict(c);
		fill(c, thr(i), i, n);
		snprintf(name, sizeof(name), "%s%u", key, i);
		rte_tel_data_add_dict_container(d, name, c, 0);
	}
	return 0;
}

static int
tel_nap(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int ret;

	(void)cmd;
	(void)params;
	ret = per_thread(d, "thread", -1, fill_nap_thr);
	rte_tel_data_add_dict_u64(d, "threads", n_thrs());
	rte_tel_data_add_dict_u64(d, "tsc_hz", rte_get_tsc_hz());
	return ret;
}

static int
tel_pmds(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_U64_VAL);
	for (unsigned int i = 0, n = n_thrs(); i < n; i++)
		rte_tel_data_add_array_u64(d, i);
	return 0;
}

static int
tel_pmd_perf(const char *cmd, const char *params, struct rte_tel_data *d)
{
	long only = -1;

	(void)cmd;
	if (params != NULL && *params != '\0') {
		char *end;

		only = strtol(params, &end, 10);
		if (*end != '\0' || only < 0) {
			rte_tel_data_start_dict(d);
			return rte_tel_data_string(d, "bad parameter: expected a thread number");
		}
	}
	return per_thread(d, "pmd", only, fill_perf);
}

int
lull_nap_attach_register_telemetry(void)
{
	int ret = rte_telemetry_register_cmd("/lull/nap", tel_nap,
		"lull attached: every polling thread's counters. No parameters");

	if (ret == 0)
		ret = rte_telemetry_register_cmd(
			lull_cmds[LULL_CMD_PMDS].path, tel_pmds, "lull attached: polling threads");
	if (ret == 0)
		ret = rte_telemetry_register_cmd(lull_cmds[LULL_CMD_PMD_PERF].path, tel_pmd_perf,
			"lull attached: thread counters. Param: thread");
	return ret;
}
