// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of aiecnd's netlink messages and of its kernel-free parts,
 * TAP output. The kernel's replies are laid out here by hand, the way
 * sch_lossless and the tc core lay them out. Exit status 1 on any failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/gen_stats.h>
#include <linux/lossless_dcqcn.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "aiecn_nl.h"
#include "aiecnd.h"
#include "tap.h"

/*
 * A message laid out by hand. The buffer is 8-byte aligned, so offsets
 * mod 8 are addresses mod 8, as in the kernel's skb.
 */
struct tmsg {
	uint64_t mem[2048];
	size_t off;
};

static uint8_t *tbytes(struct tmsg *m)
{
	return (uint8_t *)m->mem;
}

/* An attribute as nla_put() makes it: header, payload, zeroed padding */
static size_t tput(struct tmsg *m, uint16_t type, const void *data, size_t n)
{
	uint16_t len = (uint16_t)(4 + n);
	size_t at = m->off;
	uint8_t *p = tbytes(m) + at;

	memcpy(p, &len, 2);
	memcpy(p + 2, &type, 2);
	if (n)
		memcpy(p + 4, data, n);
	memset(p + len, 0, ((len + 3u) & ~3u) - len);
	m->off += (len + 3u) & ~3u;
	return at;
}

static void tput_u8(struct tmsg *m, uint16_t type, uint8_t v)
{
	tput(m, type, &v, 1);
}

static void tput_u32(struct tmsg *m, uint16_t type, uint32_t v)
{
	tput(m, type, &v, 4);
}

/* nla_put_u64_64bit(): a PAD attribute first if the payload would be misaligned */
static void tput_u64(struct tmsg *m, uint16_t type, uint64_t v, uint16_t pad)
{
	if ((m->off + 4) % 8)
		tput(m, pad, NULL, 0);
	tput(m, type, &v, 8);
}

static void tnest_end(struct tmsg *m, size_t at)
{
	uint16_t len = (uint16_t)(m->off - at);

	memcpy(tbytes(m) + at, &len, 2);
}

/* nlmsghdr and tcmsg */
static void tstart(struct tmsg *m, uint16_t type, uint32_t seq, int ifindex, uint32_t handle,
		   uint32_t parent)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = seq, .nlmsg_pid = 4242 };
	struct tcmsg t = {
		.tcm_ifindex = ifindex,
		.tcm_handle = handle,
		.tcm_parent = parent,
		.tcm_info = 1,
	};

	memset(m, 0, sizeof(*m));
	memcpy(tbytes(m), &h, sizeof(h));
	memcpy(tbytes(m) + NLMSG_HDRLEN, &t, sizeof(t));
	m->off = NLMSG_SPACE(sizeof(t));
}

static size_t tfinish(struct tmsg *m)
{
	uint32_t len = (uint32_t)m->off;

	memcpy(tbytes(m), &len, 4);
	return m->off;
}

/* The values the canned reply reports for traffic class @tc */
static uint64_t v_tx(int tc)
{
	return (1ull << 32) + 1000000ull * (tc + 1);	/* above 32 bits */
}

static uint64_t v_hist(int tc, int b)
{
	return (1ull << 40) + 1000ull * (tc + 1) + b;
}

#define V_MARKED(tc)	(11ull * ((tc) + 1))
#define V_XOFF(tc)	(22ull * ((tc) + 1))
#define V_PFC_RX(tc)	(33ull * ((tc) + 1))
#define V_IN(tc)	((1ull << 33) + 44ull * ((tc) + 1))
#define V_BACKLOG(tc)	(555u * ((tc) + 1))
#define V_SPEED		1250000000ull
#define T_IFINDEX	7
#define T_HANDLE	0x00010000u

/* What build_qdisc_reply() leaves out or breaks */
#define OMIT_ECN_TC2	0x01	/* class 2 without ECN_MARKED and IN */
#define OMIT_QHIST_TC5	0x02
#define OMIT_TC_TC1	0x04
#define OMIT_TX_TC3	0x08
#define OMIT_APP	0x10
#define DUP_TC		0x20	/* class 7 reports itself as class 6 */
#define BAD_SPEED_LEN	0x40
#define OMIT_SPEED	0x80
#define RATE_BELOW	0x100	/* a port shaper slower than the link */
#define RATE_ABOVE	0x200	/* one faster than the link */
#define BAD_RATE_LEN	0x400
#define V_RATE_BELOW	2500000ull

static size_t qhist_payload_off;	/* of the last QHIST laid out */

