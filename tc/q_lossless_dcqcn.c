// SPDX-License-Identifier: GPL-2.0
/*
 * q_lossless_dcqcn.c	the "dcqcn" options of the lossless qdisc (module
 *			dcqcn_cc): DCQCN of an endpoint's RoCEv2 QPs.
 *
 *   dcqcn [ np PRIOS|none ] [ rp PRIOS|none ] [ cnp-dscp N ] [ cnp-prio N ]
 *         [ cnp-pkey N ] [ min-time-between-cnps TIME ] [ rpg-ai-rate RATE ]
 *         ... (dcqcn_explain())
 *
 * The knobs have the names (with dashes) and units of mlx5's DCQCN
 * parameters; times are whole microseconds ("4us", "1ms"). The options
 * after "dcqcn" are taken as long as they are dcqcn options.
 */

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include <linux/lossless_dcqcn.h>
#include <linux/sch_lossless.h>

#ifdef TC_LOSSLESS_PLUGIN
#include "tc_plugin.h"
#else
#include "utils.h"
#include "tc_util.h"
#endif

#include "q_lossless.h"
#include "q_lossless_dcqcn.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

void dcqcn_explain(void)
{
	fprintf(stderr,
		"  dcqcn [ np PRIOS|none ] [ rp PRIOS|none ] [ cnp-dscp 0..63 ]\n"
		"        [ cnp-prio 0..7 ] [ cnp-pkey P_KEY ] [ min-time-between-cnps TIME ]\n"
		"        [ rpg-ai-rate RATE ] [ rpg-hai-rate RATE ] [ rpg-min-rate RATE ]\n"
		"        [ rpg-max-rate RATE|0 ] [ rate-to-set-on-first-cnp RATE|0 ]\n"
		"        [ rpg-time-reset TIME ] [ rpg-byte-reset BYTES ] [ rpg-threshold N ]\n"
		"        [ rpg-min-dec-fac PERCENT ] [ rpg-gd N ] [ dce-tcp-g N ]\n"
		"        [ dce-tcp-rtt TIME ] [ rate-reduce-monitor-period TIME ]\n"
		"        [ initial-alpha-value N ] [ clamp-tgt-rate on|off ]\n"
		"        [ clamp-tgt-rate-ati on|off ]\n"
		"             DCQCN of this endpoint's RoCEv2 QPs (needs the module dcqcn_cc):\n"
		"             np: priorities whose CE-marked packets get CNPs back; rp:\n"
		"             priorities whose QPs react to CNPs (and whose packets leave\n"
		"             ECT(0)); the other knobs are mlx5's, in its units (see\n"
		"             tc-lossless(8)); TIME in whole microseconds (4us, 1ms)\n");
}

/* A time in whole microseconds: "300us", "1ms", "2s", "0" */
static int dcqcn_get_us(__u32 *us, const char *str)
{
	unsigned long long mult;
	char *end;
	double v;

	v = strtod(str, &end);
	if (end == str || v < 0)
		return -1;
	if (strcmp(end, "us") == 0 || strcmp(end, "usec") == 0)
		mult = 1;
	else if (strcmp(end, "ms") == 0 || strcmp(end, "msec") == 0)
		mult = 1000;
	else if (strcmp(end, "s") == 0 || strcmp(end, "sec") == 0)
		mult = 1000000;
	else if (*end == '\0' && v == 0)
		mult = 1;
	else
		return -1;
	v *= mult;
	if (v > 4294967295.0 || v != (double)(unsigned long long)v)
		return -1;
	*us = (__u32)v;
	return 0;
}

/* A rate, or "0" */
static int dcqcn_get_rate(__u64 *rate, const char *str)
{
	if (strcmp(str, "0") == 0) {
		*rate = 0;
		return 0;
	}
	if (strchr(str, '-'))
		return -1;
	return get_rate64(rate, str);
}

static int dcqcn_get_onoff(__u8 *v, const char *str)
{
	if (strcmp(str, "on") == 0)
		*v = 1;
	else if (strcmp(str, "off") == 0)
		*v = 0;
	else
		return -1;
	return 0;
}

enum dcqcn_kind { DK_PRIOS, DK_U8, DK_U16, DK_U32, DK_US, DK_RATE, DK_SIZE, DK_ONOFF };

