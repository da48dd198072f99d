// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the classification of sch_lossless.
 */
#include <kunit/test.h>
#include <linux/pkt_sched.h>

#include "lossless_classify.h"

struct prio_case {
	const char *name;
	bool tagged;
	u16 tci;
	u32 skb_priority;
	u8 prio;
};

static const struct prio_case prio_cases[] = {
	{ "untagged priority 0", false, 0, 0, 0 },
	{ "untagged priority 3", false, 0, 3, 3 },
	{ "untagged priority 7", false, 0, 7, 7 },
	{ "untagged priority 8 is best effort", false, 0, 8, 0 },
	{ "untagged TC_PRIO_CONTROL (7) is priority 7", false, 0, 7, 7 },
	{ "untagged TC_PRIO_MAX (15) is best effort", false, 0, 15, 0 },
	{ "untagged classid is best effort", false, 0, 0x10003, 0 },
	{ "tag PCP 0", true, 0x0064, 5, 0 },
	{ "tag PCP 3 wins over skb->priority", true, 0x6064, 5, 3 },
	{ "tag PCP 7 with DEI", true, 0xf000, 0, 7 },
	{ "tag PCP 5 VID 4095", true, 0xafff, 0, 5 },
};

static void prio_case_desc(const struct prio_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(prio, prio_cases, prio_case_desc);

static void lossless_packet_prio_test(struct kunit *test)
{
	const struct prio_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, lossless_packet_prio(c->tagged, c->tci, c->skb_priority), c->prio);
}

static void lossless_pcp_of_tci_test(struct kunit *test)
{
	u16 pcp;

	for (pcp = 0; pcp < 8; pcp++) {
		KUNIT_EXPECT_EQ(test, lossless_pcp_of_tci(pcp << 13), pcp);
		KUNIT_EXPECT_EQ(test, lossless_pcp_of_tci((pcp << 13) | 0x1fff), pcp);
	}
}

static void lossless_prio_map_test(struct kunit *test)
{
	struct lossless_prio_map map;
	u8 prio;

	lossless_prio_map_identity(&map);
	for (prio = 0; prio < TC_LOSSLESS_NUM_PRIO; prio++)
		KUNIT_EXPECT_EQ(test, lossless_prio_to_tc(&map, prio), prio);

	map.tc[3] = 6;
	KUNIT_EXPECT_EQ(test, lossless_prio_to_tc(&map, 3), 6);
	KUNIT_EXPECT_EQ(test, lossless_prio_to_tc(&map, 3 + TC_LOSSLESS_NUM_PRIO), 6);
}

static void lossless_dscp_map_test(struct kunit *test)
{
	struct lossless_dscp_map map;

	lossless_dscp_map_default(&map);
	/* the class selector: DSCP / 8; the ECN bits do not matter */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 0x00), 0);
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 0x03), 0);	/* CE */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 7 << 2), 0);	/* DSCP 7 */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 8 << 2), 1);	/* CS1 */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, (26 << 2) | 2), 3);	/* AF31, ECT(0) */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 46 << 2), 5);	/* EF */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 48 << 2), 6);	/* CS6, the CNPs' */
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 0xff), 7);	/* DSCP 63 */

	map.prio[26] = 3;
	map.prio[46] = 2;
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 46 << 2), 2);
	KUNIT_EXPECT_EQ(test, lossless_dscp_to_prio(&map, 47 << 2), 5);
}

static void lossless_direct_tc_test(struct kunit *test)
{
	u32 handle = 0x10000;

	KUNIT_EXPECT_EQ(test, lossless_direct_tc(TC_H_MAKE(handle, 1), handle), 0);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(TC_H_MAKE(handle, 8), handle), 7);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(TC_H_MAKE(handle, 0), handle), -1);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(TC_H_MAKE(handle, 9), handle), -1);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(TC_H_MAKE(0x20000, 1), handle), -1);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(3, handle), -1);
	KUNIT_EXPECT_EQ(test, lossless_direct_tc(3, 0), -1);
}

static struct kunit_case lossless_classify_cases[] = {
	KUNIT_CASE_PARAM(lossless_packet_prio_test, prio_gen_params),
	KUNIT_CASE(lossless_pcp_of_tci_test),
	KUNIT_CASE(lossless_prio_map_test),
	KUNIT_CASE(lossless_dscp_map_test),
	KUNIT_CASE(lossless_direct_tc_test),
	{}
};

static struct kunit_suite lossless_classify_suite = {
	.name = "sch_lossless_classify",
	.test_cases = lossless_classify_cases,
};

kunit_test_suite(lossless_classify_suite);
