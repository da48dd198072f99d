// SPDX-License-Identifier: GPL-2.0
/*
 * Headroom of a lossless priority group (skb-free, see lossless_headroom.h).
 *
 * Exact integer arithmetic. The propagation is kept in units of
 * 1/396000 byte, 396000 being the least common multiple of the two
 * denominators it has:
 *
 *   on_cable      = L x S / 792         = L x S x 500 / 396000
 *   2 x on_gearbox = 2 x S x g / 8000   = S x g x  99 / 396000
 *
 * (S in Mbit/s, L in m, g in ns: Mbit/s x ns = 10^-3 bit.) sonic-swss
 * divides speed x gearbox_delay by 8 x 1024 instead of 8 x 1000, so the
 * same number there counts about 2.4% fewer bytes than a delay in ns does
 * here; the design doc gives the field in kbytes. A time in ns is what a
 * datasheet states, so that is what this takes.
 *
 * The occupancy 1 + 64 / average x (factor - 1) is the fraction (D + E) / D
 * with
 *
 *   D = 64 x sp + lossless_mtu x (100 - sp)   (100 x average, >= 6400)
 *   E = 6400 x (factor - 1)
 *
 * so that lossless_mtu + propagation x occupancy has its fractional part
 * over 396000 x D, which lossless_headroom_ceil() rounds up exactly.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/math64.h>

#include "lossless_headroom.h"
#include "lossless_pfc.h"

#define HEADROOM_SCALE	396000	/* 1/HEADROOM_SCALE byte is the unit of propagation */

/* sonic-swss's pause_quanta_per_speed, from IEEE 802.3 31B.3.7 */
static const struct {
	u32 speed;	/* Mbit/s */
	u16 quanta;
} lossless_peer_response[] = {
	{ 100, 1 },
	{ 1000, 2 },
	{ 10000, 67 },
	{ 25000, 80 },
	{ 40000, 118 },
	{ 50000, 147 },
	{ 100000, 394 },
	{ 200000, 453 },
	{ 400000, 905 },
	{ 800000, 905 },
};

u16 lossless_headroom_peer_quanta(u32 speed)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(lossless_peer_response); i++)
		if (lossless_peer_response[i].speed >= speed)
			return lossless_peer_response[i].quanta;
	return lossless_peer_response[ARRAY_SIZE(lossless_peer_response) - 1].quanta;
}

/*
 * ceil(prop x k / (HEADROOM_SCALE x d)), prop in 1/HEADROOM_SCALE byte.
 *
 * prop x k would not fit 64 bits at the limits, so the whole bytes and the
 * fraction of prop are multiplied apart:
 *
 *   prop = whole x HEADROOM_SCALE + frac
 *   prop x k / (HEADROOM_SCALE x d) = whole x k / d + frac x k / (HEADROOM_SCALE x d)
 *
 * and whole x k / d is split into its quotient and remainder, the remainder
 * going with the other fraction. Within the limits: whole < 2^30 and
 * k < 2^24, so whole x k < 2^54; d < 2^23, so the fractions' numerator is
 * below 2 x HEADROOM_SCALE x 2^24 < 2^44.
 */
static u64 lossless_headroom_ceil(u64 prop, u32 k, u32 d)
{
	u64 whole, q, rest;
	u32 frac, r;

	whole = div_u64_rem(prop, HEADROOM_SCALE, &frac);
	q = div_u64_rem(whole * k, d, &r);
	rest = (u64)r * HEADROOM_SCALE + (u64)frac * k;
	return q + DIV64_U64_ROUND_UP(rest, (u64)HEADROOM_SCALE * d);
}

