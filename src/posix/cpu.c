/* SPDX-License-Identifier: MIT */
/* CPU topology from /sys/devices/system/cpu and .../node (online CPUs, cores,
 * packages, NUMA nodes, hybrid efficiency classes) and per-CPU times from
 * /proc/stat, converted to the 100 ns units the core expects. */
#include <dirent.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define SYS_NODE "/sys/devices/system/node"

static bool set_has(const iospd_posix_cpuset_t* s, uint32_t c) {
  return c < IOSPD_MAX_CPUS && (s->w[c / 64] >> (c % 64)) & 1u;
}

bool iospd_posix_parse_cpulist(const char* text, uint64_t* words) {
  memset(words, 0, IOSPD_POSIX_CPUSET_WORDS * sizeof *words);
  const char* p = text;
  bool any = false;
  while (*p != '\0' && *p != '\n') {
    char* end;
    unsigned long a = strtoul(p, &end, 10);
    if (end == p) return false;
    unsigned long b = a;
    p = end;
    if (*p == '-') {
      b = strtoul(p + 1, &end, 10);
      if (end == p + 1) return false;
      p = end;
    }
    for (unsigned long c = a; c <= b && c < IOSPD_MAX_CPUS; c++) {
      words[c / 64] |= UINT64_C(1) << (c % 64);
      any = true;
    }
    if (*p == ',') p++;
  }
  return any;
}

bool iospd_posix_read_text(const char* path, char* buf, size_t size) {
  FILE* f = fopen(path, "re");
  if (f == NULL) return false;
  size_t n = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[n] = '\0';
  return n > 0;
}

bool iospd_posix_read_cpulist(const char* path, iospd_posix_cpuset_t* s) {
  /* A CPU list of 4096 CPUs written badly is still well under 32 KiB. */
  const size_t size = 32768;
  char* buf = iospd_malloc(size);
  if (buf == NULL) return false;
  bool ok = iospd_posix_read_text(path, buf, size) && iospd_posix_parse_cpulist(buf, s->w);
  iospd_free(buf);
  return ok;
}

long iospd_posix_read_long(const char* path, long dflt) {
  char buf[64];
  if (!iospd_posix_read_text(path, buf, sizeof buf)) return dflt;
  char* end;
  long v = strtol(buf, &end, 10);
  return end == buf ? dflt : v;
}

/* Adds CPU (group, number) to the mask entry (id, group), appending it if new.
 * The table has room for one entry per CPU, which is the worst case. */
static void mask_add(struct iospd_topo_mask_s* masks, uint32_t* count,
                     uint32_t id, uint16_t group, uint16_t number,
                     uint8_t eff) {
  for (uint32_t i = 0; i < *count; i++) {
    if (masks[i].id == id && masks[i].group == group) {
      masks[i].mask |= UINT64_C(1) << number;
      if (eff > masks[i].efficiency_class) masks[i].efficiency_class = eff;
      return;
    }
  }
  masks[*count].id = id;
  masks[*count].group = group;
  masks[*count].efficiency_class = eff;
  masks[*count].mask = UINT64_C(1) << number;
  (*count)++;
}

/* Efficiency class per CPU: Intel hybrid parts list their P-cores and E-cores
 * under /sys/devices/cpu_core and cpu_atom; Arm big.LITTLE exposes
 * cpu_capacity. Higher class = faster core, as on Windows. */
static void efficiency_classes(const char* root, const uint32_t* ids,
                               uint32_t n, uint8_t* eff) {
  memset(eff, 0, n);
  iospd_posix_cpuset_t* core = iospd_malloc(sizeof *core);
  if (core == NULL) return;
  char path[IOSPD_POSIX_SYSFS_PATH];
  snprintf(path, sizeof path, "%s/sys/devices/cpu_core/cpus", root);
  if (iospd_posix_read_cpulist(path, core)) {
    for (uint32_t i = 0; i < n; i++) eff[i] = set_has(core, ids[i]) ? 1 : 0;
    iospd_free(core);
    return;
  }
  iospd_free(core);
  long* cap = iospd_malloc(n * sizeof *cap);
  if (cap == NULL) return;
  for (uint32_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s" SYS_CPU "/cpu%u/cpu_capacity", root,
             ids[i]);
    cap[i] = iospd_posix_read_long(path, -1);
  }
  /* Class = number of distinct smaller capacities. */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t rank = 0;
    for (uint32_t j = 0; j < n; j++) {
      if (cap[j] >= cap[i]) continue;
      bool seen = false;
      for (uint32_t k = 0; k < j && !seen; k++) seen = cap[k] == cap[j];
      if (!seen) rank++;
    }
    eff[i] = rank > 255 ? 255 : (uint8_t)rank;
  }
  iospd_free(cap);
}

