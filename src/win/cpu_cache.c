/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's parts of the topology on Windows: the CPU caches
 * (GetLogicalProcessorInformationEx, RelationCache, one record per cache
 * and sharing set, in Windows' order) and the processor's name (the
 * registry's ProcessorNameString, as DISKSPD reads it). */
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

typedef SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX slpi_t;

int iospd_win_cpu_caches(iospd_cpu_topology_t* t) {
  t->caches = NULL;
  t->cache_count = 0;
  DWORD need = 0;
  slpi_t* buf = NULL;
  for (int attempt = 0; attempt < 4; attempt++) {
    need = 0;
    if (GetLogicalProcessorInformationEx(RelationCache, NULL, &need) ||
        GetLastError() != ERROR_INSUFFICIENT_BUFFER || need == 0)
      return 0; /* no caches said: none listed */
    buf = iospd_malloc(need);
    if (buf == NULL) return IOSPD_ENOMEM;
    if (GetLogicalProcessorInformationEx(RelationCache, buf, &need)) break;
    iospd_free(buf);
    buf = NULL;
    if (GetLastError() != ERROR_INSUFFICIENT_BUFFER) return 0;
  }
  if (buf == NULL) return 0;
  uint32_t n = 0;
  for (char* p = (char*)buf; p < (char*)buf + need;) {
    slpi_t* r = (slpi_t*)p;
    if (r->Size == 0) break;
    n += r->Relationship == RelationCache;
    p += r->Size;
  }
  if (n > 0) {
    t->caches = iospd_calloc(n, sizeof *t->caches);
    if (t->caches == NULL) {
      iospd_free(buf);
      return IOSPD_ENOMEM;
    }
  }
  for (char* p = (char*)buf; p < (char*)buf + need && t->cache_count < n;) {
    slpi_t* r = (slpi_t*)p;
    if (r->Size == 0) break;
    p += r->Size;
    if (r->Relationship != RelationCache) continue;
    const CACHE_RELATIONSHIP* c = &r->Cache;
    iospd_cache_info_t* o = &t->caches[t->cache_count++];
    o->level = c->Level;
    o->type = c->Type <= CacheTrace ? (uint8_t)c->Type : IOSPD_CACHE_TYPE_UNIFIED;
    o->associativity = c->Associativity;
    o->line_size = c->LineSize;
    o->size = c->CacheSize;
    /* The first group of the record (a cache spanning groups, on the
     * newest Windows, lists more: the first is the one DISKSPD prints). */
    o->group = c->GroupMask.Group;
    o->mask = (uint64_t)c->GroupMask.Mask;
  }
  iospd_free(buf);
  return 0;
}

void iospd_win_processor_name(char* out, size_t size) {
  out[0] = '\0';
  HKEY k;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE,
                    L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", 0,
                    KEY_QUERY_VALUE | KEY_WOW64_64KEY, &k) != ERROR_SUCCESS)
    return;
  WCHAR buf[256];
  DWORD bytes = sizeof buf;
  LSTATUS st = RegGetValueW(k, NULL, L"ProcessorNameString", RRF_RT_REG_SZ,
                            NULL, buf, &bytes);
  RegCloseKey(k);
  if (st != ERROR_SUCCESS) return;
  buf[sizeof buf / sizeof buf[0] - 1] = 0;
  iospd_win_wide_to_utf8(buf, out, size);
  iospd_win_trim_ascii(out);
}
