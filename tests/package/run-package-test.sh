#!/bin/bash
# The package test, as root on Debian 12: build the .debs (scripts/package), lay them into a
# payload of their own (usr/lib/memcgd/debs/), and boot the guest WITHOUT the meson payload
# with the VM suite "package" (tests/vm/package/) around the e2e suite ($PACKAGE_TESTS of
# scripts/common.sh): apt installs memcgd and memcgd-tests, the end-to-end suite of
# memcgd-tests runs against the installed files (the guest runner expands e2e/* only after
# the install), the Kubernetes example policies run on kubelet-named slices, and
# remove/purge must leave the file list as it was.
#
# usage: tests/package/run-package-test.sh [--kernel KDIR] [--debs DIR] [--run-dir DIR] [--tests LIST]
#   --kernel KDIR   boot (and build the packages against) this build-kernel.sh output directory
#                   (default: `build-kernel.sh default`, built when missing)
#   --debs DIR      use the .debs already in DIR (skip scripts/package)
#   --run-dir DIR   where run-vm.sh writes its logs (default $MEMCGD_CACHE/runs/<time>-package)
#   --tests LIST    run-vm.sh's test patterns instead of $PACKAGE_TESTS (keep package/10-install
#                   first and package/90-purge last: the others need the installed packages)
# Exits 0 only when every test of the boot passed (run-vm.sh's verdict).
source "$(dirname "$0")/../../scripts/common.sh"

debs="" run_dir="" kdir="" tests="$PACKAGE_TESTS"
while (($#)); do
	case "$1" in
	--kernel) kdir="$2"; shift ;;
	--debs) debs="$2"; shift ;;
	--run-dir) run_dir="$2"; shift ;;
	--tests) tests="$2"; shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "run-package-test.sh: unknown option '$1' (see --help)" ;;
	esac
	shift
done
need_root

if [[ -n "$kdir" ]]; then
	[[ -f "$kdir/bzImage" ]] || die "--kernel $kdir: not a build-kernel.sh output directory"
	KDIR="$(realpath "$kdir")"
	"$HARNESS_DIR/build-image.sh" >/dev/null || die "image build failed"
else
	build_kernel_and_image default || die "kernel or image build failed"
fi
if [[ -z "$debs" ]]; then
	debs="$("$SCRIPTS_DIR/package" --kernel "$KDIR" | tail -n 1)" || die "scripts/package failed"
fi
payload="$MEMCGD_CACHE/stage/package"
rm -rf "$payload"
mkdir -p "$payload/usr/lib/memcgd/debs"
n=0
for deb in "$debs"/memcgd_*.deb "$debs"/memcgd-tests_*.deb; do
	[[ -f "$deb" ]] || continue
	cp "$deb" "$payload/usr/lib/memcgd/debs/"
	n=$((n + 1))
done
((n == 2)) || die "expected memcgd_*.deb and memcgd-tests_*.deb in $debs"
log "package test: payload $payload: $(cd "$payload/usr/lib/memcgd/debs" && echo *)"

exec "$HARNESS_DIR/run-vm.sh" --label package --kernel "$KDIR" --no-payload --payload "$payload" \
	--tests "$tests" --verbose --cpus 2 --memory 2048 --swap 1G \
	${run_dir:+--run-dir "$run_dir"}
