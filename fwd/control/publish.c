/* SPDX-License-Identifier: BSD-3-Clause */
#include "publish.h"

#include "isolate.h"
#include "log.h"
#include "parse.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>

/* Lateness assumed for the start-up burst figure: a nanosleep wakes 30-60 us
 * late on the VMs measured (docs/benchmarks.md); pmd-sleep-show uses the
 * measured mean. */
#define BURST_LOG_LATENESS_US 50.0

/* What the PMD's settings promise about a line-rate burst that comes as it
 * falls asleep, and a warning, naming the ring that would help, when a burst
 * longer than its smallest ring overflows. */
static void
burst_log(const struct lull_pmd *pmd, const struct lull_pmd_params *prm, unsigned int i)
{
	struct lull_burst_view v;
	char ring_hint[128];

	(void)pmd;
	if (prm->n_rxqs == 0) {
		LULL_LOG(INFO, "PMD %u: polls no rx queue (parked): no burst to absorb", i);
		return;
	}
	lull_pmd_burst_view(prm, BURST_LOG_LATENESS_US, &v);
	if (prm->policy.kind != LULL_POLICY_OFF && v.cap_us >= 0) {
		LULL_LOG(INFO,
			"PMD %u: --burst-tolerance %u: sleeps capped at %.0f us so that any "
			"line-rate burst fits (smallest rx ring %u, port %u, fills in %.0f us at "
			"%.2f Mpps%s)",
			i, v.asked, v.cap_us, v.ring, v.ring_port, v.fill_us, v.line_mpps,
			v.line_assumed ? ", 10 GbE assumed" : "");
		return;
	}
	if (prm->policy.kind == LULL_POLICY_OFF || v.tolerance == 0) {
		LULL_LOG(INFO,
			"PMD %u: absorbs a line-rate burst of any length (smallest rx ring %u, "
			"port %u, fills in %.0f us at %.2f Mpps%s)",
			i, v.ring, v.ring_port, v.fill_us, v.line_mpps,
			v.line_assumed ? ", 10 GbE assumed" : "");
		return;
	}
	if (v.ring_for_any <= 16384) /* memif's largest ring (rsize=14); --rxd takes 32768 */
		snprintf(ring_hint, sizeof(ring_hint),
			"a ring of %u (--rxd %u; memif: rsize=%u; af_packet: framecnt=%u)",
			v.ring_for_any, v.ring_for_any, (unsigned int)__builtin_ctz(v.ring_for_any),
			v.ring_for_any);
	else
		snprintf(ring_hint, sizeof(ring_hint),
			"no ring at this maximum sleep (a shorter --sleep-max-us)");
	LULL_LOG(WARNING,
		"PMD %u: a line-rate burst longer than %u packets (the rx ring of port "
		"%u) overflows if it comes as the PMD falls asleep: the ring fills in %.0f "
		"us at %.2f Mpps%s, sooner than a sleep of up to %" PRIu64
		" us (+ ~%.0f us late) ends; %s absorbs any burst, or --burst-tolerance "
		"caps the sleeps",
		i, v.ring, v.ring_port, v.fill_us, v.line_mpps,
		v.line_assumed ? " (10 GbE assumed)" : "", prm->policy.max_sleep_ns / 1000,
		BURST_LOG_LATENESS_US, ring_hint);
}

void
lull_publish_log_pmd(const struct lull_fwd *fwd, unsigned int i, const char *why)
{
	const struct lull_pmd *pmd = fwd->pmds[i];
	const struct lull_pmd_params *prm = pmd->ctl_params;

	char queues[512] = "";
	size_t used = 0;

	for (unsigned int q = 0; q < prm->n_rxqs && used < sizeof(queues); q++)
		used += (size_t)snprintf(queues + used, sizeof(queues) - used, " %u:%u->%u",
			prm->rxqs[q].port, prm->rxqs[q].queue, prm->rxqs[q].dst);
	LULL_LOG(INFO,
		"%s: PMD %u on lcore %u: sleep policy %s, max sleep %" PRIu64
		" us, latency budget %" PRIu64 " us, wake %s, rx interrupts after %" PRIu64
		" ms; polls %u rx queue(s):%s",
		why, i, pmd->lcore, lull_policy_name(prm->policy.kind),
		prm->policy.max_sleep_ns / 1000, prm->policy.budget_ns / 1000,
		lull_waiter_describe(&prm->waiter), prm->intr_after_ns / 1000000, prm->n_rxqs,
		queues);
	burst_log(pmd, prm, i);
	/* the PMD wrote these before its ack, which the caller saw */
	if (pmd->intr_error < 0 &&
		atomic_load_explicit(&pmd->ack, memory_order_acquire) >= prm->gen)
		LULL_LOG(WARNING, "PMD %u: rx queue %u:%u has no interrupt (%s): sleeping only", i,
			pmd->intr_error_rxq.port, pmd->intr_error_rxq.queue,
			strerror(-pmd->intr_error));
}

