/* SPDX-License-Identifier: BSD-3-Clause */
#include "balance.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "consolidate.h"
#include "publish.h"
#include "log.h"
#include "parse.h"
#include "topology.h"

#define BAL_WINDOW_MS 1000 /* loads are measured over windows this long */

_Static_assert(LULL_MAX_PMDS <= LULL_CONS_MAX_PMDS, "lib/consolidate takes every PMD");

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
		if (cfg->critical[i].port == p && cfg->critical[i].queue == q)
			return true;
	return false;
}

static uint64_t
tsc_ns(uint64_t tsc)
{
	return (uint64_t)((double)tsc * 1e9 / (double)rte_get_tsc_hz());
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

		b->pmd_busy_tsc[i] = lull_counter_read(&pmd->nap.stats[LULL_PMD_BUSY_TSC]);
		b->pmd_misses[i] = lull_counter_read(&pmd->nap.stats[LULL_PMD_BUDGET_MISSES]);
		b->pmd_sleeps[i] = lull_counter_read(&pmd->nap.stats[LULL_PMD_SLEEPS]);
	}
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		for (unsigned int q = 0; q < fwd->cfg.n_rxq; q++)
			b->q_cycles[p][q] = queue_cycles(fwd, p, q);
}

/* Phase two failed after phase one let the queues go: back to their PMDs
 * (old), so that none is left unpolled; err keeps the failure, with the
 * outcome of the way back. */
static void
roll_back(struct lull_fwd *fwd, const struct lull_config *old, const char *why, char *err,
	size_t errlen)
{
	char e[256], back[256];
	char what[200];
	int ret;

	snprintf(e, sizeof(e), "%s", err);
	snprintf(what, sizeof(what), "%s (rolled back)", why);
	ret = lull_publish_locked(fwd, old, what, back, sizeof(back));
	if (ret == 0 || ret == -ETIMEDOUT)
		snprintf(err, errlen, "%s: %s; the queues went back to their PMDs", why, e);
	else
		snprintf(err, errlen,
			"%s: %s; and back: %s (queues without a PMD are homed "
			"at the next tick)",
			why, e, back);
	LULL_LOG(WARNING, "%s", err);
}

/*
 * Phase one publishes cfg with every queue that changes PMD polled by none; once
 * every PMD took it, phase two publishes cfg itself. Phase two is checked
 * before phase one is published (a PMD past its queues, a tx buffer that
 * cannot be had: nothing moves); should it still fail, the queues go back to
 * their PMDs. Counts and logs the move.
 */
static int
apply_moves_locked(struct lull_fwd *fwd, const struct lull_config *cfg, const char *why, char *err,
	size_t errlen)
{
	struct lull_config *mid = malloc(sizeof(*mid)), *old = malloc(sizeof(*old));
	unsigned int n = 0;
	uint64_t t0_tsc = rte_rdtsc();
	char what[200];
	int ret;

	if (mid == NULL || old == NULL) {
		free(mid);
		free(old);
		return lull_errf(err, errlen, -ENOMEM, "%s: out of memory", why);
	}
	if (fwd->bal.move_to != NULL) {
		free(mid);
		free(old);
		return lull_errf(err, errlen, -EBUSY,
			"%s: a move is still completing (a PMD was slow to let go): try again",
			why);
	}
	ret = lull_publish_check_locked(fwd, cfg, err, errlen);
	if (ret < 0) {
		char e[256];

		snprintf(e, sizeof(e), "%s", err);
		snprintf(err, errlen, "%s: %s; nothing moved", why, e);
		free(mid);
		free(old);
		return ret;
	}
	*old = fwd->cfg;
	*mid = *cfg;
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++)
			if (fwd->cfg.rxq_pmd[p][q] != cfg->rxq_pmd[p][q]) {
				mid->rxq_pmd[p][q] = LULL_PMD_NONE;
				n++;
			}
	snprintf(what, sizeof(what), "%s (1/2: let go)", why);
	ret = n == 0 ? 0 : lull_publish_locked(fwd, mid, what, err, errlen);
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
		free(old);
		return ret;
	}
	free(mid);
	if (ret < 0) {
		free(old);
		return ret;
	}
	snprintf(what, sizeof(what), "%s%s", why, n ? " (2/2: take over)" : "");
	ret = lull_publish_locked(fwd, cfg, what, err, errlen);
	if (ret < 0 && ret != -ETIMEDOUT && n > 0)
		roll_back(fwd, old, why, err, errlen);
	free(old);
	if (ret == 0 || ret == -ETIMEDOUT) {
		struct lull_balance *b = &fwd->bal;

		uint64_t now_tsc = rte_rdtsc();

		b->moves += n;
		b->last_move_us = (now_tsc - t0_tsc) * 1000000 / rte_get_tsc_hz();
		lull_cons_moved(&b->cons, tsc_ns(now_tsc));
		snprintf(b->last_reason, sizeof(b->last_reason), "%s", why);
		LULL_LOG(INFO, "%s: %u rx queue(s) moved in %llu us", why, n,
			(unsigned long long)b->last_move_us);
		window_start(fwd); /* loads measured across a move mean nothing */
		b->measured = false;
	}
	return ret;
}

