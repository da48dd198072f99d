// SPDX-License-Identifier: GPL-2.0
/*
 * sch_lossless: the PFC watchdog of a port.
 *
 * A timer polls each traffic class with a lossless priority every
 * lossless_wd_poll_ms() and feeds the state machine of lossless_wd.h with
 * what it saw since the previous poll: time paused (from the pause
 * accounting of lossless_pfc_rx.c), packets queued, packets sent, the
 * newest XOFF. It carries out the transitions:
 *
 *   detected   action forward: the class's received pauses are ignored by
 *              dequeue; action drop: its queue is emptied and what arrives
 *              for it is dropped, each packet counted (wd_dropped); action
 *              alert: nothing but the counters and the tracepoint.
 *   restored   no XOFF was in force for `restore`: the class obeys PFC
 *              again.
 *   turned off the limit was reached: PFC is turned off for the class's
 *              priorities on this port (no pause received is obeyed, none
 *              sent) until the operator lists them in `pfc` again.
 *
 * Locking: the timer runs in softirq and takes the qdisc's root lock, as
 * enqueue and dequeue do, so the state and the masks they read change
 * between packets, never under one. change() commits the configuration
 * under the same lock and starts or stops the timer outside it;
 * destroy() stops it first (timer_delete_sync() copes with a timer that
 * re-arms itself). The reset that destroy runs without the lock finds the
 * queues already emptied under it (dev_deactivate(), or the parent's
 * purge), so a poll running alongside it has nothing to drop.
 */
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "lossless.h"
#include "lossless_trace.h"

static unsigned long lossless_pfcwd_period(const struct lossless_pfcwd *wd)
{
	return max(msecs_to_jiffies(lossless_wd_poll_ms(&wd->cfg)), 1UL);
}

/* Drop every packet of class @tc (root lock held). */
static void lossless_pfcwd_purge(struct Qdisc *sch, int tc, struct sk_buff **to_free)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_class *c = &q->classes[tc];
	unsigned int pkts = 0, bytes = 0;

	while (c->q.qlen) {
		struct sk_buff *skb = lossless_class_pop(sch, c);

		q->wd.dropped[tc]++;
		c->qstats.drops++;
		pkts++;
		bytes += qdisc_pkt_len(skb);
		qdisc_drop(skb, sch, to_free);
	}
	qdisc_tree_reduce_backlog(sch, pkts, bytes);
}

/*
 * What the next poll compares with: the pause time of each class's
 * lossless priorities now (the set may just have changed) and its packets
 * sent. Under the root lock.
 */
static void lossless_pfcwd_rebase(struct lossless_sched_data *q)
{
	u64 now = ktime_get_ns(), xoff;
	int tc;

	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		lossless_pause_read(q, lossless_tc_prios(q, tc), now,
				    &q->wd.last_paused[tc], &xoff);
		q->wd.last_sent[tc] = u64_stats_read(&q->classes[tc].bstats.packets);
		q->wd.queue[tc].stall_ns = 0;
	}
}

/* Carry out transition @ev of class @tc (root lock held). */
static void lossless_pfcwd_act(struct Qdisc *sch, int tc, u8 prios,
			       enum lossless_wd_event ev)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfcwd *wd = &q->wd;
	u8 bit = BIT(tc);

	switch (ev) {
	case LOSSLESS_WD_DETECTED:
		if (wd->cfg.action == TC_LOSSLESS_PFCWD_FORWARD)
			wd->ignore |= bit;
		else if (wd->cfg.action == TC_LOSSLESS_PFCWD_DROP)
			wd->drop |= bit;
		trace_lossless_wd_detected(qdisc_dev(sch), tc, prios, wd->cfg.action);
		break;
	case LOSSLESS_WD_RESTORED:
		wd->ignore &= ~bit;
		wd->drop &= ~bit;
		trace_lossless_wd_restored(qdisc_dev(sch), tc, prios, wd->cfg.action);
		break;
	case LOSSLESS_WD_TURNED_OFF:
		wd->ignore &= ~bit;
		wd->drop &= ~bit;
		wd->pfc_off |= prios;
		q->pfc_enable &= ~prios;
		lossless_port_configure(sch);
		lossless_pfcwd_rebase(q);
		trace_lossless_wd_pfc_off(qdisc_dev(sch), tc, prios, wd->cfg.action);
		break;
	default:
		break;
	}
}

