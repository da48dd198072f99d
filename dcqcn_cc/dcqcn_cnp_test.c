// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the BTH, the CNP and the ICRC.
 *
 * The reference CNPs below were computed independently of this code,
 * from the IBA's definition: the IPv4 and UDP checksums by the RFC 1071
 * sum, the ICRC as Python's zlib.crc32 of eight 0xff bytes followed by
 * the packet with the fields a router may change set to ones (IPv4: TOS,
 * TTL, IP checksum; IPv6: traffic class, flow label, hop limit; both: the
 * UDP checksum and the BTH's resv8a byte).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/string.h>
#include <net/checksum.h>

#include "dcqcn_cnp.h"

/* 192.0.2.2:0xc123 -> 192.0.2.1:4791, DSCP 48, TTL 64, id 0x1234, QP 0x11 */
static const u8 ref_cnp[ROCE_CNP_IPV4_BYTES] = {
	0x45, 0xc0, 0x00, 0x3c, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
	0xa3, 0xb9, 0xc0, 0x00, 0x02, 0x02, 0xc0, 0x00, 0x02, 0x01,
	/* UDP */
	0xc1, 0x23, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	/* BTH: 0x81, P_Key 0xffff, BECN, DestQP 0x000011, PSN 0 */
	0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x00, 0x00,
	/* reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* ICRC 0xd4c4466d, least significant byte first */
	0x6d, 0x46, 0xc4, 0xd4,
};

static const struct dcqcn_cnp_info ref_info = {
	.saddr = { .s6_addr32 = { 0, 0, cpu_to_be32(0xffff), cpu_to_be32(0xc0000202) } },
	.daddr = { .s6_addr32 = { 0, 0, cpu_to_be32(0xffff), cpu_to_be32(0xc0000201) } },
	.sport = 0xc123,
	.dscp = 48,
	.ttl = 64,
	.id = 0x1234,
	.pkey = IB_DEFAULT_PKEY,
	.dest_qp = 0x11,
};

/*
 * 2001:db8::2:0xc123 -> 2001:db8::1:4791, DSCP 48, hop limit 64, QP 0x11;
 * UDP checksum 0xed9d (over the ICRC too), ICRC 0x4e7f50a2
 */
static const u8 ref_cnp6[ROCE_CNP_IPV6_BYTES] = {
	0x6c, 0x00, 0x00, 0x00, 0x00, 0x28, 0x11, 0x40,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* UDP */
	0xc1, 0x23, 0x12, 0xb7, 0x00, 0x28, 0xed, 0x9d,
	/* BTH */
	0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x00, 0x00,
	/* reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* ICRC */
	0xa2, 0x50, 0x7f, 0x4e,
};

static const struct dcqcn_cnp_info ref_info6 = {
	.ipv6 = true,
	.saddr = { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } },
	.daddr = { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } },
	.sport = 0xc123,
	.dscp = 48,
	.ttl = 64,
	.pkey = IB_DEFAULT_PKEY,
	.dest_qp = 0x11,
};

static void dcqcn_cnp_encode_test(struct kunit *test)
{
	u8 buf[ROCE_CNP_IPV4_BYTES + 8];
	struct dcqcn_bth bth;
	unsigned int i;

	memset(buf, 0xaa, sizeof(buf));
	KUNIT_ASSERT_EQ(test, dcqcn_cnp_write(buf, sizeof(buf), &ref_info),
			ROCE_CNP_IPV4_BYTES);
	for (i = 0; i < sizeof(ref_cnp); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], ref_cnp[i], "byte %u", i);
	/* nothing written past the packet */
	KUNIT_EXPECT_EQ(test, buf[ROCE_CNP_IPV4_BYTES], 0xaa);
	KUNIT_EXPECT_TRUE(test, dcqcn_icrc_ok(buf, ROCE_CNP_IPV4_BYTES));

	KUNIT_ASSERT_EQ(test, dcqcn_bth_read(buf + 28, 12, &bth), 0);
	KUNIT_EXPECT_EQ(test, bth.opcode, ROCE_CNP_OPCODE);
	KUNIT_EXPECT_TRUE(test, bth.becn);
	KUNIT_EXPECT_FALSE(test, bth.fecn);
	KUNIT_EXPECT_EQ(test, bth.qpn, 0x11U);
	KUNIT_EXPECT_EQ(test, bth.pkey, IB_DEFAULT_PKEY);

	/* no room: nothing written */
	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_write(buf, ROCE_CNP_IPV4_BYTES - 1, &ref_info),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, buf[0], 0xaa);
}

