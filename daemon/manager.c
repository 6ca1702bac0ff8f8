// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "caps.h"
#include "cgroup-files.h"
#include "config-in-force.h"
#include "config.h"
#include "exempt.h"
#include "kernel-probe-cache.h"
#include "log.h"
#include "manager-internal.h"
#include "policy.h"
#include "state.h"
#include "systemd-bus.h"
#include "units-parse.h"
#include "util.h"

/* ---- configuration ---- */

static int apply_config(struct manager *m, struct memcgd_config *c)
{
	uint32_t levels[MEMCGD_MAX_SLICES];
	int slot_of[MEMCGD_MAX_SLICES];
	bool fresh[MEMCGD_MAX_SLICES];
	struct memcgd_policy pols[MEMCGD_MAX_SLICES] = {};
	struct memcgd_slice_state states[MEMCGD_MAX_SLICES] = {};
	struct memcgd_levels lv;
	bool keep[MEMCGD_MAX_SLICES] = {};
	uint32_t gen;
	int r;

	r = policy_levels(c, levels);
	if (r < 0)
		return r;
	/* slices that disappear give up their links first, so that a reused slot never applies
	 * a new policy to an old cgroup */
	for (size_t i = 0; i < c->n_slices; i++)
		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
			if (m->slots[k] && streq(m->slots[k], c->slices[i].name))
				keep[k] = true;
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && !keep[k]) {
			mgr_detach_slice(m, k, ATTACH_REMOVED, "no longer configured");
			log_transition(LOG_NOTICE, "removed", m->rt[k].conf.name, m->rt[k].conf.priority, 0,
				       "%s: no longer managed", m->rt[k].conf.name);
			slice_conf_done(&m->rt[k].conf);
			m->rt[k].in_use = false;
			if (m->rt[k].lookup.pending)
				m->lookups_pending--;
			free(m->rt[k].lookup.cgroup);
			memset(&m->rt[k].lookup, 0, sizeof(m->rt[k].lookup));
		}
	r = policy_assign_slots(m->slots, c, slot_of, fresh);
	if (r < 0)
		return r;

	gen = policy_maps_active_gen(&m->pm) ^ 1;
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];

		c->slices[i].settings.protect_max_usage = policy_max_usage(&c->slices[i].settings, m->ram_bytes);

		if (fresh[i]) {
			policy_maps_reset_state(&m->pm, k);
			policy_maps_clear_cpu_active(&m->pm, k);
			m->rt[k].last_cpu_ns = 0;
			m->rt[k].cpu_percent = -1;
			mgr_engine_reset(m, k);
		}
		policy_compile(&c->slices[i], levels[i], m->rt[k].cgroup_id, &pols[k]);
		/* a kernel without get_low/get_min: all or nothing (mgr_warn_unsized says so) */
		if (!m->pm.sized)
			pols[k].flags &= ~MEMCGD_POLICY_SIZED;
	}
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		r = policy_maps_write_policy(&m->pm, gen, k, &pols[k]);
		if (r < 0) {
			log_error("cannot write policy map: %s", strerror(-r));
			return r;
		}
		if (pols[k].flags & MEMCGD_POLICY_IN_USE)
			policy_maps_read_state(&m->pm, k, &states[k]);
	}
	mgr_reclaim_order(m, c, levels, slot_of, gen);
	policy_levels_rebuild(states, pols, MEMCGD_MAX_SLICES, mgr_now_ns(CLOCK_MONOTONIC), &lv);
	r = policy_maps_write_levels(&m->pm, gen, &lv);
	if (r < 0) {
		log_error("cannot write levels map: %s", strerror(-r));
		return r;
	}
	/* write_levels started the generation's CPU activity empty: carry over every slice that
	 * CPUUsage= keeps active, at its new level, so that the switch drops no throttling */
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];
		uint64_t until = policy_maps_cpu_active_until(&m->pm, k);

		if (!fresh[i] && until > mgr_now_ns(CLOCK_MONOTONIC))
			policy_maps_mark_cpu_active(&m->pm, gen, k, levels[i], until);
	}
	policy_maps_set_active_gen(&m->pm, gen);

	/* the new policy is in force; now the bookkeeping */
	for (size_t i = 0; i < c->n_slices; i++) {
		uint32_t k = (uint32_t)slot_of[i];
		struct slice_rt *rt = &m->rt[k];
		struct slice_conf *s = &c->slices[i];

		slice_conf_done(&rt->conf);
		rt->conf = *s;
		rt->conf.name = strdup(s->name);
		rt->conf.file = strdup(s->file);
		rt->level = levels[i];
		if (!rt->in_use) {
			rt->in_use = true;
			rt->dirty = true;
			rt->last_faults = 0;
			rt->last_sample_ns = 0;
			mgr_set_attach(rt, ATTACH_NOT_RUNNING, "not resolved yet");
		}
	}
	memcgd_config_done(&m->config);
	m->config = *c;
	memset(c, 0, sizeof(*c));
	m->generation++;
	return 0;
}

