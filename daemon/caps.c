// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "caps.h"
#include "log.h"

int caps_drop_to_runtime_set(bool keep_bpf)
{
	static const cap_value_t keep[] = { CAP_BPF, CAP_PERFMON };
	cap_t caps = cap_init();
	int r = 0;

	if (!caps)
		return -ENOMEM;
	if (keep_bpf && (cap_set_flag(caps, CAP_PERMITTED, 2, keep, CAP_SET) < 0 ||
			 cap_set_flag(caps, CAP_EFFECTIVE, 2, keep, CAP_SET) < 0)) {
		r = -errno;
		goto out;
	}
	/* ambient capabilities would survive an exec; memcgd never execs, clear them anyway */
	(void)cap_reset_ambient();
	if (cap_set_proc(caps) < 0) {
		r = -errno;
		log_error("cannot drop capabilities: %s", strerror(-r));
		goto out;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		log_warning("cannot set no_new_privs: %s", strerror(errno));
out:
	cap_free(caps);
	return r;
}
