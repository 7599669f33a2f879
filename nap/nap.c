/* SPDX-License-Identifier: BSD-3-Clause */
#include "lull_nap.h"

#include "clock.h"
#include "sched_view.h"
#include "sleepopt.h"
#include "yield.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_eal.h>

/* One wait in this many has its CPU time measured (two clock_gettime calls of
 * the thread's CPU clock: syscalls, paid only on a wait the policy chose). */
#define LULL_CPU_SAMPLE_EVERY 16

/* And at most one in this long. An idle PMD sleeping 50 us wakes ~13,000
 * times a second (issue 30's VM): one wait in 16 made 800 samples a second,
 * each two clock_gettime and two schedstat reads (~14 us on that VM), 1.2 % of
 * the core: most of what OVS with lull at 50 us spent over OVS's own 50 us
 * sleeping. Where waits are fewer than 1,600 a second, one in 16 still. */
#define LULL_CPU_SAMPLE_MIN_NS 10000000u

static uint64_t
thread_cpu_ns(void)
{
	return lull_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/*
 * How long this thread has waited in its CPU's run queue, in all (the second
 * field of schedstat; a pread of ~2 us), or LULL_POLICY_QUEUED_NA.
 */
static uint64_t
run_delay_ns(int fd)
{
	char buf[80];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf) - 1, 0) : -1;
	uint64_t wait_ns;

	if (n <= 0)
		return LULL_POLICY_QUEUED_NA;
	buf[n] = '\0';
	return lull_schedstat_wait(buf, &wait_ns) == 0 ? wait_ns : LULL_POLICY_QUEUED_NA;
}

/* A run-queue delay of the waits this large (smoothed) means another thread
 * shares the CPU: then every timed wait measures its own, not one in 16. */
#define QUEUED_EVERY_NS 2000u

/* A timed wait this late (at least, and later than the model's p99) has its
 * run-queue delay read after it, sampled or not. On issue 30's VM, 61 of 82
 * wakes 0.5 ms late or more (30 s of 50 us sleeps) spent most of it in the run
 * queue: another thread had the CPU, as it would have had a polling thread's.
 * Charged to the sleep, two such wakes make the tail rule poll. */
#define LATE_CHECK_MIN_NS 200000u

/* How late a timed wait must be for that. */
static inline uint64_t
late_check_ns(const struct lull_nap *nap)
{
	uint64_t p99_ns = nap->policy.cost.late_p99_ns;

	return p99_ns > LATE_CHECK_MIN_NS ? p99_ns : LATE_CHECK_MIN_NS;
}

/* The run-queue delay of the timed wait that just ended late, read after it
 * only (lull_cost_queued_since), or LULL_POLICY_QUEUED_NA; the read is the
 * next one's base. */
static uint64_t
queued_after(struct lull_nap *nap)
{
	uint64_t q1_ns = run_delay_ns(nap->schedstat_fd), est_ns = LULL_POLICY_QUEUED_NA;

	if (q1_ns != LULL_POLICY_QUEUED_NA && nap->rq_base_ns != LULL_POLICY_QUEUED_NA)
		est_ns = lull_cost_queued_since(
			&nap->policy.cost, nap->rq_base_ns, q1_ns, nap->rq_waits + 1);
	nap->rq_base_ns = q1_ns;
	nap->rq_waits = 0;
	return est_ns;
}

/* A wait ended: account it, feed the policy and its cost model, restart the
 * iteration clocks. cpu_ns: the thread's CPU during the wait, if sampled, else
 * 0; queued_ns: its run-queue delay, if measured, else LULL_POLICY_QUEUED_NA;
 * late_read: measured after the wait only, as it was late (queued_after). */
