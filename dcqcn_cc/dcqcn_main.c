// SPDX-License-Identifier: GPL-2.0
/*
 * dcqcn_cc: DCQCN congestion control for soft-RoCE (rdma_rxe) QPs.
 *
 * This is the module's skeleton: it loads and unloads and does nothing
 * else yet. The notification point, the reaction point and the pacing
 * hooks into sch_lossless come with their own changes.
 */
#include <linux/module.h>

static int __init dcqcn_cc_init(void)
{
	pr_info("dcqcn_cc: loaded (no congestion control active yet)\n");
	return 0;
}

static void __exit dcqcn_cc_exit(void)
{
	pr_info("dcqcn_cc: unloaded\n");
}

module_init(dcqcn_cc_init);
module_exit(dcqcn_cc_exit);
MODULE_DESCRIPTION("DCQCN congestion control for soft-RoCE (skeleton)");
MODULE_LICENSE("GPL");
