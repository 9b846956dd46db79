#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Differential test (issue #2): a few hundred DISKSPD 2.2 command lines are run
# through `iospd -Rpxml` and compared with an independent model of DISKSPD
# (diskspd_model.py); invalid lines must exit 3 naming the bad switch.
# Valid lines: exact profile XML, DISKSPD's warning lines on stderr as the
# model prints them (iospd's own warnings iff the model expects one), an -X
# round trip of the output (plus -d/-W/-C/-z/-v/-vs/-: overrides on every
# 4th line). Hand-written lines plus fixed-seed generated ones.
#
# usage: profile_diff_test.py <path to iospd> [-v]   (-v lists every case)

import difflib
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diskspd_model import model  # noqa: E402

SEED = 20261129
N_RANDOM_VALID = 240
N_MUTATED_INVALID = 45
N_NEAR_MISS_INVALID = 45
# Applied to every 4th valid line's -Rpxml output loaded again with -X.
OVERRIDES = ['-d7', '-W3', '-C2', '-z9', '-v', '-vs', '-:4']

# Lines where iospd is believed wrong (see the report of the test author).
# They still run; a failure is reported as "known failure", a pass as a
# failure telling you to empty the entry. Key: the line as written below.
KNOWN_IOSPD_BUGS = {}

# ------------------------------------------------------------ hand-written