static void
waited(struct lull_nap *nap, const struct lull_wait_req *req, enum lull_wait_end end,
	uint64_t t0_tsc, uint64_t t1_tsc, uint64_t cpu_ns, uint64_t queued_ns, bool late_read)
{
	uint64_t act_ns = (uint64_t)((double)(t1_tsc - t0_tsc) * nap->ns_per_tsc);
	bool intr = req->mode == LULL_WAIT_INTR && end != LULL_WAIT_DEADLINE;

	lull_counter_add(&nap->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	if (intr && end != LULL_WAIT_RECHECK) {
		lull_counter_add(&nap->stats[LULL_PMD_INTR_WAITS], 1);
		lull_counter_add(&nap->stats[LULL_PMD_INTR_TSC], t1_tsc - t0_tsc);
		if (end == LULL_WAIT_WOKEN) {
			lull_counter_add(&nap->stats[LULL_PMD_INTR_WAKES], 1);
			nap->woken = true;
		} else if (end == LULL_WAIT_CONTROL) {
			lull_counter_add(&nap->stats[LULL_PMD_CTL_WAKES], 1);
		}
	} else if (!intr) {
		if (late_read)
			lull_policy_slept_late(&nap->policy, req->ns, act_ns, queued_ns);
		else
			lull_policy_slept(&nap->policy, req->ns, act_ns, queued_ns);
		lull_hist_add(&nap->sleep_ns, act_ns);
		lull_counter_add(&nap->stats[LULL_PMD_SLEEPS], 1);
		lull_counter_add(&nap->stats[LULL_PMD_SLEEP_REQ_NS], req->ns);
		lull_counter_add(&nap->stats[LULL_PMD_SLEEP_ACT_NS], act_ns);
		if (req->ns >= nap->max_sleep_ns)
			lull_counter_add(&nap->stats[LULL_PMD_MAX_SLEEP_HITS], 1);
		if (act_ns > nap->budget_ns)
			lull_counter_add(&nap->stats[LULL_PMD_BUDGET_MISSES], 1);
	}
	if (cpu_ns != 0 && end != LULL_WAIT_RECHECK)
		lull_policy_wait_cpu(&nap->policy, intr, cpu_ns);
	if (unlikely(nap->waiter.early_wakes != 0)) {
		lull_counter_add(&nap->stats[LULL_PMD_EARLY_WAKES], nap->waiter.early_wakes);
		nap->waiter.early_wakes = 0;
	}
	/* a wait as long as the yield already gave the CPU up: the next is due later */
	if (nap->yield_period_tsc != 0 && act_ns >= nap->yield_ns)
		nap->next_yield_tsc = t1_tsc + nap->yield_period_tsc;
	nap->prev_tsc = t1_tsc;
}

/* --wake-priority: SCHED_FIFO from a wait on, so that the wake preempts what
 * took the CPU meanwhile. A woken SCHED_OTHER PMD can wait for a kernel thread
 * (kdamond, rcu_preempt) to reach its next tick: 2-14 ms measured
 * (docs/benchmarks.md, "Where the milliseconds of p99 come from"). The thread
 * gets its own policy back once it has polled prio_hold_tsc without a wait,
 * so a PMD that stops sleeping competes as before and starves no one. One
 * syscall at each change, none while the load stays on one side.
 * prio_set(): SCHED_FIFO at wake_prio now; a refusal is said once, and ends
 * the option on this thread. */
static bool
prio_set(struct lull_nap *nap)
{
	struct sched_param sp = {.sched_priority = nap->wake_prio};

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		return true;
	/* EPERM: no CAP_SYS_NICE, or no RT budget in its cgroup. Once per
	 * thread (a cold path: its first wait, or a load) */
	fprintf(stderr,
		"lull: --wake-priority %d: thread %ld may not run SCHED_FIFO (%s); it "
		"waits at its own priority\n",
		nap->wake_prio, (long)rte_sys_gettid(), strerror(errno));
	nap->wake_prio = 0;
	nap->prio_refused = true;
	return false;
}

/* Before a wait the policy chose: SCHED_FIFO at --wake-priority, counted. */
static void
prio_raise(struct lull_nap *nap)
{
	if (!prio_set(nap))
		return;
	nap->prio_up = true;
	lull_counter_add(&nap->stats[LULL_PMD_PRIO_RAISES], 1);
}

void
lull_nap_prio_drop(struct lull_nap *nap)
{
	struct sched_param sp = {.sched_priority = 0};

	if (!nap->prio_up)
		return;
	/* the thread's nice value stays what it was (sched_setscheduler keeps it) */
	if (sched_setscheduler(0, nap->prio_orig_policy, &sp) == 0) {
		nap->prio_up = false;
		lull_counter_add(&nap->stats[LULL_PMD_PRIO_DROPS], 1);
	}
}

/*
 * Phase 4: ask the policy; wait if it says so, the way it says: for an rx
 * interrupt (where every queue has one) or a timed wait with the backend.
 * Nothing waits in a tx buffer meanwhile. n_rx: what this iteration's poll
 * received. @return whether it waited.
 */
bool
lull_nap_decide_and_wait(struct lull_nap *nap, uint32_t n_rx, uint64_t now_tsc)
{
	uint64_t now_ns = (uint64_t)((double)now_tsc * nap->ns_per_tsc);
	struct lull_wait_req req = {.mode = LULL_WAIT_TIMED,
		.recheck = nap->host.poll,
		.ctx = nap->host.ctx,
		.recheck_peeks = nap->host.peeks};
	/* Woken by an interrupt for nothing: a stale event (packets polled before
	 * the wait) or a driver that shows the packet a moment later. Sleep once
	 * rather than wait for an interrupt the packet may have spent already. */
	bool empty_wake = nap->woken && n_rx == 0;
	enum lull_wait_end end;
	uint64_t t0_tsc, t1_tsc, cpu0_ns = 0, queued_ns = LULL_POLICY_QUEUED_NA;
	bool sample, queued, late_read = false;

	nap->woken = false;
	if (empty_wake)
		lull_counter_add(&nap->stats[LULL_PMD_INTR_EMPTY], 1);

	if (lull_policy_busy(&nap->policy))
		lull_counter_add(&nap->stats[LULL_PMD_BUSY_HITS], 1);
	req.ns = lull_policy_decide(&nap->policy, now_ns);
	if (req.ns == 0)
		return false;
	if (unlikely(nap->wake_prio != 0) && !nap->prio_up)
		prio_raise(nap);
	if (nap->waiter.intr_ok && !empty_wake && lull_policy_mode(&nap->policy) == LULL_MODE_INTR)
		req.mode = LULL_WAIT_INTR;
	else
		nap->planned_ns = req.ns;
	nap->host.flush(nap->host.ctx);
	sample = --nap->cpu_sample == 0;
	if (sample && now_tsc < nap->cpu_sample_tsc) {
		sample = false;
		nap->cpu_sample = 1; /* the first wait once the time has come */
	}
	/* the run-queue delay of a timed wait: on the sampled ones, on all where
	 * another thread shares the CPU */
	queued = req.mode == LULL_WAIT_TIMED &&
		 (sample || nap->policy.cost.queued_mean_ns >= QUEUED_EVERY_NS);
	if (queued)
		queued_ns = run_delay_ns(nap->schedstat_fd);
	if (sample) {
		nap->cpu_sample = LULL_CPU_SAMPLE_EVERY;
		nap->cpu_sample_tsc = now_tsc + nap->cpu_sample_min_tsc;
		cpu0_ns = thread_cpu_ns();
	}
	t0_tsc = rte_rdtsc();
	end = lull_wait(&nap->waiter, &req);
	t1_tsc = rte_rdtsc();
	if (sample)
		cpu0_ns = thread_cpu_ns() - cpu0_ns + 1;
	if (queued_ns != LULL_POLICY_QUEUED_NA) {
		uint64_t q1_ns = run_delay_ns(nap->schedstat_fd);

		queued_ns = q1_ns != LULL_POLICY_QUEUED_NA && q1_ns >= queued_ns
				    ? q1_ns - queued_ns
				    : LULL_POLICY_QUEUED_NA;
		nap->rq_base_ns = q1_ns;
		nap->rq_waits = 0;
	} else if (req.mode == LULL_WAIT_TIMED &&
		   (double)(t1_tsc - t0_tsc) * nap->ns_per_tsc >
			   (double)req.ns + (double)late_check_ns(nap)) {
		queued_ns = queued_after(nap);
		late_read = true;
	} else {
		nap->rq_waits++;
	}
	waited(nap, &req, end, t0_tsc, t1_tsc, cpu0_ns, queued_ns, late_read);
	nap->last_wait_tsc = t1_tsc;
	return true;
}

/* Housekeeping yield (--yield-hz): give the CPU up (nanosleep, whatever the
 * wake backend) so that kernel work and other threads on this core run. */
static bool
yield_if_due(struct lull_nap *nap)
{
	uint64_t t0_tsc = rte_rdtsc(), t1_tsc;

	if (!lull_yield_due(nap->yield_period_tsc, nap->next_yield_tsc, t0_tsc))
		return false;
	nap->host.flush(nap->host.ctx);
	lull_quiesce_offline(nap->qs);
	lull_yield(nap->yield_ns);
	lull_quiesce_online(nap->qs);
	t1_tsc = rte_rdtsc();
	lull_counter_add(&nap->stats[LULL_PMD_YIELDS], 1);
	nap->rq_waits++;
	lull_counter_add(&nap->stats[LULL_PMD_YIELD_TSC], t1_tsc - t0_tsc);
	lull_counter_add(&nap->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	/* on schedule; after a long stall, a period from now */
	nap->next_yield_tsc += nap->yield_period_tsc;
	if (nap->next_yield_tsc <= t1_tsc)
		nap->next_yield_tsc = t1_tsc + nap->yield_period_tsc;
	nap->prev_tsc = t1_tsc;
	return true;
}

/* The cost model, for the views (gauges on the histograms' lines). */
static void
publish_model(struct lull_nap *nap)
{
	const struct lull_policy *pol = &nap->policy;
	const struct lull_cost *c = &pol->cost;
	lull_counter_t *m = nap->model;
	uint64_t tail_ns;

	atomic_store_explicit(&m[LULL_MODEL_LATE_P50_NS], c->late_p50_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_LATE_P99_NS], c->late_p99_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_LATE_MEAN_NS], c->late_mean_ns, memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_TIMED_CPU_NS], c->wait_cpu_ns[LULL_COST_TIMED], memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_INTR_CPU_NS], c->wait_cpu_ns[LULL_COST_INTR], memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_CPU_SAMPLES],
		c->cpu_samples[LULL_COST_TIMED] + c->cpu_samples[LULL_COST_INTR],
		memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_RATE_PPS], (uint64_t)(pol->rate_ppns * 1e9), memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_PEAK_PPS], (uint64_t)(pol->peak_ppns * 1e9), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_SLEEP_NS], nap->planned_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_INTR_BELOW_PPS],
		(uint64_t)lull_policy_intr_below_pps(pol, nap->planned_ns), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_MODE], pol->mode, memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_KEPT_PCT], lull_policy_kept_pct(pol), memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_KEPT_LATE_NS], lull_policy_kept_late_ns(pol), memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_QUEUED_NS], c->queued_mean_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_QUEUED_WAITS], c->queued_n, memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_TAIL_LATE_NS], lull_cost_late_tail_ns(c), memory_order_relaxed);
	atomic_store_explicit(
		&m[LULL_MODEL_TAIL_STALL_NS], c->stall_tail2_ns, memory_order_relaxed);
	/* LULL_MAX_SLEEP_NS: bounds nothing (JSON's readers take no UINT64_MAX) */
	tail_ns = pol->p.kind == LULL_POLICY_RATE ? lull_policy_tail_cap_ns(pol) : UINT64_MAX;
	atomic_store_explicit(&m[LULL_MODEL_TAIL_CAP_NS],
		tail_ns < LULL_MAX_SLEEP_NS ? tail_ns : LULL_MAX_SLEEP_NS, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_TAIL_HOLD_NS], pol->tail_age_ns, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_LATE_UNSEEN], pol->late_unseen, memory_order_relaxed);
	atomic_store_explicit(&m[LULL_MODEL_HARM_PEAK_PPS],
		(uint64_t)(lull_policy_harm_peak(pol, pol->last_decide_ns) * 1e9),
		memory_order_relaxed);
}

