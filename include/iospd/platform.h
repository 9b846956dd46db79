/* SPDX-License-Identifier: MIT */
/* THE platform boundary. Declared once here, defined once per platform in
 * src/win/ or src/posix/ (CMake picks the directory), and once more in
 * tests/fake_plat.c for engine tests. The core reaches the OS only through
 * these calls. Opaque types are defined in each platform's internal.h, so this
 * header never needs an OS header.
 *
 * Conventions: fallible calls return 0 (or a count) on success and a negative
 * IOSPD_E* on failure, and take iospd_err_t* err last (may be NULL).
 * "Hot path" marks calls the engine makes per I/O batch. */
#ifndef IOSPD_PLATFORM_H
#define IOSPD_PLATFORM_H

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/message.h"

#define IOSPD_MAX_CPUS 4096
#define IOSPD_CPU_ANY 0xffffffffu

/* ---- system description ------------------------------------------------ */

typedef struct iospd_cpu_info_s {
  uint16_t group;     /* processor group (always 0 on Linux) */
  uint16_t number;    /* CPU number within the group */
  uint32_t core;      /* core index, group-relative */
  uint32_t node;      /* NUMA node */
  uint32_t socket;
  uint8_t efficiency_class;
  bool active;
} iospd_cpu_info_t;

typedef struct iospd_group_info_s {
  uint32_t max_processors;
  uint32_t active_processors;
  uint64_t active_mask;
} iospd_group_info_t;

/* One CPU cache (DISKSPD 2.3's <Cache>): identical caches of several CPUs
 * are separate entries, one per sharing set. */
enum {
  IOSPD_CACHE_TYPE_UNIFIED = 0,
  IOSPD_CACHE_TYPE_INSTRUCTION,
  IOSPD_CACHE_TYPE_DATA,
  IOSPD_CACHE_TYPE_TRACE
};
typedef struct iospd_cache_info_s {
  uint8_t level;          /* 1..4 */
  uint8_t type;           /* IOSPD_CACHE_TYPE_* */
  uint16_t associativity; /* ways; 0xFF = fully associative (as Windows) */
  uint16_t line_size;     /* bytes */
  uint32_t size;          /* bytes */
  uint16_t group;         /* the processor group of mask */
  uint64_t mask;          /* the CPUs that share it */
} iospd_cache_info_t;

/* Topology as DISKSPD reports it (System information / ProcessorTopology).
 * Arrays are owned by the topology; free with iospd_plat_cpu_topology_free. */
typedef struct iospd_cpu_topology_s {
  uint32_t cpu_count;      /* active logical CPUs */
  uint32_t core_count;
  uint32_t group_count;
  uint32_t node_count;
  uint32_t socket_count;
  bool heterogeneous;      /* more than one efficiency class */
  bool smt;                /* some core has more than one CPU */
  iospd_cpu_info_t* cpus;  /* cpu_count entries, in (group, number) order */
  iospd_group_info_t* groups; /* group_count entries */
  /* Masks per core/node/socket for the XML topology, one entry each:
   * (group, mask) of the CPUs it contains. */
  struct iospd_topo_mask_s {
    uint32_t id;
    uint16_t group;
    uint8_t efficiency_class;
    uint64_t mask;
  } *core_masks, *node_masks, *socket_masks;
  uint32_t core_mask_count, node_mask_count, socket_mask_count;
  /* DISKSPD 2.3: the caches (owned; none where the OS does not say) and
   * the processor's marketing name ("" if unknown). */
  iospd_cache_info_t* caches;
  uint32_t cache_count;
  char processor_name[128];
} iospd_cpu_topology_t;

typedef struct iospd_sysinfo_s {
  char computer_name[256];
  char power_scheme_name[128]; /* "" if unknown */
  char power_scheme_guid[64];  /* "" if none (Linux: cpufreq governor goes in
                                  the name) */
  uint64_t ticks_per_second;   /* iospd_plat_ticks frequency */
  uint32_t page_size;
  const char* os_name;         /* "windows" or "linux" */
} iospd_sysinfo_t;

/* What this build was compiled for, for iospd --version: static strings,
 * no OS call (so it works before iospd_plat_init). Its engines are
 * iospd_plat_engines. */
typedef struct iospd_plat_build_s {
  const char* os;      /* "linux" or "windows" */
  const char* arch;    /* "x86_64", "x86", "aarch64", ...; "" if unknown */
} iospd_plat_build_t;
void iospd_plat_build(iospd_plat_build_t* out);

/* Once, from main, before any other iospd_plat_* call. */
int iospd_plat_init(iospd_sysinfo_t* out, iospd_err_t* err);
void iospd_plat_shutdown(void);

int iospd_plat_cpu_topology(iospd_cpu_topology_t* topo, iospd_err_t* err);
void iospd_plat_cpu_topology_free(iospd_cpu_topology_t* topo);

/* Cumulative times per active CPU, in topology order, in 100 ns units.
 * kernel EXCLUDES idle (Windows adjusts; Linux: system+irq+softirq+steal). */
typedef struct iospd_cpu_times_s {
  uint64_t idle, kernel, user;
} iospd_cpu_times_t;
int iospd_plat_cpu_times(iospd_cpu_times_t* out, uint32_t ncpu,
                         iospd_err_t* err);

/* Wall clock in UTC for the report's "start time": broken-down fields. */
typedef struct iospd_utc_time_s {
  uint32_t year, month, day, hour, minute, second;
} iospd_utc_time_t;
void iospd_plat_utc_now(iospd_utc_time_t* out);
/* Milliseconds since boot (bare -z seed). */
uint64_t iospd_plat_uptime_ms(void);

