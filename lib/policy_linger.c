/* SPDX-License-Identifier: BSD-3-Clause */
/* The rate policy's linger (lib/policy_rate.h): after a packet of sparse
 * traffic, keep polling a moment while that catches replies. */
#include "policy_rate.h"

static inline void
linger_score(struct lull_policy *pol, bool hit)
{
	pol->linger_score -= pol->linger_score / 8;
	if (hit)
		pol->linger_score += LINGER_ONE / 8;
	pol->lingering = false;
}

/* Sparse traffic (less than one packet expected per linger): a reply may
 * follow a packet at once (ping, TCP ACK, RPC), so keep polling a moment after
 * it. Whether that pays is measured: a linger a packet ends is a hit. Lingers
 * that rarely hit (one-way traffic, paced streams) stop, but for a probe. Denser
 * traffic is better served by sleeping for a batch. */
bool
lull_policy_linger(struct lull_policy *pol, uint64_t now_ns, uint64_t n)
{
	if (linger_off(pol)) {
		pol->lingering = false;
		return false;
	}
	if (n > 0) {
		/* A linger catches a packet by chance too (Poisson: 1 - e^-x, x = rate x
		 * linger); it must do clearly better than chance to be worth its CPU. */
		double x = pol->rate_ppns * (double)pol->p.linger_ns;
		double keep = 2 * (x - x * x / 2) * LINGER_ONE;

		if (keep < LINGER_KEEP)
			keep = LINGER_KEEP;
		if (pol->lingering)
			linger_score(pol, true);
		if (pol->linger_score >= keep || ++pol->linger_skips >= LINGER_PROBE) {
			pol->linger_skips = 0;
			pol->lingering = true;
		}
		return pol->lingering;
	}
	if (!pol->lingering)
		return false;
	if (now_ns - pol->last_pkt_ns < pol->p.linger_ns)
		return true;
	linger_score(pol, false);
	return false;
}