VALID = [
  # sizes and suffixes
  '-b4K t.dat', '-b8k t.dat', '-b1M t.dat', '-b1m t.dat', '-b512 t.dat',
  '-b1G t.dat', '-b4294967294 t.dat', '-b2K -b16K t.dat',
  '-c1T t.dat', '-c0 t.dat', '-c10b -b4K t.dat', '-c64M t.dat', '-c1g t.dat',
  '-c3b t.dat', '-c100 t.dat',
  # random / sequential / mixed (DISKSPD's -r/-s/-rs rules) and the b first-pass rule
  '-r t.dat', '-r4K t.dat', '-b4K -r2b t.dat', '-r2b -b8K t.dat',
  '-r -b8K t.dat', '-r512 t.dat', '-r1m t.dat',
  '-s t.dat', '-s8K t.dat', '-s0 t.dat', '-s3b -b4K t.dat', '-s1M t.dat',
  '-si t.dat', '-si -t2 t.dat', '-si16K -t4 t.dat', '-si -F2 t.dat',
  '-si0 -t2 t.dat', '-si2b -t3 -b512 t.dat',
  '-rs50 t.dat', '-rs1 t.dat', '-rs99 t.dat', '-rs100 t.dat',
  '-rs50 -r8K t.dat', '-r8K -rs50 t.dat', '-rs50 -r t.dat',
  '-r -rs50 t.dat', '-rs100 -r t.dat', '-r -rs100 t.dat',
  '-rs30 -b4K t.dat', '-rs100 -r4K t.dat',
  '-p -o4 t.dat', '-p -o1 t.dat', '-p -s8K -o4 t.dat', '-p -o8 -t2 t.dat',
  '-T4K -t2 t.dat', '-T1M -F4 t.dat', '-T1b -t2 -b4K t.dat',
  '-s64K -T8K -t4 t.dat', '-t2 t.dat', '-F3 t.dat',
  # distributions with holes and tails
  '-r -rdpct90/10 t.dat', '-r -rdpct90/10:10/90 t.dat',
  '-r -rdpct10/10:10/10:0/10 t.dat', '-r -rdpct0/50 t.dat',
  '-r -rdpct100/50:0/50 t.dat', '-r -rdpct50/50:50/50 t.dat',
  '-rs50 -rdpct70/30 t.dat', '-r -rdpct0/10:0/10:50/30 t.dat',
  '-r -rdabs10/1G:10/1G:0/100G t.dat', '-r -rdabs90/1G t.dat',
  '-b4K -r -rdabs50/2b:50/10M t.dat', '-r -rdabs100/64K t.dat',
  '-r -rdabs0/1M:30/64K t.dat', '-rdabs20/1t -r t.dat',
  '-rdpct5/1:95/99 -rs20 t.dat',
  # base / max offsets
  '-B4K t.dat', '-B1M:1G t.dat', '-B0:64K t.dat', '-B1b:2b -b4K t.dat',
  '-f1G t.dat', '-f100b -b512 t.dat', '-B1M -f2M t.dat', '-B0 t.dat',
  '-f4096 t.dat', '-B3:5 t.dat', '-f0 t.dat', '-B0:0 t.dat', '-S -Sw t.dat',
  '-Smb t.dat', '-rs100 -r4K -rs30 t.dat', '-F1 -si t.dat', '-a007 t.dat',
  '-F2 -O2 -si t.dat', '-p -o4 -T4K -t2 t.dat',
  # hints, cache modes
  '-fr t.dat', '-fs t.dat', '-ft t.dat', '-frst t.dat', '-frs t.dat',
  '-fts t.dat', '-fr -fs t.dat',
  '-S t.dat', '-Su t.dat', '-Sb t.dat', '-Sw t.dat', '-Sbw t.dat',
  '-Swb t.dat', '-Sh t.dat', '-Suw t.dat', '-Swu t.dat', '-Sm t.dat',
  '-Smw t.dat', '-Swm t.dat', '-Sb -Sw t.dat', '-Sw -Su t.dat',
  '-Sm -Nv t.dat', '-Sm -NV t.dat', '-Smw -Nv t.dat', '-Nv -Sm t.dat',
  '-Su -Sw t.dat', '-Sm -Sw t.dat', '-Sw -S t.dat', '-h t.dat',
  '-Sbm t.dat', '-Sw -Sm t.dat',
  # throughput
  '-g100 t.dat', '-g1 t.dat', '-b4K -g10i t.dat', '-g10i -b4K t.dat',
  '-g1000i t.dat', '-b512 -g2i t.dat', '-g2147483647 t.dat',
  '-g65536i -b64K t.dat', '-g10i -g100 t.dat', '-g100 -g10i t.dat',
  '-D500 -D t.dat', '-D500 -D0 t.dat', '-Z1M,f -Z2M t.dat',
  # burst, priority, misc per-target
  '-i4 -j10 t.dat', '-i1 -j1 t.dat', '-j5 -i100 t.dat',
  '-I1 t.dat', '-I2 t.dat', '-I3 t.dat', '-l t.dat', '-o1 t.dat',
  '-o64 t.dat', '-w0 t.dat', '-w100 t.dat', '-w50 t.dat', '-w1 t.dat',
  # timespan-wide
  '-L t.dat', '-D t.dat', '-D0 t.dat', '-D500 t.dat', '-D1 t.dat',
  '-d0 t.dat', '-d60 t.dat', '-W0 t.dat', '-W10 t.dat', '-C0 t.dat',
  '-C5 t.dat', '-d t.dat', '-d3600 -W600 -C60 t.dat',
  '-z t.dat', '-z5 -z t.dat', '-z0 t.dat', '-z7 t.dat', '-z4294967295 t.dat',
  '-z123456 t.dat',
  '-Z t.dat', '-Zr t.dat', '-Z1M t.dat', '-Z64K t.dat', '-Z1M,zsrc.bin t.dat',
  '-Z1M, t.dat', '-Z2b -b4K t.dat', '-Zr -Z t.dat', '-Zr -Z2M t.dat',
  '-Z128K,a,b t.dat', '-Z1M -Z t.dat', '-Z -Z1M t.dat',
  '-F4 -O8 t.dat', '-F2 t.dat', '-F1 -t1 t.dat', '-O4 t.dat',
  '-F8 -O1 -r t.dat',
  '-t4 -o8 -w30 t.dat', '-t1 t.dat',
  '-a t.dat', '-ag t.dat', '-a0 t.dat', '-a0,1,2,3 t.dat', '-ag0,0,1 t.dat',
  '-ag0,0,1,2,g1,0,1,2 t.dat', '-a0 -a1 t.dat', '-a255 t.dat',
  '-ag65535,0 t.dat', '-a3,2,1,0 -t4 t.dat', '-a0,g2,5 t.dat', '-n t.dat',
  '-n -a t.dat',
  '-P t.dat', '-P0 t.dat', '-P100 t.dat', '-P65535 t.dat',
  '-v t.dat', '-vs t.dat', '-v -vs t.dat',
  '-:1 t.dat', '-:0 t.dat', '-:5 t.dat', '-:255 t.dat',
  '-Rtext t.dat', '-Rxml t.dat', '-RXML t.dat', '-Rp t.dat', '-Rp -R t.dat',
  '-Rxml -Rp t.dat',
  '-Rptext t.dat', '-RpText t.dat',
  # targets
  'a.dat b.dat c.dat', '-b4K -r -w30 a.dat b.dat', '/tmp/iospd-abs.dat',
  "'my file.dat'", "'a&b<c>.dat'", "-Z1M,'x&y.bin' t.dat", 'dir/sub/x.bin',
  '-c1M x1 x2 x3 x4 x5', "\"it's.dat\"", 'donn\u00e9es.dat',
  '-ysgo -yfdone -yrready -ypstop t.dat',
  # boundaries, repeats (last wins), bare lenient switches, Windows targets
  '-c18014398509481983K t.dat', '-B18014398509481983K t.dat',
  '-b4K -g1048575i t.dat', '-b1M -g4095999i t.dat', '-W t.dat', '-C t.dat',
  '-: t.dat', '-o4 -o8 t.dat', '-w10 -w20 t.dat', '-t2 -t3 t.dat',
  '-d5 -d6 t.dat', '-c1M -c2M t.dat', '-I1 -I2 t.dat', '-z1 -z2 t.dat',
  '-P5 -P t.dat', '-a0 -a t.dat', '-ag1,0 -a1 t.dat', '-v -v t.dat',
  '-i2 -i3 -j1 t.dat', '-Rxml -Rtext t.dat', '-c2B -b4K t.dat',
  '-rdabs50/2b:50/1b -r -b4K t.dat', '-B1K:1K t.dat', '-s1 t.dat',
  '-F2 -T1 t.dat', '-s0 -s t.dat', '-s0 -r t.dat', '-s0 -rs50 t.dat',
  '-s0 -s4K t.dat', '-si0 -s -t2 t.dat', '-t200 -o1024 t.dat', '-b1 -r1 t.dat',
  "'#1' t.dat", 'C: t.dat', "'#12'", 'k1 k2 k3 k4 k5 k6 k7 k8 k9 k10',
  # the real samples' lines
  '-c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat',
  '-c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat',
  '-c32M -d2 -W0 -b8K -F4 -r -o4 -w30 -Sh -a0,1 a.dat b.dat',
  '-c64M -d2 -W0 -b4K -r -rdpct90/10:10/90 -o4 -t1 -L -z7 c.dat',
  '-c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 -Rxml d.dat',
]

