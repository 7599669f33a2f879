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

/** Print a port table and a PMD table; update prev. final marks the exit report. */
void lull_stats_print(
	FILE *out, const struct lull_fwd *fwd, struct lull_stats_prev *prev, bool final);

#endif /* LULL_STATS_H */
