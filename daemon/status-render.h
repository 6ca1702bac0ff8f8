/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgctl status output: aligned text and JSON. Pure: everything comes from the snapshot. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "state.h"

/* slice: NULL for all slices. now_usec (CLOCK_REALTIME) dates the snapshot's age. */
void status_render_text(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec);
void status_render_json(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec);
/* What memcgd is doing to the slice right now, in one word. */
const char *slice_action(const struct slice_status *s);
/* `memcgctl status --json` when memcgd is not running: the same keys, null where there is no
 * daemon to ask. */
void status_render_json_not_running(FILE *f, const char *why, const char *release, bool supported, const char *hooks);
/* The "version" of the JSON status: raised when a key changes its meaning or goes away. */
#define STATUS_JSON_VERSION 1