/* ---- misleading set-ups (iospd/warnings.h) -------------------------------
 * Memory the OS can give without swapping (Linux MemAvailable, Windows
 * ullAvailPhys), in bytes; 0 when unknown. */
uint64_t iospd_plat_mem_available(void);
/* CPU time (user + system) the calling thread has used, in ns; 0 when
 * unknown. Cheap; called by each worker at the start and end of its run. */
uint64_t iospd_plat_thread_cpu_ns(void);
/* The same for the whole process, every thread of it (the kernel's
 * io_uring workers included on Linux): --curve's "iospd's own CPU". */
uint64_t iospd_plat_process_cpu_ns(void);
/* The same split into user and system (kernel) time, in ns; false (and
 * zeros) when unknown. Called by a worker as measuring begins and ends
 * (iospd/cost.h). */
bool iospd_plat_thread_cpu_split(uint64_t* user_ns, uint64_t* sys_ns);
/* Reads n samples of len bytes each, sample i at offsets[i], from the
 * target at path (a file, disk or volume; through the cache, sharing it
 * with everyone) into buf + i * len. Offsets and len must be multiples of
 * 4096 (devices). *got counts the whole samples read before the first
 * short or failed read. Controller only, before the run. */
int iospd_plat_read_samples(const char* path, const uint64_t* offsets,
                            uint32_t n, uint32_t len, uint8_t* buf,
                            uint32_t* got, iospd_err_t* err);

/* ---- clock and waiting -------------------------------------------------- */

/* Monotonic raw ticks (QPC / CLOCK_MONOTONIC ns). Hot path. */
uint64_t iospd_plat_ticks(void);
/* Sleeps up to ms; returns 1 if woken by iospd_plat_interrupt (or Ctrl-C),
 * else 0. */
int iospd_plat_wait(uint32_t ms);
/* Installs the Ctrl-C handler (Linux: SIGINT and SIGTERM; Windows: Ctrl-C
 * and Ctrl-Break): on the first such signal it calls cb(arg) once (from
 * any thread) and wakes iospd_plat_wait. The second writes the notice of
 * iospd_plat_set_interrupt_notice to stderr and changes nothing else: the
 * results measured so far are still written. The third ends the process
 * the default way (Linux: killed by that signal, exit 130 for SIGINT). */
int iospd_plat_on_interrupt(void (*cb)(void* arg), void* arg, iospd_err_t* err);
/* The text the second interrupt writes (static storage; NULL: none). */
void iospd_plat_set_interrupt_notice(const char* text);
/* Wakes iospd_plat_wait as Ctrl-C would (used by -yp and tests). */
void iospd_plat_interrupt(void);
/* Sleeps ms, whatever Ctrl-C does: for polling loops and throttle sleeps,
 * which must not spin once an interrupt has latched iospd_plat_wait. As
 * precise as iospd_plat_run_begin's fine_waits made the platform's waits. */
void iospd_plat_sleep(uint32_t ms);

/* What a run needs from the process, asked for by the controller (the
 * thread that calls this, whose priority the platform may raise so phase
 * switches and CPU snapshots are not delayed by busy workers, as DISKSPD
 * does) before any worker starts. Given back by iospd_plat_run_end. */
typedef struct iospd_run_needs_s {
  bool large_pages; /* -l: Windows enables SeLockMemoryPrivilege and fails
                       the run if the account does not hold it */
  bool fine_waits;  /* -g or -j: millisecond waits must last about a
                       millisecond (Windows: high-resolution timers, else
                       timeBeginPeriod(1) until iospd_plat_run_end) */
} iospd_run_needs_t;
int iospd_plat_run_begin(const iospd_run_needs_t* needs, iospd_err_t* err);
void iospd_plat_run_end(void);

/* ---- threads -------------------------------------------------------------- */

typedef struct iospd_plat_thread_s iospd_plat_thread_t;
typedef struct iospd_plat_latch_s iospd_plat_latch_t;

typedef struct iospd_thread_opts_s {
  bool pin;          /* false: no affinity (-n) */
  uint16_t group;
  uint32_t cpu;      /* group-relative, or IOSPD_CPU_ANY */
} iospd_thread_opts_t;

/* Starts fn(arg) on a new thread, with affinity set before fn runs. */
int iospd_plat_thread_start(iospd_plat_thread_t** t,
                            const iospd_thread_opts_t* o, void (*fn)(void*),
                            void* arg, iospd_err_t* err);
/* Waits for the thread and frees it. */
int iospd_plat_thread_join(iospd_plat_thread_t* t);
/* Waits up to ms for the thread to end: 1 if it has (join it next), 0 if
 * it still runs. */
int iospd_plat_thread_wait(iospd_plat_thread_t* t, uint32_t ms);
/* Cancels the blocking I/O call the thread is inside, if any (Windows:
 * CancelSynchronousIo, so a depth-1 worker stuck on a hung device returns
 * with IOSPD_ECANCELED). Where I/O calls cannot be cancelled (Linux
 * pread), nothing happens. */
void iospd_plat_thread_cancel_io(iospd_plat_thread_t* t);


/* A count-down latch, the controller's start gates: it opens for good when
 * `count` arrivals have been made (0 = open at once), or when aborted.
 * Waiters sleep in the kernel until then, however many there are (no
 * polling), and a wait also ends on an interrupt (Ctrl-C or
 * iospd_plat_interrupt), so a thread waiting at a gate never outlives
 * Ctrl-C. Every call but create/destroy may come from any thread. */
