/* SPDX-License-Identifier: BSD-3-Clause */
#include "telemetry.h"

#include "contract.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_telemetry.h>

#include "balance.h"
#include "control.h"
#include "telemetry_cmd.h"
#include "parse.h"
#include "stats.h"

/* The telemetry callbacks have no user argument: one forwarder per process.
 * Atomic: the main thread stores it before registering the commands, and
 * DPDK's callback lock, which orders that for the telemetry threads, is
 * invisible to ThreadSanitizer. */
struct lull_fwd *_Atomic lull_tel_fwd;

/* A refused command replies with one JSON string, the reason (a success is an
 * object or an array): a negative return would lose the message, and a dict
 * value would cut it at 127 characters. */
int
lull_tel_reply_error(struct rte_tel_data *d, const char *msg)
{
	rte_tel_data_string(d, msg);
	return 0;
}

/* Take the control lock for a command that reads lull's state. @return false,
 * with the lock released and the error replied, once lull is torn down. */
bool
lull_tel_lock_live(struct lull_fwd *fwd, struct rte_tel_data *d)
{
	pthread_mutex_lock(&fwd->lock);
	if (!fwd->gone)
		return true;
	pthread_mutex_unlock(&fwd->lock);
	lull_tel_reply_error(d, LULL_STOPPING);
	return false;
}

static int
cmd_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	for (unsigned int p = 0; p < fwd->n_ports; p++) {
		const struct lull_port *port = &fwd->ports[p];
		struct rte_tel_data *c;
		struct lull_port_counts pc;
		struct rte_eth_stats st;
		struct rte_eth_link link;
		char buf[RTE_ETH_LINK_MAX_STR_LEN + 32];

		if (!port->present || (c = rte_tel_data_alloc()) == NULL)
			continue;
		pc = lull_stats_port(fwd, port->id);
		if (rte_eth_stats_get(port->id, &st) != 0)
			memset(&st, 0, sizeof(st));
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "id", port->id);
		rte_tel_data_add_dict_string(c, "name", port->name);
		if (fwd->cfg.dst_port[p] == LULL_PORT_NONE)
			rte_tel_data_add_dict_string(c, "peer", "none");
		else
			rte_tel_data_add_dict_string(
				c, "peer", fwd->ports[fwd->cfg.dst_port[p]].name);
		snprintf(
			buf, sizeof(buf), RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&port->mac));
		rte_tel_data_add_dict_string(c, "mac", buf);
		if (rte_eth_link_get_nowait(port->id, &link) < 0)
			snprintf(buf, sizeof(buf), "unknown");
		else
			rte_eth_link_to_str(buf, sizeof(buf), &link);
		rte_tel_data_add_dict_string(c, "link", buf);
		rte_tel_data_add_dict_string(c, "rx_interrupts", port->rx_intr ? "yes" : "no");
		rte_tel_data_add_dict_u64(c, "rx_packets", pc.rx);
		rte_tel_data_add_dict_u64(c, "tx_packets", pc.tx);
		rte_tel_data_add_dict_u64(c, "tx_dropped", pc.tx_dropped + st.oerrors);
		rte_tel_data_add_dict_u64(c, "rx_missed", lull_port_rx_missed(port, &st));
		rte_tel_data_add_dict_u64(
			c, "tx_queues_refusing", lull_txq_watch_refusing(fwd, port->id));
		snprintf(buf, sizeof(buf), "port%u", port->id);
		rte_tel_data_add_dict_container(d, buf, c, 0);
	}
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

static int
cmd_config(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	lull_config_describe(&fwd->cfg, lull_nap_tel_config_emit, d);
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

/* The keys of /lull/set that are placement, not settings: a live move is two
 * publications (fwd/control/balance.c), which set_locked cannot express. */
static const char *const placement_keys[] = {"rxq-pmd", "rxq_pmd"};

static bool
is_placement(const char *key)
{
	for (size_t i = 0; i < sizeof(placement_keys) / sizeof(placement_keys[0]); i++)
		if (strcmp(key, placement_keys[i]) == 0)
			return true;
	return false;
}

static int
cmd_set(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[512] = "";
	char buf[512];
	char *key, *value;
	uint64_t gen;
	int ret;

	(void)cmd;
	if (params == NULL || strlen(params) >= sizeof(buf))
		return lull_tel_reply_error(d, "usage: /lull/set,KEY VALUE");
	strcpy(buf, params);
	if (lull_split_kv(buf, &key, &value) < 0)
		return lull_tel_reply_error(
			d, "usage: /lull/set,KEY VALUE (KEY: see /lull/settable)");
	ret = is_placement(key) ? lull_balance_move(lull_tel_fwd, value, err, sizeof(err))
				: lull_control_set(lull_tel_fwd, key, value, err, sizeof(err));
	if (ret < 0)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d)) /* the control plane writes gen under it */
		return 0;
	gen = lull_tel_fwd->gen;
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	lull_nap_tel_set_reply(d, key, value, gen);
	return 0;
}

