// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the PFC frames of sch_lossless.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lossless_pfc.h"

#define GBIT(x)	((u64)(x) * 1000000000)	/* bit/s */
#define MBIT(x)	((u64)(x) * 1000000)	/* bit/s */

static const u8 src_mac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };

/*
 * XOFF for priority 3 (the longest pause) and 5 (16 quanta), written out
 * by hand from IEEE 802.1Qbb / 802.3 Annex 31D.
 */
static const u8 pfc_frame[LOSSLESS_PFC_FRAME_LEN] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,	/* destination */
	0x02, 0x00, 0x5e, 0x10, 0x20, 0x30,	/* source */
	0x88, 0x08,				/* MAC Control */
	0x01, 0x01,				/* class-based flow control */
	0x00, 0x28,				/* class-enable vector: 3, 5 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* time[0..2] */
	0xff, 0xff,				/* time[3] */
	0x00, 0x00,				/* time[4] */
	0x00, 0x10,				/* time[5] */
	0x00, 0x00, 0x00, 0x00,			/* time[6..7] */
	/* 26 bytes of padding, zero */
};

/* byte by byte, naming those that differ (6.1 has no KUNIT_EXPECT_MEMEQ) */
static void expect_frame(struct kunit *test, const u8 *buf)
{
	int i;

	for (i = 0; i < LOSSLESS_PFC_FRAME_LEN; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], pfc_frame[i], "byte %d", i);
}

static void lossless_pfc_encode_bytes_test(struct kunit *test)
{
	/* quanta[0] is set but not enabled: it goes out as 0 */
	const struct lossless_pfc pfc = {
		.enable = BIT(3) | BIT(5),
		.quanta = { [0] = 0x1234, [3] = 0xffff, [5] = 16 },
	};
	u8 buf[LOSSLESS_PFC_FRAME_LEN + 4];

	memset(buf, 0xaa, sizeof(buf));
	lossless_pfc_encode(buf, src_mac, &pfc);
	expect_frame(test, buf);
	/* nothing written past the 60 bytes: the FCS is the device's */
	KUNIT_EXPECT_EQ(test, buf[LOSSLESS_PFC_FRAME_LEN], 0xaa);
}

static void lossless_pfc_encode_unaligned_test(struct kunit *test)
{
	const struct lossless_pfc pfc = {
		.enable = BIT(3) | BIT(5),
		.quanta = { [3] = 0xffff, [5] = 16 },
	};
	struct lossless_pfc out;
	u8 buf[LOSSLESS_PFC_FRAME_LEN + 1];

	lossless_pfc_encode(buf + 1, src_mac, &pfc);
	expect_frame(test, buf + 1);
	KUNIT_EXPECT_EQ(test, lossless_pfc_parse(buf + 1, LOSSLESS_PFC_FRAME_LEN, &out), 0);
	KUNIT_EXPECT_EQ(test, out.quanta[3], 0xffff);
}

static void lossless_pfc_round_trip_test(struct kunit *test)
{
	static const struct lossless_pfc msgs[] = {
		{ .enable = 0xff, .quanta = { 1, 2, 3, 4, 0x100, 0x8000, 0xfffe, 0xffff } },
		{ .enable = 0xff },					/* XON all */
		{ .enable = 0 },					/* nothing */
		{ .enable = BIT(0), .quanta = { 65535 } },
		{ .enable = BIT(7), .quanta = { [7] = 1 } },
		{ .enable = 0x55, .quanta = { 10, 11, 12, 13, 14, 15, 16, 17 } },
	};
	int i, prio;

	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		const struct lossless_pfc *in = &msgs[i];
		struct lossless_pfc out;
		u8 buf[LOSSLESS_PFC_FRAME_LEN];

		lossless_pfc_encode(buf, src_mac, in);
		KUNIT_ASSERT_EQ(test, lossless_pfc_parse(buf, sizeof(buf), &out), 0);
		KUNIT_EXPECT_EQ(test, out.enable, in->enable);
		for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++)
			KUNIT_EXPECT_EQ(test, out.quanta[prio],
					in->enable & BIT(prio) ? in->quanta[prio] : 0);
	}
}

/* pfc_frame with one big-endian 16-bit field replaced, and a length */
struct parse_case {
	const char *name;
	int off;		/* -1: the frame as it is */
	u16 val;
	unsigned int len;
	int err;
};

