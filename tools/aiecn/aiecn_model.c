// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn model mode: recognise a known traffic scenario from a window of
 * samples and use the thresholds found best for it offline.
 *
 * The model is a multinomial logistic regression: per scenario k a score
 * z_k = b_k + w_k . x over the standardised features x = (f - mean) / scale,
 * and P(k) = softmax(z)_k. Scenarios with the same thresholds are one
 * choice: their probabilities add. Below the file's confidence the
 * window counts as unknown and the daemon goes back to the search.
 *
 * File format, plain text, one item per line, '#' starts a comment:
 *
 *   features N                 must match AIECN_NFEATURES, and come first
 *   classes K                  2..AIECN_MAX_CLASSES
 *   class NAME kmin A kmax B pmax C      K times, each followed by
 *   weights b w1 ... wN
 *   mean m1 ... mN             optional, default 0
 *   scale s1 ... sN            optional, > 0, default 1
 *   confidence C               optional, in (0, 1]
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiecn.h"

/* A sample counts as near-empty when more than this share of its enqueues saw < 1 KiB */
#define AIECN_EMPTY_SHARE	0.5
#define AIECN_MAX_FIELDS	64	/* per line; the longest legal one has N + 2 */

int aiecn_features(const struct aiecn_sample *x, int n, double f[AIECN_NFEATURES])
{
	uint64_t hist[AIECN_HIST_BUCKETS] = { 0 };
	uint64_t enq = 0, marked = 0, frames = 0;
	double tx = 0, cap = 0, t = 0, rsum = 0, rsq = 0, mean, var, p99;
	int i, b, used = 0, empty = 0;

	if (!x || n <= 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct aiecn_sample *s = &x[i];
		uint64_t total = 0;
		double rate, c;

		/* Without a length nothing in it is a rate; leave it out */
		if (!isfinite(s->interval_s) || s->interval_s <= 0)
			continue;
		used++;
		t += s->interval_s;
		c = s->line_rate * s->interval_s;
		if (isfinite(c) && c > 0) {
			tx += (double)s->tx_bytes;
			cap += c;
		}
		rate = (double)s->enq_pkts / s->interval_s;
		rsum += rate;
		rsq += rate * rate;
		enq += s->enq_pkts;
		marked += s->marked;
		frames += s->xoff_tx + s->pfc_rx;
		for (b = 0; b < AIECN_HIST_BUCKETS; b++) {
			hist[b] += s->hist[b];
			total += s->hist[b];
		}
		/* No enqueue at all found the queue empty too */
		if (!total || (double)s->hist[0] > AIECN_EMPTY_SHARE * (double)total)
			empty++;
	}
	if (!used)
		return -1;

	f[AIECN_F_UTIL] = cap > 0 ? tx / cap : 0;
	/* Burstiness: how much the arrival rate swings between samples */
	mean = rsum / used;
	var = rsq / used - mean * mean;
	f[AIECN_F_BURST] = mean > 0 && var > 0 ? sqrt(var) / mean : 0;
	f[AIECN_F_EMPTY] = (double)empty / used;
	/* Log scale: queues that matter range from KiB to tens of MiB */
	p99 = aiecn_hist_quantile(hist, 0.99);
	f[AIECN_F_Q99] = p99 > 0 ? log2(p99 / 1024) : 0;
	f[AIECN_F_MARK] = enq ? (double)marked / (double)enq : 0;
	if (f[AIECN_F_MARK] > 1)
		f[AIECN_F_MARK] = 1;
	/* Pause frames come in storms of thousands; log keeps them in range */
	f[AIECN_F_PAUSE] = log2(1 + (double)frames / t);
	return AIECN_NFEATURES;
}

struct parser {
	struct aiecn_model *m;
	const char *path;
	int line;
	int nclasses;		/* declared by 'classes'; 0 before */
	int have_features, have_mean, have_scale, have_conf;
	int class_line;		/* line of the class still wanting weights; 0: none */
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (!p->err || !p->errlen)
		return -1;
	len = snprintf(p->err, p->errlen, "%s: line %d: ", p->path, line);
	if (len >= 0 && (size_t)len < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + len, p->errlen - len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*v);
}

static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long u;
	char *end;

	if (!isdigit((unsigned char)*s))	/* no sign, no blanks */
		return 0;
	errno = 0;
	u = strtoull(s, &end, 10);
	if (*end || errno || u > UINT32_MAX)
		return 0;
	*v = (uint32_t)u;
	return 1;
}

/* Fill v[0..n-1] from the n fields after the keyword */
static int parse_vector(struct parser *p, char **tok, int ntok, double *v, int n)
{
	int i;

	if (ntok - 1 != n)
		return fail(p, p->line, "%s: expected %d numbers, got %d", tok[0], n, ntok - 1);
	for (i = 0; i < n; i++)
		if (!parse_double(tok[i + 1], &v[i]))
			return fail(p, p->line, "%s: bad number '%s'", tok[0], tok[i + 1]);
	return 0;
}

