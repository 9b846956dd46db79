/* SPDX-License-Identifier: MIT */
/* The DISKSPD command line, table driven: each valid line lists the fields
 * that differ from DISKSPD's defaults, and the test compares EVERY field of
 * the resulting profile against defaults + those changes; each invalid line
 * must fail with IOSPD_EUSAGE and a message naming the switch. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/error.h"
#include "iospd/options.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"
#include "iospd/version.h"
#include "iospd/xml_profile.h"

/* ---- fake environment ---------------------------------------------------- */

#define FAKE_UPTIME 123456789012ull /* truncated to 32 bits: 3197704724 */

static const char* const k_profile_xml =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<Profile><TimeSpans>\n"
    "<TimeSpan><Duration>3</Duration><Targets><Target><Path>*1</Path>"
    "<BlockSize>4096</BlockSize></Target></Targets></TimeSpan>\n"
    "<TimeSpan><Duration>4</Duration><Targets><Target><Path>*1</Path>"
    "</Target></Targets></TimeSpan>\n"
    "</TimeSpans></Profile>\n";

/* A profile that asks for XML results itself. */
static const char* const k_profile_xml_results =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<Profile><ResultFormat>xml</ResultFormat><TimeSpans>\n"
    "<TimeSpan><Targets><Target><Path>*1</Path></Target></Targets>"
    "</TimeSpan>\n"
    "</TimeSpans></Profile>\n";

static int fake_read(const char* path, char** data, size_t* len,
                     iospd_err_t* err) {
  const char* text;
  if (strcmp(path, "p.xml") == 0)
    text = k_profile_xml;
  else if (strcmp(path, "px.xml") == 0)
    text = k_profile_xml_results;
  else
    return iospd_err_set(err, IOSPD_ENOENT, "cannot open '%s'", path);
  *len = strlen(text);
  *data = iospd_strdup(text);
  return *data ? 0 : IOSPD_ENOMEM;
}

static uint64_t fake_uptime(void) { return FAKE_UPTIME; }

static const iospd_cmdline_env_t k_linux = {false, false, fake_read,
                                            fake_uptime};
static const iospd_cmdline_env_t k_windows = {true, true, fake_read,
                                              fake_uptime};

/* Splits "line" on spaces into argv with argv[0] = "iospd"; '' is an empty
 * argument. "W|" at the start selects the Windows environment. */
typedef struct args_s {
  char buf[1024];
  const char* argv[64];
  int argc;
  const iospd_cmdline_env_t* env;
} args_t;

static bool at_22(const char* line) {
  static const char* const subs[] = {"--merge", "--compare", "--report",
                                     "--ping", "--version", "-?"};
  while (*line == ' ') line++;
  if (*line == '\0' || strstr(line, "--diskspd") != NULL) return false;
  for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
    if (strncmp(line, subs[i], strlen(subs[i])) == 0) return false;
  return true;
}

static void split(args_t* a, const char* line) {
  a->env = &k_linux;
  if (strncmp(line, "W|", 2) == 0) {
    a->env = &k_windows;
    line += 2;
  }
  snprintf(a->buf, sizeof a->buf, "%s", line);
  a->argc = 0;
  a->argv[a->argc++] = "iospd";
  /* These lines are DISKSPD 2.2's: they run at --diskspd=2.2 (the default
   * is 2.3) unless they name a level or a sub-command; test_cmdline23.c
   * has the 2.3 lines. */
  if (at_22(line)) a->argv[a->argc++] = "--diskspd=2.2";
  char* p = a->buf;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    char* s = p;
    while (*p && *p != ' ') p++;
    if (*p) *p++ = '\0';
    a->argv[a->argc++] = strcmp(s, "''") == 0 ? "" : s;
  }
}

/* ---- expectations -------------------------------------------------------- */

typedef struct expect_s {
  iospd_profile_t p; /* profile-level fields only */
  iospd_timespan_t ts;
  iospd_target_t t;
  iospd_affinity_t aff[32];
  iospd_dist_range_t dist[16];
  char zpath[64], ev[5][32];
  int action;
  int ntargets; /* -1: count the non-switch tokens */
  const char* warn; /* substring expected in warnings; NULL: none */
} expect_t;

static uint64_t num(const char* s) {
  char* end;
  uint64_t v = strtoull(s, &end, 10);
  switch (*end) {
    case 'K': v <<= 10; break;
    case 'M': v <<= 20; break;
    case 'G': v <<= 30; break;
    case 'T': v <<= 40; break;
    default: break;
  }
  return v;
}

static void apply(expect_t* e, const char* key, const char* v,
                  const char* line) {
  iospd_target_t* t = &e->t;
  iospd_timespan_t* ts = &e->ts;
  iospd_profile_t* p = &e->p;
  uint64_t n = num(v);
#define K(name) (strcmp(key, name) == 0)
  if (K("bs")) t->block_size = (uint32_t)n;
  else if (K("base")) t->base_offset = n;
  else if (K("max")) t->max_file_size = n;
  else if (K("create")) t->create = n;
  else if (K("fsize")) t->file_size = n;
  else if (K("rand")) t->random_ratio = (uint32_t)n;
  else if (K("align")) t->stride_align = n;
  else if (K("inter")) t->interlocked = n;
  else if (K("par")) t->parallel_async = n;
  else if (K("tstride")) t->thread_stride = n;
  else if (K("o")) t->request_count = (uint32_t)n;
  else if (K("w")) t->write_ratio = (uint32_t)n;
  else if (K("g")) t->throughput_bpms = (uint32_t)n;
  else if (K("gi")) t->throughput_iops = (uint32_t)n;
  else if (K("t")) t->threads_per_file = (uint32_t)n;
  else if (K("prio")) t->io_priority = (uint32_t)n;
  else if (K("fs")) t->sequential_scan = n;
  else if (K("fr")) t->random_access = n;
  else if (K("ft")) t->temporary = n;
  else if (K("lp")) t->large_pages = n;
  else if (K("cache"))
    t->cache_mode = v[0] == 'u'   ? IOSPD_CACHE_DISABLE_OS
                    : v[0] == 'r' ? IOSPD_CACHE_DISABLE_LOCAL
                                  : IOSPD_CACHE_CACHED;
  else if (K("wt")) t->write_through = n;
  else if (K("mm")) t->memory_mapped = n;
  else if (K("flush"))
    t->flush_type = v[0] == 'v'   ? IOSPD_FLUSH_VIEW_OF_FILE
                    : v[0] == 'n' ? IOSPD_FLUSH_NON_VOLATILE
                                  : IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN;
  else if (K("pat"))
    t->pattern = v[0] == 'z' ? IOSPD_PATTERN_ZERO : IOSPD_PATTERN_RANDOM;
  else if (K("zsize")) t->random_data_size = n;
  else if (K("zpath")) {
    snprintf(e->zpath, sizeof e->zpath, "%s", v);
    t->random_data_path = e->zpath;
  } else if (K("burst")) {
    t->burst_size = (uint32_t)n;
    t->burst_set = true;
  } else if (K("think")) {
    t->think_time = (uint32_t)n;
    t->think_set = true;
  } else if (K("dist")) {
    /* pct|io_base,io,span_base,span|... */
    t->dist_type = v[0] == 'p' ? IOSPD_DIST_PERCENT : IOSPD_DIST_ABSOLUTE;
    const char* s = strchr(v, '|');
    t->dist = e->dist;
    t->dist_count = 0;
    while (s && *s == '|') {
      char tmp[4][32];
      s++;
      for (int i = 0; i < 4; i++) {
        size_t l = strcspn(s, ",|");
        snprintf(tmp[i], sizeof tmp[i], "%.*s", (int)l, s);
        s += l;
        if (*s == ',') s++;
      }
      iospd_dist_range_t* r = &e->dist[t->dist_count++];
      r->io_base = (uint32_t)num(tmp[0]);
      r->io_pct = (uint32_t)num(tmp[1]);
      r->span_base = num(tmp[2]);
      r->span = num(tmp[3]);
    }
  } else if (K("d")) ts->duration = (uint32_t)n;
  else if (K("W")) ts->warmup = (uint32_t)n;
  else if (K("C")) ts->cooldown = (uint32_t)n;
  else if (K("seed")) ts->rand_seed = (uint32_t)n;
  else if (K("seedclk")) ts->rand_seed_from_clock = n;
  else if (K("zr")) ts->random_write_data = n;
  else if (K("F")) ts->thread_count = (uint32_t)n;
  else if (K("O")) ts->request_count = (uint32_t)n;
  else if (K("n")) ts->disable_affinity = n;
  else if (K("x")) ts->completion_routines = n;
  else if (K("L")) ts->measure_latency = n;
  else if (K("D")) ts->calc_iops_stddev = n;
  else if (K("bucket")) ts->io_bucket_ms = (uint32_t)n;
  else if (K("aff")) {
    /* group:cpu,group:cpu,... */
    ts->affinity = e->aff;
    ts->affinity_count = 0;
    const char* s = v;
    while (*s) {
      char* end;
      unsigned long g = strtoul(s, &end, 10);
      unsigned long c = strtoul(end + 1, &end, 10);
      e->aff[ts->affinity_count].group = (uint16_t)g;
      e->aff[ts->affinity_count].cpu = (uint16_t)c;
      ts->affinity_count++;
      s = *end == ',' ? end + 1 : end;
    }
  } else if (K("v")) p->verbose = n;
  else if (K("vs")) p->verbose_stats = n;
  else if (K("flags")) p->experiment_flags = (uint32_t)n;
  else if (K("P")) p->progress_dots = (uint32_t)n;
  else if (K("fmt")) p->format = v[0] == 'x' ? IOSPD_FORMAT_XML : IOSPD_FORMAT_TEXT;
  else if (K("rp")) p->profile_only = n;
  else if (K("etw")) {
    /* letters: E enabled, q c s p, P T I D M H N R providers */
    for (const char* s = v; *s; s++) {
      iospd_etw_t* w = &p->etw;
      switch (*s) {
        case 'E': w->enabled = true; break;
        case 'q': w->use_perf_timer = true; break;
        case 'c': w->use_cycles_counter = true; break;
        case 's': w->use_system_timer = true; break;
        case 'p': w->use_paged_memory = true; break;
        case 'P': w->process = true; break;
        case 'T': w->thread = true; break;
        case 'I': w->image_load = true; break;
        case 'D': w->disk_io = true; break;
        case 'M': w->memory_page_faults = true; break;
        case 'H': w->memory_hard_faults = true; break;
        case 'N': w->network = true; break;
        case 'R': w->registry = true; break;
        default: fail_msg("%s: bad etw spec %s", line, v);
      }
    }
  } else if (K("ys") || K("yf") || K("yr") || K("yp") || K("ye")) {
    static const char keys[] = "sfrpe";
    int i = (int)(strchr(keys, key[1]) - keys);
    snprintf(e->ev[i], sizeof e->ev[i], "%s", v);
    char** slot[5] = {&p->events.start_name, &p->events.end_name,
                      &p->events.ready_name, &p->events.stop_name,
                      &p->events.set_name};
    *slot[i] = e->ev[i];
  } else if (K("raw")) p->ext.allow_raw_write = n;
  else if (K("engine")) p->ext.engine = (int)n;
  else if (K("status")) p->ext.status_line = (int)n;
  else if (K("action")) e->action = (int)n;
  else if (K("ntargets")) e->ntargets = (int)n;
  else if (K("warn")) e->warn = v;
  else fail_msg("%s: unknown expectation key '%s'", line, key);
#undef K
}

