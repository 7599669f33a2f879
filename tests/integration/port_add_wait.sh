#!/usr/bin/env bash
# A port-add that waits for its link does not hold the control lock (issue 16,
# item 3): lull on two net_null ports, --link-wait-ms 8000; `lullctl port-add`
# of a memif server whose peer never comes waits for the link, and meanwhile
# `lullctl pmd-perf-show` answers at once (it took 8 s before) and SIGINT stops
# lull within 2 s. Then the same with the port added and a port-del while the
# add still waits.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

start() {
	bg "lull$1" "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-$1" \
		--vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 -- --stats-period 0 \
		--link-wait-ms 8000
	pid=$BG_PID
	lull_ready "$1" "$pid"
	"$LULLCTL" -f "$T_ID-$1" port-add "net_memif9,role=server,socket=$T_DIR/m$1.sock,socket-abstract=no" \
		>"$T_DIR/add$1.out" 2>&1 &
	add_pid=$!
	T_PIDS+=("$add_pid")
	sleep 1 # the add now waits for the memif link
	kill -0 "$add_pid" 2>/dev/null || die "port-add returned at once: $(cat "$T_DIR/add$1.out")"
	t0=$(date +%s%N)
	"$LULLCTL" -f "$T_ID-$1" pmd-perf-show >/dev/null || die "pmd-perf-show failed during a port-add"
	ms=$(ms_since "$t0")
	log "$1: pmd-perf-show during a waiting port-add: $ms ms"
	[ "$ms" -lt 1000 ] || die "pmd-perf-show took $ms ms while a port-add waited"
}

start a
t0=$(date +%s%N)
stop_wait "$pid" 10
ms=$(ms_since "$t0")
log "a: SIGINT during the wait: lull exited $STOP_RC after $ms ms; port-add said: $(cat "$T_DIR/adda.out")"
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
[ "$ms" -lt 2000 ] || die "stop took $ms ms while a port-add waited"
wait "$add_pid" || true
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lulla.log" || die "mbuf leak"

start b
"$LULLCTL" -f "$T_ID-b" port-del net_memif9 >"$T_DIR/del.out" 2>&1 || die "port-del failed: $(cat "$T_DIR/del.out")"
for _ in $(seq 30); do kill -0 "$add_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$add_pid" 2>/dev/null && die "port-add still waits for a port that was removed"
log "b: port-del during the wait ended it; port-add said: $(cat "$T_DIR/addb.out")"
stop_wait "$pid" 10
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lullb.log" || die "mbuf leak"
log "PASS"