/* One class nest in lossless_put_class_stats()'s order */
static void put_class(struct tmsg *m, int tc, unsigned int how)
{
	uint64_t hist[TC_LOSSLESS_QHIST_BUCKETS];
	/* the kernel's nests carry no NLA_F_NESTED; a parser must take both */
	uint16_t type = TCA_LOSSLESS_STATS_CLASS | (tc == 4 ? NLA_F_NESTED : 0);
	size_t nest = tput(m, type, NULL, 0);
	int b;

	if (!(tc == 1 && (how & OMIT_TC_TC1)))
		tput_u32(m, TCA_LOSSLESS_STATS_TC, tc == 7 && (how & DUP_TC) ? 6 : tc);
	if (!(tc == 2 && (how & OMIT_ECN_TC2)))
		tput_u64(m, TCA_LOSSLESS_STATS_ECN_MARKED, V_MARKED(tc), TCA_LOSSLESS_STATS_PAD);
	tput_u32(m, TCA_LOSSLESS_STATS_PEAK_BACKLOG, 99999);
	tput_u64(m, TCA_LOSSLESS_STATS_LIMIT_DROPS, 0xdead, TCA_LOSSLESS_STATS_PAD);
	tput_u64(m, TCA_LOSSLESS_STATS_PFC_RX, V_PFC_RX(tc), TCA_LOSSLESS_STATS_PAD);
	tput_u64(m, TCA_LOSSLESS_STATS_PFC_TX_XOFF, V_XOFF(tc), TCA_LOSSLESS_STATS_PAD);
	tput_u32(m, TCA_LOSSLESS_STATS_HEADROOM, 12345);
	tput_u8(m, TCA_LOSSLESS_STATS_PAUSING, 1);
	tput_u8(m, TCA_LOSSLESS_STATS_WD_STATE, 0);
	tput_u64(m, TCA_LOSSLESS_STATS_WD_DETECTED, 0xbeef, TCA_LOSSLESS_STATS_PAD);
	if (!(tc == 2 && (how & OMIT_ECN_TC2)))
		tput_u64(m, TCA_LOSSLESS_STATS_IN, V_IN(tc), TCA_LOSSLESS_STATS_PAD);
	tput_u64(m, TCA_LOSSLESS_STATS_FLUSHED, 0xf1, TCA_LOSSLESS_STATS_PAD);
	for (b = 0; b < TC_LOSSLESS_QHIST_BUCKETS; b++)
		hist[b] = v_hist(tc, b);
	if (!(tc == 5 && (how & OMIT_QHIST_TC5))) {
		qhist_payload_off = m->off + 4;
		tput(m, TCA_LOSSLESS_STATS_QHIST, hist, sizeof(hist));
	}
	if (!(tc == 3 && (how & OMIT_TX_TC3)))
		tput_u64(m, TCA_LOSSLESS_STATS_TX_BYTES, v_tx(tc), TCA_LOSSLESS_STATS_PAD);
	tput_u32(m, TCA_LOSSLESS_STATS_BACKLOG, V_BACKLOG(tc));
	tnest_end(m, nest);
}

/* An RTM_NEWQDISC as tc_fill_qdisc() and lossless_dump_stats() make it */
static size_t build_qdisc_reply(struct tmsg *m, const char *kind, unsigned int how)
{
	uint8_t basic[16] = { 1, 2, 3 }, queue[20] = { 4, 5, 6 };
	size_t opts, stats2, app, dcqcn, qp;
	uint32_t short_speed = 5;
	int tc;

	tstart(m, RTM_NEWQDISC, 77, T_IFINDEX, T_HANDLE, TC_H_ROOT);
	tput(m, TCA_KIND, kind, strlen(kind) + 1);
	opts = tput(m, TCA_OPTIONS, NULL, 0);
	tput_u32(m, TCA_LOSSLESS_BUFFER, 1 << 20);
	tput_u8(m, TCA_LOSSLESS_TRUST, 1);
	tput_u64(m, TCA_LOSSLESS_SPEED, 0, TCA_LOSSLESS_PAD);
	if (how & RATE_BELOW)
		tput_u64(m, TCA_LOSSLESS_RATE, V_RATE_BELOW, TCA_LOSSLESS_PAD);
	else if (how & RATE_ABOVE)
		tput_u64(m, TCA_LOSSLESS_RATE, 2 * V_SPEED, TCA_LOSSLESS_PAD);
	else if (how & BAD_RATE_LEN)
		tput(m, TCA_LOSSLESS_RATE, &short_speed, 4);
	tnest_end(m, opts);
	tput_u8(m, TCA_HW_OFFLOAD, 0);
	stats2 = tput(m, TCA_STATS2, NULL, 0);
	if (!(how & OMIT_APP)) {
		app = tput(m, TCA_STATS_APP, NULL, 0);
		tput_u64(m, TCA_LOSSLESS_STATS_THROTTLED, 3, TCA_LOSSLESS_STATS_PAD);
		tput_u64(m, TCA_LOSSLESS_STATS_PFC_RX_BAD, 4, TCA_LOSSLESS_STATS_PAD);
		if (how & BAD_SPEED_LEN)
			tput(m, TCA_LOSSLESS_STATS_SPEED, &short_speed, 4);
		else if (!(how & OMIT_SPEED))
			tput_u64(m, TCA_LOSSLESS_STATS_SPEED, V_SPEED, TCA_LOSSLESS_STATS_PAD);
		tput_u32(m, TCA_LOSSLESS_STATS_MTU, 1514);
		tput_u32(m, TCA_LOSSLESS_STATS_WD_POLL_US, 1000);
		/* the port's own IN, outside the class nests: not a class's */
		tput_u64(m, TCA_LOSSLESS_STATS_IN, 0x1111, TCA_LOSSLESS_STATS_PAD);
		tput_u64(m, TCA_LOSSLESS_STATS_FLUSHED, 0x2222, TCA_LOSSLESS_STATS_PAD);
		/* DCQCN statistics with a QP nest: skipped whole */
		dcqcn = tput(m, TCA_LOSSLESS_STATS_DCQCN, NULL, 0);
		tput_u64(m, TCA_LOSSLESS_DCQCN_STATS_NP_ECN_MARKED, 9,
			 TCA_LOSSLESS_DCQCN_STATS_PAD);
		qp = tput(m, TCA_LOSSLESS_DCQCN_STATS_QP, NULL, 0);
		tput_u32(m, TCA_LOSSLESS_DCQCN_QP_PEER, 0x0100000a);
		tput_u32(m, TCA_LOSSLESS_DCQCN_QP_PEER_QPN, 17);
		tnest_end(m, qp);
		tnest_end(m, dcqcn);
		for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++)
			put_class(m, tc, how);
		tnest_end(m, app);
	}
	if ((m->off + 4) % 8)
		tput(m, TCA_STATS_PAD, NULL, 0);
	tput(m, TCA_STATS_BASIC, basic, sizeof(basic));
	tput(m, TCA_STATS_QUEUE, queue, sizeof(queue));
	tnest_end(m, stats2);
	return tfinish(m);
}

