/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/*
 * Presets. this-vm: measured on lull's development VM (docs/benchmarks.md,
 * docs/simulation.md): an empty poll of a memif queue ~60 ns, ~62 ns per
 * forwarded packet (16 Mpps on one core), a nanosleep costs ~25 us of CPU and
 * wakes 30-40 us late with a tail of milliseconds, an eventfd/epoll wake
 * ~30 us, ~1 us of round trip outside the forwarder (lull-gen and memif).
 * bare-metal: public figures, see docs/simulation.md.
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

static int
fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static int
parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return -EINVAL;
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
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
		return fail(err, errlen, -errno, "cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f) != NULL) {
		char *end;
		double v = strtod(line, &end);

		if (end == line)
			continue; /* blank or comment */
		if (*end == 's')
			v *= scale_s;
		if (!isfinite(v) || v < 0) {
			fclose(f);
			return fail(err, errlen, -EINVAL, "'%s': bad value '%.40s'", path, line);
		}
		if (*n == cap) {
			double *p = realloc(*out, sizeof(double) * (cap = cap ? cap * 2 : 1024));

			if (p == NULL) {
				fclose(f);
				return fail(err, errlen, -ENOMEM, "'%s': out of memory", path);
			}
			*out = p;
		}
		(*out)[(*n)++] = v;
	}
	fclose(f);
	return *n > 0 ? 0 : fail(err, errlen, -EINVAL, "'%s' holds no number", path);
}

enum {
	O_PRESET = 256,
	O_POLICY,
	O_MAX,
	O_BUDGET,
	O_STEP,
	O_THRESHOLD,
	O_WINDOW,
	O_LINGER,
	O_WAKE_NS,
	O_WAKE_FILE,
	O_WAIT_CPU,
	O_INTR_AFTER,
	O_QUEUES,
	O_RING,
	O_BURST,
	O_SPREAD,
	O_POLL_NS,
	O_PKT_NS,
	O_PATH_NS,
	O_LINE_GBPS,
	O_LOAD,
	O_TRACE,
	O_RAMP,
	O_SEED,
	O_JSON,
	O_CSV,
	O_HELP,
	O_START,
};

static const struct option opts[] = {
	{"preset", required_argument, NULL, O_PRESET},
	{"policy", required_argument, NULL, O_POLICY},
	{"max-us", required_argument, NULL, O_MAX},
	{"budget-us", required_argument, NULL, O_BUDGET},
	{"step-us", required_argument, NULL, O_STEP},
	{"busy-threshold", required_argument, NULL, O_THRESHOLD},
	{"window", required_argument, NULL, O_WINDOW},
	{"linger-us", required_argument, NULL, O_LINGER},
	{"wake-ns", required_argument, NULL, O_WAKE_NS},
	{"wake-file", required_argument, NULL, O_WAKE_FILE},
	{"wait-cpu-ns", required_argument, NULL, O_WAIT_CPU},
	{"intr-after-ms", required_argument, NULL, O_INTR_AFTER},
	{"queues", required_argument, NULL, O_QUEUES},
	{"ring", required_argument, NULL, O_RING},
	{"burst", required_argument, NULL, O_BURST},
	{"spread", no_argument, NULL, O_SPREAD},
	{"poll-ns", required_argument, NULL, O_POLL_NS},
	{"pkt-ns", required_argument, NULL, O_PKT_NS},
	{"path-ns", required_argument, NULL, O_PATH_NS},
	{"line-gbps", required_argument, NULL, O_LINE_GBPS},
	{"load", required_argument, NULL, O_LOAD},
	{"trace", required_argument, NULL, O_TRACE},
	{"ramp", required_argument, NULL, O_RAMP},
	{"seed", required_argument, NULL, O_SEED},
	{"start-ms", required_argument, NULL, O_START},
	{"json", no_argument, NULL, O_JSON},
	{"csv", no_argument, NULL, O_CSV},
	{"help", no_argument, NULL, O_HELP},
	{NULL, 0, NULL, 0},
};

static int
bad(char *err, size_t errlen, int opt, const char *arg, const char *expect)
{
	for (const struct option *o = opts; o->name; o++)
		if (o->val == opt)
			return fail(err, errlen, -EINVAL, "--%s: bad value '%s' (expected %s)",
				o->name, arg, expect);
	return -EINVAL;
}

