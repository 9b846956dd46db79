/* SPDX-License-Identifier: MIT */
/* Deterministic generator of varied profiles (see xml_profile_gen.h). A small
 * xorshift keeps it independent of the C library's rand(). */
#include "xml_profile_gen.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"

typedef struct rng_s {
  uint64_t s;
} rng_t;

static uint64_t next(rng_t* r) {
  uint64_t x = r->s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  r->s = x;
  return x;
}

static uint32_t below(rng_t* r, uint32_t n) { return (uint32_t)(next(r) % n); }
static bool coin(rng_t* r) { return (next(r) & 1) != 0; }

static const char* const paths[] = {
    "testfile.dat",
    "C:\\bench\\data file.dat",
    "#1",
    "E:",
    "*1",
    "*2",
    "a&b<c>d\"e'f.dat",
    "/mnt/\xC3\xA9t\xC3\xA9/\xE2\x82\xAC.bin",
    "\\\\server\\share\\x.dat",
    "]]>odd&amp;.dat",
    /* Bytes XML cannot carry: written with Escaped="U+F0NN" (xml_escape.h). */
    "ctl\x01\x1f\x7f\t\r\n.dat",
    "bad\xff\xc0\xaf\xe2\x82.dat",
    "lit\xef\x80\x81\xef\xbf\xbe\x02.dat",
};

static int gen_target(rng_t* r, iospd_target_t* t) {
  if (iospd_target_set_path(t, paths[below(r, IOSPD_ARRAY_SIZE(paths))]))
    return IOSPD_ENOMEM;
  static const uint32_t sizes[] = {512, 4096, 8192, 65536, 131072, 1048576,
                                   4294967294u, 1};
  t->block_size = sizes[below(r, IOSPD_ARRAY_SIZE(sizes))];
  t->base_offset = coin(r) ? 0 : (uint64_t)below(r, 1000) * 4096u;
  t->max_file_size =
      coin(r) ? 0 : t->base_offset + 1048576u * (1 + below(r, 9));
  if ((t->create = coin(r))) {
    t->file_size = coin(r) ? 0 : (uint64_t)1 << (20 + below(r, 24));
  }
  uint32_t mode = below(r, 4);
  if (mode == 0) { /* sequential */
    t->random_ratio = 0;
    t->stride_align = coin(r) ? 0 : 4096u * (1 + below(r, 16));
    t->interlocked = coin(r);
    t->parallel_async = coin(r);
    t->thread_stride = coin(r) ? 0 : 65536u * below(r, 4);
  } else {
    t->random_ratio = mode == 1 ? 100 : 1 + below(r, 99);
    t->stride_align = coin(r) ? 0 : 512u * (1 + below(r, 64));
    uint32_t kind = below(r, 3);
    if (kind != 0) {
      uint32_t n = 1 + below(r, 5);
      t->dist = iospd_calloc(n + 1, sizeof *t->dist);
      if (t->dist == NULL) return IOSPD_ENOMEM;
      t->dist_type = kind == 1 ? IOSPD_DIST_PERCENT : IOSPD_DIST_ABSOLUTE;
      uint32_t io = 0;
      uint64_t span = 0;
      for (uint32_t i = 0; i < n; i++) {
        uint32_t left = 100 - io;
        uint32_t pct = i + 1 == n ? left : below(r, left + 1);
        uint64_t len = kind == 1 ? 1 + below(r, 10)
                                 : (uint64_t)(1 + below(r, 1000)) * 1048576u;
        if (kind == 2 && i + 1 == n && coin(r)) len = 0; /* "to the end" */
        t->dist[i] = (iospd_dist_range_t){io, pct, span, len};
        io += pct;
        span += len;
      }
      t->dist_count = n;
    }
  }
  t->request_count = 1 + below(r, 64);
  t->write_ratio = below(r, 101);
  if (coin(r)) {
    t->throughput_iops = 1 + below(r, 100000);
    t->throughput_bpms =
        (uint32_t)((uint64_t)t->throughput_iops * t->block_size / 1000u);
    if ((uint64_t)t->throughput_iops * t->block_size / 1000u > UINT32_MAX) {
      t->throughput_iops = 0;
      t->throughput_bpms = 1000;
    }
  } else {
    t->throughput_bpms = coin(r) ? 0 : below(r, 1u << 30);
  }
  t->threads_per_file = 1 + below(r, 8);
  t->io_priority = 1 + below(r, 3);
  t->weight = below(r, 3) == 0 ? 0 : 1 + below(r, 1000);
  t->sequential_scan = coin(r);
  t->random_access = coin(r);
  t->temporary = coin(r);
  t->large_pages = coin(r);
  t->cache_mode = (iospd_cache_mode_t)below(r, 3);
  t->write_through = coin(r);
  t->memory_mapped = coin(r);
  t->flush_type = (iospd_flush_type_t)below(r, 4);
  t->pattern = (iospd_pattern_t)below(r, 3);
  if (t->pattern == IOSPD_PATTERN_RANDOM) {
    t->random_data_size = (uint64_t)1 << (12 + below(r, 20));
    if (coin(r)) {
      t->random_data_path =
          iospd_strdup(coin(r) ? "C:\\src & data.bin"
                       : coin(r) ? "seed.bin"
                                 : "seed\x01\xfe.bin");
      if (t->random_data_path == NULL) return IOSPD_ENOMEM;
    }
  }
  if ((t->burst_set = coin(r))) t->burst_size = below(r, 100);
  if ((t->think_set = coin(r))) t->think_time = below(r, 100);
  if (below(r, 3) == 0) {
    uint32_t n = 1 + below(r, 4);
    t->thread_targets = iospd_calloc(n, sizeof *t->thread_targets);
    if (t->thread_targets == NULL) return IOSPD_ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
      t->thread_targets[i].thread = below(r, 16);
      t->thread_targets[i].weight = coin(r) ? 0 : 1 + below(r, 100);
    }
    t->thread_target_count = n;
  }
  return 0;
}