/*
 * No rx queue to poll (consolidation moved them all away, or none was given):
 * wait for the control plane alone - a new block or a stop kicks the eventfd -
 * without a timer, so a parked PMD costs no CPU. Without the eventfd, look
 * every 100 ms.
 */
void
lull_nap_park(struct lull_nap *nap)
{
	uint64_t t0_tsc = rte_rdtsc(), t1_tsc, count;
	struct pollfd pfd = {.fd = nap->ctl_fd, .events = POLLIN};
	const struct timespec step = {.tv_sec = 0, .tv_nsec = 100000000L};

	nap->host.flush(nap->host.ctx);
	lull_quiesce_offline(nap->qs);
	if (nap->ctl_fd >= 0) {
		if (poll(&pfd, 1, -1) > 0 && read(nap->ctl_fd, &count, sizeof(count)) < 0)
			count = 0; /* EAGAIN: another reader took it */
	} else {
		nanosleep(&step, NULL);
	}
	lull_quiesce_online(nap->qs);
	t1_tsc = rte_rdtsc();
	lull_counter_add(&nap->stats[LULL_PMD_PARKS], 1);
	nap->rq_waits++;
	lull_counter_add(&nap->stats[LULL_PMD_PARKED_TSC], t1_tsc - t0_tsc);
	lull_counter_add(&nap->stats[LULL_PMD_SLEEP_TSC], t1_tsc - t0_tsc);
	nap->prev_tsc = t1_tsc;
}

