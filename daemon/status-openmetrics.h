/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgctl status as metrics: the model of the JSON status as OpenMetrics 1.0 text, or as the
 * Prometheus text format 0.0.4 that node_exporter's textfile collector parses. Pure: everything
 * comes from the snapshot. memcgctl(1), METRICS, lists the families. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "state.h"

enum metrics_dialect {
	METRICS_OPENMETRICS, /* application/openmetrics-text; version=1.0.0: # UNIT, info, stateset, # EOF */
	METRICS_PROMETHEUS,  /* text/plain; version=0.0.4: gauges and counters only, no # EOF */
};

/* slice: NULL for all slices. now_usec (CLOCK_REALTIME) dates the snapshot's age. */
void status_render_metrics(FILE *f, const struct daemon_status *s, const char *slice, uint64_t now_usec,
			   enum metrics_dialect dialect);
/* memcgd is not running: memcgd_up 0 and what memcgctl knows of the kernel. */
void status_render_metrics_not_running(FILE *f, const char *release, bool supported, const char *hooks,
				       int numa_sysctl, enum metrics_dialect dialect);
