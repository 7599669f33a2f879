#!/usr/bin/env bash
# af_packet ring drops inside a host: DPDK 22.11's net_af_packet counts no
# imissed, so in Debian's dpdk-testpmd (or OVS) a frame the kernel could not
# put in a full socket ring was lost without a trace. With lull loaded
# (LD_PRELOAD=lullnap-preload.so), testpmd forwards between two af_packet
# ports (veths into two namespaces, rings of 64 frames); testpmd is stopped
# (SIGSTOP) while namespace A sends 2,000 frames into port 0's veth: at most
# 64 fit, the kernel drops the rest. Then:
#  - lull's port-show and its exporter, read from testpmd's telemetry
#    socket, count them as rx_missed, and ethdev's own counters do not;
#  - after `port stop all` (the driver closes its sockets) port-show still
#    says so, while three clients ask /lull/ports all along;
#  - testpmd quits while they ask: exit 0, every reply valid.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
nap_preload
command -v "$TESTPMD" >/dev/null || die "$TESTPMD not found (Debian package dpdk)"
h_two_namespaces
missed() {
	"$LULLCTL" -f "$TP_PREFIX" --json port-show |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["port0"]["rx_missed"])'
}

testpmd_bg afp "$PRELOAD" --vdev "net_af_packet0,iface=$VA1,framecnt=64" \
	--vdev "net_af_packet1,iface=$VB1,framecnt=64"
grep -q "lull: port 0: kernel ring drops read from 1 af_packet socket(s)" "$T_DIR/afp.log" ||
	die "lull did not find port 0's af_packet socket: $(grep 'lull:' "$T_DIR/afp.log")"
before=$(missed)
afp_flood "$TP_PID" "$NS_A" "$VA0" 2000
sleep 1
after=$(missed)
dropped=$((after - before))
[ "$dropped" -ge 1500 ] ||
	die "2,000 frames into a 64-frame ring while testpmd was stopped: rx_missed $before -> $after"
ethdev=$("$LULLCTL" -f "$TP_PREFIX" --json raw /ethdev/stats,0 |
	python3 -c 'import json, sys; d = json.load(sys.stdin); d = d.get("/ethdev/stats", d); print(d["imissed"], d["ipackets"])')
log "rx_missed $before -> $after in lull's port-show; ethdev's imissed, ipackets: $ethdev"
[ "${ethdev%% *}" = 0 ] || log "(this DPDK's af_packet counts imissed itself: ${ethdev%% *})"
"$LULLCTL" -f "$TP_PREFIX" metrics >"$T_DIR/metrics.txt" || die "metrics: $(cat "$T_DIR/metrics.txt")"
m=$(awk '$1 == "lull_port_rx_missed_total{port=\"net_af_packet0\"}" {print $2}' "$T_DIR/metrics.txt")
[ "${m:-0}" -ge "$after" ] || die "the exporter's rx_missed for net_af_packet0: '${m:-}' (port-show: $after)"

sock=/var/run/dpdk/$TP_PREFIX/dpdk_telemetry.v2
for h in 0 1 2; do hammer_bg "$sock" "$h" /lull/ports /ethdev/stats,0; done
hammers_ready
echo "stop" >&9
echo "port stop all" >&9
wait_log afp "Stopping ports" 10
sleep 0.5
stopped=$(missed)
[ "$stopped" -ge "$after" ] || die "after port stop, rx_missed $stopped (was $after)"
log "after port stop all: rx_missed $stopped"
testpmd_quit afp
hammers_wait
log "testpmd quit while monitored: exit 0; $(cat "$T_DIR"/h[0-9].out | tr '\n' ' ')"
log "PASS"
