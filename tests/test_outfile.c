/* SPDX-License-Identifier: MIT */
/* Report files through the platform (natively and under wine): the
 * writability probe creates, truncates and leaves nothing; a report is
 * written whole (no .tmp left, an older longer file fully replaced, CRLF on
 * Windows as on its stdout); iospd_plat_same_file sees other spellings; a
 * file planted where the temporary file would go is never written (issue
 * #30), and on POSIX neither the report nor the time series goes through a
 * symbolic link, the process's own streams are written where they are and
 * a character device is written in place, not renamed over. A report
 * written in pieces replaces the old one only when published, and a
 * failed or abandoned one leaves nothing. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* lstat, symlink, mknod under -std=c11; first */
#endif
#include "test_util.h"

#include "iospd/console.h"
#include "iospd/error.h"
#include "iospd/platform.h"

#include <dirent.h>

#ifndef _WIN32
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#endif

#define P "outfile-test-"

static void put(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* The file's bytes, or NULL when it does not exist. */
static char* get(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  static char buf[256];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void test_probe_changes_nothing(void** state) {
  (void)state;
  iospd_err_t err;
  put(P "keep.json", "keep");
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_output_probe(P "keep.json", &err), 0);
  assert_string_equal(get(P "keep.json"), "keep"); /* not truncated */
  assert_null(get(P "keep.json.tmp"));               /* probe removed */

  remove(P "new.json");
  assert_int_equal(iospd_plat_output_probe(P "new.json", &err), 0);
  assert_null(get(P "new.json")); /* not created */
  assert_null(get(P "new.json.tmp"));

  /* A .tmp left by a run that died is not truncated by the probe. */
  put(P "stale.json.tmp", "old");
  assert_int_equal(iospd_plat_output_probe(P "stale.json", &err), 0);
  assert_string_equal(get(P "stale.json.tmp"), "old");
  assert_null(get(P "stale.json"));
  remove(P "stale.json.tmp");
  remove(P "keep.json");
}

static void test_probe_refuses(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_true(iospd_plat_output_probe(".", &err) < 0);
  assert_non_null(strstr(err.msg, "folder"));
  iospd_err_clear(&err);
  assert_true(iospd_plat_output_probe(P "no-such-dir/x.json", &err) < 0);
  assert_string_equal(err.msg, "its folder does not exist");
}

static void test_write_whole(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "r.txt", "an older, longer report that must go entirely\n");
  assert_int_equal(iospd_plat_write_file_whole(P "r.txt", "a\nb\n", 4, &err),
                   0);
#ifdef _WIN32
  assert_string_equal(get(P "r.txt"), "a\r\nb\r\n"); /* as stdout writes */
#else
  assert_string_equal(get(P "r.txt"), "a\nb\n");
#endif
  assert_null(get(P "r.txt.tmp"));
  remove(P "r.txt");
  /* A folder that is not there: an error, and nothing left behind. */
  assert_true(iospd_plat_write_file_whole(P "no-such-dir/r.txt", "x", 1,
                                          &err) < 0);
  assert_non_null(strstr(err.msg, "cannot be created"));
}

/* The HTML report's writer: the bytes as given, on Windows too. */
static void test_write_whole_bytes(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "r.html", "an older, longer report that must go entirely\n");
  assert_int_equal(
      iospd_plat_write_file_whole_bytes(P "r.html", "a\nb\n", 4, &err), 0);
  assert_string_equal(get(P "r.html"), "a\nb\n");
  assert_null(get(P "r.html.tmp"));
  remove(P "r.html");
  assert_true(iospd_plat_write_file_whole_bytes(P "no-such-dir/r.html", "x", 1,
                                                &err) < 0);
  assert_non_null(strstr(err.msg, "cannot be created"));
}

/* Files in the current folder whose name starts with prefix: what a
 * report left behind beside its name. */
static int count_prefixed(const char* prefix) {
  DIR* d = opendir(".");
  assert_non_null(d);
  int n = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL)
    n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  closedir(d);
  return n;
}

/* A report written in pieces: the old file stays whole until publish,
 * then it is the new one (CRLF on Windows, whatever the pieces); nothing
 * else is left beside it. */
static void test_pieces_published(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "p1.json", "an older, longer report that must go entirely\n");
  iospd_plat_outfile_t* f = NULL;
  assert_int_equal(iospd_plat_outfile_open(P "p1.json", true, &f, &err), 0);
  assert_int_equal(iospd_plat_outfile_write(f, "{\n  \"a\"", 7, &err), 0);
  assert_int_equal(iospd_plat_outfile_write(f, ": 1\n}\n", 6, &err), 0);
  assert_string_equal(get(P "p1.json"),
                      "an older, longer report that must go entirely\n");
  assert_int_equal(count_prefixed(P "p1.json."), 1); /* the temporary file */
  assert_int_equal(iospd_plat_outfile_publish(f, &err), 0);
#ifdef _WIN32
  assert_string_equal(get(P "p1.json"), "{\r\n  \"a\": 1\r\n}\r\n");
