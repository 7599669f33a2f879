/* SPDX-License-Identifier: BSD-3-Clause */
#include "balance.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "control.h"
#include "log.h"
#include "parse.h"
#include "topology.h"

#define BAL_WINDOW_MS    1000 /* loads are measured over windows this long */
#define BAL_CALM_WINDOWS 3    /* a pack needs this many calm windows in a row */

static bool
queue_forwarded(const struct lull_fwd *fwd, const struct lull_config *cfg, unsigned int p)
{
	return p < cfg->n_ports && fwd->ports[p].present && cfg->dst_port[p] != LULL_PORT_NONE;
}

static bool
pinned(const struct lull_config *cfg, unsigned int p, unsigned int q)
{
	for (unsigned int i = 0; i < cfg->n_pins; i++)
		if (cfg->pins[i].port == p && cfg->pins[i].queue == q)
			return true;
	for (unsigned int i = 0; i < cfg->n_critical; i++)
		if (cfg->critical[i].a == p && cfg->critical[i].b == q)
			return true;
	return false;
}

/* Cycles spent on queue (p, q) since start, whichever PMDs polled it. */
static uint64_t
queue_cycles(const struct lull_fwd *fwd, unsigned int p, unsigned int q)
{
	uint64_t cyc = 0;

	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		cyc += lull_counter_read(&fwd->pmds[i]->rx_cycles[p][q]);
	return cyc;
}

/* The window restarts: counters now. */
static void
window_start(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;

	b->win_tsc = rte_rdtsc();
	memset(b->q_cycles, 0, sizeof(b->q_cycles)); /* a port added meanwhile starts at 0 */
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];

		b->pmd_busy_tsc[i] = lull_counter_read(&pmd->stats[LULL_PMD_BUSY_TSC]);
		b->pmd_misses[i] = lull_counter_read(&pmd->stats[LULL_PMD_BUDGET_MISSES]);
		b->pmd_sleeps[i] = lull_counter_read(&pmd->stats[LULL_PMD_SLEEPS]);
	}
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		for (unsigned int q = 0; q < fwd->cfg.n_rxq; q++)
			b->q_cycles[p][q] = queue_cycles(fwd, p, q);
}

/*
 * Phase one publishes cfg with every queue that changes PMD polled by none; once
 * every PMD took it, phase two publishes cfg itself. Counts and logs the move.
 */
static int
apply_moves_locked(struct lull_fwd *fwd, const struct lull_config *cfg, const char *why, char *err,
	size_t errlen)
{
	struct lull_config *mid = malloc(sizeof(*mid));
	unsigned int n = 0;
	uint64_t t0_tsc = rte_rdtsc();
	char what[200];
	int ret;

	if (mid == NULL)
		return lull_errf(err, errlen, -ENOMEM, "%s: out of memory", why);
	*mid = *cfg;
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++)
			if (fwd->cfg.rxq_pmd[p][q] != cfg->rxq_pmd[p][q]) {
				mid->rxq_pmd[p][q] = LULL_PMD_NONE;
				n++;
			}
	snprintf(what, sizeof(what), "%s (1/2: let go)", why);
	ret = n == 0 ? 0 : lull_control_apply_locked(fwd, mid, what, err, errlen);
	if (ret == -ETIMEDOUT) {
		/* the old PMD may still poll: the new one starts only once it let go */
		free(fwd->bal.move_to);
		fwd->bal.move_to = mid;
		*mid = *cfg;
		fwd->bal.move_gen = fwd->gen;
		snprintf(err, errlen,
			"%s: a PMD did not let its queue(s) go within %d ms; the move completes "
			"as soon as it does",
			why, LULL_CTL_ACK_TIMEOUT_MS);
		return ret;
	}
	free(mid);
	if (ret < 0)
		return ret;
	snprintf(what, sizeof(what), "%s%s", why, n ? " (2/2: take over)" : "");
	ret = lull_control_apply_locked(fwd, cfg, what, err, errlen);
	if (ret == 0 || ret == -ETIMEDOUT) {
		struct lull_balance *b = &fwd->bal;

		b->moves += n;
		b->last_move_tsc = rte_rdtsc();
		b->last_move_us = (b->last_move_tsc - t0_tsc) * 1000000 / rte_get_tsc_hz();
		snprintf(b->last_reason, sizeof(b->last_reason), "%s", why);
		LULL_LOG(INFO, "%s: %u rx queue(s) moved in %llu us", why, n,
			(unsigned long long)b->last_move_us);
		window_start(fwd); /* loads measured across a move mean nothing */
		b->measured = false;
		b->calm = 0;
	}
	return ret;
}

