/* SPDX-License-Identifier: BSD-3-Clause */
/* /lull/nap: the attached threads' counters in the host's telemetry socket. */
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "attach_priv.h"

#define NAP_KEY_(id, key, metric, unit, help) key,
static const char *const stat_keys[LULL_PMD_N_STATS] = {LULL_PMD_STATS(NAP_KEY_)};
static const char *const model_keys[LULL_PMD_N_MODEL] = {LULL_PMD_MODEL(NAP_KEY_)};
#undef NAP_KEY_

static int
tel_nap(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int n = __atomic_load_n(&lull_nap_n_thrs, __ATOMIC_ACQUIRE);

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "threads", n);
	rte_tel_data_add_dict_u64(d, "tsc_hz", rte_get_tsc_hz());
	for (unsigned int i = 0; i < n; i++) {
		const struct lull_nap_thr *t = __atomic_load_n(&lull_nap_thrs[i], __ATOMIC_ACQUIRE);
		struct rte_tel_data *c = rte_tel_data_alloc();
		char key[24];

		if (c == NULL)
			return -1;
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_string(c, "policy", lull_policy_name(t->nap.policy.p.kind));
		rte_tel_data_add_dict_string(c, "wake", lull_wake_name(t->waiter.kind));
		rte_tel_data_add_dict_int(c, "cpu", t->cpu);
		rte_tel_data_add_dict_u64(c, "burst", t->burst);
		rte_tel_data_add_dict_u64(
			c, "latency_budget_us", lull_policy_budget_ns(&t->nap.policy.p) / 1000);
		for (unsigned int s = 0; s < LULL_PMD_N_STATS; s++)
			rte_tel_data_add_dict_u64(
				c, stat_keys[s], lull_counter_read(&t->nap.stats[s]));
		for (unsigned int k = 0; k < LULL_PMD_N_MODEL; k++)
			rte_tel_data_add_dict_u64(
				c, model_keys[k], lull_counter_read(&t->nap.model[k]));
		snprintf(key, sizeof(key), "thread%u", i);
		rte_tel_data_add_dict_container(d, key, c, 0);
	}
	return 0;
}

int
lull_nap_attach_register_telemetry(void)
{
	return rte_telemetry_register_cmd("/lull/nap", tel_nap,
		"lull attached: every polling thread's counters. No parameters");
}