int iospd_plat_latch_create(iospd_plat_latch_t** l, uint32_t count,
                            iospd_err_t* err);
/* One arrival; does not wait. Arrivals beyond count are ignored. */
void iospd_plat_latch_arrive(iospd_plat_latch_t* l);
/* Opens the latch without the missing arrivals: waits return 1. */
void iospd_plat_latch_abort(iospd_plat_latch_t* l);
/* Sleeps until the latch opens: 0 when every arrival was made, 1 when it
 * was aborted or the process was interrupted. */
int iospd_plat_latch_wait(iospd_plat_latch_t* l);
/* The same, for at most ms: 2 when the time ran out first. The controller
 * waits for its workers' set-up in such slices, so that what no signal
 * wakes (the -yp event, set by another process) still stops a start that
 * a hung set-up holds. */
int iospd_plat_latch_wait_ms(iospd_plat_latch_t* l, uint32_t ms);
void iospd_plat_latch_destroy(iospd_plat_latch_t* l);

/* ---- memory --------------------------------------------------------------- */

#define IOSPD_BUF_LARGE_PAGES 1u
/* Page-aligned (at least align) zeroed buffer for I/O, or NULL. */
void* iospd_plat_buf_alloc(size_t size, size_t align, unsigned flags);
void iospd_plat_buf_free(void* p, size_t size);

/* ---- files ---------------------------------------------------------------- */

typedef struct iospd_plat_file_s iospd_plat_file_t;

enum {
  IOSPD_OPEN_READ = 1u << 0,
  IOSPD_OPEN_WRITE = 1u << 1,
  IOSPD_OPEN_NO_BUFFERING = 1u << 2,  /* -Su: NO_BUFFERING / O_DIRECT */
  IOSPD_OPEN_WRITE_THROUGH = 1u << 3, /* -Sw: WRITE_THROUGH / O_DSYNC */
  IOSPD_OPEN_SEQ_HINT = 1u << 4,      /* -fs */
  IOSPD_OPEN_RANDOM_HINT = 1u << 5,   /* -fr */
  IOSPD_OPEN_TEMPORARY = 1u << 6,     /* -ft */
  IOSPD_OPEN_DISABLE_LOCAL_CACHE = 1u << 7, /* -Sr */
  IOSPD_OPEN_ASYNC = 1u << 8,         /* overlapped (Windows) */
  IOSPD_OPEN_PRIORITY_LOW = 1u << 9,  /* -I2 */
  IOSPD_OPEN_PRIORITY_VERY_LOW = 1u << 10, /* -I1 */
  /* -Sm: the platform maps the whole file (read+write) at open; the queue
   * then serves this file's I/O by copying to/from the view inside submit,
   * and the completion comes back from the next reap. Regular files only
   * (devices are refused at open). With IOSPD_OPEN_WRITE_THROUGH (-Smw) the
   * copies are non-temporal and no flush is done; otherwise a write is
   * followed by the flush one of the FLUSH flags asks for (-N). */
  IOSPD_OPEN_MAPPED = 1u << 11,
  IOSPD_OPEN_FLUSH_VIEW = 1u << 12,       /* -Nv: FlushViewOfFile / msync */
  IOSPD_OPEN_FLUSH_NV = 1u << 13,         /* -Nn: RtlFlushNonVolatileMemory
                                             (Windows only) */
  IOSPD_OPEN_FLUSH_NV_NODRAIN = 1u << 14  /* -Ni: the same, no drain */
};

typedef struct iospd_open_opts_s {
  const char* path; /* UTF-8, borrowed; "#N" and "X:" forms are resolved by
                       the platform */
  unsigned flags;
} iospd_open_opts_t;

typedef struct iospd_file_info_s {
  uint64_t size;            /* bytes (device size for disks/volumes) */
  uint32_t logical_sector;  /* 0 if unknown */
  uint32_t physical_sector; /* 0 if unknown */
  /* Unbuffered I/O: the alignment the device requires of buffer addresses
   * (Windows: FileAlignmentInfo, often 4 or 512 even on a 4Kn disk; Linux:
   * STATX_DIOALIGN's dio_mem_align); 0 if unknown, and then the logical
   * sector size is assumed. */
  uint32_t buffer_align;
  bool is_device;           /* disk or volume rather than a regular file */
  bool has_filesystem;      /* device: a file system signature was found */
  bool has_partitions;      /* device: a partition table was found */
  char content[128];        /* device: what was found, for messages */
} iospd_file_info_t;

/* The alignment that cached (buffered) I/O to this disk or volume needs
 * of every offset and length, 0 if none: Windows opens devices as raw
 * handles that take only whole logical sectors with or without -Su
 * (the sector size, 512 if unknown); the Linux page cache takes any
 * offset (0). The run applies it before any thread starts (issue #26). */
uint32_t iospd_plat_cached_device_align(const iospd_file_info_t* info);

int iospd_plat_file_open(iospd_plat_file_t** f, const iospd_open_opts_t* o,
                         iospd_err_t* err);
int iospd_plat_file_info(iospd_plat_file_t* f, iospd_file_info_t* info,
                         iospd_err_t* err);
