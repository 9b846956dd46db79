/* SPDX-License-Identifier: MIT */
/* The profile model's lifecycle: DISKSPD's defaults, growth of the timespan
 * and target arrays, deep copies and structural equality. Validation lives in
 * profile_validate.c. */
#include "iospd/profile.h"

#include <string.h>

#include "iospd/alloc.h"

void iospd_target_init(iospd_target_t* t) {
  memset(t, 0, sizeof *t);
  t->block_size = IOSPD_DEFAULT_BLOCK_SIZE;
  t->request_count = IOSPD_DEFAULT_REQUEST_COUNT;
  t->threads_per_file = 1;
  t->io_priority = IOSPD_IO_PRIORITY_NORMAL;
  t->weight = 1;
  t->compress_pct = -1;
  t->dedupe_pct = -1;
}

void iospd_target_destroy(iospd_target_t* t) {
  if (t == NULL) return;
  iospd_free(t->path);
  iospd_free(t->random_data_path);
  iospd_free(t->dist);
  iospd_free(t->thread_targets);
  iospd_target_init(t);
}

int iospd_target_set_path(iospd_target_t* t, const char* path) {
  char* copy = iospd_strdup(path);
  if (copy == NULL) return IOSPD_ENOMEM;
  iospd_free(t->path);
  t->path = copy;
  return 0;
}

int iospd_target_copy(iospd_target_t* dst, const iospd_target_t* src) {
  *dst = *src;
  dst->path = NULL;
  dst->random_data_path = NULL;
  dst->dist = NULL;
  dst->thread_targets = NULL;
  if (src->path && !(dst->path = iospd_strdup(src->path))) goto fail;
  if (src->random_data_path &&
      !(dst->random_data_path = iospd_strdup(src->random_data_path)))
    goto fail;
  if (src->dist_count) {
    dst->dist = iospd_malloc(src->dist_count * sizeof *src->dist);
    if (dst->dist == NULL) goto fail;
    memcpy(dst->dist, src->dist, src->dist_count * sizeof *src->dist);
  }
  if (src->thread_target_count) {
    dst->thread_targets =
        iospd_malloc(src->thread_target_count * sizeof *src->thread_targets);
    if (dst->thread_targets == NULL) goto fail;
    memcpy(dst->thread_targets, src->thread_targets,
           src->thread_target_count * sizeof *src->thread_targets);
  }
  return 0;
fail:
  iospd_target_destroy(dst);
  return IOSPD_ENOMEM;
}

void iospd_timespan_init(iospd_timespan_t* ts) {
  memset(ts, 0, sizeof *ts);
  ts->duration = IOSPD_DEFAULT_DURATION;
  ts->warmup = IOSPD_DEFAULT_WARMUP;
  ts->io_bucket_ms = IOSPD_DEFAULT_BUCKET_MS;
}

static void timespan_destroy(iospd_timespan_t* ts) {
  for (uint32_t i = 0; i < ts->target_count; i++)
    iospd_target_destroy(&ts->targets[i]);
  iospd_free(ts->targets);
  iospd_free(ts->affinity);
  iospd_timespan_init(ts);
}

void iospd_profile_init(iospd_profile_t* p) {
  memset(p, 0, sizeof *p);
  iospd_tree_opts_init(&p->ext.tree);
  p->ext.diskspd = IOSPD_DISKSPD_LEVEL_DEFAULT;
}

void iospd_tree_opts_init(iospd_tree_opts_t* t) {
  memset(t, 0, sizeof *t);
  t->files = IOSPD_TREE_DEFAULT_FILES;
  t->file_size = IOSPD_TREE_DEFAULT_FILE_SIZE;
  t->skew_hot = 7;
  t->skew_cold = 1;
  t->assign = IOSPD_ASSIGN_EVEN;
  t->width = 2;
}

static const char* const assign_names[] = {[IOSPD_ASSIGN_EVEN] = "even",
                                           [IOSPD_ASSIGN_ORDERED] = "ordered",
                                           [IOSPD_ASSIGN_RANDOM] = "random"};

const char* iospd_tree_assign_name(int assign) {
  return assign >= 0 && (size_t)assign < IOSPD_ARRAY_SIZE(assign_names)
             ? assign_names[assign]
             : NULL;
}

