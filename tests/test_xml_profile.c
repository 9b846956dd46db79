/* SPDX-License-Identifier: MIT */
/* Tests of the XML profile reader and writer: every element to its field,
 * every schema-style error with its line and element, templates, DISKSPD's
 * exact <Profile> text for the sample command lines, round trips of many
 * generated profiles, and loading of every xml/examples file. */
#include "test_util.h"

#include "iospd/alloc.h"
#ifdef IOSPD_HAVE_CMDLINE
#include "iospd/cmdline.h"
#endif
#include "iospd/strbuf.h"
#include "iospd/xml_profile.h"
#include "xml_profile_gen.h"

/* These tests hold DISKSPD 2.2's layouts and rules: their profiles are at
 * --diskspd=2.2 (the default is 2.3; the 2.3 forms have their own tests). */
static void profile_init22(iospd_profile_t* p) {
  iospd_profile_init(p);
  p->ext.diskspd = IOSPD_DISKSPD_22;
}

static char* slurp(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char* buf = iospd_malloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      buf = iospd_realloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

/* Removes CRs so data files checked out with CRLF still compare. */
static void strip_cr(char* s) {
  char* d = s;
  for (; *s; s++) {
    if (*s != '\r') *d++ = *s;
  }
  *d = '\0';
}

static int parse(const char* text, iospd_profile_t* p, iospd_err_t* err) {
  profile_init22(p);
  iospd_err_clear(err);
  return iospd_xml_profile_parse(text, strlen(text), p, err);
}

static void parse_ok(const char* text, iospd_profile_t* p) {
  iospd_err_t err;
  int rc = parse(text, p, &err);
  if (rc) fprintf(stderr, "unexpected error: %s\n", err.msg);
  assert_int_equal(rc, 0);
}

/* One timespan with one target whose children are `body`. The target's
 * children start on line 6. */
static char* target_doc(const char* body) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
           "<Profile>\n"
           "  <TimeSpans>\n"
           "    <TimeSpan>\n"
           "      <Targets>\n"
           "        <Target>\n"
           "%s\n"
           "        </Target>\n"
           "      </Targets>\n"
           "    </TimeSpan>\n"
           "  </TimeSpans>\n"
           "</Profile>\n",
           body);
  return buf;
}

static void parse_target(const char* body, iospd_profile_t* p,
                         iospd_target_t** t) {
  parse_ok(target_doc(body), p);
  assert_int_equal(p->timespan_count, 1);
  assert_int_equal(p->timespans[0].target_count, 1);
  *t = &p->timespans[0].targets[0];
}

static void expect_parse_error(const char* text, const char* want) {
  iospd_profile_t p;
  iospd_err_t err;
  int rc = parse(text, &p, &err);
  assert_int_equal(rc, IOSPD_EPARSE);
  assert_string_equal(err.msg, want);
  iospd_profile_destroy(&p);
}

static void write_text(const iospd_profile_t* p, unsigned indent,
                       iospd_strbuf_t* sb) {
  iospd_strbuf_init(sb);
  iospd_xml_profile_write(sb, p, indent);
  assert_false(sb->failed);
}

/* ---- reading ---- */

static void test_minimal_profile(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Profile>\n"
           "<TimeSpans><TimeSpan><Targets><Target><Path>*1</Path></Target>"
           "</Targets></TimeSpan></TimeSpans></Profile>",
           &p);
  iospd_profile_t want;
  profile_init22(&want);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&want);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(t, "*1"), 0);
  assert_true(iospd_profile_equal(&p, &want));
  /* Defaults, spelled out. */
  assert_int_equal(p.timespans[0].duration, 10);
  assert_int_equal(p.timespans[0].warmup, 5);
  assert_int_equal(p.timespans[0].io_bucket_ms, 1000);
  assert_int_equal(p.timespans[0].targets[0].block_size, 65536);
  assert_int_equal(p.timespans[0].targets[0].request_count, 2);
  assert_int_equal(p.timespans[0].targets[0].io_priority, 3);
  assert_int_equal(p.timespans[0].targets[0].weight, 1);
  assert_int_equal(p.format, IOSPD_FORMAT_TEXT);
  iospd_profile_destroy(&p);
  iospd_profile_destroy(&want);
}

static const char* const full_doc =
    "<Profile xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
    "xsi:noNamespaceSchemaLocation=\"profile.xsd\">\n"
    "  <Verbose>true</Verbose>\n"
    "  <VerboseStats>1</VerboseStats>\n"
    "  <Progress>100</Progress>\n"
    "  <ExperimentFlags>3</ExperimentFlags>\n"
    "  <ResultFormat>xml</ResultFormat>\n"
    "  <PrecreateFiles>CreateOnlyFilesWithConstantOrZeroSizes"
    "</PrecreateFiles>\n"
    "  <ETW>\n"
    "    <Process>true</Process><Thread>false</Thread><ImageLoad>1"
    "</ImageLoad>\n"
    "    <DiskIO>true</DiskIO><MemoryPageFaults>true</MemoryPageFaults>\n"
    "    <MemoryHardFaults>true</MemoryHardFaults><Network>true</Network>\n"
    "    <Registry>true</Registry><UsePagedMemory>true</UsePagedMemory>\n"
    "    <UsePerfTimer>true</UsePerfTimer><UseSystemTimer>0</UseSystemTimer>\n"
    "    <UseCyclesCounter>true</UseCyclesCounter>\n"
    "  </ETW>\n"
    "  <TimeSpans>\n"
    "    <TimeSpan>\n"
    "      <Duration>30</Duration><Warmup>7</Warmup><Cooldown>3</Cooldown>\n"
    "      <RandSeed>4294967295</RandSeed><RandomWriteData>true"
    "</RandomWriteData>\n"
    "      <ThreadCount>4</ThreadCount><RequestCount>16</RequestCount>\n"
    "      <GroupAffinity>true</GroupAffinity>\n"
    "      <Affinity>\n"
    "        <AffinityGroupAssignment Group=\"0\" Processor=\"1\"/>\n"
    "        <AffinityGroupAssignment Group=\"65535\" Processor=\"255\"/>\n"
    "      </Affinity>\n"
    "      <DisableAffinity>false</DisableAffinity>\n"
    "      <CompletionRoutines>true</CompletionRoutines>\n"
    "      <MeasureLatency>true</MeasureLatency>\n"
    "      <CalculateIopsStdDev>true</CalculateIopsStdDev>\n"
    "      <IoBucketDuration>250</IoBucketDuration>\n"
    "      <Targets>\n"
    "        <Target>\n"
    "          <Path>C:\\data &amp; more\\f.dat</Path>\n"
    "          <BlockSize>4096</BlockSize>\n"
    "          <BaseFileOffset>8192</BaseFileOffset>\n"
    "          <SequentialScan>true</SequentialScan>\n"
    "          <RandomAccess>true</RandomAccess>\n"
    "          <TemporaryFile>true</TemporaryFile>\n"
    "          <UseLargePages>true</UseLargePages>\n"
    "          <RequestCount>32</RequestCount>\n"
    "          <Random>8192</Random>\n"
    "          <RandomRatio>40</RandomRatio>\n"
    "          <DisableOSCache>true</DisableOSCache>\n"
    "          <WriteThrough>true</WriteThrough>\n"
    "          <MemoryMappedIo>false</MemoryMappedIo>\n"
    "          <FlushType>NonVolatileMemoryNoDrain</FlushType>\n"
    "          <WriteBufferContent>\n"
    "            <Pattern>random</Pattern>\n"
    "            <RandomDataSource><SizeInBytes>1048576</SizeInBytes>"
    "<FilePath>C:\\seed.bin</FilePath></RandomDataSource>\n"
    "          </WriteBufferContent>\n"
    "          <BurstSize>5</BurstSize>\n"
    "          <ThinkTime>20</ThinkTime>\n"
    "          <Throughput unit=\"IOPS\">10</Throughput>\n"
    "          <ThreadsPerFile>2</ThreadsPerFile>\n"
    "          <FileSize>1073741824</FileSize>\n"
    "          <MaxFileSize>536870912</MaxFileSize>\n"
    "          <WriteRatio>30</WriteRatio>\n"
    "          <ParallelAsyncIO>false</ParallelAsyncIO>\n"
    "          <ThreadStride>0</ThreadStride>\n"
    "          <IOPriority>2</IOPriority>\n"
    "          <Weight>7</Weight>\n"
    "          <Distribution><Percent>\n"
    "            <Range IO=\"10\">10</Range><Range IO=\"10\">10</Range>\n"
    "            <Range IO=\"0\">10</Range>\n"
    "          </Percent></Distribution>\n"
    "          <ThreadTargets>\n"
    "            <ThreadTarget><Thread>0</Thread><Weight>3</Weight>"
    "</ThreadTarget>\n"
    "            <ThreadTarget><Thread>3</Thread></ThreadTarget>\n"
    "          </ThreadTargets>\n"
    "        </Target>\n"
    "      </Targets>\n"
    "    </TimeSpan>\n"
    "  </TimeSpans>\n"
    "</Profile>\n";