static int
parse_ramp(struct sim_options *o, const char *arg)
{
	char peak[32], period[32];
	const char *rest = lull_split(arg, ':', peak, sizeof(peak));

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

int
sim_options_parse(struct sim_options *o, int argc, char **argv, char *err, size_t errlen)
{
	uint32_t max_us = 250, budget_us = 250, step_us = 1, threshold = 0, window = 64,
		 linger = 20;
	double gbps = 0;
	int opt, ret = 0;
	bool have_budget = false;

	memset(o, 0, sizeof(*o));
	o->preset = "this-vm";
	o->base.seed = 1;
	sim_preset(&o->base.pmd, o->preset);
	o->base.policy.kind = LULL_POLICY_RATE;
	ret = lull_profile_parse("rate:10k:1s", &o->profile, err, errlen);
	optind = 0;
	opterr = 0;
	/* the preset first, so that later options change it */
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--preset") == 0) {
			o->preset = argv[i + 1];
			if (sim_preset(&o->base.pmd, o->preset) < 0)
				return fail(err, errlen, -EINVAL,
					"--preset: bad value '%s' (expected this-vm or bare-metal)",
					o->preset);
		}
	while (ret == 0 && (opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		struct sim_pmd_model *m = &o->base.pmd;
		double v = 0;
		uint64_t u64 = 0;

		switch (opt) {
		case O_PRESET:
			break;
		case O_POLICY:
			ret = lull_policy_parse(optarg);
			if (ret < 0) {
				ret = bad(err, errlen, opt, optarg, "off, ovs, window or rate");
				break;
			}
			o->base.policy.kind = (enum lull_policy_kind)ret;
			ret = 0;
			break;
		case O_MAX:
			ret = lull_parse_u32(optarg, 0, LULL_MAX_SLEEP_NS / 1000, &max_us);
			break;
		case O_BUDGET:
			ret = lull_parse_u32(optarg, 0, LULL_MAX_SLEEP_NS / 1000, &budget_us);
			have_budget = true;
			break;
		case O_STEP:
			ret = lull_parse_u32(optarg, 1, 1000, &step_us);
			break;
		case O_THRESHOLD:
			ret = lull_parse_u32(optarg, 1, 512, &threshold);
			break;
		case O_WINDOW:
			ret = lull_parse_u32(optarg, 1, LULL_POLICY_MAX_WIN, &window);
			break;
		case O_LINGER:
			ret = lull_parse_u32(optarg, 0, 1000000, &linger);
			break;
		case O_WAKE_NS: {
			char mean[32];
			const char *sd = lull_split(optarg, ':', mean, sizeof(mean));

			m->wake = (struct sim_dist){.kind = sd ? SIM_DIST_NORMAL : SIM_DIST_FIXED};
			ret = parse_double(sd ? mean : optarg, 0, 1e9, &m->wake.mean_ns);
			if (ret == 0 && sd)
				ret = parse_double(sd, 0, 1e9, &m->wake.sd_ns);
			if (ret < 0)
				ret = bad(err, errlen, opt, optarg, "MEAN or MEAN:SD in ns");
			break;
		}
		case O_WAKE_FILE:
			free(o->wake_samples);
			ret = read_numbers(
				optarg, 1e9, &o->wake_samples, &o->n_wake_samples, err, errlen);
			if (ret == 0)
				m->wake = (struct sim_dist){.kind = SIM_DIST_EMPIRICAL,
					.samples_ns = o->wake_samples,
					.n_samples = o->n_wake_samples};
			break;
		case O_WAIT_CPU:
			ret = parse_double(optarg, 0, 1e9, &m->wait_cpu_ns);
			break;
		case O_INTR_AFTER:
			ret = parse_double(optarg, 0, 3.6e6, &v);
			m->intr_after_ns = v * 1e6;
			break;
		case O_QUEUES:
			ret = lull_parse_u32(optarg, 1, SIM_MAX_QUEUES, &m->n_queues);
			break;
		case O_RING:
			ret = lull_parse_u32(optarg, 1, 1u << 20, &m->ring);
			break;
		case O_BURST:
			ret = lull_parse_u32(optarg, 1, 512, &m->burst);
			break;
		case O_SPREAD:
			m->spread = true;
			break;
		case O_POLL_NS:
			ret = parse_double(optarg, 1, 1e9, &m->poll_ns);
			break;
		case O_PKT_NS:
			ret = parse_double(optarg, 0, 1e9, &m->pkt_ns);
			break;
		case O_PATH_NS:
			ret = parse_double(optarg, 0, 1e9, &m->path_ns);
			break;
		case O_LINE_GBPS:
			ret = parse_double(optarg, 0.001, 10000, &gbps);
			break;
		case O_LOAD:
			ret = lull_profile_parse(optarg, &o->profile, err, errlen);
			break;
		case O_TRACE: {
			double *t;
			size_t n;

			ret = read_numbers(optarg, 1e9, &t, &n, err, errlen);
			if (ret < 0)
				break;
			free(o->trace_ns);
			o->trace_ns = malloc(sizeof(uint64_t) * n);
			if (o->trace_ns == NULL) {
				free(t);
				return fail(err, errlen, -ENOMEM, "--trace: out of memory");
			}
			for (size_t i = 0; i < n; i++) {
				if (i > 0 && t[i] < t[i - 1]) {
					free(t);
					return fail(err, errlen, -EINVAL,
						"--trace: '%s' is not ascending (line %zu)", optarg,
						i + 1);
				}
				o->trace_ns[i] = (uint64_t)t[i];
			}
			o->trace_n = n;
			free(t);
			break;
		}
		case O_RAMP:
			if (parse_ramp(o, optarg) < 0)
				ret = bad(err, errlen, opt, optarg,
					"PEAK:PERIOD:DURATION, e.g. 1M:10s:60s");
			break;
		case O_START:
			ret = parse_double(optarg, 0, 3.6e6, &v);
			o->base.traffic.start_ns = (uint64_t)(v * 1e6);
			break;
		case O_SEED:
			ret = lull_parse_u64(optarg, 0, UINT64_MAX, &u64);
			o->base.seed = u64;
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_CSV:
			o->csv = true;
			break;
		case O_HELP:
		case 'h':
			o->help = true;
			break;
		default:
			return lull_getopt_error(opt, argv, err, errlen);
		}
		if (ret < 0 && err[0] == '\0')
			ret = bad(err, errlen, opt, optarg ? optarg : "", "a number in range");
	}
	if (ret < 0)
		return ret;
	if (optind < argc)
		return fail(err, errlen, -EINVAL, "unexpected argument '%s' (see --help)",
			argv[optind]);
	lull_policy_defaults(
		&o->base.policy, o->base.policy.kind, o->base.pmd.burst, o->base.pmd.ring);
	o->base.policy.max_sleep_ns = (uint64_t)max_us * 1000;
	o->base.policy.budget_ns = (uint64_t)(have_budget ? budget_us : max_us) * 1000;
	o->base.policy.step_ns = (uint64_t)step_us * 1000;
	if (threshold)
		o->base.policy.busy_threshold = threshold;
	o->base.policy.window = window;
	o->base.policy.linger_ns = (uint64_t)linger * 1000;
	if (max_us == 0)
		o->base.policy.kind = LULL_POLICY_OFF;
	/* 64-byte frames: 84 bytes on the wire with preamble and gap. Without a wire
	 * (memif, this-vm) a burst lands in the ring as fast as the sender copies it:
	 * no limit. */
	o->preset_line_pps = 0;
	o->base.traffic.line_rate_pps = gbps > 0 ? gbps * 1e9 / (84 * 8) : o->preset_line_pps;
	return 0;
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
	       "\n"
	       "Hardware:\n"
	       "  --preset P          this-vm (lull's development VM) or bare-metal (default "
	       "this-vm)\n"
	       "  --queues N --ring N --burst N   rx queues polled, descriptors each, burst (2, "
	       "1024, 32)\n"
	       "  --spread            arrivals round-robin over the queues (default: all on queue "
	       "0)\n"
	       "  --poll-ns F --pkt-ns F          CPU per poll of a queue, per packet\n"
	       "  --wait-cpu-ns F     CPU per sleep (syscall, timer)\n"
	       "  --wake-ns M[:SD]    lateness of a sleep: fixed, or normal (ns)\n"
	       "  --wake-file FILE    lateness drawn from measured values (ns per line, or N.Ns)\n"
	       "  --intr-after-ms F   hand over to rx interrupts after this idle (0 = never)\n"
	       "  --path-ns F         latency outside the PMD added to every packet\n"
	       "  --line-gbps G       64-byte line rate: no two arrivals closer (10 = 14.88 Mpps)\n"
	       "Policy (as lull's options):\n"
	       "  --policy P --max-us U --budget-us U (default = max) --step-us U --busy-threshold "
	       "N\n"
	       "  --window W --linger-us U\n"
	       "Traffic:\n"
	       "  --load LIST         lull-gen phases; one simulation per phase (default "
	       "rate:10k:1s):\n"
	       "                      idle:T rate:R:T poisson:R:T burst:N/P:T onoff:R:ON/OFF:T "
	       "max:T\n"
	       "                      (max = the line rate)\n"
	       "  --ramp PEAK:PERIOD:T  diurnal ramp 0..PEAK..0 every PERIOD, Poisson\n"
	       "  --trace FILE        arrival times, one per line (ns, or seconds with 's')\n"
	       "  --start-ms F        no arrival before F ms (an idle spell first)\n"
	       "  --seed N            random seed (default 1); same seed, same result\n"
	       "Output:\n"
	       "  --json | --csv      instead of the table\n",
		prog);
}
