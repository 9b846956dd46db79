# SPDX-License-Identifier: MIT
# The application layer (src/app): the sub-command table, the output path
# list, --report's files; and the results-files grammar that --report and
# --compare share (src/merge/results_args.c). CMocka, also under wine.
iospd_add_test(test_results_args SOURCES test_results_args.c)
iospd_add_test(test_app SOURCES test_app.c)
