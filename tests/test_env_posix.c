/* SPDX-License-Identifier: MIT */
/* The Linux environment fingerprint's parsers (src/posix/env_text.c) on
 * sample texts, and its sysfs walk (src/posix/env_block.c) on a made-up
 * sysfs tree: NVMe partition, dm over one device and over two, a SATA disk
 * with NCQ, a loop device, and a dm device listing itself as its slave. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "posix/internal.h"

static void test_cpuinfo_x86(void** state) {
  (void)state;
  const char* text =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
      "model\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor  \n"
      "cpu MHz\t\t: 2445.406\n\nprocessor\t: 1\n"
      "model name\t: something else\n";
  char out[128];
  assert_true(iospd_posix_cpuinfo_model(text, out, sizeof out));
  assert_string_equal(out, "AMD EPYC 7763 64-Core Processor");
  /* Only "cpu family" and "cpu MHz": no key is exactly "cpu". */
  assert_false(iospd_posix_cpuinfo_model("cpu family\t: 6\ncpu MHz : 1\n",
                                         out, sizeof out));
  assert_string_equal(out, "");
  /* Cut to the buffer, still terminated. */
  char small[8];
  assert_true(iospd_posix_cpuinfo_model(text, small, sizeof small));
  assert_string_equal(small, "AMD EPY");
}

static void test_cpuinfo_arm_power(void** state) {
  (void)state;
  const char* arm64 =
      "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
      "CPU part\t: 0xd0c\nCPU revision\t: 1\n";
  char out[128];
  assert_true(iospd_posix_cpuinfo_model(arm64, out, sizeof out));
  assert_string_equal(out, "ARM part 0xd0c r3p1");
  const char* other =
      "CPU implementer\t: 0x99\nCPU variant\t: 0x0\nCPU part\t: 0x001\n"
      "CPU revision\t: 0\n";
  assert_true(iospd_posix_cpuinfo_model(other, out, sizeof out));
  assert_string_equal(out, "implementer 0x99 part 0x001 r0p0");
  assert_true(iospd_posix_cpuinfo_model(
      "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n",
      out, sizeof out));
  assert_string_equal(out, "POWER9 (architected), altivec supported");
  assert_true(iospd_posix_cpuinfo_model("Hardware\t: BCM2835\n", out,
                                        sizeof out));
  assert_string_equal(out, "BCM2835");
}

static void test_os_release(void** state) {
  (void)state;
  const char* text =
      "PRETTY_NAME_X=\"wrong\"\nPRETTY_NAME=\"Debian GNU/Linux 12 "
      "(bookworm)\"\nNAME=\"Debian\"\nID=debian\n";
  char out[128];
  assert_true(iospd_posix_os_release_value(text, "PRETTY_NAME", out,
                                           sizeof out));
  assert_string_equal(out, "Debian GNU/Linux 12 (bookworm)");
  assert_true(iospd_posix_os_release_value(text, "ID", out, sizeof out));
  assert_string_equal(out, "debian");
  assert_true(iospd_posix_os_release_value(
      "PRETTY_NAME=\"A \\\"quoted\\\" name\"\n", "PRETTY_NAME", out,
      sizeof out));
  assert_string_equal(out, "A \"quoted\" name");
  assert_true(iospd_posix_os_release_value("PRETTY_NAME='Single q'",
                                           "PRETTY_NAME", out, sizeof out));
  assert_string_equal(out, "Single q");
  assert_false(iospd_posix_os_release_value(text, "VERSION", out, sizeof out));
  assert_string_equal(out, "");
}

static void test_scheduler(void** state) {
  (void)state;
  char out[32];
  assert_true(iospd_posix_active_scheduler("[mq-deadline] kyber bfq none\n",
                                           out, sizeof out));
  assert_string_equal(out, "mq-deadline");
  assert_true(iospd_posix_active_scheduler("mq-deadline kyber [bfq] none\n",
                                           out, sizeof out));
  assert_string_equal(out, "bfq");
  assert_true(iospd_posix_active_scheduler("none\n", out, sizeof out));
  assert_string_equal(out, "none");
  /* Several and none marked: not a guess. */
  assert_false(iospd_posix_active_scheduler("mq-deadline none\n", out,
                                            sizeof out));
  assert_false(iospd_posix_active_scheduler("[broken", out, sizeof out));
  assert_false(iospd_posix_active_scheduler("", out, sizeof out));
}

