#!/usr/bin/env bash
# Who may control lull (issue 16, item 12): with --ctl read-only the shows
# answer and every change is refused as unknown; lull refuses to start when its
# runtime directory (where the telemetry socket lives) is group- or
# world-writable, and names it.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
nulls=(--vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1)

bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-r" "${nulls[@]}" \
	-- --stats-period 0 --link-wait-ms 0 --ctl read-only
pid=$BG_PID
lull_ready r "$pid"
"$LULLCTL" -f "$T_ID-r" pmd-perf-show >/dev/null || die "pmd-perf-show refused in read-only mode"
"$LULLCTL" -f "$T_ID-r" port-show >/dev/null || die "port-show refused in read-only mode"
for cmd in "set drain-us 50" "pmd-stats-clear" "port-del net_null1"; do
	rc=0
	# shellcheck disable=SC2086
	"$LULLCTL" -f "$T_ID-r" $cmd >"$T_DIR/out" 2>&1 || rc=$?
	[ "$rc" != 0 ] || die "'$cmd' was taken in read-only mode"
	log "read-only: '$cmd' refused ($rc): $(head -n 1 "$T_DIR/out")"
done
[ "$("$LULLCTL" -f "$T_ID-r" --json config-show | python3 -c 'import json,sys; print(json.load(sys.stdin)["drain_us"])')" = 100 ] ||
	die "drain-us changed in read-only mode"
stop_wait "$pid" 10
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"

dir=/var/run/dpdk/$T_ID-w
mkdir -p "$dir" && chmod 0777 "$dir"
rc=0
"$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-w" "${nulls[@]}" \
	-- --stats-period 0 --link-wait-ms 0 >"$T_DIR/w.log" 2>&1 || rc=$?
rm -rf "$dir"
[ "$rc" != 0 ] || die "lull started with a world-writable runtime directory"
grep -q "runtime directory $dir is group- or world-writable (mode 777)" "$T_DIR/w.log" ||
	die "no clear refusal: $(tail -n 3 "$T_DIR/w.log")"
log "refused: $(grep -o 'the runtime directory.*(mode 777)' "$T_DIR/w.log")"
log "PASS"
