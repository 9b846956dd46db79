/* SPDX-License-Identifier: MIT */
/* Private to src/posix: the only place OS headers are included for the Linux
 * platform, the definitions of the opaque platform types, and helpers shared
 * between the files of this directory (prefix iospd_posix_). */
#ifndef IOSPD_POSIX_INTERNAL_H
#define IOSPD_POSIX_INTERNAL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "iospd/envinfo.h"
#include "iospd/error.h"
#include "iospd/platform.h"

/* errno -> IOSPD_E* (the only place that knows errno values). */
int iospd_posix_translate(int errnum);
/* The code for a failed read or write: as iospd_posix_translate, except that
 * EINVAL on an unbuffered (O_DIRECT) file means a misaligned offset, length
 * or buffer, reported as IOSPD_EALIGN. Hot path (a switch, no side effects). */
static inline int iospd_posix_io_error(int errnum, bool direct) {
  if (errnum == EINVAL && direct) return IOSPD_EALIGN;
  return iospd_posix_translate(errnum);
}
/* Fills err with "<what>: <strerror>" and the errno, returns the code. */
int iospd_posix_err(iospd_err_t* err, int errnum, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);

/* ---- files ------------------------------------------------------------ */

/* Returns 0, or IOSPD_EINVAL/IOSPD_ENOTSUP with a message for an empty path
 * and for the Windows-only forms ("#N", "X:", \\.\...) that name no
 * Linux file, or IOSPD_EUSAGE for a kernel pseudo-file (below). */
/* The temporary file of the report being written, removed by the signal
 * handler when a third Ctrl-C (or SIGTERM) ends iospd while it is written
 * (thread.c): NULL when none. One at a time, as reports are written; path
 * must stay valid until it is cleared. */
void iospd_posix_doomed_tmp(const char* path);
int iospd_posix_check_path(const char* path, iospd_err_t* err);
/* IOSPD_EUSAGE when path (or, when it does not exist, the folder it would
 * be made in) is on /proc, /sys or another kernel pseudo file system
 * (pseudo_fs.c); else 0. Part of iospd_posix_check_path. */
int iospd_posix_refuse_pseudo(const char* path, iospd_err_t* err);

struct iospd_plat_file_s {
  int fd;
  unsigned flags;  /* IOSPD_OPEN_* as requested */
  uint16_t ioprio; /* value for sqe->ioprio / ioprio_set, 0 = default */
  bool is_device;
  char* path; /* owned copy, for messages and signature probing */
  uint8_t* map;     /* -Sm: the whole file mapped read+write, or NULL */
  uint64_t map_len; /* its length (the file size at open) */
};

/* ---- memory-mapped I/O (mapped.c) ---------------------------------------- */

/* Maps f (opened with IOSPD_OPEN_MAPPED) whole; refuses devices and the
 * Windows-only -Nn/-Ni flushes. An empty file is left unmapped (the engine
 * reports it as empty). */
int iospd_posix_map(iospd_plat_file_t* f, iospd_err_t* err);
void iospd_posix_unmap(iospd_plat_file_t* f);
/* The queue front's side table of mapped files (an attach of a mapped file
 * lands here, not in the engine); NULL-safe free. */
typedef struct iospd_posix_mm_s iospd_posix_mm_t;
int iospd_posix_mm_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                          uint32_t* file_index, iospd_err_t* err);
int iospd_posix_mm_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                          uint32_t n, uint32_t* accepted);
int iospd_posix_mm_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                        uint32_t min, uint32_t timeout_ms, uint32_t* got);
void iospd_posix_mm_free(iospd_posix_mm_t* mm);
/* File indexes of mapped files carry this bit; the engine's own indexes
 * never do. */
#define IOSPD_POSIX_MM_INDEX 0x80000000u

/* The huge page size buffers are aligned to (x86-64 and arm64 with 4 KiB
 * pages); from this size up, I/O buffers are advised as transparent huge
 * pages. */
#define IOSPD_POSIX_THP_SIZE ((size_t)2u * 1024u * 1024u)

