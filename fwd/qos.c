/* SPDX-License-Identifier: BSD-3-Clause */
#include "qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>

#include "log.h"

static struct {
	unsigned int cpu;
	char old[24]; /**< as read: "0" (no constraint), "n/a" (strict) or a number */
} saved[LULL_MAX_PMDS];
static unsigned int n_saved;

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

int
lull_qos_apply(const struct lull_config *cfg, char *err, size_t errlen)
{
	char value[24], path[160];
	int ret = 0;

	if (cfg->pmd_resume_latency_us < 0)
		return 0;
	/* the kernel's words: "n/a" is no latency at all, 0 would be no constraint */
	if (cfg->pmd_resume_latency_us == 0)
		snprintf(value, sizeof(value), "n/a");
	else
		snprintf(value, sizeof(value), "%d", (int)cfg->pmd_resume_latency_us);
	for (unsigned int i = 0; i < cfg->n_pmds && ret == 0; i++) {
		unsigned int cpu = rte_lcore_to_cpu_id((int)cfg->pmd_lcores[i]);
		FILE *f;

		qos_path(cpu, path, sizeof(path));
		f = fopen(path, "r");
		if (f == NULL) {
			ret = errno == ENOENT ? -ENOTSUP : -errno;
			snprintf(err, errlen,
				"--pmd-resume-latency-us: CPU %u of PMD lcore %u has no %s (%s)",
				cpu, cfg->pmd_lcores[i], path,
				errno == ENOENT ? "the kernel offers no per-CPU PM QoS here"
						: strerror(errno));
			break;
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
			break;
		}
		n_saved++;
		LULL_LOG(INFO, "PMD lcore %u: CPU %u resume latency %s us (was %s)",
			cfg->pmd_lcores[i], cpu, value, saved[n_saved - 1].old);
	}
	if (ret < 0)
		lull_qos_restore();
	return ret;
}

void
lull_qos_restore(void)
{
	for (unsigned int i = 0; i < n_saved; i++) {
		int ret =
			saved[i].old[0] != '\0' ? qos_write(saved[i].cpu, saved[i].old) : -ENODATA;

		if (ret < 0)
			LULL_LOG(WARNING, "CPU %u: could not restore its resume latency '%s': %s",
				saved[i].cpu, saved[i].old, strerror(-ret));
	}
	n_saved = 0;
}
