/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * A client of DPDK's telemetry socket (v2): connect, send one command, get
 * its JSON reply. No DPDK: it speaks the socket protocol (SOCK_SEQPACKET,
 * a greeting, then one reply per request).
 */
#ifndef LULLCTL_CLIENT_H
#define LULLCTL_CLIENT_H

#include <stddef.h>

#include <jansson.h>

/** How long the command line waits for lull's answer (a port-add may take seconds). */
#define LULLCTL_TIMEOUT_MS 10000
/** port-add's answer comes once the link is up or lull's --link-wait-ms (at most 600 s) passed. */
#define LULLCTL_PORT_ADD_TIMEOUT_MS 660000
/** How long a metrics scrape waits: then lull_up is 0 (Prometheus' timeout is 10 s). */
#define LULLCTL_SCRAPE_TIMEOUT_MS 3000

struct lullctl_client {
	int fd;
	size_t max_reply; /**< from the greeting */
	unsigned int timeout_ms;
	char path[256];
};

/**
 * Socket path of the DPDK process started with --file-prefix prefix, where
 * EAL puts it: /var/run/dpdk/PREFIX for root, else $XDG_RUNTIME_DIR/dpdk/PREFIX
 * (or /tmp/dpdk/PREFIX).
 */
void lullctl_socket_path(const char *prefix, char *path, size_t len);

/**
 * Connect and read the greeting; every send and receive on c then gives up
 * after timeout_ms (a stopped or stuck lull: "did not answer within").
 *
 * @return 0, or a negative errno with a message naming the path in err.
 */
int lullctl_connect(struct lullctl_client *c, const char *path, unsigned int timeout_ms, char *err,
	size_t errlen);

/** From now on every send and receive on c gives up after timeout_ms. @return 0 or -errno. */
int lullctl_set_timeout(struct lullctl_client *c, unsigned int timeout_ms);

/**
 * Send cmd ("/lull/set,KEY VALUE") and return the value of its reply (the
 * object under the command's name), or NULL with a message in err.
 */
json_t *lullctl_request(struct lullctl_client *c, const char *cmd, char *err, size_t errlen);

/**
 * A per-PMD command (/lull/pmd_perf, /lull/pmd_sleep, /lull/pmd_rxq) for every
 * PMD, asked PMD by PMD ("cmd,LCORE" for each of /lull/pmds), so that no
 * reply passes DPDK's telemetry limit (16 KB: past it entries are dropped,
 * silently). The same object as cmd's whole reply. Against a lull without
 * /lull/pmds, cmd's whole reply.
 *
 * @return the object, a refusal (a JSON string), or NULL with a message in
 *   err (one PMD's reply too long is an error, not a gap).
 */
json_t *lullctl_request_pmds(struct lullctl_client *c, const char *cmd, char *err, size_t errlen);

void lullctl_close(struct lullctl_client *c);

#endif /* LULLCTL_CLIENT_H */
