/* SPDX-License-Identifier: MIT */
/* An in-memory implementation of include/iospd/platform.h for engine and
 * controller tests: a virtual clock in nanoseconds that moves only when the
 * engine waits, files held in memory, I/Os that complete after a scripted
 * latency (or fail, or are refused by a short submit), and a log of every
 * I/O. No threads: tests run iospd_run with hooks.cooperative. Standard C
 * only, so it builds natively and with mingw. */
#include "fake_plat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"

#define MAX_FILES 32
#define MAX_QUEUES 64
#define MAX_QFILES 16
#define START_NS 1000000000ull

typedef struct {
  char path[256];
  uint8_t* data;
  uint64_t size;
  uint32_t sector;
  uint32_t buffer_align;
  bool device, parts, fs;
  int discards;       /* iospd_plat_discard_device calls */
  bool discard_secure; /* the last one was BLKSECDISCARD */
  char content[128];
  int creates;
  unsigned open_flags;
  bool used;
  bool alloc_known; /* for iospd_plat_file_unwritten */
  uint64_t holes, unwritten;
  bool create_interrupted; /* the next create is stopped by Ctrl-C */
  char note[128];          /* the next create passes this note on */
} ffile_t;

struct iospd_plat_file_s {
  int file;
  unsigned flags;
};

struct iospd_plat_queue_s {
  uint32_t id, depth;
  iospd_plat_file_t* files[MAX_QFILES];
  uint32_t nfiles;
  uint32_t* inflight; /* log indices */
  uint32_t ninflight;
};

struct iospd_plat_latch_s {
  uint32_t left;
  bool aborted;
};

static ffile_t g_files[MAX_FILES];
static uint64_t g_mem_available; /* iospd_plat_mem_available */
static uint64_t g_thread_cpu_ns; /* iospd_plat_thread_cpu_ns */
static uint32_t g_cpu_user_ppm, g_cpu_sys_ppm; /* ..._cpu_split */
static uint64_t g_now = START_NS;
static fake_io_t* g_log;
static uint32_t g_log_n, g_log_cap;
static uint64_t* g_lat;
static uint32_t g_lat_n;
static uint64_t g_fail_n = UINT64_MAX;
/* fake_duplicate_completion: the log index whose completion comes twice. */
static uint64_t g_dup_n = UINT64_MAX;
static int32_t g_fail_result;
static uint32_t g_short_max, g_refuse_calls, g_submit_calls;
static uint32_t g_kept;
static uint64_t g_int_at;
static bool g_int_fired, g_int_pending;
static void (*g_int_cb)(void*);
static void* g_int_arg;
static uint32_t g_cpu_snaps;
static uint32_t g_cpu_fail_nth; /* fake_fail_cpu_times */
static bool g_cached_device_align; /* fake_set_cached_device_align */
static uint32_t g_nqueues;
static uint32_t g_qdepth[MAX_QUEUES];
static int g_qengine[MAX_QUEUES];
/* How many I/Os each submit call was handed (fake_submit_sizes). */
#define MAX_SUBMIT_LOG 65536
static uint32_t g_submit_sizes[MAX_SUBMIT_LOG];
static uint32_t g_register_calls, g_reap_max_seen;
/* iospd_plat_queue_traits' answer, and what each I/O's own call costs. */
static iospd_queue_traits_t g_traits = {false, 16, 2};
static uint64_t g_submit_cost_ns;
static iospd_run_needs_t g_needs;
static uint32_t g_run_begins, g_run_ends;
static int g_run_begin_rc;
/* A warning line file creation hands to progress->warn ("" = none). */
static char g_create_warning[160];
static iospd_msg_kind_t g_create_warning_kind;
/* One scripted truncation: the file shrinks (or grows) to g_resize_size when
 * the virtual clock reaches g_resize_at, as another process's truncate. */
static char g_resize_path[256];
static uint64_t g_resize_at, g_resize_size;

/* Named events: a fixed table, by name. */
#define MAX_EVENTS 8
struct iospd_plat_event_s {
  bool used, opened;
  char name[64];
  uint64_t set_at;   /* becomes set at this virtual time (if armed) */
  bool armed;
  bool stale;        /* reported by iospd_plat_event_was_stale */
  uint64_t set_time; /* when it was first seen set, 0 = not yet */
};
static struct iospd_plat_event_s g_events[MAX_EVENTS];

/* ---- test controls ------------------------------------------------------ */

static int64_t g_os_error; /* fake_set_os_error */
static char g_os_error_text[160];

