/* SPDX-License-Identifier: MIT */
/* Creating, re-using and removing a --tree (docs/tree.md, "Creation,
 * re-use, clean-up"). Each --tree directory gets a marker file recording
 * the layout it was made with; a run re-uses a tree whose markers, file
 * names and sizes match, creates one where nothing of it exists, and
 * refuses (bad input) anything in between rather than overwrite or delete
 * it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "iospd/strbuf.h"
#include "iospd/tree.h"

#define MARKER_MAX 1024

static void marker_text(char* buf, size_t size, const iospd_tree_layout_t* l,
                        const iospd_tree_opts_t* o, uint64_t seed,
                        uint32_t index, bool created) {
  snprintf(buf, size,
           "iospd-tree 1\nfiles=%" PRIu32 "\nfile_size=%" PRIu64
           "\ndepth=%" PRIu32 "\nwidth=%" PRIu32 "\nassign=%s\nseed=%" PRIu64
           "\ndirs=%" PRIu32 "\nindex=%" PRIu32 "\ncreated=%d\n",
           l->files, l->file_size, o->depth, o->width,
           iospd_tree_assign_name((int)o->assign),
           o->assign == IOSPD_ASSIGN_RANDOM ? seed : 0, l->dir_count, index,
           created ? 1 : 0);
}

/* The value of "key=" in a marker, copied into out; false if absent. */
static bool marker_value(const char* text, const char* key, char* out,
                         size_t size) {
  size_t klen = strlen(key);
  for (const char* line = text; line != NULL && *line;) {
    if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
      const char* v = line + klen + 1;
      size_t n = strcspn(v, "\r\n");
      if (n >= size) n = size - 1;
      memcpy(out, v, n);
      out[n] = '\0';
      return true;
    }
    line = strchr(line, '\n');
    if (line != NULL) line++;
  }
  return false;
}

/* Compares a marker found on disk with the one this run would write: 0, or
 * IOSPD_EUSAGE with a message naming the first setting that differs. */
static int marker_check(const char* dir, const char* found, const char* want,
                        bool* created, iospd_err_t* err) {
  static const struct {
    const char* key;
    const char* option;
  } keys[] = {{"files", "--files"}, {"file_size", "--file-size"},
              {"depth", "--depth"}, {"width", "--width"},
              {"assign", "--assign"}, {"seed", "-z (with --assign=random)"},
              {"dirs", "the number of --tree directories"},
              {"index", "the place of this directory in --tree"}};
  char a[64], b[64];
  if (strncmp(found, "iospd-tree 1\n", 13) != 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s/" IOSPD_TREE_MARKER "' is not a marker this "
                         "iospd wrote; the directory is left as it is: use "
                         "another --tree directory",
                         dir);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    bool ha = marker_value(found, keys[i].key, a, sizeof a);
    marker_value(want, keys[i].key, b, sizeof b);
    if (!ha || strcmp(a, b) != 0)
      return iospd_err_set(
          err, IOSPD_EUSAGE,
          "the tree in '%s' was made with another layout: %s is %s there, "
          "%s in this run. Nothing was changed; run with the settings it "
          "was made with, use another directory, or remove that tree (run "
          "it once with its settings and --cleanup)",
          dir, keys[i].option, ha ? a : "missing", b);
  }
  *created = marker_value(found, "created", a, sizeof a) && strcmp(a, "1") == 0;
  return 0;
}

static int write_small(const char* path, const char* text, iospd_err_t* err) {
  iospd_tree_fh_t fh;
  int rc = iospd_plat_tree_open(path, IOSPD_TREE_OPEN_WRITE |
                                          IOSPD_TREE_OPEN_CREATE, &fh, err);
  if (rc < 0) return rc;
  size_t len = strlen(text);
  int64_t n = iospd_plat_tree_write(fh, text, (uint32_t)len, 0);
  int crc = iospd_plat_tree_close(fh);
  if (n < 0 || (size_t)n != len || crc < 0)
    return iospd_err_set(err, n < 0 ? (int)n : IOSPD_EIO,
                         "cannot write '%s'", path);
  return 0;
}

