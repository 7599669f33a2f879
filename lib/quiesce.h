/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A grace period for a driver that tears down what polling threads read.
 *
 * DPDK 22.11's net_memif, when its peer leaves, clears its "connected" flag
 * and unmaps the shared rings from the EAL interrupt thread, with nothing in
 * between to wait for a polling thread that checked the flag a moment before
 * and is still reading a ring (a PMD preempted there reads unmapped memory:
 * SIGSEGV in eth_memif_rx). A grace period closes that window: each polling
 * thread owns a slot whose count is odd while it may be inside a driver call
 * and even while it waits or has stopped, and passes 2 at each iteration;
 * lull_quiesce_wait() returns once every other thread's slot was even or has
 * moved on, so no thread still holds what the driver read before it cleared
 * its flag. The same idea as the kernel's RCU or liburcu's quiescent states,
 * with membarrier(2) as the one fence the waiter pays for so that the pollers
 * pay none.
 *
 * Pure C11 and Linux, no DPDK include: unit-tested with threads that play PMDs.
 */
#ifndef LULL_QUIESCE_H
#define LULL_QUIESCE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

/** Slots for polling threads (lull has at most one PMD per lcore). */
#define LULL_QUIESCE_MAX_SLOTS 128

/** One polling thread's count; written by that thread only. */
struct lull_quiesce_slot {
	alignas(64) _Atomic uint64_t seq; /**< odd: polling; even: waiting or gone */
	_Atomic int used;
	_Atomic int tid; /**< its thread (lull_quiesce_set_self), 0: not known */
};

/** Counters of the grace periods taken, for the final stats. */
struct lull_quiesce_stats {
	uint64_t periods;    /**< grace periods waited for */
	uint64_t longest_ns; /**< the longest of them */
	uint64_t timeouts;   /**< ended by the bound with a thread still polling */
};

/**
 * Register for membarrier's private expedited command (once, any thread).
 * @return 0, or a negative errno (the grace period then falls back to a
 * fence on the waiter's side and a second pass of each polling thread).
 */
int lull_quiesce_init(void);

/** Claim a free slot (control plane, before the thread runs); NULL if none. */
struct lull_quiesce_slot *lull_quiesce_claim(void);

/** Give a slot back once its thread has stopped (lull_quiesce_offline() done);
 * nothing for NULL or a slot not claimed from the table. */
void lull_quiesce_release(struct lull_quiesce_slot *s);

/**
 * On the polling thread: when it exits, its slot goes even and back to the
 * table (a host's thread that ends reads no driver's memory any more).
 * Nothing for a slot not claimed from the table.
 */
void lull_quiesce_release_at_exit(struct lull_quiesce_slot *s);

/** On the polling thread: it may now enter a driver call. */
static inline void
lull_quiesce_online(struct lull_quiesce_slot *s)
{
	uint64_t v = atomic_load_explicit(&s->seq, memory_order_relaxed);

	if (!(v & 1))
		atomic_store_explicit(&s->seq, v + 1, memory_order_release);
}

/** On the polling thread: it waits (or stops) and reads nothing of a driver's. */
static inline void
lull_quiesce_offline(struct lull_quiesce_slot *s)
{
	uint64_t v = atomic_load_explicit(&s->seq, memory_order_relaxed);

	if (v & 1)
		atomic_store_explicit(&s->seq, v + 1, memory_order_release);
}

/** On the polling thread, once an iteration: whatever it read before is done with. */
static inline void
lull_quiesce_pass(struct lull_quiesce_slot *s)
{
	uint64_t v = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, v + 2, memory_order_release);
}

/** On a polling thread: its slot, which its own grace periods skip and which
 * records the thread's id (NULL: none). */
void lull_quiesce_set_self(struct lull_quiesce_slot *s);

/**
 * Wait until every polling thread but the caller (lull_quiesce_set_self) has
 * been outside a driver call since this call began - its count moved, or it
 * was seen blocked in the kernel (state S: no poll-mode driver call blocks;
 * a thread that polled once and then stopped, as testpmd's main thread after
 * draining the queues, holds an odd count for good): call it after
 * the driver made its data unreachable (its flag cleared) and before it frees
 * that data. Bounded by max_ns.
 *
 * @return the time waited in ns, or -ETIMEDOUT when a thread was still inside
 *   a driver call after max_ns.
 */
int64_t lull_quiesce_wait(uint64_t max_ns);

/** The counters so far (any thread). */
void lull_quiesce_stats(struct lull_quiesce_stats *out);

#endif
