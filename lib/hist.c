/* SPDX-License-Identifier: BSD-3-Clause */
#include "hist.h"

#include <string.h>

void
lull_hist_init(struct lull_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
lull_hist_add(struct lull_hist *h, uint64_t v)
{
	h->buckets[lull_hist_bucket(v)]++;
	h->count++;
	h->sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void
lull_hist_merge(struct lull_hist *dst, const struct lull_hist *src)
{
	for (unsigned int i = 0; i < LULL_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Middle of bucket i. */
static uint64_t
bucket_value(unsigned int i)
{
	unsigned int k, shift;
	uint64_t lower;

	if (i < LULL_HIST_SUB)
		return i;
	k = (i >> LULL_HIST_SUB_BITS) + LULL_HIST_SUB_BITS - 1;
	shift = k - LULL_HIST_SUB_BITS;
	lower = (uint64_t)(LULL_HIST_SUB + (i & (LULL_HIST_SUB - 1))) << shift;
	return lower + (((uint64_t)1 << shift) - 1) / 2;
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
