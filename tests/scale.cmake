# SPDX-License-Identifier: MIT
# Long and wide runs of the real binary (tests/e2e/scale_test.sh): peak
# memory of an interrupted -d3600 -D1 run, -t1000 wall and CPU time, and
# Ctrl-C during the set-up of -t2000. Linux only (it reads ru_maxrss and
# sends SIGINT).
find_program(IOSPD_BASH bash)
find_program(IOSPD_PYTHON3 python3)
if(IOSPD_BASH AND IOSPD_PYTHON3 AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_scale COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/scale_test.sh $<TARGET_FILE:iospd>)
  # Sanitizer builds start threads slower: the script widens its
  # wall-clock bound for them (still far below the regression it guards).
  if(IOSPD_ASAN OR IOSPD_UBSAN)
    set(iospd_scale_env "IOSPD_SANITIZED=1")
  else()
    set(iospd_scale_env "IOSPD_SANITIZED=0")
  endif()
  set_tests_properties(e2e_scale PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE
                       ENVIRONMENT "${iospd_scale_env}")
endif()
