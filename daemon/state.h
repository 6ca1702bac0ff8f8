/* SPDX-License-Identifier: GPL-2.0-only */
/* What memcgd publishes in /run/memcgd/state for memcgctl, and how memcgctl reads it back.
 *
 * Format: one record per line, fields separated by tabs:
 *   daemon<TAB>key=value<TAB>key=value...
 *   slice<TAB>key=value...
 *   skipped<TAB>file=...<TAB>line=...<TAB>message=...
 * Values escape backslash, tab and newline as \\, \t, \n. Unknown keys are ignored, so
 * memcgctl and memcgd of different versions still understand each other. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct slice_status {
	char *name;
	long priority;
	unsigned level;
	int slot;
	char *file;          /* configuration file */
	char *cgroup;        /* path below the cgroup2 root, "" while the slice is not running */
	uint64_t cgroup_id;
	char *attach;        /* attached | not-running | dry-run | failed */
	char *reason;        /* why not attached, "" otherwise */
	/* policy */
	char *protect;       /* min | low | none */
	uint64_t fault_rate_threshold; /* faults/s */
	uint64_t cpu_usage_threshold;  /* % of one CPU, 0 = not measured */
	uint64_t window_usec;
	uint64_t hold_usec;
	uint64_t delay_ms;
	uint64_t max_continuous_usec;  /* UINT64_MAX = no guard */
	uint64_t max_usage;            /* UINT64_MAX = no cap */
	/* live */
	double fault_rate;   /* faults per second over the last update interval */
	double cpu_percent;  /* % of one CPU over the last update interval, -1 = not measured */
	bool active;
	bool throttling;     /* a higher priority is active and Delay>0 (memcgd throttles this slice now) */
	bool guard_tripped;
	bool protect_suspended;
	uint64_t faults;
	uint64_t activations;
	uint64_t active_usec;
	uint64_t protect_decisions;
	uint64_t throttle_decisions;
	uint64_t throttle_ms;
	uint64_t guard_trips;
	uint64_t ceiling_refusals;     /* protection refused in the hook: above MaxUsage= */
	/* the policy engine (daemon/policy-engine.h) */
	char *protect_size;            /* Size=: footprint | all (all also when the kernel cannot size) */
	char *throttle_when;           /* When=: pressure | active */
	uint64_t max_hold_usec;        /* MaxHold= */
	uint64_t wake_reserve;         /* WakeReserve=, bytes */
	char *state;                   /* busy | holding | idle */
	char *escalation;              /* none | reclaim | delay */
	char *why;                     /* the reason of the last change of either */
	uint64_t hold_learned_usec;    /* the hold in force (learned with Hold=auto) */
	uint64_t protect_bytes;        /* the footprint protected while active */
	uint64_t usage;                /* memory.current at the last update */
	double refault_rate;           /* bytes per second over the last update */
	double psi_some;               /* memory.pressure some avg10, -1 unknown */
	uint64_t episodes;             /* idle -> busy */
	uint64_t sized_decisions;      /* get_low/get_min answers above 0 for the slice's cgroup */
	/* background reclaim ([Reclaim]) */
	bool background;               /* Background=yes */
	uint64_t headroom;             /* Headroom=, bytes of free memory */
	uint64_t reclaim_rate;         /* Rate=, bytes per second, UINT64_MAX = no cap */
	uint64_t reclaimed;            /* bytes taken from the slice in the background */
	uint64_t reclaim_passes;
	uint64_t reclaim_errors;
	int64_t reclaim_last_error;    /* -errno of the last refusal, 0 if none */
	uint64_t reclaim_ago_usec;     /* since the last pass that took from it, UINT64_MAX = never */
	uint64_t reclaim_last_free;    /* free memory that pass saw */
	char *reclaim_because;         /* the highest active slice then, "" if unknown */
	/* NUMA balancing ([NUMA]) */
	char *numa;                    /* Balancing=: yes | no | default */
	uint64_t numa_scan_period_min_usec; /* ScanPeriodMin=, 0 = the kernel's */
	uint64_t numa_scan_period_max_usec; /* ScanPeriodMax=, 0 = the kernel's */
	uint64_t numa_scan_size;       /* ScanSize=, bytes, 0 = the kernel's */
	uint64_t numa_hot_threshold_usec; /* HotThreshold=, 0 = the kernel's */
	uint64_t numa_on_decisions;    /* numa_balancing said MEMCG_NUMAB_ON (per task and scan period) */
	uint64_t numa_off_decisions;
	/* memory.* files, read by memcgctl at display time */
	bool have_memory;
	uint64_t memory_current, memory_min, memory_low, memory_high; /* UINT64_MAX = max */
	bool have_numa_stat;           /* memory.stat's numa_* items (a kernel with NUMA balancing) */
	uint64_t numa_pte_updates, numa_hint_faults, numa_pages_migrated;
};

/* A configuration file left out at start (memcgd.d(5), "Invalid files"): one per diagnostic. */
struct config_problem {
	char *file;
	unsigned line;       /* 0: the file as a whole */
	char *message;
};

struct daemon_status {
	pid_t pid;
	char *state;         /* starting | running | reloading | stopping */
	char *mode;          /* enforce | dry-run */
	uint64_t started_usec;  /* CLOCK_REALTIME */
	uint64_t updated_usec;  /* CLOCK_REALTIME of this snapshot */
	uint64_t update_interval_usec;
	uint64_t config_generation;
	uint64_t reloads;       /* reload attempts so far, successful or not */
	char *reload_error;  /* "" when the last reload succeeded */
	char *kernel_release;
	bool kernel_supported;
	char *hooks;         /* memcg_bpf_ops hooks of the running kernel, space separated */
	char *libbpf;
	uint64_t events_dropped;
	char *exempt;        /* cgroups never delayed (self-protection), space separated */
	uint64_t exempt_skips; /* delays not applied to them */
	uint64_t max_cgroups;  /* [Daemon] MaxCgroups=: entries of slice_of */
	uint64_t unmapped_cgroups; /* cgroups not mapped to their slice because slice_of was full (refusals) */
	char *reclaim_path;    /* background reclaim: kernel | memory.reclaim | off | none (no Background= slice) */
	char *reclaim_note;    /* why */
	uint64_t free_bytes;   /* free memory at the last update (0 when background reclaim is not used) */
	uint64_t reclaim_room; /* free memory background reclaim keeps at least: watermarks + the busy
				* protected slices' room to their footprints (0 when not used) */
	bool numa_hook;        /* the kernel offers memcg_bpf_ops::numa_balancing */
	bool numa_loaded;      /* memcgd's ops carry it: [NUMA] Balancing= decides (not in a dry run) */
	int numa_sysctl;       /* kernel.numa_balancing, read by memcgctl at display time; -1 unknown */
	struct slice_status *slices;
	size_t n_slices;
	struct config_problem *skipped; /* files left out of the configuration in force */
	size_t n_skipped;
};

void daemon_status_done(struct daemon_status *s);
int state_write(FILE *f, const struct daemon_status *s);
/* Writes atomically (temporary file + rename). */
int state_write_file(const char *path, const struct daemon_status *s);
int state_read(FILE *f, struct daemon_status *ret);
int state_read_file(const char *path, struct daemon_status *ret);
