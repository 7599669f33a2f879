/* SPDX-License-Identifier: BSD-3-Clause */
#include "wait.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include <rte_cpuflags.h>
#include <rte_cycles.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_pause.h>
#include <rte_power_intrinsics.h>

static struct rte_cpu_intrinsics
cpu_intrinsics(void)
{
	struct rte_cpu_intrinsics intr;

	memset(&intr, 0, sizeof(intr));
	rte_cpu_get_intrinsics_support(&intr);
	return intr;
}

int
lull_waiter_init(struct lull_waiter *w, enum lull_wake_kind kind, uint32_t intr_wait_max_ms,
	char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->ctl_fd = -1;
	w->tsc_hz = rte_get_tsc_hz();
	w->intr_wait_max_ms = (int)intr_wait_max_ms;
	switch (kind) {
	case LULL_WAKE_AUTO:
		w->kind = LULL_WAKE_NANOSLEEP;
		w->tpause_short = cpu_intrinsics().power_pause;
		return 0;
	case LULL_WAKE_MONITOR:
		if (!(cpu_intrinsics().power_monitor && cpu_intrinsics().power_monitor_multi)) {
			snprintf(err, errlen,
				"--wake: bad value 'monitor' (this CPU has no monitor/mwait "
				"intrinsics for DPDK; use auto, nanosleep or pause)");
			return -ENOTSUP;
		}
		w->kind = kind;
		return 0;
	case LULL_WAKE_TPAUSE:
		if (!cpu_intrinsics().power_pause) {
			snprintf(err, errlen,
				"--wake: bad value 'tpause' (this CPU has no WAITPKG/TPAUSE; use "
				"auto, nanosleep or pause)");
			return -ENOTSUP;
		}
		/* fall through */
	case LULL_WAKE_NANOSLEEP:
	case LULL_WAKE_PAUSE:
		w->kind = kind;
		return 0;
	default:
		snprintf(err, errlen, "--wake: unknown backend %d", (int)kind);
		return -EINVAL;
	}
}

/* Queue i's interrupt into this thread's epoll set: DPDK's registration
 * (edge-triggered), or its fd level-triggered where the queue says so. */
static int
watch(struct lull_waiter *w, unsigned int i)
{
	const struct lull_wait_queue *q = &w->queues[i];
	int fd;

	w->level_fd[i] = -1;
	if (!q->level)
		return rte_eth_dev_rx_intr_ctl_q(
			q->port, q->queue, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL);
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(q->port, q->queue);
	if (fd < 0)
		return fd;
	memset(&w->level_ev[i], 0, sizeof(w->level_ev[i]));
	w->level_ev[i].epdata.event = EPOLLIN; /* no EPOLLET; no callback: never read */
	if (rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, fd, &w->level_ev[i]) < 0)
		return errno > 0 ? -errno : -EIO;
	w->level_fd[i] = fd;
	return 0;
}

static void
unwatch(struct lull_waiter *w, unsigned int i)
{
	const struct lull_wait_queue *q = &w->queues[i];

	if (w->level_fd[i] >= 0)
		rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, w->level_fd[i], &w->level_ev[i]);
	else
		rte_eth_dev_rx_intr_ctl_q(
			q->port, q->queue, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, NULL);
	w->level_fd[i] = -1;
}

/*
 * A queue fd that signals the process on input: net_tap's signal handler moves
 * the driver's "rx trigger", and an rx burst reads nothing until it moved. The
 * signal comes per packet (DPDK 22.11 uses a real-time signal: queued, never
 * merged), to whichever thread does not block it. Three things follow:
 *
 * - A polling thread that takes it pays a signal delivery per packet (an IPI,
 *   the handler, sigreturn: 15 us on a PVM guest): PMD threads block every
 *   asynchronous signal (lull_waiter_thread_init), so that the control threads
 *   take them. At 50-60 kpps on two taps the PMD that took them lost a fifth
 *   of what busy polling carries (issue 26).
 * - Left to the process, the handler may run after the PMD's poll that follows
 *   an interrupt: the poll finds nothing, the interrupt is spent, and the
 *   packet waits for the next one - a lost wake-up (issue 20).
 * - Owned by the PMD thread during its interrupt waits (issue 20's fix), every
 *   packet of a burst queues one more signal to it, and the thread runs 1,000
 *   handlers for a burst of 1,000 before its wait returns: 15 ms here.
 *
 * So the interrupt wait runs the handler itself (a "kick": the function the
 * driver installed, called as a plain function, which is what a handler that
 * takes only the signal number is), once after arming and before the last
 * look at the queues, and once after a wake: the trigger has moved whenever
 * the PMD polls after arming, whichever thread the kernel chose and whenever
 * it runs. No syscall, no signal to the PMD. A handler that wants siginfo
 * cannot be called so: then the fds signal the PMD thread for the length of
 * each interrupt wait (steer_signals), the fallback.
 */
