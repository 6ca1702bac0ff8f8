// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "systemd-bus.h"
#include "util.h"

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER "org.freedesktop.systemd1.Manager"
#define SD_UNIT_IFACE "org.freedesktop.systemd1.Unit"
#define SD_UNIT_PREFIX "/org/freedesktop/systemd1/unit"
#define DBUS_PROPERTIES "org.freedesktop.DBus.Properties"

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

bool bus_error_is_lost(int r)
{
	return r == -ETIMEDOUT || r == -ECONNRESET || r == -ENOTCONN || r == -EPIPE || r == -ECANCELED ||
	       r == -ESHUTDOWN || r == -ECONNREFUSED;
}

/* ---- one unit's property: GetUnit -> [ActiveState] -> [Id] -> property ---- */

enum lookup_step {
	STEP_GET_UNIT,
	STEP_ACTIVE_STATE,
	STEP_ID,
	STEP_PROPERTY,
};

struct lookup {
	sd_bus *bus;              /* borrowed: alive while one of our slots is */
	char *unit;               /* NULL: the caller's own */
	char *property;
	char type;
	bool active_only;
	enum lookup_step step;
	char *path;               /* the unit's object path */
	uint64_t deadline;        /* CLOCK_MONOTONIC, usec */
	unsigned slots;           /* calls of ours the bus still holds */
	bool finished;
	bus_unit_done_fn done;
	void *userdata;
	struct bus_unit_result res;
};

/* The interface that carries a unit type's ControlGroup, MainPID, ... */
static const char *unit_type_interface(const char *unit)
{
	static const char *const types[][2] = {
		{ ".service", "org.freedesktop.systemd1.Service" },
		{ ".scope", "org.freedesktop.systemd1.Scope" },
		{ ".slice", "org.freedesktop.systemd1.Slice" },
		{ ".socket", "org.freedesktop.systemd1.Socket" },
		{ ".mount", "org.freedesktop.systemd1.Mount" },
		{ ".swap", "org.freedesktop.systemd1.Swap" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (str_ends_with(unit, types[i][0]))
			return types[i][1];
	return NULL;
}

static void lookup_free(struct lookup *l)
{
	free(l->unit);
	free(l->property);
	free(l->path);
	free(l->res.str);
	free(l);
}

__attribute__((format(printf, 3, 4)))
static void lookup_finish(struct lookup *l, int r, const char *fmt, ...)
{
	va_list ap;

	if (l->finished)
		return;
	l->finished = true;
	l->res.r = r;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(l->res.reason, sizeof(l->res.reason), fmt, ap);
		va_end(ap);
	}
	/* last: the callback may close the bus */
	l->done(&l->res, l->userdata);
}

/* The bus let go of one of our calls (answered, or the connection was freed). */
static void lookup_slot_gone(void *userdata)
{
	struct lookup *l = userdata;

	if (--l->slots > 0)
		return;
	lookup_finish(l, -ECANCELED, "the bus connection was closed before systemd answered");
	lookup_free(l);
}

static int lookup_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error);

/* Sends the call of the current step. */
static int lookup_call(struct lookup *l)
{
	sd_bus_message *msg = NULL;
	sd_bus_slot *slot = NULL;
	uint64_t now = now_usec();
	const char *iface;
	int r;

	if (now >= l->deadline)
		return -ETIMEDOUT;
	switch (l->step) {
	case STEP_GET_UNIT:
		r = sd_bus_message_new_method_call(l->bus, &msg, SD_DEST, SD_PATH, SD_MANAGER,
						   l->unit ? "GetUnit" : "GetUnitByPID");
		if (r >= 0)
			r = l->unit ? sd_bus_message_append(msg, "s", l->unit) : sd_bus_message_append(msg, "u", 0);
		break;
	case STEP_ACTIVE_STATE:
	case STEP_ID:
		r = sd_bus_message_new_method_call(l->bus, &msg, SD_DEST, l->path, DBUS_PROPERTIES, "Get");
		if (r >= 0)
			r = sd_bus_message_append(msg, "ss", SD_UNIT_IFACE, l->step == STEP_ID ? "Id" : "ActiveState");
		break;
	case STEP_PROPERTY:
		iface = unit_type_interface(l->res.unit);
		if (!iface)
			return -EOPNOTSUPP;
		r = sd_bus_message_new_method_call(l->bus, &msg, SD_DEST, l->path, DBUS_PROPERTIES, "Get");
		if (r >= 0)
			r = sd_bus_message_append(msg, "ss", iface, l->property);
		break;
	default:
		r = -EINVAL;
	}
	if (r >= 0)
		r = sd_bus_call_async(l->bus, &slot, msg, lookup_reply, l, l->deadline - now);
	sd_bus_message_unref(msg);
	if (r < 0)
		return r;
	/* owned by the bus from now on; lookup_slot_gone counts it out */
	(void)sd_bus_slot_set_destroy_callback(slot, lookup_slot_gone);
	l->slots++;
	(void)sd_bus_slot_set_floating(slot, 1);
	sd_bus_slot_unref(slot);
	return 0;
}

