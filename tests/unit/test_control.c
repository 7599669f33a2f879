/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control plane (fwd/control/control.c, fwd/control/pmd_ctl.c) against PMDs that this test
 * plays itself: EAL is up with two net_null ports and two PMDs created but not
 * launched; a thread acknowledges each PMD's new parameter block the way the
 * PMD's housekeeping tick would, or holds a PMD back ("stalled") to make it
 * late. Faults come through the linker (-Wl,--wrap): the k-th tx buffer
 * allocation fails, or a new port's rte_eth_dev_configure does.
 *
 * Issue 16: a change that fails part-way publishes nothing and leaves the
 * configuration and the ports as they were (2); a publish that times out is
 * committed and taken later, the pending block answers -EBUSY until then; a
 * port-del that times out finishes at the main loop's tick once every PMD let
 * the port go, and a port that fails after its probe is detached (4).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "control.h"
#include "fwd.h"
#include "setup.h"

/* --- faults, through the linker --- */

static int txbuf_fail_at;  /* fail the k-th "lull_txbuf" allocation from now (0: none) */
static int configure_fail; /* rte_eth_dev_configure of a port added later fails */

void *__real_rte_zmalloc_socket(const char *type, size_t size, unsigned int align, int socket);
void *__wrap_rte_zmalloc_socket(const char *type, size_t size, unsigned int align, int socket);
int __real_rte_eth_dev_configure(
	uint16_t port, uint16_t nb_rxq, uint16_t nb_txq, const struct rte_eth_conf *conf);
int __wrap_rte_eth_dev_configure(
	uint16_t port, uint16_t nb_rxq, uint16_t nb_txq, const struct rte_eth_conf *conf);

void *
__wrap_rte_zmalloc_socket(const char *type, size_t size, unsigned int align, int socket)
{
	if (txbuf_fail_at > 0 && type != NULL && strcmp(type, "lull_txbuf") == 0 &&
		--txbuf_fail_at == 0)
		return NULL;
	return __real_rte_zmalloc_socket(type, size, align, socket);
}

int
__wrap_rte_eth_dev_configure(
	uint16_t port, uint16_t nb_rxq, uint16_t nb_txq, const struct rte_eth_conf *conf)
{
	if (configure_fail)
		return -EIO;
	return __real_rte_eth_dev_configure(port, nb_rxq, nb_txq, conf);
}

/* --- the PMDs' side --- */

static struct lull_fwd fwd;
static atomic_bool stalled[LULL_MAX_PMDS]; /* this PMD takes no new block */
static atomic_bool pmds_quit;
static pthread_t pmds_thread;
static char err[512];

/* What a PMD's housekeeping tick does with a new block: take it, acknowledge. */
static void *
play_pmds(void *arg)
{
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 100000};

	(void)arg;
	while (!atomic_load(&pmds_quit)) {
		for (unsigned int i = 0; i < fwd.n_pmds; i++) {
			struct lull_pmd *pmd = fwd.pmds[i];
			const struct lull_pmd_params *next =
				atomic_load_explicit(&pmd->next, memory_order_acquire);

			if (next != NULL && !atomic_load(&stalled[i]))
				atomic_store_explicit(&pmd->ack, next->gen, memory_order_release);
		}
		nanosleep(&tick, NULL);
	}
	return NULL;
}

static int
group_setup(void **state)
{
	char prefix[64];
	char *eal[] = {"test_control", "--no-huge", "-m", "256", "--no-pci", "--lcores",
		"0@0,1@0,2@0", "--log-level", "lib.eal:error", "--log-level", "lull:error",
		"--vdev", "net_null0", "--vdev", "net_null1", prefix};
	char *opts[] = {
		"lull", "--stats-period", "0", "--link-wait-ms", "0", "--hotplug-ports", "4"};
	int ret;

	(void)state;
	snprintf(prefix, sizeof(prefix), "--file-prefix=ut-control-%d", (int)getpid());
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])), eal) < 0)
		return -1;
	pthread_mutex_init(&fwd.lock, NULL);
	lull_config_defaults(&fwd.cfg);
	ret = lull_config_parse(
		&fwd.cfg, (int)(sizeof(opts) / sizeof(opts[0])), opts, err, sizeof(err));
	if (ret == 0)
		ret = lull_fwd_setup(&fwd, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "setup: %s\n", err);
		return -1;
	}
	/* launched, as far as the control plane can tell: changes wait for acks */
	fwd.n_launched = fwd.n_pmds;
	fwd.accepting = true;
	return pthread_create(&pmds_thread, NULL, play_pmds, NULL) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	atomic_store(&pmds_quit, true);
	pthread_join(pmds_thread, NULL);
	fwd.n_launched = 0;
	lull_fwd_teardown(&fwd);
	rte_eal_cleanup();
	return 0;
}

