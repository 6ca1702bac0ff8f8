/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* After start-up memcgd keeps CAP_BPF and CAP_PERFMON only: it creates a struct_ops link
 * for every slice that starts later. Everything else (loading, the tracepoint) is done. */
#include <stdbool.h>

/* keep_bpf = false (dry run: no links to create) drops every capability. */
int caps_drop_to_runtime_set(bool keep_bpf);
