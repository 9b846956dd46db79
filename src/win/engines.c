/* SPDX-License-Identifier: MIT */
/* Windows's I/O engines: the one table of their --engine= words, what each
 * is and how to start it (see src/posix/engines.c for Linux's). The
 * command line, --version, -? and every message that names an engine read
 * it through iospd_plat_engines; the queue front starts entries from it.
 * Adding an engine: its file (a static iospd_win_queue_ops_t and a create
 * function declared in internal.h) and one line here; "auto" stays first
 * (IOSPD_ENGINE_AUTO). */
#include "win/internal.h"

static const iospd_engine_def_t engines[] = {
    {"auto", "completion routines under -x, else iocp",
     IOSPD_ENGINE_CAP_POLICY | IOSPD_ENGINE_CAP_ASYNC, iospd_win_auto_create},
    {"iocp", "overlapped I/O reaped from an I/O completion port",
     IOSPD_ENGINE_CAP_ASYNC, iospd_win_iocp_create},
    {"routines", "completion routines (ReadFileEx/WriteFileEx), as -x",
     IOSPD_ENGINE_CAP_ASYNC, iospd_win_routines_create},
    {"null", "completes I/O at once without touching the target",
     IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_NO_IO, iospd_win_null_create},
    {"ioring", "IoRing (Windows 11), batched submits, as DISKSPD 2.3's -u",
     IOSPD_ENGINE_CAP_ASYNC | IOSPD_ENGINE_CAP_RING, iospd_win_ioring_create},
};

const iospd_engine_def_t* iospd_plat_engines(uint32_t* count) {
  *count = (uint32_t)IOSPD_ARRAY_SIZE(engines);
  return engines;
}