static int valid_name(const char *s)
{
	size_t len = strlen(s);

	if (!len || len >= AIECN_NAME_LEN)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return 0;
	return 1;
}

static int parse_class(struct parser *p, char **tok, int ntok)
{
	struct aiecn_model *m = p->m;
	struct aiecn_model_class *c;
	int i;

	if (!p->nclasses)
		return fail(p, p->line, "class before 'classes'");
	if (m->nclasses >= p->nclasses)
		return fail(p, p->line, "more than the %d classes declared", p->nclasses);
	if (ntok != 8 || strcmp(tok[2], "kmin") || strcmp(tok[4], "kmax") ||
	    strcmp(tok[6], "pmax"))
		return fail(p, p->line, "expected 'class NAME kmin A kmax B pmax C'");
	if (!valid_name(tok[1]))
		return fail(p, p->line, "bad class name '%s' (1..%d of A-Z a-z 0-9 _ - .)",
			    tok[1], AIECN_NAME_LEN - 1);
	for (i = 0; i < m->nclasses; i++)
		if (!strcmp(m->cls[i].name, tok[1]))
			return fail(p, p->line, "class '%s' given twice", tok[1]);
	c = &m->cls[m->nclasses];
	if (!parse_u32(tok[3], &c->t.kmin) || !parse_u32(tok[5], &c->t.kmax) ||
	    !parse_u32(tok[7], &c->t.pmax))
		return fail(p, p->line, "class '%s': bad kmin, kmax or pmax", tok[1]);
	if (!c->t.kmax || c->t.kmin > c->t.kmax)
		return fail(p, p->line, "class '%s': need 0 <= kmin <= kmax, kmax > 0", tok[1]);
	if (c->t.pmax < 1 || c->t.pmax > 100)
		return fail(p, p->line, "class '%s': pmax must be 1..100 percent", tok[1]);
	memcpy(c->name, tok[1], strlen(tok[1]) + 1);	/* valid_name() checked the length */
	p->class_line = p->line;
	return 0;
}

static int parse_line(struct parser *p, char **tok, int ntok)
{
	struct aiecn_model *m = p->m;
	const char *kw = tok[0];
	uint32_t u;
	double d;
	int i;

	/* A class's weights must follow it directly */
	if (p->class_line && strcmp(kw, "weights"))
		return fail(p, p->line, "expected 'weights' for class '%s' of line %d",
			    m->cls[m->nclasses].name, p->class_line);
	if (!p->have_features && strcmp(kw, "features"))
		return fail(p, p->line, "expected 'features' first");

	if (!strcmp(kw, "features")) {
		if (p->have_features)
			return fail(p, p->line, "'features' given twice");
		if (ntok != 2 || !parse_u32(tok[1], &u))
			return fail(p, p->line, "expected 'features N'");
		if (u != AIECN_NFEATURES)
			return fail(p, p->line, "model has %u features, this build computes %d",
				    u, AIECN_NFEATURES);
		p->have_features = 1;
	} else if (!strcmp(kw, "classes")) {
		if (p->nclasses)
			return fail(p, p->line, "'classes' given twice");
		if (ntok != 2 || !parse_u32(tok[1], &u))
			return fail(p, p->line, "expected 'classes K'");
		if (u < 2 || u > AIECN_MAX_CLASSES)
			return fail(p, p->line, "classes must be 2..%d", AIECN_MAX_CLASSES);
		p->nclasses = (int)u;
	} else if (!strcmp(kw, "class")) {
		return parse_class(p, tok, ntok);
	} else if (!strcmp(kw, "weights")) {
		if (!p->class_line)
			return fail(p, p->line, "'weights' without a class line before it");
		if (parse_vector(p, tok, ntok, m->cls[m->nclasses].w, AIECN_NFEATURES + 1))
			return -1;
		p->class_line = 0;
		m->nclasses++;
	} else if (!strcmp(kw, "mean")) {
		if (p->have_mean)
			return fail(p, p->line, "'mean' given twice");
		if (parse_vector(p, tok, ntok, m->mean, AIECN_NFEATURES))
			return -1;
		p->have_mean = 1;
	} else if (!strcmp(kw, "scale")) {
		if (p->have_scale)
			return fail(p, p->line, "'scale' given twice");
		if (parse_vector(p, tok, ntok, m->scale, AIECN_NFEATURES))
			return -1;
		for (i = 0; i < AIECN_NFEATURES; i++)
			if (!(m->scale[i] > 0))
				return fail(p, p->line, "scale: values must be > 0");
		p->have_scale = 1;
	} else if (!strcmp(kw, "confidence")) {
		if (p->have_conf)
			return fail(p, p->line, "'confidence' given twice");
		if (ntok != 2 || !parse_double(tok[1], &d) || !(d > 0 && d <= 1))
			return fail(p, p->line, "expected 'confidence C', 0 < C <= 1");
		m->confidence = d;
		p->have_conf = 1;
	} else {
		return fail(p, p->line, "unknown keyword '%s'", kw);
	}
	return 0;
}

