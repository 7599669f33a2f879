#!/usr/bin/env bash
# lull-gen through lull over memif: a two-phase profile at moderate rates.
# Every phase: received = sent, nothing lost, duplicated or with a bad
# checksum, min <= p50 <= p99 <= max; two phases reported; lull forwarded
# exactly what lull-gen sent. And a bad profile is refused, quoting the token.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}

# bad input first: nothing starts
rc=0
"$LULL_GEN" -l 0 -m 64 "${EAL_COMMON[@]}" --file-prefix="$T_ID-bad" \
	-- --profile rate:10k:1s,rate:10x:1s 2>"$T_DIR/bad.err" >/dev/null || rc=$?
[ "$rc" -ne 0 ] || die "bad profile accepted"
grep -q "bad phase 'rate:10x:1s'" "$T_DIR/bad.err" || die "bad profile: $(cat "$T_DIR/bad.err")"
log "ok: $(cat "$T_DIR/bad.err")"

sa="$T_DIR/a.sock" sb="$T_DIR/b.sock"
lull_memif_bg lull "$sa" "$sb" --stats-period 0
lull_pid=$BG_PID

"$LULL_GEN" -l 0 -m 256 "${EAL_COMMON[@]}" --file-prefix="$T_ID-g" \
	--vdev "$(memif_vdev 0 client "$sa")" --vdev "$(memif_vdev 1 client "$sb")" \
	-- --profile rate:20k:2s,burst:200/50ms:1s --flows 16 --size 128 \
	--json "$T_DIR/gen.json" --csv "$T_DIR/gen.csv" >"$T_DIR/gen.log" 2>&1 ||
	die "lull-gen failed: $(tail -n 5 "$T_DIR/gen.log")"
cat "$T_DIR/gen.log" | grep -v "^\[phase" || true

stop_wait "$lull_pid" 20
[ "$STOP_RC" = 0 ] || die "lull exited with $STOP_RC"

python3 - "$T_DIR/gen.json" "$T_DIR/gen.csv" "$(lull_total "$T_DIR/lull.log" 5)" <<'PY' ||
import csv, json, sys
res = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
lull_rx = int(sys.argv[3])
ph = res["phases"]
assert len(ph) == 2, f"{len(ph)} phases reported, want 2"
assert len(rows) == 2, f"{len(rows)} CSV rows, want 2"
for p in ph:
    name = p["profile"]
    assert p["sent"] > 0, f"{name}: nothing sent"
    assert p["received"] == p["sent"], f"{name}: received {p['received']} != sent {p['sent']}"
    assert p["lost"] == 0 and p["dup"] == 0 and p["bad_cksum"] == 0, f"{name}: {p}"
    l = p["lat_us"]
    assert 0 < l["min"] <= l["p50"] <= l["p99"] <= l["max"], f"{name}: latency order {l}"
sent = sum(p["sent"] for p in ph)
assert res["foreign"] == 0, f"foreign frames: {res['foreign']}"
assert lull_rx == sent, f"lull received {lull_rx}, lull-gen sent {sent}"
assert [r["profile"] for r in rows] == ["rate:20k:2s", "burst:200/50ms:1s"], rows
print(f"gen: {sent} sent = received, lull rx {lull_rx}; p50/p99 us: "
      + ", ".join(f"{p['lat_us']['p50']:.1f}/{p['lat_us']['p99']:.1f}" for p in ph))
PY
	die "results check failed"
log "PASS"
