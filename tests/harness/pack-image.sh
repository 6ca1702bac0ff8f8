#!/bin/bash
# Pack a bootable raw ext4 root image: the cached base tree plus payloads.
#
# usage: pack-image.sh OUT.raw BASE_ROOT [PAYLOAD_DIR...]
#
# BASE_ROOT (from build-image.sh) is hard-linked into a staging tree (fast,
# and the base is never modified: tar unlinks each file before it writes
# it); each PAYLOAD_DIR (a meson install DESTDIR, the harness guest files,
# the VM test suites) is laid over it in order, owned by root, keeping the
# base's directory symlinks (/bin -> usr/bin). The harness units are enabled
# as a package's postinst would, and mkfs.ext4 -d writes the tree into
# OUT.raw (no loop device, no root mount needed). The image has free space
# for the tests (MEMCGD_IMAGE_FREE_MB, default 1024).

source "$(dirname "$0")/lib.sh"

(($# >= 2)) || die "usage: pack-image.sh OUT.raw BASE_ROOT [PAYLOAD_DIR...]"
out="$1" base="$2"
shift 2
[[ -x "$base/usr/lib/systemd/systemd" ]] || die "$base is not a base image root (run tests/harness/build-image.sh)"

stage="$(mktemp -d "$(realpath "$base/../..")/stage.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
rmdir "$stage"
cp -al "$base" "$stage"
for payload in "$@"; do
	[[ -d "$payload" ]] || die "payload directory $payload does not exist"
	for top in "$payload"/*; do
		[[ -e "$top" ]] || continue
		case "$(basename "$top")" in
		usr|etc|var|opt|srv) ;;
		*) die "payload $payload has top-level '$(basename "$top")': only usr, etc, var, opt and srv are allowed" ;;
		esac
	done
	tar --owner=0 --group=0 -C "$payload" -cf - . |
		tar -C "$stage" -xf - --keep-directory-symlink --no-overwrite-dir
done

# Create the system users the payloads declare (sysusers.d), as a package's postinst would
# (systemd-sysusers writes /etc/passwd and friends through a rename: the base stays intact).
sysusers=()
for payload in "$@"; do
	for f in "$payload"/usr/lib/sysusers.d/*.conf; do
		[[ -f "$f" ]] && sysusers+=("$(basename "$f")")
	done
done
if ((${#sysusers[@]})); then
	systemd-sysusers --root="$stage" "${sysusers[@]}" || die "systemd-sysusers --root=$stage ${sysusers[*]} failed"
fi

# Enable what the payload ships for the harness, as a package would.
units=()
for unit in memcgd-vm-tests.service memcgd-swap.service; do
	[[ -f "$stage/usr/lib/systemd/system/$unit" ]] && units+=("$unit")
done
((${#units[@]} == 0)) || systemctl --root="$stage" --quiet enable "${units[@]}"

used_mb=$(( $(du -sm "$stage" | cut -f1) ))
size_mb=$(( used_mb + used_mb / 5 + ${MEMCGD_IMAGE_FREE_MB:-1024} ))
rm -f "$out"
mkfs.ext4 -q -F -L memcgd-root -E root_owner=0:0 -d "$stage" "$out" "${size_mb}M" | { grep -v "^Creating regular file" >&2 || true; } \
	|| die "mkfs.ext4 -d failed for $out"
log "packed $out (${used_mb} MiB used, ${size_mb} MiB file system)"
