#!/usr/bin/env bash
# run.sh FUZZER SECONDS SEEDS: run a libFuzzer target for SECONDS on a scratch
# corpus plus its seeds (libFuzzer writes new inputs into its first corpus
# directory, so the seeds stay as they are), and keep a crashing input in the
# build directory.
set -euo pipefail
fuzzer=$1 secs=$2 seeds=$3
work=$(mktemp -d /tmp/lull-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
exec_dir=$(dirname "$fuzzer")
"$fuzzer" -max_total_time="$secs" -timeout=5 -print_final_stats=1 \
	-artifact_prefix="$exec_dir/" "$work" "$seeds"
