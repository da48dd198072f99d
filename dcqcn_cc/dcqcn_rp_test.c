// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the DCQCN reaction point: trajectories worked out by
 * hand from the equations in dcqcn_rp.c (Zhu et al., SIGCOMM 2015, 3.1),
 * with knobs chosen so that every step is exact: alpha 1/2 (512), G 1/2
 * (dce_tcp_g 512), so a cut keeps 1 - alpha / 2 = 3/4 of R_C.
 */
#include <kunit/test.h>
#include <linux/time64.h>

#include "dcqcn_rp.h"

#define US(x)	((u64)(x) * NSEC_PER_USEC)
#define T0	US(1000000)
#define MBIT(x)	((u64)(x) * 1000000)

/* alpha at @now in 1/1024ths, as tc shows it */
static u32 shown_alpha(const struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	return DCQCN_ALPHA_SHOWN(dcqcn_rp_alpha(rp, p, now));
}

static void test_params(struct dcqcn_rp_params *p)
{
	dcqcn_rp_params_default(p, MBIT(100));
	p->min_rate = MBIT(1);
	p->time_reset_us = 100;
	p->byte_reset = 10000;
	p->threshold = 2;
	p->min_dec_fac = 1;
	p->dce_tcp_g = 512;
	p->dce_tcp_rtt_us = 50;
	p->monitor_period_us = 20;
	p->initial_alpha = 512;
	p->clamp_tgt_rate_ati = false;
}

static void dcqcn_rp_defaults_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;

	/* mlx5's defaults */
	dcqcn_rp_params_default(&p, MBIT(25000));
	KUNIT_EXPECT_EQ(test, p.time_reset_us, 300U);
	KUNIT_EXPECT_EQ(test, p.byte_reset, 32767U);
	KUNIT_EXPECT_EQ(test, p.threshold, 1U);
	KUNIT_EXPECT_EQ(test, p.ai_rate, MBIT(5));
	KUNIT_EXPECT_EQ(test, p.hai_rate, MBIT(50));
	KUNIT_EXPECT_EQ(test, p.min_rate, MBIT(1));
	KUNIT_EXPECT_EQ(test, p.dce_tcp_g, 1019U);
	KUNIT_EXPECT_EQ(test, p.initial_alpha, 1023U);
	KUNIT_EXPECT_EQ(test, p.gd, 11U);
	/* rpg_max_rate 0: the line rate */
	KUNIT_EXPECT_EQ(test, dcqcn_rp_max_rate(&p), MBIT(25000));
	p.max_rate = MBIT(10000);
	KUNIT_EXPECT_EQ(test, dcqcn_rp_max_rate(&p), MBIT(10000));

	/* a new QP: no limiter, the maximum rate, and sending changes nothing */
	dcqcn_rp_init(&rp, &p, T0);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(10000));
	KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_LINE);
	dcqcn_rp_sent(&rp, &p, 1000000, T0 + US(5000));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(10000));
	KUNIT_EXPECT_EQ(test, rp.bc, 0U);
}

static void dcqcn_alpha_decay_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(1000, 512, 0), 1000U);
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(1000, 512, 3), 125U);
	/* 1023 * 1019 / 1024 = 1018.005 */
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(1023, 1019, 1), 1018U);
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(1023, 1019, 1000000000ULL), 0U);
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(500, 0, 1), 0U);
	/* 768 (3/4) squared is 576 (9/16) */
	KUNIT_EXPECT_EQ(test, dcqcn_alpha_decay(1024, 768, 2), 576U);
}

