/* SPDX-License-Identifier: MIT */
/* The environment fingerprint on Windows (iospd/envinfo.h): RtlGetVersion
 * and the registry for the OS, wine's own exports when under wine,
 * IsWow64Process2 for the machine, the processor topology of cpu.c,
 * GlobalMemoryStatusEx; per target the volume (GetVolumePathNameW,
 * GetVolumeInformationW, GetDiskFreeSpaceW) and the disk under it
 * (IOCTL_STORAGE_GET_DEVICE_NUMBER, IOCTL_STORAGE_QUERY_PROPERTY). Best
 * effort and silent: what cannot be learnt stays empty.
 * docs/environment.md says where each field comes from. */
#include <stdio.h>
#include <string.h>
#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

#include "iospd/alloc.h"
#include "iospd/envinfo.h"
#include "win/internal.h"

#include <winioctl.h>

/* Set by CMakeLists.txt for this file: how iospd was built. */
#ifndef IOSPD_BUILD_TYPE
#define IOSPD_BUILD_TYPE ""
#endif
#ifndef IOSPD_BUILD_FLAGS
#define IOSPD_BUILD_FLAGS ""
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__) && defined(__MINGW64_VERSION_STR)
#define COMPILER "gcc " __VERSION__ " (mingw-w64 " __MINGW64_VERSION_STR ")"
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER ""
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define PROCESS_ARCH "x86_64"
#elif defined(__i386__) || defined(_M_IX86)
#define PROCESS_ARCH "x86"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define PROCESS_ARCH "aarch64"
#else
#define PROCESS_ARCH ""
#endif

#ifndef IMAGE_FILE_MACHINE_ARM64
#define IMAGE_FILE_MACHINE_ARM64 0xAA64
#endif

void iospd_plat_build(iospd_plat_build_t* out) {
  out->os = "windows";
  out->arch = PROCESS_ARCH;
}

/* ---- the machine --------------------------------------------------------- */

static const char* machine_name(USHORT m) {
  switch (m) {
    case IMAGE_FILE_MACHINE_AMD64: return "x86_64";
    case IMAGE_FILE_MACHINE_I386: return "x86";
    case IMAGE_FILE_MACHINE_ARM64: return "aarch64";
    case IMAGE_FILE_MACHINE_ARMNT: return "arm";
    default: return "";
  }
}

/* The machine's architecture, and whether this process runs emulated
 * (WoW64: an x86 iospd.exe on x64 or arm64 Windows). IsWow64Process2
 * (Windows 10 1709+) names the native machine even for an x86 process on
 * arm64, where GetNativeSystemInfo would say x86. */
static void machine(char* arch, size_t size, bool* wow64) {
  typedef BOOL(WINAPI * wow2_fn)(HANDLE, USHORT*, USHORT*);
  typedef BOOL(WINAPI * wow_fn)(HANDLE, BOOL*);
  HMODULE k32 = GetModuleHandleW(L"kernel32.dll");
  wow2_fn wow2 = k32 ? (wow2_fn)(void (*)(void))GetProcAddress(
                           k32, "IsWow64Process2")
                     : NULL;
  USHORT process = 0, native = 0;
  *wow64 = false;
  if (wow2 != NULL && wow2(GetCurrentProcess(), &process, &native) &&
      machine_name(native)[0] != '\0') {
    snprintf(arch, size, "%s", machine_name(native));
    *wow64 = process != IMAGE_FILE_MACHINE_UNKNOWN;
    return;
  }
  SYSTEM_INFO si;
  GetNativeSystemInfo(&si);
  const char* a = "";
  switch (si.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64: a = "x86_64"; break;
    case PROCESSOR_ARCHITECTURE_INTEL: a = "x86"; break;
    case 12 /* PROCESSOR_ARCHITECTURE_ARM64 */: a = "aarch64"; break;
    case PROCESSOR_ARCHITECTURE_ARM: a = "arm"; break;
    default: break;
  }
  snprintf(arch, size, "%s", a);
  wow_fn wow = k32 ? (wow_fn)(void (*)(void))GetProcAddress(k32,
                                                             "IsWow64Process")
                   : NULL;
  BOOL w = FALSE;
  if (wow != NULL && wow(GetCurrentProcess(), &w)) *wow64 = w != FALSE;
}

/* A value of HKLM\subkey, from the 64-bit view of the registry, so that
 * an x86 build under WoW64 reads what a native one does (KEY_WOW64_64KEY:
 * every Windows with WoW64; the RRF_ flag for it is newer). */
