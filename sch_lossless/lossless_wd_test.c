// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the PFC watchdog of sch_lossless.
 *
 * Time starts at T0, one second, not at 0: the clock the caller reads
 * (ktime) is never 0, and the history takes 0 for "no detection".
 */
#include <kunit/test.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lossless_wd.h"

#define MS(x)	((u64)(x) * NSEC_PER_MSEC)	/* ns */
#define T0	MS(1000)

/* detect 100 ms, restore 200 ms: a poll every 25 ms */
static const struct lossless_wd_config base_cfg = {
	.detect_ms = 100,
	.restore_ms = 200,
	.action = TC_LOSSLESS_PFCWD_DROP,
	.limit = 0,
	.window_s = LOSSLESS_WD_DEFAULT_WINDOW,
};

static enum lossless_wd_event wd_poll(const struct lossless_wd_config *cfg,
				      struct lossless_wd_queue *wq, u64 now,
				      u64 paused_ns, bool backlog, bool sent,
				      u64 last_xoff)
{
	const struct lossless_wd_sample s = {
		.now = now,
		.paused_ns = paused_ns,
		.backlog = backlog,
		.sent = sent,
		.last_xoff = last_xoff,
	};

	return lossless_wd_poll(cfg, wq, &s);
}

/* a poll that saw the queue paused @paused_ns, with packets, sending none */
static enum lossless_wd_event wd_stalled(const struct lossless_wd_config *cfg,
					 struct lossless_wd_queue *wq, u64 now,
					 u64 paused_ns)
{
	return wd_poll(cfg, wq, now, paused_ns, true, false, 0);
}

/* the whole state but the history, @now naming the poll on failure */
static void expect_wd(struct kunit *test, const struct lossless_wd_queue *wq,
		      u64 now, u8 state, u64 stall_ns, u64 detected, u64 restored)
{
	u64 at = div_u64(now - T0, NSEC_PER_MSEC);

	KUNIT_EXPECT_EQ_MSG(test, wq->state, state, "at %llu ms", at);
	KUNIT_EXPECT_EQ_MSG(test, wq->stall_ns, stall_ns, "at %llu ms", at);
	KUNIT_EXPECT_EQ_MSG(test, wq->detected, detected, "at %llu ms", at);
	KUNIT_EXPECT_EQ_MSG(test, wq->restored, restored, "at %llu ms", at);
}

/*
 * A stall of base_cfg's 100 ms ending at @t: polls at t - 75, t - 50 and
 * t - 25 ms that detect nothing, and the one at @t, whose event it returns.
 */
static enum lossless_wd_event stall_until(struct kunit *test,
					  const struct lossless_wd_config *cfg,
					  struct lossless_wd_queue *wq, u64 t)
{
	int i;

	for (i = 3; i > 0; i--)
		KUNIT_ASSERT_EQ_MSG(test, wd_stalled(cfg, wq, t - MS(25 * i), MS(25)),
				    LOSSLESS_WD_NONE, "%d polls before", i);
	return wd_stalled(cfg, wq, t, MS(25));
}

struct poll_case {
	const char *name;
	u32 detect, restore;	/* ms */
	u32 poll;		/* ms */
};

static const struct poll_case poll_cases[] = {
	{ "200/400 -> 50", 200, 400, 50 },
	{ "400/200 -> 50", 400, 200, 50 },
	{ "100/200 -> 25", 100, 200, 25 },
	{ "10/10 (the least) -> 2", LOSSLESS_WD_MIN_DETECT, LOSSLESS_WD_MIN_RESTORE, 2 },
	{ "8/100 -> 2", 8, 100, 2 },
	{ "7/7 -> 1, rounded down", 7, 7, 1 },
	{ "detect 3 -> at least 1", 3, 200, 1 },
	{ "restore 3 -> at least 1", 200, 3, 1 },
	{ "1/1 -> 1", 1, 1, 1 },
	{ "5000/60000 (the most) -> 1250", LOSSLESS_WD_MAX_DETECT, LOSSLESS_WD_MAX_RESTORE, 1250 },
};