void fake_reset(void) {
  g_mem_available = 0;
  g_thread_cpu_ns = 0;
  g_cpu_user_ppm = g_cpu_sys_ppm = 0;
  g_os_error = 0;
  g_os_error_text[0] = '\0';
  for (int i = 0; i < MAX_FILES; i++) free(g_files[i].data);
  memset(g_files, 0, sizeof(g_files));
  free(g_log);
  g_log = NULL;
  g_log_n = g_log_cap = 0;
  free(g_lat);
  g_lat = NULL;
  g_lat_n = 0;
  g_fail_n = UINT64_MAX;
  g_dup_n = UINT64_MAX;
  g_short_max = g_refuse_calls = g_submit_calls = 0;
  g_register_calls = g_reap_max_seen = 0;
  memset(g_qengine, 0, sizeof g_qengine);
  g_kept = 0;
  g_int_at = 0;
  g_int_fired = g_int_pending = false;
  g_cpu_snaps = 0;
  g_cpu_fail_nth = 0;
  g_cached_device_align = false;
  g_nqueues = 0;
  g_resize_path[0] = '\0';
  g_resize_at = g_resize_size = 0;
  g_now = START_NS;
  memset(g_events, 0, sizeof(g_events));
  g_create_warning[0] = '\0';
  g_traits = (iospd_queue_traits_t){false, 16, 2};
  g_submit_cost_ns = 0;
  memset(&g_needs, 0, sizeof g_needs);
  g_run_begins = g_run_ends = 0;
  g_run_begin_rc = 0;
}

void fake_set_queue_traits(bool submit_each, uint32_t reap_batch,
                           uint32_t reap_batch_unbuffered) {
  g_traits.submit_each = submit_each;
  g_traits.reap_batch = reap_batch;
  g_traits.reap_batch_unbuffered = reap_batch_unbuffered;
}

void fake_set_submit_cost(uint64_t ns_per_io) { g_submit_cost_ns = ns_per_io; }

void fake_run_needs(iospd_run_needs_t* needs, uint32_t* begins,
                    uint32_t* ends) {
  *needs = g_needs;
  *begins = g_run_begins;
  *ends = g_run_ends;
}

void fake_fail_run_begin(int rc) { g_run_begin_rc = rc; }

void fake_set_create_warning(iospd_msg_kind_t kind, const char* text) {
  g_create_warning_kind = kind;
  snprintf(g_create_warning, sizeof g_create_warning, "%s", text);
}

static ffile_t* find(const char* path) {
  for (int i = 0; i < MAX_FILES; i++)
    if (g_files[i].used && strcmp(g_files[i].path, path) == 0)
      return &g_files[i];
  return NULL;
}

static void fill(ffile_t* f, bool pattern) {
  for (uint64_t i = 0; i < f->size; i++)
    f->data[i] = pattern ? (uint8_t)(i & 0xff) : 0;
}

int fake_add_file(const char* path, uint64_t size, bool pattern) {
  ffile_t* f = find(path);
  if (f == NULL) {
    for (int i = 0; i < MAX_FILES && f == NULL; i++)
      if (!g_files[i].used) f = &g_files[i];
    if (f == NULL) abort();
    memset(f, 0, sizeof(*f));
    f->used = true;
    snprintf(f->path, sizeof(f->path), "%s", path);
  }
  free(f->data);
  f->data = malloc(size ? size : 1);
  if (f->data == NULL) abort();
  f->size = size;
  fill(f, pattern);
  /* Every byte is "written" until a test says otherwise. */
  f->alloc_known = true;
  f->holes = f->unwritten = 0;
  return (int)(f - g_files);
}

void fake_set_unwritten(const char* path, bool known, uint64_t holes,
                        uint64_t unwritten) {
  ffile_t* f = find(path);
  f->alloc_known = known;
  f->holes = holes;
  f->unwritten = unwritten;
}

void fake_create_script(const char* path, bool interrupt, const char* note) {
  ffile_t* f = find(path);
  f->create_interrupted = interrupt;
  snprintf(f->note, sizeof f->note, "%s", note ? note : "");
}

void fake_set_device(const char* path, bool has_partitions, bool has_filesystem,
                     const char* content) {
  ffile_t* f = find(path);
  f->device = true;
  f->parts = has_partitions;
  f->fs = has_filesystem;
  snprintf(f->content, sizeof(f->content), "%s", content ? content : "");
}

void fake_set_sector(const char* path, uint32_t logical) {
  find(path)->sector = logical;
}

void fake_set_os_error(int64_t code, const char* text) {
  g_os_error = code;
  snprintf(g_os_error_text, sizeof g_os_error_text, "%s", text ? text : "");
}

void fake_set_buffer_align(const char* path, uint32_t align) {
  find(path)->buffer_align = align;
}

const uint8_t* fake_file_data(const char* path, uint64_t* size) {
  ffile_t* f = find(path);
  if (f == NULL) return NULL;
  *size = f->size;
  return f->data;
}

/* --pts-purge: zeroes a fake device and counts the call. */
int iospd_plat_discard_device(const char* path, bool secure, uint64_t size,
                              iospd_err_t* err) {
  ffile_t* f = find(path);
  if (f == NULL || !f->device)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "--pts-purge: '%s' is not a block device", path);
  f->discards++;
  f->discard_secure = secure;
  if (size > f->size) size = f->size;
  memset(f->data, 0, (size_t)size);
  return 0;
}

int fake_discards(const char* path, bool* secure) {
  ffile_t* f = find(path);
  if (f == NULL) return 0;
  if (secure != NULL) *secure = f->discard_secure;
  return f->discards;
}

int fake_file_creates(const char* path) {
  ffile_t* f = find(path);
  return f ? f->creates : 0;
}

unsigned fake_file_open_flags(const char* path) {
  ffile_t* f = find(path);
  return f ? f->open_flags : 0;
}

