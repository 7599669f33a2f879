/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The control plane says, once, what a PMD's budget keeps on this machine:
 * when a rate PMD has kept a lower quantile than p99 (or none) for a second,
 * one log line from lib/policy's text ("budget 250 us: p99 out of reach here
 * (needs 320 us ...); keeping p95"), and one more when that changes again.
 * The PMD thread never logs: it publishes the figures (LULL_MODEL_*), this
 * reads them on the main loop's tick.
 */
#ifndef LULL_BUDGET_NOTE_H
#define LULL_BUDGET_NOTE_H

#include <stdbool.h>
#include <stdint.h>

#define LULL_BUDGET_NOTE_DWELL_MS 1000u /**< a change is logged once it held this long */

struct lull_fwd;

/** Per PMD: what was logged last, and the change being watched. */
struct lull_budget_note {
	bool watching;           /**< set on the first tick that sees the PMD */
	unsigned int logged_pct; /**< 99 until a change is logged */
	unsigned int seen_pct;
	uint64_t seen_tsc;
};

/** On the main loop's tick, fwd->lock held. */
void lull_budget_note_tick_locked(struct lull_fwd *fwd);

#endif /* LULL_BUDGET_NOTE_H */
