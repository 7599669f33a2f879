/* SPDX-License-Identifier: BSD-3-Clause */
/* The attached engine's threads, shared by attach.c and attach_tel.c. */
#ifndef LULL_NAP_ATTACH_PRIV_H
#define LULL_NAP_ATTACH_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "lull_nap_attach.h"
#include "wait.h"

/** One polling thread's engine and its round. */
struct lull_nap_thr {
	struct lull_nap nap;
	struct lull_waiter waiter;
	uint32_t round[LULL_NAP_ATTACH_MAX_QUEUES]; /**< port << 16 | queue, this round */
	unsigned int n_round;
	uint64_t loaded_sig;   /**< the set of sources it last loaded with (order-free) */
	unsigned int n_loaded; /**< and their number */
	/** The sources loaded with, where they are all rx queues that interrupt and
	 * that a look tells whether packets wait (peek): its interrupt waits. */
	struct lull_wait_queue wq[LULL_NAP_ATTACH_MAX_QUEUES];
	int peek_fd[LULL_NAP_ATTACH_MAX_QUEUES]; /**< readable while packets wait, or -1 */
	unsigned int n_wq;
	uint32_t round_rx; /**< packets this round */
	uint64_t rounds;
	uint64_t gen; /**< lull_nap_attach_gen when it last loaded */
	uint64_t tid;
	uint64_t start_tsc; /**< when it first polled */
	unsigned int index;
	int cpu; /**< where it ran at its last load */
	uint16_t burst;
	bool loaded;
};

/** Threads with an engine: entries below lull_nap_n_thrs are set, never freed. */
extern struct lull_nap_thr *lull_nap_thrs[LULL_NAP_ATTACH_MAX_THREADS];
extern unsigned int lull_nap_n_thrs;
extern uint64_t lull_nap_attach_gen;

#endif /* LULL_NAP_ATTACH_PRIV_H */
