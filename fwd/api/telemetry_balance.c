/* SPDX-License-Identifier: BSD-3-Clause */
/* The telemetry commands of fwd/control/balance.c. */
#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>

#include "balance.h"
#include "telemetry_cmd.h"

int
lull_tel_cmd_balance(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lull_fwd *fwd = lull_tel_fwd;
	const struct lull_balance *b = &fwd->bal;
	char key[32], buf[32];

	(void)cmd;
	(void)params;
	if (!lull_tel_lock_live(fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "consolidate", fwd->cfg.consolidate ? "on" : "off");
	rte_tel_data_add_dict_u64(d, "moves", b->moves);
	rte_tel_data_add_dict_u64(d, "packs", b->packs);
	rte_tel_data_add_dict_u64(d, "unpacks", b->unpacks);
	rte_tel_data_add_dict_u64(d, "spreads", b->spreads);
	rte_tel_data_add_dict_u64(d, "last_move_us", b->last_move_us);
	rte_tel_data_add_dict_string(d, "last_move", b->last_reason[0] ? b->last_reason : "none");
	rte_tel_data_add_dict_u64(d, "move_pending", b->move_to != NULL);
	for (unsigned int i = 0; i < fwd->n_pmds && b->measured; i++) {
		snprintf(key, sizeof(key), "load_pct_%u", fwd->pmds[i]->lcore);
		snprintf(buf, sizeof(buf), "%.1f", 100 * b->pmd_load[i]);
		rte_tel_data_add_dict_string(d, key, buf);
	}
	pthread_mutex_unlock(&fwd->lock);
	return 0;
}

int
lull_tel_cmd_rebalance(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char err[256] = "";
	int ret;

	(void)cmd;
	(void)params;
	ret = lull_balance_rebalance(lull_tel_fwd, err, sizeof(err));
	if (ret < 0 && ret != -ETIMEDOUT)
		return lull_tel_reply_error(d, err);
	if (!lull_tel_lock_live(lull_tel_fwd, d))
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "moves", lull_tel_fwd->bal.moves);
	rte_tel_data_add_dict_u64(d, "last_move_us", lull_tel_fwd->bal.last_move_us);
	pthread_mutex_unlock(&lull_tel_fwd->lock);
	if (ret == -ETIMEDOUT)
		rte_tel_data_add_dict_string(d, "warning", err);
	return 0;
}
