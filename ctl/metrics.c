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
#include "contract.h"

/* units: lib/contract.h's, by their short names */
#define AS_IS  LULL_UNIT_COUNT
#define CYCLES LULL_UNIT_CYCLES
#define NANOS  LULL_UNIT_NS
#define MICROS LULL_UNIT_US

struct family {
	const char *name; /**< without lull_ */
	const char *type; /**< counter or gauge; NULL: by the name (counters end in _total) */
	const char *help;
	const char *key; /**< in the reply */
	enum lull_unit scale;
};

/* A family of lib/contract.h's rows (its type by the name: counters end in _total). */
#define LULL_FAMILY_(id, key, metric, unit, help) {metric, NULL, help, key, LULL_UNIT_##unit},

/* /lull/pmd_perf, per PMD: the counters, then what telemetry derives */
static const struct family pmd_perf[] = {LULL_PMD_STATS(LULL_FAMILY_)};
static const struct family pmd_perf_more[] = {
	{"pmd_measured_seconds_total", "counter",
		"Time the counters cover (since start or pmd-stats-clear).", "duration_cycles",
		CYCLES},
	{"pmd_rx_packets_total", "counter", "Packets received.", "rx_packets", AS_IS},
	{"pmd_tx_packets_total", "counter", "Packets sent.", "tx_packets", AS_IS},
	{"pmd_tx_dropped_total", "counter", "Packets the tx queues refused (freed).", "tx_dropped",
		AS_IS},
};

/* /lull/pmd_sleep, per PMD: what the policy sees now (the model's gauges whose
 * row names a family, then the settings in force) */
static const struct family pmd_model[] = {LULL_PMD_MODEL(LULL_FAMILY_)};
static const struct family pmd_settings[] = {
	{"pmd_max_sleep_seconds", "gauge", "Maximum sleep in force.", "max_sleep_us", MICROS},
	{"pmd_latency_budget_seconds", "gauge", "Latency budget in force.", "latency_budget_us",
		MICROS},
	{"pmd_config_generation", "gauge", "Generation of the parameters the PMD runs by.",
		"generation", AS_IS},
	{"pmd_runq_wait_seconds_total", "counter",
		"Time the PMD thread was runnable but another thread ran (schedstat), since it "
		"started.",
		"runq_wait_us_total", MICROS},
	{"pmd_preemptions_total", "counter",
		"Involuntary context switches of the PMD thread, since it started.",
		"preemptions_total", AS_IS},
};
#undef LULL_FAMILY_

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
	size_t n = strlen(f->name);
	const char *type = f->type != NULL                                   ? f->type
			   : n > 6 && strcmp(f->name + n - 6, "_total") == 0 ? "counter"
									     : "gauge";

	fprintf(out, "# HELP lull_%s %s\n# TYPE lull_%s %s\n", f->name, f->help, f->name, type);
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

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Each family of fams (a row without a family name is not exported), one sample per PMD. */
static void
per_pmd(FILE *out, const struct family *fams, size_t n, json_t *reply, json_t *perf)
{
	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *p;

		if (fams[i].name == NULL)
			continue;
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
	const char *const cmds[] = {lull_cmds[LULL_CMD_PMD_PERF].path,
		lull_cmds[LULL_CMD_PMD_SLEEP].path, lull_cmds[LULL_CMD_PMD_RXQ].path,
		lull_cmds[LULL_CMD_PORTS].path, lull_cmds[LULL_CMD_CONFIG].path};
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
		per_pmd(out, pmd_perf, N_OF(pmd_perf), r[PERF], r[PERF]);
		per_pmd(out, pmd_perf_more, N_OF(pmd_perf_more), r[PERF], r[PERF]);
		per_pmd(out, pmd_model, N_OF(pmd_model), r[SLEEP], r[PERF]);
		per_pmd(out, pmd_settings, N_OF(pmd_settings), r[SLEEP], r[PERF]);
		ports_and_queues(out, r[PORTS], r[RXQ]);
		config_info(out, r[CONFIG]);
	}
	fprintf(out, "# EOF\n");
	for (int i = 0; i < N; i++)
		json_decref(r[i]);
	return ret;
}
