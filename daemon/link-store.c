// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <systemd/sd-daemon.h>

#include "link-store.h"
#include "log.h"

uint64_t link_store_name_id(const char *name)
{
	const char *p;
	char *end;
	uint64_t id;

	if (!name || strncmp(name, LINK_STORE_PREFIX, strlen(LINK_STORE_PREFIX)) != 0)
		return 0;
	p = name + strlen(LINK_STORE_PREFIX);
	if (*p < '1' || *p > '9')
		return 0;
	errno = 0;
	id = strtoull(p, &end, 10);
	return errno || *end ? 0 : id;
}

/* An attached memcg_bpf_ops link on cgroup_id: a struct_ops link whose map is still there and
 * whose cgroup is the one its name says. */
static bool attached_link_on(int fd, uint64_t cgroup_id)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);

	if (bpf_link_get_info_by_fd(fd, &info, &len) < 0)
		return false;
	return info.type == BPF_LINK_TYPE_STRUCT_OPS && info.struct_ops.map_id &&
	       info.struct_ops.cgroup_id == cgroup_id;
}

int link_store_adopt(struct link_store *ls)
{
	char **names = NULL;
	int n = sd_listen_fds_with_names(1, &names);

	memset(ls, 0, sizeof(*ls));
	if (n <= 0) {
		free(names);
		return n;
	}
	ls->items = calloc((size_t)n, sizeof(*ls->items));
	for (int i = 0; i < n; i++) {
		int fd = SD_LISTEN_FDS_START + i;
		uint64_t id = link_store_name_id(names ? names[i] : NULL);

		if (ls->items && id && attached_link_on(fd, id)) {
			ls->items[ls->n++] = (struct link_store_entry){ .cgroup_id = id, .fd = fd };
		} else {
			log_warning("file descriptor store: %s is not an attached memcg_bpf_ops link of this "
				    "name: dropped", names && names[i] ? names[i] : "(unnamed)");
			if (names && names[i])
				sd_notifyf(0, "FDSTOREREMOVE=1\nFDNAME=%s", names[i]);
			close(fd);
		}
		if (names)
			free(names[i]);
	}
	free(names);
	if (!ls->items)
		return -ENOMEM;
	return (int)ls->n;
}

int link_store_take(struct link_store *ls, uint64_t cgroup_id)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->items[i].cgroup_id == cgroup_id) {
			int fd = ls->items[i].fd;

			ls->items[i] = ls->items[--ls->n];
			return fd;
		}
	return -1;
}

int link_store_keep(uint64_t cgroup_id, int link_fd)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "FDSTORE=1\nFDNAME=" LINK_STORE_PREFIX "%" PRIu64, cgroup_id);
	return sd_pid_notify_with_fds(0, 0, msg, &link_fd, 1);
}

void link_store_end(uint64_t cgroup_id, int link_fd)
{
	if (link_fd >= 0 && bpf_link_detach(link_fd) < 0 && errno != EINVAL && errno != ENOLINK)
		log_warning("detaching the link of cgroup %" PRIu64 ": %s", cgroup_id, strerror(errno));
	sd_notifyf(0, "FDSTOREREMOVE=1\nFDNAME=" LINK_STORE_PREFIX "%" PRIu64, cgroup_id);
}

size_t link_store_release(struct link_store *ls)
{
	size_t n = ls->n;

	for (size_t i = 0; i < ls->n; i++) {
		log_info("cgroup %" PRIu64 ": the previous memcgd's link is no longer wanted (slice gone, "
			 "moved or not attached): detached", ls->items[i].cgroup_id);
		link_store_end(ls->items[i].cgroup_id, ls->items[i].fd);
		close(ls->items[i].fd);
	}
	free(ls->items);
	memset(ls, 0, sizeof(*ls));
	return n;
}
