/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The policy's cost per saturated burst: lull_policy_observe() of a full burst
 * and lull_policy_decide(), as the PMD calls them in an iteration that got a
 * full burst from each of its queues, timed with the TSC over many
 * iterations. Built against lib/ of two trees by bench/policy-cost (issue 27: halved
 * against bf78747).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "policy.h"

int
main(int argc, char **argv)
{
	static struct lull_policy pol;
	struct lull_policy_params prm;
	uint64_t iters = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000, now_ns = 0, sum = 0;
	uint64_t t0, t1;

	lull_policy_defaults(&prm, LULL_POLICY_RATE, 32, 1024);
	lull_policy_init(&pol, &prm);
	for (uint64_t i = 0; i < 1000000; i++) { /* warm up: the rate estimate is saturated */
		lull_policy_observe(&pol, 32);
		lull_policy_observe(&pol, 32);
		sum += lull_policy_decide(&pol, now_ns += 2000);
	}
	t0 = __rdtsc();
	for (uint64_t i = 0; i < iters; i++) {
		lull_policy_observe(&pol, 32);
		lull_policy_observe(&pol, 32);
		sum += lull_policy_decide(&pol, now_ns += 2000);
	}
	t1 = __rdtsc();
	printf("%.2f\n", (double)(t1 - t0) / (double)iters);
	return sum == 1; /* the result is used: nothing optimised away */
}
