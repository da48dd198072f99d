// SPDX-License-Identifier: GPL-2.0
/*
 * aiecnd: tunes the ECN thresholds (kmin, kmax, pmax) of sch_lossless
 * traffic classes from the qdisc's telemetry.
 *
 * Every interval it reads the root qdisc's statistics, turns the counters'
 * differences into one aiecn_sample per class and asks the mode: the
 * heuristic search, the model (a recognised scenario's thresholds, else
 * the search), or nothing (static). What it installs stays within the
 * class's bounds; what the class had at start are its static values,
 * installed again when the telemetry is lost and at exit.
 */
#include <errno.h>
#include <stdatomic.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/pkt_sched.h>

#include "aiecn.h"
#include "aiecn_nl.h"
#include "aiecnd.h"

/*
 * A recognised scenario's thresholds stay while the model does not
 * recognise this many samples in a row (one window): a scenario's windows
 * straddle its phases (an incast's bursts and gaps) and fall under the
 * confidence now and then, and a search started at each of those would
 * pull the thresholds away from what the scenario wants. For the same
 * reason another scenario replaces it only once recognised for a window's
 * samples in a row, and one with deeper thresholds than those in force
 * only once recognised for five windows' (10 s: the longest run of an
 * incast's windows the model took for a mix was 6 s); aiecn_pick.c says
 * why deeper waits longer.
 */
#define AIECND_MODEL_HOLD	AIECN_WINDOW
#define AIECND_MODEL_SWITCH	AIECN_WINDOW
#define AIECND_MODEL_SWITCH_UP	(5 * AIECN_WINDOW)
#define AIECND_SUMMARY_S	10	/* seconds between summaries */
#define AIECND_NL_TIMEOUT_MS	1000	/* at most, for one netlink answer */
#define AIECND_Q_SUMMARY	0.99	/* the summary's queue quantile */
#define NSEC_PER_SEC		1000000000L
#define NSEC_PER_MSEC		1000000L
#define MSEC_PER_SEC		1000.0

/* What one class saw since the last summary */
struct summary {
	int n;			/* samples */
	double t, tx, cap;	/* seconds, bytes sent, bytes the line could send */
	uint64_t marked, xoff;
	uint64_t hist[AIECN_HIST_BUCKETS];
};

struct tclass {
	int tc;			/* traffic class; the tc class is handle:(tc + 1) */
	uint32_t classid;
	struct aiecn_nl_ecn stat;	/* read at start: what it falls back to */
	struct aiecn_nl_ecn cur;	/* what the kernel holds, as far as we know */
	struct aiecn_bounds b;
	struct aiecn_search search;
	/* model mode */
	struct aiecn_pick pick;	/* the scenario in force, if any */
	struct aiecn_window win;	/* the last samples, which the model classifies */
	/* the baseline of the next sample */
	int have_prev;
	struct aiecn_nl_class_stats prev;
	double prev_t;
	struct summary sum;
};

struct aiecnd {
	struct aiecnd_config cfg;
	enum aiecnd_mode mode;	/* auto resolved */
	int ifindex;
	uint32_t handle;	/* the root qdisc's */
	FILE *log;
	FILE *features;		/* --features, or NULL */
	FILE *samples;		/* --samples, or NULL */
	struct timespec t0;
	double last_ok;		/* when the telemetry was last read */
	int failing;		/* reads failed since: the first one was logged */
	int lost;		/* static values are back for lost telemetry */
	double next_summary;
	int nclasses;
	struct tclass cls[TC_LOSSLESS_NUM_TC];
	struct aiecn_model model;
	struct aiecn_nl nl;
};

static struct aiecnd daemon_state;
/* A lock-free atomic: safe to set from a signal handler */
static atomic_int stop_signal;

static double ts_sec(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / NSEC_PER_SEC;
}

/* Seconds since the daemon started */
static double since(const struct aiecnd *d)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ts_sec(&now) - ts_sec(&d->t0);
}

/*
 * One log line: seconds since start, then the message. A macro, so that
 * the compiler checks the format (a literal) against its arguments.
 */
