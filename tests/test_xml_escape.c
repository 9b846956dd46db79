/* SPDX-License-Identifier: MIT */
/* Tests of src/base/xml_escape.c: the exact text written for every kind of byte
 * XML cannot carry, the reverse mapping, the round trip of every byte and of
 * random byte strings, and that iospd's own XML reader and the profile
 * reader take the result back unchanged. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/strbuf.h"
#include "iospd/xml.h"
#include "iospd/xml_escape.h"
#include "iospd/xml_profile.h"

static char* escaped(const char* s, unsigned flags) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_xml_append_escaped(&sb, s, flags);
  char* copy = iospd_strdup(iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
  return copy;
}

static void expect(const char* in, unsigned flags, const char* want) {
  char* got = escaped(in, flags);
  assert_string_equal(got, want);
  iospd_free(got);
}

#define B IOSPD_XML_ESC_BYTES
#define Q IOSPD_XML_ESC_QUOTES

static void test_markup_and_quotes(void** state) {
  (void)state;
  expect("a<b>&c\"d'e", 0, "a&lt;b&gt;&amp;c\"d'e");
  expect("a<b>&c\"d'e", Q, "a&lt;b&gt;&amp;c&quot;d&apos;e");
  expect("plain/\xC3\xA9t\xC3\xA9/\xE2\x82\xAC.bin", B,
         "plain/\xC3\xA9t\xC3\xA9/\xE2\x82\xAC.bin");
  expect("", B, "");
}

static void test_whitespace_del_c1_as_references(void** state) {
  (void)state;
  expect("t\tl\nc\r", 0, "t&#9;l&#10;c&#13;");
  expect("d\x7f", 0, "d&#127;");
  expect("c1\xC2\x80\xC2\x9F", 0, "c1&#128;&#159;"); /* U+0080, U+009F */
  expect("nbsp\xC2\xA0", 0, "nbsp\xC2\xA0");         /* U+00A0 stays */
}

