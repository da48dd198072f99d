/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * DCQCN, the congestion control module dcqcn_cc of a lossless qdisc: its
 * options (nested in the qdisc's TCA_LOSSLESS_DCQCN) and its statistics
 * (nested in TCA_LOSSLESS_STATS_DCQCN). The qdisc hands both nests to the
 * module registered under the name "dcqcn" and reads neither.
 */
#ifndef _UAPI_LINUX_LOSSLESS_DCQCN_H
#define _UAPI_LINUX_LOSSLESS_DCQCN_H

/*
 * DCQCN of the endpoint (dcqcn_cc), nested in TCA_LOSSLESS_DCQCN: the
 * knobs of a ConnectX NIC under their mlx5 names. Rates in bytes per
 * second as tc passes them; a change sets only what it carries.
 */
enum {
	TCA_LOSSLESS_DCQCN_UNSPEC,
	TCA_LOSSLESS_DCQCN_NP,		/* u8, bit n: notification point for priority n */
	TCA_LOSSLESS_DCQCN_RP,		/* u8, bit n: reaction point for priority n */
	TCA_LOSSLESS_DCQCN_CNP_DSCP,	/* u8, 0..63: DSCP of the CNPs sent */
	TCA_LOSSLESS_DCQCN_CNP_PRIO,	/* u8, 0..7: skb priority (802.1p) of the CNPs */
	TCA_LOSSLESS_DCQCN_CNP_PKEY,	/* u16, P_Key of the CNPs */
	TCA_LOSSLESS_DCQCN_MIN_TIME_BETWEEN_CNPS,	/* u32, us, per QP */
	TCA_LOSSLESS_DCQCN_PAD,
	TCA_LOSSLESS_DCQCN_AI_RATE,	/* u64, rpg_ai_rate */
	TCA_LOSSLESS_DCQCN_HAI_RATE,	/* u64, rpg_hai_rate */
	TCA_LOSSLESS_DCQCN_MIN_RATE,	/* u64, rpg_min_rate */
	TCA_LOSSLESS_DCQCN_MAX_RATE,	/* u64, rpg_max_rate; 0: the line rate */
	TCA_LOSSLESS_DCQCN_FIRST_CNP_RATE,	/* u64, rate_to_set_on_first_cnp; 0: cut */
	TCA_LOSSLESS_DCQCN_TIME_RESET,	/* u32, us, rpg_time_reset */
	TCA_LOSSLESS_DCQCN_BYTE_RESET,	/* u32, bytes, rpg_byte_reset */
	TCA_LOSSLESS_DCQCN_THRESHOLD,	/* u32, rpg_threshold */
	TCA_LOSSLESS_DCQCN_MIN_DEC_FAC,	/* u32, percent, rpg_min_dec_fac */
	TCA_LOSSLESS_DCQCN_GD,		/* u32, rpg_gd */
	TCA_LOSSLESS_DCQCN_G,		/* u32, dce_tcp_g, 1/1024ths */
	TCA_LOSSLESS_DCQCN_RTT,		/* u32, us, dce_tcp_rtt */
	TCA_LOSSLESS_DCQCN_MONITOR_PERIOD,	/* u32, us, rate_reduce_monitor_period */
	TCA_LOSSLESS_DCQCN_INITIAL_ALPHA,	/* u32, initial_alpha_value, 1/1024ths */
	TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE,	/* u8, clamp_tgt_rate */
	TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI,	/* u8, clamp_tgt_rate_after_time_inc */
	TCA_LOSSLESS_DCQCN_LINE_RATE,	/* u64, dump only: the line rate the RP uses */
	__TCA_LOSSLESS_DCQCN_MAX
};

#define TCA_LOSSLESS_DCQCN_MAX	(__TCA_LOSSLESS_DCQCN_MAX - 1)

/* The stage of a QP's rate (TCA_LOSSLESS_DCQCN_QP_STAGE) */
enum tc_lossless_dcqcn_stage {
	TC_LOSSLESS_DCQCN_LINE,		/* no rate limit */
	TC_LOSSLESS_DCQCN_FAST_RECOVERY,
	TC_LOSSLESS_DCQCN_ADDITIVE,
	TC_LOSSLESS_DCQCN_HYPER,
};

/* DCQCN statistics, nested in TCA_LOSSLESS_STATS_DCQCN (mlx5's names) */
enum {
	TCA_LOSSLESS_DCQCN_STATS_UNSPEC,
	TCA_LOSSLESS_DCQCN_STATS_PAD,
	TCA_LOSSLESS_DCQCN_STATS_NP_ECN_MARKED,	/* u64, np_ecn_marked_roce_packets */
	TCA_LOSSLESS_DCQCN_STATS_NP_CNP_SENT,	/* u64, np_cnp_sent */
	TCA_LOSSLESS_DCQCN_STATS_NP_CNP_NO_PEER,/* u64, CE packets of a QP whose peer
						 * QP is not known yet: no CNP
						 */
	TCA_LOSSLESS_DCQCN_STATS_RP_CNP_HANDLED,/* u64, rp_cnp_handled */
	TCA_LOSSLESS_DCQCN_STATS_RP_CNP_IGNORED,/* u64, rp_cnp_ignored: all the CNPs ignored
						 * (by reason: STATS_CNP_*)
						 */
	TCA_LOSSLESS_DCQCN_STATS_ECT_SET,	/* u64, RoCEv2 packets sent ECT(0) */
	TCA_LOSSLESS_DCQCN_STATS_QPS,		/* u32, QPs known now */
	TCA_LOSSLESS_DCQCN_STATS_QP,		/* nested TCA_LOSSLESS_DCQCN_QP_*, one per QP */
	TCA_LOSSLESS_DCQCN_STATS_PACED,		/* u64, packets that waited for their QP's rate */
	TCA_LOSSLESS_DCQCN_STATS_CNP_MALFORMED,	/* u64, CNPs ignored: not a CNP's length or form */
	TCA_LOSSLESS_DCQCN_STATS_CNP_NO_BECN,	/* u64, CNPs ignored: BECN not set */
	TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_CSUM,	/* u64, CNPs ignored: UDP checksum wrong */
	TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_ICRC,	/* u64, CNPs ignored: ICRC wrong */
	TCA_LOSSLESS_DCQCN_STATS_CNP_NO_QP,	/* u64, CNPs ignored: no QP of ours with that
						 * peer, port and QP number, or none with a
						 * reaction point
						 */
	TCA_LOSSLESS_DCQCN_STATS_QP_REFUSED,	/* u64, packets of a new QP not followed: the
						 * table was full
						 */
	__TCA_LOSSLESS_DCQCN_STATS_MAX
};

#define TCA_LOSSLESS_DCQCN_STATS_MAX	(__TCA_LOSSLESS_DCQCN_STATS_MAX - 1)

/*
 * One QP as the wire shows it: the local QP is known by its UDP source
 * port (rxe: 0xC000 plus a hash of the QP number), the peer by its
 * address and QP number.
 */
enum {
	TCA_LOSSLESS_DCQCN_QP_UNSPEC,
	TCA_LOSSLESS_DCQCN_QP_PAD,
	TCA_LOSSLESS_DCQCN_QP_PEER,	/* be32, the peer's IPv4 address (or PEER6) */
	TCA_LOSSLESS_DCQCN_QP_SPORT,	/* u16, the local QP's UDP source port */
	TCA_LOSSLESS_DCQCN_QP_PEER_QPN,	/* u32, the peer's QP number */
	TCA_LOSSLESS_DCQCN_QP_PRIO,	/* u8, priority of its packets */
	TCA_LOSSLESS_DCQCN_QP_RATE,	/* u64, bit/s, current rate (R_C) */
	TCA_LOSSLESS_DCQCN_QP_TARGET,	/* u64, bit/s, target rate (R_T) */
	TCA_LOSSLESS_DCQCN_QP_ALPHA,	/* u32, 1/1024ths */
	TCA_LOSSLESS_DCQCN_QP_STAGE,	/* u8, enum tc_lossless_dcqcn_stage */
	TCA_LOSSLESS_DCQCN_QP_CNP_SENT,	/* u64, CNPs sent for it (NP) */
	TCA_LOSSLESS_DCQCN_QP_CNP_HANDLED,	/* u64, CNPs it reacted to (RP) */
	TCA_LOSSLESS_DCQCN_QP_PACED,	/* u64, its packets that waited for its rate */
	TCA_LOSSLESS_DCQCN_QP_HELD,	/* unused: waiting packets are in the qdisc
					 * (TCA_LOSSLESS_STATS_PACED_PACKETS)
					 */
	TCA_LOSSLESS_DCQCN_QP_PEER6,	/* struct in6_addr, the peer's IPv6
					 * address (or PEER)
					 */
	__TCA_LOSSLESS_DCQCN_QP_MAX
};

#define TCA_LOSSLESS_DCQCN_QP_MAX	(__TCA_LOSSLESS_DCQCN_QP_MAX - 1)

#endif /* _UAPI_LINUX_LOSSLESS_DCQCN_H */
