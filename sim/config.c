/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consolidate.h"
#include "opt.h"
#include "parse.h"
#include "sleepopt.h"

/*
 * Presets. this-vm: measured on lull's development VM (docs/benchmarks.md,
 * docs/simulation.md): an empty poll of a memif queue ~60 ns, ~62 ns per
 * forwarded packet (16 Mpps on one core), a nanosleep costs ~25 us of CPU and
 * wakes 30-40 us late with a tail of milliseconds, an eventfd/epoll wake
 * ~30 us, ~1 us of round trip outside the forwarder (lull-gen and memif).
 * bare-metal: public figures, see docs/simulation.md. slow-vm: a slow KVM
 * guest's wakes (lib/slowwake), the figures --wake-inject slow-vm adds.
 */
int
sim_preset(struct sim_pmd_model *m, const char *name)
{
	struct sim_pmd_model d = {
		.n_queues = 2,
		.ring = 1024,
		.burst = 32,
	};

	if (strcmp(name, "this-vm") == 0) {
		d.poll_ns = 60;
		d.pkt_ns = 62;
		d.wait_cpu_ns = 25000;
		d.wake = (struct sim_dist){.kind = SIM_DIST_NORMAL,
			.mean_ns = 35000,
			.sd_ns = 8000,
			.tail_p = 0.0005,
			.tail_ns = 1500000};
		/* short sleeps (ovs ramping up at 1 Mpps: 53k sleeps/s, 15 us late, the
		 * thread at 99 % CPU) return without leaving the CPU */
		d.spin_below_ns = 8000;
		d.spin_late = (struct sim_dist){.kind = SIM_DIST_FIXED, .mean_ns = 15000};
		d.intr_after_ns = 0; /* memif has no rx interrupts here */
		d.intr_cpu_ns = 30000;
		d.intr_wake = (struct sim_dist){.kind = SIM_DIST_FIXED, .mean_ns = 30000};
		d.path_ns = 1000;
	} else if (strcmp(name, "slow-vm") == 0) {
		/* this-vm's polls and packets; every wait's CPU and lateness are
		 * lib/slowwake's slow-vm (issue 27's KVM guest), nothing else */
		d.poll_ns = 60;
		d.pkt_ns = 62;
		d.wake = (struct sim_dist){.kind = SIM_DIST_FIXED, .mean_ns = 0};
		d.intr_after_ns = 0;
		d.intr_wake = (struct sim_dist){.kind = SIM_DIST_FIXED, .mean_ns = 0};
		d.path_ns = 1000;
		lull_slowwake_preset("slow-vm", &d.inject);
	} else if (strcmp(name, "bare-metal") == 0) {
		d.poll_ns = 20;
		d.pkt_ns = 25;
		d.wait_cpu_ns = 1500;
		d.wake = (struct sim_dist){.kind = SIM_DIST_NORMAL, .mean_ns = 3000, .sd_ns = 1000};
		d.intr_after_ns = 200e6;
		d.intr_cpu_ns = 3000;
		d.intr_wake =
			(struct sim_dist){.kind = SIM_DIST_NORMAL, .mean_ns = 10000, .sd_ns = 3000};
		d.path_ns = 0;
	} else {
		return -EINVAL;
	}
	*m = d;
	return 0;
}

/* One number per line (ns as a float, or seconds with an "s" suffix); ascending for a trace. */
static int
read_numbers(const char *path, double scale_s, double **out, size_t *n, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (f == NULL)
		return lull_errf(
			err, errlen, -errno, "cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f) != NULL) {
		char *end;
		double v = strtod(line, &end);

		if (end == line)
			continue; /* blank or comment */
		if (*end == 's')
			v *= scale_s;
		if (!isfinite(v) || v < 0) {
			fclose(f);
			return lull_errf(
				err, errlen, -EINVAL, "'%s': bad value '%.40s'", path, line);
		}
		if (*n == cap) {
			double *p = realloc(*out, sizeof(double) * (cap = cap ? cap * 2 : 1024));

			if (p == NULL) {
				fclose(f);
				return lull_errf(err, errlen, -ENOMEM, "'%s': out of memory", path);
			}
			*out = p;
		}
		(*out)[(*n)++] = v;
	}
	fclose(f);
	return *n > 0 ? 0 : lull_errf(err, errlen, -EINVAL, "'%s' holds no number", path);
}