static void poll_case_desc(const struct poll_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(poll, poll_cases, poll_case_desc);

static void lossless_wd_poll_ms_test(struct kunit *test)
{
	const struct poll_case *c = test->param_value;
	struct lossless_wd_config cfg = base_cfg;

	cfg.detect_ms = c->detect;
	cfg.restore_ms = c->restore;
	KUNIT_EXPECT_EQ(test, lossless_wd_poll_ms(&cfg), c->poll);
}

static void lossless_wd_init_reset_test(struct kunit *test)
{
	struct lossless_wd_queue wq;
	int i;

	/* init: everything 0, counts too */
	memset(&wq, 0xa5, sizeof(wq));
	lossless_wd_init(&wq);
	expect_wd(test, &wq, T0, TC_LOSSLESS_WD_WATCHING, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, wq.stormed_at, 0ULL);
	KUNIT_EXPECT_EQ(test, wq.next, 0);
	for (i = 0; i < LOSSLESS_WD_MAX_LIMIT; i++)
		KUNIT_EXPECT_EQ_MSG(test, wq.history[i], 0ULL, "history[%d]", i);

	/* reset: the counts stay */
	memset(&wq, 0xa5, sizeof(wq));
	wq.state = TC_LOSSLESS_WD_STORMED;
	wq.detected = 7;
	wq.restored = 5;
	lossless_wd_reset(&wq);
	expect_wd(test, &wq, T0, TC_LOSSLESS_WD_WATCHING, 0, 7, 5);
	KUNIT_EXPECT_EQ(test, wq.next, 0);
	for (i = 0; i < LOSSLESS_WD_MAX_LIMIT; i++)
		KUNIT_EXPECT_EQ_MSG(test, wq.history[i], 0ULL, "history[%d]", i);
}

/* the same poll over and over from T0, every period_ms */
struct stall_case {
	const char *name;
	u32 detect_ms;
	u32 period_ms;
	u64 paused_ns;		/* in each period */
	bool backlog, sent;
	int polls;
	int detect_at;		/* the poll that detects, from 1; 0: none */
};

static const struct stall_case stall_cases[] = {
	/* not at 75 ms of stall, at the poll reaching 100 */
	{ "paused throughout, 25 ms polls", 100, 25, MS(25), true, false, 8, 4 },
	{ "paused 10 ms of each 25", 100, 25, MS(10), true, false, 12, 10 },
	{ "paused 24 ms of each 25", 100, 25, MS(24), true, false, 8, 5 },
	{ "1 ns short after 3 polls", 100, 25, 33333333, true, false, 8, 4 },
	{ "detect in one poll", 100, 100, MS(100), true, false, 1, 1 },
	{ "polls further apart than detect", 100, 250, MS(250), true, false, 1, 1 },
	{ "detect 10, 2 ms polls", 10, 2, MS(2), true, false, 8, 5 },
	{ "detect 5000, 1250 ms polls", 5000, 1250, MS(1250), true, false, 8, 4 },
	/* time in pause counts, not frames */
	{ "1 ns of pause each period", 100, 25, 1, true, false, 100, 0 },
	{ "XONs only (paused 0)", 100, 25, 0, true, false, 100, 0 },
	{ "the queue empty", 100, 25, MS(25), false, false, 100, 0 },
	{ "a packet sent each period", 100, 25, MS(25), true, true, 100, 0 },
	{ "sent and emptied each period", 100, 25, MS(25), false, true, 100, 0 },
};

static void stall_case_desc(const struct stall_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(stall, stall_cases, stall_case_desc);

static void lossless_wd_stall_test(struct kunit *test)
{
	const struct stall_case *c = test->param_value;
	struct lossless_wd_config cfg = base_cfg;
	/* the polls that add to the stall: those with packets, paused, sending none */
	bool stalls = c->backlog && !c->sent && c->paused_ns;
	struct lossless_wd_queue wq;
	int k;

	cfg.detect_ms = c->detect_ms;
	lossless_wd_init(&wq);
	for (k = 1; k <= c->polls; k++) {
		u64 now = T0 + MS(c->period_ms) * k;
		enum lossless_wd_event ev;

		ev = wd_poll(&cfg, &wq, now, c->paused_ns, c->backlog, c->sent, 0);
		if (k == c->detect_at) {
			KUNIT_ASSERT_EQ(test, ev, LOSSLESS_WD_DETECTED);
			expect_wd(test, &wq, now, TC_LOSSLESS_WD_STORMED, 0, 1, 0);
			KUNIT_EXPECT_EQ(test, wq.stormed_at, now);
			return;
		}
		KUNIT_ASSERT_EQ_MSG(test, ev, LOSSLESS_WD_NONE, "poll %d", k);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING,
			  stalls ? c->paused_ns * k : 0, 0, 0);
	}
	KUNIT_EXPECT_EQ(test, c->detect_at, 0);
}

/* 75 ms of stall, one poll of these, then a stall from 0 */
struct interrupt_case {
	const char *name;
	u64 paused_ns;
	bool backlog, sent;
};

static const struct interrupt_case interrupt_cases[] = {
	{ "a packet sent", MS(25), true, true },
	{ "the queue empty", MS(25), false, false },
	{ "no pause (XON)", 0, true, false },
	{ "sent and emptied", MS(25), false, true },
};

static void interrupt_case_desc(const struct interrupt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(interrupt, interrupt_cases, interrupt_case_desc);

static void lossless_wd_stall_interrupt_test(struct kunit *test)
{
	const struct interrupt_case *c = test->param_value;
	struct lossless_wd_queue wq;
	u64 now = T0;
	int k;

	lossless_wd_init(&wq);
	for (k = 1; k <= 3; k++) {
		now += MS(25);
		KUNIT_EXPECT_EQ(test, wd_stalled(&base_cfg, &wq, now, MS(25)), LOSSLESS_WD_NONE);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, MS(25) * k, 0, 0);
	}
	now += MS(25);
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, c->paused_ns, c->backlog, c->sent, 0),
			LOSSLESS_WD_NONE);
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, 0, 0, 0);
	/* 175 ms since the first poll, only 75 of them since the interruption */
	for (k = 1; k <= 3; k++) {
		now += MS(25);
		KUNIT_EXPECT_EQ(test, wd_stalled(&base_cfg, &wq, now, MS(25)), LOSSLESS_WD_NONE);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, MS(25) * k, 0, 0);
	}
	now += MS(25);
	KUNIT_EXPECT_EQ(test, wd_stalled(&base_cfg, &wq, now, MS(25)), LOSSLESS_WD_DETECTED);
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_STORMED, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, wq.stormed_at, T0 + MS(200));
}

