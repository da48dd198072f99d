// SPDX-License-Identifier: GPL-2.0
/*
 * aiecnd: command line, default bounds and telemetry deltas (no kernel).
 */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "aiecnd.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KIB	1024ull
#define MIB	(1024ull * 1024)

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Leading digits of @s into *v (no sign, no blanks); where they end, or NULL */
static const char *digits(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		n = n * 10 + (uint64_t)(*s - '0');
		if (n > max)
			return NULL;
	}
	*v = n;
	return s;
}

/* A whole number in [lo, hi]; 0 or -1 */
static int parse_uint(const char *s, uint32_t lo, uint32_t hi, uint32_t *v)
{
	const char *end;
	uint64_t n;

	end = digits(s, hi, &n);
	if (!end || *end || n < lo)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

int aiecnd_parse_size(const char *s, uint32_t *v)
{
	uint64_t n, mult = 1;
	const char *end;

	end = digits(s, UINT32_MAX, &n);
	if (!end)
		return -1;
	if (*end == 'k' || *end == 'K')
		mult = KIB;
	else if (*end == 'm' || *end == 'M')
		mult = MIB;
	else if (*end)
		return -1;
	if (mult > 1 && end[1])
		return -1;
	if (n * mult > UINT32_MAX)
		return -1;
	*v = (uint32_t)(n * mult);
	return 0;
}

/* A percent, with an optional '%' */
static int parse_percent(const char *s, uint32_t *v)
{
	char buf[8];
	size_t n = strlen(s);

	if (n && s[n - 1] == '%') {
		if (n > sizeof(buf))
			return -1;
		memcpy(buf, s, n - 1);
		buf[n - 1] = '\0';
		s = buf;
	}
	return parse_uint(s, 1, 100, v);
}

enum opt_kind {
	OPT_FLAG,		/* no value */
	OPT_STR,
	OPT_MS,			/* milliseconds, 1 .. AIECND_MAX_MS */
	OPT_SIZE,
	OPT_PERCENT,
};

enum opt_id {
	O_DEV, O_CLASS, O_INTERVAL, O_MODE, O_MODEL, O_KMIN_LO, O_KMAX_LO, O_KMAX_HI,
	O_PMAX_LO, O_PMAX_HI, O_ALLOWANCE, O_STALE, O_LOG, O_FEATURES, O_SAMPLES, O_DURATION,
	O_KEEP, O_HELP,
};

static const struct {
	const char *name;
	enum opt_id id;
	enum opt_kind kind;
} opts[] = {
	{ "dev", O_DEV, OPT_STR },
	{ "class", O_CLASS, OPT_STR },
	{ "interval", O_INTERVAL, OPT_MS },
	{ "mode", O_MODE, OPT_STR },
	{ "model", O_MODEL, OPT_STR },
	{ "kmin-lo", O_KMIN_LO, OPT_SIZE },
	{ "kmax-lo", O_KMAX_LO, OPT_SIZE },
	{ "kmax-hi", O_KMAX_HI, OPT_SIZE },
	{ "pmax-lo", O_PMAX_LO, OPT_PERCENT },
	{ "pmax-hi", O_PMAX_HI, OPT_PERCENT },
	{ "allowance", O_ALLOWANCE, OPT_SIZE },
	{ "stale", O_STALE, OPT_MS },
	{ "log", O_LOG, OPT_STR },
	{ "features", O_FEATURES, OPT_STR },
	{ "samples", O_SAMPLES, OPT_STR },
	{ "duration", O_DURATION, OPT_STR },
	{ "keep-on-exit", O_KEEP, OPT_FLAG },
	{ "help", O_HELP, OPT_FLAG },
};

static const char *const mode_names[] = {
	[AIECND_AUTO] = "auto",
	[AIECND_HEURISTIC] = "heuristic",
	[AIECND_MODEL] = "model",
	[AIECND_STATIC] = "static",
};

const char *aiecnd_mode_name(enum aiecnd_mode mode)
{
	if ((unsigned int)mode >= ARRAY_SIZE(mode_names))
		return "?";
	return mode_names[mode];
}

enum aiecnd_mode aiecnd_effective_mode(const struct aiecnd_config *cfg)
{
	if (cfg->mode != AIECND_AUTO)
		return cfg->mode;
	return cfg->model ? AIECND_MODEL : AIECND_HEURISTIC;
}

static int set_class(struct aiecnd_config *cfg, const char *v, char *err, size_t errlen)
{
	uint32_t tc;
	int i;

	if (parse_uint(v, 0, TC_LOSSLESS_NUM_TC - 1, &tc))
		return fail(err, errlen, "--class: '%s' is not a traffic class (0 to %d)", v,
			    TC_LOSSLESS_NUM_TC - 1);
	for (i = 0; i < cfg->nclasses; i++)
		if (cfg->tc[i] == (int)tc)
			return fail(err, errlen, "--class: %u given twice", tc);
	cfg->tc[cfg->nclasses++] = (int)tc;	/* at most 8 distinct ones */
	return 0;
}

static int set_mode(struct aiecnd_config *cfg, const char *v, char *err, size_t errlen)
{
	unsigned int m;

	for (m = 0; m < ARRAY_SIZE(mode_names); m++) {
		if (!strcmp(v, mode_names[m])) {
			cfg->mode = (enum aiecnd_mode)m;
			return 0;
		}
	}
	return fail(err, errlen, "--mode: '%s' is not auto, heuristic, model or static", v);
}

/* One option with its value (NULL for a flag) */
static int set_opt(struct aiecnd_config *cfg, int i, const char *v, char *err, size_t errlen)
{
	const char *name = opts[i].name;
	uint32_t n = 0;

	switch (opts[i].kind) {
	case OPT_MS:
		if (parse_uint(v, 1, AIECND_MAX_MS, &n))
			return fail(err, errlen, "--%s: '%s' is not 1 to %u milliseconds", name, v,
				    AIECND_MAX_MS);
		break;
	case OPT_SIZE:
		if (aiecnd_parse_size(v, &n))
			return fail(err, errlen,
				    "--%s: '%s' is not a size in bytes (digits, then k or m)",
				    name, v);
		break;
	case OPT_PERCENT:
		if (parse_percent(v, &n))
			return fail(err, errlen, "--%s: '%s' is not 1 to 100 percent", name, v);
		break;
	default:
		break;
	}
	switch (opts[i].id) {
	case O_DEV:
		if (!*v || strlen(v) >= IF_NAMESIZE || strchr(v, '/') || strpbrk(v, " \t\n"))
			return fail(err, errlen, "--dev: '%s' is not a device name", v);
		cfg->dev = v;
		break;
	case O_CLASS:
		return set_class(cfg, v, err, errlen);
	case O_INTERVAL:
		cfg->interval_ms = n;
		break;
	case O_MODE:
		return set_mode(cfg, v, err, errlen);
	case O_MODEL:
		cfg->model = v;
		break;
	case O_KMIN_LO:
		cfg->b.kmin_lo = n;
		cfg->set |= AIECND_SET_KMIN_LO;
		break;
	case O_KMAX_LO:
		cfg->b.kmax_lo = n;
		cfg->set |= AIECND_SET_KMAX_LO;
		break;
	case O_KMAX_HI:
		cfg->b.kmax_hi = n;
		cfg->set |= AIECND_SET_KMAX_HI;
		break;
	case O_PMAX_LO:
		cfg->b.pmax_lo = n;
		break;
	case O_PMAX_HI:
		cfg->b.pmax_hi = n;
		break;
	case O_ALLOWANCE:
		cfg->b.cnp_allowance = n;
		cfg->set |= AIECND_SET_ALLOWANCE;
		break;
	case O_STALE:
		cfg->stale_ms = n;
		break;
	case O_LOG:
		cfg->log = v;
		break;
	case O_FEATURES:
		cfg->features = v;
		break;
	case O_SAMPLES:
		cfg->samples = v;
		break;
	case O_DURATION:
		if (parse_uint(v, 1, AIECND_MAX_DURATION_S, &cfg->duration_s))
			return fail(err, errlen, "--duration: '%s' is not 1 to %u seconds", v,
				    AIECND_MAX_DURATION_S);
		break;
	case O_KEEP:
		cfg->keep_on_exit = 1;
		break;
	case O_HELP:
		cfg->help = 1;
		break;
	}
	return 0;
}

/* Combinations, once everything is read */
static int check_config(const struct aiecnd_config *cfg, char *err, size_t errlen)
{
	if (!cfg->dev)
		return fail(err, errlen, "--dev is required");
	if (!cfg->nclasses)
		return fail(err, errlen, "--class is required (one or more)");
	if (cfg->mode == AIECND_MODEL && !cfg->model)
		return fail(err, errlen, "--mode model needs --model FILE");
	if (cfg->stale_ms < cfg->interval_ms)
		return fail(err, errlen, "--stale (%u ms) must be at least --interval (%u ms)",
			    cfg->stale_ms, cfg->interval_ms);
	if (cfg->b.pmax_lo > cfg->b.pmax_hi)
		return fail(err, errlen, "--pmax-lo (%u) is above --pmax-hi (%u)",
			    cfg->b.pmax_lo, cfg->b.pmax_hi);
	return 0;
}

int aiecnd_parse_args(int argc, char **argv, struct aiecnd_config *cfg, char *err,
		      size_t errlen)
{
	const char *arg, *eq, *v;
	size_t nlen;
	int i, o;

	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_ms = AIECND_DEF_INTERVAL_MS;
	cfg->stale_ms = AIECND_DEF_STALE_MS;
	cfg->b.pmax_lo = 1;
	cfg->b.pmax_hi = 100;
	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strcmp(arg, "-h"))
			arg = "--help";
		if (strncmp(arg, "--", 2) || !arg[2])
			return fail(err, errlen, "unexpected argument '%s'", arg);
		arg += 2;
		eq = strchr(arg, '=');
		nlen = eq ? (size_t)(eq - arg) : strlen(arg);
		for (o = 0; o < (int)ARRAY_SIZE(opts); o++)
			if (strlen(opts[o].name) == nlen && !strncmp(opts[o].name, arg, nlen))
				break;
		if (o == (int)ARRAY_SIZE(opts))
			return fail(err, errlen, "unknown option '--%.*s'", (int)nlen, arg);
		if (opts[o].kind == OPT_FLAG) {
			if (eq)
				return fail(err, errlen, "--%s takes no value", opts[o].name);
			v = NULL;
		} else if (eq) {
			v = eq + 1;
		} else if (i + 1 < argc) {
			v = argv[++i];
		} else {
			return fail(err, errlen, "--%s needs a value", opts[o].name);
		}
		if (set_opt(cfg, o, v, err, errlen))
			return -1;
	}
	if (cfg->help)
		return 0;
	return check_config(cfg, err, errlen);
}

