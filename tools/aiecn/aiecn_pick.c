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
 *   - the one in force stays while the model recognises nothing, for up
 *     to @hold samples in a row; then the search takes over from it.
 */
#include "aiecn.h"

static void forget_candidate(struct aiecn_pick *p)
{
	p->candidate = -1;
	p->cand_run = 0;
}

void aiecn_pick_init(struct aiecn_pick *p, int hold, int sw)
{
	p->owned = -1;
	forget_candidate(p);
	p->unknown_run = 0;
	p->hold = hold > 0 ? hold : 1;
	p->sw = sw > 0 ? sw : 1;
}

enum aiecn_pick_action aiecn_pick_step(struct aiecn_pick *p, int k)
{
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
	if (p->owned >= 0) {
		if (k != p->candidate) {
			p->candidate = k;
			p->cand_run = 0;
		}
		if (++p->cand_run < p->sw)
			return AIECN_PICK_HOLD;
	}
	p->owned = k;
	forget_candidate(p);
	return AIECN_PICK_INSTALL;
}
