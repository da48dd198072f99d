// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the qdisc's netlink options and statistics.
 *
 * change() parses and validates everything into a copy of the settings
 * first; only a request that is valid as a whole is committed, under
 * sch_tree_lock(). Every rejection names its option in the extack.
 */
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <net/lossless_cc.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "lossless.h"
#include "lossless_headroom.h"

/*
 * Types and lengths are checked by the policy; ranges and combinations in
 * lossless_validate(), so that each rejection names its option.
 */
static const struct nla_policy lossless_policy[TCA_LOSSLESS_MAX + 1] = {
	[TCA_LOSSLESS_BUFFER]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_TRUST]		= { .type = NLA_U8 },
	[TCA_LOSSLESS_PRIO_TC]		= { .type = NLA_BINARY },
	[TCA_LOSSLESS_DSCP_PRIO]	= { .type = NLA_BINARY },
	[TCA_LOSSLESS_RATE]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_BURST]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_NORATE]		= { .type = NLA_FLAG },
	[TCA_LOSSLESS_PFC]		= { .type = NLA_U8 },
	[TCA_LOSSLESS_SPEED]		= { .type = NLA_U64 },
	[TCA_LOSSLESS_CABLE]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_MTU]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_RESPONSE]		= { .type = NLA_U32 },
	[TCA_LOSSLESS_PFCWD_DETECT]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_PFCWD_RESTORE]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_PFCWD_ACTION]	= { .type = NLA_U8 },
	[TCA_LOSSLESS_PFCWD_LIMIT]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_PFCWD_WINDOW]	= { .type = NLA_U32 },
	[TCA_LOSSLESS_PFCWD_OFF]	= { .type = NLA_U8 },
	[TCA_LOSSLESS_UPLINK]		= { .type = NLA_U8 },
	[TCA_LOSSLESS_HOOK_REMAP]	= { .type = NLA_BINARY },
	[TCA_LOSSLESS_DCQCN]		= { .type = NLA_NESTED },
};

#define LOSSLESS_DEFAULT_SPEED	(10000000000ULL / 8)	/* bytes/s: 10 Gbit/s */

/* The settings change() may alter, validated as a whole before commit. */
struct lossless_settings {
	u32 buffer;
	u8 trust;
	struct lossless_prio_map prio_map;
	struct lossless_dscp_map dscp_map;
	u64 rate;
	u32 burst;
	u8 pfc_enable;
	u64 speed_cfg;
	u32 cable;
	u32 mtu_cfg;
	u32 response;
	struct lossless_wd_config wd;
	bool uplink;
	u8 hook_remap[TC_LOSSLESS_NUM_PRIO];
	/* derived */
	u64 speed;
	u32 mtu;
	u32 auto_headroom;
	u8 hook_dscp[TC_LOSSLESS_NUM_PRIO];
};

/* A map attribute: exactly @n entries, each below 8. */
static bool lossless_map_ok(const struct nlattr *a, int n)
{
	const u8 *v = nla_data(a);
	int i;

	if (nla_len(a) != n)
		return false;
	for (i = 0; i < n; i++)
		if (v[i] >= 8)
			return false;
	return true;
}

