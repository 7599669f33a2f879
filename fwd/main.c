/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull [EAL options] -- [lull options]
 *
 * options -> EAL -> config check -> mbuf pool -> ports -> PMD threads ->
 * wait for a signal (printing stats) -> stop PMDs -> close ports -> exit.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "config.h"
#include "log.h"
#include "fwd.h"
#include "app.h"
#include "control.h"
#include "stats.h"
#include "telemetry.h"
#include "topology.h"

#define LULL_MAIN_TICK_MS 100 /* how often the main thread looks at the quit flag */

static const char *lull_prog = "lull";

static void
usage_hook(const char *prog)
{
	printf("\n");
	lull_config_usage(prog);
}

static struct lull_sys
probe_sys(void)
{
	struct lull_sys sys = {
		.n_ports = rte_eth_dev_count_avail(), .main_lcore = rte_get_main_lcore()};
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
	{
		if (lcore < LULL_MAX_LCORES)
			sys.lcore_enabled[lcore] = true;
	}
	return sys;
}

static int
create_pool(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;

	fwd->pool = rte_pktmbuf_pool_create("lull_mbufs", fwd->cfg.n_mbufs, 256, 0,
		(uint16_t)(fwd->cfg.mbuf_size + RTE_PKTMBUF_HEADROOM), (int)rte_socket_id());
	if (fwd->pool == NULL) {
		snprintf(err, errlen,
			"--mbufs: cannot create a pool of %u mbufs: %s (raise EAL -m)",
			fwd->cfg.n_mbufs, rte_strerror(rte_errno));
		return -rte_errno;
	}
	lull_config_port_conf(&fwd->cfg, &pc);
	if (lull_port_conf_segs(&pc) > 1)
		LULL_LOG(INFO, "%u mbufs of %u data bytes: a %u-byte frame is a chain of %u",
			fwd->cfg.n_mbufs, fwd->cfg.mbuf_size, LULL_FRAME_MAX_DEFAULT,
			lull_port_conf_segs(&pc));
	return 0;
}

static int
check_ports(const struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;
	uint16_t id;

	lull_config_port_conf(&fwd->cfg, &pc);
	RTE_ETH_FOREACH_DEV(id)
	{
		int ret = lull_port_check(id, &pc, err, errlen);

		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
start_ports(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;
	uint16_t id;

	lull_config_port_conf(&fwd->cfg, &pc);
	RTE_ETH_FOREACH_DEV(id)
	{
		int ret = lull_port_start(&fwd->ports[id], id, &pc, fwd->pool, err, errlen);

		if (id >= fwd->n_ports)
			fwd->n_ports = id + 1u;
		if (ret < 0)
			return ret;
	}
	fwd->max_ports = fwd->cfg.n_ports + fwd->cfg.hotplug_ports;
	return 0;
}

static int
create_pmds(struct lull_fwd *fwd, char *err, size_t errlen)
{
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		lull_port_measure(&fwd->ports[p], fwd->cfg.n_rxd);
	fwd->gen = 1;
	for (unsigned int i = 0; i < fwd->cfg.n_pmds; i++) {
		struct lull_pmd_params *prm;
		int ret;

		prm = lull_pmd_params_build(&fwd->cfg, i, fwd->gen, fwd->ports, &ret, err, errlen);
		if (prm == NULL)
			return ret;
		fwd->pmds[i] = lull_pmd_create(&fwd->cfg, i, prm, &ret, err, errlen);
		if (fwd->pmds[i] == NULL)
			return ret;
		fwd->n_pmds++;
	}
	return 0;
}

static int
launch_pmds(struct lull_fwd *fwd, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		struct lull_pmd *pmd = fwd->pmds[i];
		int ret = rte_eal_remote_launch(lull_pmd_run, pmd, pmd->lcore);

		if (ret < 0) {
			snprintf(err, errlen, "PMD on lcore %u: launch: %s", pmd->lcore,
				strerror(-ret));
			return ret;
		}
		fwd->n_launched++;
		/* its first block taken (bounded): what it logs is then what it does */
		for (unsigned int t = 0;
			t < 1000 && atomic_load_explicit(&pmd->ack, memory_order_acquire) <
					    pmd->ctl_params->gen;
			t++)
			rte_delay_us_sleep(1000);
		lull_control_log_pmd(fwd, i, "start");
	}
	return 0;
}

static void
stop_pmds(struct lull_fwd *fwd)
{
	pthread_mutex_lock(&fwd->lock); /* no control command runs from here on */
	fwd->accepting = false;
	pthread_mutex_unlock(&fwd->lock);
	for (unsigned int i = 0; i < fwd->n_launched; i++)
		lull_pmd_request_stop(fwd->pmds[i]);
	for (unsigned int i = 0; i < fwd->n_launched; i++)
		rte_eal_wait_lcore(fwd->pmds[i]->lcore);
	fwd->n_launched = 0;
}

/* Log every link that went up or down since the last look (a peer that left or
 * came back, a cable). */
static void
log_link_changes(struct lull_fwd *fwd, int8_t *was_up)
{
	for (unsigned int p = 0; p < fwd->n_ports; p++) {
		struct rte_eth_link link;
		int8_t up;

		if (!fwd->ports[p].present) {
			was_up[p] = -1;
			continue;
		}
		if (rte_eth_link_get_nowait((uint16_t)p, &link) < 0)
			continue;
		up = link.link_status == RTE_ETH_LINK_UP;
		if (was_up[p] != -1 && up != was_up[p])
			LULL_LOG(INFO, "port %u (%s): link %s", p, fwd->ports[p].name,
				up ? "up" : "down");
		was_up[p] = up;
	}
}

static void
run_until_signal(struct lull_fwd *fwd, struct lull_stats_prev *prev)
{
	int8_t was_up[LULL_MAX_PORTS];

	memset(was_up, -1, sizeof(was_up));
	uint64_t period_tsc = rte_get_tsc_hz() * fwd->cfg.stats_period_s;
	uint64_t next_tsc = rte_rdtsc() + period_tsc;

	while (!lull_quit_requested()) {
		const struct timespec ts = {.tv_sec = 0, .tv_nsec = LULL_MAIN_TICK_MS * 1000000L};

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&fwd->lock);
		lull_control_tick_locked(fwd);
		log_link_changes(fwd, was_up);
		/* stats-period may change at run time */
		period_tsc = rte_get_tsc_hz() * fwd->cfg.stats_period_s;
		if (period_tsc != 0 && rte_rdtsc() >= next_tsc) {
			lull_stats_print(stdout, fwd, prev, false);
			next_tsc = rte_rdtsc() + period_tsc;
		} else if (period_tsc == 0) {
			next_tsc = rte_rdtsc();
		}
		pthread_mutex_unlock(&fwd->lock);
	}
}