#define say(d, fmt, ...)							\
	do {									\
		struct aiecnd *d_ = (d);					\
										\
		fprintf(d_->log, "%.3f " fmt "\n", since(d_), ##__VA_ARGS__);	\
	} while (0)

static void fmt_ecn(const struct aiecn_nl_ecn *e, char *buf, size_t len)
{
	char pmax[24];

	aiecnd_fmt_pmax(e->pmax, pmax, sizeof(pmax));
	snprintf(buf, len, "kmin %u kmax %u pmax %s%s", e->kmin, e->kmax, pmax,
		 e->enabled ? "" : " (ecn off)");
}

static int same_ecn(const struct aiecn_nl_ecn *a, const struct aiecn_nl_ecn *b)
{
	return a->enabled == b->enabled && a->kmin == b->kmin && a->kmax == b->kmax &&
	       a->pmax == b->pmax;
}

/* Set the class's marking and log it; on failure the belief stays */
static int install(struct aiecnd *d, struct tclass *c, const struct aiecn_nl_ecn *e,
		   const char *why)
{
	char from[96], to[96];
	int ret;

	fmt_ecn(&c->cur, from, sizeof(from));
	fmt_ecn(e, to, sizeof(to));
	ret = aiecn_nl_class_set(&d->nl, d->ifindex, d->handle, c->classid, e);
	if (ret) {
		say(d, "%s class %d: %s -> %s failed: %s (%s)", d->cfg.dev, c->tc, from, to,
		    d->nl.err, why);
		return ret;
	}
	c->cur = *e;
	say(d, "%s class %d: %s -> %s (%s)", d->cfg.dev, c->tc, from, to, why);
	return 0;
}

static void search_restart(struct tclass *c)
{
	struct aiecn_thresholds t;

	aiecn_nl_ecn_to_thresholds(&c->cur, &t);
	aiecn_search_init(&c->search, &t, &c->b);
}

/* Install what a mode asks for, if it differs from what is there */
static void tune_to(struct aiecnd *d, struct tclass *c, const struct aiecn_thresholds *t,
		    const char *why)
{
	struct aiecn_nl_ecn e;

	aiecn_nl_ecn_from_thresholds(t, &e);
	if (same_ecn(&e, &c->cur))
		return;
	/* The search believes in what it returned: bring it back to the truth */
	if (install(d, c, &e, why))
		search_restart(c);
}

static void heuristic_step(struct aiecnd *d, struct tclass *c, const struct aiecn_sample *x)
{
	struct aiecn_thresholds t;
	const char *why;
	char reason[192];

	if (aiecn_search_step(&c->search, x, &t, &why)) {
		snprintf(reason, sizeof(reason), "heuristic: %s", why);
		tune_to(d, c, &t, reason);
	}
}

static void model_step(struct aiecnd *d, struct tclass *c, const struct aiecn_sample *x)
{
	double f[AIECN_NFEATURES], p = 0;
	struct aiecn_thresholds t;
	const char *why;
	char name[AIECN_MAX_CLASSES * AIECN_NAME_LEN], reason[sizeof(name) + 64];
	bool deeper = false;
	int k = -1, clamped = 0;

	if (c->win.n == AIECN_WINDOW &&
	    aiecn_features(c->win.x, c->win.n, f) == AIECN_NFEATURES)
		k = aiecn_model_classify(&d->model, f, &p);
	if (k >= 0) {
		/* its thresholds brought into the bounds: deeper than what is in force? */
		t = d->model.cls[k].t;
		clamped = aiecn_clamp(&t, &c->b);
		deeper = t.kmax > c->cur.kmax;
	}
	switch (aiecn_pick_step(&c->pick, k, deeper)) {
	case AIECN_PICK_HOLD:
		return;
	case AIECN_PICK_INSTALL:
		/* always the scenario just recognised (k), t its clamped thresholds */
		aiecn_model_choice_name(&d->model, c->pick.owned, name, sizeof(name));
		snprintf(reason, sizeof(reason), "model: scenario %s (p %.2f)%s", name, p,
			 clamped ? ", clamped into the bounds" : "");
		tune_to(d, c, &t, reason);
		return;
	case AIECN_PICK_RELEASE:
		/* unknown for a window: the search goes on from there */
		search_restart(c);
		break;
	case AIECN_PICK_SEARCH:
		break;
	}
	if (aiecn_search_step(&c->search, x, &t, &why)) {
		if (c->win.n < AIECN_WINDOW)
			snprintf(reason, sizeof(reason), "model: window %d of %d, heuristic: %s",
				 c->win.n, AIECN_WINDOW, why);
		else
			snprintf(reason, sizeof(reason),
				 "model: unknown scenario (p %.2f), heuristic: %s", p, why);
		tune_to(d, c, &t, reason);
	}
}

static void summary_add(struct summary *s, const struct aiecn_sample *x)
{
	int i;

	s->n++;
	s->t += x->interval_s;
	s->tx += (double)x->tx_bytes;
	s->cap += x->line_rate * x->interval_s;
	s->marked += x->marked;
	s->xoff += x->xoff_tx;
	for (i = 0; i < AIECN_HIST_BUCKETS; i++)
		s->hist[i] += x->hist[i];
}

static void log_summary(struct aiecnd *d, struct tclass *c)
{
	struct summary *s = &c->sum;
	char ecn[96], state[AIECN_MAX_CLASSES * AIECN_NAME_LEN + 8];
	char name[AIECN_MAX_CLASSES * AIECN_NAME_LEN];

	fmt_ecn(&c->cur, ecn, sizeof(ecn));
	if (d->mode != AIECND_MODEL) {
		snprintf(state, sizeof(state), "%s", aiecnd_mode_name(d->mode));
	} else if (c->pick.owned < 0) {
		snprintf(state, sizeof(state), "model: search");
	} else {
		aiecn_model_choice_name(&d->model, c->pick.owned, name, sizeof(name));
		snprintf(state, sizeof(state), "model: %s", name);
	}
	if (!s->n || !(s->t > 0)) {
		say(d, "%s class %d: summary: no samples, %s [%s]", d->cfg.dev, c->tc, ecn, state);
	} else {
		say(d,
		    "%s class %d: summary %.1f s: util %.2f q_p99 %u marks/s %.1f xoff/s %.1f, %s [%s]",
		    d->cfg.dev, c->tc, s->t, s->cap > 0 ? s->tx / s->cap : 0,
		    aiecn_hist_quantile(s->hist, AIECND_Q_SUMMARY), (double)s->marked / s->t,
		    (double)s->xoff / s->t, ecn, state);
	}
	memset(s, 0, sizeof(*s));
}

/*
 * The class's configuration as the kernel has it now: after a counter
 * reset (the qdisc replaced?) or lost telemetry, what we believed may be
 * gone. The search starts again from it, the model's window empties and
 * the next read is a new baseline.
 */
static void class_resync(struct aiecnd *d, struct tclass *c)
{
	struct aiecn_nl_class_cfg cfg;
	struct aiecn_bounds b;
	const char *why;

	c->classid = TC_H_MAKE(d->handle, c->tc + 1);
	if (aiecn_nl_class_get(&d->nl, d->ifindex, d->handle, c->classid, &cfg)) {
		say(d, "%s class %d: cannot read its configuration: %s", d->cfg.dev, c->tc,
		    d->nl.err);
	} else {
		c->cur = cfg.ecn;
		if (cfg.xoff != c->b.xoff) {
			aiecnd_class_bounds(&d->cfg, cfg.xoff, &b);
			if (d->mode == AIECND_STATIC || aiecn_bounds_valid(&b, &why)) {
				say(d, "%s class %d: xoff %u -> %u, kmax at most %u", d->cfg.dev,
				    c->tc, c->b.xoff, cfg.xoff, aiecn_kmax_ceiling(&b));
				c->b = b;
			} else {
				say(d,
				    "%s class %d: xoff %u leaves no valid bounds (%s), keeping xoff %u's",
				    d->cfg.dev, c->tc, cfg.xoff, why, c->b.xoff);
			}
		}
	}
	search_restart(c);
	aiecn_pick_init(&c->pick, AIECND_MODEL_HOLD, AIECND_MODEL_SWITCH, AIECND_MODEL_SWITCH_UP);
	aiecn_window_reset(&c->win);
	c->have_prev = 0;
	/* a replay of the samples starts its windows again here too */
	if (d->samples)
		fprintf(d->samples, "# %.3f %s %d: a new window\n", since(d), d->cfg.dev, c->tc);
}

/*
 * The model's window; with --samples, every sample, and with --features,
 * the features of every full window that does not overlap the previous
 * one recorded, with the thresholds in force (the data of
 * tools/aiecn/experiment/train.py).
 */
static void window_add(struct aiecnd *d, struct tclass *c, const struct aiecn_sample *x,
		       double now)
{
	struct aiecn_record_ecn e = { c->cur.kmin, c->cur.kmax, c->cur.pmax };
	double f[AIECN_NFEATURES];
	char line[768];

	if (d->samples && aiecn_sample_format(x, line, sizeof(line)) > 0)
		fprintf(d->samples, "%.3f %s %d %s %u %u %u\n", now, d->cfg.dev, c->tc, line,
			e.kmin, e.kmax, e.pmax);
	if (!aiecn_window_add(&c->win, x) || !d->features)
		return;
	if (aiecn_features(c->win.x, c->win.n, f) == AIECN_NFEATURES &&
	    aiecn_features_format(now, d->cfg.dev, c->tc, f, &e, line, sizeof(line)) > 0)
		fputs(line, d->features);
}

static void class_tick(struct aiecnd *d, struct tclass *c, const struct aiecn_nl_class_stats *cs,
		       uint64_t speed, double now)
{
	double dt = now - c->prev_t;
	struct aiecn_sample x;
	int ok = 0;

	/* A gap longer than --stale is no sample, only a new baseline */
	if (c->have_prev && dt * MSEC_PER_SEC <= d->cfg.stale_ms) {
		ok = !aiecnd_sample_delta(&c->prev, cs, dt, speed, &x);
		if (!ok) {
			say(d,
			    "%s class %d: counters went backwards (qdisc reset or replaced?), new baseline",
			    d->cfg.dev, c->tc);
			class_resync(d, c);
		}
	}
	c->prev = *cs;
	c->prev_t = now;
	c->have_prev = 1;
	if (!ok)
		return;
	summary_add(&c->sum, &x);
	window_add(d, c, &x, now);
	if (d->mode == AIECND_HEURISTIC)
		heuristic_step(d, c, &x);
	else if (d->mode == AIECND_MODEL)
		model_step(d, c, &x);
}

/* Put every class's static values back (unless they are there) */
static void restore_static(struct aiecnd *d, const char *why)
{
	int i;

	for (i = 0; i < d->nclasses; i++)
		if (!same_ecn(&d->cls[i].cur, &d->cls[i].stat))
			install(d, &d->cls[i], &d->cls[i].stat, why);
}

static int read_telemetry(struct aiecnd *d, struct aiecn_nl_qdisc_stats *st, char *why,
			  size_t len)
{
	int i, ret, idx;

	ret = aiecn_nl_qdisc_stats(&d->nl, d->ifindex, st);
	if (ret == -ENODEV) {
		/* the device may be back under another index */
		idx = (int)if_nametoindex(d->cfg.dev);
		if (idx && idx != d->ifindex) {
			d->ifindex = idx;
			ret = aiecn_nl_qdisc_stats(&d->nl, d->ifindex, st);
		}
	}
	if (ret) {
		snprintf(why, len, "%s", d->nl.err);
		return -1;
	}
	for (i = 0; i < d->nclasses; i++) {
		if (!(st->class_mask & (1u << d->cls[i].tc))) {
			snprintf(why, len, "traffic class %d is missing from the statistics",
				 d->cls[i].tc);
			return -1;
		}
	}
	return 0;
}

static void tick(struct aiecnd *d)
{
	struct aiecn_nl_qdisc_stats st;
	char why[AIECN_NL_ERRLEN];
	double now;
	int i;

	if (read_telemetry(d, &st, why, sizeof(why))) {
		now = since(d);
		if (!d->failing++)
			say(d, "%s: telemetry read failed: %s", d->cfg.dev, why);
		if (!d->lost && (now - d->last_ok) * MSEC_PER_SEC > d->cfg.stale_ms) {
			say(d, "%s: telemetry lost for %.1f s: static values back", d->cfg.dev,
			    now - d->last_ok);
			d->lost = 1;
			if (d->mode != AIECND_STATIC)
				restore_static(d, "telemetry lost: static values back");
		}
		return;
	}
	now = since(d);
	if (d->failing && !d->lost)
		say(d, "%s: telemetry back after %d failed reads", d->cfg.dev, d->failing);
	if (d->lost || st.handle != d->handle) {
		if (d->lost)
			say(d, "%s: telemetry back: resuming from the kernel's values", d->cfg.dev);
		if (st.handle != d->handle)
			say(d, "%s: root qdisc handle %x: -> %x:", d->cfg.dev, d->handle >> 16,
			    st.handle >> 16);
		d->handle = st.handle;
		for (i = 0; i < d->nclasses; i++)
			class_resync(d, &d->cls[i]);
	}
	d->failing = 0;
	d->lost = 0;
	d->last_ok = now;
	for (i = 0; i < d->nclasses; i++)
		class_tick(d, &d->cls[i], &st.cls[d->cls[i].tc], st.have_speed ? st.speed : 0, now);
	if (now >= d->next_summary) {
		for (i = 0; i < d->nclasses; i++)
			log_summary(d, &d->cls[i]);
		d->next_summary += AIECND_SUMMARY_S;
		if (d->next_summary <= now)
			d->next_summary = now + AIECND_SUMMARY_S;
	}
}

static void ts_add_ms(struct timespec *t, uint32_t ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * NSEC_PER_MSEC;
	if (t->tv_nsec >= NSEC_PER_SEC) {
		t->tv_nsec -= NSEC_PER_SEC;
		t->tv_sec++;
	}
}

/* Until a signal or the duration's end: a tick at each absolute deadline */
static void run(struct aiecnd *d)
{
	struct timespec next, now;
	double end = d->cfg.duration_s ? since(d) + d->cfg.duration_s : 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&stop_signal)) {
		ts_add_ms(&next, d->cfg.interval_ms);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR &&
		       !atomic_load(&stop_signal))
			;
		if (atomic_load(&stop_signal) || (end && since(d) >= end))
			break;
		tick(d);
		/* More than an interval late (a slow answer, a stopped process): no catching up */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_sec(&now) - ts_sec(&next) > d->cfg.interval_ms / MSEC_PER_SEC)
			next = now;
	}
}

