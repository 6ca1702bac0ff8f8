#!/bin/bash
# The package test, as root on Debian 12: build the .debs (scripts/package), lay them into a
# signed apt repository in a payload of their own (usr/lib/memcgd/apt/, scripts/apt-repo),
# and boot the guest WITHOUT the meson payload with the VM suite "package" (tests/vm/package/)
# around the e2e suite ($PACKAGE_TESTS of scripts/common.sh): the guest adds the repository as
# a node would (sources file and key), apt installs memcgd and memcgd-tests from it, the
# end-to-end suite of memcgd-tests runs against the installed files (the guest runner expands
# e2e/* only after the install), the Kubernetes example policies run on kubelet-named slices,
# apt upgrades to a newer version from the repository with a policy in force, and
# remove/purge must leave the file list as it was.
#
# The newer version is this build's packages again with the version raised to
# VERSION+pkgtest1 (dpkg-deb -R, the control file's Version:, dpkg-deb -b): the same files, so
# what the upgrade test checks is apt's and the maintainer scripts' upgrade path (restart,
# configuration kept, policy attached again), not a change of code.
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
mkdir -p "$payload/usr/lib/memcgd"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
originals=() upgrades=()
for deb in "$debs"/memcgd_*.deb "$debs"/memcgd-tests_*.deb; do
	[[ -f "$deb" ]] || continue
	originals+=("$deb")
	# the upgrade: the same package, version raised (see above)
	version="$(dpkg-deb --field "$deb" Version)"
	name="$(dpkg-deb --field "$deb" Package)" arch="$(dpkg-deb --field "$deb" Architecture)"
	rm -rf "$work/tree"
	dpkg-deb -R "$deb" "$work/tree"
	sed -i "s/^Version: .*/Version: $version+pkgtest1/" "$work/tree/DEBIAN/control"
	dpkg-deb -b "$work/tree" "$work/${name}_$version+pkgtest1_$arch.deb" >/dev/null ||
		die "could not repack $deb as version $version+pkgtest1"
	upgrades+=("$work/${name}_$version+pkgtest1_$arch.deb")
done
((${#originals[@]} == 2)) || die "expected memcgd_*.deb and memcgd-tests_*.deb in $debs"
repo="$payload/usr/lib/memcgd/apt"
"$SCRIPTS_DIR/apt-repo" --url file:/usr/lib/memcgd/apt "$repo" "${originals[@]}" "${upgrades[@]}" >/dev/null ||
	die "scripts/apt-repo failed"
echo "$version" > "$repo/first-version"	# what package/10-install installs; 40-upgrade goes to the newest
log "package test: payload $payload: apt repository with $(cd "$repo/pool" && find . -name '*.deb' | sort | xargs -n1 basename | tr '\n' ' ')"

# The whole e2e suite plus the package tests: 3649 s on the debug kernel under TCG on
# 2026-12-07 when run-vm.sh's default of 3600 s killed it in package/50-ansible.
# 1 GiB, not the 2 GiB of the kernel suites: e2e/78's writers fill the guest's memory, and a
# page costs about half a millisecond of guest CPU on the debug kernel (78: 540 s with 2 GiB,
# 344 s with 1 GiB); the other tests limit their own slices (MemoryMax=).
exec "$HARNESS_DIR/run-vm.sh" --label package --kernel "$KDIR" --no-payload --payload "$payload" \
	--tests "$tests" --verbose --cpus 2 --memory 1024 --swap 1G --timeout 5400 \
	${run_dir:+--run-dir "$run_dir"}
