#!/usr/bin/env bash
# Tx retries are bounded in time (issue 16, item 8): lull forwards a net_null
# source into a memif port whose peer never comes (every tx refused) with
# --tx-retries 1000000. Each refused burst is retried for 100 us at most, so
# the PMD still reaches its housekeeping tick: a `set` is taken (within the
# control plane's 2 s acknowledgement timeout; unbounded, a tick took ~50 s)
# and SIGINT stops lull within 2 s, every refused packet freed and counted.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}

bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l" \
	--vdev net_null0 --vdev "$(memif_vdev 1 server "$T_DIR/dead.sock")" \
	-- --stats-period 0 --link-wait-ms 0 --tx-retries 1000000 --sleep-policy off
pid=$BG_PID
lull_ready l "$pid"
sleep 1
t0=$(date +%s%N)
"$LULLCTL" -f "$T_ID-l" set drain-us 50 >"$T_DIR/set.out" 2>&1 || die "set not taken: $(cat "$T_DIR/set.out")"
ms=$((($(date +%s%N) - t0) / 1000000))
log "set taken in $ms ms while every tx is refused and retried"
dropped=$("$LULLCTL" -f "$T_ID-l" --json port-show | python3 -c '
import json, sys
print(sum(p["tx_dropped"] for p in json.load(sys.stdin).values()))')
[ "$dropped" -gt 0 ] || die "no tx counted as dropped"
t0=$(date +%s%N)
stop_wait "$pid" 10
ms=$((($(date +%s%N) - t0) / 1000000))
log "stopped in $ms ms; $dropped packets dropped after retries"
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
[ "$ms" -lt 2000 ] || die "stop took $ms ms"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
log "PASS"
