/* SPDX-License-Identifier: BSD-3-Clause */
#include "isolate.h"
#include "log.h"
#include "sched_view.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int
lull_isolate_priority(pid_t tid, const struct lull_prio *p, bool initial, char *err, size_t errlen)
{
	struct sched_param sp = {.sched_priority = 0};
	char text[32];
	int ret = 0;

	lull_prio_format(p, text, sizeof(text));
	if (p->kind == LULL_PRIO_NONE && initial)
		return 0;
	if (p->kind == LULL_PRIO_FIFO) {
		sp.sched_priority = p->value;
		ret = sched_setscheduler(tid, SCHED_FIFO, &sp);
	} else {
		ret = sched_setscheduler(tid, SCHED_OTHER, &sp);
		if (ret == 0)
			ret = setpriority(
				PRIO_PROCESS, (id_t)tid, p->kind == LULL_PRIO_NICE ? p->value : 0);
	}
	if (ret < 0) {
		int e = errno;

		snprintf(err, errlen, "--pmd-priority: cannot set '%s' on thread %d: %s%s", text,
			(int)tid, strerror(e),
			e == EPERM ? " (needs root or CAP_SYS_NICE, and for fifo an RT budget)"
				   : "");
		return -e;
	}
	return 0;
}

static bool
is_pmd(pid_t tid, const pid_t *pmd_tids, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (pmd_tids[i] == tid)
			return true;
	return false;
}

static void
cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used + 8 < len; c++)
		if (CPU_ISSET(c, set))
			used += (size_t)snprintf(
				buf + used, len - used, "%s%d", used ? "," : "", c);
}

/* Once, at start: each PMD whose CPU the kernel does not keep for it, where
 * other processes' threads and kernel threads may run (lib/sched_view.h) */
static void
say_shared_cpus(const pid_t *pmd_tids, unsigned int n_pmds)
{
	char line[320];

	for (unsigned int i = 0; i < n_pmds; i++)
		if (lull_sched_shared_line(pmd_tids[i], line, sizeof(line)))
			LULL_LOG(INFO, "PMD %s", line);
}

int
lull_isolate_control(const struct lull_config *cfg, const pid_t *pmd_tids, unsigned int n_pmds,
	const cpu_set_t *pmds, char *err, size_t errlen)
{
	cpu_set_t want, overlap;
	unsigned int moved = 0, shared = 0;
	long n_cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct dirent *de;
	char text[256];
	DIR *dir;

	CPU_ZERO(&want);
	CPU_ZERO(&overlap);
	for (unsigned int i = 0; i < cfg->n_control_cpus; i++) {
		if ((long)cfg->control_cpus[i] >= n_cpus) {
			snprintf(err, errlen,
				"--control-cores: bad value '%u' (this machine has CPUs 0..%ld)",
				cfg->control_cpus[i], n_cpus - 1);
			return -EINVAL;
		}
		CPU_SET(cfg->control_cpus[i], &want);
	}
	dir = opendir("/proc/self/task");
	if (dir == NULL) {
		snprintf(err, errlen, "/proc/self/task: %s", strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir)) != NULL) {
		pid_t tid = (pid_t)atoi(de->d_name);
		cpu_set_t now;

		if (tid <= 0 || is_pmd(tid, pmd_tids, n_pmds))
			continue;
		if (cfg->n_control_cpus > 0) {
			if (sched_setaffinity(tid, sizeof(want), &want) < 0) {
				int e = errno;

				if (e == ESRCH) /* it exited since it was listed */
					continue;
				snprintf(err, errlen, "--control-cores: thread %d: %s", (int)tid,
					strerror(e));
				closedir(dir);
				return -e;
			}
			moved++;
		}
		if (sched_getaffinity(tid, sizeof(now), &now) == 0) {
			cpu_set_t both;

			CPU_AND(&both, &now, pmds);
			if (CPU_COUNT(&both) > 0) {
				CPU_OR(&overlap, &overlap, &both);
				shared++;
			}
		}
	}
	closedir(dir);
	if (moved > 0) {
		cpus_text(&want, text, sizeof(text));
		LULL_LOG(INFO, "control threads (%u) on CPU %s", moved, text);
	}
	if (shared > 0) {
		cpus_text(&overlap, text, sizeof(text));
		LULL_LOG(WARNING,
			"%u control thread(s) may run on PMD CPU %s: control work "
			"(port add/del, telemetry) then waits for the PMD, and the PMD for it; "
			"give "
			"--control-cores with CPUs no PMD uses",
			shared, text);
	}
	say_shared_cpus(pmd_tids, n_pmds);
	return 0;
}

/* One number from a /proc file; false when it cannot be read. */
static bool
read_long(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (f == NULL)
		return false;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok;
}

void
lull_isolate_log_rt_throttling(void)
{
	long runtime_us, period_us;

	if (!read_long("/proc/sys/kernel/sched_rt_runtime_us", &runtime_us) ||
		!read_long("/proc/sys/kernel/sched_rt_period_us", &period_us) || period_us <= 0)
		LULL_LOG(INFO, "SCHED_FIFO PMDs: RT throttling unknown (no sched_rt_runtime_us)");
	else if (runtime_us < 0 || runtime_us >= period_us)
		LULL_LOG(INFO, "SCHED_FIFO PMDs with RT throttling off: only their sleeps and "
			       "yields let other threads on their cores run");
	else
		LULL_LOG(INFO,
			"SCHED_FIFO PMDs: RT throttling leaves other threads at least %ld of "
			"every %ld us on their cores (sched_rt_runtime_us)",
			period_us - runtime_us, period_us);
}
