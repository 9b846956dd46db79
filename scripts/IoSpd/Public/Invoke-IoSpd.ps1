# SPDX-License-Identifier: MIT
# Invoke-IoSpd: build a DISKSPD-compatible command line from parameters, run
# iospd with -Rxml (or -Rjson) and return the parsed results; -WhatIf,
# -TimeoutSec, and iospd killed when the pipeline stops.

function Invoke-IoSpd {
  <#
  .SYNOPSIS
  Runs one iospd test and returns its results as objects.

  .DESCRIPTION
  Turns the parameters into iospd's DISKSPD-compatible switches, always adds
  -Rxml (-Rjson with -Json), runs iospd and returns the output of
  ConvertFrom-IoSpdXml (one IoSpd.Result per time span).

  Switch mapping: -DiskSpdVersion -> --diskspd=, -BlockSize -> -b, -Threads -> -t, -OutstandingIO -> -o,
  -WritePercent -> -w, -Random -> -r, -Duration -> -d, -Warmup -> -W,
  -Cooldown -> -C, -CacheMode Cached/NoBuffering/WriteThrough/Both ->
  -Sb/-Su/-Sw/-Sh, -Latency -> -L, -IopsInterval -> -D, -CreateSize -> -c.
  -ArgumentList is appended as given (before -Rxml and the targets).

  iospd runs in the PowerShell location ($PWD), so relative targets mean
  what they mean in PowerShell. Its output is read as UTF-8.

  Errors: bad parameters and a missing executable stop the command before
  anything runs (terminating; ids IoSpdInvalidSize, IoSpdInvalidArgument,
  IoSpdExecutableNotFound). A run that fails (non-zero exit code: id
  IoSpdRunFailed, with iospd's error text) or is stopped by -TimeoutSec (id
  IoSpdTimeout) is a non-terminating error and returns nothing, so
  -ErrorAction applies: use -ErrorAction Stop (or try/catch with it) where a
  script must not go on after a failed run.

  Warnings: every warning iospd prints (its own "warning: ..." lines, such
  as a run that measures the page cache or more threads than CPUs, and
  DISKSPD's "WARNING: ..." lines, each with the "note: ..." that explains
  it) is written with Write-Warning, so -WarningAction and
  $WarningPreference apply, and every result carries the lines as printed
  in its Warnings property (empty when there were none). DISKSPD's
  "NOTE: ..." lines go to the information stream (-InformationAction).

  Stopping the command (Ctrl+C, PowerShell.Stop(), a stopped pipeline) kills
  the running iospd and waits for it to end.

  Supports -WhatIf and -Confirm: -WhatIf shows the CSV moves and the iospd
  command line and does neither; with -Confirm each is asked for, and
  declining a CSV move skips the run too (an unaligned run would measure
  redirected I/O).

  .PARAMETER Target
  Files (or #<disk number> / drive targets) to test. Relative paths are
  relative to the PowerShell location. Takes pipeline input: file objects
  bind by their FullName (Get-ChildItem *.dat | Invoke-IoSpd), strings as
  they are; all of them are the targets of one run.

  .PARAMETER BlockSize
  Block size: a number of bytes (65536, or PowerShell's 64KB) or iospd's size
  text with K/M/G/T ('64K'; '64KB' and '64KiB', the form iospd prints, are
  read the same).

  .PARAMETER FullName
  Not for direct use: a file object from the pipeline (Get-ChildItem)
  becomes a target by its FullName.

  .PARAMETER Threads
  Threads per target (-t).

  .PARAMETER OutstandingIO
  Outstanding I/Os per thread and target (-o).

  .PARAMETER WritePercent
  Percentage of writes, 0..100 (-w).

  .PARAMETER Duration
  Measured seconds (-d).

  .PARAMETER Warmup
  Seconds of warm-up before measuring (-W).

  .PARAMETER Cooldown
  Seconds of cool-down after measuring (-C).

  .PARAMETER CacheMode
  Cached, NoBuffering, WriteThrough or Both (-Sb, -Su, -Sw, -Sh).

  .PARAMETER CreateSize
  Create the target files with this size: bytes (1073741824, 1GB) or '1G'
  ('1GiB' too).

  .PARAMETER IopsInterval
  Collect IOPS per interval of this many milliseconds (-D).

  .PARAMETER ArgumentList
  Further raw iospd arguments, for example '-Z1M' or '-a0,1'.

  .PARAMETER ExecutablePath
  The iospd executable; default: iospd from PATH. -Path is an alias (the
  old name; elsewhere in the module -Path means result or target files).

  .PARAMETER AlignCsvOwner
  Before the run, make this node the owner of each target's Cluster Shared
  Volume (Move-IoSpdCsvOwner) so that I/O goes direct, not redirected.
  Honours -WhatIf and -Confirm. Relative targets are resolved against the
  PowerShell location for the CSV lookup.

  .PARAMETER TimeoutSec
  Kill iospd if it is still running after this many seconds and report an
  IoSpdTimeout error (no results). Allow for -Duration + -Warmup + -Cooldown
  and the time to create the files. Default: no limit.

  .PARAMETER Json
  Ask iospd for -Rjson and return its document as parsed by ConvertFrom-Json
  (every field of docs/results-json.md, including histograms and the
  environment) instead of IoSpd.Result objects.

  .PARAMETER Random
  Random offsets (-r); without it, sequential offsets.

  .PARAMETER Latency
  Measure latency (-L): the results then hold the mean, standard deviation
  and percentiles; without it those are $null.

  .PARAMETER Verify
  --verify: every block written carries a header and a crc32, and every
  block read that a verified run wrote is checked (docs/verify.md). The
  results then have Verify (per target counts) and VerifyFailures; a run
  with failures still returns its results and also writes an
  IoSpdVerifyFailed error (so -ErrorAction Stop stops a script).

  .PARAMETER VerifyOnly
  --verify-only: read each target once and check every block earlier
  -Verify runs wrote (after a crash, a power cut or a failover). Returns one
  IoSpd.VerifyOnlyResult per target (counts by kind, Complete, Passed,
  FailureLines), and an IoSpdVerifyFailed error when any block failed. A
  target the pass could not check to the end (read-only state, state in
  use, a read error) has Complete and Passed false, and the error is
  IoSpdVerifyIncomplete.

  .PARAMETER DiskSpdVersion
  --diskspd=2.2 or --diskspd=2.3: the DISKSPD release whose defaults,
  switches and result layouts iospd follows (docs/compat-differences.md).
  2.3 separates each thread's buffers by default and knows -u, -oc, -bs and
  the new affinity forms; 2.2 is what a baseline made with DISKSPD 2.2
  needs. Not given: iospd's default. The results say which it was
  (DiskSpdVersion).

  .PARAMETER Pts
  --pts=iops|throughput|latency: a SNIA PTS 2.0.2 test from one command
  line (docs/pts.md): preconditioning, rounds of the test's cells until
  steady state or 25 rounds. Returns one IoSpd.PtsResult: Rounds (each
  with Round, TrackedValue and Cells: BlockSize, ReadPercent, Access, IOPS,
  MiBps, MeanUs, P99Us ...), Window (the last measurement window: Values,
  Mean, DataExcursion(Percent), Slope, SlopeExcursion(Percent), DataOk,
  SlopeOk), Converged, Stopped, Conformant, NonconformantReasons, Tracked,
  Target, Warnings and the parsed document in Document. With -Json the
  document as ConvertFrom-Json gives it. iospd ignores -BlockSize,
  -WritePercent, -Random, -Duration, -Warmup, -Cooldown, -Latency and
  -IopsInterval with it (the cells set them) and says so in a warning.

  .PARAMETER PtsCell
  --pts-cell=<time>: each cell lasts this long ('1s', whole seconds)
  instead of PTS's 60 s; the run is then not conformant, and says so.

  .PARAMETER VerifyState
  --verify-state=FILE: where the verify state lives instead of
  <target>.iospd-verify (one target only; needed for physical disks).

  .EXAMPLE
  Invoke-IoSpd -Target D:\test.dat -CreateSize 1GB -BlockSize 4KB -Threads 4 -OutstandingIO 32 -Random -WritePercent 30 -Duration 30 -CacheMode Both -Latency

  4 KiB random 70/30 read/write test with caching off; returns IOPS, MiB/s and
  latency percentiles. Sizes may be PowerShell numbers (4KB) or text ('4K').

  .EXAMPLE
  Invoke-IoSpd -Target C:\ClusterStorage\Volume1\t.dat -CreateSize 10G -BlockSize 64K -Duration 60 -AlignCsvOwner -Confirm

  Asks before moving the CSV to this node and before the run (-WhatIf shows
  both and does neither).

  .EXAMPLE
  Invoke-IoSpd -Target /mnt/nvme/t.dat -ExecutablePath ./build/linux/iospd -BlockSize 4096 -Duration 2 -ArgumentList '-Z1M' | Select-Object IOPS, MiBps

  Runs the Linux build with an extra raw switch.

  .EXAMPLE
  $r = Invoke-IoSpd -Target t.dat -CreateSize 1G -Duration 30 -TimeoutSec 60 -ErrorAction Stop

  Stops the script with an IoSpdTimeout error if the run takes over a minute.

  .EXAMPLE
  (Invoke-IoSpd -Target t.dat -CreateSize 64M -Duration 5 -Latency -Json).timespans[0].total.total

  The JSON document's totals (see docs/results-json.md).

  .EXAMPLE
  Invoke-IoSpd -Target C:\ClusterStorage\Volume1\v.dat -CreateSize 4G -BlockSize 64K -WritePercent 100 -Random -Duration 600 -Verify

  Writes checked blocks for ten minutes (fail the node over meanwhile), then
  on the node that owns the volume afterwards:
  Invoke-IoSpd -Target C:\ClusterStorage\Volume1\v.dat -BlockSize 64K -VerifyOnly -ErrorAction Stop

  .EXAMPLE
  $p = Invoke-IoSpd -Target /dev/nvme1n1 -Pts iops -Threads 4 -OutstandingIO 32 -CacheMode Both -ArgumentList '--allow-raw-write'

  A PTS IOPS test of a whole device (everything on it is overwritten);
  $p.Converged, $p.Window and $p.Rounds[-1].Cells | Format-Table.

  .OUTPUTS
  IoSpd.Result (see ConvertFrom-IoSpdXml); with -Json the parsed JSON document;
  with -VerifyOnly IoSpd.VerifyOnlyResult; with -Pts IoSpd.PtsResult.
  #>
  [CmdletBinding(SupportsShouldProcess)]
  param(
    [Parameter(Mandatory, Position = 0, ValueFromPipeline)] [string[]] $Target,
    # A file from the pipeline binds its FullName here (not by property name
    # to -Target: FileInfo has a Target property of its own, its link target).
    [Parameter(ValueFromPipelineByPropertyName, DontShow)] [string] $FullName,
    [PSDefaultValue(Help = "iospd's: 64K (-b)")] [object] $BlockSize,
    [PSDefaultValue(Help = "iospd's: 1 thread per target (-t)")] [ValidateRange(1, 65535)] [int] $Threads,
    [PSDefaultValue(Help = "iospd's: 2 per thread and target (-o)")] [ValidateRange(1, 1048576)] [int] $OutstandingIO,
    [PSDefaultValue(Help = "iospd's: 0, reads only (-w)")] [ValidateRange(0, 100)] [int] $WritePercent,
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
    [switch] $Json,
    [switch] $Verify,
    [switch] $VerifyOnly,
    [string] $VerifyState,
    [PSDefaultValue(Help = "iospd's default level (2.3)")] [ValidateSet('2.2', '2.3')] [string] $DiskSpdVersion,
    [ValidateSet('iops', 'throughput', 'latency')] [string] $Pts,
    [PSDefaultValue(Help = "iospd's: PTS's 60 s cells")] [string] $PtsCell
  )

  begin { $allTargets = [Collections.Generic.List[string]]::new() }
  # Targets from the pipeline (Get-ChildItem *.dat | Invoke-IoSpd binds each
  # file's FullName) are gathered: one run over all of them, as iospd runs
  # every target given on one command line together.
  process {
    if ($PSBoundParameters.ContainsKey('FullName') -and $FullName) { $allTargets.Add($FullName) }
    else { foreach ($t in @($Target)) { $allTargets.Add($t) } }
  }
  end {
  $Target = $allTargets.ToArray()
  # Bad input stops here, before anything is moved or run: terminating
  # errors with ids (IoSpdInvalidSize, IoSpdInvalidArgument,
  # IoSpdExecutableNotFound). The try/catch also keeps a private helper's
  # throw from being swallowed by -ErrorAction SilentlyContinue.
  try {
    # --pts writes its own document (iospd-pts) where -Rjson puts results.
    $argParams = @{ Target = $Target; ResultFormat = $(if ($Json -or $Pts) { 'json' } else { 'xml' }) }
    foreach ($name in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent', 'Random',
      'Duration', 'Warmup', 'Cooldown', 'CacheMode', 'Latency', 'IopsInterval',
      'CreateSize', 'ArgumentList', 'Verify', 'VerifyOnly', 'VerifyState', 'DiskSpdVersion') {
      if ($PSBoundParameters.ContainsKey($name)) { $argParams[$name] = $PSBoundParameters[$name] }
    }
    if ($PtsCell -and -not $Pts) {
      throw (New-IoSpdInvokeError -Message '-PtsCell needs -Pts (iops, throughput or latency).' `
          -ErrorId 'IoSpdInvalidArgument' -Category InvalidArgument -TargetObject $PtsCell)
    }
    if ($Pts -and ($Verify -or $VerifyOnly)) {
      throw (New-IoSpdInvokeError -Message '-Pts runs its own cells: it cannot be combined with -Verify or -VerifyOnly.' `
          -ErrorId 'IoSpdInvalidArgument' -Category InvalidArgument -TargetObject $Pts)
    }
    if ($Pts) {
      $ptsArgs = @("--pts=$Pts")
      if ($PtsCell) { $ptsArgs += "--pts-cell=$PtsCell" }
      $argParams['ArgumentList'] = $ptsArgs + @($ArgumentList | Where-Object { $_ })
    }
    $arguments = ConvertTo-IoSpdArgumentList @argParams
    $exe = Resolve-IoSpdExecutable -Path $ExecutablePath
  } catch {
    $PSCmdlet.ThrowTerminatingError($_)
  }

  if ($AlignCsvOwner) {
    foreach ($t in $Target) {
      if ($t -match '^#\d+$') { continue }   # physical disk, not a file on a CSV
      # The CSV lookup needs the path PowerShell means, not one relative to
      # the process's current directory.
      $full = Resolve-IoSpdLocalPath -Path $t -SessionState $PSCmdlet.SessionState
      # Declining (or -WhatIf) skips the run too: an unaligned run would
      # measure redirected I/O, which is not what was asked for.
      if (-not $PSCmdlet.ShouldProcess($full, 'Move its Cluster Shared Volume to this node')) { return }
      try {
        $null = Move-IoSpdCsvOwner -Path $full -Confirm:$false -WhatIf:$false -ErrorAction Stop
      } catch {
        $PSCmdlet.ThrowTerminatingError($_)
      }
    }
  }

  $commandLine = "$exe " + ($arguments -join ' ')
  if (-not $PSCmdlet.ShouldProcess(($Target -join ', '), "Run $commandLine")) { return }
  Write-Verbose "Running: $commandLine"
  $runParams = @{ FilePath = $exe; ArgumentList = $arguments }
  if ($PSBoundParameters.ContainsKey('TimeoutSec')) { $runParams['TimeoutSec'] = $TimeoutSec }
  try {
    $run = Invoke-IoSpdProcess @runParams
  } catch {
    $PSCmdlet.ThrowTerminatingError($_)
  }

  # A failed or timed-out run is a non-terminating error: -ErrorAction Stop
  # makes it terminating, SilentlyContinue drops it; nothing is returned.
  if ($run.PSObject.Properties['TimedOut'] -and $run.TimedOut) {
    $procId = if ($run.PSObject.Properties['Id']) { $run.Id } else { '?' }
    $msg = "iospd was stopped after -TimeoutSec $TimeoutSec s and its results are lost (PID $procId, $commandLine). " +
      'Give -TimeoutSec more than -Duration + -Warmup + -Cooldown plus the time to create the files.'
    $PSCmdlet.WriteError((New-IoSpdInvokeError -Message $msg -ErrorId 'IoSpdTimeout' -Category OperationTimeout -TargetObject $exe))
    return
  }
  # iospd's warnings reach the caller: Write-Warning (so -WarningAction and
  # $WarningPreference apply), NOTE: lines as information, and the lines
  # themselves in every result's Warnings property.
  $warn = ConvertFrom-IoSpdWarningLine -Line ([string]$run.StdErr)
  foreach ($m in $warn.Messages) { Write-Warning "iospd: $m" }
  foreach ($n in $warn.Notes) { Write-Information -MessageData "iospd: $n" -Tags 'IoSpd', 'Note' }
  $wl = $warn.Lines
  if ($VerifyOnly -and ($run.ExitCode -eq 0 -or $run.ExitCode -eq 1)) {
    # Exit 1 with summary lines is a verify that found bad blocks: the
    # results are the answer, and the error says so.
    $res = @(ConvertFrom-IoSpdVerifyText -StdOut ([string]$run.StdOut) -StdErr ([string]$run.StdErr) -ExitCode $run.ExitCode)
    if ($res.Count -gt 0) {
      $res | Add-IoSpdWarningProperty -Lines $wl
      if ($run.ExitCode -ne 0) {
        $bad = ($res | Measure-Object -Property Failures -Sum).Sum
        if ($bad -gt 0) {
          $PSCmdlet.WriteError((New-IoSpdInvokeError -Message ("iospd --verify-only found $bad bad blocks: " +
                  (([string]$run.StdErr).Trim())) -ErrorId 'IoSpdVerifyFailed' -Category InvalidResult -TargetObject $exe))
        } else {
          # Nothing bad found, but the check did not get through: no pass.
          $PSCmdlet.WriteError((New-IoSpdInvokeError -Message ("iospd --verify-only could not check every block " +
                  "(exit code $($run.ExitCode)): " + (([string]$run.StdErr).Trim())) -ErrorId 'IoSpdVerifyIncomplete' `
                -Category InvalidResult -TargetObject $exe))
        }
      }
      return
    }
  }
  if ($Verify -and $run.ExitCode -eq 1 -and ([string]$run.StdErr) -match '(?m)^verify FAILED: ' -and
    ([string]$run.StdOut).Trim()) {
    # The run measured; some blocks read back were wrong: results and error.
    $(if ($Json) { [string]$run.StdOut | ConvertFrom-Json } else { ConvertFrom-IoSpdXml -Xml ([string]$run.StdOut) }) |
      Add-IoSpdWarningProperty -Lines $wl
    $PSCmdlet.WriteError((New-IoSpdInvokeError -Message ("iospd --verify found bad blocks: " + ([string]$run.StdErr).Trim()) `
          -ErrorId 'IoSpdVerifyFailed' -Category InvalidResult -TargetObject $exe))
    return
  }
  if ($run.ExitCode -ne 0) {
    $msg = ([string]$run.StdErr).Trim()
    if (-not $msg) { $msg = ([string]$run.StdOut).Trim() }
    if (-not $msg) { $msg = '(no error text)' }
    $PSCmdlet.WriteError((New-IoSpdInvokeError -Message "iospd exited with code $($run.ExitCode): $msg" `
          -ErrorId 'IoSpdRunFailed' -Category InvalidResult -TargetObject $exe))
    return
  }
  if ($run.StdErr) { Write-Verbose ("iospd stderr: " + $run.StdErr.Trim()) }
  if ($Pts -and -not $Json) {
    try {
      $doc = [string]$run.StdOut | ConvertFrom-Json -ErrorAction Stop
      ConvertFrom-IoSpdPtsDocument -Doc $doc -Source "iospd --pts=$Pts's -Rjson output" | Add-IoSpdWarningProperty -Lines $wl
    } catch {
      $PSCmdlet.WriteError((New-IoSpdInvokeError -Message "iospd --pts=${Pts}: $($_.Exception.Message)" `
            -ErrorId 'IoSpdBadJson' -Category InvalidData -TargetObject $exe))
    }
    return
  }
  if ($Json) {
    try {
      [string]$run.StdOut | ConvertFrom-Json -ErrorAction Stop | Add-IoSpdWarningProperty -Lines $wl
    } catch {
      $PSCmdlet.WriteError((New-IoSpdInvokeError -Message "iospd's -Rjson output is not JSON: $($_.Exception.Message)" `
            -ErrorId 'IoSpdBadJson' -Category InvalidData -TargetObject $exe))
    }
    return
  }
  ConvertFrom-IoSpdXml -Xml ([string]$run.StdOut) | Add-IoSpdWarningProperty -Lines $wl
  }
}
