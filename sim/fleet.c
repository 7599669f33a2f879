/* SPDX-License-Identifier: BSD-3-Clause */
#include "fleet.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CTL_TICK_NS 100000.0 /* the control thread looks for acknowledgements this often */
#define LAT_Q       200      /* latency quantiles kept per curve point */

/* Queue counts and loads (shares of one core's capacity) of the curves. */
static const unsigned int nq_grid[] = {1, 2, 4, 8, 16, 32, 64};
static const double load_grid[] = {0, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.2, 0.3,
	0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97};
#define N_NQ    (sizeof(nq_grid) / sizeof(nq_grid[0]))
#define N_LOADS (sizeof(load_grid) / sizeof(load_grid[0]))

/* One PMD at one load, simulated packet by packet. */
struct point {
	double pps;
	double cpu, work;     /* shares of the core: all CPU, iterations with packets */
	double miss_pct;      /* timed waits over the budget */
	double sleep_share;   /* of the time, in a wait */
	double sleep_ns;      /* mean timed wait asked for */
	double lat_ns[LAT_Q]; /* quantiles (k + 0.5) / LAT_Q */
	double weight;        /* packets the day read off this point */
};

struct curve {
	bool built;
	struct point pt[N_LOADS];
};

/* What a PMD is doing in a window, read off the curves. */
struct state {
	double pps, cpu, work, miss_pct, sleep_share, sleep_ns;
	unsigned int nq;
};

/* A latency that the curves do not hold (moves, overload), weighted in packets. */
struct sample {
	double ns, weight;
};

struct fleet {
	const struct sim_fleet_config *c;
	struct curve curves[N_NQ];
	double cap_pps; /* one core's capacity: every poll returns a full burst */
	struct sim_rng rng;
	struct sim_result *res; /* scratch of the packet-level runs */
	struct sample *extra;
	size_t n_extra, cap_extra;
	unsigned int built;
};

double
sim_capacity_pps(const struct sim_pmd_model *m)
{
	return 1e9 * m->burst / (m->poll_ns + m->burst * m->pkt_ns);
}

int
sim_fleet_check(const struct sim_fleet_config *c)
{
	if (c->n_pmds == 0 || c->n_pmds > SIM_FLEET_MAX_PMDS || c->rxqs_per_pmd == 0 ||
		c->n_pmds * c->rxqs_per_pmd > SIM_MAX_QUEUES || !(c->peak_pps >= 0) ||
		!(c->trough_share >= 0 && c->trough_share <= 1) || c->window_ns == 0 ||
		c->day_ns < c->window_ns || !(c->rss_skew >= 0 && c->rss_skew < 1) ||
		!(c->noise >= 0) ||
		(c->consolidate && !(c->cons.pack_below < c->cons.unpack_above)))
		return -EINVAL;
	return 0;
}

static int
build_curve(struct fleet *f, unsigned int g)
{
	struct curve *cv = &f->curves[g];

	for (unsigned int i = 0; i < N_LOADS; i++) {
		struct sim_config sc = f->c->base;
		struct point *pt = &cv->pt[i];
		struct sim_result *r = f->res;
		double pps = load_grid[i] * f->cap_pps, timed;
		int ret;

		sc.pmd.n_queues = nq_grid[g];
		sc.pmd.spread = true;
		memset(&sc.traffic, 0, sizeof(sc.traffic));
		sc.traffic.kind = pps > 0 ? SIM_TRAFFIC_POISSON : SIM_TRAFFIC_IDLE;
		sc.traffic.rate_pps = pps;
		/* 200,000 packets, within 20 ms .. 1 s */
		sc.duration_ns = (uint64_t)(1e9 * fmin(1.0, fmax(0.02, pps > 0 ? 2e5 / pps : 1.0)));
		sc.seed = f->c->base.seed * 1000 + g * 100 + i;
		ret = sim_run(&sc, r);
		if (ret < 0)
			return ret;
		timed = (double)(r->waits - r->intr_waits);
		pt->pps = pps;
		pt->cpu = fmin(1.0, r->busy_ns / r->total_ns);
		pt->work = fmin(1.0, r->work_ns / r->total_ns);
		pt->miss_pct = timed > 0 ? 100.0 * (double)r->budget_misses / timed : 0;
		pt->sleep_share = r->wait_ns / r->total_ns;
		pt->sleep_ns = timed > 0 ? r->wait_req_ns / timed : 0;
		for (unsigned int k = 0; k < LAT_Q; k++)
			pt->lat_ns[k] = (double)lull_hist_quantile(&r->lat_ns, (k + 0.5) / LAT_Q);
		pt->weight = 0;
	}
	cv->built = true;
	f->built++;
	return 0;
}

