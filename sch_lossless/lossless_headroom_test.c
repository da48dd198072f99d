// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the headroom of sch_lossless.
 *
 * The expected values were worked out by hand from the formula with exact
 * fractions (see lossless_headroom.h), independently of this code.
 */
#include <kunit/test.h>

#include "lossless_headroom.h"

/*
 * A Mellanox Spectrum-2/3 as SONiC describes it (ASIC_TABLE: mac_phy_delay
 * 0.8 KiB = 819.2 bytes, here 820, pipeline_latency 18 KiB) with
 * LOSSLESS_TRAFFIC_PATTERN mtu 1024, on a port of MTU 9100; the cell size
 * (144 on Spectrum-2/3), the small-packet percentage (50 in the worked
 * values) and the rest vary by case.
 */
struct calc_case {
	const char *name;
	u32 speed, cable;	/* Mbit/s, m */
	u32 cell, sp;		/* bytes, percent */
	u32 gearbox;		/* ns */
	u16 peer;		/* quanta, 0: by speed */
	bool shared;
	u32 xon, xoff, size;	/* bytes */
};

static const struct calc_case calc_cases[] = {
	/*
	 * The worked values. 100G 5 m: on_cable = 5 x 100000 / 792 = 631.3,
	 * peer = 394 x 64 = 25216, propagation = 9100 + 631.3 + 820 + 25216
	 * = 35767.3; factor ceil(144 / 64) = 3, average packet 544 bytes,
	 * occupancy 1 + 2 x 64 / 544 = 1.2353; 1024 + 35767.3 x 1.2353 =
	 * 45207.2, xoff 46080. All small: 1024 + 3 x 35767.3 -> 108544, more
	 * than 2 KiB above: xoff 46080 + 2048 = 48128.
	 */
	{ "SONiC 100G 5 m", 100000, 5, 144, 50, 0, 0, false, 18432, 48128, 66560 },
	{ "SONiC 100G 40 m", 100000, 40, 144, 50, 0, 0, false, 18432, 53248, 71680 },
	{ "SONiC 100G 300 m", 100000, 300, 144, 50, 0, 0, false, 18432, 94208, 112640 },
	{ "SONiC 25G 5 m", 25000, 5, 144, 50, 0, 0, false, 18432, 22528, 40960 },
	/* shared headroom pool: no 2 KiB margin, size is xon alone */
	{ "SONiC 100G 5 m, shared", 100000, 5, 144, 50, 0, 0, true, 18432, 46080, 18432 },
	{ "SONiC 100G 40 m, shared", 100000, 40, 144, 50, 0, 0, true, 18432, 51200, 18432 },
	{ "SONiC 100G 300 m, shared", 100000, 300, 144, 50, 0, 0, true, 18432, 92160, 18432 },
	{ "SONiC 25G 5 m, shared", 25000, 5, 144, 50, 0, 0, true, 18432, 20480, 18432 },
	/* all packets small: occupancy 3, and no margin at 100% */
	{ "100G 5 m, 100% small", 100000, 5, 144, 100, 0, 0, false, 18432, 108544, 126976 },
	/* no small packets: still 64 / 1024 of a cell's waste (SONiC's spb) */
	{ "100G 5 m, no small", 100000, 5, 144, 0, 0, 0, false, 18432, 44032, 62464 },
	/* Spectrum-1's 96-byte cell: factor ceil(192 / 97) = 2 */
	{ "100G 5 m, cell 96", 100000, 5, 96, 50, 0, 0, false, 18432, 44032, 62464 },
	/* 1 us of gearbox: 12500 bytes each way at 100G */
	{ "100G 5 m, 1 us gearbox", 100000, 5, 144, 50, 1000, 0, false, 18432, 78848, 97280 },
	{ "100G 5 m, 10 ns gearbox", 100000, 5, 144, 50, 10, 0, false, 18432, 48128, 66560 },
	{ "100G 5 m, peer 500 quanta", 100000, 5, 144, 50, 0, 500, false, 18432, 56320, 74752 },
	{ "400G 5 m", 400000, 5, 144, 50, 0, 0, false, 18432, 90112, 108544 },
	{ "10G 5 m", 10000, 5, 144, 50, 0, 0, false, 18432, 21504, 39936 },
};

