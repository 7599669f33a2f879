/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Traffic profiles for lull-gen: a list of phases, parsed from text like
 *   idle:5s,rate:10k:5s,poisson:100k:5s,burst:1000/100ms:5s,onoff:1M:10ms/40ms:5s,max:5s
 * Rates take k, M, G suffixes; times need a unit (ns, us, ms, s).
 * Pure C, no DPDK include.
 */
#ifndef LULL_PROFILE_H
#define LULL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define LULL_MAX_PHASES 64

enum lull_phase_kind {
	LULL_PHASE_IDLE,    /**< send nothing */
	LULL_PHASE_RATE,    /**< constant rate, evenly spaced */
	LULL_PHASE_POISSON, /**< Poisson arrivals at a mean rate */
	LULL_PHASE_BURST,   /**< burst_n packets back to back every period_ns */
	LULL_PHASE_ONOFF,   /**< constant rate during on_ns, nothing during off_ns */
	LULL_PHASE_MAX,     /**< as fast as the port takes them */
};

struct lull_phase {
	enum lull_phase_kind kind;
	double rate_pps;      /**< RATE, POISSON, ONOFF (rate while on) */
	uint32_t burst_n;     /**< BURST */
	uint64_t period_ns;   /**< BURST */
	uint64_t on_ns;       /**< ONOFF */
	uint64_t off_ns;      /**< ONOFF */
	uint64_t duration_ns; /**< every kind */
	char text[64];        /**< the token it came from, for reports */
};

struct lull_profile {
	struct lull_phase phases[LULL_MAX_PHASES];
	unsigned int n;
};

/**
 * Parse a profile. Rejects the whole string at the first bad token.
 *
 * @return 0, or a negative errno with a message quoting the bad token in err.
 */
int lull_profile_parse(const char *s, struct lull_profile *p, char *err, size_t errlen);

struct lull_opt;

/** An option row's parser (lib/opt) for a struct lull_profile field: lull_profile_parse(). */
int lull_opt_parse_profile(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen);

/** Mean offered rate of a phase in packets/s; 0 for idle, -1 for max. */
double lull_phase_offered_pps(const struct lull_phase *ph);

/** Parse a rate, "10k", "1.5M", "1000" (> 0, at most 1G). */
int lull_parse_rate(const char *s, double *pps);

/** Parse a time with its unit, "100ms", "5s", "250us", "10ns", "24h" (> 0, at most 1 day). */
int lull_parse_time_ns(const char *s, uint64_t *ns);

#endif /* LULL_PROFILE_H */
