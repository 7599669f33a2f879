#!/usr/bin/env bash
# run.sh FUZZER SECONDS: run a libFuzzer target for SECONDS on a scratch copy of
# its seed corpus (libFuzzer writes new inputs into its first corpus directory),
# and keep a crashing input in the build directory.
set -euo pipefail
fuzzer=$1 secs=$2
seeds="$(dirname "$0")/corpus"
work=$(mktemp -d /tmp/lull-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
exec_dir=$(dirname "$fuzzer")
"$fuzzer" -max_total_time="$secs" -timeout=5 -print_final_stats=1 \
	-artifact_prefix="$exec_dir/" "$work" "$seeds"