void fake_set_latencies(const uint64_t* lat, uint32_t count) {
  free(g_lat);
  g_lat = malloc(count * sizeof(*g_lat));
  memcpy(g_lat, lat, count * sizeof(*g_lat));
  g_lat_n = count;
}

void fake_duplicate_completion(uint64_t n) { g_dup_n = n; }

void fake_fail_io(uint64_t n, int32_t result) {
  g_fail_n = n;
  g_fail_result = result;
}

void fake_short_submits(uint32_t max, uint32_t refuse_calls) {
  g_short_max = max;
  g_refuse_calls = refuse_calls;
}

void fake_interrupt_at(uint64_t at_ns) { g_int_at = at_ns; }

void fake_truncate_at(const char* path, uint64_t size, uint64_t at_ns) {
  snprintf(g_resize_path, sizeof(g_resize_path), "%s", path);
  g_resize_size = size;
  g_resize_at = at_ns;
}

/* Sets a file's size, keeping its bytes up to the new end; new bytes are
 * zero (as a sparse extension reads). */
static void resize(ffile_t* f, uint64_t size) {
  uint8_t* d = realloc(f->data, size ? size : 1);
  if (d == NULL) abort();
  if (size > f->size) memset(d + f->size, 0, size - f->size);
  f->data = d;
  f->size = size;
}
uint64_t fake_now(void) { return g_now; }

const fake_io_t* fake_log(uint32_t* count) {
  *count = g_log_n;
  return g_log;
}

uint32_t fake_queues_created(void) { return g_nqueues; }
int fake_queue_engine(uint32_t q) { return q < MAX_QUEUES ? g_qengine[q] : -1; }
const uint32_t* fake_submit_sizes(uint32_t* count) {
  *count = g_submit_calls < MAX_SUBMIT_LOG ? g_submit_calls : MAX_SUBMIT_LOG;
  return g_submit_sizes;
}
uint32_t fake_register_calls(void) { return g_register_calls; }
uint32_t fake_reap_max_seen(void) { return g_reap_max_seen; }
uint32_t fake_queue_depth(uint32_t q) {
  return q < MAX_QUEUES ? g_qdepth[q] : 0;
}
uint32_t fake_submit_calls(void) { return g_submit_calls; }

/* ---- clock ----------------------------------------------------------------
 */

static void advance(uint64_t to) {
  if (to > g_now) g_now = to;
  if (g_resize_path[0] != '\0' && g_now >= g_resize_at) {
    ffile_t* f = find(g_resize_path);
    if (f != NULL) resize(f, g_resize_size);
    g_resize_path[0] = '\0';
  }
  if (g_int_at != 0 && !g_int_fired && g_now >= g_int_at) {
    g_int_fired = true;
    g_int_pending = true;
    if (g_int_cb != NULL) g_int_cb(g_int_arg);
  }
}

uint64_t iospd_plat_ticks(void) { return g_now; }

int iospd_plat_wait(uint32_t ms) {
  advance(g_now + (uint64_t)ms * 1000000u);
  return g_int_pending ? 1 : 0;
}

int iospd_plat_on_interrupt(void (*cb)(void* arg), void* arg,
                            iospd_err_t* err) {
  (void)err;
  g_int_cb = cb;
  g_int_arg = arg;
  return 0;
}

void iospd_plat_interrupt(void) { g_int_pending = true; }

void iospd_plat_sleep(uint32_t ms) {
  advance(g_now + (uint64_t)ms * 1000000u);
}

int iospd_plat_run_begin(const iospd_run_needs_t* needs, iospd_err_t* err) {
  g_needs = *needs;
  g_run_begins++;
  if (g_run_begin_rc < 0)
    return iospd_err_set(err, g_run_begin_rc, "fake: run_begin refused");
  return 0;
}

void iospd_plat_run_end(void) { g_run_ends++; }

/* ---- system ---------------------------------------------------------------
 */

int iospd_plat_init(iospd_sysinfo_t* out, iospd_err_t* err) {
  (void)err;
  memset(out, 0, sizeof(*out));
  snprintf(out->computer_name, sizeof(out->computer_name), "fakehost");
  out->ticks_per_second = 1000000000ull;
  out->page_size = 4096;
  out->os_name = "fake";
  return 0;
}

void iospd_plat_shutdown(void) {}

int iospd_plat_cpu_topology(iospd_cpu_topology_t* topo, iospd_err_t* err) {
  (void)err;
  memset(topo, 0, sizeof(*topo));
  topo->cpu_count = 2;
  topo->core_count = 2;
  topo->group_count = 1;
  topo->node_count = 1;
  topo->socket_count = 1;
  topo->cpus = calloc(2, sizeof(*topo->cpus));
  topo->groups = calloc(1, sizeof(*topo->groups));
  for (uint16_t i = 0; i < 2; i++) {
    topo->cpus[i].number = i;
    topo->cpus[i].core = i;
    topo->cpus[i].active = true;
  }
  topo->groups[0].max_processors = 2;
  topo->groups[0].active_processors = 2;
  topo->groups[0].active_mask = 3;
  return 0;
}

