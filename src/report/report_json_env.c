/* SPDX-License-Identifier: MIT */
/* The JSON report's description of the run (docs/results-json.md): the
 * system, the environment fingerprint with the command line, and the
 * profile. The results themselves are report_json.c's. */
#include <stdio.h>
#include <string.h>

#include "iospd/formats.h"
#include "iospd/version.h"
#include "report_json_writer.h"
#include "report_sys.h"

/* ---- system and environment --------------------------------------------- */

static void topo_sets(iospd_jw_t* w, const char* key,
                      const struct iospd_topo_mask_s* list, uint32_t count) {
  iospd_jw_arr(w, key);
  /* Consecutive entries with one id form one set, as in the XML. */
  for (uint32_t i = 0; i < count && list != NULL;) {
    uint32_t id = list[i].id;
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "id", id);
    iospd_jw_arr(w, "groups");
    for (; i < count && list[i].id == id; i++) {
      iospd_jw_obj(w, NULL);
      iospd_jw_u64(w, "group", list[i].group);
      iospd_jw_mask(w, "mask", list[i].mask);
      iospd_jw_end_obj(w);
    }
    iospd_jw_end_arr(w);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
}

void iospd_rpt_json_system(iospd_jw_t* w, const iospd_results_t* r) {
  const iospd_cpu_topology_t* t = &r->topo;
  const iospd_utc_time_t* rt = &r->run_time;
  char buf[64];
  iospd_jw_obj(w, "system");
  iospd_jw_str(w, "computer_name", r->sys.computer_name);
  iospd_jw_obj(w, "tool");
  iospd_jw_str(w, "name", "iospd");
  iospd_jw_str(w, "version", IOSPD_VERSION);
  /* The --diskspd level the run took its defaults and layouts from. */
  iospd_jw_str(w, "diskspd_version",
               iospd_rpt_diskspd_version(iospd_rpt_level(r)));
  iospd_jw_str(w, "diskspd_version_date",
               iospd_rpt_diskspd_version_date(iospd_rpt_level(r)));
  iospd_jw_end_obj(w);
  iospd_jw_str(w, "processor_name", t->processor_name);
  snprintf(buf, sizeof buf, "%04u-%02u-%02uT%02u:%02u:%02uZ", rt->year,
           rt->month, rt->day, rt->hour, rt->minute, rt->second);
  iospd_jw_str(w, "run_time", buf);
  iospd_jw_obj(w, "power_scheme");
  iospd_jw_str(w, "name", r->sys.power_scheme_name);
  iospd_jw_str(w, "guid", r->sys.power_scheme_guid);
  iospd_jw_end_obj(w);
  const char* os = r->sys.os_name;
  iospd_jw_str(w, "os",
               os != NULL && strcmp(os, "windows") == 0 ? "windows" : "linux");
  iospd_jw_str(w, "io_engine", r->engine_name);
  iospd_jw_u64(w, "page_size", r->sys.page_size);
  iospd_jw_u64(w, "ticks_per_second", r->sys.ticks_per_second);
  iospd_jw_obj(w, "processor_topology");
  iospd_jw_bool(w, "heterogeneous", t->heterogeneous);
  iospd_jw_arr(w, "groups");
  for (uint32_t g = 0; g < t->group_count && t->groups; g++) {
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "group", g);
    iospd_jw_u64(w, "max_processors", t->groups[g].max_processors);
    iospd_jw_u64(w, "active_processors", t->groups[g].active_processors);
    iospd_jw_mask(w, "active_mask", t->groups[g].active_mask);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  topo_sets(w, "nodes", t->node_masks, t->node_mask_count);
  topo_sets(w, "sockets", t->socket_masks, t->socket_mask_count);
  iospd_jw_arr(w, "cores");
  for (uint32_t i = 0; i < t->core_mask_count && t->core_masks; i++) {
    const struct iospd_topo_mask_s* c = &t->core_masks[i];
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "group", c->group);
    iospd_jw_u64(w, "core", c->id);
    iospd_jw_mask(w, "mask", c->mask);
    iospd_jw_u64(w, "efficiency_class", c->efficiency_class);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  /* One entry per cache and sharing set, as DISKSPD 2.3's <Cache>. */
  iospd_jw_arr(w, "caches");
  for (uint32_t i = 0; i < t->cache_count && t->caches; i++) {
    const iospd_cache_info_t* c = &t->caches[i];
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "level", c->level);
    iospd_jw_str(w, "type", iospd_rpt_cache_type(c->type));
    iospd_jw_u64(w, "size", c->size);
    iospd_jw_u64(w, "line_size", c->line_size);
    iospd_jw_u64(w, "associativity", c->associativity);
    iospd_jw_u64(w, "group", c->group);
    iospd_jw_mask(w, "mask", c->mask);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
  iospd_jw_end_obj(w);
}

