/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_plugin.h	What q_lossless.c needs from the tc binary it is loaded into.
 *
 * iproute2 ships no development package, so a qdisc plug-in built outside
 * the iproute2 tree has to declare the stock tc's exported helpers itself.
 * These are declarations, written for this plug-in, of functions that
 * /usr/sbin/tc (iproute2 6.1, linked with -export-dynamic) exports, and of
 * the struct qdisc_util it hands to a plug-in. They must agree with that
 * tc's ABI: check any addition with `nm -D /usr/sbin/tc` and against the
 * iproute2 v6.1.0 sources (include/utils.h, include/libnetlink.h,
 * include/json_print.h, include/color.h, tc/tc_util.h).
 *
 * Only what the plug-in uses is declared. Inside an iproute2 tree the
 * plug-in includes iproute2's own headers instead (see q_lossless.c).
 */
#ifndef _TC_PLUGIN_H_
#define _TC_PLUGIN_H_

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/*
 * One qdisc kind, as tc 6.1 sees it. tc finds it by dlsym() of
 * "<kind>_qdisc_util" and links it into its list through @next, so the
 * object must be writable (not const). Member order is ABI.
 */
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/*
 * Command line (lib/utils.c, lib/utils_math.c). The first three exit(); the
 * callers do not rely on it, so no noreturn attribute is declared here.
 */
void incomplete_command(void);
void invarg(const char *msg, const char *arg);
void duparg(const char *key, const char *arg);
int get_size(unsigned int *size, const char *str);

/* Step to the value of an option; exits through tc if there is none. */
#define NEXT_ARG()					\
	do {						\
		argv++;					\
		if (--argc <= 0)			\
			incomplete_command();		\
	} while (0)

/* Netlink attributes (lib/libnetlink.c) */
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);

/* tc's is a macro; a function here, same effect. */
static inline int parse_rtattr_nested(struct rtattr *tb[], int max,
				      struct rtattr *rta)
{
	return parse_rtattr_flags(tb, max, RTA_DATA(rta), RTA_PAYLOAD(rta),
				  NLA_F_NESTED);
}

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	return *(__u32 *)RTA_DATA(rta);
}

/* Output, plain or JSON (lib/json_print.c, lib/json_print_math.c) */
enum output_type {
	PRINT_FP = 1,	/* text output only */
	PRINT_JSON = 2,	/* JSON output only */
	PRINT_ANY = 4,	/* whichever tc was asked for */
};

/* tc 6.1's enum color_attr; only "no colour" is used, its value is ABI. */
enum color_attr {
	COLOR_NONE = 6,
};

/* JSON: the raw number under @key; text: @fmt with "4Mb"-style size. */
int print_color_size(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, __u32 sz);

static inline int print_size(enum output_type t, const char *key,
			     const char *fmt, __u32 sz)
{
	return print_color_size(t, COLOR_NONE, key, fmt, sz);
}

#endif /* _TC_PLUGIN_H_ */