void iospd_plat_file_close(iospd_plat_file_t* f);
/* -Sy / -SY (DISKSPD 2.3): what BypassIO bypassed on one target handle. */
typedef enum iospd_bypass_state_e {
  IOSPD_BYPASS_STATE_NOT_ASKED = 0, /* no -Sy/-SY */
  IOSPD_BYPASS_STATE_NONE,    /* asked, and nothing is bypassed (refused) */
  IOSPD_BYPASS_STATE_PARTIAL, /* the file system and its filters are
                                 bypassed, the storage stack is not */
  IOSPD_BYPASS_STATE_FULL     /* file system and storage stack bypassed */
} iospd_bypass_state_t;
typedef struct iospd_bypass_result_s {
  iospd_bypass_state_t state;
  /* Why it is not full ("" when full): the refusing driver and its reason,
   * or the call's failure, in our words. */
  char note[160];
} iospd_bypass_result_t;
/* Enables BypassIO on f (Windows: FSCTL_MANAGE_BYPASS_IO, FS_BPIO_OP_ENABLE)
 * and says what it bypassed. full false (-Sy): any answer runs (0); full
 * true (-SY): anything short of a full bypass fails, IOSPD_ENOTSUP with
 * err naming the target, what was missing and what to do. Linux:
 * IOSPD_ENOTSUP (the parser refuses -Sy/-SY there). Called at a worker's
 * set-up, never on the hot path. */
int iospd_plat_file_bypass_io(iospd_plat_file_t* f, bool full,
                              iospd_bypass_result_t* out, iospd_err_t* err);
/* --pts-purge: discards the whole block device path, bytes [0, size):
 * Linux BLKDISCARD, or BLKSECDISCARD when secure. Windows: IOSPD_ENOTSUP
 * (not built yet). Refuses anything but a block device. */
int iospd_plat_discard_device(const char* path, bool secure, uint64_t size,
                              iospd_err_t* err);
/* Looks at a target without opening it for I/O (profile printer, safety
 * checks). */
int iospd_plat_path_info(const char* path, iospd_file_info_t* info,
                         iospd_err_t* err);
/* Progress of long work: done of total bytes so far (fn may be NULL).
 * warn (may be NULL) takes a warning line the platform meets on the way,
 * worded as DISKSPD prints it (the Windows -c fallbacks). note (may be NULL)
 * receives one-line remarks worth telling the user (a stale temporary file
 * removed, a fallback taken); the core prints them as NOTE lines. */
typedef struct iospd_progress_s {
  void (*fn)(void* ctx, uint64_t done, uint64_t total);
  void* ctx;
  /* A line for the user: DISKSPD's WARNING lines (its fallbacks, in its
   * words) as IOSPD_MSG_DISKSPD_WARNING, how the file was made as
   * IOSPD_MSG_NOTE; text without the prefix (iospd/message.h). */
  void (*warn)(void* ctx, iospd_msg_kind_t kind, const char* text);
  void (*note)(void* ctx, const char* text);
} iospd_progress_t;

/* Creates (always overwriting) a regular file of the given size, allocated
 * but not zero-written where the OS allows, else written with fill_byte
 * pattern (i & 0xff) or zeros. Never called for devices. When it writes
 * the data, progress (may be NULL) is called after each chunk (1-4 MiB),
 * the last call with done == total.
 * Linux: failure never costs data or space. The free space is checked
 * first, and the file is made as a temporary sibling that replaces the old
 * file only when complete, so a failed or interrupted creation leaves an
 * existing file as it was, removes what it made and frees what it took;
 * only when the space cannot hold both is an existing file overwritten in
 * place (after its space is reserved). Ctrl-C, SIGTERM or
 * iospd_plat_interrupt stop the fill between chunks: IOSPD_EINTR, with a
 * message saying what was left. progress->note gets the remarks (stale
 * temporary files removed, an in-place overwrite).
 * Windows: overwrites in place (see src/win/create.c), and deletes the
 * file when creation fails; Ctrl-C or iospd_plat_interrupt stop the fill
 * between chunks: IOSPD_EINTR, the partial file removed. Its NOTE lines
 * (how the file was made) go through progress->warn. */
int iospd_plat_file_create_ex(const char* path, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              iospd_err_t* err);
static inline int iospd_plat_file_create(const char* path, uint64_t size,
                                         bool zero_fill, iospd_err_t* err) {
  return iospd_plat_file_create_ex(path, size, zero_fill, NULL, err);
}

/* How much of a regular file was never written: holes (a sparse file) and
 * allocated-but-unwritten extents (what fallocate or an interrupted -c
 * leaves). File systems answer reads of both with zeros without touching
 * the device. known is false when the platform cannot tell (Windows for
 * now; a Linux file system with neither FIEMAP nor SEEK_HOLE). Cheap: one
 * walk of the file's extent map. */
typedef struct iospd_unwritten_s {
  bool known;
  uint64_t hole_bytes;      /* sparse ranges (no blocks at all) */
  uint64_t unwritten_bytes; /* blocks reserved but never written */
} iospd_unwritten_t;
int iospd_plat_file_unwritten(const char* path, iospd_unwritten_t* out,
                              iospd_err_t* err);
/* Whether two target paths name the same file by the OS's rules for names.
 * Windows resolves both (relative paths, "..", '/', "#N", "X:") and
 * compares them ignoring case as NTFS does (CompareStringOrdinal), so
 * "C:\x.dat" and "c:\X.DAT" are one target; Linux compares the strings.
 * Controller only (it allocates). */
bool iospd_plat_same_path(const char* a, const char* b);
/* ---- the latency probe's files (iospd --ping) ----------------------------
 * Controller only (they allocate). */

/* Creates a new, empty regular file in the directory dir whose name no
 * other file has or can take meanwhile (Linux: mkostemp's O_EXCL on
 * "iospd-ping-XXXXXX.tmp"; Windows: CREATE_NEW on "ipg<pid>-<n>.tmp", so
 * a folder with a long name works too), and
 * puts its path (UTF-8) in path (size bytes). The caller removes it. */
