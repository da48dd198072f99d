// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the aiecn core, TAP output. Exit status 1 on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aiecn.h"
#include "tap.h"

/* xorshift64: a fixed seed gives the same sequence everywhere */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double rng_unit(void)
{
	return (double)(rng() >> 11) / (double)(1ull << 53);
}

/* Histogram */

static void test_hist_upper(void)
{
	CHECK_EQ(aiecn_hist_upper(0), 1024);
	CHECK_EQ(aiecn_hist_upper(1), 2048);
	CHECK_EQ(aiecn_hist_upper(5), 32768);
	CHECK_EQ(aiecn_hist_upper(14), 1u << 24);
	CHECK_EQ(aiecn_hist_upper(15), 1u << 25);
	CHECK_EQ(aiecn_hist_upper(16), 1u << 25);
	CHECK_EQ(aiecn_hist_upper(-1), 0);
}

static void test_hist_edges(void)
{
	uint64_t h[AIECN_HIST_BUCKETS] = { 0 };

	/* empty */
	CHECK_EQ(aiecn_hist_quantile(h, 0.5), 0);
	CHECK_EQ(aiecn_hist_quantile(h, 0.99), 0);
	CHECK_EQ(aiecn_hist_quantile(h, 0), 0);
	CHECK_EQ(aiecn_hist_peak(h), 0);

	/* all in bucket 0 */
	h[0] = 12345;
	CHECK_EQ(aiecn_hist_quantile(h, 0), 1024);
	CHECK_EQ(aiecn_hist_quantile(h, 0.5), 1024);
	CHECK_EQ(aiecn_hist_quantile(h, 0.99), 1024);
	CHECK_EQ(aiecn_hist_quantile(h, 1), 1024);
	CHECK_EQ(aiecn_hist_peak(h), 1024);

	/* all in bucket 15 */
	h[0] = 0;
	h[15] = 7;
	CHECK_EQ(aiecn_hist_quantile(h, 0), 1u << 25);
	CHECK_EQ(aiecn_hist_quantile(h, 0.99), 1u << 25);
	CHECK_EQ(aiecn_hist_quantile(h, 1), 1u << 25);
	CHECK_EQ(aiecn_hist_peak(h), 1u << 25);

	/* q out of range is clamped */
	h[15] = 0;
	h[3] = 1;
	h[9] = 1;
	CHECK_EQ(aiecn_hist_quantile(h, -3), aiecn_hist_upper(3));
	CHECK_EQ(aiecn_hist_quantile(h, 7), aiecn_hist_upper(9));
	CHECK_EQ(aiecn_hist_quantile(h, NAN), aiecn_hist_upper(3));
}

static void test_hist_across(void)
{
	uint64_t h[AIECN_HIST_BUCKETS] = { 0 };
	uint64_t g[AIECN_HIST_BUCKETS] = { 0 };

	h[0] = 900;
	h[3] = 90;
	h[7] = 9;
	h[12] = 1;
	CHECK_EQ(aiecn_hist_quantile(h, 0.5), 1024);
	CHECK_EQ(aiecn_hist_quantile(h, 0.9), 1024);		/* 900 of 1000 reached */
	CHECK_EQ(aiecn_hist_quantile(h, 0.95), 1u << 13);
	CHECK_EQ(aiecn_hist_quantile(h, 0.99), 1u << 13);	/* 990 reached in bucket 3 */
	CHECK_EQ(aiecn_hist_quantile(h, 0.995), 1u << 17);
	CHECK_EQ(aiecn_hist_quantile(h, 0.999), 1u << 17);
	CHECK_EQ(aiecn_hist_quantile(h, 1), 1u << 22);
	CHECK_EQ(aiecn_hist_peak(h), 1u << 22);

	/* p99 of 100: 98 below is not enough, the 99th is in bucket 9 */
	g[2] = 98;
	g[9] = 2;
	CHECK_EQ(aiecn_hist_quantile(g, 0.99), 1u << 19);
	CHECK_EQ(aiecn_hist_quantile(g, 0.98), 1u << 12);
	/* q = 0: the lowest non-empty bucket, not bucket 0 */
	CHECK_EQ(aiecn_hist_quantile(g, 0), 1u << 12);
	CHECK_EQ(aiecn_hist_peak(g), 1u << 19);
	/* 0.07 * 100 is 7.000000000000001 in doubles: the 7th packet is enough */
	g[2] = 7;
	g[9] = 93;
	CHECK_EQ(aiecn_hist_quantile(g, 0.07), 1u << 12);
	CHECK_EQ(aiecn_hist_quantile(g, 0.08), 1u << 19);
}

/* Bounds */

static const struct aiecn_bounds tb = {
	.kmin_lo = 2000, .kmax_lo = 20000, .kmax_hi = 1000000,
	.pmax_lo = 1, .pmax_hi = 20, .xoff = 300000, .cnp_allowance = 60000,
};

static int in_bounds(const struct aiecn_thresholds *t, const struct aiecn_bounds *b)
{
	return t->kmin >= b->kmin_lo && t->kmin <= t->kmax && t->kmax >= b->kmax_lo &&
	       t->kmax <= b->kmax_hi && t->kmax <= b->xoff - b->cnp_allowance &&
	       t->pmax >= b->pmax_lo && t->pmax <= b->pmax_hi;
}

