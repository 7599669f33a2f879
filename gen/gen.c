/* SPDX-License-Identifier: BSD-3-Clause */
#include "gen.h"

#include <inttypes.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "pace.h"
#include "quiesce.h"

static void
rx_one(struct gen *g, struct rte_mbuf *m, uint64_t now_tsc)
{
	struct gen_stamp st;
	struct gen_phase_stats *ps;

	if (!gen_pkt_parse(m, g->run_id, &st) || st.phase >= g->cfg->profile.n) {
		g->foreign++;
		return;
	}
	ps = &g->phases[st.phase];
	if (!gen_pkt_cksum_ok(m))
		ps->bad_cksum++;
	switch (lull_seqwin_mark(&g->seqwin, st.seq)) {
	case LULL_SEQ_DUP:
		ps->dup++;
		return;
	case LULL_SEQ_TOO_OLD:
		g->too_old++;
		break;
	case LULL_SEQ_REORDERED:
		ps->reordered++;
		break;
	case LULL_SEQ_IN_ORDER:
	default:
		break;
	}
	ps->rx++;
	lull_hist_add(&ps->rtt_ns, (uint64_t)((double)(now_tsc - st.tsc) * g->ns_per_tsc));
}

/* Every rx queue in turn, each one until it is empty: a forwarder that moved
 * a flow from one tx queue to another sent the old queue's packets first, and
 * they are read first unless this thread is descheduled in between. */
static void
poll_port(struct gen *g, uint16_t port)
{
	for (uint16_t q = 0; q < g->cfg->rxq; q++) {
		uint16_t n;

		do {
			struct rte_mbuf *pkts[GEN_MAX_BURST];
			uint64_t now_tsc;

			n = rte_eth_rx_burst(port, q, pkts, g->cfg->burst);
			if (n == 0)
				break;
			if (port == g->rx_port)
				g->rx_queue[q] += n;
			now_tsc = rte_rdtsc();
			for (uint16_t i = 0; i < n; i++)
				rx_one(g, pkts[i], now_tsc);
			rte_pktmbuf_free_bulk(pkts, n);
		} while (n == g->cfg->burst && g->cfg->rxq > 1);
	}
}

static void
poll_rx(struct gen *g)
{
	/* the bursts before are over (lib/quiesce.h) */
	lull_quiesce_pass(g->qs);
	poll_port(g, g->rx_port);
	if (g->tx_port != g->rx_port)
		poll_port(g, g->tx_port); /* anything coming back the other way is counted too */
}

static void
send_burst(struct gen *g, struct gen_phase_stats *ps, uint16_t phase, uint32_t n)
{
	struct rte_mbuf *pkts[GEN_MAX_BURST];
	uint64_t tsc;
	uint16_t sent;

	if (rte_pktmbuf_alloc_bulk(g->pool, pkts, n) != 0) {
		ps->tx_nombuf += n; /* pool empty: lull-gen's own shortfall, not sent */
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		gen_pkt_fill(&g->tmpl, pkts[i], phase, g->seq + i);
	tsc = rte_rdtsc();
	for (uint32_t i = 0; i < n; i++)
		gen_pkt_stamp(&g->tmpl, pkts[i], tsc);
	sent = rte_eth_tx_burst(g->tx_port, g->txq_next, pkts, (uint16_t)n);
	g->txq_next = (uint16_t)((g->txq_next + 1) % g->cfg->txq);
	if (sent < n) {
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
		ps->tx_refused += n - sent;
	}
	/* Refused packets keep their sequence numbers: a gap, not a loss. */
	g->seq += n;
	ps->tx += sent;
}

static void
progress(const struct gen *g, unsigned int i, uint64_t now_tsc, uint64_t *last_tsc,
	uint64_t *last_tx, uint64_t *last_rx)
{
	const struct gen_phase_stats *ps = &g->phases[i];
	const struct lull_phase *ph = &g->cfg->profile.phases[i];
	double dt_s = (double)(now_tsc - *last_tsc) / (double)g->tsc_hz;

	fprintf(stderr,
		"[phase %u/%u %s] %.1f/%.1f s  tx %.0f pps  rx %.0f pps  lost %" PRId64 "\n", i + 1,
		g->cfg->profile.n, ph->text, (double)(now_tsc - ps->start_tsc) / (double)g->tsc_hz,
		(double)ph->duration_ns / 1e9, (double)(ps->tx - *last_tx) / dt_s,
		(double)(ps->rx - *last_rx) / dt_s, (int64_t)(ps->tx - ps->rx));
	*last_tsc = now_tsc;
	*last_tx = ps->tx;
	*last_rx = ps->rx;
}

static void
run_phase(struct gen *g, unsigned int i)
{
	const struct lull_phase *ph = &g->cfg->profile.phases[i];
	struct gen_phase_stats *ps = &g->phases[i];
	uint64_t progress_tsc = g->tsc_hz / 1000 * g->cfg->progress_ms;
	uint64_t start_tsc = rte_rdtsc();
	uint64_t last_tsc = start_tsc, last_tx = 0, last_rx = 0, now_tsc = start_tsc;
	struct lull_pace pace;

	ps->start_tsc = start_tsc;
	lull_pace_start(&pace, ph, 0, ((uint64_t)g->run_id << 32) | (i + 1),
		(uint64_t)g->cfg->max_lag_us * 1000);
	for (;;) {
		uint64_t now_ns, deadline_ns;
		uint32_t due;

		poll_rx(g);
		now_tsc = rte_rdtsc();
		now_ns = (uint64_t)((double)(now_tsc - start_tsc) * g->ns_per_tsc);
		/* deadlines at or after the phase's end belong to no one */
		if (now_ns >= ph->duration_ns ||
			atomic_load_explicit(g->quit, memory_order_relaxed))
			break;
		deadline_ns = lull_pace_next_ns(&pace); /* 0: a burst goes on, or max */
		due = lull_pace_due(&pace, now_ns, g->cfg->burst);
		if (due > 0) {
			if (deadline_ns != 0 && now_ns >= deadline_ns)
				lull_hist_add(&ps->late_ns, now_ns - deadline_ns);
			send_burst(g, ps, (uint16_t)i, due);
		}
		if (progress_tsc != 0 && now_tsc - last_tsc >= progress_tsc)
			progress(g, i, now_tsc, &last_tsc, &last_tx, &last_rx);
	}
	ps->end_tsc = now_tsc;
	ps->skipped = pace.skipped;
}

void
gen_run(struct gen *g)
{
	static struct lull_quiesce_slot own; /* no slot left: none waits for it */
	uint64_t drain_tsc;

	g->qs = lull_quiesce_claim();
	if (g->qs == NULL)
		g->qs = &own;
	lull_quiesce_set_self(g->qs);
	lull_quiesce_online(g->qs);
	lull_seqwin_init(&g->seqwin);
	for (unsigned int i = 0; i < g->cfg->profile.n; i++) {
		lull_hist_init(&g->phases[i].rtt_ns);
		lull_hist_init(&g->phases[i].late_ns);
	}
	for (g->n_done = 0; g->n_done < g->cfg->profile.n; g->n_done++) {
		if (atomic_load_explicit(g->quit, memory_order_relaxed))
			break;
		run_phase(g, g->n_done);
	}
	/* Late packets: keep receiving, send nothing. */
	drain_tsc = rte_rdtsc() + g->tsc_hz / 1000 * g->cfg->drain_ms;
	while (rte_rdtsc() < drain_tsc)
		poll_rx(g);
	lull_quiesce_offline(g->qs);
	lull_quiesce_set_self(NULL);
	lull_quiesce_release(g->qs);
	g->qs = NULL;
}
