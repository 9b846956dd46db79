/* SPDX-License-Identifier: MIT */
/* The command-line parser's state as the switch handlers (src/cli/opt_*.c)
 * see it, and the helpers they share to refuse a value with a message, to
 * read numbers and sizes and to store strings. Internal to src/cli. */
#ifndef IOSPD_CLI_OPT_CTX_H
#define IOSPD_CLI_OPT_CTX_H

#include <stdarg.h>

#include "iospd/cmdline.h"
#include "iospd/options.h"

enum { UNSET = -1 };

typedef struct iospd_opt_ctx_s {
  const iospd_cmdline_env_t* env;
  iospd_strbuf_t* warnings;
  iospd_err_t* err;
  iospd_cmdline_action_t* action;
  const iospd_opt_def_t* opt; /* the entry being handled */
  const char* arg; /* the argument being handled, as typed */
  const char* val; /* its text after the switch name */

  /* Scratch objects; moved into the caller's profile at the end. The
   * "was it given" bitmap is pp.opt_given (set by the parse loop). */
  iospd_profile_t pp;
  iospd_timespan_t ts;
  iospd_target_t tgt;
  uint64_t block_unit; /* the 'b' suffix: the final -b */

  /* -R named a format (not -Rp alone): with -X, only then does the command
   * line's format replace the profile's. A value fact, not "-R given". */
  bool format_set;

  /* -S/-h state (DISKSPD's -S/-h letters): UNSET or the value. */
  int cache, write_through, mmap;
  bool base_given, max_given, dist_given;

  /* DISKSPD 2.3 (src/cli/opt_diskspd23.c): -Sy/-SY (UNSET or the
   * iospd_bypass_io_t), the -a switch that set the efficiency order (or
   * NULL), and whether -bs was typed. */
  int bypass;
  const char* aff_order_arg;
  bool bufsep_given;

  int xml_state;
  const char* xml_path;
  const char* first_non_xml; /* the first switch that rules out -X */

  const char** targets;
  uint32_t target_count;
  const char* tree_companion; /* the first --files, --skew... given */
  const char* last_switch; /* the switch just before the first target */
} ctx_t;

/* ---- messages (src/cli/opt_util.c) ---- */

/* Sets c->err to IOSPD_EUSAGE with the message, made one printable line;
 * returns IOSPD_EUSAGE. */
int iospd_opt_vfail(ctx_t* c, const char* fmt, va_list ap);
int iospd_opt_nomem(ctx_t* c);
/* Appends "warning: <message>" and a newline to c->warnings, if any. */
void iospd_opt_vwarn(ctx_t* c, const char* fmt, va_list ap);

static inline int fail(ctx_t* c, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static inline int fail(ctx_t* c, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = iospd_opt_vfail(c, fmt, ap);
  va_end(ap);
  return rc;
}

static inline void warn(ctx_t* c, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static inline void warn(ctx_t* c, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  iospd_opt_vwarn(c, fmt, ap);
  va_end(ap);
}

static inline int nomem(ctx_t* c) { return iospd_opt_nomem(c); }

#define SIZE_HINT "digits with an optional K, M, G, T or b (blocks) suffix"

/* ---- small helpers ---- */

static inline bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static inline char lower(char ch) {
  return (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
}

static inline bool ieq(const char* a, const char* b) {
  while (*a && *b && lower(*a) == lower(*b)) a++, b++;
  return *a == '\0' && *b == '\0';
}

/* The field an entry's off points at in the scratch objects, or NULL. */
void* iospd_opt_field(ctx_t* c, const iospd_opt_def_t* o);
/* A whole number min..max; "what" names it in the message. */
int iospd_opt_get_uint(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                       const char* what, uint64_t* out);
/* A size (with the 'b' suffix of the final -b) min..max. */
int iospd_opt_get_size(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                       const char* what, uint64_t* out);
/* Replaces *dst with a copy of s. */
int iospd_opt_set_string(ctx_t* c, char** dst, const char* s);

static inline void* field(ctx_t* c, const iospd_opt_def_t* o) {
  return iospd_opt_field(c, o);
}
static inline int get_uint(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                           const char* what, uint64_t* out) {
  return iospd_opt_get_uint(c, s, min, max, what, out);
}
static inline int get_size(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                           const char* what, uint64_t* out) {
  return iospd_opt_get_size(c, s, min, max, what, out);
}
static inline int set_string(ctx_t* c, char** dst, const char* s) {
  return iospd_opt_set_string(c, dst, s);
}

/* The entry's posval words for a message: "a, b or c". */
typedef struct opt_words_s {
  char text[256];
} opt_words_t;
static inline const char* opt_words(opt_words_t* w, const iospd_opt_def_t* o) {
  iospd_opt_words_join(o->posval, ", ", " or ", w->text, sizeof w->text);
  return w->text;
}

#endif
