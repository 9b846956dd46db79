# Command line, number parsing and profile validation (issue #2).
iospd_add_test(test_units SOURCES test_units.c)
iospd_add_test(test_cmdline SOURCES test_cmdline.c)
iospd_add_test(test_validate SOURCES test_validate.c)
iospd_add_test(test_cmdline_fuzz SOURCES test_cmdline_fuzz.c TIMEOUT 300)
