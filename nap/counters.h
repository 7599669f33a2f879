/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Single-writer counters: one thread writes with a relaxed load and store (no
 * locked read-modify-write), any thread reads with a relaxed load. A reader
 * may see a value a few increments old, never a torn one.
 */
#ifndef LULL_COUNTERS_H
#define LULL_COUNTERS_H

#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>

static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit counters must be lock-free");

typedef _Atomic uint64_t lull_counter_t;

/** Add n. Only the owning thread may call this. */
static inline void
lull_counter_add(lull_counter_t *c, uint64_t n)
{
	atomic_store_explicit(
		c, atomic_load_explicit(c, memory_order_relaxed) + n, memory_order_relaxed);
}

/** Read from any thread. */
static inline uint64_t
lull_counter_read(const lull_counter_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

#endif /* LULL_COUNTERS_H */
