// SPDX-License-Identifier: GPL-2.0
/*
 * PFC frames of sch_lossless (skb-free, see lossless_pfc.h).
 */
#include <linux/bits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lossless_pfc.h"

const u8 lossless_pfc_dest[ETH_ALEN] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

/* The frame may sit at any alignment: big-endian fields byte by byte. */
static u16 pfc_get16(const u8 *p)
{
	return (u16)p[0] << 8 | p[1];
}

static void pfc_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

void lossless_pfc_encode(u8 *buf, const u8 *src_mac, const struct lossless_pfc *pfc)
{
	int prio;

	memcpy(buf, lossless_pfc_dest, ETH_ALEN);
	memcpy(buf + ETH_ALEN, src_mac, ETH_ALEN);
	pfc_put16(buf + 2 * ETH_ALEN, LOSSLESS_PFC_ETHERTYPE);
	pfc_put16(buf + LOSSLESS_PFC_OFF_OPCODE, LOSSLESS_PFC_OPCODE);
	/* the high octet of the class-enable vector is reserved: 0 */
	pfc_put16(buf + LOSSLESS_PFC_OFF_ENABLE, pfc->enable);
	for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++) {
		u16 quanta = pfc->enable & BIT(prio) ? pfc->quanta[prio] : 0;

		pfc_put16(buf + LOSSLESS_PFC_OFF_TIME + 2 * prio, quanta);
	}
	memset(buf + LOSSLESS_PFC_OFF_PAD, 0, LOSSLESS_PFC_FRAME_LEN - LOSSLESS_PFC_OFF_PAD);
}

int lossless_pfc_parse(const u8 *frame, unsigned int len, struct lossless_pfc *pfc)
{
	u16 opcode, enable;
	int prio;

	if (len < LOSSLESS_PFC_FRAME_LEN)
		return -LOSSLESS_PFC_ESHORT;
	if (pfc_get16(frame + 2 * ETH_ALEN) != LOSSLESS_PFC_ETHERTYPE)
		return -LOSSLESS_PFC_ENOTMACC;
	opcode = pfc_get16(frame + LOSSLESS_PFC_OFF_OPCODE);
	if (opcode == LOSSLESS_PAUSE_OPCODE)
		return -LOSSLESS_PFC_EPAUSE;
	if (opcode != LOSSLESS_PFC_OPCODE)
		return -LOSSLESS_PFC_EOPCODE;
	if (memcmp(frame, lossless_pfc_dest, ETH_ALEN))
		return -LOSSLESS_PFC_EDEST;
	enable = pfc_get16(frame + LOSSLESS_PFC_OFF_ENABLE);
	if (enable & 0xff00)
		return -LOSSLESS_PFC_ERESERVED;

	pfc->enable = enable;
	for (prio = 0; prio < LOSSLESS_PFC_NUM_PRIO; prio++)
		pfc->quanta[prio] = enable & BIT(prio) ?
				    pfc_get16(frame + LOSSLESS_PFC_OFF_TIME + 2 * prio) : 0;
	return 0;
}

/* n / d rounded up, for any n: n + d - 1 could overflow. */
static u64 pfc_div_round_up(u64 n, u64 d)
{
	u64 q, rem;

	q = div64_u64_rem(n, d, &rem);
	return q + !!rem;
}

u64 lossless_pfc_quanta_to_ns(u16 quanta, u64 speed_bps)
{
	/* 65535 x 512 x 10^9 < 2^55: the product fits */
	u64 bit_ns = (u64)quanta * LOSSLESS_PFC_QUANTUM * NSEC_PER_SEC;

	if (!speed_bps)
		return 0;
	return pfc_div_round_up(bit_ns, speed_bps);
}

u16 lossless_pfc_ns_to_quanta(u64 ns, u64 speed_bps)
{
	/* bit times x 10^9 in one quantum */
	const u64 quantum = (u64)LOSSLESS_PFC_QUANTUM * NSEC_PER_SEC;

	if (!ns)
		return 0;
	/* Past 2^64 bit times x 10^9, far more than 65535 quanta. */
	if (!speed_bps || ns > div64_u64(U64_MAX, speed_bps))
		return LOSSLESS_PFC_MAX_QUANTA;
	return min_t(u64, pfc_div_round_up(ns * speed_bps, quantum), LOSSLESS_PFC_MAX_QUANTA);
}

u64 lossless_pfc_refresh_ns(u16 quanta, u64 speed_bps)
{
	u64 pause = lossless_pfc_quanta_to_ns(quanta, speed_bps);

	if (!pause)
		return 0;
	return max_t(u64, pause / 2, 1);
}
