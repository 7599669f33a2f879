/* SPDX-License-Identifier: BSD-3-Clause */
#include "profile.h"

#include "opt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* A non-negative decimal number (digits, at most one '.') at the start of s; *end after it. */
static int
parse_decimal(const char *s, double *v, const char **end)
{
	const char *p = s;
	int dots = 0;

	while (isdigit((unsigned char)*p) || (*p == '.' && dots++ == 0))
		p++;
	if (p == s || !isdigit((unsigned char)s[0]) || p[-1] == '.')
		return -EINVAL;
	*v = strtod(s, NULL);
	*end = p;
	return 0;
}

int
lull_parse_rate(const char *s, double *pps)
{
	const char *end;
	double v, mult = 1;

	if (parse_decimal(s, &v, &end) < 0)
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		mult = 1e3, end++;
	else if (*end == 'M')
		mult = 1e6, end++;
	else if (*end == 'G')
		mult = 1e9, end++;
	if (*end != '\0')
		return -EINVAL;
	v *= mult;
	if (!(v > 0) || v > 1e9)
		return -ERANGE;
	*pps = v;
	return 0;
}

int
lull_parse_time_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"h", 3.6e12}};
	const char *end;
	double v;

	if (parse_decimal(s, &v, &end) < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			double t = v * units[i].ns;

			if (!(t >= 1) || t > 86400e9)
				return -ERANGE;
			*ns = (uint64_t)llround(t);
			return 0;
		}
	}
	return -EINVAL;
}

/* Split token at ':' into at most max fields (in place). */
static unsigned int
split_fields(char *tok, char **fields, unsigned int max)
{
	unsigned int n = 0;

	for (char *p = tok; n < max;) {
		fields[n++] = p;
		p = strchr(p, ':');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

static int
parse_pair_time(const char *s, uint64_t *a, uint64_t *b)
{
	char first[32];
	const char *second = lull_split(s, '/', first, sizeof(first));

	if (second == NULL || lull_parse_time_ns(first, a) < 0 || lull_parse_time_ns(second, b) < 0)
		return -EINVAL;
	return 0;
}

static int
parse_phase(const char *token, struct lull_phase *ph)
{
	char buf[64], *f[5];
	unsigned int n;
	uint32_t burst;
	char count[16];
	const char *period;

	if (strlen(token) >= sizeof(buf))
		return -EINVAL;
	memset(ph, 0, sizeof(*ph));
	snprintf(ph->text, sizeof(ph->text), "%s", token);
	snprintf(buf, sizeof(buf), "%s", token);
	n = split_fields(buf, f, 5);
	if (n < 2 || lull_parse_time_ns(f[n - 1], &ph->duration_ns) < 0)
		return -EINVAL;
	if (strcmp(f[0], "idle") == 0 && n == 2) {
		ph->kind = LULL_PHASE_IDLE;
	} else if (strcmp(f[0], "max") == 0 && n == 2) {
		ph->kind = LULL_PHASE_MAX;
	} else if (strcmp(f[0], "rate") == 0 && n == 3) {
		ph->kind = LULL_PHASE_RATE;
		return lull_parse_rate(f[1], &ph->rate_pps) < 0 ? -EINVAL : 0;
	} else if (strcmp(f[0], "poisson") == 0 && n == 3) {
		ph->kind = LULL_PHASE_POISSON;
		return lull_parse_rate(f[1], &ph->rate_pps) < 0 ? -EINVAL : 0;
	} else if (strcmp(f[0], "burst") == 0 && n == 3) {
		ph->kind = LULL_PHASE_BURST;
		period = lull_split(f[1], '/', count, sizeof(count));
		if (period == NULL || lull_parse_u32(count, 1, 1000000, &burst) < 0 ||
			lull_parse_time_ns(period, &ph->period_ns) < 0)
			return -EINVAL;
		ph->burst_n = burst;
	} else if (strcmp(f[0], "onoff") == 0 && n == 4) {
		ph->kind = LULL_PHASE_ONOFF;
		if (lull_parse_rate(f[1], &ph->rate_pps) < 0 ||
			parse_pair_time(f[2], &ph->on_ns, &ph->off_ns) < 0)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return 0;
}

int
lull_profile_parse(const char *s, struct lull_profile *p, char *err, size_t errlen)
{
	const char *cur = s;

	p->n = 0;
	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "--profile: empty profile");
		return -EINVAL;
	}
	for (;;) {
		char token[128];
		const char *comma = strchr(cur, ',');
		size_t len = comma ? (size_t)(comma - cur) : strlen(cur);

		if (len >= sizeof(token))
			len = sizeof(token) - 1;
		memcpy(token, cur, len);
		token[len] = '\0';
		if (p->n == LULL_MAX_PHASES) {
			snprintf(err, errlen, "--profile: more than %d phases at '%s'",
				LULL_MAX_PHASES, token);
			return -E2BIG;
		}
		if (parse_phase(token, &p->phases[p->n]) < 0) {
			snprintf(err, errlen,
				"--profile: bad phase '%s' (expected idle:T, rate:R:T, "
				"poisson:R:T, burst:N/T:T, onoff:R:T/T:T or max:T; R like 10k, T "
				"like 5s)",
				token);
			return -EINVAL;
		}
		p->n++;
		if (comma == NULL)
			return 0;
		cur = comma + 1;
	}
}

double
lull_phase_offered_pps(const struct lull_phase *ph)
{
	switch (ph->kind) {
	case LULL_PHASE_RATE:
	case LULL_PHASE_POISSON:
		return ph->rate_pps;
	case LULL_PHASE_BURST:
		return ph->burst_n * 1e9 / (double)ph->period_ns;
	case LULL_PHASE_ONOFF:
		return ph->rate_pps * (double)ph->on_ns / (double)(ph->on_ns + ph->off_ns);
	case LULL_PHASE_MAX:
		return -1;
	case LULL_PHASE_IDLE:
	default:
		return 0;
	}
}

int
lull_opt_parse_profile(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	return lull_profile_parse(
		arg, (struct lull_profile *)((char *)target + row->offset), err, errlen);
}
