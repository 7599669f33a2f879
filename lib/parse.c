/* SPDX-License-Identifier: BSD-3-Clause */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int
lull_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s == '\0' || !isdigit((unsigned char)*s))
		return -EINVAL; /* rejects "", " 1", "-1", "+1" */
	errno = 0;
	v = strtoull(s, &end, 10); /* decimal only: "032" is 32, "0x10" is malformed */
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int
lull_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = lull_parse_u64(s, min, max, &v);

	if (ret == 0)
		*out = (uint32_t)v;
	return ret;
}

int
lull_errf(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

int
lull_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0' || *s == ' ')
		return -EINVAL;
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static bool
list_has(const unsigned int *v, unsigned int n, unsigned int x)
{
	for (unsigned int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

int
lull_parse_uint_list(
	const char *s, unsigned int max, unsigned int *out, unsigned int cap, unsigned int *n_out)
{
	unsigned int n = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (;;) {
		char item[32];
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *dash;
		uint32_t lo, hi;
		int ret;

		if (len == 0 || len >= sizeof(item))
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		dash = strchr(item, '-');
		if (dash != NULL) {
			char first[32];

			if (lull_split(item, '-', first, sizeof(first)) == NULL)
				return -EINVAL;
			ret = lull_parse_u32(first, 0, max, &lo);
			if (ret == 0)
				ret = lull_parse_u32(dash + 1, 0, max, &hi);
			if (ret == 0 && hi < lo)
				ret = -EINVAL;
		} else {
			ret = lull_parse_u32(item, 0, max, &lo);
			hi = lo;
		}
		if (ret < 0)
			return ret;
		for (uint32_t v = lo; v <= hi; v++) {
			if (list_has(out, n, v))
				return -EEXIST;
			if (n == cap)
				return -E2BIG;
			out[n++] = v;
		}
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	*n_out = n;
	return 0;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
lull_parse_mac(const char *s, uint8_t mac[6])
{
	uint8_t tmp[6];

	if (s == NULL || strlen(s) != 17)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		int hi = hex_digit(s[3 * i]), lo = hex_digit(s[3 * i + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			return -EINVAL;
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, tmp, sizeof(tmp));
	return 0;
}

const char *
lull_split(const char *s, char sep, char *head, size_t head_len)
{
	const char *at = strchr(s, sep);
	size_t len;

	if (at == NULL)
		return NULL;
	len = (size_t)(at - s);
	if (len >= head_len)
		return NULL;
	memcpy(head, s, len);
	head[len] = '\0';
	return at + 1;
}

int
lull_getopt_error(int opt, char **argv, char *err, size_t errlen)
{
	if (opt == ':')
		snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
	else if (optopt != 0 && optopt < 256)
		snprintf(err, errlen, "unknown option '-%c' (see --help)", optopt);
	else
		snprintf(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
	return -EINVAL;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
lull_split_kv(char *s, char **key, char **value)
{
	char *end;

	while (blank(*s))
		s++;
	*key = s;
	while (*s != '\0' && !blank(*s) && *s != '=')
		s++;
	if (s == *key || *s == '\0')
		return -EINVAL;
	*s++ = '\0';
	while (blank(*s) || *s == '=')
		s++;
	*value = s;
	end = s + strlen(s);
	while (end > s && blank(end[-1]))
		*--end = '\0';
	return **value == '\0' ? -EINVAL : 0;
}
