#!/usr/bin/env bash
# The sleep engine's example program (tests/nap/example.c) on a net_null port
# that receives nothing: a polling thread driven by the engine sleeps at idle.
# Usage: example.sh PROGRAM (built in the tree here; deb.sh builds it against
# the installed package with pkg-config).
set -euo pipefail
prog=$1
out=$("$prog" --no-huge -m 64 --no-pci --file-prefix="nap-example-$$" -l 0 \
	--vdev net_null0,no-rx=1 --log-level=lib.eal:error 2>&1) || {
	echo "FAIL: $prog: exit $?: $out"
	exit 1
}
echo "$out"
sleeps=$(sed -n 's/^sleeps \([0-9]*\),.*/\1/p' <<<"$out")
[ -n "$sleeps" ] || { echo "FAIL: no 'sleeps N' line"; exit 1; }
[ "$sleeps" -gt 0 ] || { echo "FAIL: the engine never slept at idle"; exit 1; }
echo PASS
