#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Types <line><TAB> into an interactive `bash --norc` on a pseudo-terminal
# that has sourced <iospd.bash>, and prints the command line as readline
# left it, so a test sees what a user sees (COMP_WORDBREAKS cutting, the
# space after a finished word, none after --engine=).
# Usage: completion_bash_pty.py <iospd.bash> <dir> <line>
import os
import pty
import re
import select
import sys
import time

comp_file, workdir, line = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]


def read_for(fd, seconds, until=None):
    """Reads for `seconds`, or until the bytes `until` arrived."""
    out = b""
    end = time.time() + seconds
    while time.time() < end and (until is None or until not in out):
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


pid, fd = pty.fork()
if pid == 0:
    os.chdir(workdir)
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
# Ctrl-T prints the line being edited (READLINE_LINE) between <L> and </L>.
# The markers are spelled differently in the commands (\x3c is '<'), so
# their echo does not match them.
setup = ("PS1='<P''>'; . '%s'; bind -x '\"\\C-t\": "
         "printf \"\\x3cL>%%s\\x3c/L>\\n\" \"$READLINE_LINE\"'\n" % comp_file)
os.write(fd, setup.encode())
read_for(fd, 10.0, b"<P>")
# Readline handles keys in order, so Ctrl-T runs after the completion.
os.write(fd, line.encode() + b"\t\x14")
out = read_for(fd, 10.0, b"</L>").decode(errors="replace")
# Ctrl-U drops the line unrun; then leave.
os.write(fd, b"\x15exit\n")
read_for(fd, 0.5)
os.waitpid(pid, 0)
found = re.findall(r"<L>(.*?)</L>", out)
print("[%s]" % found[-1] if found else "<no line: %r>" % out)
