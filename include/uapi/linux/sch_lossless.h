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

/* Qdisc options, nested in TCA_OPTIONS */
enum {
	TCA_LOSSLESS_UNSPEC,
	TCA_LOSSLESS_BUFFER,	/* u32, shared buffer of the port in bytes */
	__TCA_LOSSLESS_MAX
};

#define TCA_LOSSLESS_MAX	(__TCA_LOSSLESS_MAX - 1)

#endif /* _UAPI_LINUX_SCH_LOSSLESS_H */