static void check_full(const iospd_profile_t* p) {
  assert_true(p->verbose);
  assert_true(p->verbose_stats);
  assert_int_equal(p->progress_dots, 100);
  assert_int_equal(p->experiment_flags, 3);
  assert_int_equal(p->format, IOSPD_FORMAT_XML);
  assert_int_equal(p->precreate, IOSPD_PRECREATE_CONSTANT_OR_ZERO_SIZES);
  const iospd_etw_t* e = &p->etw;
  assert_true(e->enabled);
  assert_true(e->process);
  assert_false(e->thread);
  assert_true(e->image_load);
  assert_true(e->disk_io && e->memory_page_faults && e->memory_hard_faults);
  assert_true(e->network && e->registry && e->use_paged_memory);
  assert_true(e->use_perf_timer);
  assert_false(e->use_system_timer);
  assert_true(e->use_cycles_counter);
  assert_int_equal(p->timespan_count, 1);
  const iospd_timespan_t* ts = &p->timespans[0];
  assert_int_equal(ts->duration, 30);
  assert_int_equal(ts->warmup, 7);
  assert_int_equal(ts->cooldown, 3);
  assert_int_equal(ts->rand_seed, 4294967295u);
  assert_true(ts->random_write_data);
  assert_int_equal(ts->thread_count, 4);
  assert_int_equal(ts->request_count, 16);
  assert_int_equal(ts->affinity_count, 2);
  assert_int_equal(ts->affinity[0].group, 0);
  assert_int_equal(ts->affinity[0].cpu, 1);
  assert_int_equal(ts->affinity[1].group, 65535);
  assert_int_equal(ts->affinity[1].cpu, 255);
  assert_false(ts->disable_affinity);
  assert_true(ts->completion_routines);
  assert_true(ts->measure_latency);
  assert_true(ts->calc_iops_stddev);
  assert_int_equal(ts->io_bucket_ms, 250);
  assert_int_equal(ts->target_count, 1);
  const iospd_target_t* t = &ts->targets[0];
  assert_string_equal(t->path, "C:\\data & more\\f.dat");
  assert_int_equal(t->block_size, 4096);
  assert_int_equal(t->base_offset, 8192);
  assert_true(t->sequential_scan && t->random_access && t->temporary);
  assert_true(t->large_pages);
  assert_int_equal(t->request_count, 32);
  assert_int_equal(t->random_ratio, 40);
  assert_int_equal(t->stride_align, 8192);
  assert_int_equal(t->cache_mode, IOSPD_CACHE_DISABLE_OS);
  assert_true(t->write_through);
  assert_false(t->memory_mapped);
  assert_int_equal(t->flush_type, IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN);
  assert_int_equal(t->pattern, IOSPD_PATTERN_RANDOM);
  assert_int_equal(t->random_data_size, 1048576);
  assert_string_equal(t->random_data_path, "C:\\seed.bin");
  assert_true(t->burst_set);
  assert_int_equal(t->burst_size, 5);
  assert_true(t->think_set);
  assert_int_equal(t->think_time, 20);
  /* 10 IOPS x 4096 B / 1000 ms = 40 B/ms (truncated), IOPS kept. */
  assert_int_equal(t->throughput_iops, 10);
  assert_int_equal(t->throughput_bpms, 40);
  assert_int_equal(t->threads_per_file, 2);
  assert_true(t->create);
  assert_int_equal(t->file_size, 1073741824u);
  assert_int_equal(t->max_file_size, 536870912u);
  assert_int_equal(t->write_ratio, 30);
  assert_false(t->parallel_async);
  assert_int_equal(t->thread_stride, 0);
  assert_int_equal(t->io_priority, 2);
  assert_int_equal(t->weight, 7);
  /* Same as -rdpct10/10:10/10:0/10 (DISKSPD's -rd rules). */
  assert_int_equal(t->dist_type, IOSPD_DIST_PERCENT);
  assert_int_equal(t->dist_count, 4);
  const uint64_t want[4][4] = {
      {0, 10, 0, 10}, {10, 10, 10, 10}, {20, 0, 20, 10}, {20, 80, 30, 70}};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(t->dist[i].io_base, want[i][0]);
    assert_int_equal(t->dist[i].io_pct, want[i][1]);
    assert_int_equal(t->dist[i].span_base, want[i][2]);
    assert_int_equal(t->dist[i].span, want[i][3]);
  }
  assert_int_equal(t->thread_target_count, 2);
  assert_int_equal(t->thread_targets[0].thread, 0);
  assert_int_equal(t->thread_targets[0].weight, 3);
  assert_int_equal(t->thread_targets[1].thread, 3);
  assert_int_equal(t->thread_targets[1].weight, 0);
}

static void test_every_element(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok(full_doc, &p);
  check_full(&p);
  iospd_profile_destroy(&p);
}

/* Reverses the order of the children of every element of full_doc by
 * writing it back reversed: the reader must not care about order. */
static void test_unordered_children(void** state) {
  (void)state;
  const char* reordered =
      "<Profile>\n"
      "  <TimeSpans>\n"
      "    <TimeSpan>\n"
      "      <Targets>\n"
      "        <Target>\n"
      "          <Throughput unit=\"IOPS\">10</Throughput>\n"
      "          <ThreadTargets>\n"
      "            <ThreadTarget><Weight>3</Weight><Thread>0</Thread>"
      "</ThreadTarget>\n"
      "            <ThreadTarget><Thread>3</Thread></ThreadTarget>\n"
      "          </ThreadTargets>\n"
      "          <Distribution><Percent>\n"
      "            <Range IO=\"10\">10</Range><Range IO=\"10\">10</Range>\n"
      "            <Range IO=\"0\">10</Range>\n"
      "          </Percent></Distribution>\n"
      "          <Weight>7</Weight><IOPriority>2</IOPriority>\n"
      "          <ThreadStride>0</ThreadStride><ParallelAsyncIO>false"
      "</ParallelAsyncIO>\n"
      "          <WriteRatio>30</WriteRatio><MaxFileSize>536870912"
      "</MaxFileSize>\n"
      "          <FileSize>1073741824</FileSize><ThreadsPerFile>2"
      "</ThreadsPerFile>\n"
      "          <ThinkTime>20</ThinkTime><BurstSize>5</BurstSize>\n"
      "          <WriteBufferContent>\n"
      "            <RandomDataSource><FilePath>C:\\seed.bin</FilePath>"
      "<SizeInBytes>1048576</SizeInBytes></RandomDataSource>\n"
      "            <Pattern>random</Pattern>\n"
      "          </WriteBufferContent>\n"
      "          <FlushType>NonVolatileMemoryNoDrain</FlushType>\n"
      "          <MemoryMappedIo>false</MemoryMappedIo><WriteThrough>true"
      "</WriteThrough>\n"
      "          <DisableOSCache>true</DisableOSCache>\n"
      "          <RandomRatio>40</RandomRatio><Random>8192</Random>\n"
      "          <RequestCount>32</RequestCount><UseLargePages>true"
      "</UseLargePages>\n"
      "          <TemporaryFile>true</TemporaryFile><RandomAccess>true"
      "</RandomAccess>\n"
      "          <SequentialScan>true</SequentialScan>\n"
      "          <BaseFileOffset>8192</BaseFileOffset>\n"
      "          <Path>C:\\data &amp; more\\f.dat</Path>\n"
      "          <BlockSize>4096</BlockSize>\n"
      "        </Target>\n"
      "      </Targets>\n"
      "      <IoBucketDuration>250</IoBucketDuration>\n"
      "      <CalculateIopsStdDev>true</CalculateIopsStdDev>\n"
      "      <MeasureLatency>true</MeasureLatency>\n"
      "      <CompletionRoutines>true</CompletionRoutines>\n"
      "      <DisableAffinity>false</DisableAffinity>\n"
      "      <Affinity>\n"
      "        <AffinityGroupAssignment Processor=\"1\" Group=\"0\"/>\n"
      "        <AffinityGroupAssignment Processor=\"255\" Group=\"65535\"/>\n"
      "      </Affinity>\n"
      "      <GroupAffinity>false</GroupAffinity>\n"
      "      <RequestCount>16</RequestCount><ThreadCount>4</ThreadCount>\n"
      "      <RandomWriteData>1</RandomWriteData><RandSeed>4294967295"
      "</RandSeed>\n"
      "      <Cooldown>3</Cooldown><Warmup>7</Warmup><Duration>30</Duration>\n"
      "    </TimeSpan>\n"
      "  </TimeSpans>\n"
      "  <ETW>\n"
      "    <UseCyclesCounter>true</UseCyclesCounter><UseSystemTimer>false"
      "</UseSystemTimer>\n"
      "    <UsePerfTimer>true</UsePerfTimer><UsePagedMemory>true"
      "</UsePagedMemory>\n"
      "    <Registry>true</Registry><Network>true</Network>\n"
      "    <MemoryHardFaults>true</MemoryHardFaults><MemoryPageFaults>true"
      "</MemoryPageFaults>\n"
      "    <DiskIO>true</DiskIO><ImageLoad>true</ImageLoad><Thread>false"
      "</Thread>\n"
      "    <Process>true</Process>\n"
      "  </ETW>\n"
      "  <PrecreateFiles>CreateOnlyFilesWithConstantOrZeroSizes"
      "</PrecreateFiles>\n"
      "  <ResultFormat>xml</ResultFormat>\n"
      "  <ExperimentFlags>3</ExperimentFlags><Progress>100</Progress>\n"
      "  <VerboseStats>true</VerboseStats><Verbose>1</Verbose>\n"
      "</Profile>\n";
  iospd_profile_t a, b;
  parse_ok(full_doc, &a);
  parse_ok(reordered, &b);
  check_full(&b);
  assert_true(iospd_profile_equal(&a, &b));
  iospd_profile_destroy(&a);
  iospd_profile_destroy(&b);
}