/* Interpolate a curve at pps: the index below and the share of the one above. */
static void
locate(const struct curve *cv, double pps, unsigned int *i, double *b)
{
	*i = 0;
	*b = 0;
	while (*i + 1 < N_LOADS && cv->pt[*i + 1].pps <= pps)
		(*i)++;
	if (*i + 1 < N_LOADS)
		*b = (pps - cv->pt[*i].pps) / (cv->pt[*i + 1].pps - cv->pt[*i].pps);
}

/* A PMD with nq queues at pps (<= capacity): its state; the packets it
 * forwards in the window (pkts) weigh on the curve points read. */
static int
lookup(struct fleet *f, unsigned int nq, double pps, double pkts, struct state *s)
{
	unsigned int g0 = 0, g1;
	double a = 0;

	while (g0 + 1 < N_NQ && nq_grid[g0 + 1] <= nq)
		g0++;
	g1 = nq_grid[g0] == nq || g0 + 1 == N_NQ ? g0 : g0 + 1;
	if (g1 != g0)
		a = (double)(nq - nq_grid[g0]) / (double)(nq_grid[g1] - nq_grid[g0]);
	memset(s, 0, sizeof(*s));
	s->pps = pps;
	s->nq = nq;
	for (unsigned int side = 0; side < 2; side++) {
		unsigned int g = side ? g1 : g0, i;
		double wg = side ? a : 1 - a, b;
		struct curve *cv = &f->curves[g];

		if (wg == 0)
			continue;
		if (!cv->built) {
			int ret = build_curve(f, g);

			if (ret < 0)
				return ret;
		}
		locate(cv, pps, &i, &b);
		for (unsigned int k = 0; k < 2; k++) {
			struct point *pt = &cv->pt[k ? (i + 1 < N_LOADS ? i + 1 : i) : i];
			double w = wg * (k ? b : 1 - b);

			s->cpu += w * pt->cpu;
			s->work += w * pt->work;
			s->miss_pct += w * pt->miss_pct;
			s->sleep_share += w * pt->sleep_share;
			s->sleep_ns += w * pt->sleep_ns;
			pt->weight += w * pkts;
		}
	}
	return 0;
}

static int
add_sample(struct fleet *f, double ns, double weight)
{
	if (f->n_extra == f->cap_extra) {
		size_t cap = f->cap_extra ? 2 * f->cap_extra : 1024;
		struct sample *p = realloc(f->extra, cap * sizeof(*p));

		if (p == NULL)
			return -ENOMEM;
		f->extra = p;
		f->cap_extra = cap;
	}
	f->extra[f->n_extra++] = (struct sample){ns, weight};
	return 0;
}

/* When a running PMD acknowledges a new parameter block: at the end of the
 * timed sleep it is in (not interrupted), else after its current iteration. */
static double
ack_ns(struct fleet *f, const struct state *s)
{
	const struct sim_pmd_model *m = &f->c->base.pmd;

	if (sim_rng_unit(&f->rng) < s->sleep_share)
		return sim_rng_unit(&f->rng) * s->sleep_ns + sim_dist_draw(&m->wake, &f->rng);
	return (double)s->nq * m->poll_ns;
}

/* When the control thread sees an acknowledgement that came after ns: it
 * looks every CTL_TICK_NS, each look a timed sleep late like the PMD's. */
static double
seen_ns(struct fleet *f, double ns)
{
	double t = 0;

	while (t < ns)
		t += CTL_TICK_NS + sim_dist_draw(&f->c->base.pmd.wake, &f->rng);
	return t;
}

/*
 * A move of the queues whose PMD changed (qs[].was to qs[].pmd): the old PMDs
 * let go (phase one), the control thread sees it and publishes phase two, the
 * new PMDs take over. A moved queue is polled by nobody from its old PMD's
 * acknowledgement to its new PMD's: what arrives meanwhile waits in its ring,
 * what overflows the ring is lost.
 */
