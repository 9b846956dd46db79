/* SPDX-License-Identifier: MIT */
/* Private to src/win: the only place <windows.h> is included, the definitions
 * of the opaque platform types, and helpers shared by the files of this
 * directory (prefix iospd_win_). */
#ifndef IOSPD_WIN_INTERNAL_H
#define IOSPD_WIN_INTERNAL_H

#include <windows.h>
#include <winternl.h>

#include "iospd/envinfo.h"
#include "iospd/error.h"
#include "iospd/platform.h"

/* ---- process-wide state (init.c) ----------------------------------------- */

/* QueryPerformanceFrequency, read once by iospd_win_once. */
extern uint64_t iospd_win_qpc_freq;

/* ntdll entry points, resolved once with GetProcAddress (libuv winapi.c
 * style): mingw's import libraries do not cover them all, and we want a
 * clean "not available" rather than a loader error. NULL if missing. */
typedef NTSTATUS(NTAPI* iospd_win_nt_qsi_fn)(int cls, void* buf, ULONG len,
                                             ULONG* ret);
typedef NTSTATUS(NTAPI* iospd_win_nt_qsi_ex_fn)(int cls, void* in, ULONG inlen,
                                                void* buf, ULONG len,
                                                ULONG* ret);
typedef ULONG(NTAPI* iospd_win_nt_to_dos_fn)(NTSTATUS status);
extern iospd_win_nt_qsi_fn iospd_win_NtQuerySystemInformation;
extern iospd_win_nt_qsi_ex_fn iospd_win_NtQuerySystemInformationEx;
extern iospd_win_nt_to_dos_fn iospd_win_RtlNtStatusToDosError;
typedef NTSTATUS(NTAPI* iospd_win_nt_query_file_fn)(HANDLE h,
                                                    IO_STATUS_BLOCK* iosb,
                                                    void* info, ULONG len,
                                                    int cls);
extern iospd_win_nt_query_file_fn iospd_win_NtQueryInformationFile;

/* Manual-reset event set by Ctrl-C and iospd_plat_interrupt. */
extern HANDLE iospd_win_interrupt_event;

/* One-time process setup (frequency, ntdll, interrupt event). Thread-safe
 * and idempotent (InitOnceExecuteOnce), so calls that may run before
 * iospd_plat_init (tests) stay correct. */
void iospd_win_once(void);

/* Enables a privilege (e.g. SE_LOCK_MEMORY_NAME) in the process token.
 * Returns 0 or the Win32 error (ERROR_NOT_ALL_ASSIGNED when not held). */
DWORD iospd_win_enable_privilege(const WCHAR* name);
/* The same; on failure *step (if not NULL) says which call failed, for
 * DISKSPD's messages: 1 opening the token, 2 looking the name up, 3
 * adjusting the token. */
DWORD iospd_win_enable_privilege_at(const WCHAR* name, int* step);

/* ---- waits and the run (run_env.c) ---------------------------------------- */

/* How millisecond waits are made precise while a run with -g/-j lasts. */
enum {
  IOSPD_WIN_FINE_OFF = 0, /* no -g/-j, or nothing available: system timer */
  IOSPD_WIN_FINE_TIMER,   /* high-resolution waitable timers */
  IOSPD_WIN_FINE_PERIOD   /* timeBeginPeriod(1) (before Windows 10 1803) */
};
extern int iospd_win_fine_mode;
/* Tests: act as if high-resolution timers did not exist. */
extern bool iospd_win_fine_force_fallback;
/* The calling thread's high-resolution timer (made on first use), or NULL
 * when the mode is not IOSPD_WIN_FINE_TIMER. */
HANDLE iospd_win_thread_timer(void);
/* Closes the calling thread's timer (at thread end). */
void iospd_win_thread_timer_free(void);
/* Arms timer to expire in ms, with apc (may be NULL) queued then. */
bool iospd_win_timer_arm(HANDLE timer, uint32_t ms, PTIMERAPCROUTINE apc);
/* For a short wait (under 50 ms) of a thread with a fine timer: arms it to
 * queue a no-op APC in ms, so an alertable wait (the completion port's,
 * SleepEx for -x) ends on time rather than a system tick late. Returns the
 * timer (CancelWaitableTimer it after the wait; an APC already queued only
 * ends the next alertable wait early), or NULL: wait as usual. */