static void test_several_timespans(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok("<Profile><TimeSpans>\n"
           "<TimeSpan><Duration>1</Duration><Targets>"
           "<Target><Path>*1</Path><BlockSize>4096</BlockSize></Target>"
           "<Target><Path>*2</Path></Target></Targets></TimeSpan>\n"
           "<TimeSpan><Duration>2</Duration><Targets>"
           "<Target><Path>*1</Path><BlockSize>8192</BlockSize></Target>"
           "</Targets></TimeSpan>\n"
           "<TimeSpan><Targets><Target><Path>x</Path></Target></Targets>"
           "</TimeSpan>\n"
           "</TimeSpans></Profile>",
           &p);
  assert_int_equal(p.timespan_count, 3);
  assert_int_equal(p.timespans[0].duration, 1);
  assert_int_equal(p.timespans[0].target_count, 2);
  assert_int_equal(p.timespans[0].targets[0].block_size, 4096);
  assert_string_equal(p.timespans[0].targets[1].path, "*2");
  assert_int_equal(p.timespans[1].duration, 2);
  assert_int_equal(p.timespans[1].targets[0].block_size, 8192);
  assert_int_equal(p.timespans[2].duration, 10);
  assert_string_equal(p.timespans[2].targets[0].path, "x");
  iospd_profile_destroy(&p);
}

static void test_values_and_whitespace(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_target_t* t;
  /* Numbers and booleans collapse whitespace like the schema; "+" and "-0"
   * are xs:unsignedInt forms; 1/0 are booleans with 1 = true (DISKSPD
   * would read "1" as false). Paths keep their spaces. */
  parse_target("<Path> spaced </Path><BlockSize>\n 4096 \n</BlockSize>"
               "<RequestCount>+8</RequestCount><WriteRatio>-0</WriteRatio>"
               "<SequentialScan> 1 </SequentialScan>"
               "<RandomAccess>0</RandomAccess><TemporaryFile>true"
               "</TemporaryFile><MaxFileSize>18446744073709551615"
               "</MaxFileSize><Throughput unit=\"BPMS\">500</Throughput>",
               &p, &t);
  assert_string_equal(t->path, " spaced ");
  assert_int_equal(t->block_size, 4096);
  assert_int_equal(t->request_count, 8);
  assert_int_equal(t->write_ratio, 0);
  assert_true(t->sequential_scan);
  assert_false(t->random_access);
  assert_true(t->temporary);
  assert_int_equal(t->max_file_size, UINT64_MAX);
  assert_int_equal(t->throughput_bpms, 500);
  assert_int_equal(t->throughput_iops, 0);
  iospd_profile_destroy(&p);
}

static void test_access_patterns(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_target_t* t;
  parse_target("<Path>f</Path><Random>0</Random><BlockSize>4096</BlockSize>",
               &p, &t);
  /* <Random>0</Random>: random with block-size alignment, no error. */
  assert_int_equal(t->random_ratio, 100);
  assert_int_equal(iospd_target_align(t), 4096);
  iospd_profile_destroy(&p);

  parse_target("<Path>f</Path><RandomRatio>25</RandomRatio>", &p, &t);
  assert_int_equal(t->random_ratio, 25);
  assert_int_equal(iospd_target_align(t), 65536);
  iospd_profile_destroy(&p);

  parse_target("<Path>f</Path><StrideSize>12288</StrideSize>"
               "<InterlockedSequential>true</InterlockedSequential>"
               "<ParallelAsyncIO>true</ParallelAsyncIO>"
               "<ThreadStride>1048576</ThreadStride>",
               &p, &t);
  assert_int_equal(t->random_ratio, 0);
  assert_int_equal(t->stride_align, 12288);
  assert_true(t->interlocked);
  assert_true(t->parallel_async);
  assert_int_equal(t->thread_stride, 1048576);
  iospd_profile_destroy(&p);
}

static void test_cache_elements(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_target_t* t;
  parse_target("<Path>f</Path><DisableAllCache>true</DisableAllCache>", &p, &t);
  assert_int_equal(t->cache_mode, IOSPD_CACHE_DISABLE_OS);
  assert_true(t->write_through);
  iospd_profile_destroy(&p);
  /* DisableLocalCache is applied after the others, so it wins. */
  parse_target("<Path>f</Path><DisableLocalCache>true</DisableLocalCache>"
               "<DisableOSCache>true</DisableOSCache>",
               &p, &t);
  assert_int_equal(t->cache_mode, IOSPD_CACHE_DISABLE_LOCAL);
  assert_false(t->write_through);
  iospd_profile_destroy(&p);
  /* false values change nothing. */
  parse_target("<Path>f</Path><DisableAllCache>false</DisableAllCache>"
               "<DisableOSCache>false</DisableOSCache><WriteThrough>false"
               "</WriteThrough><MemoryMappedIo>true</MemoryMappedIo>"
               "<FlushType>ViewOfFile</FlushType>",
               &p, &t);
  assert_int_equal(t->cache_mode, IOSPD_CACHE_CACHED);
  assert_false(t->write_through);
  assert_true(t->memory_mapped);
  assert_int_equal(t->flush_type, IOSPD_FLUSH_VIEW_OF_FILE);
  iospd_profile_destroy(&p);
}

static void test_write_buffer_content(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_target_t* t;
  parse_target("<Path>f</Path><WriteBufferContent><Pattern>zero</Pattern>"
               "</WriteBufferContent>",
               &p, &t);
  assert_int_equal(t->pattern, IOSPD_PATTERN_ZERO);
  iospd_profile_destroy(&p);
  /* DISKSPD: "random" without a source keeps the default pattern. */
  parse_target("<Path>f</Path><WriteBufferContent><Pattern>random</Pattern>"
               "</WriteBufferContent>",
               &p, &t);
  assert_int_equal(t->pattern, IOSPD_PATTERN_SEQUENTIAL);
  assert_int_equal(t->random_data_size, 0);
  iospd_profile_destroy(&p);
  parse_target("<Path>f</Path><WriteBufferContent><Pattern>random</Pattern>"
               "<RandomDataSource><SizeInBytes>65536</SizeInBytes>"
               "</RandomDataSource></WriteBufferContent>",
               &p, &t);
  assert_int_equal(t->pattern, IOSPD_PATTERN_RANDOM);
  assert_int_equal(t->random_data_size, 65536);
  assert_null(t->random_data_path);
  iospd_profile_destroy(&p);
}

static void test_distributions(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_target_t* t;
  /* Same as -rdabs10/1G:10/1G:0/100G (DISKSPD's -rd rules). */
  parse_target("<Path>f</Path><Random>4096</Random><Distribution><Absolute>"
               "<Range IO=\"10\">1073741824</Range>"
               "<Range IO=\"10\">1073741824</Range>"
               "<Range IO=\"0\">107374182400</Range>"
               "</Absolute></Distribution>",
               &p, &t);
  const uint64_t G = 1073741824ull;
  const uint64_t want[4][4] = {{0, 10, 0, G},
                               {10, 10, G, G},
                               {20, 0, 2 * G, 100 * G},
                               {20, 80, 102 * G, 0}};
  assert_int_equal(t->dist_type, IOSPD_DIST_ABSOLUTE);
  assert_int_equal(t->dist_count, 4);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(t->dist[i].io_base, want[i][0]);
    assert_int_equal(t->dist[i].io_pct, want[i][1]);
    assert_int_equal(t->dist[i].span_base, want[i][2]);
    assert_int_equal(t->dist[i].span, want[i][3]);
  }
  iospd_profile_destroy(&p);

  /* Complete already: no tail. */
  parse_target("<Path>f</Path><Random>4096</Random><Distribution><Percent>"
               "<Range IO=\"90\">10</Range><Range IO=\"10\">90</Range>"
               "</Percent></Distribution>",
               &p, &t);
  assert_int_equal(t->dist_count, 2);
  assert_int_equal(t->dist[1].io_base, 90);
  assert_int_equal(t->dist[1].span_base, 10);
  assert_int_equal(t->dist[1].span, 90);
  iospd_profile_destroy(&p);

  /* Target fully covered with IO% left: no tail; validation reports it. */
  parse_target("<Path>f</Path><Random>4096</Random><Distribution><Percent>"
               "<Range IO=\"50\">100</Range></Percent></Distribution>",
               &p, &t);
  assert_int_equal(t->dist_count, 1);
  assert_int_equal(t->dist[0].io_pct, 50);
  iospd_profile_destroy(&p);
}

