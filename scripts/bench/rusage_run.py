#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs one benchmark command and records the exact user+sys CPU seconds of
# the whole child (all its threads, via os.wait4's rusage) and the wall time,
# so scripts/bench/vs-fio.sh can compare the CPU cost per I/O of iospd and fio.
"""usage: rusage_run.py --stdout F --stderr F --rusage F [--timeout S] -- CMD...

Writes CMD's stdout/stderr to the given files and a JSON document
{"user": s, "sys": s, "wall": s, "status": code, "timed_out": bool} to the
--rusage file. Exits with CMD's exit code (124 if it was killed by --timeout,
128+signal if a signal ended it)."""

import json
import os
import signal
import sys
import time


def parse_args(argv):
    opts = {"--stdout": None, "--stderr": None, "--rusage": None,
            "--timeout": "0"}
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] not in opts or i + 1 >= len(argv):
            raise SystemExit(__doc__)
        opts[argv[i]] = argv[i + 1]
        i += 2
    cmd = argv[i + 1:]
    if not cmd or None in (opts["--stdout"], opts["--stderr"],
                           opts["--rusage"]):
        raise SystemExit(__doc__)
    return opts, cmd


def main(argv):
    opts, cmd = parse_args(argv)
    actions = [
        (os.POSIX_SPAWN_OPEN, 1, opts["--stdout"],
         os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, opts["--stderr"],
         os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
    ]
    start = time.monotonic()
    try:
        pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions)
    except OSError as e:
        sys.stderr.write("rusage_run: cannot start %s: %s\n" % (cmd[0], e))
        return 127
    timed_out = []

    # A hung tool must not stall the whole benchmark: kill it after
    # --timeout seconds. wait4 is retried by Python after the handler runs.
    def on_alarm(_sig, _frame):
        timed_out.append(True)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timeout = int(opts["--timeout"])
    if timeout > 0:
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(timeout)
    _, status, ru = os.wait4(pid, 0)
    signal.alarm(0)
    wall = time.monotonic() - start
    if timed_out:
        code = 124
    elif os.WIFSIGNALED(status):
        code = 128 + os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
    with open(opts["--rusage"], "w") as f:
        json.dump({"user": ru.ru_utime, "sys": ru.ru_stime, "wall": wall,
                   "status": code, "timed_out": bool(timed_out)}, f)
        f.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
