/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The slow machine on any machine: what a wait costs and how late it wakes on
 * a host whose wakes are slow, drawn from a distribution. The unit tests feed
 * the policy with it, lull-sim adds it to its model and lull's injecting wait
 * backend (--wake-inject) adds it to every real timed wait, so that a policy
 * is tried on a slow VM's shape from a fast machine. Pure C, no clock: the
 * caller draws numbers and spends them.
 *
 * The preset "slow-vm" is issue 27's KVM guest: a timed wait costs ~42 us of
 * CPU, 1 in 100 is charged 160 us (a vCPU preempted while the thread ran);
 * the lateness is 30 us plus an exponential tail of mean 23 us (mean 53 us,
 * p99 136 us), and 1 wake in 2,000 is 2-5 ms late (a host stall).
 */
#ifndef LULL_SLOWWAKE_H
#define LULL_SLOWWAKE_H

#include <stdint.h>

#include "opt.h"

struct lull_slowwake_params {
	uint64_t cpu_ns;            /**< CPU of a wait */
	uint32_t cpu_spike_every;   /**< 1 wait in this many is charged cpu_spike_ns (0 = none) */
	uint64_t cpu_spike_ns;      /**< instead of cpu_ns */
	uint64_t late_base_ns;      /**< every wake is at least this late */
	uint64_t late_tail_mean_ns; /**< plus an exponential tail of this mean */
	uint32_t stall_every;       /**< 1 wake in this many is also stalled (0 = none) */
	uint64_t stall_min_ns, stall_max_ns; /**< by a uniform draw between these */
};

struct lull_slowwake {
	struct lull_slowwake_params p;
	uint64_t rng; /**< xorshift64 state, never 0 */
};

/** How many presets lull_slowwake_name() names. */
#define LULL_SLOWWAKE_N 2

/** Preset k's name (0: "off", 1: "slow-vm"), NULL past the last. */
const char *lull_slowwake_name(unsigned int k);

/**
 * The parameters of a named preset: "off" (nothing added: every field 0) or
 * "slow-vm". @return 0, or -EINVAL for another name.
 */
int lull_slowwake_preset(const char *name, struct lull_slowwake_params *p);

/** The preset whose parameters p holds ("off" for none), else "custom". */
const char *lull_slowwake_name_of(const struct lull_slowwake_params *p);

/** A row's parser and show for a struct lull_slowwake_params field, given by
 * preset name (lull's and lull-sim's --wake-inject). */
lull_opt_parse_fn lull_slowwake_opt_parse;
lull_opt_show_fn lull_slowwake_opt_show;

/** Whether p adds anything. */
int lull_slowwake_on(const struct lull_slowwake_params *p);

void lull_slowwake_init(
	struct lull_slowwake *s, const struct lull_slowwake_params *p, uint64_t seed);

/**
 * The next wait's draw: how much later it wakes (late_ns) and how much CPU it
 * spends (cpu_ns). A slow host spends a wake's CPU before the thread runs
 * again, so the CPU is part of the lateness: late_ns >= cpu_ns.
 */
void lull_slowwake_draw(struct lull_slowwake *s, uint64_t *late_ns, uint64_t *cpu_ns);

#endif /* LULL_SLOWWAKE_H */
