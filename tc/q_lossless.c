// SPDX-License-Identifier: GPL-2.0
/*
 * q_lossless.c		tc support for the "lossless" qdisc (sch_lossless).
 *
 * A lossless Ethernet port: eight traffic classes (classes 1..8 of the
 * qdisc) sharing one buffer, chosen by VLAN PCP or DSCP through two maps,
 * served strict priority or ETS, behind an optional port shaper, with
 * per-class limits and ECN marking; PFC received and sent, a PFC watchdog
 * (pfcwd, pfcwd-limit) and the remapping of hook flows between uplinks
 * (uplink, hook-remap).
 *
 * Built out of tree (tc/Makefile here) it is a plug-in for the stock tc,
 * which loads q_lossless.so from TC_LIB_DIR; TC_LOSSLESS_PLUGIN is then
 * defined and tc_plugin.h declares what tc exports. To build it inside an
 * iproute2 tree instead, copy this file into its tc/ directory and this
 * project's include/uapi/linux/sch_lossless.h into its include/uapi/linux/,
 * and add "TCMODULES += q_lossless.o" to its tc/Makefile.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/sch_lossless.h>

#ifdef TC_LOSSLESS_PLUGIN
#include "tc_plugin.h"
#else
#include "utils.h"
#include "tc_util.h"
#endif

#include "q_lossless.h"
#include "q_lossless_dcqcn.h"

/* pmax is in millionths: this many make one percent */
#define LOSSLESS_PMAX_PER_PERCENT	(TC_LOSSLESS_PMAX_SCALE / 100)

#define LOSSLESS_NS_PER_MS	1000000ULL
#define LOSSLESS_NS_PER_S	1000000000ULL

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... lossless [ buffer SIZE ] [ trust { pcp | dscp } ]\n"
		"                    [ prio-tc PRIO:TC[,PRIO:TC...] ]\n"
		"                    [ dscp-prio DSCP:PRIO[,DSCP:PRIO...] ]\n"
		"                    [ rate RATE [ burst SIZE ] | norate ]\n"
		"                    [ pfc PRIO[,PRIO...] | pfc none ] [ speed RATE ]\n"
		"                    [ cable METRES ] [ mtu BYTES ] [ response TIME ]\n"
		"                    [ pfcwd detect TIME [ restore TIME ]\n"
		"                            [ action { drop | forward | alert } ] | pfcwd off ]\n"
		"                    [ pfcwd-limit N [ window TIME ] ] [ uplink | nouplink ]\n"
		"                    [ hook-remap FROM:TO[,FROM:TO...] | hook-remap none ]\n"
		"  buffer     bytes shared by the %d traffic classes\n"
		"  trust      where the priority of a packet comes from: the VLAN PCP\n"
		"             (else skb->priority), or the IPv4/IPv6 DSCP\n"
		"  prio-tc    traffic class (0..%d) of priority PRIO (0..%d); a priority\n"
		"             not listed goes to its own number\n"
		"  dscp-prio  priority (0..%d) of DSCP (0..%d), used with \"trust dscp\";\n"
		"             a DSCP not listed gets DSCP / 8\n"
		"  rate       shape the port to RATE; burst: its bucket in bytes\n"
		"  norate     remove the shaper\n"
		"  pfc        the lossless priorities: PFC frames received pause\n"
		"             them (none: no priority is)\n"
		"  speed      link speed for pause times and headroom (0: the\n"
		"             shaper's rate, else the device's speed)\n"
		"  cable      metres of cable to the peer, for headroom auto\n"
		"  mtu        largest frame in bytes, for headroom auto (0: the\n"
		"             device's MTU plus its link-layer header)\n"
		"  response   time the peer takes to stop after a PFC frame, for\n"
		"             headroom auto (ns, us, ms or s; 0: IEEE 802.3's by speed)\n"
		"  pfcwd      the PFC watchdog: a lossless queue paused for \"detect\"\n"
		"             (10ms to 5s) with packets waiting and nothing sent is\n"
		"             stormed: drop its packets, forward them ignoring pauses,\n"
		"             or only alert (default: drop), until \"restore\" (10ms\n"
		"             to 60s; default: detect) passes without an XOFF frame;\n"
		"             off: no watchdog\n"
		"  pfcwd-limit N (0..16) detections within \"window\" (default: 60s)\n"
		"             turn PFC off for that priority, until \"pfc\" lists it\n"
		"             again; 0: never\n"
		"  uplink     the port is an uplink of the switch (nouplink: it is not)\n"
		"  hook-remap hook flows (lossless, in and out through uplinks) of\n"
		"             priority FROM (0..%d) move to the lossless priority TO;\n"
		"             none: no priority moves\n"
		"A TIME of pfcwd takes a unit (ns, us, ms or s): whole ms for detect\n"
		"and restore, whole seconds for window.\n"
		"Options not given keep their value (on add: the kernel's default).\n",
		TC_LOSSLESS_NUM_TC, TC_LOSSLESS_NUM_TC - 1,
		TC_LOSSLESS_NUM_PRIO - 1, TC_LOSSLESS_NUM_PRIO - 1,
		TC_LOSSLESS_NUM_DSCP - 1, TC_LOSSLESS_NUM_PRIO - 1);
	dcqcn_explain();
}

static void explain_class(void)
{
	fprintf(stderr,
		"Usage: ... lossless [ strict | quantum BYTES ] [ limit SIZE ]\n"
		"                    [ ecn [ kmin SIZE ] [ kmax SIZE ] [ pmax PERCENT ] | noecn ]\n"
		"                    [ xoff SIZE ] [ xon SIZE ] [ headroom { SIZE | auto } ]\n"
		"  strict   serve the class in strict priority (traffic class 7 first)\n"
		"  quantum  serve it by deficit round robin (ETS) with this quantum\n"
		"  limit    bytes the class may queue\n"
		"  ecn      mark CE with probability 0 below kmin bytes queued, rising\n"
		"           to pmax (0..100, up to 4 decimals) at kmax, 1 above kmax\n"
		"  noecn    do not mark\n"
		"  xoff     bytes from one port, queued anywhere, above which that port\n"
		"           sends XOFF for the class's lossless priorities\n"
		"  xon      bytes at or below which it sends XON (at most xoff)\n"
		"  headroom bytes taken above xoff before dropping; auto: from the\n"
		"           qdisc's speed, cable, mtu and response\n"
		"The classes are 1..%d of the qdisc; options not given keep their value.\n",
		TC_LOSSLESS_NUM_TC);
}

/* One of the two maps, "KEY:VALUE[,KEY:VALUE...]" on the command line */
struct lossless_map {
	const char *opt;	/* the option, as typed */
	const char *key;	/* what the keys are */
	const char *val;	/* what the values are */
	unsigned int nkeys;
	unsigned int nvals;
};

static const struct lossless_map lossless_prio_tc = {
	.opt	= "prio-tc",
	.key	= "PRIO",
	.val	= "TC",
	.nkeys	= TC_LOSSLESS_NUM_PRIO,
	.nvals	= TC_LOSSLESS_NUM_TC,
};

