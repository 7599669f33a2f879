#!/usr/bin/env bash
# A memif server killed with SIGKILL leaves its socket file (issue 28 item 13):
# lull started again on the same path removes the stale socket (nobody listens
# on it), says so, and forwards; a socket someone listens on is left alone
# (that lull then fails to start: DPDK's memif cannot bind it).
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}
sa="$T_DIR/a.sock" sb="$T_DIR/b.sock"

lull_memif_bg first "$sa" "$sb" --stats-period 0
pid=$BG_PID
lull_ready first "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
[ -S "$sa" ] || die "no socket left behind by SIGKILL: nothing to test"

lull_memif_bg second "$sa" "$sb" --stats-period 0
pid=$BG_PID
lull_ready second "$pid"
grep -q "stale memif socket $sa" "$T_DIR/second.log" ||
	die "no word of the stale socket: $(grep -i memif "$T_DIR/second.log" | head -n 3)"
log "$(grep -m 1 "stale memif socket" "$T_DIR/second.log" | sed 's/^lull: //')"
gen_bg gen 0 "$sa" "$sb" --profile rate:5k:2s --progress-ms 0 --json "$T_DIR/gen.json"
gpid=$BG_PID
for _ in $(seq 200); do kill -0 "$gpid" 2>/dev/null || break; sleep 0.1; done
wait "$gpid" || die "lull-gen failed: $(tail -n 3 "$T_DIR/gen.log")"
python3 - "$T_DIR/gen.json" <<'PY' || die "no traffic through the second lull"
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
assert p["sent"] > 0 and p["received"] == p["sent"], p
PY

# the second lull listens on the path: a third is refused, the socket stays
rc=0
"$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-third" \
	--vdev "$(memif_vdev 0 server "$sa")" --vdev "$(memif_vdev 1 server "$T_DIR/c.sock")" \
	-- --stats-period 0 --link-wait-ms 0 >"$T_DIR/third.log" 2>&1 || rc=$?
[ "$rc" != 0 ] || die "a third lull started on a socket in use"
[ -S "$sa" ] || die "the socket in use was removed"
! grep -q "stale memif socket" "$T_DIR/third.log" || die "a live socket was called stale"
log "a socket in use: refused (exit $rc), left alone"
stop_wait "$pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
