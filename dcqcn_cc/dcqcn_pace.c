// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: pacing, each QP held to its current rate R_C.
 *
 * Like the per-QP rate limiters of an RDMA NIC, in front of the port's
 * traffic class queues: a packet of a QP that comes to the lossless
 * qdisc before its time (the previous packet's time plus its length at
 * R_C, which is the line rate until the QP's first CNP) is taken by
 * dcqcn_enqueue() instead of being queued, and waits in the QP's own
 * queue; the QP's hrtimer gives it back to the
 * device (dev_queue_xmit()) when its time comes, and the qdisc queues it
 * then. A packet waiting here still belongs to rxe (its destructor has
 * not run), so a QP that has 64 packets out stops posting: holding a
 * QP's packets stalls that QP alone, and the other QPs and traffic go on.
 * A QP without a limiter is held to the line rate too, as a NIC sends a
 * QP's packets no faster than its port: rxe would otherwise hand the
 * port a whole window at once, and a cut would wait for that backlog to
 * drain before it showed on the wire.
 * Packets of a QP go out in order: once one waits, those after it wait
 * behind it, limited or not.
 *
 * A packet given back comes through dcqcn_enqueue() again: it is known
 * by a per-CPU pointer, set around dev_queue_xmit() (the qdisc's enqueue
 * runs on the calling CPU), and passes.
 *
 * Locking: the QP's queue, next_tx and timer are under the device's lock;
 * packets go to dev_queue_xmit() with no lock held.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>

#include "dcqcn.h"

/*
 * Bytes a QP may catch up by after its pacer fired late: the depth of its
 * rate limiter's bucket. A software timer fires late by up to
 * milliseconds (more in a loaded VM); without this a QP would lose what
 * its timer was late by and send below R_C.
 */
#define DCQCN_PACE_BURST	16384

static DEFINE_PER_CPU(const struct sk_buff *, dcqcn_releasing);

/* Whether @skb is a packet the pacer is giving back just now. */
bool dcqcn_pace_releasing(const struct sk_buff *skb)
{
	return this_cpu_read(dcqcn_releasing) == skb;
}

/* Under dd->lock: @len bytes of @qp go now. */
static void dcqcn_pace_sent(struct dcqcn_dev *dd, struct dcqcn_qp *qp,
			    unsigned int len, u64 now)
{
	u64 old = qp->rp.rc, rate, slack;

	dcqcn_rp_sent(&qp->rp, &dd->cfg.rp_params, len, now);
	if (qp->rp.rc != old)
		dcqcn_trace_rate(dd, qp);
	rate = max_t(u64, qp->rp.rc, 1);
	/*
	 * A timer that fires late must not slow the QP down: what it is
	 * late by, up to DCQCN_PACE_BURST bytes at R_C, is made up by the
	 * next packets. A QP idle longer gets no more credit than that.
	 * rate >= 1: both products fit in 64 bits. R_C is the line rate
	 * when the QP has no limiter.
	 */
	if (qp->next_tx < now) {
		slack = div64_u64((u64)DCQCN_PACE_BURST * BITS_PER_BYTE * NSEC_PER_SEC, rate);
		qp->next_tx = max(qp->next_tx, now - min(now, slack));
	}
	qp->next_tx += div64_u64((u64)len * BITS_PER_BYTE * NSEC_PER_SEC, rate);
}

static enum hrtimer_restart dcqcn_pacer(struct hrtimer *t)
{
	struct dcqcn_qp *qp = container_of(t, struct dcqcn_qp, pacer);
	struct dcqcn_dev *dd = qp->dd;
	struct sk_buff_head go;
	u64 now = ktime_get_ns();
	struct sk_buff *skb;

	__skb_queue_head_init(&go);
	spin_lock(&dd->lock);
	while ((skb = skb_peek(&qp->held)) && now >= qp->next_tx) {
		__skb_unlink(skb, &qp->held);
		dcqcn_pace_sent(dd, qp, skb->len, now);
		__skb_queue_tail(&go, skb);
	}
	/* a dcqcn_pace() may have started it again already (same lock) */
	if (!skb_queue_empty(&qp->held) && !hrtimer_is_queued(t))
		hrtimer_start(t, ns_to_ktime(qp->next_tx), HRTIMER_MODE_ABS_SOFT);
	spin_unlock(&dd->lock);

	while ((skb = __skb_dequeue(&go))) {
		this_cpu_write(dcqcn_releasing, skb);
		dev_queue_xmit(skb);
		this_cpu_write(dcqcn_releasing, NULL);
	}
	return HRTIMER_NORESTART;
}

void dcqcn_pace_init(struct dcqcn_qp *qp)
{
	__skb_queue_head_init(&qp->held);
	hrtimer_setup(&qp->pacer, dcqcn_pacer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
}

/*
 * Under dd->lock, for a packet of @qp on its way into the qdisc: whether
 * it must wait (then it is taken, and true is returned), else it goes now
 * and counts for the byte counter and the QP's next time.
 */
bool dcqcn_pace(struct dcqcn_dev *dd, struct dcqcn_qp *qp, struct sk_buff *skb, u64 now)
{
	bool wait = !skb_queue_empty(&qp->held) || now < qp->next_tx;

	if (!wait || skb_queue_len(&qp->held) >= DCQCN_MAX_HELD) {
		/* too many waiting: better late order than a lost packet */
		dcqcn_pace_sent(dd, qp, skb->len, now);
		return false;
	}
	__skb_queue_tail(&qp->held, skb);
	qp->paced++;
	dd->paced++;
	if (!hrtimer_is_queued(&qp->pacer))
		hrtimer_start(&qp->pacer, ns_to_ktime(max(qp->next_tx, now)),
			      HRTIMER_MODE_ABS_SOFT);
	return true;
}

/* Under dd->lock: whether @qp has packets waiting (it must stay). */
bool dcqcn_pace_busy(struct dcqcn_qp *qp)
{
	return !skb_queue_empty(&qp->held) || hrtimer_active(&qp->pacer);
}

/*
 * Not under dd->lock, once nothing can queue to @qp any more (its qdisc
 * goes): stop its timer, drop what waits (rxe sends it again).
 */
void dcqcn_pace_stop(struct dcqcn_qp *qp)
{
	hrtimer_cancel(&qp->pacer);
	spin_lock_bh(&qp->dd->lock);
	__skb_queue_purge(&qp->held);
	spin_unlock_bh(&qp->dd->lock);
}