static bool reg_value(const WCHAR* subkey, const WCHAR* name, DWORD type,
                      void* data, DWORD* bytes) {
  HKEY k;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, subkey, 0,
                    KEY_QUERY_VALUE | KEY_WOW64_64KEY, &k) != ERROR_SUCCESS)
    return false;
  LSTATUS st = RegGetValueW(k, NULL, name, type, NULL, data, bytes);
  RegCloseKey(k);
  return st == ERROR_SUCCESS;
}

/* A REG_SZ value as UTF-8, trimmed. */
static bool reg_string(const WCHAR* subkey, const WCHAR* name, char* out,
                       size_t size) {
  WCHAR buf[256];
  DWORD bytes = sizeof buf;
  out[0] = '\0';
  if (!reg_value(subkey, name, RRF_RT_REG_SZ, buf, &bytes)) return false;
  buf[sizeof buf / sizeof buf[0] - 1] = 0;
  iospd_win_wide_to_utf8(buf, out, size);
  iospd_win_trim_ascii(out);
  return out[0] != '\0';
}

static bool reg_dword(const WCHAR* subkey, const WCHAR* name, DWORD* v) {
  DWORD bytes = sizeof *v;
  return reg_value(subkey, name, RRF_RT_REG_DWORD, v, &bytes);
}

#define CURRENT_VERSION L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion"

static void os_fields(iospd_env_t* env) {
  /* RtlGetVersion: the true version (GetVersionEx answers what the
   * manifest declares). */
  typedef LONG(WINAPI * rtl_ver_fn)(RTL_OSVERSIONINFOW*);
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  rtl_ver_fn rtl_ver =
      ntdll ? (rtl_ver_fn)(void (*)(void))GetProcAddress(ntdll,
                                                         "RtlGetVersion")
            : NULL;
  RTL_OSVERSIONINFOW v;
  memset(&v, 0, sizeof v);
  v.dwOSVersionInfoSize = sizeof v;
  bool have_v = rtl_ver != NULL && rtl_ver(&v) == 0;
  if (have_v)
    snprintf(env->os_release, sizeof env->os_release, "%lu.%lu.%lu",
             (unsigned long)v.dwMajorVersion, (unsigned long)v.dwMinorVersion,
             (unsigned long)v.dwBuildNumber);

  /* "Windows 10 Pro 22H2, build 19045.5131": product name, display version
   * (ReleaseId before 20H2), the build with its update revision (UBR). */
  char product[128], display[32], sp[64] = "";
  reg_string(CURRENT_VERSION, L"ProductName", product, sizeof product);
  /* Windows 11 kept "Windows 10" in ProductName; Microsoft defines
   * Windows 11 as build 22000 and later of the client editions. */
  if (have_v && v.dwMajorVersion == 10 && v.dwBuildNumber >= 22000 &&
      strncmp(product, "Windows 10", 10) == 0)
    product[9] = '1';
  if (!reg_string(CURRENT_VERSION, L"DisplayVersion", display, sizeof display))
    reg_string(CURRENT_VERSION, L"ReleaseId", display, sizeof display);
  if (have_v && v.szCSDVersion[0] != 0)
    iospd_win_wide_to_utf8(v.szCSDVersion, sp, sizeof sp);
  char build[48] = "";
  DWORD ubr;
  if (have_v && reg_dword(CURRENT_VERSION, L"UBR", &ubr))
    snprintf(build, sizeof build, "build %lu.%lu",
             (unsigned long)v.dwBuildNumber, (unsigned long)ubr);
  else if (have_v)
    snprintf(build, sizeof build, "build %lu",
             (unsigned long)v.dwBuildNumber);
  const char* parts[] = {product, display, sp};
  size_t used = 0;
  char* o = env->os_version;
  size_t cap = sizeof env->os_version;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(parts); i++) {
    if (parts[i][0] == '\0' || used >= cap) continue;
    int n = snprintf(o + used, cap - used, "%s%s", used ? " " : "", parts[i]);
    if (n > 0) used += (size_t)n;
  }
  if (build[0] != '\0' && used < cap) {
    int n = snprintf(o + used, cap - used, "%s%s", used ? ", " : "", build);
    if (n > 0) used += (size_t)n;
  }

  /* Under wine, ntdll exports wine_get_version (and the host's kernel in
   * wine_get_host_version): say so, as wine is not Windows. */
  typedef const char*(CDECL * wine_ver_fn)(void);
  typedef void(CDECL * wine_host_fn)(const char**, const char**);
  wine_ver_fn wine_ver =
      ntdll ? (wine_ver_fn)(void (*)(void))GetProcAddress(ntdll,
                                                          "wine_get_version")
            : NULL;
  if (wine_ver != NULL && used < cap) {
    const char* wv = wine_ver();
    wine_host_fn host = (wine_host_fn)(void (*)(void))GetProcAddress(
        ntdll, "wine_get_host_version");
    const char *sys = NULL, *rel = NULL;
    if (host != NULL) host(&sys, &rel);
    int n;
    if (sys != NULL && rel != NULL)
      n = snprintf(o + used, cap - used, "%sWine %s on %s %s",
                   used ? "; " : "", wv ? wv : "", sys, rel);
    else
      n = snprintf(o + used, cap - used, "%sWine %s", used ? "; " : "",
                   wv ? wv : "");
    if (n > 0) used += (size_t)n;
  }
}

