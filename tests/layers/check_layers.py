#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Layers point down: reads the #include lines of every source file and
fails on one that points up (a platform file including a run or report
header, the core including an OS header, base including anything above it).

The layers, lowest first, and the headers of each, are in layers.txt beside
this script; a folder's files sit on its folder's layer. A file may include
the headers of its own layer and of every layer below it, with one
exception: the platform folders (src/posix, src/win) sit beside the core,
not on top of it, and may include only base headers, the platform
interface and their own folder's headers. Known violations, each with the
issue that removes it, are in exceptions.txt: the test fails on any other,
and on an exception that no longer happens (so the list only shrinks).

Usage: check_layers.py [--root DIR] [--self-check]
Prints every violation as "file: #include "header": rule" and exits 1 when
there is one; 0 otherwise, with a count of the files and includes read.
"""
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
OS_HEADERS = re.compile(
    r'^(windows\.h|winternl\.h|winioctl\.h|ioringapi\.h|unistd\.h|pthread\.h|'
    r'liburing\.h|libaio\.h|fcntl\.h|sys/.*|linux/.*|dirent\.h|poll\.h|'
    r'sched\.h|signal\.h|dlfcn\.h|termios\.h|aclapi\.h|psapi\.h|'
    r'powrprof\.h|shlwapi\.h|sddl\.h|io\.h|process\.h)$')


def read_table(path):
    """layers.txt: "layer NAME folder... : header..." lines, lowest first."""
    order, folders, headers = [], {}, {}
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            left, _, right = line.partition(':')
            words = left.split()
            if len(words) < 1 or words[0] != 'layer':
                raise SystemExit(f'{path}: not a layer line: {raw.rstrip()}')
            name = words[1]
            order.append(name)
            for d in words[2:]:
                folders[d] = name
            for h in right.split():
                headers[h] = name
    return order, folders, headers


def read_exceptions(path):
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            src, _, hdr = line.partition(' ')
            out[(src, hdr.strip())] = raw.rstrip()
    return out


def layer_of_file(rel, folders):
    best = None
    for d, name in folders.items():
        if rel == d or rel.startswith(d.rstrip('/') + '/'):
            if best is None or len(d) > len(best[0]):
                best = (d, name)
    return best[1] if best else None


def check(root, table_path, exc_path):
    order, folders, headers = read_table(table_path)
    rank = {n: i for i, n in enumerate(order)}
    exceptions = read_exceptions(exc_path)
    seen_exc = set()
    bad = []
    files = includes = 0
    for top in ('src', 'include'):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if not n.endswith(('.c', '.h')):
                    continue
                path = os.path.join(dirpath, n)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                # A public header sits on its own layer; a source file on
                # its folder's.
                if rel.startswith('include/iospd/'):
                    mine = headers.get(rel[len('include/iospd/'):])
                else:
                    mine = layer_of_file(rel, folders)
                if mine is None:
                    bad.append(f'{rel}: it has no layer in layers.txt')
                    continue
                files += 1
                platform = mine == 'platform'
                with open(path, encoding='utf-8', errors='replace') as f:
                    for line in f:
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        includes += 1
                        kind, hdr = m.group(1), m.group(2)
                        why = None
                        if kind == '<':
                            if not platform and OS_HEADERS.match(hdr):
                                why = ('the core includes an OS header; move '
                                       'that code behind include/iospd/'
                                       'platform.h')
                        elif (not platform and
                              hdr.split('/', 1)[0] in ('posix', 'win')):
                            why = ('the core includes a platform folder\'s '
                                   'own header; call include/iospd/'
                                   'platform.h instead')
                        elif hdr.startswith('iospd/'):
                            h = hdr[len('iospd/'):]
                            hl = headers.get(h)
                            if hl is None:
                                why = 'the header has no layer in layers.txt'
                            elif platform:
                                if hl not in ('base', 'platform'):
                                    why = (f'a platform file includes a {hl} '
                                           'header; platform code may include '
                                           'only base headers and the '
                                           'platform interface')
                            elif hl == 'platform':
                                pass  # the core calls down into the platform
                            elif rank[hl] > rank[mine]:
                                why = (f'a {mine} file includes a {hl} header: '
                                       f'{hl} is above {mine}')
                        if why is None:
                            continue
                        key = (rel, hdr)
                        if key in exceptions:
                            seen_exc.add(key)
                            continue
                        bad.append(f'{rel}: #include {m.group(1)}{hdr}'
                                   f'{">" if kind == "<" else chr(34)}: {why}')
    for key, raw in exceptions.items():
        if key not in seen_exc:
            bad.append(f'exceptions.txt: "{raw}" no longer happens; remove '
                       'the line')
    return bad, files, includes


def self_check():
    """The checker fails where it must: a platform file that includes a run
    header and one that includes a report header, a base file that includes
    a stats header, and the core including an OS header; and passes a tree
    that keeps the rules."""
    table = os.path.join(HERE, 'layers.txt')
    cases = {
        'src/posix/x.c': '#include "iospd/run.h"\n',
        'src/report/v.c': '#include "posix/internal.h"\n',
        'src/win/y.c': '#include "iospd/report.h"\n',
        'src/base/z.c': '#include "iospd/hist.h"\n',
        'src/run/w.c': '#include <unistd.h>\n',
    }
    fine = {'src/posix/ok.c': '#include <unistd.h>\n#include "iospd/alloc.h"\n'
                              '#include "iospd/platform.h"\n',
            'src/run/ok.c': '#include "iospd/hist.h"\n#include "iospd/platform.h"\n'}
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for rel, text in fine.items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), 'w') as f:
                f.write(text)
        bad, _, _ = check(d, table, os.path.join(d, 'none.txt'))
        if bad:
            print('self-check: a tree that keeps the rules was refused:', bad)
            failures += 1
        for rel, text in cases.items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)
            bad, _, _ = check(d, table, os.path.join(d, 'none.txt'))
            if not any(b.startswith(rel + ':') for b in bad):
                print(f'self-check: {rel} with {text.strip()} was not refused')
                failures += 1
            else:
                print(f'self-check: refused as it must be: '
                      f'{[b for b in bad if b.startswith(rel)][0]}')
            os.remove(p)
    return failures


def main():
    root = os.path.normpath(os.path.join(HERE, '..', '..'))
    args = sys.argv[1:]
    if '--root' in args:
        root = args[args.index('--root') + 1]
    if '--self-check' in args:
        n = self_check()
        print(f'layers self-check: {6 - n} passed, {n} failed')
        return 1 if n else 0
    bad, files, includes = check(root, os.path.join(HERE, 'layers.txt'),
                                 os.path.join(HERE, 'exceptions.txt'))
    for b in bad:
        print(b)
    print(f'layers: {files} files, {includes} includes read, '
          f'{len(bad)} violations')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
