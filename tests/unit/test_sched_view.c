/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/sched_view.c: a thread's CPUs, whether the kernel keeps them, its waits. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sched_view.h"

static char root[64];

/* ROOT/PATH holding text (text NULL: removed), its folders made */
static void
put(const char *path, const char *text)
{
	char full[256];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	if (text == NULL) {
		unlink(full);
		return;
	}
	for (char *s = strchr(full + strlen(root) + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define STATUS(allowed, nonvol)                                                                    \
	"Name:\tpmd-c01/id:7\nState:\tR (running)\nCpus_allowed:\t2\nCpus_allowed_list:\t" allowed \
	"\nvoluntary_ctxt_switches:\t9000\nnonvoluntary_ctxt_switches:\t" nonvol "\n"

/* A stat line whose command holds ") (" and spaces, last on CPU 1 (field 39) */
#define STAT_ON_CPU1                                                                               \
	"42 (pmd) (x y) R 1 42 42 0 -1 4194368 0 0 0 0 100 5 0 0 20 0 3 0 1000 0 0 0 0 0 0 0 "     \
	"0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/lull-sched-view-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("/proc/7/task/42/status", STATUS("1", "123"));
	put("/proc/7/task/42/stat", STAT_ON_CPU1);
	put("/proc/7/task/42/schedstat", "5000000 2500000 77\n");
	put("/sys/devices/system/cpu/isolated", "1\n");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_kept_by_isolcpus(void **state)
{
	struct lull_sched_view v;

	(void)state;
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_string_equal(v.cpus, "1");
	assert_true(CPU_ISSET(1, &v.allowed) && CPU_COUNT(&v.allowed) == 1);
	assert_int_equal(v.cpu, 1);
	assert_int_equal(v.kept, LULL_CPU_KEPT);
	assert_string_equal(lull_cpu_kept_name(v.kept), "kept");
	assert_true(v.have_wait);
	assert_int_equal(v.runq_wait_ns, 2500000);
	assert_int_equal(v.preemptions, 123);
}

/* One CPU of its affinity outside the lists is enough to share */
static void
test_shared_when_one_cpu_is_not_isolated(void **state)
{
	struct lull_sched_view v;

	(void)state;
	put("/proc/7/task/42/status", STATUS("0-1", "5"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.kept, LULL_CPU_SHARED);
	assert_string_equal(lull_cpu_kept_name(v.kept), "shared");
	put("/sys/devices/system/cpu/isolated", "\n"); /* no isolcpus= */
	put("/proc/7/task/42/status", STATUS("1", "5"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.kept, LULL_CPU_SHARED);
}

/* An isolated cpuset partition keeps it too, and the two lists add up */
static void
test_kept_by_cpuset_partition(void **state)
{
	struct lull_sched_view v;

	(void)state;
	put("/sys/devices/system/cpu/isolated", "0\n");
	put("/sys/fs/cgroup/cpuset.cpus.isolated", "1-3\n");
	put("/proc/7/task/42/status", STATUS("0-2", "5"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.kept, LULL_CPU_KEPT);
	put("/sys/devices/system/cpu/isolated", NULL);
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.kept, LULL_CPU_SHARED);
	put("/sys/fs/cgroup/cpuset.cpus.isolated", NULL);
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.kept, LULL_CPU_KEPT_UNKNOWN);
	assert_string_equal(lull_cpu_kept_name(v.kept), "unknown");
}

/* No schedstat (a kernel without CONFIG_SCHED_INFO): the rest still reads */
static void
test_without_schedstat(void **state)
{
	struct lull_sched_view v;

	(void)state;
	put("/proc/7/task/42/schedstat", NULL);
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_false(v.have_wait);
	assert_int_equal(v.runq_wait_ns, 0);
	assert_int_equal(v.cpu, 1);
}

static void
test_gone_and_garbled(void **state)
{
	struct lull_sched_view v;

	(void)state;
	assert_int_equal(lull_sched_view(root, 7, 43, &v), -ENOENT);
	put("/proc/7/task/42/status", "Name:\tpmd\nnonvoluntary_ctxt_switches:\t1\n");
	assert_int_equal(lull_sched_view(root, 7, 42, &v), -EINVAL);
	put("/proc/7/task/42/status", STATUS("1-x", "1"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), -EINVAL);
	put("/proc/7/task/42/status", STATUS("1", "many"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), -EINVAL);
	/* a list longer than the text shown: the set is whole, the text cut */
	put("/proc/7/task/42/status",
		STATUS("1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,41,43,45,47", "1"));
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_true(CPU_ISSET(47, &v.allowed) && CPU_COUNT(&v.allowed) == 24);
	assert_int_equal(strlen(v.cpus), sizeof(v.cpus) - 1);
	assert_string_equal(v.cpus + sizeof(v.cpus) - 4, "...");
	put("/proc/7/task/42/status", STATUS("1", "1"));
	put("/proc/7/task/42/schedstat", "soon\n");
	assert_int_equal(lull_sched_view(root, 7, 42, &v), -EINVAL);
	put("/proc/7/task/42/schedstat", "1 2 3\n");
	put("/proc/7/task/42/stat", "42 (pmd R 1\n"); /* no ')': CPU not known */
	assert_int_equal(lull_sched_view(root, 7, 42, &v), 0);
	assert_int_equal(v.cpu, -1);
}

/* The one schedstat parse, the datapath's (nap.c) and the view's */
static void
test_schedstat_wait(void **state)
{
	char text[64];
	uint64_t wait_ns = 7;
	int fd;
	ssize_t n;

	(void)state;
	assert_int_equal(lull_schedstat_wait("123 4567 89\n", &wait_ns), 0);
	assert_int_equal(wait_ns, 4567);
	assert_int_equal(lull_schedstat_wait("1 18446744073709551615", &wait_ns), 0);
	assert_true(wait_ns == UINT64_MAX);
	assert_int_equal(lull_schedstat_wait("1 18446744073709551616 2", &wait_ns), -EINVAL);
	assert_int_equal(lull_schedstat_wait("123\n", &wait_ns), -EINVAL);
	assert_int_equal(lull_schedstat_wait("", &wait_ns), -EINVAL);
	assert_int_equal(lull_schedstat_wait("1 -2 3", &wait_ns), -EINVAL);
	assert_int_equal(lull_schedstat_wait("1 2x 3", &wait_ns), -EINVAL);
	/* this thread's own, as the datapath reads it */
	fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	assert_true(n > 0);
	text[n] = '\0';
	assert_int_equal(lull_schedstat_wait(text, &wait_ns), 0);
}

/* This very thread, on the host's own files */
static void
test_this_thread(void **state)
{
	struct lull_sched_view v;
	char line[320], want[96];

	(void)state;
	assert_int_equal(lull_sched_view("", getpid(), gettid(), &v), 0);
	assert_true(v.cpus[0] >= '0' && v.cpus[0] <= '9');
	assert_true(v.cpu >= 0);
	assert_int_not_equal(v.kept, LULL_CPU_KEPT_UNKNOWN); /* isolated exists since 2.6.x */
	/* the log's line: only where shared, naming the thread and its CPUs */
	assert_int_equal(
		lull_sched_shared_line(gettid(), line, sizeof(line)), v.kept == LULL_CPU_SHARED);
	if (v.kept == LULL_CPU_SHARED) {
		snprintf(want, sizeof(want), "thread %d may run on CPU %s, which", (int)gettid(),
			v.cpus);
		assert_non_null(strstr(line, want));
	}
	assert_false(lull_sched_shared_line(0, line, sizeof(line))); /* no such thread */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kept_by_isolcpus, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_shared_when_one_cpu_is_not_isolated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kept_by_cpuset_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_schedstat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gone_and_garbled, setup, teardown),
		cmocka_unit_test(test_schedstat_wait),
		cmocka_unit_test(test_this_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