void iospd_plat_cpu_topology_free(iospd_cpu_topology_t* topo) {
  free(topo->cpus);
  free(topo->groups);
  free(topo->core_masks);
  free(topo->node_masks);
  free(topo->socket_masks);
  memset(topo, 0, sizeof(*topo));
}

/* Half idle, a quarter kernel, a quarter user, on every CPU. */
int iospd_plat_cpu_times(iospd_cpu_times_t* out, uint32_t ncpu,
                         iospd_err_t* err) {
  g_cpu_snaps++;
  if (g_cpu_fail_nth != 0 && g_cpu_snaps == g_cpu_fail_nth)
    return iospd_err_set(err, IOSPD_EACCES,
                         "fake: the processors' times are not readable");
  uint64_t t = g_now / 100;
  for (uint32_t i = 0; i < ncpu; i++) {
    out[i].idle = t / 2;
    out[i].kernel = t / 4;
    out[i].user = t / 4;
  }
  return 0;
}

void iospd_plat_utc_now(iospd_utc_time_t* out) {
  out->year = 2026;
  out->month = 1;
  out->day = 2;
  out->hour = 3;
  out->minute = 4;
  out->second = 5;
}

uint64_t iospd_plat_uptime_ms(void) { return g_now / 1000000u; }

/* ---- threads: cooperative runs only ------------------------------------- */

int iospd_plat_thread_start(iospd_plat_thread_t** t,
                            const iospd_thread_opts_t* o, void (*fn)(void*),
                            void* arg, iospd_err_t* err) {
  (void)t;
  (void)o;
  (void)fn;
  (void)arg;
  return iospd_err_set(err, IOSPD_ENOTSUP,
                       "the fake platform has no threads; use "
                       "hooks.cooperative");
}

int iospd_plat_thread_join(iospd_plat_thread_t* t) {
  (void)t;
  return 0;
}

int iospd_plat_thread_wait(iospd_plat_thread_t* t, uint32_t ms) {
  (void)t;
  (void)ms;
  return 1;
}

void iospd_plat_thread_cancel_io(iospd_plat_thread_t* t) { (void)t; }

/* Cooperative runs use no gates; these only count, and a wait never
 * blocks (there is no second thread to open it). */
int iospd_plat_latch_create(iospd_plat_latch_t** l, uint32_t count,
                            iospd_err_t* err) {
  (void)err;
  *l = calloc(1, sizeof(**l));
  (*l)->left = count;
  return 0;
}

void iospd_plat_latch_arrive(iospd_plat_latch_t* l) {
  if (l->left > 0) l->left--;
}

void iospd_plat_latch_abort(iospd_plat_latch_t* l) { l->aborted = true; }

int iospd_plat_latch_wait(iospd_plat_latch_t* l) {
  return l->aborted || l->left > 0 || g_int_pending ? 1 : 0;
}

int iospd_plat_latch_wait_ms(iospd_plat_latch_t* l, uint32_t ms) {
  (void)ms;
  return iospd_plat_latch_wait(l);
}

void iospd_plat_latch_destroy(iospd_plat_latch_t* l) { free(l); }

/* ---- memory ---------------------------------------------------------------
 */

void* iospd_plat_buf_alloc(size_t size, size_t align, unsigned flags) {
  (void)flags;
  if (align < sizeof(void*)) align = sizeof(void*);
  uint8_t* raw = malloc(size + align + sizeof(void*));
  if (raw == NULL) return NULL;
  uintptr_t p =
      ((uintptr_t)raw + sizeof(void*) + align - 1) & ~(uintptr_t)(align - 1);
  ((void**)p)[-1] = raw;
  memset((void*)p, 0, size);
  return (void*)p;
}

void iospd_plat_buf_free(void* p, size_t size) {
  (void)size;
  if (p != NULL) free(((void**)p)[-1]);
}

/* ---- files ----------------------------------------------------------------
 */

static void info_of(const ffile_t* f, iospd_file_info_t* info) {
  memset(info, 0, sizeof(*info));
  info->size = f->size;
  info->logical_sector = f->sector;
  info->physical_sector = f->sector;
  info->buffer_align = f->buffer_align;
  info->is_device = f->device;
  info->has_filesystem = f->fs;
  info->has_partitions = f->parts;
  snprintf(info->content, sizeof(info->content), "%s", f->content);
}

int iospd_plat_file_open(iospd_plat_file_t** out, const iospd_open_opts_t* o,
                         iospd_err_t* err) {
  ffile_t* f = find(o->path);
  if (f == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "%s: no such file", o->path);
  iospd_plat_file_t* h = malloc(sizeof(*h));
  h->file = (int)(f - g_files);
  h->flags = o->flags;
  f->open_flags = o->flags;
  *out = h;
  return 0;
}

/* BypassIO (-Sy/-SY) is Windows's: the fake has none, as Linux. */
int iospd_plat_file_bypass_io(iospd_plat_file_t* f, bool full,
                              iospd_bypass_result_t* out, iospd_err_t* err) {
  (void)f;
  (void)full;
  out->state = IOSPD_BYPASS_STATE_NONE;
  out->note[0] = '\0';
  return iospd_err_set(err, IOSPD_ENOTSUP, "the fake platform has no BypassIO");
}

