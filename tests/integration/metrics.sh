#!/usr/bin/env bash
# Prometheus export (issue 17):
#  - `lullctl metrics` passes `promtool check metrics` while lull forwards;
#  - a real Prometheus server scrapes `lullctl serve-metrics` every second, and
#    its HTTP API returns lull_pmd_rx_packets_total growing while lull-gen sends;
#  - bad --listen values are refused by name (exit 2), a busy port too (exit 4);
#  - the exporter outlives lull: killed, lull_up is 0; started again, 1; the
#    exporter stops on SIGTERM with exit 0.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
command -v promtool >/dev/null && command -v prometheus >/dev/null ||
	die "promtool or prometheus is missing (make deps)"
P="$T_ID-lull"

# free_port: a TCP port nobody listens on now
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# get URL: the body of an HTTP GET
get() { python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
# up: lull_up as the exporter says
up() { get "http://127.0.0.1:$EP/metrics" | awk '$1 == "lull_up" {print $2}'; }

start_lull() {
	lull_memif_bg lull "$T_DIR/a.sock" "$T_DIR/b.sock" --stats-period 0
	lull_pid=$BG_PID
	lull_ready lull "$lull_pid"
}

# bad --listen values, refused before anything listens
for bad in 127.0.0.1 127.0.0.1:0 127.0.0.1:70000 300.1.1.1:9111 nohost:9111 "[::1:9111" :9111; do
	rc=0
	"$LULLCTL" -f "$P" serve-metrics --listen "$bad" 2>"$T_DIR/listen.err" || rc=$?
	[ "$rc" = 2 ] && grep -qF -- "--listen: bad value '$bad'" "$T_DIR/listen.err" ||
		die "--listen $bad: exit $rc, $(cat "$T_DIR/listen.err")"
done
log "bad --listen values refused by name"

EP=$(free_port)
bg exporter "$LULLCTL" -f "$P" serve-metrics --listen "127.0.0.1:$EP"
exp_pid=$BG_PID
wait_log exporter "serving the metrics" 10
[ "$(up)" = 0 ] || die "no lull yet, but lull_up is $(up)"
rc=0
"$LULLCTL" -f "$P" serve-metrics --listen "127.0.0.1:$EP" 2>"$T_DIR/busy.err" || rc=$?
[ "$rc" = 4 ] && grep -q "cannot listen" "$T_DIR/busy.err" || die "a busy port: exit $rc, $(cat "$T_DIR/busy.err")"

start_lull
gen_bg gen 0 "$T_DIR/a.sock" "$T_DIR/b.sock" --profile rate:10k:25s --progress-ms 0 --drain-ms 200 --json "$T_DIR/gen.json"
gen_pid=$BG_PID
wait_log lull "Link up" 30 2
sleep 1
"$LULLCTL" -f "$P" metrics >"$T_DIR/metrics.txt" || die "lullctl metrics: exit $?"
promtool check metrics <"$T_DIR/metrics.txt" >"$T_DIR/promtool.log" 2>&1 ||
	die "promtool check metrics: $(cat "$T_DIR/promtool.log")"
for m in lull_up lull_pmd_busy_seconds_total lull_pmd_waits_total lull_pmd_budget_misses_total \
	lull_pmd_runq_wait_seconds_total lull_pmd_preemptions_total \
	lull_port_rx_packets_total lull_rxq_rx_packets_total lull_config_info; do
	grep -q "^$m" "$T_DIR/metrics.txt" || die "lullctl metrics: no $m"
done
log "lullctl metrics: $(grep -c '^lull_' "$T_DIR/metrics.txt") samples, promtool: ok"

# a real Prometheus scraping the exporter
PP=$(free_port)
cat >"$T_DIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: lull
    static_configs:
      - targets: ["127.0.0.1:$EP"]
EOF
bg prometheus prometheus --config.file="$T_DIR/prometheus.yml" --storage.tsdb.path="$T_DIR/tsdb" \
	--web.listen-address="127.0.0.1:$PP"
# query EXPR: the first value of an instant query, or nothing
query() {
	get "http://127.0.0.1:$PP/api/v1/query?query=$1" 2>/dev/null |
		python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null || true
}
rx1=""
for _ in $(seq 60); do
	rx1=$(query 'sum(lull_pmd_rx_packets_total)')
	[ -n "$rx1" ] && break
	sleep 0.5
done
[ -n "$rx1" ] || die "Prometheus has no lull_pmd_rx_packets_total after 30 s"
sleep 4
rx2=$(query 'sum(lull_pmd_rx_packets_total)')
fcmp 'b > a + 10000' a="$rx1" b="$rx2" || die "lull_pmd_rx_packets_total did not grow by 4 s of 10 kpps: $rx1 -> $rx2"
rate=$(query 'sum(rate(lull_pmd_rx_packets_total%5B3s%5D))')
log "Prometheus: lull_pmd_rx_packets_total $rx1 -> $rx2, rate ${rate:-?} pkt/s"

wait "$gen_pid" || die "lull-gen failed"
# killed: the exporter stays and says so; started again: up
kill -KILL "$lull_pid"
wait "$lull_pid" 2>/dev/null || true
[ "$(up)" = 0 ] || die "lull killed, but lull_up is $(up)"
kill -0 "$exp_pid" || die "the exporter died with lull"
# a killed memif server leaves its socket files, which DPDK's memif will not
# reuse ("Address already in use"): gone with the process, as systemd would
rm -f "$T_DIR/a.sock" "$T_DIR/b.sock"
start_lull
[ "$(up)" = 1 ] || die "lull started again, but lull_up is $(up)"
log "the exporter outlived lull: lull_up 0 while it was gone, 1 again"

stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
kill -TERM "$exp_pid"
rc=0
wait "$exp_pid" || rc=$?
[ "$rc" = 0 ] || die "the exporter exited with $rc on SIGTERM"
log "PASS"
