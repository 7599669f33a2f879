/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One default, written once (issue 29 item 4): a tool's defaults are its option
 * rows'. For every row of a table whose default is a value (not prose), parsing
 * "--NAME <the default --help prints>" must give the struct that no argument
 * gives; the rows whose default is prose are listed by the test, and must be
 * exactly those flagged LULL_OPT_DEF_PROSE (a new prose default is a decision,
 * not an accident).
 */
#ifndef LULL_TEST_DEFAULTS_WALK_H
#define LULL_TEST_DEFAULTS_WALK_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

/* Fill cfg with the tool's defaults, then parse argv (argv[0] = the tool). */
typedef int defaults_parse_fn(void *cfg, int argc, char **argv, char *err, size_t errlen);

static inline bool
in_list(const char *name, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

static inline void
defaults_walk(const char *tool, const struct lull_opt *t, size_t size, defaults_parse_fn *parse,
	const char *const *prose)
{
	char *none = calloc(1, size), *with = calloc(1, size), err[256];
	char *argv0[] = {(char *)tool, NULL};
	unsigned int literal = 0;

	assert_non_null(none);
	assert_non_null(with);
	if (parse(none, 1, argv0, err, sizeof(err)) != 0)
		fail_msg("%s with no argument: %s", tool, err);
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		char flag[80];
		char *argv[] = {(char *)tool, flag, (char *)o->def, NULL};

		if (o->kind == LULL_OPT_SECTION || o->kind == LULL_OPT_FLAG || o->def == NULL)
			continue;
		if (in_list(o->name, prose) != !!(o->flags & LULL_OPT_DEF_PROSE))
			fail_msg("%s --%s: default '%s' is %s prose by its row, %s in the test's "
				 "list",
				tool, o->name, o->def,
				(o->flags & LULL_OPT_DEF_PROSE) ? "flagged" : "not flagged",
				in_list(o->name, prose) ? "but" : "and not");
		if (o->flags & LULL_OPT_DEF_PROSE)
			continue;
		snprintf(flag, sizeof(flag), "--%s", o->name);
		memset(with, 0, size);
		if (parse(with, 3, argv, err, sizeof(err)) != 0)
			fail_msg("%s: the default --help prints does not parse: %s", tool, err);
		if (memcmp(none, with, size) != 0)
			fail_msg("%s --%s %s: not what no argument gives (the default is written "
				 "twice, differently)",
				tool, o->name, o->def);
		literal++;
	}
	for (const char *const *p = prose; *p != NULL; p++)
		if (lull_opt_find(t, *p) == NULL)
			fail_msg("%s: the test lists --%s, which the table lacks", tool, *p);
	print_message("%s: %u defaults parse to what no argument gives\n", tool, literal);
	free(none);
	free(with);
}

#endif /* LULL_TEST_DEFAULTS_WALK_H */
