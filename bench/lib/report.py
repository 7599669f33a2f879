#!/usr/bin/env python3
"""Turn a bench/report results folder into the table, the goal ratios of the
sleeping issue, report.md and the plots (gnuplot).

    report.py OUT_DIR TITLE COMMAND

OUT_DIR holds results.csv and cdf/ (bench/lib/measure.sh). Prints the table
and, when the run allows it, the goal ratios; the last line printed is the
worst goal ratio ("n/a" when the run has no ovs/rate pair or no saturation).
"""
import csv
import datetime
import os
import platform
import subprocess
import sys

out, title, command = sys.argv[1:4]
TITLE_GP = title.replace("'", "''")  # gnuplot single-quoted strings double their quotes
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
configs = list(dict.fromkeys(r["config"] for r in rows))
steps = list(dict.fromkeys((r["step"], r["load"]) for r in rows))
by = {(r["config"], r["step"]): r for r in rows}


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


COLS = [("config", "config", "{}"), ("load", "load", "{}"), ("cpu_pct", "CPU%", "{}"),
        ("idle_res_pct", "idle-st%", "{}"), ("watts", "W", "{}"), ("pmd_mhz", "MHz", "{}"),
        ("sleeps_per_s", "sleeps/s", "{}"), ("oversleep_us", "over-us", "{}"),
        ("min_us", "min-us", "{}"), ("avg_us", "avg-us", "{}"), ("p99_us", "p99-us", "{}"),
        ("max_us", "max-us", "{}"), ("lost", "lost", "{}"), ("rx_pps", "rx-pps", "{}"),
        ("limit", "limit", "{}")]


def table_lines(markdown):
    body = []
    for step, load in steps:
        for c in configs:
            r = by.get((c, step))
            if r is not None:
                body.append([r.get(k) or "-" for k, _, _ in COLS])
    head = [c[1] for c in COLS]
    if markdown:
        return ["| " + " | ".join(head) + " |", "|" + "---|" * len(COLS)] + \
            ["| " + " | ".join(v) + " |" for v in body]
    width = [max(len(x[i]) for x in [head] + body) for i in range(len(COLS))]
    fmt = lambda v: " ".join(f"{x:<{w}}" if i < 2 else f"{x:>{w}}"
                             for i, (x, w) in enumerate(zip(v, width)))
    return [fmt(head)] + [fmt(v) for v in body]


def goals():
    """The sleeping issue's goals: per load, rate:M uses no more CPU than ovs:M,
    with a lower p99 and no loss where ovs loses; at saturation every lull
    configuration keeps >= 0.99 x busy polling's throughput."""
    notes, worst = [], None
    for c in configs:
        if not c.startswith("rate:"):
            continue
        m = c.split(":")[1]
        o = f"ovs:{m}"
        if o not in configs:
            continue
        for step, load in steps:
            a, b = by.get((o, step)), by.get((c, step))
            if not a or not b or load == "max":
                continue
            cpu = (num(a["cpu_pct"]) + 1) / (num(b["cpu_pct"]) + 1)
            lat = (num(a["p99_us"]) + 1) / (num(b["p99_us"]) + 1)
            r = min(cpu, lat)
            if int(b["lost"]) > 0 and int(a["lost"]) == 0:
                r = 0.0
            worst = r if worst is None else min(worst, r)
            notes.append(f"max {m:>3} {load:18} cpu ovs/rate {cpu:5.2f}  p99 ovs/rate {lat:5.2f}  "
                         f"loss ovs {a['lost']} rate {b['lost']}")
    sat = [s for s, l in steps if l == "max"]
    if "off" in configs and sat:
        base = num(by[("off", sat[0])]["rx_pps"])
        for c in configs:
            r = by.get((c, sat[0]))
            if r is None or c == "testpmd" or not base:
                continue
            ratio = num(r["rx_pps"]) / base
            src = r.get("limit") == "source" or by[("off", sat[0])].get("limit") == "source"
            notes.append(f"saturation {c:12} throughput/off {ratio:.3f}"
                         + ("  (the source set the rate: this cell measures lull-gen, not the"
                            " forwarder; bench/throughput measures the forwarder)" if src else ""))
            if not src:
                worst = ratio / 0.99 if worst is None else min(worst, ratio / 0.99)
    return notes, worst


def gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, cwd=out,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"report: gnuplot failed: {getattr(e, 'stderr', e)}", file=sys.stderr)
        return False


