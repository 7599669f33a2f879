#!/usr/bin/env bash
# Bounds: lull at the edges of what it accepts, on net_null ports (no-rx), each
# started, shown through lullctl and stopped cleanly with every mbuf back:
#  - 32 ports (RTE_MAX_ETHPORTS of Debian's DPDK), paired by default;
#  - one PMD polling 64 rx queues (2 ports x 32; the most lull allows per port
#    is 64, on one port here);
#  - the smallest and largest burst, ring sizes, sleep maximum, and the
#    largest yield share.
. "$(dirname "$0")/lib.sh"
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
n=0

# run_ok NAME MEMORY_MB VDEVS... -- LULL_ARGS...: starts, forwards, shows, stops cleanly
run_ok() {
	local name=$1 mem=$2
	shift 2
	n=$((n + 1))
	bg "$name" "$LULL" -l 0,1 -m "$mem" "${EAL_COMMON[@]}" --file-prefix="$T_ID-$n" "$@"
	local pid=$BG_PID
	h_ready "$T_ID-$n" "$pid" 60 || die "$name: not ready (lullctl config-show)"
	"$LULLCTL" -f "$T_ID-$n" --json port-show >"$T_DIR/$name.ports" || die "$name: port-show"
	"$LULLCTL" -f "$T_ID-$n" --json pmd-rxq-show >"$T_DIR/$name.rxq" || die "$name: pmd-rxq-show"
	stop_wait "$pid" 30
	[ "$STOP_RC" = 0 ] || die "$name: lull exited with $STOP_RC"
	grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/$name.log" || die "$name: mbufs not all back"
}

vdevs=()
for i in $(seq 0 31); do vdevs+=(--vdev "net_null$i,no-rx=1"); done
run_ok ports32 1024 "${vdevs[@]}" -- --rxd 64 --txd 64 --stats-period 0 --link-wait-ms 0
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert len(d) == 32, len(d)' \
	"$T_DIR/ports32.ports" || die "32 ports: port-show does not list 32"
log "ok: 32 ports"

run_ok rxq64 512 --vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 \
	-- --rxq 32 --rxd 64 --txd 64 --stats-period 0 --link-wait-ms 0
python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))["pmd1"]; q = [k for k in d if k.startswith("rxq_")]; assert len(q) == 64, len(q)' \
	"$T_DIR/rxq64.rxq" || die "one PMD with 64 rx queues: pmd-rxq-show"
log "ok: one PMD polling 64 rx queues"

run_ok small 256 --vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 \
	-- --burst 1 --rxd 16 --txd 16 --sleep-max-us 1 --latency-budget-us 1 --stats-period 0 --link-wait-ms 0
run_ok large 2048 --vdev net_null0,no-rx=1 --vdev net_null1,no-rx=1 \
	-- --burst 512 --rxd 4096 --txd 4096 --sleep-max-us 10000 --latency-budget-us 10000 \
	--yield-hz 1000 --yield-us 500 --drain-us 1000000 --stats-period 0 --link-wait-ms 0
log "ok: smallest and largest burst, rings, sleep and yield"
log "PASS"
