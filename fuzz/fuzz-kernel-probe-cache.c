// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the kernel probe's cache file (written by memcgd, read by memcgd and
 * memcgctl) must load whole or not at all, whatever it contains; what loads must store and load
 * back the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel-probe-cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct kernel_support ks, again;
	int result = 1, result2 = 1;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz-kernel-probe-cache.%d", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 0;
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	if (kernel_probe_cache_load(path, "fuzz-key", &ks, &result) == 0) {
		if (result > 0 || result < -4095)
			abort();
		if (kernel_probe_cache_store(path, "fuzz-key", &ks, result) == 0) {
			if (kernel_probe_cache_load(path, "fuzz-key", &again, &result2) != 0 || result2 != result ||
			    strcmp(again.release, ks.release) || strcmp(again.hook_names, ks.hook_names) ||
			    strcmp(again.error, ks.error) || again.hooks != ks.hooks || again.has_ops != ks.has_ops)
				abort();
		}
	}
	unlink(path);
	return 0;
}