static void
kicks_find(struct lull_waiter *w)
{
	w->n_kicks = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (!sigismember(&w->async_sigs, sig))
			continue;
		if (sigaction(sig, NULL, &sa) != 0 || (sa.sa_flags & SA_SIGINFO) ||
			sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN ||
			w->n_kicks == LULL_WAIT_MAX_KICKS) {
			w->n_kicks = 0;
			return;
		}
		w->kick_sig[w->n_kicks] = sig;
		w->kick[w->n_kicks++] = sa.sa_handler;
	}
}

static inline void
kick(const struct lull_waiter *w)
{
	for (unsigned int i = 0; i < w->n_kicks; i++)
		w->kick[i](w->kick_sig[i]);
}

/* The fallback: the fds signal this thread (to_me) or the process. */
static void
steer_signals(const struct lull_waiter *w, bool to_me)
{
	struct f_owner_ex own = {
		.type = to_me ? F_OWNER_TID : F_OWNER_PID, .pid = to_me ? gettid() : getpid()};

	/* unblocked before the fds point here, blocked once they point away: a
	 * signal sent to this thread is never left pending on it */
	if (to_me)
		pthread_sigmask(SIG_UNBLOCK, &w->async_sigs, NULL);
	for (unsigned int i = 0; i < w->n_queues; i++)
		if (w->async_fd[i] >= 0)
			fcntl(w->async_fd[i], F_SETOWN_EX, &own);
	if (!to_me)
		pthread_sigmask(SIG_BLOCK, &w->async_sigs, NULL);
}

void
lull_waiter_thread_init(void)
{
	static const int sync_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
	sigset_t set;

	sigfillset(&set);
	for (unsigned int i = 0; i < sizeof(sync_sigs) / sizeof(sync_sigs[0]); i++)
		sigdelset(&set, sync_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* epoll callback of the control eventfd: empty it, so that it wakes once per write. */
static void
ctl_drain(int fd, void *arg)
{
	uint64_t v;

	(void)arg;
	if (read(fd, &v, sizeof(v)) < 0)
		return; /* EAGAIN: another read took it */
}

static void
ctl_attach(struct lull_waiter *w, int ctl_fd)
{
	memset(&w->ctl_ev, 0, sizeof(w->ctl_ev));
	w->ctl_ev.epdata.event = EPOLLIN;
	w->ctl_ev.epdata.cb_fun = ctl_drain;
	w->ctl_fd = ctl_fd >= 0 && rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, ctl_fd,
					   &w->ctl_ev) == 0
			    ? ctl_fd
			    : -1;
}

int
lull_waiter_attach(struct lull_waiter *w, const struct lull_wait_queue *q, unsigned int n,
	bool want_intr, int ctl_fd, unsigned int *bad)
{
	w->n_queues = n < LULL_NAP_MAX_QUEUES ? n : LULL_NAP_MAX_QUEUES;
	memcpy(w->queues, q, sizeof(*q) * w->n_queues);
	w->intr_ok = false;
	if (!want_intr || w->n_queues == 0)
		return 0;
	for (unsigned int i = 0; i < w->n_queues; i++) {
		int ret = watch(w, i);

		if (ret < 0) {
			*bad = i; /* before the rollback counts i down */
			while (i-- > 0)
				unwatch(w, i);
			return ret;
		}
	}
	w->n_async = 0;
	sigemptyset(&w->async_sigs);
	for (unsigned int i = 0; i < w->n_queues; i++) {
		int fd = rte_eth_dev_rx_intr_ctl_q_get_fd(w->queues[i].port, w->queues[i].queue);
		int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
		int sig = fl >= 0 && (fl & O_ASYNC) ? fcntl(fd, F_GETSIG) : -1;

		w->async_fd[i] = sig >= 0 ? fd : -1;
		if (sig >= 0) {
			w->n_async++;
			sigaddset(&w->async_sigs, sig == 0 ? SIGIO : sig);
		}
	}
	kicks_find(w); /* the signals stay blocked here (lull_waiter_thread_init) */
	ctl_attach(w, ctl_fd);
	w->intr_ok = true;
	return 0;
}

void
lull_waiter_detach(struct lull_waiter *w)
{
	if (w->intr_ok) {
		if (w->ctl_fd >= 0)
			rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_DEL, w->ctl_fd, &w->ctl_ev);
		w->ctl_fd = -1;
		for (unsigned int i = 0; i < w->n_queues; i++)
			unwatch(w, i);
	}
	w->intr_ok = false;
}

