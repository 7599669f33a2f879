/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * lull-sim's options and hardware presets. Pure C.
 */
#ifndef LULL_SIM_CONFIG_H
#define LULL_SIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet.h"
#include "model.h"
#include "profile.h"
#include "sleepopt.h"

#define SIM_MAX_SAMPLES 100000

struct sim_options {
	struct sim_config base;      /**< PMD model, policy, seed; traffic per run */
	struct lull_profile profile; /**< --load: one simulation per phase */
	bool ramp;                   /**< --ramp instead of --load */
	double ramp_peak_pps;
	uint64_t ramp_period_ns, ramp_duration_ns;
	uint64_t *trace_ns; /**< --trace instead of --load (malloc'd) */
	size_t trace_n;
	double *wake_samples; /**< --wake-file (malloc'd) */
	size_t n_wake_samples;
	struct lull_sleep_opts sleep; /**< lull's policy options, shared rows */
	double intr_after_ms;         /**< --intr-after-ms, into base.pmd.intr_after_ns */
	double line_gbps;             /**< --line-gbps; 0 = the preset's */
	double start_ms;              /**< --start-ms, into base.traffic.start_ns */
	const char *preset;
	double preset_line_pps; /**< the preset's arrival limit when --line-gbps is not given */
	/* --pmds N: a fleet of N PMDs over a diurnal day (sim/fleet.h) */
	struct sim_fleet_config fleet;
	double day_peak_pct;   /**< of the line rate, or of the PMDs' capacity without a line */
	double day_trough_pct; /**< of the peak */
	uint32_t pack_below_pct, unpack_above_pct, dwell_ms, window_ms;
	bool json, csv, help, version;
};

/** Parse argv (argv[0] = program). @return 0 or -errno with a message naming the option. */
int sim_options_parse(struct sim_options *o, int argc, char **argv, char *err, size_t errlen);

/** Apply a preset ("this-vm", "bare-metal") to the PMD model. @return 0 or -EINVAL. */
int sim_preset(struct sim_pmd_model *m, const char *name);

void sim_options_free(struct sim_options *o);

void sim_usage(const char *prog);

#endif /* LULL_SIM_CONFIG_H */
