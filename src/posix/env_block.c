/* SPDX-License-Identifier: MIT */
/* The block device under a target, from sysfs (envinfo.c): partitions to
 * their disk, a dm or md device over one device to that device, and the
 * disk's model, firmware, bus, rotational flag, I/O scheduler and queue
 * depth. Every path is read under a sysfs root given by the caller
 * ("/sys", or a made-up tree in tests/test_env_posix.c). */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "posix/internal.h"

/* A device stacked deeper than this is named as it is, not followed. */
#define MAX_STACK 8

/* Reads a small sysfs attribute, trimmed; "" if it cannot be read. */
static bool attr(const char* dir, const char* name, char* out, size_t size) {
  char path[PATH_MAX + 64];
  out[0] = '\0';
  int n = snprintf(path, sizeof path, "%s/%s", dir, name);
  if (n < 0 || (size_t)n >= sizeof path) return false;
  FILE* f = fopen(path, "re");
  if (f == NULL) return false;
  size_t got = fread(out, 1, size - 1, f);
  fclose(f);
  out[got] = '\0';
  iospd_posix_trim(out);
  return out[0] != '\0';
}

static bool attr_u32(const char* dir, const char* name, uint32_t* v) {
  char buf[32];
  if (!attr(dir, name, buf, sizeof buf)) return false;
  char* end;
  unsigned long x = strtoul(buf, &end, 10);
  if (end == buf || *end != '\0' || x > UINT32_MAX) return false;
  *v = (uint32_t)x;
  return true;
}

static bool exists(const char* dir, const char* name) {
  char path[PATH_MAX + 64];
  int n = snprintf(path, sizeof path, "%s/%s", dir, name);
  return n > 0 && (size_t)n < sizeof path && access(path, F_OK) == 0;
}

/* The one entry of dir/slaves, if there is exactly one. */
static bool single_slave(const char* dir, char* name, size_t size) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/slaves", dir);
  DIR* d = opendir(path);
  if (d == NULL) return false;
  int n = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n++ == 0) snprintf(name, size, "%s", e->d_name);
  }
  closedir(d);
  return n == 1;
}

/* "/ata3/" in a device path: libata port 3 (number into *port). */
static bool ata_port(const char* devpath, unsigned* port) {
  for (const char* p = strstr(devpath, "/ata"); p != NULL;
       p = strstr(p + 1, "/ata")) {
    char* end;
    unsigned long n = strtoul(p + 4, &end, 10);
    if (end != p + 4 && *end == '/') {
      *port = (unsigned)n;
      return true;
    }
  }
  return false;
}

void iospd_posix_bus_name(const char* sysroot, const char* devpath,
                          const char* name, char* out, size_t size) {
  const char* bus = "";
  unsigned port;
  bool scsi = strstr(devpath, "/host") != NULL &&
              strstr(devpath, "/target") != NULL;
  if (strncmp(name, "loop", 4) == 0 && strstr(devpath, "/virtual/")) {
    bus = "loop";
  } else if (strstr(devpath, "/nvme")) {
    bus = "NVMe";
  } else if (strstr(devpath, "/usb")) {
    bus = "USB";
  } else if (ata_port(devpath, &port)) {
    /* libata drives SATA and parallel ATA alike; a SATA link knows its
     * speed, a PATA one says "<unknown>". */
    char dir[PATH_MAX], spd[64];
    snprintf(dir, sizeof dir, "%s/class/ata_link/link%u", sysroot, port);
    bus = attr(dir, "sata_spd", spd, sizeof spd) &&
                  strcmp(spd, "<unknown>") != 0
              ? "SATA"
              : "ATA";
  } else if (strstr(devpath, "/end_device-")) {
    bus = "SAS";
  } else if (strstr(devpath, "/rport-")) {
    bus = "Fibre Channel";
  } else if (strstr(devpath, "/session") && scsi) {
    bus = "iSCSI";
  } else if (strstr(devpath, "/virtio")) {
    bus = scsi ? "virtio-scsi" : "virtio";
  } else if (strstr(devpath, "/mmc_host/")) {
    bus = "MMC";
  } else if (strstr(devpath, "/vbd-")) {
    bus = "Xen";
  } else if (scsi) {
    bus = "SCSI";
  } else if (strncmp(name, "dm-", 3) == 0) {
    bus = "dm";
  } else if (strncmp(name, "md", 2) == 0 && exists(devpath, "md")) {
    bus = "md";
  } else if (strncmp(name, "zram", 4) == 0) {
    bus = "zram";
  } else if (strncmp(name, "nbd", 3) == 0) {
    bus = "nbd";
  } else if (strncmp(name, "rbd", 3) == 0) {
    bus = "rbd";
  }
  snprintf(out, size, "%s", bus);
}

