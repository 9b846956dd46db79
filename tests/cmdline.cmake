# Command line, number parsing and profile validation (issue #2).
iospd_add_test(test_units SOURCES test_units.c)
iospd_add_test(test_cmdline SOURCES test_cmdline.c)