static int
cmd_settable(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[512];

	(void)cmd;
	(void)params;
	snprintf(buf, sizeof(buf), "%s %s", lull_config_settable(), placement_keys[0]);
	lull_nap_tel_words(d, buf);
	return 0;
}

static int
cmd_stats_clear(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[128] = "";
	unsigned int n;

	(void)cmd;
	(void)params;
	if (lull_control_stats_clear(lull_tel_fwd, err, sizeof(err)) < 0)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d))
		return 0;
	n = lull_tel_fwd->n_pmds;
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "cleared", n);
	return 0;
}

static int
cmd_port_add(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[512] = "";
	char buf[512];
	char *peer = NULL, *sp;
	uint16_t id;
	int ret;

	(void)cmd;
	if (params == NULL || *params == '\0' || strlen(params) >= sizeof(buf))
		return lull_tel_reply_error(d, "usage: /lull/port_add,DEVARGS [PEER|self]");
	strcpy(buf, params);
	sp = strrchr(buf, ' ');
	if (sp != NULL) {
		*sp = '\0';
		peer = sp + 1;
	}
	ret = lull_control_port_add(lull_tel_fwd, buf, peer, &id, err, sizeof(err));
	if (ret < 0 && ret != -ETIMEDOUT)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "port", id);
	rte_tel_data_add_dict_string(d, "name", lull_tel_fwd->ports[id].name);
	rte_tel_data_add_dict_string(d, "peer",
		lull_tel_fwd->cfg.dst_port[id] == LULL_PORT_NONE
			? "none (waits for a port-add naming it as peer)"
			: lull_tel_fwd->ports[lull_tel_fwd->cfg.dst_port[id]].name);
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	if (ret == -ETIMEDOUT)
		rte_tel_data_add_dict_string(d, "warning", err);
	return 0;
}

static int
cmd_port_del(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[256] = "";

	(void)cmd;
	if (params == NULL || *params == '\0')
		return lull_tel_reply_error(d, "usage: /lull/port_del,NAME");
	if (lull_control_port_del(lull_tel_fwd, params, err, sizeof(err)) < 0)
		return lull_tel_reply_error(d, err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "removed", params);
	return 0;
}

int
lull_telemetry_register(struct lull_fwd *fwd, char *err, size_t errlen)
{
	/* the handlers of lib/contract.h's commands (paths, help, who may write) */
	static const telemetry_cb fns[LULL_N_CMDS] = {
		[LULL_CMD_PMD_PERF] = lull_tel_cmd_pmd_perf,
		[LULL_CMD_PMD_SLEEP] = lull_tel_cmd_pmd_sleep,
		[LULL_CMD_STATS_CLEAR] = cmd_stats_clear,
		[LULL_CMD_PMD_RXQ] = lull_tel_cmd_pmd_rxq,
		[LULL_CMD_PMDS] = lull_tel_cmd_pmds,
		[LULL_CMD_PORTS] = cmd_ports,
		[LULL_CMD_CONFIG] = cmd_config,
		[LULL_CMD_SETTABLE] = cmd_settable,
		[LULL_CMD_SET] = cmd_set,
		[LULL_CMD_PORT_ADD] = cmd_port_add,
		[LULL_CMD_PORT_DEL] = cmd_port_del,
		[LULL_CMD_RXQ_REBALANCE] = lull_tel_cmd_rebalance,
		[LULL_CMD_BALANCE] = lull_tel_cmd_balance,
	};
	const char *dir = rte_eal_get_runtime_dir();
	struct stat st;

	/* Whoever can connect to the socket can change lull (docs/control.md): the
	 * directory that holds it must be writable by its owner only. */
	if (dir != NULL && stat(dir, &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return lull_errf(err, errlen, -EPERM,
			"the runtime directory %s is group- or world-writable (mode %03o): anyone "
			"who can write there could control lull through its telemetry socket; "
			"chmod go-w it, or give --file-prefix a fresh one",
			dir, (unsigned int)(st.st_mode & 0777));
	lull_tel_fwd = fwd;
	for (unsigned int i = 0; i < LULL_N_CMDS; i++) {
		const struct lull_cmd_info *c = &lull_cmds[i];
		int ret;

		if (fwd->cfg.ctl_read_only && c->writes)
			continue;
		ret = fns[i] == NULL ? -ENOSYS
				     : rte_telemetry_register_cmd(c->path, fns[i], c->help);
		if (ret < 0) {
			snprintf(err, errlen, "telemetry: cannot register %s: %s", c->path,
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}
