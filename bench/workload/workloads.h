/* SPDX-License-Identifier: GPL-2.0-only */
/* The benchmark workloads of memcgd-bench, one file each. */
#ifndef MEMCGD_BENCH_WORKLOADS_H
#define MEMCGD_BENCH_WORKLOADS_H

#include "args.h"

/* Each returns 0 or a negative errno after printing what failed. */
int run_writer(const struct workload_args *a);
int run_holder(const struct workload_args *a);
int run_faults(const struct workload_args *a);
int run_charge(const struct workload_args *a);
int run_latency(const struct workload_args *a);
int run_numa(const struct workload_args *a);

/* mmap()s @mib MiB of private anonymous memory; NULL with a message on failure. */
void *map_anon(const char *cmd, size_t mib);

#endif