static void test_clamp(void)
{
	struct aiecn_thresholds t = { .kmin = 5000, .kmax = 400000, .pmax = 10 };
	struct aiecn_bounds b = tb;

	CHECK_EQ(aiecn_kmax_ceiling(&tb), 240000);
	/* kmax above xoff - allowance comes down to it */
	CHECK_EQ(aiecn_clamp(&t, &tb), 1);
	CHECK_EQ(t.kmax, 240000);
	CHECK_EQ(t.kmin, 5000);
	CHECK_EQ(t.pmax, 10);
	/* within bounds: untouched */
	CHECK_EQ(aiecn_clamp(&t, &tb), 0);
	CHECK_EQ(t.kmax, 240000);

	/* kmin > kmax: kmin comes down to kmax */
	t = (struct aiecn_thresholds){ .kmin = 90000, .kmax = 80000, .pmax = 5 };
	CHECK_EQ(aiecn_clamp(&t, &tb), 1);
	CHECK_EQ(t.kmin, 80000);
	CHECK_EQ(t.kmax, 80000);

	/* everything too low, pmax too high */
	t = (struct aiecn_thresholds){ .kmin = 10, .kmax = 100, .pmax = 90 };
	CHECK_EQ(aiecn_clamp(&t, &tb), 1);
	CHECK_EQ(t.kmin, 2000);
	CHECK_EQ(t.kmax, 20000);
	CHECK_EQ(t.pmax, 20);
	t.pmax = 0;
	CHECK_EQ(aiecn_clamp(&t, &tb), 1);
	CHECK_EQ(t.pmax, 1);

	/* kmax_hi below xoff - allowance is the ceiling then */
	b.kmax_hi = 100000;
	t = (struct aiecn_thresholds){ .kmin = 150000, .kmax = 200000, .pmax = 5 };
	CHECK_EQ(aiecn_clamp(&t, &b), 1);
	CHECK_EQ(t.kmax, 100000);
	CHECK_EQ(t.kmin, 100000);
	CHECK(in_bounds(&t, &b));
}

static void expect_invalid(struct aiecn_bounds b, const char *word, int line)
{
	const char *why = NULL;
	int ok = aiecn_bounds_valid(&b, &why);

	if (!check(!ok, "bounds rejected", line))
		return;
	if (!check(why && *why, "a reason is given", line))
		return;
	if (!strstr(why, word)) {
		cur_ok = 0;
		note("line %d: reason '%s' does not mention '%s'", line, why, word);
	}
}

static void test_bounds_valid(void)
{
	const char *why = "unset";
	struct aiecn_bounds b;

	CHECK(aiecn_bounds_valid(&tb, &why));
	CHECK(!why);
	CHECK(aiecn_bounds_valid(&tb, NULL));

	b = tb;
	b.cnp_allowance = b.xoff;
	expect_invalid(b, "cnp_allowance", __LINE__);
	b = tb;
	b.kmax_lo = 250000;	/* above 300000 - 60000 */
	expect_invalid(b, "xoff - cnp_allowance", __LINE__);
	b = tb;
	b.kmax_hi = 10000;
	expect_invalid(b, "kmax_hi", __LINE__);
	b = tb;
	b.kmin_lo = 30000;
	expect_invalid(b, "kmin_lo", __LINE__);
	b = tb;
	b.pmax_hi = 101;
	expect_invalid(b, "pmax", __LINE__);
	b = tb;
	b.pmax_lo = 0;
	expect_invalid(b, "pmax", __LINE__);
	b = tb;
	b.pmax_lo = 30;
	expect_invalid(b, "pmax_lo", __LINE__);
	b = tb;
	b.kmax_lo = 0;
	b.kmin_lo = 0;
	expect_invalid(b, "kmax_lo", __LINE__);
}

/* Search */

static const struct aiecn_thresholds start = { .kmin = 50000, .kmax = 200000, .pmax = 5 };

#define LINE_RATE	12.5e9	/* 100 Gb/s */

/* A 100 ms sample at utilisation @util, 1000-byte packets */
static struct aiecn_sample mk(double util, uint64_t marked)
{
	struct aiecn_sample x = { .interval_s = 0.1, .line_rate = LINE_RATE };

	x.tx_bytes = (uint64_t)(util * LINE_RATE * 0.1);
	x.enq_pkts = x.tx_bytes / 1000;
	x.marked = marked;
	x.hist[0] = x.enq_pkts;
	return x;
}

/*
 * Feed @x up to @max times; stop at the first change. Returns how many
 * samples were fed when it changed, 0 if it did not.
 */
static int feed(struct aiecn_search *s, const struct aiecn_sample *x, int max,
		struct aiecn_thresholds *out, const char **why)
{
	int i;

	for (i = 1; i <= max; i++) {
		int r = aiecn_search_step(s, x, out, why);

		if (!check(in_bounds(out, &s->b), "search output in bounds", __LINE__))
			return -1;
		if (r)
			return i;
	}
	return 0;
}

static int has(const char *why, const char *word)
{
	if (why && strstr(why, word))
		return 1;
	cur_ok = 0;
	note("why '%s' does not mention '%s'", why ? why : "(null)", word);
	return 0;
}

static void test_search_idle(void)
{
	struct aiecn_sample x = mk(0.1, 0), zero = mk(0, 0);
	struct aiecn_thresholds out;
	struct aiecn_search s;
	const char *why = NULL;

	aiecn_search_init(&s, &start, &tb);
	CHECK_EQ(feed(&s, &x, 60, &out, &why), 0);
	CHECK_EQ(out.kmax, 200000);
	CHECK_EQ(out.kmin, 50000);
	has(why, "idle");
	CHECK_EQ(feed(&s, &zero, 60, &out, &why), 0);
	has(why, "idle");
	CHECK_EQ(s.cur.kmax, 200000);
}

