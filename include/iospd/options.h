/* SPDX-License-Identifier: MIT */
/* The DISKSPD switch table as data (fio's fio_options[] idea): one entry per
 * switch with its syntax, where the value goes, its range, its handler
 * (.cb), the words its value may be (.posval) and its help text. cmdline.c
 * walks it to parse; usage.c, manpage.c and the completion generator walk it
 * to document. */
#ifndef IOSPD_OPTIONS_H
#define IOSPD_OPTIONS_H

#include "iospd/common.h"
#include "iospd/profile.h"

typedef enum iospd_opt_kind {
  IOSPD_OPT_FLAG = 0, /* bare switch; sets the bool at off to true */
  IOSPD_OPT_UINT,     /* whole decimal number min..max into the uint32 at off */
  IOSPD_OPT_SIZE,     /* size with K/M/G/T/b suffix, min..max, uint64 at off */
  IOSPD_OPT_SPECIAL   /* own syntax: the entry's cb parses the value */
} iospd_opt_kind_t;

/* Which object `off` is an offset into. */
typedef enum iospd_opt_scope {
  IOSPD_SCOPE_NONE = 0,
  IOSPD_SCOPE_TARGET,   /* iospd_target_t: applied to every target */
  IOSPD_SCOPE_TIMESPAN, /* iospd_timespan_t */
  IOSPD_SCOPE_PROFILE   /* iospd_profile_t */
} iospd_opt_scope_t;

enum {
  IOSPD_OPTF_PASS1 = 1u << 0,   /* handled in the first pass (DISKSPD's two-pass parse) */
  IOSPD_OPTF_XML_OK = 1u << 1,  /* may be combined with -X (an override) */
  IOSPD_OPTF_BARE_OK = 1u << 2, /* UINT: no value means bare_value */
  IOSPD_OPTF_LONG = 1u << 3,    /* iospd long option: --name[=value] */
  IOSPD_OPTF_WIN_ONLY = 1u << 4, /* refused when not on Windows */
  /* A long option that takes --name=value (its handler checks the value);
   * any other long option given a value is refused. */
  IOSPD_OPTF_VALUE = 1u << 5,
  /* --tree or one of its companions: refused with -X, whose profile holds
   * the file-tree settings in <Tree>. */
  IOSPD_OPTF_TREE = 1u << 6
};

/* Each entry's id: its index in iospd_options[], in the table's order (the
 * order -? prints within a topic). The parse sets bit id of the profile's
 * opt_given for every switch on the command line. */
typedef enum iospd_opt_id {
  IOSPD_OID_b,
  IOSPD_OID_bs,     /* -bs<n|p> (DISKSPD 2.3) */
  IOSPD_OID_B,
  IOSPD_OID_c,
  IOSPD_OID_f,
  IOSPD_OID_T,
  IOSPD_OID_r,
  IOSPD_OID_rs,
  IOSPD_OID_rd,
  IOSPD_OID_s,
  IOSPD_OID_p,
  IOSPD_OID_w,
  IOSPD_OID_Z,
  IOSPD_OID_z,
  IOSPD_OID_S,
  IOSPD_OID_h,
  IOSPD_OID_N,
  IOSPD_OID_l,
  IOSPD_OID_t,
  IOSPD_OID_F,
  IOSPD_OID_o,
  IOSPD_OID_O,
  IOSPD_OID_oc,     /* -oc<n> (DISKSPD 2.3) */
  IOSPD_OID_u,      /* -u[n][<batch>[p]] (DISKSPD 2.3) */
  IOSPD_OID_a,
  IOSPD_OID_n,
  IOSPD_OID_I,
  IOSPD_OID_d,
  IOSPD_OID_W,
  IOSPD_OID_C,
  IOSPD_OID_g,
  IOSPD_OID_i,
  IOSPD_OID_j,
  IOSPD_OID_L,
  IOSPD_OID_D,
  IOSPD_OID_R,
  IOSPD_OID_v,
  IOSPD_OID_P,
  IOSPD_OID_colon,  /* -: */
  IOSPD_OID_qmark,  /* -? */
  IOSPD_OID_X,
  IOSPD_OID_x,
  IOSPD_OID_e,
  IOSPD_OID_y,
  IOSPD_OID_allow_raw_write,
  IOSPD_OID_engine,
  IOSPD_OID_diskspd, /* --diskspd=2.2|2.3 */
  IOSPD_OID_output,
  IOSPD_OID_merge,
  IOSPD_OID_report,
  IOSPD_OID_compare,
  IOSPD_OID_progress,
  IOSPD_OID_timeseries,
  IOSPD_OID_ping,
  IOSPD_OID_verify,
  IOSPD_OID_verify_only,
  IOSPD_OID_verify_errors,
  IOSPD_OID_verify_state,
  IOSPD_OID_compress,
  IOSPD_OID_dedupe,
  IOSPD_OID_version,
  IOSPD_OID_tree,
  IOSPD_OID_files,
  IOSPD_OID_file_size,
  IOSPD_OID_skew,
  IOSPD_OID_assign,
  IOSPD_OID_relocate,
  IOSPD_OID_depth,
  IOSPD_OID_width,
  IOSPD_OID_append,
  IOSPD_OID_cleanup,
  IOSPD_OID_help,
  /* issue #28 (src/cli/opt_pts.c) */
  IOSPD_OID_steady_state,
  IOSPD_OID_pts,
  IOSPD_OID_pts_cell,
  IOSPD_OID_pts_matrix,
  IOSPD_OID_pts_purge,
  IOSPD_OID_pts_resume,
  /* --curve and its companions (docs/curve.md) */
  IOSPD_OID_curve,
  IOSPD_OID_latency_limit,
  IOSPD_OID_expect,
  IOSPD_OID_COUNT
} iospd_opt_id_t;