static const char *call_name(const struct lookup *l)
{
	switch (l->step) {
	case STEP_GET_UNIT:
		return l->unit ? "GetUnit" : "GetUnitByPID";
	case STEP_ACTIVE_STATE:
		return "ActiveState";
	case STEP_ID:
		return "Id";
	default:
		return l->property;
	}
}

/* Reads one step's answer and says what comes next; 0 when the lookup finished. */
static int lookup_advance(struct lookup *l, sd_bus_message *reply)
{
	const char *s;
	int r;

	switch (l->step) {
	case STEP_GET_UNIT:
		r = sd_bus_message_read(reply, "o", &s);
		if (r < 0)
			return r;
		l->path = strdup(s);
		if (!l->path)
			return -ENOMEM;
		l->step = l->active_only ? STEP_ACTIVE_STATE : l->unit ? STEP_PROPERTY : STEP_ID;
		return 1;
	case STEP_ACTIVE_STATE:
		r = sd_bus_message_read(reply, "v", "s", &s);
		if (r < 0)
			return r;
		if (!streq(s, "active") && !streq(s, "reloading") && !streq(s, "activating")) {
			lookup_finish(l, 0, "%s is %s", l->res.unit, s);
			return 0;
		}
		l->step = l->unit ? STEP_PROPERTY : STEP_ID;
		return 1;
	case STEP_ID:
		r = sd_bus_message_read(reply, "v", "s", &s);
		if (r < 0)
			return r;
		snprintf(l->res.unit, sizeof(l->res.unit), "%s", s);
		l->step = STEP_PROPERTY;
		return 1;
	case STEP_PROPERTY:
		if (l->type == 'u') {
			r = sd_bus_message_read(reply, "v", "u", &l->res.u32);
			if (r < 0)
				return r;
			lookup_finish(l, 1, NULL);
			return 0;
		}
		r = sd_bus_message_read(reply, "v", "s", &s);
		if (r < 0)
			return r;
		if (!s[0]) {
			lookup_finish(l, 0, "%s has no %s (yet)", l->res.unit, l->property);
			return 0;
		}
		l->res.str = strdup(s);
		if (!l->res.str)
			return -ENOMEM;
		lookup_finish(l, 1, NULL);
		return 0;
	}
	return -EINVAL;
}

static int lookup_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
	struct lookup *l = userdata;
	const sd_bus_error *e = sd_bus_message_get_error(reply);
	int r;

	if (l->finished)
		return 0;
	if (e) {
		if (l->step == STEP_GET_UNIT && sd_bus_error_has_name(e, "org.freedesktop.systemd1.NoSuchUnit")) {
			l->res.not_loaded = true;
			lookup_finish(l, 0, "%s is not loaded", l->res.unit);
		} else
			lookup_finish(l, (-sd_bus_error_get_errno(e)) ?: -EIO, "systemd %s(%s): %s", call_name(l),
				      l->res.unit, e->message ? e->message : e->name);
		return 0;
	}
	r = lookup_advance(l, reply);
	if (r > 0)
		r = lookup_call(l);
	if (r < 0)
		lookup_finish(l, r, "systemd %s(%s): %s", call_name(l), l->res.unit, strerror(-r));
	return 0;
}

int bus_unit_lookup_async(sd_bus *bus, const struct bus_unit_query *q, uint64_t timeout_usec, bus_unit_done_fn done,
			  void *userdata)
{
	struct lookup *l = calloc(1, sizeof(*l));
	int r;

	if (!l)
		return -ENOMEM;
	l->bus = bus;
	l->unit = q->unit ? strdup(q->unit) : NULL;
	l->property = strdup(q->property);
	l->type = q->type;
	l->active_only = q->active_only;
	l->deadline = now_usec() + timeout_usec;
	l->done = done;
	l->userdata = userdata;
	snprintf(l->res.unit, sizeof(l->res.unit), "%s", q->unit ? q->unit : "own unit");
	if ((q->unit && !l->unit) || !l->property) {
		lookup_free(l);
		return -ENOMEM;
	}
	r = lookup_call(l);
	if (r < 0)
		lookup_free(l);
	return r;
}

/* bus_unit_lookup's waiter: on the heap, since a lookup abandoned at its deadline still ends
 * (ECANCELED) when the caller frees the bus. */
