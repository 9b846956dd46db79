/* SPDX-License-Identifier: MIT */
/* Linux's I/O engines: the one table of their --engine= words, what each
 * is and how to start it. The command line, --version, -?, the man page,
 * shell completion and every message that names an engine read it through
 * iospd_plat_engines; the queue front (queue.c) starts entries from it.
 * Adding an engine: its file (fio's ioengine shape: a static
 * iospd_posix_queue_ops_t and a create function declared in internal.h)
 * and one line here. Order matters only for -? and --version; "auto" stays
 * first (IOSPD_ENGINE_AUTO). */
#include "posix/internal.h"

/* io_uring is the engine DISKSPD 2.3's -u selects (IOSPD_ENGINE_CAP_RING). */
#ifdef IOSPD_HAVE_URING
#define URING_CAPS (IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_RING)
#else
#define URING_CAPS \
  (IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_RING | IOSPD_ENGINE_CAP_ABSENT)
#endif

static const iospd_engine_def_t engines[] = {
    {"auto", "psync at -o1, else io_uring, libaio (-Su/-Sh) or threads",
     IOSPD_ENGINE_CAP_POLICY | IOSPD_ENGINE_CAP_ASYNC, iospd_posix_auto_create},
    {"io_uring", "Linux io_uring", URING_CAPS, iospd_posix_uring_start},
    {"libaio", "Linux kernel AIO (io_submit), for -Su/-Sh targets",
     IOSPD_ENGINE_CAP_ASYNC, iospd_posix_libaio_create},
    {"threads", "a pool of -o blocking pread/pwrite threads per worker",
     IOSPD_ENGINE_CAP_ASYNC, iospd_posix_threads_create},
    {"psync", "pread/pwrite, one I/O at a time", 0, iospd_posix_psync_create},
    {"null", "completes I/O at once without touching the target",
     IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_NO_IO, iospd_posix_null_create},
};

const iospd_engine_def_t* iospd_plat_engines(uint32_t* count) {
  *count = (uint32_t)IOSPD_ARRAY_SIZE(engines);
  return engines;
}
