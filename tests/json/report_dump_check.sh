#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kitchen-sink report fixture (tests/test_report.c) as JSON and as XML:
# the JSON must validate against the schema and hold every number the XML
# prints. Usage: report_dump_check.sh <source dir> <test_report> [emulator...]
# (the emulator, e.g. wine, runs a Windows test_report.exe; the JSON it
# writes is validated natively).
set -uo pipefail
src=$1
exe=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-jdump.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$@" "$exe" --dump-json all.json || { echo "FAIL: --dump-json"; exit 1; }
"$@" "$exe" --dump-xml all.xml || { echo "FAIL: --dump-xml"; exit 1; }
py=${IOSPD_PYTHON:-python3}
"$py" "$src/tests/json/validate_results.py" "$src/schema/iospd-results.schema.json" all.json
rc=$?
[ $rc = 77 ] && exit 77
"$py" "$src/tests/json/compare_xml.py" all.json all.xml || rc=1
exit $rc
