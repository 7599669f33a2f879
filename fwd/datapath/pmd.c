/* SPDX-License-Identifier: BSD-3-Clause */
#include "pmd.h"

#include <string.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>

/* At stop, keep polling until a poll finds nothing, for at most this long. */
#define LULL_DRAIN_MAX_US 10000

/* A refused tx is retried for at most this long per burst. */
#define LULL_TX_RETRY_MAX_US 100

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

/* Phase 1: receive a burst, rewrite it (the mode), buffer it for tx. */
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
	lull_nap_rx(&pmd->nap, n, pmd->burst);
	if (pmd->mode != NULL)
		pmd->mode(pkts, n, &rxq->ctx);
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
	uint64_t from_tsc = pmd->nap.prev_tsc;
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

/* The sleep engine's hooks: the interrupt wait's last look at the queues, after
 * arming; the flush before every wait. */
static uint32_t
recheck(void *ctx)
{
	uint64_t now_tsc;

	return poll_all(ctx, &now_tsc);
}

static void
flush_hook(void *ctx)
{
	flush_all(ctx);
}

void
lull_pmd_nap_init(struct lull_pmd *pmd)
{
	const struct lull_nap_host host = {.poll = recheck, .flush = flush_hook, .ctx = pmd};

	lull_nap_init(&pmd->nap, &host);
	pmd->nap.ctl_fd = pmd->ctl_fd;
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
		lull_nap_account(&pmd->nap, n_rx, now_tsc);
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

	struct lull_nap_conf conf = {
		.policy = prm->policy,
		.waiter = &prm->waiter,
		.intr_after_ns = prm->intr_after_ns,
		.timer_slack_ns = prm->timer_slack_ns,
		.wake_priority = prm->wake_priority,
		.yield_hz = prm->yield_hz,
		.yield_us = prm->yield_us,
		.ctl_fd = pmd->ctl_fd,
		.fresh = fresh,
	};
	struct lull_wait_queue wq[LULL_PMD_MAX_RXQS];
	unsigned int bad = 0;
	int ret;

	flush_all(pmd);
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
	pmd->drain_tsc = rte_get_tsc_hz() / 1000000 * prm->drain_us;
	ret = lull_nap_load(&pmd->nap, &conf, wq, prm->n_rxqs, &bad);
	/* read by the control plane once it sees the ack (release below) */
	pmd->intr_error = ret;
	pmd->intr_error_rxq = ret < 0 ? wq[bad] : (struct lull_wait_queue){.port = 0, .queue = 0};
	atomic_store_explicit(&pmd->intr_on, lull_nap_intr_ok(&pmd->nap), memory_order_relaxed);
	pmd->params = prm;
	atomic_store_explicit(&pmd->ack, prm->gen, memory_order_release);
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
		pmd->nap.prev_tsc = pmd->flushed_tsc = rte_rdtsc();
	}
	if (lull_nap_housekeeping(&pmd->nap))
		pmd->flushed_tsc = pmd->nap.prev_tsc; /* it yielded, tx flushed first */
	return false;
}

int
lull_pmd_run(void *arg)
{
	struct lull_pmd *pmd = arg;
	unsigned int tick = 0;

	(void)atomic_load_explicit(&pmd->launched, memory_order_acquire); /* see pmd.h */
	atomic_store_explicit(&pmd->tid, (int)gettid(), memory_order_release);
	lull_nap_thread_start(&pmd->nap);
	reload(pmd, atomic_load_explicit(&pmd->next, memory_order_acquire));
	pmd->nap.prev_tsc = pmd->flushed_tsc = rte_rdtsc();
	for (;;) {
		/* what the last iteration read of a driver is done with (lib/quiesce.h) */
		lull_quiesce_pass(pmd->nap.qs);
		if (unlikely(pmd->n_rxqs == 0)) { /* 0. parked until control says */
			lull_nap_park(&pmd->nap);
			pmd->flushed_tsc = pmd->nap.prev_tsc;
			if (housekeeping(pmd))
				break;
			continue;
		}
		uint64_t now_tsc;
		uint32_t n_rx =
			poll_all(pmd, &now_tsc); /* 1. poll every rx queue, process, buffer tx */

		flush_due(pmd, n_rx, now_tsc);              /* 2. flush what is due */
		lull_nap_account(&pmd->nap, n_rx, now_tsc); /* 3. busy or idle cycles */
		/* 4. wait if the policy says so (off: one branch); after a wait,
		 *    look at the control flags at once */
		if (lull_nap_idle(&pmd->nap, n_rx, now_tsc)) {
			pmd->flushed_tsc = pmd->nap.prev_tsc;
			tick = LULL_HOUSEKEEPING_ITERS - 1;
		}
		/* 5. housekeeping tick: stop, new parameters, yield */
		if (unlikely(++tick == LULL_HOUSEKEEPING_ITERS)) {
			tick = 0;
			if (housekeeping(pmd))
				break;
		}
	}
	drain(pmd);
	lull_nap_thread_stop(&pmd->nap);
	atomic_store_explicit(&pmd->launched, false, memory_order_release);
	return 0;
}
