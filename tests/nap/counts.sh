#!/usr/bin/env bash
# The attached engine's counts are exact whatever the load (tests/nap/counts.c):
# saturated stretches, partial bursts and empty rounds, drawn at random.
# Usage: counts.sh PROGRAM
set -euo pipefail
prog=$1
out=$("$prog" --no-huge -m 64 --no-pci --file-prefix="nap-counts-$$" -l 0 \
	--log-level=lib.eal:error 2>&1) || {
	rc=$?
	echo "$out"
	echo "FAIL: $prog: exit $rc: the counts above differ from what was polled"
	exit 1
}
echo "$out"
echo PASS