/* One poll of every class; true when dequeue should look again. */
static bool lossless_pfcwd_poll(struct Qdisc *sch, struct sk_buff **to_free)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfcwd *wd = &q->wd;
	u64 now = ktime_get_ns(), period = now - wd->last_poll;
	bool kick = false;
	int tc;

	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		struct lossless_wd_queue *wq = &wd->queue[tc];
		struct lossless_class *c = &q->classes[tc];
		u8 prios = lossless_tc_prios(q, tc);
		struct lossless_wd_sample s = { .now = now };
		enum lossless_wd_event ev;
		u64 paused, sent;

		lossless_pause_read(q, prios, now, &paused, &s.last_xoff);
		sent = u64_stats_read(&c->bstats.packets);
		s.paused_ns = paused > wd->last_paused[tc] ?
			      min(paused - wd->last_paused[tc], period) : 0;
		s.sent = sent != wd->last_sent[tc];
		s.backlog = c->q.qlen;
		wd->last_paused[tc] = paused;
		wd->last_sent[tc] = sent;
		if (!prios) {
			/* no longer lossless (pfc changed): nothing to watch */
			if (wq->state == TC_LOSSLESS_WD_STORMED) {
				wq->state = TC_LOSSLESS_WD_WATCHING;
				wd->ignore &= ~BIT(tc);
				wd->drop &= ~BIT(tc);
				kick = true;
			}
			wq->stall_ns = 0;
			continue;
		}
		ev = lossless_wd_poll(&wd->cfg, wq, &s);
		if (ev != LOSSLESS_WD_NONE) {
			lossless_pfcwd_act(sch, tc, prios, ev);
			kick = true;
		}
		if (wd->drop & BIT(tc))
			lossless_pfcwd_purge(sch, tc, to_free);
	}
	wd->last_poll = now;
	return kick;
}

static void lossless_pfcwd_timer(struct timer_list *t)
{
	struct lossless_sched_data *q = timer_container_of(q, t, wd.timer);
	struct lossless_pfcwd *wd = &q->wd;
	struct Qdisc *sch = wd->sch;
	struct sk_buff *to_free = NULL;
	spinlock_t *root_lock;		/* the qdisc's, as enqueue takes */
	bool kick = false;

	rcu_read_lock();
	root_lock = qdisc_lock(qdisc_root_sleeping(sch));
	spin_lock(root_lock);
	if (wd->cfg.detect_ms) {
		kick = lossless_pfcwd_poll(sch, &to_free);
		mod_timer(&wd->timer, jiffies + lossless_pfcwd_period(wd));
	}
	spin_unlock(root_lock);
	if (kick)
		__netif_schedule(qdisc_root(sch));
	rcu_read_unlock();
	kfree_skb_list(to_free);
}

void lossless_pfcwd_init(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	int tc;

	q->wd.sch = sch;
	q->wd.cfg.window_s = LOSSLESS_WD_DEFAULT_WINDOW;
	timer_setup(&q->wd.timer, lossless_pfcwd_timer, 0);
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++)
		lossless_wd_init(&q->wd.queue[tc]);
}

/* The polling period as the timer runs it, in us (0: off). */
u32 lossless_pfcwd_poll_us(const struct lossless_sched_data *q)
{
	return q->wd.cfg.detect_ms ? jiffies_to_usecs(lossless_pfcwd_period(&q->wd)) : 0;
}

/*
 * Commit a configuration, under sch_tree_lock(): @cfg as validated, and
 * @pfc_on the priorities the request turned PFC on for (the operator's
 * answer to the limit).
 */
void lossless_pfcwd_set(struct Qdisc *sch, const struct lossless_wd_config *cfg, u8 pfc_on)
{
	struct lossless_sched_data *q = qdisc_priv(sch);
	struct lossless_pfcwd *wd = &q->wd;
	bool forget = cfg->limit != wd->cfg.limit || cfg->window_s != wd->cfg.window_s;
	int tc;

	wd->pfc_off &= ~pfc_on;
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		struct lossless_wd_queue *wq = &wd->queue[tc];

		if (!cfg->detect_ms || !lossless_tc_prios(q, tc) ||
		    (wq->state == TC_LOSSLESS_WD_PFC_OFF && (lossless_tc_prios(q, tc) & pfc_on))) {
			/* watchdog off, class lossy, or PFC back on: afresh */
			lossless_wd_reset(wq);
		} else if (forget) {
			/* the history was kept for another limit */
			memset(wq->history, 0, sizeof(wq->history));
			wq->next = 0;
		}
	}
	if (cfg->detect_ms && !wd->cfg.detect_ms)
		wd->last_poll = ktime_get_ns();	/* turned on: judge from now */
	lossless_pfcwd_rebase(q);
	/* the stormed classes take the action now set */
	wd->ignore = 0;
	wd->drop = 0;
	for (tc = 0; tc < TC_LOSSLESS_NUM_TC; tc++) {
		if (wd->queue[tc].state != TC_LOSSLESS_WD_STORMED)
			continue;
		if (cfg->action == TC_LOSSLESS_PFCWD_FORWARD)
			wd->ignore |= BIT(tc);
		else if (cfg->action == TC_LOSSLESS_PFCWD_DROP)
			wd->drop |= BIT(tc);
	}
	wd->cfg = *cfg;
}

/* After a change, under RTNL and not under the root lock: run or stop. */
void lossless_pfcwd_start(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	if (q->wd.cfg.detect_ms) {
		if (!timer_pending(&q->wd.timer))
			mod_timer(&q->wd.timer, jiffies + lossless_pfcwd_period(&q->wd));
	} else {
		timer_delete_sync(&q->wd.timer);
	}
}

void lossless_pfcwd_stop(struct Qdisc *sch)
{
	struct lossless_sched_data *q = qdisc_priv(sch);

	timer_delete_sync(&q->wd.timer);
}
