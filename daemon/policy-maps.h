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
};

/* Opens and loads the embedded programs and attaches the fault-counting tracepoint. In dry-run
 * mode the memcg_bpf_ops programs are not even loaded. */
int policy_maps_open(struct policy_maps *pm, bool dry_run, ring_buffer_sample_fn on_event, void *ctx);
void policy_maps_close(struct policy_maps *pm);

uint32_t policy_maps_active_gen(const struct policy_maps *pm);
void policy_maps_set_active_gen(struct policy_maps *pm, uint32_t gen);
uint64_t policy_maps_events_dropped(const struct policy_maps *pm);
int policy_maps_events_fd(const struct policy_maps *pm);

int policy_maps_write_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, const struct memcgd_policy *p);
int policy_maps_read_policy(struct policy_maps *pm, uint32_t gen, uint32_t slot, struct memcgd_policy *p);
int policy_maps_write_levels(struct policy_maps *pm, uint32_t gen, const struct memcgd_levels *l);
int policy_maps_read_levels(struct policy_maps *pm, uint32_t gen, struct memcgd_levels *l);
int policy_maps_read_state(struct policy_maps *pm, uint32_t slot, struct memcgd_slice_state *s);
int policy_maps_reset_state(struct policy_maps *pm, uint32_t slot);
int policy_maps_set_protect_suspended(struct policy_maps *pm, uint32_t slot, bool suspended);

/* slice_of: cgroup id -> slot */
int policy_maps_map_cgroup(struct policy_maps *pm, uint64_t cgroup_id, uint32_t slot);
int policy_maps_cgroup_slot(struct policy_maps *pm, uint64_t cgroup_id, uint32_t *slot);
int policy_maps_unmap_cgroup(struct policy_maps *pm, uint64_t cgroup_id);
/* Removes every cgroup of a slot. */
int policy_maps_purge_slot(struct policy_maps *pm, uint32_t slot);

/* One memcg_bpf_ops link on the cgroup directory fd, with BPF_F_ALLOW_OVERRIDE. NULL and
 * *err = -errno on failure. */
struct bpf_link *policy_maps_attach(struct policy_maps *pm, int cgroup_fd, int *err);