static void test_fs_names(void** state) {
  (void)state;
  assert_string_equal(iospd_posix_fs_name(0xEF53), "ext2/ext3/ext4");
  assert_string_equal(iospd_posix_fs_name(0x01021994), "tmpfs");
  assert_string_equal(iospd_posix_fs_name(0x58465342), "xfs");
  assert_string_equal(iospd_posix_fs_name(0x794C7630), "overlay");
  /* f_type sign-extended from a signed 32-bit word. */
  assert_string_equal(iospd_posix_fs_name((unsigned long)(long)(int32_t)
                                              0x9123683E),
                      "btrfs");
  assert_null(iospd_posix_fs_name(0x12345678));
}

static FILE* text_file(const char* text) {
  FILE* f = tmpfile();
  assert_non_null(f);
  fputs(text, f);
  rewind(f);
  return f;
}

static void test_mountinfo(void** state) {
  (void)state;
  const char* text =
      "21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
      "22 21 0:20 / /dev/shm rw shared:2 - tmpfs tmpfs rw\n"
      "23 21 0:31 / /mnt/my\\040disk rw - btrfs /dev/sdb\\0401 rw\n"
      "24 21 7:3 / /mnt/img rw master:5 shared:9 - ext2 /dev/loop3 rw\n"
      "25 24 0:40 / /mnt/img rw - xfs /dev/sdc rw\n"
      "26 21 0:50 / /mnt/nooptional rw - nfs4 srv:/export rw\n";
  char type[64], src[256];
  FILE* f = text_file(text);
  /* By device, though the path says /. */
  assert_true(iospd_posix_mountinfo_find(f, 0, 20, "/", type, sizeof type,
                                         src, sizeof src));
  assert_string_equal(type, "tmpfs");
  assert_string_equal(src, "tmpfs");
  rewind(f);
  /* No device match: the longest mount point, unescaped. */
  assert_true(iospd_posix_mountinfo_find(f, 0, 99, "/mnt/my disk/sub/x", type,
                                         sizeof type, src, sizeof src));
  assert_string_equal(type, "btrfs");
  assert_string_equal(src, "/dev/sdb 1");
  rewind(f);
  /* "/mnt/my" is not a prefix of "/mnt/myx": the root mount. */
  assert_true(iospd_posix_mountinfo_find(f, 0, 99, "/mnt/my diskx", type,
                                         sizeof type, src, sizeof src));
  assert_string_equal(type, "ext4");
  rewind(f);
  /* Two mounts on one point: the later is on top. */
  assert_true(iospd_posix_mountinfo_find(f, 0, 99, "/mnt/img/f", type,
                                         sizeof type, src, sizeof src));
  assert_string_equal(type, "xfs");
  rewind(f);
  /* The device of the lower one still finds it. */
  assert_true(iospd_posix_mountinfo_find(f, 7, 3, "/mnt/img/f", type,
                                         sizeof type, src, sizeof src));
  assert_string_equal(type, "ext2");
  assert_string_equal(src, "/dev/loop3");
  rewind(f);
  assert_true(iospd_posix_mountinfo_find(f, 0, 50, NULL, type, sizeof type,
                                         src, sizeof src));
  assert_string_equal(type, "nfs4");
  assert_string_equal(src, "srv:/export");
  fclose(f);
  f = text_file("garbage line\n\n1 2 3\n");
  assert_false(iospd_posix_mountinfo_find(f, 0, 1, "/x", type, sizeof type,
                                          src, sizeof src));
  assert_string_equal(type, "");
  fclose(f);
}

/* ---- a made-up sysfs ----------------------------------------------------- */

static char root[256];

static void mkdirs(const char* rel) {
  char path[2048];
  int n = snprintf(path, sizeof path, "%s/%s", root, rel);
  assert_true(n > 0 && (size_t)n < sizeof path);
  for (char* p = path + strlen(root) + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  mkdir(path, 0755);
}

static void put(const char* rel, const char* text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", rel);
  char* slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    mkdirs(dir);
  }
  FILE* f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void link_to(const char* rel, const char* target) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", rel);
  char* slash = strrchr(dir, '/');
  if (slash != NULL) {
    *slash = '\0';
    mkdirs(dir);
  }
  assert_int_equal(symlink(target, path), 0);
}

#define NVME "devices/pci0000:00/0000:00:01.0/nvme/nvme0"
#define SATA "devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0"

