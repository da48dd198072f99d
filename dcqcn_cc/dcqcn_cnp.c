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
 * ones: over IPv4 the IP header's TOS (so DSCP and ECN may change on the
 * way: a switch's CE mark keeps the ICRC valid), TTL and header checksum;
 * over IPv6 the traffic class, flow label and hop limit; and in both the
 * UDP checksum and the BTH's resv8a byte. It is
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
#include <net/ip6_checksum.h>
#include <net/ipv6.h>

#include "dcqcn_cnp.h"
#include "../sch_lossless/lossless_compat.h"

/* crc32_le of eight 0xff bytes from a seed of ~0: the masked LRH */
#define ROCE_ICRC_SEED		0xdebb20e3U

#define IPV4_TOS		1
#define IPV4_TTL		8
#define IPV4_CHECK		10
#define IPV6_OFF_NEXTHDR		6
#define IPV6_OFF_HOPLIMIT		7
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

/*
 * The IP header length of a RoCEv2 packet that can carry an ICRC, or 0:
 * IPv4 (any options), or IPv6 with UDP as its next header (RoCEv2 sends
 * no extension headers).
 */
static unsigned int dcqcn_ip_hlen(const u8 *pkt, size_t len)
{
	unsigned int hlen;

	if (len < 20)
		return 0;
	switch (pkt[0] >> 4) {
	case 4:
		hlen = (pkt[0] & 0xf) * 4;
		if (hlen < 20)
			return 0;
		break;
	case 6:
		if (len < 40 || pkt[IPV6_OFF_NEXTHDR] != IPPROTO_UDP)
			return 0;
		hlen = 40;
		break;
	default:
		return 0;
	}
	return len < hlen + 8 + IB_BTH_BYTES + IB_ICRC_BYTES ? 0 : hlen;
}

/**
 * dcqcn_icrc() - the ICRC a RoCEv2 packet must carry
 * @pkt: the IP packet (IPv4 or IPv6), from its header to the end of the
 *	 ICRC field
 * @len: its length
 *
 * Return: the ICRC, or 0 when @pkt is not an IP packet long enough to
 * carry UDP, a BTH and an ICRC (a valid ICRC can be 0 too: check the
 * length first).
 */
u32 dcqcn_icrc(const u8 *pkt, size_t len)
{
	u8 masked[60 + 8 + IB_BTH_BYTES];
	unsigned int hlen = dcqcn_ip_hlen(pkt, len), hdrs;
	u32 crc;

	if (!hlen)
		return 0;
	hdrs = hlen + 8 + IB_BTH_BYTES;
	memcpy(masked, pkt, hdrs);
	if ((pkt[0] >> 4) == 6) {
		/* traffic class and flow label: all but the version */
		masked[0] |= 0x0f;
		memset(masked + 1, 0xff, 3);
		masked[IPV6_OFF_HOPLIMIT] = 0xff;
	} else {
		masked[IPV4_TOS] = 0xff;
		masked[IPV4_TTL] = 0xff;
		masked[IPV4_CHECK] = 0xff;
		masked[IPV4_CHECK + 1] = 0xff;
	}
	masked[hlen + UDP_CHECK] = 0xff;
	masked[hlen + UDP_CHECK + 1] = 0xff;
	masked[hlen + 8 + BTH_RESV8A] = 0xff;
	crc = crc32_le(ROCE_ICRC_SEED, masked, hdrs);
	crc = crc32_le(crc, pkt + hdrs, len - hdrs - IB_ICRC_BYTES);
	return ~crc;
}

/* Whether the ICRC at the end of @pkt (IPv4 or IPv6, @len bytes) is right. */
bool dcqcn_icrc_ok(const u8 *pkt, size_t len)
{
	if (!dcqcn_ip_hlen(pkt, len))
		return false;
	return get_unaligned_le32(pkt + len - IB_ICRC_BYTES) == dcqcn_icrc(pkt, len);
}

/*
 * The checksum of a CNP's UDP datagram @udp: with its check field 0, the
 * value to put there; with it set, 0 when it is right.
 */
