/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aiecnd: the parts of the daemon that need no kernel (aiecnd_lib.c), so
 * that the host's unit tests reach them: the command line, the default
 * bounds of a class, and samples from two telemetry reads.
 */
#ifndef _AIECND_H
#define _AIECND_H

#include <stddef.h>
#include <stdint.h>

#include "aiecn.h"
#include "aiecn_nl.h"

enum aiecnd_mode {
	AIECND_AUTO,		/* model if --model is given, else heuristic */
	AIECND_HEURISTIC,
	AIECND_MODEL,
	AIECND_STATIC,		/* observe and log only */
};

#define AIECND_DEF_INTERVAL_MS	100
#define AIECND_DEF_STALE_MS	1000
#define AIECND_MAX_MS		3600000	/* interval and stale: at most an hour */
#define AIECND_MAX_DURATION_S	(366u * 24 * 3600)
#define AIECND_DEF_KMAX_LO	8192	/* bytes, unless the ceiling is lower */
#define AIECND_DEF_ALLOWANCE_DIV	8	/* allowance: xoff / 8 */

/* Which bounds the command line gave (aiecnd_config.set) */
#define AIECND_SET_KMIN_LO	0x01
#define AIECND_SET_KMAX_LO	0x02
#define AIECND_SET_KMAX_HI	0x04
#define AIECND_SET_ALLOWANCE	0x08

struct aiecnd_config {
	const char *dev;
	int nclasses;
	int tc[TC_LOSSLESS_NUM_TC];	/* traffic classes, in the order given */
	uint32_t interval_ms;
	uint32_t stale_ms;
	uint32_t duration_s;	/* 0: until a signal */
	enum aiecnd_mode mode;
	const char *model;
	const char *log;	/* NULL: standard output */
	const char *features;	/* NULL: none recorded */
	const char *samples;	/* NULL: none recorded */
	int keep_on_exit;
	int help;
	unsigned int set;	/* AIECND_SET_* */
	struct aiecn_bounds b;	/* as given; xoff comes from each class */
};

/* A size in bytes: digits and an optional k or m (KiB, MiB); 0 or -1 */
int aiecnd_parse_size(const char *s, uint32_t *v);
/*
 * The command line into @cfg (argv[0] is the program). 0, or -1 with a
 * message naming the option in @err; @cfg points into @argv.
 */
int aiecnd_parse_args(int argc, char **argv, struct aiecnd_config *cfg, char *err,
		      size_t errlen);
/* The mode auto stands for, once the command line is read */
enum aiecnd_mode aiecnd_effective_mode(const struct aiecnd_config *cfg);
const char *aiecnd_mode_name(enum aiecnd_mode mode);
/*
 * A class's bounds: the given ones, its @xoff, and defaults for the rest
 * (allowance xoff / 8, kmax_hi xoff - allowance, kmax_lo 8 KiB or the
 * ceiling if lower, kmin_lo 0). Check them with aiecn_bounds_valid().
 */
void aiecnd_class_bounds(const struct aiecnd_config *cfg, uint32_t xoff, struct aiecn_bounds *b);

/*
 * The sample between two reads of a class, @interval_s apart on a port of
 * @line_rate bytes/s. 0, or -1 when a counter went backwards (the qdisc
 * was replaced or reset) or the interval is unusable: start a new baseline.
 * Counters missing from either read count 0; without IN the packets in
 * are the histogram's enqueues.
 */
int aiecnd_sample_delta(const struct aiecn_nl_class_stats *prev,
			const struct aiecn_nl_class_stats *cur, double interval_s,
			uint64_t line_rate, struct aiecn_sample *x);

/* pmax in millionths as percent: "1", "0.5", "12.3456" */
void aiecnd_fmt_pmax(uint32_t ppm, char *buf, size_t len);

#endif /* _AIECND_H */
