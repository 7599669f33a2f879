/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Text views of port and PMD counters. Control plane only: reads the PMDs'
 * single-writer counters and ethdev stats, never writes them.
 */
#ifndef LULL_STATS_H
#define LULL_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "fwd.h"

/** The previous reading, to print rates between two readings. */
struct lull_stats_prev {
	uint64_t tsc;
	uint64_t port_rx[LULL_MAX_PORTS];
	uint64_t port_tx[LULL_MAX_PORTS];
};

/** lull's own per-port counts: they survive a peer that disconnects (net_memif then
 * reports zeros) and they count what lull did, not what the driver saw. */
struct lull_port_counts {
	uint64_t rx, tx, tx_dropped;
};

/**
 * What a PMD's counters mean, derived once for the stats table and telemetry:
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

/** Read a PMD's counters into stats[LULL_PMD_N_STATS]. */
void lull_pmd_read_stats(const struct lull_pmd *pmd, uint64_t *stats);

/** Sum over the PMDs of what they received from and sent to port. */
struct lull_port_counts lull_stats_port(const struct lull_fwd *fwd, uint16_t port);

/** Print a port table and a PMD table; update prev. final marks the exit report. */
void lull_stats_print(
	FILE *out, const struct lull_fwd *fwd, struct lull_stats_prev *prev, bool final);

#endif /* LULL_STATS_H */