static __sum16 dcqcn_cnp_udp_csum(const struct dcqcn_cnp_info *info, const u8 *udp)
{
	__wsum sum = csum_partial(udp, 8 + ROCE_CNP_UDP_PAYLOAD, 0);

	if (info->ipv6)
		return csum_ipv6_magic(&info->saddr, &info->daddr, 8 + ROCE_CNP_UDP_PAYLOAD,
				       IPPROTO_UDP, sum);
	return csum_tcpudp_magic(info->saddr.s6_addr32[3], info->daddr.s6_addr32[3],
				 8 + ROCE_CNP_UDP_PAYLOAD, IPPROTO_UDP, sum);
}

/* A CNP's IPv4 header, no options, DF set, Not-ECT. */
static void dcqcn_cnp_write_ip4(u8 *buf, const struct dcqcn_cnp_info *info)
{
	buf[0] = 0x45;
	buf[IPV4_TOS] = (info->dscp & 0x3f) << 2;
	put_unaligned_be16(ROCE_CNP_IPV4_BYTES, buf + 2);
	put_unaligned_be16(info->id, buf + 4);
	put_unaligned_be16(0x4000, buf + 6);		/* DF */
	buf[IPV4_TTL] = info->ttl;
	buf[9] = IPPROTO_UDP;
	memcpy(buf + 12, &info->saddr.s6_addr32[3], 4);
	memcpy(buf + 16, &info->daddr.s6_addr32[3], 4);
	put_unaligned((__force u16)ip_fast_csum(buf, 5), (u16 *)(buf + IPV4_CHECK));
}

/* A CNP's IPv6 header, flow label 0, Not-ECT. */
static void dcqcn_cnp_write_ip6(u8 *buf, const struct dcqcn_cnp_info *info)
{
	/* version 6, traffic class DSCP << 2, flow label 0 */
	put_unaligned_be32(6U << 28 | (u32)(info->dscp & 0x3f) << 22, buf);
	put_unaligned_be16(8 + ROCE_CNP_UDP_PAYLOAD, buf + 4);
	buf[IPV6_OFF_NEXTHDR] = IPPROTO_UDP;
	buf[IPV6_OFF_HOPLIMIT] = info->ttl;
	memcpy(buf + 8, &info->saddr, 16);
	memcpy(buf + 24, &info->daddr, 16);
}

/**
 * dcqcn_cnp_write() - a CNP, from its IP header to its ICRC
 * @buf: where to write it
 * @len: room in @buf, at least dcqcn_cnp_bytes(@info->ipv6)
 * @info: family, addresses, port, DSCP, P_Key and the QP to notify
 *
 * IPv4: no options, DF set, ECN Not-ECT, the UDP checksum 0 (none, as
 * IPv4 allows). IPv6: no extension headers, flow label 0, Not-ECT, the UDP
 * checksum set (IPv6 requires one). The BTH has BECN set, PSN 0.
 *
 * Return: the length written (ROCE_CNP_IPV4_BYTES or ROCE_CNP_IPV6_BYTES),
 * or -ENOSPC.
 */
int dcqcn_cnp_write(u8 *buf, size_t len, const struct dcqcn_cnp_info *info)
{
	const struct dcqcn_bth bth = {
		.opcode = ROCE_CNP_OPCODE,
		.pkey = info->pkey,
		.becn = true,
		.qpn = info->dest_qp,
	};
	unsigned int bytes = dcqcn_cnp_bytes(info->ipv6), hlen = bytes - 8 - ROCE_CNP_UDP_PAYLOAD;
	u8 *udp = buf + hlen;
	__sum16 check;

	if (len < bytes)
		return -ENOSPC;
	memset(buf, 0, bytes);
	if (info->ipv6)
		dcqcn_cnp_write_ip6(buf, info);
	else
		dcqcn_cnp_write_ip4(buf, info);

	put_unaligned_be16(info->sport, udp);
	put_unaligned_be16(ROCE_V2_UDP_DPORT, udp + 2);
	put_unaligned_be16(8 + ROCE_CNP_UDP_PAYLOAD, udp + 4);

	dcqcn_bth_write(udp + 8, &bth);
	/* the 16 reserved bytes stay zero */
	put_unaligned_le32(dcqcn_icrc(buf, bytes), buf + bytes - IB_ICRC_BYTES);
	/* last: the UDP checksum covers the ICRC (the ICRC masks the checksum) */
	if (info->ipv6) {
		check = dcqcn_cnp_udp_csum(info, udp) ?: CSUM_MANGLED_0;
		put_unaligned((__force u16)check, (u16 *)(udp + UDP_CHECK));
	}
	return bytes;
}