/* [Daemon] DryRun= on reload. Enforcing -> dry run drops every link (the slices are measured
 * only from then on); dry run -> enforcing needs the memcg_bpf_ops programs, which a dry run
 * never loads, and the capabilities it dropped: that takes a restart, and the reload is refused
 * saying so. Returns 0 or -EPERM with the reason in why. */
static int reload_mode(struct manager *m, const struct memcgd_config *c, char *why, size_t len)
{
	bool dry = m->opt.dry_run || c->daemon.dry_run;

	if (dry == m->dry_run)
		return 0;
	if (!dry && m->pm.dry_run) {
		snprintf(why, len, "%s: DryRun=no needs a restart (memcgd started as a dry run, without "
			 "the memcg_bpf_ops programs and their capabilities): systemctl restart memcgd",
			 c->daemon.file ? c->daemon.file : "memcgd.conf");
		return -EPERM;
	}
	if (dry) {
		for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
			if (m->rt[k].in_use && m->rt[k].link)
				mgr_detach_slice(m, k, ATTACH_NOT_RUNNING, "switching to a dry run");
		log_transition(LOG_NOTICE, "dry-run", NULL, 0, 1, "DryRun=yes: detached everything, measuring only");
	} else {
		log_transition(LOG_NOTICE, "dry-run", NULL, 0, 0, "DryRun=no: enforcing again");
	}
	m->dry_run = dry;
	/* off in a dry run; back to what it was at start when enforcing again (a daemon started
	 * as a dry run cannot get here, see above) */
	mgr_choose_reclaim_path(m, m->reclaim_want);
	policy_maps_set_reclaim_enabled(&m->pm, m->reclaim_path == RECLAIM_KERNEL && m->reclaim_n);
	return 0;
}

static void reload_refused(struct manager *m)
{
	log_transition(LOG_ERR, "reload-failed", NULL, 0, 0,
		       "reload refused, previous policy (generation %" PRIu64 ") kept: %s", m->generation,
		       m->reload_error);
	/* no RELOADING=1/READY=1 pair: nothing was reloaded. The unit's ExecReload=memcgctl reload
	 * reports the refusal to systemctl reload (memcgd(8), RELOADING). */
	sd_notifyf(0, "STATUS=reload refused, previous policy kept: %.400s", m->reload_error);
}

/* Every problem of a configuration load as a journal record of its own (CONFIG_FILE=,
 * CONFIG_LINE=); the first one, for STATUS= and the reload error, in first. */
static void log_config_problems(const struct diag_list *d, char *first, size_t len)
{
	char buf[1024];

	for (size_t i = 0; i < d->n; i++) {
		log_config_problem(LOG_ERR, d->items[i].file, d->items[i].line, d->items[i].message);
		if (i == 0)
			snprintf(first, len, "%.400s%s", diag_format(&d->items[i], buf, sizeof(buf)),
				 d->n > 1 ? " (and more: memcgctl status)" : "");
	}
}

/* The same rule as at start: the valid files apply, a file with a problem is left out (the
 * policies it had in force stay until it is fixed). Only an invalid memcgd.conf, whose defaults
 * concern every slice, or a change that takes a restart refuses the reload as a whole. */
