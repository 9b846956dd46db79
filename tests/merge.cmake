# SPDX-License-Identifier: MIT
# iospd --merge: exactness against one histogram of all samples, merging a
# merged file again, profile refusals (CMocka, also under wine).
iospd_add_test(test_merge SOURCES test_merge.c)