/*
 * The headers of a CNP in @pkt, @len bytes from its IP header: whether it
 * is one, in *@info its family and addresses.
 */
static bool dcqcn_cnp_headers(const u8 *pkt, size_t len, struct dcqcn_cnp_info *info)
{
	const u8 *udp;

	if (len < ROCE_CNP_IPV4_BYTES)
		return false;
	switch (pkt[0] >> 4) {
	case 4:
		if (pkt[0] != 0x45 ||
		    get_unaligned_be16(pkt + 2) != ROCE_CNP_IPV4_BYTES ||
		    (get_unaligned_be16(pkt + 6) & 0x3fff) || pkt[9] != IPPROTO_UDP)
			return false;
		info->ipv6 = false;
		ipv6_addr_set_v4mapped(get_unaligned((__be32 *)(pkt + 12)), &info->saddr);
		ipv6_addr_set_v4mapped(get_unaligned((__be32 *)(pkt + 16)), &info->daddr);
		udp = pkt + 20;
		break;
	case 6:
		if (len < ROCE_CNP_IPV6_BYTES ||
		    get_unaligned_be16(pkt + 4) != 8 + ROCE_CNP_UDP_PAYLOAD ||
		    pkt[IPV6_OFF_NEXTHDR] != IPPROTO_UDP)
			return false;
		info->ipv6 = true;
		memcpy(&info->saddr, pkt + 8, 16);
		memcpy(&info->daddr, pkt + 24, 16);
		udp = pkt + 40;
		break;
	default:
		return false;
	}
	return get_unaligned_be16(udp + 2) == ROCE_V2_UDP_DPORT &&
	       get_unaligned_be16(udp + 4) == 8 + ROCE_CNP_UDP_PAYLOAD;
}

/**
 * dcqcn_cnp_check() - whether a packet is a CNP to be taken
 * @pkt: the IPv4 or IPv6 packet, from its header
 * @len: the bytes at @pkt (at least the packet's length)
 * @bth: its BTH, when it is one
 *
 * A CNP is taken only whole and intact: an IPv4 header without options
 * and not a fragment, or an IPv6 header with UDP next; UDP to 4791 of
 * exactly a CNP's length; a BTH with the CNP opcode and BECN set; a UDP
 * checksum that is 0 (none: what IPv4 allows and rxe sends on IPv6 too)
 * or right; and the right ICRC.
 *
 * Return: DCQCN_CNP_OK, or why not.
 */
enum dcqcn_cnp_fault dcqcn_cnp_check(const u8 *pkt, size_t len, struct dcqcn_bth *bth)
{
	struct dcqcn_cnp_info info;
	unsigned int bytes;
	const u8 *udp;

	if (!dcqcn_cnp_headers(pkt, len, &info))
		return DCQCN_CNP_MALFORMED;
	bytes = dcqcn_cnp_bytes(info.ipv6);
	udp = pkt + bytes - 8 - ROCE_CNP_UDP_PAYLOAD;
	if (dcqcn_bth_read(udp + 8, IB_BTH_BYTES, bth) || bth->opcode != ROCE_CNP_OPCODE)
		return DCQCN_CNP_MALFORMED;
	if (!bth->becn)
		return DCQCN_CNP_NO_BECN;
	if (get_unaligned((const u16 *)(udp + UDP_CHECK)) && dcqcn_cnp_udp_csum(&info, udp))
		return DCQCN_CNP_BAD_CSUM;
	if (!dcqcn_icrc_ok(pkt, bytes))
		return DCQCN_CNP_BAD_ICRC;
	return DCQCN_CNP_OK;
}
