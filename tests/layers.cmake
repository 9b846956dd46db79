# SPDX-License-Identifier: MIT
# Layers point down (tests/layers/check_layers.py, docs in its header): the
# includes of every source file against tests/layers/layers.txt, and the
# checker's own self-check (it refuses a platform file including a run or a
# report header). Native builds only: the sources are the same for all.
if(NOT CMAKE_CROSSCOMPILING)
  find_program(IOSPD_PYTHON3 python3)
  if(IOSPD_PYTHON3)
    add_test(NAME layers COMMAND ${IOSPD_PYTHON3}
             ${PROJECT_SOURCE_DIR}/tests/layers/check_layers.py --root ${PROJECT_SOURCE_DIR})
    add_test(NAME layers_self_check COMMAND ${IOSPD_PYTHON3}
             ${PROJECT_SOURCE_DIR}/tests/layers/check_layers.py --self-check)
  else()
    message(STATUS "iospd: python3 not found; the layers tests not added")
  endif()
endif()
