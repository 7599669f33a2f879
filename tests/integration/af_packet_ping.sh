#!/usr/bin/env bash
# lull between two net_af_packet ports on veth pairs into two network
# namespaces it made: ping from one namespace to the other through lull,
# 200 pings at 10 ms, 0 % loss; lull exits 0 with every mbuf back.
. "$(dirname "$0")/lib.sh"

command -v ip >/dev/null || die "ip (iproute2) is missing"
h_two_namespaces
ns_a=$NS_A va1=$VA1 vb1=$VB1

bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l" \
	--vdev "net_af_packet0,iface=$va1" --vdev "net_af_packet1,iface=$vb1" \
	-- --stats-period 0 --link-wait-ms 10000
lull_pid=$BG_PID
wait_log lull "port 1 \(net_af_packet1\).*Link" 30

ip netns exec "$ns_a" ping -c 200 -i 0.01 -W 1 -q 198.18.0.2 >"$T_DIR/ping.log" 2>&1 ||
	die "ping failed: $(tail -n 3 "$T_DIR/ping.log")"
summary=$(grep -E "packets transmitted" "$T_DIR/ping.log")
rtt=$(grep -E "^rtt" "$T_DIR/ping.log" || true)
log "ping: $summary; $rtt"
echo "$summary" | grep -q "200 packets transmitted, 200 received, 0% packet loss" ||
	die "loss through lull: $summary"

stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
rx=$(lull_total "$T_DIR/lull.log" 5)
[ "$rx" -ge 400 ] || die "lull forwarded only $rx packets for 200 pings and 200 replies"
log "PASS"
