/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PMD as the control plane sees it: its parameter blocks (built, published,
 * acknowledged, freed), its creation and its counters. The thread itself, its
 * loop and its reload, are fwd/datapath/pmd.c.
 */
#include "pmd_ctl.h"

#include "clock.h"
#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_power_intrinsics.h>

struct lull_pmd_params *
lull_pmd_params_build(const struct lull_config *cfg, unsigned int index, uint64_t gen,
	const struct lull_port *ports, int *ret, char *err, size_t errlen)
{
	unsigned int lcore = cfg->pmd_lcores[index];
	struct lull_pmd_params *prm = rte_zmalloc_socket(
		"lull_pmd_params", sizeof(*prm), 64, (int)rte_lcore_to_socket_id(lcore));

	if (prm == NULL) {
		*ret = -ENOMEM;
		snprintf(err, errlen, "PMD on lcore %u: out of memory", lcore);
		return NULL;
	}
	prm->gen = gen;
	lull_config_policy(cfg, lcore, &prm->policy);
	*ret = lull_policy_check(&prm->policy);
	if (*ret == 0)
		*ret = lull_waiter_init(
			&prm->waiter, cfg->wk.wake, cfg->wk.intr_wait_max_ms, err, errlen);
	else
		snprintf(err, errlen, "PMD on lcore %u: sleep parameters out of range", lcore);
	if (*ret < 0)
		goto fail;
	lull_waiter_inject(&prm->waiter, &cfg->wk.inject, (uint64_t)lcore + 1);
	prm->timer_slack_ns = cfg->wk.timer_slack_ns;
	prm->wake_priority = cfg->wk.wake_priority;
	prm->drain_us = cfg->drain_us;
	prm->yield_hz = cfg->yield_hz;
	prm->yield_us = cfg->yield_us;
	prm->intr_after_ns =
		prm->policy.kind != LULL_POLICY_OFF ? (uint64_t)cfg->wk.intr_after_ms * 1000000 : 0;
	for (unsigned int p = 0; p < cfg->n_ports; p++) {
		uint16_t dst = cfg->dst_port[p];

		if (dst == LULL_PORT_NONE)
			continue; /* removed, or waiting for its pair */
		for (unsigned int q = 0; q < cfg->n_rxq; q++) {
			struct lull_rxq_conf *rc;

			if (cfg->rxq_pmd[p][q] != index)
				continue;
			if (prm->n_rxqs == LULL_PMD_MAX_RXQS) {
				*ret = -E2BIG;
				snprintf(err, errlen,
					"PMD on lcore %u would poll over %d rx queues", lcore,
					LULL_PMD_MAX_RXQS);
				goto fail;
			}
			if (!(ports[p].present && ports[p].rx_intr))
				prm->intr_after_ns = 0; /* one queue that cannot interrupt: never */
			/* the burst tolerance is the smallest ring's, at the fastest line */
			if (prm->n_rxqs == 0 || ports[p].rx_ring < prm->policy.min_ring) {
				prm->policy.min_ring = ports[p].rx_ring;
				prm->ring_port = (uint16_t)p;
			}
			if (ports[p].line_pps / 1e9 > prm->policy.line_ppns)
				prm->policy.line_ppns = ports[p].line_pps / 1e9;
			prm->line_assumed = prm->line_assumed || ports[p].line_assumed;
			rc = &prm->rxqs[prm->n_rxqs++];
			rc->port = (uint16_t)p;
			rc->queue = (uint16_t)q;
			rc->dst = dst;
			rc->ctx.tx_mac = ports[dst].mac;
			memcpy(rc->ctx.peer_mac.addr_bytes, cfg->peer_mac[dst], RTE_ETHER_ADDR_LEN);
		}
	}
	for (unsigned int i = 0; prm->waiter.kind == LULL_WAKE_MONITOR && i < prm->n_rxqs; i++) {
		struct rte_power_monitor_cond pmc;

		if (rte_eth_get_monitor_addr(prm->rxqs[i].port, prm->rxqs[i].queue, &pmc) != 0) {
			snprintf(err, errlen,
				"--wake: bad value 'monitor' (the driver of port %u offers no "
				"monitor address for its rx queue %u)",
				prm->rxqs[i].port, prm->rxqs[i].queue);
			*ret = -ENOTSUP;
			goto fail;
		}
	}
	*ret = 0;
	return prm;
fail:
	rte_free(prm);
	return NULL;
}

