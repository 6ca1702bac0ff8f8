// SPDX-License-Identifier: GPL-2.0-only
/* The file descriptor store's names, and what adoption does with a descriptor that is not an
 * attached memcg_bpf_ops link (only a BPF_OBJ_GET_INFO_BY_FD query on a pipe: nothing is loaded). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "link-store.h"
#include "tests.h"

static void test_names(void)
{
	CHECK(link_store_name_id("memcg-link-1") == 1);
	CHECK(link_store_name_id("memcg-link-18446744073709551615") == UINT64_MAX);
	CHECK(link_store_name_id("memcg-link-18446744073709551616") == 0); /* overflow */
	CHECK(link_store_name_id("memcg-link-0") == 0);
	CHECK(link_store_name_id("memcg-link-012") == 0);
	CHECK(link_store_name_id("memcg-link-12x") == 0);
	CHECK(link_store_name_id("memcg-link-") == 0);
	CHECK(link_store_name_id("memcg-link--5") == 0);
	CHECK(link_store_name_id("stored") == 0);
	CHECK(link_store_name_id(NULL) == 0);
}

static void test_take(void)
{
	struct link_store_entry items[3] = { { 10, 100 }, { 20, 200 }, { 30, 300 } };
	struct link_store ls = { .items = items, .n = 3 };

	CHECK(link_store_take(&ls, 20) == 200);
	CHECK(ls.n == 2);
	CHECK(link_store_take(&ls, 20) == -1); /* taken once */
	CHECK(link_store_take(&ls, 40) == -1);
	CHECK(link_store_take(&ls, 30) == 300 && link_store_take(&ls, 10) == 100 && ls.n == 0);
}

/* systemd passes a pipe under a link's name: not a link, so it is closed and not adopted */
static void test_adopt_refuses_other_fds(void)
{
	struct link_store ls;
	char pid[32];
	int p[2];

	CHECK(pipe(p) == 0);
	if (p[0] != 3) { /* systemd passes from SD_LISTEN_FDS_START, 3 */
		CHECK(dup2(p[0], 3) == 3);
		close(p[0]);
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "1", 1);
	setenv("LISTEN_FDNAMES", "memcg-link-7", 1);
	CHECK(link_store_adopt(&ls) == 0);
	CHECK(ls.n == 0);
	CHECK(fcntl(3, F_GETFD) < 0 && errno == EBADF); /* closed */
	CHECK(getenv("LISTEN_FDS") == NULL);              /* consumed */
	free(ls.items);
	close(p[1]);
	/* nothing passed */
	CHECK(link_store_adopt(&ls) == 0 && ls.n == 0 && ls.items == NULL);
}

int main(void)
{
	test_names();
	test_take();
	test_adopt_refuses_other_fds();
	return test_summary("test-link-store");
}
