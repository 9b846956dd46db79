/* SPDX-License-Identifier: MIT */
/* What the write guard finds on a disk: signatures at the start and at the
 * end of crafted device images (src/base/device_sniff.c). Runs natively and, for
 * the Windows build, under wine. */
#include "test_util.h"

#include <string.h>

#include "iospd/device_sniff.h"

static uint8_t image[IOSPD_SNIFF_BYTES];

static void detect(iospd_file_info_t* info) {
  memset(info, 0, sizeof *info);
  iospd_sniff_device_head(image, sizeof image, info);
}

static void test_head_signatures(void** state) {
  (void)state;
  iospd_file_info_t info;

  memset(image, 0, sizeof image);
  detect(&info);
  assert_false(info.has_partitions);
  assert_false(info.has_filesystem);
  assert_string_equal(info.content, "");

  image[510] = 0x55;
  image[511] = 0xAA;
  detect(&info);
  assert_true(info.has_partitions);
  assert_false(info.has_filesystem);
  assert_string_equal(info.content, "an MBR partition table");

  memcpy(image + 512, "EFI PART", 8);
  detect(&info);
  assert_string_equal(info.content, "a GPT partition table");

  /* ext4 on a whole disk: magic 0xEF53 (little-endian) at 1080 and the
   * extents feature in s_feature_incompat. */
  memset(image, 0, sizeof image);
  image[1080] = 0x53;
  image[1081] = 0xEF;
  detect(&info);
  assert_true(info.has_filesystem);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "an ext2 file system");
  image[1024 + 0x5C] = 0x04; /* has_journal */
  detect(&info);
  assert_string_equal(info.content, "an ext3 file system");
  image[1024 + 0x60] = 0x40; /* extents */
  detect(&info);
  assert_string_equal(info.content, "an ext4 file system");

  memset(image, 0, sizeof image);
  memcpy(image, "XFSB", 4);
  detect(&info);
  assert_string_equal(info.content, "an XFS file system");

  memset(image, 0, sizeof image);
  memcpy(image + 65600, "_BHRfS_M", 8);
  detect(&info);
  assert_string_equal(info.content, "a btrfs file system");

  /* NTFS and FAT boot sectors end in 0x55AA too; that is not an MBR. */
  memset(image, 0, sizeof image);
  memcpy(image + 3, "NTFS    ", 8);
  image[510] = 0x55;
  image[511] = 0xAA;
  detect(&info);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "an NTFS file system");
  memset(image + 3, 0, 8);
  memcpy(image + 82, "FAT32   ", 8);
  detect(&info);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "a FAT32 file system");

  memset(image, 0, sizeof image);
  memcpy(image + 4096 - 10, "SWAPSPACE2", 10);
  detect(&info);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content, "swap space");

  /* A protective MBR plus GPT plus (odd, but possible) ext4 at 1024. */
  memset(image, 0, sizeof image);
  image[510] = 0x55;
  image[511] = 0xAA;
  memcpy(image + 512, "EFI PART", 8);
  image[1080] = 0x53;
  image[1081] = 0xEF;
  image[1024 + 0x60] = 0x40;
  detect(&info);
  assert_true(info.has_partitions);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "a GPT partition table and an ext4 file system");

  /* Short buffers are safe: the btrfs offset is past the end. */
  memset(image, 0, sizeof image);
  memcpy(image + 65600, "_BHRfS_M", 8);
  memset(&info, 0, sizeof info);
  iospd_sniff_device_head(image, 4096, &info);
  assert_false(info.has_filesystem);

  /* md RAID 1.2 super block at 4 KiB (magic 0xa92b4efc little-endian), 1.1
   * at 0; bcache; f2fs; ZFS uberblocks in the label. */
  static const struct {
    size_t off;
    const char* bytes;
    size_t n;
    const char* want;
  } sigs[] = {
      {4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID member"},
      {0, "\xfc\x4e\x2b\xa9", 4, "an md RAID member"},
      {4096 + 24,
       "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81",
       16, "a bcache device"},
      {1024, "\x10\x20\xf5\xf2", 4, "an f2fs file system"},
      {128 * 1024 + 5 * 1024, "\x0c\xb1\xba\x00\x00\x00\x00\x00", 8,
       "a ZFS pool member"},
      {256 * 1024 + 128 * 1024, "\x00\x00\x00\x00\x00\xba\xb1\x0c", 8,
       "a ZFS pool member"},
  };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    memset(image, 0, sizeof image);
    memcpy(image + sigs[i].off, sigs[i].bytes, sigs[i].n);
    detect(&info);
    assert_true(info.has_filesystem);
    assert_string_equal(info.content, sigs[i].want);
  }
}

