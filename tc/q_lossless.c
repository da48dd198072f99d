// SPDX-License-Identifier: GPL-2.0
/*
 * q_lossless.c		tc support for the "lossless" qdisc (sch_lossless).
 *
 * Eight traffic classes (classes 1..8 of the qdisc) served in strict
 * priority, sharing one buffer of "buffer" bytes.
 *
 * Built out of tree (tc/Makefile here) it is a plug-in for the stock tc,
 * which loads q_lossless.so from TC_LIB_DIR; TC_LOSSLESS_PLUGIN is then
 * defined and tc_plugin.h declares what tc exports. To build it inside an
 * iproute2 tree instead, copy this file into its tc/ directory and this
 * project's include/uapi/linux/sch_lossless.h into its include/uapi/linux/,
 * and add "TCMODULES += q_lossless.o" to its tc/Makefile.
 */

#include <stdio.h>
#include <string.h>
#include <stdbool.h>

#include <linux/sch_lossless.h>

#ifdef TC_LOSSLESS_PLUGIN
#include "tc_plugin.h"
#else
#include "utils.h"
#include "tc_util.h"
#endif

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... lossless [ buffer SIZE ]\n"
		"  buffer  bytes shared by the %d traffic classes (kernel default if omitted)\n",
		TC_LOSSLESS_NUM_TC);
}

static void explain_class(void)
{
	fprintf(stderr,
		"Usage: ... lossless\n"
		"  the classes of lossless (1..%d) have no parameters\n",
		TC_LOSSLESS_NUM_TC);
}

static int lossless_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			      struct nlmsghdr *n, const char *dev)
{
	bool have_buffer = false;
	unsigned int buffer = 0;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "buffer") == 0) {
			NEXT_ARG();
			if (have_buffer)
				duparg("buffer", *argv);
			if (get_size(&buffer, *argv))
				invarg("invalid \"buffer\" size", *argv);
			have_buffer = true;
		} else {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--; argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (have_buffer)
		addattr32(n, 1024, TCA_LOSSLESS_BUFFER, buffer);
	addattr_nest_end(n, tail);

	return 0;
}

static int lossless_print_opt(struct qdisc_util *qu, FILE *f,
			      struct rtattr *opt)
{
	struct rtattr *tb[TCA_LOSSLESS_MAX + 1];
	__u32 buffer;

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_LOSSLESS_MAX, opt);

	if (tb[TCA_LOSSLESS_BUFFER] &&
	    RTA_PAYLOAD(tb[TCA_LOSSLESS_BUFFER]) >= sizeof(__u32)) {
		buffer = rta_getattr_u32(tb[TCA_LOSSLESS_BUFFER]);
		print_size(PRINT_ANY, "buffer", "buffer %s ", buffer);
	}

	return 0;
}

static int lossless_parse_class_opt(struct qdisc_util *qu, int argc,
				    char **argv, struct nlmsghdr *n,
				    const char *dev)
{
	if (argc <= 0)
		return 0;

	if (strcmp(*argv, "help") != 0)
		fprintf(stderr,
			"What is \"%s\"? lossless classes have no parameters.\n",
			*argv);
	explain_class();
	return -1;
}

/* The kernel dumps no class options yet; accept whatever comes, print none. */
static int lossless_print_class_opt(struct qdisc_util *qu, FILE *f,
				    struct rtattr *opt)
{
	return 0;
}

struct qdisc_util lossless_qdisc_util = {
	.id		= "lossless",
	.parse_qopt	= lossless_parse_opt,
	.print_qopt	= lossless_print_opt,
	.parse_copt	= lossless_parse_class_opt,
	.print_copt	= lossless_print_class_opt,
};