/* The physical core of CPU id: the lowest CPU listed in core_cpus_list
 * (thread_siblings_list on older kernels), so SMT siblings share it; -1
 * when neither file is there (then the package and core_id tell). */
static long core_key(const char* root, uint32_t id,
                     iospd_posix_cpuset_t* tmp) {
  static const char* const names[] = {"core_cpus_list",
                                      "thread_siblings_list"};
  char path[IOSPD_POSIX_SYSFS_PATH];
  for (size_t k = 0; k < 2; k++) {
    snprintf(path, sizeof path, "%s" SYS_CPU "/cpu%u/topology/%s", root, id,
             names[k]);
    if (!iospd_posix_read_cpulist(path, tmp)) continue;
    for (uint32_t c = 0; c < IOSPD_MAX_CPUS; c++)
      if (set_has(tmp, c)) return (long)c;
  }
  return -1;
}

/* The CPU numbers behind the last topology's entries, so CPU times land on
 * the right entry even if a CPU went offline in between. */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t* topo_ids;
static uint32_t topo_nids;

static void remember_ids(const uint32_t* ids, uint32_t n) {
  uint32_t* copy = NULL;
  if (n > 0) {
    copy = iospd_malloc(n * sizeof *copy);
    if (copy != NULL) memcpy(copy, ids, n * sizeof *copy);
  }
  pthread_mutex_lock(&ids_lock);
  iospd_free(topo_ids);
  topo_ids = copy;
  topo_nids = copy != NULL ? n : 0;
  pthread_mutex_unlock(&ids_lock);
}

/* Reads the topology; remember: keep its CPU numbers for
 * iospd_plat_cpu_times (the run's topology), not for a look that only
 * counts (the environment fingerprint, which may come at any time). */
