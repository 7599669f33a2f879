/* SPDX-License-Identifier: BSD-3-Clause */
#include "stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

struct lull_port_counts
lull_stats_port(const struct lull_fwd *fwd, uint16_t port)
{
	struct lull_port_counts c = {0, 0, 0};

	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];

		c.rx += lull_pmd_rx_total(pmd, port);
		c.tx += lull_pmd_port_tx(pmd, port, false);
		c.tx_dropped += lull_pmd_port_tx(pmd, port, true);
	}
	return c;
}

/* A counter since its baseline: never below zero (a PMD recreated since). */
static uint64_t
since_base(uint64_t v, uint64_t base)
{
	return v > base ? v - base : 0;
}

int
lull_stats_clear_locked(struct lull_fwd *fwd, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		struct lull_pmd_base *b = fwd->base[i];

		if (b == NULL)
			b = fwd->base[i] = calloc(1, sizeof(*b));
		if (b == NULL) {
			snprintf(err, errlen, "pmd-stats-clear: out of memory");
			return -ENOMEM;
		}
		b->tsc = rte_rdtsc();
		lull_pmd_read_stats(pmd, b->stats);
		for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
			for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++) {
				b->rx_pkts[p][q] = lull_counter_read(&pmd->rx_pkts[p][q]);
				b->rx_cycles[p][q] = lull_counter_read(&pmd->rx_cycles[p][q]);
			}
		b->tx_sent = lull_pmd_tx_total(pmd, false);
		b->tx_dropped = lull_pmd_tx_total(pmd, true);
		lull_pmd_burst_hist(pmd, &b->burst_pkts);
		lull_hist_snapshot(&b->sleep_ns, &pmd->nap.sleep_ns);
	}
	return 0;
}

void
lull_stats_free_locked(struct lull_fwd *fwd)
{
	for (unsigned int i = 0; i < LULL_MAX_PMDS; i++) {
		free(fwd->base[i]);
		fwd->base[i] = NULL;
	}
}

void
lull_stats_view(const struct lull_fwd *fwd, unsigned int i, struct lull_pmd_view *v)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_base *b = fwd->base[i];

	lull_pmd_read_stats(pmd, v->stats);
	v->rx = 0;
	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++)
			v->rx += since_base(
				lull_counter_read(&pmd->rx_pkts[p][q]), b ? b->rx_pkts[p][q] : 0);
	v->tx = since_base(lull_pmd_tx_total(pmd, false), b ? b->tx_sent : 0);
	v->tx_dropped = since_base(lull_pmd_tx_total(pmd, true), b ? b->tx_dropped : 0);
	v->duration_tsc = rte_rdtsc() - (b ? b->tsc : fwd->start_tsc);
	lull_pmd_burst_hist(pmd, &v->burst_pkts);
	lull_hist_snapshot(&v->sleep_ns, &pmd->nap.sleep_ns);
	if (b == NULL)
		return;
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		v->stats[s] = since_base(v->stats[s], b->stats[s]);
	lull_hist_sub(&v->burst_pkts, &b->burst_pkts);
	lull_hist_sub(&v->sleep_ns, &b->sleep_ns);
}

uint64_t
lull_stats_rxq(
	const struct lull_fwd *fwd, unsigned int i, uint16_t port, uint16_t queue, bool cycles)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_base *b = fwd->base[i];

	if (cycles)
		return since_base(lull_counter_read(&pmd->rx_cycles[port][queue]),
			b ? b->rx_cycles[port][queue] : 0);
	return since_base(
		lull_counter_read(&pmd->rx_pkts[port][queue]), b ? b->rx_pkts[port][queue] : 0);
}

void
lull_pmd_read_stats(const struct lull_pmd *pmd, uint64_t *stats)
{
	for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
		stats[s] = lull_counter_read(&pmd->nap.stats[s]);
}

/* A count since the previous reading; a port removed and added again restarts at 0. */
static uint64_t
since(uint64_t now, uint64_t prev)
{
	return now >= prev ? now - prev : now;
}

static void
print_ports(FILE *out, const struct lull_fwd *fwd, struct lull_stats_prev *prev, double dt_s)
{
	fprintf(out, "%5s %-16s %12s %12s %14s %14s %10s %10s\n", "port", "name", "rx-pps",
		"tx-pps", "rx-packets", "tx-packets", "rx-missed", "tx-dropped");
	for (unsigned int i = 0; i < fwd->n_ports; i++) {
		const struct lull_port *port = &fwd->ports[i];
		struct lull_port_counts c;
		struct rte_eth_stats st;

		if (!port->present)
			continue;
		c = lull_stats_port(fwd, port->id);
		if (rte_eth_stats_get(port->id, &st) != 0)
			memset(&st, 0, sizeof(st));
		fprintf(out,
			"%5u %-16.16s %12.0f %12.0f %14" PRIu64 " %14" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n",
			port->id, port->name,
			dt_s > 0 ? (double)since(c.rx, prev->port_rx[i]) / dt_s : 0.0,
			dt_s > 0 ? (double)since(c.tx, prev->port_tx[i]) / dt_s : 0.0, c.rx, c.tx,
			lull_port_rx_missed(port, &st), c.tx_dropped + st.oerrors);
		prev->port_rx[i] = c.rx;
		prev->port_tx[i] = c.tx;
	}
}

