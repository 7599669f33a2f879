#!/usr/bin/env bash
# Fewer cores awake (issue 18): lull with two PMDs (lcores 1 and 2, both on CPU
# 1 through --lcores: this machine has two CPUs) and two memif port pairs,
# --consolidate on, a lull-gen per pair (each polls two rx queues: one per PMD
# that may send to it).
#  - light load (2 kpps a pair): the queues gather on one PMD, the other parks
#    (pmd-perf-show says so; its thread uses < 1 % of a CPU);
#  - one pair at up to 1 Mpps (lull-gen, sharing CPU 0 with the other, sends
#    about 600 kpps): the parked PMD wakes and takes queues back;
# The lines are set for this machine: a PMD carrying both light pairs measures
# a few % busy, the loaded one 16-37 % (lull-gen cannot offer more here): pack
# below 8, unpack above 12.
#  - 100 forced moves (set rxq-pmd) under load;
#  - bad moves and thresholds refused by name, nothing changed;
#  - through all of it: no packet lost, none reordered (lull-gen's counts).
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}
LULL_GEN=${LULL_GEN_OVERRIDE:-$LULL_GEN}
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
P="$T_ID-lull"
ctl() { "$LULLCTL" -f "$P" "$@"; }
# bal KEY: a figure of balance-show
bal() { ctl --json balance-show | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
# parked: lcores of the parked PMDs, or nothing
parked() {
	ctl --json pmd-perf-show | python3 -c '
import json, sys
print(" ".join(str(p["lcore"]) for p in json.load(sys.stdin).values() if p["parked"]))'
}
# thread_cpu LCORE SECS: % of a CPU the PMD thread of LCORE used over SECS
thread_cpu() {
	local tid="" t a b
	for t in /proc/"$lull_pid"/task/*; do
		[ "$(cat "$t/comm")" = "rte-worker-$1" ] && tid=${t##*/}
	done
	[ -n "$tid" ] || die "no thread for lcore $1"
	a=$(awk '{print $14 + $15}' "/proc/$lull_pid/task/$tid/stat")
	sleep "$2"
	b=$(awk '{print $14 + $15}' "/proc/$lull_pid/task/$tid/stat")
	awk -v d=$((b - a)) -v s="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f\n", d * 100 / (s * hz)}'
}

vdevs=()
for i in 0 1 2 3; do vdevs+=(--vdev "$(memif_vdev $i server "$T_DIR/s$i.sock")"); done
bg lull "$LULL" --lcores 0@0,1@1,2@1 -m 512 "${EAL_COMMON[@]}" --file-prefix="$P" "${vdevs[@]}" \
	-- --stats-period 0 --link-wait-ms 30000 --port-pairs 0:1,2:3 --consolidate on \
	--consolidate-dwell-ms 1000 --pack-below-pct 8 --unpack-above-pct 12
lull_pid=$BG_PID
lull_ready lull "$lull_pid"

# light, then one pair heavy, then light again (pair A); pair B light throughout
GEN_RSIZE=14 gen_bg genA 0 "$T_DIR/s0.sock" "$T_DIR/s1.sock" --rxq 2 \
	--profile rate:2k:10s,rate:1M:8s,rate:2k:6s --flows 4 --progress-ms 0 --drain-ms 500 \
	--json "$T_DIR/a.json"
genA=$BG_PID
GEN_RSIZE=14 gen_bg genB 0 "$T_DIR/s2.sock" "$T_DIR/s3.sock" --rxq 2 \
	--profile rate:2k:24s --flows 4 --progress-ms 0 --drain-ms 500 --json "$T_DIR/b.json"
