/* SPDX-License-Identifier: MIT */
/* The command line of iospd --ping: ioping's knobs as long options, and
 * the DISKSPD switches that mean the same thing (-b, -w, -s, -r, -S, -f,
 * -d, -L, -R). Its own small grammar, since the mode takes one PATH and
 * none of a run's other switches; docs/ping.md lists it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iospd/ping.h"
#include "iospd/units.h"

void iospd_ping_opts_init(iospd_ping_opts_t* o) {
  memset(o, 0, sizeof *o);
  o->interval_us = IOSPD_PING_DEFAULT_INTERVAL_US;
  o->size = IOSPD_PING_DEFAULT_SIZE;
  o->format = IOSPD_FORMAT_TEXT;
  o->direct = true; /* see iospd/ping.h: the device, not the cache */
}

static int bad(iospd_err_t* err, const char* fmt, const char* arg) {
  return iospd_err_set(err, IOSPD_EUSAGE, fmt, arg);
}

/* A whole number 1..2^40 (COUNT). */
static int parse_count(const char* v, const char* arg, uint64_t* out,
                       iospd_err_t* err) {
  uint64_t n = 0;
  if (v == NULL || iospd_parse_uint(v, (uint64_t)1 << 40, &n) < 0 || n == 0)
    return bad(err,
               "'%s': the count must be a whole number of requests from 1 "
               "(for example --count=10)",
               arg);
  *out = n;
  return 0;
}

/* A request or working-set size: DISKSPD's size syntax (4K, 1M, 512). */
static int parse_bytes(const char* v, const char* arg, uint64_t max,
                       uint64_t* out, iospd_err_t* err) {
  uint64_t n = 0;
  if (v == NULL || *v == '\0' || iospd_parse_size(v, 1, &n, NULL) < 0 ||
      n == 0 || n > max)
    return bad(err,
               "'%s': give a size in bytes with an optional K, M, G or T "
               "suffix (for example 4K), greater than 0",
               arg);
  *out = n;
  return 0;
}

int iospd_ping_parse_interval(const char* v, uint64_t* us) {
  if (v == NULL || *v < '0' || *v > '9') return IOSPD_EUSAGE;
  char* end = NULL;
  double x = strtod(v, &end);
  if (end == v || !(x >= 0)) return IOSPD_EUSAGE;
  double scale = 1e6;
  if (strcmp(end, "us") == 0) scale = 1;
  else if (strcmp(end, "ms") == 0) scale = 1e3;
  else if (strcmp(end, "s") == 0 || *end == '\0') scale = 1e6;
  else if (strcmp(end, "m") == 0) scale = 60e6;
  else return IOSPD_EUSAGE;
  double t = x * scale;
  if (t > 86400e6) return IOSPD_EUSAGE;
  *us = (uint64_t)(t + 0.5);
  return 0;
}

/* The value of --name=VALUE (NULL when arg is not that option). */
static const char* long_value(const char* arg, const char* name) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return NULL;
  if (arg[n] == '=') return arg + n + 1;
  return NULL;
}

static int parse_long(const char* arg, iospd_ping_opts_t* o, iospd_err_t* err) {
  const char* v;
  uint64_t n = 0; /* set by the parser on success; -O2 cannot see it */
  if (strcmp(arg, "--direct") == 0) o->direct = true, o->write_through = false;
  else if (strcmp(arg, "--cached") == 0) o->direct = o->write_through = false;
  else if (strcmp(arg, "--write") == 0) o->write = true;
  else if (strcmp(arg, "--sequential") == 0) o->sequential = true;
  else if (strcmp(arg, "--quiet") == 0) o->quiet = true;
  else if (strcmp(arg, "--batch") == 0) o->batch = true;
  else if (strcmp(arg, "--allow-raw-write") == 0) o->allow_raw_write = true;
  else if ((v = long_value(arg, "--count")) != NULL) {
    return parse_count(v, arg, &o->count, err);
  } else if ((v = long_value(arg, "--interval")) != NULL) {
    if (iospd_ping_parse_interval(v, &o->interval_us) < 0)
      return bad(err,
                 "'%s': give the time between requests as a number with an "
                 "optional unit us, ms, s or m (seconds by default; 0 for "
                 "no pause; at most a day), for example --interval=100ms",
                 arg);
  } else if ((v = long_value(arg, "--size")) != NULL) {
    if (parse_bytes(v, arg, (uint64_t)64 << 20, &n, err) < 0) return -1;
    o->size = (uint32_t)n;
  } else if ((v = long_value(arg, "--working-set")) != NULL) {
    return parse_bytes(v, arg, IOSPD_MAX_OFFSET, &o->working_set, err);
  } else {
    return bad(err,
               "'%s' is not a --ping option; it takes --count=N, "
               "--interval=TIME, --size=SIZE, --working-set=SIZE, --direct, "
               "--cached, "
               "--write, --sequential, --quiet, --batch, --allow-raw-write and "
               "-b -w -s -r -S -f -d -L -R (see docs/ping.md)",
               arg);
  }
  return 0;
}

