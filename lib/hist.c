/* SPDX-License-Identifier: BSD-3-Clause */
#include "hist.h"

#include <math.h>
#include <string.h>

void
lull_hist_init(struct lull_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* Lowest value of bucket i (i < LULL_HIST_BUCKETS). */
static uint64_t
bucket_low(unsigned int i)
{
	unsigned int k;

	if (i < LULL_HIST_SUB)
		return i;
	k = (i >> LULL_HIST_SUB_BITS) + LULL_HIST_SUB_BITS - 1;
	return (uint64_t)(LULL_HIST_SUB + (i & (LULL_HIST_SUB - 1))) << (k - LULL_HIST_SUB_BITS);
}

/* Middle of bucket i. */
static uint64_t
bucket_value(unsigned int i)
{
	unsigned int shift;

	if (i < LULL_HIST_SUB)
		return i;
	shift = (i >> LULL_HIST_SUB_BITS) - 1;
	return bucket_low(i) + (((uint64_t)1 << shift) - 1) / 2;
}

/* Single writer: relaxed stores, so another thread may snapshot while it records
 * (on x86-64 and arm64 these are plain loads and stores). */
#define LOAD(x)     __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

void
lull_hist_add(struct lull_hist *h, uint64_t v)
{
	unsigned int b = lull_hist_bucket(v);
	uint64_t sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;

	STORE(h->buckets[b], h->buckets[b] + 1);
	STORE(h->count, h->count + 1);
	double sq = h->sum_sq + (double)v * (double)v;

	STORE(h->sum, sum);
	__atomic_store(&h->sum_sq, &sq, __ATOMIC_RELAXED);
	if (v < h->min)
		STORE(h->min, v);
	if (v > h->max)
		STORE(h->max, v);
}

void
lull_hist_add_n(struct lull_hist *h, uint64_t v, uint64_t n)
{
	unsigned int b = lull_hist_bucket(v);
	double sq = h->sum_sq + (double)v * (double)v * (double)n;

	if (n == 0)
		return;
	STORE(h->buckets[b], h->buckets[b] + n);
	STORE(h->count, h->count + n);
	STORE(h->sum, h->sum + v * n);
	__atomic_store(&h->sum_sq, &sq, __ATOMIC_RELAXED);
	if (v < h->min)
		STORE(h->min, v);
	if (v > h->max)
		STORE(h->max, v);
}

void
lull_hist_snapshot(struct lull_hist *dst, const struct lull_hist *src)
{
	dst->count = 0;
	for (unsigned int i = 0; i < LULL_HIST_BUCKETS; i++) {
		dst->buckets[i] = LOAD(src->buckets[i]);
		dst->count += dst->buckets[i]; /* consistent with the buckets as read */
	}
	dst->sum = LOAD(src->sum);
	__atomic_load(&src->sum_sq, &dst->sum_sq, __ATOMIC_RELAXED);
	dst->min = LOAD(src->min);
	dst->max = LOAD(src->max);
}

void
lull_hist_sub(struct lull_hist *h, const struct lull_hist *base)
{
	int lo = -1, hi = -1;

	h->count = 0;
	for (unsigned int i = 0; i < LULL_HIST_BUCKETS; i++) {
		h->buckets[i] =
			h->buckets[i] > base->buckets[i] ? h->buckets[i] - base->buckets[i] : 0;
		h->count += h->buckets[i];
		if (h->buckets[i] != 0) {
			if (lo < 0)
				lo = (int)i;
			hi = (int)i;
		}
	}
	h->sum = h->sum > base->sum ? h->sum - base->sum : 0;
	h->sum_sq = h->sum_sq > base->sum_sq ? h->sum_sq - base->sum_sq : 0;
	if (lo < 0) {
		h->min = UINT64_MAX;
		h->max = 0;
		return;
	}
	/* the exact extremes since base are unknown: keep them within the buckets left */
	if (lull_hist_bucket(h->min) < (unsigned int)lo)
		h->min = bucket_low((unsigned int)lo);
	if (lull_hist_bucket(h->max) > (unsigned int)hi)
		h->max = hi + 1 < (int)LULL_HIST_BUCKETS ? bucket_low((unsigned int)hi + 1) - 1
							 : UINT64_MAX;
}

void
lull_hist_merge(struct lull_hist *dst, const struct lull_hist *src)
{
	for (unsigned int i = 0; i < LULL_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
	dst->sum_sq += src->sum_sq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t
lull_hist_quantile(const struct lull_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/* the rank-th smallest value, rank = ceil(q * count), at least 1 */
	rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	for (unsigned int i = 0; i < LULL_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			uint64_t v = bucket_value(i);

			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}

double
lull_hist_mean(const struct lull_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double
lull_hist_stddev(const struct lull_hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0;
	mean = (double)h->sum / (double)h->count;
	var = h->sum_sq / (double)h->count - mean * mean;
	return var > 0 ? sqrt(var) : 0;
}
