#!/usr/bin/env python3
"""bench/frontier's analysis: OUT_DIR/<device>-r<round>/results.csv (one per
round, bench/lib/measure.sh) -> medians and spreads per (device, config, load),
frontier.csv, frontier.md, frontier-<device>.png (CPU against p99 per load).

Last line: the share of (device, load, ovs setting) cells in which some rate
budget is no worse than that ovs setting on CPU, p99 and loss at once. "No
worse" allows this VM's noise: CPU within 5 % of ovs's plus 1 point, p99
within 5 %, loss no more than ovs's plus 0.01 % of the offered.

usage: frontier.py OUT_DIR COMMAND
       frontier.py --p99 OUT_DIR DEVICE CONFIG LOAD: CONFIG's median p99 at LOAD
       (idle: at rate:1k) so far, in whole us: the budget match:CONFIG runs with
"""
import csv
import glob
import math
import os
import statistics
import subprocess
import sys

import nocliff


def read_rows(out):
    rows = []
    for f in sorted(glob.glob(os.path.join(out, "*-r*", "results.csv"))):
        rnd = os.path.basename(os.path.dirname(f)).rsplit("-r", 1)[1]
        for r in csv.DictReader(open(f)):
            r["round"] = rnd
            rows.append(r)
    return rows


if sys.argv[1] == "--p99":
    out, dev, cfg, load = sys.argv[2:6]
    want = "rate:1k" if load == "idle" else load
    vals = [float(r["p99_us"]) for r in read_rows(out) if r["device"] == dev
            and r["config"] == cfg and r["load"] == want and r["p99_us"] not in ("", "n/a")]
    # none measured (no 1 kpps load): the setting's own maximum
    # lull takes budgets up to 10 ms (an overloaded cell's p99 may be more)
    print(min(10000, math.ceil(statistics.median(vals))) if vals else cfg.rsplit(":", 1)[1])
    sys.exit(0)

out, command = sys.argv[1], sys.argv[2]
rows = read_rows(out)
if not rows:
    sys.exit(f"frontier.py: no results under {out}")


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


cells = {}
for r in rows:
    cells.setdefault((r["device"], r["config"], r["load"]), []).append(r)

KEYS = ["cpu_pct", "p50_us", "p99_us", "p999_us", "loss_pct", "budget_miss_pct", "share_poll",
        "share_sleep", "share_intr"]
summary = {}
for key, rs in cells.items():
    s = {"n": len(rs)}
    for r in rs:
        sent = num(r["sent"]) or 0
        r["loss_pct"] = 100 * (num(r["lost"]) or 0) / sent if sent else 0.0
    for k in KEYS:
        vals = [num(r[k]) if k != "loss_pct" else r["loss_pct"] for r in rs]
        vals = [v for v in vals if v is not None]
        s[k] = (statistics.median(vals), min(vals), max(vals)) if vals else None
    summary[key] = s

devices = sorted({k[0] for k in summary})
configs = []
loads = []
for r in rows:
    if r["config"] not in configs:
        configs.append(r["config"])
    if r["load"] not in loads:
        loads.append(r["load"])


def fmt(v, digits=1):
    if v is None:
        return "n/a"
    med, lo, hi = v
    return f"{med:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"


with open(os.path.join(out, "frontier.csv"), "w") as f:
    w = csv.writer(f)
    w.writerow(["device", "config", "load", "rounds"] + [f"{k}_{x}" for k in KEYS for x in ("med", "min", "max")])
    for (d, c, l), s in sorted(summary.items()):
        w.writerow([d, c, l, s["n"]] + [("" if s[k] is None else f"{x:.3f}") for k in KEYS
                                        for x in (s[k] or (None, None, None))])

# the verdict: cells (device, load, ovs:X) where some rate:B is no worse on all three
def no_worse(r, o):
    if r is None or o is None or r["cpu_pct"] is None or o["cpu_pct"] is None:
        return False
    return not nocliff.worse(r["cpu_pct"][0], r["p99_us"][0], r["loss_pct"][0], o["cpu_pct"][0],
                             o["p99_us"][0], o["loss_pct"][0], 0.01)


verdict = []
for d in devices:
    for l in loads:
        for c in configs:
            if not c.startswith("ovs:") or (d, c, l) not in summary:
                continue
            o = summary[(d, c, l)]
            wins = [rc for rc in configs if (rc == "rate" or rc.startswith("rate:") or rc == "match:" + c)
                    and no_worse(summary.get((d, rc, l)), o)]
            matched = (d, "match:" + c, l) in summary
            verdict.append((d, l, c, wins, matched))

