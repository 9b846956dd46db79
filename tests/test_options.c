/* SPDX-License-Identifier: MIT */
/* The option table as data (src/cli/options.c): a self-check that every
 * entry is complete (a handler, or a plain kind with a field; value words
 * that are non-empty, unique and shown in the syntax; names unique and found
 * by the lookups), the value-word helpers, and the "was it given" bitmap the
 * parse fills: set for what the command line gave, clear for defaults and
 * for what a -X profile set. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/error.h"
#include "iospd/options.h"
#include "iospd/profile.h"

/* ---- the table ----------------------------------------------------------- */

static void test_every_entry_is_complete(void** state) {
  (void)state;
  assert_int_equal(iospd_options_count, IOSPD_OID_COUNT);
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    /* A hole in the designated initialisers would be all zeros. */
    if (o->name == NULL) fail_msg("entry %u has no name", (unsigned)i);
    assert_int_equal(iospd_opt_id(o), i);
    if (o->syntax == NULL || o->what == NULL || o->help == NULL)
      fail_msg("-%s: syntax, what and help must be set", o->name);
    if (o->kind == IOSPD_OPT_SPECIAL && o->cb == NULL)
      fail_msg("-%s has its own syntax but no handler", o->name);
    if (o->cb == NULL) {
      /* Stored by kind: there must be a field to store into. */
      if (o->scope == IOSPD_SCOPE_NONE)
        fail_msg("-%s has no handler and no field", o->name);
    }
    if (o->kind == IOSPD_OPT_UINT || o->kind == IOSPD_OPT_SIZE)
      if (o->min > o->max) fail_msg("-%s: min over max", o->name);
    if ((o->flags & IOSPD_OPTF_VALUE) && !(o->flags & IOSPD_OPTF_LONG))
      fail_msg("-%s: VALUE is for long options", o->name);
  }
}

static void test_names_are_unique_and_found(void** state) {
  (void)state;
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    for (size_t j = i + 1; j < iospd_options_count; j++)
      if (strcmp(o->name, iospd_options[j].name) == 0)
        fail_msg("two entries are called '%s'", o->name);
    const iospd_opt_def_t* found = (o->flags & IOSPD_OPTF_LONG)
                                       ? iospd_options_find_long(o->name)
                                       : iospd_options_find(o->name);
    if (found != o) fail_msg("lookup of '%s' finds another entry", o->name);
  }
  /* The ids the parser asks by name the entries they mean. */
  assert_string_equal(iospd_options[IOSPD_OID_b].name, "b");
  assert_string_equal(iospd_options[IOSPD_OID_B].name, "B");
  assert_string_equal(iospd_options[IOSPD_OID_colon].name, ":");
  assert_string_equal(iospd_options[IOSPD_OID_qmark].name, "?");
  assert_string_equal(iospd_options[IOSPD_OID_X].name, "X");
  assert_string_equal(iospd_options[IOSPD_OID_x].name, "x");
  assert_string_equal(iospd_options[IOSPD_OID_allow_raw_write].name,
                      "allow-raw-write");
  assert_string_equal(iospd_options[IOSPD_OID_help].name, "help");
}

static void test_value_words_are_sound(void** state) {
  (void)state;
  size_t lists = 0;
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    if (o->posval == NULL) continue;
    lists++;
    if (o->cb == NULL)
      fail_msg("-%s has value words but no handler to read them", o->name);
    if (o->posval[0].word == NULL) fail_msg("-%s: empty word list", o->name);
    for (const iospd_opt_word_t* w = o->posval; w->word != NULL; w++) {
      if (w->word[0] == '\0') fail_msg("-%s: an empty word", o->name);
      for (const iospd_opt_word_t* v = w + 1; v->word != NULL; v++)
        if (strcmp(w->word, v->word) == 0)
          fail_msg("-%s: '%s' twice", o->name, w->word);
      /* -? and the man page print the syntax: it must offer the word. */
      if (strstr(o->syntax, w->word) == NULL)
        fail_msg("-%s: syntax '%s' lacks '%s'", o->name, o->syntax, w->word);
    }
  }
  assert_int_equal(lists, 7); /* -rd -N -e -y --progress --diskspd -bs */
  /* The values are what the handlers store. */
  const iospd_opt_word_t* w = iospd_opt_words_find(
      iospd_options[IOSPD_OID_progress].posval, "never", 5, false);
  assert_non_null(w);
  assert_int_equal(w->value, IOSPD_STATUS_NEVER);
  w = iospd_opt_words_find(iospd_options[IOSPD_OID_N].posval, "I", 1, true);
  assert_non_null(w);
  assert_int_equal(w->value, IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN);
  w = iospd_opt_words_find(iospd_options[IOSPD_OID_e].posval, "DISK_IO", 7,
                           false);
  assert_non_null(w);
  assert_int_equal(w->value, (int)offsetof(iospd_etw_t, disk_io));
  w = iospd_opt_words_find(iospd_options[IOSPD_OID_y].posval, "p", 1, false);
  assert_non_null(w);
  assert_int_equal(w->value, (int)offsetof(iospd_events_t, stop_name));
}

