/* SPDX-License-Identifier: MIT */
/* Reads a DISKSPD XML profile (-X<file>) into the profile model, checking it
 * the way DISKSPD's schema does (unknown elements, types, ranges), and
 * substitutes the *N template targets with command-line paths.
 *
 * Deliberate differences from DISKSPD 2.2:
 * - Booleans accept true, false, 1 and 0 (the schema's xs:boolean forms), and
 *   1 means true. DISKSPD's reader compares the text with "true", so it reads
 *   a schema-valid "1" as false; we read it as the schema means it.
 * - Values the schema allows but DISKSPD cannot run are refused here with a
 *   clear message: BlockSize 0, Target RequestCount 0, ThreadsPerFile 0,
 *   IoBucketDuration 0, IOPriority other than 1..3.
 * Everything else follows DISKSPD: children in any order, targets processed
 * in DISKSPD's fixed order (so IOPS throughput uses the final BlockSize),
 * distributions completed like -rd, unknown template numbers kept for
 * iospd_xml_profile_substitute. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/diskspd23.h"
#include "iospd/formats.h"
#include "iospd/units.h"
#include "iospd/xml.h"
#include "iospd/xml_escape.h"
#include "iospd/xml_profile.h"

typedef const iospd_xml_node_t node_t;

/* "line L: <what>" for an element. */
static int perr(iospd_err_t* err, node_t* n, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);
static int perr(iospd_err_t* err, node_t* n, const char* fmt, ...) {
  char what[IOSPD_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return iospd_err_set(err, IOSPD_EPARSE, "line %u: %s", (unsigned)n->line,
                       what);
}

static int no_memory(iospd_err_t* err) {
  return iospd_err_set(err, IOSPD_ENOMEM,
                       "out of memory while reading the XML profile");
}

/* Shortens user text for messages: at most 40 bytes, whole characters. */
static int clip(const char* s) {
  size_t n = strlen(s);
  if (n <= 40) return (int)n;
  n = 40;
  while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
  return (int)n;
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool blank(const char* s) {
  for (; *s; s++) {
    if (!is_space(*s)) return false;
  }
  return true;
}

/* Attributes every element may carry: namespace declarations and the
 * schema-instance attributes (xsi:noNamespaceSchemaLocation) that editors
 * add. A default namespace would put the elements outside DISKSPD's
 * no-namespace schema, so it is refused. */
static int check_attrs(node_t* n, const char* const* allowed, size_t count,
                       iospd_err_t* err) {
  for (const iospd_xml_attr_t* a = n->attrs; a; a = a->next) {
    bool ok = false;
    for (size_t i = 0; i < count && !ok; i++)
      ok = strcmp(a->name, allowed[i]) == 0;
    if (ok || strncmp(a->name, "xmlns:", 6) == 0 ||
        strncmp(a->name, "xsi:", 4) == 0)
      continue;
    if (strcmp(a->name, "xmlns") == 0) {
      if (a->value[0] == '\0') continue;
      return perr(err, n,
                  "<%s> declares the namespace '%.*s', but profiles use no "
                  "namespace; remove xmlns=\"...\"",
                  n->name, clip(a->value), a->value);
    }
    return perr(err, n, "<%s> has an unknown attribute '%s'", n->name,
                a->name);
  }
  return 0;
}

/* A simple-typed element: text only, no child elements, no attributes
 * except those allowed. */
static int simple(node_t* n, const char* const* attrs, size_t nattrs,
                  iospd_err_t* err) {
  if (n->first_child) {
    return perr(err, n->first_child,
                "<%s> is not allowed inside <%s>, which holds only a value",
                n->first_child->name, n->name);
  }
  return check_attrs(n, attrs, nattrs, err);
}

/* The value of a path element (Path, FilePath), taken as it is: plain
 * text, or with Escaped="U+F0NN" the bytes XML cannot carry written as
 * U+F0NN (iospd/xml_escape.h), which are turned back into bytes here.
 * Sets *out to a new string (iospd_free). */
static const char* const path_attrs[] = {IOSPD_XML_ESCAPED_ATTR};

static int path_value(node_t* n, char** out, iospd_err_t* err) {
  int rc = simple(n, path_attrs, 1, err);
  if (rc) return rc;
  const char* esc = iospd_xml_attr(n, IOSPD_XML_ESCAPED_ATTR);
  if (esc != NULL && strcmp(esc, IOSPD_XML_ESCAPED_VALUE) != 0) {
    return perr(err, n,
                "<%s %s=\"%.*s\"> is not understood: the only value is "
                "\"%s\" (each U+F001..U+F0FF in the path stands for the "
                "byte 01..FF)",
                n->name, IOSPD_XML_ESCAPED_ATTR, clip(esc), esc,
                IOSPD_XML_ESCAPED_VALUE);
  }
  *out = esc != NULL ? iospd_xml_unescape_bytes(n->text)
                     : iospd_strdup(n->text);
  return *out != NULL ? 0 : no_memory(err);
}

/* Copies the value with the schema's whitespace collapsing for numbers,
 * booleans and enumerations: leading and trailing whitespace dropped. */
static void trimmed(const char* s, char* out, size_t cap) {
  while (is_space(*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && is_space(s[n - 1])) n--;
  if (n >= cap) n = cap - 1;
  memcpy(out, s, n);
  out[n] = '\0';
}

/* xs:unsignedLong-style lexical form: optional '+', digits; "-0" is zero. */
static bool parse_number(const char* text, uint64_t max, uint64_t* out) {
  char buf[64];
  const char* s = text;
  while (is_space(*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && is_space(s[n - 1])) n--;
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  const char* p = buf;
  bool neg = false;
  if (*p == '+') {
    p++;
  } else if (*p == '-') {
    neg = true;
    p++;
  }
  if (*p == '\0') return false;
  uint64_t v = 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    uint64_t d = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (neg && v != 0) return false;
  if (v > max) return false;
  *out = v;
  return true;
}

/* The number in n's text; the caller has checked n's shape. */
static int number_value(node_t* n, uint64_t min, uint64_t max, uint64_t* out,
                        iospd_err_t* err) {
  uint64_t v;
  if (!parse_number(n->text, max, &v) || v < min) {
    char t[48];
    trimmed(n->text, t, sizeof t);
    return perr(err, n,
                "<%s> must be a whole number from %llu to %llu, got '%.*s'",
                n->name, (unsigned long long)min, (unsigned long long)max,
                clip(t), t);
  }
  *out = v;
  return 0;
}

static int get_u64(node_t* n, uint64_t min, uint64_t max, uint64_t* out,
                   iospd_err_t* err) {
  int rc = simple(n, NULL, 0, err);
  return rc ? rc : number_value(n, min, max, out, err);
}

static int get_u32(node_t* n, uint32_t min, uint32_t max, uint32_t* out,
                   iospd_err_t* err) {
  uint64_t v;
  int rc = get_u64(n, min, max, &v, err);
  if (rc == 0) *out = (uint32_t)v;
  return rc;
}

static int get_bool(node_t* n, bool* out, iospd_err_t* err) {
  int rc = simple(n, NULL, 0, err);
  if (rc) return rc;
  char t[48];
  trimmed(n->text, t, sizeof t);
  if (strcmp(t, "true") == 0 || strcmp(t, "1") == 0) {
    *out = true;
  } else if (strcmp(t, "false") == 0 || strcmp(t, "0") == 0) {
    *out = false;
  } else {
    return perr(err, n, "<%s> must be true or false (or 1 or 0), got '%.*s'",
                n->name, clip(t), t);
  }
  return 0;
}

/* Enumerations: exact, case-sensitive words, as in the schema. Returns the
 * index into words. */
static int get_enum(node_t* n, const char* text, const char* what,
                    const char* const* words, size_t count, int* out,
                    iospd_err_t* err) {
  char list[256] = "";
  for (size_t i = 0; i < count; i++) {
    if (strcmp(text, words[i]) == 0) {
      *out = (int)i;
      return 0;
    }
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s%s",
             i ? (i + 1 == count ? " or " : ", ") : "", words[i]);
  }
  return perr(err, n, "%s must be %s, got '%.*s'", what, list, clip(text),
              text);
}

/* A DISKSPD 2.3 word (iospd/diskspd23.h) in text; what names it. */
static int get_d23(node_t* n, const char* text, const char* what,
                   const iospd_d23_word_t* list, int* out,
                   iospd_err_t* err) {
  char t[48];
  trimmed(text, t, sizeof t);
  const iospd_d23_word_t* w = iospd_d23_by_xml(list, t);
  if (w != NULL) {
    *out = w->value;
    return 0;
  }
  char words[160];
  iospd_d23_xml_words(list, words, sizeof words);
  return perr(err, n, "%s must be %s, got '%.*s'", what, words, clip(t), t);
}

/* ---- child collection ---- */

/* Finds each allowed child once (xs:all: any order, at most once) and
 * refuses text between child elements and unknown children. */
static int collect(node_t* parent, const char* const* names, size_t count,
                   node_t** slots, iospd_err_t* err) {
  for (size_t i = 0; i < count; i++) slots[i] = NULL;
  if (!blank(parent->text)) {
    char t[48];
    trimmed(parent->text, t, sizeof t);
    return perr(err, parent,
                "<%s> holds only elements, but it contains the text '%.*s'",
                parent->name, clip(t), t);
  }
  for (node_t* c = parent->first_child; c; c = c->next_sibling) {
    size_t i = 0;
    while (i < count && strcmp(c->name, names[i]) != 0) i++;
    if (i == count) {
      for (size_t k = 0; k < count; k++) {
        /* A common slip: the right name in the wrong case. */
        const char *a = c->name, *b = names[k];
        while (*a && *b && ((*a | 0x20) == (*b | 0x20))) a++, b++;
        if (*a == '\0' && *b == '\0') {
          return perr(err, c,
                      "unknown element <%s> inside <%s>; names are "
                      "case-sensitive: did you mean <%s>?",
                      c->name, parent->name, names[k]);
        }
      }
      return perr(err, c, "unknown element <%s> inside <%s>", c->name,
                  parent->name);
    }
    if (slots[i] != NULL) {
      return perr(err, c,
                  "<%s> appears more than once inside <%s> (first at line "
                  "%u)",
                  c->name, parent->name, (unsigned)slots[i]->line);
    }
    slots[i] = c;
  }
  return 0;
}

/* A list element: children all named `name`, at least one. */
static int list_of(node_t* parent, const char* name, iospd_err_t* err) {
  if (!blank(parent->text)) {
    char t[48];
    trimmed(parent->text, t, sizeof t);
    return perr(err, parent,
                "<%s> holds only <%s> elements, but it contains the text "
                "'%.*s'",
                parent->name, name, clip(t), t);
  }
  if (parent->first_child == NULL) {
    return perr(err, parent, "<%s> needs at least one <%s>", parent->name,
                name);
  }
  for (node_t* c = parent->first_child; c; c = c->next_sibling) {
    if (strcmp(c->name, name) != 0) {
      return perr(err, c, "unknown element <%s> inside <%s>; expected <%s>",
                  c->name, parent->name, name);
    }
  }
  return 0;
}

static uint32_t count_children(node_t* n) {
  uint32_t count = 0;
  for (node_t* c = n->first_child; c; c = c->next_sibling) count++;
  return count;
}

/* ---- templates ---- */

/* "*<positive decimal integer>", as DISKSPD requires. */
static bool template_number(const char* path, uint32_t* out) {
  if (path[0] != '*' || path[1] == '\0') return false;
  uint64_t v = 0;
  for (const char* p = path + 1; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    v = v * 10 + (uint64_t)(*p - '0');
    if (v > UINT32_MAX) return false;
  }
  if (v == 0) return false;
  *out = (uint32_t)v;
  return true;
}

/* ---- Target ---- */

enum {
  T_PATH, T_BLOCK_SIZE, T_INTERLOCKED, T_BASE_OFFSET, T_SEQ_SCAN,
  T_RANDOM_ACCESS, T_TEMPORARY, T_LARGE_PAGES, T_REQUEST_COUNT, T_STRIDE,
  T_RANDOM, T_RANDOM_RATIO, T_DISABLE_OS_CACHE, T_MMAP, T_DISABLE_ALL_CACHE,
  T_DISABLE_LOCAL_CACHE, T_WRITE_THROUGH, T_FLUSH_TYPE, T_WRITE_BUFFER,
  T_BURST, T_THINK, T_THROUGHPUT, T_THREADS_PER_FILE, T_FILE_SIZE,
  T_MAX_FILE_SIZE, T_WRITE_RATIO, T_PARALLEL_ASYNC, T_THREAD_STRIDE,
  T_IO_PRIORITY, T_WEIGHT, T_DISTRIBUTION, T_THREAD_TARGETS, T_BYPASS_IO,
  T_COUNT
};

/* In DISKSPD's processing order (DISKSPD's profile XML input). */
static const char* const target_names[T_COUNT] = {
    "Path", "BlockSize", "InterlockedSequential", "BaseFileOffset",
    "SequentialScan", "RandomAccess", "TemporaryFile", "UseLargePages",
    "RequestCount", "StrideSize", "Random", "RandomRatio", "DisableOSCache",
    "MemoryMappedIo", "DisableAllCache", "DisableLocalCache", "WriteThrough",
    "FlushType", "WriteBufferContent", "BurstSize", "ThinkTime", "Throughput",
    "ThreadsPerFile", "FileSize", "MaxFileSize", "WriteRatio",
    "ParallelAsyncIO", "ThreadStride", "IOPriority", "Weight", "Distribution",
    "ThreadTargets", "BypassIO"};

static int read_write_buffer(node_t* n, iospd_target_t* t, iospd_err_t* err) {
  static const char* const names[] = {"Pattern", "RandomDataSource",
                                      "CompressPercent", "DedupePercent"};
  node_t* s[4];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, names, 4, s, err))) return rc;
  /* iospd's generated content: 0..100 each (--compress, --dedupe). */
  for (int k = 0; k < 2; k++) {
    if (s[2 + k] == NULL) continue;
    uint32_t pct = 0;
    if ((rc = simple(s[2 + k], NULL, 0, err)) ||
        (rc = get_u32(s[2 + k], 0, 100, &pct, err)))
      return rc;
    if (k == 0) t->compress_pct = (int32_t)pct;
    else t->dedupe_pct = (int32_t)pct;
  }
  if (s[0] == NULL) {
    return perr(err, n, "<WriteBufferContent> needs a <Pattern>");
  }
  if ((rc = simple(s[0], NULL, 0, err))) return rc;
  static const char* const patterns[] = {"sequential", "zero", "random"};
  int which = 0; /* set by get_enum on success; -O2 cannot see it */
  if ((rc = get_enum(s[0], s[0]->text, "<Pattern>", patterns, 3, &which,
                     err)))
    return rc;
  uint64_t size = 0;
  node_t* path_node = NULL;
  if (s[1] != NULL) {
    static const char* const src_names[] = {"SizeInBytes", "FilePath"};
    node_t* r[2];
    if ((rc = check_attrs(s[1], NULL, 0, err)) ||
        (rc = collect(s[1], src_names, 2, r, err)))
      return rc;
    if (r[0] == NULL) {
      return perr(err, s[1], "<RandomDataSource> needs a <SizeInBytes>");
    }
    if ((rc = get_u64(r[0], 0, UINT64_MAX, &size, err))) return rc;
    if (r[1] != NULL && (rc = simple(r[1], path_attrs, 1, err))) return rc;
    path_node = r[1];
  }
  if (which == 1) {
    t->pattern = IOSPD_PATTERN_ZERO;
  } else if (which == 2 && s[1] != NULL) {
    /* DISKSPD: "random" without a source keeps the default pattern. */
    t->pattern = IOSPD_PATTERN_RANDOM;
    t->random_data_size = size;
    if (path_node != NULL && path_node->text[0] != '\0') {
      char* path = NULL;
      if ((rc = path_value(path_node, &path, err))) return rc;
      iospd_free(t->random_data_path);
      t->random_data_path = path;
    }
  }
  return 0;
}

