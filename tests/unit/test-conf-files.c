// SPDX-License-Identifier: GPL-2.0-only
/* Directory precedence, masking, lexical order, and whole-configuration checks. */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf-files.h"
#include "conf.h"
#include "min-budget.h"
#include "tests.h"

static char root[] = "/tmp/memcgd-test-XXXXXX";

static void write_file(const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void link_null(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	CHECK(symlink("/dev/null", path) == 0);
}

static const char *rel(const char *path)
{
	return path + strlen(root);
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

static void slice_text(char *buf, size_t len, const char *name, int prio)
{
	snprintf(buf, len, "[Slice]\nName=%s\nPriority=%d\n", name, prio);
}

static void test_precedence_and_masking(void)
{
	struct conf_file_list l = {};
	struct diag_list d = {};
	char t[256];

	slice_text(t, sizeof(t), "etc.slice", 1);
	write_file("/etc/memcgd.d/50-db.conf", t);
	write_file("/usr/lib/memcgd.d/50-db.conf", "[Slice]\nName=usr.slice\nPriority=1\n");  /* masked by /etc */
	write_file("/usr/lib/memcgd.d/10-first.conf", "[Slice]\nName=first.slice\nPriority=1\n");
	write_file("/run/memcgd.d/70-run.conf", "[Slice]\nName=run.slice\nPriority=1\n");
	write_file("/usr/local/lib/memcgd.d/70-run.conf", "[Slice]\nName=local.slice\nPriority=1\n");
	write_file("/usr/lib/memcgd.d/80-masked.conf", "[Slice]\nName=masked.slice\nPriority=1\n");
	link_null("/etc/memcgd.d/80-masked.conf");
	write_file("/usr/lib/memcgd.d/85-empty-mask.conf", "[Slice]\nName=emptymasked.slice\nPriority=1\n");
	write_file("/run/memcgd.d/85-empty-mask.conf", "");
	write_file("/usr/local/lib/memcgd.d/90-local.conf", "[Slice]\nName=local2.slice\nPriority=1\n");
	write_file("/etc/memcgd.d/README", "not a .conf file");
	write_file("/etc/memcgd.d/.hidden.conf", "garbage");

	CHECK(conf_files_list(root, &l, &d) == 0);
	CHECK(d.n == 0);
	CHECK(l.n == 4);
	if (l.n == 4) {
		/* lexical order by file name, whatever the directory */
		CHECK_STREQ(rel(l.paths[0]), "/usr/lib/memcgd.d/10-first.conf");
		CHECK_STREQ(rel(l.paths[1]), "/etc/memcgd.d/50-db.conf");
		CHECK_STREQ(rel(l.paths[2]), "/run/memcgd.d/70-run.conf");
		CHECK_STREQ(rel(l.paths[3]), "/usr/local/lib/memcgd.d/90-local.conf");
	}
	conf_file_list_done(&l);
	diag_list_clear(&d);
}

static void test_main_conf(void)
{
	char *p = NULL;

	CHECK(conf_main_file(root, &p) == 0);
	CHECK(p == NULL);
	write_file("/usr/lib/memcgd.conf", "[Daemon]\nDryRun=yes\n");
	CHECK(conf_main_file(root, &p) == 0);
	CHECK(p && strcmp(rel(p), "/usr/lib/memcgd.conf") == 0);
	free(p);
	write_file("/etc/memcgd.conf", "[Daemon]\nDryRun=no\n");
	CHECK(conf_main_file(root, &p) == 0);
	CHECK(p && strcmp(rel(p), "/etc/memcgd.conf") == 0);
	free(p);
	unlink(strcat(strcpy((char[512]){ 0 }, root), "/etc/memcgd.conf"));
	link_null("/run/memcgd.conf");
	CHECK(conf_main_file(root, &p) == 0);
	CHECK(p == NULL); /* masked */
	unlink(strcat(strcpy((char[512]){ 0 }, root), "/run/memcgd.conf"));
	unlink(strcat(strcpy((char[512]){ 0 }, root), "/usr/lib/memcgd.conf"));
}

static void test_load(void)
{
	struct memcgd_config c;
	struct diag_list d = {};

	/* defaults from memcgd.conf reach the slice files, which override them */
	write_file("/etc/memcgd.conf", "[Activity]\nPageFaultRate=77\n[Throttle]\nDelay=20ms\n");
	write_file("/etc/memcgd.d/60-x.conf", "[Slice]\nName=x.slice\nPriority=3\n[Throttle]\nDelay=30ms\n");
	CHECK(config_load(root, &c, &d) == 0);
	CHECK(d.n == 0);
	CHECK(c.n_slices == 5);
	for (size_t i = 0; i < c.n_slices; i++) {
		CHECK(c.slices[i].settings.fault_rate == 77);
		if (strcmp(c.slices[i].name, "x.slice") == 0)
			CHECK(c.slices[i].settings.throttle_delay_usec == 30000);
		else
			CHECK(c.slices[i].settings.throttle_delay_usec == 20000);
	}
	CHECK(c.daemon.file && strcmp(rel(c.daemon.file), "/etc/memcgd.conf") == 0);
	memcgd_config_done(&c);
	diag_list_clear(&d);
}

static void test_cross_file_errors(void)
{
	struct memcgd_config c;
	struct diag_list d = {};
	char buf[512];
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/etc/memcgd.d", root);
	/* duplicate slice: the later file is the error, naming the first */
	write_file("/etc/memcgd.d/61-dup.conf", "# again\n[Slice]\nName=x.slice\nPriority=3\n");
	/* nested slice outranking its parent */
	write_file("/etc/memcgd.d/62-parent.conf", "[Slice]\nName=app.slice\nPriority=10\n");
	write_file("/etc/memcgd.d/63-child.conf", "[Slice]\nName=app-web.slice\nPriority=20\n");
	/* a nested slice at a lower priority is fine */
	write_file("/etc/memcgd.d/64-child2.conf", "[Slice]\nName=app-batch.slice\nPriority=5\n");
	/* and a broken file is reported too, the others still parsed */
	write_file("/etc/memcgd.d/65-broken.conf", "[Slice]\nName=broken.slice\nPriority=1\n[Protect]\nMode=maximum\n");

	CHECK(config_load(root, &c, &d) == -EINVAL);
	CHECK(d.n == 3);
	for (size_t i = 0; i < d.n; i++) {
		diag_format(&d.items[i], buf, sizeof(buf));
		if (strstr(buf, "duplicate")) {
			CHECK_CONTAINS(buf, "61-dup.conf:3: duplicate slice x.slice: already configured in ");
			CHECK_CONTAINS(buf, "60-x.conf:2");
		} else if (strstr(buf, "outrank")) {
			CHECK_CONTAINS(buf, "63-child.conf:3: Priority=20 conflicts with the enclosing slice app.slice "
					    "(Priority=10 at ");
			CHECK_CONTAINS(buf, "62-parent.conf:3)");
		} else {
			CHECK_CONTAINS(buf, "65-broken.conf:5: Mode='maximum' is not a protection mode");
		}
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* memcgctl check FILE...: just those files, memcgd.conf first whatever its position */
	{
		char p1[512], p2[512], p3[512];
		char *files[3] = { p1, p2, p3 };

		snprintf(p1, sizeof(p1), "%s/etc/memcgd.d/62-parent.conf", root);
		snprintf(p2, sizeof(p2), "%s/etc/memcgd.d/64-child2.conf", root);
		snprintf(p3, sizeof(p3), "%s/etc/memcgd.conf", root);
		CHECK(config_load_files(files, 3, &c, &d) == 0);
		CHECK(d.n == 0);
		CHECK(c.n_slices == 2);
		CHECK(c.n_slices == 2 && c.slices[0].settings.fault_rate == 77);
		memcgd_config_done(&c);
		files[1] = strcat(strcpy((char[512]){ 0 }, root), "/etc/memcgd.d/63-child.conf");
		CHECK(config_load_files(files, 2, &c, &d) == -EINVAL);
		CHECK(d.n == 1);
		memcgd_config_done(&c);
		diag_list_clear(&d);
	}
}

static void file_mode(const char *rel_path, mode_t mode)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel_path);
	CHECK(chmod(path, mode) == 0);
}

/* issue 17: at start, one bad drop-in is left out and the others stay; memcgd.conf is not */
static void test_skipping(void)
{
	struct memcgd_config c;
	struct diag_list d = {};
	char buf[512];
	bool broken = false, dup = false, child = false;

	/* still in place from test_cross_file_errors: 61-dup (duplicate of 60-x), 63-child
	 * (outranks its parent), 65-broken (Mode=maximum) */
	CHECK(config_load(root, &c, &d) == -EINVAL); /* memcgctl check: still an error */
	memcgd_config_done(&c);
	diag_list_clear(&d);

	CHECK(config_load_skipping(root, &c, &d) == 1);
	for (size_t i = 0; i < c.n_slices; i++) {
		const char *f = rel(c.slices[i].file);

		CHECK(strstr(f, "61-dup") == NULL && strstr(f, "63-child") == NULL && strstr(f, "65-broken") == NULL);
		broken |= strcmp(c.slices[i].name, "broken.slice") == 0;
	}
	CHECK(!broken);
	CHECK(c.n_slices == 7); /* the 5 of test_load + 62-parent + 64-child2 */
	for (size_t i = 0; i < d.n; i++) {
		diag_format(&d.items[i], buf, sizeof(buf));
		dup |= strstr(buf, "61-dup.conf:3: duplicate slice") != NULL;
		child |= strstr(buf, "63-child.conf:3: Priority=20") != NULL;
	}
	CHECK(dup && child);
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* StrictModes: a group- or world-writable drop-in is refused, naming the file */
	write_file("/etc/memcgd.d/66-open.conf", "[Slice]\nName=open.slice\nPriority=2\n");
	file_mode("/etc/memcgd.d/66-open.conf", 0666);
	CHECK(config_load_skipping(root, &c, &d) == 1);
	for (size_t i = 0; i < c.n_slices; i++)
		CHECK(strcmp(c.slices[i].name, "open.slice") != 0);
	{
		bool found = false;

		for (size_t i = 0; i < d.n; i++) {
			diag_format(&d.items[i], buf, sizeof(buf));
			if (strstr(buf, "66-open.conf: refused: world-writable (mode 0666)"))
				found = true;
		}
		CHECK(found);
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);
	file_mode("/etc/memcgd.d/66-open.conf", 0620);
	CHECK(config_load(root, &c, &d) == -EINVAL);
	CHECK(d.n > 0);
	{
		bool found = false;

		for (size_t i = 0; i < d.n; i++) {
			diag_format(&d.items[i], buf, sizeof(buf));
			found |= strstr(buf, "66-open.conf: refused: group-writable (mode 0620)") != NULL;
		}
		CHECK(found);
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);
	file_mode("/etc/memcgd.d/66-open.conf", 0644);

	/* a directory anyone can write to: its files could be replaced */
	file_mode("/etc/memcgd.d", 0777);
	CHECK(config_load(root, &c, &d) == -EINVAL);
	{
		bool found = false;

		for (size_t i = 0; i < d.n; i++) {
			diag_format(&d.items[i], buf, sizeof(buf));
			found |= strstr(buf, "refused: its directory") != NULL && strstr(buf, "mode 0777") != NULL;
		}
		CHECK(found);
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);
	file_mode("/etc/memcgd.d", 0755);

	/* self-protection: a policy on memcgd's own slice is refused, naming file:line */
	write_file("/etc/memcgd.d/67-self.conf", "[Slice]\nName=system-memcgd.slice\nPriority=1\n");
	CHECK(config_load_skipping(root, &c, &d) == 1);
	{
		bool found = false;

		for (size_t i = 0; i < d.n; i++) {
			diag_format(&d.items[i], buf, sizeof(buf));
			found |= strstr(buf, "67-self.conf:2: system-memcgd.slice is where memcgd itself runs") != NULL;
		}
		CHECK(found);
		for (size_t i = 0; i < c.n_slices; i++)
			CHECK(strcmp(c.slices[i].name, "system-memcgd.slice") != 0);
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);
	remove(strcat(strcpy((char[512]){ 0 }, root), "/etc/memcgd.d/67-self.conf"));

	/* memcgd.conf invalid: its defaults apply to every slice, memcgd does not start */
	write_file("/etc/memcgd.conf", "[Daemon]\nDryRun=perhaps\n");
	CHECK(config_load_skipping(root, &c, &d) == -EINVAL);
	memcgd_config_done(&c);
	diag_list_clear(&d);
	write_file("/etc/memcgd.conf", "[Activity]\nPageFaultRate=77\n[Throttle]\nDelay=20ms\n");
	file_mode("/etc/memcgd.conf", 0646);
	CHECK(config_load_skipping(root, &c, &d) == -EINVAL);
	memcgd_config_done(&c);
	diag_list_clear(&d);
	file_mode("/etc/memcgd.conf", 0644);
}

/* The Mode=min budget: ceilings by priority within memory minus the reserve (min-budget.h). */
static void min_slice(const char *rel_path, const char *name, int prio, const char *max_usage)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "[Slice]\nName=%s\nPriority=%d\n[Protect]\nMode=min\n%s%s%s", name, prio,
		 max_usage ? "MaxUsage=" : "", max_usage ? max_usage : "", max_usage ? "\n" : "");
	write_file(rel_path, buf);
}

