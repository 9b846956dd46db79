/* SPDX-License-Identifier: MIT */
/* Tests of the strict XML reader: what a good document turns into (names,
 * text, attributes, positions) and the exact line/column message for every
 * class of malformed input, including DTD/entity refusal and the limits. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/xml.h"

typedef const iospd_xml_node_t node_t;

static iospd_xml_doc_t* parse_ok(const char* text) {
  iospd_xml_doc_t* doc = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_xml_parse(text, strlen(text), &doc, &err);
  if (rc != 0) fprintf(stderr, "unexpected error: %s\n", err.msg);
  assert_int_equal(rc, 0);
  assert_non_null(doc);
  return doc;
}

/* Parses text, expects IOSPD_EPARSE and exactly the message want. */
static void expect_error(const char* text, size_t len, const char* want) {
  iospd_xml_doc_t* doc = (iospd_xml_doc_t*)1;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_xml_parse(text, len, &doc, &err);
  assert_int_equal(rc, IOSPD_EPARSE);
  assert_int_equal(err.code, IOSPD_EPARSE);
  assert_null(doc);
  assert_string_equal(err.msg, want);
}

static void bad(const char* text, const char* want) {
  expect_error(text, strlen(text), want);
}

static node_t* child(node_t* n, int index) {
  node_t* c = n->first_child;
  while (c && index-- > 0) c = c->next_sibling;
  assert_non_null(c);
  return c;
}

