/* SPDX-License-Identifier: MIT */
/* The Windows environment fingerprint's pure helpers (src/win/storage_desc.c):
 * the STORAGE_BUS_TYPE names, trimming of space-padded descriptor strings,
 * and reading crafted STORAGE_DEVICE_DESCRIPTOR buffers: SCSI-style padded
 * fields, absent strings (offset 0), offsets past the answer or past Size,
 * unterminated and non-ASCII strings, and answers too short to read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "win/internal.h"

#include <winioctl.h>

static void test_bus_names(void** state) {
  (void)state;
  assert_string_equal(iospd_win_bus_name(BusTypeNvme), "NVMe");
  assert_string_equal(iospd_win_bus_name(BusTypeSata), "SATA");
  assert_string_equal(iospd_win_bus_name(BusTypeSas), "SAS");
  assert_string_equal(iospd_win_bus_name(BusTypeScsi), "SCSI");
  assert_string_equal(iospd_win_bus_name(BusTypeUsb), "USB");
  assert_string_equal(iospd_win_bus_name(BusTypeiScsi), "iSCSI");
  assert_string_equal(iospd_win_bus_name(BusTypeSpaces), "Storage Spaces");
  assert_string_equal(iospd_win_bus_name(BusTypeFileBackedVirtual),
                      "file-backed virtual");
  assert_string_equal(iospd_win_bus_name(0x14), "NVMe-oF");
  assert_string_equal(iospd_win_bus_name(BusTypeUnknown), "");
  assert_string_equal(iospd_win_bus_name(0x15), "");
  assert_string_equal(iospd_win_bus_name(0x7F), "");
  assert_string_equal(iospd_win_bus_name(0xFFFFFFFFu), "");
}

static void test_trim(void** state) {
  (void)state;
  char a[] = "  SEAGATE ";
  iospd_win_trim_ascii(a);
  assert_string_equal(a, "SEAGATE");
  char b[] = "ST4000NM0023    ";
  iospd_win_trim_ascii(b);
  assert_string_equal(b, "ST4000NM0023");
  char c[] = "    ";
  iospd_win_trim_ascii(c);
  assert_string_equal(c, "");
  char d[] = "";
  iospd_win_trim_ascii(d);
  assert_string_equal(d, "");
  char e[] = "\tA B\t";
  iospd_win_trim_ascii(e);
  assert_string_equal(e, "A B");
}

/* A descriptor with its strings after the fixed part. */
typedef struct crafted_s {
  union {
    STORAGE_DEVICE_DESCRIPTOR d;
    unsigned char b[256];
  } u;
  size_t end; /* bytes used */
} crafted_t;

static void craft(crafted_t* c) {
  memset(c, 0, sizeof *c);
  c->end = sizeof c->u.d;
  c->u.d.Version = sizeof c->u.d;
}

static DWORD add(crafted_t* c, const char* s, size_t n) {
  DWORD off = (DWORD)c->end;
  memcpy(c->u.b + c->end, s, n);
  c->end += n;
  c->u.d.Size = (DWORD)c->end;
  return off;
}

static iospd_env_target_t parse(const crafted_t* c, size_t len) {
  iospd_env_target_t t;
  memset(&t, 0, sizeof t);
  t.rotational = -1;
  iospd_win_parse_device_descriptor(c->u.b, len, &t);
  return t;
}

static void test_scsi_padded(void** state) {
  (void)state;
  crafted_t c;
  craft(&c);
  /* SCSI INQUIRY fields: 8, 16 and 4 bytes, space padded. */
  c.u.d.VendorIdOffset = add(&c, "SEAGATE \0", 9);
  c.u.d.ProductIdOffset = add(&c, "ST4000NM0023    \0", 17);
  c.u.d.ProductRevisionOffset = add(&c, "0004\0", 5);
  c.u.d.SerialNumberOffset = add(&c, "Z1Z2Z3\0", 7);
  c.u.d.BusType = BusTypeSas;
  iospd_env_target_t t = parse(&c, c.end);
  assert_string_equal(t.model, "SEAGATE ST4000NM0023");
  assert_string_equal(t.firmware, "0004");
  assert_string_equal(t.bus, "SAS");
  assert_int_equal(t.rotational, -1); /* not the descriptor's to say */
}

