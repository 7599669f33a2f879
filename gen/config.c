/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

void
gen_config_defaults(struct gen_config *cfg)
{
	char err[8];

	memset(cfg, 0, sizeof(*cfg));
	lull_profile_parse("rate:10k:5s", &cfg->profile, err, sizeof(err));
	cfg->size = GEN_MIN_SIZE;
	cfg->flows = 1;
	memcpy(cfg->dst_mac, (uint8_t[6]){0x02, 0, 0, 0, 0, 0x01}, 6);
	cfg->src_ip = 0xc6120001; /* 198.18.0.1: RFC 2544 benchmarking range */
	cfg->dst_ip = 0xc6130001; /* 198.19.0.1 */
	cfg->udp_src_base = 1024;
	cfg->udp_dst = 1234;
	cfg->tx_port = GEN_NO_PORT;
	cfg->rx_port = GEN_NO_PORT;
	cfg->burst = 32;
	cfg->max_lag_us = 1000;
	cfg->drain_ms = 200;
	cfg->progress_ms = 1000;
	cfg->mbufs = 16384;
}

enum {
	OPT_HELP = 'h',
	OPT_PROFILE = 256,
	OPT_SIZE,
	OPT_FLOWS,
	OPT_SRC_MAC,
	OPT_DST_MAC,
	OPT_SRC_IP,
	OPT_DST_IP,
	OPT_UDP_SRC,
	OPT_UDP_DST,
	OPT_TX_PORT,
	OPT_RX_PORT,
	OPT_BURST,
	OPT_MAX_LAG,
	OPT_DRAIN,
	OPT_PROGRESS,
	OPT_MBUFS,
	OPT_RUN_ID,
	OPT_JSON,
	OPT_CSV,
};

static const struct option long_opts[] = {
	{"burst", required_argument, NULL, OPT_BURST},
	{"csv", required_argument, NULL, OPT_CSV},
	{"drain-ms", required_argument, NULL, OPT_DRAIN},
	{"dst-ip", required_argument, NULL, OPT_DST_IP},
	{"dst-mac", required_argument, NULL, OPT_DST_MAC},
	{"flows", required_argument, NULL, OPT_FLOWS},
	{"help", no_argument, NULL, OPT_HELP},
	{"json", required_argument, NULL, OPT_JSON},
	{"max-lag-us", required_argument, NULL, OPT_MAX_LAG},
	{"mbufs", required_argument, NULL, OPT_MBUFS},
	{"profile", required_argument, NULL, OPT_PROFILE},
	{"progress-ms", required_argument, NULL, OPT_PROGRESS},
	{"run-id", required_argument, NULL, OPT_RUN_ID},
	{"rx-port", required_argument, NULL, OPT_RX_PORT},
	{"size", required_argument, NULL, OPT_SIZE},
	{"src-ip", required_argument, NULL, OPT_SRC_IP},
	{"src-mac", required_argument, NULL, OPT_SRC_MAC},
	{"tx-port", required_argument, NULL, OPT_TX_PORT},
	{"udp-dst", required_argument, NULL, OPT_UDP_DST},
	{"udp-src", required_argument, NULL, OPT_UDP_SRC},
	{NULL, 0, NULL, 0},
};

static const char *
opt_name(int id)
{
	for (const struct option *o = long_opts; o->name != NULL; o++)
		if (o->val == id)
			return o->name;
	return "?";
}

static int
num(int opt, const char *arg, uint32_t min, uint32_t max, uint32_t *out, char *err, size_t errlen)
{
	if (lull_parse_u32(arg, min, max, out) == 0)
		return 0;
	snprintf(err, errlen, "--%s: bad value '%s' (expected an integer in %u..%u)", opt_name(opt),
		arg, min, max);
	return -EINVAL;
}

static int
num16(int opt, const char *arg, uint32_t min, uint32_t max, uint16_t *out, char *err, size_t errlen)
{
	uint32_t v;
	int ret = num(opt, arg, min, max, &v, err, errlen);

	if (ret == 0)
		*out = (uint16_t)v;
	return ret;
}

static int
mac(int opt, const char *arg, uint8_t out[6], char *err, size_t errlen)
{
	if (lull_parse_mac(arg, out) == 0)
		return 0;
	snprintf(err, errlen, "--%s: bad value '%s' (expected XX:XX:XX:XX:XX:XX)", opt_name(opt),
		arg);
	return -EINVAL;
}

static int
ip(int opt, const char *arg, uint32_t *out, char *err, size_t errlen)
{
	struct in_addr a;

	if (inet_pton(AF_INET, arg, &a) == 1) {
		*out = ntohl(a.s_addr);
		return 0;
	}
	snprintf(
		err, errlen, "--%s: bad value '%s' (expected an IPv4 address)", opt_name(opt), arg);
	return -EINVAL;
}