static void test_qdisc_parse(void)
{
	struct aiecn_nl_qdisc_stats st;
	struct tmsg m;
	char err[256] = "";
	size_t len = build_qdisc_reply(&m, "lossless", 0);
	int tc, b, ret;

	CHECK_EQ(qhist_payload_off % 8, 4);	/* the case memcpy() is for */
	ret = aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err));
	if (!CHECK_EQ(ret, 0)) {
		note("err: %s", err);
		return;
	}
	CHECK_EQ(st.ifindex, T_IFINDEX);
	CHECK_EQ(st.handle, T_HANDLE);
	CHECK_EQ(st.parent, TC_H_ROOT);
	CHECK(st.have_speed);
	CHECK_EQ(st.speed, V_SPEED);
	CHECK_EQ(st.rate, 0);
	CHECK_EQ(st.class_mask, 0xff);
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		const struct aiecn_nl_class_stats *c = &st.cls[tc];

		CHECK_EQ(c->tc, tc);
		CHECK_EQ(c->have, AIECN_NL_HAVE_BACKLOG | AIECN_NL_HAVE_ECN_MARKED |
			 AIECN_NL_HAVE_PFC_TX_XOFF | AIECN_NL_HAVE_PFC_RX | AIECN_NL_HAVE_IN);
		CHECK_EQ(c->tx_bytes, v_tx(tc));
		CHECK_EQ(c->backlog, V_BACKLOG(tc));
		CHECK_EQ(c->ecn_marked, V_MARKED(tc));
		CHECK_EQ(c->pfc_tx_xoff, V_XOFF(tc));
		CHECK_EQ(c->pfc_rx, V_PFC_RX(tc));
		CHECK_EQ(c->in, V_IN(tc));
		for (b = 0; b < TC_LOSSLESS_QHIST_BUCKETS; b++)
			CHECK_EQ(c->qhist[b], v_hist(tc, b));
	}
	/* More bytes after the message (a datagram's next one) change nothing */
	ret = aiecn_nl_parse_qdisc(tbytes(&m), len + 64, &st, err, sizeof(err));
	CHECK_EQ(ret, 0);
}

static void test_qdisc_optional(void)
{
	struct aiecn_nl_qdisc_stats st;
	struct tmsg m;
	char err[256] = "";
	size_t len;
	int ret;

	/* Counters a kernel may lack are marked missing */
	len = build_qdisc_reply(&m, "lossless", OMIT_ECN_TC2 | OMIT_SPEED);
	ret = aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err));
	if (!CHECK_EQ(ret, 0))
		note("err: %s", err);
	CHECK(!st.have_speed);
	CHECK(!(st.cls[2].have & AIECN_NL_HAVE_ECN_MARKED));
	CHECK(!(st.cls[2].have & AIECN_NL_HAVE_IN));
	CHECK(st.cls[2].have & AIECN_NL_HAVE_PFC_RX);
	CHECK_EQ(st.cls[2].ecn_marked, 0);
	CHECK_EQ(st.cls[2].tx_bytes, v_tx(2));
	CHECK(st.cls[3].have & AIECN_NL_HAVE_ECN_MARKED);

	/* A port shaped below its link drains at the shaper's rate ... */
	len = build_qdisc_reply(&m, "lossless", RATE_BELOW);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), 0);
	CHECK_EQ(st.rate, V_RATE_BELOW);
	CHECK(st.have_speed);
	CHECK_EQ(st.speed, V_RATE_BELOW);
	/* ... even when the link's speed is not reported ... */
	len = build_qdisc_reply(&m, "lossless", RATE_BELOW | OMIT_SPEED);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), 0);
	CHECK(st.have_speed);
	CHECK_EQ(st.speed, V_RATE_BELOW);
	/* ... and one shaped above it at the link's speed */
	len = build_qdisc_reply(&m, "lossless", RATE_ABOVE);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), 0);
	CHECK_EQ(st.rate, 2 * V_SPEED);
	CHECK_EQ(st.speed, V_SPEED);

	/* TC, TX_BYTES and QHIST are required */
	len = build_qdisc_reply(&m, "lossless", OMIT_QHIST_TC5);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "QHIST");
	len = build_qdisc_reply(&m, "lossless", OMIT_TC_TC1);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "STATS_TC");
	len = build_qdisc_reply(&m, "lossless", OMIT_TX_TC3);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "TX_BYTES");
	len = build_qdisc_reply(&m, "lossless", OMIT_APP);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "TCA_STATS_APP");
	len = build_qdisc_reply(&m, "lossless", DUP_TC);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "twice");
	len = build_qdisc_reply(&m, "lossless", BAD_SPEED_LEN);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "TCA_LOSSLESS_STATS_SPEED");
	len = build_qdisc_reply(&m, "lossless", BAD_RATE_LEN);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
	CHECK_HAS(err, "TCA_LOSSLESS_RATE");
}

static void test_qdisc_bad(void)
{
	struct aiecn_nl_qdisc_stats st;
	struct tmsg m;
	char err[256] = "";
	uint16_t huge = 0xfff0, type;
	uint32_t nlen;
	size_t len;

	len = build_qdisc_reply(&m, "fq_codel", 0);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -ENOENT);
	CHECK_HAS(err, "fq_codel");

	/* Fewer bytes than the header says */
	len = build_qdisc_reply(&m, "lossless", 0);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len - 8, &st, err, sizeof(err)), -EPROTO);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), 10, &st, err, sizeof(err)), -EPROTO);
	/* A header too short for the tcmsg */
	nlen = NLMSG_HDRLEN + 8;
	memcpy(tbytes(&m), &nlen, 4);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);

	/* An attribute longer than what holds it */
	len = build_qdisc_reply(&m, "lossless", 0);
	memcpy(tbytes(&m) + NLMSG_SPACE(sizeof(struct tcmsg)), &huge, 2);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);

	/* Another message type */
	len = build_qdisc_reply(&m, "lossless", 0);
	type = RTM_NEWTCLASS;
	memcpy(tbytes(&m) + 4, &type, 2);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);

	/* A kind without its NUL */
	tstart(&m, RTM_NEWQDISC, 1, T_IFINDEX, T_HANDLE, TC_H_ROOT);
	tput(&m, TCA_KIND, "lossless", 8);
	len = tfinish(&m);
	CHECK_EQ(aiecn_nl_parse_qdisc(tbytes(&m), len, &st, err, sizeof(err)), -EPROTO);
}

