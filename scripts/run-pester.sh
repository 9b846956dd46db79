#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every Pester test under tests/pester with PowerShell 7 (installing
# pwsh and Pester first when missing). Exits non-zero when anything failed
# and ends with "Pester: N passed, N failed" and a plain "N passed, N failed".
#
#   scripts/run-pester.sh [test file or folder ...]
# Environment: IOSPD_EXE (Linux iospd for Invoke-IoSpd tests; default
# build/linux/iospd, the README's build, which is built here when missing),
# IOSPD_PESTER_RESULT (NUnit XML output path).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:$HOME/.dotnet/tools"
pester_psd1=$(IOSPD_PRINT_PESTER=1 "$root/scripts/install-pwsh.sh" | tail -n 1)
[ -f "$pester_psd1" ] || { echo "run-pester.sh: Pester module not found ($pester_psd1)" >&2; exit 1; }

# Invoke-IoSpd runs a real iospd: the README's "Build by hand" one unless
# IOSPD_EXE names another. Build it when it is not there yet.
if [ -z "${IOSPD_EXE:-}" ]; then
  export IOSPD_EXE="$root/build/linux/iospd"
  if [ ! -x "$IOSPD_EXE" ]; then
    echo "run-pester.sh: building $IOSPD_EXE (cmake -S . -B build/linux)"
    { cmake -S "$root" -B "$root/build/linux" >/dev/null &&
      cmake --build "$root/build/linux" --target iospd -j"$(nproc 2>/dev/null || echo 2)" >/dev/null; } ||
      { echo "run-pester.sh: building iospd failed; build it by hand (README, \"Build by hand\") or set IOSPD_EXE" >&2; exit 1; }
  fi
fi

paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=("$root/tests/pester")
result=${IOSPD_PESTER_RESULT:-$root/build/pester/results.xml}
mkdir -p "$(dirname "$result")"

export IOSPD_PESTER_PSD1="$pester_psd1" IOSPD_PESTER_OUT="$result"
export IOSPD_PESTER_PATHS
IOSPD_PESTER_PATHS=$(printf '%s\n' "${paths[@]}")
set +e
pwsh -NoLogo -NoProfile -NonInteractive -Command '
  $ErrorActionPreference = "Stop"
  if ($PSStyle -and [Console]::IsOutputRedirected) { $PSStyle.OutputRendering = "PlainText" }
  Import-Module $env:IOSPD_PESTER_PSD1 -Force
  $cfg = New-PesterConfiguration
  $cfg.Run.Path = @($env:IOSPD_PESTER_PATHS -split "`n" | Where-Object { $_ })
  $cfg.Run.PassThru = $true
  $cfg.Output.Verbosity = "Detailed"
  $cfg.TestResult.Enabled = $true
  $cfg.TestResult.OutputPath = $env:IOSPD_PESTER_OUT
  $r = Invoke-Pester -Configuration $cfg
  # Failures in BeforeAll/AfterAll blocks or whole files count as failures.
  $failed = $r.FailedCount + $r.FailedBlocksCount + $r.FailedContainersCount
  $passed = $r.PassedCount
  Write-Host ""
  Write-Host ("Pester: {0} passed, {1} failed, {2} skipped" -f $passed, $failed, $r.SkippedCount)
  Write-Host ("{0} passed, {1} failed" -f $passed, $failed)
  if ($failed -gt 0 -or $passed -eq 0) { exit 1 }
  exit 0
'
rc=$?
set -e
exit $rc