static int read_topology(const char* root, iospd_cpu_topology_t* topo,
                         bool remember, iospd_err_t* err) {
  /* A fake tree (root not "") describes another machine: every CPU in it is
   * active, whatever this process's CPU set. */
  bool fake = root[0] != '\0';
  char path[IOSPD_POSIX_SYSFS_PATH];
  memset(topo, 0, sizeof *topo);
  int rc = IOSPD_ENOMEM;
  iospd_posix_cpuset_t* online = iospd_malloc(sizeof *online);
  iospd_posix_cpuset_t* possible = iospd_malloc(sizeof *possible);
  iospd_posix_cpuset_t* nodeset = iospd_malloc(sizeof *nodeset);
  uint32_t* ids = iospd_malloc(IOSPD_MAX_CPUS * sizeof *ids);
  uint32_t* node_of = iospd_calloc(IOSPD_MAX_CPUS, sizeof *node_of);
  long* pkg = iospd_malloc(IOSPD_MAX_CPUS * sizeof *pkg);
  long* core_id = iospd_malloc(IOSPD_MAX_CPUS * sizeof *core_id);
  uint8_t* eff = iospd_malloc(IOSPD_MAX_CPUS);
  if (!online || !possible || !nodeset || !ids || !node_of || !pkg ||
      !core_id || !eff)
    goto fail;

  snprintf(path, sizeof path, "%s" SYS_CPU "/online", root);
  if (!iospd_posix_read_cpulist(path, online)) {
    /* No sysfs (unusual containers): assume CPUs 0..n-1 are online. */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > IOSPD_MAX_CPUS) n = IOSPD_MAX_CPUS;
    memset(online, 0, sizeof *online);
    for (long c = 0; c < n; c++) online->w[c / 64] |= UINT64_C(1) << (c % 64);
  }
  snprintf(path, sizeof path, "%s" SYS_CPU "/possible", root);
  if (!iospd_posix_read_cpulist(path, possible)) *possible = *online;

  uint32_t n = 0;
  for (uint32_t c = 0; c < IOSPD_MAX_CPUS; c++)
    if (set_has(online, c)) ids[n++] = c;

  /* NUMA nodes: each nodeN directory lists its CPUs. Without NUMA support
   * in the kernel there is no such directory and everything is node 0. */
  snprintf(path, sizeof path, "%s" SYS_NODE, root);
  DIR* d = opendir(path);
  if (d != NULL) {
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
      char* end;
      if (strncmp(e->d_name, "node", 4) != 0) continue;
      unsigned long node = strtoul(e->d_name + 4, &end, 10);
      if (end == e->d_name + 4 || *end != '\0') continue;
      char npath[IOSPD_POSIX_SYSFS_PATH + 300];
      snprintf(npath, sizeof npath, "%s" SYS_NODE "/%s/cpulist", root,
               e->d_name);
      if (!iospd_posix_read_cpulist(npath, nodeset)) continue;
      for (uint32_t i = 0; i < n; i++)
        if (set_has(nodeset, ids[i])) node_of[i] = (uint32_t)node;
    }
    closedir(d);
  }

  for (uint32_t i = 0; i < n; i++) {
    snprintf(path, sizeof path,
             "%s" SYS_CPU "/cpu%u/topology/physical_package_id", root, ids[i]);
    pkg[i] = iospd_posix_read_long(path, 0);
    if (pkg[i] < 0) pkg[i] = 0;
    /* SMT siblings: the lowest CPU of the core's list, else the
     * (package, core_id) pair. */
    core_id[i] = core_key(root, ids[i], nodeset);
    if (core_id[i] < 0) {
      snprintf(path, sizeof path, "%s" SYS_CPU "/cpu%u/topology/core_id",
               root, ids[i]);
      core_id[i] = IOSPD_MAX_CPUS + iospd_posix_read_long(path, (long)ids[i]);
    }
  }
  efficiency_classes(root, ids, n, eff);

  topo->cpus = iospd_calloc(n, sizeof *topo->cpus);
  topo->core_masks = iospd_calloc(n, sizeof *topo->core_masks);
  topo->node_masks = iospd_calloc(n, sizeof *topo->node_masks);
  topo->socket_masks = iospd_calloc(n, sizeof *topo->socket_masks);
  uint32_t max_possible = 0;
  for (uint32_t c = 0; c < IOSPD_MAX_CPUS; c++)
    if (set_has(possible, c) || set_has(online, c)) max_possible = c + 1;
  uint32_t ngroups =
      (max_possible + IOSPD_POSIX_GROUP_CPUS - 1) / IOSPD_POSIX_GROUP_CPUS;
  topo->groups = iospd_calloc(ngroups, sizeof *topo->groups);
  if (!topo->cpus || !topo->core_masks || !topo->node_masks ||
      !topo->socket_masks || !topo->groups)
    goto fail;

  /* A CPU outside this process's CPU set (taskset, container cpusets) is
   * listed, because /proc/stat and the report cover every online CPU, but
   * not active: threads are never placed on it. */
  size_t allowed_size = CPU_ALLOC_SIZE(IOSPD_MAX_CPUS);
  cpu_set_t* allowed = fake ? NULL : CPU_ALLOC(IOSPD_MAX_CPUS);
  if (allowed != NULL && sched_getaffinity(0, allowed_size, allowed) != 0) {
    CPU_FREE(allowed);
    allowed = NULL;
  }

  /* Cores and sockets are numbered in order of first appearance, which with
   * CPUs in ascending order matches how the Windows side numbers them. A
   * core is a (package, core_id) pair: core_id repeats across packages. */
  uint32_t sockets = 0, cores = 0;
  uint8_t max_eff = 0, min_eff = 255;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t s = sockets, k = cores;
    for (uint32_t j = 0; j < i; j++) {
      if (pkg[j] == pkg[i]) s = topo->cpus[j].socket;
      if (pkg[j] == pkg[i] && core_id[j] == core_id[i]) k = topo->cpus[j].core;
    }
    if (s == sockets) sockets++;
    if (k == cores) cores++;
    iospd_cpu_info_t* ci = &topo->cpus[i];
    ci->group = (uint16_t)(ids[i] / IOSPD_POSIX_GROUP_CPUS);
    ci->number = (uint16_t)(ids[i] % IOSPD_POSIX_GROUP_CPUS);
    ci->core = k;
    ci->node = node_of[i];
    ci->socket = s;
    ci->efficiency_class = eff[i];
    ci->active = allowed == NULL || CPU_ISSET_S(ids[i], allowed_size, allowed);
    if (eff[i] > max_eff) max_eff = eff[i];
    if (eff[i] < min_eff) min_eff = eff[i];
    mask_add(topo->core_masks, &topo->core_mask_count, k, ci->group, ci->number,
             eff[i]);
    mask_add(topo->node_masks, &topo->node_mask_count, ci->node, ci->group,
             ci->number, eff[i]);
    mask_add(topo->socket_masks, &topo->socket_mask_count, s, ci->group,
             ci->number, eff[i]);
  }
  if (allowed != NULL) CPU_FREE(allowed);
  uint32_t nodes = 0;
  for (uint32_t i = 0; i < n; i++) {
    bool seen = false;
    for (uint32_t j = 0; j < i && !seen; j++)
      seen = topo->cpus[j].node == topo->cpus[i].node;
    if (!seen) nodes++;
  }
  for (uint32_t c = 0; c < max_possible; c++) {
    iospd_group_info_t* g = &topo->groups[c / IOSPD_POSIX_GROUP_CPUS];
    if (set_has(possible, c) || set_has(online, c)) g->max_processors++;
    if (set_has(online, c)) {
      g->active_processors++;
      g->active_mask |= UINT64_C(1) << (c % IOSPD_POSIX_GROUP_CPUS);
    }
  }
  if (remember) remember_ids(ids, n);
  topo->cpu_count = n;
  topo->core_count = cores;
  topo->node_count = nodes;
  topo->socket_count = sockets;
  topo->group_count = ngroups;
  topo->heterogeneous = n > 0 && max_eff != min_eff;
  topo->smt = cores < n;
  rc = iospd_posix_read_caches(root, ids, n, topo);
  if (rc == 0)
    iospd_posix_processor_name(root, topo->processor_name,
                               sizeof topo->processor_name);