static void
wait_nanosleep(const struct lull_waiter *w, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000), .tv_nsec = (long)(ns % 1000000000)};

	lull_quiesce_offline(w->qs);
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	lull_quiesce_online(w->qs);
}

/* Whether a monitored descriptor says a packet landed (its callback would abort). */
static bool
monitor_hit(const struct rte_power_monitor_cond *c)
{
	uint64_t v;

	switch (c->size) {
	case 1:
		v = *(const volatile uint8_t *)c->addr;
		break;
	case 2:
		v = *(const volatile uint16_t *)c->addr;
		break;
	case 4:
		v = *(const volatile uint32_t *)c->addr;
		break;
	default:
		v = *(const volatile uint64_t *)c->addr;
		break;
	}
	return c->fn != NULL && c->fn(v, c->opaque) != 0;
}

/* monitor: sleep on the next rx descriptor of every queue, until a packet or
 * the deadline. The addresses move as rings advance, so they are read for every
 * wait; a return with no packet before the deadline waits again. */
static void
wait_monitor(struct lull_waiter *w, uint64_t ns)
{
	struct rte_power_monitor_cond pmc[LULL_NAP_MAX_QUEUES];
	uint64_t deadline_tsc = rte_rdtsc() + ns * w->tsc_hz / 1000000000;

	for (unsigned int i = 0; i < w->n_queues; i++) {
		if (rte_eth_get_monitor_addr(w->queues[i].port, w->queues[i].queue, &pmc[i]) != 0) {
			wait_nanosleep(w, ns);
			return;
		}
	}
	for (;;) {
		if (w->n_queues == 1)
			rte_power_monitor(&pmc[0], deadline_tsc);
		else
			rte_power_monitor_multi(pmc, w->n_queues, deadline_tsc);
		if (rte_rdtsc() >= deadline_tsc)
			return;
		for (unsigned int i = 0; i < w->n_queues; i++)
			if (monitor_hit(&pmc[i]))
				return;
		w->early_wakes++;
	}
}

/* tpause until the deadline: one TPAUSE ends at the OS's cap or an interrupt. */
static void
wait_tpause(struct lull_waiter *w, uint64_t deadline_tsc)
{
	for (;;) {
		rte_power_pause(deadline_tsc);
		if (rte_rdtsc() >= deadline_tsc)
			return;
		w->early_wakes++;
	}
}

static void
wait_timed(struct lull_waiter *w, uint64_t ns)
{
	uint64_t deadline_tsc;

	if (w->kind == LULL_WAKE_MONITOR) {
		wait_monitor(w, ns);
		return;
	}
	if (w->kind == LULL_WAKE_NANOSLEEP && !(w->tpause_short && ns < LULL_TPAUSE_MAX_NS)) {
		wait_nanosleep(w, ns);
		return;
	}
	deadline_tsc = rte_rdtsc() + ns * w->tsc_hz / 1000000000;
	if (w->kind == LULL_WAKE_PAUSE) {
		while (rte_rdtsc() < deadline_tsc)
			rte_pause();
		return;
	}
	wait_tpause(w, deadline_tsc); /* tpause, or auto's short waits */
}