static int parse_file(struct parser *p, FILE *f)
{
	char *buf = NULL, *tok[AIECN_MAX_FIELDS], *save, *c;
	size_t size = 0;
	int ntok, ret = 0;

	while (getline(&buf, &size, f) >= 0) {
		p->line++;
		c = strchr(buf, '#');
		if (c)
			*c = '\0';
		ntok = 0;
		for (c = strtok_r(buf, " \t\r\n\v\f", &save); c;
		     c = strtok_r(NULL, " \t\r\n\v\f", &save)) {
			if (ntok == AIECN_MAX_FIELDS) {
				ret = fail(p, p->line, "too many fields");
				goto out;
			}
			tok[ntok++] = c;
		}
		if (!ntok)
			continue;
		ret = parse_line(p, tok, ntok);
		if (ret)
			goto out;
	}
	if (ferror(f)) {
		ret = fail(p, p->line, "read error: %s", strerror(errno));
		goto out;
	}
	if (p->class_line)
		ret = fail(p, p->class_line, "class '%s' has no weights line",
			   p->m->cls[p->m->nclasses].name);
	else if (!p->have_features)
		ret = fail(p, p->line, "no 'features' line");
	else if (!p->nclasses)
		ret = fail(p, p->line, "no 'classes' line");
	else if (p->m->nclasses != p->nclasses)
		ret = fail(p, p->line, "%d classes declared, %d given", p->nclasses,
			   p->m->nclasses);
out:
	free(buf);
	return ret;
}

int aiecn_model_load(struct aiecn_model *m, const char *path, char *err, size_t errlen)
{
	struct parser p = { .m = m, .path = path, .err = err, .errlen = errlen };
	FILE *f;
	int i, ret;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < AIECN_NFEATURES; i++)
		m->scale[i] = 1;
	m->confidence = AIECN_DEFAULT_CONFIDENCE;
	if (err && errlen)
		err[0] = '\0';

	f = fopen(path, "r");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = parse_file(&p, f);
	fclose(f);
	if (ret)
		m->nclasses = 0;	/* a half-read model must not classify */
	return ret;
}

bool aiecn_model_same_choice(const struct aiecn_model *m, int a, int b)
{
	const struct aiecn_thresholds *x = &m->cls[a].t, *y = &m->cls[b].t;

	return x->kmin == y->kmin && x->kmax == y->kmax && x->pmax == y->pmax;
}

/* The first scenario with @k's thresholds: the one that names the choice */
static int first_of_choice(const struct aiecn_model *m, int k)
{
	int j;

	for (j = 0; j < k; j++)
		if (aiecn_model_same_choice(m, j, k))
			break;
	return j;
}

void aiecn_model_choice_name(const struct aiecn_model *m, int k, char *buf, size_t len)
{
	size_t used = 0;
	int j, n;

	if (!len)
		return;
	buf[0] = '\0';
	for (j = 0; j < m->nclasses; j++) {
		if (!aiecn_model_same_choice(m, j, k))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? "/" : "", m->cls[j].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += n;
	}
}

int aiecn_model_classify(const struct aiecn_model *m, const double f[AIECN_NFEATURES],
			 double *prob)
{
	double x[AIECN_NFEATURES], z[AIECN_MAX_CLASSES], p[AIECN_MAX_CLASSES];
	double sum = 0, best_p = 0;
	int i, j, k, top = 0, best = -1;

	if (prob)
		*prob = 0;
	if (m->nclasses < 1 || m->nclasses > AIECN_MAX_CLASSES)
		return -1;
	/*
	 * An idle queue is every scenario's between its bursts and after its
	 * end: it tells them apart no better than the search can judge it
	 */
	if (!(f[AIECN_F_UTIL] >= AIECN_MODEL_IDLE))
		return -1;
	for (i = 0; i < AIECN_NFEATURES; i++) {
		x[i] = (f[i] - m->mean[i]) / m->scale[i];
		if (!isfinite(x[i]))
			return -1;
	}
	for (k = 0; k < m->nclasses; k++) {
		z[k] = m->cls[k].w[0];
		for (i = 0; i < AIECN_NFEATURES; i++)
			z[k] += m->cls[k].w[i + 1] * x[i];
		if (!isfinite(z[k]))
			return -1;
		if (z[k] > z[top])
			top = k;
	}
	/* Softmax relative to the top score: no overflow */
	for (k = 0; k < m->nclasses; k++) {
		p[k] = exp(z[k] - z[top]);
		sum += p[k];
	}
	/*
	 * What is chosen is thresholds, not a name: scenarios that share them
	 * are one choice, whose probability is the sum of theirs, named by
	 * the first of them in the file.
	 */
	for (k = 0; k < m->nclasses; k++) {
		double pk = 0;

		if (first_of_choice(m, k) != k)
			continue;	/* counted with the first of its choice */
		for (j = k; j < m->nclasses; j++)
			if (aiecn_model_same_choice(m, j, k))
				pk += p[j] / sum;
		if (pk > best_p) {
			best_p = pk;
			best = k;
		}
	}
	if (prob)
		*prob = best_p;
	return best_p >= m->confidence ? best : -1;
}
