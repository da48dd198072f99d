// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: pacing, each QP held to its current rate R_C.
 *
 * Like the per-QP rate limiters of an RDMA NIC, in front of the port's
 * traffic class queues. Each QP has a time before which its next packet
 * may not go: the previous packet's time plus its length at R_C, which is
 * the line rate until the QP's first CNP. dcqcn_classify() names a QP's
 * packets to the lossless qdisc with that time; the qdisc holds them, in
 * order, in its own queues until then, and tells dcqcn_sent() as each
 * goes, which counts it for the RP byte counter and sets the QP's next
 * time. A held packet still belongs to rxe (its destructor has not run),
 * so a QP that has 64 packets out stops posting: holding a QP's packets
 * stalls that QP alone, and the other QPs and traffic go on. A QP without
 * a limiter is held to the line rate too, as a NIC sends a QP's packets no
 * faster than its port: rxe would otherwise hand the port a whole window
 * at once, and a cut would wait for that backlog to drain before it
 * showed on the wire.
 *
 * Locking: a QP's next time is under the device's lock.
 */
#include <linux/ktime.h>
#include <linux/math64.h>

#include "dcqcn.h"

/*
 * Bytes a QP may catch up by after the qdisc's timer fired late: the depth
 * of its rate limiter's bucket. A software timer fires late by up to
 * milliseconds (more in a loaded VM); without this a QP would lose what
 * its timer was late by and send below R_C.
 */
#define DCQCN_PACE_BURST	16384

/* Under dd->lock: @len bytes of @qp go now. */
static void dcqcn_pace_sent(struct dcqcn_dev *dd, struct dcqcn_qp *qp,
			    unsigned int len, u64 now)
{
	u64 old = qp->rp.rc, rate, slack;

	dcqcn_rp_sent(&qp->rp, &dd->cfg.rp_params, len, now);
	if (qp->rp.rc != old)
		dcqcn_trace_rate(dd, qp, now);
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

/*
 * The qdisc lets a packet of @flow (a QP, dcqcn_qp_flow()) go at @now,
 * after it waited for its time (@waited) or not. Under the qdisc's root
 * lock. Return: when the QP's next packet may go; @now for a QP that is
 * not paced, or no longer known (forgotten after DCQCN_QP_IDLE without a
 * packet going: the qdisc did not send for that long).
 */
u64 dcqcn_sent(void *cc, u64 flow, unsigned int len, bool waited, u64 now)
{
	struct dcqcn_dev *dd = cc;
	struct dcqcn_qp *qp;
	u64 next = now;

	spin_lock(&dd->lock);
	qp = dcqcn_qp_by_id(dd, dcqcn_flow_id(flow));
	/* a QP of a priority without reaction point is not paced */
	if (qp && (dd->cfg.rp & BIT(qp->prio))) {
		dcqcn_pace_sent(dd, qp, len, now);
		qp->last_used = jiffies;
		if (waited) {
			qp->paced++;
			dd->paced++;
		}
		next = qp->next_tx;
	}
	spin_unlock(&dd->lock);
	return next;
}
