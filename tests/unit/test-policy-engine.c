// SPDX-License-Identifier: GPL-2.0-only
/* The policy engine (daemon/policy-engine.c): busy, learned hold, footprint, pressure and
 * escalation, tick by tick with known inputs. */
#include "policy-engine.h"
#include "tests.h"

#define SEC UINT64_C(1000000)
#define MiB (UINT64_C(1) << 20)

static const struct engine_params auto_hold = {
	.tick_usec = SEC,
	.hold_usec = ENGINE_HOLD_AUTO,
	.max_hold_usec = 300 * SEC,
	.max_usage = UINT64_MAX,
	.headroom = 256 * MiB,
};

struct run {
	struct engine_slice e;
	struct engine_sample in;
	const struct engine_params *p;
};

static void run_init(struct run *r, const struct engine_params *p)
{
	engine_slice_init(&r->e);
	r->in = (struct engine_sample){ .now_usec = 1000 * SEC, .usage = 100 * MiB, .psi_some_avg10 = 0,
					.free_bytes = 1024 * MiB };
	r->p = p;
}

/* n ticks, busy (CPU) or quiet */
static bool ticks(struct run *r, unsigned n, bool busy)
{
	bool changed = false;

	for (unsigned i = 0; i < n; i++) {
		r->in.now_usec += SEC;
		r->in.cpu_busy = busy;
		changed |= engine_tick(&r->e, r->p, &r->in);
	}
	return changed;
}

/* a service that serves from resident memory with a sliver of CPU is busy from its first tick,
 * and any fault counts too */
static void test_busy_from_first_request(void)
{
	struct run r;

	run_init(&r, &auto_hold);
	CHECK(r.e.state == ENGINE_IDLE);
	CHECK(ticks(&r, 1, true));
	CHECK(r.e.state == ENGINE_BUSY && r.e.episodes == 1);
	CHECK(engine_protection(&r.e) == 100 * MiB);
	run_init(&r, &auto_hold);
	r.in.faults = 1;
	ticks(&r, 1, false);
	CHECK(r.e.state == ENGINE_BUSY);
	CHECK_STREQ(r.e.why, "page faults");
}

/* Hold=auto: at least two ticks; then twice the longest quiet spell it came back from */
static void test_learned_hold(void)
{
	struct run r;

	run_init(&r, &auto_hold);
	ticks(&r, 3, true);
	CHECK(r.e.hold_usec == 2 * SEC);
	ticks(&r, 2, false);
	CHECK(r.e.state == ENGINE_HOLDING);
	ticks(&r, 1, false);
	CHECK(r.e.state == ENGINE_IDLE);
	/* it comes back after 10 quiet ticks: that spell is learned, the next one is held through */
	ticks(&r, 7, false);
	ticks(&r, 1, true);
	CHECK(r.e.state == ENGINE_BUSY && r.e.episodes == 2);
	CHECK(r.e.hold_usec == 20 * SEC);
	ticks(&r, 9, false);
	CHECK(r.e.state == ENGINE_HOLDING);
	ticks(&r, 1, true);
	CHECK(r.e.episodes == 2); /* no new episode: it never went idle */
	/* MaxHold= bounds it */
	ticks(&r, 200, false);
	ticks(&r, 1, true);
	CHECK(r.e.hold_usec == 300 * SEC);
	/* only the last ENGINE_GAPS spells count: eight short ones forget the long one */
	for (int i = 0; i < ENGINE_GAPS; i++) {
		ticks(&r, 1, false);
		ticks(&r, 1, true);
	}
	CHECK(r.e.hold_usec == 2 * SEC);
}

/* Hold=<duration>: fixed, as before */
static void test_fixed_hold(void)
{
	struct engine_params p = auto_hold;
	struct run r;

	p.hold_usec = 5 * SEC;
	run_init(&r, &p);
	ticks(&r, 1, true);
	ticks(&r, 5, false);
	CHECK(r.e.state == ENGINE_HOLDING);
	ticks(&r, 1, false);
	CHECK(r.e.state == ENGINE_IDLE);
	ticks(&r, 30, false);
	ticks(&r, 1, true);
	CHECK(r.e.hold_usec == 5 * SEC);
}

/* footprint: the largest usage while protected, raised by refaults, decays when the slice frees
 * memory itself, kept while idle, capped by MaxUsage= */
static void test_footprint(void)
{
	struct engine_params p = auto_hold;
	struct run r;
	uint64_t before;

	p.max_usage = 400 * MiB;
	run_init(&r, &p);
	r.in.usage = 300 * MiB;
	ticks(&r, 1, true);
	CHECK(engine_protection(&r.e) == 300 * MiB);
	/* reclaim took 100M, it faulted 20M back: it needs what it had and what came back */
	r.in.usage = 200 * MiB;
	r.in.refault_bytes = 20 * MiB;
	ticks(&r, 1, true);
	CHECK(engine_protection(&r.e) == 300 * MiB);
	r.in.usage = 290 * MiB;
	r.in.refault_bytes = 90 * MiB;
	ticks(&r, 1, true);
	CHECK(engine_protection(&r.e) == 380 * MiB);
	/* capped */
	r.in.usage = 390 * MiB;
	r.in.refault_bytes = 50 * MiB;
	ticks(&r, 1, true);
	CHECK(engine_protection(&r.e) == 400 * MiB);
	/* it freed memory itself (no refaults): the footprint follows slowly */
	r.in.refault_bytes = 0;
	r.in.usage = 100 * MiB;
	before = engine_protection(&r.e);
	ticks(&r, 1, true);
	CHECK(engine_protection(&r.e) == before - (before - 100 * MiB) / ENGINE_DECAY);
	ticks(&r, 400, true);
	CHECK(engine_protection(&r.e) < 101 * MiB && engine_protection(&r.e) >= 100 * MiB);
	/* idle: kept for the next wake-up, whatever reclaim takes meanwhile */
	before = engine_protection(&r.e);
	ticks(&r, 3, false);
	CHECK(r.e.state == ENGINE_IDLE);
	r.in.usage = 1 * MiB;
	ticks(&r, 10, false);
	CHECK(engine_protection(&r.e) == before);
	/* an idle slice needs no room; a busy one the way back to its footprint */
	CHECK(engine_room(&r.e, 1 * MiB) == 0);
	ticks(&r, 1, true);
	CHECK(engine_room(&r.e, 40 * MiB) == engine_protection(&r.e) - 40 * MiB);
	CHECK(engine_room(&r.e, engine_protection(&r.e) + 1) == 0);
}

