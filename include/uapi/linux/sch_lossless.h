/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_lossless: a lossless Ethernet port model for Linux (uAPI).
 *
 * The qdisc kind is "lossless". It has TC_LOSSLESS_NUM_TC traffic
 * classes; traffic class n is class 1:(n+1) of the qdisc.
 */
#ifndef _UAPI_LINUX_SCH_LOSSLESS_H
#define _UAPI_LINUX_SCH_LOSSLESS_H

#include <linux/types.h>

#define TC_LOSSLESS_NUM_TC	8	/* traffic classes */
#define TC_LOSSLESS_NUM_PRIO	8	/* 802.1Q priorities (PCP values) */
#define TC_LOSSLESS_NUM_DSCP	64

/* Where a packet's priority comes from */
enum tc_lossless_trust {
	TC_LOSSLESS_TRUST_PCP,	/* VLAN tag's PCP, else skb->priority */
	TC_LOSSLESS_TRUST_DSCP,	/* IPv4/IPv6 DSCP through the DSCP map */
	__TC_LOSSLESS_TRUST_MAX
};

#define TC_LOSSLESS_PMAX_SCALE	1000000	/* pmax is in millionths (1% = 10000) */
/*
 * TCA_LOSSLESS_STATS_QHIST: how many packets, on being queued, found the
 * class's backlog in each range: [0, 1 KiB), then [2^(i+9), 2^(i+10))
 * bytes for bucket i, the last bucket 16 MiB and up.
 */
#define TC_LOSSLESS_QHIST_BUCKETS	16
/*
 * TCA_LOSSLESS_STATS_QHIST_FINE (a class's dump only): the same counts,
 * eight buckets to the octave: buckets 0 to 15 are [256 i, 256 (i + 1))
 * bytes, then each octave from 4 KiB to 16 MiB is cut into eight equal
 * buckets (16 + 8 k + j is [2^(k+12) (8 + j) / 8, 2^(k+12) (9 + j) / 8)),
 * and the last bucket is 16 MiB and up. Summing a fine bucket's counts into
 * the bucket its range lies in gives TCA_LOSSLESS_STATS_QHIST.
 */
#define TC_LOSSLESS_QHIST_FINE_BUCKETS	113

/* What the PFC watchdog does to a queue it finds stuck in pause */
enum tc_lossless_pfcwd_action {
	TC_LOSSLESS_PFCWD_DROP,		/* drop its packets, queued and arriving */
	TC_LOSSLESS_PFCWD_FORWARD,	/* ignore the pauses it receives */
	TC_LOSSLESS_PFCWD_ALERT,	/* only count and trace */
	__TC_LOSSLESS_PFCWD_ACTION_MAX
};

/* The watchdog's state of a traffic class (TCA_LOSSLESS_STATS_WD_STATE) */
enum tc_lossless_wd_state {
	TC_LOSSLESS_WD_WATCHING,	/* normal PFC */
	TC_LOSSLESS_WD_STORMED,		/* detected: the action applies */
	TC_LOSSLESS_WD_PFC_OFF,		/* too many detections: PFC turned off */
};