static void test_search_xoff(void)
{
	struct aiecn_sample x = mk(0.98, 10), p = mk(0.98, 10);
	struct aiecn_thresholds out, hi = { .kmin = 100000, .kmax = 900000, .pmax = 5 };
	struct aiecn_search s;
	const char *why = NULL;
	uint32_t prev;
	int i;

	aiecn_search_init(&s, &start, &tb);
	CHECK_EQ(feed(&s, &x, 2, &out, &why), 0);
	p.xoff_tx = 3;
	/* acted on at once, mid-window */
	CHECK_EQ(feed(&s, &p, 1, &out, &why), 1);
	CHECK_EQ(out.kmax, 120000);
	CHECK_EQ(out.kmin, 30000);
	CHECK_EQ(out.pmax, 5);
	has(why, "XOFF");
	has(why, "200000 -> 120000");

	/* more XOFFs cut further, never below kmax_lo */
	for (i = 0, prev = out.kmax; i < 10; i++) {
		int r = aiecn_search_step(&s, &p, &out, &why);

		CHECK(in_bounds(&out, &tb));
		if (r)
			CHECK(out.kmax < prev);
		prev = out.kmax;
	}
	CHECK_EQ(out.kmax, tb.kmax_lo);
	CHECK_EQ(out.kmin, 5000);
	has(why, "lowest");

	/* a start above the ceiling is cut from the ceiling */
	aiecn_search_init(&s, &hi, &tb);
	CHECK_EQ(aiecn_search_step(&s, &p, &out, &why), 1);
	CHECK_EQ(out.kmax, 144000);
	CHECK_EQ(out.kmin, 36000);	/* kmin / kmax raised to the lowest ratio */
	CHECK(in_bounds(&out, &tb));
}

static void test_search_start_clamped(void)
{
	struct aiecn_thresholds out, hi = { .kmin = 1000, .kmax = 900000, .pmax = 50 };
	struct aiecn_sample x = mk(0.5, 0);
	struct aiecn_search s;
	const char *why = NULL;

	aiecn_search_init(&s, &hi, &tb);
	CHECK_EQ(aiecn_search_step(&s, &x, &out, &why), 1);
	CHECK_EQ(out.kmax, 240000);
	CHECK_EQ(out.kmin, 2000);
	CHECK_EQ(out.pmax, 20);
	has(why, "clamped");
	/* a start within bounds is left alone */
	aiecn_search_init(&s, &start, &tb);
	CHECK_EQ(aiecn_search_step(&s, &x, &out, &why), 0);
}

static void test_search_lowering(void)
{
	struct aiecn_sample x = mk(0.98, 100);
	struct aiecn_thresholds out;
	struct aiecn_search s;
	const char *why = NULL;
	uint32_t prev = start.kmax, want;
	int n, steps = 0;

	aiecn_search_init(&s, &start, &tb);
	/* the first decision needs a full window, later ones a settle sample too */
	CHECK_EQ(feed(&s, &x, 10, &out, &why), AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 170000);
	CHECK_EQ(out.kmin, 42500);
	CHECK_EQ(out.pmax, 5);
	has(why, "holds");
	has(why, "lowering");
	prev = out.kmax;
	CHECK_EQ(feed(&s, &x, 10, &out, &why), AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 144500);
	CHECK_EQ(out.kmin, 36125);
	prev = out.kmax;
	for (steps = 2; steps < 100; steps++) {
		n = feed(&s, &x, AIECN_SEARCH_SETTLE + 4 * AIECN_SEARCH_WINDOW, &out, &why);
		if (!n)
			break;
		want = (uint32_t)(prev * AIECN_SEARCH_STEP + 0.5);
		if (want < tb.kmax_lo)
			want = tb.kmax_lo;
		CHECK_EQ(out.kmax, want);
		CHECK(out.kmin >= tb.kmin_lo && out.kmin <= out.kmax);
		prev = out.kmax;
	}
	CHECK_EQ(steps, 15);	/* 200000 * 0.85^14 < 20000 */
	CHECK_EQ(s.cur.kmax, tb.kmax_lo);
	has(why, "floor");
	/* stays at the floor */
	CHECK_EQ(feed(&s, &x, 100, &out, &why), 0);
	CHECK_EQ(out.kmax, tb.kmax_lo);
}

static void test_search_backoff(void)
{
	struct aiecn_sample good = mk(0.98, 100), bad = mk(0.80, 500);
	struct aiecn_thresholds out;
	struct aiecn_search s;
	const char *why = NULL;

	aiecn_search_init(&s, &start, &tb);
	CHECK(feed(&s, &good, 10, &out, &why) > 0);
	CHECK_EQ(out.kmax, 170000);
	CHECK(feed(&s, &good, 10, &out, &why) > 0);
	CHECK_EQ(out.kmax, 144500);
	/* 144500 costs throughput: back to 170000, kmin with it */
	CHECK_EQ(feed(&s, &bad, 10, &out, &why), AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 170000);
	CHECK_EQ(out.kmin, 42500);
	has(why, "fell to 0.82");
	has(why, "back up");
	/* for the backoff windows it holds there, not retrying 144500 */
	CHECK_EQ(feed(&s, &good, AIECN_SEARCH_SETTLE + AIECN_SEARCH_BACKOFF * AIECN_SEARCH_WINDOW,
		      &out, &why), 0);
	CHECK_EQ(out.kmax, 170000);
	/* then it may probe again */
	CHECK_EQ(feed(&s, &good, AIECN_SEARCH_WINDOW, &out, &why), AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 144500);
	has(why, "lowering");
}

static void test_search_fell_at_good(void)
{
	struct aiecn_sample good = mk(0.98, 100), bad = mk(0.80, 500);
	struct aiecn_sample nomark = mk(0.7, 0), mark = mk(0.6, 500), worse = mk(0.5, 500);
	struct aiecn_thresholds out;
	struct aiecn_search s;
	const char *why = NULL;

	aiecn_search_init(&s, &start, &tb);
	CHECK_EQ(feed(&s, &good, 10, &out, &why), AIECN_SEARCH_WINDOW);
	CHECK_EQ(feed(&s, &bad, 10, &out, &why), AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 200000);
	has(why, "back up");
	/* less throughput, no marks, nothing changed: the load fell */
	CHECK_EQ(feed(&s, &nomark, AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW, &out, &why), 0);
	CHECK_EQ(out.kmax, 200000);
	has(why, "baseline");
	/* at the new baseline it holds (the floor keeps it here) */
	CHECK_EQ(feed(&s, &nomark, AIECN_SEARCH_WINDOW, &out, &why), 0);
	has(why, "holds");
	/* throughput falls at the good setting with marks: one step up */
	CHECK_EQ(feed(&s, &mark, AIECN_SEARCH_WINDOW, &out, &why), AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 235294);
	CHECK_EQ(out.kmin, 58824);
	has(why, "raising");
	/* and again, but never above the ceiling */
	CHECK_EQ(feed(&s, &worse, AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW, &out, &why),
		 AIECN_SEARCH_SETTLE + AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 240000);
	CHECK(in_bounds(&out, &tb));
}