void aiecnd_class_bounds(const struct aiecnd_config *cfg, uint32_t xoff, struct aiecn_bounds *b)
{
	uint32_t ceiling;

	*b = cfg->b;
	b->xoff = xoff;
	if (!(cfg->set & AIECND_SET_ALLOWANCE))
		b->cnp_allowance = xoff / AIECND_DEF_ALLOWANCE_DIV;
	ceiling = xoff > b->cnp_allowance ? xoff - b->cnp_allowance : 0;
	if (!(cfg->set & AIECND_SET_KMAX_HI))
		b->kmax_hi = ceiling;
	if (!(cfg->set & AIECND_SET_KMAX_LO)) {
		ceiling = aiecn_kmax_ceiling(b);
		b->kmax_lo = ceiling < AIECND_DEF_KMAX_LO ? ceiling : AIECND_DEF_KMAX_LO;
	}
	if (!(cfg->set & AIECND_SET_KMIN_LO))
		b->kmin_lo = 0;
}

/* @cur - @prev into *d; -1 if it went backwards */
static int delta(uint64_t prev, uint64_t cur, uint64_t *d)
{
	if (cur < prev)
		return -1;
	*d = cur - prev;
	return 0;
}

/* An optional counter: 0 unless both reads have it */
static int opt_delta(const struct aiecn_nl_class_stats *prev,
		     const struct aiecn_nl_class_stats *cur, uint32_t bit,
		     uint64_t p, uint64_t c, uint64_t *d)
{
	*d = 0;
	if (!(prev->have & cur->have & bit))
		return 0;
	return delta(p, c, d);
}

