/* SPDX-License-Identifier: MIT */
/* A small, strict, non-validating XML 1.0 reader: UTF-8 bytes in, a DOM of
 * elements in one arena out. It refuses DTDs and every entity except the five
 * predefined ones, so no input can expand or reach outside the document, and it
 * never recurses, so no input can exhaust the stack. */
#include "iospd/xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/strbuf.h"

/* Limits beyond the public depth and size limits. They keep a hostile document
 * from turning into quadratic work or gigabytes of nodes; real profiles are a
 * few KiB with at most two attributes per element. */
#define MAX_ATTRS 64
#define MAX_ELEMENTS 1000000u
#define ARENA_BLOCK 65536u

typedef struct arena_block_s {
  struct arena_block_s* next;
  size_t used, cap;
  /* data follows, 16-byte aligned by the header size */
} arena_block_t;

struct iospd_xml_doc_s {
  arena_block_t* blocks;
  iospd_xml_node_t* root;
};

/* The header is padded so the data area keeps malloc's alignment. */
#define BLOCK_HDR ((sizeof(arena_block_t) + 15u) & ~(size_t)15u)

static void* arena_alloc(iospd_xml_doc_t* doc, size_t n) {
  n = (n + 7u) & ~(size_t)7u;
  arena_block_t* b = doc->blocks;
  if (b == NULL || b->cap - b->used < n) {
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = iospd_malloc(BLOCK_HDR + cap);
    if (b == NULL) return NULL;
    b->cap = cap;
    b->used = 0;
    b->next = doc->blocks;
    doc->blocks = b;
  }
  void* p = (char*)b + BLOCK_HDR + b->used;
  b->used += n;
  return p;
}

