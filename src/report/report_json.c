/* SPDX-License-Identifier: MIT */
/* The JSON report (-Rjson, --output=json:FILE): everything the XML report
 * holds, under stable snake_case keys, plus the full latency histograms in
 * their sparse form, the environment and the command line. The format is
 * schema/iospd-results.schema.json, explained in docs/results-json.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/json_write.h"
#include "iospd/version.h"
#include "report_internal.h"

/* ---- a tiny pretty-printing writer -------------------------------------- */

#define JW_MAX_DEPTH 32

typedef struct jw_s {
  iospd_strbuf_t* out;
  unsigned depth;
  bool first[JW_MAX_DEPTH];
} jw_t;

static void jw_newline(jw_t* w) {
  iospd_strbuf_putc(w->out, '\n');
  for (unsigned i = 0; i < w->depth; i++) iospd_strbuf_append(w->out, "  ");
}

/* Before a value or a key: the comma and the line break. */
static void jw_sep(jw_t* w) {
  if (w->depth == 0) return;
  if (!w->first[w->depth]) iospd_strbuf_putc(w->out, ',');
  w->first[w->depth] = false;
  jw_newline(w);
}

/* key NULL: an array element (or the root). */
static void jw_key(jw_t* w, const char* key) {
  jw_sep(w);
  if (key != NULL) {
    iospd_json_append_str(w->out, key);
    iospd_strbuf_append(w->out, ": ");
  }
}

static void jw_open(jw_t* w, const char* key, char c) {
  jw_key(w, key);
  iospd_strbuf_putc(w->out, c);
  if (w->depth + 1 < JW_MAX_DEPTH) w->depth++;
  w->first[w->depth] = true;
}

static void jw_close(jw_t* w, char c) {
  bool empty = w->first[w->depth];
  w->depth--;
  if (!empty) jw_newline(w);
  iospd_strbuf_putc(w->out, c);
}

#define jw_obj(w, key) jw_open((w), (key), '{')
#define jw_arr(w, key) jw_open((w), (key), '[')
#define jw_end_obj(w) jw_close((w), '}')
#define jw_end_arr(w) jw_close((w), ']')

static void jw_u64(jw_t* w, const char* key, uint64_t v) {
  jw_key(w, key);
  iospd_strbuf_appendf(w->out, "%llu", (unsigned long long)v);
}

static void jw_dbl(jw_t* w, const char* key, double v) {
  jw_key(w, key);
  iospd_json_append_double(w->out, v);
}

static void jw_str(jw_t* w, const char* key, const char* s) {
  jw_key(w, key);
  iospd_json_append_str(w->out, s);
}

static void jw_bool(jw_t* w, const char* key, bool v) {
  jw_key(w, key);
  iospd_strbuf_append(w->out, v ? "true" : "false");
}

static void jw_null(jw_t* w, const char* key) {
  jw_key(w, key);
  iospd_strbuf_append(w->out, "null");
}

static void jw_mask(jw_t* w, const char* key, uint64_t mask) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)mask);
  jw_str(w, key, buf);
}

/* ---- system and environment --------------------------------------------- */

