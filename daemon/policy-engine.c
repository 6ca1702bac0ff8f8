// SPDX-License-Identifier: GPL-2.0-only
/* The policy engine (policy-engine.h): busy, learned hold, footprint, pressure, escalation. */
#include <string.h>

#include "policy-engine.h"

void engine_slice_init(struct engine_slice *e)
{
	memset(e, 0, sizeof(*e));
	e->state = ENGINE_IDLE;
	e->escalation = ESCALATE_NONE;
	e->psi_quiet = -1;
	e->why = "not busy yet";
}

static uint64_t longest_gap(const struct engine_slice *e)
{
	uint64_t longest = 0;

	for (unsigned i = 0; i < e->n_gaps; i++)
		if (e->gaps[i] > longest)
			longest = e->gaps[i];
	return longest;
}

static void remember_gap(struct engine_slice *e, uint64_t gap)
{
	e->gaps[e->next_gap] = gap;
	e->next_gap = (e->next_gap + 1) % ENGINE_GAPS;
	if (e->n_gaps < ENGINE_GAPS)
		e->n_gaps++;
}

static uint64_t hold_of(const struct engine_slice *e, const struct engine_params *p)
{
	uint64_t min = 2 * p->tick_usec, hold;

	if (p->hold_usec != ENGINE_HOLD_AUTO)
		return p->hold_usec;
	hold = 2 * longest_gap(e);
	if (hold < min)
		hold = min;
	if (hold > p->max_hold_usec)
		hold = p->max_hold_usec > min ? p->max_hold_usec : min;
	return hold;
}

static void track_footprint(struct engine_slice *e, const struct engine_params *p, const struct engine_sample *in)
{
	if (e->state == ENGINE_IDLE)
		return;
	if (in->usage > e->footprint)
		e->footprint = in->usage;
	if (in->refault_bytes) {
		/* it needed memory it had lost: what it uses now was not all it needs */
		if (in->usage + in->refault_bytes > e->footprint)
			e->footprint = in->usage + in->refault_bytes;
	} else if (e->state == ENGINE_BUSY && e->footprint > in->usage) {
		/* busy without needing anything back: it freed memory itself */
		e->footprint -= (e->footprint - in->usage) / ENGINE_DECAY;
	}
	if (e->footprint > p->max_usage)
		e->footprint = p->max_usage;
}

/* Pressure on a protected slice: refaults, or memory PSI above its quiet level while lower
 * slices compete (the quiet level is learned while none does). */
static bool track_pressure(struct engine_slice *e, const struct engine_sample *in, bool contended)
{
	bool psi_high = in->psi_some_avg10 >= 0 && e->psi_quiet >= 0 && in->psi_some_avg10 > e->psi_quiet;

	if (in->psi_some_avg10 >= 0 && !contended) {
		double decayed = e->psi_quiet - e->psi_quiet / ENGINE_PSI_DECAY;

		e->psi_quiet = in->psi_some_avg10 > decayed ? in->psi_some_avg10 : decayed;
	}
	if (e->state == ENGINE_IDLE)
		return false;
	return in->refault_bytes > 0 || in->low_breaches > 0 || (contended && psi_high);
}

static void escalate(struct engine_slice *e, const struct engine_params *p, const struct engine_sample *in)
{
	if (!e->pressure) {
		if (e->escalation != ESCALATE_NONE)
			e->why = "no pressure: lower slices left alone";
		e->escalation = ESCALATE_NONE;
		e->pressure_ticks = 0;
		return;
	}
	e->pressure_ticks++;
	if (in->low_breaches > 0 && e->escalation != ESCALATE_DELAY) {
		e->escalation = ESCALATE_DELAY;
		e->why = "reclaim took memory below its protection (memory.events low): lower slices delayed";
	} else if (e->escalation == ESCALATE_NONE) {
		e->escalation = ESCALATE_RECLAIM;
		e->why = in->refault_bytes ? "refaults: lower slices reclaimed in the background"
					   : "memory pressure above its quiet level: lower slices reclaimed in the background";
	} else if (e->escalation == ESCALATE_RECLAIM && e->pressure_ticks >= 2 && in->free_bytes < p->headroom &&
		   in->free_bytes < e->last_free) {
		e->escalation = ESCALATE_DELAY;
		e->why = "pressure lasts and free memory keeps falling below the headroom: background reclaim "
			 "does not keep up, lower slices delayed";
	}
}

bool engine_tick(struct engine_slice *e, const struct engine_params *p, const struct engine_sample *in)
{
	enum engine_state old_state = e->state;
	enum engine_escalation old_escalation = e->escalation;
	bool busy = in->cpu_busy || in->faults > 0;

	if (busy) {
		/* the quiet spell it comes back from, in whole ticks */
		if (e->have_busy && e->state != ENGINE_BUSY && in->now_usec > e->last_busy_usec + p->tick_usec)
			remember_gap(e, in->now_usec - e->last_busy_usec - p->tick_usec);
		if (e->state == ENGINE_IDLE)
			e->episodes++;
		e->have_busy = true;
		e->last_busy_usec = in->now_usec;
	}
	e->hold_usec = hold_of(e, p);
	if (busy)
		e->state = ENGINE_BUSY;
	else if (e->have_busy && in->now_usec - e->last_busy_usec <= e->hold_usec)
		e->state = ENGINE_HOLDING;
	else
		e->state = ENGINE_IDLE;
	if (e->state != old_state)
		e->why = e->state == ENGINE_BUSY ? (in->faults ? "page faults" : "CPU use")
			 : e->state == ENGINE_HOLDING ? "quiet, within its hold"
						      : "quiet for longer than its hold: memory given back";
	track_footprint(e, p, in);
	e->pressure = track_pressure(e, in, in->contended);
	escalate(e, p, in);
	e->last_free = in->free_bytes;
	return e->state != old_state || e->escalation != old_escalation;
}

uint64_t engine_protection(const struct engine_slice *e)
{
	return e->footprint;
}

uint64_t engine_room(const struct engine_slice *e, uint64_t usage)
{
	if (e->state == ENGINE_IDLE || e->footprint <= usage)
		return 0;
	return e->footprint - usage;
}

const char *engine_state_name(enum engine_state s)
{
	switch (s) {
	case ENGINE_IDLE:
		return "idle";
	case ENGINE_BUSY:
		return "busy";
	case ENGINE_HOLDING:
		return "holding";
	}
	return "?";
}

const char *engine_escalation_name(enum engine_escalation x)
{
	switch (x) {
	case ESCALATE_NONE:
		return "none";
	case ESCALATE_RECLAIM:
		return "reclaim";
	case ESCALATE_DELAY:
		return "delay";
	}
	return "?";
}
