// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 Base Transport Header, CNP and invariant CRC.
 *
 * BTH (IBA 9.2), 12 bytes, big endian:
 *
 *	byte 0		OpCode
 *	byte 1		SE:1 M:1 PadCnt:2 TVer:4
 *	bytes 2-3	P_Key
 *	byte 4		FECN:1 BECN:1 reserved:6	(RoCEv2: resv8a)
 *	bytes 5-7	DestQP
 *	byte 8		A:1 reserved:7
 *	bytes 9-11	PSN
 *
 * A CNP (RoCEv2 annex A17.9.3) is IP / UDP to 4791 / a BTH with OpCode
 * 0x81, BECN set and DestQP the QP the congested packet came from / 16
 * reserved bytes of zero / ICRC.
 *
 * The ICRC (IBA 7.8.1) is the CRC-32 of the packet from the IP header to
 * the end of the payload, with the fields a router may change masked to
 * ones: for RoCEv2 over IPv4 the IP header's TOS (so DSCP and ECN may
 * change on the way: a switch's CE mark keeps the ICRC valid), TTL and
 * header checksum, the UDP checksum and the BTH's resv8a byte. It is
 * computed as if 8 bytes of ones (the masked Local Route Header of
 * InfiniBand) came first and is sent inverted. rdma_rxe stores the value
 * in the CPU's byte order; this file writes it least significant byte
 * first, which is the same bytes on the little-endian machines rxe is
 * used on.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <net/checksum.h>

#include "dcqcn_cnp.h"
#include "../sch_lossless/lossless_compat.h"

/* crc32_le of eight 0xff bytes from a seed of ~0: the masked LRH */
#define ROCE_ICRC_SEED		0xdebb20e3U

#define IPV4_TOS		1
#define IPV4_TTL		8
#define IPV4_CHECK		10
#define UDP_CHECK		6
#define BTH_RESV8A		4

void dcqcn_bth_write(u8 *bth, const struct dcqcn_bth *info)
{
	bth[0] = info->opcode;
	bth[1] = (info->se ? 0x80 : 0) | (info->mig ? 0x40 : 0) |
		 ((info->pad & 3) << 4) | (info->tver & 0xf);
	put_unaligned_be16(info->pkey, bth + 2);
	put_unaligned_be32((info->fecn ? IB_BTH_FECN : 0) | (info->becn ? IB_BTH_BECN : 0) |
			   (info->qpn & IB_BTH_QPN_MASK), bth + 4);
	put_unaligned_be32((info->ack ? IB_BTH_ACK : 0) | (info->psn & IB_BTH_PSN_MASK),
			   bth + 8);
}

/* Return: 0, or -EINVAL when @len is shorter than a BTH. */
int dcqcn_bth_read(const u8 *bth, size_t len, struct dcqcn_bth *info)
{
	u32 w;

	if (len < IB_BTH_BYTES)
		return -EINVAL;
	info->opcode = bth[0];
	info->se = bth[1] & 0x80;
	info->mig = bth[1] & 0x40;
	info->pad = (bth[1] >> 4) & 3;
	info->tver = bth[1] & 0xf;
	info->pkey = get_unaligned_be16(bth + 2);
	w = get_unaligned_be32(bth + 4);
	info->fecn = w & IB_BTH_FECN;
	info->becn = w & IB_BTH_BECN;
	info->qpn = w & IB_BTH_QPN_MASK;
	w = get_unaligned_be32(bth + 8);
	info->ack = w & IB_BTH_ACK;
	info->psn = w & IB_BTH_PSN_MASK;
	return 0;
}

/* The IPv4 header length of a RoCEv2 packet that can carry an ICRC, or 0. */
static unsigned int dcqcn_ipv4_hlen(const u8 *pkt, size_t len)
{
	unsigned int ihl;

	if (len < 20 || (pkt[0] >> 4) != 4)
		return 0;
	ihl = (pkt[0] & 0xf) * 4;
	if (ihl < 20 || len < ihl + 8 + IB_BTH_BYTES + IB_ICRC_BYTES)
		return 0;
	return ihl;
}

/**
 * dcqcn_icrc_ipv4() - the ICRC a RoCEv2 packet over IPv4 must carry
 * @pkt: the IP packet, from its header to the end of the ICRC field
 * @len: its length
 *
 * Return: the ICRC, or 0 when @pkt is not an IPv4 packet long enough to
 * carry UDP, a BTH and an ICRC (a valid ICRC can be 0 too: check the
 * length first).
 */
u32 dcqcn_icrc_ipv4(const u8 *pkt, size_t len)
{
	u8 masked[60 + 8 + IB_BTH_BYTES];
	unsigned int ihl = dcqcn_ipv4_hlen(pkt, len), hdrs;
	u32 crc;

	if (!ihl)
		return 0;
	hdrs = ihl + 8 + IB_BTH_BYTES;
	memcpy(masked, pkt, hdrs);
	masked[IPV4_TOS] = 0xff;
	masked[IPV4_TTL] = 0xff;
	masked[IPV4_CHECK] = 0xff;
	masked[IPV4_CHECK + 1] = 0xff;
	masked[ihl + UDP_CHECK] = 0xff;
	masked[ihl + UDP_CHECK + 1] = 0xff;
	masked[ihl + 8 + BTH_RESV8A] = 0xff;
	crc = crc32_le(ROCE_ICRC_SEED, masked, hdrs);
	crc = crc32_le(crc, pkt + hdrs, len - hdrs - IB_ICRC_BYTES);
	return ~crc;
}