def plot(term, png, title, xlabel, ylabel, ymax, series, style):
    """One gnuplot PNG, log x: series is [(data file, title)], style its 'with' clause."""
    return gnuplot(f"""{term}
set output '{png}'
set title '{title}'
set logscale x; set xlabel '{xlabel}'; set ylabel '{ylabel}'
set yrange [0:{ymax}]; set key outside right; set grid
plot """ + ", ".join(f"'{f}' using 1:2 with {style} title '{c}'" for f, c in series))


def write_points(name, pts):
    with open(os.path.join(out, name), "w") as fh:
        fh.writelines(f"{x} {y}\n" for x, y in pts)
    return name


def plots():
    made = []
    title = TITLE_GP
    term = "set terminal pngcairo size 900,560 noenhanced font ',10'" if pngcairo() else \
        "set terminal png size 900,560 noenhanced"
    # 1. CPU vs the load actually carried: power proportionality
    series = [(write_points(f"plot-cpu-{i}.dat",
                            sorted((max(num(by[(c, s)]["rx_pps"]) or 0, 1), num(by[(c, s)]["cpu_pct"]))
                                   for s, _ in steps if (c, s) in by)), c)
              for i, c in enumerate(configs)]
    if plot(term, "cpu_vs_load.png", f"Forwarding thread CPU vs load carried ({title})",
            "packets/s received (idle plotted at 1)", "CPU %", 110, series, "linespoints"):
        made.append("cpu_vs_load.png")
    # 2. latency CDF at the lightest load with traffic
    light = next(((s, l) for s, l in steps if l != "idle"), None)
    if light:
        curves = []
        for c in configs:
            f = os.path.join("cdf", f"{light[0]}-{c.replace(':', '_')}.txt")
            if os.path.exists(os.path.join(out, f)) and os.path.getsize(os.path.join(out, f)):
                curves.append((f, c))
        if curves and plot(term, "latency_cdf.png",
                           f"Round-trip latency CDF at {light[1]} ({title})", "round trip, us",
                           "percentile", 100, curves, "lines"):
            made.append("latency_cdf.png")
    # 3. CPU vs p99: the trade-off frontier (loads with traffic, below saturation)
    series = [(write_points(f"plot-front-{i}.dat",
                            [(by[(c, s)]["p99_us"], by[(c, s)]["cpu_pct"]) for s, l in steps
                             if (c, s) in by and l not in ("idle", "max")
                             and num(by[(c, s)]["p99_us"])]), c)
              for i, c in enumerate(configs)]
    if plot(term, "cpu_vs_p99.png", f"CPU vs p99 round trip, every load with traffic ({title})",
            "p99 round trip, us", "CPU %", 110, series, "points pointsize 1.5"):
        made.append("cpu_vs_p99.png")
    return made


def pngcairo():
    try:
        r = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True)
        return "pngcairo" in (r.stdout + r.stderr)
    except OSError:
        return False


lines = table_lines(False)
print("\n".join(lines))
notes, worst = goals()
if notes:
    print()
    print("\n".join(notes))
made = plots()
rapl = any(r["watts"] != "n/a" for r in rows)
cpuidle = any(r["idle_res_pct"] != "n/a" for r in rows)
machine = f"{platform.node()}, {os.cpu_count()} CPUs, Linux {platform.release()}"
with open(os.path.join(out, "report.md"), "w") as f:
    f.write(f"# {title}\n\n")
    f.write(f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')} on {machine}; `{command}`\n\n")
    f.write("Per configuration and load, over the middle of the load: the forwarding thread's CPU "
            "time (/proc), CPU 1's time in idle states other than POLL (cpuidle" +
            ("" if cpuidle else ": not on this machine, so n/a") + "), package watts "
            "(RAPL" + ("" if rapl else ": not on this machine, so n/a") + "), lull's sleeps per "
            "second and average oversleep (lullctl), and lull-gen's round trips and loss.\n\n")
    f.write("\n".join(table_lines(True)) + "\n")
    if notes:
        f.write("\nGoals of the sleeping issue (>= 1 meets the goal):\n\n```\n" + "\n".join(notes) +
                f"\n```\n\nWorst goal ratio: {worst:.3f}\n")
    for p in made:
        f.write(f"\n![{p}]({p})\n")
print(f"\nreport: {out}/report.md, results.csv" + "".join(f", {p}" for p in made))
print(f"worst goal ratio (>= 1.0 meets every goal): {worst:.3f}" if worst is not None else
      "worst goal ratio: n/a (no ovs/rate pair or saturation in this run)")