# Each must be refused with exit 3. Optional second item: text one of which
# stderr must contain (default: what the model names).
INVALID = [
  # -b and sizes
  '-b0 t', '-b4KB t', '-b4294967295 t', '-b t', '-b-1 t', '-bx t', '-b10a t',
  '-b18014398509481984K t', '-b4G t', '-b+4K t', "'-b4 K' t",
  # -c -B -f
  '-c t', '-c10x t', '-cK t', '-c1MB t',
  '-B t', '-B4Kx t', '-B4K: t', '-B4K:x t', '-B4K -B8K t',
  '-B4K:1M -f2M t', '-f1M -B0:1M t', '-f1M -f2M t', '-f t', '-fx t', '-fp t',
  '-f1Mx t', '-frx t', '-B1M -f1M t', '-B2M -f1M t', '-B2M:0 t',
  '-B18446744073709551615:1 t', '-B1K:1KB t',
  # -r -s -rs (DISKSPD's -r/-s/-rs rules)
  '-r0 t', '-r4KB t', '-rx t', '-rs t', '-rs0 t', '-rs101 t', '-rs50x t',
  '-rs-5 t', '-rs50 -rs60 t', '-rs50 -rs100 t', '-r -s t', '-s -r t',
  '-rs50 -s t', '-s -rs50 t', '-s -s8K t', '-r -r t', '-r8K -r4K t',
  '-r -rs50 -r t', '-s8K -r t', '-si -r t', '-sx t', '-s4KB t', '-si -si t',
  '-r -T4K -t2 t', '-r -p t', '-rs50 -p -o4 t', '-rs20 -T1M -t2 t',
  # -rd
  '-r -rd t', '-r -rdxyz10/10 t', '-r -rdpct t', '-r -rdpct10 t',
  '-r -rdpct10/0 t', '-r -rdpct10/101 t', '-r -rdpct101/10 t',
  '-r -rdpct60/50:50/50 t', '-r -rdpct10/10: t', '-r -rdpct10/10x t',
  '-r -rdabs10/0 t', '-r -rdabs10/1Kx t', '-r -rdpct50/50 -rdpct50/50 t',
  '-rdpct90/10 t', '-s -rdpct90/10 t', '-r -rdpct50/60:10/50 t',
  '-r -rdpct50/100 t', '-r -rdpct100/50 t', '-b4K -r -rdabs50/2K t',
  '-r -rdpct-1/10 t', '-r -rdabs t', '-r -rdabs10:1G t',
  '-r -rdpct10/10,20/20 t', '-r -rdabs100/1b -b512 -rdabs1/1 t',
  # -S / -h / -N (DISKSPD's -S/-h letters)
  '-S -Su t', '-Sub t', '-Sbu t', '-Smu t', '-Sum t', '-Sb -h t',
  '-h -Sb t', '-Suw -h t', '-h -Suw t', '-Sh -Sw t', '-Sb -Sb t',
  '-Sm -Sm t', '-Sx t', '-Sm -h t', '-Sh -Sm t', '-Sbb t', '-Sww t',
  '-Shh t', '-Su -S t', '-h -h t', '-hx t', '-Nv t', '-Nx t', '-Nvv t',
  '-N t', '-Sw -Nv t', '-Su -Sm t',
  # -g
  '-g t', '-gi t', '-g0 t', '-g0i t', '-gi100 t', '-g100x t',
  '-b512 -g1i t', '-g4294967296 t', '-b1M -g5000000i t', '-g-5 t',
  # -i -j -I
  '-i4 t', '-j10 t', '-i0 -j1 t', '-i4x -j1 t', '-i1 -j0 t',
  '-I0 t', '-I4 t', '-I t', '-Ix t', '-I1x t',
  # bare switches with junk
  '-l5 t', '-Lx t', '-nx t', '-px t', '-Zrr t', '-vx t', '-v2 t',
  # -n/-a, -o -O -F -t -T
  '-n -a0 t', '-a0 -n t',
  '-o0 t', '-o t', '-o8x t', '-o-1 t', '-o4294967296 t',
  '-O0 t', '-O4x t', '-F0 t', '-F2 -t2 t', '-t3 -F1 t',
  '-F2 -O2 -g100 t', '-F2 -O2 -i1 -j1 t', '-F2 -O2 -p t',
  '-t0 t', '-t t', '-t2x t', '-T0 -t2 t', '-T -t2 t', '-Tx -t2 t',
  '-T4K t', '-si -T4K -t2 t', '-si -p -t2 t', '-T4KB -t2 t',
  # -w -W -C -d -D -P -: -z
  '-w t', '-w101 t', '-wabc t', '-w50% t', '-w-1 t',
  '-W-1 t', '-Wx t', '-W5s t', '-C-1 t', '-Cx t',
  '-d-5 t', '-d10s t', '-d4294967296 t', '-D-1 t', '-Dx t', '-D5ms t',
  '-P-1 t', '-Px t', '-:x t', '-:-1 t', '-:4294967296 t',
  '-z-1 t', '-z4294967296 t', '-zabc t', '-z1x t',
  # -Z
  '-Z0 t', '-Zx t', '-Z1Kx t', '-b64K -Z4K t', '-Z0,f t', '-Z1K,f t',
  # -a (DISKSPD's -a syntax; docs/compat-differences.md)
  '-a-1 t', '-a1,,2 t', '-a1, t', '-ag1 t', '-agg1,0 t', '-ag,0 t',
  '-a256 t', '-ag65536,0 t', '-ax t', '-a0,g1 t', '-a,0 t', '-a0x t',
  '-a0,g1,2,g3 t',
  # -R -v
  # (a bare -R is valid here: the harness puts -Rpxml first)
  '-Rfoo t', '-Rpfoo t', '-Rx t', '-Rpp t', '-Rxml -Rpfoo t',
  # over DISKSPD's atoi limit, 2147483647
  '-o2147483648 t', '-t4294967295 t', '-d4294967295 t', '-g2147483648 t',
  '-D99999999999 t', '-:2147483648 t',
  # unknown letters, odd arguments, ordering, -X
  '-q5 t', '-k t', '-U t', '-M t', '-Q t',
  "'' t", "-b4K '' t",
  '\u2013b4K t', '\u2014b4K t', '\u2212b4K t',
  't -b4K', 'a.dat -r b.dat', '-b4K',
  '-b4K -Xprofile.xml t', '-Xa.xml -Xb.xml', '-o2 -Xprofile.xml',
  '-Xprofile.xml -o2',
  # more conflicts and boundaries
  '-h -Sm t', '-Sm -Su t', '-Sw -h t', '-F1 -T4K t', '-si -p t',
  '-r -rdpct50/50:0/50 t', '-b4K -g4096000i -b1M t', '-b1M -g4096000i t',
  '-c18014398509481984K t', '-B18014398509481984K t', '-Z1M -b2M t',
  '-rs50 -si t', '-si -rs50 t', '-si0 -r t', '-si0 -rs10 -t2 t',
  '-rdabs50/1b -r -b4K -rdabs1/1M t',
  '-B1K:0 t', '-f0x t', '-w100x t', '-ag0 t', '-a0,,1 t', '-Sb -S t',
  '-Sm -S t', '-Su -h t', '-rs50 -r -r t', '-r4K -r t',
  '-p -o4 -T4K t', '-SH t', '-SB t', '-fR t', '-ZR t', '-rS50 t',
  '-r -rdPCT10/10 t',
  '-sI t', '-vS t', '-nV t',
  '-b64K -Z1K -Z t', '-f0 -f1M t', '-f0 -B0:1M t', '-rs50 -r4K -rs60 t',
  '-s -rs100 t', '-rs100 -r4K -r t', '-F1 -T4K -p t',
]

