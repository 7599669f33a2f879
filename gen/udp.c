/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lull-udp: paced UDP frames through the kernel, for a forwarder whose ports
 * are kernel interfaces (net_tap, net_af_packet): one end sends on an interface
 * in one network namespace, the other receives on one in another, and the
 * forwarder (and whatever bridges) sits between.
 *
 *   lull-udp send --dev IF [--dst-mac MAC] [--src IP] [--dst IP] [--port N]
 *                 [--profile LIST] [--size N]
 *   lull-udp recv --dev IF [--port N] [--count N] [--idle-ms MS] [--timeout-s S]
 *
 * Both ends use packet sockets, so that neither end's own stack is what a
 * measurement measures: the sender writes whole Ethernet/IPv4/UDP frames with
 * sendmmsg past the qdisc (PACKET_QDISC_BYPASS); the default destination MAC
 * is one nobody owns, so bridges flood it toward the forwarder and the
 * receiving namespace's IP stack drops it at once (another host's frame),
 * after the receiver's packet socket took its copy. The sender paces on
 * CLOCK_MONOTONIC with lib/pace (lull-gen's profiles); each frame carries its
 * sequence number and CLOCK_REALTIME at send. The receiver takes the kernel's
 * receive time (SO_TIMESTAMPNS, the same clock: one machine) and reads in
 * batches (recvmmsg), so the latency is the path between the two interfaces,
 * and counts its own socket's drops (PACKET_STATISTICS) apart from the path's.
 * Both print one line of key=value results; the receiver prints "ready" once
 * bound. Batched at both ends, the pair offers and takes several times what a
 * forwarder on two taps carries on one core here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "opt.h"
#include "pace.h"
#include "parse.h"
#include "profile.h"

#define UDP_BATCH    64
#define UDP_MIN_SIZE 16 /* sequence number and send time */
#define UDP_MAX_SIZE 1472
#define UDP_HDRS     (sizeof(struct ether_header) + sizeof(struct iphdr) + sizeof(struct udphdr))
#define UDP_FRAME    (UDP_HDRS + UDP_MAX_SIZE)
#define UDP_SOCKBUF  (16 << 20)
/* The receiver reads when a batch is full or this long passed: fewer wakes,
 * and the kernel's timestamps do not move. */
#define UDP_RX_NAP_US 200

struct udp_config {
	struct lull_profile profile;
	char dev[IF_NAMESIZE];
	uint8_t dst_mac[6];
	struct in_addr src, dst;
	uint16_t port;
	uint16_t size;       /**< UDP payload bytes */
	uint32_t max_lag_us; /**< sender: catch-up bound */
	uint64_t count;      /**< receiver: frames expected, 0 = unknown */
	uint32_t idle_ms;    /**< receiver: stop this long after the last frame */
	uint32_t timeout_s;  /**< receiver: stop if nothing came by then */
	bool help;
};

#define T struct udp_config

static int
parse_ip(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return inet_pton(AF_INET, arg, (char *)target + row->offset) == 1 ? 0 : -EINVAL;
}

static int
parse_dev(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (strlen(arg) == 0 || strlen(arg) >= IF_NAMESIZE)
		return -EINVAL;
	strcpy((char *)target + row->offset, arg);
	return 0;
}

static const struct lull_opt udp_opts[] = {
	LULL_OPT_SECTION_ROW("Both ends"),
	LULL_OPT_TEXT_ROW(T, dev, "dev", "IF", NULL,
		"interface to send on or receive from (required)", "expected an interface name", 0,
		parse_dev, NULL),
	LULL_OPT_UINT_ROW(T, port, "port", "N", 1, 65535, "9000", "UDP destination port", 0),
	LULL_OPT_SECTION_ROW("send"),
	LULL_OPT_TEXT_ROW(T, dst_mac, "dst-mac", "MAC", "02:00:00:00:00:02",
		"destination MAC (the default is nobody's: bridges flood it, the receiving "
		"stack drops it)",
		"expected XX:XX:XX:XX:XX:XX", 0, lull_opt_parse_mac, NULL),
	LULL_OPT_TEXT_ROW(T, src, "src", "IP", "198.18.0.1", "source IPv4 address",
		"expected an IPv4 address", 0, parse_ip, NULL),
	LULL_OPT_TEXT_ROW(T, dst, "dst", "IP", "198.18.0.2", "destination IPv4 address",
		"expected an IPv4 address", 0, parse_ip, NULL),
	LULL_OPT_TEXT_ROW(T, profile, "profile", "LIST", "rate:10k:5s",
		"phases, as lull-gen's: idle:T rate:R:T poisson:R:T burst:N/P:T onoff:R:ON/OFF:T",
		NULL, 0, lull_opt_parse_profile, NULL),
	LULL_OPT_UINT_ROW(T, size, "size", "N", UDP_MIN_SIZE, UDP_MAX_SIZE, "18",
		"UDP payload bytes (18: a 64-byte frame)", 0),
	LULL_OPT_UINT_ROW(T, max_lag_us, "max-lag-us", "US", 1, 10000000, "100000",
		"a backlog older than this is skipped (and counted), not sent", 0),
	LULL_OPT_SECTION_ROW("recv"),
	LULL_OPT_UINT_ROW(T, count, "count", "N", 0, 1000000000, "0",
		"frames expected (sequence numbers 0..N-1); 0 = unknown", 0),
	LULL_OPT_UINT_ROW(T, idle_ms, "idle-ms", "MS", 1, 600000, "1000",
		"stop this long after the last frame", 0),
	LULL_OPT_UINT_ROW(T, timeout_s, "timeout-s", "S", 1, 3600, "30",
		"stop when nothing came for this long at the start", 0),
	LULL_OPT_FLAG_ROW(T, help, "help", 'h', "this text", 0),
	LULL_OPT_END_ROW,
};

#undef T

static uint64_t
now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
sleep_until_ns(uint64_t t_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t_ns / 1000000000u), .tv_nsec = (long)(t_ns % 1000000000u)};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* A packet socket on cfg->dev for protocol proto (0: send only); its MAC into mac. */
static int
packet_socket(const struct udp_config *cfg, uint16_t proto, int buf_opt, uint8_t mac[6])
{
	struct ifreq ifr;
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(proto)};
	int b = UDP_SOCKBUF, fd = socket(AF_PACKET, SOCK_RAW, htons(proto));

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, cfg->dev);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0 ||
		(sll.sll_ifindex = ifr.ifr_ifindex,
			bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) ||
		ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	setsockopt(fd, SOL_SOCKET, buf_opt, &b, sizeof(b)); /* the *BUFFORCE ones: root */
	return fd;
}