static void
print_pmds(FILE *out, const struct lull_fwd *fwd)
{
	fprintf(out, "%5s %6s %14s %7s %7s %14s %14s %10s %10s %10s %9s %9s\n", "pmd", "lcore",
		"iterations", "busy-%", "sleep-%", "rx-packets", "tx-packets", "tx-dropped",
		"cycles/pkt", "sleeps", "sleep-us", "over-us");
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		uint64_t st[LULL_PMD_N_STATS];
		uint64_t rx = lull_pmd_rx_total(pmd, UINT16_MAX);
		struct lull_pmd_derived d;

		lull_pmd_read_stats(pmd, st);
		lull_pmd_derive(st, rx, &d);
		fprintf(out,
			"%5u %6u %14" PRIu64 " %7.1f %7.1f %14" PRIu64 " %14" PRIu64 " %10" PRIu64
			" %10.1f %10" PRIu64 " %9.1f %9.1f\n",
			pmd->index, pmd->lcore, st[LULL_PMD_ITERATIONS], d.busy_pct, d.sleep_pct,
			rx, lull_pmd_tx_total(pmd, false), lull_pmd_tx_total(pmd, true),
			d.cycles_per_pkt, st[LULL_PMD_SLEEPS], (double)d.avg_sleep_ns / 1e3,
			(double)d.avg_oversleep_ns / 1e3);
	}
}

/* At exit only; the histograms are the PMDs' own, read through snapshots (their
 * atomic loads): EAL's wait for the lcores orders nothing ThreadSanitizer sees. */
static void
print_pmd_details(FILE *out, const struct lull_fwd *fwd)
{
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		const struct lull_pmd *pmd = fwd->pmds[i];
		const lull_counter_t *c = pmd->nap.stats;
		static struct lull_hist bursts, sleeps; /* large: off the stack; main thread only */
		const struct lull_hist *b = &bursts, *sl = &sleeps;
		uint64_t busy_it = lull_counter_read(&c[LULL_PMD_BUSY_ITERATIONS]);

		lull_pmd_burst_hist(pmd, &bursts);
		lull_hist_snapshot(&sleeps, &pmd->nap.sleep_ns);

		fprintf(out,
			"pmd %u: packets per rx burst p50/p90/p99/max %" PRIu64 "/%" PRIu64
			"/%" PRIu64 "/%" PRIu64 "\n",
			pmd->index, lull_hist_quantile(b, 0.5), lull_hist_quantile(b, 0.9),
			lull_hist_quantile(b, 0.99), b->max);
		if (pmd->nap.yield_period_tsc != 0)
			fprintf(out, "pmd %u: yields %" PRIu64 " (%.1f ms of the CPU given up)\n",
				pmd->index, lull_counter_read(&c[LULL_PMD_YIELDS]),
				(double)lull_counter_read(&c[LULL_PMD_YIELD_TSC]) * 1e3 /
					(double)rte_get_tsc_hz());
		if (!pmd->nap.on)
			continue;
		fprintf(out,
			"pmd %u: busy-threshold hits %" PRIu64 " (%.1f %% of busy iterations), "
			"max-sleep hits %" PRIu64 ", budget misses %" PRIu64 "\n",
			pmd->index, lull_counter_read(&c[LULL_PMD_BUSY_HITS]),
			busy_it ? 100.0 * (double)lull_counter_read(&c[LULL_PMD_BUSY_HITS]) /
					  (double)busy_it
				: 0.0,
			lull_counter_read(&c[LULL_PMD_MAX_SLEEP_HITS]),
			lull_counter_read(&c[LULL_PMD_BUDGET_MISSES]));
		if (pmd->nap.intr_after_ns != 0)
			fprintf(out,
				"pmd %u: rx interrupts %s; waits %" PRIu64
				", woken by a packet %" PRIu64 " (of which found nothing %" PRIu64
				")\n",
				pmd->index,
				atomic_load_explicit(&pmd->intr_on, memory_order_relaxed)
					? "on"
					: "unavailable",
				lull_counter_read(&c[LULL_PMD_INTR_WAITS]),
				lull_counter_read(&c[LULL_PMD_INTR_WAKES]),
				lull_counter_read(&c[LULL_PMD_INTR_EMPTY]));
		fprintf(out, "pmd %u: sleep us p50/p90/p99/max %.1f/%.1f/%.1f/%.1f\n", pmd->index,
			(double)lull_hist_quantile(sl, 0.5) / 1e3,
			(double)lull_hist_quantile(sl, 0.9) / 1e3,
			(double)lull_hist_quantile(sl, 0.99) / 1e3, (double)sl->max / 1e3);
	}
}

void
lull_stats_print(FILE *out, const struct lull_fwd *fwd, struct lull_stats_prev *prev, bool final)
{
	uint64_t now_tsc = rte_rdtsc();
	double dt_s = prev->tsc ? (double)(now_tsc - prev->tsc) / (double)rte_get_tsc_hz() : 0.0;

	fprintf(out, "\n%s after %.1f s\n", final ? "lull final stats" : "lull stats",
		(double)(now_tsc - fwd->start_tsc) / (double)rte_get_tsc_hz());
	print_ports(out, fwd, prev, dt_s);
	print_pmds(out, fwd);
	if (final)
		print_pmd_details(out, fwd);
	fflush(out);
	prev->tsc = now_tsc;
}
