/* SPDX-License-Identifier: MIT */
/* The CPU caches (DISKSPD 2.3's <Cache> and cache table) from
 * /sys/devices/system/cpu/cpuN/cache/indexK, and the processor's name from
 * /proc/cpuinfo, both under an injectable root so tests read fake trees. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define MAX_INDEX 16

/* "32K", "1280K", "24576K", "2M", "512" -> bytes; 0 if unreadable. */
static uint32_t read_size(const char* path) {
  char buf[64];
  if (!iospd_posix_read_text(path, buf, sizeof buf)) return 0;
  char* end;
  unsigned long long v = strtoull(buf, &end, 10);
  if (end == buf) return 0;
  if (*end == 'K') v <<= 10;
  else if (*end == 'M') v <<= 20;
  else if (*end == 'G') v <<= 30;
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static uint8_t read_type(const char* path) {
  char buf[32];
  if (!iospd_posix_read_text(path, buf, sizeof buf)) return IOSPD_CACHE_TYPE_UNIFIED;
  if (strncmp(buf, "Data", 4) == 0) return IOSPD_CACHE_TYPE_DATA;
  if (strncmp(buf, "Instruction", 11) == 0) return IOSPD_CACHE_TYPE_INSTRUCTION;
  return IOSPD_CACHE_TYPE_UNIFIED;
}

/* The (group, mask) of a sharing list: the group of its lowest CPU and the
 * CPUs of that group in it (a cache spanning groups is cut to the first,
 * as one Windows entry holds one group's mask). */
static bool sharing(const iospd_posix_cpuset_t* s, uint16_t* group,
                    uint64_t* mask) {
  for (uint32_t w = 0; w < IOSPD_POSIX_CPUSET_WORDS; w++) {
    if (s->w[w] == 0) continue;
    *group = (uint16_t)(w * 64 / IOSPD_POSIX_GROUP_CPUS);
    *mask = s->w[w];
    return true;
  }
  return false;
}

int iospd_posix_read_caches(const char* root, const uint32_t* ids, uint32_t n,
                            iospd_cpu_topology_t* topo) {
  topo->caches = NULL;
  topo->cache_count = 0;
  uint32_t cap = 0;
  iospd_posix_cpuset_t* set = iospd_malloc(sizeof *set);
  if (set == NULL) return IOSPD_ENOMEM;
  char path[IOSPD_POSIX_SYSFS_PATH], dir[IOSPD_POSIX_SYSFS_PATH - 32];
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    for (uint32_t k = 0; k < MAX_INDEX; k++) {
      snprintf(dir, sizeof dir, "%s" SYS_CPU "/cpu%u/cache/index%u", root,
               ids[i], k);
      snprintf(path, sizeof path, "%s/level", dir);
      long level = iospd_posix_read_long(path, -1);
      if (level < 0) break; /* no more caches for this CPU */
      iospd_cache_info_t c;
      memset(&c, 0, sizeof c);
      c.level = level > 255 ? 255 : (uint8_t)level;
      snprintf(path, sizeof path, "%s/type", dir);
      c.type = read_type(path);
      snprintf(path, sizeof path, "%s/size", dir);
      c.size = read_size(path);
      snprintf(path, sizeof path, "%s/coherency_line_size", dir);
      long line = iospd_posix_read_long(path, 0);
      c.line_size = line > 0 && line < 65536 ? (uint16_t)line : 0;
      snprintf(path, sizeof path, "%s/ways_of_associativity", dir);
      long ways = iospd_posix_read_long(path, -1);
      /* Linux says 0 ways for a fully associative cache; Windows 0xFF. */
      c.associativity = ways < 0 ? 0 : ways == 0 || ways >= 0xFF ? 0xFF
                                                                  : (uint16_t)ways;
      snprintf(path, sizeof path, "%s/shared_cpu_list", dir);
      if (!iospd_posix_read_cpulist(path, set)) {
        memset(set, 0, sizeof *set);
        set->w[ids[i] / 64] = UINT64_C(1) << (ids[i] % 64);
      }
      if (!sharing(set, &c.group, &c.mask)) continue;
      bool seen = false;
      for (uint32_t j = 0; j < topo->cache_count && !seen; j++) {
        const iospd_cache_info_t* o = &topo->caches[j];
        seen = o->level == c.level && o->type == c.type &&
               o->group == c.group && o->mask == c.mask;
      }
      if (seen) continue;
      if (topo->cache_count == cap) {
        uint32_t ncap = cap ? cap * 2 : 16;
        iospd_cache_info_t* g =
            iospd_realloc(topo->caches, ncap * sizeof *g);
        if (g == NULL) {
          rc = IOSPD_ENOMEM;
          break;
        }
        topo->caches = g;
        cap = ncap;
      }
      topo->caches[topo->cache_count++] = c;
    }
  }
  iospd_free(set);
  return rc;
}

void iospd_posix_processor_name(const char* root, char* out, size_t size) {
  out[0] = '\0';
  char path[IOSPD_POSIX_SYSFS_PATH];
  snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
  /* The first processor's block is well inside 16 KiB. */
  const size_t cap = 16384;
  char* text = iospd_malloc(cap);
  if (text == NULL) return;
  if (iospd_posix_read_text(path, text, cap))
    iospd_posix_cpuinfo_model(text, out, size);
  iospd_free(text);
}
