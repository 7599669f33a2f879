#!/usr/bin/env bash
# The rate policy's cost model on ports that interrupt (issue 15): UDP from
# namespace A to B through lull on two net_tap ports at 1 kpps, lull at its
# defaults (rate, budget 250 us; --intr-after-ms 200 only an upper bound) but
# for the interrupt wait's bound, raised to 5 s. Every datagram crosses, and
# most waits are interrupt waits (a wake per packet), chosen by the model long
# before 200 ms of idle. Then, with the PMD in an interrupt wait: a `set`
# applies at once (the control eventfd ends the wait; without it, 5 s and a
# timeout), and a stop ends lull at once.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
udp="$(dirname "$0")/../../scripts/lib/udp_latency.py"
N=${TAP_RATE_N:-2000}

h_tap_namespaces
bg lull "$LULL" -l 0,1 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-l" \
	--vdev "net_tap0,iface=$TAP_A" --vdev "net_tap1,iface=$TAP_B" \
	-- --stats-period 0 --link-wait-ms 2000 --intr-wait-max-ms 5000
lull_pid=$BG_PID
lull_ready l "$lull_pid"
h_tap_join
sleep 1

# pmd KEY [COMMAND]: a PMD field of lull's telemetry, summed over PMDs (numbers) or the first
pmd() {
	"$LULLCTL" -f "$T_ID-l" --json "${2:-pmd-perf-show}" | python3 -c '
import json, sys
v = [p[sys.argv[1]] for p in json.load(sys.stdin).values()]
print(sum(v) if isinstance(v[0], int) else v[0])' "$1"
}

out="$T_DIR/lat.txt"
ip netns exec "$NS_B" python3 "$udp" recv 9000 "$N" 30 "$out" &
rpid=$!
T_PIDS+=("$rpid")
for _ in $(seq 50); do grep -qs ready "$out" && break; sleep 0.1; done
w0=$(pmd intr_waits) s0=$(pmd sleeps)
ip netns exec "$NS_A" python3 "$udp" send 198.18.0.2 9000 "$N" 1000
wait "$rpid" || true
w1=$(pmd intr_waits) s1=$(pmd sleeps)
got=$(grep -c '^[0-9]' "$out" || true)
log "$N at 1 kpps: $(python3 "$udp" summary "$out" "$N"); interrupt waits $((w1 - w0)), timed sleeps $((s1 - s0))"
[ "$got" = "$N" ] || die "lost $((N - got)) of $N datagrams"
[ $((w1 - w0)) -ge $((N / 2)) ] || die "only $((w1 - w0)) interrupt waits for $N datagrams"
[ $((w1 - w0)) -gt $((s1 - s0)) ] || die "more timed sleeps ($((s1 - s0))) than interrupt waits ($((w1 - w0)))"

# idle now: the PMD waits for an interrupt, up to 5 s at a time
sleep 1
mode=$(pmd mode pmd-sleep-show)
[ "$mode" = interrupt ] || die "idle PMD's mode is '$mode', not interrupt"
c0=$(pmd control_wakes)
t0=$(date +%s%N)
"$LULLCTL" -f "$T_ID-l" set sleep-max-us 200 >"$T_DIR/set.out" 2>&1 || die "set failed: $(cat "$T_DIR/set.out")"
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
c1=$(pmd control_wakes)
log "set on a PMD in an interrupt wait took $ms ms (lullctl round trip included); control wakes $((c1 - c0))"
[ $((c1 - c0)) -ge 1 ] || die "the set did not end the interrupt wait (control wakes $c0 -> $c1)"
[ "$ms" -lt 1000 ] || die "set took $ms ms: the interrupt wait was not ended"
[ "$(pmd max_sleep_us pmd-sleep-show)" = 200 ] || die "set not in force"

sleep 1
t0=$(date +%s%N)
stop_wait "$lull_pid" 20
t1=$(date +%s%N)
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
log "stop while in an interrupt wait: $(((t1 - t0) / 1000000)) ms to exit"
[ $(((t1 - t0) / 1000000)) -lt 4000 ] || die "stop took $(((t1 - t0) / 1000000)) ms"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
log "PASS"
