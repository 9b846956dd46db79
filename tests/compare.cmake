# SPDX-License-Identifier: MIT
# The shared loader of saved results (--merge, --compare, --report) and
# iospd --compare: CMocka (also under wine) and end to end.
iospd_add_test(test_results_doc SOURCES test_results_doc.c)
iospd_add_test(test_compare SOURCES test_compare.c)
