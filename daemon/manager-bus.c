// SPDX-License-Identifier: GPL-2.0-only
/* The manager's bus: one connection to the system bus that never blocks the event loop. Every
 * call is asynchronous with a deadline (systemd-bus.c); a connection that does not answer
 * Subscribe in time, or a lookup that misses its deadline, counts as lost like a closed one:
 * slices are found by their paths meanwhile, and memcgd reconnects with a backoff. The watchdog
 * is fed by the loop (sd_event_set_watchdog) whatever the bus does. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "log.h"
#include "manager-internal.h"
#include "systemd-bus.h"
#include "units-parse.h"
#include "util.h"

static void lookups_forget(struct manager *m);
static void exempt_finish(struct manager *m);

/* Lost: a reconnect is on its way (the connection given up may not be closed yet). */
static bool bus_given_up(const struct manager *m)
{
	int enabled = SD_EVENT_OFF;

	if (m->reconnect_src)
		(void)sd_event_source_get_enabled(m->reconnect_src, &enabled);
	return enabled != SD_EVENT_OFF;
}

bool mgr_bus_usable(const struct manager *m)
{
	return m->bus && !bus_given_up(m) && sd_bus_is_open(m->bus) > 0;
}

/* sd_bus_close() inside one of the connection's own callbacks (a lookup that timed out) makes
 * sd-bus abort when it goes on processing (dispatch_wqueue asserts a running bus): the lost
 * connection is closed from the next loop iteration instead. */
static int on_bus_close(sd_event_source *s, void *userdata)
{
	struct manager *m = userdata;

	if (m->bus && bus_given_up(m))
		sd_bus_close(m->bus);
	return 0;
}

static void on_unit_changed(const char *unit, void *userdata)
{
	struct manager *m = userdata;

	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && streq(m->rt[k].conf.name, unit)) {
			m->rt[k].dirty = true;
			mgr_schedule_resolve(m);
		}
}

static void on_bus_ready(sd_bus *bus, int r, const char *why, void *userdata)
{
	struct manager *m = userdata;

	if (bus != m->bus)
		return; /* a connection given up meanwhile */
	if (r < 0) {
		mgr_bus_lost(m, why && why[0] ? why : strerror(-r));
		return;
	}
	m->bus_ready = true;
	sd_event_source_set_enabled(m->bus_deadline_src, SD_EVENT_OFF);
	if (m->bus_failures)
		log_transition(LOG_NOTICE, "bus-connected", NULL, 0, m->bus_failures,
			       "connected to the system bus again after %u attempt%s", m->bus_failures,
			       m->bus_failures == 1 ? "" : "s");
	m->bus_failures = 0;
	/* signals may have been missed meanwhile */
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use)
			m->rt[k].dirty = true;
	mgr_schedule_resolve(m);
	mgr_refresh_exempt(m);
}

static int on_bus_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	if (m->bus && !m->bus_ready)
		mgr_bus_lost(m, "no answer from the bus within 5 s (dbus hung?)");
	return 0;
}

/* A new connection; its Subscribe must be answered within BUS_DEADLINE_USEC. */
static int bus_open(struct manager *m)
{
	int r;

	m->bus_ready = false;
	r = bus_connect(m->event, on_unit_changed, on_bus_ready, m, &m->bus);
	if (r < 0)
		return r;
	if (!m->bus_deadline_src) {
		r = sd_event_add_time_relative(m->event, &m->bus_deadline_src, CLOCK_MONOTONIC, BUS_DEADLINE_USEC, 0,
					       on_bus_deadline, m);
		if (r < 0)
			return r;
	}
	sd_event_source_set_time_relative(m->bus_deadline_src, BUS_DEADLINE_USEC);
	sd_event_source_set_enabled(m->bus_deadline_src, SD_EVENT_ONESHOT);
	return 0;
}

static void arm_reconnect(struct manager *m);

static int on_reconnect(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	int r;

	/* never sd_bus_flush: it waits for a hung dbus to read */
	m->bus = sd_bus_close_unref(m->bus);
	r = bus_open(m);
	if (r < 0) {
		m->bus = sd_bus_close_unref(m->bus);
		m->bus_failures++;
		log_warning("cannot connect to systemd's bus (%s), attempt %u; next in %" PRIu64 " s, finding slices "
			    "by their cgroup paths meanwhile", strerror(-r), m->bus_failures,
			    mgr_backoff_usec(m->bus_failures) / USEC_PER_SEC);
		arm_reconnect(m);
	}
	return 0;
}

