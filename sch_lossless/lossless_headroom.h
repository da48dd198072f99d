/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Headroom of a lossless priority group: how much buffer a priority must
 * still have free when it sends XOFF, for the bytes that keep arriving
 * until the peer stops.
 *
 * This is SONiC's "well-known formula" (SONiC design doc
 * doc/qos/dynamically-headroom-calculation.md, and as sonic-swss
 * cfgmgr/buffer_headroom_mellanox.lua computes it), with the ASIC-specific
 * parts left to the caller. In bytes, for a port of speed S Mbit/s and a
 * cable of L m:
 *
 *   on_cable    = 2 x L / 198e6 m/s x S x 10^6 / 8   = L x S / 792
 *                 (there and back at about 2/3 of c, 5.05 ns/m)
 *   on_gearbox  = g x S / 8000, g the gearbox delay in ns, per crossing
 *   peer        = pause quanta x 512 / 8 (peer response, IEEE 802.3
 *                 31B.3.7, per speed: lossless_headroom_peer_quanta())
 *   propagation = port_mtu + on_cable + 2 x on_gearbox + mac_phy_delay
 *                 + peer
 *
 * The buffer is counted in cells, and a small packet wastes most of its
 * cell. With c the cell size, the buffer that a byte of 64-byte packets
 * takes at worst is
 *
 *   factor = ceil(c / 64)            c > 128
 *            ceil(2 x c / (1 + c))   otherwise (1 for c = 1, else 2)
 *
 * and, sp percent of the packets being 64 bytes and the rest lossless_mtu,
 *
 *   average = (64 x sp + lossless_mtu x (100 - sp)) / 100
 *   spb     = 100 x 64 / average        ("small packet percentage by byte")
 *   cell_occupancy = (100 - spb + spb x factor) / 100
 *                  = 1 + 64 / average x (factor - 1)
 *
 * spb is the share of bytes in small packets only at sp = 100; below, it
 * is that share x 100 / sp (at sp = 50 and lossless_mtu 1024: 11.8%, the
 * share being 5.9%), so the occupancy errs on the large side. It is kept
 * as sonic-swss has it (since its PR #3235), which the worked values of
 * SONiC rest on. A buffer that counts bytes, as a qdisc does, has c = 1
 * and an occupancy of 1.
 *
 *   xoff = ceil((lossless_mtu + propagation x cell_occupancy) / 1024) x 1024
 *
 * Unless a shared headroom pool is used, sonic-swss (since its PR #4757)
 * adds 2 KiB to xoff when sp < 100 and xoff + 2 KiB is still below the
 * xoff of the worst case, all packets small (occupancy = factor): the
 * small-packet share is an estimate, and this keeps a margin when the
 * estimate saves a lot.
 *
 *   xon  = ceil(pipeline_latency / 1024) x 1024
 *   size = xoff + xon, or xon alone with a shared headroom pool (the xoff
 *          part then comes from the pool)
 *
 * Everything is integer and exact: the fractions are carried to the one
 * rounding, so each ceiling is the one the formula's real numbers give.
 *
 * Not included, being particular to one ASIC: Spectrum-4/5's bytes on the
 * tile (add them to mac_phy_delay), Spectrum-6's 18 KiB, and 8-lane ports'
 * doubled pipeline latency and extra port_mtu in size.
 */
#ifndef _SCH_LOSSLESS_HEADROOM_H
#define _SCH_LOSSLESS_HEADROOM_H

#include <linux/types.h>

/* Input limits: within them no step can overflow (see the .c file). */
#define LOSSLESS_HEADROOM_MAX_SPEED	1600000	/* Mbit/s, 1.6 Tbit/s */
#define LOSSLESS_HEADROOM_MAX_CABLE	100000	/* m */
#define LOSSLESS_HEADROOM_MIN_MTU	64	/* bytes, the minimal packet */
#define LOSSLESS_HEADROOM_MAX_MTU	65535	/* bytes */
#define LOSSLESS_HEADROOM_MAX_GEARBOX	1000000	/* ns, 1 ms */
#define LOSSLESS_HEADROOM_MAX_DELAY	(16 << 20)	/* bytes: mac_phy, pipeline */
#define LOSSLESS_HEADROOM_MAX_CELL	65535	/* bytes */

#define LOSSLESS_HEADROOM_SMALL_PKT	64	/* bytes */
#define LOSSLESS_HEADROOM_UNIT		1024	/* bytes: xon, xoff, size round up to it */
#define LOSSLESS_HEADROOM_COMPENSATION	2048	/* bytes */

struct lossless_headroom_params {
	u32 speed;		/* Mbit/s, 1..LOSSLESS_HEADROOM_MAX_SPEED */
	u32 cable;		/* m */
	u32 port_mtu;		/* bytes, the largest frame of the port */
	u32 lossless_mtu;	/* bytes, the largest lossless packet */
	u16 peer_quanta;	/* peer response in pause quanta, 0: by speed */
	u32 gearbox_delay;	/* ns, one crossing of the gearbox; 0: none */
	u32 mac_phy_delay;	/* bytes */
	u32 cell_size;		/* bytes, 1 for a buffer that counts bytes */
	u32 small_pkt_pct;	/* percent of the packets that are 64 bytes */
	u32 pipeline_latency;	/* bytes, becomes xon */
	bool shared_pool;	/* xoff comes from a shared headroom pool */
};

struct lossless_headroom {
	u32 xon;	/* bytes */
	u32 xoff;	/* bytes */
	u32 size;	/* bytes, the headroom to reserve */
};

/*
 * lossless_headroom_peer_quanta() - peer response of a speed, in quanta
 * @speed: Mbit/s
 *
 * The table is sonic-swss's, from IEEE 802.3 31B.3.7, for 100 Mbit/s to
 * 800 Gbit/s. Between two listed speeds this takes the faster one's value:
 * the response grows with speed in the table, so that is an upper bound
 * for any PHY in between, where interpolating would guess at a PHY that
 * the standard does not list. Above 800 Gbit/s it is 800 Gbit/s's value
 * (set peer_quanta to do better).
 */
u16 lossless_headroom_peer_quanta(u32 speed);

/*
 * lossless_headroom_calc() - xon, xoff and headroom size of a priority group
 *
 * Return: 0, -EINVAL when a parameter is out of its range (see the limits
 * above; small_pkt_pct <= 100, cell_size >= 1), -ERANGE when a result does
 * not fit 32 bits.
 */
int lossless_headroom_calc(const struct lossless_headroom_params *p,
			   struct lossless_headroom *hr);

/* The pause frame on the wire: 64 bytes with its FCS, without preamble */
#define LOSSLESS_HEADROOM_PAUSE_FRAME	64	/* bytes */

/*
 * lossless_headroom_soft() - the headroom of a software port
 * @speed: Mbit/s
 * @cable: m (0 for a veth or another virtual link)
 * @mtu: bytes, the largest frame as the queue counts it (for a qdisc the
 *	 skb->len of a full packet: dev->mtu + dev->hard_header_len)
 * @peer_quanta: the peer's response time in pause quanta; 0: IEEE 802.3's
 *	 for @speed (lossless_headroom_peer_quanta())
 * @hr: the result
 *
 * A byte-counted buffer (cell 1, occupancy 1, small packets cost nothing
 * extra) with the port and lossless MTU equal and no gearbox. The MAC/PHY
 * delay is the pause frame itself: the peer sends for as long as the XOFF
 * takes to be sent. No xon: the queue counts each packet when it is
 * enqueued, so no bytes sit in a pipeline ahead of the count, and
 * size = xoff:
 *
 *   xoff = ceil((2 x mtu + cable x speed / 792 + 64 + quanta x 64) / 1024) x 1024
 */
int lossless_headroom_soft(u32 speed, u32 cable, u32 mtu, u16 peer_quanta,
			   struct lossless_headroom *hr);

#endif /* _SCH_LOSSLESS_HEADROOM_H */
