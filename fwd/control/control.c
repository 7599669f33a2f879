/* SPDX-License-Identifier: BSD-3-Clause */
#include "control.h"

#include "topology.h"
#include "log.h"
#include "memif_sock.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_lcore.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "isolate.h"
#include "stats.h"

/* A change under the control lock, on a copy of the configuration (cfg) that
 * becomes fwd->cfg only if the change applies whole. */
struct change {
	const char *what; /**< for "out of memory" */
	const char *a, *b;
	uint16_t *id;
};

static int
set_locked(struct lull_fwd *fwd, struct lull_config *cfg, const void *arg, char *err, size_t errlen)
{
	const struct change *ch = arg;
	char why[96];
	int ret = lull_config_set(cfg, ch->a, ch->b, err, errlen);

	if (ret < 0)
		return ret;
	snprintf(why, sizeof(why), "set %s %.48s", ch->a, ch->b);
	return lull_publish_locked(fwd, cfg, why, err, errlen);
}

int
lull_control_set(struct lull_fwd *fwd, const char *key, const char *value, char *err, size_t errlen)
{
	const struct change ch = {.what = "set", .a = key, .b = value};

	return lull_publish_change(fwd, ch.what, set_locked, &ch, err, errlen);
}

int
lull_control_port_find(const struct lull_fwd *fwd, const char *name, char *err, size_t errlen)
{
	char *end;
	unsigned long id = strtoul(name, &end, 10);

	for (unsigned int p = 0; p < fwd->n_ports; p++)
		if (fwd->ports[p].present && (strcmp(fwd->ports[p].name, name) == 0 ||
						     (*name != '\0' && *end == '\0' && id == p)))
			return (int)p;
	snprintf(err, errlen, "no port '%s'", name);
	return -ENODEV;
}

/* The port id a successful probe created: the one that was not there before. */
static int
new_port(const bool *before)
{
	uint16_t id;

	RTE_ETH_FOREACH_DEV(id)
	{
		if (id < LULL_MAX_PORTS && !before[id])
			return id;
	}
	return -ENODEV;
}

static unsigned int
ports_present(const struct lull_fwd *fwd)
{
	unsigned int n = 0;

	for (unsigned int p = 0; p < fwd->n_ports; p++)
		n += fwd->ports[p].present;
	return n;
}

static int
port_add_locked(
	struct lull_fwd *fwd, struct lull_config *cfg, const void *arg, char *err, size_t errlen)
{
	const struct change *ch = arg;
	const char *devargs = ch->a, *peer_name = ch->b;
	uint16_t *id = ch->id;
	bool before[LULL_MAX_PORTS] = {false};
	uint16_t p, peer = LULL_PORT_NONE;
	struct lull_port_conf pc;
	char why[96];
	int ret;

	if (ports_present(fwd) >= fwd->max_ports) {
		snprintf(err, errlen,
			"port-add: the mbuf pool is sized for %u ports (raise --hotplug-ports at "
			"start)",
			fwd->max_ports);
		return -ENOSPC;
	}
	if (peer_name != NULL && strcmp(peer_name, "self") != 0) {
		ret = lull_control_port_find(fwd, peer_name, err, errlen);
		if (ret < 0)
			return ret;
		peer = (uint16_t)ret;
		if (fwd->cfg.dst_port[peer] != LULL_PORT_NONE) {
			snprintf(err, errlen,
				"port-add: peer '%s' is already forwarded (to port %u); name a "
				"port added without a peer",
				peer_name, fwd->cfg.dst_port[peer]);
			return -EINVAL;
		}
	}
	RTE_ETH_FOREACH_DEV(p)
	{
		if (p < LULL_MAX_PORTS)
			before[p] = true;
	}
	lull_memif_clear_stale(devargs);
	ret = rte_dev_probe(devargs);
	if (ret < 0) {
		snprintf(err, errlen, "port-add: bad devargs '%s': probe failed (%s)", devargs,
			strerror(-ret));
		return ret;
	}
	ret = new_port(before);
	if (ret < 0) {
		snprintf(err, errlen, "port-add: '%s' was probed but made no ethdev port", devargs);
		return ret;
	}
	*id = (uint16_t)ret;
	if (peer_name != NULL && strcmp(peer_name, "self") == 0)
		peer = *id;
	lull_config_port_conf(cfg, &pc);
	ret = lull_port_check(*id, &pc, err, errlen);
	if (ret == 0)
		ret = lull_port_start(&fwd->ports[*id], *id, &pc, fwd->pool, err, errlen);
	if (ret == 0)
		ret = lull_config_port_add(cfg, *id, peer, err, errlen);
	if (ret == 0) {
		if (*id >= fwd->n_ports)
			fwd->n_ports = *id + 1u;
		snprintf(why, sizeof(why), "port-add %s", fwd->ports[*id].name);
		ret = lull_publish_locked(fwd, cfg, why, err, errlen);
		if (ret == 0 || ret == -ETIMEDOUT)
			return ret;
	}
	/* undo: the port was never polled; its name may be added again */
	if (fwd->ports[*id].present)
		lull_port_remove(&fwd->ports[*id]);
	else
		lull_port_detach(*id);
	return ret;
}

