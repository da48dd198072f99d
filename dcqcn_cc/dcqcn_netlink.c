// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: the TCA_LOSSLESS_DCQCN options of a lossless qdisc and the
 * DCQCN statistics, through sch_lossless's congestion control hooks.
 *
 * A change starts from the current settings (mlx5's defaults the first
 * time), applies what the request carries, checks the whole and only
 * then puts it in force; every rejection names the tc option.
 */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/stddef.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <uapi/linux/lossless_dcqcn.h>
#include <uapi/linux/sch_lossless.h>

#include "dcqcn.h"

#define DCQCN_MAX_RATE		125000000000ULL	/* bytes/s: 1 Tbit/s */
#define DCQCN_MAX_US		1000000U	/* 1 s */

static const struct nla_policy dcqcn_policy[TCA_LOSSLESS_DCQCN_MAX + 1] = {
	[TCA_LOSSLESS_DCQCN_NP]			= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_RP]			= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_CNP_DSCP]		= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_CNP_PRIO]		= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_CNP_PKEY]		= { .type = NLA_U16 },
	[TCA_LOSSLESS_DCQCN_MIN_TIME_BETWEEN_CNPS] = { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_AI_RATE]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_DCQCN_HAI_RATE]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_DCQCN_MIN_RATE]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_DCQCN_MAX_RATE]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_DCQCN_FIRST_CNP_RATE]	= { .type = NLA_U64 },
	[TCA_LOSSLESS_DCQCN_TIME_RESET]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_BYTE_RESET]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_THRESHOLD]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_MIN_DEC_FAC]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_GD]			= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_G]			= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_RTT]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_MONITOR_PERIOD]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_INITIAL_ALPHA]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE]	= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI]	= { .type = NLA_U8 },
	[TCA_LOSSLESS_DCQCN_LINE_RATE]		= { .type = NLA_U64 },
};

/* The u32 knobs of struct dcqcn_rp_params: attribute, tc name, range */
static const struct dcqcn_u32_knob {
	int attr;
	const char *msg;	/* the rejection */
	u32 min, max;
	size_t off;
} dcqcn_u32_knobs[] = {
	{ TCA_LOSSLESS_DCQCN_TIME_RESET, "rpg-time-reset must be 1 us to 1 s",
	  1, DCQCN_MAX_US, offsetof(struct dcqcn_rp_params, time_reset_us) },
	{ TCA_LOSSLESS_DCQCN_BYTE_RESET, "rpg-byte-reset must be 64 bytes to 1 GiB",
	  64, 1U << 30, offsetof(struct dcqcn_rp_params, byte_reset) },
	{ TCA_LOSSLESS_DCQCN_THRESHOLD, "rpg-threshold must be 0 to 31",
	  0, 31, offsetof(struct dcqcn_rp_params, threshold) },
	{ TCA_LOSSLESS_DCQCN_MIN_DEC_FAC, "rpg-min-dec-fac must be 1 to 100 (percent)",
	  1, 100, offsetof(struct dcqcn_rp_params, min_dec_fac) },
	{ TCA_LOSSLESS_DCQCN_GD, "rpg-gd must be 1 to 15",
	  1, 15, offsetof(struct dcqcn_rp_params, gd) },
	{ TCA_LOSSLESS_DCQCN_G, "dce-tcp-g must be 0 to 1023",
	  0, DCQCN_ALPHA_MAX, offsetof(struct dcqcn_rp_params, dce_tcp_g) },
	{ TCA_LOSSLESS_DCQCN_RTT, "dce-tcp-rtt must be 1 us to 1 s",
	  1, DCQCN_MAX_US, offsetof(struct dcqcn_rp_params, dce_tcp_rtt_us) },
	{ TCA_LOSSLESS_DCQCN_MONITOR_PERIOD, "rate-reduce-monitor-period must be 0 to 1 s",
	  0, DCQCN_MAX_US, offsetof(struct dcqcn_rp_params, monitor_period_us) },
	{ TCA_LOSSLESS_DCQCN_INITIAL_ALPHA, "initial-alpha-value must be 0 to 1023",
	  0, DCQCN_ALPHA_MAX, offsetof(struct dcqcn_rp_params, initial_alpha) },
};

