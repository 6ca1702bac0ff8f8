// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel-probe-cache.h"
#include "units-parse.h"
#include "util.h"

#define CACHE_MAGIC "memcgd-kernel-probe 1"

int kernel_probe_cache_key(const struct utsname *u, const char *btf_path, char *key, size_t len)
{
	struct stat st;
	int w;

	if (stat(btf_path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size <= 0)
		return -ENODATA;
	w = snprintf(key, len, "%s|%s|%lld", u->release, u->version, (long long)st.st_size);
	if (w <= 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	return strchr(key, '\n') ? -EINVAL : 0;
}

/* "name value\n": copy value (the rest of the line) into dst of size len; false if too long */
static bool take_string(const char *value, char *dst, size_t len)
{
	size_t n = strlen(value);

	if (n >= len)
		return false;
	memcpy(dst, value, n + 1);
	return true;
}

static bool take_bool(const char *value, bool *dst)
{
	if (streq(value, "0") || streq(value, "1")) {
		*dst = value[0] == '1';
		return true;
	}
	return false;
}

enum {
	FIELD_RELEASE = 1U << 0,
	FIELD_BTF = 1U << 1,
	FIELD_HAS_OPS = 1U << 2,
	FIELD_HAS_TRACEPOINT = 1U << 3,
	FIELD_HOOKS = 1U << 4,
	FIELD_HAS_RECLAIM_KFUNC = 1U << 5,
	FIELD_HOOK_NAMES = 1U << 6,
	FIELD_ERROR = 1U << 7,
	FIELD_RESULT = 1U << 8,
	FIELDS_ALL = (1U << 9) - 1,
};

/* One "name value" line into k (or *result); false when the name is unknown or the value bad. */
static bool parse_field(const char *name, const char *value, struct kernel_support *k, int *result,
			unsigned *seen)
{
	long v;

	if (streq(name, "release")) {
		*seen |= FIELD_RELEASE;
		return take_string(value, k->release, sizeof(k->release));
	}
	if (streq(name, "btf")) {
		*seen |= FIELD_BTF;
		return take_bool(value, &k->btf);
	}
	if (streq(name, "has_ops")) {
		*seen |= FIELD_HAS_OPS;
		return take_bool(value, &k->has_ops);
	}
	if (streq(name, "has_tracepoint")) {
		*seen |= FIELD_HAS_TRACEPOINT;
		return take_bool(value, &k->has_tracepoint);
	}
	if (streq(name, "hooks")) {
		*seen |= FIELD_HOOKS;
		if (parse_int_range(value, 0, 0xffff, &v) < 0)
			return false;
		k->hooks = (unsigned)v;
		return true;
	}
	if (streq(name, "has_reclaim_kfunc")) {
		*seen |= FIELD_HAS_RECLAIM_KFUNC;
		return take_bool(value, &k->has_reclaim_kfunc);
	}
	if (streq(name, "hook_names")) {
		*seen |= FIELD_HOOK_NAMES;
		return take_string(value, k->hook_names, sizeof(k->hook_names));
	}
	if (streq(name, "error")) {
		*seen |= FIELD_ERROR;
		return take_string(value, k->error, sizeof(k->error));
	}
	if (streq(name, "result")) {
		*seen |= FIELD_RESULT;
		if (parse_int_range(value, -4095, 0, &v) < 0)
			return false;
		*result = (int)v;
		return true;
	}
	return false;
}

/* The first two lines: the format and the key */
static int check_header(FILE *f, const char *key)
{
	char line[1024];

	if (!fgets(line, sizeof(line), f) || !streq(line, CACHE_MAGIC "\n"))
		return -EBADMSG;
	if (!fgets(line, sizeof(line), f) || strncmp(line, "key ", 4) || !strchr(line, '\n'))
		return -EBADMSG;
	line[strcspn(line, "\n")] = '\0';
	return streq(line + 4, key) ? 0 : -ESTALE;
}

int kernel_probe_cache_load(const char *file, const char *key, struct kernel_support *ks, int *result)
{
	struct kernel_support k;
	unsigned seen = 0;
	char line[1024];
	int r, res = 0;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		return -errno;
	memset(&k, 0, sizeof(k));
	r = check_header(f, key);
	while (r == 0 && fgets(line, sizeof(line), f)) {
		char *value = strchr(line, ' ');

		if (!strchr(line, '\n') || !value) {
			r = -EBADMSG;
			break;
		}
		*value++ = '\0';
		value[strcspn(value, "\n")] = '\0';
		if (!parse_field(line, value, &k, &res, &seen))
			r = -EBADMSG;
	}
	fclose(f);
	if (r == 0 && seen != FIELDS_ALL)
		r = -EBADMSG;
	if (r < 0)
		return r;
	*ks = k;
	*result = res;
	return 0;
}

int kernel_probe_cache_store(const char *file, const char *key, const struct kernel_support *ks, int result)
{
	char tmp[4096];
	FILE *f;
	int r = 0;

	if (strchr(ks->release, '\n') || strchr(ks->hook_names, '\n') || strchr(ks->error, '\n'))
		return -EINVAL;
	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", file, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, CACHE_MAGIC "\nkey %s\nrelease %s\nbtf %d\nhas_ops %d\nhas_tracepoint %d\nhooks %u\n"
		"has_reclaim_kfunc %d\nhook_names %s\nerror %s\nresult %d\n", key, ks->release, ks->btf,
		ks->has_ops, ks->has_tracepoint, ks->hooks, ks->has_reclaim_kfunc, ks->hook_names, ks->error,
		result);
	if (fflush(f) || ferror(f))
		r = -EIO;
	if (fclose(f) && !r)
		r = -EIO;
	if (!r && rename(tmp, file) < 0)
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}

int kernel_probe_cached(const char *file, bool store, struct kernel_support *ks)
{
	struct utsname u;
	char key[512];
	int r, result;

	if (!file || uname(&u) < 0 || kernel_probe_cache_key(&u, "/sys/kernel/btf/vmlinux", key, sizeof(key)) < 0)
		return kernel_probe(NULL, ks);
	if (kernel_probe_cache_load(file, key, ks, &result) == 0)
		return result;
	r = kernel_probe(NULL, ks);
	if (store && (r == 0 || r == -EOPNOTSUPP))
		(void)kernel_probe_cache_store(file, key, ks, r);	/* a cache: a failure costs time only */
	return r;
}
