/* SPDX-License-Identifier: GPL-2.0-only */
/* Slices on systemd's bus: where their cgroup is, and signals when they start or stop. */
#pragma once

#include <stddef.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

typedef void (*unit_changed_fn)(const char *unit, void *userdata);

/* Connects to the system bus, attaches it to the event loop and subscribes to unit changes
 * (JobRemoved, UnitNew, UnitRemoved, PropertiesChanged); on_change gets the unit name. */
int bus_connect(sd_event *event, unit_changed_fn on_change, void *userdata, sd_bus **ret);

/* 1 and *ret_cgroup ("/a.slice/a-b.slice") when the slice is active; 0 with reason when it is
 * not loaded or not active; -errno on bus errors (reason says which). */
int bus_slice_cgroup(sd_bus *bus, const char *slice, char **ret_cgroup, char *reason, size_t len);