/* The rate knobs (bytes/s in netlink, bit/s in the params) */
static const struct dcqcn_rate_knob {
	int attr;
	const char *msg;
	size_t off;
} dcqcn_rate_knobs[] = {
	{ TCA_LOSSLESS_DCQCN_AI_RATE, "rpg-ai-rate must be at most 1Tbit",
	  offsetof(struct dcqcn_rp_params, ai_rate) },
	{ TCA_LOSSLESS_DCQCN_HAI_RATE, "rpg-hai-rate must be at most 1Tbit",
	  offsetof(struct dcqcn_rp_params, hai_rate) },
	{ TCA_LOSSLESS_DCQCN_MIN_RATE, "rpg-min-rate must be at most 1Tbit",
	  offsetof(struct dcqcn_rp_params, min_rate) },
	{ TCA_LOSSLESS_DCQCN_MAX_RATE, "rpg-max-rate must be at most 1Tbit",
	  offsetof(struct dcqcn_rp_params, max_rate) },
	{ TCA_LOSSLESS_DCQCN_FIRST_CNP_RATE, "rate-to-set-on-first-cnp must be at most 1Tbit",
	  offsetof(struct dcqcn_rp_params, first_cnp_rate) },
};

/* NL_SET_ERR_MSG_ATTR() for a message from a table (static strings) */
static void dcqcn_err(struct netlink_ext_ack *extack, const struct nlattr *a,
		      const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = a;
	}
}

/* mlx5's defaults: no priority enabled yet, CNPs on DSCP 48, priority 6 */
static void dcqcn_cfg_default(struct dcqcn_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->cnp_dscp = 48;
	cfg->cnp_prio = 6;
	cfg->pkey = 0xffff;
	cfg->min_time_between_cnps = 4;
	dcqcn_rp_params_default(&cfg->rp_params, 0);
}

static int dcqcn_parse(struct nlattr **tb, struct dcqcn_cfg *cfg,
		       struct netlink_ext_ack *extack)
{
	struct dcqcn_rp_params *p = &cfg->rp_params;
	struct nlattr *a;
	unsigned int i;

	if (tb[TCA_LOSSLESS_DCQCN_LINE_RATE]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_DCQCN_LINE_RATE],
				    "dcqcn line rate is the port's speed: set speed or rate");
		return -EINVAL;
	}
	if (tb[TCA_LOSSLESS_DCQCN_NP])
		cfg->np = nla_get_u8(tb[TCA_LOSSLESS_DCQCN_NP]);
	if (tb[TCA_LOSSLESS_DCQCN_RP])
		cfg->rp = nla_get_u8(tb[TCA_LOSSLESS_DCQCN_RP]);
	a = tb[TCA_LOSSLESS_DCQCN_CNP_DSCP];
	if (a) {
		if (nla_get_u8(a) > 63) {
			NL_SET_ERR_MSG_ATTR(extack, a, "cnp-dscp must be 0 to 63");
			return -EINVAL;
		}
		cfg->cnp_dscp = nla_get_u8(a);
	}
	a = tb[TCA_LOSSLESS_DCQCN_CNP_PRIO];
	if (a) {
		if (nla_get_u8(a) > 7) {
			NL_SET_ERR_MSG_ATTR(extack, a, "cnp-prio must be 0 to 7");
			return -EINVAL;
		}
		cfg->cnp_prio = nla_get_u8(a);
	}
	a = tb[TCA_LOSSLESS_DCQCN_CNP_PKEY];
	if (a) {
		/* the partition number (low 15 bits) 0 is no partition */
		if (!(nla_get_u16(a) & 0x7fff)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "cnp-pkey must name a partition (not 0 or 0x8000)");
			return -EINVAL;
		}
		cfg->pkey = nla_get_u16(a);
	}
	a = tb[TCA_LOSSLESS_DCQCN_MIN_TIME_BETWEEN_CNPS];
	if (a) {
		if (nla_get_u32(a) > DCQCN_MAX_US) {
			NL_SET_ERR_MSG_ATTR(extack, a, "min-time-between-cnps must be at most 1 s");
			return -EINVAL;
		}
		cfg->min_time_between_cnps = nla_get_u32(a);
	}
	for (i = 0; i < ARRAY_SIZE(dcqcn_u32_knobs); i++) {
		const struct dcqcn_u32_knob *k = &dcqcn_u32_knobs[i];

		a = tb[k->attr];
		if (!a)
			continue;
		if (nla_get_u32(a) < k->min || nla_get_u32(a) > k->max) {
			dcqcn_err(extack, a, k->msg);
			return -EINVAL;
		}
		*(u32 *)((u8 *)p + k->off) = nla_get_u32(a);
	}
	for (i = 0; i < ARRAY_SIZE(dcqcn_rate_knobs); i++) {
		const struct dcqcn_rate_knob *k = &dcqcn_rate_knobs[i];

		a = tb[k->attr];
		if (!a)
			continue;
		if (nla_get_u64(a) > DCQCN_MAX_RATE) {
			dcqcn_err(extack, a, k->msg);
			return -EINVAL;
		}
		*(u64 *)((u8 *)p + k->off) = nla_get_u64(a) * BITS_PER_BYTE;
	}
	if (tb[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE])
		p->clamp_tgt_rate = nla_get_u8(tb[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE]);
	if (tb[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI])
		p->clamp_tgt_rate_ati = nla_get_u8(tb[TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI]);

	if (!p->min_rate) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_DCQCN_MIN_RATE],
				    "rpg-min-rate must be more than 0");
		return -EINVAL;
	}
	if (p->max_rate && p->min_rate > p->max_rate) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_DCQCN_MIN_RATE] ?:
				    tb[TCA_LOSSLESS_DCQCN_MAX_RATE],
				    "rpg-min-rate is above rpg-max-rate");
		return -EINVAL;
	}
	return 0;
}

