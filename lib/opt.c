/* SPDX-License-Identifier: BSD-3-Clause */
#include "opt.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/** Rows a table may hold (getopt's array is on the stack). */
#define OPT_MAX_ROWS 96
/** Where --help starts the text of an option, and where it wraps. */
#define OPT_HELP_COL  24
#define OPT_HELP_WRAP 79

const char *
lull_opt_why(int ret)
{
	switch (ret) {
	case -ERANGE:
		return "out of range";
	case -E2BIG:
		return "too many items";
	case -EEXIST:
		return "repeated item";
	default:
		return "malformed";
	}
}

int
lull_opt_bad(const struct lull_opt *row, const char *arg, int ret, const char *why, char *err,
	size_t errlen)
{
	snprintf(err, errlen, "--%s: bad value '%s' (%s)", row->name, arg, why);
	return ret;
}

int
lull_opt_pick(const struct lull_opt *row, const char *arg, const char *const *names, int n,
	int *out, char *err, size_t errlen)
{
	char expected[160] = "";

	for (int k = 0; k < n; k++) {
		size_t used = strlen(expected);

		if (strcmp(arg, names[k]) == 0) {
			*out = k;
			return 0;
		}
		snprintf(expected + used, sizeof(expected) - used, "%s%s",
			k ? (k == n - 1 ? " or " : ", ") : "expected ", names[k]);
	}
	return lull_opt_bad(row, arg, -EINVAL, expected, err, errlen);
}

int
lull_opt_pick_by(const struct lull_opt *row, const char *arg, const char *(*name_of)(unsigned int),
	unsigned int n, int *out, char *err, size_t errlen)
{
	const char *names[32];

	if (n > sizeof(names) / sizeof(names[0]))
		return -E2BIG;
	for (unsigned int i = 0; i < n; i++)
		names[i] = name_of(i);
	return lull_opt_pick(row, arg, names, (int)n, out, err, errlen);
}

static const char *const off_on[] = {"off", "on"};

int
lull_opt_parse_onoff(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0, ret = lull_opt_pick(row, arg, off_on, 2, &k, err, errlen);

	if (ret == 0)
		*(bool *)((char *)target + row->offset) = k == 1;
	return ret;
}

void
lull_opt_show_onoff(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	snprintf(buf, len, "%s", off_on[*(const bool *)((const char *)target + row->offset)]);
}

static bool
is_option(const struct lull_opt *o)
{
	return o->kind != LULL_OPT_SECTION && o->kind != LULL_OPT_END;
}

const struct lull_opt *
lull_opt_find(const struct lull_opt *t, const char *name)
{
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		size_t i = 0;

		if (!is_option(o))
			continue;
		/* telemetry spells keys with '_', the command line with '-' */
		while (o->name[i] != '\0' &&
			(name[i] == o->name[i] || (name[i] == '_' && o->name[i] == '-')))
			i++;
		if (o->name[i] == '\0' && name[i] == '\0')
			return o;
	}
	return NULL;
}