static const struct dcqcn_opt {
	const char *name;	/* tc's */
	const char *key;	/* JSON's */
	int attr;
	enum dcqcn_kind kind;
} dcqcn_opts[] = {
	{ "np", "np", TCA_LOSSLESS_DCQCN_NP, DK_PRIOS },
	{ "rp", "rp", TCA_LOSSLESS_DCQCN_RP, DK_PRIOS },
	{ "cnp-dscp", "cnp_dscp", TCA_LOSSLESS_DCQCN_CNP_DSCP, DK_U8 },
	{ "cnp-prio", "cnp_prio", TCA_LOSSLESS_DCQCN_CNP_PRIO, DK_U8 },
	{ "cnp-pkey", "cnp_pkey", TCA_LOSSLESS_DCQCN_CNP_PKEY, DK_U16 },
	{ "min-time-between-cnps", "min_time_between_cnps_us",
	  TCA_LOSSLESS_DCQCN_MIN_TIME_BETWEEN_CNPS, DK_US },
	{ "rpg-ai-rate", "rpg_ai_rate", TCA_LOSSLESS_DCQCN_AI_RATE, DK_RATE },
	{ "rpg-hai-rate", "rpg_hai_rate", TCA_LOSSLESS_DCQCN_HAI_RATE, DK_RATE },
	{ "rpg-min-rate", "rpg_min_rate", TCA_LOSSLESS_DCQCN_MIN_RATE, DK_RATE },
	{ "rpg-max-rate", "rpg_max_rate", TCA_LOSSLESS_DCQCN_MAX_RATE, DK_RATE },
	{ "rate-to-set-on-first-cnp", "rate_to_set_on_first_cnp",
	  TCA_LOSSLESS_DCQCN_FIRST_CNP_RATE, DK_RATE },
	{ "rpg-time-reset", "rpg_time_reset_us", TCA_LOSSLESS_DCQCN_TIME_RESET, DK_US },
	{ "rpg-byte-reset", "rpg_byte_reset", TCA_LOSSLESS_DCQCN_BYTE_RESET, DK_SIZE },
	{ "rpg-threshold", "rpg_threshold", TCA_LOSSLESS_DCQCN_THRESHOLD, DK_U32 },
	{ "rpg-min-dec-fac", "rpg_min_dec_fac", TCA_LOSSLESS_DCQCN_MIN_DEC_FAC, DK_U32 },
	{ "rpg-gd", "rpg_gd", TCA_LOSSLESS_DCQCN_GD, DK_U32 },
	{ "dce-tcp-g", "dce_tcp_g", TCA_LOSSLESS_DCQCN_G, DK_U32 },
	{ "dce-tcp-rtt", "dce_tcp_rtt_us", TCA_LOSSLESS_DCQCN_RTT, DK_US },
	{ "rate-reduce-monitor-period", "rate_reduce_monitor_period_us",
	  TCA_LOSSLESS_DCQCN_MONITOR_PERIOD, DK_US },
	{ "initial-alpha-value", "initial_alpha_value",
	  TCA_LOSSLESS_DCQCN_INITIAL_ALPHA, DK_U32 },
	{ "clamp-tgt-rate", "clamp_tgt_rate", TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE, DK_ONOFF },
	{ "clamp-tgt-rate-ati", "clamp_tgt_rate_ati",
	  TCA_LOSSLESS_DCQCN_CLAMP_TGT_RATE_ATI, DK_ONOFF },
};

#define DCQCN_NOPTS	ARRAY_SIZE(dcqcn_opts)

static const struct dcqcn_opt *dcqcn_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < DCQCN_NOPTS; i++)
		if (strcmp(dcqcn_opts[i].name, name) == 0)
			return &dcqcn_opts[i];
	return NULL;
}

/*
 * The options after "dcqcn" (@argv), as long as they are dcqcn options:
 * into @d. Return: how many arguments were taken, or -1 (said why).
 */
