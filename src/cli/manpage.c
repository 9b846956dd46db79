/* SPDX-License-Identifier: MIT */
/* The man page, iospd(1), in man(7) macros. Its options come from the
 * option table (options.c) and its targets and sizes paragraphs from the
 * usage text's own strings (usage_text.h), exactly as -? prints them on
 * Linux, so the two cannot drift apart (tests/e2e/man_test.py compares
 * them). The rest is written here: description, exit status, safety, the
 * differences from DISKSPD and the examples with their fio and ioping
 * equivalents. Written by src/mangen.c at build time (target iospd_man). */
#include <string.h>

#include "iospd/cmdline.h"
#include "iospd/options.h"
#include "iospd/profile.h"
#include "iospd/roff.h"
#include "iospd/version.h"
#include "usage_text.h"

/* A paragraph of prose (roff fills it). */
static void para(iospd_strbuf_t* out, const char* text) {
  iospd_strbuf_append(out, ".PP\n");
  iospd_roff_append(out, text, 0);
}

static void heading(iospd_strbuf_t* out, const char* macro, const char* t) {
  iospd_strbuf_appendf(out, ".%s \"", macro);
  iospd_roff_append(out, t, IOSPD_ROFF_ARG);
  iospd_strbuf_append(out, "\"\n");
}

/* A tagged paragraph: the tag in bold, the text under it. */
static void item(iospd_strbuf_t* out, const char* tag, const char* text) {
  iospd_strbuf_append(out, ".TP\n\\fB");
  iospd_roff_append(out, tag, IOSPD_ROFF_ARG);
  iospd_strbuf_append(out, "\\fR\n");
  iospd_roff_append(out, text, 0);
}

/* One switch: its syntax (a multi-line syntax is one tag), its help, and
 * the Linux note as a paragraph of its own, as -? prints them on Linux. */
static void option(iospd_strbuf_t* out, const iospd_opt_def_t* o) {
  /* --engine: its words and their lines come from the platform's table. */
  iospd_strbuf_t engines;
  iospd_strbuf_init(&engines);
  const char* syntax = o->syntax;
  if (iospd_opt_id(o) == IOSPD_OID_engine) {
    iospd_engine_choice_syntax(&engines, o->syntax);
    syntax = iospd_strbuf_cstr(&engines);
  }
  iospd_strbuf_append(out, ".TP\n\\fB");
  iospd_roff_append(out, syntax,
                    IOSPD_ROFF_CODE | IOSPD_ROFF_SYNTAX | IOSPD_ROFF_ARG);
  iospd_strbuf_append(out, "\\fR\n");
  iospd_roff_append(out, o->help, 0);
  if (iospd_opt_id(o) == IOSPD_OID_engine) {
    iospd_strbuf_reset(&engines);
    iospd_engine_choice_help(&engines);
    iospd_strbuf_append(out, ".IP\n");
    iospd_roff_append(out, iospd_strbuf_cstr(&engines), 0);
  }
  iospd_strbuf_destroy(&engines);
  if (o->posix_note != NULL) {
    iospd_strbuf_append(out, ".IP\n");
    iospd_roff_append(out, o->posix_note, 0);
  }
}

static void topic_options(iospd_strbuf_t* out, int topic) {
  for (size_t i = 0; i < iospd_options_count; i++)
    if ((int)iospd_options[i].topic == topic) option(out, &iospd_options[i]);
}

/* A command line in no-fill mode, wrapped before 72 columns with shell
 * continuations (" \"), so it can be pasted as it stands. */
static void command(iospd_strbuf_t* out, const char* cmd) {
  size_t col = 0;
  const char* p = cmd;
  while (*p) {
    size_t n = strcspn(p, " ");
    if (col > 0 && col + 1 + n > 68) {
      iospd_strbuf_append(out, " \\e\n    ");
      col = 4;
    } else if (col > 0) {
      iospd_strbuf_putc(out, ' ');
      col++;
    }
    char word[256];
    size_t w = n < sizeof word - 1 ? n : sizeof word - 1;
    memcpy(word, p, w);
    word[w] = '\0';
    /* Within a line: no line-start handling needed past column 0. */
    iospd_roff_append(out, word, IOSPD_ROFF_CODE | IOSPD_ROFF_ARG);
    col += n;
    p += n;
    while (*p == ' ') p++;
  }
  iospd_strbuf_putc(out, '\n');
}

/* The examples: what each measures, the iospd line, and the fio and ioping
 * lines that ask for the same I/O (NULL: that tool cannot). iospd warms up
 * for 5 s unless -W says otherwise; fio's --ramp_time is that warm-up.
 * DISKSPD draws random offsets with repeats; fio's --norandommap does too. */
typedef struct example_s {
  const char* what;
  const char* iospd;
  const char* fio;
  const char* ioping;
} example_t;

