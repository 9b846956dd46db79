/* SPDX-License-Identifier: MIT */
/* The IoRing calls, looked up in kernelbase.dll once (nothing is linked,
 * so iospd.exe starts where they do not exist), the table a test may put
 * in their place, and the check a run makes before any I/O. */
#include "win/ioring_api.h"

#include "win/internal.h"

static iospd_win_ioring_api_t resolved;
static const iospd_win_ioring_api_t* injected;
static INIT_ONCE resolve_once = INIT_ONCE_STATIC_INIT;

#define RESOLVE(mod, name)                                               \
  resolved.name = (__typeof__(resolved.name))(void (*)(void))GetProcAddress( \
      mod, #name)

static BOOL CALLBACK resolve(PINIT_ONCE once, PVOID param, PVOID* ctx) {
  (void)once;
  (void)param;
  (void)ctx;
  HMODULE kb = GetModuleHandleW(L"kernelbase.dll");
  if (kb == NULL) kb = LoadLibraryW(L"kernelbase.dll");
  if (kb == NULL) return TRUE; /* every call stays NULL: "missing" */
  RESOLVE(kb, QueryIoRingCapabilities);
  RESOLVE(kb, IsIoRingOpSupported);
  RESOLVE(kb, CreateIoRing);
  RESOLVE(kb, CloseIoRing);
  RESOLVE(kb, SubmitIoRing);
  RESOLVE(kb, PopIoRingCompletion);
  RESOLVE(kb, BuildIoRingRegisterFileHandles);
  RESOLVE(kb, BuildIoRingRegisterBuffers);
  RESOLVE(kb, BuildIoRingReadFile);
  RESOLVE(kb, BuildIoRingWriteFile);
  RESOLVE(kb, BuildIoRingCancelRequest);
  return TRUE;
}

const iospd_win_ioring_api_t* iospd_win_ioring_api(void) {
  if (injected != NULL) return injected;
  InitOnceExecuteOnce(&resolve_once, resolve, NULL, NULL);
  return &resolved;
}

void iospd_win_ioring_api_inject(const iospd_win_ioring_api_t* api) {
  injected = api;
}

/* The first call a version-1 system lacks, or NULL. Writes came with
 * version 3, the rest with version 1. */
static const char* missing_call(const iospd_win_ioring_api_t* a,
                                bool* write_only) {
  *write_only = false;
  if (a->QueryIoRingCapabilities == NULL) return "QueryIoRingCapabilities";
  if (a->IsIoRingOpSupported == NULL) return "IsIoRingOpSupported";
  if (a->CreateIoRing == NULL) return "CreateIoRing";
  if (a->CloseIoRing == NULL) return "CloseIoRing";
  if (a->SubmitIoRing == NULL) return "SubmitIoRing";
  if (a->PopIoRingCompletion == NULL) return "PopIoRingCompletion";
  if (a->BuildIoRingRegisterFileHandles == NULL)
    return "BuildIoRingRegisterFileHandles";
  if (a->BuildIoRingRegisterBuffers == NULL)
    return "BuildIoRingRegisterBuffers";
  if (a->BuildIoRingReadFile == NULL) return "BuildIoRingReadFile";
  if (a->BuildIoRingCancelRequest == NULL) return "BuildIoRingCancelRequest";
  *write_only = true;
  if (a->BuildIoRingWriteFile == NULL) return "BuildIoRingWriteFile";
  return NULL;
}

int iospd_win_ioring_check(const iospd_win_ioring_api_t* api, bool writes,
                           int* version, iospd_err_t* err) {
  *version = 0;
  bool write_only = false;
  const char* gone = missing_call(api, &write_only);
  if (gone != NULL && (!write_only || writes))
    return iospd_err_set(
        err, IOSPD_ENOTSUP,
        "IoRing (-u) is not available: this Windows has no %s in "
        "kernelbase.dll; IoRing needs Windows 11 (build %u or later%s); "
        "leave out -u to use I/O completion ports",
        gone, write_only ? IOSPD_IOR_BUILD_WRITE : IOSPD_IOR_BUILD_READ,
        write_only ? ", Windows 11 22H2, for writes" : "");
  iospd_ior_caps_t caps;
  memset(&caps, 0, sizeof caps);
  HRESULT hr = api->QueryIoRingCapabilities(&caps);
  if (FAILED(hr))
    return iospd_err_set_os(
        err, IOSPD_ENOTSUP, (int64_t)(uint32_t)hr,
        "IoRing (-u) is not available: QueryIoRingCapabilities failed "
        "(HRESULT 0x%08lX); IoRing needs Windows 11 (build %u or later); "
        "leave out -u to use I/O completion ports",
        (unsigned long)hr, IOSPD_IOR_BUILD_READ);
  *version = caps.max_version;
  if (caps.max_version < IOSPD_IOR_VERSION_1)
    return iospd_err_set(
        err, IOSPD_ENOTSUP,
        "IoRing (-u) is not available: QueryIoRingCapabilities reports no "
        "IoRing version; IoRing needs Windows 11 (build %u or later); "
        "leave out -u to use I/O completion ports",
        IOSPD_IOR_BUILD_READ);
  if (writes && caps.max_version < IOSPD_IOR_VERSION_3)
    return iospd_err_set(
        err, IOSPD_ENOTSUP,
        "IoRing (-u) cannot write here: this Windows offers IoRing version "
        "%d, which only reads; IoRing writes need version 3, Windows 11 "
        "22H2 (build %u or later); use -w0, or leave out -u to use I/O "
        "completion ports",
        caps.max_version, IOSPD_IOR_BUILD_WRITE);
  return 0;
}
