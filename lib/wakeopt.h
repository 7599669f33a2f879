/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * How a polling thread waits, as options: the rows lull and the engine's
 * drop-in (nap/attach.c, LULL_OPTS) share, as lib/sleepopt.h shares the
 * policy's. One struct, one set of rows (names, bounds, defaults, help).
 */
#ifndef LULL_WAKEOPT_H
#define LULL_WAKEOPT_H

#include <stdint.h>

#include "opt.h"
#include "slowwake.h"
#include "wake.h"

struct lull_wake_opts {
	enum lull_wake_kind wake;           /**< --wake */
	struct lull_slowwake_params inject; /**< --wake-inject (all 0: off) */
	uint32_t timer_slack_ns;            /**< --timer-slack-ns */
	uint32_t intr_after_ms;    /**< hand over to rx interrupts after this idle; 0 = never */
	uint32_t intr_wait_max_ms; /**< longest single wait for an rx interrupt */
	uint32_t wake_priority;    /**< SCHED_FIFO priority while the PMD waits; 0 = none */
};

lull_opt_parse_fn lull_wake_opt_parse;
lull_opt_show_fn lull_wake_opt_show;

/** The shared rows, for a tool whose configuration type holds a struct
 * lull_wake_opts member; fl: flags of every row (LULL_OPT_SETTABLE or 0). */
#define LULL_WAKE_OPT_ROWS(type, member, fl)                                                       \
	LULL_OPT_TEXT_ROW(type, member.wake, "wake", "W", "auto",                                  \
		"auto, nanosleep, pause (spin), tpause (WAITPKG) or monitor (MONITORX/UMWAIT on "  \
		"the rx descriptors)",                                                             \
		NULL, fl, lull_wake_opt_parse, lull_wake_opt_show),                                \
		LULL_OPT_TEXT_ROW(type, member.inject, "wake-inject", "M", "off",                  \
			"tests and benchmarks: a slow machine's wakes on any machine. slow-vm "    \
			"adds to every wait 42 us of CPU (1 wait in 100: 160 us) and 30 us + "     \
			"exp(23 us) of lateness, 1 wake in 2,000 2-5 ms more (lib/slowwake.h)",    \
			NULL, fl, lull_slowwake_opt_parse, lull_slowwake_opt_show),                \
		LULL_OPT_UINT_ROW(type, member.timer_slack_ns, "timer-slack-ns", "N", 1, 1000000,  \
			LULL_NAP_STR(LULL_NAP_TIMER_SLACK_NS), "PMD threads' timer slack", fl),    \
		LULL_OPT_UINT_ROW(type, member.intr_after_ms, "intr-after-ms", "MS", 0, 3600000,   \
			"200",                                                                     \
			"where every polled queue has rx interrupts: rate waits for them when "    \
			"its cost model says so, every policy after MS idle; 0 = never",           \
			fl),                                                                       \
		LULL_OPT_UINT_ROW(type, member.intr_wait_max_ms, "intr-wait-max-ms", "MS", 1,      \
			60000, LULL_NAP_STR(LULL_NAP_INTR_WAIT_MAX_MS),                            \
			"longest single wait for an rx interrupt (a stop or a change ends one at " \
			"once)",                                                                   \
			fl),                                                                       \
		LULL_OPT_UINT_ROW(type, member.wake_priority, "wake-priority", "N", 0, 99, "0",    \
			"SCHED_FIFO priority N from each wait until the PMD has polled 1 ms "      \
			"without one, so that its wake preempts what took its CPU (the kernel "    \
			"may let that run to its next tick); 0 = none. Needs CAP_SYS_NICE",        \
			fl)

#endif /* LULL_WAKEOPT_H */