/* Fills t from the block device directory dir (a whole device). */
static void describe(const char* sysroot, const char* dir,
                     iospd_env_target_t* t) {
  const char* name = strrchr(dir, '/');
  name = name != NULL ? name + 1 : dir;
  /* The /dev name udev makes from the kernel's (uevent DEVNAME); a dm
   * device by its /dev/mapper name, which is the one people know. */
  char dmname[128], uevent[1024];
  if (attr(dir, "dm/name", dmname, sizeof dmname)) {
    snprintf(t->device, sizeof t->device, "/dev/mapper/%s", dmname);
  } else {
    const char* dev = name;
    char devname[256] = "";
    if (attr(dir, "uevent", uevent, sizeof uevent)) {
      const char* p = strstr(uevent, "DEVNAME=");
      if (p != NULL) {
        p += 8;
        size_t n = strcspn(p, "\n");
        if (n >= sizeof devname) n = sizeof devname - 1;
        memcpy(devname, p, n);
        devname[n] = '\0';
        if (devname[0] != '\0') dev = devname;
      }
    }
    snprintf(t->device, sizeof t->device, "/dev/%.250s", dev);
  }
  attr(dir, "device/model", t->model, sizeof t->model);
  /* NVMe controllers say firmware_rev, SCSI and ATA devices rev. */
  if (!attr(dir, "device/firmware_rev", t->firmware, sizeof t->firmware))
    attr(dir, "device/rev", t->firmware, sizeof t->firmware);
  iospd_posix_bus_name(sysroot, dir, name, t->bus, sizeof t->bus);
  uint32_t rot;
  t->rotational = attr_u32(dir, "queue/rotational", &rot) && rot <= 1
                      ? (int)rot
                      : -1;
  char sched[256];
  if (attr(dir, "queue/scheduler", sched, sizeof sched))
    iospd_posix_active_scheduler(sched, t->scheduler, sizeof t->scheduler);
  /* SCSI and SATA devices: the commands the device itself takes at once
   * (TCQ/NCQ tags); others (NVMe, virtio, loop): the block layer's
   * request queue, which is what bounds the I/Os in flight there. */
  if (!attr_u32(dir, "device/queue_depth", &t->queue_depth))
    attr_u32(dir, "queue/nr_requests", &t->queue_depth);
  if (strcmp(t->bus, "loop") == 0)
    attr(dir, "loop/backing_file", t->backing_file, sizeof t->backing_file);
}

void iospd_posix_env_block(const char* sysroot, unsigned maj, unsigned min,
                           iospd_env_target_t* t) {
  char link[PATH_MAX], dir[PATH_MAX];
  for (int depth = 0; depth < MAX_STACK; depth++) {
    snprintf(link, sizeof link, "%s/dev/block/%u:%u", sysroot, maj, min);
    if (realpath(link, dir) == NULL) return;
    /* A partition's directory sits inside its disk's. */
    if (exists(dir, "partition")) {
      char* slash = strrchr(dir, '/');
      if (slash == NULL || slash == dir) return;
      *slash = '\0';
    }
    char slave[NAME_MAX + 1], num[32];
    if (single_slave(dir, slave, sizeof slave)) {
      /* dm (LVM, dm-crypt) or md over one device: the device beneath. */
      char sdir[PATH_MAX + NAME_MAX + 16];
      snprintf(sdir, sizeof sdir, "%s/slaves/%s", dir, slave);
      if (attr(sdir, "dev", num, sizeof num) &&
          sscanf(num, "%u:%u", &maj, &min) == 2)
        continue;
    }
    /* A whole device, or a dm/md device over several: named itself. */
    describe(sysroot, dir, t);
    return;
  }
}
