/* SPDX-License-Identifier: BSD-3-Clause */
#include "port.h"
#include "portline.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include "log.h"

static void
port_conf_for(struct rte_eth_conf *conf, const struct rte_eth_dev_info *info,
	const struct lull_port_conf *pc)
{
	memset(conf, 0, sizeof(*conf));
	if (pc->n_rxq > 1 && info->flow_type_rss_offloads != 0) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf =
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP) &
			info->flow_type_rss_offloads;
	}
	/* Every mbuf comes from one pool with refcnt 1: let the driver free in bulk. */
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	/* Mbufs smaller than a frame: receive into chains where the driver scatters,
	 * and send chains (lull_port_check() made sure the port can). */
	if (lull_port_conf_segs(pc) > 1) {
		conf->rxmode.offloads |= info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER;
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	}
}

static int
port_info(uint16_t id, struct rte_eth_dev_info *info, char name[64], char *err, size_t errlen)
{
	int ret;

	if (rte_eth_dev_get_name_by_port(id, name) != 0)
		snprintf(name, 64, "port%u", id);
	ret = rte_eth_dev_info_get(id, info);
	if (ret < 0)
		snprintf(err, errlen, "port %u (%s): cannot read device info: %s", id, name,
			strerror(-ret));
	return ret;
}

int
lull_port_check(uint16_t id, const struct lull_port_conf *pc, char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	char name[64];
	int ret = port_info(id, &info, name, err, errlen);

	if (ret < 0)
		return ret;
	return lull_port_conf_check(pc,
		&(struct lull_port_limits){.name = name,
			.max_rxq = info.max_rx_queues,
			.max_txq = info.max_tx_queues,
			.rxd_min = info.rx_desc_lim.nb_min,
			.rxd_max = info.rx_desc_lim.nb_max,
			.rxd_align = info.rx_desc_lim.nb_align,
			.txd_min = info.tx_desc_lim.nb_min,
			.txd_max = info.tx_desc_lim.nb_max,
			.txd_align = info.tx_desc_lim.nb_align,
			.tx_multi_seg =
				(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) != 0},
		err, errlen);
}

/* Configure with rx interrupts where the driver has them: a device that
 * refuses is configured again without. */
static int
port_configure(struct lull_port *port, const struct lull_port_conf *pc, struct rte_eth_conf *conf,
	char *err, size_t errlen)
{
	uint16_t id = port->id;
	int ret;

	if (pc->rx_intr) {
		conf->intr_conf.rxq = 1;
		ret = rte_eth_dev_configure(id, pc->n_rxq, pc->n_txq, conf);
		if (ret < 0) {
			LULL_LOG(INFO,
				"port %u (%s): no rx interrupts (%s): its PMD will not hand over",
				id, port->name, strerror(-ret));
			conf->intr_conf.rxq = 0;
		}
	}
	ret = conf->intr_conf.rxq ? 0 : rte_eth_dev_configure(id, pc->n_rxq, pc->n_txq, conf);
	port->rx_intr = conf->intr_conf.rxq;
	if (ret < 0)
		snprintf(err, errlen, "port %u (%s): configure with %u rx / %u tx queues: %s", id,
			port->name, pc->n_rxq, pc->n_txq, strerror(-ret));
	return ret;
}

static int
port_setup_queues(struct lull_port *port, const struct lull_port_conf *pc,
	const struct rte_eth_dev_info *info, const struct rte_eth_conf *conf,
	struct rte_mempool *pool, char *err, size_t errlen)
{
	uint16_t id = port->id;
	int socket = rte_eth_dev_socket_id(id);
	int ret;

