/* SPDX-License-Identifier: MIT */
/* The probe: one request at a time through the platform's synchronous path
 * (a depth-1 queue: pread/pwrite on Linux, a blocking ReadFile/WriteFile on
 * Windows), timed with the platform's clock around that one call. The
 * buffer and the queue are made before the first request; the loop itself
 * allocates nothing.
 *
 * Why --ping is not a workload of the controller (iospd/workload.h): the
 * controller hosts timespans of a profile, with a warm-up, a measured
 * time and a cool-down on the clock, many workers and per-target
 * statistics. A ping is none of those: it takes its own options (no
 * profile, no targets list, no -t/-o), runs one request at a time until a
 * count is reached or Ctrl-C, waits a set interval between requests, and
 * prints a line per request as it completes. Hosting it would mean a
 * profile built only to be ignored, a count instead of a deadline, and a
 * per-I/O callback from the worker to the printer: a contortion of both. */
#include <stdio.h>
#include <string.h>

#include "iospd/envinfo.h"
#include "iospd/ping.h"
#include "iospd/platform.h"
#include "iospd/rand.h"
#include "iospd/units.h"

/* Set from the Ctrl-C handler (any thread); read by the loop. */
static volatile int ping_stop;

static void on_ctrl_c(void* arg) {
  (void)arg;
  ping_stop = 1;
}

typedef struct probe_s {
  const iospd_ping_opts_t* o;
  uint64_t tps; /* clock ticks per second */
  iospd_plat_file_t* f;
  iospd_plat_queue_t* q;
  uint32_t file_index;
  void* buf;
  size_t buf_size;
  bool temp_made; /* r->file is ours to remove */
} probe_t;

static uint64_t ticks_to_ns(uint64_t d, uint64_t tps) {
  if (tps == 1000000000u) return d;
  return d / tps * 1000000000u + d % tps * 1000000000u / tps;
}

static uint64_t now_ns(const probe_t* p) {
  return ticks_to_ns(iospd_plat_ticks(), p->tps);
}

/* One synchronous request; bytes moved or a negative IOSPD_E*. */
static int32_t one_io(probe_t* p, uint8_t op, uint64_t offset, uint32_t len,
                      void* buf) {
  iospd_io_t io = {.tag = 0,
                   .op = op,
                   .file_index = p->file_index,
                   .offset = offset,
                   .length = len,
                   .buf = buf};
  iospd_cqe_t cqe;
  uint32_t accepted = 0, got = 0;
  int rc = iospd_plat_queue_submit_and_reap(p->q, &io, 1, &accepted, &cqe, 1,
                                            1, UINT32_MAX, &got);
  if (rc < 0) return rc;
  if (got != 1) return IOSPD_EIO;
  return cqe.result;
}

/* The kind, file system and device words of the lines ("ext4 /dev/vda",
 * "device 1 GiB"). */
static void describe(iospd_ping_result_t* r, bool device, uint64_t size) {
  iospd_env_target_t et;
  memset(&et, 0, sizeof et);
  iospd_plat_env_target(r->file, &et);
  snprintf(r->fs_type, sizeof r->fs_type, "%s", et.fs_type);
  snprintf(r->device, sizeof r->device, "%s", et.device);
  char sz[48];
  if (device)
    snprintf(r->target.where, sizeof r->target.where, "device %s",
             iospd_ping_fmt_bytes((double)size, sz, sizeof sz));
  else
    snprintf(r->target.where, sizeof r->target.where, "%s%s%s",
             et.fs_type[0] ? et.fs_type : "file system unknown",
             et.device[0] ? " " : "", et.device);
}

/* Writes the temporary file's working set once (the pattern i & 0xff), so
 * the requests read blocks that hold data: a file never written would be
 * answered with zeros by the file system without touching the disk. */