int iospd_plat_temp_file_create(const char* dir, char* path, size_t size,
                                iospd_err_t* err);
/* Bytes this user may still allocate on the file system that holds the
 * folder dir (Linux: its nearest existing parent; f_bavail, not what is
 * kept for root), or UINT64_MAX when the file system does not say: the
 * figure -c checks before it creates a file, for --ping's temporary file. */
uint64_t iospd_plat_free_bytes(const char* dir);

/* ---- report files (--output, --timeseries) -------------------------------
 * Controller only (they allocate). */

/* Whether two paths name one file: iospd_plat_same_path, or, where both
 * exist, the same file identity (Linux: device and inode, so hard links,
 * symbolic links and other spellings count; Windows: volume serial and file
 * index); where one does not exist yet, the same name in the same resolved
 * folder. */
bool iospd_plat_same_file(const char* a, const char* b);
/* Whether a report could be written at path as iospd_plat_write_file_whole
 * writes it, without leaving anything behind: refuses a folder, a path
 * whose folder is missing or not writable, an existing file that is not a
 * regular file or cannot be opened for writing (opened without truncating,
 * so it is not changed), a symbolic link or reparse point, and a folder
 * where no new temporary file can be created (created and removed at
 * once). err says what failed, without naming the path. */
int iospd_plat_output_probe(const char* path, iospd_err_t* err);
/* Writes the text data (len bytes) to a new temporary file beside path
 * (created exclusively), flushes it to the device, then renames it over
 * path (a link there is refused, checked again before the rename): path is either the old file or the
 * whole new one, never a half-written report. Line ends as standard output
 * writes them (Windows: CRLF), so a file equals `iospd ... > file`. On
 * failure the temporary file is removed. */
int iospd_plat_write_file_whole(const char* path, const void* data, size_t len,
                                iospd_err_t* err);
/* The same, with the bytes as given on every platform (no CRLF on
 * Windows): the HTML report, which must be the same file everywhere. */
int iospd_plat_write_file_whole_bytes(const char* path, const void* data,
                                      size_t len, iospd_err_t* err);

/* A report written in pieces, so that a long run's document is never held
 * whole: the same places and the same guarantees as
 * iospd_plat_write_file_whole. open decides on path again (a link planted
 * since the probe is refused) and creates the new temporary file beside it
 * exclusively (or opens a stream, character device or FIFO to write in
 * place); write appends (its first failure is kept, later writes do
 * nothing and publish returns it); publish flushes the file to the device,
 * checks path once more and renames the file over it (on failure the
 * temporary file is removed), so path is the old file or the whole new
 * report; abandon (a failed render, an out-of-memory) removes the
 * temporary file and publishes nothing. publish and abandon free f
 * (abandon(NULL) does nothing). text: line ends as standard output writes
 * them (Windows: every \n as \r\n, as iospd_plat_write_file_whole);
 * false: the bytes as given (iospd_plat_write_file_whole_bytes). A report
 * written in place (stdout, a FIFO) is seen as it is written: a failure
 * part-way leaves what was written. */
typedef struct iospd_plat_outfile_s iospd_plat_outfile_t;
int iospd_plat_outfile_open(const char* path, bool text,
                            iospd_plat_outfile_t** out, iospd_err_t* err);
int iospd_plat_outfile_write(iospd_plat_outfile_t* f, const void* data,
                             size_t len, iospd_err_t* err);
int iospd_plat_outfile_publish(iospd_plat_outfile_t* f, iospd_err_t* err);
void iospd_plat_outfile_abandon(iospd_plat_outfile_t* f);

/* The one file reader: reads path (UTF-8; long paths on Windows) from its
 * start into a new NUL-terminated iospd_malloc buffer (*data, *len bytes
 * before the NUL; the caller frees it with iospd_free): the whole file
 * when limit is SIZE_MAX (no limit but memory and, in a 32-bit build, half
 * the address space: results files are as large as iospd wrote them),
 * else at most limit bytes (-Z<size>,<file> takes the first <size>; a pipe
 * or device is read up to the limit or its end). The message names the
 * file: "cannot open '<path>': ...", "error reading '<path>': ...".
 * Controller and application only. */
int iospd_plat_read_file(const char* path, size_t limit, char** data,
                         size_t* len, iospd_err_t* err);

/* ---- shared file mappings (--verify state) ---------------------------------
 * A small file mapped shared read-write, so a store into it is a plain
 * memory store that other processes and a later run see, and that the OS
 * writes back even when the process is killed (Linux: mmap MAP_SHARED;
 * Windows: CreateFileMappingW + MapViewOfFile, whose modified pages the
 * memory manager writes after TerminateProcess too). Controller only. */
typedef struct iospd_plat_map_s iospd_plat_map_t;
enum {
  IOSPD_MAP_LOCK = 1u << 0 /* one holder at a time: another process that
                              holds it makes the open fail with
                              IOSPD_EAGAIN (Linux flock; Windows: the
                              file is opened without FILE_SHARE_WRITE) */
};
/* Opens an existing file read-write and maps the whole of it. Never changes
 * the file (no truncation, no resizing): the caller decides from the bytes
 * whether it is the file it wants. A symbolic link is not followed
 * (O_NOFOLLOW; Windows: FILE_FLAG_OPEN_REPARSE_POINT, and a reparse point
 * is refused) and anything but a regular file is refused (IOSPD_EUNSAFE,
 * with a message); IOSPD_ENOENT when absent; an empty file IOSPD_ETOOSMALL
 * (nothing to map). *addr and *len describe the view. */