/* The first CNP, then alpha over the next periods. */
static void dcqcn_rp_first_cnp_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;

	test_params(&p);
	dcqcn_rp_init(&rp, &p, T0);
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&rp, &p, T0));
	/* R_T = R_C = 100; R_C = 100 (1 - 0.5 / 2) = 75 */
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(100));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(75));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0), 512U);
	KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_FAST_RECOVERY);

	/* the CNP's period ends: alpha = 0.5 * 0.5 + 0.5 = 0.75 */
	dcqcn_rp_advance(&rp, &p, T0 + US(50));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(50)), 768U);
	/* a period without CNP: 0.375; two more: 0.09375 */
	dcqcn_rp_advance(&rp, &p, T0 + US(99));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(99)), 768U);
	dcqcn_rp_advance(&rp, &p, T0 + US(100));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(100)), 384U);
	dcqcn_rp_advance(&rp, &p, T0 + US(200));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(200)), 96U);
}

/* rate_to_set_on_first_cnp: the first CNP sets the rate, no cut */
static void dcqcn_rp_first_cnp_rate_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;

	test_params(&p);
	p.first_cnp_rate = MBIT(40);
	dcqcn_rp_init(&rp, &p, T0);
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&rp, &p, T0));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(40));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(40));
	/* the next CNP after the monitor period cuts: 40 * 3/4 = 30 */
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&rp, &p, T0 + US(20)));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(30));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(40));
}

/* Repeated CNPs: one cut per rate_reduce_monitor_period, alpha grows. */
static void dcqcn_rp_repeated_cnp_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;

	test_params(&p);
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	/* 10 us later: inside the 20 us monitor period, no cut */
	KUNIT_EXPECT_FALSE(test, dcqcn_rp_cnp(&rp, &p, T0 + US(10)));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(75));
	/* 30 us: cut with alpha still 0.5: 75 * 3/4 = 56.25; R_T stays */
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&rp, &p, T0 + US(30)));
	KUNIT_EXPECT_EQ(test, rp.rc, 56250000ULL);
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(100));
	/* 80 us: alpha 0.75 since 50 us: 56.25 (1 - 0.375) = 35.15625 */
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&rp, &p, T0 + US(80)));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(80)), 768U);
	KUNIT_EXPECT_EQ(test, rp.rc, 35156250ULL);
	/* 100 us: alpha 0.875 (the 50-100 us period had CNPs) */
	dcqcn_rp_advance(&rp, &p, T0 + US(100));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(100)), 896U);
}

/*
 * alpha depends on the CNPs and the time, not on how often it is read:
 * after 600 quiet periods (mlx5's G = 1019/1024, 1 us periods) a QP read
 * every period and one read once cut the same at the next CNP, by what
 * the equations give: alpha 0.999 after the first CNP's period, then
 * 0.999 (1019/1024)^599 = 0.0532 (54.5/1024).
 */
static void dcqcn_rp_alpha_reads_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp every, once;
	unsigned int i;

	dcqcn_rp_params_default(&p, MBIT(100));
	p.time_reset_us = 1000000;	/* no rate increase to compare */
	dcqcn_rp_init(&every, &p, T0);
	dcqcn_rp_cnp(&every, &p, T0);
	once = every;
	for (i = 1; i <= 600; i++)
		dcqcn_rp_advance(&every, &p, T0 + US(i));
	dcqcn_rp_advance(&once, &p, T0 + US(600));
	KUNIT_EXPECT_EQ(test, shown_alpha(&every, &p, T0 + US(600)), 54U);
	KUNIT_EXPECT_EQ(test, shown_alpha(&once, &p, T0 + US(600)), 54U);
	KUNIT_EXPECT_EQ(test, dcqcn_rp_alpha(&every, &p, T0 + US(600)),
			dcqcn_rp_alpha(&once, &p, T0 + US(600)));
	KUNIT_EXPECT_EQ(test, every.rc, once.rc);
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&every, &p, T0 + US(600)));
	KUNIT_EXPECT_TRUE(test, dcqcn_rp_cnp(&once, &p, T0 + US(600)));
	KUNIT_EXPECT_EQ(test, every.rc, once.rc);
	/* the first cut left 50.05 Mbit/s; alpha / 2 = 2.66% of it: 48.72 */
	KUNIT_EXPECT_GE(test, every.rc, 48710000ULL);
	KUNIT_EXPECT_LE(test, every.rc, 48720000ULL);
}