/* Walks a request's attributes the way the kernel's nla_parse does */
struct rattr {
	uint16_t len, type;
	const uint8_t *data;
};

static int rattrs(const uint8_t *p, size_t n, struct rattr *out, int max)
{
	size_t step;
	int k = 0;

	while (n >= 4 && k < max) {
		memcpy(&out[k].len, p, 2);
		memcpy(&out[k].type, p + 2, 2);
		out[k].data = p + 4;
		if (out[k].len < 4 || out[k].len > n)
			return -1;
		step = (out[k].len + 3u) & ~3u;
		if (step > n)
			step = n;
		p += step;
		n -= step;
		k++;
	}
	return n ? -1 : k;
}

static uint32_t rget_u32(const struct rattr *a)
{
	uint32_t v;

	memcpy(&v, a->data, 4);
	return v;
}

static void test_class_change(void)
{
	const struct aiecn_nl_ecn ecn = {
		.enabled = 1, .kmin = 8500, .kmax = 34000, .pmax = 20 * 10000,
	};
	uint64_t mem[64];
	const uint8_t *buf = (const uint8_t *)mem;
	struct rattr top[8], in[8];
	struct nlmsghdr h;
	struct tcmsg t;
	int len, n, i;

	memset(mem, 0xa5, sizeof(mem));		/* padding must come out zero */
	len = aiecn_nl_build_class_change(mem, sizeof(mem), 4711, 9, 0x00020000, 0x00020004,
					  &ecn);
	if (!CHECK(len > 0))
		return;
	memcpy(&h, buf, sizeof(h));
	CHECK_EQ(h.nlmsg_len, len);
	CHECK_EQ(h.nlmsg_type, RTM_NEWTCLASS);
	CHECK_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	CHECK_EQ(h.nlmsg_seq, 4711);
	CHECK_EQ(h.nlmsg_pid, 0);
	memcpy(&t, buf + NLMSG_HDRLEN, sizeof(t));
	CHECK_EQ(t.tcm_family, AF_UNSPEC);
	CHECK_EQ(t.tcm__pad1, 0);
	CHECK_EQ(t.tcm__pad2, 0);
	CHECK_EQ(t.tcm_ifindex, 9);
	CHECK_EQ(t.tcm_parent, 0x00020000);
	CHECK_EQ(t.tcm_handle, 0x00020004);
	CHECK_EQ(t.tcm_info, 0);

	n = rattrs(buf + NLMSG_SPACE(sizeof(t)), len - NLMSG_SPACE(sizeof(t)), top, 8);
	if (!CHECK_EQ(n, 2))
		return;
	CHECK_EQ(top[0].type, TCA_KIND);
	CHECK_EQ(top[0].len, 4 + 9);
	CHECK(!memcmp(top[0].data, "lossless", 9));
	for (i = top[0].len; i < 16; i++)
		CHECK_EQ(top[0].data[i - 4], 0);
	CHECK_EQ(top[1].type, TCA_OPTIONS | NLA_F_NESTED);
	CHECK_EQ(top[1].len, 4 + 8 + 3 * 8);
	n = rattrs(top[1].data, top[1].len - 4, in, 8);
	if (!CHECK_EQ(n, 4))
		return;
	CHECK_EQ(in[0].type, TCA_LOSSLESS_CLASS_ECN);
	CHECK_EQ(in[0].len, 5);
	CHECK_EQ(in[0].data[0], 1);
	CHECK_EQ(in[0].data[1] | in[0].data[2] | in[0].data[3], 0);
	CHECK_EQ(in[1].type, TCA_LOSSLESS_CLASS_KMIN);
	CHECK_EQ(in[1].len, 8);
	CHECK_EQ(rget_u32(&in[1]), 8500);
	CHECK_EQ(in[2].type, TCA_LOSSLESS_CLASS_KMAX);
	CHECK_EQ(in[2].len, 8);
	CHECK_EQ(rget_u32(&in[2]), 34000);
	CHECK_EQ(in[3].type, TCA_LOSSLESS_CLASS_PMAX);
	CHECK_EQ(in[3].len, 8);
	CHECK_EQ(rget_u32(&in[3]), 200000);
	CHECK_EQ(len, NLMSG_SPACE(sizeof(t)) + 16 + 4 + 32);

	/* Too small a buffer, at every size short of it */
	for (i = 0; i < len; i += 4)
		CHECK_EQ(aiecn_nl_build_class_change(mem, (size_t)i, 1, 9, 0x00020000,
						     0x00020004, &ecn), -ENOSPC);
	CHECK_EQ(aiecn_nl_build_class_change(mem, (size_t)len, 1, 9, 0x00020000, 0x00020004,
					     &ecn), len);
}