#else
  assert_string_equal(get(P "p1.json"), "{\n  \"a\": 1\n}\n");
#endif
  assert_int_equal(count_prefixed(P "p1.json."), 0);
  /* Bytes as given (the HTML report). */
  assert_int_equal(iospd_plat_outfile_open(P "p1.json", false, &f, &err), 0);
  assert_int_equal(iospd_plat_outfile_write(f, "a\nb\n", 4, &err), 0);
  assert_int_equal(iospd_plat_outfile_publish(f, &err), 0);
  assert_string_equal(get(P "p1.json"), "a\nb\n");
  remove(P "p1.json");
}

/* A report abandoned part-way (its render failed): the old file keeps its
 * bytes, a new name is never created, no temporary file is left. */
static void test_pieces_abandoned(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "p2.json", "old\n");
  iospd_plat_outfile_t* f = NULL;
  assert_int_equal(iospd_plat_outfile_open(P "p2.json", true, &f, &err), 0);
  assert_int_equal(iospd_plat_outfile_write(f, "{\"half\":", 8, &err), 0);
  iospd_plat_outfile_abandon(f);
  assert_string_equal(get(P "p2.json"), "old\n");
  assert_int_equal(count_prefixed(P "p2.json."), 0);
  remove(P "p2.json");
  remove(P "p3.json");
  assert_int_equal(iospd_plat_outfile_open(P "p3.json", true, &f, &err), 0);
  assert_int_equal(iospd_plat_outfile_write(f, "x", 1, &err), 0);
  iospd_plat_outfile_abandon(f);
  assert_null(get(P "p3.json"));
  assert_int_equal(count_prefixed(P "p3.json"), 0);
  iospd_plat_outfile_abandon(NULL);
}

static void test_same_file(void** state) {
  (void)state;
  put(P "s.dat", "s");
  put(P "s2.dat", "s");
  remove(P "n1");
  remove(P "n2");
  assert_true(iospd_plat_same_file(P "s.dat", P "s.dat"));
  assert_true(iospd_plat_same_file(P "s.dat", "./" P "s.dat"));
  assert_false(iospd_plat_same_file(P "s.dat", P "s2.dat"));
  /* Neither exists yet: the same name in the same folder. */
  assert_true(iospd_plat_same_file(P "n1", "./" P "n1"));
  assert_false(iospd_plat_same_file(P "n1", P "n2"));
  assert_false(iospd_plat_same_file(P "s.dat", P "n1"));
#ifdef _WIN32
  assert_true(iospd_plat_same_file(P "s.dat", P "S.DAT"));
  assert_true(iospd_plat_same_file(P "s.dat", ".\\" P "s.dat"));
#endif
  remove(P "s.dat");
  remove(P "s2.dat");
}


/* A file planted under the old temporary name (<path>.tmp) is neither
 * written nor renamed: the temporary file is a new one (CREATE_NEW,
 * O_EXCL) with a name of its own. Before: the planted file was truncated,
 * took the report and was renamed away. */
static void test_planted_tmp_untouched(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "p.json.tmp", "planted");
  assert_int_equal(iospd_plat_write_file_whole_bytes(P "p.json", "new", 3,
                                                     &err), 0);
  assert_string_equal(get(P "p.json"), "new");
  assert_non_null(get(P "p.json.tmp"));
  assert_string_equal(get(P "p.json.tmp"), "planted");
  remove(P "p.json");
  remove(P "p.json.tmp");
}

#ifndef _WIN32
static bool is_link(const char* path) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* A final name that is a symbolic link: refused by the probe (naming the
 * link's target) and by the writer; the file it points to is unchanged.
 * Before: the probe followed it and the rename replaced the link. */
static void test_link_refused(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "victim", "victim");
  remove(P "l.json");
  assert_int_equal(symlink(P "victim", P "l.json"), 0);
  assert_true(iospd_plat_output_probe(P "l.json", &err) < 0);
  assert_non_null(strstr(err.msg, "symbolic link to '" P "victim'"));
  assert_non_null(strstr(err.msg, "name '" P "victim' itself"));
  iospd_err_clear(&err);
  assert_true(iospd_plat_write_file_whole(P "l.json", "x", 1, &err) < 0);
  assert_non_null(strstr(err.msg, "symbolic link"));
  assert_true(is_link(P "l.json"));
  assert_string_equal(get(P "victim"), "victim");
  remove(P "l.json");
  remove(P "victim");
}

/* A link planted under the old temporary name: not followed. Before: the
 * report was written through it into the victim. */
static void test_planted_tmp_link(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "victim", "victim");
  remove(P "q.json.tmp");
  assert_int_equal(symlink(P "victim", P "q.json.tmp"), 0);
  assert_int_equal(iospd_plat_write_file_whole(P "q.json", "new", 3, &err), 0);
  assert_string_equal(get(P "q.json"), "new");
  assert_string_equal(get(P "victim"), "victim");
  assert_true(is_link(P "q.json.tmp"));
  remove(P "q.json");
  remove(P "q.json.tmp");
  remove(P "victim");
}

