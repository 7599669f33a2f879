#!/usr/bin/env bash
# make deb: build lull_<version>_amd64.deb with debhelper (debian/) from the
# files git tracks, as they are in the work tree, in a scratch copy (the tree
# stays clean); the package lands in OUTDIR (default dist/). Checks that
# debian/changelog and meson.build name the same version, and runs lintian
# (fails on an error).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-dist}")
meson_v=$(sed -n "s/^\tversion: '\(.*\)',$/\1/p" meson.build)
deb_v=$(dpkg-parsechangelog -S Version)
[ "$meson_v" = "$deb_v" ] || {
	echo "make deb: meson.build says $meson_v, debian/changelog $deb_v" >&2
	exit 1
}
scratch=$(mktemp -d /tmp/lull-deb.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lull-$meson_v" "$out"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$scratch/lull-$meson_v"
(cd "$scratch/lull-$meson_v" && dpkg-buildpackage -us -uc -b >"$scratch/build.log" 2>&1) || {
	tail -n 40 "$scratch/build.log" >&2
	exit 1
}
deb="lull_${meson_v}_amd64.deb"
cp "$scratch/$deb" "$out/"
lintian --fail-on error "$out/$deb" | tee "$out/lintian.txt"
echo "make deb: $out/$deb ($(du -k "$out/$deb" | cut -f1) kB)"
