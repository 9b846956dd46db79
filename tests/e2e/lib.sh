# SPDX-License-Identifier: MIT
# Helpers shared by the e2e shell tests.
# Source it before any cd (it finds itself by the test's own path).
#   ok / bad <message>: count a passed / failed check; bad prints FAIL: ...
#   and then runs bad_detail, when the test defines one.
#   finish <test name>: prints the counts; its status is 0 when none failed,
#   so a test ends with `finish name`.
#   run_exe <args>: runs the binary under test, $exe, under wine when the
#   test set wine=1 (its --wine argument), natively otherwise.
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
run_exe() {
  if [ "${wine:-0}" = 1 ]; then wine "$exe" "$@"; else "$exe" "$@"; fi
}
