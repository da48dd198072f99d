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
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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
int get_rate64(__u64 *rate, const char *str);
int get_u32(__u32 *val, const char *arg, int base);

/* Step to the value of an option; exits through tc if there is none. */
#define NEXT_ARG()					\
	do {						\
		argv++;					\
		if (--argc <= 0)			\
			incomplete_command();		\
	} while (0)

/* Netlink attributes (lib/libnetlink.c) */
int addattr(struct nlmsghdr *n, int maxlen, int type);
int addattr8(struct nlmsghdr *n, int maxlen, int type, __u8 data);
int addattr32(struct nlmsghdr *n, int maxlen, int type, __u32 data);
int addattr64(struct nlmsghdr *n, int maxlen, int type, __u64 data);
int addattr_l(struct nlmsghdr *n, int maxlen, int type,
	      const void *data, int alen);
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

static inline __u8 rta_getattr_u8(const struct rtattr *rta)
{
	return *(__u8 *)RTA_DATA(rta);
}

static inline __u32 rta_getattr_u32(const struct rtattr *rta)
{
	return *(__u32 *)RTA_DATA(rta);
}

/* A u64 attribute may be only 4-byte aligned: copy it out. */
static inline __u64 rta_getattr_u64(const struct rtattr *rta)
{
	__u64 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
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

/*
 * Each prints @v under @key in JSON (@key NULL: as an array element), or
 * with printf format @fmt as text, whichever tc was asked for (@t).
 */
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *v);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int v);
int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t v);
/* JSON true/false; text @fmt as is (it gets "true" or "false" as %s). */
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool v);
/* JSON: %g. */
int print_color_float(enum output_type t, enum color_attr color,
		      const char *key, const char *fmt, double v);
/* JSON: the raw number; text: @fmt with a "4Mb"-style size as %s. */
int print_color_size(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, __u32 sz);

static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *v)
{
	return print_color_string(t, COLOR_NONE, key, fmt, v);
}

static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int v)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, v);
}

static inline int print_u64(enum output_type t, const char *key,
			    const char *fmt, uint64_t v)
{
	return print_color_u64(t, COLOR_NONE, key, fmt, v);
}

static inline int print_bool(enum output_type t, const char *key,
			     const char *fmt, bool v)
{
	return print_color_bool(t, COLOR_NONE, key, fmt, v);
}

static inline int print_float(enum output_type t, const char *key,
			      const char *fmt, double v)
{
	return print_color_float(t, COLOR_NONE, key, fmt, v);
}

static inline int print_size(enum output_type t, const char *key,
			     const char *fmt, __u32 sz)
{
	return print_color_size(t, COLOR_NONE, key, fmt, sz);
}

/*
 * JSON nesting: @key names the object or array (NULL inside an array). The
 * array calls print their string as text with PRINT_FP or PRINT_ANY; this
 * plug-in passes PRINT_JSON, so text output gets nothing from them.
 */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(enum output_type t, const char *key);
void close_json_array(enum output_type t, const char *delim);
/* A line break in text output (the "\\" of tc -oneline); none in JSON. */
void print_nl(void);

/*
 * tc/tc_util.c: a rate in bytes per second; JSON: the number, text: @fmt
 * with bits per second ("100Mbit"; "Mibit" units with tc -iec) as %s.
 */
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);

#endif /* _TC_PLUGIN_H_ */