static void test_absent_strings(void** state) {
  (void)state;
  crafted_t c;
  craft(&c);
  /* NVMe as stornvme answers: no vendor (offset 0), a product, a
   * revision. */
  c.u.d.ProductIdOffset = add(&c, "Samsung SSD 980 PRO 1TB\0", 24);
  c.u.d.ProductRevisionOffset = add(&c, "5B2QGXA7\0", 9);
  c.u.d.BusType = BusTypeNvme;
  iospd_env_target_t t = parse(&c, c.end);
  assert_string_equal(t.model, "Samsung SSD 980 PRO 1TB");
  assert_string_equal(t.firmware, "5B2QGXA7");
  assert_string_equal(t.bus, "NVMe");
  /* Nothing at all: offsets 0, bus unknown. */
  craft(&c);
  t = parse(&c, c.end);
  assert_string_equal(t.model, "");
  assert_string_equal(t.firmware, "");
  assert_string_equal(t.bus, "");
}

static void test_offsets_out_of_range(void** state) {
  (void)state;
  crafted_t c;
  craft(&c);
  c.u.d.VendorIdOffset = add(&c, "ATA\0", 4);
  c.u.d.ProductIdOffset = add(&c, "DISK\0", 5);
  c.u.d.ProductRevisionOffset = 5000; /* far past everything */
  c.u.d.BusType = BusTypeSata;
  iospd_env_target_t t = parse(&c, c.end);
  assert_string_equal(t.model, "ATA DISK");
  assert_string_equal(t.firmware, "");
  /* The answer cut before the product string: the vendor alone. */
  t = parse(&c, c.u.d.ProductIdOffset);
  assert_string_equal(t.model, "ATA");
  /* Size says the descriptor ends before the product: not read past it,
   * though more bytes came back. */
  c.u.d.Size = c.u.d.ProductIdOffset;
  t = parse(&c, c.end);
  assert_string_equal(t.model, "ATA");
  assert_string_equal(t.bus, "SATA");
}

static void test_unterminated_and_non_ascii(void** state) {
  (void)state;
  crafted_t c;
  craft(&c);
  c.u.d.VendorIdOffset = add(&c, "V\xe9ndor\0", 7);
  c.u.d.ProductIdOffset = add(&c, "CUT", 3); /* no NUL before the end */
  iospd_env_target_t t = parse(&c, c.end);
  assert_string_equal(t.model, "V?ndor CUT");
  char out[4];
  /* Cut to the output buffer. */
  assert_true(iospd_win_desc_string(c.u.b, c.end, c.u.d.VendorIdOffset, out,
                                    sizeof out));
  assert_string_equal(out, "V?n");
  assert_false(iospd_win_desc_string(c.u.b, c.end, 0, out, sizeof out));
  assert_string_equal(out, "");
  assert_false(iospd_win_desc_string(c.u.b, c.end, (uint32_t)c.end, out,
                                     sizeof out));
}

static void test_short_answers(void** state) {
  (void)state;
  crafted_t c;
  craft(&c);
  c.u.d.ProductIdOffset = add(&c, "DISK\0", 5);
  c.u.d.BusType = BusTypeNvme;
  /* Only the header came back (a STORAGE_DESCRIPTOR_HEADER query): no
   * offsets, no bus. */
  iospd_env_target_t t = parse(&c, 8);
  assert_string_equal(t.model, "");
  assert_string_equal(t.bus, "");
  /* Up to BusType exactly: the bus, no strings beyond the answer. */
  t = parse(&c, offsetof(STORAGE_DEVICE_DESCRIPTOR, BusType) +
                    sizeof c.u.d.BusType);
  assert_string_equal(t.bus, "NVMe");
  assert_string_equal(t.model, "");
  t = parse(&c, 0);
  assert_string_equal(t.bus, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bus_names),
      cmocka_unit_test(test_trim),
      cmocka_unit_test(test_scsi_padded),
      cmocka_unit_test(test_absent_strings),
      cmocka_unit_test(test_offsets_out_of_range),
      cmocka_unit_test(test_unterminated_and_non_ascii),
      cmocka_unit_test(test_short_answers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
