/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 headers as DCQCN needs them: the Base Transport Header, the
 * Congestion Notification Packet and the invariant CRC (InfiniBand
 * Architecture Specification vol. 1, 9.2 and 7.8.1; RoCEv2 annex A17,
 * A17.9.3 for the CNP). skb-free: buffers in, buffers out.
 */
#ifndef _DCQCN_CNP_H
#define _DCQCN_CNP_H

#include <linux/in6.h>
#include <linux/types.h>

#define ROCE_V2_UDP_DPORT	4791

#define IB_BTH_BYTES		12
#define IB_ICRC_BYTES		4
#define ROCE_CNP_OPCODE		0x81
#define ROCE_CNP_RESERVED	16
/* BTH, 16 reserved bytes, ICRC */
#define ROCE_CNP_UDP_PAYLOAD	(IB_BTH_BYTES + ROCE_CNP_RESERVED + IB_ICRC_BYTES)
/* the whole packet of a CNP: IPv4 (no options), IPv6 (no extension headers) */
#define ROCE_CNP_IPV4_BYTES	(20 + 8 + ROCE_CNP_UDP_PAYLOAD)
#define ROCE_CNP_IPV6_BYTES	(40 + 8 + ROCE_CNP_UDP_PAYLOAD)

#define IB_BTH_QPN_MASK		0x00ffffffU
#define IB_BTH_FECN		0x80000000U
#define IB_BTH_BECN		0x40000000U
#define IB_BTH_PSN_MASK		0x00ffffffU
#define IB_BTH_ACK		0x80000000U
#define IB_DEFAULT_PKEY		0xffff

/**
 * struct dcqcn_bth - the fields of a Base Transport Header
 * @opcode: the packet's opcode (0x81: CNP)
 * @se: solicited event
 * @mig: migration state (M)
 * @pad: pad count
 * @tver: transport header version (0)
 * @pkey: partition key
 * @fecn: forward explicit congestion notification
 * @becn: backward explicit congestion notification
 * @qpn: destination QP
 * @ack: acknowledge request (A)
 * @psn: packet sequence number
 */
struct dcqcn_bth {
	u8 opcode;
	bool se;
	bool mig;
	u8 pad;
	u8 tver;
	u16 pkey;
	bool fecn;
	bool becn;
	u32 qpn;
	bool ack;
	u32 psn;
};

/**
 * struct dcqcn_cnp_info - what a CNP carries
 * @ipv6: over IPv6 (else IPv4)
 * @saddr: source (the NP's address); an IPv4 one IPv4-mapped
 * @daddr: destination (the sender of the CE packet), the same
 * @sport: UDP source port, host order
 * @dscp: cnp_dscp
 * @ttl: TTL or hop limit
 * @id: the IPv4 identification, host order (IPv4 only)
 * @pkey: the P_Key
 * @dest_qp: the sender's QP number
 */
struct dcqcn_cnp_info {
	bool ipv6;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 sport;
	u8 dscp;
	u8 ttl;
	u16 id;
	u16 pkey;
	u32 dest_qp;
};

/**
 * enum dcqcn_cnp_fault - why a packet with the CNP opcode is not taken
 * @DCQCN_CNP_OK: a well-formed CNP
 * @DCQCN_CNP_MALFORMED: not the length of a CNP (IP, UDP, BTH, 16 bytes,
 *	ICRC), IPv4 options or IPv6 extension headers, a fragment, or not UDP
 *	to 4791
 * @DCQCN_CNP_NO_BECN: BECN is not set
 * @DCQCN_CNP_BAD_CSUM: a UDP checksum that is not 0 (none) and wrong
 * @DCQCN_CNP_BAD_ICRC: the ICRC does not match
 * @DCQCN_CNP_FAULTS: how many there are
 */
enum dcqcn_cnp_fault {
	DCQCN_CNP_OK,
	DCQCN_CNP_MALFORMED,
	DCQCN_CNP_NO_BECN,
	DCQCN_CNP_BAD_CSUM,
	DCQCN_CNP_BAD_ICRC,
	DCQCN_CNP_FAULTS
};

void dcqcn_bth_write(u8 *bth, const struct dcqcn_bth *info);
int dcqcn_bth_read(const u8 *bth, size_t len, struct dcqcn_bth *info);
u32 dcqcn_icrc(const u8 *pkt, size_t len);
bool dcqcn_icrc_ok(const u8 *pkt, size_t len);
int dcqcn_cnp_write(u8 *buf, size_t len, const struct dcqcn_cnp_info *info);
enum dcqcn_cnp_fault dcqcn_cnp_check(const u8 *pkt, size_t len, struct dcqcn_bth *bth);

/* The length of a CNP over IPv6 (@ipv6) or IPv4. */
static inline unsigned int dcqcn_cnp_bytes(bool ipv6)
{
	return ipv6 ? ROCE_CNP_IPV6_BYTES : ROCE_CNP_IPV4_BYTES;
}

#endif /* _DCQCN_CNP_H */