static void test_search_paused(void)
{
	struct aiecn_sample good = mk(0.98, 100), paused = mk(0.3, 100);
	struct aiecn_thresholds out;
	struct aiecn_search s;
	const char *why = NULL;

	aiecn_search_init(&s, &start, &tb);
	CHECK_EQ(feed(&s, &good, 10, &out, &why), AIECN_SEARCH_WINDOW);
	CHECK_EQ(out.kmax, 170000);
	/* paused by the peer: low throughput says nothing about kmax */
	paused.pfc_rx = 4;
	CHECK_EQ(feed(&s, &paused, AIECN_SEARCH_SETTLE + 6 * AIECN_SEARCH_WINDOW, &out, &why), 0);
	CHECK_EQ(out.kmax, 170000);
	has(why, "paused");
}

static void random_run(const struct aiecn_bounds *b, int nsamples, int *changes, int *cuts)
{
	struct aiecn_thresholds st, out;
	struct aiecn_search s;
	const char *why;
	int i, bad = 0;

	st.kmin = (uint32_t)(rng() % 2000000);
	st.kmax = (uint32_t)(rng() % 2000000);
	st.pmax = (uint32_t)(rng() % 120);
	aiecn_search_init(&s, &st, b);
	for (i = 0; i < nsamples; i++) {
		struct aiecn_sample x = mk(rng_unit() * 1.1, rng() % 1000);
		uint64_t r = rng();
		int ret, k;

		if (r % 50 == 0)
			x.xoff_tx = 1 + rng() % 5;
		if (r % 20 == 1)
			x.pfc_rx = 1 + rng() % 100;
		if (r % 97 == 2)
			x.interval_s = 0;
		if (r % 89 == 3)
			x.line_rate = 0;
		if (r % 83 == 4)
			x.interval_s = NAN;
		for (k = 0; k < AIECN_HIST_BUCKETS; k++)
			x.hist[k] = rng() % 100;
		why = NULL;
		ret = aiecn_search_step(&s, &x, &out, &why);
		if (!in_bounds(&out, b) || !in_bounds(&s.cur, b) || !why || !*why) {
			if (bad++ < 3)
				note("sample %d: kmin %u kmax %u pmax %u out of bounds (%s)", i,
				     out.kmin, out.kmax, out.pmax, why ? why : "no reason");
			cur_ok = 0;
		}
		if (ret) {
			(*changes)++;
			if (x.xoff_tx)
				(*cuts)++;
		}
	}
}

static void test_search_random(void)
{
	static const struct aiecn_bounds bs[] = {
		{ 2000, 20000, 1000000, 1, 20, 300000, 60000 },
		/* no room at all: kmax fixed at 50000 */
		{ 50000, 50000, 50000, 5, 5, 80000, 30000 },
		{ 0, 1, 4000000000u, 1, 100, 4000000000u, 1 },
		{ 1500, 3000, 3000000, 1, 100, 100000, 10000 },
	};
	int i, j, changes, cuts;

	for (i = 0; i < (int)ARRAY_SIZE(bs); i++) {
		const char *why = NULL;

		if (!check(aiecn_bounds_valid(&bs[i], &why), "test bounds valid", __LINE__))
			note("bounds %d: %s", i, why);
		for (j = 0; j < 5; j++) {
			changes = 0;
			cuts = 0;
			random_run(&bs[i], 20000, &changes, &cuts);
			/* it must actually have moved, except where it cannot */
			if (i != 1) {
				CHECK(changes > 100);
				CHECK(cuts > 10);
			}
		}
	}
}

/* Model */

static void test_features(void)
{
	struct aiecn_sample x[5];
	double f[AIECN_NFEATURES];

	memset(x, 0, sizeof(x));
	for (int i = 0; i < 5; i++) {
		x[i].interval_s = 0.1;
		x[i].line_rate = 1e9;
	}
	x[0].tx_bytes = 50000000;
	x[0].enq_pkts = 100;
	x[0].marked = 10;
	x[0].hist[0] = 100;
	x[1].tx_bytes = 100000000;
	x[1].enq_pkts = 300;
	x[1].marked = 30;
	x[1].hist[0] = 100;
	x[1].hist[5] = 200;
	/* x[2]: nothing at all, an empty queue */
	x[3].tx_bytes = 50000000;
	x[3].enq_pkts = 200;
	x[3].xoff_tx = 3;
	x[3].pfc_rx = 1;
	x[3].hist[0] = 150;
	x[3].hist[5] = 48;
	x[3].hist[10] = 2;
	/* x[4]: no length, left out whatever it says */
	x[4].interval_s = 0;
	x[4].tx_bytes = 1ull << 40;
	x[4].enq_pkts = 1000000;
	x[4].xoff_tx = 1000;

	CHECK_EQ(aiecn_features(x, 5, f), AIECN_NFEATURES);
	CHECK_NEAR(f[AIECN_F_UTIL], 0.5, EPS_TIGHT);
	/* rates 1000, 3000, 0, 2000 /s: mean 1500, sd sqrt(1.25e6) */
	CHECK_NEAR(f[AIECN_F_BURST], sqrt(1.25e6) / 1500, EPS_LOOSE);
	CHECK_NEAR(f[AIECN_F_EMPTY], 0.75, EPS_TIGHT);
	/* 600 enqueues, the 594th in bucket 5 (32 KiB) */
	CHECK_NEAR(f[AIECN_F_Q99], 5, EPS_TIGHT);
	CHECK_NEAR(f[AIECN_F_MARK], 40.0 / 600, EPS_TIGHT);
	CHECK_NEAR(f[AIECN_F_PAUSE], log2(11), EPS_TIGHT);

	/* steady: no burstiness */
	CHECK_EQ(aiecn_features(x, 1, f), AIECN_NFEATURES);
	CHECK_NEAR(f[AIECN_F_BURST], 0, EPS_TIGHT);
	CHECK_NEAR(f[AIECN_F_Q99], 0, EPS_TIGHT);
	CHECK_NEAR(f[AIECN_F_PAUSE], 0, EPS_TIGHT);

	CHECK_EQ(aiecn_features(x, 0, f), -1);
	CHECK_EQ(aiecn_features(&x[4], 1, f), -1);
}