int
lull_balance_move(struct lull_fwd *fwd, const char *list, char *err, size_t errlen)
{
	struct lull_config *want = malloc(sizeof(*want)), *cfg = malloc(sizeof(*cfg));
	char *argv[] = {"lull", "--rxq-pmd", (char *)(uintptr_t)list};
	int ret;

	if (want == NULL || cfg == NULL) {
		free(want);
		free(cfg);
		return lull_errf(err, errlen, -ENOMEM, "rxq-pmd: out of memory");
	}
	/* the start-time parser and its messages; then the running system's checks */
	lull_config_defaults(want);
	ret = lull_config_parse(want, 3, argv, err, errlen);
	pthread_mutex_lock(&fwd->lock);
	if (ret == 0 && (!fwd->accepting || fwd->gone))
		ret = lull_errf(err, errlen, -EAGAIN, "lull is starting or stopping: try again");
	if (ret == 0)
		*cfg = fwd->cfg;
	for (unsigned int i = 0; ret == 0 && i < want->n_pins; i++) {
		const struct lull_rxq_pin *pin = &want->pins[i];
		int pmd = 0;
		unsigned int k = 0;

		/* a running lull also needs the port there and forwarded */
		if (!queue_forwarded(fwd, cfg, pin->port))
			ret = lull_errf(err, errlen, -ENODEV,
				"--rxq-pmd: %u:%u@%u: port %u is not forwarded", pin->port,
				pin->queue, pin->lcore, pin->port);
		else
			ret = pmd = lull_config_pin_pmd(cfg, pin, err, errlen);
		if (ret < 0)
			break;
		ret = 0;
		cfg->rxq_pmd[pin->port][pin->queue] = (uint16_t)pmd;
		while (k < cfg->n_pins &&
			!(cfg->pins[k].port == pin->port && cfg->pins[k].queue == pin->queue))
			k++;
		if (k == LULL_MAX_PINS)
			ret = lull_errf(
				err, errlen, -E2BIG, "--rxq-pmd: more than %d pins", LULL_MAX_PINS);
		else if (k == cfg->n_pins)
			cfg->n_pins++;
		cfg->pins[k] = *pin;
	}
	if (ret == 0)
		ret = apply_moves_locked(fwd, cfg, "set rxq-pmd", err, errlen);
	pthread_mutex_unlock(&fwd->lock);
	free(want);
	free(cfg);
	return ret;
}

/* The load of queue (p, q): the last window's share of a core, or its cycles
 * since start over the time since start when no window was measured yet. */
static double
q_load(const struct lull_fwd *fwd, unsigned int p, unsigned int q)
{
	uint64_t dt = rte_rdtsc() - fwd->start_tsc;

	if (fwd->bal.measured)
		return fwd->bal.q_load[p][q];
	return dt ? (double)queue_cycles(fwd, p, q) / (double)dt : 0;
}

/*
 * Assign the movable queues of the PMDs marked in from[] (all PMDs when NULL),
 * largest first, each to the PMD marked in to[] with the least load so far;
 * every other queue stays. load[] starts with what stays. Fails (false) when a
 * queue would take a PMD past cap.
 */
struct qload {
	uint16_t p, q;
	double load;
};

static bool
assign(const struct lull_fwd *fwd, struct lull_config *cfg, const bool *from, const bool *to,
	double *load, double cap)
{
	static struct qload qs[LULL_MAX_PORTS * LULL_MAX_QUEUES]; /* under fwd->lock */
	unsigned int n = 0;

	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++) {
			unsigned int pmd = cfg->rxq_pmd[p][q];
			double l = q_load(fwd, p, q);

			if (!queue_forwarded(fwd, cfg, p) || pmd >= cfg->n_pmds)
				continue;
			if (pinned(cfg, p, q) || (from != NULL && !from[pmd])) {
				load[pmd] += l;
				continue;
			}
			qs[n].p = (uint16_t)p;
			qs[n].q = (uint16_t)q;
			qs[n++].load = l;
		}
	/* largest first (insertion sort: a few hundred queues at most) */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && qs[j].load > qs[j - 1].load; j--) {
			struct qload t = qs[j];

			qs[j] = qs[j - 1];
			qs[j - 1] = t;
		}
	for (unsigned int i = 0; i < n; i++) {
		int best = -1;

		for (unsigned int k = 0; k < cfg->n_pmds; k++)
			if (to[k] && (best < 0 || load[k] < load[best]))
				best = (int)k;
		if (best < 0 || load[best] + qs[i].load > cap)
			return false;
		load[best] += qs[i].load;
		cfg->rxq_pmd[qs[i].p][qs[i].q] = (uint16_t)best;
	}
	return true;
}