static void spectrum_params(struct lossless_headroom_params *p, u32 speed, u32 cable)
{
	*p = (struct lossless_headroom_params) {
		.speed = speed,
		.cable = cable,
		.port_mtu = 9100,
		.lossless_mtu = 1024,
		.mac_phy_delay = 820,
		.cell_size = 144,
		.small_pkt_pct = 50,
		.pipeline_latency = 18 * 1024,
	};
}

static void calc_case_desc(const struct calc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(calc, calc_cases, calc_case_desc);

static void lossless_headroom_calc_test(struct kunit *test)
{
	const struct calc_case *c = test->param_value;
	struct lossless_headroom_params p;
	struct lossless_headroom hr;

	spectrum_params(&p, c->speed, c->cable);
	p.cell_size = c->cell;
	p.small_pkt_pct = c->sp;
	p.gearbox_delay = c->gearbox;
	p.peer_quanta = c->peer;
	p.shared_pool = c->shared;
	KUNIT_ASSERT_EQ(test, lossless_headroom_calc(&p, &hr), 0);
	KUNIT_EXPECT_EQ(test, hr.xon, c->xon);
	KUNIT_EXPECT_EQ(test, hr.xoff, c->xoff);
	KUNIT_EXPECT_EQ(test, hr.size, c->size);
}

static void lossless_headroom_cell1_test(struct kunit *test)
{
	struct lossless_headroom_params p = {
		.speed = 10000, .cable = 100, .port_mtu = 1514, .lossless_mtu = 1514,
		.mac_phy_delay = LOSSLESS_HEADROOM_PAUSE_FRAME, .cell_size = 1,
	};
	struct lossless_headroom hr, soft;
	u32 sp;

	/* a byte-counted buffer: the small-packet percentage changes nothing */
	KUNIT_ASSERT_EQ(test, lossless_headroom_soft(10000, 100, 1514, 0, &soft), 0);
	KUNIT_EXPECT_EQ(test, soft.xoff, 9216U);
	for (sp = 0; sp <= 100; sp += 10) {
		p.small_pkt_pct = sp;
		KUNIT_ASSERT_EQ(test, lossless_headroom_calc(&p, &hr), 0);
		KUNIT_EXPECT_EQ(test, hr.xoff, soft.xoff);
		KUNIT_EXPECT_EQ(test, hr.size, soft.size);
	}
	/* an xon rounds up to 1 KiB and adds to the size */
	p.pipeline_latency = 1;
	KUNIT_ASSERT_EQ(test, lossless_headroom_calc(&p, &hr), 0);
	KUNIT_EXPECT_EQ(test, hr.xon, 1024U);
	KUNIT_EXPECT_EQ(test, hr.size, 9216U + 1024U);
}

struct soft_case {
	const char *name;
	u32 speed, cable, mtu;	/* Mbit/s, m, bytes */
	u16 quanta;		/* peer response; 0: by speed */
	u32 xoff;		/* bytes, also the size */
};

/*
 * xoff = ceil((2 x mtu + cable x speed / 792 + 64 + peer) / 1024) x 1024,
 * the peer 64 bytes a quantum: by speed 1 at 100 Mbit/s, 2 at 1 Gbit/s,
 * 67 at 10 Gbit/s. A software peer's response, as the qdisc's "response"
 * gives it: 100 us at 1 Gbit/s is 195.3 quanta, so 196; 1 ms at 10 Gbit/s
 * is 19531.25, so 19532.
 */
static const struct soft_case soft_cases[] = {
	{ "100 Mbit/s, veth", 100, 0, 1514, 0, 4096 },		/* 3156 */
	{ "100 Mbit/s, 100 m", 100, 100, 1514, 0, 4096 },	/* 3168.6 */
	{ "100 Mbit/s, 10 km", 100, 10000, 1514, 0, 5120 },	/* 4418.6 */
	{ "1 Gbit/s, veth", 1000, 0, 1514, 0, 4096 },		/* 3220 */
	{ "1 Gbit/s, 5 m", 1000, 5, 1514, 0, 4096 },		/* 3226.3 */
	{ "1 Gbit/s, 10 km", 1000, 10000, 1514, 0, 16384 },	/* 15846.3 */
	{ "1 Gbit/s, jumbo", 1000, 5, 9014, 0, 18432 },		/* 18226.3 */
	{ "10 Gbit/s, veth", 10000, 0, 1514, 0, 8192 },		/* 7380 */
	{ "10 Gbit/s, 5 m", 10000, 5, 1514, 0, 8192 },		/* 7443.1 */
	{ "10 Gbit/s, 100 m", 10000, 100, 1514, 0, 9216 },	/* 8642.6 */
	{ "10 Gbit/s, 1 km", 10000, 1000, 1514, 0, 20480 },	/* 20006.3 */
	{ "10 Gbit/s, jumbo", 10000, 5, 9014, 0, 22528 },	/* 22443.1 */
	{ "2.5 Gbit/s takes 10G's peer", 2500, 5, 1514, 0, 8192 },	/* 7395.8 */
	{ "40 Mbit/s takes 100M's peer", 40, 5, 1514, 0, 4096 },	/* 3156.3 */
	{ "100 Gbit/s, 5 m", 100000, 5, 1514, 0, 29696 },	/* 28939.3 */
	{ "100 Gbit/s, 300 m, jumbo", 100000, 300, 9014, 0, 81920 },	/* 81186.8 */
	{ "1 Gbit/s, peer 100 us", 1000, 0, 1514, 196, 16384 },	/* 15636 */
	{ "10 Gbit/s, peer 1 ms", 10000, 0, 1514, 19532, 1253376 },	/* 1253140 */
};

static void soft_case_desc(const struct soft_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(soft, soft_cases, soft_case_desc);

static void lossless_headroom_soft_test(struct kunit *test)
{
	const struct soft_case *c = test->param_value;
	struct lossless_headroom hr;

	KUNIT_ASSERT_EQ(test,
			lossless_headroom_soft(c->speed, c->cable, c->mtu, c->quanta, &hr), 0);
	KUNIT_EXPECT_EQ(test, hr.xon, 0U);
	KUNIT_EXPECT_EQ(test, hr.xoff, c->xoff);
	KUNIT_EXPECT_EQ(test, hr.size, c->xoff);
}

static void lossless_headroom_peer_quanta_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(1), 1);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(100), 1);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(101), 2);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(1000), 2);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(2500), 67);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(10000), 67);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(10001), 80);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(25000), 80);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(40000), 118);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(50000), 147);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(100000), 394);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(200000), 453);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(400000), 905);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(800000), 905);
	KUNIT_EXPECT_EQ(test, lossless_headroom_peer_quanta(1600000), 905);
}

