# SPDX-License-Identifier: MIT
# The Linux topology reader on the fake sysfs trees of tests/data/sysfs-*
# and DISKSPD's affinity orders on them (tests/test_topology.c).
if(NOT WIN32)
  iospd_add_test(test_topology SOURCES test_topology.c)
  target_compile_definitions(test_topology PRIVATE _GNU_SOURCE
    _FILE_OFFSET_BITS=64)
endif()