/* sch_lossless's change(): under RTNL, all or nothing. */
int dcqcn_change(struct Qdisc *sch, void **cc, const struct nlattr *opt,
		 const struct lossless_cc_port *port, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_LOSSLESS_DCQCN_MAX + 1] = {};
	struct dcqcn_dev *dd = *cc;
	struct dcqcn_cfg cfg;
	int err;

	if (dd) {
		spin_lock_bh(&dd->lock);
		cfg = dd->cfg;
		spin_unlock_bh(&dd->lock);
	} else {
		dcqcn_cfg_default(&cfg);
	}
	if (opt) {
		err = nla_parse_nested(tb, TCA_LOSSLESS_DCQCN_MAX, opt, dcqcn_policy, extack);
		if (err < 0)
			return err;
		err = dcqcn_parse(tb, &cfg, extack);
		if (err)
			return err;
	}
	cfg.rp_params.line_rate = port->speed * BITS_PER_BYTE;
	cfg.trust = port->trust;
	memcpy(cfg.dscp_prio, port->dscp_prio, sizeof(cfg.dscp_prio));

	if (!dd) {
		/*
		 * A qdisc that replaces another of the same device comes in
		 * before the old one goes: the newest state is found first.
		 */
		dd = dcqcn_dev_create(sch);
		if (!dd)
			return -ENOMEM;
		dd->cfg = cfg;
		dcqcn_dev_publish(dd);
		*cc = dd;
		return 0;
	}
	spin_lock_bh(&dd->lock);
	dd->cfg = cfg;
	spin_unlock_bh(&dd->lock);
	return 0;
}

/* The settings, in the nest the qdisc opened. */
int dcqcn_dump(void *cc, struct sk_buff *skb)
{
	struct dcqcn_dev *dd = cc;
	const struct dcqcn_rp_params *p;
	struct dcqcn_cfg cfg;
	unsigned int i;

	spin_lock_bh(&dd->lock);
	cfg = dd->cfg;
	spin_unlock_bh(&dd->lock);
	p = &cfg.rp_params;

	if (nla_put_u8(skb, TCA_LOSSLESS_DCQCN_NP, cfg.np) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_RP, cfg.rp) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_CNP_DSCP, cfg.cnp_dscp) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_CNP_PRIO, cfg.cnp_prio) ||
	    nla_put_u16(skb, TCA_LOSSLESS_DCQCN_CNP_PKEY, cfg.pkey) ||
	    nla_put_u32(skb, TCA_LOSSLESS_DCQCN_MIN_TIME_BETWEEN_CNPS,
			cfg.min_time_between_cnps) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE, p->clamp_tgt_rate) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI, p->clamp_tgt_rate_ati) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_LINE_RATE,
			      div_u64(p->line_rate, BITS_PER_BYTE), TCA_LOSSLESS_DCQCN_PAD))
		goto nla_put_failure;
	for (i = 0; i < ARRAY_SIZE(dcqcn_u32_knobs); i++)
		if (nla_put_u32(skb, dcqcn_u32_knobs[i].attr,
				*(const u32 *)((const u8 *)p + dcqcn_u32_knobs[i].off)))
			goto nla_put_failure;
	for (i = 0; i < ARRAY_SIZE(dcqcn_rate_knobs); i++)
		if (nla_put_u64_64bit(skb, dcqcn_rate_knobs[i].attr,
				      div_u64(*(const u64 *)((const u8 *)p +
							     dcqcn_rate_knobs[i].off),
					      BITS_PER_BYTE),
				      TCA_LOSSLESS_DCQCN_PAD))
			goto nla_put_failure;
	return 0;

