/*
 * LD_PRELOAD shim for fault tests, around rte_eth_dev_rx_intr_ctl_q with
 * RTE_INTR_EVENT_ADD (a PMD registering a queue's interrupt as it takes a new
 * block):
 *  - LULL_SHIM_REFUSE_NTH=N refuses the Nth registration with -EPERM, as a
 *    kernel or driver that will not give an interrupt does;
 *  - LULL_SHIM_DELAY_MS=D with LULL_SHIM_DELAY_FILE=F holds one
 *    registration for D ms each time the test creates the file F (the
 *    registration that removes it), as a PMD stalled by its host would (its
 *    acknowledgement of the block is then late).
 * Every other call goes to DPDK.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <rte_ethdev.h>

static unsigned int
env_uint(const char *name)
{
	const char *v = getenv(name);

	return v != NULL ? (unsigned int)strtoul(v, NULL, 10) : 0;
}

int
rte_eth_dev_rx_intr_ctl_q(uint16_t port_id, uint16_t queue_id, int epfd, int op, void *data)
{
	static unsigned int adds;
	typedef int (*ctl_fn)(uint16_t, uint16_t, int, int, void *);
	ctl_fn next = (ctl_fn)(uintptr_t)dlsym(RTLD_NEXT, "rte_eth_dev_rx_intr_ctl_q");

	if (op == RTE_INTR_EVENT_ADD) {
		unsigned int n = __atomic_add_fetch(&adds, 1, __ATOMIC_RELAXED);
		unsigned int delay_ms = env_uint("LULL_SHIM_DELAY_MS");
		const char *flag = getenv("LULL_SHIM_DELAY_FILE");

		if (n == env_uint("LULL_SHIM_REFUSE_NTH"))
			return -EPERM;
		if (delay_ms > 0 && flag != NULL && unlink(flag) == 0) {
			struct timespec ts = {.tv_sec = delay_ms / 1000,
				.tv_nsec = (long)(delay_ms % 1000) * 1000000};

			nanosleep(&ts, NULL);
		}
	}
	return next != NULL ? next(port_id, queue_id, epfd, op, data) : -ENOSYS;
}
