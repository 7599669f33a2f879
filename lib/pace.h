/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Departure schedule of one profile phase against absolute deadlines.
 *
 * The caller asks how many packets are due at "now" and sends them; deadlines
 * advance by the schedule, not by when packets actually left, so the mean rate
 * is exact. When the sender falls more than max_lag_ns behind, the backlog
 * beyond that is dropped from the schedule (counted in skipped) instead of
 * being sent as one burst: catch-up is bounded. Pure C: time is whatever
 * nanosecond clock the caller passes; randomness is a seeded xorshift.
 */
#ifndef LULL_PACE_H
#define LULL_PACE_H

#include <stdint.h>

#include "profile.h"

struct lull_pace {
	const struct lull_phase *ph;
	uint64_t start_ns;
	double next_ns;      /**< next deadline */
	double interval_ns;  /**< mean spacing (RATE, POISSON, ONOFF) */
	uint64_t max_lag_ns; /**< backlog bound */
	uint64_t rng;        /**< xorshift64 state (POISSON) */
	uint64_t burst_left; /**< BURST: packets of the current burst still due */
	uint64_t skipped;    /**< packets dropped from the schedule by the lag bound */
};

/** Start a phase at start_ns. seed != 0. */
void lull_pace_start(struct lull_pace *p, const struct lull_phase *ph, uint64_t start_ns,
	uint64_t seed, uint64_t max_lag_ns);

/** How many packets are due at now_ns (at most max); they are taken from the schedule. */
uint32_t lull_pace_due(struct lull_pace *p, uint64_t now_ns, uint32_t max);

/** Next deadline (ns) after the packets taken so far; UINT64_MAX when none (idle). */
uint64_t lull_pace_next_ns(const struct lull_pace *p);

#endif /* LULL_PACE_H */