/* The time series file: a link is refused and its target keeps its bytes;
 * a regular file is truncated. Before: O_CREAT|O_TRUNC truncated the
 * victim through the link. */
static void test_stream_link(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  put(P "victim", "victim");
  remove(P "s.csv");
  assert_int_equal(symlink(P "victim", P "s.csv"), 0);
  iospd_plat_stream_t* s = NULL;
  assert_true(iospd_plat_stream_create(P "s.csv", &s, &err) < 0);
  assert_null(s);
  assert_non_null(strstr(err.msg, "symbolic link to '" P "victim'"));
  assert_string_equal(get(P "victim"), "victim");
  assert_true(is_link(P "s.csv"));
  remove(P "s.csv");

  put(P "s.csv", "an older, longer series");
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_stream_create(P "s.csv", &s, &err), 0);
  assert_int_equal(iospd_plat_stream_write(s, "a,b\n", 4, &err), 0);
  assert_int_equal(iospd_plat_stream_close(s, &err), 0);
  assert_string_equal(get(P "s.csv"), "a,b\n");
  remove(P "s.csv");
  remove(P "victim");
}

/* /dev/fd/N: the bytes go to descriptor N (here a pipe), nothing is
 * created or renamed. Before: "/dev/fd/N.tmp" could not be created. */
static void test_own_fd(void** state) {
  (void)state;
  int pfd[2];
  assert_int_equal(pipe(pfd), 0);
  char name[64];
  snprintf(name, sizeof name, "/dev/fd/%d", pfd[1]);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_output_probe(name, &err), 0);
  assert_int_equal(iospd_plat_write_file_whole(name, "{}\n", 3, &err), 0);
  char buf[8] = {0};
  assert_int_equal(read(pfd[0], buf, sizeof buf - 1), 3);
  assert_string_equal(buf, "{}\n");
  close(pfd[0]);
  close(pfd[1]);
  /* A descriptor that is not open is refused by the probe. */
  assert_true(iospd_plat_output_probe("/dev/fd/987", &err) < 0);
  assert_non_null(strstr(err.msg, "descriptor 987"));
}

/* A character device (a twin of /dev/null made here, root only) is written
 * in place and stays a device. Before: the probe refused it and the writer
 * renamed a regular file over it. */
/* A write that fails part-way (here the file-size limit, as a full disk
 * would): the failure is kept, publish returns it and removes the
 * temporary file, and the old report keeps its bytes. */
static void test_pieces_write_fails(void** state) {
  (void)state;
  put(P "p4.json", "old\n");
  struct rlimit old, small = {.rlim_cur = 4096, .rlim_max = RLIM_INFINITY};
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small.rlim_max = old.rlim_max;
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_outfile_t* f = NULL;
  assert_int_equal(iospd_plat_outfile_open(P "p4.json", true, &f, &err), 0);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  static char piece[3000];
  memset(piece, 'x', sizeof piece);
  assert_int_equal(iospd_plat_outfile_write(f, piece, sizeof piece, &err), 0);
  int rc = iospd_plat_outfile_write(f, piece, sizeof piece, &err);
  assert_true(rc < 0);
  assert_non_null(strstr(err.msg, "cannot be written"));
  /* Later pieces are not written; publish tells the same failure. */
  assert_int_equal(iospd_plat_outfile_write(f, "y", 1, &err), rc);
  assert_int_equal(iospd_plat_outfile_publish(f, &err), rc);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, prev);
  assert_string_equal(get(P "p4.json"), "old\n");
  assert_int_equal(count_prefixed(P "p4.json."), 0);
  remove(P "p4.json");
}

static void test_char_device_in_place(void** state) {
  (void)state;
  if (geteuid() != 0) {
    printf("skipped: making a character device needs root\n");
    return;
  }
  remove(P "null");
  assert_int_equal(mknod(P "null", S_IFCHR | 0666, makedev(1, 3)), 0);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_plat_output_probe(P "null", &err), 0);
  assert_int_equal(iospd_plat_write_file_whole(P "null", "x\n", 2, &err), 0);
  struct stat st;
  assert_int_equal(lstat(P "null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  remove(P "null");
}
#endif

int main(void) {
  iospd_sysinfo_t sys;
  iospd_err_t err;
  if (iospd_plat_init(&sys, &err) < 0) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_probe_changes_nothing),
      cmocka_unit_test(test_probe_refuses),
      cmocka_unit_test(test_write_whole),
      cmocka_unit_test(test_write_whole_bytes),
      cmocka_unit_test(test_pieces_published),
      cmocka_unit_test(test_pieces_abandoned),
      cmocka_unit_test(test_same_file),
      cmocka_unit_test(test_planted_tmp_untouched),
#ifndef _WIN32
      cmocka_unit_test(test_link_refused),
      cmocka_unit_test(test_planted_tmp_link),
      cmocka_unit_test(test_stream_link),
      cmocka_unit_test(test_own_fd),
      cmocka_unit_test(test_pieces_write_fails),
      cmocka_unit_test(test_char_device_in_place),
#endif
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  iospd_plat_shutdown();
  return rc;
}