static int lossless_validate(struct Qdisc *sch, struct nlattr **tb, struct lossless_settings *s,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *a;

	a = tb[TCA_LOSSLESS_BUFFER];
	if (a) {
		s->buffer = nla_get_u32(a);
		if (!s->buffer || s->buffer > LOSSLESS_MAX_SIZE) {
			NL_SET_ERR_MSG_ATTR(extack, a, "buffer must be 1 byte to 1 GiB");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_TRUST];
	if (a) {
		s->trust = nla_get_u8(a);
		if (s->trust >= __TC_LOSSLESS_TRUST_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a, "trust must be pcp or dscp");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_PRIO_TC];
	if (a) {
		if (!lossless_map_ok(a, TC_LOSSLESS_NUM_PRIO)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "prio-tc must map the 8 priorities to traffic classes 0 to 7");
			return -EINVAL;
		}
		memcpy(s->prio_map.tc, nla_data(a), TC_LOSSLESS_NUM_PRIO);
	}
	a = tb[TCA_LOSSLESS_DSCP_PRIO];
	if (a) {
		if (!lossless_map_ok(a, TC_LOSSLESS_NUM_DSCP)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "dscp-prio must map the 64 DSCP values to priorities 0 to 7");
			return -EINVAL;
		}
		memcpy(s->dscp_map.prio, nla_data(a), TC_LOSSLESS_NUM_DSCP);
	}

	if (tb[TCA_LOSSLESS_NORATE]) {
		if (tb[TCA_LOSSLESS_RATE] || tb[TCA_LOSSLESS_BURST]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_NORATE],
					    "norate excludes rate and burst");
			return -EINVAL;
		}
		s->rate = 0;
		s->burst = 0;
	}
	a = tb[TCA_LOSSLESS_RATE];
	if (a) {
		s->rate = nla_get_u64(a);
		if (s->rate < LOSSLESS_MIN_RATE || s->rate > LOSSLESS_MAX_RATE) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "rate must be 8 kbit/s to 8.8 Tbit/s (norate removes the shaper)");
			return -EINVAL;
		}
		if (!tb[TCA_LOSSLESS_BURST])
			s->burst = lossless_shaper_default_burst(s->rate,
								 psched_mtu(qdisc_dev(sch)));
	}
	a = tb[TCA_LOSSLESS_PFC];
	if (a) {
		s->pfc_enable = nla_get_u8(a);
		/* PFC frames are MAC Control frames: Ethernet only */
		if (s->pfc_enable && qdisc_dev(sch)->type != ARPHRD_ETHER) {
			NL_SET_ERR_MSG_ATTR(extack, a, "pfc needs an Ethernet device");
			return -EOPNOTSUPP;
		}
	}
	a = tb[TCA_LOSSLESS_SPEED];
	if (a) {
		s->speed_cfg = nla_get_u64(a);
		if (s->speed_cfg && (s->speed_cfg < LOSSLESS_PFC_MIN_SPEED / BITS_PER_BYTE ||
				     s->speed_cfg > LOSSLESS_PFC_MAX_SPEED / BITS_PER_BYTE)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "speed must be 10 Mbit/s to 1.6 Tbit/s (0: automatic)");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_CABLE];
	if (a) {
		s->cable = nla_get_u32(a);
		if (s->cable > LOSSLESS_HEADROOM_MAX_CABLE) {
			NL_SET_ERR_MSG_ATTR(extack, a, "cable must be 0 to 100000 metres");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_MTU];
	if (a) {
		s->mtu_cfg = nla_get_u32(a);
		if (s->mtu_cfg && (s->mtu_cfg < LOSSLESS_HEADROOM_MIN_MTU ||
				   s->mtu_cfg > LOSSLESS_HEADROOM_MAX_MTU)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "mtu must be 64 to 65535 bytes (0: the device's)");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_RESPONSE];
	if (a) {
		s->response = nla_get_u32(a);
		if (s->response > LOSSLESS_MAX_RESPONSE) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "response must be at most 1 s (0: IEEE 802.3's by speed)");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_BURST];
	if (a) {
		if (!s->rate) {
			NL_SET_ERR_MSG_ATTR(extack, a, "burst needs a rate");
			return -EINVAL;
		}
		s->burst = nla_get_u32(a);
		if (!s->burst || s->burst > LOSSLESS_MAX_SIZE) {
			NL_SET_ERR_MSG_ATTR(extack, a, "burst must be 1 byte to 1 GiB");
			return -EINVAL;
		}
	}
	return 0;
}

/* Read an optional u32 attribute into @v; false if it is outside [lo, hi]. */
static bool lossless_u32_in(const struct nlattr *a, u32 lo, u32 hi, u32 *v)
{
	if (!a)
		return true;
	*v = nla_get_u32(a);
	return *v >= lo && *v <= hi;
}

/* pfcwd, pfcwd-limit: ranges; restore defaults to detect. */
static int lossless_validate_wd(struct nlattr **tb, struct lossless_settings *s,
				struct netlink_ext_ack *extack)
{
	struct lossless_wd_config *wd = &s->wd;
	struct nlattr *a;