static const struct lossless_map lossless_dscp_prio = {
	.opt	= "dscp-prio",
	.key	= "DSCP",
	.val	= "PRIO",
	.nkeys	= TC_LOSSLESS_NUM_DSCP,
	.nvals	= TC_LOSSLESS_NUM_PRIO,
};

static const struct lossless_map lossless_hook_remap = {
	.opt	= "hook-remap",
	.key	= "FROM",
	.val	= "TO",
	.nkeys	= TC_LOSSLESS_NUM_PRIO,
	.nvals	= TC_LOSSLESS_NUM_PRIO,
};

/* A decimal number below @limit from [@s, @end): digits only. */
static int lossless_get_index(unsigned int *val, const char *s,
			      const char *end, unsigned int limit)
{
	unsigned int v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v >= limit)
			return -1;
	}
	*val = v;
	return 0;
}

/*
 * Set map[KEY] = VALUE for each pair of @arg; keys not listed keep what
 * @map holds. A bad or repeated pair exits through invarg(), naming the
 * option and the pair.
 */
static int lossless_parse_map(const struct lossless_map *m, const char *arg,
			      __u8 *map)
{
	bool seen[TC_LOSSLESS_NUM_DSCP] = {};
	const char *p = arg;
	char pair[64];
	char msg[96];

	for (;;) {
		const char *end = strchr(p, ',') ? : p + strlen(p);
		const char *colon = memchr(p, ':', end - p);
		unsigned int key = 0, val = 0;

		snprintf(pair, sizeof(pair), "%.*s", (int)(end - p), p);
		if (!colon ||
		    lossless_get_index(&key, p, colon, m->nkeys) ||
		    lossless_get_index(&val, colon + 1, end, m->nvals)) {
			snprintf(msg, sizeof(msg),
				 "\"%s\" takes %s:%s pairs, %s 0..%u, %s 0..%u",
				 m->opt, m->key, m->val, m->key, m->nkeys - 1,
				 m->val, m->nvals - 1);
			invarg(msg, pair);
			return -1;
		}
		if (seen[key]) {
			snprintf(msg, sizeof(msg), "\"%s\" lists %s %u twice",
				 m->opt, m->key, key);
			invarg(msg, pair);
			return -1;
		}
		seen[key] = true;
		map[key] = val;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/*
 * pmax: a percentage from 0 to 100 with up to 4 decimals, optionally
 * followed by '%', into millionths (TC_LOSSLESS_PMAX_SCALE is 100%).
 */
static int lossless_get_pmax(__u32 *pmax, const char *str)
{
	unsigned int whole = 0, frac = 0, nwhole = 0, nfrac = 0;
	const char *p = str;

	for (; *p >= '0' && *p <= '9'; p++, nwhole++) {
		whole = whole * 10 + (*p - '0');
		if (whole > 100)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++nfrac > 4)
				return -1;
			frac = frac * 10 + (*p - '0');
		}
		if (!nfrac)
			return -1;
	}
	if (*p == '%')
		p++;
	if (*p || (!nwhole && !nfrac))
		return -1;
	for (; nfrac < 4; nfrac++)
		frac *= 10;

	*pmax = whole * LOSSLESS_PMAX_PER_PERCENT + frac;
	return *pmax > TC_LOSSLESS_PMAX_SCALE ? -1 : 0;
}

/* "none", or priorities 0..7 separated by commas, each once: a bitmap */
int lossless_parse_prio_list(const char *arg, __u8 *bits)
{
	const char *p = arg;

	*bits = 0;
	if (strcmp(arg, "none") == 0)
		return 0;
	for (;;) {
		if (*p < '0' || *p > '7' || (*bits & (1 << (*p - '0'))))
			return -1;
		*bits |= 1 << (*p - '0');
		p++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/* "500us", "2ms", "1s", "800ns" (no unit: us) into ns, at most 1 s */
static int lossless_get_response(__u32 *ns, const char *str)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "usec", 1e3 }, { "ms", 1e6 },
		{ "msec", 1e6 }, { "s", 1e9 }, { "sec", 1e9 }, { "", 1e3 },
		{ NULL, 0 },
	};
	char *end;
	double v;
	size_t i;

	/* digits and a point only: no sign, hex, "inf" or "nan" */
	if (*str < '0' || *str > '9' || strspn(str, "0123456789.") == 0)
		return -1;
	v = strtod(str, &end);
	if (end == str || end != str + strspn(str, "0123456789."))
		return -1;
	for (i = 0; units[i].unit; i++) {
		if (strcmp(end, units[i].unit) == 0) {
			v *= units[i].ns;
			/* 0 is the default; anything else is at least 1 ns */
			if (v > 1e9 || (v > 0 && v < 1))
				return -1;
			*ns = (__u32)(v + 0.5);
			return 0;
		}
	}
	return -1;
}

/*
 * A time of the watchdog: digits, optionally a point and decimals, then
 * ns, us, ms or s ("usec", "msec" and "sec" too); a unit is required but
 * for a plain 0. Into @ns, UINT64_MAX if it does not fit; @exact tells
 * whether it is a whole number of ns.
 */
static int lossless_get_time_ns(__u64 *ns, bool *exact, const char *str)
{
	static const struct { const char *unit; __u64 ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", LOSSLESS_NS_PER_MS }, { "msec", LOSSLESS_NS_PER_MS },
		{ "s", LOSSLESS_NS_PER_S }, { "sec", LOSSLESS_NS_PER_S },
		{ NULL, 0 },
	};
	__u64 whole = 0, frac = 0, scale = 1;
	const char *p = str;
	bool huge = false;
	size_t i;

	*exact = true;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			huge = true;
		else
			whole = whole * 10 + (*p - '0');
	}
	if (p == str)
		return -1;
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -1;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale < LOSSLESS_NS_PER_S) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			} else if (*p != '0') {
				*exact = false;
			}
		}
	}
	if (!*p) {
		if (whole || frac || huge)
			return -1;
		*ns = 0;
		return 0;
	}
	for (i = 0; units[i].unit; i++) {
		if (strcmp(p, units[i].unit))
			continue;
		if (frac * units[i].ns % scale)
			*exact = false;
		/* the decimals add less than units[i].ns */
		if (whole > (UINT64_MAX - units[i].ns) / units[i].ns)
			huge = true;
		*ns = huge ? UINT64_MAX :
		      whole * units[i].ns + frac * units[i].ns / scale;
		return 0;
	}
	return -1;
}

/*
 * The watchdog time @arg of option @opt as a u32 count of @unit_ns: a
 * bad time, or one that is not whole @units, exits through invarg().
 */
static int lossless_get_wd_time(__u32 *val, const char *opt, const char *arg,
				__u64 unit_ns, const char *units)
{
	char msg[96];
	bool exact;
	__u64 ns;

	if (lossless_get_time_ns(&ns, &exact, arg)) {
		snprintf(msg, sizeof(msg),
			 "\"%s\" is a time with a unit: ns, us, ms or s", opt);
		invarg(msg, arg);
		return -1;
	}
	if (ns / unit_ns > UINT32_MAX) {
		snprintf(msg, sizeof(msg), "\"%s\" is too long", opt);
		invarg(msg, arg);
		return -1;
	}
	if (!exact || ns % unit_ns) {
		snprintf(msg, sizeof(msg), "\"%s\" is a time in whole %s",
			 opt, units);
		invarg(msg, arg);
		return -1;
	}
	*val = ns / unit_ns;
	return 0;
}

