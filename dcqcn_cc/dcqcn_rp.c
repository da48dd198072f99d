// SPDX-License-Identifier: GPL-2.0
/*
 * The DCQCN reaction point (Zhu et al., SIGCOMM 2015, section 3.1, "RP
 * algorithm"), one QP at a time, in the ConnectX firmware's terms.
 *
 * A QP sends at the maximum rate until its first CNP. A CNP cuts the
 * current rate R_C, at most once per rate_reduce_monitor_period:
 *
 *	R_T = R_C		(always on the first CNP; later only with
 *				 clamp_tgt_rate, or clamp_tgt_rate_after_time_inc
 *				 after a timer increase)
 *	R_C = R_C (1 - alpha / 2^(gd - 10))	(gd 11: the paper's alpha / 2)
 *
 * and restarts the increase machinery: T and BC, the number of increase
 * events since the cut from the timer (every rpg_time_reset us) and from
 * the byte counter (every rpg_byte_reset bytes sent). On each event, with
 * F = rpg_threshold:
 *
 *	max(T, BC) <= F		fast recovery:	R_C = (R_T + R_C) / 2
 *	min(T, BC) <= F < max	additive:	R_T += R_AI, then the same
 *	F < min(T, BC)		hyper:		R_T += (min(T, BC) - F) R_HAI,
 *						then the same
 *
 * R_T is clamped to the maximum rate and a cut never goes below
 * rpg_min_rate nor below rpg_min_dec_fac percent of R_C. When R_C is back
 * at the maximum rate the QP is no longer limited: its next CNP is a first
 * CNP again.
 *
 * alpha, the estimate of how often the path is congested, is updated
 * once every dce_tcp_rtt us:
 *
 *	alpha = G alpha + (1 - G) [a CNP came in the period],
 *	G = dce_tcp_g / 1024	(the paper's g is 1 - G)
 *
 * It is kept with 20 fraction bits as its value at the start of a period
 * and computed from there for any later time (n quiet periods: G^n by
 * squaring), so that it depends on the CNPs and the time only, not on how
 * often it is read.
 *
 * The machine has no timers of its own: every entry point first catches
 * up with the time passed (alpha periods and increase timer events) in
 * the order they happened, so the caller only needs to call in on CNPs,
 * on packets sent and when it reads the state.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/time64.h>

#include "dcqcn_rp.h"

void dcqcn_rp_params_default(struct dcqcn_rp_params *p, u64 line_rate)
{
	*p = (struct dcqcn_rp_params) {
		.line_rate = line_rate,
		.min_rate = 1000000,
		.ai_rate = 5000000,
		.hai_rate = 50000000,
		.time_reset_us = 300,
		.byte_reset = 32767,
		.threshold = 1,
		.min_dec_fac = 50,
		.gd = 11,
		.dce_tcp_g = 1019,
		.dce_tcp_rtt_us = 1,
		.monitor_period_us = 4,
		.initial_alpha = DCQCN_ALPHA_MAX,
		.clamp_tgt_rate_ati = true,
	};
}

u64 dcqcn_rp_max_rate(const struct dcqcn_rp_params *p)
{
	return p->max_rate ? min(p->max_rate, p->line_rate) : p->line_rate;
}

void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	*rp = (struct dcqcn_rp) {
		.rc = dcqcn_rp_max_rate(p),
		.rt = dcqcn_rp_max_rate(p),
		.alpha = min_t(u32, p->initial_alpha, DCQCN_ALPHA_MAX) <<
			 (DCQCN_ALPHA_FRAC - DCQCN_ALPHA_SHIFT),
		.alpha_at = now,
		.timer_at = now + (u64)p->time_reset_us * NSEC_PER_USEC,
	};
}

/**
 * dcqcn_alpha_decay() - alpha after @periods periods without a CNP
 * @alpha: in any unit below 2^32
 * @g: dce_tcp_g, the share of alpha a period keeps, in 1/1024ths (< 1024)
 * @periods: how many periods
 *
 * alpha * (g / 1024)^periods, rounded down, with the power taken by
 * squaring in 2^-30ths so that a long quiet spell costs O(log periods).
 *
 * Return: alpha after those periods, in the unit of @alpha.
 */
u32 dcqcn_alpha_decay(u32 alpha, u32 g, u64 periods)
{
	u64 f = (u64)min_t(u32, g, DCQCN_ALPHA_MAX) << (30 - DCQCN_ALPHA_SHIFT);
	u64 r = 1ULL << 30;

	while (periods && r) {
		if (periods & 1)
			r = (r * f) >> 30;
		f = (f * f) >> 30;
		periods >>= 1;
	}
	return (u32)(((u64)alpha * r) >> 30);
}

