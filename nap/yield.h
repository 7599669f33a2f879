/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The housekeeping yield (--yield-hz): a PMD gives its CPU up for a moment,
 * whatever the load, so kernel work and other threads on its core run
 * (testpmd's --delay-hz). The build switch (-Dyield=false, the build that
 * bench/isolation compares against to show the yield costs nothing when off)
 * lives here, not in the PMD loop: without it lull_yield_due() is false at
 * compile time and the yield code is dropped (linux's busy_poll.h does the
 * same for its optional backend).
 */
#ifndef LULL_YIELD_H
#define LULL_YIELD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#ifndef LULL_YIELD
#define LULL_YIELD 1
#endif

/** Whether a yield is due at now_tsc (period 0: never; one compare). */
static inline bool
lull_yield_due(uint64_t period_tsc, uint64_t next_tsc, uint64_t now_tsc)
{
#if LULL_YIELD
	return period_tsc != 0 && now_tsc >= next_tsc;
#else
	(void)period_tsc;
	(void)next_tsc;
	(void)now_tsc;
	return false;
#endif
}

/** Give the CPU up for about ns (nanosleep, whatever the wake backend). */
static inline void
lull_yield(uint64_t ns)
{
	const struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};

	nanosleep(&ts, NULL);
}

#endif /* LULL_YIELD_H */
