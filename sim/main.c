/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull-sim [options]: one simulated PMD per load phase; a row each.
 * See sim_usage() and docs/simulation.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

struct row {
	const char *load;
	double offered_pps, fwd_pps, cpu_pct, waits_ps, intr_ps;
	double p50_us, p99_us, max_us, miss_pct;
	uint64_t dropped, arrivals;
};

static void
traffic_of_phase(struct sim_traffic *t, const struct lull_phase *ph, const struct sim_pmd_model *m)
{
	double line = t->line_rate_pps;
	uint64_t start = t->start_ns;

	memset(t, 0, sizeof(*t));
	t->line_rate_pps = line;
	t->start_ns = start;
	switch (ph->kind) {
	case LULL_PHASE_IDLE:
		t->kind = SIM_TRAFFIC_IDLE;
		break;
	case LULL_PHASE_RATE:
		t->kind = SIM_TRAFFIC_CONST;
		t->rate_pps = ph->rate_pps;
		break;
	case LULL_PHASE_POISSON:
		t->kind = SIM_TRAFFIC_POISSON;
		t->rate_pps = ph->rate_pps;
		break;
	case LULL_PHASE_BURST:
		t->kind = SIM_TRAFFIC_BURST;
		t->burst_n = ph->burst_n;
		t->period_ns = ph->period_ns;
		break;
	case LULL_PHASE_ONOFF:
		t->kind = SIM_TRAFFIC_ONOFF;
		t->rate_pps = ph->rate_pps;
		t->on_ns = ph->on_ns;
		t->off_ns = ph->off_ns;
		break;
	case LULL_PHASE_MAX:
	default:
		/* the wire's rate, or what one core forwards when there is no wire */
		t->kind = SIM_TRAFFIC_CONST;
		t->rate_pps = line > 0 ? line : 1e9 / (m->pkt_ns > 0 ? m->pkt_ns : 1);
		break;
	}
}

static int
run_one(const struct sim_config *cfg, const char *load, double offered, struct row *r)
{
	struct sim_result *res = malloc(sizeof(*res));
	double secs;
	int ret;

	if (res == NULL)
		return -ENOMEM;
	ret = sim_run(cfg, res);
	if (ret == 0) {
		secs = res->total_ns / 1e9;
		r->load = load;
		r->offered_pps = offered;
		r->fwd_pps = (double)res->forwarded / secs;
		r->cpu_pct = 100.0 * res->busy_ns / res->total_ns;
		r->waits_ps = (double)res->waits / secs;
		r->intr_ps = (double)res->intr_waits / secs;
		r->p50_us = (double)lull_hist_quantile(&res->lat_ns, 0.5) / 1e3;
		r->p99_us = (double)lull_hist_quantile(&res->lat_ns, 0.99) / 1e3;
		r->max_us = (double)res->lat_ns.max / 1e3;
		r->dropped = res->dropped_total;
		r->miss_pct = res->waits > res->intr_waits
				      ? 100.0 * (double)res->budget_misses /
						(double)(res->waits - res->intr_waits)
				      : 0.0;
		r->arrivals = res->arrivals;
	}
	free(res);
	return ret;
}

