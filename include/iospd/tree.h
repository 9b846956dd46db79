/* SPDX-License-Identifier: MIT */
/* The file-tree workload (--tree, docs/tree.md): the layout of the tree
 * (directories, files, where each file lives, the hot and cold classes),
 * its creation, re-use and removal, and the run. */
#ifndef IOSPD_TREE_H
#define IOSPD_TREE_H
#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/hist.h"
#include "iospd/profile.h"
#include "iospd/run.h"

/* The name of the marker file iospd leaves in each --tree directory; it
 * records the layout, so a later run re-uses the tree or refuses it. */
#define IOSPD_TREE_MARKER ".iospd-tree"

typedef struct iospd_tree_layout_s {
  uint32_t dir_count;   /* the --tree directories */
  char** dirs;
  uint32_t node_count;  /* every generated sub-directory, parents first */
  char** nodes;
  uint32_t leaf_count;  /* M: where files go (the dirs when --depth=0) */
  char** leaves;
  uint32_t files;       /* N */
  uint32_t hot_files;   /* files 0 .. hot_files-1 are hot */
  uint64_t file_size;
  uint32_t* home;       /* N entries: the leaf --assign gives each file */
} iospd_tree_layout_t;

/* Builds the layout from the options (seed: -z, for --assign=random).
 * 0, IOSPD_ENOMEM or IOSPD_EUSAGE (err says why). */
int iospd_tree_layout_init(iospd_tree_layout_t* l, const iospd_tree_opts_t* o,
                           uint64_t seed, iospd_err_t* err);
void iospd_tree_layout_free(iospd_tree_layout_t* l);
/* N_hot = round(N * cold / (hot + cold)), at least 1, and at most N - 1
 * when N > 1. */
uint32_t iospd_tree_hot_files(uint32_t files, uint32_t hot, uint32_t cold);
/* home[i] = the leaf of file i by --assign; 0 or IOSPD_ENOMEM. */
int iospd_tree_assign(uint32_t files, uint32_t leaves, int assign,
                      uint64_t seed, uint32_t* home);
/* "<leaf>/f%08u.dat" into buf. */
void iospd_tree_file_path(char* buf, size_t size, const char* leaf,
                          uint32_t file);
#define IOSPD_TREE_PATH_MAX 1024u

/* What the run adds to the usual results (iospd_results_t.tree). */
enum {
  IOSPD_TREE_META_CREATE = 0,
  IOSPD_TREE_META_OPEN,
  IOSPD_TREE_META_CLOSE,
  IOSPD_TREE_META_RENAME,
  IOSPD_TREE_META_COUNT
};
typedef struct iospd_tree_results_s {
  uint32_t files, hot_files, dir_count, leaf_count;
  uint64_t file_size;
  bool created;          /* made by this run (else re-used) */
  double create_seconds; /* time the creation took */
  uint64_t relocations;  /* renames done while measuring */
  uint64_t relocations_total; /* in every phase */
  uint64_t relocation_retries; /* refused for sharing, tried again */
  bool cleaned;          /* --cleanup removed the tree */
  /* Metadata latencies: create while making the tree, the others while
   * measuring. Never NULL in a finished run. */
  iospd_hist_t* meta[IOSPD_TREE_META_COUNT];
} iospd_tree_results_t;
const char* iospd_tree_meta_name(int kind); /* "create", "open", ... */

typedef struct iospd_tree_hooks_s {
  /* A line for the user (creation progress, re-use, clean-up). */
  void (*note)(void* ctx, const char* text);
  /* Creation progress: done of total files, every 10 % and at the end. */
  void (*progress)(void* ctx, uint64_t done, uint64_t total);
  /* True once creation should stop (Ctrl-C); may be NULL. */
  bool (*stop)(void* ctx);
  void* ctx;
} iospd_tree_hooks_t;

/* The run itself is the tree workload of the controller
 * (iospd_workload_tree, iospd/workload.h): iospd_run on a profile with
 * --tree. A tree that exists with another layout, or a file where a
 * directory must be, fails it with IOSPD_EUSAGE (nothing touched). The
 * results carry the tree's section in out->tree and the hot and cold
 * classes as targets 0 and 1 of out->profile; iospd_run_release frees
 * both. */
void iospd_tree_results_free(iospd_tree_results_t* t);
/* out->profile of a tree run: the profile with the hot and cold targets
 * the reports show; free it with this (after iospd_results_destroy). */
void iospd_tree_report_profile_free(const iospd_profile_t* rp);

/* ---- creation, re-use and removal (tree_prepare.c) ---------------------- */
typedef struct iospd_tree_state_s {
  uint32_t* loc;     /* N: the leaf each file is in now */
  uint64_t* size;    /* N: its size now */
  bool created;
  bool* dir_created; /* dir_count: the --tree directory was made by iospd */
} iospd_tree_state_t;
/* Re-uses the tree when it is there with this layout, creates it when
 * nothing of it is there, refuses (IOSPD_EUSAGE, err says what differs)
 * otherwise. create_hist (may be NULL) gets each file's create-open. */
int iospd_tree_prepare(const iospd_tree_layout_t* l,
                       const iospd_tree_opts_t* o, uint64_t seed,
                       const iospd_tree_hooks_t* hooks,
                       iospd_hist_t* create_hist, iospd_tree_state_t* st,
                       iospd_err_t* err);
/* Removes the files (where they are now), the markers, the generated
 * sub-directories that are empty then, and the --tree directories iospd
 * made; nothing else. 0, or the first failure. */
int iospd_tree_cleanup(const iospd_tree_layout_t* l,
                       const iospd_tree_state_t* st, iospd_err_t* err);
void iospd_tree_state_free(iospd_tree_state_t* st);
#endif
