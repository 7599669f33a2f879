/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * `lullctl serve-metrics`: a Prometheus exporter. libmicrohttpd answers
 * GET /metrics with lullctl_metrics_write() of a fresh telemetry connection,
 * so it outlives lull: while no lull answers it reports lull_up 0.
 */
#ifndef LULLCTL_SERVE_H
#define LULLCTL_SERVE_H

#include <stddef.h>
#include <sys/socket.h>

/** Where the exporter listens unless told (grout's port). */
#define LULLCTL_LISTEN_DEFAULT "127.0.0.1:9111"

/**
 * Parse "ADDR:PORT" (IPv4, or [IPv6]:PORT; PORT 1..65535) into sa.
 * @return 0, or -EINVAL with a message naming the value in err.
 */
int lullctl_parse_listen(
	const char *text, struct sockaddr_storage *sa, socklen_t *len, char *err, size_t errlen);

/**
 * Serve the metrics of the lull at the telemetry socket path on listen until
 * SIGINT or SIGTERM. @return 0, or a negative errno with a message in err
 * (the address is bad or cannot be bound).
 */
int lullctl_serve_metrics(const char *path, const char *listen, char *err, size_t errlen);

#endif /* LULLCTL_SERVE_H */