static int
one_opt(struct gen_config *cfg, int opt, const char *arg, char *err, size_t errlen)
{
	switch (opt) {
	case OPT_HELP:
		cfg->help = true;
		return 0;
	case OPT_PROFILE:
		return lull_profile_parse(arg, &cfg->profile, err, errlen);
	case OPT_SIZE:
		return num16(opt, arg, GEN_MIN_SIZE, GEN_MAX_SIZE, &cfg->size, err, errlen);
	case OPT_FLOWS:
		return num(opt, arg, 1, 65535, &cfg->flows, err, errlen);
	case OPT_SRC_MAC:
		return mac(opt, arg, cfg->src_mac, err, errlen);
	case OPT_DST_MAC:
		return mac(opt, arg, cfg->dst_mac, err, errlen);
	case OPT_SRC_IP:
		return ip(opt, arg, &cfg->src_ip, err, errlen);
	case OPT_DST_IP:
		return ip(opt, arg, &cfg->dst_ip, err, errlen);
	case OPT_UDP_SRC:
		return num16(opt, arg, 1, 65535, &cfg->udp_src_base, err, errlen);
	case OPT_UDP_DST:
		return num16(opt, arg, 1, 65535, &cfg->udp_dst, err, errlen);
	case OPT_TX_PORT:
		return num16(opt, arg, 0, 31, &cfg->tx_port, err, errlen);
	case OPT_RX_PORT:
		return num16(opt, arg, 0, 31, &cfg->rx_port, err, errlen);
	case OPT_BURST:
		return num16(opt, arg, 1, GEN_MAX_BURST, &cfg->burst, err, errlen);
	case OPT_MAX_LAG:
		return num(opt, arg, 1, 10000000, &cfg->max_lag_us, err, errlen);
	case OPT_DRAIN:
		return num(opt, arg, 0, 60000, &cfg->drain_ms, err, errlen);
	case OPT_PROGRESS:
		return num(opt, arg, 0, 3600000, &cfg->progress_ms, err, errlen);
	case OPT_MBUFS:
		return num(opt, arg, 1024, 16u << 20, &cfg->mbufs, err, errlen);
	case OPT_RUN_ID:
		return num16(opt, arg, 1, 65535, &cfg->run_id, err, errlen);
	case OPT_JSON:
		cfg->json_path = arg;
		return 0;
	case OPT_CSV:
		cfg->csv_path = arg;
		return 0;
	default:
		return -EINVAL;
	}
}

int
gen_config_parse(struct gen_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	int opt, ret = 0;

	optind = 0; /* full glibc getopt reset */
	opterr = 0;
	while (ret == 0 && (opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		if (opt == ':' || opt == '?')
			ret = lull_getopt_error(opt, argv, err, errlen);
		else
			ret = one_opt(cfg, opt, optarg, err, errlen);
	}
	if (ret == 0 && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		ret = -EINVAL;
	}
	return ret;
}

void
gen_config_usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- [lull-gen options]\n"
	       "\n"
	       "Rate-exact traffic generator and round-trip latency meter. Sends stamped\n"
	       "Ethernet/IPv4/UDP frames on the tx port, matches them on the rx port.\n"
	       "\n"
	       "Traffic:\n"
	       "  --profile LIST      phases, comma-separated (default rate:10k:5s):\n"
	       "                        idle:T  rate:R:T  poisson:R:T  burst:N/P:T\n"
	       "                        onoff:R:ON/OFF:T  max:T\n"
	       "                      R = packets/s (10k, 1.5M), T/P/ON/OFF = time (5s, 100ms, "
	       "250us)\n"
	       "  --size N            frame bytes without the 4-byte FCS, %d..%d (default %d;\n"
	       "                      as testpmd --txpkts; 1514 is a 1518-byte frame on the wire)\n"
	       "  --flows N           distinct UDP source ports (default 1)\n"
	       "  --src-mac MAC       (default: the tx port's MAC)   --dst-mac MAC "
	       "(02:00:00:00:00:01)\n"
	       "  --src-ip IP         (default 198.18.0.1)           --dst-ip IP   (198.19.0.1)\n"
	       "  --udp-src PORT      first UDP source port (1024)   --udp-dst PORT (1234)\n"
	       "Ports:\n"
	       "  --tx-port P         (default 0)\n"
	       "  --rx-port P         (default 1 with two or more ports, else 0)\n"
	       "  --burst N           most packets per tx or rx burst, 1..%d (default 32)\n"
	       "  --mbufs N           mbuf pool size (default 16384)\n"
	       "Pacing and measurement:\n"
	       "  --max-lag-us US     catch-up bound: a backlog older than this is skipped, not\n"
	       "                      sent as a burst (default 1000)\n"
	       "  --drain-ms MS       wait for late packets after the last phase (default 200)\n"
	       "  --run-id N          stamp id, 1..65535 (default random)\n"
	       "Output:\n"
	       "  --progress-ms MS    live progress on stderr, 0 = off (default 1000)\n"
	       "  --json FILE         results as JSON (- = stdout)\n"
	       "  --csv FILE          results as CSV, one row per phase (- = stdout)\n"
	       "  -h, --help          this text\n",
		prog, GEN_MIN_SIZE, GEN_MAX_SIZE, GEN_MIN_SIZE, GEN_MAX_BURST);
}
