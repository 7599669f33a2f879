/* SPDX-License-Identifier: BSD-3-Clause */
#include "pace.h"

#include <math.h>

static double
rand_unit(struct lull_pace *p)
{
	/* xorshift64*, then 53 bits into (0, 1] */
	p->rng ^= p->rng >> 12;
	p->rng ^= p->rng << 25;
	p->rng ^= p->rng >> 27;
	return ((double)((p->rng * 0x2545F4914F6CDD1DULL) >> 11) + 1.0) / 9007199254740992.0;
}

static double
next_interval(struct lull_pace *p)
{
	if (p->ph->kind == LULL_PHASE_POISSON)
		return -log(rand_unit(p)) * p->interval_ns;
	return p->interval_ns;
}

/* ONOFF: a deadline that falls into an off window moves to the next on window. */
static void
skip_off_window(struct lull_pace *p)
{
	double cycle = (double)(p->ph->on_ns + p->ph->off_ns);
	double into = fmod(p->next_ns - (double)p->start_ns, cycle);

	if (into >= (double)p->ph->on_ns)
		p->next_ns += cycle - into;
}

void
lull_pace_start(struct lull_pace *p, const struct lull_phase *ph, uint64_t start_ns, uint64_t seed,
	uint64_t max_lag_ns)
{
	p->ph = ph;
	p->start_ns = start_ns;
	p->next_ns = (double)start_ns;
	p->max_lag_ns = max_lag_ns;
	p->rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
	p->burst_left = 0;
	p->skipped = 0;
	p->interval_ns = ph->rate_pps > 0 ? 1e9 / ph->rate_pps : 0;
	if (ph->kind == LULL_PHASE_POISSON)
		p->next_ns += next_interval(p);
}

/* Drop the part of the backlog older than max_lag_ns. */
static void
bound_lag(struct lull_pace *p, double now)
{
	double oldest = now - (double)p->max_lag_ns;
	double step = p->ph->kind == LULL_PHASE_BURST ? (double)p->ph->period_ns : p->interval_ns;
	double behind;
	uint64_t n;

	if (p->next_ns >= oldest || step <= 0)
		return;
	behind = oldest - p->next_ns;
	n = (uint64_t)(behind / step);
	if (n == 0)
		return;
	p->next_ns += (double)n * step;
	p->skipped += p->ph->kind == LULL_PHASE_BURST ? n * p->ph->burst_n : n;
}

uint32_t
lull_pace_due(struct lull_pace *p, uint64_t now_ns, uint32_t max)
{
	double now = (double)now_ns;
	uint32_t n = 0;

	switch (p->ph->kind) {
	case LULL_PHASE_IDLE:
		return 0;
	case LULL_PHASE_MAX:
		return max;
	case LULL_PHASE_BURST:
		bound_lag(p, now);
		while (p->next_ns <= now) {
			p->burst_left += p->ph->burst_n;
			p->next_ns += (double)p->ph->period_ns;
		}
		n = p->burst_left < max ? (uint32_t)p->burst_left : max;
		p->burst_left -= n;
		return n;
	case LULL_PHASE_ONOFF:
		skip_off_window(p);
		/* fall through */
	case LULL_PHASE_RATE:
	case LULL_PHASE_POISSON:
	default:
		bound_lag(p, now);
		while (n < max && p->next_ns <= now) {
			n++;
			p->next_ns += next_interval(p);
			if (p->ph->kind == LULL_PHASE_ONOFF)
				skip_off_window(p);
		}
		return n;
	}
}

uint64_t
lull_pace_next_ns(const struct lull_pace *p)
{
	if (p->ph->kind == LULL_PHASE_IDLE)
		return UINT64_MAX;
	if (p->ph->kind == LULL_PHASE_MAX || p->burst_left > 0)
		return 0;
	return (uint64_t)p->next_ns;
}