/*
 * After a port-add, outside the lock: wait until the new port's link is up,
 * --link-wait-ms at most, so that the reply says whether it is. The PMDs poll
 * it already (a port forwards once its link comes up); every other command,
 * the stats and a stop go on meanwhile - the wait ends when lull stops or the
 * port is removed. Each look is under the lock.
 */
static void
port_add_wait_link(struct lull_fwd *fwd, uint16_t id)
{
	const struct timespec step = {.tv_sec = 0, .tv_nsec = 50 * 1000000L};

	for (uint32_t waited_ms = 0;; waited_ms += 50) {
		struct rte_eth_link link;
		bool done;

		pthread_mutex_lock(&fwd->lock);
		done = fwd->gone || !fwd->accepting || !fwd->ports[id].present ||
		       waited_ms >= fwd->cfg.link_wait_ms ||
		       (rte_eth_link_get_nowait(id, &link) == 0 &&
			       link.link_status == RTE_ETH_LINK_UP);
		pthread_mutex_unlock(&fwd->lock);
		if (done)
			return;
		nanosleep(&step, NULL);
	}
}

int
lull_control_port_add(struct lull_fwd *fwd, const char *devargs, const char *peer, uint16_t *id,
	char *err, size_t errlen)
{
	const struct change ch = {.what = "port-add", .a = devargs, .b = peer, .id = id};
	int ret = lull_publish_change(fwd, ch.what, port_add_locked, &ch, err, errlen);

	if (ret == 0 || ret == -ETIMEDOUT)
		port_add_wait_link(fwd, *id);
	return ret;
}

static void port_gone(struct lull_fwd *fwd, uint16_t id);

static int
port_del_locked(
	struct lull_fwd *fwd, struct lull_config *cfg, const void *arg, char *err, size_t errlen)
{
	const struct change *ch = arg;
	char why[96];
	uint16_t id;
	int ret = lull_control_port_find(fwd, ch->a, err, errlen);

	if (ret < 0)
		return ret;
	id = (uint16_t)ret;
	if (fwd->del_gen[id] != 0) {
		snprintf(err, errlen,
			"port-del: '%s' is being removed (a PMD has yet to let it go)", ch->a);
		return -EBUSY;
	}
	lull_config_port_del(cfg, id);
	snprintf(why, sizeof(why), "port-del %s", fwd->ports[id].name);
	/* Every PMD must have stopped polling it before it goes. */
	ret = lull_publish_locked(fwd, cfg, why, err, errlen);
	if (ret == -ETIMEDOUT) {
		/* the change is published: the port goes once every PMD took it */
		fwd->del_gen[id] = fwd->gen;
		snprintf(err, errlen,
			"port-del: a PMD did not let '%s' go within %d ms; it is removed as soon "
			"as it does (port-show meanwhile lists it)",
			ch->a, LULL_CTL_ACK_TIMEOUT_MS);
		return ret;
	}
	if (ret < 0)
		return ret;
	port_gone(fwd, id);
	return 0;
}

/* A port no PMD polls any more: free the PMDs' tx buffers toward it, detach it. */
static void
port_gone(struct lull_fwd *fwd, uint16_t id)
{
	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		lull_pmd_drop_txq(fwd->pmds[i], id);
	LULL_LOG(INFO, "port %u (%s) removed", id, fwd->ports[id].name);
	lull_port_remove(&fwd->ports[id]);
	fwd->del_gen[id] = 0;
}

void
lull_control_tick_locked(struct lull_fwd *fwd)
{
	for (uint16_t id = 0; id < fwd->n_ports; id++)
		if (fwd->del_gen[id] != 0 && lull_publish_all_took(fwd, fwd->del_gen[id]))
			port_gone(fwd, id);
}

int
lull_control_port_del(struct lull_fwd *fwd, const char *name, char *err, size_t errlen)
{
	const struct change ch = {.what = "port-del", .a = name};

	return lull_publish_change(fwd, ch.what, port_del_locked, &ch, err, errlen);
}

int
lull_control_stats_clear(struct lull_fwd *fwd, char *err, size_t errlen)
{
	int ret = 0;

	pthread_mutex_lock(&fwd->lock);
	if (fwd->gone) {
		pthread_mutex_unlock(&fwd->lock);
		snprintf(err, errlen, "%s", LULL_STOPPING);
		return -ESHUTDOWN;
	}
	ret = lull_stats_clear_locked(fwd, err, errlen);
	pthread_mutex_unlock(&fwd->lock);
	return ret;
}
