# SPDX-License-Identifier: MIT
# Independent Python model of DISKSPD 2.2's command line -> profile XML
# (docs: diskspd-behaviour.md 1.1-1.10 and 5.3) and, with --diskspd=2.3,
# 2.3's (diskspd-2.3-behaviour.md: -u, -oc, -bs, the -a forms, the limits,
# the 2.3 profile elements; -Sy/-SY refused as on Linux), adjusted to the refusals
# iospd makes on purpose (docs/compat-differences.md). Used by
# profile_diff_test.py; written from the spec, not from iospd's C code.

import re

U32 = (1 << 32) - 1
# DISKSPD reads most numbers with atoi, which (MSVC) saturates at INT_MAX;
# iospd refuses what DISKSPD would change.
I32 = (1 << 31) - 1
U64 = (1 << 64) - 1
DEFAULT_BLOCK = 65536

# Deliberate iospd output differences from DISKSPD 2.2 that the model follows
# (stated in src/profile/xml_profile_write.c's header, not yet in
# docs/compat-differences.md). With False the model prints DISKSPD's bytes:
# - -Zr adds <RandomWriteData>true</RandomWriteData> after RandSeed
#   (DISKSPD drops it, 5.3 [quirk], so -Zr was lost on a round trip);
# - Path and FilePath text is XML-escaped (&, <, >); DISKSPD writes it raw.
IOSPD_DELIBERATE = True


class Invalid(Exception):
  """The line must be refused (exit 3). `needles`: text one of which the
  message should contain (the offending switch or its letter group)."""

  def __init__(self, reason, *needles):
    super().__init__(reason)
    self.reason = reason
    self.needles = [n for n in needles if n]


class Target:
  def __init__(self, path):
    self.path = path
    self.block = DEFAULT_BLOCK
    self.base = 0
    self.seq_scan = False
    self.rand_access = False
    self.temporary = False
    self.large_pages = False
    self.cache = 'cached'          # cached | os | local
    self.write_through = False
    self.mmap = False
    self.flush = None              # ViewOfFile | ...
    self.zero = False
    self.rnd_size = 0              # -Z<size>
    self.rnd_file = None
    self.parallel = False
    self.burst = None              # -i given
    self.think = None              # -j given
    self.file_size = None          # -c given
    self.ratio = 0                 # R: 0 seq, 100 random, 1..99 mixed
    self.align = 0                 # A: 0 = not stated
    self.interlocked = False
    self.thread_stride = 0
    self.max_size = 0
    self.requests = 2
    self.write_ratio = 0
    self.throughput = 0            # bytes per ms
    self.iops = None               # IOPS figure if given with 'i'
    self.threads = 1
    self.priority = 3
    self.weight = 1
    self.dist_kind = None          # 'Percent' | 'Absolute'
    self.dist = []                 # [(io%, len)] as stated, plus tail


class Profile:
  def __init__(self):
    self.progress = 0
    self.flags = 0
    self.fmt = 'text'
    self.profile_only = False
    self.verbose = False
    self.verbose_stats = False
    # timespan
    self.latency = False
    self.iops_stddev = False
    self.no_affinity = False
    self.duration = 10
    self.warmup = 5
    self.cooldown = 0
    self.thread_count = 0
    self.ts_requests = 0
    self.bucket = 1000
    self.seed = 0
    self.random_write_data = False
    self.affinity = []             # [(group, cpu)]; cpu None = whole group
    self.targets = []
    self.warnings = []
    # DISKSPD 2.3 (--diskspd=2.3; diskspd-2.3-behaviour.md)
    self.level = 22
    self.ioring = None             # (registered, batch, percent)
    self.core_aware = False
    self.span = False
    self.efficiency = 'PFirst'
    self.order_set = False
    self.bufsep = None             # 'PDECacheLine' | 'SystemDefault'
    self.cdepth = None             # -oc
    self.a_given = False
    self.bufsep_given = False


# ---------------------------------------------------------------- numbers

