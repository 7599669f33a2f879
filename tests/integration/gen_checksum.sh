#!/usr/bin/env bash
# lull-gen's frames checked by someone else: tcpdump on the far end of a veth
# must find every IPv4/UDP checksum valid, for several sizes and flows.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}
command -v tcpdump >/dev/null || die "tcpdump is missing (make deps)"

v="${T_ID}c"
ip link add "${v}0" type veth peer name "${v}1" && T_LINKS+=("${v}0")
ip link set "${v}0" up
ip link set "${v}1" up
for size in 64 200 1514; do
	tcpdump -i "${v}1" -n -vv -c 20 udp >"$T_DIR/td-$size.log" 2>&1 &
	td=$!
	T_PIDS+=("$td")
	sleep 1
	"$LULL_GEN" -l 0 -m 128 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$size" \
		--vdev "net_af_packet0,iface=${v}0" \
		-- --profile rate:100:1s --size "$size" --flows 7 --progress-ms 0 --drain-ms 10 \
		>"$T_DIR/gen-$size.log" 2>&1 || die "lull-gen failed: $(tail -n 3 "$T_DIR/gen-$size.log")"
	for _ in $(seq 50); do kill -0 "$td" 2>/dev/null || break; sleep 0.1; done
	ok=$(grep -c "udp sum ok" "$T_DIR/td-$size.log" || true)
	bad=$(grep -ciE "bad (udp )?cksum|wrong" "$T_DIR/td-$size.log" || true)
	log "size $size: $ok frames with 'udp sum ok', $bad bad"
	[ "$ok" -ge 20 ] && [ "$bad" = 0 ] || die "size $size: checksums: $(head -n 6 "$T_DIR/td-$size.log")"
done
log "PASS"
