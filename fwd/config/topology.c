/* SPDX-License-Identifier: BSD-3-Clause */
#include "topology.h"

#include "parse.h"

#include <errno.h>
#include <stdbool.h>

static int
resolve_pmds(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	if (cfg->n_pmds == 0) {
		for (unsigned int l = 0; l < LULL_MAX_LCORES && cfg->n_pmds < LULL_MAX_PMDS; l++)
			if (sys->lcore_enabled[l] && l != sys->main_lcore)
				cfg->pmd_lcores[cfg->n_pmds++] = l;
		if (cfg->n_pmds == 0)
			return lull_errf(err, errlen, -EINVAL,
				"no PMD core: give EAL at least two lcores (e.g. -l 0,1; the first "
				"is the main lcore)");
		return 0;
	}
	for (unsigned int i = 0; i < cfg->n_pmds; i++) {
		unsigned int l = cfg->pmd_lcores[i];

		if (l == sys->main_lcore)
			return lull_errf(err, errlen, -EINVAL,
				"--pmd-cores: lcore %u is the EAL main lcore, which runs the "
				"control plane",
				l);
		if (!sys->lcore_enabled[l])
			return lull_errf(err, errlen, -EINVAL,
				"--pmd-cores: lcore %u is not an EAL lcore (add it to EAL's -l "
				"list)",
				l);
	}
	return 0;
}

static int
resolve_pairs(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	bool seen[LULL_MAX_PORTS] = {false};

	if (cfg->n_pairs == 0) {
		if (sys->n_ports % 2 != 0)
			return lull_errf(err, errlen, -EINVAL,
				"odd number of ports (%u) for the default pairing 0<->1, 2<->3, "
				"...: add a port or give --port-pairs (a port may pair with "
				"itself, e.g. 2:2)",
				sys->n_ports);
		for (unsigned int p = 0; p < sys->n_ports; p += 2)
			cfg->pairs[cfg->n_pairs++] =
				(struct lull_port_pair){.a = (uint16_t)p, .b = (uint16_t)(p + 1)};
	}
	for (unsigned int i = 0; i < cfg->n_pairs; i++) {
		uint16_t a = cfg->pairs[i].a, b = cfg->pairs[i].b;

		if (a >= sys->n_ports || b >= sys->n_ports)
			return lull_errf(err, errlen, -EINVAL,
				"--port-pairs: pair %u:%u names a port that does not exist (%u "
				"ports)",
				a, b, sys->n_ports);
		if (seen[a] || (a != b && seen[b]))
			return lull_errf(err, errlen, -EINVAL,
				"--port-pairs: port %u is in more than one pair", seen[a] ? a : b);
		seen[a] = seen[b] = true;
		cfg->dst_port[a] = b;
		cfg->dst_port[b] = a;
	}
	for (unsigned int p = 0; p < sys->n_ports; p++)
		if (!seen[p])
			return lull_errf(err, errlen, -EINVAL,
				"--port-pairs: port %u is in no pair (every port is forwarded)", p);
	return 0;
}

int
lull_config_pin_pmd(
	const struct lull_config *cfg, const struct lull_rxq_pin *pin, char *err, size_t errlen)
{
	int pmd = lull_config_pmd_index(cfg, pin->lcore);

	if (pin->port >= cfg->n_ports)
		return lull_errf(err, errlen, -EINVAL,
			"--rxq-pmd: %u:%u@%u: port %u does not exist (%u ports)", pin->port,
			pin->queue, pin->lcore, pin->port, cfg->n_ports);
	if (pin->queue >= cfg->n_rxq)
		return lull_errf(err, errlen, -EINVAL,
			"--rxq-pmd: %u:%u@%u: queue %u does not exist (--rxq %u)", pin->port,
			pin->queue, pin->lcore, pin->queue, cfg->n_rxq);
	if (pmd < 0)
		return lull_errf(err, errlen, -EINVAL,
			"--rxq-pmd: %u:%u@%u: lcore %u is not a PMD core", pin->port, pin->queue,
			pin->lcore, pin->lcore);
	return pmd;
}

static int
resolve_rxqs(struct lull_config *cfg, char *err, size_t errlen)
{
	bool pinned[LULL_MAX_PORTS][LULL_MAX_QUEUES] = {{false}};
	unsigned int next = 0;

	/* PORT:QUEUE@auto is no pin: dropped */
	for (unsigned int i = 0; i < cfg->n_pins;)
		if (cfg->pins[i].lcore == LULL_PIN_AUTO)
			cfg->pins[i] = cfg->pins[--cfg->n_pins];
		else
			i++;
	for (unsigned int i = 0; i < cfg->n_pins; i++) {
		const struct lull_rxq_pin *pin = &cfg->pins[i];
		int pmd = lull_config_pin_pmd(cfg, pin, err, errlen);

		if (pmd < 0)
			return pmd;
		cfg->rxq_pmd[pin->port][pin->queue] = (uint16_t)pmd;
		pinned[pin->port][pin->queue] = true;
	}
	/* Round-robin the rest, queue-major so that one port's queues spread over PMDs. */
	for (unsigned int q = 0; q < cfg->n_rxq; q++)
		for (unsigned int p = 0; p < cfg->n_ports; p++)
			if (!pinned[p][q])
				cfg->rxq_pmd[p][q] = (uint16_t)(next++ % cfg->n_pmds);
	for (unsigned int pmd = 0; pmd < cfg->n_pmds; pmd++) {
		unsigned int n = 0;

		for (unsigned int p = 0; p < cfg->n_ports; p++)
			for (unsigned int q = 0; q < cfg->n_rxq; q++)
				n += cfg->rxq_pmd[p][q] == pmd;
		if (n > LULL_PMD_MAX_RXQS)
			return lull_errf(err, errlen, -E2BIG,
				"PMD on lcore %u would poll %u rx queues (max %d)",
				cfg->pmd_lcores[pmd], n, LULL_PMD_MAX_RXQS);
	}
	return 0;
}

