#!/usr/bin/env bash
# Replies past DPDK's 16 KB telemetry limit (issue 28 item 7): lull with 40
# PMD threads (lcores 1-40 on CPU 1: this machine has two CPUs) on two idle
# net_null ports. DPDK 22.11 drops a reply's entries that do not fit,
# silently; every PMD must still be in `lullctl metrics` (the exporter pages
# PMD by PMD) and in lullctl's shows, and each PMD's entry says of how many
# (`pmds`), so that a client can tell a short reply.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }

bg lull "$LULL" --lcores "0@0,(1-40)@1" -m 1024 "${EAL_COMMON[@]}" --file-prefix="$P" \
	--vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 -- --stats-period 0 --link-wait-ms 0
lull_pid=$BG_PID
lull_ready lull "$lull_pid" 60
ctl metrics >"$T_DIR/metrics.txt" || die "lullctl metrics failed: $(tail -n 3 "$T_DIR/metrics.txt")"
grep -qx "lull_up 1" "$T_DIR/metrics.txt" || die "lull_up: $(grep lull_up "$T_DIR/metrics.txt")"
for fam in lull_pmd_iterations_total lull_pmd_waits_total; do
	n=$(grep -c "^$fam{" "$T_DIR/metrics.txt" || true)
	[ "$n" = 40 ] || die "$fam: $n PMDs of 40 in lullctl metrics"
done
log "lullctl metrics: all 40 PMDs"
for show in pmd-perf-show pmd-sleep-show pmd-rxq-show; do
	ctl --json "$show" >"$T_DIR/$show.json" || die "$show failed"
	python3 - "$T_DIR/$show.json" "$show" <<'PY' || die "$show: $(head -c 300 "$T_DIR/$show.json")"
import json, sys
d = json.load(open(sys.argv[1]))
want = {p["pmds"] for p in d.values()}
assert want == {40} and len(d) == 40, f"{sys.argv[2]}: {len(d)} PMDs, each says of {want}"
print(f"{sys.argv[2]}: {len(d)} of 40 PMDs")
PY
done
stop_wait "$lull_pid" 30
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "PASS"
