/* SPDX-License-Identifier: BSD-3-Clause */
#include "consolidate.h"

#include <string.h>

void
lull_cons_init(struct lull_cons_state *st)
{
	memset(st, 0, sizeof(*st));
}

void
lull_cons_moved(struct lull_cons_state *st, uint64_t now_ns)
{
	st->moved = true;
	st->last_move_ns = now_ns;
	st->calm = 0; /* loads measured across a move mean nothing */
}

unsigned int
lull_cons_count(
	const struct lull_cons_queue *qs, unsigned int n, unsigned int n_pmds, unsigned int *nq)
{
	unsigned int awake = 0;

	memset(nq, 0, sizeof(*nq) * n_pmds);
	for (unsigned int i = 0; i < n; i++)
		if (qs[i].pmd < n_pmds && nq[qs[i].pmd]++ == 0)
			awake++;
	return awake;
}

/* Largest load first; equal loads by id, so that a decision does not depend
 * on the order the caller listed the queues in. */
static bool
before(const struct lull_cons_queue *a, const struct lull_cons_queue *b)
{
	return a->load > b->load || (a->load == b->load && a->id < b->id);
}

static void
sort_by_load(struct lull_cons_queue *qs, unsigned int n)
{
	/* insertion sort: a few hundred queues at most, mostly in order already */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && before(&qs[j], &qs[j - 1]); j--) {
			struct lull_cons_queue t = qs[j];

			qs[j] = qs[j - 1];
			qs[j - 1] = t;
		}
}

static bool
movable(const struct lull_cons_queue *q, unsigned int n_pmds, const bool *from)
{
	return q->pmd < n_pmds && !q->pinned && (from == NULL || from[q->pmd]);
}

/* The greedy assignment, no PMD past max_q queues (0: no limit); writes
 * qs[].pmd only when write. */
static bool
assign(struct lull_cons_queue *qs, unsigned int n, unsigned int n_pmds, const bool *from,
	const bool *to, double *load, double cap, unsigned int max_q, bool write)
{
	unsigned int nq[LULL_CONS_MAX_PMDS] = {0};

	if (n_pmds > LULL_CONS_MAX_PMDS)
		n_pmds = LULL_CONS_MAX_PMDS;
	sort_by_load(qs, n);
	for (unsigned int i = 0; i < n; i++)
		if (qs[i].pmd < n_pmds && !movable(&qs[i], n_pmds, from)) {
			load[qs[i].pmd] += qs[i].load;
			nq[qs[i].pmd]++;
		}
	for (unsigned int i = 0; i < n; i++) {
		int best = -1;

		if (!movable(&qs[i], n_pmds, from))
			continue;
		/* the least loaded with room; on a tie the queue's own PMD (no move
		 * for nothing) */
		for (unsigned int k = 0; k < n_pmds; k++)
			if (to[k] && (max_q == 0 || nq[k] < max_q) &&
				(best < 0 || load[k] < load[best] ||
					(load[k] == load[best] && k == qs[i].pmd)))
				best = (int)k;
		if (best < 0 || load[best] + qs[i].load > cap)
			return false;
		load[best] += qs[i].load;
		nq[best]++;
		if (write)
			qs[i].pmd = (uint16_t)best;
	}
	return true;
}

bool
lull_cons_assign(struct lull_cons_queue *qs, unsigned int n, unsigned int n_pmds, const bool *from,
	const bool *to, double *load, double cap, unsigned int max_queues)
{
	return assign(qs, n, n_pmds, from, to, load, cap, max_queues, true);
}

/* What one window shows: the PMD out of headroom, the first parked one, the
 * least loaded one that may park, and whether every awake PMD is calm. */
struct cons_survey {
	int hot, parked, victim;
	bool calm;
};

static struct cons_survey
survey(const struct lull_cons_params *p, const struct lull_cons_pmd *pmds, unsigned int n_pmds,
	const struct lull_cons_queue *qs, unsigned int n, const unsigned int *nq)
{
	struct cons_survey sv = {.hot = -1, .parked = -1, .victim = -1, .calm = true};
	bool pins[LULL_CONS_MAX_PMDS] = {false};

	for (unsigned int i = 0; i < n; i++)
		if (qs[i].pmd < n_pmds && qs[i].pinned)
			pins[qs[i].pmd] = true; /* a pinned queue keeps its PMD awake */
	for (unsigned int i = 0; i < n_pmds; i++) {
		const struct lull_cons_pmd *m = &pmds[i];

		if (nq[i] == 0) {
			sv.parked = sv.parked < 0 ? (int)i : sv.parked;
			continue;
		}
		sv.calm = sv.calm && m->load < p->pack_below;
		/* out of headroom: past the unpack line, or missing its budget while it
		 * carries more than packing allows (an idle PMD's late wakes, which a
		 * VM has plenty of, say nothing about its load) */
		if ((m->load > p->unpack_above || (m->missing && m->load > p->pack_below)) &&
			(sv.hot < 0 || m->load > pmds[sv.hot].load))
			sv.hot = (int)i;
		if (!pins[i] && (sv.victim < 0 || m->load < pmds[sv.victim].load))
			sv.victim = (int)i;
	}
	return sv;
}

