/* SPDX-License-Identifier: BSD-3-Clause */
#include "txq_watch.h"

#include <inttypes.h>
#include <stdbool.h>

#include "fwd.h"
#include "log.h"
#include "pmd_ctl.h"

static void
watch(struct lull_fwd *fwd, uint16_t port, uint16_t q, bool up)
{
	struct lull_txq_watch *w = &fwd->txq_watch[port][q];
	uint64_t sent = 0, dropped = 0;

	if (!up) {
		w->state = LULL_TXQ_IDLE;
		return;
	}
	for (unsigned int i = 0; i < fwd->n_launched; i++) {
		sent += lull_pmd_txq_count(fwd->pmds[i], port, q, false);
		dropped += lull_pmd_txq_count(fwd->pmds[i], port, q, true);
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
				"port %u (%s): tx queue %u refused all %" PRIu64
				" packets it was given since the link came up: its peer has no "
				"ring behind it? (a memif peer needs as many rx queues as lull's "
				"--rxq, "
				"%u); they count as tx-dropped",
				port, fwd->ports[port].name, q, dropped - w->dropped0,
				fwd->cfg.n_rxq);
		}
		break;
	case LULL_TXQ_REFUSING:
		if (sent != w->sent0) {
			w->state = LULL_TXQ_SENDS;
			LULL_LOG(INFO, "port %u (%s): tx queue %u sends again", port,
				fwd->ports[port].name, q);
		}
		break;
	default:
		break;
	}
}

void
lull_txq_watch_tick_locked(struct lull_fwd *fwd, const int8_t *was_up)
{
	for (unsigned int p = 0; p < fwd->n_ports; p++) {
		bool up = fwd->ports[p].present && was_up[p] == 1;

		for (uint16_t q = 0; q < fwd->cfg.n_txq && q < LULL_MAX_QUEUES; q++)
			watch(fwd, (uint16_t)p, q, up);
	}
}

unsigned int
lull_txq_watch_refusing(const struct lull_fwd *fwd, uint16_t port)
{
	unsigned int n = 0;

	for (unsigned int q = 0; q < fwd->cfg.n_txq && q < LULL_MAX_QUEUES; q++)
		n += fwd->txq_watch[port][q].state == LULL_TXQ_REFUSING;
	return n;
}
