/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A polling thread's counters as the views show them, for every host of the
 * engine (lull's telemetry and stats table, and the engine attached to other
 * programs): the counters' names, derived figures, and the telemetry dicts.
 */
#ifndef LULL_NAP_VIEW_H
#define LULL_NAP_VIEW_H

#include <stdint.h>

#include <rte_telemetry.h>

#include "hist.h"
#include "lull_nap.h"

/**
 * What a thread's counters mean, derived once for the stats table and telemetry:
 * shares of its cycles, cycles per packet, mean wait and mean oversleep.
 */
struct lull_pmd_derived {
	uint64_t used_tsc;         /**< busy + idle + waiting */
	double busy_pct;           /**< cycles in iterations that received packets */
	double sleep_pct;          /**< cycles waiting */
	double cycles_per_pkt;     /**< busy cycles per received packet */
	uint64_t avg_sleep_ns;     /**< mean timed wait, as it took */
	uint64_t avg_oversleep_ns; /**< mean of (as it took - as asked) */
};

/** The telemetry name of counter stat (enum lull_pmd_stat): "iterations", ... */
const char *lull_pmd_stat_name(unsigned int stat);

/** The telemetry name of cost-model gauge k (enum lull_pmd_model): "late_p99_ns", ... */
const char *lull_pmd_model_name(unsigned int k);

/** Derive from counters stats (indexed by enum lull_pmd_stat) and rx packets. */
void lull_pmd_derive(const uint64_t *stats, uint64_t rx, struct lull_pmd_derived *d);

/** A percentage as telemetry shows it: a string with one decimal. */
void lull_nap_tel_pct(struct rte_tel_data *d, const char *name, double pct);

/** PREFIX_p50, _p90, _p99 and _max of h. */
void lull_nap_tel_quantiles(struct rte_tel_data *d, const char *prefix, const struct lull_hist *h);

/** The counters /lull/pmd_perf shows, into dict c: time base, every counter,
 * packets, busy and sleep shares, bursts and sleeps by quantile. */
void lull_nap_tel_perf(struct rte_tel_data *c, const uint64_t *stats, uint64_t rx, uint64_t tx,
	uint64_t duration_tsc, const struct lull_hist *burst_pkts,
	const struct lull_hist *sleep_ns);

#endif /* LULL_NAP_VIEW_H */
