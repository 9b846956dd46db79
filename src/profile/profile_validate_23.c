/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's rules between switches (and the same facts in an XML
 * profile): -u with -x or -Sm, -oc with -x or with every target -Sm,
 * BypassIO (-Sy/-SY) without unbuffered I/O, with writes or with -Sm, the
 * ring batch and completion depth ranges, and 2.3's limits on old switches
 * (-o and -O at most 65536, CPUs 0-63). Part of iospd_profile_validate;
 * messages are "error: ..." lines naming the switch. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "iospd/diskspd23.h"
#include "iospd/message.h"

#define D23_MAX_OUTSTANDING 65536u

typedef struct d23_diag_s {
  iospd_strbuf_t* sb;
  int errors;
} d23_diag_t;

static void err(d23_diag_t* d, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static void err(d23_diag_t* d, const char* fmt, ...) {
  d->errors++;
  if (d->sb == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  iospd_msg_vlinef(d->sb, IOSPD_MSG_ERROR, fmt, ap);
  va_end(ap);
}

static const char* tname(const iospd_target_t* t) {
  return t->path ? t->path : "(no path)";
}

static void check_target(d23_diag_t* d, const iospd_timespan_t* ts,
                         const iospd_target_t* t, bool d23) {
  if (t->bypass_io != IOSPD_BYPASS_NONE) {
    const char* sw = t->bypass_io == IOSPD_BYPASS_FULL ? "-SY" : "-Sy";
    if (t->cache_mode != IOSPD_CACHE_DISABLE_OS)
      err(d, "%s: BypassIO (%s) needs unbuffered I/O (-Su or -Sh)",
          tname(t), sw);
    if (t->write_ratio > 0)
      err(d, "%s: BypassIO (%s) cannot be used with writes (-w%" PRIu32
             "); BypassIO is for reads, use -w0", tname(t), sw,
          t->write_ratio);
    if (t->memory_mapped)
      err(d, "%s: BypassIO (%s) cannot be used with memory-mapped I/O (-Sm)",
          tname(t), sw);
  }
  if (ts->ioring.enabled && t->memory_mapped)
    err(d, "%s: -u (IoRing) cannot be used with memory-mapped I/O (-Sm)",
        tname(t));
  if (d23 && t->request_count > D23_MAX_OUTSTANDING)
    err(d, "%s: -o%" PRIu32 " exceeds DISKSPD 2.3's maximum of %u "
           "outstanding I/Os per thread", tname(t), t->request_count,
        D23_MAX_OUTSTANDING);
}

int iospd_profile_validate_23(const iospd_profile_t* p, iospd_strbuf_t* diag) {
  d23_diag_t d = {diag, 0};
  bool d23 = p->ext.diskspd >= IOSPD_DISKSPD_23;
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    const iospd_ioring_t* r = &ts->ioring;
    if (r->enabled) {
      if (ts->completion_routines)
        err(&d, "-u (IoRing) cannot be used with -x (completion routines)");
      uint32_t max = r->batch_percent ? 100 : IOSPD_IORING_BATCH_MAX;
      if (r->batch < 1 || r->batch > max)
        err(&d, "the IoRing batch %s (-u) must be from 1 to %" PRIu32
                ", not %" PRIu32,
            r->batch_percent ? "percentage" : "size", max, r->batch);
    }
    if (ts->completion_depth > IOSPD_COMPLETION_DEPTH_MAX)
      err(&d, "the completion depth (-oc) must be from 1 to %u, not %" PRIu32,
          IOSPD_COMPLETION_DEPTH_MAX, ts->completion_depth);
    if (ts->completion_depth != 0) {
      if (ts->completion_routines)
        err(&d, "-oc (completion depth) cannot be used with -x (completion "
                "routines)");
      bool all_mapped = ts->target_count > 0;
      for (uint32_t j = 0; j < ts->target_count; j++)
        if (!ts->targets[j].memory_mapped) all_mapped = false;
      if (all_mapped)
        err(&d, "-oc (completion depth) has no effect when every target is "
                "memory-mapped (-Sm): nothing waits for completions");
    }
    if (d23 && ts->request_count > D23_MAX_OUTSTANDING)
      err(&d, "-O%" PRIu32 " exceeds DISKSPD 2.3's maximum of %u outstanding "
              "I/Os per thread", ts->request_count, D23_MAX_OUTSTANDING);
    for (uint32_t k = 0; d23 && k < ts->affinity_count; k++) {
      const iospd_affinity_t* a = &ts->affinity[k];
      if (a->cpu != IOSPD_AFFINITY_WHOLE_GROUP && a->cpu > 63) {
        err(&d, "-a: CPU %u of group %u is out of range: DISKSPD 2.3 numbers "
                "the CPUs of a group 0-63", (unsigned)a->cpu,
            (unsigned)a->group);
        break;
      }
    }
    /* Command-line targets share their parameters: check the first. */
    for (uint32_t j = 0; j < ts->target_count; j++) {
      check_target(&d, ts, &ts->targets[j], d23);
      if (p->xml_source == NULL) break;
    }
  }
  return d.errors;
}