int iospd_tree_assign_parse(const char* word) {
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(assign_names); i++)
    if (strcmp(word, assign_names[i]) == 0) return (int)i;
  return -1;
}

static bool tree_equal(const iospd_tree_opts_t* a, const iospd_tree_opts_t* b) {
  if ((a->dirs == NULL) != (b->dirs == NULL)) return false;
  if (a->dirs == NULL) return true;
  return strcmp(a->dirs, b->dirs) == 0 && a->files == b->files &&
         a->file_size == b->file_size && a->skew_hot == b->skew_hot &&
         a->skew_cold == b->skew_cold && a->assign == b->assign &&
         a->relocate_rate == b->relocate_rate && a->depth == b->depth &&
         a->width == b->width && a->append == b->append &&
         a->cleanup == b->cleanup;
}

void iospd_profile_destroy(iospd_profile_t* p) {
  if (p == NULL) return;
  for (uint32_t i = 0; i < p->timespan_count; i++)
    timespan_destroy(&p->timespans[i]);
  iospd_free(p->timespans);
  iospd_free(p->cmdline);
  iospd_free(p->xml_source);
  iospd_free(p->events.start_name);
  iospd_free(p->events.end_name);
  iospd_free(p->events.ready_name);
  iospd_free(p->events.stop_name);
  iospd_free(p->events.set_name);
  for (uint32_t i = 0; i < p->ext.output_count; i++)
    iospd_free(p->ext.outputs[i].path);
  iospd_free(p->ext.outputs);
  iospd_free(p->ext.timeseries_path);
  iospd_free(p->ext.tree.dirs);
  iospd_free(p->ext.verify_state);
  iospd_free(p->ext.pts.resume_path);
  iospd_profile_init(p);
}

iospd_timespan_t* iospd_profile_add_timespan(iospd_profile_t* p) {
  iospd_timespan_t* a =
      iospd_realloc(p->timespans, (p->timespan_count + 1) * sizeof *a);
  if (a == NULL) return NULL;
  p->timespans = a;
  iospd_timespan_t* ts = &a[p->timespan_count++];
  iospd_timespan_init(ts);
  return ts;
}

iospd_target_t* iospd_timespan_add_target(iospd_timespan_t* ts) {
  iospd_target_t* a =
      iospd_realloc(ts->targets, (ts->target_count + 1) * sizeof *a);
  if (a == NULL) return NULL;
  ts->targets = a;
  iospd_target_t* t = &a[ts->target_count++];
  iospd_target_init(t);
  return t;
}

uint64_t iospd_target_align(const iospd_target_t* t) {
  return t->stride_align ? t->stride_align : t->block_size;
}

iospd_target_kind_t iospd_target_kind(const char* path) {
  if (path == NULL) return IOSPD_TARGET_FILE;
  if (path[0] == '#' && path[1] >= '0' && path[1] <= '9') {
    const char* s = path + 1;
    while (*s >= '0' && *s <= '9') s++;
    if (*s == '\0') return IOSPD_TARGET_PHYSICAL_DRIVE;
  }
  if (((path[0] >= 'a' && path[0] <= 'z') ||
       (path[0] >= 'A' && path[0] <= 'Z')) &&
      path[1] == ':' && path[2] == '\0')
    return IOSPD_TARGET_VOLUME;
  return IOSPD_TARGET_FILE;
}

static bool str_eq(const char* a, const char* b) {
  if (a == NULL || b == NULL) return a == b;
  return strcmp(a, b) == 0;
}