/* One word of a closed value set (fio's posval): what is typed and the
 * value the handler stores for it. A list ends with {NULL, 0}. */
typedef struct iospd_opt_word_s {
  const char* word;
  int value;
} iospd_opt_word_t;

/* The parser's state while it handles one switch: the argument as typed,
 * its value text and the entry (src/cli/opt_ctx.h). */
struct iospd_opt_ctx_s;
/* Parses the value of one switch into the parse state: 0, or the error
 * (IOSPD_EUSAGE with a message naming the switch, IOSPD_ENOMEM). */
typedef int (*iospd_opt_cb_t)(struct iospd_opt_ctx_s* c);

/* Help topics, in the order the usage text prints them. */
typedef enum iospd_opt_topic {
  IOSPD_TOPIC_SIZES = 0,
  IOSPD_TOPIC_PATTERN,
  IOSPD_TOPIC_CACHE,
  IOSPD_TOPIC_THREADS,
  IOSPD_TOPIC_TIMING,
  IOSPD_TOPIC_RATE,
  IOSPD_TOPIC_OUTPUT,
  IOSPD_TOPIC_XML,
  IOSPD_TOPIC_WINDOWS,
  IOSPD_TOPIC_IOSPD,
  IOSPD_TOPIC_COUNT
} iospd_opt_topic_t;

typedef struct iospd_opt_def_s {
  const char* name;  /* after '-' (or "--"): "b", "rs", "allow-raw-write" */
  iospd_opt_kind_t kind;
  iospd_opt_scope_t scope;
  size_t off;        /* offsetof the field in the scope's struct */
  unsigned flags;    /* IOSPD_OPTF_* */
  uint64_t min, max; /* UINT / SIZE range */
  uint64_t bare_value; /* UINT with IOSPD_OPTF_BARE_OK */
  /* The handler: parses the value and stores it. NULL for FLAG, UINT and
   * SIZE entries, which the walker stores at off by their kind. */
  iospd_opt_cb_t cb;
  /* The closed set of words the value is one of, or NULL (the handler and
   * its messages read the words here; see iospd_opt_words_*). */
  const iospd_opt_word_t* posval;
  iospd_opt_topic_t topic;
  const char* syntax; /* as shown in the usage: "-b<size>" */
  const char* what;   /* short noun for error messages: "block size" */
  const char* help;   /* our words; '\n' separates lines */
  const char* posix_note; /* extra help line when not on Windows, or NULL */
} iospd_opt_def_t;

extern const iospd_opt_def_t iospd_options[IOSPD_OID_COUNT];
extern const size_t iospd_options_count;
extern const char* const iospd_topic_titles[IOSPD_TOPIC_COUNT];

/* The entry whose name is the longest prefix of sw (the text after '-'), or
 * NULL. Long options are matched separately by iospd_options_find_long. */
const iospd_opt_def_t* iospd_options_find(const char* sw);
/* The long option called name (up to '=' or the end), or NULL. */
const iospd_opt_def_t* iospd_options_find_long(const char* name);

/* The entry's id (its index in iospd_options). */
static inline iospd_opt_id_t iospd_opt_id(const iospd_opt_def_t* o) {
  return (iospd_opt_id_t)(o - iospd_options);
}

/* Whether the switch with this id was on the command line that built p
 * (not merely defaulted, nor set by a -X profile). */
bool iospd_opt_given(const iospd_profile_t* p, iospd_opt_id_t id);
void iospd_opt_set_given(iospd_profile_t* p, iospd_opt_id_t id);

/* The word of list that is the n bytes at s, whole (any case when icase),
 * or NULL. */
const iospd_opt_word_t* iospd_opt_words_find(const iospd_opt_word_t* list,
                                             const char* s, size_t n,
                                             bool icase);
/* The words of list for a message: "a, b or c" (last_sep " or "), or with
 * other separators ("a|b|c": sep and last_sep "|"). Without room for
 * all, it ends at the last whole word that fits in cap. */
void iospd_opt_words_join(const iospd_opt_word_t* list, const char* sep,
                          const char* last_sep, char* buf, size_t cap);

#endif
