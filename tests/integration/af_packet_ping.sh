#!/usr/bin/env bash
# lull between two net_af_packet ports on veth pairs into two network
# namespaces it made: ping from one namespace to the other through lull,
# 200 pings at 10 ms, 0 % loss; lull exits 0 with every mbuf back.
. "$(dirname "$0")/lib.sh"

command -v ip >/dev/null || die "ip (iproute2) is missing"
ns_a="$T_ID-a" ns_b="$T_ID-b"
# veth names must be unique in the root namespace and at most 15 characters.
va="${T_ID}a" vb="${T_ID}b"

ip netns add "$ns_a" && T_NETNS+=("$ns_a")
ip netns add "$ns_b" && T_NETNS+=("$ns_b")
ip link add "${va}0" type veth peer name "${va}1" && T_LINKS+=("${va}1")
ip link add "${vb}0" type veth peer name "${vb}1" && T_LINKS+=("${vb}1")
ip link set "${va}0" netns "$ns_a"
ip link set "${vb}0" netns "$ns_b"
# 198.18.0.0/15 is reserved for benchmarking (RFC 2544) and lives only in these namespaces.
ip -n "$ns_a" addr add 198.18.0.1/24 dev "${va}0"
ip -n "$ns_b" addr add 198.18.0.2/24 dev "${vb}0"
for dev in "${va}1" "${vb}1"; do
	ip link set "$dev" up
	ethtool -K "$dev" tx off >/dev/null 2>&1 || true
done
ip -n "$ns_a" link set "${va}0" up
ip -n "$ns_b" link set "${vb}0" up
ip netns exec "$ns_a" ethtool -K "${va}0" tx off >/dev/null 2>&1 || true
ip netns exec "$ns_b" ethtool -K "${vb}0" tx off >/dev/null 2>&1 || true

bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l" \
	--vdev "net_af_packet0,iface=${va}1" --vdev "net_af_packet1,iface=${vb}1" \
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
