# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep: run Invoke-IoSpd over the grid of block sizes, thread
# counts, queue depths and write ratios; one result per grid point.

function Invoke-IoSpdSweep {
  <#
  .SYNOPSIS
  Runs iospd over a grid of parameters and returns one result per point.

  .DESCRIPTION
  For every combination of -BlockSize, -Threads, -OutstandingIO and
  -WritePercent (block size outermost, write ratio innermost) runs
  Invoke-IoSpd with the common parameters and returns its result with the
  point's parameters attached (Point, BlockSize, Threads, OutstandingIO,
  WritePercent). A dimension left out is not passed to iospd (its default
  applies) and shows as $null. Progress is shown with Write-Progress.

  .PARAMETER BlockSize
  Block sizes: numbers of bytes or strings with K/M/G ('4K', '64K').

  .PARAMETER Threads
  Thread counts per target (-t).

  .PARAMETER OutstandingIO
  Outstanding I/Os per thread (-o).

  .PARAMETER WritePercent
  Write percentages (-w).

  .EXAMPLE
  Invoke-IoSpdSweep -Target D:\t.dat -CreateSize 4G -BlockSize 4K, 64K -Threads 1, 4 -OutstandingIO 1, 8, 32 -Random -Duration 20 -CacheMode Both -Latency | Format-Table BlockSize, Threads, OutstandingIO, IOPS, MiBps, TotalP99Ms

  Runs 12 tests and shows a table of IOPS and tail latency.

  .EXAMPLE
  Invoke-IoSpdSweep -Target D:\t.dat -BlockSize 8K -OutstandingIO 1, 2, 4, 8, 16 -WritePercent 0, 100 -Duration 10 | Export-Csv sweep.csv -NoTypeInformation

  Queue-depth scan for reads and writes saved as CSV.

  .OUTPUTS
  IoSpd.Result with the sweep point's parameters added.
  #>
  [CmdletBinding()]
  param(
    [Parameter(Mandatory, Position = 0)] [string[]] $Target,
    [object[]] $BlockSize,
    [int[]] $Threads,
    [int[]] $OutstandingIO,
    [int[]] $WritePercent,
    [switch] $Random,
    [int] $Duration,
    [int] $Warmup,
    [int] $Cooldown,
    [ValidateSet('Cached', 'NoBuffering', 'WriteThrough', 'Both')] [string] $CacheMode,
    [switch] $Latency,
    [int] $IopsInterval,
    [object] $CreateSize,
    [string[]] $ArgumentList,
    [string] $Path,
    [switch] $AlignCsvOwner
  )
  $common = @{ Target = $Target }
  foreach ($name in 'Random', 'Duration', 'Warmup', 'Cooldown', 'CacheMode', 'Latency',
    'IopsInterval', 'CreateSize', 'ArgumentList', 'Path', 'AlignCsvOwner') {
    if ($PSBoundParameters.ContainsKey($name)) { $common[$name] = $PSBoundParameters[$name] }
  }
  # @($null) stands for "not given": one pass, parameter not passed.
  $dims = [ordered]@{}
  foreach ($name in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent') {
    $v = $PSBoundParameters[$name]
    if ($null -eq $v -or @($v).Count -eq 0) { $dims[$name] = @($null) } else { $dims[$name] = @($v) }
  }
  $total = 1
  foreach ($k in $dims.Keys) { $total *= $dims[$k].Count }
  $point = 0
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
          foreach ($r in @(Invoke-IoSpd @run)) {
            $r | Add-Member -NotePropertyName Point -NotePropertyValue $point -Force
            $r | Add-Member -NotePropertyName BlockSize -NotePropertyValue $bs -Force
            $r | Add-Member -NotePropertyName Threads -NotePropertyValue $t -Force
            $r | Add-Member -NotePropertyName OutstandingIO -NotePropertyValue $o -Force
            $r | Add-Member -NotePropertyName WritePercent -NotePropertyValue $w -Force
            $r
          }
        }
      }
    }
  }
  Write-Progress -Activity 'iospd sweep' -Completed
}
