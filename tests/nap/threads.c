/* SPDX-License-Identifier: BSD-3-Clause */
/* More polling threads than the attached engine's table: LULL_NAP_ATTACH_MAX_THREADS
 * + 2 threads poll a source of their own through the C API. Each of the first
 * ones gets an engine; the two past the table poll without lull, each says so
 * once on stderr (not at every poll), and every thread finishes. Prints
 * "engines N, without M"; exit 0 when N is the table's size and M is 2. */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <lull_nap_attach.h>
#include <rte_eal.h>

#define N_THREADS (LULL_NAP_ATTACH_MAX_THREADS + 2)
#define POLLS     20

static pthread_barrier_t all_made;

static void *
poller(void *arg)
{
	uint32_t key = LULL_NAP_SOURCE((uintptr_t)arg, 0);

	pthread_barrier_wait(&all_made); /* every thread polls while the others live */
	for (int i = 0; i < POLLS; i++)
		lull_nap_attach_polled(key, 0, 32);
	return (void *)(uintptr_t)lull_nap_attach_thread_polls();
}

int
main(int argc, char **argv)
{
	static pthread_t tids[N_THREADS];
	unsigned int engines = 0, without = 0;
	char err[256];

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "threads: EAL init failed\n");
		return 1;
	}
	/* short waits: 130 threads sleep on two CPUs */
	if (lull_nap_attach_options("--sleep-max-us 100", err, sizeof(err)) < 0) {
		fprintf(stderr, "threads: options: %s\n", err);
		return 1;
	}
	pthread_barrier_init(&all_made, NULL, N_THREADS);
	for (uintptr_t i = 0; i < N_THREADS; i++) {
		if (pthread_create(&tids[i], NULL, poller, (void *)i) != 0) {
			fprintf(stderr, "threads: cannot make thread %" PRIuPTR "\n", i);
			return 1;
		}
	}
	for (unsigned int i = 0; i < N_THREADS; i++) {
		void *polls;

		pthread_join(tids[i], &polls);
		if (polls != NULL)
			engines++;
		else
			without++;
	}
	printf("engines %u, without %u\n", engines, without);
	rte_eal_cleanup();
	return engines == LULL_NAP_ATTACH_MAX_THREADS && without == 2 ? 0 : 1;
}