static void test_etw_presence(void** state) {
  (void)state;
  iospd_profile_t p;
  /* An empty <ETW/> turns nothing on; any child, even false, enables ETW
   * (DISKSPD). */
  parse_ok("<Profile><ETW/><TimeSpans><TimeSpan><Targets><Target><Path>f"
           "</Path></Target></Targets></TimeSpan></TimeSpans></Profile>",
           &p);
  assert_false(p.etw.enabled);
  iospd_profile_destroy(&p);
  parse_ok("<Profile><ETW><Process>false</Process></ETW><TimeSpans>"
           "<TimeSpan><Targets><Target><Path>f</Path></Target></Targets>"
           "</TimeSpan></TimeSpans></Profile>",
           &p);
  assert_true(p.etw.enabled);
  assert_false(p.etw.process);
  iospd_profile_destroy(&p);
}

static void test_affinity_forms(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok("<Profile><TimeSpans><TimeSpan><Affinity>"
           "<AffinityAssignment>3</AffinityAssignment>"
           "<AffinityAssignment>255</AffinityAssignment>"
           "</Affinity><Targets><Target><Path>f</Path></Target></Targets>"
           "</TimeSpan></TimeSpans></Profile>",
           &p);
  assert_int_equal(p.timespans[0].affinity_count, 2);
  assert_int_equal(p.timespans[0].affinity[0].group, 0);
  assert_int_equal(p.timespans[0].affinity[0].cpu, 3);
  assert_int_equal(p.timespans[0].affinity[1].cpu, 255);
  iospd_profile_destroy(&p);
}

/* ---- errors ---- */

typedef struct err_case_s {
  const char* body; /* Target children, starting on line 6 */
  const char* msg;
} err_case_t;