static void lossless_headroom_monotonic_test(struct kunit *test)
{
	struct lossless_headroom_params p;
	struct lossless_headroom hr;
	u32 prev = 0;

	spectrum_params(&p, 100000, 0);
	/* more cable never needs less headroom */
	for (p.cable = 0; p.cable <= 2000; p.cable += 13) {
		KUNIT_ASSERT_EQ(test, lossless_headroom_calc(&p, &hr), 0);
		KUNIT_EXPECT_GE(test, hr.xoff, prev);
		KUNIT_EXPECT_EQ(test, hr.xoff % 1024, 0U);
		prev = hr.xoff;
	}
}

static void lossless_headroom_invalid_test(struct kunit *test)
{
	struct lossless_headroom_params ok, p;
	struct lossless_headroom hr = { 1, 2, 3 };

	spectrum_params(&ok, 100000, 5);
	p = ok;
	p.speed = 0;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.speed = LOSSLESS_HEADROOM_MAX_SPEED + 1;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.cable = LOSSLESS_HEADROOM_MAX_CABLE + 1;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.lossless_mtu = 63;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.port_mtu = 65536;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.cell_size = 0;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.small_pkt_pct = 101;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.gearbox_delay = LOSSLESS_HEADROOM_MAX_GEARBOX + 1;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	p = ok;
	p.mac_phy_delay = LOSSLESS_HEADROOM_MAX_DELAY + 1;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -EINVAL);
	KUNIT_EXPECT_EQ(test, lossless_headroom_soft(0, 0, 1514, 0, &hr), -EINVAL);
	/* untouched on error */
	KUNIT_EXPECT_EQ(test, hr.xon, 1U);
	KUNIT_EXPECT_EQ(test, hr.xoff, 2U);
	KUNIT_EXPECT_EQ(test, hr.size, 3U);
}

