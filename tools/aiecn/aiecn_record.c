// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn: the model's window of samples, and samples and features as text.
 *
 * aiecnd records the samples it reads (--samples) and the features of its
 * windows (--features); tools/aiecn/aiecn_replay turns recorded samples
 * into features again, through the same window and the same
 * aiecn_features(), so that a changed feature can be computed from runs
 * already made. Doubles are written with 17 significant digits: a sample
 * read back is the sample written, bit for bit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "aiecn.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void aiecn_window_reset(struct aiecn_window *w)
{
	w->n = 0;
	w->next = 0;
}

int aiecn_window_add(struct aiecn_window *w, const struct aiecn_sample *x)
{
	w->x[w->next] = *x;
	w->next = (w->next + 1) % AIECN_WINDOW;
	if (w->n < AIECN_WINDOW)
		w->n++;
	return w->n == AIECN_WINDOW && w->next == 0;
}

/* snprintf at @*pos of @buf, advancing it; -1 once something did not fit */
static int put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *pos) {
		*pos = len;
		return -1;
	}
	*pos += (size_t)n;
	return 0;
}

int aiecn_sample_format(const struct aiecn_sample *x, char *buf, size_t len)
{
	size_t pos = 0;
	int i, bad;

	bad = put(buf, len, &pos, "%.17g %.17g %llu %llu %llu %llu %llu %u", x->interval_s,
		  x->line_rate, (unsigned long long)x->tx_bytes, (unsigned long long)x->enq_pkts,
		  (unsigned long long)x->marked, (unsigned long long)x->xoff_tx,
		  (unsigned long long)x->pfc_rx, x->qlen_now);
	for (i = 0; i < AIECN_HIST_BUCKETS && !bad; i++)
		bad = put(buf, len, &pos, " %llu", (unsigned long long)x->hist[i]);
	return bad ? -1 : (int)pos;
}

static int scan_double(const char **s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(*s, &end);
	if (end == *s || errno)
		return -1;
	*s = end;
	return 0;
}

static int scan_u64(const char **s, uint64_t *v)
{
	const char *p = *s;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	/* strtoull would take "-1" for 2^64 - 1 */
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno)
		return -1;
	*s = end;
	return 0;
}

int aiecn_sample_parse(const char *s, struct aiecn_sample *x, const char **end)
{
	uint64_t *counters[] = { &x->tx_bytes, &x->enq_pkts, &x->marked, &x->xoff_tx,
				 &x->pfc_rx };
	uint64_t qlen;
	size_t i;

	if (scan_double(&s, &x->interval_s) || scan_double(&s, &x->line_rate))
		return -1;
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		if (scan_u64(&s, counters[i]))
			return -1;
	if (scan_u64(&s, &qlen) || qlen > UINT32_MAX)
		return -1;
	x->qlen_now = (uint32_t)qlen;
	for (i = 0; i < AIECN_HIST_BUCKETS; i++)
		if (scan_u64(&s, &x->hist[i]))
			return -1;
	if (end)
		*end = s;
	return 0;
}

int aiecn_features_format(double now, const char *dev, int tc, const double f[AIECN_NFEATURES],
			  const struct aiecn_record_ecn *e, char *buf, size_t len)
{
	size_t pos = 0;
	int i, bad;

	bad = put(buf, len, &pos, "%.3f %s %d", now, dev, tc);
	for (i = 0; i < AIECN_NFEATURES && !bad; i++)
		bad = put(buf, len, &pos, " %.6g", f[i]);
	if (!bad)
		bad = put(buf, len, &pos, " %u %u %u\n", e->kmin, e->kmax, e->pmax);
	return bad ? -1 : (int)pos;
}