void iospd_tree_state_free(iospd_tree_state_t* st) {
  iospd_free(st->loc);
  iospd_free(st->size);
  iospd_free(st->dir_created);
  memset(st, 0, sizeof *st);
}

int iospd_tree_cleanup(const iospd_tree_layout_t* l,
                       const iospd_tree_state_t* st, iospd_err_t* err) {
  char path[IOSPD_TREE_PATH_MAX];
  int first = 0;
  iospd_err_t e;
  for (uint32_t i = 0; i < l->files; i++) {
    iospd_tree_file_path(path, sizeof path, l->leaves[st->loc[i]], i);
    iospd_err_clear(&e);
    int rc = iospd_plat_remove_file(path, &e);
    if (rc < 0 && rc != IOSPD_ENOENT && first == 0) {
      first = rc;
      if (err != NULL) *err = e;
    }
  }
  for (uint32_t d = 0; d < l->dir_count; d++) {
    snprintf(path, sizeof path, "%s/" IOSPD_TREE_MARKER, l->dirs[d]);
    (void)iospd_plat_remove_file(path, NULL);
  }
  /* Sub-directories deepest first; one that holds something else is not
   * empty, and stays. */
  for (uint32_t k = l->node_count; k-- > 0;)
    (void)iospd_plat_remove_dir(l->nodes[k], NULL);
  for (uint32_t d = 0; d < l->dir_count; d++)
    if (st->dir_created[d]) (void)iospd_plat_remove_dir(l->dirs[d], NULL);
  return first;
}

/* Where each file is now: at its home leaf, or (a tree that --relocate
 * changed; elsewhere true) in another leaf that exists. Counts what is
 * missing, found twice, or of another size. */
typedef struct scan_s {
  uint32_t found, missing, wrong_size, twice;
  uint32_t first_missing, first_wrong, first_twice;
  uint64_t wrong_bytes;
  bool extra; /* file number N exists: the tree has more files */
  uint32_t links; /* symbolic links where files of the tree belong */
  char first_link[IOSPD_TREE_PATH_MAX];
} scan_t;

static int scan(const iospd_tree_layout_t* l, bool append, bool elsewhere,
                iospd_tree_state_t* st, scan_t* s, iospd_err_t* err) {
  memset(s, 0, sizeof *s);
  bool* leaf_ok = iospd_calloc(l->leaf_count, sizeof *leaf_ok);
  if (leaf_ok == NULL) return IOSPD_ENOMEM;
  char path[IOSPD_TREE_PATH_MAX];
  int kind, rc = 0;
  uint64_t size;
  for (uint32_t k = 0; k < l->leaf_count && rc == 0; k++) {
    rc = iospd_plat_path_kind(l->leaves[k], &kind, &size, err);
    leaf_ok[k] = kind == IOSPD_PATH_DIR;
  }
  for (uint32_t i = 0; i < l->files && rc == 0; i++) {
    uint32_t hits = 0;
    for (uint32_t t = 0; t < l->leaf_count && rc == 0; t++) {
      /* The home leaf first; the others only if it is not there. */
      uint32_t k = t == 0 ? l->home[i] : (t <= l->home[i] ? t - 1 : t);
      if (t > 0 && !elsewhere) break;
      if (!leaf_ok[k]) continue;
      if (t > 0 && hits > 0 && l->leaf_count > 64) break;
      iospd_tree_file_path(path, sizeof path, l->leaves[k], i);
      rc = iospd_plat_path_kind(path, &kind, &size, err);
      if (kind == IOSPD_PATH_LINK && s->links++ == 0)
        snprintf(s->first_link, sizeof s->first_link, "%s", path);
      if (kind != IOSPD_PATH_FILE) continue;
      if (hits++ == 0) {
        st->loc[i] = k;
        st->size[i] = size;
      }
      if (t == 0) break; /* at home: a copy elsewhere is not looked for */
    }
    if (hits == 0) {
      if (s->missing++ == 0) s->first_missing = i;
      continue;
    }
    s->found++;
    if (hits > 1 && s->twice++ == 0) s->first_twice = i;
    bool size_ok = append ? st->size[i] >= l->file_size
                          : st->size[i] == l->file_size;
    if (!size_ok && s->wrong_size++ == 0) {
      s->first_wrong = i;
      s->wrong_bytes = st->size[i];
    }
  }
  for (uint32_t k = 0; k < l->leaf_count && rc == 0 && !s->extra; k++) {
    if (!leaf_ok[k]) continue;
    iospd_tree_file_path(path, sizeof path, l->leaves[k], l->files);
    rc = iospd_plat_path_kind(path, &kind, &size, err);
    s->extra = kind == IOSPD_PATH_FILE;
  }
  iospd_free(leaf_ok);
  return rc;
}

