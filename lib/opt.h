/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * One option table per tool. Each row holds an option's name, the field it
 * fills, its bounds, its default as --help shows it, its help text and whether
 * it may change at run time. getopt's long options, --help, the "describe"
 * output (config-show) and the list of settable keys are all generated from
 * the table, so they cannot drift apart (wireguard-tools' wg.c drives dispatch
 * and usage from one table the same way).
 *
 * Rows name fields by offset into the tool's configuration struct ("target").
 * Numbers are decimal only. Every error is one line naming the option and the
 * bad value, and a negative errno. Pure C, no DPDK: unit-tested and fuzzed.
 * Not thread-safe (getopt): call from one thread.
 */
#ifndef LULL_OPT_H
#define LULL_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum lull_opt_kind {
	LULL_OPT_END,     /**< ends the table */
	LULL_OPT_SECTION, /**< no option: a heading in --help ("Ports:") */
	LULL_OPT_FLAG,    /**< no argument: sets a bool field */
	LULL_OPT_UINT,    /**< decimal integer in min..max into a 1-, 2-, 4- or 8-byte field */
	LULL_OPT_DOUBLE,  /**< real number in dmin..dmax into a double field */
	LULL_OPT_TEXT,    /**< parsed by the row's parse function */
};

/** The option may change on a running process (lullctl set). */
#define LULL_OPT_SETTABLE 0x1u
/** Left out of the describe output (config-show). */
#define LULL_OPT_NO_SHOW 0x2u
/** The default --help shows is prose ("round-robin", "burst/2"), not a value
 * the row parses: the tool sets that field itself (lull_opt_defaults skips it). */
#define LULL_OPT_DEF_PROSE 0x4u

struct lull_opt;

/**
 * Parse arg for row into target (the whole configuration struct; the row's
 * field is at target + row->offset). On error, write one line naming the
 * option into err, or leave err empty and the table writes "--NAME: bad value
 * 'ARG' (expected ROW->EXPECT)".
 */
typedef int lull_opt_parse_fn(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen);

/** Write the effective value of row in target to buf (describe). */
typedef void lull_opt_show_fn(
	const struct lull_opt *row, const void *target, char *buf, size_t len);

struct lull_opt {
	enum lull_opt_kind kind;
	const char *name; /**< long name without "--"; the heading of a section */
	char short_name;  /**< 'h', or 0 */
	const char *meta; /**< argument in --help: "N", "LIST" */
	size_t offset;    /**< field in the target struct */
	size_t size;      /**< its size (UINT) */
	uint64_t min, max;
	double dmin, dmax;
	const char *def;    /**< default as --help shows it; NULL = none shown */
	const char *help;   /**< what it does; wrapped by --help */
	const char *expect; /**< TEXT: what a good value looks like, for the error line */
	unsigned int flags; /**< LULL_OPT_SETTABLE, LULL_OPT_NO_SHOW */
	lull_opt_parse_fn *parse;
	lull_opt_show_fn *show; /**< NULL: numbers and flags are shown as they are */
};

#define LULL_OPT_FIELD_SIZE(type, field) sizeof(((type *)0)->field)
/** A number's macro as a row's default: the row and the code share one value. */
#define LULL_OPT_STR_(x) #x
#define LULL_OPT_STR(x)  LULL_OPT_STR_(x)

/** A heading in --help. */
#define LULL_OPT_SECTION_ROW(title)                                                                \
	{                                                                                          \
		.kind = LULL_OPT_SECTION, .name = (title)                                          \
	}
/** An integer option. */
#define LULL_OPT_UINT_ROW(type, field, nm, mt, lo, hi, df, hl, fl)                                 \
	{                                                                                          \
		.kind = LULL_OPT_UINT, .name = (nm), .meta = (mt),                                 \
		.offset = offsetof(type, field), .size = LULL_OPT_FIELD_SIZE(type, field),         \
		.min = (lo), .max = (hi), .def = (df), .help = (hl), .flags = (fl)                 \
	}
/** A real-valued option. */
#define LULL_OPT_DOUBLE_ROW(type, field, nm, mt, lo, hi, df, hl, fl)                               \
	{                                                                                          \
		.kind = LULL_OPT_DOUBLE, .name = (nm), .meta = (mt),                               \
		.offset = offsetof(type, field), .size = sizeof(double), .dmin = (lo),             \
		.dmax = (hi), .def = (df), .help = (hl), .flags = (fl)                             \
	}