static void topo_sets(jw_t* w, const char* key,
                      const struct iospd_topo_mask_s* list, uint32_t count) {
  jw_arr(w, key);
  /* Consecutive entries with one id form one set, as in the XML. */
  for (uint32_t i = 0; i < count && list != NULL;) {
    uint32_t id = list[i].id;
    jw_obj(w, NULL);
    jw_u64(w, "id", id);
    jw_arr(w, "groups");
    for (; i < count && list[i].id == id; i++) {
      jw_obj(w, NULL);
      jw_u64(w, "group", list[i].group);
      jw_mask(w, "mask", list[i].mask);
      jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
  }
  jw_end_arr(w);
}

static void system_json(jw_t* w, const iospd_results_t* r) {
  const iospd_cpu_topology_t* t = &r->topo;
  const iospd_utc_time_t* rt = &r->run_time;
  char buf[64];
  jw_obj(w, "system");
  jw_str(w, "computer_name", r->sys.computer_name);
  jw_obj(w, "tool");
  jw_str(w, "name", "iospd");
  jw_str(w, "version", IOSPD_VERSION);
  jw_str(w, "diskspd_version", IOSPD_DISKSPD_VERSION);
  jw_str(w, "diskspd_version_date", IOSPD_DISKSPD_VERSION_DATE);
  jw_end_obj(w);
  snprintf(buf, sizeof buf, "%04u-%02u-%02uT%02u:%02u:%02uZ", rt->year,
           rt->month, rt->day, rt->hour, rt->minute, rt->second);
  jw_str(w, "run_time", buf);
  jw_obj(w, "power_scheme");
  jw_str(w, "name", r->sys.power_scheme_name);
  jw_str(w, "guid", r->sys.power_scheme_guid);
  jw_end_obj(w);
  const char* os = r->sys.os_name;
  jw_str(w, "os", os != NULL && strcmp(os, "windows") == 0 ? "windows"
                                                              : "linux");
  jw_str(w, "io_engine", r->engine_name);
  jw_u64(w, "page_size", r->sys.page_size);
  jw_u64(w, "ticks_per_second", r->sys.ticks_per_second);
  jw_obj(w, "processor_topology");
  jw_bool(w, "heterogeneous", t->heterogeneous);
  jw_arr(w, "groups");
  for (uint32_t g = 0; g < t->group_count && t->groups; g++) {
    jw_obj(w, NULL);
    jw_u64(w, "group", g);
    jw_u64(w, "max_processors", t->groups[g].max_processors);
    jw_u64(w, "active_processors", t->groups[g].active_processors);
    jw_mask(w, "active_mask", t->groups[g].active_mask);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  topo_sets(w, "nodes", t->node_masks, t->node_mask_count);
  topo_sets(w, "sockets", t->socket_masks, t->socket_mask_count);
  jw_arr(w, "cores");
  for (uint32_t i = 0; i < t->core_mask_count && t->core_masks; i++) {
    const struct iospd_topo_mask_s* c = &t->core_masks[i];
    jw_obj(w, NULL);
    jw_u64(w, "group", c->group);
    jw_u64(w, "core", c->id);
    jw_mask(w, "mask", c->mask);
    jw_u64(w, "efficiency_class", c->efficiency_class);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
  jw_end_obj(w);
}

static const char* cache_name(iospd_cache_mode_t m) {
  switch (m) {
    case IOSPD_CACHE_DISABLE_OS: return "disable_os";
    case IOSPD_CACHE_DISABLE_LOCAL: return "disable_local";
    default: return "cached";
  }
}

/* The first target of the profile with this path (for its cache flags). */
static const iospd_target_t* profile_target(const iospd_profile_t* p,
                                            const char* path) {
  for (uint32_t i = 0; p != NULL && i < p->timespan_count; i++)
    for (uint32_t j = 0; j < p->timespans[i].target_count; j++) {
      const iospd_target_t* t = &p->timespans[i].targets[j];
      if (t->path != NULL && strcmp(t->path, path) == 0) return t;
    }
  return NULL;
}

static void environment_json(jw_t* w, const iospd_results_t* r,
                             const iospd_json_extra_t* x) {
  static const iospd_env_t none;
  const iospd_env_t* e = x != NULL && x->env != NULL ? x->env : &none;
  jw_obj(w, "environment");
  jw_str(w, "iospd_version", IOSPD_VERSION);
  jw_str(w, "iospd_commit", iospd_build_commit());
  jw_obj(w, "command_line");
  jw_arr(w, "argv");
  iospd_strbuf_t joined;
  iospd_strbuf_init(&joined);
  for (int i = 0; x != NULL && i < x->argc; i++) {
    const char* a = x->argv[i] ? x->argv[i] : "";
    jw_str(w, NULL, a);
    if (i) iospd_strbuf_putc(&joined, ' ');
    iospd_strbuf_append(&joined, a);
  }
  jw_end_arr(w);
  jw_str(w, "joined", iospd_strbuf_cstr(&joined));
  if (joined.failed) w->out->failed = true;
  iospd_strbuf_destroy(&joined);
  jw_end_obj(w);
  jw_str(w, "os_name", e->os_name);
  jw_str(w, "os_release", e->os_release);
  jw_str(w, "os_version", e->os_version);
  jw_str(w, "arch", e->arch);
  jw_str(w, "cpu_model", e->cpu_model);
  jw_u64(w, "sockets", e->sockets);
  jw_u64(w, "cores", e->cores);
  jw_u64(w, "logical_cpus", e->logical_cpus);
  jw_u64(w, "numa_nodes", e->numa_nodes);
  jw_u64(w, "memory_bytes", e->memory_bytes);
  jw_str(w, "build", e->build);
  jw_arr(w, "targets");
  for (uint32_t i = 0; x != NULL && i < x->target_count; i++) {
    const iospd_env_target_t* t = &x->targets[i];
    const char* path = x->target_paths[i];
    const iospd_target_t* pt = profile_target(r->profile, path);
    jw_obj(w, NULL);
    jw_str(w, "path", path);
    jw_str(w, "fs_type", t->fs_type);
    jw_u64(w, "fs_block_bytes", t->fs_block_bytes);
    jw_str(w, "device", t->device);
    jw_str(w, "model", t->model);
    jw_str(w, "firmware", t->firmware);
    jw_str(w, "bus", t->bus);
    if (t->rotational < 0)
      jw_null(w, "rotational");
    else
      jw_bool(w, "rotational", t->rotational != 0);
    jw_str(w, "scheduler", t->scheduler);
    jw_u64(w, "queue_depth", t->queue_depth);
    jw_str(w, "cache", cache_name(pt ? pt->cache_mode : IOSPD_CACHE_CACHED));
    jw_bool(w, "write_through", pt != NULL && pt->write_through);
    jw_bool(w, "memory_mapped", pt != NULL && pt->memory_mapped);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

/* ---- profile -------------------------------------------------------------- */

static void profile_target_json(jw_t* w, const iospd_target_t* t) {
  jw_obj(w, NULL);
  jw_str(w, "path", t->path ? t->path : "");
  jw_u64(w, "block_size", t->block_size);
  jw_u64(w, "base_file_offset", t->base_offset);
  jw_bool(w, "sequential_scan", t->sequential_scan);
  jw_bool(w, "random_access", t->random_access);
  jw_bool(w, "temporary_file", t->temporary);
  jw_bool(w, "use_large_pages", t->large_pages);
  jw_str(w, "cache", cache_name(t->cache_mode));
  jw_bool(w, "write_through", t->write_through);
  jw_bool(w, "memory_mapped_io", t->memory_mapped);
  static const char* const flush[] = {"none", "view_of_file",
                                      "non_volatile_memory",
                                      "non_volatile_memory_no_drain"};
  jw_str(w, "flush_type",
         (unsigned)t->flush_type < IOSPD_ARRAY_SIZE(flush) ? flush[t->flush_type]
                                                           : "none");
  jw_obj(w, "write_buffer");
  jw_str(w, "pattern", t->pattern == IOSPD_PATTERN_RANDOM ? "random"
                       : t->pattern == IOSPD_PATTERN_ZERO ? "zero"
                                                          : "sequential");
  jw_u64(w, "random_data_size", t->random_data_size);
  if (t->random_data_path != NULL && t->random_data_path[0] != '\0')
    jw_str(w, "random_data_path", t->random_data_path);
  else
    jw_null(w, "random_data_path");
  jw_end_obj(w);
  jw_bool(w, "parallel_async_io", t->parallel_async);
  if (t->burst_set) jw_u64(w, "burst_size", t->burst_size);
  else jw_null(w, "burst_size");
  if (t->think_set) jw_u64(w, "think_time_ms", t->think_time);
  else jw_null(w, "think_time_ms");
  jw_bool(w, "create", t->create);
  jw_u64(w, "file_size", t->file_size);
  jw_u64(w, "random_ratio", t->random_ratio);
  jw_u64(w, "stride_or_alignment", iospd_target_align(t));
  jw_bool(w, "interlocked_sequential", t->interlocked);
  if (t->dist_count > 0 && t->dist_type != IOSPD_DIST_NONE) {
    jw_obj(w, "distribution");
    jw_str(w, "type", t->dist_type == IOSPD_DIST_PERCENT ? "percent"
                                                         : "absolute");
    jw_arr(w, "ranges");
    for (uint32_t i = 0; i < t->dist_count; i++) {
      jw_obj(w, NULL);
      jw_u64(w, "io_pct", t->dist[i].io_pct);
      jw_u64(w, "span", t->dist[i].span);
      jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_end_obj(w);
  } else {
    jw_null(w, "distribution");
  }
  jw_u64(w, "thread_stride", t->thread_stride);
  jw_u64(w, "max_file_size", t->max_file_size);
  jw_u64(w, "request_count", t->request_count);
  jw_u64(w, "write_ratio", t->write_ratio);
  jw_obj(w, "throughput");
  jw_u64(w, "bytes_per_ms", t->throughput_bpms);
  jw_u64(w, "iops", t->throughput_iops);
  jw_end_obj(w);
  jw_u64(w, "threads_per_file", t->threads_per_file);
  jw_u64(w, "io_priority", t->io_priority);
  jw_u64(w, "weight", t->weight);
  jw_arr(w, "thread_targets");
  for (uint32_t i = 0; i < t->thread_target_count; i++) {
    jw_obj(w, NULL);
    jw_u64(w, "thread", t->thread_targets[i].thread);
    jw_u64(w, "weight", t->thread_targets[i].weight);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

static void profile_json(jw_t* w, const iospd_profile_t* p) {
  static const char* const formats[] = {"text", "xml", "json"};
  static const char* const precreate[] = {
      "none", "use_max_size", "create_only_files_with_constant_sizes",
      "create_only_files_with_constant_or_zero_sizes"};
  static const char* const engines[] = {"auto", "io_uring", "psync", "libaio",
                                        "threads"};
  jw_obj(w, "profile");
  jw_u64(w, "progress", p->progress);
  jw_u64(w, "experiment_flags", p->experiment_flags);
  jw_str(w, "result_format", (unsigned)p->format < 3 ? formats[p->format]
                                                      : "text");
  jw_bool(w, "verbose", p->verbose);
  jw_bool(w, "verbose_stats", p->verbose_stats);
  jw_str(w, "precreate_files", (unsigned)p->precreate < 4
                                   ? precreate[p->precreate]
                                   : "none");
  if (p->etw.enabled) {
    const iospd_etw_t* e = &p->etw;
    jw_obj(w, "etw");
    jw_bool(w, "process", e->process);
    jw_bool(w, "thread", e->thread);
    jw_bool(w, "image_load", e->image_load);
    jw_bool(w, "disk_io", e->disk_io);
    jw_bool(w, "memory_page_faults", e->memory_page_faults);
    jw_bool(w, "memory_hard_faults", e->memory_hard_faults);
    jw_bool(w, "network", e->network);
    jw_bool(w, "registry", e->registry);
    jw_bool(w, "use_paged_memory", e->use_paged_memory);
    jw_bool(w, "use_perf_timer", e->use_perf_timer);
    jw_bool(w, "use_system_timer", e->use_system_timer);
    jw_bool(w, "use_cycles_counter", e->use_cycles_counter);
    jw_end_obj(w);
  } else {
    jw_null(w, "etw");
  }
  jw_str(w, "engine", (unsigned)p->ext.engine < IOSPD_ARRAY_SIZE(engines)
                          ? engines[p->ext.engine]
                          : "auto");
  jw_bool(w, "allow_raw_write", p->ext.allow_raw_write);
  jw_str(w, "xml_source", p->xml_source); /* NULL: null */
  jw_arr(w, "timespans");
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    jw_obj(w, NULL);
    jw_bool(w, "completion_routines", ts->completion_routines);
    jw_bool(w, "measure_latency", ts->measure_latency);
    jw_bool(w, "calculate_iops_stddev", ts->calc_iops_stddev);
    jw_bool(w, "disable_affinity", ts->disable_affinity);
    jw_u64(w, "duration_s", ts->duration);
    jw_u64(w, "warmup_s", ts->warmup);
    jw_u64(w, "cooldown_s", ts->cooldown);
    jw_u64(w, "thread_count", ts->thread_count);
    jw_u64(w, "request_count", ts->request_count);
    jw_u64(w, "io_bucket_ms", ts->io_bucket_ms);
    jw_u64(w, "rand_seed", ts->rand_seed);
    jw_bool(w, "random_write_data", ts->random_write_data);
    jw_arr(w, "affinity");
    for (uint32_t a = 0; a < ts->affinity_count; a++) {
      jw_obj(w, NULL);
      jw_u64(w, "group", ts->affinity[a].group);
      jw_u64(w, "processor", ts->affinity[a].cpu);
      jw_end_obj(w);
    }
    jw_end_arr(w);
    jw_arr(w, "targets");
    for (uint32_t t = 0; t < ts->target_count; t++)
      profile_target_json(w, &ts->targets[t]);
    jw_end_arr(w);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

/* ---- results -------------------------------------------------------------- */

static void histogram_json(jw_t* w, const iospd_hist_t* h) {
  iospd_hist_exact_t e;
  iospd_hist_get_exact(h, &e);
  char dec[IOSPD_U128_DEC_MAX];
  jw_obj(w, "histogram");
  jw_str(w, "layout", "iospd-hist-v1");
  jw_u64(w, "count", e.count);
  jw_u64(w, "min_ns", e.min_ns);
  jw_u64(w, "max_ns", e.max_ns);
  iospd_u128_to_dec(0, e.sum_ns, dec);
  jw_str(w, "sum_ns", dec);
  iospd_u128_to_dec(e.sumsq_hi, e.sumsq_lo, dec);
  jw_str(w, "sum_sq_ns2", dec);
  jw_arr(w, "buckets");
  iospd_hist_bucket_t b;
  uint32_t pos = 0;
  while (iospd_hist_next_bucket(h, &pos, &b)) {
    jw_key(w, NULL); /* one bucket per line: [lo, hi, count] */
    if (b.open_end)
      iospd_strbuf_appendf(w->out, "[%llu, null, %llu]",
                           (unsigned long long)b.lo_ns,
                           (unsigned long long)b.count);
    else
      iospd_strbuf_appendf(w->out, "[%llu, %llu, %llu]",
                           (unsigned long long)b.lo_ns,
                           (unsigned long long)b.hi_ns,
                           (unsigned long long)b.count);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

/* The percentiles the XML report lists: 0..99, the nines, 100. */
static const char* const kNines[] = {"99.9",      "99.99",    "99.999",
                                     "99.9999",   "99.99999", "99.999999",
                                     "99.9999999"};
static const double kNinesP[] = {99.9,     99.99,     99.999,    99.9999,
                                 99.99999, 99.999999, 99.9999999};

static void latency_json(jw_t* w, const iospd_hist_t* h, bool percentiles) {
  if (!iospd_rpt_has_lat(h)) {
    jw_null(w, "latency");
    return;
  }
  jw_obj(w, "latency");
  jw_u64(w, "count", iospd_hist_count(h));
  jw_dbl(w, "min_ms", (double)iospd_hist_min_ns(h) / 1e6);
  jw_dbl(w, "max_ms", (double)iospd_hist_max_ns(h) / 1e6);
  jw_dbl(w, "mean_ms", iospd_rpt_mean_ms(h));
  jw_dbl(w, "stddev_ms", iospd_rpt_stddev_ms(h));
  if (percentiles) {
    jw_arr(w, "percentiles");
    for (int b = 0; b <= 100 + (int)IOSPD_ARRAY_SIZE(kNines); b++) {
      char label[16];
      double p;
      if (b < 100) {
        p = b;
        snprintf(label, sizeof label, "%d", b);
      } else if (b < 100 + (int)IOSPD_ARRAY_SIZE(kNines)) {
        p = kNinesP[b - 100];
        snprintf(label, sizeof label, "%s", kNines[b - 100]);
      } else {
        p = 100;
        snprintf(label, sizeof label, "100");
      }
      jw_key(w, NULL);
      iospd_strbuf_append(w->out, "{\"percentile\": ");
      iospd_json_append_str(w->out, label);
      iospd_strbuf_append(w->out, ", \"ms\": ");
      iospd_json_append_double(w->out, iospd_rpt_pct_ms(h, p));
      iospd_strbuf_putc(w->out, '}');
    }
    jw_end_arr(w);
  }
  histogram_json(w, h);
  jw_end_obj(w);
}

static void directions_json(jw_t* w, const char* key, const rpt_agg_t* a,
                            double seconds) {
  static const char* const names[] = {"read", "write", "total"};
  jw_obj(w, key);
  for (int d = 0; d < 3; d++) {
    jw_obj(w, names[d]);
    jw_u64(w, "ios", a->ios[d]);
    jw_u64(w, "bytes", a->bytes[d]);
    jw_dbl(w, "iops", seconds > 0 ? (double)a->ios[d] / seconds : 0.0);
    jw_dbl(w, "mib_per_s",
           seconds > 0 ? (double)a->bytes[d] / 1048576.0 / seconds : 0.0);
    latency_json(w, a->lat[d], true);
    jw_end_obj(w);
  }
  jw_end_obj(w);
}

/* As the XML: an interval's latency whenever it had I/O (null if none). */
static void bucket_latency_json(jw_t* w, const char* key,
                                const iospd_bucket_t* b) {
  if (b->count == 0) {
    jw_null(w, key);
    return;
  }
  double n = (double)b->count;
  double var = (b->lat_sumsq_us - b->lat_sum_us * b->lat_sum_us / n) / n;
  jw_obj(w, key);
  jw_dbl(w, "min_ms", b->lat_min_us / 1000.0);
  jw_dbl(w, "max_ms", b->lat_max_us / 1000.0);
  jw_dbl(w, "mean_ms", b->lat_sum_us / n / 1000.0);
  jw_dbl(w, "stddev_ms", var > 0 ? sqrt(var) / 1000.0 : 0.0);
  jw_end_obj(w);
}

static void iops_series_json(jw_t* w, iospd_buckets_sum_t* rd,
                             iospd_buckets_sum_t* wr, iospd_buckets_sum_t* tot,
                             uint32_t interval_ms) {
  jw_obj(w, "iops_series");
  jw_u64(w, "interval_ms", interval_ms);
  iospd_buckets_sum_t* s[3] = {rd, wr, tot};
  static const char* const sd[3] = {"read_iops_stddev", "write_iops_stddev",
                                    "iops_stddev"};
  for (int i = 0; i < 3; i++) {
    if (s[i]->used > 0)
      jw_dbl(w, sd[i], iospd_buckets_sum_iops_stddev(s[i]));
    else
      jw_null(w, sd[i]);
  }
  double secs = (double)interval_ms / 1000.0;
  uint32_t n = IOSPD_MAX(rd->used, wr->used);
  jw_arr(w, "buckets");
  for (uint32_t i = 0; i < n; i++) {
    iospd_bucket_t r, wb;
    iospd_buckets_sum_get(rd, i, &r);
    iospd_buckets_sum_get(wr, i, &wb);
    jw_obj(w, NULL);
    jw_u64(w, "sample_ms", (uint64_t)interval_ms * (i + 1));
    jw_u64(w, "read_ios", r.count);
    jw_u64(w, "write_ios", wb.count);
    jw_u64(w, "read_bytes", r.bytes);
    jw_u64(w, "write_bytes", wb.bytes);
    jw_dbl(w, "read_iops", (double)r.count / secs);
    jw_dbl(w, "write_iops", (double)wb.count / secs);
    jw_dbl(w, "total_iops", (double)(r.count + wb.count) / secs);
    bucket_latency_json(w, "read_latency", &r);
    bucket_latency_json(w, "write_latency", &wb);
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

static void errors_json(jw_t* w, uint64_t rd, uint64_t wr, int first,
                        uint64_t first_offset) {
  jw_obj(w, "errors");
  jw_u64(w, "read", rd);
  jw_u64(w, "write", wr);
  if (first != 0) {
    jw_str(w, "first_error", iospd_strerror(first));
    jw_u64(w, "first_error_offset", first_offset);
  } else {
    jw_null(w, "first_error");
    jw_null(w, "first_error_offset");
  }
  jw_end_obj(w);
}

static void cpu_json(jw_t* w, const iospd_results_t* r,
                     const iospd_timespan_result_t* tr) {
  const iospd_cpu_topology_t* t = &r->topo;
  iospd_cpu_usage_t sum = {0, 0, 0, 0};
  jw_obj(w, "cpu");
  jw_arr(w, "cpus");
  for (uint32_t i = 0; i < t->cpu_count && t->cpus; i++) {
    const iospd_cpu_info_t* c = &t->cpus[i];
    iospd_cpu_usage_t u = tr->cpu ? tr->cpu[i] : (iospd_cpu_usage_t){0, 0, 0, 0};
    jw_obj(w, NULL);
    jw_u64(w, "socket", c->socket);
    jw_u64(w, "node", c->node);
    jw_u64(w, "group", c->group);
    jw_u64(w, "core", c->core);
    jw_u64(w, "efficiency_class", c->efficiency_class);
    jw_u64(w, "id", c->number);
    jw_dbl(w, "usage_percent", u.usage);
    jw_dbl(w, "user_percent", u.user);
    jw_dbl(w, "kernel_percent", u.kernel);
    jw_dbl(w, "idle_percent", u.idle);
    jw_end_obj(w);
    sum.usage += u.usage;
    sum.user += u.user;
    sum.kernel += u.kernel;
    sum.idle += u.idle;
  }
  jw_end_arr(w);
  double n = t->cpu_count ? (double)t->cpu_count : 1.0;
  jw_obj(w, "average");
  jw_dbl(w, "usage_percent", sum.usage / n);
  jw_dbl(w, "user_percent", sum.user / n);
  jw_dbl(w, "kernel_percent", sum.kernel / n);
  jw_dbl(w, "idle_percent", sum.idle / n);
  jw_end_obj(w);
  jw_end_obj(w);
}

/* Each profile target summed over the threads that used it. */
static void target_totals_json(jw_t* w, const iospd_timespan_result_t* tr) {
  const iospd_timespan_t* ts = tr->ts;
  jw_arr(w, "targets");
  for (uint32_t ti = 0; ti < ts->target_count; ti++) {
    rpt_agg_t a;
    iospd_rpt_agg_init(&a);
    uint64_t file_size = 0, err_rd = 0, err_wr = 0, first_off = 0;
    int first = 0;
    for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
      for (uint32_t i = 0; i < tr->threads[t].target_count; i++) {
        const iospd_thread_target_result_t* tt = &tr->threads[t].targets[i];
        if (tt->target_index != ti) continue;
        iospd_rpt_agg_add(&a, &tt->stats);
        if (file_size == 0) file_size = tt->file_size;
        err_rd += tt->stats.errors[0];
        err_wr += tt->stats.errors[1];
        if (first == 0 && tt->stats.first_error != 0) {
          first = tt->stats.first_error;
          first_off = tt->stats.first_error_offset;
        }
      }
    if (a.failed) w->out->failed = true;
    jw_obj(w, NULL);
    jw_u64(w, "target_index", ti);
    jw_str(w, "path", ts->targets[ti].path ? ts->targets[ti].path : "");
    jw_u64(w, "file_size", file_size);
    directions_json(w, "directions", &a, tr->seconds);
    errors_json(w, err_rd, err_wr, first, first_off);
    jw_end_obj(w);
    iospd_rpt_agg_destroy(&a);
  }
  jw_end_arr(w);
}

static void mean_stddev_json(jw_t* w, const char* key, const iospd_hist_t* h) {
  jw_obj(w, key);
  jw_dbl(w, "mean_ms", iospd_rpt_mean_ms(h));
  jw_dbl(w, "stddev_ms", iospd_rpt_stddev_ms(h));
  jw_end_obj(w);
}

static void thread_target_json(jw_t* w, const iospd_timespan_result_t* tr,
                               const iospd_thread_target_result_t* tt) {
  const iospd_target_stats_t* s = &tt->stats;
  const iospd_timespan_t* ts = tr->ts;
  jw_obj(w, NULL);
  jw_u64(w, "target_index", tt->target_index);
  jw_str(w, "path", iospd_rpt_target_path(tr, tt));
  jw_u64(w, "file_size", tt->file_size);
  jw_u64(w, "bytes", s->bytes[0] + s->bytes[1]);
  jw_u64(w, "ios", s->ios[0] + s->ios[1]);
  jw_u64(w, "read_bytes", s->bytes[0]);
  jw_u64(w, "read_ios", s->ios[0]);
  jw_u64(w, "write_bytes", s->bytes[1]);
  jw_u64(w, "write_ios", s->ios[1]);
  errors_json(w, s->errors[0], s->errors[1], s->first_error,
              s->first_error_offset);
  if (ts->measure_latency) {
    if (iospd_rpt_has_lat(s->lat[0]))
      mean_stddev_json(w, "read_latency", s->lat[0]);
    if (iospd_rpt_has_lat(s->lat[1]))
      mean_stddev_json(w, "write_latency", s->lat[1]);
  }
  if (tt->dist_count > 0) {
    jw_arr(w, "distribution");
    for (uint32_t i = 0; i < tt->dist_count; i++) {
      jw_obj(w, NULL);
      jw_u64(w, "io_pct", tt->dist[i].io_pct);
      jw_u64(w, "offset", tt->dist[i].start);
      jw_u64(w, "length", tt->dist[i].length);
      jw_end_obj(w);
    }
    jw_end_arr(w);
  }
  if (ts->calc_iops_stddev) {
    iospd_buckets_sum_t rd, wr, tot;
    iospd_buckets_sum_init(&rd);
    iospd_buckets_sum_init(&wr);
    iospd_buckets_sum_init(&tot);
    if (iospd_buckets_sum_add(&rd, &s->iops[0]) < 0 ||
        iospd_buckets_sum_add(&wr, &s->iops[1]) < 0 ||
        iospd_buckets_sum_add(&tot, &s->iops[0]) < 0 ||
        iospd_buckets_sum_add(&tot, &s->iops[1]) < 0)
      w->out->failed = true;
    iops_series_json(w, &rd, &wr, &tot, ts->io_bucket_ms);
    iospd_buckets_sum_destroy(&rd);
    iospd_buckets_sum_destroy(&wr);
    iospd_buckets_sum_destroy(&tot);
  }
  jw_end_obj(w);
}

static void timespan_json(jw_t* w, const iospd_results_t* r, uint32_t index) {
  const iospd_timespan_result_t* tr = &r->timespans[index];
  const iospd_timespan_t* ts = tr->ts;
  bool measured =
      !tr->interrupted_before_measure && tr->seconds >= 1e-7 && ts != NULL;
  jw_obj(w, NULL);
  jw_u64(w, "index", index);
  if (tr->error[0] != '\0')
    jw_str(w, "error", tr->error);
  else if (!measured)
    jw_str(w, "error", "The test was interrupted before the measurements "
                       "began. No results are displayed.");
  else
    jw_null(w, "error");
  jw_bool(w, "measured", measured);
  if (!measured) {
    jw_end_obj(w);
    return;
  }
  jw_dbl(w, "test_time_seconds", tr->seconds);
  jw_u64(w, "thread_count", tr->thread_count);
  jw_u64(w, "request_count", ts->request_count);
  jw_u64(w, "proc_count", r->topo.cpu_count);
  cpu_json(w, r, tr);

  rpt_agg_t all;
  iospd_rpt_agg_timespan(&all, tr);
  if (all.failed) w->out->failed = true;
  directions_json(w, "total", &all, tr->seconds);
  if (ts->calc_iops_stddev)
    iops_series_json(w, &all.iops[0], &all.iops[1], &all.iops[2],
                     ts->io_bucket_ms);
  iospd_rpt_agg_destroy(&all);
  target_totals_json(w, tr);

  jw_arr(w, "threads");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    jw_obj(w, NULL);
    jw_u64(w, "id", th->id);
    jw_str(w, "io_engine", th->engine); /* NULL: null */
    jw_u64(w, "io_engine_depth", th->depth_kept);
    jw_u64(w, "io_engine_depth_asked", th->depth_asked);
    jw_arr(w, "targets");
    for (uint32_t i = 0; i < th->target_count; i++)
      thread_target_json(w, tr, &th->targets[i]);
    jw_end_arr(w);
    if (r->profile != NULL && r->profile->verbose_stats) {
      const iospd_wait_stats_t* ws = &th->wait;
      jw_obj(w, "wait_statistics");
      jw_u64(w, "completion_wait", ws->completion_wait);
      jw_u64(w, "throttle_wait", ws->throttle_wait);
      jw_u64(w, "throttle_sleep", ws->throttle_sleep);
      jw_u64(w, "lookaside", ws->lookaside);
      jw_arr(w, "lookaside_completion");
      for (int i = 0; i < 8; i++) jw_u64(w, NULL, ws->lookaside_hist[i]);
      jw_end_arr(w);
      jw_end_obj(w);
    }
    jw_end_obj(w);
  }
  jw_end_arr(w);
  jw_end_obj(w);
}

void iospd_report_json(iospd_strbuf_t* out, const iospd_results_t* r,
                       const iospd_json_extra_t* extra) {
  jw_t w;
  memset(&w, 0, sizeof w);
  w.out = out;
  jw_obj(&w, NULL);
  jw_str(&w, "format", "iospd-results");
  jw_u64(&w, "format_version", 1);
  system_json(&w, r);
  environment_json(&w, r, extra);
  if (r->profile != NULL) {
    profile_json(&w, r->profile);
  } else {
    iospd_profile_t empty;
    iospd_profile_init(&empty);
    profile_json(&w, &empty);
    iospd_profile_destroy(&empty);
  }
  jw_arr(&w, "timespans");
  for (uint32_t i = 0; i < r->timespan_count; i++) timespan_json(&w, r, i);
  jw_end_arr(&w);
  jw_end_obj(&w);
  iospd_strbuf_putc(out, '\n');
}
