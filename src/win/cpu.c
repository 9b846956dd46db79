/* SPDX-License-Identifier: MIT */
/* CPU topology with processor groups (GetLogicalProcessorInformationEx) and
 * per-CPU cumulative times (NtQuerySystemInformation[Ex]), in the order and
 * units platform.h promises: (group, number) order, 100 ns, kernel without
 * idle. Cf. fio os/windows/cpu-affinity.c and libuv uv_cpu_info. */
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

/* Newer SDK values that mingw 10 does not name. */
#define REL_NUMA_NODE_EX ((LOGICAL_PROCESSOR_RELATIONSHIP)6)
#define SYSINFO_PROCESSOR_PERFORMANCE 8

typedef SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX slpi_t;

/* Fetches one relationship list; NULL with *len 0 if Windows returned none
 * (wine answers RelationNumaNodeEx with TRUE and 0 bytes). */
static slpi_t* query_slpi(LOGICAL_PROCESSOR_RELATIONSHIP rel, DWORD* len,
                          iospd_err_t* err, int* rc) {
  *rc = 0;
  *len = 0;
  for (int attempt = 0; attempt < 4; attempt++) {
    DWORD need = 0;
    if (GetLogicalProcessorInformationEx(rel, NULL, &need)) return NULL;
    DWORD e = GetLastError();
    if (e != ERROR_INSUFFICIENT_BUFFER || need == 0) {
      if (rel == REL_NUMA_NODE_EX) return NULL; /* older Windows: no Ex */
      *rc = iospd_win_err(err, e, "reading the processor topology");
      return NULL;
    }
    slpi_t* buf = iospd_malloc(need);
    if (buf == NULL) {
      *rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
      return NULL;
    }
    if (GetLogicalProcessorInformationEx(rel, buf, &need)) {
      *len = need;
      return buf;
    }
    e = GetLastError();
    iospd_free(buf);
    if (e != ERROR_INSUFFICIENT_BUFFER) { /* retry: CPUs came online */
      *rc = iospd_win_err(err, e, "reading the processor topology");
      return NULL;
    }
  }
  *rc = iospd_err_set(err, IOSPD_EOS,
                      "the processor topology kept changing while read");
  return NULL;
}

#define FOR_EACH_SLPI(p, buf, len)                                        \
  for (slpi_t* p = (buf);                                                 \
       (p) != NULL && (char*)(p) < (char*)(buf) + (len) && (p)->Size > 0; \
       p = (slpi_t*)((char*)(p) + (p)->Size))

/* A NUMA node record's group masks: mingw's struct predates GroupCount
 * (the last WORD of Reserved) and the GroupMasks array that follows. */
static WORD numa_group_count(const NUMA_NODE_RELATIONSHIP* n) {
  WORD c;
  memcpy(&c, &n->Reserved[18], sizeof c);
  return c == 0 ? 1 : c;
}

static void topo_zero(iospd_cpu_topology_t* t) {
  memset(t, 0, sizeof *t);
}

void iospd_plat_cpu_topology_free(iospd_cpu_topology_t* t) {
  if (t == NULL) return;
  iospd_free(t->cpus);
  iospd_free(t->groups);
  iospd_free(t->core_masks);
  iospd_free(t->node_masks);
  iospd_free(t->socket_masks);
  iospd_free(t->caches);
  topo_zero(t);
}

static int add_mask(struct iospd_topo_mask_s** arr, uint32_t* count,
                    uint32_t* cap, uint32_t id, uint16_t group, uint8_t eff,
                    uint64_t mask) {
  if (*count == *cap) {
    uint32_t ncap = *cap ? *cap * 2 : 16;
    struct iospd_topo_mask_s* n = iospd_realloc(*arr, ncap * sizeof **arr);
    if (n == NULL) return IOSPD_ENOMEM;
    *arr = n;
    *cap = ncap;
  }
  (*arr)[*count].id = id;
  (*arr)[*count].group = group;
  (*arr)[*count].efficiency_class = eff;
  (*arr)[*count].mask = mask;
  (*count)++;
  return 0;
}

/* Applies f to each CPU of (group, mask) through the (group*64+bit) index. */
static void mark_cpus(iospd_cpu_topology_t* t, const int32_t* index,
                      uint32_t ngroups, WORD group, KAFFINITY mask, int what,
                      uint32_t value, uint8_t eff) {
  if (group >= ngroups) return;
  for (unsigned bit = 0; bit < 64; bit++) {
    if (!(((uint64_t)mask >> bit) & 1)) continue;
    int32_t i = index[group * 64u + bit];
    if (i < 0) continue;
    iospd_cpu_info_t* c = &t->cpus[i];
    if (what == 0) {
      c->core = value;
      c->efficiency_class = eff;
    } else if (what == 1) {
      c->node = value;
    } else {
      c->socket = value;
    }
  }
}