/* Writes size bytes to fd from offset 0 in 4 MiB chunks: zeros, or the
 * pattern byte[i] = i & 0xff (i counted from the chunk start, as DISKSPD
 * fills its creation buffer), calling progress (may be NULL) after each
 * chunk, then flushes (fdatasync). Write-back is started behind the writer
 * so at most a few tens of MiB are ever dirty. Stops between chunks when
 * the run is interrupted (IOSPD_EINTR). *written (may be NULL) gets the
 * bytes written either way. The fill of iospd_plat_file_create_ex
 * (src/posix/create.c). */
int iospd_posix_write_pattern(int fd, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              const char* path, uint64_t* written,
                              iospd_err_t* err);

/* ---- queues ----------------------------------------------------------- */

/* The per-engine operations behind iospd_plat_queue_* (fio's ioengine_ops,
 * kept private and static: one table per engine file). */
typedef struct iospd_posix_queue_ops_s {
  const char* name;
  /* Each I/O is its own system call (psync), so the core stamps each at
   * its own submit; iospd_plat_queue_traits. */
  bool submit_each;
  int (*attach)(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                uint32_t* file_index, iospd_err_t* err);
  int (*register_buffers)(iospd_plat_queue_t* q, void* base, size_t len,
                          iospd_err_t* err);
  int (*submit)(iospd_plat_queue_t* q, const iospd_io_t* ios, uint32_t n,
                uint32_t* accepted);
  int (*reap)(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
              uint32_t min, uint32_t timeout_ms, uint32_t* got);
  /* Optional: submit and reap in one kernel entry. NULL: the front calls
   * submit, then reap. */
  int (*submit_and_reap)(iospd_plat_queue_t* q, const iospd_io_t* ios,
                         uint32_t n, uint32_t* accepted, iospd_cqe_t* out,
                         uint32_t max, uint32_t min, uint32_t timeout_ms,
                         uint32_t* got);
  int (*destroy)(iospd_plat_queue_t* q); /* 0, or IOSPD_EIO: not drained */
} iospd_posix_queue_ops_t;

/* Every engine's queue struct starts with this, so the front can dispatch
 * with one indirect call per batch. */
struct iospd_plat_queue_s {
  const iospd_posix_queue_ops_t* ops;
  /* Set by the front (queue.c), zero from the engine's calloc: */
  uint32_t depth;
  iospd_posix_mm_t* mm; /* mapped files and their completions, or NULL */
  const char* name;     /* reported name when not ops->name, else NULL */
  /* Set by the engine: the most I/Os it really keeps in flight, when fewer
   * than depth (psync: 1); 0 = depth. */
  uint32_t kept;
};

/* The engines' create functions, started from the table in engines.c.
 * auto is the policy (queue.c); uring_start is io_uring, or in a build
 * without liburing the IOSPD_ENOTSUP that says so. */
int iospd_posix_auto_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err);
int iospd_posix_uring_start(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err);

/* The null engine: completes every I/O at once, touching nothing. */
int iospd_posix_null_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err);

/* The name a psync queue reports when --engine=auto chose it for a queue of
 * depth 1 (not because io_uring was refused). */
#define IOSPD_POSIX_PSYNC_QD1_NAME "psync (synchronous, queue depth 1)"
int iospd_posix_psync_create(iospd_plat_queue_t** q, uint32_t depth,
                             unsigned flags, iospd_err_t* err);
/* Linux kernel AIO (io_setup/io_submit/io_getevents), raw system calls.
 * Returns IOSPD_ENOTSUP when the kernel refuses it (ENOSYS, EPERM from
 * seccomp, EAGAIN from fs.aio-max-nr), so AUTO can fall back. */
int iospd_posix_libaio_create(iospd_plat_queue_t** q, uint32_t depth,
                              unsigned flags, iospd_err_t* err);
/* A pool of depth blocking pread/pwrite threads; page-cache hits complete
 * inline on the submitting thread (RWF_NOWAIT). */