/* "100" or "100m", as the dump prints it: metres, at most 100000 */
static int lossless_get_metres(__u32 *m, const char *str)
{
	char *end;
	unsigned long v;

	if (*str < '0' || *str > '9')
		return -1;
	v = strtoul(str, &end, 10);
	if ((*end && strcmp(end, "m")) || v > 100000)
		return -1;
	*m = v;
	return 0;
}

/* A time in ns as text: the largest unit that keeps it whole */
static void lossless_print_response(__u32 ns)
{
	print_uint(PRINT_JSON, "response", NULL, ns);
	if (ns % 1000000 == 0)
		print_uint(PRINT_FP, NULL, "response %ums ", ns / 1000000);
	else if (ns % 1000 == 0)
		print_uint(PRINT_FP, NULL, "response %uus ", ns / 1000);
	else
		print_uint(PRINT_FP, NULL, "response %uns ", ns);
}

static const char * const lossless_pfcwd_action_names[] = {
	[TC_LOSSLESS_PFCWD_DROP]	= "drop",
	[TC_LOSSLESS_PFCWD_FORWARD]	= "forward",
	[TC_LOSSLESS_PFCWD_ALERT]	= "alert",
};

/* "drop", "forward" or "alert" */
static int lossless_get_pfcwd_action(__u8 *action, const char *str)
{
	__u8 a;

	for (a = 0; a < __TC_LOSSLESS_PFCWD_ACTION_MAX; a++) {
		if (strcmp(str, lossless_pfcwd_action_names[a]) == 0) {
			*action = a;
			return 0;
		}
	}
	return -1;
}

