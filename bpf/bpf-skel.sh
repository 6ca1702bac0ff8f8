#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compiles one BPF program and generates its skeleton (used by bpf/meson.build).
# usage: bpf-skel.sh CLANG BPFTOOL INPUT.bpf.c OUTPUT.skel.h DEPFILE [CLANG FLAGS...]
set -eu
clang=$1 bpftool=$2 in=$3 out=$4 dep=$5
shift 5
name=$(basename "$in" .bpf.c | tr -- '-.' '__')_bpf
obj=${out%.skel.h}.o
"$clang" "$@" -MD -MF "$dep" -MT "$out" -c "$in" -o "$obj.tmp"
"$bpftool" gen object "$obj" "$obj.tmp"      # links/strips the object as libbpf-tools do
rm -f "$obj.tmp"
"$bpftool" gen skeleton "$obj" name "$name" > "$out.tmp"
mv "$out.tmp" "$out"