struct lull_pmd *
lull_pmd_create(const struct lull_config *cfg, unsigned int index, struct lull_pmd_params *params,
	int *ret, char *err, size_t errlen)
{
	unsigned int lcore = cfg->pmd_lcores[index];
	struct lull_pmd *pmd = rte_zmalloc_socket(
		"lull_pmd", sizeof(*pmd), 64, (int)rte_lcore_to_socket_id(lcore));

	if (pmd == NULL) {
		rte_free(params);
		*ret = -ENOMEM;
		snprintf(err, errlen, "PMD on lcore %u: out of memory", lcore);
		return NULL;
	}
	pmd->lcore = lcore;
	pmd->cyc_rng = 0x9e3779b9u ^ (lcore + 1); /* xorshift: never 0 */
	pmd->index = index;
	pmd->burst = cfg->burst;
	pmd->tx_retries = cfg->tx_retries;
	pmd->direct_tx_min = (uint16_t)((cfg->burst + 1) / 2);
	pmd->mode = lull_mode_get(cfg->mode);
	atomic_init(&pmd->stop, false);
	atomic_init(&pmd->next, NULL);
	atomic_init(&pmd->ack, 0);
	atomic_init(&pmd->tid, 0);
	/* without it a PMD in an interrupt wait sees control at its bound (--intr-wait-max-ms) */
	pmd->ctl_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (pmd->ctl_fd < 0)
		LULL_LOG(WARNING,
			"PMD on lcore %u: eventfd: %s; control reaches a PMD in an "
			"interrupt wait within --intr-wait-max-ms only",
			lcore, strerror(errno));
	lull_pmd_nap_init(pmd);
	/* a driver's teardown waits for it (teardown_guard.h); none left: it does not */
	lull_nap_set_quiesce(&pmd->nap, lull_quiesce_claim());
	*ret = lull_pmd_publish(pmd, params, false, 0);
	if (*ret < 0) {
		snprintf(err, errlen, "PMD on lcore %u: tx buffers: %s", lcore, strerror(-*ret));
		lull_pmd_free(pmd);
		return NULL;
	}
	return pmd;
}

/* Every tx buffer a block needs exists before the block is published. */
int
lull_pmd_prepare(struct lull_pmd *pmd, const struct lull_pmd_params *prm)
{
	for (unsigned int i = 0; i < prm->n_rxqs; i++) {
		struct lull_txq *txq = &pmd->txqs[prm->rxqs[i].dst][prm->rxqs[i].queue];

		if (txq->buf != NULL)
			continue;
		txq->buf = rte_zmalloc_socket("lull_txbuf", RTE_ETH_TX_BUFFER_SIZE(pmd->burst), 64,
			rte_eth_dev_socket_id(prm->rxqs[i].dst));
		if (txq->buf == NULL)
			return -ENOMEM;
		rte_eth_tx_buffer_init(txq->buf, pmd->burst);
		rte_eth_tx_buffer_set_err_callback(txq->buf, lull_pmd_txq_unsent, txq);
		txq->port = prm->rxqs[i].dst;
		txq->queue = prm->rxqs[i].queue;
		txq->retries = pmd->tx_retries;
	}
	return 0;
}

static uint64_t
now_ns(void)
{
	return lull_clock_ns(CLOCK_MONOTONIC);
}

bool
lull_pmd_wait_ack(const struct lull_pmd *pmd, uint64_t gen, unsigned int timeout_ms)
{
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 100000};
	/* a deadline on the clock: a count of 100 us naps overran it by half (a
	 * nap takes longer) and more on a loaded machine */
	uint64_t deadline_ns = now_ns() + (uint64_t)timeout_ms * 1000000;

	for (;;) {
		if (atomic_load_explicit(&pmd->ack, memory_order_acquire) >= gen)
			return true;
		if (now_ns() >= deadline_ns)
			return false;
		nanosleep(&tick, NULL);
	}
}