HANDLE iospd_win_fine_wake_arm(uint32_t ms);

/* ---- -I priority hints (priority.c) --------------------------------------- */

/* Sets the hint -I asked for (IOSPD_OPEN_PRIORITY_* in flags; none: 0) and
 * checks it took: a refusal or a different hint read back fails, with a
 * message naming path. */
int iospd_win_set_priority_hint(HANDLE h, unsigned flags, const char* path,
                                iospd_err_t* err);
/* The same for one PRIORITY_HINT value. */
int iospd_win_apply_priority_hint(HANDLE h, int hint, const char* path,
                                  iospd_err_t* err);
/* The handle's hint as NtQueryInformationFile reads it: 1 and *hint, or 0
 * where it cannot be read (wine). */
int iospd_win_priority_hint_read(HANDLE h, int* hint);

/* ---- errors (error.c) ---------------------------------------------------- */

/* GetLastError-style code -> IOSPD_E* (the only place that knows them). */
int iospd_win_translate(DWORD code);
/* "<FormatMessage text> (error N)" in UTF-8, "system error (error N)"
 * when the system has no text for it. */
void iospd_win_error_text(DWORD code, char* out, size_t size);
/* FormatMessageW (flags: FORMAT_MESSAGE_FROM_SYSTEM, _FROM_HMODULE or
 * _FROM_STRING, with source) into a buffer the system allocates, so no
 * message is cut at a fixed length; UTF-8 into out, line breaks made
 * blanks, trailing dots and blanks dropped. Returns its length, 0 if the
 * system has no text. */
size_t iospd_win_format_message(DWORD flags, const void* source, DWORD code,
                                char* out, size_t size);
/* An NTSTATUS as text: its Win32 code's message with both numbers, or,
 * when it maps to no Win32 code, ntdll's text and the raw status. */
void iospd_win_status_text(NTSTATUS status, char* out, size_t size);
/* Fills err with "<what>: <FormatMessage text> (error N)". */
int iospd_win_err(iospd_err_t* err, DWORD code, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);
/* An OVERLAPPED status (NTSTATUS in ov.Internal) -> Win32 error code. */
DWORD iospd_win_ntstatus_to_win32(NTSTATUS status);

/* ---- device control (ioctl.c) ------------------------------------------- */

/* DeviceIoControl with an OVERLAPPED and its own event, waited for with
 * GetOverlappedResult: correct on overlapped and synchronous handles alike,
 * and never posted to a completion port the handle is bound to. Same
 * result as DeviceIoControl; GetLastError() says why it failed. */
BOOL iospd_win_ioctl(HANDLE h, DWORD code, void* in, DWORD in_len, void* out,
                     DWORD out_len, DWORD* returned);
/* How long a pending control call is waited for before it is cancelled
 * (then ERROR_TIMEOUT); Ctrl-C or iospd_plat_interrupt cancels it at once
 * (ERROR_OPERATION_ABORTED). UINT32_MAX: no limit. Tests shorten it. */
extern uint32_t iospd_win_ioctl_deadline_ms;
/* One ReadFile of len bytes at off, on an overlapped handle or not, with
 * the same wait: Ctrl-C or the deadline cancels it. Returns 0 (*got bytes
 * arrived, 0 at the end) or the Win32 error (ERROR_HANDLE_EOF included).
 * *abandoned: the cancel did not finish, so buf is still the kernel's and
 * must never be freed. */
DWORD iospd_win_read_timed(HANDLE h, uint64_t off, void* buf, DWORD len,
                           DWORD* got, bool* abandoned);

/* ---- paths (path.c) ------------------------------------------------------ */

/* UTF-8 -> freshly allocated UTF-16 (iospd_free it), or NULL (bad UTF-8 or
 * out of memory). */
WCHAR* iospd_win_utf8_to_wide(const char* s);
/* UTF-16 -> UTF-8 into out (always NUL-terminated). Returns the length, or
 * -1 if it did not fit (out then holds a truncated, valid prefix). */
int iospd_win_wide_to_utf8(const WCHAR* w, char* out, size_t size);
/* GetFullPathNameW into a fresh buffer of the size needed (iospd_free
 * it), or NULL. */