int iospd_plat_file_info(iospd_plat_file_t* h, iospd_file_info_t* info,
                         iospd_err_t* err) {
  (void)err;
  info_of(&g_files[h->file], info);
  return 0;
}

void iospd_plat_file_close(iospd_plat_file_t* h) { free(h); }

int iospd_plat_path_info(const char* path, iospd_file_info_t* info,
                         iospd_err_t* err) {
  ffile_t* f = find(path);
  if (f == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "%s: no such file", path);
  info_of(f, info);
  return 0;
}

int iospd_plat_file_create_ex(const char* path, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              iospd_err_t* err) {
  ffile_t* old = find(path);
  if (old != NULL && old->note[0] != '\0' && progress != NULL &&
      progress->note != NULL) {
    progress->note(progress->ctx, old->note);
    old->note[0] = '\0';
  }
  if (old != NULL && old->create_interrupted) {
    /* Ctrl-C during the fill: the real platform's watcher has called the
     * callback before the fill sees the latch. */
    old->create_interrupted = false;
    old->creates++;
    g_int_pending = true;
    if (g_int_cb != NULL) g_int_cb(g_int_arg);
    return iospd_err_set(err, IOSPD_EINTR,
                         "interrupted after 0 of %llu bytes were written; "
                         "the existing file is as it was",
                         (unsigned long long)size);
  }
  int creates = fake_file_creates(path);
  fake_add_file(path, size, !zero_fill);
  find(path)->creates = creates + 1;
  /* As the Linux platform: a call per 4 MiB chunk, the last at size. */
  const uint64_t chunk = 4u << 20;
  if (progress != NULL && progress->warn != NULL && g_create_warning[0])
    progress->warn(progress->ctx, g_create_warning_kind, g_create_warning);
  for (uint64_t done = 0; progress != NULL && progress->fn != NULL &&
                          done < size;) {
    done = size - done < chunk ? size : done + chunk;
    progress->fn(progress->ctx, done, size);
  }
  return 0;
}

int iospd_plat_file_unwritten(const char* path, iospd_unwritten_t* out,
                              iospd_err_t* err) {
  memset(out, 0, sizeof(*out));
  ffile_t* f = find(path);
  if (f == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "%s: no such file", path);
  if (f->device) return 0;
  out->known = f->alloc_known;
  out->hole_bytes = f->holes;
  out->unwritten_bytes = f->unwritten;
  return 0;
}

/* ---- misleading set-ups (iospd/warnings.h) ---- */

void fake_set_mem_available(uint64_t bytes) { g_mem_available = bytes; }
void fake_set_thread_cpu_ns(uint64_t ns) { g_thread_cpu_ns = ns; }
uint64_t iospd_plat_mem_available(void) { return g_mem_available; }
uint64_t iospd_plat_thread_cpu_ns(void) { return g_thread_cpu_ns; }
uint64_t iospd_plat_process_cpu_ns(void) { return g_thread_cpu_ns; }

/* A scripted thread: user and system time grow with the virtual clock at
 * the rates given (ppm of it), or, without rates, g_thread_cpu_ns is all
 * user time. */
void fake_set_thread_cpu_rates(uint32_t user_ppm, uint32_t sys_ppm) {
  g_cpu_user_ppm = user_ppm;
  g_cpu_sys_ppm = sys_ppm;
}

bool iospd_plat_thread_cpu_split(uint64_t* user_ns, uint64_t* sys_ns) {
  if (g_cpu_user_ppm == 0 && g_cpu_sys_ppm == 0) {
    *user_ns = g_thread_cpu_ns;
    *sys_ns = 0;
    return g_thread_cpu_ns != 0;
  }
  *user_ns = g_now / 1000000u * g_cpu_user_ppm;
  *sys_ns = g_now / 1000000u * g_cpu_sys_ppm;
  return true;
}

int iospd_plat_read_samples(const char* path, const uint64_t* offsets,
                            uint32_t n, uint32_t len, uint8_t* buf,
                            uint32_t* got, iospd_err_t* err) {
  *got = 0;
  ffile_t* f = find(path);
  if (f == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "%s: no such file", path);
  for (uint32_t i = 0; i < n; i++) {
    if (offsets[i] + len > f->size) break;
    memcpy(buf + (size_t)i * len, f->data + offsets[i], len);
    (*got)++;
  }
  return 0;
}