#define T struct sim_options

/* The preset is applied before every other option (sim_options_parse), so that
 * later options change it; here it is only checked. */
static int
parse_preset(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct sim_pmd_model m;

	(void)target;
	if (sim_preset(&m, arg) < 0)
		return lull_opt_bad(
			row, arg, -EINVAL, "expected this-vm, bare-metal or slow-vm", err, errlen);
	return 0;
}

static int
parse_wake_ns(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct sim_pmd_model *m = &((T *)target)->base.pmd;
	char mean[32];
	const char *sd = lull_split(arg, ':', mean, sizeof(mean));
	int ret;

	(void)row;
	(void)err;
	(void)errlen;
	m->wake = (struct sim_dist){.kind = sd ? SIM_DIST_NORMAL : SIM_DIST_FIXED};
	ret = lull_parse_double(sd ? mean : arg, 0, 1e9, &m->wake.mean_ns);
	if (ret == 0 && sd)
		ret = lull_parse_double(sd, 0, 1e9, &m->wake.sd_ns);
	return ret < 0 ? -EINVAL : 0;
}

static int
parse_wake_file(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	T *o = target;
	int ret;

	(void)row;
	free(o->wake_samples);
	ret = read_numbers(arg, 1e9, &o->wake_samples, &o->n_wake_samples, err, errlen);
	if (ret == 0)
		o->base.pmd.wake = (struct sim_dist){.kind = SIM_DIST_EMPIRICAL,
			.samples_ns = o->wake_samples,
			.n_samples = o->n_wake_samples};
	return ret;
}

static int
parse_trace(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	T *o = target;
	double *t;
	size_t n;
	int ret = read_numbers(arg, 1e9, &t, &n, err, errlen);

	(void)row;
	if (ret < 0)
		return ret;
	free(o->trace_ns);
	o->trace_ns = malloc(sizeof(uint64_t) * n);
	if (o->trace_ns == NULL) {
		free(t);
		return lull_errf(err, errlen, -ENOMEM, "--trace: out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && t[i] < t[i - 1]) {
			free(t);
			return lull_errf(err, errlen, -EINVAL,
				"--trace: '%s' is not ascending (line %zu)", arg, i + 1);
		}
		o->trace_ns[i] = (uint64_t)t[i];
	}
	o->trace_n = n;
	free(t);
	return 0;
}

static int
parse_ramp(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	T *o = target;
	char peak[32], period[32];
	const char *rest = lull_split(arg, ':', peak, sizeof(peak));

	(void)row;
	(void)err;
	(void)errlen;
	if (rest == NULL)
		return -EINVAL;
	rest = lull_split(rest, ':', period, sizeof(period));
	if (rest == NULL || lull_parse_rate(peak, &o->ramp_peak_pps) < 0 ||
		lull_parse_time_ns(period, &o->ramp_period_ns) < 0 ||
		lull_parse_time_ns(rest, &o->ramp_duration_ns) < 0)
		return -EINVAL;
	o->ramp = true;
	return 0;
}

static int
parse_day_length(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	(void)row;
	(void)err;
	(void)errlen;
	return lull_parse_time_ns(arg, &((T *)target)->fleet.day_ns) < 0 ? -EINVAL : 0;
}

/* The consolidation rows alone: their defaults, lull's (lib/consolidate.h). */
static const struct lull_opt cons_rows[] = {
	LULL_CONSOLIDATE_OPT_ROWS(T, pack_below_pct, unpack_above_pct, dwell_ms, 0),
	LULL_OPT_END_ROW,
};