static int read_distribution(node_t* n, iospd_target_t* t,
                             iospd_err_t* err) {
  static const char* const names[] = {"Percent", "Absolute"};
  node_t* s[2];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, names, 2, s, err))) return rc;
  if ((s[0] == NULL) == (s[1] == NULL)) {
    return perr(err, n,
                "<Distribution> needs exactly one of <Percent> or <Absolute>");
  }
  bool pct = s[0] != NULL;
  node_t* list = pct ? s[0] : s[1];
  if ((rc = check_attrs(list, NULL, 0, err)) ||
      (rc = list_of(list, "Range", err)))
    return rc;
  uint32_t count = count_children(list);
  iospd_dist_range_t* d = iospd_calloc((size_t)count + 1, sizeof *d);
  if (d == NULL) return no_memory(err);
  uint64_t io_sum = 0, span_sum = 0;
  uint32_t i = 0;
  static const char* const io_attr[] = {"IO"};
  for (node_t* r = list->first_child; r; r = r->next_sibling, i++) {
    uint64_t span = 0; /* set by number_value on success */
    if ((rc = simple(r, io_attr, 1, err))) goto fail;
    if ((rc = number_value(r, pct ? 1 : 0, pct ? 100 : UINT64_MAX, &span,
                           err)))
      goto fail;
    const char* io_text = iospd_xml_attr(r, "IO");
    uint64_t io;
    if (io_text == NULL) {
      rc = perr(err, r, "<Range> needs an IO=\"percent\" attribute");
      goto fail;
    }
    if (!parse_number(io_text, 100, &io)) {
      rc = perr(err, r,
                "<Range> attribute IO must be a whole number from 0 to 100, "
                "got '%.*s'",
                clip(io_text), io_text);
      goto fail;
    }
    if (span > UINT64_MAX - span_sum) {
      rc = perr(err, r, "the <Range> lengths add up to more than %llu bytes",
                (unsigned long long)UINT64_MAX);
      goto fail;
    }
    d[i].io_base = (uint32_t)io_sum;
    d[i].io_pct = (uint32_t)io;
    d[i].span_base = span_sum;
    d[i].span = span;
    io_sum += io;
    span_sum += span;
  }
  /* Tail completion as for -rd (DISKSPD's -rd rules): the IO% left over goes to the rest of
   * the target. For percent, only if some of the target is left; otherwise
   * validation reports the uncovered IO%. Absolute: length 0 = to the end. */
  if (io_sum < 100) {
    if (!pct) {
      d[count++] = (iospd_dist_range_t){(uint32_t)io_sum,
                                        (uint32_t)(100 - io_sum), span_sum, 0};
    } else if (span_sum < 100) {
      d[count++] = (iospd_dist_range_t){(uint32_t)io_sum,
                                        (uint32_t)(100 - io_sum), span_sum,
                                        100 - span_sum};
    }
  }
  iospd_free(t->dist);
  t->dist = d;
  t->dist_count = count;
  t->dist_type = pct ? IOSPD_DIST_PERCENT : IOSPD_DIST_ABSOLUTE;
  return 0;
