/* SPDX-License-Identifier: GPL-2.0 */
/* q_lossless.h	helpers of q_lossless.c that q_lossless_dcqcn.c uses too */
#ifndef _Q_LOSSLESS_H
#define _Q_LOSSLESS_H

#include <stdbool.h>
#include <linux/types.h>

int lossless_parse_prio_list(const char *arg, __u8 *bits);
void lossless_print_prios(const char *name, const char *key, __u8 bits, bool none);

#endif /* _Q_LOSSLESS_H */
