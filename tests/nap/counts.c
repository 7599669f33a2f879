/* SPDX-License-Identifier: BSD-3-Clause */
/* The attached engine's counts are exact whatever the load: one thread polls
 * three sources in a fixed order through the C API, in phases drawn at random
 * (seeded): saturated stretches of every length (nap/attach.c counts their full
 * polls in bulk), partial bursts, and empty rounds (the engine may wait). The
 * full bursts, the non-empty bursts and their packets, and the iterations
 * (rounds ended) it counted must be what was polled. Then a source goes and
 * two come, saturated: the engine loads with the new set, and the packets are
 * still counted exactly. Prints the counts; exit 0 when they match. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include <attach_priv.h>
#include <counters.h>
#include <hist.h>
#include <lull_nap_attach.h>
#include <rte_eal.h>

#define N_SRC  3
#define BURST  32
#define ROUNDS 400000

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint32_t
draw(uint32_t below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % below);
}

struct want {
	uint64_t full, bursts, pkts, rounds;
};

static void
round_n(struct want *w, int kind, uint32_t n_src)
{
	for (uint32_t s = 0; s < n_src; s++) {
		uint16_t n = kind == 0 ? BURST : kind == 1 ? (uint16_t)draw(BURST + 1) : 0;

		lull_nap_attach_polled(LULL_NAP_SOURCE(7, s), n, BURST);
		w->full += n == BURST;
		w->bursts += n > 0;
		w->pkts += n;
	}
	w->rounds++;
}

static void
round_of(struct want *w, int kind)
{
	round_n(w, kind, N_SRC);
}

/* Saturated with n_src sources (one moved away, or here): the engine loads
 * with them within a few stretches. @return 0 if it did. */
static int
sources_change(struct want *w, uint32_t n_src)
{
	for (int i = 0; i < 3000; i++)
		round_n(w, 0, n_src);
	printf("loaded with %u sources (want %u)\n", lull_nap_thrs[0]->n_loaded, n_src);
	return lull_nap_thrs[0]->n_loaded == n_src ? 0 : 1;
}

static int
check(const char *what, uint64_t have, uint64_t want)
{
	printf("%s %" PRIu64 " (want %" PRIu64 ")\n", what, have, want);
	return have == want ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct want w = {0};
	struct lull_hist h;
	struct lull_nap *nap;
	char err[256];
	int bad = 0;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "counts: EAL init failed\n");
		return 1;
	}
	if (lull_nap_attach_options("--sleep-max-us 20", err, sizeof(err)) < 0) {
		fprintf(stderr, "counts: options: %s\n", err);
		return 1;
	}
	while (w.rounds < ROUNDS) {
		/* saturated (any length, the stretch's bounds crossed at random),
		 * partial bursts, or an empty round now and then */
		uint32_t kind = draw(8) < 5 ? 0 : draw(16) != 0 ? 1 : 2;
		uint32_t len = kind == 0   ? 1 + draw(draw(2) ? 70 : 3000)
			       : kind == 1 ? 1 + draw(40)
					   : 1;

		for (uint32_t i = 0; i < len; i++)
			round_of(&w, (int)kind);
	}
	/* two empty rounds end with the clock read: nothing left uncounted */
	round_of(&w, 2);
	round_of(&w, 2);
	lull_nap_attach_polled(LULL_NAP_SOURCE(7, 0), 0, BURST); /* ends the last one */
	if (lull_nap_n_thrs != 1) {
		fprintf(stderr, "counts: %u engines, want 1\n", lull_nap_n_thrs);
		return 1;
	}
	nap = &lull_nap_thrs[0]->nap;
	lull_nap_burst_hist(nap, BURST, &h);
	bad |= check("full bursts", lull_counter_read(&nap->stats[LULL_PMD_FULL_BURSTS]), w.full);
	bad |= check("bursts", h.count, w.bursts);
	bad |= check("packets", h.sum, w.pkts);
	bad |= check("iterations", lull_counter_read(&nap->stats[LULL_PMD_ITERATIONS]), w.rounds);
	/* the set of sources changes under saturation: the round boundaries of
	 * the stretch that sees it are off, no count of packets is */
	bad |= sources_change(&w, N_SRC - 1);
	bad |= sources_change(&w, N_SRC + 1);
	round_of(&w, 2);
	lull_nap_attach_polled(LULL_NAP_SOURCE(7, 0), 0, BURST);
	lull_nap_burst_hist(nap, BURST, &h);
	bad |= check("full bursts", lull_counter_read(&nap->stats[LULL_PMD_FULL_BURSTS]), w.full);
	bad |= check("packets", h.sum, w.pkts);
	rte_eal_cleanup();
	return bad;
}
