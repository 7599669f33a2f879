/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarder brought up (topology, ports, pool, PMDs) and down. See setup.h.
 */
#include "setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "balance.h"
#include "log.h"
#include "stats.h"
#include "topology.h"

static struct lull_sys
probe_sys(void)
{
	struct lull_sys sys = {
		.n_ports = rte_eth_dev_count_avail(), .main_lcore = rte_get_main_lcore()};
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
	{
		if (lcore < LULL_MAX_LCORES)
			sys.lcore_enabled[lcore] = true;
	}
	return sys;
}

static int
create_pool(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;

	fwd->pool = rte_pktmbuf_pool_create("lull_mbufs", fwd->cfg.n_mbufs, 256, 0,
		(uint16_t)(fwd->cfg.mbuf_size + RTE_PKTMBUF_HEADROOM), (int)rte_socket_id());
	if (fwd->pool == NULL) {
		snprintf(err, errlen,
			"--mbufs: cannot create a pool of %u mbufs: %s (raise EAL -m)",
			fwd->cfg.n_mbufs, rte_strerror(rte_errno));
		return -rte_errno;
	}
	lull_config_port_conf(&fwd->cfg, &pc);
	if (lull_port_conf_segs(&pc) > 1)
		LULL_LOG(INFO, "%u mbufs of %u data bytes: a %u-byte frame is a chain of %u",
			fwd->cfg.n_mbufs, fwd->cfg.mbuf_size, LULL_FRAME_MAX_DEFAULT,
			lull_port_conf_segs(&pc));
	return 0;
}

static int
check_ports(const struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;
	uint16_t id;

	lull_config_port_conf(&fwd->cfg, &pc);
	RTE_ETH_FOREACH_DEV(id)
	{
		int ret = lull_port_check(id, &pc, err, errlen);

		if (ret < 0)
			return ret;
	}
	return 0;
}

static int
start_ports(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_port_conf pc;
	uint16_t id;

	lull_config_port_conf(&fwd->cfg, &pc);
	RTE_ETH_FOREACH_DEV(id)
	{
		int ret = lull_port_start(&fwd->ports[id], id, &pc, fwd->pool, err, errlen);

		if (id >= fwd->n_ports)
			fwd->n_ports = id + 1u;
		if (ret < 0)
			return ret;
	}
	fwd->max_ports = fwd->cfg.n_ports + fwd->cfg.hotplug_ports;
	return 0;
}

static int
create_pmds(struct lull_fwd *fwd, char *err, size_t errlen)
{
	for (unsigned int p = 0; p < fwd->n_ports; p++)
		lull_port_measure(&fwd->ports[p], fwd->cfg.n_rxd);
	fwd->gen = 1;
	for (unsigned int i = 0; i < fwd->cfg.n_pmds; i++) {
		struct lull_pmd_params *prm;
		int ret;

		prm = lull_pmd_params_build(&fwd->cfg, i, fwd->gen, fwd->ports, &ret, err, errlen);
		if (prm == NULL)
			return ret;
		fwd->pmds[i] = lull_pmd_create(&fwd->cfg, i, prm, &ret, err, errlen);
		if (fwd->pmds[i] == NULL)
			return ret;
		fwd->n_pmds++;
	}
	return 0;
}

/* Every mbuf must be back in the pool once the ports are closed. */
static int
check_pool(const struct lull_fwd *fwd)
{
	unsigned int avail = rte_mempool_avail_count(fwd->pool);
	unsigned int size = fwd->pool->size;

	if (avail != size) {
		LULL_LOG(WARNING, "%u of %u mbufs not returned to the pool", size - avail, size);
		return -EFAULT;
	}
	LULL_LOG(INFO, "mbufs: all %u back in the pool", size);
	return 0;
}

int
lull_fwd_setup(struct lull_fwd *fwd, char *err, size_t errlen)
{
	struct lull_sys sys = probe_sys();
	int ret = lull_config_resolve(&fwd->cfg, &sys, err, errlen);

	if (ret == 0)
		ret = check_ports(fwd, err, errlen);
	if (ret == 0)
		ret = create_pool(fwd, err, errlen);
	if (ret == 0)
		ret = start_ports(fwd, err, errlen);
	if (ret == 0)
		ret = create_pmds(fwd, err, errlen);
	return ret;
}

int
lull_fwd_teardown(struct lull_fwd *fwd)
{
	int ret = 0;

	/* From here telemetry (its own thread, registered until the process ends)
	 * touches nothing that is freed: a command that holds the lock now finishes
	 * first, every later one sees gone. */
	pthread_mutex_lock(&fwd->lock);
	fwd->gone = true;
	pthread_mutex_unlock(&fwd->lock);
	for (unsigned int i = 0; i < fwd->n_ports; i++)
		lull_port_close(&fwd->ports[i]);
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		lull_pmd_free(fwd->pmds[i]);
		fwd->pmds[i] = NULL;
	}
	fwd->n_pmds = 0;
	lull_stats_free_locked(fwd);
	lull_balance_free(fwd);
	if (fwd->pool != NULL) {
		ret = check_pool(fwd);
		rte_mempool_free(fwd->pool);
		fwd->pool = NULL;
	}
	return ret;
}