genB=$BG_PID
wait_log lull "Link up" 30 4
# bad input: refused by name, the configuration as it was
ctl --json config-show >"$T_DIR/cfg.before"
bad() {
	local rc=0
	ctl set "$1" "$2" >/dev/null 2>"$T_DIR/bad.err" || rc=$?
	[ "$rc" = 1 ] && grep -qF -- "$3" "$T_DIR/bad.err" || die "set $1 $2: exit $rc, $(cat "$T_DIR/bad.err")"
	ctl --json config-show | cmp -s - "$T_DIR/cfg.before" || die "set $1 $2 changed the configuration"
	log "refused: set $1 $2 -> $(cat "$T_DIR/bad.err")"
}
bad rxq-pmd 0:0@7 "lcore 7 is not a PMD core"
bad rxq-pmd 9:0@1 "port 9 is not forwarded"
bad rxq-pmd 0:3@1 "queue 3 does not exist"
bad rxq-pmd "0:0@1,zz" "--rxq-pmd: bad"
bad pack-below-pct 20 "out of order"
bad unpack-above-pct 5 "out of order"
bad consolidate maybe "--consolidate: bad value 'maybe'"


# light: packed within the phase, one PMD parked and (nearly) off the CPU -
# measured over 2 s in which it stayed parked
cpu="" p=""
for _ in $(seq 90); do
	p=$(parked)
	if [ -n "$p" ]; then
		cpu=$(thread_cpu "$p" 2)
		[ "$(parked)" = "$p" ] && break
	fi
	sleep 0.1
done
[ -n "$p" ] && [ "$(bal packs)" -ge 1 ] || die "no PMD parked at 2 kpps a pair: $(ctl balance-show)"
fcmp 'c < 1' c="$cpu" || die "the parked PMD (lcore $p) used $cpu % of a CPU"
log "light: packed ($(bal packs) pack(s)), lcore $p parked, its thread $cpu % of a CPU"

# heavy: the parked PMD takes queues back
for _ in $(seq 120); do
	[ "$(bal unpacks)" -ge 1 ] && [ -z "$(parked)" ] && break
	sleep 0.1
done
[ "$(bal unpacks)" -ge 1 ] || die "no unpack under load: $(ctl balance-show; ctl pmd-rxq-show; ctl --json pmd-perf-show)"
log "heavy: unpacked ($(bal unpacks)), last move $(bal last_move_us) us: $(bal last_move)"
wait "$genA" || die "genA failed"
wait "$genB" || die "genB failed"
log "$(ctl balance-show | tr '\n' ' ')"

# 100 forced moves of pair A's queue under load (pinning it; consolidation
# leaves a pinned queue alone)
ctl set consolidate off >/dev/null || die "set consolidate off"
GEN_RSIZE=14 gen_bg genC 0 "$T_DIR/s0.sock" "$T_DIR/s1.sock" --rxq 2 \
	--profile rate:20k:20s --flows 4 --progress-ms 0 --drain-ms 500 --json "$T_DIR/c.json"
genC=$BG_PID
sleep 1
m0=$(bal moves)
# (lullctl at nice 19: 100 of them on lull-gen's CPU would otherwise take it
# for ms at a time, and lull-gen, reading two rx rings, could read the new
# PMD's ring before the old one's last packets: reordering at the receiver)
for i in $(seq 100); do
	nice -n 19 "$LULLCTL" -f "$P" set rxq-pmd "0:0@$((i % 2 + 1))" >/dev/null ||
		die "move $i refused: $(ctl set rxq-pmd "0:0@$((i % 2 + 1))" 2>&1)"
done
m1=$(bal moves)
[ $((m1 - m0)) -ge 99 ] || die "100 moves asked, $((m1 - m0)) done"
log "100 forced moves: $((m1 - m0)) queue moves, the last took $(bal last_move_us) us"
wait "$genC" || die "genC failed"

stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"
grep -q "mbufs: all [0-9]* back in the pool" "$T_DIR/lull.log" || die "mbuf leak"
python3 - "$T_DIR"/a.json "$T_DIR"/b.json "$T_DIR"/c.json <<'PY' || die "loss or reordering"
import json, sys
for f in sys.argv[1:]:
    for p in json.load(open(f))["phases"]:
        assert p["sent"] > 0 and p["lost"] == 0 and p["reordered"] == 0 and p["dup"] == 0, (f, p["profile"], {k: p[k] for k in ("sent", "received", "lost", "refused", "reordered", "dup")})
        print(f"{f.rsplit('/', 1)[1]} {p['profile']}: {p['sent']} sent, all received in order, p99 {p['lat_us']['p99']:.0f} us")
PY
log "PASS"
