/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull-gen [EAL options] -- [lull-gen options]
 *
 * options -> EAL -> ports -> links up -> run the profile on this (main)
 * lcore -> drain -> report -> [linger until the peer stops] -> close ports -> exit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "config.h"
#include "log.h"
#include "gen.h"
#include "port.h"
#include "app.h"
#include "report.h"
#include "teardown.h"

#define GEN_LINK_WAIT_MS 10000

static void
usage_hook(const char *prog)
{
	printf("\n");
	gen_config_usage(prog);
}

static int
pick_ports(struct gen *g, struct gen_config *cfg, unsigned int n_ports, char *err, size_t errlen)
{
	if (n_ports == 0) {
		snprintf(err, errlen, "no ports: give EAL a device, e.g. --vdev net_memif0");
		return -ENODEV;
	}
	if (cfg->tx_port == GEN_NO_PORT)
		cfg->tx_port = 0;
	if (cfg->rx_port == GEN_NO_PORT)
		cfg->rx_port = n_ports >= 2 ? 1 : 0;
	if (cfg->tx_port >= n_ports || cfg->rx_port >= n_ports) {
		snprintf(err, errlen, "--%s: bad value '%u' (%u ports)",
			cfg->tx_port >= n_ports ? "tx-port" : "rx-port",
			cfg->tx_port >= n_ports ? cfg->tx_port : cfg->rx_port, n_ports);
		return -EINVAL;
	}
	g->tx_port = cfg->tx_port;
	{
		struct rte_eth_dev_info info;

		g->refused_is_loss = rte_eth_dev_info_get(g->tx_port, &info) == 0 &&
				     info.driver_name != NULL &&
				     (strcmp(info.driver_name, "net_memif") == 0 ||
					     strcmp(info.driver_name, "net_ring") == 0);
	}
	g->rx_port = cfg->rx_port;
	return 0;
}

/* The port settings lull-gen asks for: one tx queue, --rxq rx queues (set in
 * main), rings as lull's defaults. */
static struct lull_port_conf gen_port_conf = {.n_rxq = 1,
	.n_txq = 1,
	.n_rxd = 1024,
	.n_txd = 1024,
	.mbuf_size = LULL_MBUF_SIZE_DEFAULT,
	.rx_intr = false,
	.log_name = "lull-gen"};

static FILE *
open_out(const char *path, const char *opt, char *err, size_t errlen)
{
	FILE *f;

	if (strcmp(path, "-") == 0)
		return stdout;
	f = fopen(path, "w");
	if (f == NULL)
		snprintf(err, errlen, "--%s: cannot write '%s': %s", opt, path, strerror(errno));
	return f;
}

static int
write_results(const struct gen *g, char *err, size_t errlen)
{
	const char *paths[2] = {g->cfg->json_path, g->cfg->csv_path};
	const char *opts[2] = {"json", "csv"};

	gen_report_table(stdout, g);
	for (int i = 0; i < 2; i++) {
		FILE *f;

		if (paths[i] == NULL)
			continue;
		f = open_out(paths[i], opts[i], err, errlen);
		if (f == NULL)
			return -errno;
		if (i == 0)
			gen_report_json(f, g);
		else
			gen_report_csv(f, g);
		if (f != stdout)
			fclose(f);
	}
	return 0;
}

/* The options after the EAL's "--"; 1 when --help printed the usage. */
static int
parse_args(struct gen_config *cfg, int argc, char **argv, int sep, char *err, size_t errlen)
{
	char *name;
	int ret;

	gen_config_defaults(cfg);
	if (sep >= argc)
		return 0;
	name = argv[sep];
	argv[sep] = argv[0];
	ret = gen_config_parse(cfg, argc - sep, argv + sep, err, errlen);
	argv[sep] = name;
	if (ret < 0)
		return ret;
	if (cfg->help) {
		gen_config_usage(argv[0]);
		return 1;
	}
	return 0;
}

/* Check every port, make the pool, start the ports (counted in *n_ports even
 * when one fails, so they close) and wait for their links. */