static bool target_equal(const iospd_target_t* a, const iospd_target_t* b) {
  if (!str_eq(a->path, b->path) ||
      !str_eq(a->random_data_path, b->random_data_path))
    return false;
  if (a->block_size != b->block_size || a->base_offset != b->base_offset ||
      a->max_file_size != b->max_file_size || a->create != b->create ||
      a->file_size != b->file_size || a->random_ratio != b->random_ratio ||
      iospd_target_align(a) != iospd_target_align(b) ||
      a->interlocked != b->interlocked ||
      a->parallel_async != b->parallel_async ||
      a->thread_stride != b->thread_stride ||
      a->request_count != b->request_count ||
      a->write_ratio != b->write_ratio ||
      a->throughput_bpms != b->throughput_bpms ||
      a->throughput_iops != b->throughput_iops ||
      a->threads_per_file != b->threads_per_file ||
      a->io_priority != b->io_priority || a->weight != b->weight ||
      a->sequential_scan != b->sequential_scan ||
      a->random_access != b->random_access || a->temporary != b->temporary ||
      a->large_pages != b->large_pages || a->cache_mode != b->cache_mode ||
      a->write_through != b->write_through ||
      a->memory_mapped != b->memory_mapped ||
      a->flush_type != b->flush_type || a->pattern != b->pattern ||
      a->random_data_size != b->random_data_size ||
      a->compress_pct != b->compress_pct || a->dedupe_pct != b->dedupe_pct ||
      a->burst_set != b->burst_set || a->burst_size != b->burst_size ||
      a->think_set != b->think_set || a->think_time != b->think_time ||
      a->dist_type != b->dist_type || a->dist_count != b->dist_count ||
      a->thread_target_count != b->thread_target_count ||
      a->bypass_io != b->bypass_io)
    return false;
  for (uint32_t i = 0; i < a->dist_count; i++) {
    const iospd_dist_range_t *x = &a->dist[i], *y = &b->dist[i];
    if (x->io_base != y->io_base || x->io_pct != y->io_pct ||
        x->span_base != y->span_base || x->span != y->span)
      return false;
  }
  for (uint32_t i = 0; i < a->thread_target_count; i++) {
    if (a->thread_targets[i].thread != b->thread_targets[i].thread ||
        a->thread_targets[i].weight != b->thread_targets[i].weight)
      return false;
  }
  return true;
}

static bool timespan_equal(const iospd_timespan_t* a,
                           const iospd_timespan_t* b) {
  if (a->duration != b->duration || a->warmup != b->warmup ||
      a->cooldown != b->cooldown || a->rand_seed != b->rand_seed ||
      a->thread_count != b->thread_count ||
      a->request_count != b->request_count ||
      a->disable_affinity != b->disable_affinity ||
      a->completion_routines != b->completion_routines ||
      a->measure_latency != b->measure_latency ||
      a->calc_iops_stddev != b->calc_iops_stddev ||
      a->io_bucket_ms != b->io_bucket_ms ||
      a->random_write_data != b->random_write_data ||
      a->affinity_count != b->affinity_count ||
      a->target_count != b->target_count)
    return false;
  /* DISKSPD 2.3's fields. */
  if (a->ioring.enabled != b->ioring.enabled ||
      (a->ioring.enabled &&
       (a->ioring.registered_buffers != b->ioring.registered_buffers ||
        a->ioring.batch != b->ioring.batch ||
        a->ioring.batch_percent != b->ioring.batch_percent)) ||
      a->affinity_core_aware != b->affinity_core_aware ||
      a->affinity_span_groups != b->affinity_span_groups ||
      a->affinity_efficiency != b->affinity_efficiency ||
      a->buffer_separation != b->buffer_separation ||
      a->completion_depth != b->completion_depth)
    return false;
  for (uint32_t i = 0; i < a->affinity_count; i++) {
    if (a->affinity[i].group != b->affinity[i].group ||
        a->affinity[i].cpu != b->affinity[i].cpu)
      return false;
  }
  for (uint32_t i = 0; i < a->target_count; i++) {
    if (!target_equal(&a->targets[i], &b->targets[i])) return false;
  }
  return true;
}

bool iospd_profile_equal(const iospd_profile_t* a, const iospd_profile_t* b) {
  if (a->verbose != b->verbose || a->verbose_stats != b->verbose_stats ||
      a->experiment_flags != b->experiment_flags ||
      a->progress_dots != b->progress_dots || a->format != b->format ||
      a->precreate != b->precreate ||
      memcmp(&a->etw, &b->etw, sizeof a->etw) != 0 ||
      a->timespan_count != b->timespan_count ||
      !tree_equal(&a->ext.tree, &b->ext.tree))
    return false;
  for (uint32_t i = 0; i < a->timespan_count; i++) {
    if (!timespan_equal(&a->timespans[i], &b->timespans[i])) return false;
  }
  return true;
}

