/* SPDX-License-Identifier: BSD-3-Clause */
#include "txq_watch.h"

#include <inttypes.h>
#include <stdbool.h>

#include <rte_ethdev.h>

#include "fwd.h"
#include "log.h"
#include "pmd.h"

static bool
link_up(uint16_t port)
{
	struct rte_eth_link link;

	return rte_eth_link_get_nowait(port, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
}

static void
watch(struct lull_fwd *fwd, uint16_t port, unsigned int i, bool up)
{
	struct lull_txq_watch *w = &fwd->txq_watch[port][i];
	const struct lull_txq *txq = &fwd->pmds[i]->txqs[port];
	uint64_t sent = lull_counter_read(&txq->sent), dropped = lull_counter_read(&txq->dropped);

	if (!up) {
		w->state = LULL_TXQ_IDLE;
		return;
	}
	switch (w->state) {
	case LULL_TXQ_IDLE:
		w->sent0 = sent;
		w->dropped0 = dropped;
		w->state = LULL_TXQ_WATCHING;
		break;
	case LULL_TXQ_WATCHING:
		if (sent != w->sent0) {
			w->state = LULL_TXQ_SENDS;
		} else if (dropped - w->dropped0 >= LULL_TXQ_WATCH_MIN) {
			w->state = LULL_TXQ_REFUSING;
			LULL_LOG(WARNING,
				"port %u (%s): tx queue %u (PMD on lcore %u) refused all %" PRIu64
				" packets it was given since the link came up: its peer has no "
				"ring "
				"behind it? (a memif peer needs as many rx queues as lull has "
				"PMDs, "
				"%u); they count as tx-dropped",
				port, fwd->ports[port].name, i, fwd->pmds[i]->lcore,
				dropped - w->dropped0, fwd->n_pmds);
		}
		break;
	case LULL_TXQ_REFUSING:
		if (sent != w->sent0) {
			w->state = LULL_TXQ_SENDS;
			LULL_LOG(INFO, "port %u (%s): tx queue %u (PMD on lcore %u) sends again",
				port, fwd->ports[port].name, i, fwd->pmds[i]->lcore);
		}
		break;
	default:
		break;
	}
}

void
lull_txq_watch_tick_locked(struct lull_fwd *fwd)
{
	for (unsigned int p = 0; p < fwd->n_ports; p++) {
		bool up = fwd->ports[p].present && link_up((uint16_t)p);

		for (unsigned int i = 0; i < fwd->n_launched; i++)
			watch(fwd, (uint16_t)p, i, up);
	}
}

unsigned int
lull_txq_watch_refusing(const struct lull_fwd *fwd, uint16_t port)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < fwd->n_launched; i++)
		n += fwd->txq_watch[port][i].state == LULL_TXQ_REFUSING;
	return n;
}
