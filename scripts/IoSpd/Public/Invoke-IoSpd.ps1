# SPDX-License-Identifier: MIT
# Invoke-IoSpd: build a DISKSPD-compatible command line from parameters, run
# iospd with -Rxml and return the parsed results.

function Invoke-IoSpd {
  <#
  .SYNOPSIS
  Runs one iospd test and returns its results as objects.

  .DESCRIPTION
  Turns the parameters into iospd's DISKSPD-compatible switches, always adds
  -Rxml, runs iospd and returns the output of ConvertFrom-IoSpdXml (one
  IoSpd.Result per time span). A non-zero exit code becomes an error that
  carries the program's error text.

  Switch mapping: -BlockSize -> -b, -Threads -> -t, -OutstandingIO -> -o,
  -WritePercent -> -w, -Random -> -r, -Duration -> -d, -Warmup -> -W,
  -Cooldown -> -C, -CacheMode Cached/NoBuffering/WriteThrough/Both ->
  -Sb/-Su/-Sw/-Sh, -Latency -> -L, -IopsInterval -> -D, -CreateSize -> -c.
  -ArgumentList is appended as given (before -Rxml and the targets).

  .PARAMETER Target
  Files (or #<disk number> / drive targets) to test.

  .PARAMETER BlockSize
  Block size in bytes (65536) or with a K/M/G suffix ('64K').

  .PARAMETER CreateSize
  Create the target files with this size (bytes or '1G').

  .PARAMETER IopsInterval
  Collect IOPS per interval of this many milliseconds (-D).

  .PARAMETER ArgumentList
  Further raw iospd arguments, for example '-Z1M' or '-a0,1'.

  .PARAMETER Path
  The iospd executable; default: iospd from PATH.

  .PARAMETER AlignCsvOwner
  Before the run, make this node the owner of each target's Cluster Shared
  Volume (Move-IoSpdCsvOwner) so that I/O goes direct, not redirected.

  .EXAMPLE
  Invoke-IoSpd -Target D:\test.dat -CreateSize 1G -BlockSize 4K -Threads 4 -OutstandingIO 32 -Random -WritePercent 30 -Duration 30 -CacheMode Both -Latency

  4 KiB random 70/30 read/write test with caching off; returns IOPS, MiB/s and
  latency percentiles.

  .EXAMPLE
  Invoke-IoSpd -Target C:\ClusterStorage\Volume1\t.dat -CreateSize 10G -BlockSize 64K -Duration 60 -AlignCsvOwner

  Moves the CSV to this node first, then runs a sequential read test.

  .EXAMPLE
  Invoke-IoSpd -Target /mnt/nvme/t.dat -Path ./build/linux/iospd -BlockSize 4096 -Duration 2 -ArgumentList '-Z1M' | Select-Object IOPS, MiBps

  Runs the Linux build with an extra raw switch.

  .OUTPUTS
  IoSpd.Result (see ConvertFrom-IoSpdXml).
  #>
  [CmdletBinding()]
  param(
    [Parameter(Mandatory, Position = 0)] [string[]] $Target,
    [object] $BlockSize,
    [ValidateRange(1, 65535)] [int] $Threads,
    [ValidateRange(1, 1048576)] [int] $OutstandingIO,
    [ValidateRange(0, 100)] [int] $WritePercent,
    [switch] $Random,
    [ValidateRange(0, 2147483647)] [int] $Duration,
    [ValidateRange(0, 2147483647)] [int] $Warmup,
    [ValidateRange(0, 2147483647)] [int] $Cooldown,
    [ValidateSet('Cached', 'NoBuffering', 'WriteThrough', 'Both')] [string] $CacheMode,
    [switch] $Latency,
    [ValidateRange(1, 2147483647)] [int] $IopsInterval,
    [object] $CreateSize,
    [string[]] $ArgumentList,
    [string] $Path,
    [switch] $AlignCsvOwner
  )

  $argParams = @{ Target = $Target }
  foreach ($name in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent', 'Random',
    'Duration', 'Warmup', 'Cooldown', 'CacheMode', 'Latency', 'IopsInterval',
    'CreateSize', 'ArgumentList') {
    if ($PSBoundParameters.ContainsKey($name)) { $argParams[$name] = $PSBoundParameters[$name] }
  }
  $arguments = ConvertTo-IoSpdArgumentList @argParams
  $exe = Resolve-IoSpdExecutable -Path $Path

  if ($AlignCsvOwner) {
    foreach ($t in $Target) {
      if ($t -match '^#\d+$') { continue }   # physical disk, not a file on a CSV
      $null = Move-IoSpdCsvOwner -Path $t -Confirm:$false
    }
  }

  Write-Verbose ("Running: $exe " + ($arguments -join ' '))
  $run = Invoke-IoSpdProcess -FilePath $exe -ArgumentList $arguments
  if ($run.ExitCode -ne 0) {
    $msg = ([string]$run.StdErr).Trim()
    if (-not $msg) { $msg = ([string]$run.StdOut).Trim() }
    if (-not $msg) { $msg = '(no error text)' }
    $ex = [InvalidOperationException]::new("iospd exited with code $($run.ExitCode): $msg")
    $rec = [Management.Automation.ErrorRecord]::new($ex, 'IoSpdRunFailed',
      [Management.Automation.ErrorCategory]::InvalidResult, $exe)
    $PSCmdlet.ThrowTerminatingError($rec)
  }
  if ($run.StdErr) { Write-Verbose ("iospd stderr: " + $run.StdErr.Trim()) }
  ConvertFrom-IoSpdXml -Xml ([string]$run.StdOut)
}
