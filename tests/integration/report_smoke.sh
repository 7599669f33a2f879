#!/usr/bin/env bash
# A short bench/report (2 s per cell, busy polling, rate and dpdk-testpmd at
# idle and 10 kpps): the report is produced and well-formed - a results row
# per cell with every column, report.md with its table and plots, PNG files.
# Not a timing test: the numbers themselves are the benchmark's business.
. "$(dirname "$0")/lib.sh"
LULL_GEN=${LULL_GEN:?set LULL_GEN to the lull-gen binary}
LULLCTL=${LULLCTL:?set LULLCTL to the lullctl binary}
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$T_DIR/report"

LULL="$LULL" LULL_GEN="$LULL_GEN" LULLCTL="$LULLCTL" OUT="$out" TITLE="smoke" \
	CONFIGS="off rate:250 testpmd" LOADS="idle rate:10k" \
	"$here/bench/report" 2 >"$T_DIR/report.log" 2>&1 || die "bench/report failed: $(tail -n 20 "$T_DIR/report.log")"
tail -n 1 "$T_DIR/report.log" | grep -q "^worst goal ratio" || die "no goal line last: $(tail -n 3 "$T_DIR/report.log")"

python3 - "$out" <<'PY' || die "malformed report"
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
assert len(rows) == 6, f"{len(rows)} result rows, want 6"
cells = {(r["config"], r["load"]) for r in rows}
assert cells == {(c, l) for c in ("off", "rate:250", "testpmd") for l in ("idle", "rate:10k")}, cells
for r in rows:
    assert None not in r.values() and len(r) == 25, f"short row {r}"
    assert r["device"] == "memif", r
    # issue 15's columns: lull's budget misses and mode shares (testpmd: n/a)
    for k in ("p999_us", "budget_miss_pct", "share_poll", "share_sleep", "share_intr"):
        assert r[k] == "n/a" or float(r[k]) >= 0, (k, r)
    for k in ("cpu_pct", "idle_res_pct", "p99_us", "max_us", "rx_pps"):
        float(r[k])
    assert r["watts"] == "n/a" or float(r["watts"]) >= 0, r
    if r["config"] != "testpmd":
        float(r["sleeps_per_s"])
    if r["load"] == "rate:10k":
        assert int(r["received"]) > 0, f"nothing came back: {r}"
md = open(os.path.join(out, "report.md")).read()
assert "| config | load | CPU% |" in md, "no table in report.md"
for png in ("cpu_vs_load.png", "latency_cdf.png", "cpu_vs_p99.png"):
    assert f"]({png})" in md, f"{png} not in report.md"
    data = open(os.path.join(out, png), "rb").read(8)
    assert data == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG"
cdf = [l.split() for l in open(os.path.join(out, "cdf", "2-off.txt"))]
assert len(cdf) == 101 and all(float(a) <= float(b) for (a, _), (b, _) in zip(cdf, cdf[1:])), "bad CDF"
print("report ok:", len(rows), "rows, table, 3 plots, CDF")
PY
log "PASS"