static int create_tree(const iospd_tree_layout_t* l,
                       const iospd_tree_opts_t* o, uint64_t seed,
                       const bool* dir_exists, const iospd_tree_hooks_t* h,
                       iospd_hist_t* create_hist, iospd_tree_state_t* st,
                       iospd_err_t* err) {
  char path[IOSPD_TREE_PATH_MAX];
  char marker[MARKER_MAX];
  int rc = 0;
  for (uint32_t d = 0; d < l->dir_count && rc == 0; d++) {
    if (!dir_exists[d]) {
      rc = iospd_plat_mkdir(l->dirs[d], err);
      st->dir_created[d] = rc == 0;
      if (rc == IOSPD_EEXIST) rc = 0; /* made meanwhile: not ours */
    }
  }
  for (uint32_t k = 0; k < l->node_count && rc == 0; k++) {
    rc = iospd_plat_mkdir(l->nodes[k], err);
    if (rc == IOSPD_EEXIST) {
      int kind;
      uint64_t size;
      rc = iospd_plat_path_kind(l->nodes[k], &kind, &size, err);
      if (rc == 0 && kind != IOSPD_PATH_DIR)
        rc = iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s' is in the way of the tree: it exists and is "
                           "not a directory", l->nodes[k]);
    }
  }
  for (uint32_t d = 0; d < l->dir_count && rc == 0; d++) {
    snprintf(path, sizeof path, "%s/" IOSPD_TREE_MARKER, l->dirs[d]);
    marker_text(marker, sizeof marker, l, o, seed, d, st->dir_created[d]);
    rc = write_small(path, marker, err);
  }
  /* The content: byte k of every file is k mod 256 (DISKSPD's -c fill),
   * written in pieces of at most 1 MiB. */
  uint32_t chunk = l->file_size < (1u << 20) ? (uint32_t)l->file_size
                                             : (1u << 20);
  uint8_t* buf = rc == 0 ? iospd_plat_buf_alloc(chunk, 4096, 0) : NULL;
  if (rc == 0 && buf == NULL) rc = iospd_err_set(err, IOSPD_ENOMEM,
                                                 "out of memory");
  for (uint32_t k = 0; buf != NULL && k < chunk; k++) buf[k] = (uint8_t)k;
  uint64_t step = l->files / 10 ? l->files / 10 : 1;
  uint32_t made = 0;
  for (uint32_t i = 0; i < l->files && rc == 0; i++) {
    if (h != NULL && h->stop != NULL && h->stop(h->ctx)) {
      rc = iospd_err_set(err, IOSPD_EINTR,
                         "interrupted while creating the tree (%" PRIu32
                         " of %" PRIu32 " files made); what this run made "
                         "was removed",
                         i, l->files);
      break;
    }
    st->loc[i] = l->home[i];
    st->size[i] = l->file_size;
    iospd_tree_file_path(path, sizeof path, l->leaves[l->home[i]], i);
    iospd_tree_fh_t fh;
    uint64_t t0 = iospd_plat_ticks();
    rc = iospd_plat_tree_open(
        path, IOSPD_TREE_OPEN_WRITE | IOSPD_TREE_OPEN_CREATE, &fh, err);
    uint64_t t1 = iospd_plat_ticks();
    if (rc < 0) break;
    made = i + 1;
    if (create_hist != NULL) iospd_hist_record(create_hist, t1 - t0);
    for (uint64_t off = 0; off < l->file_size && rc == 0; off += chunk) {
      uint64_t left = l->file_size - off;
      uint32_t n = left < chunk ? (uint32_t)left : chunk;
      int64_t w = iospd_plat_tree_write(fh, buf, n, off);
      if (w < 0 || (uint64_t)w != n)
        rc = iospd_err_set(err, w < 0 ? (int)w : IOSPD_EIO,
                           "cannot write '%s' while creating the tree: %s",
                           path, iospd_strerror(w < 0 ? (int)w : IOSPD_EIO));
    }
    if (iospd_plat_tree_close(fh) < 0 && rc == 0)
      rc = iospd_err_set(err, IOSPD_EIO, "cannot close '%s'", path);
    if (h != NULL && h->progress != NULL &&
        ((i + 1) % step == 0 || i + 1 == l->files))
      h->progress(h->ctx, i + 1, l->files);
  }
  if (buf != NULL) iospd_plat_buf_free(buf, chunk);
  if (rc < 0) {
    /* Nothing half-made stays: what this run made goes again. */
    iospd_tree_layout_t part = *l;
    part.files = made;
    (void)iospd_tree_cleanup(&part, st, NULL);
  }
  return rc;
}

