/* SPDX-License-Identifier: MIT */
/* What a curve run refuses before any I/O (docs/curve.md, "What --curve
 * refuses"): each message names the switch and says what to do. */
#include "iospd/curve.h"
#include "iospd/error.h"
#include "iospd/formats.h"

static int refuse(iospd_strbuf_t* msg, const char* text) {
  iospd_strbuf_append(msg, text);
  return IOSPD_EUSAGE;
}

int iospd_curve_refusal(const iospd_profile_t* p, iospd_strbuf_t* msg) {
  const iospd_curve_opts_t* o = &p->ext.curve;
  if (!o->on) {
    if (o->limit_on)
      return refuse(msg, "--latency-limit needs --curve: the bound is "
                         "searched along a curve (add --curve)");
    if (o->expect_kind != 0)
      return refuse(msg, "--expect needs --curve: the verdict that reads "
                         "it comes from a curve (add --curve)");
    return 0;
  }
  if (p->timespan_count != 1) {
    iospd_strbuf_appendf(msg, "--curve runs one timespan at each point, and "
                              "the -X profile has %u: keep one <TimeSpan>",
                         p->timespan_count);
    return IOSPD_EUSAGE;
  }
  if (p->ext.tree.dirs != NULL)
    return refuse(msg, "--curve cannot be combined with --tree: the curve "
                       "varies -o, -t or -b of block I/O on targets");
  if (p->ext.verify_only)
    return refuse(msg, "--curve cannot be combined with --verify-only, "
                       "which reads each block once and has no throughput "
                       "to curve");
  if (p->ext.verify)
    return refuse(msg, "--curve cannot be combined with --verify: run the "
                       "curve, then --verify on its own");
  if (p->profile_only)
    return refuse(msg, "--curve cannot be combined with -Rp: -Rp prints one "
                       "profile and a curve runs many");
  if (p->ext.timeseries_path != NULL)
    return refuse(msg, "--curve cannot be combined with --timeseries: the "
                       "file holds one run's intervals; each point's results "
                       "are in the curve's JSON (-Rjson, --output=json:FILE)");
  if (p->format == IOSPD_FORMAT_XML)
    return refuse(msg, "--curve writes a text or a JSON report: use -Rtext "
                       "or -Rjson, not -Rxml");
  if (p->format == IOSPD_FORMAT_FIO_JSON)
    return refuse(msg, "--curve writes a text or a JSON report: use -Rtext "
                       "or -Rjson, not -Rfio-json (fio's JSON holds one run)");
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    iospd_result_format_t f = p->ext.outputs[i].format;
    if (f == IOSPD_FORMAT_FIO_JSON)
      return refuse(msg, "--output=fio-json cannot be used with --curve: the "
                         "curve writes --output=text:, json: or html:");
    if (f == IOSPD_FORMAT_XML)
      return refuse(msg, "--output=xml cannot be used with --curve: the "
                         "curve writes --output=text:, json: or html:");
  }
  const iospd_timespan_t* ts = &p->timespans[0];
  if (o->axis == IOSPD_CURVE_AXIS_O && ts->request_count > 0)
    return refuse(msg, "--curve=o cannot be combined with -O, which fixes "
                       "the outstanding I/Os the curve varies: use -o");
  for (uint32_t t = 0; t < ts->target_count; t++)
    if (ts->targets[t].throughput_bpms > 0 ||
        ts->targets[t].throughput_iops > 0)
      return refuse(msg, "--curve cannot be combined with -g: a rate limit "
                         "caps the throughput the curve measures (with "
                         "--latency-limit the curve sets -g itself)");
  /* A bound on reads or writes needs some of them. */
  bool reads = false, writes = false;
  for (uint32_t t = 0; t < ts->target_count; t++) {
    reads = reads || ts->targets[t].write_ratio < 100;
    writes = writes || ts->targets[t].write_ratio > 0;
  }
  if (o->limit_on && o->limit_op == IOSPD_CURVE_OP_READ && !reads)
    return refuse(msg, "--latency-limit=r:... bounds reads, and -w100 "
                       "issues none: drop r: or lower -w");
  if (o->limit_on && o->limit_op == IOSPD_CURVE_OP_WRITE && !writes)
    return refuse(msg, "--latency-limit=w:... bounds writes, and the "
                       "profile issues none: drop w: or add -w");
  return 0;
}