int aiecnd_sample_delta(const struct aiecn_nl_class_stats *prev,
			const struct aiecn_nl_class_stats *cur, double interval_s,
			uint64_t line_rate, struct aiecn_sample *x)
{
	uint64_t enq = 0, in;
	int i;

	memset(x, 0, sizeof(*x));
	if (!(interval_s > 0) || prev->tc != cur->tc)
		return -1;
	x->interval_s = interval_s;
	x->line_rate = (double)line_rate;
	if (delta(prev->tx_bytes, cur->tx_bytes, &x->tx_bytes))
		return -1;
	for (i = 0; i < AIECN_HIST_BUCKETS; i++) {
		if (delta(prev->qhist[i], cur->qhist[i], &x->hist[i]))
			return -1;
		enq += x->hist[i];
	}
	if (opt_delta(prev, cur, AIECN_NL_HAVE_ECN_MARKED, prev->ecn_marked, cur->ecn_marked,
		      &x->marked) ||
	    opt_delta(prev, cur, AIECN_NL_HAVE_PFC_TX_XOFF, prev->pfc_tx_xoff, cur->pfc_tx_xoff,
		      &x->xoff_tx) ||
	    opt_delta(prev, cur, AIECN_NL_HAVE_PFC_RX, prev->pfc_rx, cur->pfc_rx, &x->pfc_rx) ||
	    opt_delta(prev, cur, AIECN_NL_HAVE_IN, prev->in, cur->in, &in))
		return -1;
	x->enq_pkts = prev->have & cur->have & AIECN_NL_HAVE_IN ? in : enq;
	x->qlen_now = cur->have & AIECN_NL_HAVE_BACKLOG ? cur->backlog : 0;
	return 0;
}

void aiecnd_fmt_pmax(uint32_t ppm, char *buf, size_t len)
{
	uint32_t whole = ppm / AIECN_NL_PPM_PER_PERCENT;
	uint32_t frac = ppm % AIECN_NL_PPM_PER_PERCENT;
	int digits = 4;

	if (!frac) {
		snprintf(buf, len, "%u", whole);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%u.%0*u", whole, digits, frac);
}
