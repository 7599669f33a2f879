#!/usr/bin/env bash
# The Debian package (issue 17): `make deb` builds lull_<version>_amd64.deb
# (lintian: no error); installed with dpkg (apt-get -f for what it depends on),
# every program answers --help and --version from /usr/bin, the man pages are
# where man finds them, the sleep engine's example program builds against the
# installed pkg-config file and sleeps, the preload module loads into
# testpmd; then it is purged and nothing of it is left.
# Usage: deb.sh VERSION
set -euo pipefail
version=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d /tmp/lull-debtest.XXXXXX)
trap 'dpkg -s lull >/dev/null 2>&1 && [ -n "${installed:-}" ] && dpkg --purge lull >/dev/null; rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if dpkg -s lull >/dev/null 2>&1; then
	echo "a lull package is installed on this machine already: not touching it"
	exit 77 # meson: skipped
fi
"$root/scripts/make-deb.sh" "$out" >"$out/make.log" 2>&1 || fail "make deb: $(tail -n 20 "$out/make.log")"
deb="$out/lull_${version}_amd64.deb"
[ -f "$deb" ] || fail "no $deb: $(ls "$out")"
installed=1
dpkg -i "$deb" >"$out/dpkg.log" 2>&1 ||
	DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >>"$out/dpkg.log" 2>&1 ||
	fail "dpkg -i: $(tail -n 20 "$out/dpkg.log")"
dpkg -s lull | grep -q "^Status: install ok installed" || fail "not installed: $(tail "$out/dpkg.log")"
for cmd in "lull -- --help" "lull-gen -- --help" "lullctl --help" "lull-sim --help"; do
	# shellcheck disable=SC2086
	/usr/bin/$cmd >"$out/help.txt" 2>&1 || fail "/usr/bin/$cmd: exit $?"
	grep -q "^Usage: " "$out/help.txt" || fail "/usr/bin/$cmd: $(head -n 3 "$out/help.txt")"
done
for p in lull lull-gen lullctl lull-sim; do
	"/usr/bin/$p" --version | grep -q "^$p $version" || fail "$p --version: $("/usr/bin/$p" --version)"
done
for page in lull.8 lull-gen.8 lullctl.8 lull-sim.1; do
	man -w "${page%.*}" >/dev/null 2>&1 || fail "man does not find ${page%.*}"
done
# the sleep engine: its example built against the installed headers, library
# and pkg-config file, run on a net_null port (it sleeps at idle)
# shellcheck disable=SC2046 # pkg-config prints several words
cc -Wall -Werror -o "$out/nap_example" "$root/tests/nap/example.c" \
	$(pkg-config --cflags --libs lullnap) >"$out/cc.log" 2>&1 ||
	fail "the engine's example against the package: $(tail -n 20 "$out/cc.log")"
# (read whole first: the loader writes a line at a time, and under pipefail a
# grep -q that leaves after the first match fails ldd with SIGPIPE)
libs=$(ldd "$out/nap_example")
grep -Eq "liblullnap.so.0 => (/usr)?/lib/" <<<"$libs" ||
	fail "the example does not link the installed liblullnap: $libs"
bash "$root/tests/nap/example.sh" "$out/nap_example" || fail "the engine's example"
# lull inside an unmodified program: the preload module where docs/inside.md says
pre=$(dpkg -L lull | grep '/lull/lullnap-preload.so$') || fail "no lullnap-preload.so in the package"
LD_PRELOAD=$pre LULL_OPTS=--help dpdk-testpmd >"$out/pre.txt" 2>&1 || fail "LULL_OPTS=--help: exit $?"
grep -q -- "--latency-budget-us" "$out/pre.txt" || fail "LULL_OPTS=--help: $(head -n 3 "$out/pre.txt")"
echo "installed: $(dpkg -L lull | grep -c .) paths; every program answers --help and --version $version"
dpkg --purge lull >/dev/null || fail "dpkg --purge"
installed=""
for p in lull lull-gen lullctl lull-sim; do
	[ ! -e "/usr/bin/$p" ] || fail "/usr/bin/$p left after purge"
done
echo PASS