int
lull_config_resolve(struct lull_config *cfg, const struct lull_sys *sys, char *err, size_t errlen)
{
	int ret;

	if (sys->n_ports == 0)
		return lull_errf(err, errlen, -ENODEV,
			"no ports: give EAL a device, e.g. --vdev net_memif0 or a PCI address "
			"(-a)");
	if (sys->n_ports > LULL_MAX_PORTS)
		return lull_errf(err, errlen, -E2BIG, "%u ports, at most %d are supported",
			sys->n_ports, LULL_MAX_PORTS);
	cfg->n_ports = sys->n_ports;
	ret = resolve_pmds(cfg, sys, err, errlen);
	if (ret == 0)
		ret = resolve_pairs(cfg, sys, err, errlen);
	if (ret < 0)
		return ret;
	/* rx queue q sends on tx queue q of its peer, whichever PMD polls it; as
	 * many tx queues as PMDs too, by default, as when each PMD had its own:
	 * a memif peer sized for that still connects */
	if (cfg->n_txq == 0)
		cfg->n_txq = (uint16_t)(cfg->n_rxq > cfg->n_pmds ? cfg->n_rxq : cfg->n_pmds);
	if (cfg->n_txq < cfg->n_rxq)
		return lull_errf(err, errlen, -EINVAL,
			"--txq: bad value '%u' (rx queue q of a port sends on tx queue q of its "
			"peer, so that its packets leave in order when it moves between PMDs: "
			"at least --rxq %u)",
			cfg->n_txq, cfg->n_rxq);
	ret = resolve_rxqs(cfg, err, errlen);
	if (ret < 0)
		return ret;
	ret = lull_config_check(cfg, err, errlen);
	if (ret < 0)
		return ret;
	if (cfg->n_mbufs == 0) {
		/* Every rx and tx ring full (ports of now and those port-add may add), every
		 * tx buffer full, one burst in flight per PMD, per-lcore mempool caches (256
		 * each), plus slack. */
		uint64_t n = (uint64_t)(cfg->n_ports + cfg->hotplug_ports) *
			     (cfg->n_rxq * cfg->n_rxd + cfg->n_txq * cfg->n_txd);

		n += (uint64_t)cfg->n_pmds * (cfg->n_ports + cfg->hotplug_ports + 1u) * cfg->burst;
		n += (uint64_t)(cfg->n_pmds + 1) * 256 + 4096;
		/* Mbufs smaller than a frame: a full-size frame is a chain of segments. */
		{
			struct lull_port_conf pc;

			lull_config_port_conf(cfg, &pc);
			n *= lull_port_conf_segs(&pc);
		}
		cfg->n_mbufs = n > (16u << 20) ? 16u << 20 : (uint32_t)n;
	}
	return 0;
}

int
lull_config_port_add(struct lull_config *cfg, uint16_t id, uint16_t peer, char *err, size_t errlen)
{
	unsigned int load[LULL_MAX_PMDS] = {0};

	if (id >= LULL_MAX_PORTS)
		return lull_errf(err, errlen, -E2BIG, "port-add: port id %u: at most %d ports", id,
			LULL_MAX_PORTS);
	if (peer != LULL_PORT_NONE && peer != id &&
		(peer >= cfg->n_ports || cfg->dst_port[peer] != LULL_PORT_NONE))
		return lull_errf(err, errlen, -EINVAL,
			"port-add: peer port %u is not a port waiting for a pair", peer);
	for (unsigned int p = 0; p < cfg->n_ports; p++)
		for (unsigned int q = 0; q < cfg->n_rxq; q++)
			if (p != id && cfg->dst_port[p] != LULL_PORT_NONE &&
				cfg->rxq_pmd[p][q] < cfg->n_pmds)
				load[cfg->rxq_pmd[p][q]]++;
	for (unsigned int p = cfg->n_ports; p < id; p++)
		cfg->dst_port[p] = LULL_PORT_NONE; /* ids skipped: no port */
	if (id >= cfg->n_ports)
		cfg->n_ports = id + 1u;
	for (unsigned int q = 0; q < cfg->n_rxq; q++) {
		unsigned int best = 0;

		for (unsigned int pmd = 1; pmd < cfg->n_pmds; pmd++)
			if (load[pmd] < load[best])
				best = pmd;
		cfg->rxq_pmd[id][q] = (uint16_t)best;
		load[best]++;
	}
	cfg->dst_port[id] = peer;
	if (peer != LULL_PORT_NONE)
		cfg->dst_port[peer] = id;
	return 0;
}

void
lull_config_port_del(struct lull_config *cfg, uint16_t id)
{
	if (id >= cfg->n_ports)
		return;
	if (cfg->dst_port[id] != LULL_PORT_NONE && cfg->dst_port[id] != id)
		cfg->dst_port[cfg->dst_port[id]] = LULL_PORT_NONE; /* the peer waits for a pair */
	cfg->dst_port[id] = LULL_PORT_NONE;
	/* a latency-critical mark goes with its port */
	for (unsigned int i = 0; i < cfg->n_critical;)
		if (cfg->critical[i].port == id)
			cfg->critical[i] = cfg->critical[--cfg->n_critical];
		else
			i++;
	/* and so do its pins: a port added later under its number starts free */
	for (unsigned int i = 0; i < cfg->n_pins;)
		if (cfg->pins[i].port == id)
			cfg->pins[i] = cfg->pins[--cfg->n_pins];
		else
			i++;
}
