/* SPDX-License-Identifier: MIT */
/* Deterministic generator of varied, valid-for-XML profiles for the XML
 * round-trip tests and the xmllint check of the writer's output. */
#ifndef IOSPD_TEST_XML_PROFILE_GEN_H
#define IOSPD_TEST_XML_PROFILE_GEN_H

#include "iospd/profile.h"

/* Fills p (initialised by the caller) with profile number `seed`: every field
 * the profile XML carries gets a value that survives a write/read round trip
 * (e.g. IOPS throughput consistent with the block size, completed
 * distributions, ETW flags only when ETW is on). Returns 0 or IOSPD_ENOMEM. */
int xml_gen_profile(iospd_profile_t* p, uint32_t seed);

#endif
