/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-sim's fleet model: N PMDs, their rx queues and a day of diurnal load,
 * with consolidation decided by lib/consolidate - lull's own rules - every
 * measurement window. Pure C, no DPDK, deterministic for a seed.
 *
 * Two levels. What one PMD costs (CPU, busy share, budget misses, sleeps,
 * latency) at a load and a number of queues comes from the packet-level model
 * (sim/model.c, lib/policy unchanged), run once per point of a grid (queues
 * 1, 2, 4 ... 64; loads from idle to 97 % of a core's capacity) and
 * interpolated. The day is then played window by window (1 s, as lull
 * measures): each queue's rate is its share of the diurnal total (RSS skew, a
 * little noise each window), each PMD's load is read off the curves, and
 * lib/consolidate decides from those loads what lull would decide. A move
 * costs what lull's two-phase move costs: the PMD that lets go acknowledges
 * when its current sleep ends (a timed sleep is not interrupted), the one that
 * takes over when its own ends, or - parked - when the control eventfd wakes
 * it; the control thread looks for acknowledgements every 100 us. The moved
 * queues are not polled meanwhile: what arrives waits in their rings, and
 * what overflows a ring is lost.
 */
#ifndef LULL_SIM_FLEET_H
#define LULL_SIM_FLEET_H

#include <stdbool.h>
#include <stdint.h>

#include "consolidate.h"
#include "model.h"

#define SIM_FLEET_MAX_PMDS 64

struct sim_fleet_config {
	struct sim_config base;    /**< one PMD: hardware model, policy, seed */
	unsigned int n_pmds;       /**< PMD threads */
	unsigned int rxqs_per_pmd; /**< rx queues, spread evenly at the start */
	double peak_pps;           /**< the day's highest total arrival rate */
	double trough_share;       /**< the night's lowest, a share of the peak */
	uint64_t day_ns;           /**< one period of the diurnal curve (and the run) */
	uint64_t window_ns;        /**< lull's measurement window */
	double rss_skew;           /**< queue weights 1 +- skew (uniform), then normalised */
	double noise;              /**< each queue's rate varies this much (sd) per window */
	bool consolidate;
	struct lull_cons_params cons;
};

struct sim_fleet_result {
	double cpu_core_s;  /**< CPU of every PMD over the day, in core-seconds */
	double awake_pmd_s; /**< PMD-seconds not parked */
	uint64_t arrivals;  /**< packets offered */
	uint64_t packs, unpacks, spreads;
	uint64_t moves;                   /**< rx queues moved */
	double move_mean_ns, move_max_ns; /**< both phases, as lull's balance-show reports */
	double hold_max_ns;               /**< the longest a moved queue went unpolled */
	uint64_t held;          /**< packets that waited in a ring while their queue moved */
	uint64_t dropped_move;  /**< lost to a full ring during a move */
	uint64_t dropped_over;  /**< lost to a PMD over its capacity */
	uint64_t over_windows;  /**< PMD-windows above the unpack line */
	uint64_t miss_windows;  /**< PMD-windows missing the budget (> 1 % of timed waits) */
	double max_pmd_load;    /**< the highest busy share of a PMD in any window */
	double p50_ns, p99_ns;  /**< per packet, over the day */
	unsigned int min_awake; /**< the fewest PMDs awake in any window */
	unsigned int curves;    /**< packet-level curves simulated */
};

/** What one PMD of model m forwards at most: every poll returns a full burst. */
double sim_capacity_pps(const struct sim_pmd_model *m);

/** @return 0, or -EINVAL for a configuration out of range. */
int sim_fleet_check(const struct sim_fleet_config *c);

/** Play the day. @return 0, -EINVAL (sim_fleet_check) or -ENOMEM. */
int sim_fleet_run(const struct sim_fleet_config *c, struct sim_fleet_result *res);

#endif /* LULL_SIM_FLEET_H */
