/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared between memcgd.bpf.c and the daemon (as libbpf-tools do): map layouts, limits,
 * event records. Only fixed-size __u32/__u64 fields, naturally aligned, so that the BPF and
 * userspace layouts are identical.
 *
 * Maps (see memcgd.bpf.c):
 *   slice_of     hash   cgroup id -> slice slot, for each managed slice's cgroup and the
 *                       cgroups below it (filled by memcgd, handle_cgroup_online, and an
 *                       ancestor walk from the hooks; emptied by handle_cgroup_offline, and
 *                       by memcgd's walk in a dry run); MaxCgroups= entries, refused inserts
 *                       counted in .bss slice_of_full
 *   policies     array  [generation * MEMCGD_MAX_SLICES + slot] -> struct memcgd_policy;
 *                       memcgd writes the inactive generation, then flips active_gen
 *   slice_state  array  slot -> struct memcgd_slice_state (activity, counters, guard)
 *   levels       array  generation -> struct memcgd_levels ("active until" per priority level)
 *   protect_suspended array slot -> __u32, written by memcgd only: 1 while the slice uses more
 *                       than its [Protect] MaxUsage= (memory.current at the last update)
 *   slice_root   array  slot -> cgroup id of the slice's own cgroup (written by memcgd at attach):
 *                       below_low/below_min read the slice's usage there with the series'
 *                       bpf_mem_cgroup_usage() kfunc, so MaxUsage= holds between updates
 *   exempt       hash   cgroup id -> 1 for the cgroups memcgd never delays, whatever the
 *                       policy: its own, PID 1's (init.scope), systemd-journald's, dbus's,
 *                       systemd-logind's (filled by memcgd; checked by get_high_delay_ms)
 *   events       ringbuf struct memcgd_event
 *   busy_faults  percpu array slot -> __u64: faults of a slice already marked active in the
 *                       current window, counted per CPU; memcgd adds them to slice_state's
 *                       faults (and zeroes them with it)
 *   fault_cache  percpu array [0]: the fault path's clock and last cgroup -> slot, voided when
 *                       memcgd moves slice_of_epoch (.bss) after changing slice_of
 *   reclaim_work array  [0]: the bpf_wq of background reclaim ([Reclaim] Background=), started by
 *                       memcg_charged, run by the kernel's workqueue (bpf/reclaim.bpf.h)
 */
#ifndef MEMCGD_H
#define MEMCGD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MEMCGD_MAX_SLICES 1024
#define MEMCGD_MAX_LEVELS 64      /* distinct Priority= values */
#define MEMCGD_MAX_CGROUPS 65536  /* entries of slice_of unless [Daemon] MaxCgroups= says otherwise */
#define MEMCGD_MAX_DEPTH 16       /* ancestor walk from a hook's memcg */
#define MEMCGD_RINGBUF_BYTES (64 * 1024)
#define MEMCGD_MAX_EXEMPT 64      /* entries of exempt */
#define MEMCGD_MAX_RECLAIM_SLICES 64 /* slices with [Reclaim] Background=yes */

enum memcgd_protect_mode {
	MEMCGD_PROTECT_NONE = 0,
	MEMCGD_PROTECT_LOW = 1,
	MEMCGD_PROTECT_MIN = 2,
};

#define MEMCGD_POLICY_IN_USE (1U << 0)
#define MEMCGD_POLICY_RECLAIM (1U << 1) /* [Reclaim] Background=yes */
#define MEMCGD_POLICY_NUMA_ON (1U << 2) /* [NUMA] Balancing=yes: numa_balancing returns MEMCG_NUMAB_ON */
#define MEMCGD_POLICY_NUMA_OFF (1U << 3) /* [NUMA] Balancing=no: MEMCG_NUMAB_OFF; neither: _DEFAULT */
#define MEMCGD_POLICY_SIZED (1U << 4)    /* [Protect] Size=footprint: get_low/get_min return
					  * protect_footprint_bytes (active) or protect_reserve_bytes
					  * (idle) instead of below_low/below_min's all or nothing */
#define MEMCGD_POLICY_DELAY_ON_PRESSURE (1U << 5) /* [Throttle] When=pressure: delay only while a higher
					  * level is escalated (pressure_level_*), not merely active */
#define MEMCGD_POLICY_GIVE_BACK (1U << 6) /* a protected slice: while it is idle and another slice is
					  * active, background reclaim takes its memory above
					  * WakeReserve= first (reclaim.bpf.h) */

/* A slice's policy as the programs use it; compiled from its memcgd.d file. */
struct memcgd_policy {
	__u64 cgroup_id;         /* the slice's own cgroup (informational) */
	__u64 faults_per_window; /* active when at least this many PGFAULTs fall in one window */
	__u64 window_ns;
	__u64 hold_ns;           /* stays active this long after the window following the last busy one */
	__u64 max_throttle_ns;   /* guard: stop throttling after this long continuously; 0 = never */
	__u32 level;             /* dense rank of Priority=, 0 = lowest */
	__u32 protect;           /* enum memcgd_protect_mode */
	__u32 delay_ms;          /* get_high_delay_ms while a higher level is active; 0 = never */
	__u32 flags;             /* MEMCGD_POLICY_* */
	__u64 max_usage_bytes;   /* [Protect] MaxUsage=: no protection above it; 0 = no ceiling */
	__u64 headroom_bytes;    /* [Reclaim] Headroom=: free memory to keep while a higher level is active */
	__u64 reclaim_rate;      /* [Reclaim] Rate=: bytes per second at most; 0 = no cap */
	/* [NUMA] with Balancing=yes: what numa_balancing writes into struct memcg_numa_params;
	 * 0 = leave the kernel's global value */
	__u32 numa_scan_period_min_ms;
	__u32 numa_scan_period_max_ms;
	__u32 numa_scan_size_mb;
	__u32 numa_hot_threshold_ms;
};

/* Per-slice live state. Counters are only ever added to atomically. */
struct memcgd_slice_state {
	__u64 faults;            /* PGFAULTs counted since the slot was assigned */
	__u64 window_id;         /* now / window_ns of the current window */
	__u64 window_base;       /* faults at the start of the current window */
	__u64 active_since_ns;   /* start of the current/last activity episode, 0 = never active */
	__u64 active_until_ns;   /* active while bpf_ktime_get_ns() < this */
	__u64 activations;
	__u64 active_ns;         /* duration of finished episodes */
	__u64 protect_decisions; /* below_low/below_min returned true */
	__u64 throttle_decisions;/* get_high_delay_ms returned a delay */
	__u64 throttle_ms;       /* sum of the delays returned */
	__u64 guard_trips;
	__u64 throttle_streak_start_ns;
	__u64 throttle_last_ns;
	__u32 guard_tripped;     /* 1 while the guard suspends throttling */
	__u32 pad;
	__u64 marked_end_ns;     /* end of the window last marked active; lowest bit: its generation */
	__u64 usage_bytes;       /* the slice cgroup's usage when a hook last saw it (kfunc) */
	__u64 usage_ns;          /* when */
	__u64 ceiling_refusals;  /* below_low/below_min refused: usage above max_usage_bytes */
	/* background reclaim ([Reclaim]), written by the work item only (one runs at a time) */
	__u64 reclaimed_pages;   /* taken from the slice in the background */
	__u64 reclaim_passes;    /* work items that took from it */
	__u64 reclaim_errors;    /* bpf_try_to_free_mem_cgroup_pages() refusals */
	__s64 reclaim_last_error;
	__u64 reclaim_last_ns;   /* the last pass that took from it */
	__u64 reclaim_last_avail;/* free memory (estimated, bytes) that pass saw */
	__u64 reclaim_last_level;/* the highest active level above it then */
	__u64 reclaim_budget_ns; /* Rate=: the pass may take what accrued since this time (at most 1 s) */
	/* [NUMA] Balancing=: numa_balancing's decisions for the slice's tasks (one per task and scan period) */
	__u64 numa_on_decisions; /* MEMCG_NUMAB_ON returned */
	__u64 numa_off_decisions;/* MEMCG_NUMAB_OFF returned */
	/* [Protect] Size=footprint: get_low/get_min for the slice's own cgroup */
	__u64 sized_decisions;   /* calls that returned a protection above 0 */
	__u64 sized_last_pages;  /* what the last one returned (before the kernel's clamp to usage) */
};

/* What the background reclaim work item did, since load: in .bss (reclaim_stats) */
struct memcgd_reclaim_stats {
	__u64 kicks;             /* memcg_charged started the work item */
	__u64 passes;            /* work items run */
	__u64 pages;             /* pages reclaimed by them */
	__u64 wq_errors;         /* bpf_wq_*() failed */
	__s64 wq_last_error;
	__u64 last_ns;           /* last pass */
	__u64 last_avail;        /* free memory it estimated */
};

/* Which priority levels are active: bit L of active_mask set means until_ns[L] may be in the
 * future; a hook checks only the bits above its own level, so its cost does not depend on the
 * number of slices. */
struct memcgd_levels {
	__u64 active_mask;
	__u64 until_ns[MEMCGD_MAX_LEVELS];
};

enum memcgd_event_type {
	MEMCGD_EV_ACTIVATED = 1,     /* value: faults in the window that crossed the threshold */
	MEMCGD_EV_GUARD_TRIPPED = 2, /* value: ns throttled continuously */
	MEMCGD_EV_GUARD_CLEARED = 3, /* value: 0 */
};

struct memcgd_event {
	__u64 ts_ns;  /* bpf_ktime_get_ns (CLOCK_MONOTONIC) */
	__u64 value;
	__u32 slot;
	__u32 type;   /* enum memcgd_event_type */
};

#endif /* MEMCGD_H */