static void expect_init(expect_t* e) {
  memset(e, 0, sizeof *e);
  iospd_profile_init(&e->p);
  iospd_timespan_init(&e->ts);
  iospd_target_init(&e->t);
  e->ntargets = -1;
}

static bool str_same(const char* a, const char* b) {
  if (a == NULL || b == NULL) return a == b;
  return strcmp(a, b) == 0;
}

#define CHK(want, got, name)                                              \
  do {                                                                    \
    if ((uint64_t)(want) != (uint64_t)(got))                              \
      fail_msg("'%s': %s: expected %llu, got %llu", line, name,           \
               (unsigned long long)(want), (unsigned long long)(got));    \
  } while (0)
#define CHKS(want, got, name)                                             \
  do {                                                                    \
    if (!str_same(want, got))                                             \
      fail_msg("'%s': %s: expected '%s', got '%s'", line, name,           \
               (want) ? (want) : "(null)", (got) ? (got) : "(null)");     \
  } while (0)
#define F(field) CHK(w->field, g->field, #field)

static void compare_target(const char* line, const iospd_target_t* w,
                           const iospd_target_t* g) {
  F(block_size); F(base_offset); F(max_file_size); F(create); F(file_size);
  F(random_ratio); F(stride_align); F(interlocked); F(parallel_async);
  F(thread_stride); F(request_count); F(write_ratio); F(throughput_bpms);
  F(throughput_iops); F(threads_per_file); F(io_priority); F(weight);
  F(sequential_scan); F(random_access); F(temporary); F(large_pages);
  F(cache_mode); F(write_through); F(memory_mapped); F(flush_type);
  F(pattern); F(random_data_size); F(burst_set); F(burst_size);
  F(think_set); F(think_time); F(dist_type); F(dist_count);
  F(thread_target_count);
  CHKS(w->random_data_path, g->random_data_path, "random_data_path");
  for (uint32_t i = 0; i < w->dist_count; i++) {
    CHK(w->dist[i].io_base, g->dist[i].io_base, "dist.io_base");
    CHK(w->dist[i].io_pct, g->dist[i].io_pct, "dist.io_pct");
    CHK(w->dist[i].span_base, g->dist[i].span_base, "dist.span_base");
    CHK(w->dist[i].span, g->dist[i].span, "dist.span");
  }
}

static void compare_timespan(const char* line, const iospd_timespan_t* w,
                             const iospd_timespan_t* g) {
  F(duration); F(warmup); F(cooldown); F(rand_seed); F(rand_seed_from_clock);
  F(random_write_data); F(thread_count); F(request_count);
  F(disable_affinity); F(completion_routines); F(measure_latency);
  F(calc_iops_stddev); F(io_bucket_ms); F(affinity_count);
  for (uint32_t i = 0; i < w->affinity_count; i++) {
    CHK(w->affinity[i].group, g->affinity[i].group, "affinity.group");
    CHK(w->affinity[i].cpu, g->affinity[i].cpu, "affinity.cpu");
  }
}

static void compare_profile(const char* line, const iospd_profile_t* w,
                            const iospd_profile_t* g) {
  F(verbose); F(verbose_stats); F(experiment_flags); F(progress_dots); F(format);
  F(profile_only); F(precreate); F(ext.allow_raw_write); F(ext.engine);
  F(ext.status_line);
  F(etw.enabled); F(etw.process); F(etw.thread); F(etw.image_load);
  F(etw.disk_io); F(etw.memory_page_faults); F(etw.memory_hard_faults);
  F(etw.network); F(etw.registry); F(etw.use_paged_memory);
  F(etw.use_perf_timer); F(etw.use_system_timer); F(etw.use_cycles_counter);
  CHKS(w->events.start_name, g->events.start_name, "events.start_name");
  CHKS(w->events.end_name, g->events.end_name, "events.end_name");
  CHKS(w->events.ready_name, g->events.ready_name, "events.ready_name");
  CHKS(w->events.stop_name, g->events.stop_name, "events.stop_name");
  CHKS(w->events.set_name, g->events.set_name, "events.set_name");
  CHKS(w->xml_source, g->xml_source, "xml_source");
}

/* ---- the valid lines ---------------------------------------------------- */

typedef struct ok_case_s {
  const char* line;
  const char* expect; /* key=value ... (differences from the defaults) */
} ok_case_t;