def parse_size(text, block, cont=False):
  """Size parser (DISKSPD's size parsing). Returns (value, rest); rest is '' unless cont."""
  m = re.match(r'[0-9]+', text)
  if not m:
    raise ValueError('Invalid integer')
  value = int(m.group(0))
  if value > U64:
    raise ValueError('overflow')
  rest = text[m.end():]
  if rest:
    mult = {'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40,
            'b': block}.get(rest[0].lower())
    if mult is not None:
      value *= mult
      rest = rest[1:]
      if value > U64:
        raise ValueError('overflow')
    elif not cont:
      raise ValueError('Invalid size')
  if rest and not cont:
    raise ValueError('Unrecognized characters after size')
  return value, rest


def strict_uint(text, lo=0, hi=U32):
  """iospd's replacement for DISKSPD's atoi: whole decimal, lo..hi."""
  if not re.fullmatch(r'[0-9]+', text):
    raise ValueError('not a number')
  v = int(text)
  if v < lo or v > hi:
    raise ValueError('out of range')
  return v


# ---------------------------------------------------------------- parsing

def is_switch(arg):
  # On Linux only '-' starts a switch (compat-differences: platform rules).
  return arg.startswith('-')


LOOKALIKE_DASHES = ('\u2013', '\u2014', '\u2212')


def parse(argv):
  """argv without argv[0]. Returns a Profile or raises Invalid."""
  if not argv:
    raise Invalid('no arguments')
  switches, targets = [], []
  for arg in argv:
    if arg == '':
      raise Invalid('empty argument')
    if arg.startswith(LOOKALIKE_DASHES):
      raise Invalid('lookalike dash', arg)
    if is_switch(arg):
      if targets:
        raise Invalid('switch after target', arg)
      switches.append(arg)
    else:
      targets.append(arg)

  # --diskspd= is read before everything (the last one counts); 2.3 is the
  # default, as iospd's.
  level = 23
  for arg in switches:
    if arg.startswith('--diskspd='):
      w = arg[len('--diskspd='):]
      if w not in ('2.2', '2.3'):
        raise Invalid('bad --diskspd', arg)
      level = 22 if w == '2.2' else 23
  # Pass 1: the final -b is the block unit for every other switch.
  block = DEFAULT_BLOCK
  xml = None
  for arg in switches:
    body = arg[1:]
    if body.startswith('bs'):
      continue                                  # -bs: never a block size
    if body.startswith('b'):
      try:
        v, _ = parse_size(body[1:], block)
      except ValueError:
        raise Invalid('bad -b', arg, '-b')
      if v == 0 or v >= 4294967295:
        raise Invalid('bad -b', arg, '-b')
      block = v
    if body.startswith('X'):
      raise Invalid('-X not modelled here', arg, '-X')

  p = Profile()
  p.level = level
  for path in targets:
    t = Target(path)
    t.block = block
    p.targets.append(t)
  proto = Target('')
  proto.block = block
  st = {'C': None, 'W': None, 'M': None, 'B': 0, 'maxoff': 0, 'rd': 0,
        'ZrSeen': False}
  for arg in switches:
    try:
      apply_switch(p, proto, st, arg, block)
    except Invalid as e:
      if not e.needles:
        e.needles = [arg]
      raise
    except ValueError as e:
      raise Invalid(str(e), arg)

  # -S/-h accumulated state (DISKSPD's -S/-h letters)
  if st['C'] is not None:
    proto.cache = st['C']
  if st['W']:
    proto.write_through = True
  if st['M']:
    proto.mmap = True

  if not targets:
    raise Invalid('no targets')
  for t in p.targets:
    path = t.path
    t.__dict__.update(proto.__dict__)
    t.path = path
  validate(p, proto)
  return p


