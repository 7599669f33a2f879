/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lullctl [--file-prefix P | --socket PATH] [--json] COMMAND [ARGS]
 *
 * A client of lull's /lull/ telemetry commands, named like OVS's appctl ones,
 * and its Prometheus exporter (metrics, serve-metrics).
 * Exit codes: 0 done, 1 lull refused (the message says why), 2 bad usage,
 * 3 no lull to talk to, 4 the exporter cannot listen.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "metrics.h"
#include "serve.h"
#include "show.h"

enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_NO_LULL = 3, EXIT_NO_LISTEN = 4 };

struct opts {
	const char *prefix;
	const char *socket;
	bool json;
};

static void
usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [--file-prefix P | --socket PATH] [--json] COMMAND [ARGS]\n"
		"\n"
		"Talks to a running lull over DPDK's telemetry socket.\n"
		"\n"
		"Commands:\n"
		"  pmd-perf-show [-pmd CORE]   per-PMD iterations, cycles, packets, sleeps, "
		"histograms\n"
		"  pmd-sleep-show              per-PMD sleep settings in force and sleep averages\n"
		"  pmd-stats-clear             count pmd-perf-show and pmd-rxq-show from now\n"
		"  pmd-rxq-show                rx queues per PMD and each one's share of packets\n"
		"  port-show                   ports, peers, links, counters\n"
		"  config-show                 the effective configuration\n"
		"  settable                    the keys 'set' accepts\n"
		"  set KEY VALUE               change a setting on the running lull, e.g.\n"
		"                              set sleep-max-us 250,3:0 (OVS pmd-sleep-max "
		"syntax)\n"
		"  port-add DEVARGS [PEER]     probe and start a port; forward it with PEER (a "
		"port\n"
		"                              added without a peer) or 'self'; without PEER it\n"
		"                              waits for a later port-add naming it\n"
		"  port-del NAME               stop forwarding a port and detach it\n"
		"  pmd-rxq-rebalance           spread the unpinned rx queues over every PMD by "
		"their\n"
		"                              measured cycles (set rxq-pmd P:Q@CORE moves and "
		"pins one)\n"
		"  balance-show                rx queue moves, consolidation decisions, PMD loads\n"
		"  raw TELEMETRY-COMMAND       send any telemetry command, print its JSON\n"
		"  metrics                     every figure in the Prometheus text format\n"
		"  serve-metrics [--listen ADDR:PORT]\n"
		"                              a Prometheus exporter: GET /metrics (default "
		"\n"
		"                              " LULLCTL_LISTEN_DEFAULT "); runs until SIGTERM, "
		"lull or\n"
		"                              not (lull_up 0 while none answers)\n"
		"\n"
		"Options:\n"
		"  -f, --file-prefix P   the lull started with EAL --file-prefix P (default rte)\n"
		"  -s, --socket PATH     the telemetry socket itself\n"
		"  -j, --json            print the reply as JSON (for scripts)\n"
		"  -h, --help            this text\n"
		"  -V, --version         lullctl's version\n"
		"\n"
		"Exit codes: 0 done, 1 lull refused (the message says why), 2 bad usage, 3 no "
		"lull,\n"
		"4 the exporter cannot listen.\n",
		prog);
}

/* Send cmd, print the reply with show (or as JSON); errors to stderr. */
static int
run(struct lullctl_client *c, const struct opts *o, const char *cmd, void (*show)(FILE *, json_t *))
{
	char err[512] = "";
	/* every PMD: asked one by one, as a reply of many passes DPDK's 16 KB */
	bool pmds = strcmp(cmd, "/lull/pmd_perf") == 0 || strcmp(cmd, "/lull/pmd_sleep") == 0 ||
		    strcmp(cmd, "/lull/pmd_rxq") == 0;
	json_t *v = pmds ? lullctl_request_pmds(c, cmd, err, sizeof(err))
			 : lullctl_request(c, cmd, err, sizeof(err));
	json_t *e;
	int rc = 0;

	if (v == NULL) {
		fprintf(stderr, "lullctl: %s\n", err);
		return EXIT_NO_LULL;
	}
	/* a refusal is a string, the reason; a result is an object or an array */
	e = json_is_string(v) ? v : NULL;
	if (e != NULL) {
		fprintf(stderr, "lullctl: %s\n", json_string_value(e));
		rc = EXIT_REFUSED;
	} else if (o->json || show == NULL) {
		char *text = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY);

		printf("%s\n", text ? text : "null");
		free(text);
	} else {
		show(stdout, v);
	}
	json_decref(v);
	return rc;
}

static int
rxq_show(struct lullctl_client *c, const struct opts *o)
{
	char err[512] = "";
	json_t *rxq, *ports;
	int rc;

	if (o->json)
		return run(c, o, "/lull/pmd_rxq", NULL);
	rxq = lullctl_request(c, "/lull/pmd_rxq", err, sizeof(err));
	ports = rxq ? lullctl_request(c, "/lull/ports", err, sizeof(err)) : NULL;
	if (rxq == NULL || ports == NULL) {
		fprintf(stderr, "lullctl: %s\n", err);
		rc = EXIT_NO_LULL;
	} else {
		lullctl_show_pmd_rxq(stdout, rxq, ports);
		rc = 0;
	}
	json_decref(rxq);
	json_decref(ports);
	return rc;
}

/* "cmd,arg1 arg2 ..." into buf; 0, or EXIT_USAGE when it does not fit. */
static int
build(char *buf, size_t len, const char *cmd, int argc, char **argv)
{
	size_t used = (size_t)snprintf(buf, len, "%s", cmd);

	for (int i = 0; i < argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : ",", argv[i]);
	if (used >= len) {
		fprintf(stderr, "lullctl: arguments too long (at most %zu characters)\n", len - 1);
		return EXIT_USAGE;
	}
	return 0;
}