/* Actions: 0 run, 1 usage, 2 usage error, 3 set event. */
static const ok_case_t k_ok[] = {
    /* targets and defaults */
    {"t", ""},
    {"a.dat b.dat", ""},
    {"-b4K a b c", "bs=4096"},
    {"/dev/sdb", ""},
    {"#1", ""},
    {"E:", ""},
    {"-w0 /dev/nvme0n1 /dev/nvme1n1", ""},
    /* -b and the b suffix (two passes) */
    {"-b4K t", "bs=4096"},
    {"-b4k t", "bs=4096"},
    {"-b1M t", "bs=1M"},
    {"-b1m t", "bs=1M"},
    {"-b512 t", "bs=512"},
    {"-b1 t", "bs=1"},
    {"-b4294967294 t", "bs=4294967294"},
    {"-b2b t", "bs=131072"},
    {"-b8K -b4K t", "bs=4096"},
    {"-b1G t", "bs=1G"},
    {"-r2b -b8K t", "bs=8192 rand=100 align=16384"},
    {"-b8K -r2b t", "bs=8192 rand=100 align=16384"},
    {"-s3b -b4K t", "bs=4096 align=12288"},
    {"-B2b -b4K t", "bs=4096 base=8192"},
    {"-c10b -b1K t", "bs=1024 create=1 fsize=10240"},
    /* -r / -s / -rs (DISKSPD's -r/-s/-rs rules) */
    {"-r t", "rand=100 align=65536"},
    {"-b4K -r t", "bs=4096 rand=100 align=4096"},
    {"-r -b4K t", "bs=4096 rand=100 align=4096"},
    {"-r8K t", "rand=100 align=8192"},
    {"-r512 t", "rand=100 align=512"},
    {"-r4K -b8K t", "bs=8192 rand=100 align=4096"},
    {"-r1 t", "rand=100 align=1"},
    {"-s t", "align=65536"},
    {"-s8K t", "align=8192"},
    {"-s0 t", "align=0"},
    {"-si t", "inter=1 align=65536"},
    {"-si4K t", "inter=1 align=4096"},
    {"-si -t4 t", "inter=1 align=65536 t=4"},
    {"-b4K -s t", "bs=4096 align=4096"},
    {"-rs50 t", "rand=50"},
    {"-rs1 t", "rand=1"},
    {"-rs99 t", "rand=99"},
    {"-rs100 t", "rand=100"},
    {"-rs50 -r8k t", "rand=50 align=8192"},
    {"-r8k -rs50 t", "rand=50 align=8192"},
    {"-rs50 -r t", "rand=50 align=65536"},
    {"-r -rs50 t", "rand=50 align=65536"},
    {"-rs100 -r t", "rand=100 align=65536"},
    {"-r -rs100 t", "rand=100 align=65536"},
    {"-rs30 -r4K -b4K t", "rand=30 align=4096 bs=4096"},
    {"-s0 -s t", "align=65536"},
    /* -S and -h (DISKSPD's -S/-h letters) */
    {"-S t", "cache=u"},
    {"-Su t", "cache=u"},
    {"-Sb t", "cache=c"},
    {"-Sw t", "wt=1"},
    {"-Sbw t", "wt=1"},
    {"-Swb t", "wt=1"},
    {"-Sb -Sw t", "wt=1"},
    {"-Sw -Sb t", "wt=1"},
    {"-Sh t", "cache=u wt=1"},
    {"-Suw t", "cache=u wt=1"},
    {"-Swu t", "cache=u wt=1"},
    {"-Su -Sw t", "cache=u wt=1"},
    {"-Sw -Su t", "cache=u wt=1"},
    {"-h t", "cache=u wt=1"},
    {"-Sm t", "mm=1"},
    {"-Smw t", "mm=1 wt=1"},
    {"-Swm t", "mm=1 wt=1"},
    {"-Sbm t", "mm=1"},
    {"-Smb t", "mm=1"},
    {"-Sm -h t", "mm=1 cache=u wt=1"},
    {"-Sw -Sm t", "mm=1 wt=1"},
    {"W|-Sr t", "cache=r"},
    {"W|-Srw t", "cache=r wt=1"},
    {"W|-Swr t", "cache=r wt=1"},
    {"-Sm -Nv t", "mm=1 flush=v"},
    {"-Sm -NV t", "mm=1 flush=v"},
    {"W|-Sm -Nn t", "mm=1 flush=n"},
    {"W|-Sm -Ni t", "mm=1 flush=i"},
    {"W|-Sm -NI t", "mm=1 flush=i"},
    {"-Nv t", "flush=v"},
    /* -w -o -t -F -O -I */
    {"-w0 t", ""},
    {"-w100 t", "w=100"},
    {"-w30 t", "w=30"},
    {"-w1 t", "w=1"},
    {"-o1 t", "o=1"},
    {"-o32 t", "o=32"},
    {"-o2147483647 t", "o=2147483647"},
    {"-o8 -o4 t", "o=4"},
    {"-t4 t", "t=4"},
    {"-t1 t", ""},
    {"-F8 t", "F=8"},
    {"-F4 -O16 t", "F=4 O=16"},
    {"-O16 -F4 t", "F=4 O=16"},
    {"-O8 t", "O=8 warn=-O"},
    {"-I1 t", "prio=1"},
    {"-I2 t", "prio=2"},
    {"-I3 t", ""},
    /* -B -f -c -T */
    {"-B1G t", "base=1G"},
    {"-B0 t", ""},
    {"-B1G:10G t", "base=1G max=11G"},
    {"-B4K:4K t", "base=4K max=8K"},
    {"-B0:1M t", "max=1M"},
    {"-B1g:1g t", "base=1G max=2G"},
    {"-f10G t", "max=10G"},
    {"-f0 t", ""},
    {"-f4096 t", "max=4096"},
    {"-fr t", "fr=1"},
    {"-fs t", "fs=1"},
    {"-ft t", "ft=1"},
    {"-frst t", "fr=1 fs=1 ft=1"},
    {"-frs t", "fr=1 fs=1"},
    {"-ftt t", "ft=1"},
    {"-f1M -frs t", "max=1M fr=1 fs=1"},
    {"-B1G -f10G t", "base=1G max=10G"},
    {"-c1G t", "create=1 fsize=1G"},
    {"-c0 t", "create=1"},
    {"-c64K t", "create=1 fsize=64K"},
    {"-c1T t", "create=1 fsize=1T"},
    {"-T1M -t2 t", "tstride=1M t=2"},
    {"-T4K -F2 t", "tstride=4K F=2"},
    /* strides and alignments up to the largest file offset, 2^63 - 1 */
    {"-T9223372036854775807 -t2 t", "tstride=9223372036854775807 t=2"},
    {"-s8388607T t", "align=8388607T"},
    {"-si9223372036854775807 t", "inter=1 align=9223372036854775807"},
    {"-r9223372036854775807 t", "rand=100 align=9223372036854775807"},
    {"-b4K -r2251799813685247b t",
     "bs=4096 rand=100 align=9223372036854771712"},
    /* -g -i -j */
    {"-g100 t", "g=100"},
    {"-g1 t", "g=1"},
    {"-g2147483647 t", "g=2147483647"},
    {"-b4K -g10i t", "bs=4096 g=40 gi=10"},
    {"-g10i -b4K t", "bs=4096 g=40 gi=10"},
    {"-g1000i t", "g=65536 gi=1000"},
    {"-b512 -g2i t", "bs=512 g=1 gi=2"},
    {"-g10i -g100 t", "g=100"},
    {"-g0000000000000000000000000000000000000008 t", "g=8"},
    {"-b1K -g000000000000000000000000000000000000010i t", "bs=1024 g=10 gi=10"},
    {"-i10 -j5 t", "burst=10 think=5"},
    {"-j5 -i10 t", "burst=10 think=5"},
    {"-i1 -j1 t", "burst=1 think=1"},
    /* flags */
    {"-l t", "lp=1"},
    {"-L t", "L=1"},
    {"-n t", "n=1"},
    {"-p t", "par=1"},
    {"-p -o4 t", "par=1 o=4"},
    {"-D t", "D=1"},
    {"-D500 t", "D=1 bucket=500"},
    {"-D0 t", "D=1"},
    {"-D1 t", "D=1 bucket=1"},
    {"-P t", "P=65536"},
    {"-P0 t", "P=65536"},
    {"-P100 t", "P=100"},
    /* timing */
    {"-d60 t", "d=60"},
    {"-d0 t", "d=0"},
    {"-d t", "d=0 warn=-d"},
    {"-W0 t", "W=0"},
    {"-W t", "W=0"},
    {"-W10 t", "W=10"},
    {"-C5 t", "C=5"},
    {"-C t", ""},
    {"-d1 -W2 -C3 t", "d=1 W=2 C=3"},
    {"-d2147483647 t", "d=2147483647"},
    /* 2147483647 is the largest value DISKSPD's atoi keeps as typed */
    {"-d2147483647 -W2147483647 -C2147483647 t",
     "d=2147483647 W=2147483647 C=2147483647"},
    {"-t2147483647 t", "t=2147483647"},
    {"-F2147483647 t", "F=2147483647"},
    {"-F1 -O2147483647 t", "F=1 O=2147483647"},
    {"-i2147483647 -j2147483647 t", "burst=2147483647 think=2147483647"},
    {"-D2147483647 t", "D=1 bucket=2147483647"},
    {"-P2147483647 t", "P=2147483647"},
    {"-:2147483647 t", "flags=2147483647"},
    {"-b1 -g2147483647i t", "bs=1 g=2147483 gi=2147483647"},
    /* -z */
    {"-z42 t", "seed=42"},
    {"-z0 t", ""},
    {"-z4294967295 t", "seed=4294967295"},
    {"-z t", "seed=3197704724 seedclk=1"},
    {"-z -z5 t", "seed=5"},
    /* -Z */
    {"-Z t", "pat=zero"},
    {"-Zr t", "zr=1"},
    {"-Z1M t", "pat=rand zsize=1M"},
    {"-Z1M,data.bin t", "pat=rand zsize=1M zpath=data.bin"},
    {"-Z1M, t", "pat=rand zsize=1M"},
    {"-Z4b -b4K t", "pat=rand zsize=16K bs=4096"},
    {"-Z64K,/tmp/x,y t", "pat=rand zsize=64K zpath=/tmp/x,y"},
    {"-Z -Zr t", "pat=zero zr=1"},
    /* -a (DISKSPD's -a syntax) */
    {"-a t", ""},
    {"-ag t", ""},
    {"-a0 t", "aff=0:0"},
    {"-a0,1,2 t", "aff=0:0,0:1,0:2"},
    {"-ag0,0,1,2 t", "aff=0:0,0:1,0:2"},
    {"-ag0,0,1,2,g1,0,1,2 t", "aff=0:0,0:1,0:2,1:0,1:1,1:2"},
    {"-a1 -a2 t", "aff=0:1,0:2"},
    {"-ag65535,255 t", "aff=65535:255"},
    {"-a0,g2,3 t", "aff=0:0,2:3"},
    {"-ag1,4 -a5 t", "aff=1:4,0:5"},
    {"-a7,7 t", "aff=0:7,0:7"},
    /* -rd (DISKSPD's -rd rules) */
    {"-r -rdpct10/10:10/10:0/10 t",
     "rand=100 align=65536 dist=pct|0,10,0,10|10,10,10,10|20,0,20,10|20,80,30,70"},
    {"-r -rdabs10/1G:10/1G:0/100G t",
     "rand=100 align=65536 dist=abs|0,10,0,1G|10,10,1G,1G|20,0,2G,100G|20,80,102G,0"},
    {"-r -rdpct90/10 t", "rand=100 align=65536 dist=pct|0,90,0,10|90,10,10,90"},
    {"-r -rdpct100/100 t", "rand=100 align=65536 dist=pct|0,100,0,100"},
    {"-r -rdpct50/100 t", "rand=100 align=65536 dist=pct|0,50,0,100"},
    {"-r -rdpct100/10 t", "rand=100 align=65536 dist=pct|0,100,0,10"},
    {"-r -rdabs100/1G t", "rand=100 align=65536 dist=abs|0,100,0,1G"},
    {"-r -rdabs90/1G t", "rand=100 align=65536 dist=abs|0,90,0,1G|90,10,1G,0"},
    {"-rdpct90/10 t", "dist=pct|0,90,0,10|90,10,10,90"},
    {"-rs50 -rdpct70/30 t", "rand=50 dist=pct|0,70,0,30|70,30,30,70"},
    {"-b4K -r -rdabs50/2b t",
     "bs=4096 rand=100 align=4096 dist=abs|0,50,0,8192|50,50,8192,0"},
    {"-r -rdpct0/50:100/50 t",
     "rand=100 align=65536 dist=pct|0,0,0,50|0,100,50,50"},
    /* leading zeros, as DISKSPD's integer parser takes them */
    {"-r -rdpct0090/00010 t",
     "rand=100 align=65536 dist=pct|0,90,0,10|90,10,10,90"},
    /* output switches */
    {"-Rxml t", "fmt=xml"},
    {"-Rtext t", ""},
    {"-Rp t", "rp=1"},
    {"-Rpxml t", "rp=1 fmt=xml"},
    {"-Rptext t", "rp=1"},
    {"-Rxml -Rtext t", ""},
    {"-RXML t", "fmt=xml"},
    {"-RpText t", "rp=1"},
    {"-RP t", "rp=1"},
    /* -Rp only turns profile-only on; the format stays (DISKSPD's switch rules) */
    {"-Rxml -Rp t", "rp=1 fmt=xml"},
    {"-Rpxml -Rp t", "rp=1 fmt=xml"},
    {"-Rp -Rxml t", "rp=1 fmt=xml"},
    {"-Rxml -Rp -Rtext t", "rp=1"},
    {"-Rpxml -Rtext t", "rp=1"},
    /* a bare -R after -Rp is accepted and changes nothing */
    {"-Rp -R t", "rp=1"},
    {"-Rpxml -R t", "rp=1 fmt=xml"},
    {"-v t", "v=1"},
    {"-vs t", "vs=1"},
    {"-v -vs t", "v=1 vs=1"},
    {"-:1 t", "flags=1"},
    {"-: t", ""},
    {"-:255 t", "flags=255"},
    /* -y events */
    {"-ysStart t", "ys=Start"},
    {"-yfEnd t", "yf=End"},
    {"-yrReady t", "yr=Ready"},
    {"-ypStop t", "yp=Stop"},
    {"-ysA -ysB t", "ys=B"},
    {"-ysA -yfB -yrC -ypD t", "ys=A yf=B yr=C yp=D"},
    {"-yeGo", "ye=Go action=3 ntargets=0"},
    {"-yeGo t", "ye=Go action=3 ntargets=0"},
    {"W|-yeGo", "ye=Go action=3 ntargets=0"},
    /* Windows-only: -e, -x, '/' switches */
    {"W|-eq t", "etw=Eq"},
    {"W|-ec t", "etw=Ec"},
    {"W|-es t", "etw=Es"},
    {"W|-ep t", "etw=Ep"},
    {"W|-ePROCESS t", "etw=EP"},
    {"W|-eTHREAD t", "etw=ET"},
    {"W|-eIMAGE_LOAD t", "etw=EI"},
    {"W|-eDISK_IO t", "etw=ED"},
    {"W|-eMEMORY_PAGE_FAULTS t", "etw=EM"},
    {"W|-eMEMORY_HARD_FAULTS t", "etw=EH"},
    {"W|-eNETWORK t", "etw=EN"},
    {"W|-eREGISTRY t", "etw=ER"},
    {"W|-eprocess t", "etw=EP"},
    {"W|-eq -eDISK_IO -eNETWORK t", "etw=EqDN"},
    {"W|-x t", "x=1"},
    {"W|/b4K /r C:\\t.dat", "bs=4096 rand=100 align=4096"},
    {"W|/b4K -Sh #2", "bs=4096 cache=u wt=1"},
    {"W|-b4K /w50 E:", "bs=4096 w=50"},
    /* Linux accepts -I, -l, -Sm, -y */
    {"-I1 -l -Sm t", "prio=1 lp=1 mm=1"},
    /* long options */
    {"--allow-raw-write t", "raw=1"},
    /* --engine: test_cmdline_engine_table (the platform's words) */
    {"--progress=auto t", ""},
    {"--progress=always t", "status=1"},
    {"--progress=never t", "status=2"},
    {"--progress=never --progress=auto t", ""},
    {"W|--progress=always /b4K t", "status=1 bs=4096"},
    {"--allow-raw-write -b4K -w100 /dev/sdb", "raw=1 bs=4096 w=100"},
    {"W|--allow-raw-write -w10 #1", "raw=1 w=10"},
    /* help */
    {"-?", "action=1 ntargets=0"},
    {"--help", "action=1 ntargets=0"},
    {"-b4K -?", "action=1 ntargets=0"},
    {"-? t", "action=1 ntargets=0"},
    {"W|/?", "action=1 ntargets=0"},
    /* DISKSPD acts on -? in its second pass, left to right, before it
     * reaches a later unknown switch; it looks only at the '?'. */
    {"-? -q", "action=1 ntargets=0"},
    {"-? -q t", "action=1 ntargets=0"},
    {"-b4K -? -q7 --bogus - t", "action=1 ntargets=0"},
    {"--help -Q1", "action=1 ntargets=0"},
    {"-?x", "action=1 ntargets=0"},
    {"-?? t", "action=1 ntargets=0"},
    /* realistic combinations */
    {"-c10G -b4K -r -o8 -t4 -Sh -L -d30 t",
     "create=1 fsize=10G bs=4096 rand=100 align=4096 o=8 t=4 cache=u wt=1 "
     "L=1 d=30"},
    {"-b8K -r -w30 -rdpct90/10 -Sh t",
     "bs=8192 rand=100 align=8192 w=30 dist=pct|0,90,0,10|90,10,10,90 "
     "cache=u wt=1"},
    {"-b1M -s -w100 -o4 -Sh --allow-raw-write /dev/sdb",
     "bs=1M align=1M w=100 o=4 cache=u wt=1 raw=1"},
    {"-b64K -d60 -o32 -t8 -si -W10 -C10 -D100 -L -Sh t",
     "d=60 o=32 t=8 inter=1 align=65536 W=10 C=10 D=1 bucket=100 L=1 "
     "cache=u wt=1"},
    {"-F4 -O8 -a0,1 -z99 -Zr -b4K -rs20 -r4K t",
     "F=4 O=8 aff=0:0,0:1 seed=99 zr=1 bs=4096 rand=20 align=4096"},
    {"-Rpxml -b4K -r -w50 a b", "rp=1 fmt=xml bs=4096 rand=100 align=4096 w=50"},
    {"-B1M:100M -T10M -t4 -s t", "base=1M max=101M tstride=10M t=4 align=65536"},
    {"-g2000i -b8K -i4 -j10 t", "g=16384 gi=2000 bs=8192 burst=4 think=10"},
    {"-Z1M,pattern.bin -w100 -c1G t",
     "pat=rand zsize=1M zpath=pattern.bin w=100 create=1 fsize=1G"},
    {"-n -L -D -v -vs -P1000 -:1 t", "n=1 L=1 D=1 v=1 vs=1 P=1000 flags=1"},
    /* the command lines of the DISKSPD 2.2 samples in tests/data/report-sample-* */
    {"-c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat",
     "create=1 fsize=64M d=3 bs=4096 rand=100 align=4096 o=8 t=2 w=25 "
     "cache=u wt=1 L=1 D=1"},
    {"-c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat",
     "create=1 fsize=64M d=2 W=0 inter=1 align=65536 o=4 w=100 cache=u "
     "wt=1 L=1"},
    {"-c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 d.dat",
     "create=1 fsize=64M d=2 W=0 bs=4096 rand=30 t=2 w=50 L=1 D=1 "
     "bucket=500"},
    {"-c32M -d2 -W0 -b8K -F4 -r -o4 -w30 -Sh -a0,1 a.dat b.dat",
     "create=1 fsize=32M d=2 W=0 bs=8192 F=4 rand=100 align=8192 o=4 w=30 "
     "cache=u wt=1 aff=0:0,0:1"},
    {"-c64M -d2 -W0 -b4K -r -rdpct90/10:10/90 -o4 -t1 -L -z7 c.dat",
     "create=1 fsize=64M d=2 W=0 bs=4096 rand=100 align=4096 "
     "dist=pct|0,90,0,10|90,10,10,90 o=4 L=1 seed=7"},
};