fail:
  iospd_free(d);
  return rc;
}

static int read_thread_targets(node_t* n, iospd_target_t* t,
                               iospd_err_t* err) {
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = list_of(n, "ThreadTarget", err))) return rc;
  uint32_t count = count_children(n);
  iospd_thread_target_t* a = iospd_calloc(count, sizeof *a);
  if (a == NULL) return no_memory(err);
  uint32_t i = 0;
  for (node_t* c = n->first_child; c; c = c->next_sibling, i++) {
    static const char* const names[] = {"Thread", "Weight"};
    node_t* s[2];
    if ((rc = check_attrs(c, NULL, 0, err)) ||
        (rc = collect(c, names, 2, s, err)))
      goto fail;
    if (s[0] == NULL) {
      rc = perr(err, c, "<ThreadTarget> needs a <Thread>");
      goto fail;
    }
    if ((rc = get_u32(s[0], 0, UINT32_MAX, &a[i].thread, err))) goto fail;
    if (s[1] && (rc = get_u32(s[1], 0, UINT32_MAX, &a[i].weight, err))) {
      goto fail;
    }
  }
  iospd_free(t->thread_targets);
  t->thread_targets = a;
  t->thread_target_count = count;
  return 0;
fail:
  iospd_free(a);
  return rc;
}

