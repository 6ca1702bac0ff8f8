// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "conf-files.h"
#include "util.h"

const char *const memcgd_slice_dirs[] = {
	"/etc/memcgd.d",
	"/run/memcgd.d",
	"/usr/local/lib/memcgd.d",
	"/usr/lib/memcgd.d",
};
const size_t memcgd_n_slice_dirs = ARRAY_SIZE(memcgd_slice_dirs);

const char *const memcgd_main_conf_paths[] = {
	"/etc/memcgd.conf",
	"/run/memcgd.conf",
	"/usr/local/lib/memcgd.conf",
	"/usr/lib/memcgd.conf",
};
const size_t memcgd_n_main_conf_paths = ARRAY_SIZE(memcgd_main_conf_paths);

void conf_file_list_done(struct conf_file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

int conf_file_is_mask(const char *path)
{
	struct stat st;
	char target[32];
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		if (streq(target, "/dev/null"))
			return 1;
	}
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		return 1;
	return S_ISREG(st.st_mode) && st.st_size == 0;
}

struct entry {
	char *name;
	char *path;
};

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static bool have_name(const struct entry *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (streq(v[i].name, name))
			return true;
	return false;
}

int conf_files_list(const char *root, struct conf_file_list *ret, struct diag_list *d)
{
	struct entry *v = NULL;
	size_t n = 0;
	int r = 0;

	if (!root)
		root = "";
	for (size_t i = 0; i < memcgd_n_slice_dirs; i++) {
		_cleanup_free_ char *dir = strjoin3(root, memcgd_slice_dirs[i], "");
		_cleanup_closedir_ DIR *dp = NULL;
		struct dirent *de;

		if (!dir) {
			r = -ENOMEM;
			goto fail;
		}
		dp = opendir(dir);
		if (!dp) {
			if (errno != ENOENT && errno != ENOTDIR)
				diag_add(d, dir, 0, "cannot read directory: %s", strerror(errno));
			continue;
		}
		while ((de = readdir(dp))) {
			struct entry *nv;

			if (de->d_name[0] == '.' || !str_ends_with(de->d_name, ".conf"))
				continue;
			if (have_name(v, n, de->d_name))
				continue; /* masked by a directory of higher precedence */
			nv = realloc(v, (n + 1) * sizeof(*v));
			if (!nv) {
				r = -ENOMEM;
				goto fail;
			}
			v = nv;
			v[n].name = strdup(de->d_name);
			v[n].path = strjoin3(dir, "/", de->d_name);
			n++;
			if (!v[n - 1].name || !v[n - 1].path) {
				r = -ENOMEM;
				goto fail;
			}
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), entry_cmp);

	ret->paths = calloc(n ? n : 1, sizeof(char *));
	ret->n = 0;
	if (!ret->paths) {
		r = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		int m = conf_file_is_mask(v[i].path);

		free(v[i].name);
		if (m < 0) {
			diag_add(d, v[i].path, 0, "cannot open: %s", strerror(-m));
			free(v[i].path);
		} else if (m > 0) {
			free(v[i].path); /* masked */
		} else {
			ret->paths[ret->n++] = v[i].path;
		}
	}
	free(v);
	return 0;

fail:
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].path);
	}
	free(v);
	return r;
}

int conf_main_file(const char *root, char **ret)
{
	*ret = NULL;
	if (!root)
		root = "";
	for (size_t i = 0; i < memcgd_n_main_conf_paths; i++) {
		_cleanup_free_ char *p = strjoin3(root, memcgd_main_conf_paths[i], "");
		struct stat st;
		int m;

		if (!p)
			return -ENOMEM;
		if (lstat(p, &st) < 0)
			continue;
		m = conf_file_is_mask(p);
		if (m > 0)
			return 0; /* masked: no daemon-wide configuration */
		*ret = p;
		p = NULL;
		return 0;
	}
	return 0;
}