static void arm_reconnect(struct manager *m)
{
	if (!m->reconnect_src &&
	    sd_event_add_time_relative(m->event, &m->reconnect_src, CLOCK_MONOTONIC,
				       mgr_backoff_usec(m->bus_failures), 0, on_reconnect, m) < 0)
		return;
	sd_event_source_set_time_relative(m->reconnect_src, mgr_backoff_usec(m->bus_failures));
	sd_event_source_set_enabled(m->reconnect_src, SD_EVENT_ONESHOT);
}

/* The connection broke, hung or never answered: slices are found by their paths until a
 * reconnect succeeds. */
void mgr_bus_lost(struct manager *m, const char *why)
{
	if (!m->opt.use_bus || bus_given_up(m))
		return;
	if (m->bus_failures == 0)
		log_transition(LOG_WARNING, "bus-lost", NULL, 0, 0, "lost the system bus (%s): reconnecting", why);
	else
		log_warning("the system bus does not work yet (%s), attempt %u; next in %" PRIu64 " s, finding slices "
			    "by their cgroup paths meanwhile", why, m->bus_failures,
			    mgr_backoff_usec(m->bus_failures + 1) / USEC_PER_SEC);
	m->bus_failures++;
	m->bus_ready = false;
	m->bus_epoch++; /* answers still on their way are ignored */
	if (m->bus_deadline_src)
		sd_event_source_set_enabled(m->bus_deadline_src, SD_EVENT_OFF);
	arm_reconnect(m);
	/* no more calls go out (mgr_bus_usable), closed by on_bus_close, freed by on_reconnect */
	if (m->bus) {
		if (!m->bus_close_src && sd_event_add_defer(m->event, &m->bus_close_src, on_bus_close, m) < 0)
			m->bus_close_src = NULL;
		if (m->bus_close_src)
			sd_event_source_set_enabled(m->bus_close_src, SD_EVENT_ONESHOT);
	}
	lookups_forget(m);
	if (m->exempt_lookup.outstanding) {
		m->exempt_lookup.round++;
		m->exempt_lookup.outstanding = 0;
		exempt_finish(m);
	}
	mgr_schedule_resolve(m);
}

int mgr_bus_start(struct manager *m)
{
	int r;

	if (!m->opt.use_bus)
		return 0;
	r = bus_open(m);
	if (r < 0) {
		m->bus = sd_bus_close_unref(m->bus);
		log_warning("cannot connect to systemd's bus (%s): finding slices by their cgroup paths until it is back",
			    strerror(-r));
		mgr_bus_lost(m, strerror(-r));
	}
	return 0;
}

void mgr_bus_stop(struct manager *m)
{
	m->bus_epoch++;
	m->exempt_lookup.round++;
	/* pending lookups end here (ECANCELED) and are ignored */
	m->bus = sd_bus_close_unref(m->bus);
	lookups_forget(m);
	for (size_t i = 0; i < MEMCGD_MAX_EXEMPT; i++)
		{
		free(m->exempt_lookup.unit_cgroups[i]);
		m->exempt_lookup.unit_cgroups[i] = NULL;
	}
	free(m->exempt_lookup.own);
	m->exempt_lookup.own = NULL;
	m->bus_deadline_src = sd_event_source_unref(m->bus_deadline_src);
	m->bus_close_src = sd_event_source_unref(m->bus_close_src);
	m->reconnect_src = sd_event_source_unref(m->reconnect_src);
}

/* ---- a slice's cgroup ---- */

struct slice_lookup {
	struct manager *m;
	uint64_t epoch;
	uint32_t slot;
	char name[];
};

static void lookups_forget(struct manager *m)
{
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		m->rt[k].lookup.pending = false;
	m->lookups_pending = 0;
}

static void on_slice_looked_up(struct bus_unit_result *res, void *userdata)
{
	struct slice_lookup *req = userdata;
	struct manager *m = req->m;
	struct slice_rt *rt = &m->rt[req->slot];

	if (req->epoch != m->bus_epoch || !rt->in_use || !rt->lookup.pending || !streq(rt->conf.name, req->name)) {
		free(req);
		return;
	}
	rt->lookup.pending = false;
	m->lookups_pending--;
	free(rt->lookup.cgroup);
	rt->lookup.done = true;
	rt->lookup.r = res->r;
	rt->lookup.cgroup = res->str;
	res->str = NULL;
	if (res->not_loaded)
		snprintf(rt->lookup.reason, sizeof(rt->lookup.reason), "slice not loaded (it starts with its first unit)");
	else
		snprintf(rt->lookup.reason, sizeof(rt->lookup.reason), "%s", res->reason);
	free(req);
	if (res->r < 0 && bus_error_is_lost(res->r))
		mgr_bus_lost(m, rt->lookup.reason);
	mgr_schedule_resolve(m);
}

