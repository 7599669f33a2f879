/* SPDX-License-Identifier: BSD-3-Clause */
#include "quiesce.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

static struct lull_quiesce_slot slots[LULL_QUIESCE_MAX_SLOTS];
static atomic_bool expedited; /* membarrier's private expedited command registered */
static _Atomic uint64_t n_periods, n_timeouts, longest_ns;
static _Thread_local struct lull_quiesce_slot *self;

/* Between two looks at a slot that is still inside a driver call. */
#define LOOK_NS 20000
/* Without membarrier: how long a slot must read the same even count before it
 * is taken as waiting (a store of an odd count may sit that long in a store
 * buffer while the thread already reads the driver's flag; in practice < 1 us). */
#define SETTLE_NS 20000

static void
pause_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)ns};

	nanosleep(&ts, NULL);
}

static long
membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

int
lull_quiesce_init(void)
{
	long cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds < 0)
		return -errno;
	if (!(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return -ENOTSUP;
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) < 0)
		return -errno;
	atomic_store(&expedited, true);
	return 0;
}

struct lull_quiesce_slot *
lull_quiesce_claim(void)
{
	for (unsigned int i = 0; i < LULL_QUIESCE_MAX_SLOTS; i++) {
		int free = 0;

		if (atomic_compare_exchange_strong(&slots[i].used, &free, 1)) {
			atomic_store(&slots[i].tid, 0);
			/* even: a thread that has not started reads nothing */
			uint64_t v = atomic_load(&slots[i].seq);

			atomic_store(&slots[i].seq, v + (v & 1));
			return &slots[i];
		}
	}
	return NULL;
}

/* A slot of the table (not NULL, not a thread's own slot outside it). */
static bool
in_table(const struct lull_quiesce_slot *s)
{
	return (uintptr_t)s - (uintptr_t)slots < sizeof(slots);
}

void
lull_quiesce_release(struct lull_quiesce_slot *s)
{
	if (in_table(s))
		atomic_store(&s->used, 0);
}

static pthread_key_t exit_key;
static bool exit_key_ok;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void
at_exit(void *arg)
{
	lull_quiesce_offline(arg);
	lull_quiesce_release(arg);
}

static void
exit_key_make(void)
{
	exit_key_ok = pthread_key_create(&exit_key, at_exit) == 0;
}

void
lull_quiesce_release_at_exit(struct lull_quiesce_slot *s)
{
	if (!in_table(s))
		return;
	pthread_once(&exit_key_once, exit_key_make);
	if (exit_key_ok)
		pthread_setspecific(exit_key, s);
}

static void
note(uint64_t waited_ns, bool timed_out)
{
	uint64_t l = atomic_load(&longest_ns);

	atomic_fetch_add(&n_periods, 1);
	if (timed_out)
		atomic_fetch_add(&n_timeouts, 1);
	while (waited_ns > l && !atomic_compare_exchange_weak(&longest_ns, &l, waited_ns))
		;
}

void
lull_quiesce_set_self(struct lull_quiesce_slot *s)
{
	self = s;
	if (s != NULL)
		atomic_store(&s->tid, (int)gettid());
}

/* Whether thread tid of this process sleeps in the kernel (state S of
 * /proc/self/task/TID/stat): a poll-mode driver's calls never block, so it is
 * inside none. Not D (a page fault in the middle of a ring read) nor T (a
 * thread stopped anywhere). */
static bool
blocked(int tid)
{
	char path[64], buf[512];
	const char *end;
	ssize_t n;
	int fd;

	if (tid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	end = strrchr(buf, ')'); /* the name may hold anything; the state follows it */
	return end != NULL && end[1] == ' ' && end[2] == 'S';
}

int64_t
lull_quiesce_wait(uint64_t max_ns)
{
	uint64_t snap[LULL_QUIESCE_MAX_SLOTS];
	bool pending[LULL_QUIESCE_MAX_SLOTS];
	uint64_t t0_ns = lull_clock_ns(CLOCK_MONOTONIC);
	bool fenced = false;
	unsigned int n_pending = 0;

	/* The driver's flag, stored before this call, is seen by every thread
	 * from here: a thread's next look at it finds it cleared. membarrier
	 * makes each running thread pass a full fence, so a count it stored
	 * before reading the flag is visible below too. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load(&expedited))
		fenced = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
	for (unsigned int i = 0; i < LULL_QUIESCE_MAX_SLOTS; i++) {
		pending[i] = false;
		if (&slots[i] == self || !atomic_load(&slots[i].used))
			continue;
		snap[i] = atomic_load_explicit(&slots[i].seq, memory_order_acquire);
		/* odd: inside a driver call, perhaps past the flag; even: waiting
		 * (fenced), or waiting once the count holds still (not fenced) */
		pending[i] = (snap[i] & 1) || !fenced;
		n_pending += pending[i];
	}
	if (!fenced && n_pending > 0)
		pause_ns(SETTLE_NS);
	for (unsigned int look = 0; n_pending > 0; look++) {
		for (unsigned int i = 0; i < LULL_QUIESCE_MAX_SLOTS; i++) {
			if (!pending[i])
				continue;
			uint64_t v = atomic_load_explicit(&slots[i].seq, memory_order_acquire);
			/* moved on: the iteration that was inside ended (its reads come
			 * before the store of the new count); or it held still, even;
			 * or, from the second look, its thread sleeps in the kernel */
			if (v != snap[i] || !(v & 1) || !atomic_load(&slots[i].used) ||
				(look > 0 && blocked(atomic_load(&slots[i].tid)))) {
				pending[i] = false;
				n_pending--;
			}
		}
		if (n_pending == 0)
			break;
		if (lull_clock_ns(CLOCK_MONOTONIC) - t0_ns >= max_ns) {
			note(lull_clock_ns(CLOCK_MONOTONIC) - t0_ns, true);
			return -ETIMEDOUT;
		}
		pause_ns(LOOK_NS);
	}
	uint64_t waited_ns = lull_clock_ns(CLOCK_MONOTONIC) - t0_ns;

	note(waited_ns, false);
	return (int64_t)waited_ns;
}

void
lull_quiesce_stats(struct lull_quiesce_stats *out)
{
	out->periods = atomic_load(&n_periods);
	out->longest_ns = atomic_load(&longest_ns);
	out->timeouts = atomic_load(&n_timeouts);
}
