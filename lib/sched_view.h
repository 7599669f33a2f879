/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * How the kernel treats a polling thread: which CPUs it may run on, whether the
 * kernel keeps them for it, and what other threads took from it.
 *
 * A PMD that sleeps at idle leaves its CPU idle, and the scheduler moves other
 * threads there (kernel threads, other programs' threads); they stay when the
 * PMD polls again and preempt it near capacity, where a busy PMD keeps them out
 * (docs/benchmarks.md "Near OVS's capacity", docs/tuning.md "Isolating cores").
 * A CPU given with isolcpus= (/sys/devices/system/cpu/isolated) or in an
 * isolated cpuset partition (cgroup v2, kernel 6.7+:
 * /sys/fs/cgroup/cpuset.cpus.isolated) takes no thread the PMD did not bring.
 * The thread's run-queue wait (schedstat) and involuntary switches tell what
 * sharing cost it.
 *
 * Pure C11 and Linux, no DPDK include. Every path is read under a root ("" on
 * a host), so unit tests give it files of their own.
 */
#ifndef LULL_SCHED_VIEW_H
#define LULL_SCHED_VIEW_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/** Whether the kernel keeps a thread's CPUs for the threads placed there. */
enum lull_cpu_kept {
	LULL_CPU_KEPT_UNKNOWN = 0, /**< neither list could be read */
	LULL_CPU_SHARED,           /**< some CPU it may run on is in neither list */
	LULL_CPU_KEPT,             /**< every CPU it may run on is isolated */
};

struct lull_sched_view {
	char cpus[64];     /**< where it may run, "1" or "0-1" (Cpus_allowed_list; long: "...") */
	cpu_set_t allowed; /**< the same as a set */
	int cpu;           /**< where it last ran, -1 if not known */
	enum lull_cpu_kept kept;
	int have_wait;         /**< schedstat was read (CONFIG_SCHED_INFO) */
	uint64_t runq_wait_ns; /**< time runnable but not running, since it started */
	uint64_t preemptions;  /**< nonvoluntary_ctxt_switches, since it started */
};

/**
 * Read thread tid of process pid ("ROOT/proc/PID/task/TID/...") and the
 * isolated CPU lists under root into v.
 *
 * @return 0, -ENOENT when the thread is gone, or -EINVAL when a file says
 *   something it should not (v then holds what was read before it).
 */
int lull_sched_view(const char *root, pid_t pid, pid_t tid, struct lull_sched_view *v);

/**
 * Whether this process's thread tid may run on a CPU the kernel does not keep
 * for it; if so, the line that says so (for the log, once) into buf.
 */
bool lull_sched_shared_line(pid_t tid, char *buf, size_t len);

/**
 * The run-queue wait in a schedstat text ("RUN_NS WAIT_NS SLICES", kernel 2.6.23+):
 * the one parse for another thread's (lull_sched_view) and a PMD's own, read in
 * the datapath after a sampled wait (nap/nap.c).
 *
 * @return 0, or -EINVAL when the text does not start with two numbers.
 */
int lull_schedstat_wait(const char *text, uint64_t *wait_ns);

/** "kept", "shared" or "unknown". */
const char *lull_cpu_kept_name(enum lull_cpu_kept kept);

#endif /* LULL_SCHED_VIEW_H */