static unsigned popcount64(uint64_t v) {
  unsigned n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

int iospd_plat_cpu_topology(iospd_cpu_topology_t* t, iospd_err_t* err) {
  topo_zero(t);
  int rc = iospd_win_masks_check(err); /* wow64.c: x86 on > 32 per group */
  if (rc) return rc;
  DWORD len = 0, nlen = 0;
  int32_t* index = NULL;
  uint32_t core_cap = 0, node_cap = 0, sock_cap = 0;
  slpi_t* numa = NULL;
  slpi_t* all = query_slpi(RelationAll, &len, err, &rc);
  if (all == NULL) {
    if (rc == 0)
      rc = iospd_err_set(err, IOSPD_EOS, "Windows reported no processors");
    return rc;
  }

  /* Groups first: they define which CPUs exist and their order. */
  FOR_EACH_SLPI(p, all, len) {
    if (p->Relationship != RelationGroup) continue;
    WORD n = p->Group.ActiveGroupCount;
    if (n > IOSPD_WIN_MAX_GROUPS) n = IOSPD_WIN_MAX_GROUPS;
    t->groups = iospd_calloc(n ? n : 1, sizeof *t->groups);
    if (t->groups == NULL) goto nomem;
    t->group_count = n;
    for (WORD g = 0; g < n; g++) {
      const PROCESSOR_GROUP_INFO* gi = &p->Group.GroupInfo[g];
      t->groups[g].max_processors = gi->MaximumProcessorCount;
      t->groups[g].active_processors = gi->ActiveProcessorCount;
      t->groups[g].active_mask = (uint64_t)gi->ActiveProcessorMask;
      t->cpu_count += popcount64((uint64_t)gi->ActiveProcessorMask);
    }
    break;
  }
  if (t->group_count == 0 || t->cpu_count == 0) {
    rc = iospd_err_set(err, IOSPD_EOS, "Windows reported no processor groups");
    goto fail;
  }

  t->cpus = iospd_calloc(t->cpu_count, sizeof *t->cpus);
  index = iospd_malloc((size_t)t->group_count * 64 * sizeof *index);
  if (t->cpus == NULL || index == NULL) goto nomem;
  uint32_t k = 0;
  for (uint32_t g = 0; g < t->group_count; g++) {
    for (unsigned bit = 0; bit < 64; bit++) {
      bool on = (t->groups[g].active_mask >> bit) & 1;
      index[g * 64 + bit] = on ? (int32_t)k : -1;
      if (!on) continue;
      t->cpus[k].group = (uint16_t)g;
      t->cpus[k].number = (uint16_t)bit;
      t->cpus[k].active = true;
      k++;
    }
  }

  /* Cores (numbered per group, as DISKSPD's <Core Group= Core=>) and
   * packages (sockets, numbered globally). */
  uint32_t core_in_group[IOSPD_WIN_MAX_GROUPS] = {0};
  uint8_t first_eff = 0;
  bool have_eff = false;
  FOR_EACH_SLPI(p, all, len) {
    if (p->Relationship == RelationProcessorCore) {
      const PROCESSOR_RELATIONSHIP* pr = &p->Processor;
      /* EfficiencyClass is the byte after Flags (Reserved[0] in mingw). */
      uint8_t eff = pr->Reserved[0];
      if (!have_eff) {
        first_eff = eff;
        have_eff = true;
      } else if (eff != first_eff) {
        t->heterogeneous = true;
      }
      WORD g = pr->GroupMask[0].Group;
      if (g >= t->group_count) continue;
      uint64_t mask = (uint64_t)pr->GroupMask[0].Mask;
      if (popcount64(mask) > 1) t->smt = true;
      uint32_t id = core_in_group[g]++;
      mark_cpus(t, index, t->group_count, g, (KAFFINITY)mask, 0, id, eff);
      if (add_mask(&t->core_masks, &t->core_mask_count, &core_cap, id, g, eff,
                   mask))
        goto nomem;
      t->core_count++;
    } else if (p->Relationship == RelationProcessorPackage) {
      const PROCESSOR_RELATIONSHIP* pr = &p->Processor;
      uint32_t id = t->socket_count++;
      for (WORD i = 0; i < pr->GroupCount; i++) {
        mark_cpus(t, index, t->group_count, pr->GroupMask[i].Group,
                  pr->GroupMask[i].Mask, 2, id, 0);
        if (add_mask(&t->socket_masks, &t->socket_mask_count, &sock_cap, id,
                     pr->GroupMask[i].Group, 0,
                     (uint64_t)pr->GroupMask[i].Mask))
          goto nomem;
      }
    }
  }

  /* NUMA nodes: the Ex form lists every group a node spans; wine (and
   * Windows before 20H2) return nothing for it, so fall back to the plain
   * records in RelationAll, which name one group per node. */
  numa = query_slpi(REL_NUMA_NODE_EX, &nlen, NULL, &rc);
  slpi_t* nbuf = numa != NULL && nlen > 0 ? numa : all;
  DWORD nbuflen = numa != NULL && nlen > 0 ? nlen : len;
  FOR_EACH_SLPI(p, nbuf, nbuflen) {
    if (p->Relationship != RelationNumaNode &&
        p->Relationship != REL_NUMA_NODE_EX)
      continue;
    const NUMA_NODE_RELATIONSHIP* nr = &p->NumaNode;
    WORD gc = nbuf == numa ? numa_group_count(nr) : 1;
    const GROUP_AFFINITY* masks = &nr->GroupMask;
    /* Stay inside the record even if GroupCount is odd. */
    size_t room = ((char*)p + p->Size - (char*)masks) / sizeof *masks;
    if (gc > room) gc = (WORD)room;
    for (WORD i = 0; i < gc; i++) {
      mark_cpus(t, index, t->group_count, masks[i].Group, masks[i].Mask, 1,
                nr->NodeNumber, 0);
      if (add_mask(&t->node_masks, &t->node_mask_count, &node_cap,
                   nr->NodeNumber, masks[i].Group, 0, (uint64_t)masks[i].Mask))
        goto nomem;
    }
    t->node_count++;
  }
  if (t->socket_count == 0) t->socket_count = 1;
  if (t->node_count == 0) t->node_count = 1;
  if (t->core_count == 0) t->core_count = t->cpu_count;
  if (iospd_win_cpu_caches(t) < 0) goto nomem;
  iospd_win_processor_name(t->processor_name, sizeof t->processor_name);

  iospd_free(numa);
  iospd_free(index);
  iospd_free(all);
  return 0;

nomem:
  rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
fail:
  iospd_free(numa);
  iospd_free(index);
  iospd_free(all);
  iospd_plat_cpu_topology_free(t);
  return rc;
}

int iospd_win_group_masks(uint64_t* masks, uint32_t* ngroups,
                          iospd_err_t* err) {
  DWORD len;
  int rc;
  slpi_t* buf = query_slpi(RelationGroup, &len, err, &rc);
  if (buf == NULL)
    return rc ? rc : iospd_err_set(err, IOSPD_EOS, "no processor groups");
  *ngroups = 0;
  FOR_EACH_SLPI(p, buf, len) {
    if (p->Relationship != RelationGroup) continue;
    WORD n = p->Group.ActiveGroupCount;
    if (n > IOSPD_WIN_MAX_GROUPS) n = IOSPD_WIN_MAX_GROUPS;
    for (WORD g = 0; g < n; g++)
      masks[g] = (uint64_t)p->Group.GroupInfo[g].ActiveProcessorMask;
    *ngroups = n;
    break;
  }
  iospd_free(buf);
  return 0;
}

static void fill_times(iospd_cpu_times_t* o,
                       const SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION* s) {
  uint64_t idle = (uint64_t)s->IdleTime.QuadPart;
  uint64_t kern = (uint64_t)s->KernelTime.QuadPart;
  o->idle = idle;
  /* KernelTime counts the idle thread too (libuv subtracts it as well). */
  o->kernel = kern > idle ? kern - idle : 0;
  o->user = (uint64_t)s->UserTime.QuadPart;
}

int iospd_plat_cpu_times(iospd_cpu_times_t* out, uint32_t ncpu,
                         iospd_err_t* err) {
  iospd_win_once();
  if (ncpu == 0) return 0;
  memset(out, 0, (size_t)ncpu * sizeof *out);
  uint64_t masks[IOSPD_WIN_MAX_GROUPS];
  uint32_t ngroups = 0;
  int rc = iospd_win_group_masks(masks, &ngroups, err);
  if (rc) return rc;

  /* Per group: 64 entries at most, indexed by CPU number. */
  SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION info[64];
  uint32_t k = 0;
  for (uint32_t g = 0; g < ngroups && k < ncpu; g++) {
    ULONG got = 0;
    NTSTATUS st = -1;
    if (iospd_win_NtQuerySystemInformationEx != NULL) {
      USHORT group = (USHORT)g;
      st = iospd_win_NtQuerySystemInformationEx(SYSINFO_PROCESSOR_PERFORMANCE,
                                                &group, sizeof group, info,
                                                sizeof info, &got);
    }
    if (st < 0 && g == 0 && ngroups == 1 &&
        iospd_win_NtQuerySystemInformation != NULL) {
      /* wine has no Ex variant for this class; with one group the classic
       * call returns the same list. */
      st = iospd_win_NtQuerySystemInformation(SYSINFO_PROCESSOR_PERFORMANCE,
                                              info, sizeof info, &got);
    }
    if (st < 0) {
      return iospd_win_err(err, iospd_win_ntstatus_to_win32(st),
                           "reading CPU times of processor group %u",
                           (unsigned)g);
    }
    uint32_t entries = got / sizeof info[0];
    for (unsigned bit = 0; bit < 64 && k < ncpu; bit++) {
      if (!((masks[g] >> bit) & 1)) continue;
      if (bit < entries) fill_times(&out[k], &info[bit]);
      k++;
    }
  }
  return 0;
}
