/* SPDX-License-Identifier: MIT */
/* The environment fingerprint on Linux (iospd/envinfo.h): uname, os-release,
 * /proc/cpuinfo, the CPU topology of cpu.c, sysinfo, and per target statfs,
 * /proc/self/mountinfo and sysfs (env_block.c). Best effort and silent:
 * what cannot be read stays empty. docs/environment.md says where each
 * field comes from. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "iospd/alloc.h"
#include "iospd/envinfo.h"
#include "posix/internal.h"

/* Set by CMakeLists.txt for this file: how iospd was built. */
#ifndef IOSPD_BUILD_TYPE
#define IOSPD_BUILD_TYPE ""
#endif
#ifndef IOSPD_BUILD_FLAGS
#define IOSPD_BUILD_FLAGS ""
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER ""
#endif

#if defined(__x86_64__)
#define PROCESS_ARCH "x86_64"
#elif defined(__i386__)
#define PROCESS_ARCH "x86"
#elif defined(__aarch64__)
#define PROCESS_ARCH "aarch64"
#elif defined(__arm__)
#define PROCESS_ARCH "arm"
#elif defined(__riscv) && __riscv_xlen == 64
#define PROCESS_ARCH "riscv64"
#elif defined(__powerpc64__)
#define PROCESS_ARCH "ppc64"
#elif defined(__s390x__)
#define PROCESS_ARCH "s390x"
#else
#define PROCESS_ARCH ""
#endif

void iospd_plat_build(iospd_plat_build_t* out) {
  out->os = "linux";
  out->arch = PROCESS_ARCH;
}