static void on_signal(int sig)
{
	atomic_store(&stop_signal, sig);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: aiecnd --dev DEV --class N [--class N ...] [--interval MS]\n"
		"              [--mode auto|heuristic|model|static] [--model FILE]\n"
		"              [--kmin-lo B] [--kmax-lo B] [--kmax-hi B]\n"
		"              [--pmax-lo P] [--pmax-hi P]\n"
		"              [--allowance B] [--stale MS] [--log FILE] [--features FILE]\n"
		"              [--samples FILE] [--duration S]\n"
		"              [--keep-on-exit]\n"
		"Sizes B in bytes, with k or m for KiB or MiB; P in percent. See aiecnd(8).\n");
}

/* Read a class's configuration and set up its tuning; 0, or an exit status */
static int class_setup(struct aiecnd *d, struct tclass *c)
{
	struct aiecn_nl_class_cfg cfg;
	const char *why;

	c->classid = TC_H_MAKE(d->handle, c->tc + 1);
	if (aiecn_nl_class_get(&d->nl, d->ifindex, d->handle, c->classid, &cfg)) {
		fprintf(stderr, "aiecnd: %s class %d (%x:%x): %s\n", d->cfg.dev, c->tc,
			d->handle >> 16, c->tc + 1, d->nl.err);
		return 1;
	}
	c->stat = cfg.ecn;
	c->cur = cfg.ecn;
	aiecnd_class_bounds(&d->cfg, cfg.xoff, &c->b);
	if (d->mode != AIECND_STATIC && !aiecn_bounds_valid(&c->b, &why)) {
		fprintf(stderr,
			"aiecnd: class %d: bounds refused: %s (--kmin-lo %u --kmax-lo %u --kmax-hi %u --pmax-lo %u --pmax-hi %u --allowance %u; the class's xoff %u)\n",
			c->tc, why, c->b.kmin_lo, c->b.kmax_lo, c->b.kmax_hi, c->b.pmax_lo,
			c->b.pmax_hi, c->b.cnp_allowance, c->b.xoff);
		return 2;
	}
	search_restart(c);
	aiecn_pick_init(&c->pick, AIECND_MODEL_HOLD, AIECND_MODEL_SWITCH, AIECND_MODEL_SWITCH_UP);
	return 0;
}