static int make_tree(void** state) {
  (void)state;
  snprintf(root, sizeof root, "%s/iospd-sysfs.XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  assert_non_null(mkdtemp(root));
  /* NVMe: namespace nvme0n1 with partition p1; the controller holds the
   * model and firmware (padded as the kernel prints them). */
  put(NVME "/model", "Samsung SSD 980 PRO 1TB                 \n");
  put(NVME "/firmware_rev", "5B2QGXA7\n");
  put(NVME "/nvme0n1/uevent", "MAJOR=259\nMINOR=0\nDEVNAME=nvme0n1\n");
  link_to(NVME "/nvme0n1/device", "..");
  put(NVME "/nvme0n1/queue/rotational", "0\n");
  put(NVME "/nvme0n1/queue/scheduler", "[none] mq-deadline\n");
  put(NVME "/nvme0n1/queue/nr_requests", "1023\n");
  put(NVME "/nvme0n1/nvme0n1p1/partition", "1\n");
  put(NVME "/nvme0n1/nvme0n1p1/dev", "259:1\n");
  link_to("dev/block/259:0", "../../" NVME "/nvme0n1");
  link_to("dev/block/259:1", "../../" NVME "/nvme0n1/nvme0n1p1");
  /* dm-0 (LVM) over the partition alone. */
  put("devices/virtual/block/dm-0/dm/name", "vg-root\n");
  put("devices/virtual/block/dm-0/queue/scheduler", "none\n");
  link_to("devices/virtual/block/dm-0/slaves/nvme0n1p1",
          "../../../../pci0000:00/0000:00:01.0/nvme/nvme0/nvme0n1/nvme0n1p1");
  link_to("dev/block/253:0", "../../devices/virtual/block/dm-0");
  /* dm-1 striped over two devices: named itself. */
  put("devices/virtual/block/dm-1/dm/name", "vg-striped\n");
  put("devices/virtual/block/dm-1/queue/scheduler", "none\n");
  put("devices/virtual/block/dm-1/queue/rotational", "1\n");
  put("devices/virtual/block/dm-1/queue/nr_requests", "128\n");
  mkdirs("devices/virtual/block/dm-1/slaves/sda");
  mkdirs("devices/virtual/block/dm-1/slaves/sdb");
  link_to("dev/block/253:1", "../../devices/virtual/block/dm-1");
  /* dm-5 listing itself: must end. */
  put("devices/virtual/block/dm-5/dm/name", "loopy\n");
  put("devices/virtual/block/dm-5/dev", "253:5\n");
  link_to("devices/virtual/block/dm-5/slaves/dm-5", "..");
  link_to("dev/block/253:5", "../../devices/virtual/block/dm-5");
  /* A SATA disk with NCQ (32 tags; the block layer's queue is 64). */
  put(SATA "/model", "Samsung SSD 860 \n");
  put(SATA "/rev", "4B6Q\n");
  put(SATA "/queue_depth", "32\n");
  put(SATA "/block/sda/uevent", "DEVNAME=sda\n");
  link_to(SATA "/block/sda/device", "../..");
  put(SATA "/block/sda/queue/rotational", "0\n");
  put(SATA "/block/sda/queue/scheduler", "[mq-deadline] none\n");
  put(SATA "/block/sda/queue/nr_requests", "64\n");
  link_to("dev/block/8:0", "../../" SATA "/block/sda");
  put("class/ata_link/link3/sata_spd", "6.0 Gbps\n");
  /* A loop device. */
  put("devices/virtual/block/loop3/loop/backing_file", "/tmp/disk img\n");
  put("devices/virtual/block/loop3/queue/rotational", "1\n");
  put("devices/virtual/block/loop3/queue/scheduler", "[none] mq-deadline\n");
  put("devices/virtual/block/loop3/queue/nr_requests", "128\n");
  put("devices/virtual/block/loop3/uevent", "DEVNAME=loop3\n");
  link_to("dev/block/7:3", "../../devices/virtual/block/loop3");
  return 0;
}

static int remove_tree(void** state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  return system(cmd) == 0 ? 0 : -1;
}

static iospd_env_target_t block(unsigned maj, unsigned min) {
  iospd_env_target_t t;
  memset(&t, 0, sizeof t);
  t.rotational = -1;
  iospd_posix_env_block(root, maj, min, &t);
  return t;
}

static void test_nvme_partition(void** state) {
  (void)state;
  iospd_env_target_t t = block(259, 1);
  assert_string_equal(t.device, "/dev/nvme0n1");
  assert_string_equal(t.model, "Samsung SSD 980 PRO 1TB");
  assert_string_equal(t.firmware, "5B2QGXA7");
  assert_string_equal(t.bus, "NVMe");
  assert_int_equal(t.rotational, 0);
  assert_string_equal(t.scheduler, "none");
  assert_int_equal(t.queue_depth, 1023);
  assert_string_equal(t.backing_file, "");
}

static void test_dm_stacks(void** state) {
  (void)state;
  iospd_env_target_t t = block(253, 0); /* over one partition: its disk */
  assert_string_equal(t.device, "/dev/nvme0n1");
  assert_string_equal(t.bus, "NVMe");
  assert_int_equal(t.queue_depth, 1023);
  t = block(253, 1); /* over two: itself */
  assert_string_equal(t.device, "/dev/mapper/vg-striped");
  assert_string_equal(t.bus, "dm");
  assert_string_equal(t.model, "");
  assert_int_equal(t.rotational, 1);
  assert_string_equal(t.scheduler, "none");
  assert_int_equal(t.queue_depth, 128);
  t = block(253, 5); /* a loop in the tree: stops, learns nothing */
  assert_string_equal(t.device, "");
  assert_int_equal(t.rotational, -1);
  t = block(1, 99); /* unknown device */
  assert_string_equal(t.device, "");
  assert_int_equal(t.rotational, -1);
}

static void test_sata_and_loop(void** state) {
  (void)state;
  iospd_env_target_t t = block(8, 0);
  assert_string_equal(t.device, "/dev/sda");
  assert_string_equal(t.model, "Samsung SSD 860");
  assert_string_equal(t.firmware, "4B6Q");
  assert_string_equal(t.bus, "SATA");
  assert_string_equal(t.scheduler, "mq-deadline");
  assert_int_equal(t.queue_depth, 32); /* the device's, not nr_requests */
  put("class/ata_link/link3/sata_spd", "<unknown>\n");
  t = block(8, 0);
  assert_string_equal(t.bus, "ATA");
  t = block(7, 3);
  assert_string_equal(t.device, "/dev/loop3");
  assert_string_equal(t.bus, "loop");
  assert_string_equal(t.backing_file, "/tmp/disk img");
  assert_int_equal(t.rotational, 1);
  assert_int_equal(t.queue_depth, 128);
}

static void test_bus_names(void** state) {
  (void)state;
  char out[32];
  iospd_posix_bus_name(root,
                       "/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda",
                       "vda", out, sizeof out);
  assert_string_equal(out, "virtio");
  iospd_posix_bus_name(root,
                       "/sys/devices/pci0000:00/0000:00:04.0/virtio2/host0/"
                       "target0:0:0/0:0:0:0/block/sda",
                       "sda", out, sizeof out);
  assert_string_equal(out, "virtio-scsi");
  iospd_posix_bus_name(root,
                       "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/"
                       "host6/target6:0:0/6:0:0:0/block/sdc",
                       "sdc", out, sizeof out);
  assert_string_equal(out, "USB");
  iospd_posix_bus_name(root,
                       "/sys/devices/pci0000:00/0000:00:03.0/0000:02:00.0/"
                       "host0/port-0:0/end_device-0:0/target0:0:0/0:0:0:0/"
                       "block/sdb",
                       "sdb", out, sizeof out);
  assert_string_equal(out, "SAS");
  iospd_posix_bus_name(root, "/sys/devices/virtual/block/zram0", "zram0", out,
                       sizeof out);
  assert_string_equal(out, "zram");
  iospd_posix_bus_name(root, "/sys/devices/virtual/block/ram0", "ram0", out,
                       sizeof out);
  assert_string_equal(out, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cpuinfo_x86),
      cmocka_unit_test(test_cpuinfo_arm_power),
      cmocka_unit_test(test_os_release),
      cmocka_unit_test(test_scheduler),
      cmocka_unit_test(test_fs_names),
      cmocka_unit_test(test_mountinfo),
      cmocka_unit_test(test_nvme_partition),
      cmocka_unit_test(test_dm_stacks),
      cmocka_unit_test(test_sata_and_loop),
      cmocka_unit_test(test_bus_names),
  };
  return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