def apply_switch(p, t, st, arg, block):
  body = arg[1:]
  if not body:
    raise Invalid('bare dash', arg)
  c, v = body[0], body[1:]

  def num(lo=0, hi=I32):
    try:
      return strict_uint(v, lo, hi)
    except ValueError:
      raise Invalid('bad number for -' + c, arg, '-' + c)

  def size(text=None, cont=False):
    try:
      return parse_size(v if text is None else text, block, cont)
    except ValueError:
      raise Invalid('bad size for -' + c, arg, '-' + c)

  if arg.startswith('--diskspd='):
    return                                   # read first
  if c == '-':
    raise Invalid('unknown long option', arg)
  if c == 'b' and v.startswith('s'):
    if p.level < 23:
      raise Invalid('-bs is 2.3', arg, 'DISKSPD 2.3')
    if v[1:] not in ('p', 'n'):
      raise Invalid('bad -bs', arg)
    p.bufsep = 'PDECacheLine' if v[1:] == 'p' else 'SystemDefault'
    p.bufsep_given = p.bufsep == 'PDECacheLine'
    return
  if c == 'b':
    return                                   # pass 1
  if c == 'o' and v.startswith('c'):
    if p.level < 23:
      raise Invalid('-oc is 2.3', arg, 'DISKSPD 2.3')
    m = re.match(r'[+-]?([0-9]*)', v[1:])    # atoi: leading digits
    n = int(m.group(1)) if m.group(1) else 0
    if v[1:].startswith('-'):
      n = -n
    if n < 1 or n > 16:
      raise Invalid('-oc range', arg)
    p.cdepth = n
    return
  if c == 'u':
    if p.level < 23:
      raise Invalid('-u is 2.3', arg, 'DISKSPD 2.3')
    m = re.fullmatch(r'(n?)([0-9]*)(p?)', v)
    if not m or (m.group(3) and not m.group(2)):
      raise Invalid('bad -u', arg)
    reg = not m.group(1)
    if not m.group(2):
      p.ioring = (reg, 25, True)
      return
    n = int(m.group(2))
    pct = bool(m.group(3))
    if n < 1 or n > (100 if pct else 65536):
      raise Invalid('-u range', arg)
    p.ioring = (reg, n, pct)
    return
  if c == ':':
    p.flags = num() if v else 0
  elif c == 'a':
    if p.level >= 23:
      p.a_given = True
      parse_affinity_23(p, v, arg)
      return
    if v in ('', 'g'):
      return
    if v[0] in 'csPpeEu' or re.search(r'[0-9]-[0-9]', v) or \
        re.fullmatch(r'g[0-9]+', v):
      raise Invalid('2.3 form of -a', arg, 'DISKSPD 2.3')
    p.affinity.extend(parse_affinity(v, arg))
  elif c == 'B':
    if st['B']:
      raise Invalid('-B twice', arg, '-B')
    st['B'] += 1
    if not v:
      raise Invalid('bare -B', arg, '-B')
    base, rest = size(cont=True)
    length = None
    if rest:
      if rest[0] != ':':
        raise Invalid('junk after -B base', arg, '-B')
      if len(rest) == 1:
        raise Invalid('-B no length', arg, '-B')
      length, _ = size(rest[1:])
      if base + length > U64:
        raise Invalid('-B overflow', arg, '-B')
    t.base = base
    if length is not None:
      if st['maxoff']:
        raise Invalid('max offset twice', arg, '-B')
      st['maxoff'] += 1
      t.max_size = base + length
  elif c == 'c':
    if not v:
      raise Invalid('bare -c', arg, '-c')
    t.file_size, _ = size()
  elif c == 'C':
    p.cooldown = num() if v else 0           # bare: atoi('') = 0
  elif c == 'd':
    if v == '':
      p.duration = 0
      p.warnings.append('-d')
    else:
      p.duration = num()
  elif c == 'D':
    p.iops_stddev = True
    if v:
      n = num()
      if n > 0:
        p.bucket = n
  elif c == 'f':
    if v and v[0].isdigit():
      if st['maxoff']:
        raise Invalid('max offset twice', arg, '-f')
      st['maxoff'] += 1
      t.max_size, _ = size()
    else:
      if not v or any(ch not in 'rst' for ch in v):
        raise Invalid('bad -f hint', arg, '-f')
      for ch in v:
        if ch == 'r':
          t.rand_access = True
        elif ch == 's':
          t.seq_scan = True
        else:
          t.temporary = True
  elif c == 'F':
    p.thread_count = num(1)
  elif c == 'g':
    m = re.fullmatch(r'([0-9]+)(i?)', v)
    if not m:
      raise Invalid('bad -g', arg, '-g')
    n = int(m.group(1))
    if n == 0 or n > I32:
      raise Invalid('bad -g', arg, '-g')
    if m.group(2):
      bpms = n * block // 1000
      if bpms < 1 or bpms > U32:
        raise Invalid('-g IOPS conversion out of range', arg, '-g')
      t.throughput = bpms
      t.iops = n
    else:
      t.throughput = n
      t.iops = None
  elif c == 'h':
    if v:
      raise Invalid('-h junk', arg, '-h')
    if st['C'] is not None or st['W'] is not None:
      raise Invalid('-h conflicts', arg, '-h')
    st['C'] = 'os'
    st['W'] = True
  elif c == 'i':
    t.burst = num(1)
  elif c == 'I':
    t.priority = num(1, 3)
  elif c == 'j':
    t.think = num(1)
  elif c == 'l':
    if v:
      raise Invalid('-l junk', arg, '-l')
    t.large_pages = True
  elif c == 'L':
    if v:
      raise Invalid('-L junk', arg, '-L')
    p.latency = True
  elif c == 'n':
    if v:
      raise Invalid('-n junk', arg, '-n')
    p.no_affinity = True
  elif c == 'N':
    if len(v) != 1 or v.lower() not in 'v':
      raise Invalid('bad -N (only -Nv on Linux)', arg, '-N')
    t.flush = 'ViewOfFile'
  elif c == 'o':
    t.requests = num(1)
  elif c == 'O':
    p.ts_requests = num(1)
  elif c == 'p':
    if v:
      raise Invalid('-p junk', arg, '-p')
    t.parallel = True
  elif c == 'P':
    n = num() if v else 0
    p.progress = n if n > 0 else 65536
  elif c == 'r':
    if v.startswith('s'):
      if v == 's':
        raise Invalid('bare -rs', arg, '-rs')
      try:
        pct = strict_uint(v[1:], 1, 100)
      except ValueError:
        raise Invalid('bad -rs', arg, '-rs')
      if t.ratio == 0 and t.align:
        raise Invalid('-rs after -s', arg, '-rs', '-s')
      if t.ratio not in (0, 100):
        raise Invalid('-rs twice', arg, '-rs')
      t.ratio = pct
    elif v.startswith('d'):
      st['rd'] += 1
      if st['rd'] > 1:
        raise Invalid('-rd twice', arg, '-rd')
      parse_distribution(t, v[1:], block, arg)
    else:
      a = block
      if v:
        a, _ = size()
        if a == 0:
          raise Invalid('-r0', arg, '-r')
      if t.ratio == 0:
        t.ratio = 100
      elif t.ratio == 100 and t.align:
        raise Invalid('-r twice', arg, '-r')
      if t.align:
        raise Invalid('-r after -s', arg, '-r', '-s')
      t.align = a
  elif c == 'R':
    w = v.lower()
    if w == '' and p.profile_only:
      return  # a bare -R after -Rp is accepted and changes nothing (DISKSPD's switch rules)
    if w.startswith('p'):
      p.profile_only = True
      w = w[1:]
      if w == '':
        return
    if w not in ('text', 'xml'):
      raise Invalid('bad -R', arg, '-R')
    p.fmt = w
  elif c == 's':
    if v.startswith('i'):
      t.interlocked = True
      v = v[1:]
    a = block
    if v:
      # -s0 leaves A at 0 ("not stated", 1.6): the stride is the block
      # size, yet a later -s/-r/-rs sees no earlier stride.
      a, _ = size(v)
    if t.ratio == 100:
      raise Invalid('-s with -r', arg, '-s', '-r')
    if 0 < t.ratio < 100:
      raise Invalid('-s with -rs', arg, '-s', '-rs')
    if t.align:
      raise Invalid('-s twice', arg, '-s')
    t.align = a
  elif c == 'S':
    letters = v if v else None
    if letters is None:
      if st['C'] is not None or st['M'] is not None:
        raise Invalid('-S conflicts', arg, '-S')
      st['C'] = 'os'
      return
    for ch in letters:
      if ch == 'b':
        if st['C'] is not None:
          raise Invalid('-Sb conflict', arg, '-S')
        st['C'] = 'cached'
      elif ch == 'u':
        if st['C'] is not None or st['M'] is not None:
          raise Invalid('-Su conflict', arg, '-S')
        st['C'] = 'os'
      elif ch == 'w':
        if st['W'] is not None:
          raise Invalid('-Sw conflict', arg, '-S')
        st['W'] = True
      elif ch == 'm':
        if st['M'] is not None or st['C'] == 'os':
          raise Invalid('-Sm conflict', arg, '-S')
        st['M'] = True
      elif ch == 'h':
        if any(st[k] is not None for k in 'CWM'):
          raise Invalid('-Sh conflict', arg, '-S')
        st['C'] = 'os'
        st['W'] = True
      elif ch in 'yY':
        # BypassIO: DISKSPD 2.3's, Windows only (refused on Linux)
        raise Invalid('-Sy/-SY', arg)
      else:
        # includes -Sr, which iospd refuses on Linux
        raise Invalid('bad -S letter', arg, '-S')
  elif c == 't':
    t.threads = num(1)
  elif c == 'T':
    if not v:
      raise Invalid('bare -T', arg, '-T')
    t.thread_stride, _ = size()
    if t.thread_stride == 0:
      raise Invalid('-T0', arg, '-T')
  elif c == 'v':
    if v == '':
      p.verbose = True
    elif v == 's':
      p.verbose_stats = True
    else:
      raise Invalid('bad -v', arg, '-v')
  elif c == 'w':
    if v == '':
      raise Invalid('bare -w', arg, '-w')
    t.write_ratio = num(0, 100)
  elif c == 'W':
    p.warmup = num() if v else 0
  elif c == 'y':
    if len(v) < 2 or v[0] not in 'sfrp':
      raise Invalid('bad -y', arg, '-y')
  elif c == 'z':
    if v == '':
      p.seed = None                          # tick count: unpredictable
    else:
      p.seed = num(0, U32)                   # strtoul: 32-bit unsigned
  elif c == 'Z':
    if v == '':
      t.zero = True
    elif v == 'r':
      p.random_write_data = True
    else:
      sz, _, path = v.partition(',')
      n, _ = size(sz)
      if n == 0:
        raise Invalid('-Z0', arg, '-Z')
      t.rnd_size = n
      t.rnd_file = path if path else None
  else:
    raise Invalid('unknown switch', arg)