static void lossless_wd_restore_test(struct kunit *test)
{
	const u64 d = T0 + MS(100);
	struct lossless_wd_queue wq;
	u64 now = d, xoff;
	int k;

	lossless_wd_init(&wq);
	KUNIT_ASSERT_EQ(test, stall_until(test, &base_cfg, &wq, d), LOSSLESS_WD_DETECTED);
	expect_wd(test, &wq, d, TC_LOSSLESS_WD_STORMED, 0, 1, 0);

	/* an XOFF every period for a second: stormed, whatever the queue does */
	for (k = 1; k <= 40; k++) {
		now += MS(25);
		KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, MS(25), true, k % 2, now),
				LOSSLESS_WD_NONE);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_STORMED, 0, 1, 0);
	}
	KUNIT_EXPECT_EQ(test, wq.stormed_at, d);

	/* the XOFFs stop: 200 ms after the last one, not after the detection */
	xoff = now;
	KUNIT_EXPECT_EQ(test, xoff, d + MS(1000));
	for (k = 1; k < 8; k++) {
		now += MS(25);
		KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, MS(25), true, false, xoff),
				LOSSLESS_WD_NONE);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_STORMED, 0, 1, 0);
	}
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, xoff + MS(200) - 1, MS(25), true, false,
				      xoff), LOSSLESS_WD_NONE);
	now += MS(25);
	KUNIT_EXPECT_EQ(test, now, xoff + MS(200));
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, MS(25), true, false, xoff),
			LOSSLESS_WD_RESTORED);
	/* the restoring poll saw a stall: it does not count */
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, 0, 1, 1);

	/* a new stall starts from 0 and needs the whole 100 ms */
	for (k = 1; k <= 3; k++) {
		now += MS(25);
		KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, MS(25), true, false, xoff),
				LOSSLESS_WD_NONE);
		expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, MS(25) * k, 1, 1);
	}
	now += MS(25);
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now, MS(25), true, false, xoff),
			LOSSLESS_WD_DETECTED);
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_STORMED, 0, 2, 1);
	KUNIT_EXPECT_EQ(test, wq.stormed_at, now);

	/* no XOFF since that detection: restore ms after it */
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now + MS(200) - 1, 0, false, true, xoff),
			LOSSLESS_WD_NONE);
	KUNIT_EXPECT_EQ(test, wd_poll(&base_cfg, &wq, now + MS(200), 0, false, true, xoff),
			LOSSLESS_WD_RESTORED);
	expect_wd(test, &wq, now + MS(200), TC_LOSSLESS_WD_WATCHING, 0, 2, 2);
}