static int lossless_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			      struct nlmsghdr *n, const char *dev)
{
	bool have_buffer = false, have_trust = false, have_prio_tc = false;
	bool have_dscp_prio = false, have_rate = false, have_burst = false;
	__u8 dscp_prio[TC_LOSSLESS_NUM_DSCP];
	__u8 prio_tc[TC_LOSSLESS_NUM_PRIO];
	unsigned int buffer = 0, burst = 0;
	bool have_pfc = false, have_speed = false;
	bool have_cable = false, have_mtu = false, have_response = false;
	__u32 cable = 0, mtu = 0, response = 0;
	bool have_detect = false, have_restore = false, have_action = false;
	bool have_limit = false, have_window = false;
	__u32 detect = 0, restore = 0, limit = 0, window = 0;
	bool uplink = false, nouplink = false, have_hook_remap = false;
	__u8 hook_remap[TC_LOSSLESS_NUM_PRIO];
	bool norate = false, have_dcqcn = false;
	struct dcqcn_req dcqcn = {};
	struct rtattr *tail;
	__u64 rate = 0, speed = 0;
	__u8 trust = 0, pfc = 0, action = 0;
	int i;

	while (argc > 0) {
		if (strcmp(*argv, "buffer") == 0) {
			NEXT_ARG();
			if (have_buffer)
				duparg("buffer", *argv);
			if (get_size(&buffer, *argv))
				invarg("invalid \"buffer\" size", *argv);
			have_buffer = true;
		} else if (strcmp(*argv, "trust") == 0) {
			NEXT_ARG();
			if (have_trust)
				duparg("trust", *argv);
			if (strcmp(*argv, "pcp") == 0)
				trust = TC_LOSSLESS_TRUST_PCP;
			else if (strcmp(*argv, "dscp") == 0)
				trust = TC_LOSSLESS_TRUST_DSCP;
			else
				invarg("\"trust\" is \"pcp\" or \"dscp\"",
				       *argv);
			have_trust = true;
		} else if (strcmp(*argv, "prio-tc") == 0) {
			NEXT_ARG();
			if (have_prio_tc)
				duparg("prio-tc", *argv);
			for (i = 0; i < TC_LOSSLESS_NUM_PRIO; i++)
				prio_tc[i] = i;
			if (lossless_parse_map(&lossless_prio_tc, *argv,
					       prio_tc))
				return -1;
			have_prio_tc = true;
		} else if (strcmp(*argv, "dscp-prio") == 0) {
			NEXT_ARG();
			if (have_dscp_prio)
				duparg("dscp-prio", *argv);
			for (i = 0; i < TC_LOSSLESS_NUM_DSCP; i++)
				dscp_prio[i] = i / 8;
			if (lossless_parse_map(&lossless_dscp_prio, *argv,
					       dscp_prio))
				return -1;
			have_dscp_prio = true;
		} else if (strcmp(*argv, "rate") == 0) {
			NEXT_ARG();
			if (have_rate)
				duparg("rate", *argv);
			if (strchr(*argv, '-') || get_rate64(&rate, *argv))
				invarg("invalid \"rate\"", *argv);
			if (!rate)
				invarg("\"rate\" must be more than 0 (norate removes the shaper)",
				       *argv);
			have_rate = true;
		} else if (strcmp(*argv, "burst") == 0) {
			NEXT_ARG();
			if (have_burst)
				duparg("burst", *argv);
			if (get_size(&burst, *argv))
				invarg("invalid \"burst\" size", *argv);
			have_burst = true;
		} else if (strcmp(*argv, "norate") == 0) {
			if (norate)
				duparg("norate", *argv);
			norate = true;
		} else if (strcmp(*argv, "pfc") == 0) {
			NEXT_ARG();
			if (have_pfc)
				duparg("pfc", *argv);
			if (lossless_parse_prio_list(*argv, &pfc))
				invarg("\"pfc\" takes PRIO[,PRIO...] (0..7, each once) or \"none\"",
				       *argv);
			have_pfc = true;
		} else if (strcmp(*argv, "speed") == 0) {
			NEXT_ARG();
			if (have_speed)
				duparg("speed", *argv);
			if (strcmp(*argv, "0") && (strchr(*argv, '-') || get_rate64(&speed, *argv)))
				invarg("invalid \"speed\"", *argv);
			have_speed = true;
		} else if (strcmp(*argv, "cable") == 0) {
			NEXT_ARG();
			if (have_cable)
				duparg("cable", *argv);
			if (lossless_get_metres(&cable, *argv))
				invarg("\"cable\" is 0 to 100000 metres (\"m\" may follow)", *argv);
			have_cable = true;
		} else if (strcmp(*argv, "mtu") == 0) {
			NEXT_ARG();
			if (have_mtu)
				duparg("mtu", *argv);
			if (*argv[0] == '-' || get_u32(&mtu, *argv, 10) ||
			    (mtu && (mtu < 64 || mtu > 65535)))
				invarg("\"mtu\" is 64 to 65535 bytes (0: the device's)", *argv);
			have_mtu = true;
		} else if (strcmp(*argv, "response") == 0) {
			NEXT_ARG();
			if (have_response)
				duparg("response", *argv);
			if (lossless_get_response(&response, *argv))
				invarg("\"response\" is a time up to 1s (ns, us, ms, s)", *argv);
			have_response = true;
		} else if (strcmp(*argv, "pfcwd") == 0) {
			NEXT_ARG();
			if (have_detect)
				duparg("pfcwd", *argv);
			if (strcmp(*argv, "off") == 0) {
				detect = 0;
			} else if (strcmp(*argv, "detect") == 0) {
				NEXT_ARG();
				if (lossless_get_wd_time(&detect, "detect", *argv,
							 LOSSLESS_NS_PER_MS,
							 "milliseconds"))
					return -1;
			} else {
				invarg("\"pfcwd\" takes \"detect TIME\" or \"off\"",
				       *argv);
			}
			have_detect = true;
		} else if ((strcmp(*argv, "restore") == 0 ||
			    strcmp(*argv, "action") == 0) && !detect) {
			fprintf(stderr,
				"\"%s\" is only valid after \"pfcwd detect TIME\"\n",
				*argv);
			explain();
			return -1;
		} else if (strcmp(*argv, "restore") == 0) {
			NEXT_ARG();
			if (have_restore)
				duparg("restore", *argv);
			if (lossless_get_wd_time(&restore, "restore", *argv,
						 LOSSLESS_NS_PER_MS,
						 "milliseconds"))
				return -1;
			have_restore = true;
		} else if (strcmp(*argv, "action") == 0) {
			NEXT_ARG();
			if (have_action)
				duparg("action", *argv);
			if (lossless_get_pfcwd_action(&action, *argv))
				invarg("\"action\" is \"drop\", \"forward\" or \"alert\"",
				       *argv);
			have_action = true;
		} else if (strcmp(*argv, "pfcwd-limit") == 0) {
			NEXT_ARG();
			if (have_limit)
				duparg("pfcwd-limit", *argv);
			if (*argv[0] == '-' || get_u32(&limit, *argv, 10))
				invarg("\"pfcwd-limit\" is a number of detections (0: never)",
				       *argv);
			have_limit = true;
		} else if (strcmp(*argv, "window") == 0 && !have_limit) {
			fprintf(stderr,
				"\"window\" is only valid after \"pfcwd-limit N\"\n");
			explain();
			return -1;
		} else if (strcmp(*argv, "window") == 0) {
			NEXT_ARG();
			if (have_window)
				duparg("window", *argv);
			if (lossless_get_wd_time(&window, "window", *argv,
						 LOSSLESS_NS_PER_S, "seconds"))
				return -1;
			have_window = true;
		} else if (strcmp(*argv, "pfcwd-off") == 0) {
			fprintf(stderr,
				"\"pfcwd-off\" is only shown, not set: \"pfc\" turns PFC on again\n");
			return -1;
		} else if (strcmp(*argv, "uplink") == 0) {
			if (uplink)
				duparg("uplink", *argv);
			uplink = true;
		} else if (strcmp(*argv, "nouplink") == 0) {
			if (nouplink)
				duparg("nouplink", *argv);
			nouplink = true;
		} else if (strcmp(*argv, "hook-remap") == 0) {
			NEXT_ARG();
			if (have_hook_remap)
				duparg("hook-remap", *argv);
			for (i = 0; i < TC_LOSSLESS_NUM_PRIO; i++)
				hook_remap[i] = i;
			if (strcmp(*argv, "none") &&
			    lossless_parse_map(&lossless_hook_remap, *argv,
					       hook_remap))
				return -1;
			have_hook_remap = true;
		} else if (strcmp(*argv, "dcqcn") == 0) {
			int used;

			if (have_dcqcn)
				duparg("dcqcn", *argv);
			used = dcqcn_parse(argc - 1, argv + 1, &dcqcn);
			if (used < 0)
				return -1;
			if (!used) {
				fprintf(stderr, "\"dcqcn\" needs options: np, rp, ...\n");
				return -1;
			}
			argc -= used;
			argv += used;
			have_dcqcn = true;
		} else {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--; argv++;
	}

	if (have_burst && !have_rate) {
		fprintf(stderr, "\"burst\" needs \"rate\"\n");
		return -1;
	}
	if (norate && have_rate) {
		fprintf(stderr, "\"rate\" and \"norate\" exclude each other\n");
		return -1;
	}
	if (uplink && nouplink) {
		fprintf(stderr, "\"uplink\" and \"nouplink\" exclude each other\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (have_buffer)
		addattr32(n, 1024, TCA_LOSSLESS_BUFFER, buffer);
	if (have_trust)
		addattr8(n, 1024, TCA_LOSSLESS_TRUST, trust);
	if (have_prio_tc)
		addattr_l(n, 1024, TCA_LOSSLESS_PRIO_TC, prio_tc,
			  sizeof(prio_tc));
	if (have_dscp_prio)
		addattr_l(n, 1024, TCA_LOSSLESS_DSCP_PRIO, dscp_prio,
			  sizeof(dscp_prio));
	if (have_rate)
		addattr64(n, 1024, TCA_LOSSLESS_RATE, rate);
	if (have_burst)
		addattr32(n, 1024, TCA_LOSSLESS_BURST, burst);
	if (norate)
		addattr(n, 1024, TCA_LOSSLESS_NORATE);
	if (have_pfc)
		addattr8(n, 1024, TCA_LOSSLESS_PFC, pfc);
	if (have_speed)
		addattr64(n, 1024, TCA_LOSSLESS_SPEED, speed);
	if (have_cable)
		addattr32(n, 1024, TCA_LOSSLESS_CABLE, cable);
	if (have_mtu)
		addattr32(n, 1024, TCA_LOSSLESS_MTU, mtu);
	if (have_response)
		addattr32(n, 1024, TCA_LOSSLESS_RESPONSE, response);
	if (have_detect)
		addattr32(n, 1024, TCA_LOSSLESS_PFCWD_DETECT, detect);
	if (have_restore)
		addattr32(n, 1024, TCA_LOSSLESS_PFCWD_RESTORE, restore);
	if (have_action)
		addattr8(n, 1024, TCA_LOSSLESS_PFCWD_ACTION, action);
	if (have_limit)
		addattr32(n, 1024, TCA_LOSSLESS_PFCWD_LIMIT, limit);
	if (have_window)
		addattr32(n, 1024, TCA_LOSSLESS_PFCWD_WINDOW, window);
	if (uplink || nouplink)
		addattr8(n, 1024, TCA_LOSSLESS_UPLINK, uplink);
	if (have_hook_remap)
		addattr_l(n, 1024, TCA_LOSSLESS_HOOK_REMAP, hook_remap,
			  sizeof(hook_remap));
	if (have_dcqcn)
		dcqcn_add(n, 4096, &dcqcn);
	addattr_nest_end(n, tail);

	return 0;
}

/* Whether @rta is there and holds at least @len bytes */
static bool lossless_has(struct rtattr *rta, size_t len)
{
	return rta && RTA_PAYLOAD(rta) >= len;
}

static const char * const lossless_trust_names[] = {
	[TC_LOSSLESS_TRUST_PCP]		= "pcp",
	[TC_LOSSLESS_TRUST_DSCP]	= "dscp",
};

/*
 * A set of priorities: text "@name 3,4 " ("@name none " when empty, or
 * nothing if @none is false), JSON an array @key of the priorities.
 */
void lossless_print_prios(const char *name, const char *key, __u8 bits, bool none)
{
	bool text = bits || none;
	bool first = true;
	int p;

	if (text)
		print_string(PRINT_FP, NULL, "%s ", name);
	open_json_array(PRINT_JSON, key);
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		if (!(bits & (1 << p)))
			continue;
		print_string(PRINT_FP, NULL, "%s", first ? "" : ",");
		print_uint(PRINT_ANY, NULL, "%u", p);
		first = false;
	}
	close_json_array(PRINT_JSON, NULL);
	if (text)
		print_string(PRINT_FP, NULL, "%s", first ? "none " : " ");
}

/*
 * When the watchdog is on: "pfcwd detect 200ms restore 400ms action drop";
 * JSON, an object "pfcwd" with detect_ms, restore_ms and action.
 */
static void lossless_print_pfcwd(struct rtattr *tb[])
{
	__u8 action;

	if (!lossless_has(tb[TCA_LOSSLESS_PFCWD_DETECT], sizeof(__u32)) ||
	    !rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_DETECT]))
		return;

	open_json_object("pfcwd");
	print_uint(PRINT_ANY, "detect_ms", "pfcwd detect %ums ",
		   rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_DETECT]));
	if (lossless_has(tb[TCA_LOSSLESS_PFCWD_RESTORE], sizeof(__u32)))
		print_uint(PRINT_ANY, "restore_ms", "restore %ums ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_RESTORE]));
	if (lossless_has(tb[TCA_LOSSLESS_PFCWD_ACTION], sizeof(__u8))) {
		action = rta_getattr_u8(tb[TCA_LOSSLESS_PFCWD_ACTION]);
		if (action < __TC_LOSSLESS_PFCWD_ACTION_MAX)
			print_string(PRINT_ANY, "action", "action %s ",
				     lossless_pfcwd_action_names[action]);
		else
			print_uint(PRINT_ANY, "action", "action %u ", action);
	}
	close_json_object();
}

