/* SPDX-License-Identifier: MIT */
/* The environment fingerprint written into JSON results: what machine, OS,
 * file system and device a run measured, so that results can be compared
 * and merged knowingly. Filled by the platform (best effort: a field that
 * cannot be learnt stays "" or 0, never a guess). */
#ifndef IOSPD_ENVINFO_H
#define IOSPD_ENVINFO_H

#include "iospd/common.h"

typedef struct iospd_env_s {
  char os_name[32];      /* "Linux", "Windows" */
  char os_release[128];  /* Linux: kernel release (uname -r); Windows:
                            "10.0.20348" (major.minor.build) */
  char os_version[256];  /* Linux: PRETTY_NAME of /etc/os-release and uname
                            -v; Windows: product name and display version,
                            "Wine x.y" when wine reports itself */
  char arch[16];         /* "x86_64", "aarch64", "x86" */
  char cpu_model[128];
  uint32_t sockets;      /* 0: unknown */
  uint32_t cores;        /* physical cores, all sockets */
  uint32_t logical_cpus;
  uint32_t numa_nodes;
  uint64_t memory_bytes; /* physical memory */
  char build[128];       /* how iospd was built: compiler and flags
                            ("gcc 12.2.0", "mingw-w64 gcc 12 x86_64") */
} iospd_env_t;

typedef struct iospd_env_target_s {
  char fs_type[32];        /* "ext4", "xfs", "tmpfs", "NTFS", "ReFS", "CSVFS" */
  uint32_t fs_block_bytes; /* block (Linux) or cluster (Windows) size */
  char device[256];        /* the disk under the target, partitions and
                              single-device dm/md layers resolved away:
                              "/dev/nvme0n1", "\\\\.\\PhysicalDrive1"; a
                              dm/md device over several disks names itself */
  char model[128];
  char firmware[64];
  char bus[32];            /* "NVMe", "SATA", "SAS", "virtio", "loop", ... */
  int rotational;          /* 1 spinning, 0 not, -1 unknown */
  char scheduler[32];      /* Linux I/O scheduler ("none", "mq-deadline") */
  uint32_t queue_depth;    /* Linux: SCSI/SATA device/queue_depth (the
                              commands the device itself queues) when
                              present, else the block layer's
                              queue/nr_requests; Windows: 0, no documented
                              query tells it (docs/environment.md) */
  char backing_file[256];  /* a loop device's backing file; else "" */
} iospd_env_target_t;

/* Fills env; never fails (unknown fields stay empty). */
void iospd_plat_env_query(iospd_env_t* env);
/* Fills t for the target at path (a file, a raw disk, a volume); never
 * fails (unknown fields stay empty, rotational -1). */
void iospd_plat_env_target(const char* path, iospd_env_target_t* t);

#endif
