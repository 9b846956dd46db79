/* SPDX-License-Identifier: MIT */
/* -Rp: the profile printed instead of run, as text (with the engine each
 * target would use on Linux) or as XML. */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/engine.h"
#include "iospd/xml_profile.h"

/* The engine the profile asks for; auto is named by the first engine of
 * the platform's table after it (io_uring), as the -Rp text always did. */
static const char* engine_name(int engine) {
  const char* name = iospd_engine_choice_name(
      engine == IOSPD_ENGINE_AUTO ? IOSPD_ENGINE_AUTO + 1 : engine);
  return name != NULL ? name : iospd_engine_choice_name(IOSPD_ENGINE_AUTO);
}

/* -Rp on Linux: the engine each target's threads would use and the I/Os it
 * would keep in flight, from a queue made (and dropped) the way a worker
 * makes it. */
static bool profile_engine(void* ctx, uint32_t timespan, uint32_t target,
                           iospd_engine_use_t* use) {
  const iospd_profile_t* p = ctx;
  if (timespan >= p->timespan_count) return false;
  const iospd_timespan_t* ts = &p->timespans[timespan];
  if (target >= ts->target_count) return false;
  const iospd_target_t* t = &ts->targets[target];
  uint32_t depth = t->request_count ? t->request_count : 1;
  unsigned flags = IOSPD_QUEUE_PLAN | (depth == 1 ? IOSPD_QUEUE_SYNC : 0);
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) flags |= IOSPD_QUEUE_UNBUFFERED;
  iospd_plat_queue_t* q = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  int engine = p->ext.engine; /* -u: the ring engine, as the worker */
  if (iospd_ring_engine(p, ts, &engine, &err) != 0 ||
      iospd_plat_queue_create(&q, depth, flags, engine, &err) != 0) {
    /* A forced engine the kernel refuses: say so, as the run would. */
    static char refused[IOSPD_ERR_MSG_MAX + 64];
    snprintf(refused, sizeof refused, "%s, which cannot start here: %s",
             engine_name(p->ext.engine), err.msg);
    use->name = refused;
    use->asked = use->kept = 0;
    return true;
  }
  use->name = iospd_plat_queue_engine(q); /* static storage */
  use->asked = depth;
  use->kept = iospd_plat_queue_depth(q);
  (void)iospd_plat_queue_destroy(q);
  return true;
}

int iospd_app_print_profile(const iospd_profile_t* p,
                            const iospd_sysinfo_t* sys) {
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  bool on_linux = strcmp(sys->os_name, "windows") != 0;
  /* Where the platform cannot say (no queue can be made), the engine the
   * profile asks for. */
  const char* engine = NULL;
  if (on_linux)
    engine = engine_name(p->ext.engine);
  if (p->format == IOSPD_FORMAT_XML) {
    iospd_xml_profile_write(&out, p, 0);
  } else {
    /* DISKSPD 2.3's buffer-separation figure uses the largest cache line. */
    iospd_cpu_topology_t topo;
    iospd_err_t err;
    memset(&topo, 0, sizeof topo);
    bool have_topo = iospd_plat_cpu_topology(&topo, &err) == 0;
    iospd_report_profile_text_sys(&out, p, engine,
                                  on_linux ? profile_engine : NULL, (void*)p,
                                  have_topo ? &topo : NULL, sys->page_size);
    if (have_topo) iospd_plat_cpu_topology_free(&topo);
  }
  out_sb(&out);
  iospd_strbuf_destroy(&out);
  return EXIT_OK;
}