static const example_t k_examples[] = {
    {"Random 4 KiB reads, 32 in flight, bypassing the page cache (O_DIRECT), "
     "30 seconds after the default 5-second warm-up:",
     "iospd -b4K -r -o32 -Su -d30 /mnt/test.dat",
     "fio --name=randread --filename=/mnt/test.dat --rw=randread --bs=4k "
     "--iodepth=32 --direct=1 --ioengine=io_uring --norandommap "
     "--ramp_time=5 --runtime=30 --time_based",
     NULL},
    {"Latency probe: one 4 KiB random read at a time, back to back, "
     "O_DIRECT, with latency percentiles, no warm-up:",
     "iospd -b4K -r -o1 -t1 -Su -L -W0 -d30 /mnt/test.dat",
     "fio --name=lat --filename=/mnt/test.dat --rw=randread --bs=4k "
     "--iodepth=1 --direct=1 --ioengine=psync --norandommap --runtime=30 "
     "--time_based",
     "ioping -D -i 0 -w 30 /mnt/test.dat"},
    {"The same probe at one read per second (ioping's default pace):",
     "iospd -b4K -r -o1 -t1 -Su -L -g1i -W0 -d30 /mnt/test.dat",
     "fio --name=lat --filename=/mnt/test.dat --rw=randread --bs=4k "
     "--iodepth=1 --direct=1 --ioengine=psync --norandommap --rate_iops=1 "
     "--runtime=30 --time_based",
     "ioping -D -w 30 /mnt/test.dat"},
    {"Sequential 1 MiB writes, 4 in flight, O_DIRECT and O_DSYNC (-Sh), on "
     "a 10 GiB file created first (this overwrites the file):",
     "iospd -c10G -b1M -s -w100 -o4 -Sh -d60 /mnt/test.dat",
     "fio --name=seqwrite --filename=/mnt/test.dat --size=10g --rw=write "
     "--bs=1m --iodepth=4 --direct=1 --sync=dsync --ioengine=io_uring "
     "--ramp_time=5 --runtime=60 --time_based",
     NULL},
    {"OLTP-like mix: 8 KiB random I/O, 70% reads and 30% writes, 4 threads "
     "with 16 in flight each, O_DIRECT and O_DSYNC, with latency:",
     "iospd -b8K -r -w30 -t4 -o16 -Sh -L -d60 /mnt/test.dat",
     "fio --name=oltp --filename=/mnt/test.dat --rw=randrw --rwmixread=70 "
     "--bs=8k --numjobs=4 --iodepth=16 --direct=1 --sync=dsync "
     "--ioengine=io_uring --norandommap --group_reporting --ramp_time=5 "
     "--runtime=60 --time_based",
     NULL},
    {"Sequential 128 KiB reads of a whole NVMe device, 8 in flight, with "
     "the kernel AIO engine:",
     "iospd -b128K -s -o8 -Su --engine=libaio -d30 /dev/nvme0n1",
     "fio --name=seqread --filename=/dev/nvme0n1 --rw=read --bs=128k "
     "--iodepth=8 --direct=1 --ioengine=libaio --ramp_time=5 --runtime=30 "
     "--time_based",
     NULL},
};

static void examples(iospd_strbuf_t* out) {
  iospd_strbuf_append(out, ".SH EXAMPLES\n");
  para(out,
       "Each iospd line is followed by the fio(1) line that asks for the "
       "same I/O and, where one exists, the ioping(1) line (ioping issues "
       "one request at a time). iospd warms up for 5 seconds unless -W says "
       "otherwise (fio's --ramp_time), draws random offsets with repeats as "
       "DISKSPD does (fio's --norandommap) and, on Linux, issues I/O with "
       "io_uring unless --engine says otherwise. Add -Rp to an iospd line "
       "to print its profile without doing any I/O.");
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_examples); i++) {
    const example_t* e = &k_examples[i];
    para(out, e->what);
    iospd_strbuf_append(out, ".RS 4\n.nf\n");
    command(out, e->iospd);
    command(out, e->fio);
    if (e->ioping != NULL) command(out, e->ioping);
    iospd_strbuf_append(out, ".fi\n.RE\n");
  }
}

