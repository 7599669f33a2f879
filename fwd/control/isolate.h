/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Sharing a PMD's core: PMD thread priority (nice or SCHED_FIFO), placement of
 * every non-PMD thread (--control-cores) and the checks that warn when control
 * and PMD threads share CPUs. Control plane only. The housekeeping yield itself
 * is in the PMD loop (pmd.c), since the PMD must do it.
 */
#ifndef LULL_ISOLATE_H
#define LULL_ISOLATE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"

/**
 * Give thread tid the scheduling p. initial: "none" leaves the thread as it
 * is; otherwise "none" restores SCHED_OTHER at nice 0.
 *
 * @return 0, or a negative errno with a message naming the value in err.
 */
int lull_isolate_priority(
	pid_t tid, const struct lull_prio *p, bool initial, char *err, size_t errlen);

/**
 * Pin every thread of this process except the PMDs (pmd_tids) to the CPUs of
 * --control-cores, if given; then warn when a non-PMD thread may run on a PMD's
 * CPU (pmds: every CPU a PMD's lcore may run on).
 *
 * @return 0, or a negative errno with a message in err.
 */
int lull_isolate_control(const struct lull_config *cfg, const pid_t *pmd_tids, unsigned int n_pmds,
	const cpu_set_t *pmds, char *err, size_t errlen);

/** A line about RT throttling (sched_rt_runtime_us), for when a PMD runs SCHED_FIFO. */
void lull_isolate_log_rt_throttling(void);

#endif /* LULL_ISOLATE_H */