static unsigned int
ports_avail(void)
{
	return rte_eth_dev_count_avail();
}

/* Every PMD's current block: the one it polls by (acknowledged or published). */
static void
blocks(const struct lull_pmd_params **out)
{
	for (unsigned int i = 0; i < fwd.n_pmds; i++)
		out[i] = atomic_load(&fwd.pmds[i]->next);
}

static void
test_two_pmds(void **state)
{
	(void)state;
	assert_int_equal(fwd.n_pmds, 2);
	assert_int_equal(ports_avail(), 2);
	/* each PMD polls one of the two ports: a new pair needs a tx buffer in each */
	assert_int_equal(atomic_load(&fwd.pmds[0]->next)->n_rxqs, 1);
	assert_int_equal(atomic_load(&fwd.pmds[1]->next)->n_rxqs, 1);
}

/* A set that every PMD takes: committed, acknowledged, no pending block. */
static void
test_set_taken(void **state)
{
	uint64_t gen = fwd.gen;

	(void)state;
	assert_int_equal(lull_control_set(&fwd, "linger-us", "17", err, sizeof(err)), 0);
	assert_int_equal(fwd.gen, gen + 1);
	assert_int_equal(fwd.cfg.sleep.linger_us, 17);
	for (unsigned int i = 0; i < fwd.n_pmds; i++) {
		assert_null(fwd.pmds[i]->pending);
		assert_int_equal(atomic_load(&fwd.pmds[i]->ack), fwd.gen);
	}
}

/*
 * A port-add whose second PMD cannot get its tx buffer: refused whole - no
 * block published, the generation and configuration as before, the device
 * detached (its name can be added again), and then the same port-add works.
 */
static void
test_port_add_fails_whole(void **state)
{
	const struct lull_pmd_params *before[LULL_MAX_PMDS], *after[LULL_MAX_PMDS];
	struct lull_config *cfg = malloc(sizeof(*cfg));
	uint64_t gen = fwd.gen;
	uint16_t id = 0;

	(void)state;
	assert_non_null(cfg);
	*cfg = fwd.cfg;
	blocks(before);
	assert_int_equal(lull_control_port_add(&fwd, "net_null2", NULL, &id, err, sizeof(err)), 0);
	/* a lone port needs no tx buffer: its pair does */
	gen = fwd.gen;
	*cfg = fwd.cfg;
	blocks(before);
	txbuf_fail_at = 2; /* the first PMD's allocation succeeds, the second's fails */
	assert_int_equal(
		lull_control_port_add(&fwd, "net_null3", "net_null2", &id, err, sizeof(err)),
		-ENOMEM);
	assert_int_equal(txbuf_fail_at, 0);
	assert_int_equal(fwd.gen, gen);
	assert_memory_equal(&fwd.cfg, cfg, sizeof(*cfg));
	blocks(after);
	for (unsigned int i = 0; i < fwd.n_pmds; i++)
		assert_ptr_equal(after[i], before[i]);
	assert_int_equal(ports_avail(), 3);
	assert_non_null(strstr(err, "tx buffers"));
	/* the same name again, without the fault: forwarded by both PMDs */
	assert_int_equal(
		lull_control_port_add(&fwd, "net_null3", "net_null2", &id, err, sizeof(err)), 0);
	assert_int_equal(fwd.gen, gen + 1);
	assert_int_equal(ports_avail(), 4);
	assert_int_equal(
		fwd.cfg.dst_port[id], lull_control_port_find(&fwd, "net_null2", err, sizeof(err)));
	free(cfg);
}

/* A port that fails after its probe (here: its configure) is detached. */
static void
test_port_add_start_fails(void **state)
{
	uint16_t id = 0;
	uint64_t gen = fwd.gen;

	(void)state;
	configure_fail = 1;
	assert_int_equal(
		lull_control_port_add(&fwd, "net_null4", "self", &id, err, sizeof(err)), -EIO);
	configure_fail = 0;
	assert_non_null(strstr(err, "net_null4"));
	assert_int_equal(fwd.gen, gen);
	assert_int_equal(ports_avail(), 4);
	assert_int_equal(
		lull_control_port_add(&fwd, "net_null4", "self", &id, err, sizeof(err)), 0);
	assert_int_equal(ports_avail(), 5);
	assert_int_equal(lull_control_port_del(&fwd, "net_null4", err, sizeof(err)), 0);
	assert_int_equal(ports_avail(), 4);
}

