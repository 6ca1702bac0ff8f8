#!/bin/bash
# Boot the memcgd guest in QEMU and run VM tests in it.
#
# usage: run-vm.sh [options]
#   --kernel KDIR        kernel from build-kernel.sh (default: the cached default
#                        variant for the current kernel-patches/, else the debug
#                        one that scripts/test builds; env MEMCGD_KDIR)
#   --payload DIR        meson install DESTDIR to lay over the base image; may be
#                        repeated (default: $MEMCGD_CACHE/stage/release if present)
#   --no-payload         boot without the project payload (harness files only)
#   --tests LIST         comma-separated <suite>/<glob> patterns, e.g.
#                        'smoke/*,kernel/*' or 'kernel/a-high-delay' (default:
#                        smoke/*, none with --shell)
#   --cpus N             vCPUs (default 2)
#   --memory MB          guest memory in MiB (default 2048)
#   --swap SIZE          add a swap disk of SIZE (e.g. 1G), a sparse file in
#                        /dev/shm (or --swap-dir)
#   --swap-dir DIR       where the swap disk's file goes (default /dev/shm: RAM;
#                        a disk-backed directory takes it off tmpfs)
#   --monitor SOCKET     QEMU's human monitor on a Unix socket (bench/
#                        capture-stall.py asks it for `info jit`); not with --shell
#   --numa               two NUMA nodes (memory and vCPUs split in halves)
#   --icount             deterministic instruction counting: TCG on one host
#                        thread, -icount shift=0,sleep=off (guest time is the
#                        emulated instruction count, 1 ns each), 1 vCPU (the
#                        default --cpus then; another count is refused). For
#                        microbenchmarks (scripts/bench); never KVM
#   --timeout SEC        kill the guest after SEC seconds (default 3600)
#   --test-timeout SEC   default per-test timeout in the guest (default 600)
#   --append ARGS        extra kernel command line arguments
#   --shell              interactive: serial console on this terminal, root
#                        logged in (Ctrl-A x quits QEMU); selected tests, if any
#                        (--tests), run first and the guest stays up
#   --label NAME         name of this run in summaries (default: vm)
#   --run-dir DIR        where logs go (default: $MEMCGD_CACHE/runs/<time>-<label>)
#   --keep-image         keep the packed root image in the run directory
#   --verbose            show every test's output, not only that of failures
#
# Prints PASS/FAIL/SKIP per test (output of failed tests indented below),
# then checks that the guest ran KDIR's kernel (uname -r, uname -v with the
# kernel key, GNU build id) and that the console has no kernel BUG/WARNING/
# Oops/lockdep/KASAN/UBSAN/panic report. Writes RUN_DIR/summary.tsv
# (status, name, seconds, reason) and exits 0 only when everything passed.

source "$(dirname "$0")/lib.sh"

kdir="${MEMCGD_KDIR:-}"
payloads=() no_payload=0 tests="" tests_given=0 cpus="" memory=2048 swap="" swap_dir=/dev/shm
monitor="" numa=0 icount=0
timeout=3600 test_timeout=600 append="" shell=0 label=vm run_dir="" keep_image=0 verbose=0

while (($#)); do
	case "$1" in
	--kernel) kdir="$2"; shift ;;
	--payload) payloads+=("$2"); shift ;;
	--no-payload) no_payload=1 ;;
	--tests) tests="$2"; tests_given=1; shift ;;
	--cpus) cpus="$2"; shift ;;
	--memory) memory="$2"; shift ;;
	--swap) swap="$2"; shift ;;
	--swap-dir) swap_dir="$2"; shift ;;
	--monitor) monitor="$2"; shift ;;
	--numa) numa=1 ;;
	--icount) icount=1 ;;
	--timeout) timeout="$2"; shift ;;
	--test-timeout) test_timeout="$2"; shift ;;
	--append) append="$2"; shift ;;
	--shell) shell=1 ;;
	--label) label="$2"; shift ;;
	--run-dir) run_dir="$2"; shift ;;
	--keep-image) keep_image=1 ;;
	--verbose) verbose=1 ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "run-vm.sh: unknown option '$1' (see --help)" ;;
	esac
	shift
done