static void
print_rows(const struct sim_options *o, const struct row *rows, unsigned int n)
{
	const struct sim_config *c = &o->base;

	if (o->json) {
		printf("{\"preset\": \"%s\", \"policy\": \"%s\", \"max_us\": %.0f, \"budget_us\": "
		       "%.0f, "
		       "\"seed\": %llu, \"rows\": [",
			o->preset, lull_policy_name(c->policy.kind), c->policy.max_sleep_ns / 1e3,
			c->policy.budget_ns / 1e3, (unsigned long long)c->seed);
		for (unsigned int i = 0; i < n; i++)
			printf("%s\n  {\"load\": \"%s\", \"offered_pps\": %.1f, \"fwd_pps\": %.1f, "
			       "\"cpu_pct\": %.2f, \"waits_per_s\": %.1f, \"intr_waits_per_s\": "
			       "%.1f, "
			       "\"p50_us\": %.3f, \"p99_us\": %.3f, \"max_us\": %.3f, \"dropped\": "
			       "%llu, "
			       "\"arrivals\": %llu, \"budget_miss_pct\": %.3f}",
				i ? "," : "", rows[i].load, rows[i].offered_pps, rows[i].fwd_pps,
				rows[i].cpu_pct, rows[i].waits_ps, rows[i].intr_ps, rows[i].p50_us,
				rows[i].p99_us, rows[i].max_us, (unsigned long long)rows[i].dropped,
				(unsigned long long)rows[i].arrivals, rows[i].miss_pct);
		printf("\n]}\n");
		return;
	}
	if (o->csv) {
		printf("preset,policy,max_us,budget_us,load,offered_pps,fwd_pps,cpu_pct,waits_per_"
		       "s,"
		       "intr_waits_per_s,p50_us,p99_us,max_us,dropped,arrivals,budget_miss_pct\n");
		for (unsigned int i = 0; i < n; i++)
			printf("%s,%s,%.0f,%.0f,%s,%.1f,%.1f,%.2f,%.1f,%.1f,%.3f,%.3f,%.3f,%llu,%"
			       "llu,%.3f\n",
				o->preset, lull_policy_name(c->policy.kind),
				c->policy.max_sleep_ns / 1e3, c->policy.budget_ns / 1e3,
				rows[i].load, rows[i].offered_pps, rows[i].fwd_pps, rows[i].cpu_pct,
				rows[i].waits_ps, rows[i].intr_ps, rows[i].p50_us, rows[i].p99_us,
				rows[i].max_us, (unsigned long long)rows[i].dropped,
				(unsigned long long)rows[i].arrivals, rows[i].miss_pct);
		return;
	}
	printf("lull-sim: preset %s, policy %s, max %.0f us, budget %.0f us, %u queue(s) x %u, "
	       "seed %llu\n",
		o->preset, lull_policy_name(c->policy.kind), c->policy.max_sleep_ns / 1e3,
		c->policy.budget_ns / 1e3, c->pmd.n_queues, c->pmd.ring,
		(unsigned long long)c->seed);
	printf("%-26s %12s %12s %7s %9s %9s %10s %10s %10s %9s %7s\n", "load", "offered-pps",
		"fwd-pps", "CPU%", "waits/s", "intr/s", "p50-us", "p99-us", "max-us", "dropped",
		"miss%");
	for (unsigned int i = 0; i < n; i++)
		printf("%-26s %12.0f %12.0f %7.1f %9.0f %9.0f %10.2f %10.2f %10.2f %9llu %7.2f\n",
			rows[i].load, rows[i].offered_pps, rows[i].fwd_pps, rows[i].cpu_pct,
			rows[i].waits_ps, rows[i].intr_ps, rows[i].p50_us, rows[i].p99_us,
			rows[i].max_us, (unsigned long long)rows[i].dropped, rows[i].miss_pct);
}

/* The fleet's header: a CSV header, the JSON's opening, or the table's title. */
static void
fleet_print_head(const struct sim_options *o)
{
	const struct sim_fleet_config *f = &o->fleet;

	if (o->csv) {
		printf("preset,pmds,rxqs,peak_pps,trough_pct,day_s,variant,cpu_hours,awake_pmds,"
		       "min_awake,packs,unpacks,spreads,moves,move_mean_us,move_max_us,"
		       "hold_max_us,held,dropped_move,dropped_over,arrivals,p50_us,p99_us,"
		       "max_load_pct,over_windows,miss_windows\n");
		return;
	}
	if (o->json) {
		printf("{\"preset\": \"%s\", \"pmds\": %u, \"rxqs_per_pmd\": %u, "
		       "\"peak_pps\": %.0f, \"rows\": [",
			o->preset, f->n_pmds, f->rxqs_per_pmd, f->peak_pps);
		return;
	}
	printf("lull-sim fleet: preset %s, %u PMDs x %u rx queues, day %.0f s: peak %.0f pps, "
	       "trough %.0f %% of it; policy %s, budget %.0f us; consolidate at %.0f/%.0f %%, "
	       "dwell %.1f s\n"
	       "%-26s %9s %7s %5s %6s %7s %7s %6s %9s %9s %9s %9s %8s %8s %8s %6s\n",
		o->preset, f->n_pmds, f->rxqs_per_pmd, f->day_ns / 1e9, f->peak_pps,
		100 * f->trough_share, lull_policy_name(f->base.policy.kind),
		f->base.policy.budget_ns / 1e3, 100 * f->cons.pack_below,
		100 * f->cons.unpack_above, f->cons.dwell_ns / 1e9, "variant", "CPU-h/day", "awake",
		"min", "packs", "unpacks", "spreads", "moves", "move-max", "hold-max", "held",
		"dropped", "p50-us", "p99-us", "max-load", "over");
}