static int fill_temp(probe_t* p, uint64_t ws, iospd_err_t* err) {
  uint32_t chunk = p->o->size;
  while (chunk < (1u << 20) / 2 && chunk * 2 <= ws) chunk *= 2;
  size_t align = p->o->size >= 4096 ? 4096 : 512;
  void* b = iospd_plat_buf_alloc(chunk, align, 0);
  if (b == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory for the temporary file's data");
  for (uint32_t i = 0; i < chunk; i++) ((unsigned char*)b)[i] = (unsigned char)i;
  int rc = 0;
  for (uint64_t off = 0; off < ws && rc == 0; off += chunk) {
    if (ping_stop) break;
    uint32_t len = ws - off < chunk ? (uint32_t)(ws - off) : chunk;
    int32_t n = one_io(p, IOSPD_OP_WRITE, off, len, b);
    if (n != (int32_t)len) rc = n < 0 ? n : IOSPD_EIO;
  }
  iospd_plat_buf_free(b, chunk);
  return rc;
}

/* Everything before the first request: what the path is, the checks that
 * make bad input exit 3, the file (a temporary one in a folder), the
 * buffer and the queue. */
static int setup(probe_t* p, iospd_ping_result_t* r, uint64_t* ws_out,
                 iospd_err_t* err) {
  const iospd_ping_opts_t* o = p->o;
  unsigned flags = IOSPD_OPEN_READ;
  if (o->direct) flags |= IOSPD_OPEN_NO_BUFFERING;
  if (o->write_through) flags |= IOSPD_OPEN_WRITE_THROUGH;
  int kind = IOSPD_PATH_NONE;
  uint64_t kind_size = 0;
  bool folder = iospd_plat_path_kind(o->path, &kind, &kind_size, NULL) == 0 &&
                kind == IOSPD_PATH_DIR;
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  int rc;
  uint64_t ws = o->working_set;
  if (folder) {
    if (ws == 0) ws = IOSPD_PING_DEFAULT_TEMP_SET;
    if (ws < o->size) ws = o->size;
    /* The temporary file gets the whole working set written: checked
     * against the free space first, as -c does, so a --working-set of
     * 100T is refused instead of filling the file system. */
    uint64_t avail = iospd_plat_free_bytes(o->path);
    uint64_t need = ws - ws % o->size;
    if (avail != UINT64_MAX && need > avail) {
      char a[32], b[32];
      iospd_format_size(need, a, sizeof a);
      iospd_format_size(avail, b, sizeof b);
      return iospd_err_set(err, IOSPD_ENOSPC,
                           "--ping: the working set of %llu bytes (%s) does "
                           "not fit in '%s': its file system has %llu bytes "
                           "(%s) free; nothing was written. Give a smaller "
                           "--working-set or free some space there",
                           (unsigned long long)need, a, o->path,
                           (unsigned long long)avail, b);
    }
    snprintf(r->kind, sizeof r->kind, "directory");
    rc = iospd_plat_temp_file_create(o->path, r->file, sizeof r->file, err);
    if (rc < 0) return rc;
    p->temp_made = true;
    flags |= IOSPD_OPEN_WRITE;
  } else {
    snprintf(r->file, sizeof r->file, "%s", o->path);
    iospd_err_t e;
    iospd_err_clear(&e);
    rc = iospd_plat_path_info(o->path, &info, &e);
    if (rc < 0)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "--ping: %s; give a file, a directory or a block "
                           "device",
                           e.msg[0] ? e.msg : iospd_strerror(rc));
    snprintf(r->kind, sizeof r->kind, "%s", info.is_device ? "device" : "file");
    if (info.is_device && o->write && !o->allow_raw_write)
      return iospd_err_set(
          err, IOSPD_EUNSAFE,
          "refusing to write to '%s': it is a disk, volume or block device, "
          "and --write would overwrite what it holds; --ping only reads "
          "devices unless --allow-raw-write is given",
          o->path);
    if (o->write) flags |= IOSPD_OPEN_WRITE;
  }
  iospd_open_opts_t oo = {.path = r->file, .flags = flags};
  rc = iospd_plat_file_open(&p->f, &oo, err);
  if (rc == IOSPD_ENOTSUP && o->direct) {
    /* The platform's words speak of -Su, which the user may not have
     * written: say why a probe is unbuffered and how to change it. */
    char msg[IOSPD_ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", err != NULL ? err->msg : "");
    return iospd_err_set(err, rc,
                         "%s (--ping is unbuffered unless -Sb or --cached "
                         "is given)",
                         msg);
  }
  if (rc < 0) return rc;
  rc = iospd_plat_file_info(p->f, &info, err);
  if (rc < 0) return rc;
  /* Again on what was opened: the path may have changed since it was
   * looked at (a link swapped for a device). Nothing was written yet. */
  if (info.is_device && o->write && !o->allow_raw_write)
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "refusing to write to '%s': it is a disk, volume or "
                         "block device; --ping only reads devices unless "
                         "--allow-raw-write is given",
                         o->path);
  uint32_t sector = info.logical_sector ? info.logical_sector : 512;
  if (o->direct && o->size % sector != 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--size %u is not a multiple of the %u-byte sector "
                         "that unbuffered I/O needs on '%s' (--ping is "
                         "unbuffered unless -Sb or --cached is given)",
                         o->size, sector, o->path);
  if (!folder) {
    if (ws == 0) ws = info.size;
    if (ws > info.size)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "the working set (%llu bytes) is larger than '%s' "
                           "(%llu bytes); give a smaller --working-set or -f",
                           (unsigned long long)ws, o->path,
                           (unsigned long long)info.size);
    if (ws < o->size)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s' holds %llu bytes, less than one request of "
                           "%u; give a smaller --size",
                           o->path, (unsigned long long)info.size, o->size);
  }
  ws -= ws % o->size; /* whole requests only */
  *ws_out = ws;
  describe(r, info.is_device, info.size);

  size_t align = info.buffer_align > sector ? info.buffer_align : sector;
  if (align < 4096) align = 4096;
  p->buf_size = o->size;
  p->buf = iospd_plat_buf_alloc(p->buf_size, align, 0);
  if (p->buf == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory for the buffer");
  /* What writes write: not zeros, which some devices compress away. */
  for (uint32_t i = 0; i < o->size; i++)
    ((unsigned char*)p->buf)[i] = (unsigned char)(i * 7u + 1u);
  rc = iospd_plat_queue_create(&p->q, 1, IOSPD_QUEUE_SYNC, IOSPD_ENGINE_AUTO,
                               err);
  if (rc < 0) return rc;
  rc = iospd_plat_queue_attach(p->q, p->f, &p->file_index, err);
  if (rc < 0) return rc;
  if (folder) {
    rc = fill_temp(p, ws, err);
    if (rc < 0)
      return iospd_err_set(err, rc, "cannot write the temporary file '%s': %s",
                           r->file, iospd_strerror(rc));
  }
  return 0;
}