need_root
((tests_given || shell)) || tests="smoke/*"
if ((icount)); then
	[[ -z "$cpus" || "$cpus" == 1 ]] || die "--icount counts instructions on one vCPU: --cpus $cpus cannot go with it"
	cpus=1
fi
cpus="${cpus:-2}"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--cpus wants a positive number, got '$cpus'"
[[ "$memory" =~ ^[1-9][0-9]*$ ]] || die "--memory wants MiB as a number, got '$memory'"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout wants seconds, got '$timeout'"
[[ "$test_timeout" =~ ^[1-9][0-9]*$ ]] || die "--test-timeout wants seconds, got '$test_timeout'"
[[ "$label" =~ ^[A-Za-z0-9_.-]+$ ]] || die "--label may only use letters, digits, '.', '_' and '-'"
[[ "$tests" =~ ^[][A-Za-z0-9_.*?/,-]*$ ]] || die "--tests may only use suite/glob patterns separated by commas"
[[ -d "$swap_dir" && -w "$swap_dir" ]] || die "--swap-dir: '$swap_dir' is not a writable directory"
[[ -z "$monitor" ]] || ((!shell)) || die "--monitor cannot go with --shell (the monitor is on the terminal there: Ctrl-A c)"
[[ "$monitor" != *,* ]] || die "--monitor: a socket path with a comma cannot be passed to QEMU: '$monitor'"

# --- inputs --------------------------------------------------------------
if [[ -z "$kdir" ]]; then
	# scripts/test builds the debug variant, scripts/demo the default one
	kdir="$(kernel_dir default)"
	[[ -f "$kdir/.complete" ]] || kdir="$(kernel_dir debug)"
	[[ -f "$kdir/.complete" ]] || die "no kernel built for the current kernel-patches/ (neither $(kernel_dir default) nor $kdir): run tests/harness/build-kernel.sh default|debug (or pass --kernel KDIR)"
fi
for f in bzImage release key build-id; do
	[[ -s "$kdir/$f" ]] || die "$kdir/$f missing: --kernel wants a directory made by build-kernel.sh"