lines = [f"# lull frontier\n", f"`{command}`; medians over rounds, (min-max) the spread.\n"]
for d in devices:
    lines.append(f"\n## {d}\n")
    lines.append("| config | load | CPU % | p50 us | p99 us | p99.9 us | loss % | budget misses % | poll / sleep / intr % |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for l in loads:
        for c in configs:
            s = summary.get((d, c, l))
            if s is None:
                continue
            shares = "/".join("n/a" if s[k] is None else f"{s[k][0]:.0f}" for k in ("share_poll", "share_sleep", "share_intr"))
            lines.append(f"| {c} | {l} | {fmt(s['cpu_pct'])} | {fmt(s['p50_us'])} | {fmt(s['p99_us'])} | "
                         f"{fmt(s['p999_us'])} | {fmt(s['loss_pct'], 3)} | {fmt(s['budget_miss_pct'], 2)} | {shares} |")
lines.append("\n## rate against ovs, cell by cell\n")
lines.append("| device | load | ovs setting | rate budgets no worse on CPU, p99 and loss |")
lines.append("|---|---|---|---|")
for d, l, c, wins, _ in verdict:
    lines.append(f"| {d} | {l} | {c} | {', '.join(wins) if wins else '**none**'} |")
share = sum(1 for v in verdict if v[3]) / len(verdict) if verdict else float("nan")
matched = [v for v in verdict if v[4]]
m_share = (sum(1 for v in matched if "match:" + v[2] in v[3]) / len(matched)) if matched else float("nan")

made = []
# gnuplot, as bench/report: a panel per load, ovs and rate as lines, off as a point
os.makedirs(os.path.join(out, "plot"), exist_ok=True)
for d in devices:
    dl = [l for l in loads if any((d, c, l) in summary for c in configs)]
    panels = []
    for li, l in enumerate(dl):
        plots = []
        for fam, style in (("ovs", "lp pt 5 lc rgb '#c0392b'"), ("rate", "lp pt 7 lc rgb '#2471a3'"),
                           ("match", "p pt 13 lc rgb '#1e8449'"), ("off", "p pt 9 lc rgb 'black'")):
            pts = [(summary[(d, c, l)]["p99_us"][0], summary[(d, c, l)]["cpu_pct"][0], c.split(":")[-1])
                   for c in configs if c.split(":")[0] == fam and (d, c, l) in summary
                   and summary[(d, c, l)]["p99_us"] and summary[(d, c, l)]["cpu_pct"]]
            if not pts:
                continue
            dat = f"plot/{d}-{li}-{fam}.dat"
            with open(os.path.join(out, dat), "w") as f:
                for x, y, lab in pts:
                    f.write(f"{max(x, 0.1)} {y} {lab}\n")
            plots.append(f"'{dat}' u 1:2 w {style} t '{fam}', '{dat}' u 1:2:3 w labels offset 0.8,0.6 font ',6' notitle")
        if plots:
            panels.append(f"set title '{l}'\nplot " + ", ".join(plots))
    if not panels:
        continue
    png = f"frontier-{d}.png"
    script = (f"set terminal pngcairo size {330 * len(panels)},360 font ',8'\nset output '{png}'\n"
              f"set multiplot layout 1,{len(panels)} title 'lull frontier on {d}: PMD CPU against p99 (lower left is better)'\n"
              "set logscale x\nset xlabel 'p99 us'\nset ylabel 'PMD CPU %'\nset key top right font ',7'\n"
              + "\n".join(panels) + "\nunset multiplot\n")
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, cwd=out, capture_output=True)
        made.append(os.path.join(out, png))
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"frontier: gnuplot failed: {getattr(e, 'stderr', e)}", file=sys.stderr)

open(os.path.join(out, "frontier.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
print(f"\nfrontier: {out}/frontier.md, frontier.csv" + "".join(f", {p}" for p in made))
print(f"share of (device, load, ovs setting) cells where rate at the matched budget (ovs's p99) is no worse: "
      f"{sum(1 for v in matched if 'match:' + v[2] in v[3])}/{len(matched)} = {m_share:.2f}")
print(f"share of (device, load, ovs setting) cells where a rate budget is no worse on CPU, p99 and loss: "
      f"{sum(1 for v in verdict if v[3])}/{len(verdict)} = {share:.2f}")
