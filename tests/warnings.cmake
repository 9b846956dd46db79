# Warnings about misleading set-ups (iospd/warnings.h, docs/warnings.md):
# the rules and the after-the-run checks on hand-made results (also under
# wine); the set-ups made for real (tests/e2e/trust_warnings_test.sh).
iospd_add_test(test_warnings SOURCES test_warnings.c FAKE_PLATFORM)