# DISKSPD 2.3 (--diskspd=2.3 is put first): its switches, forms and limits.
VALID23 = [
  '-u t.dat', '-un t.dat', '-u8 t.dat', '-un50p t.dat', '-u007 t.dat',
  '-u08p t.dat', '-u65536 t.dat', '-u100p -o32 t.dat', '-u4 -u t.dat',
  '-oc1 t.dat', '-oc16 t.dat', '-oc8x t.dat', '-oc08 t.dat', '-oc4 -oc2 t.dat',
  '-bsn t.dat', '-bsp t.dat', '-bsn -b4K t.dat', '-b4K -bsp t.dat',
  '-bsp -l t.dat', '-bsn -l t.dat',
  '-ac t.dat', '-as t.dat', '-acs t.dat', '-acsE t.dat', '-aPc t.dat',
  '-ae t.dat', '-aE t.dat', '-ap t.dat', '-aP t.dat', '-aup t.dat',
  '-aup -acs t.dat', '-ac -aE t.dat', '-a t.dat', '-ag t.dat',
  '-a0 t.dat', '-a0,2-5,7 t.dat', '-ag0,0-10,15-20 t.dat', '-ag1 t.dat',
  '-ag1 -ag0 t.dat', '-a3,1,2 t.dat', '-a1 -a1 t.dat', '-ag0,1 -ag0 t.dat',
  '-a0,g2,5 t.dat', '-a63 t.dat', '-a0-63 t.dat', '-ac -a0,1 t.dat',
  '-a2-2 t.dat', '-ag3,0-3 -a4 t.dat', '-n t.dat', '-o65536 t.dat',
  '-F2 -O65536 t.dat', '-u -Sh -L -r -w30 -b8K -o16 -t4 t.dat',
  '-b4K -o64 -t2 -u8 -Su t.dat', '-b4K -o8 -t4 -oc4 -r t.dat',
  '-b64K -o2 -t1 -s -w100 a.dat b.dat', '-oc4 -Sh t.dat',
  '-u -Zr -w50 t.dat', '-u -D500 -F2 -O8 t.dat',
]
INVALID23 = [
  '-u0 t', '-u65537 t', '-u0p t', '-u101p t', '-u-1 t', '-u+1 t', '-u8x t',
  '-u1.5 t', '-u50% t', '-up t', '-unn t', '-u8pp t',
  '-oc0 t', '-oc17 t', '-oc t', '-ocx t', '-oc-1 t',
  '-bs t', '-bsx t', '-bsnn t', '-bsp4K t', '-bsP t',
  '-ae -aE t', '-aPE t', '-aep t', '-ap -aup t', '-aup -aE t', '-au t',
  '-aupc t', '-acx t', '-aq t', '-ac0 t',
  '-a64 t', '-a0-64 t', '-a5-2 t', '-a2- t', '-a0,,1 t', '-a0, t',
  '-ag0,g1,0 t', '-a0,g1 t', '-ag65536 t', '-a0x t',
  '-Suy t', '-ShY t', '-Sy t', '-SY -Su t',
  '-n -ac t', '-aup -n t', '-n -a t', '-n -ag0 t', '-n -a0 t',
  '-o65537 t', '-F2 -O65537 t', '-u -Sm t', '-oc4 -Sm t',
  '--diskspd=2.4 t', '--diskspd t',
]
# At 2.2 (no level switch) each 2.3 form is refused as DISKSPD 2.3's.
INVALID23_AT22 = [
  '-u t', '-un8p t', '-oc8 t', '-bsn t', '-ac t', '-aup t', '-a0,2-5 t',
  '-ag1 t',
]

