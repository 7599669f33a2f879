/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Prometheus text exposition of lull's telemetry replies. Each family is one
 * row of a table (name, type, help, where its value comes from), printed with
 * its # HELP and # TYPE once and then one sample per PMD, port or queue, as
 * the format wants a family's samples together.
 */
#include "metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client.h"

enum scale {
	AS_IS,  /**< a count */
	CYCLES, /**< TSC cycles: printed as seconds (the PMD's tsc_hz) */
	NANOS,  /**< nanoseconds: printed as seconds */
	MICROS, /**< microseconds (a setting): printed as seconds */
};

struct family {
	const char *name; /**< without lull_ */
	const char *type; /**< counter (name ends in _total) or gauge */
	const char *help;
	const char *key; /**< in the reply */
	enum scale scale;
};

/* /lull/pmd_perf, per PMD */
static const struct family pmd_perf[] = {
	{"pmd_iterations_total", "counter", "Loop iterations.", "iterations", AS_IS},
	{"pmd_busy_iterations_total", "counter", "Iterations that received a packet.",
		"busy_iterations", AS_IS},
	{"pmd_busy_seconds_total", "counter",
		"Time in iterations that received packets (processing and tx).", "busy_cycles",
		CYCLES},
	{"pmd_idle_seconds_total", "counter", "Time in polls that found nothing.", "idle_cycles",
		CYCLES},
	{"pmd_wait_seconds_total", "counter",
		"Time in waits the policy chose (timed sleeps, interrupt waits, yields).",
		"sleep_cycles", CYCLES},
	{"pmd_intr_wait_seconds_total", "counter", "Of the wait time, in rx-interrupt waits.",
		"intr_cycles", CYCLES},
	{"pmd_yield_seconds_total", "counter", "Of the wait time, in housekeeping yields.",
		"yield_cycles", CYCLES},
	{"pmd_measured_seconds_total", "counter",
		"Time the counters cover (since start or pmd-stats-clear).", "duration_cycles",
		CYCLES},
	{"pmd_waits_total", "counter", "Waits of every kind.", "sleeps", AS_IS},
	{"pmd_wait_requested_seconds_total", "counter", "Sum of the waits the policy asked for.",
		"sleep_requested_ns", NANOS},
	{"pmd_wait_actual_seconds_total", "counter", "Sum of the waits as they took.",
		"sleep_actual_ns", NANOS},
	{"pmd_intr_waits_total", "counter", "Waits for an rx interrupt.", "intr_waits", AS_IS},
	{"pmd_intr_wakes_total", "counter", "Interrupt waits ended by an interrupt.", "intr_wakes",
		AS_IS},
	{"pmd_intr_empty_wakes_total", "counter", "Interrupt wakes whose next poll found nothing.",
		"intr_empty_wakes", AS_IS},
	{"pmd_control_wakes_total", "counter", "Interrupt waits ended by the control plane.",
		"control_wakes", AS_IS},
	{"pmd_early_wakes_total", "counter", "tpause/monitor returns before their deadline.",
		"early_wakes", AS_IS},
	{"pmd_budget_misses_total", "counter",
		"Timed waits longer than the latency budget (ovs, window: their maximum).",
		"budget_misses", AS_IS},
	{"pmd_max_sleep_hits_total", "counter", "Waits of the PMD's maximum.", "max_sleep_hits",
		AS_IS},
	{"pmd_busy_threshold_hits_total", "counter",
		"Iterations in which a burst reached the busy threshold.", "busy_threshold_hits",
		AS_IS},
	{"pmd_yields_total", "counter", "Housekeeping yields (--yield-hz).", "yields", AS_IS},
	{"pmd_full_bursts_total", "counter", "Rx bursts that came full.", "full_bursts", AS_IS},
	{"pmd_rx_packets_total", "counter", "Packets received.", "rx_packets", AS_IS},
	{"pmd_tx_packets_total", "counter", "Packets sent.", "tx_packets", AS_IS},
	{"pmd_tx_dropped_total", "counter", "Packets the tx queues refused (freed).", "tx_dropped",
		AS_IS},
};