static int read_target(node_t* n, iospd_target_t* t, iospd_err_t* err) {
  node_t* s[T_COUNT];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, target_names, T_COUNT, s, err))) return rc;
  if (s[T_PATH] == NULL) {
    return perr(err, n, "<Target> needs a <Path>");
  }
  char* path = NULL;
  if ((rc = path_value(s[T_PATH], &path, err))) return rc;
  uint32_t tn;
  if (path[0] == '*' && !template_number(path, &tn)) {
    rc = perr(err, s[T_PATH],
              "<Path> '%.*s' is not a valid template: write * followed by a "
              "positive whole number, such as *1, to use the first target "
              "given on the command line",
              clip(path), path);
    iospd_free(path);
    return rc;
  }
  iospd_free(t->path);
  t->path = path;

  bool b;
  uint64_t v64;
  uint32_t v32;
  if (s[T_BLOCK_SIZE] &&
      (rc = get_u32(s[T_BLOCK_SIZE], 1, UINT32_MAX - 1, &t->block_size, err)))
    return rc;
  if (s[T_INTERLOCKED]) {
    if ((rc = get_bool(s[T_INTERLOCKED], &t->interlocked, err))) return rc;
  }
  if (s[T_BASE_OFFSET] &&
      (rc = get_u64(s[T_BASE_OFFSET], 0, UINT64_MAX, &t->base_offset, err)))
    return rc;
  if (s[T_SEQ_SCAN] && (rc = get_bool(s[T_SEQ_SCAN], &t->sequential_scan, err)))
    return rc;
  if (s[T_RANDOM_ACCESS] &&
      (rc = get_bool(s[T_RANDOM_ACCESS], &t->random_access, err)))
    return rc;
  if (s[T_TEMPORARY] && (rc = get_bool(s[T_TEMPORARY], &t->temporary, err)))
    return rc;
  if (s[T_LARGE_PAGES] &&
      (rc = get_bool(s[T_LARGE_PAGES], &t->large_pages, err)))
    return rc;
  if (s[T_REQUEST_COUNT] &&
      (rc = get_u32(s[T_REQUEST_COUNT], 1, IOSPD_COUNT_MAX, &t->request_count,
                    err)))
    return rc;
  if (s[T_STRIDE]) {
    if ((rc = get_u64(s[T_STRIDE], 0, IOSPD_MAX_OFFSET, &t->stride_align,
                      err)))
      return rc;
  }
  if (s[T_RANDOM]) {
    if (s[T_STRIDE]) {
      return perr(err, s[T_RANDOM],
                  "<Random> conflicts with <StrideSize> of line %u: a target "
                  "is either sequential (StrideSize) or random (Random, "
                  "RandomRatio)",
                  (unsigned)s[T_STRIDE]->line);
    }
    if ((rc = get_u64(s[T_RANDOM], 0, IOSPD_MAX_OFFSET, &v64, err)))
      return rc;
    t->random_ratio = 100;
    t->stride_align = v64; /* 0: block-size alignment, as in DISKSPD */
  }
  if (s[T_RANDOM_RATIO]) {
    if (s[T_STRIDE]) {
      return perr(err, s[T_RANDOM_RATIO],
                  "<RandomRatio> conflicts with <StrideSize> of line %u: "
                  "mixed random/sequential IO takes its alignment from "
                  "<Random>",
                  (unsigned)s[T_STRIDE]->line);
    }
    if ((rc = get_u32(s[T_RANDOM_RATIO], 1, 99, &t->random_ratio, err)))
      return rc;
  }
  /* Cache elements act only when true; DisableLocalCache comes after the
   * others, so it wins (DISKSPD's order). */
  if (s[T_DISABLE_OS_CACHE]) {
    if ((rc = get_bool(s[T_DISABLE_OS_CACHE], &b, err))) return rc;
    if (b) t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  }
  if (s[T_MMAP]) {
    if ((rc = get_bool(s[T_MMAP], &b, err))) return rc;
    if (b) t->memory_mapped = true;
  }
  if (s[T_DISABLE_ALL_CACHE]) {
    if ((rc = get_bool(s[T_DISABLE_ALL_CACHE], &b, err))) return rc;
    if (b) {
      t->cache_mode = IOSPD_CACHE_DISABLE_OS;
      t->write_through = true;
    }
  }
  if (s[T_DISABLE_LOCAL_CACHE]) {
    if ((rc = get_bool(s[T_DISABLE_LOCAL_CACHE], &b, err))) return rc;
    if (b) t->cache_mode = IOSPD_CACHE_DISABLE_LOCAL;
  }
  if (s[T_WRITE_THROUGH]) {
    if ((rc = get_bool(s[T_WRITE_THROUGH], &b, err))) return rc;
    if (b) t->write_through = true;
  }
  if (s[T_FLUSH_TYPE]) {
    static const char* const flush[] = {"ViewOfFile", "NonVolatileMemory",
                                        "NonVolatileMemoryNoDrain"};
    int w;
    if ((rc = simple(s[T_FLUSH_TYPE], NULL, 0, err)) ||
        (rc = get_enum(s[T_FLUSH_TYPE], s[T_FLUSH_TYPE]->text, "<FlushType>",
                       flush, 3, &w, err)))
      return rc;
    t->flush_type = (iospd_flush_type_t)(IOSPD_FLUSH_VIEW_OF_FILE + w);
  }
  if (s[T_BYPASS_IO]) { /* DISKSPD 2.3 */
    int w;
    if ((rc = simple(s[T_BYPASS_IO], NULL, 0, err)) ||
        (rc = get_d23(s[T_BYPASS_IO], s[T_BYPASS_IO]->text, "<BypassIO>",
                      iospd_d23_bypass, &w, err)))
      return rc;
    t->bypass_io = (iospd_bypass_io_t)w;
  }
  if (s[T_WRITE_BUFFER] && (rc = read_write_buffer(s[T_WRITE_BUFFER], t, err)))
    return rc;
  if (s[T_BURST]) {
    if ((rc = get_u32(s[T_BURST], 0, IOSPD_COUNT_MAX, &t->burst_size, err)))
      return rc;
    t->burst_set = true;
  }
  if (s[T_THINK]) {
    if ((rc = get_u32(s[T_THINK], 0, IOSPD_COUNT_MAX, &t->think_time, err)))
      return rc;
    t->think_set = true;
  }
  if (s[T_THROUGHPUT]) {
    static const char* const unit_attr[] = {"unit"};
    node_t* g = s[T_THROUGHPUT];
    if ((rc = check_attrs(g, unit_attr, 1, err))) return rc;
    const char* unit = iospd_xml_attr(g, "unit");
    static const char* const units[] = {"BPMS", "IOPS"};
    int w = 0;
    if (unit != NULL &&
        (rc = get_enum(g, unit, "<Throughput> attribute unit", units, 2, &w,
                       err)))
      return rc;
    if ((rc = simple(g, unit_attr, 1, err)) ||
        (rc = number_value(g, 0, UINT32_MAX, &v64, err)))
      return rc;
    v32 = (uint32_t)v64;
    if (w == 1) {
      /* DISKSPD converts IOPS to whole bytes per millisecond with the block
       * size (truncating) and keeps the IOPS figure for display. */
      uint64_t bpms = (uint64_t)v32 * t->block_size / 1000u;
      if (bpms > UINT32_MAX) {
        return perr(err, g,
                    "<Throughput unit=\"IOPS\"> %u with a block size of %u "
                    "is more than %u bytes per millisecond",
                    (unsigned)v32, (unsigned)t->block_size,
                    (unsigned)UINT32_MAX);
      }
      t->throughput_iops = v32;
      t->throughput_bpms = (uint32_t)bpms;
    } else {
      t->throughput_iops = 0;
      t->throughput_bpms = v32;
    }
  }
  if (s[T_THREADS_PER_FILE] &&
      (rc = get_u32(s[T_THREADS_PER_FILE], 1, IOSPD_COUNT_MAX, &t->threads_per_file,
                    err)))
    return rc;
  if (s[T_FILE_SIZE]) {
    if ((rc = get_u64(s[T_FILE_SIZE], 0, UINT64_MAX, &t->file_size, err)))
      return rc;
    t->create = true;
  }
  if (s[T_MAX_FILE_SIZE] &&
      (rc = get_u64(s[T_MAX_FILE_SIZE], 0, UINT64_MAX, &t->max_file_size,
                    err)))
    return rc;
  if (s[T_WRITE_RATIO] &&
      (rc = get_u32(s[T_WRITE_RATIO], 0, 100, &t->write_ratio, err)))
    return rc;
  if (s[T_PARALLEL_ASYNC] &&
      (rc = get_bool(s[T_PARALLEL_ASYNC], &t->parallel_async, err)))
    return rc;
  if (s[T_THREAD_STRIDE] &&
      (rc = get_u64(s[T_THREAD_STRIDE], 0, IOSPD_MAX_OFFSET,
                    &t->thread_stride, err)))
    return rc;
  if (s[T_IO_PRIORITY] &&
      (rc = get_u32(s[T_IO_PRIORITY], 1, 3, &t->io_priority, err)))
    return rc;
  if (s[T_WEIGHT] &&
      (rc = get_u32(s[T_WEIGHT], 0, UINT32_MAX, &t->weight, err)))
    return rc;
  if (s[T_DISTRIBUTION] &&
      (rc = read_distribution(s[T_DISTRIBUTION], t, err)))
    return rc;
  if (s[T_THREAD_TARGETS] &&
      (rc = read_thread_targets(s[T_THREAD_TARGETS], t, err)))
    return rc;
  return 0;
}

