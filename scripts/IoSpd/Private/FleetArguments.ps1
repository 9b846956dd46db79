# SPDX-License-Identifier: MIT
# Pure helpers of Invoke-IoSpdFleet: per-node templates, the command line a
# node runs, and the numbers read from a node's JSON results. Kept apart from
# the remoting so that each can be tested without a session.

function Expand-IoSpdFleetTemplate {
  # '{node}' in a target, folder or executable template becomes the node's
  # name (case-insensitive), e.g. C:\ClusterStorage\{node}\io.dat.
  [OutputType([string])]
  param([Parameter(Mandatory)] [AllowEmptyString()] [string] $Template,
    [Parameter(Mandatory)] [string] $Node)
  # '$' doubled: the node name is literal text, not a substitution.
  return [regex]::Replace($Template, '(?i)\{node\}', $Node.Replace('$', '$$'))
}

function ConvertTo-IoSpdFleetCommandLine {
  # One command-line string for ProcessStartInfo.Arguments / Start-Process,
  # which splits it with the Windows (CommandLineToArgvW) rules on every
  # platform: quote arguments with blanks or quotes, double the backslashes
  # before a quote and before the closing quote. The remote side has no IoSpd
  # module, so the string is built here; this duplicates the small quoting
  # rule of Private/Arguments.ps1 on purpose (that file is edited elsewhere).
  [OutputType([string])]
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [AllowEmptyString()] [string[]] $Argument)
  $parts = foreach ($a in $Argument) {
    if ($a -ne '' -and $a -notmatch '[\s"]') { $a; continue }
    $sb = [Text.StringBuilder]::new('"')
    $slashes = 0
    foreach ($ch in $a.ToCharArray()) {
      if ($ch -eq '\') { $slashes++; continue }
      if ($ch -eq '"') { [void]$sb.Append('\', 2 * $slashes + 1) }
      elseif ($slashes) { [void]$sb.Append('\', $slashes) }
      $slashes = 0
      [void]$sb.Append($ch)
    }
    [void]$sb.Append('\', 2 * $slashes).Append('"')
    $sb.ToString()
  }
  return ($parts -join ' ')
}

function Test-IoSpdFleetRawArgument {
  # The fleet adds the result format, the JSON file and the -yr event itself:
  # refuse raw arguments that would fight them, naming the argument.
  param([string[]] $ArgumentList)
  foreach ($raw in @($ArgumentList | Where-Object { $_ })) {
    $why = $null
    if ($raw -cmatch '^[-/]R') { $why = 'the fleet asks each node for JSON results (--output=json:FILE) itself' }
    elseif ($raw -match '^--output') { $why = 'the fleet writes each node''s JSON to its own file' }
    elseif ($raw -cmatch '^[-/]y[rsep]') { $why = 'the fleet uses -yr/-ye for the synchronised start' }
    elseif ($raw -cmatch '^[-/]X') { $why = 'an XML profile (-X) names its own targets; use -Target templates' }
    if ($why) {
      $ex = [ArgumentException]::new("-ArgumentList contains '$raw': $why. Remove it.")
      throw [Management.Automation.ErrorRecord]::new($ex, 'IoSpdFleetBadArgument',
        [Management.Automation.ErrorCategory]::InvalidArgument, $raw)
    }
  }
}

function Get-IoSpdFleetNodeArgument {
  # The argument list one node runs: the raw arguments, -L when missing (the
  # cluster percentiles need every node's histogram), -v (prints "waiting for
  # the start event" when the node is ready), the node's -yr event, its JSON
  # file and its targets. Event names, -v and paths are not part of the
  # profile that `iospd --merge` compares, so the nodes' runs still merge.
  [OutputType([string[]])]
  param([string[]] $ArgumentList, [Parameter(Mandatory)] [string] $EventName,
    [Parameter(Mandatory)] [string] $JsonPath, [Parameter(Mandatory)] [string[]] $Target)
  $a = [Collections.Generic.List[string]]::new()
  foreach ($raw in @($ArgumentList | Where-Object { $_ })) { $a.Add($raw) }
  if (-not ($a | Where-Object { $_ -cmatch '^[-/]L$' })) { $a.Add('-L') }
  if (-not ($a | Where-Object { $_ -cmatch '^[-/]v$' })) { $a.Add('-v') }
  $a.Add("-yr$EventName")
  $a.Add("--output=json:$JsonPath")
  foreach ($t in $Target) { $a.Add($t) }
  return , $a.ToArray()
}

function Get-IoSpdFleetEventName {
  # Per run and node, so that nodes sharing a machine (or a test bed on one
  # host) each wait on their own event: letters, digits and '-' only.
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $RunId, [Parameter(Mandatory)] [string] $Node)
  $clean = ($Node -replace '[^A-Za-z0-9-]', '-')
  return "iospd-fleet-$RunId-$clean"
}

function Get-IoSpdFleetVersionText {
  # The version from `iospd -?` output: the line 'iospd 0.1.0, compatible
  # with ...'. $null when the output has no such line.
  [OutputType([string])]
  param([string[]] $HelpText)
  foreach ($line in $HelpText) {
    if ($line -match '^\s*iospd\s+v?([0-9][^\s,]*)') { return $Matches[1] }
  }
  return $null
}

function Get-IoSpdFleetDirectionSummary {
  # IOPS, MiB/s, mean and p99 (ms) of timespans[0].total.total of a parsed
  # iospd JSON document (a node's or the merged one), and its average CPU
  # usage (a node's; $null in a merged one, CPU belongs to one host).
  param([Parameter(Mandatory)] $Json)
  $ts = @($Json.timespans)[0]
  if ($null -eq $ts -or -not $ts.measured) {
    return [pscustomobject]@{ Ios = $null; Iops = $null; MiBps = $null; MeanMs = $null; P99Ms = $null; CpuPercent = $null; Error = if ($ts) { $ts.error } else { 'no timespan' } }
  }
  $d = $ts.total.total
  $mean = $null; $p99 = $null; $cpu = $null
  if ($ts.PSObject.Properties['cpu'] -and $ts.cpu -and $ts.cpu.average -and $null -ne $ts.cpu.average.usage_percent) {
    $cpu = [double]$ts.cpu.average.usage_percent
  }
  if ($null -ne $d.latency) {
    $mean = [double]$d.latency.mean_ms
    $p = @($d.latency.percentiles | Where-Object { $_.percentile -eq '99' })
    if ($p.Count) { $p99 = [double]$p[0].ms }
  }
  [pscustomobject]@{
    Ios = [long]$d.ios; Iops = [double]$d.iops; MiBps = [double]$d.mib_per_s
    MeanMs = $mean; P99Ms = $p99; CpuPercent = $cpu; Error = $ts.error
  }
}

function Get-IoSpdFleetSkew {
  # Start skew between nodes from the times each node took right after its
  # `iospd -ye` returned (the waiting run is released by then). The spread
  # of those times is the skew; each time is late by at most that node's
  # -ye process run time, reported as the uncertainty. Times are the nodes'
  # own clocks, so a clock offset between machines adds to it.
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [object[]] $Signal)
  $ok = @($Signal | Where-Object { $null -ne $_.SetUtc })
  if ($ok.Count -eq 0) { return [pscustomobject]@{ SkewMs = $null; UncertaintyMs = $null } }
  # Ticks as [long]: Measure-Object works in doubles, which round them.
  [long]$first = [long]::MaxValue; [long]$last = [long]::MinValue
  foreach ($s in $ok) {
    $t = ([datetime]$s.SetUtc).ToUniversalTime().Ticks
    if ($t -lt $first) { $first = $t }
    if ($t -gt $last) { $last = $t }
  }
  $spread = ($last - $first) / 10000.0
  $unc = ($ok | ForEach-Object { ([datetime]$_.SetUtc - [datetime]$_.BeforeUtc).TotalMilliseconds } |
      Measure-Object -Maximum).Maximum
  [pscustomobject]@{ SkewMs = [double]$spread; UncertaintyMs = [double]$unc }
}

function Get-IoSpdFleetExitText {
  # Why a node's iospd failed: its exit code, "killed by signal N" for the
  # 128+N codes of a process ended by a signal on a Unix node (the node's
  # OS, not this machine's, decides), and its error lines
  # (the "iospd: error:" lines if any, else the last line of stderr).
  [OutputType([string])]
  param([int] $ExitCode, [string] $StdErr, [switch] $NodeIsWindows)
  $text = "iospd exited with code $ExitCode"
  if ($ExitCode -gt 128 -and $ExitCode -lt 128 + 65 -and -not $NodeIsWindows) {
    $text += " (killed by signal $($ExitCode - 128))"
  }
  $lines = @(([string]$StdErr) -split '\r?\n' | Where-Object { $_.Trim() })
  $err = @($lines | Where-Object { $_ -match '^\s*(iospd: )?error' })
  $show = if ($err.Count) { $err -join ' ' } elseif ($lines.Count) { $lines[-1] } else { '' }
  if ($show) { $text += ": $($show.Trim())" }
  return $text
}

function Get-IoSpdFleetSweepLimit {
  # The stop condition a sweep point passed ($null when none): average or
  # p99 latency above its limit in ms, or the busiest node's CPU usage above
  # its limit in percent. A limit of 0 (not given) is off.
  [OutputType([string])]
  param([Parameter(Mandatory)] $Point, [double] $MaxAvgLatencyMs, [double] $MaxP99LatencyMs, [double] $MaxCpuPercent)
  if ($MaxAvgLatencyMs -gt 0 -and $null -ne $Point.MeanMs -and [double]$Point.MeanMs -gt $MaxAvgLatencyMs) {
    return "point $($Point.Point): average latency $($Point.MeanMs) ms > $MaxAvgLatencyMs ms (-MaxAvgLatencyMs)"
  }
  if ($MaxP99LatencyMs -gt 0 -and $null -ne $Point.P99Ms -and [double]$Point.P99Ms -gt $MaxP99LatencyMs) {
    return "point $($Point.Point): p99 latency $($Point.P99Ms) ms > $MaxP99LatencyMs ms (-MaxP99LatencyMs)"
  }
  if ($MaxCpuPercent -gt 0 -and $null -ne $Point.MaxCpuPercent -and [double]$Point.MaxCpuPercent -gt $MaxCpuPercent) {
    return "point $($Point.Point): CPU $($Point.MaxCpuPercent) % > $MaxCpuPercent % (-MaxCpuPercent)"
  }
  return $null
}
