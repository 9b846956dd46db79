# SPDX-License-Identifier: MIT
# Invoke-IoSpdFleetSweep: a grid of block size, threads, queue depth and
# write ratio, each point an Invoke-IoSpdFleet run on every node, with VM
# Fleet-like stop conditions, each point saved as it completes, -Resume.

function Invoke-IoSpdFleetSweep {
  <#
  .SYNOPSIS
  Runs a grid of iospd profiles fleet-wide, one Invoke-IoSpdFleet run per point.

  .DESCRIPTION
  The grid is every combination of -WritePercent, -BlockSize, -Threads and
  -OutstandingIO (in that nesting, -OutstandingIO innermost), each added as
  -w/-b/-t/-o to -ArgumentList. The whole grid is checked before the first
  run.

  Each point's result is written as soon as it completes, under
  <OutputDirectory>/<Label>/<point>/ (the nodes' JSON, the merged
  fleet.json and point.json, this command's row), and emitted at once.
  With -Resume a point whose point.json exists is not run again: its saved
  row is emitted with Resumed = $true.

  Stop conditions, as in VM Fleet: a point whose merged average latency is
  above -MaxAvgLatencyMs, whose merged p99 is above -MaxP99LatencyMs, or
  whose busiest node's CPU usage is above -MaxCpuPercent ends its series of
  increasing queue depths: the deeper -OutstandingIO points of the same
  write ratio, block size and threads are skipped (emitted with Skipped
  naming the limit). A point that fails (no node returned results) stops
  the sweep unless -ContinueOnError, which records it and goes on.

  .PARAMETER Session
  One open session per node (see Invoke-IoSpdFleet); -NodeName names them.

  .PARAMETER Label
  The name of this sweep: its folder under -OutputDirectory and a column of
  every row.

  .PARAMETER OutputDirectory
  Where the sweep's folder is written (default: the current location).

  .PARAMETER ArgumentList
  Raw iospd switches for every point (duration, warm-up, -c, -r, -Sh ...);
  not -b, -t, -o or -w, which the grid sets.

  .PARAMETER Resume
  Skip the points already measured under this label.

  .PARAMETER ContinueOnError
  Record a failed point and go on with the next.

  .PARAMETER AlignCsvOwner
  Before each point, move each node's CSV to it (see Invoke-IoSpdFleet).

  .PARAMETER NodeName
  As Invoke-IoSpdFleet's -NodeName: the name of each session's node, for
  the {node} templates and the tables.

  .PARAMETER Target
  As Invoke-IoSpdFleet's -Target: the target templates ({node} becomes
  the node's name).

  .PARAMETER BlockSize
  The block sizes of the grid (-b), e.g. 4K, 64K.

  .PARAMETER Threads
  The thread counts of the grid (-t).

  .PARAMETER OutstandingIO
  The queue depths of the grid (-o), innermost: a stop condition skips
  the deeper ones of the same series.

  .PARAMETER WritePercent
  The write percentages of the grid (-w), outermost.

  .PARAMETER MaxAvgLatencyMs
  Stop condition: a point whose merged average latency is above this
  ends its series of increasing queue depths.

  .PARAMETER MaxP99LatencyMs
  Stop condition: a point whose merged p99 latency is above this ends its
  series of increasing queue depths.

  .PARAMETER MaxCpuPercent
  Stop condition: a point whose busiest node's CPU usage is above this
  ends its series of increasing queue depths.

  .PARAMETER IoSpdPath
  As Invoke-IoSpdFleet's -IoSpdPath: iospd on the nodes.

  .PARAMETER WorkingDirectory
  As Invoke-IoSpdFleet's -WorkingDirectory: the folder template on each
  node for its results.

  .PARAMETER ExecutablePath
  As Invoke-IoSpdFleet's -ExecutablePath: the iospd that merges the results
  here. -Path is an alias (the old name).

  .PARAMETER TimeoutSec
  As Invoke-IoSpdFleet's -TimeoutSec, for each point.

  .PARAMETER Force
  As Invoke-IoSpdFleet's -Force: run even when the nodes' iospd versions
  differ.

  .EXAMPLE
  Invoke-IoSpdFleetSweep -Session $s -Label s2d-4k -Target 'C:\ClusterStorage\{node}\io.dat' -ArgumentList '-c10G','-r','-d60','-W10','-Sh' -BlockSize 4K -Threads 4,8 -OutstandingIO 1,2,4,8,16,32 -WritePercent 0,30 -MaxP99LatencyMs 5 -MaxCpuPercent 90

  Raises the queue depth until the cluster's p99 passes 5 ms or a node's
  CPU passes 90 %, for each write ratio and thread count.

  .EXAMPLE
  Invoke-IoSpdFleetSweep -Session $s -Label s2d-4k -Target 'C:\ClusterStorage\{node}\io.dat' -ArgumentList '-c10G','-r','-d60','-W10','-Sh' -BlockSize 4K -Threads 4,8 -OutstandingIO 1,2,4,8,16,32 -WritePercent 0,30 -Resume

  Runs the same sweep again after an interruption: measured points are read back, not run.

  .OUTPUTS
  IoSpd.FleetSweepPoint: Label, Point, BlockSize, Threads, OutstandingIO,
  WritePercent, Iops, MiBps, MeanMs, P99Ms, MaxCpuPercent, StartSkewMs,
  Partial, FailedNodes, Skipped, Error, Resumed, Path.
  #>
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [object[]] $Session,
    [string[]] $NodeName,
    [Parameter(Mandatory)] [string[]] $Target,
    [Parameter(Mandatory)] [ValidatePattern('^[A-Za-z0-9._-]+$')] [string] $Label,
    [string] $OutputDirectory,
    [string[]] $ArgumentList,
    [object[]] $BlockSize = @('4K'),
    [int[]] $Threads = @(1),
    [int[]] $OutstandingIO = @(1),
    [int[]] $WritePercent = @(0),
    [double] $MaxAvgLatencyMs,
    [double] $MaxP99LatencyMs,
    [double] $MaxCpuPercent,
    [string] $IoSpdPath = 'iospd',
    [string] $WorkingDirectory,
    [Alias('Path')] [string] $ExecutablePath,
    [int] $TimeoutSec = 0,
    [switch] $Resume,
    [switch] $ContinueOnError,
    [switch] $Force,
    [switch] $AlignCsvOwner
  )

  # The whole grid is checked before anything runs.
  $bad = $null
  foreach ($raw in @($ArgumentList | Where-Object { $_ })) {
    if ($raw -cmatch '^[-/][btow]\d') { $bad = "-ArgumentList contains '$raw': the grid sets -b, -t, -o and -w (use -BlockSize, -Threads, -OutstandingIO, -WritePercent)." }
  }
  foreach ($b in $BlockSize) { if ([string]$b -notmatch '^[1-9][0-9]*[KMGkmg]?$') { $bad = "-BlockSize '$b' is not a size: use bytes (4096) or K/M/G (4K, 64K)." } }
  foreach ($t in $Threads) { if ($t -lt 1) { $bad = "-Threads ${t}: use 1 or more." } }
  foreach ($o in $OutstandingIO) { if ($o -lt 1) { $bad = "-OutstandingIO ${o}: use 1 or more." } }
  foreach ($w in $WritePercent) { if ($w -lt 0 -or $w -gt 100) { $bad = "-WritePercent ${w}: use 0..100." } }
  if ($bad) { $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetSweepBadGrid' -Category InvalidArgument -Message $bad)) }
  try { Test-IoSpdFleetRawArgument -ArgumentList $ArgumentList } catch { $PSCmdlet.ThrowTerminatingError($_) }

  if (-not $OutputDirectory) { $OutputDirectory = (Get-Location).ProviderPath }
  $root = Join-Path $OutputDirectory $Label
  $null = New-Item -ItemType Directory -Force -Path $root

  $fleet = @{ Session = $Session; Target = $Target; IoSpdPath = $IoSpdPath; TimeoutSec = $TimeoutSec; Force = $Force
    AlignCsvOwner = $AlignCsvOwner }
  foreach ($k in 'NodeName', 'WorkingDirectory', 'ExecutablePath') { if ($PSBoundParameters.ContainsKey($k)) { $fleet[$k] = $PSBoundParameters[$k] } }

  foreach ($w in $WritePercent) {
    foreach ($b in $BlockSize) {
      $bs = ([string]$b).ToUpperInvariant()
      foreach ($t in $Threads) {
        $stopWhy = $null
        foreach ($o in $OutstandingIO) {
          $name = "w$w-b$bs-t$t-o$o"
          $dir = Join-Path $root $name
          $pointFile = Join-Path $dir 'point.json'
          $row = [ordered]@{ PSTypeName = 'IoSpd.FleetSweepPoint'; Label = $Label; Point = $name; BlockSize = $bs; Threads = $t
            OutstandingIO = $o; WritePercent = $w; Iops = $null; MiBps = $null; MeanMs = $null; P99Ms = $null
            MaxCpuPercent = $null; StartSkewMs = $null; Partial = $null; FailedNodes = @(); Skipped = $null; Error = $null
            Resumed = $false; Path = $dir }
          if ($Resume -and (Test-Path -LiteralPath $pointFile)) {
            $saved = Get-Content -LiteralPath $pointFile -Raw | ConvertFrom-Json
            foreach ($p in $saved.PSObject.Properties) { if ($row.Contains($p.Name) -and $p.Name -ne 'PSTypeName') { $row[$p.Name] = $p.Value } }
            $row.Resumed = $true
            $out = [pscustomobject]$row
            if (-not $stopWhy) { $stopWhy = Get-IoSpdFleetSweepLimit -Point $out -MaxAvgLatencyMs $MaxAvgLatencyMs -MaxP99LatencyMs $MaxP99LatencyMs -MaxCpuPercent $MaxCpuPercent }
            $out
            continue
          }
          if ($stopWhy) {
            $row.Skipped = $stopWhy
            [pscustomobject]$row
            continue
          }
          $null = New-Item -ItemType Directory -Force -Path $dir
          $args2 = @($ArgumentList | Where-Object { $_ }) + @("-b$bs", "-t$t", "-o$o", "-w$w")
          try {
            # A node that failed is an error whose TargetObject is the
            # partial result of the others: the point keeps it (Partial).
            try { $r = Invoke-IoSpdFleet @fleet -ArgumentList $args2 -OutputDirectory $dir -ErrorAction Stop }
            catch { if ($_.FullyQualifiedErrorId -like 'IoSpdFleetNodeFailed*' -and $_.TargetObject) { $r = $_.TargetObject } else { throw } }
            $row.Iops = $r.Iops; $row.MiBps = $r.MiBps; $row.MeanMs = $r.MeanMs; $row.P99Ms = $r.P99Ms
            $row.MaxCpuPercent = $r.MaxCpuPercent; $row.StartSkewMs = $r.StartSkewMs; $row.Partial = $r.Partial
            $row.FailedNodes = @($r.FailedNodes)
          } catch {
            $row.Error = $_.Exception.Message
            if (-not $ContinueOnError) {
              [pscustomobject]$row
              $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetSweepPointFailed' -Category OperationStopped -Target $name `
                    -Message "Sweep '$Label' point $name failed: $($row.Error) (earlier points are saved under $root; -Resume goes on from here, -ContinueOnError records failures and goes on)."))
            }
            Write-Warning "Invoke-IoSpdFleetSweep: point $name failed: $($row.Error)"
          }
          $out = [pscustomobject]$row
          # Written last and whole: a point.json means the point is measured.
          if (-not $row.Error) {
            $tmp = "$pointFile.tmp"
            $out | Select-Object -Property * -ExcludeProperty PSTypeName | ConvertTo-Json -Depth 4 | Set-Content -LiteralPath $tmp -Encoding utf8
            Move-Item -LiteralPath $tmp -Destination $pointFile -Force
            $stopWhy = Get-IoSpdFleetSweepLimit -Point $out -MaxAvgLatencyMs $MaxAvgLatencyMs -MaxP99LatencyMs $MaxP99LatencyMs -MaxCpuPercent $MaxCpuPercent
          }
          $out
        }
      }
    }
  }
}
