/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Priority-based Flow Control (IEEE 802.1Qbb) frames for sch_lossless.
 *
 * A PFC frame is a MAC Control frame (IEEE 802.3 clause 31, EtherType
 * 0x8808) with the class-based flow control opcode 0x0101 (802.3 Annex
 * 31D); 802.3x PAUSE (Annex 31B) is the same EtherType with opcode 0x0001
 * and a single pause time for the whole link. The frame, from the MAC
 * header, is padded to the 60-byte minimum before the FCS:
 *
 *   offset  size  field
 *        0     6  destination, 01-80-C2-00-00-01 (reserved multicast)
 *        6     6  source, the MAC address of the sending port
 *       12     2  EtherType 0x8808 (MAC Control)
 *       14     2  opcode 0x0101 (class-based flow control)
 *       16     2  class-enable vector: high octet 0, bit n of the low
 *                 octet enables time[n]
 *       18    16  time[0..7]: pause time of priority n in quanta of
 *                 512 bit times; 0 resumes the priority (XON)
 *       34    26  zero padding
 *
 * All multi-octet fields are big-endian. MAC Control frames are never
 * VLAN tagged, so the EtherType is always at offset 12.
 *
 * Nothing in here touches an skb, so that KUnit tests it as it is.
 */
#ifndef _SCH_LOSSLESS_PFC_H
#define _SCH_LOSSLESS_PFC_H

#include <linux/errno.h>
#include <linux/if_ether.h>
#include <linux/types.h>

#define LOSSLESS_PFC_NUM_PRIO	8
#define LOSSLESS_PFC_ETHERTYPE	ETH_P_PAUSE	/* 0x8808, MAC Control */
#define LOSSLESS_PFC_OPCODE	0x0101	/* class-based flow control */
#define LOSSLESS_PAUSE_OPCODE	0x0001	/* 802.3x PAUSE */
#define LOSSLESS_PFC_FRAME_LEN	ETH_ZLEN	/* 60 bytes, without the FCS */
#define LOSSLESS_PFC_QUANTUM	512	/* bit times */
#define LOSSLESS_PFC_MAX_QUANTA	65535
/*
 * The speeds pause times are counted at: those of Ethernet, 10 Mbit/s
 * (802.3i) to 1.6 Tbit/s (802.3dj). Slower, one XOFF of 65535 quanta would
 * stop a port for more than 3.4 s; faster, the refresh of an XOFF
 * (lossless_pfc_refresh_ns()) would come sooner than every 10 us.
 */
#define LOSSLESS_PFC_MIN_SPEED	10000000ULL		/* bit/s */
#define LOSSLESS_PFC_MAX_SPEED	1600000000000ULL	/* bit/s */

/* Field offsets from the start of the MAC header */
#define LOSSLESS_PFC_OFF_OPCODE	ETH_HLEN	/* 14 */
#define LOSSLESS_PFC_OFF_ENABLE	16
#define LOSSLESS_PFC_OFF_TIME	18	/* 8 x 2 bytes */
#define LOSSLESS_PFC_OFF_PAD	34	/* 26 bytes to LOSSLESS_PFC_FRAME_LEN */

/* 01-80-C2-00-00-01, the destination of MAC Control frames */
extern const u8 lossless_pfc_dest[ETH_ALEN];

/* The content of a PFC frame, in host order */
struct lossless_pfc {
	u8 enable;		/* bit n: quanta[n] is valid for priority n */
	u16 quanta[LOSSLESS_PFC_NUM_PRIO];	/* 512 bit times; 0: XON */
};

/*
 * Why lossless_pfc_parse() rejected a frame. Each is a distinct errno, so
 * the caller can count them apart; a PAUSE frame is not malformed, just
 * not PFC, and has its own code.
 */