static void test_target_errors(void** state) {
  (void)state;
  static const err_case_t cases[] = {
      {"<Path>f</Path><RequestCount>abc</RequestCount>",
       "line 6: <RequestCount> must be a whole number from 1 to 2147483647, "
       "got 'abc'"},
      {"<Path>f</Path><RequestCount>0</RequestCount>",
       "line 6: <RequestCount> must be a whole number from 1 to 2147483647, "
       "got '0'"},
      /* The command line's limit (-o): 4294967295 was taken, then the run
       * failed allocating 4503599626321920 bytes. */
      {"<Path>f</Path><RequestCount>4294967295</RequestCount>",
       "line 6: <RequestCount> must be a whole number from 1 to 2147483647, "
       "got '4294967295'"},
      {"<Path>f</Path>\n<BlockSize>-4096</BlockSize>",
       "line 7: <BlockSize> must be a whole number from 1 to 4294967294, got "
       "'-4096'"},
      {"<Path>f</Path><BlockSize>0</BlockSize>",
       "line 6: <BlockSize> must be a whole number from 1 to 4294967294, got "
       "'0'"},
      {"<Path>f</Path><BlockSize>4294967296</BlockSize>",
       "line 6: <BlockSize> must be a whole number from 1 to 4294967294, got "
       "'4294967296'"},
      {"<Path>f</Path><BlockSize>4K</BlockSize>",
       "line 6: <BlockSize> must be a whole number from 1 to 4294967294, got "
       "'4K'"},
      {"<Path>f</Path><BlockSize></BlockSize>",
       "line 6: <BlockSize> must be a whole number from 1 to 4294967294, got "
       "''"},
      {"<Path>f</Path><MaxFileSize>18446744073709551616</MaxFileSize>",
       "line 6: <MaxFileSize> must be a whole number from 0 to "
       "18446744073709551615, got '18446744073709551616'"},
      /* strides and alignments stop at the largest file offset, 2^63-1 */
      {"<Path>f</Path><ThreadStride>9223372036854775808</ThreadStride>",
       "line 6: <ThreadStride> must be a whole number from 0 to "
       "9223372036854775807, got '9223372036854775808'"},
      {"<Path>f</Path><StrideSize>18446744073709551615</StrideSize>",
       "line 6: <StrideSize> must be a whole number from 0 to "
       "9223372036854775807, got '18446744073709551615'"},
      {"<Path>f</Path><Random>9223372036854775808</Random>",
       "line 6: <Random> must be a whole number from 0 to "
       "9223372036854775807, got '9223372036854775808'"},
      {"<Path>f</Path><RandomRatio>0</RandomRatio>",
       "line 6: <RandomRatio> must be a whole number from 1 to 99, got '0'"},
      {"<Path>f</Path><RandomRatio>100</RandomRatio>",
       "line 6: <RandomRatio> must be a whole number from 1 to 99, got "
       "'100'"},
      {"<Path>f</Path><IOPriority>0</IOPriority>",
       "line 6: <IOPriority> must be a whole number from 1 to 3, got '0'"},
      {"<Path>f</Path><IOPriority>4</IOPriority>",
       "line 6: <IOPriority> must be a whole number from 1 to 3, got '4'"},
      {"<Path>f</Path><WriteRatio>101</WriteRatio>",
       "line 6: <WriteRatio> must be a whole number from 0 to 100, got "
       "'101'"},
      {"<Path>f</Path><ThreadsPerFile>0</ThreadsPerFile>",
       "line 6: <ThreadsPerFile> must be a whole number from 1 to "
       "2147483647, got '0'"},
      {"<Path>f</Path>\n<StrideSize>4096</StrideSize>\n<Random>4096</Random>",
       "line 8: <Random> conflicts with <StrideSize> of line 7: a target is "
       "either sequential (StrideSize) or random (Random, RandomRatio)"},
      {"<Path>f</Path><RandomRatio>20</RandomRatio>\n"
       "<StrideSize>4096</StrideSize>",
       "line 6: <RandomRatio> conflicts with <StrideSize> of line 7: mixed "
       "random/sequential IO takes its alignment from <Random>"},
      {"<Path>f</Path><SequentialScan>yes</SequentialScan>",
       "line 6: <SequentialScan> must be true or false (or 1 or 0), got "
       "'yes'"},
      {"<Path>f</Path><SequentialScan>TRUE</SequentialScan>",
       "line 6: <SequentialScan> must be true or false (or 1 or 0), got "
       "'TRUE'"},
      {"<Path>f</Path><FlushType>Always</FlushType>",
       "line 6: <FlushType> must be ViewOfFile, NonVolatileMemory or "
       "NonVolatileMemoryNoDrain, got 'Always'"},
      {"<Path>f</Path><Throughput unit=\"FRUIT\">10</Throughput>",
       "line 6: <Throughput> attribute unit must be BPMS or IOPS, got "
       "'FRUIT'"},
      {"<Path>f</Path><Throughput>fast</Throughput>",
       "line 6: <Throughput> must be a whole number from 0 to 4294967295, "
       "got 'fast'"},
      {"<Path>f</Path><Throughput rate=\"1\">10</Throughput>",
       "line 6: <Throughput> has an unknown attribute 'rate'"},
      {"<Path>f</Path><BlockSize>4294967294</BlockSize>"
       "<Throughput unit=\"IOPS\">4294967295</Throughput>",
       "line 6: <Throughput unit=\"IOPS\"> 4294967295 with a block size of "
       "4294967294 is more than 4294967295 bytes per millisecond"},
      {"<Path>f</Path><Bogus>1</Bogus>",
       "line 6: unknown element <Bogus> inside <Target>"},
      {"<Path>f</Path><blocksize>1</blocksize>",
       "line 6: unknown element <blocksize> inside <Target>; names are "
       "case-sensitive: did you mean <BlockSize>?"},
      {"<Path>f</Path>\n<Weight>1</Weight>\n<Weight>2</Weight>",
       "line 8: <Weight> appears more than once inside <Target> (first at "
       "line 7)"},
      {"<BlockSize>4096</BlockSize>", "line 5: <Target> needs a <Path>"},
      {"<Path>*</Path>",
       "line 6: <Path> '*' is not a valid template: write * followed by a "
       "positive whole number, such as *1, to use the first target given on "
       "the command line"},
      {"<Path>*0</Path>",
       "line 6: <Path> '*0' is not a valid template: write * followed by a "
       "positive whole number, such as *1, to use the first target given on "
       "the command line"},
      {"<Path>*1foo</Path>",
       "line 6: <Path> '*1foo' is not a valid template: write * followed by "
       "a positive whole number, such as *1, to use the first target given "
       "on the command line"},
      {"<Path>f<x/></Path>",
       "line 6: <x> is not allowed inside <Path>, which holds only a value"},
      {"<Path a=\"1\">f</Path>", "line 6: <Path> has an unknown attribute 'a'"},
      {"<Path>f</Path>stray",
       "line 5: <Target> holds only elements, but it contains the text "
       "'stray'"},
      {"<Path>f</Path><WriteBufferContent><Pattern>ones</Pattern>"
       "</WriteBufferContent>",
       "line 6: <Pattern> must be sequential, zero or random, got 'ones'"},
      {"<Path>f</Path><WriteBufferContent></WriteBufferContent>",
       "line 6: <WriteBufferContent> needs a <Pattern>"},
      {"<Path>f</Path><WriteBufferContent><Pattern>random</Pattern>"
       "<RandomDataSource><FilePath>x</FilePath></RandomDataSource>"
       "</WriteBufferContent>",
       "line 6: <RandomDataSource> needs a <SizeInBytes>"},
      {"<Path>f</Path><Distribution></Distribution>",
       "line 6: <Distribution> needs exactly one of <Percent> or <Absolute>"},
      {"<Path>f</Path><Distribution><Percent><Range IO=\"1\">1</Range>"
       "</Percent><Absolute><Range IO=\"1\">1</Range></Absolute>"
       "</Distribution>",
       "line 6: <Distribution> needs exactly one of <Percent> or <Absolute>"},
      {"<Path>f</Path><Distribution><Percent></Percent></Distribution>",
       "line 6: <Percent> needs at least one <Range>"},
      {"<Path>f</Path><Distribution><Percent><Range IO=\"10\">0</Range>"
       "</Percent></Distribution>",
       "line 6: <Range> must be a whole number from 1 to 100, got '0'"},
      {"<Path>f</Path><Distribution><Percent><Range IO=\"10\">101</Range>"
       "</Percent></Distribution>",
       "line 6: <Range> must be a whole number from 1 to 100, got '101'"},
      {"<Path>f</Path><Distribution><Percent><Range IO=\"101\">10</Range>"
       "</Percent></Distribution>",
       "line 6: <Range> attribute IO must be a whole number from 0 to 100, "
       "got '101'"},
      {"<Path>f</Path><Distribution><Absolute><Range>10</Range>"
       "</Absolute></Distribution>",
       "line 6: <Range> needs an IO=\"percent\" attribute"},
      {"<Path>f</Path><Distribution><Absolute><Span IO=\"1\">10</Span>"
       "</Absolute></Distribution>",
       "line 6: unknown element <Span> inside <Absolute>; expected <Range>"},
      {"<Path>f</Path><Distribution><Absolute>"
       "<Range IO=\"1\">18446744073709551615</Range><Range IO=\"1\">1</Range>"
       "</Absolute></Distribution>",
       "line 6: the <Range> lengths add up to more than 18446744073709551615 "
       "bytes"},
      {"<Path>f</Path><ThreadTargets><ThreadTarget><Weight>1</Weight>"
       "</ThreadTarget></ThreadTargets>",
       "line 6: <ThreadTarget> needs a <Thread>"},
      {"<Path>f</Path><ThreadTargets></ThreadTargets>",
       "line 6: <ThreadTargets> needs at least one <ThreadTarget>"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(cases); i++) {
    expect_parse_error(target_doc(cases[i].body), cases[i].msg);
  }
}

static void test_structure_errors(void** state) {
  (void)state;
  expect_parse_error("<Profil><TimeSpans/></Profil>",
                     "line 1: the root element must be <Profile>, not "
                     "<Profil>; is this a DISKSPD profile?");
  expect_parse_error("<Profile>\n</Profile>",
                     "line 1: <Profile> needs a <TimeSpans> element");
  expect_parse_error("<Profile>\n<TimeSpans/></Profile>",
                     "line 2: <TimeSpans> needs at least one <TimeSpan>");
  expect_parse_error("<Profile>\n<TimeSpans><TimeSpan>\n<Duration>5</Duration>"
                     "</TimeSpan></TimeSpans></Profile>",
                     "line 2: <TimeSpan> needs a <Targets> element");
  expect_parse_error("<Profile><TimeSpans><TimeSpan>\n<Targets/></TimeSpan>"
                     "</TimeSpans></Profile>",
                     "line 2: <Targets> needs at least one <Target>");
  expect_parse_error("<Profile><TimeSpans>\n<Span/></TimeSpans></Profile>",
                     "line 2: unknown element <Span> inside <TimeSpans>; "
                     "expected <TimeSpan>");
  expect_parse_error("<Profile xmlns=\"urn:x\"><TimeSpans/></Profile>",
                     "line 1: <Profile> declares the namespace 'urn:x', but "
                     "profiles use no namespace; remove xmlns=\"...\"");
  expect_parse_error("<Profile>\n<ResultFormat>html</ResultFormat>"
                     "<TimeSpans/></Profile>",
                     "line 2: <ResultFormat> must be text, xml or json, "
                     "got 'html'");
  expect_parse_error("<Profile>\n<PrecreateFiles>Always</PrecreateFiles>"
                     "<TimeSpans/></Profile>",
                     "line 2: <PrecreateFiles> must be UseMaxSize, "
                     "CreateOnlyFilesWithConstantSizes or "
                     "CreateOnlyFilesWithConstantOrZeroSizes, got 'Always'");
  expect_parse_error("<Profile>\n<Progress>-1</Progress><TimeSpans/>"
                     "</Profile>",
                     "line 2: <Progress> must be a whole number from 0 to "
                     "2147483647, got '-1'");
  expect_parse_error("<Profile><ETW>\n<Kernel>true</Kernel></ETW>"
                     "<TimeSpans/></Profile>",
                     "line 2: unknown element <Kernel> inside <ETW>");
  expect_parse_error("<Profile><Verbose>true</Verbose>\n<Verbose>true"
                     "</Verbose><TimeSpans/></Profile>",
                     "line 2: <Verbose> appears more than once inside "
                     "<Profile> (first at line 1)");
  /* XML syntax errors come through with line and column. */
  expect_parse_error("<Profile>\n<TimeSpans></Profile>",
                     "line 2, column 12: end tag </Profile> does not match "
                     "start tag <TimeSpans> of line 2");
  expect_parse_error("<!DOCTYPE x [<!ENTITY a 'b'>]><Profile/>",
                     "line 1, column 1: DOCTYPE declarations are not allowed: "
                     "profiles may not define a DTD or entities");
}

static void test_timespan_errors(void** state) {
  (void)state;
  static const struct {
    const char* inner;
    const char* msg;
  } cases[] = {
      {"<Duration>ten</Duration>",
       "line 3: <Duration> must be a whole number from 0 to 2147483647, got "
       "'ten'"},
      {"<IoBucketDuration>0</IoBucketDuration>",
       "line 3: <IoBucketDuration> must be a whole number from 1 to "
       "2147483647, got '0'"},
      {"<MeasureLatency>on</MeasureLatency>",
       "line 3: <MeasureLatency> must be true or false (or 1 or 0), got "
       "'on'"},
      {"<GroupAffinity>maybe</GroupAffinity>",
       "line 3: <GroupAffinity> must be true or false (or 1 or 0), got "
       "'maybe'"},
      {"<Affinity><AffinityAssignment>256</AffinityAssignment></Affinity>",
       "line 3: <AffinityAssignment> must be a whole number from 0 to 255, "
       "got '256'"},
      {"<Affinity><AffinityGroupAssignment Group=\"65536\" Processor=\"0\"/>"
       "</Affinity>",
       "line 3: <AffinityGroupAssignment> attribute Group must be a whole "
       "number from 0 to 65535, got '65536'"},
      {"<Affinity><AffinityGroupAssignment Group=\"0\" Processor=\"256\"/>"
       "</Affinity>",
       "line 3: <AffinityGroupAssignment> attribute Processor must be a "
       "whole number from 0 to 255, got '256'"},
      {"<Affinity><AffinityGroupAssignment Group=\"0\"/></Affinity>",
       "line 3: <AffinityGroupAssignment> needs both Group and Processor "
       "attributes, e.g. Group=\"0\" Processor=\"1\""},
      {"<Affinity><AffinityAssignment>1</AffinityAssignment>"
       "<AffinityGroupAssignment Group=\"0\" Processor=\"1\"/></Affinity>",
       "line 3: unknown element <AffinityGroupAssignment> inside <Affinity>; "
       "expected <AffinityAssignment>"},
      {"<Affinity></Affinity>",
       "line 3: <Affinity> needs at least one <AffinityGroupAssignment>, "
       "<AffinityAssignment> or (DISKSPD 2.3) <Group>"},
      {"<Affinity><Cpu>1</Cpu></Affinity>",
       "line 3: unknown element <Cpu> inside <Affinity>; expected "
       "<AffinityGroupAssignment>, <AffinityAssignment> or <Group>"},
      {"<Targets2/>", "line 3: unknown element <Targets2> inside <TimeSpan>"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(cases); i++) {
    char doc[1024];
    snprintf(doc, sizeof doc,
             "<Profile>\n<TimeSpans><TimeSpan>\n%s\n<Targets><Target><Path>f"
             "</Path></Target></Targets></TimeSpan></TimeSpans></Profile>",
             cases[i].inner);
    expect_parse_error(doc, cases[i].msg);
  }
}

/* ---- templates ---- */

static void test_substitute(void** state) {
  (void)state;
  const char* doc =
      "<Profile><TimeSpans>"
      "<TimeSpan><Targets><Target><Path>*1</Path></Target>"
      "<Target><Path>*2</Path></Target><Target><Path>fixed.dat</Path>"
      "</Target></Targets></TimeSpan>"
      "<TimeSpan><Targets><Target><Path>*2</Path></Target>"
      "<Target><Path>*1</Path></Target><Target><Path>*1</Path></Target>"
      "</Targets></TimeSpan></TimeSpans></Profile>";
  iospd_profile_t p;
  iospd_err_t err;
  parse_ok(doc, &p);
  const char* const two[] = {"a.dat", "b.dat"};
  assert_int_equal(iospd_xml_profile_substitute(&p, two, 2, &err), 0);
  assert_string_equal(p.timespans[0].targets[0].path, "a.dat");
  assert_string_equal(p.timespans[0].targets[1].path, "b.dat");
  assert_string_equal(p.timespans[0].targets[2].path, "fixed.dat");
  assert_string_equal(p.timespans[1].targets[0].path, "b.dat");
  assert_string_equal(p.timespans[1].targets[1].path, "a.dat");
  assert_string_equal(p.timespans[1].targets[2].path, "a.dat");
  iospd_profile_destroy(&p);

  /* No command-line targets: templates stay. */
  parse_ok(doc, &p);
  assert_int_equal(iospd_xml_profile_substitute(&p, NULL, 0, &err), 0);
  assert_string_equal(p.timespans[0].targets[0].path, "*1");
  iospd_profile_destroy(&p);

  /* *2 has no substitution; nothing is changed. */
  parse_ok(doc, &p);
  const char* const one[] = {"a.dat"};
  assert_int_equal(iospd_xml_profile_substitute(&p, one, 1, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "template path '*2' (timespan 1, target 2) has no "
                      "substitution: the command line gives 1 target; add "
                      "target 2 after the options");
  assert_string_equal(p.timespans[0].targets[0].path, "*1");
  iospd_profile_destroy(&p);

  /* Every given substitution must be used. */
  parse_ok(doc, &p);
  const char* const three[] = {"a.dat", "b.dat", "c.dat"};
  assert_int_equal(iospd_xml_profile_substitute(&p, three, 3, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "command-line target 3 ('c.dat') is not used: the "
                      "profile has no template path *3");
  iospd_profile_destroy(&p);

  /* A template made invalid after parsing (e.g. built in code). */
  profile_init22(&p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(t, "**1"), 0);
  assert_int_equal(iospd_xml_profile_substitute(&p, one, 1, &err),
                   IOSPD_EPARSE);
  assert_string_equal(err.msg,
                      "template path '**1' (timespan 1, target 1) is not "
                      "valid: write * followed by a positive whole number, "
                      "such as *1");
  assert_int_equal(iospd_target_set_path(t, "*-1"), 0);
  assert_int_equal(iospd_xml_profile_substitute(&p, NULL, 0, &err),
                   IOSPD_EPARSE);
  iospd_profile_destroy(&p);

  /* Templates beyond the given count in a profile that does not use all. */
  parse_ok(target_doc("<Path>*3</Path>"), &p);
  assert_int_equal(iospd_xml_profile_substitute(&p, three, 3, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "command-line target 1 ('a.dat') is not used: the "
                      "profile has no template path *1");
  iospd_profile_destroy(&p);
}

/* ---- writing ---- */

/* The profile of a DISKSPD command line, built by hand as the command-line
 * parser would (reference samples README). */
static void sample_profile(iospd_profile_t* p, const char* path,
                           uint32_t duration, uint32_t warmup) {
  profile_init22(p);
  p->format = IOSPD_FORMAT_XML;
  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  ts->duration = duration;
  ts->warmup = warmup;
  ts->measure_latency = true;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(t, path), 0);
  t->create = true;
  t->file_size = 64u * 1024u * 1024u;
}

static void expect_golden(const iospd_profile_t* p, const char* file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, file);
  char* want = slurp(path, NULL);
  assert_non_null(want);
  strip_cr(want);
  iospd_strbuf_t sb;
  write_text(p, 1, &sb);
  assert_string_equal(iospd_strbuf_cstr(&sb), want);

  /* DISKSPD's own text reads back into the same profile. */
  iospd_profile_t back;
  parse_ok(want, &back);
  assert_true(iospd_profile_equal(p, &back));
  iospd_profile_destroy(&back);
  iospd_strbuf_destroy(&sb);
  iospd_free(want);
}

static void test_golden_samples(void** state) {
  (void)state;
  iospd_profile_t p;
  /* -c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat -Rxml */
  sample_profile(&p, "testfile.dat", 3, 5);
  iospd_target_t* t = &p.timespans[0].targets[0];
  p.timespans[0].calc_iops_stddev = true;
  t->block_size = 4096;
  t->random_ratio = 100;
  t->request_count = 8;
  t->threads_per_file = 2;
  t->write_ratio = 25;
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_through = true;
  expect_golden(&p, "xml-profile-mixed-random-4k-L-D.xml");
  iospd_profile_destroy(&p);

  /* -c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 -Rxml d.dat */
  sample_profile(&p, "d.dat", 2, 0);
  t = &p.timespans[0].targets[0];
  p.timespans[0].calc_iops_stddev = true;
  p.timespans[0].io_bucket_ms = 500;
  t->block_size = 4096;
  t->random_ratio = 30;
  t->threads_per_file = 2;
  t->write_ratio = 50;
  expect_golden(&p, "xml-profile-mixed-rs30-D500.xml");
  iospd_profile_destroy(&p);

  /* -c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat -Rxml */
  sample_profile(&p, "seq.dat", 2, 0);
  t = &p.timespans[0].targets[0];
  t->interlocked = true;
  t->request_count = 4;
  t->write_ratio = 100;
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_through = true;
  expect_golden(&p, "xml-profile-seq-write-64k-si-L.xml");
  iospd_profile_destroy(&p);
}

#ifdef IOSPD_HAVE_CMDLINE
/* End to end with the real command-line parser: DISKSPD's sample command
 * lines give DISKSPD's <Profile> text. */
static void test_golden_from_command_lines(void** state) {
  (void)state;
  static const struct {
    const char* file;
    const char* argv[16];
  } cases[] = {
      {"xml-profile-mixed-random-4k-L-D.xml",
       {"iospd", "--diskspd=2.2", "-c64M", "-d3", "-b4K", "-r", "-o8", "-t2", "-w25", "-Sh",
        "-L", "-D", "-Rxml", "testfile.dat", NULL}},
      {"xml-profile-mixed-rs30-D500.xml",
       {"iospd", "--diskspd=2.2", "-c64M", "-d2", "-W0", "-b4K", "-rs30", "-o2", "-t2", "-w50",
        "-Sb", "-L", "-D500", "-Rxml", "d.dat", NULL}},
      {"xml-profile-seq-write-64k-si-L.xml",
       {"iospd", "--diskspd=2.2", "-c64M", "-d2", "-W0", "-b64K", "-si", "-o4", "-t1", "-w100",
        "-Sh", "-L", "-Rxml", "seq.dat", NULL}},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(cases); i++) {
    int argc = 0;
    while (cases[i].argv[argc]) argc++;
    iospd_cmdline_env_t env;
    memset(&env, 0, sizeof env);
    iospd_profile_t p;
    profile_init22(&p);
    iospd_cmdline_action_t action;
    iospd_strbuf_t warnings;
    iospd_strbuf_init(&warnings);
    iospd_err_t err;
    iospd_err_clear(&err);
    int rc = iospd_cmdline_parse(argc, cases[i].argv, &env, &p, &action,
                                 &warnings, &err);
    if (rc) fprintf(stderr, "%s: %s\n", cases[i].file, err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(action, IOSPD_ACTION_RUN);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, cases[i].file);
    char* want = slurp(path, NULL);
    assert_non_null(want);
    strip_cr(want);
    iospd_strbuf_t sb;
    write_text(&p, 1, &sb);
    assert_string_equal(iospd_strbuf_cstr(&sb), want);
    iospd_strbuf_destroy(&sb);
    iospd_strbuf_destroy(&warnings);
    iospd_free(want);
    iospd_profile_destroy(&p);
  }
}
#endif

static void test_default_target_text(void** state) {
  (void)state;
  iospd_profile_t p;
  profile_init22(&p);
  iospd_strbuf_t sb;
  write_text(&p, 0, &sb);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "<Profile>\n"
                      "  <Progress>0</Progress>\n"
                      "  <ResultFormat>text</ResultFormat>\n"
                      "  <Verbose>false</Verbose>\n"
                      "  <TimeSpans>\n"
                      "  </TimeSpans>\n"
                      "</Profile>\n");
  iospd_strbuf_destroy(&sb);

  /* The default target (DISKSPD's profile XML), at indent 0 inside <Targets>. */
  iospd_timespan_t ts;
  iospd_timespan_init(&ts);
  iospd_target_t t;
  iospd_target_init(&t);
  ts.targets = &t;
  ts.target_count = 1;
  p.timespans = &ts;
  p.timespan_count = 1;
  write_text(&p, 0, &sb);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "<Profile>\n"
                      "  <Progress>0</Progress>\n"
                      "  <ResultFormat>text</ResultFormat>\n"
                      "  <Verbose>false</Verbose>\n"
                      "  <TimeSpans>\n"
                      "    <TimeSpan>\n"
                      "      <CompletionRoutines>false</CompletionRoutines>\n"
                      "      <MeasureLatency>false</MeasureLatency>\n"
                      "      <CalculateIopsStdDev>false</CalculateIopsStdDev>\n"
                      "      <DisableAffinity>false</DisableAffinity>\n"
                      "      <Duration>10</Duration>\n"
                      "      <Warmup>5</Warmup>\n"
                      "      <Cooldown>0</Cooldown>\n"
                      "      <ThreadCount>0</ThreadCount>\n"
                      "      <RequestCount>0</RequestCount>\n"
                      "      <IoBucketDuration>1000</IoBucketDuration>\n"
                      "      <RandSeed>0</RandSeed>\n"
                      "      <Targets>\n"
                      "        <Target>\n"
                      "          <Path></Path>\n"
                      "          <BlockSize>65536</BlockSize>\n"
                      "          <BaseFileOffset>0</BaseFileOffset>\n"
                      "          <SequentialScan>false</SequentialScan>\n"
                      "          <RandomAccess>false</RandomAccess>\n"
                      "          <TemporaryFile>false</TemporaryFile>\n"
                      "          <UseLargePages>false</UseLargePages>\n"
                      "          <WriteBufferContent>\n"
                      "            <Pattern>sequential</Pattern>\n"
                      "          </WriteBufferContent>\n"
                      "          <ParallelAsyncIO>false</ParallelAsyncIO>\n"
                      "          <StrideSize>65536</StrideSize>\n"
                      "          <InterlockedSequential>false"
                      "</InterlockedSequential>\n"
                      "          <ThreadStride>0</ThreadStride>\n"
                      "          <MaxFileSize>0</MaxFileSize>\n"
                      "          <RequestCount>2</RequestCount>\n"
                      "          <WriteRatio>0</WriteRatio>\n"
                      "          <Throughput>0</Throughput>\n"
                      "          <ThreadsPerFile>1</ThreadsPerFile>\n"
                      "          <IOPriority>3</IOPriority>\n"
                      "          <Weight>1</Weight>\n"
                      "        </Target>\n"
                      "      </Targets>\n"
                      "    </TimeSpan>\n"
                      "  </TimeSpans>\n"
                      "</Profile>\n");
  iospd_strbuf_destroy(&sb);
}

static void test_conditional_elements_text(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok(full_doc, &p);
  iospd_strbuf_t sb;
  write_text(&p, 0, &sb);
  const char* want =
      "<Profile>\n"
      "  <Progress>100</Progress>\n"
      "  <ExperimentFlags>3</ExperimentFlags>\n"
      "  <ResultFormat>xml</ResultFormat>\n"
      "  <Verbose>true</Verbose>\n"
      "  <VerboseStats>true</VerboseStats>\n"
      "  <PrecreateFiles>CreateOnlyFilesWithConstantOrZeroSizes"
      "</PrecreateFiles>\n"
      "  <ETW>\n"
      "    <Process>true</Process>\n"
      "    <Thread>false</Thread>\n"
      "    <ImageLoad>true</ImageLoad>\n"
      "    <DiskIO>true</DiskIO>\n"
      "    <MemoryPageFaults>true</MemoryPageFaults>\n"
      "    <MemoryHardFaults>true</MemoryHardFaults>\n"
      "    <Network>true</Network>\n"
      "    <Registry>true</Registry>\n"
      "    <UsePagedMemory>true</UsePagedMemory>\n"
      "    <UsePerfTimer>true</UsePerfTimer>\n"
      "    <UseSystemTimer>false</UseSystemTimer>\n"
      "    <UseCyclesCounter>true</UseCyclesCounter>\n"
      "  </ETW>\n"
      "  <TimeSpans>\n"
      "    <TimeSpan>\n"
      "      <CompletionRoutines>true</CompletionRoutines>\n"
      "      <MeasureLatency>true</MeasureLatency>\n"
      "      <CalculateIopsStdDev>true</CalculateIopsStdDev>\n"
      "      <DisableAffinity>false</DisableAffinity>\n"
      "      <Duration>30</Duration>\n"
      "      <Warmup>7</Warmup>\n"
      "      <Cooldown>3</Cooldown>\n"
      "      <ThreadCount>4</ThreadCount>\n"
      "      <RequestCount>16</RequestCount>\n"
      "      <IoBucketDuration>250</IoBucketDuration>\n"
      "      <RandSeed>4294967295</RandSeed>\n"
      "      <RandomWriteData>true</RandomWriteData>\n"
      "      <Affinity>\n"
      "        <AffinityGroupAssignment Group=\"0\" Processor=\"1\"/>\n"
      "        <AffinityGroupAssignment Group=\"65535\" Processor=\"255\"/>\n"
      "      </Affinity>\n"
      "      <Targets>\n"
      "        <Target>\n"
      "          <Path>C:\\data &amp; more\\f.dat</Path>\n"
      "          <BlockSize>4096</BlockSize>\n"
      "          <BaseFileOffset>8192</BaseFileOffset>\n"
      "          <SequentialScan>true</SequentialScan>\n"
      "          <RandomAccess>true</RandomAccess>\n"
      "          <TemporaryFile>true</TemporaryFile>\n"
      "          <UseLargePages>true</UseLargePages>\n"
      "          <DisableOSCache>true</DisableOSCache>\n"
      "          <WriteThrough>true</WriteThrough>\n"
      "          <FlushType>NonVolatileMemoryNoDrain</FlushType>\n"
      "          <WriteBufferContent>\n"
      "            <Pattern>random</Pattern>\n"
      "            <RandomDataSource>\n"
      "              <SizeInBytes>1048576</SizeInBytes>\n"
      "              <FilePath>C:\\seed.bin</FilePath>\n"
      "            </RandomDataSource>\n"
      "          </WriteBufferContent>\n"
      "          <ParallelAsyncIO>false</ParallelAsyncIO>\n"
      "          <BurstSize>5</BurstSize>\n"
      "          <ThinkTime>20</ThinkTime>\n"
      "          <FileSize>1073741824</FileSize>\n"
      "          <Random>8192</Random>\n"
      "          <RandomRatio>40</RandomRatio>\n"
      "          <Distribution>\n"
      "            <Percent>\n"
      "              <Range IO=\"10\">10</Range>\n"
      "              <Range IO=\"10\">10</Range>\n"
      "              <Range IO=\"0\">10</Range>\n"
      "              <Range IO=\"80\">70</Range>\n"
      "            </Percent>\n"
      "          </Distribution>\n"
      "          <ThreadStride>0</ThreadStride>\n"
      "          <MaxFileSize>536870912</MaxFileSize>\n"
      "          <RequestCount>32</RequestCount>\n"
      "          <WriteRatio>30</WriteRatio>\n"
      "          <Throughput unit=\"IOPS\">10</Throughput>\n"
      "          <ThreadsPerFile>2</ThreadsPerFile>\n"
      "          <IOPriority>2</IOPriority>\n"
      "          <Weight>7</Weight>\n"
      "          <ThreadTargets>\n"
      "            <ThreadTarget>\n"
      "              <Thread>0</Thread>\n"
      "              <Weight>3</Weight>\n"
      "            </ThreadTarget>\n"
      "            <ThreadTarget>\n"
      "              <Thread>3</Thread>\n"
      "            </ThreadTarget>\n"
      "          </ThreadTargets>\n"
      "        </Target>\n"
      "      </Targets>\n"
      "    </TimeSpan>\n"
      "  </TimeSpans>\n"
      "</Profile>\n";
  assert_string_equal(iospd_strbuf_cstr(&sb), want);
  iospd_strbuf_destroy(&sb);

  /* Cache-mode variants and the zero pattern. */
  iospd_target_t* t = &p.timespans[0].targets[0];
  t->cache_mode = IOSPD_CACHE_DISABLE_LOCAL;
  t->write_through = false;
  t->memory_mapped = true;
  t->flush_type = IOSPD_FLUSH_VIEW_OF_FILE;
  t->pattern = IOSPD_PATTERN_ZERO;
  write_text(&p, 0, &sb);
  const char* s = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(s, "          <UseLargePages>true</UseLargePages>\n"
                            "          <DisableLocalCache>true"
                            "</DisableLocalCache>\n"
                            "          <MemoryMappedIo>true</MemoryMappedIo>\n"
                            "          <FlushType>ViewOfFile</FlushType>\n"
                            "          <WriteBufferContent>\n"
                            "            <Pattern>zero</Pattern>\n"
                            "          </WriteBufferContent>\n"));
  assert_null(strstr(s, "DisableOSCache"));
  assert_null(strstr(s, "WriteThrough"));
  iospd_strbuf_destroy(&sb);
  iospd_profile_destroy(&p);
}