WCHAR* iospd_win_full_path(const WCHAR* w);
/* The full path (relative, ".." and '/' resolved), in the extended-length
 * form (\\?\X:\... or \\?\UNC\server\share\...) when it is too long
 * for the plain one; NULL on failure. */
WCHAR* iospd_win_long_form(const WCHAR* w);
/* The one UTF-8 -> UTF-16 converter for the names of files iospd opens,
 * makes or removes that are not targets (reports, state files, -X
 * profiles, --ping and --tree files): '/' becomes '\\', a name the plain
 * Win32 form cannot hold (MAX_PATH less room for an 8.3 name) is given in
 * the extended-length form of its full path (\\?\X:\... or
 * \\?\UNC\server\share\...), and a name the user wrote as \\?\... or
 * \\.\... is kept as written. _into writes into out (cap WCHARs, no
 * allocation: the resolved form is built behind the name, so long paths
 * need cap of about twice their length); iospd_win_path allocates *out
 * (iospd_free it). Both fail with IOSPD_EINVAL naming the path when
 * it is not UTF-8 or does not fit. */
#define IOSPD_WIN_PATH_ROOM 32800u /* Windows' longest path, and a prefix */
int iospd_win_path_into(const char* utf8, WCHAR* out, size_t cap,
                        iospd_err_t* err);
int iospd_win_path(const char* utf8, WCHAR** out, iospd_err_t* err);
/* Resolves a target as the user wrote it: "#N" -> \\.\PhysicalDriveN,
 * "X:" -> \\.\X:, other device spellings as they are, a path written
 * with \\?\ as it is, any other path by iospd_win_long_form. *is_device
 * says whether its spelling is not plainly a file's (iospd_win_spelled_kind
 * is DEVICE or UNSURE); such a path is taken as written. */
int iospd_win_target_path(const char* utf8, WCHAR** out, bool* is_device,
                          iospd_err_t* err);

/* ---- file or device (target_kind.c) ------------------------------------- */

/* What the spelling of a target says (the UTF-8 text the user gave). */
typedef enum iospd_win_spelled_e {
  IOSPD_WIN_SPELLED_FILE,   /* C:\x, x, \\srv\share\x, \\?\C:\x, \\?\UNC\...,
                               \\?\Volume{g}\x */
  IOSPD_WIN_SPELLED_DEVICE, /* #N, X:, \\.\<one name>, \\?\GLOBALROOT\Device\V,
                               ...\Device\HarddiskN\PartitionM or DRM */
  IOSPD_WIN_SPELLED_UNSURE  /* other device-namespace paths */
} iospd_win_spelled_t;
iospd_win_spelled_t iospd_win_spelled_kind(const char* utf8);

/* What an open handle says it is (never the disk-length ioctl). */
typedef enum iospd_win_handle_kind_e {
  IOSPD_WIN_HANDLE_FILE,      /* FileStandardInfo answered, not a directory */
  IOSPD_WIN_HANDLE_DIRECTORY,
  IOSPD_WIN_HANDLE_DEVICE,    /* a disk-type handle with no file answer */
  IOSPD_WIN_HANDLE_OTHER      /* pipe, console, character device */
} iospd_win_handle_kind_t;
iospd_win_handle_kind_t iospd_win_handle_kind(HANDLE h);

/* The decision: a device by its spelling, or, for any other spelling, when
 * the handle gives no positive file answer; a doubtful spelling that cannot
 * be opened counts as a device (the write guard then looks at it). */
bool iospd_win_is_device(iospd_win_spelled_t spelled, bool opened,
                         iospd_win_handle_kind_t kind);
/* The same for a path, opening it for attributes only when needed. */
bool iospd_win_path_is_device(const char* utf8, const WCHAR* wpath);

/* ---- creating -c files (create.c, file.c) -------------------------------- */

/* What iospd_win_create did, for its callers' messages and for tests. */
typedef struct iospd_win_create_report_s {
  bool valid_data_set;    /* SetFileValidData: no block was written */
  bool acl_restricted;    /* the protected owner/Administrators DACL is on */
  bool unbuffered;        /* the fill wrote through FILE_FLAG_NO_BUFFERING */
  bool flushed;           /* FlushFileBuffers succeeded before the close */
  uint32_t max_in_flight; /* most fill writes outstanding at once */
  uint64_t written;       /* bytes the fill wrote and saw complete */
} iospd_win_create_report_t;
/* Never try SetFileValidData: write every block (tests of the fill). */
#define IOSPD_WIN_CREATE_WRITE_ALL 1u
/* iospd_plat_file_create_ex with flags (IOSPD_WIN_CREATE_*) and a report.
 * Ctrl-C (or iospd_plat_interrupt) stops the fill after the chunk in
 * hand: IOSPD_EINTR, the partial file removed, the message saying so. */
