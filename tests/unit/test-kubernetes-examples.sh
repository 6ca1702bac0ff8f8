#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Kubernetes QoS example policies (conf/kubernetes/) pass `memcgctl check` as the three
# files an operator copies to /etc/memcgd.d, describe the slices kubelet's systemd cgroup
# driver creates, and order them Guaranteed > Burstable > BestEffort with only the Guaranteed
# pods protected. usage: test-kubernetes-examples.sh MEMCGCTL CONF_KUBERNETES_DIR
set -euo pipefail
memcgctl=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

files=("$dir"/*.conf)
((${#files[@]} == 3)) || fail "expected 3 files in $dir, found ${#files[@]}"
"$memcgctl" check "${files[@]}" >"$tmp/out" 2>&1 || fail "examples do not validate: $(cat "$tmp/out")"
grep -qx "configuration OK: 3 slices" "$tmp/out" || fail "examples: $(cat "$tmp/out")"

# as installed: in a /etc/memcgd.d beside the daemon configuration, through the precedence rules
mkdir -p "$tmp/root/etc/memcgd.d"
cp "${files[@]}" "$tmp/root/etc/memcgd.d/"
"$memcgctl" --root="$tmp/root" check >"$tmp/out" 2>&1 || fail "as /etc/memcgd.d: $(cat "$tmp/out")"
grep -qx "configuration OK: 3 slices" "$tmp/out" || fail "as /etc/memcgd.d: $(cat "$tmp/out")"

line() { grep -E "^[^:]*: $1 " "$tmp/out" || fail "no line for $1 in: $(cat "$tmp/out")"; }
prio() { line "$1" | sed -E 's/.* priority ([0-9]+),.*/\1/'; }
g=$(prio kubepods.slice) b=$(prio kubepods-burstable.slice) be=$(prio kubepods-besteffort.slice)
((g > b && b > be)) || fail "priorities not Guaranteed > Burstable > BestEffort: $g $b $be"
line kubepods.slice | grep -q "protect low" || fail "Guaranteed pods not protected: $(line kubepods.slice)"
line kubepods.slice | grep -q "throttle never" || fail "Guaranteed pods throttled: $(line kubepods.slice)"
line kubepods-besteffort.slice | grep -q "protect none" || fail "BestEffort protected"
line kubepods-burstable.slice | grep -q "protect none" || fail "Burstable protected"
d_b=$(line kubepods-burstable.slice | sed -E 's/.*throttle ([0-9]+)ms$/\1/')
d_be=$(line kubepods-besteffort.slice | sed -E 's/.*throttle ([0-9]+)ms$/\1/')
((d_be > d_b && d_b > 0)) || fail "BestEffort not throttled harder than Burstable: ${d_be}ms vs ${d_b}ms"

# the nesting is real to memcgd: a BestEffort slice that outranks kubepods.slice is refused
sed -i -E 's/^Priority=.*/Priority=1000/' "$tmp/root/etc/memcgd.d/10-kubepods-besteffort.conf"
if "$memcgctl" --root="$tmp/root" check >"$tmp/out" 2>&1; then
	fail "a BestEffort slice outranking kubepods.slice was accepted"
fi
grep -q "enclosing slice kubepods.slice" "$tmp/out" || fail "nesting not recognised: $(cat "$tmp/out")"
echo "PASS: conf/kubernetes validates; Guaranteed $g > Burstable $b > BestEffort $be"
