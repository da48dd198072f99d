/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences for sch_lossless, in one place.
 */
#ifndef _SCH_LOSSLESS_COMPAT_H
#define _SCH_LOSSLESS_COMPAT_H

#include <linux/version.h>
#include <net/pkt_sched.h>

/* v6.9 made qdisc modules load by alias; before, by the name sch_<kind>. */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id)
#endif

#endif /* _SCH_LOSSLESS_COMPAT_H */
