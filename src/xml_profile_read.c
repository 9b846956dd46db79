/* SPDX-License-Identifier: MIT */
/* Placeholder: replaced by the XML profile reader. */
#include "iospd/xml_profile.h"

int iospd_xml_profile_parse(const char* data, size_t len, iospd_profile_t* p,
                            iospd_err_t* err) {
  (void)data;
  (void)len;
  (void)p;
  return iospd_err_set(err, IOSPD_ENOTSUP, "XML profiles are not supported yet");
}

int iospd_xml_profile_substitute(iospd_profile_t* p, const char* const* targets,
                                 uint32_t count, iospd_err_t* err) {
  (void)p;
  (void)targets;
  (void)count;
  return iospd_err_set(err, IOSPD_ENOTSUP, "XML profiles are not supported yet");
}
