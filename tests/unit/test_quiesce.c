/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/quiesce.c: a grace period returns only once every polling thread that
 * was inside a driver call has left it; a waiting thread, the caller's own
 * slot, a released slot and a thread that polled once and now sleeps in the
 * kernel hold nothing up, nor one that ended (its slot goes back); the
 * bound ends a grace period that a thread stuck
 * inside would hold forever. Threads play the PMDs; what
 * is asserted is order (what a thread did before the wait returned), never
 * how long anything took.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "quiesce.h"

#define SECOND_NS 1000000000ull

enum step { START, INSIDE, GO, LEFT, DONE };

/* One PMD's script: inside a driver call (online, spinning: a poll-mode call
 * never blocks), waiting (offline), or online but asleep in the kernel (a
 * thread that polled once and stopped) until the test says go, then out of
 * the call (passes an iteration, or stays offline), then done. */
enum kind { POLLING, WAITING, STOPPED_POLLING };

struct pmd {
	struct lull_quiesce_slot *slot;
	enum kind kind;
	_Atomic enum step step; /* the thread's progress; GO is the test's */
	pthread_t tid;
};

static void
nap_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)ms * 1000000};

	nanosleep(&ts, NULL);
}

static void *
pmd_run(void *arg)
{
	struct pmd *p = arg;

	lull_quiesce_set_self(p->slot);
	lull_quiesce_online(p->slot);
	if (p->kind == WAITING)
		lull_quiesce_offline(p->slot);
	atomic_store(&p->step, INSIDE);
	while (atomic_load(&p->step) != GO)
		if (p->kind != POLLING)
			nap_ms(1);
	atomic_store(&p->step, LEFT); /* done with the driver's memory */
	if (p->kind != WAITING)
		lull_quiesce_pass(p->slot);
	while (atomic_load(&p->step) != DONE)
		nap_ms(1);
	lull_quiesce_offline(p->slot);
	return NULL;
}

static void
pmd_start(struct pmd *p, enum kind kind)
{
	p->slot = lull_quiesce_claim();
	assert_non_null(p->slot);
	p->kind = kind;
	atomic_store(&p->step, START);
	assert_int_equal(pthread_create(&p->tid, NULL, pmd_run, p), 0);
	while (atomic_load(&p->step) != INSIDE)
		nap_ms(1);
}

static void
pmd_end(struct pmd *p)
{
	enum step inside = INSIDE;

	atomic_compare_exchange_strong(&p->step, &inside, GO);
	while (atomic_load(&p->step) != LEFT)
		nap_ms(1);
	atomic_store(&p->step, DONE);
	assert_int_equal(pthread_join(p->tid, NULL), 0);
	lull_quiesce_release(p->slot);
}

/* The "driver": after 30 ms lets the polling PMD go. */
static void *
release_later(void *arg)
{
	struct pmd *p = arg;

	nap_ms(30);
	atomic_store(&p->step, GO);
	return NULL;
}

static void
test_waits_for_a_thread_inside(void **state)
{
	struct pmd polling, sleeping, stopped;
	pthread_t t;

	(void)state;
	pmd_start(&polling, POLLING);
	pmd_start(&sleeping, WAITING);
	pmd_start(&stopped, STOPPED_POLLING);
	assert_int_equal(pthread_create(&t, NULL, release_later, &polling), 0);
	assert_true(lull_quiesce_wait(10 * SECOND_NS) >= 0);
	/* the polling one had left its call; the sleeping one and the one asleep
	 * in the kernel were never waited for */
	assert_int_equal(atomic_load(&polling.step), LEFT);
	assert_int_equal(atomic_load(&sleeping.step), INSIDE);
	assert_int_equal(atomic_load(&stopped.step), INSIDE);
	assert_int_equal(pthread_join(t, NULL), 0);
	pmd_end(&polling);
	pmd_end(&sleeping);
	pmd_end(&stopped);
}

static void
test_bound_and_stats(void **state)
{
	struct pmd stuck;
	struct lull_quiesce_stats a, b;

	(void)state;
	lull_quiesce_stats(&a);
	pmd_start(&stuck, POLLING);
	assert_int_equal(lull_quiesce_wait(20000000), -ETIMEDOUT);
	lull_quiesce_stats(&b);
	assert_int_equal(b.periods, a.periods + 1);
	assert_int_equal(b.timeouts, a.timeouts + 1);
	assert_true(b.longest_ns >= 20000000);
	pmd_end(&stuck);
	/* released: no longer waited for */
	assert_true(lull_quiesce_wait(10 * SECOND_NS) >= 0);
}

static void
test_own_slot_skipped(void **state)
{
	struct lull_quiesce_slot *mine = lull_quiesce_claim();

	(void)state;
	assert_non_null(mine);
	lull_quiesce_set_self(mine);
	lull_quiesce_online(mine); /* a PMD that tears a driver down itself */
	assert_true(lull_quiesce_wait(10 * SECOND_NS) >= 0);
	lull_quiesce_offline(mine);
	lull_quiesce_set_self(NULL);
	lull_quiesce_release(mine);
}

/* A thread that ends inside its poll: its slot goes even and back. */
static void *
ends_inside(void *arg)
{
	struct lull_quiesce_slot *s = arg;

	lull_quiesce_set_self(s);
	lull_quiesce_online(s);
	lull_quiesce_release_at_exit(s);
	return NULL;
}

static void
test_released_at_exit(void **state)
{
	struct lull_quiesce_slot *s = lull_quiesce_claim();
	pthread_t t;

	(void)state;
	assert_non_null(s);
	assert_int_equal(pthread_create(&t, NULL, ends_inside, s), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&s->used), 0);
	assert_int_equal(atomic_load(&s->seq) & 1, 0);
	assert_true(lull_quiesce_wait(10 * SECOND_NS) >= 0);
}

static void
test_claim_all(void **state)
{
	struct lull_quiesce_slot *s[LULL_QUIESCE_MAX_SLOTS], own = {0};

	(void)state;
	for (unsigned int i = 0; i < LULL_QUIESCE_MAX_SLOTS; i++) {
		s[i] = lull_quiesce_claim();
		assert_non_null(s[i]);
		/* a claimed slot starts even: its thread has not started */
		assert_int_equal(atomic_load(&s[i]->seq) & 1, 0);
	}
	assert_null(lull_quiesce_claim());
	/* giving back what is not the table's frees nothing (a PMD whose
	 * engine kept its own slot, or none) */
	lull_quiesce_release(&own);
	lull_quiesce_release(NULL);
	assert_null(lull_quiesce_claim());
	lull_quiesce_release(s[7]);
	assert_ptr_equal(lull_quiesce_claim(), s[7]);
	for (unsigned int i = 0; i < LULL_QUIESCE_MAX_SLOTS; i++)
		lull_quiesce_release(s[i]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits_for_a_thread_inside),
		cmocka_unit_test(test_bound_and_stats),
		cmocka_unit_test(test_own_slot_skipped),
		cmocka_unit_test(test_released_at_exit),
		cmocka_unit_test(test_claim_all),
	};

	/* with and without membarrier: the first run as a host without it */
	if (cmocka_run_group_tests_name("quiesce, no membarrier", tests, NULL, NULL) != 0)
		return 1;
	if (lull_quiesce_init() != 0)
		return 0; /* this kernel has none: the fallback was what ran */
	return cmocka_run_group_tests_name("quiesce, membarrier", tests, NULL, NULL);
}
