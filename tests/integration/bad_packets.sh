#!/usr/bin/env bash
# Bad packets through lull, in io, mac and macswap modes: runts (14-59 bytes),
# the largest frame, frames larger than the tx port's MTU, IPv4/UDP headers
# whose lengths lie, unknown EtherTypes and random garbage, sent from one
# network namespace over af_packet to another through lull. lull must not
# crash, must count every packet it received as forwarded or dropped, must
# exit 0 with every mbuf back, and must still forward a normal ping afterwards.
# (Multi-segment mbufs do not occur on these devices; the engines touch only
# the first 12 bytes of the first segment.)
. "$(dirname "$0")/lib.sh"

# the sending side takes jumbo frames, and so does lull's rx side; its tx side does not
h_two_namespaces 9000
ns_a=$NS_A ns_b=$NS_B
for ns in "$ns_a" "$ns_b"; do ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || true; done

# send_bad: every kind of bad frame, 20 of each, from namespace A; prints how many
send_bad() {
	ip netns exec "$ns_a" python3 - "$VA0" <<'PY'
import random, socket, struct, sys
random.seed(7)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
dst, src = bytes.fromhex("ffffffffffff"), bytes.fromhex("020000000001")
def ipv4(total_len, proto=17, ihl=5):
    return struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, total_len, 0, 0, 64, proto, 0,
                       bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2]))
def udp(length):
    return struct.pack("!HHHH", 1024, 9, length, 0)
frames = []
for n in (14, 15, 20, 34, 42, 59):                       # runts
    frames.append(dst + src + b"\x08\x00" + bytes(n - 14))
frames.append(dst + src + b"\x08\x00" + ipv4(1500 - 14) + udp(1500 - 34) + bytes(1500 - 42))  # MTU
frames.append(dst + src + b"\x08\x00" + ipv4(1800) + udp(1780) + bytes(1800 - 28))  # > tx MTU
frames.append(dst + src + b"\x08\x00" + ipv4(8000) + udp(7980) + bytes(8000 - 28))  # > rx frame
frames.append(dst + src + b"\x08\x00" + ipv4(1400) + udp(8) + bytes(50))           # IP length lies (long)
frames.append(dst + src + b"\x08\x00" + ipv4(10) + udp(9000) + bytes(50))          # IP length lies (short), UDP too
frames.append(dst + src + b"\x08\x00" + ipv4(60, ihl=15) + udp(40) + bytes(32))    # options past the end
frames.append(dst + src + b"\x88\xb5" + bytes(46))                                 # local experimental type
frames.append(dst + src + b"\x81\x00" + b"\x00\x05\x08\x00" + bytes(42))           # VLAN tag
for _ in range(20):
    frames.append(bytes(random.getrandbits(8) for _ in range(random.randint(14, 1514))))
sent = 0
for _ in range(20):
    for f in frames:
        s.send(f)
        sent += 1
print(sent)
PY
}

mac_a=$(ip -n "$ns_a" -br link show "$VA0" | awk '{print $3}')
mac_b=$(ip -n "$ns_b" -br link show "$VB0" | awk '{print $3}')
for mode in io mac macswap; do
	# mac mode writes the peer's MAC: the namespaces' own, so that ping works
	peers=()
	[ "$mode" = mac ] && peers=(--eth-peer "0,$mac_a" --eth-peer "1,$mac_b")
	bg "lull-$mode" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$mode" \
		--vdev "net_af_packet0,iface=$VA1" --vdev "net_af_packet1,iface=$VB1" \
		-- --fwd-mode "$mode" --stats-period 0 --link-wait-ms 5000 "${peers[@]}"
	pid=$BG_PID
	wait_log "lull-$mode" "port 1 \(net_af_packet1\).*Link" 30
	sent=$(send_bad) || die "$mode: the sender failed"
	sleep 1
	kill -0 "$pid" 2>/dev/null || die "$mode: lull died under bad packets"
	# (macswap sends a frame back where it came from: no ping through it)
	if [ "$mode" != macswap ]; then
		ip netns exec "$ns_a" ping -c 20 -i 0.05 -W 1 -q 198.18.0.2 >"$T_DIR/ping.log" 2>&1 ||
			die "$mode: ping after the bad packets failed: $(tail -n 2 "$T_DIR/ping.log")"
	fi
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "$mode: lull exited with $STOP_RC"
	log="$T_DIR/lull-$mode.log"
	grep -q "mbufs: all [0-9]* back in the pool" "$log" || die "$mode: mbufs not all back"
	# port table of the final stats: rx on port 0, tx and tx-dropped on port 1
	read -r rx0 < <(awk '/^lull final stats/ {f = 1} f && $1 == "0" && $2 ~ /af_packet/ {print $5; exit}' "$log")
	read -r tx1 drop1 < <(awk '/^lull final stats/ {f = 1} f && $1 == "1" && $2 ~ /af_packet/ {print $6, $8; exit}' "$log")
	# The kernel and the driver drop some before lull sees them (a frame larger
	# than the af_packet ring's 2 KB frames, some runts); what lull received it
	# forwarded or counted as dropped.
	[ "$((rx0 * 2))" -ge "$sent" ] || die "$mode: lull received only $rx0 of $sent bad frames"
	[ "$((tx1 + drop1))" -eq "$rx0" ] || die "$mode: rx $rx0 != tx $tx1 + dropped $drop1"
	log "$mode: $sent bad frames sent; lull rx $rx0 (with pings) = tx $tx1 + dropped $drop1; every mbuf back"
done
log "PASS"