static void run_ok_case(const ok_case_t* c) {
  const char* line = c->line;
  args_t a;
  split(&a, line);
  expect_t e;
  expect_init(&e);
  /* Parse the expectation spec. */
  char spec[512];
  snprintf(spec, sizeof spec, "%s", c->expect);
  for (char* tok = spec; *tok;) {
    while (*tok == ' ') tok++;
    if (!*tok) break;
    char* end = tok + strcspn(tok, " ");
    char save = *end;
    *end = '\0';
    char* eq = strchr(tok, '=');
    if (eq == NULL) fail_msg("%s: bad spec token %s", line, tok);
    *eq = '\0';
    apply(&e, tok, eq + 1, line);
    *end = save;
    tok = end;
  }
  if (e.ntargets < 0) {
    e.ntargets = 0;
    for (int i = 1; i < a.argc; i++)
      if (a.argv[i][0] != '-' &&
          !(a.env->slash_switches && a.argv[i][0] == '/'))
        e.ntargets++;
  }

  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_strbuf_t warn;
  iospd_strbuf_init(&warn);
  iospd_err_t err;
  iospd_cmdline_action_t action = (iospd_cmdline_action_t)99;
  int rc = iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action, &warn,
                               &err);
  if (rc != 0) fail_msg("'%s': rc %d: %s", line, rc, err.msg);
  CHK(e.action, action, "action");
  if (e.warn == NULL && warn.len != 0)
    fail_msg("'%s': unexpected warning: %s", line, iospd_strbuf_cstr(&warn));
  if (e.warn != NULL && strstr(iospd_strbuf_cstr(&warn), e.warn) == NULL)
    fail_msg("'%s': warning '%s' missing in '%s'", line, e.warn,
             iospd_strbuf_cstr(&warn));
  if (action == IOSPD_ACTION_USAGE) {
    CHK(0, p.timespan_count, "timespan_count");
  } else {
    /* cmdline = argv joined with single spaces */
    char joined[1100];
    snprintf(joined, sizeof joined, "iospd");
    for (int i = 1; i < a.argc; i++) {
      strcat(joined, " ");
      strcat(joined, a.argv[i]);
    }
    const char* want_cmdline = joined;
    CHKS(want_cmdline, p.cmdline, "cmdline");
    compare_profile(line, &e.p, &p);
    if (action == IOSPD_ACTION_SET_EVENT) {
      CHK(0, p.timespan_count, "timespan_count");
    } else {
      CHK(1, p.timespan_count, "timespan_count");
      CHK(e.ntargets, p.timespans[0].target_count, "target_count");
      compare_timespan(line, &e.ts, &p.timespans[0]);
      int ti = 0;
      for (int i = 1; i < a.argc; i++) {
        const char* s = a.argv[i];
        if (s[0] == '-' || (a.env->slash_switches && s[0] == '/')) continue;
        const iospd_target_t* t = &p.timespans[0].targets[ti++];
        CHKS(s, t->path, "path");
        compare_target(line, &e.t, t);
      }
    }
  }
  iospd_strbuf_destroy(&warn);
  iospd_profile_destroy(&p);
}

static void test_cmdline_valid_lines(void** state) {
  (void)state;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_ok); i++) run_ok_case(&k_ok[i]);
  print_message("%d valid command lines checked\n", (int)IOSPD_ARRAY_SIZE(k_ok));
}

/* ---- the invalid lines --------------------------------------------------- */

typedef struct bad_case_s {
  const char* line;
  const char* msg; /* substring of err.msg */
} bad_case_t;