int iospd_tree_prepare(const iospd_tree_layout_t* l,
                       const iospd_tree_opts_t* o, uint64_t seed,
                       const iospd_tree_hooks_t* h, iospd_hist_t* create_hist,
                       iospd_tree_state_t* st, iospd_err_t* err) {
  memset(st, 0, sizeof *st);
  st->loc = iospd_calloc(l->files, sizeof *st->loc);
  st->size = iospd_calloc(l->files, sizeof *st->size);
  st->dir_created = iospd_calloc(l->dir_count, sizeof *st->dir_created);
  bool* exists = iospd_calloc(l->dir_count, sizeof *exists);
  if (st->loc == NULL || st->size == NULL || st->dir_created == NULL ||
      exists == NULL) {
    iospd_free(exists);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  char path[IOSPD_TREE_PATH_MAX];
  char found[MARKER_MAX], want[MARKER_MAX];
  uint32_t markers = 0, first_unmarked = UINT32_MAX;
  int rc = 0;
  /* One directory given twice (also spelled differently: "D", "./D/", a
   * link to it) would get two markers and two halves of the files in one
   * place: refused before anything is made. */
  for (uint32_t d = 1; d < l->dir_count && rc == 0; d++)
    for (uint32_t e = 0; e < d && rc == 0; e++)
      if (iospd_plat_same_file(l->dirs[d], l->dirs[e]))
        rc = iospd_err_set(err, IOSPD_EUSAGE,
                           "--tree: '%s' is the same directory as '%s' "
                           "(given twice); give each directory once",
                           l->dirs[d], l->dirs[e]);
  for (uint32_t d = 0; d < l->dir_count && rc == 0; d++) {
    int kind;
    uint64_t size;
    rc = iospd_plat_path_kind(l->dirs[d], &kind, &size, err);
    if (rc < 0) break;
    if (kind != IOSPD_PATH_NONE && kind != IOSPD_PATH_DIR) {
      rc = iospd_err_set(err, IOSPD_EUSAGE,
                         "--tree: '%s' exists and is not a directory",
                         l->dirs[d]);
      break;
    }
    exists[d] = kind == IOSPD_PATH_DIR;
    if (!exists[d]) continue;
    snprintf(path, sizeof path, "%s/" IOSPD_TREE_MARKER, l->dirs[d]);
    rc = iospd_plat_path_kind(path, &kind, &size, err);
    if (rc < 0) break;
    if (kind == IOSPD_PATH_NONE) {
      if (first_unmarked == UINT32_MAX) first_unmarked = d;
      continue;
    }
    size_t got = 0;
    char* text = NULL;
    memset(found, 0, sizeof found);
    rc = iospd_plat_read_file(path, sizeof found - 1, &text, &got, err);
    if (rc < 0) break;
    memcpy(found, text, got);
    iospd_free(text);
    marker_text(want, sizeof want, l, o, seed, d, false);
    rc = marker_check(l->dirs[d], found, want, &st->dir_created[d], err);
    markers++;
  }
  scan_t s;
  /* Files away from their home leaf are looked for only in a tree of
   * ours (one with markers, which --relocate may have changed): in a
   * fresh set of directories that would be files x leaves lookups. */
  if (rc == 0) rc = scan(l, o->append, markers > 0, st, &s, err);
  /* A link where a file belongs: following it would write into the link's
   * target, and skipping it would run another workload than the one
   * asked for (fewer files, another skew), so the run is refused. */
  if (rc == 0 && s.links > 0)
    rc = iospd_err_set(
        err, IOSPD_EUSAGE,
        "--tree: '%s' is a symbolic link where a file of the tree belongs "
        "(%" PRIu32 " such link%s): iospd does not follow links in a tree, "
        "it would write into the link's target. Nothing was changed; "
        "remove the link%s or use another directory",
        s.first_link, s.links, s.links == 1 ? "" : "s",
        s.links == 1 ? "" : "s");
  if (rc == 0 && markers == 0 && s.found == 0 && !s.extra) {
    if (h != NULL && h->note != NULL) {
      iospd_strbuf_t sb;
      iospd_strbuf_init(&sb);
      iospd_strbuf_appendf(&sb,
                           "creating the tree: %" PRIu32 " files of %" PRIu64
                           " bytes in %" PRIu32 " director%s",
                           l->files, l->file_size, l->leaf_count,
                           l->leaf_count == 1 ? "y" : "ies");
      h->note(h->ctx, iospd_strbuf_cstr(&sb));
      iospd_strbuf_destroy(&sb);
    }
    st->created = true;
    rc = create_tree(l, o, seed, exists, h, create_hist, st, err);
    iospd_free(exists);
    return rc;
  }
  iospd_free(exists);
  if (rc < 0) return rc;
  if (first_unmarked != UINT32_MAX)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' has no " IOSPD_TREE_MARKER " marker, but "
                         "files of the tree's names are in --tree=%s, so its "
                         "layout cannot be confirmed. Nothing was changed; "
                         "use another directory",
                         l->dirs[first_unmarked], o->dirs);
  char first[IOSPD_TREE_PATH_MAX];
  if (s.missing > 0) {
    iospd_tree_file_path(first, sizeof first,
                         l->leaves[l->home[s.first_missing]], s.first_missing);
    return iospd_err_set(
        err, IOSPD_EUSAGE,
        "the tree in --tree=%s is not the layout asked for: %" PRIu32
        " of its %" PRIu32 " files are missing (the first: '%s'). Nothing "
        "was changed; use the settings it was made with or another "
        "directory",
        o->dirs, s.missing, l->files, first);
  }
  if (s.twice > 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "the tree in --tree=%s is not the layout asked for: "
                         "file number %" PRIu32 " is in two directories. "
                         "Nothing was changed",
                         o->dirs, s.first_twice);
  if (s.wrong_size > 0) {
    iospd_tree_file_path(first, sizeof first,
                         l->leaves[st->loc[s.first_wrong]], s.first_wrong);
    return iospd_err_set(
        err, IOSPD_EUSAGE,
        "the tree in --tree=%s is not the layout asked for: %" PRIu32
        " files are not %" PRIu64 " bytes (--file-size%s; the first: '%s', "
        "%" PRIu64 " bytes). Nothing was changed",
        o->dirs, s.wrong_size, l->file_size,
        o->append ? ", at least, with --append" : "", first, s.wrong_bytes);
  }
  if (s.extra)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "the tree in --tree=%s has more files than "
                         "--files=%" PRIu32 ". Nothing was changed; use the "
                         "settings it was made with or another directory",
                         o->dirs, l->files);
  if (h != NULL && h->note != NULL) {
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_strbuf_appendf(&sb,
                         "re-using the tree in --tree=%s: %" PRIu32
                         " files, names and sizes as asked",
                         o->dirs, l->files);
    h->note(h->ctx, iospd_strbuf_cstr(&sb));
    iospd_strbuf_destroy(&sb);
  }
  return 0;
}