def parse_affinity(v, arg):
  out = []
  group = 0
  pending_group = False
  items = v.split(',')
  for item in items:
    if item == '':
      raise Invalid('empty affinity item', arg, '-a')
    if item[0] == 'g':
      n = item[1:]
      if not re.fullmatch(r'[0-9]+', n):
        raise Invalid('bad affinity group', arg, '-a')
      group = int(n)
      if group > 65535:
        raise Invalid('group out of range', arg, '-a')
      pending_group = True
    else:
      if not re.fullmatch(r'[0-9]+', item):
        raise Invalid('bad affinity cpu', arg, '-a')
      cpu = int(item)
      if cpu > 255:
        raise Invalid('cpu out of range', arg, '-a')
      out.append((group, cpu))
      pending_group = False
  if pending_group:
    raise Invalid('group without cpu', arg, '-a')
  return out


def parse_affinity_23(p, v, arg):
  """DISKSPD 2.3's -a: letters c s p P e E, -aup, or a list with ranges,
  CPUs 0-63, a lone g<n> for the whole group."""
  if v in ('', 'g'):
    return
  if not (v[0].isdigit() or v[0] == 'g'):
    if v[0] == 'u':
      if v != 'up':
        raise Invalid('bad -au', arg)
      letters = ['U']
    else:
      letters = list(v)
    for ch in letters:
      if ch == 'c':
        p.core_aware = True
      elif ch == 's':
        p.span = True
      elif ch in 'pPeEU':
        if p.order_set:
          raise Invalid('two efficiency orders', arg)
        p.order_set = True
        p.efficiency = {'p': 'PFirst', 'P': 'FillPFirst', 'e': 'EFirst',
                        'E': 'FillEFirst', 'U': 'Unordered'}[ch]
      else:
        raise Invalid('bad -a letter', arg)
    return
  m = re.fullmatch(r'g([0-9]+)', v)
  if m:
    g = int(m.group(1))
    if g > 65535:
      raise Invalid('group out of range', arg)
    p.affinity.append((g, None))
    return
  group = 0
  pending = False
  for item in v.split(','):
    if item.startswith('g'):
      if pending or not re.fullmatch(r'[0-9]+', item[1:]):
        raise Invalid('bad group item', arg)
      group = int(item[1:])
      if group > 65535:
        raise Invalid('group out of range', arg)
      pending = True
      continue
    m = re.fullmatch(r'([0-9]+)(?:-([0-9]+))?', item)
    if not m:
      raise Invalid('bad cpu item', arg)
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if lo > 63 or hi > 63 or hi < lo:
      raise Invalid('cpu range', arg)
    for cpu in range(lo, hi + 1):
      p.affinity.append((group, cpu))
    pending = False
  if pending:
    raise Invalid('group without cpus', arg)


