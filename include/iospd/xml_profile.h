/* SPDX-License-Identifier: MIT */
/* DISKSPD XML profiles: -X<file> input and the <Profile> element that -Rpxml
 * and -Rxml print. */
#ifndef IOSPD_XML_PROFILE_H
#define IOSPD_XML_PROFILE_H

#include "iospd/profile.h"
#include "iospd/strbuf.h"

/* Parses an XML profile document (data, len) into p (initialised by the
 * caller). Errors name the line and element. Template targets (*N) are kept;
 * substitution is iospd_xml_profile_substitute. */
int iospd_xml_profile_parse(const char* data, size_t len, iospd_profile_t* p,
                            iospd_err_t* err);
/* Replaces *N template paths with targets[N-1]; every given target must be
 * used (DISKSPD's profile XML input). */
int iospd_xml_profile_substitute(iospd_profile_t* p, const char* const* targets,
                                 uint32_t count, iospd_err_t* err);
/* Writes the <Profile> element as DISKSPD 2.2 or 2.3 prints it (the
 * profile's ext.diskspd level), each line indented by 2*indent spaces,
 * ending with a newline. The reader takes both levels' elements. */
void iospd_xml_profile_write(iospd_strbuf_t* out, const iospd_profile_t* p,
                             unsigned indent);

#endif