/* DISKSPD's switches that mean an ioping knob. s is the text after '-'. */
static int parse_short(const char* arg, const char* s, iospd_ping_opts_t* o,
                       iospd_err_t* err) {
  uint64_t n;
  switch (s[0]) {
    case 'b':
      if (parse_bytes(s + 1, arg, (uint64_t)64 << 20, &n, err) < 0) return -1;
      o->size = (uint32_t)n;
      return 0;
    case 'f':
      return parse_bytes(s + 1, arg, IOSPD_MAX_OFFSET, &o->working_set, err);
    case 'w':
      if (iospd_parse_uint(s + 1, 100, &n) < 0 || (n != 0 && n != 100))
        return bad(err,
                   "'%s': --ping makes one kind of request: -w0 (reads, the "
                   "default) or -w100 (writes, as --write)",
                   arg);
      o->write = n == 100;
      return 0;
    case 'd':
      if (iospd_parse_uint(s + 1, UINT32_MAX, &n) < 0 || n == 0)
        return bad(err,
                   "'%s': -d takes the duration in whole seconds from 1 "
                   "(for example -d10)",
                   arg);
      o->duration_s = (uint32_t)n;
      return 0;
    case 'R':
      if (strcmp(s + 1, "text") == 0) o->format = IOSPD_FORMAT_TEXT;
      else if (strcmp(s + 1, "xml") == 0) o->format = IOSPD_FORMAT_XML;
      else if (strcmp(s + 1, "json") == 0) o->format = IOSPD_FORMAT_JSON;
      else
        return bad(err, "'%s': -R takes text, xml or json", arg);
      return 0;
    case 'L':
      if (s[1] != '\0') break;
      o->percentiles = true;
      return 0;
    case 's':
      if (s[1] != '\0') break;
      o->sequential = true;
      return 0;
    case 'r':
      if (s[1] != '\0') break;
      o->sequential = false;
      return 0;
    case 'S':
      /* Each sets the whole cache mode, as in DISKSPD (iospd/ping.h). */
      if (strcmp(s, "S") == 0 || strcmp(s, "Su") == 0)
        o->direct = true, o->write_through = false;
      else if (strcmp(s, "Sh") == 0)
        o->direct = o->write_through = true;
      else if (strcmp(s, "Sw") == 0)
        o->direct = false, o->write_through = true;
      else if (strcmp(s, "Sb") == 0)
        o->direct = o->write_through = false;
      else
        return bad(err, "'%s': --ping takes -S, -Su, -Sh, -Sw or -Sb", arg);
      return 0;
    default:
      break;
  }
  return bad(err,
             "'%s' is not a --ping switch; it takes -b<size> -w0|-w100 -s -r "
             "-S|-Su|-Sh|-Sw|-Sb -f<size> -d<seconds> -L -Rtext|xml|json and "
             "the long options in docs/ping.md",
             arg);
}

int iospd_ping_parse(int argc, const char* const* argv, bool windows,
                     iospd_ping_opts_t* o, iospd_err_t* err) {
  iospd_ping_opts_init(o);
  const char* first = argc > 0 ? argv[0] : "--ping";
  if (strncmp(first, "--ping=", 7) == 0 &&
      parse_count(first + 7, first, &o->count, err) < 0)
    return IOSPD_EUSAGE;
  bool options_end = false;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int rc = 0;
    if (!options_end && strcmp(a, "--") == 0) {
      options_end = true;
    } else if (!options_end && strncmp(a, "--", 2) == 0) {
      rc = parse_long(a, o, err);
    } else if (!options_end && a[1] != '\0' &&
               (a[0] == '-' || (windows && a[0] == '/' && strchr(a + 1, '/') ==
                                                               NULL &&
                                strchr(a + 1, '\\') == NULL))) {
      rc = parse_short(a, a + 1, o, err);
    } else if (o->path == NULL) {
      o->path = a;
    } else {
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s': --ping takes one path, and '%s' was given "
                           "already",
                           a, o->path);
    }
    if (rc < 0) return IOSPD_EUSAGE;
  }
  if (o->path == NULL || o->path[0] == '\0')
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--ping needs a path: a file, a directory (a "
                         "temporary file is made there) or a device, for "
                         "example iospd --ping .");
  if (o->batch && o->format != IOSPD_FORMAT_TEXT)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--batch prints one line of numbers and -R%s a "
                         "document: choose one",
                         o->format == IOSPD_FORMAT_XML ? "xml" : "json");
  if (o->working_set != 0 && o->working_set < o->size)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "the working set (--working-set or -f) is smaller "
                         "than one request (%u bytes); make it at least that",
                         o->size);
  return 0;
}