/* ---- TimeSpan ---- */

/* A CPU mask: 0x and up to 16 hex digits, or a decimal number. */
static bool parse_mask(const char* text, uint64_t* out) {
  char t[48];
  trimmed(text, t, sizeof t);
  if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    const char* p = t + 2;
    uint64_t v = 0;
    size_t n = 0;
    for (; *p; p++, n++) {
      char ch = *p;
      int d = ch >= '0' && ch <= '9'   ? ch - '0'
              : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
              : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                       : -1;
      if (d < 0 || n >= 16) return false;
      v = v << 4 | (uint64_t)d;
    }
    if (n == 0) return false;
    *out = v;
    return true;
  }
  return parse_number(t, UINT64_MAX, out);
}

/* DISKSPD 2.3's <Affinity>: <Group Group="g" Mask="0x.."/> per group, mask
 * 0 the whole group; read into the CPU list in mask order. */
static int read_affinity_groups(node_t* n, iospd_timespan_t* ts,
                                iospd_err_t* err) {
  int rc = list_of(n, "Group", err);
  if (rc) return rc;
  uint32_t count = 0;
  static const char* const attrs[] = {"Group", "Mask"};
  for (node_t* c = n->first_child; c; c = c->next_sibling) {
    if ((rc = simple(c, attrs, 2, err))) return rc;
    const char* g = iospd_xml_attr(c, "Group");
    const char* m = iospd_xml_attr(c, "Mask");
    uint64_t gv, mv;
    if (g == NULL || m == NULL || !blank(c->text))
      return perr(err, c,
                  "<Group> inside <Affinity> needs the Group and Mask "
                  "attributes and no text, e.g. <Group Group=\"0\" "
                  "Mask=\"0x3\"/>");
    if (!parse_number(g, 65535, &gv))
      return perr(err, c, "<Group> attribute Group must be a whole number "
                          "from 0 to 65535, got '%.*s'", clip(g), g);
    if (!parse_mask(m, &mv))
      return perr(err, c, "<Group> attribute Mask must be a 64-bit CPU mask "
                          "such as 0x3 (0x0: the whole group), got '%.*s'",
                  clip(m), m);
    uint32_t bits = 0;
    for (unsigned b = 0; b < 64; b++) bits += (unsigned)(mv >> b & 1u);
    count += mv == 0 ? 1 : bits;
  }
  iospd_affinity_t* a = iospd_calloc(count ? count : 1, sizeof *a);
  if (a == NULL) return no_memory(err);
  uint32_t i = 0;
  for (node_t* c = n->first_child; c; c = c->next_sibling) {
    uint64_t gv = 0, mv = 0;
    (void)parse_number(iospd_xml_attr(c, "Group"), 65535, &gv);
    (void)parse_mask(iospd_xml_attr(c, "Mask"), &mv);
    if (mv == 0) {
      a[i].group = (uint16_t)gv;
      a[i++].cpu = IOSPD_AFFINITY_WHOLE_GROUP;
      continue;
    }
    for (unsigned b = 0; b < 64; b++)
      if (mv >> b & 1u) {
        a[i].group = (uint16_t)gv;
        a[i++].cpu = (uint16_t)b;
      }
  }
  iospd_free(ts->affinity);
  ts->affinity = a;
  ts->affinity_count = i;
  return 0;
}

