/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Per-PMD values in OVS 3.3's pmd-sleep-max syntax: "250,3:0,5:50" is 250 for
 * every PMD, 0 for the PMD on core 3 and 50 for the one on core 5. Values in
 * microseconds, at most LULL_SLEEPLIST_MAX_US. Pure C.
 */
#ifndef LULL_SLEEPLIST_H
#define LULL_SLEEPLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LULL_SLEEPLIST_MAX    128
#define LULL_SLEEPLIST_MAX_US 10000

struct lull_sleeplist {
	uint32_t default_us;
	bool has_default;
	unsigned int n;
	struct {
		unsigned int core;
		uint32_t us;
	} entries[LULL_SLEEPLIST_MAX];
};

/**
 * Parse s into l. The whole list is rejected at its first bad entry.
 *
 * @return 0, or a negative errno with a message quoting the bad entry in err.
 */
int lull_sleeplist_parse(const char *s, struct lull_sleeplist *l, char *err, size_t errlen);

/** The value for core: its own entry, else the default, else fallback_us. */
uint32_t lull_sleeplist_get(
	const struct lull_sleeplist *l, unsigned int core, uint32_t fallback_us);

#endif /* LULL_SLEEPLIST_H */
