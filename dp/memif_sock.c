/* SPDX-License-Identifier: BSD-3-Clause */
#include "memif_sock.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"

/* DPDK 22.11's memif defaults (drivers/net/memif/rte_eth_memif.h) */
#define MEMIF_DEFAULT_SOCKET "/run/memif.sock"

/* The value of key in devargs' "k=v" list, into val; false when absent. */
static bool
devarg(const char *devargs, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = strchr(devargs, ','); p != NULL; p = strchr(p + 1, ',')) {
		if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '=') {
			const char *v = p + 2 + klen;

			snprintf(val, len, "%.*s", (int)strcspn(v, ","), v);
			return true;
		}
	}
	return false;
}

/* Whether a socket of this network namespace listens on path: its line in
 * /proc/net/unix with __SO_ACCEPTCON among its flags. Not by connecting: a
 * memif server that sees a peer come and go at once can take EAL's interrupt
 * thread down (DPDK 22.11: "Error adding fd ... epoll_ctl"). */
static bool
listened(const char *path)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/net/unix", "r");

	if (f == NULL)
		return true; /* cannot tell: leave it */
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned long flags;
		char sock_path[sizeof(line)];

		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %lx %*s %*s %*s %511s", &flags, sock_path) == 2 &&
			(flags & 0x10000UL) && strcmp(sock_path, path) == 0)
			found = true;
	}
	fclose(f);
	return found;
}

int
lull_memif_clear_stale(const char *devargs)
{
	char role[16] = "server", path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char abstract[8] = "yes";
	struct stat st;

	if (strncmp(devargs, "net_memif", 9) != 0)
		return 0;
	devarg(devargs, "role", role, sizeof(role));
	devarg(devargs, "socket-abstract", abstract, sizeof(abstract));
	if (!devarg(devargs, "socket", path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", MEMIF_DEFAULT_SOCKET);
	/* a client does not bind; an abstract socket leaves no file */
	if (strcmp(role, "server") != 0 || strcmp(abstract, "no") != 0)
		return 0;
	if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode) || listened(path))
		return 0;
	if (unlink(path) != 0) {
		LULL_LOG(WARNING, "stale memif socket %s (nobody listens on it): cannot remove: %s",
			path, strerror(errno));
		return 0;
	}
	LULL_LOG(WARNING,
		"removed the stale memif socket %s: nobody listens on it (a server that was killed "
		"left it)",
		path);
	return 1;
}

void
lull_memif_clear_stale_argv(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--vdev") == 0 && i + 1 < argc)
			lull_memif_clear_stale(argv[++i]);
		else if (strncmp(argv[i], "--vdev=", 7) == 0)
			lull_memif_clear_stale(argv[i] + 7);
	}
}
