#!/bin/bash
# Build the series' own BPF selftest (test_progs -t memcg_ops) for the guest.
#
# usage: build-selftests.sh KERNEL_DIR
#
# KERNEL_DIR is a build-kernel.sh output of the patched series (its vmlinux
# gives the BTF the BPF programs are compiled against). The result lives in
# $MEMCGD_CACHE/selftests/<key>/ (key: the kernel's key and this script) and
# holds test_progs; the directory is printed on stdout. Cached like kernels.
#
# Why only memcg_ops: the full test_progs compiles ~700 BPF programs that
# need the kernel options of tools/testing/selftests/bpf/config (IPv6,
# netfilter, LSM, ... - progs/bpf_iter_tcp6.c is the first to fail against
# the guest's BTF) and links bpf_testmod.ko. The guest kernel has neither.
# So this script takes a hard-linked copy of the shared patched tree, keeps, from progs/ and
# prog_tests/, the two files patch 0009 adds (plus progs/btf_data.c, which
# the Makefile's resolve_btfids step reads), and runs the selftests Makefile
# unchanged with the multi-object skeletons and the module extras turned off
# on its command line. The test and the framework (test_progs.c, the
# cgroup helpers, the ASSERT_* macros) are the upstream code as patched.

source "$(dirname "$0")/lib.sh"

kdir="${1:-}"
[[ -n "$kdir" && -f "$kdir/.complete" && -f "$kdir/vmlinux" ]] \
	|| die "build-selftests.sh: '$kdir' is not a complete build-kernel.sh output (want KERNEL_DIR)"
[[ -f "$KERNEL_TARBALL" ]] || die "$KERNEL_TARBALL missing: install $KERNEL_PACKAGE"
mapfile -t patches < <(kernel_patches)
((${#patches[@]})) || die "kernel-patches/ has no patches: nothing to test"

key="$(hash_inputs "kernel=$(cat "$kdir/key")" "$HARNESS_DIR/build-selftests.sh" "clang=$(clang --version | head -n 1)")"
out="$MEMCGD_CACHE/selftests/$key"
if [[ -f "$out/.complete" ]]; then
	log "selftests: reusing cached build $out"
	echo "$out"
	exit 0
fi
mkdir -p "$MEMCGD_CACHE/tree" "$MEMCGD_CACHE/selftests"
exec 9>"$MEMCGD_CACHE/tree/selftests.lock"
flock 9
if [[ -f "$out/.complete" ]]; then
	echo "$out"
	exit 0
fi

start=$SECONDS
open_source_tree series	# sets SRC_TREE, shared lock until exit
tree="$MEMCGD_CACHE/tree/selftests"
log "selftests: building test_progs (memcg_ops) in $tree (hard-linked from $SRC_TREE)"
# A hard-linked copy of the shared, patched source tree: the selftests build
# writes its objects into the tree and the test list is cut down below, so it
# cannot run in the shared tree itself. Only new files are written (checked
# after the build: the shared tree must still match its commits).
rm -rf "$tree"
cp -al "$SRC_TREE" "$tree"
rm -rf "$tree/.git" "$tree/.memcgd-source-key"
cd "$tree"

st=tools/testing/selftests/bpf
[[ -f "$st/prog_tests/memcg_ops.c" && -f "$st/progs/memcg_ops.c" ]] \
	|| die "the series does not add $st/prog_tests/memcg_ops.c and progs/memcg_ops.c"
find "$st/progs" -maxdepth 1 -name '*.c' ! -name memcg_ops.c ! -name btf_data.c -delete
find "$st/prog_tests" -maxdepth 1 -name '*.c' ! -name memcg_ops.c -delete

log "selftests: make test_progs ($(jobs) jobs, VMLINUX_BTF=$kdir/vmlinux)"
make -C "$st" -j"$(jobs)" VMLINUX_BTF="$kdir/vmlinux" \
	LINKED_SKELS= LSKELS= LSKELS_EXTRA= TRUNNER_EXTRA_FILES= \
	test_progs >"$tree/selftests-build.log" 2>&1 \
	|| { tail -40 "$tree/selftests-build.log" >&2; die "test_progs build failed; log: $tree/selftests-build.log"; }
# The test must be in the binary: the generated list holds every test built.
grep -qx 'DEFINE_TEST(memcg_ops)' "$st/prog_tests/tests.h" || die "tests.h lacks DEFINE_TEST(memcg_ops)"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$st/test_progs" "$out.tmp/"
cp "$st/prog_tests/tests.h" "$out.tmp/tests.h"
git -C "$SRC_TREE" log --format='%h %s' -n "${#patches[@]}" > "$out.tmp/series"
git -C "$SRC_TREE" diff --quiet HEAD || die "the selftests build changed the shared source tree $SRC_TREE through a hard link"
echo $((SECONDS - start)) > "$out.tmp/build-seconds"
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out"
log "selftests: built in $((SECONDS - start)) s -> $out"
echo "$out"