	for (uint16_t q = 0; q < pc->n_rxq; q++) {
		ret = rte_eth_rx_queue_setup(id, q, pc->n_rxd, socket, NULL, pool);
		if (ret < 0) {
			snprintf(err, errlen,
				"port %u (%s) refused rx queue %u of %u descriptors (--rxd) into "
				"mbufs of %u data bytes (--mbuf-size): %s",
				id, port->name, q, pc->n_rxd, pc->mbuf_size, strerror(-ret));
			return ret;
		}
	}
	for (uint16_t q = 0; q < pc->n_txq; q++) {
		struct rte_eth_txconf txconf = info->default_txconf;

		txconf.offloads = conf->txmode.offloads;
		ret = rte_eth_tx_queue_setup(id, q, pc->n_txd, socket, &txconf);
		if (ret < 0) {
			snprintf(err, errlen, "--txd: port %u (%s) refused %u tx descriptors: %s",
				id, port->name, pc->n_txd, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* What a started port turned out to have: kernel drop counters, scatter,
 * an interrupt fd, promiscuous mode, its MAC. */
static void
port_started(
	struct lull_port *port, const struct lull_port_conf *pc, const struct rte_eth_conf *conf)
{
	uint16_t id = port->id;
	int ret;

	if (lull_afp_stats_attach(&port->afp, id) > 0)
		LULL_LOG(INFO, "port %u (%s): kernel ring drops read from %u af_packet socket(s)",
			id, port->name, port->afp.n_fds);
	if (lull_port_conf_segs(pc) > 1 && !(conf->rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER))
		LULL_LOG(INFO,
			"port %u (%s): no rx scatter offload: a frame longer than --mbuf-size "
			"%u is chained or dropped as its driver does",
			id, port->name, pc->mbuf_size);
	/* A driver may accept the interrupt configuration and still have no event fd. */
	if (port->rx_intr && rte_eth_dev_rx_intr_ctl_q_get_fd(id, 0) < 0) {
		LULL_LOG(INFO,
			"port %u (%s): no rx interrupts (no event fd): its PMD will not hand over",
			id, port->name);
		port->rx_intr = false;
	}
	/* An L2 forwarder takes every frame; devices without the switch simply lack it. */
	ret = rte_eth_promiscuous_enable(id);
	if (ret < 0 && ret != -ENOTSUP)
		LULL_LOG(WARNING, "port %u (%s): promiscuous mode: %s (continuing)", id, port->name,
			strerror(-ret));
	ret = rte_eth_macaddr_get(id, &port->mac);
	if (ret < 0)
		memset(&port->mac, 0, sizeof(port->mac));
}

int
lull_port_start(struct lull_port *port, uint16_t id, const struct lull_port_conf *pc,
	struct rte_mempool *pool, char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	int ret;

	memset(port, 0, sizeof(*port));
	port->id = id;
	port->present = true; /* closed from now on, even when half set up */
	ret = port_info(id, &info, port->name, err, errlen);
	if (ret < 0)
		return ret;
	port_conf_for(&conf, &info, pc);
	ret = port_configure(port, pc, &conf, err, errlen);
	if (ret < 0)
		return ret;
	ret = port_setup_queues(port, pc, &info, &conf, pool, err, errlen);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_start(id);
	if (ret < 0) {
		snprintf(err, errlen, "port %u (%s): start: %s", id, port->name, strerror(-ret));
		return ret;
	}
	port->started = true;
	port_started(port, pc, &conf);
	return 0;
}

void
lull_port_measure(struct lull_port *port, uint16_t n_rxd)
{
	struct lull_port_line pl;

	lull_port_line_get(port->id, 0, &pl);
	port->rx_ring = pl.rx_ring != 0 ? pl.rx_ring : n_rxd;
	port->line_assumed = pl.line_assumed;
	port->line_pps = pl.line_pps;
}

/* How many present ports' links are not in the state want_up says. */
static unsigned int
links_not(const struct lull_port *ports, unsigned int n, bool want_up)
{
	unsigned int other = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct rte_eth_link link;
		bool up;

		if (!ports[i].present)
			continue;
		up = rte_eth_link_get_nowait(ports[i].id, &link) == 0 &&
		     link.link_status == RTE_ETH_LINK_UP;
		if (up != want_up)
			other++;
	}
	return other;
}

/* Wait (50 ms steps, no polling of any queue) until every present port's link is
 * in the state want_up says, timeout_ms passed or should_stop(); returns how many
 * are not. */
static unsigned int
wait_links(const struct lull_port *ports, unsigned int n, bool want_up, uint32_t timeout_ms,
	bool (*should_stop)(void))
{
	const uint32_t step_ms = 50;
	unsigned int other;

	for (uint32_t waited_ms = 0;; waited_ms += step_ms) {
		const struct timespec ts = {.tv_sec = 0, .tv_nsec = step_ms * 1000000L};

		other = links_not(ports, n, want_up);
		if (other == 0 || waited_ms >= timeout_ms || (should_stop != NULL && should_stop()))
			return other;
		nanosleep(&ts, NULL);
	}
}

unsigned int
lull_port_wait_links_down(const struct lull_port *ports, unsigned int n, uint32_t timeout_ms,
	bool (*should_stop)(void))
{
	return wait_links(ports, n, false, timeout_ms, should_stop);
}

unsigned int
lull_port_wait_links(const struct lull_port *ports, unsigned int n, uint32_t timeout_ms,
	bool (*should_stop)(void))
{
	unsigned int down = wait_links(ports, n, true, timeout_ms, should_stop);

	for (unsigned int i = 0; i < n; i++) {
		struct rte_eth_link link;
		char text[RTE_ETH_LINK_MAX_STR_LEN];

		if (!ports[i].present)
			continue;
		if (rte_eth_link_get_nowait(ports[i].id, &link) < 0)
			snprintf(text, sizeof(text), "unknown");
		else
			rte_eth_link_to_str(text, sizeof(text), &link);
		LULL_LOG(INFO, "port %u (%s) " RTE_ETHER_ADDR_PRT_FMT ": %s", ports[i].id,
			ports[i].name, RTE_ETHER_ADDR_BYTES(&ports[i].mac), text);
	}
	return down;
}

static void
port_stop(struct lull_port *port)
{
	int ret;

	if (!port->started)
		return;
	/* the driver closes its sockets: their last drops now, and no more reads */
	lull_afp_stats_forget(&port->afp);
	ret = rte_eth_dev_stop(port->id);
	if (ret < 0)
		LULL_LOG(WARNING, "port %u (%s): stop: %s", port->id, port->name, strerror(-ret));
	port->started = false;
}

uint64_t
lull_port_rx_missed(const struct lull_port *port, const struct rte_eth_stats *st)
{
	return lull_rx_missed(st, &port->afp);
}

void
lull_port_poll_drops(struct lull_port *port)
{
	if (port->present && port->started)
		lull_afp_stats_read(&port->afp);
}

void
lull_port_close(struct lull_port *port)
{
	int ret;

	if (!port->present)
		return;
	port_stop(port);
	ret = rte_eth_dev_close(port->id);
	if (ret < 0)
		LULL_LOG(WARNING, "port %u (%s): close: %s", port->id, port->name, strerror(-ret));
	port->present = false;
}

void
lull_port_remove(struct lull_port *port)
{
	struct rte_eth_dev_info info;
	int ret;

	if (!port->present)
		return;
	port_stop(port);
	/* detach the device, so that its name (a vdev's) can be added again */
	ret = rte_eth_dev_info_get(port->id, &info);
	if (ret == 0 && info.device != NULL) {
		ret = rte_dev_remove(info.device);
		if (ret == 0) {
			port->present = false;
			return;
		}
		LULL_LOG(WARNING, "port %u (%s): detach: %s (closing it)", port->id, port->name,
			strerror(-ret));
	}
	lull_port_close(port);
}

void
lull_port_detach(uint16_t id)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(id, &info) == 0 && info.device != NULL &&
		rte_dev_remove(info.device) == 0)
		return;
	rte_eth_dev_close(id);
}