static void test_requests(void)
{
	uint64_t mem[16];
	const uint8_t *buf = (const uint8_t *)mem;
	struct nlmsghdr h;
	struct tcmsg t;
	int len;

	len = aiecn_nl_build_qdisc_get(mem, sizeof(mem), 5, 12);
	CHECK_EQ(len, NLMSG_SPACE(sizeof(t)));
	memcpy(&h, buf, sizeof(h));
	memcpy(&t, buf + NLMSG_HDRLEN, sizeof(t));
	CHECK_EQ(h.nlmsg_len, len);
	CHECK_EQ(h.nlmsg_type, RTM_GETQDISC);
	/* not a dump; the echo is what brings the reply to us */
	CHECK_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_ECHO | NLM_F_ACK);
	CHECK_EQ(h.nlmsg_seq, 5);
	CHECK_EQ(t.tcm_ifindex, 12);
	CHECK_EQ(t.tcm_parent, TC_H_ROOT);
	CHECK_EQ(t.tcm_handle, 0);

	len = aiecn_nl_build_class_dump(mem, sizeof(mem), 6, 12, 0x00010000);
	CHECK_EQ(len, NLMSG_SPACE(sizeof(t)));
	memcpy(&h, buf, sizeof(h));
	memcpy(&t, buf + NLMSG_HDRLEN, sizeof(t));
	CHECK_EQ(h.nlmsg_type, RTM_GETTCLASS);
	CHECK_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	CHECK_EQ(h.nlmsg_seq, 6);
	CHECK_EQ(t.tcm_ifindex, 12);
	CHECK_EQ(t.tcm_parent, 0x00010000);
	CHECK_EQ(aiecn_nl_build_qdisc_get(mem, 20, 5, 12), -ENOSPC);
}

/* An RTM_NEWTCLASS as lossless_class_dump() makes it */
static size_t build_class_reply(struct tmsg *m, const char *kind, int with_xoff)
{
	size_t opts;

	tstart(m, RTM_NEWTCLASS, 3, T_IFINDEX, T_HANDLE | 4, TC_H_ROOT);
	tput(m, TCA_KIND, kind, strlen(kind) + 1);
	opts = tput(m, TCA_OPTIONS, NULL, 0);
	tput(m, TCA_LOSSLESS_CLASS_STRICT, NULL, 0);
	tput_u32(m, TCA_LOSSLESS_CLASS_LIMIT, 1 << 20);
	tput_u8(m, TCA_LOSSLESS_CLASS_ECN, 1);
	tput_u32(m, TCA_LOSSLESS_CLASS_KMIN, 5120);
	tput_u32(m, TCA_LOSSLESS_CLASS_KMAX, 204800);
	tput_u32(m, TCA_LOSSLESS_CLASS_PMAX, 5000);
	if (with_xoff)
		tput_u32(m, TCA_LOSSLESS_CLASS_XOFF, 65536);
	tput_u32(m, TCA_LOSSLESS_CLASS_XON, 32768);
	tput_u32(m, TCA_LOSSLESS_CLASS_HEADROOM, 0);
	tnest_end(m, opts);
	return tfinish(m);
}

static void test_class_parse(void)
{
	struct aiecn_nl_class_cfg cfg;
	struct tmsg m;
	char err[256] = "";
	size_t len;
	int ret;

	len = build_class_reply(&m, "lossless", 1);
	ret = aiecn_nl_parse_class(tbytes(&m), len, &cfg, err, sizeof(err));
	if (!CHECK_EQ(ret, 0))
		note("err: %s", err);
	CHECK_EQ(cfg.ifindex, T_IFINDEX);
	CHECK_EQ(cfg.classid, T_HANDLE | 4);
	CHECK_EQ(cfg.have, AIECN_NL_CLASS_NEEDED | AIECN_NL_HAVE_XON);
	CHECK_EQ(cfg.ecn.enabled, 1);
	CHECK_EQ(cfg.ecn.kmin, 5120);
	CHECK_EQ(cfg.ecn.kmax, 204800);
	CHECK_EQ(cfg.ecn.pmax, 5000);
	CHECK_EQ(cfg.xoff, 65536);
	CHECK_EQ(cfg.xon, 32768);

	len = build_class_reply(&m, "lossless", 0);
	CHECK_EQ(aiecn_nl_parse_class(tbytes(&m), len, &cfg, err, sizeof(err)), 0);
	CHECK(!(cfg.have & AIECN_NL_HAVE_XOFF));

	len = build_class_reply(&m, "htb", 1);
	CHECK_EQ(aiecn_nl_parse_class(tbytes(&m), len, &cfg, err, sizeof(err)), -ENOENT);
	CHECK_HAS(err, "htb");
}

/* An NLMSG_ERROR as netlink_ack() makes it, with the message as extack */
static size_t build_error(struct tmsg *m, int error, const void *req, int capped,
			  const char *msg)
{
	struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = 4711 };
	struct nlmsghdr rh;
	uint32_t len;

	memset(m, 0, sizeof(*m));
	memcpy(&rh, req, sizeof(rh));
	h.nlmsg_flags = (capped ? NLM_F_CAPPED : 0) | (msg ? NLM_F_ACK_TLVS : 0);
	memcpy(tbytes(m) + NLMSG_HDRLEN, &error, 4);
	m->off = NLMSG_HDRLEN + 4;
	memcpy(tbytes(m) + m->off, req, capped ? sizeof(rh) : rh.nlmsg_len);
	m->off += capped ? sizeof(rh) : NLMSG_ALIGN(rh.nlmsg_len);
	if (msg) {
		tput(m, NLMSGERR_ATTR_MSG, msg, strlen(msg) + 1);
		tput_u32(m, NLMSGERR_ATTR_OFFS, 52);
	}
	len = (uint32_t)m->off;
	h.nlmsg_len = len;
	memcpy(tbytes(m), &h, sizeof(h));
	return m->off;
}

