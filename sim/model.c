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

int
sim_run(const struct sim_config *c, struct sim_result *res)
{
	const struct sim_pmd_model *p = &c->pmd;
	struct ring rings[SIM_MAX_QUEUES];
	struct lull_policy pol;
	struct arrivals arr;
	struct sim_rng rng;
	struct lull_slowwake inj;
	uint64_t inj_late_ns, inj_cpu_ns;
	double now = 0, end = (double)c->duration_ns;
	uint64_t budget_ns = lull_policy_budget_ns(&c->policy);
	uint32_t rr = 0;
	int ret = sim_check(c);

	if (ret < 0)
		return ret;
	memset(res, 0, sizeof(*res));
	lull_hist_init(&res->lat_ns);
	memset(rings, 0, sizeof(rings));
	for (uint32_t q = 0; q < p->n_queues; q++) {
		rings[q].at = malloc(sizeof(double) * p->ring);
		if (rings[q].at == NULL) {
			ret = -ENOMEM;
			goto out;
		}
	}
	sim_rng_seed(&rng, c->seed);
	lull_slowwake_init(&inj, &p->inject, c->seed + 1);
	arrivals_init(&arr, &c->traffic, &rng);
	{
		struct lull_policy_params pp = c->policy;

		/* the ports interrupt where the model hands over to interrupts */
		pp.intr = p->intr_after_ns > 0;
		pp.intr_after_ns = (uint64_t)p->intr_after_ns;
		lull_policy_init(&pol, &pp);
	}
	while (now < end) {
		uint64_t wait_ns;
		double it_start = now;
		uint32_t it_pkts = 0;

		/* 1. poll every queue: what arrived by the end of its poll is there */
		for (uint32_t q = 0; q < p->n_queues; q++) {
			struct ring *rg = &rings[q];
			uint32_t n;

			now += p->poll_ns;
			while (arr.next_ns <= now && arr.next_ns < end) {
				uint32_t dq = p->spread ? rr++ % p->n_queues : 0;
				struct ring *d = &rings[dq];

				res->arrivals++;
				if (d->count == p->ring) {
					res->dropped[dq]++;
					res->dropped_total++;
				} else {
					d->at[(d->head + d->count++) % p->ring] = arr.next_ns;
				}
				arrivals_advance(&arr);
			}
			n = rg->count < p->burst ? rg->count : p->burst;
			now += (double)n * p->pkt_ns;
			res->busy_ns += p->poll_ns + (double)n * p->pkt_ns;
			for (uint32_t i = 0; i < n; i++) {
				double lat = now - rg->at[rg->head] + p->path_ns;

				lull_hist_add(&res->lat_ns, lat > 0 ? (uint64_t)lat : 0);
				rg->head = (rg->head + 1) % p->ring;
			}
			rg->count -= n;
			res->forwarded += n;
			if (n > 0)
				lull_policy_observe(&pol, n);
			it_pkts += n;
		}
		res->iterations++;
		if (it_pkts > 0)
			res->work_ns += now - it_start;

		/* 2. the policy: wait, or poll again */
		wait_ns = lull_policy_decide(&pol, (uint64_t)now);
		if (wait_ns == 0)
			continue;
		res->waits++;
		if (lull_policy_mode(&pol) == LULL_MODE_INTR) {
			/* rx interrupt: woken by the next arrival */
			double wake = arr.next_ns < end ? arr.next_ns : end;
			double t1, cpu;

			lull_slowwake_draw(&inj, &inj_late_ns, &inj_cpu_ns);
			t1 = (wake > now ? wake : now) + sim_dist_draw(&p->intr_wake, &rng) +
			     (double)inj_late_ns;
			cpu = p->intr_cpu_ns + (double)inj_cpu_ns;

			res->intr_waits++;
			res->busy_ns += cpu;
			lull_policy_wait_cpu(&pol, true, (uint64_t)cpu);
			res->wait_ns += t1 - now;
			now = t1;
			continue;
		}
		if ((double)wait_ns < p->spin_below_ns) {
			double act;

			lull_slowwake_draw(&inj, &inj_late_ns, &inj_cpu_ns);
			act = (double)wait_ns + sim_dist_draw(&p->spin_late, &rng) +
			      (double)inj_late_ns;
			res->busy_ns += act + (double)inj_cpu_ns;
			res->wait_ns += act;
			res->wait_req_ns += (double)wait_ns;
			now += act;
			lull_policy_slept(&pol, wait_ns, (uint64_t)act, 0);
			lull_policy_wait_cpu(&pol, false, (uint64_t)act);
			res->budget_misses += act > (double)budget_ns;
		} else {
			double act, cpu;

			lull_slowwake_draw(&inj, &inj_late_ns, &inj_cpu_ns);
			act = (double)wait_ns + sim_dist_draw(&p->wake, &rng) + (double)inj_late_ns;
			/* a wait costs its fixed CPU, but never more than it lasts */
			cpu = (act < p->wait_cpu_ns ? act : p->wait_cpu_ns) + (double)inj_cpu_ns;

			res->busy_ns += cpu;
			res->wait_ns += act;
			res->wait_req_ns += (double)wait_ns;
			now += act;
			lull_policy_slept(&pol, wait_ns, (uint64_t)act, 0);
			lull_policy_wait_cpu(&pol, false, (uint64_t)cpu);
			res->budget_misses += act > (double)budget_ns;
		}
	}
	res->total_ns = now;
out:
	for (uint32_t q = 0; q < p->n_queues; q++)
		free(rings[q].at);
	return ret;
}