/* set rxq-pmd: the parsed pins (want) applied to the draft, then moved. */
static int
move_pins_locked(
	struct lull_fwd *fwd, struct lull_config *cfg, const void *arg, char *err, size_t errlen)
{
	const struct lull_config *want = arg;

	for (unsigned int i = 0; i < want->n_pins; i++) {
		const struct lull_rxq_pin *pin = &want->pins[i];
		int pmd = 0;
		unsigned int k = 0;

		/* a running lull also needs the port there and forwarded */
		if (!queue_forwarded(fwd, cfg, pin->port))
			return lull_errf(err, errlen, -ENODEV,
				"--rxq-pmd: %u:%u: port %u is not forwarded", pin->port, pin->queue,
				pin->port);
		if (pin->lcore == LULL_PIN_AUTO && pin->queue >= cfg->n_rxq)
			return lull_errf(err, errlen, -EINVAL,
				"--rxq-pmd: %u:%u@auto: queue %u does not exist (--rxq %u)",
				pin->port, pin->queue, pin->queue, cfg->n_rxq);
		if (pin->lcore != LULL_PIN_AUTO) {
			pmd = lull_config_pin_pmd(cfg, pin, err, errlen);
			if (pmd < 0)
				return pmd;
		}
		while (k < cfg->n_pins &&
			!(cfg->pins[k].port == pin->port && cfg->pins[k].queue == pin->queue))
			k++;
		if (pin->lcore == LULL_PIN_AUTO) {
			/* unpinned where it is: free to move again */
			if (k < cfg->n_pins)
				cfg->pins[k] = cfg->pins[--cfg->n_pins];
			continue;
		}
		cfg->rxq_pmd[pin->port][pin->queue] = (uint16_t)pmd;
		if (k == LULL_MAX_PINS) /* pins[k] would be past the end */
			return lull_errf(err, errlen, -E2BIG,
				"--rxq-pmd: more than %d pins (PORT:QUEUE@auto unpins)",
				LULL_MAX_PINS);
		if (k == cfg->n_pins)
			cfg->n_pins++;
		cfg->pins[k] = *pin;
	}
	return apply_moves_locked(fwd, cfg, "set rxq-pmd", err, errlen);
}

int
lull_balance_move(struct lull_fwd *fwd, const char *list, char *err, size_t errlen)
{
	struct lull_config *want = malloc(sizeof(*want));
	int ret;

	if (want == NULL)
		return lull_errf(err, errlen, -ENOMEM, "rxq-pmd: out of memory");
	/* the start-time option row and its messages (no getopt: this runs on a
	 * telemetry thread, beside others); then the running system's checks */
	lull_config_defaults(want);
	ret = lull_config_parse_one(want, "rxq-pmd", list, err, errlen);
	if (ret == 0)
		ret = lull_publish_change(fwd, "rxq-pmd", move_pins_locked, want, err, errlen);
	free(want);
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

/* The queue list of a decision: under fwd->lock. */
static struct lull_cons_queue bal_qs[LULL_MAX_PORTS * LULL_MAX_QUEUES];

/* Every forwarded queue of cfg with its load, for lib/consolidate; one that no
 * PMD polls (a move that could not complete) is listed on PMD 0 when homeless
 * (so that lull_cons_assign gives it one), left out otherwise. */
static unsigned int
queue_list(const struct lull_fwd *fwd, const struct lull_config *cfg, struct lull_cons_queue *qs,
	bool homeless)
{
	unsigned int n = 0;

	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++) {
			bool none = cfg->rxq_pmd[p][q] >= cfg->n_pmds;

			if (!queue_forwarded(fwd, cfg, p) || (none && !homeless))
				continue;
			qs[n].id = p * LULL_MAX_QUEUES + q;
			qs[n].pmd = none ? 0 : cfg->rxq_pmd[p][q];
			qs[n].pinned = pinned(cfg, p, q);
			qs[n++].load = q_load(fwd, p, q);
		}
	return n;
}

