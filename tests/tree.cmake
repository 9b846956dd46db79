# SPDX-License-Identifier: MIT
# The --tree file-tree mode (docs/tree.md), natively and under wine: the
# layout arithmetic (test_tree_layout), the platform calls (test_plat_tree:
# create-new, a no-replace rename of an open file, mkdir, removal), and the
# real binary (tests/e2e/tree_test.sh: natively the full set; under wine
# iospd.exe's creation, a short run, relocation and cleanup).
iospd_add_test(test_tree_layout SOURCES test_tree_layout.c)
iospd_add_test(test_plat_tree SOURCES test_plat_tree.c)
find_program(IOSPD_BASH bash)
find_program(IOSPD_PYTHON3 python3)
if(IOSPD_BASH AND IOSPD_PYTHON3 AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_tree COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/tree_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_tree PROPERTIES TIMEOUT 300)
  # The switches the controller hosts, on a tree run (iospd/workload.h):
  # -v, -P, -ys, --progress, --timeseries, -g, -i/-j by their effects.
  add_test(NAME e2e_tree_ctl COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/tree_ctl_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_tree_ctl PROPERTIES TIMEOUT 120)
  # Symbolic links planted as tree files, before and during a run, and one
  # directory given twice (issue #30).
  add_test(NAME e2e_tree_safety COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/tree_safety_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_tree_safety PROPERTIES TIMEOUT 120)
elseif(IOSPD_BASH AND IOSPD_PYTHON3 AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_tree_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/tree_test.sh $<TARGET_FILE:iospd>
           --wine)
  set_tests_properties(e2e_tree_wine PROPERTIES TIMEOUT 300
                       ENVIRONMENT "${iospd_test_env}")
endif()
# --tree's refusals, each naming its switch; -e and -Sr (Windows-only on
# the command line) through a built profile, natively and under wine
# (issue #26).
iospd_add_test(test_tree_refuse SOURCES test_tree_refuse.c)