static void reload(struct manager *m)
{
	struct memcgd_config c;
	struct diag_list d = {};
	char first[512] = "";
	int r;

	m->reloads++;
	/* everything is checked before anything changes: a refused reload changes nothing */
	r = config_load_in_force(m->opt.root, &m->config, &m->exempt, &c, &d);
	log_config_problems(&d, first, sizeof(first));
	if (r < 0) {
		snprintf(m->reload_error, sizeof(m->reload_error), "%s", d.n ? first : strerror(-r));
		reload_refused(m);
		goto out;
	}
	if (reload_mode(m, &c, m->reload_error, sizeof(m->reload_error)) < 0) {
		log_error("%s", m->reload_error);
		reload_refused(m);
		goto out;
	}

	if (c.daemon.max_cgroups != m->pm.max_cgroups)
		/* slice_of is sized when the programs are loaded */
		log_warning("%s: MaxCgroups=%" PRIu64 " takes effect when memcgd restarts; slice_of keeps %" PRIu32
			    " entries until then", c.daemon.file ? c.daemon.file : "memcgd.conf", c.daemon.max_cgroups,
			    m->pm.max_cgroups);
	if (c.daemon.reclaim_path != m->reclaim_want)
		/* the kernel path's program is loaded (or not) at start */
		log_warning("%s: ReclaimPath=%s takes effect when memcgd restarts; background reclaim stays %s until then",
			    c.daemon.file ? c.daemon.file : "memcgd.conf", reclaim_path_to_string(c.daemon.reclaim_path),
			    m->reclaim_note);
	sd_notifyf(0, "RELOADING=1\nSTATUS=reloading configuration\nMONOTONIC_USEC=%" PRIu64,
		   mgr_now_ns(CLOCK_MONOTONIC) / 1000);
	m->state = "reloading";
	if (c.daemon.update_interval_usec != m->interval_usec) {
		/* the new interval starts with an update, which also re-marks CPUUsage= activity
		 * for as long as the new interval needs */
		m->interval_usec = c.daemon.update_interval_usec;
		sd_event_source_set_time_relative(m->tick_src, 0);
	}
	r = apply_config(m, &c);
	if (r < 0) {
		snprintf(m->reload_error, sizeof(m->reload_error), "cannot apply: %s", strerror(-r));
		log_error("reload: %s", m->reload_error);
	} else {
		m->reload_error[0] = '\0';
		/* the problems of the configuration now in force, and only those */
		diag_list_clear(&m->skipped);
		m->skipped = d;
		memset(&d, 0, sizeof(d));
		log_transition(LOG_NOTICE, "reloaded", NULL, 0, m->generation,
			       "configuration reloaded: generation %" PRIu64 ", %zu slices%s", m->generation,
			       m->config.n_slices, m->skipped.n ? "; some files left out (memcgctl status)" : "");
		if (m->skipped.n)
			log_transition(LOG_ERR, "skipped", NULL, 0, m->skipped.n,
				       "left out invalid configuration (%zu problem%s), the other files apply: %s",
				       m->skipped.n, m->skipped.n == 1 ? "" : "s", first);
		mgr_warn_numa_unsupported(m);
		mgr_resolve_all(m, RESOLVE_ALL);
	}
	m->state = "running";
	sd_notify(0, "READY=1");
out:
	memcgd_config_done(&c);
	diag_list_clear(&d);
	mgr_notify_status(m);
}

static int on_events_fd(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct manager *m = userdata;

	ring_buffer__consume(m->pm.events);
	return 0;
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	static unsigned n;

	ring_buffer__consume(m->pm.events);
	if (m->bus && sd_bus_is_open(m->bus) <= 0)
		mgr_bus_lost(m, "connection closed");
	/* unresolved slices every tick (the 1 s attach bound even without bus signals), all of
	 * them every 10 ticks (to notice slices that stopped while signals were missed) */
	if (++n % 10 == 0)
		mgr_refresh_exempt(m);
	mgr_resolve_all(m, n % 10 == 0 ? RESOLVE_CHECK : RESOLVE_PENDING);
	mgr_sample(m);
	mgr_reclaim_tick(m);
	mgr_write_state(m);
	mgr_notify_status(m);
	sd_event_source_set_time(s, usec + m->interval_usec);
	return 0;
}

static int on_resolve(sd_event_source *s, void *userdata)
{
	struct manager *m = userdata;

	mgr_resolve_all(m, RESOLVE_PENDING);
	mgr_write_state(m);
	mgr_maybe_ready(m);
	return 0;
}

void mgr_maybe_ready(struct manager *m)
{
	if (m->ready || !m->start_done || m->lookups_pending || m->exempt_lookup.outstanding)
		return;
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		if (m->rt[k].in_use && m->rt[k].lookup.done)
			return; /* the resolve that applies it calls again */
	m->ready = true;
	m->state = "running";
	/* the first round of attaches took over what it could: the rest of the previous memcgd's
	 * links belong to slices no longer configured or not attached any more */
	link_store_release(&m->inherited);
	mgr_write_state(m);
	sd_notify(0, "READY=1");
	mgr_notify_status(m);
	log_info("memcgd %s: %zu slices configured, %s", m->dry_run ? "dry run" : "running", m->config.n_slices,
		 m->dry_run ? "measuring only (no memcg_bpf_ops attached)" : "enforcing");
}

