/* SPDX-License-Identifier: MIT */
/* The status line's own thread (iospd/status_drawer.h says why). */
#include "iospd/status_drawer.h"

#include <stdatomic.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"

/* In `latest`: the buffer index (0..2) and whether it holds a line the
 * drawer has not taken yet. */
#define FRESH 4u
#define INDEX 3u

struct iospd_status_drawer_s {
  char buf[3][IOSPD_STATUS_LINE_MAX + 1];
  size_t len[3];
  _Atomic uint32_t latest; /* the third buffer: index | FRESH */
  uint32_t post_buf;       /* the poster's own buffer */
  uint32_t draw_buf;       /* the drawer's own buffer: the line shown */
  /* Dekker's pair: a writer raises quiet, then waits for drawing to drop;
   * the drawer raises drawing, then draws only while quiet is 0. */
  _Atomic uint32_t quiet;
  _Atomic uint32_t drawing;
  _Atomic uint32_t redraw; /* the line was erased: show it again */
  _Atomic uint32_t stop;
  _Atomic uint64_t drawn;
  iospd_status_show_fn show;
  void* ctx;
  uint32_t poll_ms;
  iospd_plat_thread_t* thread;
};

/* One look: the newest line if there is one, else the line shown when a
 * write erased it. */
static void draw_once(iospd_status_drawer_t* d) {
  bool fresh = (atomic_load(&d->latest) & FRESH) != 0;
  if (!fresh && atomic_load(&d->redraw) == 0) return;
  atomic_store(&d->drawing, 1);
  if (atomic_load(&d->quiet) == 0) {
    atomic_store(&d->redraw, 0);
    if (fresh) d->draw_buf = atomic_exchange(&d->latest, d->draw_buf) & INDEX;
    if (d->len[d->draw_buf] > 0) {
      d->show(d->ctx, d->buf[d->draw_buf], d->len[d->draw_buf]);
      atomic_fetch_add(&d->drawn, 1);
    }
  }
  atomic_store(&d->drawing, 0);
}

static void drawer_main(void* arg) {
  iospd_status_drawer_t* d = arg;
  while (atomic_load(&d->stop) == 0) {
    draw_once(d);
    iospd_plat_sleep(d->poll_ms);
  }
}

int iospd_status_drawer_start(iospd_status_drawer_t** out,
                              iospd_status_show_fn show, void* ctx,
                              uint32_t poll_ms, iospd_err_t* err) {
  *out = NULL;
  iospd_status_drawer_t* d = iospd_calloc(1, sizeof *d);
  if (d == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory (status line)");
  atomic_init(&d->latest, 2u);
  d->post_buf = 0;
  d->draw_buf = 1;
  atomic_init(&d->quiet, 0);
  atomic_init(&d->drawing, 0);
  atomic_init(&d->redraw, 0);
  atomic_init(&d->stop, 0);
  atomic_init(&d->drawn, 0);
  d->show = show;
  d->ctx = ctx;
  d->poll_ms = poll_ms ? poll_ms : 1;
  iospd_thread_opts_t o = {.pin = false};
  int rc = iospd_plat_thread_start(&d->thread, &o, drawer_main, d, err);
  if (rc < 0) {
    iospd_free(d);
    return rc;
  }
  *out = d;
  return 0;
}

void iospd_status_drawer_post(iospd_status_drawer_t* d, const char* line,
                              size_t len) {
  if (len > IOSPD_STATUS_LINE_MAX) len = IOSPD_STATUS_LINE_MAX;
  memcpy(d->buf[d->post_buf], line, len);
  d->buf[d->post_buf][len] = '\0';
  d->len[d->post_buf] = len;
  d->post_buf = atomic_exchange(&d->latest, d->post_buf | FRESH) & INDEX;
}

void iospd_status_drawer_quiet_begin(iospd_status_drawer_t* d) {
  if (d == NULL) return;
  atomic_fetch_add(&d->quiet, 1);
  while (atomic_load(&d->drawing) != 0) iospd_plat_sleep(1);
}

void iospd_status_drawer_quiet_end(iospd_status_drawer_t* d, bool redraw) {
  if (d == NULL) return;
  if (redraw) atomic_store(&d->redraw, 1);
  atomic_fetch_sub(&d->quiet, 1);
}

uint64_t iospd_status_drawer_drawn(const iospd_status_drawer_t* d) {
  return atomic_load(&d->drawn);
}

void iospd_status_drawer_stop(iospd_status_drawer_t* d) {
  if (d == NULL) return;
  atomic_store(&d->stop, 1);
  iospd_plat_thread_join(d->thread);
  iospd_free(d);
}