# Messages the model cannot derive from one switch: which words must appear.
NEEDLE_OVERRIDE = {
  '-b4K': ['target'],
  "'' t": ['empty', "''"],
  "-b4K '' t": ['empty', "''"],
}

# ------------------------------------------------------------ generator

BLOCKS = ['', '-b4K', '-b8K', '-b512', '-b64K', '-b1M', '-b2K', '-b16k',
          '-b128K', '-b4096']


def gen_pattern(rng):
  """IO pattern switches, as an ordered list (DISKSPD's -r/-s/-rs rules; DISKSPD's -rd rules)."""
  kind = rng.choice(['seq', 'seq', 'rand', 'rand', 'mixed', 'si', 'p'])
  out = []
  if kind == 'seq':
    out = [rng.choice(['', '-s', '-s8K', '-s2b', '-s0', '-s1M', '-s512'])]
  elif kind == 'si':
    out = [rng.choice(['-si', '-si4K', '-si2b', '-si64K'])]
  elif kind == 'p':
    out = ['-p', rng.choice(['', '-s', '-s16K', '-s1b'])]
  elif kind == 'rand':
    out = [rng.choice(['-r', '-r4K', '-r2b', '-r512', '-r1M', '-r8k',
                       '-rs100', '-rs100 -r4K', '-r -rs100'])]
  else:
    pct = rng.choice([1, 10, 30, 50, 75, 99])
    out = [rng.choice(['-rs%d' % pct, '-rs%d -r4K' % pct, '-r2b -rs%d' % pct,
                       '-rs%d -r' % pct])]
  if kind in ('rand', 'mixed') and rng.random() < 0.4:
    out.append(gen_dist(rng))
  return [w for s in out for w in s.split()], kind


def gen_dist(rng):
  if rng.random() < 0.5:
    pairs, io, tg = [], 0, 0
    for _ in range(rng.randint(1, 4)):
      a = rng.choice([0, 5, 10, 20, 30, 50])
      a = min(a, 100 - io)
      t = rng.choice([1, 5, 10, 20, 25])
      if tg + t >= 100:
        break
      pairs.append('%d/%d' % (a, t))
      io += a
      tg += t
    if not pairs:
      pairs = ['90/10']
    if rng.random() < 0.4 and io < 100:
      pairs.append('%d/%d' % (100 - io, 100 - tg))
    return '-rdpct' + ':'.join(pairs)
  pairs, io = [], 0
  for _ in range(rng.randint(1, 3)):
    a = min(rng.choice([0, 10, 25, 40, 60]), 100 - io)
    pairs.append('%d/%s' % (a, rng.choice(['1G', '10G', '1M', '512M', '4b',
                                           '100b', '2T', '64M'])))
    io += a
  return '-rdabs' + ':'.join(pairs)