bool
lull_nap_housekeeping(struct lull_nap *nap)
{
	if (nap->on)
		publish_model(nap);
	lull_nap_stall_follow(nap);
	return yield_if_due(nap);
}

void
lull_nap_init(struct lull_nap *nap, const struct lull_nap_host *host)
{
	memset(nap, 0, sizeof(*nap));
	nap->host = *host;
	nap->ns_per_tsc = 1e9 / (double)rte_get_tsc_hz();
	nap->stall_cap_tsc = rte_get_tsc_hz() / 10; /* 100 ms */
	nap->cpu_sample_min_tsc = (uint64_t)(LULL_CPU_SAMPLE_MIN_NS / nap->ns_per_tsc);
	nap->schedstat_fd = -1;
	nap->rq_base_ns = LULL_POLICY_QUEUED_NA;
	nap->ctl_fd = -1;
	nap->waiter.ctl_fd = -1;
	nap->qs = nap->waiter.qs = &nap->qs_own;
	lull_hist_init(&nap->burst_pkts);
	lull_hist_init(&nap->sleep_ns);
}

void
lull_nap_burst_hist(const struct lull_nap *nap, uint16_t burst, struct lull_hist *out)
{
	lull_hist_snapshot(out, &nap->burst_pkts);
	lull_hist_add_n(out, burst, lull_counter_read(&nap->stats[LULL_PMD_FULL_BURSTS]));
}

