// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ECN marking of sch_lossless.
 */
#include <kunit/test.h>

#include "lossless_mark.h"

struct prob_case {
	const char *name;
	u32 kmin, kmax, pmax, qlen;
	u32 prob;	/* millionths */
};

static const struct prob_case prob_cases[] = {
	/* kmin 5 KiB, kmax 200 KiB, pmax 1% (the paper's example) */
	{ "empty queue", 5120, 204800, 10000, 0, 0 },
	{ "one byte below kmin", 5120, 204800, 10000, 5119, 0 },
	{ "at kmin", 5120, 204800, 10000, 5120, 0 },
	{ "one byte above kmin", 5120, 204800, 10000, 5121, 0 },
	{ "middle", 5120, 204800, 10000, 104960, 5000 },
	{ "a quarter", 5120, 204800, 10000, 55040, 2500 },
	{ "at kmax", 5120, 204800, 10000, 204800, 10000 },
	{ "one byte above kmax", 5120, 204800, 10000, 204801, 1000000 },
	{ "far above kmax", 5120, 204800, 10000, U32_MAX, 1000000 },
	/* steep lines and the edges of pmax */
	{ "pmax 100% at kmax", 0, 1000, 1000000, 1000, 1000000 },
	{ "pmax 100% halfway", 0, 1000, 1000000, 500, 500000 },
	{ "kmin 0, empty queue", 0, 1000, 1000000, 0, 0 },
	{ "pmax 0 marks nothing up to kmax", 100, 200, 0, 200, 0 },
	{ "pmax 0 still marks above kmax", 100, 200, 0, 201, 1000000 },
	{ "kmin == kmax, below", 3000, 3000, 20000, 2999, 0 },
	{ "kmin == kmax, at", 3000, 3000, 20000, 3000, 20000 },
	{ "kmin == kmax, above", 3000, 3000, 20000, 3001, 1000000 },
	/* 1 GiB thresholds: no overflow in the product */
	{ "1 GiB range halfway", 0, 1U << 30, 1000000, 1U << 29, 500000 },
	{ "rounds down", 0, 3, 1000000, 1, 333333 },
};

static void prob_case_desc(const struct prob_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(prob, prob_cases, prob_case_desc);

static void lossless_mark_prob_test(struct kunit *test)
{
	const struct prob_case *c = test->param_value;
	struct lossless_ecn ecn = {
		.enabled = true, .kmin = c->kmin, .kmax = c->kmax, .pmax = c->pmax,
	};

	KUNIT_EXPECT_EQ(test, lossless_mark_prob(&ecn, c->qlen), c->prob);
}

static void lossless_mark_prob_monotonic_test(struct kunit *test)
{
	struct lossless_ecn ecn = { .enabled = true, .kmin = 1000, .kmax = 9000, .pmax = 70000 };
	u32 q, prev = 0;

	for (q = 0; q < 10000; q += 7) {
		u32 p = lossless_mark_prob(&ecn, q);

		KUNIT_EXPECT_GE(test, p, prev);
		prev = p;
	}
}

static void lossless_mark_decide_test(struct kunit *test)
{
	/* never with probability 0, always with 1 */
	KUNIT_EXPECT_FALSE(test, lossless_mark_decide(0, 0));
	KUNIT_EXPECT_FALSE(test, lossless_mark_decide(0, U32_MAX));
	KUNIT_EXPECT_TRUE(test, lossless_mark_decide(LOSSLESS_PROB_ONE, 0));
	KUNIT_EXPECT_TRUE(test, lossless_mark_decide(LOSSLESS_PROB_ONE, U32_MAX));
	/* 50%: the lower half of the random range marks */
	KUNIT_EXPECT_TRUE(test, lossless_mark_decide(500000, 0x7fffffff));
	KUNIT_EXPECT_FALSE(test, lossless_mark_decide(500000, 0x80000000));
	/* 1 in a million: only the lowest 4295 random values */
	KUNIT_EXPECT_TRUE(test, lossless_mark_decide(1, 4294));
	KUNIT_EXPECT_FALSE(test, lossless_mark_decide(1, 4295));
}

static void lossless_mark_decide_fraction_test(struct kunit *test)
{
	u32 marked = 0, i;

	/* a uniform sweep of the random range marks pmax of it */
	for (i = 0; i < 100000; i++)
		marked += lossless_mark_decide(250000, i * 42949U + 17);
	KUNIT_EXPECT_GE(test, marked, 24900U);
	KUNIT_EXPECT_LE(test, marked, 25100U);
}

static void lossless_ecn_init_test(struct kunit *test)
{
	struct lossless_ecn ecn;

	lossless_ecn_init(&ecn);
	KUNIT_EXPECT_FALSE(test, ecn.enabled);
	KUNIT_EXPECT_EQ(test, ecn.kmin, 5120U);
	KUNIT_EXPECT_EQ(test, ecn.kmax, 204800U);
	KUNIT_EXPECT_EQ(test, ecn.pmax, 10000U);
}

static void lossless_qhist_bucket_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(1023), 0U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(1024), 1U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(2047), 1U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(2048), 2U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(65535), 6U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(65536), 7U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket((1U << 24) - 1), 14U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(1U << 24), 15U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_bucket(U32_MAX), 15U);
}