void iospd_posix_build_string(char* out, size_t size) {
  /* "gcc 12.2.0, RelWithDebInfo, asan, x86_64 build": each part only when
   * known. */
  const char* parts[] = {COMPILER, IOSPD_BUILD_TYPE, IOSPD_BUILD_FLAGS,
                         PROCESS_ARCH[0] ? PROCESS_ARCH " build" : ""};
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(parts); i++) {
    if (parts[i][0] == '\0' || used >= size) continue;
    int n = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                     parts[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

static void os_version(const struct utsname* u, char* out, size_t size) {
  /* The distribution (os-release(5): /etc first, /usr/lib as its
   * fallback), then the kernel build (uname -v). */
  char text[8192], pretty[160] = "";
  if (iospd_posix_read_text("/etc/os-release", text, sizeof text) ||
      iospd_posix_read_text("/usr/lib/os-release", text, sizeof text))
    iospd_posix_os_release_value(text, "PRETTY_NAME", pretty, sizeof pretty);
  if (pretty[0] != '\0' && u != NULL)
    snprintf(out, size, "%s; %s", pretty, u->version);
  else if (pretty[0] != '\0')
    snprintf(out, size, "%s", pretty);
  else if (u != NULL)
    snprintf(out, size, "%s", u->version);
}

static void cpu_model(char* out, size_t size) {
  /* The first CPU's block is enough; 64 KiB holds it on any machine. */
  const size_t cap = 65536;
  char* text = iospd_malloc(cap);
  if (text == NULL) return;
  if (iospd_posix_read_text("/proc/cpuinfo", text, cap))
    iospd_posix_cpuinfo_model(text, out, size);
  iospd_free(text);
}

void iospd_plat_env_query(iospd_env_t* env) {
  memset(env, 0, sizeof *env);
  struct utsname u;
  bool have_u = uname(&u) == 0;
  snprintf(env->os_name, sizeof env->os_name, "%.31s",
           have_u ? u.sysname : "Linux");
  if (have_u) {
    snprintf(env->os_release, sizeof env->os_release, "%.127s", u.release);
    snprintf(env->arch, sizeof env->arch, "%.15s", u.machine);
  }
  os_version(have_u ? &u : NULL, env->os_version, sizeof env->os_version);
  cpu_model(env->cpu_model, sizeof env->cpu_model);

  /* Counted the way the report's CPU section counts them (cpu.c): online
   * CPUs, packages, (package, core) pairs, NUMA nodes holding CPUs. */
  iospd_cpu_topology_t topo;
  if (iospd_posix_cpu_topology_peek(&topo, NULL) == 0) {
    env->logical_cpus = topo.cpu_count;
    env->cores = topo.core_count;
    env->sockets = topo.socket_count;
    env->numa_nodes = topo.node_count;
    iospd_plat_cpu_topology_free(&topo);
  }

  /* sysinfo's total RAM is /proc/meminfo's MemTotal: the memory the
   * kernel manages, a little less than what is installed. */
  struct sysinfo si;
  if (sysinfo(&si) == 0)
    env->memory_bytes = (uint64_t)si.totalram * (si.mem_unit ? si.mem_unit : 1);
  iospd_posix_build_string(env->build, sizeof env->build);
}

/* The file system and mount of a file: type from mountinfo (exact, and
 * telling ext2/3/4 apart), else from the statfs magic; the mount's source
 * is where the device comes from when st_dev is not a block device
 * (btrfs, which numbers its subvolumes anonymously). */
static void file_system(const char* path, const struct stat* st,
                        iospd_env_target_t* t, char* source,
                        size_t source_size) {
  source[0] = '\0';
  struct statfs sf;
  if (statfs(path, &sf) == 0) {
    /* f_frsize is the unit the file system allocates and counts blocks
     * in (statvfs(3): "fundamental block size"), the counterpart of an
     * NTFS cluster. f_bsize equals it on local file systems but is the
     * transfer size on NFS and CIFS (often 1 MiB); st_blksize is a
     * per-file buffered-I/O hint. */
    uint64_t b = sf.f_frsize > 0 ? (uint64_t)sf.f_frsize
                                 : (uint64_t)sf.f_bsize;
    t->fs_block_bytes = b <= UINT32_MAX ? (uint32_t)b : 0;
    const char* name = iospd_posix_fs_name((unsigned long)sf.f_type);
    if (name != NULL) snprintf(t->fs_type, sizeof t->fs_type, "%s", name);
  }
  char* real = realpath(path, NULL);
  FILE* f = fopen("/proc/self/mountinfo", "re");
  if (f != NULL) {
    char type[64];
    if (iospd_posix_mountinfo_find(f, major(st->st_dev), minor(st->st_dev),
                                   real, type, sizeof type, source,
                                   source_size) &&
        type[0] != '\0')
      snprintf(t->fs_type, sizeof t->fs_type, "%.31s", type);
    fclose(f);
  }
  free(real);
}

void iospd_posix_env_target_at(const char* sysroot, const char* path,
                               iospd_env_target_t* t) {
  memset(t, 0, sizeof *t);
  t->rotational = -1;
  struct stat st;
  if (path == NULL || path[0] == '\0' || stat(path, &st) != 0) return;
  if (S_ISBLK(st.st_mode)) {
    /* A raw device: no file system is in use; the device is the target
     * (resolved to its disk when it is a partition or a thin layer). */
    iospd_posix_env_block(sysroot, major(st.st_rdev), minor(st.st_rdev), t);
    return;
  }
  char source[256];
  file_system(path, &st, t, source, sizeof source);
  char link[PATH_MAX];
  snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysroot,
           major(st.st_dev), minor(st.st_dev));
  struct stat dev;
  if (major(st.st_dev) != 0 && access(link, F_OK) == 0)
    iospd_posix_env_block(sysroot, major(st.st_dev), minor(st.st_dev), t);
  else if (strncmp(source, "/dev/", 5) == 0 && stat(source, &dev) == 0 &&
           S_ISBLK(dev.st_mode))
    iospd_posix_env_block(sysroot, major(dev.st_rdev), minor(dev.st_rdev), t);
  /* Otherwise (tmpfs, NFS, overlay, FUSE): no local block device. */
}

void iospd_plat_env_target(const char* path, iospd_env_target_t* t) {
  iospd_posix_env_target_at("/sys", path, t);
}
