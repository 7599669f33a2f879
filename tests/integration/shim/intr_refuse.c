/*
 * LD_PRELOAD shim for fault tests: refuses the Nth rx-interrupt registration
 * (rte_eth_dev_rx_intr_ctl_q with RTE_INTR_EVENT_ADD; N from
 * LULL_SHIM_REFUSE_NTH, 1 unless set) with -EPERM, as a kernel or driver that
 * will not give an interrupt does; every other call goes to DPDK.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include <rte_ethdev.h>

int
rte_eth_dev_rx_intr_ctl_q(uint16_t port_id, uint16_t queue_id, int epfd, int op, void *data)
{
	static unsigned int adds;
	typedef int (*ctl_fn)(uint16_t, uint16_t, int, int, void *);
	ctl_fn next = (ctl_fn)(uintptr_t)dlsym(RTLD_NEXT, "rte_eth_dev_rx_intr_ctl_q");
	const char *nth = getenv("LULL_SHIM_REFUSE_NTH");
	unsigned int refuse = nth != NULL ? (unsigned int)strtoul(nth, NULL, 10) : 1;

	if (op == RTE_INTR_EVENT_ADD && __atomic_add_fetch(&adds, 1, __ATOMIC_RELAXED) == refuse)
		return -EPERM;
	return next != NULL ? next(port_id, queue_id, epfd, op, data) : -ENOSYS;
}
