/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-sim's model: one PMD polling rx rings fed by a traffic model, run in
 * virtual time with the sleep policy of lib/policy, unchanged. Discrete-event
 * and deterministic for a seed. Pure C, no DPDK.
 *
 * The PMD loop is lull's: poll every queue (a cost per poll and per packet,
 * up to a burst per queue), give each burst to lull_policy_observe(), ask
 * lull_policy_decide(), and when it says wait: pay the backend's CPU cost per
 * wait and sleep for the request plus a wake latency drawn from the backend's
 * distribution, then lull_policy_slept(). Where the ports interrupt
 * (intr_after_ns > 0) the policy may choose an rx interrupt wait: the PMD then
 * wakes on the next arrival plus an interrupt wake latency. Each wait's CPU
 * goes to the policy's cost model, as the PMD's sampled waits do. A packet's latency is when its
 * burst is done minus when it arrived, plus a fixed path delay (links, the peer).
 */
#ifndef LULL_SIM_MODEL_H
#define LULL_SIM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "policy.h"
#include "slowwake.h"

#define SIM_MAX_QUEUES 64

/** Deterministic random numbers (splitmix64). */
struct sim_rng {
	uint64_t s;
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
/** Uniform in [0, 1). */
double sim_rng_unit(struct sim_rng *r);

enum sim_traffic_kind {
	SIM_TRAFFIC_CONST,   /**< evenly spaced at rate_pps */
	SIM_TRAFFIC_POISSON, /**< exponential gaps, mean rate_pps */
	SIM_TRAFFIC_BURST,   /**< burst_n at line rate every period_ns */
	SIM_TRAFFIC_ONOFF,   /**< rate_pps for on_ns, nothing for off_ns */
	SIM_TRAFFIC_RAMP,    /**< diurnal: rate_pps * (1 - cos(2 pi t / period_ns)) / 2, Poisson */
	SIM_TRAFFIC_TRACE,   /**< the arrival times of a trace, in ns */
	SIM_TRAFFIC_IDLE,    /**< nothing */
};

struct sim_traffic {
	enum sim_traffic_kind kind;
	double rate_pps;
	uint32_t burst_n;
	uint64_t period_ns; /**< burst period, ramp period */
	uint64_t on_ns, off_ns;
	const uint64_t *trace_ns; /**< ascending */
	size_t trace_n;
	double line_rate_pps; /**< arrivals never closer than 1 / line rate */
	uint64_t start_ns;    /**< no arrival before (not for traces and ramps) */
};

/** A delay distribution: fixed, or normal (clipped at 0), plus a rare tail. */
enum sim_dist_kind {
	SIM_DIST_FIXED,
	SIM_DIST_NORMAL,
	SIM_DIST_EMPIRICAL, /**< one of samples_ns, uniformly */
};

struct sim_dist {
	enum sim_dist_kind kind;
	double mean_ns, sd_ns;
	double tail_p, tail_ns; /**< with probability tail_p, tail_ns more */
	const double *samples_ns;
	size_t n_samples;
};

double sim_dist_draw(const struct sim_dist *d, struct sim_rng *r);

struct sim_pmd_model {
	uint32_t n_queues;    /**< rx queues polled, each with ring descriptors */
	uint32_t ring;        /**< rx ring size per queue */
	uint32_t burst;       /**< packets taken per poll per queue */
	bool spread;          /**< arrivals round-robin over the queues (else all on queue 0) */
	double poll_ns;       /**< CPU per poll of one queue */
	double pkt_ns;        /**< CPU per packet */
	double wait_cpu_ns;   /**< CPU per wait of the backend (syscall, timer), at most the wait */
	struct sim_dist wake; /**< backend's lateness: actual - requested */
	double spin_below_ns; /**< a wait asked shorter never leaves the CPU: it takes the
				   request plus spin_late, all of it CPU (0 = none) */
	struct sim_dist spin_late;
	double intr_after_ns;      /**< hand over to rx interrupts after this idle; 0 = never */
	double intr_cpu_ns;        /**< CPU per interrupt wait */
	struct sim_dist intr_wake; /**< from the arrival to the PMD running again */
	double path_ns;            /**< fixed latency outside the PMD */
	/** --wake-inject: a slow machine's lateness and CPU added to every wait, as lull's
	 * injecting wait backend adds them (lib/slowwake) */
	struct lull_slowwake_params inject;
};

struct sim_config {
	struct sim_traffic traffic;
	struct sim_pmd_model pmd;
	struct lull_policy_params policy;
	uint64_t duration_ns;
	uint64_t seed;
};

struct sim_result {
	uint64_t arrivals;
	uint64_t forwarded;
	uint64_t dropped[SIM_MAX_QUEUES]; /**< ring full */
	uint64_t dropped_total;
	uint64_t iterations;
	uint64_t waits; /**< sleeps and interrupt waits */
	uint64_t intr_waits;
	uint64_t budget_misses; /**< timed waits longer than the budget (ovs: its maximum) */
	double busy_ns;         /**< CPU: polls, packets, wait costs */
	double work_ns; /**< iterations that found packets (lull's busy cycles, what consolidation
			     weighs) */
	double wait_ns; /**< time spent waiting */
	double wait_req_ns; /**< what the policy asked for, summed */
	double total_ns;
	struct lull_hist lat_ns; /**< per forwarded packet */
};

/** @return 0, or -EINVAL for a configuration out of range. */
int sim_check(const struct sim_config *cfg);

/** Run cfg; res is overwritten. @return 0 or -EINVAL (sim_check) or -ENOMEM. */
int sim_run(const struct sim_config *cfg, struct sim_result *res);

#endif /* LULL_SIM_MODEL_H */
