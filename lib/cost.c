/* SPDX-License-Identifier: BSD-3-Clause */
#include "cost.h"

#include <string.h>

/* Bucket 0 ends at 2^8 ns; four per octave up to 2^24 ns (16.8 ms) and beyond. */
#define LATE_MIN_LOG2        8
#define LATE_QUANTILES_EVERY 32u

/* A wait's CPU sample counts as at most 3/2 of the estimate (after the first
 * CPU_CLIP_AFTER samples). */
#define CPU_CLIP_AFTER 4u

void
lull_cost_init(struct lull_cost *c)
{
	memset(c, 0, sizeof(*c));
}

static unsigned int
late_bucket(uint64_t ns)
{
	unsigned int k, b;

	if (ns < (1u << LATE_MIN_LOG2))
		return 0;
	k = 63u - (unsigned int)__builtin_clzll(ns);
	b = (k - LATE_MIN_LOG2) * 4 + (unsigned int)((ns >> (k - 2)) & 3) + 1;
	return b < LULL_COST_LATE_BUCKETS ? b : LULL_COST_LATE_BUCKETS - 1;
}

/* The upper edge of bucket b: every value in it is below. */
static uint64_t
late_edge(unsigned int b)
{
	unsigned int k, q;

	if (b == 0)
		return 1u << LATE_MIN_LOG2;
	k = (b - 1) / 4 + LATE_MIN_LOG2;
	q = (b - 1) % 4;
	return (uint64_t)(4 + q + 1) << (k - 2);
}

uint64_t
lull_cost_late_quantile(const struct lull_cost *c, double q)
{
	uint64_t above = 0, allowed;

	if (c->late_total == 0)
		return 0;
	/* from the top: the edge below which at least q of the samples lie */
	allowed = (uint64_t)((1.0 - q) * (double)c->late_total);
	for (unsigned int b = LULL_COST_LATE_BUCKETS; b-- > 0;) {
		uint64_t hi, lo;

		above += c->late[b];
		if (above <= allowed)
			continue;
		/* within the bucket, as if its samples were spread evenly: a quantile
		 * near an edge moves smoothly, not by a quarter of an octave */
		hi = late_edge(b);
		lo = b > 0 ? late_edge(b - 1) : 0;
		return hi -
		       (uint64_t)((double)(hi - lo) * (double)(allowed - (above - c->late[b])) /
				  (double)c->late[b]);
	}
	return late_edge(0);
}

uint64_t
lull_cost_late_tail_ns(const struct lull_cost *c)
{
	uint64_t edge_ns;

	if (c->late_top2 == 0)
		return c->late_tail2_ns;
	edge_ns = late_edge(c->late_top2 - 1);
	return edge_ns > c->late_tail2_ns ? edge_ns : c->late_tail2_ns;
}

static void
halve(struct lull_cost *c)
{
	c->late_total = 0;
	c->late_top2 = 0;
	for (unsigned int b = 0; b < LULL_COST_LATE_BUCKETS; b++) {
		c->late[b] /= 2;
		c->late_total += c->late[b];
		if (c->late[b] > 1)
			c->late_top2 = b + 1;
	}
}

static const unsigned int keep_pct[LULL_COST_KEEP_N] = {99, 95, 90, 75, 50};

unsigned int
lull_cost_keep_pct(unsigned int k)
{
	return k < LULL_COST_KEEP_N ? keep_pct[k] : 0;
}

void
lull_cost_excess_load(const struct lull_cost *c, struct lull_cost_excess *e)
{
	e->n = 0;
	e->total = (double)c->late_total;
	for (unsigned int b = 0; b < LULL_COST_LATE_BUCKETS; b++) {
		if (c->late[b] == 0)
			continue;
		e->b[e->n].count = (double)c->late[b];
		e->b[e->n].hi_ns = (double)late_edge(b);
		e->b[e->n].lo_ns = b > 0 ? (double)late_edge(b - 1) : 0;
		e->n++;
	}
}

double
lull_cost_excess_ns(const struct lull_cost_excess *e, uint64_t x_ns)
{
	double sum = 0, x = (double)x_ns;

	if (e->total == 0)
		return 0;
	for (unsigned int i = 0; i < e->n; i++) {
		double hi = e->b[i].hi_ns, lo = e->b[i].lo_ns;

		if (x <= lo)
			sum += e->b[i].count * ((hi + lo) / 2 - x);
		else if (x < hi)
			sum += e->b[i].count * (hi - x) * (hi - x) / (2 * (hi - lo));
	}
	return sum / e->total;
}

double
lull_cost_late_excess_ns(const struct lull_cost *c, uint64_t x_ns)
{
	struct lull_cost_excess e;

	lull_cost_excess_load(c, &e);
	return lull_cost_excess_ns(&e, x_ns);
}