/* A hot PMD with no parked one to hand over to: spread every queue, if the
 * busiest PMD then gains enough. */
static bool
plan_spread(const struct lull_cons_params *p, const struct lull_cons_pmd *pmds, unsigned int n_pmds,
	struct lull_cons_queue *qs, unsigned int n, int hot, struct lull_cons_decision *d)
{
	double load[LULL_CONS_MAX_PMDS] = {0};
	bool to[LULL_CONS_MAX_PMDS];
	double top = 0;

	memset(to, 1, sizeof(to));
	assign(qs, n, n_pmds, NULL, to, load, 1e300, p->max_queues, false);
	for (unsigned int i = 0; i < n_pmds; i++)
		top = load[i] > top ? load[i] : top;
	if (top > pmds[hot].load - LULL_CONS_SPREAD_GAIN)
		return false; /* no better spread */
	d->kind = LULL_CONS_SPREAD;
	d->pmd = (unsigned int)hot;
	d->missing = pmds[hot].missing;
	d->after = top;
	return true;
}

/* Calm long enough: the victim's queues go to the other awake PMDs, if every
 * one of them stays under the pack line. */
static bool
plan_pack(const struct lull_cons_params *p, unsigned int n_pmds, struct lull_cons_queue *qs,
	unsigned int n, const unsigned int *nq, int victim, bool *from, bool *to,
	struct lull_cons_decision *d)
{
	double load[LULL_CONS_MAX_PMDS] = {0};

	for (unsigned int i = 0; i < n_pmds; i++)
		to[i] = nq[i] > 0 && (int)i != victim;
	from[victim] = true;
	d->kind = LULL_CONS_PACK;
	d->pmd = (unsigned int)victim;
	return assign(qs, n, n_pmds, from, to, load, p->pack_below, p->max_queues, false);
}

enum lull_cons_kind
lull_cons_decide(struct lull_cons_state *st, const struct lull_cons_params *p,
	const struct lull_cons_pmd *pmds, unsigned int n_pmds, struct lull_cons_queue *qs,
	unsigned int n, uint64_t now_ns, struct lull_cons_decision *d)
{
	unsigned int nq[LULL_CONS_MAX_PMDS];
	bool from[LULL_CONS_MAX_PMDS] = {false}, to[LULL_CONS_MAX_PMDS] = {false};
	double load[LULL_CONS_MAX_PMDS] = {0};
	const bool *moving = from; /* whose queues move: NULL, every PMD's */
	struct cons_survey sv;

	memset(d, 0, sizeof(*d));
	if (n_pmds > LULL_CONS_MAX_PMDS)
		n_pmds = LULL_CONS_MAX_PMDS;
	if (st->moved && now_ns - st->last_move_ns < p->dwell_ns)
		return LULL_CONS_STAY;
	d->awake = lull_cons_count(qs, n, n_pmds, nq);
	sv = survey(p, pmds, n_pmds, qs, n, nq);
	st->calm = sv.calm ? st->calm + 1 : 0;
	for (unsigned int i = 0; i < n; i++)
		qs[i].was = qs[i].pmd;
	if (sv.hot >= 0 && nq[sv.hot] < 2) {
		return LULL_CONS_STAY; /* one queue cannot be split */
	} else if (sv.hot >= 0 && sv.parked >= 0) {
		from[sv.hot] = to[sv.hot] = to[sv.parked] = true;
		d->kind = LULL_CONS_UNPACK;
		d->pmd = (unsigned int)sv.hot;
		d->other = (unsigned int)sv.parked;
		d->missing = pmds[sv.hot].missing;
	} else if (sv.hot >= 0) {
		if (!plan_spread(p, pmds, n_pmds, qs, n, sv.hot, d))
			return LULL_CONS_STAY;
		memset(to, 1, sizeof(to));
		moving = NULL;
	} else if (d->awake >= 2 && sv.victim >= 0 && sv.calm && st->calm >= p->calm_windows) {
		/* the least loaded PMD without a pinned queue parks */
		if (!plan_pack(p, n_pmds, qs, n, nq, sv.victim, from, to, d))
			return d->kind = LULL_CONS_STAY;
	} else {
		return LULL_CONS_STAY;
	}
	d->load = pmds[d->pmd].load;
	if (!assign(qs, n, n_pmds, moving, to, load, 1e300, p->max_queues, true)) {
		for (unsigned int i = 0; i < n; i++)
			qs[i].pmd = qs[i].was; /* past max_queues: nothing moves */
		return d->kind = LULL_CONS_STAY;
	}
	for (unsigned int i = 0; i < n; i++)
		d->moved += qs[i].pmd != qs[i].was;
	if (d->moved == 0)
		d->kind = LULL_CONS_STAY;
	return d->kind;
}