int
lull_balance_rebalance(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_config *cfg = malloc(sizeof(*cfg));
	double load[LULL_MAX_PMDS] = {0};
	bool every[LULL_MAX_PMDS];
	int ret = 0;

	if (cfg == NULL)
		return lull_errf(err, errlen, -ENOMEM, "pmd-rxq-rebalance: out of memory");
	memset(every, 1, sizeof(every));
	pthread_mutex_lock(&fwd->lock);
	if (!fwd->accepting || fwd->gone)
		ret = lull_errf(err, errlen, -EAGAIN, "lull is starting or stopping: try again");
	if (ret == 0) {
		*cfg = fwd->cfg;
		assign(fwd, cfg, NULL, every, load, 1e9);
		ret = apply_moves_locked(fwd, cfg, "pmd-rxq-rebalance", err, errlen);
	}
	pthread_mutex_unlock(&fwd->lock);
	free(cfg);
	return ret;
}

/* Rx queues each PMD polls in cfg. */
static void
count_queues(const struct lull_fwd *fwd, const struct lull_config *cfg, unsigned int *n)
{
	memset(n, 0, sizeof(*n) * LULL_MAX_PMDS);
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++)
			if (queue_forwarded(fwd, cfg, p) && cfg->rxq_pmd[p][q] < cfg->n_pmds)
				n[cfg->rxq_pmd[p][q]]++;
}

/* The window closed: loads per PMD and per queue, as shares of a core. */
static void
window_end(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;
	uint64_t dt = rte_rdtsc() - b->win_tsc;

	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];

		b->pmd_load[i] = (double)(lull_counter_read(&pmd->stats[LULL_PMD_BUSY_TSC]) -
					  b->pmd_busy_tsc[i]) /
				 (double)dt;
		/* a host's odd late wake is not a PMD out of headroom: 1 % of them is */
		b->pmd_missing[i] =
			(lull_counter_read(&pmd->stats[LULL_PMD_BUDGET_MISSES]) -
				b->pmd_misses[i]) *
				100 >
			lull_counter_read(&pmd->stats[LULL_PMD_SLEEPS]) - b->pmd_sleeps[i] + 100;
	}
	double sum[LULL_MAX_PMDS] = {0};

	for (unsigned int p = 0; p < fwd->n_ports; p++)
		for (unsigned int q = 0; q < fwd->cfg.n_rxq; q++) {
			unsigned int pmd = fwd->cfg.rxq_pmd[p][q];

			uint64_t cyc = queue_cycles(fwd, p, q);

			b->q_load[p][q] = cyc >= b->q_cycles[p][q]
						  ? (double)(cyc - b->q_cycles[p][q]) / (double)dt
						  : 0;
			if (pmd < fwd->n_pmds)
				sum[pmd] += b->q_load[p][q];
		}
	/* A queue's cycles leave out what its PMD spends around the polls (flushes,
	 * the loop, the decisions to wait): each PMD's busy share is spread over its
	 * queues in proportion, so that what moves is what the PMD carried. */
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		for (unsigned int q = 0; q < fwd->cfg.n_rxq; q++) {
			unsigned int pmd = fwd->cfg.rxq_pmd[p][q];

			if (pmd < fwd->n_pmds && sum[pmd] > 0)
				b->q_load[p][q] *= b->pmd_load[pmd] / sum[pmd];
		}
	b->measured = true;
}

