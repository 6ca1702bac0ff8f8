/* SPDX-License-Identifier: GPL-2.0-only */
/* Diagnostics collected while reading configuration: "file:line: message". */
#pragma once

#include <stddef.h>
#include <stdio.h>

struct diag {
	char *file;
	unsigned line; /* 0: the file as a whole */
	char *message;
};

struct diag_list {
	struct diag *items;
	size_t n;
};

__attribute__((format(printf, 4, 5)))
void diag_add(struct diag_list *l, const char *file, unsigned line, const char *fmt, ...);
void diag_list_clear(struct diag_list *l);
/* One "file:line: message" per line. */
void diag_list_print(const struct diag_list *l, FILE *f);
/* "file:line: message" of item i, in a caller buffer. */
const char *diag_format(const struct diag *d, char *buf, size_t len);
