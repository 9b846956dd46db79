/* SPDX-License-Identifier: MIT */
/* Prints a cJSON tree with the -Rjson writer's string and number text
 * (iospd/json_write.h), rather than cJSON_Print: that one goes through the
 * C library's %g (which msvcrt spells differently from glibc) and prints
 * integers above 2^31 in exponent form. So the merged document has the
 * same bytes on every build, and each number reads back to the same double:
 * a merged document merges again exactly. cJSON keeps no integer type, so
 * whole numbers are told apart by value (write_number). */
#include <math.h>

#include "iospd/json_write.h"
#include "merge_internal.h"

static void indent_to(iospd_strbuf_t* sb, int n) {
  for (int i = 0; i < n; i++) iospd_strbuf_append(sb, "  ");
}

/* Whole numbers (every count, byte total and ns bound) as plain digits, as
 * -Rjson writes them; other numbers in the shortest text that reads back. */
static void write_number(iospd_strbuf_t* sb, double d) {
  if (d == floor(d) && fabs(d) < 9007199254740992.0) /* 2^53 */
    iospd_strbuf_appendf(sb, "%.0f", d == 0 ? 0.0 : d);
  else
    iospd_json_append_double(sb, d);
}

static bool scalars_only(const cJSON* arr) {
  for (const cJSON* c = arr->child; c != NULL; c = c->next)
    if (cJSON_IsArray(c) || cJSON_IsObject(c)) return false;
  return true;
}

void iospd_json_write_tree(iospd_strbuf_t* sb, const cJSON* v, int indent) {
  if (v == NULL || cJSON_IsNull(v)) {
    iospd_strbuf_append(sb, "null");
  } else if (cJSON_IsTrue(v)) {
    iospd_strbuf_append(sb, "true");
  } else if (cJSON_IsFalse(v)) {
    iospd_strbuf_append(sb, "false");
  } else if (cJSON_IsNumber(v)) {
    write_number(sb, v->valuedouble);
  } else if (cJSON_IsString(v)) {
    iospd_json_append_str(sb, v->valuestring);
  } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
    bool obj = cJSON_IsObject(v);
    const cJSON* c = v->child;
    if (c == NULL) {
      iospd_strbuf_append(sb, obj ? "{}" : "[]");
      return;
    }
    if (!obj && scalars_only(v)) {
      /* [lo, hi, count] and other short lists of numbers: one line. */
      iospd_strbuf_putc(sb, '[');
      for (; c != NULL; c = c->next) {
        iospd_json_write_tree(sb, c, indent);
        if (c->next) iospd_strbuf_append(sb, ", ");
      }
      iospd_strbuf_putc(sb, ']');
      return;
    }
    iospd_strbuf_append(sb, obj ? "{\n" : "[\n");
    for (; c != NULL; c = c->next) {
      indent_to(sb, indent + 1);
      if (obj) {
        iospd_json_append_str(sb, c->string ? c->string : "");
        iospd_strbuf_append(sb, ": ");
      }
      iospd_json_write_tree(sb, c, indent + 1);
      iospd_strbuf_append(sb, c->next ? ",\n" : "\n");
    }
    indent_to(sb, indent);
    iospd_strbuf_putc(sb, obj ? '}' : ']');
  } else {
    iospd_strbuf_append(sb, "null"); /* cJSON_Raw/Invalid: never parsed */
  }
}