static int
move(struct fleet *f, const struct lull_cons_queue *qs, unsigned int n, const double *rate,
	const struct state *st, struct sim_fleet_result *res)
{
	double let_go = 0, take = 0, seen, t, hold;
	int ret = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct lull_cons_queue *q = &qs[i];

		if (q->pmd == q->was)
			continue;
		let_go = fmax(let_go, ack_ns(f, &st[q->was]));
		/* a parked PMD is woken by its control eventfd */
		take = fmax(take, st[q->pmd].nq == 0
					  ? sim_dist_draw(&f->c->base.pmd.intr_wake, &f->rng)
					  : ack_ns(f, &st[q->pmd]));
	}
	seen = seen_ns(f, let_go);
	hold = seen - let_go + take;
	t = seen + seen_ns(f, take);
	for (unsigned int i = 0; i < n && ret == 0; i++) {
		const struct lull_cons_queue *q = &qs[i];
		double held = rate[q->id] * hold / 1e9, over = held - f->c->base.pmd.ring;

		if (q->pmd == q->was)
			continue;
		res->held += (uint64_t)held;
		res->dropped_move += over > 0 ? (uint64_t)over : 0;
		/* what waited: evenly spread over the hold */
		for (unsigned int k = 0; k < 4 && ret == 0; k++)
			ret = add_sample(f, hold * (k + 0.5) / 4, held / 4);
	}
	res->move_mean_ns += t; /* a sum until the end */
	res->move_max_ns = fmax(res->move_max_ns, t);
	res->hold_max_ns = fmax(res->hold_max_ns, hold);
	return ret;
}

static int
cmp_sample(const void *a, const void *b)
{
	double x = ((const struct sample *)a)->ns, y = ((const struct sample *)b)->ns;

	return (x > y) - (x < y);
}

/* p50 and p99 of every packet of the day: the curve points by the packets
 * read off them, and the extra samples. */
static int
latency(struct fleet *f, struct sim_fleet_result *res)
{
	double total = 0, acc = 0;
	bool got50 = false;

	for (unsigned int g = 0; g < N_NQ; g++)
		for (unsigned int i = 0; f->curves[g].built && i < N_LOADS; i++) {
			const struct point *pt = &f->curves[g].pt[i];

			for (unsigned int k = 0; pt->weight > 0 && k < LAT_Q; k++)
				if (add_sample(f, pt->lat_ns[k], pt->weight / LAT_Q) < 0)
					return -ENOMEM;
		}
	qsort(f->extra, f->n_extra, sizeof(*f->extra), cmp_sample);
	for (size_t i = 0; i < f->n_extra; i++)
		total += f->extra[i].weight;
	for (size_t i = 0; i < f->n_extra && total > 0; i++) {
		acc += f->extra[i].weight;
		if (!got50 && acc >= 0.5 * total) {
			res->p50_ns = f->extra[i].ns;
			got50 = true;
		}
		if (acc >= 0.99 * total) {
			res->p99_ns = f->extra[i].ns;
			break;
		}
	}
	return 0;
}

/* The day's total rate at time t: the trough at 0, the peak at half a day. */
static double
day_rate(const struct sim_fleet_config *c, double t_ns)
{
	double up = (1 - cos(2 * M_PI * t_ns / (double)c->day_ns)) / 2;

	return c->peak_pps * (c->trough_share + (1 - c->trough_share) * up);
}

/* One PMD's window: its CPU, its work and whether it missed its budget. */
static int
play_pmd(struct fleet *f, struct state *s, struct lull_cons_pmd *pm, struct sim_fleet_result *res)
{
	const struct sim_fleet_config *c = f->c;
	const double win_s = (double)c->window_ns / 1e9;
	double pps = s->pps;
	int ret;

	if (pps > f->cap_pps) {
		/* over capacity: the rings fill, the rest is lost */
		double lost = (pps - f->cap_pps) * win_s - (double)s->nq * c->base.pmd.ring;

		res->dropped_over += lost > 0 ? (uint64_t)lost : 0;
		ret = add_sample(
			f, (double)c->base.pmd.ring * 1e9 / f->cap_pps * s->nq, pps * win_s);
		*s = (struct state){.pps = pps, .cpu = 1, .work = 1, .nq = s->nq};
	} else {
		unsigned int nq = s->nq;

		ret = lookup(f, nq, pps, pps * win_s, s);
	}
	res->cpu_core_s += s->cpu * win_s;
	res->awake_pmd_s += win_s;
	pm->load = s->work;
	pm->missing = s->miss_pct > 1.0;
	res->max_pmd_load = fmax(res->max_pmd_load, s->work);
	res->over_windows += s->work > c->cons.unpack_above;
	res->miss_windows += pm->missing;
	return ret;
}