def gen_valid(rng):
  groups = []
  blk = rng.choice(BLOCKS)
  if blk:
    groups.append([blk])
  pat, kind = gen_pattern(rng)
  pat = [w for w in pat if w]
  if pat:
    groups.append(pat)
  # threads
  thr = rng.choice(['', '-t1', '-t2', '-t4', '-F2', '-F4', '-F3 -O16',
                    '-F1'])
  if thr:
    groups.append(thr.split())
  multi = thr in ('-t2', '-t4', '-F2', '-F4', '-F3 -O16')
  if kind in ('seq', 'p') and multi and rng.random() < 0.5:
    groups.append([rng.choice(['-T4K', '-T1M', '-T2b', '-T1G'])])
  if rng.random() < 0.6:
    groups.append(['-o%d' % rng.choice([1, 2, 4, 8, 16, 32, 128])])
  if rng.random() < 0.6:
    groups.append(['-w%d' % rng.choice([0, 10, 25, 50, 70, 100])])
  if rng.random() < 0.5:
    groups.append(rng.choice(['-Sh', '-Su', '-Sb', '-Sw', '-Suw', '-Sbw',
                              '-S', '-h', '-Sm', '-Smw', '-Sm -Nv',
                              '-Sw -Su', '-Sb -Sw']).split())
  if rng.random() < 0.3:
    groups.append([rng.choice(['-B4K', '-B1M:1G', '-B2b', '-B0:10G',
                               '-f1G', '-f10b', '-B8K -f1M'])])
    if groups[-1][0].startswith('-B8K'):
      groups[-1] = ['-B8K', '-f1M']
  if rng.random() < 0.4:
    groups.append(['-c' + rng.choice(['64M', '1G', '0', '100b', '2T', '1'])])
  if rng.random() < 0.25 and '-F3' not in thr:
    groups.append(['-g' + rng.choice(['100', '1000', '5', '100i', '2500i',
                                      '1i'])])
  if rng.random() < 0.2 and '-O16' not in thr:
    groups.append(['-i%d' % rng.randint(1, 64), '-j%d' % rng.randint(1, 500)])
  if rng.random() < 0.2:
    groups.append(['-I%d' % rng.randint(1, 3)])
  if rng.random() < 0.2:
    groups.append([rng.choice(['-fr', '-fs', '-ft', '-frst', '-fst'])])
  for sw, pr in (('-l', .15), ('-L', .4), ('-Zr', .1), ('-v', .1),
                 ('-vs', .1)):
    if rng.random() < pr:
      groups.append([sw])
  if rng.random() < 0.3:
    groups.append([rng.choice(['-D', '-D100', '-D0', '-D2000'])])
  for sw, vals in (('-d', [0, 1, 2, 30, 120]), ('-W', [0, 1, 5, 15]),
                   ('-C', [0, 1, 3]), ('-z', [0, 1, 7, 99999, 4294967295]),
                   ('-P', ['', 0, 1000, 32]), ('-:', [0, 1, 3])):
    if rng.random() < 0.3:
      groups.append(['%s%s' % (sw, rng.choice(vals))])
  if rng.random() < 0.25:
    groups.append([rng.choice(['-Z', '-Z1M', '-Z4M,zsrc.bin', '-Z16M,',
                               '-Z8b'])])
  aff = rng.random()
  if aff < 0.15:
    groups.append(['-n'])
  elif aff < 0.35:
    groups.append([rng.choice(['-a', '-ag', '-a0', '-a0,1', '-a1,0,3',
                               '-ag0,0,1,g1,0,1', '-a2 -a3'])])
    groups[-1] = groups[-1][0].split()
  if rng.random() < 0.2:
    groups.append([rng.choice(['-Rtext', '-Rxml', '-Rp', '-RpXML'])])
  rng.shuffle(groups)
  args = [w for g in groups for w in g]
  ntg = rng.choice([1, 1, 1, 2, 3])
  return args + ['g%d_%d.dat' % (len(args), i) for i in range(ntg)]


BAD_TOKENS = [
  '-o0', '-o2x', '-t0', '-w101', '-wabc', '-b0', '-b4KB', '-I7', '-g0',
  '-gi', '-rs0', '-r0', '-Sx', '-Zx', '-z-3', '-d-1', '-W9x', '-C1.5',
  '-a1,,2', '-a256', '-R', '-Rhtml', '-vv', '-q', '-fq', '-B4Kz', '-T0',
  '-c', '-Lz', '-P-2', '-F0', '-O0', '-N', '-rdfoo1/1',
]


