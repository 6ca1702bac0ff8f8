/* SPDX-License-Identifier: GPL-2.0-only */
/* The MESSAGE_ID of each kind of structured journal record memcgd writes (MEMCGD_EVENT=), so
 * that `journalctl MESSAGE_ID=...` finds one kind and `journalctl -x` explains it from
 * catalog/memcgd.catalog. tests/unit/test-journal-catalog.py checks that every event the code
 * logs has an ID here and an entry in the catalog, and that nothing is left over. */
#pragma once

/* The 128-bit ID (32 lowercase hex digits) of event, or MEMCGD_MESSAGE_ID for an event without
 * one of its own. */
const char *log_message_id(const char *event);