/* What a class starts from, and what the tuner will make of it */
static void class_log_start(struct aiecnd *d, const struct tclass *c)
{
	struct aiecn_thresholds t;
	char ecn[96], pmax[24];

	fmt_ecn(&c->stat, ecn, sizeof(ecn));
	say(d,
	    "%s class %d (%x:%x): static %s, xoff %u; bounds kmin >= %u, kmax %u to %u, pmax %u to %u%%, allowance %u",
	    d->cfg.dev, c->tc, d->handle >> 16, c->tc + 1, ecn, c->b.xoff, c->b.kmin_lo,
	    c->b.kmax_lo, aiecn_kmax_ceiling(&c->b), c->b.pmax_lo, c->b.pmax_hi,
	    c->b.cnp_allowance);
	if (d->mode == AIECND_STATIC)
		return;
	if (!c->stat.enabled)
		say(d, "%s class %d: ecn is off; its first change turns it on", d->cfg.dev, c->tc);
	aiecn_nl_ecn_to_thresholds(&c->stat, &t);
	if (c->stat.pmax != t.pmax * AIECN_NL_PPM_PER_PERCENT) {
		aiecnd_fmt_pmax(c->stat.pmax, pmax, sizeof(pmax));
		say(d,
		    "%s class %d: pmax %s%% is not a whole percent from 1 to 100: the tuner uses %u%%",
		    d->cfg.dev, c->tc, pmax, t.pmax);
	}
}