/*
 * Text: the priorities that move, "hook-remap 3:4,5:6", none if none
 * does; JSON: an array "hook_remap" of {"from":3,"to":4}.
 */
static void lossless_print_hook_remap(const __u8 *map)
{
	bool first = true;
	int p;

	open_json_array(PRINT_JSON, "hook_remap");
	for (p = 0; p < TC_LOSSLESS_NUM_PRIO; p++) {
		if (map[p] == p)
			continue;
		open_json_object(NULL);
		print_uint(PRINT_ANY, "from", first ? "hook-remap %u" : ",%u",
			   p);
		print_uint(PRINT_ANY, "to", ":%u", map[p]);
		close_json_object();
		first = false;
	}
	close_json_array(PRINT_JSON, NULL);
	if (!first)
		print_string(PRINT_FP, NULL, "%s", " ");
}

static int lossless_print_opt(struct qdisc_util *qu, FILE *f,
			      struct rtattr *opt)
{
	struct rtattr *tb[TCA_LOSSLESS_MAX + 1];
	bool trust_dscp = false, listed = false;
	enum output_type t;
	bool uplink;
	__u8 *map;
	__u8 trust;
	int i;

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_LOSSLESS_MAX, opt);

	if (lossless_has(tb[TCA_LOSSLESS_BUFFER], sizeof(__u32)))
		print_size(PRINT_ANY, "buffer", "buffer %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_BUFFER]));

	if (lossless_has(tb[TCA_LOSSLESS_TRUST], sizeof(__u8))) {
		trust = rta_getattr_u8(tb[TCA_LOSSLESS_TRUST]);
		trust_dscp = trust == TC_LOSSLESS_TRUST_DSCP;
		if (trust < __TC_LOSSLESS_TRUST_MAX)
			print_string(PRINT_ANY, "trust", "trust %s ",
				     lossless_trust_names[trust]);
		else
			print_uint(PRINT_ANY, "trust", "trust %u ", trust);
	}

	/* Text: "prio-tc 0:0,1:1,...", JSON: "prio_tc": [0,1,...] */
	if (lossless_has(tb[TCA_LOSSLESS_PRIO_TC], TC_LOSSLESS_NUM_PRIO)) {
		map = RTA_DATA(tb[TCA_LOSSLESS_PRIO_TC]);
		open_json_array(PRINT_JSON, "prio_tc");
		for (i = 0; i < TC_LOSSLESS_NUM_PRIO; i++) {
			print_uint(PRINT_FP, NULL, i ? ",%u:" : "prio-tc %u:",
				   i);
			print_uint(PRINT_ANY, NULL, "%u", map[i]);
		}
		close_json_array(PRINT_JSON, NULL);
		print_string(PRINT_FP, NULL, "%s", " ");
	}

	/*
	 * JSON: all 64 entries. Text: only with trust dscp, and only the
	 * entries that differ from the default DSCP / 8.
	 */
	if (lossless_has(tb[TCA_LOSSLESS_DSCP_PRIO], TC_LOSSLESS_NUM_DSCP)) {
		map = RTA_DATA(tb[TCA_LOSSLESS_DSCP_PRIO]);
		open_json_array(PRINT_JSON, "dscp_prio");
		for (i = 0; i < TC_LOSSLESS_NUM_DSCP; i++) {
			t = PRINT_JSON;
			if (trust_dscp && map[i] != i / 8) {
				print_uint(PRINT_FP, NULL,
					   listed ? ",%u:" : "dscp-prio %u:",
					   i);
				listed = true;
				t = PRINT_ANY;
			}
			print_uint(t, NULL, "%u", map[i]);
		}
		close_json_array(PRINT_JSON, NULL);
		if (listed)
			print_string(PRINT_FP, NULL, "%s", " ");
	}

	if (lossless_has(tb[TCA_LOSSLESS_RATE], sizeof(__u64)))
		tc_print_rate(PRINT_ANY, "rate", "rate %s ",
			      rta_getattr_u64(tb[TCA_LOSSLESS_RATE]));
	if (lossless_has(tb[TCA_LOSSLESS_BURST], sizeof(__u32)))
		print_size(PRINT_ANY, "burst", "burst %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_BURST]));
	if (lossless_has(tb[TCA_LOSSLESS_PFC], sizeof(__u8)))
		lossless_print_prios("pfc", "pfc",
				     rta_getattr_u8(tb[TCA_LOSSLESS_PFC]), true);
	if (lossless_has(tb[TCA_LOSSLESS_SPEED], sizeof(__u64)) &&
	    rta_getattr_u64(tb[TCA_LOSSLESS_SPEED]))
		tc_print_rate(PRINT_ANY, "speed", "speed %s ",
			      rta_getattr_u64(tb[TCA_LOSSLESS_SPEED]));
	if (lossless_has(tb[TCA_LOSSLESS_CABLE], sizeof(__u32)) &&
	    rta_getattr_u32(tb[TCA_LOSSLESS_CABLE]))
		print_uint(PRINT_ANY, "cable", "cable %um ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CABLE]));
	if (lossless_has(tb[TCA_LOSSLESS_MTU], sizeof(__u32)) &&
	    rta_getattr_u32(tb[TCA_LOSSLESS_MTU]))
		print_uint(PRINT_ANY, "mtu", "mtu %u ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_MTU]));
	if (lossless_has(tb[TCA_LOSSLESS_RESPONSE], sizeof(__u32)) &&
	    rta_getattr_u32(tb[TCA_LOSSLESS_RESPONSE]))
		lossless_print_response(rta_getattr_u32(tb[TCA_LOSSLESS_RESPONSE]));

	lossless_print_pfcwd(tb);
	if (lossless_has(tb[TCA_LOSSLESS_PFCWD_LIMIT], sizeof(__u32)) &&
	    rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_LIMIT])) {
		print_uint(PRINT_ANY, "pfcwd_limit", "pfcwd-limit %u ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_LIMIT]));
		if (lossless_has(tb[TCA_LOSSLESS_PFCWD_WINDOW], sizeof(__u32)))
			print_uint(PRINT_ANY, "pfcwd_window_s", "window %us ",
				   rta_getattr_u32(tb[TCA_LOSSLESS_PFCWD_WINDOW]));
	}
	if (lossless_has(tb[TCA_LOSSLESS_PFCWD_OFF], sizeof(__u8)))
		lossless_print_prios("pfcwd-off", "pfcwd_off",
				     rta_getattr_u8(tb[TCA_LOSSLESS_PFCWD_OFF]),
				     false);
	if (lossless_has(tb[TCA_LOSSLESS_UPLINK], sizeof(__u8))) {
		uplink = rta_getattr_u8(tb[TCA_LOSSLESS_UPLINK]);
		print_bool(PRINT_JSON, "uplink", NULL, uplink);
		if (uplink)
			print_string(PRINT_FP, NULL, "%s", "uplink ");
	}
	if (lossless_has(tb[TCA_LOSSLESS_HOOK_REMAP], TC_LOSSLESS_NUM_PRIO))
		lossless_print_hook_remap(RTA_DATA(tb[TCA_LOSSLESS_HOOK_REMAP]));

	dcqcn_print_opt(tb[TCA_LOSSLESS_DCQCN]);

	return 0;
}

static int lossless_parse_class_opt(struct qdisc_util *qu, int argc,
				    char **argv, struct nlmsghdr *n,
				    const char *dev)
{
	bool strict = false, have_quantum = false, have_limit = false;
	bool ecn = false, noecn = false;
	bool have_kmin = false, have_kmax = false, have_pmax = false;
	unsigned int quantum = 0, limit = 0, kmin = 0, kmax = 0;
	bool have_xoff = false, have_xon = false, have_headroom = false;
	unsigned int xoff = 0, xon = 0, headroom = 0;
	struct rtattr *tail;
	__u32 pmax = 0;

	while (argc > 0) {
		if (strcmp(*argv, "strict") == 0) {
			if (strict)
				duparg("strict", *argv);
			strict = true;
		} else if (strcmp(*argv, "quantum") == 0) {
			NEXT_ARG();
			if (have_quantum)
				duparg("quantum", *argv);
			if (get_size(&quantum, *argv) || !quantum)
				invarg("invalid \"quantum\": 1 byte or more",
				       *argv);
			have_quantum = true;
		} else if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (have_limit)
				duparg("limit", *argv);
			if (get_size(&limit, *argv))
				invarg("invalid \"limit\" size", *argv);
			have_limit = true;
		} else if (strcmp(*argv, "ecn") == 0) {
			if (ecn)
				duparg("ecn", *argv);
			ecn = true;
		} else if (strcmp(*argv, "noecn") == 0) {
			if (noecn)
				duparg("noecn", *argv);
			noecn = true;
		} else if (!ecn && (strcmp(*argv, "kmin") == 0 ||
				    strcmp(*argv, "kmax") == 0 ||
				    strcmp(*argv, "pmax") == 0)) {
			fprintf(stderr, "\"%s\" is only valid after \"ecn\"\n",
				*argv);
			explain_class();
			return -1;
		} else if (strcmp(*argv, "kmin") == 0) {
			NEXT_ARG();
			if (have_kmin)
				duparg("kmin", *argv);
			if (get_size(&kmin, *argv))
				invarg("invalid \"kmin\" size", *argv);
			have_kmin = true;
		} else if (strcmp(*argv, "kmax") == 0) {
			NEXT_ARG();
			if (have_kmax)
				duparg("kmax", *argv);
			if (get_size(&kmax, *argv))
				invarg("invalid \"kmax\" size", *argv);
			have_kmax = true;
		} else if (strcmp(*argv, "pmax") == 0) {
			NEXT_ARG();
			if (have_pmax)
				duparg("pmax", *argv);
			if (lossless_get_pmax(&pmax, *argv))
				invarg("\"pmax\" is a percentage, 0 to 100 with up to 4 decimals",
				       *argv);
			have_pmax = true;
		} else if (strcmp(*argv, "xoff") == 0) {
			NEXT_ARG();
			if (have_xoff)
				duparg("xoff", *argv);
			if (get_size(&xoff, *argv) || !xoff)
				invarg("invalid \"xoff\": 1 byte or more", *argv);
			have_xoff = true;
		} else if (strcmp(*argv, "xon") == 0) {
			NEXT_ARG();
			if (have_xon)
				duparg("xon", *argv);
			if (get_size(&xon, *argv))
				invarg("invalid \"xon\" size", *argv);
			have_xon = true;
		} else if (strcmp(*argv, "headroom") == 0) {
			NEXT_ARG();
			if (have_headroom)
				duparg("headroom", *argv);
			if (strcmp(*argv, "auto") == 0)
				headroom = 0;
			else if (get_size(&headroom, *argv) || !headroom)
				invarg("\"headroom\" is a size or \"auto\"", *argv);
			have_headroom = true;
		} else {
			if (strcmp(*argv, "help") != 0)
				fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain_class();
			return -1;
		}
		argc--; argv++;
	}

	if (strict && have_quantum) {
		fprintf(stderr,
			"\"strict\" and \"quantum\" exclude each other\n");
		return -1;
	}
	if (ecn && noecn) {
		fprintf(stderr, "\"ecn\" and \"noecn\" exclude each other\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	if (strict)
		addattr(n, 1024, TCA_LOSSLESS_CLASS_STRICT);
	if (have_quantum)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_QUANTUM, quantum);
	if (have_limit)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_LIMIT, limit);
	if (ecn || noecn)
		addattr8(n, 1024, TCA_LOSSLESS_CLASS_ECN, ecn);
	if (have_kmin)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_KMIN, kmin);
	if (have_kmax)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_KMAX, kmax);
	if (have_pmax)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_PMAX, pmax);
	if (have_xoff)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_XOFF, xoff);
	if (have_xon)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_XON, xon);
	if (have_headroom)
		addattr32(n, 1024, TCA_LOSSLESS_CLASS_HEADROOM, headroom);
	addattr_nest_end(n, tail);

	return 0;
}