int
lull_pmd_publish(
	struct lull_pmd *pmd, struct lull_pmd_params *params, bool running, unsigned int timeout_ms)
{
	int ret;

	if (pmd->pending != NULL) {
		/* a block that timed out earlier: taken since? */
		if (atomic_load_explicit(&pmd->ack, memory_order_acquire) < pmd->pending->gen) {
			rte_free(params);
			return -EBUSY;
		}
		rte_free((void *)(uintptr_t)pmd->ctl_params);
		pmd->ctl_params = pmd->pending;
		pmd->pending = NULL;
	}
	ret = lull_pmd_prepare(pmd, params);
	if (ret < 0) {
		rte_free(params);
		return ret;
	}
	atomic_store_explicit(&pmd->next, params, memory_order_release);
	lull_pmd_kick(pmd);
	if (running && !lull_pmd_wait_ack(pmd, params->gen, timeout_ms)) {
		pmd->pending = params;
		return -ETIMEDOUT;
	}
	/* acknowledged (or not running yet): the PMD no longer reads the old block */
	rte_free((void *)(uintptr_t)pmd->ctl_params);
	pmd->ctl_params = params;
	return 0;
}

void
lull_pmd_drop_txq(struct lull_pmd *pmd, uint16_t port)
{
	for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++) {
		struct lull_txq *txq = &pmd->txqs[port][q];

		rte_free(txq->buf);
		txq->buf = NULL;
		atomic_store_explicit(&txq->sent, 0, memory_order_relaxed);
		atomic_store_explicit(&txq->dropped, 0, memory_order_relaxed);
		atomic_store_explicit(&pmd->rx_pkts[port][q], 0, memory_order_relaxed);
		atomic_store_explicit(&pmd->rx_cycles[port][q], 0, memory_order_relaxed);
	}
}

void
lull_pmd_free(struct lull_pmd *pmd)
{
	if (pmd == NULL)
		return;
	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++)
			rte_free(pmd->txqs[p][q].buf);
	if (pmd->pending != pmd->ctl_params)
		rte_free((void *)(uintptr_t)pmd->pending);
	rte_free((void *)(uintptr_t)pmd->ctl_params);
	if (pmd->ctl_fd >= 0)
		close(pmd->ctl_fd);
	lull_quiesce_release(pmd->nap.qs);
	rte_free(pmd);
}

void
lull_pmd_kick(struct lull_pmd *pmd)
{
	uint64_t one = 1;

	/* EAGAIN only when the counter is full: it is readable then anyway */
	if (pmd->ctl_fd >= 0 && write(pmd->ctl_fd, &one, sizeof(one)) < 0)
		return;
}

void
lull_pmd_request_stop(struct lull_pmd *pmd)
{
	atomic_store_explicit(&pmd->stop, true, memory_order_release);
	lull_pmd_kick(pmd);
}

uint64_t
lull_pmd_port_tx(const struct lull_pmd *pmd, uint16_t port, bool dropped)
{
	uint64_t sum = 0;

	for (uint16_t q = 0; q < LULL_MAX_QUEUES; q++)
		sum += lull_pmd_txq_count(pmd, port, q, dropped);
	return sum;
}

uint64_t
lull_pmd_tx_total(const struct lull_pmd *pmd, bool dropped)
{
	uint64_t sum = 0;

	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		sum += lull_pmd_port_tx(pmd, (uint16_t)p, dropped);
	return sum;
}

void
lull_pmd_burst_view(
	const struct lull_pmd_params *prm, double lateness_us, struct lull_burst_view *v)
{
	lull_nap_burst_view(&prm->policy, prm->ring_port, prm->line_assumed, lateness_us, v);
}

void
lull_pmd_burst_hist(const struct lull_pmd *pmd, struct lull_hist *out)
{
	lull_nap_burst_hist(&pmd->nap, pmd->burst, out);
}

uint64_t
lull_pmd_rx_total(const struct lull_pmd *pmd, uint16_t port)
{
	uint64_t sum = 0;

	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		if (port == UINT16_MAX || p == port)
			for (unsigned int q = 0; q < LULL_MAX_QUEUES; q++)
				sum += lull_counter_read(&pmd->rx_pkts[p][q]);
	return sum;
}