int dcqcn_parse(int argc, char **argv, struct dcqcn_req *d)
{
	const struct dcqcn_opt *o;
	__u32 u32 = 0;
	__u64 u64 = 0;
	int used = 0;
	__u8 u8 = 0;

	while (argc > 1 && (o = dcqcn_find(argv[0]))) {
		const char *arg = argv[1];
		int i = o - dcqcn_opts;
		int bad = 0;

		if (d->set[i]) {
			duparg(o->name, arg);
			return -1;
		}
		switch (o->kind) {
		case DK_PRIOS:
			bad = lossless_parse_prio_list(arg, &u8);
			u64 = u8;
			break;
		case DK_U8:
		case DK_U16:
		case DK_U32:
			bad = get_u32(&u32, arg, 0) ||
			      (o->kind == DK_U8 && u32 > 255) ||
			      (o->kind == DK_U16 && u32 > 65535);
			u64 = u32;
			break;
		case DK_US:
			bad = dcqcn_get_us(&u32, arg);
			u64 = u32;
			break;
		case DK_SIZE:
			bad = get_size(&u32, arg);
			u64 = u32;
			break;
		case DK_RATE:
			bad = dcqcn_get_rate(&u64, arg);
			break;
		case DK_ONOFF:
			bad = dcqcn_get_onoff(&u8, arg);
			u64 = u8;
			break;
		}
		if (bad) {
			fprintf(stderr, "Illegal \"dcqcn %s\": \"%s\"\n", o->name, arg);
			return -1;
		}
		d->set[i] = true;
		d->val[i] = u64;
		argc -= 2;
		argv += 2;
		used += 2;
	}
	if (argc == 1 && dcqcn_find(argv[0])) {
		fprintf(stderr, "\"dcqcn %s\" needs a value\n", argv[0]);
		return -1;
	}
	return used;
}

/* The TCA_LOSSLESS_DCQCN nest of what dcqcn_parse() found. */
void dcqcn_add(struct nlmsghdr *n, int maxlen, const struct dcqcn_req *d)
{
	struct rtattr *nest = addattr_nest(n, maxlen, TCA_LOSSLESS_DCQCN | NLA_F_NESTED);
	unsigned int i;
	__u16 u16;

	for (i = 0; i < DCQCN_NOPTS; i++) {
		if (!d->set[i])
			continue;
		switch (dcqcn_opts[i].kind) {
		case DK_PRIOS:
		case DK_U8:
		case DK_ONOFF:
			addattr8(n, maxlen, dcqcn_opts[i].attr, d->val[i]);
			break;
		case DK_U16:
			u16 = d->val[i];
			addattr_l(n, maxlen, dcqcn_opts[i].attr, &u16, sizeof(u16));
			break;
		case DK_U32:
		case DK_US:
		case DK_SIZE:
			addattr32(n, maxlen, dcqcn_opts[i].attr, d->val[i]);
			break;
		case DK_RATE:
			addattr64(n, maxlen, dcqcn_opts[i].attr, d->val[i]);
			break;
		}
	}
	addattr_nest_end(n, nest);
}

static bool dcqcn_has(const struct rtattr *rta, size_t len)
{
	return rta && RTA_PAYLOAD(rta) >= len;
}

static __u64 dcqcn_get(const struct rtattr *rta, size_t len)
{
	__u64 v64 = 0;
	__u32 v32 = 0;
	__u16 v16 = 0;
	__u8 v8 = 0;

	switch (len) {
	case 1:
		memcpy(&v8, RTA_DATA(rta), 1);
		return v8;
	case 2:
		memcpy(&v16, RTA_DATA(rta), 2);
		return v16;
	case 4:
		memcpy(&v32, RTA_DATA(rta), 4);
		return v32;
	}
	memcpy(&v64, RTA_DATA(rta), 8);
	return v64;
}

static size_t dcqcn_len(enum dcqcn_kind kind)
{
	switch (kind) {
	case DK_PRIOS:
	case DK_U8:
	case DK_ONOFF:
		return 1;
	case DK_U16:
		return 2;
	case DK_RATE:
		return 8;
	default:
		return 4;
	}
}