static int
open_ports(struct gen *g, struct lull_port *ports, unsigned int *n_ports, char *err, size_t errlen)
{
	const struct gen_config *cfg = g->cfg;
	uint16_t id;
	int ret;

	RTE_ETH_FOREACH_DEV(id)
	{
		ret = lull_port_check(id, &gen_port_conf, err, errlen);
		if (ret < 0)
			return ret;
	}
	g->pool = rte_pktmbuf_pool_create(
		"gen_mbufs", cfg->mbufs, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (g->pool == NULL) {
		snprintf(err, errlen,
			"--mbufs: cannot create a pool of %u mbufs: %s (raise EAL -m)", cfg->mbufs,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	RTE_ETH_FOREACH_DEV(id)
	{
		ret = lull_port_start(&ports[*n_ports], id, &gen_port_conf, g->pool, err, errlen);
		(*n_ports)++;
		if (ret < 0)
			return ret;
	}
	if (lull_port_wait_links(ports, *n_ports, GEN_LINK_WAIT_MS, lull_quit_requested) != 0 &&
		!lull_quit_requested()) {
		snprintf(err, errlen, "a link is still down after %d ms", GEN_LINK_WAIT_MS);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Close the ports and check that every mbuf came back; EXIT_FAILURE if not. */
static int
close_ports(struct gen *g, struct lull_port *ports, unsigned int n_ports, int status)
{
	for (unsigned int i = 0; i < n_ports; i++)
		lull_port_close(&ports[i]);
	if (g->pool != NULL) {
		unsigned int avail = rte_mempool_avail_count(g->pool);

		if (avail != g->pool->size) {
			LULL_LOG(WARNING, "%u of %u mbufs not returned to the pool",
				g->pool->size - avail, g->pool->size);
			status = EXIT_FAILURE;
		}
		rte_mempool_free(g->pool);
	}
	return status;
}

int
main(int argc, char **argv)
{
	static struct gen_config cfg; /* large: keep them off the stack */
	static struct gen g;
	static struct lull_port ports[LULL_MAX_PORTS];
	unsigned int n_ports = 0;
	char err[512] = "";
	int sep = lull_argv_separator(argc, argv);
	int ret, status = EXIT_FAILURE;
	bool eal_up = false;

	lull_log_set_name("lull-gen");
	if (lull_version_asked(argc, argv, "lull-gen"))
		return EXIT_SUCCESS;
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = parse_args(&cfg, argc, argv, sep, err, sizeof(err));
	if (ret > 0)
		return EXIT_SUCCESS;
	if (ret < 0)
		goto end;
	ret = lull_eal_start(sep, argv, usage_hook, err, sizeof(err));
	if (ret < 0)
		goto end;
	eal_up = true;
	lull_quit_install();
	ret = lull_teardown_init();
	if (ret < 0)
		LULL_LOG(INFO,
			"membarrier: %s; a driver's teardown waits a little longer for the "
			"generator",
			strerror(-ret));

	g.cfg = &cfg;
	g.quit = lull_quit_flag();
	g.tsc_hz = rte_get_tsc_hz();
	g.ns_per_tsc = 1e9 / (double)g.tsc_hz;
	g.run_id = cfg.run_id ? cfg.run_id : (uint16_t)(rte_rdtsc() % 65535 + 1);
	gen_port_conf.n_rxq = cfg.rxq;
	gen_port_conf.n_txq = cfg.txq;
	ret = pick_ports(&g, &cfg, rte_eth_dev_count_avail(), err, sizeof(err));
	if (ret < 0)
		goto end;
	if (open_ports(&g, ports, &n_ports, err, sizeof(err)) < 0)
		goto end;
	gen_tmpl_init(&g.tmpl, &cfg, g.run_id, &ports[g.tx_port].mac);
	LULL_LOG(INFO,
		"run %u, %u phase(s), %u-byte frames, %u flow(s), tx port %u, rx port "
		"%u; frames the tx port refuses count as %s",
		g.run_id, cfg.profile.n, cfg.size, cfg.flows, g.tx_port, g.rx_port,
		g.refused_is_loss ? "lost (its peer is the device under test)" : "refused only");
	gen_run(&g);
	if (write_results(&g, err, sizeof(err)) == 0)
		status = EXIT_SUCCESS;
	if (cfg.linger_ms > 0) {
		unsigned int up;

		LULL_LOG(INFO, "done; lingering until the peer stops (--linger-ms %u)",
			cfg.linger_ms);
		up = lull_port_wait_links_down(ports, n_ports, cfg.linger_ms, lull_quit_requested);
		LULL_LOG(INFO, "%u link(s) still up after lingering", up);
	}
end:
	if (err[0] != '\0')
		fprintf(stderr, "lull-gen: error: %s\n", err);
	status = close_ports(&g, ports, n_ports, status);
	if (eal_up) {
		char what[128];

		if (lull_teardown_describe(what, sizeof(what)))
			LULL_LOG(INFO, "driver teardowns that waited for the generator: %s", what);
		rte_eal_cleanup();
	}
	return status;
}
