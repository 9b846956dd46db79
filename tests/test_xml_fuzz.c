/* SPDX-License-Identifier: MIT */
/* Randomised robustness test of the XML reader and the profile reader/writer:
 * valid documents are mutated (byte flips, truncation, duplication, deletion,
 * token insertion, deep nesting) with a fixed seed. Every result must be
 * either success or a negative code with a message, and every accepted
 * profile must write out and read back to the same text.
 * IOSPD_FUZZ_ITERATIONS (default 20000) and IOSPD_FUZZ_SEED tune a run. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/strbuf.h"
#include "iospd/xml.h"
#include "iospd/xml_profile.h"
#include "xml_profile_gen.h"

typedef struct rng_s {
  uint64_t s;
} rng_t;

static uint64_t next(rng_t* r) {
  /* splitmix64: good enough spread for choosing mutations */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static size_t below(rng_t* r, size_t n) {
  return n ? (size_t)(next(r) % n) : 0;
}

static const char* const seeds[] = {
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Profile>\n  <TimeSpans>\n"
    "    <TimeSpan>\n      <Targets>\n        <Target>\n"
    "          <Path>*1</Path>\n        </Target>\n      </Targets>\n"
    "    </TimeSpan>\n  </TimeSpans>\n</Profile>\n",

    "<Profile><Verbose>1</Verbose><Progress>5</Progress><ETW><Process>true"
    "</Process></ETW><TimeSpans><TimeSpan><Duration>3</Duration><Affinity>"
    "<AffinityGroupAssignment Group=\"1\" Processor=\"2\"/></Affinity>"
    "<Targets><Target><Path>a &amp; b</Path><BlockSize>4096</BlockSize>"
    "<Random>4096</Random><RandomRatio>50</RandomRatio><Distribution>"
    "<Absolute><Range IO=\"10\">1048576</Range><Range IO=\"0\">4096</Range>"
    "</Absolute></Distribution><Throughput unit=\"IOPS\">100</Throughput>"
    "<ThreadTargets><ThreadTarget><Thread>1</Thread><Weight>2</Weight>"
    "</ThreadTarget></ThreadTargets></Target></Targets></TimeSpan>"
    "</TimeSpans></Profile>",

    "<Profile>\r\n<TimeSpans><TimeSpan><Targets><Target><Path><![CDATA[x<y>]]>"
    "</Path><WriteBufferContent><Pattern>random</Pattern><RandomDataSource>"
    "<SizeInBytes>65536</SizeInBytes><FilePath>&#x263A;</FilePath>"
    "</RandomDataSource></WriteBufferContent><StrideSize>8192</StrideSize>"
    "<InterlockedSequential>true</InterlockedSequential><!-- c -->"
    "<Distribution><Percent><Range IO=\"50\">10</Range></Percent>"
    "</Distribution></Target></Targets></TimeSpan><TimeSpan><Targets>"
    "<Target><Path>*2</Path><DisableAllCache>1</DisableAllCache></Target>"
    "</Targets></TimeSpan></TimeSpans></Profile>",
};

static const char* const tokens[] = {
    "<", ">", "/>", "</", "&", "&amp;", "&lt;", "&#0;", "&#x10FFFF;",
    "&#xD800;", "&bogus;", "<!DOCTYPE a>", "<!ENTITY e 'x'>", "<![CDATA[",
    "]]>", "<!--", "-->", "<?pi x?>", "<?xml version=\"1.0\"?>", "\"", "'",
    "=", " a=\"1\"", "<Target>", "</Target>", "<Path>", "</Path>", "*1",
    "*0", "-1", "99999999999999999999", "\xC3", "\xFF", "\xEF\xBB\xBF",
    "\r", "\n", "\t", "<Random>4096</Random>", "<StrideSize>1</StrideSize>",
    "<Range IO=\"100\">1</Range>", "<TimeSpan>", "</TimeSpan>",
};

