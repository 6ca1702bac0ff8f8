// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the configuration parser must never crash, leak or read out of bounds,
 * whatever a file in /etc/memcgd.d contains. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-parse.h"
#include "conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct memcgd_config c = {};
	struct slice_settings defaults;
	struct diag_list d = {};
	char buf[1024];
	FILE *f;

	if (size == 0)
		return 0;

	/* as a slice file */
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	c.slices = calloc(1, sizeof(*c.slices));
	if (!c.slices) {
		fclose(f);
		return 0;
	}
	slice_settings_init(&defaults);
	daemon_conf_init(&c.daemon);
	conf_parse_slice_stream(f, "fuzz.conf", &defaults, &c.slices[0], &d);
	fclose(f);
	c.n_slices = 1;
	config_validate(&c, &d);
	if (c.slices[0].name) {
		char *p = slice_cgroup_path(c.slices[0].name);

		free(p);
	}
	for (size_t i = 0; i < d.n; i++)
		diag_format(&d.items[i], buf, sizeof(buf));
	memcgd_config_done(&c);
	diag_list_clear(&d);

	/* as memcgd.conf */
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	daemon_conf_init(&c.daemon);
	conf_parse_main_stream(f, "memcgd.conf", &c.daemon, &d);
	fclose(f);
	free(c.daemon.file);
	diag_list_clear(&d);
	return 0;
}
