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
# the kernel source package version, every patch of kernel-patches/, the config
# fragments and this script. An unchanged kernel is never rebuilt. Prints the
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
exec 9>"$MEMCGD_CACHE/tree/$variant.lock"
flock 9
if [[ -f "$out/.complete" ]]; then     # built by a concurrent run while we waited
	echo "$out"
	exit 0
fi

tree="$MEMCGD_CACHE/tree/$variant"
start=$SECONDS
log "kernel $variant: building $key (tree $tree)"
rm -rf "$tree.new"	# left by an older version of this script
unpack_kernel_tree "$tree"
cd "$tree"
export GIT_COMMITTER_NAME=memcgd GIT_COMMITTER_EMAIL=memcgd@localhost
patches=()
[[ "$variant" == pristine ]] || mapfile -t patches < <(kernel_patches)
if ((${#patches[@]})); then
	log "applying ${#patches[@]} patches with git am"
	git am -q --whitespace=error-all "${patches[@]}" >&2 || { git am --abort || true; die "git am failed"; }
else
	log "kernel $variant: building the tree without patches"
fi

fragments=("$REPO_DIR/kernel-patches/memcgd.config")
[[ "$variant" == debug ]] && fragments+=("$REPO_DIR/kernel-patches/debug.config")

export ARCH=x86_64
export KBUILD_BUILD_USER=memcgd KBUILD_BUILD_HOST=memcgd
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_VERSION="$key"
export CCACHE_DIR="$MEMCGD_CACHE/ccache" CCACHE_BASEDIR="$tree" CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=8G CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "${fragments[@]}" >/dev/null
sed -i -e "s|^CONFIG_LOCALVERSION=.*|CONFIG_LOCALVERSION=\"-memcgd-$variant\"|" -e "s|^CONFIG_LOCALVERSION_AUTO=y|# CONFIG_LOCALVERSION_AUTO is not set|" .config
make -s olddefconfig >&2

# Kconfig drops options whose dependencies are missing without a word: check.
missing=0
for frag in "${fragments[@]}"; do
	while IFS= read -r line; do
		if [[ "$line" =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			want="${BASH_REMATCH[0]}"
			grep -qxF -- "$want" .config || {
				got="$(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" .config || echo "absent")"
				log "config: wanted '$want' from $(basename "$frag"), got '$got'"
				missing=1
			}
		elif [[ "$line" =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			if grep -qE "^${BASH_REMATCH[1]}=" .config; then
				log "config: wanted '${BASH_REMATCH[0]}' from $(basename "$frag")"
				missing=1
			fi
		fi
	done < "$frag"
done
((missing == 0)) || die "kernel config: fragment options did not survive olddefconfig (see above)"

log "compiling bzImage ($(jobs) jobs, ccache $CCACHE_DIR)"
make -j"$(jobs)" CC="ccache gcc" bzImage >"$tree/build.log" 2>&1 || { tail -40 "$tree/build.log" >&2; die "kernel build failed; log: $tree/build.log"; }
grep -E 'warning:' "$tree/build.log" >&2 || true

log "building tools/lib/bpf and bpftool from the patched tree"
rm -rf "$out.tmp"
mkdir -p "$out.tmp/tools" "$out.tmp/headers"
make -s headers_install INSTALL_HDR_PATH="$out.tmp/headers" >&2
make -s -C tools/lib/bpf -j"$(jobs)" BUILD_STATIC_ONLY=1 prefix=/ \
	DESTDIR="$out.tmp/tools/libbpf" install >"$tree/libbpf.log" 2>&1 \
	|| { tail -30 "$tree/libbpf.log" >&2; die "libbpf build failed"; }
make -s -C tools/bpf/bpftool -j"$(jobs)" >"$tree/bpftool.log" 2>&1 \
	|| { tail -30 "$tree/bpftool.log" >&2; die "bpftool build failed"; }
cp tools/bpf/bpftool/bpftool "$out.tmp/tools/bpftool"
# Link the project statically against this libbpf: drop the shared objects.
rm -f "$out.tmp"/tools/libbpf/lib*/libbpf.so*

cp arch/x86/boot/bzImage vmlinux System.map "$out.tmp/"
cp .config "$out.tmp/config"
objcopy -O binary --only-section=.BTF vmlinux "$out.tmp/vmlinux.btf"
"$out.tmp/tools/bpftool" btf dump file vmlinux format c > "$out.tmp/vmlinux.h"
make -s kernelrelease > "$out.tmp/release"
readelf -n vmlinux | awk '/Build ID/ {print $3; exit}' > "$out.tmp/build-id"
[[ -s "$out.tmp/build-id" ]] || die "vmlinux has no GNU build id"
echo "$key" > "$out.tmp/key"
echo $((SECONDS - start)) > "$out.tmp/build-seconds"
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
log "kernel $variant: built in $((SECONDS - start)) s -> $out"
echo "$out"