static int read_affinity(node_t* n, iospd_timespan_t* ts, iospd_err_t* err) {
  int rc = check_attrs(n, NULL, 0, err);
  if (rc) return rc;
  if (n->first_child == NULL) {
    return perr(err, n,
                "<Affinity> needs at least one <AffinityGroupAssignment>, "
                "<AffinityAssignment> or (DISKSPD 2.3) <Group>");
  }
  const char* kind = n->first_child->name;
  if (strcmp(kind, "Group") == 0) return read_affinity_groups(n, ts, err);
  if (strcmp(kind, "AffinityAssignment") != 0 &&
      strcmp(kind, "AffinityGroupAssignment") != 0) {
    return perr(err, n->first_child,
                "unknown element <%s> inside <Affinity>; expected "
                "<AffinityGroupAssignment>, <AffinityAssignment> or <Group>",
                kind);
  }
  if ((rc = list_of(n, kind, err))) return rc;
  bool legacy = kind[8] == 'A'; /* "AffinityAssignment" */
  uint32_t count = count_children(n);
  iospd_affinity_t* a = iospd_calloc(count, sizeof *a);
  if (a == NULL) return no_memory(err);
  uint32_t i = 0;
  for (node_t* c = n->first_child; c; c = c->next_sibling, i++) {
    uint32_t cpu, group = 0;
    if (legacy) {
      /* DISKSPD 2.0 form: a CPU number in group 0. */
      if ((rc = get_u32(c, 0, 255, &cpu, err))) goto fail;
    } else {
      static const char* const attrs[] = {"Group", "Processor"};
      if ((rc = simple(c, attrs, 2, err))) goto fail;
      if (!blank(c->text)) {
        rc = perr(err, c,
                  "<AffinityGroupAssignment> takes its values from the "
                  "Group and Processor attributes and holds no text");
        goto fail;
      }
      const char* g = iospd_xml_attr(c, "Group");
      const char* p = iospd_xml_attr(c, "Processor");
      uint64_t v;
      if (g == NULL || p == NULL) {
        rc = perr(err, c,
                  "<AffinityGroupAssignment> needs both Group and Processor "
                  "attributes, e.g. Group=\"0\" Processor=\"1\"");
        goto fail;
      }
      if (!parse_number(g, 65535, &v)) {
        rc = perr(err, c,
                  "<AffinityGroupAssignment> attribute Group must be a whole "
                  "number from 0 to 65535, got '%.*s'",
                  clip(g), g);
        goto fail;
      }
      group = (uint32_t)v;
      if (!parse_number(p, 255, &v)) {
        rc = perr(err, c,
                  "<AffinityGroupAssignment> attribute Processor must be a "
                  "whole number from 0 to 255, got '%.*s'",
                  clip(p), p);
        goto fail;
      }
      cpu = (uint32_t)v;
    }
    a[i].group = (uint16_t)group;
    a[i].cpu = (uint16_t)cpu;
  }
  iospd_free(ts->affinity);
  ts->affinity = a;
  ts->affinity_count = count;
  return 0;
fail:
  iospd_free(a);
  return rc;
}

enum {
  S_TARGETS, S_DURATION, S_WARMUP, S_COOLDOWN, S_RAND_SEED, S_RANDOM_WRITE,
  S_THREAD_COUNT, S_REQUEST_COUNT, S_GROUP_AFFINITY, S_AFFINITY,
  S_DISABLE_AFFINITY, S_COMPLETION_ROUTINES, S_MEASURE_LATENCY,
  S_IOPS_STDDEV, S_BUCKET, S_IORING, S_AFF_TRAVERSAL, S_BUFSEP,
  S_COMPLETION_DEPTH, S_COUNT
};

static const char* const span_names[S_COUNT] = {
    "Targets", "Duration", "Warmup", "Cooldown", "RandSeed",
    "RandomWriteData", "ThreadCount", "RequestCount", "GroupAffinity",
    "Affinity", "DisableAffinity", "CompletionRoutines", "MeasureLatency",
    "CalculateIopsStdDev", "IoBucketDuration", "IoRing", "AffinityTraversal",
    "BufferSeparation", "CompletionDepth"};

/* DISKSPD 2.3's <IoRing><IoRingBatchSize Percent=>N</..><UseRegBuffer>. */
static int read_ioring(node_t* n, iospd_ioring_t* r, iospd_err_t* err) {
  static const char* const names[] = {"IoRingBatchSize", "UseRegBuffer"};
  node_t* s[2];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, names, 2, s, err))) return rc;
  *r = (iospd_ioring_t){true, true, IOSPD_IORING_DEFAULT_BATCH_PCT, true};
  if (s[1] && (rc = get_bool(s[1], &r->registered_buffers, err))) return rc;
  if (s[0]) {
    static const char* const pct_attr[] = {"Percent"};
    if ((rc = simple(s[0], pct_attr, 1, err))) return rc;
    const char* pct = iospd_xml_attr(s[0], "Percent");
    r->batch_percent = false;
    if (pct != NULL) {
      static const char* const tf[] = {"false", "true"};
      int w = 0;
      if ((rc = get_enum(s[0], pct, "<IoRingBatchSize> attribute Percent",
                         tf, 2, &w, err)))
        return rc;
      r->batch_percent = w == 1;
    }
    uint64_t v;
    if ((rc = number_value(s[0], 1,
                           r->batch_percent ? 100 : IOSPD_IORING_BATCH_MAX,
                           &v, err)))
      return rc;
    r->batch = (uint32_t)v;
  }
  return 0;
}

/* <AffinityTraversal Group="Fill|Span" Efficiency="...">Cpu|CoreAware</..> */
static int read_traversal(node_t* n, iospd_timespan_t* ts, iospd_err_t* err) {
  static const char* const attrs[] = {"Group", "Efficiency"};
  int rc = simple(n, attrs, 2, err);
  if (rc) return rc;
  int w;
  if ((rc = get_d23(n, n->text, "<AffinityTraversal>", iospd_d23_traversal,
                    &w, err)))
    return rc;
  ts->affinity_core_aware = w == 1;
  const char* g = iospd_xml_attr(n, "Group");
  if (g != NULL) {
    if ((rc = get_d23(n, g, "<AffinityTraversal> attribute Group",
                      iospd_d23_group_order, &w, err)))
      return rc;
    ts->affinity_span_groups = w == 1;
  }
  const char* e = iospd_xml_attr(n, "Efficiency");
  if (e != NULL) {
    if ((rc = get_d23(n, e, "<AffinityTraversal> attribute Efficiency",
                      iospd_d23_efficiency, &w, err)))
      return rc;
    ts->affinity_efficiency = (iospd_aff_efficiency_t)w;
  }
  return 0;
}