/* What a router may change is masked out of the ICRC; nothing else is. */
static void dcqcn_icrc_mask_test(struct kunit *test)
{
	static const struct {
		unsigned int off;
		u8 xor;
		bool ok;
	} cases[] = {
		{ 1, 0x03, true },	/* ECN: a switch sets CE */
		{ 1, 0xfc, true },	/* DSCP rewritten */
		{ 8, 0x01, true },	/* TTL */
		{ 10, 0xff, true },	/* IP checksum */
		{ 26, 0x12, true },	/* UDP checksum */
		{ 32, 0xc0, true },	/* FECN, BECN: resv8a */
		{ 4, 0x01, false },	/* IP id */
		{ 12, 0x01, false },	/* source address */
		{ 20, 0x01, false },	/* UDP source port */
		{ 28, 0x01, false },	/* opcode */
		{ 35, 0x01, false },	/* DestQP */
		{ 40, 0x01, false },	/* reserved bytes */
		{ 56, 0x01, false },	/* the ICRC itself */
	};
	u8 pkt[ROCE_CNP_IPV4_BYTES];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memcpy(pkt, ref_cnp, sizeof(pkt));
		pkt[cases[i].off] ^= cases[i].xor;
		KUNIT_EXPECT_EQ_MSG(test, dcqcn_icrc_ok(pkt, sizeof(pkt)), cases[i].ok,
				    "byte %u ^ 0x%02x", cases[i].off, cases[i].xor);
	}

	/* not IPv4, or too short for UDP + BTH + ICRC */
	memcpy(pkt, ref_cnp, sizeof(pkt));
	KUNIT_EXPECT_FALSE(test, dcqcn_icrc_ok(pkt, 20 + 8 + 12 + 3));
	pkt[0] = 0x65;
	KUNIT_EXPECT_FALSE(test, dcqcn_icrc_ok(pkt, sizeof(pkt)));
	pkt[0] = 0x44;
	KUNIT_EXPECT_FALSE(test, dcqcn_icrc_ok(pkt, sizeof(pkt)));
}

static void dcqcn_bth_roundtrip_test(struct kunit *test)
{
	static const struct dcqcn_bth cases[] = {
		{ .opcode = 0x0a, .pkey = 0xffff, .qpn = 0x123456, .psn = 0xabcdef,
		  .ack = true },
		{ .opcode = 0x81, .pkey = 0x8001, .becn = true, .qpn = 1 },
		{ .opcode = 0x04, .se = true, .mig = true, .pad = 3, .tver = 0,
		  .pkey = 0x7fff, .fecn = true, .qpn = 0xffffff, .psn = 0xffffff },
	};
	struct dcqcn_bth got;
	u8 raw[IB_BTH_BYTES];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		dcqcn_bth_write(raw, &cases[i]);
		KUNIT_ASSERT_EQ(test, dcqcn_bth_read(raw, sizeof(raw), &got), 0);
		KUNIT_EXPECT_EQ(test, got.opcode, cases[i].opcode);
		KUNIT_EXPECT_EQ(test, got.se, cases[i].se);
		KUNIT_EXPECT_EQ(test, got.mig, cases[i].mig);
		KUNIT_EXPECT_EQ(test, got.pad, cases[i].pad);
		KUNIT_EXPECT_EQ(test, got.pkey, cases[i].pkey);
		KUNIT_EXPECT_EQ(test, got.fecn, cases[i].fecn);
		KUNIT_EXPECT_EQ(test, got.becn, cases[i].becn);
		KUNIT_EXPECT_EQ(test, got.qpn, cases[i].qpn);
		KUNIT_EXPECT_EQ(test, got.ack, cases[i].ack);
		KUNIT_EXPECT_EQ(test, got.psn, cases[i].psn);
	}
	/* the wire layout of the first: 0a 00 ff ff 00 12 34 56 80 ab cd ef */
	dcqcn_bth_write(raw, &cases[0]);
	KUNIT_EXPECT_EQ(test, raw[0], 0x0a);
	KUNIT_EXPECT_EQ(test, raw[5], 0x12);
	KUNIT_EXPECT_EQ(test, raw[7], 0x56);
	KUNIT_EXPECT_EQ(test, raw[8], 0x80);
	KUNIT_EXPECT_EQ(test, raw[11], 0xef);
	/* a QP number wider than 24 bits does not spill into FECN/BECN */
	got = cases[1];
	got.qpn = 0xff000001;
	got.becn = false;
	dcqcn_bth_write(raw, &got);
	KUNIT_EXPECT_EQ(test, raw[4], 0x00);

	KUNIT_EXPECT_EQ(test, dcqcn_bth_read(raw, IB_BTH_BYTES - 1, &got), -EINVAL);
}