static void test_good_document(void** state) {
  (void)state;
  const char* text =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\" "
      "standalone=\"yes\"?>\n"
      "<!-- leading comment -->\n"
      "<?editor hint?>\n"
      "<Profile a=\"1\" b='two &amp; &#x33;'>\n"
      "  <Path>C:\\a &lt;b&gt; &quot;c&quot; &apos;d&apos; &#65;&#x42;</Path>\n"
      "  <Empty/>\n"
      "  <Mixed>one<!-- c -->two<![CDATA[<three> & ]]]]>four</Mixed>\n"
      "  <Utf>\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80</Utf>\n"
      "</Profile>\n"
      "<!-- trailing comment -->\n";
  iospd_xml_doc_t* doc = parse_ok(text);
  node_t* r = iospd_xml_root(doc);
  assert_string_equal(r->name, "Profile");
  assert_int_equal(r->line, 4);
  assert_int_equal(r->column, 1);
  assert_null(r->parent);
  assert_string_equal(iospd_xml_attr(r, "a"), "1");
  assert_string_equal(iospd_xml_attr(r, "b"), "two & 3");
  assert_null(iospd_xml_attr(r, "c"));

  node_t* path = child(r, 0);
  assert_string_equal(path->name, "Path");
  assert_string_equal(path->text, "C:\\a <b> \"c\" 'd' AB");
  assert_int_equal(path->line, 5);
  assert_int_equal(path->column, 3);
  assert_ptr_equal(path->parent, r);

  node_t* empty = child(r, 1);
  assert_string_equal(empty->name, "Empty");
  assert_string_equal(empty->text, "");
  assert_null(empty->first_child);

  node_t* mixed = child(r, 2);
  assert_string_equal(mixed->text, "onetwo<three> & ]]four");

  node_t* utf = child(r, 3);
  assert_string_equal(utf->text, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  assert_null(utf->next_sibling);
  /* The root's own text is the whitespace between its children. */
  assert_string_equal(r->text, "\n  \n  \n  \n  \n");
  iospd_xml_free(doc);
}

static void test_nested_text_and_line_ends(void** state) {
  (void)state;
  /* CR LF and lone CR become LF; text of a parent is not mixed with its
   * children's text. */
  const char* text = "<a>x\r\n<b>in\rner</b>y<c>z</c>\rw</a>";
  iospd_xml_doc_t* doc = parse_ok(text);
  node_t* a = iospd_xml_root(doc);
  assert_string_equal(a->text, "x\ny\nw");
  assert_string_equal(child(a, 0)->text, "in\nner");
  assert_int_equal(child(a, 0)->line, 2);
  assert_int_equal(child(a, 1)->text[0], 'z');
  assert_int_equal(child(a, 1)->line, 3);
  iospd_xml_free(doc);
}

static void test_attribute_normalisation(void** state) {
  (void)state;
  iospd_xml_doc_t* doc = parse_ok("<a v=\"1\t2\n3\r\n4&#9;5\" w = 'x\"y' />");
  node_t* a = iospd_xml_root(doc);
  assert_string_equal(iospd_xml_attr(a, "v"), "1 2 3 4\t5");
  assert_string_equal(iospd_xml_attr(a, "w"), "x\"y");
  assert_string_equal(a->text, "");
  iospd_xml_free(doc);
}

static void test_depth_limit(void** state) {
  (void)state;
  char buf[4096];
  size_t n = 0;
  for (int i = 0; i < IOSPD_XML_MAX_DEPTH; i++) {
    n += (size_t)sprintf(buf + n, "<e>");
  }
  for (int i = 0; i < IOSPD_XML_MAX_DEPTH; i++) {
    n += (size_t)sprintf(buf + n, "</e>");
  }
  iospd_xml_doc_t* doc = parse_ok(buf);
  iospd_xml_free(doc);

  n = 0;
  for (int i = 0; i <= IOSPD_XML_MAX_DEPTH; i++) {
    n += (size_t)sprintf(buf + n, "<e>");
  }
  char want[128];
  snprintf(want, sizeof want,
           "line 1, column %d: elements are nested more than %d levels deep",
           IOSPD_XML_MAX_DEPTH * 3 + 1, IOSPD_XML_MAX_DEPTH);
  bad(buf, want);
}

static void test_size_limit(void** state) {
  (void)state;
  size_t len = (size_t)IOSPD_XML_MAX_SIZE + 1;
  char* big = iospd_malloc(len);
  assert_non_null(big);
  memset(big, ' ', len);
  memcpy(big, "<a>", 3);
  memcpy(big + len - 4, "</a>", 4);
  expect_error(big, len,
               "line 1, column 1: the document is larger than the 16 MiB "
               "limit");
  iospd_free(big);
}

static void test_doctype_and_entities_refused(void** state) {
  (void)state;
  bad("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n "
      "<!ENTITY lol2 \"&lol;&lol;&lol;\">\n]>\n<lolz>&lol2;</lolz>",
      "line 2, column 1: DOCTYPE declarations are not allowed: profiles may "
      "not define a DTD or entities");
  bad("<!DOCTYPE Profile SYSTEM \"file:///etc/passwd\"><Profile/>",
      "line 1, column 1: DOCTYPE declarations are not allowed: profiles may "
      "not define a DTD or entities");
  bad("<a>\n  &xxe;</a>",
      "line 2, column 3: unknown entity '&xxe;': only &lt; &gt; &amp; &quot; "
      "&apos; and numeric character references are allowed");
  bad("<a v='&foo;'/>",
      "line 1, column 7: unknown entity '&foo;': only &lt; &gt; &amp; &quot; "
      "&apos; and numeric character references are allowed");
  bad("<a>fish & chips</a>",
      "line 1, column 9: '&' must start a reference such as &amp; or &#38; "
      "(write a literal & as &amp;)");
  bad("<a>x</a><!ENTITY e 'v'>",
      "line 1, column 9: entity declarations are not allowed");
}

static void test_character_references(void** state) {
  (void)state;
  iospd_xml_doc_t* doc = parse_ok("<a>&#233;&#x20AC;&#x1F600;&#x10FFFF;</a>");
  assert_string_equal(iospd_xml_root(doc)->text,
                      "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF");
  iospd_xml_free(doc);
  bad("<a>&#0;</a>",
      "line 1, column 4: character reference '&#0;' is not a character XML "
      "allows");
  bad("<a>&#xD800;</a>",
      "line 1, column 4: character reference '&#xD800;' is not a character "
      "XML allows");
  bad("<a>&#x110000;</a>",
      "line 1, column 4: character reference '&#x110000;' is not a character "
      "XML allows");
  bad("<a>&#99999999999;</a>",
      "line 1, column 4: character reference '&#99999999999;' is not a "
      "character XML allows");
  bad("<a>&#xFFFE;</a>",
      "line 1, column 4: character reference '&#xFFFE;' is not a character "
      "XML allows");
  bad("<a>&#x1B;</a>",
      "line 1, column 4: character reference '&#x1B;' is not a character XML "
      "allows");
  bad("<a>&#12a;</a>",
      "line 1, column 4: malformed character reference '&#12a;'");
  bad("<a>&#x;</a>", "line 1, column 4: malformed character reference '&#x;'");
}

static void test_structure_errors(void** state) {
  (void)state;
  bad("<Profile>\n  <Target>\n  </Targets>\n</Profile>",
      "line 3, column 3: end tag </Targets> does not match start tag "
      "<Target> of line 2");
  bad("<a></a>\ntrailing",
      "line 2, column 1: text after the end of the root element");
  bad("<a></a><b/>",
      "line 1, column 8: content after the end of the root element <a>: a "
      "document has exactly one root element");
  bad("junk<a/>", "line 1, column 1: text before the root element");
  bad("<a x='1' x=\"2\"/>",
      "line 1, column 10: duplicate attribute 'x' in <a>");
  bad("<1abc/>",
      "line 1, column 2: malformed element name: a name starts with a "
      "letter, '_' or ':'");
  bad("< a/>",
      "line 1, column 2: malformed element name: a name starts with a "
      "letter, '_' or ':'");
  bad("<a -x='1'/>",
      "line 1, column 4: malformed attribute name in <a>: a name starts with "
      "a letter, '_' or ':'");
  bad("<a x='1'y='2'/>",
      "line 1, column 9: attributes in <a> must be separated by whitespace");
  bad("<a x=1/>",
      "line 1, column 6: attribute value must be in quotes (\" or ')");
  bad("<a x/>", "line 1, column 5: expected '=' after attribute 'x'");
  bad("<a x='<'/>",
      "line 1, column 7: '<' is not allowed in an attribute value (write "
      "&lt;)");
  bad("<a x='1/>", "line 1, column 6: attribute value is not closed with '");
  bad("<a", "line 1, column 1: start tag <a> is not closed with '>'");
  bad("<a/ >", "line 1, column 3: expected '/>' or '>' to end <a>");
  bad("</a>", "line 1, column 1: end tag </a> has no matching start tag");
  bad("<a></a x>", "line 1, column 8: expected '>' to end </a>");
  bad("<a></1>", "line 1, column 6: malformed end tag name");
  bad("<a>\n<b>\n", "line 3, column 1: the document ends before <b> of line 2 "
                   "is closed");
  bad("", "line 1, column 1: the document has no root element");
  bad("  <!-- only a comment -->\n",
      "line 2, column 1: the document has no root element");
  bad("<a>x ]]> y</a>",
      "line 1, column 6: ']]>' is not allowed in text (write ]]&gt;)");
}

static void test_markup_errors(void** state) {
  (void)state;
  bad("<a><!-- open</a>",
      "line 1, column 4: comment is not closed with '-->'");
  bad("<a><!-- a -- b --></a>",
      "line 1, column 11: '--' is not allowed inside a comment");
  bad("<a><![CDATA[ open</a>",
      "line 1, column 4: CDATA section is not closed with ']]>'");
  bad("<![CDATA[x]]><a/>",
      "line 1, column 1: CDATA section outside the root element");
  bad("<a><!foo></a>",
      "line 1, column 4: unexpected '<!': expected a comment <!-- --> or a "
      "CDATA section");
  bad("<a/>\n<?xml version=\"1.0\"?>",
      "line 2, column 1: the XML declaration <?xml ...?> is only allowed at "
      "the very start of the document");
  bad(" <?xml version=\"1.0\"?><a/>",
      "line 1, column 2: the XML declaration <?xml ...?> is only allowed at "
      "the very start of the document");
  bad("<a><? x?></a>",
      "line 1, column 6: processing instruction needs a name after '<?'");
  bad("<a><?pi open</a>",
      "line 1, column 4: processing instruction is not closed with '?>'");
}

static void test_declaration(void** state) {
  (void)state;
  iospd_xml_doc_t* doc = parse_ok("<?xml version='1.0' encoding='utf-8'?><a/>");
  iospd_xml_free(doc);
  doc = parse_ok("<?xml version=\"1.1\"?>\n<a/>");
  iospd_xml_free(doc);
  bad("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
      "line 1, column 21: encoding 'ISO-8859-1' is not supported: save the "
      "file as UTF-8 and declare encoding=\"utf-8\"");
  bad("<?xml encoding=\"utf-8\"?><a/>",
      "line 1, column 1: the XML declaration must give a version");
  bad("<?xml version=\"2.0\"?><a/>",
      "line 1, column 7: unsupported XML version '2.0'");
  bad("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
      "line 1, column 21: standalone must be \"yes\" or \"no\"");
  bad("<?xml encoding=\"utf-8\" version=\"1.0\"?><a/>",
      "line 1, column 24: the XML declaration must list version, encoding "
      "and standalone once each, in that order");
  bad("<?xml version=\"1.0\" foo=\"1\"?><a/>",
      "line 1, column 21: unknown item 'foo' in the XML declaration");
  bad("<?xml version=\"1.0\"", "line 1, column 1: XML declaration is not "
                              "closed with '?>'");
}

static void test_encoding_errors(void** state) {
  (void)state;
  bad("<a>\xFF</a>",
      "line 1, column 4: byte 0xFF is not valid UTF-8; save the file as "
      "UTF-8");
  bad("<a>\xC0\xAF</a>", /* overlong '/' */
      "line 1, column 4: byte 0xC0 is not valid UTF-8; save the file as "
      "UTF-8");
  bad("<a>\xED\xA0\x80</a>", /* surrogate */
      "line 1, column 4: byte 0xED is not valid UTF-8; save the file as "
      "UTF-8");
  bad("<a>\xE2\x82</a>",
      "line 1, column 4: byte 0xE2 is not valid UTF-8; save the file as "
      "UTF-8");
  bad("<a>\xE2\x82", "line 1, column 4: the document ends inside a UTF-8 "
                     "sequence");
  bad("<a>\xEF\xBF\xBE</a>",
      "line 1, column 4: character U+FFFE is not allowed in XML");
  bad("<a>\x01</a>",
      "line 1, column 4: control character 0x01 is not allowed in XML");
  expect_error("<a>\0</a>", 8,
               "line 1, column 4: control character 0x00 is not allowed in "
               "XML");
  bad("\xFF\xFE<\0a\0/\0>\0",
      "line 1, column 1: the document is UTF-16; save it as UTF-8 (profiles "
      "are read as UTF-8 only)");
}

static void test_positions(void** state) {
  (void)state;
  /* Columns count characters, not bytes; CR LF is one line break; a BOM is
   * not a column. */
  bad("\xEF\xBB\xBF<a>\r\n\xC3\xA9\xE2\x82\xAC x<b></c></a>",
      "line 2, column 8: end tag </c> does not match start tag <b> of line 2");
  bad("<a>\r\r\n\n\t<b></a>",
      "line 4, column 5: end tag </a> does not match start tag <b> of line 4");
  bad("<a>\xF0\x9F\x98\x80 &bad;</a>",
      "line 1, column 6: unknown entity '&bad;': only &lt; &gt; &amp; &quot; "
      "&apos; and numeric character references are allowed");
}

static void test_null_and_limits(void** state) {
  (void)state;
  iospd_xml_doc_t* doc = (iospd_xml_doc_t*)1;
  iospd_err_t err;
  assert_int_equal(iospd_xml_parse(NULL, 0, &doc, &err), IOSPD_EPARSE);
  assert_null(doc);
  assert_string_equal(err.msg, "line 1, column 1: the document has no root "
                               "element");
  /* NULL err is allowed. */
  assert_int_equal(iospd_xml_parse("<a", 2, &doc, NULL), IOSPD_EPARSE);
  assert_null(iospd_xml_root(NULL));
  assert_null(iospd_xml_attr(NULL, "x"));
  iospd_xml_free(NULL);

  /* Too many attributes on one element. */
  char buf[2048];
  size_t n = (size_t)sprintf(buf, "<a");
  for (int i = 0; i < 65; i++) n += (size_t)sprintf(buf + n, " a%d='1'", i);
  sprintf(buf + n, "/>");
  bad(buf, "line 1, column 506: <a> has more than 64 attributes");
}

static bool fail_alloc(size_t n) {
  (void)n;
  return false;
}

static void test_out_of_memory(void** state) {
  (void)state;
  iospd_xml_doc_t* doc = NULL;
  iospd_err_t err;
  iospd_alloc_set_gate(fail_alloc);
  int rc = iospd_xml_parse("<a><b/></a>", 11, &doc, &err);
  iospd_alloc_set_gate(NULL);
  assert_int_equal(rc, IOSPD_ENOMEM);
  assert_null(doc);
  assert_string_equal(err.msg, "out of memory while reading the XML document");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_good_document),
      cmocka_unit_test(test_nested_text_and_line_ends),
      cmocka_unit_test(test_attribute_normalisation),
      cmocka_unit_test(test_depth_limit),
      cmocka_unit_test(test_size_limit),
      cmocka_unit_test(test_doctype_and_entities_refused),
      cmocka_unit_test(test_character_references),
      cmocka_unit_test(test_structure_errors),
      cmocka_unit_test(test_markup_errors),
      cmocka_unit_test(test_declaration),
      cmocka_unit_test(test_encoding_errors),
      cmocka_unit_test(test_positions),
      cmocka_unit_test(test_null_and_limits),
      cmocka_unit_test(test_out_of_memory),
  };
  return cmocka_run_group_tests_name("xml_reader", tests, NULL, NULL);
}
