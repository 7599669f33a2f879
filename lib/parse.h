/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Strict parsers for command-line and control values.
 *
 * Pure C, no DPDK include. Every parser rejects the whole input when any part
 * of it is bad (no silent skipping), and returns 0 or a negative errno:
 *  - -EINVAL: malformed (not a number, trailing garbage, empty item),
 *  - -ERANGE: a number outside [min, max],
 *  - -E2BIG:  more items than the output can hold,
 *  - -EEXIST: an item given twice in a list that must not repeat.
 * Thread-safe: no state.
 */
#ifndef LULL_PARSE_H
#define LULL_PARSE_H

#include <stddef.h>
#include <stdint.h>

/**
 * Split "KEY VALUE" or "KEY=VALUE" in place (blanks around either part are
 * dropped): *key and *value point into s.
 *
 * @return 0, or -EINVAL when the key or the value is missing.
 */
int lull_split_kv(char *s, char **key, char **value);

/** Parse a whole decimal (or 0x hex) unsigned integer within [min, max]. */
int lull_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/** Same as lull_parse_u64, for values that fit 32 bits. */
int lull_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/**
 * printf-style one-line message into err; returns ret (a negative errno). The
 * one error helper of the parsers and checks of every tool.
 */
int lull_errf(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** A finite real number in min..max ("1.5", "2e3"). @return 0, -EINVAL or -ERANGE. */
int lull_parse_double(const char *s, double min, double max, double *out);

/**
 * Parse a list of unsigned integers and ranges, "1,3-5,8", into out[] in the
 * order given. Values above max are -ERANGE, repeats are -EEXIST.
 */
int lull_parse_uint_list(
	const char *s, unsigned int max, unsigned int *out, unsigned int cap, unsigned int *n_out);

/** Parse "aa:bb:cc:dd:ee:ff" (hex digits, colons) into mac[6]. */
int lull_parse_mac(const char *s, uint8_t mac[6]);

/**
 * Split s at the first occurrence of sep: copy the part before it into head
 * (NUL-terminated, at most head_len - 1 bytes) and return a pointer to the
 * part after it, or NULL when sep is absent or head is too short.
 */
const char *lull_split(const char *s, char sep, char *head, size_t head_len);

/**
 * The message for getopt_long()'s ':' (missing value) or '?' (unknown option)
 * return, from getopt's optind/optopt: "option '--x' needs a value",
 * "unknown option '--y' (see --help)". Call right after getopt_long().
 *
 * @return -EINVAL.
 */
int lull_getopt_error(int opt, char **argv, char *err, size_t errlen);

#endif /* LULL_PARSE_H */