static int
dispatch(struct lullctl_client *c, const struct opts *o, const char *name, int argc, char **argv)
{
	static const struct {
		const char *name;
		const char *cmd;
		int min_args, max_args;
		void (*show)(FILE *, json_t *);
	} table[] = {
		{"pmd-sleep-show", "/lull/pmd_sleep", 0, 0, lullctl_show_pmd_sleep},
		{"pmd-stats-clear", "/lull/stats_clear", 0, 0, lullctl_show_pairs},
		{"port-show", "/lull/ports", 0, 0, lullctl_show_ports},
		{"config-show", "/lull/config", 0, 0, lullctl_show_pairs},
		{"settable", "/lull/settable", 0, 0, lullctl_show_pairs},
		{"set", "/lull/set", 2, 2, lullctl_show_pairs},
		{"port-add", "/lull/port_add", 1, 2, lullctl_show_pairs},
		{"port-del", "/lull/port_del", 1, 1, lullctl_show_pairs},
		{"pmd-rxq-rebalance", "/lull/rxq_rebalance", 0, 0, lullctl_show_pairs},
		{"balance-show", "/lull/balance", 0, 0, lullctl_show_pairs},
		{"raw", "", 1, 1, NULL},
	};
	char buf[1024];

	if (strcmp(name, "pmd-perf-show") == 0) {
		if (argc == 0)
			return run(c, o, "/lull/pmd_perf", lullctl_show_pmd_perf);
		if (argc == 2 && strcmp(argv[0], "-pmd") == 0) {
			snprintf(buf, sizeof(buf), "/lull/pmd_perf,%.32s", argv[1]);
			return run(c, o, buf, lullctl_show_pmd_perf);
		}
		fprintf(stderr, "lullctl: pmd-perf-show takes [-pmd CORE]\n");
		return EXIT_USAGE;
	}
	if (strcmp(name, "pmd-rxq-show") == 0 && argc == 0)
		return rxq_show(c, o);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(name, table[i].name) != 0)
			continue;
		if (argc < table[i].min_args || argc > table[i].max_args) {
			fprintf(stderr,
				"lullctl: %s takes %d to %d argument(s), got %d (see --help)\n",
				name, table[i].min_args, table[i].max_args, argc);
			return EXIT_USAGE;
		}
		if (table[i].show == NULL) /* raw */
			return run(c, o, argv[0], NULL);
		if (build(buf, sizeof(buf), table[i].cmd, argc, argv) != 0)
			return EXIT_USAGE;
		return run(c, o, buf, table[i].show);
	}
	fprintf(stderr, "lullctl: bad command '%s' (see --help)\n", name);
	return EXIT_USAGE;
}

/* metrics | serve-metrics [--listen ADDR:PORT]: argv[0] is the command */
static int
metrics(const char *path, int argc, char **argv)
{
	const char *listen = LULLCTL_LISTEN_DEFAULT;
	char err[512] = "";
	int ret;

	if (strcmp(argv[0], "metrics") == 0) {
		if (argc != 1) {
			fprintf(stderr, "lullctl: metrics takes no argument (see --help)\n");
			return EXIT_USAGE;
		}
		ret = lullctl_metrics_write(stdout, path, err, sizeof(err));
		if (ret < 0)
			fprintf(stderr, "lullctl: %s\n", err);
		return ret < 0 ? EXIT_NO_LULL : 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
			listen = argv[++i];
		} else if (strncmp(argv[i], "--listen=", 9) == 0) {
			listen = argv[i] + 9;
		} else {
			fprintf(stderr,
				"lullctl: serve-metrics: bad argument '%s' (takes --listen "
				"ADDR:PORT)\n",
				argv[i]);
			return EXIT_USAGE;
		}
	}
	ret = lullctl_serve_metrics(path, listen, err, sizeof(err));
	if (ret < 0)
		fprintf(stderr, "lullctl: %s\n", err);
	return ret == -EINVAL ? EXIT_USAGE : ret < 0 ? EXIT_NO_LISTEN : 0;
}

int
main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{"file-prefix", required_argument, NULL, 'f'},
		{"socket", required_argument, NULL, 's'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {.prefix = "rte", .socket = NULL, .json = false};
	struct lullctl_client c = {.fd = -1};
	char path[256], err[512];
	int opt, rc;

	/* '+': stop at the command, so that "pmd-perf-show -pmd 1" keeps its -pmd */
	while ((opt = getopt_long(argc, argv, "+f:s:jhV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			o.prefix = optarg;
			break;
		case 's':
			o.socket = optarg;
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		case 'V':
			printf("lullctl %s\n", LULL_VERSION);
			return 0;
		default:
			usage(stderr, argv[0]);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr, argv[0]);
		return EXIT_USAGE;
	}
	if (o.socket != NULL)
		snprintf(path, sizeof(path), "%s", o.socket);
	else
		lullctl_socket_path(o.prefix, path, sizeof(path));
	if (strcmp(argv[optind], "metrics") == 0 || strcmp(argv[optind], "serve-metrics") == 0)
		return metrics(path, argc - optind, argv + optind);
	if (lullctl_connect(&c, path, LULLCTL_TIMEOUT_MS, err, sizeof(err)) < 0) {
		fprintf(stderr, "lullctl: %s\n", err);
		return EXIT_NO_LULL;
	}
	/* port-add answers once the link is up or lull's --link-wait-ms passed */
	if (strcmp(argv[optind], "port-add") == 0)
		lullctl_set_timeout(&c, LULLCTL_PORT_ADD_TIMEOUT_MS);
	rc = dispatch(&c, &o, argv[optind], argc - optind - 1, argv + optind + 1);
	lullctl_close(&c);
	return rc;
}
