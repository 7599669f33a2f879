#!/usr/bin/env bash
# The exporter in front of an unresponsive lull (issue 28 item 8): lull stopped
# with SIGSTOP (its telemetry socket accepts, nobody answers).
#  - GET /metrics answers within 5 s, lull_up 0;
#  - GET / answers at once, also while a /metrics scrape waits on lull;
#  - several scrapes at once are all answered;
#  - lullctl config-show gives up with a message naming the wait;
#  - SIGTERM stops the exporter within 5 s, exit 0.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# timed_get URL: "SECONDS BODY-FIRST-LINE-MATCHING-lull_up-or-first-line"
timed_get() {
	python3 - "$1" <<'PY'
import sys, time, urllib.request
t = time.monotonic()
body = urllib.request.urlopen(sys.argv[1], timeout=30).read().decode()
up = [l for l in body.splitlines() if l.startswith("lull_up ")]
print(f"{time.monotonic() - t:.2f}", (up or body.splitlines() or [""])[0])
PY
}

lull_memif_bg lull "$T_DIR/a.sock" "$T_DIR/b.sock" --stats-period 0
lull_pid=$BG_PID
lull_ready lull "$lull_pid"
EP=$(free_port)
bg exporter "$LULLCTL" -f "$P" serve-metrics --listen "127.0.0.1:$EP"
exp_pid=$BG_PID
wait_log exporter "serving the metrics" 10
read -r secs line < <(timed_get "http://127.0.0.1:$EP/metrics")
[ "$line" = "lull_up 1" ] || die "lull running: $line"

kill -STOP "$lull_pid"
# three scrapes at once, and / while they wait
for i in 1 2 3; do timed_get "http://127.0.0.1:$EP/metrics" >"$T_DIR/scrape$i" & scrapers+=($!); done
sleep 0.5
read -r secs line < <(timed_get "http://127.0.0.1:$EP/")
fcmp 's < 1' s="$secs" || die "GET / took $secs s while scrapes waited on a stopped lull"
log "GET / in $secs s while three scrapes wait on a stopped lull"
wait "${scrapers[@]}" || die "a scrape failed"
for i in 1 2 3; do
	read -r secs line <"$T_DIR/scrape$i"
	[ "$line" = "lull_up 0" ] && fcmp 's < 5' s="$secs" || die "scrape $i of a stopped lull: $secs s, $line"
done
log "scrapes of a stopped lull: $(cat "$T_DIR"/scrape* | tr '\n' ';')"
rc=0
t0=$(date +%s%N)
"$LULLCTL" -f "$P" config-show >/dev/null 2>"$T_DIR/show.err" || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" != 0 ] && [ "$ms" -lt 15000 ] && grep -q "did not answer within" "$T_DIR/show.err" ||
	die "config-show of a stopped lull: exit $rc after $ms ms, $(cat "$T_DIR/show.err")"
log "config-show of a stopped lull: $(cat "$T_DIR/show.err") (after $ms ms)"

# SIGTERM while a scrape waits
timed_get "http://127.0.0.1:$EP/metrics" >/dev/null 2>&1 &
sleep 0.5
t0=$(date +%s%N)
kill -TERM "$exp_pid"
for _ in $(seq 100); do kill -0 "$exp_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$exp_pid" 2>/dev/null && die "the exporter is alive 10 s after SIGTERM"
rc=0
wait "$exp_pid" || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" = 0 ] && [ "$ms" -lt 5000 ] || die "exporter after SIGTERM: exit $rc in $ms ms"
log "exporter stopped $ms ms after SIGTERM, exit 0"
kill -CONT "$lull_pid"
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
