/* SPDX-License-Identifier: BSD-3-Clause */
#include "pmd.h"

#include "yield.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

/* At stop, keep polling until a poll finds nothing, for at most this long. */
#define LULL_DRAIN_MAX_US 10000

/* A refused tx is retried for at most this long per burst. */
#define LULL_TX_RETRY_MAX_US 100

/* One wait in this many has its CPU time measured (two clock_gettime calls of
 * the thread's CPU clock: syscalls, paid only on a wait the policy chose). */
#define LULL_CPU_SAMPLE_EVERY 16

/* tx_buffer error callback, and the rest of a direct tx burst: send again
 * while the port takes packets (as OVS does: a queue that takes some now takes
 * more soon, and a dead one refuses at once), then --tx-retries times more
 * after refusals, all within LULL_TX_RETRY_MAX_US (a dead peer must not stall
 * the PMD past the control plane's patience); free and count what is left. */
void
lull_pmd_txq_unsent(struct rte_mbuf **pkts, uint16_t n, void *arg)
{
	struct lull_txq *txq = arg;
	uint16_t sent = 0;
	uint32_t refused = 0;
	uint64_t until_tsc = 0;

	for (uint32_t r = 0; sent < n && refused <= txq->retries; r++) {
		uint16_t k = rte_eth_tx_burst(txq->port, txq->queue, pkts + sent, n - sent);

		sent += k;
		refused += k == 0;
		/* the clock is read once in 64 tries: a try is ~0.1 us */
		if ((r & 63) == 0) {
			uint64_t now_tsc = rte_rdtsc();

			if (until_tsc == 0)
				until_tsc =
					now_tsc + rte_get_tsc_hz() / 1000000 * LULL_TX_RETRY_MAX_US;
			else if (now_tsc >= until_tsc)
				break;
		}
	}
	if (sent > 0)
		lull_counter_add(&txq->sent, sent);
	if (sent < n) {
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
		lull_counter_add(&txq->dropped, n - sent);
	}
}

/* Phase 1: receive a burst, rewrite it (engine), buffer it for tx. */
static inline uint16_t
poll_rxq(struct lull_pmd *pmd, struct lull_rxq *rxq)
{
	struct rte_mbuf *pkts[LULL_MAX_BURST];
	struct lull_txq *tx = rxq->tx;
	uint16_t n = rte_eth_rx_burst(rxq->port, rxq->queue, pkts, pmd->burst);
	uint64_t sent = 0;

	if (n == 0)
		return 0;
	lull_counter_add(rxq->rx, n);
	if (likely(n == pmd->burst))
		lull_counter_add(&pmd->stats[LULL_PMD_FULL_BURSTS], 1);
	else
		lull_hist_add(&pmd->burst_pkts, n);
	if (pmd->policy_on)
		lull_policy_observe(&pmd->policy, n);
	if (pmd->engine != NULL)
		pmd->engine(pkts, n, &rxq->ctx);
	if (n >= pmd->direct_tx_min && tx->buf->length == 0) {
		/* Already a batch and nothing queued ahead of it: send it as is. */
		sent = rte_eth_tx_burst(tx->port, tx->queue, pkts, n);
		if (unlikely(sent < n))
			lull_pmd_txq_unsent(pkts + sent, (uint16_t)(n - sent), tx);
	} else {
		/* Small bursts are gathered, several queues' worth, into one tx burst. */
		for (uint16_t i = 0; i < n; i++)
			sent += rte_eth_tx_buffer(tx->port, tx->queue, tx->buf, pkts[i]);
	}
	if (sent > 0)
		lull_counter_add(&tx->sent, sent);
	return n;
}

/* Iterations in which two queues or more brought packets are timed queue by
 * queue on one in LULL_CYC_SAMPLE of them, at random, and charged that many
 * times what they took: unbiased, and an rdtsc per busy queue only there. */
#define LULL_CYC_SAMPLE 8u

static inline bool
cyc_sampled(struct lull_pmd *pmd)
{
	uint32_t x = pmd->cyc_rng; /* xorshift32 */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	pmd->cyc_rng = x;
	return (x & (LULL_CYC_SAMPLE - 1)) == 0;
}

