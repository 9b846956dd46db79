# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep: run Invoke-IoSpd over the grid of block sizes, thread
# counts, queue depths and write ratios; one result per grid point, written
# as each point completes, the grid checked before the first run.

function Invoke-IoSpdSweep {
  <#
  .SYNOPSIS
  Runs iospd over a grid of parameters and returns one result per point.

  .DESCRIPTION
  For every combination of -BlockSize, -Threads, -OutstandingIO and
  -WritePercent (block size outermost, write ratio innermost) runs
  Invoke-IoSpd with the common parameters and returns its results with the
  point's settings added as SweepPoint, SweepBlockSize, SweepThreads,
  SweepOutstandingIO, SweepWritePercent and SweepError ($null). The result's
  own properties are left as they are (Threads stays the per-thread rows). A
  dimension left out is not passed to iospd (its default applies) and its
  Sweep column is $null. Progress is shown with Write-Progress.

  Every value of the grid and the common parameters are checked before the
  first run; bad values are all named in one IoSpdSweepInvalidGrid error and
  nothing runs. The executable is looked up once, before the first run.

  Each point's results are written to the pipeline as soon as the point is
  done. When a point fails, the sweep writes a non-terminating
  IoSpdSweepPointFailed error naming the point and stops; the results
  before it have been passed on (and stay in $r = Invoke-IoSpdSweep ...).
  With -ErrorAction Stop that error is terminating. With -ContinueOnError
  every failed point writes that error and the sweep goes on. Failures never
  go to the output (a table of results stays a table of results): each
  error's TargetObject is the point, an IoSpd.SweepPoint with the Sweep*
  settings and SweepError (the run's ErrorRecord); collect them with
  -ErrorVariable.

  Stopping the sweep (Ctrl+C, a downstream Select-Object -First n) kills the
  running iospd and runs no further point. -WhatIf shows each point's
  command line and runs nothing.

  .PARAMETER Target
  Files (or #<disk number> / drive targets) to test, as for Invoke-IoSpd.

  .PARAMETER BlockSize
  Block sizes: numbers of bytes (4096, or PowerShell's 4KB, 64KB) or iospd's
  size text ('4K', '64K').

  .PARAMETER Threads
  Thread counts per target (-t).

  .PARAMETER OutstandingIO
  Outstanding I/Os per thread (-o).

  .PARAMETER WritePercent
  Write percentages (-w).

  .PARAMETER TimeoutSec
  Passed to Invoke-IoSpd for every point: a point still running after this
  many seconds is killed and counts as failed.

  .PARAMETER ContinueOnError
  Write a failed point's IoSpdSweepPointFailed error and go on with the
  next point, instead of stopping the sweep.

  .PARAMETER ExecutablePath
  The iospd executable; default: iospd from PATH. -Path is an alias (the
  old name).

  .PARAMETER AlignCsvOwner
  Passed to Invoke-IoSpd: move each target's Cluster Shared Volume to this
  node before every point.

  .PARAMETER Random
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter Random).

  .PARAMETER Duration
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter Duration).

  .PARAMETER Warmup
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter Warmup).

  .PARAMETER Cooldown
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter Cooldown).

  .PARAMETER CacheMode
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter CacheMode).

  .PARAMETER Latency
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter Latency).

  .PARAMETER IopsInterval
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter IopsInterval).

  .PARAMETER CreateSize
  Passed to Invoke-IoSpd for every point (see Get-Help Invoke-IoSpd
  -Parameter CreateSize).

  .PARAMETER DiskSpdVersion
  --diskspd=2.2 or 2.3 for every run of the sweep (see Invoke-IoSpd).

  .PARAMETER ArgumentList
  More iospd switches, passed to Invoke-IoSpd for every point as given.

  Curve mode (-LatencyLimit, -Curve or -Expect; docs/curve.md): one
  `iospd --curve` run with --output=json:<temp file> instead of a grid.
  iospd walks the axis itself (-o by default), finds the knee, bisects to
  the deepest point within the latency bound and says what limits the
  run. -BlockSize, -Threads, -OutstandingIO and -WritePercent then take one
  value each (the axis is -Curve). Returns one IoSpd.CurveResult: Points
  (one row per point run: Point, Phase, AxisValue, BlockSize, Threads,
  OutstandingIO, IOPS, MiBps, MeanUs, P99Us, LimitStatUs, WithinLimit,
  CpuPercent, ...), Knee, Answer (the deepest point within the bound),
  Cap (what limits the run: Kind iops/bandwidth/tool/none, Value, Unit,
  Evidence), LittlesLaw, Verdict (the verdict's sentences, string[]),
  Stopped, Interrupted, Warnings and the parsed document in Document. A run
  iospd refuses or that fails is an IoSpdCurveFailed error.

  .PARAMETER LatencyLimit
  --latency-limit=: the bound, '[r:|w:]<stat><=<time>' with <stat> mean or
  a percentile (p99, p99.9) and a unit on the time: 'p99<=1ms',
  'r:mean<=500us'. The answer is the deepest point within it.

  .PARAMETER Curve
  --curve=: the axis, 'o', 't' or 'b' with its default values, a range
  'o:1..256' (doubling) or a list 'b:4K,8K,64K'. Not given: the -o axis.

  .PARAMETER Expect
  --expect=: the figure the device or cloud disk promises, 'iops:<n>' or
  'mibs:<n>'; the verdict says how far the run got.

  .EXAMPLE
  $c = Invoke-IoSpdSweep -Target /dev/sdb -BlockSize 4K -Random -CacheMode Both -LatencyLimit 'p99<=1ms' -Expect 'iops:5000'

  The queue-depth curve with a latency bound: $c.Answer.AxisValue is the
  deepest queue within 1 ms at p99, $c.Verdict says what caps the run,
  $c.Points | Format-Table Point, AxisValue, IOPS, P99Us, WithinLimit.

  .EXAMPLE
  Invoke-IoSpdSweep -Target D:\t.dat -CreateSize 4G -BlockSize 4KB, 64KB -Threads 1, 4 -OutstandingIO 1, 8, 32 -Random -Duration 20 -CacheMode Both -Latency | Format-Table SweepBlockSize, SweepThreads, SweepOutstandingIO, IOPS, MiBps, TotalP99Ms

  Runs 12 tests and shows a table of IOPS and tail latency.

  .EXAMPLE
  Invoke-IoSpdSweep -Target D:\t.dat -BlockSize 8K -OutstandingIO 1, 2, 4, 8, 16 -WritePercent 0, 100 -Duration 10 -TimeoutSec 60 -ContinueOnError | Export-Csv sweep.csv -NoTypeInformation

  Queue-depth scan for reads and writes saved as CSV as it runs; a point
  that fails or hangs is an error (in $failed with -ErrorVariable failed)
  and the scan goes on; the CSV holds the measured points only.

  .OUTPUTS
  IoSpd.Result with the Sweep* columns added; in curve mode one
  IoSpd.CurveResult. Failed points are errors
  (IoSpdSweepPointFailed) whose TargetObject is an IoSpd.SweepPoint.
  #>
  [CmdletBinding(SupportsShouldProcess)]
  param(
    [Parameter(Mandatory, Position = 0)] [string[]] $Target,
    [PSDefaultValue(Help = "iospd's: 64K (-b)")] [object[]] $BlockSize,
    [PSDefaultValue(Help = "iospd's: 1 thread per target (-t)")] [int[]] $Threads,
    [PSDefaultValue(Help = "iospd's: 2 per thread and target (-o)")] [int[]] $OutstandingIO,
    [PSDefaultValue(Help = "iospd's: 0, reads only (-w)")] [int[]] $WritePercent,
    [switch] $Random,
    [PSDefaultValue(Help = "iospd's: 10 s (-d)")] [ValidateRange(0, 2147483647)] [int] $Duration,
    [PSDefaultValue(Help = "iospd's: 5 s (-W)")] [ValidateRange(0, 2147483647)] [int] $Warmup,
    [PSDefaultValue(Help = "iospd's: 0 s (-C)")] [ValidateRange(0, 2147483647)] [int] $Cooldown,
    [PSDefaultValue(Help = "iospd's: cached, no -S")] [ValidateSet('Cached', 'NoBuffering', 'WriteThrough', 'Both')] [string] $CacheMode,
    [switch] $Latency,
    [PSDefaultValue(Help = "none: no per-interval IOPS")] [ValidateRange(1, 2147483647)] [int] $IopsInterval,
    [PSDefaultValue(Help = "none: the targets must exist")] [object] $CreateSize,
    [string[]] $ArgumentList,
    [Alias('Path')] [string] $ExecutablePath,
    [switch] $AlignCsvOwner,
    [PSDefaultValue(Help = "none: no limit")] [ValidateRange(1, 2147483)] [int] $TimeoutSec,
    [switch] $ContinueOnError,
    [PSDefaultValue(Help = "iospd's default level (2.3)")] [ValidateSet('2.2', '2.3')] [string] $DiskSpdVersion,
    [string] $LatencyLimit,
    [PSDefaultValue(Help = "iospd's: the -o axis 1, 2, 4 ... 1024")] [string] $Curve,
    [string] $Expect
  )
  $common = @{ Target = $Target }
  foreach ($name in 'Random', 'Duration', 'Warmup', 'Cooldown', 'CacheMode', 'Latency',
    'IopsInterval', 'CreateSize', 'ArgumentList', 'AlignCsvOwner', 'TimeoutSec', 'DiskSpdVersion') {
    if ($PSBoundParameters.ContainsKey($name)) { $common[$name] = $PSBoundParameters[$name] }
  }
  # -LatencyLimit, -Curve or -Expect: one iospd --curve run (its own axis,
  # knee, bisection and verdict) instead of a grid of runs.
  if ($LatencyLimit -or $Curve -or $Expect) {
    Invoke-IoSpdCurveRun -Cmdlet $PSCmdlet -Bound $PSBoundParameters
    return
  }
  # @($null) stands for "not given": one pass, parameter not passed.
  $dims = [ordered]@{}
  foreach ($name in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent') {
    $v = $PSBoundParameters[$name]
    if ($null -eq $v -or @($v).Count -eq 0) { $dims[$name] = @($null) } else { $dims[$name] = @($v) }
  }

  # The whole grid and the common parameters are checked before the first
  # run, so a typo in the last value cannot waste the runs before it.
  $problems = @(Get-IoSpdGridProblem -Dimension $dims)
  try {
    $probe = $common.Clone()
    $probe.Remove('AlignCsvOwner'); $probe.Remove('TimeoutSec')
    $null = ConvertTo-IoSpdArgumentList @probe
  } catch {
    $problems += $_.Exception.Message
  }
  if ($problems.Count -gt 0) {
    $msg = 'The sweep was not started; fix these values: ' + ($problems -join ' ')
    $PSCmdlet.ThrowTerminatingError((New-IoSpdInvokeError -Message $msg -ErrorId 'IoSpdSweepInvalidGrid' `
          -Category InvalidArgument -TargetObject $dims))
  }
  try {
    $common['ExecutablePath'] = Resolve-IoSpdExecutable -Path $ExecutablePath
  } catch {
    $PSCmdlet.ThrowTerminatingError($_)
  }

  $total = 1
  foreach ($k in $dims.Keys) { $total *= $dims[$k].Count }
  $point = 0
  try {
    foreach ($bs in $dims['BlockSize']) {
      foreach ($t in $dims['Threads']) {
        foreach ($o in $dims['OutstandingIO']) {
          foreach ($w in $dims['WritePercent']) {
            $point++
            $run = $common.Clone()
            $label = New-Object System.Collections.Generic.List[string]
            if ($null -ne $bs) { $run['BlockSize'] = $bs; $label.Add("-b$bs") }
            if ($null -ne $t) { $run['Threads'] = $t; $label.Add("-t$t") }
            if ($null -ne $o) { $run['OutstandingIO'] = $o; $label.Add("-o$o") }
            if ($null -ne $w) { $run['WritePercent'] = $w; $label.Add("-w$w") }
            $pct = [int][Math]::Floor(100 * ($point - 1) / $total)
            Write-Progress -Activity 'iospd sweep' -Status ("Point $point of $total " + ($label -join ' ')) -PercentComplete $pct
            # The sweep's own columns carry a Sweep prefix: a result already
            # has Threads (its per-thread rows) and may have others.
            $settings = [ordered]@{
              SweepPoint = $point; SweepBlockSize = $bs; SweepThreads = $t
              SweepOutstandingIO = $o; SweepWritePercent = $w
            }
            $failure = $null
            try {
              # Each point's results go down the pipeline as soon as the
              # point is done (not collected), so a failure or a stop later
              # loses nothing measured before.
              Invoke-IoSpd @run -ErrorAction Stop | ForEach-Object {
                foreach ($k in $settings.Keys) { $_ | Add-Member -NotePropertyName $k -NotePropertyValue $settings[$k] }
                $_ | Add-Member -NotePropertyName SweepError -NotePropertyValue $null
                $_
              }
            } catch [Management.Automation.PipelineStoppedException] {
              # Defensive: a stop (Ctrl+C, Select-Object -First) is not a
              # failed point. PowerShell 7 does not hand it to catch blocks.
              throw
            } catch {
              $failure = $_
            }
            if ($null -eq $failure) { continue }
            $text = "Sweep point $point of $total ($($label -join ' ')) failed: $($failure.Exception.Message)"
            # The error stream, never the output: a failure object among the
            # results would hide their IOPS columns in a table. The point
            # (IoSpd.SweepPoint: the Sweep* settings and the ErrorRecord of
            # the run) is the error's TargetObject.
            $pt = [ordered]@{ PSTypeName = 'IoSpd.SweepPoint' }
            foreach ($k in $settings.Keys) { $pt[$k] = $settings[$k] }
            $pt['SweepError'] = $failure
            $pointObject = [pscustomobject]$pt
            if (-not $ContinueOnError) {
              # Non-terminating: the results so far stay in the caller's
              # variable; -ErrorAction Stop makes it terminating.
              $PSCmdlet.WriteError((New-IoSpdInvokeError -Message ($text + ' The rest of the sweep was skipped; -ContinueOnError goes on past failed points.') `
                    -ErrorId 'IoSpdSweepPointFailed' -Category InvalidResult -TargetObject $pointObject))
              return
            }
            $PSCmdlet.WriteError((New-IoSpdInvokeError -Message ($text + ' Going on (-ContinueOnError).') `
                  -ErrorId 'IoSpdSweepPointFailed' -Category InvalidResult -TargetObject $pointObject))
          }
        }
      }
    }
  } finally {
    # Also when the pipeline stops, where writing may throw again.
    try { Write-Progress -Activity 'iospd sweep' -Completed } catch { }
  }
}