static int read_timespan(node_t* n, iospd_timespan_t* ts, iospd_err_t* err) {
  node_t* s[S_COUNT];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, span_names, S_COUNT, s, err))) return rc;
  if (s[S_TARGETS] == NULL) {
    return perr(err, n, "<TimeSpan> needs a <Targets> element");
  }
  struct {
    int slot;
    uint32_t min, max;
    uint32_t* field;
  } nums[] = {{S_DURATION, 0, IOSPD_COUNT_MAX, &ts->duration},
              {S_WARMUP, 0, IOSPD_COUNT_MAX, &ts->warmup},
              {S_COOLDOWN, 0, IOSPD_COUNT_MAX, &ts->cooldown},
              {S_RAND_SEED, 0, UINT32_MAX, &ts->rand_seed},
              {S_THREAD_COUNT, 0, IOSPD_COUNT_MAX, &ts->thread_count},
              {S_REQUEST_COUNT, 0, IOSPD_COUNT_MAX, &ts->request_count},
              {S_BUCKET, 1, IOSPD_COUNT_MAX, &ts->io_bucket_ms}};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(nums); i++) {
    node_t* c = s[nums[i].slot];
    if (c && (rc = get_u32(c, nums[i].min, nums[i].max, nums[i].field, err)))
      return rc;
  }
  struct {
    int slot;
    bool* field;
  } bools[] = {{S_RANDOM_WRITE, &ts->random_write_data},
               {S_DISABLE_AFFINITY, &ts->disable_affinity},
               {S_COMPLETION_ROUTINES, &ts->completion_routines},
               {S_MEASURE_LATENCY, &ts->measure_latency},
               {S_IOPS_STDDEV, &ts->calc_iops_stddev}};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(bools); i++) {
    node_t* c = s[bools[i].slot];
    if (c && (rc = get_bool(c, bools[i].field, err))) return rc;
  }
  if (s[S_GROUP_AFFINITY]) { /* accepted by the schema, ignored by DISKSPD */
    bool ignored;
    if ((rc = get_bool(s[S_GROUP_AFFINITY], &ignored, err))) return rc;
  }
  if (s[S_AFFINITY] && (rc = read_affinity(s[S_AFFINITY], ts, err))) return rc;
  /* DISKSPD 2.3's elements (read at either --diskspd level). */
  if (s[S_IORING] && (rc = read_ioring(s[S_IORING], &ts->ioring, err)))
    return rc;
  if (s[S_AFF_TRAVERSAL] &&
      (rc = read_traversal(s[S_AFF_TRAVERSAL], ts, err)))
    return rc;
  if (s[S_BUFSEP]) {
    int w;
    if ((rc = simple(s[S_BUFSEP], NULL, 0, err)) ||
        (rc = get_d23(s[S_BUFSEP], s[S_BUFSEP]->text, "<BufferSeparation>",
                      iospd_d23_bufsep, &w, err)))
      return rc;
    ts->buffer_separation = (iospd_buffer_separation_t)w;
  }
  if (s[S_COMPLETION_DEPTH] &&
      (rc = get_u32(s[S_COMPLETION_DEPTH], 1, IOSPD_COMPLETION_DEPTH_MAX,
                    &ts->completion_depth, err)))
    return rc;

  node_t* targets = s[S_TARGETS];
  if ((rc = check_attrs(targets, NULL, 0, err)) ||
      (rc = list_of(targets, "Target", err)))
    return rc;
  /* One allocation for all targets: growing the array one target at a time
   * is quadratic where realloc copies (a profile may hold many targets). */
  uint32_t more = count_children(targets);
  iospd_target_t* a = iospd_realloc(
      ts->targets, ((size_t)ts->target_count + more) * sizeof *a);
  if (a == NULL) return no_memory(err);
  ts->targets = a;
  for (node_t* c = targets->first_child; c; c = c->next_sibling) {
    iospd_target_t* t = &ts->targets[ts->target_count++];
    iospd_target_init(t);
    if ((rc = read_target(c, t, err))) return rc;
  }
  return 0;
}

/* ---- Profile ---- */

static const char* const etw_names[] = {
    "Process", "Thread", "ImageLoad", "DiskIO", "MemoryPageFaults",
    "MemoryHardFaults", "Network", "Registry", "UsePagedMemory",
    "UsePerfTimer", "UseSystemTimer", "UseCyclesCounter"};

static int read_etw(node_t* n, iospd_etw_t* e, iospd_err_t* err) {
  node_t* s[12];
  bool* fields[12] = {&e->process, &e->thread, &e->image_load, &e->disk_io,
                      &e->memory_page_faults, &e->memory_hard_faults,
                      &e->network, &e->registry, &e->use_paged_memory,
                      &e->use_perf_timer, &e->use_system_timer,
                      &e->use_cycles_counter};
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, etw_names, 12, s, err))) return rc;
  for (size_t i = 0; i < 12; i++) {
    if (s[i] == NULL) continue;
    if ((rc = get_bool(s[i], fields[i], err))) return rc;
    e->enabled = true; /* any present child enables ETW (DISKSPD) */
  }
  return 0;
}

/* <Tree>: iospd's file-tree mode (--tree, docs/tree.md); the ranges are
 * the command line's. */
enum {
  TR_DIRS, TR_FILES, TR_FILE_SIZE, TR_SKEW_HOT, TR_SKEW_COLD, TR_ASSIGN,
  TR_RELOCATE, TR_DEPTH, TR_WIDTH, TR_APPEND, TR_CLEANUP, TR_COUNT
};
static const char* const tree_names[TR_COUNT] = {
    "Directories", "Files", "FileSize", "SkewHot", "SkewCold", "Assign",
    "RelocateRate", "Depth", "Width", "Append", "Cleanup"};

static int read_tree(node_t* n, iospd_tree_opts_t* t, iospd_err_t* err) {
  node_t* s[TR_COUNT];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, tree_names, TR_COUNT, s, err))) return rc;
  if (s[TR_DIRS] == NULL)
    return perr(err, n, "<Tree> needs a <Directories> element");
  char* dirs = NULL;
  if ((rc = path_value(s[TR_DIRS], &dirs, err))) return rc;
  iospd_free(t->dirs);
  t->dirs = dirs;
  if (dirs[0] == '\0' || dirs[0] == ',' || dirs[strlen(dirs) - 1] == ',' ||
      strstr(dirs, ",,") != NULL)
    return perr(err, s[TR_DIRS],
                "<Directories> needs directory names separated by single "
                "commas");
  if (s[TR_FILES] && (rc = get_u32(s[TR_FILES], 1, 10000000, &t->files, err)))
    return rc;
  if (s[TR_FILE_SIZE] &&
      (rc = get_u64(s[TR_FILE_SIZE], 1, IOSPD_MAX_OFFSET, &t->file_size, err)))
    return rc;
  if (s[TR_SKEW_HOT] &&
      (rc = get_u32(s[TR_SKEW_HOT], 1, 1000000, &t->skew_hot, err)))
    return rc;
  if (s[TR_SKEW_COLD] &&
      (rc = get_u32(s[TR_SKEW_COLD], 1, 1000000, &t->skew_cold, err)))
    return rc;
  if (s[TR_ASSIGN]) {
    static const char* const words[] = {"even", "ordered", "random"};
    int w = 0;
    if ((rc = simple(s[TR_ASSIGN], NULL, 0, err)) ||
        (rc = get_enum(s[TR_ASSIGN], s[TR_ASSIGN]->text, "<Assign>", words, 3,
                       &w, err)))
      return rc;
    t->assign = (iospd_tree_assign_t)w;
  }
  if (s[TR_RELOCATE] &&
      (rc = get_u32(s[TR_RELOCATE], 0, 100000, &t->relocate_rate, err)))
    return rc;
  if (s[TR_DEPTH] && (rc = get_u32(s[TR_DEPTH], 0, 8, &t->depth, err)))
    return rc;
  if (s[TR_WIDTH] && (rc = get_u32(s[TR_WIDTH], 1, 1000, &t->width, err)))
    return rc;
  if (s[TR_APPEND] && (rc = get_bool(s[TR_APPEND], &t->append, err))) return rc;
  if (s[TR_CLEANUP] && (rc = get_bool(s[TR_CLEANUP], &t->cleanup, err)))
    return rc;
  return 0;
}

