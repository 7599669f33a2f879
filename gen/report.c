/* SPDX-License-Identifier: BSD-3-Clause */
#include "report.h"

#include <inttypes.h>

void
gen_report_row(const struct gen *g, unsigned int i, struct gen_report_row *r)
{
	const struct gen_phase_stats *ps = &g->phases[i];
	const struct lull_hist *h = &ps->rtt_ns;

	r->phase = i + 1;
	r->text = g->cfg->profile.phases[i].text;
	r->secs = (double)(ps->end_tsc - ps->start_tsc) / (double)g->tsc_hz;
	r->offered_pps = lull_phase_offered_pps(&g->cfg->profile.phases[i]);
	r->tx = ps->tx;
	r->rx = ps->rx;
	r->tx_pps = r->secs > 0 ? (double)ps->tx / r->secs : 0;
	r->rx_pps = r->secs > 0 ? (double)ps->rx / r->secs : 0;
	r->offered = ps->tx + ps->tx_refused + ps->tx_nombuf;
	r->nombuf = ps->tx_nombuf;
	r->lost_in_flight = ps->tx > ps->rx ? ps->tx - ps->rx : 0;
	/* Offered and not delivered: a frame the device under test refused (its rx
	 * ring was full) is lost like one it dropped. Not in a max phase, whose
	 * offered load is "all it takes": there a refusal is the saturation itself. */
	r->refused_is_loss = g->refused_is_loss && r->offered_pps >= 0;
	r->lost = r->lost_in_flight + (r->refused_is_loss ? ps->tx_refused : 0);
	r->loss_pct = r->offered ? 100.0 * (double)r->lost / (double)r->offered : 0;
	r->dup = ps->dup;
	r->reordered = ps->reordered;
	r->refused = ps->tx_refused;
	r->skipped = ps->skipped;
	r->bad_cksum = ps->bad_cksum;
	r->min_us = h->count ? (double)h->min / 1e3 : 0;
	r->avg_us = lull_hist_mean(h) / 1e3;
	r->p25_us = (double)lull_hist_quantile(h, 0.25) / 1e3;
	r->p50_us = (double)lull_hist_quantile(h, 0.50) / 1e3;
	r->p75_us = (double)lull_hist_quantile(h, 0.75) / 1e3;
	r->stddev_us = lull_hist_stddev(h) / 1e3;
	r->p90_us = (double)lull_hist_quantile(h, 0.90) / 1e3;
	r->p99_us = (double)lull_hist_quantile(h, 0.99) / 1e3;
	r->p999_us = (double)lull_hist_quantile(h, 0.999) / 1e3;
	r->max_us = (double)h->max / 1e3;
	r->late_p50_us = (double)lull_hist_quantile(&ps->late_ns, 0.50) / 1e3;
	r->late_p99_us = (double)lull_hist_quantile(&ps->late_ns, 0.99) / 1e3;
	r->late_max_us = (double)ps->late_ns.max / 1e3;
}

static void
rate_text(char *buf, size_t len, double pps)
{
	if (pps < 0)
		snprintf(buf, len, "max");
	else if (pps >= 1e6)
		snprintf(buf, len, "%.3fM", pps / 1e6);
	else if (pps >= 1e3)
		snprintf(buf, len, "%.3fk", pps / 1e3);
	else
		snprintf(buf, len, "%.0f", pps);
}

void
gen_report_table(FILE *out, const struct gen *g)
{
	fprintf(out, "\nlull-gen run %u: %u-byte frames, tx port %u, rx port %u\n", g->run_id,
		g->cfg->size, g->tx_port, g->rx_port);
	fprintf(out,
		"%-3s %-24s %6s %9s %9s %9s %11s %11s %8s %8s %7s %4s %5s %8s %8s %8s %8s %8s %8s "
		"%8s\n",
		"#", "phase", "secs", "offered", "tx-pps", "rx-pps", "sent", "received", "refused",
		"lost", "loss-%", "dup", "reord", "min-us", "avg-us", "p50-us", "p90-us", "p99-us",
		"p99.9-us", "max-us");
	for (unsigned int i = 0; i < g->n_done; i++) {
		struct gen_report_row r;
		char offered[16], tx[16], rx[16];

		gen_report_row(g, i, &r);
		rate_text(offered, sizeof(offered), r.offered_pps);
		rate_text(tx, sizeof(tx), r.tx_pps);
		rate_text(rx, sizeof(rx), r.rx_pps);
		fprintf(out,
			"%-3u %-24.24s %6.2f %9s %9s %9s %11" PRIu64 " %11" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %7.3f %4" PRIu64 " %5" PRIu64
			" %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n",
			r.phase, r.text, r.secs, offered, tx, rx, r.tx, r.rx, r.refused, r.lost,
			r.loss_pct, r.dup, r.reordered, r.min_us, r.avg_us, r.p50_us, r.p90_us,
			r.p99_us, r.p999_us, r.max_us);
		fprintf(out,
			"    offered %" PRIu64 " = sent + refused by the port %" PRIu64
			" (%s) + not built %" PRIu64 "; lost in flight %" PRIu64 "\n",
			r.offered, r.refused,
			r.refused_is_loss ? "counted as lost: the device under test refused them"
					  : "not counted as lost",
			r.nombuf, r.lost_in_flight);
		fprintf(out,
			"    tx late p50/p99/max %.1f/%.1f/%.1f us; skipped by the catch-up bound "
			"%" PRIu64 ", bad checksums %" PRIu64 "\n",
			r.late_p50_us, r.late_p99_us, r.late_max_us, r.skipped, r.bad_cksum);
	}
	fprintf(out, "foreign frames %" PRIu64 ", too old to judge %" PRIu64 "\n", g->foreign,
		g->too_old);
}