static void test_min_budget(void)
{
	struct memcgd_config c;
	struct diag_list d = {};

	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(root, 0755);
	/* 8G: the reserve is a tenth (819M), the budget 7.2G */
	min_budget_set_ram(8ULL << 30);
	CHECK(min_budget_reserve(8ULL << 30) == (8ULL << 30) / 10);
	CHECK(min_budget_reserve(1ULL << 30) == MIN_BUDGET_RESERVE_FLOOR);
	min_slice("/etc/memcgd.d/50-a.conf", "a.slice", 50, "4G");
	min_slice("/etc/memcgd.d/40-b.conf", "b.slice", 40, "3G");
	/* inside a.slice: within a's ceiling, not counted again */
	min_slice("/etc/memcgd.d/45-a-inner.conf", "a-inner.slice", 45, "4G");
	write_file("/etc/memcgd.d/20-low.conf", "[Slice]\nName=low.slice\nPriority=20\n[Protect]\nMode=low\nMaxUsage=8G\n");
	CHECK(config_load(root, &c, &d) == 0);
	CHECK(d.n == 0);
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* a third Mode=min slice of lower priority no longer fits: 4G + 3G + 1G > 7.2G */
	min_slice("/etc/memcgd.d/30-c.conf", "c.slice", 30, "1G");
	CHECK(config_load(root, &c, &d) == -EINVAL);
	CHECK(d.n == 1);
	if (d.n) {
		CHECK_CONTAINS(d.items[0].file, "30-c.conf");
		CHECK(d.items[0].line == 2);
		CHECK_CONTAINS(d.items[0].message, "Mode=min of c.slice does not fit the memory: its ceiling MaxUsage=1G "
				"on top of 7G");
		CHECK_CONTAINS(d.items[0].message, "lower MaxUsage= or use Mode=low");
	}
	memcgd_config_done(&c);
	diag_list_clear(&d);
	/* memcgd's start leaves that file out and keeps the others */
	CHECK(config_load_skipping(root, &c, &d) == 1);
	CHECK(c.n_slices == 4);
	for (size_t i = 0; i < c.n_slices; i++)
		CHECK(strcmp(c.slices[i].name, "c.slice") != 0);
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* the default ceiling (half the memory) and infinity (all of it) count as such */
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/etc/memcgd.d/30-c.conf", root);
		CHECK(unlink(path) == 0);
	}
	min_slice("/etc/memcgd.d/40-b.conf", "b.slice", 40, NULL);
	CHECK(config_load(root, &c, &d) == -EINVAL); /* 4G + 4G */
	CHECK(d.n == 1 && strstr(d.items[0].file, "40-b.conf"));
	memcgd_config_done(&c);
	diag_list_clear(&d);
	/* infinity (all the memory) never fits, even first; a.slice keeps its budget */
	min_slice("/etc/memcgd.d/40-b.conf", "b.slice", 60, "infinity");
	CHECK(config_load(root, &c, &d) == -EINVAL);
	CHECK(d.n == 1 && strstr(d.items[0].file, "40-b.conf"));
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* memory unknown: no budget (as no default ceiling can be resolved) */
	min_budget_set_ram(0);
	CHECK(config_load(root, &c, &d) == 0);
	memcgd_config_done(&c);
	diag_list_clear(&d);
	min_budget_set_ram(8ULL << 30);
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	mkdir(root, 0755);
}