static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	reload(userdata);
	mgr_write_state(userdata);
	return 0;
}

static int on_sigterm(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct manager *m = userdata;

	sd_notify(0, "STOPPING=1\nSTATUS=detaching; the kernel's own memory.low/min rules apply again");
	m->state = "stopping";
	return sd_event_exit(m->event, 0);
}

int manager_start(struct manager *m, const struct manager_options *opt)
{
	struct memcgd_config c;
	struct diag_list d = {};
	sigset_t mask;
	int r;

	memset(m, 0, sizeof(*m));
	m->opt = *opt;
	m->state = "starting";
	m->started_usec = mgr_now_ns(CLOCK_REALTIME) / 1000;
	{
		struct sysinfo si;

		m->ram_bytes = sysinfo(&si) == 0 ? (uint64_t)si.totalram * si.mem_unit : 0;
	}

	/* before anything slow (configuration, BPF load): a SIGHUP or SIGTERM that arrives early
	 * waits for the event loop instead of killing the daemon by its default action */
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;

	/* the exempt cgroups where systemd puts them by default (the bus refines them later): a
	 * policy that would hold one of them back is refused from the start */
	exempt_collect(opt->cgroup_root, NULL, NULL, &m->exempt);
	r = config_load_in_force(opt->root, NULL, &m->exempt, &c, &d);
	if (r < 0) {
		char first[512] = "";

		log_config_problems(&d, first, sizeof(first));
		log_error("invalid configuration, not starting (check with: memcgctl check)");
		sd_notifyf(0, "STATUS=invalid configuration: %s", first);
		memcgd_config_done(&c);
		diag_list_clear(&d);
		m->cannot_work = r != -ENOMEM;
		return r == -ENOMEM ? r : -EINVAL;
	}
	if (r > 0) {
		char first[512] = "";

		/* one bad drop-in does not stop the others (memcgd.d(5), "Invalid files") */
		log_config_problems(&d, first, sizeof(first));
		log_transition(LOG_ERR, "skipped", NULL, 0, d.n,
			       "left out invalid configuration (%zu problem%s), the other slices are managed: %s",
			       d.n, d.n == 1 ? "" : "s", first);
		m->skipped = d;
		memset(&d, 0, sizeof(d));
	}
	diag_list_clear(&d);
	m->dry_run = opt->dry_run || c.daemon.dry_run;
	m->interval_usec = c.daemon.update_interval_usec;

	r = kernel_probe_cached(MEMCGD_KERNEL_PROBE_CACHE, getenv("STATE_DIRECTORY") != NULL, &m->ks);
	log_info("kernel %s: memcg_bpf_ops hooks: %s; memcg:count_memcg_events tracepoint: %s", m->ks.release,
		 m->ks.hook_names[0] ? m->ks.hook_names : "none", m->ks.has_tracepoint ? "yes" : "no");
	if (r < 0 && !(m->dry_run && m->ks.has_tracepoint)) {
		log_error("%s", m->ks.error[0] ? m->ks.error : strerror(-r));
		sd_notifyf(0, "STATUS=unsupported kernel: %s", m->ks.error);
		memcgd_config_done(&c);
		m->cannot_work = true;
		return r == -EOPNOTSUPP ? r : -ENOSYS;
	}
	if (!m->dry_run && (m->ks.hooks & (HOOK_HANDLE_CGROUP_ONLINE | HOOK_HANDLE_CGROUP_OFFLINE | HOOK_GET_HIGH_DELAY_MS)) !=
				    (HOOK_HANDLE_CGROUP_ONLINE | HOOK_HANDLE_CGROUP_OFFLINE | HOOK_GET_HIGH_DELAY_MS)) {
		log_error("kernel %s: memcg_bpf_ops lacks hooks memcgd needs (has: %s; needs handle_cgroup_online "
			  "handle_cgroup_offline below_low below_min get_high_delay_ms); --dry-run still measures",
			  m->ks.release, m->ks.hook_names);
		memcgd_config_done(&c);
		m->cannot_work = true;
		return -EOPNOTSUPP;
	}

	mgr_choose_reclaim_path(m, c.daemon.reclaim_path);
	log_info("background reclaim: %s", m->reclaim_note);
	r = policy_maps_open(&m->pm, m->dry_run, (uint32_t)c.daemon.max_cgroups, m->reclaim_path == RECLAIM_KERNEL,
			     m->ks.hooks & HOOK_NUMA_BALANCING, (m->ks.hooks & HOOKS_SIZED) == HOOKS_SIZED,
			     mgr_on_ring_event, m);
	if (r < 0) {
		memcgd_config_done(&c);
		return r;
	}
	/* the links the previous memcgd left attached in systemd's file descriptor store: the
	 * attaches below take them over (link-store.h) */
	r = link_store_adopt(&m->inherited);
	if (r > 0)
		log_info("took %d link%s over from the previous memcgd (systemd's file descriptor store): "
			 "the slices kept their policy across the restart", r, r == 1 ? "" : "s");
	else if (r < 0)
		log_warning("cannot read systemd's file descriptor store: %s", strerror(-r));
	log_info("NUMA balancing: %s", m->pm.numa ? "memcg_bpf_ops::numa_balancing loaded, [NUMA] Balancing= decides per slice"
				     : m->dry_run ? "nothing decided per slice in a dry run"
				     : "the kernel lacks memcg_bpf_ops::numa_balancing, every slice follows kernel.numa_balancing");
	r = policy_maps_set_exempt(&m->pm, m->exempt.ids, m->exempt.n);
	if (r < 0)
		log_error("cannot write the exempt map: %s", strerror(-r));
	/* (a refresh logs the cgroups it adds to these) */
	for (size_t i = 0; i < m->exempt.n; i++)
		log_info("%s: exempt, never delayed whatever the policy of its slice", m->exempt.paths[i]);
	r = apply_config(m, &c);
	memcgd_config_done(&c);
	if (r < 0) {
		log_error("cannot apply the configuration: %s", strerror(-r));
		return r;
	}
	mgr_warn_numa_unsupported(m);

	r = sd_event_default(&m->event);
	if (r < 0)
		return r;
	if ((r = sd_event_add_signal(m->event, NULL, SIGHUP, on_sighup, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGTERM, on_sigterm, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGINT, on_sigterm, m)) < 0)
		return r;
	r = sd_event_add_io(m->event, &m->events_src, policy_maps_events_fd(&m->pm), EPOLLIN, on_events_fd, m);
	if (r < 0)
		return r;
	r = sd_event_add_defer(m->event, &m->resolve_src, on_resolve, m);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(m->resolve_src, SD_EVENT_OFF);
	r = sd_event_add_time_relative(m->event, &m->tick_src, CLOCK_MONOTONIC, m->interval_usec, 10000, on_tick, m);
	if (r < 0)
		return r;
	sd_event_source_set_enabled(m->tick_src, SD_EVENT_ON);
	/* WATCHDOG=1 pings from the loop itself, when WatchdogSec= is set */
	sd_event_set_watchdog(m->event, true);

	/* nothing below waits for the bus: lookups are answered through the loop, and READY=1
	 * follows the first round of them (mgr_maybe_ready), each within its deadline */
	mgr_bus_start(m);
	mgr_resolve_all(m, RESOLVE_ALL);
	mgr_refresh_exempt(m);

	/* everything privileged is done except creating links for slices that start later */
	r = caps_drop_to_runtime_set(!m->dry_run);
	if (r < 0)
		log_warning("continuing with the capabilities memcgd was started with");

	m->start_done = true;
	mgr_write_state(m);
	mgr_maybe_ready(m);
	return 0;
}

int manager_run(struct manager *m)
{
	return sd_event_loop(m->event);
}

void manager_free(struct manager *m)
{
	/* not taken over yet (a start that failed early): closing is enough, the store keeps its
	 * duplicates until systemd flushes it */
	for (size_t i = 0; i < m->inherited.n; i++)
		close(m->inherited.items[i].fd);
	free(m->inherited.items);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++) {
		if (m->rt[k].link)
			bpf_link__destroy(m->rt[k].link);
		slice_conf_done(&m->rt[k].conf);
		free(m->rt[k].cgroup);
		free(m->slots[k]);
	}
	if (m->opt.state_file && m->state && streq(m->state, "stopping"))
		unlink(m->opt.state_file);
	sd_event_source_unref(m->tick_src);
	sd_event_source_unref(m->resolve_src);
	sd_event_source_unref(m->events_src);
	mgr_bus_stop(m);
	for (uint32_t k = 0; k < MEMCGD_MAX_SLICES; k++)
		free(m->rt[k].lookup.cgroup);
	sd_event_unref(m->event);
	if (m->pm.skel)
		policy_maps_close(&m->pm);
	memcgd_config_done(&m->config);
	diag_list_clear(&m->skipped);
	exempt_set_done(&m->exempt);
}
