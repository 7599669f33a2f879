#!/usr/bin/env bash
# The man pages (help2man, from --help): each renders with man -l without a
# troff warning, has NAME, SYNOPSIS and its program's options, and says the
# version meson gave. Usage: man.sh VERSION PAGE...
set -euo pipefail
version=$1
shift
command -v man >/dev/null || { echo "man is missing (make deps)"; exit 1; }
declare -A must=([lull]="--sleep-policy" [lull-gen]="--profile" [lullctl]="serve-metrics"
	[lull-sim]="--preset")
for page in "$@"; do
	name=$(basename "$page")
	name=${name%.*}
	text=$(MANWIDTH=80 man --warnings -l "$page" 2>"$page.warn")
	[ ! -s "$page.warn" ] || { echo "FAIL: $page: $(cat "$page.warn")"; exit 1; }
	for want in NAME SYNOPSIS "${must[$name]}" "$version"; do
		grep -qF -- "$want" <<<"$text" || { echo "FAIL: $page: no '$want'"; exit 1; }
	done
	echo "$page: renders without warnings, $(wc -l <<<"$text") lines"
done
echo PASS
