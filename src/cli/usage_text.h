/* SPDX-License-Identifier: MIT */
/* The words the usage text (-?, usage.c) and the man page (manpage.c)
 * share, so the two cannot disagree: the paragraphs about targets and
 * sizes, the example targets, and the topic titles as -? prints them.
 * '\n' separates the lines of -?; the man page lets roff fill them. */
#ifndef IOSPD_CLI_USAGE_TEXT_H
#define IOSPD_CLI_USAGE_TEXT_H

#include "iospd/common.h"

typedef struct iospd_usage_example_target_s {
  const char* name; /* "/dev/nvme0n1" */
  const char* what; /* "a block device" */
} iospd_usage_example_target_t;

extern const char iospd_usage_targets[];
/* The switch syntax paragraph, where only '-' starts a switch (Linux) and
 * where '/' does too (Windows). */
extern const char iospd_usage_switches_dash[];
extern const char iospd_usage_switches_slash[];
extern const char iospd_usage_sizes[];
extern const iospd_usage_example_target_t iospd_usage_targets_posix[];
extern const size_t iospd_usage_targets_posix_count;

/* Topic t's heading as -? prints it (Windows-only switches say how much of
 * them this platform supports). Static storage. */
const char* iospd_usage_topic_title(int topic, bool windows);

#endif
