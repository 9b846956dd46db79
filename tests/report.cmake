# SPDX-License-Identifier: MIT
# Statistics and reporters: histogram, interval buckets, per-target stats,
# and the text/XML reports against golden files.
iospd_add_test(test_hist SOURCES test_hist.c)
iospd_add_test(test_hist_sparse SOURCES test_hist_sparse.c)
iospd_add_test(test_json_write SOURCES test_json_write.c)
iospd_add_test(test_buckets SOURCES test_buckets.c)
iospd_add_test(test_stats SOURCES test_stats.c)
iospd_add_test(test_report SOURCES test_report.c)

# Well-formedness of -Rxml output by an independent parser as well (native
# only; skipped when xmllint is not installed).
if(NOT CMAKE_CROSSCOMPILING)
  find_program(IOSPD_XMLLINT xmllint)
  if(IOSPD_XMLLINT)
    add_test(NAME report_xmllint
      COMMAND sh -c "\"$1\" --dump-xml report-all.xml && \"$2\" --noout report-all.xml"
              sh $<TARGET_FILE:test_report> ${IOSPD_XMLLINT}
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  else()
    message(STATUS "iospd: xmllint not found; report_xmllint not registered")
  endif()
endif()
iospd_add_test(test_report_waitstats SOURCES test_report_waitstats.c)
