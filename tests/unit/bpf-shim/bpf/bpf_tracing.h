/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once
/* struct_ops and BTF tracepoint programs become plain functions taking their arguments */
#define BPF_PROG(name, args...) name(args)
