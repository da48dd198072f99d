#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_dcqcn_cnp6.sh: the CNP test of run_dcqcn_cnp.sh with RoCE over IPv6
# (rxe's GIDs of 2001:db8::1 and ::2): the notification point answers
# IPv6 CE marks with IPv6 CNPs (their ICRC over the IPv6 header's fields,
# their UDP checksum set), the reaction point takes them and paces.
#
#   selftests/rdma/run_dcqcn_cnp6.sh [scripts/vm-multi options]
#
# selftest-slow-kernel: advisory (as run_dcqcn_cnp.sh)
DCQCN_FAMILY=6 exec "$(dirname "$0")/run_dcqcn_cnp.sh" "$@"