/* alpha = G alpha + (1 - G), the end of a period with a CNP (kept below 1) */
static u32 dcqcn_alpha_cnp(u32 alpha, u32 g)
{
	u64 a = ((u64)alpha * g + ((u64)(DCQCN_ALPHA_ONE - g) << DCQCN_ALPHA_FRAC)) >>
		DCQCN_ALPHA_SHIFT;

	return min_t(u64, a, BIT(DCQCN_ALPHA_FRAC) - 1);
}

static u64 dcqcn_alpha_period(const struct dcqcn_rp_params *p)
{
	return (u64)p->dce_tcp_rtt_us * NSEC_PER_USEC;
}

/**
 * dcqcn_rp_alpha() - alpha at @now
 * @rp: the QP's state
 * @p: its priority's knobs
 * @now: ns, not before @rp->alpha_at
 *
 * Computed from the last period with a CNP and the number of quiet periods
 * since, never stored: how often alpha is read changes nothing.
 *
 * Return: alpha in 2^-DCQCN_ALPHA_FRAC.
 */
u32 dcqcn_rp_alpha(const struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	u32 g = min_t(u32, p->dce_tcp_g, DCQCN_ALPHA_MAX), alpha = rp->alpha;
	u64 period = dcqcn_alpha_period(p), n;

	if (!period || now < rp->alpha_at + period)
		return alpha;
	n = div64_u64(now - rp->alpha_at, period);
	if (rp->cnp_in_period) {
		alpha = dcqcn_alpha_cnp(alpha, g);
		n--;
	}
	return dcqcn_alpha_decay(alpha, g, n);
}

/*
 * Once the period with a CNP has ended, its update is folded into the
 * state: an event, whenever it is seen.
 */
static void dcqcn_rp_advance_alpha(struct dcqcn_rp *rp,
				   const struct dcqcn_rp_params *p, u64 now)
{
	u64 period = dcqcn_alpha_period(p);

	if (!rp->cnp_in_period || !period || now < rp->alpha_at + period)
		return;
	rp->alpha = dcqcn_alpha_cnp(rp->alpha, min_t(u32, p->dce_tcp_g, DCQCN_ALPHA_MAX));
	rp->alpha_at += period;
	rp->cnp_in_period = false;
}

/*
 * A CNP at @now: the quiet periods before its own are folded into the
 * state, so that alpha_at is the start of the CNP's period.
 */
static void dcqcn_rp_alpha_cnp(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	u64 period = dcqcn_alpha_period(p), n;

	if (!rp->cnp_in_period && period && now >= rp->alpha_at + period) {
		n = div64_u64(now - rp->alpha_at, period);
		rp->alpha = dcqcn_alpha_decay(rp->alpha,
					      min_t(u32, p->dce_tcp_g, DCQCN_ALPHA_MAX), n);
		rp->alpha_at += n * period;
	}
	rp->cnp_in_period = true;
}

enum dcqcn_rp_stage dcqcn_rp_stage(const struct dcqcn_rp *rp,
				   const struct dcqcn_rp_params *p)
{
	if (!rp->limited)
		return DCQCN_RP_LINE;
	if (max(rp->t, rp->bc) <= p->threshold)
		return DCQCN_RP_FAST_RECOVERY;
	if (min(rp->t, rp->bc) <= p->threshold)
		return DCQCN_RP_ADDITIVE;
	return DCQCN_RP_HYPER;
}

/* One increase event (T or BC has just been counted). */
static void dcqcn_rp_increase(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p,
			      bool timer)
{
	u64 max = dcqcn_rp_max_rate(p), step;

	switch (dcqcn_rp_stage(rp, p)) {
	case DCQCN_RP_ADDITIVE:
		rp->rt = min(rp->rt + p->ai_rate, max);
		break;
	case DCQCN_RP_HYPER:
		if (check_mul_overflow((u64)(min(rp->t, rp->bc) - p->threshold),
				       p->hai_rate, &step))
			step = max;
		rp->rt = min(rp->rt + min(step, max), max);
		break;
	default:
		break;
	}
	/* R_C = (R_T + R_C) / 2, rounded up so that R_C reaches R_T */
	rp->rc += (rp->rt - rp->rc + 1) / 2;
	if (timer)
		rp->timer_increased = true;
	if (rp->rc >= max)
		rp->limited = false;
}