/* lull-sim's options (lib/opt); the policy rows are lull's own (lib/sleepopt). */
static const struct lull_opt sim_opts[] = {
	LULL_OPT_SECTION_ROW("Hardware"),
	LULL_OPT_TEXT_ROW(T, preset, "preset", "P", "this-vm",
		"this-vm (lull's development VM), bare-metal or slow-vm (a slow KVM guest's "
		"wakes, lib/slowwake); applied before the other options",
		NULL, 0, parse_preset, NULL),
	LULL_OPT_UINT_ROW(
		T, base.pmd.n_queues, "queues", "N", 1, SIM_MAX_QUEUES, "2", "rx queues polled", 0),
	LULL_OPT_UINT_ROW(
		T, base.pmd.ring, "ring", "N", 1, 1u << 20, "1024", "descriptors per rx queue", 0),
	LULL_OPT_UINT_ROW(T, base.pmd.burst, "burst", "N", 1, 512, "32", "rx burst", 0),
	LULL_OPT_FLAG_ROW(T, base.pmd.spread, "spread", 0,
		"arrivals round-robin over the queues (default: all on queue 0)", 0),
	LULL_OPT_DOUBLE_ROW(T, base.pmd.poll_ns, "poll-ns", "F", 1, 1e9, "the preset's",
		"CPU per poll of a queue", 0),
	LULL_OPT_DOUBLE_ROW(
		T, base.pmd.pkt_ns, "pkt-ns", "F", 0, 1e9, "the preset's", "CPU per packet", 0),
	LULL_OPT_DOUBLE_ROW(T, base.pmd.wait_cpu_ns, "wait-cpu-ns", "F", 0, 1e9, "the preset's",
		"CPU per sleep (syscall, timer)", 0),
	LULL_OPT_TEXT_ROW(T, base.pmd.wake, "wake-ns", "M[:SD]", "the preset's",
		"lateness of a sleep: fixed, or normal (ns)", "expected MEAN or MEAN:SD in ns", 0,
		parse_wake_ns, NULL),
	LULL_OPT_TEXT_ROW(T, wake_samples, "wake-file", "FILE", NULL,
		"lateness drawn from measured values (ns per line, or N.Ns)", NULL, 0,
		parse_wake_file, NULL),
	LULL_OPT_TEXT_ROW(T, base.pmd.inject, "wake-inject", "M", "the preset's",
		"add a slow machine's wakes to the model, as lull's --wake-inject does: off or "
		"slow-vm",
		NULL, 0, lull_slowwake_opt_parse, NULL),
	LULL_OPT_DOUBLE_ROW(T, intr_after_ms, "intr-after-ms", "F", 0, 3.6e6, "the preset's",
		"hand over to rx interrupts after this idle (0 = never)", 0),
	LULL_OPT_DOUBLE_ROW(T, base.pmd.path_ns, "path-ns", "F", 0, 1e9, "the preset's",
		"latency outside the PMD added to every packet", 0),
	LULL_OPT_DOUBLE_ROW(T, line_gbps, "line-gbps", "G", 0.001, 10000, "no limit",
		"64-byte line rate: no two arrivals closer (10 = 14.88 Mpps)", 0),
	LULL_OPT_SECTION_ROW("Policy (lull's options, names and defaults)"),
	LULL_SLEEP_OPT_ROWS(T, sleep, NULL),
	LULL_OPT_SECTION_ROW("Traffic"),
	LULL_OPT_TEXT_ROW(T, profile, "load", "LIST", "rate:10k:1s",
		"lull-gen phases, one simulation per phase: idle:T rate:R:T poisson:R:T "
		"burst:N/P:T onoff:R:ON/OFF:T max:T (max = the line rate)",
		NULL, 0, lull_opt_parse_profile, NULL),
	LULL_OPT_TEXT_ROW(T, ramp, "ramp", "PEAK:PERIOD:T", NULL,
		"diurnal ramp 0..PEAK..0 every PERIOD, Poisson",
		"expected PEAK:PERIOD:DURATION, e.g. 1M:10s:60s", 0, parse_ramp, NULL),
	LULL_OPT_TEXT_ROW(T, trace_ns, "trace", "FILE", NULL,
		"arrival times, one per line (ns, or seconds with 's')", NULL, 0, parse_trace,
		NULL),
	LULL_OPT_DOUBLE_ROW(T, start_ms, "start-ms", "F", 0, 3.6e6, "0",
		"no arrival before F ms (an idle spell first)", 0),
	LULL_OPT_UINT_ROW(T, base.seed, "seed", "N", 0, UINT64_MAX, "1",
		"random seed; same seed, same result", 0),
	LULL_OPT_SECTION_ROW("Fleet: N PMDs over a day, with and without consolidation"),
	LULL_OPT_UINT_ROW(T, fleet.n_pmds, "pmds", "N", 0, SIM_FLEET_MAX_PMDS, "0",
		"simulate N PMDs and their rx queues over a diurnal day instead of one PMD per "
		"phase (0 = one PMD)",
		0),
	LULL_OPT_UINT_ROW(T, fleet.rxqs_per_pmd, "rxqs-per-pmd", "N", 1, SIM_MAX_QUEUES, "2",
		"rx queues, N per PMD at the start (at most 64 in all)", 0),
	LULL_OPT_DOUBLE_ROW(T, day_peak_pct, "day-peak-pct", "F", 0, 100, "50",
		"the day's peak, % of the --line-gbps line (without one: of the PMDs' capacity)",
		0),
	LULL_OPT_DOUBLE_ROW(T, day_trough_pct, "day-trough-pct", "F", 0, 100, "20",
		"the night's low, % of the peak", 0),
	LULL_OPT_TEXT_ROW(T, fleet.day_ns, "day-length", "T", "24h",
		"one period of the diurnal load, and the time simulated",
		"expected a time, e.g. 24h", 0, parse_day_length, NULL),
	LULL_OPT_DOUBLE_ROW(T, fleet.rss_skew, "rss-skew", "F", 0, 0.99, "0.3",
		"queue shares 1 +- F (uniform), as RSS spreads flows unevenly", 0),
	LULL_OPT_DOUBLE_ROW(T, fleet.noise, "noise", "F", 0, 10, "0.1",
		"each queue's rate varies this much (sd, a share) from window to window", 0),
	LULL_OPT_UINT_ROW(
		T, window_ms, "window-ms", "N", 1, 3600000, "1000", "lull's measurement window", 0),
	LULL_CONSOLIDATE_OPT_ROWS(T, pack_below_pct, unpack_above_pct, dwell_ms, 0),
	LULL_OPT_SECTION_ROW("Output"),
	LULL_OPT_FLAG_ROW(T, json, "json", 0, "JSON instead of the table", 0),
	LULL_OPT_FLAG_ROW(T, csv, "csv", 0, "CSV instead of the table", 0),
	LULL_OPT_FLAG_ROW(T, help, "help", 'h', "this text", 0),
	LULL_OPT_FLAG_ROW(T, version, "version", 'V', "the version", 0),
	LULL_OPT_END_ROW,
};