/* One variant of the fleet: a CSV line, a JSON row (v: its index) or a table row. */
static void
fleet_print_row(const struct sim_options *o, const char *label, const struct sim_fleet_result *x,
	unsigned int v)
{
	const struct sim_fleet_config *f = &o->fleet;
	double day_s = f->day_ns / 1e9, cpu_h = x->cpu_core_s / 3600 * (86400 / day_s);
	double awake = x->awake_pmd_s / day_s;
	unsigned long long dropped = x->dropped_move + x->dropped_over;

	if (o->csv)
		printf("%s,%u,%u,%.0f,%.0f,%.0f,%s,%.3f,%.2f,%u,%llu,%llu,%llu,%llu,%.1f,%.1f,"
		       "%.1f,%llu,%llu,%llu,%llu,%.2f,%.2f,%.1f,%llu,%llu\n",
			o->preset, f->n_pmds, f->rxqs_per_pmd, f->peak_pps, 100 * f->trough_share,
			day_s, label, cpu_h, awake, x->min_awake, (unsigned long long)x->packs,
			(unsigned long long)x->unpacks, (unsigned long long)x->spreads,
			(unsigned long long)x->moves, x->move_mean_ns / 1e3, x->move_max_ns / 1e3,
			x->hold_max_ns / 1e3, (unsigned long long)x->held,
			(unsigned long long)x->dropped_move, (unsigned long long)x->dropped_over,
			(unsigned long long)x->arrivals, x->p50_ns / 1e3, x->p99_ns / 1e3,
			100 * x->max_pmd_load, (unsigned long long)x->over_windows,
			(unsigned long long)x->miss_windows);
	else if (o->json)
		printf("%s\n  {\"variant\": \"%s\", \"cpu_hours\": %.3f, \"awake_pmds\": %.2f, "
		       "\"packs\": %llu, \"unpacks\": %llu, \"spreads\": %llu, \"moves\": %llu, "
		       "\"move_max_us\": %.1f, \"held\": %llu, \"dropped\": %llu, "
		       "\"p50_us\": %.2f, \"p99_us\": %.2f}",
			v ? "," : "", label, cpu_h, awake, (unsigned long long)x->packs,
			(unsigned long long)x->unpacks, (unsigned long long)x->spreads,
			(unsigned long long)x->moves, x->move_max_ns / 1e3,
			(unsigned long long)x->held, dropped, x->p50_ns / 1e3, x->p99_ns / 1e3);
	else
		printf("%-26s %9.2f %7.2f %5u %6llu %7llu %7llu %6llu %9.1f %9.1f %9llu %9llu "
		       "%8.2f %8.2f %7.1f%% %6llu\n",
			label, cpu_h, awake, x->min_awake, (unsigned long long)x->packs,
			(unsigned long long)x->unpacks, (unsigned long long)x->spreads,
			(unsigned long long)x->moves, x->move_max_ns / 1e3, x->hold_max_ns / 1e3,
			(unsigned long long)x->held, dropped, x->p50_ns / 1e3, x->p99_ns / 1e3,
			100 * x->max_pmd_load, (unsigned long long)x->over_windows);
}