def group_masks(affinity):
  """[(group, mask)] in first-appearance order; mask 0 = whole group."""
  order, masks, whole = [], {}, set()
  for g, cpu in affinity:
    if g not in masks:
      order.append(g)
      masks[g] = 0
    if cpu is None:
      whole.add(g)
    else:
      masks[g] |= 1 << cpu
  return [(g, 0 if g in whole else masks[g]) for g in order]


def parse_distribution(t, v, block, arg):
  if v.startswith('pct'):
    kind, spec = 'Percent', v[3:]
  elif v.startswith('abs'):
    kind, spec = 'Absolute', v[3:]
  else:
    raise Invalid('bad -rd type', arg, '-rd')
  pairs = []
  io_sum = 0
  tgt_sum = 0
  for item in spec.split(':'):
    io, sep, rest = item.partition('/')
    if not re.fullmatch(r'[0-9]+', io) or not sep:
      raise Invalid('bad -rd pair', arg, '-rd')
    io = int(io)
    if io > 100 - io_sum:
      raise Invalid('-rd IO% over 100', arg, '-rd')
    if kind == 'Percent':
      if not re.fullmatch(r'[0-9]+', rest):
        raise Invalid('bad -rd target%', arg, '-rd')
      ln = int(rest)
      if ln < 1 or ln > 100:
        raise Invalid('bad -rd target%', arg, '-rd')
    else:
      try:
        ln, _ = parse_size(rest, block)
      except ValueError:
        raise Invalid('bad -rd size', arg, '-rd')
      if ln == 0:
        raise Invalid('zero -rd size', arg, '-rd')
    pairs.append((io, ln))
    io_sum += io
    tgt_sum += ln
  if io_sum < 100:
    if kind == 'Percent':
      if tgt_sum < 100:
        pairs.append((100 - io_sum, 100 - tgt_sum))
      else:
        t.dist_bad = 'target covered with IO% left'
    else:
      pairs.append((100 - io_sum, 0))
  t.dist_kind = kind
  t.dist = pairs


