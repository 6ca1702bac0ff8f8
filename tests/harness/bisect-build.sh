#!/bin/bash
# Build every prefix of the kernel series: "each patch builds on its own".
#
# usage: bisect-build.sh [--config default|nobpf|nomemcg]... [--resume]
#                         [--ledger FILE] [--series DIR] [--plan]
#
# Extracts the pristine 6.12 tarball into $MEMCGD_CACHE/tree/bisect-<config>,
# configures it like the guest kernel (tinyconfig + kernel-patches/memcgd.config),
# builds it, then applies the patches one at a time with git am and rebuilds
# after each (incrementally, with ccache). After every patch it builds what
# the patch touches:
#   bzImage                      always, new compiler warnings fail the step
#   tools/lib/bpf (static)       patches touching tools/lib/bpf or tools/include
#   bpftool (with its skeletons  patches touching tools/bpf/bpftool, tools/lib/bpf
#     against the step's BTF)      or tools/include (default config); a warning
#                                  in a file the patch touches fails the step
#   the selftest's BPF object    patches touching tools/testing/selftests/bpf
#     and test_progs source        (progs/ with clang -target bpf against the
#                                  step's vmlinux.h; prog_tests/ with -fsyntax-only)
#   samples/bpf memcg            patches touching samples/bpf (same way)
# Configs: default = the guest's; nobpf = default without CONFIG_BPF_SYSCALL;
# nomemcg = default without CONFIG_MEMCG. For nobpf and nomemcg only the
# whole series is built (base and last patch: bzImage and libbpf, not the
# BPF programs, which need the default config's BTF), which is what catches
# a missing #ifdef. Prints one line per step and a verdict; exits 1 if any step
# failed. Logs: $MEMCGD_CACHE/tree/bisect-<config>/bisect-logs/.
#
# Ledger: every step's result is appended to the ledger (default
# kernel-patches/bisect.tsv, committed), keyed by what the step built: the
# kernel source version, the configuration, gcc's version, the compiler flags,
# this script's check method and the content of every patch up to the step.
# A whole run takes longer than one working session on a fresh 2-core machine
# (each patch touching memcontrol.h, sched.h or bpf.h recompiles most of the
# tree), so with --resume a run skips the steps the ledger records as built
# with the same key and continues from the first one it does not: it applies
# the patches before that step, builds that prefix as its starting point (not
# recorded again) and goes on step by step. Changing a patch changes the key of
# its step and of every later one, so those are built again. --plan prints,
# for each step, whether the ledger records it or --resume would build it,
# and builds nothing. --series DIR bisects the patches in DIR (a candidate
# series from git format-patch, say) instead of kernel-patches/; the guest
# configuration still comes from kernel-patches/memcgd.config.

source "$(dirname "$0")/lib.sh"

# Bump when what a step checks changes: older ledger rows then no longer count.
BISECT_METHOD=2
configs=()
resume=0
plan=0
series="$REPO_DIR/kernel-patches"
ledger="$REPO_DIR/kernel-patches/bisect.tsv"
while (($#)); do
	case "$1" in
	--config)
		case "${2:-}" in default|nobpf|nomemcg) configs+=("$2") ;;
		*) die "bisect-build.sh: --config wants default, nobpf or nomemcg, got '${2:-}'" ;; esac
		shift ;;
	--resume) resume=1 ;;
	--plan) plan=1 resume=1 ;;
	--series)
		[[ -d "${2:-}" ]] || die "bisect-build.sh: --series wants a directory of patches, got '${2:-}'"
		series="$(realpath -- "$2")"
		shift ;;
	--ledger)
		[[ -n "${2:-}" ]] || die "bisect-build.sh: --ledger wants a file"
		ledger="$(realpath -m -- "$2")"
		shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "bisect-build.sh: unknown option '$1' (see --help)" ;;
	esac
	shift
