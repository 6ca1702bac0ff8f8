// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void diag_add(struct diag_list *l, const char *file, unsigned line, const char *fmt, ...)
{
	struct diag *items;
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);

	items = realloc(l->items, (l->n + 1) * sizeof(*items));
	if (!items) {
		free(msg);
		return; /* out of memory: the caller still sees earlier diagnostics */
	}
	l->items = items;
	items[l->n].file = strdup(file ? file : "(unknown)");
	items[l->n].line = line;
	items[l->n].message = msg ? msg : strdup("(out of memory)");
	l->n++;
}

void diag_list_clear(struct diag_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].file);
		free(l->items[i].message);
	}
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

const char *diag_format(const struct diag *d, char *buf, size_t len)
{
	if (d->line)
		snprintf(buf, len, "%s:%u: %s", d->file ? d->file : "?", d->line,
			 d->message ? d->message : "?");
	else
		snprintf(buf, len, "%s: %s", d->file ? d->file : "?", d->message ? d->message : "?");
	return buf;
}

void diag_list_print(const struct diag_list *l, FILE *f)
{
	char buf[1024];

	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s\n", diag_format(&l->items[i], buf, sizeof(buf)));
}
