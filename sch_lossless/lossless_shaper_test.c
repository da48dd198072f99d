// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the port shaper of sch_lossless.
 */
#include <kunit/test.h>
#include <linux/time64.h>

#include "lossless_shaper.h"

#define MBIT(x)	((u64)(x) * 1000000 / 8)	/* bytes per second */

static void lossless_shaper_off_test(struct kunit *test)
{
	struct lossless_shaper s = {};

	lossless_shaper_consume(&s, 1500);
	KUNIT_EXPECT_TRUE(test, lossless_shaper_may_send(&s));
	KUNIT_EXPECT_EQ(test, lossless_shaper_wait_ns(&s), 0ULL);
}

static void lossless_shaper_burst_then_wait_test(struct kunit *test)
{
	struct lossless_shaper s;
	int sent = 0;

	/* 100 Mbit/s, a 3000-byte bucket: two 1500-byte packets, then wait */
	lossless_shaper_set(&s, MBIT(100), 3000, 0);
	while (lossless_shaper_may_send(&s) && sent < 10) {
		lossless_shaper_consume(&s, 1500);
		sent++;
	}
	KUNIT_EXPECT_EQ(test, sent, 3);	/* the third takes the bucket below 0 */
	KUNIT_EXPECT_EQ(test, s.tokens, -1500LL * NSEC_PER_SEC);
	/* 1500 bytes at 12.5 MB/s: 120 us */
	KUNIT_EXPECT_EQ(test, lossless_shaper_wait_ns(&s), 120000ULL);
	lossless_shaper_refill(&s, 119999);
	KUNIT_EXPECT_FALSE(test, lossless_shaper_may_send(&s));
	KUNIT_EXPECT_EQ(test, lossless_shaper_wait_ns(&s), 1ULL);
	/* refilling in many small steps loses nothing */
	lossless_shaper_refill(&s, 119999);
	lossless_shaper_refill(&s, 120000);
	KUNIT_EXPECT_TRUE(test, lossless_shaper_may_send(&s));
	KUNIT_EXPECT_EQ(test, s.tokens, 0LL);
}

static void lossless_shaper_long_run_rate_test(struct kunit *test)
{
	static const u64 rates[] = { MBIT(10), MBIT(100), MBIT(1000), MBIT(100000) };
	int i;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		struct lossless_shaper s;
		u64 now = 0, bytes = 0;

		lossless_shaper_set(&s, rates[i], 3000, 0);
		/* send 1514-byte packets as soon as allowed for one second */
		while (now <= NSEC_PER_SEC) {
			lossless_shaper_refill(&s, now);
			if (lossless_shaper_may_send(&s)) {
				lossless_shaper_consume(&s, 1514);
				bytes += 1514;
			} else {
				now += lossless_shaper_wait_ns(&s);
			}
		}
		/* the rate, within the bucket and one packet */
		KUNIT_EXPECT_LE(test, bytes, rates[i] + 3000 + 2 * 1514);
		KUNIT_EXPECT_GE(test, bytes, rates[i] - 1514);
	}
}

static void lossless_shaper_idle_caps_at_burst_test(struct kunit *test)
{
	struct lossless_shaper s;

	lossless_shaper_set(&s, MBIT(1000), 64000, 0);
	lossless_shaper_consume(&s, 64000);
	lossless_shaper_refill(&s, 3600ULL * NSEC_PER_SEC);	/* an hour idle */
	KUNIT_EXPECT_EQ(test, s.tokens, 64000LL * NSEC_PER_SEC);
	/* the largest rate over a long idle time does not overflow */
	lossless_shaper_set(&s, LOSSLESS_MAX_RATE, U32_MAX, 0);
	lossless_shaper_consume(&s, U32_MAX);
	lossless_shaper_refill(&s, U64_MAX / 2);
	KUNIT_EXPECT_EQ(test, s.tokens, (s64)U32_MAX * NSEC_PER_SEC);
	/* time going backwards changes nothing */
	lossless_shaper_refill(&s, 5);
	KUNIT_EXPECT_EQ(test, s.tokens, (s64)U32_MAX * NSEC_PER_SEC);
}

static void lossless_shaper_default_burst_test(struct kunit *test)
{
	/* 2 ms at the rate ... */
	KUNIT_EXPECT_EQ(test, lossless_shaper_default_burst(MBIT(1000), 1514), 250000U);
	/* ... but at least two packets */
	KUNIT_EXPECT_EQ(test, lossless_shaper_default_burst(MBIT(1), 1514), 3028U);
	/* ... and at most 1 GiB */
	KUNIT_EXPECT_EQ(test, lossless_shaper_default_burst(LOSSLESS_MAX_RATE, 1514), 1U << 30);
	KUNIT_EXPECT_EQ(test, lossless_shaper_default_burst(MBIT(4000000), 1514), 1000000000U);
}

static struct kunit_case lossless_shaper_cases[] = {
	KUNIT_CASE(lossless_shaper_off_test),
	KUNIT_CASE(lossless_shaper_burst_then_wait_test),
	KUNIT_CASE(lossless_shaper_long_run_rate_test),
	KUNIT_CASE(lossless_shaper_idle_caps_at_burst_test),
	KUNIT_CASE(lossless_shaper_default_burst_test),
	{}
};

static struct kunit_suite lossless_shaper_suite = {
	.name = "sch_lossless_shaper",
	.test_cases = lossless_shaper_cases,
};

kunit_test_suite(lossless_shaper_suite);
