// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: DCQCN congestion control for soft-RoCE (rdma_rxe) QPs.
 *
 * What an RDMA NIC's firmware does for DCQCN, done for the RoCEv2
 * traffic of a Linux endpoint whose device has a lossless qdisc:
 *
 * - dcqcn_tx.c: RoCEv2 packets of priorities with a reaction point leave
 *   ECT(0); packets out teach the QP table (dcqcn_dev.c);
 * - dcqcn_rx.c: the notification point (a CNP for CE-marked packets) and
 *   the reaction point's input (CNPs, consumed);
 * - dcqcn_rp.c: the per-QP rate machine; dcqcn_cnp.c: the CNP and ICRC;
 * - dcqcn_pace.c: each QP's time to send, for the qdisc that paces it;
 * - dcqcn_netlink.c: the settings (tc ... lossless dcqcn ...) and the
 *   counters, through the hooks of sch_lossless (include/net/lossless_cc.h).
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <net/lossless_cc.h>

#include "dcqcn.h"

static void dcqcn_destroy(void *cc)
{
	dcqcn_dev_destroy(cc);
}

static struct lossless_cc_ops dcqcn_cc_ops = {
	.name = "dcqcn",
	.owner = THIS_MODULE,
	.change = dcqcn_change,
	.destroy = dcqcn_destroy,
	.dump = dcqcn_dump,
	.dump_stats = dcqcn_dump_stats,
	.classify = dcqcn_classify,
	.sent = dcqcn_sent,
};

static int __init dcqcn_cc_init(void)
{
	int err;

	err = dcqcn_dev_init();
	if (err)
		return err;
	err = dcqcn_rx_init();
	if (err)
		goto dev;
	err = lossless_cc_register(&dcqcn_cc_ops);
	if (err)
		goto rx;
	return 0;

rx:
	dcqcn_rx_exit();
dev:
	dcqcn_dev_exit();
	return err;
}

static void __exit dcqcn_cc_exit(void)
{
	lossless_cc_unregister(&dcqcn_cc_ops);
	dcqcn_rx_exit();
	/* the devices' states freed by call_rcu() */
	rcu_barrier();
	dcqcn_dev_exit();
}

module_init(dcqcn_cc_init);
module_exit(dcqcn_cc_exit);
MODULE_DESCRIPTION("DCQCN congestion control for soft-RoCE (rdma_rxe) QPs");
MODULE_LICENSE("GPL");
