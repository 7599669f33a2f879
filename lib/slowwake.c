/* SPDX-License-Identifier: BSD-3-Clause */
#include "slowwake.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const names[LULL_SLOWWAKE_N] = {"off", "slow-vm"};

const char *
lull_slowwake_name(unsigned int k)
{
	return k < LULL_SLOWWAKE_N ? names[k] : NULL;
}

int
lull_slowwake_preset(const char *name, struct lull_slowwake_params *p)
{
	memset(p, 0, sizeof(*p));
	if (strcmp(name, "off") == 0)
		return 0;
	if (strcmp(name, "slow-vm") == 0) {
		p->cpu_ns = 42000;
		p->cpu_spike_every = 100;
		p->cpu_spike_ns = 160000;
		p->late_base_ns = 30000;
		p->late_tail_mean_ns = 23000;
		p->stall_every = 2000;
		p->stall_min_ns = 2000000;
		p->stall_max_ns = 5000000;
		return 0;
	}
	return -EINVAL;
}

const char *
lull_slowwake_name_of(const struct lull_slowwake_params *p)
{
	struct lull_slowwake_params q;

	for (unsigned int k = 0; k < LULL_SLOWWAKE_N; k++)
		if (lull_slowwake_preset(names[k], &q) == 0 && memcmp(&q, p, sizeof(q)) == 0)
			return names[k];
	return "custom";
}

int
lull_slowwake_opt_parse(
	const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	int k = 0,
	    ret = lull_opt_pick_by(row, arg, lull_slowwake_name, LULL_SLOWWAKE_N, &k, err, errlen);

	if (ret == 0)
		lull_slowwake_preset(
			arg, (struct lull_slowwake_params *)((char *)target + row->offset));
	return ret;
}

void
lull_slowwake_opt_show(const struct lull_opt *row, const void *target, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		lull_slowwake_name_of(
			(const struct lull_slowwake_params *)((const char *)target + row->offset)));
}

int
lull_slowwake_on(const struct lull_slowwake_params *p)
{
	return p->cpu_ns || p->cpu_spike_every || p->late_base_ns || p->late_tail_mean_ns ||
	       p->stall_every;
}

void
lull_slowwake_init(struct lull_slowwake *s, const struct lull_slowwake_params *p, uint64_t seed)
{
	s->p = *p;
	s->rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
}

static uint64_t
next(struct lull_slowwake *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

/* uniform in (0, 1] */
static double
unit(struct lull_slowwake *s)
{
	return ((double)(next(s) >> 11) + 1.0) / 9007199254740992.0;
}

static int
one_in(struct lull_slowwake *s, uint32_t every)
{
	return every > 0 && next(s) % every == 0;
}

static uint64_t
late_ns(struct lull_slowwake *s)
{
	uint64_t ns = s->p.late_base_ns;

	if (s->p.late_tail_mean_ns > 0)
		ns += (uint64_t)(-log(unit(s)) * (double)s->p.late_tail_mean_ns);
	if (one_in(s, s->p.stall_every))
		ns += s->p.stall_min_ns +
		      (uint64_t)(unit(s) * (double)(s->p.stall_max_ns - s->p.stall_min_ns));
	return ns;
}

void
lull_slowwake_draw(struct lull_slowwake *s, uint64_t *late, uint64_t *cpu)
{
	*cpu = one_in(s, s->p.cpu_spike_every) ? s->p.cpu_spike_ns : s->p.cpu_ns;
	*late = late_ns(s);
	if (*late < *cpu)
		*late = *cpu;
}
