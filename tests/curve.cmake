# --curve (docs/curve.md): the decisions on synthetic curves
# (iospd/curve.h), also under wine.
iospd_add_test(test_curve SOURCES test_curve.c FAKE_PLATFORM)
iospd_add_test(test_curve_opts SOURCES test_curve_opts.c FAKE_PLATFORM)
# The mode end to end (tests/e2e/curve_test.sh): refusals with exit 3, a
# short curve's JSON document and text table, a bound that breaks at once.
find_program(IOSPD_BASH bash)
find_package(Python3 COMPONENTS Interpreter)
if(IOSPD_BASH AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_curve COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/curve_test.sh ${PROJECT_SOURCE_DIR}
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_curve PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND Python3_FOUND AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_curve_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/curve_test.sh ${PROJECT_SOURCE_DIR}
           $<TARGET_FILE:iospd> --wine)
  set_tests_properties(e2e_curve_wine PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()
# Caps set by the blkio cgroup on a loop device (tests/e2e/
# curve_cgroup_test.sh): an IOPS cap, the bound against Little's law, a
# bandwidth cap, the page cache. Root and cgroup v1 blkio, else skipped.
if(IOSPD_BASH AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_curve_cgroup COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/curve_cgroup_test.sh
           ${PROJECT_SOURCE_DIR} $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_curve_cgroup PROPERTIES TIMEOUT 400
                       SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endif()