/* Read the quantiles; with hysteresis (struct lull_cost), unless at once. */
static void
quantiles(struct lull_cost *c, bool at_once)
{
	c->late_reads++;
	for (unsigned int k = 0; k < LULL_COST_KEEP_N; k++) {
		uint64_t v = lull_cost_late_quantile(c, keep_pct[k] / 100.0);

		if (at_once || v >= c->late_keep_ns[k]) {
			c->late_keep_ns[k] = v;
			c->late_downs[k] = 0;
			continue;
		}
		if (c->late_downs[k] == 0 || v > c->late_down_ns[k])
			c->late_down_ns[k] = v;
		if (++c->late_downs[k] >= LULL_COST_DOWN_READS) {
			c->late_keep_ns[k] = c->late_down_ns[k];
			c->late_downs[k] = 0;
		}
	}
	c->late_p99_ns = c->late_keep_ns[0];
	c->late_p50_ns = c->late_keep_ns[LULL_COST_KEEP_N - 1];
}

void
lull_cost_forget(struct lull_cost *c)
{
	halve(c);
	quantiles(c, true);
}

/* The tail's window ends: its maxima halve */
static void
tail_window_end(struct lull_cost *c)
{
	c->late_tail_ns /= 2;
	c->late_tail2_ns /= 2;
	c->stall_tail_ns /= 2;
	c->stall_tail2_ns /= 2;
	c->tail_since = 0;
}

void
lull_cost_tail_age(struct lull_cost *c)
{
	tail_window_end(c);
	lull_cost_forget(c);
}

/* v, among the two largest kept (top, second): the worst lateness and the
 * longest polling stall, each believed once seen twice */
static void
keep_two(uint64_t *top, uint64_t *second, uint64_t v)
{
	if (v > *top) {
		*second = *top;
		*top = v;
	} else if (v > *second) {
		*second = v;
	}
}

void
lull_cost_stall(struct lull_cost *c, uint64_t round_ns)
{
	keep_two(&c->stall_tail_ns, &c->stall_tail2_ns, round_ns);
}

void
lull_cost_late(struct lull_cost *c, uint64_t late_ns)
{
	unsigned int b = late_bucket(late_ns);

	if (++c->late[b] > 1 && b + 1 > c->late_top2)
		c->late_top2 = b + 1;
	keep_two(&c->late_tail_ns, &c->late_tail2_ns, late_ns);
	if (++c->tail_since >= LULL_COST_TAIL_WINDOW)
		tail_window_end(c);
	c->late_mean_ns = c->late_n ? (7 * c->late_mean_ns + late_ns) / 8 : late_ns;
	c->late_n++;
	if (++c->late_total >= LULL_COST_LATE_WINDOW)
		halve(c);
	/* the first samples each count; then the quantiles are read now and then,
	 * and at once when a sample lands beyond the 99th percentile (the tail is
	 * what the budget depends on) */
	if (c->late_n <= LATE_QUANTILES_EVERY || ++c->late_since >= LATE_QUANTILES_EVERY ||
		late_ns > c->late_p99_ns) {
		c->late_since = 0;
		quantiles(c, c->late_n <= LATE_QUANTILES_EVERY);
	}
}

void
lull_cost_wait_cpu(struct lull_cost *c, enum lull_cost_wait w, uint64_t cpu_ns)
{
	/* A sample far above the estimate is most often not the wait's: a vCPU the
	 * host preempted while the thread ran still counts as the thread's CPU (1
	 * wait in 100 on issue 27's VM was charged 160 us instead of 42). It counts
	 * as 3/2 of the estimate at most, so that one neither locks the PMD into
	 * polling nor moves the sleep it sets (the sleep's floor is 6x the CPU); a
	 * wait that really costs twice as much gets there in ~11 samples. */
	if (c->cpu_samples[w] >= CPU_CLIP_AFTER && cpu_ns > c->wait_cpu_ns[w] * 3 / 2)
		cpu_ns = c->wait_cpu_ns[w] * 3 / 2;
	c->wait_cpu_ns[w] = c->cpu_samples[w] ? (7 * c->wait_cpu_ns[w] + cpu_ns) / 8 : cpu_ns;
	c->cpu_samples[w]++;
}

uint64_t
lull_cost_wait_ns(const struct lull_cost *c, enum lull_cost_wait w)
{
	if (lull_cost_known(c, w))
		return c->wait_cpu_ns[w];
	if (lull_cost_known(c, (enum lull_cost_wait)(1 - w)))
		return c->wait_cpu_ns[1 - w];
	return c->late_p50_ns;
}