#define LOSSLESS_PFC_ESHORT	EMSGSIZE	/* shorter than 60 bytes */
#define LOSSLESS_PFC_ENOTMACC	EPROTONOSUPPORT	/* EtherType is not 0x8808 */
#define LOSSLESS_PFC_EPAUSE	EOPNOTSUPP	/* opcode 0x0001: 802.3x PAUSE */
#define LOSSLESS_PFC_EOPCODE	EBADRQC		/* another MAC Control opcode */
#define LOSSLESS_PFC_EDEST	EADDRNOTAVAIL	/* not to 01-80-C2-00-00-01 */
#define LOSSLESS_PFC_ERESERVED	EBADMSG		/* class-enable high octet set */

/*
 * lossless_pfc_encode() - build a PFC frame
 * @buf: LOSSLESS_PFC_FRAME_LEN bytes, any alignment; the FCS is the
 *	 device's to append
 * @src_mac: the MAC address of the sending port
 * @pfc: what to send; quanta[n] of a priority whose enable bit is clear
 *	 is sent as 0
 */
void lossless_pfc_encode(u8 *buf, const u8 *src_mac, const struct lossless_pfc *pfc);

/*
 * lossless_pfc_parse() - read a received PFC frame
 * @frame: the frame from its MAC header, any alignment
 * @len: its length; at least LOSSLESS_PFC_FRAME_LEN, with or without the
 *	 FCS (devices mostly strip it), longer is accepted and the rest
 *	 ignored
 * @pfc: the result; quanta of disabled priorities are set to 0
 *
 * The checks are made in the order of the list of errors above, so that
 * the EtherType and opcode say what a frame is before its destination is
 * judged: an 802.3x PAUSE may be sent to a unicast address (802.3 Annex
 * 31B) and is reported as a PAUSE wherever it was sent. A PFC frame must be
 * sent to 01-80-C2-00-00-01 (802.1Qbb, 802.3 Annex 31D); one sent to any
 * other address, the port's own included, is rejected: the reserved
 * address is what keeps PFC on the link, since bridges never forward it.
 *
 * Return: 0 with @pfc filled in, or a negative LOSSLESS_PFC_E* error with
 * @pfc untouched.
 */
int lossless_pfc_parse(const u8 *frame, unsigned int len, struct lossless_pfc *pfc);

/*
 * lossless_pfc_quanta_to_ns() - how long a pause lasts
 * @quanta: pause time in quanta of 512 bit times
 * @speed_bps: link speed in bit/s
 *
 * Return: @quanta x 512 / @speed_bps seconds, in ns rounded up (a pause is
 * never taken as shorter than it is); 0 when @speed_bps is 0 (unknown).
 */
u64 lossless_pfc_quanta_to_ns(u16 quanta, u64 speed_bps);

/*
 * lossless_pfc_ns_to_quanta() - the pause time to ask for @ns
 * @ns: how long the peer should stop
 * @speed_bps: link speed in bit/s
 *
 * Return: quanta covering at least @ns (rounded up), at most 65535. A
 * request for a pause never becomes a resume: a non-zero @ns is at least
 * one quantum, and the maximum when @speed_bps is 0 (unknown).
 */
u16 lossless_pfc_ns_to_quanta(u64 ns, u64 speed_bps);

/*
 * lossless_pfc_refresh_ns() - when to send an XOFF again
 * @quanta: the pause time of the XOFF just sent
 * @speed_bps: link speed in bit/s
 *
 * A paused peer resumes by itself when the pause time runs out, so a port
 * that is still congested has to repeat the XOFF before then (802.3 Annex
 * 31D leaves when to the sender). We repeat it after half the pause time,
 * rounded down: the other half is the margin for the new frame to wait
 * behind a full-size frame, cross the cable and be acted upon, which is the
 * same propagation the headroom pays for (lossless_headroom.h) and is far
 * shorter than half of any pause worth sending. Each XOFF restarts the
 * peer's timer, so the pause holds as long as the refreshes arrive.
 *
 * Return: ns after sending, at least 1; 0 for an XON (@quanta 0, nothing
 * to refresh) or when @speed_bps is 0 (unknown: no timing possible).
 */
u64 lossless_pfc_refresh_ns(u16 quanta, u64 speed_bps);

#endif /* _SCH_LOSSLESS_PFC_H */