enum {
  P_TIMESPANS, P_VERBOSE, P_VERBOSE_STATS, P_PROGRESS, P_EXPERIMENT,
  P_FORMAT, P_ETW, P_PRECREATE, P_TREE, P_COUNT
};

static const char* const profile_names[P_COUNT] = {
    "TimeSpans", "Verbose", "VerboseStats", "Progress", "ExperimentFlags",
    "ResultFormat", "ETW", "PrecreateFiles", "Tree"};

static int read_profile(node_t* n, iospd_profile_t* p, iospd_err_t* err) {
  node_t* s[P_COUNT];
  int rc = check_attrs(n, NULL, 0, err);
  if (rc || (rc = collect(n, profile_names, P_COUNT, s, err))) return rc;
  if (s[P_TIMESPANS] == NULL) {
    return perr(err, n, "<Profile> needs a <TimeSpans> element");
  }
  if (s[P_VERBOSE] && (rc = get_bool(s[P_VERBOSE], &p->verbose, err)))
    return rc;
  if (s[P_VERBOSE_STATS] &&
      (rc = get_bool(s[P_VERBOSE_STATS], &p->verbose_stats, err)))
    return rc;
  if (s[P_PROGRESS] &&
      (rc = get_u32(s[P_PROGRESS], 0, IOSPD_COUNT_MAX, &p->progress_dots, err)))
    return rc;
  if (s[P_EXPERIMENT] &&
      (rc = get_u32(s[P_EXPERIMENT], 0, UINT32_MAX, &p->experiment_flags,
                    err)))
    return rc;
  if (s[P_FORMAT]) {
    /* The words a profile may hold, from the format table ("json":
     * iospd's -Rjson, written by iospd's own profiles). */
    size_t nf = 0;
    const iospd_format_t* table = iospd_formats(&nf);
    const char* words[8];
    iospd_result_format_t of[8];
    size_t nw = 0;
    for (size_t i = 0; i < nf && nw < 8; i++)
      if (table[i].uses & IOSPD_FMT_PROFILE) {
        of[nw] = table[i].format;
        words[nw++] = table[i].word;
      }
    int w = 0;
    if ((rc = simple(s[P_FORMAT], NULL, 0, err)) ||
        (rc = get_enum(s[P_FORMAT], s[P_FORMAT]->text, "<ResultFormat>",
                       words, nw, &w, err)))
      return rc;
    p->format = of[w];
  }
  if (s[P_ETW] && (rc = read_etw(s[P_ETW], &p->etw, err))) return rc;
  if (s[P_TREE] && (rc = read_tree(s[P_TREE], &p->ext.tree, err))) return rc;
  if (s[P_PRECREATE]) {
    static const char* const modes[] = {
        "UseMaxSize", "CreateOnlyFilesWithConstantSizes",
        "CreateOnlyFilesWithConstantOrZeroSizes"};
    int w = 0;
    if ((rc = simple(s[P_PRECREATE], NULL, 0, err)) ||
        (rc = get_enum(s[P_PRECREATE], s[P_PRECREATE]->text,
                       "<PrecreateFiles>", modes, 3, &w, err)))
      return rc;
    p->precreate = (iospd_precreate_t)(IOSPD_PRECREATE_USE_MAX_SIZE + w);
  }
  node_t* spans = s[P_TIMESPANS];
  if ((rc = check_attrs(spans, NULL, 0, err)) ||
      (rc = list_of(spans, "TimeSpan", err)))
    return rc;
  uint32_t more = count_children(spans);
  iospd_timespan_t* a = iospd_realloc(
      p->timespans, ((size_t)p->timespan_count + more) * sizeof *a);
  if (a == NULL) return no_memory(err);
  p->timespans = a;
  for (node_t* c = spans->first_child; c; c = c->next_sibling) {
    iospd_timespan_t* ts = &p->timespans[p->timespan_count++];
    iospd_timespan_init(ts);
    if ((rc = read_timespan(c, ts, err))) return rc;
  }
  return 0;
}

int iospd_xml_profile_parse(const char* data, size_t len, iospd_profile_t* p,
                            iospd_err_t* err) {
  iospd_xml_doc_t* doc;
  int rc = iospd_xml_parse(data, len, &doc, err);
  if (rc) return rc;
  node_t* root = iospd_xml_root(doc);
  if (strcmp(root->name, "Profile") != 0) {
    rc = perr(err, root,
              "the root element must be <Profile>, not <%s>; is this a "
              "DISKSPD profile?",
              root->name);
  } else {
    rc = read_profile(root, p, err);
  }
  iospd_xml_free(doc);
  return rc;
}

int iospd_xml_profile_substitute(iospd_profile_t* p, const char* const* targets,
                                 uint32_t count, iospd_err_t* err) {
  /* First check every template and which substitutions it uses, so nothing
   * is changed when the profile and the command line do not fit. */
  bool* used = NULL;
  if (count > 0) {
    used = iospd_calloc(count, sizeof *used);
    if (used == NULL) return no_memory(err);
  }
  int rc = 0;
  for (uint32_t i = 0; i < p->timespan_count && rc == 0; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    for (uint32_t j = 0; j < ts->target_count && rc == 0; j++) {
      const char* path = ts->targets[j].path;
      uint32_t n;
      if (path == NULL || path[0] != '*') continue;
      if (!template_number(path, &n)) {
        rc = iospd_err_set(err, IOSPD_EPARSE,
                           "template path '%.*s' (timespan %u, target %u) is "
                           "not valid: write * followed by a positive whole "
                           "number, such as *1",
                           clip(path), path, (unsigned)(i + 1),
                           (unsigned)(j + 1));
      } else if (count == 0) {
        /* No command-line targets: templates stay for -Rp; validation
         * refuses them for a real run. */
      } else if (n > count) {
        rc = iospd_err_set(err, IOSPD_EUSAGE,
                           "template path '%s' (timespan %u, target %u) has "
                           "no substitution: the command line gives %u "
                           "target%s; add target %u after the options",
                           path, (unsigned)(i + 1), (unsigned)(j + 1),
                           (unsigned)count, count == 1 ? "" : "s",
                           (unsigned)n);
      } else {
        used[n - 1] = true;
      }
    }
  }
  for (uint32_t k = 0; k < count && rc == 0; k++) {
    if (!used[k]) {
      rc = iospd_err_set(err, IOSPD_EUSAGE,
                         "command-line target %u ('%.*s') is not used: the "
                         "profile has no template path *%u",
                         (unsigned)(k + 1), clip(targets[k]), targets[k],
                         (unsigned)(k + 1));
    }
  }
  iospd_free(used);
  if (rc || count == 0) return rc;
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    iospd_timespan_t* ts = &p->timespans[i];
    for (uint32_t j = 0; j < ts->target_count; j++) {
      iospd_target_t* t = &ts->targets[j];
      uint32_t n;
      if (t->path == NULL || !template_number(t->path, &n)) continue;
      if (iospd_target_set_path(t, targets[n - 1])) return no_memory(err);
    }
  }
  return 0;
}