void
gen_report_json(FILE *out, const struct gen *g)
{
	fprintf(out,
		"{\"run_id\": %u, \"size\": %u, \"foreign\": %" PRIu64 ", \"too_old\": %" PRIu64
		", \"phases\": [",
		g->run_id, g->cfg->size, g->foreign, g->too_old);
	for (unsigned int i = 0; i < g->n_done; i++) {
		struct gen_report_row r;

		gen_report_row(g, i, &r);
		fprintf(out,
			"%s\n  {\"phase\": %u, \"profile\": \"%s\", \"secs\": %.6f, "
			"\"offered_pps\": %.3f, "
			"\"tx_pps\": %.3f, \"rx_pps\": %.3f, \"offered\": %" PRIu64
			", \"sent\": %" PRIu64 ", \"received\": %" PRIu64 ", \"lost\": %" PRIu64
			", \"loss_pct\": %.6f, \"dup\": %" PRIu64 ", \"reordered\": %" PRIu64
			", \"refused\": %" PRIu64
			", \"refused_is_loss\": %s, \"lost_in_flight\": %" PRIu64
			", \"not_built\": %" PRIu64 ", \"skipped\": %" PRIu64
			", \"bad_cksum\": %" PRIu64 ", \"lat_us\": {\"min\": %.3f, \"avg\": %.3f, "
			"\"p25\": %.3f, \"p50\": %.3f, \"p75\": %.3f, \"p90\": %.3f, \"p99\": "
			"%.3f, "
			"\"p99.9\": %.3f, \"max\": %.3f, \"stddev\": %.3f}, "
			"\"tx_late_us\": {\"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f}, ",
			i ? "," : "", r.phase, r.text, r.secs, r.offered_pps, r.tx_pps, r.rx_pps,
			r.offered, r.tx, r.rx, r.lost, r.loss_pct, r.dup, r.reordered, r.refused,
			r.refused_is_loss ? "true" : "false", r.lost_in_flight, r.nombuf, r.skipped,
			r.bad_cksum, r.min_us, r.avg_us, r.p25_us, r.p50_us, r.p75_us, r.p90_us,
			r.p99_us, r.p999_us, r.max_us, r.stddev_us, r.late_p50_us, r.late_p99_us,
			r.late_max_us);
		/* the round trip at every percentile 0..100, then p99.9: a CDF to plot */
		fprintf(out, "\"lat_cdf_us\": [");
		for (unsigned int q = 0; q <= 100; q++)
			fprintf(out, "%s%.3f", q ? ", " : "",
				(double)lull_hist_quantile(&g->phases[i].rtt_ns, q / 100.0) / 1e3);
		fprintf(out, ", %.3f]}",
			(double)lull_hist_quantile(&g->phases[i].rtt_ns, 0.999) / 1e3);
	}
	/* which tx queues of the device under test the frames came by */
	fprintf(out, "\n], \"rx_queues\": [");
	for (unsigned int q = 0; q < g->cfg->rxq; q++)
		fprintf(out, "%s%" PRIu64, q ? ", " : "", g->rx_queue[q]);
	fprintf(out, "]}\n");
}

void
gen_report_csv(FILE *out, const struct gen *g)
{
	fprintf(out, "phase,profile,secs,offered_pps,tx_pps,rx_pps,sent,received,lost,loss_pct,dup,"
		     "reordered,refused,skipped,bad_cksum,min_us,avg_us,p50_us,p90_us,p99_us,"
		     "p999_us,max_us,late_p50_us,late_p99_us,late_max_us,offered,lost_in_flight,"
		     "not_built,refused_is_loss\n");
	for (unsigned int i = 0; i < g->n_done; i++) {
		struct gen_report_row r;

		gen_report_row(g, i, &r);
		fprintf(out,
			"%u,%s,%.6f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%d\n",
			r.phase, r.text, r.secs, r.offered_pps, r.tx_pps, r.rx_pps, r.tx, r.rx,
			r.lost, r.loss_pct, r.dup, r.reordered, r.refused, r.skipped, r.bad_cksum,
			r.min_us, r.avg_us, r.p50_us, r.p90_us, r.p99_us, r.p999_us, r.max_us,
			r.late_p50_us, r.late_p99_us, r.late_max_us, r.offered, r.lost_in_flight,
			r.nombuf, r.refused_is_loss);
	}
}