static void test_slice_names(void)
{
	char *p;

	CHECK(slice_name_valid("database.slice"));
	CHECK(slice_name_valid("system-getty.slice"));
	CHECK(slice_name_valid("user-1000.slice"));
	CHECK(!slice_name_valid("-.slice"));
	CHECK(slice_is_ancestor("a.slice", "a-b.slice"));
	CHECK(slice_is_ancestor("a.slice", "a-b-c.slice"));
	CHECK(slice_is_ancestor("a-b.slice", "a-b-c.slice"));
	CHECK(!slice_is_ancestor("a.slice", "ab.slice"));
	CHECK(!slice_is_ancestor("a.slice", "a.slice"));
	CHECK(!slice_is_ancestor("a-b.slice", "a.slice"));
	p = slice_cgroup_path("a-b-c.slice");
	CHECK_STREQ(p, "a.slice/a-b.slice/a-b-c.slice");
	free(p);
	p = slice_cgroup_path("database.slice");
	CHECK_STREQ(p, "database.slice");
	free(p);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	min_budget_set_ram(8ULL << 30); /* the budget of Mode=min, whatever this machine has */
	test_precedence_and_masking();
	test_main_conf();
	test_load();
	test_cross_file_errors();
	test_skipping();
	test_min_budget();
	test_slice_names();
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return test_summary("test-conf-files");
}
