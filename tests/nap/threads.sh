#!/usr/bin/env bash
# More polling threads than the attached engine's table (tests/nap/threads.c):
# the two past it poll without lull and each says so once, not at every poll.
# Usage: threads.sh PROGRAM
set -euo pipefail
prog=$1
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$("$prog" --no-huge -m 64 --no-pci --file-prefix="nap-threads-$$" -l 0 \
	--log-level=lib.eal:error 2>"$err") || {
	echo "FAIL: $prog: exit $?: $out"
	cat "$err"
	exit 1
}
echo "$out"
cat "$err"
said=$(grep -c "polls without lull: more than [0-9]* threads poll" "$err" || true)
[ "$said" = 2 ] || { echo "FAIL: want 2 'polls without lull' lines (one per thread past the table), have $said"; exit 1; }
echo PASS