/* The fine buckets' edges, as the uapi header lays them out */
static void lossless_qhist_fine_bucket_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(255), 0U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(256), 1U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(4095), 15U);
	/* octave 0, [4, 8) KiB, in eighths of 512 bytes */
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(4096), 16U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(4607), 16U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(4608), 17U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(8191), 23U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(8192), 24U);
	/* octave 4, [64, 128) KiB, in eighths of 8 KiB: 72 KiB starts the second */
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(73727), 48U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(73728), 49U);
	/* octave 11, [8, 16) MiB, the last of eighths */
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket((15U << 20) - 1), 110U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(15U << 20), 111U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket((16U << 20) - 1), 111U);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(16U << 20),
			TC_LOSSLESS_QHIST_FINE_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fine_bucket(U32_MAX),
			TC_LOSSLESS_QHIST_FINE_BUCKETS - 1);
}

/*
 * Every backlog's fine bucket folds into its log2 bucket, and the fine
 * buckets follow one another as the backlog grows, none skipped: backlogs
 * from 0 to 32 MiB in steps of at most 1 + 1/64 of the value, shorter than
 * any bucket (256 bytes, then an eighth of an octave, 1/16 of the value
 * or more).
 */
static void lossless_qhist_fold_test(struct kunit *test)
{
	unsigned int f, prev = 0;
	u32 b;

	for (b = 0; b < (32U << 20); b += 1 + b / 64) {
		f = lossless_qhist_fine_bucket(b);
		KUNIT_ASSERT_LT_MSG(test, f, TC_LOSSLESS_QHIST_FINE_BUCKETS, "backlog %u", b);
		KUNIT_EXPECT_GE_MSG(test, f, prev, "backlog %u", b);
		KUNIT_EXPECT_LE_MSG(test, f, prev + 1, "backlog %u", b);
		KUNIT_EXPECT_EQ_MSG(test, lossless_qhist_fold(f), lossless_qhist_bucket(b),
				    "backlog %u", b);
		prev = f;
	}
	KUNIT_EXPECT_EQ(test, prev, TC_LOSSLESS_QHIST_FINE_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, lossless_qhist_fold(TC_LOSSLESS_QHIST_FINE_BUCKETS - 1),
			TC_LOSSLESS_QHIST_BUCKETS - 1);
}

static struct kunit_case lossless_mark_cases[] = {
	KUNIT_CASE_PARAM(lossless_mark_prob_test, prob_gen_params),
	KUNIT_CASE(lossless_mark_prob_monotonic_test),
	KUNIT_CASE(lossless_mark_decide_test),
	KUNIT_CASE(lossless_mark_decide_fraction_test),
	KUNIT_CASE(lossless_ecn_init_test),
	KUNIT_CASE(lossless_qhist_bucket_test),
	KUNIT_CASE(lossless_qhist_fine_bucket_test),
	KUNIT_CASE(lossless_qhist_fold_test),
	{}
};

static struct kunit_suite lossless_mark_suite = {
	.name = "sch_lossless_mark",
	.test_cases = lossless_mark_cases,
};

kunit_test_suite(lossless_mark_suite);