/* Every PMD's scheduling to p; on a failure the ones done go back to old. */
static int
apply_priority(struct lull_fwd *fwd, const struct lull_prio *p, const struct lull_prio *old,
	bool initial, char *err, size_t errlen)
{
	char ignored[128];

	for (unsigned int i = 0; i < fwd->n_launched; i++) {
		pid_t tid = atomic_load_explicit(&fwd->pmds[i]->tid, memory_order_acquire);
		int ret = lull_isolate_priority(tid, p, initial, err, errlen);

		if (ret < 0) {
			while (i-- > 0)
				lull_isolate_priority(atomic_load_explicit(&fwd->pmds[i]->tid,
							      memory_order_acquire),
					old, false, ignored, sizeof(ignored));
			return ret;
		}
	}
	if (p->kind == LULL_PRIO_FIFO && fwd->n_launched > 0)
		lull_isolate_log_rt_throttling();
	return 0;
}

int
lull_publish_pin_threads(struct lull_fwd *fwd, char *err, size_t errlen)
{
	pid_t tids[LULL_MAX_PMDS];
	cpu_set_t cpus; /* every CPU of every PMD lcore: rte_lcore_to_cpu_id is a core id */
	const struct lull_prio none = {LULL_PRIO_NONE, 0};
	rte_cpuset_t set;
	int ret;

	CPU_ZERO(&cpus);
	/* each PMD stores its thread id before it acknowledges its first block */
	for (unsigned int i = 0; i < fwd->n_launched; i++) {
		(void)lull_pmd_wait_ack(fwd->pmds[i], 1, LULL_CTL_ACK_TIMEOUT_MS);
		tids[i] = atomic_load_explicit(&fwd->pmds[i]->tid, memory_order_acquire);
		set = rte_lcore_cpuset(fwd->pmds[i]->lcore);
		CPU_OR(&cpus, &cpus, &set);
		if (tids[i] == 0) {
			snprintf(err, errlen, "PMD on lcore %u did not start within %d ms",
				fwd->pmds[i]->lcore, LULL_CTL_ACK_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
	}
	ret = apply_priority(fwd, &fwd->cfg.pmd_priority, &none, true, err, errlen);
	if (ret == 0)
		ret = lull_isolate_control(&fwd->cfg, tids, fwd->n_launched, &cpus, err, errlen);
	return ret;
}

/* Every PMD's block of cfg (generation fwd->gen + 1) into prm[], with the
 * memory it needs: one that cannot be built or prepared changes nothing (the
 * blocks built are freed). A publish then cannot fail half-way (it may only
 * be late, -ETIMEDOUT, and is then taken at the next tick). */
static int
build_blocks(struct lull_fwd *fwd, const struct lull_config *cfg, struct lull_pmd_params **prm,
	char *err, size_t errlen)
{
	int ret = 0;

	for (unsigned int p = 0; p < LULL_MAX_PORTS; p++)
		if (fwd->ports[p].present)
			lull_port_measure(
				&fwd->ports[p], cfg->n_rxd); /* link speed may have come */
	for (unsigned int i = 0; i < fwd->n_pmds && ret == 0; i++)
		prm[i] = lull_pmd_params_build(cfg, i, fwd->gen + 1, fwd->ports, &ret, err, errlen);
	for (unsigned int i = 0; i < fwd->n_pmds && ret == 0; i++) {
		ret = lull_pmd_prepare(fwd->pmds[i], prm[i]);
		if (ret < 0)
			snprintf(err, errlen, "PMD on lcore %u: tx buffers: %s",
				fwd->pmds[i]->lcore, strerror(-ret));
	}
	if (ret < 0)
		for (unsigned int i = 0; i < fwd->n_pmds; i++) {
			rte_free(prm[i]);
			prm[i] = NULL;
		}
	return ret;
}

int
lull_publish_check_locked(
	struct lull_fwd *fwd, const struct lull_config *cfg, char *err, size_t errlen)
{
	struct lull_pmd_params *prm[LULL_MAX_PMDS] = {NULL};
	int ret = build_blocks(fwd, cfg, prm, err, errlen);

	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		rte_free(prm[i]);
	return ret;
}

int
lull_publish_locked(struct lull_fwd *fwd, const struct lull_config *cfg, const char *why, char *err,
	size_t errlen)
{
	struct lull_pmd_params *prm[LULL_MAX_PMDS] = {NULL};
	bool running = fwd->n_launched > 0;
	int ret = 0, slow = -1;

	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		if (fwd->pmds[i]->pending != NULL &&
			atomic_load_explicit(&fwd->pmds[i]->ack, memory_order_acquire) <
				fwd->pmds[i]->pending->gen) {
			snprintf(err, errlen,
				"PMD on lcore %u has not taken the previous change yet: try again",
				fwd->pmds[i]->lcore);
			return -EBUSY;
		}
	ret = build_blocks(fwd, cfg, prm, err, errlen);
	if (ret == 0 &&
		memcmp(&cfg->pmd_priority, &fwd->cfg.pmd_priority, sizeof(cfg->pmd_priority)) != 0)
		ret = apply_priority(
			fwd, &cfg->pmd_priority, &fwd->cfg.pmd_priority, false, err, errlen);
	if (ret < 0) {
		for (unsigned int i = 0; i < fwd->n_pmds; i++)
			rte_free(prm[i]);
		return ret;
	}
	fwd->gen++;
	for (unsigned int i = 0; i < fwd->n_pmds; i++) {
		int r = lull_pmd_publish(fwd->pmds[i], prm[i], running, LULL_CTL_ACK_TIMEOUT_MS);

		if (r < 0 && ret == 0) {
			ret = r;
			slow = (int)i;
		}
	}
	if (&fwd->cfg != cfg)
		fwd->cfg = *cfg;
	if (ret == -ETIMEDOUT)
		snprintf(err, errlen,
			"PMD on lcore %u did not take the change within %d ms (it will at its "
			"next housekeeping tick)",
			fwd->pmds[slow]->lcore, LULL_CTL_ACK_TIMEOUT_MS);
	else if (ret < 0)
		snprintf(
			err, errlen, "PMD on lcore %u: %s", fwd->pmds[slow]->lcore, strerror(-ret));
	for (unsigned int i = 0; i < fwd->n_pmds; i++)
		if (fwd->pmds[i]->ctl_params != NULL)
			lull_publish_log_pmd(fwd, i, why);
	return ret;
}

bool
lull_publish_all_took(const struct lull_fwd *fwd, uint64_t gen)
{
	for (unsigned int i = 0; i < fwd->n_launched; i++)
		if (atomic_load_explicit(&fwd->pmds[i]->ack, memory_order_acquire) < gen)
			return false;
	return true;
}

struct lull_config *
lull_publish_draft_locked(const struct lull_fwd *fwd)
{
	struct lull_config *draft = malloc(sizeof(*draft));

	if (draft != NULL)
		*draft = fwd->cfg;
	return draft;
}

int
lull_publish_change(struct lull_fwd *fwd, const char *what, lull_change_fn *fn, const void *arg,
	char *err, size_t errlen)
{
	struct lull_config *draft;
	int ret;

	pthread_mutex_lock(&fwd->lock);
	/* checked under the lock that stopping takes first: no change starts after
	 * the PMDs were told to stop, and none is running while ports are closed */
	if (!fwd->accepting || fwd->gone) {
		ret = lull_errf(err, errlen, -EAGAIN, "lull is starting or stopping: try again");
	} else if ((draft = lull_publish_draft_locked(fwd)) == NULL) {
		ret = lull_errf(err, errlen, -ENOMEM, "%s: out of memory", what);
	} else {
		ret = fn(fwd, draft, arg, err, errlen);
		free(draft);
	}
	pthread_mutex_unlock(&fwd->lock);
	return ret;
}