int iospd_win_create(const char* path, uint64_t size, bool zero_fill,
                     unsigned flags, const iospd_progress_t* progress,
                     iospd_win_create_report_t* rep, iospd_err_t* err);

/* -c over a symbolic link (create_link.c, issue #26): the side copy and
 * the move that replaces the file must act on the link's final target,
 * not on the link (which MoveFileExW would replace with a regular file in
 * the link's folder). What the probe found about a name: */
typedef struct iospd_win_link_s {
  bool is_link;     /* the name is a reparse point the file system follows */
  DWORD open_error; /* 0, or why the followed open failed (dangling) */
  WCHAR* final;     /* GetFinalPathNameByHandleW of the followed handle
                       (iospd_free), or NULL */
} iospd_win_link_t;
/* Looks at w: not a link (is_link false), or a link and its final path. */
void iospd_win_link_probe(const WCHAR* w, iospd_win_link_t* out);
/* Tests replace the probe (wine makes no symbolic links); NULL = the
 * real one. */
extern void (*iospd_win_link_probe_hook)(const WCHAR* w,
                                         iospd_win_link_t* out);
/* The decision, pure: the name -c creates or replaces (*out, iospd_free):
 * w itself, or the final path of the link; a dangling link or one whose
 * target cannot be opened is refused (err names path). */
int iospd_win_create_name(const char* path, const WCHAR* w,
                          const iospd_win_link_t* link, WCHAR** out,
                          iospd_err_t* err);
/* The security descriptor a SetFileValidData file gets (LocalFree *sd):
 * a protected DACL granting full access to Administrators and to the
 * file's owner (OWNER RIGHTS), no one else. Returns 0 or a Win32 error. */
DWORD iospd_win_private_sd(PSECURITY_DESCRIPTOR* sd, PACL* dacl);
/* Creates the missing parent folders of w, a path as path.c resolves it
 * (C:\..., \\server\share\..., \\?\C:\..., \\?\UNC\server\share\...; w is
 * modified and restored). Returns the first failure when drive_spelled
 * (the user wrote X:\..., the only kind DISKSPD creates parents for and
 * warns about); 0 otherwise, errors then surface at CreateFileW. */
DWORD iospd_win_make_parents(WCHAR* w, bool drive_spelled);

/* ---- processors (cpu.c) -------------------------------------------------- */

#define IOSPD_WIN_MAX_GROUPS (IOSPD_MAX_CPUS / 64)
/* wow64.c (issue #26): 0 when every group's active processors (active[g],
 * ngroups entries) fit in a mask of mask_bits; else group + 1 of the
 * first that does not, with why (if not NULL) the message. */
int iospd_win_masks_fit(unsigned mask_bits, uint32_t ngroups,
                        const uint32_t* active, char* why, size_t size);
/* The same for this process and host: IOSPD_ENOTSUP (err says to run the
 * 64-bit iospd) for a 32-bit iospd on a group of more than 32. */
int iospd_win_masks_check(iospd_err_t* err);
/* Active-CPU mask of each processor group (IOSPD_WIN_MAX_GROUPS entries of
 * room), in group order. */
int iospd_win_group_masks(uint64_t* masks, uint32_t* ngroups, iospd_err_t* err);
/* DISKSPD 2.3's topology parts (cpu_cache.c): the caches into t->caches
 * (none when Windows lists none; 0 or IOSPD_ENOMEM) and the processor name
 * ("" when the registry has none). */
int iospd_win_cpu_caches(iospd_cpu_topology_t* t);
void iospd_win_processor_name(char* out, size_t size);

/* ---- environment fingerprint (envinfo.c, storage_desc.c) ----------------- */

/* STORAGE_BUS_TYPE value -> "NVMe", "SATA", "SAS", ...; "" for unknown. */
const char* iospd_win_bus_name(unsigned bus_type);
/* Trims spaces and tabs at both ends, in place (descriptor strings are
 * space padded: SCSI INQUIRY fields are fixed-width). */