	if (tb[TCA_LOSSLESS_PFCWD_OFF]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_PFCWD_OFF],
				    "pfcwd-off is read only: list the priorities in pfc to turn PFC on again");
		return -EINVAL;
	}
	a = tb[TCA_LOSSLESS_PFCWD_DETECT];
	if (a) {
		wd->detect_ms = nla_get_u32(a);
		if (wd->detect_ms && (wd->detect_ms < LOSSLESS_WD_MIN_DETECT ||
				      wd->detect_ms > LOSSLESS_WD_MAX_DETECT)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "pfcwd detect must be 10 to 5000 ms (0: off)");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_PFCWD_RESTORE];
	if (!lossless_u32_in(a, LOSSLESS_WD_MIN_RESTORE, LOSSLESS_WD_MAX_RESTORE,
			     &wd->restore_ms)) {
		NL_SET_ERR_MSG_ATTR(extack, a, "pfcwd restore must be 10 to 60000 ms");
		return -EINVAL;
	}
	if (!wd->restore_ms)
		wd->restore_ms = wd->detect_ms;
	a = tb[TCA_LOSSLESS_PFCWD_ACTION];
	if (a) {
		wd->action = nla_get_u8(a);
		if (wd->action >= __TC_LOSSLESS_PFCWD_ACTION_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "pfcwd action must be drop, forward or alert");
			return -EINVAL;
		}
	}
	a = tb[TCA_LOSSLESS_PFCWD_LIMIT];
	if (!lossless_u32_in(a, 0, LOSSLESS_WD_MAX_LIMIT, &wd->limit)) {
		NL_SET_ERR_MSG_ATTR(extack, a, "pfcwd-limit must be 0 to 16 detections (0: never)");
		return -EINVAL;
	}
	a = tb[TCA_LOSSLESS_PFCWD_WINDOW];
	if (!lossless_u32_in(a, 1, LOSSLESS_WD_MAX_WINDOW, &wd->window_s)) {
		NL_SET_ERR_MSG_ATTR(extack, a, "pfcwd-limit window must be 1 to 86400 s");
		return -EINVAL;
	}
	return 0;
}

/*
 * uplink, hook-remap: each move goes from a lossless priority to another
 * lossless one that trust dscp can name, and never round in a circle.
 * Checked when the request sets the map or the lossless priorities.
 */
static int lossless_validate_hook(struct nlattr **tb, struct lossless_settings *s,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *a = tb[TCA_LOSSLESS_HOOK_REMAP];
	int p, d, n;

	if (tb[TCA_LOSSLESS_UPLINK])
		s->uplink = nla_get_u8(tb[TCA_LOSSLESS_UPLINK]);
	if (a) {
		if (!lossless_map_ok(a, TC_LOSSLESS_NUM_PRIO)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "hook-remap must map the 8 priorities to priorities 0 to 7");
			return -EINVAL;
		}
		memcpy(s->hook_remap, nla_data(a), TC_LOSSLESS_NUM_PRIO);
	}
	a = a ?: tb[TCA_LOSSLESS_PFC];
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		u8 to = s->hook_remap[p], x = p;

		s->hook_dscp[p] = 0;
		for (d = TC_LOSSLESS_NUM_DSCP - 1; d >= 0; d--)
			if (s->dscp_map.prio[d] == p)
				s->hook_dscp[p] = d;
		if (to == p || !a)
			continue;
		if ((s->pfc_enable & (BIT(p) | BIT(to))) != (BIT(p) | BIT(to))) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "hook-remap moves between lossless priorities: both must be in pfc");
			return -EINVAL;
		}
		for (n = 0; n < TC_LOSSLESS_NUM_PRIO && s->hook_remap[x] != x; n++) {
			x = s->hook_remap[x];
			if (x == p) {
				NL_SET_ERR_MSG_ATTR(extack, a,
						    "hook-remap must not move in a circle");
				return -EINVAL;
			}
		}
	}
	if (s->trust != TC_LOSSLESS_TRUST_DSCP)
		return 0;
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		u8 to = s->hook_remap[p];

		if (to != p && s->dscp_map.prio[s->hook_dscp[to]] != to) {
			NL_SET_ERR_MSG_MOD(extack,
					   "hook-remap moves to a priority no DSCP maps to (dscp-prio)");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The link speed pause times are counted in: as set, else the shaper's
 * rate, else the device's speed, else 10 Gbit/s; the last three brought
 * into Ethernet's speeds (LOSSLESS_PFC_MIN_SPEED to _MAX_SPEED). Under RTNL.
 */
static u64 lossless_speed(struct Qdisc *sch, const struct lossless_settings *s)
{
	struct ethtool_link_ksettings ks;
	u64 speed = LOSSLESS_DEFAULT_SPEED;

	if (s->speed_cfg)
		return s->speed_cfg;
	if (s->rate)
		speed = s->rate;
	else if (!__ethtool_get_link_ksettings(qdisc_dev(sch), &ks) &&
		 ks.base.speed && ks.base.speed != (u32)SPEED_UNKNOWN)
		speed = (u64)ks.base.speed * 1000000 / BITS_PER_BYTE;
	return clamp(speed, LOSSLESS_PFC_MIN_SPEED / BITS_PER_BYTE,
		     LOSSLESS_PFC_MAX_SPEED / BITS_PER_BYTE);
}

/*
 * What the settings imply: the speed, the MTU and the automatic headroom
 * (lossless_headroom_soft(): the port's MTU, the cable both ways at the
 * speed, the pause frame and the peer's response). A class with its own
 * headroom must still hold one MTU.
 */
static int lossless_derive(struct Qdisc *sch, struct nlattr **tb, struct lossless_settings *s,
			   struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	struct lossless_headroom hr;
	u64 mbps;
	u16 quanta = 0;
	int tc;

	s->speed = lossless_speed(sch, s);
	s->mtu = s->mtu_cfg ?: clamp_t(u32, dev->mtu + dev->hard_header_len,
				       LOSSLESS_HEADROOM_MIN_MTU, LOSSLESS_HEADROOM_MAX_MTU);
	mbps = clamp_t(u64, div_u64(s->speed * BITS_PER_BYTE, 1000000), 1,
		       LOSSLESS_HEADROOM_MAX_SPEED);
	if (s->response) {
		quanta = lossless_pfc_ns_to_quanta(s->response, s->speed * BITS_PER_BYTE);
		/* a peer slower than the longest pause cannot be paused in time */
		if (lossless_pfc_quanta_to_ns(quanta, s->speed * BITS_PER_BYTE) < s->response) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TCA_LOSSLESS_RESPONSE] ?:
					    tb[TCA_LOSSLESS_SPEED] ?: tb[TCA_LOSSLESS_RATE],
					    "response is longer than the longest pause (65535 quanta) at this speed");
			return -EINVAL;
		}
	}
	if (lossless_headroom_soft(mbps, s->cable, s->mtu, quanta, &hr)) {
		NL_SET_ERR_MSG_MOD(extack, "cannot compute the headroom from speed, cable and mtu");
		return -EINVAL;
	}
	s->auto_headroom = hr.size;
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		u32 h = q->classes[tc].headroom;

		if (h && h < s->mtu) {
			NL_SET_ERR_MSG_MOD(extack,
					   "mtu is more than the headroom a class has set");
			return -EINVAL;
		}
	}
	return 0;
}

