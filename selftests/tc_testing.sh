#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-timeout: 1800 (232 cases, about 2 s each in TCG, 4 s on a busy host)
#
# The tdc-style cases of tc-testing/lossless.json: option parsing through
# the tc plug-in, dump round trips and rejections, against the live module.

. "$(dirname "$0")/lib.sh"
require_cmd python3
python3 "$(dirname "$0")/tc-testing/tdc.py" "$(dirname "$0")/tc-testing/lossless.json"
