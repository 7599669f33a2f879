/* SPDX-License-Identifier: BSD-3-Clause */
#include "nap_view.h"

#include <stdio.h>

#include <rte_cycles.h>

/* The names of the counters and gauges in telemetry and lullctl's JSON. */
#define LULL_NAME_(id, key, metric, unit, help) key,
static const char *const stat_names[LULL_PMD_N_STATS] = {LULL_PMD_STATS(LULL_NAME_)};
static const char *const model_names[LULL_PMD_N_MODEL] = {LULL_PMD_MODEL(LULL_NAME_)};
#undef LULL_NAME_

const char *
lull_pmd_stat_name(unsigned int stat)
{
	return stat < LULL_PMD_N_STATS && stat_names[stat] != NULL ? stat_names[stat] : "unknown";
}

const char *
lull_pmd_model_name(unsigned int k)
{
	return k < LULL_PMD_N_MODEL && model_names[k] != NULL ? model_names[k] : "unknown";
}

void
lull_pmd_derive(const uint64_t *stats, uint64_t rx, struct lull_pmd_derived *d)
{
	uint64_t busy_tsc = stats[LULL_PMD_BUSY_TSC], sleep_tsc = stats[LULL_PMD_SLEEP_TSC];
	uint64_t sleeps = stats[LULL_PMD_SLEEPS];
	uint64_t req_ns = stats[LULL_PMD_SLEEP_REQ_NS], act_ns = stats[LULL_PMD_SLEEP_ACT_NS];

	d->used_tsc = busy_tsc + stats[LULL_PMD_IDLE_TSC] + sleep_tsc;
	d->busy_pct = d->used_tsc ? 100.0 * (double)busy_tsc / (double)d->used_tsc : 0.0;
	d->sleep_pct = d->used_tsc ? 100.0 * (double)sleep_tsc / (double)d->used_tsc : 0.0;
	d->cycles_per_pkt = rx ? (double)busy_tsc / (double)rx : 0.0;
	d->avg_sleep_ns = sleeps ? act_ns / sleeps : 0;
	d->avg_oversleep_ns = sleeps && act_ns > req_ns ? (act_ns - req_ns) / sleeps : 0;
}

void
lull_nap_tel_pct(struct rte_tel_data *d, const char *name, double pct)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%.1f", pct);
	rte_tel_data_add_dict_string(d, name, buf);
}

void
lull_nap_tel_quantiles(struct rte_tel_data *d, const char *prefix, const struct lull_hist *h)
{
	static const struct {
		const char *name;
		double q;
	} qs[] = {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"max", 1.0}};
	char name[48];

	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		snprintf(name, sizeof(name), "%s_%s", prefix, qs[k].name);
		rte_tel_data_add_dict_u64(d, name, lull_hist_quantile(h, qs[k].q));
	}
}

void
lull_nap_tel_perf(struct rte_tel_data *c, const uint64_t *stats, uint64_t rx, uint64_t tx,
	uint64_t duration_tsc, const struct lull_hist *burst_pkts, const struct lull_hist *sleep_ns)
{
	struct lull_pmd_derived dv;

	rte_tel_data_add_dict_u64(c, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_u64(c, "duration_cycles", duration_tsc);
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		rte_tel_data_add_dict_u64(c, lull_pmd_stat_name(s), stats[s]);
	rte_tel_data_add_dict_u64(c, "rx_packets", rx);
	rte_tel_data_add_dict_u64(c, "tx_packets", tx);
	lull_pmd_derive(stats, rx, &dv);
	lull_nap_tel_pct(c, "busy_pct", dv.busy_pct);
	lull_nap_tel_pct(c, "sleep_pct", dv.sleep_pct);
	lull_nap_tel_quantiles(c, "burst_pkts", burst_pkts);
	lull_nap_tel_quantiles(c, "sleep_ns", sleep_ns);
}