static const bad_case_t k_bad[] = {
    /* lenient-int junk and ranges (deliberate differences) */
    {"-o8x t", "'-o8x'"},
    {"-wabc t", "'-wabc'"},
    {"-w50% t", "'-w50%'"},
    {"-o t", "'-o' needs a value"},
    {"-o0 t", "'-o0'"},
    {"-o-1 t", "'-o-1'"},
    {"-o4294967296 t", "'-o4294967296'"},
    {"-o99999999999999999999999 t", "'-o99999999999999999999999'"},
    {"-t0 t", "'-t0'"},
    {"-tx t", "'-tx'"},
    {"-F0 t", "'-F0'"},
    {"-O0 t", "'-O0'"},
    {"-w101 t", "'-w101'"},
    {"-w t", "'-w' needs a value"},
    {"-w-1 t", "'-w-1'"},
    {"-I0 t", "'-I0'"},
    {"-I4 t", "'-I4'"},
    {"-I t", "'-I'"},
    {"-i0 -j1 t", "'-i0'"},
    {"-j0 -i1 t", "'-j0'"},
    {"-i t", "'-i'"},
    {"-d-1 t", "'-d-1'"},
    {"-d4294967296 t", "'-d4294967296'"},
    {"-d10s t", "'-d10s'"},
    {"-W-1 t", "'-W-1'"},
    {"-C-1 t", "'-C-1'"},
    {"-:x t", "'-:x'"},
    {"-P-1 t", "'-P-1'"},
    {"-Px t", "'-Px'"},
    {"-D-5 t", "'-D-5'"},
    {"-Dx t", "'-Dx'"},
    /* -b */
    {"-b0 t", "'-b0'"},
    {"-b t", "'-b'"},
    {"-b4294967295 t", "'-b4294967295'"},
    {"-b4KB t", "'-b4KB'"},
    {"-b-4K t", "'-b-4K'"},
    {"-b99999999999999999999 t", "too large"},
    /* -z */
    {"-z-1 t", "'-z-1'"},
    {"-z4294967296 t", "'-z4294967296'"},
    {"-zabc t", "'-zabc'"},
    {"-z1x t", "'-z1x'"},
    /* -a */
    {"-a-1 t", "'-a-1'"},
    {"-a1,,2 t", "'-a1,,2'"},
    {"-a1, t", "ends with a comma"},
    {"-a,1 t", "'-a,1'"},
    {"-agg t", "'-agg'"},
    {"-ag1 t", "(-ag<n>) is a DISKSPD 2.3 switch; add --diskspd=2.3"},
    {"-a0,g1 t", "without a CPU"},
    {"-a256 t", "CPU 256 is out of range"},
    {"-ag65536,0 t", "group 65536 is out of range"},
    {"-a0x t", "'-a0x'"},
    {"-a0 1 -r t", "comes after the target"},
    {"-a4294967296 t", "out of range"},
    {"-ag,1 t", "'-ag,1'"},
    /* forms DISKSPD accepts (docs/compat-differences.md, "-a lists") */
    {"-a1g0,1 t", "unexpected 'g' at position 2 of the affinity list"},
    {"-a1g,2 t", "unexpected 'g' at position 2 of the affinity list"},
    {"-ag1,,2 t", "unexpected ',' at position 4 of the affinity list"},
    /* -r -s -rs (DISKSPD's -r/-s/-rs rules) */
    {"-r0 t", "'-r0'"},
    {"-rx t", "'-rx'"},
    {"-r -r t", "'-r'"},
    {"-r8k -r4k t", "'-r4k'"},
    {"-r -s t", "'-s'"},
    {"-s -r t", "'-r'"},
    {"-rs50 -s t", "'-s'"},
    {"-s -rs50 t", "'-rs50'"},
    {"-s -s8k t", "'-s8k'"},
    {"-si -s t", "'-s'"},
    {"-rs0 t", "'-rs0'"},
    {"-rs101 t", "'-rs101'"},
    {"-rs t", "'-rs' needs"},
    {"-rs50x t", "'-rs50x'"},
    {"-rs50 -rs60 t", "'-rs60'"},
    {"-s8x t", "'-s8x'"},
    {"-six t", "'-six'"},
    /* -S and -h (DISKSPD's -S/-h letters) */
    {"-Sx t", "'-Sx'"},
    {"-Sb -Sb t", "'-Sb'"},
    {"-Sm -Sm t", "'-Sm'"},
    {"-Sw -Sw t", "'-Sw'"},
    {"-Sub t", "'-Sub'"},
    {"-Sbu t", "'-Sbu'"},
    {"-Smu t", "'-Smu'"},
    {"-Sum t", "'-Sum'"},
    {"-S -Su t", "'-Su'"},
    {"-Su -S t", "'-S'"},
    {"-Sm -S t", "'-S'"},
    {"-Sb -h t", "'-h'"},
    {"-h -Sb t", "'-Sb'"},
    {"-Suw -h t", "'-h'"},
    {"-h -Suw t", "'-Suw'"},
    {"-Sh -Sw t", "'-Sw'"},
    {"-Sw -Sh t", "'-Sh'"},
    {"-Sm -Sh t", "'-Sh'"},
    {"-h -h t", "'-h'"},
    {"-hx t", "'-hx'"},
    {"-SH t", "'-SH'"},
    {"W|-Sru t", "'-Sru'"},
    {"-Sr t", "'-Sr'"},
    /* Windows-only on Linux */
    {"-x t", "'-x'"},
    {"-eq t", "'-eq'"},
    {"-ePROCESS t", "only on Windows"},
    {"-Sm -Nn t", "'-Nn'"},
    {"-Sm -Ni t", "'-Ni'"},
    {"W|-e t", "'-e'"},
    {"W|-eFOO t", "'-eFOO'"},
    {"W|-eqq t", "'-eqq'"},
    {"W|-xy t", "'-xy'"},
    {"-N t", "'-N'"},
    {"-Nvv t", "'-Nvv'"},
    {"-Nx t", "'-Nx'"},
    /* -B -f -c -T */
    {"-B t", "'-B' needs"},
    {"-B1G -B2G t", "'-B2G'"},
    {"-B1Gx t", "'-B1Gx'"},
    {"-B1G: t", "'-B1G:'"},
    {"-B1G:x t", "'-B1G:x'"},
    {"-B:1G t", "'-B:1G'"},
    {"-B1G:10G -f5G t", "'-f5G'"},
    {"-f5G -B1G:10G t", "'-B1G:10G'"},
    {"-f5G -f6G t", "'-f6G'"},
    {"-B18446744073709551615:1 t", "too large"},
    {"-f t", "'-f' needs"},
    {"-fp t", "'-fp'"},
    {"-fx t", "'-fx'"},
    {"-f10GB t", "'-f10GB'"},
    {"-fr5 t", "'-fr5'"},
    {"-c t", "'-c' needs"},
    {"-cX t", "'-cX'"},
    {"-c1G1 t", "'-c1G1'"},
    {"-T0 t", "'-T0'"},
    {"-T t", "'-T' needs"},
    {"-T1Q t", "'-T1Q'"},
    /* sizes that would wrap the offset arithmetic around 2^64 */
    {"-T9223372036854775808 -t2 t", "'-T9223372036854775808'"},
    {"-T18446744073709551615 -t2 t", "(the largest file offset)"},
    {"-T8388608T -t2 t", "'-T8388608T'"},
    {"-T16777216T -t2 t", "too large"},
    {"-b4K -T2251799813685248b -t2 t", "not 9223372036854775808"},
    {"-s8388608T t", "'-s8388608T'"},
    {"-si18446744073709551615 t", "'-si18446744073709551615'"},
    {"-s16777216T t", "'-s16777216T'"},
    {"-r9223372036854775808 t", "'-r9223372036854775808'"},
    {"-r16777215T t", "'-r16777215T'"},
    {"-b4K -r4503599627370496b t", "too large"},
    {"-rs50 -r18446744073709551615 t", "'-r18446744073709551615'"},
    /* -g */
    {"-g t", "'-g'"},
    {"-gi t", "'-gi'"},
    {"-g0 t", "'-g0'"},
    {"-g0i t", "'-g0i'"},
    {"-gi100 t", "'-gi100'"},
    {"-g100x t", "'-g100x'"},
    {"-g100ii t", "'-g100ii'"},
    {"-b512 -g1i t", "'-g1i'"},
    {"-g4294967296 t", "'-g4294967296'"},
    {"-b1G -g5000i t", "too large"},
    {"-g100000000000000000000000000000000000000 t", "at most 2147483647"},
    /* output */
    {"-Rfoo t", "'-Rfoo'"},
    {"-R t", "'-R' needs"},
    {"-Rpfoo t", "'-Rpfoo'"},
    {"-RXMLx t", "'-RXMLx'"},
    {"-vx t", "'-vx'"},
    {"-vss t", "'-vss'"},
    {"-R -Rp t", "'-R' needs"},
    {"-Rp -Rfoo t", "'-Rfoo'"},
    /* -? does not hide an unknown switch before it, nor a bad value of a
     * first-pass switch anywhere (DISKSPD's first pass fails first) */
    {"-q -? t", "unknown switch '-q'"},
    {"-? -Rfoo t", "'-Rfoo'"},
    {"-q -Rfoo -? t", "'-q'"},
    {"-? -q -Xp.xml", "-X cannot be combined with '-?'"},
    /* -y */
    {"-ys t", "'-ys'"},
    {"-yf t", "'-yf': the event name is missing, e.g. -yfMyEvent"},
    {"-yr t", "'-yr'"},
    {"-yp t", "'-yp'"},
    /* sizes past 2^64 that DISKSPD's overflow check lets through */
    {"-c30000000000000000000 t", "'-c30000000000000000000'"},
    {"-r -rdabs10/9223372036854775808:10/9223372036854775808 t",
     "add up to more than 2^64"},
    {"-ye", "'-ye'"},
    {"-yx t", "'-yx'"},
    {"-y t", "'-y'"},
    /* -Z */
    {"-Z0 t", "'-Z0'"},
    {"-Z1Mx t", "'-Z1Mx'"},
    {"-Zq t", "'-Zq'"},
    {"-Zrr t", "'-Zrr'"},
    {"-Z,file t", "'-Z,file'"},
    /* -rd (DISKSPD's -rd rules) */
    {"-r -rdfoo t", "'-rdfoo'"},
    {"-r -rd t", "'-rd'"},
    {"-r -rdpct t", "'-rdpct'"},
    {"-r -rdpct10 t", "'-rdpct10'"},
    {"-r -rdpct10/0 t", "'-rdpct10/0'"},
    {"-r -rdpct10/101 t", "'-rdpct10/101'"},
    {"-r -rdpct101/10 t", "'-rdpct101/10'"},
    {"-r -rdpct60/10:50/10 t", "'-rdpct60/10:50/10'"},
    {"-r -rdpct10/10: t", "'-rdpct10/10:'"},
    {"-r -rdpct10/10x t", "'-rdpct10/10x'"},
    {"-r -rdpct/10 t", "'-rdpct/10'"},
    {"-r -rdpct-1/10 t", "'-rdpct-1/10'"},
    {"-r -rdabs10/0 t", "'-rdabs10/0'"},
    {"-r -rdabs10/1Gx t", "'-rdabs10/1Gx'"},
    {"-r -rdabs10/ t", "'-rdabs10/'"},
    {"-r -rdpct10/10 -rdpct10/10 t", "only once"},
    {"-r -rdpct99999999999999999999/10 t",
     "I/O percentage 99999999999999999999 brings the total over 100%"},
    {"-r -rdpct10/00101 t", "'-rdpct10/00101'"},
    {"-r -rdpct60/10:0041/10 t", "I/O percentage 0041 brings the total"},
    /* general syntax */
    {"-q t", "'-q'"},
    {"-bogus t", "'-bogus'"},
    {"- t", "'-'"},
    {"-- t", "'--'"},
    {"--bogus t", "'--bogus'"},
    {"--progress t", "'--progress': use --progress=auto, always or never"},
    {"--progress= t", "'--progress=': use --progress=auto, always or never"},
    {"--progress=yes t",
     "'--progress=yes': unknown --progress value 'yes'; use auto, always or "
     "never"},
    {"--progress=Always t", "unknown --progress value 'Always'"},
    {"--timeseries= t", "'--timeseries='"},
    {"--timeseries=a.json t", "'--timeseries=a.json'"},
    {"--timeseries=csv t", "'--timeseries=csv'"},
    {"--allow-raw-write=1 t", "'--allow-raw-write=1'"},
    {"--compress t",
     "'--compress': use --compress=PCT with PCT the zlib saving, a whole "
     "number from 0 to 100"},
    {"--compress=101 t",
     "'--compress=101': --compress takes the zlib saving as a whole number "
     "from 0 to 100, not '101'"},
    {"--compress=abc t", "--compress takes the zlib saving as a whole number "
                         "from 0 to 100, not 'abc'"},
    {"--compress=99999999999999999999999 t",
     "not '99999999999999999999999'"},
    {"--dedupe=-1 t",
     "'--dedupe=-1': --dedupe takes the share of repeated blocks as a whole "
     "number from 0 to 100, not '-1'"},
    {"--dedupe=5.5 t", "not '5.5'"},
    {"--dedupe= t", "'--dedupe=': use --dedupe=PCT"},
    {"--help=x", "'--help=x'"},
    {"t -b4K", "'-b4K' comes after the target 't'"},
    {"a b -r", "'-r' comes after"},
    {"-b4K", "no target"},
    {"-w10 -r", "no target"},
    {"\xe2\x80\x93" "b4K t", "wrong dash; use '-b4K'"},
    {"\xe2\x80\x94" "b4K t", "wrong dash; use '-b4K'"},
    {"\xe2\x88\x92" "b4K t", "wrong dash; use '-b4K'"},
    {"-b4K t \xe2\x80\x93" "r", "wrong dash; use '-r'"},
    {"'' t", "empty"},
    {"-b4K ''", "empty"},
    {"-Lx t", "'-Lx'"},
    {"-nfoo t", "'-nfoo'"},
    {"-l1 t", "'-l1'"},
    {"-p2 t", "'-p2'"},
    {"W|/bx t", "'/bx'"},
    /* -X combinations (DISKSPD's two-pass parse) */
    {"-Xp.xml -b4K t", "'-b4K' cannot be combined with -X"},
    {"-Xp.xml -r t", "'-r' cannot be combined with -X"},
    {"-Xp.xml -ysA t", "'-ysA' cannot be combined with -X"},
    {"-b4K -Xp.xml", "-X cannot be combined with '-b4K'"},
    {"-o2 -d5 -Xp.xml", "-X cannot be combined with '-o2'"},
    {"-Xa.xml -Xb.xml", "only one XML profile"},
    {"-X t", "'-X' needs"},
    {"-q -Xp.xml", "'-q'"},
};

static void test_cmdline_invalid_lines(void** state) {
  (void)state;
  int failures = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_bad); i++) {
    const char* line = k_bad[i].line;
    args_t a;
    split(&a, line);
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action, NULL,
                                 &err);
    if (rc != IOSPD_EUSAGE) {
      print_error("'%s': expected IOSPD_EUSAGE, got %d (%s)\n", line, rc,
                  err.msg);
      failures++;
    } else if (strstr(err.msg, k_bad[i].msg) == NULL) {
      print_error("'%s': message '%s' lacks '%s'\n", line, err.msg,
                  k_bad[i].msg);
      failures++;
    } else if (strchr(err.msg, '\n') != NULL) {
      print_error("'%s': message is more than one line: %s\n", line,
                  err.msg);
      failures++;
    }
    iospd_profile_destroy(&p);
  }
  print_message("%d invalid command lines checked\n",
                (int)IOSPD_ARRAY_SIZE(k_bad));
  assert_int_equal(failures, 0);
}

/* ---- individual behaviours ----------------------------------------------- */

/* A few messages in full: the wording names the switch, the value and what
 * is allowed. */
/* "auto|io_uring|..." from the platform's table, built here from the
 * table itself rather than from the list call under test. */
static void engine_words_joined(char* out, size_t size, const char* sep) {
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  size_t at = 0;
  out[0] = '\0';
  for (uint32_t i = 0; i < n; i++) {
    if (e[i].caps & IOSPD_ENGINE_CAP_ABSENT) continue;
    at += (size_t)snprintf(out + at, size - at, "%s%s", at ? sep : "",
                           e[i].name);
  }
}

/* --engine=<word>: every word of the platform's table parses to its own
 * index (the profile keeps the index); a word the table lacks is refused
 * naming the switch and listing this platform's words; the last one given
 * wins; -x on Linux points at --engine with the same words. */