/*
 * A PMD that does not take a change in time: -ETIMEDOUT, the change committed;
 * the next change answers -EBUSY while the block is pending; once the PMD took
 * it, changes go through again and the pending block is freed (ASan: no leak,
 * no double free).
 */
static void
test_publish_times_out(void **state)
{
	uint64_t gen = fwd.gen;

	(void)state;
	atomic_store(&stalled[1], true);
	assert_int_equal(lull_control_set(&fwd, "linger-us", "23", err, sizeof(err)), -ETIMEDOUT);
	assert_non_null(strstr(err, "did not take the change"));
	assert_int_equal(fwd.gen, gen + 1);
	assert_int_equal(fwd.cfg.sleep.linger_us, 23);
	assert_non_null(fwd.pmds[1]->pending);
	assert_int_equal(lull_control_set(&fwd, "linger-us", "29", err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "has not taken the previous change"));
	assert_int_equal(fwd.gen, gen + 1);
	assert_int_equal(fwd.cfg.sleep.linger_us, 23);
	atomic_store(&stalled[1], false);
	while (atomic_load(&fwd.pmds[1]->ack) < gen + 1)
		usleep(1000);
	assert_int_equal(lull_control_set(&fwd, "linger-us", "29", err, sizeof(err)), 0);
	assert_null(fwd.pmds[1]->pending);
	assert_int_equal(fwd.cfg.sleep.linger_us, 29);
}

/*
 * A port-del that a PMD does not acknowledge in time: the port stays (listed,
 * a second port-del answers -EBUSY, ticks leave it while the PMD is late); the
 * first tick after the PMD let it go stops and detaches it.
 */
static void
test_port_del_finished_at_tick(void **state)
{
	uint16_t id = 0;
	int p3;

	(void)state;
	p3 = lull_control_port_find(&fwd, "net_null3", err, sizeof(err));
	assert_true(p3 >= 0);
	atomic_store(&stalled[0], true);
	assert_int_equal(lull_control_port_del(&fwd, "net_null3", err, sizeof(err)), -ETIMEDOUT);
	assert_non_null(strstr(err, "removed as soon as it does"));
	assert_true(fwd.ports[p3].present);
	assert_int_equal(lull_control_port_del(&fwd, "net_null3", err, sizeof(err)), -EBUSY);
	for (int t = 0; t < 3; t++) {
		pthread_mutex_lock(&fwd.lock);
		lull_control_tick_locked(&fwd);
		pthread_mutex_unlock(&fwd.lock);
	}
	assert_true(fwd.ports[p3].present);
	assert_int_equal(ports_avail(), 4);
	atomic_store(&stalled[0], false);
	while (atomic_load(&fwd.pmds[0]->ack) < fwd.gen)
		usleep(1000);
	pthread_mutex_lock(&fwd.lock);
	lull_control_tick_locked(&fwd);
	pthread_mutex_unlock(&fwd.lock);
	assert_false(fwd.ports[p3].present);
	assert_int_equal(ports_avail(), 3);
	/* the name is free again; the partner waits for a pair once more */
	assert_int_equal(
		lull_control_port_add(&fwd, "net_null3", "net_null2", &id, err, sizeof(err)), 0);
	assert_int_equal(ports_avail(), 4);
}

/* Once lull is going away every command is refused with the same words. */
static void
test_refused_when_stopping(void **state)
{
	(void)state;
	pthread_mutex_lock(&fwd.lock);
	fwd.accepting = false;
	pthread_mutex_unlock(&fwd.lock);
	assert_int_equal(lull_control_set(&fwd, "linger-us", "5", err, sizeof(err)), -EAGAIN);
	assert_int_equal(lull_control_port_del(&fwd, "net_null3", err, sizeof(err)), -EAGAIN);
	pthread_mutex_lock(&fwd.lock);
	fwd.gone = true;
	pthread_mutex_unlock(&fwd.lock);
	assert_int_equal(lull_control_stats_clear(&fwd, err, sizeof(err)), -ESHUTDOWN);
	assert_string_equal(err, LULL_STOPPING);
	pthread_mutex_lock(&fwd.lock);
	fwd.gone = false; /* for the teardown, which sets it itself */
	pthread_mutex_unlock(&fwd.lock);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_pmds),
		cmocka_unit_test(test_set_taken),
		cmocka_unit_test(test_port_add_fails_whole),
		cmocka_unit_test(test_port_add_start_fails),
		cmocka_unit_test(test_publish_times_out),
		cmocka_unit_test(test_port_del_finished_at_tick),
		cmocka_unit_test(test_refused_when_stopping),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