static void
store_uint(void *field, size_t size, uint64_t v)
{
	switch (size) {
	case 1: {
		uint8_t x = (uint8_t)v;
		memcpy(field, &x, 1);
		break;
	}
	case 2: {
		uint16_t x = (uint16_t)v;
		memcpy(field, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;
		memcpy(field, &x, 4);
		break;
	}
	default:
		memcpy(field, &v, sizeof(v));
		break;
	}
}

static uint64_t
load_uint(const void *field, size_t size)
{
	uint8_t x8;
	uint16_t x16;
	uint32_t x32;
	uint64_t x64;

	switch (size) {
	case 1:
		memcpy(&x8, field, 1);
		return x8;
	case 2:
		memcpy(&x16, field, 2);
		return x16;
	case 4:
		memcpy(&x32, field, 4);
		return x32;
	default:
		memcpy(&x64, field, sizeof(x64));
		return x64;
	}
}

/* One option with its argument (NULL for a flag). */
static int
apply(const struct lull_opt *o, void *target, const char *arg, char *err, size_t errlen)
{
	char *field = (char *)target + o->offset;
	char why[96];
	int ret;

	switch (o->kind) {
	case LULL_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case LULL_OPT_UINT: {
		uint64_t v;

		ret = lull_parse_u64(arg, o->min, o->max, &v);
		if (ret < 0) {
			snprintf(why, sizeof(why), "%s; expected an integer in %llu..%llu",
				lull_opt_why(ret), (unsigned long long)o->min,
				(unsigned long long)o->max);
			return lull_opt_bad(o, arg, ret, why, err, errlen);
		}
		store_uint(field, o->size, v);
		return 0;
	}
	case LULL_OPT_DOUBLE: {
		double v;

		ret = lull_parse_double(arg, o->dmin, o->dmax, &v);
		if (ret < 0) {
			snprintf(why, sizeof(why), "%s; expected a number in %g..%g",
				lull_opt_why(ret), o->dmin, o->dmax);
			return lull_opt_bad(o, arg, ret, why, err, errlen);
		}
		memcpy(field, &v, sizeof(v));
		return 0;
	}
	case LULL_OPT_TEXT:
		err[0] = '\0';
		ret = o->parse(o, target, arg, err, errlen);
		if (ret < 0 && err[0] == '\0')
			lull_opt_bad(o, arg, ret, o->expect ? o->expect : lull_opt_why(ret), err,
				errlen);
		return ret;
	default:
		return -EINVAL;
	}
}

int
lull_opt_parse(
	const struct lull_opt *t, void *target, int argc, char **argv, char *err, size_t errlen)
{
	struct option lo[OPT_MAX_ROWS + 1];
	const struct lull_opt *row_of[OPT_MAX_ROWS];
	char shorts[2 * OPT_MAX_ROWS + 2] = ":";
	size_t n = 0, ns = 1;
	int opt, idx, ret = 0;

	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		if (!is_option(o))
			continue;
		if (n == OPT_MAX_ROWS)
			return -E2BIG; /* a table too large: a programming error */
		lo[n] = (struct option){o->name,
			o->kind == LULL_OPT_FLAG ? no_argument : required_argument, NULL,
			(int)(256 + n)};
		row_of[n++] = o;
		if (o->short_name != 0) {
			shorts[ns++] = o->short_name;
			if (o->kind != LULL_OPT_FLAG)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	lo[n] = (struct option){NULL, 0, NULL, 0};
	optind = 0; /* 0, not 1: glibc then fully resets getopt, so parsing can run again */
	opterr = 0; /* we print our own one-line errors */
	while (ret == 0 && (opt = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
		const struct lull_opt *o = NULL;

		if (opt >= 256 && (size_t)(opt - 256) < n)
			o = row_of[opt - 256];
		for (size_t i = 0;
			o == NULL && opt > 0 && opt < 256 && opt != '?' && opt != ':' && i < n; i++)
			if (row_of[i]->short_name == opt)
				o = row_of[i];
		if (o == NULL) { /* ':' missing value, '?' unknown option */
			ret = lull_getopt_error(opt, argv, err, errlen);
			break;
		}
		ret = apply(o, target, optarg, err, errlen);
	}
	if (ret == 0 && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		ret = -EINVAL;
	}
	return ret;
}

int
lull_opt_set(const struct lull_opt *t, void *target, const char *name, const char *value,
	bool settable_only, char *err, size_t errlen)
{
	const struct lull_opt *o = lull_opt_find(t, name);

	if (o == NULL || (settable_only && !(o->flags & LULL_OPT_SETTABLE))) {
		snprintf(
			err, errlen, "set: bad key '%.40s' (the settable list has the keys)", name);
		return -EINVAL;
	}
	if (o->kind == LULL_OPT_FLAG) {
		snprintf(err, errlen, "set: key '%s' takes no value", o->name);
		return -EINVAL;
	}
	return apply(o, target, value, err, errlen);
}

int
lull_opt_defaults(const struct lull_opt *t, void *target, char *err, size_t errlen)
{
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		int ret;

		if (!is_option(o) || o->kind == LULL_OPT_FLAG || o->def == NULL ||
			(o->flags & LULL_OPT_DEF_PROSE))
			continue;
		ret = apply(o, target, o->def, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void
lull_opt_fill_defaults(const struct lull_opt *t, void *target, size_t size, const char *tool)
{
	char err[192];

	memset(target, 0, size);
	if (lull_opt_defaults(t, target, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: option table: %s\n", tool, err);
		abort();
	}
}

const char *
lull_opt_settable(const struct lull_opt *t, char *buf, size_t len)
{
	size_t used = 0;

	if (len > 0)
		buf[0] = '\0';
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++)
		if (is_option(o) && (o->flags & LULL_OPT_SETTABLE) && used < len)
			used += (size_t)snprintf(
				buf + used, len - used, "%s%s", used ? " " : "", o->name);
	return buf;
}

/* Words of text from column col, wrapped at OPT_HELP_WRAP, continued at OPT_HELP_COL. */
static void
wrap(FILE *f, const char *text, int col)
{
	const char *p = text;

	while (*p != '\0') {
		size_t word = strcspn(p, " \n");

		if (col > OPT_HELP_COL && col + 1 + (int)word > OPT_HELP_WRAP) {
			fprintf(f, "\n%*s", OPT_HELP_COL, "");
			col = OPT_HELP_COL;
		} else if (col > OPT_HELP_COL) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, word, f);
		col += (int)word;
		p += word;
		if (*p == '\n') {
			fprintf(f, "\n%*s", OPT_HELP_COL, "");
			col = OPT_HELP_COL;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
}

void
lull_opt_usage(const struct lull_opt *t, FILE *f)
{
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		char head[64], text[512];
		int col;

		if (o->kind == LULL_OPT_SECTION) {
			fprintf(f, "%s:\n", o->name);
			continue;
		}
		if (o->short_name != 0)
			col = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->short_name,
				o->name, o->meta ? " " : "", o->meta ? o->meta : "");
		else
			col = snprintf(head, sizeof(head), "  --%s%s%s", o->name,
				o->meta ? " " : "", o->meta ? o->meta : "");
		fputs(head, f);
		if (col >= OPT_HELP_COL - 1) {
			fprintf(f, "\n%*s", OPT_HELP_COL, "");
		} else {
			fprintf(f, "%*s", OPT_HELP_COL - col, "");
		}
		snprintf(text, sizeof(text), "%s%s%s%s%s", o->help ? o->help : "",
			o->def ? " (default " : "", o->def ? o->def : "", o->def ? ")" : "",
			(o->flags & LULL_OPT_SETTABLE) ? " [settable]" : "");
		wrap(f, text, OPT_HELP_COL);
		fputc('\n', f);
	}
}

void
lull_opt_describe(const struct lull_opt *t, const void *target,
	void (*emit)(void *ctx, const char *key, const char *value), void *ctx)
{
	for (const struct lull_opt *o = t; o->kind != LULL_OPT_END; o++) {
		const char *field = (const char *)target + o->offset;
		char buf[1024];

		if (!is_option(o) || (o->flags & LULL_OPT_NO_SHOW) || o->kind == LULL_OPT_FLAG)
			continue;
		if (o->show != NULL) {
			buf[0] = '\0';
			o->show(o, target, buf, sizeof(buf));
		} else if (o->kind == LULL_OPT_UINT) {
			snprintf(buf, sizeof(buf), "%llu",
				(unsigned long long)load_uint(field, o->size));
		} else if (o->kind == LULL_OPT_DOUBLE) {
			double v;

			memcpy(&v, field, sizeof(v));
			snprintf(buf, sizeof(buf), "%g", v);
		} else {
			continue; /* text without a show: not described */
		}
		emit(ctx, o->name, buf);
	}
}

int
lull_opt_parse_mac(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return lull_parse_mac(arg, (uint8_t *)target + row->offset) == 0 ? 0 : -EINVAL;
}
