#!/usr/bin/env bash
# Rx-queue pins (issue 28 item 9): two idle net_null ports on two PMDs
# (lcores 1 and 2 on CPU 1), --rxq-pmd 0:0@2.
#  - config-show lists the pins as --rxq-pmd takes them;
#  - set rxq-pmd adds one; PORT:QUEUE@auto unpins (the queue stays where it
#    is, free to move again);
#  - port-del drops the removed port's pins: the port added again is not
#    pinned;
#  - a bad core is refused by name, nothing changed.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }
pins() { ctl config-show | sed -n 's/^rxq_pmd: //p'; }
want_pins() {
	[ "$(pins)" = "$1" ] || die "$2: config-show says pins '$(pins)', want '$1'"
	log "$2: pins $1"
}

bg lull "$LULL" --lcores 0@0,1@1,2@1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$P" \
	--vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 \
	-- --stats-period 0 --link-wait-ms 0 --rxq-pmd 0:0@2
lull_pid=$BG_PID
lull_ready lull "$lull_pid"
want_pins "0:0@2" start
ctl set rxq-pmd 1:0@2 >/dev/null || die "set rxq-pmd 1:0@2"
want_pins "0:0@2,1:0@2" "set rxq-pmd 1:0@2"
ctl set rxq-pmd 0:0@auto >/dev/null || die "set rxq-pmd 0:0@auto"
want_pins "1:0@2" "set rxq-pmd 0:0@auto"
ctl --json pmd-rxq-show | python3 -c 'import json, sys; assert "rxq_0_0" in json.load(sys.stdin)["pmd2"]' ||
	die "unpinning moved queue 0:0"
rc=0
ctl set rxq-pmd 1:0@x >/dev/null 2>"$T_DIR/bad.err" || rc=$?
[ "$rc" = 1 ] && grep -q "bad assignment '1:0@x'" "$T_DIR/bad.err" ||
	die "a bad core: exit $rc, $(cat "$T_DIR/bad.err")"
want_pins "1:0@2" "refused: $(cat "$T_DIR/bad.err")"
ctl port-del net_null1 >/dev/null || die "port-del net_null1"
want_pins "none" "port-del net_null1"
ctl port-add net_null1,no-rx=1 net_null0 >/dev/null 2>"$T_DIR/add.err" || die "port-add: $(cat "$T_DIR/add.err")"
want_pins "none" "port-add net_null1 again"
stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