/* The queues' PMDs, as lib/consolidate decided them, back into cfg. */
static void
queue_list_apply(struct lull_config *cfg, const struct lull_cons_queue *qs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cfg->rxq_pmd[qs[i].id / LULL_MAX_QUEUES][qs[i].id % LULL_MAX_QUEUES] = qs[i].pmd;
}

/* pmd-rxq-rebalance: every queue but the pinned ones anew, least loaded first. */
static int
rebalance_locked(
	struct lull_fwd *fwd, struct lull_config *cfg, const void *arg, char *err, size_t errlen)
{
	double load[LULL_MAX_PMDS] = {0};
	bool every[LULL_MAX_PMDS];
	struct lull_cons_queue *qs = bal_qs;
	unsigned int n = queue_list(fwd, &fwd->cfg, qs, true);

	(void)arg;
	memset(every, 1, sizeof(every));
	if (!lull_cons_assign(qs, n, cfg->n_pmds, NULL, every, load, 1e300, LULL_PMD_MAX_RXQS))
		return lull_errf(err, errlen, -E2BIG,
			"pmd-rxq-rebalance: %u rx queues do not fit on %u PMDs of at most %d each "
			"(with the pinned ones where they are)",
			n, cfg->n_pmds, LULL_PMD_MAX_RXQS);
	queue_list_apply(cfg, qs, n);
	return apply_moves_locked(fwd, cfg, "pmd-rxq-rebalance", err, errlen);
}

int
lull_balance_rebalance(struct lull_fwd *fwd, char *err, size_t errlen)
{
	return lull_publish_change(fwd, "pmd-rxq-rebalance", rebalance_locked, NULL, err, errlen);
}

/* The window closed: loads per PMD and per queue, as shares of a core. */
static void
window_end(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;
	uint64_t dt = rte_rdtsc() - b->win_tsc;

	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];

		b->pmd_load[i] = (double)(lull_counter_read(&pmd->nap.stats[LULL_PMD_BUSY_TSC]) -
					  b->pmd_busy_tsc[i]) /
				 (double)dt;
		/* a host's odd late wake is not a PMD out of headroom: 1 % of them is */
		b->pmd_missing[i] = (lull_counter_read(&pmd->nap.stats[LULL_PMD_BUDGET_MISSES]) -
					    b->pmd_misses[i]) *
					    100 >
				    lull_counter_read(&pmd->nap.stats[LULL_PMD_SLEEPS]) -
					    b->pmd_sleeps[i] + 100;
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

/* Consolidation, once a window was measured: lib/consolidate decides. */
static void
consolidate(struct lull_fwd *fwd, uint64_t now_ns)
{
	struct lull_balance *b = &fwd->bal;
	const struct lull_config *now = &fwd->cfg;
	const struct lull_cons_params prm = {
		.pack_below = now->pack_below_pct / 100.0,
		.unpack_above = now->unpack_above_pct / 100.0,
		.calm_windows = LULL_CONS_CALM_WINDOWS,
		.dwell_ns = (uint64_t)now->consolidate_dwell_ms * 1000000,
		.max_queues = LULL_PMD_MAX_RXQS,
	};
	struct lull_cons_pmd pmds[LULL_MAX_PMDS];
	struct lull_cons_decision d;
	unsigned int n = queue_list(fwd, now, bal_qs, false);
	struct lull_config *cfg;
	char why[160], err[256];

	for (unsigned int i = 0; i < now->n_pmds; i++) {
		pmds[i].load = b->pmd_load[i];
		pmds[i].missing = b->pmd_missing[i];
	}
	if (lull_cons_decide(&b->cons, &prm, pmds, now->n_pmds, bal_qs, n, now_ns, &d) ==
		LULL_CONS_STAY)
		return;
	cfg = lull_publish_draft_locked(fwd);
	if (cfg == NULL)
		return;
	queue_list_apply(cfg, bal_qs, n);
	if (d.kind == LULL_CONS_UNPACK)
		snprintf(why, sizeof(why),
			"consolidate: unpack, PMD on lcore %u at %.0f %% busy%s: lcore %u wakes",
			now->pmd_lcores[d.pmd], 100 * d.load,
			d.missing ? " and missing its budget" : "", now->pmd_lcores[d.other]);
	else if (d.kind == LULL_CONS_SPREAD)
		snprintf(why, sizeof(why),
			"consolidate: spread, PMD on lcore %u at %.0f %% busy%s and none parked: "
			"every queue anew, the busiest PMD at %.0f %%",
			now->pmd_lcores[d.pmd], 100 * d.load,
			d.missing ? " and missing its budget" : "", 100 * d.after);
	else
		snprintf(why, sizeof(why),
			"consolidate: pack, %u PMDs under %u %% busy: lcore %u parks", d.awake,
			now->pack_below_pct, now->pmd_lcores[d.pmd]);
	if (apply_moves_locked(fwd, cfg, why, err, sizeof(err)) == 0) {
		b->packs += d.kind == LULL_CONS_PACK;
		b->unpacks += d.kind == LULL_CONS_UNPACK;
		b->spreads += d.kind == LULL_CONS_SPREAD;
	}
	free(cfg);
}

