# Command line, number parsing and profile validation (issue #2).
iospd_add_test(test_units SOURCES test_units.c)
iospd_add_test(test_cmdline SOURCES test_cmdline.c)
iospd_add_test(test_options SOURCES test_options.c)
iospd_add_test(test_validate SOURCES test_validate.c)
iospd_add_test(test_cmdline_fuzz SOURCES test_cmdline_fuzz.c TIMEOUT 300)

# test_validate also checks that every shipped example profile validates.
file(GLOB iospd_validate_examples RELATIVE ${PROJECT_SOURCE_DIR}/xml/examples
     CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/xml/examples/*.xml)
string(REPLACE ";" "|" iospd_validate_examples_str "${iospd_validate_examples}")
target_compile_definitions(test_validate PRIVATE
  IOSPD_VALIDATE_EXAMPLES="${iospd_validate_examples_str}")
# DISKSPD 2.3's switches, errors and rules at --diskspd=2.3 (issue #25).
iospd_add_test(test_cmdline23 SOURCES test_cmdline23.c)
