# SPDX-License-Identifier: MIT
# Helpers shared by the e2e shell tests.
# Source it before any cd (it finds itself by the test's own path).
#   ok / bad <message>: count a passed / failed check; bad prints FAIL: ...
#   and then runs bad_detail, when the test defines one.
#   finish <test name>: prints the counts; its status is 0 when none failed,
#   so a test ends with `finish name`.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL: $*"
  if declare -F bad_detail >/dev/null; then bad_detail; fi
}
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