static void test_controls(void** state) {
  (void)state;
  /* U+F001 = EF 80 81, U+F01F = EF 80 9F */
  expect("a\x01" "b\x1f", B, "a\xEF\x80\x81" "b\xEF\x80\x9F");
  expect("a\x01" "b\x0b", 0, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD");
}

static void test_invalid_utf8(void** state) {
  (void)state;
  /* 0xFF -> U+F0FF (EF 83 BF); each byte of a bad sequence on its own. */
  expect("\xff", B, "\xEF\x83\xBF");
  expect("t\xE2\x82", B, "t\xEF\x83\xA2\xEF\x82\x82");   /* truncated */
  expect("o\xC0\xAF", B, "o\xEF\x83\x80\xEF\x82\xAF");   /* overlong '/' */
  expect("o\xE0\x80\xAF", B, "o\xEF\x83\xA0\xEF\x82\x80\xEF\x82\xAF");
  expect("s\xED\xA0\x80", B, "s\xEF\x83\xAD\xEF\x82\xA0\xEF\x82\x80");
  expect("h\xF4\x90\x80\x80", B,
         "h\xEF\x83\xB4\xEF\x82\x90\xEF\x82\x80\xEF\x82\x80"); /* > U+10FFFF */
  expect("t\xE2\x82", 0, "t\xEF\xBF\xBD\xEF\xBF\xBD");
  /* A valid sequence right after a bad byte is kept. */
  expect("\x80\xE2\x82\xAC", B, "\xEF\x82\x80\xE2\x82\xAC");
}

static void test_nonchars_and_literal_escape_chars(void** state) {
  (void)state;
  /* U+FFFE is UTF-8 but not an XML character. */
  expect("\xEF\xBF\xBE", B, "\xEF\x83\xAF\xEF\x82\xBF\xEF\x82\xBE");
  expect("\xEF\xBF\xBF", 0, "\xEF\xBF\xBD");
  /* A literal U+F001 is escaped byte by byte in an escaped value ... */
  expect("\xEF\x80\x81", B, "\xEF\x83\xAF\xEF\x82\x80\xEF\x82\x81");
  /* ... and left alone otherwise (no Escaped attribute, nothing decoded). */
  expect("\xEF\x80\x81", 0, "\xEF\x80\x81");
  /* U+F000 is never an escape: kept in both modes. */
  expect("\xEF\x80\x80", B, "\xEF\x80\x80");
}

static void test_needs_byte_escape(void** state) {
  (void)state;
  assert_false(
      iospd_xml_needs_byte_escape("plain <&> \t\r\n\x7f \xE2\x82\xAC"));
  assert_false(iospd_xml_needs_byte_escape("lit \xEF\x80\x81"));
  assert_true(iospd_xml_needs_byte_escape("c\x01"));
  assert_true(iospd_xml_needs_byte_escape("c\x1b"));
  assert_true(iospd_xml_needs_byte_escape("b\xff"));
  assert_true(iospd_xml_needs_byte_escape("t\xE2\x82"));
  assert_true(iospd_xml_needs_byte_escape("n\xEF\xBF\xBF"));
}

static void test_unescape(void** state) {
  (void)state;
  char* s = iospd_xml_unescape_bytes("a\xEF\x80\x81z\xEF\x83\xBF\xEF\x80\x80");
  assert_string_equal(s, "a\x01z\xff\xEF\x80\x80");
  iospd_free(s);
  s = iospd_xml_unescape_bytes("\xEF\x80"); /* cut short: copied */
  assert_string_equal(s, "\xEF\x80");
  iospd_free(s);
}

/* Parses <P Escaped="U+F0NN">escaped</P> with iospd's XML reader, undoes the
 * escape, and checks that the original bytes come back. */
static void round_trip(const char* original) {
  iospd_strbuf_t doc;
  iospd_strbuf_init(&doc);
  iospd_strbuf_append(&doc, "<P>");
  iospd_xml_append_escaped(&doc, original, B);
  iospd_strbuf_append(&doc, "</P>");
  iospd_xml_doc_t* x = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_xml_parse(iospd_strbuf_cstr(&doc), doc.len, &x, &err);
  if (rc != 0) fprintf(stderr, "%s\n", err.msg);
  assert_int_equal(rc, 0);
  char* back = iospd_xml_unescape_bytes(iospd_xml_root(x)->text);
  assert_string_equal(back, original);
  iospd_free(back);
  iospd_xml_free(x);
  iospd_strbuf_destroy(&doc);
}

static void test_every_byte_round_trips(void** state) {
  (void)state;
  for (unsigned b = 1; b < 256; b++) {
    char s[4] = {'x', (char)b, 'y', 0};
    round_trip(s);
  }
}

static void test_random_bytes_round_trip(void** state) {
  (void)state;
  uint64_t r = 0x243F6A8885A308D3ull;
  for (int n = 0; n < 2000; n++) {
    char s[33];
    size_t len = (size_t)(n % 32) + 1;
    for (size_t i = 0; i < len; i++) {
      r ^= r << 13;
      r ^= r >> 7;
      r ^= r << 17;
      /* Lean on the interesting bytes: EF 80..83 (escape chars), C0..F4. */
      unsigned v = (unsigned)(r >> 24) & 0xFF;
      if ((r & 3) == 0) v = (r & 4) ? 0xEF : 0x80 + (unsigned)((r >> 8) & 3);
      s[i] = (char)(v == 0 ? 1 : v);
    }
    s[len] = '\0';
    round_trip(s);
  }
}

/* The profile reader: a <Path Escaped="U+F0NN"> gives the raw bytes, and a
 * value other than U+F0NN is refused with the element named. */
static void test_profile_reader(void** state) {
  (void)state;
  static const char head[] =
      "<Profile><TimeSpans><TimeSpan><Targets><Target>";
  static const char tail[] =
      "</Target></Targets></TimeSpan></TimeSpans></Profile>";
  iospd_strbuf_t doc;
  iospd_strbuf_init(&doc);
  iospd_strbuf_appendf(&doc, "%s<Path Escaped=\"U+F0NN\">", head);
  iospd_xml_append_escaped(&doc, "/t/a\x01\xff&#<", B);
  iospd_strbuf_appendf(&doc, "</Path>%s", tail);
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_xml_profile_parse(iospd_strbuf_cstr(&doc), doc.len,
                                           &p, &err),
                   0);
  assert_string_equal(p.timespans[0].targets[0].path, "/t/a\x01\xff&#<");
  iospd_profile_destroy(&p);

  iospd_strbuf_reset(&doc);
  iospd_strbuf_appendf(&doc, "%s<Path Escaped=\"yes\">x</Path>%s", head, tail);
  iospd_profile_init(&p);
  assert_int_not_equal(iospd_xml_profile_parse(iospd_strbuf_cstr(&doc),
                                               doc.len, &p, &err),
                       0);
  assert_non_null(strstr(err.msg, "<Path Escaped=\"yes\"> is not understood"));
  iospd_profile_destroy(&p);
  iospd_strbuf_destroy(&doc);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_markup_and_quotes),
      cmocka_unit_test(test_whitespace_del_c1_as_references),
      cmocka_unit_test(test_controls),
      cmocka_unit_test(test_invalid_utf8),
      cmocka_unit_test(test_nonchars_and_literal_escape_chars),
      cmocka_unit_test(test_needs_byte_escape),
      cmocka_unit_test(test_unescape),
      cmocka_unit_test(test_every_byte_round_trips),
      cmocka_unit_test(test_random_bytes_round_trip),
      cmocka_unit_test(test_profile_reader),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