# ---------------------------------------------------------------- validation

# DISKSPD's validation warnings (DISKSPD's profile validation), exactly as it prints them to stderr;
# iospd prints the same lines (each followed by a "note: ..." of its own).
# The model's other warnings are iospd's own ("warning: ...").
W_PARALLEL = ('WARNING: -p does not have effect unless outstanding I/O count '
              '(-o) is > 1')
W_SI_SINGLE = 'WARNING: single-threaded test, -si ignored'
W_NOT_SEQUENTIAL = ('WARNING: target access pattern will not be sequential, '
                    'consider -si')

def validate(p, t):
  errs = []
  multi = p.thread_count > 1 or t.threads > 1
  if p.no_affinity and p.affinity:
    errs.append(('-n with -a', '-n', '-a'))
  if p.thread_count > 0 and t.threads > 1:
    errs.append(('-F with -t', '-F', '-t'))
  if bool(t.burst) != bool(t.think):
    errs.append(('-i without -j', '-i', '-j'))
  if p.thread_count > 0 and p.ts_requests > 0:
    if t.throughput:
      errs.append(('-g with -O', '-g', '-O'))
    if t.think:
      errs.append(('-j with -O', '-j', '-O'))
    if t.parallel:
      errs.append(('-p with -O', '-p', '-O'))
  elif p.ts_requests > 0:
    p.warnings.append('-O without -F')
  if t.ratio > 0:
    if t.thread_stride:
      errs.append(('-T with -r', '-T', '-r'))
    if t.interlocked:
      errs.append(('-si with -r', '-si', '-s', '-r'))
    if t.parallel:
      errs.append(('-p with -r', '-p', '-r'))
  else:
    if t.dist_kind:
      errs.append(('-rd with sequential', '-rd', 'distribution'))
    if t.parallel and t.requests == 1:
      p.warnings.append(W_PARALLEL)
    if t.interlocked:
      if t.thread_stride:
        errs.append(('-si with -T', '-si', '-T'))
      if t.parallel:
        errs.append(('-si with -p', '-si', '-p'))
      if not multi:
        p.warnings.append(W_SI_SINGLE)
    else:
      if multi and not t.thread_stride:
        p.warnings.append(W_NOT_SEQUENTIAL)
      if not multi and t.thread_stride:
        errs.append(('-T single thread', '-T'))
  if t.dist_kind:
    if getattr(t, 'dist_bad', None):
      errs.append(('-rd target covered', '-rd', 'distribution'))
    if t.dist_kind == 'Percent':
      if sum(ln for _, ln in t.dist) != 100:
        errs.append(('-rd target% total', '-rd', 'distribution'))
    else:
      for io, ln in t.dist[:-1] if t.dist[-1][1] == 0 else t.dist:
        if ln < t.block:
          errs.append(('-rd abs range below block size', '-rd',
                       'distribution'))
  if t.rnd_size and t.rnd_size < t.block:
    errs.append(('-Z smaller than block', '-Z'))
  if t.mmap and t.cache == 'os':
    errs.append(('mmap with unbuffered', '-S', '-h'))
  if t.flush and not t.mmap:
    errs.append(('-N without -Sm', '-N'))
  if t.max_size and t.max_size <= t.base:
    errs.append(('max offset <= base', '-f', '-B'))
  if p.level >= 23:
    if p.no_affinity and p.a_given:
      errs.insert(0, ('-n with -a at 2.3', '-n'))
    if t.requests > 65536:
      errs.append(('-o over 65536', '-o'))
    if p.ts_requests > 65536:
      errs.append(('-O over 65536', '-O'))
    if p.ioring and t.mmap:
      errs.append(('-u with -Sm', '-u', '-Sm'))
    if p.cdepth and t.mmap:
      errs.append(('-oc with all -Sm', '-oc', '-Sm'))
    if p.bufsep_given and t.large_pages:
      p.warnings.append('-bsp with -l: large pages take priority')
  if errs:
    raise Invalid('; '.join(e[0] for e in errs), *errs[0][1:])


