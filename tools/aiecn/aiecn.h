/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aiecn: the algorithmic core of aiecnd, the tuner of sch_lossless's ECN
 * thresholds (kmin, kmax, pmax of a traffic class, the DCQCN congestion
 * point). No skbs, no netlink: the daemon feeds it per-class telemetry
 * samples and installs what it returns.
 *
 *   aiecn.c         queue histogram helpers, bounds and clamping
 *   aiecn_search.c  heuristic mode: an online search on kmax
 *   aiecn_model.c   model mode: features and a multinomial logistic
 *                   regression picking a known scenario's thresholds
 *   aiecn_pick.c    model mode: which scenario's thresholds are in force
 *   aiecn_record.c  the model's window of samples, and samples and
 *                   features as text lines (recorded, then replayed)
 */
#ifndef _AIECN_H
#define _AIECN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The kernel's queue histogram (TC_LOSSLESS_QHIST_BUCKETS): how many
 * enqueues found the class backlog in [0, 1024) bytes (bucket 0),
 * [2^(i+9), 2^(i+10)) (bucket i, 1..14) or >= 2^24 (bucket 15).
 */
#define AIECN_HIST_BUCKETS	16

/* One sampling interval of one traffic class; counters are deltas */
struct aiecn_sample {
	double interval_s;	/* length of the interval */
	double line_rate;	/* bytes/s of the port */
	uint64_t tx_bytes;	/* bytes dequeued */
	uint64_t enq_pkts;	/* packets enqueued */
	uint64_t marked;	/* packets ECN-marked */
	uint64_t xoff_tx;	/* XOFF frames this port sent for the class */
	uint64_t pfc_rx;	/* PFC frames received for the class */
	uint32_t qlen_now;	/* backlog in bytes at the end of the interval */
	uint64_t hist[AIECN_HIST_BUCKETS];	/* histogram delta */
};

struct aiecn_thresholds {
	uint32_t kmin;		/* bytes: marking starts above */
	uint32_t kmax;		/* bytes: probability pmax here, 1 above */
	uint32_t pmax;		/* percent, 1..100 */
};

/*
 * What the tuner may set. kmax stays below xoff - cnp_allowance so that
 * what arrives while the CNPs travel back fits under the XOFF threshold.
 */
struct aiecn_bounds {
	uint32_t kmin_lo;	/* kmin >= kmin_lo (and kmin <= kmax) */
	uint32_t kmax_lo;	/* kmax >= kmax_lo */
	uint32_t kmax_hi;	/* kmax <= kmax_hi */
	uint32_t pmax_lo, pmax_hi;	/* percent */
	uint32_t xoff;		/* the class's XOFF threshold, bytes */
	uint32_t cnp_allowance;	/* bytes in flight during the CNP loop */
};

/* aiecn.c */
uint32_t aiecn_hist_upper(int bucket);
uint32_t aiecn_hist_quantile(const uint64_t delta[AIECN_HIST_BUCKETS], double q);
uint32_t aiecn_hist_peak(const uint64_t delta[AIECN_HIST_BUCKETS]);
/* tx_bytes / (line_rate * interval_s); 0 for an unusable sample */
double aiecn_utilisation(const struct aiecn_sample *x);
/* The highest kmax the bounds allow: min(kmax_hi, xoff - cnp_allowance) */
uint32_t aiecn_kmax_ceiling(const struct aiecn_bounds *b);
/* Force @t into @b; 1 if that changed it */
int aiecn_clamp(struct aiecn_thresholds *t, const struct aiecn_bounds *b);
/* 1 if @b can be met, else 0 and a reason in *why (NULL when valid) */
int aiecn_bounds_valid(const struct aiecn_bounds *b, const char **why);

/*
 * Heuristic mode (aiecn_search.c). Samples are gathered into decision
 * windows; a window ends early on an XOFF, which is acted on at once.
 */
#define AIECN_SEARCH_WINDOW	5	/* samples per decision (0.5 s at 10 Hz) */
#define AIECN_SEARCH_SETTLE	1	/* samples ignored after a change: DCQCN
					 * rates are still moving
					 */
