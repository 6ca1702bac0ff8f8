// SPDX-License-Identifier: GPL-2.0
/*
 * Test h: the memcg:count_memcg_events tracepoint delivers PGFAULT events
 * with the cgroup id of the faulting task's memcg. A child joins a fresh
 * cgroup and faults N pages: the program must have counted >= N PGFAULT
 * events for that id, none before the child joined, and as many as the
 * cgroup's own memory.stat pgfault counter.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kt-bpf.h"
#include "kt-cgroup.h"
#include "kt-proc.h"
#include "ktest.h"
#include "pgfault.bpf.skel.h"

#define N_PAGES 4096

static uint64_t count_for(int map_fd, uint64_t id)
{
	__u64 key = id, value = 0;

	if (bpf_map_lookup_elem(map_fd, &key, &value) && errno != ENOENT)
		ktest_fail("lookup pgfaults[%llu]: %s", (unsigned long long)id, strerror(errno));
	return value;
}

static uint64_t own_cgroup_id(void)
{
	char line[4096], path[4200];
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f || !fgets(line, sizeof(line), f))
		ktest_fail("read /proc/self/cgroup: %s", strerror(errno));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (strncmp(line, "0::", 3))
		ktest_fail("unexpected /proc/self/cgroup line '%s'", line);
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + 3);
	return kt_cg_id_of(path);
}

int main(void)
{
	struct kt_work work = { .bytes = N_PAGES * 4096UL };
	struct kt_cgroup *parent, *faulter;
	struct kt_child child;
	struct pgfault_bpf *skel;
	struct bpf_link *link;
	uint64_t own_id, before, after, stat_pgfault;
	int map_fd;
	void *p;

	ktest_init("h-pgfault-tracepoint");
	parent = kt_cg_parent();
	faulter = kt_cg_create(parent, "faulter", false);
	own_id = own_cgroup_id();

	skel = KT_SKEL_LOAD(pgfault_bpf);
	map_fd = bpf_map__fd(skel->maps.pgfaults);
	link = bpf_program__attach(skel->progs.kt_count_pgfaults);
	if (!link)
		ktest_fail("attach tp/memcg/count_memcg_events: %s", strerror(errno));

	/* The test's own faults are seen under its own cgroup, not the new one. */
	p = kt_touch_anon(256 * 4096UL);
	kt_unmap(p, 256 * 4096UL);
	KT_ASSERT(skel->bss->events_seen > 0, "the tracepoint never fired");
	KT_ASSERT(count_for(map_fd, own_id) >= 256,
		  "PGFAULT count for the test's own cgroup %llu is %llu after 256 faults",
		  (unsigned long long)own_id, (unsigned long long)count_for(map_fd, own_id));
	before = count_for(map_fd, faulter->id);
	KT_ASSERT_EQ(before, 0, "PGFAULT events for the new cgroup before any task joined it");

	child = kt_spawn(faulter, kt_work_fault, &work);
	KT_ASSERT_EQ(kt_child_wait(&child, 300), 0, "faulting child exit code");
	after = count_for(map_fd, faulter->id);
	ktest_log("PGFAULT events for %s (id %llu): %llu after faulting %d pages",
		  faulter->path, (unsigned long long)faulter->id, (unsigned long long)after, N_PAGES);
	KT_ASSERT(after >= N_PAGES, "at least %d PGFAULT events for the cgroup id, got %llu",
		  N_PAGES, (unsigned long long)after);

	/* memory.stat is flushed at least every 2 s; then both counts must agree. */
	ktest_sleep_ms(4000);
	stat_pgfault = kt_cg_stat(faulter, "memory.stat", "pgfault");
	ktest_log("memory.stat pgfault of %s: %llu", faulter->path,
		  (unsigned long long)stat_pgfault);
	KT_ASSERT(after <= stat_pgfault + 64 && stat_pgfault <= after + 64,
		  "tracepoint count %llu within 64 of memory.stat pgfault %llu",
		  (unsigned long long)after, (unsigned long long)stat_pgfault);

	bpf_link__destroy(link);
	pgfault_bpf__destroy(skel);
	ktest_pass();
}