# ---------------------------------------------------------------- XML (DISKSPD's profile XML)

def b(x):
  return 'true' if x else 'false'


def text(s):
  if not IOSPD_DELIBERATE:
    return s
  return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def render(p):
  out = []

  def el(depth, name, value):
    out.append('  ' * depth + '<%s>%s</%s>' % (name, value, name))

  def op(depth, name):
    out.append('  ' * depth + '<%s>' % name)

  def cl(depth, name):
    out.append('  ' * depth + '</%s>' % name)

  op(0, 'Profile')
  el(1, 'Progress', p.progress)
  if p.flags:
    el(1, 'ExperimentFlags', p.flags)
  el(1, 'ResultFormat', p.fmt)
  el(1, 'Verbose', b(p.verbose))
  if p.verbose_stats:
    el(1, 'VerboseStats', 'true')
  op(1, 'TimeSpans')
  op(2, 'TimeSpan')
  el(3, 'CompletionRoutines', 'false')
  el(3, 'MeasureLatency', b(p.latency))
  el(3, 'CalculateIopsStdDev', b(p.iops_stddev))
  if p.level < 23:
    el(3, 'DisableAffinity', b(p.no_affinity))
  el(3, 'Duration', p.duration)
  el(3, 'Warmup', p.warmup)
  el(3, 'Cooldown', p.cooldown)
  el(3, 'ThreadCount', p.thread_count)
  el(3, 'RequestCount', p.ts_requests)
  el(3, 'IoBucketDuration', p.bucket)
  # Bare -z seeds from the tick count: '*' stands for any number.
  el(3, 'RandSeed', '*' if p.seed is None else p.seed)
  if IOSPD_DELIBERATE and p.random_write_data:
    el(3, 'RandomWriteData', 'true')
  if p.level >= 23:
    if p.ioring:
      op(3, 'IoRing')
      out.append('  ' * 4 + '<IoRingBatchSize Percent="%s">%d'
                 '</IoRingBatchSize>' % (b(p.ioring[2]), p.ioring[1]))
      el(4, 'UseRegBuffer', b(p.ioring[0]))
      cl(3, 'IoRing')
    el(3, 'DisableAffinity', b(p.no_affinity))
    if not p.no_affinity:
      out.append('  ' * 3 + '<AffinityTraversal Group="%s" Efficiency="%s">'
                 '%s</AffinityTraversal>' % (
                     'Span' if p.span else 'Fill', p.efficiency,
                     'CoreAware' if p.core_aware else 'Cpu'))
    if p.affinity:
      op(3, 'Affinity')
      for g, m in group_masks(p.affinity):
        out.append('  ' * 4 + '<Group Group="%d" Mask="0x%x"/>' % (g, m))
      cl(3, 'Affinity')
    el(3, 'BufferSeparation', p.bufsep or 'PDECacheLine')
    if p.cdepth:
      el(3, 'CompletionDepth', p.cdepth)
  elif p.affinity:
    op(3, 'Affinity')
    for g, c in p.affinity:
      out.append('  ' * 4 + '<AffinityGroupAssignment Group="%d" '
                 'Processor="%d"/>' % (g, c))
    cl(3, 'Affinity')
  op(3, 'Targets')
  for t in p.targets:
    d = 5
    op(4, 'Target')
    el(d, 'Path', text(t.path))
    el(d, 'BlockSize', t.block)
    el(d, 'BaseFileOffset', t.base)
    el(d, 'SequentialScan', b(t.seq_scan))
    el(d, 'RandomAccess', b(t.rand_access))
    el(d, 'TemporaryFile', b(t.temporary))
    el(d, 'UseLargePages', b(t.large_pages))
    if t.cache == 'local':
      el(d, 'DisableLocalCache', 'true')
    elif t.cache == 'os':
      el(d, 'DisableOSCache', 'true')
    if t.write_through:
      el(d, 'WriteThrough', 'true')
    if t.mmap:
      el(d, 'MemoryMappedIo', 'true')
    if t.flush:
      el(d, 'FlushType', t.flush)
    op(d, 'WriteBufferContent')
    if t.zero:
      el(d + 1, 'Pattern', 'zero')
    elif t.rnd_size:
      el(d + 1, 'Pattern', 'random')
      op(d + 1, 'RandomDataSource')
      el(d + 2, 'SizeInBytes', t.rnd_size)
      if t.rnd_file is not None:
        el(d + 2, 'FilePath', text(t.rnd_file))
      cl(d + 1, 'RandomDataSource')
    else:
      el(d + 1, 'Pattern', 'sequential')
    cl(d, 'WriteBufferContent')
    el(d, 'ParallelAsyncIO', b(t.parallel))
    if t.burst is not None:
      el(d, 'BurstSize', t.burst)
    if t.think is not None:
      el(d, 'ThinkTime', t.think)
    if t.file_size is not None:
      el(d, 'FileSize', t.file_size)
    eff = t.align if t.align else t.block
    if t.ratio > 0:
      el(d, 'Random', eff)
      if t.ratio < 100:
        el(d, 'RandomRatio', t.ratio)
      if t.dist_kind:
        op(d, 'Distribution')
        op(d + 1, t.dist_kind)
        for io, ln in t.dist:
          out.append('  ' * (d + 2) + '<Range IO="%d">%d</Range>' % (io, ln))
        cl(d + 1, t.dist_kind)
        cl(d, 'Distribution')
    else:
      el(d, 'StrideSize', eff)
      el(d, 'InterlockedSequential', b(t.interlocked))
    el(d, 'ThreadStride', t.thread_stride)
    el(d, 'MaxFileSize', t.max_size)
    el(d, 'RequestCount', t.requests)
    el(d, 'WriteRatio', t.write_ratio)
    if t.iops is not None:
      out.append('  ' * d + '<Throughput unit="IOPS">%d</Throughput>' % t.iops)
    else:
      el(d, 'Throughput', t.throughput)
    el(d, 'ThreadsPerFile', t.threads)
    el(d, 'IOPriority', t.priority)
    el(d, 'Weight', t.weight)
    cl(4, 'Target')
  cl(3, 'Targets')
  cl(2, 'TimeSpan')
  cl(1, 'TimeSpans')
  cl(0, 'Profile')
  return '\n'.join(out) + '\n'


def model(argv):
  """('ok', xml, warnings) or ('invalid', reason, needles)."""
  try:
    p = parse(argv)
  except Invalid as e:
    return ('invalid', e.reason, e.needles)
  return ('ok', render(p), p.warnings)