static void lossless_headroom_limits_test(struct kunit *test)
{
	struct lossless_headroom_params p = {
		.speed = LOSSLESS_HEADROOM_MAX_SPEED,
		.cable = LOSSLESS_HEADROOM_MAX_CABLE,
		.port_mtu = LOSSLESS_HEADROOM_MAX_MTU,
		.lossless_mtu = LOSSLESS_HEADROOM_MAX_MTU,
		.peer_quanta = 65535,
		.gearbox_delay = LOSSLESS_HEADROOM_MAX_GEARBOX,
		.mac_phy_delay = LOSSLESS_HEADROOM_MAX_DELAY,
		.cell_size = LOSSLESS_HEADROOM_MAX_CELL,
		.small_pkt_pct = 1,
		.pipeline_latency = LOSSLESS_HEADROOM_MAX_DELAY,
	};
	struct lossless_headroom hr;

	/* everything at its limit: exact, and still 32 bits */
	KUNIT_ASSERT_EQ(test, lossless_headroom_calc(&p, &hr), 0);
	KUNIT_EXPECT_EQ(test, hr.xon, 16777216U);
	KUNIT_EXPECT_EQ(test, hr.xoff, 1251864576U);
	KUNIT_EXPECT_EQ(test, hr.size, 1268641792U);
	/* 100 km at 1.6 Tbit/s on a byte-counted buffer */
	KUNIT_ASSERT_EQ(test, lossless_headroom_soft(LOSSLESS_HEADROOM_MAX_SPEED,
						     LOSSLESS_HEADROOM_MAX_CABLE, 65535, 0, &hr),
			0);
	KUNIT_EXPECT_EQ(test, hr.xoff, 202209280U);
	/* small lossless packets in huge cells: more than 4 GiB */
	p.lossless_mtu = 64;
	p.small_pkt_pct = 0;
	p.peer_quanta = 0;
	KUNIT_EXPECT_EQ(test, lossless_headroom_calc(&p, &hr), -ERANGE);
}

static struct kunit_case lossless_headroom_cases[] = {
	KUNIT_CASE_PARAM(lossless_headroom_calc_test, calc_gen_params),
	KUNIT_CASE(lossless_headroom_cell1_test),
	KUNIT_CASE_PARAM(lossless_headroom_soft_test, soft_gen_params),
	KUNIT_CASE(lossless_headroom_peer_quanta_test),
	KUNIT_CASE(lossless_headroom_monotonic_test),
	KUNIT_CASE(lossless_headroom_invalid_test),
	KUNIT_CASE(lossless_headroom_limits_test),
	{}
};

static struct kunit_suite lossless_headroom_suite = {
	.name = "sch_lossless_headroom",
	.test_cases = lossless_headroom_cases,
};

kunit_test_suite(lossless_headroom_suite);
