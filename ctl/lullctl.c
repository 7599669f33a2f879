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
#include "contract.h"
#include "metrics.h"
#include "serve.h"
#include "show.h"

enum { EXIT_REFUSED = 1, EXIT_USAGE = 2, EXIT_NO_LULL = 3, EXIT_NO_LISTEN = 4 };

struct opts {
	const char *prefix;
	const char *socket;
	bool json;
};

#define USAGE_COL  30 /* where a command's help starts */
#define USAGE_WRAP 80

/* "  NAME ARGS" then help from column USAGE_COL, wrapped at USAGE_WRAP. */
static void
usage_line(FILE *out, const char *name, const char *args, const char *help)
{
	int col = fprintf(out, "  %s%s%s", name, *args ? " " : "", args);
	const char *p = help;

	if (col >= USAGE_COL) {
		fputc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s", USAGE_COL - col, "");
	col = USAGE_COL;
	while (*p != '\0') {
		int word = (int)strcspn(p, " ");

		if (col > USAGE_COL && col + 1 + word > USAGE_WRAP) {
			fprintf(out, "\n%*s", USAGE_COL, "");
			col = USAGE_COL;
		} else if (col > USAGE_COL) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", word, p);
		p += word;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

static void
usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [--file-prefix P | --socket PATH] [--json] COMMAND [ARGS]\n"
		"\n"
		"Talks to a running lull over DPDK's telemetry socket.\n"
		"\n"
		"Commands:\n",
		prog);
	/* lull's commands, from the contract it shares with lull (lib/contract.h) */
	for (unsigned int i = 0; i < LULL_N_CMDS; i++)
		if (lull_cmds[i].ctl_name != NULL)
			usage_line(out, lull_cmds[i].ctl_name, lull_cmds[i].ctl_args,
				lull_cmds[i].ctl_help);
	usage_line(out, "raw", "TELEMETRY-COMMAND", "send any telemetry command, print its JSON");
	usage_line(out, "metrics", "", "every figure in the Prometheus text format");
	usage_line(out, "serve-metrics", "[--listen ADDR:PORT]",
		"a Prometheus exporter: GET /metrics (default " LULLCTL_LISTEN_DEFAULT
		"); runs until SIGTERM, lull or not (lull_up 0 while none answers)");
	fprintf(out,
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
		"4 the exporter cannot listen.\n");
}

/* Send cmd, print the reply with show (or as JSON); errors to stderr. */
static int
run(struct lullctl_client *c, const struct opts *o, const char *cmd, void (*show)(FILE *, json_t *))
{
	char err[512] = "";
	/* every PMD: asked one by one, as a reply of many passes DPDK's 16 KB */
	bool pmds = false;

	for (unsigned int i = 0; i < LULL_N_CMDS; i++)
		if (lull_cmds[i].per_pmd && strcmp(cmd, lull_cmds[i].path) == 0)
			pmds = true;
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
		return run(c, o, lull_cmds[LULL_CMD_PMD_RXQ].path, NULL);
	rxq = lullctl_request(c, lull_cmds[LULL_CMD_PMD_RXQ].path, err, sizeof(err));
	ports = rxq ? lullctl_request(c, lull_cmds[LULL_CMD_PORTS].path, err, sizeof(err)) : NULL;
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
	/* how each command's reply is shown (lib/contract.h has the rest) */
	static void (*const shows[LULL_N_CMDS])(FILE *, json_t *) = {
		[LULL_CMD_PMD_PERF] = lullctl_show_pmd_perf,
		[LULL_CMD_PMD_SLEEP] = lullctl_show_pmd_sleep,
		[LULL_CMD_STATS_CLEAR] = lullctl_show_pairs,
		[LULL_CMD_PORTS] = lullctl_show_ports,
		[LULL_CMD_CONFIG] = lullctl_show_pairs,
		[LULL_CMD_SETTABLE] = lullctl_show_pairs,
		[LULL_CMD_SET] = lullctl_show_pairs,
		[LULL_CMD_PORT_ADD] = lullctl_show_pairs,
		[LULL_CMD_PORT_DEL] = lullctl_show_pairs,
		[LULL_CMD_RXQ_REBALANCE] = lullctl_show_pairs,
		[LULL_CMD_BALANCE] = lullctl_show_pairs,
	};
	char buf[1024];

	if (strcmp(name, "raw") == 0) {
		if (argc != 1) {
			fprintf(stderr,
				"lullctl: raw takes 1 to 1 argument(s), got %d (see --help)\n",
				argc);
			return EXIT_USAGE;
		}
		return run(c, o, argv[0], NULL);
	}
	for (unsigned int i = 0; i < LULL_N_CMDS; i++) {
		const struct lull_cmd_info *cmd = &lull_cmds[i];

		if (cmd->ctl_name == NULL || strcmp(name, cmd->ctl_name) != 0)
			continue;
		if (i == LULL_CMD_PMD_PERF) { /* [-pmd CORE] */
			if (argc == 0)
				return run(c, o, cmd->path, shows[i]);
			if (argc == 2 && strcmp(argv[0], "-pmd") == 0) {
				snprintf(buf, sizeof(buf), "%s,%.32s", cmd->path, argv[1]);
				return run(c, o, buf, shows[i]);
			}
			fprintf(stderr, "lullctl: pmd-perf-show takes [-pmd CORE]\n");
			return EXIT_USAGE;
		}
		if (argc < cmd->ctl_min || argc > cmd->ctl_max) {
			fprintf(stderr,
				"lullctl: %s takes %d to %d argument(s), got %d (see --help)\n",
				name, cmd->ctl_min, cmd->ctl_max, argc);
			return EXIT_USAGE;
		}
		if (i == LULL_CMD_PMD_RXQ) /* with the ports' names */
			return rxq_show(c, o);
		if (build(buf, sizeof(buf), cmd->path, argc, argv) != 0)
			return EXIT_USAGE;
		return run(c, o, buf, shows[i]);
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