static const struct parse_case parse_cases[] = {
	{ "valid", -1, 0, 60, 0 },
	{ "valid with FCS", -1, 0, 64, 0 },
	{ "valid, longer than the minimum", -1, 0, 128, 0 },
	{ "59 bytes", -1, 0, 59, -LOSSLESS_PFC_ESHORT },
	{ "0 bytes", -1, 0, 0, -LOSSLESS_PFC_ESHORT },
	{ "header only", -1, 0, ETH_HLEN, -LOSSLESS_PFC_ESHORT },
	{ "short and IPv4: short first", 12, 0x0800, 59, -LOSSLESS_PFC_ESHORT },
	{ "IPv4 EtherType", 12, 0x0800, 60, -LOSSLESS_PFC_ENOTMACC },
	{ "VLAN tagged", 12, 0x8100, 60, -LOSSLESS_PFC_ENOTMACC },
	{ "LLDP EtherType", 12, 0x88cc, 60, -LOSSLESS_PFC_ENOTMACC },
	{ "802.3x PAUSE", 14, 0x0001, 60, -LOSSLESS_PFC_EPAUSE },
	{ "opcode 0", 14, 0x0000, 60, -LOSSLESS_PFC_EOPCODE },
	{ "opcode 0x0002 (GATE)", 14, 0x0002, 60, -LOSSLESS_PFC_EOPCODE },
	{ "opcode 0x0102", 14, 0x0102, 60, -LOSSLESS_PFC_EOPCODE },
	{ "opcode byte-swapped PAUSE", 14, 0x0100, 60, -LOSSLESS_PFC_EOPCODE },
	{ "to 01-80-C2-00-00-02 (slow protocols)", 4, 0x0002, 60, -LOSSLESS_PFC_EDEST },
	{ "to 01-80-C2-00-00-00 (STP)", 4, 0x0000, 60, -LOSSLESS_PFC_EDEST },
	{ "to a unicast address", 0, 0x0200, 60, -LOSSLESS_PFC_EDEST },
	{ "class-enable reserved bit 8", 16, 0x0128, 60, -LOSSLESS_PFC_ERESERVED },
	{ "class-enable reserved octet all ones", 16, 0xff28, 60, -LOSSLESS_PFC_ERESERVED },
	{ "class-enable 0xff: all priorities", 16, 0x00ff, 60, 0 },
	{ "non-zero padding is ignored", 40, 0xdead, 60, 0 },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void lossless_pfc_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct lossless_pfc out = { .enable = 0x5a, .quanta = { 7 } };
	u8 buf[128] = {};

	memcpy(buf, pfc_frame, sizeof(pfc_frame));
	if (c->off >= 0) {
		buf[c->off] = c->val >> 8;
		buf[c->off + 1] = c->val & 0xff;
	}
	KUNIT_EXPECT_EQ(test, lossless_pfc_parse(buf, c->len, &out), c->err);
	if (c->err) {
		/* untouched on error */
		KUNIT_EXPECT_EQ(test, out.enable, 0x5a);
		KUNIT_EXPECT_EQ(test, out.quanta[0], 7);
		return;
	}
	KUNIT_EXPECT_EQ(test, out.enable, pfc_frame[17] | (c->off == 16 ? c->val : 0));
	KUNIT_EXPECT_EQ(test, out.quanta[3], 0xffff);
	KUNIT_EXPECT_EQ(test, out.quanta[5], 16);
}

static void lossless_pfc_parse_errors_distinct_test(struct kunit *test)
{
	static const int errs[] = {
		LOSSLESS_PFC_ESHORT, LOSSLESS_PFC_ENOTMACC, LOSSLESS_PFC_EPAUSE,
		LOSSLESS_PFC_EOPCODE, LOSSLESS_PFC_EDEST, LOSSLESS_PFC_ERESERVED,
	};
	int i, j;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		KUNIT_EXPECT_GT(test, errs[i], 0);
		for (j = i + 1; j < ARRAY_SIZE(errs); j++)
			KUNIT_EXPECT_NE(test, errs[i], errs[j]);
	}
}

static void lossless_pfc_parse_pause_unicast_test(struct kunit *test)
{
	struct lossless_pfc out;
	u8 buf[LOSSLESS_PFC_FRAME_LEN];

	/* 802.3x PAUSE may go to the station's own address: still a PAUSE */
	memcpy(buf, pfc_frame, sizeof(buf));
	memcpy(buf, src_mac, ETH_ALEN);
	buf[15] = 0x01;
	buf[14] = 0x00;
	KUNIT_EXPECT_EQ(test, lossless_pfc_parse(buf, sizeof(buf), &out), -LOSSLESS_PFC_EPAUSE);
}