int lossless_change(struct Qdisc *sch, struct nlattr *opt, struct netlink_ext_ack *extack)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_LOSSLESS_MAX + 1] = {};
	const struct lossless_cc_ops *cc_ops;
	struct lossless_cc_port port;
	struct lossless_settings s;
	void *cc;
	int err, p;

	if (opt) {
		err = nla_parse_nested(tb, TCA_LOSSLESS_MAX, opt, lossless_policy, extack);
		if (err < 0)
			return err;
	}

	/* Start from the current settings (RTNL keeps them stable). */
	s.buffer = q->buffer;
	s.trust = q->trust;
	s.prio_map = q->prio_map;
	s.dscp_map = q->dscp_map;
	s.rate = q->shaper.rate;
	s.burst = q->shaper.burst;
	s.pfc_enable = q->pfc_enable;
	s.speed_cfg = q->speed_cfg;
	s.cable = q->cable;
	s.mtu_cfg = q->mtu_cfg;
	s.response = q->response;
	s.wd = q->wd.cfg;
	s.uplink = q->uplink;
	memcpy(s.hook_remap, q->hook_remap, sizeof(s.hook_remap));
	err = lossless_validate(sch, tb, &s, extack);
	if (!err)
		err = lossless_validate_wd(tb, &s, extack);
	if (!err)
		err = lossless_validate_hook(tb, &s, extack);
	if (!err)
		err = lossless_derive(sch, tb, &s, extack);
	if (err)
		return err;
	/*
	 * last: the congestion control applies its part or changes nothing.
	 * Its line rate is what the port sends at: the shaper's rate when
	 * it is slower than the speed pauses are timed by. It finds the
	 * priority of a packet in by the trust and DSCP map given here.
	 */
	port.speed = s.rate ? min(s.rate, s.speed) : s.speed;
	port.trust = s.trust;
	memcpy(port.dscp_prio, s.dscp_map.prio, sizeof(port.dscp_prio));
	err = lossless_cc_change(sch, tb[TCA_LOSSLESS_DCQCN], &port, &cc, &cc_ops, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	q->buffer = s.buffer;
	q->trust = s.trust;
	q->prio_map = s.prio_map;
	q->dscp_map = s.dscp_map;
	if (s.rate != q->shaper.rate || s.burst != q->shaper.burst)
		lossless_shaper_set(&q->shaper, s.rate, s.burst, ktime_get_ns());
	/* the watchdog may have turned PFC off since: only a pfc request
	 * turns it on again
	 */
	if (tb[TCA_LOSSLESS_PFC])
		q->pfc_enable = s.pfc_enable;
	lossless_pfcwd_set(sch, &s.wd, tb[TCA_LOSSLESS_PFC] ? s.pfc_enable : 0);
	q->uplink = s.uplink;
	memcpy(q->hook_remap, s.hook_remap, sizeof(q->hook_remap));
	memcpy(q->hook_dscp, s.hook_dscp, sizeof(q->hook_dscp));
	q->hook_mask = 0;
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++)
		if (q->uplink && q->hook_remap[p] != p)
			q->hook_mask |= BIT(p);
	q->speed_cfg = s.speed_cfg;
	q->speed = s.speed;
	q->cable = s.cable;
	q->mtu_cfg = s.mtu_cfg;
	q->mtu = s.mtu;
	q->response = s.response;
	q->auto_headroom = s.auto_headroom;
	lossless_cc_commit(q, cc, cc_ops);
	lossless_port_configure(sch);
	lossless_trim(sch);
	sch_tree_unlock(sch);
	lossless_pfcwd_start(sch);
	return 0;
}