static void check_tree(const iospd_xml_node_t* n, int depth) {
  assert_true(depth <= IOSPD_XML_MAX_DEPTH);
  assert_non_null(n->name);
  assert_non_null(n->text);
  assert_true(n->line >= 1 && n->column >= 1);
  for (const iospd_xml_attr_t* a = n->attrs; a; a = a->next) {
    assert_non_null(a->name);
    assert_non_null(a->value);
  }
  for (const iospd_xml_node_t* c = n->first_child; c; c = c->next_sibling) {
    assert_ptr_equal(c->parent, n);
    check_tree(c, depth + 1);
  }
}

static void check_error(int rc, const iospd_err_t* err) {
  assert_true(rc < 0);
  assert_int_equal(err->code, rc);
  assert_true(err->msg[0] != '\0');
  if (rc == IOSPD_EPARSE) {
    assert_int_equal(strncmp(err->msg, "line ", 5), 0);
  }
}

static unsigned long accepted_xml, accepted_profiles;

/* Feeds one document through every entry point and checks the contract. */
static void exercise(const char* data, size_t len) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_xml_doc_t* doc = NULL;
  int rc = iospd_xml_parse(data, len, &doc, &err);
  if (rc == 0) {
    accepted_xml++;
    assert_non_null(iospd_xml_root(doc));
    check_tree(iospd_xml_root(doc), 1);
    iospd_xml_free(doc);
  } else {
    assert_null(doc);
    check_error(rc, &err);
  }

  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_err_clear(&err);
  rc = iospd_xml_profile_parse(data, len, &p, &err);
  if (rc != 0) {
    check_error(rc, &err);
    iospd_profile_destroy(&p);
    return;
  }
  accepted_profiles++;
  const char* const subst[] = {"one.dat", "two.dat"};
  rc = iospd_xml_profile_substitute(&p, subst, 2, &err);
  if (rc) check_error(rc, &err);

  /* Whatever was accepted writes out as a profile that reads back and
   * writes out identically. */
  iospd_strbuf_t a, b;
  iospd_strbuf_init(&a);
  iospd_strbuf_init(&b);
  iospd_xml_profile_write(&a, &p, 0);
  iospd_profile_t back;
  iospd_profile_init(&back);
  rc = iospd_xml_profile_parse(a.data, a.len, &back, &err);
  if (rc) fprintf(stderr, "re-read failed: %s\n%s\n", err.msg, a.data);
  assert_int_equal(rc, 0);
  iospd_xml_profile_write(&b, &back, 0);
  assert_string_equal(iospd_strbuf_cstr(&a), iospd_strbuf_cstr(&b));
  iospd_strbuf_destroy(&a);
  iospd_strbuf_destroy(&b);
  iospd_profile_destroy(&back);
  iospd_profile_destroy(&p);
}

typedef struct buf_s {
  char* data;
  size_t len, cap;
} buf_t;

static void buf_reserve(buf_t* b, size_t n) {
  if (b->len + n <= b->cap) return;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->len + n) cap *= 2;
  b->data = iospd_realloc(b->data, cap);
  assert_non_null(b->data);
  b->cap = cap;
}

static void buf_insert(buf_t* b, size_t at, const char* s, size_t n) {
  buf_reserve(b, n);
  memmove(b->data + at + n, b->data + at, b->len - at);
  memcpy(b->data + at, s, n);
  b->len += n;
}

static const char* const values[] = {
    "", "0", "1", "2", "3", "99", "100", "101", "true", "false", "TRUE",
    " 7 ", "+5", "-0", "-5", "abc", "4294967295", "4294967296",
    "18446744073709551615", "18446744073709551616", "*1", "*2", "*3", "*x",
    "xml", "text", "random", "zero", "IOPS", "ViewOfFile", "UseMaxSize",
};

/* Replaces the text of a random element (between a '>' and the next '<')
 * with a value that is valid somewhere, so the profile reader's value checks
 * see far more cases than byte noise alone reaches. */