/* /lull/pmd_sleep, per PMD: what the policy sees now */
static const struct family pmd_model[] = {
	{"pmd_max_sleep_seconds", "gauge", "Maximum sleep in force.", "max_sleep_us", MICROS},
	{"pmd_latency_budget_seconds", "gauge", "Latency budget in force.", "latency_budget_us",
		MICROS},
	{"pmd_wake_lateness_p50_seconds", "gauge", "Timed waits' lateness, recent median.",
		"late_p50_ns", NANOS},
	{"pmd_wake_lateness_p99_seconds", "gauge", "Timed waits' lateness, recent 99th percentile.",
		"late_p99_ns", NANOS},
	{"pmd_wake_queued_seconds", "gauge",
		"Run-queue delay of a timed wait, smoothed (another thread had the CPU; not "
		"charged to the budget).",
		"queued_ns", NANOS},
	{"pmd_timed_wait_cpu_seconds", "gauge", "CPU time of one timed wait (0: not measured).",
		"timed_wait_cpu_ns", NANOS},
	{"pmd_intr_wait_cpu_seconds", "gauge", "CPU time of one interrupt wait (0: not measured).",
		"intr_wait_cpu_ns", NANOS},
	{"pmd_arrival_rate_pps", "gauge", "Arrival rate the policy estimates.", "rate_pps", AS_IS},
	{"pmd_planned_sleep_seconds", "gauge", "The last timed sleep planned.", "planned_sleep_ns",
		NANOS},
	{"pmd_kept_lateness_percentile", "gauge",
		"Lateness percentile rate's sleeps keep within the budget (99; lower where the p99 "
		"is out of reach).",
		"kept_pct", AS_IS},
	{"pmd_config_generation", "gauge", "Generation of the parameters the PMD runs by.",
		"generation", AS_IS},
};

/* /lull/ports, per port */
static const struct family port_fams[] = {
	{"port_rx_packets_total", "counter", "Packets received.", "rx_packets", AS_IS},
	{"port_tx_packets_total", "counter", "Packets sent.", "tx_packets", AS_IS},
	{"port_tx_dropped_total", "counter", "Packets lull's tx queues refused.", "tx_dropped",
		AS_IS},
	{"port_rx_missed_total", "counter",
		"Packets lost for want of room on rx: the device's imissed and rx_nombuf, and "
		"net_af_packet's kernel ring drops.",
		"rx_missed", AS_IS},
	{"port_tx_queues_refusing", "gauge",
		"Tx queues that refused every packet since the link came up (a memif peer with "
		"fewer rx queues than lull has PMDs).",
		"tx_queues_refusing", AS_IS},
};

static double
num(json_t *o, const char *key, bool *ok)
{
	json_t *v = json_object_get(o, key);

	*ok = true;
	if (json_is_integer(v))
		return (double)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v);
	if (json_is_string(v)) {
		char *end;
		double d = strtod(json_string_value(v), &end);

		if (end != json_string_value(v) && *end == '\0')
			return d;
	}
	*ok = false;
	return 0;
}

/* pmd="1" or port="NAME" (escaped) into buf */
static void
label(char *buf, size_t len, const char *name, const char *value)
{
	size_t n = (size_t)snprintf(buf, len, "%s=\"", name);

	for (; *value != '\0' && n + 4 < len; value++) {
		if (*value == '\\' || *value == '"')
			buf[n++] = '\\';
		if (*value == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *value;
		}
	}
	snprintf(buf + n, len - n, "\"");
}

static const char *
str(json_t *o, const char *key, const char *otherwise)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : otherwise;
}

static void
head(FILE *out, const struct family *f)
{
	fprintf(out, "# HELP lull_%s %s\n# TYPE lull_%s %s\n", f->name, f->help, f->name, f->type);
}

/* One sample of f from o, labelled; a value lull did not send is left out. */
static void
sample(FILE *out, const struct family *f, json_t *o, const char *labels, double hz)
{
	bool ok;
	double v = num(o, f->key, &ok);

	if (!ok)
		return;
	if (f->scale == CYCLES) {
		if (hz <= 0)
			return;
		v /= hz;
	} else if (f->scale == NANOS) {
		v /= 1e9;
	} else if (f->scale == MICROS) {
		v /= 1e6;
	}
	if (f->scale == AS_IS && v == (double)(uint64_t)v)
		fprintf(out, "lull_%s{%s} %" PRIu64 "\n", f->name, labels, (uint64_t)v);
	else
		fprintf(out, "lull_%s{%s} %.9g\n", f->name, labels, v);
}

static void
per_pmd(FILE *out, const struct family *fams, size_t n, json_t *reply, json_t *perf)
{
	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *p;

		head(out, &fams[i]);
		json_object_foreach(reply, key, p)
		{
			bool ok;
			char labels[32];
			double hz = num(json_object_get(perf, key), "tsc_hz", &ok);

			snprintf(labels, sizeof(labels), "pmd=\"%.0f\"", num(p, "lcore", &ok));
			sample(out, &fams[i], p, labels, hz);
		}
	}
}

static const char *
port_name(json_t *ports, const char *id)
{
	char key[32];
	json_t *n;

	snprintf(key, sizeof(key), "port%s", id);
	n = json_object_get(json_object_get(ports, key), "name");
	return json_is_string(n) ? json_string_value(n) : id;
}

/* One per-queue family from /lull/pmd_rxq: keys PREFIX + PORT_QUEUE; cycles
 * (cyc_) printed as seconds. */