static void test_error(void)
{
	const struct aiecn_nl_ecn ecn = { .enabled = 1, .kmin = 9, .kmax = 8, .pmax = 1 };
	const char *why = "kmin must not exceed kmax";
	uint64_t req[32];
	char ext[128];
	struct tmsg m;
	size_t len;

	CHECK(aiecn_nl_build_class_change(req, sizeof(req), 4711, 1, 0x10000, 0x10001, &ecn) > 0);
	len = build_error(&m, -EINVAL, req, 1, why);
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, sizeof(ext)), -EINVAL);
	CHECK_STR(ext, why);

	/* Without NETLINK_CAP_ACK the whole request comes back first */
	len = build_error(&m, -EINVAL, req, 0, why);
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, sizeof(ext)), -EINVAL);
	CHECK_STR(ext, why);

	/* Truncated into a small buffer */
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, 5), -EINVAL);
	CHECK_STR(ext, "kmin");

	/* An error without extack, an ACK */
	len = build_error(&m, -EOPNOTSUPP, req, 1, NULL);
	snprintf(ext, sizeof(ext), "stale");
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, sizeof(ext)), -EOPNOTSUPP);
	CHECK_STR(ext, "");
	len = build_error(&m, 0, req, 1, NULL);
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, sizeof(ext)), 0);

	/* Malformed */
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), 12, ext, sizeof(ext)), -EPROTO);
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len - 1, ext, sizeof(ext)), -EPROTO);
	len = build_qdisc_reply(&m, "lossless", 0);
	CHECK_EQ(aiecn_nl_parse_error(tbytes(&m), len, ext, sizeof(ext)), -EPROTO);
}

static void test_units(void)
{
	struct aiecn_thresholds t = { .kmin = 1, .kmax = 2, .pmax = 7 };
	struct aiecn_nl_ecn e;
	char buf[24];

	aiecn_nl_ecn_from_thresholds(&t, &e);
	CHECK_EQ(e.enabled, 1);
	CHECK_EQ(e.kmin, 1);
	CHECK_EQ(e.kmax, 2);
	CHECK_EQ(e.pmax, 70000);
	t.pmax = 100;
	aiecn_nl_ecn_from_thresholds(&t, &e);
	CHECK_EQ(e.pmax, TC_LOSSLESS_PMAX_SCALE);

	e.pmax = 5000;		/* 0.5 % rounds to 1 */
	aiecn_nl_ecn_to_thresholds(&e, &t);
	CHECK_EQ(t.pmax, 1);
	e.pmax = 0;
	aiecn_nl_ecn_to_thresholds(&e, &t);
	CHECK_EQ(t.pmax, 1);
	e.pmax = 124999;
	aiecn_nl_ecn_to_thresholds(&e, &t);
	CHECK_EQ(t.pmax, 12);
	e.pmax = 125000;
	aiecn_nl_ecn_to_thresholds(&e, &t);
	CHECK_EQ(t.pmax, 13);

	aiecnd_fmt_pmax(10000, buf, sizeof(buf));
	CHECK_STR(buf, "1");
	aiecnd_fmt_pmax(5000, buf, sizeof(buf));
	CHECK_STR(buf, "0.5");
	aiecnd_fmt_pmax(123456, buf, sizeof(buf));
	CHECK_STR(buf, "12.3456");
	aiecnd_fmt_pmax(1000000, buf, sizeof(buf));
	CHECK_STR(buf, "100");
	aiecnd_fmt_pmax(70, buf, sizeof(buf));
	CHECK_STR(buf, "0.007");
}

static void fill_stats(struct aiecn_nl_class_stats *s, uint64_t base)
{
	int b;

	memset(s, 0, sizeof(*s));
	s->tc = 3;
	s->have = AIECN_NL_HAVE_BACKLOG | AIECN_NL_HAVE_ECN_MARKED | AIECN_NL_HAVE_PFC_TX_XOFF |
		  AIECN_NL_HAVE_PFC_RX | AIECN_NL_HAVE_IN;
	s->tx_bytes = base * 1000;
	s->backlog = (uint32_t)base;
	s->ecn_marked = base * 2;
	s->pfc_tx_xoff = base * 3;
	s->pfc_rx = base * 4;
	s->in = base * 5;
	for (b = 0; b < TC_LOSSLESS_QHIST_BUCKETS; b++)
		s->qhist[b] = base * (b + 1);
}

static void test_sample_delta(void)
{
	struct aiecn_nl_class_stats prev, cur;
	struct aiecn_sample x;
	int b;

	fill_stats(&prev, 100);
	fill_stats(&cur, 150);
	if (!CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1250000000, &x), 0))
		return;
	CHECK(x.interval_s == 0.1);
	CHECK(x.line_rate == 1250000000.0);
	CHECK_EQ(x.tx_bytes, 50000);
	CHECK_EQ(x.marked, 100);
	CHECK_EQ(x.xoff_tx, 150);
	CHECK_EQ(x.pfc_rx, 200);
	CHECK_EQ(x.enq_pkts, 250);
	CHECK_EQ(x.qlen_now, 150);
	for (b = 0; b < AIECN_HIST_BUCKETS; b++)
		CHECK_EQ(x.hist[b], 50 * (b + 1));

	/* Counters backwards: the qdisc was replaced */
	fill_stats(&cur, 150);
	cur.tx_bytes = 5;
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1, &x), -1);
	fill_stats(&cur, 150);
	cur.qhist[9] = 0;
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1, &x), -1);
	fill_stats(&cur, 150);
	cur.ecn_marked = 1;
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1, &x), -1);
	fill_stats(&cur, 150);
	cur.in = 1;
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1, &x), -1);
	fill_stats(&cur, 150);
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0, 1, &x), -1);

	/* Missing counters count 0; without IN the histogram counts enqueues */
	fill_stats(&cur, 150);
	cur.have &= ~(AIECN_NL_HAVE_ECN_MARKED | AIECN_NL_HAVE_BACKLOG);
	cur.ecn_marked = 1;	/* missing: not a reset */
	prev.have &= ~AIECN_NL_HAVE_IN;
	CHECK_EQ(aiecnd_sample_delta(&prev, &cur, 0.1, 1, &x), 0);
	CHECK_EQ(x.marked, 0);
	CHECK_EQ(x.qlen_now, 0);
	CHECK_EQ(x.enq_pkts, 50 * (16 * 17 / 2));
}