/* The settings: "dcqcn np 3 rp 3 cnp-dscp 48 ..."; JSON, an object "dcqcn". */
void dcqcn_print_opt(struct rtattr *nest)
{
	struct rtattr *tb[TCA_LOSSLESS_DCQCN_MAX + 1];
	char buf[64];
	unsigned int i;
	__u64 v;

	if (!nest)
		return;
	parse_rtattr_nested(tb, TCA_LOSSLESS_DCQCN_MAX, nest);
	open_json_object("dcqcn");
	print_string(PRINT_FP, NULL, "%s", "dcqcn ");
	for (i = 0; i < DCQCN_NOPTS; i++) {
		const struct dcqcn_opt *o = &dcqcn_opts[i];
		size_t len = dcqcn_len(o->kind);

		if (!dcqcn_has(tb[o->attr], len))
			continue;
		v = dcqcn_get(tb[o->attr], len);
		switch (o->kind) {
		case DK_PRIOS:
			lossless_print_prios(o->name, o->key, v, true);
			break;
		case DK_U16:
			snprintf(buf, sizeof(buf), "%s 0x%%x ", o->name);
			print_uint(PRINT_ANY, o->key, buf, v);
			break;
		case DK_US:
			snprintf(buf, sizeof(buf), "%s %%uus ", o->name);
			print_uint(PRINT_ANY, o->key, buf, v);
			break;
		case DK_RATE:
			if (v) {
				snprintf(buf, sizeof(buf), "%s %%s ", o->name);
				tc_print_rate(PRINT_ANY, o->key, buf, v);
			} else {
				snprintf(buf, sizeof(buf), "%s 0 ", o->name);
				print_u64(PRINT_ANY, o->key, buf, 0);
			}
			break;
		case DK_ONOFF:
			snprintf(buf, sizeof(buf), "%s %%s ", o->name);
			print_string(PRINT_FP, NULL, buf, v ? "on" : "off");
			print_bool(PRINT_JSON, o->key, NULL, v);
			break;
		default:
			snprintf(buf, sizeof(buf), "%s %%u ", o->name);
			print_uint(PRINT_ANY, o->key, buf, v);
			break;
		}
	}
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_LINE_RATE], 8))
		tc_print_rate(PRINT_ANY, "line_rate", "line-rate %s ",
			      dcqcn_get(tb[TCA_LOSSLESS_DCQCN_LINE_RATE], 8));
	close_json_object();
}

static const char * const dcqcn_stage_names[] = {
	[TC_LOSSLESS_DCQCN_LINE]		= "line",
	[TC_LOSSLESS_DCQCN_FAST_RECOVERY]	= "fast-recovery",
	[TC_LOSSLESS_DCQCN_ADDITIVE]		= "additive",
	[TC_LOSSLESS_DCQCN_HYPER]		= "hyper",
};

static void dcqcn_print_qp(struct rtattr *nest)
{
	struct rtattr *tb[TCA_LOSSLESS_DCQCN_QP_MAX + 1];
	char addr[INET6_ADDRSTRLEN];
	__u8 stage;

	parse_rtattr_nested(tb, TCA_LOSSLESS_DCQCN_QP_MAX, nest);
	print_nl();
	open_json_object(NULL);
	/* the peer: IPv4 or IPv6 */
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_PEER], 4) &&
	    inet_ntop(AF_INET, RTA_DATA(tb[TCA_LOSSLESS_DCQCN_QP_PEER]), addr, sizeof(addr)))
		print_string(PRINT_ANY, "peer", "  qp peer %s", addr);
	else if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_PEER6], 16) &&
		 inet_ntop(AF_INET6, RTA_DATA(tb[TCA_LOSSLESS_DCQCN_QP_PEER6]), addr,
			   sizeof(addr)))
		print_string(PRINT_ANY, "peer", "  qp peer %s", addr);
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_SPORT], 2))
		print_uint(PRINT_ANY, "sport", " sport %u",
			   dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_SPORT], 2));
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_PEER_QPN], 4))
		print_uint(PRINT_ANY, "peer_qpn", " peer_qpn %u",
			   dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_PEER_QPN], 4));
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_PRIO], 1))
		print_uint(PRINT_ANY, "prio", " prio %u",
			   dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_PRIO], 1));
	/* the kernel counts these rates in bit/s; tc prints bytes/s */
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_RATE], 8))
		tc_print_rate(PRINT_ANY, "rate", " rate %s",
			      dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_RATE], 8) / 8);
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_TARGET], 8))
		tc_print_rate(PRINT_ANY, "target", " target %s",
			      dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_TARGET], 8) / 8);
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_ALPHA], 4))
		print_uint(PRINT_ANY, "alpha", " alpha %u",
			   dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_ALPHA], 4));
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_STAGE], 1)) {
		stage = dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_STAGE], 1);
		if (stage <= TC_LOSSLESS_DCQCN_HYPER)
			print_string(PRINT_ANY, "stage", " stage %s", dcqcn_stage_names[stage]);
		else
			print_uint(PRINT_ANY, "stage", " stage %u", stage);
	}
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_CNP_SENT], 8))
		print_u64(PRINT_ANY, "cnp_sent", " cnp_sent %llu",
			  dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_CNP_SENT], 8));
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_CNP_HANDLED], 8))
		print_u64(PRINT_ANY, "cnp_handled", " cnp_handled %llu",
			  dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_CNP_HANDLED], 8));
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_QP_PACED], 8))
		print_u64(PRINT_ANY, "paced", " paced %llu",
			  dcqcn_get(tb[TCA_LOSSLESS_DCQCN_QP_PACED], 8));
	close_json_object();
}