# Switches that are fine alone but break validation (DISKSPD's profile validation) in some lines;
# the model decides which combinations are invalid.
CONFLICT_TOKENS = [
  '-T4K', '-p', '-n', '-i5', '-j5', '-Nv', '-F2', '-t2', '-rdpct10/10',
  '-rdabs10/1b', '-Z1K', '-f1', '-B1T', '-si', '-O4', '-h', '-Sm', '-r',
  '-s', '-rs50', '-a0', '-g10', '-g1i',
]


def gen_near_miss(rng, valid_lines):
  base = rng.choice(valid_lines)
  sw = [a for a in base if a.startswith('-')]
  tg = [a for a in base if not a.startswith('-')]
  pos = rng.randint(0, len(sw))
  tok = rng.choice(CONFLICT_TOKENS)
  if tok.startswith('-Z') and any(a.startswith('-Z') for a in sw):
    tok = '-T4K'   # -Z with -Z<size>: see KNOWN_IOSPD_BUGS
  return sw[:pos] + [tok] + sw[pos:] + tg


def gen_invalid(rng, valid_lines):
  base = rng.choice(valid_lines)
  sw = [a for a in base if a.startswith('-')]
  tg = [a for a in base if not a.startswith('-')]
  pos = rng.randint(0, len(sw))
  bad = rng.choice(BAD_TOKENS)
  return sw[:pos] + [bad] + sw[pos:] + tg


# ------------------------------------------------------------ runner

def split(line):
  return list(line) if isinstance(line, list) else shlex.split(line)


def with_rpxml(argv, front=False):
  if front:
    return ['-Rpxml'] + argv
  i = 0
  while i < len(argv) and argv[i].startswith('-'):
    i += 1
  return argv[:i] + ['-Rpxml'] + argv[i:]


def run(exe, argv, cwd):
  p = subprocess.run([exe] + argv, cwd=cwd, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, timeout=30)
  return p.returncode, p.stdout.decode('utf-8', 'replace'), \
      p.stderr.decode('utf-8', 'replace')


def diff(a, b, na='expected (model)', nb='iospd'):
  d = list(difflib.unified_diff(a.splitlines(), b.splitlines(), na, nb,
                                lineterm=''))
  return '\n'.join('    ' + x for x in d[:20])


def show(argv):
  return ' '.join(shlex.quote(a) for a in argv)


def at22(argv):
  """DISKSPD 2.2's lines run at --diskspd=2.2 (iospd's default is 2.3);
  a line that names its level keeps it."""
  if any(a.startswith('--diskspd') for a in argv):
    return argv
  return ['--diskspd=2.2'] + argv


def check_valid(exe, argv, cwd, overrides=False):
  """Returns None on success, else a description."""
  argv = at22(argv)
  full = with_rpxml(argv)
  kind, exp, warnings = model(full)
  if kind != 'ok':
    return 'MODEL refuses its own valid line: %s' % exp
  rc, out, err = run(exe, full, cwd)
  if rc != 0:
    return 'exit %d (want 0); stderr: %s' % (rc, err.strip()[:300])
  got = out
  if '<RandSeed>*</RandSeed>' in exp:
    got = re.sub(r'<RandSeed>[0-9]+</RandSeed>', '<RandSeed>*</RandSeed>', out)
  if got != exp:
    return 'profile XML differs:\n' + diff(exp, got)
  # Validation warnings (DISKSPD's profile validation) go to stderr: DISKSPD's exact lines in its
  # order, and iospd's own ("warning: ...") only where the model has one.
  want_ds = [w for w in warnings if w.startswith('WARNING: ')]
  want_own = len(want_ds) != len(warnings)
  got_ds = [ln for ln in err.splitlines() if ln.startswith('WARNING')]
  if got_ds != want_ds or want_own != ('warning:' in err):
    return 'warnings differ: model expects %r; stderr: %s' % (
        warnings, err.strip()[:300])
  path = os.path.join(cwd, 'rt.xml')
  with open(path, 'w', encoding='utf-8') as f:
    f.write(out)
  level = [a for a in argv if a.startswith('--diskspd=')]
  rc, out2, err = run(exe, level + ['-X' + path, '-Rpxml'], cwd)
  if rc != 0:
    return 'round trip -X exit %d; stderr: %s' % (rc, err.strip()[:300])
  if out2 != out:
    return 'round trip differs:\n' + diff(out, out2, 'first -Rpxml',
                                          '-X round trip')
  if overrides:
    # 1.2 step 4: -d -W -C -z -v -vs -: override the loaded profile. They
    # are plain last-wins scalars, so the model sees them appended.
    sw = [a for a in argv if a.startswith('-')]
    tg = [a for a in argv if not a.startswith('-')]
    kind, exp2, _ = model(with_rpxml(sw + OVERRIDES + tg))
    rc, out3, err = run(exe, level + ['-X' + path] + OVERRIDES + ['-Rpxml'],
                        cwd)
    if rc != 0:
      return '-X with overrides exit %d; stderr: %s' % (rc,
                                                        err.strip()[:300])
    if out3 != exp2:
      return '-X with overrides differs:\n' + diff(exp2, out3)
  return None