static int lossless_print_class_opt(struct qdisc_util *qu, FILE *f,
				    struct rtattr *opt)
{
	struct rtattr *tb[TCA_LOSSLESS_CLASS_MAX + 1];
	enum output_type t;
	bool ecn = false;

	if (!opt)
		return 0;

	parse_rtattr_nested(tb, TCA_LOSSLESS_CLASS_MAX, opt);

	if (tb[TCA_LOSSLESS_CLASS_STRICT])
		print_bool(PRINT_ANY, "strict", "strict ", true);
	else if (lossless_has(tb[TCA_LOSSLESS_CLASS_QUANTUM], sizeof(__u32)))
		print_uint(PRINT_ANY, "quantum", "quantum %u ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_QUANTUM]));

	if (lossless_has(tb[TCA_LOSSLESS_CLASS_LIMIT], sizeof(__u32)))
		print_size(PRINT_ANY, "limit", "limit %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_LIMIT]));

	if (lossless_has(tb[TCA_LOSSLESS_CLASS_ECN], sizeof(__u8))) {
		ecn = rta_getattr_u8(tb[TCA_LOSSLESS_CLASS_ECN]);
		print_bool(PRINT_ANY, "ecn", ecn ? "ecn " : "noecn ", ecn);
	}

	/* The thresholds are dumped either way; text shows them with ecn. */
	t = ecn ? PRINT_ANY : PRINT_JSON;
	if (lossless_has(tb[TCA_LOSSLESS_CLASS_KMIN], sizeof(__u32)))
		print_size(t, "kmin", "kmin %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_KMIN]));
	if (lossless_has(tb[TCA_LOSSLESS_CLASS_KMAX], sizeof(__u32)))
		print_size(t, "kmax", "kmax %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_KMAX]));
	if (lossless_has(tb[TCA_LOSSLESS_CLASS_PMAX], sizeof(__u32)))
		print_float(t, "pmax", "pmax %g%% ",
			    (double)rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_PMAX]) /
			    LOSSLESS_PMAX_PER_PERCENT);

	if (lossless_has(tb[TCA_LOSSLESS_CLASS_XOFF], sizeof(__u32)))
		print_size(PRINT_ANY, "xoff", "xoff %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_XOFF]));
	if (lossless_has(tb[TCA_LOSSLESS_CLASS_XON], sizeof(__u32)))
		print_size(PRINT_ANY, "xon", "xon %s ",
			   rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_XON]));
	if (lossless_has(tb[TCA_LOSSLESS_CLASS_HEADROOM], sizeof(__u32))) {
		__u32 h = rta_getattr_u32(tb[TCA_LOSSLESS_CLASS_HEADROOM]);

		if (h)
			print_size(PRINT_ANY, "headroom", "headroom %s ", h);
		else
			print_string(PRINT_ANY, "headroom", "headroom %s ", "auto");
	}

	return 0;
}

static const char * const lossless_wd_state_names[] = {
	[TC_LOSSLESS_WD_WATCHING]	= "watching",
	[TC_LOSSLESS_WD_STORMED]	= "stormed",
	[TC_LOSSLESS_WD_PFC_OFF]	= "pfc_off",
};

/* Count @i of a histogram attribute (a __u64 array, 4-byte aligned only) */
static __u64 lossless_qhist_count(struct rtattr *rta, int i)
{
	__u64 v;

	memcpy(&v, (char *)RTA_DATA(rta) + i * sizeof(v), sizeof(v));
	return v;
}

/* The occupancy histogram: " qhist N N ...", a JSON array */
static void lossless_print_qhist(struct rtattr *rta)
{
	int i;

	if (!lossless_has(rta, TC_LOSSLESS_QHIST_BUCKETS * sizeof(__u64)))
		return;
	print_string(PRINT_FP, NULL, "%s", " qhist");
	open_json_array(PRINT_JSON, "qhist");
	for (i = 0; i < TC_LOSSLESS_QHIST_BUCKETS; i++)
		print_u64(PRINT_ANY, NULL, " %llu", lossless_qhist_count(rta, i));
	close_json_array(PRINT_JSON, NULL);
}

/* The lower edge, in bytes, of fine histogram bucket @i (uapi header) */
static unsigned int lossless_qhist_fine_low(unsigned int i)
{
	if (i < 16)
		return 256 * i;
	return (512U << ((i - 16) / 8)) * (8 + (i - 16) % 8);
}

/*
 * A class's fine histogram: a JSON array of all its counts; in text, only
 * the buckets that counted anything, as " LOW:COUNT" with LOW the bucket's
 * lower edge in bytes.
 */
static void lossless_print_qhist_fine(struct rtattr *rta)
{
	char buf[48];
	__u64 v;
	int i;

	if (!lossless_has(rta, TC_LOSSLESS_QHIST_FINE_BUCKETS * sizeof(__u64)))
		return;
	print_string(PRINT_FP, NULL, "%s", " qhist_fine");
	open_json_array(PRINT_JSON, "qhist_fine");
	for (i = 0; i < TC_LOSSLESS_QHIST_FINE_BUCKETS; i++) {
		v = lossless_qhist_count(rta, i);
		print_u64(PRINT_JSON, NULL, NULL, v);
		if (!v)
			continue;
		snprintf(buf, sizeof(buf), "%u:%llu", lossless_qhist_fine_low(i), v);
		print_string(PRINT_FP, NULL, " %s", buf);
	}
	close_json_array(PRINT_JSON, NULL);
}

/* Packets in, flushed and out: a class's or the port's */
static void lossless_print_accounting(struct rtattr *tb[])
{
	if (lossless_has(tb[TCA_LOSSLESS_STATS_IN], sizeof(__u64)))
		print_u64(PRINT_ANY, "in", " in %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_IN]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_FLUSHED], sizeof(__u64)))
		print_u64(PRINT_ANY, "flushed", " flushed %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_FLUSHED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_OUT], sizeof(__u64)))
		print_u64(PRINT_ANY, "out", " out %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_OUT]));
}

/* The counters of one traffic class, on the current line */
static void lossless_print_tc_stats(struct rtattr *tb[])
{
	__u8 state;

	if (lossless_has(tb[TCA_LOSSLESS_STATS_ECN_MARKED], sizeof(__u64)))
		print_u64(PRINT_ANY, "ecn_marked", " ecn_marked %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_ECN_MARKED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PEAK_BACKLOG], sizeof(__u32)))
		print_size(PRINT_ANY, "peak_backlog", " peak_backlog %s",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_PEAK_BACKLOG]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_LIMIT_DROPS], sizeof(__u64)))
		print_u64(PRINT_ANY, "limit_drops", " limit_drops %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_LIMIT_DROPS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_BUFFER_DROPS], sizeof(__u64)))
		print_u64(PRINT_ANY, "buffer_drops", " buffer_drops %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_BUFFER_DROPS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PFC_RX], sizeof(__u64)))
		print_u64(PRINT_ANY, "pfc_rx", " pfc_rx %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PFC_RX]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PAUSE_US], sizeof(__u64)))
		print_u64(PRINT_ANY, "pause_us", " pause_us %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PAUSE_US]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PFC_TX_XOFF], sizeof(__u64)))
		print_u64(PRINT_ANY, "pfc_tx_xoff", " pfc_tx_xoff %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PFC_TX_XOFF]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PFC_TX_XON], sizeof(__u64)))
		print_u64(PRINT_ANY, "pfc_tx_xon", " pfc_tx_xon %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PFC_TX_XON]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_INGRESS], sizeof(__u32)))
		print_uint(PRINT_ANY, "ingress_bytes", " ingress_bytes %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_INGRESS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PAUSING], sizeof(__u8)))
		print_bool(PRINT_ANY, "pausing", " pausing %s",
			   rta_getattr_u8(tb[TCA_LOSSLESS_STATS_PAUSING]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_HEADROOM], sizeof(__u32)))
		print_uint(PRINT_ANY, "headroom", " headroom %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_HEADROOM]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_HEADROOM_PEAK], sizeof(__u32)))
		print_uint(PRINT_ANY, "headroom_peak", " headroom_peak %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_HEADROOM_PEAK]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_HEADROOM_DROPS], sizeof(__u64)))
		print_u64(PRINT_ANY, "headroom_drops", " headroom_drops %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_HEADROOM_DROPS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_WD_STATE], sizeof(__u8))) {
		state = rta_getattr_u8(tb[TCA_LOSSLESS_STATS_WD_STATE]);
		if (state <= TC_LOSSLESS_WD_PFC_OFF)
			print_string(PRINT_ANY, "wd_state", " wd_state %s",
				     lossless_wd_state_names[state]);
		else
			print_uint(PRINT_ANY, "wd_state", " wd_state %u", state);
	}
	if (lossless_has(tb[TCA_LOSSLESS_STATS_WD_DETECTED], sizeof(__u64)))
		print_u64(PRINT_ANY, "wd_detected", " wd_detected %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_WD_DETECTED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_WD_RESTORED], sizeof(__u64)))
		print_u64(PRINT_ANY, "wd_restored", " wd_restored %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_WD_RESTORED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_WD_DROPPED], sizeof(__u64)))
		print_u64(PRINT_ANY, "wd_dropped", " wd_dropped %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_WD_DROPPED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_HOOK_REMAPPED], sizeof(__u64)))
		print_u64(PRINT_ANY, "hook_remapped", " hook_remapped %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_HOOK_REMAPPED]));
	lossless_print_accounting(tb);
	if (lossless_has(tb[TCA_LOSSLESS_STATS_INGRESS_DROPS], sizeof(__u64)))
		print_u64(PRINT_ANY, "ingress_drops", " ingress_drops %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_INGRESS_DROPS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_TX_BYTES], sizeof(__u64)))
		print_u64(PRINT_ANY, "tx_bytes", " tx_bytes %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_TX_BYTES]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_BACKLOG], sizeof(__u32)))
		print_uint(PRINT_ANY, "backlog_bytes", " backlog_bytes %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_BACKLOG]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PACED], sizeof(__u64)))
		print_u64(PRINT_ANY, "paced", " paced %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PACED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PACED_PACKETS], sizeof(__u32)))
		print_uint(PRINT_ANY, "paced_packets", " paced_packets %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_PACED_PACKETS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PACED_BACKLOG], sizeof(__u32)))
		print_uint(PRINT_ANY, "paced_backlog", " paced_backlog %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_PACED_BACKLOG]));
	lossless_print_qhist(tb[TCA_LOSSLESS_STATS_QHIST]);
	lossless_print_qhist_fine(tb[TCA_LOSSLESS_STATS_QHIST_FINE]);
}

/*
 * @xstats is TCA_STATS_APP (or TCA_XSTATS). A class's holds its counters;
 * the qdisc's holds the port's and one TCA_LOSSLESS_STATS_CLASS nest per
 * traffic class: text, one line each; JSON, an array "classes".
 */
static int lossless_print_xstats(struct qdisc_util *qu, FILE *f,
				 struct rtattr *xstats)
{
	struct rtattr *tb[TCA_LOSSLESS_STATS_MAX + 1];
	struct rtattr *rta;
	int len;

	if (!xstats)
		return 0;

	parse_rtattr_nested(tb, TCA_LOSSLESS_STATS_MAX, xstats);

	if (!tb[TCA_LOSSLESS_STATS_CLASS] && !tb[TCA_LOSSLESS_STATS_THROTTLED]) {
		lossless_print_tc_stats(tb);
		return 0;
	}

	if (lossless_has(tb[TCA_LOSSLESS_STATS_THROTTLED], sizeof(__u64)))
		print_u64(PRINT_ANY, "throttled", " throttled %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_THROTTLED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PFC_RX_BAD], sizeof(__u64)))
		print_u64(PRINT_ANY, "pfc_rx_bad", " pfc_rx_bad %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PFC_RX_BAD]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_SPEED], sizeof(__u64)))
		tc_print_rate(PRINT_ANY, "speed", " speed %s",
			      rta_getattr_u64(tb[TCA_LOSSLESS_STATS_SPEED]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_MTU], sizeof(__u32)))
		print_uint(PRINT_ANY, "mtu", " mtu %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_MTU]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_WD_POLL_US], sizeof(__u32)))
		print_uint(PRINT_ANY, "wd_poll_us", " wd_poll_us %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_WD_POLL_US]));
	lossless_print_accounting(tb);
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PACED_FLOWS], sizeof(__u32)))
		print_uint(PRINT_ANY, "paced_flows", " paced_flows %u",
			   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_PACED_FLOWS]));
	if (lossless_has(tb[TCA_LOSSLESS_STATS_PACE_REFUSED], sizeof(__u64)))
		print_u64(PRINT_ANY, "pace_refused", " pace_refused %llu",
			  rta_getattr_u64(tb[TCA_LOSSLESS_STATS_PACE_REFUSED]));
	dcqcn_print_stats(tb[TCA_LOSSLESS_STATS_DCQCN]);

	/* parse_rtattr_nested() keeps only the first of repeated nests. */
	open_json_array(PRINT_JSON, "classes");
	len = RTA_PAYLOAD(xstats);
	for (rta = RTA_DATA(xstats); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if ((rta->rta_type & NLA_TYPE_MASK) != TCA_LOSSLESS_STATS_CLASS)
			continue;
		parse_rtattr_nested(tb, TCA_LOSSLESS_STATS_MAX, rta);
		print_nl();
		open_json_object(NULL);
		print_string(PRINT_FP, NULL, "%s", " ");
		if (lossless_has(tb[TCA_LOSSLESS_STATS_TC], sizeof(__u32)))
			print_uint(PRINT_ANY, "tc", " tc %u",
				   rta_getattr_u32(tb[TCA_LOSSLESS_STATS_TC]));
		lossless_print_tc_stats(tb);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);

	return 0;
}

struct qdisc_util lossless_qdisc_util = {
	.id		= "lossless",
	.parse_qopt	= lossless_parse_opt,
	.print_qopt	= lossless_print_opt,
	.print_xstats	= lossless_print_xstats,
	.parse_copt	= lossless_parse_class_opt,
	.print_copt	= lossless_print_class_opt,
};
