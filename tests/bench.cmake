# SPDX-License-Identifier: MIT
# Self-test of the benchmark summariser (scripts/bench/summarize.py, issue #5):
# Python 3 standard library only, so it runs natively and never under wine.
if(NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  find_program(IOSPD_PYTHON3 NAMES python3)
  if(IOSPD_PYTHON3)
    add_test(NAME bench_summarize
      COMMAND ${IOSPD_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/bench/test_summarize.py)
    set_tests_properties(bench_summarize PROPERTIES TIMEOUT 60)
  else()
    message(STATUS "iospd: python3 not found; bench_summarize test not added")
  endif()
endif()