/* Fast recovery: R_C halves its distance to R_T per timer event. */
static void dcqcn_rp_fast_recovery_test(struct kunit *test)
{
	static const u64 want[] = { 87500000, 93750000, 96875000 };
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;
	unsigned int i;

	test_params(&p);
	p.threshold = 3;
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	dcqcn_rp_advance(&rp, &p, T0 + US(99));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(75));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		dcqcn_rp_advance(&rp, &p, T0 + US(100 * (i + 1)));
		KUNIT_EXPECT_EQ(test, rp.t, i + 1);
		KUNIT_EXPECT_EQ(test, rp.rc, want[i]);
		KUNIT_EXPECT_EQ(test, rp.rt, MBIT(100));
		KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_FAST_RECOVERY);
	}
	/* R_T is the maximum: R_C converges to it, and the limiter goes */
	dcqcn_rp_advance(&rp, &p, T0 + US(100 * 40));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(100));
	KUNIT_EXPECT_FALSE(test, rp.limited);
	KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_LINE);

	/* a CNP now is a first CNP again: alpha restarts at its initial value */
	rp.alpha = 3;
	dcqcn_rp_cnp(&rp, &p, T0 + US(100 * 41));
	KUNIT_EXPECT_EQ(test, shown_alpha(&rp, &p, T0 + US(100 * 41)), 512U);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(75));
}

/* Timer and byte counter together: fast recovery, additive, hyper. */
static void dcqcn_rp_increase_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;
	u64 c = T0 + US(20);

	test_params(&p);
	p.line_rate = MBIT(1000);
	p.threshold = 1;
	p.first_cnp_rate = MBIT(100);
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, c);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(75));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(100));

	/* BC 1, T 0: fast recovery: (100 + 75) / 2 */
	dcqcn_rp_sent(&rp, &p, 10000, c + US(10));
	KUNIT_EXPECT_EQ(test, rp.bc, 1U);
	KUNIT_EXPECT_EQ(test, rp.rc, 87500000ULL);
	/* 9999 more bytes: no event yet */
	dcqcn_rp_sent(&rp, &p, 9999, c + US(20));
	KUNIT_EXPECT_EQ(test, rp.bc, 1U);
	/* T 1 (at 100 us): fast recovery: 93.75; then 1 byte: BC 2, T 1:
	 * additive: R_T 105, R_C (105 + 93.75) / 2 = 99.375
	 */
	dcqcn_rp_sent(&rp, &p, 1, c + US(150));
	KUNIT_EXPECT_EQ(test, rp.t, 1U);
	KUNIT_EXPECT_EQ(test, rp.bc, 2U);
	KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_ADDITIVE);
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(105));
	KUNIT_EXPECT_EQ(test, rp.rc, 99375000ULL);
	/* T 2: hyper, i = min(2, 2) - 1 = 1: R_T 155, R_C 127.1875;
	 * BC 3: i = min(2, 3) - 1 = 1: R_T 205, R_C 166.09375
	 */
	dcqcn_rp_sent(&rp, &p, 10000, c + US(250));
	KUNIT_EXPECT_EQ(test, dcqcn_rp_stage(&rp, &p), DCQCN_RP_HYPER);
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(205));
	KUNIT_EXPECT_EQ(test, rp.rc, 166093750ULL);
	/* T 3: i = 2: R_T 305, R_C 235.546875 */
	dcqcn_rp_advance(&rp, &p, c + US(300));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(305));
	KUNIT_EXPECT_EQ(test, rp.rc, 235546875ULL);
}

