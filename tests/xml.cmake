# SPDX-License-Identifier: MIT
# XML reader, XML profile reader/writer, their fuzz test, and (native builds
# only) xmllint checks of xml/profile.xsd against the examples, DISKSPD's
# sample profiles, refused documents and profiles our writer produces.
file(GLOB iospd_xml_examples CONFIGURE_DEPENDS
  RELATIVE ${PROJECT_SOURCE_DIR}/xml/examples ${PROJECT_SOURCE_DIR}/xml/examples/*.xml)
file(GLOB iospd_xml_invalid CONFIGURE_DEPENDS
  RELATIVE ${IOSPD_TEST_DATA_DIR} ${IOSPD_TEST_DATA_DIR}/xml-invalid-*.xml)
string(REPLACE ";" "|" iospd_xml_examples_str "${iospd_xml_examples}")
string(REPLACE ";" "|" iospd_xml_invalid_str "${iospd_xml_invalid}")

iospd_add_test(test_xml_reader SOURCES test_xml_reader.c)
iospd_add_test(test_xml_profile SOURCES test_xml_profile.c xml_profile_gen.c)
target_compile_definitions(test_xml_profile PRIVATE
  IOSPD_XML_EXAMPLES="${iospd_xml_examples_str}"
  IOSPD_XML_INVALID="${iospd_xml_invalid_str}")
# Validation (src/profile/profile_validate.c) is written by another module; the
# examples are validated too once it exists.
if(EXISTS ${PROJECT_SOURCE_DIR}/src/profile/profile_validate.c)
  target_compile_definitions(test_xml_profile PRIVATE IOSPD_HAVE_VALIDATE=1)
endif()
# Likewise the command-line parser, for the end-to-end golden test.
if(EXISTS ${PROJECT_SOURCE_DIR}/src/cli/cmdline.c)
  target_compile_definitions(test_xml_profile PRIVATE IOSPD_HAVE_CMDLINE=1)
endif()
iospd_add_test(test_xml_fuzz SOURCES test_xml_fuzz.c xml_profile_gen.c TIMEOUT 300)

if(NOT CMAKE_CROSSCOMPILING)
  find_program(XMLLINT xmllint)
  add_executable(xml_write_samples xml_write_samples.c xml_profile_gen.c)
  target_compile_options(xml_write_samples PRIVATE ${iospd_cflags})
  target_include_directories(xml_write_samples PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(xml_write_samples PRIVATE iospd_core)
  add_test(NAME xmllint_examples COMMAND ${CMAKE_COMMAND} -DXMLLINT=${XMLLINT}
    -DSCHEMA=${PROJECT_SOURCE_DIR}/xml/profile.xsd -DEXPECT=valid
    "-DGLOBS=${PROJECT_SOURCE_DIR}/xml/examples/*.xml|${IOSPD_TEST_DATA_DIR}/xml-profile-*.xml"
    -P ${PROJECT_SOURCE_DIR}/tests/xml_lint.cmake.in)
  add_test(NAME xmllint_refused COMMAND ${CMAKE_COMMAND} -DXMLLINT=${XMLLINT}
    -DSCHEMA=${PROJECT_SOURCE_DIR}/xml/profile.xsd -DEXPECT=invalid
    "-DGLOBS=${IOSPD_TEST_DATA_DIR}/xml-invalid-*.xml"
    -P ${PROJECT_SOURCE_DIR}/tests/xml_lint.cmake.in)
  add_test(NAME xmllint_written COMMAND ${CMAKE_COMMAND} -DXMLLINT=${XMLLINT}
    -DSCHEMA=${PROJECT_SOURCE_DIR}/xml/profile.xsd -DEXPECT=valid
    -DGEN=$<TARGET_FILE:xml_write_samples>
    -DOUT=${CMAKE_CURRENT_BINARY_DIR}/xml-written
    "-DGLOBS=${CMAKE_CURRENT_BINARY_DIR}/xml-written/*.xml"
    -P ${PROJECT_SOURCE_DIR}/tests/xml_lint.cmake.in)
  set_tests_properties(xmllint_examples xmllint_refused xmllint_written
    PROPERTIES TIMEOUT 300)
endif()
# DISKSPD 2.3 profiles: 2.3's elements read at either level, each level's
# form written, the 2.3 text lines (issue #25).
iospd_add_test(test_profile23 SOURCES test_profile23.c)
# xml/profile.xsd accepts DISKSPD 2.3's real profiles (which -Rpxml at
# --diskspd=2.3 reproduces byte for byte: e2e_profiles23).
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME xmllint_diskspd23 COMMAND ${CMAKE_COMMAND} -DXMLLINT=${XMLLINT}
    -DSCHEMA=${PROJECT_SOURCE_DIR}/xml/profile.xsd -DEXPECT=valid
    "-DGLOBS=${IOSPD_TEST_DATA_DIR}/diskspd23-profiles/P*.xml"
    -P ${PROJECT_SOURCE_DIR}/tests/xml_lint.cmake.in)
  set_tests_properties(xmllint_diskspd23 PROPERTIES TIMEOUT 120)
endif()
