/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * --pmd-resume-latency-us: the kernel's per-CPU PM QoS resume latency of the
 * PMD cores (/sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us),
 * which keeps cpuidle out of the idle states that take longer to leave, so
 * that a sleeping PMD wakes in time (DPDK 24.11 has the same as
 * rte_power_qos_set_cpu_resume_latency; lull is on 22.11). Set at start,
 * restored at exit. Control plane only.
 */
#ifndef LULL_PM_QOS_H
#define LULL_PM_QOS_H

#include <stddef.h>

#include "config.h"

/**
 * Set it on every PMD's CPU (nothing when the option is "none"), keeping what
 * was there. A CPU without the file refuses the option by name (-ENOTSUP);
 * what was set before the failure is restored.
 * $LULL_SYSFS_ROOT (default /sys) is where the files are looked for (tests).
 *
 * @return 0, or a negative errno with a message in err.
 */
int lull_pm_qos_apply(const struct lull_config *cfg, char *err, size_t errlen);

/** Put back what lull_pm_qos_apply() found; logs a value it could not restore. */
void lull_pm_qos_restore(void);

#endif /* LULL_PM_QOS_H */
