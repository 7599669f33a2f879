#!/usr/bin/env bash
# Multi-segment mbufs: lull with --mbuf-size 64 receives every frame longer
# than 64 bytes over memif as a chain (a 1514-byte frame is 24 mbufs) and
# forwards it in io, mac and macswap modes. lull-gen checks every frame's
# IPv4/UDP checksums, so a chain sent short or out of order fails. Every mbuf
# is back at exit. A port that cannot send chains is refused, naming it.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}

# refused, naming the value and, for a device that cannot send a chain, the port
refuse() {
	local want=$1 rc=0
	shift
	"$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-bad" "$@" \
		>"$T_DIR/bad.out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || die "accepted: $*"
	grep -q -- "$want" "$T_DIR/bad.out" || die "$*: want '$want' in: $(cat "$T_DIR/bad.out")"
	log "refused ($*): $(grep -m1 -- "$want" "$T_DIR/bad.out")"
}
refuse "--mbuf-size 64: port net_null0 cannot send chains" --vdev net_null0 \
	-- --mbuf-size 64 --port-pairs 0:0
refuse "--mbuf-size.*63" --vdev net_ring0 -- --mbuf-size 63
refuse "--mbuf-size.*65001" --vdev net_ring0 -- --mbuf-size 65001

run_mode() {
	local mode=$1 sa="$T_DIR/a-$1.sock" sb="$T_DIR/b-$1.sock" size
	lull_memif_bg "lull-$mode" "$sa" "$sb" --fwd-mode "$mode" --mbuf-size 64 --stats-period 0
	local lull_pid=$BG_PID
	grep -q "mbufs of 64 data bytes: a 1522-byte frame is a chain of 24" "$T_DIR/lull-$mode.log" ||
		die "$mode: lull did not size its pool for chains"
	local sent=0 runs=0
	for size in 1514 100 64; do
		gen_bg "gen-$mode-$size" 0 "$sa" "$sb" --profile rate:20k:1s --size "$size" \
			--flows 4 --progress-ms 0 --drain-ms 300 --json "$T_DIR/gen-$mode-$size.json"
		local gen_pid=$BG_PID
		wait "$gen_pid" || die "$mode $size: lull-gen failed"
		python3 - "$T_DIR/gen-$mode-$size.json" "$mode $size" <<'PY' || die "$mode $size: results"
import json, sys
g = json.load(open(sys.argv[1]))
p = g["phases"][0]
assert p["sent"] > 0 and p["received"] == p["sent"], f"{sys.argv[2]}: {p}"
assert p["lost"] == 0 and p["dup"] == 0 and p["bad_cksum"] == 0, f"{sys.argv[2]}: {p}"
assert g["foreign"] == 0, f"{sys.argv[2]}: foreign frames {g['foreign']}"
print(f"{sys.argv[2]}: {p['sent']} sent, all received with good checksums")
PY
		sent=$((sent + $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["phases"][0]["sent"])' \
			"$T_DIR/gen-$mode-$size.json")))
		# wait until lull sees the generator gone before the next one connects
		runs=$((runs + 1))
		wait_log "lull-$mode" "port 0 \(net_memif0\): link down" 20 "$runs"
	done
	stop_wait "$lull_pid" 20
	[ "$STOP_RC" = 0 ] || die "$mode: lull exited with $STOP_RC"
	local lrx ltx
	lrx=$(lull_total "$T_DIR/lull-$mode.log" 5)
	ltx=$(lull_total "$T_DIR/lull-$mode.log" 6)
	[ "$lrx" = "$sent" ] && [ "$ltx" = "$sent" ] || die "$mode: sent $sent, lull rx $lrx tx $ltx"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull-$mode.log" || die "$mode: mbuf leak"
	log "$mode: $sent frames of 1514, 100 and 64 bytes (chains of 24, 2 and 1 mbufs) forwarded, every mbuf back"
}

for mode in io mac macswap; do run_mode "$mode"; done
log "PASS"
