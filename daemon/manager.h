/* SPDX-License-Identifier: GPL-2.0-only */
/* memcgd's event loop: configuration, slices on the bus, BPF maps and links, state file. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "conf.h"
#include "exempt.h"
#include "kernel-probe.h"
#include "link-store.h"
#include "policy-engine.h"
#include "policy-maps.h"
#include "../bpf/reclaim-plan.h"

/* Where a slice stands; shown as a string in the state file (attach_state_to_string). */
enum attach_state {
	ATTACH_NOT_RUNNING, /* not resolved yet, or its slice is not running */
	ATTACH_ATTACHED,    /* memcg_bpf_ops linked to its cgroup */
	ATTACH_DRY_RUN,     /* measured only */
	ATTACH_FAILED,      /* the attach failed (retried with a backoff) */
	ATTACH_REMOVED,     /* no longer configured */
};

const char *attach_state_to_string(enum attach_state a);

struct slice_rt {
	bool in_use;
	struct slice_conf conf;      /* owned copy */
	uint32_t level;
	char *cgroup;                /* below the cgroup root, NULL while not running */
	uint64_t cgroup_id;
	struct bpf_link *link;
	enum attach_state attach;
	char reason[256];
	bool dirty;                  /* resolve at the next opportunity */
	unsigned attach_failures;    /* in a row: the retry backs off (1 s, 2 s, ... 1 min) */
	uint64_t retry_at_usec;      /* CLOCK_MONOTONIC: no attach retry before this */
	struct {                     /* the slice's cgroup asked of systemd (manager-bus.c) */
		bool pending;        /* on its way */
		bool done;           /* answered: applied by the next resolve */
		int r;               /* 1 cgroup, 0 not running (reason), -errno (reason) */
		char *cgroup;
		char reason[256];
	} lookup;
	/* sampled by the update tick */
	struct memcgd_slice_state st;
	uint64_t last_faults;
	uint64_t last_sample_ns;
	double rate;
	uint64_t last_cpu_usec;      /* cpu.stat usage_usec at last_cpu_ns, for CPUUsage= */
	uint64_t last_cpu_ns;
	double cpu_percent;          /* of one CPU over the last update interval, -1 unknown */
	bool active, throttling, suspended;
	/* the policy engine (policy-engine.h), every update */
	struct engine_slice engine;
	bool busy;                   /* in the last update */
	uint64_t last_refaults;      /* memory.stat workingset_refault_anon + _file, pages */
	bool have_refaults;
	uint64_t last_low_events;    /* memory.events "low" */
	bool have_low_events;
	double psi_some_avg10;       /* memory.pressure, -1 unknown */
	uint64_t usage;              /* memory.current at the last update */
	double refault_rate;         /* bytes per second over the last update */
	/* background reclaim taken from this slice ([Reclaim]), by either path */
	struct {
		uint64_t bytes, passes, errors;
		int64_t last_error;
		uint64_t last_ns;            /* CLOCK_MONOTONIC of the last pass that took from it, 0 never */
		uint64_t last_free;          /* free memory that pass saw */
		uint32_t last_level;         /* the highest active level then */
		bool denied_logged;          /* memory.reclaim not writable: said once */
	} reclaim;
};

/* What runs background reclaim ([Daemon] ReclaimPath= and what the kernel offers) */
enum reclaim_run {
	RECLAIM_OFF,
	RECLAIM_KERNEL,   /* memcg_charged + bpf_wq + bpf_try_to_free_mem_cgroup_pages() */
	RECLAIM_DAEMON,   /* memcgd writes memory.reclaim every update */
};

struct manager_options {
	bool dry_run;
	const char *root;        /* configuration root, "" for / */
	const char *state_file;
	const char *cgroup_root;
	bool use_bus;
};

struct manager {
	struct manager_options opt;
	bool dry_run;
	bool cannot_work;            /* start failed on the configuration or the kernel: a restart cannot help */
	sd_event *event;
	sd_bus *bus;
	sd_event_source *tick_src;
	sd_event_source *resolve_src;
	sd_event_source *events_src;
	sd_event_source *reconnect_src; /* bus reconnect timer (backoff) */
	sd_event_source *bus_deadline_src; /* a connection that has not answered Subscribe by then is lost */
	sd_event_source *bus_close_src; /* closes a lost connection outside its own dispatch */
	unsigned bus_failures;       /* connections lost or failed in a row (the reconnect's backoff) */
	bool bus_ready;              /* systemd answered Subscribe on m->bus */
	uint64_t bus_epoch;          /* moves when a connection is given up: its late answers are ignored */
	unsigned lookups_pending;    /* slice lookups on their way */
	bool start_done;             /* manager_start has set everything up */
	bool ready;                  /* READY=1 sent: the first round of lookups and attaches is done */
	struct {                     /* the exempt units' cgroups asked of systemd (manager-bus.c) */
		unsigned round;      /* answers of an older round are ignored */
		unsigned outstanding;
		char *unit_cgroups[MEMCGD_MAX_EXEMPT]; /* per exempt_units[], NULL: not known */
		char *own;           /* memcgd's own unit's ControlGroup, when /proc/self/cgroup reads "/" */
	} exempt_lookup;
	struct policy_maps pm;
	struct link_store inherited; /* the previous memcgd's links from the fd store, until taken over or released at READY */
	bool fd_store_warned;        /* a link could not be stored (FileDescriptorStoreMax=?): said once */
	struct memcgd_config config;
	char *slots[MEMCGD_MAX_SLICES];
	struct slice_rt rt[MEMCGD_MAX_SLICES];
	struct kernel_support ks;
	uint64_t generation;
	uint64_t reloads;
	char reload_error[512];
	struct diag_list skipped;    /* problems of the configuration in force: files left out, policies kept (config_load_in_force) */
	struct exempt_set exempt;    /* cgroups never delayed (self-protection) */
	const char *state;
	uint64_t started_usec;
	uint64_t interval_usec;
	uint64_t ram_bytes;          /* MemTotal: the default MaxUsage= is a share of it */
	uint64_t unmapped_logged;    /* unmapped cgroups (slice_of full) at the last warning */
	uint64_t unmapped_log_usec;  /* CLOCK_MONOTONIC of that warning */
	enum reclaim_path reclaim_want; /* [Daemon] ReclaimPath= at start */
	enum reclaim_run reclaim_path;
	char reclaim_note[256];      /* why that path (status) */
	uint32_t reclaim_slots[MEMCGD_MAX_RECLAIM_SLICES]; /* Background= slices, reclaim order */
	size_t reclaim_n;
	uint64_t free_bytes;         /* free memory at the last update */
	uint64_t watermark_bytes;    /* the zones' high watermarks (/proc/zoneinfo), read every minute */
	uint64_t watermark_tick;
	uint64_t reclaim_room;       /* free memory background reclaim keeps at least (engine_room()) */
	uint64_t reclaim_headroom;   /* the largest Headroom= of the reclaim order (policy_reclaim_order()) */
	struct memcgd_reclaim_plan reclaim_plan; /* the fallback's */
};

int manager_start(struct manager *m, const struct manager_options *opt);
int manager_run(struct manager *m);
void manager_free(struct manager *m);
