/* SPDX-License-Identifier: MIT */
/* Windows IoRing (ioringapi.h, Windows 11) as iospd uses it: our own
 * declarations of the types and calls, since the mingw-w64 headers here
 * know only IoRing version 1 and iospd.exe must still start on Windows 10,
 * so nothing is linked: every call is looked up in kernelbase.dll at run
 * time (iospd_win_ioring_api_resolve). The table of calls is the seam the
 * tests use: iospd_win_ioring_api_inject puts a fake ring in its place and
 * the real engine (ioring.c) runs on it. The layouts follow the Windows
 * SDK's ioringapi.h / ntioring_x.h; the names carry iospd's prefix so they
 * never meet the SDK's. Private to src/win and its tests. */
#ifndef IOSPD_WIN_IORING_API_H
#define IOSPD_WIN_IORING_API_H

#include <windows.h>

#include "iospd/error.h"

/* IORING_VERSION: 1 and 2 read only (Windows 11 21H2, build 22000), 3 adds
 * writes and flushes (Windows 11 22H2, build 22621), 4 (24H2). */
enum {
  IOSPD_IOR_VERSION_1 = 1,
  IOSPD_IOR_VERSION_2 = 2,
  IOSPD_IOR_VERSION_3 = 300,
  IOSPD_IOR_VERSION_4 = 400
};
/* The Windows build that first has each piece, for messages. */
#define IOSPD_IOR_BUILD_READ 22000u  /* Windows 11 21H2: IoRing, reads */
#define IOSPD_IOR_BUILD_WRITE 22621u /* Windows 11 22H2: IoRing writes */

/* IORING_OP_CODE */
enum {
  IOSPD_IOR_OP_NOP = 0,
  IOSPD_IOR_OP_READ = 1,
  IOSPD_IOR_OP_REGISTER_FILES = 2,
  IOSPD_IOR_OP_REGISTER_BUFFERS = 3,
  IOSPD_IOR_OP_CANCEL = 4,
  IOSPD_IOR_OP_WRITE = 5,
  IOSPD_IOR_OP_FLUSH = 6
};

/* IORING_REF_KIND */
enum { IOSPD_IOR_REF_RAW = 0, IOSPD_IOR_REF_REGISTERED = 1 };

typedef void* iospd_hioring_t; /* HIORING */

typedef struct iospd_ior_create_flags_s { /* IORING_CREATE_FLAGS */
  int required; /* IORING_CREATE_REQUIRED_FLAGS: none */
  int advisory; /* IORING_CREATE_ADVISORY_FLAGS: none */
} iospd_ior_create_flags_t;

typedef struct iospd_ior_caps_s { /* IORING_CAPABILITIES */
  int max_version;           /* IORING_VERSION */
  UINT32 max_sq_size;
  UINT32 max_cq_size;
  int feature_flags;         /* IORING_FEATURE_FLAGS */
} iospd_ior_caps_t;

typedef struct iospd_ior_handle_ref_s { /* IORING_HANDLE_REF */
  int kind; /* IOSPD_IOR_REF_* */
  union {
    HANDLE handle;
    UINT32 index;
  } u;
} iospd_ior_handle_ref_t;

typedef struct iospd_ior_buffer_ref_s { /* IORING_BUFFER_REF */
  int kind;
  union {
    void* address;
    struct {
      UINT32 index;
      UINT32 offset;
    } reg; /* IORING_REGISTERED_BUFFER */
  } u;
} iospd_ior_buffer_ref_t;

typedef struct iospd_ior_buffer_info_s { /* IORING_BUFFER_INFO */
  void* address;
  UINT32 length;
} iospd_ior_buffer_info_t;

typedef struct iospd_ior_cqe_s { /* IORING_CQE */
  UINT_PTR user_data;
  HRESULT result;
  ULONG_PTR information; /* bytes transferred */
} iospd_ior_cqe_t;

/* SubmitIoRing's answer when every entry went in and the wait expired:
 * HRESULT_FROM_WIN32(ERROR_TIMEOUT). */
#define IOSPD_IOR_E_WAIT_TIMEOUT ((HRESULT)0x800705B4L)

/* The calls, WINAPI as the SDK declares them (STDAPI). */
typedef struct iospd_win_ioring_api_s {
  HRESULT(WINAPI* QueryIoRingCapabilities)(iospd_ior_caps_t* caps);
  BOOL(WINAPI* IsIoRingOpSupported)(iospd_hioring_t ring, int op);
  HRESULT(WINAPI* CreateIoRing)(int version, iospd_ior_create_flags_t flags,
                                UINT32 sq_size, UINT32 cq_size,
                                iospd_hioring_t* ring);
  HRESULT(WINAPI* CloseIoRing)(iospd_hioring_t ring);
  HRESULT(WINAPI* SubmitIoRing)(iospd_hioring_t ring, UINT32 wait_ops,
                                UINT32 ms, UINT32* submitted);
  HRESULT(WINAPI* PopIoRingCompletion)(iospd_hioring_t ring,
                                       iospd_ior_cqe_t* cqe);
  HRESULT(WINAPI* BuildIoRingRegisterFileHandles)(iospd_hioring_t ring,
                                                  UINT32 count,
                                                  const HANDLE* handles,
                                                  UINT_PTR user_data);
  HRESULT(WINAPI* BuildIoRingRegisterBuffers)(
      iospd_hioring_t ring, UINT32 count,
      const iospd_ior_buffer_info_t* buffers, UINT_PTR user_data);
  HRESULT(WINAPI* BuildIoRingReadFile)(iospd_hioring_t ring,
                                       iospd_ior_handle_ref_t file,
                                       iospd_ior_buffer_ref_t buf,
                                       UINT32 bytes, UINT64 offset,
                                       UINT_PTR user_data, int sqe_flags);
  HRESULT(WINAPI* BuildIoRingWriteFile)(iospd_hioring_t ring,
                                        iospd_ior_handle_ref_t file,
                                        iospd_ior_buffer_ref_t buf,
                                        UINT32 bytes, UINT64 offset,
                                        int write_flags, UINT_PTR user_data,
                                        int sqe_flags);
  HRESULT(WINAPI* BuildIoRingCancelRequest)(iospd_hioring_t ring,
                                            iospd_ior_handle_ref_t file,
                                            UINT_PTR op_to_cancel,
                                            UINT_PTR user_data);
} iospd_win_ioring_api_t;

/* The calls kernelbase.dll has (resolved once; a missing one stays NULL).
 * Or the table injected by a test. Never NULL itself. */
const iospd_win_ioring_api_t* iospd_win_ioring_api(void);
/* Tests: every later iospd_win_ioring_api() returns api (NULL: back to
 * kernelbase.dll's). Not thread-safe; call before any queue exists. */
void iospd_win_ioring_api_inject(const iospd_win_ioring_api_t* api);

/* What a run with IoRing needs, checked before any I/O: every call above
 * present, QueryIoRingCapabilities answering, a version of at least 3
 * when writes is true (IoRing writes came with version 3). 0, or
 * IOSPD_ENOTSUP with err naming the missing piece and the Windows build
 * that has it. *version receives the highest version the OS offers (0 if
 * none). */
int iospd_win_ioring_check(const iospd_win_ioring_api_t* api, bool writes,
                           int* version, iospd_err_t* err);

#endif