static void
intr_arm(const struct lull_waiter *w, bool on)
{
	for (unsigned int i = 0; i < w->n_queues; i++) {
		if (on)
			rte_eth_dev_rx_intr_enable(w->queues[i].port, w->queues[i].queue);
		else
			rte_eth_dev_rx_intr_disable(w->queues[i].port, w->queues[i].queue);
	}
}

/* Arm, look at the queues once more (what came before arming is seen now: no
 * lost wake-up), then wait. Where the fds signal, their handlers run here
 * (kick) or, failing that, the fds signal this thread while it waits. A look
 * that polls needs the kick before it; a look that only peeks (an attached
 * engine) needs it only where it saw packets or a wake came: an idle wait that
 * times out then costs the host no read per queue at its next poll (4 readv
 * per wake for OVS on two net_tap ports with two rx queues each). */
static enum lull_wait_end
wait_intr(const struct lull_waiter *w, const struct lull_wait_req *req)
{
	bool steer = w->n_async != 0 && w->n_kicks == 0;
	enum lull_wait_end end = LULL_WAIT_RECHECK;

	if (steer)
		steer_signals(w, true);
	intr_arm(w, true);
	if (!req->recheck_peeks)
		kick(w);
	if (req->recheck(req->ctx) == 0) {
		struct rte_epoll_event ev[8];
		int k;

		lull_quiesce_offline(w->qs);
		k = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 8, w->intr_wait_max_ms);
		lull_quiesce_online(w->qs);

		end = k > 0 ? LULL_WAIT_WOKEN : LULL_WAIT_TIMEOUT;
		for (int i = 0; i < k; i++)
			if (w->ctl_fd >= 0 && ev[i].fd == w->ctl_fd)
				end = LULL_WAIT_CONTROL;
		if (end == LULL_WAIT_WOKEN)
			kick(w);
	} else if (req->recheck_peeks) {
		kick(w);
	}
	intr_arm(w, false);
	if (steer)
		steer_signals(w, false);
	return end;
}

void
lull_waiter_inject(struct lull_waiter *w, const struct lull_slowwake_params *p, uint64_t seed)
{
	w->inject_on = lull_slowwake_on(p) != 0;
	lull_slowwake_init(&w->inject, p, seed);
}

/* --wake-inject: the wait as the backend does it, later by a drawn lateness,
 * the last of which is a drawn CPU spent spinning (a slow host's wake spends
 * its CPU before the thread runs again: it is part of the lateness seen). A
 * timed wait's deadline moves; a woken interrupt wait sleeps the rest. */
static enum lull_wait_end
wait_injected(struct lull_waiter *w, const struct lull_wait_req *req)
{
	uint64_t late_ns, cpu_ns, spin_tsc;
	enum lull_wait_end end = LULL_WAIT_DEADLINE;

	lull_slowwake_draw(&w->inject, &late_ns, &cpu_ns);
	late_ns -= cpu_ns; /* the CPU is spun at the end of the lateness */
	spin_tsc = cpu_ns * w->tsc_hz / 1000000000;

	if (req->mode == LULL_WAIT_INTR && w->intr_ok) {
		end = wait_intr(w, req);
		if (end == LULL_WAIT_RECHECK)
			return end;
		wait_nanosleep(w, late_ns);
	} else {
		wait_timed(w, req->ns + late_ns);
	}
	spin_tsc += rte_rdtsc();
	while (rte_rdtsc() < spin_tsc)
		rte_pause();
	return end;
}

enum lull_wait_end
lull_wait(struct lull_waiter *w, const struct lull_wait_req *req)
{
	if (unlikely(w->inject_on))
		return wait_injected(w, req);
	if (req->mode == LULL_WAIT_INTR && w->intr_ok)
		return wait_intr(w, req);
	wait_timed(w, req->ns);
	return LULL_WAIT_DEADLINE;
}

const char *
lull_waiter_describe(const struct lull_waiter *w)
{
	if (w->tpause_short)
		return "tpause (< 50 us) + nanosleep";
	return lull_wake_name(w->kind);
}
