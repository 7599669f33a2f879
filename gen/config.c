/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "parse.h"

#define T struct gen_config

static int
parse_ip(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	struct in_addr a;
	uint32_t host;

	(void)err;
	(void)errlen;
	if (inet_pton(AF_INET, arg, &a) != 1)
		return -EINVAL;
	host = ntohl(a.s_addr);
	memcpy((char *)target + row->offset, &host, sizeof(host));
	return 0;
}

static int
parse_path(const struct lull_opt *row, void *target, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memcpy((char *)target + row->offset, &arg, sizeof(arg)); /* argv outlives the run */
	return 0;
}

#define MAC_EXPECT "expected XX:XX:XX:XX:XX:XX"
#define IP_EXPECT  "expected an IPv4 address"

/* lull-gen's options: getopt and --help come from this table (lib/opt). */
static const struct lull_opt gen_opts[] = {
	LULL_OPT_SECTION_ROW("Traffic"),
	LULL_OPT_TEXT_ROW(T, profile, "profile", "LIST", "rate:10k:5s",
		"phases, comma-separated: idle:T rate:R:T poisson:R:T burst:N/P:T onoff:R:ON/OFF:T "
		"max:T; R = packets/s (10k, 1.5M), T/P/ON/OFF = time (5s, 100ms, 250us)",
		NULL, 0, lull_opt_parse_profile, NULL),
	LULL_OPT_UINT_ROW(T, size, "size", "N", GEN_MIN_SIZE, GEN_MAX_SIZE, "64",
		"frame bytes without the 4-byte FCS, as testpmd --txpkts (1514 is a 1518-byte "
		"frame on the wire)",
		0),
	LULL_OPT_UINT_ROW(T, flows, "flows", "N", 1, 65535, "1", "distinct UDP source ports", 0),
	LULL_OPT_TEXT_ROW(T, src_mac, "src-mac", "MAC", "the tx port's MAC", "source MAC",
		MAC_EXPECT, LULL_OPT_DEF_PROSE, lull_opt_parse_mac, NULL),
	LULL_OPT_TEXT_ROW(T, dst_mac, "dst-mac", "MAC", "02:00:00:00:00:01", "destination MAC",
		MAC_EXPECT, 0, lull_opt_parse_mac, NULL),
	LULL_OPT_TEXT_ROW(T, src_ip, "src-ip", "IP", "198.18.0.1", "source IPv4 address", IP_EXPECT,
		0, parse_ip, NULL),
	LULL_OPT_TEXT_ROW(T, dst_ip, "dst-ip", "IP", "198.19.0.1", "destination IPv4 address",
		IP_EXPECT, 0, parse_ip, NULL),
	LULL_OPT_UINT_ROW(T, udp_src_base, "udp-src", "PORT", 1, 65535, "1024",
		"first UDP source port (flow f uses +f)", 0),
	LULL_OPT_UINT_ROW(
		T, udp_dst, "udp-dst", "PORT", 1, 65535, "1234", "UDP destination port", 0),
	LULL_OPT_SECTION_ROW("Ports"),
	LULL_OPT_UINT_ROW(T, tx_port, "tx-port", "P", 0, 31, "0", "port to send on", 0),
	LULL_OPT_UINT_ROW(T, rx_port, "rx-port", "P", 0, 31, "1 with two or more ports, else 0",
		"port to receive on", LULL_OPT_DEF_PROSE),
	LULL_OPT_UINT_ROW(T, rxq, "rxq", "N", 1, GEN_MAX_RXQ, "1",
		"rx queues per port, every one polled (lull sends what its rx queue q took on tx "
		"queue q; a forwarder with a tx queue per PMD sends on as many: memif connects "
		"as many rings as its client has queues)",
		0),
	LULL_OPT_UINT_ROW(T, txq, "txq", "N", 1, GEN_MAX_RXQ, "1",
		"tx queues on the tx port, bursts sent on each in turn (over memif, on as many "
		"rx queues of the peer)",
		0),
	LULL_OPT_UINT_ROW(T, burst, "burst", "N", 1, GEN_MAX_BURST, "32",
		"most packets per tx or rx burst", 0),
	LULL_OPT_UINT_ROW(T, mbufs, "mbufs", "N", 1024, 16u << 20, "16384", "mbuf pool size", 0),
	LULL_OPT_SECTION_ROW("Pacing and measurement"),
	LULL_OPT_UINT_ROW(T, max_lag_us, "max-lag-us", "US", 1, 10000000, "1000",
		"catch-up bound: a backlog older than this is skipped (and counted), not sent as a "
		"burst",
		0),
	LULL_OPT_UINT_ROW(T, drain_ms, "drain-ms", "MS", 0, 60000, "200",
		"wait for late packets after the last phase", 0),
	LULL_OPT_UINT_ROW(T, linger_ms, "linger-ms", "MS", 0, 3600000, "0",
		"after the report, keep the ports open, polling nothing, until every link is "
		"down (the peer stopped) or MS passed: the peer can stop first (a memif peer "
		"still polling when this side closes can crash in DPDK 22.11)",
		0),
	LULL_OPT_UINT_ROW(
		T, run_id, "run-id", "N", 1, 65535, "random", "stamp id", LULL_OPT_DEF_PROSE),
	LULL_OPT_SECTION_ROW("Output"),
	LULL_OPT_UINT_ROW(T, progress_ms, "progress-ms", "MS", 0, 3600000, "1000",
		"live progress on stderr, 0 = off", 0),
	LULL_OPT_TEXT_ROW(T, json_path, "json", "FILE", NULL, "results as JSON (- = stdout)", NULL,
		0, parse_path, NULL),
	LULL_OPT_TEXT_ROW(T, csv_path, "csv", "FILE", NULL,
		"results as CSV, one row per phase (- = stdout)", NULL, 0, parse_path, NULL),
	LULL_OPT_FLAG_ROW(T, help, "help", 'h', "this text", 0),
	LULL_OPT_FLAG_ROW(T, version, "version", 'V', "the version, and DPDK's", 0),
	LULL_OPT_END_ROW,
};

#undef T

void
gen_config_defaults(struct gen_config *cfg)
{
	/* every default is its row's, as --help prints it */
	lull_opt_fill_defaults(gen_opts, cfg, sizeof(*cfg), "lull-gen");
	cfg->rx_port = GEN_NO_PORT; /* prose: 1 with two or more ports, else 0 */
}

const struct lull_opt *
gen_config_opts(void)
{
	return gen_opts;
}

int
gen_config_parse(struct gen_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	return lull_opt_parse(gen_opts, cfg, argc, argv, err, errlen);
}

void
gen_config_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [lull-gen options]\n"
	       "\n"
	       "Rate-exact traffic generator and round-trip latency meter. Sends stamped\n"
	       "Ethernet/IPv4/UDP frames on the tx port, matches them on the rx port.\n"
	       "\n",
		prog);
	lull_opt_usage(gen_opts, stdout);
}