static void cpu_model(char* out, size_t size) {
  if (reg_string(L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                 L"ProcessorNameString", out, size))
    return;
#if defined(__i386__) || defined(__x86_64__)
  /* The brand string of CPUID leaves 0x80000002-4 (what the registry
   * value is made from). */
  unsigned int r[12];
  unsigned int max = __get_cpuid_max(0x80000000u, NULL);
  if (max < 0x80000004u) return;
  for (unsigned i = 0; i < 3; i++)
    __cpuid(0x80000002u + i, r[i * 4], r[i * 4 + 1], r[i * 4 + 2],
            r[i * 4 + 3]);
  char brand[49];
  memcpy(brand, r, 48);
  brand[48] = '\0';
  snprintf(out, size, "%s", brand);
  iospd_win_trim_ascii(out);
#endif
}

void iospd_plat_env_query(iospd_env_t* env) {
  memset(env, 0, sizeof *env);
  snprintf(env->os_name, sizeof env->os_name, "Windows");
  os_fields(env);
  bool wow64 = false;
  machine(env->arch, sizeof env->arch, &wow64);
  cpu_model(env->cpu_model, sizeof env->cpu_model);

  /* Counted as the report's CPU section counts them (cpu.c: processor
   * groups, RelationProcessorCore/Package, NUMA nodes). */
  iospd_cpu_topology_t topo;
  if (iospd_plat_cpu_topology(&topo, NULL) == 0) {
    env->logical_cpus = topo.cpu_count;
    env->cores = topo.core_count;
    env->sockets = topo.socket_count;
    env->numa_nodes = topo.node_count;
    iospd_plat_cpu_topology_free(&topo);
  }

  /* The physical memory Windows manages (as Linux's MemTotal), not the
   * installed amount of GetPhysicallyInstalledSystemMemory. */
  MEMORYSTATUSEX ms;
  ms.dwLength = sizeof ms;
  if (GlobalMemoryStatusEx(&ms)) env->memory_bytes = ms.ullTotalPhys;

  /* "gcc 12-win32 (mingw-w64 10.0.0), Release, x86 build under WoW64". */
  const char* parts[] = {COMPILER, IOSPD_BUILD_TYPE, IOSPD_BUILD_FLAGS,
                         PROCESS_ARCH[0] ? PROCESS_ARCH " build" : ""};
  size_t used = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(parts); i++) {
    if (parts[i][0] == '\0' || used >= sizeof env->build) continue;
    int n = snprintf(env->build + used, sizeof env->build - used, "%s%s",
                     used ? ", " : "", parts[i]);
    if (n > 0) used += (size_t)n;
  }
  if (wow64 && used < sizeof env->build)
    snprintf(env->build + used, sizeof env->build - used, " under WoW64");
}

/* ---- a target ------------------------------------------------------------ */

static HANDLE open_query(const WCHAR* w) {
  /* No access rights: enough for the storage queries (FILE_ANY_ACCESS),
   * and granted without administrator rights or a sharing conflict. */
  return CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                     NULL, OPEN_EXISTING, 0, NULL);
}

/* The disk number under a volume or disk handle, or -1 (a volume over
 * several disks, a network share, wine). */
static long disk_number(HANDLE h) {
  STORAGE_DEVICE_NUMBER n;
  DWORD ret = 0;
  if (!iospd_win_ioctl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &n,
                       sizeof n, &ret) ||
      ret < sizeof n || n.DeviceType != FILE_DEVICE_DISK)
    return -1;
  return (long)n.DeviceNumber;
}

/* Model, firmware, bus and rotational from a disk (or volume) handle. */
static void storage_properties(HANDLE h, iospd_env_target_t* t) {
  STORAGE_PROPERTY_QUERY q;
  memset(&q, 0, sizeof q);
  q.PropertyId = StorageDeviceProperty;
  q.QueryType = PropertyStandardQuery;
  /* Descriptor and strings fit in far less (SCSI strings are 8, 16 and 4
   * bytes; ATA and NVMe 40, 40 and 8); a longer one is read as far as it
   * came. */
  union {
    STORAGE_DEVICE_DESCRIPTOR d;
    unsigned char b[1024];
  } buf;
  DWORD ret = 0;
  memset(&buf, 0, sizeof buf);
  if (iospd_win_ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &buf,
                      sizeof buf, &ret))
    iospd_win_parse_device_descriptor(&buf, ret, t);

  DEVICE_SEEK_PENALTY_DESCRIPTOR sp;
  memset(&q, 0, sizeof q);
  memset(&sp, 0, sizeof sp);
  q.PropertyId = StorageDeviceSeekPenaltyProperty;
  q.QueryType = PropertyStandardQuery;
  ret = 0;
  if (iospd_win_ioctl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof q, &sp,
                      sizeof sp, &ret) &&
      ret >= sizeof sp)
    t->rotational = sp.IncursSeekPenalty ? 1 : 0;
}