/* Consolidation, once a window was measured: unpack before pack. */
static void
consolidate(struct lull_fwd *fwd)
{
	const struct lull_balance *b = &fwd->bal;
	const struct lull_config *now = &fwd->cfg;
	double pack = now->pack_below_pct / 100.0, unpack = now->unpack_above_pct / 100.0;
	unsigned int nq[LULL_MAX_PMDS];
	bool from[LULL_MAX_PMDS] = {false}, to[LULL_MAX_PMDS] = {false};
	double load[LULL_MAX_PMDS] = {0};
	int hot = -1, parked = -1, victim = -1;
	unsigned int awake = 0;
	struct lull_config *cfg;
	char why[160], err[256];

	count_queues(fwd, now, nq);
	for (unsigned int i = 0; i < now->n_pmds; i++) {
		if (nq[i] == 0) {
			parked = parked < 0 ? (int)i : parked;
			continue;
		}
		awake++;
		/* out of headroom: past the unpack line, or missing its budget while it
		 * carries more than packing allows (an idle PMD's late wakes, which a
		 * VM has plenty of, say nothing about its load) */
		if ((b->pmd_load[i] > unpack || (b->pmd_missing[i] && b->pmd_load[i] > pack)) &&
			(hot < 0 || b->pmd_load[i] > b->pmd_load[hot]))
			hot = (int)i;
		if (victim < 0 || b->pmd_load[i] < b->pmd_load[victim])
			victim = (int)i;
	}
	cfg = malloc(sizeof(*cfg));
	if (cfg == NULL)
		return;
	*cfg = *now;
	if (hot >= 0)
		fwd->bal.calm = 0;
	if (hot >= 0 && parked >= 0 && nq[hot] > 1) {
		/* unpack: the hot PMD's queues over itself and a parked one */
		from[hot] = to[hot] = to[parked] = true;
		assign(fwd, cfg, from, to, load, 1e9);
		snprintf(why, sizeof(why),
			"consolidate: unpack, PMD on lcore %u at %.0f %% busy%s: lcore %u wakes",
			now->pmd_lcores[hot], 100 * b->pmd_load[hot],
			b->pmd_missing[hot] ? " and missing its budget" : "",
			now->pmd_lcores[parked]);
		if (apply_moves_locked(fwd, cfg, why, err, sizeof(err)) == 0)
			fwd->bal.unpacks++;
	} else if (hot < 0 && awake >= 2) {
		/* pack: the least loaded PMD's queues onto the others, if every one
		 * stays under the pack line - and only after BAL_CALM_WINDOWS windows
		 * in a row with every awake PMD under it (an unpack is at once: it
		 * protects latency; a pack can wait for the load to settle) */
		bool ok = true;

		for (unsigned int i = 0; i < now->n_pmds; i++) {
			to[i] = nq[i] > 0 && (int)i != victim;
			ok = ok && (nq[i] == 0 || b->pmd_load[i] < pack);
		}
		fwd->bal.calm = ok ? fwd->bal.calm + 1 : 0;
		from[victim] = true;
		if (ok && fwd->bal.calm >= BAL_CALM_WINDOWS &&
			assign(fwd, cfg, from, to, load, pack)) {
			count_queues(fwd, cfg, nq);
			if (nq[victim] == 0) { /* a pinned queue keeps it awake: no gain */
				snprintf(why, sizeof(why),
					"consolidate: pack, %u PMDs under %u %% busy: lcore %u "
					"parks",
					awake, now->pack_below_pct, now->pmd_lcores[victim]);
				if (apply_moves_locked(fwd, cfg, why, err, sizeof(err)) == 0)
					fwd->bal.packs++;
			}
		}
	}
	free(cfg);
}

void
lull_balance_tick_locked(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;
	uint64_t hz = rte_get_tsc_hz(), now_tsc = rte_rdtsc();
	char err[256];

	if (b->move_to != NULL) {
		if (lull_control_all_took(fwd, b->move_gen)) {
			struct lull_config *to = b->move_to;

			b->move_to = NULL;
			if (lull_control_apply_locked(
				    fwd, to, "rxq move (2/2, late)", err, sizeof(err)) < 0)
				LULL_LOG(WARNING, "rxq move: %s", err);
			free(to);
		}
		return;
	}
	if (b->win_tsc == 0) {
		window_start(fwd);
		return;
	}
	if (now_tsc - b->win_tsc < hz / 1000 * BAL_WINDOW_MS)
		return;
	window_end(fwd);
	window_start(fwd);
	if (fwd->cfg.consolidate && fwd->accepting && fwd->n_launched > 0 &&
		(b->last_move_tsc == 0 ||
			now_tsc - b->last_move_tsc >= hz / 1000 * fwd->cfg.consolidate_dwell_ms))
		consolidate(fwd);
}

void
lull_balance_free(struct lull_fwd *fwd)
{
	free(fwd->bal.move_to);
	fwd->bal.move_to = NULL;
}