/* lull's consolidation at the end of window w, and the moves it makes. */
static int
play_consolidate(struct fleet *f, struct lull_cons_state *cons, const struct lull_cons_pmd *pmds,
	struct lull_cons_queue *qs, unsigned int n_q, const double *rate, struct state *st,
	uint64_t w, struct sim_fleet_result *res)
{
	const struct sim_fleet_config *c = f->c;
	uint64_t now_ns = (w + 1) * c->window_ns;
	struct lull_cons_decision d;
	int ret;

	for (unsigned int i = 0; i < n_q; i++) {
		struct lull_cons_queue *q = &qs[i];

		q->load = st[q->pmd].pps > 0 ? st[q->pmd].work * rate[q->id] / st[q->pmd].pps : 0;
	}
	if (lull_cons_decide(cons, &c->cons, pmds, c->n_pmds, qs, n_q, now_ns, &d) ==
		LULL_CONS_STAY)
		return 0;
	res->packs += d.kind == LULL_CONS_PACK;
	res->unpacks += d.kind == LULL_CONS_UNPACK;
	res->spreads += d.kind == LULL_CONS_SPREAD;
	res->moves += d.moved;
	ret = move(f, qs, n_q, rate, st, res);
	lull_cons_moved(cons, now_ns);
	return ret;
}

static int
play(struct fleet *f, struct sim_fleet_result *res)
{
	const struct sim_fleet_config *c = f->c;
	const unsigned int n_q = c->n_pmds * c->rxqs_per_pmd;
	const double win_s = (double)c->window_ns / 1e9;
	const struct sim_dist noise = {.kind = SIM_DIST_NORMAL, .mean_ns = 1, .sd_ns = c->noise};
	struct lull_cons_queue qs[SIM_MAX_QUEUES];
	struct lull_cons_pmd pmds[SIM_FLEET_MAX_PMDS];
	struct state st[SIM_FLEET_MAX_PMDS];
	double wq[SIM_MAX_QUEUES], rate[SIM_MAX_QUEUES], sum = 0, arrivals = 0;
	struct lull_cons_state cons;
	uint64_t windows = c->day_ns / c->window_ns;
	int ret = 0;

	lull_cons_init(&cons);
	for (unsigned int q = 0; q < n_q; q++) {
		wq[q] = 1 + c->rss_skew * (2 * sim_rng_unit(&f->rng) - 1);
		sum += wq[q];
		qs[q] = (struct lull_cons_queue){.id = q, .pmd = (uint16_t)(q % c->n_pmds)};
	}
	res->min_awake = c->n_pmds;
	for (uint64_t w = 0; w < windows && ret == 0; w++) {
		double total = day_rate(c, ((double)w + 0.5) * (double)c->window_ns);
		unsigned int awake = 0;

		memset(st, 0, sizeof(st));
		for (unsigned int i = 0; i < n_q; i++) {
			const struct lull_cons_queue *q = &qs[i];

			rate[q->id] = total * wq[q->id] / sum * sim_dist_draw(&noise, &f->rng);
			st[q->pmd].pps += rate[q->id];
			st[q->pmd].nq++;
		}
		for (unsigned int p = 0; p < c->n_pmds && ret == 0; p++) {
			pmds[p] = (struct lull_cons_pmd){.load = 0, .missing = false};
			if (st[p].nq == 0)
				continue;
			awake++;
			arrivals += st[p].pps * win_s;
			ret = play_pmd(f, &st[p], &pmds[p], res);
		}
		if (awake < res->min_awake)
			res->min_awake = awake;
		if (c->consolidate && ret == 0)
			ret = play_consolidate(f, &cons, pmds, qs, n_q, rate, st, w, res);
	}
	res->arrivals = (uint64_t)arrivals;
	if (res->packs + res->unpacks + res->spreads > 0)
		res->move_mean_ns /= (double)(res->packs + res->unpacks + res->spreads);
	return ret;
}

int
sim_fleet_run(const struct sim_fleet_config *c, struct sim_fleet_result *res)
{
	struct fleet *f;
	int ret = sim_fleet_check(c);

	if (ret < 0)
		return ret;
	memset(res, 0, sizeof(*res));
	f = calloc(1, sizeof(*f));
	if (f == NULL || (f->res = malloc(sizeof(*f->res))) == NULL) {
		free(f);
		return -ENOMEM;
	}
	f->c = c;
	f->cap_pps = sim_capacity_pps(&c->base.pmd);
	sim_rng_seed(&f->rng, c->base.seed);
	ret = play(f, res);
	if (ret == 0)
		ret = latency(f, res);
	res->curves = f->built;
	free(f->extra);
	free(f->res);
	free(f);
	return ret;
}
