# shellcheck shell=bash
# Common helpers for the memcgd build and test harness.

set -euo pipefail

HARNESS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$HARNESS_DIR/../.." && pwd)"
MEMCGD_CACHE="${MEMCGD_CACHE:-/var/cache/memcgd}"
KERNEL_TARBALL="${KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}"
KERNEL_PACKAGE="linux-source-6.12"

log()  { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# Number of parallel jobs for builds.
jobs() { nproc; }

# children_cpu_seconds FILE: sets CHILDREN_CPU to the CPU seconds (user +
# system) of this shell's waited-for children so far, grandchildren included
# (getrusage RUSAGE_CHILDREN, via bash's `times`). Not in a command
# substitution: a subshell's `times` counts only its own children. FILE is
# scratch space.
children_cpu_seconds() {
	times > "$1"
	CHILDREN_CPU="$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } }
		END { printf "%d\n", s }' "$1")"
}

# Print the dpkg version of the kernel source package (part of every cache key).
kernel_source_version() {
	dpkg-query -W -f='${Version}' "$KERNEL_PACKAGE" 2>/dev/null || echo unknown
}

# Hash files (by content, in the given order) plus extra strings.
hash_inputs() {
	{
		for f in "$@"; do
			if [[ -f "$f" ]]; then
				printf 'file %s\n' "$(basename "$f")"
				sha256sum < "$f"
			else
				printf 'str %s\n' "$f"
			fi
		done
	} | sha256sum | cut -c1-16
}

# Patches of the series in application order.
kernel_patches() {	# kernel_patches [DIR]: DIR defaults to kernel-patches/
	find "${1:-$REPO_DIR/kernel-patches}" -maxdepth 1 -name '*.patch' | LC_ALL=C sort
}

# unpack_kernel_tree DIR: a fresh git repository in DIR holding the pristine
# tarball as its first commit, ready for `git am` (the tarball's .gitignore
# ignores every top-level entry: added by force), without automatic gc.
unpack_kernel_tree() {
	local dir="$1"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" --strip-components=1 -xf "$KERNEL_TARBALL"
	(
		cd "$dir"
		export GIT_AUTHOR_NAME=memcgd GIT_AUTHOR_EMAIL=memcgd@localhost
		export GIT_COMMITTER_NAME=memcgd GIT_COMMITTER_EMAIL=memcgd@localhost
		git init -q
		# no `git gc --auto` after git am: it repacks the whole tree in the
		# background, holding the build lock it inherited, for minutes
		git config gc.auto 0
		git add -f . >/dev/null
		git commit -q -m "linux-source $(kernel_source_version)"
	)
}

# The source trees: one extraction of the tarball per kind of source, shared
# by every build of it. tree/src holds the pristine tarball with the series
# applied (the default and debug kernels and the selftests build from it);
# tree/src-pristine holds the tarball alone (the benchmark's baseline). The
# path stays the same when the series changes, so that ccache
# (CCACHE_BASEDIR=tree/) still hits for every file the change did not touch.

# source_kind VARIANT: which source tree a kernel variant builds from.
source_kind() {
	[[ "$1" == pristine ]] && echo pristine || echo series
}

# source_key KIND: hash of what the tree holds (tarball version, patches).
source_key() {
	local -a inputs=()
	[[ "$1" == pristine ]] || mapfile -t inputs < <(kernel_patches)
	inputs+=("source=$(kernel_source_version)" "kind=$1")
	hash_inputs "${inputs[@]}"
}

source_tree_dir() {	# source_tree_dir KIND
	if [[ "$1" == pristine ]]; then
		echo "$MEMCGD_CACHE/tree/src-pristine"
	else
		echo "$MEMCGD_CACHE/tree/src"
	fi
}

# open_source_tree KIND: make sure the shared source tree of KIND is extracted
# with the current series applied, and hold a shared lock on it (file
# descriptor 8, until the calling script exits) so that no other build
# re-extracts it underneath. Sets SRC_TREE. Re-extraction takes the lock
# exclusively, so it waits for builds of an older series to finish.
open_source_tree() {
	local kind="$1" dir key start=$SECONDS
	local -a patches=()
	dir="$(source_tree_dir "$kind")"
	key="$(source_key "$kind")"
	mkdir -p "$MEMCGD_CACHE/tree"
	exec 8>"$dir.lock"
	flock -s 8
	if [[ "$(cat "$dir/.memcgd-source-key" 2>/dev/null)" != "$key" ]]; then
		flock -x 8	# wait until no build uses the old tree
		if [[ "$(cat "$dir/.memcgd-source-key" 2>/dev/null)" != "$key" ]]; then
			[[ "$kind" == pristine ]] || mapfile -t patches < <(kernel_patches)
			log "source tree: extracting $(basename "$KERNEL_TARBALL") into $dir (${#patches[@]} patches)"
			unpack_kernel_tree "$dir"
			if ((${#patches[@]})); then
				(
					cd "$dir"
					export GIT_COMMITTER_NAME=memcgd GIT_COMMITTER_EMAIL=memcgd@localhost
					git am -q --whitespace=error-all "${patches[@]}" >&2 || { git am --abort || true; exit 1; }
				) || { rm -rf "$dir"; die "git am of kernel-patches/ failed"; }
			fi
			echo "$key" > "$dir/.memcgd-source-key"
			log "source tree: ready in $((SECONDS - start)) s"
		fi
		flock -s 8	# back to shared: other builds of this series may start
	fi
	SRC_TREE="$dir"
}

# Kernel cache key for a variant (default, debug or pristine): the series, the
# fragments, build-kernel.sh and lib.sh (the build environment).
kernel_key() {
	local variant="$1"
	local -a inputs
	inputs=()
	# a patch counts by its code (from its first diff on): credits, trailers and message text
	# build the same kernel, so editing them rebuilds nothing
	if [[ "$variant" != pristine ]]; then
		local patch
		while read -r patch; do
			inputs+=("patch $(basename "$patch") $(sed -n '/^diff --git /,$p' "$patch" | sha256sum | cut -c1-64)")
		done < <(kernel_patches)
	fi
	inputs+=("$REPO_DIR/kernel-patches/memcgd.config")
	[[ "$variant" == debug ]] && inputs+=("$REPO_DIR/kernel-patches/debug.config")
	# lib.sh too: it holds the build environment and the fragment check
	inputs+=("$HARNESS_DIR/build-kernel.sh" "$HARNESS_DIR/lib.sh" "source=$(kernel_source_version)" "variant=$variant")
	hash_inputs "${inputs[@]}"
}

kernel_dir() {
	local variant="$1"
	printf '%s/kernel/%s-%s\n' "$MEMCGD_CACHE" "$variant" "$(kernel_key "$variant")"
}

# Compiler flags of every kernel built here. Debug information is there for
# BTF (pahole reads the types from DWARF); variable-location tracking only
# serves debuggers and costs a large share of gcc's time with -g, so it is off
# (as CONFIG_DEBUG_INFO_REDUCED does, which BTF cannot use because it also
# drops the types).
KERNEL_KCFLAGS="-fno-var-tracking -fno-var-tracking-assignments"

# kernel_build_env CCACHE_DIR: the environment of a kernel build: a fixed
# build identity (user, host, time), and ccache in CCACHE_DIR with paths
# relative to tree/, so that a re-extracted source tree still hits.
kernel_build_env() {
	export ARCH=x86_64 KBUILD_BUILD_USER=memcgd KBUILD_BUILD_HOST=memcgd
	export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
	export CCACHE_DIR="$1" CCACHE_BASEDIR="$MEMCGD_CACHE/tree" CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=8G CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
}

# check_config_fragments CONFIG FRAGMENT...: Kconfig drops options whose
# dependencies are missing without a word; die naming each option of a
# fragment that did not survive into CONFIG (after olddefconfig).
check_config_fragments() {
	local config="$1" frag line want got missing=0
	shift
	for frag in "$@"; do
		while IFS= read -r line; do
			if [[ "$line" =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
				want="${BASH_REMATCH[0]}"
				grep -qxF -- "$want" "$config" || {
					got="$(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$config" || echo "absent")"
					log "config: wanted '$want' from $(basename "$frag"), got '$got'"
					missing=1
				}
			elif [[ "$line" =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
				if grep -qE "^${BASH_REMATCH[1]}=" "$config"; then
					log "config: wanted '${BASH_REMATCH[0]}' from $(basename "$frag")"
					missing=1
				fi
			fi
		done < "$frag"
	done
	((missing == 0)) || die "kernel config: fragment options did not survive olddefconfig (see above)"
}

need_root() {
	[[ $EUID -eq 0 ]] || die "this step must run as root (apt, mkosi and loop-free image packing need it)"
}

# --- image and VM helpers (harness) ---

# Cache key of the base guest image: every file under image/ (path, mode and
# content), build-image.sh and the mkosi version.
image_key() {
	{
		(cd "$REPO_DIR/image" && find . -type f -o -type l | LC_ALL=C sort | while IFS= read -r f; do
			printf '%s %s\n' "$f" "$(stat -c %a "$f")"
			if [[ -L "$f" ]]; then readlink "$f"; else sha256sum < "$f"; fi
		done)
		sha256sum < "$HARNESS_DIR/build-image.sh"
		mkosi --version 2>/dev/null || echo "mkosi missing"
	} | sha256sum | cut -c1-16
}

image_dir() {
	printf '%s/image/%s\n' "$MEMCGD_CACHE" "$(image_key)"
}
