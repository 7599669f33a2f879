/* SPDX-License-Identifier: BSD-3-Clause */
#include "budget_note.h"

#include <rte_cycles.h>

#include "fwd.h"
#include "log.h"
#include "policy.h"
#include "pmd_ctl.h"

#define STRICT 1000u /* added to the percentile watched when the budget is strict */

static struct lull_kept_view
view(const struct lull_pmd *pmd, unsigned int kept_pct)
{
	const lull_counter_t *m = pmd->nap.model;

	return (struct lull_kept_view){
		.budget_ns = pmd->ctl_params->policy.budget_ns,
		.kept_pct = kept_pct,
		.late_p50_ns = lull_counter_read(&m[LULL_MODEL_LATE_P50_NS]),
		.late_p99_ns = lull_counter_read(&m[LULL_MODEL_LATE_P99_NS]),
		.kept_late_ns = lull_counter_read(&m[LULL_MODEL_KEPT_LATE_NS]),
		.wait_cpu_ns = lull_counter_read(&m[LULL_MODEL_TIMED_CPU_NS]),
		.strict = pmd->ctl_params->policy.strict_budget,
	};
}

void
lull_budget_note_tick_locked(struct lull_fwd *fwd)
{
	uint64_t now_tsc = rte_rdtsc(),
		 dwell_tsc = rte_get_tsc_hz() / 1000 * LULL_BUDGET_NOTE_DWELL_MS;

	for (unsigned int i = 0; i < fwd->n_launched; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		struct lull_budget_note *n = &fwd->budget_note[i];
		struct lull_kept_view v;
		unsigned int pct;
		char line[320];

		if (pmd->ctl_params == NULL || pmd->ctl_params->policy.kind != LULL_POLICY_RATE)
			continue;
		/* a strict budget that polls says something else than one that sleeps */
		pct = (unsigned int)lull_counter_read(&pmd->nap.model[LULL_MODEL_KEPT_PCT]) +
		      (pmd->ctl_params->policy.strict_budget ? STRICT : 0);
		if (!n->watching) { /* as if p99 had been logged: kept, nothing to say */
			n->watching = true;
			n->logged_pct = n->seen_pct = 99 + pct - pct % STRICT;
		}
		if (pct != n->seen_pct) {
			n->seen_pct = pct;
			n->seen_tsc = now_tsc;
			continue;
		}
		if (pct == n->logged_pct || now_tsc - n->seen_tsc < dwell_tsc)
			continue;
		n->logged_pct = pct;
		v = view(pmd, pct % STRICT);
		lull_policy_kept_text(line, sizeof(line), &v);
		if (pct % STRICT >= 99)
			LULL_LOG(INFO, "pmd thread core %u: %s", pmd->lcore, line);
		else
			LULL_LOG(WARNING, "pmd thread core %u: %s", pmd->lcore, line);
	}
}
