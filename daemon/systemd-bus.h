/* SPDX-License-Identifier: GPL-2.0-only */
/* systemd's bus: the one lookup of a unit's property (used by memcgd for slices, the exempt units
 * and its own unit, and by memcgctl for memcgd's MainPID), and memcgd's connection with its unit
 * signals. Nothing here blocks an event loop: every call is asynchronous with a deadline. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

/* How long one lookup (all its calls together) or a connection's Subscribe may take. */
#define BUS_DEADLINE_USEC (5 * UINT64_C(1000000))

struct bus_unit_query {
	const char *unit;     /* "a.slice"; NULL: the caller's own unit (GetUnitByPID(0), e.g. a container's scope) */
	const char *property; /* a property of the unit type's interface: "ControlGroup", "MainPID" */
	char type;            /* its D-Bus type: 's' or 'u' */
	bool active_only;     /* a unit that is not active (nor activating, reloading) is a result of 0 */
};

struct bus_unit_result {
	int r;                /* 1 found; 0 not loaded, not active or an empty string (reason); -errno (reason) */
	char *str;            /* type 's'; a done callback may take it (set it to NULL) */
	uint32_t u32;         /* type 'u' */
	bool not_loaded;      /* r = 0 because systemd has no such unit loaded */
	char unit[256];       /* the unit's name (its Id for a lookup of the own unit) */
	char reason[256];
};

/* Called exactly once per started lookup; r = -ECANCELED when the connection went away first. */
typedef void (*bus_unit_done_fn)(struct bus_unit_result *res, void *userdata);

/* GetUnit (or GetUnitByPID), then ActiveState (active_only), the unit's Id (own unit) and the
 * property, one call after the other within timeout_usec. Returns 0 when started (done follows
 * from the bus's event processing), -errno otherwise (done is not called). */
int bus_unit_lookup_async(sd_bus *bus, const struct bus_unit_query *q, uint64_t timeout_usec, bus_unit_done_fn done,
			  void *userdata);
/* The same lookup, waiting for it (memcgctl). ret->str is the caller's to free. Returns 0 with the
 * outcome in ret->r, or -errno when the lookup could not be started or did not end in time. */
int bus_unit_lookup(sd_bus *bus, const struct bus_unit_query *q, uint64_t timeout_usec, struct bus_unit_result *ret);

/* A lookup error that means the connection is gone or hung (timeouts included): reconnect. */
bool bus_error_is_lost(int r);

typedef void (*unit_changed_fn)(const char *unit, void *userdata);
/* Subscribe answered on bus (r = 0), or failed (r < 0, why says how). */
typedef void (*bus_ready_fn)(sd_bus *bus, int r, const char *why, void *userdata);

/* Opens the system bus, attaches it to the event loop and subscribes to unit changes (JobRemoved,
 * UnitNew, UnitRemoved, PropertiesChanged; on_change gets the unit name), without waiting for any
 * answer: on_ready says when systemd answered Subscribe. An answer that never comes (a hung
 * dbus) is the caller's deadline to keep. */
int bus_connect(sd_event *event, unit_changed_fn on_change, bus_ready_fn on_ready, void *userdata, sd_bus **ret);
