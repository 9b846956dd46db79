/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's pieces of the results (report_sys.c), shared by the text,
 * XML and JSON reporters: the level, the system section with processor
 * name, page size and cache table, the effective affinity and buffer
 * separation of a timespan. Not a public interface. */
#ifndef IOSPD_REPORT_SYS_H
#define IOSPD_REPORT_SYS_H

#include "iospd/report.h"

/* The --diskspd level of the results (2.2 when there is no profile). */
iospd_diskspd_level_t iospd_rpt_level(const iospd_results_t* r);
/* The <Tool> version and date DISKSPD prints at that level. */
const char* iospd_rpt_diskspd_version(iospd_diskspd_level_t level);
const char* iospd_rpt_diskspd_version_date(iospd_diskspd_level_t level);
/* "Data", "Instruction", "Unified", "Trace" (XML Type=, JSON type). */
const char* iospd_rpt_cache_type(uint8_t type);

/* CPU numbers as ranges: "0-3,7". */
void iospd_rpt_cpu_ranges(iospd_strbuf_t* out, uint64_t mask);
/* One mask per group as DISKSPD's affinity text: "(cpu): 0-3,7" on a
 * machine with one group, "(group/cpu): 0/0-3 1/0-63" with several. */
void iospd_rpt_affinity_masks(iospd_strbuf_t* out, const uint64_t* masks,
                              uint32_t groups);

/* The whole "System information:" section at 2.3. */
void iospd_rpt_system_text_23(iospd_strbuf_t* out, const iospd_results_t* r);
/* "effective affinity (cpu): ..." and its blank line before it; nothing
 * when threads are not pinned (-n). */
void iospd_rpt_effective_affinity_text(iospd_strbuf_t* out,
                                       const iospd_results_t* r,
                                       const iospd_timespan_result_t* tr);
/* The per-group masks of the CPUs the timespan's threads ran on (masks:
 * topo.group_count entries); false when not pinned. */
bool iospd_rpt_effective_affinity(const iospd_results_t* r,
                                  const iospd_timespan_result_t* tr,
                                  uint64_t* masks);
/* Where each thread's buffer starts, in bytes, as 2.3 reports it
 * (<EffectiveBufferSeparation>): (largest cache line / 8) x (page / 8) x
 * page for -bsp (the 2.3 default), 0 for -bsn. */
uint64_t iospd_rpt_buffer_separation(const iospd_results_t* r,
                                     const iospd_timespan_t* ts);

#endif