fail:
  iospd_free(online);
  iospd_free(possible);
  iospd_free(nodeset);
  iospd_free(ids);
  iospd_free(node_of);
  iospd_free(pkg);
  iospd_free(core_id);
  iospd_free(eff);
  if (rc < 0) {
    iospd_plat_cpu_topology_free(topo);
    return iospd_err_set(err, rc, "out of memory reading the CPU topology");
  }
  return 0;
}

int iospd_plat_cpu_topology(iospd_cpu_topology_t* topo, iospd_err_t* err) {
  return read_topology("", topo, true, err);
}

int iospd_posix_cpu_topology_peek(iospd_cpu_topology_t* topo,
                                  iospd_err_t* err) {
  return read_topology("", topo, false, err);
}

int iospd_posix_cpu_topology_at(const char* root, iospd_cpu_topology_t* topo,
                                iospd_err_t* err) {
  return read_topology(root != NULL ? root : "", topo, false, err);
}

void iospd_plat_cpu_topology_free(iospd_cpu_topology_t* topo) {
  if (topo == NULL) return;
  iospd_free(topo->cpus);
  iospd_free(topo->groups);
  iospd_free(topo->core_masks);
  iospd_free(topo->node_masks);
  iospd_free(topo->socket_masks);
  iospd_free(topo->caches);
  memset(topo, 0, sizeof *topo);
}

void iospd_posix_cpu_shutdown(void) { remember_ids(NULL, 0); }

uint32_t iospd_posix_parse_cpu_stat(FILE* f, const uint32_t* ids, uint32_t nids,
                                    long hz, iospd_cpu_times_t* out,
                                    uint32_t ncpu) {
  if (hz <= 0) hz = 100;
  uint64_t scale = 10000000u / (uint64_t)hz; /* 100 ns per USER_HZ tick */
  memset(out, 0, ncpu * sizeof *out);
  char line[512];
  uint32_t filled = 0, pos = 0;
  /* The cpu lines come first; the long "intr" line after them is never
   * read, so a line buffer suffices. */
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "cpu", 3) != 0) break;
    if (line[3] < '0' || line[3] > '9') continue; /* the "cpu " total line */
    char* p = line + 3;
    unsigned long cpu = strtoul(p, &p, 10);
    uint32_t idx = pos++;
    if (ids != NULL) {
      /* Both lists are ascending: look the CPU number up. */
      idx = UINT32_MAX;
      for (uint32_t k = 0; k < nids && idx == UINT32_MAX; k++)
        if (ids[k] == cpu) idx = k;
    }
    if (idx >= ncpu) continue;
    uint64_t v[8] = {0};
    for (int k = 0; k < 8; k++) v[k] = strtoull(p, &p, 10);
    /* user nice system idle iowait irq softirq steal: User = user + nice,
     * Kernel = system + irq + softirq + steal (idle excluded, as the core
     * expects), Idle = idle + iowait. */
    out[idx].user = (v[0] + v[1]) * scale;
    out[idx].kernel = (v[2] + v[5] + v[6] + v[7]) * scale;
    out[idx].idle = (v[3] + v[4]) * scale;
    filled++;
  }
  return filled;
}

int iospd_plat_cpu_times(iospd_cpu_times_t* out, uint32_t ncpu,
                         iospd_err_t* err) {
  FILE* f = fopen("/proc/stat", "re");
  if (f == NULL) return iospd_posix_err(err, errno, "cannot open /proc/stat");
  pthread_mutex_lock(&ids_lock);
  uint32_t n = iospd_posix_parse_cpu_stat(f, topo_ids, topo_nids,
                                          sysconf(_SC_CLK_TCK), out, ncpu);
  pthread_mutex_unlock(&ids_lock);
  fclose(f);
  if (n == 0)
    return iospd_err_set(err, IOSPD_EOS, "no per-CPU lines in /proc/stat");
  return 0;
}