done
((${#configs[@]})) || configs=(default)
((plan)) || [[ -f "$KERNEL_TARBALL" ]] || die "$KERNEL_TARBALL missing: install $KERNEL_PACKAGE"
mapfile -t patches < <(kernel_patches "$series")
((${#patches[@]})) || die "$series has no *.patch files"

export ARCH=x86_64 KBUILD_BUILD_USER=memcgd KBUILD_BUILD_HOST=memcgd
export GIT_AUTHOR_NAME=memcgd GIT_AUTHOR_EMAIL=memcgd@localhost
export GIT_COMMITTER_NAME=memcgd GIT_COMMITTER_EMAIL=memcgd@localhost
export CCACHE_DIR="$MEMCGD_CACHE/ccache" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=8G
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime

gcc_version="$(gcc -dumpfullversion 2>/dev/null || echo unknown)"
source_version="$(kernel_source_version)"

# key_of["CONFIG N"]: what step N (0 = the pristine base, N = after patch N)
# of CONFIG builds, as a hash; computed once, before anything is applied.
declare -A key_of
for config in "${configs[@]}"; do
	for ((n = 0; n <= ${#patches[@]}; n++)); do
		key_of["$config $n"]="$(hash_inputs "source $source_version" "config $config" \
			"$REPO_DIR/kernel-patches/memcgd.config" "gcc $gcc_version" \
			"kcflags $KERNEL_KCFLAGS" "method $BISECT_METHOD" \
			${patches[@]+"${patches[@]:0:n}"})"
	done
done
step_key() { echo "${key_of["$1 $2"]}"; }	# step_key CONFIG N

# recorded_date CONFIG N: when the ledger recorded a successful build of this
# step's key (empty if it did not).
recorded_date() {
	[[ -f "$ledger" ]] || return 0
	awk -F'\t' -v c="$1" -v k="$(step_key "$1" "$2")" \
		'$2 == c && $5 == k && $6 == "ok" { d = $1 } END { print d }' "$ledger"
}
recorded_ok() { [[ -n "$(recorded_date "$1" "$2")" ]]; }	# recorded_ok CONFIG N

ledger_append() {	# ledger_append CONFIG N STEP RESULT SECONDS DETAIL
	[[ -s "$ledger" ]] || printf '# date\tconfig\tstep\tname\tkey\tresult\tseconds\tgcc\tdetail\n' >"$ledger"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$1" "$2" \
		"$3" "$(step_key "$1" "$2")" "$4" "$5" "$gcc_version" "$6" >>"$ledger"
}

failed=0
report() {	# report CONFIG N STEP RESULT SECONDS DETAIL
	printf '%-8s %-62s %-8s %5ss %s\n' "$1" "$3" "$4" "$5" "$6"
	case "$4" in
	ok) ledger_append "$@" ;;
	recorded|start) ;;
	*) ledger_append "$@"; failed=$((failed + 1)) ;;
	esac
}

# bzImage of the current tree; with STRICT=1, fails on a compiler warning
# (Kbuild prints only the files it rebuilt: these are the step's own).
build_kernel() {	# build_kernel LOG STRICT
	make -s olddefconfig >"$1" 2>&1 || return 1
	make -j"$(jobs)" CC="ccache gcc" KCFLAGS="$KERNEL_KCFLAGS" bzImage >>"$1" 2>&1 || return 1
	((!$2)) || ! grep -E '(warning|error):' "$1"
}

build_libbpf() {	# build_libbpf LOG
	make -s -C tools/lib/bpf -j"$(jobs)" BUILD_STATIC_ONLY=1 >"$1" 2>&1
}

# bpftool as build-kernel.sh builds it (its own BPF skeletons need the step's
# vmlinux BTF); its Makefile warns without failing, so a warning naming a
# file the step touched fails the step here.
build_bpftool() {	# build_bpftool LOG FILE...
	local log="$1" f
	shift
	make -s -C tools/bpf/bpftool -j"$(jobs)" VMLINUX_BTF="$PWD/vmlinux" >"$log" 2>&1 || return 1
	for f in "$@"; do
		[[ "$f" == tools/bpf/bpftool/* ]] || continue
		! grep -E "$(basename "$f"):[0-9]+:[0-9]+: (warning|error):" "$log" || return 1
	done
}

# BPF objects and their userspace halves, compiled the way their Makefiles
# would, against the step's own vmlinux.h, libbpf and UAPI headers: BPF C
# with clang -target bpf, a skeleton from each object (bpftool gen skeleton,
# named like the Makefiles do), samples linked against the step's libbpf.a,
# test_progs sources (which need the test_progs framework) -fsyntax-only.
build_bpf_sources() {	# build_bpf_sources LOG FILE...
	local log="$1" gen="$tree/bisect-gen" f stem
	local -a bpf=() user=()
	shift
	for f in "$@"; do
		case "$f" in */progs/*.c|*.bpf.c) bpf+=("$f") ;; *) user+=("$f") ;; esac
	done
	rm -rf "$gen"
	mkdir -p "$gen"
	{
		make -s -C tools/bpf/bpftool -j"$(jobs)" bootstrap &&
		tools/bpf/bpftool/bootstrap/bpftool btf dump file vmlinux format c >"$gen/vmlinux.h" &&
		make -s -C tools/lib/bpf -j"$(jobs)" BUILD_STATIC_ONLY=1 OUTPUT="$gen/" \
			DESTDIR="$gen/libbpf" prefix=/ install
	} >"$log" 2>&1 || return 1
	for f in ${bpf[@]+"${bpf[@]}"}; do
		stem="$(basename "$f" .c)"
		stem="${stem%.bpf}"
		echo "clang -target bpf $f; bpftool gen skeleton -> $stem.skel.h" >>"$log"
		clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
			-I"$gen" -I"$gen/libbpf/include" -Itools/testing/selftests/bpf \
			-Itools/include/uapi -c "$f" -o "$gen/$stem.bpf.o" >>"$log" 2>&1 &&
		tools/bpf/bpftool/bootstrap/bpftool gen skeleton "$gen/$stem.bpf.o" name "$stem" \
			>"$gen/$stem.skel.h" 2>>"$log" || return 1
	done
	for f in ${user[@]+"${user[@]}"}; do
		case "$f" in
		*/prog_tests/*.c)
			echo "gcc -fsyntax-only $f" >>"$log"
			gcc -fsyntax-only -Wall -Werror -D_GNU_SOURCE -I"$gen" -I"$gen/libbpf/include" \
				-Itools/testing/selftests/bpf -Itools/testing/selftests -Itools/include \
				-Itools/include/uapi -Itools/lib "$f" >>"$log" 2>&1 || return 1 ;;
		*)
			echo "gcc $f -o $gen/$(basename "$f" .c) (libbpf.a)" >>"$log"
			gcc -O2 -Wall -Werror -D_GNU_SOURCE -I"$gen" -I"$gen/libbpf/include" \
				-Itools/include/uapi "$f" -o "$gen/$(basename "$f" .c)" \
				"$gen/libbpf/lib64/libbpf.a" -lelf -lz >>"$log" 2>&1 || return 1 ;;
		esac
	done
}

# The steps of CONFIG: default builds every prefix, the others the pristine
# base and the whole series.
config_steps() {	# config_steps CONFIG
	local n=${#patches[@]} i
	if [[ "$1" == default ]]; then
		for ((i = 0; i <= n; i++)); do echo "$i"; done
	else
		printf '0\n%s\n' "$n"
	fi
}

step_name() {	# step_name CONFIG N
	local step
	if (($2 == 0)); then
		echo "base: linux-source $source_version"
		return
	fi
	step="$(basename "${patches[$2 - 1]}" .patch)"
	if [[ "$1" == default ]]; then
		echo "${step:0:60}"
	else
		echo "whole series (last: ${step:0:40})"
	fi
}

# first_to_build CONFIG: the first step of CONFIG that --resume builds
# (every later one is built too: the build is incremental), or -1. nobpf and
# nomemcg build the series on top of the base: a missing series step
# rebuilds (and records) the base as well.
first_to_build() {
	local n
	while read -r n; do
		if ((resume)) && recorded_ok "$1" "$n"; then
			continue
		fi
		[[ "$1" == default ]] || n=0
		echo "$n"
		return
	done < <(config_steps "$1")
	echo -1
}

plan_config() {	# plan_config CONFIG
	local config="$1" first n when
	first="$(first_to_build "$config")"
	while read -r n; do
		if ((first < 0 || n < first)); then
			when="$(recorded_date "$config" "$n")"
			printf '%-8s %-62s recorded %s %s\n' "$config" "$(step_name "$config" "$n")" \
				"$(step_key "$config" "$n")" "$when"
		else
			printf '%-8s %-62s build    %s\n' "$config" "$(step_name "$config" "$n")" \
				"$(step_key "$config" "$n")"
		fi
	done < <(config_steps "$config")
}

run_config() {	# run_config CONFIG
	local config="$1" start step subject files log n first prefix=0
	local -a also
	first="$(first_to_build "$config")"
	while read -r n; do
		((first < 0 || n < first)) || break
		report "$config" "$n" "$(step_name "$config" "$n")" recorded 0 "$(basename "$ledger")"
	done < <(config_steps "$config")
	((first >= 0)) || return 0
	((first == 0)) || prefix=$((first - 1))

	tree="$MEMCGD_CACHE/tree/bisect-$config"
	log "bisect $config: preparing $tree"
	unpack_kernel_tree "$tree"
	cd "$tree" || return
	export CCACHE_BASEDIR="$tree"
	mkdir -p bisect-logs
	make -s tinyconfig >/dev/null
	scripts/kconfig/merge_config.sh -m .config "$REPO_DIR/kernel-patches/memcgd.config" >/dev/null
	case "$config" in
	nobpf) scripts/config --disable BPF_SYSCALL ;;
	nomemcg) scripts/config --disable MEMCG ;;
	esac
	make -s olddefconfig >/dev/null

	# the starting point: the pristine base, or (resuming) the prefix
	# before the first step to build, whose own build the ledger records
	for ((n = 0; n < prefix; n++)); do
		git am -q --whitespace=error-all "${patches[n]}" || {
			git am --abort || true
			report "$config" "$((n + 1))" "$(step_name "$config" $((n + 1)))" FAIL 0 "git am"
			return
		}
	done
	start=$SECONDS
	if ((prefix == 0)); then
		if build_kernel bisect-logs/00-base.log 0; then
			report "$config" 0 "$(step_name "$config" 0)" ok $((SECONDS - start)) \
				"$(grep -c 'warning:' bisect-logs/00-base.log || true) warnings (not counted)"
		else
			report "$config" 0 "base" FAIL $((SECONDS - start)) "bisect-logs/00-base.log"
			return
		fi
	elif build_kernel bisect-logs/00-start.log 0; then
		report "$config" "$prefix" "start: patches 1-$prefix applied" start $((SECONDS - start)) \
			"built as the starting point (recorded before)"
	else
		report "$config" "$prefix" "start: patches 1-$prefix applied" FAIL $((SECONDS - start)) \
			"bisect-logs/00-start.log"
		return
	fi
	for ((i = prefix; i < ${#patches[@]}; i++)); do
		step="$(basename "${patches[i]}" .patch)"
		subject="$(step_name "$config" $((i + 1)))"
		git am -q --whitespace=error-all "${patches[i]}" || {
			git am --abort || true
			report "$config" $((i + 1)) "$subject" FAIL 0 "git am"
			return
		}
		# other configs: apply everything, build once at the end
		[[ "$config" != default ]] && ((i < ${#patches[@]} - 1)) && continue
		start=$SECONDS
		log="bisect-logs/$step"
		if ! build_kernel "$log.kernel.log" 1; then
			report "$config" $((i + 1)) "$subject" FAIL $((SECONDS - start)) "$tree/$log.kernel.log"
			continue
		fi
		files="$(git diff --name-only HEAD~1 HEAD)"
		[[ "$config" != default ]] && files="$(git diff --name-only HEAD~"${#patches[@]}" HEAD)"
		also=()
		if grep -qE '^tools/(lib/bpf|include)/' <<<"$files"; then
			if ! build_libbpf "$log.libbpf.log"; then
				report "$config" $((i + 1)) "$subject" FAIL $((SECONDS - start)) "$tree/$log.libbpf.log"
				continue
			fi
			also+=(libbpf)
		fi
		if [[ "$config" == default ]] && grep -qE '^tools/(lib/bpf|include|bpf/bpftool)/' <<<"$files"; then
			# shellcheck disable=SC2086 # one path per word, none with blanks
			if ! build_bpftool "$log.bpftool.log" $files; then
				report "$config" $((i + 1)) "$subject" FAIL $((SECONDS - start)) "$tree/$log.bpftool.log"
				continue
			fi
			also+=(bpftool)
		fi
		# BPF programs need the default config's BTF: without BPF_SYSCALL
		# there is no BTF at all, without MEMCG no memcg types
		sources=()
		[[ "$config" == default ]] &&
			mapfile -t sources < <(grep -E '^(tools/testing/selftests/bpf|samples/bpf)/.*\.c$' <<<"$files" || true)
		if ((${#sources[@]})) && ! build_bpf_sources "$log.bpf.log" "${sources[@]}"; then
			report "$config" $((i + 1)) "$subject" FAIL $((SECONDS - start)) "$tree/$log.bpf.log"
			continue
		fi
		((${#sources[@]})) && also+=("${#sources[@]} BPF sources")
		report "$config" $((i + 1)) "$subject" ok $((SECONDS - start)) \
			"$( ((${#also[@]})) && printf '+ %s ' "${also[@]}")"
	done
}

if ((plan)); then
	for config in "${configs[@]}"; do
		plan_config "$config"
	done
	exit 0
fi
for config in "${configs[@]}"; do
	run_config "$config"
done
if ((failed)); then
	log "bisect: $failed step(s) failed"
	exit 1
fi
log "bisect: every step built (${configs[*]})"