/* rpg_min_rate, rpg_max_rate and rpg_min_dec_fac bound the rates. */
static void dcqcn_rp_clamp_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;
	unsigned int i;

	test_params(&p);
	p.min_rate = MBIT(10);
	p.monitor_period_us = 0;
	dcqcn_rp_init(&rp, &p, T0);
	for (i = 0; i < 20; i++) {
		dcqcn_rp_cnp(&rp, &p, T0 + i);
		KUNIT_EXPECT_GE(test, rp.rc, MBIT(10));
	}
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(10));

	/* rpg_max_rate below the line rate: R_T never above it */
	test_params(&p);
	p.max_rate = MBIT(60);
	p.threshold = 0;
	dcqcn_rp_init(&rp, &p, T0);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(60));
	dcqcn_rp_cnp(&rp, &p, T0);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(45));
	for (i = 1; i < 100 && rp.limited; i++) {
		dcqcn_rp_sent(&rp, &p, 10000, T0 + US(100 * i));
		KUNIT_EXPECT_LE(test, rp.rt, MBIT(60));
		KUNIT_EXPECT_LE(test, rp.rc, rp.rt);
	}
	KUNIT_EXPECT_FALSE(test, rp.limited);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(60));

	/* gd 10: alpha ~1 would cut R_C to almost 0; min_dec_fac 50 keeps half */
	test_params(&p);
	p.gd = 10;
	p.initial_alpha = 1023;
	p.min_dec_fac = 50;
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(50));
	/* the knob lowered under a limited QP: the rates follow */
	p.max_rate = MBIT(20);
	dcqcn_rp_advance(&rp, &p, T0 + 1);
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(20));
	KUNIT_EXPECT_EQ(test, rp.rc, MBIT(20));
}

/* clamp_tgt_rate and clamp_tgt_rate_after_time_inc: when a cut sets R_T */
static void dcqcn_rp_clamp_target_test(struct kunit *test)
{
	struct dcqcn_rp_params p;
	struct dcqcn_rp rp;

	/* clamp_tgt_rate: every cut */
	test_params(&p);
	p.clamp_tgt_rate = true;
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0 + US(20));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(75));
	KUNIT_EXPECT_EQ(test, rp.rc, 56250000ULL);

	/* after a timer increase only: the byte counter's does not count */
	test_params(&p);
	p.clamp_tgt_rate_ati = true;
	dcqcn_rp_init(&rp, &p, T0);
	dcqcn_rp_cnp(&rp, &p, T0);
	dcqcn_rp_sent(&rp, &p, 10000, T0 + US(10));	/* R_C 87.5 */
	dcqcn_rp_cnp(&rp, &p, T0 + US(20));
	KUNIT_EXPECT_EQ(test, rp.rt, MBIT(100));
	KUNIT_EXPECT_EQ(test, rp.rc, 65625000ULL);
	dcqcn_rp_advance(&rp, &p, T0 + US(120));	/* timer: R_C 82.8125 */
	KUNIT_EXPECT_EQ(test, rp.rc, 82812500ULL);
	dcqcn_rp_cnp(&rp, &p, T0 + US(130));
	KUNIT_EXPECT_EQ(test, rp.rt, 82812500ULL);
}

static struct kunit_case dcqcn_rp_cases[] = {
	KUNIT_CASE(dcqcn_rp_defaults_test),
	KUNIT_CASE(dcqcn_alpha_decay_test),
	KUNIT_CASE(dcqcn_rp_first_cnp_test),
	KUNIT_CASE(dcqcn_rp_first_cnp_rate_test),
	KUNIT_CASE(dcqcn_rp_repeated_cnp_test),
	KUNIT_CASE(dcqcn_rp_alpha_reads_test),
	KUNIT_CASE(dcqcn_rp_fast_recovery_test),
	KUNIT_CASE(dcqcn_rp_increase_test),
	KUNIT_CASE(dcqcn_rp_clamp_test),
	KUNIT_CASE(dcqcn_rp_clamp_target_test),
	{}
};

static struct kunit_suite dcqcn_rp_suite = {
	.name = "dcqcn_rp",
	.test_cases = dcqcn_rp_cases,
};

kunit_test_suite(dcqcn_rp_suite);