/* Waits until due_ns (or the deadline, or Ctrl-C). Returns false when the
 * probe must stop. Waits are in whole milliseconds, rounded up. */
static bool pause_until(const probe_t* p, uint64_t due_ns, uint64_t end_ns) {
  for (;;) {
    if (ping_stop) return false;
    uint64_t now = now_ns(p);
    if (end_ns != 0 && now >= end_ns) return false;
    uint64_t until = end_ns != 0 && end_ns < due_ns ? end_ns : due_ns;
    if (now >= until) return true;
    uint64_t ms = (until - now + 999999u) / 1000000u;
    if (ms > 1000) ms = 1000;
    if (iospd_plat_wait((uint32_t)ms) != 0) {
      ping_stop = 1;
      return false;
    }
  }
}

static void teardown(probe_t* p, iospd_ping_result_t* r) {
  bool buf_safe = true;
  if (p->q != NULL) buf_safe = iospd_plat_queue_destroy(p->q) == 0;
  if (p->buf != NULL && buf_safe) iospd_plat_buf_free(p->buf, p->buf_size);
  iospd_plat_file_close(p->f);
  if (p->temp_made) (void)iospd_plat_remove_file(r->file, NULL);
}

int iospd_ping_run(const iospd_ping_opts_t* o, uint64_t ticks_per_second,
                   const iospd_ping_sink_t* sink,
                   iospd_ping_stats_t* s, iospd_ping_result_t* r,
                   iospd_err_t* err) {
  probe_t p;
  memset(&p, 0, sizeof p);
  p.o = o;
  memset(r, 0, sizeof *r);
  r->target.path = o->path;
  r->target.size = o->size;
  r->target.write = o->write;
  ping_stop = 0;
  (void)iospd_plat_on_interrupt(on_ctrl_c, NULL, NULL);
  p.tps = ticks_per_second;
  uint64_t ws = 0;
  int rc = setup(&p, r, &ws, err);
  r->report.working_set = ws;
  if (rc < 0 || ping_stop) {
    r->interrupted = ping_stop != 0 && rc == 0;
    teardown(&p, r);
    return rc;
  }
  iospd_rand_t rnd;
  iospd_rand_seed(&rnd, iospd_plat_ticks());
  uint64_t slots = ws / o->size;
  uint64_t seq = 0;
  uint8_t op = o->write ? IOSPD_OP_WRITE : IOSPD_OP_READ;
  iospd_strbuf_t line;
  iospd_strbuf_init(&line);
  /* The longest line there can be, once: later lines reuse its memory. */
  iospd_ping_line(&line, &r->target, UINT64_MAX, UINT64_MAX,
                  IOSPD_PING_MARK_WARMUP);
  iospd_strbuf_reset(&line);
  uint64_t start = now_ns(&p);
  uint64_t end = o->duration_s ? start + (uint64_t)o->duration_s * 1000000000u
                               : 0;
  r->started = true;
  for (uint64_t n = 1;; n++) {
    uint64_t slot = o->sequential ? seq++ % slots : iospd_rand64(&rnd) % slots;
    uint64_t offset = slot * o->size;
    uint64_t t0 = iospd_plat_ticks();
    int32_t got = one_io(&p, op, offset, o->size, p.buf);
    uint64_t t1 = iospd_plat_ticks();
    uint64_t ns = ticks_to_ns(t1 - t0, p.tps);
    if (got != (int32_t)o->size) {
      s->wall_ns = now_ns(&p) - start;
      const char* why = got < 0 ? iospd_strerror(got) : "fewer bytes than asked";
      char os[IOSPD_ERR_MSG_MAX];
      os[0] = '\0';
      if (got < 0 && iospd_plat_queue_os_error(p.q, os, sizeof os) != 0)
        why = os;
      snprintf(r->error, sizeof r->error,
               "request %llu (%s of %u bytes at offset %llu) failed: %s",
               (unsigned long long)n, o->write ? "write" : "read", o->size,
               (unsigned long long)offset, why);
      rc = iospd_err_set(err, got < 0 ? got : IOSPD_EIO, "%s", r->error);
      iospd_strbuf_reset(&line);
      iospd_ping_error_line(&line, &r->target, n, why);
      if (sink->line != NULL && !o->quiet && !o->batch)
        sink->line(sink->ctx, iospd_strbuf_cstr(&line), line.len);
      break;
    }
    iospd_ping_mark_t mark = iospd_ping_stats_add(s, ns);
    if (!o->quiet && !o->batch && sink->line != NULL) {
      iospd_strbuf_reset(&line); /* keeps its memory: no allocation */
      iospd_ping_line(&line, &r->target, n, ns, mark);
      sink->line(sink->ctx, iospd_strbuf_cstr(&line), line.len);
    }
    if (o->count != 0 && n >= o->count) break;
    /* The next request starts an interval after this one started. */
    uint64_t due = ticks_to_ns(t0, p.tps) + o->interval_us * 1000u;
    if (!pause_until(&p, due, end)) break;
  }
  s->wall_ns = now_ns(&p) - start;
  r->interrupted = ping_stop != 0;
  iospd_strbuf_destroy(&line);
  teardown(&p, r);
  return rc;
}
