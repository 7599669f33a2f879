/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TSan canary (issue 28 item 2): a deliberate data race between a thread
 * that EAL launched on a worker lcore (as lull's PMDs are) and a telemetry
 * callback (as lull's control commands are). tests/tsan/canary.sh expects
 * ThreadSanitizer to report it: if tests/tsan.supp ever hides races between
 * lull's threads again, the canary goes quiet and the suite fails.
 *
 * Run: canary EAL-ARGS (one worker lcore); it exits after /canary/race was
 * called, or after 30 s.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_telemetry.h>

static unsigned long canary_count; /* the race: no lock, no atomic */
static atomic_bool canary_stop;
static atomic_bool canary_called;

static int
canary_pmd(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&canary_stop, memory_order_relaxed)) {
		canary_count++;
		rte_pause();
	}
	return 0;
}

static int
canary_cb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "count", canary_count);
	canary_count = 0;
	atomic_store(&canary_called, true);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 10000000};
	unsigned int worker;
	int ret = rte_eal_init(argc, argv);

	if (ret < 0) {
		fprintf(stderr, "canary: EAL init failed\n");
		return 1;
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE ||
		rte_telemetry_register_cmd("/canary/race", canary_cb, "the TSan canary") != 0 ||
		rte_eal_remote_launch(canary_pmd, NULL, worker) != 0) {
		fprintf(stderr, "canary: needs a worker lcore and telemetry\n");
		rte_eal_cleanup();
		return 1;
	}
	printf("canary: ready\n");
	fflush(stdout);
	for (int i = 0; i < 3000 && !atomic_load(&canary_called); i++)
		nanosleep(&tick, NULL);
	nanosleep(&tick, NULL);
	atomic_store(&canary_stop, true);
	rte_eal_mp_wait_lcore();
	rte_eal_cleanup();
	return 0;
}