static void test_cmdline_engine_table(void** state) {
  (void)state;
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  assert_true(n >= 3); /* auto, at least one engine, null */
  assert_true(iospd_engine_choice_parse("null") > 0);
  assert_true(e[iospd_engine_choice_parse("null")].caps & IOSPD_ENGINE_CAP_NO_IO);
  assert_string_equal(e[IOSPD_ENGINE_AUTO].name, "auto");
  assert_true(e[IOSPD_ENGINE_AUTO].caps & IOSPD_ENGINE_CAP_POLICY);
  for (uint32_t i = 0; i < n; i++) {
    assert_non_null(e[i].create);
    assert_true(e[i].summary != NULL && e[i].summary[0] != '\0');
    assert_int_equal(iospd_engine_choice_parse(e[i].name), (int)i);
    assert_string_equal(iospd_engine_choice_name((int)i), e[i].name);
    for (uint32_t j = 0; j < i; j++) assert_string_not_equal(e[i].name, e[j].name);
    if (i > 0) assert_false(e[i].caps & IOSPD_ENGINE_CAP_POLICY);
    char line[96];
    snprintf(line, sizeof line, "--engine=%s t", e[i].name);
    args_t a;
    split(&a, line);
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action, NULL,
                                 &err);
    if (rc != 0) fail_msg("%s: %s", line, err.msg);
    assert_int_equal(p.ext.engine, (int)i);
    iospd_profile_destroy(&p);
  }
  assert_null(iospd_engine_choice_name((int)n));
  assert_null(iospd_engine_choice_name(-1));
  assert_int_equal(iospd_engine_choice_parse("spdk"), -1);
  char words[256], pipes[256], want[512];
  engine_words_joined(words, sizeof words, ", ");
  engine_words_joined(pipes, sizeof pipes, "|");
  /* ", x" before the last word becomes " or x". */
  char* last = strrchr(words, ',');
  assert_non_null(last);
  char listed[300];
  snprintf(listed, sizeof listed, "%.*s or%s", (int)(last - words), words,
           last + 1);
  static const struct {
    const char* line;
    const char* fmt;
  } bad[] = {
      {"--engine t", "'--engine': use --engine=%s"},
      {"--engine= t", "'--engine=': use --engine=%s"},
      {"--engine=spdk t", "'--engine=spdk': unknown engine 'spdk'; use %s"},
      {"--engine=Auto t", "'--engine=Auto': unknown engine 'Auto'; use %s"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(bad); i++) {
    args_t a;
    split(&a, bad[i].line);
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    assert_int_equal(iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action,
                                         NULL, &err),
                     IOSPD_EUSAGE);
    snprintf(want, sizeof want, bad[i].fmt, listed);
    assert_string_equal(err.msg, want);
    iospd_profile_destroy(&p);
  }
  /* The last --engine wins: the table's last word, then auto. */
  {
    char line[128];
    snprintf(line, sizeof line, "--engine=%s --engine=auto t",
             e[n - 1].name);
    args_t a;
    split(&a, line);
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    assert_int_equal(iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action,
                                         NULL, &err),
                     0);
    assert_int_equal(p.ext.engine, IOSPD_ENGINE_AUTO);
    iospd_profile_destroy(&p);
  }
  /* -x on Linux offers --engine= with the platform's words. */
  {
    args_t a;
    split(&a, "-x t");
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    assert_int_equal(iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action,
                                         NULL, &err),
                     IOSPD_EUSAGE);
    snprintf(want, sizeof want,
             "'-x': -x (completion routines) exists only on Windows; on "
             "Linux choose how I/O is issued with --engine=%s",
             pipes);
    assert_string_equal(err.msg, want);
    iospd_profile_destroy(&p);
  }
}

static void test_cmdline_exact_messages(void** state) {
  (void)state;
  static const struct {
    const char* line;
    const char* msg;
  } k[] = {
      {"-o8x t",
       "'-o8x': the outstanding I/O count must be a whole number from 1 to "
       "2147483647, not '8x'"},
      {"-w101 t",
       "'-w101': the write percentage must be a whole number from 0 to 100, "
       "not '101'"},
      {"-b0 t", "'-b0': the block size must be from 1 to 4294967294 bytes, "
                "not 0"},
      {"\xe2\x80\x93" "b4K t",
       "'\xe2\x80\x93" "b4K' looks like a switch typed with the wrong dash; "
       "use '-b4K'"},
      {"t -b4K",
       "'-b4K' comes after the target 't'; put all switches before the "
       "targets"},
      {"-Q1 t", "unknown switch '-Q1'"},
      /* -Sr is refused on Linux, so only Windows offers it. */
      {"-Sq t", "'-Sq': unknown -S letter 'q'; use b, h, m, u or w"},
      {"W|-Sq t", "'-Sq': unknown -S letter 'q'; use b, h, m, r, u or w"},
      {"--output=html: t", "'--output=html:': no file name; use "
                           "--output=html:FILE"},
      {"--output=yaml:r.y t",
       "'--output=yaml:r.y': unknown output format 'yaml'; use "
       "--output=FORMAT:FILE with FORMAT text, xml, json, html or fio-json"},
      {"--output=json: t", "'--output=json:': no file name; use "
                           "--output=json:FILE"},
      {"--output=json t", "'--output=json': no file name; use "
                          "--output=json:FILE"},
      {"--output t", "'--output': use --output=FORMAT:FILE with FORMAT text, "
                     "xml, json, html or fio-json"},
      {"-Rpjson t", "'-Rpjson': the profile alone is printed as text or XML "
                    "only; use -Rptext or -Rpxml (JSON holds results: -Rjson)"},
      {"-Ryaml t", "'-Ryaml': unknown result format; use -Rtext, -Rxml, "
                   "-Rjson, -Rfio-json, -Rp, -Rptext or -Rpxml"},
      {"--no-such-option t",
       "unknown option '--no-such-option' (the iospd long options are at the "
       "end of -?)"},
      {"--timeserie=a.csv t",
       "unknown option '--timeserie=a.csv'; did you mean --timeseries?"},
      {"--engin=libaio t",
       "unknown option '--engin=libaio'; did you mean --engine?"},
      {"--files=10 t",
       "'--files=10' belongs to the file-tree mode: add --tree=DIR[,DIR...]"},
      {"--tree=a t",
       "'t': --tree takes no targets; the files are made in the --tree "
       "directories"},
      {"--tree=a,,b", "'--tree=a,,b': an empty directory name in the list; "
                      "separate the directories with single commas"},
      {"--tree=a --skew=7", "'--skew=7': use --skew=HOT:COLD with two whole "
                            "numbers from 1 to 1000000, e.g. --skew=7:1"},
      {"--tree=a --skew=0:1", "'--skew=0:1': use --skew=HOT:COLD with two "
                              "whole numbers from 1 to 1000000, e.g. "
                              "--skew=7:1"},
      {"--tree=a --assign=spread",
       "'--assign=spread': use --assign=even, ordered or random"},
      {"--tree=a --append=1", "'--append=1': --append takes no value"},
      {"-Xp.xml --tree=a", "'--tree=a' cannot be combined with -X: the "
                           "profile's <Tree> element holds the file-tree "
                           "settings (docs/tree.md)"},
      {"--tree=a --relocate=0",
       "'--relocate=0': the relocation rate must be a whole number from 1 "
       "to 100000, not '0'"},
      {"--verify-errors t",
       "'--verify-errors': use --verify-errors=N, N the number of failures "
       "to print (0 to 4294967295)"},
      {"--verify=1 t", "'--verify=1': --verify takes no value"},
      {"--verify-state t", "'--verify-state': use --verify-state=FILE"},
      {"--version -b4K",
       "'--version' must be the only argument: iospd --version"},
      {"-b4K --version t",
       "'--version' must be the only argument: iospd --version"},
      {"--version=1", "'--version=1': --version takes no value"},
      {"-b4K --report a.json",
       "'--report' is a mode of its own and must be the first argument: "
       "iospd --report a.json [b.json ...] --output=html:FILE"},
      {"-b4K --merge a.json",
       "'--merge' is a mode of its own and must be the first argument: "
       "iospd --merge a.json b.json ..."},
      {"--merge=a.json b.json", "'--merge=a.json': --merge takes no value"},
      {"-b4K --compare a.json b.json",
       "'--compare' is a mode of its own and must be the first argument: "
       "iospd --compare a.json b.json ..."},
      {"--compare=a.json b.json",
       "'--compare=a.json': --compare takes no value"},
      {"--timeseries=run.txt t",
       "'--timeseries=run.txt': --timeseries takes a file ending in .csv or "
       ".jsonl (the extension picks the format)"},
      {"--timeseries t",
       "'--timeseries': use --timeseries=FILE with FILE ending in .csv or "
       ".jsonl"},
      {"-eDISK_IO t", "'-eDISK_IO': -e (ETW tracing) exists only on Windows"},
      {"-a1,,2 t",
       "'-a1,,2': unexpected ',' at position 3 of the affinity list; "
       "expected a CPU number, not an empty item (items are CPU numbers "
       "0-255 or g<group>, separated by commas)"},
      {"-Sb -Sb t",
       "'-Sb': 'b' (cached) conflicts with an earlier cache mode; the cache "
       "mode may be set only once"},
      {"-Sub t",
       "'-Sub': 'b' (cached) conflicts with an earlier cache mode; the cache "
       "mode may be set only once"},
      {"-T0 t", "'-T0': the thread stride must be at least 1 byte"},
      /* "-X file": the name must be glued to -X, as in DISKSPD */
      {"-X xml/examples/oltp.xml t",
       "'-X' needs the profile file name glued to it, with no space: "
       "-Xxml/examples/oltp.xml"},
      {"-X p.xml -Rp t",
       "'-X' needs the profile file name glued to it, with no space: "
       "-Xp.xml"},
      {"W|/X p.xml",
       "'/X' needs the profile file name glued to it, with no space: /Xp.xml"},
      {"-X -Rp t",
       "'-X' needs the profile file name glued to it, e.g. -Xprofile.xml"},
      {"-T18446744073709551615 -t2 t",
       "'-T18446744073709551615': the thread stride must be from 1 to "
       "9223372036854775807 bytes (the largest file offset), not "
       "18446744073709551615"},
      {"-s16777216T t",
       "'-s16777216T': the sequential stride '16777216T' is too large: at "
       "most 9223372036854775807 bytes (the largest file offset)"},
      {"-r8388608T t",
       "'-r8388608T': the random alignment must be from 1 to "
       "9223372036854775807 bytes (the largest file offset), not "
       "9223372036854775808"},
      {"-c16777216T t",
       "'-c16777216T': the file size '16777216T' is too large: at most "
       "18446744073709551615 bytes"},
      {"-r -s t",
       "'-s': sequential I/O (-s) conflicts with random I/O (-r)"},
      {"-b512 -g1i t",
       "'-g1i': 1 I/Os per second of 512 bytes is less than 1 byte per "
       "millisecond, the smallest limit iospd can apply"},
      {"-b4K",
       "no target given: name at least one file, disk (#<n>) or volume "
       "(<letter>:) after the switches"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    args_t a;
    split(&a, k[i].line);
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = iospd_cmdline_parse(a.argc, a.argv, a.env, &p, &action, NULL,
                                 &err);
    assert_int_equal(rc, IOSPD_EUSAGE);
    assert_int_equal(err.code, IOSPD_EUSAGE);
    assert_string_equal(err.msg, k[i].msg);
    iospd_profile_destroy(&p);
  }
}

/* The switches DISKSPD reads with atoi: the MSVC atoi saturates, so any
 * value from 2147483648 up means 2147483647 there. iospd takes exactly
 * 2147483647 (k_ok) and refuses what DISKSPD would silently change. */
static void test_cmdline_atoi_switches_stop_at_int_max(void** state) {
  (void)state;
  static const struct {
    const char* sw; /* switch; "%s" is the number */
    const char* what;
    unsigned min;
  } k[] = {
      {"-o%s", "outstanding I/O count", 1},
      {"-t%s", "threads per target", 1},
      {"-F%s", "total thread count", 1},
      {"-O%s", "outstanding I/Os per thread", 1},
      {"-i%s", "burst size", 1},
      {"-j%s", "think time", 1},
      {"-d%s", "test duration", 0},
      {"-W%s", "warm-up time", 0},
      {"-C%s", "cool-down time", 0},
      {"-D%s", "IOPS interval in ms", 0},
      {"-P%s", "progress interval", 0},
      {"-:%s", "experiment flags", 0},
      {"-g%s", "bytes per millisecond", 1},
      {"-g%si", "I/Os per second", 1},
  };
  static const char* const too_big[] = {"2147483648", "4294967295",
                                        "4294967296", "99999999999"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    char sw[64], want[256];
    iospd_profile_t p;
    iospd_cmdline_action_t action;
    iospd_err_t err;
    for (size_t j = 0; j < IOSPD_ARRAY_SIZE(too_big); j++) {
      snprintf(sw, sizeof sw, k[i].sw, too_big[j]);
      const char* argv[] = {"iospd", sw, "t"};
      iospd_profile_init(&p);
      int rc = iospd_cmdline_parse(3, argv, &k_linux, &p, &action, NULL, &err);
      snprintf(want, sizeof want,
               "'%s': the %s must be a whole number from %u to 2147483647, "
               "not '%s'",
               sw, k[i].what, k[i].min, too_big[j]);
      if (rc != IOSPD_EUSAGE || strcmp(err.msg, want) != 0)
        fail_msg("%s: rc %d, message '%s', expected '%s'", sw, rc, err.msg,
                 want);
      iospd_profile_destroy(&p);
    }
  }
}

static void test_cmdline_no_arguments_is_usage_error(void** state) {
  (void)state;
  const char* argv[] = {"iospd"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
  assert_int_equal(
      iospd_cmdline_parse(1, argv, &k_linux, &p, &action, NULL, NULL), 0);
  assert_int_equal(action, IOSPD_ACTION_USAGE_ERROR);
  assert_int_equal(p.timespan_count, 0);
}

/* --merge first: a mode whose files main.c reads; the parser leaves the
 * profile alone (no target, no run). Also with no file: main.c says so. */
static void test_cmdline_merge_mode(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--merge", "a.json", "-b4K", "b.json"};
  for (int argc = 2; argc <= 5; argc++) {
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
    assert_int_equal(
        iospd_cmdline_parse(argc, argv, &k_linux, &p, &action, NULL, NULL), 0);
    assert_int_equal(action, IOSPD_ACTION_MERGE);
    assert_int_equal(p.timespan_count, 0);
    assert_null(p.cmdline);
    iospd_profile_destroy(&p);
  }
}

/* --report first: a mode whose files and --output=html main.c reads; the
 * parser leaves the profile alone, whatever follows. */
static void test_cmdline_report_mode(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--report", "a.json", "--output=html:r.html",
                        "--force"};
  for (int argc = 2; argc <= 5; argc++) {
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
    assert_int_equal(
        iospd_cmdline_parse(argc, argv, &k_linux, &p, &action, NULL, NULL), 0);
    assert_int_equal(action, IOSPD_ACTION_REPORT);
    assert_int_equal(p.timespan_count, 0);
    assert_int_equal(p.ext.output_count, 0);
    iospd_profile_destroy(&p);
  }
}

/* --output=html:FILE is an output like the others. */
static void test_cmdline_output_html(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--output=html:C:\\r\\run.html", "t"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  assert_int_equal(
      iospd_cmdline_parse(3, argv, &k_linux, &p, &action, NULL, &err), 0);
  assert_int_equal(p.ext.output_count, 1);
  assert_int_equal(p.ext.outputs[0].format, IOSPD_FORMAT_HTML);
  assert_string_equal(p.ext.outputs[0].path, "C:\\r\\run.html");
  iospd_profile_destroy(&p);
}