/* Every mbuf must be back in the pool once the ports are closed. */
static int
check_pool(const struct lull_fwd *fwd)
{
	unsigned int avail = rte_mempool_avail_count(fwd->pool);
	unsigned int size = fwd->pool->size;

	if (avail != size) {
		LULL_LOG(WARNING, "%u of %u mbufs not returned to the pool", size - avail, size);
		return -EFAULT;
	}
	LULL_LOG(INFO, "mbufs: all %u back in the pool", size);
	return 0;
}

/* Tear down whatever was set up; one path for success and every failure. */
static int
shutdown_all(struct lull_fwd *fwd, struct lull_stats_prev *prev, bool print_final)
{
	int ret = 0;

	stop_pmds(fwd);
	if (print_final)
		lull_stats_print(stdout, fwd, prev, true);
	/* From here telemetry (its own thread, registered until the process ends)
	 * touches nothing that is freed: a command that holds the lock now finishes
	 * first, every later one sees gone. */
	pthread_mutex_lock(&fwd->lock);
	fwd->gone = true;
	pthread_mutex_unlock(&fwd->lock);
	for (unsigned int i = 0; i < fwd->n_ports; i++)
		lull_port_close(&fwd->ports[i]);
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		lull_pmd_free(fwd->pmds[i]);
		free(fwd->base[i]);
	}
	if (fwd->pool != NULL) {
		ret = check_pool(fwd);
		rte_mempool_free(fwd->pool);
	}
	return ret;
}

int
main(int argc, char **argv)
{
	static struct lull_fwd fwd; /* large: keep it off the stack */
	struct lull_stats_prev prev = {0};
	char err[512] = "";
	int sep = lull_argv_separator(argc, argv);
	bool eal_up = false, running = false;
	int ret, status = EXIT_FAILURE;

	lull_prog = argv[0];
	pthread_mutex_init(&fwd.lock, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time, also into a log file or a pipe */
	lull_config_defaults(&fwd.cfg);
	/* lull options first: a bad one costs nothing and leaves nothing running. */
	if (sep < argc) {
		argv[sep] = argv[0]; /* getopt wants a program name in front */
		ret = lull_config_parse(&fwd.cfg, argc - sep, argv + sep, err, sizeof(err));
		argv[sep] = (char *)"--";
		if (ret < 0)
			goto end;
		if (fwd.cfg.help) {
			lull_config_usage(lull_prog);
			return EXIT_SUCCESS;
		}
	}

	ret = lull_eal_start(sep, argv, usage_hook, err, sizeof(err));
	if (ret < 0)
		goto end;
	eal_up = true;

	struct lull_sys sys = probe_sys();

	ret = lull_config_resolve(&fwd.cfg, &sys, err, sizeof(err));
	if (ret < 0)
		goto end;
	lull_quit_install();

	ret = check_ports(&fwd, err, sizeof(err));
	if (ret == 0)
		ret = create_pool(&fwd, err, sizeof(err));
	if (ret == 0)
		ret = start_ports(&fwd, err, sizeof(err));
	if (ret == 0)
		ret = create_pmds(&fwd, err, sizeof(err));
	if (ret < 0)
		goto end;
	fwd.start_tsc = rte_rdtsc();
	prev.tsc = fwd.start_tsc;
	ret = launch_pmds(&fwd, err, sizeof(err));
	if (ret < 0)
		goto end;
	running = true;
	ret = lull_telemetry_register(&fwd, err, sizeof(err));
	if (ret == 0)
		ret = lull_control_started(&fwd, err, sizeof(err));
	if (ret < 0)
		goto end;
	LULL_LOG(INFO, "forwarding in %s mode on %u port(s) with %u PMD(s), burst %u; Ctrl-C stops",
		lull_fwd_mode_name(fwd.cfg.mode), fwd.n_ports, fwd.n_pmds, fwd.cfg.burst);
	/* Wait for links before anything can close the ports (net_memif crashes on a close
	 * right after start). */
	lull_port_wait_links(fwd.ports, fwd.n_ports, fwd.cfg.link_wait_ms, lull_quit_requested);
	pthread_mutex_lock(&fwd.lock);
	fwd.accepting = true; /* from now on a port may be closed */
	pthread_mutex_unlock(&fwd.lock);
	run_until_signal(&fwd, &prev);
	LULL_LOG(INFO, "stopping");
	status = EXIT_SUCCESS;
end:
	if (err[0] != '\0')
		fprintf(stderr, "lull: error: %s\n", err);
	if (eal_up) {
		if (shutdown_all(&fwd, &prev, running) < 0)
			status = EXIT_FAILURE;
		rte_eal_cleanup();
	}
	return status;
}
