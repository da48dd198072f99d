/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DCQCN reaction point: the rate machine of one sending QP.
 *
 * Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015, section 3, with the knobs (names, units, defaults) of the
 * ConnectX firmware as mlx5 exposes them. No skb, no lock, no clock: the
 * caller passes the time and serializes calls per QP.
 */
#ifndef _DCQCN_RP_H
#define _DCQCN_RP_H

#include <linux/bits.h>
#include <linux/types.h>

/* the knobs g and initial alpha are fractions of DCQCN_ALPHA_ONE (1/1024ths) */
#define DCQCN_ALPHA_SHIFT	10
#define DCQCN_ALPHA_ONE		BIT(DCQCN_ALPHA_SHIFT)
#define DCQCN_ALPHA_MAX		(DCQCN_ALPHA_ONE - 1)

/* the state's alpha has DCQCN_ALPHA_FRAC fraction bits; shown in 1/1024ths */
#define DCQCN_ALPHA_FRAC	20
#define DCQCN_ALPHA_SHOWN(a)	((a) >> (DCQCN_ALPHA_FRAC - DCQCN_ALPHA_SHIFT))

/* catching up on a long quiet spell: at most this many timer events */
#define DCQCN_RP_MAX_EVENTS	4096

/**
 * struct dcqcn_rp_params - the RP knobs of one priority (mlx5 names)
 * @line_rate: bit/s, the port's speed: the rate of a QP without a limiter
 * @max_rate: bit/s, rpg_max_rate; 0: @line_rate
 * @min_rate: bit/s, rpg_min_rate: no cut goes below it
 * @ai_rate: bit/s, rpg_ai_rate: the additive increase step of R_T
 * @hai_rate: bit/s, rpg_hai_rate: the hyper increase step of R_T
 * @first_cnp_rate: bit/s, rate_to_set_on_first_cnp; 0: the first CNP cuts
 *	from the maximum rate like any other
 * @time_reset_us: rpg_time_reset, the increase timer's period (T)
 * @byte_reset: rpg_byte_reset, bytes per byte counter event (B)
 * @threshold: rpg_threshold, F: events of fast recovery before increase
 * @min_dec_fac: rpg_min_dec_fac, percent: a cut keeps at least this much
 *	of R_C
 * @gd: rpg_gd, log2 of the cut's divisor: R_C -= R_C * alpha / 2^gd, with
 *	alpha in 1/1024ths (gd 11 is the paper's alpha / 2)
 * @dce_tcp_g: alpha's memory in 1/1024ths: every @dce_tcp_rtt_us,
 *	alpha = alpha * G + (1 - G) * [a CNP came], G = dce_tcp_g / 1024
 *	(the paper's g is 1 - G)
 * @dce_tcp_rtt_us: the period of the alpha update (the paper's K)
 * @monitor_period_us: rate_reduce_monitor_period: at most one cut per period
 * @initial_alpha: initial_alpha_value, in 1/1024ths
 * @clamp_tgt_rate: clamp_tgt_rate: every cut sets R_T = R_C first
 * @clamp_tgt_rate_ati: clamp_tgt_rate_after_time_inc: so does a cut after
 *	an increase that the timer caused
 */
struct dcqcn_rp_params {
	u64 line_rate;
	u64 max_rate;
	u64 min_rate;
	u64 ai_rate;
	u64 hai_rate;
	u64 first_cnp_rate;
	u32 time_reset_us;
	u32 byte_reset;
	u32 threshold;
	u32 min_dec_fac;
	u32 gd;
	u32 dce_tcp_g;
	u32 dce_tcp_rtt_us;
	u32 monitor_period_us;
	u32 initial_alpha;
	bool clamp_tgt_rate;
	bool clamp_tgt_rate_ati;
};

/**
 * enum dcqcn_rp_stage - where a QP's rate is
 * @DCQCN_RP_LINE: no rate limiter: the QP sends at the maximum rate
 * @DCQCN_RP_FAST_RECOVERY: R_C halves its distance to R_T per event
 * @DCQCN_RP_ADDITIVE: one counter passed F: R_T grows by rpg_ai_rate
 * @DCQCN_RP_HYPER: both counters passed F: R_T grows by i * rpg_hai_rate
 */
enum dcqcn_rp_stage {
	DCQCN_RP_LINE,
	DCQCN_RP_FAST_RECOVERY,
	DCQCN_RP_ADDITIVE,
	DCQCN_RP_HYPER,
};

/**
 * struct dcqcn_rp - the reaction point state of one QP
 * @rc: bit/s, R_C, the current rate
 * @rt: bit/s, R_T, the target rate
 * @alpha: alpha at @alpha_at, in 2^-DCQCN_ALPHA_FRAC (dcqcn_rp_alpha()
 *	gives it at any time)
 * @t: timer events since the last cut (the paper's T)
 * @bc: byte counter events since the last cut (the paper's BC)
 * @bytes: bytes sent since the last byte counter event
 * @alpha_at: ns, the start of an alpha period: every period from there
 *	on had no CNP, but the one @cnp_in_period marks
 * @timer_at: ns, when the increase timer fires next
 * @cut_at: ns, the last cut
 * @limited: a rate limiter is in use (a CNP came and R_C has not returned
 *	to the maximum since)
 * @cnp_in_period: a CNP came in the alpha period that started at @alpha_at
 * @timer_increased: the timer raised the rate since the last cut
 */
struct dcqcn_rp {
	u64 rc;
	u64 rt;
	u32 alpha;
	u32 t;
	u32 bc;
	u64 bytes;
	u64 alpha_at;
	u64 timer_at;
	u64 cut_at;
	bool limited;
	bool cnp_in_period;
	bool timer_increased;
};

/* mlx5's defaults at a line rate of @line_rate bit/s */
void dcqcn_rp_params_default(struct dcqcn_rp_params *p, u64 line_rate);
u64 dcqcn_rp_max_rate(const struct dcqcn_rp_params *p);

void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now);
void dcqcn_rp_advance(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now);
bool dcqcn_rp_cnp(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now);
void dcqcn_rp_sent(struct dcqcn_rp *rp, const struct dcqcn_rp_params *p,
		   unsigned int bytes, u64 now);
enum dcqcn_rp_stage dcqcn_rp_stage(const struct dcqcn_rp *rp,
				   const struct dcqcn_rp_params *p);
u32 dcqcn_rp_alpha(const struct dcqcn_rp *rp, const struct dcqcn_rp_params *p, u64 now);
u32 dcqcn_alpha_decay(u32 alpha, u32 g, u64 periods);

#endif /* _DCQCN_RP_H */
