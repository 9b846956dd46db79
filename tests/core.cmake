# Tests of the small core helpers: error codes, strbuf, profile model.
iospd_add_test(test_core SOURCES test_core.c)
