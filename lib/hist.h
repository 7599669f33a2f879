/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Log-linear histogram of unsigned 64-bit values (latencies in ns, sleeps,
 * packets per poll): 128 linear sub-buckets per power of two, so a recorded
 * value is known to within 1/128 (< 0.8 %) and values below 128 exactly.
 * Count, sum, min and max are exact. Mergeable. Pure C, no allocation, no
 * DPDK include. One writer; another thread may take a lull_hist_snapshot()
 * while it records.
 */
#ifndef LULL_HIST_H
#define LULL_HIST_H

#include <stdint.h>

#define LULL_HIST_SUB_BITS 7
#define LULL_HIST_SUB      (1u << LULL_HIST_SUB_BITS)
#define LULL_HIST_BUCKETS  ((64 - LULL_HIST_SUB_BITS + 1) * LULL_HIST_SUB)

struct lull_hist {
	uint64_t count;
	uint64_t sum;  /**< saturates at UINT64_MAX */
	double sum_sq; /**< sum of squares, for the standard deviation */
	uint64_t min;
	uint64_t max;
	uint64_t buckets[LULL_HIST_BUCKETS];
};

void lull_hist_init(struct lull_hist *h);

/** Bucket of v: values < 128 have their own; [2^k, 2^(k+1)) is cut into 128. */
static inline unsigned int
lull_hist_bucket(uint64_t v)
{
	unsigned int k;

	if (v < LULL_HIST_SUB)
		return (unsigned int)v;
	k = 63u - (unsigned int)__builtin_clzll(v);
	return ((k - LULL_HIST_SUB_BITS + 1) << LULL_HIST_SUB_BITS) |
	       (unsigned int)((v >> (k - LULL_HIST_SUB_BITS)) & (LULL_HIST_SUB - 1));
}

/** Record one value. */
void lull_hist_add(struct lull_hist *h, uint64_t v);

/** Record the value v n times at once (a merge of counted values). */
void lull_hist_add_n(struct lull_hist *h, uint64_t v, uint64_t n);

/** Copy src, which its writer may be updating, into dst (count = sum of buckets). */
void lull_hist_snapshot(struct lull_hist *dst, const struct lull_hist *src);

/** Remove from h the values of base, an earlier snapshot of the same histogram. */
void lull_hist_sub(struct lull_hist *h, const struct lull_hist *base);

/** Add every value of src to dst. */
void lull_hist_merge(struct lull_hist *dst, const struct lull_hist *src);

/**
 * The value at quantile q (0..1): the smallest recorded value v such that at
 * least q of the values are <= v, within the bucket resolution; clamped to
 * [min, max]. 0 for an empty histogram.
 */
uint64_t lull_hist_quantile(const struct lull_hist *h, double q);

/** Mean, 0 for an empty histogram. */
double lull_hist_mean(const struct lull_hist *h);

/** Population standard deviation, 0 for fewer than two values. */
double lull_hist_stddev(const struct lull_hist *h);

#endif /* LULL_HIST_H */
