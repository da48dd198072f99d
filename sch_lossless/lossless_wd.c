// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC watchdog's state machine (see lossless_wd.h).
 */
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lossless_wd.h"

u32 lossless_wd_poll_ms(const struct lossless_wd_config *cfg)
{
	return max(min(cfg->detect_ms, cfg->restore_ms) / 4, 1U);
}

void lossless_wd_init(struct lossless_wd_queue *wq)
{
	memset(wq, 0, sizeof(*wq));
}

void lossless_wd_reset(struct lossless_wd_queue *wq)
{
	wq->state = TC_LOSSLESS_WD_WATCHING;
	wq->stall_ns = 0;
	memset(wq->history, 0, sizeof(wq->history));
	wq->next = 0;
}

/*
 * Record a detection at @now; true when it is the limit'th within the
 * window. history[] holds the times of the latest limit detections, the
 * oldest at next: that one is in the window iff limit detections are.
 */
static bool lossless_wd_over_limit(const struct lossless_wd_config *cfg,
				   struct lossless_wd_queue *wq, u64 now)
{
	u64 window = (u64)cfg->window_s * NSEC_PER_SEC;
	u64 oldest;

	if (!cfg->limit)
		return false;
	wq->history[wq->next] = now;
	wq->next = (wq->next + 1) % cfg->limit;
	oldest = wq->history[wq->next];
	/* 0: fewer than limit detections so far */
	return oldest && now - oldest <= window;
}

static enum lossless_wd_event lossless_wd_watch(const struct lossless_wd_config *cfg,
						struct lossless_wd_queue *wq,
						const struct lossless_wd_sample *s)
{
	if (!s->backlog || s->sent || !s->paused_ns) {
		wq->stall_ns = 0;
		return LOSSLESS_WD_NONE;
	}
	wq->stall_ns += s->paused_ns;
	if (wq->stall_ns < (u64)cfg->detect_ms * NSEC_PER_MSEC)
		return LOSSLESS_WD_NONE;

	wq->stall_ns = 0;
	wq->detected++;
	wq->stormed_at = s->now;
	if (lossless_wd_over_limit(cfg, wq, s->now)) {
		wq->state = TC_LOSSLESS_WD_PFC_OFF;
		return LOSSLESS_WD_TURNED_OFF;
	}
	wq->state = TC_LOSSLESS_WD_STORMED;
	return LOSSLESS_WD_DETECTED;
}

static enum lossless_wd_event lossless_wd_storm(const struct lossless_wd_config *cfg,
						struct lossless_wd_queue *wq,
						const struct lossless_wd_sample *s)
{
	u64 quiet_since = max(wq->stormed_at, s->last_xoff);

	if (s->now < quiet_since ||
	    s->now - quiet_since < (u64)cfg->restore_ms * NSEC_PER_MSEC)
		return LOSSLESS_WD_NONE;
	wq->state = TC_LOSSLESS_WD_WATCHING;
	wq->stall_ns = 0;
	wq->restored++;
	return LOSSLESS_WD_RESTORED;
}

enum lossless_wd_event lossless_wd_poll(const struct lossless_wd_config *cfg,
					struct lossless_wd_queue *wq,
					const struct lossless_wd_sample *s)
{
	switch (wq->state) {
	case TC_LOSSLESS_WD_WATCHING:
		return lossless_wd_watch(cfg, wq, s);
	case TC_LOSSLESS_WD_STORMED:
		return lossless_wd_storm(cfg, wq, s);
	default:
		return LOSSLESS_WD_NONE;	/* PFC off: nothing to watch */
	}
}