/* Forwarded queues that no PMD polls (a move whose way back failed) go to the
 * PMDs with the fewest queues; tried once a window. */
static void
home_queues(struct lull_fwd *fwd)
{
	const struct lull_config *now = &fwd->cfg;
	unsigned int nq[LULL_MAX_PMDS] = {0}, dark = 0;
	struct lull_config *cfg;
	char err[256];

	for (unsigned int p = 0; p < now->n_ports; p++)
		for (unsigned int q = 0; q < now->n_rxq; q++) {
			if (!queue_forwarded(fwd, now, p))
				continue;
			if (now->rxq_pmd[p][q] < now->n_pmds)
				nq[now->rxq_pmd[p][q]]++;
			else
				dark++;
		}
	if (dark == 0 || now->n_pmds == 0 || (cfg = lull_publish_draft_locked(fwd)) == NULL)
		return;
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++) {
			unsigned int best = 0;

			if (!queue_forwarded(fwd, cfg, p) || cfg->rxq_pmd[p][q] < cfg->n_pmds)
				continue;
			for (unsigned int i = 1; i < cfg->n_pmds; i++)
				best = nq[i] < nq[best] ? i : best;
			cfg->rxq_pmd[p][q] = (uint16_t)best;
			nq[best]++;
		}
	LULL_LOG(WARNING, "%u rx queue(s) polled by no PMD: homing them", dark);
	if (apply_moves_locked(fwd, cfg, "rxq home", err, sizeof(err)) < 0)
		LULL_LOG(WARNING, "%s", err);
	free(cfg);
}

/* A move's late phase 2: its queues that still have no PMD go where the move
 * sends them, in the configuration of now (a set, a port-add or -del accepted
 * since stays); a PMD still busy with another change: again at the next tick. */
static void
finish_move(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;
	const struct lull_config *to = b->move_to;
	struct lull_config *cfg = lull_publish_draft_locked(fwd);
	unsigned int n = 0;
	char err[256];
	int ret;

	if (cfg == NULL)
		return; /* the next tick */
	for (unsigned int p = 0; p < cfg->n_ports && p < to->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq && q < to->n_rxq; q++)
			if (queue_forwarded(fwd, cfg, p) && cfg->rxq_pmd[p][q] >= cfg->n_pmds &&
				to->rxq_pmd[p][q] < cfg->n_pmds) {
				cfg->rxq_pmd[p][q] = to->rxq_pmd[p][q];
				n++;
			}
	cfg->n_pins = to->n_pins;
	memcpy(cfg->pins, to->pins, sizeof(cfg->pins));
	ret = lull_publish_locked(fwd, cfg, "rxq move (2/2, late)", err, sizeof(err));
	free(cfg);
	if (ret == -EBUSY)
		return;
	if (ret < 0 && ret != -ETIMEDOUT)
		LULL_LOG(WARNING, "rxq move: %s (its queues are homed at the next window)", err);
	else
		LULL_LOG(INFO, "rxq move: %u rx queue(s) taken over late", n);
	free(b->move_to);
	b->move_to = NULL;
}

void
lull_balance_tick_locked(struct lull_fwd *fwd)
{
	struct lull_balance *b = &fwd->bal;
	uint64_t hz = rte_get_tsc_hz(), now_tsc = rte_rdtsc();

	if (b->move_to != NULL) {
		if (lull_publish_all_took(fwd, b->move_gen))
			finish_move(fwd);
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
	if (fwd->accepting && fwd->n_launched > 0)
		home_queues(fwd);
	if (fwd->cfg.consolidate && fwd->accepting && fwd->n_launched > 0)
		consolidate(fwd, tsc_ns(now_tsc));
}

void
lull_balance_free(struct lull_fwd *fwd)
{
	free(fwd->bal.move_to);
	fwd->bal.move_to = NULL;
}