int xml_gen_profile(iospd_profile_t* p, uint32_t seed) {
  rng_t r = {0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 0x100000001B3ull)};
  for (int i = 0; i < 4; i++) next(&r);
  p->verbose = coin(&r);
  p->verbose_stats = coin(&r);
  p->experiment_flags = coin(&r) ? 0 : below(&r, 8);
  p->progress_dots = coin(&r) ? 0 : 65536;
  p->format = coin(&r) ? IOSPD_FORMAT_XML : IOSPD_FORMAT_TEXT;
  p->precreate = (iospd_precreate_t)below(&r, 4);
  if (below(&r, 4) == 0) {
    iospd_etw_t* e = &p->etw;
    e->enabled = true;
    e->process = coin(&r);
    e->thread = coin(&r);
    e->image_load = coin(&r);
    e->disk_io = coin(&r);
    e->memory_page_faults = coin(&r);
    e->memory_hard_faults = coin(&r);
    e->network = coin(&r);
    e->registry = coin(&r);
    e->use_paged_memory = coin(&r);
    e->use_perf_timer = coin(&r);
    e->use_system_timer = coin(&r);
    e->use_cycles_counter = coin(&r);
  }
  uint32_t spans = 1 + below(&r, 3);
  for (uint32_t i = 0; i < spans; i++) {
    iospd_timespan_t* ts = iospd_profile_add_timespan(p);
    if (ts == NULL) return IOSPD_ENOMEM;
    ts->duration = below(&r, 120);
    ts->warmup = below(&r, 30);
    ts->cooldown = below(&r, 30);
    ts->rand_seed = coin(&r) ? 0 : (uint32_t)next(&r);
    ts->random_write_data = coin(&r);
    ts->thread_count = coin(&r) ? 0 : 1 + below(&r, 64);
    ts->request_count = coin(&r) ? 0 : 1 + below(&r, 64);
    ts->disable_affinity = coin(&r);
    ts->completion_routines = coin(&r);
    ts->measure_latency = coin(&r);
    ts->calc_iops_stddev = coin(&r);
    ts->io_bucket_ms = coin(&r) ? 1000 : 1 + below(&r, 5000);
    if (coin(&r)) {
      uint32_t n = 1 + below(&r, 6);
      ts->affinity = iospd_calloc(n, sizeof *ts->affinity);
      if (ts->affinity == NULL) return IOSPD_ENOMEM;
      for (uint32_t k = 0; k < n; k++) {
        ts->affinity[k].group = (uint16_t)(coin(&r) ? 0 : below(&r, 65536));
        ts->affinity[k].cpu = (uint16_t)below(&r, 256);
      }
      ts->affinity_count = n;
    }
    uint32_t targets = 1 + below(&r, 3);
    for (uint32_t k = 0; k < targets; k++) {
      iospd_target_t* t = iospd_timespan_add_target(ts);
      if (t == NULL || gen_target(&r, t)) return IOSPD_ENOMEM;
    }
  }
  return 0;
}