done
base="$(image_dir)/root"
[[ -f "$(image_dir)/.complete" ]] || die "no base image for the current image/ configuration: run tests/harness/build-image.sh"
if ((!no_payload)) && ((${#payloads[@]} == 0)) && [[ -d "$MEMCGD_CACHE/stage/release" ]]; then
	payloads=("$MEMCGD_CACHE/stage/release")
fi

# Series expected in this kernel: the current patch set is not empty and
# KDIR is the kernel built from it.
expect_series=0
if [[ -n "$(kernel_patches)" ]] && { [[ "$kdir" -ef "$(kernel_dir default)" ]] || [[ "$kdir" -ef "$(kernel_dir debug)" ]]; }; then
	expect_series=1
fi

# Keep the logs of the newest 30 runs.
# (ls fails on a cache with no runs yet: under pipefail that must not end the script)
{ ls -dt "$MEMCGD_CACHE"/runs/*/ 2>/dev/null || true; } | tail -n +31 | while read -r old; do rm -rf "$old"; done
run_dir="${run_dir:-$MEMCGD_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$label-$$}"
mkdir -p "$run_dir"
run_dir="$(realpath "$run_dir")"
console="$run_dir/console.log" results="$run_dir/results.log" summary="$run_dir/summary.tsv"
: > "$console"; : > "$results"; : > "$summary"
swapfile=""
cleanup() {
	[[ -n "$swapfile" ]] && rm -f "$swapfile"
	((keep_image)) || rm -f "$run_dir/root.raw"
}
trap cleanup EXIT

# --- image: base + payload + harness guest files + VM suites of the repo --
vmtests="$(mktemp -d "$run_dir/vmtests.XXXX")"
mkdir -p "$vmtests/usr/lib/memcgd/tests"
for suite in "$REPO_DIR"/tests/vm/*/; do
	[[ -d "$suite" ]] && cp -a "$suite" "$vmtests/usr/lib/memcgd/tests/"
done
log "$label: packing image (base $(basename "$(dirname "$base")"), payload: ${payloads[*]:-none})"
"$HARNESS_DIR/pack-image.sh" "$run_dir/root.raw" "$base" ${payloads[@]+"${payloads[@]}"} \
	"$HARNESS_DIR/guest" "$vmtests"
rm -rf "$vmtests"

# --- QEMU command line ---------------------------------------------------
kvm_works() {
	# /dev/kvm can exist and a trivial guest can run while a real kernel hangs
	# (as on the machines this was written on): boot KDIR's kernel without a
	# root file system under KVM; a working KVM reaches the "VFS: Unable to
	# mount root fs" panic in a second or two. The answer, and why, is cached
	# per host boot and said in one line.
	local cache="$MEMCGD_CACHE/kvm-probe" boot_id id answer why probe_log rc=0
	if [[ ! -e /dev/kvm ]]; then
		log "$label: KVM not usable here (no /dev/kvm): using TCG"
		return 1
	fi
	if [[ ! -r /dev/kvm || ! -w /dev/kvm ]]; then
		log "$label: KVM not usable here (/dev/kvm not readable and writable): using TCG"
		return 1
	fi
	boot_id="$(cat /proc/sys/kernel/random/boot_id)"
	if [[ -f "$cache" ]] && read -r id answer why < "$cache" && [[ "$id" == "$boot_id" ]]; then
		[[ "$answer" == yes ]] && return 0
		log "$label: KVM not usable here (${why:-probe failed}, probed once this host boot): using TCG"
		return 1
	fi
	probe_log="$(mktemp)"
	# The group's stderr also takes bash's own "Aborted ..." report when
	# QEMU dies of a signal, as it does where KVM is broken.
	{ timeout 8 qemu-system-x86_64 -accel kvm -cpu host -machine q35 -m 256 -nodefaults \
		-no-user-config -display none -nic none -no-reboot -serial "file:$probe_log" \
		-kernel "$kdir/bzImage" -append "console=ttyS0 panic=-1 root=/dev/memcgd-kvm-probe" \
		</dev/null >/dev/null 2>&1; } 2>/dev/null || rc=$?
	answer=no
	if grep -q 'Kernel panic' "$probe_log"; then
		answer=yes why=""
	elif ((rc == 124)); then
		why="a probe boot of the kernel under KVM did not get to its root mount in 8 s"
	elif ((rc > 128)); then
		why="QEMU died of signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null || echo '?')) starting a KVM guest"
	else
		why="QEMU exited with status $rc starting a KVM guest"
	fi
	rm -f "$probe_log"
	echo "$boot_id $answer $why" > "$cache"
	[[ "$answer" == yes ]] && return 0
	log "$label: KVM not usable here ($why): using TCG"
	return 1
}
if ((icount)); then
	# one host thread, guest clock = instructions executed, no idle-time
	# sleeping: the same guest work reads the same time on any host
	accel=(-accel tcg,thread=single -icount shift=0,sleep=off -cpu "${MEMCGD_TCG_CPU:-max,vendor=GenuineIntel}")
	accel_name=tcg-icount
elif [[ "${MEMCGD_ACCEL:-auto}" == kvm ]] || { [[ "${MEMCGD_ACCEL:-auto}" == auto ]] && kvm_works; }; then
	accel=(-accel kvm -cpu host) accel_name=kvm
else
	accel=(-accel tcg,thread=multi -cpu "${MEMCGD_TCG_CPU:-max,vendor=GenuineIntel}") accel_name=tcg
fi

cmdline=(root=/dev/vda rw rootfstype=ext4 console=ttyS0,115200 printk.time=1 panic=-1
	mitigations=off systemd.show_status=auto "memcgd.expect_series=$expect_series"
	"memcgd.test_timeout=$test_timeout")
[[ -n "$tests" ]] && cmdline+=("memcgd.tests=$tests")

qemu=(qemu-system-x86_64 "${accel[@]}" -machine q35 -smp "$cpus" -m "$memory"
	-nodefaults -no-user-config -display none -nic none -no-reboot
	-kernel "$kdir/bzImage"
	-drive "file=$run_dir/root.raw,format=raw,if=none,id=root,cache=unsafe"
	-device virtio-blk-pci,drive=root
	-device virtio-rng-pci
	-device virtio-serial-pci
	-chardev "file,id=results,path=$results"
	-device virtserialport,chardev=results,name=org.memcgd.results)
if [[ -n "$swap" ]]; then
	swapfile="$(mktemp "$swap_dir/memcgd-swap.XXXXXX")"
	truncate -s "$swap" "$swapfile" || die "--swap: bad size '$swap'"
	qemu+=(-drive "file=$swapfile,format=raw,if=none,id=swap,cache=unsafe"
		-device virtio-blk-pci,drive=swap,serial=memcgd-swap)
	cmdline+=(memcgd.swap=1)
fi
if ((numa)); then
	half=$((memory / 2))
	qemu+=(-object "memory-backend-ram,id=mem0,size=${half}M"
		-object "memory-backend-ram,id=mem1,size=$((memory - half))M")
	if ((cpus >= 2)); then
		qemu+=(-numa "node,nodeid=0,cpus=0-$((cpus / 2 - 1)),memdev=mem0"
			-numa "node,nodeid=1,cpus=$((cpus / 2))-$((cpus - 1)),memdev=mem1")
	else
		qemu+=(-numa node,nodeid=0,cpus=0,memdev=mem0 -numa node,nodeid=1,memdev=mem1)
	fi
fi
if ((shell)); then
	cmdline+=(memcgd.shell=1)
	qemu+=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$console"
		-serial chardev:con -mon chardev=con,mode=readline)
else
	cmdline+=(systemd.mask=serial-getty@ttyS0.service)
	qemu+=(-serial "file:$console")
	[[ -z "$monitor" ]] || qemu+=(-monitor "unix:$monitor,server=on,wait=off")
fi
if [[ -n "$append" ]]; then
	read -r -a extra <<< "$append"
	cmdline+=("${extra[@]}")
fi
qemu+=(-append "${cmdline[*]}")
printf '%q ' "${qemu[@]}" > "$run_dir/qemu.cmd"; echo >> "$run_dir/qemu.cmd"

# --- boot ----------------------------------------------------------------
# Prints PASS/FAIL/SKIP lines from the runner's stream (results.log format).
print_results='
		/^MEMCGD begin / { name = $3; n = 0; next }
		/^\| / { out[++n] = $0; next }
		/^MEMCGD end / {
			status = $4; secs = $5; reason = ""
			for (i = 6; i <= NF; i++) reason = reason (i > 6 ? " " : "") $i
			if (status == "PASS") printf "PASS %s (%s s)\n", $3, secs
			else if (status == "SKIP") printf "SKIP %s: %s\n", $3, reason
			else printf "FAIL %s (%s s): %s\n", $3, secs, reason
			if (status == "FAIL" || verbose)
				for (i = 1; i <= n; i++) printf "    %s\n", substr(out[i], 3)
			fflush(); n = 0
		}'
log "$label: booting $(cat "$kdir/release") ($accel_name, $cpus vCPUs, ${memory} MiB${swap:+, swap $swap}$( ((numa)) && echo ", 2 NUMA nodes")), tests '$tests', logs in $run_dir"
start=$SECONDS
if ((shell)); then
	echo "memcgd guest shell: Ctrl-A x quits QEMU; 'poweroff' shuts the guest down." >&2
	set +e
	timeout --foreground "$timeout" "${qemu[@]}"
	qemu_rc=$?
	set -e
	if [[ -z "$tests" ]]; then	# nothing to report but the kernel log
		if "$HARNESS_DIR/scan-console.sh" "$console"; then
			log "$label: kernel log clean (console: $console)"
			exit 0
		fi
		log "$label: kernel error report on the console (above; console: $console)"
		exit 1
	fi
	awk -v verbose="$verbose" "$print_results" "$results"
else
	set +e
	children_cpu_seconds "$run_dir/.times"
	cpu_before=$CHILDREN_CPU
	timeout --kill-after=15 "$timeout" "${qemu[@]}" </dev/null >"$run_dir/qemu.log" 2>&1 &
	qemu_pid=$!
	# Live progress: print each result as the guest reports it.
	tail -n +1 -F --pid="$qemu_pid" "$results" 2>/dev/null | awk -v verbose="$verbose" "$print_results"
	wait "$qemu_pid"
	qemu_rc=$?
	set -e
	children_cpu_seconds "$run_dir/.times"
	cpu_used=$((CHILDREN_CPU - cpu_before))
	rm -f "$run_dir/.times"
fi
elapsed=$((SECONDS - start))

# --- verdict -------------------------------------------------------------
failures=0
record() {	# record STATUS NAME SECONDS REASON
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$summary"
	[[ "$1" == FAIL ]] && failures=$((failures + 1))
	return 0
}
awk -F' ' '/^MEMCGD end / {
	reason = ""; for (i = 6; i <= NF; i++) reason = reason (i > 6 ? " " : "") $i
	printf "%s\t%s\t%s\t%s\n", $4, $3, $5, reason }' "$results" > "$run_dir/tests.tsv"
while IFS=$'\t' read -r status name secs reason; do
	record "$status" "$name" "$secs" "$reason"
done < "$run_dir/tests.tsv"

if ((qemu_rc == 124 || qemu_rc == 137)); then
	record FAIL "$label/boot" "$elapsed" "guest killed after the ${timeout} s timeout"
elif ! grep -q '^MEMCGD done ' "$results"; then
	record FAIL "$label/boot" "$elapsed" "guest stopped before the test runner finished (QEMU exit $qemu_rc)"
fi
if ((failures)) && grep -q "$label/boot" "$summary"; then
	echo "FAIL $label/boot: $(awk -F'\t' -v n="$label/boot" '$2 == n { print $4 }' "$summary"); last console lines:" >&2
	tail -n 25 "$console" | sed 's/^/    /' >&2
	[[ -s "$run_dir/qemu.log" ]] && sed 's/^/    qemu: /' "$run_dir/qemu.log" >&2
fi

# The guest must have run KDIR's kernel.
ident="$(sed -n 's/^MEMCGD kernel //p' "$results" | head -n 1)"
if [[ -n "$ident" ]]; then
	IFS='|' read -r g_release g_version g_buildid <<< "$ident"
	g_release="${g_release// /}" g_buildid="${g_buildid// /}" g_version="${g_version# }"
	want_release="$(cat "$kdir/release")" want_key="$(cat "$kdir/key")" want_id="$(cat "$kdir/build-id")"
	why=""
	[[ "$g_release" == "$want_release" ]] || why+="uname -r '$g_release' != '$want_release'; "
	[[ "$g_version" == *"#$want_key "* ]] || why+="uname -v '$g_version' lacks '#$want_key'; "
	[[ "$g_buildid" == "$want_id" ]] || why+="build id '$g_buildid' != '$want_id'; "
	if [[ -z "$why" ]]; then
		record PASS "$label/kernel-identity" 0 ""
		echo "PASS $label/kernel-identity ($g_release, build id ${g_buildid:0:12}…)"
	else
		record FAIL "$label/kernel-identity" 0 "$why"
		echo "FAIL $label/kernel-identity: $why"
	fi
elif ((!shell)); then
	record FAIL "$label/kernel-identity" 0 "the guest never reported its kernel"
	echo "FAIL $label/kernel-identity: the guest never reported its kernel"
fi

if report="$("$HARNESS_DIR/scan-console.sh" "$console")"; then
	record PASS "$label/kernel-log" 0 ""
	echo "PASS $label/kernel-log (no BUG/WARNING/Oops/lockdep/KASAN/UBSAN/panic on the console)"
else
	record FAIL "$label/kernel-log" 0 "kernel error report on the console"
	echo "FAIL $label/kernel-log: kernel error report on the console ($console):"
	printf '%s\n' "$report" | sed 's/^/  /'
fi

read -r n_pass n_fail n_skip < <(awk -F'\t' '{ c[$1]++ } END { print c["PASS"]+0, c["FAIL"]+0, c["SKIP"]+0 }' "$summary")
boot_s="$(sed -n 's/^MEMCGD uptime //p' "$results" | head -n 1)"
cpu_note=""
[[ -n "${cpu_used:-}" ]] && ((elapsed > 0)) &&
	cpu_note="; QEMU used ${cpu_used} CPU-s, $((100 * cpu_used / elapsed / $(nproc)))% of the host's $(nproc) cores"
log "$label: $n_pass passed, $n_fail failed, $n_skip skipped in ${elapsed} s (guest userspace reached the runner at ${boot_s:-?} s uptime; $accel_name$cpu_note)"
((failures == 0))