static void lossless_pfc_parse_disabled_quanta_test(struct kunit *test)
{
	struct lossless_pfc out;
	u8 buf[LOSSLESS_PFC_FRAME_LEN];
	int prio;

	/* every time field set, only priority 1 enabled */
	memcpy(buf, pfc_frame, sizeof(buf));
	buf[17] = BIT(1);
	for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++) {
		buf[LOSSLESS_PFC_OFF_TIME + 2 * prio] = 0x10;
		buf[LOSSLESS_PFC_OFF_TIME + 2 * prio + 1] = prio;
	}
	KUNIT_ASSERT_EQ(test, lossless_pfc_parse(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_EQ(test, out.enable, BIT(1));
	for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++)
		KUNIT_EXPECT_EQ(test, out.quanta[prio], prio == 1 ? 0x1001 : 0);

	/* enable 0: a valid frame that pauses and resumes nothing */
	buf[17] = 0;
	KUNIT_ASSERT_EQ(test, lossless_pfc_parse(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_EQ(test, out.enable, 0);
	for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++)
		KUNIT_EXPECT_EQ(test, out.quanta[prio], 0);
}

struct time_case {
	const char *name;
	u64 in;		/* quanta or ns */
	u64 speed;	/* bit/s */
	u64 out;	/* ns or quanta */
};

static void time_case_desc(const struct time_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* a quantum is 512 bit times */
static const struct time_case to_ns_cases[] = {
	{ "1 at 100 Mbit/s: 5.12 us", 1, MBIT(100), 5120 },
	{ "65535 at 100 Mbit/s", 65535, MBIT(100), 335539200 },
	{ "1 at 1 Gbit/s", 1, GBIT(1), 512 },
	{ "65535 at 1 Gbit/s", 65535, GBIT(1), 33553920 },
	{ "1 at 10 Gbit/s: 51.2 ns up", 1, GBIT(10), 52 },
	{ "10 at 10 Gbit/s", 10, GBIT(10), 512 },
	{ "65535 at 10 Gbit/s: 3.355 ms", 65535, GBIT(10), 3355392 },
	{ "1 at 25 Gbit/s: 20.48 ns up", 1, GBIT(25), 21 },
	{ "25 at 25 Gbit/s", 25, GBIT(25), 512 },
	{ "65535 at 25 Gbit/s", 65535, GBIT(25), 1342157 },
	{ "1 at 100 Gbit/s: 5.12 ns up", 1, GBIT(100), 6 },
	{ "100 at 100 Gbit/s", 100, GBIT(100), 512 },
	{ "65535 at 100 Gbit/s", 65535, GBIT(100), 335540 },
	{ "65535 at 400 Gbit/s", 65535, GBIT(400), 83885 },
	{ "0 quanta (XON)", 0, GBIT(10), 0 },
	{ "speed 0 (unknown)", 1000, 0, 0 },
	{ "65535 at 1 bit/s", 65535, 1, 65535ULL * 512 * NSEC_PER_SEC },
	{ "1 at the largest speed", 1, U64_MAX, 1 },
	{ "65535 at the largest speed", 65535, U64_MAX, 1 },
};

KUNIT_ARRAY_PARAM(to_ns, to_ns_cases, time_case_desc);

static void lossless_pfc_quanta_to_ns_test(struct kunit *test)
{
	const struct time_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, lossless_pfc_quanta_to_ns(c->in, c->speed), c->out);
}

static const struct time_case to_quanta_cases[] = {
	{ "0 ns", 0, GBIT(10), 0 },
	{ "1 ns at 10 Gbit/s", 1, GBIT(10), 1 },
	{ "51 ns at 10 Gbit/s: 510 bits", 51, GBIT(10), 1 },
	{ "52 ns at 10 Gbit/s: 520 bits", 52, GBIT(10), 2 },
	{ "512 ns at 10 Gbit/s: exact", 512, GBIT(10), 10 },
	{ "513 ns at 10 Gbit/s", 513, GBIT(10), 11 },
	{ "3355392 ns at 10 Gbit/s: the most", 3355392, GBIT(10), 65535 },
	{ "3355393 ns at 10 Gbit/s: clamped", 3355393, GBIT(10), 65535 },
	{ "1 s at 10 Gbit/s: clamped", NSEC_PER_SEC, GBIT(10), 65535 },
	{ "5120 ns at 100 Mbit/s", 5120, MBIT(100), 1 },
	{ "5121 ns at 100 Mbit/s", 5121, MBIT(100), 2 },
	{ "335539 ns at 100 Gbit/s", 335539, GBIT(100), 65535 },
	{ "335540 ns at 100 Gbit/s: clamped", 335540, GBIT(100), 65535 },
	{ "1 us at 25 Gbit/s: 48.8 up", 1000, GBIT(25), 49 },
	{ "a pause at unknown speed: the most", 1000, 0, 65535 },
	{ "no pause at unknown speed", 0, 0, 0 },
	{ "1 ns at 1 bit/s", 1, 1, 1 },
	{ "longest ns at 1 bit/s: clamped", U64_MAX, 1, 65535 },
	{ "longest ns at 10 Gbit/s: no overflow", U64_MAX, GBIT(10), 65535 },
	{ "1 ns at the largest speed: no overflow", 1, U64_MAX, 65535 },
};

KUNIT_ARRAY_PARAM(to_quanta, to_quanta_cases, time_case_desc);

static void lossless_pfc_ns_to_quanta_test(struct kunit *test)
{
	const struct time_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, lossless_pfc_ns_to_quanta(c->in, c->speed), c->out);
}