#undef T

/* The fleet's configuration from its options; checked like lull checks them. */
static int
fleet_options(struct sim_options *o, char *err, size_t errlen)
{
	struct sim_fleet_config *f = &o->fleet;
	double cap_pps = sim_capacity_pps(&o->base.pmd);

	if (f->n_pmds == 0)
		return 0;
	if (f->n_pmds * f->rxqs_per_pmd > SIM_MAX_QUEUES)
		return lull_errf(err, errlen, -EINVAL,
			"--pmds %u x --rxqs-per-pmd %u: more than %d rx queues", f->n_pmds,
			f->rxqs_per_pmd, SIM_MAX_QUEUES);
	if (o->pack_below_pct >= o->unpack_above_pct)
		return lull_errf(err, errlen, -EINVAL,
			"--pack-below-pct %u must be below --unpack-above-pct %u",
			o->pack_below_pct, o->unpack_above_pct);
	f->base = o->base;
	f->peak_pps = o->day_peak_pct / 100 *
		      (o->base.traffic.line_rate_pps > 0 ? o->base.traffic.line_rate_pps
							 : cap_pps * f->n_pmds);
	f->trough_share = o->day_trough_pct / 100;
	f->window_ns = (uint64_t)o->window_ms * 1000000;
	if (f->day_ns < f->window_ns)
		return lull_errf(err, errlen, -EINVAL,
			"--day-length is shorter than --window-ms %u", o->window_ms);
	f->cons = (struct lull_cons_params){
		.pack_below = o->pack_below_pct / 100.0,
		.unpack_above = o->unpack_above_pct / 100.0,
		.calm_windows = LULL_CONS_CALM_WINDOWS,
		.dwell_ns = (uint64_t)o->dwell_ms * 1000000,
		.max_queues = LULL_CONS_MAX_QUEUES,
	};
	return 0;
}