/*
 * Every queue once; *now_tsc: the time after (the loop's own timestamp). The
 * cycles of the iteration (since the last one ended) go to the queues that
 * brought packets: all of them to the one busy queue, exactly and with no
 * rdtsc of its own - the common case; with more busy queues, each gets the
 * cycles from the previous one's end to its own, on a random sample of those
 * iterations (LULL_CYC_SAMPLE). An empty poll's ~100 cycles go to the next
 * busy queue, or to the last one.
 */
static inline uint32_t
poll_all(struct lull_pmd *pmd, uint64_t *now_tsc)
{
	uint32_t n_rx = 0, scale = 1;
	uint64_t from_tsc = pmd->prev_tsc;
	lull_counter_t *pending = NULL;

	for (unsigned int i = 0; i < pmd->n_rxqs; i++) {
		uint32_t n = poll_rxq(pmd, &pmd->rxqs[i]);

		if (n == 0)
			continue;
		n_rx += n;
		if (pending != NULL) {
			if (scale == 1) /* the second busy queue: is this iteration timed? */
				scale = cyc_sampled(pmd) ? LULL_CYC_SAMPLE : 0;
			if (scale != 0) {
				uint64_t t_tsc = rte_rdtsc();

				lull_counter_add(pending, (t_tsc - from_tsc) * scale);
				from_tsc = t_tsc;
			}
		}
		pending = pmd->rxqs[i].cycles;
	}
	*now_tsc = rte_rdtsc();
	if (pending != NULL && scale != 0)
		lull_counter_add(pending, (*now_tsc - from_tsc) * scale);
	return n_rx;
}

/* Phase 2: send what the tx buffers hold. */
static inline void
flush_all(struct lull_pmd *pmd)
{
	for (unsigned int i = 0; i < pmd->n_txqs; i++) {
		struct lull_txq *tx = pmd->txq_list[i];
		uint16_t sent;

		if (tx->buf->length == 0)
			continue;
		sent = rte_eth_tx_buffer_flush(tx->port, tx->queue, tx->buf);
		if (sent > 0)
			lull_counter_add(&tx->sent, sent);
	}
}

/* Phase 2: flush at once after an empty poll (nothing more to batch); under
 * load, at least every drain interval. */
static inline void
flush_due(struct lull_pmd *pmd, uint32_t n_rx, uint64_t now_tsc)
{
	if (n_rx == 0 || now_tsc - pmd->flushed_tsc >= pmd->drain_tsc) {
		flush_all(pmd);
		pmd->flushed_tsc = now_tsc;
	}
}

/* Phase 3: account the iteration (since the last one ended) as busy or idle. */
static inline void
account(struct lull_pmd *pmd, uint32_t n_rx, uint64_t now_tsc)
{
	uint64_t cycles_tsc = now_tsc - pmd->prev_tsc;

	pmd->prev_tsc = now_tsc;
	lull_counter_add(&pmd->stats[LULL_PMD_ITERATIONS], 1);
	if (n_rx > 0) {
		lull_counter_add(&pmd->stats[LULL_PMD_BUSY_ITERATIONS], 1);
		lull_counter_add(&pmd->stats[LULL_PMD_BUSY_TSC], cycles_tsc);
	} else {
		lull_counter_add(&pmd->stats[LULL_PMD_IDLE_TSC], cycles_tsc);
	}
}

/* The interrupt wait's last look at the queues, after arming. */
static uint32_t
recheck(void *ctx)
{
	uint64_t now_tsc;

	return poll_all(ctx, &now_tsc);
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * How long this thread has waited in its CPU's run queue, in all (the second
 * field of schedstat; a pread of ~2 us), or LULL_POLICY_QUEUED_NA.
 */
static uint64_t
run_delay_ns(int fd)
{
	char buf[80], *end;
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;

	if (n <= 0)
		return LULL_POLICY_QUEUED_NA;
	buf[n] = '\0';
	(void)strtoull(buf, &end, 10);
	return strtoull(end, NULL, 10);
}

/* A run-queue delay of the waits this large (smoothed) means another thread
 * shares the CPU: then every timed wait measures its own, not one in 16. */
#define QUEUED_EVERY_NS 2000u

/* A wait ended: account it, feed the policy and its cost model, restart the
 * iteration clocks. cpu_ns: the thread's CPU during the wait, if sampled, else
 * 0; queued_ns: its run-queue delay, if measured, else LULL_POLICY_QUEUED_NA. */