def check_invalid(exe, argv, cwd, needles):
  argv = at22(argv)
  full = with_rpxml(argv, front=True)
  kind, reason, mneedles = model(full)
  if kind != 'invalid':
    return 'MODEL accepts its own invalid line'
  needles = needles or mneedles
  rc, out, err = run(exe, full, cwd)
  if rc != 3:
    return 'exit %d (want 3; model: %s); stderr: %s' % (
        rc, reason, err.strip()[:300])
  if not err.strip():
    return 'exit 3 but stderr is empty'
  if needles and not any(n in err for n in needles):
    return 'message names none of %r (model: %s); stderr: %s' % (
        needles, reason, err.strip()[:300])
  return None


def main():
  if len(sys.argv) < 2:
    print('usage: profile_diff_test.py <iospd> [-v]', file=sys.stderr)
    return 2
  exe = os.path.abspath(sys.argv[1])
  verbose = '-v' in sys.argv[2:]
  rng = random.Random(SEED)

  valid = [(l, split(l)) for l in VALID]
  seen = set(tuple(a) for _, a in valid)
  tries = 0
  while len(valid) < len(VALID) + N_RANDOM_VALID and tries < 20000:
    tries += 1
    argv = gen_valid(rng)
    if tuple(argv) in seen or model(with_rpxml(at22(argv)))[0] != 'ok':
      continue
    seen.add(tuple(argv))
    valid.append((show(argv), argv))
  d23 = ['--diskspd=2.3']
  valid += [('2.3: ' + l, d23 + split(l)) for l in VALID23]
  # Generated 2.2 lines with a 2.3 token added, run at 2.3.
  tokens23 = ['-u', '-un', '-u8', '-u50p', '-oc4', '-oc16', '-bsn', '-bsp',
              '-ac', '-acs', '-aE', '-aup', '-a0,2-3', '-ag0', '-ag0,0-1']
  base = [a for _, a in valid[len(VALID):len(VALID) + N_RANDOM_VALID]]
  for i, argv in enumerate(base[:80]):
    tok = tokens23[i % len(tokens23)]
    sw = [a for a in argv if a.startswith('-')]
    tg = [a for a in argv if not a.startswith('-')]
    line = d23 + sw + [tok] + tg
    if model(with_rpxml(line))[0] == 'ok':
      valid.append((show(line), line))
  invalid = [(l, split(l)) for l in INVALID]
  invalid += [('2.3: ' + l, d23 + split(l)) for l in INVALID23]
  invalid += [('2.2: ' + l, split(l)) for l in INVALID23_AT22]
  gen = 0
  while gen < N_MUTATED_INVALID:
    argv = gen_invalid(rng, [a for _, a in
                               valid[len(VALID):len(VALID) + N_RANDOM_VALID]])
    if model(with_rpxml(at22(argv), True))[0] != 'invalid':
      continue
    invalid.append((show(argv), argv))
    gen += 1
  gen = 0
  while gen < N_NEAR_MISS_INVALID:
    argv = gen_near_miss(rng, [a for _, a in
                                 valid[len(VALID):len(VALID) + N_RANDOM_VALID]])
    if model(with_rpxml(at22(argv), True))[0] != 'invalid':
      continue
    invalid.append((show(argv), argv))
    gen += 1

  passed = failed = known = nvalid = 0
  with tempfile.TemporaryDirectory(prefix='iospd-diff-') as cwd:
    open(os.path.join(cwd, 'zsrc.bin'), 'wb').close()
    cases = [('valid', l, a) for l, a in valid] + \
        [('invalid', l, a) for l, a in invalid]
    for kind, line, argv in cases:
      if kind == 'valid':
        nvalid += 1
        why = check_valid(exe, argv, cwd, overrides=nvalid % 4 == 0)
      else:
        why = check_invalid(exe, argv, cwd, NEEDLE_OVERRIDE.get(line))
      if line in KNOWN_IOSPD_BUGS:
        if why:
          known += 1
          print('known failure [%s] %s: %s\n  %s' % (
              kind, line, KNOWN_IOSPD_BUGS[line], why))
        else:
          failed += 1
          print('FAIL [%s] %s: listed in KNOWN_IOSPD_BUGS but passes now; '
                'remove it from the list' % (kind, line))
        continue
      if why:
        failed += 1
        print('FAIL [%s] %s\n  %s' % (kind, line, why))
      else:
        passed += 1
        if verbose:
          print('ok   [%s] %s' % (kind, line))
  print('%d valid lines, %d invalid lines, %d known iospd failures '
        '(KNOWN_IOSPD_BUGS)' % (len(valid), len(invalid), known))
  print('%d passed, %d failed' % (passed, failed))
  return 1 if failed else 0


if __name__ == '__main__':
  sys.exit(main())