void iospd_cmdline_manpage(iospd_strbuf_t* out, const char* date) {
  iospd_strbuf_append(out,
                      ".\\\" Generated from src/cli/options.c, usage.c and "
                      "manpage.c by iospd_mangen; do not edit.\n");
  iospd_strbuf_appendf(out, ".TH IOSPD 1 \"%s\" \"iospd %s\" "
                            "\"User Commands\"\n", date, IOSPD_VERSION);
  /* Code-heavy text reads better unjustified and unhyphenated. */
  iospd_strbuf_append(out, ".nh\n.ad l\n");

  iospd_strbuf_append(out, ".SH NAME\n"
                           "iospd \\- DISKSPD\\-compatible storage benchmark\n");

  iospd_strbuf_append(out, ".SH SYNOPSIS\n");
  iospd_strbuf_append(out,
                      "\\fBiospd\\fR [\\fIswitches\\fR] \\fItarget1\\fR "
                      "[\\fItarget2\\fR ...]\n.br\n"
                      "\\fBiospd \\-X\\fR\\fIprofile.xml\\fR "
                      "[\\fIswitches\\fR] [\\fItarget\\fR ...]\n.br\n"
                      "\\fBiospd \\-\\-merge\\fR \\fIa.json\\fR "
                      "\\fIb.json\\fR ...\n.br\n"
                      "\\fBiospd \\-\\-version\\fR\n.br\n"
                      "\\fBiospd \\-?\\fR\n");

  iospd_strbuf_append(out, ".SH DESCRIPTION\n");
  para(out,
       "iospd is a storage benchmark: it issues reads and writes to files "
       "and block devices with the block size, access pattern, queue depth, "
       "thread count and caching asked for, and reports throughput, IOPS, "
       "latency percentiles and CPU use.");
  iospd_strbuf_appendf(out, ".PP\n");
  iospd_strbuf_appendf(out,
                       "It takes the command line of DISKSPD %s, "
                       "Microsoft's storage benchmark, and gives the same "
                       "answers: the same switches and XML profiles "
                       "(\\fB\\-X\\fR), the text report in DISKSPD's layout, "
                       "and the \\fB\\-Rxml\\fR report with its element "
                       "tree, so scripts written for DISKSPD keep working. "
                       "iospd adds a JSON report (\\fB\\-Rjson\\fR) and "
                       "long options of its own "
                       "(see \\fBIOSPD LONG OPTIONS\\fR).\n",
                       IOSPD_DISKSPD_VERSION);
  para(out,
       "On Linux it issues I/O with io_uring, kernel AIO (libaio), a pool "
       "of threads doing pread/pwrite, or one synchronous I/O at a time "
       "(--engine); on Windows with an I/O completion port.");

  iospd_strbuf_append(out, ".SH TARGETS\n");
  para(out, iospd_usage_targets);
  for (size_t i = 0; i < iospd_usage_targets_posix_count; i++)
    item(out, iospd_usage_targets_posix[i].name,
         iospd_usage_targets_posix[i].what);
  para(out, iospd_usage_switches_dash);

  iospd_strbuf_append(out, ".SH SIZES\n");
  para(out, iospd_usage_sizes);

  iospd_strbuf_append(out, ".SH OPTIONS\n");
  for (int t = 0; t < IOSPD_TOPIC_COUNT; t++) {
    if (t == IOSPD_TOPIC_IOSPD) continue; /* a section of its own */
    heading(out, "SS", iospd_usage_topic_title(t, false));
    topic_options(out, t);
  }
  iospd_strbuf_append(out, ".SH IOSPD LONG OPTIONS\n");
  topic_options(out, IOSPD_TOPIC_IOSPD);

  iospd_strbuf_append(out, ".SH EXIT STATUS\n");
  item(out, "0", "Success, also when Ctrl-C, SIGTERM or SIGHUP stopped the "
                 "run (the results measured so far are printed; a second "
                 "one does not lose them, a third abandons them).");
  item(out, "1", "The run failed: an I/O error, a short transfer, a file "
                 "that could not be created, a report file that could not "
                 "be written. -ye<name> also exits with 1, as in DISKSPD.");
  item(out, "3", "Bad input: an unknown or malformed switch, an invalid "
                 "XML profile, a value out of range. Nothing was run.");

  iospd_strbuf_append(out, ".SH SAFETY\n");
  item(out, "-c",
       "Never costs data: the free space is checked first, and the new file "
       "is written beside the target and renamed over it only when "
       "complete, so a failure or Ctrl-C leaves an existing file as it "
       "was. Only when the file system cannot hold both files is the target "
       "overwritten in place, after its space is reserved, and a NOTE says "
       "so. A complete -c does overwrite the target, as in DISKSPD.");
  item(out, "-w on a device",
       "Writing to a block device that holds a partition table, a file "
       "system or any non-zero byte in its first or last MiB, that is in use "
       "or that cannot be read is refused unless --allow-raw-write is "
       "given.");
  item(out, "never-written ranges",
       "A run on a file with holes or unwritten extents warns with the "
       "bytes concerned: reads there return zeros without touching the "
       "device. Re-create the file with -c.");

  iospd_strbuf_append(out, ".SH DIFFERENCES FROM DISKSPD\n");
  para(out,
       "iospd refuses input DISKSPD would quietly change (numbers out of "
       "range, repeated or conflicting switches) and checks the alignment "
       "of unbuffered I/O before the run, where DISKSPD fails in the middle "
       "of it. On Linux only '-' starts a switch, and the Windows-only "
       "switches are refused or mapped as their entries say. The full list, "
       "with the reasons, is in docs/compat-differences.md in the iospd "
       "sources.");

  examples(out);

  iospd_strbuf_append(out, ".SH SEE ALSO\n"
                           ".BR fio (1),\n"
                           ".BR ioping (1)\n");
  para(out,
       "In the iospd sources: README.md, docs/compat-differences.md, "
       "docs/engines.md, docs/results-json.md, docs/merging.md and "
       "docs/time-series.md.");
}
