// SPDX-License-Identifier: GPL-2.0-only
/* The kernel probe's cached answer: used only for the same boot and the same BTF file, stored
 * whole, and a file that is foreign, truncated, overlong or unknown is ignored, not trusted. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel-probe-cache.h"
#include "tests.h"

static char dir[] = "/tmp/test-kernel-probe-cache.XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static const char *path_of(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

static const struct kernel_support full = {
	.release = "6.12.118-memcgd+",
	.btf = true,
	.has_ops = true,
	.has_tracepoint = true,
	.hooks = HOOK_BELOW_LOW | HOOK_BELOW_MIN | HOOK_MEMCG_CHARGED,
	.has_reclaim_kfunc = true,
	.hook_names = "below_low below_min memcg_charged",
	.error = "",
};

/* a cache file for key with one line replaced (or none, line NULL) */
static void write_cache(const char *key, const char *replace, const char *line)
{
	char text[2048];
	int n;

	n = snprintf(text, sizeof(text), "memcgd-kernel-probe 1\nkey %s\n", key);
	const char *fields[] = { "release 6.12.118-memcgd+", "btf 1", "has_ops 1", "has_tracepoint 1", "hooks 44",
				 "has_reclaim_kfunc 1", "hook_names below_low below_min memcg_charged", "error ",
				 "result 0" };
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *f = fields[i];

		if (replace && !strncmp(f, replace, strlen(replace))) {
			if (!line)
				continue;
			f = line;
		}
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%s\n", f);
	}
	write_file("cache", text);
}

static int load(const char *key, struct kernel_support *ks, int *result)
{
	return kernel_probe_cache_load(path_of("cache"), key, ks, result);
}

int main(void)
{
	struct kernel_support ks;
	struct utsname u = { .release = "6.12.118-memcgd+", .version = "#1 SMP PREEMPT_DYNAMIC Debian 6.12.118" };
	char key[512], key2[512], big[600];
	int result = 1;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}

	/* the key: the kernel's release and version, and the size of its BTF */
	write_file("btf", "BTF bytes");
	CHECK(kernel_probe_cache_key(&u, path_of("btf"), key, sizeof(key)) == 0);
	CHECK_STREQ(key, "6.12.118-memcgd+|#1 SMP PREEMPT_DYNAMIC Debian 6.12.118|9");
	CHECK(kernel_probe_cache_key(&u, path_of("no-btf"), key2, sizeof(key2)) == -ENOENT);
	write_file("empty", "");
	CHECK(kernel_probe_cache_key(&u, path_of("empty"), key2, sizeof(key2)) == -ENODATA);
	CHECK(kernel_probe_cache_key(&u, dir, key2, sizeof(key2)) == -ENODATA); /* a directory */
	write_file("btf", "BTF bytes, replaced by a longer file");
	CHECK(kernel_probe_cache_key(&u, path_of("btf"), key2, sizeof(key2)) == 0);
	CHECK(strcmp(key, key2) != 0); /* other BTF: another key */
	struct utsname u2 = u;
	snprintf(u2.version, sizeof(u2.version), "#2 SMP PREEMPT_DYNAMIC Debian 6.12.119");
	write_file("btf", "BTF bytes");
	CHECK(kernel_probe_cache_key(&u2, path_of("btf"), key2, sizeof(key2)) == 0);
	CHECK(strcmp(key, key2) != 0); /* another kernel build: another key */

	/* store and load: the same answer back */
	CHECK(load(key, &ks, &result) == -ENOENT);
	CHECK(kernel_probe_cache_store(path_of("cache"), key, &full, 0) == 0);
	memset(&ks, 0x5a, sizeof(ks));
	CHECK(load(key, &ks, &result) == 0);
	CHECK(result == 0);
	CHECK_STREQ(ks.release, full.release);
	CHECK(ks.btf && ks.has_ops && ks.has_tracepoint && ks.has_reclaim_kfunc);
	CHECK(ks.hooks == full.hooks);
	CHECK_STREQ(ks.hook_names, full.hook_names);
	CHECK_STREQ(ks.error, "");

	/* a kernel without the series: the error and -EOPNOTSUPP come back as they were */
	struct kernel_support stock = { .release = "6.12.118-amd64", .btf = true, .has_tracepoint = false };
	snprintf(stock.error, sizeof(stock.error), "kernel 6.12.118-amd64 has no memcg_bpf_ops in its BTF");
	CHECK(kernel_probe_cache_store(path_of("cache"), key, &stock, -EOPNOTSUPP) == 0);
	CHECK(load(key, &ks, &result) == 0);
	CHECK(result == -EOPNOTSUPP);
	CHECK(!ks.has_ops && !ks.hooks);
	CHECK_STREQ(ks.error, stock.error);
	CHECK_STREQ(ks.release, "6.12.118-amd64");

	/* another key: stale, not used */
	CHECK(load(key2, &ks, &result) == -ESTALE);

	/* what is not exactly the format is ignored */
	write_cache(key, NULL, NULL);
	CHECK(load(key, &ks, &result) == 0);
	CHECK(ks.hooks == 44 && result == 0);
	write_cache(key, "hooks", NULL);			/* a field missing */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_cache(key, "btf", "btf yes");			/* not 0/1 */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_cache(key, "hooks", "hooks 70000");		/* out of range */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_cache(key, "result", "result 5");		/* a probe never returns > 0 */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_cache(key, "btf", "colour blue");		/* unknown field */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	char longline[700];
	snprintf(longline, sizeof(longline), "error %s", big);	/* longer than ks.error */
	write_cache(key, "error", longline);
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_file("cache", "memcgd-kernel-probe 2\n");	/* another format */
	CHECK(load(key, &ks, &result) == -EBADMSG);
	write_file("cache", "memcgd-kernel-probe 1\nkey ");	/* truncated */
	CHECK(load(key, &ks, &result) == -EBADMSG);

	/* a newline in a value would forge a field: refused at store */
	struct kernel_support forged = full;
	snprintf(forged.error, sizeof(forged.error), "x\nhas_ops 1");
	CHECK(kernel_probe_cache_store(path_of("cache"), key, &forged, 0) == -EINVAL);

	/* a directory that does not exist: nothing stored, the error said */
	CHECK(kernel_probe_cache_store(path_of("no-such-dir/cache"), key, &full, 0) == -ENOENT);

	unlink(path_of("cache"));
	unlink(path_of("btf"));
	unlink(path_of("empty"));
	rmdir(dir);
	return test_summary("test-kernel-probe-cache");
}