int
sim_options_parse(struct sim_options *o, int argc, char **argv, char *err, size_t errlen)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->preset = "this-vm";
	/* the preset first, so that later options change it */
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;

		if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc)
			v = argv[i + 1];
		else if (strncmp(argv[i], "--preset=", 9) == 0)
			v = argv[i] + 9;
		if (v != NULL && sim_preset(&o->base.pmd, v) == 0)
			o->preset = v; /* a bad one is named by the table */
	}
	sim_preset(&o->base.pmd, o->preset);
	o->base.seed = 1;
	o->intr_after_ms = o->base.pmd.intr_after_ns / 1e6;
	lull_sleep_opts_defaults(&o->sleep);
	o->fleet.rxqs_per_pmd = 2;
	o->fleet.day_ns = 86400ull * 1000000000;
	o->fleet.rss_skew = 0.3;
	o->fleet.noise = 0.1;
	o->day_peak_pct = 50;
	o->day_trough_pct = 20;
	o->window_ms = 1000;
	ret = lull_opt_defaults(cons_rows, o, err, errlen);
	if (ret == 0)
		ret = lull_profile_parse("rate:10k:1s", &o->profile, err, errlen);
	if (ret == 0)
		ret = lull_opt_parse(sim_opts, o, argc, argv, err, errlen);
	if (ret < 0)
		return ret;
	o->base.pmd.intr_after_ns = o->intr_after_ms * 1e6;
	o->base.traffic.start_ns = (uint64_t)(o->start_ms * 1e6);
	lull_sleep_opts_params(&o->sleep, 0, o->base.pmd.burst, o->base.pmd.ring, &o->base.policy);
	/* 64-byte frames: 84 bytes on the wire with preamble and gap. Without a wire
	 * (memif, this-vm) a burst lands in the ring as fast as the sender copies it:
	 * no limit. */
	o->preset_line_pps = 0;
	o->base.traffic.line_rate_pps =
		o->line_gbps > 0 ? o->line_gbps * 1e9 / (84 * 8) : o->preset_line_pps;
	/* the burst tolerance's line rate: the wire's, else (memif) 10 GbE as lull assumes */
	o->base.policy.line_ppns =
		(o->base.traffic.line_rate_pps > 0 ? o->base.traffic.line_rate_pps
						   : 10e9 / (84 * 8)) /
		1e9;
	return fleet_options(o, err, errlen);
}

void
sim_options_free(struct sim_options *o)
{
	free(o->trace_ns);
	free(o->wake_samples);
	o->trace_ns = NULL;
	o->wake_samples = NULL;
}

void
sim_usage(const char *prog)
{
	printf("Usage: %s [options]\n"
	       "\n"
	       "Simulates one lull PMD in virtual time with lib/policy, unchanged: what a sleep\n"
	       "policy costs (CPU) and risks (latency, drops) for a load on given hardware.\n"
	       "With --pmds N: N PMDs over a diurnal day, consolidated by lib/consolidate\n"
	       "(lull's rules), against the same without consolidation and busy polling.\n"
	       "\n",
		prog);
	lull_opt_usage(sim_opts, stdout);
}
