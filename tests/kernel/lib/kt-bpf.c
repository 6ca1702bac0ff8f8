// SPDX-License-Identifier: GPL-2.0
/* libbpf helpers for the memcgd kernel tests. */
#include "kt-bpf.h"
#include "ktest.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int kt_attach_fd(const struct bpf_map *map, int cgroup_fd, uint32_t flags,
		 struct bpf_link **link)
{
	LIBBPF_OPTS(bpf_struct_ops_opts, opts, .flags = flags);
	struct bpf_link *l;

	/* fd 0 is a valid cgroup fd: BPF_F_CGROUP_FD, not the value, says "cgroup" */
	if (cgroup_fd >= 0) {
		opts.flags |= BPF_F_CGROUP_FD;
		opts.target_fd = (uint32_t)cgroup_fd;
	}

	*link = NULL;
	l = bpf_map__attach_struct_ops_opts(map, &opts);
	if (!l)
		return -errno;
	*link = l;
	return 0;
}

int kt_attach(const struct bpf_map *map, const struct kt_cgroup *cg, uint32_t flags,
	      struct bpf_link **link)
{
	return kt_attach_fd(map, cg->fd, flags, link);
}

struct bpf_link *kt_attach_ok(const struct bpf_map *map, const struct kt_cgroup *cg,
			      uint32_t flags)
{
	struct bpf_link *link;
	int err;

	err = kt_attach(map, cg, flags, &link);
	if (err)
		ktest_fail("attach %s to %s (flags %#x): %d (%s)", bpf_map__name(map),
			   cg->path, flags, err, ktest_strerror(err));
	return link;
}

void kt_link_destroy(struct bpf_link **link)
{
	if (*link) {
		int err = bpf_link__destroy(*link);

		if (err)
			ktest_fail("bpf_link__destroy: %d (%s)", err, ktest_strerror(err));
	}
	*link = NULL;
}

struct bpf_link_info kt_link_info(const struct bpf_link *link)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		ktest_fail("bpf_link_get_info_by_fd: %s", strerror(errno));
	if (info.type != BPF_LINK_TYPE_STRUCT_OPS)
		ktest_fail("link %d is of type %u, not struct_ops", bpf_link__fd(link), info.type);
	return info;
}

uint64_t kt_link_info_cgroup_id(const struct bpf_link *link)
{
	return kt_link_info(link).struct_ops.cgroup_id;
}

uint64_t kt_link_cgroup_id(const struct bpf_link *link)
{
	unsigned long long id = 0;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", bpf_link__fd(link));
	f = fopen(path, "re");
	if (!f)
		ktest_fail("open %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cgroup_id: %llu", &id) == 1)
			break;
	fclose(f);
	return id;
}

int kt_count_struct_ops_links(void)
{
	__u32 id = 0;
	int count = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info;
		__u32 len = sizeof(info);
		int fd;

		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* went away meanwhile */
		memset(&info, 0, sizeof(info));
		if (!bpf_link_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_LINK_TYPE_STRUCT_OPS)
			count++;
		close(fd);
	}
	if (errno != ENOENT)
		ktest_fail("bpf_link_get_next_id: %s", strerror(errno));
	return count;
}

int kt_count_fds(void)
{
	struct dirent *de;
	int count = 0;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (!d)
		ktest_fail("opendir /proc/self/fd: %s", strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			count++;
	closedir(d);
	return count - 1;	/* the directory stream itself */
}