static void test_indent_levels(void** state) {
  (void)state;
  iospd_profile_t p;
  profile_init22(&p);
  iospd_strbuf_t sb;
  write_text(&p, 2, &sb);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "    <Profile>\n"
                      "      <Progress>0</Progress>\n"
                      "      <ResultFormat>text</ResultFormat>\n"
                      "      <Verbose>false</Verbose>\n"
                      "      <TimeSpans>\n"
                      "      </TimeSpans>\n"
                      "    </Profile>\n");
  /* Appends to what the buffer holds. */
  iospd_strbuf_t sb2;
  iospd_strbuf_init(&sb2);
  iospd_strbuf_append(&sb2, "<Results>\n");
  iospd_xml_profile_write(&sb2, &p, 1);
  assert_int_equal(
      strncmp(iospd_strbuf_cstr(&sb2), "<Results>\n  <Profile>\n", 22), 0);
  iospd_strbuf_destroy(&sb);
  iospd_strbuf_destroy(&sb2);
}

static void test_escaping(void** state) {
  (void)state;
  iospd_profile_t p;
  profile_init22(&p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(t, "a&b<c>\"d'e"), 0);
  iospd_strbuf_t sb;
  write_text(&p, 0, &sb);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb),
                         "<Path>a&amp;b&lt;c&gt;\"d'e</Path>\n"));
  iospd_profile_t back;
  parse_ok(iospd_strbuf_cstr(&sb), &back);
  assert_string_equal(back.timespans[0].targets[0].path, "a&b<c>\"d'e");
  iospd_profile_destroy(&back);
  iospd_strbuf_destroy(&sb);
  iospd_profile_destroy(&p);
}

