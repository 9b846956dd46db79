# SPDX-License-Identifier: MIT
# The message kinds and their prefixes (src/base/message.c). CMocka, also
# under wine.
iospd_add_test(test_message SOURCES test_message.c)