void
lull_nap_thread_start(struct lull_nap *nap)
{
	lull_waiter_thread_init();
	nap->cpu_sample = LULL_CPU_SAMPLE_EVERY;
	nap->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	nap->rq_base_ns = LULL_POLICY_QUEUED_NA; /* another thread's, if any */
	nap->prev_tsc = rte_rdtsc();
	lull_quiesce_set_self(nap->qs);
	lull_quiesce_online(nap->qs);
}

void
lull_nap_set_quiesce(struct lull_nap *nap, struct lull_quiesce_slot *qs)
{
	nap->qs = nap->waiter.qs = qs != NULL ? qs : &nap->qs_own;
}

void
lull_nap_thread_stop(struct lull_nap *nap)
{
	lull_quiesce_offline(nap->qs);
	lull_quiesce_set_self(NULL);
	lull_waiter_detach(&nap->waiter);
	lull_nap_prio_drop(nap);
	if (nap->schedstat_fd >= 0)
		close(nap->schedstat_fd);
	nap->schedstat_fd = -1;
}

/* --wake-priority at a load: only over a thread's time-sharing policy (one
 * already real-time keeps what it has), and off with the policy. */
static void
prio_load(struct lull_nap *nap, uint32_t prio, uint64_t tsc_hz)
{
	int own;

	if (prio == 0 || !nap->on) {
		lull_nap_prio_drop(nap);
		nap->wake_prio = 0;
		nap->prio_refused = false;
		return;
	}
	if (!nap->prio_up) {
		own = sched_getscheduler(0);
		if (own != SCHED_OTHER && own != SCHED_BATCH && own != SCHED_IDLE) {
			nap->wake_prio = 0;
			return;
		}
		nap->prio_orig_policy = own;
	}
	if (nap->prio_refused)
		return; /* asked once per thread, not at every load */
	nap->wake_prio = (int)prio;
	nap->prio_hold_tsc = tsc_hz / 1000 * LULL_NAP_PRIO_HOLD_MS;
	/* raised already, at the priority before a change: the new one now */
	if (nap->prio_up && !prio_set(nap))
		lull_nap_prio_drop(nap);
}