/* A record file (--features, --samples) to append to, its header first; 0 or -1 */
static int open_record(const char *path, const char *opt, const char *header, FILE **f)
{
	if (!path)
		return 0;
	*f = fopen(path, "a");
	if (!*f) {
		fprintf(stderr, "aiecnd: %s %s: %s\n", opt, path, strerror(errno));
		return -1;
	}
	setvbuf(*f, NULL, _IOLBF, 0);
	fprintf(*f, "%s\n", header);
	return 0;
}

/* Everything before the first tick; nothing is changed here. 0 or an exit status */
static int setup(struct aiecnd *d)
{
	struct aiecn_nl_qdisc_stats st;
	char err[AIECN_NL_ERRLEN + 64];
	int i, ret, timeout;
	double now;

	d->mode = aiecnd_effective_mode(&d->cfg);
	d->nl.fd = -1;
	d->log = stdout;
	if (d->cfg.log) {
		d->log = fopen(d->cfg.log, "a");
		if (!d->log) {
			fprintf(stderr, "aiecnd: --log %s: %s\n", d->cfg.log, strerror(errno));
			return 2;
		}
	}
	setvbuf(d->log, NULL, _IOLBF, 0);
	if (open_record(d->cfg.features, "--features", AIECN_FEATURES_HEADER, &d->features) ||
	    open_record(d->cfg.samples, "--samples", AIECN_SAMPLES_HEADER, &d->samples))
		return 2;
	if (d->mode == AIECND_MODEL &&
	    aiecn_model_load(&d->model, d->cfg.model, err, sizeof(err))) {
		fprintf(stderr, "aiecnd: --model: %s\n", err);
		return 2;
	}
	d->ifindex = (int)if_nametoindex(d->cfg.dev);
	if (!d->ifindex) {
		fprintf(stderr, "aiecnd: --dev %s: %s\n", d->cfg.dev, strerror(errno));
		return 2;
	}
	timeout = d->cfg.stale_ms < AIECND_NL_TIMEOUT_MS ? (int)d->cfg.stale_ms :
							   AIECND_NL_TIMEOUT_MS;
	if (aiecn_nl_open(&d->nl, timeout)) {
		fprintf(stderr, "aiecnd: %s\n", d->nl.err);
		return 1;
	}
	d->nclasses = d->cfg.nclasses;
	for (i = 0; i < d->nclasses; i++)
		d->cls[i].tc = d->cfg.tc[i];
	if (aiecn_nl_qdisc_stats(&d->nl, d->ifindex, &st)) {
		fprintf(stderr, "aiecnd: %s: %s\n", d->cfg.dev, d->nl.err);
		return 1;
	}
	d->handle = st.handle;
	now = since(d);
	for (i = 0; i < d->nclasses; i++) {
		if (!(st.class_mask & (1u << d->cls[i].tc))) {
			fprintf(stderr,
				"aiecnd: %s: traffic class %d is missing from the statistics\n",
				d->cfg.dev, d->cls[i].tc);
			return 1;
		}
		ret = class_setup(d, &d->cls[i]);
		if (ret)
			return ret;
		d->cls[i].prev = st.cls[d->cls[i].tc];
		d->cls[i].prev_t = now;
		d->cls[i].have_prev = 1;
	}
	say(d,
	    "%s: aiecnd started: mode %s, interval %u ms, stale %u ms, qdisc %x:, speed %llu bytes/s%s",
	    d->cfg.dev, aiecnd_mode_name(d->mode), d->cfg.interval_ms, d->cfg.stale_ms,
	    d->handle >> 16, (unsigned long long)st.speed,
	    !st.have_speed ? " (not reported: utilisation counts 0)" :
	    st.rate && st.rate == st.speed ? " (the port shaper's rate)" : "");
	for (i = 0; i < d->nclasses; i++)
		class_log_start(d, &d->cls[i]);
	d->last_ok = now;
	d->next_summary = now + AIECND_SUMMARY_S;
	return 0;
}