static const char* cache_name(iospd_cache_mode_t m) {
  switch (m) {
    case IOSPD_CACHE_DISABLE_OS:
      return "disable_os";
    case IOSPD_CACHE_DISABLE_LOCAL:
      return "disable_local";
    default:
      return "cached";
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

void iospd_rpt_json_environment(iospd_jw_t* w, const iospd_results_t* r,
                                const iospd_json_extra_t* x) {
  static const iospd_env_t none;
  const iospd_env_t* e = x != NULL && x->env != NULL ? x->env : &none;
  iospd_jw_obj(w, "environment");
  iospd_jw_str(w, "iospd_version", IOSPD_VERSION);
  iospd_jw_str(w, "iospd_commit", iospd_build_commit());
  iospd_jw_obj(w, "command_line");
  iospd_jw_arr(w, "argv");
  iospd_strbuf_t joined;
  iospd_strbuf_init(&joined);
  for (int i = 0; x != NULL && i < x->argc; i++) {
    const char* a = x->argv[i] ? x->argv[i] : "";
    iospd_jw_str(w, NULL, a);
    if (i) iospd_strbuf_putc(&joined, ' ');
    iospd_strbuf_append(&joined, a);
  }
  iospd_jw_end_arr(w);
  iospd_jw_str(w, "joined", iospd_strbuf_cstr(&joined));
  if (joined.failed) w->out->failed = true;
  iospd_strbuf_destroy(&joined);
  iospd_jw_end_obj(w);
  iospd_jw_str(w, "os_name", e->os_name);
  iospd_jw_str(w, "os_release", e->os_release);
  iospd_jw_str(w, "os_version", e->os_version);
  iospd_jw_str(w, "arch", e->arch);
  iospd_jw_str(w, "cpu_model", e->cpu_model);
  iospd_jw_u64(w, "sockets", e->sockets);
  iospd_jw_u64(w, "cores", e->cores);
  iospd_jw_u64(w, "logical_cpus", e->logical_cpus);
  iospd_jw_u64(w, "numa_nodes", e->numa_nodes);
  iospd_jw_u64(w, "memory_bytes", e->memory_bytes);
  iospd_jw_str(w, "build", e->build);
  iospd_jw_arr(w, "targets");
  for (uint32_t i = 0; x != NULL && i < x->target_count; i++) {
    const iospd_env_target_t* t = &x->targets[i];
    const char* path = x->target_paths[i];
    const iospd_target_t* pt = profile_target(r->profile, path);
    iospd_jw_obj(w, NULL);
    iospd_jw_str(w, "path", path);
    iospd_jw_str(w, "fs_type", t->fs_type);
    iospd_jw_u64(w, "fs_block_bytes", t->fs_block_bytes);
    iospd_jw_str(w, "device", t->device);
    iospd_jw_str(w, "model", t->model);
    iospd_jw_str(w, "firmware", t->firmware);
    iospd_jw_str(w, "bus", t->bus);
    if (t->rotational < 0)
      iospd_jw_null(w, "rotational");
    else
      iospd_jw_bool(w, "rotational", t->rotational != 0);
    iospd_jw_str(w, "scheduler", t->scheduler);
    iospd_jw_u64(w, "queue_depth", t->queue_depth);
    iospd_jw_str(w, "backing_file", t->backing_file);
    iospd_jw_str(w, "cache",
                 cache_name(pt ? pt->cache_mode : IOSPD_CACHE_CACHED));
    iospd_jw_bool(w, "write_through", pt != NULL && pt->write_through);
    iospd_jw_bool(w, "memory_mapped", pt != NULL && pt->memory_mapped);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}

/* ---- profile ----------------------------------------------------------- */

static void profile_target_json(iospd_jw_t* w, const iospd_target_t* t) {
  iospd_jw_obj(w, NULL);
  iospd_jw_str(w, "path", t->path ? t->path : "");
  iospd_jw_u64(w, "block_size", t->block_size);
  iospd_jw_u64(w, "base_file_offset", t->base_offset);
  iospd_jw_bool(w, "sequential_scan", t->sequential_scan);
  iospd_jw_bool(w, "random_access", t->random_access);
  iospd_jw_bool(w, "temporary_file", t->temporary);
  iospd_jw_bool(w, "use_large_pages", t->large_pages);
  iospd_jw_str(w, "cache", cache_name(t->cache_mode));
  iospd_jw_bool(w, "write_through", t->write_through);
  iospd_jw_bool(w, "memory_mapped_io", t->memory_mapped);
  static const char* const flush[] = {"none", "view_of_file",
                                      "non_volatile_memory",
                                      "non_volatile_memory_no_drain"};
  iospd_jw_str(w, "flush_type",
               (unsigned)t->flush_type < IOSPD_ARRAY_SIZE(flush)
                   ? flush[t->flush_type]
                   : "none");
  iospd_jw_obj(w, "write_buffer");
  iospd_jw_str(w, "pattern",
               t->pattern == IOSPD_PATTERN_RANDOM ? "random"
               : t->pattern == IOSPD_PATTERN_ZERO ? "zero"
                                                  : "sequential");
  iospd_jw_u64(w, "random_data_size", t->random_data_size);
  if (t->random_data_path != NULL && t->random_data_path[0] != '\0')
    iospd_jw_str(w, "random_data_path", t->random_data_path);
  else
    iospd_jw_null(w, "random_data_path");
  /* --compress / --dedupe; null when not given. */
  if (t->compress_pct >= 0)
    iospd_jw_u64(w, "compress_pct", (uint64_t)t->compress_pct);
  else
    iospd_jw_null(w, "compress_pct");
  if (t->dedupe_pct >= 0)
    iospd_jw_u64(w, "dedupe_pct", (uint64_t)t->dedupe_pct);
  else
    iospd_jw_null(w, "dedupe_pct");
  iospd_jw_end_obj(w);
  iospd_jw_bool(w, "parallel_async_io", t->parallel_async);
  if (t->burst_set)
    iospd_jw_u64(w, "burst_size", t->burst_size);
  else
    iospd_jw_null(w, "burst_size");
  if (t->think_set)
    iospd_jw_u64(w, "think_time_ms", t->think_time);
  else
    iospd_jw_null(w, "think_time_ms");
  iospd_jw_bool(w, "create", t->create);
  iospd_jw_u64(w, "file_size", t->file_size);
  iospd_jw_u64(w, "random_ratio", t->random_ratio);
  iospd_jw_u64(w, "stride_or_alignment", iospd_target_align(t));
  iospd_jw_bool(w, "interlocked_sequential", t->interlocked);
  if (t->dist_count > 0 && t->dist_type != IOSPD_DIST_NONE) {
    iospd_jw_obj(w, "distribution");
    iospd_jw_str(w, "type",
                 t->dist_type == IOSPD_DIST_PERCENT ? "percent" : "absolute");
    iospd_jw_arr(w, "ranges");
    for (uint32_t i = 0; i < t->dist_count; i++) {
      iospd_jw_obj(w, NULL);
      iospd_jw_u64(w, "io_pct", t->dist[i].io_pct);
      iospd_jw_u64(w, "span", t->dist[i].span);
      iospd_jw_end_obj(w);
    }
    iospd_jw_end_arr(w);
    iospd_jw_end_obj(w);
  } else {
    iospd_jw_null(w, "distribution");
  }
  iospd_jw_u64(w, "thread_stride", t->thread_stride);
  iospd_jw_u64(w, "max_file_size", t->max_file_size);
  iospd_jw_u64(w, "request_count", t->request_count);
  iospd_jw_u64(w, "write_ratio", t->write_ratio);
  iospd_jw_obj(w, "throughput");
  iospd_jw_u64(w, "bytes_per_ms", t->throughput_bpms);
  iospd_jw_u64(w, "iops", t->throughput_iops);
  iospd_jw_end_obj(w);
  iospd_jw_u64(w, "threads_per_file", t->threads_per_file);
  iospd_jw_u64(w, "io_priority", t->io_priority);
  iospd_jw_u64(w, "weight", t->weight);
  iospd_jw_arr(w, "thread_targets");
  for (uint32_t i = 0; i < t->thread_target_count; i++) {
    iospd_jw_obj(w, NULL);
    iospd_jw_u64(w, "thread", t->thread_targets[i].thread);
    iospd_jw_u64(w, "weight", t->thread_targets[i].weight);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}

void iospd_rpt_json_profile(iospd_jw_t* w, const iospd_profile_t* p) {
  static const char* const precreate[] = {
      "none", "use_max_size", "create_only_files_with_constant_sizes",
      "create_only_files_with_constant_or_zero_sizes"};
  iospd_jw_obj(w, "profile");
  iospd_jw_u64(w, "progress", p->progress_dots);
  iospd_jw_u64(w, "experiment_flags", p->experiment_flags);
  iospd_jw_str(w, "result_format", iospd_format_profile_word(p->format));
  iospd_jw_bool(w, "verbose", p->verbose);
  iospd_jw_bool(w, "verbose_stats", p->verbose_stats);
  iospd_jw_str(w, "precreate_files",
               (unsigned)p->precreate < 4 ? precreate[p->precreate] : "none");
  if (p->etw.enabled) {
    const iospd_etw_t* e = &p->etw;
    iospd_jw_obj(w, "etw");
    iospd_jw_bool(w, "process", e->process);
    iospd_jw_bool(w, "thread", e->thread);
    iospd_jw_bool(w, "image_load", e->image_load);
    iospd_jw_bool(w, "disk_io", e->disk_io);
    iospd_jw_bool(w, "memory_page_faults", e->memory_page_faults);
    iospd_jw_bool(w, "memory_hard_faults", e->memory_hard_faults);
    iospd_jw_bool(w, "network", e->network);
    iospd_jw_bool(w, "registry", e->registry);
    iospd_jw_bool(w, "use_paged_memory", e->use_paged_memory);
    iospd_jw_bool(w, "use_perf_timer", e->use_perf_timer);
    iospd_jw_bool(w, "use_system_timer", e->use_system_timer);
    iospd_jw_bool(w, "use_cycles_counter", e->use_cycles_counter);
    iospd_jw_end_obj(w);
  } else {
    iospd_jw_null(w, "etw");
  }
  const char* engine = iospd_engine_choice_name(p->ext.engine);
  iospd_jw_str(w, "engine", engine != NULL ? engine : "auto");
  iospd_jw_bool(w, "allow_raw_write", p->ext.allow_raw_write);
  iospd_jw_str(w, "xml_source", p->xml_source); /* NULL: null */
  if (p->ext.tree.dirs != NULL) {
    /* --tree (docs/tree.md); absent in the other modes. */
    const iospd_tree_opts_t* t = &p->ext.tree;
    iospd_jw_obj(w, "tree");
    iospd_jw_str(w, "directories", t->dirs);
    iospd_jw_u64(w, "files", t->files);
    iospd_jw_u64(w, "file_size", t->file_size);
    iospd_jw_u64(w, "skew_hot", t->skew_hot);
    iospd_jw_u64(w, "skew_cold", t->skew_cold);
    iospd_jw_str(w, "assign", iospd_tree_assign_name((int)t->assign));
    iospd_jw_u64(w, "relocate_rate", t->relocate_rate);
    iospd_jw_u64(w, "depth", t->depth);
    iospd_jw_u64(w, "width", t->width);
    iospd_jw_bool(w, "append", t->append);
    iospd_jw_bool(w, "cleanup", t->cleanup);
    iospd_jw_end_obj(w);
  }
  iospd_jw_arr(w, "timespans");
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    iospd_jw_obj(w, NULL);
    iospd_jw_bool(w, "completion_routines", ts->completion_routines);
    iospd_jw_bool(w, "measure_latency", ts->measure_latency);
    iospd_jw_bool(w, "calculate_iops_stddev", ts->calc_iops_stddev);
    iospd_jw_bool(w, "disable_affinity", ts->disable_affinity);
    iospd_jw_u64(w, "duration_s", ts->duration);
    iospd_jw_u64(w, "warmup_s", ts->warmup);
    iospd_jw_u64(w, "cooldown_s", ts->cooldown);
    iospd_jw_u64(w, "thread_count", ts->thread_count);
    iospd_jw_u64(w, "request_count", ts->request_count);
    iospd_jw_u64(w, "io_bucket_ms", ts->io_bucket_ms);
    iospd_jw_u64(w, "rand_seed", ts->rand_seed);
    iospd_jw_bool(w, "random_write_data", ts->random_write_data);
    iospd_jw_arr(w, "affinity");
    for (uint32_t a = 0; a < ts->affinity_count; a++) {
      iospd_jw_obj(w, NULL);
      iospd_jw_u64(w, "group", ts->affinity[a].group);
      iospd_jw_u64(w, "processor", ts->affinity[a].cpu);
      iospd_jw_end_obj(w);
    }
    iospd_jw_end_arr(w);
    iospd_jw_arr(w, "targets");
    for (uint32_t t = 0; t < ts->target_count; t++)
      profile_target_json(w, &ts->targets[t]);
    iospd_jw_end_arr(w);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}
