// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn model mode: which recognised scenario's thresholds are in force.
 *
 * The model classifies a sliding window of samples, once per sample. Its
 * answers near the confidence flicker: an incast's window straddles its
 * bursts and gaps, and now and then looks like a mix with a long flow for
 * a second. Following every answer would swap the thresholds back and
 * forth, and a queue run at neither setting for long gets the worst of
 * both. So:
 *
 *   - with no scenario in force, the first one recognised is installed
 *     at once (the search was running: the model knows better);
 *   - another scenario replaces the one in force only once it has been
 *     recognised in @sw samples in a row;
 *   - but a scenario whose thresholds are deeper than those in force
 *     (the caller says so: @deeper) needs @sw_up samples in a row, the
 *     search's or another scenario's thresholds in force alike;
 *   - the one in force stays while the model recognises nothing, for up
 *     to @hold samples in a row; then the search takes over from it.
 *
 * The two mistakes do not cost the same. Taken for a scenario with lower
 * thresholds, a queue marks earlier than it might: some throughput, for
 * as long as the mistake lasts. Taken for one with higher thresholds, it
 * runs deeper: delay for every packet, and headroom nearer XOFF, which is
 * what a lossless class must keep. And the mistake the model makes is of
 * the second kind: an incast whose flows overlap keeps a queue up for a
 * second or more, as a long flow does, and the model has taken such
 * windows for a mix with a long flow, confidently, for up to 6 s in a
 * row (Documentation/aiecnd.rst, section 6).
 */
#include "aiecn.h"

static void forget_candidate(struct aiecn_pick *p)
{
	p->candidate = -1;
	p->cand_run = 0;
}

void aiecn_pick_init(struct aiecn_pick *p, int hold, int sw, int sw_up)
{
	p->owned = -1;
	forget_candidate(p);
	p->unknown_run = 0;
	p->hold = hold > 0 ? hold : 1;
	p->sw = sw > 0 ? sw : 1;
	p->sw_up = sw_up > p->sw ? sw_up : p->sw;
}

enum aiecn_pick_action aiecn_pick_step(struct aiecn_pick *p, int k, bool deeper)
{
	int need;

	if (k < 0) {
		forget_candidate(p);
		if (p->owned < 0)
			return AIECN_PICK_SEARCH;
		if (++p->unknown_run < p->hold)
			return AIECN_PICK_HOLD;
		p->owned = -1;
		p->unknown_run = 0;
		return AIECN_PICK_RELEASE;
	}
	p->unknown_run = 0;
	if (k == p->owned) {
		forget_candidate(p);
		return AIECN_PICK_HOLD;
	}
	need = deeper ? p->sw_up : p->owned >= 0 ? p->sw : 1;
	if (k != p->candidate) {
		p->candidate = k;
		p->cand_run = 0;
	}
	if (++p->cand_run < need)
		return p->owned >= 0 ? AIECN_PICK_HOLD : AIECN_PICK_SEARCH;
	p->owned = k;
	forget_candidate(p);
	return AIECN_PICK_INSTALL;
}