/* --compare first: a mode whose arguments iospd_compare_mode reads; the
 * parser leaves the profile alone, whatever follows. */
static void test_cmdline_compare_mode(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--compare", "a.json", "--force", "b.json"};
  for (int argc = 2; argc <= 5; argc++) {
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
    assert_int_equal(
        iospd_cmdline_parse(argc, argv, &k_linux, &p, &action, NULL, NULL), 0);
    assert_int_equal(action, IOSPD_ACTION_COMPARE);
    assert_int_equal(p.timespan_count, 0);
    assert_null(p.cmdline);
    iospd_profile_destroy(&p);
  }
}

/* --version alone: a mode with no profile; main.c prints the text. */
static void test_cmdline_version_mode(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--version"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
  assert_int_equal(
      iospd_cmdline_parse(2, argv, &k_linux, &p, &action, NULL, NULL), 0);
  assert_int_equal(action, IOSPD_ACTION_VERSION);
  assert_int_equal(p.timespan_count, 0);
  iospd_profile_destroy(&p);
}

/* The --version text, line by line, from what the platform says. */
static void test_cmdline_version_text(void** state) {
  (void)state;
  iospd_plat_build_t b = {"linux", "x86_64"};
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_cmdline_version(&sb, &b);
  /* The engines line is the platform's table without the auto policy and
   * without what this build left out. */
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  char engines[256] = "";
  size_t at = 0;
  for (uint32_t i = 1; i < n; i++)
    if (!(e[i].caps & IOSPD_ENGINE_CAP_ABSENT))
      at += (size_t)snprintf(engines + at, sizeof engines - at, "%s%s",
                             at ? ", " : "", e[i].name);
  char want[512];
  snprintf(want, sizeof want,
           "iospd " IOSPD_VERSION "\ncommit: %s\nbuilt: %s (UTC)\n"
           "engines: %s\n"
           "platform: linux x86_64\ncommand line: DISKSPD 2.2.0 "
           "(--diskspd=2.2) and 2.3.0 (--diskspd=2.3, the default)\n",
           iospd_build_commit(), iospd_build_date(), engines);
  assert_string_equal(iospd_strbuf_cstr(&sb), want);
  /* The date is a day, YYYY-MM-DD (the build stamps one). */
  const char* d = iospd_build_date();
  assert_int_equal(strlen(d), 10);
  assert_true(d[4] == '-' && d[7] == '-');
  /* No architecture known: no trailing space. */
  iospd_plat_build_t w = {"windows", ""};
  iospd_strbuf_reset(&sb);
  iospd_cmdline_version(&sb, &w);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb), "\nplatform: windows\n"));
  iospd_strbuf_destroy(&sb);
}

static void test_cmdline_slash_is_target_on_linux(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "-b4K", "/dev/sdb", "/tmp/x"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  assert_int_equal(
      iospd_cmdline_parse(4, argv, &k_linux, &p, &action, NULL, &err), 0);
  assert_int_equal(p.timespans[0].target_count, 2);
  assert_string_equal(p.timespans[0].targets[0].path, "/dev/sdb");
  assert_string_equal(p.timespans[0].targets[1].path, "/tmp/x");
  assert_string_equal(p.cmdline, "iospd -b4K /dev/sdb /tmp/x");
  iospd_profile_destroy(&p);
  /* On Windows the same /dev/sdb is a (bad) switch. */
  iospd_profile_init(&p);
  assert_int_equal(
      iospd_cmdline_parse(3, argv, &k_windows, &p, &action, NULL, &err),
      IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "/dev/sdb"));
  iospd_profile_destroy(&p);
}

static void test_cmdline_null_env_and_no_warnings_buffer(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "-z", "-O4", "f"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  assert_int_equal(iospd_cmdline_parse(4, argv, NULL, &p, &action, NULL, NULL),
                   0);
  assert_int_equal(p.timespans[0].rand_seed, 0);
  assert_true(p.timespans[0].rand_seed_from_clock);
  iospd_profile_destroy(&p);
}

static int g_alloc_budget;
static bool alloc_gate(size_t n) {
  (void)n;
  return g_alloc_budget-- > 0;
}

static void test_cmdline_allocation_failure(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "-a0,1,2,3", "-r", "-rdpct10/10:20/20",
                        "-Z1M,f", "-ysA", "t1", "t2"};
  /* Fail the k-th allocation for every k: each attempt must end in ENOMEM
   * (or success once enough allocations are allowed) without leaking. */
  bool succeeded = false;
  for (int k = 0; k < 200 && !succeeded; k++) {
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_cmdline_action_t action;
    iospd_err_t err;
    g_alloc_budget = k;
    iospd_alloc_set_gate(alloc_gate);
    int rc = iospd_cmdline_parse(8, argv, &k_linux, &p, &action, NULL, &err);
    iospd_alloc_set_gate(NULL);
    if (rc == 0) {
      succeeded = true;
      assert_int_equal(p.timespans[0].target_count, 2);
      assert_int_equal(p.timespans[0].affinity_count, 4);
      assert_int_equal(p.timespans[0].targets[1].dist_count, 3);
      assert_string_equal(p.timespans[0].targets[1].random_data_path, "f");
    } else {
      assert_int_equal(rc, IOSPD_ENOMEM);
      assert_non_null(strstr(err.msg, "out of memory"));
    }
    iospd_profile_destroy(&p);
  }
  assert_true(succeeded);
}

/* The XML path needs the real profile reader: it must parse the profile
 * (a failure here is a regression, not a reason to skip). */
static void assert_xml_reader_parses(void) {
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_err_t err;
  int rc = iospd_xml_profile_parse(k_profile_xml, strlen(k_profile_xml), &p,
                                   &err);
  iospd_profile_destroy(&p);
  if (rc != 0) fail_msg("XML reader failed (%d): %s", rc, err.msg);
}

/* --timeseries=FILE: the path as given, also with -X; the extension in any
 * case. A second --timeseries is refused (the last one used to win
 * silently, issue #30). */
