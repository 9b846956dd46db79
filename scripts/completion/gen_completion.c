/* SPDX-License-Identifier: MIT */
/* Writes a shell completion file from its template and the options table
 * (src/cli/options.c, the source of -?), so the switches the completion
 * offers and their one-line descriptions are the ones iospd parses.
 *
 *   iospd_completion_gen <template> <output>
 *
 * The template's line "# @IOSPD_GENERATED@" is replaced by arrays that bash
 * and zsh read alike (parallel name/description arrays; no associative
 * arrays, whose syntax differs between the two shells). Windows-only
 * switches are left out: the completion files are for Linux shells, where
 * iospd refuses those switches. */
#include <stdio.h>
#include <string.h>

#include "iospd/formats.h"
#include "iospd/options.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

#define MARKER "# @IOSPD_GENERATED@"

/* Single-quoted shell word: ' becomes '\''. */
static void put_quoted(FILE* out, const char* s) {
  fputc('\'', out);
  for (; *s; s++) {
    if (*s == '\'') {
      fputs("'\\''", out);
    } else if (*s == '\n') {
      fputc(' ', out);
    } else {
      fputc(*s, out);
    }
  }
  fputc('\'', out);
}

/* A short switch takes a glued value unless its syntax is just "-<name>". */
static int takes_value(const iospd_opt_def_t* o) {
  return !(o->syntax[0] == '-' && strcmp(o->syntax + 1, o->name) == 0);
}

/* The words of --name=<a|b|c>: the entry's value words (.posval) when it
 * has them, else a plain word list in its syntax (the engine words
 * already put in); written as "a b c". */
static int put_long_words(FILE* out, const iospd_opt_def_t* o,
                          const char* syntax) {
  if (o->posval != NULL) {
    char name[64];
    snprintf(name, sizeof name, "%s", o->name);
    for (char* p = name; *p; p++) {
      if (*p == '-') *p = '_';
    }
    fprintf(out, "_iospd_words_%s=(", name);
    for (const iospd_opt_word_t* w = o->posval; w->word != NULL; w++)
      fprintf(out, " %s", w->word);
    fputs(" )\n", out);
    return 1;
  }
  const char* eq = strchr(syntax, '=');
  if (eq == NULL || eq[1] != '<') return 0;
  const char* end = strchr(eq, '>');
  if (end == NULL || end[1] != '\0') return 0;
  for (const char* p = eq + 2; p < end; p++) {
    if (*p == '.') return 0; /* file names (file.csv), not words */
  }
  char name[64];
  snprintf(name, sizeof name, "%s", o->name);
  for (char* p = name; *p; p++) {
    if (*p == '-') *p = '_';
  }
  fprintf(out, "_iospd_words_%s=(", name);
  for (const char* p = eq + 2; p < end;) {
    size_t n = strcspn(p, "|>");
    fprintf(out, " %.*s", (int)n, p);
    p += n;
    if (*p == '|') p++;
  }
  fputs(" )\n", out);
  return 1;
}

static void put_array(FILE* out, const char* var, int want_long,
                      int want_value, int descs) {
  fprintf(out, "%s=(\n", var);
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    if (o->flags & IOSPD_OPTF_WIN_ONLY) continue;
    int is_long = (o->flags & IOSPD_OPTF_LONG) != 0;
    if (is_long != want_long) continue;
    if (!want_long && takes_value(o) != want_value) continue;
    fputs("  ", out);
    if (descs) {
      put_quoted(out, o->what);
    } else {
      char name[80];
      int has_eq = is_long && strchr(o->syntax, '=') != NULL;
      snprintf(name, sizeof name, "%s%s%s", is_long ? "--" : "-", o->name,
               has_eq ? "=" : "");
      put_quoted(out, name);
    }
    fputc('\n', out);
  }
  fputs(")\n", out);
}

static void put_generated(FILE* out) {
  fputs("# Generated from the options table (src/cli/options.c) by\n"
        "# scripts/completion/gen_completion.c: edit the table or the\n"
        "# template, then rebuild the target iospd_completion_update.\n",
        out);
  fputs("# Switches without a value, and their descriptions.\n", out);
  put_array(out, "_iospd_flag_names", 0, 0, 0);
  put_array(out, "_iospd_flag_descs", 0, 0, 1);
  fputs("# Switches whose value is glued to them (-b4K).\n", out);
  put_array(out, "_iospd_value_names", 0, 1, 0);
  put_array(out, "_iospd_value_descs", 0, 1, 1);
  fputs("# Long options; a trailing '=' means the value follows it.\n", out);
  put_array(out, "_iospd_long_names", 1, 0, 0);
  put_array(out, "_iospd_long_descs", 1, 0, 1);
  /* --output=<format>: every word of the format table a file may take. */
  fputs("# The --output formats (src/profile/formats.c), each with its ':'.\n"
        "_iospd_output_formats=(",
        out);
  size_t nf = 0;
  const iospd_format_t* f = iospd_formats(&nf);
  for (size_t i = 0; i < nf; i++)
    if (f[i].uses & IOSPD_FMT_OUTPUT) fprintf(out, " %s:", f[i].word);
  fputs(" )\n", out);
  /* -R<format> and -Rp[<format>], from the same table. */
  fputs("# The -R words (the results, then the profile alone).\n"
        "_iospd_r_words=(",
        out);
  for (size_t i = 0; i < nf; i++)
    if (f[i].uses & IOSPD_FMT_R) fprintf(out, " -R%s", f[i].word);
  fputs(" -Rp", out);
  for (size_t i = 0; i < nf; i++)
    if (f[i].uses & IOSPD_FMT_RP) fprintf(out, " -Rp%s", f[i].word);
  fputs(" )\n", out);
  fputs("# The values of long options that take one word of a list.\n", out);
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    if (!(o->flags & IOSPD_OPTF_LONG)) continue;
    /* --engine's words are the platform's engine table. */
    iospd_strbuf_t syntax;
    iospd_strbuf_init(&syntax);
    iospd_engine_choice_syntax(&syntax, o->syntax);
    put_long_words(out, o, iospd_strbuf_cstr(&syntax));
    iospd_strbuf_destroy(&syntax);
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <template> <output>\n", argv[0]);
    return 3;
  }
  FILE* in = fopen(argv[1], "r");
  if (in == NULL) {
    fprintf(stderr, "gen_completion: cannot read template '%s'\n", argv[1]);
    return 1;
  }
  FILE* out = fopen(argv[2], "w");
  if (out == NULL) {
    fprintf(stderr, "gen_completion: cannot write '%s'\n", argv[2]);
    fclose(in);
    return 1;
  }
  char line[1024];
  int found = 0;
  while (fgets(line, sizeof line, in) != NULL) {
    if (strncmp(line, MARKER, strlen(MARKER)) == 0) {
      put_generated(out);
      found = 1;
    } else {
      fputs(line, out);
    }
  }
  fclose(in);
  if (fclose(out) != 0 || !found) {
    fprintf(stderr, "gen_completion: %s\n",
            found ? "write failed" : "template has no " MARKER " line");
    return 1;
  }
  return 0;
}