static void replace_value(rng_t* r, buf_t* b) {
  if (b->len == 0) return;
  size_t start = below(r, b->len);
  while (start < b->len && b->data[start] != '>') start++;
  if (start >= b->len) return;
  size_t end = ++start;
  while (end < b->len && b->data[end] != '<') end++;
  const char* v = values[below(r, IOSPD_ARRAY_SIZE(values))];
  memmove(b->data + start, b->data + end, b->len - end);
  b->len -= end - start;
  buf_insert(b, start, v, strlen(v));
}

static void mutate(rng_t* r, buf_t* b) {
  /* Mostly one small change, so that many mutants stay well-formed and
   * reach the profile reader. */
  size_t roll = below(r, 8), rounds = roll < 5 ? 1 : roll < 7 ? 2 : 4;
  for (size_t k = 0; k < rounds; k++) {
    size_t at = below(r, b->len + 1);
    switch (below(r, 10)) {
      case 7:
      case 8:
      case 9:
        replace_value(r, b);
        break;
      case 0: /* flip a byte */
        if (b->len) b->data[below(r, b->len)] = (char)next(r);
        break;
      case 1: /* truncate */
        b->len = at;
        break;
      case 2: { /* delete a range */
        size_t n = below(r, b->len - at + 1);
        memmove(b->data + at, b->data + at + n, b->len - at - n);
        b->len -= n;
        break;
      }
      case 3: { /* duplicate a range somewhere */
        size_t n = below(r, b->len - at + 1);
        if (n > 4096) n = 4096;
        char* copy = iospd_malloc(n + 1);
        assert_non_null(copy);
        memcpy(copy, b->data + at, n);
        buf_insert(b, below(r, b->len + 1), copy, n);
        iospd_free(copy);
        break;
      }
      case 4:
      case 5: { /* insert a token */
        const char* t = tokens[below(r, IOSPD_ARRAY_SIZE(tokens))];
        buf_insert(b, at, t, strlen(t));
        break;
      }
      case 6: { /* deep nesting at a random point */
        size_t depth = 1 + below(r, 3 * IOSPD_XML_MAX_DEPTH);
        for (size_t i = 0; i < depth; i++) buf_insert(b, at, "<n>", 3);
        break;
      }
    }
  }
}

static unsigned long env_ulong(const char* name, unsigned long def) {
  const char* v = getenv(name);
  if (v == NULL || *v == '\0') return def;
  return strtoul(v, NULL, 10);
}

static void test_mutations(void** state) {
  (void)state;
  unsigned long iterations = env_ulong("IOSPD_FUZZ_ITERATIONS", 20000);
  rng_t r = {env_ulong("IOSPD_FUZZ_SEED", 20261129)};

  /* Seed corpus: the inline documents and generated profiles as the writer
   * prints them. */
  enum { GENERATED = 16 };
  size_t nseeds = IOSPD_ARRAY_SIZE(seeds) + GENERATED;
  iospd_strbuf_t corpus[IOSPD_ARRAY_SIZE(seeds) + GENERATED];
  for (size_t i = 0; i < nseeds; i++) {
    iospd_strbuf_init(&corpus[i]);
    if (i < IOSPD_ARRAY_SIZE(seeds)) {
      iospd_strbuf_append(&corpus[i], seeds[i]);
    } else {
      iospd_profile_t p;
      iospd_profile_init(&p);
      assert_int_equal(xml_gen_profile(&p, (uint32_t)(1000 + i)), 0);
      iospd_xml_profile_write(&corpus[i], &p, 0);
      iospd_profile_destroy(&p);
    }
    exercise(corpus[i].data, corpus[i].len);
  }
  assert_int_equal(accepted_profiles, nseeds); /* the seeds are valid */

  buf_t b = {NULL, 0, 0};
  for (unsigned long it = 0; it < iterations; it++) {
    const iospd_strbuf_t* s = &corpus[below(&r, nseeds)];
    b.len = 0;
    buf_reserve(&b, s->len);
    memcpy(b.data, s->data, s->len);
    b.len = s->len;
    mutate(&r, &b);
    exercise(b.data, b.len);
  }
  iospd_free(b.data);
  for (size_t i = 0; i < nseeds; i++) iospd_strbuf_destroy(&corpus[i]);
  printf("fuzz: %lu iterations, %lu parsed as XML, %lu as profiles\n",
         iterations, accepted_xml, accepted_profiles);
}