int iospd_plat_read_file(const char* path, size_t limit, char** data,
                         size_t* len, iospd_err_t* err) {
  *data = NULL;
  *len = 0;
  ffile_t* f = find(path);
  if (f == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "cannot open '%s': no such file",
                         path);
  size_t n = f->size < limit ? (size_t)f->size : limit;
  char* b = iospd_malloc(n + 1);
  if (b == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  if (n > 0) memcpy(b, f->data, n);
  b[n] = '\0';
  *data = b;
  *len = n;
  return 0;
}

/* ---- queue ----------------------------------------------------------------
 */

static int fake_engine_create(iospd_plat_queue_t** out, uint32_t depth,
                              unsigned flags, iospd_err_t* err) {
  return iospd_plat_queue_create(out, depth, flags, 1, err);
}

/* The fake's engine table: the policy, the fake engine, and the same
 * fake as the ring engine -u selects. */
static const iospd_engine_def_t g_engines[] = {
    {"auto", "the fake engine", IOSPD_ENGINE_CAP_POLICY, fake_engine_create},
    {"fake", "in-memory I/O for the core's tests", IOSPD_ENGINE_CAP_ASYNC,
     fake_engine_create},
    {"fake-ring", "the fake engine, as the ring -u selects",
     IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_RING, fake_engine_create},
};

const iospd_engine_def_t* iospd_plat_engines(uint32_t* count) {
  *count = (uint32_t)(sizeof g_engines / sizeof g_engines[0]);
  return g_engines;
}

int iospd_plat_queue_create(iospd_plat_queue_t** out, uint32_t depth,
                            unsigned flags, int engine, iospd_err_t* err) {
  (void)flags;
  (void)err;
  iospd_plat_queue_t* q = calloc(1, sizeof(*q));
  q->id = g_nqueues++;
  if (q->id < MAX_QUEUES) g_qengine[q->id] = engine;
  q->depth = depth;
  q->inflight = calloc(depth ? depth : 1, sizeof(*q->inflight));
  if (q->id < MAX_QUEUES) g_qdepth[q->id] = depth;
  *out = q;
  return 0;
}

bool iospd_plat_same_path(const char* a, const char* b) {
  return strcmp(a, b) == 0;
}

void fake_set_kept_depth(uint32_t kept) { g_kept = kept; }

uint32_t iospd_plat_queue_depth(const iospd_plat_queue_t* q) {
  return g_kept != 0 && g_kept < q->depth ? g_kept : q->depth;
}

const char* iospd_plat_queue_engine(const iospd_plat_queue_t* q) {
  (void)q;
  return "fake";
}

void iospd_plat_queue_traits(const iospd_plat_queue_t* q,
                             iospd_queue_traits_t* out) {
  (void)q;
  *out = g_traits;
}

int64_t iospd_plat_queue_os_error(const iospd_plat_queue_t* q, char* text,
                                  size_t size) {
  (void)q;
  if (text != NULL && size > 0)
    snprintf(text, size, "%s", g_os_error ? g_os_error_text : "");
  return g_os_error;
}

int iospd_plat_queue_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                            uint32_t* idx, iospd_err_t* err) {
  if (q->nfiles >= MAX_QFILES)
    return iospd_err_set(err, IOSPD_ENOMEM, "too many files");
  q->files[q->nfiles] = f;
  *idx = q->nfiles++;
  return 0;
}

int iospd_plat_queue_register_buffers(iospd_plat_queue_t* q, void* base,
                                      size_t len, iospd_err_t* err) {
  (void)q;
  (void)base;
  (void)len;
  (void)err;
  g_register_calls++;
  return 0;
}

int iospd_plat_queue_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                            uint32_t n, uint32_t* accepted) {
  if (g_submit_calls < MAX_SUBMIT_LOG) g_submit_sizes[g_submit_calls] = n;
  g_submit_calls++;
  uint32_t allow = n;
  if (g_refuse_calls > 0) {
    g_refuse_calls--;
    allow = 0;
  } else if (g_short_max != 0 && allow > g_short_max) {
    allow = g_short_max;
  }
  if (allow > q->depth - q->ninflight) allow = q->depth - q->ninflight;
  for (uint32_t i = 0; i < allow; i++) {
    const iospd_io_t* io = &ios[i];
    if (g_log_n == g_log_cap) {
      g_log_cap = g_log_cap ? g_log_cap * 2 : 1024;
      g_log = realloc(g_log, g_log_cap * sizeof(*g_log));
      if (g_log == NULL) abort();
    }
    uint64_t idx = g_log_n;
    fake_io_t* e = &g_log[g_log_n++];
    memset(e, 0, sizeof(*e));
    ffile_t* f = &g_files[q->files[io->file_index]->file];
    e->queue = q->id;
    e->tag = io->tag;
    e->op = io->op;
    e->file = (uint32_t)(f - g_files);
    e->offset = io->offset;
    e->length = io->length;
    e->buf = io->buf;
    e->submit_ns = g_now;
    /* Each I/O's own call takes this long (a cached read copies inside
     * ReadFile); the device's latency runs from the call's end. */
    advance(g_now + g_submit_cost_ns);
    e->done_ns = g_now + (g_lat_n ? g_lat[idx % g_lat_n] : 1000u);
    if (idx == g_fail_n) {
      e->result = g_fail_result;
    } else {
      /* pread/pwrite: a write past the end of a regular file extends it; a
       * read, or a write to a device, stops at the end (0 bytes at or past
       * it). */
      uint64_t end = io->offset + io->length;
      if (io->op == IOSPD_OP_WRITE && !f->device && end > f->size)
        resize(f, end);
      uint64_t moved = io->offset >= f->size ? 0 : f->size - io->offset;
      if (moved > io->length) moved = io->length;
      if (io->op == IOSPD_OP_WRITE)
        memcpy(f->data + io->offset, io->buf, (size_t)moved);
      else
        memcpy(io->buf, f->data + io->offset, (size_t)moved);
      e->result = (int32_t)moved;
    }
    q->inflight[q->ninflight++] = (uint32_t)idx;
  }
  *accepted = allow;
  return 0;
}

