/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Wake backends: how a PMD waits once its policy decided how long. One
 * interface, the backend chosen once per PMD from what the CPU offers:
 *  - nanosleep: gives the CPU back (the thread's timer slack is set by the PMD);
 *  - pause: spins with the pause instruction until the deadline (never sleeps,
 *    lowest wake latency, no CPU saved - for comparison and tiny waits);
 *  - tpause: rte_power_pause() (WAITPKG: the core rests in C0.1/C0.2 until the
 *    TSC deadline); auto uses it for waits shorter than LULL_TPAUSE_MAX_NS and
 *    nanosleep above, where giving the CPU back is worth the wake cost;
 *  - monitor: rte_power_monitor(_multi) on the next rx descriptor of every
 *    polled queue: wakes when a packet lands or at the deadline. Needs the
 *    queues, so the PMD does the wait (pmd.c); here only the CPU check.
 * The policy is pure (lib/policy); this file only knows how to wait.
 */
#ifndef LULL_WAIT_H
#define LULL_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define LULL_TPAUSE_MAX_NS 50000

struct lull_waiter {
	enum lull_wake_kind kind; /**< resolved: never AUTO */
	bool tpause_short;        /**< auto on a WAITPKG CPU: tpause below LULL_TPAUSE_MAX_NS */
	uint64_t tsc_hz;
};

/**
 * Pick the backend: auto takes the best this CPU has; an explicit kind the CPU
 * lacks is refused with a message in err.
 */
int lull_waiter_init(struct lull_waiter *w, enum lull_wake_kind kind, char *err, size_t errlen);

/** Wait about ns nanoseconds (every kind but monitor, which the PMD handles). */
void lull_waiter_wait(const struct lull_waiter *w, uint64_t ns);

/** What the waiter is, for logs: "nanosleep", "tpause+nanosleep", ... */
const char *lull_waiter_describe(const struct lull_waiter *w);

#endif /* LULL_WAIT_H */
