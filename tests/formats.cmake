# SPDX-License-Identifier: MIT
# The output-format table (src/profile/formats.c): CMocka, also under wine.
iospd_add_test(test_formats SOURCES test_formats.c FAKE_PLATFORM)
