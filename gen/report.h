/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-gen results per phase, as a table for people, JSON or CSV for scripts.
 * All three views print the same rows (gen_report_row).
 */
#ifndef LULL_GEN_REPORT_H
#define LULL_GEN_REPORT_H

#include <stdio.h>

#include "gen.h"

struct gen_report_row {
	unsigned int phase;
	const char *text;
	double secs;
	double offered_pps; /**< -1 for max */
	double tx_pps, rx_pps;
	uint64_t offered; /**< packets due in the phase: sent + refused + not built */
	uint64_t tx, rx, lost, dup, reordered, refused, skipped, bad_cksum;
	uint64_t lost_in_flight; /**< sent and never received */
	uint64_t nombuf;         /**< not built: lull-gen's pool was empty */
	bool refused_is_loss;    /**< refused counts in lost (see gen.h) */
	double loss_pct;
	double min_us, avg_us, p50_us, p90_us, p99_us, p999_us, max_us;
	double p25_us, p75_us, stddev_us;
	double late_p50_us, late_p99_us, late_max_us; /**< send start after its deadline */
};

void gen_report_row(const struct gen *g, unsigned int i, struct gen_report_row *r);

void gen_report_table(FILE *out, const struct gen *g);
void gen_report_json(FILE *out, const struct gen *g);
void gen_report_csv(FILE *out, const struct gen *g);

#endif /* LULL_GEN_REPORT_H */