int iospd_plat_queue_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                          uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  if (max > g_reap_max_seen) g_reap_max_seen = max;
  uint32_t ready = 0;
  uint64_t earliest = UINT64_MAX;
  for (uint32_t i = 0; i < q->ninflight; i++) {
    uint64_t d = g_log[q->inflight[i]].done_ns;
    if (d <= g_now) ready++;
    if (d < earliest) earliest = d;
  }
  if (ready < min) {
    uint64_t limit = timeout_ms == UINT32_MAX
                         ? UINT64_MAX
                         : g_now + (uint64_t)timeout_ms * 1000000u;
    uint64_t to = earliest < limit ? earliest : limit;
    if (to == UINT64_MAX) return IOSPD_EINVAL; /* would sleep forever */
    advance(to);
  }
  uint32_t n = 0;
  while (n < max) {
    /* Oldest completion first, then submission order. */
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < q->ninflight; i++) {
      const fake_io_t* e = &g_log[q->inflight[i]];
      if (e->done_ns > g_now) continue;
      if (best == UINT32_MAX || e->done_ns < g_log[q->inflight[best]].done_ns)
        best = i;
    }
    if (best == UINT32_MAX) break;
    fake_io_t* e = &g_log[q->inflight[best]];
    e->reaped_ns = g_now;
    e->measured = g_cpu_snaps == 1;
    out[n].tag = e->tag;
    out[n].result = e->result;
    n++;
    /* A second packet for the same I/O, in the same batch (the slot is
     * back in the engine's ready list, not yet reissued). */
    if (q->inflight[best] == g_dup_n && n < max) {
      out[n] = out[n - 1];
      n++;
    }
    memmove(&q->inflight[best], &q->inflight[best + 1],
            (q->ninflight - best - 1) * sizeof(*q->inflight));
    q->ninflight--;
  }
  *got = n;
  return 0;
}

/* As the platforms without a combined call: submit, then reap. */
int iospd_plat_queue_submit_and_reap(iospd_plat_queue_t* q,
                                     const iospd_io_t* ios, uint32_t n,
                                     uint32_t* accepted, iospd_cqe_t* out,
                                     uint32_t max, uint32_t min,
                                     uint32_t timeout_ms, uint32_t* got) {
  *got = 0;
  int rc = iospd_plat_queue_submit(q, ios, n, accepted);
  if (rc < 0) return rc;
  /* Like the real queues, never wait for completions that cannot come. */
  if (q->ninflight == 0) min = 0;
  return iospd_plat_queue_reap(q, out, max, min, timeout_ms, got);
}

int iospd_plat_queue_destroy(iospd_plat_queue_t* q) {
  if (q == NULL) return 0;
  free(q->inflight);
  free(q);
  return 0;
}

/* ---- named events ---------------------------------------------------------
 */

static struct iospd_plat_event_s* event_find(const char* name, bool add) {
  for (int i = 0; i < MAX_EVENTS; i++)
    if (g_events[i].used && strcmp(g_events[i].name, name) == 0)
      return &g_events[i];
  if (!add) return NULL;
  for (int i = 0; i < MAX_EVENTS; i++)
    if (!g_events[i].used) {
      g_events[i].used = true;
      snprintf(g_events[i].name, sizeof(g_events[i].name), "%s", name);
      return &g_events[i];
    }
  return NULL;
}

static bool event_is_set(struct iospd_plat_event_s* e) {
  if (e->set_time == 0 && e->armed && g_now >= e->set_at)
    e->set_time = e->set_at > START_NS ? e->set_at : g_now;
  return e->set_time != 0;
}

void fake_event_set_at(const char* name, uint64_t at_ns) {
  struct iospd_plat_event_s* e = event_find(name, true);
  e->armed = true;
  e->set_at = at_ns;
}

uint64_t fake_event_set_time(const char* name) {
  struct iospd_plat_event_s* e = event_find(name, false);
  if (e == NULL || !e->opened) return UINT64_MAX;
  (void)event_is_set(e);
  return e->set_time;
}

void fake_event_left_stale(const char* name) {
  event_find(name, true)->stale = true;
}

bool iospd_plat_event_was_stale(const iospd_plat_event_t* ev) {
  return ev->stale;
}

int iospd_plat_event_open(const char* name, bool create,
                          iospd_plat_event_t** ev, iospd_err_t* err) {
  struct iospd_plat_event_s* e = event_find(name, create);
  if (e == NULL)
    return iospd_err_set(err, IOSPD_ENOENT, "no event named '%s'", name);
  e->opened = true;
  *ev = e;
  return 0;
}

int iospd_plat_event_set(iospd_plat_event_t* ev, iospd_err_t* err) {
  (void)err;
  if (ev->set_time == 0) ev->set_time = g_now;
  return 0;
}