/* Qdisc options, nested in TCA_OPTIONS */
enum {
	TCA_LOSSLESS_UNSPEC,
	TCA_LOSSLESS_BUFFER,	/* u32, shared buffer of the port in bytes */
	TCA_LOSSLESS_TRUST,	/* u8, enum tc_lossless_trust */
	TCA_LOSSLESS_PRIO_TC,	/* u8[TC_LOSSLESS_NUM_PRIO]: priority -> traffic class */
	TCA_LOSSLESS_DSCP_PRIO,	/* u8[TC_LOSSLESS_NUM_DSCP]: DSCP -> priority */
	TCA_LOSSLESS_RATE,	/* u64, port shaper in bytes per second (> 0) */
	TCA_LOSSLESS_BURST,	/* u32, shaper bucket in bytes */
	TCA_LOSSLESS_NORATE,	/* flag: remove the port shaper */
	TCA_LOSSLESS_PAD,
	TCA_LOSSLESS_PFC,	/* u8, bit n: priority n is lossless (PFC) */
	TCA_LOSSLESS_SPEED,	/* u64, link speed in bytes per second for pause
				 * times; 0: the shaper's rate, else the device's
				 */
	TCA_LOSSLESS_CABLE,	/* u32, metres of cable to the peer (headroom auto) */
	TCA_LOSSLESS_MTU,	/* u32, bytes, largest frame (headroom auto); 0: the
				 * device's MTU + link-layer header
				 */
	TCA_LOSSLESS_RESPONSE,	/* u32, ns the peer takes to act on a PFC frame
				 * (headroom auto); 0: IEEE 802.3's, by speed
				 */
	TCA_LOSSLESS_PFCWD_DETECT,	/* u32, ms a class may stay stuck in pause; 0: off */
	TCA_LOSSLESS_PFCWD_RESTORE,	/* u32, ms without XOFF before PFC resumes */
	TCA_LOSSLESS_PFCWD_ACTION,	/* u8, enum tc_lossless_pfcwd_action */
	TCA_LOSSLESS_PFCWD_LIMIT,	/* u32, detections in the window that turn
					 * PFC off; 0: never
					 */
	TCA_LOSSLESS_PFCWD_WINDOW,	/* u32, s, the window of the limit */
	TCA_LOSSLESS_PFCWD_OFF,		/* u8, dump only: priorities whose PFC the
					 * watchdog turned off (TCA_LOSSLESS_PFC turns
					 * them on again)
					 */
	TCA_LOSSLESS_UPLINK,		/* u8, 1: the port is one of the switch's uplinks */
	TCA_LOSSLESS_HOOK_REMAP,	/* u8[TC_LOSSLESS_NUM_PRIO]: priority a hook flow
					 * (in and out through uplinks) moves to; n -> n: none
					 */
	TCA_LOSSLESS_DCQCN,		/* nested: the options of the congestion control
					 * module "dcqcn" (linux/lossless_dcqcn.h)
					 */
	__TCA_LOSSLESS_MAX
};

#define TCA_LOSSLESS_MAX	(__TCA_LOSSLESS_MAX - 1)

/* Class options, nested in TCA_OPTIONS of a class change */
enum {
	TCA_LOSSLESS_CLASS_UNSPEC,
	TCA_LOSSLESS_CLASS_STRICT,	/* flag: strict priority (the default) */
	TCA_LOSSLESS_CLASS_QUANTUM,	/* u32, bytes: ETS (DRR) with this quantum */
	TCA_LOSSLESS_CLASS_LIMIT,	/* u32, bytes this class may queue */
	TCA_LOSSLESS_CLASS_ECN,		/* u8, 1: mark ECN (kmin, kmax, pmax); 0: don't */
	TCA_LOSSLESS_CLASS_KMIN,	/* u32, bytes: marking starts above */
	TCA_LOSSLESS_CLASS_KMAX,	/* u32, bytes: marking probability pmax here */
	TCA_LOSSLESS_CLASS_PMAX,	/* u32, millionths: probability at kmax */
	TCA_LOSSLESS_CLASS_XOFF,	/* u32, bytes in from a port: send XOFF above */
	TCA_LOSSLESS_CLASS_XON,		/* u32, bytes: send XON at or below (<= xoff) */
	TCA_LOSSLESS_CLASS_HEADROOM,	/* u32, bytes taken above xoff; 0: auto */
	__TCA_LOSSLESS_CLASS_MAX
};

#define TCA_LOSSLESS_CLASS_MAX	(__TCA_LOSSLESS_CLASS_MAX - 1)

/*
 * Statistics, nested in TCA_STATS_APP. A class's statistics hold the
 * per-class attributes; the qdisc's hold the port's attributes and one
 * TCA_LOSSLESS_STATS_CLASS nest per traffic class.
 *
 * Every packet is accounted for. A class: IN = sent (its packets) +
 * LIMIT_DROPS + BUFFER_DROPS + INGRESS_DROPS + WD_DROPPED + FLUSHED +
 * queued (its qlen), and its drops are the sum of the four drop counters.
 * The port (the qdisc's own counters, PFC frames included): IN = sent +
 * drops + FLUSHED + queued.
 */
