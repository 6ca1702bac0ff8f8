/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy engine: what a slice needs, decided every update from what it does. Pure logic
 * (no I/O, no clock of its own), so that every rule is tested on the host (test-policy-engine).
 *
 * For each slice, every update (tick):
 *   busy       it used CPU time ([Activity] CPUUsage=any, or at least CPUUsage=) or took a page
 *              fault in the tick
 *   hold       how long it stays protected after its last busy tick: with Hold=auto twice the
 *              longest quiet spell it came back from among its last ENGINE_GAPS, at least two
 *              ticks (the resolution of the measurement), at most MaxHold=; otherwise Hold=
 *   protected  busy within the hold; "idle" after it
 *   footprint  what it has been using: the largest usage seen while protected, raised by the
 *              memory it had to fault back (refaults) in a tick, and decayed towards the usage by
 *              1/ENGINE_DECAY of the difference per tick while busy without refaults (memory
 *              it freed itself); never above MaxUsage=
 *   pressure   while protected: it refaulted in the tick, reclaim took memory below its
 *              protection (memory.events "low" grew), or its memory PSI "some" avg10 is
 *              above its own quiet level (the largest avg10 seen in ticks without refaults,
 *              decayed by 1/ENGINE_PSI_DECAY per tick so that it follows a lasting change)
 *   escalation none -> reclaim (lower slices give memory back in the background) as soon as
 *              there is pressure -> delay (lower slices with [Throttle] When=pressure are
 *              delayed) when the pressure lasts a second tick while free memory keeps falling
 *              below the reclaim headroom, i.e. background reclaim does not keep up, or at once
 *              when reclaim took memory below its protection: the kernel found nothing else to
 *              take, which is what delaying the lower slices prevents (a slow swap device makes
 *              that happen before refaults or PSI show); back to none at the first tick without
 *              pressure
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define ENGINE_GAPS 8        /* quiet spells remembered for Hold=auto */
#define ENGINE_DECAY 64      /* footprint decay divisor per busy tick without refaults */
#define ENGINE_PSI_DECAY 64  /* quiet PSI level decay divisor per tick */
#define ENGINE_HOLD_AUTO UINT64_MAX /* hold_usec: learned */

enum engine_state {
	ENGINE_IDLE,     /* not busy for longer than the hold: WakeReserve= only */
	ENGINE_BUSY,     /* busy in this tick */
	ENGINE_HOLDING,  /* quiet, within the hold: still protected */
};

enum engine_escalation {
	ESCALATE_NONE,
	ESCALATE_RECLAIM, /* pressure: lower slices reclaimed in the background */
	ESCALATE_DELAY,   /* pressure that background reclaim did not relieve: lower slices delayed */
};

struct engine_params {
	uint64_t tick_usec;      /* [Daemon] UpdateInterval= */
	uint64_t hold_usec;      /* [Activity] Hold=, ENGINE_HOLD_AUTO for auto */
	uint64_t max_hold_usec;  /* [Activity] MaxHold= (Hold=auto's bound) */
	uint64_t max_usage;      /* [Protect] MaxUsage= in bytes, UINT64_MAX = none */
	uint64_t headroom;       /* free memory below which background reclaim works (largest Headroom=) */
};

/* What the manager measured in one tick. */
struct engine_sample {
	uint64_t now_usec;
	bool cpu_busy;           /* CPU use in the tick at or above CPUUsage= (any, with CPUUsage=any) */
	uint64_t faults;         /* page faults in the tick (BPF counts) */
	uint64_t usage;          /* memory.current, bytes */
	uint64_t refault_bytes;  /* workingset refaults in the tick, in bytes */
	double psi_some_avg10;   /* memory.pressure some avg10, %; < 0 unknown */
	uint64_t low_breaches;   /* memory.events "low" in the tick: reclaim went below its protection */
	uint64_t free_bytes;     /* MemAvailable, bytes */
	bool contended;          /* a slice of lower priority was busy in the tick */
};

struct engine_slice {
	enum engine_state state;
	enum engine_escalation escalation;
	bool pressure;           /* in the last tick */
	bool have_busy;          /* ever busy */
	uint64_t last_busy_usec;
	uint64_t gaps[ENGINE_GAPS];
	unsigned n_gaps, next_gap;
	uint64_t hold_usec;      /* in force after the last tick */
	uint64_t footprint;
	double psi_quiet;        /* -1 until measured */
	unsigned pressure_ticks; /* in a row */
	uint64_t last_free;
	uint64_t episodes;       /* idle -> busy transitions */
	const char *why;         /* the reason of the last state or escalation change (static text) */
};

void engine_slice_init(struct engine_slice *e);
/* One tick. Returns true when the state or the escalation changed (e->why says why). */
bool engine_tick(struct engine_slice *e, const struct engine_params *p, const struct engine_sample *in);
/* Bytes get_low/get_min protect while the slice is active (its footprint). */
uint64_t engine_protection(const struct engine_slice *e);
/* The room a busy or holding slice needs to regrow to its footprint from its usage now (0 when
 * idle): background reclaim keeps that much free besides the watermarks (ENGINE CAP in
 * memcgd.d(5), THE POLICY ENGINE), the effect memory.high on the lower slices would have,
 * without stalling them. */
uint64_t engine_room(const struct engine_slice *e, uint64_t usage);
const char *engine_state_name(enum engine_state s);
const char *engine_escalation_name(enum engine_escalation x);
