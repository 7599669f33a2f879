/* SPDX-License-Identifier: BSD-3-Clause */
/** @file A clock read in ns: the one helper for every plane's timeouts and samples. */
#ifndef LULL_CLOCK_H
#define LULL_CLOCK_H

#include <stdint.h>
#include <time.h>

/** clock_gettime(id) in ns (CLOCK_MONOTONIC for deadlines, a thread's CPU clock). */
static inline uint64_t
lull_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