void iospd_win_trim_ascii(char* s);
/* The NUL-terminated ASCII string at offset in the len bytes of a storage
 * descriptor, trimmed, non-ASCII bytes as '?'. False, out "", when offset
 * is 0 (no such string) or not inside the len bytes. */
bool iospd_win_desc_string(const void* buf, size_t len, uint32_t offset,
                           char* out, size_t size);
/* Fills t's model ("vendor product"), firmware (product revision) and bus
 * from a STORAGE_DEVICE_DESCRIPTOR of len bytes as returned; a shorter
 * answer than its fixed part fills nothing. */
void iospd_win_parse_device_descriptor(const void* buf, size_t len,
                                       iospd_env_target_t* t);

/* ---- devices and console (file.c, thread.c) ------------------------------ */

/* Looks at a device's first sectors (n bytes) for a file system signature
 * (NTFS, ReFS, exFAT, FAT) and, if tables, for a GPT or MBR partition
 * table; sets has_filesystem / has_partitions / content. */
void iospd_win_sniff(const unsigned char* b, size_t n, bool tables,
                     iospd_file_info_t* info);
/* When nothing was recognised but some of the n bytes (a device's first
 * MiB) are not zero: has_filesystem and "data of an unknown kind (the first
 * megabyte is not all zeros)". No signature list is ever complete. */
void iospd_win_unknown_data(const unsigned char* b, size_t n,
                            iospd_file_info_t* info);
/* Reads the last MiB of a disk or volume of info->size bytes through h
 * into b (IOSPD_SNIFF_BYTES long) when its first MiB showed nothing
 * (info->content empty), and lets iospd_sniff_device_tail judge it: a
 * backup GPT header, an md super block from a disk that came from Linux,
 * an NTFS backup boot sector or any other data there means the start was
 * wiped, not that the disk is empty. Returns 0, or the Win32 error of the
 * read (ERROR_HANDLE_EOF: the device ended first); nothing is judged then. */
DWORD iospd_win_sniff_tail(HANDLE h, unsigned char* b,
                           iospd_file_info_t* info);
/* Reads the first MiB of a device (info->size and info->logical_sector
 * known, size 0 if not) through h and judges it with iospd_win_sniff
 * (tables: look for partition tables too) and iospd_win_unknown_data,
 * then the last MiB with iospd_win_sniff_tail. Returns 0 when both reads
 * came back whole, else the Win32 error (ERROR_HANDLE_EOF for a short
 * read) with *part naming the megabyte ("first megabyte"). */
DWORD iospd_win_probe_contents(HANDLE h, bool tables, iospd_file_info_t* info,
                               const char** part);
/* Size and sectors of the disk or volume at wpath (path: for messages)
 * and, if probe (the controller's look before a run), what it holds; a
 * device that cannot be opened for reading or read whole holds "unknown
 * content" (has_filesystem), never nothing. */
int iospd_win_describe_device(const WCHAR* wpath, const char* path,
                              bool probe, iospd_file_info_t* info,
                              iospd_err_t* err);
/* Marks info as holding unknown data because reading part failed with e:
 * the write guard then refuses it, as it must a device it cannot see. */
void iospd_win_unreadable(iospd_file_info_t* info, const char* part,
                          DWORD e);
/* The console control handler iospd_plat_on_interrupt installs: Ctrl-C and
 * Ctrl-Break call the callback once and wake iospd_plat_wait. */
BOOL WINAPI iospd_win_ctrl_handler(DWORD type);

/* ---- opaque types -------------------------------------------------------- */

struct iospd_plat_file_s {
  HANDLE h;
  unsigned flags; /* IOSPD_OPEN_* it was opened with */
  bool is_device;
  WCHAR* wpath; /* resolved path, for volume and device look-ups */
  char* path;   /* as given, for messages */
  /* -Sm (mapped.c): the whole file mapped read+write, or NULL. */
  uint8_t* view;
  uint64_t view_len;
  uint8_t mm_mode;  /* how a write reaches the medium (mapped.c) */
  void* nv_token;   /* -Nn/-Ni: RtlGetNonVolatileToken's token */
};

/* ---- memory-mapped I/O (mapped.c) ---------------------------------------- */

