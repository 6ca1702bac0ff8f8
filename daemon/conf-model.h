/* SPDX-License-Identifier: GPL-2.0-only */
/* The configuration model: /etc/memcgd.conf (daemon-wide defaults) and one file per slice
 * in memcgd.d/ (memcgd.d(5)): types, defaults, slice names and modes. Used by the parser
 * (conf-parse.c) and the loader (conf.c), depends on neither. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRIORITY_MIN 0
#define PRIORITY_MAX 1000
#define SLICE_NAME_MAX 255
/* [Protect] MaxUsage= when not set: a share of the machine's memory (memcgd.d(5)) */
#define MAX_USAGE_DEFAULT 0
#define MAX_USAGE_DEFAULT_PERCENT 50
/* memcgd.service's Slice=: memcgd never manages the slice it runs in */
#define MEMCGD_OWN_SLICE "system-memcgd.slice"
/* [Daemon] MaxCgroups=: entries of slice_of (cgroups memcgd can map to their slices); the
 * default is bpf/memcgd.h's MEMCGD_MAX_CGROUPS. A hash map entry costs about 100 bytes of kernel
 * memory, allocated when memcgd starts. */
#define MAX_CGROUPS_MIN 16
#define MAX_CGROUPS_MAX (UINT64_C(1) << 20)
/* [Throttle] MaxContinuous= finite values: at most a year (memcgd.d(5)) */
#define MAX_CONTINUOUS_USEC (UINT64_C(365) * 24 * 3600 * 1000000)
/* [Reclaim] defaults and limits (memcgd.d(5)); Rate= above 64G/s would overflow the BPF side's
 * budget arithmetic */
#define RECLAIM_HEADROOM_DEFAULT (UINT64_C(256) << 20)
#define RECLAIM_RATE_DEFAULT (UINT64_C(64) << 20)
#define RECLAIM_RATE_MAX (UINT64_C(64) << 30)
/* [NUMA] tuning: the ranges to which the kernel clamps memcg_numa_params (kernel-patches/0022) */
#define NUMA_SCAN_PERIOD_MIN_USEC (100 * UINT64_C(1000))
#define NUMA_SCAN_PERIOD_MAX_USEC (600 * UINT64_C(1000000))
#define NUMA_SCAN_SIZE_MIN (UINT64_C(1) << 20)
#define NUMA_SCAN_SIZE_MAX (UINT64_C(2560) << 20)
#define NUMA_HOT_THRESHOLD_MIN_USEC UINT64_C(1000)
#define NUMA_HOT_THRESHOLD_MAX_USEC (60 * UINT64_C(1000000))

/* [Daemon] ReclaimPath=: how [Reclaim] Background= slices give memory back */
enum reclaim_path {
	RECLAIM_PATH_AUTO,      /* kernel when the kernel offers it, else memory.reclaim */
	RECLAIM_PATH_KERNEL,    /* memcg_charged + bpf_try_to_free_mem_cgroup_pages() from a bpf_wq */
	RECLAIM_PATH_DAEMON,    /* memcgd writes memory.reclaim every update */
};

/* [NUMA] Balancing=: who decides whether the slice's tasks are NUMA balanced */
enum numa_balancing {
	NUMA_BALANCING_DEFAULT, /* kernel.numa_balancing, as for any other task */
	NUMA_BALANCING_ON,      /* memcgd's numa_balancing program: balanced, with the [NUMA] tuning */
	NUMA_BALANCING_OFF,     /* memcgd's numa_balancing program: not balanced */
};

/* [NUMA] tuning keys, the index of their lines in struct numa_lines */
enum numa_tuning_key {
	NUMA_SCAN_PERIOD_MIN,
	NUMA_SCAN_PERIOD_MAX,
	NUMA_SCAN_SIZE,
	NUMA_HOT_THRESHOLD,
	NUMA_TUNING_KEYS,
};

/* Where one file set its [NUMA] keys (0: not in this file). */
struct numa_lines {
	unsigned balancing;
	unsigned tuning[NUMA_TUNING_KEYS];
};

enum protect_mode {
	PROTECT_NONE,
	PROTECT_LOW,
	PROTECT_MIN,
};

/* [Protect] Size=: how much of an active slice is protected */
enum protect_size {
	PROTECT_SIZE_FOOTPRINT, /* what it has been using (policy-engine.h), at most MaxUsage= */
	PROTECT_SIZE_ALL,       /* all of it, up to MaxUsage= (below_low/below_min, memcgd 2) */
};

/* [Throttle] When=: what makes memcgd delay a slice of lower priority */
enum throttle_when {
	THROTTLE_WHEN_PRESSURE, /* a higher slice under pressure that background reclaim did not relieve */
	THROTTLE_WHEN_ACTIVE,   /* a higher slice active at all (memcgd 2) */
};

/* [Activity] Hold=auto: learned from the slice's quiet spells (policy-engine.h) */
#define HOLD_AUTO UINT64_MAX
#define MAX_HOLD_DEFAULT (300 * UINT64_C(1000000))
/* [Activity] CPUUsage=any: busy at any CPU time in an update */
#define CPU_USAGE_ANY UINT64_MAX