static void test_sizes(void)
{
	static const struct {
		const char *s;
		uint32_t v;
	} good[] = {
		{ "0", 0 }, { "100", 100 }, { "64k", 65536 }, { "64K", 65536 },
		{ "2m", 2097152 }, { "3M", 3145728 }, { "4294967295", 4294967295u },
		{ "4095m", 4095u * 1024 * 1024 }, { "007", 7 },
	};
	static const char *const bad[] = {
		"", "k", "m", "12x", "1.5k", "-5", "+5", " 5", "5 ", "64kb", "64kk",
		"4294967296", "4096m", "4194304k", "99999999999999999999", "0x10", "1e3",
	};
	uint32_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		v = 12345;
		if (!CHECK_EQ(aiecnd_parse_size(good[i].s, &v), 0))
			note("'%s' rejected", good[i].s);
		CHECK_EQ(v, good[i].v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		v = 12345;
		if (!CHECK_EQ(aiecnd_parse_size(bad[i], &v), -1))
			note("'%s' accepted", bad[i]);
		CHECK_EQ(v, 12345);
	}
}

/* aiecnd_parse_args() on a NULL-terminated list of arguments */
static int args(struct aiecnd_config *cfg, char *err, size_t errlen, ...)
{
	char *argv[40] = { (char *)"aiecnd" };
	int argc = 1;
	va_list ap;
	char *a;

	va_start(ap, errlen);
	while ((a = va_arg(ap, char *)) && argc < (int)ARRAY_SIZE(argv) - 1)
		argv[argc++] = a;
	va_end(ap);
	err[0] = '\0';
	return aiecnd_parse_args(argc, argv, cfg, err, errlen);
}

#define BAD_ARGS(word, ...)							\
	do {									\
		if (CHECK_EQ(args(&cfg, err, sizeof(err), __VA_ARGS__, NULL), -1)) \
			CHECK_HAS(err, word);					\
	} while (0)

static void test_args(void)
{
	struct aiecnd_config cfg;
	char err[256];

	if (!CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "eth0", "--class", "3", NULL), 0))
		note("err: %s", err);
	CHECK_STR(cfg.dev, "eth0");
	CHECK_EQ(cfg.nclasses, 1);
	CHECK_EQ(cfg.tc[0], 3);
	CHECK_EQ(cfg.interval_ms, 100);
	CHECK_EQ(cfg.stale_ms, 1000);
	CHECK_EQ(cfg.duration_s, 0);
	CHECK_EQ(cfg.mode, AIECND_AUTO);
	CHECK_EQ(aiecnd_effective_mode(&cfg), AIECND_HEURISTIC);
	CHECK_EQ(cfg.set, 0);
	CHECK_EQ(cfg.b.pmax_lo, 1);
	CHECK_EQ(cfg.b.pmax_hi, 100);
	CHECK(!cfg.keep_on_exit && !cfg.log && !cfg.model && !cfg.features &&
	      !cfg.samples);

	if (!CHECK_EQ(args(&cfg, err, sizeof(err), "--dev=sw1p2", "--class", "0", "--class=7",
			   "--interval", "250", "--mode", "model", "--model", "m.txt",
			   "--kmin-lo", "2k", "--kmax-lo", "10k", "--kmax-hi=1m",
			   "--pmax-lo", "2", "--pmax-hi", "50%", "--allowance", "4096",
			   "--stale", "2000", "--log", "/tmp/x.log", "--duration", "30",
			   "--features", "/tmp/f.dat", "--samples=/tmp/s.dat", "--keep-on-exit",
			   NULL), 0))
		note("err: %s", err);
	CHECK_STR(cfg.dev, "sw1p2");
	CHECK_EQ(cfg.nclasses, 2);
	CHECK_EQ(cfg.tc[0], 0);
	CHECK_EQ(cfg.tc[1], 7);
	CHECK_EQ(cfg.interval_ms, 250);
	CHECK_EQ(cfg.mode, AIECND_MODEL);
	CHECK_STR(cfg.model, "m.txt");
	CHECK_EQ(cfg.b.kmin_lo, 2048);
	CHECK_EQ(cfg.b.kmax_lo, 10240);
	CHECK_EQ(cfg.b.kmax_hi, 1048576);
	CHECK_EQ(cfg.b.pmax_lo, 2);
	CHECK_EQ(cfg.b.pmax_hi, 50);
	CHECK_EQ(cfg.b.cnp_allowance, 4096);
	CHECK_EQ(cfg.set, AIECND_SET_KMIN_LO | AIECND_SET_KMAX_LO | AIECND_SET_KMAX_HI |
		 AIECND_SET_ALLOWANCE);
	CHECK_EQ(cfg.stale_ms, 2000);
	CHECK_STR(cfg.log, "/tmp/x.log");
	CHECK_STR(cfg.features, "/tmp/f.dat");
	CHECK_STR(cfg.samples, "/tmp/s.dat");
	CHECK_EQ(cfg.duration_s, 30);
	CHECK(cfg.keep_on_exit);

	CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "e", "--class", "1", "--model", "f", NULL),
		 0);
	CHECK_EQ(aiecnd_effective_mode(&cfg), AIECND_MODEL);
	CHECK_EQ(args(&cfg, err, sizeof(err), "--help", NULL), 0);
	CHECK(cfg.help);

	/* Every message names the option */
	BAD_ARGS("--dev", "--class", "1");
	BAD_ARGS("--class", "--dev", "eth0");
	BAD_ARGS("--class", "--dev", "eth0", "--class", "8");
	BAD_ARGS("--class", "--dev", "eth0", "--class", "x");
	BAD_ARGS("twice", "--dev", "eth0", "--class", "2", "--class", "2");
	BAD_ARGS("--interval", "--dev", "eth0", "--class", "1", "--interval", "0");
	BAD_ARGS("--interval", "--dev", "eth0", "--class", "1", "--interval", "10ms");
	BAD_ARGS("--kmax-lo", "--dev", "eth0", "--class", "1", "--kmax-lo", "12x");
	BAD_ARGS("--kmin-lo", "--dev", "eth0", "--class", "1", "--kmin-lo", "-1");
	BAD_ARGS("--kmax-hi", "--dev", "eth0", "--class", "1", "--kmax-hi", "5g");
	BAD_ARGS("--allowance", "--dev", "eth0", "--class", "1", "--allowance", "");
	BAD_ARGS("--pmax-hi", "--dev", "eth0", "--class", "1", "--pmax-hi", "101");
	BAD_ARGS("--pmax-lo", "--dev", "eth0", "--class", "1", "--pmax-lo", "0");
	BAD_ARGS("--pmax-lo", "--dev", "eth0", "--class", "1", "--pmax-lo", "60",
		 "--pmax-hi", "50");
	BAD_ARGS("--mode", "--dev", "eth0", "--class", "1", "--mode", "fast");
	BAD_ARGS("--model", "--dev", "eth0", "--class", "1", "--mode", "model");
	BAD_ARGS("--stale", "--dev", "eth0", "--class", "1", "--stale", "50");
	BAD_ARGS("--duration", "--dev", "eth0", "--class", "1", "--duration", "0");
	BAD_ARGS("--keep-on-exit", "--dev", "eth0", "--class", "1", "--keep-on-exit=1");
	BAD_ARGS("--bogus", "--dev", "eth0", "--class", "1", "--bogus", "3");
	BAD_ARGS("--dev", "--class", "1", "--dev");
	BAD_ARGS("--dev", "--dev", "a/b", "--class", "1");
	BAD_ARGS("--dev", "--dev", "averyveryverylongname", "--class", "1");
	BAD_ARGS("'eth0'", "eth0");
}