/* one poll after a detection at d = T0 + 100 ms, times from d */
struct restore_case {
	const char *name;
	u32 restore_ms;
	bool xoff;		/* an XOFF received, at xoff_ns */
	s64 xoff_ns;
	s64 at_ns;		/* the poll */
	bool restored;
};

static const struct restore_case restore_cases[] = {
	{ "the detecting poll's time", 200, false, 0, 0, false },
	{ "no XOFF: 1 ns early", 200, false, 0, MS(200) - 1, false },
	{ "no XOFF: at restore", 200, false, 0, MS(200), true },
	{ "no XOFF: long after", 200, false, 0, MS(60000), true },
	{ "no XOFF: the least restore", LOSSLESS_WD_MIN_RESTORE, false, 0, MS(10), true },
	{ "no XOFF: the most restore, 1 ns early", LOSSLESS_WD_MAX_RESTORE, false, 0,
	  MS(60000) - 1, false },
	{ "no XOFF: the most restore", LOSSLESS_WD_MAX_RESTORE, false, 0, MS(60000), true },
	/* the storm's XOFFs came before the detection: restore from the detection */
	{ "XOFF 50 ms before: at its restore", 200, true, -MS(50), MS(150), false },
	{ "XOFF 50 ms before: 1 ns early", 200, true, -MS(50), MS(200) - 1, false },
	{ "XOFF 50 ms before: at restore", 200, true, -MS(50), MS(200), true },
	{ "XOFF 900 ms before: 1 ns early", 200, true, -MS(900), MS(200) - 1, false },
	{ "XOFF 900 ms before: at restore", 200, true, -MS(900), MS(200), true },
	{ "XOFF at the detection: 1 ns early", 200, true, 0, MS(200) - 1, false },
	{ "XOFF at the detection: at restore", 200, true, 0, MS(200), true },
	{ "XOFF 100 ms after: at the detection's restore", 200, true, MS(100), MS(200), false },
	{ "XOFF 100 ms after: 1 ns early", 200, true, MS(100), MS(300) - 1, false },
	{ "XOFF 100 ms after: at its restore", 200, true, MS(100), MS(300), true },
	{ "XOFF 1 ns after: at its restore", 200, true, 1, MS(200) + 1, true },
	{ "XOFF 1 ns after: 1 ns early", 200, true, 1, MS(200), false },
	/* another CPU's clock: an XOFF newer than the poll */
	{ "XOFF newer than the poll", 200, true, MS(300), MS(250), false },
};

static void restore_case_desc(const struct restore_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(restore, restore_cases, restore_case_desc);

static void lossless_wd_restore_at_test(struct kunit *test)
{
	const struct restore_case *c = test->param_value;
	const u64 d = T0 + MS(100);
	struct lossless_wd_config cfg = base_cfg;
	struct lossless_wd_queue wq;
	u64 now = d + c->at_ns;
	u64 xoff = c->xoff ? d + c->xoff_ns : 0;

	cfg.restore_ms = c->restore_ms;
	lossless_wd_init(&wq);
	KUNIT_ASSERT_EQ(test, wd_stalled(&cfg, &wq, d, MS(100)), LOSSLESS_WD_DETECTED);
	KUNIT_ASSERT_EQ(test, wq.stormed_at, d);

	/* still paused with packets: that does not matter once stormed */
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, now, MS(25), true, false, xoff),
			c->restored ? LOSSLESS_WD_RESTORED : LOSSLESS_WD_NONE);
	expect_wd(test, &wq, now, c->restored ? TC_LOSSLESS_WD_WATCHING : TC_LOSSLESS_WD_STORMED,
		  0, 1, c->restored ? 1 : 0);
	KUNIT_EXPECT_EQ(test, wq.stormed_at, d);
}

#define WD_MAX_DETECTIONS 24

