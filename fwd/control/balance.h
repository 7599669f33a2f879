/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Where rx queues are polled, at run time: live moves between running PMDs
 * (`set rxq-pmd`), a rebalance by measured cycles (`pmd-rxq-rebalance`, OVS's
 * name), and consolidation (--consolidate): the queues gathered on the fewest
 * PMDs that carry the load, the others parked (lull_nap_park(), nap/nap.c), spread
 * again before a PMD runs out of headroom.
 *
 * A move is two parameter publications: first every PMD that gives a queue up
 * stops polling it and acknowledges (its tx buffers flushed at the reload), only
 * then does the PMD that takes it start: no rx queue is ever polled by two
 * threads, and packets of a queue leave in order. What arrives meanwhile waits
 * in the queue's ring. Control plane only, under fwd->lock unless said.
 */
#ifndef LULL_BALANCE_H
#define LULL_BALANCE_H

#include <stddef.h>

#include "fwd.h"

/**
 * `set rxq-pmd PORT:QUEUE@CORE,...`: move those queues (the others stay) and
 * pin them there (consolidation leaves pinned queues alone). Takes the lock.
 * @return 0, or a negative errno with a message naming the bad entry in err;
 *   -ETIMEDOUT: a PMD was slow to let go, the move completes at a later tick.
 */
int lull_balance_move(struct lull_fwd *fwd, const char *list, char *err, size_t errlen);

/**
 * `pmd-rxq-rebalance`: every unpinned queue to a PMD, largest measured load
 * first, each to the least loaded PMD (every PMD, parked ones too). Takes the
 * lock. @return as lull_balance_move().
 */
int lull_balance_rebalance(struct lull_fwd *fwd, char *err, size_t errlen);

/**
 * Main loop tick, under the lock: finish a move that waited for a PMD, measure
 * the window (every second), and with --consolidate decide to pack or unpack.
 */
void lull_balance_tick_locked(struct lull_fwd *fwd);

/** Free what the balance state holds (at teardown). */
void lull_balance_free(struct lull_fwd *fwd);

#endif /* LULL_BALANCE_H */