static char* arena_strndup(iospd_xml_doc_t* doc, const char* s, size_t n) {
  char* d = arena_alloc(doc, n + 1);
  if (d == NULL) return NULL;
  if (n) memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

void iospd_xml_free(iospd_xml_doc_t* doc) {
  if (doc == NULL) return;
  arena_block_t* b = doc->blocks;
  while (b != NULL) {
    arena_block_t* next = b->next;
    iospd_free(b);
    b = next;
  }
  iospd_free(doc);
}

const iospd_xml_node_t* iospd_xml_root(const iospd_xml_doc_t* doc) {
  return doc != NULL ? doc->root : NULL;
}

const char* iospd_xml_attr(const iospd_xml_node_t* n, const char* name) {
  if (n == NULL) return NULL;
  for (const iospd_xml_attr_t* a = n->attrs; a != NULL; a = a->next) {
    if (strcmp(a->name, name) == 0) return a->value;
  }
  return NULL;
}

/* ---- parser state ---- */

typedef struct frame_s {
  iospd_xml_node_t* node;
  iospd_xml_node_t* last_child;
  size_t text_start; /* where this element's text begins in the text stack */
} frame_t;

typedef struct parser_s {
  const unsigned char* s;
  size_t len;
  size_t pos;
  /* Line/column cursor, advanced lazily and only forwards, so computing the
   * location of every node stays linear in the document size. */
  size_t loc_off, loc_base; /* loc_base: after a byte order mark */
  uint32_t loc_line, loc_col;
  iospd_err_t* err;
  iospd_xml_doc_t* doc;
  frame_t stack[IOSPD_XML_MAX_DEPTH];
  int depth;
  uint32_t elements;
  /* The character data of all open elements, innermost last: an element's
   * text is text.data[frame.text_start..]. Children append after it and
   * truncate back when they close. */
  iospd_strbuf_t text;
  iospd_strbuf_t scratch; /* attribute values */
} parser_t;

static void locate(parser_t* P, size_t pos, uint32_t* line, uint32_t* col) {
  if (pos < P->loc_off) { /* only on error paths: rescan from the start */
    P->loc_off = P->loc_base;
    P->loc_line = 1;
    P->loc_col = 1;
  }
  if (pos > P->len) pos = P->len;
  const unsigned char* s = P->s;
  size_t i = P->loc_off;
  uint32_t ln = P->loc_line, c = P->loc_col;
  for (; i < pos; i++) {
    unsigned char b = s[i];
    if (b == '\n') {
      ln++;
      c = 1;
    } else if (b == '\r') {
      if (i + 1 < P->len && s[i + 1] == '\n') continue; /* CR LF: one break */
      ln++;
      c = 1;
    } else if ((b & 0xC0) != 0x80) {
      c++; /* count characters, not bytes */
    }
  }
  P->loc_off = pos;
  P->loc_line = ln;
  P->loc_col = c;
  *line = ln;
  *col = c;
}

static int fail_at(parser_t* P, size_t pos, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);
static int fail_at(parser_t* P, size_t pos, const char* fmt, ...) {
  char what[IOSPD_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  uint32_t line, col;
  locate(P, pos, &line, &col);
  return iospd_err_set(P->err, IOSPD_EPARSE, "line %u, column %u: %s",
                       (unsigned)line, (unsigned)col, what);
}

static int no_memory(parser_t* P) {
  return iospd_err_set(P->err, IOSPD_ENOMEM,
                       "out of memory while reading the XML document");
}

/* A short, printable excerpt of the input for messages: at most max bytes,
 * never cut inside a UTF-8 sequence. */
static int excerpt_len(const unsigned char* s, size_t avail, size_t max) {
  size_t n = avail < max ? avail : max;
  if (n < avail) {
    while (n > 0 && (s[n] & 0xC0) == 0x80) n--;
  }
  return (int)n;
}

static bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool starts_with(const parser_t* P, size_t pos, const char* lit) {
  size_t n = strlen(lit);
  return P->len - pos >= n && memcmp(P->s + pos, lit, n) == 0;
}

/* Decodes one UTF-8 sequence from an already validated buffer. */
static uint32_t decode(const unsigned char* s, size_t* adv) {
  unsigned char b = s[0];
  if (b < 0x80) {
    *adv = 1;
    return b;
  }
  if (b < 0xE0) {
    *adv = 2;
    return ((uint32_t)(b & 0x1F) << 6) | (s[1] & 0x3F);
  }
  if (b < 0xF0) {
    *adv = 3;
    return ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) |
           (s[2] & 0x3F);
  }
  *adv = 4;
  return ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
         ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
}

/* XML 1.0 Char production. */
static bool is_xml_char(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

static bool is_name_start(uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == ':' || (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) ||
         (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
         (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) ||
         (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

static bool is_name_char(uint32_t c) {
  return is_name_start(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') ||
         c == 0xB7 || (c >= 0x300 && c <= 0x36F) ||
         (c >= 0x203F && c <= 0x2040);
}

/* Checks the whole input once up front: valid UTF-8 (no overlongs, no
 * surrogates) and only characters XML allows. Everything after this may
 * decode without checks. */
static int check_chars(parser_t* P, size_t start) {
  const unsigned char* s = P->s;
  size_t i = start, n = P->len;
  while (i < n) {
    unsigned char b = s[i];
    if (b < 0x80) {
      if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') {
        return fail_at(P, i,
                       "control character 0x%02X is not allowed in XML", b);
      }
      i++;
      continue;
    }
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      need = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F; /* no UTF-16 surrogates */
    } else if (b >= 0xF0 && b <= 0xF4) {
      need = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return fail_at(P, i,
                     "byte 0x%02X is not valid UTF-8; save the file as UTF-8",
                     b);
    }
    if (n - i <= need) {
      return fail_at(P, i, "the document ends inside a UTF-8 sequence");
    }
    if (s[i + 1] < lo || s[i + 1] > hi) {
      return fail_at(P, i,
                     "byte 0x%02X is not valid UTF-8; save the file as UTF-8",
                     b);
    }
    for (size_t k = 2; k <= need; k++) {
      if ((s[i + k] & 0xC0) != 0x80) {
        return fail_at(P, i,
                       "byte 0x%02X is not valid UTF-8; save the file as UTF-8",
                       b);
      }
    }
    size_t adv;
    uint32_t c = decode(s + i, &adv);
    if (!is_xml_char(c)) {
      return fail_at(P, i, "character U+%04X is not allowed in XML",
                     (unsigned)c);
    }
    i += adv;
  }
  return 0;
}

/* Reads a Name at P->pos; returns its byte length (0 if none: caller
 * reports). */
static size_t scan_name(const parser_t* P, size_t pos) {
  size_t i = pos, adv;
  if (i >= P->len) return 0;
  uint32_t c = decode(P->s + i, &adv);
  if (!is_name_start(c)) return 0;
  i += adv;
  while (i < P->len) {
    c = decode(P->s + i, &adv);
    if (!is_name_char(c)) break;
    i += adv;
  }
  return i - pos;
}

static void skip_space(parser_t* P) {
  while (P->pos < P->len && is_space(P->s[P->pos])) P->pos++;
}

static void put_utf8(iospd_strbuf_t* sb, uint32_t c) {
  char b[4];
  size_t n;
  if (c < 0x80) {
    b[0] = (char)c;
    n = 1;
  } else if (c < 0x800) {
    b[0] = (char)(0xC0 | (c >> 6));
    b[1] = (char)(0x80 | (c & 0x3F));
    n = 2;
  } else if (c < 0x10000) {
    b[0] = (char)(0xE0 | (c >> 12));
    b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    b[2] = (char)(0x80 | (c & 0x3F));
    n = 3;
  } else {
    b[0] = (char)(0xF0 | (c >> 18));
    b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    b[3] = (char)(0x80 | (c & 0x3F));
    n = 4;
  }
  iospd_strbuf_append_n(sb, b, n);
}

/* Decodes the reference at P->pos (which is '&') into out. */
static int parse_reference(parser_t* P, iospd_strbuf_t* out) {
  size_t start = P->pos;
  size_t i = start + 1, end = P->len;
  size_t limit = start + 16; /* no legal reference is longer */
  while (i < end && i < limit && P->s[i] != ';' && P->s[i] != '<' &&
         P->s[i] != '&' && !is_space(P->s[i]))
    i++;
  if (i >= end || P->s[i] != ';') {
    return fail_at(P, start,
                   "'&' must start a reference such as &amp; or &#38; "
                   "(write a literal & as &amp;)");
  }
  const char* body = (const char*)P->s + start + 1;
  size_t blen = i - start - 1;
  P->pos = i + 1;
  static const struct {
    const char* name;
    char ch;
  } predefined[] = {
      {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
  for (size_t k = 0; k < IOSPD_ARRAY_SIZE(predefined); k++) {
    if (blen == strlen(predefined[k].name) &&
        memcmp(body, predefined[k].name, blen) == 0) {
      iospd_strbuf_putc(out, predefined[k].ch);
      return 0;
    }
  }
  if (blen >= 2 && body[0] == '#') {
    uint32_t v = 0;
    bool hex = body[1] == 'x';
    size_t k = hex ? 2 : 1;
    bool ok = k < blen;
    for (; ok && k < blen; k++) {
      char ch = body[k];
      uint32_t d;
      if (ch >= '0' && ch <= '9') {
        d = (uint32_t)(ch - '0');
      } else if (hex && ch >= 'a' && ch <= 'f') {
        d = (uint32_t)(ch - 'a' + 10);
      } else if (hex && ch >= 'A' && ch <= 'F') {
        d = (uint32_t)(ch - 'A' + 10);
      } else {
        ok = false;
        break;
      }
      v = v * (hex ? 16u : 10u) + d;
      if (v > 0x10FFFF) v = 0x110000; /* saturate; rejected below */
    }
    if (!ok) {
      return fail_at(P, start, "malformed character reference '&%.*s;'",
                     (int)blen, body);
    }
    if (!is_xml_char(v)) {
      return fail_at(P, start,
                     "character reference '&%.*s;' is not a character XML "
                     "allows",
                     (int)blen, body);
    }
    put_utf8(out, v);
    return 0;
  }
  return fail_at(P, start,
                 "unknown entity '&%.*s;': only &lt; &gt; &amp; &quot; "
                 "&apos; and numeric character references are allowed",
                 excerpt_len((const unsigned char*)body, blen, 40), body);
}

/* Character data up to the next '<' (or the end). */
static int parse_text(parser_t* P) {
  const unsigned char* s = P->s;
  if (P->depth == 0) {
    size_t start = P->pos;
    while (P->pos < P->len && s[P->pos] != '<') {
      if (!is_space(s[P->pos])) {
        return fail_at(P, P->pos, "%s",
                       P->doc->root == NULL
                           ? "text before the root element"
                           : "text after the end of the root element");
      }
      P->pos++;
    }
    (void)start;
    return 0;
  }
  iospd_strbuf_t* t = &P->text;
  while (P->pos < P->len && s[P->pos] != '<') {
    size_t run = P->pos;
    while (P->pos < P->len && s[P->pos] != '<' && s[P->pos] != '&' &&
           s[P->pos] != '\r' && s[P->pos] != ']')
      P->pos++;
    iospd_strbuf_append_n(t, (const char*)s + run, P->pos - run);
    if (P->pos >= P->len || s[P->pos] == '<') break;
    unsigned char c = s[P->pos];
    if (c == '&') {
      int rc = parse_reference(P, t);
      if (rc) return rc;
    } else if (c == '\r') {
      /* line-end normalisation: CR LF and lone CR become LF */
      iospd_strbuf_putc(t, '\n');
      P->pos++;
      if (P->pos < P->len && s[P->pos] == '\n') P->pos++;
    } else { /* ']' */
      if (starts_with(P, P->pos, "]]>")) {
        return fail_at(P, P->pos,
                       "']]>' is not allowed in text (write ]]&gt;)");
      }
      iospd_strbuf_putc(t, ']');
      P->pos++;
    }
  }
  return t->failed ? no_memory(P) : 0;
}

static int parse_comment(parser_t* P) {
  size_t start = P->pos;
  size_t i = start + 4;
  for (; i + 1 < P->len; i++) {
    if (P->s[i] == '-' && P->s[i + 1] == '-') {
      if (i + 2 < P->len && P->s[i + 2] == '>') {
        P->pos = i + 3;
        return 0;
      }
      return fail_at(P, i, "'--' is not allowed inside a comment");
    }
  }
  return fail_at(P, start, "comment is not closed with '-->'");
}

static int parse_cdata(parser_t* P) {
  size_t start = P->pos;
  size_t i = start + 9, n = P->len;
  iospd_strbuf_t* t = &P->text;
  while (i < n) {
    if (P->s[i] == ']' && n - i >= 3 && P->s[i + 1] == ']' &&
        P->s[i + 2] == '>') {
      P->pos = i + 3;
      return t->failed ? no_memory(P) : 0;
    }
    if (P->s[i] == '\r') {
      iospd_strbuf_putc(t, '\n');
      if (i + 1 < n && P->s[i + 1] == '\n') i++;
    } else {
      iospd_strbuf_putc(t, (char)P->s[i]);
    }
    i++;
  }
  return fail_at(P, start, "CDATA section is not closed with ']]>'");
}

/* <?target ...?> anywhere but the start: skipped. */
static int parse_pi(parser_t* P) {
  size_t start = P->pos;
  size_t nlen = scan_name(P, start + 2);
  if (nlen == 0) {
    return fail_at(P, start + 2,
                   "processing instruction needs a name after '<?'");
  }
  if (nlen == 3 && (P->s[start + 2] | 0x20) == 'x' &&
      (P->s[start + 3] | 0x20) == 'm' && (P->s[start + 4] | 0x20) == 'l') {
    return fail_at(P, start,
                   "the XML declaration <?xml ...?> is only allowed at the "
                   "very start of the document");
  }
  size_t i = start + 2 + nlen;
  if (i < P->len && !is_space(P->s[i]) && !starts_with(P, i, "?>")) {
    return fail_at(P, i, "malformed processing instruction name");
  }
  for (; i + 1 < P->len; i++) {
    if (P->s[i] == '?' && P->s[i + 1] == '>') {
      P->pos = i + 2;
      return 0;
    }
  }
  return fail_at(P, start, "processing instruction is not closed with '?>'");
}

/* Reads a quoted attribute value at P->pos into P->scratch (decoded and
 * normalised as XML 1.0 section 3.3.3 says for CDATA attributes). */
static int parse_attr_value(parser_t* P) {
  iospd_strbuf_t* v = &P->scratch;
  iospd_strbuf_reset(v);
  if (P->pos >= P->len || (P->s[P->pos] != '"' && P->s[P->pos] != '\'')) {
    return fail_at(P, P->pos,
                   "attribute value must be in quotes (\" or ')");
  }
  size_t open = P->pos;
  unsigned char q = P->s[P->pos++];
  for (;;) {
    if (P->pos >= P->len) {
      return fail_at(P, open, "attribute value is not closed with %c", q);
    }
    unsigned char c = P->s[P->pos];
    if (c == q) {
      P->pos++;
      break;
    }
    if (c == '<') {
      return fail_at(P, P->pos,
                     "'<' is not allowed in an attribute value (write &lt;)");
    }
    if (c == '&') {
      int rc = parse_reference(P, v);
      if (rc) return rc;
      continue;
    }
    if (c == '\r') {
      if (P->pos + 1 < P->len && P->s[P->pos + 1] == '\n') P->pos++;
      iospd_strbuf_putc(v, ' ');
    } else if (c == '\n' || c == '\t') {
      iospd_strbuf_putc(v, ' ');
    } else {
      iospd_strbuf_putc(v, (char)c);
    }
    P->pos++;
  }
  iospd_strbuf_putc(v, '\0'); /* so an empty value still has storage */
  return v->failed ? no_memory(P) : 0;
}

static int parse_start_tag(parser_t* P) {
  size_t lt = P->pos;
  if (P->depth == 0 && P->doc->root != NULL) {
    return fail_at(P, lt,
                   "content after the end of the root element <%s>: a "
                   "document has exactly one root element",
                   P->doc->root->name);
  }
  size_t nlen = scan_name(P, lt + 1);
  if (nlen == 0) {
    return fail_at(P, lt + 1,
                   "malformed element name: a name starts with a letter, "
                   "'_' or ':'");
  }
  if (P->depth >= IOSPD_XML_MAX_DEPTH) {
    return fail_at(P, lt, "elements are nested more than %d levels deep",
                   IOSPD_XML_MAX_DEPTH);
  }
  if (++P->elements > MAX_ELEMENTS) {
    return fail_at(P, lt, "the document has more than %u elements",
                   MAX_ELEMENTS);
  }
  iospd_xml_node_t* n = arena_alloc(P->doc, sizeof *n);
  if (n == NULL) return no_memory(P);
  memset(n, 0, sizeof *n);
  n->name = arena_strndup(P->doc, (const char*)P->s + lt + 1, nlen);
  if (n->name == NULL) return no_memory(P);
  locate(P, lt, &n->line, &n->column);
  P->pos = lt + 1 + nlen;

  iospd_xml_attr_t* last_attr = NULL;
  unsigned nattrs = 0;
  bool self_closing = false;
  for (;;) {
    size_t before = P->pos;
    skip_space(P);
    if (P->pos >= P->len) {
      return fail_at(P, lt, "start tag <%s> is not closed with '>'",
                     n->name);
    }
    unsigned char c = P->s[P->pos];
    if (c == '>') {
      P->pos++;
      break;
    }
    if (c == '/') {
      if (P->pos + 1 < P->len && P->s[P->pos + 1] == '>') {
        P->pos += 2;
        self_closing = true;
        break;
      }
      return fail_at(P, P->pos, "expected '/>' or '>' to end <%s>", n->name);
    }
    size_t an = scan_name(P, P->pos);
    if (an == 0) {
      return fail_at(P, P->pos,
                     "malformed attribute name in <%s>: a name starts with a "
                     "letter, '_' or ':'",
                     n->name);
    }
    if (P->pos == before) {
      return fail_at(P, P->pos,
                     "attributes in <%s> must be separated by whitespace",
                     n->name);
    }
    size_t name_pos = P->pos;
    const char* aname = (const char*)P->s + name_pos;
    for (iospd_xml_attr_t* a = n->attrs; a != NULL; a = a->next) {
      if (strlen(a->name) == an && memcmp(a->name, aname, an) == 0) {
        return fail_at(P, name_pos, "duplicate attribute '%s' in <%s>",
                       a->name, n->name);
      }
    }
    if (++nattrs > MAX_ATTRS) {
      return fail_at(P, name_pos, "<%s> has more than %d attributes", n->name,
                     MAX_ATTRS);
    }
    P->pos += an;
    skip_space(P);
    if (P->pos >= P->len || P->s[P->pos] != '=') {
      return fail_at(P, P->pos, "expected '=' after attribute '%.*s'",
                     (int)an, aname);
    }
    P->pos++;
    skip_space(P);
    int rc = parse_attr_value(P);
    if (rc) return rc;
    iospd_xml_attr_t* a = arena_alloc(P->doc, sizeof *a);
    if (a == NULL) return no_memory(P);
    a->name = arena_strndup(P->doc, aname, an);
    a->value = arena_strndup(P->doc, P->scratch.data, P->scratch.len - 1);
    a->next = NULL;
    if (a->name == NULL || a->value == NULL) return no_memory(P);
    if (last_attr) {
      last_attr->next = a;
    } else {
      n->attrs = a;
    }
    last_attr = a;
  }

  /* Link into the tree. */
  if (P->depth == 0) {
    P->doc->root = n;
  } else {
    frame_t* f = &P->stack[P->depth - 1];
    n->parent = f->node;
    if (f->last_child) {
      f->last_child->next_sibling = n;
    } else {
      f->node->first_child = n;
    }
    f->last_child = n;
  }
  if (self_closing) {
    n->text = "";
    return 0;
  }
  frame_t* f = &P->stack[P->depth++];
  f->node = n;
  f->last_child = NULL;
  f->text_start = P->text.len;
  return 0;
}

static int parse_end_tag(parser_t* P) {
  size_t lt = P->pos;
  size_t nlen = scan_name(P, lt + 2);
  if (nlen == 0) {
    return fail_at(P, lt + 2, "malformed end tag name");
  }
  const char* name = (const char*)P->s + lt + 2;
  if (P->depth == 0) {
    return fail_at(P, lt, "end tag </%.*s> has no matching start tag",
                   excerpt_len((const unsigned char*)name, nlen, 60), name);
  }
  frame_t* f = &P->stack[P->depth - 1];
  if (strlen(f->node->name) != nlen || memcmp(f->node->name, name, nlen) != 0) {
    return fail_at(P, lt,
                   "end tag </%.*s> does not match start tag <%s> of line %u",
                   excerpt_len((const unsigned char*)name, nlen, 60), name,
                   f->node->name, (unsigned)f->node->line);
  }
  P->pos = lt + 2 + nlen;
  skip_space(P);
  if (P->pos >= P->len || P->s[P->pos] != '>') {
    return fail_at(P, P->pos, "expected '>' to end </%s>", f->node->name);
  }
  P->pos++;
  size_t tl = P->text.len - f->text_start;
  f->node->text = arena_strndup(
      P->doc, P->text.data ? P->text.data + f->text_start : "", tl);
  if (f->node->text == NULL) return no_memory(P);
  P->text.len = f->text_start;
  if (P->text.data) P->text.data[P->text.len] = '\0';
  P->depth--;
  return 0;
}

/* <?xml version="1.0" encoding="UTF-8" standalone="yes"?> at the start. */
static int parse_declaration(parser_t* P) {
  size_t start = P->pos;
  P->pos += 5;
  bool have_version = false;
  int seen = 0; /* 1 version, 2 encoding, 3 standalone: in this order */
  for (;;) {
    size_t before = P->pos;
    skip_space(P);
    if (starts_with(P, P->pos, "?>")) {
      P->pos += 2;
      break;
    }
    if (P->pos >= P->len) {
      return fail_at(P, start, "XML declaration is not closed with '?>'");
    }
    size_t an = scan_name(P, P->pos);
    if (an == 0 || P->pos == before) {
      return fail_at(P, P->pos, "malformed XML declaration");
    }
    size_t apos = P->pos;
    const char* aname = (const char*)P->s + apos;
    P->pos += an;
    skip_space(P);
    if (P->pos >= P->len || P->s[P->pos] != '=') {
      return fail_at(P, P->pos, "malformed XML declaration: expected '='");
    }
    P->pos++;
    skip_space(P);
    int rc = parse_attr_value(P);
    if (rc) return rc;
    const char* val = P->scratch.data;
    int which;
    if (an == 7 && memcmp(aname, "version", 7) == 0) {
      which = 1;
    } else if (an == 8 && memcmp(aname, "encoding", 8) == 0) {
      which = 2;
    } else if (an == 10 && memcmp(aname, "standalone", 10) == 0) {
      which = 3;
    } else {
      return fail_at(P, apos, "unknown item '%.*s' in the XML declaration",
                     excerpt_len((const unsigned char*)aname, an, 40), aname);
    }
    if (which <= seen) {
      return fail_at(P, apos,
                     "the XML declaration must list version, encoding and "
                     "standalone once each, in that order");
    }
    seen = which;
    if (which == 1) {
      have_version = true;
      bool ok = val[0] == '1' && val[1] == '.' && val[2] != '\0';
      for (size_t k = 2; ok && val[k]; k++) ok = val[k] >= '0' && val[k] <= '9';
      if (!ok) {
        return fail_at(P, apos, "unsupported XML version '%.20s'", val);
      }
    } else if (which == 2) {
      bool utf8 = (val[0] | 0x20) == 'u' && (val[1] | 0x20) == 't' &&
                  (val[2] | 0x20) == 'f' && val[3] == '-' && val[4] == '8' &&
                  val[5] == '\0';
      if (!utf8) {
        return fail_at(P, apos,
                       "encoding '%.40s' is not supported: save the file as "
                       "UTF-8 and declare encoding=\"utf-8\"",
                       val);
      }
    } else if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0) {
      return fail_at(P, apos, "standalone must be \"yes\" or \"no\"");
    }
  }
  if (!have_version) {
    return fail_at(P, start, "the XML declaration must give a version");
  }
  return 0;
}

static int parse_markup(parser_t* P) {
  size_t lt = P->pos;
  if (starts_with(P, lt, "<!--")) return parse_comment(P);
  if (starts_with(P, lt, "<![CDATA[")) {
    if (P->depth == 0) {
      return fail_at(P, lt, "CDATA section outside the root element");
    }
    return parse_cdata(P);
  }
  if (starts_with(P, lt, "<!DOCTYPE")) {
    return fail_at(P, lt,
                   "DOCTYPE declarations are not allowed: profiles may not "
                   "define a DTD or entities");
  }
  if (starts_with(P, lt, "<!ENTITY")) {
    return fail_at(P, lt, "entity declarations are not allowed");
  }
  if (starts_with(P, lt, "<!")) {
    return fail_at(P, lt, "unexpected '<!': expected a comment <!-- --> or "
                          "a CDATA section");
  }
  if (starts_with(P, lt, "<?")) return parse_pi(P);
  if (starts_with(P, lt, "</")) return parse_end_tag(P);
  return parse_start_tag(P);
}

int iospd_xml_parse(const char* data, size_t len, iospd_xml_doc_t** out,
                    iospd_err_t* err) {
  *out = NULL;
  parser_t* P = iospd_calloc(1, sizeof *P);
  if (P == NULL) {
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory while reading the XML document");
  }
  P->s = (const unsigned char*)(data != NULL ? data : "");
  P->len = data != NULL ? len : 0;
  P->err = err;
  P->loc_line = 1;
  P->loc_col = 1;
  iospd_strbuf_init(&P->text);
  iospd_strbuf_init(&P->scratch);
  int rc = 0;
  P->doc = iospd_calloc(1, sizeof *P->doc);
  if (P->doc == NULL) {
    rc = no_memory(P);
    goto done;
  }
  if (P->len > IOSPD_XML_MAX_SIZE) {
    rc = iospd_err_set(err, IOSPD_EPARSE,
                       "line 1, column 1: the document is larger than the "
                       "%u MiB limit",
                       (unsigned)(IOSPD_XML_MAX_SIZE / (1024u * 1024u)));
    goto done;
  }
  const unsigned char* s = P->s;
  if (P->len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) ||
                      (s[0] == 0xFE && s[1] == 0xFF))) {
    rc = fail_at(P, 0,
                 "the document is UTF-16; save it as UTF-8 (profiles are read "
                 "as UTF-8 only)");
    goto done;
  }
  if (P->len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    P->pos = 3; /* byte order mark */
    P->loc_off = P->loc_base = 3;
  }
  rc = check_chars(P, P->pos);
  if (rc) goto done;
  if (starts_with(P, P->pos, "<?xml") &&
      (P->pos + 5 >= P->len || is_space(s[P->pos + 5]) ||
       s[P->pos + 5] == '?')) {
    rc = parse_declaration(P);
    if (rc) goto done;
  }
  while (P->pos < P->len) {
    rc = s[P->pos] == '<' ? parse_markup(P) : parse_text(P);
    if (rc) goto done;
  }
  if (P->depth > 0) {
    frame_t* f = &P->stack[P->depth - 1];
    rc = fail_at(P, P->len,
                 "the document ends before <%s> of line %u is closed",
                 f->node->name, (unsigned)f->node->line);
    goto done;
  }
  if (P->doc->root == NULL) {
    rc = fail_at(P, P->len, "the document has no root element");
    goto done;
  }
  if (P->text.failed || P->scratch.failed) {
    rc = no_memory(P);
    goto done;
  }
done:
  iospd_strbuf_destroy(&P->text);
  iospd_strbuf_destroy(&P->scratch);
  if (rc == 0) {
    *out = P->doc;
  } else {
    iospd_xml_free(P->doc);
  }
  iospd_free(P);
  return rc;
}
