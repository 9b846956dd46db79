# SPDX-License-Identifier: MIT
# The live status line (--progress, issue #13): the formatter and the
# tracker (pure core code; natively and under wine).
iospd_add_test(test_status SOURCES test_status.c)