/* The IPv4 header checksum, in network order. */
static uint16_t
ip_csum(const uint8_t *hdr, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)hdr[i] << 8 | hdr[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

/* The headers every frame shares (UDP checksum 0: none, as IPv4 allows). */
static void
frame_template(uint8_t *f, const struct udp_config *cfg, const uint8_t src_mac[6])
{
	/* built aside and copied in: the IP header sits at offset 14, unaligned */
	struct ether_header eth = {.ether_type = htons(ETHERTYPE_IP)};
	struct iphdr ip = {.version = 4,
		.ihl = 5,
		.ttl = 64,
		.protocol = IPPROTO_UDP,
		.tot_len = htons((uint16_t)(sizeof(ip) + sizeof(struct udphdr) + cfg->size)),
		.saddr = cfg->src.s_addr,
		.daddr = cfg->dst.s_addr};
	struct udphdr udp = {.source = htons(cfg->port),
		.dest = htons(cfg->port),
		.len = htons((uint16_t)(sizeof(udp) + cfg->size))};

	memcpy(eth.ether_dhost, cfg->dst_mac, 6);
	memcpy(eth.ether_shost, src_mac, 6);
	ip.check = ip_csum((const uint8_t *)&ip, sizeof(ip));
	memcpy(f, &eth, sizeof(eth));
	memcpy(f + sizeof(eth), &ip, sizeof(ip));
	memcpy(f + sizeof(eth) + sizeof(ip), &udp, sizeof(udp));
}

/* One phase: send what is due, sleep to the next deadline. */
static void
send_phase(int fd, const struct udp_config *cfg, const struct lull_phase *ph,
	uint8_t (*frame)[UDP_FRAME], uint64_t *seq, uint64_t *sent, uint64_t *skipped)
{
	struct mmsghdr msg[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	uint64_t start_ns = now_ns(CLOCK_MONOTONIC), end_ns = start_ns + ph->duration_ns;
	struct lull_pace pace;

	lull_pace_start(&pace, ph, start_ns, 1 + *seq, (uint64_t)cfg->max_lag_us * 1000);
	memset(msg, 0, sizeof(msg));
	for (uint64_t t_ns = start_ns; t_ns < end_ns; t_ns = now_ns(CLOCK_MONOTONIC)) {
		uint32_t due = lull_pace_due(&pace, t_ns, UDP_BATCH);
		uint64_t stamp_ns = now_ns(CLOCK_REALTIME);
		int k;

		if (due == 0) {
			uint64_t next_ns = lull_pace_next_ns(&pace);

			sleep_until_ns(next_ns < end_ns ? next_ns : end_ns);
			continue;
		}
		for (uint32_t i = 0; i < due; i++) {
			uint64_t v[2] = {*seq + i, stamp_ns};

			memcpy(frame[i] + UDP_HDRS, v, sizeof(v));
			iov[i] = (struct iovec){
				.iov_base = frame[i], .iov_len = UDP_HDRS + cfg->size};
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		k = sendmmsg(fd, msg, due, 0);
		*sent += k < 0 ? 0 : (uint64_t)k; /* ENOBUFS and the like: not sent */
		*seq += due; /* a frame not sent is lost where it was offered */
	}
	*skipped += pace.skipped;
}

static int
run_send(const struct udp_config *cfg)
{
	static uint8_t frame[UDP_BATCH][UDP_FRAME];
	uint64_t seq = 0, sent = 0, skipped = 0, t0_ns;
	uint8_t mac[6];
	int one = 1, fd = packet_socket(cfg, 0, SO_SNDBUFFORCE, mac);

	if (fd < 0) {
		fprintf(stderr, "lull-udp send: --dev %s: %s\n", cfg->dev, strerror(-fd));
		return 1;
	}
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	for (unsigned int i = 0; i < UDP_BATCH; i++)
		frame_template(frame[i], cfg, mac);
	t0_ns = now_ns(CLOCK_MONOTONIC);
	for (unsigned int i = 0; i < cfg->profile.n; i++)
		send_phase(fd, cfg, &cfg->profile.phases[i], frame, &seq, &sent, &skipped);
	printf("offered=%lu sent=%lu skipped=%lu elapsed_ms=%.1f\n", (unsigned long)seq,
		(unsigned long)sent, (unsigned long)skipped,
		(double)(now_ns(CLOCK_MONOTONIC) - t0_ns) / 1e6);
	close(fd);
	return 0;
}

struct udp_rx {
	struct lull_hist lat_ns;
	uint8_t *seen; /**< one bit per expected sequence number */
	uint64_t received, dups, foreign, max_seq;
};

/* One frame: ours or not, its latency, whether it was seen before. */
static void
rx_one(struct udp_rx *rx, const struct udp_config *cfg, struct msghdr *h, size_t len,
	const uint8_t *f)
{
	struct iphdr ip = {0};
	struct udphdr udp = {0};
	uint64_t v[2], rx_ns = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c != NULL; c = CMSG_NXTHDR(h, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			rx_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		}
	}
	if (len >= UDP_HDRS) { /* unaligned in the frame: copied out */
		memcpy(&ip, f + sizeof(struct ether_header), sizeof(ip));
		memcpy(&udp, f + sizeof(struct ether_header) + sizeof(ip), sizeof(udp));
	}
	if (len < UDP_HDRS + sizeof(v) || ip.protocol != IPPROTO_UDP || ip.ihl != 5 ||
		udp.dest != htons(cfg->port)) {
		rx->foreign++;
		return;
	}
	memcpy(v, f + UDP_HDRS, sizeof(v));
	if (cfg->count != 0) {
		if (v[0] >= cfg->count) {
			rx->foreign++;
			return;
		}
		if (rx->seen[v[0] / 8] & (1u << (v[0] % 8))) {
			rx->dups++;
			return;
		}
		rx->seen[v[0] / 8] |= (uint8_t)(1u << (v[0] % 8));
	}
	rx->received++;
	if (rx_ns > v[1] && rx_ns - v[1] >= rx->lat_ns.max)
		rx->max_seq = v[0];
	lull_hist_add(&rx->lat_ns, rx_ns > v[1] ? rx_ns - v[1] : 0);
}

static void
rx_report(const struct udp_rx *rx, const struct udp_config *cfg, unsigned int sock_drops)
{
	const struct lull_hist *h = &rx->lat_ns;

	printf("received=%lu expected=%lu lost=%ld dups=%lu foreign=%lu sock_drops=%u "
	       "min_us=%.1f avg_us=%.1f p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f "
	       "max_us=%.1f max_seq=%lu\n",
		(unsigned long)rx->received, (unsigned long)cfg->count,
		cfg->count ? (long)(cfg->count - rx->received) : 0L, (unsigned long)rx->dups,
		(unsigned long)rx->foreign, sock_drops, h->count ? (double)h->min / 1e3 : 0.0,
		lull_hist_mean(h) / 1e3, (double)lull_hist_quantile(h, 0.5) / 1e3,
		(double)lull_hist_quantile(h, 0.9) / 1e3, (double)lull_hist_quantile(h, 0.99) / 1e3,
		(double)lull_hist_quantile(h, 0.999) / 1e3, (double)h->max / 1e3,
		(unsigned long)rx->max_seq);
}

/* Read what came until count, or idle_ms after the last frame, or timeout_s
 * with none. */
static void
rx_loop(int fd, struct udp_rx *rx, const struct udp_config *cfg)
{
	static uint8_t data[UDP_BATCH][UDP_FRAME];
	static uint8_t ctl[UDP_BATCH][CMSG_SPACE(sizeof(struct timespec))];
	const struct timespec nap = {.tv_sec = 0, .tv_nsec = UDP_RX_NAP_US * 1000};
	struct mmsghdr msg[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	uint64_t start_ns = now_ns(CLOCK_MONOTONIC), last_ns = 0;

	while (cfg->count == 0 || rx->received < cfg->count) {
		uint64_t t_ns;
		int k;

		for (unsigned int i = 0; i < UDP_BATCH; i++) {
			iov[i] = (struct iovec){.iov_base = data[i], .iov_len = sizeof(data[i])};
			msg[i].msg_hdr = (struct msghdr){.msg_iov = &iov[i],
				.msg_iovlen = 1,
				.msg_control = ctl[i],
				.msg_controllen = sizeof(ctl[i])};
		}
		k = recvmmsg(fd, msg, UDP_BATCH, MSG_WAITFORONE, NULL);
		t_ns = now_ns(CLOCK_MONOTONIC);
		for (int i = 0; i < k; i++)
			rx_one(rx, cfg, &msg[i].msg_hdr, msg[i].msg_len, data[i]);
		if (k > 0) {
			last_ns = t_ns;
			if (k < UDP_BATCH)
				nanosleep(&nap, NULL);
		} else if (last_ns != 0 && t_ns - last_ns >= (uint64_t)cfg->idle_ms * 1000000) {
			break;
		} else if (last_ns == 0 &&
			   t_ns - start_ns >= (uint64_t)cfg->timeout_s * 1000000000) {
			break;
		}
	}
}

static int
run_recv(const struct udp_config *cfg)
{
	struct timeval tick = {.tv_sec = 0, .tv_usec = 50000};
	struct tpacket_stats st = {0};
	socklen_t stlen = sizeof(st);
	struct udp_rx *rx = calloc(1, sizeof(*rx));
	uint8_t mac[6];
	int one = 1, fd = packet_socket(cfg, ETH_P_IP, SO_RCVBUFFORCE, mac);

	if (fd < 0 || rx == NULL ||
		setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0 ||
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick)) < 0) {
		fprintf(stderr, "lull-udp recv: --dev %s: %s\n", cfg->dev,
			strerror(fd < 0 ? -fd : errno));
		free(rx);
		return 1;
	}
	rx->seen = cfg->count ? calloc(cfg->count / 8 + 1, 1) : NULL;
	if (cfg->count && rx->seen == NULL) {
		free(rx);
		return 1;
	}
	lull_hist_init(&rx->lat_ns);
	printf("ready\n");
	fflush(stdout);
	rx_loop(fd, rx, cfg);
	getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &stlen);
	rx_report(rx, cfg, st.tp_drops);
	free(rx->seen);
	free(rx);
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	struct udp_config cfg;
	char err[256] = "";
	int ret;

	/* every default is its row's, as --help prints it */
	lull_opt_fill_defaults(udp_opts, &cfg, sizeof(cfg), "lull-udp");
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: lull-udp send --dev IF [options] | lull-udp recv --dev IF "
		       "[options]\n"
		       "Paced UDP frames between two interfaces, one-way latency from kernel "
		       "timestamps.\n\n");
		lull_opt_usage(udp_opts, stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("lull-udp %s\n", LULL_VERSION);
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "send") && strcmp(argv[1], "recv"))) {
		fprintf(stderr, "lull-udp: bad command '%s' (expected send or recv; see --help)\n",
			argc < 2 ? "" : argv[1]);
		return 2;
	}
	ret = lull_opt_parse(udp_opts, &cfg, argc - 1, argv + 1, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "lull-udp: %s\n", err);
		return 2;
	}
	if (cfg.help) {
		lull_opt_usage(udp_opts, stdout);
		return 0;
	}
	if (cfg.dev[0] == '\0') {
		fprintf(stderr, "lull-udp %s: --dev is required\n", argv[1]);
		return 2;
	}
	return !strcmp(argv[1], "send") ? run_send(&cfg) : run_recv(&cfg);
}
