# SPDX-License-Identifier: MIT
# The PTS steady-state test (src/stats/steady_state.c), issue #28. CMocka,
# also under wine.
iospd_add_test(test_steady_state SOURCES test_steady_state.c)