/* Maps f (opened with IOSPD_OPEN_MAPPED) whole; refuses disks and volumes,
 * and -Nn/-Ni when ntdll lacks the non-volatile memory calls or the file is
 * not on persistent memory. An empty file is left unmapped. */
int iospd_win_map(iospd_plat_file_t* f, iospd_err_t* err);
void iospd_win_unmap(iospd_plat_file_t* f);
/* One mapped I/O, done at once: the copy and the -N flush. Returns the
 * bytes moved or a negative IOSPD_E*; a failed flush leaves its Win32
 * code in GetLastError() (IOSPD_EMAPFAULT has none). Hot path. */
int32_t iospd_win_mapped_io(const iospd_plat_file_t* f, uint8_t op,
                            uint64_t offset, uint32_t length, void* buf);

struct iospd_plat_thread_s {
  HANDLE h;
  void (*fn)(void*);
  void* arg;
  volatile LONG cancelled; /* set when affinity failed: fn must not run */
};

struct iospd_plat_latch_s {
  HANDLE ev;             /* manual-reset event, set when the latch opens */
  volatile LONG left;    /* arrivals still missing */
  volatile LONG aborted;
};

/* ---- queues ----------------------------------------------------------- */

/* The per-engine operations behind iospd_plat_queue_* (the same shape as
 * Linux's iospd_posix_queue_ops_t; one static table per engine). */
typedef struct iospd_win_queue_ops_s {
  const char* name; /* what the report calls it */
  /* Each I/O is its own OS call, so the core stamps each at its own
   * submit; iospd_plat_queue_traits. */
  bool submit_each;
  int (*attach)(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                uint32_t* file_index, iospd_err_t* err);
  /* Optional (NULL: nothing to register). */
  int (*register_buffers)(iospd_plat_queue_t* q, void* base, size_t len,
                          iospd_err_t* err);
  int (*submit)(iospd_plat_queue_t* q, const iospd_io_t* ios, uint32_t n,
                uint32_t* accepted);
  /* max >= 1 and min <= max (the front sees to both). */
  int (*reap)(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
              uint32_t min, uint32_t timeout_ms, uint32_t* got);
  /* Optional: the first failure's Win32 code and text (NULL: 0). */
  int64_t (*os_error)(const iospd_plat_queue_t* q, char* text, size_t size);
  int (*destroy)(iospd_plat_queue_t* q); /* 0, or IOSPD_EIO: not drained */
} iospd_win_queue_ops_t;

/* Every engine's queue struct starts with this, so the front (queue.c)
 * dispatches with one indirect call. */
struct iospd_plat_queue_s {
  const iospd_win_queue_ops_t* ops;
  uint32_t depth; /* set by the front */
};

/* The engines' create functions, started from the table in engines.c:
 * the auto policy (completion routines under -x, else the port), the I/O
 * completion port, and completion routines (ReadFileEx/WriteFileEx). */
int iospd_win_auto_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err);
int iospd_win_iocp_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err);
int iospd_win_routines_create(iospd_plat_queue_t** q, uint32_t depth,
                              unsigned flags, iospd_err_t* err);
/* The null engine: completes every I/O at once, touching nothing. */
int iospd_win_null_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err);
/* The IoRing engine (ioring.c; its calls and types in ioring_api.h):
 * IOSPD_ENOTSUP, naming the missing piece and the Windows build that has
 * it, where the OS has no IoRing (Windows 10, wine); a file opened for
 * writing is refused at attach where IoRing cannot write (before 22H2). */
int iospd_win_ioring_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err);

/* ---- BypassIO (bypass.c) ------------------------------------------------- */

/* What FSCTL_MANAGE_BYPASS_IO (FS_BPIO_OP_ENABLE) answered for a handle. */
typedef struct iospd_win_bypass_answer_s {
  DWORD ioctl_error;  /* 0: the call answered; else its Win32 error */
  LONG op_status;     /* FS_BPIO_RESULTS.OpStatus: < 0, a driver refused */
  unsigned out_flags; /* FS_BPIO_OUTPUT.OutFlags */
  const char* driver; /* the refusing driver, UTF-8 ("" or NULL: none) */
  const char* reason; /* its reason ("" or NULL: none) */
} iospd_win_bypass_answer_t;
/* The decision, pure: what was asked (full: -SY, else -Sy) and the answer
 * -> *out (what was bypassed, and a note saying why not all), and 0 to
 * run or IOSPD_ENOTSUP with err naming path when -SY gets less than a
 * full bypass. -Sy runs whatever the answer. */