static void
waited(struct lull_pmd *pmd, const struct lull_wait_req *req, enum lull_wait_end end,
	uint64_t t0_tsc, uint64_t t1_tsc, uint64_t cpu_ns, uint64_t queued_ns)
{
	uint64_t act_ns = (uint64_t)((double)(t1_tsc - t0_tsc) * pmd->ns_per_tsc);
	bool intr = req->mode == LULL_WAIT_INTR && end != LULL_WAIT_DEADLINE;

	lull_counter_add(&pmd->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	if (intr && end != LULL_WAIT_RECHECK) {
		lull_counter_add(&pmd->stats[LULL_PMD_INTR_WAITS], 1);
		lull_counter_add(&pmd->stats[LULL_PMD_INTR_TSC], t1_tsc - t0_tsc);
		if (end == LULL_WAIT_WOKEN) {
			lull_counter_add(&pmd->stats[LULL_PMD_INTR_WAKES], 1);
			pmd->woken = true;
		} else if (end == LULL_WAIT_CONTROL) {
			lull_counter_add(&pmd->stats[LULL_PMD_CTL_WAKES], 1);
		}
	} else if (!intr) {
		lull_policy_slept(&pmd->policy, req->ns, act_ns, queued_ns);
		lull_hist_add(&pmd->sleep_ns, act_ns);
		lull_counter_add(&pmd->stats[LULL_PMD_SLEEPS], 1);
		lull_counter_add(&pmd->stats[LULL_PMD_SLEEP_REQ_NS], req->ns);
		lull_counter_add(&pmd->stats[LULL_PMD_SLEEP_ACT_NS], act_ns);
		if (req->ns >= pmd->max_sleep_ns)
			lull_counter_add(&pmd->stats[LULL_PMD_MAX_SLEEP_HITS], 1);
		if (act_ns > pmd->budget_ns)
			lull_counter_add(&pmd->stats[LULL_PMD_BUDGET_MISSES], 1);
	}
	if (cpu_ns != 0 && end != LULL_WAIT_RECHECK)
		lull_policy_wait_cpu(&pmd->policy, intr, cpu_ns);
	if (unlikely(pmd->waiter.early_wakes != 0)) {
		lull_counter_add(&pmd->stats[LULL_PMD_EARLY_WAKES], pmd->waiter.early_wakes);
		pmd->waiter.early_wakes = 0;
	}
	/* a wait as long as the yield already gave the CPU up: the next is due later */
	if (pmd->yield_period_tsc != 0 && act_ns >= pmd->yield_ns)
		pmd->next_yield_tsc = t1_tsc + pmd->yield_period_tsc;
	pmd->prev_tsc = pmd->flushed_tsc = t1_tsc;
}

/*
 * Phase 4: ask the policy; wait if it says so, the way it says: for an rx
 * interrupt (where every queue has one) or a timed wait with the backend.
 * Nothing waits in a tx buffer meanwhile. n_rx: what this iteration's poll
 * received. @return whether it waited.
 */
static bool
idle_wait(struct lull_pmd *pmd, uint32_t n_rx, uint64_t now_tsc)
{
	uint64_t now_ns = (uint64_t)((double)now_tsc * pmd->ns_per_tsc);
	struct lull_wait_req req = {.mode = LULL_WAIT_TIMED, .recheck = recheck, .ctx = pmd};
	/* Woken by an interrupt for nothing: a stale event (packets polled before
	 * the wait) or a driver that shows the packet a moment later. Sleep once
	 * rather than wait for an interrupt the packet may have spent already. */
	bool empty_wake = pmd->woken && n_rx == 0;
	enum lull_wait_end end;
	uint64_t t0_tsc, t1_tsc, cpu0_ns = 0, queued_ns = LULL_POLICY_QUEUED_NA;
	bool sample, queued;

	pmd->woken = false;
	if (empty_wake)
		lull_counter_add(&pmd->stats[LULL_PMD_INTR_EMPTY], 1);

	if (lull_policy_busy(&pmd->policy))
		lull_counter_add(&pmd->stats[LULL_PMD_BUSY_HITS], 1);
	req.ns = lull_policy_decide(&pmd->policy, now_ns);
	if (req.ns == 0)
		return false;
	if (pmd->waiter.intr_ok && !empty_wake && lull_policy_mode(&pmd->policy) == LULL_MODE_INTR)
		req.mode = LULL_WAIT_INTR;
	else
		pmd->planned_ns = req.ns;
	flush_all(pmd);
	sample = --pmd->cpu_sample == 0;
	/* the run-queue delay of a timed wait: on the sampled ones, on all where
	 * another thread shares the CPU */
	queued = req.mode == LULL_WAIT_TIMED &&
		 (sample || pmd->policy.cost.queued_mean_ns >= QUEUED_EVERY_NS);
	if (queued)
		queued_ns = run_delay_ns(pmd->schedstat_fd);
	if (sample) {
		pmd->cpu_sample = LULL_CPU_SAMPLE_EVERY;
		cpu0_ns = thread_cpu_ns();
	}
	t0_tsc = rte_rdtsc();
	end = lull_wait(&pmd->waiter, &req);
	t1_tsc = rte_rdtsc();
	if (sample)
		cpu0_ns = thread_cpu_ns() - cpu0_ns + 1;
	if (queued_ns != LULL_POLICY_QUEUED_NA) {
		uint64_t q1_ns = run_delay_ns(pmd->schedstat_fd);

		queued_ns = q1_ns != LULL_POLICY_QUEUED_NA && q1_ns >= queued_ns
				    ? q1_ns - queued_ns
				    : LULL_POLICY_QUEUED_NA;
	}
	waited(pmd, &req, end, t0_tsc, t1_tsc, cpu0_ns, queued_ns);
	return true;
}

/* Housekeeping yield (--yield-hz): give the CPU up (nanosleep, whatever the
 * wake backend) so that kernel work and other threads on this core run. */
static void
yield_if_due(struct lull_pmd *pmd)
{
	uint64_t t0_tsc = rte_rdtsc(), t1_tsc;

	if (!lull_yield_due(pmd->yield_period_tsc, pmd->next_yield_tsc, t0_tsc))
		return;
	flush_all(pmd);
	lull_yield(pmd->yield_ns);
	t1_tsc = rte_rdtsc();
	lull_counter_add(&pmd->stats[LULL_PMD_YIELDS], 1);
	lull_counter_add(&pmd->stats[LULL_PMD_YIELD_TSC], t1_tsc - t0_tsc);
	lull_counter_add(&pmd->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	/* on schedule; after a long stall, a period from now */
	pmd->next_yield_tsc += pmd->yield_period_tsc;
	if (pmd->next_yield_tsc <= t1_tsc)
		pmd->next_yield_tsc = t1_tsc + pmd->yield_period_tsc;
	pmd->prev_tsc = pmd->flushed_tsc = t1_tsc;
}

/* After a stop request: forward what is still queued, then flush. Bounded in time. */
static void
drain(struct lull_pmd *pmd)
{
	uint64_t start_tsc = rte_rdtsc();
	uint64_t max_tsc = rte_get_tsc_hz() / 1000000 * LULL_DRAIN_MAX_US;
	uint32_t n_rx;

	do {
		uint64_t now_tsc;

		n_rx = poll_all(pmd, &now_tsc);
		flush_all(pmd);
		account(pmd, n_rx, now_tsc);
	} while (n_rx > 0 && rte_rdtsc() - start_tsc < max_tsc);
	flush_all(pmd);
}

/*
 * Housekeeping, on the PMD thread: take a new params block. Whatever the old
 * poll list buffered is sent first, so nothing waits toward a port that goes.
 * The policy keeps its estimates unless its kind or window changed.
 */
static void
reload(struct lull_pmd *pmd, const struct lull_pmd_params *prm)
{
	const struct lull_pmd_params *old = pmd->params;
	/* a new policy, or other queues (a move): what it learnt of the arrivals
	 * (rate, peak) is of other queues, and the move's own burst (what queued
	 * while no PMD polled) would read as a peak - it starts afresh */
	bool fresh = old == NULL || prm->policy.kind != old->policy.kind ||
		     prm->policy.window != old->policy.window || prm->n_rxqs != old->n_rxqs ||
		     memcmp(prm->rxqs, old->rxqs, sizeof(prm->rxqs[0]) * prm->n_rxqs) != 0;

	struct lull_wait_queue wq[LULL_PMD_MAX_RXQS];
	unsigned int bad = 0;
	int ret;

	flush_all(pmd);
	lull_waiter_detach(&pmd->waiter);
	pmd->n_txqs = 0;
	for (unsigned int i = 0; i < prm->n_rxqs; i++) {
		const struct lull_rxq_conf *rc = &prm->rxqs[i];
		struct lull_rxq *rxq = &pmd->rxqs[i];
		struct lull_txq *txq = &pmd->txqs[rc->dst][rc->queue];
		bool listed = false;

		rxq->port = rc->port;
		rxq->queue = rc->queue;
		rxq->tx = txq;
		rxq->rx = &pmd->rx_pkts[rc->port][rc->queue];
		rxq->cycles = &pmd->rx_cycles[rc->port][rc->queue];
		rxq->ctx = rc->ctx;
		wq[i] = (struct lull_wait_queue){.port = rc->port, .queue = rc->queue};
		for (unsigned int t = 0; t < pmd->n_txqs; t++)
			listed = listed || pmd->txq_list[t] == txq;
		if (!listed)
			pmd->txq_list[pmd->n_txqs++] = txq;
	}
	pmd->n_rxqs = prm->n_rxqs;
	if (fresh)
		lull_policy_init(&pmd->policy, &prm->policy);
	else
		pmd->policy.p = prm->policy;
	pmd->policy_on = prm->policy.kind != LULL_POLICY_OFF;
	pmd->max_sleep_ns = prm->policy.max_sleep_ns;
	pmd->waiter = prm->waiter;
	pmd->drain_tsc = rte_get_tsc_hz() / 1000000 * prm->drain_us;
	pmd->timer_slack_ns = prm->timer_slack_ns;
	if (pmd->policy_on && pmd->waiter.kind == LULL_WAKE_NANOSLEEP)
		prctl(PR_SET_TIMERSLACK, (unsigned long)pmd->timer_slack_ns, 0, 0, 0);
	pmd->intr_after_ns = prm->intr_after_ns;
	pmd->budget_ns = lull_policy_budget_ns(&prm->policy);
	ret = lull_waiter_attach(
		&pmd->waiter, wq, prm->n_rxqs, pmd->intr_after_ns != 0, pmd->ctl_fd, &bad);
	pmd->policy.p.intr = pmd->waiter.intr_ok;
	pmd->policy.p.intr_after_ns = pmd->intr_after_ns;
	/* read by the control plane once it sees the ack (release below) */
	pmd->intr_error = ret;
	pmd->intr_error_rxq = ret < 0 ? wq[bad] : (struct lull_wait_queue){0, 0};
	atomic_store_explicit(&pmd->intr_on, pmd->waiter.intr_ok, memory_order_relaxed);
	pmd->yield_period_tsc = prm->yield_hz ? rte_get_tsc_hz() / prm->yield_hz : 0;
	pmd->yield_ns = (uint64_t)prm->yield_us * 1000;
	pmd->next_yield_tsc = rte_rdtsc() + pmd->yield_period_tsc;
	pmd->params = prm;
	atomic_store_explicit(&pmd->ack, prm->gen, memory_order_release);
}

/* The cost model, for the views (gauges on the histograms' lines). */
static void
publish_model(struct lull_pmd *pmd)
{
	const struct lull_policy *pol = &pmd->policy;
	const struct lull_cost *c = &pol->cost;
	lull_counter_t *m = pmd->model;

	atomic_store_explicit(&m[LULL_MODEL_LATE_P50_NS], c->late_p50_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_LATE_P99_NS], c->late_p99_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_LATE_MEAN_NS], c->late_mean_ns, memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_TIMED_CPU_NS], c->wait_cpu_ns[LULL_COST_TIMED], memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_INTR_CPU_NS], c->wait_cpu_ns[LULL_COST_INTR], memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_CPU_SAMPLES],
		c->cpu_samples[LULL_COST_TIMED] + c->cpu_samples[LULL_COST_INTR],
		memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_RATE_PPS], (uint64_t)(pol->rate_ppns * 1e9), memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_PEAK_PPS], (uint64_t)(pol->peak_ppns * 1e9), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_SLEEP_NS], pmd->planned_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_INTR_BELOW_PPS],
		(uint64_t)lull_policy_intr_below_pps(pol, pmd->planned_ns), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_MODE], pol->mode, memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_KEPT_PCT], lull_policy_kept_pct(pol), memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_KEPT_LATE_NS], lull_policy_kept_late_ns(pol), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_QUEUED_NS], c->queued_mean_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_QUEUED_WAITS], c->queued_n, memory_order_relaxed);
}

