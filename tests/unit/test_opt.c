/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/opt.c: one option table drives parsing, set, --help, describe and the settable list. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opt.h"

struct demo {
	uint16_t small;
	uint32_t count;
	uint64_t big;
	double ratio;
	int color;
	bool verbose;
};

static const char *const colors[] = {"red", "green", "blue"};

static int
parse_color(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = lull_opt_pick(row, arg, colors, 3, &k, err, errlen);

	if (ret == 0)
		((struct demo *)target)->color = k;
	return ret;
}

static void
show_color(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	(void)row;
	snprintf(buf, len, "%s", colors[((const struct demo *)target)->color]);
}

static const struct lull_opt demo_opts[] = {
	LULL_OPT_SECTION_ROW("Numbers"),
	LULL_OPT_UINT_ROW(struct demo, small, "small", "N", 1, 1000, "10", "a small one", 0),
	LULL_OPT_UINT_ROW(struct demo, count, "count", "N", 0, 100, "5",
		"how many times the demo runs its loop before it stops to look at the result",
		LULL_OPT_SETTABLE),
	LULL_OPT_UINT_ROW(
		struct demo, big, "big", "N", 0, UINT64_MAX, "0", "a big one", LULL_OPT_NO_SHOW),
	LULL_OPT_DOUBLE_ROW(
		struct demo, ratio, "ratio", "F", 0.5, 2.0, "1", "a ratio", LULL_OPT_SETTABLE),
	LULL_OPT_SECTION_ROW("Words"),
	LULL_OPT_TEXT_ROW(struct demo, color, "color", "C", "red", "red, green or blue", NULL,
		LULL_OPT_SETTABLE, parse_color, show_color),
	LULL_OPT_FLAG_ROW(struct demo, verbose, "verbose", 'v', "say more", 0),
	LULL_OPT_END_ROW,
};

static int
parse_line(struct demo *d, const char *line, char *err, size_t errlen)
{
	char buf[256];
	char *argv[16];
	int argc = 0;

	memset(d, 0, sizeof(*d));
	argv[argc++] = (char *)"demo";
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *tok = strtok(buf, " "); tok != NULL && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	err[0] = '\0';
	return lull_opt_parse(demo_opts, d, argc, argv, err, errlen);
}

static void
test_parse_good(void **state)
{
	struct demo d;
	char err[256];

	(void)state;
	assert_int_equal(parse_line(&d,
				 "--small 1000 --count 0 --big 18446744073709551615 --ratio 0.5 "
				 "--color blue -v",
				 err, sizeof(err)),
		0);
	assert_int_equal(d.small, 1000);
	assert_int_equal(d.count, 0);
	assert_true(d.big == UINT64_MAX);
	assert_true(d.ratio == 0.5);
	assert_int_equal(d.color, 2);
	assert_true(d.verbose);
	/* parsing again starts getopt afresh */
	assert_int_equal(parse_line(&d, "--count=7 --verbose", err, sizeof(err)), 0);
	assert_int_equal(d.count, 7);
	assert_true(d.verbose);
}

static void
test_parse_bad(void **state)
{
	static const struct {
		const char *line, *msg;
		int ret;
	} cases[] = {
		{"--small 0",
			"--small: bad value '0' (out of range; expected an integer in 1..1000)",
			-ERANGE},
		{"--small 1001", "--small: bad value '1001' (out of range", -ERANGE},
		{"--small abc", "--small: bad value 'abc' (malformed", -EINVAL},
		{"--small -1", "--small: bad value '-1'", -EINVAL},
		{"--count 1e3", "--count: bad value '1e3'", -EINVAL},
		{"--ratio 3", "--ratio: bad value '3' (out of range; expected a number in 0.5..2)",
			-ERANGE},
		{"--ratio nan", "--ratio: bad value 'nan'", -EINVAL},
		{"--color pink", "--color: bad value 'pink' (expected red, green or blue)",
			-EINVAL},
		{"--nope 1", "unknown option '--nope'", -EINVAL},
		{"--small", "option '--small' needs a value", -EINVAL},
		{"stray", "unexpected argument 'stray'", -EINVAL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct demo d;
		char err[256];
		int ret = parse_line(&d, cases[i].line, err, sizeof(err));

		if (ret != cases[i].ret || strstr(err, cases[i].msg) == NULL)
			fail_msg("'%s': got %d '%s', want %d '%s'", cases[i].line, ret, err,
				cases[i].ret, cases[i].msg);
	}
}

static void
test_set(void **state)
{
	struct demo d = {0};
	char err[256], keys[128];

	(void)state;
	assert_int_equal(lull_opt_set(demo_opts, &d, "count", "9", true, err, sizeof(err)), 0);
	assert_int_equal(d.count, 9);
	assert_int_equal(lull_opt_set(demo_opts, &d, "color", "green", true, err, sizeof(err)), 0);
	assert_int_equal(d.color, 1);
	/* not settable at run time: refused by name; at start it is fine */
	assert_int_equal(
		lull_opt_set(demo_opts, &d, "small", "5", true, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad key 'small'"));
	assert_int_equal(lull_opt_set(demo_opts, &d, "small", "5", false, err, sizeof(err)), 0);
	assert_int_equal(
		lull_opt_set(demo_opts, &d, "count", "101", true, err, sizeof(err)), -ERANGE);
	assert_non_null(strstr(err, "--count: bad value '101'"));
	assert_int_equal(
		lull_opt_set(demo_opts, &d, "verbose", "1", false, err, sizeof(err)), -EINVAL);
	assert_non_null(lull_opt_find(demo_opts, "ratio"));
	assert_null(lull_opt_find(demo_opts, "Numbers")); /* a section is no option */
	assert_null(lull_opt_find(demo_opts, "rat"));
	assert_string_equal(lull_opt_settable(demo_opts, keys, sizeof(keys)), "count ratio color");
}

struct seen {
	char text[256];
};

static void
emit(void *ctx, const char *key, const char *value)
{
	struct seen *s = ctx;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof(s->text) - used, "%s=%s;", key, value);
}

static void
test_describe_and_usage(void **state)
{
	struct demo d = {.small = 3, .count = 4, .big = 5, .ratio = 1.5, .color = 2};
	struct seen s = {""};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	lull_opt_describe(demo_opts, &d, emit, &s);
	/* big is NO_SHOW, a flag is not described */
	assert_string_equal(s.text, "small=3;count=4;ratio=1.5;color=blue;");
	assert_non_null(f);
	lull_opt_usage(demo_opts, f);
	fclose(f);
	assert_non_null(
		strstr(text, "Numbers:\n  --small N             a small one (default 10)\n"));
	assert_non_null(strstr(text, "  -v, --verbose         say more\n"));
	assert_non_null(strstr(text, "(default red) [settable]"));
	/* long help wraps at 79 columns, continued under the text column */
	for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
		assert_true(strlen(line) <= 79);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_describe_and_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
