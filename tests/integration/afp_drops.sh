#!/usr/bin/env bash
# Drops in net_af_packet's kernel ring (issue 28 item 15): DPDK 22.11's
# af_packet driver does not report them, so loss there was invisible. lull on
# two af_packet ports (veth into two namespaces, rings of 64 frames) is
# stopped (SIGSTOP) while namespace A sends 2,000 raw frames into port 0's
# veth: at most 64 fit, the kernel drops the rest. Once lull runs again its
# port-show counts them as rx_missed (the socket's PACKET_STATISTICS), and so
# do its final stats. lull bounds its sleeps by that ring of framecnt frames.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-l"
h_two_namespaces
missed() {
	"$LULLCTL" -f "$P" --json port-show |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["port0"]["rx_missed"])'
}

bg l "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$P" \
	--vdev "net_af_packet0,iface=$VA1,framecnt=64" --vdev "net_af_packet1,iface=$VB1,framecnt=64" \
	-- --stats-period 0 --link-wait-ms 10000
lull_pid=$BG_PID
lull_ready l "$lull_pid"
wait_log l "port 1 \(net_af_packet1\).*Link" 30
# the ring lull's sleeps are bounded by is the socket's 64 frames: DPDK
# 22.11's af_packet does not report its ring, and --rxd (1024) is not it
wait_log l "PMD [0-9]+: .*(rx ring 64,|longer than 64 packets)" 10
log "$(grep -E "PMD [0-9]+: .*(rx ring 64,|longer than 64 packets)" "$T_DIR/l.log" | head -n 1)"
before=$(missed)
afp_flood "$lull_pid" "$NS_A" "$VA0" 2000
sleep 1
after=$(missed)
dropped=$((after - before))
[ "$dropped" -ge 1500 ] || die "2,000 frames into a 64-frame ring while lull was stopped: rx_missed $before -> $after"
log "rx_missed $before -> $after while lull was stopped (2,000 frames, a 64-frame ring)"
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
final=$(awk '$2 == "net_af_packet0" {print $7}' "$T_DIR/l.log" | tail -n 1)
[ "${final:-0}" -ge "$after" ] || die "final stats rx-missed ${final:-none}, port-show said $after"
log "final stats: rx-missed $final"
log "PASS"
