#!/bin/bash
# The kernel package test, as root on Debian 12: boot the guest on the kernel INSIDE the
# linux-image .deb of scripts/package-linux-image (Debian's cloud configuration plus the
# series), with memcgd's meson payload and the .debs laid into the image at
# /usr/lib/memcgd/linux-image/; in the guest, the VM suite linux-image installs the package
# on the running system, loads one of its modules and purges it (the file list must come out
# as it was), and memcgd's end-to-end tests that attach and protect slices run on that kernel.
#
# usage: tests/package/run-linux-image-test.sh [--linux-image DIR] [--run-dir DIR]
#   --linux-image DIR  a scripts/package-linux-image output directory (default: build or
#                      reuse it: 60-90 min the first time)
#   --run-dir DIR      where run-vm.sh writes its logs (default $MEMCGD_CACHE/runs/<time>-linux-image)
# memcgd itself is built against the kernel scripts/test uses (MEMCGD_TEST_KERNEL, default
# debug: its libbpf and vmlinux.h; the BPF programs are CO-RE and relocate to the packaged
# kernel's BTF at load). Exits 0 only when every test of the boot passed.
source "$(dirname "$0")/../../scripts/common.sh"

pkgdir="" run_dir=""
while (($#)); do
	case "$1" in
	--linux-image) pkgdir="$2"; shift ;;
	--run-dir) run_dir="$2"; shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "run-linux-image-test.sh: unknown option '$1' (see --help)" ;;
	esac
	shift
done
need_root
if [[ -z "$pkgdir" ]]; then
	pkgdir="$("$SCRIPTS_DIR/package-linux-image" | tail -n 1)" || die "scripts/package-linux-image failed"
fi
[[ -f "$pkgdir/.complete" && -s "$pkgdir/release" ]] || die "--linux-image $pkgdir: not a scripts/package-linux-image output directory"
release="$(cat "$pkgdir/release")"
deb="$(ls "$pkgdir"/linux-image-"$release"_*.deb)" || die "$pkgdir has no linux-image-${release}_*.deb"

LOG_DIR="$MEMCGD_CACHE/runs/$(date +%Y%m%d-%H%M%S)-linux-image-build"
mkdir -p "$LOG_DIR"
build_kernel_and_image "${MEMCGD_TEST_KERNEL:-debug}" || die "kernel or image build failed"
build_release || die "meson release build failed"

# A kernel directory as run-vm.sh wants it, made from the package alone: the vmlinuz the
# .deb installs, the release, the build version of `uname -v` (the package revision:
# debian/rules passes it as KBUILD_BUILD_VERSION) and the GNU build id read out of it.
kdir="$MEMCGD_CACHE/stage/linux-image-kernel"
stage="$MEMCGD_CACHE/stage/linux-image"
rm -rf "$kdir" "$stage"
mkdir -p "$kdir" "$stage/usr/lib/memcgd/linux-image"
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./boot/vmlinuz-$release" > "$kdir/bzImage" \
	|| die "$deb has no ./boot/vmlinuz-$release"
echo "$release" > "$kdir/release"
version="$(dpkg-deb -f "$deb" Version)"
echo "${version##*-}" > "$kdir/key"
open_source_tree series
"$SRC_TREE/scripts/extract-vmlinux" "$kdir/bzImage" > "$kdir/vmlinux" || die "extract-vmlinux failed on the package's vmlinuz"
readelf -n "$kdir/vmlinux" | awk '/Build ID/ {print $3; exit}' > "$kdir/build-id"
rm -f "$kdir/vmlinux"
[[ -s "$kdir/build-id" ]] || die "the package's kernel has no GNU build id"
cp "$deb" "$stage/usr/lib/memcgd/linux-image/"
log "linux-image test: $(basename "$deb"), release $release, build id $(cat "$kdir/build-id")"

exec "$HARNESS_DIR/run-vm.sh" --label linux-image --kernel "$kdir" \
	--payload "$STAGE_RELEASE" --payload "$stage" \
	--tests "linux-image/*,$LINUX_IMAGE_E2E_TESTS" --verbose --cpus 2 --memory 2048 --swap 1G \
	${run_dir:+--run-dir "$run_dir"}
