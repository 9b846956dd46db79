/* SPDX-License-Identifier: MIT */
/* The DISKSPD switch table as data (fio's fio_options[] idea): one entry per
 * switch with its syntax, where the value goes, its range and its help text.
 * cmdline.c walks it to parse; usage.c walks it to document. */
#ifndef IOSPD_OPTIONS_H
#define IOSPD_OPTIONS_H

#include "iospd/common.h"

typedef enum iospd_opt_kind {
  IOSPD_OPT_FLAG = 0, /* bare switch; sets the bool at off to true */
  IOSPD_OPT_UINT,     /* whole decimal number min..max into the uint32 at off */
  IOSPD_OPT_SIZE,     /* size with K/M/G/T/b suffix, min..max, uint64 at off */
  IOSPD_OPT_SPECIAL   /* own syntax; cmdline.c handles it by `special` */
} iospd_opt_kind_t;

/* Which object `off` is an offset into. */
typedef enum iospd_opt_scope {
  IOSPD_SCOPE_NONE = 0,
  IOSPD_SCOPE_TARGET,   /* iospd_target_t: applied to every target */
  IOSPD_SCOPE_TIMESPAN, /* iospd_timespan_t */
  IOSPD_SCOPE_PROFILE   /* iospd_profile_t */
} iospd_opt_scope_t;

enum {
  IOSPD_OPTF_PASS1 = 1u << 0,   /* handled in the first pass (DISKSPD 1.2) */
  IOSPD_OPTF_XML_OK = 1u << 1,  /* may be combined with -X (an override) */
  IOSPD_OPTF_BARE_OK = 1u << 2, /* UINT: no value means bare_value */
  IOSPD_OPTF_LONG = 1u << 3,    /* iospd long option: --name[=value] */
  IOSPD_OPTF_WIN_ONLY = 1u << 4, /* refused when not on Windows */
  /* A long option that takes --name=value (its handler checks the value);
   * any other long option given a value is refused. */
  IOSPD_OPTF_VALUE = 1u << 5
};

/* Switches with their own syntax (IOSPD_OPT_SPECIAL). */
typedef enum iospd_opt_special {
  IOSPD_SP_NONE = 0,
  IOSPD_SP_HELP,       /* -? and --help */
  IOSPD_SP_BLOCK,      /* -b */
  IOSPD_SP_XML,        /* -X */
  IOSPD_SP_SEED,       /* -z */
  IOSPD_SP_FORMAT,     /* -R */
  IOSPD_SP_VERBOSE,    /* -v, -vs */
  IOSPD_SP_AFFINITY,   /* -a */
  IOSPD_SP_BASE,       /* -B */
  IOSPD_SP_CREATE,     /* -c */
  IOSPD_SP_MAXSIZE,    /* -f<size> and -f<hints> */
  IOSPD_SP_THROUGHPUT, /* -g */
  IOSPD_SP_H,          /* -h */
  IOSPD_SP_CACHE,      /* -S */
  IOSPD_SP_SEQ,        /* -s */
  IOSPD_SP_RANDOM,     /* -r */
  IOSPD_SP_MIXED,      /* -rs */
  IOSPD_SP_DIST,       /* -rd */
  IOSPD_SP_BUCKET,     /* -D */
  IOSPD_SP_PROGRESS,   /* -P */
  IOSPD_SP_ETW,        /* -e */
  IOSPD_SP_EVENT,      /* -y */
  IOSPD_SP_FLUSH,      /* -N */
  IOSPD_SP_WRITEBUF,   /* -Z */
  IOSPD_SP_RAW_WRITE,  /* --allow-raw-write */
  IOSPD_SP_ENGINE,     /* --engine= */
  IOSPD_SP_OUTPUT,     /* --output=FORMAT:FILE */
  IOSPD_SP_MERGE,      /* --merge (a mode: only as the first argument) */
  IOSPD_SP_COMPARE,    /* --compare (a mode: only as the first argument) */
  IOSPD_SP_STATUS,     /* --progress= */
  IOSPD_SP_TIMESERIES, /* --timeseries= */
  IOSPD_SP_VERSION,    /* --version (only as the only argument) */
  IOSPD_SP_PING,       /* --ping (a mode: only as the first argument) */
  IOSPD_SP_TREE,       /* --tree and its companions (--files, --skew...) */
  IOSPD_SP_REPORT,     /* --report (a mode: only as the first argument) */
  IOSPD_SP_VERIFY,     /* --verify, --verify-only */
  IOSPD_SP_VERIFY_ERRORS, /* --verify-errors=N */
  IOSPD_SP_VERIFY_STATE,  /* --verify-state=FILE */
  IOSPD_SP_COMPRESS,   /* --compress=PCT */
  IOSPD_SP_DEDUPE      /* --dedupe=PCT */
} iospd_opt_special_t;

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
  iospd_opt_special_t special;
  iospd_opt_topic_t topic;
  const char* syntax; /* as shown in the usage: "-b<size>" */
  const char* what;   /* short noun for error messages: "block size" */
  const char* help;   /* our words; '\n' separates lines */
  const char* posix_note; /* extra help line when not on Windows, or NULL */
} iospd_opt_def_t;

extern const iospd_opt_def_t iospd_options[];
extern const size_t iospd_options_count;
extern const char* const iospd_topic_titles[IOSPD_TOPIC_COUNT];

/* The entry whose name is the longest prefix of sw (the text after '-'), or
 * NULL. Long options are matched separately by iospd_options_find_long. */
const iospd_opt_def_t* iospd_options_find(const char* sw);
/* The long option called name (up to '=' or the end), or NULL. */
const iospd_opt_def_t* iospd_options_find_long(const char* name);

#endif