int iospd_posix_threads_create(iospd_plat_queue_t** q, uint32_t depth,
                               unsigned flags, iospd_err_t* err);
/* For tests: how many I/Os a threads queue handed to its pool threads (0
 * for any other engine), and a switch for the inline path, read when a
 * file is attached (on by default). */
uint64_t iospd_posix_threads_handoffs(const iospd_plat_queue_t* q);
void iospd_posix_threads_set_inline(bool on);
/* For tests: batching to the helper thread for queues created from now
 * on: -1 when it fits (the default: three quarters of the slots), 0 never,
 * 1 always and every eligible I/O, 2 as 1 with every helper try a
 * simulated miss (read at create); and how many I/Os a queue gave the
 * helper and how many of those the helper passed on to the pool. */
void iospd_posix_threads_set_batch(int mode);
void iospd_posix_threads_batch_counts(const iospd_plat_queue_t* q,
                                      uint64_t* batched, uint64_t* redone);
#ifdef IOSPD_HAVE_URING
/* Returns IOSPD_ENOTSUP when the kernel refuses io_uring (ENOSYS, EPERM,
 * seccomp, kernel.io_uring_disabled, memlock limits), so AUTO can fall back
 * to psync; any other negative code is a real failure. */
int iospd_posix_uring_create(iospd_plat_queue_t** q, uint32_t depth,
                             unsigned flags, iospd_err_t* err);
#endif

/* ---- threads and waiting ---------------------------------------------- */

/* Creates the wake-up descriptor used by iospd_plat_wait (idempotent). */
int iospd_posix_wake_init(iospd_err_t* err);
/* True once Ctrl-C, SIGTERM or iospd_plat_interrupt has stopped the run
 * (the latch iospd_plat_wait returns 1 for). One poll(2), never blocks:
 * for long loops outside the hot path, such as the -c fill. */
bool iospd_posix_interrupt_pending(void);
/* Stops the Ctrl-C/SIGTERM watcher and restores the signals' dispositions. */
void iospd_posix_wake_shutdown(void);

/* ---- CPU -------------------------------------------------------------- */

/* Parses /proc/stat text from f into out[0..ncpu) (zeroing it first), in
 * 100 ns units given USER_HZ = hz. With ids (nids ascending CPU numbers, the
 * topology's order) each "cpuN" line goes to the entry of CPU N; without,
 * lines fill entries in order. Returns how many entries were filled. */
uint32_t iospd_posix_parse_cpu_stat(FILE* f, const uint32_t* ids, uint32_t nids,
                                    long hz, iospd_cpu_times_t* out,
                                    uint32_t ncpu);
/* iospd_plat_cpu_topology without side effects: the CPU numbers the next
 * iospd_plat_cpu_times maps its lines by stay those of the run's topology.
 * For counting (the environment fingerprint, envinfo.c). */
int iospd_posix_cpu_topology_peek(iospd_cpu_topology_t* topo,
                                  iospd_err_t* err);
/* The topology of the machine a sysfs tree describes: root + "/sys/..." and
 * root + "/proc/cpuinfo" ("" = this machine; tests pass a fake tree under
 * tests/data). Every CPU of a fake tree is active. Remembers nothing. */
int iospd_posix_cpu_topology_at(const char* root, iospd_cpu_topology_t* topo,
                                iospd_err_t* err);
/* A CPU bitmap of IOSPD_MAX_CPUS bits, and the readers of sysfs files. */
#define IOSPD_POSIX_CPUSET_WORDS (IOSPD_MAX_CPUS / 64)
#define IOSPD_POSIX_SYSFS_PATH 512
typedef struct iospd_posix_cpuset_s {
  uint64_t w[IOSPD_POSIX_CPUSET_WORDS];
} iospd_posix_cpuset_t;
/* Reads a CPU list file; false if absent, empty or malformed. */
bool iospd_posix_read_cpulist(const char* path, iospd_posix_cpuset_t* s);
/* The leading integer of a file, or dflt. */
long iospd_posix_read_long(const char* path, long dflt);
/* The caches of CPUs ids[0..n) from root's cpuN/cache/indexK into
 * topo->caches (cpu_count and cpus already filled): one entry per distinct
 * sharing set, in CPU then index order (as Windows lists them). A CPU
 * without cache files adds none. 0 or IOSPD_ENOMEM. */
