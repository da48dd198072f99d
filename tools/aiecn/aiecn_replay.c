// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn_replay: the features of recorded samples.
 *
 *   aiecn_replay [FILE...]              (none, or -: standard input)
 *   aiecn_replay -m MODEL [FILE...]
 *
 * Reads what aiecnd --samples wrote and prints what aiecnd --features
 * would have written for the same run: the features of every window of
 * AIECN_WINDOW samples that overlaps no earlier one, per device and class,
 * with the thresholds in force at its last sample. A line
 * "# TIME DEV CLASS: a new window" starts that class's window again; any
 * other comment line (the header aiecnd writes when it starts) starts
 * every class's. So a feature changed in aiecn_features() can be
 * computed from runs already made.
 *
 * With -m, what the model makes of the same samples instead: as aiecnd
 * does, it classifies the window of the last AIECN_WINDOW samples at every
 * sample once that window is full, and prints per file, device and class
 * how many of those windows it took for each choice of thresholds and for
 * none ("unknown"); apart from those, the idle windows, ending in a
 * sample with no packet in (before and after a run's traffic), and how
 * many of them it took for a choice. So a model can be tried on runs it
 * was not fitted on.
 * Exit status 1 on a malformed line
 * (named on standard error; the others are still read), 2 on a file
 * that cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aiecn.h"

#define REPLAY_MAX_CLASSES	64	/* (device, class) pairs in one replay */
#define REPLAY_DEV_LEN		32	/* IFNAMSIZ, with room */

struct stream {
	char dev[REPLAY_DEV_LEN];
	int tc;
	struct aiecn_window win;
	int taken[AIECN_MAX_CLASSES + 1];	/* -m: windows per choice, unknown last */
	int idle;		/* -m: windows ending in a sample with no packet in */
	int idle_taken;		/* ... that the model took for a choice */
};

static struct stream streams[REPLAY_MAX_CLASSES];
static int nstreams;
static struct aiecn_model model;
static bool use_model;

static struct stream *stream_of(const char *dev, int tc)
{
	int i;

	for (i = 0; i < nstreams; i++)
		if (streams[i].tc == tc && !strcmp(streams[i].dev, dev))
			return &streams[i];
	if (nstreams == REPLAY_MAX_CLASSES || strlen(dev) >= REPLAY_DEV_LEN)
		return NULL;
	snprintf(streams[nstreams].dev, REPLAY_DEV_LEN, "%s", dev);
	streams[nstreams].tc = tc;
	aiecn_window_reset(&streams[nstreams].win);
	return &streams[nstreams++];
}

static void comment(const char *line)
{
	char dev[REPLAY_DEV_LEN];
	struct stream *st;
	double t;
	int tc, i;

	if (sscanf(line, "# %lf %31s %d: a new window", &t, dev, &tc) == 3) {
		st = stream_of(dev, tc);
		if (st)
			aiecn_window_reset(&st->win);
		return;
	}
	for (i = 0; i < nstreams; i++)
		aiecn_window_reset(&streams[i].win);
}

/* One sample line; 0, or -1 if it is malformed */
static int sample(const char *line)
{
	struct aiecn_record_ecn e;
	double f[AIECN_NFEATURES];
	char dev[REPLAY_DEV_LEN], out[512], extra;
	struct aiecn_sample x;
	struct stream *st;
	const char *rest;
	double now;
	int tc, n, k;

	if (sscanf(line, "%lf %31s %d %n", &now, dev, &tc, &n) != 3)
		return -1;
	if (aiecn_sample_parse(line + n, &x, &rest))
		return -1;
	if (sscanf(rest, "%u %u %u %c", &e.kmin, &e.kmax, &e.pmax, &extra) != 3)
		return -1;
	st = stream_of(dev, tc);
	if (!st)
		return -1;
	if (use_model) {
		aiecn_window_add(&st->win, &x);
		if (st->win.n < AIECN_WINDOW ||
		    aiecn_features(st->win.x, st->win.n, f) != AIECN_NFEATURES)
			return 0;
		k = aiecn_model_classify(&model, f, NULL);
		if (!x.enq_pkts) {
			st->idle++;
			st->idle_taken += k >= 0;
		} else {
			st->taken[k < 0 ? AIECN_MAX_CLASSES : k]++;
		}
		return 0;
	}
	if (!aiecn_window_add(&st->win, &x))
		return 0;
	if (aiecn_features(st->win.x, st->win.n, f) == AIECN_NFEATURES &&
	    aiecn_features_format(now, dev, tc, f, &e, out, sizeof(out)) > 0)
		fputs(out, stdout);
	return 0;
}

/* -m: what the model took each stream's windows of file @name for; then forget it */
static void tally(const char *name)
{
	char choice[AIECN_MAX_CLASSES * AIECN_NAME_LEN];
	int i, k, all;

	for (i = 0; i < nstreams; i++) {
		struct stream *st = &streams[i];

		for (all = 0, k = 0; k <= AIECN_MAX_CLASSES; k++)
			all += st->taken[k];
		if (!all && !st->idle)
			continue;
		printf("%s %s %d: %d windows:", name, st->dev, st->tc, all);
		for (k = 0; k < model.nclasses; k++) {
			if (!st->taken[k])
				continue;
			aiecn_model_choice_name(&model, k, choice, sizeof(choice));
			printf(" %s %d,", choice, st->taken[k]);
		}
		printf(" unknown %d; idle %d, taken for a choice %d\n",
		       st->taken[AIECN_MAX_CLASSES], st->idle, st->idle_taken);
		memset(st->taken, 0, sizeof(st->taken));
		st->idle = 0;
		st->idle_taken = 0;
	}
}

static int replay(FILE *in, const char *name)
{
	char line[1024];
	int lineno = 0, bad = 0;

	comment("#");	/* a file's windows are its own */
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (line[0] == '#') {
			comment(line);
		} else if (line[strspn(line, " \t\n")] && sample(line)) {
			fprintf(stderr, "aiecn_replay: %s: line %d: not a sample\n", name, lineno);
			bad = 1;
		}
	}
	if (use_model)
		tally(name);
	return bad;
}

int main(int argc, char **argv)
{
	int i = 1, bad = 0;
	char err[256];
	FILE *in;

	if (argc > 1 && !strcmp(argv[1], "-m")) {
		if (argc < 3) {
			fprintf(stderr, "aiecn_replay: -m needs a model file\n");
			return 2;
		}
		if (aiecn_model_load(&model, argv[2], err, sizeof(err))) {
			fprintf(stderr, "aiecn_replay: %s\n", err);
			return 2;
		}
		use_model = true;
		i = 3;
	} else {
		printf("%s\n", AIECN_FEATURES_HEADER);
	}
	if (i == argc)
		return replay(stdin, "-");
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-")) {
			bad |= replay(stdin, "-");
			continue;
		}
		in = fopen(argv[i], "r");
		if (!in) {
			fprintf(stderr, "aiecn_replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		bad |= replay(in, argv[i]);
		fclose(in);
	}
	return bad;
}
