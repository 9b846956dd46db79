# SPDX-License-Identifier: MIT
# Reads what `iospd --verify-only` prints (docs/verify.md): one summary line
# per target on stdout, and "verify FAILED: ..." lines on stderr.

function ConvertFrom-IoSpdVerifyText {
  # One IoSpd.VerifyOnlyResult per target line of StdOut; each carries the
  # failure lines of StdErr that name its path.
  [CmdletBinding()]
  param([AllowEmptyString()] [string] $StdOut, [AllowEmptyString()] [string] $StdErr, [int] $ExitCode)
  $fails = @(([string]$StdErr) -split "`r?`n" | Where-Object { $_ -like 'verify FAILED: *' })
  $pattern = "^target '(?<path>.*)': bytes (?<start>\d+) to (?<end>\d+), blocks read (?<read>\d+), " +
    'checked (?<checked>\d+), failures (?<failures>\d+) \(bad checksum (?<bad>\d+), stale generation (?<stale>\d+), ' +
    'misdirected (?<mis>\d+), zeroed (?<zero>\d+), torn (?<torn>\d+)\), indeterminate (?<ind>\d+), ' +
    'not written by a verified run (?<untr>\d+)(?<incomplete>, incomplete: .*)?$'
  $rows = @(foreach ($line in (([string]$StdOut) -split "`r?`n")) {
    if ($line -notmatch $pattern) { continue }
    $path = $Matches['path']
    [pscustomobject]@{
      PSTypeName      = 'IoSpd.VerifyOnlyResult'
      Path            = $path
      StartOffset     = [int64]$Matches['start']
      EndOffset       = [int64]$Matches['end']
      BlocksRead      = [int64]$Matches['read']
      BlocksChecked   = [int64]$Matches['checked']
      Failures        = [int64]$Matches['failures']
      BadChecksum     = [int64]$Matches['bad']
      StaleGeneration = [int64]$Matches['stale']
      Misdirected     = [int64]$Matches['mis']
      Zeroed          = [int64]$Matches['zero']
      Torn            = [int64]$Matches['torn']
      Indeterminate   = [int64]$Matches['ind']
      Untracked       = [int64]$Matches['untr']
      # A target the pass could not check to the end is no pass, whatever
      # its counts say (they are zeros when it could not start).
      Complete        = -not $Matches['incomplete']
      Passed          = ([int64]$Matches['failures'] -eq 0) -and -not $Matches['incomplete']
      FailureLines    = @($fails | Where-Object { $_.StartsWith("verify FAILED: target '$path' ", [StringComparison]::Ordinal) })
    }
  })
  # A non-zero exit that no line explains (no failure, nothing incomplete:
  # e.g. an iospd that does not mark incomplete targets) means the check
  # went wrong somewhere: then no target passed.
  $explained = @($rows | Where-Object { $_.Failures -gt 0 -or -not $_.Complete }).Count -gt 0
  if ($ExitCode -ne 0 -and -not $explained) {
    foreach ($r in $rows) { $r.Passed = $false }
  }
  $rows
}