int
lull_nap_load(struct lull_nap *nap, const struct lull_nap_conf *conf,
	const struct lull_wait_queue *q, unsigned int n, unsigned int *bad)
{
	uint64_t tsc_hz = rte_get_tsc_hz();
	int ret;

	lull_waiter_detach(&nap->waiter);
	if (conf->fresh)
		lull_policy_init(&nap->policy, &conf->policy);
	else
		lull_policy_set_params(&nap->policy, &conf->policy);
	nap->on = conf->policy.kind != LULL_POLICY_OFF;
	nap->max_sleep_ns = conf->policy.max_sleep_ns;
	nap->waiter = *conf->waiter;
	nap->waiter.qs = nap->qs;
	if (nap->on && nap->waiter.kind == LULL_WAKE_NANOSLEEP)
		prctl(PR_SET_TIMERSLACK, (unsigned long)conf->timer_slack_ns, 0, 0, 0);
	nap->intr_after_ns = conf->intr_after_ns;
	nap->budget_ns = lull_policy_budget_ns(&conf->policy);
	nap->ctl_fd = conf->ctl_fd;
	ret = lull_waiter_attach(&nap->waiter, q, n, nap->intr_after_ns != 0, conf->ctl_fd, bad);
	nap->policy.p.intr = nap->waiter.intr_ok;
	nap->policy.p.intr_after_ns = nap->intr_after_ns;
	nap->yield_period_tsc = conf->yield_hz ? tsc_hz / conf->yield_hz : 0;
	nap->yield_ns = (uint64_t)conf->yield_us * 1000;
	nap->next_yield_tsc = rte_rdtsc() + nap->yield_period_tsc;
	prio_load(nap, conf->wake_priority, tsc_hz);
	return ret;
}

int
lull_nap_conf_defaults(struct lull_nap_conf *conf, struct lull_waiter *waiter, uint32_t burst,
	uint32_t min_ring, char *err, size_t errlen)
{
	struct lull_sleep_opts opts;
	int ret;

	memset(conf, 0, sizeof(*conf));
	lull_sleep_opts_defaults(&opts);
	lull_sleep_opts_params(&opts, 0, burst, min_ring, &conf->policy);
	ret = lull_policy_check(&conf->policy);
	if (ret < 0) {
		snprintf(err, errlen, "burst %u, ring %u: sleep parameters out of range", burst,
			min_ring);
		return ret;
	}
	ret = lull_waiter_init(waiter, LULL_WAKE_AUTO, LULL_NAP_INTR_WAIT_MAX_MS, err, errlen);
	if (ret < 0)
		return ret;
	conf->waiter = waiter;
	conf->timer_slack_ns = LULL_NAP_TIMER_SLACK_NS;
	conf->ctl_fd = -1;
	conf->fresh = true;
	return 0;
}