/* What is taken as a CNP, and why the rest is not. */
static void dcqcn_cnp_check_test(struct kunit *test)
{
	u8 pkt[ROCE_CNP_IPV4_BYTES];
	struct dcqcn_bth bth;
	__wsum sum;
	u16 check;

	memcpy(pkt, ref_cnp, sizeof(pkt));
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_OK);
	KUNIT_EXPECT_EQ(test, bth.qpn, 0x11U);
	/* a switch's CE mark on the way: the ICRC does not cover the TOS */
	pkt[1] |= 3;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_OK);

	/* a right UDP checksum is taken (the ICRC does not cover it), a wrong one not */
	memcpy(pkt, ref_cnp, sizeof(pkt));
	sum = csum_partial(pkt + 20, 8 + ROCE_CNP_UDP_PAYLOAD, 0);
	check = (__force u16)csum_tcpudp_magic(ref_info.saddr.s6_addr32[3],
					       ref_info.daddr.s6_addr32[3],
					       8 + ROCE_CNP_UDP_PAYLOAD, IPPROTO_UDP, sum);
	memcpy(pkt + 26, &check, 2);
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_OK);
	pkt[27] ^= 1;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_BAD_CSUM);

	/* a bit of the QP number changed on the way */
	memcpy(pkt, ref_cnp, sizeof(pkt));
	pkt[35] ^= 1;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_BAD_ICRC);
	memcpy(pkt, ref_cnp, sizeof(pkt));
	pkt[ROCE_CNP_IPV4_BYTES - 1] ^= 0x80;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_BAD_ICRC);

	memcpy(pkt, ref_cnp, sizeof(pkt));
	pkt[32] &= ~0x40;				/* BECN */
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_NO_BECN);

	memcpy(pkt, ref_cnp, sizeof(pkt));
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt) - 1, &bth),
			DCQCN_CNP_MALFORMED);
	pkt[6] |= 0x20;					/* more fragments */
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_MALFORMED);
	memcpy(pkt, ref_cnp, sizeof(pkt));
	pkt[25] = 0x24;					/* UDP length 36 */
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_MALFORMED);
	memcpy(pkt, ref_cnp, sizeof(pkt));
	pkt[28] = 0x80;					/* not the CNP opcode */
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(pkt, sizeof(pkt), &bth), DCQCN_CNP_MALFORMED);
}

/* The IPv6 CNP: written byte for byte, and what is taken of it. */
static void dcqcn_cnp6_test(struct kunit *test)
{
	u8 buf[ROCE_CNP_IPV6_BYTES + 8];
	struct dcqcn_bth bth;
	unsigned int i;

	memset(buf, 0xaa, sizeof(buf));
	KUNIT_ASSERT_EQ(test, dcqcn_cnp_write(buf, sizeof(buf), &ref_info6), ROCE_CNP_IPV6_BYTES);
	for (i = 0; i < sizeof(ref_cnp6); i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], ref_cnp6[i], "byte %u", i);
	KUNIT_EXPECT_EQ(test, buf[ROCE_CNP_IPV6_BYTES], 0xaa);
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_write(buf, ROCE_CNP_IPV6_BYTES - 1, &ref_info6), -ENOSPC);

	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_OK);
	KUNIT_EXPECT_EQ(test, bth.qpn, 0x11U);
	/* CE, a new DSCP, a flow label, another hop limit: all masked */
	buf[1] |= 0x3f;
	buf[3] = 0x42;
	buf[7] = 3;
	KUNIT_EXPECT_TRUE(test, dcqcn_icrc_ok(buf, ROCE_CNP_IPV6_BYTES));
	/* no UDP checksum (what rxe sends): taken; a wrong one: not */
	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	buf[46] = 0;
	buf[47] = 0;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_OK);
	buf[47] = 1;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_BAD_CSUM);
	/* the source address is in the ICRC (and the UDP checksum) */
	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	buf[23] ^= 1;
	KUNIT_EXPECT_FALSE(test, dcqcn_icrc_ok(buf, ROCE_CNP_IPV6_BYTES));
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_BAD_CSUM);
	buf[46] = 0;
	buf[47] = 0;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_BAD_ICRC);
	/* an extension header, a payload length that is not a CNP's, no BECN */
	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	buf[6] = 0;					/* hop-by-hop options */
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth),
			DCQCN_CNP_MALFORMED);
	KUNIT_EXPECT_FALSE(test, dcqcn_icrc_ok(buf, ROCE_CNP_IPV6_BYTES));
	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	buf[5] = 0x29;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth),
			DCQCN_CNP_MALFORMED);
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(ref_cnp6, ROCE_CNP_IPV6_BYTES - 1, &bth),
			DCQCN_CNP_MALFORMED);
	memcpy(buf, ref_cnp6, sizeof(ref_cnp6));
	buf[52] &= ~0x40;
	KUNIT_EXPECT_EQ(test, dcqcn_cnp_check(buf, ROCE_CNP_IPV6_BYTES, &bth), DCQCN_CNP_NO_BECN);
}

static struct kunit_case dcqcn_cnp_cases[] = {
	KUNIT_CASE(dcqcn_cnp_encode_test),
	KUNIT_CASE(dcqcn_cnp_check_test),
	KUNIT_CASE(dcqcn_cnp6_test),
	KUNIT_CASE(dcqcn_icrc_mask_test),
	KUNIT_CASE(dcqcn_bth_roundtrip_test),
	{}
};

static struct kunit_suite dcqcn_cnp_suite = {
	.name = "dcqcn_cnp",
	.test_cases = dcqcn_cnp_cases,
};

kunit_test_suite(dcqcn_cnp_suite);