static void test_round_trip(void** state) {
  (void)state;
  for (uint32_t seed = 0; seed < 500; seed++) {
    iospd_profile_t p, back;
    profile_init22(&p);
    assert_int_equal(xml_gen_profile(&p, seed), 0);
    /* The generator's explicit affinity is 2.2's ordered (group, CPU) list,
     * which only the 2.2 form keeps; test_profile23.c covers 2.3's masks. */
    p.ext.diskspd = IOSPD_DISKSPD_22;
    iospd_strbuf_t sb;
    write_text(&p, seed % 3, &sb);
    iospd_err_t err;
    int rc = parse(iospd_strbuf_cstr(&sb), &back, &err);
    if (rc) fprintf(stderr, "seed %u: %s\n", seed, err.msg);
    assert_int_equal(rc, 0);
    if (!iospd_profile_equal(&p, &back)) {
      fprintf(stderr, "seed %u differs after a round trip:\n%s\n", seed,
              iospd_strbuf_cstr(&sb));
      fail();
    }
    /* Writing the re-read profile gives the same text. */
    iospd_strbuf_t sb2;
    write_text(&back, seed % 3, &sb2);
    assert_string_equal(iospd_strbuf_cstr(&sb), iospd_strbuf_cstr(&sb2));
    iospd_strbuf_destroy(&sb);
    iospd_strbuf_destroy(&sb2);
    iospd_profile_destroy(&p);
    iospd_profile_destroy(&back);
  }
}