int iospd_plat_map_open(const char* path, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        iospd_err_t* err);
/* Makes a new file of size bytes of zeros under a unique temporary name in
 * path's folder, its blocks reserved (posix_fallocate; Windows: the
 * allocation size set), locked as IOSPD_MAP_LOCK, mapped. IOSPD_ENOSPC
 * when the file system has no room. It has its name path only once
 * iospd_plat_map_publish gave it; closing it before removes it. */
int iospd_plat_map_create(const char* path, uint64_t size,
                          iospd_plat_map_t** m, void** addr,
                          iospd_err_t* err);
/* Gives a file made by iospd_plat_map_create its name path without ever
 * replacing a file there (link + unlink; Windows MoveFileExW without
 * MOVEFILE_REPLACE_EXISTING): IOSPD_EEXIST when path exists, and the
 * caller opens that one. replace_empty: an existing empty regular file at
 * path (no symbolic link) is replaced. */
int iospd_plat_map_publish(iospd_plat_map_t* m, const char* path,
                           bool replace_empty, iospd_err_t* err);
/* Writes the view's modified pages and the file's metadata to the device
 * (msync + fsync; FlushViewOfFile + FlushFileBuffers). Fails (IOSPD_EIO)
 * when the view was lost during the run (iospd_plat_map_lost). */
int iospd_plat_map_flush(iospd_plat_map_t* m, iospd_err_t* err);
/* Whether a page of the view could not be reached during the run (Linux:
 * the file was truncated by another process, or its storage failed:
 * SIGBUS). The view then reads zeros from the fault on: what was stored in
 * it since is lost. Never on Windows (the mapping keeps the file's size). */
bool iospd_plat_map_lost(const iospd_plat_map_t* m);
/* Unmaps and closes (the lock goes with it); a file never published is
 * removed. NULL-safe. */
void iospd_plat_map_close(iospd_plat_map_t* m);

/* ---- the lock on a verified target's identity -----------------------------
 * One --verify run per target file, however it is spelled: the lock is on
 * the file itself, not its name, so a symbolic or hard link to a target
 * another run verifies is refused (IOSPD_EAGAIN). Linux: flock on a
 * descriptor of the target (flock locks the inode). Windows: a byte-range
 * lock (LockFileEx) on the byte at offset 2^63 - 2, beyond any offset an
 * I/O reaches, on a handle of the target: like flock it belongs to the file
 * object, works across spellings and sessions, and goes when the process
 * ends, even killed (a named mutex from the volume serial and file id
 * would need the Global namespace's privilege to span sessions). Held until
 * iospd_plat_target_unlock (NULL-safe). Controller only. */
typedef struct iospd_plat_tlock_s iospd_plat_tlock_t;
int iospd_plat_target_lock(const char* path, iospd_plat_tlock_t** lk,
                           iospd_err_t* err);
void iospd_plat_target_unlock(iospd_plat_tlock_t* lk);
/* When path itself (its last part) is a symbolic link: the final path it
 * leads to (realpath; Windows GetFinalPathNameByHandleW), allocated
 * (iospd_free). NULL when it is not a link or cannot be resolved: the
 * caller keeps the path as given (a linked folder on the way changes no
 * file's folder, so it needs no resolving). */
char* iospd_plat_final_path(const char* path);
/* Nanoseconds since 1970-01-01 UTC (block header time stamps; read once per
 * run, not on the hot path). */
uint64_t iospd_plat_unix_ns(void);

/* ---- per-worker asynchronous queue ---------------------------------------- */

typedef struct iospd_plat_queue_s iospd_plat_queue_t;

enum { IOSPD_OP_READ = 0, IOSPD_OP_WRITE = 1 };

typedef struct iospd_io_s {
  uint32_t tag;        /* the core's slot index; comes back in the cqe */
  uint8_t op;          /* IOSPD_OP_* */
  uint32_t file_index; /* from iospd_plat_queue_attach */
  uint64_t offset;
  uint32_t length;
  void* buf;
} iospd_io_t;

typedef struct iospd_cqe_s {
  uint32_t tag;
  int32_t result; /* bytes transferred, or negative IOSPD_E* */
} iospd_cqe_t;

enum {
  IOSPD_QUEUE_SYNC = 1u << 0,      /* depth 1: synchronous calls are fine;
                                      under the auto policy the platform may
                                      pick a synchronous engine (Linux:
                                      psync, the cheapest at depth 1) */
  IOSPD_QUEUE_COMPLETION_ROUTINES = 1u << 1, /* -x (Windows) */
  IOSPD_QUEUE_UNBUFFERED = 1u << 2, /* every file attached will be unbuffered
                                      (-Su/-Sh): under the auto policy
                                      Linux may pick kernel AIO */
  IOSPD_QUEUE_PLAN = 1u << 3 /* made only to say which engine and depth a
                                run would get (-Rp), then destroyed: no
                                I/O will be submitted, so an engine starts
                                no threads for it (-o65536 with the threads
                                engine would start 65536) */
};

/* ---- engines ----------------------------------------------------------
 * The platform's I/O engines, one table (src/posix/engines.c,
 * src/win/engines.c): the only place their --engine= words are spelled.
 * The command line, --version, -?, the man page, shell completion and the
 * messages that name an engine all read it; the profile keeps an index into
 * it (iospd_ext_t.engine), which the core never interprets. Entry 0 is
 * "auto", the platform's policy that picks one of the others per queue. */