int mgr_lookup_slice(struct manager *m, uint32_t slot)
{
	struct slice_rt *rt = &m->rt[slot];
	const struct bus_unit_query q = {
		.unit = rt->conf.name,
		.property = "ControlGroup",
		.type = 's',
		.active_only = true,
	};
	struct slice_lookup *req;
	int r;

	if (rt->lookup.pending)
		return 0;
	req = malloc(sizeof(*req) + strlen(rt->conf.name) + 1);
	if (!req)
		return -ENOMEM;
	*req = (struct slice_lookup){ .m = m, .epoch = m->bus_epoch, .slot = slot };
	strcpy(req->name, rt->conf.name);
	r = bus_unit_lookup_async(m->bus, &q, BUS_DEADLINE_USEC, on_slice_looked_up, req);
	if (r < 0) {
		free(req);
		return r;
	}
	rt->lookup.pending = true;
	m->lookups_pending++;
	return 0;
}

/* ---- self-protection: the exempt cgroups ---- */

struct exempt_lookup {
	struct manager *m;
	unsigned round;
	int index; /* into exempt_units, -1 for memcgd's own unit */
};

/* memcgd's own cgroup, PID 1's and those of journald, dbus and logind are never delayed,
 * whatever the policy of the slice around them (bpf/memcgd.h, exempt). Their cgroups can change
 * when those units restart: refreshed with the periodic re-check. */
static void exempt_finish(struct manager *m)
{
	struct exempt_set e;
	int r;

	exempt_collect(m->opt.cgroup_root, m->exempt_lookup.unit_cgroups, m->exempt_lookup.own, &e);
	for (size_t i = 0; i < MEMCGD_MAX_EXEMPT; i++)
		{
		free(m->exempt_lookup.unit_cgroups[i]);
		m->exempt_lookup.unit_cgroups[i] = NULL;
	}
	r = policy_maps_set_exempt(&m->pm, e.ids, e.n);
	if (r < 0)
		log_error("cannot write the exempt map: %s", strerror(-r));
	for (size_t i = 0; i < e.n; i++) {
		bool known = false;

		for (size_t j = 0; j < m->exempt.n; j++)
			known |= m->exempt.ids[j] == e.ids[i];
		if (!known)
			log_info("%s: exempt, never delayed whatever the policy of its slice", e.paths[i]);
	}
	exempt_set_done(&m->exempt);
	m->exempt = e;
	mgr_maybe_ready(m);
}

static void on_exempt_looked_up(struct bus_unit_result *res, void *userdata)
{
	static bool own_warned;
	struct exempt_lookup *req = userdata;
	struct manager *m = req->m;

	if (req->round == m->exempt_lookup.round && m->exempt_lookup.outstanding) {
		char **slot = req->index < 0 ? &m->exempt_lookup.own : &m->exempt_lookup.unit_cgroups[req->index];

		if (res->r > 0) {
			free(*slot);
			*slot = res->str;
			res->str = NULL;
		} else if (req->index < 0 && !own_warned) {
			log_warning("cannot find memcgd's own cgroup on the bus (%s): it is not exempt", res->reason);
			own_warned = true;
		}
		if (--m->exempt_lookup.outstanding == 0)
			exempt_finish(m);
		/* (a round still outstanding is finished by it with what is known) */
		if (res->r < 0 && bus_error_is_lost(res->r))
			mgr_bus_lost(m, res->reason);
	}
	free(req);
}

static void exempt_ask(struct manager *m, const char *unit, int index)
{
	const struct bus_unit_query q = { .unit = unit, .property = "ControlGroup", .type = 's' };
	struct exempt_lookup *req = malloc(sizeof(*req));

	if (!req)
		return;
	*req = (struct exempt_lookup){ .m = m, .round = m->exempt_lookup.round, .index = index };
	if (bus_unit_lookup_async(m->bus, &q, BUS_DEADLINE_USEC, on_exempt_looked_up, req) < 0) {
		free(req);
		return;
	}
	m->exempt_lookup.outstanding++;
}

void mgr_refresh_exempt(struct manager *m)
{
	_cleanup_free_ char *own = NULL;

	if (m->exempt_lookup.outstanding)
		return; /* one round at a time */
	m->exempt_lookup.round++;
	if (mgr_bus_usable(m)) {
		for (size_t i = 0; i < n_exempt_units && i < MEMCGD_MAX_EXEMPT; i++)
			exempt_ask(m, exempt_units[i], (int)i);
		/* in a cgroup namespace of its own (a container), /proc/self/cgroup reads "/": the
		 * cgroup of memcgd's unit (its service, or the container's scope) from systemd */
		if (own_cgroup_path(&own) == 0 && streq(own, "/"))
			exempt_ask(m, NULL, -1);
	}
	if (m->exempt_lookup.outstanding == 0)
		exempt_finish(m);
}
