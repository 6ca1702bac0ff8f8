// SPDX-License-Identifier: GPL-2.0-only
/* Issue 35: the configuration in force. The exempt cgroups and the policies refused on the slices
 * that hold them; at reload a bad file is left out while its previous policy stays, at start it
 * is only left out; an invalid memcgd.conf refuses everything. */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config-in-force.h"
#include "exempt.h"
#include "tests.h"
#include "util.h"

static char root[] = "/tmp/memcgd-inforce-XXXXXX";

static void make_path(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	if (!text) {
		CHECK(mkdir(path, 0755) == 0 || errno == EEXIST);
		return;
	}
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

static bool has_diag(const struct diag_list *d, const char *needle)
{
	char buf[1024];

	for (size_t i = 0; i < d->n; i++)
		if (strstr(diag_format(&d->items[i], buf, sizeof(buf)), needle))
			return true;
	return false;
}

static const struct slice_conf *find(const struct memcgd_config *c, const char *name)
{
	for (size_t i = 0; i < c->n_slices; i++)
		if (streq(c->slices[i].name, name))
			return &c->slices[i];
	return NULL;
}

static void collect(struct exempt_set *e)
{
	char cg[512];
	char *units[MEMCGD_MAX_EXEMPT] = {};

	snprintf(cg, sizeof(cg), "%s/cg", root);
	make_path("/cg/init.scope", NULL);
	make_path("/cg/system.slice/systemd-journald.service", NULL);
	make_path("/cg/other.slice/systemd-logind.service", NULL);
	/* systemd says where logind runs; dbus and dbus-broker have no cgroup here */
	for (size_t i = 0; i < n_exempt_units; i++)
		if (streq(exempt_units[i], "systemd-logind.service"))
			units[i] = "/other.slice/systemd-logind.service";
	CHECK(exempt_collect(cg, units, NULL, e) == 0);
}

static void test_exempt(void)
{
	struct exempt_set e;
	bool journald = false, logind = false, init = false;

	collect(&e);
	for (size_t i = 0; i < e.n; i++) {
		journald |= streq(e.paths[i], "/system.slice/systemd-journald.service");
		logind |= streq(e.paths[i], "/other.slice/systemd-logind.service");
		init |= streq(e.paths[i], "/init.scope");
		CHECK(strstr(e.paths[i], "dbus") == NULL); /* no such directory: not exempt */
	}
	CHECK(journald && logind && init);
	CHECK_STREQ(exempt_inside_slice(&e, "system.slice"), "/system.slice/systemd-journald.service");
	CHECK_STREQ(exempt_inside_slice(&e, "other.slice"), "/other.slice/systemd-logind.service");
	CHECK(exempt_inside_slice(&e, "high.slice") == NULL);
	CHECK(exempt_inside_slice(&e, "system-foo.slice") == NULL); /* system.slice/system-foo.slice */
	CHECK(exempt_inside_slice(&e, "init.slice") == NULL);
	exempt_set_done(&e);
}

static struct slice_conf slice(const char *name, uint64_t delay_usec, bool background)
{
	struct slice_conf s = { .name = strdup(name), .file = strdup("/etc/memcgd.d/x.conf"), .name_line = 2 };

	slice_settings_init(&s.settings);
	s.settings.throttle_delay_usec = delay_usec;
	s.settings.reclaim_background = background;
	s.background_line = background ? 9 : 0;
	return s;
}

static void test_refuse(void)
{
	struct memcgd_config c = {};
	struct diag_list d = {};
	struct exempt_set e;

	collect(&e);
	c.n_slices = 5;
	c.slices = calloc(c.n_slices, sizeof(*c.slices));
	c.slices[0] = slice("system.slice", 100000, false); /* throttles journald */
	c.slices[1] = slice("system.slice", 0, true);       /* reclaims it */
	c.slices[2] = slice("system.slice", 0, false);      /* protects only: fine */
	c.slices[3] = slice("high.slice", 100000, true);    /* nothing exempt inside */
	c.slices[4] = slice("other.slice", 50000, false);   /* logind */
	CHECK(exempt_refuse_policies(&c, &e, &d) == 3);
	CHECK(c.n_slices == 2);
	CHECK(find(&c, "high.slice") && find(&c, "system.slice") && find(&c, "system.slice")->settings.throttle_delay_usec == 0);
	CHECK(has_diag(&d, "/etc/memcgd.d/x.conf:2: system.slice contains /system.slice/systemd-journald.service"));
	CHECK(has_diag(&d, "[Throttle] Delay= other than 0 is refused"));
	CHECK(has_diag(&d, "/etc/memcgd.d/x.conf:9: system.slice contains"));
	CHECK(has_diag(&d, "[Reclaim] Background=yes is refused"));
	CHECK(has_diag(&d, "other.slice contains /other.slice/systemd-logind.service"));
	memcgd_config_done(&c);
	diag_list_clear(&d);
	exempt_set_done(&e);
}

static void test_reload_rule(void)
{
	struct memcgd_config old, c;
	struct diag_list d = {};
	struct exempt_set e;
	const struct slice_conf *a, *b;

	collect(&e);
	make_path("/etc/memcgd.d/10-a.conf", "[Slice]\nName=a.slice\nPriority=10\n");
	make_path("/etc/memcgd.d/20-b.conf", "[Slice]\nName=b.slice\nPriority=20\n");
	make_path("/etc/memcgd.d/30-sys.conf", "[Slice]\nName=system.slice\nPriority=5\n");
	/* start: everything valid applies, the policy that would throttle journald is refused */
	CHECK(config_load_in_force(root, NULL, &e, &old, &d) == 1);
	CHECK(old.n_slices == 2 && find(&old, "a.slice") && find(&old, "b.slice") && !find(&old, "system.slice"));
	CHECK(has_diag(&d, "30-sys.conf:2: system.slice contains /system.slice/systemd-journald.service"));
	diag_list_clear(&d);

	/* reload: a.slice's file breaks (two problems), b.slice's changes */
	make_path("/etc/memcgd.d/10-a.conf", "[Slice]\nName=a.slice\nPriority=11\n[Protect]\nMode=maximum\nFoo=1\n");
	make_path("/etc/memcgd.d/20-b.conf", "[Slice]\nName=b.slice\nPriority=30\n");
	CHECK(config_load_in_force(root, &old, &e, &c, &d) == 1);
	a = find(&c, "a.slice");
	b = find(&c, "b.slice");
	CHECK(a && a->priority == 10); /* the previous policy stays */
	CHECK(b && b->priority == 30); /* the valid file applies */
	CHECK(has_diag(&d, "10-a.conf:5: "));
	CHECK(has_diag(&d, "10-a.conf:6: "));
	CHECK(has_diag(&d, "10-a.conf: the previous policy of a.slice (priority 10) stays in force until this file is fixed"));
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* the same files at start: the bad one is only left out */
	CHECK(config_load_in_force(root, NULL, &e, &c, &d) == 1);
	CHECK(!find(&c, "a.slice") && find(&c, "b.slice"));
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* a second file for a.slice is a duplicate of the bad one (left out too): the previous
	 * policy still stays */
	make_path("/etc/memcgd.d/40-a2.conf", "[Slice]\nName=a.slice\nPriority=15\n");
	CHECK(config_load_in_force(root, &old, &e, &c, &d) == 1);
	a = find(&c, "a.slice");
	CHECK(a && a->priority == 10 && c.n_slices == 2);
	CHECK(has_diag(&d, "40-a2.conf:2: duplicate slice a.slice"));
	CHECK(has_diag(&d, "stays in force"));
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* once the old file is gone, the valid one applies and nothing is kept */
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/etc/memcgd.d/10-a.conf", root);
		unlink(p);
	}
	CHECK(config_load_in_force(root, &old, &e, &c, &d) == 1); /* 30-sys.conf is still refused */
	a = find(&c, "a.slice");
	CHECK(a && a->priority == 15 && c.n_slices == 2);
	CHECK(!has_diag(&d, "stays in force"));
	memcgd_config_done(&c);
	diag_list_clear(&d);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/etc/memcgd.d/40-a2.conf", root);
		unlink(p);
	}

	/* an invalid memcgd.conf concerns every slice: nothing applies */
	make_path("/etc/memcgd.conf", "[Daemon]\nUpdateInterval=never\n");
	CHECK(config_load_in_force(root, &old, &e, &c, &d) == -EINVAL);
	CHECK(has_diag(&d, "memcgd.conf:2: "));
	memcgd_config_done(&c);
	diag_list_clear(&d);
	memcgd_config_done(&old);
	exempt_set_done(&e);
}

int main(void)
{
	CHECK(mkdtemp(root) != NULL);
	test_exempt();
	test_refuse();
	test_reload_rule();
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return test_summary("test-config-in-force");
}