/* escalation: refaults -> background reclaim at once; delay only when pressure lasts while free
 * memory keeps falling below the headroom; none again at the first tick without pressure */
static void test_escalation(void)
{
	struct run r;

	run_init(&r, &auto_hold);
	r.in.contended = true;
	ticks(&r, 2, true);
	CHECK(r.e.escalation == ESCALATE_NONE && !r.e.pressure);
	r.in.refault_bytes = 4096;
	CHECK(ticks(&r, 1, true));
	CHECK(r.e.escalation == ESCALATE_RECLAIM);
	/* free memory high: reclaim keeps up, no delay however long the pressure lasts */
	ticks(&r, 5, true);
	CHECK(r.e.escalation == ESCALATE_RECLAIM);
	/* free memory below the headroom but steady (or rising): still no delay */
	r.in.refault_bytes = 0;
	r.in.free_bytes = 100 * MiB;
	ticks(&r, 1, true);
	CHECK(r.e.escalation == ESCALATE_NONE);
	r.in.refault_bytes = 4096;
	ticks(&r, 3, true);
	CHECK(r.e.escalation == ESCALATE_RECLAIM);
	/* and falling: delay */
	r.in.free_bytes = 90 * MiB;
	CHECK(ticks(&r, 1, true));
	CHECK(r.e.escalation == ESCALATE_DELAY);
	CHECK_CONTAINS(r.e.why, "does not keep up");
	/* the pressure ends */
	r.in.refault_bytes = 0;
	CHECK(ticks(&r, 1, true));
	CHECK(r.e.escalation == ESCALATE_NONE);
	/* an idle slice is never under pressure, whatever it refaults */
	ticks(&r, 10, false);
	r.in.refault_bytes = 4096;
	r.in.faults = 0;
	ticks(&r, 1, false);
	CHECK(r.e.state == ENGINE_IDLE && r.e.escalation == ESCALATE_NONE);
}

/* reclaim below the protection (memory.events low): delay at once, whatever free memory does;
 * never for an idle slice */
static void test_low_breach(void)
{
	struct run r;

	run_init(&r, &auto_hold);
	r.in.contended = true;
	ticks(&r, 2, true);
	CHECK(r.e.escalation == ESCALATE_NONE);
	r.in.low_breaches = 3;
	CHECK(ticks(&r, 1, true));
	CHECK(r.e.pressure && r.e.escalation == ESCALATE_DELAY);
	CHECK_CONTAINS(r.e.why, "below its protection");
	/* refaults alone afterwards keep it delayed only while free memory falls */
	r.in.low_breaches = 0;
	r.in.refault_bytes = 4096;
	ticks(&r, 1, true);
	CHECK(r.e.escalation == ESCALATE_DELAY);
	r.in.refault_bytes = 0;
	ticks(&r, 1, true);
	CHECK(r.e.escalation == ESCALATE_NONE);
	/* idle: breaches do not count (its memory is meant to go) */
	ticks(&r, 10, false);
	CHECK(r.e.state == ENGINE_IDLE);
	r.in.low_breaches = 5;
	ticks(&r, 1, false);
	CHECK(r.e.escalation == ESCALATE_NONE && !r.e.pressure);
}

/* PSI: pressure when avg10 is above the level learned while no lower slice competed */
static void test_psi_quiet_level(void)
{
	struct run r;

	run_init(&r, &auto_hold);
	r.in.psi_some_avg10 = 0.5;
	ticks(&r, 5, true); /* uncontended: the quiet level is 0.5 */
	CHECK(r.e.psi_quiet == 0.5 && !r.e.pressure);
	r.in.contended = true;
	r.in.psi_some_avg10 = 0.4;
	ticks(&r, 1, true);
	CHECK(!r.e.pressure);
	r.in.psi_some_avg10 = 3.0;
	ticks(&r, 1, true);
	CHECK(r.e.pressure && r.e.escalation == ESCALATE_RECLAIM);
	CHECK_CONTAINS(r.e.why, "quiet level");
	/* contended ticks do not teach the quiet level */
	CHECK(r.e.psi_quiet < 0.51);
	/* unknown PSI (no memory.pressure) never counts */
	r.in.psi_some_avg10 = -1;
	ticks(&r, 1, true);
	CHECK(!r.e.pressure);
}

int main(void)
{
	test_busy_from_first_request();
	test_learned_hold();
	test_fixed_hold();
	test_footprint();
	test_escalation();
	test_low_breach();
	test_psi_quiet_level();
	return test_summary("test-policy-engine");
}