/* Everything a slice file may set besides its name and priority; memcgd.conf sets defaults. */
struct slice_settings {
	uint64_t fault_rate;             /* [Activity] PageFaultRate=, faults per second */
	uint64_t window_usec;            /* [Activity] Window= */
	uint64_t hold_usec;              /* [Activity] Hold=, HOLD_AUTO = learned */
	uint64_t max_hold_usec;          /* [Activity] MaxHold=: Hold=auto's bound */
	uint64_t cpu_usage_percent;      /* [Activity] CPUUsage=, % of one CPU, 0 = not measured,
					  * CPU_USAGE_ANY = any CPU time */
	enum protect_mode protect;       /* [Protect] Mode= */
	enum protect_size protect_size;  /* [Protect] Size= */
	uint64_t protect_max_usage;      /* [Protect] MaxUsage=, bytes, SIZE_INFINITY = no ceiling,
					  * MAX_USAGE_DEFAULT = MAX_USAGE_DEFAULT_PERCENT of RAM */
	uint64_t protect_wake_reserve;   /* [Protect] WakeReserve=, bytes protected while idle */
	uint64_t throttle_delay_usec;    /* [Throttle] Delay=, whole ms, 0 = never */
	enum throttle_when throttle_when;/* [Throttle] When= */
	uint64_t throttle_max_usec;      /* [Throttle] MaxContinuous=, USEC_INFINITY = no guard */
	bool reclaim_background;         /* [Reclaim] Background= */
	uint64_t reclaim_headroom;       /* [Reclaim] Headroom=, bytes of free memory to keep */
	uint64_t reclaim_rate;           /* [Reclaim] Rate=, bytes per second, SIZE_INFINITY = no cap */
	enum numa_balancing numa;        /* [NUMA] Balancing= */
	/* [NUMA] tuning, applied with Balancing=yes; 0 = the kernel's global value */
	uint64_t numa_scan_period_min_usec; /* ScanPeriodMin=, whole ms */
	uint64_t numa_scan_period_max_usec; /* ScanPeriodMax=, whole ms */
	uint64_t numa_scan_size;         /* ScanSize=, bytes, whole MiB */
	uint64_t numa_hot_threshold_usec; /* HotThreshold=, whole ms */
};

struct slice_conf {
	char *name;          /* "database.slice" */
	long priority;
	struct slice_settings settings;
	char *file;          /* where it was read from */
	unsigned name_line;
	unsigned priority_line;
	unsigned rate_line;  /* 0 when taken from the defaults */
	unsigned window_line;
	unsigned background_line; /* 0 when taken from the defaults */
	struct numa_lines numa_lines;
};

struct daemon_conf {
	struct slice_settings defaults;
	bool dry_run;                 /* [Daemon] DryRun= */
	uint64_t update_interval_usec; /* [Daemon] UpdateInterval= */
	uint64_t max_cgroups;          /* [Daemon] MaxCgroups=: size of slice_of, fixed at start */
	enum reclaim_path reclaim_path; /* [Daemon] ReclaimPath= */
	struct numa_lines numa_lines; /* where the [NUMA] defaults were set */
	char *file;                   /* NULL when no memcgd.conf exists */
};

struct memcgd_config {
	struct daemon_conf daemon;
	struct slice_conf *slices;
	size_t n_slices;
};

/* Built-in defaults, documented in memcgd.d(5). */
void slice_settings_init(struct slice_settings *s);
void daemon_conf_init(struct daemon_conf *d);

const char *reclaim_path_to_string(enum reclaim_path p);
int reclaim_path_from_string(const char *s, enum reclaim_path *ret);

/* "yes", "no", "default": the values of Balancing= */
const char *numa_balancing_to_string(enum numa_balancing b);
/* Balancing=: default, or a boolean (yes, no, true, on, ...). */
int numa_balancing_from_string(const char *s, enum numa_balancing *ret);
/* The key names of enum numa_tuning_key, without "=". */
const char *numa_tuning_key_name(enum numa_tuning_key k);

const char *protect_mode_to_string(enum protect_mode m);
int protect_mode_from_string(const char *s, enum protect_mode *ret);
const char *protect_size_to_string(enum protect_size z);
int protect_size_from_string(const char *s, enum protect_size *ret);
const char *throttle_when_to_string(enum throttle_when w);
int throttle_when_from_string(const char *s, enum throttle_when *ret);

/* True when name is a valid, non-root systemd slice unit name. */
bool slice_name_valid(const char *name);
/* True when ancestor (a slice name) contains slice (a-b.slice is inside a.slice). */
bool slice_is_ancestor(const char *ancestor, const char *slice);
/* "a-b.slice" -> "a.slice/a-b.slice" (path below the cgroup root). Caller frees. */
char *slice_cgroup_path(const char *name);

void slice_conf_done(struct slice_conf *s);
void memcgd_config_done(struct memcgd_config *c);