/* Whether the ICRC at the end of @pkt (IPv4, @len bytes) is right. */
bool dcqcn_icrc_ipv4_ok(const u8 *pkt, size_t len)
{
	if (!dcqcn_ipv4_hlen(pkt, len))
		return false;
	return get_unaligned_le32(pkt + len - IB_ICRC_BYTES) == dcqcn_icrc_ipv4(pkt, len);
}

/**
 * dcqcn_cnp_write_ipv4() - a CNP, from its IPv4 header to its ICRC
 * @buf: where to write it
 * @len: room in @buf, at least ROCE_CNP_IPV4_BYTES
 * @info: addresses, port, DSCP, P_Key and the QP to notify
 *
 * The IP header has no options, DF set, ECN Not-ECT; the UDP checksum is
 * 0 (none, as IPv4 allows); the BTH has BECN set, PSN 0.
 *
 * Return: the length written (ROCE_CNP_IPV4_BYTES), or -ENOSPC.
 */
int dcqcn_cnp_write_ipv4(u8 *buf, size_t len, const struct dcqcn_cnp_info *info)
{
	const struct dcqcn_bth bth = {
		.opcode = ROCE_CNP_OPCODE,
		.pkey = info->pkey,
		.becn = true,
		.qpn = info->dest_qp,
	};
	u8 *udp = buf + 20;

	if (len < ROCE_CNP_IPV4_BYTES)
		return -ENOSPC;
	memset(buf, 0, ROCE_CNP_IPV4_BYTES);
	buf[0] = 0x45;
	buf[IPV4_TOS] = (info->dscp & 0x3f) << 2;
	put_unaligned_be16(ROCE_CNP_IPV4_BYTES, buf + 2);
	put_unaligned_be16(info->id, buf + 4);
	put_unaligned_be16(0x4000, buf + 6);		/* DF */
	buf[IPV4_TTL] = info->ttl;
	buf[9] = 17;					/* UDP */
	memcpy(buf + 12, &info->saddr, 4);
	memcpy(buf + 16, &info->daddr, 4);
	put_unaligned((__force u16)ip_fast_csum(buf, 5), (u16 *)(buf + IPV4_CHECK));

	put_unaligned_be16(info->sport, udp);
	put_unaligned_be16(ROCE_V2_UDP_DPORT, udp + 2);
	put_unaligned_be16(8 + ROCE_CNP_UDP_PAYLOAD, udp + 4);

	dcqcn_bth_write(udp + 8, &bth);
	/* the 16 reserved bytes stay zero */
	put_unaligned_le32(dcqcn_icrc_ipv4(buf, ROCE_CNP_IPV4_BYTES),
			   buf + ROCE_CNP_IPV4_BYTES - IB_ICRC_BYTES);
	return ROCE_CNP_IPV4_BYTES;
}

/**
 * dcqcn_cnp_check_ipv4() - whether a packet is a CNP to be taken
 * @pkt: the IPv4 packet, from its header
 * @len: the bytes at @pkt (at least the packet's total length)
 * @bth: its BTH, when it is one
 *
 * A CNP is taken only whole and intact: an IPv4 header without options
 * and not a fragment, UDP to 4791 of exactly a CNP's length, a BTH with
 * the CNP opcode and BECN set, a UDP checksum that is 0 or right, and the
 * right ICRC.
 *
 * Return: DCQCN_CNP_OK, or why not.
 */
enum dcqcn_cnp_fault dcqcn_cnp_check_ipv4(const u8 *pkt, size_t len, struct dcqcn_bth *bth)
{
	const u8 *udp = pkt + 20;
	__be32 saddr, daddr;
	__wsum sum;

	if (len < ROCE_CNP_IPV4_BYTES || pkt[0] != 0x45 ||
	    get_unaligned_be16(pkt + 2) != ROCE_CNP_IPV4_BYTES ||
	    (get_unaligned_be16(pkt + 6) & 0x3fff) || pkt[9] != 17 ||
	    get_unaligned_be16(udp + 2) != ROCE_V2_UDP_DPORT ||
	    get_unaligned_be16(udp + 4) != 8 + ROCE_CNP_UDP_PAYLOAD ||
	    dcqcn_bth_read(udp + 8, IB_BTH_BYTES, bth) || bth->opcode != ROCE_CNP_OPCODE)
		return DCQCN_CNP_MALFORMED;
	if (!bth->becn)
		return DCQCN_CNP_NO_BECN;
	if (get_unaligned((const u16 *)(udp + UDP_CHECK))) {
		memcpy(&saddr, pkt + 12, 4);
		memcpy(&daddr, pkt + 16, 4);
		sum = csum_partial(udp, 8 + ROCE_CNP_UDP_PAYLOAD, 0);
		if (csum_tcpudp_magic(saddr, daddr, 8 + ROCE_CNP_UDP_PAYLOAD, IPPROTO_UDP, sum))
			return DCQCN_CNP_BAD_CSUM;
	}
	if (!dcqcn_icrc_ipv4_ok(pkt, ROCE_CNP_IPV4_BYTES))
		return DCQCN_CNP_BAD_ICRC;
	return DCQCN_CNP_OK;
}
