# Tests of the small core helpers: error codes, strbuf, profile model.
iospd_add_test(test_core SOURCES test_core.c)
# The write guard's reading of device contents (both platforms).
iospd_add_test(test_device_sniff SOURCES test_device_sniff.c)
