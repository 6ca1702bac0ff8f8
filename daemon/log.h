/* SPDX-License-Identifier: GPL-2.0-only */
/* Logging: plain messages go to stderr with syslog level prefixes (the journal reads them when
 * memcgd runs as a service); transitions go to the journal with structured fields. */
#pragma once

#include <stdint.h>
#include <syslog.h>

__attribute__((format(printf, 2, 3)))
void log_msg(int level, const char *fmt, ...);

#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

extern int log_max_level;

/* MESSAGE_ID of a memcgd record whose MEMCGD_EVENT= has no ID of its own; every kind memcgd
 * logs has one (log-ids.c, catalog/memcgd.catalog). Earlier builds gave every record this ID. */
#define MEMCGD_MESSAGE_ID "6c1f0d2a9e4b4f7c8a3d5e2b1c0f9a87"

/* One structured journal record: MESSAGE_ID= of the event (log-ids.c), MEMCGD_EVENT=event,
 * MEMCGD_SLICE=slice, MEMCGD_PRIORITY=..., plus MEMCGD_VALUE=value (meaning depends on the event),
 * and the text as MESSAGE. */
__attribute__((format(printf, 6, 7)))
void log_transition(int level, const char *event, const char *slice, long priority, uint64_t value,
		    const char *fmt, ...);

/* One structured journal record per configuration problem (memcgd.d(5), "Invalid files"):
 * MEMCGD_EVENT=config-problem, CONFIG_FILE=file, CONFIG_LINE=line (0: the file as a whole) and
 * "file:line: message" as MESSAGE. */
void log_config_problem(int level, const char *file, unsigned line, const char *message);
