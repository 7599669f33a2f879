/* SPDX-License-Identifier: BSD-3-Clause */
/* --control-cores against threads that come and go (fwd/control/isolate.c):
 * a thread that exits between the listing of /proc/self/task and its move is
 * gone, not an error (a CI run of lull failed to start with "thread N: No such
 * process"). */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "isolate.h"

static atomic_bool stop;

static void *
brief(void *arg)
{
	return arg;
}

/* threads that live a moment each, one after another, until stop */
static void *
churn(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		pthread_t t;

		if (pthread_create(&t, NULL, brief, NULL) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

static void
test_threads_that_exit_meanwhile(void **state)
{
	struct lull_config cfg = {.n_control_cpus = 1, .control_cpus = {0}};
	pthread_t churners[2];
	cpu_set_t pmds;
	char err[256] = "";
	int rc = 0;

	(void)state;
	CPU_ZERO(&pmds);
	CPU_SET(1, &pmds);
	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&churners[i], NULL, churn, NULL), 0);
	for (unsigned int i = 0; i < 3000 && rc == 0; i++)
		rc = lull_isolate_control(&cfg, NULL, 0, &pmds, err, sizeof(err));
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < 2; i++)
		pthread_join(churners[i], NULL);
	if (rc != 0)
		fail_msg("lull_isolate_control: %d: %s", rc, err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_that_exit_meanwhile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
