#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A small runner for tdc-style JSON test cases (the format of the kernel's
tools/testing/selftests/tc-testing, written anew for this project).

Each case: "id", "name", "setup" (commands), "cmdUnderTest", "expExitCode",
"verifyCmd", "matchPattern" (a regular expression), "matchCount" (how many
times it must match verifyCmd's output) and "teardown". A setup or teardown
entry is a command string, or a list of a command and the exit codes it may
have (tdc's convention); a bare command must succeed. Optional:
"matchJSON": true checks that verifyCmd's output parses as JSON.

Every command runs in the runner's own network namespace, with a fresh
dummy device for each case; $TC and $DEV1 are replaced by the tc command
and that device's name.
Output is TAP; the exit status is 1 if a case failed.

    tdc.py FILE.json [ID...]
"""
import ctypes
import json
import os
import re
import subprocess
import sys

DEV1 = "dummy1"
CLONE_NEWNET = 0x40000000


def enter_netns(ns):
    """Move this process (and so every command it runs) into netns ns."""
    subprocess.run(["ip", "netns", "add", ns], check=True)
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        sys.exit(f"tdc: setns: {os.strerror(ctypes.get_errno())}")
    os.close(fd)


# A command with none of these runs without a shell: one process less a
# command, which counts in a debug kernel under emulation.
SHELL_SYNTAX = re.compile(r"""[|&;<>()$`\\"'*?\[\]{}~#=]""")


def run(ns, cmd, timeout=30):
    cmd = cmd.replace("$TC", "tc").replace("$DEV1", DEV1)
    shell = bool(SHELL_SYNTAX.search(cmd))
    p = subprocess.run(cmd if shell else cmd.split(), shell=shell,
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def run_steps(ns, steps, what):
    for step in steps:
        if isinstance(step, list):
            cmd, allowed = step[0], step[1:]
        else:
            cmd, allowed = step, [0]
        rc, out = run(ns, cmd)
        if rc not in allowed:
            return f"{what} '{cmd}' exited {rc}: {out.strip()}"
    return None


def run_case(case, ns):
    err = run_steps(ns, case.get("setup", []), "setup")
    if err:
        return err
    rc, out = run(ns, case["cmdUnderTest"])
    if rc != int(case["expExitCode"]):
        return (f"'{case['cmdUnderTest']}' exited {rc}, expected "
                f"{case['expExitCode']}: {out.strip()}")
    if "matchPattern" in case:
        rc, out = run(ns, case["verifyCmd"])
        n = len(re.findall(case["matchPattern"], out, re.MULTILINE))
        if n != int(case["matchCount"]):
            return (f"'{case['matchPattern']}' matched {n} times, expected "
                    f"{case['matchCount']}, in the output of "
                    f"'{case['verifyCmd']}':\n{out.rstrip()}")
        if case.get("matchJSON"):
            try:
                json.loads(out)
            except ValueError as e:
                return f"'{case['verifyCmd']}' is not valid JSON: {e}"
    return run_steps(ns, case.get("teardown", []), "teardown")


def main():
    cases = json.load(open(sys.argv[1]))
    wanted = set(sys.argv[2:])
    if wanted:
        cases = [c for c in cases if c["id"] in wanted]
    print("TAP version 13")
    print(f"1..{len(cases)}")
    failed = 0
    ns = f"tdc-{os.getpid()}"
    enter_netns(ns)
    for i, case in enumerate(cases, 1):
        try:
            rc, out = run(ns, f"ip link add {DEV1} up type dummy")
            err = f"creating {DEV1} failed: {out}" if rc else run_case(case, ns)
        except subprocess.TimeoutExpired as e:
            err = f"timed out: {e.cmd}"
        # the next case starts from a new device (the qdisc goes with it)
        run(ns, f"ip link del {DEV1}")
        if err:
            failed += 1
            print(f"not ok {i} - {case['id']}: {case['name']}")
            for line in err.splitlines():
                print(f"#   {line}")
        else:
            print(f"ok {i} - {case['id']}: {case['name']}")
    subprocess.run(["ip", "netns", "del", ns])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