enum {
  IOSPD_ENGINE_CAP_POLICY = 1u << 0, /* "auto": picks another entry */
  IOSPD_ENGINE_CAP_ASYNC = 1u << 1,  /* keeps more than one I/O in flight */
  IOSPD_ENGINE_CAP_NO_IO = 1u << 2,  /* moves no bytes (null) */
  IOSPD_ENGINE_CAP_ABSENT = 1u << 3, /* not compiled into this build: named
                                        so a run can say why, left out of
                                        --version */
  IOSPD_ENGINE_CAP_RING = 1u << 4    /* the engine DISKSPD 2.3's -u selects
                                        (Windows IoRing, Linux io_uring) */
};
typedef struct iospd_engine_def_s {
  const char* name;    /* the --engine= word */
  const char* summary; /* what it is, one line, for -?, man and messages */
  unsigned caps;       /* IOSPD_ENGINE_CAP_* */
  /* Makes a queue with this engine (the platform's; the core calls
   * iospd_plat_queue_create). Fails with IOSPD_ENOTSUP and the reason when
   * the OS refuses the engine. */
  int (*create)(iospd_plat_queue_t** q, uint32_t depth, unsigned flags,
                iospd_err_t* err);
} iospd_engine_def_t;
/* The table and its length (static storage; no OS call, so it works before
 * iospd_plat_init). */
const iospd_engine_def_t* iospd_plat_engines(uint32_t* count);

/* Creates a queue for up to depth in-flight I/Os. engine: an index into
 * iospd_plat_engines (IOSPD_ENGINE_AUTO, 0, is the policy). The engine's
 * name ("io_uring", "psync", "I/O Completion Ports") is reported by
 * iospd_plat_queue_engine. */
int iospd_plat_queue_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, int engine, iospd_err_t* err);
const char* iospd_plat_queue_engine(const iospd_plat_queue_t* q);
/* How the queue's engine takes I/Os, for the core's batch loop. */
typedef struct iospd_queue_traits_s {
  /* Each I/O is its own OS call (Windows ReadFile/WriteFile, psync): the
   * core then hands I/Os over one by one and stamps each right before its
   * own call, so an I/O is not charged for the calls before it. False
   * where a batch goes to the kernel at once (io_uring). */
  bool submit_each;
  /* Completions one pass takes (at most IOSPD_REAP_MAX, engine.h), for a
   * worker with only buffered targets, and with an unbuffered one. */
  uint32_t reap_batch;
  uint32_t reap_batch_unbuffered;
} iospd_queue_traits_t;
void iospd_plat_queue_traits(const iospd_plat_queue_t* q,
                             iospd_queue_traits_t* out);
/* The native code (a Win32 error) of the first failure this queue saw, if
 * that failure came from the OS; 0 otherwise, or where the platform keeps
 * none. text (size bytes, may be NULL) receives the system's description
 * with the number, plus advice where there is some, e.g. "The device is
 * not ready (error 21)". Not on the hot path: read once, after a failure. */
int64_t iospd_plat_queue_os_error(const iospd_plat_queue_t* q, char* text,
                                  size_t size);
/* How many I/Os the engine really keeps in flight at once, at most depth
 * (psync: 1; kernel AIO with a buffered file attached: 1; a thread pool
 * that could start fewer threads: that many). Valid after the attaches. */
uint32_t iospd_plat_queue_depth(const iospd_plat_queue_t* q);
/* Binds an open file to this queue (Windows: a handle binds to one port for
 * good, so open one handle per worker and target). */
int iospd_plat_queue_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                            uint32_t* file_index, iospd_err_t* err);
/* Registers I/O buffers once (io_uring fixed buffers); optional. */
int iospd_plat_queue_register_buffers(iospd_plat_queue_t* q, void* base,
                                      size_t len, iospd_err_t* err);
/* Hot path. Starts n I/Os; *accepted says how many were taken (the engine
 * keeps the rest for the next pass). An I/O that fails at once is reported
 * through reap, not here. */
int iospd_plat_queue_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                            uint32_t n, uint32_t* accepted);
/* Hot path. Waits until at least min completions (or timeout_ms; UINT32_MAX
 * = forever), returns up to max in out, *got = count. */
int iospd_plat_queue_reap(iospd_plat_queue_t* q, iospd_cqe_t* out,
                          uint32_t max, uint32_t min, uint32_t timeout_ms,
                          uint32_t* got);
/* Hot path. iospd_plat_queue_submit followed by iospd_plat_queue_reap, in
 * one kernel entry where the engine allows it (io_uring_submit_and_wait);
 * elsewhere simply the two calls. The arguments mean what they mean there;
 * as in reap, nothing waits when nothing is in flight after the submit.
 * A failure to hand the I/Os over returns with *accepted as far as it got
 * (usually 0) and *got = 0; a failure while waiting returns with *accepted
 * set to everything the queue took. */
int iospd_plat_queue_submit_and_reap(iospd_plat_queue_t* q,
                                     const iospd_io_t* ios, uint32_t n,
                                     uint32_t* accepted, iospd_cqe_t* out,
                                     uint32_t max, uint32_t min,
                                     uint32_t timeout_ms, uint32_t* got);
/* Cancels and drains everything in flight, then frees. NULL-safe. Returns 0
 * when every accepted I/O has completed; IOSPD_EIO when it had to give up
 * (a hung device, an unusable ring): then the kernel may still write into
 * the I/O buffers, and the caller must not free them (leak them instead). */
int iospd_plat_queue_destroy(iospd_plat_queue_t* q);

/* ---- the file-tree mode (--tree, docs/tree.md) ------------------------------
 * Synchronous calls for the tree workers, which open, read or write, and
 * close many small files. A handle lives in the caller's storage (an OS
 * handle or descriptor in an integer), so opening and closing, which the
 * mode times as metadata operations, allocate nothing; paths are UTF-8 and
 * converted on the stack (Windows: up to 4095 UTF-16 units, the
 * extended-length form taken for long ones). */