/* The device fields for the disk under the volume or device at w (opened
 * as written); name: what to call it when no disk number comes back. */
static void device_fields(const WCHAR* w, iospd_env_target_t* t) {
  HANDLE h = open_query(w);
  if (h == INVALID_HANDLE_VALUE) return;
  long n = disk_number(h);
  HANDLE disk = INVALID_HANDLE_VALUE;
  if (n >= 0) {
    snprintf(t->device, sizeof t->device, "\\\\.\\PhysicalDrive%ld", n);
    WCHAR dn[48];
    swprintf(dn, sizeof dn / sizeof dn[0], L"\\\\.\\PhysicalDrive%ld", n);
    disk = open_query(dn);
  } else {
    /* A volume over several disks (or a device without a number): named
     * itself, its storage answers are its own. */
    iospd_win_wide_to_utf8(w, t->device, sizeof t->device);
  }
  storage_properties(disk != INVALID_HANDLE_VALUE ? disk : h, t);
  if (disk != INVALID_HANDLE_VALUE) CloseHandle(disk);
  CloseHandle(h);
}

/* File system name and cluster size of the volume whose root is root
 * (with its trailing backslash). */
static void volume_fields(const WCHAR* root, iospd_env_target_t* t) {
  WCHAR fs[MAX_PATH + 1];
  if (GetVolumeInformationW(root, NULL, 0, NULL, NULL, NULL, fs,
                            MAX_PATH + 1)) {
    fs[MAX_PATH] = 0;
    iospd_win_wide_to_utf8(fs, t->fs_type, sizeof t->fs_type);
  }
  DWORD spc = 0, bps = 0, freec, total;
  if (GetDiskFreeSpaceW(root, &spc, &bps, &freec, &total) &&
      (uint64_t)spc * bps <= UINT32_MAX)
    t->fs_block_bytes = spc * bps;
}

void iospd_plat_env_target(const char* path, iospd_env_target_t* t) {
  memset(t, 0, sizeof *t);
  t->rotational = -1;
  if (path == NULL || path[0] == '\0') return;
  iospd_win_once();
  WCHAR* w = NULL;
  bool dev = false;
  if (iospd_win_target_path(path, &w, &dev, NULL) != 0) return;
  if (dev) {
    /* #N, X:, \\.\PhysicalDriveN, \\?\Volume{...}: raw I/O, no file system
     * in the way; the device is the target (a volume resolved to its
     * disk). */
    device_fields(w, t);
    iospd_free(w);
    return;
  }
  /* A file that is not there says nothing (GetVolumePathNameW would still
   * name the volume it would be on; Linux's stat cannot). */
  if (GetFileAttributesW(w) == INVALID_FILE_ATTRIBUTES) {
    iospd_free(w);
    return;
  }
  /* A file: its volume's root (a drive, a mount folder, a share), of any
   * length: the root is never longer than the path. */
  size_t len = wcslen(w) + 2;
  WCHAR* root = len <= 0x8000 ? iospd_malloc(len * sizeof(WCHAR)) : NULL;
  if (root != NULL && GetVolumePathNameW(w, root, (DWORD)len)) {
    volume_fields(root, t);
    /* The volume as a device: \\?\Volume{GUID} (which also names volumes
     * mounted in a folder), else \\.\X: for a drive root. A share has
     * neither: no local device. */
    WCHAR guid[64];
    if (GetVolumeNameForVolumeMountPointW(root, guid, 64)) {
      size_t gl = wcslen(guid);
      if (gl > 0 && guid[gl - 1] == L'\\') guid[gl - 1] = 0;
      device_fields(guid, t);
    } else {
      const WCHAR* r = root;
      if (wcsncmp(r, L"\\\\?\\", 4) == 0) r += 4;
      if (((r[0] >= L'A' && r[0] <= L'Z') || (r[0] >= L'a' && r[0] <= L'z')) &&
          r[1] == L':' && (r[2] == L'\\' || r[2] == 0)) {
        WCHAR drive[8] = L"\\\\.\\X:";
        drive[4] = r[0];
        device_fields(drive, t);
      }
    }
  }
  iospd_free(root);
  iospd_free(w);
}