/*
 * Detections with base_cfg's detect and restore: each a 100 ms stall
 * ending gap_ms[i - 1] (or every_ms) after the previous, restored 200 ms
 * after it.
 */
struct limit_case {
	const char *name;
	u32 limit, window_s;
	int n;					/* detections */
	u32 gap_ms[WD_MAX_DETECTIONS - 1];	/* 0: every_ms */
	u32 every_ms;
	int off_at;				/* the one turning PFC off, from 1; 0: none */
};

static const struct limit_case limit_cases[] = {
	{ "3 in 10 s: the third 8 s on", 3, 10, 3, { 4000, 4000 }, 0, 3 },
	{ "3 in 10 s: the third 10 s on", 3, 10, 3, { 5000, 5000 }, 0, 3 },
	{ "3 in 10 s: every 5 s", 3, 10, 20, {}, 5000, 3 },
	{ "3 in 10 s: 1 ms late, the fourth in", 3, 10, 4, { 5000, 5001, 1000 }, 0, 4 },
	{ "3 in 10 s: every 5.001 s", 3, 10, 20, {}, 5001, 0 },
	{ "3 in 10 s: every 10.001 s", 3, 10, 20, {}, 10001, 0 },
	{ "3 in 10 s: every 300 ms", 3, 10, 20, {}, 300, 3 },
	{ "limit 0: every 300 ms, never", 0, 10, 20, {}, 300, 0 },
	{ "limit 1: the first", 1, 10, 1, {}, 0, 1 },
	{ "2 in 1 s: 1 s apart", 2, 1, 2, { 1000 }, 0, 2 },
	{ "2 in 1 s: 1.001 s, then 999 ms", 2, 1, 3, { 1001, 999 }, 0, 3 },
	/* the oldest of the last four, around the ring */
	{ "4 in 10 s: every 4 s, then faster", 4, 10, 8,
	  { 4000, 4000, 4000, 4000, 4000, 1000, 1000 }, 0, 7 },
	{ "16 in 10 s (the most): every 500 ms", LOSSLESS_WD_MAX_LIMIT, 10, 16, {}, 500, 16 },
	{ "16 in 10 s: every 666 ms", LOSSLESS_WD_MAX_LIMIT, 10, 16, {}, 666, 16 },
	{ "16 in 10 s: every 700 ms", LOSSLESS_WD_MAX_LIMIT, 10, 24, {}, 700, 0 },
	/* 86400 s is more ns than 32 bits hold */
	{ "3 in a day: every 12 h", 3, LOSSLESS_WD_MAX_WINDOW, 3, {}, 43200000, 3 },
	{ "3 in a day: every 12 h and 1 ms", 3, LOSSLESS_WD_MAX_WINDOW, 6, {}, 43200001, 0 },
};

