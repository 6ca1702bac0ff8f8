/* SPDX-License-Identifier: GPL-2.0-only */
/* The loaded BPF side: skeleton, tracepoint link, map accessors, struct_ops links. */
#pragma once

#include <bpf/libbpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "../bpf/memcgd.h"

struct memcgd_bpf;

struct policy_maps {
	struct memcgd_bpf *skel;
	struct bpf_link *tracepoint;
	struct ring_buffer *events;
	bool dry_run;
	int n_cpus;            /* possible CPUs: the per-CPU map value count */
	uint64_t *busy_faults; /* n_cpus values, one busy_faults lookup */
	uint32_t max_cgroups;  /* entries of slice_of ([Daemon] MaxCgroups=) */
	uint64_t map_refused;  /* memcgd's own slice_of inserts refused: the map was full */
	bool reclaim_kernel;   /* memcg_charged loaded: background reclaim can run in the kernel */
	bool numa;             /* numa_balancing loaded: [NUMA] Balancing= takes effect */
	bool sized;            /* get_low/get_min loaded: [Protect] Size=footprint takes effect */
};

/* Opens and loads the embedded programs (slice_of sized for max_cgroups entries) and attaches
 * the fault-counting tracepoint. In dry-run mode the memcg_bpf_ops programs are not even loaded.
 * reclaim_kernel: load memcg_charged, the background reclaim of reclaim.bpf.h (the kernel must
 * have the hook and bpf_try_to_free_mem_cgroup_pages()); numa: load numa_balancing (numa.bpf.h;
 * the kernel must have the hook); sized: load get_low/get_min ([Protect] Size=footprint; the
 * kernel must have them). Without them the ops lack those members. */
int policy_maps_open(struct policy_maps *pm, bool dry_run, uint32_t max_cgroups, bool reclaim_kernel, bool numa,
		     bool sized, ring_buffer_sample_fn on_event, void *ctx);
void policy_maps_close(struct policy_maps *pm);

uint32_t policy_maps_active_gen(const struct policy_maps *pm);
void policy_maps_set_active_gen(struct policy_maps *pm, uint32_t gen);
uint64_t policy_maps_events_dropped(const struct policy_maps *pm);
int policy_maps_events_fd(const struct policy_maps *pm);

int policy_maps_write_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, const struct memcgd_policy *p);
int policy_maps_read_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, struct memcgd_policy *p);
int policy_maps_write_levels(struct policy_maps *pm, uint32_t gen, const struct memcgd_levels *l);
int policy_maps_read_levels(struct policy_maps *pm, uint32_t gen, struct memcgd_levels *l);
/* The slot's state; its faults include those counted per CPU (busy_faults). */
int policy_maps_read_state(struct policy_maps *pm, uint32_t slot, struct memcgd_slice_state *s);
int policy_maps_reset_state(struct policy_maps *pm, uint32_t slot);
int policy_maps_set_protect_suspended(struct policy_maps *pm, uint32_t slot, bool suspended);

/* Activity measured by memcgd ([Activity] CPUUsage=): the slice in slot, at level of
 * generation gen, counts as active until until_ns (bpf_ktime_get_ns() time, CLOCK_MONOTONIC). */
void policy_maps_mark_cpu_active(struct policy_maps *pm, uint32_t gen, uint32_t slot, uint32_t level,
				 uint64_t until_ns);
uint64_t policy_maps_cpu_active_until(const struct policy_maps *pm, uint32_t slot);
/* Clears the levels whose CPU activity ended from generation gen's mask. */
void policy_maps_expire_cpu_levels(struct policy_maps *pm, uint32_t gen, uint64_t now_ns);
/* Adds generation gen's CPU-active levels to l (as read from the levels map). */
void policy_maps_merge_cpu_levels(const struct policy_maps *pm, uint32_t gen, struct memcgd_levels *l);
/* [Protect] Size=footprint: what get_low/get_min protect of the slice in slot while it is active
 * and while it is idle, in bytes. */
void policy_maps_set_protection(struct policy_maps *pm, uint32_t slot, uint64_t footprint, uint64_t reserve);
/* [Throttle] When=pressure: level of generation gen is escalated (lower slices delayed) until
 * until_ns; 0 ends it. */
void policy_maps_set_pressure(struct policy_maps *pm, uint32_t gen, uint32_t level, uint64_t until_ns);
/* Forgets a slot's CPU activity (slot freed or reused). */
void policy_maps_clear_cpu_active(struct policy_maps *pm, uint32_t slot);

/* slice_of: cgroup id -> slot. Each change moves slice_of_epoch, which voids the slots the
 * fault-counting program caches per CPU. */
int policy_maps_map_cgroup(struct policy_maps *pm, uint64_t cgroup_id, uint32_t slot);
int policy_maps_cgroup_slot(struct policy_maps *pm, uint64_t cgroup_id, uint32_t *slot);
int policy_maps_unmap_cgroup(struct policy_maps *pm, uint64_t cgroup_id);
/* Removes every cgroup of a slot. */
int policy_maps_purge_slot(struct policy_maps *pm, uint32_t slot);
/* Removes the cgroups of a slot that are not in seen (n ids, sorted ascending). */
int policy_maps_sweep_slot(struct policy_maps *pm, uint32_t slot, const uint64_t *seen, size_t n);
/* Cgroups that could not be mapped because slice_of was full, since load: refusals of the BPF
 * hooks (handle_cgroup_online, the hooks' cache) plus memcgd's own. */
uint64_t policy_maps_unmapped(const struct policy_maps *pm);

/* One memcg_bpf_ops link on the cgroup directory fd, with BPF_F_ALLOW_OVERRIDE. NULL and
 * *err = -errno on failure. */
struct bpf_link *policy_maps_attach(struct policy_maps *pm, int cgroup_fd, int *err);
/* Whether the kernel has detached the link (its cgroup's memory cgroup went offline). */
bool policy_maps_link_detached(const struct bpf_link *link);

/* Replaces the set of cgroups that are never delayed (bpf/memcgd.h, exempt). */
int policy_maps_set_exempt(struct policy_maps *pm, const uint64_t *ids, size_t n);
/* Delays not applied because the cgroup was exempt, since load. */
uint64_t policy_maps_exempt_skips(const struct policy_maps *pm);
/* The slice's own cgroup (0 when detached), where below_low/below_min read its usage and
 * background reclaim reclaims. */
int policy_maps_set_slice_root(struct policy_maps *pm, uint32_t slot, uint64_t cgroup_id);

/* Background reclaim in the kernel: generation gen's Background= slots in reclaim order
 * (policy_reclaim_order) and their largest Headroom=, written before gen becomes active. */
void policy_maps_write_reclaim_order(struct policy_maps *pm, uint32_t gen, const uint32_t *order, size_t n,
				     uint64_t max_headroom);
/* Whether memcg_charged starts background reclaim (only when loaded with reclaim_kernel). */
void policy_maps_set_reclaim_enabled(struct policy_maps *pm, bool enabled);
/* Free memory now (every update): what the BPF side's estimate starts from; and the free memory
 * background reclaim keeps at least (watermarks + the protected slices' room). */
void policy_maps_publish_free(struct policy_maps *pm, uint64_t free_bytes, uint64_t room_bytes);