static void
rxq_family(FILE *out, json_t *rxq, json_t *ports, const char *prefix, const char *name,
	const char *help)
{
	const char *key, *q;
	json_t *p, *v;
	bool seconds = strcmp(prefix, "cyc_") == 0;

	fprintf(out, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	json_object_foreach(rxq, key, p)
	{
		bool ok;
		unsigned int lcore = (unsigned int)num(p, "lcore", &ok);
		double hz = num(p, "tsc_hz", &ok);

		json_object_foreach(p, q, v)
		{
			char id[16], labels[160];
			unsigned int queue;

			if (!json_is_integer(v) || strncmp(q, prefix, 4) != 0 ||
				sscanf(q + 4, "%15[0-9]_%u", id, &queue) != 2)
				continue;
			label(labels, sizeof(labels), "port", port_name(ports, id));
			fprintf(out, "%s{pmd=\"%u\",%s,queue=\"%u\"} ", name, lcore, labels, queue);
			if (seconds)
				fprintf(out, "%.9g\n",
					hz > 0 ? (double)json_integer_value(v) / hz : 0);
			else
				fprintf(out, "%" PRIu64 "\n", (uint64_t)json_integer_value(v));
		}
	}
}

static void
ports_and_queues(FILE *out, json_t *ports, json_t *rxq)
{
	const char *key;
	json_t *p;

	for (size_t i = 0; i < sizeof(port_fams) / sizeof(port_fams[0]); i++) {
		head(out, &port_fams[i]);
		json_object_foreach(ports, key, p)
		{
			char labels[160];

			label(labels, sizeof(labels), "port", str(p, "name", key));
			sample(out, &port_fams[i], p, labels, 0);
		}
	}
	fprintf(out, "# HELP lull_port_link_up Link state (1 up, 0 down).\n"
		     "# TYPE lull_port_link_up gauge\n");
	json_object_foreach(ports, key, p)
	{
		char labels[160];

		label(labels, sizeof(labels), "port", str(p, "name", key));
		fprintf(out, "lull_port_link_up{%s} %d\n", labels,
			strncmp(str(p, "link", ""), "Link up", 7) == 0);
	}
	rxq_family(out, rxq, ports, "rxq_", "lull_rxq_rx_packets_total",
		"Packets received on an rx queue.");
	rxq_family(out, rxq, ports, "cyc_", "lull_rxq_busy_seconds_total",
		"Time the PMD spent on an rx queue's non-empty polls (its load).");
}

static void
config_info(FILE *out, json_t *cfg)
{
	const char *key;
	json_t *v;
	bool first = true;

	fprintf(out, "# HELP lull_config_info The configuration in force (labels), always 1.\n"
		     "# TYPE lull_config_info gauge\nlull_config_info{");
	json_object_foreach(cfg, key, v)
	{
		if (!json_is_string(v))
			continue;
		char labels[600];

		label(labels, sizeof(labels), key, json_string_value(v)); /* keys are [a-z_]+ */
		fprintf(out, "%s%s", first ? "" : ",", labels);
		first = false;
	}
	fprintf(out, "} 1\n");
}

static void
up(FILE *out, int value)
{
	fprintf(out,
		"# HELP lull_up Whether lull answered this scrape.\n"
		"# TYPE lull_up gauge\nlull_up %d\n",
		value);
}

int
lullctl_metrics_write(FILE *out, const char *path, char *err, size_t errlen)
{
	static const char *const cmds[] = {"/lull/pmd_perf", "/lull/pmd_sleep", "/lull/pmd_rxq",
		"/lull/ports", "/lull/config"};
	enum { PERF, SLEEP, RXQ, PORTS, CONFIG, N };
	struct lullctl_client c = {.fd = -1};
	json_t *r[N] = {NULL};
	int ret = lullctl_connect(&c, path, LULLCTL_SCRAPE_TIMEOUT_MS, err, errlen);

	for (int i = 0; i < N && ret == 0; i++) {
		/* the per-PMD ones PMD by PMD: a scrape never undercounts */
		r[i] = i <= RXQ ? lullctl_request_pmds(&c, cmds[i], err, errlen)
				: lullctl_request(&c, cmds[i], err, errlen);
		if (r[i] == NULL) {
			ret = -EIO;
		} else if (!json_is_object(r[i])) {
			/* a refusal: "lull is stopping" */
			snprintf(err, errlen, "%s: %s", cmds[i],
				json_is_string(r[i]) ? json_string_value(r[i]) : "not an object");
			ret = -EAGAIN;
		}
	}
	lullctl_close(&c);
	up(out, ret == 0);
	if (ret == 0) {
		per_pmd(out, pmd_perf, sizeof(pmd_perf) / sizeof(pmd_perf[0]), r[PERF], r[PERF]);
		per_pmd(out, pmd_model, sizeof(pmd_model) / sizeof(pmd_model[0]), r[SLEEP],
			r[PERF]);
		ports_and_queues(out, r[PORTS], r[RXQ]);
		config_info(out, r[CONFIG]);
	}
	fprintf(out, "# EOF\n");
	for (int i = 0; i < N; i++)
		json_decref(r[i]);
	return ret;
}
