# --curve (docs/curve.md): the decisions on synthetic curves
# (iospd/curve.h), also under wine.
iospd_add_test(test_curve SOURCES test_curve.c FAKE_PLATFORM)
iospd_add_test(test_curve_opts SOURCES test_curve_opts.c FAKE_PLATFORM)
