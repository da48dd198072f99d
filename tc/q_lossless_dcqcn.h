/* SPDX-License-Identifier: GPL-2.0 */
/* q_lossless_dcqcn.h	the "dcqcn" options of the lossless qdisc */
#ifndef _Q_LOSSLESS_DCQCN_H
#define _Q_LOSSLESS_DCQCN_H

#include <stdbool.h>
#include <linux/types.h>

#define DCQCN_MAX_OPTS	32

/* What the command line asked for: option i of the table, set or not */
struct dcqcn_req {
	bool set[DCQCN_MAX_OPTS];
	__u64 val[DCQCN_MAX_OPTS];
};

void dcqcn_explain(void);
int dcqcn_parse(int argc, char **argv, struct dcqcn_req *d);
void dcqcn_add(struct nlmsghdr *n, int maxlen, const struct dcqcn_req *d);
void dcqcn_print_opt(struct rtattr *nest);
void dcqcn_print_stats(struct rtattr *nest);

#endif /* _Q_LOSSLESS_DCQCN_H */
