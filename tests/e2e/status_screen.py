#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks what the live status line (--progress) left in a captured stream.

Usage: status_screen.py <command> <file> [args]
  lines <file>          print each status line drawn (one per line)
  screen <file>         print the screen a terminal shows at the end
  after-erase <file>    print what follows the last erase of the status line,
                        with the pty's CR LF turned back into LF
  last-erased <file>    exit 1 unless the last status line drawn is erased
                        before any other byte is written
A tiny terminal: printable bytes overwrite at the cursor, CR goes to column
0, BS one column left, LF to the next row, ESC [K erases to the end of the
row. That is all iospd writes; wine's console on a terminal adds ESC [nC
(cursor forward) and ESC [?25l / ESC [?25h (hide / show the cursor). Any
other escape sequence is an error, so an unexpected byte makes the test fail
instead of passing unseen.
"""
import re
import sys

STATUS = re.compile(rb"(?:\A|\r)(?:\x1b\[\?25[lh])*(\d+/\d+ (?:warm-up|measuring|cool-down)[^\r\n\x1b\b]*)")
FORWARD = re.compile(rb"\x1b\[(\d*)C")
CURSOR = re.compile(rb"\x1b\[\?25[lh]")
ERASE = b"\r\x1b[K"


def screen(data: bytes):
    rows = [[]]
    row = col = 0
    i = 0
    while i < len(data):
        b = data[i]
        if data.startswith(b"\x1b[K", i):
            del rows[row][col:]
            i += 3
            continue
        m = FORWARD.match(data, i)
        if m:
            col += int(m.group(1) or 1)
            i = m.end()
            continue
        m = CURSOR.match(data, i)
        if m:
            i = m.end()
            continue
        if b == 0x1B:
            raise SystemExit(f"unexpected escape sequence at byte {i}: {data[i:i + 8]!r}")
        if b == 0x0D:
            col = 0
        elif b == 0x0A:
            row += 1
            if row == len(rows):
                rows.append([])
        elif b == 0x08:
            col = max(col - 1, 0)
        else:
            line = rows[row]
            while len(line) < col:
                line.append(" ")
            if col < len(line):
                line[col] = chr(b)
            else:
                line.append(chr(b))
            col += 1
        i += 1
    return ["".join(r).rstrip() for r in rows]


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    data = open(path, "rb").read()
    if cmd == "lines":
        for m in STATUS.finditer(data):
            # A console pads with spaces and backs up over them.
            sys.stdout.write(m.group(1).decode().rstrip(" ") + "\n")
    elif cmd == "screen":
        for r in screen(data):
            print(r)
    elif cmd == "after-erase":
        at = data.rfind(ERASE)
        if at < 0:
            raise SystemExit("no erase sequence (CR ESC [K) in " + path)
        rest = data[at + len(ERASE):].replace(b"\r\n", b"\n")
        sys.stdout.buffer.write(rest)
    elif cmd == "last-erased":
        last = None
        for m in STATUS.finditer(data):
            last = m
        if last is None:
            raise SystemExit("no status line in " + path)
        after = data[last.end():last.end() + 16]
        if not after.startswith(b"\x1b[K" + ERASE):
            raise SystemExit(f"the last status line is followed by {after!r}")
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main()
