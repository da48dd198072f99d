/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PFC watchdog of one queue (traffic class) of a port.
 *
 * PFC fails in two ways that never end by themselves: a pause storm (a
 * broken peer that keeps sending XOFF) and a deadlock (a cycle of ports,
 * each paused by the next because the next's buffer is held by packets
 * waiting for a port further on the cycle). Either way a queue stays in
 * pause with packets waiting and sends nothing. The watchdog looks at each
 * queue every polling period and follows SONiC's pfcwd and the switch
 * vendors' deadlock detection:
 *
 *   WATCHING  the queue obeys PFC. At each poll, if it has packets, sent
 *             none since the last poll and was paused, the time it was
 *             paused in the period is added to its stall; anything else
 *             (a packet sent, an empty queue, no pause) ends the stall.
 *             A stall of `detect` is a detection: STORMED, or PFC_OFF
 *             when this is the `limit`th detection within `window`.
 *   STORMED   the action applies (drop, forward or alert, carried out by
 *             the caller). After `restore` with no XOFF in force (a PFC
 *             frame with a non-zero time for the queue, for as long as
 *             that time runs or until an XON ends it) since the
 *             detection, the queue goes back to WATCHING. XON frames are
 *             no pause: a peer that keeps resuming is not pausing. A
 *             pause still in force counts as an XOFF, since a software
 *             peer refreshes its pauses only as they run out.
 *   PFC_OFF   PFC is off for the queue's priorities on this port until an
 *             operator turns it on again (lossless_wd_reset()).
 *
 * Detection counts time in pause, never frames: frame counts give false
 * alarms when pauses arrive at the end of a period and miss storms of
 * short pauses. A stall that starts just after a poll is detected at most
 * `detect` plus one polling period after it starts.
 *
 * Nothing in here touches an skb, so that KUnit tests it as it is.
 */
#ifndef _SCH_LOSSLESS_WD_H
#define _SCH_LOSSLESS_WD_H

#include <linux/types.h>
#include <uapi/linux/sch_lossless.h>

#define LOSSLESS_WD_MIN_DETECT	10	/* ms */
#define LOSSLESS_WD_MAX_DETECT	5000	/* ms */
#define LOSSLESS_WD_MIN_RESTORE	10	/* ms */
#define LOSSLESS_WD_MAX_RESTORE	60000	/* ms */
#define LOSSLESS_WD_MAX_LIMIT	16	/* detections */
#define LOSSLESS_WD_MAX_WINDOW	86400	/* s */
#define LOSSLESS_WD_DEFAULT_WINDOW 60	/* s */

struct lossless_wd_config {
	u32 detect_ms;		/* 0: the watchdog is off */
	u32 restore_ms;
	u8 action;		/* enum tc_lossless_pfcwd_action */
	u32 limit;		/* detections within window_s: PFC off; 0: never */
	u32 window_s;
};

/* One queue's watchdog */
struct lossless_wd_queue {
	u8 state;		/* enum tc_lossless_wd_state */
	u64 stall_ns;		/* paused with packets and nothing sent */
	u64 stormed_at;		/* ns, the detection */
	u64 history[LOSSLESS_WD_MAX_LIMIT];	/* ns, the latest detections */
	u8 next;		/* where the next detection goes in history */
	u64 detected;
	u64 restored;
};

/* What a poll saw of a queue since the previous poll */
struct lossless_wd_sample {
	u64 now;		/* ns */
	u64 paused_ns;		/* time paused since the previous poll */
	bool backlog;		/* packets queued now */
	bool sent;		/* packets sent since the previous poll */
	u64 last_xoff;		/* ns, the last time an XOFF was in force
				 * (now while one is); 0: never
				 */
};

enum lossless_wd_event {
	LOSSLESS_WD_NONE,
	LOSSLESS_WD_DETECTED,	/* WATCHING -> STORMED */
	LOSSLESS_WD_RESTORED,	/* STORMED -> WATCHING */
	LOSSLESS_WD_TURNED_OFF,	/* WATCHING -> PFC_OFF: the limit was reached */
};

/*
 * lossless_wd_poll_ms() - the polling period
 *
 * A quarter of the shorter of detect and restore, so that both are judged
 * to within a quarter of themselves; at least 1 ms.
 */
u32 lossless_wd_poll_ms(const struct lossless_wd_config *cfg);

/* A queue watched from scratch: WATCHING, no stall, no history, no counts. */
void lossless_wd_init(struct lossless_wd_queue *wq);

/* PFC turned on again by the operator: WATCHING, history cleared, counts kept. */
void lossless_wd_reset(struct lossless_wd_queue *wq);

/*
 * lossless_wd_poll() - advance a queue's watchdog by one poll
 * @cfg: the configuration (detect_ms not 0)
 * @wq: the queue's state
 * @s: what the poll saw
 *
 * Return: the transition made, if any; the caller carries out the action.
 */
enum lossless_wd_event lossless_wd_poll(const struct lossless_wd_config *cfg,
					struct lossless_wd_queue *wq,
					const struct lossless_wd_sample *s);

#endif /* _SCH_LOSSLESS_WD_H */
