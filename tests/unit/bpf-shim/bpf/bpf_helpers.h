/* SPDX-License-Identifier: GPL-2.0-only */
/* Host stand-in for libbpf's bpf_helpers.h: maps become in-memory tables, helpers plain
 * functions with a test clock, so memcgd.bpf.c runs as ordinary C in test-bpf-logic.c. */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEC(name)
#define __ksym
#define __weak __attribute__((weak))
#define bpf_ksym_exists(sym) (&(sym) != NULL)
#ifndef __always_inline
#define __always_inline inline
#endif
#define __uint(name, val) int (*name)[val]
#define __type(name, val) __typeof__(val) *name

struct shim_map {
	const void *id;
	int hash;
	size_t key_size, value_size, max_entries;
	size_t limit; /* a hash map refuses new keys beyond this many (E2BIG), as at max_entries */
	unsigned char *keys, *values, *used;
};

static struct shim_map shim_maps[16];
static unsigned long long shim_now_ns;
static unsigned long shim_lookups;

struct shim_event {
	unsigned char data[64];
};
static struct shim_event shim_events[256];
static unsigned shim_n_events;

static void shim_register(const void *map, int hash, size_t key_size, size_t value_size, size_t max_entries)
{
	for (size_t i = 0; i < sizeof(shim_maps) / sizeof(shim_maps[0]); i++)
		if (!shim_maps[i].id) {
			shim_maps[i] = (struct shim_map){ map, hash, key_size, value_size, max_entries, max_entries,
							  calloc(max_entries, key_size), calloc(max_entries, value_size),
							  calloc(max_entries, 1) };
			return;
		}
	abort();
}

#define SHIM_MAP(var, hash) \
	shim_register(&var, hash, sizeof(*var.key), sizeof(*var.value), sizeof(*var.max_entries) / sizeof(int))

static struct shim_map *shim_find(const void *map)
{
	for (size_t i = 0; i < sizeof(shim_maps) / sizeof(shim_maps[0]); i++)
		if (shim_maps[i].id == map)
			return &shim_maps[i];
	abort();
}

static size_t shim_used(const struct shim_map *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->max_entries; i++)
		n += m->used[i];
	return n;
}

/* A hash map as if its max_entries were n (at most the declared size): what MaxCgroups= does */
static void shim_set_limit(const void *map, size_t n)
{
	struct shim_map *m = shim_find(map);

	m->limit = n < m->max_entries ? n : m->max_entries;
}

static long shim_slot(struct shim_map *m, const void *key, int create)
{
	if (!m->hash) {
		uint32_t k;

		memcpy(&k, key, sizeof(k));
		return k < m->max_entries ? (long)k : -1;
	}
	for (size_t i = 0; i < m->max_entries; i++)
		if (m->used[i] && !memcmp(m->keys + i * m->key_size, key, m->key_size))
			return (long)i;
	if (create && shim_used(m) < m->limit)
		for (size_t i = 0; i < m->max_entries; i++)
			if (!m->used[i])
				return (long)i;
	return -1;
}

static inline void *bpf_map_lookup_elem(void *map, const void *key)
{
	struct shim_map *m = shim_find(map);
	long i = shim_slot(m, key, 0);

	shim_lookups++;
	if (i < 0 || (m->hash && !m->used[i]))
		return NULL;
	return m->values + (size_t)i * m->value_size;
}

static inline long bpf_map_update_elem(void *map, const void *key, const void *value, unsigned long long flags)
{
	struct shim_map *m = shim_find(map);
	long i = shim_slot(m, key, 1);

	if (i < 0)
		return -7; /* E2BIG */
	if (m->hash && m->used[i] && flags == BPF_NOEXIST)
		return -17; /* EEXIST */
	memcpy(m->keys + (size_t)i * m->key_size, key, m->key_size);
	memcpy(m->values + (size_t)i * m->value_size, value, m->value_size);
	m->used[i] = 1;
	return 0;
}

static inline long bpf_map_delete_elem(void *map, const void *key)
{
	struct shim_map *m = shim_find(map);
	long i = shim_slot(m, key, 0);

	if (i < 0 || !m->used[i])
		return -2;
	m->used[i] = 0;
	return 0;
}

static unsigned long shim_clock_reads;

static inline unsigned long long bpf_ktime_get_ns(void)
{
	shim_clock_reads++;
	return shim_now_ns;
}

/* the test clock's tick: 4 ms (HZ=250) */
static inline unsigned long long bpf_jiffies64(void)
{
	return shim_now_ns / 4000000ULL;
}

static inline void *bpf_ringbuf_reserve(void *ringbuf, unsigned long long size, unsigned long long flags)
{
	if (shim_n_events == sizeof(shim_events) / sizeof(shim_events[0]) || size > sizeof(shim_events[0].data))
		return NULL;
	return shim_events[shim_n_events++].data;
}

static inline void bpf_ringbuf_submit(void *data, unsigned long long flags)
{
}

/* bpf_loop(): the callback for 0..nr-1 until it returns non-zero */
static inline long bpf_loop(unsigned int nr, long (*callback)(unsigned long long i, void *ctx), void *ctx,
			    unsigned long long flags)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (callback(i, ctx))
			return i + 1;
	return i;
}
