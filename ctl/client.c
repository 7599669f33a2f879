/* SPDX-License-Identifier: BSD-3-Clause */
#include "client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define TELEMETRY_SOCKET  "dpdk_telemetry.v2"
#define DEFAULT_MAX_REPLY (16 * 1024)

void
lullctl_socket_path(const char *prefix, char *path, size_t len)
{
	const char *runtime = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0)
		snprintf(path, len, "/var/run/dpdk/%s/" TELEMETRY_SOCKET, prefix);
	else
		snprintf(path, len, "%s/dpdk/%s/" TELEMETRY_SOCKET, runtime ? runtime : "/tmp",
			prefix);
}

static json_t *
recv_json(struct lullctl_client *c, char *err, size_t errlen)
{
	char *buf = malloc(c->max_reply + 1);
	json_error_t jerr;
	json_t *j;
	ssize_t n;

	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	n = recv(c->fd, buf, c->max_reply, 0);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		snprintf(err, errlen, "%s: lull did not answer within %u ms (stopped, or stuck?)",
			c->path, c->timeout_ms);
		free(buf);
		return NULL;
	}
	if (n <= 0) {
		snprintf(err, errlen, "%s: %s", c->path,
			n == 0 ? "connection closed (too many clients?)" : strerror(errno));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	j = json_loads(buf, 0, &jerr);
	if (j == NULL)
		snprintf(err, errlen, "%s: bad reply (%s): %.60s", c->path, jerr.text, buf);
	free(buf);
	return j;
}

int
lullctl_set_timeout(struct lullctl_client *c, unsigned int timeout_ms)
{
	struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};

	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	c->timeout_ms = timeout_ms;
	return 0;
}

int
lullctl_connect(struct lullctl_client *c, const char *path, unsigned int timeout_ms, char *err,
	size_t errlen)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	json_t *hello, *max;

	c->max_reply = DEFAULT_MAX_REPLY;
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	strcpy(sun.sun_path, path);
	c->fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (c->fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -errno;
	}
	if (lullctl_set_timeout(c, timeout_ms) < 0) {
		snprintf(err, errlen, "socket timeout: %s", strerror(errno));
		lullctl_close(c);
		return -EINVAL;
	}
	if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		int e = errno;

		if (e == EAGAIN) /* its backlog full, nobody accepting */
			snprintf(err, errlen,
				"%s: lull did not answer within %u ms (stopped, or stuck?)", path,
				timeout_ms);
		else
			snprintf(err, errlen,
				"no lull at %s (%s): is it running with this --file-prefix?", path,
				strerror(e));
		close(c->fd);
		c->fd = -1;
		return -e;
	}
	hello = recv_json(c, err, errlen);
	if (hello == NULL) {
		lullctl_close(c);
		return -EPROTO;
	}
	max = json_object_get(hello, "max_output_len");
	if (json_is_integer(max) && json_integer_value(max) > 0)
		c->max_reply = (size_t)json_integer_value(max);
	json_decref(hello);
	return 0;
}

json_t *
lullctl_request(struct lullctl_client *c, const char *cmd, char *err, size_t errlen)
{
	char name[128];
	const char *comma = strchr(cmd, ',');
	size_t name_len = comma ? (size_t)(comma - cmd) : strlen(cmd);
	json_t *reply, *val;

	if (send(c->fd, cmd, strlen(cmd), 0) < 0) {
		snprintf(err, errlen, "%s: send: %s", c->path,
			errno == EAGAIN ? "lull takes no more (stopped, or stuck?)"
					: strerror(errno));
		return NULL;
	}
	reply = recv_json(c, err, errlen);
	if (reply == NULL)
		return NULL;
	snprintf(name, sizeof(name), "%.*s", (int)name_len, cmd);
	val = json_object_get(reply, name);
	if (val == NULL || json_is_null(val)) {
		snprintf(err, errlen,
			"%s: lull does not offer it (started with --ctl read-only, or an older "
			"lull)",
			name);
		json_decref(reply);
		return NULL;
	}
	json_incref(val);
	json_decref(reply);
	return val;
}

json_t *
lullctl_request_pmds(struct lullctl_client *c, const char *cmd, char *err, size_t errlen)
{
	json_t *lcores = lullctl_request(c, "/lull/pmds", err, errlen), *all, *v;
	size_t i;

	if (lcores == NULL) /* an older lull: all at once */
		return lullctl_request(c, cmd, err, errlen);
	if (!json_is_array(lcores))
		return lcores; /* a refusal: "lull is stopping" */
	all = json_object();
	if (all == NULL) {
		json_decref(lcores);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	json_array_foreach(lcores, i, v)
	{
		char one[160], key[32];
		json_t *r;

		snprintf(one, sizeof(one), "%s,%" JSON_INTEGER_FORMAT, cmd, json_integer_value(v));
		snprintf(key, sizeof(key), "pmd%" JSON_INTEGER_FORMAT, json_integer_value(v));
		r = lullctl_request(c, one, err, errlen);
		if (r == NULL || !json_is_object(r)) {
			json_decref(all);
			json_decref(lcores);
			return r; /* NULL with err, or a refusal */
		}
		if (json_object_get(r, key) == NULL) {
			snprintf(err, errlen,
				"%s: the reply of the PMD on lcore %" JSON_INTEGER_FORMAT
				" passed DPDK's telemetry limit (%zu bytes)",
				cmd, json_integer_value(v), c->max_reply);
			json_decref(r);
			json_decref(all);
			json_decref(lcores);
			return NULL;
		}
		json_object_update(all, r);
		json_decref(r);
	}
	json_decref(lcores);
	return all;
}

void
lullctl_close(struct lullctl_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
