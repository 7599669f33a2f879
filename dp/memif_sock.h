/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A memif server killed without its cleanup (SIGKILL, a crash) leaves its
 * socket file; DPDK's memif then cannot bind it again and the port is not
 * created. Before a memif server port is probed, a socket file nobody
 * listens on (connect: refused) is removed, and that is logged; one that
 * somebody listens on is left alone (the probe then fails and says so).
 */
#ifndef LULL_MEMIF_SOCK_H
#define LULL_MEMIF_SOCK_H

/**
 * For devargs of a memif server with a file socket
 * ("net_memif0,role=server,socket=/run/a.sock,socket-abstract=no"): remove the
 * socket file if it is stale. Anything else is left alone.
 *
 * @return 1 when a stale socket was removed, 0 otherwise.
 */
int lull_memif_clear_stale(const char *devargs);

/** The same for every --vdev of EAL's arguments (argv[0..argc-1]), before rte_eal_init. */
void lull_memif_clear_stale_argv(int argc, char **argv);

#endif /* LULL_MEMIF_SOCK_H */