int iospd_win_bypass_decide(bool full, const iospd_win_bypass_answer_t* a,
                            const char* path, iospd_bypass_result_t* out,
                            iospd_err_t* err);


/* ---- the port's bookkeeping, for its checks and tests (iocp.c) ---------- */

/* Whether a ReadFile/WriteFile on an overlapped handle left a completion
 * packet due: TRUE, ERROR_IO_PENDING, or FALSE with a status in Internal
 * (pre-set to STATUS_PENDING) that the kernel wrote and is not an error,
 * such as a warning from a class or filter driver. */
bool iospd_win_io_packet_due(BOOL ok, DWORD e, ULONG_PTR internal);
/* GetQueuedCompletionStatusEx, through a pointer tests may replace. */
typedef BOOL(WINAPI* iospd_win_gqcs_ex_fn)(HANDLE port, LPOVERLAPPED_ENTRY ents,
                                           ULONG count, PULONG removed,
                                           DWORD ms, BOOL alertable);
extern iospd_win_gqcs_ex_fn iospd_win_gqcs_ex;
typedef struct iospd_win_iocp_probe_s {
  HANDLE port;
  uint32_t depth, nfree, inflight;
  uint64_t dropped; /* completions for a slot the kernel did not hold */
} iospd_win_iocp_probe_t;
/* A port or completion-routine queue's counts (iospd_win_iocp_create's). */
void iospd_win_iocp_probe(const iospd_plat_queue_t* q,
                          iospd_win_iocp_probe_t* out);
/* The OVERLAPPED of the slot that last carried tag, or NULL. */
OVERLAPPED* iospd_win_iocp_slot_ov(iospd_plat_queue_t* q, uint32_t tag);


/* ---- raw writes to disks and volumes (raw_write.c) ---------------------- */

typedef enum iospd_win_dev_kind_e {
  IOSPD_WIN_DEV_OTHER,  /* not a disk or volume (a character device) */
  IOSPD_WIN_DEV_VOLUME, /* X:, a partition or volume device */
  IOSPD_WIN_DEV_DISK    /* #N, a whole disk */
} iospd_win_dev_kind_t;
/* What the device said; -1 where it did not answer. */
typedef struct iospd_win_raw_facts_s {
  iospd_win_dev_kind_t kind;
  int mounted;    /* volume: a file system other than RAW is mounted */
  int offline;    /* disk: IOCTL_DISK_GET_DISK_ATTRIBUTES says offline */
  int partitions; /* disk: partitions in its layout */
  char fs_name[32]; /* volume: the mounted file system's name, or "" */
} iospd_win_raw_facts_t;
typedef enum iospd_win_raw_verdict_e {
  IOSPD_WIN_RAW_OK,      /* every write either lands or fails whole */
  IOSPD_WIN_RAW_MOUNTED, /* a volume with a mounted file system */
  IOSPD_WIN_RAW_ONLINE,  /* an online disk with partitions */
  IOSPD_WIN_RAW_UNKNOWN  /* the device did not say: refused */
} iospd_win_raw_verdict_t;
/* The decision, from the facts alone. */
iospd_win_raw_verdict_t iospd_win_raw_write_decide(
    const iospd_win_raw_facts_t* f);
/* The facts of an open device handle (its path says X: or #N). */
void iospd_win_raw_write_facts(HANDLE h, const WCHAR* wpath,
                               iospd_win_raw_facts_t* f);
/* Facts, decision and, for a refusal, the message naming path. */
int iospd_win_raw_write_check(HANDLE h, const WCHAR* wpath, const char* path,
                              iospd_err_t* err);
/* Tests: every iospd_win_ioctl call goes first to this hook (when set),
 * which answers 1 (done, *returned set), 0 (failed, SetLastError) or -1
 * (not mine: the real call follows). */
typedef int (*iospd_win_ioctl_hook_fn)(HANDLE h, DWORD code, void* out,
                                       DWORD out_len, DWORD* returned);
extern iospd_win_ioctl_hook_fn iospd_win_ioctl_hook;

#endif
