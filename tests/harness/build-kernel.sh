#!/bin/bash
# Build the patched Linux 6.12 kernel for the memcgd guest, cached by content.
#
# usage: build-kernel.sh [default|debug|pristine]
#
#   default   the patch series with kernel-patches/memcgd.config
#   debug     the same plus kernel-patches/debug.config (lockdep, KASAN, ...)
#   pristine  Debian's 6.12 without the series, same config as default: the
#             baseline of the benchmarks (scripts/bench, P4)
#
# The result lives in $MEMCGD_CACHE/kernel/<variant>-<key>/ where <key> hashes
# the kernel source package version, the code of every patch of kernel-patches/
# (from its first diff on: message and credits edits rebuild nothing), the config
# fragments, this script and lib.sh (the build environment). An unchanged
# kernel is never rebuilt. Prints the
# output directory on stdout.
#
# Output directory contents:
#   bzImage vmlinux vmlinux.btf vmlinux.h config System.map
#   build-id          GNU build id of vmlinux (hex), also in the guest's /sys/kernel/notes
#   release           `uname -r` of the kernel
#   headers/          UAPI headers (make headers_install)
#   tools/            libbpf (static, headers) and bpftool built from the patched tree

source "$(dirname "$0")/lib.sh"

variant="${1:-default}"
case "$variant" in default|debug|pristine) ;; *) die "unknown kernel variant '$variant' (expected default, debug or pristine)";; esac

out="$(kernel_dir "$variant")"
key="$(basename "$out")"
if [[ -f "$out/.complete" ]]; then
	log "kernel $variant: reusing cached build $out"
	echo "$out"
	exit 0
fi

if [[ ! -f "$KERNEL_TARBALL" ]]; then
	need_root
	log "installing $KERNEL_PACKAGE"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$KERNEL_PACKAGE" >&2
fi

mkdir -p "$MEMCGD_CACHE/tree" "$MEMCGD_CACHE/kernel" "$MEMCGD_CACHE/ccache"
exec 9>"$MEMCGD_CACHE/tree/build-$variant.lock"
flock 9
if [[ -f "$out/.complete" ]]; then     # built by a concurrent run while we waited
	echo "$out"
	exit 0
fi

start=$SECONDS
open_source_tree "$(source_kind "$variant")"	# sets SRC_TREE, shared lock until exit
src="$SRC_TREE"
build="$MEMCGD_CACHE/tree/build-$variant"
log "kernel $variant: building $key (source $src, objects $build)"
# Objects of an older series or configuration are not reused: ccache makes
# the rebuild cheap, and a clean objtree cannot carry stale state.
rm -rf "$build"
mkdir -p "$build"

fragments=("$REPO_DIR/kernel-patches/memcgd.config")
[[ "$variant" == debug ]] && fragments+=("$REPO_DIR/kernel-patches/debug.config")

kernel_build_env "$MEMCGD_CACHE/ccache"
export KBUILD_BUILD_VERSION="$key"
kmake() { make -C "$src" O="$build" "$@"; }

kmake -s tinyconfig >&2
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${fragments[@]}" >/dev/null
sed -i -e "s|^CONFIG_LOCALVERSION=.*|CONFIG_LOCALVERSION=\"-memcgd-$variant\"|" -e "s|^CONFIG_LOCALVERSION_AUTO=y|# CONFIG_LOCALVERSION_AUTO is not set|" "$build/.config"
kmake -s olddefconfig >&2
cd "$build"

check_config_fragments .config "${fragments[@]}"

# libbpf and bpftool's bootstrap do not depend on the kernel's configuration:
# build them beside bzImage, so that they fill the single-threaded end of the
# kernel build (vmlinux link, BTF, kallsyms) instead of following it. The
# full bpftool follows the kernel, because its own BPF skeletons are compiled
# against this kernel's BTF (VMLINUX_BTF).
rm -rf "$out.tmp"
mkdir -p "$out.tmp/tools" "$out.tmp/headers" "$build/tools-out/libbpf" "$build/tools-out/bpftool"
bpftool_make() { make -s -C "$src/tools/bpf/bpftool" -j"$(jobs)" OUTPUT="$build/tools-out/bpftool/" "$@"; }
build_tools() {
	make -s -C "$src/tools/lib/bpf" -j"$(jobs)" OUTPUT="$build/tools-out/libbpf/" \
		BUILD_STATIC_ONLY=1 prefix=/ DESTDIR="$out.tmp/tools/libbpf" install \
		>"$build/libbpf.log" 2>&1 || { tail -30 "$build/libbpf.log" >&2; log "libbpf build failed"; return 1; }
	bpftool_make bootstrap >"$build/bpftool.log" 2>&1 \
		|| { tail -30 "$build/bpftool.log" >&2; log "bpftool bootstrap build failed"; return 1; }
}
log "building tools/lib/bpf and bpftool's bootstrap from the patched tree (in the background)"
build_tools &
tools_pid=$!

log "compiling bzImage ($(jobs) jobs, ccache $CCACHE_DIR, KCFLAGS=$KERNEL_KCFLAGS)"
kmake -j"$(jobs)" CC="ccache gcc" KCFLAGS="$KERNEL_KCFLAGS" bzImage >"$build/build.log" 2>&1 \
	|| { kill "$tools_pid" 2>/dev/null; tail -40 "$build/build.log" >&2; die "kernel build failed; log: $build/build.log"; }
grep -E 'warning:' "$build/build.log" >&2 || true
wait "$tools_pid" || die "libbpf or bpftool build failed (logs in $build)"
bpftool_make VMLINUX_BTF="$build/vmlinux" >>"$build/bpftool.log" 2>&1 \
	|| { tail -30 "$build/bpftool.log" >&2; die "bpftool build failed"; }
kmake -s headers_install INSTALL_HDR_PATH="$out.tmp/headers" >&2
cp "$build/tools-out/bpftool/bpftool" "$out.tmp/tools/bpftool"
# Link the project statically against this libbpf: drop the shared objects.
rm -f "$out.tmp"/tools/libbpf/lib*/libbpf.so*

cp arch/x86/boot/bzImage vmlinux System.map "$out.tmp/"
cp .config "$out.tmp/config"
objcopy -O binary --only-section=.BTF vmlinux "$out.tmp/vmlinux.btf"
"$out.tmp/tools/bpftool" btf dump file vmlinux format c > "$out.tmp/vmlinux.h"
kmake -s kernelrelease > "$out.tmp/release"
readelf -n vmlinux | awk '/Build ID/ {print $3; exit}' > "$out.tmp/build-id"
[[ -s "$out.tmp/build-id" ]] || die "vmlinux has no GNU build id"
echo "$key" > "$out.tmp/key"
echo $((SECONDS - start)) > "$out.tmp/build-seconds"
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
log "kernel $variant: built in $((SECONDS - start)) s -> $out"
echo "$out"