int main(int argc, char **argv)
{
	struct aiecnd *d = &daemon_state;
	struct sigaction sa = { .sa_handler = on_signal };
	char err[256];
	int ret, sig;

	clock_gettime(CLOCK_MONOTONIC, &d->t0);
	if (aiecnd_parse_args(argc, argv, &d->cfg, err, sizeof(err))) {
		fprintf(stderr, "aiecnd: %s\n", err);
		usage(stderr);
		return 2;
	}
	if (d->cfg.help) {
		usage(stdout);
		return 0;
	}
	/* No SA_RESTART: a signal ends the sleep and any netlink wait */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = setup(d);
	if (ret) {
		aiecn_nl_close(&d->nl);
		return ret;
	}
	run(d);
	sig = atomic_load(&stop_signal);
	say(d, "%s: stopping (%s)", d->cfg.dev, sig ? strsignal(sig) : "duration reached");
	/* static mode changed nothing */
	if (d->mode != AIECND_STATIC && d->cfg.keep_on_exit)
		say(d, "%s: keeping the tuned values (--keep-on-exit)", d->cfg.dev);
	else if (d->mode != AIECND_STATIC)
		restore_static(d, "exit: static values back");
	aiecn_nl_close(&d->nl);
	if (d->log != stdout)
		fclose(d->log);
	if (d->features)
		fclose(d->features);
	if (d->samples)
		fclose(d->samples);
	return 0;
}