static void limit_case_desc(const struct limit_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(limit, limit_cases, limit_case_desc);

static void lossless_wd_limit_test(struct kunit *test)
{
	const struct limit_case *c = test->param_value;
	struct lossless_wd_config cfg = base_cfg;
	struct lossless_wd_queue wq;
	u64 t = T0 + MS(100);
	int i;

	cfg.limit = c->limit;
	cfg.window_s = c->window_s;
	lossless_wd_init(&wq);
	for (i = 0; i < c->n; i++) {
		bool off = i + 1 == c->off_at;

		if (i) {
			KUNIT_ASSERT_EQ(test, wd_poll(&cfg, &wq, t + MS(200), 0, false, false, 0),
					LOSSLESS_WD_RESTORED);
			t += MS(c->gap_ms[i - 1] ? c->gap_ms[i - 1] : c->every_ms);
		}
		KUNIT_ASSERT_EQ_MSG(test, stall_until(test, &cfg, &wq, t),
				    off ? LOSSLESS_WD_TURNED_OFF : LOSSLESS_WD_DETECTED,
				    "detection %d", i + 1);
		expect_wd(test, &wq, t, off ? TC_LOSSLESS_WD_PFC_OFF : TC_LOSSLESS_WD_STORMED,
			  0, i + 1, i);
		KUNIT_EXPECT_EQ(test, wq.stormed_at, t);
		if (off)
			return;
	}
	KUNIT_EXPECT_EQ(test, c->off_at, 0);
}

/* limit 3 in 10 s: PFC off, nothing watched, then turned on again */
static void lossless_wd_pfc_off_test(struct kunit *test)
{
	struct lossless_wd_config cfg = base_cfg;
	struct lossless_wd_queue wq;
	u64 t = T0 + MS(100), now;
	int i;

	cfg.limit = 3;
	cfg.window_s = 10;
	lossless_wd_init(&wq);
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t), LOSSLESS_WD_DETECTED);
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, t + MS(200), 0, false, false, 0),
			LOSSLESS_WD_RESTORED);
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t + MS(1000)), LOSSLESS_WD_DETECTED);
	KUNIT_EXPECT_EQ(test, wq.history[0], t);
	KUNIT_EXPECT_EQ(test, wq.history[1], t + MS(1000));
	KUNIT_EXPECT_EQ(test, wq.next, 2);
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, t + MS(1200), 0, false, false, 0),
			LOSSLESS_WD_RESTORED);
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t + MS(2000)), LOSSLESS_WD_TURNED_OFF);
	expect_wd(test, &wq, t + MS(2000), TC_LOSSLESS_WD_PFC_OFF, 0, 3, 2);

	/* stalls, quiet, sending: nothing until the operator */
	now = t + MS(2000);
	for (i = 1; i <= 100; i++) {
		now += MS(25);
		KUNIT_ASSERT_EQ(test, wd_stalled(&cfg, &wq, now, MS(25)), LOSSLESS_WD_NONE);
	}
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, now + MS(1000), 0, false, false, 0),
			LOSSLESS_WD_NONE);
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, now + MS(1000), MS(25), true, true, 0),
			LOSSLESS_WD_NONE);
	now += MS(1000);
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_PFC_OFF, 0, 3, 2);

	/*
	 * Turned on: watched again, counts kept, history cleared. Still
	 * within 10 s of the three detections: any of them left in the
	 * history would turn PFC off at the first new one.
	 */
	lossless_wd_reset(&wq);
	expect_wd(test, &wq, now, TC_LOSSLESS_WD_WATCHING, 0, 3, 2);
	KUNIT_EXPECT_EQ(test, wq.next, 0);
	for (i = 0; i < LOSSLESS_WD_MAX_LIMIT; i++)
		KUNIT_EXPECT_EQ_MSG(test, wq.history[i], 0ULL, "history[%d]", i);

	/* three fresh detections to turn it off again */
	t = now + MS(100);
	KUNIT_ASSERT_LT(test, t + MS(600) - (T0 + MS(100)), MS(10000));
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t), LOSSLESS_WD_DETECTED);
	expect_wd(test, &wq, t, TC_LOSSLESS_WD_STORMED, 0, 4, 2);
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, t + MS(200), 0, false, false, 0),
			LOSSLESS_WD_RESTORED);
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t + MS(300)), LOSSLESS_WD_DETECTED);
	expect_wd(test, &wq, t + MS(300), TC_LOSSLESS_WD_STORMED, 0, 5, 3);
	KUNIT_EXPECT_EQ(test, wd_poll(&cfg, &wq, t + MS(500), 0, false, false, 0),
			LOSSLESS_WD_RESTORED);
	KUNIT_EXPECT_EQ(test, stall_until(test, &cfg, &wq, t + MS(600)), LOSSLESS_WD_TURNED_OFF);
	expect_wd(test, &wq, t + MS(600), TC_LOSSLESS_WD_PFC_OFF, 0, 6, 4);
}

static struct kunit_case lossless_wd_cases[] = {
	KUNIT_CASE_PARAM(lossless_wd_poll_ms_test, poll_gen_params),
	KUNIT_CASE(lossless_wd_init_reset_test),
	KUNIT_CASE_PARAM(lossless_wd_stall_test, stall_gen_params),
	KUNIT_CASE_PARAM(lossless_wd_stall_interrupt_test, interrupt_gen_params),
	KUNIT_CASE(lossless_wd_restore_test),
	KUNIT_CASE_PARAM(lossless_wd_restore_at_test, restore_gen_params),
	KUNIT_CASE_PARAM(lossless_wd_limit_test, limit_gen_params),
	KUNIT_CASE(lossless_wd_pfc_off_test),
	{}
};

static struct kunit_suite lossless_wd_suite = {
	.name = "sch_lossless_wd",
	.test_cases = lossless_wd_cases,
};

kunit_test_suite(lossless_wd_suite);
