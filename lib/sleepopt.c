/* SPDX-License-Identifier: BSD-3-Clause */
#include "sleepopt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows alone, for lull_sleep_opts_defaults(). */
struct sleep_only {
	struct lull_sleep_opts s;
};
static const struct lull_opt sleep_rows[] = {
	LULL_SLEEP_OPT_ROWS(struct sleep_only, s, NULL),
	LULL_OPT_END_ROW,
};

void
lull_sleep_opts_defaults(struct lull_sleep_opts *s)
{
	lull_opt_fill_defaults(sleep_rows, s, sizeof(*s), "sleep options");
}

void
lull_sleep_opts_params(const struct lull_sleep_opts *s, unsigned int core, uint32_t burst,
	uint32_t min_ring, struct lull_policy_params *p)
{
	lull_policy_defaults(p, s->policy, burst, min_ring);
	p->max_sleep_ns =
		(uint64_t)lull_sleeplist_get(&s->max_us, core, LULL_DEFAULT_SLEEP_MAX_US) * 1000;
	p->step_ns = (uint64_t)s->step_us * 1000;
	if (s->busy_threshold != 0)
		p->busy_threshold = s->busy_threshold;
	p->window = s->window;
	p->budget_ns = (uint64_t)s->budget_us * 1000;
	p->linger_ns = (uint64_t)s->linger_us * 1000;
	p->burst_tol = s->burst_tol;
	p->strict_budget = s->strict_budget;
	if (p->max_sleep_ns == 0) /* a PMD whose maximum is 0 busy-polls, as in OVS */
		p->kind = LULL_POLICY_OFF;
}

static const char *
policy_name(unsigned int k)
{
	return lull_policy_name((enum lull_policy_kind)k);
}

int
lull_sleep_opt_parse_policy(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0,
	    ret = lull_opt_pick_by(row, arg, policy_name, LULL_POLICY_N_KINDS, &k, err, errlen);

	if (ret == 0)
		*(enum lull_policy_kind *)((char *)target + row->offset) = (enum lull_policy_kind)k;
	return ret;
}

void
lull_sleep_opt_show_policy(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		lull_policy_name(
			*(const enum lull_policy_kind *)((const char *)target + row->offset)));
}

int
lull_sleep_opt_parse_max(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	char why[384];
	int ret = lull_sleeplist_parse(
		arg, (struct lull_sleeplist *)((char *)target + row->offset), why, sizeof(why));

	if (ret < 0)
		snprintf(err, errlen, "--%s: %s", row->name, why);
	return ret;
}

void
lull_sleep_opt_show_max(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	const struct lull_sleeplist *sl =
		(const struct lull_sleeplist *)((const char *)target + row->offset);
	size_t used = (size_t)snprintf(
		buf, len, "%u", sl->has_default ? sl->default_us : LULL_DEFAULT_SLEEP_MAX_US);

	for (unsigned int i = 0; i < sl->n && used < len; i++)
		used += (size_t)snprintf(
			buf + used, len - used, ",%u:%u", sl->entries[i].core, sl->entries[i].us);
}