nla_put_failure:
	return -EMSGSIZE;
}

static int dcqcn_put_qp(struct sk_buff *skb, const struct dcqcn_qp *qp,
			const struct dcqcn_rp_params *p, u64 now)
{
	struct nlattr *nest = nla_nest_start_noflag(skb, TCA_LOSSLESS_DCQCN_STATS_QP);
	int err;

	if (!nest)
		return -EMSGSIZE;
	if (ipv6_addr_v4mapped(&qp->peer))
		err = nla_put_in_addr(skb, TCA_LOSSLESS_DCQCN_QP_PEER, qp->peer.s6_addr32[3]);
	else
		err = nla_put_in6_addr(skb, TCA_LOSSLESS_DCQCN_QP_PEER6, &qp->peer);
	if (err ||
	    nla_put_u16(skb, TCA_LOSSLESS_DCQCN_QP_SPORT, qp->sport) ||
	    nla_put_u32(skb, TCA_LOSSLESS_DCQCN_QP_PEER_QPN, qp->peer_qpn) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_QP_PRIO, qp->prio) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_QP_RATE, qp->rp.rc,
			      TCA_LOSSLESS_DCQCN_QP_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_QP_TARGET, qp->rp.rt,
			      TCA_LOSSLESS_DCQCN_QP_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_DCQCN_QP_ALPHA,
			DCQCN_ALPHA_SHOWN(dcqcn_rp_alpha(&qp->rp, p, now))) ||
	    nla_put_u8(skb, TCA_LOSSLESS_DCQCN_QP_STAGE, dcqcn_rp_stage(&qp->rp, p)) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_QP_CNP_SENT, qp->cnp_sent,
			      TCA_LOSSLESS_DCQCN_QP_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_QP_CNP_HANDLED, qp->cnp_handled,
			      TCA_LOSSLESS_DCQCN_QP_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_QP_PACED, qp->paced,
			      TCA_LOSSLESS_DCQCN_QP_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The counters and the first DCQCN_DUMP_QPS QPs, each brought up to date
 * (alpha, timer increases) before it is shown, in the nest the qdisc
 * opened.
 */
int dcqcn_dump_stats(void *cc, struct sk_buff *skb)
{
	struct dcqcn_dev *dd = cc;
	struct dcqcn_qp *qp;
	unsigned int n = 0;
	int bkt, err = -EMSGSIZE;
	u64 now;

	spin_lock_bh(&dd->lock);
	/* under the lock: not before any QP's last event */
	now = ktime_get_ns();
	if (nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_NP_ECN_MARKED, dd->np_ecn_marked,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_NP_CNP_SENT, dd->np_cnp_sent,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_NP_CNP_NO_PEER, dd->np_cnp_no_peer,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_RP_CNP_HANDLED, dd->rp_cnp_handled,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_RP_CNP_IGNORED, dd->rp_cnp_ignored,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_ECT_SET, dd->ect_set,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_PACED, dd->paced,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_CNP_MALFORMED,
			      dd->cnp_fault[DCQCN_CNP_MALFORMED], TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_CNP_NO_BECN,
			      dd->cnp_fault[DCQCN_CNP_NO_BECN], TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_CSUM,
			      dd->cnp_fault[DCQCN_CNP_BAD_CSUM], TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_ICRC,
			      dd->cnp_fault[DCQCN_CNP_BAD_ICRC], TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_CNP_NO_QP, dd->cnp_no_qp,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_DCQCN_STATS_QP_REFUSED, dd->qp_refused,
			      TCA_LOSSLESS_DCQCN_STATS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_DCQCN_STATS_QPS, dd->nqps))
		goto out;
	hash_for_each(dd->qps, bkt, qp, node) {
		if (n++ >= DCQCN_DUMP_QPS)
			break;
		dcqcn_rp_advance(&qp->rp, &dd->cfg.rp_params, now);
		if (dcqcn_put_qp(skb, qp, &dd->cfg.rp_params, now))
			goto out;
	}
	err = 0;
out:
	spin_unlock_bh(&dd->lock);
	return err;
}
