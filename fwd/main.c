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
#include "balance.h"
#include "budget_note.h"
#include "control.h"
#include "pm_qos.h"
#include "setup.h"
#include "stats.h"
#include "teardown_guard.h"
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

static int
launch_pmds(struct lull_fwd *fwd, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		struct lull_pmd *pmd = fwd->pmds[i];
		int ret;

		atomic_store_explicit(&pmd->launched, true, memory_order_release);
		ret = rte_eal_remote_launch(lull_pmd_run, pmd, pmd->lcore);
		if (ret < 0) {
			atomic_store_explicit(&pmd->launched, false, memory_order_relaxed);
			snprintf(err, errlen, "PMD on lcore %u: launch: %s", pmd->lcore,
				strerror(-ret));
			return ret;
		}
		fwd->n_launched++;
		/* its first block taken (bounded): what it logs is then what it does */
		(void)lull_pmd_wait_ack(pmd, pmd->ctl_params->gen, 1000);
		lull_publish_log_pmd(fwd, i, "start");
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
	for (unsigned int i = 0; i < fwd->n_launched; i++) {
		rte_eal_wait_lcore(fwd->pmds[i]->lcore);
		/* returned: set before its return, so no wait here (see pmd.h) */
		while (atomic_load_explicit(&fwd->pmds[i]->launched, memory_order_acquire))
			rte_pause();
	}
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
	unsigned int ticks = 0;

	memset(was_up, -1, sizeof(was_up));
	uint64_t period_tsc = rte_get_tsc_hz() * fwd->cfg.stats_period_s;
	uint64_t next_tsc = rte_rdtsc() + period_tsc;

	while (!lull_quit_requested()) {
		const struct timespec ts = {.tv_sec = 0, .tv_nsec = LULL_MAIN_TICK_MS * 1000000L};

		nanosleep(&ts, NULL);
		pthread_mutex_lock(&fwd->lock);
		lull_control_tick_locked(fwd);
		lull_balance_tick_locked(fwd);
		lull_budget_note_tick_locked(fwd);
		log_link_changes(fwd, was_up);
		lull_txq_watch_tick_locked(fwd, was_up);
		if (++ticks % (1000 / LULL_MAIN_TICK_MS) == 0) /* each second: af_packet's drops */
			for (unsigned int p = 0; p < fwd->n_ports; p++)
				lull_port_poll_drops(&fwd->ports[p]);
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

/* Tear down whatever was set up; one path for success and every failure. */
static int
shutdown_all(struct lull_fwd *fwd, struct lull_stats_prev *prev, bool print_final)
{
	int ret;

	stop_pmds(fwd);
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		lull_port_poll_drops(&fwd->ports[p]); /* the last second's too */
	if (print_final)
		lull_stats_print(stdout, fwd, prev, true);
	ret = lull_fwd_teardown(fwd);
	lull_teardown_guard_report();
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
	if (lull_version_asked(argc, argv, "lull"))
		return EXIT_SUCCESS;
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

	lull_quit_install();
	lull_teardown_guard_init();
	ret = lull_fwd_setup(&fwd, err, sizeof(err));
	if (ret == 0)
		ret = lull_pm_qos_apply(&fwd.cfg, err, sizeof(err));
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
		ret = lull_publish_pin_threads(&fwd, err, sizeof(err));
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
		lull_pm_qos_restore();
		rte_eal_cleanup();
	}
	return status;
}