static void test_word_helpers(void** state) {
  (void)state;
  static const iospd_opt_word_t words[] = {
      {"auto", 1}, {"always", 2}, {"never", 3}, {NULL, 0}};
  assert_null(iospd_opt_words_find(words, "AUTO", 4, false));
  assert_int_equal(iospd_opt_words_find(words, "AUTO", 4, true)->value, 1);
  /* Whole words only: "al" is neither "always" nor a prefix match. */
  assert_null(iospd_opt_words_find(words, "al", 2, false));
  assert_null(iospd_opt_words_find(words, "alwaysx", 7, false));
  assert_int_equal(iospd_opt_words_find(words, "alwaysx", 6, false)->value, 2);
  assert_null(iospd_opt_words_find(NULL, "auto", 4, false));
  char buf[64];
  iospd_opt_words_join(words, ", ", " or ", buf, sizeof buf);
  assert_string_equal(buf, "auto, always or never");
  iospd_opt_words_join(words, "|", "|", buf, sizeof buf);
  assert_string_equal(buf, "auto|always|never");
  iospd_opt_words_join(words, ", ", " or ", buf, 10);
  assert_string_equal(buf, "auto"); /* cut at a whole word */
  static const iospd_opt_word_t one[] = {{"x", 0}, {NULL, 0}};
  iospd_opt_words_join(one, ", ", " or ", buf, sizeof buf);
  assert_string_equal(buf, "x");
}

/* ---- the "was it given" bitmap ------------------------------------------- */

static const char* const k_xml =
    "<Profile><TimeSpans><TimeSpan><Duration>11</Duration><Warmup>2</Warmup>"
    "<Cooldown>3</Cooldown><RandSeed>9</RandSeed><Targets><Target>"
    "<Path>*1</Path></Target></Targets></TimeSpan></TimeSpans>"
    "<ExperimentFlags>4</ExperimentFlags></Profile>";

static int fake_read(const char* path, char** data, size_t* len,
                     iospd_err_t* err) {
  if (strcmp(path, "p.xml") != 0)
    return iospd_err_set(err, IOSPD_ENOENT, "cannot open '%s'", path);
  *len = strlen(k_xml);
  *data = iospd_strdup(k_xml);
  return *data ? 0 : IOSPD_ENOMEM;
}

static const iospd_cmdline_env_t k_env = {false, false, fake_read, NULL};

