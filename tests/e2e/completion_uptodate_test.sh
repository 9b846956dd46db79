#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The committed completion files equal what the generator writes from the
# options table and the templates today. On failure: rebuild the target
# iospd_completion_update and commit the result.
# Usage: completion_uptodate_test.sh <iospd_completion_gen> <scripts/completion>
set -u
gen=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
for f in iospd.bash _iospd; do
  if ! "$gen" "$dir/$f.in" "$tmp/$f"; then
    echo "FAIL: the generator failed on $dir/$f.in"
    rc=1
  elif ! diff -u "$dir/$f" "$tmp/$f"; then
    echo "FAIL: $dir/$f is not what the options table gives now;" \
         "run: cmake --build <build> --target iospd_completion_update"
    rc=1
  else
    echo "ok: $f matches the options table"
  fi
done
exit $rc
