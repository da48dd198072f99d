/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences for sch_lossless and dcqcn_cc, in one place.
 *
 * The sources are written against mainline; every entry here gives an
 * older kernel (down to v6.1) the mainline spelling, keyed on the version
 * that introduced it. No other file tests LINUX_VERSION_CODE (checkpatch's
 * LINUX_VERSION_CODE warning is expected here, and only here).
 */
#ifndef _SCH_LOSSLESS_COMPAT_H
#define _SCH_LOSSLESS_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/timer.h>

/* v6.9 made qdisc modules load by the alias net-sch-<kind>; before, by
 * the name sch_<kind>, which is this module's own.
 */
#if KERNEL_VERSION(6, 9, 0) > LINUX_VERSION_CODE
#define MODULE_ALIAS_NET_SCH(id) MODULE_ALIAS("sch_" id)
#endif

/* v6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE
#include <asm/unaligned.h>
#else
#include <linux/unaligned.h>
#endif

/* v6.13 added hrtimer_setup(), which sets the callback with the clock. */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/* v6.16 renamed from_timer() to timer_container_of(). */
#if KERNEL_VERSION(6, 16, 0) > LINUX_VERSION_CODE
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

#endif /* _SCH_LOSSLESS_COMPAT_H */
