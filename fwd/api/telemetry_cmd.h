/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * What the files of telemetry commands share (fwd/api/telemetry.c registers them
 * all): the forwarder, the error reply and the lock that knows about teardown.
 */
#ifndef LULL_TELEMETRY_CMD_H
#define LULL_TELEMETRY_CMD_H

#include <stdbool.h>

#include <rte_telemetry.h>

#include "fwd.h"

/** The forwarder the commands act on (set at registration; atomic). */
extern struct lull_fwd *_Atomic lull_tel_fwd;

/** A refusal: one JSON string, the reason. @return 0 (the reply is d). */
int lull_tel_reply_error(struct rte_tel_data *d, const char *msg);

/** Take fwd->lock; false (lock released, "lull is stopping" replied) once torn down. */
bool lull_tel_lock_live(struct lull_fwd *fwd, struct rte_tel_data *d);

/** /lull/pmd_perf[,LCORE]: every PMD's (or one's) counters since the last clear. */
int lull_tel_cmd_pmd_perf(const char *cmd, const char *params, struct rte_tel_data *d);

/** /lull/pmd_sleep[,LCORE]: the sleep settings in force and the cost model. */
int lull_tel_cmd_pmd_sleep(const char *cmd, const char *params, struct rte_tel_data *d);

/** /lull/pmd_rxq[,LCORE]: each rx queue's packets and cycles, per PMD. */
int lull_tel_cmd_pmd_rxq(const char *cmd, const char *params, struct rte_tel_data *d);

/** /lull/pmds: the PMDs' lcores (a client pages the per-PMD commands by them). */
int lull_tel_cmd_pmds(const char *cmd, const char *params, struct rte_tel_data *d);

/** /lull/balance: moves, consolidation decisions, the last window's loads. */
int lull_tel_cmd_balance(const char *cmd, const char *params, struct rte_tel_data *d);

/** /lull/rxq_rebalance: lull_balance_rebalance(). */
int lull_tel_cmd_rebalance(const char *cmd, const char *params, struct rte_tel_data *d);

#endif /* LULL_TELEMETRY_CMD_H */
