// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-journal.h>

#include "log-ids.h"
#include "log.h"

int log_max_level = LOG_INFO;

void log_msg(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > log_max_level)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "<%d>", level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void log_transition(int level, const char *event, const char *slice, long priority, uint64_t value,
		    const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	/* the journal gets the structured record; stderr the text, unless it also goes to the
	 * journal (then the record alone is enough) */
	sd_journal_send("MESSAGE=%s", msg,
			"MESSAGE_ID=%s", log_message_id(event),
			"PRIORITY=%d", level,
			"MEMCGD_EVENT=%s", event,
			"MEMCGD_SLICE=%s", slice ? slice : "",
			"MEMCGD_PRIORITY=%ld", priority,
			"MEMCGD_VALUE=%llu", (unsigned long long)value,
			"SYSLOG_IDENTIFIER=memcgd",
			NULL);
	if (!getenv("JOURNAL_STREAM"))
		log_msg(level, "%s", msg);
}

void log_config_problem(int level, const char *file, unsigned line, const char *message)
{
	char msg[1024];

	if (line)
		snprintf(msg, sizeof(msg), "%s:%u: %s", file ? file : "?", line, message ? message : "?");
	else
		snprintf(msg, sizeof(msg), "%s: %s", file ? file : "?", message ? message : "?");
	sd_journal_send("MESSAGE=%s", msg,
			"MESSAGE_ID=%s", log_message_id("config-problem"),
			"PRIORITY=%d", level,
			"MEMCGD_EVENT=config-problem",
			"CONFIG_FILE=%s", file ? file : "",
			"CONFIG_LINE=%u", line,
			"SYSLOG_IDENTIFIER=memcgd",
			NULL);
	if (!getenv("JOURNAL_STREAM"))
		log_msg(level, "%s", msg);
}
