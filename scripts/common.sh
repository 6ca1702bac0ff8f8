# shellcheck shell=bash
# Stages shared by scripts/test and scripts/demo: build what is missing
# (kernel and base image in parallel, the project with meson) and boot.

set -euo pipefail

SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPTS_DIR/../tests/harness/lib.sh"
JOBS="${MEMCGD_JOBS:-$(nproc)}"
STAGE_RELEASE="$MEMCGD_CACHE/stage/release"

declare -a STAGE_TIMES=()
stage_time() {	# stage_time NAME SECONDS
	STAGE_TIMES+=("$(printf '%-34s %5d s' "$1" "$2")")
}

# build_kernel_and_image VARIANT: sets KDIR and BASE_ROOT. The kernel build
# (CPU) and the image build (mostly I/O) run in parallel.
build_kernel_and_image() {
	local variant="$1" tmp kpid ipid krc=0 irc=0 start=$SECONDS
	tmp="$(mktemp -d)"
	"$HARNESS_DIR/build-kernel.sh" "$variant" >"$tmp/kdir" 2> >(sed -u 's/^/  kernel: /' >&2) &
	kpid=$!
	"$HARNESS_DIR/build-image.sh" >"$tmp/image" 2> >(sed -u 's/^/  image: /' >&2) &
	ipid=$!
	wait "$ipid" || irc=$?
	local image_s=$((SECONDS - start))
	wait "$kpid" || krc=$?
	local kernel_s=$((SECONDS - start))
	sleep 0.2	# let the log prefixers drain
	((krc == 0)) || { rm -rf "$tmp"; log "kernel $variant build failed (exit $krc)"; return 1; }
	((irc == 0)) || { rm -rf "$tmp"; log "image build failed (exit $irc)"; return 1; }
	KDIR="$(tail -n 1 "$tmp/kdir")" BASE_ROOT="$(tail -n 1 "$tmp/image")"
	rm -rf "$tmp"
	stage_time "kernel $variant (build or reuse)" "$kernel_s"
	stage_time "base image (build or reuse)" "$image_s"
}

# meson_setup BUILDDIR ARGS...: configure, reconfiguring an existing dir.
meson_setup() {
	local dir="$1"
	shift
	if [[ -f "$dir/build.ninja" ]]; then
		meson setup --reconfigure "$dir" "$@"
	else
		rm -rf "$dir"
		meson setup "$dir" "$@"
	fi
}

# build_release: meson release build installed into $STAGE_RELEASE (the guest
# payload). Returns 2 when the project has no meson.build yet.
build_release() {
	[[ -f "$REPO_DIR/meson.build" ]] || return 2
	local start=$SECONDS
	log "project: meson release build (build/release, incremental) -> $STAGE_RELEASE"
	(
		cd "$REPO_DIR"
		meson_setup build/release -Dkernel_dir="$KDIR" --buildtype=release
		meson compile -C build/release -j "$JOBS"
		rm -rf "$STAGE_RELEASE"
		DESTDIR="$STAGE_RELEASE" meson install -C build/release --no-rebuild --quiet
	) > "$LOG_DIR/release-build.log" 2>&1 || {
		tail -n 40 "$LOG_DIR/release-build.log" | sed 's/^/    /' >&2
		log "meson release build failed; full log: $LOG_DIR/release-build.log"
		return 1
	}
	stage_time "meson release build + install" $((SECONDS - start))
}

# stage_selftests: build (or reuse) the series' test_progs for $KDIR and put
# it into the payload at /usr/lib/memcgd/bpf-selftests/ (run by the VM suite
# selftests). Returns 2 when kernel-patches/ has no series.
stage_selftests() {
	local dir
	[[ -n "$(kernel_patches)" ]] || return 2
	dir="$("$HARNESS_DIR/build-selftests.sh" "$KDIR" 2> >(sed -u 's/^/  selftests: /' >&2))" || return 1
	mkdir -p "$STAGE_RELEASE/usr/lib/memcgd/bpf-selftests"
	cp "$dir/test_progs" "$STAGE_RELEASE/usr/lib/memcgd/bpf-selftests/"
}

# vm_suites_present DIR...: the VM suites that have at least one test in the
# given payload trees (usr/lib/memcgd/tests/<suite>) or in tests/vm.
vm_suite_present() {	# vm_suite_present SUITE
	local suite="$1" d f
	for d in "$STAGE_RELEASE/usr/lib/memcgd/tests/$suite" "$REPO_DIR/tests/vm/$suite"; do
		for f in "$d"/*; do
			[[ -f "$f" && -x "$f" ]] && return 0
		done
	done
	return 1
}

payload_args() {	# payload_args: run-vm.sh options for the staged payload
	if [[ -d "$STAGE_RELEASE" ]]; then
		echo "--payload $STAGE_RELEASE"
	else
		echo "--no-payload"
	fi
}

# The boot of the installed packages (tests/package/run-package-test.sh and
# scripts/test): install the .debs, the e2e suite as memcgd-tests installed
# it, the Kubernetes example policies, remove and purge.
PACKAGE_TESTS='package/10-*,e2e/*,package/30-*,package/40-*,package/50-*,package/90-*'

# memcgd's end-to-end tests on the kernel of the linux-image package
# (tests/package/run-linux-image-test.sh): start and status, a slice's whole life with its
# attachment, and protection at work under memory pressure.
LINUX_IMAGE_E2E_TESTS='e2e/10-start-status,e2e/20-slice-lifecycle,e2e/65-protect'
