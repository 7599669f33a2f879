/* SPDX-License-Identifier: BSD-3-Clause */
#include "afp_stats.h"
#include "portline.h"

#include <dirent.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_ethdev.h>

unsigned int
lull_afp_stats_attach(struct lull_afp_stats *s, uint16_t id)
{
	uint64_t kept = s->drops; /* a restarted port's count goes on, as imissed does */
	char iface[IF_NAMESIZE + 1];
	unsigned int ifindex;
	struct dirent *de;
	DIR *dir;

	s->n_fds = 0;
	if (lull_port_devarg(id, "net_af_packet", "iface", iface, sizeof(iface)) != 0 ||
		(ifindex = if_nametoindex(iface)) == 0)
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
	s->drops = kept;
	return s->n_fds;
}

void
lull_afp_stats_forget(struct lull_afp_stats *s)
{
	lull_afp_stats_read(s);
	s->n_fds = 0;
}

uint64_t
lull_rx_missed(const struct rte_eth_stats *st, const struct lull_afp_stats *s)
{
	return st->imissed + st->rx_nombuf + (s != NULL ? s->drops : 0);
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