/* --pmds N: the day with busy polling, with the policy alone, with the policy
 * and consolidation; a row each, and the two savings last. */
static int
run_fleet(const struct sim_options *o)
{
	struct sim_fleet_result r[3];
	char label[3][64];
	int ret = 0;

	for (unsigned int v = 0; v < 3 && ret == 0; v++) {
		struct sim_fleet_config c = o->fleet;

		c.consolidate = v == 2;
		if (v == 0)
			c.base.policy.kind = LULL_POLICY_OFF;
		snprintf(label[v], sizeof(label[v]), "%s%s", lull_policy_name(c.base.policy.kind),
			c.consolidate ? "+consolidate" : "");
		ret = sim_fleet_run(&c, &r[v]);
	}
	if (ret < 0)
		return ret;
	fleet_print_head(o);
	for (unsigned int v = 0; v < 3; v++)
		fleet_print_row(o, label[v], &r[v], v);
	if (o->json)
		printf("\n]}\n");
	else if (!o->csv)
		printf("CPU with consolidation / without: %.2f; / busy polling: %.2f\n",
			r[1].cpu_core_s > 0 ? r[2].cpu_core_s / r[1].cpu_core_s : 0,
			r[0].cpu_core_s > 0 ? r[2].cpu_core_s / r[0].cpu_core_s : 0);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct sim_options o;
	static struct row rows[LULL_MAX_PHASES];
	char err[512] = "";
	unsigned int n = 0;
	int ret;

	ret = sim_options_parse(&o, argc, argv, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "lull-sim: %s\n", err);
		sim_options_free(&o);
		return 2;
	}
	if (o.help) {
		sim_usage(argv[0]);
		sim_options_free(&o);
		return 0;
	}
	if (o.version) {
		printf("lull-sim %s\n", LULL_VERSION);
		sim_options_free(&o);
		return 0;
	}
	if (o.fleet.n_pmds > 0) {
		ret = run_fleet(&o);
		if (ret < 0)
			fprintf(stderr, "lull-sim: %s\n",
				ret == -ENOMEM ? "out of memory"
					       : "a parameter is out of range (see --help)");
		sim_options_free(&o);
		return ret < 0 ? 1 : 0;
	}
	if (o.trace_n > 0 || o.ramp) {
		struct sim_config c = o.base;

		if (o.trace_n > 0) {
			c.traffic.kind = SIM_TRAFFIC_TRACE;
			c.traffic.trace_ns = o.trace_ns;
			c.traffic.trace_n = o.trace_n;
			c.duration_ns = o.trace_ns[o.trace_n - 1] + 1000000;
		} else {
			c.traffic.kind = SIM_TRAFFIC_RAMP;
			c.traffic.rate_pps = o.ramp_peak_pps;
			c.traffic.period_ns = o.ramp_period_ns;
			c.duration_ns = o.ramp_duration_ns;
		}
		ret = run_one(&c, o.trace_n ? "trace" : "ramp", 0, &rows[n++]);
		if (ret == 0)
			rows[0].offered_pps = (double)rows[0].arrivals / (c.duration_ns / 1e9);
	} else {
		for (unsigned int i = 0; i < o.profile.n && ret == 0; i++) {
			const struct lull_phase *ph = &o.profile.phases[i];
			struct sim_config c = o.base;

			traffic_of_phase(&c.traffic, ph, &c.pmd);
			c.duration_ns = ph->duration_ns;
			ret = run_one(&c, ph->text,
				ph->kind == LULL_PHASE_MAX ? c.traffic.rate_pps
							   : lull_phase_offered_pps(ph),
				&rows[n++]);
		}
	}
	if (ret < 0) {
		fprintf(stderr, "lull-sim: %s\n",
			ret == -ENOMEM ? "out of memory"
				       : "a parameter is out of range (see --help)");
		sim_options_free(&o);
		return 1;
	}
	print_rows(&o, rows, n);
	sim_options_free(&o);
	return 0;
}
