#!/usr/bin/env bash
# make run: what lull is for, in about two minutes. lull forwards between two
# memif ports (its PMD on CPU 1) while lull-gen (CPU 0) offers the same load
# profile twice - idle, light (10 kpps), moderate (100 kpps), heavy (1 Mpps),
# bursts (1000 packets every 100 ms), idle - first with busy polling
# (--sleep-policy off), then with lull's default power saving (rate). Prints one
# table (CPU %, idle-state residency, watts where RAPL exists, latency, loss)
# and writes the report (markdown, CSV, PNG plots) to the folder it names.
# Ctrl-C stops it and cleans up everything it started.
#   SECS=N (default 8) seconds per load; OUT=DIR for the report.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export CONFIGS="off rate"
export LOADS="idle rate:10k rate:100k rate:1M burst:1000/100ms idle"
export TITLE="make run: busy polling (off) against lull's default power saving (rate)"
export CMD="make run"
export OUT=${OUT:-$here/bench/out/run-$(date +%Y%m%d-%H%M%S)}
exec "$here/bench/report" "${SECS:-8}"