static void test_bounds(void)
{
	struct aiecnd_config cfg;
	struct aiecn_bounds b;
	const char *why;
	char err[256];

	CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "e", "--class", "1", NULL), 0);
	aiecnd_class_bounds(&cfg, 65536, &b);
	CHECK_EQ(b.xoff, 65536);
	CHECK_EQ(b.cnp_allowance, 8192);
	CHECK_EQ(b.kmax_hi, 57344);
	CHECK_EQ(b.kmax_lo, 8192);
	CHECK_EQ(b.kmin_lo, 0);
	CHECK_EQ(b.pmax_lo, 1);
	CHECK_EQ(b.pmax_hi, 100);
	CHECK(aiecn_bounds_valid(&b, &why));

	/* A small xoff: kmax_lo follows the ceiling down */
	aiecnd_class_bounds(&cfg, 4096, &b);
	CHECK_EQ(b.cnp_allowance, 512);
	CHECK_EQ(b.kmax_hi, 3584);
	CHECK_EQ(b.kmax_lo, 3584);
	CHECK(aiecn_bounds_valid(&b, &why));

	/* Given bounds stay as given, valid or not */
	CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "e", "--class", "1", "--kmax-hi", "40000",
		      "--allowance", "1000", NULL), 0);
	aiecnd_class_bounds(&cfg, 65536, &b);
	CHECK_EQ(b.kmax_hi, 40000);
	CHECK_EQ(b.cnp_allowance, 1000);
	CHECK_EQ(b.kmax_lo, 8192);
	CHECK(aiecn_bounds_valid(&b, &why));
	CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "e", "--class", "1", "--kmax-lo", "100k",
		      NULL), 0);
	aiecnd_class_bounds(&cfg, 65536, &b);
	CHECK_EQ(b.kmax_lo, 102400);
	CHECK(!aiecn_bounds_valid(&b, &why));
	CHECK_EQ(args(&cfg, err, sizeof(err), "--dev", "e", "--class", "1", "--allowance", "64k",
		      NULL), 0);
	aiecnd_class_bounds(&cfg, 65536, &b);
	CHECK(!aiecn_bounds_valid(&b, &why));
}

static const struct tap_test tests[] = {
	{ "nl: qdisc reply with PAD attributes and an odd-aligned QHIST", test_qdisc_parse },
	{ "nl: qdisc reply: missing counters marked, TC/TX_BYTES/QHIST required",
	  test_qdisc_optional },
	{ "nl: qdisc reply: wrong kind, truncated and malformed messages", test_qdisc_bad },
	{ "nl: RTM_NEWTCLASS change request, byte by byte", test_class_change },
	{ "nl: RTM_GETQDISC get and RTM_GETTCLASS dump requests", test_requests },
	{ "nl: class options of a class dump", test_class_parse },
	{ "nl: NLMSG_ERROR with extack, capped or not; ACK", test_error },
	{ "nl: percent and millionths", test_units },
	{ "daemon: sample deltas, counters backwards reset the baseline", test_sample_delta },
	{ "daemon: sizes with k and m, garbage rejected", test_sizes },
	{ "daemon: command line, errors name the option", test_args },
	{ "daemon: default bounds from the class's xoff", test_bounds },
};

int main(void)
{
	return tap_run(tests, (int)ARRAY_SIZE(tests));
}
