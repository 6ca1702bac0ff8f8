// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include "config-in-force.h"
#include "util.h"

static bool file_has_diag(const struct diag_list *d, size_t from, const char *file)
{
	for (size_t i = from; i < d->n; i++)
		if (file && d->items[i].file && streq(d->items[i].file, file))
			return true;
	return false;
}

static bool configures(const struct memcgd_config *c, const char *name)
{
	for (size_t i = 0; i < c->n_slices; i++)
		if (c->slices[i].name && streq(c->slices[i].name, name))
			return true;
	return false;
}

static int append_copy(struct memcgd_config *c, const struct slice_conf *s)
{
	struct slice_conf *v = realloc(c->slices, (c->n_slices + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	c->slices = v;
	v[c->n_slices] = *s;
	v[c->n_slices].name = strdup(s->name);
	v[c->n_slices].file = strdup(s->file);
	if (!v[c->n_slices].name || !v[c->n_slices].file) {
		slice_conf_done(&v[c->n_slices]);
		return -ENOMEM;
	}
	c->n_slices++;
	return 0;
}

/* Removes the slices from index first on (the kept ones). */
static void drop_from(struct memcgd_config *c, size_t first)
{
	for (size_t i = first; i < c->n_slices; i++)
		slice_conf_done(&c->slices[i]);
	c->n_slices = first;
}

size_t config_keep_previous(struct memcgd_config *c, const struct memcgd_config *old, const struct exempt_set *e,
			    struct diag_list *d, size_t from)
{
	size_t first = c->n_slices, kept;
	struct diag_list check = {};

	if (!old)
		return 0;
	for (size_t i = 0; i < old->n_slices; i++) {
		const struct slice_conf *s = &old->slices[i];

		if (!s->name || !s->file || !file_has_diag(d, from, s->file) || configures(c, s->name))
			continue;
		if (append_copy(c, s) < 0)
			break;
	}
	/* judged like a new policy: the exempt cgroups may have moved */
	exempt_refuse_policies(c, e, d);
	kept = c->n_slices - first;
	if (!kept)
		return 0;
	/* the files that were valid now, with the old policies of the bad ones: do they still fit
	 * together (nested priorities, limits)? If not, the valid files win. */
	config_validate(c, &check);
	if (check.n) {
		diag_add(d, c->slices[first].file, 0,
			 "the previous policies of the files with problems cannot stay with the new files "
			 "(%s): they are no longer in force", check.items[0].message);
		drop_from(c, first);
		diag_list_clear(&check);
		return 0;
	}
	for (size_t i = first; i < c->n_slices; i++)
		diag_add(d, c->slices[i].file, 0,
			 "the previous policy of %s (priority %ld) stays in force until this file is fixed",
			 c->slices[i].name, c->slices[i].priority);
	return kept;
}

int config_load_in_force(const char *root, const struct memcgd_config *old, const struct exempt_set *e,
			 struct memcgd_config *ret, struct diag_list *d)
{
	size_t before = d->n;
	int r;

	r = config_load_skipping(root, ret, d);
	if (r < 0)
		return r;
	exempt_refuse_policies(ret, e, d);
	config_keep_previous(ret, old, e, d, before);
	return d->n > before ? 1 : 0;
}
