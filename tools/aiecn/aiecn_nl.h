/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aiecn_nl: the rtnetlink aiecnd needs, over a raw NETLINK_ROUTE socket.
 *
 * Building and parsing are pure functions on buffers, so that the host's
 * unit tests check them without a kernel; the aiecn_nl_* socket calls at
 * the end send what they build and parse what comes back.
 *
 *   telemetry  RTM_GETQDISC (a get with NLM_F_ECHO: the kernel answers a
 *              qdisc get only through its notification path) of the root
 *              qdisc: TCA_STATS2 / TCA_STATS_APP, one TCA_LOSSLESS_STATS_CLASS
 *              nest per traffic class
 *   config     RTM_GETTCLASS dump: a class's TCA_OPTIONS
 *   thresholds RTM_NEWTCLASS change of an existing class, with an ACK and
 *              the kernel's extack message on error
 */
#ifndef _AIECN_NL_H
#define _AIECN_NL_H

#include <stddef.h>
#include <stdint.h>

#include <linux/sch_lossless.h>

#include "aiecn.h"

#define AIECN_NL_BUFSIZE	65536	/* receive buffer: a qdisc reply or a dump part */
#define AIECN_NL_ERRLEN		256
#define AIECN_NL_KIND		"lossless"
#define AIECN_NL_PPM_PER_PERCENT	(TC_LOSSLESS_PMAX_SCALE / 100)

/* Counters the kernel may lack: set in aiecn_nl_class_stats.have */
#define AIECN_NL_HAVE_BACKLOG		0x01
#define AIECN_NL_HAVE_ECN_MARKED	0x02
#define AIECN_NL_HAVE_PFC_TX_XOFF	0x04
#define AIECN_NL_HAVE_PFC_RX		0x08
#define AIECN_NL_HAVE_IN		0x10

/* One TCA_LOSSLESS_STATS_CLASS nest; TC, TX_BYTES and QHIST are required */
struct aiecn_nl_class_stats {
	uint32_t tc;
	uint32_t have;		/* AIECN_NL_HAVE_* */
	uint64_t tx_bytes;
	uint32_t backlog;	/* bytes queued now */
	uint64_t qhist[TC_LOSSLESS_QHIST_BUCKETS];	/* cumulative */
	uint64_t ecn_marked;
	uint64_t pfc_tx_xoff;
	uint64_t pfc_rx;
	uint64_t in;		/* packets in */
};

/* The root qdisc's telemetry (RTM_NEWQDISC) */
struct aiecn_nl_qdisc_stats {
	int ifindex;
	uint32_t handle;	/* tcm_handle: classes are handle | (tc + 1) */
	uint32_t parent;
	/*
	 * The rate the port drains at, in bytes/s: the link's speed
	 * (TCA_LOSSLESS_STATS_SPEED), or the port shaper's rate when that
	 * is lower; what utilisation counts against.
	 */
	int have_speed;
	uint64_t speed;
	uint64_t rate;		/* the shaper's rate (TCA_LOSSLESS_RATE), 0: none */
	uint32_t class_mask;	/* bit tc: cls[tc] was reported */
	struct aiecn_nl_class_stats cls[TC_LOSSLESS_NUM_TC];
};

/* A class's ECN marking as the kernel holds it */
struct aiecn_nl_ecn {
	uint8_t enabled;
	uint32_t kmin, kmax;	/* bytes */
	uint32_t pmax;		/* millionths (TC_LOSSLESS_PMAX_SCALE) */
};

/* Options of a class: set in aiecn_nl_class_cfg.have */
#define AIECN_NL_HAVE_ECN	0x01
#define AIECN_NL_HAVE_KMIN	0x02
#define AIECN_NL_HAVE_KMAX	0x04
#define AIECN_NL_HAVE_PMAX	0x08
#define AIECN_NL_HAVE_XOFF	0x10
#define AIECN_NL_HAVE_XON	0x20
#define AIECN_NL_CLASS_NEEDED	(AIECN_NL_HAVE_ECN | AIECN_NL_HAVE_KMIN | AIECN_NL_HAVE_KMAX | \
				 AIECN_NL_HAVE_PMAX | AIECN_NL_HAVE_XOFF)

/* One RTM_NEWTCLASS of a lossless qdisc */
struct aiecn_nl_class_cfg {
	int ifindex;
	uint32_t classid;	/* tcm_handle */
	uint32_t parent;
	uint32_t have;		/* AIECN_NL_HAVE_ECN ... */
	struct aiecn_nl_ecn ecn;
	uint32_t xoff, xon;	/* bytes */
};

/* Units: the tuner's percent and the kernel's millionths */
void aiecn_nl_ecn_from_thresholds(const struct aiecn_thresholds *t, struct aiecn_nl_ecn *e);
/* pmax rounded to the nearest percent, 1..100 */
void aiecn_nl_ecn_to_thresholds(const struct aiecn_nl_ecn *e, struct aiecn_thresholds *t);

/*
 * Builders: the message's length, or -ENOSPC if @len cannot hold it.
 * @buf must be 4-byte aligned.
 */
int aiecn_nl_build_qdisc_get(void *buf, size_t len, uint32_t seq, int ifindex);
int aiecn_nl_build_class_dump(void *buf, size_t len, uint32_t seq, int ifindex,
			      uint32_t parent);
int aiecn_nl_build_class_change(void *buf, size_t len, uint32_t seq, int ifindex,
				uint32_t parent, uint32_t classid,
				const struct aiecn_nl_ecn *ecn);

/*
 * Parsers of one message (@len: the bytes available at @msg, at least its
 * nlmsg_len). 0, or a negative errno with the reason in @err: -EPROTO for
 * a malformed message, -ENOENT for a qdisc or class that is not lossless.
 */
int aiecn_nl_parse_qdisc(const void *msg, size_t len, struct aiecn_nl_qdisc_stats *st,
			 char *err, size_t errlen);
int aiecn_nl_parse_class(const void *msg, size_t len, struct aiecn_nl_class_cfg *cfg,
			 char *err, size_t errlen);
/*
 * An NLMSG_ERROR: its error (0 for an ACK, else -errno) and the extack
 * message, if any, in @ext ("" when none); -EPROTO if malformed.
 */
int aiecn_nl_parse_error(const void *msg, size_t len, char *ext, size_t extlen);

/* The socket */
struct aiecn_nl {
	int fd;
	uint32_t portid;
	uint32_t seq;
	char err[AIECN_NL_ERRLEN];	/* why the last call failed */
	uint64_t buf[AIECN_NL_BUFSIZE / sizeof(uint64_t)];
};

/* 0 or -errno; replies not there within @timeout_ms fail with -ETIMEDOUT */
int aiecn_nl_open(struct aiecn_nl *nl, int timeout_ms);
void aiecn_nl_close(struct aiecn_nl *nl);
/* The root qdisc's telemetry; -ENOENT if it is not lossless */
int aiecn_nl_qdisc_stats(struct aiecn_nl *nl, int ifindex, struct aiecn_nl_qdisc_stats *st);
/* Class @classid of qdisc @handle; -ENOENT if not found, -EPROTO if incomplete */
int aiecn_nl_class_get(struct aiecn_nl *nl, int ifindex, uint32_t handle, uint32_t classid,
		       struct aiecn_nl_class_cfg *cfg);
/* Set its marking; on error nl->err holds the kernel's extack message */
int aiecn_nl_class_set(struct aiecn_nl *nl, int ifindex, uint32_t handle, uint32_t classid,
		       const struct aiecn_nl_ecn *ecn);

#endif /* _AIECN_NL_H */