int lossless_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_LOSSLESS_BUFFER, q->buffer) ||
	    nla_put_u8(skb, TCA_LOSSLESS_TRUST, q->trust) ||
	    nla_put(skb, TCA_LOSSLESS_PRIO_TC, sizeof(q->prio_map.tc), q->prio_map.tc) ||
	    nla_put(skb, TCA_LOSSLESS_DSCP_PRIO, sizeof(q->dscp_map.prio), q->dscp_map.prio))
		goto nla_put_failure;
	if (q->shaper.rate &&
	    (nla_put_u64_64bit(skb, TCA_LOSSLESS_RATE, q->shaper.rate, TCA_LOSSLESS_PAD) ||
	     nla_put_u32(skb, TCA_LOSSLESS_BURST, q->shaper.burst)))
		goto nla_put_failure;
	if (nla_put_u8(skb, TCA_LOSSLESS_PFC, q->pfc_enable) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_SPEED, q->speed_cfg, TCA_LOSSLESS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_CABLE, q->cable) ||
	    nla_put_u32(skb, TCA_LOSSLESS_MTU, q->mtu_cfg) ||
	    nla_put_u32(skb, TCA_LOSSLESS_RESPONSE, q->response))
		goto nla_put_failure;
	if (nla_put_u32(skb, TCA_LOSSLESS_PFCWD_DETECT, q->wd.cfg.detect_ms) ||
	    nla_put_u32(skb, TCA_LOSSLESS_PFCWD_RESTORE, q->wd.cfg.restore_ms) ||
	    nla_put_u8(skb, TCA_LOSSLESS_PFCWD_ACTION, q->wd.cfg.action) ||
	    nla_put_u32(skb, TCA_LOSSLESS_PFCWD_LIMIT, q->wd.cfg.limit) ||
	    nla_put_u32(skb, TCA_LOSSLESS_PFCWD_WINDOW, q->wd.cfg.window_s) ||
	    nla_put_u8(skb, TCA_LOSSLESS_PFCWD_OFF, q->wd.pfc_off) ||
	    nla_put_u8(skb, TCA_LOSSLESS_UPLINK, q->uplink) ||
	    nla_put(skb, TCA_LOSSLESS_HOOK_REMAP, sizeof(q->hook_remap), q->hook_remap) ||
	    lossless_cc_dump(q, skb))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

/*
 * The per-class statistics attributes, into the nest being built: the
 * queue histogram in its log2 buckets, summed from the fine ones the class
 * keeps (a class's own dump adds those, lossless_class_dump_stats()).
 */
