/* SPDX-License-Identifier: BSD-3-Clause */
#include "show.h"

#include "contract.h"

#include "policy.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t
u(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

static const char *
s(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "?";
}

static double
pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void
lullctl_show_pmd_perf(FILE *out, json_t *perf)
{
	const char *key;
	json_t *p;
	int first = 1;

	json_object_foreach(perf, key, p)
	{
		uint64_t hz = u(p, "tsc_hz"), it = u(p, LULL_KEY_ITERATIONS),
			 busy_it = u(p, LULL_KEY_BUSY_ITERATIONS);
		uint64_t busy = u(p, LULL_KEY_BUSY_TSC), idle = u(p, LULL_KEY_IDLE_TSC),
			 sleep = u(p, LULL_KEY_SLEEP_TSC);
		uint64_t used = busy + idle + sleep, dur = u(p, "duration_cycles");
		uint64_t rx = u(p, "rx_packets"), sleeps = u(p, LULL_KEY_SLEEPS);
		uint64_t req = u(p, LULL_KEY_SLEEP_REQ_NS), act = u(p, LULL_KEY_SLEEP_ACT_NS);
		double dur_s = hz ? (double)dur / (double)hz : 0.0;

		(void)key;
		if (first)
			fprintf(out, "Measurement duration: %.3f s\n", dur_s);
		first = 0;
		fprintf(out, "\npmd thread core_id %" PRIu64 ":%s\n\n", u(p, "lcore"),
			u(p, "parked") ? " parked (no rx queue: no CPU until one comes)" : "");
		fprintf(out, "  Iterations:          %14" PRIu64 "  (%.2f us/it)\n", it,
			it && hz ? (double)used / (double)hz * 1e6 / (double)it : 0.0);
		fprintf(out, "  - Used TSC cycles:   %14" PRIu64 "  (%5.1f %% of total cycles)\n",
			used, pct(used, dur));
		fprintf(out, "  - idle iterations:   %14" PRIu64 "  (%5.1f %% of used cycles)\n",
			it - busy_it, pct(idle, used));
		fprintf(out, "  - busy iterations:   %14" PRIu64 "  (%5.1f %% of used cycles)\n",
			busy_it, pct(busy, used));
		fprintf(out, "  - sleeping:          %14" PRIu64 "  (%5.1f %% of used cycles)\n",
			sleeps, pct(sleep, used));
		fprintf(out, "  Rx packets:          %14" PRIu64 "  (%.0f Kpps, %.0f cycles/pkt)\n",
			rx, dur_s > 0 ? (double)rx / dur_s / 1e3 : 0.0,
			rx ? (double)busy / (double)rx : 0.0);
		fprintf(out, "  Tx packets:          %14" PRIu64 "  (%" PRIu64 " dropped)\n",
			u(p, "tx_packets"), u(p, "tx_dropped"));
		fprintf(out,
			"  Packets per rx burst:   p50 %" PRIu64 ", p90 %" PRIu64 ", p99 %" PRIu64
			", max %" PRIu64 "\n",
			u(p, "burst_pkts_p50"), u(p, "burst_pkts_p90"), u(p, "burst_pkts_p99"),
			u(p, "burst_pkts_max"));
		fprintf(out, "  Sleeps:              %14" PRIu64, sleeps);
		if (sleeps)
			fprintf(out, "  (avg requested %.1f us, actual %.1f us, oversleep %.1f us)",
				(double)req / (double)sleeps / 1e3,
				(double)act / (double)sleeps / 1e3,
				act > req ? (double)(act - req) / (double)sleeps / 1e3 : 0.0);
		fprintf(out, "\n");
		fprintf(out, "  - actual sleep us:      p50 %.1f, p90 %.1f, p99 %.1f, max %.1f\n",
			(double)u(p, "sleep_ns_p50") / 1e3, (double)u(p, "sleep_ns_p90") / 1e3,
			(double)u(p, "sleep_ns_p99") / 1e3, (double)u(p, "sleep_ns_max") / 1e3);
		fprintf(out, "  Max-sleep hits:      %14" PRIu64 "\n",
			u(p, LULL_KEY_MAX_SLEEP_HITS));
		fprintf(out,
			"  Busy-threshold hits: %14" PRIu64 "  (%5.1f %% of busy iterations)\n",
			u(p, LULL_KEY_BUSY_HITS), pct(u(p, LULL_KEY_BUSY_HITS), busy_it));
		fprintf(out,
			"  Rx interrupt waits:  %14" PRIu64 "  (%" PRIu64
			" woken by a packet, %" PRIu64 " of them finding nothing)\n",
			u(p, LULL_KEY_INTR_WAITS), u(p, LULL_KEY_INTR_WAKES),
			u(p, LULL_KEY_INTR_EMPTY));
		fprintf(out,
			"  - in interrupt waits: %13.1f %% of used cycles, %" PRIu64
			" ended by control\n",
			pct(u(p, LULL_KEY_INTR_TSC), used), u(p, LULL_KEY_CTL_WAKES));
		fprintf(out,
			"  Budget misses:       %14" PRIu64 "  (%5.2f %% of sleeps longer than "
			"the budget)\n",
			u(p, LULL_KEY_BUDGET_MISSES), pct(u(p, LULL_KEY_BUDGET_MISSES), sleeps));
		if (u(p, LULL_KEY_EARLY_WAKES))
			fprintf(out, "  Early wakes:         %14" PRIu64 "  (tpause/monitor)\n",
				u(p, LULL_KEY_EARLY_WAKES));
	}
}

/* A CPU cost in us, or "n/a" before it was measured. */
static const char *
us_or_na(uint64_t ns, char *buf)
{
	if (ns == 0)
		return "n/a";
	snprintf(buf, 16, "%.1f us", (double)ns / 1e3);
	return buf;
}

/* A PMD's sleep settings: policy, budget, wake, step, window and the rest. */
static void
show_sleep_settings(FILE *out, json_t *p)
{
	fprintf(out,
		"pmd thread core %" PRIu64 ": policy %s, max sleep %" PRIu64
		" us, latency budget %" PRIu64 " us, linger %" PRIu64 " us, wake %s\n",
		u(p, "lcore"), s(p, "policy"), u(p, "max_sleep_us"), u(p, "latency_budget_us"),
		u(p, "linger_us"), s(p, "wake"));
	if (strcmp(s(p, "wake_inject"), "off") != 0 && strcmp(s(p, "wake_inject"), "?") != 0)
		fprintf(out, "  injected slow wakes: %s (--wake-inject: a test setting)\n",
			s(p, "wake_inject"));
	fprintf(out,
		"  step %" PRIu64 " us, busy threshold %" PRIu64 ", window %" PRIu64
		", timer slack %" PRIu64 " ns, rx interrupts after %" PRIu64 " ms, drain %" PRIu64
		" us, %" PRIu64 " rx queue(s), generation %" PRIu64 "\n",
		u(p, "step_us"), u(p, "busy_threshold"), u(p, "window"), u(p, "timer_slack_ns"),
		u(p, "intr_after_ms"), u(p, "drain_us"), u(p, "rx_queues"), u(p, "generation"));
}

/* Where the kernel runs a PMD, whether that CPU is kept for it, and what other
 * threads took from it (lib/sched_view.h). */
static void
show_sleep_cpu(FILE *out, json_t *p)
{
	const char *kept = s(p, "cpu_kept");
	json_t *cpu = json_object_get(p, "cpu");
	char wait[48] = "", last[24] = "?";

	if (json_object_get(p, "cpus") == NULL) {
		fprintf(out, "  cpu: not known (the thread is gone or /proc unreadable)\n");
		return;
	}
	if (json_is_integer(cpu) && json_integer_value(cpu) >= 0)
		snprintf(last, sizeof(last), "%lld", (long long)json_integer_value(cpu));
	if (json_object_get(p, "runq_wait_us_total") != NULL)
		snprintf(wait, sizeof(wait), "run-queue wait %.1f ms, ",
			(double)u(p, "runq_wait_us_total") / 1e3);
	fprintf(out, "  cpu %s (may run on %s): %s; %s%" PRIu64 " preemptions since it started\n",
		last, s(p, "cpus"),
		strcmp(kept, "kept") == 0     ? "kept for it (isolated)"
		: strcmp(kept, "shared") == 0 ? "shared (not in isolcpus= nor an isolated cpuset)"
					      : "isolation not known",
		wait, u(p, "preemptions_total"));
	if (strcmp(kept, "shared") == 0 && strcmp(s(p, "policy"), "off") != 0)
		fprintf(out, "  note: while it sleeps other threads move onto its CPU and, near "
			     "capacity, preempt it; see docs/tuning.md \"Isolating cores\"\n");
}

/* The burst a PMD's sleeps tolerate, from its smallest rx ring. */
static void
show_sleep_burst(FILE *out, json_t *p)
{
	char whose[48];

	/* attached to a host's queues: a driver that does not say is --rx-desc */
	if (u(p, "rx_ring_port") >= UINT16_MAX)
		snprintf(whose, sizeof(whose), "of --rx-desc");
	else
		snprintf(whose, sizeof(whose), "of port %" PRIu64, u(p, "rx_ring_port"));
	if (u(p, "rx_queues") == 0) /* parked: no ring to fill */
		fprintf(out, "  burst tolerance: no rx queue (parked)\n");
	else if (u(p, "burst_tolerance") == 0)
		fprintf(out,
			"  burst tolerance: any line-rate burst (rx ring %" PRIu64
			" %s fills in %s us at %s Mpps, %s)\n",
			u(p, "rx_ring"), whose, s(p, "ring_fill_us"), s(p, "line_mpps"),
			s(p, "line_rate"));
	else
		fprintf(out,
			"  burst tolerance: %" PRIu64 " packets (rx ring %s fills in %s us at %s "
			"Mpps, %s; a ring of %" PRIu64 " absorbs any burst)\n",
			u(p, "burst_tolerance"), whose, s(p, "ring_fill_us"), s(p, "line_mpps"),
			s(p, "line_rate"), u(p, "ring_for_any_burst"));
}

/* What a PMD's sleeps did, the cost model they were planned with, and now. */
static void
show_sleep_model(FILE *out, json_t *p)
{
	char a[16], b[16];

	fprintf(out,
		"  sleeps %" PRIu64 ", average %.1f us, average oversleep %.1f us, "
		"budget misses %" PRIu64 "\n",
		u(p, LULL_KEY_SLEEPS), (double)u(p, "avg_sleep_ns") / 1e3,
		(double)u(p, "avg_oversleep_ns") / 1e3, u(p, LULL_KEY_BUDGET_MISSES));
	fprintf(out,
		"  cost model: wake lateness (the sleep's own) p50 %.1f us, p99 %.1f us; "
		"CPU per wait: "
		"timed %s, interrupt %s; %.0f ns per packet\n",
		(double)u(p, LULL_KEY_LATE_P50_NS) / 1e3, (double)u(p, LULL_KEY_LATE_P99_NS) / 1e3,
		us_or_na(u(p, LULL_KEY_TIMED_CPU_NS), a), us_or_na(u(p, LULL_KEY_INTR_CPU_NS), b),
		(double)u(p, "pkt_ns"));
	/* the lateness above is the sleep's own: what another thread's turn on
	 * the CPU added would have delayed a polling thread as well */
	if (u(p, LULL_KEY_QUEUED_WAITS) > 0)
		fprintf(out,
			"  run-queue delay of a timed wait: %.1f us (%" PRIu64
			" waits measured; another thread had the CPU: not charged to "
			"the budget)\n",
			(double)u(p, LULL_KEY_QUEUED_NS) / 1e3, u(p, LULL_KEY_QUEUED_WAITS));
	else
		fprintf(out, "  run-queue delay of a timed wait: n/a (not measured)\n");
	fprintf(out,
		"  now: %s, arrivals %.1f kpps (peak %.1f kpps), planned sleep %.1f us, "
		"interrupt waits below %.1f kpps\n",
		s(p, LULL_KEY_MODE), (double)u(p, LULL_KEY_RATE_PPS) / 1e3,
		(double)u(p, LULL_KEY_PEAK_PPS) / 1e3, (double)u(p, LULL_KEY_SLEEP_NS) / 1e3,
		(double)u(p, LULL_KEY_INTR_BELOW_PPS) / 1e3);
	/* a sleep that overflowed a ring (older lull: no such key, read as 0) */
	if (u(p, LULL_KEY_HARM_PEAK_PPS) > 0)
		fprintf(out,
			"  a wake on time lost packets (its sleep let a ring overflow): for the "
			"tail rule's hold the ring is judged at %.1f kpps at least, and no "
			"burst counts as fitting it\n",
			(double)u(p, LULL_KEY_HARM_PEAK_PPS) / 1e3);
	/* wakes whose lateness the traffic did not see (older lull: no such key) */
	if (u(p, LULL_KEY_LATE_UNSEEN) > 0)
		fprintf(out,
			"  wakes late past p99 while the traffic stood still too (the host froze "
			"its sender as well): %" PRIu64 ", believed as late as their backlog "
			"showed\n",
			u(p, LULL_KEY_LATE_UNSEEN));
	/* the tail rule: what bounds a PMD that polls at a light rate */
	if (strcmp(s(p, "policy"), "rate") == 0 && json_object_get(p, LULL_KEY_TAIL_CAP_NS) &&
		u(p, LULL_KEY_TAIL_CAP_NS) < u(p, "max_sleep_us") * 1000) {
		uint64_t cap_ns = u(p, LULL_KEY_TAIL_CAP_NS);
		char bound[48] = "poll";

		if (cap_ns > u(p, "step_us") * 1000)
			snprintf(bound, sizeof(bound), "sleeps of at most %.1f us",
				(double)cap_ns / 1e3);
		fprintf(out,
			"  tail rule: a wake %.1f us late (the worst recent, seen twice) must "
			"not overflow the ring at the arrival rate: %s (polling's longest "
			"recent round, seen twice: %.1f us)",
			(double)u(p, LULL_KEY_TAIL_LATE_NS) / 1e3, bound,
			(double)u(p, LULL_KEY_TAIL_STALL_NS) / 1e3);
		/* older lull: no hold in its reply */
		if (json_object_get(p, LULL_KEY_TAIL_HOLD_NS))
			fprintf(out,
				"; believed for %.0f s of polling (doubles while wakes lose "
				"packets again)",
				(double)u(p, LULL_KEY_TAIL_HOLD_NS) / 1e9);
		fputc('\n', out);
	}
	if (strcmp(s(p, "policy"), "rate") == 0 && u(p, LULL_KEY_KEPT_PCT) < 99) {
		const struct lull_kept_view v = {
			.budget_ns = u(p, "latency_budget_us") * 1000,
			.kept_pct = (unsigned int)u(p, LULL_KEY_KEPT_PCT),
			.late_p50_ns = u(p, LULL_KEY_LATE_P50_NS),
			.late_p99_ns = u(p, LULL_KEY_LATE_P99_NS),
			.kept_late_ns = u(p, LULL_KEY_KEPT_LATE_NS),
			.wait_cpu_ns = u(p, LULL_KEY_TIMED_CPU_NS),
			.strict = strcmp(s(p, "strict_budget"), "on") == 0,
		};
		char line[320];

		lull_policy_kept_text(line, sizeof(line), &v);
		fprintf(out, "  %s\n", line);
	}
}

void
lullctl_show_pmd_sleep(FILE *out, json_t *sleep)
{
	const char *key;
	json_t *p;

	json_object_foreach(sleep, key, p)
	{
		(void)key;
		show_sleep_settings(out, p);
		show_sleep_cpu(out, p);
		show_sleep_burst(out, p);
		show_sleep_model(out, p);
	}
}

/* The port object of id in /lull/ports, or NULL. */
static json_t *
port_by_id(json_t *ports, uint64_t id)
{
	char key[32];

	snprintf(key, sizeof(key), "port%" PRIu64, id);
	return json_object_get(ports, key);
}

void
lullctl_show_pmd_rxq(FILE *out, json_t *rxq, json_t *ports)
{
	const char *key, *qkey;
	json_t *p, *v;

	json_object_foreach(rxq, key, p)
	{
		uint64_t total = 0, dur = u(p, "duration_cycles");
		unsigned int n = 0;

		(void)key;
		json_object_foreach(p, qkey, v)
		{
			if (strncmp(qkey, "rxq_", 4) == 0 && json_is_integer(v)) {
				total += (uint64_t)json_integer_value(v);
				n++;
			}
		}
		fprintf(out, "pmd thread core_id %" PRIu64 ": busy %s %%%s\n", u(p, "lcore"),
			s(p, "busy_pct"), n == 0 ? ", parked (no rx queue)" : "");
		json_object_foreach(p, qkey, v)
		{
			unsigned int port, queue;
			char ckey[40], use[16];
			json_t *po;

			if (sscanf(qkey, "rxq_%u_%u", &port, &queue) != 2 || !json_is_integer(v))
				continue;
			po = port_by_id(ports, port);
			snprintf(ckey, sizeof(ckey), "cyc_%u_%u", port, queue);
			/* like OVS's pmd-rxq-show: the share of the PMD's time the queue
			 * took (n/a where the host's loop is not lull's: attached) */
			if (json_object_get(p, ckey) != NULL)
				snprintf(use, sizeof(use), "%5.1f %%", pct(u(p, ckey), dur));
			else
				snprintf(use, sizeof(use), "  n/a  ");
			fprintf(out,
				"  port: %-16s queue-id: %2u  -> %-16s pmd usage: %s  share of "
				"packets: %5.1f %%  (%" PRIu64 ")\n",
				po ? s(po, "name") : "?", queue, po ? s(po, "peer") : "?", use,
				pct((uint64_t)json_integer_value(v), total),
				(uint64_t)json_integer_value(v));
		}
	}
}

void
lullctl_show_ports(FILE *out, json_t *ports)
{
	const char *key;
	json_t *p;

	fprintf(out, "%4s %-16s %-16s %-17s %-8s %14s %14s %10s %10s\n", "port", "name", "peer",
		"mac", "link", "rx-packets", "tx-packets", "rx-missed", "tx-dropped");
	json_object_foreach(ports, key, p)
	{
		const char *link = s(p, "link");

		(void)key;
		fprintf(out,
			"%4" PRIu64 " %-16s %-16s %-17s %-8s %14" PRIu64 " %14" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n",
			u(p, "id"), s(p, "name"), s(p, "peer"), s(p, "mac"),
			strstr(link, "up") != NULL ? "up" : "down", u(p, "rx_packets"),
			u(p, "tx_packets"), u(p, "rx_missed"), u(p, "tx_dropped"));
	}
	json_object_foreach(ports, key, p)
	{
		if (u(p, "tx_queues_refusing") > 0)
			fprintf(out,
				"port %" PRIu64 ": %" PRIu64
				" tx queue(s) refuse every packet since the link came up (the "
				"log names them): a peer with fewer rx queues than lull has "
				"PMDs?\n",
				u(p, "id"), u(p, "tx_queues_refusing"));
	}
}

void
lullctl_show_pairs(FILE *out, json_t *obj)
{
	const char *key;
	json_t *v;

	if (json_is_array(obj)) {
		size_t i;

		json_array_foreach(obj, i, v)
			fprintf(out, "%s\n", json_is_string(v) ? json_string_value(v) : "?");
		return;
	}
	json_object_foreach(obj, key, v)
	{
		char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY);

		fprintf(out, "%s: %s\n", key, text ? text : json_string_value(v));
		free(text);
	}
}
