#!/bin/bash
# Build the base guest root file system with mkosi, cached by content.
#
# usage: build-image.sh
#
# The tree lives in $MEMCGD_CACHE/image/<key>/root where <key> hashes every
# file of image/ (names, modes, contents), this script and the mkosi version.
# An unchanged configuration is never rebuilt. Prints the root directory on
# stdout. The project payload is not part of it: see pack-image.sh.

source "$(dirname "$0")/lib.sh"

need_root
command -v mkosi >/dev/null || die "mkosi is not installed (scripts/install-deps installs it)"

out="$(image_dir)"
if [[ -f "$out/.complete" ]]; then
	log "image: reusing cached base image $out"
	echo "$out/root"
	exit 0
fi

mkdir -p "$MEMCGD_CACHE/image" "$MEMCGD_CACHE/mkosi-packages"
exec 8>"$MEMCGD_CACHE/image/.lock"
flock 8
if [[ -f "$out/.complete" ]]; then     # built by a concurrent run while we waited
	echo "$out/root"
	exit 0
fi

start=$SECONDS
log "image: building base image $(basename "$out") with $(mkosi --version) (log: $out.log)"
rm -rf "$out"
mkdir -p "$out"
# mkosi 14 refuses to run when the output exists; it also writes a manifest
# beside the output.
if ! mkosi -C "$REPO_DIR/image" --force \
	--cache="$MEMCGD_CACHE/mkosi-packages" \
	--output="$out/root" build >"$out.log" 2>&1; then
	tail -40 "$out.log" >&2
	die "mkosi failed; full log: $out.log"
fi
[[ -x "$out/root/usr/lib/systemd/systemd" ]] || die "mkosi produced no systemd in $out/root"
mv "$out.log" "$out/build.log"
echo $((SECONDS - start)) > "$out/build-seconds"
touch "$out/.complete"
# Keep this image and the one built before it; older ones are dead weight.
ls -dt "$MEMCGD_CACHE"/image/[0-9a-f]*/ 2>/dev/null | tail -n +3 | while read -r old; do
	[[ "$old" -ef "$out" ]] || { log "image: removing old base image $old"; rm -rf "$old"; }
done
log "image: built in $((SECONDS - start)) s -> $out"
echo "$out/root"