typedef struct iospd_tree_fh_s {
  intptr_t h;
} iospd_tree_fh_t;
enum {
  IOSPD_TREE_OPEN_WRITE = 1u << 0,   /* read and write, else read only */
  IOSPD_TREE_OPEN_CREATE = 1u << 1,  /* a new file: IOSPD_EEXIST if one
                                        exists (never truncates) */
  IOSPD_TREE_OPEN_UNBUFFERED = 1u << 2,    /* -Su: NO_BUFFERING / O_DIRECT */
  IOSPD_TREE_OPEN_WRITE_THROUGH = 1u << 3  /* -Sw: WRITE_THROUGH / O_DSYNC */
};
/* Opens path. Windows shares read, write AND delete (FILE_SHARE_DELETE), so
 * another thread may rename the file while this handle is open: MoveFileEx
 * fails on a file that any handle opened without delete sharing.
 * Never follows a link in the last component (Linux O_NOFOLLOW; Windows
 * FILE_FLAG_OPEN_REPARSE_POINT, a reparse point closed again unread): a
 * symbolic link planted where a tree file belongs is IOSPD_EUNSAFE, with
 * err naming it, and its target is never opened. */
int iospd_plat_tree_open(const char* path, unsigned flags,
                         iospd_tree_fh_t* fh, iospd_err_t* err);
/* Hot path. One positioned read or write: bytes moved, or a negative
 * IOSPD_E*. A read past the end returns the bytes there were. */
int64_t iospd_plat_tree_read(iospd_tree_fh_t fh, void* buf, uint32_t len,
                             uint64_t offset);
int64_t iospd_plat_tree_write(iospd_tree_fh_t fh, const void* buf,
                              uint32_t len, uint64_t offset);
/* 0, or a negative IOSPD_E* (the handle is gone either way). */
int iospd_plat_tree_close(iospd_tree_fh_t fh);
/* Creates one directory (the parent must exist): 0 when made,
 * IOSPD_EEXIST when a directory of that name is there already (a file of
 * that name is IOSPD_EEXIST too, with err saying it is not a directory). */
int iospd_plat_mkdir(const char* path, iospd_err_t* err);
/* Renames a file within its volume, never over an existing one: IOSPD_EEXIST
 * if to exists (Windows: MoveFileExW without MOVEFILE_REPLACE_EXISTING or
 * MOVEFILE_COPY_ALLOWED; Linux: renameat2 RENAME_NOREPLACE, else link and
 * unlink). IOSPD_EAGAIN when another process holds the file without delete
 * sharing (Windows ERROR_SHARING_VIOLATION): nothing moved, try later. */
int iospd_plat_rename_noreplace(const char* from, const char* to,
                                iospd_err_t* err);
/* Removes a file / an empty directory (the one remove call of every
 * mode; long Windows paths too). */
int iospd_plat_remove_file(const char* path, iospd_err_t* err);
int iospd_plat_remove_dir(const char* path, iospd_err_t* err);
enum {
  IOSPD_PATH_NONE = 0, /* nothing (or a parent is missing) */
  IOSPD_PATH_FILE,
  IOSPD_PATH_DIR,
  IOSPD_PATH_OTHER,    /* a device, socket... */
  IOSPD_PATH_LINK      /* a symbolic link (Windows: a reparse point) that
                          is not a directory, dangling ones too */
};
/* *kind (IOSPD_PATH_*) and *size (files); 0, or a negative IOSPD_E* when
 * it cannot be told (permission denied...). A link to a directory is
 * IOSPD_PATH_DIR (a --tree directory may be one); any other link is
 * IOSPD_PATH_LINK and is not followed. */
int iospd_plat_path_kind(const char* path, int* kind, uint64_t* size,
                         iospd_err_t* err);

/* ---- named events (-y) ----------------------------------------------------- */

/* A named, manual-reset event shared between processes: once set it stays
 * set (iospd never resets one), and every waiter sees it. Its state never
 * outlives every process that has it open. Windows: a named kernel event
 * (CreateEventExW / OpenEventW), gone when its last handle closes. Linux: a
 * POSIX named semaphore "/iospd-<name>" whose value > 0 means "set" (a
 * waiter takes it and posts it back, so every waiter sees it), with a
 * holders file whose record locks tell which handles are alive; the last
 * handle to close removes both, and an opener that finds only dead holders
 * (a killed run) starts the event afresh, not set. */
typedef struct iospd_plat_event_s iospd_plat_event_t;

/* create: open the event, creating it (not set) if absent; !create: open an
 * existing one only (IOSPD_ENOENT if there is none). */
int iospd_plat_event_open(const char* name, bool create,
                          iospd_plat_event_t** ev, iospd_err_t* err);
int iospd_plat_event_set(iospd_plat_event_t* ev, iospd_err_t* err);
/* Waits up to timeout_ms (0 = just look, UINT32_MAX = forever). Returns 1
 * if the event is set, 0 on timeout, negative IOSPD_E* on failure. */
int iospd_plat_event_wait(iospd_plat_event_t* ev, uint32_t timeout_ms);
/* True if opening found the event set although every process that had it
 * open was gone (a killed run left it), and so reset it: the caller says
 * so, since a waiter now waits for a live process to set it. */
bool iospd_plat_event_was_stale(const iospd_plat_event_t* ev);
/* NULL-safe. */
void iospd_plat_event_close(iospd_plat_event_t* ev);

#endif