int iospd_plat_event_wait(iospd_plat_event_t* ev, uint32_t timeout_ms) {
  if (event_is_set(ev)) return 1;
  /* Waiting lets the virtual clock run, so an armed event comes due. */
  uint32_t ms = timeout_ms == UINT32_MAX ? 100 : timeout_ms;
  if (ms > 0) advance(g_now + (uint64_t)ms * 1000000u);
  return event_is_set(ev) ? 1 : 0;
}

void iospd_plat_event_close(iospd_plat_event_t* ev) { (void)ev; }

/* --verify state files: kept in memory only (no file), enough for the
 * engine's verify path under the fake platform: none exists, each is made
 * afresh. */
struct iospd_plat_map_s {
  void* addr;
};
int iospd_plat_map_open(const char* path, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        iospd_err_t* err) {
  (void)flags;
  *m = NULL;
  *addr = NULL;
  *len = 0;
  return iospd_err_set(err, IOSPD_ENOENT, "%s: no such file", path);
}
int iospd_plat_map_create(const char* path, uint64_t size,
                          iospd_plat_map_t** m, void** addr,
                          iospd_err_t* err) {
  (void)path;
  iospd_plat_map_t* h = calloc(1, sizeof(*h));
  void* p = h ? calloc(1, (size_t)size) : NULL;
  if (p == NULL) {
    free(h);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  h->addr = p;
  *m = h;
  *addr = p;
  return 0;
}
int iospd_plat_map_publish(iospd_plat_map_t* m, const char* path,
                           bool replace_empty, iospd_err_t* err) {
  (void)m;
  (void)path;
  (void)replace_empty;
  (void)err;
  return 0;
}
bool iospd_plat_map_lost(const iospd_plat_map_t* m) {
  (void)m;
  return false;
}
int iospd_plat_map_flush(iospd_plat_map_t* m, iospd_err_t* err) {
  (void)m;
  (void)err;
  return 0;
}
void iospd_plat_map_close(iospd_plat_map_t* m) {
  if (m == NULL) return;
  free(m->addr);
  free(m);
}
struct iospd_plat_tlock_s {
  int unused;
};
int iospd_plat_target_lock(const char* path, iospd_plat_tlock_t** lk,
                           iospd_err_t* err) {
  (void)path;
  (void)err;
  *lk = calloc(1, sizeof(**lk));
  return *lk ? 0 : IOSPD_ENOMEM;
}
void iospd_plat_target_unlock(iospd_plat_tlock_t* lk) { free(lk); }
char* iospd_plat_final_path(const char* path) {
  (void)path;
  return NULL;
}
uint64_t iospd_plat_unix_ns(void) { return 1767322800000000000ull; }

/* ---- the file tree's calls: not faked --------------------------------------
 * The tree workload (src/tree) is linked with every controller; the fake
 * platform has no directories, so its tests run no tree (tests/e2e does). */
int iospd_plat_tree_open(const char* path, unsigned flags, iospd_tree_fh_t* fh,
                         iospd_err_t* err) {
  (void)flags;
  (void)fh;
  return iospd_err_set(err, IOSPD_ENOTSUP, "fake: no tree file '%s'", path);
}
int64_t iospd_plat_tree_read(iospd_tree_fh_t fh, void* buf, uint32_t len,
                             uint64_t offset) {
  (void)fh, (void)buf, (void)len, (void)offset;
  return IOSPD_ENOTSUP;
}
int64_t iospd_plat_tree_write(iospd_tree_fh_t fh, const void* buf,
                              uint32_t len, uint64_t offset) {
  (void)fh, (void)buf, (void)len, (void)offset;
  return IOSPD_ENOTSUP;
}
int iospd_plat_tree_close(iospd_tree_fh_t fh) {
  (void)fh;
  return 0;
}
int iospd_plat_mkdir(const char* path, iospd_err_t* err) {
  return iospd_err_set(err, IOSPD_ENOTSUP, "fake: no directory '%s'", path);
}
int iospd_plat_rename_noreplace(const char* from, const char* to,
                                iospd_err_t* err) {
  (void)to;
  return iospd_err_set(err, IOSPD_ENOTSUP, "fake: no rename of '%s'", from);
}
int iospd_plat_remove_file(const char* path, iospd_err_t* err) {
  return iospd_err_set(err, IOSPD_ENOTSUP, "fake: no removal of '%s'", path);
}
int iospd_plat_remove_dir(const char* path, iospd_err_t* err) {
  return iospd_err_set(err, IOSPD_ENOTSUP, "fake: no removal of '%s'", path);
}
int iospd_plat_path_kind(const char* path, int* kind, uint64_t* size,
                         iospd_err_t* err) {
  (void)path, (void)err;
  *kind = IOSPD_PATH_NONE;
  if (size != NULL) *size = 0;
  return 0;
}
bool iospd_plat_same_file(const char* a, const char* b) {
  return strcmp(a, b) == 0;
}

void fake_fail_cpu_times(uint32_t nth) { g_cpu_fail_nth = nth; }

void fake_set_cached_device_align(bool on) { g_cached_device_align = on; }

uint32_t iospd_plat_cached_device_align(const iospd_file_info_t* info) {
  if (!g_cached_device_align || info == NULL || !info->is_device) return 0;
  return info->logical_sector ? info->logical_sector : 512;
}
