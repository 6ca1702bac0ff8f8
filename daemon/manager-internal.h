/* SPDX-License-Identifier: GPL-2.0-only */
/* Between the manager's parts: manager.c (event loop, configuration, reload, bus),
 * manager-slices.c (resolution, attachment, exempt cgroups), manager-sampler.c (the update's
 * measurements) and manager-publish.c (state file, STATUS=, diagnostics). */
#pragma once

#include <stdint.h>
#include <time.h>

#include "diag.h"
#include "manager.h"

static inline uint64_t mgr_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

enum resolve_scope {
	RESOLVE_PENDING,   /* slices marked dirty, failed ones due for a retry, unresolved ones without a bus */
	RESOLVE_CHECK,     /* and every other one whose cgroup directory changed */
	RESOLVE_ALL,       /* every slice asks systemd (start, reload) */
};

/* manager-slices.c */
void mgr_set_attach(struct slice_rt *rt, enum attach_state attach, const char *reason);
/* 1 s, 2 s, 4 s ... at most 1 min after the n-th failure in a row */
uint64_t mgr_backoff_usec(unsigned n);
void mgr_schedule_resolve(struct manager *m);
void mgr_detach_slice(struct manager *m, uint32_t slot, enum attach_state attach, const char *why);
/* Finds every managed slice's cgroup and (de)attaches; parents before children. */
void mgr_resolve_all(struct manager *m, enum resolve_scope scope);

/* manager-bus.c: the connection (asynchronous, deadlines, reconnect with a backoff) */
int mgr_bus_start(struct manager *m);
void mgr_bus_stop(struct manager *m);
/* The connection broke, hung or never answered; reconnect with a backoff. */
void mgr_bus_lost(struct manager *m, const char *why);
/* Lookups can be sent (a connection that has not been given up). */
bool mgr_bus_usable(const struct manager *m);
/* Asks systemd for the slice's cgroup; the answer lands in rt->lookup and schedules a resolve. */
int mgr_lookup_slice(struct manager *m, uint32_t slot);
/* Collects the exempt cgroups again (bus lookups, or the default paths without a bus). */
void mgr_refresh_exempt(struct manager *m);

/* manager.c: READY=1 once the start has set up everything and the first lookups are applied */
void mgr_maybe_ready(struct manager *m);

/* manager-sampler.c */
void mgr_sample(struct manager *m);
/* A slot's policy engine starts over (slot assigned to a slice anew). */
void mgr_engine_reset(struct manager *m, uint32_t slot);
int mgr_on_ring_event(void *ctx, void *data, size_t size);

/* manager-reclaim.c: background reclaim ([Reclaim]) */
/* Free memory now (MemFree), bytes; 0 when unknown. */
uint64_t mgr_free_memory(void);
/* The sum of the zones' high watermarks, bytes (/proc/zoneinfo); 0 when unknown. */
uint64_t mgr_watermark_bytes(void);
void mgr_choose_reclaim_path(struct manager *m, enum reclaim_path want);
const char *mgr_reclaim_path_name(const struct manager *m);
/* The Background= slices of configuration c for generation gen (before it becomes active). */
void mgr_reclaim_order(struct manager *m, const struct memcgd_config *c, const uint32_t *levels, const int *slot_of,
		       uint32_t gen);
/* Every update, after the sampler: free memory for the kernel path, or the fallback's pass. */
void mgr_reclaim_tick(struct manager *m);

/* manager-publish.c */
void mgr_log_diagnostics(const struct diag_list *d, char *first, size_t len);
/* A warning for each slice whose [NUMA] Balancing= the kernel cannot apply (start and reload). */
void mgr_warn_numa_unsupported(struct manager *m);
void mgr_notify_status(struct manager *m);
void mgr_write_state(struct manager *m);