static const struct {
	int attr;
	const char *name;
} dcqcn_counters[] = {
	{ TCA_LOSSLESS_DCQCN_STATS_NP_ECN_MARKED, "np_ecn_marked_roce_packets" },
	{ TCA_LOSSLESS_DCQCN_STATS_NP_CNP_SENT, "np_cnp_sent" },
	{ TCA_LOSSLESS_DCQCN_STATS_NP_CNP_NO_PEER, "np_cnp_no_peer" },
	{ TCA_LOSSLESS_DCQCN_STATS_RP_CNP_HANDLED, "rp_cnp_handled" },
	{ TCA_LOSSLESS_DCQCN_STATS_RP_CNP_IGNORED, "rp_cnp_ignored" },
	{ TCA_LOSSLESS_DCQCN_STATS_ECT_SET, "ect_set" },
	{ TCA_LOSSLESS_DCQCN_STATS_PACED, "paced" },
	{ TCA_LOSSLESS_DCQCN_STATS_CNP_MALFORMED, "cnp_malformed" },
	{ TCA_LOSSLESS_DCQCN_STATS_CNP_NO_BECN, "cnp_no_becn" },
	{ TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_CSUM, "cnp_bad_csum" },
	{ TCA_LOSSLESS_DCQCN_STATS_CNP_BAD_ICRC, "cnp_bad_icrc" },
	{ TCA_LOSSLESS_DCQCN_STATS_CNP_NO_QP, "cnp_no_qp" },
	{ TCA_LOSSLESS_DCQCN_STATS_QP_REFUSED, "qp_refused" },
};

/* Statistics: a line "dcqcn np_ecn_marked_roce_packets N ...", one per QP. */
void dcqcn_print_stats(struct rtattr *nest)
{
	struct rtattr *tb[TCA_LOSSLESS_DCQCN_STATS_MAX + 1];
	struct rtattr *rta;
	char fmt[64];
	unsigned int i;
	int len;

	if (!nest)
		return;
	parse_rtattr_nested(tb, TCA_LOSSLESS_DCQCN_STATS_MAX, nest);
	print_nl();
	open_json_object("dcqcn");
	print_string(PRINT_FP, NULL, "%s", " dcqcn");
	for (i = 0; i < ARRAY_SIZE(dcqcn_counters); i++) {
		if (!dcqcn_has(tb[dcqcn_counters[i].attr], 8))
			continue;
		snprintf(fmt, sizeof(fmt), " %s %%llu", dcqcn_counters[i].name);
		print_u64(PRINT_ANY, dcqcn_counters[i].name, fmt,
			  dcqcn_get(tb[dcqcn_counters[i].attr], 8));
	}
	if (dcqcn_has(tb[TCA_LOSSLESS_DCQCN_STATS_QPS], 4))
		print_uint(PRINT_ANY, "qps", " qps %u",
			   dcqcn_get(tb[TCA_LOSSLESS_DCQCN_STATS_QPS], 4));
	/* parse_rtattr_nested() keeps only the first of repeated nests */
	open_json_array(PRINT_JSON, "qp");
	len = RTA_PAYLOAD(nest);
	for (rta = RTA_DATA(nest); RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if ((rta->rta_type & NLA_TYPE_MASK) == TCA_LOSSLESS_DCQCN_STATS_QP)
			dcqcn_print_qp(rta);
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}