/*
 * Phase 5, every LULL_HOUSEKEEPING_ITERS iterations: a stop request, a new
 * parameter block, the housekeeping yield. @return true to stop.
 */
static bool
housekeeping(struct lull_pmd *pmd)
{
	const struct lull_pmd_params *next;

	if (atomic_load_explicit(&pmd->stop, memory_order_acquire))
		return true;
	next = atomic_load_explicit(&pmd->next, memory_order_acquire);
	if (unlikely(next != pmd->params)) {
		reload(pmd, next);
		pmd->prev_tsc = pmd->flushed_tsc = rte_rdtsc();
	}
	if (pmd->policy_on)
		publish_model(pmd);
	yield_if_due(pmd);
	return false;
}

/*
 * No rx queue to poll (consolidation moved them all away, or none was given):
 * wait for the control plane alone - a new block or a stop kicks the eventfd -
 * without a timer, so a parked PMD costs no CPU. Without the eventfd, look
 * every 100 ms.
 */
static void
park(struct lull_pmd *pmd)
{
	uint64_t t0_tsc = rte_rdtsc(), t1_tsc, count;
	struct pollfd pfd = {.fd = pmd->ctl_fd, .events = POLLIN};
	const struct timespec step = {.tv_sec = 0, .tv_nsec = 100000000L};

	flush_all(pmd);
	if (pmd->ctl_fd >= 0) {
		if (poll(&pfd, 1, -1) > 0 && read(pmd->ctl_fd, &count, sizeof(count)) < 0)
			count = 0; /* EAGAIN: another reader took it */
	} else {
		nanosleep(&step, NULL);
	}
	t1_tsc = rte_rdtsc();
	lull_counter_add(&pmd->stats[LULL_PMD_PARKS], 1);
	lull_counter_add(&pmd->stats[LULL_PMD_PARKED_TSC], t1_tsc - t0_tsc);
	lull_counter_add(&pmd->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	pmd->prev_tsc = pmd->flushed_tsc = t1_tsc;
}

int
lull_pmd_run(void *arg)
{
	struct lull_pmd *pmd = arg;
	unsigned int tick = 0;

	(void)atomic_load_explicit(&pmd->launched, memory_order_acquire); /* see pmd.h */
	atomic_store_explicit(&pmd->tid, (int)gettid(), memory_order_release);
	lull_waiter_thread_init();
	pmd->cpu_sample = LULL_CPU_SAMPLE_EVERY;
	pmd->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	reload(pmd, atomic_load_explicit(&pmd->next, memory_order_acquire));
	pmd->prev_tsc = pmd->flushed_tsc = rte_rdtsc();
	for (;;) {
		if (unlikely(pmd->n_rxqs == 0)) { /* 0. parked until control says */
			park(pmd);
			if (housekeeping(pmd))
				break;
			continue;
		}
		uint64_t now_tsc;
		uint32_t n_rx =
			poll_all(pmd, &now_tsc); /* 1. poll every rx queue, process, buffer tx */

		flush_due(pmd, n_rx, now_tsc); /* 2. flush what is due */
		account(pmd, n_rx, now_tsc);   /* 3. busy or idle cycles */
		/* 4. wait if the policy says so (off: one branch); after a wait,
		 *    look at the control flags at once */
		if (pmd->policy_on && idle_wait(pmd, n_rx, now_tsc))
			tick = LULL_HOUSEKEEPING_ITERS - 1;
		/* 5. housekeeping tick: stop, new parameters, yield */
		if (unlikely(++tick == LULL_HOUSEKEEPING_ITERS)) {
			tick = 0;
			if (housekeeping(pmd))
				break;
		}
	}
	drain(pmd);
	lull_waiter_detach(&pmd->waiter);
	if (pmd->schedstat_fd >= 0)
		close(pmd->schedstat_fd);
	pmd->schedstat_fd = -1;
	atomic_store_explicit(&pmd->launched, false, memory_order_release);
	return 0;
}
