// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>

#include "kernel-check.h"
#include "config.h"
#include "kernel-probe-cache.h"
#include "kernel-probe.h"

int kernel_check(const char *btf_path, char *why, size_t len)
{
	struct kernel_support ks;
	/* the service's own check stores its answer for memcgd, which starts right after it */
	int r = btf_path ? kernel_probe(btf_path, &ks)
			 : kernel_probe_cached(MEMCGD_KERNEL_PROBE_CACHE, getenv("STATE_DIRECTORY") != NULL, &ks);

	if (!ks.has_ops) {
		snprintf(why, len, "skip: %s", ks.error[0] ? ks.error : "no memcg_bpf_ops");
		return KERNEL_CHECK_SKIP;
	}
	snprintf(why, len, "kernel %s has memcg_bpf_ops (%s)%s%s", ks.release, ks.hook_names, r < 0 ? "; but: " : "",
		 r < 0 ? ks.error : "");
	return KERNEL_CHECK_RUN;
}