int lossless_put_class_stats(struct sk_buff *skb, struct lossless_sched_data *q, int tc)
{
	const struct lossless_class *c = &q->classes[tc];
	u64 qhist[TC_LOSSLESS_QHIST_BUCKETS] = {};
	struct lossless_port_stats ps;
	unsigned int i;

	for (i = 0; i < TC_LOSSLESS_QHIST_FINE_BUCKETS; i++)
		qhist[lossless_qhist_fold(i)] += c->qhist[i];
	lossless_port_tc_stats(q, tc, &ps);
	if (nla_put_u32(skb, TCA_LOSSLESS_STATS_TC, tc) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_ECN_MARKED, c->ecn_marked,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_STATS_PEAK_BACKLOG, c->peak_backlog) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_LIMIT_DROPS, c->limit_drops,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_BUFFER_DROPS, c->buffer_drops,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_PFC_RX, atomic64_read(&q->pfc_rx[tc]),
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_PAUSE_US, lossless_pause_us(q, tc),
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_PFC_TX_XOFF, ps.xoff_sent,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_PFC_TX_XON, ps.xon_sent,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_STATS_HEADROOM, c->headroom ?: q->auto_headroom) ||
	    nla_put_u32(skb, TCA_LOSSLESS_STATS_HEADROOM_PEAK, ps.peak_headroom) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_HEADROOM_DROPS, ps.headroom_drops,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_STATS_INGRESS, ps.bytes) ||
	    nla_put_u8(skb, TCA_LOSSLESS_STATS_PAUSING, ps.pausing) ||
	    nla_put_u8(skb, TCA_LOSSLESS_STATS_WD_STATE, q->wd.queue[tc].state) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_WD_DETECTED, q->wd.queue[tc].detected,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_WD_RESTORED, q->wd.queue[tc].restored,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_WD_DROPPED, q->wd.dropped[tc],
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_HOOK_REMAPPED, c->hook_remapped,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_IN, c->in, TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_INGRESS_DROPS, c->ingress_drops,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_FLUSHED, c->flushed,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put(skb, TCA_LOSSLESS_STATS_QHIST, sizeof(qhist), qhist) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_TX_BYTES, u64_stats_read(&c->bstats.bytes),
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u32(skb, TCA_LOSSLESS_STATS_BACKLOG, c->qstats.backlog) ||
	    nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_OUT, c->out, TCA_LOSSLESS_STATS_PAD))
		return -EMSGSIZE;
	/*
	 * Pacing's counters only where something paces: a qdisc's reply to
	 * RTM_GETQDISC (not a dump) must fit in NLMSG_GOODSIZE, which the
	 * eight classes' counters nearly fill (aiecnd reads it so).
	 */
	if (q->cc_ops &&
	    (nla_put_u64_64bit(skb, TCA_LOSSLESS_STATS_PACED, c->paced, TCA_LOSSLESS_STATS_PAD) ||
	     nla_put_u32(skb, TCA_LOSSLESS_STATS_PACED_PACKETS, c->paced_qlen) ||
	     nla_put_u32(skb, TCA_LOSSLESS_STATS_PACED_BACKLOG, c->paced_backlog)))
		return -EMSGSIZE;
	return 0;
}

/* Nested TCA_STATS_APP: the port's counters and one nest per class. */
int lossless_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct nlattr *stats, *nest;
	int tc;

	stats = nla_nest_start_noflag(d->skb, TCA_STATS_APP);
	if (!stats)
		return -1;
	if (nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_THROTTLED, q->throttled,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_PFC_RX_BAD,
			      atomic64_read(&q->pfc_rx_bad), TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_SPEED, q->speed,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u32(d->skb, TCA_LOSSLESS_STATS_MTU, q->mtu) ||
	    nla_put_u32(d->skb, TCA_LOSSLESS_STATS_WD_POLL_US, lossless_pfcwd_poll_us(q)) ||
	    nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_IN, q->in, TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_FLUSHED, q->flushed,
			      TCA_LOSSLESS_STATS_PAD) ||
	    nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_OUT, q->out, TCA_LOSSLESS_STATS_PAD))
		goto nla_put_failure;
	if (q->cc_ops &&
	    (nla_put_u64_64bit(d->skb, TCA_LOSSLESS_STATS_PACE_REFUSED, q->pace_refused,
			       TCA_LOSSLESS_STATS_PAD) ||
	     nla_put_u32(d->skb, TCA_LOSSLESS_STATS_PACED_FLOWS, q->nflows)))
		goto nla_put_failure;
	if (lossless_cc_dump_stats(q, d->skb))
		goto nla_put_failure;
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		nest = nla_nest_start_noflag(d->skb, TCA_LOSSLESS_STATS_CLASS);
		if (!nest || lossless_put_class_stats(d->skb, q, tc))
			goto nla_put_failure;
		nla_nest_end(d->skb, nest);
	}
	nla_nest_end(d->skb, stats);
	return 0;

nla_put_failure:
	nla_nest_cancel(d->skb, stats);
	return -1;
}
