/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgctl status output: aligned text and JSON. Pure: everything comes from the snapshot. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "state.h"

/* slice: NULL for all slices. now_usec (CLOCK_REALTIME) dates the snapshot's age. */
void status_render_text(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec);
void status_render_json(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec);
/* The overview table of status_render_text: a row per slice, with its column headers if legend
 * (memcgctl status --no-legend: the rows alone). */
void status_render_table(FILE *f, const struct daemon_status *s, const char *slice, bool legend);
/* What memcgd is doing to the slice right now, in one word. */
const char *slice_action(const struct slice_status *s);
/* The NUMA balancing in force for the slice's tasks: on or off (memcgd's numa_balancing decides,
 * [NUMA] Balancing=), or kernel (kernel.numa_balancing). */
const char *slice_numa(const struct daemon_status *s, const struct slice_status *sl);
/* [NUMA] tuning in configuration terms (0 = the kernel's): "ScanPeriodMin=500ms ScanSize=256M, the
 * kernel's other parameters", or "the kernel's scan parameters". */
char *numa_tuning_text(char *buf, size_t len, uint64_t scan_period_min_usec, uint64_t scan_period_max_usec,
		       uint64_t scan_size, uint64_t hot_threshold_usec);
/* `memcgctl status --json` when memcgd is not running: the same keys, null where there is no
 * daemon to ask. */
void status_render_json_not_running(FILE *f, const char *why, const char *release, bool supported, const char *hooks,
				    int numa_sysctl);
/* The "version" of the JSON status: raised when a key changes its meaning or goes away. */
#define STATUS_JSON_VERSION 1