#define AIECN_SEARCH_IDLE	0.20	/* utilisation below: too idle to judge */
#define AIECN_SEARCH_HOLD	0.95	/* throughput holds at >= this x best */
#define AIECN_SEARCH_STEP	0.85	/* kmax factor of one probing step */
#define AIECN_SEARCH_CUT	0.60	/* kmax and kmin factor on an XOFF */
#define AIECN_SEARCH_BACKOFF	10	/* windows a floor or cap stays */
#define AIECN_SEARCH_RATIO_LO	0.25	/* kmin / kmax, at least ... */
#define AIECN_SEARCH_RATIO_HI	0.50	/* ... and at most */

struct aiecn_search {
	struct aiecn_bounds b;
	struct aiecn_thresholds cur;	/* installed (or to be installed) */
	struct aiecn_thresholds good;	/* last setting whose throughput held */
	/* kmin = kmin_ratio * kmax, kept in RATIO_LO..HI; init takes the start's */
	double kmin_ratio;
	double best;		/* best utilisation since the baseline; 0: none */
	uint64_t windows;	/* decision windows completed */
	uint32_t floor;		/* kmax not probed below up to window floor_until */
	uint32_t cap;		/* kmax not raised above up to window cap_until */
	uint64_t floor_until, cap_until;
	int pending;		/* cur differs from what the caller installed */
	int settle;		/* samples left to ignore */
	/* the window being gathered */
	int n;
	double tx, cap_bytes;	/* bytes sent, bytes the line could send */
	uint64_t marked, pfc_rx;
	char why[128];
};

/*
 * @b must pass aiecn_bounds_valid(); @start is what is installed now (if
 * it is out of bounds the first step returns the clamped setting).
 */
void aiecn_search_init(struct aiecn_search *s, const struct aiecn_thresholds *start,
		       const struct aiecn_bounds *b);
/*
 * Feed one sample. Returns 1 when new thresholds are to be installed, 0 to
 * keep them; *out is the setting in force either way, always within the
 * bounds. *why (may be NULL) points into @s, valid until the next call.
 */
int aiecn_search_step(struct aiecn_search *s, const struct aiecn_sample *x,
		      struct aiecn_thresholds *out, const char **why);

/* Model mode (aiecn_model.c) */
#define AIECN_NFEATURES		6
#define AIECN_MAX_CLASSES	8
#define AIECN_NAME_LEN		32	/* with the NUL */
#define AIECN_DEFAULT_CONFIDENCE	0.6	/* when the file gives none */
#define AIECN_MODEL_IDLE	AIECN_SEARCH_IDLE	/* utilisation below: no scenario's */

/* The feature vector, in this order */
enum {
	AIECN_F_UTIL,		/* mean utilisation over the window */
	AIECN_F_BURST,		/* coefficient of variation of the enqueue rate */
	AIECN_F_EMPTY,		/* fraction of samples with a near-empty queue */
	AIECN_F_Q99,		/* log2(queue p99 / 1 KiB) */
	AIECN_F_MARK,		/* marked / enqueued packets */
	AIECN_F_PAUSE,		/* log2(1 + PFC frames (sent + received) per s) */
};

struct aiecn_model_class {
	char name[AIECN_NAME_LEN];
	struct aiecn_thresholds t;
	double w[AIECN_NFEATURES + 1];	/* bias first */
};

struct aiecn_model {
	int nclasses;
	double mean[AIECN_NFEATURES];	/* standardisation: (f - mean) / scale */
	double scale[AIECN_NFEATURES];
	double confidence;	/* top probability needed to recognise */
	struct aiecn_model_class cls[AIECN_MAX_CLASSES];
};

/* Features of @n samples; AIECN_NFEATURES, or -1 if none has a length */
int aiecn_features(const struct aiecn_sample *x, int n, double f[AIECN_NFEATURES]);
/* 0, or -1 with "PATH: line N: what" in @err; a failed load classifies nothing */
int aiecn_model_load(struct aiecn_model *m, const char *path, char *err, size_t errlen);
/* Scenarios @a and @b of @m have the same thresholds */
bool aiecn_model_same_choice(const struct aiecn_model *m, int a, int b);
/* Scenario @k's name and those of the scenarios that share its thresholds: "long/mixed" */
void aiecn_model_choice_name(const struct aiecn_model *m, int k, char *buf, size_t len);
/*
 * The scenario recognised, or -1: the index of the first scenario of the
 * most probable choice of thresholds (scenarios sharing thresholds add
 * their probabilities), if that choice's probability (in *prob) reaches
 * the confidence; never for a window less busy than AIECN_MODEL_IDLE
 */
