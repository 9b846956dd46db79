/* SPDX-License-Identifier: MIT */
/* Placeholder: replaced by the XML profile writer. */
#include "iospd/xml_profile.h"

void iospd_xml_profile_write(iospd_strbuf_t* out, const iospd_profile_t* p,
                             unsigned indent) {
  (void)out;
  (void)p;
  (void)indent;
}
