# SPDX-License-Identifier: MIT
# Tests of the run core: PRNG, request generator, engine and controller.
iospd_add_test(test_rand SOURCES test_rand.c)
iospd_add_test(test_gen SOURCES test_gen.c)
iospd_add_test(test_engine SOURCES test_engine.c FAKE_PLATFORM TIMEOUT 300)
iospd_add_test(test_run_real SOURCES test_run_real.c TIMEOUT 60)
iospd_add_test(test_run_setup_hang SOURCES test_run_setup_hang.c TIMEOUT 60)
iospd_add_test(test_engine_submit SOURCES test_engine_submit.c FAKE_PLATFORM)
iospd_add_test(test_engine_23 SOURCES test_engine_23.c FAKE_PLATFORM)
