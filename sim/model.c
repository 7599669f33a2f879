/* SPDX-License-Identifier: BSD-3-Clause */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	r->s = seed;
}

static uint64_t
rng_next(struct sim_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double
sim_rng_unit(struct sim_rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double
sim_dist_draw(const struct sim_dist *d, struct sim_rng *r)
{
	double v = d->mean_ns;

	if (d->kind == SIM_DIST_NORMAL && d->sd_ns > 0) {
		/* Box-Muller; one value per draw keeps the stream simple */
		double u1 = sim_rng_unit(r), u2 = sim_rng_unit(r);

		v += d->sd_ns * sqrt(-2.0 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
	} else if (d->kind == SIM_DIST_EMPIRICAL && d->n_samples > 0) {
		v = d->samples_ns[(size_t)(sim_rng_unit(r) * (double)d->n_samples)];
	}
	if (d->tail_p > 0 && sim_rng_unit(r) < d->tail_p)
		v += d->tail_ns;
	return v > 0 ? v : 0;
}

/* The traffic model as a stream of arrival times. */
struct arrivals {
	const struct sim_traffic *t;
	struct sim_rng *rng;
	double next_ns; /**< next arrival; INFINITY when none */
	double min_gap_ns;
	uint64_t burst_left;
	uint64_t burst_no;
	size_t trace_i;
};

static double
gap_at_rate(struct arrivals *a, double rate_pps, bool poisson)
{
	double mean = 1e9 / rate_pps;

	return poisson ? -mean * log(1.0 - sim_rng_unit(a->rng)) : mean;
}

static void
arrivals_advance(struct arrivals *a)
{
	const struct sim_traffic *t = a->t;
	double prev = a->next_ns, next = INFINITY;

	switch (t->kind) {
	case SIM_TRAFFIC_CONST:
	case SIM_TRAFFIC_POISSON:
		next = prev + gap_at_rate(a, t->rate_pps, t->kind == SIM_TRAFFIC_POISSON);
		break;
	case SIM_TRAFFIC_BURST:
		if (--a->burst_left > 0) {
			next = prev + a->min_gap_ns;
		} else {
			a->burst_no++;
			a->burst_left = t->burst_n;
			next = (double)t->start_ns + (double)a->burst_no * (double)t->period_ns;
		}
		break;
	case SIM_TRAFFIC_ONOFF: {
		double cycle = (double)(t->on_ns + t->off_ns);

		next = prev + gap_at_rate(a, t->rate_pps, false);
		if (fmod(next, cycle) >= (double)t->on_ns) /* into the off time: next on */
			next = (floor(next / cycle) + 1) * cycle;
		break;
	}
	case SIM_TRAFFIC_RAMP: {
		/* thinning of a Poisson stream at the peak rate */
		do {
			next = (next == INFINITY ? prev : next) + gap_at_rate(a, t->rate_pps, true);
		} while (sim_rng_unit(a->rng) >
			 (1 - cos(2 * M_PI * next / (double)t->period_ns)) / 2);
		break;
	}
	case SIM_TRAFFIC_TRACE:
		next = ++a->trace_i < t->trace_n ? (double)t->trace_ns[a->trace_i] : INFINITY;
		break;
	case SIM_TRAFFIC_IDLE:
	default:
		break;
	}
	if (next < prev + a->min_gap_ns)
		next = prev + a->min_gap_ns; /* the wire's limit */
	a->next_ns = next;
}

static void
arrivals_init(struct arrivals *a, const struct sim_traffic *t, struct sim_rng *rng)
{
	memset(a, 0, sizeof(*a));
	a->t = t;
	a->rng = rng;
	a->min_gap_ns = t->line_rate_pps > 0 ? 1e9 / t->line_rate_pps : 0;
	a->burst_left = t->burst_n;
	switch (t->kind) {
	case SIM_TRAFFIC_IDLE:
		a->next_ns = INFINITY;
		break;
	case SIM_TRAFFIC_TRACE:
		a->next_ns = t->trace_n ? (double)t->trace_ns[0] : INFINITY;
		break;
	case SIM_TRAFFIC_RAMP:
		a->next_ns = 0;
		arrivals_advance(a);
		break;
	default:
		a->next_ns = (double)t->start_ns;
		break;
	}
}

int
sim_check(const struct sim_config *c)
{
	const struct sim_traffic *t = &c->traffic;
	const struct sim_pmd_model *p = &c->pmd;

	if (p->n_queues == 0 || p->n_queues > SIM_MAX_QUEUES || p->ring == 0 || p->burst == 0 ||
		p->poll_ns <= 0 || p->pkt_ns < 0 || p->wait_cpu_ns < 0 || p->path_ns < 0 ||
		c->duration_ns == 0 || lull_policy_check(&c->policy) < 0)
		return -EINVAL;
	if ((t->kind == SIM_TRAFFIC_CONST || t->kind == SIM_TRAFFIC_POISSON ||
		    t->kind == SIM_TRAFFIC_ONOFF || t->kind == SIM_TRAFFIC_RAMP) &&
		!(t->rate_pps > 0))
		return -EINVAL;
	if (t->kind == SIM_TRAFFIC_BURST && (t->burst_n == 0 || t->period_ns == 0))
		return -EINVAL;
	if ((t->kind == SIM_TRAFFIC_ONOFF && (t->on_ns == 0)) ||
		(t->kind == SIM_TRAFFIC_RAMP && t->period_ns == 0))
		return -EINVAL;
	return 0;
}

/* Rx rings: arrival times, FIFO. */
struct ring {
	double *at;
	uint32_t head, count;
};

/* One run's moving parts. */
struct sim_state {
	const struct sim_config *c;
	struct sim_result *res;
	struct ring rings[SIM_MAX_QUEUES];
	struct lull_policy pol;
	struct arrivals arr;
	struct sim_rng rng;
	struct lull_slowwake inj;
	double now_ns, end_ns;
	uint64_t budget_ns;
	uint32_t rr; /**< next queue of a spread arrival */
};

/* Queue every arrival due by now; a full ring drops it. */
static void
sim_enqueue_due(struct sim_state *st)
{
	const struct sim_pmd_model *p = &st->c->pmd;
	struct sim_result *res = st->res;

	while (st->arr.next_ns <= st->now_ns && st->arr.next_ns < st->end_ns) {
		uint32_t dq = p->spread ? st->rr++ % p->n_queues : 0;
		struct ring *d = &st->rings[dq];

		res->arrivals++;
		if (d->count == p->ring) {
			res->dropped[dq]++;
			res->dropped_total++;
		} else {
			d->at[(d->head + d->count++) % p->ring] = st->arr.next_ns;
		}
		arrivals_advance(&st->arr);
	}
}

/* Poll every queue once: what arrived by the end of its poll is there. */
static uint32_t
sim_poll_round(struct sim_state *st)
{
	const struct sim_pmd_model *p = &st->c->pmd;
	struct sim_result *res = st->res;
	uint32_t it_pkts = 0;

	for (uint32_t q = 0; q < p->n_queues; q++) {
		struct ring *rg = &st->rings[q];
		uint32_t n;

		st->now_ns += p->poll_ns;
		sim_enqueue_due(st);
		n = rg->count < p->burst ? rg->count : p->burst;
		st->now_ns += (double)n * p->pkt_ns;
		res->busy_ns += p->poll_ns + (double)n * p->pkt_ns;
		for (uint32_t i = 0; i < n; i++) {
			double lat = st->now_ns - rg->at[rg->head] + p->path_ns;

			lull_hist_add(&res->lat_ns, lat > 0 ? (uint64_t)lat : 0);
			rg->head = (rg->head + 1) % p->ring;
		}
		rg->count -= n;
		res->forwarded += n;
		if (n > 0)
			lull_policy_observe(&st->pol, n);
		it_pkts += n;
	}
	return it_pkts;
}

/* An rx-interrupt wait: woken by the next arrival, late by a wake. */
static void
sim_wait_intr(struct sim_state *st)
{
	const struct sim_pmd_model *p = &st->c->pmd;
	double wake = st->arr.next_ns < st->end_ns ? st->arr.next_ns : st->end_ns;
	uint64_t inj_late_ns, inj_cpu_ns;
	double t1, cpu;

	lull_slowwake_draw(&st->inj, &inj_late_ns, &inj_cpu_ns);
	t1 = (wake > st->now_ns ? wake : st->now_ns) + sim_dist_draw(&p->intr_wake, &st->rng) +
	     (double)inj_late_ns;
	cpu = p->intr_cpu_ns + (double)inj_cpu_ns;
	st->res->intr_waits++;
	st->res->busy_ns += cpu;
	lull_policy_wait_cpu(&st->pol, true, (uint64_t)cpu);
	st->res->wait_ns += t1 - st->now_ns;
	st->now_ns = t1;
}

/* A timed wait: a spin below spin_below_ns (all of it CPU), a sleep above. */
static void
sim_wait_timed(struct sim_state *st, uint64_t wait_ns)
{
	const struct sim_pmd_model *p = &st->c->pmd;
	struct sim_result *res = st->res;
	bool spin = (double)wait_ns < p->spin_below_ns;
	uint64_t inj_late_ns, inj_cpu_ns;
	double act, cpu;

	lull_slowwake_draw(&st->inj, &inj_late_ns, &inj_cpu_ns);
	act = (double)wait_ns + sim_dist_draw(spin ? &p->spin_late : &p->wake, &st->rng) +
	      (double)inj_late_ns;
	if (spin) {
		res->busy_ns += act + (double)inj_cpu_ns;
		cpu = act;
	} else {
		/* a wait costs its fixed CPU, but never more than it lasts */
		cpu = (act < p->wait_cpu_ns ? act : p->wait_cpu_ns) + (double)inj_cpu_ns;
		res->busy_ns += cpu;
	}
	res->wait_ns += act;
	res->wait_req_ns += (double)wait_ns;
	st->now_ns += act;
	lull_policy_slept(&st->pol, wait_ns, (uint64_t)act, 0);
	lull_policy_wait_cpu(&st->pol, false, (uint64_t)cpu);
	res->budget_misses += act > (double)st->budget_ns;
}

static int
sim_state_init(struct sim_state *st, const struct sim_config *c, struct sim_result *res)
{
	const struct sim_pmd_model *p = &c->pmd;
	struct lull_policy_params pp = c->policy;

	memset(st, 0, sizeof(*st));
	st->c = c;
	st->res = res;
	st->end_ns = (double)c->duration_ns;
	st->budget_ns = lull_policy_budget_ns(&c->policy);
	memset(res, 0, sizeof(*res));
	lull_hist_init(&res->lat_ns);
	for (uint32_t q = 0; q < p->n_queues; q++) {
		st->rings[q].at = malloc(sizeof(double) * p->ring);
		if (st->rings[q].at == NULL)
			return -ENOMEM;
	}
	sim_rng_seed(&st->rng, c->seed);
	lull_slowwake_init(&st->inj, &p->inject, c->seed + 1);
	arrivals_init(&st->arr, &c->traffic, &st->rng);
	/* the ports interrupt where the model hands over to interrupts */
	pp.intr = p->intr_after_ns > 0;
	pp.intr_after_ns = (uint64_t)p->intr_after_ns;
	lull_policy_init(&st->pol, &pp);
	return 0;
}

int
sim_run(const struct sim_config *c, struct sim_result *res)
{
	struct sim_state *st;
	int ret = sim_check(c);

	if (ret < 0)
		return ret;
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return -ENOMEM;
	ret = sim_state_init(st, c, res);
	while (ret == 0 && st->now_ns < st->end_ns) {
		double it_start_ns = st->now_ns;
		uint64_t wait_ns;

		/* 1. poll every queue */
		if (sim_poll_round(st) > 0)
			res->work_ns += st->now_ns - it_start_ns;
		res->iterations++;
		/* 2. the policy: wait, or poll again */
		wait_ns = lull_policy_decide(&st->pol, (uint64_t)st->now_ns);
		if (wait_ns == 0)
			continue;
		res->waits++;
		if (lull_policy_mode(&st->pol) == LULL_MODE_INTR)
			sim_wait_intr(st);
		else
			sim_wait_timed(st, wait_ns);
	}
	if (ret == 0)
		res->total_ns = st->now_ns;
	for (uint32_t q = 0; q < c->pmd.n_queues; q++)
		free(st->rings[q].at);
	free(st);
	return ret;
}