static void lossless_pfc_ns_to_quanta_covers_test(struct kunit *test)
{
	static const u64 speeds[] = { MBIT(100), GBIT(1), GBIT(10), GBIT(25), GBIT(100) };
	int i;
	u64 ns;

	/* the quanta asked for last at least as long as wanted, one quantum at most longer */
	for (i = 0; i < ARRAY_SIZE(speeds); i++) {
		u64 quantum = lossless_pfc_quanta_to_ns(1, speeds[i]);

		for (ns = 1; ns < 4000000; ns = ns * 3 + 1) {
			u16 q = lossless_pfc_ns_to_quanta(ns, speeds[i]);
			u64 got = lossless_pfc_quanta_to_ns(q, speeds[i]);

			if (q == LOSSLESS_PFC_MAX_QUANTA)
				continue;
			KUNIT_EXPECT_GE(test, got, ns);
			KUNIT_EXPECT_LE(test, got, ns + quantum);
		}
	}
}

static const struct time_case refresh_cases[] = {
	{ "65535 at 10 Gbit/s", 65535, GBIT(10), 1677696 },
	{ "65535 at 100 Mbit/s", 65535, MBIT(100), 167769600 },
	{ "65535 at 100 Gbit/s", 65535, GBIT(100), 167770 },
	{ "1 at 10 Gbit/s", 1, GBIT(10), 26 },
	{ "1 at 100 Gbit/s", 1, GBIT(100), 3 },
	{ "1 at 800 Gbit/s: at least 1 ns", 1, GBIT(800), 1 },
	{ "XON: nothing to refresh", 0, GBIT(10), 0 },
	{ "speed 0 (unknown)", 100, 0, 0 },
};

KUNIT_ARRAY_PARAM(refresh, refresh_cases, time_case_desc);

static void lossless_pfc_refresh_ns_test(struct kunit *test)
{
	const struct time_case *c = test->param_value;
	u64 refresh = lossless_pfc_refresh_ns(c->in, c->speed);

	KUNIT_EXPECT_EQ(test, refresh, c->out);
	/* the refresh goes out before the pause runs out */
	if (lossless_pfc_quanta_to_ns(c->in, c->speed) > 1)
		KUNIT_EXPECT_LT(test, refresh, lossless_pfc_quanta_to_ns(c->in, c->speed));
}

/*
 * At the speeds a port may have, the XOFF this port sends (65535 quanta)
 * is refreshed no more often than every 10 us, and one that is never
 * refreshed nor ended stops the peer for at most 3.4 s.
 */
static void lossless_pfc_speed_bounds_test(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, lossless_pfc_refresh_ns(LOSSLESS_PFC_MAX_QUANTA,
						      LOSSLESS_PFC_MAX_SPEED), 10 * NSEC_PER_USEC);
	KUNIT_EXPECT_LE(test, lossless_pfc_quanta_to_ns(LOSSLESS_PFC_MAX_QUANTA,
							LOSSLESS_PFC_MIN_SPEED),
			3400 * NSEC_PER_MSEC);
}

static struct kunit_case lossless_pfc_cases[] = {
	KUNIT_CASE(lossless_pfc_encode_bytes_test),
	KUNIT_CASE(lossless_pfc_encode_unaligned_test),
	KUNIT_CASE(lossless_pfc_round_trip_test),
	KUNIT_CASE_PARAM(lossless_pfc_parse_test, parse_gen_params),
	KUNIT_CASE(lossless_pfc_parse_errors_distinct_test),
	KUNIT_CASE(lossless_pfc_parse_pause_unicast_test),
	KUNIT_CASE(lossless_pfc_parse_disabled_quanta_test),
	KUNIT_CASE_PARAM(lossless_pfc_quanta_to_ns_test, to_ns_gen_params),
	KUNIT_CASE_PARAM(lossless_pfc_ns_to_quanta_test, to_quanta_gen_params),
	KUNIT_CASE(lossless_pfc_ns_to_quanta_covers_test),
	KUNIT_CASE_PARAM(lossless_pfc_refresh_ns_test, refresh_gen_params),
	KUNIT_CASE(lossless_pfc_speed_bounds_test),
	{}
};

static struct kunit_suite lossless_pfc_suite = {
	.name = "sch_lossless_pfc",
	.test_cases = lossless_pfc_cases,
};

kunit_test_suite(lossless_pfc_suite);
