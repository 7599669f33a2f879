#!/usr/bin/env bash
# The TSan canary (issue 28 item 2): tests/tsan/canary.c races a thread EAL
# launched against a telemetry callback on purpose. Under ThreadSanitizer,
# with tests/tsan.supp (TSAN_OPTIONS from `make test`), the race must be
# reported: a suppression broad enough to hide it hides lull's own races too.
. "$(dirname "$0")/../integration/lib.sh"
CANARY=${CANARY:?set CANARY to the canary binary}
case "${TSAN_OPTIONS:-}" in
*suppressions=*) ;;
*) die "run under make test-tsan: TSAN_OPTIONS has no suppressions file" ;;
esac
P="$T_ID-canary"
TSAN_OPTIONS="$TSAN_OPTIONS:halt_on_error=0:exitcode=0" bg canary "$CANARY" -l 0,1 -m 128 \
	"${EAL_COMMON[@]}" --file-prefix="$P"
pid=$BG_PID
wait_log canary "canary: ready" 60
python3 - "/var/run/dpdk/$P/dpdk_telemetry.v2" <<'PY' || die "telemetry: no answer"
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.settimeout(10)
s.connect(sys.argv[1])
s.recv(4096)
s.send(b"/canary/race")
print(s.recv(4096).decode())
PY
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
wait "$pid" || true
grep -q "WARNING: ThreadSanitizer: data race" "$T_DIR/canary.log" &&
	grep -q "canary_cb\|canary_pmd" "$T_DIR/canary.log" ||
	die "TSan did not report the canary's race: tests/tsan.supp hides races between EAL threads and telemetry callbacks"
log "TSan reported the canary's race ($(grep -c "data race" "$T_DIR/canary.log") report(s))"
log "PASS"