static void test_cmdline_timeseries(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "--timeseries=Run.JSONL", "t"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(3, argv, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_non_null(p.ext.timeseries_path);
  assert_string_equal(p.ext.timeseries_path, "Run.JSONL");
  iospd_profile_destroy(&p);
  assert_null(p.ext.timeseries_path);

  const char* twice[] = {"iospd", "--timeseries=a.csv",
                         "--timeseries=Run.JSONL", "t"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(4, twice, &k_linux, &p, &action, NULL, &err);
  assert_int_equal(rc, IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "'--timeseries=Run.JSONL': --timeseries is given twice "
                      "(first 'a.csv'); a run writes one time series: keep "
                      "one --timeseries=FILE");
  iospd_profile_destroy(&p);

  assert_xml_reader_parses();
  const char* argv2[] = {"iospd", "-Xp.xml", "--timeseries=C:\\out\\s.CSV"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(3, argv2, &k_windows, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_string_equal(p.ext.timeseries_path, "C:\\out\\s.CSV");
  iospd_profile_destroy(&p);

  /* Without the option: no path. */
  const char* argv3[] = {"iospd", "t"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(2, argv3, &k_linux, &p, &action, NULL, &err);
  assert_int_equal(rc, 0);
  assert_null(p.ext.timeseries_path);
  iospd_profile_destroy(&p);
}

static void test_cmdline_xml_overrides(void** state) {
  (void)state;
  assert_xml_reader_parses();
  const char* argv[] = {"iospd", "-d60", "-W1", "-Xp.xml", "-C2", "-z7",
                        "-Rpxml", "-v", "-vs", "-:1", NULL,
                        "--progress=never", "/data/t1"};
  /* The table's last engine: every platform has it. */
  uint32_t nengines = 0;
  const iospd_engine_def_t* engines = iospd_plat_engines(&nengines);
  char engine_arg[64];
  snprintf(engine_arg, sizeof engine_arg, "--engine=%s",
           engines[nengines - 1].name);
  argv[10] = engine_arg;
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(13, argv, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_int_equal(action, IOSPD_ACTION_RUN);
  assert_int_equal(p.timespan_count, 2);
  for (uint32_t i = 0; i < 2; i++) {
    const iospd_timespan_t* ts = &p.timespans[i];
    assert_int_equal(ts->duration, 60);
    assert_int_equal(ts->warmup, 1);
    assert_int_equal(ts->cooldown, 2);
    assert_int_equal(ts->rand_seed, 7);
    assert_string_equal(ts->targets[0].path, "/data/t1");
  }
  assert_int_equal(p.timespans[0].targets[0].block_size, 4096);
  assert_int_equal(p.format, IOSPD_FORMAT_XML);
  assert_true(p.profile_only);
  assert_true(p.verbose);
  assert_true(p.verbose_stats);
  assert_int_equal(p.experiment_flags, 1);
  assert_int_equal(p.ext.engine, (int)nengines - 1);
  assert_int_equal(p.ext.status_line, IOSPD_STATUS_NEVER);
  assert_string_equal(p.xml_source, "p.xml");
  char want_cmdline[256];
  snprintf(want_cmdline, sizeof want_cmdline,
           "iospd -d60 -W1 -Xp.xml -C2 -z7 -Rpxml -v -vs -:1 "
           "%s --progress=never /data/t1",
           engine_arg);
  assert_string_equal(p.cmdline, want_cmdline);
  iospd_profile_destroy(&p);

  /* Without overrides the profile's own values stay; no targets keeps *1. */
  const char* argv2[] = {"iospd", "-Xp.xml", "-Rp"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(3, argv2, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_int_equal(p.timespans[0].duration, 3);
  assert_int_equal(p.timespans[1].duration, 4);
  assert_string_equal(p.timespans[0].targets[0].path, "*1");
  iospd_profile_destroy(&p);

  /* -Rp with -X keeps the profile's own result format (DISKSPD applies
   * only an explicit format word); -Rtext overrides it. */
  {
    static const struct {
      const char* sw;
      iospd_result_format_t fmt;
    } k[] = {{"-Rp", IOSPD_FORMAT_XML},
             {"-Rptext", IOSPD_FORMAT_TEXT},
             {"-Rtext", IOSPD_FORMAT_TEXT}};
    for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
      const char* argv4[] = {"iospd", "-Xpx.xml", k[i].sw, "t"};
      iospd_profile_init(&p);
      rc = iospd_cmdline_parse(4, argv4, &k_linux, &p, &action, NULL, &err);
      if (rc != 0) fail_msg("%s: rc %d: %s", k[i].sw, rc, err.msg);
      if (p.format != k[i].fmt)
        fail_msg("-Xpx.xml %s: format %d, expected %d", k[i].sw,
                 (int)p.format, (int)k[i].fmt);
      assert_int_equal(p.profile_only, k[i].sw[2] == 'p');
      iospd_profile_destroy(&p);
    }
  }

  /* A bare -z with -X seeds every timespan from the clock. */
  const char* argv3[] = {"iospd", "-Xp.xml", "-z", "t"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(4, argv3, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_int_equal(p.timespans[1].rand_seed, 3197704724u);
  assert_true(p.timespans[1].rand_seed_from_clock);
  iospd_profile_destroy(&p);
}

/* --output=FORMAT:FILE (repeatable, FILE may hold colons) and -Rjson; with
 * -X the outputs move into the profile read from the file (ASan catches a
 * double free or a leak). */
static void test_cmdline_output_and_json(void** state) {
  (void)state;
  const char* argv[] = {"iospd", "-RJSON", "--output=json:r.json",
                        "--output=xml:C:\\x\\r.xml", "--output=text:a:b",
                        "t"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(6, argv, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_int_equal(p.format, IOSPD_FORMAT_JSON);
  assert_int_equal(p.ext.output_count, 3);
  assert_int_equal(p.ext.outputs[0].format, IOSPD_FORMAT_JSON);
  assert_string_equal(p.ext.outputs[0].path, "r.json");
  assert_int_equal(p.ext.outputs[1].format, IOSPD_FORMAT_XML);
  assert_string_equal(p.ext.outputs[1].path, "C:\\x\\r.xml");
  assert_int_equal(p.ext.outputs[2].format, IOSPD_FORMAT_TEXT);
  assert_string_equal(p.ext.outputs[2].path, "a:b");
  iospd_profile_destroy(&p);

  assert_xml_reader_parses();
  const char* argv2[] = {"iospd", "-Xp.xml", "--output=json:r.json",
                         "--output=text:r.txt"};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(4, argv2, &k_linux, &p, &action, NULL, &err);
  if (rc != 0) fail_msg("rc %d: %s", rc, err.msg);
  assert_int_equal(p.ext.output_count, 2);
  assert_string_equal(p.ext.outputs[0].path, "r.json");
  assert_string_equal(p.ext.outputs[1].path, "r.txt");
  assert_int_equal(p.ext.outputs[1].format, IOSPD_FORMAT_TEXT);
  iospd_profile_destroy(&p);
  assert_null(p.ext.outputs);
}

static void test_cmdline_xml_read_errors(void** state) {
  (void)state;
  assert_xml_reader_parses();
  {
    /* Reader errors are prefixed with the file name; a substitution that
     * does not fit the profile fails too. */
    const char* two[] = {"iospd", "-Xp.xml", "a", "b"};
    iospd_profile_t q;
    iospd_profile_init(&q);
    iospd_cmdline_action_t act;
    iospd_err_t e;
    int r = iospd_cmdline_parse(4, two, &k_linux, &q, &act, NULL, &e);
    assert_true(r < 0);
    assert_memory_equal(e.msg, "p.xml: ", 7);
    assert_non_null(strstr(e.msg, "b"));
    iospd_profile_destroy(&q);
  }
  const char* argv[] = {"iospd", "-Xmissing.xml", "t"};
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(3, argv, &k_linux, &p, &action, NULL, &err);
  assert_int_equal(rc, IOSPD_ENOENT);
  assert_string_equal(err.msg, "cannot open 'missing.xml'");
  iospd_profile_destroy(&p);
  /* No reader in the environment. */
  iospd_cmdline_env_t env = {false, false, NULL, NULL};
  iospd_profile_init(&p);
  rc = iospd_cmdline_parse(3, argv, &env, &p, &action, NULL, &err);
  assert_int_equal(rc, IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "missing.xml"));
  iospd_profile_destroy(&p);
}

/* Every switch in the table appears in the usage text, and the platform
 * notes differ between Linux and Windows. */
static void test_cmdline_usage_documents_every_switch(void** state) {
  (void)state;
  iospd_strbuf_t lin, win;
  iospd_strbuf_init(&lin);
  iospd_strbuf_init(&win);
  iospd_cmdline_usage(&lin, "iospd", &k_linux);
  iospd_cmdline_usage(&win, "iospd.exe", &k_windows);
  const char* l = iospd_strbuf_cstr(&lin);
  const char* w = iospd_strbuf_cstr(&win);
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    char first[160];
    /* --engine=<engine> is shown with the platform's words, each with its
     * own line. */
    iospd_strbuf_t syn;
    iospd_strbuf_init(&syn);
    iospd_engine_choice_syntax(&syn, o->syntax);
    snprintf(first, sizeof first, "%.*s",
             (int)strcspn(iospd_strbuf_cstr(&syn), "\n"),
             iospd_strbuf_cstr(&syn));
    iospd_strbuf_destroy(&syn);
    if (iospd_opt_id(o) == IOSPD_OID_engine) {
      uint32_t n = 0;
      const iospd_engine_def_t* e = iospd_plat_engines(&n);
      char line[160];
      for (uint32_t k = 0; k < n; k++) {
        snprintf(line, sizeof line, "\n        %s: %s\n", e[k].name,
                 e[k].summary);
        if (strstr(l, line) == NULL) fail_msg("usage lacks%s", line);
        snprintf(line, sizeof line, "|%s", e[k].name);
        if (k > 0 && strstr(first, line) == NULL)
          fail_msg("%s lacks %s", first, e[k].name);
      }
    }
    if (strstr(l, first) == NULL) fail_msg("usage lacks %s", first);
    if (strstr(w, first) == NULL) fail_msg("windows usage lacks %s", first);
    assert_non_null(o->help);
  }
  static const char* const topics[] = {
      "Targets", "Sizes", "I/O pattern", "Caching", "Threads", "Timing",
      "Rate limits", "Output", "XML profiles", "Windows-only",
      "iospd additions", "Examples"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(topics); i++) {
    assert_non_null(strstr(l, topics[i]));
    assert_non_null(strstr(w, topics[i]));
  }
  assert_non_null(strstr(l, "Usage: iospd [switches]"));
  assert_non_null(strstr(w, "Usage: iospd.exe [switches]"));
  assert_non_null(strstr(l, "-Sr is refused"));
  assert_null(strstr(w, "-Sr is refused"));
  assert_non_null(strstr(l, "/dev/"));
  assert_non_null(strstr(w, "#1"));
  assert_non_null(strstr(w, "'/' starts a switch"));
  assert_null(strstr(l, "'/' starts a switch"));
  /* Lines stay readable on an 80-column terminal. */
  for (const char* p = l; *p;) {
    size_t n = strcspn(p, "\n");
    if (n > 80) fail_msg("usage line too long: %.*s", (int)n, p);
    p += n;
    if (*p) p++;
  }
  iospd_strbuf_destroy(&lin);
  iospd_strbuf_destroy(&win);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cmdline_valid_lines),
      cmocka_unit_test(test_cmdline_invalid_lines),
      cmocka_unit_test(test_cmdline_exact_messages),
      cmocka_unit_test(test_cmdline_atoi_switches_stop_at_int_max),
      cmocka_unit_test(test_cmdline_no_arguments_is_usage_error),
      cmocka_unit_test(test_cmdline_merge_mode),
      cmocka_unit_test(test_cmdline_report_mode),
      cmocka_unit_test(test_cmdline_output_html),
      cmocka_unit_test(test_cmdline_compare_mode),
      cmocka_unit_test(test_cmdline_version_mode),
      cmocka_unit_test(test_cmdline_version_text),
      cmocka_unit_test(test_cmdline_engine_table),
      cmocka_unit_test(test_cmdline_slash_is_target_on_linux),
      cmocka_unit_test(test_cmdline_null_env_and_no_warnings_buffer),
      cmocka_unit_test(test_cmdline_allocation_failure),
      cmocka_unit_test(test_cmdline_xml_overrides),
      cmocka_unit_test(test_cmdline_output_and_json),
      cmocka_unit_test(test_cmdline_timeseries),
      cmocka_unit_test(test_cmdline_xml_read_errors),
      cmocka_unit_test(test_cmdline_usage_documents_every_switch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
