/* SPDX-License-Identifier: BSD-3-Clause */
#include "pm_qos.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>

#include "log.h"

/* one entry per CPU, in the order written: PMD lcores may share a CPU, and an
 * lcore may run on several (--lcores 1@(1-3)) */
static struct {
	unsigned int cpu;
	char old[24]; /**< as read: "0" (no constraint), "n/a" (strict) or a number */
} saved[CPU_SETSIZE];
static unsigned int n_saved;

static bool
saved_has(unsigned int cpu)
{
	for (unsigned int i = 0; i < n_saved; i++)
		if (saved[i].cpu == cpu)
			return true;
	return false;
}

static void
qos_path(unsigned int cpu, char *buf, size_t len)
{
	const char *root = getenv("LULL_SYSFS_ROOT");

	snprintf(buf, len, "%s/devices/system/cpu/cpu%u/power/pm_qos_resume_latency_us",
		root != NULL ? root : "/sys", cpu);
}

static int
qos_write(unsigned int cpu, const char *value)
{
	char path[160];
	FILE *f;
	int ret = 0;

	qos_path(cpu, path, sizeof(path));
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	if (fputs(value, f) == EOF)
		ret = -errno;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* Save CPU's resume latency, then write value (PMD lcore: for the messages). */
static int
qos_set(unsigned int cpu, unsigned int lcore, const char *value, char *err, size_t errlen)
{
	char path[160];
	FILE *f;
	int ret;

	qos_path(cpu, path, sizeof(path));
	f = fopen(path, "r");
	if (f == NULL) {
		ret = errno == ENOENT ? -ENOTSUP : -errno;
		snprintf(err, errlen,
			"--pmd-resume-latency-us: CPU %u of PMD lcore %u has no %s (%s)", cpu,
			lcore, path,
			errno == ENOENT ? "the kernel offers no per-CPU PM QoS here"
					: strerror(errno));
		return ret;
	}
	if (fgets(saved[n_saved].old, sizeof(saved[n_saved].old), f) == NULL)
		saved[n_saved].old[0] = '\0';
	fclose(f);
	saved[n_saved].old[strcspn(saved[n_saved].old, "\n")] = '\0';
	saved[n_saved].cpu = cpu;
	ret = qos_write(cpu, value);
	if (ret < 0) {
		snprintf(err, errlen, "--pmd-resume-latency-us: cannot write %s: %s", path,
			strerror(-ret));
		return ret;
	}
	n_saved++;
	LULL_LOG(INFO, "PMD lcore %u: CPU %u resume latency %s us (was %s)", lcore, cpu, value,
		saved[n_saved - 1].old);
	return 0;
}

int
lull_pm_qos_apply(const struct lull_config *cfg, char *err, size_t errlen)
{
	char value[24];
	int ret = 0;

	if (cfg->pmd_resume_latency_us < 0)
		return 0;
	/* the kernel's words: "n/a" is no latency at all, 0 would be no constraint */
	if (cfg->pmd_resume_latency_us == 0)
		snprintf(value, sizeof(value), "n/a");
	else
		snprintf(value, sizeof(value), "%d", (int)cfg->pmd_resume_latency_us);
	for (unsigned int i = 0; i < cfg->n_pmds && ret == 0; i++) {
		/* every CPU the lcore may run on, not rte_lcore_to_cpu_id (a core id) */
		rte_cpuset_t cpus = rte_lcore_cpuset(cfg->pmd_lcores[i]);

		for (unsigned int cpu = 0; cpu < CPU_SETSIZE && ret == 0; cpu++) {
			if (CPU_ISSET(cpu, &cpus) && !saved_has(cpu))
				ret = qos_set(cpu, cfg->pmd_lcores[i], value, err, errlen);
		}
	}
	if (ret < 0)
		lull_pm_qos_restore();
	return ret;
}

void
lull_pm_qos_restore(void)
{
	/* in reverse: a CPU saved twice would get its first value back last */
	for (unsigned int i = n_saved; i-- > 0;) {
		int ret =
			saved[i].old[0] != '\0' ? qos_write(saved[i].cpu, saved[i].old) : -ENODATA;

		if (ret < 0)
			LULL_LOG(WARNING, "CPU %u: could not restore its resume latency '%s': %s",
				saved[i].cpu, saved[i].old, strerror(-ret));
	}
	n_saved = 0;
}