/** A flag. */
#define LULL_OPT_FLAG_ROW(type, field, nm, sh, hl, fl)                                             \
	{                                                                                          \
		.kind = LULL_OPT_FLAG, .name = (nm), .short_name = (sh),                           \
		.offset = offsetof(type, field), .size = sizeof(bool), .help = (hl), .flags = (fl) \
	}
/** An option with its own parser (and, where it shows in describe, its own show). */
#define LULL_OPT_TEXT_ROW(type, field, nm, mt, df, hl, ex, fl, pf, sf)                             \
	{                                                                                          \
		.kind = LULL_OPT_TEXT, .name = (nm), .meta = (mt),                                 \
		.offset = offsetof(type, field), .def = (df), .help = (hl), .expect = (ex),        \
		.flags = (fl), .parse = (pf), .show = (sf)                                         \
	}
#define LULL_OPT_END_ROW                                                                           \
	{                                                                                          \
		.kind = LULL_OPT_END                                                               \
	}

/**
 * Parse argv (argv[0] = program) into target with table t. getopt is reset, so
 * it may be called again. A positional argument is an error.
 *
 * @return 0, or a negative errno with one line in err.
 */
int lull_opt_parse(
	const struct lull_opt *t, void *target, int argc, char **argv, char *err, size_t errlen);

/** The row of option name ("sleep-max-us" or "sleep_max_us"), or NULL. */
const struct lull_opt *lull_opt_find(const struct lull_opt *t, const char *name);

/**
 * Set one option as --name value would, into target. With settable_only, a row
 * without LULL_OPT_SETTABLE is refused by name.
 *
 * @return 0, or a negative errno with one line in err (target may be changed:
 *   work on a copy).
 */
int lull_opt_set(const struct lull_opt *t, void *target, const char *name, const char *value,
	bool settable_only, char *err, size_t errlen);

/**
 * Fill target with the defaults of table t: every row with a default that is
 * not prose (LULL_OPT_DEF_PROSE) parses it, so a default is written once, in
 * its row, and --help shows what the tool runs with. Fields of prose rows and
 * of rows without a default are left as they are (zero them first).
 *
 * @return 0, or a negative errno with one line in err: a row's default does
 *   not parse (a defect of the table; the unit tests walk every table).
 */
int lull_opt_defaults(const struct lull_opt *t, void *target, char *err, size_t errlen);

/**
 * Zero target (size bytes) and fill it with t's defaults; a default that does
 * not parse is a defect of the table (the unit tests walk every table): it
 * is printed, naming tool, and the process aborts.
 */
void lull_opt_fill_defaults(const struct lull_opt *t, void *target, size_t size, const char *tool);

/** The settable keys, space-separated, into buf. @return buf. */
const char *lull_opt_settable(const struct lull_opt *t, char *buf, size_t len);

/** Print the options, by section, with their defaults, wrapped at 80 columns. */
void lull_opt_usage(const struct lull_opt *t, FILE *f);

/** Call emit(ctx, name, value) with the effective value of every shown option. */
void lull_opt_describe(const struct lull_opt *t, const void *target,
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx);

/**
 * For a TEXT row whose field is an int-sized enum: pick arg from names[0..n).
 * On no match, err says "--NAME: bad value 'ARG' (expected a, b or c)".
 */
int lull_opt_pick(const struct lull_opt *row, const char *arg, const char *const *names, int n,
	int *out, char *err, size_t errlen);

/** lull_opt_pick() over the names name_of(0..n-1) ("io", "mac", ...). */
int lull_opt_pick_by(const struct lull_opt *row, const char *arg,
	const char *(*name_of)(unsigned int), unsigned int n, int *out, char *err, size_t errlen);

/** One line into err ("--NAME: bad value 'ARG' (WHY)"); returns ret. */
int lull_opt_bad(const struct lull_opt *row, const char *arg, int ret, const char *why, char *err,
	size_t errlen);

/** A row's parser and show for a bool field written "on" or "off" (settable, unlike a flag). */
lull_opt_parse_fn lull_opt_parse_onoff;
lull_opt_show_fn lull_opt_show_onoff;

/** A row's parser for a 6-byte MAC field ("02:00:00:00:00:01"). */
lull_opt_parse_fn lull_opt_parse_mac;

/** Words for a parse error code: "out of range", "malformed", ... */
const char *lull_opt_why(int ret);

#endif /* LULL_OPT_H */