int iospd_posix_read_caches(const char* root, const uint32_t* ids, uint32_t n,
                            iospd_cpu_topology_t* topo);
/* The processor's name from root's /proc/cpuinfo ("" if none). */
void iospd_posix_processor_name(const char* root, char* out, size_t size);
/* Forgets the CPU numbers remembered by the last topology. */
void iospd_posix_cpu_shutdown(void);
/* Parses a kernel CPU list ("0-3,8,10-11") into a bitmap of IOSPD_MAX_CPUS
 * bits (64 per word, CPU c in bit c % 64 of word c / 64). False if the text
 * is malformed or empty. */
bool iospd_posix_parse_cpulist(const char* text, uint64_t* words);
/* Reads a whole small file (/proc, /sys; cut at size - 1 bytes) into buf,
 * NUL-terminated; false when it cannot be read or is empty. */
bool iospd_posix_read_text(const char* path, char* buf, size_t size);

/* ---- environment fingerprint (envinfo.c, env_text.c, env_block.c) ------ */

/* Trims white space at both ends, in place. */
void iospd_posix_trim(char* s);
/* The CPU's name from /proc/cpuinfo text: "model name" (x86 and most),
 * "cpu model" (MIPS), "cpu" (POWER), else on arm64 the implementer, part
 * and revision ("ARM part 0xd0c r3p1"), else "Hardware" (32-bit Arm).
 * False, out "", if none is there. */
bool iospd_posix_cpuinfo_model(const char* text, char* out, size_t size);
/* The value of key in os-release(5) text, unquoted and unescaped. */
bool iospd_posix_os_release_value(const char* text, const char* key,
                                  char* out, size_t size);
/* The scheduler in use from queue/scheduler text: the bracketed entry
 * ("mq-deadline" from "[mq-deadline] kyber none"), or the only entry. */
bool iospd_posix_active_scheduler(const char* text, char* out, size_t size);
/* statfs f_type -> file system name; NULL if not in the table. */
const char* iospd_posix_fs_name(unsigned long magic);
/* Reads /proc/self/mountinfo text from f: the type and source of the
 * mount of device maj:min (the last one listed), else of the longest mount
 * point holding path (an absolute, resolved path; may be NULL). False,
 * both "", if none matched. */
bool iospd_posix_mountinfo_find(FILE* f, unsigned maj, unsigned min,
                                const char* path, char* fstype,
                                size_t fstype_size, char* source,
                                size_t source_size);
/* The bus of the block device at sysfs directory devpath (resolved),
 * kernel name name: "NVMe", "SATA", "virtio", "loop"..., "" unknown. */
void iospd_posix_bus_name(const char* sysroot, const char* devpath,
                          const char* name, char* out, size_t size);
/* Fills t's device fields for block device maj:min, reading sysfs under
 * sysroot ("/sys"): partitions resolved to their disk, dm/md over exactly
 * one device followed down. Leaves t alone if maj:min is unknown there. */
void iospd_posix_env_block(const char* sysroot, unsigned maj, unsigned min,
                           iospd_env_target_t* t);
/* iospd_plat_env_target with sysfs read under sysroot. */
void iospd_posix_env_target_at(const char* sysroot, const char* path,
                               iospd_env_target_t* t);
/* "gcc 12.2.0, RelWithDebInfo, x86_64 build": how this iospd was built. */
void iospd_posix_build_string(char* out, size_t size);

/* Linux CPU number <-> (group, number): iospd models Linux CPUs as Windows
 * processor groups of 64, so every CPU fits a 64-bit mask. On machines with
 * up to 64 CPUs the group is always 0 and the number is the CPU number. */
#define IOSPD_POSIX_GROUP_CPUS 64u

#endif