static bool lossless_headroom_valid(const struct lossless_headroom_params *p)
{
	return p->speed >= 1 && p->speed <= LOSSLESS_HEADROOM_MAX_SPEED &&
	       p->cable <= LOSSLESS_HEADROOM_MAX_CABLE &&
	       p->port_mtu >= LOSSLESS_HEADROOM_MIN_MTU &&
	       p->port_mtu <= LOSSLESS_HEADROOM_MAX_MTU &&
	       p->lossless_mtu >= LOSSLESS_HEADROOM_MIN_MTU &&
	       p->lossless_mtu <= LOSSLESS_HEADROOM_MAX_MTU &&
	       p->gearbox_delay <= LOSSLESS_HEADROOM_MAX_GEARBOX &&
	       p->mac_phy_delay <= LOSSLESS_HEADROOM_MAX_DELAY &&
	       p->cell_size >= 1 && p->cell_size <= LOSSLESS_HEADROOM_MAX_CELL &&
	       p->small_pkt_pct <= 100 &&
	       p->pipeline_latency <= LOSSLESS_HEADROOM_MAX_DELAY;
}

int lossless_headroom_calc(const struct lossless_headroom_params *p,
			   struct lossless_headroom *hr)
{
	u32 quanta, factor, d, e;
	u64 prop, xoff, worst, xon, size;

	if (!lossless_headroom_valid(p))
		return -EINVAL;

	quanta = p->peer_quanta ?: lossless_headroom_peer_quanta(p->speed);

	/* propagation, in 1/HEADROOM_SCALE byte: below 2^30 bytes, 2^49 units */
	prop = (u64)(p->port_mtu + p->mac_phy_delay +
		     quanta * LOSSLESS_PFC_QUANTUM / BITS_PER_BYTE) * HEADROOM_SCALE;
	prop += (u64)p->cable * p->speed * (HEADROOM_SCALE / 792);
	prop += (u64)p->speed * p->gearbox_delay * (2 * HEADROOM_SCALE / 8000);

	/* buffer bytes per byte of small packets, at worst */
	if (p->cell_size > 2 * LOSSLESS_HEADROOM_SMALL_PKT)
		factor = DIV_ROUND_UP(p->cell_size, LOSSLESS_HEADROOM_SMALL_PKT);
	else
		factor = DIV_ROUND_UP(2 * p->cell_size, 1 + p->cell_size);

	/* cell_occupancy = (d + e) / d */
	d = LOSSLESS_HEADROOM_SMALL_PKT * p->small_pkt_pct +
	    p->lossless_mtu * (100 - p->small_pkt_pct);
	e = LOSSLESS_HEADROOM_SMALL_PKT * 100 * (factor - 1);

	xoff = p->lossless_mtu + lossless_headroom_ceil(prop, d + e, d);
	xoff = round_up(xoff, LOSSLESS_HEADROOM_UNIT);

	/* sonic-swss #4757: a margin when the small-packet estimate saves much */
	if (!p->shared_pool && p->small_pkt_pct != 100) {
		worst = p->lossless_mtu + lossless_headroom_ceil(prop, factor, 1);
		worst = round_up(worst, LOSSLESS_HEADROOM_UNIT);
		if (xoff + LOSSLESS_HEADROOM_COMPENSATION < worst)
			xoff += LOSSLESS_HEADROOM_COMPENSATION;
	}

	xon = round_up(p->pipeline_latency, LOSSLESS_HEADROOM_UNIT);
	size = p->shared_pool ? xon : xoff + xon;
	if (size > U32_MAX || xoff > U32_MAX)
		return -ERANGE;

	hr->xon = xon;
	hr->xoff = xoff;
	hr->size = size;
	return 0;
}

int lossless_headroom_soft(u32 speed, u32 cable, u32 mtu, u16 peer_quanta,
			   struct lossless_headroom *hr)
{
	const struct lossless_headroom_params p = {
		.speed = speed,
		.cable = cable,
		.port_mtu = mtu,
		.lossless_mtu = mtu,
		.peer_quanta = peer_quanta,
		.mac_phy_delay = LOSSLESS_HEADROOM_PAUSE_FRAME,
		.cell_size = 1,
	};

	return lossless_headroom_calc(&p, hr);
}