int aiecn_model_classify(const struct aiecn_model *m, const double f[AIECN_NFEATURES],
			 double *prob);

/*
 * Model mode's choice of thresholds, one step per classification
 * (aiecn_pick.c): the scenario in force (an index of the model's, -1:
 * none, the search decides) and the one that would replace it.
 */
struct aiecn_pick {
	int owned;		/* the scenario whose thresholds are in force, or -1 */
	int candidate;		/* another one recognised, or -1 */
	int cand_run;		/* samples in a row the candidate was recognised */
	int unknown_run;	/* samples in a row nothing was recognised */
	int hold;		/* unknown samples in a row before the search takes over */
	int sw;			/* samples in a row another scenario needs to replace it */
	int sw_up;		/* ... if its thresholds are deeper than those in force */
};

enum aiecn_pick_action {
	AIECN_PICK_HOLD,	/* keep what is installed */
	AIECN_PICK_INSTALL,	/* install scenario p->owned's thresholds */
	AIECN_PICK_RELEASE,	/* no scenario any more: restart the search from here */
	AIECN_PICK_SEARCH,	/* no scenario: the search decides */
};

/* @sw_up below @sw counts as @sw */
void aiecn_pick_init(struct aiecn_pick *p, int hold, int sw, int sw_up);
/*
 * One classification: @k the scenario recognised, or -1; @deeper: its
 * thresholds are deeper than those in force (its kmax higher)
 */
enum aiecn_pick_action aiecn_pick_step(struct aiecn_pick *p, int k, bool deeper);

/*
 * The model's window (aiecn_record.c): the last AIECN_WINDOW samples of a
 * class. The model classifies it at every sample once it is full; what
 * is recorded for training is every full window that does not overlap
 * the previous one recorded (each time the ring wraps).
 */
#define AIECN_WINDOW		20	/* 2 s at aiecnd's 10 Hz */

struct aiecn_window {
	struct aiecn_sample x[AIECN_WINDOW];	/* a ring, oldest at next once full */
	int n;			/* samples in it, up to AIECN_WINDOW */
	int next;		/* where the next one goes */
};

void aiecn_window_reset(struct aiecn_window *w);
/* Add @x; 1 when this completed a window that overlaps no recorded one */
int aiecn_window_add(struct aiecn_window *w, const struct aiecn_sample *x);

/*
 * Text records. A sample line is "TIME DEV CLASS" then the sample's
 * fields (AIECN_SAMPLE_FIELDS) then "KMIN KMAX PMAX" in force; a
 * features line is "TIME DEV CLASS" then the AIECN_NFEATURES features then
 * "KMIN KMAX PMAX". Lines starting with '#' are comments; in a samples
 * file each one also ends every window (aiecnd writes one when it starts
 * and when it begins a class's window again).
 */
#define AIECN_SAMPLES_HEADER \
	"# time dev class interval_s line_rate tx_bytes enq_pkts marked xoff_tx pfc_rx" \
	" qlen_now hist0..hist15 kmin kmax pmax_ppm"
#define AIECN_FEATURES_HEADER \
	"# time dev class util burst empty q99 mark pause kmin kmax pmax_ppm"

/* The sample's fields, blank-separated, no newline; the length, or -1 if it did not fit */
int aiecn_sample_format(const struct aiecn_sample *x, char *buf, size_t len);
/* The fields aiecn_sample_format() writes, from @s; 0 and *end after them, or -1 */
int aiecn_sample_parse(const char *s, struct aiecn_sample *x, const char **end);
/*
 * The marking in force, as recorded: kmin and kmax in bytes, pmax in the
 * kernel's millionths (as the class holds it)
 */
struct aiecn_record_ecn {
	uint32_t kmin, kmax, pmax;
};

/* One features line (with its newline) into @buf; the length, or -1 if it did not fit */
int aiecn_features_format(double now, const char *dev, int tc, const double f[AIECN_NFEATURES],
			  const struct aiecn_record_ecn *e, char *buf, size_t len);

#endif /* _AIECN_H */
