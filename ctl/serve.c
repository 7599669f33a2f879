/* SPDX-License-Identifier: BSD-3-Clause */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "metrics.h"

/* requests served at once; more wait for the kernel's backlog */
#define LULLCTL_SERVE_MAX_CONNECTIONS 16

static atomic_uint scrapes; /* scrapes talking to lull now */

int
lullctl_parse_listen(
	const char *text, struct sockaddr_storage *sa, socklen_t *len, char *err, size_t errlen)
{
	char addr[64];
	const char *colon = strrchr(text, ':');
	char *end;
	unsigned long port;
	size_t alen;

	memset(sa, 0, sizeof(*sa));
	if (colon == NULL || colon == text)
		goto bad;
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || port < 1 || port > 65535)
		goto bad;
	alen = (size_t)(colon - text);
	if (text[0] == '[') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)sa;

		if (alen < 3 || text[alen - 1] != ']' || alen - 2 >= sizeof(addr))
			goto bad;
		memcpy(addr, text + 1, alen - 2);
		addr[alen - 2] = '\0';
		if (inet_pton(AF_INET6, addr, &s6->sin6_addr) != 1)
			goto bad;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
		return 0;
	}
	if (alen >= sizeof(addr))
		goto bad;
	memcpy(addr, text, alen);
	addr[alen] = '\0';
	struct sockaddr_in *s4 = (struct sockaddr_in *)sa;

	if (inet_pton(AF_INET, addr, &s4->sin_addr) != 1)
		goto bad;
	s4->sin_family = AF_INET;
	s4->sin_port = htons((uint16_t)port);
	*len = sizeof(*s4);
	return 0;
bad:
	snprintf(err, errlen,
		"--listen: bad value '%s' (expected ADDR:PORT, an IPv4 address or [IPv6], port "
		"1..65535, e.g. %s)",
		text, LULLCTL_LISTEN_DEFAULT);
	return -EINVAL;
}

static enum MHD_Result
reply(struct MHD_Connection *conn, unsigned int status, const char *type, char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (r == NULL) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result
answer(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	const char *version, const char *upload, size_t *upload_len, void **state)
{
	const char *path = cls;
	char *body = NULL, err[512] = "";
	size_t len = 0;
	FILE *out;

	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", strdup("only GET\n"),
			strlen("only GET\n"));
	if (strcmp(url, "/") == 0)
		return reply(conn, MHD_HTTP_OK, "text/plain",
			strdup("lull exporter: GET /metrics\n"),
			strlen("lull exporter: GET /metrics\n"));
	if (strcmp(url, "/metrics") != 0)
		return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", strdup("not found\n"),
			strlen("not found\n"));
	out = open_memstream(&body, &len);
	if (out == NULL)
		return MHD_NO;
	atomic_fetch_add(&scrapes, 1);
	lullctl_metrics_write(out, path, err, sizeof(err));
	atomic_fetch_sub(&scrapes, 1);
	if (fclose(out) != 0) {
		free(body);
		return MHD_NO;
	}
	return reply(conn, MHD_HTTP_OK, LULLCTL_METRICS_TYPE, body, len);
}

int
lullctl_serve_metrics(const char *path, const char *listen, char *err, size_t errlen)
{
	struct sockaddr_storage sa;
	socklen_t sa_len;
	struct MHD_Daemon *d;
	const struct timespec tick = {.tv_sec = 0, .tv_nsec = 10000000};
	sigset_t stop;
	int sig, ret = lullctl_parse_listen(listen, &sa, &sa_len, err, errlen);

	if (ret < 0)
		return ret;
	/* the daemon's thread inherits the mask: only this thread takes the signals */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* a thread per connection: a scrape that waits on lull (at most
	 * LULLCTL_SCRAPE_TIMEOUT_MS) holds up no other request, / least of all */
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
				     MHD_USE_ITC | (sa.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, answer, (void *)(uintptr_t)path, MHD_OPTION_SOCK_ADDR, &sa,
		MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)LULLCTL_SERVE_MAX_CONNECTIONS, MHD_OPTION_END);
	if (d == NULL) {
		snprintf(err, errlen, "--listen %s: cannot listen (%s)", listen,
			errno ? strerror(errno) : "libmicrohttpd refused");
		return errno ? -errno : -EIO;
	}
	printf("lullctl: serving the metrics of %s on http://%s/metrics\n", path, listen);
	fflush(stdout);
	sigwait(&stop, &sig);
	/* no new connection; a scrape waiting on a stuck lull gets a second to
	 * end, then the process leaves without joining it */
	MHD_quiesce_daemon(d);
	for (int i = 0; i < 100 && atomic_load(&scrapes) > 0; i++)
		nanosleep(&tick, NULL);
	if (atomic_load(&scrapes) == 0)
		MHD_stop_daemon(d);
	return 0;
}