static char tmpdir[64];

static const char *write_file(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

static const char good_model[] =
	"# aiecn test model\n"
	"features 6\n"
	"classes 3\n"
	"\n"
	"class incast kmin 10000 kmax 40000 pmax 10   # bursty\n"
	"weights 0  0 4 0 0 0 0\n"
	"class steady kmin 20000 kmax 80000 pmax 5\n"
	"weights 0\t4 0 0 0 0 0\n"
	"class idle.1 kmin 5000 kmax 200000 pmax 1\n"
	"weights 0  0 0 4 0 0 0\n"
	"mean 0.5 0.5 0.5 0 0 0\n"
	"scale 0.25 0.25 0.25 1 1 1\n"
	"confidence 0.7\n";

static void test_model_load(void)
{
	struct aiecn_model m;
	char err[256];
	const char *path = write_file("good.model", good_model);

	if (!CHECK(path))
		return;
	if (!CHECK_EQ(aiecn_model_load(&m, path, err, sizeof(err)), 0)) {
		note("error: %s", err);
		return;
	}
	CHECK_EQ(m.nclasses, 3);
	CHECK(!strcmp(m.cls[0].name, "incast"));
	CHECK(!strcmp(m.cls[2].name, "idle.1"));
	CHECK_EQ(m.cls[0].t.kmin, 10000);
	CHECK_EQ(m.cls[0].t.kmax, 40000);
	CHECK_EQ(m.cls[0].t.pmax, 10);
	CHECK_EQ(m.cls[2].t.kmax, 200000);
	CHECK_NEAR(m.cls[1].w[1], 4, 0);
	CHECK_NEAR(m.cls[1].w[2], 0, 0);
	CHECK_NEAR(m.mean[0], 0.5, 0);
	CHECK_NEAR(m.scale[2], 0.25, 0);
	CHECK_NEAR(m.scale[5], 1, 0);
	CHECK_NEAR(m.confidence, 0.7, 0);
}

static void test_model_classify(void)
{
	struct aiecn_model m;
	char err[256];
	const char *path = write_file("good.model", good_model);
	double steady[AIECN_NFEATURES] = { 1.0, 0.5, 0.5, 0, 0, 0 };
	double incast[AIECN_NFEATURES] = { 0.5, 1.25, 0.5, 3, 0.1, 2 };
	double idle[AIECN_NFEATURES] = { 0.5, 0.5, 1.0, 0, 0, 0 };
	double unsure[AIECN_NFEATURES] = { 0.6, 0.6, 0.5, 0, 0, 0 };
	double nan[AIECN_NFEATURES] = { NAN, 0.5, 0.5, 0, 0, 0 };
	double p = -1;

	if (!CHECK(path) || !CHECK_EQ(aiecn_model_load(&m, path, err, sizeof(err)), 0))
		return;
	/* z = (0, 8, 0): P = e^8 / (e^8 + 2) */
	CHECK_EQ(aiecn_model_classify(&m, steady, &p), 1);
	CHECK_NEAR(p, exp(8) / (exp(8) + 2), EPS_TIGHT);
	CHECK_EQ(aiecn_model_classify(&m, incast, &p), 0);
	CHECK(p > 0.99);
	CHECK_EQ(aiecn_model_classify(&m, idle, NULL), 2);
	/* z = (1.6, 1.6, 0): top P 0.45 < 0.7, unknown */
	CHECK_EQ(aiecn_model_classify(&m, unsure, &p), -1);
	CHECK_NEAR(p, exp(1.6) / (2 * exp(1.6) + 1), EPS_TIGHT);
	CHECK_EQ(aiecn_model_classify(&m, nan, &p), -1);
	/* lowering the bar recognises it */
	m.confidence = 0.4;
	CHECK_EQ(aiecn_model_classify(&m, unsure, &p), 0);
	/* an idle window is no scenario's, whatever the scores say */
	idle[AIECN_F_UTIL] = AIECN_MODEL_IDLE / 2;
	CHECK_EQ(aiecn_model_classify(&m, idle, &p), -1);
	CHECK_NEAR(p, 0, 0);
	idle[AIECN_F_UTIL] = AIECN_MODEL_IDLE;
	CHECK_EQ(aiecn_model_classify(&m, idle, &p), 2);
}

/* b and c share their thresholds; the features count for nothing, only the biases */
static const char shared_model[] =
	"features 6\n"
	"classes 3\n"
	"class a kmin 2000 kmax 8000 pmax 20\n"
	"weights 1 0 0 0 0 0 0\n"
	"class b kmin 32000 kmax 128000 pmax 20\n"
	"weights 0.8 0 0 0 0 0 0\n"
	"class c kmin 32000 kmax 128000 pmax 20\n"
	"weights 0.8 0 0 0 0 0 0\n"
	"confidence 0.6\n";

static void test_model_shared_choice(void)
{
	double f[AIECN_NFEATURES] = { 0.5 }, p = -1;
	const char *path = write_file("shared.model", shared_model);
	struct aiecn_model m;
	char err[256], name[8];

	if (!CHECK(path) || !CHECK_EQ(aiecn_model_load(&m, path, err, sizeof(err)), 0))
		return;
	CHECK(aiecn_model_same_choice(&m, 1, 2));
	CHECK(!aiecn_model_same_choice(&m, 0, 1));
	aiecn_model_choice_name(&m, 2, name, sizeof(name));
	CHECK(!strcmp(name, "b/c"));
	aiecn_model_choice_name(&m, 0, name, sizeof(name));
	CHECK(!strcmp(name, "a"));
	/* z = (1, 0.8, 0.8): a is the likeliest scenario, b or c the likeliest choice */
	CHECK_EQ(aiecn_model_classify(&m, f, &p), 1);
	CHECK_NEAR(p, 2 * exp(0.8) / (exp(1) + 2 * exp(0.8)), EPS_TIGHT);
	/* z = (2, 0.8, 0.8): a outweighs the two together */
	m.cls[0].w[0] = 2;
	CHECK_EQ(aiecn_model_classify(&m, f, &p), 0);
	CHECK_NEAR(p, exp(2) / (exp(2) + 2 * exp(0.8)), EPS_TIGHT);
	/* c's pmax differs: three choices, none reaching 0.6 */
	m.cls[0].w[0] = 1;
	m.cls[2].t.pmax = 10;
	CHECK(!aiecn_model_same_choice(&m, 1, 2));
	CHECK_EQ(aiecn_model_classify(&m, f, &p), -1);
	CHECK_NEAR(p, exp(1) / (exp(1) + 2 * exp(0.8)), EPS_TIGHT);
}

struct bad_model {
	const char *what;
	const char *text;
	const char *expect;	/* in the error message */
};

#define HDR	"features 6\nclasses 2\n"
#define CLA	"class a kmin 1000 kmax 2000 pmax 1\n"
#define CLB	"class b kmin 1000 kmax 2000 pmax 1\n"
#define W	"weights 0 1 2 3 4 5 6\n"

static const struct bad_model bad_models[] = {
	{ "missing weights line", HDR CLA CLB W, "line 4:" },
	{ "missing weights at the end", HDR CLA W CLB, "line 5:" },
	{ "too few weights", HDR CLA "weights 0 1 2 3 4 5\n" CLB W, "line 4:" },
	{ "too many weights", HDR CLA W CLB "weights 0 1 2 3 4 5 6 7\n", "line 6:" },
	{ "bad number", HDR CLA "weights 0 1 2 x3 4 5 6\n" CLB W, "line 4:" },
	{ "number with junk", HDR CLA W CLB "weights 0 1 2 3 4 5 6e\n", "line 6:" },
	{ "nan weight", HDR CLA "weights 0 1 2 3 nan 5 6\n" CLB W, "line 4:" },
	{ "unknown keyword", HDR "bias 1\n" CLA W CLB W, "line 3:" },
	{ "comments count as lines", "# c\n\n" HDR "# c\n" CLA "wieghts 0 1 2 3 4 5 6\n",
	  "line 7:" },
	{ "wrong feature count", "features 5\nclasses 2\n", "line 1:" },
	{ "features not first", "classes 2\nfeatures 6\n", "line 1:" },
	{ "too many classes", "features 6\nclasses 9\n", "line 2:" },
	{ "more classes than declared", HDR CLA W CLB W "class c kmin 1 kmax 2 pmax 1\n",
	  "line 7:" },
	{ "fewer classes than declared", HDR CLA W "\n", "line 5:" },
	{ "duplicate class", HDR CLA W CLA W, "line 5:" },
	{ "kmin above kmax", HDR "class a kmin 3000 kmax 2000 pmax 1\n" W CLB W, "line 3:" },
	{ "pmax 0", HDR "class a kmin 1000 kmax 2000 pmax 0\n" W CLB W, "line 3:" },
	{ "negative kmax", HDR "class a kmin 1000 kmax -2000 pmax 1\n" W CLB W, "line 3:" },
	{ "class syntax", HDR "class a kmin 1000 kmax 2000\n" W CLB W, "line 3:" },
	{ "name too long", HDR "class a2345678901234567890123456789012 kmin 1 kmax 2 pmax 1\n"
	  W CLB W, "line 3:" },
	{ "weights without class", HDR W, "line 3:" },
	{ "zero scale", HDR CLA W CLB W "scale 1 1 0 1 1 1\n", "line 7:" },
	{ "short mean", HDR CLA W CLB W "mean 1 1 1 1 1\n", "line 7:" },
	{ "confidence above 1", HDR CLA W CLB W "confidence 1.5\n", "line 7:" },
	{ "empty file", "# nothing\n", "line 1:" },
};

static void test_model_malformed(void)
{
	struct aiecn_model m;
	double f[AIECN_NFEATURES] = { 0 };
	char err[256], small[8];
	const char *path;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_models); i++) {
		const struct bad_model *b = &bad_models[i];

		path = write_file("bad.model", b->text);
		if (!CHECK(path))
			return;
		err[0] = '\0';
		if (aiecn_model_load(&m, path, err, sizeof(err)) != -1) {
			cur_ok = 0;
			note("%s: accepted", b->what);
			continue;
		}
		if (!strstr(err, b->expect)) {
			cur_ok = 0;
			note("%s: error '%s' does not name '%s'", b->what, err, b->expect);
		}
		if (m.nclasses || aiecn_model_classify(&m, f, NULL) != -1) {
			cur_ok = 0;
			note("%s: a rejected model still classifies", b->what);
		}
	}
	/* the error is cut to the buffer, NUL-terminated */
	path = write_file("bad.model", bad_models[0].text);
	CHECK_EQ(aiecn_model_load(&m, path, small, sizeof(small)), -1);
	CHECK_EQ(strlen(small), sizeof(small) - 1);
	CHECK_EQ(aiecn_model_load(&m, path, NULL, 0), -1);
	/* no such file */
	CHECK_EQ(aiecn_model_load(&m, "/nonexistent/aiecn.model", err, sizeof(err)), -1);
	CHECK(strstr(err, "No such file"));
}