static void test_very_deep_nesting(void** state) {
  (void)state;
  /* Far beyond the limit: refused at level 65, no recursion anywhere. */
  size_t depth = 200000;
  char* d = iospd_malloc(depth * 3 + 1);
  assert_non_null(d);
  for (size_t i = 0; i < depth; i++) memcpy(d + 3 * i, "<a>", 3);
  iospd_xml_doc_t* doc;
  iospd_err_t err;
  assert_int_equal(iospd_xml_parse(d, depth * 3, &doc, &err), IOSPD_EPARSE);
  char want[128];
  snprintf(want, sizeof want,
           "line 1, column %d: elements are nested more than %d levels deep",
           IOSPD_XML_MAX_DEPTH * 3 + 1, IOSPD_XML_MAX_DEPTH);
  assert_string_equal(err.msg, want);
  iospd_free(d);
}

static void test_many_elements(void** state) {
  (void)state;
  /* A wide, flat document stays linear: 200000 siblings on one line. */
  size_t n = 200000;
  char* d = iospd_malloc(n * 4 + 16);
  assert_non_null(d);
  size_t len = 0;
  memcpy(d, "<r>", 3);
  len = 3;
  for (size_t i = 0; i < n; i++, len += 4) memcpy(d + len, "<e/>", 4);
  memcpy(d + len, "</r>", 4);
  len += 4;
  iospd_xml_doc_t* doc;
  iospd_err_t err;
  assert_int_equal(iospd_xml_parse(d, len, &doc, &err), 0);
  size_t count = 0;
  const iospd_xml_node_t* last = NULL;
  for (const iospd_xml_node_t* c = iospd_xml_root(doc)->first_child; c;
       c = c->next_sibling) {
    count++;
    last = c;
  }
  assert_int_equal(count, n);
  assert_int_equal(last->column, 4 + 4 * (n - 1));
  iospd_xml_free(doc);
  iospd_free(d);
}

static void test_many_targets(void** state) {
  (void)state;
  /* 100000 targets in one timespan: the reader sizes the target array once,
   * so this stays fast where realloc copies (msvcrt). */
  const char* head = "<Profile><TimeSpans><TimeSpan><Targets>";
  const char* tail = "</Targets></TimeSpan></TimeSpans></Profile>";
  const char* one = "<Target><Path>t</Path></Target>";
  size_t n = 100000, ol = strlen(one);
  size_t len = strlen(head) + n * ol + strlen(tail);
  char* d = iospd_malloc(len + 1);
  assert_non_null(d);
  char* w = d;
  memcpy(w, head, strlen(head));
  w += strlen(head);
  for (size_t i = 0; i < n; i++, w += ol) memcpy(w, one, ol);
  memcpy(w, tail, strlen(tail) + 1);
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_err_t err;
  assert_int_equal(iospd_xml_profile_parse(d, len, &p, &err), 0);
  assert_int_equal(p.timespans[0].target_count, n);
  assert_string_equal(p.timespans[0].targets[n - 1].path, "t");
  iospd_profile_destroy(&p);
  iospd_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mutations),
      cmocka_unit_test(test_very_deep_nesting),
      cmocka_unit_test(test_many_elements),
      cmocka_unit_test(test_many_targets),
  };
  return cmocka_run_group_tests_name("xml_fuzz", tests, NULL, NULL);
}