static void parse_ok(iospd_profile_t* p, int argc, const char* const* argv) {
  iospd_profile_init(p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(argc, argv, &k_env, p, &action, NULL, &err);
  if (rc != 0) fail_msg("parse failed: %s", err.msg);
  assert_int_equal(action, IOSPD_ACTION_RUN);
}

/* How many bits are set: exactly the switches on the line. */
static int given_count(const iospd_profile_t* p) {
  int n = 0;
  for (size_t i = 0; i < IOSPD_OID_COUNT; i++)
    n += iospd_opt_given(p, (iospd_opt_id_t)i);
  return n;
}

static void test_given_vs_default(void** state) {
  (void)state;
  iospd_profile_t p;
  /* -W5 is the default value, given explicitly: still "given". */
  const char* const a[] = {"iospd", "-d5", "-W5", "-b4K", "-o1", "t"};
  parse_ok(&p, 6, a);
  assert_true(iospd_opt_given(&p, IOSPD_OID_d));
  assert_true(iospd_opt_given(&p, IOSPD_OID_W));
  assert_true(iospd_opt_given(&p, IOSPD_OID_b));
  assert_true(iospd_opt_given(&p, IOSPD_OID_o));
  assert_false(iospd_opt_given(&p, IOSPD_OID_C));
  assert_false(iospd_opt_given(&p, IOSPD_OID_z));
  assert_false(iospd_opt_given(&p, IOSPD_OID_t));
  assert_false(iospd_opt_given(&p, IOSPD_OID_colon));
  assert_int_equal(given_count(&p), 4);
  assert_int_equal(p.timespans[0].duration, 5);
  assert_int_equal(p.timespans[0].warmup, 5);
  assert_int_equal(p.timespans[0].targets[0].block_size, 4096);
  iospd_profile_destroy(&p);

  /* Nothing given: every bit clear, the defaults in place. */
  const char* const b[] = {"iospd", "t"};
  parse_ok(&p, 2, b);
  assert_int_equal(given_count(&p), 0);
  assert_int_equal(p.timespans[0].duration, 10);
  iospd_profile_destroy(&p);

  /* Long options, short ones and the pass-1 ones alike; a repeated switch
   * is one bit. Out-of-range ids read as not given. */
  const char* const c[] = {"iospd", "-z", "-:1", "--progress=never",
                           "-b4K", "-b8K", "t"};
  parse_ok(&p, 7, c);
  assert_true(iospd_opt_given(&p, IOSPD_OID_z));
  assert_true(iospd_opt_given(&p, IOSPD_OID_colon));
  assert_true(iospd_opt_given(&p, IOSPD_OID_progress));
  assert_true(iospd_opt_given(&p, IOSPD_OID_b));
  assert_false(iospd_opt_given(&p, IOSPD_OID_B));
  assert_int_equal(given_count(&p), 4);
  assert_int_equal(p.timespans[0].targets[0].block_size, 8192);
  assert_int_equal(p.ext.status_line, IOSPD_STATUS_NEVER);
  assert_false(iospd_opt_given(&p, IOSPD_OID_COUNT));
  assert_false(iospd_opt_given(&p, (iospd_opt_id_t)-1));
  iospd_profile_destroy(&p);
}

/* With -X, the profile sets values but the bitmap holds only what the
 * command line gave; given values override the profile's, the rest stay. */
static void test_given_with_xml_profile(void** state) {
  (void)state;
  iospd_profile_t p;
  const char* const a[] = {"iospd", "-Xp.xml", "t"};
  parse_ok(&p, 3, a);
  assert_true(iospd_opt_given(&p, IOSPD_OID_X));
  assert_int_equal(given_count(&p), 1);
  assert_int_equal(p.timespans[0].duration, 11);
  assert_int_equal(p.timespans[0].warmup, 2);
  assert_int_equal(p.timespans[0].cooldown, 3);
  assert_int_equal(p.timespans[0].rand_seed, 9);
  assert_int_equal(p.experiment_flags, 4);
  iospd_profile_destroy(&p);

  /* -W5 and -z0 equal the defaults, yet being given they replace the
   * profile's 2 and 9. -C is not given: the profile's 3 stays. */
  const char* const b[] = {"iospd", "-Xp.xml", "-d7", "-W5", "-z0", "-:0",
                           "t"};
  parse_ok(&p, 7, b);
  assert_true(iospd_opt_given(&p, IOSPD_OID_d));
  assert_true(iospd_opt_given(&p, IOSPD_OID_W));
  assert_true(iospd_opt_given(&p, IOSPD_OID_z));
  assert_true(iospd_opt_given(&p, IOSPD_OID_colon));
  assert_false(iospd_opt_given(&p, IOSPD_OID_C));
  assert_int_equal(given_count(&p), 5);
  assert_int_equal(p.timespans[0].duration, 7);
  assert_int_equal(p.timespans[0].warmup, 5);
  assert_int_equal(p.timespans[0].cooldown, 3);
  assert_int_equal(p.timespans[0].rand_seed, 0);
  assert_int_equal(p.experiment_flags, 0);
  iospd_profile_destroy(&p);
}

/* --tree defaults -t, -o and -b unless they were given, whatever value. */
static void test_given_decides_tree_defaults(void** state) {
  (void)state;
  iospd_profile_t p;
  const char* const a[] = {"iospd", "--tree=D"};
  parse_ok(&p, 2, a);
  const iospd_target_t* t = &p.timespans[0].targets[0];
  assert_int_equal(t->threads_per_file, IOSPD_TREE_DEFAULT_THREADS);
  assert_int_equal(t->request_count, 1);
  assert_int_equal(t->block_size, 4096);
  iospd_profile_destroy(&p);

  /* -t1 -b64K are DISKSPD's defaults, given: the tree keeps them. */
  const char* const b[] = {"iospd", "-t1", "-b64K", "--tree=D"};
  parse_ok(&p, 4, b);
  t = &p.timespans[0].targets[0];
  assert_true(iospd_opt_given(&p, IOSPD_OID_t));
  assert_true(iospd_opt_given(&p, IOSPD_OID_tree));
  assert_int_equal(t->threads_per_file, 1);
  assert_int_equal(t->block_size, 65536);
  assert_int_equal(t->request_count, 1);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_entry_is_complete),
      cmocka_unit_test(test_names_are_unique_and_found),
      cmocka_unit_test(test_value_words_are_sound),
      cmocka_unit_test(test_word_helpers),
      cmocka_unit_test(test_given_vs_default),
      cmocka_unit_test(test_given_with_xml_profile),
      cmocka_unit_test(test_given_decides_tree_defaults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