static void test_tail_signatures(void** state) {
  (void)state;
  iospd_file_info_t info;
  /* The end of a device: md 1.0 super block (8 KiB before the end, 4 KiB
   * aligned), md 0.90 (last 64 KiB-aligned 64 KiB), backup GPT header in
   * the last sector, unknown bytes, and all zeros. The buffer is the end of
   * a 10 MiB + 512 byte device, read (at most 1 MiB) from a 4 KiB-aligned
   * base, as both platforms read it. */
  const uint64_t size = 10u * 1024 * 1024 + 512;
  const uint64_t base = (size - sizeof image + 4095) / 4096 * 4096;
  assert_int_equal(iospd_sniff_tail_base(size), base);
  /* No larger than the window: the start covered it. One sector more:
   * the read starts at 4 KiB and stays within the window. */
  assert_int_equal(iospd_sniff_tail_base(sizeof image), 0);
  assert_int_equal(iospd_sniff_tail_base(sizeof image + 512), 4096);
  const size_t len = (size_t)(size - base);
  const struct {
    uint64_t at;
    const char* bytes;
    size_t n;
    const char* want;
    bool table;
  } tails[] = {
      {((size / 512 - 16) & ~7ull) * 512, "\xfc\x4e\x2b\xa9", 4,
       "an md RAID member", false},
      {(size & ~0xffffull) - 65536, "\xfc\x4e\x2b\xa9", 4,
       "an md RAID member", false},
      {size - 512, "EFI PART", 8, "a GPT partition table", true},
      {size - 3000, "\x01", 1,
       "data of an unknown kind (the last megabyte is not all zeros)", false},
  };
  assert_int_equal(((size / 512 - 16) & ~7ull) * 512, size - 8704);
  for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
    memset(image, 0, sizeof image);
    memcpy(image + (tails[i].at - base), tails[i].bytes, tails[i].n);
    memset(&info, 0, sizeof info);
    iospd_sniff_device_tail(image, len, base, size, &info);
    assert_string_equal(info.content, tails[i].want);
    assert_int_equal(info.has_partitions, tails[i].table);
    assert_int_equal(info.has_filesystem, !tails[i].table);
  }
  memset(image, 0, sizeof image);
  memset(&info, 0, sizeof info);
  iospd_sniff_device_tail(image, len, base, size, &info);
  assert_string_equal(info.content, "");
  assert_false(info.has_filesystem);
}

/* Content found at the start is what the report names; the end adds
 * nothing then. */
static void test_tail_keeps_head_findings(void** state) {
  (void)state;
  iospd_file_info_t info;
  memset(image, 0, sizeof image);
  memcpy(image + 3, "NTFS    ", 8);
  detect(&info);
  memset(image, 0, sizeof image);
  memcpy(image + sizeof image - 512, "EFI PART", 8);
  iospd_sniff_device_tail(image, sizeof image, 0, sizeof image, &info);
  assert_string_equal(info.content, "an NTFS file system");
  assert_false(info.has_partitions);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_head_signatures),
      cmocka_unit_test(test_tail_signatures),
      cmocka_unit_test(test_tail_keeps_head_findings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
