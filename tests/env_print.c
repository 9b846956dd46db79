/* SPDX-License-Identifier: MIT */
/* Prints the environment fingerprint (iospd/envinfo.h) as key=value lines,
 * for the e2e tests of envinfo (tests/e2e/env_test.sh, env_wine_test.sh):
 * the machine's fields, then t<N>.<field> for each path given. */
#include <inttypes.h>
#include <stdio.h>

#include "iospd/envinfo.h"

int main(int argc, char** argv) {
  iospd_env_t e;
  iospd_plat_env_query(&e);
  printf("os_name=%s\nos_release=%s\nos_version=%s\narch=%s\n", e.os_name,
         e.os_release, e.os_version, e.arch);
  printf("cpu_model=%s\nsockets=%" PRIu32 "\ncores=%" PRIu32
         "\nlogical_cpus=%" PRIu32 "\nnuma_nodes=%" PRIu32
         "\nmemory_bytes=%" PRIu64 "\nbuild=%s\n",
         e.cpu_model, e.sockets, e.cores, e.logical_cpus, e.numa_nodes,
         e.memory_bytes, e.build);
  for (int i = 1; i < argc; i++) {
    iospd_env_target_t t;
    iospd_plat_env_target(argv[i], &t);
    printf("t%d.path=%s\nt%d.fs_type=%s\nt%d.fs_block_bytes=%" PRIu32 "\n",
           i, argv[i], i, t.fs_type, i, t.fs_block_bytes);
    printf("t%d.device=%s\nt%d.model=%s\nt%d.firmware=%s\nt%d.bus=%s\n", i,
           t.device, i, t.model, i, t.firmware, i, t.bus);
    printf("t%d.rotational=%d\nt%d.scheduler=%s\nt%d.queue_depth=%" PRIu32
           "\nt%d.backing_file=%s\n",
           i, t.rotational, i, t.scheduler, i, t.queue_depth, i,
           t.backing_file);
  }
  return 0;
}
