/* SPDX-License-Identifier: BSD-3-Clause */
#include "afp_stats.h"

#include <dirent.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

/* "iface=NAME" of the port's devargs, into name. */
static int
port_iface(uint16_t id, char *name, size_t len)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	const char *p;

	if (rte_eth_dev_info_get(id, &info) != 0 || info.driver_name == NULL ||
		strcmp(info.driver_name, "net_af_packet") != 0 || info.device == NULL)
		return -1;
	da = rte_dev_devargs(info.device);
	if (da == NULL || da->args == NULL)
		return -1;
	for (p = da->args; p != NULL; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, "iface=", 6) == 0) {
			snprintf(name, len, "%.*s", (int)strcspn(p + 6, ","), p + 6);
			return 0;
		}
	}
	return -1;
}

unsigned int
lull_afp_stats_attach(struct lull_afp_stats *s, uint16_t id)
{
	char iface[IF_NAMESIZE + 1];
	unsigned int ifindex;
	struct dirent *de;
	DIR *dir;

	memset(s, 0, sizeof(*s));
	if (port_iface(id, iface, sizeof(iface)) < 0 || (ifindex = if_nametoindex(iface)) == 0)
		return 0;
	dir = opendir("/proc/self/fd");
	if (dir == NULL)
		return 0;
	while ((de = readdir(dir)) != NULL && s->n_fds < LULL_AFP_MAX_FDS) {
		struct sockaddr_ll sll;
		socklen_t len = sizeof(sll);
		int fd = atoi(de->d_name);

		/* a packet socket bound to the port's interface is the driver's */
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(dir) ||
			getsockname(fd, (struct sockaddr *)&sll, &len) != 0 ||
			sll.sll_family != AF_PACKET || (unsigned int)sll.sll_ifindex != ifindex)
			continue;
		s->fds[s->n_fds++] = fd;
	}
	closedir(dir);
	lull_afp_stats_read(s); /* what came before the start is not ours */
	s->drops = 0;
	return s->n_fds;
}

uint64_t
lull_afp_stats_read(struct lull_afp_stats *s)
{
	for (unsigned int i = 0; i < s->n_fds; i++) {
		struct tpacket_stats st;
		socklen_t len = sizeof(st);

		if (getsockopt(s->fds[i], SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
			s->drops += st.tp_drops;
	}
	return s->drops;
}
