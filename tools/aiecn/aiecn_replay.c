// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn_replay: the features of recorded samples.
 *
 *   aiecn_replay [FILE...]      (none, or -: standard input)
 *
 * Reads what aiecnd --samples wrote and prints what aiecnd --features
 * would have written for the same run: the features of every window of
 * AIECN_WINDOW samples that overlaps no earlier one, per device and class,
 * with the thresholds in force at its last sample. A line
 * "# TIME DEV CLASS: a new window" starts that class's window again; any
 * other comment line (the header aiecnd writes when it starts) starts
 * every class's. So a feature changed in aiecn_features() can be
 * computed from runs already made. Exit status 1 on a malformed line
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
};

static struct stream streams[REPLAY_MAX_CLASSES];
static int nstreams;

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
	int tc, n;

	if (sscanf(line, "%lf %31s %d %n", &now, dev, &tc, &n) != 3)
		return -1;
	if (aiecn_sample_parse(line + n, &x, &rest))
		return -1;
	if (sscanf(rest, "%u %u %u %c", &e.kmin, &e.kmax, &e.pmax, &extra) != 3)
		return -1;
	st = stream_of(dev, tc);
	if (!st)
		return -1;
	if (!aiecn_window_add(&st->win, &x))
		return 0;
	if (aiecn_features(st->win.x, st->win.n, f) == AIECN_NFEATURES &&
	    aiecn_features_format(now, dev, tc, f, &e, out, sizeof(out)) > 0)
		fputs(out, stdout);
	return 0;
}

static int replay(FILE *in, const char *name)
{
	char line[1024];
	int lineno = 0, bad = 0;

	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (line[0] == '#') {
			comment(line);
		} else if (line[strspn(line, " \t\n")] && sample(line)) {
			fprintf(stderr, "aiecn_replay: %s: line %d: not a sample\n", name, lineno);
			bad = 1;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0;
	FILE *in;

	printf("%s\n", AIECN_FEATURES_HEADER);
	if (argc < 2)
		return replay(stdin, "-");
	for (i = 1; i < argc; i++) {
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
