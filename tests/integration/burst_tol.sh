#!/usr/bin/env bash
# Burst tolerance (issue 21) over memif, lull-gen sending line-rate bursts after
# 200 ms idle spells, 50 of them a case (10 s):
#  a. lull's defaults on a 1024-slot ring: the start-up warning names the ring
#     that would absorb any burst; bursts of half the ring: nothing refused, lost;
#  b. --burst-tolerance 4096 on the same ring: bursts of twice the ring - sleeps
#     are capped so that they fit: nothing refused, nothing lost;
#  c. lull's defaults on the ring the warning named: bursts of twice the default
#     ring: nothing refused, nothing lost.
# "Refused" is lull-gen's tx into lull's full memif ring; lull-gen counts it as lost.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}

# run CASE RSIZE BURST LULL-ARGS...: lull (memif server, 2^RSIZE slots), then the bursts
run() {
	local name=$1 rsize=$2 burst=$3
	shift 3
	bg "$name" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$name" \
		--vdev "$(memif_vdev 0 server "$T_DIR/$name-a.sock"),rsize=$rsize" \
		--vdev "$(memif_vdev 1 server "$T_DIR/$name-b.sock"),rsize=$rsize" \
		-- --stats-period 0 --link-wait-ms 30000 "$@"
	local pid=$BG_PID
	lull_ready "$name" "$pid"
	gen_bg "gen-$name" 0 "$T_DIR/$name-a.sock" "$T_DIR/$name-b.sock" \
		--profile "idle:1s,burst:$burst/200ms:10s" --progress-ms 0 --json "$T_DIR/$name.json"
	local gpid=$BG_PID
	for _ in $(seq 300); do kill -0 "$gpid" 2>/dev/null || break; sleep 0.1; done
	wait "$gpid" || die "$name: lull-gen failed: $(tail -n 5 "$T_DIR/gen-$name.log")"
	stop_wait "$pid" 20
	[ "$STOP_RC" = 0 ] || die "$name: lull exited with $STOP_RC"
	python3 - "$T_DIR/$name.json" "$name" <<'PY' || die "$name: packets refused or lost"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][1]
print(f"[burst_tol.sh] {sys.argv[2]}: offered {p['offered']}, sent {p['sent']}, refused {p['refused']}, lost {p['lost']}")
assert p["offered"] == 50 * int(p["profile"].split(":")[1].split("/")[0]), p
assert p["refused"] == 0 and p["lost"] == 0 and p["refused_is_loss"], p
PY
}

run a 10 512
grep -E "overflows if it comes as the PMD falls asleep" "$T_DIR/a.log" >"$T_DIR/warn" ||
	die "no burst warning on a 1024-slot ring: $(grep -i burst "$T_DIR/a.log")"
log "warning: $(head -n 1 "$T_DIR/warn" | sed 's/^lull: //')"
rsize=$(grep -o "rsize=[0-9]*" "$T_DIR/warn" | head -n 1 | cut -d= -f2)
[ -n "$rsize" ] && [ "$rsize" -gt 10 ] || die "the warning names no larger memif rsize"

run b 10 2048 --burst-tolerance 4096
grep -q "sleeps capped at" "$T_DIR/b.log" || die "no cap logged for --burst-tolerance 4096"

run c "$rsize" 2048
grep -q "absorbs a line-rate burst of any length" "$T_DIR/c.log" ||
	die "rsize=$rsize: still warned: $(grep -i burst "$T_DIR/c.log")"
log "PASS"