/* ---- examples ---- */

static void test_examples(void** state) {
  (void)state;
  char list[] = IOSPD_XML_EXAMPLES;
  int count = 0;
  for (char* name = strtok(list, "|"); name; name = strtok(NULL, "|")) {
    char path[1024];
    snprintf(path, sizeof path, "%s/xml/examples/%s", IOSPD_SOURCE_DIR, name);
    size_t len;
    char* text = slurp(path, &len);
    assert_non_null(text);
    iospd_profile_t p;
    profile_init22(&p);
    iospd_err_t err;
    int rc = iospd_xml_profile_parse(text, len, &p, &err);
    if (rc) fprintf(stderr, "%s: %s\n", name, err.msg);
    assert_int_equal(rc, 0);
    /* Every example is a template for the command-line target. */
    const char* const target[] = {"target.dat"};
    rc = iospd_xml_profile_substitute(&p, target, 1, &err);
    if (rc) fprintf(stderr, "%s: %s\n", name, err.msg);
    assert_int_equal(rc, 0);
#ifdef IOSPD_HAVE_VALIDATE
    iospd_strbuf_t diag;
    iospd_strbuf_init(&diag);
    rc = iospd_profile_validate(&p, &diag);
    if (rc) fprintf(stderr, "%s:\n%s\n", name, iospd_strbuf_cstr(&diag));
    assert_int_equal(rc, 0);
    iospd_strbuf_destroy(&diag);
#endif
    iospd_profile_destroy(&p);
    iospd_free(text);
    count++;
  }
  assert_true(count >= 5);
}

static long allocations_left;

static bool count_down(size_t n) {
  (void)n;
  return allocations_left-- > 0;
}

/* Every allocation failure on the way through the XML reader and the
 * profile reader gives IOSPD_ENOMEM (never a crash, leak or half-success),
 * until enough allocations are allowed for the parse to succeed. */
static void test_allocation_failures(void** state) {
  (void)state;
  long n = 0;
  for (;; n++) {
    iospd_profile_t p;
    profile_init22(&p);
    iospd_err_t err;
    iospd_err_clear(&err);
    allocations_left = n;
    iospd_alloc_set_gate(count_down);
    int rc = iospd_xml_profile_parse(full_doc, strlen(full_doc), &p, &err);
    iospd_alloc_set_gate(NULL);
    if (rc == 0) {
      check_full(&p);
      iospd_profile_destroy(&p);
      break;
    }
    assert_int_equal(rc, IOSPD_ENOMEM);
    assert_int_equal(err.code, IOSPD_ENOMEM);
    iospd_profile_destroy(&p);
  }
  assert_true(n > 5);
}

/* The documents xml/profile.xsd refuses (xmllint_refused) are refused by
 * the reader too, with a line number. */
static void test_refused_documents(void** state) {
  (void)state;
  char list[] = IOSPD_XML_INVALID;
  int count = 0;
  for (char* name = strtok(list, "|"); name; name = strtok(NULL, "|")) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, name);
    size_t len;
    char* text = slurp(path, &len);
    assert_non_null(text);
    iospd_profile_t p;
    profile_init22(&p);
    iospd_err_t err;
    iospd_err_clear(&err);
    int rc = iospd_xml_profile_parse(text, len, &p, &err);
    if (rc != IOSPD_EPARSE) fprintf(stderr, "%s was accepted\n", name);
    assert_int_equal(rc, IOSPD_EPARSE);
    assert_int_equal(strncmp(err.msg, "line ", 5), 0);
    iospd_profile_destroy(&p);
    iospd_free(text);
    count++;
  }
  assert_true(count >= 10);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_minimal_profile),
      cmocka_unit_test(test_every_element),
      cmocka_unit_test(test_unordered_children),
      cmocka_unit_test(test_several_timespans),
      cmocka_unit_test(test_values_and_whitespace),
      cmocka_unit_test(test_access_patterns),
      cmocka_unit_test(test_cache_elements),
      cmocka_unit_test(test_write_buffer_content),
      cmocka_unit_test(test_distributions),
      cmocka_unit_test(test_etw_presence),
      cmocka_unit_test(test_affinity_forms),
      cmocka_unit_test(test_target_errors),
      cmocka_unit_test(test_structure_errors),
      cmocka_unit_test(test_timespan_errors),
      cmocka_unit_test(test_substitute),
      cmocka_unit_test(test_golden_samples),
#ifdef IOSPD_HAVE_CMDLINE
      cmocka_unit_test(test_golden_from_command_lines),
#endif
      cmocka_unit_test(test_default_target_text),
      cmocka_unit_test(test_conditional_elements_text),
      cmocka_unit_test(test_indent_levels),
      cmocka_unit_test(test_escaping),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_examples),
      cmocka_unit_test(test_refused_documents),
      cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests_name("xml_profile", tests, NULL, NULL);
}