/* @n steps of classification @k (@deeper), each expected to give @want */
static int pick_run(struct aiecn_pick *p, int k, bool deeper, int n,
		    enum aiecn_pick_action want)
{
	int i;

	for (i = 0; i < n; i++)
		if (aiecn_pick_step(p, k, deeper) != want)
			return 0;
	return 1;
}

static void test_pick_switch(void)
{
	struct aiecn_pick p;

	aiecn_pick_init(&p, 4, 3, 0);
	/* nothing in force: the search decides; the first recognition installs */
	CHECK(pick_run(&p, -1, false, 2, AIECN_PICK_SEARCH));
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 0);
	CHECK(pick_run(&p, 0, false, 5, AIECN_PICK_HOLD));
	/* another scenario twice, then the one in force again: it stays */
	CHECK(pick_run(&p, 1, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 1, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 0);
	/* a third in between starts the count again */
	CHECK_EQ(aiecn_pick_step(&p, 2, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 1, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 0);
	/* three in a row replace it, on the third */
	CHECK_EQ(aiecn_pick_step(&p, 1, false), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 1);
	CHECK(pick_run(&p, 1, false, 3, AIECN_PICK_HOLD));
}

static void test_pick_unknown(void)
{
	struct aiecn_pick p;

	aiecn_pick_init(&p, 4, 3, 0);
	CHECK_EQ(aiecn_pick_step(&p, 2, false), AIECN_PICK_INSTALL);
	/* unknown three times: held; recognised again: the count restarts */
	CHECK(pick_run(&p, -1, false, 3, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, 2, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, -1, false, 3, AIECN_PICK_HOLD));
	/* an unknown sample breaks another scenario's run */
	CHECK(pick_run(&p, 0, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 0, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 2);
	/* unknown four times in a row: released to the search */
	CHECK(pick_run(&p, -1, false, 3, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_RELEASE);
	CHECK_EQ(p.owned, -1);
	CHECK(pick_run(&p, -1, false, 3, AIECN_PICK_SEARCH));
	/* from the search, a recognition installs at once */
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 0);
	CHECK(pick_run(&p, 1, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 1, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 0);
	/* hold and switch of 0 or less act as 1 */
	aiecn_pick_init(&p, 0, -5, -5);
	CHECK_EQ(aiecn_pick_step(&p, 1, false), AIECN_PICK_INSTALL);
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_INSTALL);
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_RELEASE);
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_SEARCH);
}