enum {
	TCA_LOSSLESS_STATS_UNSPEC,
	TCA_LOSSLESS_STATS_CLASS,	/* nested: one traffic class (qdisc only) */
	TCA_LOSSLESS_STATS_TC,		/* u32, traffic class */
	TCA_LOSSLESS_STATS_ECN_MARKED,	/* u64, packets marked CE */
	TCA_LOSSLESS_STATS_PEAK_BACKLOG,/* u32, bytes, highest queue seen */
	TCA_LOSSLESS_STATS_LIMIT_DROPS,	/* u64, packets dropped over the class limit */
	TCA_LOSSLESS_STATS_BUFFER_DROPS,/* u64, packets dropped, shared buffer full */
	TCA_LOSSLESS_STATS_THROTTLED,	/* u64, times the shaper held the port (qdisc only) */
	TCA_LOSSLESS_STATS_PAD,
	TCA_LOSSLESS_STATS_PFC_RX,	/* u64, PFC frames that paused or resumed the class */
	TCA_LOSSLESS_STATS_PAUSE_US,	/* u64, time the peer kept the class paused */
	TCA_LOSSLESS_STATS_PFC_RX_BAD,	/* u64, malformed or 802.3x PAUSE frames (qdisc only) */
	TCA_LOSSLESS_STATS_SPEED,	/* u64, bytes/s used for pause times (qdisc only) */
	TCA_LOSSLESS_STATS_PFC_TX_XOFF,	/* u64, XOFF frames sent for the class (refreshes too) */
	TCA_LOSSLESS_STATS_PFC_TX_XON,	/* u64, XON frames sent for the class */
	TCA_LOSSLESS_STATS_HEADROOM,	/* u32, bytes of headroom in use (auto: computed) */
	TCA_LOSSLESS_STATS_HEADROOM_PEAK,/* u32, bytes, most headroom ever used */
	TCA_LOSSLESS_STATS_HEADROOM_DROPS,/* u64, packets in dropped: headroom full */
	TCA_LOSSLESS_STATS_INGRESS,	/* u32, bytes in from this port queued now */
	TCA_LOSSLESS_STATS_MTU,		/* u32, bytes, the MTU headroom auto uses (qdisc only) */
	TCA_LOSSLESS_STATS_PAUSING,	/* u8, 1: this port is pausing its peer for the class */
	TCA_LOSSLESS_STATS_WD_STATE,	/* u8, enum tc_lossless_wd_state */
	TCA_LOSSLESS_STATS_WD_DETECTED,	/* u64, times the watchdog found the class stuck */
	TCA_LOSSLESS_STATS_WD_RESTORED,	/* u64, times it gave the class back to PFC */
	TCA_LOSSLESS_STATS_WD_DROPPED,	/* u64, packets the watchdog dropped (action drop) */
	TCA_LOSSLESS_STATS_WD_POLL_US,	/* u32, the watchdog's polling period (qdisc only) */
	TCA_LOSSLESS_STATS_HOOK_REMAPPED,/* u64, hook-flow packets moved into the class */
	TCA_LOSSLESS_STATS_DCQCN,	/* nested: the statistics of the congestion
					 * control module "dcqcn" (linux/lossless_dcqcn.h;
					 * qdisc only)
					 */
	TCA_LOSSLESS_STATS_IN,		/* u64, packets in: the class's or the port's */
	TCA_LOSSLESS_STATS_INGRESS_DROPS,/* u64, packets dropped here, their in-port's
					  * headroom full
					  */
	TCA_LOSSLESS_STATS_FLUSHED,	/* u64, packets thrown away by a reset (device down) */
	TCA_LOSSLESS_STATS_QHIST,	/* __u64[TC_LOSSLESS_QHIST_BUCKETS], cumulative */
	TCA_LOSSLESS_STATS_TX_BYTES,	/* u64, bytes the class sent */
	TCA_LOSSLESS_STATS_BACKLOG,	/* u32, bytes in the class's queue now (not
					 * those of STATS_PACED_BACKLOG)
					 */
	TCA_LOSSLESS_STATS_OUT,		/* u64, packets out: the class's or the port's; a
					 * GSO packet counts one, as in STATS_IN
					 */
	TCA_LOSSLESS_STATS_QHIST_FINE,	/* __u64[TC_LOSSLESS_QHIST_FINE_BUCKETS], cumulative
					 * (a class's dump only)
					 */
	TCA_LOSSLESS_STATS_PACED,	/* u64, packets that waited for their flow's time */
	TCA_LOSSLESS_STATS_PACED_PACKETS,/* u32, packets of the class waiting now */
	TCA_LOSSLESS_STATS_PACED_BACKLOG,/* u32, bytes of the same */
	TCA_LOSSLESS_STATS_PACE_REFUSED,/* u64, packets not paced: too many flows
					 * waiting (qdisc only)
					 */
	TCA_LOSSLESS_STATS_PACED_FLOWS,	/* u32, flows with packets waiting (qdisc only) */
	__TCA_LOSSLESS_STATS_MAX
};

#define TCA_LOSSLESS_STATS_MAX	(__TCA_LOSSLESS_STATS_MAX - 1)

#endif /* _UAPI_LINUX_SCH_LOSSLESS_H */