struct lookup_waiter {
	bool done, abandoned;
	struct bus_unit_result res;
};

static void waiter_done(struct bus_unit_result *res, void *userdata)
{
	struct lookup_waiter *w = userdata;

	if (w->abandoned) {
		free(w);
		return;
	}
	w->res = *res;
	res->str = NULL;
	w->done = true;
}

int bus_unit_lookup(sd_bus *bus, const struct bus_unit_query *q, uint64_t timeout_usec, struct bus_unit_result *ret)
{
	struct lookup_waiter *w = calloc(1, sizeof(*w));
	uint64_t deadline = now_usec() + timeout_usec;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!w)
		return -ENOMEM;
	r = bus_unit_lookup_async(bus, q, timeout_usec, waiter_done, w);
	if (r < 0) {
		free(w);
		return r;
	}
	while (!w->done) {
		uint64_t now = now_usec();

		if (now >= deadline) {
			r = -ETIMEDOUT;
			break;
		}
		r = sd_bus_process(bus, NULL);
		if (r < 0)
			break;
		if (r > 0)
			continue;
		r = sd_bus_wait(bus, deadline - now);
		if (r < 0)
			break;
	}
	if (!w->done) {
		w->abandoned = true;
		return r < 0 ? r : -ETIMEDOUT;
	}
	*ret = w->res;
	free(w);
	return 0;
}

/* ---- memcgd's connection ---- */

struct bus_ctx {
	unit_changed_fn on_change;
	bus_ready_fn on_ready;
	void *userdata;
};

static struct bus_ctx ctx;

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *job, *unit, *result;
	uint32_t id;

	if (sd_bus_message_read(m, "uoss", &id, &job, &unit, &result) >= 0)
		ctx.on_change(unit, ctx.userdata);
	return 0;
}

static int on_unit_new_removed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *unit, *path;

	if (sd_bus_message_read(m, "so", &unit, &path) >= 0)
		ctx.on_change(unit, ctx.userdata);
	return 0;
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const char *path = sd_bus_message_get_path(m);
	char *unit = NULL;

	if (path && sd_bus_path_decode(path, SD_UNIT_PREFIX, &unit) > 0 && str_ends_with(unit, ".slice"))
		ctx.on_change(unit, ctx.userdata);
	free(unit);
	return 0;
}

static int on_subscribed(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	const sd_bus_error *e = sd_bus_message_get_error(m);

	ctx.on_ready(sd_bus_message_get_bus(m), e ? (-sd_bus_error_get_errno(e) ?: -EIO) : 0,
		     e ? (e->message ? e->message : e->name) : "", ctx.userdata);
	return 0;
}

int bus_connect(sd_event *event, unit_changed_fn on_change, bus_ready_fn on_ready, void *userdata, sd_bus **ret)
{
	sd_bus *bus = NULL;
	int r;

	ctx.on_change = on_change;
	ctx.on_ready = on_ready;
	ctx.userdata = userdata;
	/* the system bus only: systemd's private socket (/run/systemd/private) is root's back door
	 * to PID 1, which memcgd has no business holding; without a bus, slices are found by their
	 * cgroup paths. Opening does not wait for dbus: authentication and Hello run from the loop. */
	r = sd_bus_open_system(&bus);
	if (r < 0)
		return r;
	(void)sd_bus_set_method_call_timeout(bus, BUS_DEADLINE_USEC);
	r = sd_bus_attach_event(bus, event, SD_EVENT_PRIORITY_NORMAL);
	if (r < 0)
		goto fail;
	/* asynchronous matches: a refused one closes the connection (sd-bus's default) */
	r = sd_bus_match_signal_async(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "JobRemoved", on_job_removed, NULL, NULL);
	if (r >= 0)
		r = sd_bus_match_signal_async(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "UnitNew", on_unit_new_removed,
					      NULL, NULL);
	if (r >= 0)
		r = sd_bus_match_signal_async(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "UnitRemoved",
					      on_unit_new_removed, NULL, NULL);
	if (r >= 0)
		r = sd_bus_match_signal_async(bus, NULL, SD_DEST, NULL, DBUS_PROPERTIES, "PropertiesChanged",
					      on_properties_changed, NULL, NULL);
	if (r < 0)
		goto fail;
	/* without Subscribe systemd sends no unit signals */
	r = sd_bus_call_method_async(bus, NULL, SD_DEST, SD_PATH, SD_MANAGER, "Subscribe", on_subscribed, NULL, NULL);
	if (r < 0)
		goto fail;
	*ret = bus;
	return 0;
fail:
	sd_bus_close_unref(bus);
	return r;
}
