# SPDX-License-Identifier: MIT
# The HTML report (docs/html-report.md).
iospd_add_test(test_series_keep SOURCES test_series_keep.c)
iospd_add_test(test_html SOURCES test_html.c)

find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  # CLI behaviour, the fixed-bytes fixture, bad input.
  add_test(NAME e2e_html_report COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_report_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests/data)
  set_tests_properties(e2e_html_report PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
  # Charts with nothing on a log axis, or spanning +-1e308 (issue #30).
  add_test(NAME e2e_html_chart_bounds COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_chart_bounds_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests/data)
  set_tests_properties(e2e_html_chart_bounds PROPERTIES TIMEOUT 150
                       SKIP_RETURN_CODE 77)
  # Headless Chromium, network off (tests/html/check_report.py).
  add_test(NAME e2e_html_browser COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_browser_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests)
  set_tests_properties(e2e_html_browser PROPERTIES TIMEOUT 900)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  # iospd.exe writes the fixture's bytes exactly as the native build does.
  add_test(NAME e2e_html_report_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_report_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests/data --wine)
  set_tests_properties(e2e_html_report_wine PROPERTIES TIMEOUT 600
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
  add_test(NAME e2e_html_chart_bounds_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_chart_bounds_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests/data --wine)
  set_tests_properties(e2e_html_chart_bounds_wine PROPERTIES TIMEOUT 300
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
endif()

# The curve and PTS pages (iospd_html_curve / iospd_html_pts) from the
# hand-made documents tests/data/curve-*.json and pts-*.json.
iospd_add_test(test_html_curve SOURCES test_html_curve.c)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  # --report on curve and PTS documents; refusals (exit 3, nothing written).
  add_test(NAME e2e_html_pages COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_pages_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests)
  set_tests_properties(e2e_html_pages PROPERTIES TIMEOUT 120)
  # The same pages in headless Chromium: values placed where they say.
  add_test(NAME e2e_html_pages_browser COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_pages_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests --browser)
  set_tests_properties(e2e_html_pages_browser PROPERTIES TIMEOUT 600)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_html_pages_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/html_pages_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}/tests --wine)
  set_tests_properties(e2e_html_pages_wine PROPERTIES TIMEOUT 600
                       ENVIRONMENT "${iospd_test_env}")
endif()