/**
 * dcqcn_rp_advance() - catch up with the time: alpha and the increase timer
 * @rp: the QP's state
 * @p: its priority's knobs
 * @now: ns, monotonic, never earlier than in the previous call
 */
void dcqcn_rp_advance(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	u64 period = (u64)max_t(u32, p->time_reset_us, 1) * NSEC_PER_USEC;
	u64 max = dcqcn_rp_max_rate(p);
	unsigned int events = 0;

	dcqcn_rp_advance_alpha(rp, p, now);
	/* the knobs may have changed since the last call */
	rp->rt = min(rp->rt, max);
	rp->rc = min(rp->rc, rp->rt);
	if (!rp->limited) {
		rp->rc = max;
		rp->rt = max;
	}
	while (rp->limited && now >= rp->timer_at && events++ < DCQCN_RP_MAX_EVENTS) {
		rp->t++;
		dcqcn_rp_increase(rp, p, true);
		rp->timer_at += period;
	}
	if (now >= rp->timer_at)
		rp->timer_at = now + period;
}

/**
 * dcqcn_rp_cnp() - a CNP for this QP
 * @rp: the QP's state
 * @p: its priority's knobs
 * @now: ns
 *
 * Return: whether the rate was cut (or set, on a first CNP); false for a
 * CNP inside the rate_reduce_monitor_period of the last cut, which only
 * counts for alpha.
 */
bool dcqcn_rp_cnp(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now)
{
	u64 max = dcqcn_rp_max_rate(p), rc, floor;
	unsigned int shift;

	dcqcn_rp_advance(rp, p, now);
	if (!rp->limited) {
		/* the first CNP: a rate limiter from now on */
		rp->limited = true;
		rp->alpha = min_t(u32, p->initial_alpha, DCQCN_ALPHA_MAX) <<
			    (DCQCN_ALPHA_FRAC - DCQCN_ALPHA_SHIFT);
		rp->alpha_at = now;
		rp->cnp_in_period = false;
		rp->rc = max;
		rp->rt = max;
		if (p->first_cnp_rate) {
			rp->rc = clamp(p->first_cnp_rate, min(p->min_rate, max), max);
			rp->rt = rp->rc;
			goto restart;
		}
	} else if (now - rp->cut_at < (u64)p->monitor_period_us * NSEC_PER_USEC) {
		dcqcn_rp_alpha_cnp(rp, p, now);
		return false;
	} else if (p->clamp_tgt_rate || (p->clamp_tgt_rate_ati && rp->timer_increased)) {
		rp->rt = rp->rc;
	}
	/* alpha at the start of the CNP's period: R_C = R_C (1 - alpha / 2^(gd - 10)) */
	dcqcn_rp_alpha_cnp(rp, p, now);
	/* gd is 1 to 15 (netlink): the shift is at most 25 */
	shift = p->gd + DCQCN_ALPHA_FRAC - DCQCN_ALPHA_SHIFT;
	rc = rp->rc - min(rp->rc, mul_u64_u32_shr(rp->rc, rp->alpha, min(shift, 32U)));
	floor = div_u64(rp->rc * min_t(u32, p->min_dec_fac, 100), 100);
	rc = max(rc, floor);
	rp->rc = max(rc, min(p->min_rate, max));
restart:
	rp->t = 0;
	rp->bc = 0;
	rp->bytes = 0;
	rp->timer_at = now + (u64)max_t(u32, p->time_reset_us, 1) * NSEC_PER_USEC;
	rp->timer_increased = false;
	rp->cut_at = now;
	dcqcn_rp_alpha_cnp(rp, p, now);
	return true;
}

/**
 * dcqcn_rp_sent() - the QP sent a packet: the byte counter
 * @rp: the QP's state
 * @p: its priority's knobs
 * @bytes: the packet's length
 * @now: ns
 */
void dcqcn_rp_sent(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p,
		   unsigned int bytes, u64 now)
{
	u32 b = max_t(u32, p->byte_reset, 1);
	unsigned int events = 0;

	dcqcn_rp_advance(rp, p, now);
	if (!rp->limited)
		return;
	rp->bytes += bytes;
	while (rp->limited && rp->bytes >= b && events++ < DCQCN_RP_MAX_EVENTS) {
		rp->bytes -= b;
		rp->bc++;
		dcqcn_rp_increase(rp, p, false);
	}
	if (!rp->limited || rp->bytes >= b)
		rp->bytes = 0;
}
