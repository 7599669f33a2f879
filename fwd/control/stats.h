/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * PMD and port counters as the control plane shows them: since start, or
 * since pmd-stats-clear took a baseline (as OVS's dpif-netdev-perf keeps
 * them), derived figures, and the text tables. Control plane only: reads the
 * PMDs' single-writer counters and ethdev stats, never writes them.
 */
#ifndef LULL_STATS_H
#define LULL_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "fwd.h"
#include "hist.h"
#include "nap_view.h"

/** What lull_stats_clear_locked() saw, subtracted from what the show commands report. */
struct lull_pmd_base {
	uint64_t tsc; /**< when */
	uint64_t stats[LULL_PMD_N_STATS];
	uint64_t rx_pkts[LULL_MAX_PORTS][LULL_MAX_QUEUES];
	uint64_t rx_cycles[LULL_MAX_PORTS][LULL_MAX_QUEUES];
	uint64_t tx_sent, tx_dropped;
	struct lull_hist burst_pkts;
	struct lull_hist sleep_ns;
};

/** A PMD's counters since the last pmd-stats-clear (since start before one). */
struct lull_pmd_view {
	uint64_t stats[LULL_PMD_N_STATS]; /**< indexed by enum lull_pmd_stat */
	uint64_t rx, tx, tx_dropped;
	uint64_t duration_tsc; /**< how long they were counted */
	struct lull_hist burst_pkts, sleep_ns;
};

/**
 * pmd-stats-clear: take every PMD's baseline, under fwd->lock.
 * @return 0, or -ENOMEM (err says so; PMDs before the failing one are cleared).
 */
int lull_stats_clear_locked(struct lull_fwd *fwd, char *err, size_t errlen);

/** Free the baselines (teardown). */
void lull_stats_free_locked(struct lull_fwd *fwd);

/** PMD i's counters since its baseline, under fwd->lock. */
void lull_stats_view(const struct lull_fwd *fwd, unsigned int i, struct lull_pmd_view *v);

/** PMD i's packets (cycles when cycles) of rx queue (port, queue) since its baseline. */
uint64_t lull_stats_rxq(
	const struct lull_fwd *fwd, unsigned int i, uint16_t port, uint16_t queue, bool cycles);

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

/** Read a PMD's counters into stats[LULL_PMD_N_STATS]. */
void lull_pmd_read_stats(const struct lull_pmd *pmd, uint64_t *stats);

/** Sum over the PMDs of what they received from and sent to port. */
struct lull_port_counts lull_stats_port(const struct lull_fwd *fwd, uint16_t port);

/** Print a port table and a PMD table; update prev. final marks the exit report. */
void lull_stats_print(
	FILE *out, const struct lull_fwd *fwd, struct lull_stats_prev *prev, bool final);

#endif /* LULL_STATS_H */