static void test_pick_deeper(void)
{
	struct aiecn_pick p;

	aiecn_pick_init(&p, 4, 3, 6);
	CHECK_EQ(p.sw_up, 6);
	/* nothing in force: deeper than the search's, not at once but in six */
	CHECK(pick_run(&p, 1, true, 5, AIECN_PICK_SEARCH));
	CHECK_EQ(p.owned, -1);
	CHECK_EQ(aiecn_pick_step(&p, 1, true), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 1);
	/* a scenario of lower thresholds in three, as any other */
	CHECK(pick_run(&p, 0, false, 2, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 0);
	/* back to the deeper one: five in a row and one unknown do not */
	CHECK(pick_run(&p, 1, true, 5, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 1, true, 5, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 0);
	/* ... nor five and the one in force */
	CHECK_EQ(aiecn_pick_step(&p, 0, false), AIECN_PICK_HOLD);
	CHECK(pick_run(&p, 1, true, 5, AIECN_PICK_HOLD));
	CHECK_EQ(p.owned, 0);
	/* six in a row do */
	CHECK_EQ(aiecn_pick_step(&p, 1, true), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 1);
	/* released to the search, a shallower scenario still installs at once */
	CHECK(pick_run(&p, -1, false, 3, AIECN_PICK_HOLD));
	CHECK_EQ(aiecn_pick_step(&p, -1, false), AIECN_PICK_RELEASE);
	CHECK_EQ(aiecn_pick_step(&p, 2, false), AIECN_PICK_INSTALL);
	CHECK_EQ(p.owned, 2);
	/* a switch up shorter than the switch counts as the switch */
	aiecn_pick_init(&p, 4, 3, 1);
	CHECK_EQ(p.sw_up, 3);
}

/* A made-up sample, different for every i */
static void record_sample(int i, struct aiecn_sample *x)
{
	memset(x, 0, sizeof(*x));
	x->interval_s = 0.1 + i * 0.000123456789;
	x->line_rate = 2500000.0 / 3;
	x->tx_bytes = 100000 + 7919 * (uint64_t)i;
	x->enq_pkts = 60 + (i * 37) % 50;
	x->marked = (i * 13) % 30;
	x->xoff_tx = i % 7 == 0;
	x->pfc_rx = i % 11 == 0;
	x->qlen_now = 1500 * (uint32_t)(i % 9);
	x->hist[0] = 20 + i % 5;
	x->hist[4 + i % 8] = 30 + (uint64_t)i;
	x->hist[AIECN_HIST_BUCKETS - 1] = i == 3 ? UINT64_MAX : 0;
}

static int same_sample(const struct aiecn_sample *a, const struct aiecn_sample *b)
{
	return a->interval_s == b->interval_s && a->line_rate == b->line_rate &&
	       a->tx_bytes == b->tx_bytes && a->enq_pkts == b->enq_pkts &&
	       a->marked == b->marked && a->xoff_tx == b->xoff_tx && a->pfc_rx == b->pfc_rx &&
	       a->qlen_now == b->qlen_now && !memcmp(a->hist, b->hist, sizeof(a->hist));
}

static void test_record_sample(void)
{
	struct aiecn_sample x, y;
	const char *end;
	char line[512], small[40];
	int i;

	for (i = 0; i < 30; i++) {
		record_sample(i, &x);
		CHECK(aiecn_sample_format(&x, line, sizeof(line)) > 0);
		strcat(line, " 2048 8192 200000");
		memset(&y, 0xa5, sizeof(y));
		CHECK_EQ(aiecn_sample_parse(line, &y, &end), 0);
		if (!same_sample(&x, &y))
			check(0, "sample read back == sample written", __LINE__);
		CHECK_STR(end, " 2048 8192 200000");
	}
	/* too small a buffer: an error, not a cut line */
	record_sample(3, &x);
	CHECK_EQ(aiecn_sample_format(&x, small, sizeof(small)), -1);
	/* a missing field, a negative count, a backlog over 32 bits */
	CHECK_EQ(aiecn_sample_parse("0.1 1e6 1 2 3 4 5 6 0 0 0", &y, NULL), -1);
	CHECK_EQ(aiecn_sample_parse("0.1 1e6 -1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", &y,
				    NULL), -1);
	CHECK_EQ(aiecn_sample_parse("0.1 1e6 1 2 3 4 5 4294967296 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
				    &y, NULL), -1);
	CHECK_EQ(aiecn_sample_parse("x", &y, NULL), -1);
}

static void test_record_window(void)
{
	struct aiecn_window w;
	struct aiecn_sample x;
	int i, full = 0, at[3] = { 0 };

	aiecn_window_reset(&w);
	for (i = 1; i <= 3 * AIECN_WINDOW + 5; i++) {
		record_sample(i, &x);
		if (aiecn_window_add(&w, &x) && full < 3)
			at[full++] = i;
	}
	CHECK_EQ(full, 3);
	CHECK_EQ(at[0], AIECN_WINDOW);
	CHECK_EQ(at[1], 2 * AIECN_WINDOW);
	CHECK_EQ(at[2], 3 * AIECN_WINDOW);
	CHECK_EQ(w.n, AIECN_WINDOW);
	/* started again: the next window is a whole one of new samples */
	aiecn_window_reset(&w);
	for (i = 1; i < AIECN_WINDOW; i++)
		CHECK(!aiecn_window_add(&w, &x));
	CHECK(aiecn_window_add(&w, &x));
}

/* Samples written as text and read back make the features of the samples themselves */
static void test_record_replay(void)
{
	struct aiecn_sample x[AIECN_WINDOW], y;
	struct aiecn_record_ecn e = { 2048, 8192, 200000 };
	double f[AIECN_NFEATURES], g[AIECN_NFEATURES];
	struct aiecn_window w;
	char line[512], a[256], b[256];
	int i, done = 0;

	aiecn_window_reset(&w);
	for (i = 0; i < AIECN_WINDOW; i++) {
		record_sample(i + 100, &x[i]);
		CHECK(aiecn_sample_format(&x[i], line, sizeof(line)) > 0);
		CHECK_EQ(aiecn_sample_parse(line, &y, NULL), 0);
		done = aiecn_window_add(&w, &y);
	}
	CHECK(done);
	CHECK_EQ(aiecn_features(x, AIECN_WINDOW, f), AIECN_NFEATURES);
	CHECK_EQ(aiecn_features(w.x, w.n, g), AIECN_NFEATURES);
	CHECK(aiecn_features_format(1.5, "prx", 3, f, &e, a, sizeof(a)) > 0);
	CHECK(aiecn_features_format(1.5, "prx", 3, g, &e, b, sizeof(b)) > 0);
	CHECK_STR(a, b);
	CHECK(!strncmp(a, "1.500 prx 3 ", 12));
	CHECK_HAS(a, " 2048 8192 200000\n");
	CHECK_EQ(aiecn_features_format(1.5, "prx", 3, f, &e, a, 20), -1);
}

static const struct tap_test tests[] = {
	{ "hist: bucket upper bounds", test_hist_upper },
	{ "hist: empty, bucket 0, bucket 15, q out of range", test_hist_edges },
	{ "hist: quantiles across buckets, peak", test_hist_across },
	{ "bounds: clamp", test_clamp },
	{ "bounds: validation", test_bounds_valid },
	{ "search: idle holds", test_search_idle },
	{ "search: XOFF cuts kmax at once, within bounds", test_search_xoff },
	{ "search: start outside bounds is clamped", test_search_start_clamped },
	{ "search: full utilisation lowers kmax down to kmax_lo", test_search_lowering },
	{ "search: a drop goes back to the last good setting, backoff", test_search_backoff },
	{ "search: a drop at the good setting rebaselines or raises", test_search_fell_at_good },
	{ "search: paused by the peer holds", test_search_paused },
	{ "search: random samples never leave the bounds", test_search_random },
	{ "model: features", test_features },
	{ "model: load", test_model_load },
	{ "model: classify and confidence", test_model_classify },
	{ "model: scenarios with the same thresholds are one choice", test_model_shared_choice },
	{ "model: malformed files name the line", test_model_malformed },
	{ "model: another scenario replaces the one in force only in a run", test_pick_switch },
	{ "model: unknown samples hold, then release to the search", test_pick_unknown },
	{ "model: deeper thresholds need a longer run", test_pick_deeper },
	{ "record: a sample read back is the sample written", test_record_sample },
	{ "record: windows recorded do not overlap, and start again", test_record_window },
	{ "record: replayed samples make the same features", test_record_replay },
};

int main(void)
{
	const char *base = getenv("TMPDIR");
	char path[128];
	int rc;

	snprintf(tmpdir, sizeof(tmpdir), "%s/aiecn_test.XXXXXX",
		 base && *base && strlen(base) < 40 ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	rc = tap_run(tests, (int)ARRAY_SIZE(tests));
	snprintf(path, sizeof(path), "%s/good.model", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bad.model", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return rc;
}
